//! The answer to "which one should I <do>?" (a `which_task` draft, `turn::chat_actions`): a
//! number, an ordinal or title words pick one of the candidates Donna listed, and the actions
//! waiting on it go on exactly as if the person had named that task: what the first message
//! asked for runs at once, anything else becomes a plan (`chat_actions::consent`).
//!
//! Reaches (of `TurnDeps`): the store; and what `waiting_actions` reaches.
//!
//! Invariant: a pick only ever chooses among the listed candidates; an answer that picks none
//! (or several) asks again, and a draft that cannot be read is given up, changing nothing.

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::chat_actions;
use crate::conversation::drafts::{Draft, DraftKind};
use crate::sentence::tokens::{words, Join};
use crate::tasks::named::{self, Among};

use super::apply::Work;
use super::context::TurnContext;
use super::deps::TurnDeps;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::result::TurnPath;
use super::say::{ask_with, say};
use super::texts;
use super::waiting_actions::{settle_waiting_actions, Settling, Waiting};
use super::Inbound;

/// The answer to "which one?": a number, an ordinal or title words pick the candidate.
pub(super) async fn answer_which(
    deps: &TurnDeps,
    context: &TurnContext,
    inbound: &Inbound,
    draft: &Draft,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    let Ok(mut waiting) = serde_json::from_value::<Waiting>(draft.data.clone()) else {
        return Ok((
            say(TurnPath::Unhandled, texts::DRAFT_GIVEN_UP),
            DraftStep::Remove,
        ));
    };
    let answer = inbound.text.clone();
    let (candidates, automation) = (waiting.candidates.clone(), waiting.automation);
    let found = deps
        .store
        .read(move |conn| {
            if let Some(id) = by_number(&answer).and_then(|n| candidates.get(n - 1)) {
                return Ok(vec![id.clone()]);
            }
            let ids: Vec<String> = if automation {
                chat_actions::prepare::automations_named(conn, &answer)?
                    .into_iter()
                    .map(|a| a.id)
                    .collect()
            } else {
                named::candidates(conn, &answer, Among::Open)?
                    .into_iter()
                    .map(|t| t.id)
                    .collect()
            };
            Ok(ids
                .into_iter()
                .filter(|id| candidates.is_empty() || candidates.contains(id))
                .collect::<Vec<_>>())
        })
        .await?;
    let [id] = found.as_slice() else {
        let question = waiting.question.clone();
        let data = serde_json::to_value(&waiting).unwrap_or(Value::Null);
        return Ok(ask_with(
            DraftKind::WhichTask,
            &draft.text,
            data,
            draft.questions + 1,
            &question,
        ));
    };
    waiting.picked.insert(waiting.index, id.clone());
    let settling = Settling {
        questions: draft.questions,
        ..Settling::default()
    };
    settle_waiting_actions(deps, context, waiting, settling, now).await
}

/// "2", "#2", "the second one", "number 2": the candidate's number (from 1).
fn by_number(answer: &str) -> Option<usize> {
    const ORDINALS: [&str; 9] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
    ];
    let words: Vec<String> = words(answer, Join::Nothing)
        .into_iter()
        .filter(|w| !matches!(w.as_str(), "the" | "one" | "number" | "no"))
        .collect();
    let [word] = words.as_slice() else {
        return None;
    };
    if let Ok(number) = word.parse::<usize>() {
        return (number >= 1).then_some(number);
    }
    ORDINALS
        .iter()
        .position(|ordinal| ordinal == word)
        .map(|index| index + 1)
}
