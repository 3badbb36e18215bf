//! The intents file: the shipped one valid and ordered, defaults, and what `validate` refuses.

use super::*;

#[test]
fn the_shipped_config_is_valid_and_keeps_intent_order() {
    let config = parse(SHIPPED_YAML).unwrap_or_else(|error| panic!("{error}"));
    let names: Vec<&str> = config
        .intents
        .iter()
        .map(|intent| intent.name.as_str())
        .collect();
    assert_eq!(names, ["mark_done", "reschedule", "busy", "cancel"]);
    assert_eq!(config.fast_path.max_length, 60);
}

#[test]
fn multi_task_signals_default_to_the_shipped_list_and_can_be_replaced() {
    let shipped = shipped_config();
    assert_eq!(
        shipped.fast_path.multi_task_signals,
        DEFAULT_MULTI_TASK_SIGNALS.map(str::to_owned)
    );

    // A file written before the key existed gets the built-in list.
    let start = SHIPPED_YAML
        .find("  multi_task_signals:")
        .unwrap_or_else(|| panic!("shipped yaml lacks multi_task_signals"));
    let end = start
        + SHIPPED_YAML[start..]
            .find("\n  # ")
            .unwrap_or_else(|| panic!("nothing follows multi_task_signals"));
    let without_key = format!("{}{}", &SHIPPED_YAML[..start], &SHIPPED_YAML[end + 1..]);
    assert!(!without_key.contains("multi_task_signals"));
    let config = parse(&without_key).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        config.fast_path.multi_task_signals,
        shipped.fast_path.multi_task_signals
    );

    // The list is vocabulary like the others: replacing it replaces the defaults.
    let mut config = shipped;
    config.fast_path.multi_task_signals = vec!["the lot".to_owned()];
    let fast_path = FastPath::new(&config);
    assert_eq!(
        classify(&fast_path, "finished the lot"),
        FallThrough(MultiTask)
    );
    assert!(matches!(classify(&fast_path, "snooze them all"), Match(_)));
}

#[test]
fn intent_confirm_and_params_default_when_omitted() {
    let yaml = SHIPPED_YAML.replace(
        "    action: snooze\n    confirm: false",
        "    action: snooze",
    );
    let config = parse(&yaml).unwrap_or_else(|error| panic!("{error}"));
    let busy = &config.intents[2].def;
    assert!(!busy.confirm);
    assert!(busy.params.is_empty());
}

#[test]
fn unknown_keys_and_duplicate_intents_do_not_parse() {
    unparsable(
        "  max_clauses: 2",
        "  max_clauses: 2\n  max_words: 9",
        "max_words",
    );
    unparsable("fast_path:", "version: 1\nfast_path:", "version");
    unparsable(
        "    action: snooze",
        "    action: snooze\n    priority: 1",
        "priority",
    );
    unparsable(
        "  busy:\n",
        "  reschedule:\n    keywords: [\"again\"]\n    action: reschedule\n  busy:\n",
        "duplicate intent `reschedule`",
    );
}

#[test]
fn validate_refuses_empty_lists_and_limits() {
    refused(
        |config| intent_def(config, "busy").keywords.clear(),
        "`intents.busy.keywords` must not be empty",
    );
    refused(
        |config| config.fast_path.confirm_keywords.clear(),
        "`fast_path.confirm_keywords` must not be empty",
    );
    refused(
        |config| config.fast_path.multi_intent_signals.clear(),
        "`fast_path.multi_intent_signals` must not be empty",
    );
    refused(
        |config| config.fast_path.multi_task_signals.clear(),
        "`fast_path.multi_task_signals` must not be empty",
    );
    refused(
        |config| config.intents.clear(),
        "`intents` must not be empty",
    );
    refused(
        |config| config.fast_path.max_length = 0,
        "`fast_path.max_length` must be at least 1",
    );
    refused(
        |config| config.fast_path.max_clauses = 0,
        "`fast_path.max_clauses` must be at least 1",
    );
}

#[test]
fn validate_refuses_unusable_names_and_keywords() {
    refused(
        |config| config.intents[0].name = " ".to_owned(),
        "`intents` has an intent with an empty name",
    );
    refused(
        |config| intent_def(config, "busy").action.clear(),
        "`intents.busy.action` must not be empty",
    );
    refused(
        |config| intent_def(config, "busy").keywords.push(String::new()),
        "`intents.busy.keywords` entry \"\" has no words",
    );
    refused(
        |config| config.fast_path.undo_keywords.push("👍".to_owned()),
        "`fast_path.undo_keywords` entry \"👍\" has no words",
    );
    refused(
        |config| {
            intent_def(config, "mark_done")
                .keywords
                .push("done, thanks".to_owned());
        },
        "`intents.mark_done.keywords` entry \"done, thanks\" has clause punctuation between its \
         words, so it can never match",
    );
}

#[test]
fn validate_refuses_words_with_two_meanings() {
    refused(
        |config| {
            intent_def(config, "mark_done")
                .keywords
                .push("nope".to_owned());
        },
        "`intents.mark_done.keywords` entry \"nope\" is also in `fast_path.reject_keywords`",
    );
    refused(
        |config| {
            intent_def(config, "busy")
                .keywords
                .push("Don’t!".to_owned());
        },
        "`intents.busy.keywords` entry \"Don’t!\" is also in `fast_path.reject_keywords`",
    );
    refused(
        |config| config.fast_path.confirm_keywords.push("No".to_owned()),
        "`fast_path.confirm_keywords` entry \"No\" is also in `fast_path.reject_keywords`",
    );
    refused(
        |config| intent_def(config, "busy").keywords.push("Later".to_owned()),
        "`intents.busy.keywords` entry \"Later\" is also in `intents.reschedule.keywords`, so it \
         would match two intents",
    );
}
