-- Promises kept (issue 29): what the Nudger remembers about a task beyond the task row, and the
-- tasks of a nudge that lists several.

-- explicit_at: the time the person gave explicitly (a clock time, "at 23:00"; "in 2 hours"; an
-- exact instant over the API). While it is still the task's start or deadline, its nudge fires
-- at that time even in quiet hours; any other time (a reschedule to "tomorrow") no longer
-- matches it. completion_for: the scheduled start the completion check-in ("Did you finish
-- 'X'?") was sent for, so it is sent once per scheduled time. Deleted with the task.
CREATE TABLE task_nudge_mark (
    task_id TEXT PRIMARY KEY REFERENCES task(id) ON DELETE CASCADE,
    explicit_at TEXT,
    completion_for TEXT
);

-- A nudge that lists several tasks in one message (nudges held by quiet hours, due at once in
-- the same chat): its tasks by their number in the message, so a reply "1 done" acts on the
-- first. Only the thread's latest grouped nudge is kept. No foreign key to task: undoing a
-- capture deletes its task, and a listed task that is gone is simply skipped.
CREATE TABLE nudge_group (
    thread_id TEXT NOT NULL REFERENCES thread(id),
    position INTEGER NOT NULL,
    task_id TEXT NOT NULL,
    sent_at TEXT NOT NULL,
    PRIMARY KEY (thread_id, position)
);
