//! The health registry: what `/health` and `/metrics` report about every actor.
//!
//! Owns: one `ActorHealth` record per supervised actor (state, restarts, last failure, degraded
//! reason, processed, in-flight age, queue depth), the keyed-worker gauges (live, passivated) and the dead-letter
//! count. Records are updated lock-free by the actors themselves and read as a `HealthSnapshot`.
//! Invariant: a record, once registered, stays for the life of the process, so a restarted actor
//! keeps its counters.

use std::fmt;
use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use parking_lot::{Mutex, RwLock};

/// Where an actor is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum ActorState {
    Running = 0,
    /// Failed and waiting out its backoff before the next start.
    Restarting = 1,
    /// Past its restart limit, or not restartable; it serves nothing.
    Failed = 2,
    /// Turned off by configuration (not a failure).
    Disabled = 3,
    /// Ended normally and not restarted (transient/temporary policy); not a failure.
    Stopped = 4,
}

impl ActorState {
    fn from_u8(value: u8) -> Self {
        match value {
            0 => ActorState::Running,
            1 => ActorState::Restarting,
            2 => ActorState::Failed,
            3 => ActorState::Disabled,
            _ => ActorState::Stopped,
        }
    }

    /// The name used in `/health`. A normally stopped actor reads as "disabled": not running,
    /// and not a failure.
    pub fn as_str(self) -> &'static str {
        match self {
            ActorState::Running => "running",
            ActorState::Restarting => "restarting",
            ActorState::Failed => "failed",
            ActorState::Disabled | ActorState::Stopped => "disabled",
        }
    }
}

impl fmt::Display for ActorState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One recorded failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub at: SystemTime,
    pub message: String,
}

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// Nanoseconds since the process epoch, never 0 (0 means "idle").
fn now_tick() -> u64 {
    u64::try_from(epoch().elapsed().as_nanos())
        .unwrap_or(u64::MAX)
        .max(1)
}

type DepthFn = Box<dyn Fn() -> usize + Send + Sync>;

/// The live record of one actor.
pub struct ActorHealth {
    name: String,
    critical: bool,
    state: AtomicU8,
    restarts: AtomicU64,
    processed: AtomicU64,
    failures: AtomicU64,
    in_flight_since: AtomicU64,
    /// Messages being handled right now (more than one for a record shared by keyed workers).
    busy: AtomicUsize,
    last_failure: Mutex<Option<Failure>>,
    /// Why the actor runs but cannot do all of its work, while it cannot.
    degraded: Mutex<Option<String>>,
    queue_depth: RwLock<Option<DepthFn>>,
}

impl fmt::Debug for ActorHealth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ActorHealth")
            .field("name", &self.name)
            .field("state", &self.state())
            .finish()
    }
}

impl ActorHealth {
    pub fn new(name: impl Into<String>, critical: bool) -> Self {
        Self {
            name: name.into(),
            critical,
            state: AtomicU8::new(ActorState::Running as u8),
            restarts: AtomicU64::new(0),
            processed: AtomicU64::new(0),
            failures: AtomicU64::new(0),
            in_flight_since: AtomicU64::new(0),
            busy: AtomicUsize::new(0),
            last_failure: Mutex::new(None),
            degraded: Mutex::new(None),
            queue_depth: RwLock::new(None),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn is_critical(&self) -> bool {
        self.critical
    }

    pub fn state(&self) -> ActorState {
        ActorState::from_u8(self.state.load(Ordering::Acquire))
    }

    pub fn set_state(&self, state: ActorState) {
        self.state.store(state as u8, Ordering::Release);
    }

    pub fn restarts(&self) -> u64 {
        self.restarts.load(Ordering::Relaxed)
    }

    pub fn record_restart(&self) {
        self.restarts.fetch_add(1, Ordering::Relaxed);
    }

    pub fn processed(&self) -> u64 {
        self.processed.load(Ordering::Relaxed)
    }

    /// Failures seen (each caught panic or abnormal stop), restarted or not.
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }

    pub fn record_failure(&self, message: impl Into<String>) {
        self.failures.fetch_add(1, Ordering::Relaxed);
        *self.last_failure.lock() = Some(Failure {
            at: SystemTime::now(),
            message: message.into(),
        });
    }

    pub fn last_failure(&self) -> Option<Failure> {
        self.last_failure.lock().clone()
    }

    /// Marks the actor as running but unable to do all of its work (`Some(reason)`), or whole
    /// again (`None`). Not a state: a degraded actor is still `Running`.
    pub fn set_degraded(&self, reason: Option<String>) {
        *self.degraded.lock() = reason;
    }

    pub fn degraded(&self) -> Option<String> {
        self.degraded.lock().clone()
    }

    /// Marks the start of a message's handling (for the in-flight age).
    pub fn begin(&self) {
        if self.busy.fetch_add(1, Ordering::AcqRel) == 0 {
            self.in_flight_since.store(now_tick(), Ordering::Release);
        }
    }

    /// Marks the end of a message's handling, successful or not.
    pub fn end(&self) {
        if self.busy.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.in_flight_since.store(0, Ordering::Release);
        }
        self.processed.fetch_add(1, Ordering::Relaxed);
    }

    /// Messages being handled right now.
    pub fn busy(&self) -> usize {
        self.busy.load(Ordering::Acquire)
    }

    /// How long this record has been busy without a break, if it is busy. For a single actor
    /// that is the age of the message in flight.
    pub fn in_flight(&self) -> Option<Duration> {
        let since = self.in_flight_since.load(Ordering::Acquire);
        (since != 0).then(|| Duration::from_nanos(now_tick().saturating_sub(since)))
    }

    pub fn set_queue_depth_source(&self, source: impl Fn() -> usize + Send + Sync + 'static) {
        *self.queue_depth.write() = Some(Box::new(source));
    }

    pub fn queue_depth(&self) -> usize {
        self.queue_depth
            .read()
            .as_ref()
            .map_or(0, |source| source())
    }

    pub fn snapshot(&self) -> ActorSnapshot {
        ActorSnapshot {
            name: self.name.clone(),
            critical: self.critical,
            state: self.state(),
            restarts: self.restarts(),
            failures: self.failures(),
            last_failure: self.last_failure(),
            degraded: self.degraded(),
            queue_depth: self.queue_depth(),
            processed: self.processed(),
            in_flight: self.in_flight(),
        }
    }
}

/// Gauges of a keyed router (conversations).
#[derive(Debug, Default)]
pub struct KeyedGauges {
    pub live: AtomicUsize,
    /// Workers passivated so far (a count of events, not a gauge of keys).
    pub passivated: AtomicU64,
    pub spawned: AtomicU64,
    /// In-place restarts of keyed workers after a caught panic.
    pub restarts: AtomicU64,
    pub overflows: AtomicU64,
}

/// A point-in-time copy of one actor's record.
#[derive(Debug, Clone)]
pub struct ActorSnapshot {
    pub name: String,
    pub critical: bool,
    pub state: ActorState,
    pub restarts: u64,
    pub failures: u64,
    pub last_failure: Option<Failure>,
    /// Why it runs but cannot do all of its work, if so.
    pub degraded: Option<String>,
    pub queue_depth: usize,
    pub processed: u64,
    pub in_flight: Option<Duration>,
}

/// A point-in-time copy of the whole registry.
#[derive(Debug, Clone)]
pub struct HealthSnapshot {
    pub actors: Vec<ActorSnapshot>,
    pub keyed_live: usize,
    pub keyed_passivated: u64,
    pub keyed_restarts: u64,
    pub keyed_overflows: u64,
    pub dead_letters: u64,
}

impl HealthSnapshot {
    /// Healthy when no critical actor is failed or restarting. Disabled actors never count.
    pub fn is_healthy(&self) -> bool {
        self.actors.iter().all(|actor| {
            matches!(
                actor.state,
                ActorState::Running | ActorState::Disabled | ActorState::Stopped
            ) || !actor.critical
        })
    }

    pub fn actor(&self, name: &str) -> Option<&ActorSnapshot> {
        self.actors.iter().find(|actor| actor.name == name)
    }
}

/// Every actor's record, in registration order.
#[derive(Debug, Default)]
pub struct HealthRegistry {
    actors: RwLock<Vec<Arc<ActorHealth>>>,
    keyed: RwLock<Vec<Arc<KeyedGauges>>>,
    dead_letters: AtomicU64,
}

impl HealthRegistry {
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// Registers (or returns the existing) record under `name`.
    pub fn register(&self, name: &str, critical: bool) -> Arc<ActorHealth> {
        let mut actors = self.actors.write();
        if let Some(existing) = actors.iter().find(|actor| actor.name == name) {
            return existing.clone();
        }
        let record = Arc::new(ActorHealth::new(name, critical));
        actors.push(record.clone());
        record
    }

    pub fn get(&self, name: &str) -> Option<Arc<ActorHealth>> {
        self.actors
            .read()
            .iter()
            .find(|actor| actor.name == name)
            .cloned()
    }

    pub fn register_keyed(&self) -> Arc<KeyedGauges> {
        let gauges = Arc::new(KeyedGauges::default());
        self.keyed.write().push(gauges.clone());
        gauges
    }

    pub fn add_dead_letters(&self, count: u64) {
        self.dead_letters.fetch_add(count, Ordering::Relaxed);
    }

    pub fn dead_letters(&self) -> u64 {
        self.dead_letters.load(Ordering::Relaxed)
    }

    pub fn snapshot(&self) -> HealthSnapshot {
        let keyed = self.keyed.read();
        HealthSnapshot {
            actors: self.actors.read().iter().map(|a| a.snapshot()).collect(),
            keyed_live: keyed.iter().map(|g| g.live.load(Ordering::Relaxed)).sum(),
            keyed_passivated: keyed
                .iter()
                .map(|g| g.passivated.load(Ordering::Relaxed))
                .sum(),
            keyed_restarts: keyed
                .iter()
                .map(|g| g.restarts.load(Ordering::Relaxed))
                .sum(),
            keyed_overflows: keyed
                .iter()
                .map(|g| g.overflows.load(Ordering::Relaxed))
                .sum(),
            dead_letters: self.dead_letters(),
        }
    }
}
