//! The REST client against the fake: messages, threads and history, the bot's own messages
//! over the gateway, route and global 429s, server errors, outages, timeouts and a 401.

use super::*;

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
    let posts = fake.requests_to("POST", &format!("/channels/{CHANNEL}/messages"));
    assert_eq!(posts[0].body, Some(json!({"content": "hello from donna"})));
    assert!(fake
        .requests()
        .iter()
        .all(|r| r.authorization.as_deref() == Some(format!("Bot {TOKEN}").as_str())));
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

    let posts = fake.requests_to("POST", &format!("/channels/{CHANNEL}/messages"));
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
    let posts = fake.requests_to("POST", &format!("/channels/{CHANNEL}/messages"));
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
