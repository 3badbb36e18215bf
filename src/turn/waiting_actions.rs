//! The chat's actions waiting to be settled (docs/contract.md "Consent", "Tasks named in
//! chat"): proposed by a `chat` answer (`chat_actions`) or picked up again once the person
//! answered "which one?" (`which_one`). Settled along the states of what is waiting:
//! - refused: a time or length Donna cannot use, said as it is, nothing changes;
//! - a task (or automation) to pick: asked ("which one should I mark done?"), the actions kept
//!   in a `which_task` draft (`Waiting`);
//! - ready: a new task whose title shares no word with the message is dropped (the model's
//!   invention); what the person plainly asked for runs at once (`chat_actions::consent`), the
//!   rest becomes ONE plan that waits for a yes.
//!
//! Reaches (of `TurnDeps`): the chat actions, the settings, the store; and what `capture` reaches.
//!
//! Invariants: nothing runs that the registry does not have (checked again here: the actions
//! file may have changed while a question waited); the reply is Donna's own words, the
//! planner's composed answer kept before them; nothing here writes (the turn's commit does).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::actions::{ActionRequest, BoundAction};
use crate::chat_actions::{
    self, consent, Asked, Consent, Pick, Picked, Prepared, Ready, Which, WriteTarget,
};
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
use super::capture::capture_work;
use super::context::TurnContext;
use super::deps::TurnDeps;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::result::{PlannerStep, TurnPath};
use super::say::{ask_with, say};
use super::settings::TurnSettings;
use super::texts;

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

/// Where the waiting actions' answer goes: the planner's composed answer and tool calls (None
/// for the chat room), the chat session the turn slides, the questions asked so far.
#[derive(Debug, Clone, Default)]
pub(super) struct Settling {
    pub planner: Option<(String, Vec<PlannerStep>)>,
    pub session: Option<i64>,
    pub questions: i64,
}

/// Resolves, reads and binds the waiting actions, then asks, refuses, runs or proposes.
pub(super) async fn settle_waiting_actions(
    deps: &TurnDeps,
    context: &TurnContext,
    waiting: Waiting,
    settling: Settling,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    let (prepared, named) = prepare(deps, context, &waiting, now).await?;
    match prepared {
        Prepared::Refused(text) => Ok((say(TurnPath::Clarify, &text), DraftStep::Keep)),
        Prepared::Which(which) => Ok(ask_which(waiting, which, settling.questions)),
        Prepared::Ready(ready) => {
            settle_ready(deps, context, &waiting, ready, named, settling, now).await
        }
    }
}

/// The waiting actions checked, resolved and bound, with the task the person's own words
/// name alone (what consent trusts).
async fn prepare(
    deps: &TurnDeps,
    context: &TurnContext,
    waiting: &Waiting,
    now: DateTime<Utc>,
) -> Result<(Prepared, Option<String>), TurnError> {
    // Checked again: the actions file may have changed while a question was waiting.
    let chat_actions = deps.actors.chat_actions.get();
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
    let env = ToolEnv::new(now, deps.settings.timezone, Some(viewer));
    let (picked, later) = (waiting.picked.clone(), deps.settings.later);
    let said_words = waiting.words(Join::Nothing);
    Ok(deps
        .store
        .read(move |conn| {
            let prepared = chat_actions::prepare(conn, &requests, &picked, &env, later)?;
            let named = match named::named_by_message(conn, &said_words)?.as_slice() {
                [one] => Some(one.id.clone()),
                _ => None,
            };
            Ok((prepared, named))
        })
        .await?)
}

/// "Which one?": the question, with the actions kept in the draft to go on once answered.
fn ask_which(mut waiting: Waiting, which: Which, questions: i64) -> (Work, DraftStep) {
    waiting.index = which.index;
    waiting.automation = which.pick == Pick::Automation;
    waiting.candidates = which.candidates;
    waiting.question = which.question.clone();
    let data = serde_json::to_value(&waiting).unwrap_or(Value::Null);
    ask_with(
        DraftKind::WhichTask,
        &waiting.message,
        data,
        questions + 1,
        &which.question,
    )
}

/// Actions ready to run: the invented tasks dropped, then run at once or proposed.
async fn settle_ready(
    deps: &TurnDeps,
    context: &TurnContext,
    waiting: &Waiting,
    ready: Ready,
    named: Option<String>,
    settling: Settling,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    let Some(ready) = drop_invented(waiting, ready, settling.planner.is_some()) else {
        return Ok((
            say(TurnPath::Clarify, texts::INVENTED_TASK),
            DraftStep::Keep,
        ));
    };
    let writes = write_targets(&ready);
    let picked: Vec<String> = waiting.picked.values().cloned().collect();
    let asked = Asked {
        message: waiting.reading.as_ref(),
        named: named.as_deref(),
        pinned: waiting.pinned.as_deref(),
        picked: &picked,
        planner_ran: waiting.planner_ran,
        names_a_time: names_a_time(&deps.settings, &waiting.message, now),
    };
    let Settling {
        planner, session, ..
    } = settling;
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
            return capture_work(deps, context, capture.clone(), now, TaskSource::Chat).await;
        }
        let run: Vec<BoundAction> = ready.changes.into_iter().map(|(a, _)| a).collect();
        let path = if run.is_empty() { path } else { TurnPath::Chat };
        let work = Work::ChatActions {
            run,
            said,
            path,
            session,
            steps,
        };
        return Ok((work, DraftStep::Keep));
    }
    let origin = Some(context.thread.id.as_str());
    let mut actions: Vec<BoundAction> = ready.changes.into_iter().map(|(a, _)| a).collect();
    actions.extend(
        ready.creates.iter().map(|(capture, _)| {
            capture.action(TaskSource::Chat, origin, &[], deps.settings.timezone)
        }),
    );
    let preamble = (!said.is_empty()).then_some(said);
    Ok((
        Work::Propose {
            actions,
            preamble,
            path,
            steps,
        },
        DraftStep::Keep,
    ))
}

/// The ready actions without the new tasks whose title the person never said a word of (the
/// model's invention: neither created nor proposed); None when nothing is left to say or do.
fn drop_invented(waiting: &Waiting, mut ready: Ready, from_planner: bool) -> Option<Ready> {
    let message = waiting.words(Join::Apostrophes);
    let (kept, invented): (Vec<_>, Vec<_>) = ready
        .creates
        .into_iter()
        .partition(|(capture, _)| title_shares_a_word(&message, &capture.title));
    ready.creates = kept;
    for (capture, _) in &invented {
        tracing::info!(title = %capture.title, "dropped a new task the message never asked for");
    }
    if !invented.is_empty() && ready.creates.is_empty() && ready.changes.is_empty() {
        if ready.reads.is_empty() && !from_planner {
            return None;
        }
        ready.reads.push(texts::INVENTED_TASK.to_string());
    }
    Some(ready)
}

/// Whether the message names a time (consent trusts a time the person said).
fn names_a_time(settings: &TurnSettings, message: &str, now: DateTime<Utc>) -> bool {
    let when = WhenContext {
        now,
        timezone: settings.timezone,
        current_start: None,
        later: settings.later,
    };
    matches!(find_when(message, &when), Ok(Some(_)))
}

/// What the ready actions write, as consent weighs them.
fn write_targets(ready: &Ready) -> Vec<WriteTarget> {
    let mut writes: Vec<WriteTarget> = ready.changes.iter().map(|(_, t)| t.clone()).collect();
    writes.extend(ready.creates.iter().map(|(capture, safety)| WriteTarget {
        safety: *safety,
        task: None,
        creates: Some(capture.title.clone()),
        asks: vec![Ask::Create],
    }));
    writes
}
