//! The sender's time zone, stored with the turn and said back with the time there.

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
