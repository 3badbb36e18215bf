//! The capacity bench's data: an export file (`transfer::Document`) of `tasks` tasks spread over
//! many people, the way a shared Donna holds them, written in files `donna import` takes.
//!
//! The mix per 100 tasks: 84 done, 1 cancelled, 15 open (1 due later today, 1 overdue, 4 with
//! a time in the next weeks, 9 with no time); 1 in 100 came from the HTTP API (no chat, no
//! person). One person per 50 tasks, each with a 1:1 chat the tasks were captured in; one
//! automation per 10 tasks (daily or weekly, in their creator's chat, already fired up to now).
//! Titles, descriptions and tags are of the lengths people write. Deterministic (a seeded
//! generator), times relative to `now`.
//! Invariant: every record passes the checks of the doors (`transfer::document::read`), or the
//! bench stops at the import.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Datelike, Duration, NaiveTime, TimeZone, Timelike, Utc};
use donna::automations::repo::AutomationKind;
use donna::automations::{Automation, RepeatFrom, Schedule};
use donna::conversation::Channel;
use donna::tasks::{Task, TaskSource, TaskStatus};
use donna::transfer::document::{AutomationRecord, PersonRecord, ThreadRecord};
use donna::transfer::Document;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Tasks per person.
pub const TASKS_PER_PERSON: usize = 50;
/// Tasks per automation.
pub const TASKS_PER_AUTOMATION: usize = 10;
/// Tasks per import file: an export of 100,000 tasks is ~60 MB, well under the 256 MiB an
/// import reads.
pub const TASKS_PER_FILE: usize = 100_000;

const VERBS: [&str; 16] = [
    "Call", "Pay", "Book", "Email", "Buy", "Renew", "Fix", "Send", "Clean", "Return", "Order",
    "Plan", "Review", "Cancel", "Pick up", "Water",
];
const THINGS: [&str; 24] = [
    "the dentist",
    "electricity bill",
    "car insurance",
    "mum",
    "the landlord",
    "passport",
    "bike tyre",
    "quarterly report",
    "birthday present for Sam",
    "library books",
    "groceries",
    "the plumber",
    "train tickets",
    "gym membership",
    "the plants",
    "tax return",
    "kids' school forms",
    "the garage",
    "holiday photos",
    "team offsite",
    "printer ink",
    "vet appointment",
    "the recycling",
    "contract draft",
];
const TAILS: [&str; 8] = [
    "",
    "",
    " before Friday",
    " for next week",
    " again",
    " and confirm the time",
    " (the blue one)",
    " with Alex",
];
const DESCRIPTIONS: [&str; 4] = [
    "Ask about the new rates and whether the old contract can still be kept.",
    "Check the folder on the desk first; the reference number is on the last letter.",
    "They close at 6pm on weekdays, so it has to be before then.",
    "Bring the receipt and the card it was paid with.",
];
/// The kind (of 100) of a task due later today.
const DUE_LATER_TODAY: u32 = 85;
const ZONES: [&str; 4] = ["UTC", "Europe/Paris", "America/New_York", "Asia/Tokyo"];

/// The people, their chats and the data files of one size.
pub struct Generated {
    pub files: Vec<PathBuf>,
    pub people: usize,
    pub automations: usize,
    /// (person, their chat) of people with a task due later today: who asks "what's due today?".
    pub due_today_askers: Vec<(String, String)>,
}

/// Person `index`'s zone: most in UTC, some elsewhere.
fn zone_of(index: usize) -> &'static str {
    ZONES[(index % 7).saturating_sub(3)]
}

pub fn person(index: usize) -> String {
    format!("person{index:06}")
}

pub fn chat(index: usize) -> String {
    format!("thr_cap{index:06}")
}

/// Writes the export files for `tasks` tasks into `dir`.
pub fn generate(dir: &Path, tasks: usize, now: DateTime<Utc>) -> Generated {
    let mut rng = StdRng::seed_from_u64(tasks as u64);
    let people = tasks.div_ceil(TASKS_PER_PERSON).max(1);
    let automations = tasks / TASKS_PER_AUTOMATION;
    let mut askers = Vec::new();
    let mut files = Vec::new();
    let mut written = 0;
    while written < tasks || files.is_empty() {
        let count = (tasks - written).min(TASKS_PER_FILE);
        let first = files.is_empty();
        let mut document = Document {
            version: donna::transfer::VERSION,
            exported_at: now,
            tasks: Vec::with_capacity(count),
            automations: Vec::new(),
            preferences: Vec::new(),
            people: Vec::new(),
            threads: Vec::new(),
        };
        if first {
            for index in 0..people {
                document.threads.push(ThreadRecord {
                    id: chat(index),
                    channel: Channel::Local,
                    chat_id: chat(index),
                    is_group: false,
                    open: true,
                    created_at: now - Duration::days(800),
                });
                document.people.push(PersonRecord {
                    user_id: person(index),
                    timezone: Some(zone_of(index).to_string()),
                    quiet_hours: None,
                    working_hours: None,
                    updated_at: now - Duration::days(700),
                });
            }
            for index in 0..automations {
                document
                    .automations
                    .push(automation(&mut rng, index, index % people, now));
            }
        }
        for offset in 0..count {
            let index = written + offset;
            let kind = rng.gen_range(0..100);
            let mut owner = rng.gen_range(0..people);
            // Days are read in the asker's zone: the people with a task due later today live in
            // UTC, as the bench's days do.
            while kind == DUE_LATER_TODAY && zone_of(owner) != "UTC" {
                owner = rng.gen_range(0..people);
            }
            let task = task(&mut rng, index, kind, owner, now);
            if is_due_later_today(&task, now) && task.origin_thread_id.is_some() {
                askers.push((person(owner), chat(owner)));
            }
            document.tasks.push(task);
        }
        let path = dir.join(format!("import-{}.json", files.len()));
        let file = std::fs::File::create(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        serde_json::to_writer(std::io::BufWriter::new(file), &document)
            .unwrap_or_else(|e| panic!("{path:?}: {e}"));
        files.push(path);
        written += count;
    }
    askers.sort();
    askers.dedup();
    Generated {
        files,
        people,
        automations,
        due_today_askers: askers,
    }
}

fn is_due_later_today(task: &Task, now: DateTime<Utc>) -> bool {
    task.status.is_open()
        && task
            .deadline
            .is_some_and(|at| at > now && at.date_naive() == now.date_naive())
}

fn title(rng: &mut StdRng) -> String {
    format!(
        "{} {}{}",
        VERBS[rng.gen_range(0..VERBS.len())],
        THINGS[rng.gen_range(0..THINGS.len())],
        TAILS[rng.gen_range(0..TAILS.len())]
    )
}

/// Task `index` of person `owner`, by the mix in the module's header (drawn at random).
fn task(rng: &mut StdRng, index: usize, kind: u32, owner: usize, now: DateTime<Utc>) -> Task {
    let created_at = now - Duration::minutes(rng.gen_range(60..2 * 365 * 24 * 60));
    let from_api = rng.gen_bool(0.01);
    let end_of_today = (now.date_naive() + Duration::days(1))
        .and_time(NaiveTime::MIN)
        .and_utc();
    let later_today = || {
        let left = (end_of_today - now).num_seconds().max(2);
        now + Duration::seconds(left / 2)
    };
    let days = |rng: &mut StdRng, range: std::ops::Range<i64>| {
        Duration::minutes(rng.gen_range(range.start * 1440..range.end * 1440))
    };
    let (status, deadline, scheduled_start) = match kind {
        0..=83 => {
            let at = created_at + days(rng, 1..30);
            (TaskStatus::Done, rng.gen_bool(0.5).then_some(at), None)
        }
        84 => (TaskStatus::Cancelled, None, None),
        DUE_LATER_TODAY => (TaskStatus::Backlog, Some(later_today()), None),
        86 => (TaskStatus::Backlog, Some(now - days(rng, 1..30)), None),
        87..=88 => (TaskStatus::Backlog, Some(now + days(rng, 2..60)), None),
        89..=90 => (TaskStatus::Scheduled, None, Some(now + days(rng, 2..60))),
        _ => (TaskStatus::Backlog, None, None),
    };
    let created_at = created_at.min(deadline.unwrap_or(created_at));
    let completed_at = (status == TaskStatus::Done)
        .then(|| (created_at + days(rng, 0..20)).min(now - Duration::minutes(1)));
    Task {
        id: format!("tsk_cap{index:09}"),
        title: title(rng),
        description: rng
            .gen_bool(0.3)
            .then(|| DESCRIPTIONS[rng.gen_range(0..DESCRIPTIONS.len())].to_string()),
        domain: ["personal", "work", "family"][index % 3].to_string(),
        priority: rng.gen_range(1..=4),
        status,
        estimated_duration_minutes: rng.gen_bool(0.2).then(|| rng.gen_range(10..120)),
        deadline,
        scheduled_start,
        completed_at,
        snoozed_until: None,
        reschedule_count: rng.gen_range(0..3),
        nudge_count: rng.gen_range(0..4),
        unanswered_nudges: 0,
        last_nudged_at: None,
        created_at,
        updated_at: completed_at.unwrap_or(created_at),
        source: if from_api {
            TaskSource::Api
        } else {
            TaskSource::Capture
        },
        tags: if rng.gen_bool(0.2) {
            vec!["errand".to_string()]
        } else {
            Vec::new()
        },
        applied_preferences: Vec::new(),
        origin_thread_id: (!from_api).then(|| chat(owner)),
        automation_id: None,
        occurrence_at: None,
        created_by: (!from_api).then(|| person(owner)),
    }
}

/// A daily or weekly reminder of `owner`, its last occurrence already fired (so nothing is
/// owed at start; later occurrences fire while the bench runs, as in a day).
fn automation(
    rng: &mut StdRng,
    index: usize,
    owner: usize,
    now: DateTime<Utc>,
) -> AutomationRecord {
    let hour = rng.gen_range(6..22);
    let weekly = index.is_multiple_of(3);
    let weekday = chrono::Weekday::try_from((index % 7) as u8).unwrap_or(chrono::Weekday::Mon);
    let day_code =
        ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][weekday.num_days_from_monday() as usize];
    let (rrule, words) = if weekly {
        (
            format!("FREQ=WEEKLY;BYDAY={day_code};BYHOUR={hour};BYMINUTE=0;BYSECOND=0"),
            format!("every {weekday} at {hour:02}:00"),
        )
    } else {
        (
            format!("FREQ=DAILY;BYHOUR={hour};BYMINUTE=0;BYSECOND=0"),
            format!("every day at {hour:02}:00"),
        )
    };
    // The latest occurrence at or before now, and the first one (some weeks before it).
    let mut last = Utc
        .with_ymd_and_hms(now.year(), now.month(), now.day(), hour, 0, 0)
        .single()
        .unwrap_or(now)
        .with_second(0)
        .unwrap_or(now);
    while last > now || (weekly && last.weekday() != weekday) {
        last -= Duration::days(1);
    }
    let first = last - Duration::weeks(rng.gen_range(2..50));
    let created_at = first - Duration::hours(rng.gen_range(1..48));
    let automation = Automation {
        id: format!("aut_cap{index:08}"),
        kind: AutomationKind::Reminder,
        for_user_id: None,
        title: title(rng),
        schedule: Schedule {
            rrule,
            dtstart: first,
            timezone: chrono_tz::UTC,
            words,
        },
        origin_thread_id: Some(chat(owner)),
        domain: "personal".to_string(),
        priority: 2,
        last_occurrence_at: Some(last),
        created_at,
        created_by: Some(person(owner)),
        stopped_at: None,
        // Its rule names the hour: the time the person said.
        time_stated: true,
        repeat_from: RepeatFrom::Schedule,
    };
    AutomationRecord::from(&automation)
}
