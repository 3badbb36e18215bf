//! Poison: values no door of Donna's stores, and what keeps them from breaking the bot.
//!
//! - `import_door`: `donna import` (the real binary) takes exactly what the HTTP API and the
//!   chat would store, with the same checks, and only a regular file of at most 256 MiB; a done
//!   task it writes keeps no open nudge thread.
//! - `stored_values`: a database that already holds such values (written before the checks)
//!   still nudges, lists and feeds; a row no read takes is skipped and reported; an old
//!   database is repaired when opened.
//! - `rules`: a rule that never occurs or is searched at a cost is searched off the store
//!   writer, so no turn waits behind it; rules more often than daily are refused at the door.

pub mod import_door;
pub mod rules;
pub mod stored_values;

use crate::common::Needed;
use chrono::{DateTime, TimeZone, Utc};
use donna::automations::repo::{Automation, AutomationKind};
use donna::automations::Schedule;
use serde_json::{json, Value};

pub fn utc(y: i32, mo: u32, d: u32, h: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, mo, d, h, 0, 0).single().needed()
}

/// An automation as stored, with `rrule` as it is (no door's check): "Water the plants",
/// first on Tuesday 24 November 2026 09:00 UTC, made the day before, by "owner".
pub fn automation(id: &str, kind: AutomationKind, rrule: &str) -> Automation {
    Automation {
        id: id.into(),
        kind,
        for_user_id: Some("owner".into()),
        title: "Water the plants".into(),
        schedule: Schedule {
            rrule: rrule.into(),
            dtstart: utc(2026, 11, 24, 9),
            timezone: chrono_tz::Tz::UTC,
            words: "every day at 09:00".into(),
        },
        origin_thread_id: None,
        domain: "personal".into(),
        priority: 2,
        last_occurrence_at: None,
        created_at: utc(2026, 11, 23, 9),
        created_by: Some("owner".into()),
        stopped_at: None,
        time_stated: false,
        repeat_from: donna::automations::RepeatFrom::Schedule,
    }
}

/// `donna_rows_skipped_total{runner}` on a /metrics page (-1 when it is not there).
pub fn skipped(metrics: &str, runner: &str) -> f64 {
    let label = format!("donna_rows_skipped_total{{runner=\"{runner}\"}}");
    metrics
        .lines()
        .find(|line| line.starts_with(&label))
        .and_then(|line| line.rsplit(' ').next())
        .and_then(|value| value.parse().ok())
        .unwrap_or(-1.0)
}

/// A valid export: one task, one automation, one person, one chat, to be spoiled field by
/// field.
pub fn valid_export() -> Value {
    json!({
        "version": 1,
        "exported_at": "2026-11-27T10:00:00Z",
        "tasks": [{
            "id": "tsk_one", "title": "Pay rent", "description": null, "domain": "personal",
            "priority": 2, "status": "scheduled", "estimated_duration_minutes": 30,
            "deadline": null, "scheduled_start": "2026-11-20T09:00:00Z", "completed_at": null,
            "snoozed_until": null, "reschedule_count": 0, "nudge_count": 0,
            "unanswered_nudges": 0, "last_nudged_at": null,
            "created_at": "2026-11-19T10:00:00Z", "updated_at": "2026-11-19T10:00:00Z",
            "origin_thread_id": "thr_0123456789abcdef", "created_by": "owner"
        }],
        "automations": [{
            "id": "aut_one", "kind": "reminder", "title": "Water the plants",
            "schedule_words": "every day at 09:00",
            "rrule": "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            "dtstart": "2026-11-20T08:00:00Z", "timezone": "Europe/Berlin",
            "origin_thread_id": "thr_0123456789abcdef", "domain": "personal", "priority": 2,
            "last_occurrence_at": null, "created_at": "2026-11-19T10:00:00Z",
            "created_by": "owner"
        }],
        "preferences": [],
        "people": [{"user_id": "owner", "timezone": "Europe/Berlin", "updated_at": "2026-11-27T10:00:00Z"}],
        "threads": [{
            "id": "thr_0123456789abcdef", "channel": "local", "chat_id": "thr_0123456789abcdef",
            "is_group": false, "open": true, "created_at": "2026-11-19T10:00:00Z"
        }]
    })
}
