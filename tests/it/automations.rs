//! Automations (recurring reminders): reading the command (a table of sentences, including
//! ones that must not be automations), the schedule math (first run, next, a DST change in
//! Europe/Paris, the 31st in short months), and the runner on a controlled clock through a
//! running app: one task per occurrence across ticks and restarts, only the latest missed one
//! after downtime, the HTTP list and delete, and undo of the confirmation.

use crate::common::{self, reading::read_automation as read};

use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, TimeZone, Utc};
use chrono_tz::Europe::Paris;
use common::{monday_10am, start_bot, start_bot_in, Bot, TestEnv};
use donna::actions::automation::proposal_action;
use donna::actions::{ActionEnv, ActionRegistry};
use donna::automations::{AutomationDraft, AutomationReading, AutomationsMsg, Schedule};
use donna::events::{Next, Payload, TaskChange};
use donna::nudges::NudgeOpened;
use donna::nudges::NudgerMsg;
use donna::tasks::Task;
use serde_json::Value;

const PARIS: &str = "timezone: Europe/Paris\nnudges:\n  interval: 1h\n  min_gap: 4h\n  quiet_hours: \"22:00-08:00\"\n";

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

#[test]
fn automation_commands_are_read_into_a_title_a_schedule_and_a_first_run() {
    // Now: Monday 23 Nov 2026, 11:00 in Paris.
    let table: [(&str, &str, &str, &str, &str); 14] = [
        (
            "every monday at 9 remind me to submit the timesheet",
            "Submit the timesheet",
            "every Monday at 09:00",
            "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            "Mon 30 Nov 09:00",
        ),
        (
            "every weekday at 7 remind me to stand up",
            "Stand up",
            "every weekday at 07:00",
            "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=7;BYMINUTE=0;BYSECOND=0",
            "Tue 24 Nov 07:00",
        ),
        (
            "every 2 weeks on friday remind me to water the plants",
            "Water the plants",
            "every other week on Friday at 09:00",
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            "Fri 27 Nov 09:00",
        ),
        (
            "on the 1st of every month remind me to pay rent",
            "Pay rent",
            "every month on the 1st at 09:00",
            "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            "Tue 1 Dec 09:00",
        ),
        (
            "every day at 8pm remind me to take my pills",
            "Take my pills",
            "every day at 20:00",
            "FREQ=DAILY;BYHOUR=20;BYMINUTE=0;BYSECOND=0",
            "Mon 23 Nov 20:00",
        ),
        (
            "remind me every monday and thursday at 7:30 to call mom",
            "Call mom",
            "every Monday and Thursday at 07:30",
            "FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR=7;BYMINUTE=30;BYSECOND=0",
            "Thu 26 Nov 07:30",
        ),
        (
            "Daily at 17:00: review the inbox",
            "Review the inbox",
            "every day at 17:00",
            "FREQ=DAILY;BYHOUR=17;BYMINUTE=0;BYSECOND=0",
            "Mon 23 Nov 17:00",
        ),
        (
            "every month on the 31st remind me to back up the laptop",
            "Back up the laptop",
            "every month on the 31st (or the month's last day) at 09:00",
            "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            "Mon 30 Nov 09:00",
        ),
        (
            "please remind me each sunday to plan the week",
            "Plan the week",
            "every Sunday at 09:00",
            "FREQ=WEEKLY;BYDAY=SU;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            "Sun 29 Nov 09:00",
        ),
        (
            "every Monday: Submit the timesheet to HR",
            "Submit the timesheet to HR",
            "every Monday at 09:00",
            "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            "Mon 30 Nov 09:00",
        ),
        (
            "every other friday at 10am remind me to send the invoice",
            "Send the invoice",
            "every other week on Friday at 10:00",
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=10;BYMINUTE=0;BYSECOND=0",
            "Fri 27 Nov 10:00",
        ),
        (
            "I want you to remind me every tuesday at noon to eat lunch",
            "Eat lunch",
            "every Tuesday at 12:00",
            "FREQ=WEEKLY;BYDAY=TU;BYHOUR=12;BYMINUTE=0;BYSECOND=0",
            "Tue 24 Nov 12:00",
        ),
        (
            "remind me to stretch every day at 11",
            "Stretch",
            "every day at 11:00",
            "FREQ=DAILY;BYHOUR=11;BYMINUTE=0;BYSECOND=0",
            // 11:00 is now: the first run is tomorrow's.
            "Tue 24 Nov 11:00",
        ),
        (
            "every 3 days at 21:30 remind me to water the cactus",
            "Water the cactus",
            "every 3 days at 21:30",
            "FREQ=DAILY;INTERVAL=3;BYHOUR=21;BYMINUTE=30;BYSECOND=0",
            "Mon 23 Nov 21:30",
        ),
    ];
    for (text, title, words, rrule, first) in table {
        let draft = draft(text);
        assert_eq!(draft.title, title, "{text:?}");
        assert_eq!(draft.schedule.words, words, "{text:?}");
        assert_eq!(draft.schedule.rrule, rrule, "{text:?}");
        assert_eq!(draft.schedule.timezone, Paris, "{text:?}");
        let run = draft
            .schedule
            .first_run_after(monday_10am())
            .unwrap_or_else(|e| panic!("{text:?}: {e}"))
            .unwrap_or_else(|| panic!("{text:?}: no first run"));
        assert_eq!(local(run), first, "{text:?}");
        assert_eq!(
            draft.schedule.dtstart, run,
            "{text:?}: DTSTART is the first run"
        );
    }
}

#[test]
fn questions_negations_reports_and_other_peoples_habits_are_not_automations() {
    for text in [
        "do I have something every monday?",
        "what do I have every weekday",
        "can you remind me every monday to submit the timesheet",
        "hey donna could you remind me every day at 8 to floss",
        "don't remind me every monday",
        "never remind me every day at 9 to smile",
        "stop reminding me every monday",
        "I go running every monday",
        "my boss reminds me every monday",
        "we meet every friday at 10",
        "every day is a struggle",
        "every time I open the fridge remind me to drink water",
        "remind me to call Alice tomorrow at 4",
        "add read the daily news",
        "list my tasks",
        "thanks!",
        "",
    ] {
        assert_eq!(
            read(text, monday_10am(), Paris),
            AutomationReading::NotAutomation,
            "{text:?}"
        );
    }
}

#[test]
fn an_automation_missing_something_asks_for_it() {
    let table = [
        (
            "every monday at 5 remind me to call the bank",
            "At 5 in the morning (05:00) or in the afternoon (17:00)?",
        ),
        (
            "every day at 6 remind me to run",
            "At 6 in the morning (06:00) or in the afternoon (18:00)?",
        ),
        (
            "every day at 6:30 remind me to run",
            "At 6:30 in the morning (06:30) or in the afternoon (18:30)?",
        ),
        (
            "every monday at 9",
            "What should I remind you of every Monday at 09:00?",
        ),
        (
            "on the 32nd of every month remind me to pay rent",
            "A month has no day 32",
        ),
        ("every day at 25 remind me to sleep", "there is no 25:00"),
        ("every 2 hours remind me to drink water", "not more often"),
        (
            "every second tuesday remind me to call the bank",
            "Every other Tuesday, or the second Tuesday of each month?",
        ),
    ];
    for (text, asked) in table {
        match read(text, monday_10am(), Paris) {
            AutomationReading::Unreadable(question) => {
                assert!(question.contains(asked), "{text:?}: {question:?}")
            }
            other => panic!("{text:?}: expected a question, got {other:?}"),
        }
    }
    // A leading zero is a 24-hour time, not a question.
    assert_eq!(
        draft("every day at 05:30 remind me to run").schedule.words,
        "every day at 05:30"
    );
}

fn schedule(rrule: &str, first: DateTime<Utc>) -> Schedule {
    Schedule {
        rrule: rrule.to_string(),
        dtstart: first,
        timezone: Paris,
        words: String::new(),
    }
}

fn ok<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn occurrences_stay_at_the_local_wall_time_across_daylight_saving_changes() {
    // Paris leaves summer time on Sunday 25 Oct 2026 and enters it on Sunday 28 Mar 2027.
    let daily = ok(Schedule::starting_after(
        "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
        Paris,
        "every day at 09:00",
        utc(2026, 10, 23, 12, 0),
    ));
    let mut at = daily.dtstart;
    let mut seen = vec![at];
    for _ in 0..2 {
        at = ok(daily.next_after(at)).unwrap_or_else(|| panic!("no next"));
        seen.push(at);
    }
    assert_eq!(
        seen,
        vec![
            utc(2026, 10, 24, 7, 0),
            utc(2026, 10, 25, 8, 0),
            utc(2026, 10, 26, 8, 0)
        ]
    );
    assert!(seen.iter().all(|at| local(*at).ends_with("09:00")));
    let spring = ok(daily.next_after(utc(2027, 3, 27, 12, 0)));
    assert_eq!(spring, Some(utc(2027, 3, 28, 7, 0)));
}

#[test]
fn the_31st_falls_on_the_last_day_of_shorter_months() {
    let month_end = schedule(
        "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
        utc(2027, 1, 31, 8, 0),
    );
    let mut at = month_end.dtstart;
    let mut days = Vec::new();
    for _ in 0..4 {
        at = ok(month_end.next_after(at)).unwrap_or_else(|| panic!("no next"));
        days.push(local(at));
    }
    assert_eq!(
        days,
        [
            "Sun 28 Feb 09:00",
            "Wed 31 Mar 09:00",
            "Fri 30 Apr 09:00",
            "Mon 31 May 09:00"
        ]
    );
}

#[test]
fn the_latest_occurrence_in_a_window_is_the_one_that_fires() {
    let daily = schedule(
        "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
        utc(2026, 11, 23, 8, 0),
    );
    let monday_9 = utc(2026, 11, 23, 8, 0);
    let table = [
        // (after, until, latest)
        (None, utc(2026, 11, 23, 7, 59), None),
        (None, monday_9, Some(monday_9)),
        (Some(monday_9), utc(2026, 11, 23, 20, 0), None),
        (
            Some(monday_9),
            utc(2026, 11, 26, 10, 0),
            Some(utc(2026, 11, 26, 8, 0)),
        ),
        (
            Some(monday_9),
            utc(2026, 11, 26, 7, 0),
            Some(utc(2026, 11, 25, 8, 0)),
        ),
    ];
    for (after, until, latest) in table {
        assert_eq!(
            ok(daily.latest_occurrence_in(after, until)),
            latest,
            "after {after:?} until {until}"
        );
    }
    // Years of downtime: still only the latest, found without walking every day.
    assert_eq!(
        ok(daily.latest_occurrence_in(Some(monday_9), utc(2031, 6, 1, 10, 0))),
        Some(utc(2031, 6, 1, 7, 0))
    );
    // A rule that does not parse is an error, not a panic.
    assert!(schedule("FREQ=SOMETIMES", monday_9)
        .next_after(monday_9)
        .is_err());
}

#[test]
fn no_actions_file_may_name_the_internal_create_automation_handler() {
    let yaml =
        "actions:\n  sneaky:\n    description: Store a reminder.\n    handler: create_automation\n";
    match ActionRegistry::from_yaml(yaml) {
        Err(error) => assert!(error.to_string().contains("Donna's own handler"), "{error}"),
        Ok(_) => panic!("a model-visible action may not store automations"),
    }
}

// ----- through a running app ----------------------------------------------------------------

async fn tick(bot: &Bot) -> Vec<Task> {
    ok(ok(bot
        .app
        .automations
        .ask(|reply| AutomationsMsg::Tick { reply: Some(reply) })
        .await))
}

async fn nudge_tick(bot: &Bot) -> Vec<NudgeOpened> {
    ok(ok(bot
        .app
        .nudger
        .ask(|reply| NudgerMsg::Tick { reply: Some(reply) })
        .await))
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
    let Bot { dir, app, .. } = bot;
    drop(app);
    start_bot_in(dir, PARIS, TestEnv(Vec::new())).await
}

#[actix_rt::test]
async fn each_occurrence_becomes_exactly_one_task_across_ticks_restarts_and_downtime() {
    let bot = start_bot(PARIS).await;
    // Monday 11:00 in Paris; the first run is tonight at 20:00 (19:00 UTC).
    let id = confirmed(&bot, "every day at 8pm remind me to take my pills").await;
    assert!(tick(&bot).await.is_empty(), "nothing is due before 20:00");

    let mut events = bot.app.events.subscribe(None);
    bot.clock.set(utc(2026, 11, 23, 19, 30));
    let created = tick(&bot).await;
    assert_eq!(created.len(), 1);
    assert!(tick(&bot).await.is_empty(), "a second tick fires nothing");
    // The new task is on the event stream (published after the commit).
    let published = actix_rt::time::timeout(StdDuration::from_secs(5), async {
        loop {
            match events.next().await {
                Next::Event(event) => {
                    if let Payload::Task {
                        task_id, change, ..
                    } = &event.payload
                    {
                        return Some((task_id.clone(), *change));
                    }
                }
                Next::Reset(_) => {}
                Next::Closed => return None,
            }
        }
    })
    .await;
    assert_eq!(
        published.ok().flatten(),
        Some((created[0].id.clone(), TaskChange::Created))
    );
    // Even if its bookkeeping went back (it cannot: one transaction), the unique occurrence
    // keeps the task single.
    let rewind = id.clone();
    ok(bot
        .app
        .store
        .write(move |conn| {
            donna::automations::repo::set_last_occurrence(conn, &rewind, monday_10am())
        })
        .await);
    assert!(
        tick(&bot).await.is_empty(),
        "an occurrence already a task is not made again"
    );
    let tasks = instances(&bot, &id).await;
    assert_eq!(tasks.len(), 1, "{tasks:?}");
    assert_eq!(tasks[0]["title"], "Take my pills");
    assert_eq!(tasks[0]["source"], "automation");
    assert_eq!(tasks[0]["scheduled_start"], "2026-11-23T20:00:00+01:00");
    // The Nudger takes it from there, like any task whose start has come.
    let nudged = nudge_tick(&bot).await;
    assert_eq!(nudged.len(), 1, "{nudged:?}");
    assert!(
        nudged[0].text.contains("Take my pills"),
        "{}",
        nudged[0].text
    );

    // A restart (its clock starts at Monday 11:00 again, then comes back to 20:30).
    let bot = restart(bot).await;
    bot.clock.set(utc(2026, 11, 23, 19, 30));
    assert!(tick(&bot).await.is_empty());
    assert_eq!(instances(&bot, &id).await.len(), 1);

    // Down from Monday night to Thursday night: three occurrences missed, only Thursday's fires.
    let bot = restart(bot).await;
    bot.clock.set(utc(2026, 11, 26, 19, 45));
    let created = tick(&bot).await;
    assert_eq!(created.len(), 1, "{created:?}");
    assert_eq!(created[0].occurrence_at, Some(utc(2026, 11, 26, 19, 0)));
    let tasks = instances(&bot, &id).await;
    let starts: Vec<&str> = tasks
        .iter()
        .filter_map(|t| t["scheduled_start"].as_str())
        .collect();
    assert_eq!(tasks.len(), 2, "{starts:?}");
    assert!(starts.contains(&"2026-11-26T20:00:00+01:00"), "{starts:?}");
    bot.stop().await;
}

#[actix_rt::test]
async fn automations_are_listed_over_http_and_a_deleted_one_fires_no_more() {
    let bot = start_bot(PARIS).await;
    assert_eq!(
        bot.get("/api/automations").await,
        (200, Value::Array(vec![]))
    );
    let id = confirmed(&bot, "every monday at 9 remind me to submit the timesheet").await;
    let (status, listed) = bot.get("/api/automations").await;
    assert_eq!(status, 200);
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
    let shown = &listed[0];
    assert_eq!(shown["id"], id.as_str());
    assert_eq!(shown["title"], "Submit the timesheet");
    assert_eq!(shown["schedule"], "every Monday at 09:00");
    assert_eq!(
        shown["rrule"],
        "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0"
    );
    assert_eq!(shown["timezone"], "Europe/Paris");
    assert_eq!(shown["next_run"], "2026-11-30T09:00:00+01:00");
    assert_eq!(shown["created_at"], "2026-11-23T11:00:00+01:00");

    let delete = |path: String| {
        let bot = &bot;
        async move {
            let response = bot
                .client
                .delete(format!("{}{path}", bot.base))
                .send()
                .await
                .unwrap_or_else(|e| panic!("{e}"));
            response.status().as_u16()
        }
    };
    assert_eq!(delete(format!("/api/automations/{id}")).await, 204);
    assert_eq!(delete(format!("/api/automations/{id}")).await, 404);
    assert_eq!(
        bot.get("/api/automations").await,
        (200, Value::Array(vec![]))
    );
    bot.clock.set(utc(2026, 11, 30, 8, 30));
    assert!(tick(&bot).await.is_empty());
    assert!(instances(&bot, &id).await.is_empty());
    bot.stop().await;
}

#[actix_rt::test]
async fn a_proposal_says_the_schedule_and_first_run_and_undo_of_the_yes_removes_it() {
    let bot = start_bot(PARIS).await;
    let (_task, thread) = bot.nudged_task("Pay rent").await;
    let action = proposal_action(
        &draft("every monday at 9 remind me to submit the timesheet"),
        Some(&thread),
    );
    let env = ActionEnv {
        now: bot.clock_now(),
        timezone: Paris,
        later: StdDuration::from_secs(3 * 3600),
        author_id: None,
    };
    let on = thread.clone();
    let plan = ok(bot
        .app
        .store
        .write(move |conn| {
            let proposal = donna::turn::apply::Proposal {
                thread_id: &on,
                requester_id: "owner",
                expiry: Duration::minutes(10),
            };
            donna::turn::apply::propose(conn, &proposal, vec![action], &env)
        })
        .await);
    assert!(
        plan.reply_text.starts_with(
            "I'd remind you to 'Submit the timesheet' every Monday at 09:00 (Europe/Paris), \
             first on Mon 30 Nov 09:00."
        ),
        "{}",
        plan.reply_text
    );

    let yes = bot.say(&thread, "yes").await;
    assert_eq!(yes["path"], "plan_confirmed", "{yes}");
    let reply = yes["reply"].as_str().unwrap_or_default();
    assert!(
        reply.contains("I'll remind you to 'Submit the timesheet' every Monday at 09:00"),
        "{reply}"
    );
    let (_, listed) = bot.get("/api/automations").await;
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
    let id = listed[0]["id"].as_str().unwrap_or_default().to_string();

    let undone = bot.say(&thread, "undo").await;
    assert_eq!(undone["path"], "undone", "{undone}");
    assert!(
        undone["reply"]
            .as_str()
            .unwrap_or_default()
            .contains("won't remind you to 'Submit the timesheet'"),
        "{undone}"
    );
    assert_eq!(
        bot.get("/api/automations").await,
        (200, Value::Array(vec![]))
    );
    bot.clock.set(utc(2026, 11, 30, 8, 30));
    assert!(tick(&bot).await.is_empty());
    assert!(instances(&bot, &id).await.is_empty());
    bot.stop().await;
}

#[actix_rt::test]
async fn the_console_lists_automations_with_their_schedule_and_next_run() {
    let bot = start_bot(PARIS).await;
    confirmed(&bot, "every monday at 9 remind me to submit the timesheet").await;
    // Numbered oldest first.
    bot.clock.advance(Duration::minutes(1));
    confirmed(&bot, "every day at 8pm remind me to take my pills").await;
    bot.stop().await;
    let Bot { dir, app, .. } = bot;
    drop(app);
    // `donna chat` on the same data dir (its own clock: the real one).
    let config = dir.path().join("chat.yaml");
    ok(std::fs::write(
        &config,
        "data_dir: data\nllm:\n  provider: none\ntimezone: Europe/Paris\n",
    ));
    // The previous app's HTTP workers let go of the data-dir lock a moment later.
    let output = common::wait_for(StdDuration::from_secs(30), || {
        let run = common::process::chat_with_input(
            dir.path(),
            &["-c".as_ref(), config.as_os_str()],
            "help\nautomations\nquit\n",
        );
        Some(common::process::text(&run.stdout)).filter(|stdout| stdout.contains("automations"))
    });
    let stdout = output.unwrap_or_else(|| panic!("donna chat never ran"));
    assert!(
        stdout.contains("automations         list recurring reminders and their next run"),
        "{stdout}"
    );
    let first = stdout
        .lines()
        .find(|line| line.contains("1. Submit the timesheet"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        first.contains(": every Monday at 09:00, next Mon "),
        "{first}"
    );
    let second = stdout
        .lines()
        .find(|line| line.contains("2. Take my pills"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(second.contains(": every day at 20:00, next "), "{second}");
}

#[test]
fn a_wall_time_that_a_dst_change_skips_or_repeats_does_not_break_the_schedule() {
    let night = ok(Schedule::starting_after(
        "FREQ=DAILY;BYHOUR=2;BYMINUTE=30;BYSECOND=0",
        Paris,
        "every day at 02:30",
        utc(2027, 3, 26, 12, 0),
    ));
    let mut at = night.dtstart;
    let mut seen = vec![at];
    for _ in 0..3 {
        at = ok(night.next_after(at)).unwrap_or_else(|| panic!("no next"));
        seen.push(at);
    }
    // 28 Mar 2027 has no 02:30 in Paris: that day's reminder comes at 03:30, once.
    assert_eq!(
        seen,
        vec![
            utc(2027, 3, 27, 1, 30),
            utc(2027, 3, 28, 1, 30),
            utc(2027, 3, 29, 0, 30),
            utc(2027, 3, 30, 0, 30)
        ]
    );
    // 31 Oct 2027 has 02:30 twice: the reminder comes once, at the first.
    let first = ok(night.next_after(utc(2027, 10, 30, 12, 0)));
    assert_eq!(first, Some(utc(2027, 10, 31, 0, 30)));
    assert_eq!(
        ok(night.next_after(utc(2027, 10, 31, 0, 30))),
        Some(utc(2027, 11, 1, 1, 30))
    );
}
