-- A message whose turn fails the same way at every start is parked after 3 failed tries: never
-- run again, kept with the reason of its last failure. `failures` counts the tries that ended
-- in an error; `failure` is the last one's reason. SQLite cannot change a CHECK constraint in
-- place, so the inbox is rebuilt (keeping every row, its seq, the answers_plan of 0006 and the
-- answers_nudge of 0014 with its index).
CREATE TABLE inbox_with_parking (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    channel TEXT NOT NULL,
    message_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    received_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'parked')),
    result_json TEXT,
    answers_plan TEXT,
    answers_nudge TEXT,
    failures INTEGER NOT NULL DEFAULT 0,
    failure TEXT,
    UNIQUE (channel, thread_id, message_id)
);
INSERT INTO inbox_with_parking (seq, channel, message_id, thread_id, user_id, text, received_at, status, result_json, answers_plan, answers_nudge)
    SELECT seq, channel, message_id, thread_id, user_id, text, received_at, status, result_json, answers_plan, answers_nudge FROM inbox;
DROP TABLE inbox;
ALTER TABLE inbox_with_parking RENAME TO inbox;
CREATE INDEX inbox_pending ON inbox(status, seq);
CREATE INDEX inbox_answers_nudge ON inbox(answers_nudge) WHERE answers_nudge IS NOT NULL;
