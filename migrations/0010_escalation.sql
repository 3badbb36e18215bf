-- Escalation to a bigger model (seed 002, issue 14): the ledger of spend. One row per call
-- Donna decided to make: reserved (the estimate, in the same transaction that checked the
-- day's budget and consumed the offer), then settled from the usage the server reported, or
-- at 0 when it answered with an error, or marked interrupted when the process stopped between
-- the two (the reservation stays counted and that offer is never called again). Amounts are
-- micro-dollars; `day` is the day in `timezone` the reservation was made.
CREATE TABLE escalation_spend (
    id INTEGER PRIMARY KEY,
    offer_id TEXT NOT NULL UNIQUE,
    thread_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    day TEXT NOT NULL,
    reserved_micros INTEGER NOT NULL CHECK (reserved_micros >= 0),
    spent_micros INTEGER CHECK (spent_micros >= 0),
    state TEXT NOT NULL CHECK (state IN ('reserved', 'settled', 'interrupted')),
    prompt_tokens INTEGER,
    completion_tokens INTEGER,
    created_at TEXT NOT NULL,
    settled_at TEXT
);
CREATE INDEX escalation_spend_day ON escalation_spend(day);
CREATE UNIQUE INDEX escalation_spend_message ON escalation_spend(thread_id, message_id);
