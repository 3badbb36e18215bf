//! What a time expression is read against: the clock reading, the user's timezone, the task's
//! current start and what "later" means. The reader takes everything from here and reads no
//! clock or config itself, so a rule can be tested at any instant in any timezone.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

/// What a time expression is read against.
#[derive(Debug, Clone)]
pub struct WhenContext {
    pub now: DateTime<Utc>,
    pub timezone: Tz,
    /// the task's own time: its scheduled start, else its deadline, if any ("tomorrow" keeps
    /// its local time of day when that is a deliberate one; "by a day" counts from it)
    pub current_start: Option<DateTime<Utc>>,
    /// what "later" means (config reschedule.later, default 3h)
    pub later: std::time::Duration,
}
