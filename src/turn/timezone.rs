//! The time-zone room: a free-text message that sets or asks for the sender's own time zone
//! ("my time zone is Europe/Berlin", "I'm in Tokyo now", "what's my time zone?"), read by
//! `people::sentence` without a model.
//!
//! A zone found is set in the turn's commit (`Work::SetTimezone`) and said back with the time
//! there; an unknown name in a plain command is answered with the nearest names (`clarify`,
//! nothing changes); "I'm in a meeting" and other sentences that only look like one go on to
//! the rest of the free-text room.
//! The same room reads the sender's quiet hours ("quiet hours 23:00 to 7:00", "don't nudge me
//! between 10pm and 7am", "use the default quiet hours", "quiet hours?": `quiet_sentence`),
//! stored by the commit (`Work::SetQuietHours`) as `PUT /api/people/{user_id}` stores them.
//!
//! Reaches (of `TurnDeps`): the settings, the store.
//!
//! Invariant: nothing here writes; the zone is stored by the commit, with the turn.

use chrono::{DateTime, Utc};

use crate::people::quiet_sentence::QuietSentence;
use crate::people::sentence::ZoneSentence;
use crate::people::zones::{self, Place, ZoneMatch};
use crate::people::{self, repo};

use super::apply::Work;
use super::deps::TurnDeps;
use super::error::TurnError;
use super::result::TurnPath;
use super::Inbound;

/// The work of a quiet-hours sentence, or None when the message is not one: set or reset
/// in the turn's commit, or the current ones said (theirs, else the config's).
pub(super) async fn quiet_sentence(
    deps: &TurnDeps,
    inbound: &Inbound,
    quiet: &QuietSentence,
) -> Result<Option<Work>, TurnError> {
    let zone = deps.settings.timezone;
    let default = deps.settings.quiet_hours;
    Ok(match *quiet {
        QuietSentence::Nothing => None,
        QuietSentence::Set(hours) => Some(Work::SetQuietHours {
            hours: Some(hours),
            shown: hours,
            zone,
        }),
        QuietSentence::Reset => Some(Work::SetQuietHours {
            hours: None,
            shown: default,
            zone,
        }),
        QuietSentence::Unclear => Some(Work::Say {
            path: TurnPath::Clarify,
            text: people::WHICH_QUIET_HOURS.into(),
        }),
        QuietSentence::Ask => {
            let user = inbound.user_id.clone();
            let own = deps
                .store
                .read(move |conn| repo::get(conn, &user))
                .await?
                .and_then(|person| person.quiet_hours);
            Some(Work::Say {
                path: TurnPath::Answer,
                text: people::quiet_hours_now(own.unwrap_or(default), own.is_none(), zone),
            })
        }
    })
}

/// The work of a time-zone sentence, or None when the message is not one.
pub(super) async fn timezone_sentence(
    deps: &TurnDeps,
    inbound: &Inbound,
    zone: &ZoneSentence,
    now: DateTime<Utc>,
) -> Result<Option<Work>, TurnError> {
    let say = |path, text: String| Some(Work::Say { path, text });
    Ok(match zone.clone() {
        ZoneSentence::Nothing => None,
        ZoneSentence::SetWithoutName => say(TurnPath::Clarify, people::WHICH_ZONE.into()),
        ZoneSentence::Ask => {
            let user = inbound.user_id.clone();
            let chosen = deps
                .store
                .read(move |conn| repo::get(conn, &user))
                .await?
                .is_some_and(|person| person.timezone.is_some());
            say(
                TurnPath::Answer,
                people::currently(deps.settings.timezone, chosen, now),
            )
        }
        ZoneSentence::Set {
            name,
            explicit: true,
        } => match zones::find(&name) {
            ZoneMatch::Found(timezone) => Some(Work::SetTimezone(timezone)),
            ZoneMatch::Unknown { suggestions } => {
                say(TurnPath::Clarify, people::unknown_zone(&name, &suggestions))
            }
        },
        // "I'm in Tokyo now" sets it; "I'm in Victoria now" asks which; "I'm in a meeting",
        // "I'm in the south" or "I'm in PT" names no place, so it is not about time zones.
        ZoneSentence::Set {
            name,
            explicit: false,
        } => match zones::find_place(&name) {
            Some(Place::Zone(timezone)) => Some(Work::SetTimezone(timezone)),
            Some(Place::OneOf(zones)) => say(TurnPath::Clarify, people::which_place(&name, &zones)),
            None => None,
        },
    })
}
