//! One tick's nudges, by destination: every chat gets ONE message, however many of its tasks
//! came due at once (the nudges held by quiet hours go out when they end as one message, not a
//! burst). A task captured in a chat that is still an open free thread is nudged there; two or
//! more due there at once become one message listing them by number, and a reply picks one by
//! its number ("1 done", "2 tomorrow"; `turn::nudge_group`). A task with no such chat has its
//! own nudge thread (one message in it), opened here or, with a `NudgeSink` (Discord), by the
//! sink after this unit of work.
//!
//! Invariant: choosing the tasks (`due`) and recording their nudges here (`record`) is one unit
//! of work, so two ticks never nudge a task twice; each task (each chat's group) is recorded on
//! its own (`store::isolated`): one that cannot be is reported and the others still go out.

use rusqlite::Connection;

use super::due::DueNudge;
use super::text::NudgeTime;
use super::{open, record, NudgeError, NudgeOpened, Opened};
use crate::conversation::{Channel, ContextType, Thread};
use crate::skipped_rows::{Runner, SkippedRows};
use crate::store::{isolated, StoreError};

/// What one tick opened here, and the due tasks left for the sink.
#[derive(Debug, Default)]
pub struct Round {
    pub opened: Vec<Opened>,
    pub for_sink: Vec<DueNudge>,
}

/// Records this tick's nudges: grouped per origin chat, each other task in its own thread on
/// `channel` (or left for the sink when `sink_on`, which also means Discord chats can carry
/// nudges). One that cannot be recorded is reported to `skipped`.
pub fn open_round(
    conn: &Connection,
    due: Vec<DueNudge>,
    channel: Channel,
    sink_on: bool,
    at: NudgeTime,
    skipped: &SkippedRows,
) -> Result<Round, StoreError> {
    let mut round = Round::default();
    // Origin chats in the order their first task came due.
    let mut chats: Vec<(Thread, Vec<DueNudge>)> = Vec::new();
    for nudge in due {
        let origin = isolated(conn, |conn| open::origin_thread(conn, &nudge.task, sink_on))?;
        match origin {
            Err(why) => skipped.report(Runner::Nudger, &nudge.task.id, &why),
            Ok(Some(thread)) => match chats.iter_mut().find(|(t, _)| t.id == thread.id) {
                Some((_, list)) => list.push(nudge),
                None => chats.push((thread, vec![nudge])),
            },
            Ok(None) if sink_on => round.for_sink.push(nudge),
            Ok(None) => round.one(conn, &nudge, skipped, |conn, id, context| {
                open::open(conn, id, context, channel, new_thread_id, at)
            })?,
        }
    }
    for (thread, list) in chats {
        if let [nudge] = list.as_slice() {
            // Its chat, as for any single nudge (`open_where_it_belongs` finds it again).
            round.one(conn, nudge, skipped, |conn, id, context| {
                open::open_where_it_belongs(conn, id, context, channel, sink_on, new_thread_id, at)
            })?;
            continue;
        }
        let opened = isolated(conn, |conn| {
            record::group(conn, &thread, &list, group_text(&list), at.now)
                .map(|nudges| Some(Opened::Group(nudges)))
        })?;
        round.keep(opened, &thread.id, skipped);
    }
    Ok(round)
}

fn new_thread_id() -> String {
    crate::ids::new_id("thr")
}

impl Round {
    /// Opens one task's nudge with `open` in its own savepoint. A nudge that could not open for
    /// a reason of its own (the task closed meanwhile) is passed over; a store failure is
    /// reported.
    fn one(
        &mut self,
        conn: &Connection,
        nudge: &DueNudge,
        skipped: &SkippedRows,
        open: impl FnOnce(&Connection, &str, Option<ContextType>) -> Result<NudgeOpened, NudgeError>,
    ) -> Result<(), StoreError> {
        let opened = isolated(conn, |conn| {
            match open(conn, &nudge.task.id, Some(nudge.context)) {
                Ok(opened) => Ok(Some(Opened::One(opened))),
                Err(NudgeError::Store(error)) => Err(error),
                Err(other) => {
                    tracing::debug!(task = %nudge.task.id, %other, "not nudged");
                    Ok(None)
                }
            }
        })?;
        self.keep(opened, &nudge.task.id, skipped);
        Ok(())
    }

    /// Keeps what a row opened; reports a row that failed.
    fn keep(
        &mut self,
        opened: Result<Option<Opened>, StoreError>,
        row: &str,
        skipped: &SkippedRows,
    ) {
        match opened {
            Ok(Some(opened)) => self.opened.push(opened),
            Ok(None) => {}
            Err(why) => skipped.report(Runner::Nudger, row, &why),
        }
    }
}

/// "3 things are waiting for you:\n1) 'Pay rent' is overdue.\n..." with how to answer one.
pub fn group_text(list: &[DueNudge]) -> String {
    let mut text = format!("{} things are waiting for you:", list.len());
    for (index, nudge) in list.iter().enumerate() {
        let title = &nudge.task.title;
        let line = match nudge.context {
            ContextType::Overdue => format!("'{title}' is overdue."),
            ContextType::CheckIn => format!("It's time for '{title}'."),
            ContextType::Completion => format!("Did you finish '{title}'?"),
        };
        text.push_str(&format!("\n{}) {line}", index + 1));
    }
    text.push_str(
        "\nAnswer one with its number and what to do, like '1 done', '2 later' or '2 tomorrow'.",
    );
    text
}
