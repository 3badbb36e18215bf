//! Fuzzes the reschedule-time reader `donna::tasks::when::find_when` and `describe`.
//!
//! Input layout: byte 0 picks the user's timezone (UTC, zones with DST in either hemisphere,
//! half- and quarter-hour offsets, a 30-minute DST shift, +14:00/-11:00 and Samoa); byte 1 picks
//! one of a few fixed "now" instants (around DST changes, a year end, a leap day); byte 2 picks
//! the task's current start (none, or up to ~5 years before or after now); the rest, if valid
//! UTF-8, is the reply text.
//!
//! Checks, besides "no panic":
//! - `find_when` is deterministic;
//! - `Ok(Some(t))` implies `now < t <= now + 5 * 366 days` (the module's "strictly after now and
//!   at most five years ahead"; the horizon itself is allowed: "in 1830 days" is exactly it);
//! - `describe(t)` for a found time, for `now` and for the current start returns a non-empty
//!   text; an error's message is non-empty.

#![no_main]

use chrono::{DateTime, TimeDelta, TimeZone, Utc};
use chrono_tz::Tz;
use donna::tasks::when::{describe, find_when, WhenContext};
use libfuzzer_sys::fuzz_target;

const ZONES: [Tz; 16] = [
    chrono_tz::UTC,
    chrono_tz::Europe::Berlin,
    chrono_tz::Europe::London,
    chrono_tz::America::New_York,
    chrono_tz::America::St_Johns,
    chrono_tz::America::Sao_Paulo,
    chrono_tz::America::Santiago,
    chrono_tz::Asia::Kolkata,
    chrono_tz::Asia::Kathmandu,
    chrono_tz::Asia::Tehran,
    chrono_tz::Australia::Lord_Howe,
    chrono_tz::Australia::Adelaide,
    chrono_tz::Pacific::Chatham,
    chrono_tz::Pacific::Apia,
    chrono_tz::Pacific::Kiritimati,
    chrono_tz::Pacific::Pago_Pago,
];

/// Fixed "now" instants (UTC): before Berlin's and New York's spring-forward, before Berlin's
/// fall-back, a year end, a leap day, and an ordinary afternoon.
const NOWS: [(i32, u32, u32, u32, u32); 6] = [
    (2026, 3, 27, 9, 0),
    (2026, 3, 7, 15, 30),
    (2026, 10, 24, 22, 45),
    (2026, 12, 31, 23, 30),
    (2028, 2, 29, 11, 59),
    (2027, 6, 15, 14, 0),
];

const HORIZON_DAYS: i64 = 5 * 366;

fn utc(fields: (i32, u32, u32, u32, u32)) -> Option<DateTime<Utc>> {
    let (year, month, day, hour, minute) = fields;
    Utc.with_ymd_and_hms(year, month, day, hour, minute, 0)
        .single()
}

fn pick<T: Copy>(list: &[T], byte: u8) -> Option<T> {
    list.get(usize::from(byte) % list.len()).copied()
}

fuzz_target!(|data: &[u8]| {
    let [zone, now, start, rest @ ..] = data else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let (Some(timezone), Some(now)) = (pick(&ZONES, *zone), pick(&NOWS, *now).and_then(utc)) else {
        return;
    };
    // 0 = no current start; otherwise a signed offset of (byte - 128) * 15 hours from now, about
    // ±80 days, or for bytes >= 0xF0 a far one (±5 years) to push "by N" arithmetic.
    let current_start = match *start {
        0 => None,
        b if b >= 0xF0 => {
            let days = (i64::from(b) - 0xF8) * 240;
            TimeDelta::try_days(days).and_then(|d| now.checked_add_signed(d))
        }
        b => {
            TimeDelta::try_hours((i64::from(b) - 128) * 15).and_then(|d| now.checked_add_signed(d))
        }
    };
    let ctx = WhenContext {
        now,
        timezone,
        current_start,
        later: std::time::Duration::from_secs(3 * 3600),
    };

    let found = find_when(text, &ctx);
    assert_eq!(
        found,
        find_when(text, &ctx),
        "find_when is not deterministic"
    );

    let Some(horizon) = TimeDelta::try_days(HORIZON_DAYS).and_then(|d| now.checked_add_signed(d))
    else {
        return;
    };
    match found {
        Ok(Some(at)) => {
            assert!(
                at > now,
                "{text:?} in {timezone} gave {at}, not after now {now}"
            );
            assert!(
                at <= horizon,
                "{text:?} in {timezone} gave {at}, beyond the horizon {horizon}"
            );
            assert!(!describe(at, &ctx).is_empty(), "empty description of {at}");
        }
        Ok(None) => {}
        Err(error) => assert!(!error.to_string().is_empty(), "empty message for {error:?}"),
    }
    assert!(!describe(now, &ctx).is_empty());
    if let Some(start) = current_start {
        assert!(!describe(start, &ctx).is_empty());
    }
});
