//! People: the time zone each person's times are read and shown in, and the quiet hours their
//! nudges are held in (`day`: their own day, in their own zone).
//!
//! Owns: the `person` table's SQL (`repo`), IANA zone names matched from people's words and
//! the nearest names to an unknown one (`zones`), and the sentences that set or ask for one
//! ("my time zone is Europe/Berlin", "I moved to London": `sentence`), and the ones that set,
//! reset or ask for their quiet hours ("quiet hours 23:00 to 7:00", "don't nudge me between
//! 10pm and 7am": `quiet_sentence`).
//! A person is the id they write with (the local API's `user_id`, the Discord user id,
//! `console`); a person who never set a zone has the config's `timezone` (`zone_of`), one who
//! never set quiet hours the config's `nudges.quiet_hours` (`day::day_of`).
//! Invariants: only a zone chrono-tz knows is stored; nothing here reads the clock (`now` comes
//! in) or the config (the default comes in).

pub mod day;
mod person;
mod place_names;
pub mod quiet_sentence;
pub mod repo;
pub mod sentence;
pub mod zones;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use rusqlite::Connection;

use crate::config::QuietHours;
use crate::store::StoreError;
pub use day::{day_of, work_day_of, Days, OwnDay, WorkDay};
pub use person::Person;

/// The zone `user_id`'s times are read and shown in: theirs, else `default` (the config's).
pub fn zone_of(conn: &Connection, user_id: Option<&str>, default: Tz) -> Result<Tz, StoreError> {
    match user_id {
        Some(user_id) => Ok(repo::get(conn, user_id)?
            .and_then(|person| person.timezone)
            .unwrap_or(default)),
        None => Ok(default),
    }
}

/// Donna's answer once a zone is set: "Your time zone is now Europe/Berlin; it's 14:05 there."
pub fn now_set(timezone: Tz, now: DateTime<Utc>) -> String {
    format!(
        "Your time zone is now {}; it's {} there.",
        timezone.name(),
        now.with_timezone(&timezone).format("%H:%M")
    )
}

/// Donna's answer to "what's my time zone?".
pub fn currently(timezone: Tz, set_by_person: bool, now: DateTime<Utc>) -> String {
    let how = if set_by_person {
        ""
    } else {
        " (my default; tell me yours with \"my time zone is Europe/Berlin\")"
    };
    format!(
        "Your time zone is {}{how}; it's {} there.",
        timezone.name(),
        now.with_timezone(&timezone).format("%H:%M")
    )
}

/// Why a name is no zone, naming the nearest ones: told to the person and to an API caller.
pub fn unknown_zone(name: &str, suggestions: &[&str]) -> String {
    let nearest = match suggestions {
        [] => String::new(),
        [one] => format!(" Did you mean {one}?"),
        [init @ .., last] => format!(" Did you mean {} or {last}?", init.join(", ")),
    };
    format!(
        "I don't know the time zone {name:?}.{nearest} Tell me a city or an IANA name, like \
         \"my time zone is Europe/Berlin\"."
    )
}

/// Donna's question when a place is in more than one zone ("Victoria"): nothing changes.
pub fn which_place(name: &str, zones: &[&str]) -> String {
    let choices = match zones {
        [init @ .., last] if !init.is_empty() => format!("{} or {last}", init.join(", ")),
        _ => zones.join(""),
    };
    format!(
        "{name:?} is in more than one time zone: did you mean {choices}? Tell me with \"my time \
         zone is ...\"."
    )
}

/// Donna's question when the name is missing ("set my time zone").
pub const WHICH_ZONE: &str =
    "Which time zone? Tell me a city or an IANA name, like \"my time zone is Europe/Berlin\".";

/// Donna's answer once quiet hours are set (`default`: given back to the config's).
pub fn quiet_hours_set(hours: QuietHours, default: bool, zone: Tz) -> String {
    let how = if default {
        "back to the default, "
    } else {
        "now "
    };
    format!(
        "Your quiet hours are {how}{} ({} time): I'll hold nudges until they end, except \
         reminders at a time you stated.",
        hours,
        zone.name()
    )
}

/// Donna's answer to "what are my quiet hours?".
pub fn quiet_hours_now(hours: QuietHours, default: bool, zone: Tz) -> String {
    let how = if default {
        " (my default; set yours with \"quiet hours 23:00 to 7:00\")"
    } else {
        ""
    };
    format!("Your quiet hours are {hours} ({} time){how}.", zone.name())
}

/// Donna's question when she cannot read the hours ("set my quiet hours").
pub const WHICH_QUIET_HOURS: &str =
    "Which hours should be quiet? Say it like \"quiet hours 23:00 to 7:00\".";
