//! Saying a time back to the person, in their zone: relative to today when short ("today at
//! 15:00", "tomorrow at 09:00", "Friday 5 Dec at 09:00"), or absolutely for text read later
//! ("Fri 27 Nov 09:00"). Midnight is said as what it is, the end of a day, with the clock
//! reading beside it: "tonight at midnight (00:00 Sat 28 Nov)".

use chrono::{DateTime, Datelike, Timelike, Utc};
use chrono_tz::Tz;

use super::context::WhenContext;

/// Describes a time for a reply to the user, in their timezone, relative to now when short:
/// "today at 15:00", "tomorrow at 09:00", "Friday 5 Dec at 09:00", "Tue 3 Feb 2027 at 14:30"
/// (year only when not this year). 00:00 is the midnight that ends the day before: "tonight
/// at midnight (00:00 Sat 28 Nov)", "Friday 4 Dec at midnight (00:00 Sat 5 Dec)".
pub fn describe(at: DateTime<Utc>, ctx: &WhenContext) -> String {
    let local = at.with_timezone(&ctx.timezone);
    let today = ctx.now.with_timezone(&ctx.timezone).date_naive();
    let date = local.date_naive();
    if local.hour() == 0 && local.minute() == 0 && date > today {
        let clock = if date.year() == today.year() {
            local.format("00:00 %a %-d %b")
        } else {
            local.format("00:00 %a %-d %b %Y")
        };
        let day_before = date.pred_opt().unwrap_or(date);
        let night = if day_before == today {
            "tonight".to_string()
        } else if today.succ_opt() == Some(day_before) {
            "tomorrow".to_string()
        } else if day_before.year() == today.year() {
            day_before.format("%A %-d %b").to_string()
        } else {
            day_before.format("%a %-d %b %Y").to_string()
        };
        return format!("{night} at midnight ({clock})");
    }
    let clock = local.format("%H:%M");
    if date == today {
        format!("today at {clock}")
    } else if today.succ_opt() == Some(date) {
        format!("tomorrow at {clock}")
    } else if today.pred_opt() == Some(date) {
        format!("yesterday at {clock}")
    } else if date.year() == today.year() {
        local.format("%A %-d %b at %H:%M").to_string()
    } else {
        local.format("%a %-d %b %Y at %H:%M").to_string()
    }
}

/// Describes a time without reference to today, for text that is read later or quoted back
/// ("You already have 'Pay rent', due Fri 27 Nov 09:00"): short weekday, day, short month,
/// 24-hour time in `timezone`; the year only when it is not the year of `now` there.
pub fn describe_absolute(at: DateTime<Utc>, timezone: Tz, now: DateTime<Utc>) -> String {
    let local = at.with_timezone(&timezone);
    if local.year() == now.with_timezone(&timezone).year() {
        local.format("%a %-d %b %H:%M").to_string()
    } else {
        local.format("%a %-d %b %Y %H:%M").to_string()
    }
}
