-- Chat actions (seed 002, issue 14): `stop_automation` stops a recurring reminder in a way
-- "undo" can take back, so a stopped automation keeps its row (and its last occurrence) with
-- the time it was stopped; the runner and every listing skip it. The action log remembers
-- which automation an action stopped.
ALTER TABLE automation ADD COLUMN stopped_at TEXT;
ALTER TABLE action_log ADD COLUMN stopped_automation_id TEXT;
