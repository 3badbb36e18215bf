//! Automations and recurrences said in words: proposed, then stored only after a yes.

use super::*;
use crate::common::Fields;

#[actix_rt::test]
async fn an_automation_is_proposed_in_words_and_stored_only_after_a_yes() {
    let bot = start_bot(PARIS).await;
    let thread = bot.free_thread().await;
    let proposal = bot
        .say(
            &thread,
            "every monday at 9 remind me to submit the timesheet",
        )
        .await;
    assert_eq!(proposal["path"], "automation_proposed", "{proposal}");
    let reply = proposal["reply"].text();
    assert!(
        reply.contains("Submit the timesheet") && reply.contains("Monday"),
        "{reply}"
    );
    assert!(reply.contains("Europe/Paris"), "{reply}");
    let (_, listed) = bot.get("/api/automations").await;
    assert_eq!(listed, json!([]), "nothing stored before a yes");
    assert_eq!(bot.say(&thread, "no").await["path"], "plan_rejected");
    let (_, listed) = bot.get("/api/automations").await;
    assert_eq!(listed, json!([]), "refused: nothing stored");

    bot.say(&thread, "every weekday at 7 remind me to stand up")
        .await;
    let yes = bot.say(&thread, "yes").await;
    assert_eq!(yes["path"], "plan_confirmed", "{yes}");
    let (_, listed) = bot.get("/api/automations").await;
    let all = listed.items().to_vec();
    assert_eq!(all.len(), 1, "{listed}");
    assert_eq!(all[0]["title"], "Stand up");
    assert_eq!(all[0]["timezone"], "Europe/Paris");
    assert_eq!(
        tasks(&bot).await.len(),
        0,
        "an automation is no task until it fires"
    );
    let id = all[0]["id"].text();
    let (status, _) = bot
        .request(
            reqwest::Method::DELETE,
            &format!("/api/automations/{id}"),
            None,
        )
        .await;
    assert_eq!(status, 204);
    let (_, listed) = bot.get("/api/automations").await;
    assert_eq!(listed, json!([]));
    // Not automations: a question, a negation, a report.
    for sentence in [
        "do I have anything every monday?",
        "don't remind me every monday",
        "I go running every monday",
    ] {
        let result = bot.say(&thread, sentence).await;
        assert_ne!(
            result["path"], "automation_proposed",
            "{sentence}: {result}"
        );
        assert_eq!(result["pending_plan_id"], Value::Null, "{sentence}");
    }
}

/// A recurrence is proposed in words (nothing stored), and after
/// the yes `GET /api/automations` shows it as RFC 5545.
#[actix_rt::test]
async fn recurrences_are_said_in_words_then_stored_as_rfc_5545_after_a_yes() {
    let bot = start_bot(PARIS).await;
    // (sentence, the words of the proposal, a part of the stored rule)
    let table = [
        (
            "on the second tuesday of every month remind me to pay the cleaner",
            "every month on the second Tuesday at 09:00",
            "FREQ=MONTHLY;BYDAY=2TU;",
        ),
        (
            "every last friday remind me to send the report",
            "every month on the last Friday",
            "BYDAY=-1FR;",
        ),
        (
            "remind me to back up the laptop on the last day of every month",
            "every month on the last day",
            "BYMONTHDAY=-1;",
        ),
        (
            "every 3 weeks remind me to water the orchids",
            "every 3 weeks from today, Monday 23 Nov, at 09:00",
            "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO;",
        ),
        (
            "every other day at 8pm remind me to stretch",
            "every other day at 20:00",
            "FREQ=DAILY;INTERVAL=2;",
        ),
        (
            "every weekend remind me to call grandma",
            "every Saturday and Sunday at 10:00",
            "BYDAY=SA,SU;",
        ),
        (
            "every monday at 9 until march remind me to file the timesheet",
            "until Mon 1 Mar 2027",
            ";UNTIL=20270301T225959Z",
        ),
        (
            "every tuesday 10 times remind me to practise piano",
            "every Tuesday at 09:00, 10 times",
            ";COUNT=10",
        ),
        (
            "every day at 7 starting next monday remind me to run",
            "starting Mon 30 Nov",
            "FREQ=DAILY;BYHOUR=7;",
        ),
        (
            "every month on the 31st remind me to back up the phone",
            "the 31st (or the month's last day)",
            "BYMONTHDAY=28,29,30,31;BYSETPOS=-1;",
        ),
    ];
    for (index, (sentence, words, rule)) in table.iter().enumerate() {
        let thread = bot.free_thread().await;
        let proposal = bot.say(&thread, sentence).await;
        assert_eq!(
            proposal["path"], "automation_proposed",
            "{sentence}: {proposal}"
        );
        let reply = proposal["reply"].text();
        assert!(
            reply.contains(words),
            "{sentence}: {reply:?} lacks {words:?}"
        );
        let (_, listed) = bot.get("/api/automations").await;
        assert_eq!(
            listed.as_array().map(Vec::len),
            Some(index),
            "{sentence}: stored before a yes"
        );
        let yes = bot.say(&thread, "yes").await;
        assert_eq!(yes["path"], "plan_confirmed", "{sentence}: {yes}");
        let (_, listed) = bot.get("/api/automations").await;
        let all = listed.items().to_vec();
        assert_eq!(all.len(), index + 1, "{sentence}: {listed}");
        let stored = all
            .iter()
            .find(|a| a["rrule"].as_str().is_some_and(|r| r.contains(rule)))
            .unwrap_or_else(|| panic!("{sentence}: no rule with {rule:?} in {listed}"));
        assert_eq!(stored["timezone"], "Europe/Paris", "{sentence}");
    }
    assert_eq!(
        tasks(&bot).await.len(),
        0,
        "no automation is a task before it fires"
    );
}
