//! The free-text room: a message in a thread bound to no task (a DM, a mention, a free local
//! thread, the console's free lines) that no plan answer, confirm word or "undo" took
//! (docs/contract.md "Free text", steps 6-8).
//!
//! Order: a pending draft (the answer to Donna's question is merged with it and read again;
//! "never mind" drops it; a question or a command is handled on its own and the draft stays),
//! then the sender's time zone and quiet hours (`timezone`), then a digest or automation command (proposed as a
//! plan), then the rules (captures, the common questions a page at a time and "more" (`lists`),
//! the agenda, greetings, thanks, a request for the bigger model:
//! `bigger_model`), then the model
//! (`free_model`), or without one an honest answer naming what works.
//! Invariants: reached only through `decide`'s `Next::FreeText`, so a bare confirmation or
//! "undo" never gets here; the message's readings by the rules, the automation and digest
//! commands are made once (`Readings`) from its one reading and shared with the group gate and
//! `keep_the_live_plan`; nothing here writes: the room returns the turn's work and what
//! happens to the draft, committed by the pipeline in one transaction.

use chrono::{DateTime, Utc};

use crate::actions::automation::{digest_proposal, proposal_action};
use crate::automations::command::AutomationReading;
use crate::automations::digest_command::DigestReading;
use crate::capture::bigger_model;
use crate::capture::rules::{Question, Reading};
use crate::conversation::drafts::{Draft, DraftKind, MAX_QUESTIONS};
use crate::sentence::Sentence;

use super::apply::Work;
use super::context::TurnContext;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::pipeline::Pipeline;
use super::readings::Readings;
use super::result::TurnPath;
use super::texts;
use super::Inbound;

impl Pipeline {
    pub(super) async fn free_text(
        &self,
        context: &TurnContext,
        inbound: &Inbound,
        said: &Sentence,
        readings: Option<Readings>,
        now: DateTime<Utc>,
    ) -> Result<(Work, DraftStep), TurnError> {
        let readings = readings.unwrap_or_else(|| Readings::of(said, now, self.settings.timezone));
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
                return self.answer_draft(context, inbound, said, draft, now).await;
            }
        }
        let step = DraftStep::Keep;
        // "my time zone is Europe/Berlin", "I'm in Tokyo now": the sender's own zone.
        if let Some(work) = self.timezone_sentence(inbound, &zone, now).await? {
            return Ok((work, step));
        }
        // "quiet hours 23:00 to 7:00", "don't nudge me between 10pm and 7am".
        if let Some(work) = self.quiet_sentence(inbound, &quiet).await? {
            return Ok((work, step));
        }
        // "send me my agenda every day at 8am", "every monday at 9 remind me to ...": proposed
        // in words, stored only after a yes.
        if let Some(work) = command_proposal(context, inbound, digest, automation) {
            return Ok((work, step));
        }
        // "what's on my calendar tomorrow?", "find me an hour friday for the taxes".
        if let Some(ask) = calendar {
            return Ok((self.calendar_answer(context, ask, now).await?, step));
        }
        match reading {
            Reading::Capture { body } => self.capture_words(context, &body, 0, now).await,
            Reading::BareCapture => Ok(ask(DraftKind::What, "", 1, texts::ASK_WHAT)),
            Reading::Question(Question::Agenda) => {
                Ok((self.agenda_answer(context, now).await?, step))
            }
            Reading::Question(question) => {
                Ok((self.list_answer(context, question, now).await?, step))
            }
            Reading::More => Ok((self.next_page(context, now).await?, step)),
            Reading::Greeting => Ok((say(TurnPath::Chat, texts::GREETING), step)),
            Reading::Thanks => Ok((say(TurnPath::Chat, &texts::closing(said)), step)),
            Reading::NeverMind => Ok((say(TurnPath::Unhandled, texts::NOTHING_TO_DROP), step)),
            Reading::TaskTime { reference } => match self.task_time(&reference, now).await? {
                Some(answer) => Ok((say(TurnPath::Answer, &answer), step)),
                None => {
                    self.nothing_the_rules_read(context, inbound, said, now)
                        .await
                }
            },
            Reading::Nothing => {
                self.nothing_the_rules_read(context, inbound, said, now)
                    .await
            }
        }
    }

    /// A message that only closes the conversation, in any room ("thanks, that's all", "cool,
    /// see you tomorrow", "you're the best"): a short friendly answer, nothing changes.
    pub(super) fn closing(&self, said: &Sentence) -> Work {
        say(TurnPath::Chat, &texts::closing(said))
    }

    /// A message no rule read: a request for the bigger model, else the model.
    async fn nothing_the_rules_read(
        &self,
        context: &TurnContext,
        inbound: &Inbound,
        said: &Sentence,
        now: DateTime<Utc>,
    ) -> Result<(Work, DraftStep), TurnError> {
        match bigger_model::read(said) {
            Some(asked) => self.bigger_model_asked(inbound, asked, now).await,
            None => self.free_model(context, inbound, said, now).await,
        }
    }

    /// The person answered Donna's question: read the answer with what the draft holds.
    async fn answer_draft(
        &self,
        context: &TurnContext,
        inbound: &Inbound,
        said: &Sentence,
        draft: &Draft,
        now: DateTime<Utc>,
    ) -> Result<(Work, DraftStep), TurnError> {
        let (work, step) = match draft.kind {
            DraftKind::What => {
                self.capture_answer(context, draft, said.core_text(), now)
                    .await?
            }
            DraftKind::Time => {
                self.capture_with_time_answer(context, draft, said.core_text(), now)
                    .await?
            }
            DraftKind::WhichTask => self.answer_which(context, inbound, draft, now).await?,
            DraftKind::Clarify => {
                let merged = format!("{}\n{}", draft.text, inbound.text);
                self.parse_and_capture(context, inbound, said, &merged, draft.questions, now)
                    .await?
            }
        };
        // Anything but another question ends the draft (answered, or handled).
        let step = match step {
            DraftStep::Keep => DraftStep::Remove,
            other => other,
        };
        Ok((work, step))
    }
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

pub(super) fn say(path: TurnPath, text: &str) -> Work {
    Work::Say {
        path,
        text: text.to_string(),
    }
}

/// Asks `question` and keeps a draft of `kind` holding `text`; after [`MAX_QUESTIONS`]
/// questions Donna gives up instead (`unhandled`, the draft dropped).
pub(super) fn ask(
    kind: DraftKind,
    text: &str,
    questions: i64,
    question: &str,
) -> (Work, DraftStep) {
    ask_with(kind, text, serde_json::Value::Null, questions, question)
}

pub(super) fn ask_with(
    kind: DraftKind,
    text: &str,
    data: serde_json::Value,
    questions: i64,
    question: &str,
) -> (Work, DraftStep) {
    if questions > MAX_QUESTIONS {
        return (
            say(TurnPath::Unhandled, texts::DRAFT_GIVEN_UP),
            DraftStep::Remove,
        );
    }
    (
        say(TurnPath::Clarify, question),
        DraftStep::Save {
            kind,
            text: text.to_string(),
            data,
            questions,
        },
    )
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
