//! Times in captures: each kind captured with a clean title, a time read only in part asked
//! about, a time Donna cannot read asked never guessed, and times that cannot be used.

use super::*;
use crate::common::Fields;

#[actix_rt::test]
async fn a_time_donna_cannot_read_is_asked_never_guessed() {
    let bot = start_bot(PARIS).await;
    let thread = bot.free_thread().await;
    for (sentence, reason) in [
        ("remind me to call the plumber at 3", "3am or 3pm"),
        ("add pay the fine by feb 30", "30 February"),
    ] {
        let asked = bot.say(&thread, sentence).await;
        assert_eq!(asked["path"], "clarify", "{sentence}: {asked}");
        let reply = asked["reply"].text();
        assert!(reply.contains(reason), "{sentence}: {reply}");
        assert_eq!(tasks(&bot).await.len(), 0, "{sentence} guessed a time");
        assert_eq!(bot.say(&thread, "never mind").await["path"], "unhandled");
    }
    bot.say(&thread, "remind me to call the plumber at 3").await;
    let created = bot.say(&thread, "3pm").await;
    assert_eq!(created["path"], "task_created", "{created}");
    let task = &tasks(&bot).await[0];
    assert_eq!(task["title"], "Call the plumber");
    assert_eq!(
        local(&task["scheduled_start"]).as_deref(),
        Some("2026-11-23T15:00")
    );
}

/// A sample of each kind of time captured through the
/// HTTP API. The reply says the time in words; the task's title keeps no word of it.
/// Now is Monday 23 November 2026, 11:00 in Paris.
#[actix_rt::test]
async fn each_kind_of_time_is_captured_with_the_time_said_and_a_clean_title() {
    let bot = start_bot(PARIS).await;
    // (sentence, title, deadline, start, what the reply says)
    type Row = (
        &'static str,
        &'static str,
        Option<&'static str>,
        Option<&'static str>,
        &'static str,
    );
    let table: &[Row] = &[
        (
            "remind me in an hour and a half to call mom",
            "Call mom",
            None,
            Some("2026-11-23T12:30"),
            "today at 12:30",
        ),
        (
            "remind me to stretch in 2 and a half hours",
            "Stretch",
            None,
            Some("2026-11-23T13:30"),
            "today at 13:30",
        ),
        (
            "remind me to pay rent on the 1st",
            "Pay rent",
            None,
            Some("2026-12-01T09:00"),
            "Tuesday 1 Dec at 09:00",
        ),
        (
            "add file taxes by the end of the month",
            "File taxes",
            Some("2026-11-30T17:00"),
            None,
            "due Monday 30 Nov at 17:00",
        ),
        (
            "remind me to book flights mid january",
            "Book flights",
            None,
            Some("2027-01-15T09:00"),
            "Fri 15 Jan 2027 at 09:00",
        ),
        (
            "remind me to submit the report 4 days before the 20th",
            "Submit the report",
            None,
            Some("2026-12-16T09:00"),
            "Wednesday 16 Dec at 09:00",
        ),
        (
            "remind me to call the landlord the day after tuesday",
            "Call the landlord",
            None,
            Some("2026-11-25T09:00"),
            "Wednesday 25 Nov at 09:00",
        ),
        (
            "remind me to take the bins out tonight at midnight",
            "Take the bins out",
            None,
            Some("2026-11-24T00:00"),
            "tonight at midnight (00:00 Tue 24 Nov)",
        ),
        (
            "remind me to water the plants first thing tomorrow",
            "Water the plants",
            None,
            Some("2026-11-24T09:00"),
            "tomorrow at 09:00",
        ),
        (
            "add send the invoice by the next working day",
            "Send the invoice",
            Some("2026-11-24T09:00"),
            None,
            "due tomorrow at 09:00",
        ),
        (
            "remind me to call the bank at 9am PST",
            "Call the bank",
            None,
            Some("2026-11-23T18:00"),
            "today at 18:00",
        ),
        (
            "remind me to ping Sam at 10am New York time",
            "Ping Sam",
            None,
            Some("2026-11-23T16:00"),
            "today at 16:00",
        ),
    ];
    for (sentence, title, deadline, start, says) in table {
        let (_, result, _) = captured(&bot, sentence, title, *deadline, *start).await;
        let reply = result["reply"].text();
        assert!(reply.contains(says), "{sentence}: {reply:?} lacks {says:?}");
    }
    assert_eq!(tasks(&bot).await.len(), table.len());
}

/// Never a half-read, end to end: a time only partly readable is asked about, naming the words
/// Donna could not read; no task is created with a guessed time, and the draft's title keeps
/// none of the time's words (the answer to the question creates exactly that title).
#[actix_rt::test]
async fn a_time_read_only_in_part_is_asked_naming_the_words_never_guessed() {
    let bot = start_bot(PARIS).await;
    let table = [
        (
            "remind me to call anna in an hour and a bit",
            "Call anna",
            "\"and a bit\"",
        ),
        (
            "remind me to call ben tomorrow before lunch",
            "Call ben",
            "\"before lunch\"",
        ),
        (
            "add submit the report 2 days before the deadline",
            "Submit the report",
            "\"2 days before the deadline\"",
        ),
        (
            "remind me to call carl between 3 and 5pm",
            "Call carl",
            "\"between 3 and\"",
        ),
        (
            "remind me to call the team at 9am IST",
            "Call the team",
            "India, Israel or Irish",
        ),
        ("add pay rent 3/12", "Pay rent", "3 December or 12 March"),
        (
            "remind me to pack a day before the trip",
            "Pack",
            "\"a day before the trip\"",
        ),
        (
            "remind me to call dora this week",
            "Call dora",
            "\"this week\"",
        ),
    ];
    for (index, (sentence, title, names)) in table.into_iter().enumerate() {
        let thread = bot.free_thread().await;
        let asked = bot.say(&thread, sentence).await;
        assert_eq!(asked["path"], "clarify", "{sentence}: {asked}");
        let reply = asked["reply"].text();
        assert!(
            reply.contains(names),
            "{sentence}: {reply:?} lacks {names:?}"
        );
        assert!(
            reply.starts_with(&format!("When should '{title}' be?")),
            "{sentence}: {reply:?}"
        );
        assert_eq!(tasks(&bot).await.len(), index, "{sentence} created a task");
        let created = bot.say(&thread, "friday 9am").await;
        assert_eq!(created["path"], "task_created", "{sentence}: {created}");
        let id = created["results"][0]["task_id"].text();
        let task = bot.task_json(id).await;
        assert_eq!(task["title"], title, "{sentence}");
        assert_eq!(
            local(&task["scheduled_start"]).as_deref(),
            Some("2026-11-27T09:00")
        );
    }
}

/// Times that cannot be used are answered with the reason and never left in
/// a title; a negative amount is refused, never read as the positive one.
#[actix_rt::test]
async fn times_that_cannot_be_used_are_answered_with_the_reason() {
    let bot = start_bot(PARIS).await;
    for (sentence, reason) in [
        ("remind me to call mom in 99999999 years", "too far ahead"),
        ("remind me to stretch at 23:59:60", "there is no 23:59:60"),
        ("remind me at 25:00 to sleep", "there is no 25:00"),
        ("add pay the fine on 30 february", "there is no 30 February"),
        ("remind me at 13pm to eat", "there is no 13pm"),
        (
            "remind me in -5 days to call the bank",
            "can't be a negative amount (\"-5 days\")",
        ),
        (
            "remind me in minus 2 hours to call the bank",
            "negative amount",
        ),
    ] {
        let thread = bot.free_thread().await;
        let asked = bot.say(&thread, sentence).await;
        assert_eq!(asked["path"], "clarify", "{sentence}: {asked}");
        let reply = asked["reply"].text();
        assert!(
            reply.contains(reason),
            "{sentence}: {reply:?} lacks {reason:?}"
        );
        assert_eq!(tasks(&bot).await.len(), 0, "{sentence} created a task");
        assert_eq!(bot.say(&thread, "never mind").await["path"], "unhandled");
    }
}
