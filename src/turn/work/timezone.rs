//! The sender's time zone, stored with the turn and said back with the time there; their quiet
//! hours, stored the way `PUT /api/people/{user_id}` stores them and said back in their zone.

use crate::store::StoreError;

use super::super::result::TurnPath;
use super::answered::{Answered, At};

pub fn commit(at: &At<'_>, timezone: chrono_tz::Tz) -> Result<Answered, StoreError> {
    crate::people::repo::set(at.conn, &at.inbound.user_id, timezone, at.now)?;
    Ok(Answered::new(
        TurnPath::Chat,
        crate::people::now_set(timezone, at.now),
    ))
}

pub fn commit_quiet_hours(
    at: &At<'_>,
    hours: Option<crate::config::QuietHours>,
    shown: crate::config::QuietHours,
    zone: chrono_tz::Tz,
) -> Result<Answered, StoreError> {
    crate::people::repo::set_quiet_hours(at.conn, &at.inbound.user_id, hours, at.now)?;
    Ok(Answered::new(
        TurnPath::Chat,
        crate::people::quiet_hours_set(shown, hours.is_none(), zone),
    ))
}
