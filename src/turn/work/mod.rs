//! What a turn resolved to, and what each kind of it commits and answers: [`Work`] (which
//! room's outcome: a plan answered, actions to run, a proposal, an answer, ...), one file per
//! kind saying what it writes and what Donna answers ([`Answered`], built whole: a kind cannot
//! forget a field), and [`TurnWork`] (the work and everything else `apply::commit` writes in the
//! turn's one transaction). The dispatch is one line per kind (`Work::commit`), in the manner of
//! mini-redis's `Command::apply`.
//!
//! Kinds: `plan_answer` (a plan confirmed, rejected, replaced or gone; a yes with nothing to
//! confirm), `undo`, `run` (keyword actions and a capture, run at once), `propose` (a plan
//! saved), `chat` (the chat room's answer and a chat answer's actions run at once),
//! `escalation` (the bigger model's answer settled), `list` (a page of a list: the chat's cursor moves),
//! `timezone` (the sender's zone stored).
//!
//! Invariant: a kind's `commit` runs inside the turn's transaction and awaits nothing; the
//! steps every turn shares (journal, memory, draft, inbox, outbox) are `apply::commit`'s.

mod answered;
mod chat;
mod escalation;
mod list;
mod plan_answer;
mod propose;
mod run;
mod timezone;
mod undo;

use crate::actions::{ActionEnv, BoundAction};
use crate::conversation::escalation_ledger;
use crate::conversation::plans::Plan;
use crate::conversation::turn_journal::TurnCalls;
use crate::store::StoreError;

use super::draft_step::DraftStep;
use super::list_step::ListStep;
use super::result::{PlannerStep, TurnPath};
use super::Inbound;

pub use answered::{Answered, At};

/// The resolved work of a turn (actions already validated and bound).
#[derive(Debug, Clone)]
pub enum Work {
    ConfirmPlan(Plan),
    RejectPlan(Plan),
    /// A yes or no meant for an older plan: say which plan is waiting now, change nothing.
    PlanReplaced(Plan),
    PlanGone {
        expired: bool,
    },
    NothingToConfirm,
    Undo,
    Execute(Vec<BoundAction>),
    /// A capture: run its `create_task` at once (the person plainly asked for exactly it).
    Capture(Box<BoundAction>),
    /// Save a plan of these actions; the reply is `preamble` (the model's answer, if any)
    /// followed by the plan's own wording.
    Propose {
        actions: Vec<BoundAction>,
        preamble: Option<String>,
        path: TurnPath,
        /// The planner's tool calls when the plan follows them (the result's `steps`).
        steps: Vec<PlannerStep>,
    },
    /// A chat answer's actions that run at once (they may be none: reads only): the reply is
    /// `said` (reads, the planner's answer) followed by what ran; the chat session slides.
    ChatActions {
        run: Vec<BoundAction>,
        said: String,
        path: TurnPath,
        session: Option<i64>,
        steps: Vec<PlannerStep>,
    },
    /// Donna answers with this text and does nothing else.
    Say {
        path: TurnPath,
        text: String,
    },
    /// A page of a list (or why there is none); the chat's list cursor takes `step`.
    List {
        path: TurnPath,
        text: String,
        step: ListStep,
    },
    /// The chat room's answer (path `chat`): the turn slides the live session `session`, or
    /// opens a new one when there is none (or it closed meanwhile).
    Chat {
        text: String,
        session: Option<i64>,
    },
    /// The escalation room's end (`turn::escalation`): the reservation settled (or marked
    /// interrupted), the answer or the honest failure, the chat session slid.
    Escalation {
        settle: Option<escalation_ledger::Settlement>,
        interrupted: Option<String>,
        text: String,
        path: TurnPath,
        session: Option<i64>,
    },
    /// The planner's answer (path `answer`) and its tool calls (the result's `steps`).
    Answer(String, Vec<PlannerStep>),
    /// The sender's time zone is now this one (path `chat`): stored with the turn, said back
    /// with the time there.
    SetTimezone(chrono_tz::Tz),
    /// The sender's quiet hours are now these (None: the config's default, `shown`), said back
    /// in their zone (path `chat`).
    SetQuietHours {
        hours: Option<crate::config::QuietHours>,
        shown: crate::config::QuietHours,
        zone: chrono_tz::Tz,
    },
    /// Donna stays quiet: the message is recorded, nothing is sent.
    Silent {
        path: TurnPath,
    },
}

impl Work {
    /// Commits this work in the turn's transaction and says what Donna answers.
    pub fn commit(self, at: &At<'_>) -> Result<Answered, StoreError> {
        match self {
            Work::ConfirmPlan(plan) => plan_answer::confirm(at, plan),
            Work::RejectPlan(plan) => plan_answer::reject(at, plan),
            Work::PlanReplaced(plan) => Ok(plan_answer::replaced(plan)),
            Work::PlanGone { expired } => Ok(plan_answer::gone(expired)),
            Work::NothingToConfirm => Ok(plan_answer::nothing_to_confirm()),
            Work::Undo => undo::commit(at),
            Work::Execute(bound) => run::keyword_actions(at, bound),
            Work::Capture(action) => run::capture(at, *action),
            Work::Propose {
                actions,
                preamble,
                path,
                steps,
            } => propose::commit(at, actions, preamble, path, steps),
            Work::ChatActions {
                run,
                said,
                path,
                session,
                steps,
            } => chat::actions(at, run, said, path, session, steps),
            Work::Say { path, text } => Ok(Answered::new(path, text)),
            Work::List { path, text, step } => list::commit(at, path, text, step),
            Work::Chat { text, session } => chat::answer(at, text, session),
            Work::Escalation {
                settle,
                interrupted,
                text,
                path,
                session,
            } => escalation::commit(at, settle, interrupted, text, path, session),
            Work::Answer(text, steps) => Ok(Answered::new(TurnPath::Answer, text).after(steps)),
            Work::SetTimezone(timezone) => timezone::commit(at, timezone),
            Work::SetQuietHours { hours, shown, zone } => {
                timezone::commit_quiet_hours(at, hours, shown, zone)
            }
            Work::Silent { path } => Ok(Answered::new(path, "")),
        }
    }
}

/// Everything `commit` needs.
#[derive(Debug, Clone)]
pub struct TurnWork {
    pub inbound: Inbound,
    pub task_id: Option<String>,
    pub cancel_plan: Option<Plan>,
    pub work: Work,
    pub draft: DraftStep,
    pub env: ActionEnv,
    pub undo_window: chrono::Duration,
    pub plan_expiry: chrono::Duration,
    /// The turn's model and tool calls, in call order (stored with the turn).
    pub journal: TurnCalls,
    /// The message's inbox row is written here, with the turn (received at this time): the
    /// one-write path (`turn::receipt`).
    pub write_inbox_row: Option<chrono::DateTime<chrono::Utc>>,
}
