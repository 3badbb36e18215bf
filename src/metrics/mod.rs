//! Figures for /metrics: what the turn pipeline, the model layer and the Nudger record as they
//! run (lock-free counters and histograms), and the exposition that encodes them, with the
//! actors' health, the gateway's counters and the process's figures, at scrape time.
//!
//! Owns no actor and takes no message: recorders are shared `Arc`s, and `exposition::render`
//! turns one `Scrape` into the page. Invariant: recording never awaits and never fails.

pub mod exposition;
pub mod llm;
pub mod nudges;
pub mod process;
pub mod turns;

pub use exposition::{render, DiscordFigures, GateFigures, Scrape, CONTENT_TYPE};
pub use llm::{CallKind, LlmMetrics, LLM_FAILURE_KINDS};
pub use nudges::NudgeMetrics;
pub use turns::{PathStats, TurnMetrics, LATENCY_BUCKETS};
