//! The invariants of grounding on a few sentences; the tables of people's sentences per kind
//! are in tests/it/grounding_table.rs and tests/it/consent_kinds.rs.

use super::*;

fn asks(text: &str, ask: Ask) -> bool {
    asks_for(&Sentence::read(text), ask, &Context::default(), || false)
}

fn words(text: &str) -> Vec<String> {
    Tokens::read(text).words().map(str::to_string).collect()
}

fn said(text: &str) -> Vec<String> {
    words(text)
}

fn view(words: &[String]) -> Vec<&str> {
    words.iter().map(String::as_str).collect()
}

#[test]
fn a_question_a_negation_or_an_intention_asks_for_nothing() {
    assert!(asks("sent it", Ask::Done));
    assert!(!asks("did you send it?", Ask::Done));
    assert!(!asks("don't mark it as done", Ask::Done));
    assert!(!asks("I'll send it tonight", Ask::Done));
    assert!(!asks("I haven't sent it", Ask::Done));
    assert!(asks("can you mark call mum as done", Ask::Done));
}

#[test]
fn someone_elses_deed_is_a_plan_and_the_tasks_own_thing_acting_is_nothing() {
    let judged = |text: &str, title: &str| {
        let context = Context {
            task_title: Some(title),
            extra: None,
        };
        judge(&Sentence::read(text), Ask::Done, &context, || false)
    };
    assert_eq!(judged("Tom paid it", "Pay rent"), Grounded::Plan);
    assert_eq!(judged("mum called, she says hi", "Call mum"), Grounded::No);
    assert_eq!(judged("rent went up again ugh", "Pay rent"), Grounded::No);
    assert_eq!(
        judged("oh sure, it's totally done lol", "Pay rent"),
        Grounded::Plan
    );
    assert_eq!(judged("paid it", "Pay rent"), Grounded::Asked);
    assert_eq!(
        judged("I wish the taxes were done", "Do the taxes"),
        Grounded::No
    );
}

#[test]
fn a_time_counts_only_for_moving_and_snoozing_and_never_in_a_question() {
    let sentence = Sentence::read("friday 3pm");
    assert!(asks_for(&sentence, Ask::Move, &Context::default(), || true));
    assert!(!asks_for(&sentence, Ask::Done, &Context::default(), || {
        true
    }));
    let question = Sentence::read("is it due friday 3pm?");
    assert!(!asks_for(&question, Ask::Move, &Context::default(), || {
        true
    }));
}

#[test]
fn a_past_form_of_the_titles_own_verb_reports_it_done() {
    let context = Context {
        task_title: Some("Water the plants"),
        extra: None,
    };
    let sentence = Sentence::read("watered them this morning");
    assert!(asks_for(&sentence, Ask::Done, &context, || false));
    let sentence = Sentence::read("I'll water them later");
    assert!(!asks_for(&sentence, Ask::Done, &context, || false));
}

#[test]
fn a_title_stands_in_the_message_when_half_its_words_do() {
    let message = said("stick oat milk on the list");
    assert!(title_in_message(&view(&message), "Buy oat milk"));
    assert!(!title_in_message(
        &view(&message),
        "Wire 5000 USD to an account"
    ));
    assert!(!title_in_message(&view(&said("what a day")), "Wire money"));
}

#[test]
fn time_words_count_only_when_the_message_holds_them() {
    // (the person's message, the model's `when`, the person's?)
    let table = [
        ("call mom at 9", "at 9", true),
        (
            "I have to call the dentist tomorrow at 9",
            "tomorrow at 9",
            true,
        ),
        (
            "remind me in 20 minutes to check the oven",
            "in 20 minutes",
            true,
        ),
        ("Pay the rent by Friday", "by friday", true),
        ("dentist next week pls", "next week", true),
        ("tax return due december 15", "by december 15", true),
        ("water the plants tmrw 8am", "tmrw 8am", true),
        // Not said: the model made them up.
        ("I need to renew my passport", "friday at 5", false),
        ("remember the car needs new tyres", "tomorrow", false),
        ("I just got back from the gym", "today", false),
        ("buy a present for Sam", "at the", false),
        ("book the flights", "", false),
    ];
    for (message, when, expected) in table {
        assert_eq!(
            time_words_said(&view(&said(message)), when),
            expected,
            "{message:?} / {when:?}"
        );
    }
}

#[test]
fn many_titles_read_at_once_answer_as_each_title_alone() {
    let titles = [
        "Call the bank about case 3",
        "Call the bank about case 4",
        "Water the plants",
        "Send the invoice",
    ];
    let sentences = [
        "could you make sure I call the bank on friday",
        "called the bank this morning",
        "watered them",
        "I haven't watered them yet",
        "I'll water them later",
        "did you send the invoice?",
        "sent!",
        "push the bank call to monday",
        "scrap the invoice",
        "I'm so done with the bank",
        "this morning I finally watered",
        "the weather is so nice today",
    ];
    // Every kind there is.
    let kinds = std::iter::once(Ask::Create).chain(Ask::CHANGES);
    for sentence in sentences {
        let message = Sentence::read(sentence);
        for ask in kinds.clone() {
            let each = titles.iter().any(|title| {
                let context = Context {
                    task_title: Some(title),
                    extra: None,
                };
                asks_for(&message, ask, &context, || false)
            });
            assert_eq!(
                asks_for_on_any(&message, ask, &titles),
                each,
                "{sentence:?} / {ask:?}"
            );
            assert!(
                !asks_for_on_any(&message, ask, &[]),
                "{sentence:?}: no task"
            );
        }
    }
    // The title's own verb still reports it done.
    let watered = Sentence::read("watered them this morning");
    assert!(asks_for_on_any(&watered, Ask::Done, &titles));
}
