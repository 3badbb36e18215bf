//! A unit of work the writer runs: a closure with its reply port, type-erased so one mailbox
//! carries every kind, and what SQLite ran into while running it.
//!
//! # Invariants
//! - A panicking unit answers with an error; it never takes the writer down.
//! - A unit's answer waits for the commit: it is handed back to send, not sent.

use std::panic::{catch_unwind, AssertUnwindSafe};

use actors::Reply;
use rusqlite::Connection;

use crate::store::error::StoreError;
use crate::store::read_pool::panic_text;

pub(super) type Deliver = Box<dyn FnOnce(Option<StoreError>) + Send>;

/// What SQLite ran into that the writer's health must show.
#[derive(Debug, Clone)]
pub(super) enum Trouble {
    /// The database file is damaged (SQLite's own words).
    Damaged(String),
    /// No space for a write (SQLite's own words).
    Full(String),
}

impl Trouble {
    pub(super) fn of(error: &StoreError) -> Option<Self> {
        if let Some(detail) = error.damage() {
            Some(Trouble::Damaged(detail))
        } else if error.is_disk_full() {
            Some(Trouble::Full(error.to_string()))
        } else {
            None
        }
    }

    /// Keeps the worse of what was noted and what was found (damage beats a full disk).
    pub(super) fn note(slot: &mut Option<Trouble>, found: Option<Trouble>) {
        if matches!(slot, Some(Trouble::Damaged(_))) {
            return;
        }
        if let Some(found) = found {
            *slot = Some(found);
        }
    }
}

/// A unit that ran: whether it succeeded, what it ran into, and how to answer once the commit
/// is known.
pub(super) struct Ran {
    pub(super) ok: bool,
    pub(super) trouble: Option<Trouble>,
    pub(super) deliver: Deliver,
}

/// A unit of work with its reply port, type-erased so one mailbox carries every kind.
pub(super) trait UnitOfWork: Send {
    /// Runs the work.
    fn run(self: Box<Self>, conn: &Connection) -> Ran;
    /// Answers without running (the transaction could not even begin).
    fn fail(self: Box<Self>, error: StoreError);
}

pub(super) struct Typed<T, F> {
    pub(super) work: F,
    pub(super) reply: Reply<Result<T, StoreError>>,
}

impl<T, F> UnitOfWork for Typed<T, F>
where
    T: Send + 'static,
    F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
{
    fn run(self: Box<Self>, conn: &Connection) -> Ran {
        let Typed { work, reply } = *self;
        let result = catch_unwind(AssertUnwindSafe(|| work(conn)))
            .unwrap_or_else(|payload| Err(StoreError::Panicked(panic_text(&*payload))));
        let ok = result.is_ok();
        let trouble = result.as_ref().err().and_then(Trouble::of);
        let deliver: Deliver = Box::new(move |commit_error| match commit_error {
            None => reply.send(result),
            Some(error) => reply.send(Err(error)),
        });
        Ran {
            ok,
            trouble,
            deliver,
        }
    }

    fn fail(self: Box<Self>, error: StoreError) {
        self.reply.send(Err(error));
    }
}
