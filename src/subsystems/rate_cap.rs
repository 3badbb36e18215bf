//! The RateCap actor: a hard cap on Donna's replies per (channel, chat) in a sliding window, the
//! backstop that ends a reply loop in a group chat even if the reply gate keeps saying REPLY.
//!
//! Owns: the reply timestamps of every chat it has seen (loaded from the `reply_slot` table on
//! first use, so the window survives restarts).
//! Takes: `Reserve` (claim a slot before the gate's model call, or be told the cap is reached),
//! `Release` (give a slot back when the gate says SKIP).
//! Invariants: reserve and release are serialized by this actor's mailbox and each waits for
//! its row to be written before the next message is handled, so no burst of concurrent
//! messages can pass the cap; stale timestamps are pruned on every check.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use actors::{Behaviour, CellCtx, Handled, Reply};
use chrono::{DateTime, Utc};
use parking_lot::Mutex;

use crate::clock::SharedClock;
use crate::conversation::reply_slots;
use crate::store::Store;

/// A claimed slot: give it back with `Release` if no reply is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reservation {
    pub channel: String,
    pub chat_id: String,
    pub slot_id: i64,
}

/// Why a slot was not given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReserveError {
    #[error("reply cap reached for this chat")]
    CapReached,
    #[error("rate cap store error: {0}")]
    Store(String),
}

pub enum RateCapMsg {
    Reserve {
        channel: String,
        chat_id: String,
        reply: Reply<Result<Reservation, ReserveError>>,
    },
    Release {
        reservation: Reservation,
    },
}

/// Counters for /health and /metrics.
#[derive(Debug, Default)]
pub struct GateMetrics {
    pub replied: AtomicU64,
    pub skipped: AtomicU64,
    pub failed_open: AtomicU64,
    pub cap_hits: AtomicU64,
}

type ChatKey = (String, String);
type Slots = VecDeque<(i64, DateTime<Utc>)>;

pub struct RateCap {
    store: Store,
    clock: SharedClock,
    max: usize,
    window: Duration,
    /// Loaded chats: slot id and time of each reply in the window, oldest first. Shared with the
    /// handler's future, which runs while this actor takes no other message.
    chats: Arc<Mutex<HashMap<ChatKey, Slots>>>,
    metrics: Arc<GateMetrics>,
}

impl RateCap {
    pub fn new(
        store: Store,
        clock: SharedClock,
        max: usize,
        window: Duration,
        metrics: Arc<GateMetrics>,
    ) -> Self {
        Self {
            store,
            clock,
            max,
            window,
            chats: Arc::default(),
            metrics,
        }
    }
}

impl Behaviour for RateCap {
    type Msg = RateCapMsg;

    fn handle(&mut self, message: RateCapMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        let now = self.clock.now();
        let window = chrono::Duration::from_std(self.window).unwrap_or(chrono::Duration::MAX);
        let cutoff = now.checked_sub_signed(window).unwrap_or_default();
        match message {
            RateCapMsg::Reserve {
                channel,
                chat_id,
                reply,
            } => {
                let reservation = Reserve {
                    store: self.store.clone(),
                    chats: self.chats.clone(),
                    metrics: self.metrics.clone(),
                    max: self.max,
                    now,
                    cutoff,
                };
                Handled::wait(async move { reply.send(reservation.run(channel, chat_id).await) })
            }
            RateCapMsg::Release { reservation } => {
                let key = (reservation.channel.clone(), reservation.chat_id.clone());
                if let Some(slots) = self.chats.lock().get_mut(&key) {
                    slots.retain(|(id, _)| *id != reservation.slot_id);
                }
                let slot_id = reservation.slot_id;
                let deleted = self
                    .store
                    .write(move |conn| reply_slots::release(conn, slot_id));
                Handled::wait(async move {
                    if let Err(error) = deleted.await {
                        tracing::warn!(%error, "could not release a reply slot");
                    }
                })
            }
        }
    }
}

/// One reservation, run while the actor waits.
struct Reserve {
    store: Store,
    chats: Arc<Mutex<HashMap<ChatKey, Slots>>>,
    metrics: Arc<GateMetrics>,
    max: usize,
    now: DateTime<Utc>,
    cutoff: DateTime<Utc>,
}

impl Reserve {
    async fn run(self, channel: String, chat_id: String) -> Result<Reservation, ReserveError> {
        let key = (channel.clone(), chat_id.clone());
        let cutoff = self.cutoff;
        let loaded = self.chats.lock().get(&key).cloned();
        let mut slots = match loaded {
            Some(slots) => slots,
            None => {
                let (channel, chat_id) = (channel.clone(), chat_id.clone());
                self.store
                    .read(move |conn| reply_slots::live(conn, &channel, &chat_id, cutoff))
                    .await
                    .map_err(|e| ReserveError::Store(e.to_string()))?
                    .into_iter()
                    .collect()
            }
        };
        while slots.front().is_some_and(|(_, at)| *at <= cutoff) {
            slots.pop_front();
        }
        if slots.len() >= self.max {
            self.metrics.cap_hits.fetch_add(1, Ordering::Relaxed);
            self.chats.lock().insert(key, slots);
            return Err(ReserveError::CapReached);
        }
        let (channel_row, chat_row, now) = (channel.clone(), chat_id.clone(), self.now);
        let slot_id = self
            .store
            .write(move |conn| reply_slots::claim(conn, &channel_row, &chat_row, now, cutoff))
            .await
            .map_err(|e| ReserveError::Store(e.to_string()))?;
        slots.push_back((slot_id, now));
        self.chats.lock().insert(key, slots);
        Ok(Reservation {
            channel,
            chat_id,
            slot_id,
        })
    }
}
