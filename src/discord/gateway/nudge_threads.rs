//! Opening a nudge in Discord: the nudge is posted in the nudge channel and a thread is
//! started on it.
//!
//! Owns: one opening, started by the gateway actor on `OpenNudge` (from `DiscordNudges`, the
//! Nudger's and the API's way in). Answers `NudgeOpened` or a `NudgeFailure`; sends `Deliver`
//! to the gateway when the nudge went into an open thread through the outbox.
//! Invariants:
//! - The Discord thread's id becomes the thread's id; the nudge is recorded (memory, outbox as
//!   already delivered, the task's counters) only once Discord has the thread.
//! - A task whose thread is open gets the nudge in that thread, through the outbox.
//! - The nudge carries Done / Snooze 1h / Tomorrow buttons naming its task and its id (chosen
//!   before the post); where they sit is recorded with the nudge, so they are disabled later.
//! - The REST calls are bounded by `discord.http_timeout` as a whole; a store failure is
//!   `NudgeFailure::Store`, never a Discord failure.

use std::sync::{Arc, OnceLock};

use actors::ChildRef;
use twilight_http::Client;
use twilight_model::id::Id;

use super::messages::DiscordMsg;
use super::post::post;
use super::settings::DiscordSettings;
use crate::clock::SharedClock;
use crate::conversation::nudge_messages::{self, NudgeMessage};
use crate::conversation::{threads, Channel, ContextType};
use crate::discord::nudge_buttons;
use crate::nudges::{self, NudgeFailure, NudgeOpened};
use crate::store::Store;

/// Opening a nudge in Discord: the nudge is posted in the nudge channel and a thread is
/// started on it; the Discord thread id becomes the thread id. A task whose thread is open
/// gets the nudge in that thread instead.
pub(super) struct NudgeOpening {
    pub(super) http: Arc<Client>,
    pub(super) store: Store,
    pub(super) clock: SharedClock,
    pub(super) settings: Arc<DiscordSettings>,
    pub(super) me: Arc<OnceLock<ChildRef<DiscordMsg>>>,
}

impl NudgeOpening {
    pub(super) async fn run(
        self,
        task_id: String,
        context: Option<ContextType>,
    ) -> Result<NudgeOpened, NudgeFailure> {
        let lookup = task_id.clone();
        let (task, open_thread) = self
            .store
            .read(move |conn| {
                Ok((
                    crate::tasks::repo::get(conn, &lookup)?,
                    threads::open_for_task(conn, &lookup)?,
                ))
            })
            .await?;
        let task = task.ok_or_else(|| NudgeFailure::NoTask(task_id.clone()))?;
        if !task.status.is_open() {
            return Err(NudgeFailure::Conflict(format!(
                "'{}' is {}; there is nothing to nudge about",
                task.title, task.status
            )));
        }
        let now = self.clock.now();
        let at = nudges::NudgeTime::new(now, self.settings.timezone);
        if open_thread.is_some() {
            let opened = self
                .store
                .write(move |conn| {
                    Ok(nudges::open(
                        conn,
                        &task_id,
                        context,
                        Channel::Discord,
                        String::new,
                        at,
                    ))
                })
                .await??;
            if let Some(me) = self.me.get() {
                let _ = me.tell(DiscordMsg::Deliver);
            }
            return Ok(opened);
        }
        let channel = self
            .settings
            .nudge_channel_id
            .and_then(Id::new_checked)
            .ok_or_else(|| NudgeFailure::Conflict("discord.nudge_channel_id is not set".into()))?;
        let context = context.unwrap_or_else(|| nudges::default_context(&task, now));
        let text = {
            let task = task.clone();
            self.store
                .read(move |conn| nudges::text_for(conn, &task, context, at))
                .await?
        };
        let deadline = self.settings.http_timeout;
        // The nudge's id is chosen now: its buttons name it before it is recorded.
        let nudge_id = nudges::new_nudge_id();
        let row = nudge_buttons::row(&task_id, &nudge_id, false);
        let posted = tokio::time::timeout(deadline, async {
            let starter = post(&self.http, channel, &text);
            let starter = match &row {
                Some(row) => starter.components(row),
                None => starter,
            };
            let message = starter
                .await
                .map_err(|e| e.to_string())?
                .model()
                .await
                .map_err(|e| e.to_string())?;
            let name: String = format!("Donna: {}", task.title).chars().take(100).collect();
            let thread = self
                .http
                .create_thread_from_message(channel, message.id, &name)
                .await
                .map_err(|e| e.to_string())?
                .model()
                .await
                .map_err(|e| e.to_string())?;
            Ok::<_, String>((thread.id.get().to_string(), message.id.get().to_string()))
        })
        .await
        .map_err(|_| NudgeFailure::Discord(format!("Discord did not answer within {deadline:?}")))?
        .map_err(NudgeFailure::Discord)?;
        let (thread_id, starter_id) = posted;
        let buttons = row.is_some().then(|| NudgeMessage {
            nudge_id: nudge_id.clone(),
            task_id: task_id.clone(),
            channel_id: channel.get().to_string(),
            message_id: starter_id,
        });
        self.store
            .write(move |conn| {
                let opened = nudges::open_on(
                    conn,
                    &task_id,
                    Some(context),
                    Channel::Discord,
                    || thread_id,
                    Some(&nudge_id),
                    at,
                );
                if let (Ok(_), Some(buttons)) = (&opened, &buttons) {
                    nudge_messages::record(conn, buttons)?;
                }
                Ok(opened)
            })
            .await?
            .map_err(NudgeFailure::from)
    }
}
