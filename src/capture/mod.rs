//! Task capture (seed 001's InputParser and PreferenceApplier, for our domain): reading what a
//! free-text message asks without a model, and everything a capture needs on its way to a task.
//!
//! - `sentence`: words with their place in the text; questions; negators.
//! - `rules`: capture commands, the common questions, greetings, thanks, "never mind".
//! - `bigger_model`: "ask the bigger model", "think harder about this" (escalation asked for).
//! - `time_words` + `title`: a capture's time (deadline or start) and its title.
//! - `duplicates`: likely duplicates among open tasks (normalised titles, Jaccard >= 0.8).
//! - `preferences`: learned domain and priority for titles like one the person corrected.
//! - `questions`: the common questions answered from the database.
//! - `request`: a capture as one validated `create_task` action.
//!
//! The turn's free-text room (`turn::free_text`) decides which of these runs; nothing here
//! awaits; the SQL lives with the tables (`conversation::drafts`, `tasks::preferences`, the
//! task and plan repos) and only runs inside the caller's read or transaction.

pub mod bigger_model;
pub mod duplicates;
pub mod preferences;
pub mod questions;
pub mod request;
pub mod rules;
pub mod sentence;
pub mod time_words;
pub mod title;
