//! Opaque ids for the records Donna creates: a short kind prefix and 64 random bits in hex
//! ("tsk_3f9a0c1e5b7d2a44"). Channel-given ids (a Discord thread id) are used as they are.
//!
//! Also the one check of an id that comes from outside (a message's thread, user and message
//! ids, a chat id, a person's id in a path, every id of an import file): [`check`].
//! Invariant: an id Donna stores is not blank, at most [`MAX_ID_CHARS`] characters, and holds
//! no control character, so it can be written into a log line, a URL, a calendar feed or a
//! Discord custom id without starting a line or a field of its own.

use rand::Rng;

/// Longest id taken from outside, in characters (Discord's ids are 20 digits).
pub const MAX_ID_CHARS: usize = 200;

pub fn new_id(prefix: &str) -> String {
    format!("{prefix}_{:016x}", rand::thread_rng().gen::<u64>())
}

/// Why an id from outside was refused (said after the field's name: "thread_id must ...").
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    #[error("must not be empty")]
    Empty,
    #[error("must be at most {MAX_ID_CHARS} characters")]
    TooLong,
    #[error("must not contain control characters (line breaks, tabs, NUL)")]
    Control,
}

/// Checks an id from outside the process.
pub fn check(id: &str) -> Result<(), IdError> {
    if id.trim().is_empty() {
        return Err(IdError::Empty);
    }
    if id.chars().count() > MAX_ID_CHARS {
        return Err(IdError::TooLong);
    }
    if id.chars().any(char::is_control) {
        return Err(IdError::Control);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_from_outside_is_short_printable_and_not_blank() {
        // (id, verdict)
        let table: [(&str, Result<(), IdError>); 8] = [
            ("tsk_3f9a0c1e5b7d2a44", Ok(())),
            ("1234567890123456789", Ok(())),
            ("owner", Ok(())),
            ("", Err(IdError::Empty)),
            ("   ", Err(IdError::Empty)),
            ("tsk\r\nBEGIN:VEVENT", Err(IdError::Control)),
            ("a\u{0}b", Err(IdError::Control)),
            ("a\u{85}b", Err(IdError::Control)),
        ];
        for (id, verdict) in table {
            assert_eq!(check(id), verdict, "{id:?}");
        }
        assert_eq!(check(&"x".repeat(MAX_ID_CHARS)), Ok(()));
        assert_eq!(check(&"x".repeat(MAX_ID_CHARS + 1)), Err(IdError::TooLong));
        assert!(new_id("tsk").starts_with("tsk_") && check(&new_id("tsk")).is_ok());
    }
}
