//! Table of reply `FastPath` cases against the shipped `config/reply_intents.yaml`: one line per
//! reply, readable as a sentence. Covers `classify`, `plan_answer`, `is_undo`, `is_confirm_word`
//! and `IntentsConfig::validate`.
//!
//! The lookalike and negation lines pin the fixes of the original substring matcher: each of
//! them was a wrong fast answer once. So were the second-request ("... and make it urgent") and
//! several-tasks ("mark everything done") lines, which a keyword half-did; their
//! neighbours ("done and dusted", "all done") stay fast.
//!
//! `classify`: the fast path's readings and fall-throughs; `plans`: plan answers, undo, late
//! confirm words and matches; `config`: parsing and validating the intents file; `own_words`:
//! people's own words, with times and durations.

mod classify;
mod config;
mod own_words;
mod plans;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::common::reading::{analyze_reply, classify, is_confirm_word, is_undo, plan_answer};
use donna::replies::intents::{
    IntentDef, IntentsConfig, IntentsError, NamedIntent, DEFAULT_MULTI_TASK_SIGNALS,
};
use donna::replies::matcher::{FallThroughReason, FastPath, FastPathOutcome, PlanAnswer};

use FallThroughReason::*;
use FastPathOutcome::{FallThrough, Match};
use PlanAnswer::*;

const SHIPPED_YAML: &str = include_str!("../../../config/reply_intents.yaml");

fn shipped_config() -> IntentsConfig {
    match donna::config::parse_yaml(SHIPPED_YAML) {
        Ok(config) => config,
        Err(error) => panic!("config/reply_intents.yaml does not parse: {error}"),
    }
}

fn fast_path() -> &'static FastPath {
    static FAST_PATH: OnceLock<FastPath> = OnceLock::new();
    FAST_PATH.get_or_init(|| FastPath::new(&shipped_config()))
}

/// What one `classify` line expects: an intent (optionally with its keyword and confirm-word
/// flag) or an exact outcome such as `FallThrough(Negated)`.
enum Expected {
    Intent {
        name: &'static str,
        keyword: Option<&'static str>,
        only_confirm_word: Option<bool>,
    },
    Outcome(FastPathOutcome),
}

impl From<FastPathOutcome> for Expected {
    fn from(outcome: FastPathOutcome) -> Self {
        Expected::Outcome(outcome)
    }
}

fn intent(name: &'static str) -> Expected {
    Expected::Intent {
        name,
        keyword: None,
        only_confirm_word: None,
    }
}

impl Expected {
    fn via(self, expected_keyword: &'static str) -> Self {
        match self {
            Expected::Intent {
                name,
                only_confirm_word,
                ..
            } => Expected::Intent {
                name,
                keyword: Some(expected_keyword),
                only_confirm_word,
            },
            Expected::Outcome(outcome) => Expected::Outcome(outcome),
        }
    }

    fn only_confirm_word(self, expected_flag: bool) -> Self {
        match self {
            Expected::Intent { name, keyword, .. } => Expected::Intent {
                name,
                keyword,
                only_confirm_word: Some(expected_flag),
            },
            Expected::Outcome(outcome) => Expected::Outcome(outcome),
        }
    }
}

#[track_caller]
fn check(reply: &str, expected: impl Into<Expected>) {
    let outcome = classify(fast_path(), reply);
    match (expected.into(), &outcome) {
        (Expected::Outcome(expected), _) => {
            assert_eq!(outcome, expected, "classify({reply:?})");
        }
        (
            Expected::Intent {
                name,
                keyword,
                only_confirm_word,
            },
            Match(found),
        ) => {
            assert_eq!(found.intent, name, "classify({reply:?}) intent");
            if let Some(keyword) = keyword {
                assert_eq!(found.keyword, keyword, "classify({reply:?}) keyword");
            }
            if let Some(only_confirm_word) = only_confirm_word {
                assert_eq!(
                    found.only_confirm_word, only_confirm_word,
                    "classify({reply:?}) only_confirm_word"
                );
            }
        }
        (Expected::Intent { name, .. }, FallThrough(reason)) => {
            panic!("classify({reply:?}): expected intent {name}, fell through with {reason:?}")
        }
    }
}

#[track_caller]
fn answer(reply: &str, expected: PlanAnswer) {
    assert_eq!(
        plan_answer(fast_path(), reply),
        expected,
        "plan_answer({reply:?})"
    );
}

#[track_caller]
fn undo(reply: &str, expected: bool) {
    assert_eq!(is_undo(fast_path(), reply), expected, "is_undo({reply:?})");
}

#[track_caller]
fn confirm_word(reply: &str, expected: bool) {
    assert_eq!(
        is_confirm_word(fast_path(), reply),
        expected,
        "is_confirm_word({reply:?})"
    );
}

fn parse(yaml: &str) -> Result<IntentsConfig, IntentsError> {
    IntentsConfig::from_yaml_str(yaml)
}

fn intent_def<'c>(config: &'c mut IntentsConfig, name: &str) -> &'c mut IntentDef {
    match config.intents.iter_mut().find(|intent| intent.name == name) {
        Some(intent) => &mut intent.def,
        None => panic!("no intent {name} in the shipped config"),
    }
}

/// The shipped config with one edit must fail validation with exactly `message`.
#[track_caller]
fn refused(edit: impl FnOnce(&mut IntentsConfig), message: &str) {
    let mut config = shipped_config();
    edit(&mut config);
    match config.validate() {
        Ok(()) => panic!("validate accepted a config that should fail with {message:?}"),
        Err(error) => assert_eq!(error.to_string(), message),
    }
}

/// The shipped YAML with `from` replaced by `to` must fail to parse, naming `needle`.
#[track_caller]
fn unparsable(from: &str, to: &str, needle: &str) {
    assert!(SHIPPED_YAML.contains(from), "shipped yaml lacks {from:?}");
    match parse(&SHIPPED_YAML.replacen(from, to, 1)) {
        Ok(_) => panic!("parsed a config that should fail naming {needle:?}"),
        Err(error @ IntentsError::Parse(_)) => {
            let message = error.to_string();
            assert!(message.contains(needle), "{message:?} lacks {needle:?}");
        }
        Err(other) => panic!("expected a parse error, got {other}"),
    }
}

/// Like [`check`], through the whole analysis the turn uses (`analyze_reply`), where a reply no
/// keyword matched that is nothing but a time reads as the reschedule intent.
#[track_caller]
fn check_reply(reply: &str, expected: impl Into<Expected>) {
    let outcome = analyze_reply(fast_path(), reply).outcome;
    match (expected.into(), &outcome) {
        (Expected::Outcome(expected), _) => {
            assert_eq!(outcome, expected, "analyze_reply({reply:?})");
        }
        (Expected::Intent { name, keyword, .. }, Match(found)) => {
            assert_eq!(found.intent, name, "analyze_reply({reply:?}) intent");
            if let Some(keyword) = keyword {
                assert_eq!(found.keyword, keyword, "analyze_reply({reply:?}) keyword");
            }
        }
        (Expected::Intent { name, .. }, FallThrough(reason)) => {
            panic!("analyze_reply({reply:?}): expected intent {name}, fell through with {reason:?}")
        }
    }
}
