-- Chat sessions (seed 002, issue 14): one conversation at a time per chat, with a sliding TTL,
-- and the task a free chat is pinned to.

-- A free chat opened with `POST /api/threads {task_id}`: the task shown in every chat prompt of
-- the thread. Not the thread's task_id (the chat stays free; nudges never reuse it), and no
-- foreign key: undoing a capture deletes its task, and a pin must not stop that (a pinned task
-- that is gone is simply not shown).
ALTER TABLE thread ADD COLUMN pinned_task_id TEXT;

-- A session's messages are the thread's memory rows from started_at on (to last_at once it is
-- closed): sessions of one thread never overlap in time, so the span names them without a
-- column on every memory row. last_at slides with each chat turn; the sweeper closes a session
-- idle past chat.session_ttl and stores its summary (NULL: none was made). Closed sessions are
-- deleted with memory.retention, like the messages they summarise.
CREATE TABLE chat_session (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    thread_id TEXT NOT NULL REFERENCES thread(id),
    started_at TEXT NOT NULL,
    last_at TEXT NOT NULL,
    closed_at TEXT,
    summary TEXT
);
CREATE INDEX chat_session_thread ON chat_session(thread_id, id);
CREATE INDEX chat_session_open ON chat_session(last_at) WHERE closed_at IS NULL;
