//! The planner's tools (docs/contract.md "Planner"): read-only look-ups the model may ask
//! for while answering a question: `list_tasks`, `get_task`, `search_memory`,
//! `recall_context`, `calendar_events` (the asker's own calendar, in their own chat only). Each has a JSON schema for its arguments (`registry`), and a call is
//! validated against it (`args`) before it runs; what it returns is an [`Observation`], text
//! the next prompt quotes as data.
//!
//! Invariants: a tool never writes (it takes a `&Connection` and is run on the read pool,
//! whose connections are opened read-only); arguments are validated, never coerced: an unknown
//! field, a wrong type or a missing required field is an error observation, as are an unknown
//! tool and a tool that fails, and each counts as a call (the turn's cap is in `turn::planner`).

pub mod args;
pub mod calendar_events;
pub mod call;
pub mod get_task;
pub mod list_tasks;
pub mod recall_context;
pub mod registry;
pub mod search_memory;
pub mod shown;
pub mod time_arg;

pub use call::{Observation, ToolCall, ToolEnv, ToolError};
pub use registry::{run, Tool, TOOLS};
