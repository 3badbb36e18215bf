//! What the gateway actor takes: events from its shard task (messages, interactions), delivery
//! rounds, nudge openings.

use actors::Reply;
use twilight_model::application::interaction::Interaction;
use twilight_model::channel::Message;

use crate::conversation::ContextType;
use crate::nudges::{NudgeFailure, NudgeOpened};

/// What the gateway actor takes (see the module header for who sends which).
pub enum DiscordMsg {
    Ready {
        bot_user_id: u64,
        /// Donna's application (commands are registered under it).
        application_id: u64,
    },
    Inbound(Box<Message>),
    /// A click on a button, or a slash command.
    Interaction(Box<Interaction>),
    ShardEnded {
        fatal: String,
    },
    Deliver,
    OpenNudge {
        task_id: String,
        context: Option<ContextType>,
        reply: Reply<Result<NudgeOpened, NudgeFailure>>,
    },
}
