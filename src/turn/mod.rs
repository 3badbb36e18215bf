//! The turn: how one inbound message becomes Donna's answer and the task changes it asks for.
//!
//! The path of a message: `intake` (validate, inbox, route) -> the thread's `conversation`
//! (one turn at a time) -> `pipeline` (load the `context`, the `entry`: a click's intent to
//! `decide_click`, words through the FastPath analysis to `decide`; the group `gate`) ->
//! `rooms::room`, the one match that picks the room: a plan answer, undo, a nudge reply
//! (`intent`, `model`) or `free_text` (with `capture`, `free_model`, the `planner` and
//! `chat`) -> `apply` (one transaction) -> `result`; once committed, `changes` tells the event
//! stream.
//!
//! A room is a function of the turn's handles (`deps::TurnDeps`, or the one or two of them it
//! needs), the loaded `TurnContext` and the message's reading, returning its `Work` (and what
//! becomes of the chat's draft): its file's imports and signatures say everything it may
//! touch. A new kind of conversation adds a room file (and a `Next` variant in `decide`, a
//! line in `rooms`) instead of growing the pipeline; only `pipeline.rs` has methods of
//! `Pipeline`.

pub mod apply;
pub mod bigger_model;
pub mod calendar_answers;
pub mod capture;
pub mod changes;
pub mod chat;
pub mod chat_actions;
pub mod chat_memory;
pub mod chat_prompt;
pub mod context;
pub mod conversation;
pub mod decide;
pub mod decide_click;
pub mod deps;
pub mod draft_step;
pub mod entry;
pub mod error;
pub mod escalation;
pub mod escalation_call;
pub mod finish;
pub mod free_model;
pub mod free_text;
pub mod gate;
pub mod history;
pub mod incoming;
pub mod intake;
pub mod intake_checks;
pub mod intake_error;
pub mod intent;
pub mod list_step;
pub mod lists;
pub mod message_reading;
pub mod model;
pub mod model_call;
pub mod nudge_group;
pub mod parking;
pub mod pipeline;
pub mod planner;
pub mod proposal;
pub mod proposed_task;
pub mod readings;
pub mod receipt;
pub mod result;
mod rooms;
pub mod routed;
pub mod said_details;
pub mod say;
pub mod settings;
pub mod task_change;
pub mod texts;
pub mod thinking;
pub mod timezone;
pub mod turn_log;
pub mod waiting_actions;
pub mod which_one;
pub mod work;

pub use crate::conversation::inbox::Inbound;
