//! The free-text model room (docs/contract.md "Free text", step 8): a message no rule took (but a
//! request for the bigger model, `bigger_model`) goes to `route` with the last
//! `planner.history_exchanges` exchanges of the chat; a capture (or an automation) then to
//! `parse_task`, whose answer is validated and captured like the rules' (times read by Donna's
//! parser, duplicates, preferences).
//!
//! A message that asks, in the person's words, for a change to one of their open tasks is task
//! talk without `route` (`turn::task_change`): one call instead of two.
//!
//! One call where `route` already answered for the room: a capture whose `route`
//! answer names the task is captured from it (no `parse_task`), and a chat whose `route`
//! answer holds the reply is answered with it (`turn::routed`); otherwise the room's own call
//! is made, as before.
//!
//! - A missing title or a confidence under `capture.min_confidence` asks ONE clarifying
//!   question and keeps a `clarify` draft (the answer is merged with the message and read
//!   again).
//! - A question goes to the planner (`turn::planner`), chat to the chat room (`turn::chat`),
//!   and a change to the person's tasks in plain words (task_action) to the chat room with their
//!   open tasks shown (`chat` with `Talk::Tasks`), whose actions follow the rules of consent.
//! - No model: an honest answer naming what works (`unhandled`); a model that is not there, or
//!   any call of the turn failing (timeout, refused, garbage after one retry):
//!   `llm_unavailable` with the same list, never "say it again".
//!
//! Reaches (of `TurnDeps`): "thinking", the model, the settings, the store; and what
//! `bigger_model`, `capture`, `chat`, `chat_memory`, `history`, `model_call`, `planner`, `routed`
//! reach.
//!
//! Invariant: the model's fields are data: a detail the person's words do not say is left out
//! (`turn::said_details`; a domain or priority left out is then a learned preference's or
//! the default); time words (`when`) the
//! message holds none of are the model's invention and are not used (no time, rather than a
//! time read wrong or a question about words the person never wrote); nothing it says runs
//! without validation.

use chrono::{DateTime, Utc};
use serde_json::json;

use crate::actions::automation::proposal_action;
use crate::automations::command::{self as automation_command, AutomationReading};
use crate::capture::bigger_model;
use crate::capture::time_words::{self, CaptureTime};
use crate::capture::title::capitalise;
use crate::conversation::drafts::DraftKind;
use crate::llm::free_text::{FreeTextContext, ParsedTask, RouteIntent};
use crate::llm::LlmError;
use crate::subsystems::llm_classifier::LlmMsg;
use crate::tasks::TaskSource;
use actors::Reply;

use super::apply::Work;
use super::bigger_model::bigger_model_asked;
use super::capture::{ask_when, capture_when, capture_work, set_time};
use super::chat::chat;
use super::chat_memory::Talk;
use super::context::TurnContext;
use super::deps::TurnDeps;
use super::draft_step::DraftStep;
use super::error::TurnError;
use super::history::free_text_context;
use super::model_call::{ask_model, model_down, without_the_model, Called};
use super::planner::planner;
use super::result::TurnPath;
use super::routed::routed_chat;
use super::said_details::said_details;
use super::say::{ask, say};
use super::settings::TurnSettings;
use super::task_change::asks_to_change_a_task;
use super::texts;
use super::Inbound;
use crate::replies::grounding::{asks_for, time_words_said, title_shares_a_word, Ask, Context};
use crate::sentence::tokens::Tokens;
use crate::sentence::Sentence;

pub(super) async fn free_model(
    deps: &TurnDeps,
    context: &TurnContext,
    inbound: &Inbound,
    said: &Sentence,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    if let Some(asked) = bigger_model::read(said) {
        return bigger_model_asked(deps, inbound, asked, now).await;
    }
    if let Some(answer) = without_the_model(deps, DraftStep::Keep, Some(said)) {
        return Ok(answer);
    }
    if asks_to_change_a_task(&deps.store, said).await? {
        // The person's words already say what this is (`turn::task_change`).
        return chat(deps, context, inbound, said, now, Talk::Tasks).await;
    }
    let call = |context, reply| LlmMsg::Route { context, reply };
    let route = match free_call(
        deps,
        inbound,
        said,
        &inbound.text,
        now,
        DraftStep::Keep,
        call,
    )
    .await?
    {
        Called::Answered(route) => route,
        Called::Settled(answer) => return Ok(*answer),
    };
    tracing::debug!(intent = ?route.intent, confidence = route.confidence, "routed");
    match route.intent {
        RouteIntent::Capture | RouteIntent::Automation => match route.task {
            Some(parsed) => {
                capture_parsed(deps, context, said, &inbound.text, 0, now, parsed).await
            }
            None => parse_and_capture(deps, context, inbound, said, &inbound.text, 0, now).await,
        },
        RouteIntent::Unclear => {
            let question = route
                .clarifying_question
                .unwrap_or_else(|| texts::CLARIFY.to_string());
            Ok(ask(DraftKind::Clarify, &inbound.text, 1, &question))
        }
        RouteIntent::Question => planner(deps, context, inbound, said, now).await,
        RouteIntent::Chat => match route.reply {
            Some(reply) => routed_chat(deps, context, inbound, said, now, reply).await,
            None => chat(deps, context, inbound, said, now, Talk::Chat).await,
        },
        RouteIntent::TaskAction => chat(deps, context, inbound, said, now, Talk::Tasks).await,
    }
}

/// `parse_task` on `text` (the message, or a draft merged with its answer, the message
/// `said`), validated and captured. `questions` were asked for it already.
pub(super) async fn parse_and_capture(
    deps: &TurnDeps,
    context: &TurnContext,
    inbound: &Inbound,
    said: &Sentence,
    text: &str,
    questions: i64,
    now: DateTime<Utc>,
) -> Result<(Work, DraftStep), TurnError> {
    let call = |context, reply| LlmMsg::ParseTask { context, reply };
    match free_call(deps, inbound, said, text, now, DraftStep::Remove, call).await? {
        Called::Answered(parsed) => {
            capture_parsed(deps, context, said, text, questions, now, parsed).await
        }
        Called::Settled(answer) => Ok(*answer),
    }
}

/// The task the model read from `text` (`parse_task`'s answer, or `route`'s: the message
/// `said`, or a draft merged with it), validated and captured. `questions` were asked for
/// it already.
pub(super) async fn capture_parsed(
    deps: &TurnDeps,
    context: &TurnContext,
    said: &Sentence,
    text: &str,
    questions: i64,
    now: DateTime<Utc>,
    parsed: ParsedTask,
) -> Result<(Work, DraftStep), TurnError> {
    let title = capitalise(parsed.title.trim());
    // A closing, a feeling or small talk read as a capture with nothing in it: no "what
    // should I add?" unless the person asked to add something.
    let message = words_read(said, text);
    if title.is_empty() && !asks_for(said, Ask::Create, &Context::default(), || false) {
        return Ok((say(TurnPath::Chat, texts::NOT_A_TASK), DraftStep::Remove));
    }
    if title.is_empty() || parsed.confidence < deps.settings.min_confidence {
        let question = if title.is_empty() {
            texts::ASK_WHAT.to_string()
        } else {
            format!("Should I add '{title}'? Tell me what to add, in your words.")
        };
        return Ok(ask(DraftKind::Clarify, text, questions + 1, &question));
    }
    // A title the person never said a word of is the model's invention ("what a day" ->
    // "Wire 5000 USD to ..."): nothing is added and nothing is asked to be merged later.
    if !title_shares_a_word(&message, &title) {
        tracing::info!(%title, "dropped a capture whose title the message does not hold");
        return Ok((
            say(TurnPath::Clarify, texts::INVENTED_TASK),
            DraftStep::Remove,
        ));
    }
    if let Some(recurrence) = &parsed.recurrence {
        return Ok(recurring_capture(
            &deps.settings,
            context,
            text,
            questions,
            now,
            recurrence,
            &title,
        ));
    }
    let mut capture = said_details(&message, &parsed, text, now).capture(title);
    // A length the person said with the task is theirs, whether or not the model read it.
    capture.estimated_minutes = (capture.estimated_minutes)
        .or_else(|| crate::tasks::when::lengths(text).first().map(|l| l.minutes));
    // Time words the message does not hold are the model's, not the person's: no time.
    let when = parsed
        .when
        .as_ref()
        .filter(|when| time_words_said(&message, when));
    if let Some(when) = when {
        let reason = match time_words::read(when, &capture_when(&deps.settings, now)) {
            CaptureTime::At { at, anchor, .. } => {
                set_time(&mut capture, at, anchor);
                // The model copies the person's time words; a clock time is theirs.
                capture.explicit_time = crate::tasks::explicit::names_the_moment(when);
                None
            }
            CaptureTime::None => Some("I found no time in it".to_string()),
            CaptureTime::Unreadable { reason, .. } => Some(reason.to_string()),
        };
        if let Some(reason) = reason {
            let data = json!({ "title": capture.title });
            return Ok(ask_when(&capture.title, &reason, text, data, questions));
        }
    }
    capture_work(deps, context, capture, now, TaskSource::Capture).await
}

/// A recurring reminder the model read: it copied the schedule words, and Donna's own
/// reader turns them into a rule, proposed; or the question about what it could not read.
fn recurring_capture(
    settings: &TurnSettings,
    context: &TurnContext,
    text: &str,
    questions: i64,
    now: DateTime<Utc>,
    recurrence: &str,
    title: &str,
) -> (Work, DraftStep) {
    let words = format!("{recurrence} remind me to {title}");
    match automation_command::read_words(&words, now, settings.timezone) {
        AutomationReading::Draft(draft) => (
            Work::Propose {
                actions: vec![proposal_action(&draft, Some(&context.thread.id))],
                preamble: None,
                path: TurnPath::AutomationProposed,
                steps: Vec::new(),
            },
            DraftStep::Remove,
        ),
        AutomationReading::Unreadable(question) => {
            ask(DraftKind::Clarify, text, questions + 1, &question)
        }
        AutomationReading::NotAutomation => ask(
            DraftKind::Clarify,
            text,
            questions + 1,
            "How often should I remind you, e.g. 'every monday at 9'?",
        ),
    }
}

/// One free-text model call on `text`. Settled: the turn's answer when no usable reply comes
/// (no model: `unhandled`, the draft as `no_model`; the model known away, the actor gone
/// or the call failing: `llm_unavailable`).
async fn free_call<T: Send + 'static>(
    deps: &TurnDeps,
    inbound: &Inbound,
    said: &Sentence,
    text: &str,
    now: DateTime<Utc>,
    no_model: DraftStep,
    message: impl FnOnce(Box<FreeTextContext>, Reply<Result<T, LlmError>>) -> LlmMsg,
) -> Result<Called<T>, TurnError> {
    if let Some(answer) = without_the_model(deps, no_model, Some(said)) {
        return Ok(Called::settled(answer));
    }
    let Some(llm) = &deps.actors.llm else {
        return Ok(Called::settled(model_down()));
    };
    let free = free_text_context(deps, inbound, text, now).await?;
    deps.actors.thinking.notify(inbound);
    ask_model(llm, "free text", |reply| message(Box::new(free), reply)).await
}

/// The words of what the model read: the message's own reading, or a merged draft's text.
fn words_read(said: &Sentence, text: &str) -> Vec<String> {
    if text == said.text() {
        said.words().map(str::to_string).collect()
    } else {
        Tokens::read(text).words().map(str::to_string).collect()
    }
}
