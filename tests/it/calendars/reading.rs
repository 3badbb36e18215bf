//! Reading calendars: a local .ics file with recurring events, their exceptions (EXDATE) and
//! overrides (RECURRENCE-ID, one moved and one cancelled), an all-day event, times in two IANA
//! zones, a Windows zone name, a zone only the file's VTIMEZONE defines, one no table or file
//! knows (skipped and counted), and a weekly event across a DST change; each person sees only
//! their own calendars. Monday 23 November 2026, 10:00 UTC.

use crate::common::{Fields, Needed};
use serde_json::json;

use super::{bot_reading_files, events, refresh, state_of, titles_and_starts};
use crate::common::Bot;

const WORK: &str = r#"
BEGIN:VTIMEZONE
TZID:Customized Time Zone
BEGIN:STANDARD
DTSTART:16010101T030000
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:16010101T020000
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
END:DAYLIGHT
END:VTIMEZONE
BEGIN:VEVENT
UID:standup@work
SUMMARY:Stand-up
DTSTART;TZID=Europe/Berlin:20261102T090000
DTEND;TZID=Europe/Berlin:20261102T093000
RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20261231T230000Z
EXDATE;TZID=Europe/Berlin:20261125T090000
END:VEVENT
BEGIN:VEVENT
UID:standup@work
RECURRENCE-ID;TZID=Europe/Berlin:20261130T090000
SUMMARY:Stand-up (moved)
DTSTART;TZID=Europe/Berlin:20261130T110000
DTEND;TZID=Europe/Berlin:20261130T113000
END:VEVENT
BEGIN:VEVENT
UID:standup@work
RECURRENCE-ID;TZID=Europe/Berlin:20261202T090000
STATUS:CANCELLED
SUMMARY:Stand-up
DTSTART;TZID=Europe/Berlin:20261202T090000
END:VEVENT
BEGIN:VEVENT
UID:holiday@work
SUMMARY:Company holiday
DTSTART;VALUE=DATE:20261127
DTEND;VALUE=DATE:20261128
TRANSP:TRANSPARENT
END:VEVENT
BEGIN:VEVENT
UID:ny@work
SUMMARY:Call with New York
DTSTART;TZID=America/New_York:20261124T090000
DTEND;TZID=America/New_York:20261124T100000
END:VEVENT
BEGIN:VEVENT
UID:outlook@work
SUMMARY:Review (Outlook)
DTSTART;TZID="W. Europe Standard Time":20261126T140000
DTEND;TZID="W. Europe Standard Time":20261126T150000
END:VEVENT
BEGIN:VEVENT
UID:custom@work
SUMMARY:Planning (own zone)
DTSTART;TZID=Customized Time Zone:20261201T100000
DTEND;TZID=Customized Time Zone:20261201T110000
END:VEVENT
BEGIN:VEVENT
UID:utc@work
SUMMARY:Deploy
DTSTART:20261124T120000Z
DURATION:PT45M
END:VEVENT
BEGIN:VEVENT
UID:mars@work
SUMMARY:On Mars
DTSTART;TZID=Mars/Olympus:20261124T120000
END:VEVENT
BEGIN:VEVENT
UID:gym@work
SUMMARY:Gym
DTSTART;TZID=Europe/Berlin:20261102T190000
DTEND;TZID=Europe/Berlin:20261102T200000
RRULE:FREQ=WEEKLY;BYDAY=MO
END:VEVENT
"#;

const FAMILY: &str = r#"
BEGIN:VEVENT
UID:dinner@family
SUMMARY:Family dinner
DTSTART:20261124T180000Z
DTEND:20261124T200000Z
END:VEVENT
"#;

async fn bot_with_files() -> Bot {
    let bot = bot_reading_files(&[("Work", "ana", WORK), ("Family", "ben", FAMILY)], "").await;
    let (status, _) = bot
        .request(
            reqwest::Method::PUT,
            "/api/people/ana",
            Some(json!({"timezone": "Europe/Berlin"})),
        )
        .await;
    assert_eq!(status, 200);
    bot
}

#[actix_rt::test]
async fn recurrences_exceptions_overrides_all_day_events_and_zones_read_as_the_calendar_says() {
    let bot = bot_with_files().await;
    let statuses = refresh(&bot).await;
    let work = state_of(&statuses, "Work");
    assert!(work.ok, "{work:?}");
    assert_eq!(
        work.skipped, 1,
        "the event in an unknown zone is counted: {work:?}"
    );
    let (status, listed) = events(
        &bot,
        "ana",
        "2026-11-23T00:00:00+01:00",
        "2026-12-03T00:00:00+01:00",
    )
    .await;
    assert_eq!(status, 200, "{listed}");
    let expected = [
        ("Gym", "2026-11-23T19:00:00+01:00"),
        ("Call with New York", "2026-11-24T15:00:00+01:00"),
        ("Deploy", "2026-11-24T13:00:00+01:00"),
        // Wednesday the 25th is an EXDATE; Thursday's review is in a Windows zone.
        ("Review (Outlook)", "2026-11-26T14:00:00+01:00"),
        ("Company holiday", "2026-11-27T00:00:00+01:00"),
        ("Gym", "2026-11-30T19:00:00+01:00"),
        ("Stand-up (moved)", "2026-11-30T11:00:00+01:00"),
        ("Planning (own zone)", "2026-12-01T10:00:00+01:00"),
        // Wednesday the 2nd is cancelled by its override.
    ];
    let mut found = titles_and_starts(&listed);
    let mut sorted_expected: Vec<(String, String)> = expected
        .iter()
        .map(|(title, start)| (title.to_string(), start.to_string()))
        .collect();
    sorted_expected.push(("Stand-up".into(), "2026-11-23T09:00:00+01:00".into()));
    sorted_expected.sort_by(|a, b| a.1.cmp(&b.1));
    assert_eq!(found, sorted_expected, "{listed}");
    found.sort();
    assert!(!found
        .iter()
        .any(|(title, _)| title == "On Mars" || title == "Family dinner"));
    let holiday = listed
        .as_array()
        .and_then(|all| all.iter().find(|e| e["title"] == "Company holiday"))
        .cloned()
        .needed();
    assert_eq!(holiday["all_day"], true);
    assert_eq!(holiday["end"], "2026-11-28T00:00:00+01:00");
    assert_eq!(holiday["calendar"], "Work");
    assert_eq!(holiday["uid"], "holiday@work");
}

#[actix_rt::test]
async fn a_weekly_event_keeps_its_local_time_across_a_dst_change() {
    let bot = bot_with_files().await;
    refresh(&bot).await;
    let (status, listed) =
        events(&bot, "ana", "2027-03-20T00:00:00Z", "2027-04-02T00:00:00Z").await;
    assert_eq!(status, 200, "{listed}");
    let gym: Vec<String> = titles_and_starts(&listed)
        .into_iter()
        .filter(|(title, _)| title == "Gym")
        .map(|(_, start)| start)
        .collect();
    // 19:00 in Berlin before and after the clocks change on 28 March (18:00Z, then 17:00Z).
    assert_eq!(
        gym,
        ["2027-03-22T19:00:00+01:00", "2027-03-29T19:00:00+02:00"],
        "{listed}"
    );
}

#[actix_rt::test]
async fn a_person_sees_only_their_own_calendars_and_the_window_is_checked() {
    let bot = bot_with_files().await;
    refresh(&bot).await;
    let (_, ben) = events(&bot, "ben", "2026-11-23T00:00:00Z", "2026-12-03T00:00:00Z").await;
    assert_eq!(
        titles_and_starts(&ben),
        [(
            "Family dinner".to_string(),
            "2026-11-24T18:00:00+00:00".to_string()
        )]
    );
    let (_, nobody) = events(
        &bot,
        "carla",
        "2026-11-23T00:00:00Z",
        "2026-12-03T00:00:00Z",
    )
    .await;
    assert_eq!(nobody, json!([]));
    let refused = [
        (
            "2026-11-23T00:00:00Z",
            "2027-11-25T00:00:00Z",
            "at most 366 days",
        ),
        (
            "2026-11-23T00:00:00Z",
            "2026-11-23T00:00:00Z",
            "to must be after from",
        ),
        ("next week", "2026-11-30T00:00:00Z", "from"),
    ];
    for (from, to, reason) in refused {
        let (status, body) = events(&bot, "ana", from, to).await;
        assert_eq!(status, 400, "{from} {to}: {body}");
        assert!(body["error"].text().contains(reason), "{body}");
    }
    let (status, _) = bot
        .get("/api/calendar/events?from=2026-11-23T00:00:00Z&to=2026-11-24T00:00:00Z")
        .await;
    assert_eq!(status, 400, "user_id is required");
}

#[actix_rt::test]
async fn a_calendar_past_max_events_is_refused_whole_never_cut_short() {
    let every_day = "BEGIN:VEVENT\nUID:daily@x\nSUMMARY:Pills\nDTSTART:20261101T080000Z\nRRULE:FREQ=DAILY\nEND:VEVENT\n";
    let bot = bot_reading_files(&[("Daily", "ana", every_day)], "  max_events: 100\n").await;
    let statuses = refresh(&bot).await;
    let state = state_of(&statuses, "Daily");
    assert!(!state.ok && state.events == 0, "{state:?}");
    assert!(
        state
            .error
            .clone()
            .needed()
            .contains("more than 100 events"),
        "{state:?}"
    );
    let (_, listed) = events(&bot, "ana", "2026-11-23T00:00:00Z", "2026-11-30T00:00:00Z").await;
    assert_eq!(listed, json!([]));
}
