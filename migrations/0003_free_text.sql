-- Free text (seeds 001-003, issue 13): where a task came from and which chat it belongs to,
-- clarification drafts, learned preferences, automations, and which task a nudge was about.

-- Where the task came from: api (POST /api/tasks), capture (rules or model capture, console
-- add), chat (a model-proposed create_task), automation (an occurrence).
ALTER TABLE task ADD COLUMN source TEXT NOT NULL DEFAULT 'api'
    CHECK (source IN ('api', 'capture', 'chat', 'automation'));
-- JSON arrays: the task's tags, and the learned preferences applied when it was captured
-- ([{field, value, reason}]).
ALTER TABLE task ADD COLUMN tags_json TEXT NOT NULL DEFAULT '[]';
ALTER TABLE task ADD COLUMN applied_preferences_json TEXT NOT NULL DEFAULT '[]';
-- The chat the task was captured in: its nudges go there (a DM, a free thread, the console).
ALTER TABLE task ADD COLUMN origin_thread_id TEXT REFERENCES thread(id);
-- An automation's occurrence: at most one task per (automation, occurrence), enforced here, so
-- an occurrence fires exactly once across restarts and crashes.
ALTER TABLE task ADD COLUMN automation_id TEXT;
ALTER TABLE task ADD COLUMN occurrence_at TEXT;
CREATE UNIQUE INDEX task_one_per_occurrence ON task(automation_id, occurrence_at)
    WHERE automation_id IS NOT NULL;
CREATE INDEX task_origin_thread ON task(origin_thread_id) WHERE origin_thread_id IS NOT NULL;

-- Which task a nudge was about (kind 'nudge' in a free thread: a DM, a free thread, the
-- console), so the answer to it acts on that task.
ALTER TABLE memory ADD COLUMN task_id TEXT;

-- A clarification Donna is waiting for: at most one per thread. `text` is what the person has
-- said towards it so far (merged with the answer and parsed again); `data_json` what else the
-- question needs (e.g. candidates for "which one?").
CREATE TABLE draft (
    thread_id TEXT PRIMARY KEY REFERENCES thread(id),
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    data_json TEXT NOT NULL DEFAULT '{}',
    questions INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);

-- Learned preferences: when the person changes the domain or priority of a captured task
-- within a day, Donna remembers the value for titles like it. `title_key` is the normalised
-- title it was learned from.
CREATE TABLE preference (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title_key TEXT NOT NULL,
    field TEXT NOT NULL CHECK (field IN ('domain', 'priority')),
    value TEXT NOT NULL,
    learned_from_task_id TEXT,
    learned_at TEXT NOT NULL,
    UNIQUE (title_key, field)
);

-- Recurring reminders, stored after a yes: an RFC 5545 rule in `timezone`.
CREATE TABLE automation (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    schedule_words TEXT NOT NULL,
    rrule TEXT NOT NULL,
    dtstart TEXT NOT NULL,
    timezone TEXT NOT NULL,
    origin_thread_id TEXT REFERENCES thread(id),
    domain TEXT NOT NULL DEFAULT 'personal',
    priority INTEGER NOT NULL DEFAULT 2,
    -- the latest occurrence already turned into a task (or skipped as missed)
    last_occurrence_at TEXT,
    created_at TEXT NOT NULL
);

-- A confirmed automation is an action too: undo removes it.
ALTER TABLE action_log ADD COLUMN created_automation_id TEXT;
