//! The gateway against the fake: identify and delivery, intents, op 7 and resume, outages,
//! invalid sessions, the fatal close codes 4004 and 4014, heartbeats and zombied connections.

use super::*;

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
        IncomingMessage::guild(
            GUILD,
            CHANNEL,
            HUMAN,
            &format!("hi <@{}>", ids::BOT_USER_ID),
        )
        .author_name("alice")
        .mentioning_bot(),
    );
    let (message, _) = next_matching(&mut shard, "guild MESSAGE_CREATE", |event| match event {
        Event::MessageCreate(message) => Some(message.clone()),
        _ => None,
    })
    .await;
    assert_eq!(message.id.get(), id);
    assert_eq!(message.content, format!("hi <@{}>", ids::BOT_USER_ID));
    assert_eq!(message.guild_id.map(Id::get), Some(GUILD));
    assert_eq!(message.channel_id.get(), CHANNEL);
    assert_eq!(message.author.id.get(), HUMAN);
    assert_eq!(message.author.name, "alice");
    assert!(!message.author.bot);
    assert!(message.mentions.iter().any(|m| m.id.get() == BOT_USER_ID));
    assert_eq!(message.kind, MessageType::Regular);

    fake.dispatch_message_create(IncomingMessage::dm(DM, HUMAN, "a direct message"));
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

    fake.dispatch_message_create(IncomingMessage::dm(DM, HUMAN, "never delivered"));
    fake.dispatch_message_create(IncomingMessage::guild(GUILD, CHANNEL, HUMAN, "secret"));
    let (blank, _) = next_matching(&mut shard, "blanked guild message", |event| match event {
        Event::MessageCreate(message) => Some(message.clone()),
        _ => None,
    })
    .await;
    assert_eq!(blank.content, "", "content needs MESSAGE_CONTENT");
    assert_eq!(fake.dropped_by_intents(), 1, "DMs need DIRECT_MESSAGES");

    fake.dispatch_message_create(
        IncomingMessage::guild(
            GUILD,
            CHANNEL,
            HUMAN,
            &format!("<@{}> visible", ids::BOT_USER_ID),
        )
        .mentioning_bot(),
    );
    message_create(&mut shard, &format!("<@{}> visible", ids::BOT_USER_ID)).await;
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
