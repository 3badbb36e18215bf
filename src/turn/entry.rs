//! The turn's entry: what the message is, and the decision that follows. A click enters as the
//! intent its button stands for (`Inbound::intent`) and goes straight to `decide_click`: no
//! words are read, whatever the keyword vocabulary says about the words it stands for. Words are
//! read once (`read_message`: the message's one reading, a grouped nudge's number set aside
//! from its core, the FastPath's analysis of it) and go to `decide`; a message for the
//! free-text room has its rules' readings made here too, once, for the gate, the live plan and
//! the room.
//!
//! Owns: the order of reading and deciding, and the moment the turn decided (its `now`, in the
//! journal). Sends: `Analyze` to the FastPath (words only).
//!
//! Reaches (of `TurnDeps`): the FastPath, the clock, the settings.

use chrono::{DateTime, Utc};

use crate::clock::SharedClock;
use crate::llm::journal;

use super::context::TurnContext;
use super::decide::{decide, keep_the_live_plan, Decided, Next, Words};
use super::decide_click::decide_click;
use super::deps::TurnDeps;
use super::error::TurnError;
use super::message_reading::read_message;
use super::readings::Readings;
use super::Inbound;

pub(super) async fn enter(
    deps: &TurnDeps,
    inbound: &Inbound,
    context: TurnContext,
) -> Result<Decided, TurnError> {
    let Some(intent) = &inbound.intent else {
        return read_words(deps, inbound, context).await;
    };
    let now = decided_now(&deps.clock);
    let (plan_step, next) = decide_click(&context, intent, inbound.answers_plan.as_deref(), now);
    Ok(Decided {
        plan_step: keep_the_live_plan(plan_step, &next, inbound, None),
        context,
        words: None,
        next,
        now,
    })
}

async fn read_words(
    deps: &TurnDeps,
    inbound: &Inbound,
    context: TurnContext,
) -> Result<Decided, TurnError> {
    let (context, said, analysis) = read_message(&deps.actors.fast_path, context, inbound).await?;
    let now = decided_now(&deps.clock);
    let (plan_step, next) = decide(&context, &analysis, now);
    let readings =
        matches!(next, Next::FreeText).then(|| Readings::of(&said, now, deps.settings.timezone));
    Ok(Decided {
        plan_step: keep_the_live_plan(plan_step, &next, inbound, readings.as_ref()),
        context,
        words: Some(Words {
            said,
            analysis,
            readings,
        }),
        next,
        now,
    })
}

/// Now, as the moment the turn decided (the journal keeps it for `donna replay`).
fn decided_now(clock: &SharedClock) -> DateTime<Utc> {
    let now = clock.now();
    if let Some(journal) = journal::current() {
        journal.decided(now);
    }
    now
}
