//! The ONE prefix of every model call: the system message (prompts/system.hbs) and `route`'s
//! guide and examples after it (`route_examples`), byte-identical for every call kind
//! (`classify`, `route`, `parse_task`, `plan_step`, the planner's composed answer, the chat
//! room's `chat`, `summarize`, the reply gate), so a model server that keeps one prompt
//! (llama-cpp-python) or one per model (Ollama) evaluates only what follows it, whatever kind
//! of call came before (docs/contract.md "Model calls").
//!
//! Where things go:
//! - What every call must know (the voice, the rules, the intents, the chat actions, the
//!   look-ups' catalogue) and HOW to answer each kind of request (its section of
//!   prompts/system.hbs, its example answers) is here, in the prefix: static text costs nothing
//!   once the server holds it. A new call kind adds its section to prompts/system.hbs; a new
//!   look-up is a `crate::planner::TOOLS` entry, listed here by its name and description (its
//!   argument schema is the `plan_step` grammar's, never prompt text); new `route` answer fields
//!   go into prompts/route.hbs and `route_examples`.
//! - What a call is ABOUT (the turn: the person's words, the history, the time, a task, tool
//!   results) comes after the prefix, in that call's own messages (prompts/<kind>.hbs), which
//!   name the kind of request first.
//!
//! Invariants: the prefix depends only on Donna's own config in force (the persona, the chat
//! actions file, the reply actions file, whether a bigger model is configured), never on a turn
//! (no time, no words of the person, no stored text, no tool output); every call's messages
//! start with it (`tests/it/prompt_prefix.rs`).

use std::sync::Arc;

use handlebars::Handlebars;
use serde::Serialize;
use serde_json::{json, Value};

use super::budget::{message_tokens, tokens, MESSAGE_OVERHEAD_TOKENS};
use super::prompts::{strict_templates, template_error, PromptError};
use super::reply_actions::ReplyActions;
use super::route_examples;
use super::ChatMessage;
use crate::actions::ActionRegistry;
use crate::chat_actions::registry::ChatActions;
use crate::config::{ChatConfig, Persona};
use crate::live::Live;
use crate::planner::TOOLS;

const SYSTEM: &str = include_str!("../../prompts/system.hbs");
const ROUTE: &str = include_str!("../../prompts/route.hbs");

/// One chat action as the system message lists it (Donna's own config, not the person's words).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActionLine {
    pub name: String,
    pub description: String,
    /// "task, when?" (`?`: optional).
    pub params: String,
}

/// The chat actions as the prompts list them (Donna's own config): the least risky first
/// (read, then write, then confirm; by name within a level), because a small model leans
/// towards what it reads first.
pub fn action_lines(actions: &ChatActions) -> Vec<ActionLine> {
    let mut listed: Vec<_> = actions.iter().collect();
    listed.sort_by_key(|action| (action.safety, action.name.clone()));
    listed
        .into_iter()
        .map(|action| ActionLine {
            name: action.name.clone(),
            description: action.description.clone(),
            params: action
                .params
                .iter()
                .map(|(name, def)| {
                    let optional = if def.optional { "?" } else { "" };
                    format!("{name}{optional}")
                })
                .collect::<Vec<_>>()
                .join(", "),
        })
        .collect()
}

/// What the one system message is made of: Donna's own config, never a turn.
#[derive(Debug, Clone)]
pub struct SystemFacts {
    /// The voice (`chat.persona`).
    pub persona: Persona,
    /// What a chat answer may propose (config/chat_actions.yaml).
    pub chat_actions: Vec<ActionLine>,
    /// What a reply to a nudge may propose (config/reply_actions.yaml), with example answers.
    pub reply_actions: Arc<ReplyActions>,
    /// Whether the bigger model can be offered: the rules then say when to ask for it.
    pub escalation: bool,
}

impl SystemFacts {
    /// The facts of the shipped config files in `persona` (tests, benches, startup checks).
    pub fn shipped(persona: Persona, escalation: bool) -> Result<Self, PromptError> {
        let fail = |e: &dyn std::fmt::Display| template_error("system", e);
        let chat = ChatActions::shipped().map_err(|e| fail(&e))?;
        let replies = ActionRegistry::shipped().map_err(|e| fail(&e))?;
        Ok(Self {
            persona,
            chat_actions: action_lines(&chat),
            reply_actions: Arc::new(ReplyActions::of(&replies)),
            escalation,
        })
    }
}

/// Where the facts in force come from: the config and the rule files a hot reload replaces,
/// read at each call (a call finishes with the version it started with).
#[derive(Debug, Clone)]
pub struct SystemSource {
    pub chat: Live<ChatConfig>,
    pub chat_actions: Live<ChatActions>,
    pub reply_actions: Live<ActionRegistry>,
    pub escalation: bool,
}

impl SystemSource {
    pub fn facts(&self) -> SystemFacts {
        SystemFacts {
            persona: self.chat.get().persona,
            chat_actions: action_lines(&self.chat_actions.get()),
            reply_actions: Arc::new(ReplyActions::of(&self.reply_actions.get())),
            escalation: self.escalation,
        }
    }
}

/// The prefix as one call gets it, with the room its own messages have.
#[derive(Debug, Clone, PartialEq)]
pub struct Prefix {
    pub messages: Vec<ChatMessage>,
    /// Estimated tokens of `messages`, their role markers included.
    pub tokens: usize,
    /// What the call's own messages may hold, estimated: what a prompt may hold
    /// (`budget::ContextWindow::prompt_tokens`) less the prefix.
    pub room: usize,
    /// What the whole prompt may hold, estimated.
    prompt_tokens: usize,
}

impl Prefix {
    /// `messages` for a call whose whole prompt may hold `prompt_tokens`.
    pub fn new(messages: Vec<ChatMessage>, prompt_tokens: usize) -> Self {
        let tokens = message_tokens(&messages);
        Self {
            room: prompt_tokens.saturating_sub(tokens),
            tokens,
            messages,
            prompt_tokens,
        }
    }

    /// The prefix cut after its first message (the system message: the longest part, which a
    /// one-prompt server still reuses from the call before), for a call whose own messages do
    /// not fit beside the whole prefix: route's examples make room for a look-up's result.
    pub fn first_message_only(&self) -> Self {
        Self::new(
            self.messages.iter().take(1).cloned().collect(),
            self.prompt_tokens,
        )
    }

    /// `messages` for a server whose context Donna does not manage (the bigger model).
    pub fn unbounded(messages: Vec<ChatMessage>) -> Self {
        Self::new(messages, usize::MAX)
    }

    /// A stand-in for checking a call's own templates at startup.
    pub fn sample() -> Self {
        Self::unbounded(vec![ChatMessage::system("the system message")])
    }

    /// The prefix followed by `own`.
    pub fn then(&self, own: impl IntoIterator<Item = ChatMessage>) -> Vec<ChatMessage> {
        let mut messages = self.messages.clone();
        messages.extend(own);
        messages
    }

    /// The prefix and ONE user message rendered from the newest of `history` that let it fit
    /// the room (the oldest lines go first; the rest of the message is always there).
    pub fn fit<T: Clone>(
        &self,
        history: &[T],
        render: impl Fn(&[T]) -> Result<String, PromptError>,
    ) -> Result<Vec<ChatMessage>, PromptError> {
        let mut from = 0;
        loop {
            let shown = history.get(from..).unwrap_or_default();
            let text = render(shown)?;
            let fits = tokens(&text) + MESSAGE_OVERHEAD_TOKENS <= self.room;
            if fits || shown.is_empty() {
                return Ok(self.then([ChatMessage::user(text)]));
            }
            from += 1;
        }
    }
}

/// One look-up as the system message lists it.
#[derive(Serialize)]
struct ToolLine {
    name: &'static str,
    description: &'static str,
}

/// Renders the prefix.
#[derive(Debug)]
pub struct SystemPrompt {
    templates: Handlebars<'static>,
}

impl SystemPrompt {
    /// The templates, each rendered once with the shipped files in both voices, so a broken
    /// one stops the bot at startup.
    pub fn new() -> Result<Self, PromptError> {
        let prompt = Self {
            templates: strict_templates(&[("system", SYSTEM), ("route", ROUTE)])?,
        };
        for persona in [Persona::Donna, Persona::Neutral] {
            for escalation in [true, false] {
                prompt.prefix(&SystemFacts::shipped(persona, escalation)?)?;
            }
        }
        Ok(prompt)
    }

    /// The system message alone.
    pub fn system(&self, facts: &SystemFacts) -> Result<String, PromptError> {
        let tools: Vec<ToolLine> = TOOLS
            .iter()
            .map(|tool| ToolLine {
                name: tool.name,
                description: tool.description,
            })
            .collect();
        let data = json!({
            "donna": facts.persona == Persona::Donna,
            "escalation": facts.escalation,
            "chat_actions": facts.chat_actions,
            "tools": tools,
            "reply_actions": facts.reply_actions.actions,
            "reply_examples": facts.reply_actions.examples,
        });
        self.render("system", &data)
    }

    /// The messages every call starts with: the system message, then `route`'s guide and its
    /// examples as user and assistant messages (a small model answers in shape only when it
    /// has seen the shape; shown to every call so that `route`, the most frequent call, costs
    /// only its turn after any other call).
    pub fn prefix(&self, facts: &SystemFacts) -> Result<Vec<ChatMessage>, PromptError> {
        let guide = self.render("route", &json!({}))?;
        let mut messages = vec![ChatMessage::system(self.system(facts)?)];
        for (index, (message, answer)) in route_examples::examples().into_iter().enumerate() {
            let shown = format!("The person's newest message (quoted data):\n> {message}");
            messages.push(ChatMessage::user(if index == 0 {
                format!("{guide}\n{shown}")
            } else {
                shown
            }));
            messages.push(ChatMessage::assistant(answer.to_string()));
        }
        Ok(messages)
    }

    fn render(&self, name: &str, data: &Value) -> Result<String, PromptError> {
        self.templates
            .render(name, data)
            .map_err(|e| template_error(name, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prefix_holds_every_kind_s_guide_and_no_turn() {
        let prompt = SystemPrompt::new().unwrap_or_else(|e| panic!("{e}"));
        let facts = SystemFacts::shipped(Persona::Donna, false).unwrap_or_else(|e| panic!("{e}"));
        let system = prompt.system(&facts).unwrap_or_else(|e| panic!("{e}"));
        for section in [
            "A look-up step",
            "An answer from look-ups",
            "A chat answer",
            "Reading a task",
            "A summary",
            "A reply check",
            "A reply to a nudge",
        ] {
            assert!(system.contains(section), "{section}: {system}");
        }
        // The reply actions, least risky first, without their context parameters.
        let first = system.find("- mark_done: Mark the task");
        let last = system.find("- cancel_task: Cancel the task");
        assert!(first < last && first.is_some(), "{system}");
        assert!(!system.contains("task_id"), "{system}");
        // Every look-up by name, no argument schema as text (the grammar carries it).
        for tool in TOOLS.iter() {
            assert!(system.contains(&format!("- {}: ", tool.name)), "{system}");
        }
        assert!(!system.contains("additionalProperties"), "{system}");
        assert!(
            !system.contains("needs_escalation"),
            "no bigger model: {system}"
        );
        let neutral = SystemFacts {
            persona: Persona::Neutral,
            escalation: true,
            ..facts
        };
        let other = prompt.system(&neutral).unwrap_or_else(|e| panic!("{e}"));
        assert!(!other.contains("You are Donna"), "{other}");
        assert!(other.contains("needs_escalation"), "{other}");
    }
}
