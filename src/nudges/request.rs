//! The one door for a nudge asked for (`POST /api/nudges`, the console's `nudge`): a
//! `NudgeRequest` answered with the nudge opened, or why not (`NudgeFailure`).
//!
//! Where it goes: no channel named, a task captured in a chat is nudged in that chat (no thread
//! is opened; a Discord chat's nudge is sent at once rather than on the next delivery round);
//! otherwise, and for `local`, in its own local thread (reused while open); `discord` through
//! the `NudgeSink` (Discord starts the thread), refused while Discord is off.
//! Invariants: the nudge is recorded in one unit of work (`open`, or the sink's), and published
//! on the event bus only once committed; a closed or missing task changes nothing.

use std::sync::Arc;

use chrono_tz::Tz;

use super::{NudgeError, NudgeFailure, NudgeOpened, NudgeSink, NudgeTime};
use crate::clock::SharedClock;
use crate::conversation::{Channel, ContextType};
use crate::events::EventBus;
use crate::store::Store;

/// A nudge asked for: about which task, which nudge (None: `default_context`), on which
/// channel (None: where the task's nudges go).
#[derive(Debug, Clone)]
pub struct NudgeRequest {
    pub task_id: String,
    pub context: Option<ContextType>,
    pub channel: Option<Channel>,
}

/// What opening a nudge on request needs.
#[derive(Clone)]
pub struct NudgeDesk {
    pub store: Store,
    pub clock: SharedClock,
    /// The config's zone: a nudge's times for a task whose creator set none.
    pub zone: Tz,
    pub events: EventBus,
    /// Discord, while it is on.
    pub sink: Option<Arc<dyn NudgeSink>>,
}

/// A nudge opened on request, and the sequences of its two events (`nudge`, `message`).
#[derive(Debug, Clone)]
pub struct Requested {
    pub opened: NudgeOpened,
    pub events: [u64; 2],
}

impl NudgeDesk {
    /// Opens the nudge `request` asks for and publishes it once committed.
    pub async fn open(&self, request: NudgeRequest) -> Result<Requested, NudgeFailure> {
        let opened = self.opened(request).await?;
        let events = opened.publish(&self.events);
        Ok(Requested { opened, events })
    }

    async fn opened(&self, request: NudgeRequest) -> Result<NudgeOpened, NudgeFailure> {
        let NudgeRequest {
            task_id,
            context,
            channel,
        } = request;
        let at = NudgeTime::new(self.clock.now(), self.zone);
        let Some(channel) = channel else {
            let (id, discord_on) = (task_id.clone(), self.sink.is_some());
            let here = self
                .write(move |conn| super::open_in_origin(conn, &id, context, discord_on, at))
                .await?;
            return match here {
                Some(opened) => {
                    if let (Channel::Discord, Some(sink)) = (opened.channel, &self.sink) {
                        // Out now rather than on the gateway's next delivery round.
                        sink.deliver_now();
                    }
                    Ok(opened)
                }
                None => self.local(task_id, context, at).await,
            };
        };
        match channel {
            Channel::Local => self.local(task_id, context, at).await,
            Channel::Discord => match &self.sink {
                Some(sink) => sink.open_nudge(task_id, context).await,
                None => Err(NudgeFailure::Conflict(
                    "Discord is off (no token configured); open the nudge on the local channel"
                        .into(),
                )),
            },
        }
    }

    /// The nudge in the task's own local thread.
    async fn local(
        &self,
        task_id: String,
        context: Option<ContextType>,
        at: NudgeTime,
    ) -> Result<NudgeOpened, NudgeFailure> {
        self.write(move |conn| {
            let new_thread_id = || crate::ids::new_id("thr");
            super::open(conn, &task_id, context, Channel::Local, new_thread_id, at)
        })
        .await
    }

    /// `work` in one unit of work on the store writer.
    async fn write<T: Send + 'static>(
        &self,
        work: impl FnOnce(&rusqlite::Connection) -> Result<T, NudgeError> + Send + 'static,
    ) -> Result<T, NudgeFailure> {
        Ok(self
            .store
            .write(move |conn| super::open::as_unit(work(conn)))
            .await??)
    }
}
