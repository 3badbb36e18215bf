//! Intake: where a message from any channel (local API, console, Discord) enters the pipeline.
//!
//! Owns: input validation, the durable inbox write, which threads have a message in flight,
//! and routing to the thread's Conversation.
//! Invariants:
//! - Invalid input is refused before anything is recorded.
//! - A message is in the inbox before its turn starts, or (the one-write path, `receipt`)
//!   before its turn waits for anything but the store: a message without an id of its own, to
//!   a thread with nothing in flight, has its row written by its turn (with its effects, or
//!   before its first model call). If its thread's queue is full the inbox row is removed
//!   again and the sender is told to retry (nothing recorded, nothing lost).
//! - The same message id again in the same thread (or Discord channel) returns the first
//!   result and applies nothing; in another thread it is another message.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use actors::{AskError, KeyedRouter};
use parking_lot::Mutex;
use tokio::sync::Semaphore;

use crate::clock::SharedClock;
use crate::conversation::inbox::{self, Accepted};
use crate::conversation::threads;
use crate::metrics::TurnMetrics;
use crate::store::Store;

use super::conversation::{Conversation, TurnMsg};
use super::error::TurnError;
pub use super::incoming::Incoming;
use super::intake_checks::{check_id, check_intent, check_text};
pub use super::intake_error::IntakeError;
use super::parking;
use super::receipt::LateReceipt;
use super::result::TurnResult;
use super::Inbound;

/// The result of a queued turn.
pub type PendingTurn =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<TurnResult, IntakeError>> + Send>>;

#[derive(Clone, Debug)]
pub struct Intake {
    store: Store,
    clock: SharedClock,
    router: KeyedRouter<String, Conversation>,
    /// Turn figures: parked messages, and the writes made for a message at intake.
    metrics: Arc<TurnMetrics>,
    /// Turns accepted and not yet answered, across all threads (the global bound).
    in_flight: Arc<Semaphore>,
    /// Messages accepted and not yet answered, per thread: a thread not in here is idle.
    busy: Arc<Mutex<HashMap<String, usize>>>,
}

/// A message in flight in its thread, until dropped (when its turn is answered or refused).
struct InFlight {
    busy: Arc<Mutex<HashMap<String, usize>>>,
    thread_id: String,
}

impl InFlight {
    /// Counts the message in; also says whether its thread was idle.
    fn enter(busy: &Arc<Mutex<HashMap<String, usize>>>, thread_id: &str) -> (Self, bool) {
        let mut threads = busy.lock();
        let count = threads.entry(thread_id.to_string()).or_insert(0);
        *count += 1;
        let idle = *count == 1;
        let guard = Self {
            busy: busy.clone(),
            thread_id: thread_id.to_string(),
        };
        (guard, idle)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut threads = self.busy.lock();
        if let Some(count) = threads.get_mut(&self.thread_id) {
            *count -= 1;
            if *count == 0 {
                threads.remove(&self.thread_id);
            }
        }
    }
}

impl Intake {
    pub fn new(
        store: Store,
        clock: SharedClock,
        router: KeyedRouter<String, Conversation>,
        metrics: Arc<TurnMetrics>,
        max_in_flight: usize,
    ) -> Self {
        Self {
            store,
            clock,
            router,
            metrics,
            in_flight: Arc::new(Semaphore::new(max_in_flight)),
            busy: Arc::default(),
        }
    }

    pub fn router(&self) -> &KeyedRouter<String, Conversation> {
        &self.router
    }

    /// Handles one message to the end of its turn.
    pub async fn submit(&self, incoming: Incoming) -> Result<TurnResult, IntakeError> {
        self.enqueue(incoming).await?.await
    }

    /// Validates, records and routes a message; returns once it is queued in its thread (so a
    /// channel that calls this in arrival order keeps that order), with the future of its result.
    pub async fn enqueue(&self, incoming: Incoming) -> Result<PendingTurn, IntakeError> {
        check_id("thread_id", &incoming.thread_id)?;
        check_id("user_id", &incoming.user_id)?;
        if let Some(message_id) = &incoming.message_id {
            check_id("message_id", message_id)?;
        }
        if let Some(task_id) = &incoming.about_task {
            check_id("about_task", task_id)?;
        }
        check_text(&incoming.text)?;
        if let Some(intent) = &incoming.intent {
            check_intent(intent, &incoming)?;
        }
        // The global bound: refuse before recording anything.
        let Ok(turn_slot) = self.in_flight.clone().try_acquire_owned() else {
            return Err(IntakeError::Busy);
        };
        let (in_thread, idle) = InFlight::enter(&self.busy, &incoming.thread_id);
        // No id of its own (nothing can repeat it) and nothing ahead of it in its thread.
        let one_write = idle
            && incoming.message_id.is_none()
            && incoming.answers_plan.is_none()
            && incoming.answers_nudge.is_none()
            && incoming.about_task.is_none()
            && incoming.intent.is_none();
        let inbound = Inbound {
            channel: incoming.channel,
            message_id: incoming
                .message_id
                .unwrap_or_else(|| crate::ids::new_id("msg")),
            thread_id: incoming.thread_id,
            user_id: incoming.user_id,
            text: incoming.text,
            answers_plan: incoming.answers_plan,
            answers_nudge: incoming.answers_nudge,
            about_task: incoming.about_task,
            intent: incoming.intent,
        };
        let now = self.clock.now();
        if one_write {
            let late = LateReceipt::new(self.store.clone(), inbound.clone(), now);
            let result = self.route_with(inbound, Some(Arc::new(late)), false);
            return Ok(Box::pin(async move {
                let _held = (turn_slot, in_thread);
                result.await
            }));
        }
        let row = inbound.clone();
        let accepted = self.store.write(move |conn| {
            if threads::get(conn, &row.thread_id)?.is_none() {
                return Ok(None);
            }
            inbox::accept(conn, &row, now).map(Some)
        });
        // Written for this message, apart from its turn (`donna_turn_store_writes_total`).
        self.metrics.store_writes.fetch_add(1, Ordering::Relaxed);
        let accepted = accepted.await?;
        let accepted = match accepted {
            None => return Err(IntakeError::NoThread(inbound.thread_id)),
            Some(Accepted::Done(json)) => {
                let stored = serde_json::from_str(&json).map_err(|error| IntakeError::Failed {
                    plain: "the stored answer to this message cannot be read".into(),
                    detail: error.to_string(),
                });
                return Ok(Box::pin(async move { stored }));
            }
            Some(Accepted::Parked) => return Err(IntakeError::Parked),
            Some(accepted) => accepted,
        };
        let result = self.route(inbound, matches!(accepted, Accepted::New { .. }));
        Ok(Box::pin(async move {
            // The slot (and the thread's in-flight count) is held until the turn is answered.
            let _held = (turn_slot, in_thread);
            result.await
        }))
    }

    /// Routes an inbound message already in the inbox (also used by recovery at startup). The
    /// message is queued before this returns, so calls keep their order per thread.
    pub fn route(
        &self,
        inbound: Inbound,
        remove_if_refused: bool,
    ) -> impl std::future::Future<Output = Result<TurnResult, IntakeError>> {
        self.route_with(inbound, None, remove_if_refused)
    }

    fn route_with(
        &self,
        inbound: Inbound,
        late: Option<Arc<LateReceipt>>,
        remove_if_refused: bool,
    ) -> impl std::future::Future<Output = Result<TurnResult, IntakeError>> {
        let (message, key) = (inbound.clone(), inbound.thread_id.clone());
        let answer = self.router.ask(key, |reply| TurnMsg {
            inbound,
            late,
            reply,
        });
        let store = self.store.clone();
        let (router, metrics) = (self.router.clone(), self.metrics.clone());
        async move {
            match answer.await {
                Ok(Ok(result)) => Ok(result),
                Ok(Err(TurnError::NoThread(id))) => Err(IntakeError::NoThread(id)),
                Ok(Err(TurnError::Parked)) => Err(IntakeError::Parked),
                Ok(Err(error)) => Err(IntakeError::turn_failed(&error)),
                Err(refused @ (AskError::Full { .. } | AskError::Closed { .. })) => {
                    if remove_if_refused {
                        // Not accepted after all: take it out of the inbox so nothing half-happens.
                        metrics.store_writes.fetch_add(1, Ordering::Relaxed);
                        store
                            .write(move |conn| inbox::withdraw(conn, &message))
                            .await?;
                    }
                    Err(match refused {
                        AskError::Full { .. } => IntakeError::Busy,
                        _ => IntakeError::ShuttingDown,
                    })
                }
                Err(AskError::NoReply { .. }) => {
                    parking::conversation_lost(&store, &metrics, &message, router.is_closed())
                        .await;
                    Err(IntakeError::conversation_lost())
                }
            }
        }
    }
}
