//! A person's own calendars (`PUT /api/people/{user_id}` `calendars: [{name, url}]`): only
//! http(s) URLs, shown cut to scheme and host, and never fetched from a loopback, private or
//! other non-public address (after DNS, and on every redirect) unless
//! `calendars.allow_private_addresses: true`. The redirect checks run on the real fetcher with
//! 127.0.0.2 treated as a public host (`Fetcher::treating_as_public`: loopback has no public
//! address to redirect from).

use crate::common::Needed;
use donna::calendar::fetch::{FetchError, Fetched, Fetcher, Refused};
use donna::config::CalendarsConfig;
use serde_json::{json, Value};

use super::{calendars_config, events, ics, refresh, state_of, titles_and_starts};
use crate::common::fake_calendar::{start_fake_calendar, start_fake_calendar_on, Page};
use crate::common::{start_bot, Bot};

const MINE: &str = r#"
BEGIN:VEVENT
UID:yoga@mine
SUMMARY:Yoga
DTSTART:20261125T170000Z
DTEND:20261125T180000Z
END:VEVENT
"#;

async fn put_calendars(bot: &Bot, user: &str, calendars: Value) -> (u16, Value) {
    bot.request(
        reqwest::Method::PUT,
        &format!("/api/people/{user}"),
        Some(json!({ "calendars": calendars })),
    )
    .await
}

async fn yoga_listed(bot: &Bot) -> bool {
    let (_, listed) = events(bot, "ana", "2026-11-23T00:00:00Z", "2026-11-30T00:00:00Z").await;
    titles_and_starts(&listed) == [("Yoga".to_string(), "2026-11-25T17:00:00+00:00".to_string())]
}

#[actix_rt::test]
async fn a_persons_url_on_a_private_address_is_refused_and_never_fetched() {
    let fake = start_fake_calendar();
    fake.ics("/mine.ics", &ics(MINE), "\"m1\"");
    let bot = start_bot("").await;
    let port = fake.addr.port();
    let private = [
        ("Loopback", fake.url("/mine.ics?key=s3cret")),
        (
            "By name",
            format!("http://localhost:{port}/mine.ics?key=s3cret"),
        ),
        (
            "Mapped",
            format!("http://[::ffff:127.0.0.1]:{port}/mine.ics"),
        ),
        (
            "Metadata",
            "http://169.254.169.254/latest/meta-data/".to_string(),
        ),
        ("Unspecified", format!("http://0.0.0.0:{port}/mine.ics")),
    ];
    let list: Vec<Value> = private
        .iter()
        .map(|(name, url)| json!({"name": name, "url": url}))
        .collect();
    let (status, person) = put_calendars(&bot, "ana", json!(list)).await;
    assert_eq!(status, 200, "{person}");
    let shown = person["calendars"].to_string();
    assert!(
        !shown.contains("mine.ics") && !shown.contains("s3cret"),
        "{shown}"
    );
    // Listed by name, each address cut to its scheme and host.
    assert_eq!(person["calendars"][0]["name"], "By name");
    assert_eq!(
        person["calendars"][0]["url"],
        format!("http://localhost:{port}")
    );
    let statuses = refresh(&bot).await;
    for (name, _) in &private {
        let state = state_of(&statuses, name);
        assert!(!state.ok, "{name}: {state:?}");
        assert!(
            state.error.clone().needed().contains("not a public one"),
            "{name}: {state:?}"
        );
    }
    assert!(
        fake.seen().is_empty(),
        "nothing was fetched: {:?}",
        fake.seen()
    );
    assert!(!yoga_listed(&bot).await);
    let (_, again) = bot.get("/api/people/ana").await;
    assert_eq!(
        again["calendars"].as_array().map(Vec::len),
        Some(5),
        "{again}"
    );
}

#[actix_rt::test]
async fn the_operator_may_allow_private_addresses_for_a_home_server() {
    let fake = start_fake_calendar();
    fake.ics("/mine.ics", &ics(MINE), "\"m1\"");
    let bot = start_bot(&calendars_config(&[], "  allow_private_addresses: true\n")).await;
    let (status, _) = put_calendars(
        &bot,
        "ana",
        json!([{"name": "Home", "url": fake.url("/mine.ics")}]),
    )
    .await;
    assert_eq!(status, 200);
    let statuses = refresh(&bot).await;
    assert!(state_of(&statuses, "Home").ok, "{statuses:?}");
    assert!(yoga_listed(&bot).await);
    // The list replaces the one before; [] removes them all.
    let (status, person) = put_calendars(&bot, "ana", json!([])).await;
    assert_eq!((status, person["calendars"].clone()), (200, json!([])));
    refresh(&bot).await;
    assert!(!yoga_listed(&bot).await);
}

#[actix_rt::test]
async fn only_http_urls_are_taken_from_a_person_and_a_bad_one_changes_nothing() {
    let bot = start_bot("").await;
    let (status, _) = put_calendars(
        &bot,
        "ana",
        json!([{"name": "Work", "url": "https://calendar.example.com/a.ics"}]),
    )
    .await;
    assert_eq!(status, 200);
    let refused = [
        json!([{"name": "Files", "url": "file:///etc/passwd"}]),
        json!([{"name": "Ftp", "url": "ftp://example.com/a.ics"}]),
        json!([{"name": "Bare", "url": "example.com/a.ics"}]),
        json!([{"name": "Creds", "url": "https://me:pw@example.com/a.ics"}]),
        json!([{"name": "", "url": "https://example.com/a.ics"}]),
        json!([{"name": "Twice", "url": "https://a.example/x"}, {"name": "Twice", "url": "https://b.example/y"}]),
        json!([{"name": "Extra", "url": "https://example.com/a.ics", "colour": "red"}]),
    ];
    for body in refused {
        let (status, answer) = put_calendars(&bot, "ana", body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
    }
    let (_, person) = bot.get("/api/people/ana").await;
    assert_eq!(
        person["calendars"],
        json!([{"name": "Work", "url": "https://calendar.example.com"}])
    );
}

#[actix_rt::test]
async fn a_redirect_to_a_private_address_is_refused_on_every_hop() {
    let inside = start_fake_calendar();
    inside.ics("/secret.ics", &ics(MINE), "\"s1\"");
    let outside = start_fake_calendar_on("127.0.0.2");
    outside.ics("/direct.ics", &ics(MINE), "\"d1\"");
    outside.page("/to-ip", Page::Redirect(inside.url("/secret.ics")));
    let by_name = format!("http://localhost:{}/secret.ics", inside.addr.port());
    outside.page("/to-name", Page::Redirect(by_name));
    outside.page("/to-file", Page::Redirect("file:///etc/passwd".into()));
    let fetcher = Fetcher::new(&CalendarsConfig::default())
        .and_then(|fetcher| fetcher.treating_as_public(vec![outside.addr.ip()]))
        .unwrap_or_else(|e| panic!("{e}"));
    let direct = fetcher.url(&outside.url("/direct.ics"), true, None).await;
    assert!(
        matches!(direct, Ok(Fetched::Body { .. })),
        "the guard lets a public host through: {direct:?}"
    );
    for path in ["/to-ip", "/to-name"] {
        let refused = fetcher.url(&outside.url(path), true, None).await;
        assert_eq!(
            refused,
            Err(FetchError::Refused(Refused::PrivateAddress)),
            "{path}"
        );
    }
    let refused = fetcher.url(&outside.url("/to-file"), true, None).await;
    assert!(refused.is_err(), "{refused:?}");
    assert!(
        inside.seen().is_empty(),
        "the private server was never reached: {:?}",
        inside.seen()
    );
    // The operator's sources follow any redirect.
    let followed = fetcher.url(&outside.url("/to-ip"), false, None).await;
    assert!(matches!(followed, Ok(Fetched::Body { .. })), "{followed:?}");
}
