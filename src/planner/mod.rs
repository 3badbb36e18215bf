//! The planner's tools (seed 003, DESIGN.md "Planner"): read-only look-ups the model may ask
//! for while answering a question: `list_tasks`, `get_task`, `search_memory`,
//! `recall_context`. Each has a JSON schema for its arguments (`registry`), and a call is
//! validated against it (`args`) before it runs; what it returns is an [`Observation`], text
//! the next prompt quotes as data.
//!
//! Invariants: a tool never writes (it takes a `&Connection` and is run on the read pool,
//! whose connections are opened read-only); arguments are validated, never coerced: an unknown
//! field, a wrong type or a missing required field is an error observation, as are an unknown
//! tool and a tool that fails, and each counts as a call (the turn's cap is in `turn::planner`).

pub mod args;
pub mod get_task;
pub mod list_tasks;
pub mod recall_context;
pub mod registry;
pub mod search_memory;
pub mod shown;
pub mod time_arg;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;

use crate::store::StoreError;

pub use registry::{run, Tool, TOOLS};

/// What a tool reads against: the turn's time and the person's zone.
#[derive(Debug, Clone, Copy)]
pub struct ToolEnv {
    pub now: DateTime<Utc>,
    pub timezone: chrono_tz::Tz,
}

/// One tool call as the model asked for it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCall {
    pub tool: String,
    /// The arguments exactly as the model gave them (Null: none given).
    pub args: Value,
}

/// What one call returned: the text the next prompt quotes, and whether it worked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Observation {
    pub tool: String,
    pub args: Value,
    pub ok: bool,
    pub text: String,
}

/// Why a tool call gave no result.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("unknown tool {0:?}; the tools are: {1}")]
    UnknownTool(String, String),
    #[error("invalid arguments: {0}")]
    InvalidArgs(String),
    #[error("{0}")]
    BadTime(String),
    #[error("the database could not be read: {0}")]
    Store(#[from] StoreError),
}

impl Observation {
    /// The observation cut to `chars` characters (said so at the end when cut).
    pub fn cut(mut self, chars: usize) -> Self {
        if self.text.chars().count() > chars {
            self.text = self.text.chars().take(chars).collect::<String>() + " [cut]";
        }
        self
    }
}
