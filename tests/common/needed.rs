//! What a test needs is there, or the test stops at that line: an answer's field, an item of a
//! list, a row, a file. Never a default ("", 0, [], an epoch) standing in for it, so that a test
//! goes on and asserts something about nothing. Each panic names the line that needed it
//! (`#[track_caller]`) and what stood in the place instead.

use std::fmt::Display;

use serde_json::Value;

/// The shapes a test expects at a place of an answer.
pub trait Fields {
    /// The string here; a panic showing what is here instead (absent: `null`).
    fn text(&self) -> &str;
    /// The items of the array here; a panic showing what is here instead.
    fn items(&self) -> &[Value];
}

impl Fields for Value {
    #[track_caller]
    fn text(&self) -> &str {
        // A `match`, not a closure: the panic then names the caller's line.
        match self.as_str() {
            Some(text) => text,
            None => panic!("expected a string, found {self}"),
        }
    }

    #[track_caller]
    fn items(&self) -> &[Value] {
        match self.as_array() {
            Some(items) => items,
            None => panic!("expected an array, found {self}"),
        }
    }
}

/// A value the test cannot go on without: `Some` / `Ok`, or a panic at the caller's line.
pub trait Needed<T> {
    fn needed(self) -> T;
}

impl<T> Needed<T> for Option<T> {
    #[track_caller]
    fn needed(self) -> T {
        match self {
            Some(value) => value,
            None => panic!("a value the test needs is missing"),
        }
    }
}

impl<T, E: Display> Needed<T> for Result<T, E> {
    #[track_caller]
    fn needed(self) -> T {
        match self {
            Ok(value) => value,
            Err(error) => panic!("a value the test needs failed: {error}"),
        }
    }
}
