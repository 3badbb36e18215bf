//! Recurrence rules a door would not store, already in the database: the automation and digest
//! runners search them off the store writer (a turn never waits behind the search), skip and
//! report the ones they cannot search (once, not at every tick), and still fire the others;
//! and the plan step that stores an automation refuses a rule more often than daily, as
//! `donna import` does.

use crate::common;

use std::time::{Duration, Instant};

use chrono_tz::Tz;
use common::{monday_10am, start_bot, Bot};
use donna::actions::automation::{create, proposal_action, CreateError};
use donna::automations::due::due_occurrence;
use donna::automations::repo::{self, Automation, AutomationKind};

use super::{automation, skipped, utc};
use donna::automations::{AutomationDraft, AutomationsMsg, RepeatFrom, Schedule};

/// The rule: every second of every 30 February.
const SECONDLY: &str = "FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30";
/// A rule every door's check lets through whose search still finds nothing: daily on every
/// 30 February (the search steps through empty days up to the crate's cap).
const NEVER: &str = "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;BYHOUR=9;BYMINUTE=0;BYSECOND=0";

/// Writes automations as they are, past every door (as an import before the checks did).
async fn put(bot: &Bot, automations: Vec<Automation>) {
    bot.app
        .store
        .write(move |conn| {
            for automation in &automations {
                repo::put(conn, automation)?;
            }
            Ok(())
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
}

/// How many never-occurring rules make a tick's search last at least `at_least` here (the
/// machine's speed varies; the test needs the search to still run while a turn is answered).
fn never_rules_for(at_least: Duration) -> usize {
    let probe = automation("aut_probe", AutomationKind::Reminder, NEVER);
    let started = Instant::now();
    let found = due_occurrence(&probe, monday_10am());
    assert!(matches!(found, Ok(None)), "{found:?}");
    let one = started.elapsed().max(Duration::from_micros(100));
    let count = at_least.as_micros() / one.as_micros() + 1;
    usize::try_from(count)
        .unwrap_or(usize::MAX)
        .clamp(20, 3_000)
}

#[actix_rt::test]
async fn a_turn_is_not_held_up_by_rules_that_never_occur_and_the_others_still_fire() {
    let bot = start_bot("").await;
    let mut automations: Vec<Automation> = (0..150)
        .map(|i| {
            automation(
                &format!("aut_secondly_{i:03}"),
                AutomationKind::Reminder,
                SECONDLY,
            )
        })
        .collect();
    let never = never_rules_for(Duration::from_secs(3));
    automations.extend((0..never).map(|i| {
        automation(
            &format!("aut_never_{i:04}"),
            AutomationKind::Reminder,
            NEVER,
        )
    }));
    automations.extend(
        (0..5).map(|i| automation(&format!("aut_digest_{i}"), AutomationKind::Digest, SECONDLY)),
    );
    let daily = "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0";
    // The one rule that occurs: first today at 09:00, so due at this first tick.
    let mut plants = automation("aut_plants", AutomationKind::Reminder, daily);
    plants.schedule.dtstart = utc(2026, 11, 23, 9);
    plants.created_at = utc(2026, 11, 22, 9);
    automations.push(plants);
    put(&bot, automations).await;
    let chat = bot.free_thread().await;

    let runner = bot.app.automations.clone();
    let ticking = actix_rt::spawn(async move {
        runner
            .ask(|reply| AutomationsMsg::Tick { reply: Some(reply) })
            .await
    });
    tokio::task::yield_now().await;
    // Before, the whole search ran in the tick's unit of work on the store writer, so this
    // turn's commit waited for it (2.5-2.9 s for 150 such rules on the release binary).
    let answer = bot.say(&chat, "list my tasks").await;
    assert_eq!(answer["path"], "answer", "{answer}");
    assert!(
        !ticking.is_finished(),
        "the turn was answered only after the tick's search ({never} rules that never occur)"
    );
    let created = ticking
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .unwrap_or_else(|e| panic!("{e}"))
        .unwrap_or_else(|e| panic!("the tick failed: {e}"));
    let titles: Vec<&str> = created.iter().map(|task| task.title.as_str()).collect();
    assert_eq!(
        titles,
        vec!["Water the plants"],
        "only the rule that occurs fired"
    );
    assert_eq!(
        created[0].automation_id.as_deref(),
        Some("aut_plants"),
        "{created:?}"
    );
    let digests = bot.digest_tick().await;
    assert!(digests.is_empty(), "{digests:?}");
    let metrics = bot.metrics_text().await;
    assert_eq!(
        skipped(&metrics, "automations"),
        150.0,
        "reported once each"
    );
    assert_eq!(skipped(&metrics, "digests"), 5.0);

    // The next tick does not search again what cannot be due, and reports nothing twice.
    let again = bot.automation_tick().await;
    assert!(again.is_empty(), "{again:?}");
    assert_eq!(skipped(&bot.metrics_text().await, "automations"), 150.0);
}

#[actix_rt::test]
async fn the_plan_step_that_stores_an_automation_refuses_a_rule_no_door_keeps() {
    let bot = start_bot("").await;
    let now = monday_10am();
    // (rule, accepted)
    let table = [
        ("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0", true),
        (
            "FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
            true,
        ),
        (SECONDLY, false),
        ("FREQ=MINUTELY;BYHOUR=9", false),
        ("FREQ=HOURLY", false),
        ("FREQ=DAILY;BYHOUR=9,21;BYMINUTE=0;BYSECOND=0", false),
        ("FREQ=DAILY;BYHOUR=9;BYMINUTE=0,30;BYSECOND=0", false),
        (NEVER, false),
    ];
    for (rrule, accepted) in table {
        let draft = AutomationDraft {
            title: "Water the plants".into(),
            schedule: Schedule {
                rrule: rrule.into(),
                dtstart: utc(2026, 11, 24, 9),
                timezone: Tz::UTC,
                words: "every day at 09:00".into(),
            },
            time_stated: false,
            repeat_from: RepeatFrom::Schedule,
        };
        // A stored plan is data: its step is checked again when it runs.
        let action = proposal_action(&draft, None);
        let stored = bot
            .app
            .store
            .write(move |conn| {
                Ok(match create(conn, now, &action) {
                    Ok(_) => Ok(()),
                    Err(CreateError::Refused(reason)) => Err(reason),
                    Err(CreateError::Store(error)) => Err(error.to_string()),
                })
            })
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(stored.is_ok(), accepted, "{rrule}: {stored:?}");
    }
}
