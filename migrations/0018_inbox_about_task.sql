-- The task a message is about, when its channel knows it (the web page's Done button beside a
-- task): in a chat bound to no task, such a message acts on that task as an answer to a nudge
-- about it would, and only while the task is open. Kept with the message so a message recovered
-- after a restart still acts on the task its button named, never on another.
ALTER TABLE inbox ADD COLUMN about_task TEXT;
