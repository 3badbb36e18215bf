//! Reading replies: the keyword config (reply_intents.yaml) and the FastPath matcher.

pub mod intents;
pub mod matcher;
