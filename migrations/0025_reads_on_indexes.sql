-- The reads of a turn, of the common questions and of the list routes on indexes, so their cost
-- follows what is asked about, not every task ever stored (with 100,000 tasks "what's due
-- today?" read them all: half a second; GET /api/tasks answered 57 MB).
--
-- Open tasks only: partial indexes over the tasks not done or cancelled, so the tens of
-- thousands of done tasks cost nothing there (a closed task leaves them). By deadline and by
-- start (the Nudger's candidates, lists of everyone's tasks), and by the chat they were
-- captured in, then deadline or start (what one person may see, in the window asked: their
-- chats' tasks and those of no chat), src/tasks/open.rs.
CREATE INDEX IF NOT EXISTS task_open_deadline ON task(deadline)
    WHERE status NOT IN ('done', 'cancelled') AND deadline IS NOT NULL;
CREATE INDEX IF NOT EXISTS task_open_start ON task(scheduled_start)
    WHERE status NOT IN ('done', 'cancelled') AND scheduled_start IS NOT NULL;
CREATE INDEX IF NOT EXISTS task_open_origin ON task(origin_thread_id, deadline)
    WHERE status NOT IN ('done', 'cancelled');
CREATE INDEX IF NOT EXISTS task_open_origin_start ON task(origin_thread_id, scheduled_start)
    WHERE status NOT IN ('done', 'cancelled') AND scheduled_start IS NOT NULL;
-- The nudges nobody answered yet ("what are you waiting on?").
CREATE INDEX IF NOT EXISTS task_unanswered ON task(last_nudged_at)
    WHERE unanswered_nudges > 0 AND status NOT IN ('done', 'cancelled');

-- Lists page newest first, then by id (a keyset: src/store/page.rs): GET /api/tasks with and
-- without a status, /api/threads, /api/automations, /api/proposals. The status index takes
-- the order too, so it replaces the plain one.
DROP INDEX IF EXISTS task_status;
CREATE INDEX IF NOT EXISTS task_status_newest ON task(status, created_at DESC, id);
CREATE INDEX IF NOT EXISTS task_newest ON task(created_at DESC, id);
CREATE INDEX IF NOT EXISTS thread_newest ON thread(created_at DESC, id);
CREATE INDEX IF NOT EXISTS automation_newest ON automation(created_at DESC, id) WHERE stopped_at IS NULL;
CREATE INDEX IF NOT EXISTS plan_pending_newest ON plan(created_at DESC, id) WHERE status = 'pending';
