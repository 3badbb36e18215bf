-- Full-text search over every thread's memory (the planner's `search_memory`, issue 15).
-- An external-content FTS5 index over memory.content: the text is stored once (in memory),
-- the index only holds the terms. Triggers keep it in step inside the same transaction as
-- every insert, update and delete of a memory row (a turn's commit, the retention prune), so
-- the index can never show a message that is gone or miss one that is there.
CREATE VIRTUAL TABLE memory_fts USING fts5(
    content,
    content = 'memory',
    content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER memory_fts_insert AFTER INSERT ON memory BEGIN
    INSERT INTO memory_fts(rowid, content) VALUES (new.id, new.content);
END;

CREATE TRIGGER memory_fts_delete AFTER DELETE ON memory BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;

CREATE TRIGGER memory_fts_update AFTER UPDATE OF content ON memory BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, content) VALUES ('delete', old.id, old.content);
    INSERT INTO memory_fts(rowid, content) VALUES (new.id, new.content);
END;

-- The rows stored before this migration.
INSERT INTO memory_fts(memory_fts) VALUES ('rebuild');
