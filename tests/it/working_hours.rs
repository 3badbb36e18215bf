//! A person's own working hours: `PUT /api/people/{user_id}` `{"working_hours": "10:00-16:00"}`
//! sets them, GET shows them (the config's `scheduling.working_hours` for a person who set
//! none), null gives the default back, and hours that do not read are refused with nothing
//! changed. The free slots Donna finds for a person lie inside their own working hours and
//! outside their own quiet hours, in their own zone (the calendar book over a real .ics file).

use crate::common::Needed;
use chrono::{DateTime, Duration, TimeZone, Timelike, Utc};
use donna::people::{self, OwnDay};
use serde_json::{json, Value};

use crate::calendars::{calendars_config, ics, refresh};
use crate::common::{start_bot, start_bot_in, Bot, TestEnv};

async fn working_hours_of(bot: &Bot, user: &str) -> Value {
    let (status, person) = bot.get(&format!("/api/people/{user}")).await;
    assert_eq!(status, 200, "{person}");
    person["working_hours"].clone()
}

#[actix_rt::test]
async fn a_person_sets_their_own_working_hours_and_null_gives_back_the_config_s() {
    let bot = start_bot("scheduling:\n  working_hours: \"08:30-17:00\"\n").await;
    assert_eq!(working_hours_of(&bot, "owner").await, "08:30-17:00");
    let (status, owner) = bot
        .put_person("owner", json!({"working_hours": "10:00-16:00"}))
        .await;
    assert_eq!(status, 200, "{owner}");
    assert_eq!(owner["working_hours"], "10:00-16:00");
    assert_eq!(owner["quiet_hours"], "22:00-08:00", "the rest stays");
    assert_eq!(working_hours_of(&bot, "owner").await, "10:00-16:00");
    assert_eq!(working_hours_of(&bot, "other").await, "08:30-17:00");
    // Night shifts wrap midnight.
    let (status, _) = bot
        .put_person("nurse", json!({"working_hours": "22:00-06:00"}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(working_hours_of(&bot, "nurse").await, "22:00-06:00");
    // Refused, changing nothing: (body, words of the error)
    let table = [
        (json!({"working_hours": "9-5"}), "working_hours"),
        (json!({"working_hours": "09:00-09:00"}), "empty"),
        (json!({"working_hours": "25:00-18:00"}), "HH:MM"),
        (json!({"working_hours": 9}), ""),
        (
            json!({"working_hours": "11:00-15:00", "timezone": "Mars/Olympus"}),
            "timezone",
        ),
    ];
    for (body, words) in table {
        let (status, error) = bot.put_person("owner", body.clone()).await;
        assert_eq!(status, 400, "{body}: {error}");
        assert!(error.to_string().contains(words), "{body}: {error}");
    }
    assert_eq!(working_hours_of(&bot, "owner").await, "10:00-16:00");
    let (status, owner) = bot
        .put_person("owner", json!({"working_hours": null}))
        .await;
    assert_eq!(
        (status, &owner["working_hours"]),
        (200, &json!("08:30-17:00"))
    );
    bot.stop().await;
}

const BUSY_TUESDAY: &str = r#"
BEGIN:VEVENT
UID:review@owner
SUMMARY:Quarterly review
DTSTART:20261124T130000Z
DTEND:20261124T150000Z
END:VEVENT
"#;

fn utc(day: u32, hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, day, hour, 0, 0)
        .single()
        .needed()
}

#[actix_rt::test]
async fn free_slots_lie_inside_the_person_s_own_working_hours_and_outside_their_quiet_hours() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("owner.ics");
    std::fs::write(&file, ics(BUSY_TUESDAY)).unwrap_or_else(|e| panic!("{e}"));
    let config = calendars_config(&[("Mine", &file.display().to_string(), "owner")], "");
    let bot = start_bot_in(dir, &config, TestEnv(Vec::new())).await;
    assert!(refresh(&bot).await.iter().all(|state| state.ok));
    // Berlin (UTC+1 in November): work 07:00-20:00 local, quiet from 19:00 local.
    let body = json!({"timezone": "Europe/Berlin", "working_hours": "07:00-20:00", "quiet_hours": "19:00-06:00"});
    assert_eq!(bot.put_person("owner", body).await.0, 200);
    let defaults = OwnDay {
        zone: chrono_tz::UTC,
        quiet_hours: bot.app.config.nudges.quiet_hours,
    };
    let working = bot.app.config.scheduling.working_hours;
    let day = bot
        .app
        .store
        .read(move |conn| people::work_day_of(conn, "owner", defaults, working))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let window = (utc(24, 0), utc(25, 0));
    let slots = bot
        .app
        .calendars
        .book
        .free_slots_of("owner", window, Duration::minutes(30), &day);
    // 06:00-18:00 UTC is 07:00-19:00 in Berlin; the review cuts 13:00-15:00 UTC out.
    let spans: Vec<(u32, u32)> = slots
        .iter()
        .map(|slot| (slot.start.hour(), slot.end.hour()))
        .collect();
    assert_eq!(spans, [(6, 13), (15, 18)], "{slots:?}");
    bot.stop().await;
}
