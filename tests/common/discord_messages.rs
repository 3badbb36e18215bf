//! What Donna posted on the fake Discord, as a test reads it: her messages in a channel and the
//! buttons under a message.

use super::Fields;
use serde_json::Value;

use super::fake_discord::{FakeDiscord, BOT_USER_ID};

/// Donna's messages in `channel`, oldest first.
pub fn bot_messages(fake: &FakeDiscord, channel: u64) -> Vec<Value> {
    fake.channel_messages(channel)
        .into_iter()
        .filter(|m| m["author"]["id"].as_str() == Some(BOT_USER_ID.to_string().as_str()))
        .collect()
}

/// The buttons of a message: (label, custom id, disabled).
pub fn buttons_of(message: &Value) -> Vec<(String, String, bool)> {
    message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].items().to_vec())
        .map(|button| {
            (
                button["label"].text().to_owned(),
                button["custom_id"].text().to_owned(),
                button["disabled"].as_bool().unwrap_or(false),
            )
        })
        .collect()
}
