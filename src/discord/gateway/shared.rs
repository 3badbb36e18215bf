//! The gateway's state that outlives a restart of the actor: who Donna is in Discord, whether
//! the gateway closed for good, the counters /health and /metrics show, and the delivery lock.
//!
//! Invariant: only atomics and locks held for an instant; nothing here awaits while locked but
//! the delivery lock, which one delivery round holds at a time.

use std::sync::atomic::AtomicU64;

use parking_lot::Mutex;

/// State that outlives a restart of the actor: who Donna is, whether the gateway closed for
/// good, counters.
#[derive(Debug, Default)]
pub struct GatewayShared {
    pub bot_user_id: AtomicU64,
    /// Donna's application id, from READY (0 until then).
    pub application_id: AtomicU64,
    /// The slash commands were registered by this process.
    pub commands_registered: std::sync::atomic::AtomicBool,
    pub fatal: Mutex<Option<String>>,
    pub delivered: AtomicU64,
    pub send_failures: AtomicU64,
    pub ignored: AtomicU64,
    /// Live messages the gateway handed to this actor.
    pub received: AtomicU64,
    /// Inbound messages (live or caught up) whose handling is over: ignored, refused, failed,
    /// or their turn done. Nothing more comes of a settled message but the delivery of its
    /// reply from the outbox.
    pub inbound_settled: AtomicU64,
    /// Shard tasks alive (spawned and not yet returned or aborted); only a live one can
    /// connect or identify.
    pub shard_tasks_running: AtomicU64,
    /// A delivery round is already queued: finishing turns need not queue another.
    pub delivery_requested: std::sync::atomic::AtomicBool,
    /// Held by the delivery round in progress (one at a time keeps each thread's order).
    pub delivery_lock: tokio::sync::Mutex<()>,
}
