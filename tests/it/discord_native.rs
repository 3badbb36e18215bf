//! Discord-native answers against the fake Discord on loopback, driven by the real twilight
//! clients: "Yes" / "No" buttons on proposals (a click answers exactly its plan, once, only for
//! the person it was for, only while live; buttons disabled once answered), slash commands, and
//! the typing indicator.

use crate::common;
use crate::common::{Fields, Needed};

use std::time::Duration;

use common::discord_messages::{bot_messages, buttons_of};
use common::fake_discord::{
    start_fake_discord, Click, FakeDiscord, IncomingMessage, SentInteraction, SlashCommand,
    BOT_USER_ID,
};
use common::{eventually, wait_ready, Bot, TestConfig};
use donna::config::LlmProvider;
use serde_json::Value;

use common::ids::{DM, FRIEND, GENERAL, GUILD, OWNER, STRANGER};
const WAIT: Duration = Duration::from_secs(10);

async fn native_bot(fake: &FakeDiscord, extra: &str) -> Bot {
    let bot = TestConfig::yaml(extra)
        .with_discord(fake, &[OWNER, FRIEND])
        .start()
        .await;
    wait_ready(&bot).await;
    bot
}

/// Waits until Donna answered interaction `id` a second time (a redelivery).
async fn answered_twice(fake: &FakeDiscord, id: u64) {
    let path = format!("/interactions/{id}/");
    let twice = eventually(WAIT, || async {
        fake.requests_to("POST", &path).len() >= 2
    })
    .await;
    assert!(twice, "the redelivered interaction {id} was never answered");
}

/// Waits until everything sent to `channel` before was handled: a chat's turns run in order,
/// so Donna's answer to a later question proves it.
async fn settle(fake: &FakeDiscord, channel: u64) {
    let before = fake
        .sent_messages()
        .iter()
        .filter(|(c, _)| *c == channel)
        .count();
    fake.dispatch_message_create(say(channel, OWNER, "what's overdue?"));
    let answered = eventually(WAIT, || async {
        fake.sent_messages()
            .iter()
            .filter(|(c, _)| *c == channel)
            .count()
            > before
    })
    .await;
    assert!(answered, "no answer in {channel}");
}

async fn task_titles(bot: &Bot) -> Vec<String> {
    let (_, list) = bot.get("/api/tasks").await;
    let mut titles: Vec<String> = list
        .items()
        .to_vec()
        .iter()
        .filter_map(|task| task["title"].as_str().map(str::to_owned))
        .collect();
    titles.sort();
    titles
}

/// A message of `author` in `channel` (a DM, or the guild channel mentioning Donna).
fn say(channel: u64, author: u64, text: &str) -> IncomingMessage {
    if channel == DM {
        IncomingMessage::dm(DM, author, text)
    } else {
        IncomingMessage::guild(GUILD, channel, author, &format!("<@{BOT_USER_ID}> {text}"))
            .mentioning_bot()
    }
}

/// Sends `text` and waits until Donna answered it (her message count in the channel grew).
pub(crate) async fn tell(fake: &FakeDiscord, channel: u64, author: u64, text: &str) {
    let before = bot_messages(fake, channel).len();
    fake.dispatch_message_create(say(channel, author, text));
    let answered = eventually(WAIT, || async {
        bot_messages(fake, channel).len() > before
    })
    .await;
    assert!(
        answered,
        "no answer to {text:?}: {:?}",
        fake.sent_messages()
    );
}

/// A proposal Donna sent: its message id and the plan its buttons bind.
#[derive(Debug, Clone)]
pub(crate) struct Proposal {
    pub message_id: u64,
    pub plan_id: String,
}

/// Donna's latest message in `channel`, which must be a proposal with buttons.
pub(crate) fn last_proposal(fake: &FakeDiscord, channel: u64) -> Proposal {
    let message = bot_messages(fake, channel)
        .pop()
        .unwrap_or_else(|| panic!("no message from Donna in {channel}"));
    let buttons = buttons_of(&message);
    let Some((_, yes, false)) = buttons.first().cloned() else {
        panic!("no enabled buttons under {message}");
    };
    let plan_id = yes
        .strip_prefix("plan:")
        .and_then(|rest| rest.strip_suffix(":yes"))
        .unwrap_or_else(|| panic!("not a yes button: {yes}"))
        .to_owned();
    assert_eq!(
        buttons,
        vec![
            ("Yes".to_owned(), format!("plan:{plan_id}:yes"), false),
            ("No".to_owned(), format!("plan:{plan_id}:no"), false),
        ]
    );
    Proposal {
        message_id: message["id"]
            .as_str()
            .and_then(|id| id.parse().ok())
            .unwrap_or(0),
        plan_id,
    }
}

/// "add <title>" twice: the second is a likely duplicate, proposed with buttons.
async fn propose_duplicate(fake: &FakeDiscord, channel: u64, author: u64, title: &str) -> Proposal {
    tell(fake, channel, author, &format!("add {title}")).await;
    tell(fake, channel, author, &format!("add {title}")).await;
    last_proposal(fake, channel)
}

pub(crate) fn click(
    fake: &FakeDiscord,
    channel: u64,
    user: u64,
    proposal: &Proposal,
    answer: &str,
) -> SentInteraction {
    fake.click(Click {
        channel_id: channel,
        guild_id: (channel != DM).then_some(GUILD),
        user_id: user,
        message_id: proposal.message_id,
        custom_id: format!("plan:{}:{answer}", proposal.plan_id),
    })
}

async fn buttons_disabled(fake: &FakeDiscord, proposal: &Proposal) -> bool {
    eventually(WAIT, || async {
        fake.message(proposal.message_id)
            .map(|m| buttons_of(&m))
            .is_some_and(|b| b.len() == 2 && b.iter().all(|(_, _, disabled)| *disabled))
    })
    .await
}

#[actix_rt::test]
async fn a_yes_click_confirms_exactly_that_plan_once() {
    let fake = start_fake_discord().await;
    let bot = native_bot(&fake, "").await;
    let proposal = propose_duplicate(&fake, DM, OWNER, "Renew passport").await;
    assert_eq!(
        task_titles(&bot).await,
        ["Renew passport"],
        "proposed, not created"
    );

    // A double click: two interactions at once. Both are acknowledged; one applies.
    let first = click(&fake, DM, OWNER, &proposal, "yes");
    let second = click(&fake, DM, OWNER, &proposal, "yes");
    let ack = common::interaction_callback(&fake, &first).await;
    assert_eq!(ack["type"], 6, "a deferred update: {ack}");
    let _ = common::interaction_callback(&fake, &second).await;
    let created = eventually(WAIT, || async { task_titles(&bot).await.len() == 2 }).await;
    assert!(created, "{:?}", task_titles(&bot).await);
    assert!(
        buttons_disabled(&fake, &proposal).await,
        "buttons stay enabled"
    );

    // The same interaction delivered again, and a later click: nothing more.
    fake.redeliver_interaction(first.id);
    let late = click(&fake, DM, OWNER, &proposal, "yes");
    let text = common::ephemeral_text(&common::interaction_callback(&fake, &late).await);
    assert!(text.contains("already answered"), "{text}");
    // The redelivered click was answered too (Discord refuses its second callback), and a
    // refused click runs no turn: its answer is the last thing that happens.
    answered_twice(&fake, first.id).await;
    assert_eq!(
        task_titles(&bot).await,
        ["Renew passport", "Renew passport"],
        "created exactly once"
    );
}

#[actix_rt::test]
async fn a_click_by_someone_else_is_refused_privately_and_changes_nothing() {
    let fake = start_fake_discord().await;
    let bot = native_bot(&fake, "").await;
    let proposal = propose_duplicate(&fake, GENERAL, OWNER, "Water plants").await;
    let sent_before = fake.sent_messages().len();

    let theirs = click(&fake, GENERAL, FRIEND, &proposal, "yes");
    let text = common::ephemeral_text(&common::interaction_callback(&fake, &theirs).await);
    assert!(text.contains("not yours"), "{text}");
    // A stranger (not an allowed user) is refused the same way.
    let stranger = click(&fake, GENERAL, STRANGER, &proposal, "no");
    // A refused click runs no turn: its private answer is the last thing that happens.
    assert!(
        common::ephemeral_text(&common::interaction_callback(&fake, &stranger).await)
            .contains("not yours")
    );
    assert_eq!(task_titles(&bot).await, ["Water plants"]);
    assert_eq!(
        fake.sent_messages().len(),
        sent_before,
        "nothing said in the channel"
    );
    let message = fake.message(proposal.message_id).needed();
    assert!(
        buttons_of(&message)
            .iter()
            .all(|(_, _, disabled)| !disabled),
        "still live"
    );

    // The plan is still there for the person it was for.
    let mine = click(&fake, GENERAL, OWNER, &proposal, "yes");
    assert_eq!(common::interaction_callback(&fake, &mine).await["type"], 6);
    let created = eventually(WAIT, || async { task_titles(&bot).await.len() == 2 }).await;
    assert!(created, "{:?}", task_titles(&bot).await);
}

#[actix_rt::test]
async fn a_click_on_a_replaced_plan_says_so_and_never_confirms_the_newer_one() {
    let fake = start_fake_discord().await;
    let bot = native_bot(&fake, "").await;
    let older = propose_duplicate(&fake, DM, OWNER, "Renew passport").await;
    let newer = propose_duplicate(&fake, DM, OWNER, "Call mom").await;
    assert_ne!(older.plan_id, newer.plan_id);
    assert_eq!(task_titles(&bot).await, ["Call mom", "Renew passport"]);

    let stale = click(&fake, DM, OWNER, &older, "yes");
    let text = common::ephemeral_text(&common::interaction_callback(&fake, &stale).await);
    assert!(text.contains("replaced"), "{text}");
    assert!(
        buttons_disabled(&fake, &older).await,
        "the replaced proposal's buttons"
    );
    // The click on the replaced plan was refused before any turn (its answer arrived above).
    assert_eq!(
        task_titles(&bot).await,
        ["Call mom", "Renew passport"],
        "neither plan applied"
    );
    // The newer one is still live, and its own "No" rejects it.
    let no = click(&fake, DM, OWNER, &newer, "no");
    assert_eq!(common::interaction_callback(&fake, &no).await["type"], 6);
    assert!(buttons_disabled(&fake, &newer).await);
    assert_eq!(task_titles(&bot).await, ["Call mom", "Renew passport"]);
}

#[actix_rt::test]
async fn a_click_after_expiry_is_refused_and_the_buttons_are_disabled() {
    let fake = start_fake_discord().await;
    let bot = native_bot(&fake, "plans:\n  expiry: 10m\n").await;
    let proposal = propose_duplicate(&fake, DM, OWNER, "Pay rent").await;
    bot.clock.advance(chrono::Duration::minutes(11));
    let late = click(&fake, DM, OWNER, &proposal, "yes");
    let text = common::ephemeral_text(&common::interaction_callback(&fake, &late).await);
    assert!(text.contains("expired"), "{text}");
    assert!(buttons_disabled(&fake, &proposal).await);
    assert_eq!(task_titles(&bot).await, ["Pay rent"]);
}

#[actix_rt::test]
async fn a_typed_yes_disables_the_buttons() {
    let fake = start_fake_discord().await;
    let bot = native_bot(&fake, "").await;
    let proposal = propose_duplicate(&fake, DM, OWNER, "Book dentist").await;
    tell(&fake, DM, OWNER, "yes").await;
    assert_eq!(task_titles(&bot).await, ["Book dentist", "Book dentist"]);
    assert!(buttons_disabled(&fake, &proposal).await);
    let edits = fake.requests_to(
        "PATCH",
        &format!("/channels/{DM}/messages/{}", proposal.message_id),
    );
    assert_eq!(edits.len(), 1, "edited once: {edits:?}");
    // Replies that propose nothing carry no buttons.
    let plain: Vec<Value> = bot_messages(&fake, DM)
        .into_iter()
        .filter(|m| m["id"].as_str() != Some(proposal.message_id.to_string().as_str()))
        .collect();
    assert!(plain.iter().all(|m| buttons_of(m).is_empty()), "{plain:?}");
}

fn slash(
    fake: &FakeDiscord,
    channel: u64,
    name: &str,
    options: &[(&str, &str)],
) -> SentInteraction {
    fake.slash(SlashCommand {
        channel_id: channel,
        guild_id: (channel != DM).then_some(GUILD),
        user_id: OWNER,
        name: name.to_owned(),
        options: options
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    })
}

#[actix_rt::test]
async fn slash_add_captures_a_task_and_slash_tasks_lists_privately() {
    let fake = start_fake_discord().await;
    let bot = native_bot(&fake, "").await;
    let add = slash(&fake, DM, "add", &[("text", "buy milk tomorrow")]);
    let ack = common::interaction_callback(&fake, &add).await;
    assert_eq!(ack["type"], 5, "thinking: {ack}");
    assert_eq!(ack["data"]["flags"], 64, "privately: {ack}");
    let created = eventually(WAIT, || async { task_titles(&bot).await == ["Buy milk"] }).await;
    assert!(created, "{:?}", task_titles(&bot).await);
    // The capture's answer comes in the channel, as for a typed "add"; the thinking goes.
    let answered = eventually(WAIT, || async {
        fake.sent_messages()
            .iter()
            .any(|(c, text)| *c == DM && text.contains("Buy milk"))
    })
    .await;
    assert!(answered, "{:?}", fake.sent_messages());
    assert!(eventually(WAIT, || async { fake.original_deleted(add.id) }).await);

    // The same interaction again adds nothing.
    fake.redeliver_interaction(add.id);
    answered_twice(&fake, add.id).await;
    settle(&fake, DM).await;
    assert_eq!(task_titles(&bot).await, ["Buy milk"]);

    let sent_before = fake.sent_messages().len();
    let tasks = slash(&fake, DM, "tasks", &[]);
    let text = common::ephemeral_text(&common::interaction_callback(&fake, &tasks).await);
    assert!(text.contains("Buy milk"), "{text}");
    let overdue = slash(&fake, DM, "tasks", &[("status", "overdue")]);
    assert_eq!(
        common::ephemeral_text(&common::interaction_callback(&fake, &overdue).await),
        "Nothing is overdue."
    );
    assert_eq!(
        fake.sent_messages().len(),
        sent_before,
        "nothing said in the channel"
    );
}

#[actix_rt::test]
async fn slash_pending_names_the_proposal_waiting_for_a_yes() {
    let fake = start_fake_discord().await;
    let _bot = native_bot(&fake, "").await;
    let pending = slash(&fake, DM, "pending", &[]);
    let nothing = common::ephemeral_text(&common::interaction_callback(&fake, &pending).await);
    let _proposal = propose_duplicate(&fake, DM, OWNER, "Renew passport").await;
    let pending = slash(&fake, DM, "pending", &[]);
    let waiting = common::ephemeral_text(&common::interaction_callback(&fake, &pending).await);
    assert!(waiting.contains("Renew passport"), "{waiting}");
    assert!(!nothing.contains("Renew passport"), "{nothing}");
}

#[actix_rt::test]
async fn commands_are_registered_once_per_start_in_the_configured_guild() {
    let fake = start_fake_discord().await;
    let bot = TestConfig::new()
        .with_discord(&fake, &[OWNER, FRIEND])
        .with_command_guild(GUILD)
        .start()
        .await;
    wait_ready(&bot).await;
    let registered = eventually(WAIT, || async { fake.command_registrations().len() == 1 }).await;
    assert!(registered, "{:?}", fake.command_registrations());
    let request = &fake.command_registrations()[0];
    assert_eq!(
        request.path,
        format!(
            "/api/v10/applications/{}/guilds/{GUILD}/commands",
            common::fake_discord::APPLICATION_ID
        )
    );
    let names: Vec<&str> = request
        .body
        .as_ref()
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|command| command["name"].as_str())
        .collect();
    assert_eq!(names, ["tasks", "add", "undo", "pending", "timezone"]);
    // A new session (READY again) registers nothing more.
    let identifies = fake.identify_count();
    fake.send_invalid_session(false);
    let again = eventually(WAIT, || async {
        fake.identify_count() > identifies && fake.has_live_session()
    })
    .await;
    assert!(again);
    // The new session's READY came before this message: once it is answered, READY was handled.
    settle(&fake, DM).await;
    assert_eq!(fake.command_registrations().len(), 1);
}

#[actix_rt::test]
async fn without_a_guild_commands_are_registered_globally() {
    let fake = start_fake_discord().await;
    let _bot = native_bot(&fake, "").await;
    let registered = eventually(WAIT, || async { fake.command_registrations().len() == 1 }).await;
    assert!(registered);
    assert_eq!(
        fake.command_registrations()[0].path,
        format!(
            "/api/v10/applications/{}/commands",
            common::fake_discord::APPLICATION_ID
        )
    );
}

#[actix_rt::test]
async fn typing_shows_while_a_turn_waits_for_the_model_and_never_for_instant_turns() {
    let llm = common::fake_llm::start_fake_llm();
    let route = serde_json::json!({"intent": "question", "confidence": 0.9}).to_string();
    llm.always(common::fake_llm::Script::Delay(
        Duration::from_millis(300),
        Box::new(common::fake_llm::Script::Output(route)),
    ));
    let fake = start_fake_discord().await;
    let bot = TestConfig::new()
        .with_discord(&fake, &[OWNER, FRIEND])
        .with_llm(&llm, LlmProvider::Ollama, 5, 2)
        .start()
        .await;
    wait_ready(&bot).await;
    // Instant turns: a capture, a common question, a bare "yes" with nothing to confirm.
    for text in ["add buy milk", "list my tasks", "yes"] {
        tell(&fake, DM, OWNER, text).await;
    }
    assert_eq!(fake.typing_count(DM), 0, "no typing for instant turns");
    assert!(llm.requests().is_empty(), "no model was asked");
    // A message no rule takes goes to the model: typing while it thinks.
    tell(
        &fake,
        DM,
        OWNER,
        "hmm what do you make of the weather lately",
    )
    .await;
    assert!(!llm.requests().is_empty(), "the model was asked");
    let typed = fake.requests_to("POST", &format!("/channels/{DM}/typing"));
    assert_eq!(typed.len(), 1, "{typed:?}");
    let answer = fake
        .requests_to("POST", &format!("/channels/{DM}/messages"))
        .pop()
        .map(|r| r.at);
    assert!(
        answer.is_some_and(|at| typed[0].at <= at),
        "typing before the answer"
    );
    assert_eq!(task_titles(&bot).await, ["Buy milk"]);
}
