//! The analysis on a few sentences per rule; the tables of people's sentences read through a
//! turn are in tests/it/ (`one_reading`, `consent_kinds`).

use super::*;

fn first_clause(text: &str) -> Clause {
    let sentence = Sentence::read(text);
    sentence.clauses()[0].clone()
}

#[test]
fn each_clause_has_a_mood() {
    let table = [
        ("is the passport done", Mood::Question),
        ("what's left", Mood::Question),
        ("can you move it to friday?", Mood::Request),
        ("please push it", Mood::Request),
        ("I'll send it tonight", Mood::Intention),
        ("Tom will have it done", Mood::Intention),
        ("paid it this morning", Mood::Report),
        ("thanks, that's all", Mood::Closing),
        ("friday works better", Mood::Statement),
    ];
    for (text, mood) in table {
        assert_eq!(first_clause(text).mood, mood, "{text:?}");
    }
}

#[test]
fn the_subject_is_the_person_the_task_or_someone_else() {
    let subject = |text: &str| {
        let sentence = Sentence::read(text);
        match sentence.clauses()[0].subject.clone() {
            Subject::Other(words) => format!("other: {}", sentence.words_of(words).join(" ")),
            Subject::Person => "person".to_string(),
            Subject::Task => "task".to_string(),
        }
    };
    let table = [
        ("I paid it", "person"),
        ("paid it", "person"),
        ("just sent", "person"),
        ("move it to friday", "person"),
        ("it's done", "task"),
        ("all sent off", "task"),
        ("the rent is paid", "task"),
        ("the money's been transferred", "task"),
        ("Tom paid it", "other: tom"),
        ("mum called, she says hi", "other: mum"),
        ("the meeting ran late", "other: the meeting"),
        ("rent went up again ugh", "other: rent"),
        ("my sister sent it", "other: my sister"),
        ("she did it", "other: she"),
    ];
    for (text, expected) in table {
        assert_eq!(subject(text), expected, "{text:?}");
    }
}

#[test]
fn markers_say_when_a_clause_is_not_meant_plainly() {
    let marks = |text: &str| {
        let sentence = Sentence::read(text);
        let mut all = Marks::default();
        for clause in sentence.clauses() {
            let m = clause.marks;
            all.wish |= m.wish;
            all.condition |= m.condition;
            all.habit |= m.habit;
            all.suggestion |= m.suggestion;
            all.sarcasm |= m.sarcasm;
            all.denied |= m.denied;
        }
        all
    };
    assert!(marks("I wish the taxes were done").wish);
    assert!(marks("I'd snooze the gym if I could").condition);
    assert!(marks("I usually pay rent on the 1st").habit);
    assert!(marks("we could push the dentist to friday maybe").suggestion);
    assert!(marks("oh sure, it's totally done lol").sarcasm);
    assert!(marks("yeah right, done").sarcasm);
    assert!(marks("it's done lol").sarcasm);
    assert!(marks("I paid it last month, not this month").denied);
    assert!(marks("the passport photos are done, the form isn't").denied);
    assert!(marks("done? no way, not even close").denied);
    for plain in [
        "paid it",
        "maybe tomorrow",
        "done, not the other one",
        "lol ok",
        "not done, push it to friday",
        "haha done!",
    ] {
        assert!(!marks(plain).hedged(), "{plain:?}");
    }
}

#[test]
fn negators_cancel_what_follows_in_their_clause() {
    let negated = |text: &str, word: &str| {
        let sentence = Sentence::read(text);
        sentence.clauses().iter().any(|clause| {
            let words = sentence.clause_words(clause);
            words
                .iter()
                .position(|w| *w == word)
                .is_some_and(|index| clause::negated_at(&words, index))
        })
    };
    assert!(negated("don't mark the passport thing as done", "done"));
    assert!(negated("I haven't paid it", "paid"));
    assert!(negated("not done yet", "done"));
    assert!(!negated("no, but I paid the other one", "paid"));
    assert!(!negated("done, not the other one", "done"));
}

#[test]
fn a_clause_asks_when_it_is_a_question_and_not_when_it_is_a_request() {
    let table = [
        ("how is the passport thing going?", true),
        ("is the passport done", true),
        ("did I pay the rent", true),
        ("what's left", true),
        ("when is it due", true),
        ("done?", true),
        ("did it", false),
        ("did it this morning", false),
        ("do it", false),
        ("can you move it to friday?", false),
        ("could you please mark it done?", false),
        ("how about friday?", false),
        ("when I'm back I'll do it", false),
        ("I paid it", false),
    ];
    for (text, expected) in table {
        assert_eq!(Sentence::read(text).only_asks(), expected, "{text:?}");
    }
}

#[test]
fn a_message_is_counted_each_time_it_is_analysed() {
    let before = analyses_total();
    let _ = Sentence::read("done");
    assert!(analyses_total() > before);
}

fn core(text: &str) -> String {
    Sentence::read(text).core_text().to_string()
}

#[test]
fn the_core_is_what_is_left_without_the_phatic_ends() {
    let table = [
        ("ok, remind me at 7", "remind me at 7"),
        ("would you remind me again at 7", "remind me again at 7"),
        ("hey donna, what's due today?", "what's due today?"),
        ("sorry, not done yet", "not done yet"),
        ("ugh, did I pay it?", "did I pay it?"),
        ("honestly I don't know when", "I don't know when"),
        ("not done yet, sorry!", "not done yet"),
        ("yeah, sent it", "sent it"),
        ("alright I'll get to it at 5pm", "I'll get to it at 5pm"),
        (
            "could you please push it to friday, thanks",
            "push it to friday",
        ),
        ("rent went up again ugh", "rent went up again"),
        ("well done", "well done"),
        ("yes please", "yes please"),
        ("remind me to call donna", "remind me to call donna"),
        ("remind me to say thanks", "remind me to say thanks"),
        ("done, thank you so much!", "done"),
        ("thanks!", "thanks"),
        ("done", "done"),
    ];
    for (text, expected) in table {
        assert_eq!(core(text), expected, "{text:?}");
    }
}

/// The one tokenizer's views.
mod tokenizer {
    use super::super::tokens::*;
    use std::borrow::Cow;

    fn shown(text: &str) -> Vec<String> {
        let read = Tokens::read(text);
        read.tokens
            .iter()
            .map(|token| match token.word_in(&read.normalized) {
                Some(word) => word.to_owned(),
                None => "|".to_owned(),
            })
            .collect()
    }

    #[test]
    fn the_reading_keeps_inner_apostrophes_and_clause_breaks() {
        assert_eq!(shown("It’s DONE!!!"), ["it's", "done", "|"]);
        assert_eq!(shown("'done' 👍"), ["done"]);
        assert_eq!(
            shown("no, not done. ok?!"),
            ["no", "|", "not", "done", "|", "ok", "|"]
        );
        assert_eq!(shown("re-schedule"), ["re", "schedule"]);
        assert_eq!(shown("dogs' toys"), ["dogs", "toys"]);
    }

    #[test]
    fn words_keep_their_place_in_the_original_text() {
        let text = "Don’t forget: call ANNA!";
        let read = Tokens::read(text);
        let words: Vec<&str> = read.words().collect();
        assert_eq!(words, ["don't", "forget", "call", "anna"]);
        assert_eq!(&text[read.at[4].clone()], "ANNA");
        assert_eq!(&text[read.at[0].clone()], "Don’t");
    }

    #[test]
    fn the_time_view_keeps_times_whole_and_splits_apostrophes() {
        let words = |text: &str| words(text, Join::TimeMarks);
        assert_eq!(words("at 17:30, ok"), ["at", "17:30", "ok"]);
        assert_eq!(
            words("2026-12-03 America/New_York"),
            ["2026-12-03", "america/new_york"]
        );
        assert_eq!(words("in 1,5 hours"), ["in", "1.5", "hours"]);
        assert_eq!(
            words("UTC +2 or -5 or \u{2212}3"),
            ["utc", "+2", "or", "-5", "or", "-3"]
        );
        assert_eq!(words("can't, 5pm."), ["can", "t", "5pm"]);
        assert_eq!(words("x-5 -.5"), ["x-5", "5"]);
        let pieces = pieces("İstanbul 9am", Join::TimeMarks);
        assert_eq!(&"İstanbul 9am"[pieces[1].at.clone()], "9am");
    }

    #[test]
    fn the_command_view_keeps_both() {
        assert_eq!(
            words("Don't remind me (every) 9:30am!", Join::Both),
            ["don't", "remind", "me", "every", "9:30am"]
        );
        assert_eq!(words("#2: done", Join::Both), ["2", "done"]);
        assert_eq!(
            words("Renew the Passport!", Join::Nothing),
            ["renew", "the", "passport"]
        );
        assert_eq!(words("don't", Join::Nothing), ["don", "t"]);
    }

    #[test]
    fn keyword_words_reject_unmatchable_keywords() {
        assert_eq!(keyword_words("Don’t!"), Ok(vec!["don't".to_owned()]));
        assert_eq!(keyword_words(" 👍 "), Err(KeywordProblem::NoWords));
        assert_eq!(
            keyword_words("done, thanks"),
            Err(KeywordProblem::SpansClauses)
        );
    }

    #[test]
    fn normalize_borrows_lowercase_text() {
        assert!(matches!(normalize("done 👍"), Cow::Borrowed(_)));
        assert!(matches!(normalize("Done"), Cow::Owned(_)));
        assert_eq!(squeeze("  a \n b  "), "a b");
    }
}
