//! Discord throughput: MESSAGE_CREATE events from a fake gateway through to replies POSTed to
//! the fake REST API, beside the same turns through the local HTTP API, in the same run.
//!
//! Run: `cargo bench --bench discord_events`.
//!
//! Both use the real app and real clients: twilight's shard and HTTP client against the fake
//! Discord of `tests/common/fake_discord/` on loopback, and reqwest against Donna's own HTTP
//! server. 100 threads (Discord nudge threads / local nudge threads) each get 10 "busy"
//! replies (FastPath: snooze), 1,000 turns per side; the Discord side counts until the 1,000th
//! reply has been POSTed; the local side sends from 100 concurrent clients, one request at a
//! time per thread.

#[path = "../tests/common/fake_discord/mod.rs"]
mod fake_discord;

use std::sync::Arc;
use std::time::{Duration, Instant};

use donna::app::{App, StartOptions};
use donna::config::{parse_yaml, Env, LoadedConfig};
use fake_discord::{start_fake_discord, IncomingMessage, BOT_USER_ID};
use serde_json::{json, Value};

const THREADS: usize = 100;
const PER_THREAD: usize = 10;
const OWNER: u64 = 42;
const GUILD: u64 = 900;
const NUDGE_CHANNEL: u64 = 500;

struct Vars(Vec<(&'static str, &'static str)>);
impl Env for Vars {
    fn var(&self, name: &str) -> Option<String> {
        self.0
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    }
}

async fn start(yaml: &str, env: Vars) -> (Arc<App>, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let yaml = format!(
        "data_dir: {}\ntimezone: UTC\nhttp:\n  bind: 127.0.0.1:0\nllm:\n  provider: none\nnudges:\n  interval: 1h\n{yaml}",
        dir.path().join("data").display()
    );
    let loaded = LoadedConfig {
        config: parse_yaml(&yaml).unwrap_or_else(|e| panic!("{e}")),
        base_dir: dir.path().to_path_buf(),
    };
    let app = Arc::new(
        App::start(&loaded, &env, StartOptions::default()).unwrap_or_else(|e| panic!("{e}")),
    );
    let (server, address) = donna::http::serve(app.clone()).unwrap_or_else(|e| panic!("{e}"));
    actix_rt::spawn(server);
    (app, format!("http://{address}"), dir)
}

async fn post(client: &reqwest::Client, url: String, body: Value) -> Value {
    client
        .post(url)
        .json(&body)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .json()
        .await
        .unwrap_or(Value::Null)
}

fn main() {
    donna::app::install_crypto_provider();
    let system = actix_rt::System::new();
    system.block_on(async {
        // reqwest brings no TLS provider of its own.
    donna::tls::install_crypto_provider();
    let client = reqwest::Client::new();
        // Discord side.
        let fake = start_fake_discord().await;
        let yaml = format!(
            "discord:\n  allowed_user_ids: [{OWNER}]\n  nudge_channel_id: \"{NUDGE_CHANNEL}\"\n  gateway_url: {}\n  api_proxy: {}\n",
            fake.gateway_url(),
            fake.rest_addr()
        );
        let (app, base, _dir) = start(&yaml, Vars(vec![("DISCORD_TOKEN", "bench")])).await;
        while app.discord_shared.as_ref().map_or(0, |s| s.bot_user_id.load(std::sync::atomic::Ordering::Acquire)) != BOT_USER_ID {
            actix_rt::time::sleep(Duration::from_millis(10)).await;
        }
        let mut threads = Vec::new();
        for i in 0..THREADS {
            let task = post(&client, format!("{base}/api/tasks"), json!({"title": format!("Task {i}")})).await;
            let nudge = post(&client, format!("{base}/api/nudges"), json!({"task_id": task["id"], "channel": "discord"})).await;
            threads.push(nudge["thread_id"].as_str().and_then(|t| t.parse::<u64>().ok()).unwrap_or(0));
        }
        let before = fake.sent_messages().len();
        let started = Instant::now();
        for round in 0..PER_THREAD {
            for thread in &threads {
                fake.dispatch_message_create(IncomingMessage::guild(GUILD, *thread, OWNER, &format!("busy {round}")));
            }
        }
        let expected = before + THREADS * PER_THREAD;
        let total = (THREADS * PER_THREAD) as i64;
        let mut handled = None;
        while fake.sent_messages().len() < expected {
            if handled.is_none() {
                let done: i64 = app
                    .store
                    .read(|conn| {
                        Ok(conn.query_row(
                            "SELECT COUNT(*) FROM inbox WHERE channel = 'discord' AND status = 'done'",
                            [],
                            |row| row.get(0),
                        )?)
                    })
                    .await
                    .unwrap_or(0);
                if done >= total {
                    handled = Some(started.elapsed());
                }
            }
            if started.elapsed() > Duration::from_secs(120) {
                panic!("only {} of {} replies after 120 s", fake.sent_messages().len() - before, THREADS * PER_THREAD);
            }
            actix_rt::time::sleep(Duration::from_millis(2)).await;
        }
        let discord = started.elapsed();
        let handled = handled.unwrap_or(discord);
        app.shutdown(Duration::from_secs(5)).await;

        // Local API side.
        let (app, base, _dir2) = start("", Vars(Vec::new())).await;
        let mut local_threads = Vec::new();
        for i in 0..THREADS {
            let task = post(&client, format!("{base}/api/tasks"), json!({"title": format!("Task {i}")})).await;
            let nudge = post(&client, format!("{base}/api/nudges"), json!({"task_id": task["id"]})).await;
            local_threads.push(nudge["thread_id"].as_str().unwrap_or_default().to_string());
        }
        let started = Instant::now();
        let clients = local_threads.iter().map(|thread| {
            let (client, base, thread) = (client.clone(), base.clone(), thread.clone());
            async move {
                for round in 0..PER_THREAD {
                    let result = post(&client, format!("{base}/api/messages"), json!({"thread_id": thread, "user_id": "me", "text": format!("busy {round}")})).await;
                    assert_eq!(result["path"], "fast");
                }
            }
        });
        futures_util::future::join_all(clients).await;
        let local = started.elapsed();
        app.shutdown(Duration::from_secs(5)).await;

        let turns = (THREADS * PER_THREAD) as f64;
        println!("Discord vs local API: {} FastPath turns over {THREADS} threads", THREADS * PER_THREAD);
        println!("  Discord, MESSAGE_CREATE -> turn committed {:8.0} turns/s  ({:.2} s)", turns / handled.as_secs_f64(), handled.as_secs_f64());
        println!("  Discord, MESSAGE_CREATE -> reply POSTed   {:8.0} turns/s  ({:.2} s; twilight keeps Discord's global 50 requests/s)", turns / discord.as_secs_f64(), discord.as_secs_f64());
        println!("  local API (POST /api/messages)           {:8.0} turns/s  ({:.2} s)", turns / local.as_secs_f64(), local.as_secs_f64());
        println!("  ratio Discord (committed) / local: {:.2}", local.as_secs_f64() / handled.as_secs_f64());
    });
}
