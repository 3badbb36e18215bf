//! Tasks: the record, its state machine, its SQL, and reading times from replies.

pub mod model;
pub mod named;
pub mod preferences;
pub mod repo;
pub mod status;
pub mod title_index;
pub mod title_words;
pub mod when;

pub use model::{AppliedPreference, NewTask, Task, TaskSource};
pub use status::TaskStatus;
