-- Who asked for a list: "more" in a chat continues only the asker's own list (in a group,
-- another member's "more" does not page on through it). NULL for a cursor saved before this
-- column: it continues for no one, and expires like any other.
ALTER TABLE list_cursor ADD COLUMN asked_by TEXT;
