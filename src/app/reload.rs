//! Hot reload (docs/contract.md "Chat engine"): the chat
//! config (`chat.*`), the chat actions file and the reply rule files (intents, actions) are read
//! again when one of them changes (checked every [`POLL_INTERVAL`]) and on SIGHUP
//! (`cli::run`).
//!
//! An edit is checked exactly like at startup: the whole config file parsed and validated (the
//! process environment for the keys that read it), the three rule files compiled and checked
//! against each other, and the model's classifier prompt rebuilt from the new actions. Only a
//! version that passes all of it is put in force, as a whole ([`Lives`], each a
//! `crate::live::Live` its readers take once per turn or call, so a turn in flight finishes
//! with the version it started with). A refused edit is logged (ERROR, with the key path) and
//! shown in /health (`config.error`) and the previous version stays; the next good edit clears
//! it. Keys other than `chat.*` and the rule files' paths need a restart: a changed one is
//! named in a WARN and not applied.
//!
//! Files are read with `config::read_text` (regular files of at most 1 MiB, opened without
//! blocking), and every reload runs on the blocking pool ([`poll`], [`reload_off_runtime`]),
//! never on the runtime's threads: a rule file that is a FIFO or /dev/zero is refused, and no
//! reload can hold up a turn or a stop. A refusal names the key path and the reason, never the
//! file's contents (`config::parse_yaml`).
//!
//! Invariants: this is the only writer of the `Live` values; one reload at a time.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use chrono::{DateTime, Utc};
use parking_lot::Mutex;
use serde_json::Value;

use super::rules::Rules;
use crate::actions::ActionRegistry;
use crate::chat_actions::ChatActions;
use crate::clock::SharedClock;
use crate::config::{ChatConfig, Config, LoadedConfig, ProcessEnv};
use crate::live::Live;
use crate::llm::classify::Classifier;
use crate::llm::client::LlmClient;
use crate::replies::matcher::FastPath;

/// How often the watched files are looked at.
pub const POLL_INTERVAL: Duration = Duration::from_secs(2);

/// Everything a reload can replace, as one set.
#[derive(Debug, Clone)]
pub struct Lives {
    pub matcher: Live<FastPath>,
    pub registry: Live<ActionRegistry>,
    pub chat_actions: Live<ChatActions>,
    pub chat: Live<ChatConfig>,
    /// The classifier and the client to build a new one with (None without a model).
    pub classifier: Option<(Live<Classifier>, LlmClient)>,
}

impl Lives {
    /// What a hot reload may replace, as first loaded: each read once per turn or call.
    pub fn new(rules: Rules, config: &Config, models: Option<&super::ModelClients>) -> Self {
        Self {
            matcher: Live::new(FastPath::new(&rules.intents)),
            registry: Live::new(rules.actions),
            chat_actions: Live::new(rules.chat_actions),
            chat: Live::new(config.chat.clone()),
            classifier: models.map(|models| (models.classifier(), models.client().clone())),
        }
    }

    /// What the prefix of every model call is made of: the lives it reads at each call.
    pub fn system_source(&self, escalation: bool) -> crate::llm::system_prompt::SystemSource {
        crate::llm::system_prompt::SystemSource {
            chat: self.chat.clone(),
            chat_actions: self.chat_actions.clone(),
            reply_actions: self.registry.clone(),
            escalation,
        }
    }
}

/// What /health shows of the config: when the version in force was loaded, and why the last
/// edit was refused (None once a good one is in force).
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigStatus {
    pub loaded_at: DateTime<Utc>,
    pub error: Option<String>,
}

/// A watched file's modification time and length (None: not there).
type Stamp = Option<(SystemTime, u64)>;

#[derive(Debug)]
struct Watched {
    /// The config file (None: `donna` runs on the defaults, nothing to watch).
    path: Option<PathBuf>,
    /// The config in force: what a new version is compared with.
    config: Config,
    stamps: Vec<(PathBuf, Stamp)>,
}

#[derive(Debug)]
pub struct Reloader {
    /// Held for a whole reload: the poll and SIGHUP never interleave two.
    reloading: Mutex<()>,
    lives: Lives,
    clock: SharedClock,
    watched: Mutex<Watched>,
    status: Mutex<ConfigStatus>,
}

fn stamp(path: &Path) -> Stamp {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

/// The files a config names: itself and the rule files it sets (shipped copies are not
/// watched: they cannot change).
fn files_of(path: &Path, loaded: &LoadedConfig) -> Vec<PathBuf> {
    let config = &loaded.config;
    std::iter::once(path.to_path_buf())
        .chain(
            [
                &config.intents_file,
                &config.actions_file,
                &config.chat_actions_file,
            ]
            .into_iter()
            .flatten()
            .map(|file| loaded.resolve(file)),
        )
        .collect()
}

/// The keys (up to two levels) whose values differ, other than the ones a reload applies.
fn needs_restart(old: &Config, new: &Config) -> Vec<String> {
    const RELOADED: [&str; 4] = ["chat", "intents_file", "actions_file", "chat_actions_file"];
    let (Ok(Value::Object(old)), Ok(Value::Object(new))) =
        (serde_json::to_value(old), serde_json::to_value(new))
    else {
        return Vec::new();
    };
    let mut changed = Vec::new();
    for (key, value) in &new {
        if RELOADED.contains(&key.as_str()) || old.get(key) == Some(value) {
            continue;
        }
        match (old.get(key), value) {
            (Some(Value::Object(before)), Value::Object(after)) => {
                for (inner, value) in after {
                    if before.get(inner) != Some(value) {
                        changed.push(format!("{key}.{inner}"));
                    }
                }
            }
            _ => changed.push(key.clone()),
        }
    }
    changed
}

impl Reloader {
    pub fn new(lives: Lives, config: Config, clock: SharedClock) -> Self {
        let status = ConfigStatus {
            loaded_at: clock.now(),
            error: None,
        };
        Self {
            reloading: Mutex::new(()),
            lives,
            clock,
            watched: Mutex::new(Watched {
                path: None,
                config,
                stamps: Vec::new(),
            }),
            status: Mutex::new(status),
        }
    }

    pub fn status(&self) -> ConfigStatus {
        self.status.lock().clone()
    }

    /// The chat config in force.
    pub fn chat(&self) -> Arc<crate::config::ChatConfig> {
        self.lives.chat.get()
    }

    /// Starts watching `path` (the config file `donna` was started with) from its state now.
    pub fn watch(&self, path: &Path) {
        let mut watched = self.watched.lock();
        watched.path = Some(path.to_path_buf());
        watched.stamps = match LoadedConfig::load(Some(path)) {
            Ok(loaded) => files_of(path, &loaded)
                .into_iter()
                .map(|file| {
                    let now = stamp(&file);
                    (file, now)
                })
                .collect(),
            Err(_) => vec![(path.to_path_buf(), stamp(path))],
        };
    }

    /// Reloads when a watched file changed since the last look.
    pub fn check(&self) {
        let changed = {
            let watched = self.watched.lock();
            watched
                .stamps
                .iter()
                .any(|(file, before)| stamp(file) != *before)
        };
        if changed {
            self.reload();
        }
    }

    /// Reads the watched config again now (SIGHUP), changed or not.
    pub fn reload(&self) {
        let Some(path) = self.watched.lock().path.clone() else {
            tracing::info!("no config file to reload (running on the defaults)");
            return;
        };
        self.reload_from(&path);
    }

    /// Reads `path` and its rule files, checks them like at startup, and puts them in force,
    /// or refuses them (logged, /health). Also what `watch` looks at from now on. Blocking
    /// (file reads): off the runtime's threads, see [`reload_off_runtime`].
    pub fn reload_from(&self, path: &Path) {
        let _one_at_a_time = self.reloading.lock();
        let outcome = self.load(path);
        let mut watched = self.watched.lock();
        watched.path = Some(path.to_path_buf());
        match outcome {
            Ok((loaded, rules, classifier)) => {
                let restart = needs_restart(&watched.config, &loaded.config);
                if !restart.is_empty() {
                    tracing::warn!(
                        keys = %restart.join(", "),
                        "config changed in keys that need a restart; not applied"
                    );
                }
                self.lives.matcher.set(FastPath::new(&rules.intents));
                self.lives.registry.set(rules.actions);
                self.lives.chat_actions.set(rules.chat_actions);
                self.lives.chat.set(loaded.config.chat.clone());
                if let (Some((live, _)), Some(classifier)) = (&self.lives.classifier, classifier) {
                    live.set(classifier);
                }
                watched.config.chat = loaded.config.chat.clone();
                watched.config.intents_file = loaded.config.intents_file.clone();
                watched.config.actions_file = loaded.config.actions_file.clone();
                watched.config.chat_actions_file = loaded.config.chat_actions_file.clone();
                watched.stamps = files_of(path, &loaded)
                    .into_iter()
                    .map(|file| {
                        let now = stamp(&file);
                        (file, now)
                    })
                    .collect();
                *self.status.lock() = ConfigStatus {
                    loaded_at: self.clock.now(),
                    error: None,
                };
                tracing::info!(path = %path.display(), "config reloaded");
            }
            Err(error) => {
                tracing::error!(%error, path = %path.display(), "config edit refused; the previous version stays in force");
                // Looked at again only when it changes again.
                watched.stamps = watched
                    .stamps
                    .iter()
                    .map(|(file, _)| (file.clone(), stamp(file)))
                    .collect();
                if !watched.stamps.iter().any(|(file, _)| file == path) {
                    watched.stamps.push((path.to_path_buf(), stamp(path)));
                }
                self.status.lock().error = Some(error);
            }
        }
    }

    /// The checks of startup, on the files as they are now.
    fn load(&self, path: &Path) -> Result<(LoadedConfig, Rules, Option<Classifier>), String> {
        let loaded =
            LoadedConfig::load(Some(path)).map_err(|error| format!("config error: {error}"))?;
        loaded
            .config
            .validate(&ProcessEnv)
            .map_err(|error| format!("config error: {error}"))?;
        let rules = Rules::load(&loaded).map_err(|error| error.to_string())?;
        let classifier = match &self.lives.classifier {
            Some((_, client)) => Some(
                Classifier::new(client.clone(), &rules.actions)
                    .map_err(|error| format!("prompts: {error}"))?,
            ),
            None => None,
        };
        Ok((loaded, rules, classifier))
    }
}

/// Looks at the watched files every [`POLL_INTERVAL`] until the reloader is dropped, each look
/// on the blocking pool.
pub async fn poll(reloader: std::sync::Weak<Reloader>) {
    let mut every = tokio::time::interval(POLL_INTERVAL);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let Some(reloader) = reloader.upgrade() else {
            return;
        };
        if let Err(error) = tokio::task::spawn_blocking(move || reloader.check()).await {
            tracing::error!(%error, "a config check failed");
        }
    }
}

/// Reads the watched config again now (SIGHUP), on the blocking pool.
pub async fn reload_off_runtime(reloader: Arc<Reloader>) {
    if let Err(error) = tokio::task::spawn_blocking(move || reloader.reload()).await {
        tracing::error!(%error, "a config reload failed");
    }
}

/// Makes `Arc<Reloader>` easy to share.
pub type SharedReloader = Arc<Reloader>;
