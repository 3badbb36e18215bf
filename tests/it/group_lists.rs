//! A list asked for in a group chat, through the fake Discord on loopback with the real twilight
//! clients: two members of one guild channel, each with tasks of their own DM. "list my tasks"
//! (and "what's overdue?", the agenda) in the group names only the group's tasks and counts the
//! asker's others without naming them; the list's "more" pages on only for the one who asked;
//! in a DM nothing changes.

use crate::common;

use chrono::Duration as Days;
use common::fake_discord::{start_fake_discord, FakeDiscord, IncomingMessage, BOT_USER_ID};
use common::ids::{self, GUILD, NUDGE_CHANNEL};
use common::{discord_bot, eventually, monday_10am, Bot};
use donna::tasks::{repo, NewTask, TaskSource};
use std::time::Duration;

/// Ann is the owner; Bob, a friend she shares the group with.
const ANN: u64 = ids::OWNER;
const BOB: u64 = ids::FRIEND;
const GROUP: u64 = ids::GENERAL;
const ANN_DM: u64 = ids::DM;
const BOB_DM: u64 = ids::FRIEND_DM;

/// The private tasks of each member: never named in the group.
const ANNS: [&str; 3] = [
    "Ann's biopsy results",
    "Ann's rent arrears",
    "Ann's lawyer call",
];
const BOBS: [&str; 2] = ["Bob's therapy session", "Bob's loan papers"];

/// Donna's messages in `channel` after the first `seen`, once there are more than `seen`.
async fn next_in(fake: &FakeDiscord, channel: u64, seen: usize) -> String {
    let sent = || -> Vec<String> {
        fake.sent_messages()
            .into_iter()
            .filter(|(c, _)| *c == channel)
            .map(|(_, text)| text)
            .collect()
    };
    let arrived = eventually(Duration::from_secs(15), || async { sent().len() > seen }).await;
    assert!(
        arrived,
        "no answer in {channel}: {:?}",
        fake.sent_messages()
    );
    sent()[seen..].join("\n")
}

fn count_in(fake: &FakeDiscord, channel: u64) -> usize {
    fake.sent_messages()
        .iter()
        .filter(|(c, _)| *c == channel)
        .count()
}

/// `author` says `text` in the group, addressed to Donna; her answer.
async fn in_group(fake: &FakeDiscord, author: u64, text: &str) -> String {
    let seen = count_in(fake, GROUP);
    fake.dispatch_message_create(
        IncomingMessage::guild(GUILD, GROUP, author, &format!("<@{BOT_USER_ID}> {text}"))
            .mentioning_bot(),
    );
    next_in(fake, GROUP, seen).await
}

async fn in_dm(fake: &FakeDiscord, channel: u64, author: u64, text: &str) -> String {
    let seen = count_in(fake, channel);
    fake.dispatch_message_create(IncomingMessage::dm(channel, author, text));
    next_in(fake, channel, seen).await
}

/// A task captured in chat `origin` by `by`, overdue since yesterday, as the capture room
/// stores it.
async fn stored(bot: &Bot, title: &str, origin: u64, by: u64) {
    let new = NewTask {
        deadline: Some(monday_10am() - Days::hours(25)),
        source: TaskSource::Capture,
        origin_thread_id: Some(origin.to_string()),
        created_by: Some(by.to_string()),
        ..NewTask::titled(title)
    };
    // Ids in title order: the list's order among tasks due at the same time.
    let id = format!("tsk_{}", title.to_lowercase().replace([' ', '\''], "_"));
    bot.app
        .store
        .write(move |conn| repo::insert(conn, &id, &new, monday_10am()))
        .await
        .unwrap_or_else(|e| panic!("insert: {e}"));
}

fn names_none_of(answer: &str, private: &[&str], who: &str) {
    for title in private {
        assert!(
            !answer.contains(title),
            "{who}'s answer names {title:?}: {answer}"
        );
    }
}

#[actix_rt::test]
async fn a_group_list_names_only_the_groups_tasks_and_its_more_belongs_to_the_asker() {
    let fake = start_fake_discord().await;
    let bot = discord_bot(&fake, &[ANN, BOB], NUDGE_CHANNEL, "").await;
    // Each member has written in their DM (so it is theirs) and in the group.
    in_dm(&fake, ANN_DM, ANN, "add water the ficus").await;
    in_dm(&fake, BOB_DM, BOB, "add oil the bike chain").await;
    in_group(&fake, ANN, "add book the team lunch").await;
    for title in ANNS {
        stored(&bot, title, ANN_DM, ANN).await;
    }
    for title in BOBS {
        stored(&bot, title, BOB_DM, BOB).await;
    }
    // More than a page of the group's own tasks, so the group's list has a "more".
    for n in 1..=24 {
        stored(&bot, &format!("Group chore number {n:02}"), GROUP, ANN).await;
    }
    let everyone_private: Vec<&str> = ANNS
        .iter()
        .chain(BOBS.iter())
        .copied()
        .chain(["Water the ficus", "Oil the bike chain"])
        .collect();

    // (asker, question, how many of theirs are elsewhere: the DM capture has no deadline)
    for (asker, question, own_elsewhere) in [
        (ANN, "list my tasks", 4),
        (BOB, "list my tasks", 3),
        (ANN, "what's overdue?", 3),
        (BOB, "what's overdue?", 2),
    ] {
        let answer = in_group(&fake, asker, question).await;
        names_none_of(&answer, &everyone_private, &asker.to_string());
        assert!(answer.contains("in this chat"), "{question}: {answer}");
        assert!(
            answer.contains("Group chore number 01"),
            "{question}: {answer}"
        );
        assert!(
            answer.contains(&format!("and {own_elsewhere} more of yours")),
            "{asker} {question}: {answer}"
        );
    }
    let agenda = in_group(&fake, ANN, "send me my agenda").await;
    names_none_of(&agenda, &everyone_private, "Ann's agenda");

    // Ann asks; Bob's "more" does not page on through her list; Ann's does.
    let first = in_group(&fake, ANN, "list my tasks").await;
    assert!(!first.contains("Group chore number 24"), "{first}");
    let bobs_more = in_group(&fake, BOB, "more").await;
    assert!(!bobs_more.contains("Group chore number 24"), "{bobs_more}");
    assert!(bobs_more.contains("someone else"), "{bobs_more}");
    let anns_more = in_group(&fake, ANN, "more").await;
    assert!(anns_more.contains("Group chore number 24"), "{anns_more}");
    names_none_of(&anns_more, &everyone_private, "Ann's more");

    // In her own DM Ann's list is hers, as before: every chat she takes part in.
    let own = in_dm(&fake, ANN_DM, ANN, "list my tasks").await;
    assert!(own.contains("Ann's biopsy results"), "{own}");
    names_none_of(&own, &BOBS, "Ann's DM");
}
