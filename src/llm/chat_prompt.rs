//! The chat room's prompt (seed 002): the free-text system message (`system_prompt`: the
//! persona, the rules, the actions), the NEWEST messages of the session that fit
//! `chat.context_budget_tokens`, then what Donna remembers (the pinned task, summaries of
//! earlier sessions, the open tasks for task talk) with the time, and the current message,
//! always last and always there.
//!
//! Order (issue 34): what stays the same from turn to turn comes first, so a model server
//! reuses it: the system message is the same for every free-text call, and the session's
//! messages only grow at their end; the time and the records, which change, come after them.
//!
//! Tokens are estimated, not counted: a message's content costs its characters / 4, rounded up
//! (`tokens`). No tokenizer is shipped for every model a person may run; four characters a
//! token is the usual rule of thumb for English (and the one escalation's cost estimate uses).
//! The system message, the remembered context and the current message are counted first; the
//! history gets what is left, newest message first, and stops at the first that does not fit,
//! so what the model sees is always the unbroken end of the conversation.
//!
//! Invariants: the person's words and stored text are message content or template VALUES, never
//! rendered as a template (handlebars substitutes a value once), and never in the system
//! message; the system message holds only Donna's own rules and config, never the time; the
//! current message is the last message, whatever the budget.

use handlebars::Handlebars;
use serde::Serialize;
use serde_json::json;

use super::prompts::{quote, strict_templates, template_error, PromptError, TaskFacts};
use super::system_prompt;
pub use super::system_prompt::{action_lines, ActionLine};
use super::ChatMessage;
use crate::config::Persona;

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
    /// The voice (`chat.persona` in force when the turn started).
    pub persona: Persona,
    /// The actions the model may propose (config/chat_actions.yaml).
    pub actions: Vec<ActionLine>,
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
    pub budget_tokens: usize,
    /// Whether the bigger model can be offered: the system message then describes
    /// `needs_escalation` and `escalation_reason`.
    pub escalation: bool,
}

/// A closed session to summarise.
#[derive(Debug, Clone)]
pub struct SummaryContext {
    pub lines: Vec<ChatLine>,
    pub budget_tokens: usize,
}

/// Estimated tokens of a text: its characters / 4, rounded up.
pub fn tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

#[derive(Debug)]
pub struct ChatPrompts {
    templates: Handlebars<'static>,
}

impl ChatPrompts {
    /// Registers and renders every template once with a sample, so a broken one stops startup.
    pub fn new() -> Result<Self, PromptError> {
        let mut sources = system_prompt::TEMPLATES.to_vec();
        sources.extend(TEMPLATES);
        let templates = strict_templates(&sources)?;
        let prompts = Self { templates };
        for persona in [Persona::Donna, Persona::Neutral] {
            for escalation in [true, false] {
                prompts.messages(&ChatContext {
                    persona,
                    escalation,
                    ..sample_context()
                })?;
            }
        }
        prompts.summary_messages(&SummaryContext {
            lines: sample_context().history,
            budget_tokens: 1_000,
        })?;
        Ok(prompts)
    }

    fn render(&self, name: &str, data: &serde_json::Value) -> Result<String, PromptError> {
        self.templates
            .render(name, data)
            .map_err(|e| template_error(name, e))
    }

    /// The chat call's messages, within the budget (see the module header).
    pub fn messages(&self, context: &ChatContext) -> Result<Vec<ChatMessage>, PromptError> {
        let system = system_prompt::render(
            &self.templates,
            context.persona,
            &context.actions,
            context.escalation,
        )?;
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
                "escalation": context.escalation,
            }),
        )?);
        let current = ChatMessage::user(context.message.clone());
        let spent: usize = [&system, &remembered.content, &current.content]
            .into_iter()
            .map(|text| tokens(text))
            .sum();
        let history = newest_that_fit(
            &context.history,
            context.budget_tokens.saturating_sub(spent),
            |line| tokens(&line.text),
        );
        let mut messages = vec![ChatMessage::system(system)];
        messages.extend(history.iter().map(|line| {
            if line.from_person {
                ChatMessage::user(line.text.clone())
            } else {
                ChatMessage::assistant(line.text.clone())
            }
        }));
        messages.push(remembered);
        messages.push(current);
        Ok(messages)
    }

    /// The summarize call's messages: the instructions, then the session's newest lines that
    /// fit the budget, quoted, in one user message.
    pub fn summary_messages(
        &self,
        context: &SummaryContext,
    ) -> Result<Vec<ChatMessage>, PromptError> {
        let system = self.render("summarize", &json!({}))?;
        let lines = newest_that_fit(
            &context.lines,
            context.budget_tokens.saturating_sub(tokens(&system)),
            // "Person: > " and a newline around each line.
            |line| tokens(&line.text) + 3,
        );
        let mut transcript = String::from("[source: the conversation, quoted data]\n");
        for line in lines {
            let who = if line.from_person { "Person" } else { "Donna" };
            transcript.push_str(&format!("{who}: > {}\n", quote(&line.text)));
        }
        Ok(vec![
            ChatMessage::system(system),
            ChatMessage::user(transcript),
        ])
    }
}

/// The newest lines whose cost adds up to at most `budget`, oldest first; stops at the first
/// line that does not fit, so the kept lines are the unbroken end of the conversation.
fn newest_that_fit(
    lines: &[ChatLine],
    budget: usize,
    cost: impl Fn(&ChatLine) -> usize,
) -> &[ChatLine] {
    let mut left = budget;
    let mut from = lines.len();
    for (index, line) in lines.iter().enumerate().rev() {
        let Some(rest) = left.checked_sub(cost(line)) else {
            break;
        };
        left = rest;
        from = index;
    }
    lines.get(from..).unwrap_or_default()
}

fn sample_context() -> ChatContext {
    ChatContext {
        persona: Persona::Donna,
        actions: vec![ActionLine {
            name: "mark_done".into(),
            description: "Mark a task as completed.".into(),
            params: "task (string)".into(),
        }],
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
        escalation: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(from_person: bool, text: &str) -> ChatLine {
        ChatLine {
            from_person,
            text: text.into(),
        }
    }

    #[test]
    fn tokens_are_characters_over_four_rounded_up() {
        assert_eq!(
            [
                tokens(""),
                tokens("a"),
                tokens("abcd"),
                tokens("abcde"),
                tokens("éééé")
            ],
            [0, 1, 1, 2, 1]
        );
    }

    #[test]
    fn the_budget_keeps_the_unbroken_newest_end() {
        let lines = [
            line(true, "aaaaaaaa"),
            line(false, "bbbb"),
            line(true, "cccc"),
        ];
        // 2 + 1 + 1 tokens: all; 2 tokens: the last two; 1 token: the last; 0: none.
        assert_eq!(newest_that_fit(&lines, 4, |l| tokens(&l.text)).len(), 3);
        assert_eq!(newest_that_fit(&lines, 3, |l| tokens(&l.text)).len(), 2);
        assert_eq!(newest_that_fit(&lines, 1, |l| tokens(&l.text)), &lines[2..]);
        assert!(newest_that_fit(&lines, 0, |l| tokens(&l.text)).is_empty());
        // A long old line that does not fit stops the walk; older short lines stay out.
        let gap = [
            line(true, "x"),
            line(true, &"y".repeat(40)),
            line(true, "z"),
        ];
        assert_eq!(newest_that_fit(&gap, 5, |l| tokens(&l.text)), &gap[2..]);
    }

    #[test]
    fn the_current_message_is_last_even_when_nothing_else_fits() {
        let prompts = ChatPrompts::new().unwrap_or_else(|e| panic!("{e}"));
        let mut context = sample_context();
        context.persona = Persona::Neutral;
        context.budget_tokens = 1;
        context.message = "{{persona}} {{> chat_donna}}".into();
        let messages = prompts.messages(&context).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(messages.len(), 3, "system, records, current: {messages:?}");
        assert_eq!(
            messages
                .last()
                .map(|m| (m.role.as_str(), m.content.as_str())),
            Some(("user", "{{persona}} {{> chat_donna}}"))
        );
    }
}
