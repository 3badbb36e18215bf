//! Task capture: reading what a
//! free-text message asks without a model, and everything a capture needs on its way to a task.
//!
//! - `rules` (with `command_words`): capture commands anywhere people put them (polite requests, note prefixes such
//!   as "reminder:", a title put "on the list"), "never mind", a question about one task's
//!   time; with `asked` (the common questions in people's words), `question` (which question)
//!   and `closings` (thanks, goodbyes, praise, greetings). They read the message's one reading
//!   (`crate::sentence`), never its text.
//! - `bigger_model`: "ask the bigger model", "think harder about this" (escalation asked for).
//! - `time_words` + `title`: a capture's time (deadline or start) and its title.
//! - `duplicates`: likely duplicates among open tasks (normalised titles, Jaccard >= 0.8).
//! - `given`: which fields a model read the person's words give (domain, priority).
//! - `preferences`: learned domain and priority for titles like one the person corrected.
//! - `questions`: what the common questions list, from the database.
//! - `pages`: a list a page at a time (at most 20 items, within one message), "more" after it.
//! - `agenda`: overdue, due today and waiting for an answer, in one message (the digest).
//! - `request`: a capture as one validated `create_task` action.
//!
//! The turn's free-text room (`turn::free_text`) decides which of these runs; nothing here
//! awaits; the SQL lives with the tables (`conversation::drafts`, `tasks::preferences`, the
//! task and plan repos) and only runs inside the caller's read or transaction.

pub mod agenda;
pub mod asked;
pub mod bigger_model;
pub mod calendar_asked;
pub mod closings;
pub mod command_words;
pub mod duplicates;
pub mod given;
pub mod group_lists;
pub mod length_words;
pub mod pages;
pub mod preferences;
pub mod question;
pub mod questions;
pub mod request;
pub mod rules;
pub mod time_words;
pub mod title;
