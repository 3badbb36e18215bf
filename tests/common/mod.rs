//! Shared test helpers: a real bot (real SQLite in a temp dir, the real actors, the real HTTP
//! server on 127.0.0.1:0) driven over HTTP, with a clock the test moves; the local chats a test
//! opens (`Bot::free_thread`, `group_thread`, `open_thread`); and the polling helpers every test
//! waits with, never a fixed sleep: `eventually` / `eventually_some` in async code, `wait_until`
//! / `wait_for` in blocking code (a child process, a file, a socket).

#![allow(dead_code)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};
use donna::app::{App, StartOptions};
use donna::clock::ManualClock;
use donna::config::LoadedConfig;
use serde_json::{json, Value};

pub mod browser;
pub mod config;
pub mod discord_messages;
pub mod fake_calendar;
pub mod fake_discord;
pub mod fake_llm;
pub mod health;
pub mod ids;
pub mod needed;
pub mod page;
pub mod prefix;
pub mod process;
pub mod reading;
pub mod swapped_words;
pub mod when_context;

pub use config::{TestConfig, TestEnv};
pub use needed::{Fields, Needed};

/// `yaml` with `timezone: UTC` before it unless it names a zone itself: a config without one
/// reads times in the machine's zone, and no test may depend on the machine it runs on.
pub fn pinned_to_utc(yaml: &str) -> String {
    if yaml.lines().any(|line| line.starts_with("timezone:")) {
        yaml.to_string()
    } else {
        format!("timezone: UTC\n{yaml}")
    }
}

/// Monday 23 November 2026, 10:00 UTC.
pub fn monday_10am() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 23, 10, 0, 0)
        .single()
        .unwrap_or_else(|| panic!("Monday 23 November 2026, 10:00 UTC is one instant"))
}

pub struct Bot {
    pub app: Arc<App>,
    pub base: String,
    pub client: reqwest::Client,
    pub clock: ManualClock,
    pub dir: tempfile::TempDir,
    server: actix_web::dev::ServerHandle,
}

/// Starts a bot with `extra` YAML sections (`TestConfig::yaml`) and a fresh data dir.
pub async fn start_bot(extra: &str) -> Bot {
    TestConfig::yaml(extra).start().await
}

/// `start_bot` with `env` as the bot's environment.
pub async fn start_bot_with(extra: &str, env: TestEnv) -> Bot {
    TestConfig::yaml(extra).in_env(env).start().await
}

/// `start_bot_with` on the data dir in `dir` (a restart on the same data).
pub async fn start_bot_in(dir: tempfile::TempDir, extra: &str, env: TestEnv) -> Bot {
    TestConfig::yaml(extra).in_env(env).start_in(dir).await
}

impl TestConfig {
    /// A bot with this config on a fresh data dir.
    pub async fn start(self) -> Bot {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        self.start_in(dir).await
    }

    /// A bot with this config on the data dir in `dir`.
    pub async fn start_in(self, dir: tempfile::TempDir) -> Bot {
        let loaded = LoadedConfig {
            config: self.config(dir.path()),
            base_dir: dir.path().to_path_buf(),
        };
        let env = self.env;
        let clock = ManualClock::new(monday_10am());
        let options = StartOptions {
            clock: Arc::new(clock.clone()),
            ..StartOptions::default()
        };
        // A test that restarts on the same data dir drops the previous app first, but the HTTP
        // server's worker threads let go of it a moment later (a real process exit is immediate):
        // wait for the data-dir lock, and only for that.
        let mut locked = None;
        let app = eventually_some(Duration::from_secs(10), || {
            let started = match App::start(&loaded, &env, options.clone()) {
                Ok(app) => Some(Arc::new(app)),
                Err(
                    error @ donna::app::StartError::Store(donna::store::StoreError::Locked {
                        ..
                    }),
                ) => {
                    locked = Some(error);
                    None
                }
                Err(error) => panic!("start: {error}"),
            };
            std::future::ready(started)
        })
        .await
        .unwrap_or_else(|| {
            let why = locked.map_or_else(|| "no answer".to_string(), |e| e.to_string());
            panic!("start: {why}")
        });
        let (server, address) =
            donna::http::serve(app.clone()).unwrap_or_else(|e| panic!("serve: {e}"));
        let handle = server.handle();
        actix_rt::spawn(server);
        Bot {
            app,
            base: format!("http://{address}"),
            client: reqwest::Client::new(),
            clock,
            dir,
            server: handle,
        }
    }
}

impl Bot {
    pub async fn request(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut request = self.client.request(method, format!("{}{path}", self.base));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request
            .send()
            .await
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        let status = response.status().as_u16();
        let text = response
            .text()
            .await
            .unwrap_or_else(|e| panic!("{path}: the body: {e}"));
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, value)
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        self.request(reqwest::Method::GET, path, None).await
    }

    /// The /metrics page as text.
    pub async fn metrics_text(&self) -> String {
        match self
            .client
            .get(format!("{}/metrics", self.base))
            .send()
            .await
        {
            Ok(response) => response
                .text()
                .await
                .unwrap_or_else(|e| panic!("/metrics: the body: {e}")),
            Err(error) => panic!("{error}"),
        }
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.request(reqwest::Method::POST, path, Some(body)).await
    }

    pub async fn patch(&self, path: &str, body: Value) -> (u16, Value) {
        self.request(reqwest::Method::PATCH, path, Some(body)).await
    }

    /// Creates a task and returns its id.
    pub async fn task(&self, body: Value) -> String {
        let (status, task) = self.post("/api/tasks", body).await;
        assert_eq!(status, 201, "create task: {task}");
        task["id"].text().to_string()
    }

    /// Task `id` as the store holds it (a panic when it is not there).
    pub async fn stored_task(&self, id: &str) -> donna::tasks::Task {
        let id = id.to_string();
        self.app
            .store
            .read(move |conn| donna::tasks::repo::get(conn, &id))
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|| panic!("task gone"))
    }

    pub async fn task_json(&self, id: &str) -> Value {
        let (status, task) = self.get(&format!("/api/tasks/{id}")).await;
        assert_eq!(status, 200, "get task: {task}");
        task
    }

    /// Opens a local chat with `POST /api/threads` and `body` (`{"task_id": ..}` pins it to a
    /// task, `{"chat_id": .., "is_group": true}` names a group); its id (asserting 201).
    pub async fn open_thread(&self, body: Value) -> String {
        let (status, created) = self.post("/api/threads", body).await;
        assert_eq!(status, 201, "open thread: {created}");
        created["thread_id"].text().to_string()
    }

    /// A free one-to-one chat, as `POST /api/threads` with `{}` opens it.
    pub async fn free_thread(&self) -> String {
        self.open_thread(json!({})).await
    }

    /// A free group chat (`"is_group": true`), where the reply gate and group rules apply.
    pub async fn group_thread(&self) -> String {
        self.open_thread(json!({ "is_group": true })).await
    }

    /// The Nudger's tick now: the nudges it opened (a panic when the tick failed).
    pub async fn tick_nudger(&self) -> Vec<donna::nudges::NudgeOpened> {
        self.try_tick_nudger()
            .await
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// The Nudger's tick now, its failure as text (a test of what a failing tick does).
    pub async fn try_tick_nudger(&self) -> Result<Vec<donna::nudges::NudgeOpened>, String> {
        self.app
            .nudger
            .ask(|reply| donna::nudges::NudgerMsg::Tick { reply: Some(reply) })
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())
    }

    /// The automation runner's tick now: the tasks its occurrences made.
    pub async fn automation_tick(&self) -> Vec<donna::tasks::Task> {
        self.app
            .automations
            .ask(|reply| donna::automations::AutomationsMsg::Tick { reply: Some(reply) })
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// The digest runner's tick now: what each due digest did.
    pub async fn digest_tick(&self) -> Vec<donna::subsystems::digest::DigestSent> {
        self.app
            .digests
            .ask(|reply| donna::subsystems::digest::DigestMsg::Tick { reply: Some(reply) })
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// `PUT /api/people/{user}` with `body` (status, answer).
    pub async fn put_person(&self, user: &str, body: Value) -> (u16, Value) {
        self.request(
            reqwest::Method::PUT,
            &format!("/api/people/{user}"),
            Some(body),
        )
        .await
    }

    /// The titles of the tasks `nudges` are about, sorted.
    pub async fn titles_of(&self, nudges: &[donna::nudges::NudgeOpened]) -> Vec<String> {
        let mut titles = Vec::new();
        for nudge in nudges {
            let task = self.task_json(&nudge.task_id).await;
            titles.push(task["title"].text().to_string());
        }
        titles.sort();
        titles
    }

    /// Opens a nudge thread for a task and returns the thread id.
    pub async fn nudge(&self, task_id: &str) -> String {
        let (status, nudge) = self
            .post("/api/nudges", json!({ "task_id": task_id }))
            .await;
        assert!(status == 201 || status == 200, "nudge: {status} {nudge}");
        nudge["thread_id"].text().to_string()
    }

    /// A task with an open nudge thread: (task id, thread id).
    pub async fn nudged_task(&self, title: &str) -> (String, String) {
        let task = self.task(json!({ "title": title })).await;
        let thread = self.nudge(&task).await;
        (task, thread)
    }

    /// Sends a reply as the owner and returns the turn result (asserting 200).
    pub async fn say(&self, thread: &str, text: &str) -> Value {
        self.say_as(thread, "owner", text).await
    }

    /// `user` writes `text` in `thread` (a group member, another person); the turn result
    /// (asserting 200).
    pub async fn say_as(&self, thread: &str, user: &str, text: &str) -> Value {
        let (status, result) = self
            .post(
                "/api/messages",
                json!({ "thread_id": thread, "user_id": user, "text": text }),
            )
            .await;
        assert_eq!(status, 200, "{user} says {text:?}: {result}");
        result
    }

    /// What `role` ("user" or "donna") said in `thread`, oldest first, as the chat's memory
    /// keeps it (`GET /api/threads/{id}/messages`, asserting 200).
    pub async fn said_in(&self, thread: &str, role: &str) -> Vec<String> {
        let (status, messages) = self.get(&format!("/api/threads/{thread}/messages")).await;
        assert_eq!(status, 200, "{messages}");
        messages
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["role"] == role)
            .filter_map(|m| m["text"].as_str().map(str::to_string))
            .collect()
    }

    pub async fn say_with_id(&self, thread: &str, text: &str, message_id: &str) -> (u16, Value) {
        self.post(
            "/api/messages",
            json!({ "thread_id": thread, "user_id": "owner", "text": text, "message_id": message_id }),
        )
        .await
    }

    /// This bot's app dropped (as a process exit) and Donna started again on the same data dir
    /// with `extra` YAML sections.
    pub async fn restart(self, extra: &str) -> Bot {
        let Bot { dir, app, .. } = self;
        drop(app);
        start_bot_in(dir, extra, TestEnv(Vec::new())).await
    }

    /// Stops the HTTP server at once (in-flight requests are dropped), releasing its handles.
    pub async fn stop_server_now(&self) {
        self.server.stop(false).await;
    }

    pub async fn stop(&self) {
        self.server.stop(true).await;
        self.app.shutdown(Duration::from_secs(5)).await;
    }
}

/// The names of the actions a turn result proposes or ran, in order.
pub fn action_names(result: &Value) -> Vec<String> {
    result["actions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|action| action["name"].as_str().map(str::to_string))
        .collect()
}

// ---- polling: a test waits on a condition, never a fixed time ---------------------------------

/// How often the polling helpers look again.
pub const POLL: Duration = Duration::from_millis(10);

/// Polls an async condition every `POLL` until it holds or `limit` passes.
pub async fn eventually<F, Fut>(limit: Duration, mut condition: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    eventually_some(limit, || {
        let holds = condition();
        async move { holds.await.then_some(()) }
    })
    .await
    .is_some()
}

/// Polls an async `find` every `POLL` until it finds something (that, then) or `limit` passes
/// (None).
pub async fn eventually_some<T, F, Fut>(limit: Duration, mut find: F) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = Instant::now() + limit;
    loop {
        if let Some(found) = find().await {
            return Some(found);
        }
        if Instant::now() >= deadline {
            return None;
        }
        actix_rt::time::sleep(POLL).await;
    }
}

/// `eventually` for blocking code (a child process, a file, a socket): polls `condition` every
/// `POLL` until it holds or `limit` passes.
pub fn wait_until(limit: Duration, mut condition: impl FnMut() -> bool) -> bool {
    wait_for(limit, || condition().then_some(())).is_some()
}

/// `eventually_some` for blocking code: polls `find` every `POLL` until it finds something
/// (that, then) or `limit` passes (None).
pub fn wait_for<T>(limit: Duration, find: impl FnMut() -> Option<T>) -> Option<T> {
    wait_for_every(limit, POLL, find)
}

/// `wait_for` looking every `every` (a test that must catch a short moment).
pub fn wait_for_every<T>(
    limit: Duration,
    every: Duration,
    mut find: impl FnMut() -> Option<T>,
) -> Option<T> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(found) = find() {
            return Some(found);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(every);
    }
}

/// Donna with Discord on, pointed at `fake` (hearing the users `allowed`, nudging in
/// `nudge_channel`), `extra` config sections besides; returns once the gateway is READY.
pub async fn discord_bot(
    fake: &fake_discord::FakeDiscord,
    allowed: &[u64],
    nudge_channel: u64,
    extra: &str,
) -> Bot {
    let bot = TestConfig::yaml(extra)
        .with_discord(fake, allowed)
        .nudging_in(nudge_channel)
        .start()
        .await;
    wait_ready(&bot).await;
    bot
}

/// Waits until the bot's gateway is READY as the fake's bot user (a panic after 10 s).
pub async fn wait_ready(bot: &Bot) {
    let shared = bot.app.discord_shared.clone();
    let ready = eventually(Duration::from_secs(10), || {
        let shared = shared.clone();
        async move {
            shared.is_some_and(|s| {
                s.bot_user_id.load(std::sync::atomic::Ordering::Acquire)
                    == fake_discord::BOT_USER_ID
            })
        }
    })
    .await;
    assert!(ready, "the gateway never became ready");
}

/// The first answer Donna sent to `interaction` through the fake Discord, waiting up to 10 s
/// for it (a panic naming the interaction when none came).
pub async fn interaction_callback(
    fake: &fake_discord::FakeDiscord,
    interaction: &fake_discord::SentInteraction,
) -> Value {
    let answered = eventually(Duration::from_secs(10), || async {
        !fake.callbacks(interaction.id).is_empty()
    })
    .await;
    assert!(answered, "interaction {} never answered", interaction.id);
    fake.callbacks(interaction.id)[0].clone()
}

/// The text of a private interaction answer (type 4 with the ephemeral flag 64); a panic when
/// the answer is anything else.
pub fn ephemeral_text(callback: &Value) -> String {
    assert_eq!(callback["type"], 4, "{callback}");
    assert_eq!(callback["data"]["flags"], 64, "not ephemeral: {callback}");
    callback["data"]["content"].text().to_owned()
}

/// Whether Donna sends exactly `text` to Discord `channel` within 10 s.
pub async fn sent_to(fake: &fake_discord::FakeDiscord, channel: u64, text: &str) -> bool {
    eventually(Duration::from_secs(10), || async {
        fake.sent_messages()
            .iter()
            .any(|(c, t)| *c == channel && t == text)
    })
    .await
}
