//! Delivery rounds: Discord replies leave the outbox here.
//!
//! Owns: one delivery round (started by the gateway actor on `Deliver`: its timer, and after
//! turns), sending a reply as messages below Discord's 2,000 characters, and unarchiving a
//! thread that was archived meanwhile.
//! Reads the undelivered Discord entries of the outbox; writes back, per batch in one unit of
//! work, which were delivered and why the others were not.
//! Invariants:
//! - Replies of one thread go out in outbox order; a failure stops that thread until the next
//!   round (its later replies never overtake it). Different threads are sent concurrently.
//! - Each reply's send is bounded by `discord.http_timeout` as a whole (twilight's own timeout
//!   is per attempt); a reply that was not sent stays in the outbox and is counted.
//! - Rounds run one at a time (`GatewayShared::delivery_lock`, taken by the caller).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt as _;
use twilight_http::Client;
use twilight_model::id::marker::ChannelMarker;
use twilight_model::id::Id;

use super::post::post;
use super::shared::GatewayShared;
use crate::clock::SharedClock;
use crate::conversation::outbox;
use crate::discord::split::{split, MAX_CHARS};
use crate::store::Store;

/// Discord's "thread is archived" error code.
const THREAD_ARCHIVED: u64 = 50083;

/// What delivering one thread's replies did: the outbox ids delivered, and the first failure.
type ThreadOutcome = (Vec<i64>, Option<(i64, String)>);

/// Threads delivered to at once in a round (each thread's replies stay in order).
const DELIVERY_FAN_OUT: usize = 16;
/// Outbox entries read per batch.
const DELIVERY_BATCH: usize = 256;

/// One delivery round: undelivered Discord replies, oldest first. Replies of one thread go out
/// one after another (a failure stops that thread's queue until the next round); different
/// threads are delivered concurrently. Outcomes are written back in one unit of work per batch.
pub(super) struct Delivery {
    pub(super) http: Arc<Client>,
    pub(super) store: Store,
    pub(super) clock: SharedClock,
    pub(super) shared: Arc<GatewayShared>,
    pub(super) deadline: Duration,
}

impl Delivery {
    pub(super) async fn run(self) {
        self.shared
            .delivery_requested
            .store(false, Ordering::Release);
        loop {
            let pending = match self
                .store
                .read(|conn| outbox::undelivered(conn, "discord", DELIVERY_BATCH))
                .await
            {
                Ok(pending) => pending,
                Err(error) => {
                    tracing::warn!(%error, "cannot read the outbox");
                    return;
                }
            };
            if pending.is_empty() {
                return;
            }
            let full_batch = pending.len() == DELIVERY_BATCH;
            // Per thread, in outbox order.
            let mut by_thread: Vec<(String, Vec<outbox::OutboxEntry>)> = Vec::new();
            for entry in pending {
                match by_thread
                    .iter_mut()
                    .find(|(thread, _)| *thread == entry.thread_id)
                {
                    Some((_, entries)) => entries.push(entry),
                    None => by_thread.push((entry.thread_id.clone(), vec![entry])),
                }
            }
            let outcomes: Vec<ThreadOutcome> = futures_util::stream::iter(by_thread)
                .map(|(thread, entries)| self.deliver_thread(thread, entries))
                .buffer_unordered(DELIVERY_FAN_OUT)
                .collect()
                .await;
            let delivered: Vec<i64> = outcomes.iter().flat_map(|(ids, _)| ids.clone()).collect();
            let failed: Vec<(i64, String)> = outcomes
                .into_iter()
                .filter_map(|(_, failure)| failure)
                .collect();
            self.shared
                .delivered
                .fetch_add(delivered.len() as u64, Ordering::Relaxed);
            self.shared
                .send_failures
                .fetch_add(failed.len() as u64, Ordering::Relaxed);
            let now = self.clock.now();
            let any_failed = !failed.is_empty();
            let recorded = self
                .store
                .write(move |conn| {
                    for id in &delivered {
                        outbox::mark_delivered(conn, *id, now)?;
                    }
                    for (id, reason) in &failed {
                        outbox::record_failure(conn, *id, reason)?;
                    }
                    Ok(())
                })
                .await;
            if let Err(error) = recorded {
                tracing::warn!(%error, "could not record delivery outcomes; they will be retried");
                return;
            }
            if any_failed || !full_batch {
                return;
            }
        }
    }

    /// Sends one thread's replies in order; stops at the first failure.
    async fn deliver_thread(
        &self,
        thread: String,
        entries: Vec<outbox::OutboxEntry>,
    ) -> ThreadOutcome {
        let mut delivered = Vec::new();
        let Some(channel) = thread.parse::<u64>().ok().and_then(Id::new_checked) else {
            let first = entries.first().map_or(0, |e| e.id);
            return (delivered, Some((first, "not a Discord channel id".into())));
        };
        for entry in entries {
            let sent =
                tokio::time::timeout(self.deadline, send_all(&self.http, channel, &entry.text))
                    .await;
            match sent {
                Ok(Ok(())) => delivered.push(entry.id),
                Ok(Err(error)) => {
                    let reason = error.to_string();
                    tracing::warn!(%thread, %reason, attempts = entry.attempts + 1, "reply not delivered; it stays in the outbox");
                    return (delivered, Some((entry.id, reason)));
                }
                Err(_) => {
                    let reason = format!("not delivered within {:?}", self.deadline);
                    tracing::warn!(%thread, %reason, attempts = entry.attempts + 1, "reply not delivered; it stays in the outbox");
                    return (delivered, Some((entry.id, reason)));
                }
            }
        }
        (delivered, None)
    }
}

/// Why a reply could not be sent (kept in the outbox with this reason, and retried).
#[derive(Debug, thiserror::Error)]
pub(super) enum SendError {
    #[error("cannot unarchive the thread: {0}")]
    Unarchive(twilight_http::Error),
    #[error("{0}")]
    Discord(twilight_http::Error),
}

/// Sends a reply as one or more messages, in order; an archived thread is unarchived once.
pub(super) async fn send_all(
    http: &Client,
    channel: Id<ChannelMarker>,
    text: &str,
) -> Result<(), SendError> {
    for part in split(text, MAX_CHARS) {
        match post(http, channel, &part).await {
            Ok(_) => {}
            Err(error) if is_archived(&error) => {
                http.update_thread(channel)
                    .archived(false)
                    .await
                    .map_err(SendError::Unarchive)?;
                post(http, channel, &part)
                    .await
                    .map_err(SendError::Discord)?;
            }
            Err(error) => return Err(SendError::Discord(error)),
        }
    }
    Ok(())
}

/// Whether Discord refused a message because its thread is archived.
fn is_archived(error: &twilight_http::Error) -> bool {
    match error.kind() {
        twilight_http::error::ErrorType::Response { error, .. } => {
            matches!(error, twilight_http::api_error::ApiError::General(general) if general.code == THREAD_ARCHIVED)
        }
        _ => false,
    }
}
