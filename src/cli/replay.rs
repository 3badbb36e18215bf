//! `donna replay [--config FILE] THREAD MESSAGE_ID`: re-runs a stored turn with today's code,
//! every model call answered from the turn's journal, and prints where the new run differs.
//!
//! How: the database is copied with the online backup (`store::backup`, read-only, no lock)
//! into a temporary data dir; the copy is migrated and rewound to just before the turn's commit
//! (`conversation::turn_journal::rewind`: its journal and result removed, the memory rows from
//! its commit on deleted, so the prompts see what the turn saw); then the app starts on the copy
//! (its own lock, in the temporary dir) with a clock set to the time the turn decided at, no model
//! prober and no Discord, the recording registered for that message (`llm::journal::Replays`),
//! and the message goes through the turn again. The new journal is read back from the copy and
//! compared (`replay_diff`). The temporary dir is removed at the end.
//!
//! Invariants: nothing under the real data dir is written or locked; no model server is asked
//! (a call the recording does not have is answered as a model failure); tasks, plans and drafts
//! on the copy are as they are NOW, so a turn that changed tasks (its effects are already on the
//! copy) is replayed against that state, and the output says so.
//! Exit codes: 0 identical, 1 different, 2 errors (bad config, unknown thread or message, no
//! journal, the copy failing).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::replay_diff::{differences, show_result, Recorded};
use crate::app::{App, StartOptions};
use crate::clock::ManualClock;
use crate::config::{Env, LoadedConfig, ProcessEnv};
use crate::conversation::turn_journal::{self, StoredTurn};
use crate::store::{self, open_connection, Durability, DATABASE_FILE};

/// The replay's environment: no secrets at all (no Discord token, no API token, no model key:
/// nothing is sent anywhere). `TZ` is no secret: a config without `timezone` reads times in the
/// same machine zone as `donna run` does.
struct NoSecrets;

impl Env for NoSecrets {
    fn var(&self, name: &str) -> Option<String> {
        (name == "TZ").then(|| ProcessEnv.var(name)).flatten()
    }
}

/// A temporary directory removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        if let Err(error) = std::fs::remove_dir_all(&self.0) {
            tracing::warn!(%error, path = %self.0.display(), "could not remove the replay's copy");
        }
    }
}

/// Why a replay could not run (exit 2).
#[derive(Debug, thiserror::Error)]
enum ReplayError {
    #[error("config error: {0}")]
    Config(String),
    #[error("{0}")]
    Copy(String),
    #[error("thread {thread} has no message {message} (is the thread id right? the message id is the one `POST /api/messages` answered with)")]
    Unknown { thread: String, message: String },
    #[error("message {message} of thread {thread} has no journal: it called no model and no tool, or its journal was pruned (memory.retention)")]
    NoJournal { thread: String, message: String },
    #[error("message {message} of thread {thread} is not finished yet: nothing to compare with")]
    Unfinished { thread: String, message: String },
    #[error("the replayed turn failed: {0}")]
    Turn(String),
}

pub fn replay(config: Option<PathBuf>, thread: &str, message: &str) -> ExitCode {
    match run(config.as_deref(), thread, message) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(error) => {
            eprintln!("donna replay: {error}");
            ExitCode::from(2)
        }
    }
}

/// Whether the new run is identical to the recorded one.
fn run(config: Option<&Path>, thread: &str, message: &str) -> Result<bool, ReplayError> {
    let mut loaded =
        LoadedConfig::load(config).map_err(|error| ReplayError::Config(error.to_string()))?;
    let temp = TempDir(std::env::temp_dir().join(format!("donna-replay-{}", std::process::id())));
    // A leftover of a replay that died with this same process id.
    let _ = std::fs::remove_dir_all(&temp.0);
    let data_dir = temp.0.join("data");
    std::fs::create_dir_all(&data_dir)
        .map_err(|e| ReplayError::Copy(format!("cannot create {}: {e}", data_dir.display())))?;
    store::backup::backup(&loaded.data_dir(), &data_dir.join(DATABASE_FILE))
        .map_err(|e| ReplayError::Copy(e.to_string()))?;
    let database = store::prepare(&data_dir).map_err(|e| ReplayError::Copy(e.to_string()))?;
    let stored = rewind_copy(&database, thread, message)?;
    let recorded = Recorded::read(&stored).ok_or_else(|| ReplayError::Unfinished {
        thread: thread.into(),
        message: message.into(),
    })?;
    // The app on the copy: its own data dir, a loopback port it never opens, no secrets.
    loaded.config.data_dir = data_dir;
    loaded.config.http.bind = "127.0.0.1:0".into();
    let received = &stored.received_at;
    println!(
        "replaying message {message} of thread {thread}, received {received} from {}: {:?}",
        stored.inbound.user_id, stored.inbound.text
    );
    if recorded.result["actions"]
        .as_array()
        .is_some_and(|actions| !actions.is_empty())
    {
        println!(
            "note: the recorded turn ran or proposed actions; the copy holds the tasks as they \
             are now (with that turn's changes), so the new run starts from that state"
        );
    }
    let (result, journal) = actix_rt::System::new().block_on(run_turn(&loaded, &stored))?;
    let result = serde_json::to_value(&result).unwrap_or(Value::Null);
    println!("recorded: {}", show_result(&recorded.result));
    println!("now:      {}", show_result(&result));
    let found = differences(&recorded, &result, &journal);
    if found.is_empty() {
        println!("no difference ({} calls replayed)", stored.entries.len());
        return Ok(true);
    }
    for difference in &found {
        println!("difference: {difference}");
    }
    println!("{} difference(s)", found.len());
    Ok(false)
}

/// Reads the stored turn from the copy and rewinds the copy to just before it.
fn rewind_copy(database: &Path, thread: &str, message: &str) -> Result<StoredTurn, ReplayError> {
    let conn = open_connection(database, false, Durability::Full)
        .map_err(|e| ReplayError::Copy(e.to_string()))?;
    let stored = turn_journal::stored_turn(&conn, thread, message)
        .map_err(|e| ReplayError::Copy(e.to_string()))?
        .ok_or_else(|| ReplayError::Unknown {
            thread: thread.into(),
            message: message.into(),
        })?;
    if stored.entries.is_empty() {
        return Err(ReplayError::NoJournal {
            thread: thread.into(),
            message: message.into(),
        });
    }
    turn_journal::rewind(&conn, &stored).map_err(|e| ReplayError::Copy(e.to_string()))?;
    Ok(stored)
}

/// Starts the app on the copy, runs the message's turn again from its recording, and returns
/// the new result with the new journal.
async fn run_turn(
    loaded: &LoadedConfig,
    stored: &StoredTurn,
) -> Result<
    (
        crate::turn::result::TurnResult,
        Vec<turn_journal::JournalEntry>,
    ),
    ReplayError,
> {
    let options = StartOptions {
        // The time the turn decided at: what its prompts said "now" was.
        clock: Arc::new(ManualClock::new(
            stored.decided_at.unwrap_or(stored.received_at),
        )),
        ..StartOptions::default()
    };
    let app = App::start(loaded, &NoSecrets, options)
        .map_err(|e| ReplayError::Copy(format!("cannot start on the copy: {e}")))?;
    // Before the first await: the prober never runs, so no model server is needed.
    app.stop_probing_the_model();
    let inbound = stored.inbound.clone();
    app.replays.register(
        &inbound.thread_id,
        &inbound.message_id,
        stored.entries.clone(),
    );
    let (thread, message) = (inbound.thread_id.clone(), inbound.message_id.clone());
    let outcome = app.intake.route(inbound, false).await;
    let journal = app
        .store
        .read(move |conn| turn_journal::read(conn, &thread, &message))
        .await;
    app.shutdown(Duration::from_secs(5)).await;
    let result = outcome.map_err(|e| ReplayError::Turn(e.to_string()))?;
    let journal = journal.map_err(|e| ReplayError::Turn(e.to_string()))?;
    Ok((result, journal))
}
