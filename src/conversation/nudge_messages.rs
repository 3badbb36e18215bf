//! Where nudges sit in a channel with buttons (Discord): one row per message that carries the
//! Done / Snooze 1h / Tomorrow buttons of a nudge, so they are disabled once they can no longer
//! apply: the task is closed (done, cancelled, gone), a newer nudge about it was sent, or a
//! click answered this one.
//!
//! Invariant: a row is written in the unit of work that records the delivery of its message
//! (or, for the message a Discord nudge thread starts from, the nudge itself), and marked
//! disabled only after the channel confirmed the edit (or the message is gone), so a failed edit
//! is tried again on the next round.

use rusqlite::{params, Connection};

use crate::store::StoreError;

/// A delivered nudge whose buttons are (or were) enabled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NudgeMessage {
    pub nudge_id: String,
    /// The task the nudge is about (its buttons' custom ids name it).
    pub task_id: String,
    pub channel_id: String,
    pub message_id: String,
}

/// Records that `message_id` in `channel_id` carries the buttons of nudge `nudge_id`.
pub fn record(conn: &Connection, message: &NudgeMessage) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO discord_nudge (nudge_id, channel_id, message_id) VALUES (?1, ?2, ?3) \
         ON CONFLICT(nudge_id, message_id) DO NOTHING",
    )?
    .execute(params![
        message.nudge_id,
        message.channel_id,
        message.message_id
    ])?;
    Ok(())
}

/// Nudges whose buttons are enabled although they can no longer apply.
pub fn to_disable(conn: &Connection, limit: usize) -> Result<Vec<NudgeMessage>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT d.nudge_id, n.task_id, d.channel_id, d.message_id FROM discord_nudge d \
         JOIN nudge n ON n.id = d.nudge_id \
         LEFT JOIN task t ON t.id = n.task_id \
         WHERE d.buttons_disabled = 0 \
           AND (t.id IS NULL OR t.status IN ('done', 'cancelled') \
                OR EXISTS (SELECT 1 FROM nudge newer WHERE newer.task_id = n.task_id AND newer.seq > n.seq) \
                OR EXISTS (SELECT 1 FROM inbox i WHERE i.answers_nudge = n.id)) \
         LIMIT ?1",
    )?;
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let found = statement
        .query_map([limit], |row| {
            Ok(NudgeMessage {
                nudge_id: row.get(0)?,
                task_id: row.get(1)?,
                channel_id: row.get(2)?,
                message_id: row.get(3)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(found)
}

/// The buttons of `message` are disabled now.
pub fn mark_disabled(conn: &Connection, message: &NudgeMessage) -> Result<(), StoreError> {
    conn.prepare_cached(
        "UPDATE discord_nudge SET buttons_disabled = 1 WHERE nudge_id = ?1 AND message_id = ?2",
    )?
    .execute(params![message.nudge_id, message.message_id])?;
    Ok(())
}
