//! A value that can be replaced while the process runs (hot reload, docs/contract.md "Chat engine": the
//! chat config, the chat actions file and the reply rule files): readers take the version in
//! force with [`Live::get`] and keep it for as long as they use it, so a turn or a call in
//! flight finishes with the version it started with; the reloader swaps in a checked new
//! version with [`Live::set`].
//!
//! Invariant: only a value that passed the same checks as at startup is ever set (the reloader
//! in `app::reload` is the one writer); clones share the slot.

use std::sync::Arc;

use parking_lot::RwLock;

#[derive(Debug)]
pub struct Live<T>(Arc<RwLock<Arc<T>>>);

impl<T> Clone for Live<T> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

impl<T> Live<T> {
    pub fn new(value: T) -> Self {
        Self(Arc::new(RwLock::new(Arc::new(value))))
    }

    /// The version in force now.
    pub fn get(&self) -> Arc<T> {
        self.0.read().clone()
    }

    /// Replaces the version in force (readers that already hold one keep it).
    pub fn set(&self, value: T) {
        *self.0.write() = Arc::new(value);
    }
}
