-- A person's time zone (issue 31): the IANA zone a person's times are read and shown in, keyed
-- by the id they write with (the local API's user_id, the Discord user id, "console"). A person
-- with no row has the config's `timezone`.
CREATE TABLE person (
    user_id TEXT PRIMARY KEY,
    timezone TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

-- Who captured a task (its nudges show times in that person's zone), and who made an
-- automation (its occurrences are theirs). NULL: made by no person (POST /api/tasks) or before
-- this column.
ALTER TABLE task ADD COLUMN created_by TEXT;
ALTER TABLE automation ADD COLUMN created_by TEXT;
