//! Drives the REAL twilight clients against the fake Discord in `common/fake_discord/`, both to
//! prove the fake is good enough for the bot's integration tests and to pin down the twilight
//! behaviours the bot relies on (resume after op 7, fatal close codes, 429 handling, outages).
//! If a twilight upgrade changes one of them, a test here says which.
//!
//! `gateway`: identify, intents, resume, fatal closes, heartbeats; `rest`: messages, threads,
//! history, 429s, server errors, outages, 401.

mod gateway;
mod rest;

use crate::common::fake_discord;
use crate::common::ids::{self, DM, GUILD, TOKEN};

use std::time::{Duration, Instant};

use fake_discord::{
    intents as bits, start_fake_discord, start_fake_discord_with, FakeDiscord, FakeOptions,
    IncomingMessage, BOT_USERNAME, BOT_USER_ID,
};
use serde_json::json;
use twilight_gateway::error::{ReceiveMessageError, ReceiveMessageErrorType};
use twilight_gateway::queue::InMemoryQueue;
use twilight_gateway::{
    ConfigBuilder, Event, EventTypeFlags, Intents, Shard, ShardId, ShardState, StreamExt as _,
};
use twilight_http::error::ErrorType;
use twilight_http::Client;
use twilight_model::channel::message::MessageType;
use twilight_model::channel::ChannelType;
use twilight_model::id::Id;

/// The test's own bound on anything that should happen "soon"; generous for a loaded 2-core CI.
const DEADLINE: Duration = Duration::from_secs(10);
/// The person writing in the demo's channel.
const HUMAN: u64 = ids::OWNER;
/// The demo's server channel.
const CHANNEL: u64 = ids::GENERAL;

/// rustls 0.23 panics when it cannot pick a crypto provider on its own, which happens as soon as
/// two crates in the build enable different ones (twilight enables none; reqwest's rustls
/// feature would enable one). Installing one explicitly removes the guesswork. "Already
/// installed" (another test got there first) is fine.
fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// A shard exactly as the bot builds it, but pointed at the fake. The no-op queue (max
/// concurrency 0) skips twilight's 5 s identify spacing, which tests do not need.
fn shard_for(fake: &FakeDiscord, intents: Intents) -> Shard<InMemoryQueue> {
    let config = ConfigBuilder::new(TOKEN.to_owned(), intents)
        .proxy_url(fake.gateway_url())
        .queue(InMemoryQueue::new(0, 0, Duration::ZERO, 0))
        .build();
    Shard::with_config(ShardId::ONE, config)
}

/// Twilight's HTTP client as the bot builds it, with its rate limiter on, pointed at the fake.
fn http_for(fake: &FakeDiscord) -> Client {
    Client::builder()
        .token(TOKEN.to_owned())
        .proxy(fake.rest_addr(), true)
        .ratelimiter(Some(Default::default()))
        .build()
}

fn all_intents() -> Intents {
    Intents::GUILDS | Intents::GUILD_MESSAGES | Intents::DIRECT_MESSAGES | Intents::MESSAGE_CONTENT
}

/// What a shard yielded while a test waited for something else.
#[derive(Debug)]
enum Seen {
    Event(Box<Event>),
    Error(String),
}

/// Reads events until `pick` accepts one; panics after [`DEADLINE`] or if the stream ends.
/// Returns the pick and everything seen before it.
async fn next_matching<T>(
    shard: &mut Shard<InMemoryQueue>,
    what: &str,
    mut pick: impl FnMut(&Event) -> Option<T>,
) -> (T, Vec<Seen>) {
    let deadline = tokio::time::Instant::now() + DEADLINE;
    let mut seen = Vec::new();
    loop {
        let next = tokio::time::timeout_at(deadline, shard.next_event(EventTypeFlags::all()));
        match next.await {
            Err(_) => panic!("timed out waiting for {what}; saw {seen:?}"),
            Ok(None) => panic!("shard stream ended while waiting for {what}; saw {seen:?}"),
            Ok(Some(Err(error))) => seen.push(Seen::Error(describe(&error))),
            Ok(Some(Ok(event))) => match pick(&event) {
                Some(picked) => return (picked, seen),
                None => seen.push(Seen::Event(Box::new(event))),
            },
        }
    }
}

/// Keeps the shard running (it only acts when polled) until the fake satisfies `condition`.
async fn drive_until(
    shard: &mut Shard<InMemoryQueue>,
    fake: &FakeDiscord,
    what: &str,
    condition: impl FnMut(&FakeDiscord) -> bool,
) -> Vec<Seen> {
    let wait = fake.wait_until(what, DEADLINE, condition);
    tokio::pin!(wait);
    let mut seen = Vec::new();
    loop {
        tokio::select! {
            () = &mut wait => return seen,
            next = shard.next_event(EventTypeFlags::all()) => match next {
                Some(Ok(event)) => seen.push(Seen::Event(Box::new(event))),
                Some(Err(error)) => seen.push(Seen::Error(describe(&error))),
                None => panic!("shard stream ended while waiting for {what}; saw {seen:?}"),
            },
        }
    }
}

fn describe(error: &ReceiveMessageError) -> String {
    format!("{:?}: {error}", error.kind())
}

async fn ready(
    shard: &mut Shard<InMemoryQueue>,
) -> twilight_model::gateway::payload::incoming::Ready {
    next_matching(shard, "READY", |event| match event {
        Event::Ready(ready) => Some(ready.clone()),
        _ => None,
    })
    .await
    .0
}

async fn message_create(shard: &mut Shard<InMemoryQueue>, content: &str) -> Vec<Seen> {
    next_matching(
        shard,
        &format!("MESSAGE_CREATE {content:?}"),
        |event| match event {
            Event::MessageCreate(message) if message.content == content => Some(()),
            _ => None,
        },
    )
    .await
    .1
}

fn close_code(event: &Event) -> Option<Option<u16>> {
    match event {
        Event::GatewayClose(frame) => Some(frame.as_ref().map(|f| f.code)),
        _ => None,
    }
}
