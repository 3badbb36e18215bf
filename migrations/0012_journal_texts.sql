-- The turn journal's message texts, stored once (issue 14's chat load benchmark): a model
-- request repeats the same system prompt, persona, summaries and history turn after turn, and
-- storing each request whole made every chat commit carry kilobytes the single writer had
-- already written. A request stored from now on keeps its messages as references
-- (`[{"role": ..., "text": SHA-256 hex}]`, `request_refs = 1`); `conversation::turn_journal`
-- writes each text here once and reads requests back whole, so replay sees what it saw before.
CREATE TABLE journal_text (
    -- SHA-256 of the text, lowercase hex
    hash TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    -- the latest commit that used this text, refreshed at most once an hour; the retention
    -- prune deletes a text unused for an hour longer than the journals it removes
    last_used TEXT NOT NULL
);
CREATE INDEX journal_text_last_used ON journal_text(last_used);
-- 1: `request` holds references into journal_text; 0: the messages themselves (older rows, tools).
ALTER TABLE turn_journal ADD COLUMN request_refs INTEGER NOT NULL DEFAULT 0;
