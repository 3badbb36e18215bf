//! The fake Discord's gateway: the WebSocket session as twilight's `Shard` sees it (HELLO,
//! IDENTIFY → READY, RESUME → the replay of missed dispatches → RESUMED, heartbeat → ACK, op 7
//! RECONNECT, op 9 INVALID SESSION, close codes), and what a test observes of it and switches on
//! it (`FakeDiscord`'s gateway methods: dispatching messages and raw events, reconnects, closes,
//! outages, zombied heartbeats).
//! Invariant: a frame that carries a sequence number is numbered under the lock, in the order it
//! is written, so it can never overtake a later dispatch.

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_websockets::{CloseCode, Message as WsMessage, ServerBuilder};

use super::json::{current_user_json, message_id_of};
use super::state::{Control, LiveConnection, Session, Shared};
use super::{FakeDiscord, IdentifyRecord, IncomingMessage, ResumeRecord, APPLICATION_ID};

impl FakeDiscord {
    // ---- gateway: observations -------------------------------------------------------------

    /// WebSocket handshakes accepted so far.
    pub fn connections(&self) -> usize {
        self.shared.lock().gateway_paths.len()
    }

    /// Request path and query of every accepted handshake, e.g. `/?v=10&encoding=json` or
    /// `/resume/?v=10&encoding=json`.
    pub fn gateway_paths(&self) -> Vec<String> {
        self.shared.lock().gateway_paths.clone()
    }

    pub fn identify_count(&self) -> usize {
        self.shared.lock().identifies.len()
    }

    pub fn identifies(&self) -> Vec<IdentifyRecord> {
        self.shared.lock().identifies.clone()
    }

    pub fn resume_count(&self) -> usize {
        self.shared.lock().resumes.len()
    }

    pub fn resumes(&self) -> Vec<ResumeRecord> {
        self.shared.lock().resumes.clone()
    }

    pub fn heartbeat_count(&self) -> usize {
        self.shared.lock().heartbeats
    }

    /// Close codes the client sent (`None`: a close frame without a code).
    pub fn client_close_codes(&self) -> Vec<Option<u16>> {
        self.shared.lock().client_closes.clone()
    }

    /// Whether a connection currently holds an identified (READY or RESUMED) session.
    pub fn has_live_session(&self) -> bool {
        self.shared.lock().live.is_some()
    }

    /// Current session id, if the client identified.
    pub fn session_id(&self) -> Option<String> {
        self.shared.lock().session.as_ref().map(|s| s.id.clone())
    }

    /// Events withheld because the session's intents did not cover them.
    pub fn dropped_by_intents(&self) -> usize {
        self.shared.lock().dropped_by_intents
    }

    // ---- gateway: controls -----------------------------------------------------------------

    /// Sends a MESSAGE_CREATE (and stores the message for `GET .../messages`). Returns its id.
    /// Without a live session the event waits for the next READY / is replayed on RESUME.
    pub fn dispatch_message_create(&self, message: IncomingMessage) -> u64 {
        let mut inner = self.shared.lock();
        let value = inner.store_incoming(&message);
        let id = message_id_of(&value);
        inner.dispatch(&self.shared.options, "MESSAGE_CREATE", value);
        id
    }

    /// Stores a message without dispatching it: one posted while the bot was offline, for a
    /// catch-up through `GET /channels/{id}/messages?after=`. Returns its id.
    pub fn insert_message(&self, message: IncomingMessage) -> u64 {
        let value = self.shared.lock().store_incoming(&message);
        message_id_of(&value)
    }

    /// Sends any dispatch event (`t`, `d`), e.g. THREAD_UPDATE. Intents are not checked.
    pub fn dispatch_raw(&self, event_type: &str, data: Value) {
        let mut inner = self.shared.lock();
        inner.queue_dispatch(event_type, data);
    }

    /// Sends op 7 RECONNECT on the live connection. Events dispatched from now on are held and
    /// replayed when the client resumes. Panics if no connection holds a session.
    #[track_caller]
    pub fn send_reconnect(&self) {
        let mut inner = self.shared.lock();
        let Some(live) = inner.live.take() else {
            panic!("fake discord: send_reconnect without an identified gateway connection");
        };
        let frame = json!({"op": 7, "d": null, "s": null, "t": null});
        let _ = live.tx.send(Control::Frame(frame.to_string()));
    }

    /// Sends op 9 INVALID SESSION (`resumable` as given) on the live connection.
    #[track_caller]
    pub fn send_invalid_session(&self, resumable: bool) {
        let mut inner = self.shared.lock();
        let Some(live) = inner.live.take() else {
            panic!("fake discord: send_invalid_session without an identified connection");
        };
        if !resumable {
            inner.session = None;
        }
        let frame = json!({"op": 9, "d": resumable, "s": null, "t": null});
        let _ = live.tx.send(Control::Frame(frame.to_string()));
    }

    /// Closes every open gateway connection with `code` (e.g. 4000 unknown error: the client
    /// resumes; 4004 authentication failed or 4014 disallowed intents: it must give up).
    pub fn close_with(&self, code: u16) {
        let mut inner = self.shared.lock();
        inner.live = None;
        for tx in inner.open.values() {
            let _ = tx.send(Control::Close(code, close_reason(code).to_owned()));
        }
    }

    /// Answers the next IDENTIFY by closing with `code` instead of READY (e.g. 4004 for a bad
    /// token, which Discord reports right after IDENTIFY).
    pub fn reject_next_identify(&self, code: u16) {
        self.shared.lock().reject_identify = Some(code);
    }

    /// Closes with 4014 any IDENTIFY asking for one of these (privileged) intents, as Discord
    /// does when they are not enabled for the application.
    pub fn set_disallowed_intents(&self, mask: u64) {
        self.shared.lock().disallowed_intents = mask;
    }

    /// Drops every open gateway TCP connection without a close frame (a network cut).
    pub fn drop_connections(&self) {
        let mut inner = self.shared.lock();
        inner.live = None;
        for tx in inner.open.values() {
            let _ = tx.send(Control::Drop);
        }
    }

    /// Whether to answer heartbeats; off makes the connection look "zombied" to the client.
    pub fn set_heartbeat_ack(&self, ack: bool) {
        self.shared.lock().no_heartbeat_ack = !ack;
    }

    /// While down, new gateway TCP connections are closed right after they are accepted.
    pub fn set_gateway_down(&self, down: bool) {
        self.shared.lock().gateway_down = down;
    }
}

pub(super) async fn accept_gateway(shared: Arc<Shared>, listener: TcpListener) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // E.g. out of file descriptors: back off rather than spin the test's runtime.
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        if shared.lock().gateway_down {
            drop(stream);
            continue;
        }
        let task = tokio::spawn(serve_gateway(Arc::clone(&shared), stream));
        let mut inner = shared.lock();
        inner.tasks.retain(|t| !t.is_finished());
        inner.tasks.push(task.abort_handle());
    }
}

async fn serve_gateway(shared: Arc<Shared>, stream: TcpStream) {
    let Ok((request, mut ws)) = ServerBuilder::new().accept(stream).await else {
        return;
    };
    let path = request
        .uri()
        .path_and_query()
        .map_or_else(|| request.uri().to_string(), ToString::to_string);
    let (tx, mut rx) = mpsc::unbounded_channel();
    let conn_id = {
        let mut inner = shared.lock();
        inner.gateway_paths.push(path);
        inner.next_conn_id += 1;
        let id = inner.next_conn_id;
        inner.open.insert(id, tx.clone());
        id
    };
    let heartbeat_ms =
        u64::try_from(shared.options.heartbeat_interval.as_millis()).unwrap_or(u64::MAX);
    let hello = json!({
        "op": 10,
        "d": {
            "heartbeat_interval": heartbeat_ms,
            "_trace": ["[\"fake-discord-gateway\"]"],
        },
        "s": null,
        "t": null,
    });
    let mut closing = false;
    if ws.send(WsMessage::text(hello.to_string())).await.is_ok() {
        loop {
            tokio::select! {
                incoming = ws.next() => {
                    let Some(Ok(message)) = incoming else { break };
                    if let Some(text) = message.as_text() {
                        let replies = on_client_frame(&shared, conn_id, &tx, text);
                        let mut failed = false;
                        for reply in replies {
                            let outcome = match reply {
                                Reply::Frame(frame) => ws.send(WsMessage::text(frame)).await,
                                Reply::Close(code, reason) => {
                                    closing = true;
                                    let code = CloseCode::try_from(code).ok();
                                    ws.send(WsMessage::close(code, &reason)).await
                                }
                            };
                            failed |= outcome.is_err();
                        }
                        if failed {
                            break;
                        }
                    } else if let Some((code, _reason)) = message.as_close() {
                        let code = u16::from(code);
                        // tokio-websockets answers the close itself; 1005 means "no code sent".
                        shared.lock().client_closes.push((code != 1005).then_some(code));
                        closing = true;
                    }
                }
                control = rx.recv(), if !closing => {
                    let outcome = match control {
                        Some(Control::Frame(frame)) => ws.send(WsMessage::text(frame)).await,
                        Some(Control::Close(code, reason)) => {
                            closing = true;
                            let code = CloseCode::try_from(code).ok();
                            ws.send(WsMessage::close(code, &reason)).await
                        }
                        Some(Control::Drop) | None => break,
                    };
                    if outcome.is_err() {
                        break;
                    }
                }
            }
        }
    }
    let mut inner = shared.lock();
    inner.open.remove(&conn_id);
    if inner.live.as_ref().is_some_and(|l| l.conn_id == conn_id) {
        inner.live = None;
    }
}

/// What the connection task writes in answer to a client frame.
enum Reply {
    Frame(String),
    Close(u16, String),
}

/// Handles one client payload under the lock and returns the frames to write, in order. Frames
/// that carry a sequence number are numbered here, so they can never overtake later dispatches.
fn on_client_frame(
    shared: &Shared,
    conn_id: u64,
    tx: &mpsc::UnboundedSender<Control>,
    text: &str,
) -> Vec<Reply> {
    let Ok(payload) = serde_json::from_str::<Value>(text) else {
        return vec![Reply::Close(4002, close_reason(4002).to_owned())];
    };
    let data = &payload["d"];
    let mut inner = shared.lock();
    match payload["op"].as_u64() {
        Some(1) => {
            inner.heartbeats += 1;
            if inner.no_heartbeat_ack {
                Vec::new()
            } else {
                vec![Reply::Frame(
                    json!({"op": 11, "d": null, "s": null, "t": null}).to_string(),
                )]
            }
        }
        Some(2) => {
            let record = IdentifyRecord {
                token: data["token"].as_str().unwrap_or_default().to_owned(),
                intents: data["intents"].as_u64().unwrap_or(0),
                shard: data["shard"]
                    .as_array()
                    .and_then(|s| Some([s.first()?.as_u64()?, s.get(1)?.as_u64()?])),
                compress: data["compress"].as_bool().unwrap_or(false),
                raw: data.clone(),
            };
            let intents = record.intents;
            let shard = record.shard;
            inner.identifies.push(record);
            if let Some(code) = inner.reject_identify.take() {
                return vec![Reply::Close(code, close_reason(code).to_owned())];
            }
            if intents & inner.disallowed_intents != 0 {
                return vec![Reply::Close(4014, close_reason(4014).to_owned())];
            }
            inner.session_counter += 1;
            let session_id = format!("fake-session-{}", inner.session_counter);
            let ready = json!({
                "v": 10,
                "user": current_user_json(),
                "guilds": [],
                "session_id": session_id,
                "session_type": "normal",
                "resume_gateway_url": shared.resume_url(),
                "shard": shard,
                "application": {"id": APPLICATION_ID.to_string(), "flags": 0},
                "_trace": ["[\"fake-discord-session\"]"],
            });
            let ready_frame = json!({"op": 0, "t": "READY", "s": 1, "d": ready}).to_string();
            inner.session = Some(Session {
                id: session_id,
                intents,
                seq: 1,
                log: vec![(1, ready_frame.clone())],
            });
            inner.live = Some(LiveConnection {
                conn_id,
                tx: tx.clone(),
            });
            // Events dispatched before any session go to this connection's queue, which the
            // task drains only after it has written READY.
            for (event_type, data) in std::mem::take(&mut inner.before_ready) {
                inner.dispatch(&shared.options, &event_type, data);
            }
            vec![Reply::Frame(ready_frame)]
        }
        Some(6) => {
            let record = ResumeRecord {
                token: data["token"].as_str().unwrap_or_default().to_owned(),
                session_id: data["session_id"].as_str().unwrap_or_default().to_owned(),
                seq: data["seq"].as_u64().unwrap_or(0),
            };
            let resumable = inner
                .session
                .as_ref()
                .is_some_and(|s| s.id == record.session_id);
            let from_seq = record.seq;
            inner.resumes.push(record);
            if !resumable {
                return vec![Reply::Frame(
                    json!({"op": 9, "d": false, "s": null, "t": null}).to_string(),
                )];
            }
            // Replay what the client had not seen, then RESUMED, as Discord does.
            let mut replies: Vec<Reply> = inner
                .session
                .as_ref()
                .map(|s| {
                    s.log
                        .iter()
                        .filter(|(seq, _)| *seq > from_seq)
                        .map(|(_, frame)| Reply::Frame(frame.clone()))
                        .collect()
                })
                .unwrap_or_default();
            if let Some(session) = inner.session.as_mut() {
                session.seq += 1;
                let resumed = json!({
                    "op": 0,
                    "t": "RESUMED",
                    "s": session.seq,
                    "d": {"_trace": ["[\"fake-discord-resume\"]"]},
                })
                .to_string();
                session.log.push((session.seq, resumed.clone()));
                replies.push(Reply::Frame(resumed));
            }
            inner.live = Some(LiveConnection {
                conn_id,
                tx: tx.clone(),
            });
            replies
        }
        // Presence, voice state, request guild members...: accepted and ignored.
        Some(3 | 4 | 8 | 31) => Vec::new(),
        _ => vec![Reply::Close(4001, close_reason(4001).to_owned())],
    }
}

/// Discord's reasons for its gateway close codes.
fn close_reason(code: u16) -> &'static str {
    match code {
        4000 => "Unknown error.",
        4001 => "Unknown opcode.",
        4002 => "Decode error.",
        4003 => "Not authenticated.",
        4004 => "Authentication failed.",
        4005 => "Already authenticated.",
        4007 => "Invalid seq.",
        4008 => "Rate limited.",
        4009 => "Session timed out.",
        4010 => "Invalid shard.",
        4011 => "Sharding required.",
        4012 => "Invalid API version.",
        4013 => "Invalid intent(s).",
        4014 => "Disallowed intent(s).",
        _ => "",
    }
}
