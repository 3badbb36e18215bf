//! Model-call metrics: calls, calls in flight, failures by kind, and per call kind (`classify`,
//! `gate`) a latency histogram and an outcome counter.
//!
//! Recorded by the LLMClassifier actor around each call; read by the exposition at scrape time.
//! Invariant: recording never awaits; the per-kind families are prometheus-client metrics (an
//! instant's lock per observation, negligible beside a model call).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;

/// Upper bounds of the model-call latency buckets, in seconds: local models answer in tenths
/// of a second to tens of seconds, so the buckets reach further than a turn's.
pub const MODEL_CALL_BUCKETS: [f64; 12] = [
    0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0,
];

/// The failure kinds counted (`LlmError::kind`).
pub const LLM_FAILURE_KINDS: [&str; 7] = [
    "timeout",
    "connect",
    "http",
    "bad_response",
    "too_large",
    "invalid_output",
    "disabled",
];

/// Which prompt a model call answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallKind {
    /// A classification (`llm::classify`, up to two requests when the first answer is invalid).
    Classify,
    /// The group-chat REPLY/SKIP gate.
    Gate,
    /// Free text: what a message is (`llm::free_text`).
    Route,
    /// Free text: the task a message asks for.
    ParseTask,
    /// The planner: the next tool to call (`llm::planner`).
    PlanStep,
    /// The planner's composed answer, and the chat room's answer.
    Chat,
    /// A closed chat session's summary.
    Summarize,
}

impl CallKind {
    pub fn as_str(self) -> &'static str {
        match self {
            CallKind::Classify => "classify",
            CallKind::Gate => "gate",
            CallKind::Route => "route",
            CallKind::ParseTask => "parse_task",
            CallKind::PlanStep => "plan_step",
            CallKind::Chat => "chat",
            CallKind::Summarize => "summarize",
        }
    }
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct CallLabels {
    pub kind: &'static str,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct OutcomeLabels {
    pub kind: &'static str,
    /// `ok`, `fail_open` (the gate) or an `LlmError::kind`.
    pub outcome: &'static str,
}

type HistogramFamily = Family<CallLabels, Histogram, fn() -> Histogram>;

fn model_call_histogram() -> Histogram {
    Histogram::new(MODEL_CALL_BUCKETS)
}

/// Model calls: counts, failures by kind, calls in flight and the most ever in flight at once,
/// and per call kind the latency and the outcome.
#[derive(Debug)]
pub struct LlmMetrics {
    pub calls: AtomicU64,
    pub in_flight: AtomicUsize,
    pub peak_in_flight: AtomicUsize,
    failures: [AtomicU64; LLM_FAILURE_KINDS.len()],
    durations: HistogramFamily,
    outcomes: Family<OutcomeLabels, Counter>,
}

impl Default for LlmMetrics {
    fn default() -> Self {
        let metrics = Self {
            calls: AtomicU64::new(0),
            in_flight: AtomicUsize::new(0),
            peak_in_flight: AtomicUsize::new(0),
            failures: Default::default(),
            durations: Family::new_with_constructor(model_call_histogram),
            outcomes: Family::default(),
        };
        // Every kind's series exists from the start (at zero): an empty family is not encoded,
        // and a series that appears with its first call hides that call from `rate()`.
        for kind in [
            CallKind::Classify,
            CallKind::Gate,
            CallKind::Route,
            CallKind::ParseTask,
            CallKind::PlanStep,
            CallKind::Chat,
            CallKind::Summarize,
        ] {
            let kind = kind.as_str();
            drop(metrics.durations.get_or_create(&CallLabels { kind }));
            drop(metrics.outcomes.get_or_create(&OutcomeLabels {
                kind,
                outcome: "ok",
            }));
        }
        metrics
    }
}

impl LlmMetrics {
    pub fn record_failure(&self, error: &crate::llm::LlmError) {
        if let Some(index) = LLM_FAILURE_KINDS
            .iter()
            .position(|kind| *kind == error.kind())
        {
            self.failures[index].fetch_add(1, Ordering::Relaxed);
        }
    }

    /// One finished model call of `kind`: how long it took and how it ended.
    pub fn record_call(&self, kind: CallKind, elapsed: Duration, outcome: &'static str) {
        let kind = kind.as_str();
        self.durations
            .get_or_create(&CallLabels { kind })
            .observe(elapsed.as_secs_f64());
        self.outcomes
            .get_or_create(&OutcomeLabels { kind, outcome })
            .inc();
    }

    pub fn failures(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        LLM_FAILURE_KINDS
            .iter()
            .zip(&self.failures)
            .map(|(kind, count)| (*kind, count.load(Ordering::Relaxed)))
    }

    pub fn total_failures(&self) -> u64 {
        self.failures().map(|(_, count)| count).sum()
    }

    /// The latency histograms by call kind (cheap clone: shared storage).
    pub fn durations(&self) -> HistogramFamily {
        self.durations.clone()
    }

    /// The outcome counters by call kind (cheap clone: shared storage).
    pub fn outcomes(&self) -> Family<OutcomeLabels, Counter> {
        self.outcomes.clone()
    }
}
