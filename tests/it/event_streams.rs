//! `GET /api/events` is bounded: at most `http.max_event_streams` streams at once (one more
//! gets 503, a closed one frees its slot), a stream without events ends after
//! `http.event_stream_idle`, and the probes keep answering with every slot taken.

use crate::common;

use std::time::{Duration, Instant};

use common::{eventually_some, start_bot, start_bot_with, Bot, TestEnv};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Opens `GET path` on a connection of its own and reads the status line; the connection
/// stays open (an event stream keeps streaming) until the returned socket is dropped.
async fn open(bot: &Bot, path: &str) -> (u16, TcpStream) {
    let address = bot.base.trim_start_matches("http://").to_string();
    let mut stream = match TcpStream::connect(&address).await {
        Ok(stream) => stream,
        Err(error) => panic!("connect {address}: {error}"),
    };
    let request = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\n\r\n");
    if let Err(error) = stream.write_all(request.as_bytes()).await {
        panic!("write: {error}");
    }
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    let deadline = Instant::now() + Duration::from_secs(20);
    while !head.ends_with(b"\r\n") && Instant::now() < deadline {
        match tokio::time::timeout(Duration::from_secs(20), stream.read(&mut byte)).await {
            Ok(Ok(1)) => head.push(byte[0]),
            _ => break,
        }
    }
    let status = String::from_utf8_lossy(&head)
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    (status, stream)
}

#[actix_rt::test]
async fn the_sixty_fifth_stream_gets_503_and_a_closed_one_frees_its_slot() {
    let bot = start_bot("").await;
    let mut streams = Vec::new();
    for n in 0..64 {
        let (status, stream) = open(&bot, "/api/events").await;
        assert_eq!(status, 200, "stream {n}");
        streams.push(stream);
    }
    let (status, _) = open(&bot, "/api/events").await;
    assert_eq!(status, 503, "the 65th stream");
    // Everything else still answers with every slot taken.
    assert_eq!(bot.get("/health/live").await.0, 200);
    assert_eq!(bot.get("/health").await.0, 200);
    assert_eq!(bot.get("/api/tasks").await.0, 200);
    let (_, body) = bot.get("/api/events").await;
    assert!(
        body.to_string().contains("max_event_streams"),
        "the 503 names the key: {body}"
    );

    // A client that goes away gives its slot back (the server notices the closed connection
    // at its next write at the latest: the keepalive, every 15 s).
    drop(streams.pop());
    let reopened = eventually_some(Duration::from_secs(40), || async {
        let (status, stream) = open(&bot, "/api/events").await;
        if status == 200 {
            return Some(stream);
        }
        assert_eq!(status, 503);
        None
    })
    .await;
    assert!(
        reopened.is_some(),
        "the closed stream's slot was never freed"
    );
    // And the cap holds again.
    assert_eq!(open(&bot, "/api/events").await.0, 503);
}

#[actix_rt::test]
async fn a_smaller_cap_from_the_config_is_honoured() {
    let bot = start_bot_with("http:\n  max_event_streams: 2\n", TestEnv(Vec::new())).await;
    let first = open(&bot, "/api/events").await;
    let second = open(&bot, "/api/events").await;
    assert_eq!((first.0, second.0), (200, 200));
    assert_eq!(open(&bot, "/api/events").await.0, 503);
    assert_eq!(bot.get("/health/live").await.0, 200);
}

#[actix_rt::test]
async fn a_stream_without_events_ends_after_the_idle_time_and_frees_its_slot() {
    let bot = start_bot_with(
        "http:\n  max_event_streams: 1\n  event_stream_idle: 2s\n",
        TestEnv(Vec::new()),
    )
    .await;
    let (status, mut stream) = open(&bot, "/api/events").await;
    assert_eq!(status, 200);
    assert_eq!(
        open(&bot, "/api/events").await.0,
        503,
        "the one slot is taken"
    );
    // The server ends the body: the chunked stream's last chunk, then EOF (the client keeps
    // its side open; it is the server that lets go).
    let mut rest = Vec::new();
    let ended = tokio::time::timeout(Duration::from_secs(30), async {
        let mut buffer = [0u8; 256];
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return true,
                Ok(n) => {
                    rest.extend_from_slice(&buffer[..n]);
                    if rest.ends_with(b"0\r\n\r\n") {
                        return true;
                    }
                }
            }
        }
    })
    .await
    .unwrap_or(false);
    assert!(
        ended,
        "the idle stream never ended: {}",
        String::from_utf8_lossy(&rest)
    );
    let reopened = common::eventually(Duration::from_secs(10), || async {
        open(&bot, "/api/events").await.0 == 200
    })
    .await;
    assert!(reopened, "the idle stream's slot was not freed");
}

#[actix_rt::test]
async fn a_stream_with_events_is_not_idle() {
    let bot = start_bot_with("http:\n  event_stream_idle: 3s\n", TestEnv(Vec::new())).await;
    let (status, mut stream) = open(&bot, "/api/events").await;
    assert_eq!(status, 200);
    // An event every second for 6 s, twice the idle time: the stream carries all of them.
    let mut got = Vec::new();
    for n in 0..6 {
        bot.task(serde_json::json!({"title": format!("Task {n}")}))
            .await;
        let wanted = format!("Task {n}");
        let seen = tokio::time::timeout(Duration::from_secs(10), async {
            let mut buffer = [0u8; 1024];
            while !String::from_utf8_lossy(&got).contains(&wanted) {
                match stream.read(&mut buffer).await {
                    Ok(0) | Err(_) => return false,
                    Ok(n) => got.extend_from_slice(&buffer[..n]),
                }
            }
            true
        })
        .await
        .unwrap_or(false);
        assert!(seen, "event {n} missing: {}", String::from_utf8_lossy(&got));
        actix_rt::time::sleep(Duration::from_secs(1)).await;
    }
}
