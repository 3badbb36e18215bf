//! Opening a nudge in Discord: the nudge is posted in the nudge channel and a thread is
//! started on it.
//!
//! Owns: one opening, started by the gateway actor on `OpenNudge` (from `DiscordNudges`, the
//! Nudger's and the API's way in). Answers `NudgeOpened` or a `NudgeFailure`; sends `Deliver`
//! to the gateway when the nudge went into an open thread through the outbox.
//! What to open (the task's open thread, or a new one on this message) is `nudges::opening`'s;
//! the recording is `nudges::open_on`'s.
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
use twilight_model::channel::message::Component;
use twilight_model::id::marker::ChannelMarker;
use twilight_model::id::Id;

use super::messages::DiscordMsg;
use super::post::post;
use super::settings::DiscordSettings;
use crate::clock::SharedClock;
use crate::conversation::nudge_messages::{self, NudgeMessage};
use crate::conversation::Channel::Discord;
use crate::conversation::ContextType;
use crate::discord::nudge_buttons;
use crate::nudges::{self, NudgeFailure, NudgeOpened, Opening};
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
        let at = nudges::NudgeTime::new(self.clock.now(), self.settings.timezone);
        let lookup = task_id.clone();
        let opening = self
            .store
            .read(move |conn| Ok(nudges::opening(conn, &lookup, context, at)))
            .await??;
        let Opening::Start {
            title,
            context,
            text,
            nudge_id,
        } = opening
        else {
            let opened = self
                .store
                .write(move |conn| {
                    let open = nudges::open(conn, &task_id, context, Discord, String::new, at);
                    nudges::as_unit(open)
                })
                .await??;
            if let Some(me) = self.me.get() {
                let _ = me.tell(DiscordMsg::Deliver);
            }
            return Ok(opened);
        };
        let channel = self
            .settings
            .nudge_channel_id
            .and_then(Id::new_checked)
            .ok_or_else(|| NudgeFailure::Conflict("discord.nudge_channel_id is not set".into()))?;
        let row = nudge_buttons::row(&task_id, &nudge_id, false);
        let (thread_id, starter_id) = self.start_thread(channel, &title, &text, &row).await?;
        let buttons = row.is_some().then(|| NudgeMessage {
            nudge_id: nudge_id.clone(),
            task_id: task_id.clone(),
            channel_id: channel.get().to_string(),
            message_id: starter_id,
        });
        self.store
            .write(move |conn| {
                let posted = Some(nudge_id.as_str());
                let new_thread_id = || thread_id;
                let opened = nudges::open_on(
                    conn,
                    &task_id,
                    Some(context),
                    Discord,
                    new_thread_id,
                    posted,
                    at,
                );
                if let (Ok(_), Some(buttons)) = (&opened, &buttons) {
                    nudge_messages::record(conn, buttons)?;
                }
                nudges::as_unit(opened)
            })
            .await?
            .map_err(NudgeFailure::from)
    }

    /// Posts the nudge `text` (with its buttons) in the nudge channel and starts a thread named
    /// after the task on it, within `discord.http_timeout`: the thread's and the message's ids.
    async fn start_thread(
        &self,
        channel: Id<ChannelMarker>,
        title: &str,
        text: &str,
        row: &Option<Vec<Component>>,
    ) -> Result<(String, String), NudgeFailure> {
        let deadline = self.settings.http_timeout;
        tokio::time::timeout(deadline, async {
            let starter = post(&self.http, channel, text);
            let starter = match row {
                Some(row) => starter.components(row),
                None => starter,
            };
            let message = starter
                .await
                .map_err(|e| e.to_string())?
                .model()
                .await
                .map_err(|e| e.to_string())?;
            let name: String = format!("Donna: {title}").chars().take(100).collect();
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
        .map_err(NudgeFailure::Discord)
    }
}
