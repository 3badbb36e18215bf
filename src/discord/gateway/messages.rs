//! What the gateway actor takes: events from its shard task, delivery rounds, nudge openings.

use actors::Reply;
use twilight_model::channel::Message;

use crate::conversation::ContextType;
use crate::nudges::{NudgeFailure, NudgeOpened};

/// What the gateway actor takes (see the module header for who sends which).
pub enum DiscordMsg {
    Ready {
        bot_user_id: u64,
    },
    Inbound(Box<Message>),
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
