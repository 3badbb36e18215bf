//! Delivery rounds: Discord replies leave the outbox here.
//!
//! Owns: one delivery round (started by the gateway actor on `Deliver`: its timer, and after
//! turns), sending a reply as messages below Discord's 2,000 characters, and unarchiving a
//! thread that was archived meanwhile; a proposal (an entry with a plan) goes out with "Yes" /
//! "No" buttons bound to its plan, a nudge with "Done" / "Snooze 1h" / "Tomorrow" bound to its
//! task and its id. After the replies, the round disables the buttons of proposals no longer
//! live (`proposals`) and of nudges that can no longer be answered (`stale_nudges`).
//! Reads the undelivered Discord entries of the outbox; writes back, per batch in one unit of
//! work, which were delivered, why the others were not, and where proposals' and nudges'
//! buttons sit.
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
use crate::conversation::nudge_messages::{self, NudgeMessage};
use crate::conversation::outbox;
use crate::conversation::proposal_messages::{self, ProposalMessage};
use crate::discord::split::{split, MAX_CHARS};
use crate::discord::{buttons, nudge_buttons};
use crate::store::Store;

/// Discord's "thread is archived" error code.
const THREAD_ARCHIVED: u64 = 50083;

/// What delivering one thread's replies did.
#[derive(Default)]
struct ThreadOutcome {
    /// The outbox ids delivered.
    delivered: Vec<i64>,
    /// The first failure (the thread's later replies wait behind it).
    failed: Option<(i64, String)>,
    /// Proposals delivered with buttons.
    proposals: Vec<ProposalMessage>,
    /// Nudges delivered with buttons.
    nudges: Vec<NudgeMessage>,
}

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
        super::stale_nudges::disable_stale(&self.http, &self.store, self.deadline).await;
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
            let mut delivered: Vec<i64> = Vec::new();
            let mut proposals: Vec<ProposalMessage> = Vec::new();
            let mut nudges: Vec<NudgeMessage> = Vec::new();
            let mut failed: Vec<(i64, String)> = Vec::new();
            for outcome in outcomes {
                delivered.extend(outcome.delivered);
                proposals.extend(outcome.proposals);
                nudges.extend(outcome.nudges);
                failed.extend(outcome.failed);
            }
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
                    for nudge in &nudges {
                        nudge_messages::record(conn, nudge)?;
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
        let mut outcome = ThreadOutcome::default();
        let Some(channel) = thread.parse::<u64>().ok().and_then(Id::new_checked) else {
            let first = entries.first().map_or(0, |e| e.id);
            outcome.failed = Some((first, "not a Discord channel id".into()));
            return outcome;
        };
        for entry in entries {
            // A proposal carries "Yes" / "No" buttons bound to exactly its plan; a nudge
            // "Done" / "Snooze 1h" / "Tomorrow" bound to its task and its id.
            let row = match (&entry.plan_id, &entry.nudge) {
                (Some(plan), _) => Some(buttons::row(plan, false)),
                (None, Some(nudge)) => nudge_buttons::row(&nudge.task_id, &nudge.nudge_id, false),
                (None, None) => None,
            };
            let sent = tokio::time::timeout(
                self.deadline,
                send_all(&self.http, channel, &entry.text, row.as_deref()),
            )
            .await;
            match sent {
                Ok(Ok(last)) => {
                    outcome.delivered.push(entry.id);
                    let Some(message) = last else { continue };
                    if let Some(plan_id) = entry.plan_id {
                        outcome.proposals.push(ProposalMessage {
                            plan_id,
                            channel_id: thread.clone(),
                            message_id: message.to_string(),
                        });
                    } else if let Some(nudge) = entry.nudge {
                        outcome.nudges.push(NudgeMessage {
                            nudge_id: nudge.nudge_id,
                            task_id: nudge.task_id,
                            channel_id: thread.clone(),
                            message_id: message.to_string(),
                        });
                    }
                }
                Ok(Err(error)) => {
                    let reason = error.to_string();
                    tracing::warn!(%thread, %reason, attempts = entry.attempts + 1, "reply not delivered; it stays in the outbox");
                    outcome.failed = Some((entry.id, reason));
                    return outcome;
                }
                Err(_) => {
                    let reason = format!("not delivered within {:?}", self.deadline);
                    tracing::warn!(%thread, %reason, attempts = entry.attempts + 1, "reply not delivered; it stays in the outbox");
                    outcome.failed = Some((entry.id, reason));
                    return outcome;
                }
            }
        }
        outcome
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
