-- What a button stands for, when the message is a click (Discord's or the web page's): yes, no,
-- done, snooze, tomorrow, a chosen time, a new title, cancel, undo, as JSON
-- ({"intent": "snooze"}). The turn acts on it without reading the message's words (which stay
-- in `text`, as the answer the button stands for). Kept with the message so a click recovered
-- after a restart, or replayed, still does what its button said.
ALTER TABLE inbox ADD COLUMN intent TEXT;
