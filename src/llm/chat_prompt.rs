//! The chat room's prompt: the one prefix of every call (`system_prompt`: the
//! persona, the rules, the actions, how to write a chat answer), the NEWEST messages of the
//! session that fit the budget, then what Donna remembers (the pinned task, summaries of
//! earlier sessions, the open tasks for task talk) with the time, and the current message,
//! always last and always there. And the `summarize` call's: the prefix, then the session's
//! newest lines that fit, quoted.
//!
//! Order: what stays the same from turn to turn comes first, so a model server reuses it: the
//! prefix is the same for every call, and the session's messages only grow at their end; the
//! time and the records, which change, come after them.
//!
//! The budget: `chat.context_budget_tokens`, and never more than the context the model runs
//! with leaves for a prompt (`Prefix::room`, `budget::ContextWindow`), tokens estimated by
//! `budget::tokens`. The prefix, the remembered context and the current message are counted
//! first; the history gets what is left, newest message first, and stops at the first that
//! does not fit, so what the model sees is always the unbroken end of the conversation.
//!
//! Invariants: the person's words and stored text are message content or template VALUES, never
//! rendered as a template (handlebars substitutes a value once), and never in the system
//! message; the current message is the last message, whatever the budget.

use handlebars::Handlebars;
use serde::Serialize;
use serde_json::json;

use super::budget::{message_tokens, newest_that_fit, tokens, MESSAGE_OVERHEAD_TOKENS};
use super::prompts::{quote, strict_templates, template_error, PromptError, TaskFacts};
use super::system_prompt::Prefix;
pub use super::system_prompt::{action_lines, ActionLine};
use super::ChatMessage;

const TEMPLATES: [(&str, &str); 2] = [
    (
        "chat_context",
        include_str!("../../prompts/chat_context.hbs"),
    ),
    ("summarize", include_str!("../../prompts/summarize.hbs")),
];

/// One earlier message of the session.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChatLine {
    /// The person's (true) or Donna's (false).
    pub from_person: bool,
    pub text: String,
}

/// Everything a chat prompt is built from.
#[derive(Debug, Clone)]
pub struct ChatContext {
    /// Open tasks, one line each ("title (due ...)"), when the person talks about tasks.
    pub open_tasks: Vec<String>,
    /// The task the chat is pinned to.
    pub pinned: Option<TaskFacts>,
    /// Summaries of earlier sessions, oldest first (already bounded by the caller).
    pub summaries: Vec<String>,
    /// The session's messages before this one, oldest first.
    pub history: Vec<ChatLine>,
    pub message: String,
    pub now: String,
    pub timezone: String,
    /// `chat.context_budget_tokens` in force (the prefix's room may leave less).
    pub budget_tokens: usize,
}

/// A closed session to summarise.
#[derive(Debug, Clone)]
pub struct SummaryContext {
    pub lines: Vec<ChatLine>,
    pub budget_tokens: usize,
}

#[derive(Debug)]
pub struct ChatPrompts {
    templates: Handlebars<'static>,
}

impl ChatPrompts {
    /// Registers and renders every template once with a sample, so a broken one stops startup.
    pub fn new() -> Result<Self, PromptError> {
        let templates = strict_templates(&TEMPLATES)?;
        let prompts = Self { templates };
        let prefix = Prefix::sample();
        prompts.messages(&prefix, &sample_context())?;
        prompts.summary_messages(
            &prefix,
            &SummaryContext {
                lines: sample_context().history,
                budget_tokens: 1_000,
            },
        )?;
        Ok(prompts)
    }

    fn render(&self, name: &str, data: &serde_json::Value) -> Result<String, PromptError> {
        self.templates
            .render(name, data)
            .map_err(|e| template_error(name, e))
    }

    /// The chat call's messages, within the budget (see the module header).
    pub fn messages(
        &self,
        prefix: &Prefix,
        context: &ChatContext,
    ) -> Result<Vec<ChatMessage>, PromptError> {
        let pinned = context.pinned.as_ref().map(|task| TaskFacts {
            title: quote(&task.title),
            ..task.clone()
        });
        let summaries: Vec<String> = context.summaries.iter().map(|s| quote(s)).collect();
        let tasks: Vec<String> = context.open_tasks.iter().map(|t| quote(t)).collect();
        let remembered = ChatMessage::user(self.render(
            "chat_context",
            &json!({
                "pinned": pinned, "summaries": summaries, "tasks": tasks,
                "now": context.now, "timezone": context.timezone,
            }),
        )?);
        let current = ChatMessage::user(context.message.clone());
        let spent = message_tokens(&[remembered.clone(), current.clone()]);
        let history = newest_that_fit(
            &context.history,
            room(prefix, context.budget_tokens).saturating_sub(spent),
            |line| tokens(&line.text) + MESSAGE_OVERHEAD_TOKENS,
        );
        let mut own: Vec<ChatMessage> = history
            .iter()
            .map(|line| {
                if line.from_person {
                    ChatMessage::user(line.text.clone())
                } else {
                    ChatMessage::assistant(line.text.clone())
                }
            })
            .collect();
        own.push(remembered);
        own.push(current);
        Ok(prefix.then(own))
    }

    /// The summarize call's messages: the prefix, then the line naming the request and the
    /// session's newest lines that fit the budget, quoted, in one user message.
    pub fn summary_messages(
        &self,
        prefix: &Prefix,
        context: &SummaryContext,
    ) -> Result<Vec<ChatMessage>, PromptError> {
        let header = self.render("summarize", &json!({}))?;
        let lines = newest_that_fit(
            &context.lines,
            room(prefix, context.budget_tokens)
                .saturating_sub(tokens(&header) + MESSAGE_OVERHEAD_TOKENS),
            // "Person: > " and a newline around each line.
            |line| tokens(&line.text) + 3,
        );
        let mut transcript = header;
        for line in lines {
            let who = if line.from_person { "Person" } else { "Donna" };
            transcript.push_str(&format!("{who}: > {}\n", quote(&line.text)));
        }
        Ok(prefix.then([ChatMessage::user(transcript)]))
    }
}

/// What a call's own messages may hold: the prefix's room, and never more than `budget` (the
/// whole prompt's, the prefix included) leaves.
fn room(prefix: &Prefix, budget: usize) -> usize {
    prefix.room.min(budget.saturating_sub(prefix.tokens))
}

fn sample_context() -> ChatContext {
    ChatContext {
        open_tasks: vec!["Passport renewal (due Friday 27 Nov at 09:00)".into()],
        pinned: Some(TaskFacts {
            title: "Passport renewal".into(),
            status: "backlog".into(),
            domain: "personal".into(),
            priority: 2,
            scheduled_start: None,
            deadline: Some("Friday 27 Nov at 09:00".into()),
            estimated_duration_minutes: None,
        }),
        summaries: vec!["They talked about the weekend.".into()],
        history: vec![ChatLine {
            from_person: true,
            text: "long day".into(),
        }],
        message: "hi again".into(),
        now: "2026-01-01T08:00:00+00:00".into(),
        timezone: "UTC".into(),
        budget_tokens: 24_000,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_current_message_is_last_even_when_nothing_else_fits() {
        let prompts = ChatPrompts::new().unwrap_or_else(|e| panic!("{e}"));
        let mut context = sample_context();
        context.budget_tokens = 1;
        context.message = "{{persona}} {{> chat_donna}}".into();
        let prefix = Prefix::sample();
        let messages = prompts
            .messages(&prefix, &context)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(messages.len(), 3, "system, records, current: {messages:?}");
        assert_eq!(
            messages
                .last()
                .map(|m| (m.role.as_str(), m.content.as_str())),
            Some(("user", "{{persona}} {{> chat_donna}}"))
        );
    }

    #[test]
    fn the_history_fits_the_room_the_context_leaves_even_under_a_bigger_budget() {
        let prompts = ChatPrompts::new().unwrap_or_else(|e| panic!("{e}"));
        let mut context = sample_context();
        context.history = (0..100)
            .map(|n| ChatLine {
                from_person: n % 2 == 0,
                text: format!("message number {n} of a long evening of small talk"),
            })
            .collect();
        let prefix = Prefix::new(vec![ChatMessage::system("rules")], 600);
        let messages = prompts
            .messages(&prefix, &context)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            message_tokens(&messages) <= 600,
            "{}",
            message_tokens(&messages)
        );
        assert!(
            messages.len() > 10,
            "the newest that fit are kept: {}",
            messages.len()
        );
        assert!(messages
            .iter()
            .any(|m| m.content.contains("message number 99 ")));
    }
}
