-- A message id is unique within its thread (local API) or its Discord channel (which is the
-- thread there), not within the whole channel kind: the same id in another thread is another
-- message. SQLite cannot change a constraint in place, so the inbox is rebuilt.
CREATE TABLE inbox_by_thread (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    channel TEXT NOT NULL,
    message_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    received_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done')),
    result_json TEXT,
    UNIQUE (channel, thread_id, message_id)
);
INSERT INTO inbox_by_thread (seq, channel, message_id, thread_id, user_id, text, received_at, status, result_json)
    SELECT seq, channel, message_id, thread_id, user_id, text, received_at, status, result_json FROM inbox;
DROP TABLE inbox;
ALTER TABLE inbox_by_thread RENAME TO inbox;
CREATE INDEX inbox_pending ON inbox(status, seq);

-- A plan remembers the last message received before it was committed: only a message received
-- after that (a higher inbox seq) can confirm it, so a "yes" sent while Donna was still
-- thinking never confirms the plan she was thinking up.
ALTER TABLE plan ADD COLUMN proposed_after_seq INTEGER NOT NULL DEFAULT 0;
