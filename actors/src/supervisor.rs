//! The supervisor: starts children from factories and restarts them when they fail.
//!
//! Owns: every child's spec (factory, policy, limits), its restart history, and the
//! process-level "critical failure" signal.
//! Invariants:
//! - A child's address (`ChildRef`) and its queue outlive every restart; a restart builds a fresh
//!   behaviour from the factory and resumes the queue where it stopped.
//! - Restarts back off exponentially with jitter; more than `max_restarts` within `within` marks
//!   the child failed for good: its queue is closed and what was left in it is counted as dead
//!   letters. A child whose behaviour calls `CellCtx::fail` is failed for good at once. A
//!   critical child failing for good raises `critical_failure` so the process can exit non-zero
//!   for its service manager; a non-critical one stays failed while the rest serves.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix::Actor;
use actix_rt::ArbiterHandle;
use futures_util::future::LocalBoxFuture;
use futures_util::FutureExt;
use parking_lot::Mutex;
use rand::Rng;
use tokio::sync::watch;

use crate::behaviour::Behaviour;
use crate::cell::{AfterPanic, Cell, Exit, Host};
use crate::child::ChildRef;
use crate::fault::FaultSwitch;
use crate::health::{ActorHealth, ActorState, HealthRegistry};
use crate::mailbox::Mailbox;

/// When a child that ended is started again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RestartPolicy {
    /// Always restarted, whether it failed or stopped.
    Permanent,
    /// Restarted only when it failed.
    Transient,
    /// Never restarted.
    Temporary,
}

/// Restart intensity and backoff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RestartLimits {
    /// More restarts than this within `within` mark the child failed.
    pub max_restarts: u32,
    pub within: Duration,
    /// First backoff; doubles for each restart still inside the window.
    pub backoff_min: Duration,
    pub backoff_max: Duration,
}

impl Default for RestartLimits {
    fn default() -> Self {
        Self {
            max_restarts: 5,
            within: Duration::from_secs(60),
            backoff_min: Duration::from_millis(100),
            backoff_max: Duration::from_secs(10),
        }
    }
}

impl RestartLimits {
    /// The delay before restart number `attempt` (1-based) within the window, with ±25% jitter.
    pub fn backoff(&self, attempt: u32) -> Duration {
        let exponent = attempt.saturating_sub(1).min(20);
        let base = self
            .backoff_min
            .saturating_mul(1u32 << exponent)
            .min(self.backoff_max);
        let jitter = rand::thread_rng().gen_range(0.75..=1.25);
        base.mul_f64(jitter)
    }
}

type Factory<B> = Arc<dyn Fn() -> Result<B, String> + Send + Sync>;

/// How to run one child.
pub struct ChildSpec<B: Behaviour> {
    name: String,
    factory: Factory<B>,
    policy: RestartPolicy,
    critical: bool,
    capacity: usize,
    limits: RestartLimits,
    arbiter: Option<ArbiterHandle>,
}

impl<B: Behaviour> std::fmt::Debug for ChildSpec<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChildSpec")
            .field("name", &self.name)
            .field("policy", &self.policy)
            .field("critical", &self.critical)
            .finish()
    }
}

impl<B: Behaviour> ChildSpec<B> {
    /// A permanent, non-critical child with a 1,024-message queue on the current arbiter.
    /// The factory may fail (e.g. a database that cannot be opened): that counts as a failed
    /// start and is retried like a crash.
    pub fn new(
        name: impl Into<String>,
        factory: impl Fn() -> Result<B, String> + Send + Sync + 'static,
    ) -> Self {
        Self {
            name: name.into(),
            factory: Arc::new(factory),
            policy: RestartPolicy::Permanent,
            critical: false,
            capacity: 1024,
            limits: RestartLimits::default(),
            arbiter: None,
        }
    }

    pub fn policy(mut self, policy: RestartPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// A critical child failing for good takes the process down (see `Supervisor`).
    pub fn critical(mut self, critical: bool) -> Self {
        self.critical = critical;
        self
    }

    pub fn capacity(mut self, capacity: usize) -> Self {
        self.capacity = capacity;
        self
    }

    pub fn limits(mut self, limits: RestartLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Runs the child on this arbiter (e.g. a thread of its own for blocking work).
    pub fn arbiter(mut self, arbiter: ArbiterHandle) -> Self {
        self.arbiter = Some(arbiter);
        self
    }
}

type Closer = Box<dyn Fn() + Send + Sync>;

struct SupervisorInner {
    registry: Arc<HealthRegistry>,
    /// Closes each child's mailbox at shutdown (the child finishes what is queued, then ends).
    closers: Mutex<Vec<Closer>>,
    critical_failure: watch::Sender<Option<String>>,
    /// Set once shutdown starts: exits are then expected and nothing restarts.
    shutting_down: std::sync::atomic::AtomicBool,
}

/// Starts and restarts children. Cheap to clone.
impl std::fmt::Debug for SupervisorInner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Supervisor")
            .field("children", &self.closers.lock().len())
            .finish()
    }
}

#[derive(Debug, Clone)]
pub struct Supervisor {
    inner: Arc<SupervisorInner>,
}

impl Supervisor {
    pub fn new(registry: Arc<HealthRegistry>) -> Self {
        let (critical_failure, _) = watch::channel(None);
        Self {
            inner: Arc::new(SupervisorInner {
                registry,
                closers: Mutex::new(Vec::new()),
                critical_failure,
                shutting_down: std::sync::atomic::AtomicBool::new(false),
            }),
        }
    }

    pub fn registry(&self) -> &Arc<HealthRegistry> {
        &self.inner.registry
    }

    /// Starts a child and returns its address. Must run inside an actix `System`.
    pub fn spawn<B: Behaviour>(&self, spec: ChildSpec<B>) -> ChildRef<B::Msg> {
        let health = self.inner.registry.register(&spec.name, spec.critical);
        health.set_state(ActorState::Running);
        let mailbox = Arc::new(Mailbox::new(spec.capacity));
        {
            let mailbox = mailbox.clone();
            health.set_queue_depth_source(move || mailbox.len());
        }
        {
            let mailbox = mailbox.clone();
            self.inner
                .closers
                .lock()
                .push(Box::new(move || mailbox.close_after_queued()));
        }
        let fault = Arc::new(FaultSwitch::default());
        let arbiter = spec
            .arbiter
            .clone()
            .unwrap_or_else(actix_rt::Arbiter::current);
        let host = Arc::new(SupervisedHost {
            name: spec.name.clone(),
            mailbox: mailbox.clone(),
            health: health.clone(),
            fault: fault.clone(),
            spec: Arc::new(spec),
            arbiter,
            supervisor: self.clone(),
            history: Mutex::new(VecDeque::new()),
        });
        host.start();
        ChildRef::new(
            host.name.clone(),
            mailbox,
            health,
            fault,
            self.inner.registry.clone(),
        )
    }

    /// A child that is turned off by configuration: listed as `disabled`, refuses messages.
    pub fn disabled<M: Send + 'static>(&self, name: &str) -> ChildRef<M> {
        let health = self.inner.registry.register(name, false);
        health.set_state(ActorState::Disabled);
        let mailbox = Arc::new(Mailbox::new(1));
        mailbox.close();
        ChildRef::new(
            name.to_string(),
            mailbox,
            health,
            Arc::new(FaultSwitch::default()),
            self.inner.registry.clone(),
        )
    }

    /// Resolves with the reason once a critical child has failed for good.
    pub async fn critical_failure(&self) -> String {
        let mut receiver = self.inner.critical_failure.subscribe();
        loop {
            if let Some(reason) = receiver.borrow_and_update().clone() {
                return reason;
            }
            if receiver.changed().await.is_err() {
                // The sender lives in `self`, so this cannot end; wait forever to be safe.
                futures_util::future::pending::<()>().await;
            }
        }
    }

    /// Stops restarting, and closes every child's mailbox: each child handles what is already
    /// queued, then ends. Exits from now on are expected.
    pub fn begin_shutdown(&self) {
        self.inner
            .shutting_down
            .store(true, std::sync::atomic::Ordering::Release);
        for close in self.inner.closers.lock().iter() {
            close();
        }
    }

    fn is_shutting_down(&self) -> bool {
        self.inner
            .shutting_down
            .load(std::sync::atomic::Ordering::Acquire)
    }
}

/// The host of a supervised child: restarts through the supervisor.
struct SupervisedHost<B: Behaviour> {
    name: String,
    mailbox: Arc<Mailbox<B::Msg>>,
    health: Arc<ActorHealth>,
    fault: Arc<FaultSwitch>,
    spec: Arc<ChildSpec<B>>,
    arbiter: ArbiterHandle,
    supervisor: Supervisor,
    /// When recent restarts happened, for the intensity limit.
    history: Mutex<VecDeque<Instant>>,
}

impl<B: Behaviour> SupervisedHost<B> {
    /// Builds a fresh behaviour on the child's arbiter and starts a cell with it.
    fn start(self: &Arc<Self>) {
        let host = self.clone();
        let spawned = self.arbiter.spawn(async move {
            let factory = host.spec.factory.clone();
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| factory())) {
                Ok(Ok(behaviour)) => {
                    host.health.set_state(ActorState::Running);
                    Cell::new(behaviour, host).start();
                }
                Ok(Err(reason)) => {
                    let message = format!("start failed: {reason}");
                    host.health.record_failure(message.clone());
                    host.exited(Exit::Failed(message));
                }
                Err(payload) => {
                    let message =
                        format!("start panicked: {}", crate::panic::panic_message(&*payload));
                    host.health.record_failure(message.clone());
                    host.exited(Exit::Failed(message));
                }
            }
        });
        if !spawned {
            self.give_up("its arbiter has stopped".to_string());
        }
    }

    /// Marks the child failed for good and empties its queue into the dead letters.
    fn give_up(&self, reason: String) {
        self.health.set_state(ActorState::Failed);
        let left = self.mailbox.close();
        self.supervisor
            .registry()
            .add_dead_letters(u64::try_from(left.len()).unwrap_or(u64::MAX));
        drop(left);
        if self.spec.critical {
            tracing::error!(actor = %self.name, %reason, "critical actor failed for good; the process must exit");
            self.supervisor
                .inner
                .critical_failure
                .send_replace(Some(format!("{} failed: {reason}", self.name)));
        } else {
            tracing::error!(actor = %self.name, %reason, "actor failed for good; it stays failed");
        }
    }
}

impl<B: Behaviour> Host<B> for SupervisedHost<B> {
    fn name(&self) -> &str {
        &self.name
    }

    fn mailbox(&self) -> &Arc<Mailbox<B::Msg>> {
        &self.mailbox
    }

    fn health(&self) -> &Arc<ActorHealth> {
        &self.health
    }

    fn fault(&self) -> &FaultSwitch {
        &self.fault
    }

    fn next(self: Arc<Self>) -> LocalBoxFuture<'static, Option<B::Msg>> {
        async move { self.mailbox.recv().await }.boxed_local()
    }

    fn after_panic(&self, _message: &str) -> AfterPanic<B> {
        AfterPanic::Stop
    }

    fn exited(self: Arc<Self>, exit: Exit) {
        // The behaviour said no restart would help: failed for good, even during shutdown.
        if let Exit::Fatal(reason) = exit {
            self.give_up(reason);
            return;
        }
        if self.supervisor.is_shutting_down() {
            self.health.set_state(ActorState::Stopped);
            return;
        }
        let restart = !matches!(
            (&exit, self.spec.policy),
            (_, RestartPolicy::Temporary) | (Exit::Normal, RestartPolicy::Transient)
        );
        let reason = match &exit {
            Exit::Normal => "stopped".to_string(),
            Exit::Failed(message) | Exit::Fatal(message) => message.clone(),
        };
        if !restart {
            match exit {
                Exit::Normal => self.health.set_state(ActorState::Stopped),
                Exit::Failed(_) | Exit::Fatal(_) => self.give_up(reason),
            }
            return;
        }
        let limits = self.spec.limits;
        let attempt = {
            let mut history = self.history.lock();
            let now = Instant::now();
            while history
                .front()
                .is_some_and(|at| now.duration_since(*at) > limits.within)
            {
                history.pop_front();
            }
            if history.len() >= limits.max_restarts as usize {
                None
            } else {
                history.push_back(now);
                Some(u32::try_from(history.len()).unwrap_or(u32::MAX))
            }
        };
        let Some(attempt) = attempt else {
            self.give_up(format!(
                "more than {} restarts within {:?}; last: {reason}",
                limits.max_restarts, limits.within
            ));
            return;
        };
        self.health.set_state(ActorState::Restarting);
        self.health.record_restart();
        let delay = limits.backoff(attempt);
        tracing::warn!(actor = %self.name, %reason, attempt, delay_ms = delay.as_millis() as u64, "restarting actor");
        let host = self.clone();
        let spawned = self.arbiter.spawn(async move {
            actix_rt::time::sleep(delay).await;
            host.start();
        });
        if !spawned {
            self.give_up("its arbiter has stopped".to_string());
        }
    }
}
