//! The escalation ledger (migrations/0010_escalation.sql): what the bigger model may cost and
//! did cost, per day in `timezone`.
//!
//! Invariants:
//! - `reserve` checks the day's spent + reserved + this estimate against the budget and writes
//!   the reservation in the same transaction (the store writer's), so concurrent approvals
//!   can never overshoot: the check that passed is the one the row is counted in.
//! - An offer is reserved at most once (`offer_id` unique); the message that reserved it can be
//!   found again after a restart (`reserved_for`), so an interrupted call is never repeated.
//! - A reservation counts until settled; an interrupted one counts for good.

use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension};

use crate::store::time::to_db;
use crate::store::StoreError;

/// A day's figures, in micro-dollars.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DaySpend {
    pub spent: i64,
    pub reserved: i64,
    pub calls: i64,
}

/// What `reserve` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reservation {
    Reserved,
    /// The budget would be passed: nothing written.
    OverBudget,
}

/// How a reservation is settled: what the call cost (0 for an error answer) and the tokens the
/// server reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settlement {
    pub offer_id: String,
    pub spent: i64,
    pub tokens: Option<(u64, u64)>,
}

/// One reservation still open (state `reserved`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reserved {
    pub offer_id: String,
    pub reserved: i64,
}

pub fn day(conn: &Connection, day: &str) -> Result<DaySpend, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT COALESCE(SUM(CASE WHEN state = 'settled' THEN spent_micros ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN state = 'settled' THEN 0 ELSE reserved_micros END), 0), \
             COUNT(*) FROM escalation_spend WHERE day = ?1",
        )?
        .query_row([day], |row| {
            Ok(DaySpend {
                spent: row.get(0)?,
                reserved: row.get(1)?,
                calls: row.get(2)?,
            })
        })?)
}

/// Reserves `estimate` for `offer_id` if the day's budget allows it (see the invariants).
#[allow(clippy::too_many_arguments)]
pub fn reserve(
    conn: &Connection,
    offer_id: &str,
    thread_id: &str,
    message_id: &str,
    on_day: &str,
    estimate: i64,
    budget: i64,
    now: DateTime<Utc>,
) -> Result<Reservation, StoreError> {
    let spend = day(conn, on_day)?;
    if spend.spent + spend.reserved + estimate > budget {
        return Ok(Reservation::OverBudget);
    }
    conn.prepare_cached(
        "INSERT INTO escalation_spend (offer_id, thread_id, message_id, day, reserved_micros, state, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, 'reserved', ?6)",
    )?
    .execute(params![offer_id, thread_id, message_id, on_day, estimate, to_db(now)])?;
    Ok(Reservation::Reserved)
}

/// Settles a reservation at what the call cost (0 for an error answer).
pub fn settle(
    conn: &Connection,
    settlement: &Settlement,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let (offer_id, spent) = (&settlement.offer_id, settlement.spent);
    let (prompt, completion) = match settlement.tokens {
        Some((p, c)) => (Some(p as i64), Some(c as i64)),
        None => (None, None),
    };
    conn.prepare_cached(
        "UPDATE escalation_spend SET state = 'settled', spent_micros = ?2, prompt_tokens = ?3, \
         completion_tokens = ?4, settled_at = ?5 WHERE offer_id = ?1 AND state = 'reserved'",
    )?
    .execute(params![offer_id, spent, prompt, completion, to_db(now)])?;
    Ok(())
}

/// Marks a reservation whose call was cut off by a stop: counted for good, never called again.
pub fn interrupted(
    conn: &Connection,
    offer_id: &str,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "UPDATE escalation_spend SET state = 'interrupted', settled_at = ?2 \
         WHERE offer_id = ?1 AND state = 'reserved'",
    )?
    .execute(params![offer_id, to_db(now)])?;
    Ok(())
}

/// The open reservation made by message `message_id` of `thread_id`, if any (a restart finds
/// the call it cut off).
pub fn reserved_for(
    conn: &Connection,
    thread_id: &str,
    message_id: &str,
) -> Result<Option<Reserved>, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT offer_id, reserved_micros FROM escalation_spend \
             WHERE thread_id = ?1 AND message_id = ?2 AND state = 'reserved'",
        )?
        .query_row([thread_id, message_id], |row| {
            Ok(Reserved {
                offer_id: row.get(0)?,
                reserved: row.get(1)?,
            })
        })
        .optional()?)
}
