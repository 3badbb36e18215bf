//! Who Donna hears on Discord, and what a message means for her.
//!
//! Rules: never her own messages; not other bots or webhooks unless `discord.ignore_bots` is
//! off; only users in `discord.allowed_user_ids` (nothing is answered or executed for others).
//! In her nudge threads and in DMs every allowed message is for her; elsewhere only messages
//! that mention her or reply to one of her messages (Discord's reply: a `message_reference` to a
//! message she wrote). DMs are 1:1 chats; guild channels and threads are group chats.

use crate::sentence::tokens::squeeze;

/// The facts about one MESSAGE_CREATE that decide whether Donna hears it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    pub author_id: u64,
    pub author_is_bot: bool,
    pub from_webhook: bool,
    pub in_guild: bool,
    pub mentions_donna: bool,
    /// The message is a Discord reply to a message Donna wrote.
    pub replies_to_donna: bool,
    /// The channel is a thread Donna already knows (a nudge thread, or a chat she answered).
    pub known_thread: bool,
    /// That known thread is bound to a task (a nudge thread).
    pub nudge_thread: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hearing {
    Ignore(&'static str),
    /// For Donna; `is_group` for guild channels and threads.
    Heard {
        is_group: bool,
    },
}

pub fn hear(facts: &Facts, donna_id: u64, allowed: &[u64], ignore_bots: bool) -> Hearing {
    if facts.author_id == donna_id {
        return Hearing::Ignore("her own message");
    }
    if ignore_bots && (facts.author_is_bot || facts.from_webhook) {
        return Hearing::Ignore("a bot or webhook");
    }
    if !allowed.contains(&facts.author_id) {
        return Hearing::Ignore("an author not in discord.allowed_user_ids");
    }
    if !facts.in_guild {
        return Hearing::Heard { is_group: false };
    }
    if facts.nudge_thread || facts.mentions_donna || facts.replies_to_donna {
        return Hearing::Heard { is_group: true };
    }
    Hearing::Ignore("not addressed to her")
}

/// The message text without mentions of Donna ("<@1000> done" -> "done").
pub fn strip_mentions(content: &str, donna_id: u64) -> String {
    squeeze(
        &content
            .replace(&format!("<@{donna_id}>"), " ")
            .replace(&format!("<@!{donna_id}>"), " "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const DONNA: u64 = 1000;
    const OWNER: u64 = 42;

    fn facts() -> Facts {
        Facts {
            author_id: OWNER,
            author_is_bot: false,
            from_webhook: false,
            in_guild: true,
            mentions_donna: false,
            replies_to_donna: false,
            known_thread: false,
            nudge_thread: false,
        }
    }

    fn check(facts: Facts, ignore_bots: bool, expected: Hearing) {
        assert_eq!(
            hear(&facts, DONNA, &[OWNER, 77], ignore_bots),
            expected,
            "{facts:?}"
        );
    }

    #[test]
    fn who_is_heard_where() {
        use Hearing::*;
        check(
            Facts {
                author_id: DONNA,
                ..facts()
            },
            true,
            Ignore("her own message"),
        );
        check(
            Facts {
                author_id: DONNA,
                in_guild: false,
                ..facts()
            },
            false,
            Ignore("her own message"),
        );
        check(
            Facts {
                author_is_bot: true,
                author_id: 77,
                mentions_donna: true,
                ..facts()
            },
            true,
            Ignore("a bot or webhook"),
        );
        check(
            Facts {
                from_webhook: true,
                mentions_donna: true,
                ..facts()
            },
            true,
            Ignore("a bot or webhook"),
        );
        check(
            Facts {
                author_is_bot: true,
                author_id: 77,
                mentions_donna: true,
                ..facts()
            },
            false,
            Heard { is_group: true },
        );
        check(
            Facts {
                author_id: 5,
                in_guild: false,
                ..facts()
            },
            true,
            Ignore("an author not in discord.allowed_user_ids"),
        );
        check(
            Facts {
                author_id: 5,
                nudge_thread: true,
                known_thread: true,
                ..facts()
            },
            true,
            Ignore("an author not in discord.allowed_user_ids"),
        );
        check(
            Facts {
                in_guild: false,
                ..facts()
            },
            true,
            Heard { is_group: false },
        );
        check(
            Facts {
                nudge_thread: true,
                known_thread: true,
                ..facts()
            },
            true,
            Heard { is_group: true },
        );
        check(
            Facts {
                mentions_donna: true,
                ..facts()
            },
            true,
            Heard { is_group: true },
        );
        check(facts(), true, Ignore("not addressed to her"));
        check(
            Facts {
                known_thread: true,
                ..facts()
            },
            true,
            Ignore("not addressed to her"),
        );
    }

    #[test]
    fn a_reply_to_one_of_her_messages_is_for_her_like_a_mention() {
        use Hearing::*;
        let reply = Facts {
            replies_to_donna: true,
            ..facts()
        };
        // (facts, ignore_bots, what she hears)
        let table = [
            // A reply to her in a guild channel she has never spoken in, or in one she has.
            (reply.clone(), true, Heard { is_group: true }),
            (
                Facts {
                    known_thread: true,
                    ..reply.clone()
                },
                true,
                Heard { is_group: true },
            ),
            // In a DM everything is for her anyway: still a 1:1 chat.
            (
                Facts {
                    in_guild: false,
                    ..reply.clone()
                },
                true,
                Heard { is_group: false },
            ),
            // Allowed users only, and no bots, as for mentions.
            (
                Facts {
                    author_id: 5,
                    ..reply.clone()
                },
                true,
                Ignore("an author not in discord.allowed_user_ids"),
            ),
            (
                Facts {
                    author_id: 77,
                    author_is_bot: true,
                    ..reply.clone()
                },
                true,
                Ignore("a bot or webhook"),
            ),
            // Her own reply to herself is still her own message.
            (
                Facts {
                    author_id: DONNA,
                    ..reply.clone()
                },
                false,
                Ignore("her own message"),
            ),
            // A reply to someone else's message, in a channel she knows, is not for her.
            (
                Facts {
                    known_thread: true,
                    ..facts()
                },
                true,
                Ignore("not addressed to her"),
            ),
        ];
        for (facts, ignore_bots, expected) in table {
            check(facts, ignore_bots, expected);
        }
    }

    #[test]
    fn mentions_of_donna_are_stripped() {
        assert_eq!(strip_mentions("<@1000> done", DONNA), "done");
        assert_eq!(strip_mentions("ok <@!1000>  push it", DONNA), "ok push it");
        assert_eq!(strip_mentions("<@42> hi", DONNA), "<@42> hi");
    }
}
