//! From a schedule phrase, its time and its bounds to the schedule that is proposed: the first
//! occurrence (DTSTART), the stop (UNTIL, in UTC as RFC 5545 asks when DTSTART has a zone) or
//! the count (COUNT), and the words that say all of it before the yes ("every Monday at 09:00,
//! starting Mon 7 Dec, until Sun 28 Feb").
//!
//! Invariants: pure. A schedule that would stop before it starts is a question, never an
//! automation that never fires; a rule Donna wrote that does not expand is logged and asked
//! about ("say it another way"), never stored.

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;

use super::bounds::{day_words, last_day, length_words, Bounds};
use super::schedule::Schedule;

const CANNOT_EXPAND: &str =
    "I couldn't work out when that would happen. Can you say it another way?";

/// Everything the command said about when, before it becomes a [`Schedule`].
#[derive(Debug, Clone)]
pub(super) struct SchedulePlan {
    pub(super) rrule: String,
    pub(super) words: String,
    pub(super) zone: Tz,
    pub(super) hour: u32,
    pub(super) minute: u32,
    /// The day a schedule without a named day counts from ("every 3 weeks": today).
    pub(super) from_anchor: Option<NaiveDate>,
    pub(super) bounds: Bounds,
    /// Today in `zone`.
    pub(super) today: NaiveDate,
}

impl SchedulePlan {
    fn local(&self, day: NaiveDate, time: NaiveTime) -> Option<DateTime<Utc>> {
        let local = self.zone.from_local_datetime(&day.and_time(time));
        local
            .earliest()
            .or_else(|| {
                // A DST gap: the first instant after it.
                self.zone
                    .from_local_datetime(&(day.and_time(time) + Duration::hours(1)))
                    .earliest()
            })
            .map(|at| at.with_timezone(&Utc))
    }

    /// The schedule, or the question to ask instead.
    pub(super) fn schedule(self, now: DateTime<Utc>) -> Result<Schedule, String> {
        let cannot = |error: super::schedule::ScheduleError| {
            tracing::warn!(%error, "an automation rule Donna wrote does not expand");
            CANNOT_EXPAND.to_string()
        };
        let time = NaiveTime::from_hms_opt(self.hour, self.minute, 0).ok_or(CANNOT_EXPAND)?;
        let first = match self.from_anchor {
            Some(anchor) => {
                let start = self.local(anchor, time).ok_or(CANNOT_EXPAND)?;
                Schedule::counting_from(&self.rrule, self.zone, start, now).map_err(cannot)?
            }
            None => {
                let after = match self.bounds.starting {
                    Some(day) => {
                        let midnight = self.local(day, NaiveTime::MIN).ok_or(CANNOT_EXPAND)?;
                        (midnight - Duration::seconds(1)).max(now)
                    }
                    None => now,
                };
                Schedule::starting_after(&self.rrule, self.zone, "", after)
                    .map_err(cannot)?
                    .dtstart
            }
        };
        let first_day = first.with_timezone(&self.zone).date_naive();
        let mut rrule = self.rrule.clone();
        let mut words = self.words.clone();
        if let (Some(start), None) = (self.bounds.starting, self.from_anchor) {
            words.push_str(&format!(", starting {}", day_words(start, self.today)));
        }
        let until = match (self.bounds.until, self.bounds.length) {
            (Some(until), _) => Some(until),
            (None, Some(length)) => Some(last_day(first_day, length).ok_or(
                "That is longer than I can plan a reminder for (ten years at most). How long \
                 should it run?",
            )?),
            (None, None) => None,
        };
        if let Some(last) = until {
            if last < first_day {
                return Err(format!(
                    "That would stop before it starts: the first reminder would be on {}. When \
                     should it stop?",
                    day_words(first_day, self.today)
                ));
            }
            let end_of_day = NaiveTime::from_hms_opt(23, 59, 59).ok_or(CANNOT_EXPAND)?;
            let end = self.local(last, end_of_day).ok_or(CANNOT_EXPAND)?;
            rrule.push_str(&format!(";UNTIL={}", end.format("%Y%m%dT%H%M%SZ")));
            words.push_str(&match self.bounds.length {
                Some(length) => format!(
                    ", {} (until {})",
                    length_words(length),
                    day_words(last, self.today)
                ),
                None => format!(", until {}", day_words(last, self.today)),
            });
        }
        if let Some(count) = self.bounds.count {
            rrule.push_str(&format!(";COUNT={count}"));
            words.push_str(&match count {
                1 => ", once".to_string(),
                n => format!(", {n} times"),
            });
        }
        Schedule::from_first(&rrule, self.zone, &words, first).map_err(cannot)
    }
}
