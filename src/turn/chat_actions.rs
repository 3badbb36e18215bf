//! The chat's actions in a turn (issue 14; DESIGN.md "Consent", "Tasks named in chat"): the
//! actions a `chat` answer proposes (in the chat room, or composed by the planner) are checked
//! against config/chat_actions.yaml, the tasks they name resolved by Donna, reads answered, and
//! the writes either run at once (what the person plainly asked for) or become ONE plan that
//! waits for a yes. A task Donna cannot settle on is asked about ("which one?", a `which_task`
//! draft keeping the actions); the answer (a number or title words) picks it and the actions go
//! on. A new task goes through the capture path (validation, time words, duplicates).
//!
//! Invariants:
//! - Nothing runs that the registry does not have, whose parameters do not check, or whose task
//!   is not exactly one task Donna resolved; a question or a refusal changes nothing.
//! - When actions are proposed, the reply is Donna's own words (what ran, the plan, the
//!   question): the model's text, written before anything ran, never claims a result. The
//!   planner's composed answer is kept before them: it is the answer to the question.
//! - Writes after planner tools are always a plan (`chat_actions::consent`).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::actions::{ActionRequest, BoundAction};
use crate::chat_actions::{self, consent, Asked, Consent, Pick, Picked, Prepared, WriteTarget};
use crate::conversation::drafts::{Draft, DraftKind};
use crate::planner::ToolEnv;
use crate::tasks::named::{self, Among};
use crate::tasks::TaskSource;

use super::apply::Work;
use super::context::TurnContext;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::free_text::{ask_with, say};
use super::pipeline::Pipeline;
use super::result::{PlannerStep, TurnPath};
use super::texts;
use super::Inbound;

/// A chat answer's actions and what the turn knows around them.
#[derive(Debug, Clone)]
pub(super) struct Proposed {
    /// The actions exactly as the model gave them.
    pub actions: Vec<Value>,
    /// The planner's composed answer and tool calls; None for the chat room.
    pub planner: Option<(String, Vec<PlannerStep>)>,
    /// The chat session the turn slides (the chat room's).
    pub session: Option<i64>,
    /// The task the chat is pinned to.
    pub pinned: Option<String>,
}

/// What a "which one?" draft keeps, to go on once the person picks.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Waiting {
    requests: Vec<ActionRequest>,
    picked: Picked,
    message: String,
    planner_ran: bool,
    pinned: Option<String>,
    /// The request asked about, what it picks, its candidates and the question.
    index: usize,
    automation: bool,
    candidates: Vec<String>,
    question: String,
}

impl Pipeline {
    /// The turn's work for a chat answer that proposed actions.
    pub(super) async fn chat_actions(
        &self,
        context: &TurnContext,
        inbound: &Inbound,
        proposed: Proposed,
        now: DateTime<Utc>,
    ) -> Result<(Work, DraftStep), TurnError> {
        let mut requests = Vec::new();
        let mut refused = Vec::new();
        for value in proposed.actions {
            match serde_json::from_value::<ActionRequest>(value) {
                Ok(request) => match self.chat_actions.get().check_request(&request) {
                    Ok(_) => requests.push(request),
                    Err(reason) => refused.push(reason.to_string()),
                },
                Err(error) => {
                    refused.push(format!("an action that is not {{name, params}}: {error}"))
                }
            }
        }
        for reason in &refused {
            tracing::info!(%reason, "dropped a chat action the model proposed");
        }
        if requests.is_empty() {
            let text = format!("{} ({})", texts::CLARIFY, refused.join("; "));
            return Ok((say(TurnPath::Clarify, &text), DraftStep::Keep));
        }
        let planner_ran = proposed
            .planner
            .as_ref()
            .is_some_and(|(_, steps)| !steps.is_empty());
        let waiting = Waiting {
            requests,
            picked: Picked::new(),
            message: inbound.text.clone(),
            planner_ran,
            pinned: proposed.pinned,
            index: 0,
            automation: false,
            candidates: Vec::new(),
            question: String::new(),
        };
        self.go_on(context, waiting, proposed.planner, proposed.session, 0, now)
            .await
    }

    /// The answer to "which one?": a number, an ordinal or title words pick the candidate.
    pub(super) async fn answer_which(
        &self,
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
        let found = self
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
        self.go_on(context, waiting, None, None, draft.questions, now)
            .await
    }

    /// Resolves, reads and binds the waiting actions, then asks, refuses, runs or proposes.
    async fn go_on(
        &self,
        context: &TurnContext,
        mut waiting: Waiting,
        planner: Option<(String, Vec<PlannerStep>)>,
        session: Option<i64>,
        questions: i64,
        now: DateTime<Utc>,
    ) -> Result<(Work, DraftStep), TurnError> {
        // Checked again: the actions file may have changed while a question was waiting.
        let chat_actions = self.chat_actions.get();
        let requests: Vec<_> = waiting
            .requests
            .iter()
            .filter_map(|request| chat_actions.check_request(request).ok())
            .collect();
        let env = ToolEnv {
            now,
            timezone: self.settings.timezone,
        };
        let (picked, later) = (waiting.picked.clone(), self.settings.later);
        let prepared = self
            .store
            .read(move |conn| chat_actions::prepare(conn, &requests, &picked, &env, later))
            .await?;
        let ready = match prepared {
            Prepared::Refused(text) => return Ok((say(TurnPath::Clarify, &text), DraftStep::Keep)),
            Prepared::Which(which) => {
                waiting.index = which.index;
                waiting.automation = which.pick == Pick::Automation;
                waiting.candidates = which.candidates;
                waiting.question = which.question.clone();
                let data = serde_json::to_value(&waiting).unwrap_or(Value::Null);
                return Ok(ask_with(
                    DraftKind::WhichTask,
                    &waiting.message,
                    data,
                    questions + 1,
                    &which.question,
                ));
            }
            Prepared::Ready(ready) => ready,
        };
        let mut writes: Vec<WriteTarget> = ready.changes.iter().map(|(_, t)| t.clone()).collect();
        writes.extend(ready.creates.iter().map(|(capture, safety)| WriteTarget {
            safety: *safety,
            task: None,
            creates: Some(capture.title.clone()),
        }));
        let picked: Vec<String> = waiting.picked.values().cloned().collect();
        let asked = Asked {
            message: &waiting.message,
            pinned: waiting.pinned.as_deref(),
            picked: &picked,
            planner_ran: waiting.planner_ran,
        };
        let is_planner = planner.is_some();
        let (answer, steps) = planner.unwrap_or_default();
        let said: Vec<String> = std::iter::once(answer)
            .chain(ready.reads)
            .filter(|text| !text.trim().is_empty())
            .collect();
        let said = said.join("\n\n");
        let path = if is_planner || writes.is_empty() {
            TurnPath::Answer
        } else {
            TurnPath::Chat
        };
        if consent(&writes, &asked) == Consent::RunNow {
            if let ([(capture, _)], []) = (ready.creates.as_slice(), ready.changes.as_slice()) {
                return self
                    .capture_work(context, capture.clone(), now, TaskSource::Chat)
                    .await;
            }
            let run: Vec<BoundAction> = ready.changes.into_iter().map(|(a, _)| a).collect();
            let path = if run.is_empty() { path } else { TurnPath::Chat };
            return Ok((
                Work::ChatActions {
                    run,
                    said,
                    path,
                    session,
                    steps,
                },
                DraftStep::Keep,
            ));
        }
        let origin = Some(context.thread.id.as_str());
        let mut actions: Vec<BoundAction> = ready.changes.into_iter().map(|(a, _)| a).collect();
        actions.extend(ready.creates.iter().map(|(capture, _)| {
            capture.action(TaskSource::Chat, origin, &[], self.settings.timezone)
        }));
        Ok((
            Work::Propose {
                actions,
                preamble: (!said.is_empty()).then_some(said),
                path,
                steps,
            },
            DraftStep::Keep,
        ))
    }
}

/// "2", "#2", "the second one", "number 2": the candidate's number (from 1).
fn by_number(answer: &str) -> Option<usize> {
    const ORDINALS: [&str; 9] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
    ];
    let words: Vec<String> = answer
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !matches!(*w, "the" | "one" | "number" | "no"))
        .map(str::to_string)
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
