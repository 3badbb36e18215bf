//! One-tap nudges and paged lists in Discord, against the fake Discord on loopback driven by
//! the real twilight clients: every nudge carries Done / Snooze 1h / Tomorrow; a click enters as
//! the intent its button stands for, through the same turn as typed words (so "undo" takes it
//! back, and the chat remembers the word it stands for), answers only its own nudge, once,
//! only for the people Donna works for, and the buttons are disabled once the task is closed,
//! a newer nudge replaced them or a click answered them. `/tasks` pages with a More button
//! until every task was shown, each page one message under 2,000 characters.

use crate::common;
use crate::common::{Fields, Needed};

use std::collections::BTreeSet;
use std::time::Duration;

use common::discord_messages::{bot_messages, buttons_of};
use common::fake_discord::{
    start_fake_discord, Click, FakeDiscord, IncomingMessage, SentInteraction, SlashCommand,
};
use common::ids::{DM, FRIEND, GUILD, NUDGE_CHANNEL, OWNER, STRANGER};
use common::{discord_bot, eventually, Bot};
use serde_json::{json, Value};

pub(crate) const WAIT: Duration = Duration::from_secs(10);

pub(crate) async fn bot(fake: &FakeDiscord) -> Bot {
    discord_bot(fake, &[OWNER, FRIEND], NUDGE_CHANNEL, "").await
}

/// A nudge Donna sent: where its buttons sit and what they name.
#[derive(Debug, Clone)]
pub(crate) struct Nudge {
    pub channel: u64,
    pub message_id: u64,
    pub task_id: String,
    pub nudge_id: String,
}

/// Donna's latest message in `channel` that carries nudge buttons, once it is there.
async fn last_nudge(fake: &FakeDiscord, channel: u64, count_before: usize) -> Nudge {
    let nudges = |fake: &FakeDiscord| -> Vec<Value> {
        bot_messages(fake, channel)
            .into_iter()
            .filter(|m| {
                buttons_of(m)
                    .first()
                    .is_some_and(|(_, id, _)| id.starts_with("nudge:"))
            })
            .collect()
    };
    let arrived = eventually(WAIT, || async { nudges(fake).len() > count_before }).await;
    assert!(
        arrived,
        "no nudge with buttons in {channel}: {:?}",
        fake.sent_messages()
    );
    let message = nudges(fake).pop().needed();
    let buttons = buttons_of(&message);
    let (_, done, _) = buttons.first().cloned().needed();
    let parts: Vec<&str> = done.split(':').collect();
    let [_, task_id, nudge_id, "done"] = parts.as_slice() else {
        panic!("not a Done button: {done}");
    };
    assert_eq!(
        buttons,
        vec![
            (
                "Done".to_owned(),
                format!("nudge:{task_id}:{nudge_id}:done"),
                false
            ),
            (
                "Snooze 1h".to_owned(),
                format!("nudge:{task_id}:{nudge_id}:snooze"),
                false
            ),
            (
                "Tomorrow".to_owned(),
                format!("nudge:{task_id}:{nudge_id}:tomorrow"),
                false
            ),
        ]
    );
    Nudge {
        channel,
        message_id: message["id"]
            .as_str()
            .and_then(|id| id.parse().ok())
            .unwrap_or(0),
        task_id: (*task_id).to_owned(),
        nudge_id: (*nudge_id).to_owned(),
    }
}

fn nudges_in(fake: &FakeDiscord, channel: u64) -> usize {
    bot_messages(fake, channel)
        .iter()
        .filter(|m| !buttons_of(m).is_empty())
        .count()
}

/// A task nudged in Discord (a new thread on a message in the nudge channel): (nudge, thread).
pub(crate) async fn nudged(bot: &Bot, fake: &FakeDiscord, title: &str) -> (Nudge, u64) {
    let task = bot.task(json!({ "title": title })).await;
    let before = nudges_in(fake, NUDGE_CHANNEL);
    let (status, opened) = bot
        .post(
            "/api/nudges",
            json!({ "task_id": task, "channel": "discord" }),
        )
        .await;
    assert_eq!(status, 201, "{opened}");
    let thread = opened["thread_id"]
        .as_str()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    let nudge = last_nudge(fake, NUDGE_CHANNEL, before).await;
    assert_eq!(nudge.task_id, task);
    (nudge, thread)
}

pub(crate) fn click(fake: &FakeDiscord, nudge: &Nudge, user: u64, answer: &str) -> SentInteraction {
    fake.click(Click {
        channel_id: nudge.channel,
        guild_id: (nudge.channel != DM).then_some(GUILD),
        user_id: user,
        message_id: nudge.message_id,
        custom_id: format!("nudge:{}:{}:{answer}", nudge.task_id, nudge.nudge_id),
    })
}

async fn task(bot: &Bot, id: &str) -> Value {
    bot.task_json(id).await
}

pub(crate) async fn disabled(fake: &FakeDiscord, nudge: &Nudge) -> bool {
    eventually(WAIT, || async {
        fake.message(nudge.message_id)
            .map(|m| buttons_of(&m))
            .is_some_and(|b| b.len() == 3 && b.iter().all(|(_, _, disabled)| *disabled))
    })
    .await
}

fn enabled_now(fake: &FakeDiscord, nudge: &Nudge) -> bool {
    fake.message(nudge.message_id)
        .map(|m| buttons_of(&m))
        .is_some_and(|b| b.len() == 3 && b.iter().all(|(_, _, disabled)| !*disabled))
}

#[actix_rt::test]
async fn each_button_runs_its_intent_remembered_as_its_words_and_undo_takes_it_back() {
    let fake = start_fake_discord().await;
    let bot = bot(&fake).await;

    // Done.
    let (rent, rent_thread) = nudged(&bot, &fake, "Pay rent").await;
    let done = click(&fake, &rent, OWNER, "done");
    assert_eq!(
        common::interaction_callback(&fake, &done).await["type"],
        6,
        "a deferred update"
    );
    assert!(common::sent_to(&fake, rent_thread, "Marked 'Pay rent' as done.").await);
    assert_eq!(task(&bot, &rent.task_id).await["status"], "done");

    // Snooze 1h (now is Monday 10:00 UTC).
    let (gym, gym_thread) = nudged(&bot, &fake, "Gym").await;
    let snooze = click(&fake, &gym, FRIEND, "snooze");
    assert_eq!(
        common::interaction_callback(&fake, &snooze).await["type"],
        6
    );
    assert!(
        common::sent_to(
            &fake,
            gym_thread,
            "Snoozed 'Gym' for 1 hour (until today at 11:00)."
        )
        .await,
        "{:?}",
        fake.sent_messages()
    );
    assert_eq!(
        task(&bot, &gym.task_id).await["snoozed_until"],
        "2026-11-23T11:00:00+00:00"
    );

    // Tomorrow.
    let (call, call_thread) = nudged(&bot, &fake, "Call mom").await;
    let tomorrow = click(&fake, &call, OWNER, "tomorrow");
    assert_eq!(
        common::interaction_callback(&fake, &tomorrow).await["type"],
        6
    );
    assert!(common::sent_to(&fake, call_thread, "Moved 'Call mom' to tomorrow at 09:00.").await);
    assert_eq!(
        task(&bot, &call.task_id).await["scheduled_start"],
        "2026-11-24T09:00:00+00:00"
    );

    // The click's turn is in the chat like a typed one: "undo" there takes it back.
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, call_thread, OWNER, "undo"));
    let undone = eventually(WAIT, || async {
        task(&bot, &call.task_id).await["scheduled_start"].is_null()
    })
    .await;
    assert!(undone, "{}", task(&bot, &call.task_id).await);
    let (_, messages) = bot
        .get(&format!("/api/threads/{call_thread}/messages"))
        .await;
    let said_there: Vec<&str> = messages
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "user")
        .filter_map(|m| m["text"].as_str())
        .collect();
    assert_eq!(
        said_there,
        ["tomorrow", "undo"],
        "the chat remembers the word the button stands for"
    );
}

#[actix_rt::test]
async fn a_second_click_or_a_click_on_an_older_nudge_says_why_privately_and_changes_nothing() {
    let fake = start_fake_discord().await;
    let bot = bot(&fake).await;
    let (older, thread) = nudged(&bot, &fake, "Water plants").await;
    // A second nudge of the same task goes into its thread, with its own buttons.
    let before = nudges_in(&fake, thread);
    let (status, _) = bot
        .post(
            "/api/nudges",
            json!({ "task_id": older.task_id, "channel": "discord" }),
        )
        .await;
    assert_eq!(status, 200);
    let newer = last_nudge(&fake, thread, before).await;
    assert_ne!(newer.nudge_id, older.nudge_id);
    assert!(
        disabled(&fake, &older).await,
        "the replaced nudge's buttons"
    );
    let sent_before = fake.sent_messages().len();

    let stale = click(&fake, &older, OWNER, "done");
    let text = common::ephemeral_text(&common::interaction_callback(&fake, &stale).await);
    assert!(
        text.contains("newer reminder") && text.contains("Water plants"),
        "{text}"
    );
    // A refused click runs no turn: its private answer is all that happens.
    assert_eq!(task(&bot, &older.task_id).await["status"], "backlog");

    // The newer nudge answers, once: a double click applies one snooze.
    let first = click(&fake, &newer, OWNER, "snooze");
    let second = click(&fake, &newer, OWNER, "snooze");
    assert_eq!(common::interaction_callback(&fake, &first).await["type"], 6);
    let text = common::ephemeral_text(&common::interaction_callback(&fake, &second).await);
    assert!(text.contains("already answered"), "{text}");
    assert!(
        common::sent_to(
            &fake,
            thread,
            "Snoozed 'Water plants' for 1 hour (until today at 11:00)."
        )
        .await
    );
    assert!(disabled(&fake, &newer).await, "answered by a click");
    // Later, another button of the same nudge: still refused, still nothing.
    bot.clock.advance(chrono::Duration::minutes(5));
    let late = click(&fake, &newer, OWNER, "done");
    assert!(
        common::ephemeral_text(&common::interaction_callback(&fake, &late).await)
            .contains("already answered")
    );
    // The same interaction delivered again: one message, answered once more, nothing applied.
    fake.redeliver_interaction(first.id);
    let twice = eventually(WAIT, || async {
        fake.requests_to("POST", &format!("/interactions/{}/", first.id))
            .len()
            >= 2
    })
    .await;
    assert!(twice);
    let now = task(&bot, &older.task_id).await;
    assert_eq!(now["status"], "backlog", "{now}");
    assert_eq!(now["snoozed_until"], "2026-11-23T11:00:00+00:00", "{now}");
    let snoozes = fake
        .sent_messages()
        .iter()
        .skip(sent_before)
        .filter(|(_, text)| text.starts_with("Snoozed"))
        .count();
    assert_eq!(snoozes, 1, "{:?}", fake.sent_messages());
}

#[actix_rt::test]
async fn someone_elses_click_is_refused_privately_and_the_buttons_stay() {
    let fake = start_fake_discord().await;
    let bot = bot(&fake).await;
    let (nudge, _thread) = nudged(&bot, &fake, "Book dentist").await;
    let sent_before = fake.sent_messages().len();
    let theirs = click(&fake, &nudge, STRANGER, "done");
    let text = common::ephemeral_text(&common::interaction_callback(&fake, &theirs).await);
    assert!(text.contains("not yours"), "{text}");
    assert_eq!(task(&bot, &nudge.task_id).await["status"], "backlog");
    assert_eq!(fake.sent_messages().len(), sent_before, "nothing said");
    assert!(enabled_now(&fake, &nudge), "still there for the owner");
    // The owner's click still works.
    let mine = click(&fake, &nudge, OWNER, "done");
    assert_eq!(common::interaction_callback(&fake, &mine).await["type"], 6);
    let done = eventually(WAIT, || async {
        task(&bot, &nudge.task_id).await["status"] == "done"
    })
    .await;
    assert!(done);
}

#[actix_rt::test]
async fn done_by_typing_disables_the_buttons_and_a_click_after_it_is_refused() {
    let fake = start_fake_discord().await;
    let bot = bot(&fake).await;
    let (nudge, thread) = nudged(&bot, &fake, "Renew passport").await;
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, thread, OWNER, "done"));
    assert!(common::sent_to(&fake, thread, "Marked 'Renew passport' as done.").await);
    assert!(disabled(&fake, &nudge).await, "buttons left enabled");
    let edits = fake.requests_to(
        "PATCH",
        &format!("/channels/{NUDGE_CHANNEL}/messages/{}", nudge.message_id),
    );
    assert_eq!(edits.len(), 1, "edited once: {edits:?}");
    // A click that was already on its way: told, privately.
    let late = click(&fake, &nudge, OWNER, "snooze");
    let text = common::ephemeral_text(&common::interaction_callback(&fake, &late).await);
    assert_eq!(
        text,
        "'Renew passport' is done already, so nothing changed."
    );
    assert!(task(&bot, &nudge.task_id).await["snoozed_until"].is_null());
}

#[actix_rt::test]
async fn a_nudge_in_the_dm_a_task_came_from_answers_that_task_even_after_other_talk() {
    let fake = start_fake_discord().await;
    let bot = bot(&fake).await;
    fake.dispatch_message_create(IncomingMessage::dm(DM, OWNER, "add pay the gas bill"));
    assert!(
        common::sent_to(&fake, DM, "Added 'Pay the gas bill'.").await,
        "{:?}",
        fake.sent_messages()
    );
    let (_, tasks) = bot.get("/api/tasks").await;
    let id = tasks[0]["id"].text().to_owned();
    let before = nudges_in(&fake, DM);
    let (status, opened) = bot.post("/api/nudges", json!({ "task_id": id })).await;
    assert_eq!(status, 200, "nudged in its chat: {opened}");
    let nudge = last_nudge(&fake, DM, before).await;
    assert_eq!(nudge.task_id, id);
    // Other talk after the nudge: a typed "done" would no longer answer it, a click still does.
    fake.dispatch_message_create(IncomingMessage::dm(DM, OWNER, "what's overdue?"));
    assert!(common::sent_to(&fake, DM, "Nothing is overdue.").await);
    let done = click(&fake, &nudge, OWNER, "done");
    assert_eq!(common::interaction_callback(&fake, &done).await["type"], 6);
    assert!(common::sent_to(&fake, DM, "Marked 'Pay the gas bill' as done.").await);
    assert_eq!(task(&bot, &id).await["status"], "done");
    assert!(disabled(&fake, &nudge).await);
}

fn slash_tasks(fake: &FakeDiscord) -> SentInteraction {
    fake.slash(SlashCommand {
        channel_id: DM,
        guild_id: None,
        user_id: OWNER,
        name: "tasks".to_owned(),
        options: Vec::new(),
    })
}

#[actix_rt::test]
async fn slash_tasks_pages_with_a_more_button_until_every_task_was_shown() {
    let fake = start_fake_discord().await;
    let bot = bot(&fake).await;
    let mut titles = BTreeSet::new();
    for n in 1..=60 {
        let title = format!("Chore {n:02}");
        bot.task(json!({ "title": title })).await;
        titles.insert(title);
    }
    let sent_before = fake.sent_messages().len();
    let tasks = slash_tasks(&fake);
    let first = common::interaction_callback(&fake, &tasks).await;
    let mut page = common::ephemeral_text(&first);
    let mut shown = Vec::new();
    let mut message_id = 0;
    for expected_start in [1, 21, 41] {
        assert!(page.chars().count() <= 2_000, "{page}");
        let lines: Vec<(usize, String)> = page
            .lines()
            .filter_map(|line| {
                let (n, title) = line.split_once(". ")?;
                Some((n.parse().ok()?, title.to_owned()))
            })
            .collect();
        assert_eq!(
            lines.first().map(|(n, _)| *n),
            Some(expected_start),
            "{page}"
        );
        assert_eq!(lines.len(), 20, "{page}");
        shown.extend(lines);
        // The message the page is in (created by the answer, updated by each click).
        if message_id == 0 {
            message_id = fake
                .interaction_message(tasks.id)
                .unwrap_or_else(|| panic!("the answer created no message"));
        }
        let Some(message) = fake.message(message_id) else {
            panic!("the page's message is unknown");
        };
        let buttons = buttons_of(&message);
        if expected_start == 41 {
            assert!(
                buttons.is_empty(),
                "no More after the last page: {buttons:?}"
            );
            assert!(page.ends_with("That's all."), "{page}");
            break;
        }
        let [(label, more, false)] = buttons.as_slice() else {
            panic!("one More button: {buttons:?}");
        };
        assert_eq!(label, "More");
        let clicked = fake.click(Click {
            channel_id: DM,
            guild_id: None,
            user_id: OWNER,
            message_id,
            custom_id: more.clone(),
        });
        let update = common::interaction_callback(&fake, &clicked).await;
        assert_eq!(update["type"], 7, "the page is replaced: {update}");
        page = update["data"]["content"].text().to_owned();
        assert_eq!(
            fake.message(message_id)
                .and_then(|m| m["content"].as_str().map(str::to_owned)),
            Some(page.clone())
        );
    }
    let numbers: Vec<usize> = shown.iter().map(|(n, _)| *n).collect();
    assert_eq!(numbers, (1..=60).collect::<Vec<_>>());
    let listed: BTreeSet<String> = shown.into_iter().map(|(_, title)| title).collect();
    assert_eq!(listed, titles, "every open task reachable");
    assert_eq!(
        fake.sent_messages().len(),
        sent_before,
        "all of it privately"
    );
}

#[actix_rt::test]
async fn slash_tasks_with_long_titles_stays_one_message_under_2000_characters() {
    let fake = start_fake_discord().await;
    let bot = bot(&fake).await;
    for n in 0..20 {
        let title: String = format!("{n:02} {}", "a rather long task title ".repeat(9))
            .chars()
            .take(200)
            .collect();
        bot.task(json!({ "title": title, "deadline": "2026-11-24T09:00:00Z" }))
            .await;
    }
    let tasks = slash_tasks(&fake);
    let page = common::ephemeral_text(&common::interaction_callback(&fake, &tasks).await);
    assert!(
        page.chars().count() <= 2_000,
        "{} characters",
        page.chars().count()
    );
    let lines: Vec<&str> = page.lines().filter(|l| l.contains("…")).collect();
    assert_eq!(lines.len(), 20, "{page}");
    assert!(
        lines.iter().all(|l| l.ends_with("(due tomorrow at 09:00)")),
        "{page}"
    );
    assert!(page.starts_with("Your open tasks (20):"), "{page}");
}

/// The turn checks a click again (its nudge may have been replaced or answered while the click
/// was on its way): such a message changes nothing and says nothing. Driven through the real
/// intake, as the Discord channel hands clicks over, without the channel's own check.
#[actix_rt::test]
async fn a_click_that_became_stale_on_its_way_changes_nothing_in_its_turn() {
    use donna::actions::Intent;
    use donna::conversation::Channel;
    use donna::turn::intake::Incoming;

    let bot = common::start_bot("").await;
    let task = bot
        .task(json!({ "title": "Stretch", "scheduled_start": "2026-11-23T09:00:00Z" }))
        .await;
    let first = bot.tick_nudger().await;
    assert_eq!(first.len(), 1, "{first:?}");
    bot.clock.advance(chrono::Duration::hours(5));
    let second = bot.tick_nudger().await;
    assert_eq!(second.len(), 1, "{second:?}");
    assert_eq!(first[0].thread_id, second[0].thread_id);
    let click = |nudge_id: &str, message_id: &str| {
        Incoming::clicked(
            Channel::Local,
            first[0].thread_id.clone(),
            "owner",
            Intent::Snooze,
        )
        .with_message_id(message_id.to_owned())
        .answering_nudge(nudge_id)
    };
    // The older nudge: replaced.
    let stale = bot
        .app
        .intake
        .submit(click(&first[0].nudge_id, "click-1"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stale.path.as_str(), "unhandled");
    assert_eq!(stale.reply, None);
    assert!(bot.task_json(&task).await["snoozed_until"].is_null());
    // The newer one applies, once.
    let applied = bot
        .app
        .intake
        .submit(click(&second[0].nudge_id, "click-2"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(applied.path.as_str(), "fast", "{applied:?}");
    let snoozed = bot.task_json(&task).await["snoozed_until"].clone();
    assert_eq!(snoozed, "2026-11-23T16:00:00+00:00");
    bot.clock.advance(chrono::Duration::minutes(10));
    let again = bot
        .app
        .intake
        .submit(click(&second[0].nudge_id, "click-3"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.path.as_str(), "unhandled");
    assert_eq!(again.reply, None);
    assert_eq!(
        bot.task_json(&task).await["snoozed_until"],
        snoozed,
        "snoozed once"
    );
}
