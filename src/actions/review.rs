//! Reviewing a model's proposal as a whole, after each action was bound and before the plan is
//! shown: small models propose actions the reply gives no ground for, placeholder titles, the
//! same action twice, and plans that contradict themselves ("cancel it" and "move it to friday").
//!
//! Invariants (pure: no I/O, the same proposal and reply always give the same review):
//! - With evidence required, an action the reply gives no ground for (its registry `evidence`) is
//!   dropped; an action that declares no evidence is never grounded. An action the reply asks
//!   for only by halves (sarcasm, a suggestion, someone else's report: `Grounded::Plan`) stays:
//!   it is proposed, like everything here.
//! - A new title that is a placeholder ("new task", "task", the template's own words), that
//!   repeats the thread task's title, or that shares no word with the reply, is dropped.
//! - An action proposed twice with the same parameters is kept once.
//! - A plan that cancels a task and does anything else to it, that both ends a task (done,
//!   cancel) and moves it (reschedule, snooze), or that sets one thing two ways (two moves, or
//!   two different titles for one task), is refused whole: the person is asked what they mean.

use std::collections::BTreeMap;

use serde_json::Value;

use super::bind::BoundAction;
use super::handler_kind::HandlerKind;
use super::registry::ActionRegistry;
use crate::replies::grounding::Grounded;
use crate::sentence::lexicon::questions;
use crate::sentence::tokens::{words, Join};
use crate::sentence::Sentence;

/// What the review is told about the turn.
#[derive(Debug, Clone, Copy)]
pub struct ReviewInput<'a> {
    /// The person's reply the model answered, read once.
    pub reply: &'a Sentence,
    /// The title of the thread's task, if it has one.
    pub task_title: Option<&'a str>,
    /// `llm.require_evidence`.
    pub require_evidence: bool,
}

/// Why an action was left out of the plan.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Dropped {
    #[error("{0}: nothing in the reply asks for it")]
    NoGround(String),
    #[error("{action}: {title:?} is a placeholder, not a title")]
    PlaceholderTitle { action: String, title: String },
    #[error("{action}: {title:?} is the task's own title")]
    SameTitle { action: String, title: String },
    #[error("{action}: {title:?} shares no word with the reply")]
    InventedTitle { action: String, title: String },
    #[error("{0}: proposed twice")]
    Duplicate(String),
}

/// Why a plan cannot be proposed at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Contradiction {
    #[error("it cancels the task and also does {0} to it")]
    CancelAndMore(String),
    #[error("it both ends the task ({ends}) and moves it ({moves})")]
    EndAndMove { ends: String, moves: String },
    #[error("it does {0} twice, two different ways")]
    TwoWays(String),
}

/// The outcome of a review.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    /// What may be proposed, in the model's order.
    pub kept: Vec<BoundAction>,
    pub dropped: Vec<Dropped>,
    /// Set when the plan may not be proposed at all (then `kept` is empty).
    pub contradiction: Option<Contradiction>,
}

/// Reviews `actions` (each already bound) against the reply. `names_a_time` says whether the
/// reply names a usable time (asked at most once, and only if an action accepts a time as
/// ground).
pub fn review_plan(
    registry: &ActionRegistry,
    actions: Vec<BoundAction>,
    input: ReviewInput<'_>,
    names_a_time: impl FnOnce() -> bool,
) -> Review {
    let mut names_a_time = Some(names_a_time);
    let mut time_named: Option<bool> = None;
    let mut dropped = Vec::new();
    let mut kept: Vec<BoundAction> = Vec::new();
    for action in actions {
        if input.require_evidence {
            let grounded = registry.grounded(&action.name, input.reply, input.task_title, || {
                *time_named.get_or_insert_with(|| names_a_time.take().is_some_and(|f| f()))
            });
            if grounded == Grounded::No {
                dropped.push(Dropped::NoGround(action.name.clone()));
                continue;
            }
        }
        if let Some(reason) = title_problem(registry, &action, &input) {
            dropped.push(reason);
            continue;
        }
        if kept
            .iter()
            .any(|k| k.name == action.name && k.params == action.params)
        {
            dropped.push(Dropped::Duplicate(action.name.clone()));
            continue;
        }
        kept.push(action);
    }
    match contradiction(&kept) {
        Some(contradiction) => Review {
            kept: Vec::new(),
            dropped,
            contradiction: Some(contradiction),
        },
        None => Review {
            kept,
            dropped,
            contradiction: None,
        },
    }
}

/// The parameter holding a new title, for the handlers that take one.
fn title_param(handler: HandlerKind) -> Option<&'static str> {
    match handler {
        HandlerKind::CreateTask => Some("title"),
        HandlerKind::RenameTask => Some("new_title"),
        _ => None,
    }
}

/// Titles a model writes when it has none: generic words, and the prompt's own words for the
/// parameter (its name and description).
const PLACEHOLDER_TITLES: &[&str] = &[
    "",
    "task",
    "new task",
    "a new task",
    "the task",
    "title",
    "new title",
    "the new title",
    "untitled",
    "todo",
    "to do",
    "something",
    "tbd",
    "string",
    "name",
    "new name",
    "task title",
];

fn title_problem(
    registry: &ActionRegistry,
    action: &BoundAction,
    input: &ReviewInput<'_>,
) -> Option<Dropped> {
    let param = title_param(action.handler)?;
    let title = action.params.get(param).and_then(Value::as_str)?;
    let plain = plain_title(title);
    let template_words = registry
        .get(&action.name)
        .and_then(|def| def.params.get(param))
        .and_then(|def| def.description.as_deref())
        .map(plain_title);
    let problem =
        |make: fn(String, String) -> Dropped| Some(make(action.name.clone(), title.to_string()));
    if PLACEHOLDER_TITLES.contains(&plain.as_str())
        || plain == plain_title(param)
        || template_words.as_deref() == Some(plain.as_str())
    {
        return problem(|action, title| Dropped::PlaceholderTitle { action, title });
    }
    if input.task_title.map(plain_title).as_deref() == Some(plain.as_str()) {
        return problem(|action, title| Dropped::SameTitle { action, title });
    }
    if !shares_a_word(title, input.reply) {
        return problem(|action, title| Dropped::InventedTitle { action, title });
    }
    None
}

/// Lowercase words joined by single spaces, without punctuation or template brackets.
fn plain_title(title: &str) -> String {
    words(title, Join::Apostrophes).join(" ")
}

/// Words every sentence has: sharing one of these says nothing about where a title came from.
const FUNCTION_WORDS: &[&str] = &[
    "the", "and", "for", "with", "this", "that", "these", "those", "from", "into", "onto", "but",
    "not", "you", "your", "all", "out", "off", "its", "it's", "our", "their", "them", "they",
    "she", "his", "her", "him", "then", "than", "too", "also", "just", "some", "any", "task",
    "please",
];

/// Whether a title has a word of three letters or more (not a function word) that is also in
/// the reply: a title the person never said any part of is the model's invention.
fn shares_a_word(title: &str, reply: &Sentence) -> bool {
    words(title, Join::Apostrophes)
        .iter()
        .filter(|word| {
            word.chars().count() >= 3
                && !FUNCTION_WORDS.contains(&word.as_str())
                && !questions::is_question_word(word)
                && !questions::is_auxiliary(word)
        })
        .any(|word| reply.words().any(|said| said == word))
}

/// The first contradiction among actions on the same task.
fn contradiction(actions: &[BoundAction]) -> Option<Contradiction> {
    let mut by_task: BTreeMap<&str, Vec<&BoundAction>> = BTreeMap::new();
    for action in actions {
        if let Some(task) = action.params.get("task_id").and_then(Value::as_str) {
            by_task.entry(task).or_default().push(action);
        }
    }
    for steps in by_task.values() {
        let find = |kinds: &[HandlerKind]| {
            steps
                .iter()
                .find(|step| kinds.contains(&step.handler))
                .map(|step| step.name.clone())
        };
        if steps.iter().any(|s| s.handler == HandlerKind::CancelTask) {
            if let Some(other) = steps.iter().find(|s| s.handler != HandlerKind::CancelTask) {
                return Some(Contradiction::CancelAndMore(other.name.clone()));
            }
        }
        const MOVES: [HandlerKind; 2] = [HandlerKind::Reschedule, HandlerKind::Snooze];
        let ends = find(&[HandlerKind::MarkDone, HandlerKind::CancelTask]);
        let moves = find(&MOVES);
        if let (Some(ends), Some(moves)) = (ends, moves.clone()) {
            return Some(Contradiction::EndAndMove { ends, moves });
        }
        if let Some(moves) =
            moves.filter(|_| steps.iter().filter(|s| MOVES.contains(&s.handler)).count() > 1)
        {
            return Some(Contradiction::TwoWays(moves));
        }
        for (index, step) in steps.iter().enumerate() {
            if steps[index + 1..].iter().any(|later| {
                later.handler == step.handler
                    && step.handler != HandlerKind::CreateTask
                    && later.params != step.params
            }) {
                return Some(Contradiction::TwoWays(step.name.clone()));
            }
        }
        // Two cancels of one task are duplicates (removed above), never a contradiction.
    }
    None
}
