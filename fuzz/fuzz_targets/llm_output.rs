//! Fuzzes the model-output parser (`donna::llm::output::parse`) and the binding of every parsed
//! action through the shipped action registry, with arbitrary UTF-8 as the model's answer.
//!
//! Checks, besides "no panic":
//! - parsing is deterministic;
//! - a parsed answer has at most `MAX_ACTIONS` (5) actions;
//! - `reply_to_user` has no control character but '\n', is trimmed, and has at most
//!   `MAX_REPLY_CHARS` (1,500) characters; `reasoning` likewise with 2,000;
//! - every action that binds (context `task_id = "tsk_ctx"`, `thread_id = "thr"`) keeps its name,
//!   has `task_id` equal to "tsk_ctx" when it has one (a model cannot aim an action at another
//!   task), has only parameters the registry declares, and has no empty or over-long string;
//! - when the whole input is a JSON object, it is also bound as the `params` of every registered
//!   action, with the same checks (so binding is fuzzed even without a valid answer around it).

#![no_main]

use std::sync::OnceLock;

use donna::actions::{ActionRegistry, ActionRequest, BindContext};
use donna::llm::output::parse;
use donna::llm::schema::{MAX_ACTIONS, MAX_REPLY_CHARS};
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};

const CONTEXT_TASK: &str = "tsk_ctx";

fn registry() -> &'static ActionRegistry {
    static REGISTRY: OnceLock<ActionRegistry> = OnceLock::new();
    REGISTRY.get_or_init(|| match ActionRegistry::shipped() {
        Ok(registry) => registry,
        // Without the shipped registry there is nothing meaningful to fuzz.
        Err(error) => panic!("config/reply_actions.yaml is invalid: {error}"),
    })
}

fn context() -> BindContext {
    BindContext {
        task_id: Some(CONTEXT_TASK.into()),
        thread_id: "thr".into(),
        when: donna::tasks::when::WhenContext {
            now: chrono::DateTime::UNIX_EPOCH,
            timezone: chrono_tz::UTC,
            current_start: None,
            later: std::time::Duration::from_secs(3 * 3600),
        },
    }
}

fn check_clean(field: &str, text: &str, limit: usize) {
    assert!(
        text.chars().all(|c| !c.is_control() || c == '\n'),
        "{field} keeps a control character: {text:?}"
    );
    assert!(
        text.chars().count() <= limit,
        "{field} has {} characters, more than {limit}",
        text.chars().count()
    );
    assert_eq!(text, text.trim(), "{field} is not trimmed");
}

fn bind_and_check(registry: &ActionRegistry, request: &ActionRequest) {
    let Ok(bound) = registry.bind(request, &context()) else {
        return;
    };
    assert_eq!(bound.name, request.name, "bound under another name");
    if let Some(task_id) = bound.params.get("task_id") {
        assert_eq!(
            task_id,
            &Value::String(CONTEXT_TASK.into()),
            "task_id not taken from the context: {request:?}"
        );
    }
    let Some(def) = registry.get(&bound.name) else {
        panic!("bound an unregistered action {:?}", bound.name);
    };
    for (name, value) in &bound.params {
        assert!(
            def.params.contains_key(name),
            "{}: undeclared parameter {name:?} survived binding",
            bound.name
        );
        if let Value::String(text) = value {
            assert!(!text.trim().is_empty(), "{}.{name} is empty", bound.name);
            assert!(
                text.chars().count() <= 500,
                "{}.{name} is longer than 500 characters",
                bound.name
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let registry = registry();

    let parsed = parse(text);
    assert_eq!(parsed, parse(text), "parse is not deterministic");
    if let Ok(answer) = &parsed {
        assert!(
            answer.actions.len() <= MAX_ACTIONS,
            "{} actions parsed",
            answer.actions.len()
        );
        check_clean("reply_to_user", &answer.reply_to_user, MAX_REPLY_CHARS);
        check_clean("reasoning", &answer.reasoning, 2_000);
        for request in &answer.actions {
            bind_and_check(registry, request);
        }
    }

    if let Ok(params) = serde_json::from_str::<Map<String, Value>>(text) {
        for name in registry.names() {
            let request = ActionRequest {
                name: name.to_owned(),
                params: params.clone(),
            };
            bind_and_check(registry, &request);
        }
    }
});
