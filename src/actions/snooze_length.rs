//! How long a snooze lasts and how that is said: `duration_minutes` when the action has it (a
//! reply's own "snooze 20 min"), else `duration_hours` (the default 2, or the model's choice),
//! and the words for a length ("20 minutes", "1 hour 30 minutes", "7 days").
//!
//! Invariant: one reading of the parameters for the handler, the plan's wording and the range
//! check, so the person is told the length that is used.

use serde_json::{Map, Value};

/// When neither parameter is there (an action stored before either existed).
const DEFAULT_MINUTES: i64 = 120;
/// The handler's own bounds, whatever a custom actions file allows: one minute to a week.
const MAX_MINUTES: i64 = 7 * 24 * 60;

/// The snooze's length in minutes, from its parameters, within one minute and a week.
pub fn snooze_minutes(params: &Map<String, Value>) -> i64 {
    let minutes = params.get("duration_minutes").and_then(Value::as_i64);
    let hours = params.get("duration_hours").and_then(Value::as_i64);
    minutes
        .or_else(|| hours.map(|hours| hours.saturating_mul(60)))
        .unwrap_or(DEFAULT_MINUTES)
        .clamp(1, MAX_MINUTES)
}

/// A length in words: whole days when it is whole days of at least two ("7 days"), else hours
/// and minutes ("1 hour", "3 hours", "20 minutes", "1 hour 30 minutes").
pub fn say_minutes(minutes: i64) -> String {
    let plural = |n: i64, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    if minutes >= 2 * 24 * 60 && minutes % (24 * 60) == 0 {
        return plural(minutes / (24 * 60), "day");
    }
    match (minutes / 60, minutes % 60) {
        (0, rest) => plural(rest, "minute"),
        (hours, 0) => plural(hours, "hour"),
        (hours, rest) => format!("{} {}", plural(hours, "hour"), plural(rest, "minute")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn params(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn minutes_win_over_hours_and_the_default_is_two_hours() {
        assert_eq!(snooze_minutes(&params(json!({}))), 120);
        assert_eq!(snooze_minutes(&params(json!({"duration_hours": 3}))), 180);
        let both = json!({"duration_hours": 1, "duration_minutes": 20});
        assert_eq!(snooze_minutes(&params(both)), 20);
        assert_eq!(
            snooze_minutes(&params(json!({"duration_hours": 1000}))),
            10_080
        );
    }

    #[test]
    fn lengths_read_as_people_say_them() {
        assert_eq!(say_minutes(1), "1 minute");
        assert_eq!(say_minutes(20), "20 minutes");
        assert_eq!(say_minutes(60), "1 hour");
        assert_eq!(say_minutes(90), "1 hour 30 minutes");
        assert_eq!(say_minutes(180), "3 hours");
        assert_eq!(say_minutes(24 * 60), "24 hours");
        assert_eq!(say_minutes(7 * 24 * 60), "7 days");
    }
}
