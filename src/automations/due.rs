//! Which automations have an occurrence due at a tick: searched off the store writer (the
//! runners read the automations, search here on the blocking pool, then write), and not again
//! until the next occurrence can have come.
//!
//! Owns: `DueSearch`, each runner's memory of when each automation is next due (keyed by what
//! the search read: the rule, its start, its zone and the occurrence it last fired), so a tick
//! searches only the automations whose next occurrence has come, and a rule that cannot be
//! searched (refused, cut at its bound) is reported once and then left alone until it changes.
//! Rules: due is the latest occurrence in (last fired, or created when it never fired, now];
//! after downtime only that one fires. When nothing is due, the next occurrence after `now`
//! (within `LOOKBACK_DAYS`) says when to look again.
//! Invariants: pure apart from its memory (no store, no clock); every search is one of
//! `Schedule`'s bounded ones; a failing rule never stops the others.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};
use chrono_tz::Tz;

use super::repo::Automation;
use super::schedule::{ScheduleError, LOOKBACK_DAYS};

/// What a search read of an automation: when any of it changes, the memory is stale.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    rrule: String,
    dtstart: DateTime<Utc>,
    timezone: Tz,
    after: DateTime<Utc>,
}

impl Key {
    fn of(automation: &Automation) -> Self {
        Self {
            rrule: automation.schedule.rrule.clone(),
            dtstart: automation.schedule.dtstart,
            timezone: automation.schedule.timezone,
            after: after(automation),
        }
    }
}

/// What the last search found.
#[derive(Debug, Clone)]
enum Known {
    /// Nothing is due before this time.
    QuietUntil(DateTime<Utc>),
    /// The rule cannot be searched (reported when found).
    Unusable,
}

/// An automation with an occurrence due.
#[derive(Debug, Clone)]
pub struct Due {
    pub automation: Automation,
    pub at: DateTime<Utc>,
}

/// An automation whose rule cannot be searched, found at this tick.
#[derive(Debug)]
pub struct Unusable {
    pub automation_id: String,
    pub error: ScheduleError,
}

/// A runner's memory of when each automation is next due.
#[derive(Debug, Default)]
pub struct DueSearch {
    known: HashMap<String, (Key, Known)>,
}

/// The occurrence the search starts after: the last one fired, else the creation.
fn after(automation: &Automation) -> DateTime<Utc> {
    automation
        .last_occurrence_at
        .unwrap_or(automation.created_at)
}

/// The occurrence of `automation` due at `now`, if one is: the latest in (last fired or
/// created, now].
pub fn due_occurrence(
    automation: &Automation,
    now: DateTime<Utc>,
) -> Result<Option<DateTime<Utc>>, ScheduleError> {
    automation
        .schedule
        .latest_occurrence_in(Some(after(automation)), now)
}

impl DueSearch {
    /// The automations of `automations` due at `now`, and the ones newly found unusable.
    /// Automations no longer listed are forgotten.
    pub fn due(
        &mut self,
        automations: Vec<Automation>,
        now: DateTime<Utc>,
    ) -> (Vec<Due>, Vec<Unusable>) {
        self.known
            .retain(|id, _| automations.iter().any(|automation| &automation.id == id));
        let (mut due, mut unusable) = (Vec::new(), Vec::new());
        for automation in automations {
            let key = Key::of(&automation);
            match self.known.get(&automation.id) {
                Some((known, Known::Unusable)) if *known == key => continue,
                Some((known, Known::QuietUntil(until))) if *known == key && now < *until => {
                    continue
                }
                _ => {}
            }
            match search(&automation, now) {
                Ok((Some(at), _)) => {
                    // Fired at this tick: its key changes with `last_occurrence_at`.
                    self.known.remove(&automation.id);
                    due.push(Due { automation, at });
                }
                Ok((None, until)) => {
                    self.known
                        .insert(automation.id.clone(), (key, Known::QuietUntil(until)));
                }
                Err(error) => {
                    self.known
                        .insert(automation.id.clone(), (key, Known::Unusable));
                    unusable.push(Unusable {
                        automation_id: automation.id,
                        error,
                    });
                }
            }
        }
        (due, unusable)
    }
}

/// The occurrence due at `now`, or when to look again.
fn search(
    automation: &Automation,
    now: DateTime<Utc>,
) -> Result<(Option<DateTime<Utc>>, DateTime<Utc>), ScheduleError> {
    if let Some(at) = due_occurrence(automation, now)? {
        return Ok((Some(at), now));
    }
    let until = match automation.schedule.next_after(now)? {
        Some(next) => next,
        None => crate::clock::add(now, Duration::days(LOOKBACK_DAYS)),
    };
    Ok((None, until))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automations::repo::AutomationKind;
    use crate::automations::Schedule;
    use chrono::TimeZone;

    fn at(day: u32, hour: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, day, hour, 0, 0)
            .single()
            .unwrap_or_default()
    }

    fn automation(id: &str, rrule: &str) -> Automation {
        Automation {
            id: id.into(),
            kind: AutomationKind::Reminder,
            for_user_id: None,
            title: "Water the plants".into(),
            schedule: Schedule {
                rrule: rrule.into(),
                dtstart: at(23, 9),
                timezone: Tz::UTC,
                words: "every day at 09:00".into(),
            },
            origin_thread_id: None,
            domain: "personal".into(),
            priority: 2,
            last_occurrence_at: None,
            created_at: at(23, 8),
            created_by: None,
            stopped_at: None,
            time_stated: false,
            repeat_from: crate::automations::RepeatFrom::Schedule,
        }
    }

    #[test]
    fn a_tick_searches_only_what_can_be_due_and_reports_an_unusable_rule_once() {
        let daily = automation("aut_daily", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0");
        let secondly = automation("aut_secondly", "FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30");
        let mut search = DueSearch::default();
        let (due, unusable) = search.due(vec![daily.clone(), secondly.clone()], at(23, 10));
        assert_eq!(due.len(), 1);
        assert_eq!(due[0].at, at(23, 9));
        assert_eq!(unusable.len(), 1);
        assert_eq!(unusable[0].automation_id, "aut_secondly");
        assert!(
            matches!(unusable[0].error, ScheduleError::Refused { .. }),
            "{:?}",
            unusable[0].error
        );
        // Fired: the next tick reads it with its new last occurrence; nothing is due until
        // tomorrow 09:00, and the unusable rule is not reported again.
        let mut fired = daily.clone();
        fired.last_occurrence_at = Some(at(23, 9));
        let (due, unusable) = search.due(vec![fired.clone(), secondly.clone()], at(23, 11));
        assert!(due.is_empty() && unusable.is_empty());
        assert!(matches!(
            search.known.get("aut_daily"),
            Some((_, Known::QuietUntil(until))) if *until == at(24, 9)
        ));
        let (due, _) = search.due(vec![fired.clone(), secondly], at(24, 9));
        assert_eq!(due.len(), 1, "its next occurrence came");
        // A changed rule is searched again.
        let mut changed = fired;
        changed.schedule.rrule = "FREQ=DAILY;BYHOUR=12;BYMINUTE=0;BYSECOND=0".into();
        let (due, _) = search.due(vec![changed], at(23, 12));
        assert_eq!(due.len(), 1, "{due:?}");
    }
}
