//! The one prefix of every model call as Donna renders it from the shipped files, for tests
//! that measure prompts against it (`llm::system_prompt`).

use donna::config::Persona;
use donna::llm::system_prompt::{Prefix, SystemFacts, SystemPrompt};

/// The shipped prefix in Donna's own voice, with no bigger model, for a model whose context
/// holds any prompt.
pub fn shipped_prefix() -> Prefix {
    let facts = SystemFacts::shipped(Persona::Donna, false).unwrap_or_else(|e| panic!("{e}"));
    SystemPrompt::new()
        .and_then(|prompt| prompt.prefix(&facts))
        .map(Prefix::unbounded)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// How many messages the prefix is: a call's own messages follow them.
pub fn prefix_len() -> usize {
    shipped_prefix().messages.len()
}
