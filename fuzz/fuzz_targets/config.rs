//! Fuzzes the three YAML configs with the same arbitrary UTF-8 text: `donna.yaml`
//! (`config::parse_yaml::<Config>` then `Config::validate` with an empty environment),
//! `reply_intents.yaml` (`IntentsConfig::from_yaml_str`) and `reply_actions.yaml`
//! (`ActionRegistry::from_yaml`).
//!
//! Checks: no panic (errors are fine, and every error message is non-empty). Beyond that, what
//! a config that is accepted makes possible must not panic either: a `FastPath` built from an
//! accepted intents config classifies a few replies (including each of its own keywords), and
//! an accepted registry yields an output schema and binds an empty request for every action.

#![no_main]

use donna::actions::{ActionRegistry, ActionRequest, BindContext};
use donna::config::{parse_yaml, Config, Env};
use donna::llm::schema::output_schema;
use donna::replies::intents::IntentsConfig;
use donna::replies::matcher::FastPath;
use libfuzzer_sys::fuzz_target;

/// An environment with no variables at all: no API token, no Discord token.
struct NoEnv;

impl Env for NoEnv {
    fn var(&self, _name: &str) -> Option<String> {
        None
    }
}

fn donna_yaml(text: &str) {
    match parse_yaml::<Config>(text) {
        Ok(config) => {
            if let Err(error) = config.validate(&NoEnv) {
                assert!(!error.to_string().is_empty());
            }
        }
        Err(error) => assert!(!error.to_string().is_empty()),
    }
}

fn intents_yaml(text: &str) {
    let config = match IntentsConfig::from_yaml_str(text) {
        Ok(config) => config,
        Err(error) => {
            assert!(!error.to_string().is_empty());
            return;
        }
    };
    let fast_path = FastPath::new(&config);
    let mut replies = vec![
        "done",
        "not now",
        "yes, do it",
        "undo",
        "push it to friday?",
    ];
    for intent in &config.intents {
        replies.extend(intent.def.keywords.iter().map(String::as_str));
    }
    for reply in replies {
        let _ = fast_path.classify(reply);
        let _ = fast_path.plan_answer(reply);
        let _ = fast_path.is_undo(reply);
        let _ = fast_path.is_confirm_word(reply);
    }
}

fn actions_yaml(text: &str) {
    let registry = match ActionRegistry::from_yaml(text) {
        Ok(registry) => registry,
        Err(error) => {
            assert!(!error.to_string().is_empty());
            return;
        }
    };
    let _ = output_schema(&registry).to_string();
    let context = BindContext {
        task_id: Some("tsk_ctx".into()),
        thread_id: "thr".into(),
        when: donna::tasks::when::WhenContext {
            now: chrono::DateTime::UNIX_EPOCH,
            timezone: chrono_tz::UTC,
            current_start: None,
            later: std::time::Duration::from_secs(3 * 3600),
        },
    };
    for name in registry.names() {
        let request = ActionRequest {
            name: name.to_owned(),
            params: serde_json::Map::new(),
        };
        let _ = registry.bind(&request, &context);
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    donna_yaml(text);
    intents_yaml(text);
    actions_yaml(text);
});
