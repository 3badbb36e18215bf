//! Drives the REAL twilight clients against the fake Discord in `common/fake_discord/`, both to
//! prove the fake is good enough for the bot's integration tests and to pin down the twilight
//! behaviours the bot relies on (resume after op 7, fatal close codes, 429 handling, outages).
//! If a twilight upgrade changes one of them, a test here says which.

use crate::common::fake_discord;

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

const TOKEN: &str = "fake-token";
/// The test's own bound on anything that should happen "soon"; generous for a loaded 2-core CI.
const DEADLINE: Duration = Duration::from_secs(10);
const GUILD: u64 = 500;
const CHANNEL: u64 = 600;
const HUMAN: u64 = 42;

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

// ---- gateway -----------------------------------------------------------------------------------

#[actix_rt::test]
async fn gateway_identifies_and_delivers_guild_and_direct_messages() {
    install_crypto_provider();
    let fake = start_fake_discord().await;
    let mut shard = shard_for(&fake, all_intents());

    let ready = ready(&mut shard).await;
    assert_eq!(ready.user.id.get(), BOT_USER_ID);
    assert_eq!(ready.user.name, BOT_USERNAME);
    assert!(ready.user.bot);
    assert_eq!(ready.version, 10);
    assert_eq!(ready.resume_gateway_url, fake.resume_gateway_url());
    assert_eq!(shard.state(), ShardState::Active);

    let identifies = fake.identifies();
    assert_eq!(identifies.len(), 1);
    assert_eq!(
        identifies[0].token,
        format!("Bot {TOKEN}"),
        "twilight adds `Bot `"
    );
    assert_eq!(identifies[0].intents, all_intents().bits());
    assert_eq!(identifies[0].shard, Some([0, 1]));
    assert!(!identifies[0].compress);
    assert_eq!(fake.gateway_paths(), ["/?v=10&encoding=json"]);

    let id = fake.dispatch_message_create(
        IncomingMessage::guild(GUILD, CHANNEL, HUMAN, "hi <@1000>")
            .author_name("alice")
            .mentioning_bot(),
    );
    let (message, _) = next_matching(&mut shard, "guild MESSAGE_CREATE", |event| match event {
        Event::MessageCreate(message) => Some(message.clone()),
        _ => None,
    })
    .await;
    assert_eq!(message.id.get(), id);
    assert_eq!(message.content, "hi <@1000>");
    assert_eq!(message.guild_id.map(Id::get), Some(GUILD));
    assert_eq!(message.channel_id.get(), CHANNEL);
    assert_eq!(message.author.id.get(), HUMAN);
    assert_eq!(message.author.name, "alice");
    assert!(!message.author.bot);
    assert!(message.mentions.iter().any(|m| m.id.get() == BOT_USER_ID));
    assert_eq!(message.kind, MessageType::Regular);

    fake.dispatch_message_create(IncomingMessage::dm(700, HUMAN, "a direct message"));
    let (dm, _) = next_matching(&mut shard, "DM MESSAGE_CREATE", |event| match event {
        Event::MessageCreate(message) => Some(message.clone()),
        _ => None,
    })
    .await;
    assert_eq!(dm.content, "a direct message");
    assert_eq!(dm.guild_id, None);
}

#[tokio::test]
async fn the_fake_enforces_intents_like_discord() {
    install_crypto_provider();
    let fake = start_fake_discord().await;
    // No MESSAGE_CONTENT and no DIRECT_MESSAGES: the classic misconfiguration.
    let mut shard = shard_for(&fake, Intents::GUILD_MESSAGES);
    ready(&mut shard).await;

    fake.dispatch_message_create(IncomingMessage::dm(700, HUMAN, "never delivered"));
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, CHANNEL, HUMAN, "secret"));
    let (blank, _) = next_matching(&mut shard, "blanked guild message", |event| match event {
        Event::MessageCreate(message) => Some(message.clone()),
        _ => None,
    })
    .await;
    assert_eq!(blank.content, "", "content needs MESSAGE_CONTENT");
    assert_eq!(fake.dropped_by_intents(), 1, "DMs need DIRECT_MESSAGES");

    fake.dispatch_message_create(
        IncomingMessage::guild(GUILD, CHANNEL, HUMAN, "<@1000> visible").mentioning_bot(),
    );
    message_create(&mut shard, "<@1000> visible").await;
}

#[tokio::test]
async fn op7_reconnect_resumes_at_resume_url_and_replays_missed_events() {
    install_crypto_provider();
    let fake = start_fake_discord().await;
    let mut shard = shard_for(&fake, all_intents());
    let ready = ready(&mut shard).await;
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, CHANNEL, HUMAN, "before"));
    message_create(&mut shard, "before").await;

    fake.send_reconnect();
    // Sent while the client is away: the fake replays it on RESUME, before RESUMED.
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, CHANNEL, HUMAN, "while away"));
    let seen = message_create(&mut shard, "while away").await;
    let (_, _) = next_matching(&mut shard, "RESUMED", |event| {
        matches!(event, Event::Resumed).then_some(())
    })
    .await;
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, CHANNEL, HUMAN, "after"));
    message_create(&mut shard, "after").await;

    // What the caller sees: the op 7 itself, then the close twilight initiated (code 4000,
    // echoed by the server), then the new connection's HELLO.
    let kinds: Vec<String> = seen
        .iter()
        .map(|s| match s {
            Seen::Event(event) => format!("{:?}", event.kind()),
            Seen::Error(error) => error.clone(),
        })
        .collect();
    assert_eq!(kinds, ["GatewayReconnect", "GatewayClose", "GatewayHello"]);
    assert!(matches!(&seen[1], Seen::Event(e) if close_code(e) == Some(Some(4000))));

    assert_eq!(fake.identify_count(), 1, "a resume, not a new session");
    assert_eq!(fake.resume_count(), 1);
    let resume = &fake.resumes()[0];
    assert_eq!(resume.session_id, ready.session_id);
    assert_eq!(resume.token, format!("Bot {TOKEN}"));
    assert_eq!(resume.seq, 2, "READY (1) and \"before\" (2) were seen");
    assert_eq!(fake.client_close_codes(), [Some(4000)]);
    assert_eq!(fake.connections(), 2);
    assert_eq!(fake.gateway_paths()[1], "/resume/?v=10&encoding=json");
    assert_eq!(shard.state(), ShardState::Active);
}

#[tokio::test]
async fn non_fatal_closes_and_network_cuts_resume() {
    install_crypto_provider();
    let fake = start_fake_discord().await;
    let mut shard = shard_for(&fake, all_intents());
    ready(&mut shard).await;

    fake.close_with(4000);
    let (code, _) = next_matching(&mut shard, "close 4000", close_code).await;
    assert_eq!(code, Some(4000));
    next_matching(&mut shard, "RESUMED", |e| {
        matches!(e, Event::Resumed).then_some(())
    })
    .await;

    // A cut without a close frame: twilight yields GatewayClose(Some(1006)) if reading failed
    // (e.g. a reset) but nothing at all on a plain EOF; either way it resumes by itself.
    fake.drop_connections();
    let (_, seen) = next_matching(&mut shard, "RESUMED", |e| {
        matches!(e, Event::Resumed).then_some(())
    })
    .await;
    for item in &seen {
        if let Seen::Event(event) = item {
            assert!(
                matches!(close_code(event), None | Some(Some(1006))),
                "{seen:?}"
            );
        }
    }

    fake.dispatch_message_create(IncomingMessage::guild(GUILD, CHANNEL, HUMAN, "still here"));
    message_create(&mut shard, "still here").await;
    assert_eq!(fake.identify_count(), 1);
    assert_eq!(fake.resume_count(), 2);
}

#[tokio::test]
async fn a_gateway_outage_yields_reconnect_errors_then_the_session_resumes() {
    install_crypto_provider();
    let fake = start_fake_discord().await;
    let mut shard = shard_for(&fake, all_intents());
    ready(&mut shard).await;

    fake.set_gateway_down(true);
    fake.drop_connections();
    // Each failed connection attempt is an Err (kind Reconnect) from next_event; the shard keeps
    // trying with a growing delay (0 s, 1 s, 2 s, 4 s, ...) as long as it is polled.
    let deadline = tokio::time::Instant::now() + DEADLINE;
    let error = loop {
        let next = tokio::time::timeout_at(deadline, shard.next_event(EventTypeFlags::all()));
        match next.await {
            Ok(Some(Err(error))) => break error,
            Ok(Some(Ok(_))) => {}
            other => panic!("expected a reconnect error, got {other:?}"),
        }
    };
    assert!(
        matches!(error.kind(), ReceiveMessageErrorType::Reconnect),
        "{error}"
    );
    assert!(matches!(shard.state(), ShardState::Disconnected { .. }));

    fake.set_gateway_down(false);
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, CHANNEL, HUMAN, "missed"));
    message_create(&mut shard, "missed").await;
    next_matching(&mut shard, "RESUMED", |e| {
        matches!(e, Event::Resumed).then_some(())
    })
    .await;
    assert_eq!(fake.identify_count(), 1, "the session survived the outage");
    assert_eq!(fake.resume_count(), 1);
    // A failed attempt makes twilight forget the resume URL: it came back through proxy_url.
    let paths = fake.gateway_paths();
    assert_eq!(
        paths.last().map(String::as_str),
        Some("/?v=10&encoding=json")
    );
}

#[tokio::test]
async fn invalid_session_makes_twilight_identify_again() {
    install_crypto_provider();
    let fake = start_fake_discord().await;
    let mut shard = shard_for(&fake, all_intents());
    let first = ready(&mut shard).await;

    fake.send_invalid_session(false);
    let second = ready(&mut shard).await;
    assert_ne!(first.session_id, second.session_id);
    assert_eq!(fake.identify_count(), 2);
    assert_eq!(fake.resume_count(), 0);
    assert_eq!(
        fake.client_close_codes(),
        [Some(1000)],
        "twilight closes with 1000"
    );
}

#[tokio::test]
async fn authentication_failed_4004_is_fatal_and_ends_the_stream() {
    install_crypto_provider();
    let fake = start_fake_discord().await;
    fake.reject_next_identify(4004);
    let mut shard = shard_for(&fake, all_intents());

    // Not an Err: a GatewayClose event carrying the code, then the stream ends.
    let (frame, _) = next_matching(&mut shard, "close 4004", |event| match event {
        Event::GatewayClose(frame) => Some(frame.clone()),
        _ => None,
    })
    .await;
    let frame = frame.unwrap_or_else(|| panic!("close frame without a code"));
    assert_eq!(frame.code, 4004);
    assert_eq!(frame.reason, "Authentication failed.");
    assert_eq!(shard.state(), ShardState::FatallyClosed);
    let end = tokio::time::timeout(DEADLINE, shard.next_event(EventTypeFlags::all())).await;
    assert!(
        matches!(end, Ok(None)),
        "the stream ends after a fatal close"
    );
    // (Polling again after `None` panics inside twilight: the caller must stop here.)
    assert_eq!(fake.connections(), 1, "no reconnect attempt");
}

#[tokio::test]
async fn disallowed_intents_4014_is_fatal() {
    install_crypto_provider();
    let fake = start_fake_discord().await;
    fake.set_disallowed_intents(bits::MESSAGE_CONTENT);
    let mut shard = shard_for(&fake, all_intents());

    let (code, _) = next_matching(&mut shard, "close 4014", close_code).await;
    assert_eq!(code, Some(4014));
    assert_eq!(shard.state(), ShardState::FatallyClosed);
    let end = tokio::time::timeout(DEADLINE, shard.next_event(EventTypeFlags::all())).await;
    assert!(matches!(end, Ok(None)));
}

#[tokio::test]
async fn heartbeats_are_acked_and_a_zombied_connection_is_replaced() {
    install_crypto_provider();
    let options = FakeOptions {
        heartbeat_interval: Duration::from_millis(100),
        ..FakeOptions::default()
    };
    let fake = start_fake_discord_with(options).await;
    let mut shard = shard_for(&fake, all_intents());
    ready(&mut shard).await;

    drive_until(&mut shard, &fake, "3 heartbeats", |f| {
        f.heartbeat_count() >= 3
    })
    .await;
    assert_eq!(
        fake.connections(),
        1,
        "acked heartbeats keep the connection"
    );
    assert!(
        shard.latency().average().is_some(),
        "twilight measured the acks"
    );

    // No ACK (and no other event) within an interval: twilight gives up on the connection.
    fake.set_heartbeat_ack(false);
    let (code, _) = next_matching(&mut shard, "zombie close", close_code).await;
    assert_eq!(code, Some(1006));
    fake.set_heartbeat_ack(true);
    next_matching(&mut shard, "RESUMED", |e| {
        matches!(e, Event::Resumed).then_some(())
    })
    .await;
    assert_eq!(fake.resume_count(), 1);
}

// ---- REST --------------------------------------------------------------------------------------

#[actix_rt::test]
async fn rest_creates_messages_and_threads_and_serves_history() {
    install_crypto_provider();
    let fake = start_fake_discord().await;
    let http = http_for(&fake);
    let human = fake.dispatch_message_create(IncomingMessage::guild(GUILD, CHANNEL, HUMAN, "q"));

    let sent = http
        .create_message(Id::new(CHANNEL))
        .content("hello from donna")
        .await
        .unwrap_or_else(|e| panic!("create message: {e}"))
        .model()
        .await
        .unwrap_or_else(|e| panic!("message body: {e}"));
    assert_eq!(sent.content, "hello from donna");
    assert_eq!(sent.channel_id.get(), CHANNEL);
    assert_eq!(sent.guild_id.map(Id::get), Some(GUILD));
    assert_eq!(sent.author.id.get(), BOT_USER_ID);
    assert!(sent.author.bot);
    assert!(sent.id.get() > human, "snowflakes increase");

    let reply = http
        .create_message(Id::new(CHANNEL))
        .content("a reply")
        .reply(Id::new(human))
        .await
        .unwrap_or_else(|e| panic!("reply: {e}"))
        .model()
        .await
        .unwrap_or_else(|e| panic!("reply body: {e}"));
    assert_eq!(reply.kind, MessageType::Reply);
    assert_eq!(
        reply.reference.and_then(|r| r.message_id).map(Id::get),
        Some(human)
    );

    let thread = http
        .create_thread_from_message(Id::new(CHANNEL), sent.id, "Donna: task 7")
        .await
        .unwrap_or_else(|e| panic!("create thread: {e}"))
        .model()
        .await
        .unwrap_or_else(|e| panic!("thread body: {e}"));
    assert_eq!(thread.kind, ChannelType::PublicThread);
    assert_eq!(
        thread.id.get(),
        sent.id.get(),
        "a thread takes its message's id"
    );
    assert_eq!(thread.parent_id.map(Id::get), Some(CHANNEL));
    assert_eq!(thread.name.as_deref(), Some("Donna: task 7"));

    let again = http
        .create_thread_from_message(Id::new(CHANNEL), sent.id, "twice")
        .await;
    match again.map(|_| ()).map_err(|e| e.into_parts().0) {
        Err(ErrorType::Response { status, .. }) => assert_eq!(status.get(), 400),
        other => panic!("a second thread on one message must fail, got {other:?}"),
    }

    fake.add_thread(800, CHANNEL, GUILD, true);
    let unarchived = http
        .update_thread(Id::new(800))
        .archived(false)
        .await
        .unwrap_or_else(|e| panic!("unarchive: {e}"))
        .model()
        .await
        .unwrap_or_else(|e| panic!("unarchive body: {e}"));
    assert_eq!(unarchived.thread_metadata.map(|m| m.archived), Some(false));
    let patch = fake.requests_to("PATCH", "/channels/800");
    assert_eq!(patch.len(), 1);
    assert_eq!(patch[0].body, Some(json!({"archived": false})));

    let history = http
        .channel_messages(Id::new(CHANNEL))
        .after(Id::new(human))
        .limit(10)
        .await
        .unwrap_or_else(|e| panic!("history: {e}"))
        .models()
        .await
        .unwrap_or_else(|e| panic!("history body: {e}"));
    let contents: Vec<&str> = history.iter().map(|m| m.content.as_str()).collect();
    assert_eq!(contents, ["a reply", "hello from donna"], "newest first");

    let me = http
        .current_user()
        .await
        .unwrap_or_else(|e| panic!("@me: {e}"))
        .model()
        .await
        .unwrap_or_else(|e| panic!("@me body: {e}"));
    assert_eq!(me.id.get(), BOT_USER_ID);
    let gateway = http
        .gateway()
        .authed()
        .await
        .unwrap_or_else(|e| panic!("gateway/bot: {e}"))
        .model()
        .await
        .unwrap_or_else(|e| panic!("gateway/bot body: {e}"));
    assert_eq!(gateway.url, fake.gateway_url());

    assert_eq!(
        fake.sent_messages(),
        [
            (CHANNEL, "hello from donna".to_owned()),
            (CHANNEL, "a reply".to_owned())
        ]
    );
    let posts = fake.requests_to("POST", "/channels/600/messages");
    assert_eq!(posts[0].body, Some(json!({"content": "hello from donna"})));
    assert!(fake
        .requests()
        .iter()
        .all(|r| r.authorization.as_deref() == Some("Bot fake-token")));
}

#[tokio::test]
async fn the_bots_own_rest_messages_come_back_over_the_gateway() {
    install_crypto_provider();
    let fake = start_fake_discord().await;
    let mut shard = shard_for(&fake, all_intents());
    ready(&mut shard).await;
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, CHANNEL, HUMAN, "ping"));
    message_create(&mut shard, "ping").await;

    let http = http_for(&fake);
    http.create_message(Id::new(CHANNEL))
        .content("pong")
        .await
        .unwrap_or_else(|e| panic!("create message: {e}"));
    let (author, _) = next_matching(&mut shard, "echo of pong", |event| match event {
        Event::MessageCreate(message) if message.content == "pong" => Some(message.author.id),
        _ => None,
    })
    .await;
    assert_eq!(
        author.get(),
        BOT_USER_ID,
        "a bot must ignore its own messages"
    );
}

#[tokio::test]
async fn a_route_429_delays_the_retry_by_reset_after_then_succeeds() {
    install_crypto_provider();
    let fake = start_fake_discord().await;
    let http = http_for(&fake);
    let retry_after = Duration::from_millis(1500);
    fake.rate_limit_next(retry_after);

    let started = Instant::now();
    let sent = tokio::time::timeout(
        DEADLINE,
        http.create_message(Id::new(CHANNEL)).content("patient"),
    )
    .await
    .unwrap_or_else(|_| panic!("the retried send did not finish in {DEADLINE:?}"));
    assert!(sent.is_ok(), "twilight retries a 429 itself: {sent:?}");
    assert!(started.elapsed() >= retry_after);

    let posts = fake.requests_to("POST", "/channels/600/messages");
    let statuses: Vec<Option<u16>> = posts.iter().map(|r| r.status).collect();
    assert_eq!(statuses, [Some(429), Some(200)]);
    let waited = posts[1].at.duration_since(posts[0].at);
    assert!(waited >= retry_after, "retried after {waited:?}");
    assert_eq!(fake.sent_messages(), [(CHANNEL, "patient".to_owned())]);
}

#[tokio::test]
async fn a_global_429_is_retried_without_waiting() {
    install_crypto_provider();
    let fake = start_fake_discord().await;
    let http = http_for(&fake);
    let retry_after = Duration::from_secs(3);
    fake.rate_limit_global_next(retry_after);

    let sent = tokio::time::timeout(
        DEADLINE,
        http.create_message(Id::new(CHANNEL)).content("eager"),
    )
    .await
    .unwrap_or_else(|_| panic!("send did not finish in {DEADLINE:?}"));
    assert!(sent.is_ok(), "{sent:?}");
    let posts = fake.requests_to("POST", "/channels/600/messages");
    assert_eq!(posts.len(), 2);
    let waited = posts[1].at.duration_since(posts[0].at);
    // twilight 0.18 reads no delay from a global 429 (x-ratelimit-scope: global): it only
    // keeps its own 50 requests/s global budget. A bot that hits Discord's global limit must
    // back off by itself.
    assert!(waited < retry_after, "waited {waited:?}");
}

#[tokio::test]
async fn server_errors_are_returned_not_retried() {
    install_crypto_provider();
    let fake = start_fake_discord().await;
    let http = http_for(&fake);

    for status in [500, 503] {
        fake.fail_next(1, status);
        let error = http
            .create_message(Id::new(CHANNEL))
            .content("unlucky")
            .await
            .map(|_| ())
            .map_err(|e| e.into_parts().0);
        match error {
            Err(ErrorType::Response { status: got, .. }) => assert_eq!(got.get(), status),
            other => panic!("expected a {status} response error, got {other:?}"),
        }
    }
    assert_eq!(
        fake.requests().len(),
        2,
        "one attempt each: twilight does not retry 5xx"
    );
    http.create_message(Id::new(CHANNEL))
        .content("lucky")
        .await
        .unwrap_or_else(|e| panic!("after the faults: {e}"));
    assert_eq!(fake.sent_messages(), [(CHANNEL, "lucky".to_owned())]);
}

#[tokio::test]
async fn an_outage_fails_fast_and_recovery_needs_no_new_client() {
    install_crypto_provider();
    let fake = start_fake_discord().await;
    let http = http_for(&fake);
    http.create_message(Id::new(CHANNEL))
        .content("warm up the connection pool")
        .await
        .unwrap_or_else(|e| panic!("warm-up: {e}"));

    fake.set_down(true);
    for attempt in ["pooled connection", "new connection"] {
        let started = Instant::now();
        let outcome = tokio::time::timeout(
            Duration::from_secs(5),
            http.create_message(Id::new(CHANNEL))
                .content("into the void"),
        )
        .await
        .unwrap_or_else(|_| panic!("{attempt}: a send during the outage hung"));
        match outcome.map(|_| ()).map_err(|e| e.into_parts().0) {
            Err(ErrorType::RequestError) => {}
            other => panic!("{attempt}: expected RequestError, got {other:?}"),
        }
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    fake.set_down(false);
    http.create_message(Id::new(CHANNEL))
        .content("back")
        .await
        .unwrap_or_else(|e| panic!("after the outage: {e}"));
    let sent: Vec<String> = fake.sent_messages().into_iter().map(|(_, c)| c).collect();
    assert_eq!(sent, ["warm up the connection pool", "back"]);
}

#[tokio::test]
async fn nothing_listening_is_a_request_error_and_silence_is_a_timeout() {
    install_crypto_provider();
    // A port nobody listens on: connection refused.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap_or_else(|e| panic!("probe port: {e}"));
    let http = Client::builder()
        .token(TOKEN.to_owned())
        .proxy(closed.to_string(), true)
        .build();
    let refused = tokio::time::timeout(DEADLINE, http.current_user()).await;
    match refused.map(|r| r.map(|_| ()).map_err(|e| e.into_parts().0)) {
        Ok(Err(ErrorType::RequestError)) => {}
        other => panic!("expected RequestError, got {other:?}"),
    }

    // A server that accepts but never answers: twilight's per-attempt timeout fires.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("bind: {e}"));
    let silent_addr = silent.local_addr().unwrap_or_else(|e| panic!("addr: {e}"));
    let http = Client::builder()
        .token(TOKEN.to_owned())
        .proxy(silent_addr.to_string(), true)
        .timeout(Duration::from_millis(300))
        .build();
    let started = Instant::now();
    let silence = tokio::time::timeout(DEADLINE, http.current_user()).await;
    match silence.map(|r| r.map(|_| ()).map_err(|e| e.into_parts().0)) {
        Ok(Err(ErrorType::RequestTimedOut)) => {}
        other => panic!("expected RequestTimedOut, got {other:?}"),
    }
    assert!(started.elapsed() >= Duration::from_millis(300));
    drop(silent);
}

#[tokio::test]
async fn after_one_401_the_client_refuses_every_request() {
    install_crypto_provider();
    let fake = start_fake_discord().await;
    let http = http_for(&fake);
    fake.set_unauthorized(true);

    let first = http
        .current_user()
        .await
        .map(|_| ())
        .map_err(|e| e.into_parts().0);
    match first {
        Err(ErrorType::Response { status, .. }) => assert_eq!(status.get(), 401),
        other => panic!("expected a 401, got {other:?}"),
    }
    fake.set_unauthorized(false);
    let second = http
        .current_user()
        .await
        .map(|_| ())
        .map_err(|e| e.into_parts().0);
    assert!(
        matches!(second, Err(ErrorType::Unauthorized)),
        "twilight remembers the 401: {second:?}"
    );
    assert_eq!(
        fake.requests().len(),
        1,
        "the second call never left the client"
    );
}
