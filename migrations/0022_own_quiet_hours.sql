-- A person's own day: their quiet hours, beside their zone.

-- A person's quiet hours ("23:00-07:00", read in their zone; NULL: the config's
-- `nudges.quiet_hours`). A person may set quiet hours without a zone, so `timezone` may now be
-- NULL too (NULL: the config's `timezone`). SQLite cannot drop a NOT NULL: the table is copied.
CREATE TABLE person_own_day (
    user_id TEXT PRIMARY KEY,
    timezone TEXT,
    quiet_hours TEXT,
    updated_at TEXT NOT NULL
);
INSERT INTO person_own_day (user_id, timezone, quiet_hours, updated_at)
    SELECT user_id, timezone, NULL, updated_at FROM person;
DROP TABLE person;
ALTER TABLE person_own_day RENAME TO person;
