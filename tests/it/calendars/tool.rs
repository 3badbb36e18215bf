//! The planner's `calendar_events` tool, driven by the fake model over a real local .ics file
//! (Monday 23 November 2026, 10:00 UTC): in the person's own chat the look-up quotes their
//! events of the day asked for and nobody else's; in a group chat it quotes none, and the
//! answer the model composes never sees them; a window that is backwards or too long is a
//! refused call, never cut; the tool's look-ups change nothing.

use serde_json::{json, Value};

use super::bot_with_owner_and_sam;
use crate::common::fake_llm::{in_role, out, start_fake_llm, FakeLlm};
use crate::common::Bot;

const OWNER: &str = r#"
BEGIN:VEVENT
UID:dentist@owner
SUMMARY:Dentist check-up
DTSTART:20261124T140000Z
DTEND:20261124T150000Z
END:VEVENT
BEGIN:VEVENT
UID:standup@owner
SUMMARY:Team stand-up
DTSTART:20261123T090000Z
DTEND:20261123T093000Z
RRULE:FREQ=DAILY;COUNT=5
END:VEVENT
BEGIN:VEVENT
UID:trip@owner
SUMMARY:Lisbon trip
DTSTART;VALUE=DATE:20261127
DTEND;VALUE=DATE:20261129
END:VEVENT
"#;

async fn bot_with_calendars(fake: &FakeLlm) -> Bot {
    bot_with_owner_and_sam(OWNER, &fake.config("ollama", "10s", 2)).await
}

/// The owner asks `text` in `thread`; the model looks up `args` once and answers. The turn
/// result and the messages of the answer's `chat` call.
async fn ask(
    bot: &Bot,
    fake: &FakeLlm,
    thread: &str,
    args: Value,
) -> (Value, Vec<(String, String)>) {
    fake.plans_one_call("calendar_events", args);
    fake.push_for("chat", out(json!({"reply_to_user": "Here is your day."})));
    let before = fake.count("chat");
    let result = bot
        .say(thread, "anything I should know about for that day?")
        .await;
    assert_eq!(result["path"], "answer", "{result}");
    (result, fake.messages_of("chat", before))
}

#[actix_rt::test]
async fn in_their_own_chat_a_person_sees_only_their_own_events_of_the_day_asked_for() {
    let fake = start_fake_llm();
    let bot = bot_with_calendars(&fake).await;
    let chat = bot.free_thread().await;
    // (arguments, events the answer must see, events it must not see)
    let table: &[(Value, &[&str], &[&str])] = &[
        (
            json!({"day": "tomorrow"}),
            &[
                "Tue 24 Nov 14:00-15:00 Dentist check-up",
                "Tue 24 Nov 09:00-09:30 Team stand-up",
            ],
            &["Sam's job interview", "Lisbon trip", "Mon 23 Nov"],
        ),
        (
            json!({"day": "saturday"}),
            &["Fri 27 Nov - Sat 28 Nov (all day) Lisbon trip"],
            &["Dentist check-up", "Team stand-up"],
        ),
        (
            json!({"from": "2026-11-23T00:00:00Z", "to": "2026-11-30T00:00:00Z"}),
            &["Dentist check-up", "Lisbon trip", "\"count\":7"],
            &["Sam's job interview"],
        ),
        (
            json!({}),
            &["Team stand-up", "\"count\":1"],
            &["Dentist check-up"],
        ),
    ];
    for (args, seen, unseen) in table {
        let (result, messages) = ask(&bot, &fake, &chat, args.clone()).await;
        assert_eq!(
            result["steps"],
            json!([{"tool": "calendar_events", "args": args, "ok": true}]),
            "{result}"
        );
        for words in *seen {
            assert!(
                in_role(&messages, "user", words),
                "{args}: {words} in {messages:?}"
            );
        }
        for words in *unseen {
            assert!(
                !in_role(&messages, "user", words),
                "{args}: not {words}: {messages:?}"
            );
        }
        assert!(!in_role(&messages, "system", "Dentist"), "{messages:?}");
    }
    let (_, tasks) = bot.get("/api/tasks").await;
    assert_eq!(tasks, json!([]), "a look-up changes nothing");
    bot.stop().await;
}

#[actix_rt::test]
async fn in_a_group_chat_no_one_s_events_are_shown_not_even_to_their_person() {
    let fake = start_fake_llm();
    let bot = bot_with_calendars(&fake).await;
    let group = bot.group_thread().await;
    let (result, messages) = ask(&bot, &fake, &group, json!({"day": "tomorrow"})).await;
    assert_eq!(result["steps"][0]["ok"], true, "{result}");
    for private in ["Dentist check-up", "Team stand-up", "Sam's job interview"] {
        assert!(
            !in_role(&messages, "user", private),
            "{private}: {messages:?}"
        );
    }
    assert!(
        in_role(&messages, "user", "shown only to their person"),
        "the look-up says why it is empty: {messages:?}"
    );
    bot.stop().await;
}

#[actix_rt::test]
async fn a_window_backwards_or_longer_than_a_month_is_a_refused_call() {
    let fake = start_fake_llm();
    let bot = bot_with_calendars(&fake).await;
    let chat = bot.free_thread().await;
    // (arguments, words of the refusal)
    let table = [
        (
            json!({"from": "2026-11-25T00:00:00Z", "to": "2026-11-24T00:00:00Z"}),
            "to must be after from",
        ),
        (
            json!({"from": "2026-11-01T00:00:00Z", "to": "2027-01-01T00:00:00Z"}),
            "at most 31 days",
        ),
        (
            json!({"day": "tomorrow", "from": "2026-11-24T00:00:00Z"}),
            "either day",
        ),
        (json!({"day": "whenever it suits"}), "cannot read"),
        (json!({"user_id": "sam"}), "unknown field"),
    ];
    for (args, refusal) in table {
        let (result, messages) = ask(&bot, &fake, &chat, args.clone()).await;
        assert_eq!(result["steps"][0]["ok"], false, "{args}: {result}");
        assert!(in_role(&messages, "user", refusal), "{args}: {messages:?}");
        assert!(!in_role(&messages, "user", "Sam's"), "{messages:?}");
    }
    bot.stop().await;
}
