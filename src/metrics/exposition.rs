//! The /metrics page: every family Donna exports, encoded with prometheus-client in the
//! OpenMetrics text format.
//!
//! Takes a `Scrape` (a point-in-time copy of the figures the HTTP layer gathered from the app)
//! and returns the page. Invariants: every family has HELP and TYPE; counters are never
//! labelled with anything that changes over a series' life (an actor's state is its own one-hot
//! gauge, `donna_actor_state`), so `rate()` never sees a series restart; families are always
//! present, with zeros where nothing happened, so dashboards and alerts need no `absent()`.

use std::fmt;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use actors::{ActorSnapshot, ActorState};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric, NoLabelSet};
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::MetricType;
use prometheus_client::registry::Registry;

use super::llm::LlmMetrics;
use super::nudges::NudgeMetrics;
use super::process::ProcessCollector;
use super::turns::{TurnMetrics, LATENCY_BUCKETS};
use crate::skipped_rows::{Runner, SkippedRows};
use crate::turn_path::TurnPath;

/// The Content-Type of the page (Prometheus picks its parser from it).
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The states `donna_actor_state` reports, one series each per actor.
const ACTOR_STATES: [&str; 4] = ["running", "restarting", "failed", "disabled"];

/// A per-actor family: name, help, and the figure read from each actor's snapshot.
type ActorFamily<T> = (&'static str, &'static str, fn(&ActorSnapshot) -> T);

/// The reply gate's counters, copied out of the RateCap's `GateMetrics`.
#[derive(Debug, Default, Clone)]
pub struct GateFigures {
    pub replied: u64,
    pub skipped: u64,
    pub failed_open: u64,
    pub cap_hits: u64,
}

/// The Discord gateway's counters (all zero when Discord is off).
#[derive(Debug, Default, Clone)]
pub struct DiscordFigures {
    pub received: u64,
    pub ignored: u64,
    pub delivered: u64,
    pub send_failures: u64,
}

/// Everything one scrape shows.
#[derive(Debug)]
pub struct Scrape {
    pub version: &'static str,
    /// 1 when every actor runs (or is disabled): the rule of `/health`.
    pub up: bool,
    pub actors: Vec<ActorSnapshot>,
    pub conversations_live: usize,
    pub conversations_passivated: u64,
    pub thread_queue_overflows: u64,
    pub dead_letters: u64,
    pub gate: GateFigures,
    pub discord: DiscordFigures,
    /// Undelivered outbox rows; `None` when the read failed (then the family has no sample).
    pub outbox_backlog: Option<u64>,
    pub turns: Arc<TurnMetrics>,
    pub llm: Arc<LlmMetrics>,
    pub nudges: Arc<NudgeMetrics>,
    /// Rows the scheduled ticks went past.
    pub skipped: Arc<SkippedRows>,
    /// Messages this process analysed (`sentence::analyses_total`): one per turn that read
    /// its message.
    pub message_analyses: u64,
}

/// Encodes the page.
pub fn render(scrape: Scrape) -> Result<String, fmt::Error> {
    let mut registry = Registry::default();
    // `Registry::register` ends each HELP text with a full stop of its own: none here.
    registry.register(
        "donna_llm_call_duration_seconds",
        "Model call latency by call kind (classify, gate, route, parse_task, plan_step, chat, summarize; a call's one retry is part of it)",
        scrape.llm.durations(),
    );
    registry.register(
        "donna_llm_call_outcomes",
        "Model calls by call kind and outcome (ok, fail_open, or the failure kind)",
        scrape.llm.outcomes(),
    );
    registry.register_collector(Box::new(scrape));
    registry.register_collector(Box::new(ProcessCollector));
    let mut out = String::with_capacity(8192);
    prometheus_client::encoding::text::encode(&mut out, &registry)?;
    Ok(out)
}

fn gauge(encoder: &mut DescriptorEncoder, name: &str, help: &str, value: f64) -> fmt::Result {
    ConstGauge::new(value).encode(encoder.encode_descriptor(name, help, None, MetricType::Gauge)?)
}

/// `name` without `_total`: the OpenMetrics encoder appends it to the sample.
fn counter(encoder: &mut DescriptorEncoder, name: &str, help: &str, value: u64) -> fmt::Result {
    ConstCounter::new(value).encode(encoder.encode_descriptor(
        name,
        help,
        None,
        MetricType::Counter,
    )?)
}

impl Scrape {
    fn encode_actors(&self, encoder: &mut DescriptorEncoder) -> fmt::Result {
        let gauges: [ActorFamily<f64>; 4] = [
            (
                "donna_actor_running",
                "1 when the actor runs, else 0.",
                |a| f64::from(u8::from(a.state == ActorState::Running)),
            ),
            (
                "donna_actor_degraded",
                "1 when the actor runs but cannot do all of its work (e.g. the disk is full).",
                |a| f64::from(u8::from(a.degraded.is_some())),
            ),
            (
                "donna_actor_queue_depth",
                "Messages waiting for the actor.",
                |a| a.queue_depth as f64,
            ),
            (
                "donna_actor_in_flight_seconds",
                "Age of the message the actor is handling (0 when idle).",
                |a| a.in_flight.map_or(0.0, |d| d.as_secs_f64()),
            ),
        ];
        for (name, help, value) in gauges {
            let mut family = encoder.encode_descriptor(name, help, None, MetricType::Gauge)?;
            for actor in &self.actors {
                let labels = [("actor", actor.name.as_str())];
                ConstGauge::new(value(actor)).encode(family.encode_family(&labels)?)?;
            }
        }
        let mut family = encoder.encode_descriptor(
            "donna_actor_state",
            "The actor's state, one-hot: 1 for the state it is in, 0 for the others.",
            None,
            MetricType::Gauge,
        )?;
        for actor in &self.actors {
            for state in ACTOR_STATES {
                let labels = [("actor", actor.name.as_str()), ("state", state)];
                let on = actor.state.as_str() == state;
                ConstGauge::new(i64::from(on)).encode(family.encode_family(&labels)?)?;
            }
        }
        let counters: [ActorFamily<u64>; 2] = [
            ("donna_actor_restarts", "Restarts after failures.", |a| {
                a.restarts
            }),
            ("donna_actor_processed", "Messages handled.", |a| {
                a.processed
            }),
        ];
        for (name, help, value) in counters {
            let mut family = encoder.encode_descriptor(name, help, None, MetricType::Counter)?;
            for actor in &self.actors {
                let labels = [("actor", actor.name.as_str())];
                ConstCounter::new(value(actor)).encode(family.encode_family(&labels)?)?;
            }
        }
        Ok(())
    }

    /// The counts kept for every turn: its store writes, its one reading, its errors and the parked.
    fn encode_turn_totals(&self, encoder: &mut DescriptorEncoder) -> fmt::Result {
        counter(
            encoder,
            "donna_turn_store_writes",
            "Store writes made for messages: the inbox row written at intake and each turn's own writes (background work not counted).",
            self.turns.store_writes.load(Ordering::Relaxed),
        )?;
        counter(
            encoder,
            "donna_message_analyses",
            "Messages analysed: each turn reads its message once, so this equals the turns that read one (a duplicate message id returns its first result unread).",
            self.message_analyses,
        )?;
        counter(
            encoder,
            "donna_turn_errors",
            "Turns that failed with an internal error (store, actor down).",
            self.turns.errors.load(Ordering::Relaxed),
        )?;
        gauge(
            encoder,
            "donna_parked_messages",
            "Messages set aside after their turn failed every try; never run again.",
            self.turns.parked.load(Ordering::Relaxed) as f64,
        )
    }

    fn encode_turns(&self, encoder: &mut DescriptorEncoder) -> fmt::Result {
        let mut family = encoder.encode_descriptor(
            "donna_turn_duration_seconds",
            "Turn latency by path (the path a turn took: fast, llm, unhandled, ...).",
            None,
            MetricType::Histogram,
        )?;
        for path in TurnPath::ALL {
            let stats = self.turns.path(path);
            let count = stats.count.load(Ordering::Relaxed);
            // The recorded buckets are cumulative; the encoder wants each bucket's own count.
            let mut below = 0;
            let mut buckets = Vec::with_capacity(LATENCY_BUCKETS.len() + 1);
            for (bound, bucket) in LATENCY_BUCKETS.iter().zip(&stats.buckets) {
                let cumulative = bucket.load(Ordering::Relaxed).max(below);
                buckets.push((*bound, cumulative - below));
                below = cumulative;
            }
            buckets.push((f64::INFINITY, count.saturating_sub(below)));
            let sum = stats.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
            let labels = [("path", path.as_str())];
            family
                .encode_family(&labels)?
                .encode_histogram::<NoLabelSet>(sum, count, &buckets, None)?;
        }
        Ok(())
    }

    fn encode_llm(&self, encoder: &mut DescriptorEncoder) -> fmt::Result {
        let llm = &self.llm;
        counter(
            encoder,
            "donna_llm_calls",
            "Model calls started (classifications and reply-gate calls).",
            llm.calls.load(Ordering::Relaxed),
        )?;
        gauge(
            encoder,
            "donna_llm_in_flight",
            "Model calls in flight now.",
            llm.in_flight.load(Ordering::Relaxed) as f64,
        )?;
        gauge(
            encoder,
            "donna_llm_peak_in_flight",
            "The most model calls ever in flight at once since the start.",
            llm.peak_in_flight.load(Ordering::Relaxed) as f64,
        )?;
        let mut family = encoder.encode_descriptor(
            "donna_llm_failures",
            "Classifications that failed, by failure kind.",
            None,
            MetricType::Counter,
        )?;
        for (kind, count) in llm.failures() {
            ConstCounter::new(count).encode(family.encode_family(&[("kind", kind)])?)?;
        }
        Ok(())
    }

    fn encode_gate(&self, encoder: &mut DescriptorEncoder) -> fmt::Result {
        let gate = &self.gate;
        let mut family = encoder.encode_descriptor(
            "donna_reply_gate_decisions",
            "Group-chat reply gate decisions.",
            None,
            MetricType::Counter,
        )?;
        for (decision, count) in [
            ("reply", gate.replied),
            ("skip", gate.skipped),
            ("fail_open", gate.failed_open),
        ] {
            ConstCounter::new(count).encode(family.encode_family(&[("decision", decision)])?)?;
        }
        counter(
            encoder,
            "donna_reply_cap_hits",
            "Group-chat messages refused a reply because the chat reached its reply cap.",
            gate.cap_hits,
        )
    }

    fn encode_discord(&self, encoder: &mut DescriptorEncoder) -> fmt::Result {
        let discord = &self.discord;
        counter(
            encoder,
            "donna_discord_messages_received",
            "Live Discord messages the gateway received.",
            discord.received,
        )?;
        counter(
            encoder,
            "donna_discord_messages_ignored",
            "Discord messages ignored (not for Donna: bots, other users, no mention).",
            discord.ignored,
        )?;
        counter(
            encoder,
            "donna_discord_messages_delivered",
            "Replies delivered to Discord from the outbox.",
            discord.delivered,
        )?;
        counter(
            encoder,
            "donna_discord_send_failures",
            "Failed attempts to send a reply to Discord (the reply stays in the outbox).",
            discord.send_failures,
        )
    }
}

impl Collector for Scrape {
    fn encode(&self, mut encoder: DescriptorEncoder) -> fmt::Result {
        let encoder = &mut encoder;
        ConstGauge::new(1).encode(
            encoder
                .encode_descriptor(
                    "donna_build_info",
                    "Always 1; the labels say which build runs.",
                    None,
                    MetricType::Gauge,
                )?
                .encode_family(&[("version", self.version)])?,
        )?;
        gauge(
            encoder,
            "donna_up",
            "1 when every actor runs (or is disabled).",
            f64::from(u8::from(self.up)),
        )?;
        self.encode_actors(encoder)?;
        gauge(
            encoder,
            "donna_conversations_live",
            "Conversations (per-thread workers) alive now.",
            self.conversations_live as f64,
        )?;
        counter(
            encoder,
            "donna_conversations_passivated",
            "Conversations passivated after being idle.",
            self.conversations_passivated,
        )?;
        counter(
            encoder,
            "donna_thread_queue_overflows",
            "Messages refused (429) because their thread's queue was full.",
            self.thread_queue_overflows,
        )?;
        counter(
            encoder,
            "donna_dead_letters",
            "Messages that reached no actor (its mailbox had closed).",
            self.dead_letters,
        )?;
        self.encode_turn_totals(encoder)?;
        self.encode_turns(encoder)?;
        self.encode_gate(encoder)?;
        self.encode_llm(encoder)?;
        self.encode_discord(encoder)?;
        let backlog = encoder.encode_descriptor(
            "donna_outbox_backlog",
            "Replies in the outbox not yet delivered (every channel).",
            None,
            MetricType::Gauge,
        )?;
        if let Some(rows) = self.outbox_backlog {
            ConstGauge::new(rows as f64).encode(backlog)?;
        }
        let mut nudges = encoder.encode_descriptor(
            "donna_nudges_sent",
            "Nudges opened, by trigger (schedule: due or overdue tasks; api: POST /api/nudges).",
            None,
            MetricType::Counter,
        )?;
        for (trigger, count) in [
            ("schedule", self.nudges.scheduled.load(Ordering::Relaxed)),
            ("api", self.nudges.requested.load(Ordering::Relaxed)),
        ] {
            ConstCounter::new(count).encode(nudges.encode_family(&[("trigger", trigger)])?)?;
        }
        let mut skipped = encoder.encode_descriptor(
            "donna_rows_skipped",
            "Rows a scheduled tick could not handle and went past, the others going on (runner: nudger, automations, digests); each is logged with its id and why.",
            None,
            MetricType::Counter,
        )?;
        for runner in Runner::ALL {
            ConstCounter::new(self.skipped.count(runner))
                .encode(skipped.encode_family(&[("runner", runner.as_str())])?)?;
        }
        Ok(())
    }
}
