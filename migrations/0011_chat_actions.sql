-- Chat actions (seed 002, issue 14): `stop_automation` stops a recurring reminder in a way
-- "undo" can take back, so a stopped automation keeps its row (and its last occurrence) with
-- the time it was stopped; the runner and every listing skip it. The action log remembers
-- which automation an action stopped, and the task as an action left it.
ALTER TABLE automation ADD COLUMN stopped_at TEXT;
ALTER TABLE action_log ADD COLUMN stopped_automation_id TEXT;
-- The task as the action left it, so "undo" can refuse when it has changed since (DESIGN.md
-- "Undo"); NULL for rows written before this column and for actions on no task.
ALTER TABLE action_log ADD COLUMN after_json TEXT;
