//! The chat's actions in a turn (docs/contract.md "Consent", "Tasks named in chat"): the
//! actions a `chat` answer proposes (in the chat room, or composed by the planner) are checked
//! against config/chat_actions.yaml, the tasks they name resolved by Donna, reads answered, and
//! the writes either run at once (what the person plainly asked for) or become ONE plan that
//! waits for a yes. What runs at once is what the person's own message asked for, on the one
//! task their words name (`chat_actions::consent`, `replies::grounding`). A task Donna cannot
//! settle on is asked about ("which one should I mark done?", a `which_task` draft keeping the
//! actions); the answer (`turn::which_one`) picks it and the actions go on. A new task goes
//! through the capture path (validation, time words, duplicates); one whose title shares no
//! word with the message is the model's invention and is dropped.
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
use crate::conversation::drafts::DraftKind;
use crate::conversation::participation::Viewer;
use crate::planner::ToolEnv;
use crate::replies::grounding::{title_shares_a_word, Ask};
use crate::sentence::tokens::{words, Join};
use crate::sentence::Sentence;
use crate::tasks::named;
use crate::tasks::when::{find_when, WhenContext};
use crate::tasks::TaskSource;

use super::apply::Work;
use super::context::TurnContext;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::free_text::{ask_with, say};
use super::pipeline::Pipeline;
use super::result::{PlannerStep, TurnPath};
use super::texts;

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
pub(super) struct Waiting {
    pub requests: Vec<ActionRequest>,
    pub picked: Picked,
    pub message: String,
    /// The message's one reading, kept so that the answer to "which one?" does not read it
    /// again (absent in a draft an older version kept: then nothing is plainly asked).
    #[serde(default)]
    pub reading: Option<Sentence>,
    pub planner_ran: bool,
    pub pinned: Option<String>,
    /// The request asked about, what it picks, its candidates and the question.
    pub index: usize,
    pub automation: bool,
    pub candidates: Vec<String>,
    pub question: String,
}

impl Waiting {
    /// The message's words in a view of the one tokenizer: from its reading, else its text.
    fn words(&self, join: Join) -> Vec<String> {
        match &self.reading {
            Some(reading) => reading
                .pieces(join)
                .into_iter()
                .map(|piece| piece.word)
                .collect(),
            None => words(&self.message, join),
        }
    }
}

impl Pipeline {
    /// The turn's work for a chat answer that proposed actions.
    pub(super) async fn chat_actions(
        &self,
        context: &TurnContext,
        said: &Sentence,
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
            // The reasons are the model's mistakes (an action it made up, a parameter it got
            // wrong): logged above, never shown to the person, whose words were not at fault.
            return Ok((say(TurnPath::Clarify, texts::CLARIFY), DraftStep::Keep));
        }
        let planner_ran = proposed
            .planner
            .as_ref()
            .is_some_and(|(_, steps)| !steps.is_empty());
        let waiting = Waiting {
            requests,
            picked: Picked::new(),
            message: said.text().to_string(),
            reading: Some(said.clone()),
            planner_ran,
            pinned: proposed.pinned,
            index: 0,
            automation: false,
            candidates: Vec::new(),
            question: String::new(),
        };
        self.settle_waiting_actions(context, waiting, proposed.planner, proposed.session, 0, now)
            .await
    }

    /// Resolves, reads and binds the waiting actions, then asks, refuses, runs or proposes.
    pub(super) async fn settle_waiting_actions(
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
        let viewer = Viewer {
            person: context.author_id.clone(),
            here: context.thread.id.clone(),
        };
        // The chat's read actions list tasks; a calendar is the planner's alone.
        let env = ToolEnv::new(now, self.settings.timezone, Some(viewer));
        let (picked, later) = (waiting.picked.clone(), self.settings.later);
        let said_words = waiting.words(Join::Nothing);
        let (prepared, named) = self
            .store
            .read(move |conn| {
                let prepared = chat_actions::prepare(conn, &requests, &picked, &env, later)?;
                // The task the person's own words name, alone: what consent trusts.
                let named = match named::named_by_message(conn, &said_words)?.as_slice() {
                    [one] => Some(one.id.clone()),
                    _ => None,
                };
                Ok((prepared, named))
            })
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
        // A new task whose title the person never said a word of is the model's invention:
        // it is neither created nor proposed.
        let message = waiting.words(Join::Apostrophes);
        let (mut ready, invented): (_, Vec<String>) = {
            let mut ready = ready;
            let (kept, invented): (Vec<_>, Vec<_>) = ready
                .creates
                .into_iter()
                .partition(|(capture, _)| title_shares_a_word(&message, &capture.title));
            ready.creates = kept;
            (ready, invented.into_iter().map(|(c, _)| c.title).collect())
        };
        for title in &invented {
            tracing::info!(%title, "dropped a new task the message never asked for");
        }
        if !invented.is_empty() && ready.creates.is_empty() && ready.changes.is_empty() {
            if ready.reads.is_empty() && planner.is_none() {
                return Ok((
                    say(TurnPath::Clarify, texts::INVENTED_TASK),
                    DraftStep::Keep,
                ));
            }
            ready.reads.push(texts::INVENTED_TASK.to_string());
        }
        let names_a_time = matches!(
            find_when(
                &waiting.message,
                &WhenContext {
                    now,
                    timezone: self.settings.timezone,
                    current_start: None,
                    later: self.settings.later,
                }
            ),
            Ok(Some(_))
        );
        let mut writes: Vec<WriteTarget> = ready.changes.iter().map(|(_, t)| t.clone()).collect();
        writes.extend(ready.creates.iter().map(|(capture, safety)| WriteTarget {
            safety: *safety,
            task: None,
            creates: Some(capture.title.clone()),
            asks: vec![Ask::Create],
        }));
        let picked: Vec<String> = waiting.picked.values().cloned().collect();
        let asked = Asked {
            message: waiting.reading.as_ref(),
            named: named.as_deref(),
            pinned: waiting.pinned.as_deref(),
            picked: &picked,
            planner_ran: waiting.planner_ran,
            names_a_time,
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
