//! One tick's nudges, by destination: every chat gets ONE message, however many of its tasks
//! came due at once (the nudges held by quiet hours go out when they end as one message, not a
//! burst). A task captured in a chat that is still an open free thread is nudged there; two or
//! more due there at once become one message listing them by number, and a reply picks one by
//! its number ("1 done", "2 tomorrow"; `turn::nudge_group`). A task with no such chat has its
//! own nudge thread (one message in it), opened here or, with a `NudgeSink` (Discord), by the
//! sink after this unit of work.
//!
//! Invariant: choosing the tasks (`due`) and recording their nudges here is one unit of work,
//! so two ticks never nudge a task twice; every task of a grouped nudge is counted as nudged
//! (its backoff, its completion check-in) exactly as a nudge of its own would be.

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use super::due::DueNudge;
use crate::conversation::memory::{self, Kind, Role};
use crate::conversation::{nudge_groups, nudge_records, outbox, Channel, ContextType, Thread};
use crate::events::{EventBus, Payload};
use crate::nudges::{self, NudgeError, NudgeOpened, NudgeTime};
use crate::skipped_rows::{Runner, SkippedRows};
use crate::store::{isolated, StoreError};
use crate::tasks::{nudge_marks, repo};

/// What one tick opened here, and the due tasks left for the sink.
#[derive(Debug, Default)]
pub struct Round {
    pub opened: Vec<Opened>,
    pub for_sink: Vec<DueNudge>,
}

/// A nudge message recorded: one task's, or a grouped one listing several.
#[derive(Debug, Clone)]
pub enum Opened {
    One(NudgeOpened),
    Group(Vec<NudgeOpened>),
}

impl Opened {
    /// Each task's nudge (a grouped one's share its thread and text).
    pub fn nudges(&self) -> &[NudgeOpened] {
        match self {
            Opened::One(nudge) => std::slice::from_ref(nudge),
            Opened::Group(nudges) => nudges,
        }
    }

    /// Tells the event stream once committed: a `nudge` event per task, then Donna's one
    /// `message` in the chat.
    pub fn publish(&self, events: &EventBus) {
        match self {
            Opened::One(nudge) => {
                nudge.publish(events);
            }
            Opened::Group(nudges) => {
                for nudge in nudges {
                    events.publish(Payload::Nudge {
                        task_id: nudge.task_id.clone(),
                        thread_id: nudge.thread_id.clone(),
                        text: nudge.text.clone(),
                        channel: nudge.channel.as_str().to_string(),
                    });
                }
                if let Some(first) = nudges.first() {
                    events.publish(Payload::Message {
                        thread_id: first.thread_id.clone(),
                        text: first.text.clone(),
                    });
                }
            }
        }
    }
}

/// Records this tick's nudges: grouped per origin chat, each other task in its own thread on
/// `channel` (or left for the sink when `sink_on`, which also means Discord chats can carry
/// nudges). Each task (each chat's group) is recorded on its own (`store::isolated`): one that
/// cannot be is reported to `skipped` and the others still go out.
pub fn open_round(
    conn: &Connection,
    due: Vec<DueNudge>,
    channel: Channel,
    sink_on: bool,
    at: NudgeTime,
    skipped: &SkippedRows,
) -> Result<Round, StoreError> {
    let now = at.now;
    let mut round = Round::default();
    // Origin chats in the order their first task came due.
    let mut chats: Vec<(Thread, Vec<DueNudge>)> = Vec::new();
    for nudge in due {
        let origin = isolated(conn, |conn| {
            nudges::origin_thread(conn, &nudge.task, sink_on)
        })?;
        match origin {
            Err(why) => skipped.report(Runner::Nudger, &nudge.task.id, &why),
            Ok(Some(thread)) => match chats.iter_mut().find(|(t, _)| t.id == thread.id) {
                Some((_, list)) => list.push(nudge),
                None => chats.push((thread, vec![nudge])),
            },
            Ok(None) if sink_on => round.for_sink.push(nudge),
            Ok(None) => {
                let opened = isolated(conn, |conn| {
                    kept(
                        nudges::open(
                            conn,
                            &nudge.task.id,
                            Some(nudge.context),
                            channel,
                            || crate::ids::new_id("thr"),
                            at,
                        ),
                        &nudge,
                    )
                })?;
                record(
                    &mut round,
                    opened.map(|o| o.map(Opened::One)),
                    &nudge.task.id,
                    skipped,
                );
            }
        }
    }
    for (thread, list) in chats {
        if let [nudge] = list.as_slice() {
            // Its chat, as for any single nudge (`open_where_it_belongs` finds it again).
            let opened = isolated(conn, |conn| {
                kept(
                    nudges::open_where_it_belongs(
                        conn,
                        &nudge.task.id,
                        Some(nudge.context),
                        channel,
                        sink_on,
                        || crate::ids::new_id("thr"),
                        at,
                    ),
                    nudge,
                )
            })?;
            record(
                &mut round,
                opened.map(|o| o.map(Opened::One)),
                &nudge.task.id,
                skipped,
            );
            continue;
        }
        let opened = isolated(conn, |conn| open_group(conn, &thread, &list, now).map(Some))?;
        record(&mut round, opened, &thread.id, skipped);
    }
    Ok(round)
}

/// Keeps what a row opened; reports a row that failed.
fn record(
    round: &mut Round,
    opened: Result<Option<Opened>, StoreError>,
    row: &str,
    skipped: &SkippedRows,
) {
    match opened {
        Ok(Some(opened)) => round.opened.push(opened),
        Ok(None) => {}
        Err(why) => skipped.report(Runner::Nudger, row, &why),
    }
}

/// A nudge that could not open for a reason of its own (the task closed meanwhile) is skipped;
/// a store failure fails the row.
fn kept(
    opened: Result<NudgeOpened, NudgeError>,
    nudge: &DueNudge,
) -> Result<Option<NudgeOpened>, StoreError> {
    match opened {
        Ok(opened) => Ok(Some(opened)),
        Err(NudgeError::Store(error)) => Err(error),
        Err(other) => {
            tracing::debug!(task = %nudge.task.id, %other, "not nudged");
            Ok(None)
        }
    }
}

/// One message in `thread` listing every task of `list`, recorded like each task's own nudge.
fn open_group(
    conn: &Connection,
    thread: &Thread,
    list: &[DueNudge],
    now: DateTime<Utc>,
) -> Result<Opened, StoreError> {
    let text = group_text(list);
    memory::append(conn, &thread.id, Role::Donna, Kind::Nudge, None, &text, now)?;
    // Local chats are read back through the API; Discord ones leave through the delivery rounds.
    let delivered = thread.channel == Channel::Local;
    outbox::enqueue(
        conn,
        &thread.id,
        thread.channel.as_str(),
        &text,
        now,
        delivered,
    )?;
    let ids: Vec<String> = list.iter().map(|nudge| nudge.task.id.clone()).collect();
    nudge_groups::replace(conn, &thread.id, &ids, now)?;
    let mut opened = Vec::with_capacity(list.len());
    for nudge in list {
        // A record per task (a newer nudge replaces the task's older ones); the message carries
        // no buttons, so it is answered by number.
        let nudge_id = nudges::new_nudge_id();
        nudge_records::record_listed(conn, &nudge_id, &nudge.task.id, &thread.id, now)?;
        repo::record_nudge(conn, &nudge.task.id, now)?;
        if nudge.context == ContextType::Completion {
            nudge_marks::completion_asked(conn, &nudge.task)?;
        }
        opened.push(NudgeOpened {
            task_id: nudge.task.id.clone(),
            nudge_id,
            thread_id: thread.id.clone(),
            channel: thread.channel,
            text: text.clone(),
            created: false,
        });
    }
    Ok(Opened::Group(opened))
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
