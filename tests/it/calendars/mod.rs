//! The calendars Donna reads, through the running app: local .ics files and a calendar server
//! on loopback (`common::fake_calendar`), read into `GET /api/calendar/events` and /health.
//! `reading`: recurrences with exceptions and overrides, all-day events, zones (IANA, Windows,
//! the file's own VTIMEZONE, unknown), DST; `fetching`: conditional requests, failures that
//! keep the last good copy (404, timeout, malformed, oversized), a restart, /health without
//! addresses; `logs`: the real binary's log of a failing calendar; `addresses`: a person's own URLs and the private-address guard, redirects.

mod addresses;
mod asked;
mod digest;
mod fetching;
mod logs;
mod reading;
mod tool;
mod words;

use crate::common::Fields;
use donna::calendar::book::SourceStatus;
use donna::subsystems::calendars::CalendarsMsg;
use serde_json::Value;

use crate::common::{start_bot_in, Bot, TestEnv};

/// Runs one refresh round now and answers every source's state.
pub async fn refresh(bot: &Bot) -> Vec<SourceStatus> {
    bot.app
        .calendars
        .actor
        .ask(|reply| CalendarsMsg::Refresh { reply: Some(reply) })
        .await
        .unwrap_or_else(|e| panic!("refresh: {e}"))
        .unwrap_or_else(|e| panic!("refresh: {e}"))
}

/// Moves the clock past every source's refresh interval (15 minutes) and refreshes.
pub async fn refresh_later(bot: &Bot) -> Vec<SourceStatus> {
    bot.clock.advance(chrono::Duration::minutes(16));
    refresh(bot).await
}

/// The state of the source `name`.
pub fn state_of<'a>(statuses: &'a [SourceStatus], name: &str) -> &'a SourceStatus {
    statuses
        .iter()
        .find(|status| status.name == name)
        .unwrap_or_else(|| panic!("no calendar {name} in {statuses:?}"))
}

/// `GET /api/calendar/events` for `user` between two RFC 3339 times (status, body).
pub async fn events(bot: &Bot, user: &str, from: &str, to: &str) -> (u16, Value) {
    let from = from.replace('+', "%2B");
    let to = to.replace('+', "%2B");
    bot.get(&format!(
        "/api/calendar/events?from={from}&to={to}&user_id={user}"
    ))
    .await
}

/// (title, start) of each event, in the order served.
pub fn titles_and_starts(events: &Value) -> Vec<(String, String)> {
    events
        .as_array()
        .into_iter()
        .flatten()
        .map(|event| {
            (
                event["title"].text().to_string(),
                event["start"].text().to_string(),
            )
        })
        .collect()
}

/// A config's `calendars:` section with these sources (name, source, person) and more keys.
pub fn calendars_config(sources: &[(&str, &str, &str)], more: &str) -> String {
    let mut yaml = String::from("calendars:\n  sources:\n");
    for (name, source, person) in sources {
        yaml.push_str(&format!(
            "    - {{name: {name}, source: \"{source}\", for_user_id: {person}}}\n"
        ));
    }
    if sources.is_empty() {
        yaml = String::from("calendars:\n  sources: []\n");
    }
    yaml.push_str(more);
    yaml
}

/// A calendar file with these VEVENTs (and VTIMEZONEs), CRLF lines.
pub fn ics(components: &str) -> String {
    format!(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//Calendars//EN\r\n{}END:VCALENDAR\r\n",
        components
            .trim_start()
            .replace("\r\n", "\n")
            .replace('\n', "\r\n")
    )
}

/// Sam's calendar: one interview on Tuesday 24 Nov, 10:00-11:00 UTC (never shown to the owner).
pub const SAM: &str = r#"
BEGIN:VEVENT
UID:interview@sam
SUMMARY:Sam's job interview
DTSTART:20261124T100000Z
DTEND:20261124T110000Z
END:VEVENT
"#;

/// A bot reading local .ics files in its own dir, one a calendar (name, person, its VEVENTs),
/// with `more` keys in its `calendars:` section; nothing refreshed yet.
pub async fn bot_reading_files(calendars: &[(&str, &str, &str)], more: &str) -> Bot {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut files = Vec::new();
    for (name, _, components) in calendars {
        let file = dir.path().join(format!("{}.ics", name.to_lowercase()));
        std::fs::write(&file, ics(components)).unwrap_or_else(|e| panic!("{e}"));
        files.push(file.display().to_string());
    }
    let sources: Vec<(&str, &str, &str)> = calendars
        .iter()
        .zip(&files)
        .map(|((name, person, _), file)| (*name, file.as_str(), *person))
        .collect();
    let config = calendars_config(&sources, more);
    start_bot_in(dir, &config, TestEnv(Vec::new())).await
}

/// `bot_reading_files` after one refresh that read every file.
pub async fn bot_with_calendars_read(calendars: &[(&str, &str, &str)], more: &str) -> Bot {
    let bot = bot_reading_files(calendars, more).await;
    let states = refresh(&bot).await;
    assert!(states.iter().all(|state| state.ok), "{states:?}");
    bot
}

/// A bot reading the owner's calendar (`owner`: its VEVENTs) and Sam's, with `more` config,
/// after one refresh that read both.
pub async fn bot_with_owner_and_sam(owner: &str, more: &str) -> Bot {
    bot_with_calendars_read(&[("Mine", "owner", owner), ("Sams", "sam", SAM)], more).await
}
