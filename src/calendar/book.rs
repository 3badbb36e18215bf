//! The calendars as Donna knows them right now, shared by the Calendars actor (which writes
//! it) and everyone who asks about a person's time (the HTTP route, /health, and the answers
//! and slot finding built on them): each source's events, its state, and what the next
//! refresh needs (the last good text and its validators).
//!
//! The internal API: `events_of` ("what is on P's calendar between A and B") and
//! `free_slots_of` (the free slots of P between A and B of at least D, inside working hours and
//! outside quiet hours: `free_slots`).
//! Invariants: a person's events come only from their own sources (`for_user_id`); a source
//! that fails keeps its last good events (only `error` changes); nothing here shows a URL
//! beyond its scheme and host.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use parking_lot::RwLock;

use super::fetch::Validators;
use super::free_slots::{self, Hours, Slot};
use super::sources::Source;
use super::CalendarEvent;
use crate::people::WorkDay;

/// One source as known now.
#[derive(Debug, Clone)]
pub struct Entry {
    pub source: Source,
    pub events: Arc<Vec<CalendarEvent>>,
    /// Events left out of the last good reading (unknown zone, unreadable rule).
    pub skipped: usize,
    /// When the copy in use was last known current (fetched, or a 304).
    pub refreshed_at: Option<DateTime<Utc>>,
    /// Why the last refresh failed (None: it worked).
    pub error: Option<String>,
    /// The last good text and its validators (for the next conditional request).
    pub text: Option<Arc<str>>,
    pub validators: Option<Validators>,
    /// The start of the window, and the person's zone, the events were expanded for.
    pub expanded_from: Option<DateTime<Utc>>,
    pub expanded_in: Option<chrono_tz::Tz>,
    pub next_due: DateTime<Utc>,
}

impl Entry {
    pub fn new(source: Source, now: DateTime<Utc>) -> Self {
        Self {
            source,
            events: Arc::new(Vec::new()),
            skipped: 0,
            refreshed_at: None,
            error: Some("not read yet".into()),
            text: None,
            validators: None,
            expanded_from: None,
            expanded_in: None,
            next_due: now,
        }
    }
}

/// A source's state, for /health.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceStatus {
    pub name: String,
    pub for_user_id: String,
    pub ok: bool,
    pub events: usize,
    pub skipped: usize,
    pub refreshed_at: Option<DateTime<Utc>>,
    pub error: Option<String>,
}

#[derive(Debug, Default)]
pub struct CalendarBook {
    entries: RwLock<Vec<Entry>>,
}

impl CalendarBook {
    /// `user_id`'s events overlapping [from, to), oldest first.
    pub fn events_of(
        &self,
        user_id: &str,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Vec<CalendarEvent> {
        let mut found: Vec<CalendarEvent> = self
            .entries
            .read()
            .iter()
            .filter(|entry| entry.source.for_user_id == user_id)
            .flat_map(|entry| {
                entry
                    .events
                    .iter()
                    .filter(|e| e.overlaps(from, to))
                    .cloned()
                    .collect::<Vec<_>>()
            })
            .collect();
        found.sort_by(|a, b| {
            (a.start, &a.title, &a.calendar).cmp(&(b.start, &b.title, &b.calendar))
        });
        found
    }

    /// Whether Donna reads any calendar of `user_id`'s (working or not).
    pub fn has_calendar(&self, user_id: &str) -> bool {
        self.entries
            .read()
            .iter()
            .any(|entry| entry.source.for_user_id == user_id)
    }

    /// `user_id`'s free slots in [from, to) of at least `least`, between their busy events,
    /// inside their working hours and outside their quiet hours, read in their zone (`day`:
    /// theirs, else the config's, `people::work_day_of`).
    pub fn free_slots_of(
        &self,
        user_id: &str,
        (from, to): (DateTime<Utc>, DateTime<Utc>),
        least: Duration,
        day: &WorkDay,
    ) -> Vec<Slot> {
        let busy = self.events_of(user_id, from, to);
        let hours = Hours {
            working: day.working_hours,
            quiet: day.day.quiet_hours,
        };
        free_slots::free_slots(&busy, (from, to), least, &hours, day.day.zone)
    }

    /// Every source's state, by person and name.
    pub fn statuses(&self) -> Vec<SourceStatus> {
        self.entries
            .read()
            .iter()
            .map(|entry| SourceStatus {
                name: entry.source.name.clone(),
                for_user_id: entry.source.for_user_id.clone(),
                ok: entry.error.is_none(),
                events: entry.events.len(),
                skipped: entry.skipped,
                refreshed_at: entry.refreshed_at,
                error: entry.error.clone(),
            })
            .collect()
    }

    /// The sources read now become exactly `sources`: new ones are added (due at `now`), gone
    /// ones dropped, the others kept as they are.
    pub fn set_sources(&self, sources: &[Source], now: DateTime<Utc>) {
        let mut entries = self.entries.write();
        let mut kept: Vec<Entry> = Vec::with_capacity(sources.len());
        for source in sources {
            let key = source.key();
            match entries.iter().position(|entry| entry.source.key() == key) {
                Some(index) => kept.push(entries.swap_remove(index)),
                None => kept.push(Entry::new(source.clone(), now)),
            }
        }
        kept.sort_by(|a, b| {
            (&a.source.for_user_id, &a.source.name).cmp(&(&b.source.for_user_id, &b.source.name))
        });
        *entries = kept;
    }

    /// A copy of every entry (the actor plans its refresh from it).
    pub fn snapshot(&self) -> Vec<Entry> {
        self.entries.read().clone()
    }

    /// Replaces the entry of the same source (if it is still read).
    pub fn update(&self, entry: Entry) {
        let key = entry.source.key();
        let mut entries = self.entries.write();
        if let Some(slot) = entries.iter_mut().find(|known| known.source.key() == key) {
            *slot = entry;
        }
    }
}
