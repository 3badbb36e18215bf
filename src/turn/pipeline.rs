//! The turn pipeline: one message through docs/contract.md's "A turn", ending in one commit.
//!
//! Owns: the order of the steps (load the context, a message already handled, the entry: a
//! click's intent, or the message's one reading (`crate::sentence`, made in `entry` and nowhere
//! else) and the FastPath analysis of it, the decision, then the group gate, which needs the
//! decision: the answer to a proposal and a rule command are never put to it). Runs inside the thread's Conversation, so
//! turns of one thread never overlap; different threads run concurrently.
//!
//! `Pipeline` is the actor-facing face (`run`, used by `conversation`); it holds the turn's
//! handles (`TurnDeps`) and works with them in the sender's zone (`TurnDeps::for_sender`).
//! The steps are functions of those handles: `entry::enter`, the `gate`, then
//! `rooms::room`, the one match from a decision to its room (see `rooms.rs` for the rooms and
//! their entry points), then `commit`. Each room returns a `Work`; what a kind commits and
//! answers is said once, in its own file under `src/turn/work/`.
//!
//! Invariants: no transaction is open while the turn awaits an actor or a model; all effects
//! are committed at the end in one unit of work, built in one place (`commit`), and
//! published on the event bus only after that commit (`commit`).

use std::{sync::Arc, time::Instant};

use tracing::Instrument;

use crate::actions::ActionEnv;
use crate::conversation::inbox::Accepted;
use crate::llm::journal;

use super::apply::{self, TurnWork, Work};
use super::changes;
use super::context::{self, TurnContext};
use super::decide::{Decided, Next, PlanStep};
use super::deps::TurnDeps;
use super::draft_step::DraftStep;
use super::entry::enter;
use super::error::TurnError;
use super::gate::{bypasses_gate, gate_applies, gate_says_reply, takes_reply_slot};
use super::parking;
use super::receipt::{self, LateReceipt};
use super::result::{TurnPath, TurnResult};
use super::rooms::room;
use super::settings::chrono_duration;
use super::turn_log::log_turn;
use super::Inbound;

/// One turn at a time for a conversation: the actor-facing face of the turn, holding its
/// shared handles (`TurnDeps`).
#[derive(Debug, Clone)]
pub struct Pipeline {
    deps: TurnDeps,
}

impl Pipeline {
    pub fn new(deps: TurnDeps) -> Self {
        Self { deps }
    }

    /// Runs one turn, in a span carrying the thread id.
    pub async fn run(
        &self,
        inbound: Inbound,
        late: Option<Arc<LateReceipt>>,
    ) -> Result<TurnResult, TurnError> {
        let span = tracing::info_span!("turn", thread_id = %inbound.thread_id, message_id = %inbound.message_id);
        let started = Instant::now();
        // Every model and tool call of the turn goes into its journal, committed with it.
        let journal = self
            .deps
            .actors
            .replays
            .journal_for(&inbound.thread_id, &inbound.message_id);
        let steps = async {
            let message = inbound.clone();
            let outcome = self.run_steps(inbound).await;
            if let Err(error) = &outcome {
                parking::after_error(&self.deps.store, &self.deps.metrics, &message, error).await;
            }
            outcome
        };
        // The writes made for this message, counted apart from whatever else runs meanwhile.
        let writes = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let outcome = receipt::within(late, journal::within(Some(journal), steps));
        let outcome = crate::store::write_count::counting(writes.clone(), outcome)
            .instrument(span.clone())
            .await;
        self.deps.metrics.store_writes.fetch_add(
            writes.load(std::sync::atomic::Ordering::Relaxed),
            std::sync::atomic::Ordering::Relaxed,
        );
        match &outcome {
            Ok(result) => {
                let took = started.elapsed();
                self.deps.metrics.record(result.path, took);
                span.in_scope(|| log_turn(self.deps.settings.log_turns, result, took));
            }
            Err(error) => {
                self.deps
                    .metrics
                    .errors
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                static FAILED: crate::log_limit::WarnLimiter =
                    crate::log_limit::WarnLimiter::new(20);
                span.in_scope(|| {
                    crate::limited_warn!(FAILED, %error, "turn failed; the message stays in the inbox")
                });
            }
        }
        outcome
    }

    async fn run_steps(&self, inbound: Inbound) -> Result<TurnResult, TurnError> {
        let (message, default_timezone) = (inbound.clone(), self.deps.settings.default_timezone);
        let context = self
            .deps
            .store
            .read(move |conn| Ok(context::load(conn, &message, default_timezone)))
            .await??;
        match &context.inbox {
            // The same message again: the first result, and nothing applied twice.
            Some(Accepted::Done(json)) => {
                return serde_json::from_str(json).map_err(TurnError::BadStoredResult)
            }
            Some(Accepted::Parked) => return Err(TurnError::Parked),
            _ => {}
        }
        if context.stale_click {
            // A click on a nudge that can no longer be answered (the channel told the person
            // why): nothing changes, nothing is said.
            let stale = Work::Silent {
                path: TurnPath::Unhandled,
            };
            return commit(
                &self.deps,
                inbound,
                &context,
                PlanStep::Keep,
                stale,
                DraftStep::Keep,
            )
            .await;
        }
        let deps = self.deps.for_sender(context.timezone);
        run_loaded(&deps, inbound, context).await
    }
}

async fn run_loaded(
    deps: &TurnDeps,
    inbound: Inbound,
    context: TurnContext,
) -> Result<TurnResult, TurnError> {
    let Decided {
        context,
        words,
        plan_step,
        next,
        now,
    } = enter(deps, &inbound, context).await?;
    if gate_applies(&deps.settings, &context.thread) {
        // A click is never chatter: it takes a slot but is not put to the model gate.
        let readings = words.as_ref().and_then(|words| words.readings.as_ref());
        let heard = if inbound.intent.is_some() || bypasses_gate(&next, readings) {
            takes_reply_slot(deps, &context, &inbound).await?
        } else {
            gate_says_reply(deps, &context, &inbound).await?
        };
        if !heard {
            // Skipped: recorded in memory, nothing else changes (a live plan stays).
            let skipped = Work::Silent {
                path: TurnPath::Skipped,
            };
            return commit(
                deps,
                inbound,
                &context,
                PlanStep::Keep,
                skipped,
                DraftStep::Keep,
            )
            .await;
        }
    }
    // The answer to a nudge delivered into this free thread acts on the nudged task.
    let context = match next {
        Next::AnswerNudge(_) | Next::Clicked(_) => TurnContext {
            answering_nudge: true,
            ..context
        },
        _ => context,
    };
    let (work, draft) = room(deps, &context, &inbound, words, next, now).await?;
    commit(deps, inbound, &context, plan_step, work, draft).await
}

/// Commits the turn's work in one unit of work on the store writer. The turn's effects are
/// stamped with the time of the commit, not of the decision: a plan proposed after a slow
/// model call expires `plans.expiry` after the person could first see it.
async fn commit(
    deps: &TurnDeps,
    inbound: Inbound,
    context: &TurnContext,
    plan_step: PlanStep,
    work: Work,
    draft: DraftStep,
) -> Result<TurnResult, TurnError> {
    let now = deps.clock.now();
    let turn = TurnWork {
        task_id: context.task_id(),
        cancel_plan: match plan_step {
            PlanStep::Cancel(plan) => Some(plan),
            PlanStep::Keep => None,
        },
        work,
        draft,
        env: ActionEnv {
            now,
            timezone: deps.settings.timezone,
            later: deps.settings.later,
            author_id: Some(inbound.user_id.clone()),
        },
        undo_window: chrono_duration(deps.settings.undo_window),
        plan_expiry: chrono_duration(deps.settings.plan_expiry),
        journal: journal::current()
            .map(|journal| journal.calls())
            .unwrap_or_default(),
        write_inbox_row: receipt::still_to_write(),
        inbound,
    };
    let committed = deps
        .store
        .write(move |conn| apply::commit(conn, turn))
        .await?;
    // Durable now (the writer answers after COMMIT): the stream may say so. A failed commit
    // returned above and published nothing.
    changes::publish(&deps.actors.events, &committed.result, committed.tasks);
    Ok(committed.result)
}
