//! Keyed routing: per-key order under load with passivations and a forced restart, isolation of
//! a blocked key, bounded queues, and no message lost when a message races a passivation.

mod common;

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use actors::{
    AskError, Behaviour, CellCtx, Handled, HealthRegistry, KeyedConfig, KeyedRouter, PushError,
    Reply,
};
use parking_lot::Mutex;
use rand::Rng;

/// Every handled message, in the order handled: (key, sequence number).
type Log = Arc<Mutex<Vec<(u32, u32)>>>;

struct Worker {
    key: u32,
    log: Log,
}

struct Item {
    seq: u32,
    delay: Duration,
    reply: Reply<u32>,
}

impl Behaviour for Worker {
    type Msg = Item;

    fn handle(&mut self, item: Item, _ctx: &mut CellCtx<Self>) -> Handled {
        let (key, log) = (self.key, self.log.clone());
        Handled::wait(async move {
            if !item.delay.is_zero() {
                actix_rt::time::sleep(item.delay).await;
            }
            log.lock().push((key, item.seq));
            item.reply.send(item.seq);
        })
    }
}

fn router(
    registry: &Arc<HealthRegistry>,
    log: &Log,
    config: KeyedConfig,
    arbiters: usize,
) -> (KeyedRouter<u32, Worker>, Vec<actix_rt::Arbiter>) {
    let owned: Vec<actix_rt::Arbiter> = (0..arbiters).map(|_| actix_rt::Arbiter::new()).collect();
    let handles = owned.iter().map(|a| a.handle()).collect();
    let log = log.clone();
    let router = KeyedRouter::new(
        "router",
        registry.clone(),
        config,
        handles,
        move |key: &u32| Worker {
            key: *key,
            log: log.clone(),
        },
    );
    (router, owned)
}

/// Per key, the sequence numbers in handling order must strictly increase.
fn order_violations(log: &[(u32, u32)]) -> usize {
    let mut last: HashMap<u32, u32> = HashMap::new();
    let mut violations = 0;
    for (key, seq) in log {
        if let Some(previous) = last.insert(*key, *seq) {
            if previous >= *seq {
                violations += 1;
            }
        }
    }
    violations
}

#[actix_rt::test]
async fn ten_thousand_messages_over_a_hundred_keys_keep_per_key_order_through_passivation_and_restart(
) {
    let registry = HealthRegistry::new();
    let log: Log = Arc::default();
    let config = KeyedConfig {
        capacity_per_key: 128,
        idle: Duration::from_millis(20),
    };
    let (router, _arbiters) = router(&registry, &log, config, 2);
    // One message somewhere in the run panics: its worker restarts in place.
    router.inject_panic_on_nth(3_333);

    let mut answers = Vec::new();
    let mut rng = rand::thread_rng();
    for wave in 0..4u32 {
        for seq in 0..25u32 {
            for key in 0..100u32 {
                let delay = Duration::from_micros(rng.gen_range(0..400));
                let seq = wave * 25 + seq;
                answers.push(router.ask(key, move |reply| Item { seq, delay, reply }));
            }
        }
        // Let every worker drain and go idle so the next wave races or follows passivation.
        actix_rt::time::sleep(Duration::from_millis(30 + u64::from(wave) * 10)).await;
    }
    let mut failed = 0;
    for answer in answers {
        match answer.await {
            Ok(_) => {}
            Err(AskError::NoReply { .. }) => failed += 1,
            Err(other) => panic!("unexpected refusal: {other}"),
        }
    }
    let log = log.lock().clone();
    assert_eq!(failed, 1, "exactly the injected panic fails");
    assert_eq!(log.len(), 9_999, "every other message was handled once");
    assert_eq!(order_violations(&log), 0);
    let health = registry.snapshot();
    assert!(health.keyed_passivated > 0, "no passivation happened");
    assert!(health.keyed_restarts >= 1, "no restart happened");
    assert_eq!(
        health
            .actor("router")
            .and_then(|r| r.last_failure.clone())
            .map(|f| f.message),
        Some("injected fault in router".to_string())
    );
}

#[actix_rt::test]
async fn a_key_blocked_for_two_seconds_delays_no_other_key() {
    let registry = HealthRegistry::new();
    let log: Log = Arc::default();
    let (router, _arbiters) = router(&registry, &log, KeyedConfig::default(), 2);
    let blocked = router.ask(0, |reply| Item {
        seq: 0,
        delay: Duration::from_secs(2),
        reply,
    });
    let others: Vec<_> = (0..1_000u32)
        .map(|i| {
            router.ask(1 + i % 50, move |reply| Item {
                seq: i,
                delay: Duration::ZERO,
                reply,
            })
        })
        .collect();
    for other in others {
        assert!(other.await.is_ok());
    }
    // All 1,000 completed while key 0 still awaits.
    assert_eq!(log.lock().len(), 1_000);
    assert!(!log.lock().iter().any(|(key, _)| *key == 0));
    assert_eq!(blocked.await, Ok(0));
    assert_eq!(log.lock().last().copied(), Some((0, 0)));
}

#[actix_rt::test]
async fn a_full_key_queue_refuses_the_message_back_and_other_keys_still_accept() {
    let registry = HealthRegistry::new();
    let log: Log = Arc::default();
    let config = KeyedConfig {
        capacity_per_key: 3,
        idle: Duration::from_secs(60),
    };
    let (router, _arbiters) = router(&registry, &log, config, 1);
    let slow = |seq| {
        let (reply, _answer) = Reply::channel();
        Item {
            seq,
            delay: Duration::from_millis(200),
            reply,
        }
    };
    assert!(router.route(7, slow(0)).is_ok());
    // Wait until the first is in flight so the queue holds exactly the next three.
    common::wait_until(Duration::from_secs(2), || router.health().busy() == 1).await;
    for seq in 1..=3 {
        assert!(router.route(7, slow(seq)).is_ok());
    }
    match router.route(7, slow(4)) {
        Err(PushError::Full { message, capacity }) => {
            assert_eq!((message.seq, capacity), (4, 3));
        }
        other => panic!(
            "expected Full, got {:?}",
            other.err().map(|e| e.to_string())
        ),
    }
    assert!(router.route(8, slow(0)).is_ok());
    assert_eq!(registry.snapshot().keyed_overflows, 1);
}

#[actix_rt::test]
async fn messages_racing_passivation_are_neither_lost_nor_reordered() {
    let registry = HealthRegistry::new();
    let log: Log = Arc::default();
    // Idle time of 1 ms makes passivation race nearly every message.
    let config = KeyedConfig {
        capacity_per_key: 64,
        idle: Duration::from_millis(1),
    };
    let (router, _arbiters) = router(&registry, &log, config, 2);
    let mut answers = Vec::new();
    let mut rng = rand::thread_rng();
    for seq in 0..100u32 {
        for key in 0..20u32 {
            answers.push(router.ask(key, move |reply| Item {
                seq,
                delay: Duration::ZERO,
                reply,
            }));
        }
        actix_rt::time::sleep(Duration::from_micros(rng.gen_range(0..2_500))).await;
    }
    for answer in answers {
        assert!(answer.await.is_ok(), "a message was lost");
    }
    let log = log.lock().clone();
    assert_eq!(log.len(), 2_000);
    assert_eq!(order_violations(&log), 0);
    assert!(registry.snapshot().keyed_passivated > 20);
    // Eventually every worker passivates and nothing stays live.
    assert!(common::wait_until(Duration::from_secs(2), || router.live() == 0).await);
    assert_eq!(
        router.gauges().live.load(Ordering::Relaxed),
        0,
        "the live gauge matches the directory"
    );
}
