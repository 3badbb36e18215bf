//! A person's time zone, through the running app over HTTP: the sentences that set it (and
//! the many that must not), Donna's answer with the time there, times a person writes read in
//! their zone and times shown to them in it, a task's `created_by` and its nudge in its
//! creator's zone, an automation that keeps its zone and its wall-clock time across a real
//! DST change, and `GET/PUT /api/people/{user_id}`.

use crate::common;
use crate::common::{Fields, Needed};

use chrono::{DateTime, TimeZone, Utc};
use common::{start_bot, Bot};
use serde_json::{json, Value};

pub(crate) async fn zone_of(bot: &Bot, user: &str) -> String {
    let (status, person) = bot.get(&format!("/api/people/{user}")).await;
    assert_eq!(status, 200, "{person}");
    person["timezone"].text().to_string()
}

/// Sentences that set the zone, each said by a person of its own. Monday 23 Nov 2026 10:00 UTC.
#[actix_rt::test]
async fn sentences_that_set_a_time_zone_set_it_and_say_the_time_there() {
    let bot = start_bot("").await;
    let thread = bot.free_thread().await;
    let table: &[(&str, &str, &str)] = &[
        // (what the person writes, the zone, the time there now)
        ("my time zone is Europe/Berlin", "Europe/Berlin", "11:00"),
        (
            "My timezone is now America/New_York",
            "America/New_York",
            "05:00",
        ),
        ("set my timezone to New York", "America/New_York", "05:00"),
        ("Set my time zone to Tokyo please", "Asia/Tokyo", "19:00"),
        ("timezone CET", "Europe/Berlin", "11:00"),
        ("timezone: UTC+2", "Etc/GMT-2", "12:00"),
        (
            "change the time zone to Sydney",
            "Australia/Sydney",
            "21:00",
        ),
        (
            "please update my tz to Europe/Lisbon",
            "Europe/Lisbon",
            "10:00",
        ),
        ("switch my timezone to PST", "America/Los_Angeles", "02:00"),
        ("set Europe/Paris as my time zone", "Europe/Paris", "11:00"),
        ("I'm in Tokyo now", "Asia/Tokyo", "19:00"),
        ("i am in london", "Europe/London", "10:00"),
        ("I moved to London", "Europe/London", "10:00"),
        (
            "I've moved to Buenos Aires",
            "America/Argentina/Buenos_Aires",
            "07:00",
        ),
        (
            "we just moved to san francisco",
            "America/Los_Angeles",
            "02:00",
        ),
        ("I live in Chicago now", "America/Chicago", "04:00"),
        ("I'm based in Munich", "Europe/Berlin", "11:00"),
        ("I'm on Pacific time", "America/Los_Angeles", "02:00"),
        ("use Berlin time", "Europe/Berlin", "11:00"),
        (
            "I'm in London now, please update my timezone",
            "Europe/London",
            "10:00",
        ),
        (
            "I am now in the Europe/Berlin time zone",
            "Europe/Berlin",
            "11:00",
        ),
        ("I relocated to Denver", "America/Denver", "03:00"),
        ("I'm located in Madrid", "Europe/Madrid", "11:00"),
        ("switch to Tokyo time", "Asia/Tokyo", "19:00"),
        ("I'm on Eastern time now", "America/New_York", "05:00"),
        ("timezone = Europe/Paris", "Europe/Paris", "11:00"),
        ("Donna, my tz is GMT-5", "Etc/GMT+5", "05:00"),
    ];
    for (i, (text, zone, clock)) in table.iter().enumerate() {
        let user = format!("setter{i}");
        let result = bot.say_as(&thread, &user, text).await;
        assert_eq!(result["path"], "chat", "{text}: {result}");
        assert_eq!(
            result["reply"],
            format!("Your time zone is now {zone}; it's {clock} there."),
            "{text}"
        );
        assert_eq!(zone_of(&bot, &user).await, *zone, "{text}");
    }
}

/// Sentences that must not change anyone's zone: questions about places, events and captures,
/// other people, travel ahead or behind, negations, "in" that is no place.
#[actix_rt::test]
async fn sentences_that_only_look_like_a_time_zone_change_nothing() {
    let bot = start_bot("").await;
    let thread = bot.free_thread().await;
    let table = [
        "what time is it in Tokyo?",
        "is it raining in London?",
        "meeting in new york tomorrow",
        "remind me to call the Tokyo office at 9am",
        "add book a hotel in London",
        "my sister moved to London",
        "she's in Tokyo now",
        "my boss is in New York this week",
        "I'm flying to Tokyo tomorrow",
        "I'll be in Berlin next week",
        "I was in Paris last week",
        "I'm moving to Lisbon in May",
        "I'm in London until friday",
        "I'm not in London anymore",
        "don't change my timezone",
        "my timezone isn't Berlin",
        "I'm in a meeting",
        "I'm in the car now",
        "im in trouble",
        "use the car this time",
        "my time zone is wrong",
        "my time is limited",
        "set the time to 5pm",
        "I'm in PT now",
        "i'm in CT for my knee",
        "I moved the meeting to Tokyo",
        "remind me when I'm in London",
        "what's the timezone in Tokyo?",
        "I'm staying in Rome this week",
        "are you in London?",
        "I'm in central park",
    ];
    for (i, text) in table.iter().enumerate() {
        let user = format!("bystander{i}");
        let result = bot.say_as(&thread, &user, text).await;
        let reply = result["reply"].text();
        assert!(
            !reply.starts_with("Your time zone is now"),
            "{text}: {result}"
        );
        assert_eq!(zone_of(&bot, &user).await, "UTC", "{text}: {result}");
    }
}

#[actix_rt::test]
async fn an_unknown_zone_is_answered_with_the_nearest_names_and_asking_says_the_zone() {
    let bot = start_bot("").await;
    let thread = bot.free_thread().await;
    let result = bot
        .say_as(&thread, "owner", "set my timezone to Tokio")
        .await;
    assert_eq!(result["path"], "clarify", "{result}");
    let reply = result["reply"].text();
    assert!(
        reply.starts_with("I don't know the time zone \"Tokio\". Did you mean Asia/Tokyo, "),
        "{reply}"
    );
    assert_eq!(zone_of(&bot, "owner").await, "UTC");
    let result = bot.say_as(&thread, "owner", "set my time zone").await;
    assert_eq!(result["path"], "clarify", "{result}");
    let result = bot.say_as(&thread, "owner", "what's my time zone?").await;
    assert_eq!(result["path"], "answer", "{result}");
    assert!(
        result["reply"]
            .as_str()
            .is_some_and(|r| r.starts_with("Your time zone is UTC (my default")),
        "{result}"
    );
    bot.say_as(&thread, "owner", "my time zone is Asia/Kolkata")
        .await;
    let result = bot
        .say_as(&thread, "owner", "which timezone am I in?")
        .await;
    assert_eq!(
        result["reply"], "Your time zone is Asia/Kolkata; it's 15:30 there.",
        "{result}"
    );
}

fn at(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).single().needed()
}

fn time_of(task: &Value, field: &str) -> DateTime<Utc> {
    task[field]
        .as_str()
        .and_then(|text| DateTime::parse_from_rfc3339(text).ok())
        .map(|at| at.with_timezone(&Utc))
        .unwrap_or_else(|| panic!("{field} of {task}"))
}

#[actix_rt::test]
async fn times_a_person_writes_are_read_in_their_zone_and_said_back_in_it() {
    let bot = start_bot("").await;
    let thread = bot.free_thread().await;
    bot.say_as(&thread, "nyc", "my time zone is America/New_York")
        .await;
    // 05:00 in New York: "tomorrow at 9am" is 9am there, 14:00 UTC.
    let result = bot
        .say_as(&thread, "nyc", "remind me to call mom tomorrow at 9am")
        .await;
    assert_eq!(result["path"], "task_created", "{result}");
    assert!(
        result["reply"]
            .as_str()
            .is_some_and(|r| r.contains("tomorrow at 09:00")),
        "{result}"
    );
    let id = result["results"][0]["task_id"].text();
    let task = bot.task_json(id).await;
    assert_eq!(time_of(&task, "scheduled_start"), at(2026, 11, 24, 14, 0));
    assert_eq!(task["created_by"], "nyc", "{task}");
    // Someone who set no zone: the config's (UTC).
    let result = bot
        .say_as(
            &thread,
            "other",
            "remind me to water plants tomorrow at 9am",
        )
        .await;
    let id = result["results"][0]["task_id"].text();
    let task = bot.task_json(id).await;
    assert_eq!(time_of(&task, "scheduled_start"), at(2026, 11, 24, 9, 0));
    // The common questions show the asker's days and clocks.
    let answer = bot.say_as(&thread, "nyc", "what's due tomorrow?").await;
    let reply = answer["reply"].text();
    assert!(reply.contains("Call mom"), "{reply}");
    assert!(reply.contains("09:00"), "{reply}");
    assert!(!reply.contains("14:00"), "{reply}");
}

#[actix_rt::test]
async fn a_tasks_nudge_says_its_time_in_the_zone_of_the_person_who_captured_it() {
    let bot = start_bot("").await;
    let thread = bot.free_thread().await;
    bot.say_as(&thread, "tokyo", "I'm in Tokyo now").await;
    // 19:00 in Tokyo; "at 8pm" is 11:00 UTC.
    let result = bot
        .say_as(&thread, "tokyo", "remind me to stretch at 8pm")
        .await;
    assert_eq!(result["path"], "task_created", "{result}");
    bot.clock.set(at(2026, 11, 23, 11, 1));
    let opened = bot.tick_nudger().await;
    let texts: Vec<&str> = opened.iter().map(|nudge| nudge.text.as_str()).collect();
    assert_eq!(
        texts,
        ["Time for 'Stretch' (today at 20:00). How is it going: done, later, or busy?"]
    );
}

#[actix_rt::test]
async fn an_automation_keeps_its_zone_and_its_wall_clock_time_across_a_dst_change() {
    let bot = start_bot("").await;
    // Friday 27 March 2026, 10:00 UTC; Berlin moves to summer time on Sunday 29 March.
    bot.clock.set(at(2026, 3, 27, 10, 0));
    let thread = bot.free_thread().await;
    bot.say_as(&thread, "berlin", "my time zone is Europe/Berlin")
        .await;
    let proposed = bot
        .say_as(&thread, "berlin", "every day at 9am remind me to stretch")
        .await;
    assert_eq!(proposed["path"], "automation_proposed", "{proposed}");
    let confirmed = bot.say_as(&thread, "berlin", "yes").await;
    assert_eq!(confirmed["path"], "plan_confirmed", "{confirmed}");
    let (status, automations) = bot.get("/api/automations").await;
    assert_eq!(status, 200);
    assert_eq!(automations[0]["timezone"], "Europe/Berlin", "{automations}");
    // Someone else's zone changing later does not move it.
    bot.say_as(&thread, "berlin", "I moved to Tokyo").await;
    let mut starts = Vec::new();
    for day in 28..=31 {
        bot.clock.set(at(2026, 3, day, 12, 0));
        let created = bot.automation_tick().await;
        assert_eq!(created.len(), 1, "{day} March");
        assert_eq!(created[0].created_by.as_deref(), Some("berlin"));
        starts.extend(created[0].scheduled_start);
    }
    // 09:00 in Berlin each day: 08:00 UTC in winter time, 07:00 UTC from 29 March.
    assert_eq!(
        starts,
        [
            at(2026, 3, 28, 8, 0),
            at(2026, 3, 29, 7, 0),
            at(2026, 3, 30, 7, 0),
            at(2026, 3, 31, 7, 0),
        ]
    );
}

#[actix_rt::test]
async fn people_are_read_and_set_over_http_and_an_unknown_zone_is_refused_with_suggestions() {
    let bot = start_bot("timezone: Europe/Paris\n").await;
    let (status, person) = bot.get("/api/people/owner").await;
    assert_eq!(status, 200);
    assert_eq!(
        person,
        json!({"user_id": "owner", "timezone": "Europe/Paris", "quiet_hours": "22:00-08:00", "working_hours": "09:00-18:00", "calendars": []})
    );
    let (status, person) = bot
        .put_person("owner", json!({"timezone": "America/New_York"}))
        .await;
    assert_eq!(status, 200, "{person}");
    assert_eq!(
        person,
        json!({"user_id": "owner", "timezone": "America/New_York", "quiet_hours": "22:00-08:00", "working_hours": "09:00-18:00", "calendars": []})
    );
    assert_eq!(zone_of(&bot, "owner").await, "America/New_York");
    let (status, person) = bot
        .put_person("owner", json!({"timezone": "asia/tokyo"}))
        .await;
    assert_eq!((status, &person["timezone"]), (200, &json!("Asia/Tokyo")));
    let (status, error) = bot
        .put_person("owner", json!({"timezone": "Europe/Berln"}))
        .await;
    assert_eq!(status, 400, "{error}");
    let message = error["error"].text();
    assert!(message.contains("Did you mean Europe/Berlin"), "{message}");
    let (status, _) = bot.put_person("owner", json!({"timezone": 5})).await;
    assert_eq!(status, 400);
    assert_eq!(zone_of(&bot, "owner").await, "Asia/Tokyo");
    // The OpenAPI document has both operations.
    let (_, document) = bot.get("/api/openapi.json").await;
    let path = &document["paths"]["/api/people/{user_id}"];
    assert!(path["get"].is_object() && path["put"].is_object(), "{path}");
}
