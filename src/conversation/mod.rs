//! The data of conversations: threads, their memory, pending plans, the durable inbox and
//! outbox of the turn pipeline, chat sessions and pinned chats, grouped nudges, and the reply slots of the group-chat cap. Plain SQL functions
//! on a `&Connection`; the actors that own the logic live in `crate::subsystems`, the turn in
//! `crate::turn`.

pub mod chat_ids;
pub mod chat_sessions;
pub mod drafts;
pub mod escalation_ledger;
pub mod inbox;
pub mod journal_texts;
pub mod list_cursors;
pub mod memory;
pub mod memory_search;
pub mod nudge_groups;
pub mod nudge_messages;
pub mod nudge_records;
pub mod outbox;
pub mod participation;
pub mod pins;
pub mod plans;
pub mod proposal_messages;
pub mod reply_slots;
pub mod threads;
pub mod turn_journal;

pub use threads::{Channel, ContextType, Thread};
