//! Delivery rounds: Discord replies leave the outbox here.
//!
//! Owns: one delivery round (started by the gateway actor on `Deliver`: its timer, and after
//! turns), sending a reply as messages below Discord's 2,000 characters, and unarchiving a
//! thread that was archived meanwhile; a proposal (an entry with a plan) goes out with "Yes" /
//! "No" buttons bound to its plan. After the replies, the round disables the buttons of
//! proposals no longer live (`proposals`).
//! Reads the undelivered Discord entries of the outbox; writes back, per batch in one unit of
//! work, which were delivered, why the others were not, and where proposals' buttons sit.
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
use twilight_model::channel::message::Component;
use twilight_model::id::marker::{ChannelMarker, MessageMarker};
use twilight_model::id::Id;

use super::post::post;
use super::shared::GatewayShared;
use crate::clock::SharedClock;
use crate::conversation::outbox;
use crate::conversation::proposal_messages::{self, ProposalMessage};
use crate::discord::buttons;
use crate::discord::split::{split, MAX_CHARS};
use crate::store::Store;

/// Discord's "thread is archived" error code.
const THREAD_ARCHIVED: u64 = 50083;

/// What delivering one thread's replies did: the outbox ids delivered, the first failure, and
/// the proposals delivered with buttons.
type ThreadOutcome = (Vec<i64>, Option<(i64, String)>, Vec<ProposalMessage>);

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
    /// Delivers what waits in the outbox, then disables the buttons of proposals that are no
    /// longer live (after the replies, so a confirmation's answer is not held up by edits).
    pub(super) async fn run(self) {
        self.deliver().await;
        super::proposals::disable_answered(&self.http, &self.store, &self.clock, self.deadline)
            .await;
    }

    async fn deliver(&self) {
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
            let delivered: Vec<i64> = outcomes
                .iter()
                .flat_map(|(ids, _, _)| ids.clone())
                .collect();
            let proposals: Vec<ProposalMessage> = outcomes
                .iter()
                .flat_map(|(_, _, proposals)| proposals.clone())
                .collect();
            let failed: Vec<(i64, String)> = outcomes
                .into_iter()
                .filter_map(|(_, failure, _)| failure)
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
                    for proposal in &proposals {
                        proposal_messages::record(conn, proposal)?;
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
        let mut proposals = Vec::new();
        let Some(channel) = thread.parse::<u64>().ok().and_then(Id::new_checked) else {
            let first = entries.first().map_or(0, |e| e.id);
            return (
                delivered,
                Some((first, "not a Discord channel id".into())),
                proposals,
            );
        };
        for entry in entries {
            // A proposal carries "Yes" / "No" buttons bound to exactly its plan.
            let row = entry
                .plan_id
                .as_deref()
                .map(|plan| buttons::row(plan, false));
            let sent = tokio::time::timeout(
                self.deadline,
                send_all(&self.http, channel, &entry.text, row.as_deref()),
            )
            .await;
            match sent {
                Ok(Ok(last)) => {
                    delivered.push(entry.id);
                    if let (Some(plan_id), Some(message)) = (entry.plan_id, last) {
                        proposals.push(ProposalMessage {
                            plan_id,
                            channel_id: thread.clone(),
                            message_id: message.to_string(),
                        });
                    }
                }
                Ok(Err(error)) => {
                    let reason = error.to_string();
                    tracing::warn!(%thread, %reason, attempts = entry.attempts + 1, "reply not delivered; it stays in the outbox");
                    return (delivered, Some((entry.id, reason)), proposals);
                }
                Err(_) => {
                    let reason = format!("not delivered within {:?}", self.deadline);
                    tracing::warn!(%thread, %reason, attempts = entry.attempts + 1, "reply not delivered; it stays in the outbox");
                    return (delivered, Some((entry.id, reason)), proposals);
                }
            }
        }
        (delivered, None, proposals)
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
/// With `components` (a proposal's buttons) they go under the last part, whose message id is
/// returned (so the buttons can be disabled later).
pub(super) async fn send_all(
    http: &Client,
    channel: Id<ChannelMarker>,
    text: &str,
    components: Option<&[Component]>,
) -> Result<Option<Id<MessageMarker>>, SendError> {
    let parts = split(text, MAX_CHARS);
    let count = parts.len();
    let mut last = None;
    for (index, part) in parts.into_iter().enumerate() {
        let components = components.filter(|_| index + 1 == count);
        let send = || {
            let message = post(http, channel, &part);
            match components {
                Some(components) => message.components(components),
                None => message,
            }
        };
        let response = match send().await {
            Ok(response) => response,
            Err(error) if is_archived(&error) => {
                http.update_thread(channel)
                    .archived(false)
                    .await
                    .map_err(SendError::Unarchive)?;
                send().await.map_err(SendError::Discord)?
            }
            Err(error) => return Err(SendError::Discord(error)),
        };
        if components.is_some() {
            // Sent either way: an unreadable answer only leaves the buttons enabled.
            match response.model().await {
                Ok(message) => last = Some(message.id),
                Err(error) => {
                    tracing::warn!(%error, "a proposal was sent but its message id is unreadable; its buttons stay enabled");
                }
            }
        }
    }
    Ok(last)
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
