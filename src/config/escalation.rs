//! The escalation keys (docs/contract.md "Escalation"): a second, bigger model the chat may
//! offer, its prices for the cost estimate and the ledger, the daily budget and the estimate
//! under which no offer is needed.
//!
//! Invariant: off unless both `base_url` and `model` are set; a negative or non-finite price,
//! budget or threshold, or `max_output_tokens` of 0, is a key-path error.

use serde::{Deserialize, Serialize};

use super::provider::LlmProvider;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EscalationConfig {
    pub provider: LlmProvider,
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub api_key_env: Option<String>,
    /// USD per million prompt tokens.
    pub price_input_usd_per_mtok: f64,
    /// USD per million output tokens.
    pub price_output_usd_per_mtok: f64,
    /// The most the bigger model may answer, in tokens (and what the estimate counts).
    pub max_output_tokens: u32,
    /// Spent and reserved together never pass this in one day (in `timezone`).
    pub daily_budget_usd: f64,
    /// An estimate under this is sent without asking (0: always ask).
    pub auto_approve_under_usd: f64,
}

impl Default for EscalationConfig {
    fn default() -> Self {
        Self {
            provider: LlmProvider::Openai,
            base_url: None,
            model: None,
            api_key_env: None,
            price_input_usd_per_mtok: 3.0,
            price_output_usd_per_mtok: 15.0,
            max_output_tokens: 1024,
            daily_budget_usd: 2.0,
            auto_approve_under_usd: 0.0,
        }
    }
}

impl EscalationConfig {
    /// Whether escalation is on: a base URL and a model are both set.
    pub fn enabled(&self) -> bool {
        self.base_url.is_some() && self.model.is_some()
    }

    /// The first key whose value cannot be used, and why.
    pub fn problem(&self) -> Option<(&'static str, String)> {
        let amounts = [
            (
                "escalation.price_input_usd_per_mtok",
                self.price_input_usd_per_mtok,
            ),
            (
                "escalation.price_output_usd_per_mtok",
                self.price_output_usd_per_mtok,
            ),
            ("escalation.daily_budget_usd", self.daily_budget_usd),
            (
                "escalation.auto_approve_under_usd",
                self.auto_approve_under_usd,
            ),
        ];
        for (key, value) in amounts {
            if !value.is_finite() || value < 0.0 {
                return Some((key, format!("{value} is not an amount of 0 or more")));
            }
        }
        if self.max_output_tokens == 0 {
            return Some(("escalation.max_output_tokens", "must be at least 1".into()));
        }
        if let Some(url) = &self.base_url {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Some((
                    "escalation.base_url",
                    format!("{url:?} is not an http(s) URL"),
                ));
            }
        }
        if self.provider == LlmProvider::None {
            return Some((
                "escalation.provider",
                "none is not a provider here: leave base_url unset to turn escalation off".into(),
            ));
        }
        None
    }
}
