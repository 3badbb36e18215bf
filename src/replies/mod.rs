//! Reading replies without a model: the keyword config (`intents`, reply_intents.yaml), the
//! compiled vocabulary (`phrases`), the FastPath matcher (`matcher`) and whether its keyword is
//! meant (`meaning`: the moods of the clause it stands in), a report in the task's own verb
//! (`title_report`), the whole analysis of one
//! message that the turn decides from (`analysis`), agreement as a lead-in (`agreement`), the
//! rule files' evidence phrases (`evidence`), and whether a message asks for a kind of action
//! at all, in people's words (`grounding`). Every reader here takes the message's one reading
//! (`crate::sentence`), never its text.
//!
//! Invariant: pure; nothing here does I/O or knows about threads, tasks or the store.

pub mod agreement;
pub mod analysis;
pub mod evidence;
pub mod grounding;
pub mod intents;
pub mod matcher;
mod meaning;
mod phrases;
mod title_report;
