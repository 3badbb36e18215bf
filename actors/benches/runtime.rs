//! Runtime benchmarks for the `actors` crate: keyed-routing throughput against raw actix,
//! head-of-line isolation of blocked keys, and the memory cost of live keyed workers.
//!
//! Run: `cargo bench -p actors --bench runtime` (from the workspace root; about 30 s).
//!
//! What each section measures (all in one process, one actix `System`):
//! - **a. throughput**: messages/s through `KeyedRouter::ask` to a trivial handler (answers at
//!   once, `Handled::Done`) next to `Addr::send().await` to plain actix actors, one per key,
//!   with the same number of concurrent senders (64 and 256), 1,000 keys, 200,000 messages.
//!   Layout "2 worker arbiters": the senders are tasks on the System's arbiter (the
//!   `block_on` thread); the workers / raw actors are spread round robin over 2 extra
//!   arbiters (as `App` does for conversations). Layout "1 arbiter": senders and workers all
//!   on the System's arbiter. Prints both rates and the ratio router/raw (target >= 30%).
//! - **b. head-of-line isolation**: 1,000 keys each hold a message that awaits 2 s; meanwhile
//!   20,000 `ask`s over 100 other keys (one sequential sender, then 8 concurrent senders);
//!   prints p50/p99/max latency (target p99 < 5 ms) and checks the blocked keys were still
//!   blocked when the measurement ended.
//! - **c. memory**: VmRSS (from /proc/self/status) before, with 100,000 live keyed workers
//!   (each handled one message and is idle), and after all were passivated; prints bytes per
//!   worker. The allocator need not hand freed pages back to the OS, so "after" is printed as
//!   measured, plus a second wave of 100,000 workers to show the freed memory is reused.
//!
//! `DONNA_BENCH_ONLY=throughput` (any of throughput, isolation, memory, comma-separated) runs a
//! part only, e.g. under `perf record`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix::{Actor, Context, Handler, Message};
use actix_rt::{Arbiter, ArbiterHandle};
use actors::{Behaviour, CellCtx, Handled, HealthRegistry, KeyedConfig, KeyedRouter, Reply};
use futures_util::future::join_all;

const KEYS: u32 = 1_000;
const MESSAGES: usize = 200_000;
const SENDER_COUNTS: [usize; 2] = [64, 256];

// ---------------------------------------------------------------------------------------------
// Workers

/// The keyed worker of section a: answers at once.
struct Echo;

struct EchoMsg {
    value: u64,
    reply: Reply<u64>,
}

impl Behaviour for Echo {
    type Msg = EchoMsg;

    fn handle(&mut self, message: EchoMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        message.reply.send(message.value);
        Handled::Done
    }
}

/// The plain actix actor of section a.
struct RawEcho;

impl Actor for RawEcho {
    type Context = Context<Self>;
}

struct RawMsg(u64);

impl Message for RawMsg {
    type Result = u64;
}

impl Handler<RawMsg> for RawEcho {
    type Result = u64;

    fn handle(&mut self, message: RawMsg, _ctx: &mut Context<Self>) -> u64 {
        message.0
    }
}

/// The keyed worker of section b: either blocks for a while or answers at once.
struct Sleeper {
    finished: Arc<AtomicUsize>,
}

enum SleeperMsg {
    Block(Duration),
    Ping(Reply<()>),
}

impl Behaviour for Sleeper {
    type Msg = SleeperMsg;

    fn handle(&mut self, message: SleeperMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        match message {
            SleeperMsg::Block(delay) => {
                let finished = self.finished.clone();
                Handled::wait(async move {
                    actix_rt::time::sleep(delay).await;
                    finished.fetch_add(1, Ordering::Relaxed);
                })
            }
            SleeperMsg::Ping(reply) => {
                reply.send(());
                Handled::Done
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers

fn arbiters(count: usize) -> (Vec<Arbiter>, Vec<ArbiterHandle>) {
    let owned: Vec<Arbiter> = (0..count).map(|_| Arbiter::new()).collect();
    let handles = owned.iter().map(Arbiter::handle).collect();
    (owned, handles)
}

fn stop(owned: Vec<Arbiter>) {
    for arbiter in owned {
        arbiter.stop();
        let _ = arbiter.join();
    }
}

/// The key of sender `sender`'s `index`-th message: senders walk the key space with different
/// offsets, so at any moment they mostly hit different keys.
fn key_of(sender: usize, index: usize, senders: usize) -> u32 {
    let spread = (sender * 7_919 + index * senders) % KEYS as usize;
    u32::try_from(spread).unwrap_or(0)
}

fn rate(count: usize, elapsed: Duration) -> f64 {
    count as f64 / elapsed.as_secs_f64().max(1e-9)
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((sorted.len() as f64 - 1.0) * fraction).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

fn micros(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e6
}

fn rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status")
        .unwrap_or_else(|e| panic!("read /proc/self/status: {e}"));
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map_or(0, |kib| kib * 1024)
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

async fn wait_until(limit: Duration, mut condition: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if condition() {
            return true;
        }
        actix_rt::time::sleep(Duration::from_millis(20)).await;
    }
    condition()
}

// ---------------------------------------------------------------------------------------------
// a. Throughput

async fn router_throughput(router: &KeyedRouter<u32, Echo>, senders: usize) -> Duration {
    let per_sender = MESSAGES / senders;
    let started = Instant::now();
    let tasks = (0..senders).map(|sender| {
        let router = router.clone();
        async move {
            let mut sum = 0u64;
            for index in 0..per_sender {
                let value = index as u64;
                let key = key_of(sender, index, senders);
                sum += router
                    .ask(key, |reply| EchoMsg { value, reply })
                    .await
                    .unwrap_or_else(|e| panic!("router ask: {e}"));
            }
            sum
        }
    });
    let sums = join_all(tasks).await;
    let elapsed = started.elapsed();
    std::hint::black_box(sums);
    elapsed
}

async fn raw_throughput(addrs: &[actix::Addr<RawEcho>], senders: usize) -> Duration {
    let per_sender = MESSAGES / senders;
    let started = Instant::now();
    let tasks = (0..senders).map(|sender| async move {
        let mut sum = 0u64;
        for index in 0..per_sender {
            let key = key_of(sender, index, senders) as usize;
            sum += addrs[key]
                .send(RawMsg(index as u64))
                .await
                .unwrap_or_else(|e| panic!("raw send: {e}"));
        }
        sum
    });
    let sums = join_all(tasks).await;
    let elapsed = started.elapsed();
    std::hint::black_box(sums);
    elapsed
}

async fn throughput(worker_arbiters: usize) {
    let (owned, handles) = arbiters(worker_arbiters);
    let layout = if worker_arbiters == 0 {
        "1 arbiter (senders and workers on the System arbiter)".to_string()
    } else {
        format!("senders on the System arbiter, workers on {worker_arbiters} worker arbiters")
    };
    println!("  layout: {layout}");

    let registry = HealthRegistry::new();
    let router: KeyedRouter<u32, Echo> = KeyedRouter::new(
        "echo",
        registry,
        KeyedConfig {
            capacity_per_key: 64,
            idle: Duration::from_secs(600),
        },
        handles.clone(),
        |_key: &u32| Echo,
    );
    let raw: Vec<actix::Addr<RawEcho>> = (0..KEYS as usize)
        .map(|index| {
            if handles.is_empty() {
                RawEcho.start()
            } else {
                RawEcho::start_in_arbiter(&handles[index % handles.len()], |_| RawEcho)
            }
        })
        .collect();

    // Warm up: every key gets its worker, every raw actor has run once.
    for key in 0..KEYS {
        router
            .ask(key, |reply| EchoMsg { value: 0, reply })
            .await
            .unwrap_or_else(|e| panic!("warm-up ask: {e}"));
        raw[key as usize]
            .send(RawMsg(0))
            .await
            .unwrap_or_else(|e| panic!("warm-up send: {e}"));
    }
    let _ = router_throughput(&router, 64).await;
    let _ = raw_throughput(&raw, 64).await;

    for senders in SENDER_COUNTS {
        // Alternate the order so neither side always runs on a warmer process.
        let raw_time = raw_throughput(&raw, senders).await;
        let router_time = router_throughput(&router, senders).await;
        let count = (MESSAGES / senders) * senders;
        let (raw_rate, router_rate) = (rate(count, raw_time), rate(count, router_time));
        let ratio = router_rate / raw_rate;
        println!(
            "  {senders:>3} senders, {KEYS} keys, {count} msgs: raw actix {raw_rate:>10.0} msg/s | \
             KeyedRouter::ask {router_rate:>10.0} msg/s | router/raw {:.0}% (target >= 30%: {})",
            ratio * 100.0,
            if ratio >= 0.30 { "met" } else { "MISSED" }
        );
    }
    assert_eq!(router.live(), KEYS as usize, "no worker passivated");
    drop(raw);
    stop(owned);
}

// ---------------------------------------------------------------------------------------------
// b. Head-of-line isolation

async fn isolation() {
    const BLOCKED: u32 = 1_000;
    const FREE: u32 = 100;
    const ASKS: usize = 20_000;
    const BLOCK_FOR: Duration = Duration::from_secs(2);

    let (owned, handles) = arbiters(2);
    println!("  layout: senders on the System arbiter, workers on 2 worker arbiters");
    let finished = Arc::new(AtomicUsize::new(0));
    let router: KeyedRouter<u32, Sleeper> = {
        let finished = finished.clone();
        KeyedRouter::new(
            "sleepers",
            HealthRegistry::new(),
            KeyedConfig {
                capacity_per_key: 64,
                idle: Duration::from_secs(600),
            },
            handles,
            move |_key: &u32| Sleeper {
                finished: finished.clone(),
            },
        )
    };
    // The free keys are 0..FREE; warm their workers, so the measurement is of steady-state asks.
    for key in 0..FREE {
        router
            .ask(key, SleeperMsg::Ping)
            .await
            .unwrap_or_else(|e| panic!("warm-up: {e}"));
    }
    // One round per sender count, each with 1,000 freshly blocked keys of its own.
    for (round, concurrency) in [1usize, 8].into_iter().enumerate() {
        let first_blocked = FREE + BLOCKED * u32::try_from(round).unwrap_or(0);
        finished.store(0, Ordering::Relaxed);
        let blocked_at = Instant::now();
        for key in first_blocked..first_blocked + BLOCKED {
            if router.route(key, SleeperMsg::Block(BLOCK_FOR)).is_err() {
                panic!("blocking message for key {key} refused");
            }
        }
        // Let the new workers start and take their blocking message.
        actix_rt::time::sleep(Duration::from_millis(50)).await;

        let per_sender = ASKS / concurrency;
        let started = Instant::now();
        let tasks = (0..concurrency).map(|sender| {
            let router = router.clone();
            async move {
                let mut latencies = Vec::with_capacity(per_sender);
                for index in 0..per_sender {
                    let spread = (sender + index * concurrency) % FREE as usize;
                    let key = u32::try_from(spread).unwrap_or(0);
                    let asked = Instant::now();
                    router
                        .ask(key, SleeperMsg::Ping)
                        .await
                        .unwrap_or_else(|e| panic!("ask on a free key: {e}"));
                    latencies.push(asked.elapsed());
                }
                latencies
            }
        });
        let mut latencies: Vec<Duration> = join_all(tasks).await.into_iter().flatten().collect();
        let took = started.elapsed();
        let still_blocked = BLOCKED as usize - finished.load(Ordering::Relaxed);
        latencies.sort_unstable();
        let p99 = percentile(&latencies, 0.99);
        println!(
            "  {concurrency} sender(s): {} asks over {FREE} free keys in {:.0} ms, {still_blocked}/{BLOCKED} \
             keys blocked throughout: p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs (target p99 < 5 ms: {})",
            latencies.len(),
            took.as_secs_f64() * 1e3,
            micros(percentile(&latencies, 0.50)),
            micros(p99),
            micros(latencies.last().copied().unwrap_or_default()),
            if p99 < Duration::from_millis(5) {
                "met"
            } else {
                "MISSED"
            }
        );
        if still_blocked < BLOCKED as usize {
            println!("  WARNING: some blocked keys finished during the measurement");
        }
        let all_done = wait_until(Duration::from_secs(10), || {
            finished.load(Ordering::Relaxed) == BLOCKED as usize
        })
        .await;
        println!(
            "  the {BLOCKED} blocked keys {} {:.2} s after being blocked (2 s sleep each)",
            if all_done {
                "all finished"
            } else {
                "had NOT all finished"
            },
            blocked_at.elapsed().as_secs_f64()
        );
    }
    stop(owned);
}

// ---------------------------------------------------------------------------------------------
// c. Memory

async fn spawn_wave(router: &KeyedRouter<u32, Echo>, workers: u32) -> Duration {
    let started = Instant::now();
    // Queue all first (ask queues at call time), then await the answers in chunks.
    let mut pending = Vec::with_capacity(10_000);
    for key in 0..workers {
        pending.push(router.ask(key, move |reply| EchoMsg {
            value: u64::from(key),
            reply,
        }));
        if pending.len() == 10_000 {
            for answer in join_all(pending.drain(..)).await {
                answer.unwrap_or_else(|e| panic!("memory wave ask: {e}"));
            }
        }
    }
    for answer in join_all(pending).await {
        answer.unwrap_or_else(|e| panic!("memory wave ask: {e}"));
    }
    started.elapsed()
}

async fn memory() {
    const WORKERS: u32 = 100_000;
    const IDLE: Duration = Duration::from_secs(6);

    let (owned, handles) = arbiters(2);
    println!("  layout: workers on 2 worker arbiters, idle timeout {IDLE:?}");
    let router: KeyedRouter<u32, Echo> = KeyedRouter::new(
        "memory",
        HealthRegistry::new(),
        KeyedConfig {
            capacity_per_key: 64,
            idle: IDLE,
        },
        handles,
        |_key: &u32| Echo,
    );
    actix_rt::time::sleep(Duration::from_millis(100)).await;
    let before = rss_bytes();

    for wave in 1..=2 {
        let took = spawn_wave(&router, WORKERS).await;
        let live = router.live();
        let with_workers = rss_bytes();
        let per_worker = with_workers.saturating_sub(before) as f64 / f64::from(WORKERS);
        println!(
            "  wave {wave}: {WORKERS} workers started in {:.2} s; live {live}; RSS before {:.1} MiB, \
             with workers {:.1} MiB => {per_worker:.0} bytes per worker (over the first RSS)",
            took.as_secs_f64(),
            mib(before),
            mib(with_workers)
        );
        if live < WORKERS as usize {
            println!("  WARNING: some workers passivated before the RSS was read");
        }
        let started = Instant::now();
        let passivated = wait_until(Duration::from_secs(60), || router.live() == 0).await;
        // Let the stopped actors' last drops run on their arbiters.
        actix_rt::time::sleep(Duration::from_millis(200)).await;
        let after = rss_bytes();
        println!(
            "  wave {wave}: {} after {:.2} s; RSS after passivation {:.1} MiB ({:+.1} MiB over before; \
             freed memory stays with the allocator, not necessarily returned to the OS)",
            if passivated { "all passivated" } else { "NOT all passivated" },
            started.elapsed().as_secs_f64(),
            mib(after),
            mib(after) - mib(before)
        );
    }
    let gauges = router.gauges();
    println!(
        "  gauges: spawned {}, passivated {}",
        gauges.spawned.load(Ordering::Relaxed),
        gauges.passivated.load(Ordering::Relaxed)
    );
    stop(owned);
}

fn main() {
    println!(
        "actors runtime benchmarks ({} CPUs available; load average at start: {})",
        std::thread::available_parallelism().map_or(0, usize::from),
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let only = std::env::var("DONNA_BENCH_ONLY").unwrap_or_default();
    let runs = |part: &str| only.is_empty() || only.split(',').any(|p| p.trim() == part);
    actix_rt::System::new().block_on(async {
        if runs("throughput") {
            println!(
                "a. keyed routing throughput (trivial handler), {MESSAGES} messages, {KEYS} keys"
            );
            throughput(2).await;
            throughput(0).await;
        }
        if runs("isolation") {
            println!("b. head-of-line isolation");
            isolation().await;
        }
        if runs("memory") {
            println!("c. memory of idle keyed workers");
            memory().await;
        }
    });
}
