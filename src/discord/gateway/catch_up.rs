//! Catch-up after downtime: the messages Discord delivered while Donna was not connected.
//!
//! Owns: one catch-up run, started by the gateway actor on every `Ready` before it takes any
//! live message, so a thread's missed messages are queued ahead of its new ones.
//! Sends: each missed message into its channel's inbound queue (`route_inbound`), oldest first.
//! Invariants: only threads with a live plan or activity within `discord.catch_up_window` are
//! asked for; every fetch is bounded by `discord.http_timeout`; a message seen before is dropped
//! by the inbox, so catching up twice never answers twice.

use std::sync::Arc;
use std::time::Duration;

use actors::KeyedRouter;
use twilight_http::Client;
use twilight_model::id::Id;

use super::inbound::{route_inbound, ChannelWorker};
use crate::clock::SharedClock;
use crate::conversation::threads::{discord_threads_to_catch_up, DiscordThreadToCatchUp};
use crate::store::Store;

/// Catch-up after downtime: for each Discord thread with a live plan or activity within
/// `discord.catch_up_window`, the messages after the last one seen are fetched and fed through
/// the same path as live ones, oldest first. The inbox drops any it already has.
pub(super) struct CatchUp {
    pub(super) http: Arc<Client>,
    pub(super) store: Store,
    pub(super) clock: SharedClock,
    pub(super) window: Duration,
    pub(super) deadline: Duration,
    pub(super) channels: KeyedRouter<u64, ChannelWorker>,
}

impl CatchUp {
    pub(super) async fn run(self) {
        let window = chrono::Duration::from_std(self.window).unwrap_or(chrono::Duration::MAX);
        let cutoff = self
            .clock
            .now()
            .checked_sub_signed(window)
            .unwrap_or_default();
        let threads = self
            .store
            .read(move |conn| discord_threads_to_catch_up(conn, cutoff))
            .await;
        let threads = match threads {
            Ok(threads) => threads,
            Err(error) => {
                tracing::warn!(%error, "cannot list threads to catch up");
                return;
            }
        };
        let mut caught_up = 0usize;
        for DiscordThreadToCatchUp {
            thread_id: thread,
            newest_message_id,
        } in threads
        {
            // With no message seen yet, everything after the thread's own id (a Discord id, so
            // its creation time) was missed.
            let (Some(channel), Some(after)) = (
                thread.parse::<u64>().ok().and_then(Id::new_checked),
                newest_message_id
                    .or_else(|| thread.parse().ok())
                    .and_then(Id::new_checked),
            ) else {
                continue;
            };
            let fetched = tokio::time::timeout(self.deadline, async {
                self.http
                    .channel_messages(channel)
                    .after(after)
                    .limit(100)
                    .await
                    .map_err(|e| e.to_string())?
                    .models()
                    .await
                    .map_err(|e| e.to_string())
            })
            .await;
            let mut missed = match fetched {
                Ok(Ok(messages)) => messages,
                Ok(Err(error)) => {
                    tracing::warn!(%thread, %error, "cannot fetch missed messages");
                    continue;
                }
                Err(_) => {
                    tracing::warn!(%thread, "fetching missed messages timed out");
                    continue;
                }
            };
            missed.sort_by_key(|message| message.id.get());
            for message in missed {
                caught_up += 1;
                route_inbound(&self.channels, Box::new(message));
            }
        }
        if caught_up > 0 {
            tracing::info!(
                caught_up,
                "fed messages missed while offline through the inbox"
            );
        }
    }
}
