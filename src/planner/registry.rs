//! The tools by name, each with its description (what the planner prompt says of it), its
//! argument schema and its function, and [`run`]: one call checked and run, always an
//! [`Observation`] (an unknown tool, invalid arguments or a failure are error observations).

use rusqlite::Connection;
use serde_json::{Map, Value};

use super::call::{Observation, ToolCall, ToolEnv, ToolError};
use super::{args, calendar_events, get_task, list_tasks, recall_context, search_memory};

type RunFn = fn(&Connection, &Map<String, Value>, &ToolEnv) -> Result<Value, ToolError>;

/// One read-only tool.
pub struct Tool {
    pub name: &'static str,
    pub description: &'static str,
    pub schema: fn() -> Value,
    run: RunFn,
}

pub static TOOLS: [Tool; 5] = [
    Tool {
        name: "list_tasks",
        description: "the person's tasks, filtered: status (a task status, \"open\" by default, or \"any\"), domain, due_before / due_after (time words as the person said them, past or future, or RFC 3339), overdue, limit",
        schema: list_tasks::schema,
        run: list_tasks::run,
    },
    Tool {
        name: "get_task",
        description: "one task by its id or words of its title, with all its fields",
        schema: get_task::schema,
        run: get_task::run,
    },
    Tool {
        name: "search_memory",
        description: "full-text search over everything said in every chat (the person's and the assistant's words); each hit has its chat, who said it and when",
        schema: search_memory::schema,
        run: search_memory::run,
    },
    Tool {
        name: "recall_context",
        description: "a summary view: aspect today (due or starting today), deadlines (ahead), overdue, completed (last 7 days) or automations (recurring reminders)",
        schema: recall_context::schema,
        run: recall_context::run,
    },
    Tool {
        name: "calendar_events",
        description: "the person's own calendar events (shown only in their own chat, never in a group): day (time words as the person said them: that whole day), or from / to (time words or RFC 3339, at most 31 days; none: today), limit",
        schema: calendar_events::schema,
        run: calendar_events::run,
    },
];

pub fn find(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|tool| tool.name == name)
}

/// Runs one call on a read connection: checked against the tool's schema first.
pub fn run(conn: &Connection, call: &ToolCall, env: &ToolEnv) -> Observation {
    let outcome = match find(&call.tool) {
        None => Err(ToolError::UnknownTool(
            call.tool.clone(),
            TOOLS
                .iter()
                .map(|tool| tool.name)
                .collect::<Vec<_>>()
                .join(", "),
        )),
        Some(tool) => args::check(&(tool.schema)(), &call.args)
            .map_err(ToolError::InvalidArgs)
            .and_then(|checked| (tool.run)(conn, &checked, env)),
    };
    let (ok, text) = match outcome {
        Ok(value) => (true, value.to_string()),
        Err(error) => {
            tracing::debug!(tool = %call.tool, %error, "planner tool call refused or failed");
            (false, format!("error: {error}"))
        }
    };
    Observation {
        tool: call.tool.clone(),
        args: call.args.clone(),
        ok,
        text,
    }
}
