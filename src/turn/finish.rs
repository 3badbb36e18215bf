//! The end of every committed turn: Donna's reply recorded in memory and queued in the outbox
//! (with the plan it proposes, so a channel can put buttons under it), and the inbox row marked
//! done with the turn's result. Also the one way the results of actions become a reply.
//!
//! Invariant: runs inside the turn's transaction (`apply::commit`); a message is done exactly
//! when its reply is queued.

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use crate::actions::ActionResult;
use crate::conversation::memory::{self, Kind, Role};
use crate::conversation::{inbox, outbox, Channel};
use crate::store::StoreError;

use super::result::TurnResult;
use super::Inbound;

/// Records Donna's reply (if any), queues it for delivery and marks the message done.
pub fn finish(
    conn: &Connection,
    inbound: &Inbound,
    result: &mut TurnResult,
    reply: Option<String>,
    reply_kind: Kind,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let reply = reply.filter(|text| !text.trim().is_empty());
    if let Some(text) = &reply {
        memory::append(
            conn,
            &inbound.thread_id,
            Role::Donna,
            reply_kind,
            None,
            text,
            now,
        )?;
        let delivered = inbound.channel == Channel::Local;
        let channel = inbound.channel.as_str();
        let entry = outbox::enqueue(conn, &inbound.thread_id, channel, text, now, delivered)?;
        if let (Kind::Plan, Some(plan)) = (reply_kind, &result.pending_plan_id) {
            // The channel may put buttons bound to exactly this plan under the proposal.
            outbox::set_plan(conn, entry, plan)?;
        }
    }
    result.reply = reply;
    let json =
        serde_json::to_string(&*result).map_err(|e| StoreError::json("the turn's result", e))?;
    inbox::complete(conn, inbound, &json)?;
    Ok(())
}

pub(super) fn summarize(results: &[ActionResult]) -> String {
    results
        .iter()
        .map(|result| result.message.trim().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
