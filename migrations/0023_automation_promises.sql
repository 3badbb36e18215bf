-- Recurring reminders that keep their word: a stated time, and repeats from completion.

-- Whether the person stated the automation's time of day ("every day at 23:00"): its
-- occurrences then fire at that time even in quiet hours, like a one-shot explicit time. The
-- hour Donna picks when none is said (09:00 for a reminder, 08:00 for a digest) is not stated.
-- Rows from before this column count as stated when their schedule words hold a clock time
-- other than that default (the words always say one: "every Monday at 09:00");
-- `automations::stated::from_words` reads older export files the same way.
ALTER TABLE automation ADD COLUMN time_stated INTEGER NOT NULL DEFAULT 0;
UPDATE automation SET time_stated = CASE
    WHEN kind = 'digest' AND schedule_words LIKE '%at 08:00%' THEN 0
    WHEN kind = 'reminder' AND schedule_words LIKE '%at 09:00%' THEN 0
    WHEN schedule_words GLOB '*[0-9][0-9]:[0-5][0-9]*' THEN 1
    ELSE 0
END;

-- Where the next occurrence counts from: 'schedule' (the rule, whatever was done) or
-- 'completion' (Todoist's "every!": the time the last occurrence was done plus the rule's
-- interval, at its time of day when stated).
ALTER TABLE automation ADD COLUMN repeat_from TEXT NOT NULL DEFAULT 'schedule'
    CHECK (repeat_from IN ('schedule', 'completion'));
