//! The ThreadMemory actor: retention on a schedule, and memory reads.
//!
//! Owns: the retention prune (every `memory.prune_interval`, deleting messages older than
//! `memory.retention`, closed chat sessions with their summaries, and the turns' journals). Takes: `Prune` (also its own timer), `Recent` (a thread's last N
//! messages, oldest first; the model's context window and the API's history).
//! Invariants: the rows themselves are written by the turn's transaction; thread records (and
//! so a thread's task) survive the prune.

use std::time::Duration;

use actors::{Behaviour, CellCtx, Handled, Reply};

use crate::clock::SharedClock;
use crate::conversation::chat_sessions;
use crate::conversation::memory::{self, MemoryEntry};
use crate::conversation::turn_journal;
use crate::store::{Store, StoreError};

pub enum MemoryMsg {
    Prune {
        reply: Option<Reply<Result<usize, StoreError>>>,
    },
    Recent {
        thread_id: String,
        limit: Option<usize>,
        reply: Reply<Result<Vec<MemoryEntry>, StoreError>>,
    },
}

pub struct ThreadMemory {
    store: Store,
    clock: SharedClock,
    retention: Duration,
    prune_interval: Duration,
}

impl ThreadMemory {
    pub fn new(
        store: Store,
        clock: SharedClock,
        retention: Duration,
        prune_interval: Duration,
    ) -> Self {
        Self {
            store,
            clock,
            retention,
            prune_interval,
        }
    }
}

impl Behaviour for ThreadMemory {
    type Msg = MemoryMsg;

    fn started(&mut self, ctx: &mut CellCtx<Self>) {
        ctx.every(self.prune_interval, || MemoryMsg::Prune { reply: None });
    }

    fn handle(&mut self, message: MemoryMsg, _ctx: &mut CellCtx<Self>) -> Handled {
        match message {
            MemoryMsg::Prune { reply } => {
                let retention =
                    chrono::Duration::from_std(self.retention).unwrap_or(chrono::Duration::MAX);
                let cutoff = self
                    .clock
                    .now()
                    .checked_sub_signed(retention)
                    .unwrap_or_default();
                // Closed chat sessions' summaries go with the messages they summarise.
                let pruned = self.store.write(move |conn| {
                    let sessions = chat_sessions::prune(conn, cutoff)?;
                    if sessions > 0 {
                        tracing::debug!(sessions, "pruned old chat session summaries");
                    }
                    let count = memory::prune(conn, cutoff)?;
                    // The turns' journals go with the memory rows, in the same write.
                    turn_journal::prune(conn, cutoff)?;
                    Ok(count)
                });
                Handled::wait(async move {
                    let result = pruned.await;
                    match &result {
                        Ok(0) => {}
                        Ok(count) => tracing::info!(count, "pruned old thread memory"),
                        Err(error) => tracing::warn!(%error, "memory retention prune failed"),
                    }
                    if let Some(reply) = reply {
                        reply.send(result);
                    }
                })
            }
            MemoryMsg::Recent {
                thread_id,
                limit,
                reply,
            } => {
                let read = self
                    .store
                    .read(move |conn| memory::recent(conn, &thread_id, limit));
                actix_rt::spawn(async move { reply.send(read.await) });
                Handled::Done
            }
        }
    }
}
