-- The turn journal (issue 15): every model request and answer of a turn and every planner tool
-- call, in call order, stored with the turn (written in the same transaction as the turn's
-- commit), keyed by the thread and the message id. `donna replay` re-runs a turn from it.
-- Pruned with memory.retention, in the same write as the memory rows.
CREATE TABLE turn_journal (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    thread_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    -- call order within the turn, from 0
    position INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('model', 'tool')),
    -- the output schema's title (model; 'gate' for the REPLY/SKIP gate) or the tool's name
    name TEXT NOT NULL,
    -- model: the messages sent, a JSON array of {role, content}; tool: the arguments (JSON)
    request TEXT NOT NULL,
    -- model: the raw answer text; tool: the tool's output; NULL when the call failed
    response TEXT,
    ok INTEGER NOT NULL,
    -- why the call failed (model) or NULL
    error TEXT,
    -- the turn's clock when it decided (what its prompts say is "now"; the replay's clock)
    decided_at TEXT NOT NULL,
    -- the turn's commit time
    created_at TEXT NOT NULL,
    UNIQUE (thread_id, message_id, position)
);
CREATE INDEX turn_journal_created ON turn_journal(created_at);
