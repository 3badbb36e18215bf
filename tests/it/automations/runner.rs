//! The automation runner on a running app with a controlled clock: one task per occurrence
//! across ticks, restarts and downtime, and a wall time a DST change skips or repeats.

use super::*;

#[actix_rt::test]
async fn each_occurrence_becomes_exactly_one_task_across_ticks_restarts_and_downtime() {
    let bot = start_bot(PARIS).await;
    // Monday 11:00 in Paris; the first run is tonight at 20:00 (19:00 UTC).
    let id = confirmed(&bot, "every day at 8pm remind me to take my pills").await;
    assert!(
        bot.automation_tick().await.is_empty(),
        "nothing is due before 20:00"
    );

    let mut events = bot.app.events.subscribe(None);
    bot.clock.set(utc(2026, 11, 23, 19, 30));
    let created = bot.automation_tick().await;
    assert_eq!(created.len(), 1);
    assert!(
        bot.automation_tick().await.is_empty(),
        "a second tick fires nothing"
    );
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
        bot.automation_tick().await.is_empty(),
        "an occurrence already a task is not made again"
    );
    let tasks = instances(&bot, &id).await;
    assert_eq!(tasks.len(), 1, "{tasks:?}");
    assert_eq!(tasks[0]["title"], "Take my pills");
    assert_eq!(tasks[0]["source"], "automation");
    assert_eq!(tasks[0]["scheduled_start"], "2026-11-23T20:00:00+01:00");
    // The Nudger takes it from there, like any task whose start has come.
    let nudged = bot.tick_nudger().await;
    assert_eq!(nudged.len(), 1, "{nudged:?}");
    assert!(
        nudged[0].text.contains("Take my pills"),
        "{}",
        nudged[0].text
    );

    // A restart (its clock starts at Monday 11:00 again, then comes back to 20:30).
    let bot = restart(bot).await;
    bot.clock.set(utc(2026, 11, 23, 19, 30));
    assert!(bot.automation_tick().await.is_empty());
    assert_eq!(instances(&bot, &id).await.len(), 1);

    // Down from Monday night to Thursday night: three occurrences missed, only Thursday's fires.
    let bot = restart(bot).await;
    bot.clock.set(utc(2026, 11, 26, 19, 45));
    let created = bot.automation_tick().await;
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
