//! Plan answers, undo requests, late confirm words, what a match carries, the longer phrase
//! winning, and the fall-through reasons' names.

use super::*;

#[test]
fn plan_answers() {
    answer("yes", Confirm);
    answer("Yes!", Confirm);
    answer("yep", Confirm);
    answer("yeah sure", Confirm);
    answer("ok", Confirm);
    answer("OK.", Confirm);
    answer("okay 👍", Confirm);
    answer("sounds good", Confirm);
    answer("go ahead", Confirm);
    answer("sure, go ahead", Confirm);
    answer("go for it", Confirm);
    answer("confirm", Confirm);
    answer("do it", Confirm);
    answer("yes, do it", Confirm);
    answer("yes please", Confirm);

    answer("no", Reject);
    answer("No.", Reject);
    answer("nope", Reject);
    answer("nah", Reject);
    answer("cancel", Reject);
    answer("cancel that", Reject);
    answer("stop", Reject);
    answer("never mind", Reject);
    answer("nevermind", Reject);
    answer("don't do it", Reject);
    answer("dont do it", Reject);
    answer("no thanks", Reject);

    answer("yes no", Neither);
    answer("yes?", Neither);
    answer("do it?", Neither);
    answer("cancel?", Neither);
    answer("should I?", Neither);
    answer("ok but change the title", Neither);
    answer("yes but later", Neither);
    answer("not ok", Neither);
    answer("not sure", Neither);
    answer("no, go ahead", Neither);
    answer("yes, cancel", Neither);
    answer("okay, sure, go ahead", Neither);
    answer("book it", Neither);
    answer("yesterday", Neither);
    answer("I know", Neither);
    answer("thanks", Neither);
    answer("", Neither);
}

#[test]
fn plan_answers_about_several_tasks_or_with_a_second_request_are_neither() {
    // The plan was proposed for what Donna understood; "all of them" or "and make it urgent"
    // may ask for more, so the model reads it (and proposes again) rather than a keyword
    // confirming or dropping part of it.
    answer("yes to all of them", Neither);
    answer("ok, do them all", Neither);
    answer("yes, for every task", Neither);
    answer("cancel every one of these", Neither);
    answer("no to both", Neither);
    answer("ok and make it urgent", Neither);
    answer("no and cancel it", Neither);
    // The idioms and a closing "and thanks" still answer.
    answer("yes, all done", Confirm);
    answer("ok, all good", Confirm);
    answer("yes and thanks", Confirm);
    answer("no, all good", Reject);
}

#[test]
fn undo_requests() {
    undo("undo", true);
    undo("Undo!", true);
    undo("undo that", true);
    undo("revert", true);
    undo("revert please", true);
    undo("please undo", true);

    undo("don't undo", false);
    undo("no need to undo", false);
    undo("do not revert", false);
    undo("can you undo?", false);
    undo("undo?", false);
    undo("undoing", false);
    undo("undone", false);
    undo("reverted", false);
    undo("undo but keep the title", false);
    undo("", false);

    // Which actions, on which tasks, is the model's to read.
    undo("undo all of them", false);
    undo("undo everything", false);
    undo("revert both", false);
    undo("undo each one", false);
    undo("undo them all", false);
    undo("undo that and mark it done", false);
}

#[test]
fn late_confirm_words() {
    confirm_word("yes", true);
    confirm_word("ok then", true);
    confirm_word("yes but later", true);
    confirm_word("yes?", true);
    confirm_word("not ok", false);
    confirm_word("don't do it", false);
    confirm_word("yesterday", false);
    confirm_word("book it", false);
    confirm_word("no", false);
    confirm_word("   ", false);
}

#[test]
fn a_match_carries_the_intent_action_and_params() {
    let Match(found) = classify(fast_path(), "snooze") else {
        panic!("\"snooze\" should match busy");
    };
    assert_eq!(found.intent, "busy");
    assert_eq!(found.action, "snooze");
    assert!(!found.confirm);
    assert!(found.params.is_empty());

    let yaml = SHIPPED_YAML.replace(
        "    action: snooze\n    confirm: false",
        "    action: snooze\n    confirm: true\n    params: { minutes: 30 }",
    );
    let config = parse(&yaml).unwrap_or_else(|error| panic!("edited config refused: {error}"));
    let Match(found) = classify(&FastPath::new(&config), "busy") else {
        panic!("\"busy\" should match busy");
    };
    assert!(found.confirm);
    assert_eq!(found.params.get("minutes"), Some(&serde_json::json!(30)));
}

#[test]
fn a_longer_phrase_wins_over_a_shorter_one_it_covers() {
    let mut config = shipped_config();
    config.intents.push(NamedIntent {
        name: "right_now".to_owned(),
        def: IntentDef {
            keywords: vec!["now".to_owned()],
            action: "start_now".to_owned(),
            confirm: false,
            params: BTreeMap::default(),
        },
    });
    let fast_path = FastPath::new(&config);
    let intent_of = |reply: &str| match classify(&fast_path, reply) {
        Match(found) => found.intent,
        FallThrough(reason) => format!("{reason:?}"),
    };
    assert_eq!(intent_of("not now"), "busy");
    assert_eq!(intent_of("now"), "right_now");
    assert_eq!(intent_of("now is fine"), "right_now");
}

#[test]
fn fall_through_reasons_have_stable_names() {
    assert_eq!(TooManyClauses.as_str(), "too_many_clauses");
    assert_eq!(NoKeyword.as_str(), "no_keyword");
    assert_eq!(MultiIntent.as_str(), "multi_intent");
    assert_eq!(MultiTask.as_str(), "multi_task");
}
