//! Chat sessions ending: an expired session summarised once (by the sweeper or a returning
//! turn, never both), a failed summary, and summaries turned off.

use super::*;

#[actix_rt::test]
async fn an_expired_session_is_summarised_once_and_the_next_session_sees_only_the_summary() {
    let fake = start_fake_llm();
    let bot = chat_bot(&fake, "chat:\n  session_ttl: 30m\n").await;
    let thread = bot.free_thread().await;
    chat(
        &bot,
        &fake,
        &thread,
        "I adopted a cat, her name is Miso",
        "Congratulations!",
    )
    .await;
    chat(&bot, &fake, &thread, "she sleeps all day", "Cats do.").await;
    // Still inside the TTL: nothing to close.
    bot.clock.advance(ChronoDuration::minutes(29));
    assert_eq!(sweep(&bot).await, 0);
    assert_eq!(fake.count("summarize"), 0);
    // Past the TTL (measured from the last chat turn): closed and summarised, once.
    bot.clock.advance(ChronoDuration::minutes(2));
    fake.push_for(
        "summarize",
        out(json!({"summary": "They adopted a cat called Miso, who sleeps a lot."})),
    );
    assert_eq!(sweep(&bot).await, 1);
    assert_eq!(sweep(&bot).await, 0, "closed sessions stay closed");
    assert_eq!(fake.count("summarize"), 1);
    let summarized = fake.messages_of("summarize", 0);
    assert!(
        in_role(&summarized, "user", "her name is Miso"),
        "{summarized:?}"
    );
    assert!(!in_role(&summarized, "system", "Miso"), "{summarized:?}");
    // A new session: the summary, not the old messages.
    let result = chat(
        &bot,
        &fake,
        &thread,
        "guess who knocked over my plant",
        "Miso?",
    )
    .await;
    assert_eq!(result["path"], "chat", "{result}");
    assert_eq!(sessions(&bot, &thread).await, 2);
    let prompt = fake.messages_of("chat", 2);
    assert!(
        in_role(
            &prompt,
            "user",
            "> They adopted a cat called Miso, who sleeps a lot."
        ),
        "{prompt:?}"
    );
    assert!(!anywhere(&prompt, "her name is Miso"), "{prompt:?}");
    assert!(!anywhere(&prompt, "Cats do."), "{prompt:?}");
    assert!(!in_role(&prompt, "system", "Miso"), "{prompt:?}");
}

#[actix_rt::test]
async fn a_failed_summary_closes_the_session_without_one() {
    let fake = start_fake_llm();
    let bot = chat_bot(&fake, "chat:\n  session_ttl: 30m\n").await;
    let thread = bot.free_thread().await;
    chat(&bot, &fake, &thread, "the weather is awful", "Stay dry.").await;
    bot.clock.advance(ChronoDuration::minutes(31));
    // An error answer is not retried (only invalid output is).
    fake.push_for("summarize", Script::Status(500));
    assert_eq!(sweep(&bot).await, 1);
    assert_eq!(fake.count("summarize"), 1);
    chat(&bot, &fake, &thread, "back from my walk", "Welcome back.").await;
    let prompt = fake.messages_of("chat", 1);
    assert_eq!(
        prompt.len() - prefix_len(),
        2,
        "the persona, the time, the message: no summary, no old messages: {prompt:?}"
    );
    assert!(!anywhere(&prompt, "Summaries"), "{prompt:?}");
}

/// A person who comes back after the session expired, before the sweeper's next
/// run, gets a prompt that carries the summary of the conversation they left: the turn closes
/// the expired session first with the sweeper's own close (one `summarize` call), then opens a
/// new one. The sweeper then finds nothing left to close.
#[actix_rt::test]
async fn a_returning_person_s_turn_closes_the_expired_session_with_its_summary_first() {
    let fake = start_fake_llm();
    let bot = chat_bot(&fake, "chat:\n  session_ttl: 30m\n").await;
    let thread = bot.free_thread().await;
    chat(
        &bot,
        &fake,
        &thread,
        "I adopted a cat, her name is Miso",
        "Congratulations!",
    )
    .await;
    bot.clock.advance(ChronoDuration::minutes(45));
    fake.push_for(
        "summarize",
        out(json!({"summary": "They adopted a cat called Miso."})),
    );
    let result = chat(&bot, &fake, &thread, "guess who broke my vase", "Miso?").await;
    assert_eq!(result["path"], "chat", "{result}");
    assert_eq!(fake.count("summarize"), 1);
    let prompt = fake.messages_of("chat", 1);
    assert!(
        in_role(&prompt, "user", "> They adopted a cat called Miso."),
        "{prompt:?}"
    );
    assert!(!anywhere(&prompt, "her name is Miso"), "{prompt:?}");
    assert_eq!(sessions(&bot, &thread).await, 2);
    assert_eq!(
        sweep(&bot).await,
        0,
        "the sweeper has nothing left to close"
    );
    assert_eq!(fake.count("summarize"), 1);
}

/// The sweeper and a returning person's turn closing the same session at the
/// same moment make ONE `summarize` call between them, whichever starts first, and the turn's
/// prompt carries the summary either way.
#[actix_rt::test]
async fn the_sweeper_and_a_returning_turn_at_once_summarise_the_session_once() {
    for sweeper_first in [true, false] {
        let fake = start_fake_llm();
        let bot = chat_bot(&fake, "chat:\n  session_ttl: 30m\n").await;
        let thread = bot.free_thread().await;
        chat(
            &bot,
            &fake,
            &thread,
            "we got a puppy called Pico",
            "Exciting!",
        )
        .await;
        bot.clock.advance(ChronoDuration::minutes(31));
        // A slow summary keeps the first close in flight while the other one starts.
        fake.push_for(
            "summarize",
            Script::Delay(
                std::time::Duration::from_millis(400),
                Box::new(out(json!({"summary": "They got a puppy called Pico."}))),
            ),
        );
        let in_flight = || async { fake.count("summarize") == 1 };
        let (swept, result) = if sweeper_first {
            tokio::join!(sweep(&bot), async {
                assert!(eventually(std::time::Duration::from_secs(10), in_flight).await);
                chat(&bot, &fake, &thread, "he chewed my slipper", "Puppies!").await
            })
        } else {
            let (result, swept) = tokio::join!(
                chat(&bot, &fake, &thread, "he chewed my slipper", "Puppies!"),
                async {
                    assert!(eventually(std::time::Duration::from_secs(10), in_flight).await);
                    sweep(&bot).await
                }
            );
            (swept, result)
        };
        assert_eq!(result["path"], "chat", "{result}");
        assert_eq!(fake.count("summarize"), 1, "sweeper first: {sweeper_first}");
        assert_eq!(
            swept,
            usize::from(sweeper_first),
            "closed once, by whoever came first"
        );
        let prompt = fake.messages_of("chat", 1);
        assert!(
            in_role(&prompt, "user", "> They got a puppy called Pico."),
            "sweeper first: {sweeper_first}: {prompt:?}"
        );
    }
}

/// With summaries off (`chat.summary_on_close: false`), the
/// expired session closes without a `summarize` call, by the sweeper or the returning turn,
/// and the next prompt holds neither its messages nor a summary.
#[actix_rt::test]
async fn with_summaries_off_a_session_closes_without_a_summarize_call() {
    let fake = start_fake_llm();
    let bot = chat_bot(
        &fake,
        "chat:\n  session_ttl: 30m\n  summary_on_close: false\n",
    )
    .await;
    let (swept, returning) = (bot.free_thread().await, bot.free_thread().await);
    for thread in [&swept, &returning] {
        chat(&bot, &fake, thread, "my sister visits on Sunday", "Nice!").await;
    }
    bot.clock.advance(ChronoDuration::minutes(31));
    fake.always(out(json!({"summary": "They talked about a visit."})));
    let closed = bot
        .app
        .chat_sessions
        .ask(|reply| SessionsMsg::Sweep { reply: Some(reply) });
    // The sweeper closes both (one of them before its person returns).
    assert_eq!(closed.await.ok().and_then(Result::ok), Some(2));
    chat(&bot, &fake, &returning, "she cancelled", "Oh no.").await;
    assert_eq!(fake.count("summarize"), 0, "no summary was asked for");
    let prompt = fake.messages_of("chat", 2);
    assert_eq!(
        prompt.len() - prefix_len(),
        2,
        "the persona, the time, the message: no summary, no old messages: {prompt:?}"
    );
    assert!(!anywhere(&prompt, "Summaries"), "{prompt:?}");
    // A returning turn closes it without a summary too.
    bot.clock.advance(ChronoDuration::minutes(31));
    chat(&bot, &fake, &returning, "she is coming after all", "Good.").await;
    assert_eq!(fake.count("summarize"), 0);
    assert_eq!(sessions(&bot, &returning).await, 3);
    let prompt = fake.messages_of("chat", 3);
    assert_eq!(prompt.len() - prefix_len(), 2, "{prompt:?}");
    assert!(!anywhere(&prompt, "Summaries"), "{prompt:?}");
}
