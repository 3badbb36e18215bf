-- Finding time for a person: their own working hours, and the slots Donna proposed for tasks.

-- A person's working hours ("09:00-18:00", read in their zone; NULL: the config's
-- `scheduling.working_hours`): a free slot Donna proposes lies inside them.
ALTER TABLE person ADD COLUMN working_hours TEXT;

-- A slot Donna proposed for a task with a deadline and an estimate but no start (placing):
-- one row per proposal, with the plan that carries it. The plan's status says what the person
-- answered; a task whose proposal they declined is not placed again.
CREATE TABLE task_placing (
    plan_id TEXT PRIMARY KEY REFERENCES plan(id) ON DELETE CASCADE,
    task_id TEXT NOT NULL REFERENCES task(id) ON DELETE CASCADE,
    slot_start TEXT NOT NULL,
    slot_end TEXT NOT NULL,
    proposed_at TEXT NOT NULL
);
CREATE INDEX task_placing_by_task ON task_placing (task_id);
