//! Lists that page, through the real app over HTTP: a list answer shows at most 20 items and
//! says how many more; "more" (and its other phrasings) in the same chat continues where the
//! last list stopped until "That's all."; every open task is reachable; no answer is longer
//! than Discord's 2,000 characters (long titles are cut with an ellipsis); "more" with nothing
//! listed before, in another chat, after a newer list or after the list expired gets an honest
//! answer. Also the table of sentences the rules read as "more" (and must not).

use crate::common;
use crate::common::Fields;

use std::collections::BTreeSet;

use common::reading::read_rules as read;
use common::{start_bot, Bot};
use donna::capture::rules::Reading;
use serde_json::{json, Value};

const PARIS: &str = "timezone: Europe/Paris\n";
/// Discord's limit for one message.
const DISCORD_MAX: usize = 2_000;

/// `count` open tasks titled "Task 01", "Task 02", ... (no times: listed oldest first).
async fn numbered_tasks(bot: &Bot, count: usize) -> Vec<String> {
    let mut titles = Vec::new();
    for n in 1..=count {
        let title = format!("Task {n:02}");
        bot.task(json!({ "title": title })).await;
        titles.push(title);
    }
    titles
}

/// The numbered lines of a page: (number, rest of the line).
fn numbered(reply: &str) -> Vec<(usize, String)> {
    reply
        .lines()
        .filter_map(|line| {
            let (number, rest) = line.split_once(". ")?;
            Some((number.parse().ok()?, rest.to_string()))
        })
        .collect()
}

fn reply_of(result: &Value) -> String {
    result["reply"].text().to_string()
}

#[actix_rt::test]
async fn sixty_open_tasks_are_all_reachable_through_more() {
    let bot = start_bot(PARIS).await;
    let titles = numbered_tasks(&bot, 60).await;
    let thread = bot.free_thread().await;

    let first = bot.say(&thread, "list my tasks").await;
    assert_eq!(first["path"], "answer", "{first}");
    let text = reply_of(&first);
    assert!(text.starts_with("Your open tasks (60):"), "{text}");
    assert!(
        text.ends_with("...and 40 more: say \"more\" for the next 20."),
        "{text}"
    );
    let mut seen: Vec<(usize, String)> = numbered(&text);
    assert_eq!(seen.len(), 20, "{text}");

    // "more", then other phrasings of it, until the end.
    for (ask, heading, last_line) in [
        (
            "more",
            "Your open tasks (60), 21-40:",
            "...and 20 more: say \"more\" for the next 20.",
        ),
        (
            "Show more please",
            "Your open tasks (60), 41-60:",
            "That's all.",
        ),
    ] {
        let page = bot.say(&thread, ask).await;
        assert_eq!(page["path"], "answer", "{ask}: {page}");
        let text = reply_of(&page);
        assert!(text.starts_with(heading), "{ask}: {text}");
        assert!(text.ends_with(last_line), "{ask}: {text}");
        let lines = numbered(&text);
        assert_eq!(lines.len(), 20, "{ask}: {text}");
        seen.extend(lines);
    }
    // Numbered 1 to 60 in order, every open task exactly once.
    let numbers: Vec<usize> = seen.iter().map(|(n, _)| *n).collect();
    assert_eq!(numbers, (1..=60).collect::<Vec<_>>());
    let listed: BTreeSet<String> = seen.into_iter().map(|(_, title)| title).collect();
    assert_eq!(listed, titles.into_iter().collect::<BTreeSet<_>>());

    // Past the end: said plainly, nothing repeated.
    let after = bot.say(&thread, "next").await;
    assert_eq!(after["path"], "answer", "{after}");
    assert_eq!(
        reply_of(&after),
        "That was the whole list: all 60 shown. Ask again for a fresh one."
    );
}

#[actix_rt::test]
async fn more_with_nothing_listed_before_gets_an_honest_answer_and_changes_nothing() {
    let bot = start_bot(PARIS).await;
    numbered_tasks(&bot, 25).await;
    let honest = "There's no list to continue here. Ask me \"list my tasks\", \"what's overdue\", \"what's due this week\" or \"what are you waiting on?\" and say \"more\" after it.";

    // Nothing listed in this chat yet.
    let fresh = bot.free_thread().await;
    for ask in ["more", "continue", "next page"] {
        let result = bot.say(&fresh, ask).await;
        assert_eq!(result["path"], "unhandled", "{ask}: {result}");
        assert_eq!(reply_of(&result), honest, "{ask}");
        assert_eq!(result["actions"], json!([]));
    }

    // A list in another chat is that chat's: "more" here does not continue it.
    let other = bot.free_thread().await;
    assert!(reply_of(&bot.say(&other, "list my tasks").await).contains("...and 5 more"));
    assert_eq!(reply_of(&bot.say(&fresh, "more").await), honest);
    // ...and it is still there to continue where it was asked.
    let continued = reply_of(&bot.say(&other, "more").await);
    assert!(
        continued.starts_with("Your open tasks (25), 21-25:"),
        "{continued}"
    );

    // A newer list replaces the last one: one that fits one answer leaves nothing to continue.
    assert!(reply_of(&bot.say(&other, "list my tasks").await).contains("...and 5 more"));
    assert_eq!(
        reply_of(&bot.say(&other, "what's overdue?").await),
        "Nothing is overdue."
    );
    assert_eq!(reply_of(&bot.say(&other, "more").await), honest);

    // A list expires like a draft (plans.expiry, 60 minutes by default).
    assert!(reply_of(&bot.say(&other, "list my tasks").await).contains("...and 5 more"));
    bot.clock.advance(chrono::Duration::minutes(61));
    assert_eq!(reply_of(&bot.say(&other, "more").await), honest);

    let (_, all) = bot.get("/api/tasks").await;
    assert_eq!(all.as_array().map(Vec::len), Some(25), "nothing created");
}

#[actix_rt::test]
async fn twenty_tasks_with_200_character_titles_stay_under_2000_characters() {
    let bot = start_bot(PARIS).await;
    for n in 0..45 {
        // 200 characters, each title distinct at its start; half with a deadline (a time is
        // shown after the title).
        let title: String = format!("{n:02} {}", "long words in a title ".repeat(10))
            .chars()
            .take(200)
            .collect();
        assert_eq!(title.chars().count(), 200);
        let body = if n % 2 == 0 {
            json!({ "title": title, "deadline": "2026-11-20T09:00:00Z" })
        } else {
            json!({ "title": title })
        };
        bot.task(body).await;
    }
    let thread = bot.free_thread().await;
    let mut pages = vec![reply_of(&bot.say(&thread, "list my tasks").await)];
    pages.push(reply_of(&bot.say(&thread, "more").await));
    pages.push(reply_of(&bot.say(&thread, "more").await));
    pages.push(reply_of(&bot.say(&thread, "what's overdue?").await));
    let mut numbers = Vec::new();
    for page in &pages {
        let length = page.chars().count();
        assert!(length <= DISCORD_MAX, "{length} characters: {page}");
        let lines = numbered(page);
        // A full page cuts its titles (with an ellipsis), never the times after them.
        if lines.len() == 20 {
            assert!(lines.iter().all(|(_, line)| line.contains('…')), "{page}");
        }
        numbers.extend(lines.into_iter().map(|(n, _)| n));
    }
    let overdue = numbered(&pages[3]);
    assert_eq!(overdue.len(), 20, "{}", pages[3]);
    assert!(
        overdue
            .iter()
            .all(|(_, line)| line.ends_with("(overdue since Fri 20 Nov 10:00)")),
        "{}",
        pages[3]
    );
    // The three pages of "list my tasks" reach all 45 tasks.
    assert_eq!(&numbers[..45], &(1..=45).collect::<Vec<_>>()[..]);
}

#[test]
fn the_rules_read_more_only_as_a_whole_message() {
    // (sentence, read as "more")
    let table: &[(&str, bool)] = &[
        ("more", true),
        ("More.", true),
        ("more?", true),
        ("MORE please", true),
        ("show more", true),
        ("Show me more", true),
        ("next", true),
        ("next page", true),
        ("ok, next", true),
        ("next please", true),
        ("continue", true),
        ("Continue please, Donna", true),
        ("keep going", true),
        ("go on", true),
        ("show me the rest", true),
        ("the rest", true),
        ("more tasks", true),
        // Must not: captures, times, statements, other requests.
        ("more milk", false),
        ("add more milk", false),
        ("buy more coffee", false),
        ("next friday call mom", false),
        ("next week", false),
        ("remind me next monday to pay rent", false),
        ("continue the report tomorrow", false),
        ("I need more time", false),
        ("no more reminders", false),
        ("more or less done", false),
        ("what's next on my list?", false),
        ("tell me more about the trip", false),
        ("go on holiday", false),
    ];
    for (sentence, more) in table {
        assert_eq!(read(sentence) == Reading::More, *more, "{sentence:?}");
    }
}
