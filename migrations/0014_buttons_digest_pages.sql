-- One-tap nudges, the daily digest and lists that page (issue 31, items 2-4).

-- Every nudge Donna sends, in the order sent (`seq`): its id goes into the custom ids of the
-- buttons under it, so a click names exactly one nudge, and a click on an older nudge of the
-- same task (a lower `seq`) is told that a newer one replaced it.
CREATE TABLE nudge (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    task_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX nudge_task ON nudge(task_id, seq);

-- The nudge an outbox entry is (a channel with buttons puts Done / Snooze 1h / Tomorrow under it).
ALTER TABLE outbox ADD COLUMN nudge_id TEXT;

-- The nudge a message answers, when the channel knows it (a click on a nudge's button): such a
-- message acts on that nudge's task, and a nudge is answered by one click only.
ALTER TABLE inbox ADD COLUMN answers_nudge TEXT;
CREATE INDEX inbox_answers_nudge ON inbox(answers_nudge) WHERE answers_nudge IS NOT NULL;

-- Nudges delivered to Discord with buttons: where each sits, so the buttons are disabled once
-- the task is closed, a newer nudge replaced it, or a click answered it.
CREATE TABLE discord_nudge (
    nudge_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    buttons_disabled INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (nudge_id, message_id)
);
CREATE INDEX discord_nudge_live ON discord_nudge(buttons_disabled) WHERE buttons_disabled = 0;

-- What an automation does at each occurrence: `reminder` creates a task (and its nudge),
-- `digest` sends one message with the person's agenda to the chat it was made in.
ALTER TABLE automation ADD COLUMN kind TEXT NOT NULL DEFAULT 'reminder'
    CHECK (kind IN ('reminder', 'digest'));
-- Whose agenda a digest shows ("waiting for your answer" lists that person's proposals).
ALTER TABLE automation ADD COLUMN for_user_id TEXT;

-- Where a list answer stopped, so "more" continues it: the whole list as it was when asked
-- (task ids, or lines for lists that are not tasks) and how many items were shown. One per chat
-- (`thread_id`; a new list replaces it), or owned by a button (`thread_id` NULL: Discord's
-- /tasks More button names its cursor). Expires like a draft.
CREATE TABLE list_cursor (
    id TEXT PRIMARY KEY,
    thread_id TEXT,
    heading TEXT NOT NULL,
    items_json TEXT NOT NULL,
    shown INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE UNIQUE INDEX list_cursor_thread ON list_cursor(thread_id) WHERE thread_id IS NOT NULL;
CREATE INDEX list_cursor_expiry ON list_cursor(expires_at);
