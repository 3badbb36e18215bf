//! One refresh round of the calendars (the Calendars actor runs one per tick): which sources
//! are read (the config's and the people's), which are due, fetching them at once, reading
//! what came back, and keeping the last good copy.
//!
//! Rules: a source is due `refresh` after its last try (a new one at once); a 304 keeps the
//! copy (re-read only when the window has moved a day); a body that reads replaces the events
//! and is stored with its validators (so it survives a restart, and the next request is
//! conditional); a failure of any kind (fetch, size, time, parse, too many events) changes only
//! the source's `error`: its last good events stay. After a restart the stored copy is read
//! before the first fetch of the round.
//! Invariants: nothing here logs more of an address than its scheme and host; reading a text
//! runs on the blocking pool, never on an async thread; at most one store write per round, and
//! none when nothing new was read and nothing is to be forgotten.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use chrono_tz::Tz;
use futures_util::future::join_all;

use super::book::{CalendarBook, Entry, SourceStatus};
use super::fetch::{Fetched, Fetcher};
use super::read::{self, Settings, Window};
use super::repo::{self, Copy};
use super::sources::{Origin, Source};
use crate::config::{CalendarsConfig, LoadedConfig};
use crate::store::{Store, StoreError};

/// How far back events are kept.
pub const DAYS_BACK: i64 = 31;
/// How far ahead events are kept (a year and a day, so any window of 366 days from today fits).
pub const DAYS_AHEAD: i64 = 367;

/// The window of events kept at `now`.
pub fn window_at(now: DateTime<Utc>) -> Window {
    Window {
        from: crate::clock::add(now, -Duration::days(DAYS_BACK)),
        to: crate::clock::add(now, Duration::days(DAYS_AHEAD)),
    }
}

/// What a round needs, shared with the actor's restarts.
#[derive(Debug, Clone)]
pub struct Refresher {
    pub book: Arc<CalendarBook>,
    pub fetcher: Fetcher,
    pub store: Store,
    /// The operator's sources (paths already relative to the config file).
    pub configured: Vec<Source>,
    pub max_events: usize,
    /// The config's `timezone`: the zone of a person who set none.
    pub default_zone: Tz,
}

/// The sources and the zones of their people, as read from the store.
struct Read {
    sources: Vec<Source>,
    zones: Vec<(String, Tz)>,
    /// The sources whose copies are stored (a copy of a source no longer named is forgotten).
    stored: Vec<String>,
}

impl Refresher {
    /// `default_zone`: the zone of a person who set none (the config's, else the machine's).
    pub fn new(
        loaded: &LoadedConfig,
        default_zone: chrono_tz::Tz,
        book: Arc<CalendarBook>,
        store: Store,
    ) -> Result<Self, super::fetch::FetchError> {
        let config: &CalendarsConfig = &loaded.config.calendars;
        Ok(Self {
            book,
            fetcher: Fetcher::new(config)?,
            store,
            configured: config
                .sources
                .iter()
                .map(|source| Source::from_config(source, &loaded.base_dir))
                .collect(),
            max_events: config.max_events,
            default_zone,
        })
    }

    async fn read_sources(&self) -> Result<Read, StoreError> {
        let (configured, default) = (self.configured.clone(), self.default_zone);
        self.store
            .read(move |conn| {
                let mut sources = configured;
                for calendar in repo::all_personal(conn)? {
                    sources.push(Source::personal(
                        &calendar.user_id,
                        &calendar.name,
                        &calendar.url,
                    ));
                }
                let mut zones = Vec::new();
                for source in &sources {
                    let zone = crate::people::zone_of(conn, Some(&source.for_user_id), default)?;
                    zones.push((source.for_user_id.clone(), zone));
                }
                let stored = repo::copy_keys(conn)?;
                Ok(Read {
                    sources,
                    zones,
                    stored,
                })
            })
            .await
    }

    /// Refreshes every due source; answers every source's state after the round.
    pub async fn round(&self, now: DateTime<Utc>) -> Result<Vec<SourceStatus>, StoreError> {
        let read = self.read_sources().await?;
        self.book.set_sources(&read.sources, now);
        let window = window_at(now);
        let zone_of = |user: &str| {
            read.zones
                .iter()
                .find(|(who, _)| who == user)
                .map_or(self.default_zone, |(_, zone)| *zone)
        };
        let mut rounds = Vec::new();
        for entry in self.book.snapshot() {
            let settings = Settings {
                calendar: entry.source.name.clone(),
                window,
                max_events: self.max_events,
                floating: zone_of(&entry.source.for_user_id),
            };
            if entry.next_due <= now {
                rounds.push(self.refresh_one(entry, settings, now));
            } else if stale(&entry, &settings) {
                self.reread(entry, &settings).await;
            }
        }
        let copies: Vec<Copy> = join_all(rounds).await.into_iter().flatten().collect();
        let keep: Vec<String> = read.sources.iter().map(Source::key).collect();
        let forgotten = read.stored.iter().any(|key| !keep.contains(key));
        if copies.is_empty() && !forgotten {
            // Nothing to keep and nothing to forget: a round that fetched nothing new does not
            // take the store writer (it ticks every few seconds, calendars or not).
            return Ok(self.book.statuses());
        }
        self.store
            .write(move |conn| {
                for copy in &copies {
                    repo::keep_copy(conn, copy)?;
                }
                repo::forget_others(conn, &keep)?;
                Ok(())
            })
            .await?;
        Ok(self.book.statuses())
    }

    /// Refreshes one source; answers the copy to store when a new body read well.
    async fn refresh_one(
        &self,
        mut entry: Entry,
        settings: Settings,
        now: DateTime<Utc>,
    ) -> Option<Copy> {
        entry.next_due = crate::clock::after(now, entry.source.refresh);
        if entry.text.is_none() {
            self.load_copy(&mut entry, &settings).await;
        }
        let fetched = match &entry.source.origin {
            Origin::Url(url) => {
                self.fetcher
                    .url(url, entry.source.personal, entry.validators.as_ref())
                    .await
            }
            Origin::File(path) => {
                let (fetcher, path, known) =
                    (self.fetcher.clone(), path.clone(), entry.validators.clone());
                tokio::task::spawn_blocking(move || fetcher.file(&path, known.as_ref()))
                    .await
                    .unwrap_or_else(|_| {
                        Err(super::fetch::FetchError::Failed(
                            "the file read stopped".into(),
                        ))
                    })
            }
        };
        let mut stored = None;
        match fetched {
            Ok(Fetched::NotModified) => {
                if let (true, Some(text)) = (stale(&entry, &settings), entry.text.clone()) {
                    if let Err(error) = apply(&mut entry, text, &settings).await {
                        return self.failed(entry, error.to_string());
                    }
                }
                entry.refreshed_at = Some(now);
                entry.error = None;
            }
            Ok(Fetched::Body { text, validators }) => {
                let text: Arc<str> = Arc::from(text);
                if let Err(error) = apply(&mut entry, text.clone(), &settings).await {
                    return self.failed(entry, error.to_string());
                }
                tracing::info!(
                    calendar = %entry.source.name,
                    person = %entry.source.for_user_id,
                    address = %entry.source.shown(),
                    events = entry.events.len(),
                    skipped = entry.skipped,
                    "calendar read"
                );
                stored = Some(Copy {
                    source_key: entry.source.key(),
                    body: text.to_string(),
                    validators: validators.clone(),
                    fetched_at: now,
                });
                entry.validators = Some(validators);
                entry.refreshed_at = Some(now);
                entry.error = None;
            }
            Err(error) => return self.failed(entry, error.to_string()),
        }
        self.book.update(entry);
        stored
    }

    /// A failed refresh: only the error changes; the last good events stay.
    fn failed(&self, mut entry: Entry, error: String) -> Option<Copy> {
        tracing::warn!(
            calendar = %entry.source.name,
            person = %entry.source.for_user_id,
            address = %entry.source.shown(),
            %error,
            kept = entry.events.len(),
            "calendar refresh failed; the last good copy stays"
        );
        entry.error = Some(error);
        self.book.update(entry);
        None
    }

    /// Reads a source's current text again for a new window or zone (not due: no fetch).
    async fn reread(&self, mut entry: Entry, settings: &Settings) {
        let Some(text) = entry.text.clone() else {
            return;
        };
        match apply(&mut entry, text, settings).await {
            Ok(()) => self.book.update(entry),
            Err(error) => {
                self.failed(entry, error.to_string());
            }
        }
    }

    /// The stored copy, read into `entry` (after a restart, before the first fetch).
    async fn load_copy(&self, entry: &mut Entry, settings: &Settings) {
        let key = entry.source.key();
        let Ok(Some(copy)) = self.store.read(move |conn| repo::copy_of(conn, &key)).await else {
            return;
        };
        if apply(entry, Arc::from(copy.body), settings).await.is_ok() {
            entry.validators = Some(copy.validators);
            entry.refreshed_at = Some(copy.fetched_at);
        }
    }
}

/// Whether `entry`'s events were expanded for another person's zone, or a window a day or more
/// behind this one: its text is read again (no fetch needed).
fn stale(entry: &Entry, settings: &Settings) -> bool {
    entry.expanded_in != Some(settings.floating)
        || entry
            .expanded_from
            .is_none_or(|from| settings.window.from - from >= Duration::days(1))
}

/// Reads `text` into `entry`'s events (on the blocking pool).
async fn apply(
    entry: &mut Entry,
    text: Arc<str>,
    settings: &Settings,
) -> Result<(), read::ReadError> {
    let (reading_text, reading_settings) = (text.clone(), settings.clone());
    let reading = tokio::task::spawn_blocking(move || read::read(&reading_text, &reading_settings))
        .await
        .unwrap_or(Err(read::ReadError::Unreadable))?;
    entry.events = Arc::new(reading.events);
    entry.skipped = reading.skipped;
    entry.text = Some(text);
    entry.expanded_from = Some(settings.window.from);
    entry.expanded_in = Some(settings.floating);
    Ok(())
}
