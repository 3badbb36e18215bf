-- Discord-native answers (issue 16, items 6-9): buttons on proposals.

-- The plan a reply proposes (its pending_plan_id), so the channel that delivers it can put
-- "Yes" / "No" buttons bound to exactly that plan under it.
ALTER TABLE outbox ADD COLUMN plan_id TEXT;

-- The plan a message answers, when the channel knows it (a button click names its plan): such
-- a message confirms or rejects that plan only, never a newer one.
ALTER TABLE inbox ADD COLUMN answers_plan TEXT;

-- Proposals delivered to Discord with buttons: where each sits, so the buttons are disabled
-- once the plan is answered, replaced, cancelled or expired.
CREATE TABLE discord_proposal (
    plan_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    buttons_disabled INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (plan_id, message_id)
);
CREATE INDEX discord_proposal_live ON discord_proposal(buttons_disabled) WHERE buttons_disabled = 0;
