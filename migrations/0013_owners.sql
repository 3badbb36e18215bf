-- Who a draft was asked of and who took an action (issue 28, Trust II): a draft ("which one?",
-- "when?", "what should I add?") is answered only by the person it was asked of, and "undo" in
-- a shared thread reverts only the sender's own last action. NULL for rows written before:
-- anyone in the thread may answer or undo those, as before.
ALTER TABLE draft ADD COLUMN requester_id TEXT;
ALTER TABLE action_log ADD COLUMN author_id TEXT;
-- Who takes part in which chat (private memory: the planner's tools and "what are you waiting
-- on?" show a person only what was said or proposed in chats they wrote in).
CREATE INDEX memory_author ON memory(author_id, thread_id) WHERE role = 'user';
