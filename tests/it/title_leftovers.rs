//! What a capture leaves in a title: never a time it did not use, never half a tag.
//!
//! Times written in ways the reader took for plain words ("in 1e9 hours", "on 31/12/99999")
//! are refused with the reason, or asked about, like "in 99999999 years": the reader's table
//! (`when_categories::cap`) and a sample end to end through the HTTP turn. Markup and opening
//! marks written against the first word ("add <b>bold</b> report", "add (maybe) call Bob")
//! stay as the person wrote them. Each table has rows that must capture as before.

use crate::common;
use crate::common::Fields;
use crate::when_categories::{cap, check, unread, At, Fails, Nothing, NOW};

use common::{start_bot, Bot};
use donna::tasks::when::WhenError;
use serde_json::Value;

#[rustfmt::skip]
#[test]
fn numbers_in_scientific_notation_and_long_years_are_times_refused_or_asked() {
    cap("call mom in 1e9 hours", NOW, "Call mom", Fails(WhenError::TooFar));
    cap("call mom in 1E12 years", NOW, "Call mom", Fails(WhenError::TooFar));
    cap("call mom in 1e99 minutes", NOW, "Call mom", Fails(WhenError::TooFar));
    cap("call mom in 2e3 minutes", NOW, "Call mom", unread("2e3 minutes"));
    cap("stretch in 1.5e2 min", NOW, "Stretch", unread("1.5e2 min"));
    cap("pay the fine on 31/12/99999", NOW, "Pay the fine", Fails(WhenError::TooFar));
    cap("pay the fine on 12/31/123456", NOW, "Pay the fine", Fails(WhenError::TooFar));
    cap("pay the fine on 99999-12-31", NOW, "Pay the fine", Fails(WhenError::TooFar));
    check("in 1e9 hours", NOW, Fails(WhenError::TooFar));
    check("on 31/12/99999", NOW, Fails(WhenError::TooFar));
    // Must still read, and must not: numbers that are no time stay the title's.
    cap("call mom in 2 hours", NOW, "Call mom", At("Fri 2026-11-27 12:00"));
    cap("pay the fine on 31/12/2026", NOW, "Pay the fine", At("Thu 2026-12-31 09:00"));
    cap("buy 1e9 grains of rice", NOW, "Buy 1e9 grains of rice", Nothing);
    cap("read about the 2e3 engine", NOW, "Read about the 2e3 engine", Nothing);
    cap("file form 31/12/99999b", NOW, "File form 31/12/99999b", Nothing);
}

async fn tasks(bot: &Bot) -> Vec<Value> {
    let (_, list) = bot.get("/api/tasks").await;
    list.items().to_vec()
}

/// End to end: the reply says why, and nothing is stored.
#[actix_rt::test]
async fn a_capture_with_such_a_time_is_refused_with_the_reason_and_stores_nothing() {
    let bot = start_bot("").await;
    for (sentence, reason) in [
        ("remind me to call mom in 1e9 hours", "too far ahead"),
        ("add pay the fine on 31/12/99999", "too far ahead"),
        (
            "remind me in 2e3 minutes to stretch",
            "I can't read \"2e3 minutes\"",
        ),
    ] {
        let thread = bot.free_thread().await;
        let asked = bot.say(&thread, sentence).await;
        assert_eq!(asked["path"], "clarify", "{sentence}: {asked}");
        let reply = asked["reply"].text();
        assert!(reply.contains(reason), "{sentence}: {reply:?}");
        assert_eq!(tasks(&bot).await.len(), 0, "{sentence} created a task");
        assert_eq!(bot.say(&thread, "never mind").await["path"], "unhandled");
    }
}

/// A title keeps the marks the person wrote before its first word.
#[actix_rt::test]
async fn a_title_keeps_the_persons_markup_whole() {
    let bot = start_bot("").await;
    let table = [
        ("add <b>bold</b> report", "<b>bold</b> report"),
        ("add <i>fix</i> the sink", "<i>fix</i> the sink"),
        ("add **urgent** call the bank", "**urgent** call the bank"),
        ("add (maybe) repaint the fence", "(maybe) repaint the fence"),
        ("add [draft] the budget", "[draft] the budget"),
        (
            "add `cargo update` on the server",
            "`cargo update` on the server",
        ),
        // Must stay as before: separators after the command are no part of the title.
        ("add: water the ferns", "Water the ferns"),
        ("add - feed the cat", "Feed the cat"),
        ("add buy <milk>", "Buy <milk>"),
        ("add water the roses", "Water the roses"),
    ];
    for (sentence, title) in table {
        let thread = bot.free_thread().await;
        let result = bot.say(&thread, sentence).await;
        assert_eq!(result["path"], "task_created", "{sentence}: {result}");
        let id = result["results"][0]["task_id"].text();
        assert_eq!(bot.task_json(id).await["title"], title, "{sentence}");
    }
}
