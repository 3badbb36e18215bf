//! The free-text room: a message in a thread bound to no task (a DM, a mention, a free local
//! thread, the console's free lines) that no plan answer, confirm word or "undo" took
//! (docs/contract.md "Free text", steps 6-8).
//!
//! Order: a pending draft (the answer to Donna's question is merged with it and read again;
//! "never mind" drops it; a question or a command is handled on its own and the draft stays),
//! then the sender's time zone and quiet hours (`timezone`), then a digest or automation
//! command (proposed as a plan), then the rules (captures, the common questions a page at a
//! time and "more" (`lists`), the agenda, greetings, thanks), then `free_model` (a request for
//! the bigger model, `bigger_model`, then the model), or without one an honest answer naming
//! what works.
//!
//! Reaches (of `TurnDeps`): the settings; and what `calendar_answers`, `capture`, `free_model`,
//! `lists`, `timezone`, `which_one` reach.
//!
//! Invariants: reached only through `decide`'s `Next::FreeText`, so a bare confirmation or
//! "undo" never gets here; the message's readings by the rules, the automation and digest
//! commands are made once (`Readings`) from its one reading and shared with the group gate and
//! `keep_the_live_plan`; nothing here writes: the room returns the turn's work and what
//! happens to the draft, committed by the pipeline in one transaction.

use chrono::{DateTime, Utc};

use crate::actions::automation::{digest_proposal, proposal_action};
use crate::automations::command::AutomationReading;
use crate::automations::digest_command::DigestReading;
use crate::capture::rules::{Question, Reading};
use crate::conversation::drafts::{Draft, DraftKind};
use crate::sentence::Sentence;

use super::apply::Work;
use super::calendar_answers::calendar_answer;
use super::capture::{capture_answer, capture_with_time_answer, capture_words};
use super::context::TurnContext;
use super::deps::TurnDeps;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::free_model::{free_model, parse_and_capture};
use super::lists::{agenda_answer, list_answer, next_page, task_time};
use super::readings::Readings;
use super::result::TurnPath;
use super::say::{ask, say};
use super::texts;
use super::timezone::{quiet_sentence, timezone_sentence};
use super::which_one::answer_which;
use super::Inbound;

pub(super) async fn free_text(
    deps: &TurnDeps,
    context: &TurnContext,
    inbound: &Inbound,
    said: &Sentence,
    readings: Option<Readings>,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    let readings = readings.unwrap_or_else(|| Readings::of(said, now, deps.settings.timezone));
    let is_command = readings.is_command();
    let Readings {
        rules: reading,
        automation,
        digest,
        zone,
        calendar,
        quiet,
    } = readings;
    // Only the person a question was asked of answers it; another member's message leaves
    // it alone and is handled on its own.
    let draft = context
        .draft
        .as_ref()
        .filter(|draft| draft.is_live(now) && draft.answerable_by(&context.author_id));
    if let Some(draft) = draft {
        if reading == Reading::NeverMind {
            return Ok((
                say(TurnPath::Unhandled, texts::DRAFT_DROPPED),
                DraftStep::Remove,
            ));
        }
        // A command of its own ("every monday remind me to ...", "send me my agenda every
        // day at 8") is never the answer.
        if !is_command && answers_draft(&reading, said) {
            return answer_draft(deps, context, inbound, said, draft, now).await;
        }
    }
    let step = DraftStep::Keep;
    // "my time zone is Europe/Berlin", "I'm in Tokyo now": the sender's own zone.
    if let Some(work) = timezone_sentence(deps, inbound, &zone, now).await? {
        return Ok((work, step));
    }
    // "quiet hours 23:00 to 7:00", "don't nudge me between 10pm and 7am".
    if let Some(work) = quiet_sentence(deps, inbound, &quiet).await? {
        return Ok((work, step));
    }
    // "send me my agenda every day at 8am", "every monday at 9 remind me to ...": proposed
    // in words, stored only after a yes.
    if let Some(work) = command_proposal(context, inbound, digest, automation) {
        return Ok((work, step));
    }
    // "what's on my calendar tomorrow?", "find me an hour friday for the taxes".
    if let Some(ask) = calendar {
        return Ok((calendar_answer(deps, context, ask, now).await?, step));
    }
    match reading {
        Reading::Capture { body } => capture_words(deps, context, &body, 0, now).await,
        Reading::BareCapture => Ok(ask(DraftKind::What, "", 1, texts::ASK_WHAT)),
        Reading::Question(Question::Agenda) => Ok((agenda_answer(deps, context, now).await?, step)),
        Reading::Question(question) => Ok((list_answer(deps, context, question, now).await?, step)),
        Reading::More => Ok((next_page(deps, context, now).await?, step)),
        Reading::Greeting => Ok((say(TurnPath::Chat, texts::GREETING), step)),
        Reading::Thanks => Ok((say(TurnPath::Chat, &texts::closing(said)), step)),
        Reading::NeverMind => Ok((say(TurnPath::Unhandled, texts::NOTHING_TO_DROP), step)),
        Reading::TaskTime { reference } => match task_time(deps, &reference, now).await? {
            Some(answer) => Ok((say(TurnPath::Answer, &answer), step)),
            None => free_model(deps, context, inbound, said, now).await,
        },
        Reading::Nothing => free_model(deps, context, inbound, said, now).await,
    }
}

/// A message that only closes the conversation, in any room ("thanks, that's all", "cool,
/// see you tomorrow", "you're the best"): a short friendly answer, nothing changes.
pub(super) fn closing(said: &Sentence) -> Work {
    say(TurnPath::Chat, &texts::closing(said))
}

/// The person answered Donna's question: read the answer with what the draft holds.
async fn answer_draft(
    deps: &TurnDeps,
    context: &TurnContext,
    inbound: &Inbound,
    said: &Sentence,
    draft: &Draft,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    let (work, step) = match draft.kind {
        DraftKind::What => capture_answer(deps, context, draft, said.core_text(), now).await?,
        DraftKind::Time => {
            capture_with_time_answer(deps, context, draft, said.core_text(), now).await?
        }
        DraftKind::WhichTask => answer_which(deps, context, inbound, draft, now).await?,
        DraftKind::Clarify => {
            let merged = format!("{}\n{}", draft.text, inbound.text);
            parse_and_capture(deps, context, inbound, said, &merged, draft.questions, now).await?
        }
    };
    // Anything but another question ends the draft (answered, or handled).
    let step = match step {
        DraftStep::Keep => DraftStep::Remove,
        other => other,
    };
    Ok((work, step))
}

/// An automation (or digest) proposed in words, stored only after a yes.
fn propose_automation(action: crate::actions::BoundAction) -> Work {
    Work::Propose {
        actions: vec![action],
        preamble: None,
        path: TurnPath::AutomationProposed,
        steps: Vec::new(),
    }
}

/// Whether a message answers the draft: not a question, not a command of its own.
fn answers_draft(reading: &Reading, said: &Sentence) -> bool {
    matches!(reading, Reading::Nothing) && !said.is_question()
}

/// A digest or an automation command, proposed like any automation (or the question its
/// unreadable words raise); None when the message is neither.
fn command_proposal(
    context: &TurnContext,
    inbound: &Inbound,
    digest: DigestReading,
    automation: AutomationReading,
) -> Option<Work> {
    match digest {
        DigestReading::NotDigest => {}
        DigestReading::Digest {
            schedule,
            time_stated,
        } => {
            let action =
                digest_proposal(&schedule, time_stated, &context.thread.id, &inbound.user_id);
            return Some(propose_automation(action));
        }
        DigestReading::Unreadable(question) => return Some(say(TurnPath::Clarify, &question)),
    }
    match automation {
        AutomationReading::NotAutomation => None,
        AutomationReading::Draft(draft) => Some(propose_automation(proposal_action(
            &draft,
            Some(&context.thread.id),
        ))),
        AutomationReading::Unreadable(question) => Some(say(TurnPath::Clarify, &question)),
    }
}
