//! Which ids a chat may have, by channel, as Donna's own doors give them: a Discord chat's id is
//! the Discord channel's (a snowflake: digits); a local chat's is one Donna made (`thr_...`) or
//! one of her own two chats, [`WEB_CHAT`] (the web page's) and [`CONSOLE_CHAT`] (the
//! terminal's), each a free local chat of one person whose chat id is its id.
//!
//! Why: a chat that did not come through those doors (an import's) could otherwise take another
//! channel's messages (a local chat with a Discord channel's id swallows that channel; a
//! Discord chat named "web" makes the page's chat answer 409 forever).
//! Invariant: pure; every id also passes `ids::check` (short, printable).

use super::threads::{Channel, Thread};

/// The web page's own free chat.
pub const WEB_CHAT: &str = "web";
/// The terminal chat's own free chat (`donna chat`).
pub const CONSOLE_CHAT: &str = "console";

/// Why a chat is not one Donna's doors would store: the field and the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct ChatIdError {
    pub field: &'static str,
    pub reason: String,
}

fn refused(field: &'static str, reason: impl ToString) -> ChatIdError {
    ChatIdError {
        field,
        reason: reason.to_string(),
    }
}

/// A Discord id: a non-zero 64-bit number in digits.
fn is_snowflake(id: &str) -> bool {
    id.bytes().all(|b| b.is_ascii_digit()) && id.parse::<u64>().is_ok_and(|n| n > 0)
}

/// Checks a chat's ids against its channel (see the module's header).
pub fn check(thread: &Thread) -> Result<(), ChatIdError> {
    crate::ids::check(&thread.id).map_err(|e| refused("id", e))?;
    crate::ids::check(&thread.chat_id).map_err(|e| refused("chat_id", e))?;
    match thread.channel {
        Channel::Discord => {
            if !is_snowflake(&thread.id) {
                return Err(refused(
                    "id",
                    format!("{:?} is not a Discord channel id (digits)", thread.id),
                ));
            }
            if !is_snowflake(&thread.chat_id) {
                return Err(refused(
                    "chat_id",
                    format!("{:?} is not a Discord channel id (digits)", thread.chat_id),
                ));
            }
        }
        Channel::Local => {
            if is_snowflake(&thread.id) {
                return Err(refused(
                    "id",
                    format!(
                        "{:?} is a Discord channel's id; a local chat with it would take that channel's messages",
                        thread.id
                    ),
                ));
            }
        }
    }
    let own = [WEB_CHAT, CONSOLE_CHAT].contains(&thread.id.as_str());
    let as_donna_opens_it = thread.channel == Channel::Local
        && !thread.is_group
        && thread.task_id.is_none()
        && thread.chat_id == thread.id;
    if own && !as_donna_opens_it {
        return Err(refused(
            "id",
            format!(
                "{:?} is Donna's own chat: it can only be a free local chat of one person whose chat_id is {:?}",
                thread.id, thread.id
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{DateTime, Utc};

    fn thread(id: &str, channel: Channel, chat_id: &str, is_group: bool) -> Thread {
        Thread {
            id: id.into(),
            task_id: None,
            channel,
            chat_id: chat_id.into(),
            is_group,
            context_type: None,
            open: true,
            created_at: DateTime::<Utc>::UNIX_EPOCH,
        }
    }

    #[test]
    fn a_chat_has_the_ids_its_channel_gives_and_never_another_channels() {
        use Channel::{Discord, Local};
        // (id, channel, chat_id, is_group, accepted)
        let table = [
            (
                "thr_3f9a0c1e5b7d2a44",
                Local,
                "thr_3f9a0c1e5b7d2a44",
                false,
                true,
            ),
            ("thr_3f9a0c1e5b7d2a44", Local, "family", true, true),
            ("web", Local, "web", false, true),
            ("console", Local, "console", false, true),
            (
                "1234567890123456789",
                Discord,
                "1234567890123456789",
                false,
                true,
            ),
            (
                "1234567890123456789",
                Discord,
                "987654321098765432",
                true,
                true,
            ),
            ("web", Discord, "web", false, false),
            ("web", Local, "web", true, false),
            ("web", Local, "elsewhere", false, false),
            ("console", Discord, "1", false, false),
            (
                "1234567890123456789",
                Local,
                "1234567890123456789",
                false,
                false,
            ),
            ("thr_1", Discord, "thr_1", false, false),
            ("0", Discord, "0", false, false),
            ("thr\r\n1", Local, "thr\r\n1", false, false),
            ("thr_1", Local, "", false, false),
        ];
        for (id, channel, chat_id, is_group, accepted) in table {
            let verdict = check(&thread(id, channel, chat_id, is_group));
            assert_eq!(
                verdict.is_ok(),
                accepted,
                "{id:?} {channel:?} {chat_id:?}: {verdict:?}"
            );
        }
    }
}
