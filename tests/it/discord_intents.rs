//! Discord's buttons enter the turn as the intents they stand for, never as their words read
//! back. With a vocabulary in which "done" moves a task, "tomorrow" snoozes it, "snooze" is no
//! keyword and "yes" says no (`common::swapped_words`), typed words do what that vocabulary
//! says while Done, Tomorrow, Snooze 1h and a proposal's Yes do what their buttons say; the chat
//! remembers the word each button stands for, and "undo" takes a click back. Against the fake
//! Discord on loopback, driven by the real twilight clients.

use crate::common;
use crate::discord_buttons::{click, nudged, WAIT};
use crate::discord_native::{click as answer, last_proposal, tell};

use common::fake_discord::{start_fake_discord, IncomingMessage};
use common::ids::{DM, GUILD, NUDGE_CHANNEL, OWNER};
use common::swapped_words::swapped_words;
use common::{discord_bot, eventually, sent_to, Bot};
use serde_json::{json, Value};

async fn task(bot: &Bot, id: &str) -> Value {
    bot.task_json(id).await
}

#[actix_rt::test]
async fn nudge_buttons_do_what_they_say_where_their_words_read_otherwise_and_undo_takes_them_back()
{
    let fake = start_fake_discord().await;
    let (_vocabulary, intents) = swapped_words();
    let bot = discord_bot(&fake, &[OWNER], NUDGE_CHANNEL, &intents).await;

    // Typed, "done" is what this vocabulary says: it moves the task, it does not finish it.
    let (plants, plants_thread) = nudged(&bot, &fake, "Water plants").await;
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, plants_thread, OWNER, "done"));
    let moved = eventually(WAIT, || async {
        !task(&bot, &plants.task_id).await["scheduled_start"].is_null()
    })
    .await;
    assert!(moved, "{}", task(&bot, &plants.task_id).await);
    assert_ne!(task(&bot, &plants.task_id).await["status"], "done");

    // The Done button finishes its task.
    let (rent, rent_thread) = nudged(&bot, &fake, "Pay rent").await;
    let done = click(&fake, &rent, OWNER, "done");
    assert_eq!(common::interaction_callback(&fake, &done).await["type"], 6);
    assert!(sent_to(&fake, rent_thread, "Marked 'Pay rent' as done.").await);
    assert_eq!(task(&bot, &rent.task_id).await["status"], "done");
    assert_eq!(
        bot.said_in(&rent_thread.to_string(), "user").await,
        ["done"]
    );
    // "undo" in its chat takes the click back.
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, rent_thread, OWNER, "undo"));
    let reopened = eventually(WAIT, || async {
        task(&bot, &rent.task_id).await["status"] == "backlog"
    })
    .await;
    assert!(reopened, "{}", task(&bot, &rent.task_id).await);
    assert_eq!(
        bot.said_in(&rent_thread.to_string(), "user").await,
        ["done", "undo"]
    );

    // Tomorrow moves it to tomorrow (typed, "tomorrow" would snooze it here).
    let (call, call_thread) = nudged(&bot, &fake, "Call mom").await;
    let tomorrow = click(&fake, &call, OWNER, "tomorrow");
    assert_eq!(
        common::interaction_callback(&fake, &tomorrow).await["type"],
        6
    );
    assert!(sent_to(&fake, call_thread, "Moved 'Call mom' to tomorrow at 09:00.").await);
    let moved = task(&bot, &call.task_id).await;
    assert_eq!(moved["scheduled_start"], "2026-11-24T09:00:00+00:00");
    assert!(moved["snoozed_until"].is_null(), "{moved}");

    // Snooze 1h snoozes it ("snooze" is no keyword here at all).
    let (gym, gym_thread) = nudged(&bot, &fake, "Gym").await;
    let snooze = click(&fake, &gym, OWNER, "snooze");
    assert_eq!(
        common::interaction_callback(&fake, &snooze).await["type"],
        6
    );
    assert!(
        sent_to(
            &fake,
            gym_thread,
            "Snoozed 'Gym' for 1 hour (until today at 11:00)."
        )
        .await
    );
    assert_eq!(
        bot.said_in(&gym_thread.to_string(), "user").await,
        ["snooze 1h"]
    );
}

#[actix_rt::test]
async fn a_proposals_yes_button_confirms_it_where_a_typed_yes_says_no() {
    let fake = start_fake_discord().await;
    let (_vocabulary, intents) = swapped_words();
    let bot = discord_bot(&fake, &[OWNER], NUDGE_CHANNEL, &intents).await;
    let ask = "every monday at 9 remind me to submit the timesheet";

    // Typed, "yes" says no in this vocabulary.
    tell(&fake, DM, OWNER, ask).await;
    let first = last_proposal(&fake, DM);
    tell(&fake, DM, OWNER, "yes").await;
    assert!(sent_to(&fake, DM, "OK, I won't do that.").await);
    let (_, automations) = bot.get("/api/automations").await;
    assert_eq!(automations, json!([]), "typed yes: nothing runs");
    let (_, plans) = bot.get("/api/proposals").await;
    assert_eq!(plans, json!([]), "{} was rejected", first.plan_id);

    // The Yes button says yes.
    tell(&fake, DM, OWNER, ask).await;
    let second = last_proposal(&fake, DM);
    let yes = answer(&fake, DM, OWNER, &second, "yes");
    assert_eq!(common::interaction_callback(&fake, &yes).await["type"], 6);
    let made = eventually(WAIT, || async {
        bot.get("/api/automations").await.1.as_array().map(Vec::len) == Some(1)
    })
    .await;
    assert!(made, "{}", bot.get("/api/automations").await.1);
    let said = bot.said_in(&DM.to_string(), "user").await;
    assert_eq!(said.last().map(String::as_str), Some("yes"), "{said:?}");
}
