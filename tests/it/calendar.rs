//! The calendar feed, `GET /api/calendar.ics?token=T`, read back by a third-party RFC 5545
//! parser (the `icalendar` crate): a task at its start, a deadline as "Due: ...", an
//! automation with its RRULE, TZID and VTIMEZONE, a hostile title and description escaped and
//! folded, closed and timeless tasks left out; the token: unset -> 404, missing or wrong ->
//! 401, the bearer token not needed; a stored id or rule with a line break adds no event; and
//! through the real binary, the token never in the log, however a mistyped URL spells it.

use crate::common;
use crate::common::{Fields, Needed};

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Stdio;
use std::time::Duration;

use common::process::{self, free_port, terminate, write_config};
use common::{start_bot_with, Bot, TestEnv};
use icalendar::parser::{read_calendar, unfold, Component};
use serde_json::{json, Value};

const TOKEN: &str = "cal-secret-7f3a";

async fn feed(bot: &Bot, query: &str) -> (u16, String, String) {
    let response = bot
        .client
        .get(format!("{}/api/calendar.ics{query}", bot.base))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get("content-type")
        .and_then(|value| value.to_str().ok())
        .needed()
        .to_string();
    (status, kind, response.text().await.needed())
}

fn prop(component: &Component<'_>, name: &str) -> String {
    component
        .find_prop(name)
        .map(|prop| prop.val.clone().unescape_text().as_str().to_string())
        .needed()
}

fn events<'a>(calendar: &'a [Component<'a>]) -> Vec<&'a Component<'a>> {
    calendar.iter().filter(|c| c.name == "VEVENT").collect()
}

async fn say(bot: &Bot, thread: &str, text: &str) -> Value {
    let (status, result) = bot
        .post(
            "/api/messages",
            json!({"thread_id": thread, "user_id": "owner", "text": text}),
        )
        .await;
    assert_eq!(status, 200, "{result}");
    result
}

#[actix_rt::test]
async fn the_feed_holds_tasks_deadlines_and_automations_a_parser_reads_back() {
    let bot = start_bot_with("", TestEnv(vec![("DONNA_CALENDAR_TOKEN", TOKEN)])).await;
    let rent = bot
        .task(json!({"title": "Pay rent", "scheduled_start": "2026-11-24T09:00:00Z", "estimated_duration_minutes": 30}))
        .await;
    let taxes = bot
        .task(json!({"title": "File taxes", "deadline": "2026-11-30T17:00:00Z"}))
        .await;
    let hostile_title =
        "Évènement, très; long \\ titre qui dépasse largement soixante-quinze octets en UTF-8 ✓✓✓";
    let hostile_description = "line one\nEND:VEVENT\r\nBEGIN:VEVENT\nSUMMARY:injected, ; \\";
    let hostile = bot
        .task(json!({"title": hostile_title, "description": hostile_description, "scheduled_start": "2026-11-25T08:00:00Z"}))
        .await;
    let done = bot
        .task(json!({"title": "Old errand", "scheduled_start": "2026-11-20T08:00:00Z"}))
        .await;
    bot.patch(&format!("/api/tasks/{done}"), json!({"status": "done"}))
        .await;
    bot.task(json!({"title": "Someday learn Welsh"})).await;
    let thread = bot.free_thread().await;
    say(&bot, &thread, "my time zone is Europe/Berlin").await;
    let proposed = say(
        &bot,
        &thread,
        "every monday at 9 remind me to submit the timesheet",
    )
    .await;
    assert_eq!(proposed["path"], "automation_proposed", "{proposed}");
    assert_eq!(say(&bot, &thread, "yes").await["path"], "plan_confirmed");
    let (_, automations) = bot.get("/api/automations").await;
    let automation = automations[0]["id"].text().to_string();

    let (status, kind, text) = feed(&bot, &format!("?token={TOKEN}")).await;
    assert_eq!(status, 200, "{text}");
    assert!(kind.starts_with("text/calendar"), "{kind}");
    assert!(text.ends_with("\r\n"));
    for line in text.split("\r\n") {
        assert!(line.len() <= 75, "{} octets: {line:?}", line.len());
        assert!(!line.contains('\n') && !line.contains('\r'), "{line:?}");
    }
    let unfolded = unfold(&text);
    let calendar = read_calendar(&unfolded).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(
        calendar
            .properties
            .iter()
            .find(|p| p.name == "VERSION")
            .map(|p| p.val.as_str().to_string()),
        Some("2.0".into())
    );
    let all = events(&calendar.components);
    assert_eq!(
        all.len(),
        4,
        "rent, taxes, the hostile one, the automation:\n{text}"
    );
    let by_uid = |uid: &str| {
        all.iter()
            .find(|event| prop(event, "UID") == uid)
            .copied()
            .unwrap_or_else(|| panic!("no {uid} in\n{text}"))
    };
    let event = by_uid(&format!("{rent}@donna"));
    assert_eq!(prop(event, "SUMMARY"), "Pay rent");
    assert_eq!(prop(event, "DTSTART"), "20261124T090000Z");
    assert_eq!(prop(event, "DURATION"), "PT30M");
    let event = by_uid(&format!("{taxes}@donna"));
    assert_eq!(prop(event, "SUMMARY"), "Due: File taxes");
    assert_eq!(prop(event, "DTSTART"), "20261130T170000Z");
    let event = by_uid(&format!("{hostile}@donna"));
    assert_eq!(prop(event, "SUMMARY"), hostile_title);
    assert_eq!(
        prop(event, "DESCRIPTION"),
        hostile_description.replace("\r\n", "\n")
    );
    let event = by_uid(&format!("{automation}@donna"));
    assert_eq!(prop(event, "SUMMARY"), "Submit the timesheet");
    assert_eq!(
        prop(event, "RRULE"),
        "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0"
    );
    let start = event
        .find_prop("DTSTART")
        .unwrap_or_else(|| panic!("no DTSTART"));
    assert_eq!(start.val.as_str(), "20261130T090000");
    let tzid = start
        .params
        .iter()
        .find(|p| p.key == "TZID")
        .and_then(|p| p.val.as_ref())
        .map(|v| v.as_str().to_string());
    assert_eq!(tzid.as_deref(), Some("Europe/Berlin"));
    let zones: Vec<&Component<'_>> = calendar
        .components
        .iter()
        .filter(|c| c.name == "VTIMEZONE")
        .collect();
    assert_eq!(zones.len(), 1, "{text}");
    assert_eq!(prop(zones[0], "TZID"), "Europe/Berlin");
    let daylight = zones[0]
        .components
        .iter()
        .find(|c| c.name == "DAYLIGHT" && prop(c, "DTSTART") == "20270328T020000")
        .unwrap_or_else(|| panic!("no 2027 summer time in\n{text}"));
    assert_eq!(prop(daylight, "TZOFFSETFROM"), "+0100");
    assert_eq!(prop(daylight, "TZOFFSETTO"), "+0200");
    // The typed reader of the same crate takes the whole feed too.
    let typed: icalendar::Calendar = text.parse().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        typed
            .components
            .iter()
            .filter(|c| matches!(c, icalendar::CalendarComponent::Event(_)))
            .count(),
        4
    );
}

#[actix_rt::test]
async fn the_feed_needs_its_own_token_in_the_query_and_is_off_without_one() {
    let off = start_bot_with("", TestEnv(Vec::new())).await;
    assert_eq!(feed(&off, &format!("?token={TOKEN}")).await.0, 404);
    let bot = start_bot_with(
        "",
        TestEnv(vec![
            ("DONNA_CALENDAR_TOKEN", TOKEN),
            ("DONNA_API_TOKEN", "api-bearer"),
        ]),
    )
    .await;
    assert_eq!(feed(&bot, "").await.0, 401);
    assert_eq!(feed(&bot, "?token=wrong").await.0, 401);
    assert_eq!(feed(&bot, "?token=").await.0, 401);
    // No bearer header needed (a calendar app cannot send one), while the API still needs it.
    assert_eq!(feed(&bot, &format!("?token={TOKEN}")).await.0, 200);
    assert_eq!(bot.get("/api/tasks").await.0, 401);
    // The API's bearer token is not the calendar's.
    assert_eq!(feed(&bot, "?token=api-bearer").await.0, 401);
}

fn raw_get(port: u16, path: &str) -> u16 {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap_or_else(|e| panic!("{e}"));
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let _ = write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    );
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response
        .split(' ')
        .nth(1)
        .and_then(|status| status.parse().ok())
        .unwrap_or(0)
}

#[test]
fn the_token_never_appears_in_the_log() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let port = free_port();
    let config = write_config(dir.path(), port);
    let mut with_token = process::donna();
    with_token
        .env("DONNA_CALENDAR_TOKEN", TOKEN)
        .env("RUST_LOG", "debug");
    let mut running = process::spawn_run(with_token, &config, port, &[], Stdio::piped());
    process::wait_healthy(&mut running);
    assert_eq!(raw_get(port, "/api/calendar.ics?token=wrong-guess-91"), 401);
    assert_eq!(
        raw_get(port, &format!("/api/calendar.ics?token={TOKEN}")),
        200
    );
    assert_eq!(terminate(&mut running.child), Some(0));
    let stderr = running.stderr();
    assert!(
        stderr.contains("/api/calendar.ics") && stderr.contains("status=401"),
        "the refusal is logged: {stderr}"
    );
    assert!(!stderr.contains(TOKEN), "{stderr}");
    assert!(!stderr.contains("wrong-guess-91"), "{stderr}");
}

#[actix_rt::test]
async fn a_stored_id_or_rule_with_a_line_break_adds_no_event_to_the_feed() {
    let bot = start_bot_with("", TestEnv(vec![("DONNA_CALENDAR_TOKEN", TOKEN)])).await;
    let rent = bot
        .task(json!({"title": "Pay rent", "scheduled_start": "2026-11-24T09:00:00Z"}))
        .await;
    // Written past every door, as an import before its checks stored them: an id and a rule
    // that would each end their event and start one of their own if written raw.
    let injected_id = "tsk_x\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:fake-1\r\nSUMMARY:Injected\r\nDTSTART:20261124T090000Z";
    let injected_rule = "FREQ=DAILY;BYHOUR=9\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:fake-2\r\nSUMMARY:Injected too\r\nDTSTART:20261125T090000Z";
    let rent_id = rent.clone();
    let reminder = |id: &str, rrule: &str| {
        crate::poison::automation(id, donna::automations::AutomationKind::Reminder, rrule)
    };
    let written = bot
        .app
        .store
        .write(move |conn| {
            let Some(mut task) = donna::tasks::repo::get(conn, &rent_id)? else {
                panic!("no task {rent_id}");
            };
            task.id = injected_id.to_string();
            task.title = "Call mom".into();
            donna::tasks::repo::put(conn, &task)?;
            donna::automations::repo::put(conn, &reminder("aut_water", injected_rule))
        })
        .await;
    assert!(written.is_ok(), "{written:?}");

    let (status, _, text) = feed(&bot, &format!("?token={TOKEN}")).await;
    assert_eq!(status, 200, "{text}");
    let unfolded = unfold(&text);
    let calendar = read_calendar(&unfolded).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let all = events(&calendar.components);
    let mut summaries: Vec<String> = all.iter().map(|event| prop(event, "SUMMARY")).collect();
    summaries.sort();
    assert_eq!(
        summaries,
        vec!["Call mom", "Pay rent", "Water the plants"],
        "no injected event:\n{text}"
    );
    let uids: Vec<String> = all.iter().map(|event| prop(event, "UID")).collect();
    assert!(!uids.iter().any(|uid| uid.starts_with("fake")), "{uids:?}");
    let escaped_id = format!("{}@donna", injected_id.replace("\r\n", "\n"));
    assert!(uids.contains(&escaped_id), "{uids:?}");
    for line in text.split("\r\n") {
        assert!(!line.starts_with("UID:fake"), "{line:?}");
    }
}

#[test]
fn no_spelling_of_a_token_in_a_path_reaches_the_log() {
    const API: &str = "api-bearer-55c1";
    const GUESS: &str = "guessed-91b2e7";
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let port = free_port();
    let config = write_config(dir.path(), port);
    let mut with_tokens = process::donna();
    with_tokens
        .env("DONNA_CALENDAR_TOKEN", TOKEN)
        .env("DONNA_API_TOKEN", API);
    let mut running = process::spawn_run(with_tokens, &config, port, &[], Stdio::piped());
    process::wait_healthy(&mut running);
    // Mistyped feed URLs and other paths a client may send, each spelling a secret another way.
    let paths = [
        format!("/api/calendar.ics&token={TOKEN}"),
        format!("/api/calendar.ics%3Ftoken={TOKEN}"),
        format!("/api/calendar.ics%3ftoken%3d{TOKEN}"),
        format!("/api/calendar.ics;token={TOKEN}"),
        format!("/api/calendar.ics&TOKEN={TOKEN}"),
        format!("/api/calendar.ics&Token%3D{TOKEN}"),
        format!("/api/calendar.ics%253Ftoken%253D{TOKEN}"),
        format!("/api/calendar.ics/token/{TOKEN}"),
        format!("/api/calendar.ics/{TOKEN}"),
        "/api/calendar.ics/%63al-secret-7f3a".to_string(),
        format!("/api/calendar.ics&access_token={GUESS}"),
        format!("/api/calendar.ics&TOKEN%3D{GUESS}&x=1"),
        format!("/api/tasks;api_key={GUESS}"),
        format!("/api/tasks/{API}"),
        format!("/web/session/{API}"),
        format!("/no/such/page&password={GUESS}"),
    ];
    for path in &paths {
        let status = raw_get(port, path);
        assert!((400..500).contains(&status), "{path}: {status}");
    }
    assert_eq!(terminate(&mut running.child), Some(0));
    let stderr = running.stderr();
    let logged = stderr
        .lines()
        .filter(|line| line.contains("http request refused"))
        .count();
    assert_eq!(logged, paths.len(), "every refusal is logged:\n{stderr}");
    for secret in [TOKEN, API, GUESS] {
        assert!(!stderr.contains(secret), "{secret} in the log:\n{stderr}");
    }
    assert!(stderr.contains("[redacted]"), "{stderr}");
}
