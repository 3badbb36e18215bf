//! The read pool: read-only connections used on the blocking pool, never on an async thread.
//!
//! Invariant: a connection is used by one closure at a time; at most `max_idle` are kept.

use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;

use parking_lot::Mutex;
use rusqlite::Connection;

use super::connection::{open_connection, Durability};
use super::error::StoreError;

#[derive(Debug)]
pub struct ReadPool {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
    max_idle: usize,
    /// Reads running at once. Bounded to the pool's size so a burst reuses warm connections
    /// (a fresh one costs ~20x a reused one: SQLite loads the schema) instead of fanning out
    /// to hundreds of blocking threads each opening its own.
    slots: tokio::sync::Semaphore,
}

impl ReadPool {
    pub fn new(path: PathBuf, max_idle: usize) -> Arc<Self> {
        let size = max_idle.max(1);
        Arc::new(Self {
            path,
            idle: Mutex::new(Vec::new()),
            max_idle: size,
            slots: tokio::sync::Semaphore::new(size),
        })
    }

    fn take(&self) -> Result<Connection, StoreError> {
        if let Some(conn) = self.idle.lock().pop() {
            return Ok(conn);
        }
        open_connection(&self.path, true, Durability::Full)
    }

    fn give_back(&self, conn: Connection) {
        let mut idle = self.idle.lock();
        if idle.len() < self.max_idle {
            idle.push(conn);
        }
    }

    /// Runs `work` with a read connection on the blocking pool.
    pub fn run<T: Send + 'static>(
        self: &Arc<Self>,
        work: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> impl Future<Output = Result<T, StoreError>> {
        let pool = self.clone();
        async move {
            let _slot = pool.slots.acquire().await?;
            let pool = pool.clone();
            let job = tokio::task::spawn_blocking(move || {
                let conn = pool.take()?;
                let result = catch_unwind(AssertUnwindSafe(|| work(&conn)));
                pool.give_back(conn);
                result.unwrap_or_else(|payload| Err(StoreError::Panicked(panic_text(&*payload))))
            });
            job.await?
        }
    }

    /// Runs `work` with a read connection on the current thread (for blocking contexts only).
    pub fn run_blocking<T>(
        &self,
        work: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let conn = self.take()?;
        let result = work(&conn);
        self.give_back(conn);
        result
    }
}

pub(crate) fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&'static str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "panic".to_string()
    }
}
