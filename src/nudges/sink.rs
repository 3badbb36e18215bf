//! The `NudgeSink`: how the Nudger and the request door hand a nudge to a chat service that
//! opens its threads itself (Discord), without knowing that service.
//!
//! Implemented by the channel, above this layer. Takes: `open_nudge` (answered with the
//! `NudgeOpened` or a `NudgeFailure`) and `deliver_now`.
//! Invariant: a request is queued before `open_nudge` returns, so nudges asked for one after
//! another are opened in that order.

use std::future::Future;
use std::pin::Pin;

use super::{NudgeFailure, NudgeOpened};
use crate::conversation::ContextType;

/// A nudge on its way through a `NudgeSink`.
pub type PendingNudge = Pin<Box<dyn Future<Output = Result<NudgeOpened, NudgeFailure>> + Send>>;

/// A chat service that opens nudge threads itself (Discord starts a thread on the nudge and its
/// id becomes the thread's id).
pub trait NudgeSink: Send + Sync {
    /// Opens the nudge about `task_id` (in the task's open thread if it has one); `context`
    /// None picks `default_context`. The request is queued before this returns, so nudges
    /// asked for one after another are opened in that order.
    fn open_nudge(&self, task_id: String, context: Option<ContextType>) -> PendingNudge;

    /// Sends what this service's outbox holds now rather than on its next delivery round (a
    /// nudge recorded in one of its chats).
    fn deliver_now(&self);
}
