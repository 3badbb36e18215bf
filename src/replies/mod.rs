//! Reading replies without a model: the shared tokenizer (`words`), the keyword config
//! (`intents`, reply_intents.yaml), the compiled vocabulary (`phrases`), the FastPath matcher
//! (`matcher`), the whole analysis of one reply that the turn decides from (`analysis`), and
//! whether a reply holds the words that can justify a model-proposed action (`evidence`), and
//! whether a message asks for a kind of action at all, in people's words (`grounding`).
//!
//! Invariant: pure; nothing here does I/O or knows about threads, tasks or the store.

pub mod agreement;
pub mod analysis;
pub mod evidence;
pub mod grounding;
pub mod intents;
pub mod matcher;
mod phrases;
pub mod words;
