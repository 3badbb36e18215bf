-- Donna's first schema. Times are RFC 3339 UTC text with fixed width (sortable as text).

-- Tasks. status moves through the state machine in src/tasks/status.rs.
CREATE TABLE task (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    description TEXT,
    domain TEXT NOT NULL DEFAULT 'personal',
    priority INTEGER NOT NULL DEFAULT 2,
    status TEXT NOT NULL DEFAULT 'backlog',
    estimated_duration_minutes INTEGER,
    deadline TEXT,
    scheduled_start TEXT,
    completed_at TEXT,
    snoozed_until TEXT,
    reschedule_count INTEGER NOT NULL DEFAULT 0,
    nudge_count INTEGER NOT NULL DEFAULT 0,
    -- nudges sent since the person last answered (drives the nudge backoff)
    unanswered_nudges INTEGER NOT NULL DEFAULT 0,
    last_nudged_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX task_status ON task(status);

-- A conversation thread. A nudge thread binds one task; a free thread binds none.
-- This record outlives memory pruning.
CREATE TABLE thread (
    id TEXT PRIMARY KEY,
    task_id TEXT REFERENCES task(id),
    channel TEXT NOT NULL CHECK (channel IN ('local', 'discord')),
    chat_id TEXT NOT NULL,
    is_group INTEGER NOT NULL DEFAULT 0,
    context_type TEXT CHECK (context_type IN ('overdue', 'check_in', 'completion')),
    open INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL
);
-- A task has at most one open thread.
CREATE UNIQUE INDEX thread_open_task ON thread(task_id) WHERE open = 1 AND task_id IS NOT NULL;

-- Thread memory: what was said, by whom.
CREATE TABLE memory (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    thread_id TEXT NOT NULL REFERENCES thread(id),
    role TEXT NOT NULL CHECK (role IN ('user', 'donna')),
    -- what Donna's message was: a nudge (a question about the task), a plan proposal, or a reply
    kind TEXT NOT NULL DEFAULT 'reply' CHECK (kind IN ('message', 'nudge', 'plan', 'reply')),
    author_id TEXT,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX memory_thread ON memory(thread_id, id);
CREATE INDEX memory_created ON memory(created_at);

-- Proposed action plans awaiting confirmation. One pending plan per thread.
CREATE TABLE plan (
    id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL REFERENCES thread(id),
    actions_json TEXT NOT NULL,
    reply_text TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'confirmed', 'rejected', 'expired', 'cancelled')),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    resolved_at TEXT
);
CREATE UNIQUE INDEX plan_one_pending ON plan(thread_id) WHERE status = 'pending';
CREATE INDEX plan_expiry ON plan(status, expires_at);

-- Durable inbox: every accepted message, before processing; its result once done.
CREATE TABLE inbox (
    -- arrival order, for re-running unfinished messages in order after a restart
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    channel TEXT NOT NULL,
    message_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    received_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done')),
    result_json TEXT,
    UNIQUE (channel, message_id)
);
CREATE INDEX inbox_pending ON inbox(status, seq);

-- Outbox: replies to deliver (at least once).
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    thread_id TEXT NOT NULL,
    channel TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at TEXT NOT NULL,
    delivered_at TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT
);
CREATE INDEX outbox_undelivered ON outbox(delivered_at, id);

-- Every executed action, with the task as it was before (for undo and exactly-once plans).
CREATE TABLE action_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    thread_id TEXT NOT NULL,
    task_id TEXT,
    action TEXT NOT NULL,
    params_json TEXT NOT NULL,
    plan_id TEXT,
    plan_index INTEGER,
    before_json TEXT,
    created_task_id TEXT,
    summary TEXT NOT NULL,
    created_at TEXT NOT NULL,
    undone_at TEXT
);
CREATE INDEX action_log_thread ON action_log(thread_id, id);
CREATE UNIQUE INDEX action_log_plan_step ON action_log(plan_id, plan_index) WHERE plan_id IS NOT NULL;

-- Reply timestamps per (channel, chat) for the group-chat rate cap; survives restarts.
CREATE TABLE reply_slot (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    channel TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX reply_slot_chat ON reply_slot(channel, chat_id, at);
