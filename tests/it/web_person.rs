//! The page is the person `http.web_user_id` names. Set to the owner's Discord user id, the page
//! is the owner, not a second person: it shows the zone they set on Discord and Yes / No on the
//! proposals Donna made for them there, and its Yes answers in their Discord chat; a proposal
//! made for someone else still shows no buttons and its answer from the page is refused. In real
//! Chromium, against the fake Discord on loopback.

use crate::common;
use crate::discord_buttons::WAIT;
use crate::discord_native::{last_proposal, tell};

use common::browser::Browser;
use common::discord_messages::{bot_messages, buttons_of};
use common::fake_discord::start_fake_discord;
use common::ids::{DM, FRIEND, FRIEND_DM, NUDGE_CHANNEL, OWNER};
use common::page::{button_in, for_someone_else, open_page};
use common::{discord_bot, eventually};
use serde_json::json;

#[actix_rt::test]
async fn set_to_the_owners_discord_id_the_page_shares_their_zone_and_answers_their_proposals() {
    let fake = start_fake_discord().await;
    let bot = discord_bot(
        &fake,
        &[OWNER, FRIEND],
        NUDGE_CHANNEL,
        &format!("http:\n  web_user_id: \"{OWNER}\"\n"),
    )
    .await;
    // On Discord: the owner's zone, and a proposal for each of them.
    tell(&fake, DM, OWNER, "my time zone is Europe/Paris").await;
    tell(
        &fake,
        DM,
        OWNER,
        "every monday at 9 remind me to submit the timesheet",
    )
    .await;
    let owners = last_proposal(&fake, DM);
    tell(
        &fake,
        FRIEND_DM,
        FRIEND,
        "every day at 8am remind me to stretch",
    )
    .await;
    let friends = last_proposal(&fake, FRIEND_DM);

    let (_, chat) = bot.post("/api/web/chat", json!({})).await;
    assert_eq!(chat["user_id"], OWNER.to_string(), "{chat}");
    assert_eq!(chat["timezone"], "Europe/Paris", "{chat}");
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    tab.wait_until(
        "the owner's zone",
        "document.getElementById('zone').textContent === 'Times in Europe/Paris.'",
    )
    .await;
    for_someone_else(&tab, "Stretch").await;
    // The owner's Discord proposal has Yes / No on the page, and its Yes answers it there.
    let said_before = bot_messages(&fake, DM).len();
    tab.click(&button_in("Waiting for you", "Submit the timesheet", "Yes"))
        .await;
    let made = eventually(WAIT, || async {
        bot.get("/api/automations").await.1.as_array().map(Vec::len) == Some(1)
    })
    .await;
    assert!(made, "{}", bot.get("/api/automations").await.1);
    let answered_there = eventually(WAIT, || async {
        bot_messages(&fake, DM).len() > said_before
    })
    .await;
    assert!(answered_there, "no answer in the owner's DM");
    let disabled = eventually(WAIT, || async {
        fake.message(owners.message_id)
            .map(|m| buttons_of(&m))
            .is_some_and(|b| b.len() == 2 && b.iter().all(|(_, _, off)| *off))
    })
    .await;
    assert!(disabled, "the Discord buttons of the answered proposal");
    // The friend's proposal is still theirs alone.
    let (status, refused) = bot
        .post(
            "/api/web/answers",
            json!({ "plan_id": friends.plan_id, "answer": "yes" }),
        )
        .await;
    assert_eq!(status, 403, "{refused}");
    let (_, waiting) = bot.get("/api/proposals").await;
    assert_eq!(waiting[0]["id"], json!(friends.plan_id), "{waiting}");
}
