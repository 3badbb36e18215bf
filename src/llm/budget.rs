//! The context the model runs with (`llm.context_tokens`, or the server's own figure when it
//! reports a smaller one: llama.cpp's `GET /props`) and what a prompt may hold within it, so
//! that no call asks for more than the server holds (a long chat ends in "I can't use my
//! language model right now" otherwise).
//!
//! Room for the answer: every local call's answer is bounded by `MAX_OUTPUT_TOKENS` (512), and
//! a twentieth of the context is kept spare for what the estimate below gets wrong; the prompt
//! gets the rest ([`ContextWindow::prompt_tokens`]: 3,380 of 4,096). `chat.context_budget_tokens`
//! is honoured below that, never above.
//!
//! Tokens are estimated, not counted (no tokenizer ships for every model a person may run):
//! an ASCII letter or space is a quarter of a token (words of about four characters), a digit
//! a whole token (Gemma and Llama split numbers into digits), any other ASCII character half a
//! token, and every byte of non-ASCII text half a token; each message adds
//! [`MESSAGE_OVERHEAD_TOKENS`] for its role markers. Measured against Gemma 3's tokenizer,
//! Donna's prompts come out 3-15% high and tool results (JSON with ids and times) 7% low,
//! where characters / 4 was 10% low on the prompts and half on tool results (BENCHMARKS.md).
//!
//! Invariant: the window never grows past `llm.context_tokens`; a server's report can only
//! shrink it.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::client::MAX_OUTPUT_TOKENS;
use super::ChatMessage;

/// Tokens a chat template adds around one message (Gemma: `<start_of_turn>user\n` ...
/// `<end_of_turn>\n`).
pub const MESSAGE_OVERHEAD_TOKENS: usize = 5;
/// The share of the context kept spare for the estimate's error, in percent.
pub const SPARE_PERCENT: usize = 5;

/// Estimated tokens of a text (see the module header).
pub fn tokens(text: &str) -> usize {
    let quarters: usize = text
        .chars()
        .map(|c| match c {
            c if c.is_ascii_alphabetic() || c == ' ' => 1,
            c if c.is_ascii_digit() => 4,
            c if c.is_ascii() => 2,
            c => 2 * c.len_utf8(),
        })
        .sum();
    quarters.div_ceil(4)
}

/// Estimated tokens of a request's messages, their role markers included.
pub fn message_tokens(messages: &[ChatMessage]) -> usize {
    messages
        .iter()
        .map(|message| tokens(&message.content) + MESSAGE_OVERHEAD_TOKENS)
        .sum()
}

/// The newest of `lines` whose cost adds up to at most `budget`, oldest first; stops at the
/// first line that does not fit, so the kept lines are the unbroken end of the conversation.
pub fn newest_that_fit<T>(lines: &[T], budget: usize, cost: impl Fn(&T) -> usize) -> &[T] {
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

/// Where the context figure in force comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowSource {
    /// `llm.context_tokens`.
    Config,
    /// The server reported a smaller one.
    Server,
}

impl WindowSource {
    pub fn as_str(self) -> &'static str {
        match self {
            WindowSource::Config => "config",
            WindowSource::Server => "server",
        }
    }
}

/// The context in force, shared by the prober (which reads the server's figure), the model
/// calls (which fit their prompts to it), /health and the startup summary.
#[derive(Debug)]
pub struct ContextWindow {
    configured: usize,
    /// The server's own figure; 0 while none is known.
    reported: AtomicUsize,
}

impl ContextWindow {
    pub fn new(configured: usize) -> Self {
        Self {
            configured,
            reported: AtomicUsize::new(0),
        }
    }

    /// `llm.context_tokens`.
    pub fn configured(&self) -> usize {
        self.configured
    }

    /// The server's figure (`None`: it reports none, or not yet); returns whether the window
    /// in force changed.
    pub fn report(&self, server: Option<usize>) -> bool {
        let before = self.tokens();
        self.reported.store(server.unwrap_or(0), Ordering::Relaxed);
        before != self.tokens()
    }

    /// The context the model runs with: the configured one, or the server's when smaller.
    pub fn tokens(&self) -> usize {
        match self.reported.load(Ordering::Relaxed) {
            0 => self.configured,
            server => server.min(self.configured),
        }
    }

    pub fn source(&self) -> WindowSource {
        match self.reported.load(Ordering::Relaxed) {
            reported if reported != 0 && reported < self.configured => WindowSource::Server,
            _ => WindowSource::Config,
        }
    }

    /// The tokens kept for the answer: the longest a local call may answer.
    pub fn answer_tokens(&self) -> usize {
        MAX_OUTPUT_TOKENS as usize
    }

    /// The tokens kept spare for the estimate's error.
    pub fn spare_tokens(&self) -> usize {
        self.tokens() * SPARE_PERCENT / 100
    }

    /// What a whole prompt may hold, estimated: the context less the answer and the spare.
    pub fn prompt_tokens(&self) -> usize {
        self.tokens()
            .saturating_sub(self.answer_tokens() + self.spare_tokens())
    }

    /// The chat room's budget in force: `chat.context_budget_tokens`, at most what a prompt may
    /// hold.
    pub fn chat_budget(&self, configured_budget: usize) -> usize {
        configured_budget.min(self.prompt_tokens())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_cost_a_quarter_a_character_and_numbers_a_token_a_digit() {
        let cases = [
            ("", 0),
            ("abcd", 1),
            ("call mom", 2),
            ("2026", 4),
            ("a,b", 1),
            ("éé", 2),
            ("😂", 2),
        ];
        for (text, expected) in cases {
            assert_eq!(tokens(text), expected, "{text:?}");
        }
    }

    #[test]
    fn a_server_can_only_shrink_the_window_and_the_answer_always_has_room() {
        let window = ContextWindow::new(4096);
        assert_eq!(window.prompt_tokens(), 4096 - 512 - 204);
        assert_eq!(window.chat_budget(24_000), window.prompt_tokens());
        assert_eq!(window.chat_budget(1_000), 1_000);
        assert!(window.report(Some(2048)));
        assert_eq!(
            (window.tokens(), window.source()),
            (2048, WindowSource::Server)
        );
        // A server that runs with more than the config says is held to the config.
        window.report(Some(8192));
        assert_eq!(
            (window.tokens(), window.source()),
            (4096, WindowSource::Config)
        );
        window.report(Some(2048));
        window.report(None);
        assert_eq!(
            window.tokens(),
            4096,
            "a server that stops saying: the config"
        );
    }

    #[test]
    fn the_budget_keeps_the_unbroken_newest_end() {
        let lines = ["aaaaaaaa", "bbbb", "cccc"];
        let cost = |line: &&str| tokens(line);
        // 2 + 1 + 1 tokens: all; 2 tokens: the last two; 1 token: the last; 0: none.
        assert_eq!(newest_that_fit(&lines, 4, cost).len(), 3);
        assert_eq!(newest_that_fit(&lines, 3, cost).len(), 2);
        assert_eq!(newest_that_fit(&lines, 1, cost), &lines[2..]);
        assert!(newest_that_fit(&lines, 0, cost).is_empty());
        // A long old line that does not fit stops the walk; older short lines stay out.
        let long = "y".repeat(40);
        let gap = ["x", long.as_str(), "z"];
        assert_eq!(newest_that_fit(&gap, 5, cost), &gap[2..]);
    }
}
