//! The supervised subsystem actors of the bot, one per file, each with its messages beside it.

pub mod action_executor;
pub mod chat_sessions;
pub mod digest;
pub mod fast_path;
pub mod llm_classifier;
pub mod nudger;
pub mod pending_plans;
pub mod rate_cap;
pub mod thread_memory;
