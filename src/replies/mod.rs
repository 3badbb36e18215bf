//! Reading replies without a model: the shared tokenizer (`words`), the keyword config
//! (`intents`, reply_intents.yaml), the compiled vocabulary (`phrases`), the FastPath matcher
//! (`matcher`) and the whole analysis of one reply that the turn decides from (`analysis`).
//!
//! Invariant: pure; nothing here does I/O or knows about threads, tasks or the store.

pub mod analysis;
pub mod intents;
pub mod matcher;
mod phrases;
pub mod words;
