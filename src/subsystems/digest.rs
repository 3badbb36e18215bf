//! The digest runner: a supervised actor that sends each daily digest (an automation of kind
//! `digest`: "send me my agenda every day at 8am") at its occurrences.
//!
//! Owns: the tick (a `ticking::Ticking` actor: every `nudges.interval`, on the
//! test-controllable clock). Takes: `Tick` (also its own timer), which answers with what each
//! due digest did.
//! Rules: for each digest, the latest occurrence in (`last_occurrence_at`, or its creation when
//! it never fired, up to now] is due (after downtime only that one; the ones before it are
//! passed over, as for reminders); its message is the agenda of the person who asked for it
//! (`capture::agenda`: today's events of their own calendars, overdue, due today, waiting for
//! their answer), read at the tick, and, below it, at most one slot offered for one of their
//! deadline tasks (`calendar::placing_offer`: a plan they answer with yes or no); the events
//! and the offer only in a chat that is not a group. It is sent to the chat it was made in (memory and outbox: the Discord delivery rounds send it, a local
//! chat shows it at once). An empty agenda sends nothing. A digest whose chat is closed or gone
//! sends nothing either (logged). A digest at a time Donna picked (08:00 when none was said)
//! waits, unsent and unmarked, while its person's quiet hours last (their own, read in their
//! zone: `people::day`) and goes out at the first tick after; one at a time they stated
//! (`time_stated`: "every day at 7") is sent then, quiet or not.
//! How: as the automation runner, the due occurrences are searched off the store writer
//! (`automations::runner::Occurrences`) and only then written.
//! Invariants: the tick's writes are ONE unit of work on the store writer (the messages and
//! every `last_occurrence_at`), made only for a digest still exactly as the search read it, so
//! an occurrence sends at most one message across ticks, restarts and crashes; messages are
//! published on the event bus only after the commit. A digest whose rule cannot be searched or
//! whose agenda cannot be composed is skipped and reported (`skipped_rows`); the others still
//! run.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use crate::automations::due::Due;
use crate::automations::repo::{self, Automation, AutomationKind};
use crate::automations::runner::{still_as_read, Occurrences};
use crate::calendar::placing_offer::{self, OfferRules};
use crate::calendar::today;
use crate::capture::agenda;
use crate::conversation::memory::{self, Kind, Role};
use crate::conversation::participation::Viewer;
use crate::conversation::{outbox, threads, Channel};
use crate::events::{EventBus, Payload};
use crate::nudges::quiet::quiet_since;
use crate::people::{self, OwnDay};
use crate::skipped_rows::{Runner, SkippedRows};
use crate::store::{isolated, Store, StoreError};
use crate::ticking::{Tick, TickMsg, TickWork};

pub type DigestMsg = TickMsg<Vec<DigestSent>, StoreError>;

/// What one due digest did at a tick.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DigestSent {
    pub automation_id: String,
    /// The occurrence it answered.
    pub occurrence_at: DateTime<Utc>,
    pub thread_id: Option<String>,
    /// The message sent; None when there was nothing to say (or no chat to say it in).
    pub text: Option<String>,
}

/// What the digest runner's ticks use (run by `ticking::Ticking`).
pub struct DigestRunner {
    occurrences: Occurrences,
    /// The config's zone and quiet hours: the day of a person who set neither.
    defaults: OwnDay,
    /// The calendars read, and how a slot is offered.
    offers: OfferRules,
}

impl DigestRunner {
    pub fn new(
        store: Store,
        events: EventBus,
        skipped: Arc<SkippedRows>,
        (defaults, offers): (OwnDay, OfferRules),
    ) -> Self {
        let kind = (AutomationKind::Digest, Runner::Digests);
        Self {
            occurrences: Occurrences::new(store, events, skipped, kind),
            defaults,
            offers,
        }
    }
}

/// Whether `digest` waits at `now`: a time Donna picked, inside its person's quiet hours.
fn held(
    conn: &Connection,
    digest: &Automation,
    now: DateTime<Utc>,
    defaults: OwnDay,
) -> Result<bool, StoreError> {
    if digest.time_stated {
        return Ok(false);
    }
    let day = people::day_of(conn, digest.for_user_id.as_deref(), defaults)?;
    Ok(quiet_since(now, day).is_some())
}

/// Sends every due digest, in the caller's transaction; one that cannot be composed or sent is
/// reported and the others go on.
pub fn send(
    conn: &Connection,
    due: &[Due],
    now: DateTime<Utc>,
    skipped: &SkippedRows,
    (defaults, offers): (OwnDay, &OfferRules),
) -> Result<Vec<DigestSent>, StoreError> {
    let mut sent = Vec::new();
    for due in due {
        match isolated(conn, |conn| send_one(conn, due, now, (defaults, offers)))? {
            Ok(one) => sent.extend(one),
            Err(why) => skipped.report(Runner::Digests, &due.automation.id, &why),
        }
    }
    Ok(sent)
}

fn send_one(
    conn: &Connection,
    due: &Due,
    now: DateTime<Utc>,
    (defaults, offers): (OwnDay, &OfferRules),
) -> Result<Option<DigestSent>, StoreError> {
    if !still_as_read(conn, due)? || held(conn, &due.automation, now, defaults)? {
        return Ok(None);
    }
    let (digest, at) = (&due.automation, due.at);
    let chat = match &digest.origin_thread_id {
        Some(id) => threads::get(conn, id)?.filter(|thread| thread.open),
        None => None,
    };
    let text = match &chat {
        Some(thread) => message(conn, digest, thread, (now, defaults), offers)?,
        None => {
            tracing::warn!(automation = %digest.id, "the digest's chat is closed or gone; nothing sent");
            None
        }
    };
    if let (Some(thread), Some(text)) = (&chat, &text) {
        memory::append(conn, &thread.id, Role::Donna, Kind::Reply, None, text, now)?;
        // A local chat shows it at once; a Discord one gets it from the delivery rounds.
        let delivered = thread.channel == Channel::Local;
        outbox::enqueue(
            conn,
            &thread.id,
            thread.channel.as_str(),
            text,
            now,
            delivered,
        )?;
    }
    repo::set_last_occurrence(conn, &digest.id, at)?;
    Ok(Some(DigestSent {
        automation_id: digest.id.clone(),
        occurrence_at: at,
        thread_id: chat.map(|thread| thread.id),
        text,
    }))
}

/// The digest's message in `chat`: the agenda, and an offered slot below it; None when both
/// are empty. A person's events and free time only in a chat that is not a group.
fn message(
    conn: &Connection,
    digest: &Automation,
    chat: &threads::Thread,
    (now, defaults): (DateTime<Utc>, OwnDay),
    offers: &OfferRules,
) -> Result<Option<String>, StoreError> {
    let person = digest.for_user_id.clone().unwrap_or_default();
    let zone = digest.schedule.timezone;
    let own = !chat.is_group && !person.is_empty();
    let events = match own {
        true => today::lines(&offers.book, &person, now, zone),
        false => Vec::new(),
    };
    let viewer = Viewer {
        person: person.clone(),
        here: chat.id.clone(),
    };
    let agenda = agenda::compose(conn, &viewer, now, zone, &events)?;
    let offer = match own {
        true => placing_offer::offer(conn, chat, &person, (now, defaults), offers)?,
        false => None,
    };
    let parts: Vec<String> = agenda.into_iter().chain(offer).collect();
    Ok((!parts.is_empty()).then(|| parts.join("\n\n")))
}

impl Tick for DigestRunner {
    type Done = Vec<DigestSent>;
    type Error = StoreError;
    const WHAT: &'static str = "digest";

    fn tick(&mut self, now: DateTime<Utc>) -> TickWork<Vec<DigestSent>, StoreError> {
        let (occurrences, defaults) = (self.occurrences.clone(), self.defaults);
        let offers = self.offers.clone();
        Box::pin(async move {
            let events = occurrences.events.clone();
            let write = move |conn: &Connection, due: &[Due], now, skipped: &SkippedRows| {
                send(conn, due, now, skipped, (defaults, &offers))
            };
            let sent = occurrences.tick(now, write).await?;
            // Committed: the console and /api/events may show them now.
            for digest in &sent {
                if let (Some(thread_id), Some(text)) = (&digest.thread_id, &digest.text) {
                    events.publish(Payload::Message {
                        thread_id: thread_id.clone(),
                        text: text.clone(),
                    });
                }
            }
            let messages = sent.iter().filter(|digest| digest.text.is_some()).count();
            if messages > 0 {
                tracing::info!(count = messages, "digests sent");
            }
            Ok(sent)
        })
    }
}
