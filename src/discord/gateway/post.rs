//! Posting a message in Discord: the one place Donna's messages are created, so every one of
//! them carries allowed mentions that ping nobody.
//!
//! Invariant: a reply or a nudge that contains `@everyone`, `@here`, a role or a user mention
//! (from a task title, the model's words or the person's own) is shown as text and notifies no
//! one; Discord reads the mentions to notify only from `allowed_mentions`.

use twilight_http::request::channel::message::CreateMessage;
use twilight_http::Client;
use twilight_model::channel::message::AllowedMentions;
use twilight_model::id::marker::ChannelMarker;
use twilight_model::id::Id;

/// Allowed mentions that ping nobody (`{"parse": []}`).
fn nobody() -> &'static AllowedMentions {
    static NOBODY: std::sync::OnceLock<AllowedMentions> = std::sync::OnceLock::new();
    NOBODY.get_or_init(AllowedMentions::default)
}

/// A message with `text` in `channel`, pinging nobody; await it (or its `.model()`) to send.
pub(super) fn post<'a>(
    http: &'a Client,
    channel: Id<ChannelMarker>,
    text: &'a str,
) -> CreateMessage<'a> {
    http.create_message(channel)
        .content(text)
        .allowed_mentions(Some(nobody()))
}
