//! Keyed routing: one worker per key (a conversation thread), created on demand, passivated when
//! idle, each with a bounded queue of its own.
//!
//! Owns: the directory key -> slot (the slot is the key's queue; a worker is the actix actor
//! currently draining it).
//! Takes: `route(key, message)` / `ask(key, ..)` from any thread.
//! Invariants:
//! - Per key, messages are handled one at a time in the order `route` accepted them; different
//!   keys run concurrently, so a key awaiting a slow call delays no other key.
//! - At most one worker drains a slot, and a key maps to at most one slot. Routing and
//!   passivation both hold the directory lock, and a worker passivates only when its queue is
//!   empty under that lock, so a message racing a passivation either lands before it (and the
//!   worker stays) or after it (in a fresh slot with a fresh worker); none is lost or reordered.
//! - A full queue refuses the message back to the sender (`PushError::Full`), never drops it.
//! - A panic in a worker's handler fails only the message in flight; the worker is rebuilt from
//!   the factory in place and goes on with the same queue.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use actix::Actor;
use actix_rt::ArbiterHandle;
use futures_util::future::LocalBoxFuture;
use futures_util::FutureExt;
use parking_lot::Mutex;

use crate::behaviour::Behaviour;
use crate::cell::{AfterPanic, Cell, Exit, Host};
use crate::fault::FaultSwitch;
use crate::health::{ActorHealth, HealthRegistry, KeyedGauges};
use crate::mailbox::{Mailbox, PushError};
use crate::reply::{AskError, Reply};

/// Sizing of a keyed router.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyedConfig {
    /// Messages a key may have queued (not counting the one in flight).
    pub capacity_per_key: usize,
    /// A worker idle this long is passivated.
    pub idle: Duration,
}

impl Default for KeyedConfig {
    fn default() -> Self {
        Self {
            capacity_per_key: 64,
            idle: Duration::from_secs(300),
        }
    }
}

/// Anything usable as a routing key.
pub trait RouteKey: Hash + Eq + Clone + Send + Sync + std::fmt::Display + 'static {}
impl<T: Hash + Eq + Clone + Send + Sync + std::fmt::Display + 'static> RouteKey for T {}

type KeyedFactory<K, B> = Arc<dyn Fn(&K) -> B + Send + Sync>;

struct Slot<M> {
    mailbox: Arc<Mailbox<M>>,
}

struct KeyedInner<K: RouteKey, B: Behaviour> {
    name: String,
    directory: Mutex<HashMap<K, Arc<Slot<B::Msg>>>>,
    factory: KeyedFactory<K, B>,
    config: KeyedConfig,
    arbiters: Vec<ArbiterHandle>,
    next_arbiter: AtomicUsize,
    gauges: Arc<KeyedGauges>,
    health: Arc<ActorHealth>,
    registry: Arc<HealthRegistry>,
    fault: FaultSwitch,
    closed: AtomicBool,
}

/// Routes messages to per-key workers. Cheap to clone.
pub struct KeyedRouter<K: RouteKey, B: Behaviour> {
    inner: Arc<KeyedInner<K, B>>,
}

impl<K: RouteKey, B: Behaviour> Clone for KeyedRouter<K, B> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
        }
    }
}

impl<K: RouteKey, B: Behaviour> std::fmt::Debug for KeyedRouter<K, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyedRouter")
            .field("name", &self.inner.name)
            .field("live", &self.live())
            .finish()
    }
}

impl<K: RouteKey, B: Behaviour> KeyedRouter<K, B> {
    /// Creates a router whose workers run on `arbiters` (round robin; at least one, else the
    /// current arbiter). `name` is its record in the health registry.
    pub fn new(
        name: &str,
        registry: Arc<HealthRegistry>,
        config: KeyedConfig,
        arbiters: Vec<ArbiterHandle>,
        factory: impl Fn(&K) -> B + Send + Sync + 'static,
    ) -> Self {
        let arbiters = if arbiters.is_empty() {
            vec![actix_rt::Arbiter::current()]
        } else {
            arbiters
        };
        let health = registry.register(name, true);
        let gauges = registry.register_keyed();
        let inner = Arc::new(KeyedInner {
            name: name.to_string(),
            directory: Mutex::new(HashMap::new()),
            factory: Arc::new(factory),
            config,
            arbiters,
            next_arbiter: AtomicUsize::new(0),
            gauges,
            health,
            registry,
            fault: FaultSwitch::default(),
            closed: AtomicBool::new(false),
        });
        let weak = Arc::downgrade(&inner);
        inner.health.set_queue_depth_source(move || {
            weak.upgrade().map_or(0, |inner| {
                inner
                    .directory
                    .lock()
                    .values()
                    .map(|slot| slot.mailbox.len())
                    .sum()
            })
        });
        Self { inner }
    }

    /// Queues `message` for `key`, starting the key's worker if it has none.
    pub fn route(&self, key: K, message: B::Msg) -> Result<(), PushError<B::Msg>> {
        if self.inner.closed.load(Ordering::Acquire) {
            return Err(PushError::Closed { message });
        }
        let mut directory = self.inner.directory.lock();
        let slot = match directory.get(&key) {
            Some(slot) => slot.clone(),
            None => {
                let slot = Arc::new(Slot {
                    mailbox: Arc::new(Mailbox::new(self.inner.config.capacity_per_key)),
                });
                directory.insert(key.clone(), slot.clone());
                self.inner.gauges.live.fetch_add(1, Ordering::Relaxed);
                self.inner.gauges.spawned.fetch_add(1, Ordering::Relaxed);
                spawn_worker(&self.inner, key, slot.clone());
                slot
            }
        };
        let pushed = slot.mailbox.push(message);
        drop(directory);
        if matches!(pushed, Err(PushError::Full { .. })) {
            self.inner.gauges.overflows.fetch_add(1, Ordering::Relaxed);
        }
        pushed
    }

    /// Routes a message carrying a reply port (queued now, not when the future is first
    /// polled) and returns the answer's future.
    pub fn ask<T>(
        &self,
        key: K,
        make: impl FnOnce(Reply<T>) -> B::Msg,
    ) -> impl std::future::Future<Output = Result<T, AskError>> {
        let (reply, answer) = Reply::channel();
        let actor = self.inner.name.clone();
        let queued = self.route(key, make(reply));
        async move {
            match queued {
                Err(PushError::Full { .. }) => Err(AskError::Full { actor }),
                Err(PushError::Closed { .. }) => Err(AskError::Closed { actor }),
                Ok(()) => answer.await.map_err(|_| AskError::NoReply { actor }),
            }
        }
    }

    /// Keys with a live worker.
    pub fn live(&self) -> usize {
        self.inner.directory.lock().len()
    }

    /// Messages queued across all keys plus those in flight.
    pub fn pending(&self) -> usize {
        self.inner.health.queue_depth() + self.inner.health.busy()
    }

    /// Refuses new messages (shutdown); queued ones are still handled.
    pub fn close(&self) {
        self.inner.closed.store(true, Ordering::Release);
    }

    /// Whether `close` was called.
    pub fn is_closed(&self) -> bool {
        self.inner.closed.load(Ordering::Acquire)
    }

    pub fn health(&self) -> &Arc<ActorHealth> {
        &self.inner.health
    }

    pub fn gauges(&self) -> &Arc<KeyedGauges> {
        &self.inner.gauges
    }

    /// Test hook: the `nth` message handled from now (on any key) panics.
    #[cfg(feature = "fault-injection")]
    pub fn inject_panic_on_nth(&self, nth: u32) {
        self.inner.fault.panic_on_nth(nth);
    }
}

/// Starts a worker for `slot` on the next arbiter. Called with the directory lock held.
fn spawn_worker<K: RouteKey, B: Behaviour>(
    inner: &Arc<KeyedInner<K, B>>,
    key: K,
    slot: Arc<Slot<B::Msg>>,
) {
    let index = inner.next_arbiter.fetch_add(1, Ordering::Relaxed) % inner.arbiters.len();
    let host = Arc::new(WorkerHost {
        key,
        slot,
        router: inner.clone(),
        passivated: AtomicBool::new(false),
    });
    let spawned = inner.arbiters[index].spawn_fn(move || {
        let factory = host.router.factory.clone();
        let key = host.key.clone();
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| factory(&key))) {
            Ok(behaviour) => {
                Cell::new(behaviour, host).start();
            }
            Err(payload) => {
                let message = crate::panic::panic_message(&*payload);
                host.router
                    .health
                    .record_failure(format!("worker {key}: start panicked: {message}"));
                host.abandon();
            }
        }
    });
    if !spawned {
        tracing::error!(router = %inner.name, "worker arbiter stopped; messages for this key are dead letters");
    }
}

struct WorkerHost<K: RouteKey, B: Behaviour> {
    key: K,
    slot: Arc<Slot<B::Msg>>,
    router: Arc<KeyedInner<K, B>>,
    passivated: AtomicBool,
}

impl<K: RouteKey, B: Behaviour> WorkerHost<K, B> {
    /// Removes the slot if its queue is empty, atomically with respect to `route`.
    fn try_passivate(&self) -> bool {
        let mut directory = self.router.directory.lock();
        let ours = directory
            .get(&self.key)
            .is_some_and(|slot| Arc::ptr_eq(slot, &self.slot));
        if !ours {
            return true;
        }
        let emptied = self.slot.mailbox.with_locked(|queue, closed| {
            if queue.is_empty() {
                *closed = true;
                true
            } else {
                false
            }
        });
        if emptied {
            directory.remove(&self.key);
            self.passivated.store(true, Ordering::Release);
            self.router.gauges.live.fetch_sub(1, Ordering::Relaxed);
            self.router
                .gauges
                .passivated
                .fetch_add(1, Ordering::Relaxed);
        }
        emptied
    }

    /// The worker cannot be rebuilt: drop the slot and count what was queued as dead letters.
    fn abandon(&self) {
        let mut directory = self.router.directory.lock();
        if directory
            .get(&self.key)
            .is_some_and(|slot| Arc::ptr_eq(slot, &self.slot))
        {
            directory.remove(&self.key);
            self.router.gauges.live.fetch_sub(1, Ordering::Relaxed);
        }
        drop(directory);
        let left = self.slot.mailbox.close();
        self.router
            .registry
            .add_dead_letters(u64::try_from(left.len()).unwrap_or(u64::MAX));
    }
}

impl<K: RouteKey, B: Behaviour> Host<B> for WorkerHost<K, B> {
    fn name(&self) -> &str {
        &self.router.name
    }

    fn mailbox(&self) -> &Arc<Mailbox<B::Msg>> {
        &self.slot.mailbox
    }

    fn health(&self) -> &Arc<ActorHealth> {
        &self.router.health
    }

    fn fault(&self) -> &FaultSwitch {
        &self.router.fault
    }

    fn next(self: Arc<Self>) -> LocalBoxFuture<'static, Option<B::Msg>> {
        async move {
            loop {
                let idle = self.router.config.idle;
                match actix_rt::time::timeout(idle, self.slot.mailbox.recv()).await {
                    Ok(message) => return message,
                    Err(_) if self.try_passivate() => return None,
                    Err(_) => continue,
                }
            }
        }
        .boxed_local()
    }

    fn after_panic(&self, _message: &str) -> AfterPanic<B> {
        self.router.gauges.restarts.fetch_add(1, Ordering::Relaxed);
        self.router.health.record_restart();
        let factory = self.router.factory.clone();
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| factory(&self.key))) {
            Ok(fresh) => AfterPanic::ContinueWith(fresh),
            Err(_) => AfterPanic::Stop,
        }
    }

    fn exited(self: Arc<Self>, exit: Exit) {
        if self.passivated.load(Ordering::Acquire) || exit == Exit::Normal {
            return;
        }
        // The worker died without passivating (its rebuild failed, or a panic escaped the cell):
        // give the slot a new worker so its queue is not stranded, unless the router is closing.
        let directory = self.router.directory.lock();
        let ours = directory
            .get(&self.key)
            .is_some_and(|slot| Arc::ptr_eq(slot, &self.slot));
        if ours && !self.router.closed.load(Ordering::Acquire) {
            spawn_worker(&self.router, self.key.clone(), self.slot.clone());
            return;
        }
        drop(directory);
        self.abandon();
    }
}
