//! The supervised subsystem actors of the bot, one per file, each with its messages beside it;
//! and `session_closer`, the close of one chat session that the ChatSessions sweeper and the
//! chat turns share.

pub mod action_executor;
pub mod calendars;
pub mod chat_sessions;
pub mod digest;
pub mod fast_path;
pub mod llm_classifier;
pub mod pending_plans;
pub mod rate_cap;
pub mod session_closer;
pub mod thread_memory;
