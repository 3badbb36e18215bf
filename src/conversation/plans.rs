//! Pending action plans: actions proposed (by the model, or by a keyword intent marked
//! `confirm: true`) that wait for the person's yes.
//!
//! Invariants: at most one pending plan per thread (a unique index; saving a new one cancels the
//! old one first); a plan past `expires_at` can never be confirmed, whether or not the sweep
//! has marked it expired yet.

use chrono::{DateTime, Utc};
use rusqlite::types::Value as SqlValue;
use rusqlite::{params, Connection, OptionalExtension, Row};
use serde::{Deserialize, Serialize};

use crate::actions::BoundAction;
use crate::store::page::{self, Ask, Page, Rows};
use crate::store::time::{from_db, opt_from_db, to_db};
use crate::store::StoreError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlanStatus {
    Pending,
    Confirmed,
    Rejected,
    Expired,
    Cancelled,
}

impl PlanStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            PlanStatus::Pending => "pending",
            PlanStatus::Confirmed => "confirmed",
            PlanStatus::Rejected => "rejected",
            PlanStatus::Expired => "expired",
            PlanStatus::Cancelled => "cancelled",
        }
    }

    fn parse(text: &str) -> Result<Self, StoreError> {
        Ok(match text {
            "pending" => PlanStatus::Pending,
            "confirmed" => PlanStatus::Confirmed,
            "rejected" => PlanStatus::Rejected,
            "expired" => PlanStatus::Expired,
            "cancelled" => PlanStatus::Cancelled,
            other => {
                return Err(StoreError::Corrupt(format!(
                    "unknown plan status {other:?}"
                )))
            }
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub id: String,
    pub thread_id: String,
    pub actions: Vec<BoundAction>,
    pub reply_text: String,
    pub status: PlanStatus,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub resolved_at: Option<DateTime<Utc>>,
    /// The last inbox `seq` when the plan was committed: only a message received after it (a
    /// higher `seq`) was sent by someone who could have seen the plan, so only such a message
    /// may confirm or reject it.
    pub proposed_after_seq: i64,
    /// The person the proposal was made for (the author of the message that led to it); None
    /// for plans older than this field, which anyone in the thread may answer.
    pub requester_id: Option<String>,
}

impl Plan {
    /// Whether this plan is an offer to ask the bigger model (one internal `escalate` step):
    /// its yes is the escalation room's, not a plan step's.
    pub fn is_escalation_offer(&self) -> bool {
        matches!(self.actions.as_slice(), [step] if step.handler == crate::actions::HandlerKind::Escalate)
    }

    /// Pending and not past its expiry.
    pub fn is_live(&self, now: DateTime<Utc>) -> bool {
        self.status == PlanStatus::Pending && now < self.expires_at
    }

    /// Whether the message received as inbox `seq` came after this plan was committed (so its
    /// sender could have seen it).
    pub fn proposed_before(&self, seq: i64) -> bool {
        seq > self.proposed_after_seq
    }

    /// Whether `author_id` may confirm or reject this plan: only the person it was made for.
    pub fn answerable_by(&self, author_id: &str) -> bool {
        self.requester_id
            .as_deref()
            .is_none_or(|requester| requester == author_id)
    }
}

const COLUMNS: &str = "id, thread_id, actions_json, reply_text, status, created_at, expires_at, \
     resolved_at, proposed_after_seq, requester_id";

fn from_row(row: &Row<'_>) -> Result<Plan, StoreError> {
    let actions: String = row.get(2)?;
    Ok(Plan {
        id: row.get(0)?,
        thread_id: row.get(1)?,
        actions: serde_json::from_str(&actions).map_err(|e| StoreError::json("plan actions", e))?,
        reply_text: row.get(3)?,
        status: PlanStatus::parse(&row.get::<_, String>(4)?)?,
        created_at: from_db(&row.get::<_, String>(5)?)?,
        expires_at: from_db(&row.get::<_, String>(6)?)?,
        resolved_at: opt_from_db(row.get(7)?)?,
        proposed_after_seq: row.get(8)?,
        requester_id: row.get(9)?,
    })
}

/// The thread's most recent plan, whatever its status.
pub fn latest(conn: &Connection, thread_id: &str) -> Result<Option<Plan>, StoreError> {
    let mut statement = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM plan WHERE thread_id = ?1 ORDER BY created_at DESC, rowid DESC LIMIT 1"
    ))?;
    let mut rows = statement.query([thread_id])?;
    rows.next()?.map(from_row).transpose()
}

pub fn get(conn: &Connection, id: &str) -> Result<Option<Plan>, StoreError> {
    let mut statement =
        conn.prepare_cached(&format!("SELECT {COLUMNS} FROM plan WHERE id = ?1"))?;
    let mut rows = statement.query([id])?;
    rows.next()?.map(from_row).transpose()
}

/// Saves a new pending plan, cancelling the thread's previous pending one.
pub fn save(conn: &Connection, plan: &Plan) -> Result<(), StoreError> {
    conn.execute(
        "UPDATE plan SET status = 'cancelled', resolved_at = ?2 WHERE thread_id = ?1 AND status = 'pending'",
        params![plan.thread_id, to_db(plan.created_at)],
    )?;
    let actions =
        serde_json::to_string(&plan.actions).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    conn.execute(
        &format!(
            "INSERT INTO plan ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, 'pending', ?5, ?6, NULL, ?7, ?8)"
        ),
        params![
            plan.id,
            plan.thread_id,
            actions,
            plan.reply_text,
            to_db(plan.created_at),
            to_db(plan.expires_at),
            plan.proposed_after_seq,
            plan.requester_id
        ],
    )?;
    Ok(())
}

/// Moves a pending plan to `status`; false when it was not pending any more.
pub fn resolve(
    conn: &Connection,
    id: &str,
    status: PlanStatus,
    at: DateTime<Utc>,
) -> Result<bool, StoreError> {
    let changed = conn.execute(
        "UPDATE plan SET status = ?2, resolved_at = ?3 WHERE id = ?1 AND status = 'pending'",
        params![id, status.as_str(), to_db(at)],
    )?;
    Ok(changed == 1)
}

/// Marks every pending plan past its expiry as expired; returns how many.
pub fn expire_stale(conn: &Connection, now: DateTime<Utc>) -> Result<usize, StoreError> {
    Ok(conn.execute(
        "UPDATE plan SET status = 'expired', resolved_at = expires_at WHERE status = 'pending' AND expires_at <= ?1",
        [to_db(now)],
    )?)
}

/// Ids of pending plans (for tests and recovery).
pub fn pending_count(conn: &Connection) -> Result<i64, StoreError> {
    Ok(conn
        .query_row(
            "SELECT COUNT(*) FROM plan WHERE status = 'pending'",
            [],
            |row| row.get(0),
        )
        .optional()?
        .unwrap_or(0))
}

/// Every live proposal, oldest first ("what are you waiting on?").
pub fn live_proposals(
    conn: &Connection,
    now: DateTime<Utc>,
) -> Result<Vec<LiveProposal>, StoreError> {
    type Row = (String, String, String, String, Option<String>);
    let rows: Vec<Row> = conn
        .prepare_cached(
            "SELECT id, thread_id, reply_text, expires_at, requester_id FROM plan \
             WHERE status = 'pending' AND expires_at > ?1 ORDER BY created_at",
        )?
        .query_map([to_db(now)], |row| {
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
            ))
        })?
        .collect::<Result<_, _>>()?;
    rows.into_iter()
        .map(|(id, thread_id, text, expires_at, requester_id)| {
            Ok(LiveProposal {
                id,
                thread_id,
                text,
                expires_at: from_db(&expires_at)?,
                requester_id,
            })
        })
        .collect()
}

/// The live proposals made for `requester` (only their yes or no answers them), oldest first
/// (the digest's "waiting for your answer").
pub fn live_proposals_for(
    conn: &Connection,
    requester: &str,
    now: DateTime<Utc>,
) -> Result<Vec<LiveProposal>, StoreError> {
    Ok(live_proposals(conn, now)?
        .into_iter()
        .filter(|proposal| proposal.requester_id.as_deref() == Some(requester))
        .collect())
}

/// A page of the proposals live at `now` (as [`live_proposals`]), newest first
/// (`store::page`).
pub fn live_page(
    conn: &Connection,
    now: DateTime<Utc>,
    ask: &Ask,
) -> Result<Page<LiveProposal>, StoreError> {
    let rows = Rows {
        table: "plan",
        columns: "id, thread_id, reply_text, expires_at, requester_id",
        filter: "status = 'pending' AND expires_at > ?1",
        params: vec![SqlValue::Text(to_db(now))],
    };
    page::read(conn, &rows, ask, |row| {
        Ok(LiveProposal {
            id: row.get(0)?,
            thread_id: row.get(1)?,
            text: row.get(2)?,
            expires_at: from_db(&row.get::<_, String>(3)?)?,
            requester_id: row.get(4)?,
        })
    })
}

/// A proposal still waiting for its yes or no.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveProposal {
    /// The plan's id (a button that answers it names it).
    pub id: String,
    pub thread_id: String,
    /// What Donna said when she proposed it.
    pub text: String,
    pub expires_at: DateTime<Utc>,
    /// Who may answer it (None: anyone in its chat).
    pub requester_id: Option<String>,
}
