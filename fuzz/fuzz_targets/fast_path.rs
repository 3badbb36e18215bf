//! Fuzzes the reply `FastPath` built from the shipped `config/reply_intents.yaml` with arbitrary
//! UTF-8 replies: `classify`, `plan_answer`, `is_undo` and `is_confirm_word`.
//!
//! Checks, besides "no panic":
//! - every call is deterministic (the same reply twice gives the same answer);
//! - a reply that is empty after trimming falls through as `Empty`, is no plan answer, no undo
//!   and no confirm word;
//! - a reply longer than `fast_path.max_length` characters (after trimming) falls through as
//!   `TooLong`, is no plan answer and no undo;
//! - a reply the complexity/question gate refuses (`Empty`, `TooLong`, `MultiIntent`,
//!   `MultiTask`, `TooManyClauses`, `Question`) is also `Neither` for `plan_answer` and not an
//!   undo: all three share the gate;
//! - `plan_answer` is `Confirm` only when `is_confirm_word` is true;
//! - appending a reject keyword (" no", " cancel", ...) never gives `Confirm`: a plan is
//!   confirmed only when no reject keyword is present at all;
//! - ASCII case does not matter: the upper-cased reply gets the same four answers;
//! - a `Match` names a configured intent, its action, and one of that intent's keywords.

#![no_main]

use std::sync::OnceLock;

use donna::replies::intents::IntentsConfig;
use donna::replies::matcher::{FallThroughReason, FastPath, FastPathOutcome, PlanAnswer};
use libfuzzer_sys::fuzz_target;

struct Shipped {
    config: IntentsConfig,
    fast_path: FastPath,
    /// Reject keywords that no confirm keyword contains, so appending one to a reply always
    /// leaves a reject keyword that no longer confirm phrase shadows.
    appendable_rejects: Vec<String>,
}

fn shipped() -> &'static Shipped {
    static SHIPPED: OnceLock<Shipped> = OnceLock::new();
    SHIPPED.get_or_init(|| {
        let config =
            match IntentsConfig::from_yaml_str(include_str!("../../config/reply_intents.yaml")) {
                Ok(config) => config,
                // Without the shipped vocabulary there is nothing meaningful to fuzz.
                Err(error) => panic!("config/reply_intents.yaml is invalid: {error}"),
            };
        let fast_path = FastPath::new(&config);
        let appendable_rejects = config
            .fast_path
            .reject_keywords
            .iter()
            .filter(|reject| {
                let reject = reject.to_lowercase();
                !config
                    .fast_path
                    .confirm_keywords
                    .iter()
                    .any(|confirm| confirm.to_lowercase().contains(&reject))
            })
            .cloned()
            .collect();
        Shipped {
            config,
            fast_path,
            appendable_rejects,
        }
    })
}

#[derive(Debug, PartialEq)]
struct Answers {
    outcome: FastPathOutcome,
    plan: PlanAnswer,
    undo: bool,
    confirm_word: bool,
}

fn answers(fast_path: &FastPath, text: &str) -> Answers {
    Answers {
        outcome: fast_path.classify(text),
        plan: fast_path.plan_answer(text),
        undo: fast_path.is_undo(text),
        confirm_word: fast_path.is_confirm_word(text),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let shipped = shipped();
    let fast_path = &shipped.fast_path;

    let first = answers(fast_path, text);
    let again = answers(fast_path, text);
    assert_eq!(first, again, "not deterministic for {text:?}");

    let trimmed = text.trim();
    if trimmed.is_empty() {
        assert_eq!(
            first,
            Answers {
                outcome: FastPathOutcome::FallThrough(FallThroughReason::Empty),
                plan: PlanAnswer::Neither,
                undo: false,
                confirm_word: false,
            },
            "blank reply {text:?}"
        );
    }
    if trimmed.chars().count() > shipped.config.fast_path.max_length {
        assert_eq!(
            first.outcome,
            FastPathOutcome::FallThrough(FallThroughReason::TooLong),
            "long reply {text:?}"
        );
    }

    match &first.outcome {
        FastPathOutcome::FallThrough(
            FallThroughReason::Empty
            | FallThroughReason::TooLong
            | FallThroughReason::MultiIntent
            | FallThroughReason::MultiTask
            | FallThroughReason::TooManyClauses
            | FallThroughReason::Question,
        ) => {
            assert_eq!(first.plan, PlanAnswer::Neither, "gated reply {text:?}");
            assert!(!first.undo, "gated reply {text:?} is an undo");
        }
        FastPathOutcome::FallThrough(_) => {}
        FastPathOutcome::Match(found) => {
            let intent = shipped
                .config
                .intents
                .iter()
                .find(|intent| intent.name == found.intent);
            let Some(intent) = intent else {
                panic!("{text:?} matched unknown intent {:?}", found.intent);
            };
            assert_eq!(found.action, intent.def.action, "{text:?}");
            assert_eq!(found.confirm, intent.def.confirm, "{text:?}");
            assert!(
                intent.def.keywords.contains(&found.keyword),
                "{text:?} matched {:?}, not a keyword of {}",
                found.keyword,
                intent.name
            );
        }
    }

    if first.plan == PlanAnswer::Confirm {
        assert!(
            first.confirm_word,
            "{text:?} confirms without a confirm word"
        );
    }

    for reject in &shipped.appendable_rejects {
        let with_reject = format!("{text} {reject}");
        assert_ne!(
            fast_path.plan_answer(&with_reject),
            PlanAnswer::Confirm,
            "{with_reject:?} confirms despite the reject keyword {reject:?}"
        );
    }

    let upper = text.to_ascii_uppercase();
    if upper != text {
        assert_eq!(
            answers(fast_path, &upper),
            first,
            "ASCII case changed the answers for {text:?}"
        );
    }
});
