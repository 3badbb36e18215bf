-- Calendars Donna reads. A person's own calendars (set through PUT /api/people/{user_id}):
-- the URL is a credential (Google's and Outlook's "secret address"), kept here and nowhere else
-- (not in exports, logs or answers, which show only its scheme and host).
CREATE TABLE IF NOT EXISTS person_calendar (
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (user_id, name)
);

-- The last good copy of each calendar, so a source that fails, or a restart, keeps its events
-- and the next request can be conditional. Keyed by a hash of the source (its address
-- included), so a changed address never serves the old copy.
CREATE TABLE IF NOT EXISTS calendar_copy (
    source_key TEXT PRIMARY KEY,
    body TEXT NOT NULL,
    etag TEXT,
    last_modified TEXT,
    fetched_at TEXT NOT NULL
);
