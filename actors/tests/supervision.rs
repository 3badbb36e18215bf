//! Supervision: panics are captured, the child restarts with fresh state at the same address,
//! queued work survives, and a child that keeps failing trips the intensity limit.

mod common;

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use actors::{
    ActorState, AskError, Behaviour, CellCtx, ChildSpec, Handled, HealthRegistry, Reply,
    RestartLimits, Supervisor,
};
use common::wait_until;

/// A counter whose state is lost on restart, so tests can see a fresh instance.
struct Counter {
    total: u64,
}

enum CounterMsg {
    Add(u64, Reply<u64>),
    Panic(&'static str),
    PanicLater(&'static str, Reply<()>),
    SlowAdd(u64, Duration, Reply<u64>),
}

impl Behaviour for Counter {
    type Msg = CounterMsg;

    fn handle(&mut self, message: CounterMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        match message {
            CounterMsg::Add(n, reply) => {
                self.total += n;
                reply.send(self.total);
                Handled::Done
            }
            CounterMsg::Panic(text) => panic!("{text}"),
            CounterMsg::PanicLater(text, _reply) => Handled::wait(async move {
                actix_rt::time::sleep(Duration::from_millis(5)).await;
                panic!("{text}");
            }),
            CounterMsg::SlowAdd(n, delay, reply) => {
                self.total += n;
                let total = self.total;
                Handled::wait(async move {
                    actix_rt::time::sleep(delay).await;
                    reply.send(total);
                })
            }
        }
    }
}

fn fast_limits() -> RestartLimits {
    RestartLimits {
        max_restarts: 3,
        within: Duration::from_secs(60),
        backoff_min: Duration::from_millis(1),
        backoff_max: Duration::from_millis(10),
    }
}

#[actix_rt::test]
async fn a_panicking_handler_is_restarted_and_queued_messages_are_still_processed() {
    let registry = HealthRegistry::new();
    let supervisor = Supervisor::new(registry.clone());
    let counter = supervisor
        .spawn(ChildSpec::new("counter", || Ok(Counter { total: 0 })).limits(fast_limits()));

    assert_eq!(counter.ask(|r| CounterMsg::Add(5, r)).await, Ok(5));
    // Queue a slow message, the panic, then three more adds behind it, all before any runs.
    let slow = counter.ask(|r| CounterMsg::SlowAdd(1, Duration::from_millis(50), r));
    assert!(counter.tell(CounterMsg::Panic("boom in handler")).is_ok());
    let after: Vec<_> = (1..=3)
        .map(|n| counter.ask(move |r| CounterMsg::Add(n, r)))
        .collect();
    assert_eq!(slow.await, Ok(6));
    let mut answers = Vec::new();
    for answer in after {
        answers.push(answer.await);
    }
    // Fresh state after the restart: 0 + 1, + 2, + 3.
    assert_eq!(answers, vec![Ok(1), Ok(3), Ok(6)]);

    let health = registry.snapshot();
    let record = health.actor("counter").cloned();
    let record = record.as_ref();
    assert_eq!(record.map(|r| r.restarts), Some(1));
    assert_eq!(record.map(|r| r.state), Some(ActorState::Running));
    assert_eq!(
        record
            .and_then(|r| r.last_failure.as_ref())
            .map(|f| f.message.as_str()),
        Some("boom in handler")
    );
    // The same address keeps serving.
    assert_eq!(counter.ask(|r| CounterMsg::Add(10, r)).await, Ok(16));
}

#[actix_rt::test]
async fn a_panic_inside_an_async_handler_is_captured_and_its_caller_gets_an_error() {
    let registry = HealthRegistry::new();
    let supervisor = Supervisor::new(registry.clone());
    let counter = supervisor
        .spawn(ChildSpec::new("counter", || Ok(Counter { total: 0 })).limits(fast_limits()));
    let failed = counter
        .ask(|r| CounterMsg::PanicLater("boom after await", r))
        .await;
    assert_eq!(
        failed,
        Err(AskError::NoReply {
            actor: "counter".into()
        })
    );
    assert_eq!(counter.ask(|r| CounterMsg::Add(2, r)).await, Ok(2));
    let record = registry.get("counter").map(|h| h.snapshot());
    assert_eq!(record.as_ref().map(|r| r.restarts), Some(1));
    assert_eq!(
        record.and_then(|r| r.last_failure).map(|f| f.message),
        Some("boom after await".to_string())
    );
}

#[actix_rt::test]
async fn an_injected_fault_shows_as_a_restart_with_its_message() {
    let registry = HealthRegistry::new();
    let supervisor = Supervisor::new(registry.clone());
    let counter = supervisor
        .spawn(ChildSpec::new("counter", || Ok(Counter { total: 0 })).limits(fast_limits()));
    counter.inject_panic_on_nth(2);
    assert_eq!(counter.ask(|r| CounterMsg::Add(1, r)).await, Ok(1));
    assert!(counter.ask(|r| CounterMsg::Add(1, r)).await.is_err());
    assert_eq!(counter.ask(|r| CounterMsg::Add(7, r)).await, Ok(7));
    let record = registry.get("counter").map(|h| h.snapshot());
    assert_eq!(record.as_ref().map(|r| r.restarts), Some(1));
    assert_eq!(
        record.and_then(|r| r.last_failure).map(|f| f.message),
        Some("injected fault in counter".to_string())
    );
}

#[actix_rt::test]
async fn a_child_failing_forever_trips_the_intensity_limit_and_raises_critical_failure() {
    let registry = HealthRegistry::new();
    let supervisor = Supervisor::new(registry.clone());
    let starts = Arc::new(AtomicU32::new(0));
    let counted = starts.clone();
    let child = supervisor.spawn(
        ChildSpec::<Counter>::new("store", move || {
            counted.fetch_add(1, Ordering::SeqCst);
            Err("database is locked".to_string())
        })
        .critical(true)
        .limits(fast_limits()),
    );
    let reason = actix_rt::time::timeout(Duration::from_secs(10), supervisor.critical_failure())
        .await
        .unwrap_or_default();
    assert!(reason.contains("store failed"), "reason: {reason}");
    assert!(reason.contains("database is locked"), "reason: {reason}");
    // The first start plus max_restarts restarts, then no more.
    assert_eq!(starts.load(Ordering::SeqCst), 4);
    let record = registry.get("store").map(|h| h.snapshot());
    assert_eq!(record.as_ref().map(|r| r.state), Some(ActorState::Failed));
    assert_eq!(record.as_ref().map(|r| r.restarts), Some(3));
    assert!(!registry.snapshot().is_healthy());
    // Its address now refuses work, and the refusal counts as a dead letter.
    assert_eq!(
        child.ask(|r| CounterMsg::Add(1, r)).await,
        Err(AskError::Closed {
            actor: "store".into()
        })
    );
    assert!(registry.dead_letters() >= 1);
}

#[actix_rt::test]
async fn a_non_critical_child_past_its_limit_stays_failed_while_others_serve() {
    let registry = HealthRegistry::new();
    let supervisor = Supervisor::new(registry.clone());
    let flaky = supervisor
        .spawn(ChildSpec::new("gateway", || Ok(Counter { total: 0 })).limits(fast_limits()));
    let healthy = supervisor.spawn(ChildSpec::new("memory", || Ok(Counter { total: 0 })));
    let gateway = registry.get("gateway");
    for failures in 1..=4 {
        let _ = flaky.tell(CounterMsg::Panic("connection refused"));
        let settled = wait_until(Duration::from_secs(5), || {
            gateway
                .as_ref()
                .is_some_and(|g| g.failures() >= failures && g.state() != ActorState::Restarting)
        })
        .await;
        assert!(settled, "failure {failures} was not handled");
    }
    let snapshot = registry.snapshot();
    assert_eq!(
        snapshot.actor("gateway").map(|a| a.state),
        Some(ActorState::Failed)
    );
    // Non-critical: the process stays healthy and the other actor serves.
    assert!(snapshot.is_healthy());
    assert_eq!(healthy.ask(|r| CounterMsg::Add(3, r)).await, Ok(3));
}

#[actix_rt::test]
async fn backoff_doubles_and_is_capped_with_jitter() {
    let limits = RestartLimits {
        max_restarts: 10,
        within: Duration::from_secs(60),
        backoff_min: Duration::from_millis(100),
        backoff_max: Duration::from_secs(1),
    };
    let within = |d: Duration, lo: u64, hi: u64| {
        d >= Duration::from_millis(lo) && d <= Duration::from_millis(hi)
    };
    assert!(within(limits.backoff(1), 75, 125));
    assert!(within(limits.backoff(2), 150, 250));
    assert!(within(limits.backoff(3), 300, 500));
    assert!(within(limits.backoff(9), 750, 1250));
}

#[actix_rt::test]
async fn a_full_mailbox_refuses_instead_of_dropping() {
    let registry = HealthRegistry::new();
    let supervisor = Supervisor::new(registry.clone());
    let counter =
        supervisor.spawn(ChildSpec::new("counter", || Ok(Counter { total: 0 })).capacity(2));
    let busy = counter.ask(|r| CounterMsg::SlowAdd(1, Duration::from_millis(100), r));
    // Let the slow message start so it no longer occupies the queue.
    let mut busy = Box::pin(busy);
    let _ = actix_rt::time::timeout(Duration::from_millis(20), &mut busy).await;
    assert!(counter.tell(CounterMsg::Panic("never")).is_ok());
    assert!(counter.tell(CounterMsg::Panic("never")).is_ok());
    let refused = counter.ask(|r| CounterMsg::Add(1, r)).await;
    assert_eq!(
        refused,
        Err(AskError::Full {
            actor: "counter".into()
        })
    );
}
