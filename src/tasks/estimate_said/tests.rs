//! The kinds of phrasing that say how long a task takes, each with a lead-in, courtesy or
//! apology wrapper, and the sentences people write to a reminder bot that must say nothing.

use super::estimate_said;
use crate::sentence::Sentence;

fn read(text: &str) -> Option<i64> {
    estimate_said(&Sentence::read(text))
}

/// Acting rows: (kind, sentence, minutes).
const SAYS: &[(&str, &str, i64)] = &[
    // The task takes it: a subject (or none), helpers, a verb of taking.
    ("takes", "it takes about an hour", 60),
    ("takes", "should take 20 minutes", 20),
    ("takes", "it'll take 45 min", 45),
    ("takes", "takes like 2 hours", 120),
    ("takes", "this one needs about 30 minutes", 30),
    ("takes", "it usually takes me an hour and a half", 90),
    ("takes", "it's gonna take roughly 3 hours", 180),
    ("takes", "that should only take 10 mins", 10),
    ("takes", "will take half an hour or so", 30),
    ("takes", "it takes 2 days of work", 2880),
    ("takes", "I think it takes about an hour", 60),
    ("takes", "ok, it takes about an hour", 60),
    ("takes", "sorry, should take 20 minutes", 20),
    ("takes", "hey donna, it'll take 45 min tops. thanks!", 45),
    ("takes", "honestly it takes an hour, sorry", 60),
    ("takes", "ok, it'll take me 45 min or so, thanks!", 45),
    // The task is it: a subject and "be".
    ("is", "it's about an hour", 60),
    ("is", "that's 20 min max", 20),
    ("is", "should be about 45 minutes", 45),
    ("is", "it is an hour or so I think", 60),
    ("is", "ok thanks, it's about 90 minutes", 90),
    ("is", "sorry, it'll be about 2 hours", 120),
    // A job of that length.
    ("job", "that's a 2 hour job", 120),
    ("job", "it's a 20 minute thing", 20),
    ("job", "prob a 45 min job", 45),
    ("job", "a 3 hour task", 180),
    ("job", "ah sorry, that's a 2 hour job", 120),
    ("job", "ok so it's like a 30 minute errand, thanks", 30),
];

/// Must-not rows: (why, sentence).
const SAYS_NOTHING: &[(&str, &str)] = &[
    (
        "a past of something else",
        "it took me an hour to find the form",
    ),
    ("a past", "took 2 days to arrive"),
    ("a past", "it took about an hour"),
    ("a past", "that was a 2 hour job"),
    ("the person's time", "I have an hour free"),
    ("the person's time", "I need an hour"),
    ("a time", "in an hour"),
    ("a time", "remind me in an hour"),
    ("a time", "an hour ago"),
    ("a time", "it's an hour away"),
    ("a time", "it's in an hour"),
    ("no amount", "it takes forever"),
    ("a question", "does it take an hour?"),
    ("a question", "will it take an hour"),
    ("a question", "how long does it take, an hour?"),
    ("negated", "it doesn't take an hour"),
    ("negated", "it won't take an hour"),
    ("negated", "that's not a 2 hour job"),
    ("another subject", "the meeting takes an hour"),
    ("another subject", "the drive takes 40 minutes"),
    ("another subject", "my commute is an hour"),
    ("a condition", "if it takes an hour I'll skip it"),
    ("a condition", "if it's a 2 hour job I'm not doing it"),
    ("a wish", "I wish it only took an hour"),
    ("another length", "it takes an hour to get there"),
    ("another length", "it takes an hour each way"),
    ("an order", "take an hour off"),
    ("a snooze", "give me an hour"),
    ("a snooze", "snooze 20 min"),
    ("a bare length", "about 45 min"),
    ("a bare length", "an hour"),
    ("two clauses", "it takes an hour, but I can't today"),
    ("two amounts", "it takes an hour or two hours"),
    ("sarcasm", "oh sure, it takes 5 minutes"),
    ("too long", "it takes 100 weeks"),
    ("more time", "it needs another hour"),
];

#[test]
fn each_kind_of_phrasing_says_how_long_the_task_takes() {
    let wrong: Vec<String> = SAYS
        .iter()
        .filter(|(_, text, minutes)| read(text) != Some(*minutes))
        .map(|(kind, text, _)| format!("{kind}: {text:?} read {:?}", read(text)))
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn sentences_about_other_times_and_lengths_say_nothing() {
    let wrong: Vec<String> = SAYS_NOTHING
        .iter()
        .filter(|(_, text)| read(text).is_some())
        .map(|(why, text)| format!("{why}: {text:?} read {:?}", read(text)))
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Cores written apart from the tables above, each read bare and inside a lead-in, a courtesy
/// and an apology: the wrapper never changes what is read.
#[test]
fn a_wrapper_never_changes_the_length_read() {
    let cores: &[(&str, Option<i64>)] = &[
        ("it should take around 40 minutes", Some(40)),
        ("this one takes roughly 15 min", Some(15)),
        ("it's a 3 hour job", Some(180)),
        ("it'll take about 2 hours", Some(120)),
        ("that takes approx 25 minutes", Some(25)),
        // Must not: someone else's length, a past, a question, a negation, a wish.
        ("the drive takes around 40 minutes", None),
        ("it took around 40 minutes last time", None),
        ("will it take about 2 hours?", None),
        ("it won't take 2 hours", None),
        ("I wish it took 10 minutes", None),
    ];
    for (core, minutes) in cores {
        for said in [
            core.to_string(),
            format!("ok so {core}"),
            format!("so {core}"),
            format!("{core}, thanks"),
            format!("sorry, {core}"),
            format!("hey donna, {core}. thank you!"),
        ] {
            assert_eq!(read(&said), *minutes, "{said:?}");
        }
    }
}
