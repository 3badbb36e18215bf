//! Editing the buttons under a message Donna sent to disabled, and the round that does it for a
//! batch: shared by proposals (Yes / No, `proposals`) and nudges (Done / Snooze 1h / Tomorrow,
//! `stale_nudges`), which only differ in which messages they pick and which row they draw.
//!
//! Invariants: an edit counts as done only when Discord took it, answered that the message or
//! channel is gone, or the stored ids are not Discord's (nothing could ever be edited); any other
//! failure, or an edit past `deadline`, is left to the next round.

use std::time::Duration;

use twilight_http::Client;
use twilight_model::channel::message::Component;
use twilight_model::id::Id;

/// Discord's "Unknown Message" and "Unknown Channel" codes: nothing left to disable.
const GONE: [u64; 2] = [10008, 10003];

/// Edits the buttons of message `message_id` in `channel_id` to `row`; Ok when nothing is left
/// to do (see the invariants), the error to log otherwise.
pub(super) async fn edit_to(
    http: &Client,
    channel_id: &str,
    message_id: &str,
    row: &[Component],
) -> Result<(), twilight_http::Error> {
    let (Some(channel), Some(message)) = (discord_id(channel_id), discord_id(message_id)) else {
        return Ok(());
    };
    match http
        .update_message(channel, message)
        .components(Some(row))
        .await
    {
        Ok(_) => Ok(()),
        Err(error) if is_gone(&error) => Ok(()),
        Err(error) => Err(error),
    }
}

/// Runs `disable` on each of `messages`, each bounded by `deadline`; the ones it finished.
pub(super) async fn each_within<T>(
    messages: Vec<T>,
    deadline: Duration,
    disable: impl AsyncFn(&T) -> bool,
) -> Vec<T> {
    let mut done = Vec::new();
    for message in messages {
        if tokio::time::timeout(deadline, disable(&message))
            .await
            .unwrap_or(false)
        {
            done.push(message);
        }
    }
    done
}

/// A stored id as Discord's, None when it is not one.
fn discord_id<Marker>(text: &str) -> Option<Id<Marker>> {
    text.parse::<u64>().ok().and_then(Id::new_checked)
}

fn is_gone(error: &twilight_http::Error) -> bool {
    match error.kind() {
        twilight_http::error::ErrorType::Response { error, .. } => {
            matches!(error, twilight_http::api_error::ApiError::General(general) if GONE.contains(&general.code))
        }
        _ => false,
    }
}
