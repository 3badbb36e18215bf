-- The words of every OPEN task's title, for the duplicate check of captures (DESIGN.md
-- "Duplicates": Jaccard >= 0.8 over normalised title words). A likely duplicate must share
-- most of the new title's words, so it is found through the rarest of them instead of reading
-- every open title (issue 13's benchmark: the check was 77% of a capture turn's time with a
-- few thousand open tasks).
--
-- Kept by tasks::title_index from the same store writes that insert, retitle, close, reopen or
-- delete a task (tasks::repo); words are normalised in Rust (tasks::title_words), so no SQL
-- trigger can keep it. Rows of older databases are filled in at startup (title_index::repair),
-- which also repairs rows a manual edit of the database left behind.
CREATE TABLE open_title_word (
    word TEXT NOT NULL,
    -- how many distinct words the title has (the size filter of the Jaccard bound)
    words INTEGER NOT NULL,
    task_id TEXT NOT NULL,
    PRIMARY KEY (word, words, task_id)
) WITHOUT ROWID;
CREATE INDEX open_title_word_task ON open_title_word(task_id);

-- How many open titles of each length hold each word: the rarest words are probed first.
CREATE TABLE open_title_word_count (
    word TEXT NOT NULL,
    words INTEGER NOT NULL,
    tasks INTEGER NOT NULL,
    PRIMARY KEY (word, words)
) WITHOUT ROWID;
