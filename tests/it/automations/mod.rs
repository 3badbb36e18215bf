//! Automations (recurring reminders): reading the command (a table of sentences, including
//! ones that must not be automations), the schedule math (first run, next, a DST change in
//! Europe/Paris, the 31st in short months), and the runner on a controlled clock through a
//! running app: one task per occurrence across ticks and restarts, only the latest missed one
//! after downtime, the HTTP list and delete, and undo of the confirmation.
//!
//! `reading`: the command read into a title, a schedule and a first run, and what is not one;
//! `schedule`: the schedule math; `runner`: occurrences on a running app across ticks,
//! restarts and downtime; `listing`: HTTP and console lists; `proposal`: the proposal and its undo.

mod listing;
mod proposal;
mod reading;
mod runner;
mod schedule;

use crate::common::{self, reading::read_automation as read};

use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, TimeZone, Utc};
use chrono_tz::Europe::Paris;
use common::{monday_10am, start_bot, Bot};
use donna::actions::automation::proposal_action;
use donna::actions::{ActionEnv, ActionRegistry};
use donna::automations::{AutomationDraft, AutomationReading, Schedule};
use donna::events::{Next, Payload, TaskChange};
use serde_json::Value;

const PARIS: &str = "timezone: Europe/Paris\nnudges:\n  interval: 1h\n  min_gap: 4h\n  quiet_hours: \"22:00-08:00\"\n";

fn ok<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|e| panic!("{e}"))
}

fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, mo, d, h, mi, 0)
        .single()
        .unwrap_or_else(|| panic!("bad test time"))
}

fn draft(text: &str) -> AutomationDraft {
    match read(text, monday_10am(), Paris) {
        AutomationReading::Draft(draft) => draft,
        other => panic!("{text:?}: expected a draft, got {other:?}"),
    }
}

fn local(at: DateTime<Utc>) -> String {
    at.with_timezone(&Paris)
        .format("%a %-d %b %H:%M")
        .to_string()
}

/// No automation is listed any more, and the next Monday 09:00 (Paris) makes no task of `id`.
async fn assert_none_left(bot: &Bot, id: &str) {
    assert_eq!(
        bot.get("/api/automations").await,
        (200, Value::Array(vec![]))
    );
    bot.clock.set(utc(2026, 11, 30, 8, 30));
    assert!(bot.automation_tick().await.is_empty());
    assert!(instances(bot, id).await.is_empty());
}

/// Stores `text`'s automation as the confirmed plan's handler does; returns its id.
async fn confirmed(bot: &Bot, text: &str) -> String {
    let action = proposal_action(&draft(text), None);
    let now = bot.clock_now();
    let created = ok(bot
        .app
        .store
        .write(move |conn| {
            donna::actions::automation::create(conn, now, &action)
                .map_err(|e| donna::store::StoreError::Corrupt(e.to_string()))
        })
        .await);
    created.automation_id
}

trait ClockNow {
    fn clock_now(&self) -> DateTime<Utc>;
}

impl ClockNow for Bot {
    fn clock_now(&self) -> DateTime<Utc> {
        use donna::clock::Clock;
        self.clock.now()
    }
}

/// The tasks of automation `id`, as the API shows them.
async fn instances(bot: &Bot, id: &str) -> Vec<Value> {
    let (status, tasks) = bot.get("/api/tasks").await;
    assert_eq!(status, 200, "{tasks}");
    tasks
        .as_array()
        .into_iter()
        .flatten()
        .filter(|task| task["automation_id"] == id)
        .cloned()
        .collect()
}

async fn restart(bot: Bot) -> Bot {
    bot.stop().await;
    bot.restart(PARIS).await
}
