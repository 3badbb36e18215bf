//! Reading a calendar Donna subscribes to (RFC 5545): from the file's text to its events in a
//! window, in one pure call (`read`).
//!
//! Layout: `components` (the text through the `icalendar` parser into VEVENTs and
//! VTIMEZONEs), `reading` (what goes in and comes out), `values` (DATE, DATE-TIME, DURATION), `zones` (TZID: IANA, Windows through
//! CLDR, the file's VTIMEZONE read by `observances`; wall time to instant across DST), `rule`
//! (the bounded recurrence search), `expand` (occurrences, overrides, all-day events).
//! Invariants: nothing here reads the clock, the network or a file (the text and the window
//! come in); an error never carries the file's text (it may hold private details).

mod components;
mod expand;
mod observances;
mod reading;
mod rule;
mod values;
mod zones;

pub use reading::{ReadError, Reading, Settings, Window};

/// The events of a calendar's text in `settings.window`.
pub fn read(text: &str, settings: &Settings) -> Result<Reading, ReadError> {
    let document = components::document(text)?;
    expand::expand(&document, settings)
}
