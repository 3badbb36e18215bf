//! The range of every duration key: longer than zero where zero makes no sense, and never
//! longer than a maximum that still means something (a plan that waits a year for its yes, a
//! model call of an hour). The maximum keeps every time Donna computes from a key within the
//! range she stores (years 0000 to 9999), so no key can make a turn fail: `plans.expiry:
//! 100000000d` once passed the checks, and then every proposal panicked.
//!
//! Invariant: every `ConfigDuration` key of the schema is in [`DURATION_KEYS`]
//! (`every_duration_key_has_a_range`).

use std::time::Duration;

use super::duration::ConfigDuration;
use super::schema::Config;

const MINUTE: u64 = 60;
const HOUR: u64 = 60 * MINUTE;
const DAY: u64 = 24 * HOUR;

/// A duration key's range: (key path, may it be 0, the longest value, the longest in words).
type Range = (&'static str, bool, u64, &'static str);

/// Every duration key, with whether zero is allowed and its maximum in seconds.
pub const DURATION_KEYS: [Range; 21] = [
    ("http.event_stream_idle", false, 7 * DAY, "7d"),
    ("llm.timeout", false, HOUR, "1h"),
    ("llm.probe_interval", false, DAY, "1d"),
    ("memory.retention", true, 3650 * DAY, "3650d"),
    ("memory.prune_interval", false, 7 * DAY, "7d"),
    ("plans.expiry", false, 365 * DAY, "365d"),
    ("plans.sweep_interval", false, DAY, "1d"),
    ("reschedule.later", true, 365 * DAY, "365d"),
    ("undo.window", true, 365 * DAY, "365d"),
    ("chat.session_ttl", false, 365 * DAY, "365d"),
    ("discord.http_timeout", false, 10 * MINUTE, "10m"),
    ("discord.catch_up_window", true, 365 * DAY, "365d"),
    ("nudges.interval", false, DAY, "1d"),
    ("nudges.min_gap", true, 365 * DAY, "365d"),
    ("reply_decision.window", false, 7 * DAY, "7d"),
    ("runtime.restart_within", true, DAY, "1d"),
    ("runtime.backoff_min", true, HOUR, "1h"),
    ("runtime.backoff_max", true, HOUR, "1h"),
    ("runtime.passivate_after", false, 7 * DAY, "7d"),
    ("shutdown.grace", true, HOUR, "1h"),
    ("calendars.timeout", false, 10 * MINUTE, "10m"),
];

/// The value of a duration key of `config` by its path.
fn value_of(config: &Config, key: &str) -> Option<ConfigDuration> {
    Some(match key {
        "http.event_stream_idle" => config.http.event_stream_idle,
        "llm.timeout" => config.llm.timeout,
        "llm.probe_interval" => config.llm.probe_interval,
        "memory.retention" => config.memory.retention,
        "memory.prune_interval" => config.memory.prune_interval,
        "plans.expiry" => config.plans.expiry,
        "plans.sweep_interval" => config.plans.sweep_interval,
        "reschedule.later" => config.reschedule.later,
        "undo.window" => config.undo.window,
        "chat.session_ttl" => config.chat.session_ttl,
        "discord.http_timeout" => config.discord.http_timeout,
        "discord.catch_up_window" => config.discord.catch_up_window,
        "nudges.interval" => config.nudges.interval,
        "nudges.min_gap" => config.nudges.min_gap,
        "reply_decision.window" => config.reply_decision.window,
        "runtime.restart_within" => config.runtime.restart_within,
        "runtime.backoff_min" => config.runtime.backoff_min,
        "runtime.backoff_max" => config.runtime.backoff_max,
        "runtime.passivate_after" => config.runtime.passivate_after,
        "shutdown.grace" => config.shutdown.grace,
        "calendars.timeout" => config.calendars.timeout,
        _ => return None,
    })
}

/// A duration the way config files write it: "400d", "2h", "90m" (else humantime's form).
fn in_words(duration: Duration) -> String {
    let secs = duration.as_secs();
    if duration.subsec_nanos() == 0 {
        for (unit, name) in [(DAY, "d"), (HOUR, "h"), (MINUTE, "m")] {
            if secs >= unit && secs.is_multiple_of(unit) {
                return format!("{}{name}", secs / unit);
            }
        }
    }
    humantime::format_duration(duration).to_string()
}

/// The first duration key out of its range: (its key path, why).
pub fn check_durations(config: &Config) -> Result<(), (&'static str, String)> {
    for (key, zero_ok, max_secs, max_words) in DURATION_KEYS {
        let Some(value) = value_of(config, key) else {
            continue;
        };
        let value = value.get();
        if !zero_ok && value.is_zero() {
            return Err((key, "must be longer than 0s".to_string()));
        }
        if value > Duration::from_secs(max_secs) {
            return Err((
                key,
                format!("{} is too long; at most {max_words}", in_words(value)),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_duration_key_has_a_range() {
        // The shipped file holds every key; each duration value in it (written like "90s")
        // must be one `value_of` knows.
        let shipped = include_str!("../../config/donna.yaml");
        let mut section = "";
        let mut missing = Vec::new();
        for line in shipped.lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            if !line.starts_with(' ') {
                section = line.split(':').next().unwrap_or("");
                continue;
            }
            let Some((key, value)) = line.trim().split_once(": ") else {
                continue;
            };
            let value = value.trim();
            if humantime::parse_duration(value).is_ok()
                && !value.chars().all(|c| c.is_ascii_digit())
            {
                let path = format!("{section}.{key}");
                // Ollama's own keep_alive, passed on as written; Donna computes nothing from it.
                if path != "llm.keep_alive" && value_of(&Config::default(), &path).is_none() {
                    missing.push(path);
                }
            }
        }
        assert!(
            missing.is_empty(),
            "duration keys without a range: {missing:?}"
        );
    }

    #[test]
    fn a_duration_past_its_maximum_is_refused_naming_the_key_and_the_maximum() {
        const DAY: u64 = 86_400;
        type Set = fn(&mut Config, ConfigDuration);
        let cases: [(Set, u64, &str); 5] = [
            (
                |c, d| c.plans.expiry = d,
                100_000_000 * DAY,
                "plans.expiry: 100000000d is too long; at most 365d",
            ),
            (
                |c, d| c.plans.expiry = d,
                366 * DAY,
                "plans.expiry: 366d is too long; at most 365d",
            ),
            (
                |c, d| c.undo.window = d,
                1000 * 365 * DAY,
                "undo.window: 365000d is too long; at most 365d",
            ),
            (
                |c, d| c.llm.timeout = d,
                2 * 3600,
                "llm.timeout: 2h is too long; at most 1h",
            ),
            (
                |c, d| c.nudges.interval = d,
                0,
                "nudges.interval: must be longer than 0s",
            ),
        ];
        for (set, secs, expected) in cases {
            let mut config = Config::default();
            set(&mut config, ConfigDuration::secs(secs));
            let error = check_durations(&config)
                .map_err(|(key, reason)| format!("{key}: {reason}"))
                .err()
                .unwrap_or_default();
            assert!(error.starts_with(expected), "{secs}s: {error:?}");
        }
        let mut at_max = Config::default();
        at_max.plans.expiry = ConfigDuration::secs(365 * DAY);
        assert!(check_durations(&at_max).is_ok());
        assert!(check_durations(&Config::default()).is_ok());
    }
}
