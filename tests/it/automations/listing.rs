//! Automations listed over HTTP and in the console, and a deleted one firing no more.

use super::*;

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
        async move { bot.request(reqwest::Method::DELETE, &path, None).await.0 }
    };
    assert_eq!(delete(format!("/api/automations/{id}")).await, 204);
    assert_eq!(delete(format!("/api/automations/{id}")).await, 404);
    assert_none_left(&bot, &id).await;
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
