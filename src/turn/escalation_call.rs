//! The call to the bigger model after a yes (or under the auto-approve threshold): the first of
//! the escalation's two commits (the offer consumed and the estimate reserved within the day's
//! budget, `conversation::escalation_ledger`), the call, and what the turn's commit settles
//! (`Work::Escalation`). See `turn::escalation` for the whole flow.
//!
//! Reaches (of `TurnDeps`): "thinking", the bigger model, the settings, the store.
//!
//! Invariant: the message is durable before the reservation, and nothing is sent before the
//! reservation is committed.

use chrono::{DateTime, Utc};

use crate::conversation::escalation_ledger::{self, Reservation, Settlement};
use crate::conversation::plans::{self, Plan, PlanStatus};
use crate::llm::client::Usage;
use crate::llm::escalation::{micros, Called, Escalation};
use crate::llm::LlmError;

use super::apply::Work;
use super::deps::TurnDeps;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::receipt;
use super::result::TurnPath;
use super::say::say;
use super::texts;
use super::Inbound;

/// Reserves (consuming `offer` when there is one), calls, and returns the turn's work.
#[allow(clippy::too_many_arguments)]
pub(super) async fn escalate(
    deps: &TurnDeps,
    inbound: &Inbound,
    offer_id: &str,
    offer: Option<Plan>,
    estimate: i64,
    messages: Vec<crate::llm::ChatMessage>,
    session: Option<i64>,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    let Some(escalation) = deps.actors.escalation.clone() else {
        return Ok((
            say(TurnPath::Unhandled, texts::ESCALATION_OFF),
            DraftStep::Keep,
        ));
    };
    // The yes must be durable before the first commit: a crash after it re-runs this turn.
    receipt::before_waiting().await?;
    let budget = micros(escalation.settings.daily_budget_usd);
    let asked = Asked {
        offer_id: offer_id.to_string(),
        estimate,
        budget,
    };
    let (settle, text, path) = match reserve(deps, inbound, offer, &asked, now).await? {
        None => return Ok((Work::PlanGone { expired: true }, DraftStep::Keep)),
        Some(Reservation::OverBudget) => {
            return Ok((
                say(TurnPath::Chat, texts::ESCALATION_UNAFFORDABLE),
                DraftStep::Keep,
            ))
        }
        Some(Reservation::Reserved) => {
            deps.actors.thinking.notify(inbound);
            let outcome = escalation.answer(messages).await;
            settled(&escalation, outcome, asked)
        }
    };
    Ok((
        Work::Escalation {
            settle,
            interrupted: None,
            text,
            path,
            session,
        },
        DraftStep::Keep,
    ))
}

/// The offer answered and what the call may cost.
struct Asked {
    offer_id: String,
    /// The estimate reserved, in micro-dollars.
    estimate: i64,
    /// The day's budget, in micro-dollars.
    budget: i64,
}

/// The first commit: the offer consumed (None when it was resolved meanwhile) and the
/// estimate reserved within the day's budget.
async fn reserve(
    deps: &TurnDeps,
    inbound: &Inbound,
    offer: Option<Plan>,
    asked: &Asked,
    now: DateTime<Utc>,
) -> Result<Option<Reservation>, TurnError> {
    let (thread, message_id, day) = (
        inbound.thread_id.clone(),
        inbound.message_id.clone(),
        day_of(now, deps.settings.default_timezone),
    );
    let (offer_id, estimate, budget) = (asked.offer_id.clone(), asked.estimate, asked.budget);
    Ok(deps
        .store
        .write(move |conn| {
            if let Some(plan) = &offer {
                if !plans::resolve(conn, &plan.id, PlanStatus::Confirmed, now)? {
                    return Ok(None);
                }
            }
            escalation_ledger::reserve(
                conn,
                &offer_id,
                &thread,
                &message_id,
                &day,
                estimate,
                budget,
                now,
            )
            .map(Some)
        })
        .await?)
}

/// What the call came to: the settlement of the reservation, the reply and the turn's path.
fn settled(
    escalation: &Escalation,
    outcome: Result<(Called, Option<Usage>), LlmError>,
    asked: Asked,
) -> (Option<Settlement>, String, TurnPath) {
    let Asked {
        offer_id, estimate, ..
    } = asked;
    match outcome {
        // The server answered: what it reported is what it cost, valid answer or not.
        Ok((called, usage)) => {
            let spent = match usage {
                Some(usage) => escalation.cost(usage),
                None => {
                    tracing::info!("the bigger model reported no usage; settled at the estimate");
                    estimate
                }
            };
            if spent > estimate {
                tracing::warn!(
                    spent,
                    estimate,
                    "the bigger model cost more than its estimate"
                );
            }
            let tokens = usage.map(|u| (u.prompt_tokens, u.completion_tokens));
            let settle = Some(Settlement {
                offer_id,
                spent,
                tokens,
            });
            let (text, path) = answered(called);
            (settle, text, path)
        }
        // No answer at all: what it cost is unknown, so the reservation stays counted.
        Err(error @ LlmError::Timeout(_)) => {
            tracing::warn!(%error, "the bigger model did not answer; its reservation stays");
            (
                None,
                texts::free_text_model_down(),
                TurnPath::LlmUnavailable,
            )
        }
        Err(error) => {
            tracing::warn!(%error, "the bigger model answered with an error; settled at 0");
            let settle = Settlement {
                offer_id,
                spent: 0,
                tokens: None,
            };
            (
                Some(settle),
                texts::free_text_model_down(),
                TurnPath::LlmUnavailable,
            )
        }
    }
}

/// The reply of a call the server answered: the bigger model's words (its actions are never
/// run), or the failure contract's when its answer is invalid.
fn answered(called: Called) -> (String, TurnPath) {
    match called {
        Called::Answered(answer) => {
            if !answer.actions.is_empty() {
                tracing::info!(
                    actions = answer.actions.len(),
                    "the bigger model proposed actions; not run"
                );
            }
            (answer.reply_to_user, TurnPath::Escalated)
        }
        Called::Invalid(reason) => {
            tracing::warn!(%reason, "the bigger model's answer is invalid; settled at its usage");
            (texts::free_text_model_down(), TurnPath::LlmUnavailable)
        }
    }
}

/// The ledger's day: the date in `timezone`.
pub(super) fn day_of(now: DateTime<Utc>, tz: chrono_tz::Tz) -> String {
    now.with_timezone(&tz).format("%Y-%m-%d").to_string()
}
