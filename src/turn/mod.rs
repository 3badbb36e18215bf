//! The turn: how one inbound message becomes Donna's answer and the task changes it asks for.
//!
//! Flow: `intake` (validate, inbox, route) -> the thread's `conversation` (one turn at a time) ->
//! `pipeline` (context, FastPath, `decide`, bind) -> `apply` (one transaction) -> `result`.

pub mod apply;
pub mod context;
pub mod conversation;
pub mod decide;
pub mod intake;
pub mod pipeline;
pub mod result;
pub mod texts;

use crate::conversation::Channel;

/// A message accepted into the inbox, on its way through a turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inbound {
    pub channel: Channel,
    pub message_id: String,
    pub thread_id: String,
    pub user_id: String,
    pub text: String,
}
