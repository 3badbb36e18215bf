//! The reply gate: one short model call that answers REPLY or SKIP for a message in a
//! group chat, so Donna stays out of conversations that are not hers. Its messages are the one
//! prefix of every call (whose system message says how to answer a reply check), then the
//! group's messages (prompts/reply_gate.hbs).
//!
//! Invariants: only an answer starting with SKIP suppresses; an error, a timeout, an empty or a
//! junk answer fails open (Donna replies), so a gate hiccup never silences a real question.

use super::client::LlmClient;
use super::prompts::{GateContext, Prompts};
use super::system_prompt::Prefix;
use super::ChatMessage;

/// What the gate decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GateDecision {
    Reply,
    Skip,
    /// The gate could not decide (the reason); Donna replies.
    FailOpen(String),
}

#[derive(Debug)]
pub struct ReplyGate {
    client: LlmClient,
}

impl ReplyGate {
    pub fn new(client: LlmClient) -> Self {
        Self { client }
    }

    /// The messages of the check: the prefix, then the group's messages, quoted, the oldest
    /// left out when they would not fit.
    pub fn messages(
        prompts: &Prompts,
        prefix: &Prefix,
        context: &GateContext,
    ) -> Result<Vec<ChatMessage>, super::prompts::PromptError> {
        prefix.fit(&context.history, |history| {
            prompts.reply_gate(&GateContext {
                history: history.to_vec(),
                ..context.clone()
            })
        })
    }

    pub async fn decide(
        &self,
        prompts: &Prompts,
        prefix: &Prefix,
        context: &GateContext,
    ) -> GateDecision {
        if context.message.trim().is_empty() {
            return GateDecision::Reply;
        }
        let messages = match Self::messages(prompts, prefix, context) {
            Ok(messages) => messages,
            Err(error) => return GateDecision::FailOpen(error.to_string()),
        };
        match self.client.complete(&messages, None).await {
            Ok(answer) => read_answer(&answer),
            Err(error) => GateDecision::FailOpen(error.to_string()),
        }
    }
}

/// SKIP (any case, leading spaces, quotes or punctuation ignored) suppresses; REPLY replies;
/// anything else fails open.
pub fn read_answer(answer: &str) -> GateDecision {
    let word: String = answer
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .chars()
        .take(5)
        .collect::<String>()
        .to_ascii_uppercase();
    if word.starts_with("SKIP") {
        GateDecision::Skip
    } else if word.starts_with("REPLY") {
        GateDecision::Reply
    } else if answer.trim().is_empty() {
        GateDecision::FailOpen("empty answer".into())
    } else {
        GateDecision::FailOpen(format!(
            "unreadable answer {:?}",
            answer.chars().take(40).collect::<String>()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_answer_starting_with_skip_suppresses() {
        let cases = [
            ("SKIP", GateDecision::Skip),
            ("skip - not for me", GateDecision::Skip),
            ("  \"SKIP\"", GateDecision::Skip),
            ("REPLY", GateDecision::Reply),
            ("Reply.", GateDecision::Reply),
        ];
        for (answer, expected) in cases {
            assert_eq!(read_answer(answer), expected, "{answer}");
        }
        for junk in ["", "   ", "I would skip this", "maybe", "NO"] {
            assert!(
                matches!(read_answer(junk), GateDecision::FailOpen(_)),
                "{junk:?}"
            );
        }
    }
}
