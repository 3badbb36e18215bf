//! Fetching calendars over HTTP from a server on loopback (the operator's sources may name any
//! address): a conditional request on the second fetch answered 304, and failures that keep
//! the last good copy and say why in /health (404, a timeout, a malformed file, a body past
//! `calendars.max_bytes`), the copy surviving a restart, and /health never showing a URL's
//! path or query.

use crate::common::{Fields, Needed};
use donna::clock::Clock;
use serde_json::Value;

use super::{calendars_config, events, ics, refresh, refresh_later, state_of, titles_and_starts};
use crate::common::fake_calendar::{start_fake_calendar, FakeCalendar, Page};
use crate::common::{start_bot, start_bot_in, Bot, TestEnv};

/// A calendar's secret address: its path and query must never show.
const SECRET_PATH: &str = "/private-7f3a9c/basic.ics";
const SECRET_QUERY: &str = "token=hunter2";

const ONE_MEETING: &str = r#"
BEGIN:VEVENT
UID:m1@remote
SUMMARY:Dentist
DTSTART:20261124T090000Z
DTEND:20261124T100000Z
END:VEVENT
"#;

fn secret_url(fake: &FakeCalendar) -> String {
    fake.url(&format!("{SECRET_PATH}?{SECRET_QUERY}"))
}

async fn bot_reading(fake: &FakeCalendar, more: &str) -> Bot {
    fake.ics(SECRET_PATH, &ics(ONE_MEETING), "\"v1\"");
    start_bot(&calendars_config(
        &[("Remote", &secret_url(fake), "ana")],
        more,
    ))
    .await
}

async fn dentist_is_listed(bot: &Bot) -> bool {
    let (status, listed) = events(bot, "ana", "2026-11-23T00:00:00Z", "2026-11-30T00:00:00Z").await;
    status == 200
        && titles_and_starts(&listed)
            == [(
                "Dentist".to_string(),
                "2026-11-24T09:00:00+00:00".to_string(),
            )]
}

/// /health's calendars, checked never to show the secret address.
async fn health_calendars(bot: &Bot) -> Value {
    let (_, health) = bot.get("/health").await;
    let text = health.to_string();
    for secret in [SECRET_PATH, "private-7f3a9c", SECRET_QUERY, "hunter2"] {
        assert!(!text.contains(secret), "/health shows {secret}: {text}");
    }
    health["calendars"].clone()
}

#[actix_rt::test]
async fn the_second_fetch_is_conditional_and_a_304_keeps_the_copy() {
    let fake = start_fake_calendar();
    let bot = bot_reading(&fake, "").await;
    let first = refresh(&bot).await;
    assert!(state_of(&first, "Remote").ok, "{first:?}");
    assert!(dentist_is_listed(&bot).await);
    let again = refresh_later(&bot).await;
    let remote = state_of(&again, "Remote");
    assert!(remote.ok && remote.events == 1, "{remote:?}");
    let seen = fake.seen();
    assert!(seen.len() >= 2, "{seen:?}");
    assert_eq!(
        seen[0].if_none_match, None,
        "the first fetch has nothing to compare"
    );
    let last = seen.last().cloned().unwrap_or_else(|| panic!("no request"));
    assert_eq!(last.if_none_match.as_deref(), Some("\"v1\""));
    assert_eq!(
        last.if_modified_since.as_deref(),
        Some("Mon, 23 Nov 2026 09:00:00 GMT")
    );
    assert_eq!(
        remote.refreshed_at,
        Some(bot.clock.now()),
        "the 304 counts as current"
    );
    assert!(dentist_is_listed(&bot).await);
}

/// (what the server does now, what /health's error says).
fn failures(fake: &FakeCalendar) -> Vec<(Page, &'static str)> {
    let _ = fake;
    vec![
        (Page::Status(404), "HTTP 404"),
        (
            Page::Slow(
                std::time::Duration::from_secs(5),
                Box::new(Page::Ics {
                    body: ics(ONE_MEETING),
                    etag: "\"v2\"".into(),
                }),
            ),
            "no answer within 1s",
        ),
        (
            Page::Ics {
                body: "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART 2026\r\n".into(),
                etag: "\"broken\"".into(),
            },
            "malformed",
        ),
        (
            Page::Ics {
                body: "<html>Sign in</html>".into(),
                etag: "\"html\"".into(),
            },
            "not an iCalendar file",
        ),
        (
            Page::Endless(8 * 1024 * 1024),
            "larger than calendars.max_bytes (200000 bytes)",
        ),
    ]
}

#[actix_rt::test]
async fn a_source_that_fails_keeps_its_last_good_copy_and_says_why_without_its_address() {
    let fake = start_fake_calendar();
    let bot = bot_reading(&fake, "  timeout: 1s\n  max_bytes: 200000\n").await;
    refresh(&bot).await;
    assert!(dentist_is_listed(&bot).await);
    for (page, reason) in failures(&fake) {
        fake.page(SECRET_PATH, page);
        let statuses = refresh_later(&bot).await;
        let remote = state_of(&statuses, "Remote");
        assert!(!remote.ok, "{reason}: {remote:?}");
        let error = remote.error.clone().needed();
        assert!(error.contains(reason), "{reason}: {error}");
        assert_eq!(remote.events, 1, "{reason}: the last good copy stays");
        assert!(dentist_is_listed(&bot).await, "{reason}");
        let shown = health_calendars(&bot).await;
        assert_eq!(shown[0]["state"], "error", "{shown}");
        assert_eq!(shown[0]["name"], "Remote");
        assert_eq!(shown[0]["for_user_id"], "ana");
        assert_eq!(shown[0]["events"], 1);
        assert!(shown[0]["error"].text().contains(reason), "{shown}");
    }
    let (status, _) = bot.get("/health/ready").await;
    assert_eq!(status, 200, "a broken calendar is harmless");
    fake.ics(SECRET_PATH, &ics(ONE_MEETING), "\"v3\"");
    let healed = refresh_later(&bot).await;
    assert!(state_of(&healed, "Remote").ok, "{healed:?}");
    assert_eq!(health_calendars(&bot).await[0]["state"], "ok");
}

#[actix_rt::test]
async fn the_last_good_copy_survives_a_restart_and_the_next_request_is_still_conditional() {
    let fake = start_fake_calendar();
    let more = "";
    let bot = bot_reading(&fake, more).await;
    refresh(&bot).await;
    assert!(dentist_is_listed(&bot).await);
    bot.stop().await;
    let Bot { dir, app, .. } = bot;
    drop(app);
    fake.page(SECRET_PATH, Page::Status(503));
    let config = calendars_config(&[("Remote", &secret_url(&fake), "ana")], more);
    let again = start_bot_in(dir, &config, TestEnv(Vec::new())).await;
    let statuses = refresh(&again).await;
    let remote = state_of(&statuses, "Remote");
    assert!(!remote.ok && remote.events == 1, "{remote:?}");
    assert!(
        dentist_is_listed(&again).await,
        "served from the stored copy"
    );
    let last = fake
        .seen()
        .last()
        .cloned()
        .unwrap_or_else(|| panic!("no request"));
    assert_eq!(last.if_none_match.as_deref(), Some("\"v1\""), "{last:?}");
}
