//! Tasks: the record, its state machine, its SQL, and reading times from replies; `explicit`
//! (whether the words of a time name the moment), `nudge_marks` (what the Nudger remembers
//! about a task: its explicit time, the completion check-in sent) and `open` (the open tasks a
//! question asks about, on indexes).

pub mod estimate_said;
pub mod explicit;
pub mod fields;
pub mod model;
pub mod named;
pub mod nudge_marks;
pub mod open;
pub mod preferences;
pub mod repo;
pub mod status;
pub mod stored;
pub mod title_index;
pub mod title_words;
pub mod when;

pub use model::{AppliedPreference, NewTask, Task, TaskSource};
pub use status::TaskStatus;
