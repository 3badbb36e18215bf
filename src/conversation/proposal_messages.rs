//! Where proposals sit in a channel with buttons (Discord): one row per message that carries
//! "Yes" / "No" buttons bound to a plan, so the buttons are disabled once the plan is no longer
//! live (answered by a click or typed, replaced, cancelled, expired).
//!
//! Invariant: a row is written in the unit of work that records the delivery of its message,
//! and marked disabled only after the channel confirmed the edit (or the message is gone), so a
//! failed edit is tried again on the next round.

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection};

use crate::store::time::to_db;
use crate::store::StoreError;

/// A delivered proposal whose buttons are still enabled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProposalMessage {
    pub plan_id: String,
    pub channel_id: String,
    pub message_id: String,
}

/// Records that `message_id` in `channel_id` carries buttons for `plan_id`.
pub fn record(conn: &Connection, message: &ProposalMessage) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO discord_proposal (plan_id, channel_id, message_id) VALUES (?1, ?2, ?3) \
         ON CONFLICT(plan_id, message_id) DO NOTHING",
    )?
    .execute(params![
        message.plan_id,
        message.channel_id,
        message.message_id
    ])?;
    Ok(())
}

/// Proposals whose buttons are enabled although their plan is no longer live at `now`.
pub fn to_disable(
    conn: &Connection,
    now: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<ProposalMessage>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT d.plan_id, d.channel_id, d.message_id FROM discord_proposal d \
         LEFT JOIN plan p ON p.id = d.plan_id \
         WHERE d.buttons_disabled = 0 \
           AND (p.id IS NULL OR p.status != 'pending' OR p.expires_at <= ?1) \
         LIMIT ?2",
    )?;
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let found = statement
        .query_map(params![to_db(now), limit], |row| {
            Ok(ProposalMessage {
                plan_id: row.get(0)?,
                channel_id: row.get(1)?,
                message_id: row.get(2)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(found)
}

/// The buttons of `message` are disabled now.
pub fn mark_disabled(conn: &Connection, message: &ProposalMessage) -> Result<(), StoreError> {
    conn.prepare_cached(
        "UPDATE discord_proposal SET buttons_disabled = 1 WHERE plan_id = ?1 AND message_id = ?2",
    )?
    .execute(params![message.plan_id, message.message_id])?;
    Ok(())
}
