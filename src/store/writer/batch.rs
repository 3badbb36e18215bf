//! One batch of units of work in one transaction: each unit in a savepoint of its own, so a
//! failing unit is rolled back alone; what the batch ran into (a damaged file, a full disk)
//! and every unit's answer, returned unsent.
//!
//! # Invariants
//! - No unit hears "saved" before the transaction holding it committed.
//! - When SQLite rolls the whole transaction back, or the file is damaged, every unit of the
//!   batch hears it; nothing is reported as saved.

use std::sync::Arc;

use rusqlite::Transaction;

use super::unit::{Deliver, Trouble, UnitOfWork};
use crate::store::error::StoreError;

/// What a batch came to, for the writer's health.
pub(super) struct Batch {
    pub(super) trouble: Option<Trouble>,
    /// It committed at least one change.
    pub(super) wrote: bool,
    /// Every unit's answer, to send once health shows what the batch ran into.
    pub(super) answers: Vec<Answer>,
}

/// One unit's answer, ready to send.
pub(super) type Answer = Box<dyn FnOnce() + Send>;

/// The transaction could not even begin: every unit hears why, none runs.
pub(super) fn cannot_begin(error: rusqlite::Error, units: Vec<Box<dyn UnitOfWork>>) -> Batch {
    let cause = Arc::new(error);
    let mut answers: Vec<Answer> = Vec::with_capacity(units.len());
    fail_all(&mut answers, Vec::new(), units, || StoreError::Batch {
        what: "cannot begin",
        source: cause.clone(),
    });
    let error = StoreError::Batch {
        what: "cannot begin",
        source: cause,
    };
    Batch {
        trouble: Trouble::of(&error),
        wrote: false,
        answers,
    }
}

/// A batch under way: what it ran into, the answers ready to send, and the answers of the
/// units kept so far, which wait for the transaction's commit.
pub(super) struct Running {
    pub(super) trouble: Option<Trouble>,
    pub(super) answers: Vec<Answer>,
    pub(super) kept: Vec<Deliver>,
}

/// How one unit ended in its savepoint.
pub(super) enum UnitEnd {
    /// Kept, or rolled back to its savepoint: the batch goes on.
    Settled,
    /// SQLite rolled the whole transaction back; the unit's answer is still to send.
    TransactionLost(Deliver),
}

impl Running {
    /// Runs one unit in a savepoint of its own: kept when it worked, rolled back to the
    /// savepoint when it failed, so one failing unit does not undo the others.
    pub(super) fn run(
        &mut self,
        transaction: &mut Transaction,
        unit: Box<dyn UnitOfWork>,
    ) -> UnitEnd {
        let mut savepoint = match transaction.savepoint() {
            Ok(savepoint) => savepoint,
            Err(error) => {
                let error = StoreError::from(error);
                Trouble::note(&mut self.trouble, Trouble::of(&error));
                self.answers.push(Box::new(move || unit.fail(error)));
                return UnitEnd::Settled;
            }
        };
        let ran = unit.run(&savepoint);
        Trouble::note(&mut self.trouble, ran.trouble.clone());
        if !ran.ok && savepoint.is_autocommit() {
            return UnitEnd::TransactionLost(ran.deliver);
        }
        let outcome = if ran.ok {
            savepoint.commit()
        } else {
            savepoint.rollback().and_then(|()| savepoint.finish())
        };
        match outcome {
            Ok(()) => self.kept.push(ran.deliver),
            Err(error) => {
                let error = StoreError::from(error);
                Trouble::note(&mut self.trouble, Trouble::of(&error));
                let deliver = ran.deliver;
                self.answers.push(Box::new(move || deliver(Some(error))));
            }
        }
        UnitEnd::Settled
    }

    /// The batch wrote nothing: the units kept and the units not run all hear `why`.
    pub(super) fn fail_rest(
        mut self,
        queued: impl IntoIterator<Item = Box<dyn UnitOfWork>>,
        why: impl Fn() -> StoreError,
    ) -> Batch {
        fail_all(&mut self.answers, self.kept, queued, why);
        Batch {
            trouble: self.trouble,
            wrote: false,
            answers: self.answers,
        }
    }

    /// The transaction's commit came to `commit_error`: the units kept hear their own result,
    /// or the commit's failure.
    pub(super) fn committed(
        mut self,
        commit_error: Option<Arc<rusqlite::Error>>,
        wrote: bool,
    ) -> Batch {
        let failed = |cause: &Arc<rusqlite::Error>| StoreError::Batch {
            what: "commit failed",
            source: cause.clone(),
        };
        if let Some(cause) = &commit_error {
            Trouble::note(&mut self.trouble, Trouble::of(&failed(cause)));
        }
        for deliver in self.kept {
            let error = commit_error.as_ref().map(failed);
            self.answers.push(Box::new(move || deliver(error)));
        }
        Batch {
            trouble: self.trouble,
            wrote,
            answers: self.answers,
        }
    }
}

/// Fails every unit of a batch that did not make it: those already delivered into the
/// transaction (their savepoint committed, the transaction not) and those still queued, each
/// with its own copy of the error `why` makes.
fn fail_all(
    answers: &mut Vec<Answer>,
    delivered: Vec<Deliver>,
    queued: impl IntoIterator<Item = Box<dyn UnitOfWork>>,
    why: impl Fn() -> StoreError,
) {
    for deliver in delivered {
        let error = why();
        answers.push(Box::new(move || deliver(Some(error))));
    }
    for unit in queued {
        let error = why();
        answers.push(Box::new(move || unit.fail(error)));
    }
}
