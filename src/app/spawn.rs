//! Spawning the supervised actors of the reply pipeline, one function each, with the restart
//! limits and mailbox bound of `runtime.*`.
//!
//! Invariants: every actor is spawned from a factory that rebuilds it with fresh state (what a
//! restart does); only the store writer is critical (Donna cannot work without it) and has an
//! arbiter (thread) of its own, so its blocking SQLite calls stall no other actor.

use std::path::PathBuf;
use std::sync::Arc;

use actix_rt::ArbiterHandle;
use actors::{Behaviour, ChildRef, ChildSpec, RestartLimits, Supervisor};

use crate::actions::ActionRegistry;
use crate::automations::{AutomationRunner, AutomationsMsg};
use crate::clock::SharedClock;
use crate::config::{Config, RuntimeConfig};
use crate::events::EventBus;
use crate::live::Live;
use crate::metrics::NudgeMetrics;
use crate::nudges::NudgeSink;
use crate::nudges::{NudgeRules, Nudger, NudgerMsg};
use crate::people::OwnDay;
use crate::replies::matcher::FastPath;
use crate::skipped_rows::SkippedRows;
use crate::store::{Durability, WriterMsg};
use crate::store::{ReadPool, Store, StoreWriter};
use crate::subsystems::action_executor::{ActionExecutor, ExecutorMsg};
use crate::subsystems::calendars::{CalendarParts, Calendars, CalendarsMsg};
use crate::subsystems::chat_sessions::{ChatSessions, SessionsMsg, SweepSettings};
use crate::subsystems::digest::{DigestMsg, DigestRunner};
use crate::subsystems::fast_path::{FastPathActor, FastPathMsg};
use crate::subsystems::pending_plans::{PendingPlans, PlansMsg};
use crate::subsystems::rate_cap::{GateMetrics, RateCap, RateCapMsg};
use crate::subsystems::session_closer::SessionCloser;
use crate::subsystems::thread_memory::{MemoryMsg, ThreadMemory};
use crate::ticking::Ticking;

/// Read connections the pool keeps warm (and reads it admits at once).
const READ_CONNECTIONS: usize = 8;

/// Spawns children of one supervisor with the config's restart limits and mailbox bound.
#[derive(Debug)]
pub struct Spawner<'a> {
    pub supervisor: &'a Supervisor,
    limits: RestartLimits,
    capacity: usize,
    /// The rows the scheduled ticks (Nudger, automations, digests) go past, for /metrics.
    pub skipped: Arc<SkippedRows>,
    /// Every calendar Donna reads, as the Calendars actor keeps it: read by the turns (the
    /// planner's `calendar_events`) and the digests, written by the actor.
    pub calendar_book: Arc<crate::calendar::book::CalendarBook>,
}

impl<'a> Spawner<'a> {
    pub fn new(supervisor: &'a Supervisor, runtime: &RuntimeConfig) -> Self {
        Self {
            supervisor,
            limits: RestartLimits {
                max_restarts: runtime.restart_max,
                within: runtime.restart_within.get(),
                backoff_min: runtime.backoff_min.get(),
                backoff_max: runtime.backoff_max.get(),
            },
            capacity: runtime.actor_queue,
            skipped: Arc::default(),
            calendar_book: Arc::default(),
        }
    }

    /// The restart limits every child gets.
    pub fn limits(&self) -> RestartLimits {
        self.limits
    }

    /// Spawns `spec` with the shared limits and mailbox bound.
    pub fn spawn<B: Behaviour>(&self, spec: ChildSpec<B>) -> ChildRef<B::Msg> {
        self.supervisor
            .spawn(spec.limits(self.limits).capacity(self.capacity))
    }

    /// The store writer (critical, on `arbiter`) and the store handle that uses it.
    pub fn store(
        &self,
        database: PathBuf,
        durability: Durability,
        batch: usize,
        arbiter: ArbiterHandle,
    ) -> Store {
        let path = database.clone();
        let writer: ChildRef<WriterMsg> = self.spawn(
            ChildSpec::new("store_writer", move || {
                StoreWriter::open(&path, durability, batch).map_err(|e| e.to_string())
            })
            .critical(true)
            .arbiter(arbiter),
        );
        Store::new(writer, ReadPool::new(database, READ_CONNECTIONS))
    }

    pub fn thread_memory(
        &self,
        store: &Store,
        clock: &SharedClock,
        config: &Config,
    ) -> ChildRef<MemoryMsg> {
        let (store, clock) = (store.clone(), clock.clone());
        let (retention, interval) = (
            config.memory.retention.get(),
            config.memory.prune_interval.get(),
        );
        self.spawn(ChildSpec::new("thread_memory", move || {
            Ok(ThreadMemory::new(
                store.clone(),
                clock.clone(),
                retention,
                interval,
            ))
        }))
    }

    /// The chat sessions' sweeper, on the retention prune's interval; `closer` is shared with
    /// the chat turns.
    pub fn chat_sessions(
        &self,
        store: &Store,
        clock: &SharedClock,
        closer: SessionCloser,
        config: &Config,
        chat: Live<crate::config::ChatConfig>,
    ) -> ChildRef<SessionsMsg> {
        let (store, clock) = (store.clone(), clock.clone());
        let settings = SweepSettings {
            interval: config.memory.prune_interval.get(),
            chat,
        };
        self.spawn(ChildSpec::new("chat_sessions", move || {
            Ok(ChatSessions::new(
                store.clone(),
                clock.clone(),
                closer.clone(),
                settings.clone(),
            ))
        }))
    }

    pub fn pending_plans(
        &self,
        store: &Store,
        clock: &SharedClock,
        config: &Config,
    ) -> ChildRef<PlansMsg> {
        let (store, clock) = (store.clone(), clock.clone());
        let interval = config.plans.sweep_interval.get();
        self.spawn(ChildSpec::new("pending_plans", move || {
            Ok(PendingPlans::new(store.clone(), clock.clone(), interval))
        }))
    }

    pub fn fast_path(&self, matcher: Live<FastPath>) -> ChildRef<FastPathMsg> {
        self.spawn(ChildSpec::new("fast_path", move || {
            Ok(FastPathActor::new(matcher.clone()))
        }))
    }

    pub fn action_executor(&self, registry: Live<ActionRegistry>) -> ChildRef<ExecutorMsg> {
        self.spawn(ChildSpec::new("action_executor", move || {
            Ok(ActionExecutor::new(registry.clone()))
        }))
    }

    pub fn rate_cap(
        &self,
        store: &Store,
        clock: &SharedClock,
        config: &Config,
        metrics: &Arc<GateMetrics>,
    ) -> ChildRef<RateCapMsg> {
        let (store, clock, metrics) = (store.clone(), clock.clone(), metrics.clone());
        let (max, window) = (
            config.reply_decision.max_replies_per_window,
            config.reply_decision.window.get(),
        );
        self.spawn(ChildSpec::new("rate_cap", move || {
            Ok(RateCap::new(
                store.clone(),
                clock.clone(),
                max,
                window,
                metrics.clone(),
            ))
        }))
    }

    /// The Nudger; its nudges go to `sink` (Discord) when there is one, else the local channel.
    pub fn nudger(
        &self,
        store: &Store,
        clock: &SharedClock,
        config: &Config,
        sink: Option<Arc<dyn NudgeSink>>,
        metrics: &Arc<NudgeMetrics>,
        events: &EventBus,
    ) -> ChildRef<NudgerMsg> {
        let (events, skipped) = (events.clone(), self.skipped.clone());
        let (store, clock, metrics) = (store.clone(), clock.clone(), metrics.clone());
        let rules = NudgeRules {
            interval: config.nudges.interval.get(),
            min_gap: config.nudges.min_gap.get(),
            quiet_hours: config.nudges.quiet_hours,
            timezone: config.timezone.zone(),
        };
        self.spawn(ChildSpec::new("nudger", move || {
            let nudger = Nudger {
                store: store.clone(),
                rules: rules.clone(),
                sink: sink.clone(),
                metrics: metrics.clone(),
                events: events.clone(),
                skipped: skipped.clone(),
            };
            Ok(Ticking::new(clock.clone(), rules.interval, nudger))
        }))
    }

    /// The automation runner: each automation's occurrence becomes a task, every
    /// `nudges.interval` (the Nudger then nudges it).
    pub fn automations(
        &self,
        store: &Store,
        clock: &SharedClock,
        config: &Config,
        events: &EventBus,
    ) -> ChildRef<AutomationsMsg> {
        let (store, clock, events) = (store.clone(), clock.clone(), events.clone());
        let skipped = self.skipped.clone();
        let interval = config.nudges.interval.get();
        self.spawn(ChildSpec::new("automations", move || {
            let runner = AutomationRunner::new(store.clone(), events.clone(), skipped.clone());
            Ok(Ticking::new(clock.clone(), interval, runner))
        }))
    }

    /// The digest runner: each daily digest's occurrence sends the person's agenda, every
    /// `nudges.interval`.
    pub fn digests(
        &self,
        store: &Store,
        clock: &SharedClock,
        config: &Config,
        events: &EventBus,
    ) -> ChildRef<DigestMsg> {
        let (store, clock, events) = (store.clone(), clock.clone(), events.clone());
        let skipped = self.skipped.clone();
        let interval = config.nudges.interval.get();
        let defaults = OwnDay {
            zone: config.timezone.zone(),
            quiet_hours: config.nudges.quiet_hours,
        };
        let offers = crate::calendar::placing_offer::OfferRules {
            book: self.calendar_book.clone(),
            working_hours: config.scheduling.working_hours,
            answer_time: chrono::Duration::from_std(config.plans.expiry.get())
                .unwrap_or(chrono::Duration::hours(1)),
        };
        self.spawn(ChildSpec::new("digests", move || {
            let runner = DigestRunner::new(
                store.clone(),
                events.clone(),
                skipped.clone(),
                (defaults, offers.clone()),
            );
            Ok(Ticking::new(clock.clone(), interval, runner))
        }))
    }

    /// The Calendars actor and its book: every calendar refreshed on its interval; its first
    /// round is asked for at once (the timer's first tick comes later).
    /// `default_zone`: the zone in force (the config's, else the machine's).
    pub fn calendars(
        &self,
        loaded: &crate::config::LoadedConfig,
        default_zone: chrono_tz::Tz,
        store: &Store,
        clock: &SharedClock,
    ) -> Result<CalendarParts, crate::calendar::fetch::FetchError> {
        let book = self.calendar_book.clone();
        let refresher = crate::calendar::refresh::Refresher::new(
            loaded,
            default_zone,
            book.clone(),
            store.clone(),
        )?;
        let clock = clock.clone();
        let actor = self.spawn(ChildSpec::new("calendars", move || {
            Ok(Calendars::new(refresher.clone(), clock.clone()))
        }));
        let _ = actor.tell(CalendarsMsg::Refresh { reply: None });
        Ok(CalendarParts { actor, book })
    }
}
