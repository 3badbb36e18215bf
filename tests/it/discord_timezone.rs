//! Discord's `/timezone` against the fake Discord on loopback, driven by the real twilight
//! clients: autocomplete over IANA names while the person types, the zone set privately and
//! honoured by their next capture and by `/tasks`, an unknown name answered with the nearest
//! names, the command registered with autocomplete.

use crate::common;
use crate::common::{Fields, Needed};

use std::time::Duration;

use common::fake_discord::{start_fake_discord, FakeDiscord, IncomingMessage, SlashCommand};
use common::{eventually, wait_ready, Bot, TestConfig};
use serde_json::Value;

use common::ids::{DM, OWNER, STRANGER};
const WAIT: Duration = Duration::from_secs(10);

async fn bot(fake: &FakeDiscord) -> Bot {
    let bot = TestConfig::new().with_discord(fake, &[OWNER]).start().await;
    wait_ready(&bot).await;
    bot
}

fn command(user: u64, name: &str, options: &[(&str, &str)]) -> SlashCommand {
    SlashCommand {
        channel_id: DM,
        guild_id: None,
        user_id: user,
        name: name.to_owned(),
        options: options
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    }
}

fn choices(callback: &Value) -> Vec<String> {
    assert_eq!(callback["type"], 8, "an autocomplete result: {callback}");
    callback["data"]["choices"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|choice| {
            assert_eq!(choice["name"], choice["value"], "{choice}");
            choice["name"].text().to_owned()
        })
        .collect()
}

async fn zone_of(bot: &Bot, user: u64) -> String {
    let (_, person) = bot.get(&format!("/api/people/{user}")).await;
    person["timezone"].text().to_owned()
}

#[actix_rt::test]
async fn autocomplete_offers_iana_names_as_the_person_types() {
    let fake = start_fake_discord().await;
    let _bot = bot(&fake).await;
    let typed = fake.autocomplete(command(OWNER, "timezone", &[("zone", "berl")]), "zone");
    let names = choices(&common::interaction_callback(&fake, &typed).await);
    assert_eq!(
        names.first().map(String::as_str),
        Some("Europe/Berlin"),
        "{names:?}"
    );
    let typed = fake.autocomplete(command(OWNER, "timezone", &[("zone", "new_y")]), "zone");
    let names = choices(&common::interaction_callback(&fake, &typed).await);
    assert!(names.contains(&"America/New_York".to_owned()), "{names:?}");
    let typed = fake.autocomplete(command(OWNER, "timezone", &[("zone", "")]), "zone");
    assert_eq!(
        choices(&common::interaction_callback(&fake, &typed).await).len(),
        25
    );
    // Someone Donna does not work for gets no names.
    let typed = fake.autocomplete(command(STRANGER, "timezone", &[("zone", "berl")]), "zone");
    assert!(choices(&common::interaction_callback(&fake, &typed).await).is_empty());
    // Registered with autocomplete on its option.
    let registered = fake.command_registrations();
    let commands = registered
        .last()
        .and_then(|request| request.body.clone())
        .needed();
    let timezone = commands
        .as_array()
        .into_iter()
        .flatten()
        .find(|command| command["name"] == "timezone")
        .cloned()
        .needed();
    assert_eq!(timezone["options"][0]["autocomplete"], true, "{commands}");
}

#[actix_rt::test]
async fn slash_timezone_sets_the_zone_privately_and_the_next_capture_is_read_in_it() {
    let fake = start_fake_discord().await;
    let bot = bot(&fake).await;
    let unknown = fake.slash(command(OWNER, "timezone", &[("zone", "Tokio")]));
    let text = common::ephemeral_text(&common::interaction_callback(&fake, &unknown).await);
    assert!(text.contains("Did you mean Asia/Tokyo"), "{text}");
    assert_eq!(zone_of(&bot, OWNER).await, "UTC");

    let set = fake.slash(command(OWNER, "timezone", &[("zone", "Europe/Berlin")]));
    assert_eq!(
        common::ephemeral_text(&common::interaction_callback(&fake, &set).await),
        "Your time zone is now Europe/Berlin; it's 11:00 there."
    );
    assert_eq!(zone_of(&bot, OWNER).await, "Europe/Berlin");
    let shown = fake.slash(command(OWNER, "timezone", &[]));
    assert_eq!(
        common::ephemeral_text(&common::interaction_callback(&fake, &shown).await),
        "Your time zone is Europe/Berlin; it's 11:00 there."
    );

    // 11:00 in Berlin: "tomorrow at 9am" is 08:00 UTC, and said as 09:00.
    fake.dispatch_message_create(IncomingMessage::dm(
        DM,
        OWNER,
        "remind me to call mom tomorrow at 9am",
    ));
    let answered = eventually(WAIT, || async {
        fake.sent_messages()
            .iter()
            .any(|(c, text)| *c == DM && text.contains("tomorrow at 09:00"))
    })
    .await;
    assert!(answered, "{:?}", fake.sent_messages());
    let (_, tasks) = bot.get("/api/tasks").await;
    assert_eq!(
        tasks[0]["scheduled_start"], "2026-11-24T08:00:00+00:00",
        "{tasks}"
    );
    assert_eq!(tasks[0]["created_by"], OWNER.to_string(), "{tasks}");
    let listed = fake.slash(command(OWNER, "tasks", &[("status", "tomorrow")]));
    let text = common::ephemeral_text(&common::interaction_callback(&fake, &listed).await);
    assert!(text.contains("09:00") && !text.contains("08:00"), "{text}");
}
