//! Replies in people's own words: with times and durations, done / later / busy, and agreement
//! followed by content.

use super::*;

/// Times and durations in replies. A time on its own answers as a reschedule; an
/// amount after a moving verb reschedules; a length in a snooze reply stays a snooze; the
/// neighbours that must not act stay what they were.
#[test]
fn replies_with_times_and_durations() {
    let rows: Vec<(&str, Expected)> = vec![
        // 1. Amounts without "in": the reschedule keyword carries them.
        ("postpone a week", intent("reschedule").via("postpone")),
        ("push it a week", intent("reschedule").via("push")),
        ("push it two days", intent("reschedule")),
        ("move it 3 hours", intent("reschedule").via("move")),
        ("postpone a fortnight", intent("reschedule")),
        ("push it", intent("reschedule")),
        ("later", intent("reschedule")),
        // 2. A length in a snooze or busy reply.
        ("snooze 20 min", intent("busy").via("snooze")),
        ("snooze for 3 hours", intent("busy").via("snooze")),
        ("give me an hour", intent("busy").via("give me an hour")),
        ("give me 20 minutes", intent("busy")),
        ("busy till 5pm", intent("busy").via("busy")),
        ("snooze", intent("busy")),
        // 3. A time on its own: the reschedule intent, with the reply as its keyword.
        ("friday 3pm", intent("reschedule").via("friday 3pm")),
        ("in 2 hours", intent("reschedule").via("in 2 hours")),
        ("friday", intent("reschedule")),
        ("Friday, 3pm.", intent("reschedule")),
        ("tomorrow morning", intent("reschedule").via("tomorrow")),
        ("at 5pm then", intent("reschedule")),
        ("next week", intent("reschedule")),
        ("feb 30", intent("reschedule")),
        ("25:00", intent("reschedule")),
        // 4. Impossible times still name the intent (the reason is the answer).
        ("push it to 25:00", intent("reschedule")),
        ("push to feb 30", intent("reschedule")),
        // Neighbours: a time inside something else, a question, a negation, a second request.
        ("call mom friday", FallThrough(NoKeyword).into()),
        // An exclamation that opens like a question is read as one: no time, nothing acts.
        ("what a day", FallThrough(Question).into()),
        ("a week", FallThrough(NoKeyword).into()),
        ("friday 3pm?", FallThrough(Question).into()),
        ("is friday ok", FallThrough(Question).into()),
        ("not friday", FallThrough(Negated).into()),
        ("not in 2 hours", FallThrough(Negated).into()),
        ("friday or monday", FallThrough(MultiIntent).into()),
        (
            "friday 3pm and make it urgent",
            FallThrough(MultiIntent).into(),
        ),
        ("friday 3pm, tell Anna", FallThrough(NoKeyword).into()),
        ("hello", FallThrough(NoKeyword).into()),
        ("snooze them all", FallThrough(MultiTask).into()),
        ("don't give me an hour", FallThrough(Negated).into()),
        ("can you give me a few hours", FallThrough(Question).into()),
        (
            "ugh, can you give me a few hours",
            FallThrough(NoKeyword).into(),
        ),
        ("give me a sec", FallThrough(NoKeyword).into()),
    ];
    for (reply, expected) in rows {
        check_reply(reply, expected);
    }
    // The keyword layer alone does not read times: the same replies are no keyword to it.
    check("friday 3pm", FallThrough(NoKeyword));
    check("in 2 hours", FallThrough(NoKeyword));
}

/// People's own words for the three answers, each with why it maps, and the
/// look-alikes that must not fire.
#[test]
fn classify_peoples_own_words_for_done_later_and_busy() {
    // Reports that it is done.
    check("sorted", intent("mark_done").via("sorted"));
    check("all set 👍", intent("mark_done").via("all set"));
    check("handled", intent("mark_done").via("handled"));
    check(
        "took care of it this morning",
        intent("mark_done").via("took care of it"),
    );
    check(
        "finally got it done",
        intent("mark_done").via("got it done"),
    );
    check("paid it online", intent("mark_done").via("paid it"));
    check("sent it over", intent("mark_done").via("sent it"));
    check(
        "knocked it out before lunch",
        intent("mark_done").via("knocked it out"),
    );
    check("ticked off", intent("mark_done").via("ticked off"));
    check("wrapped up", intent("mark_done").via("wrapped up"));
    // Another time.
    check("bump it", intent("reschedule").via("bump"));
    check("push back a day", intent("reschedule").via("push back"));
    check("rain check", intent("reschedule").via("rain check"));
    check("another day", intent("reschedule").via("another day"));
    // Not now.
    check("not right now", intent("busy").via("not right now"));
    check("can't right now", intent("busy").via("can't right now"));
    check("not yet", intent("busy").via("not yet"));
    check("in a meeting", intent("busy").via("in a meeting"));
    check("driving", intent("busy").via("driving"));
    check("swamped", intent("busy").via("swamped"));
    // Must not: half a report, a question, a negation, a report about something else.
    check("I paid half of it", FallThrough(Negated));
    check("I think I paid it", FallThrough(Negated));
    check("probably sorted", FallThrough(Negated));
    check("almost sorted", FallThrough(Negated));
    check("haven't sent it", FallThrough(Negated));
    check("sent it?", FallThrough(Question));
    check("is it handled?", FallThrough(Question));
    check("paid", FallThrough(NoKeyword));
    check("sent the wrong one", FallThrough(NoKeyword));
    check("not done yet", FallThrough(Negated));
}

/// Agreement followed by content reads as the content, and "remind me
/// <time>" asks to be asked again then: what the keyword layer, with the time reader, makes of
/// a reply (`analyze_reply`). A bare agreement stays a bare agreement.
#[test]
fn agreement_then_content_is_the_content_and_remind_me_at_a_time_reschedules() {
    let outcome = |reply: &str| analyze_reply(fast_path(), reply);
    let intent_of = |reply: &str| match outcome(reply).outcome {
        Match(found) if !found.only_confirm_word => Some(found.intent),
        _ => None,
    };
    let table: &[(&str, Option<&str>)] = &[
        ("yeah, sent it", Some("mark_done")),
        ("yep, all sorted", Some("mark_done")),
        ("ok done", Some("mark_done")),
        ("yep that's sorted now", Some("mark_done")),
        ("sure, tomorrow", Some("reschedule")),
        ("yeah not now", Some("busy")),
        ("ok I'll do it at 6pm", Some("reschedule")),
        ("remind me friday 3pm", Some("reschedule")),
        ("remind me tomorrow morning", Some("reschedule")),
        ("ask me again in 2 hours", Some("reschedule")),
        ("let's say monday 9am", Some("reschedule")),
        ("I'll do it friday", Some("reschedule")),
        // Must not.
        ("yes", None),
        ("ok, go ahead", None),
        ("remind me to call mum", None),
        ("remind me what this was about", None),
        ("yeah, not sure", None),
    ];
    let mut wrong = Vec::new();
    for (reply, expected) in table {
        let got = intent_of(reply);
        if got.as_deref() != *expected {
            wrong.push(format!("{reply:?}: expected {expected:?}, got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    // Only a bare agreement is one.
    assert!(outcome("yes").only_agreement);
    assert!(outcome("ok, go ahead").only_agreement);
    assert!(outcome("sure thing, thanks").only_agreement);
    assert!(!outcome("yeah, sent it").only_agreement);
    assert!(!outcome("yep that's sorted now").only_agreement);
}
