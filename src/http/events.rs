//! `GET /api/events`: the event bus as Server-Sent Events (`text/event-stream`).
//!
//! Owns: the wire format (`id:`, `event:`, one `data:` line of JSON, a blank line), the
//! `Last-Event-ID` resume, the `reset` notice (no `id:`, so the client's last id stays that of
//! the last real event) and the `: keepalive` comment every 15 s; how many streams may be open
//! at once ([`EventStreams`]: `http.max_event_streams`, one more gets 503) and how long one may
//! stay without an event (`http.event_stream_idle`, then it ends; keepalives do not count).
//! Takes: the request (behind the same guards as every /api/* route). Sends: a stream that ends
//! when the app begins draining, or when it was idle too long.
//! Invariants: reading the stream never slows Donna: a slow client lags on its own subscription
//! and resumes from the ring (or is told with `reset`). A stream holds its slot exactly as long
//! as the server holds its body: a client that goes away frees it, so leaked or forgotten
//! clients cannot take every descriptor and starve /health/live.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{get, web, HttpRequest, HttpResponse};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use super::error::ApiError;
use crate::app::App;
use crate::events::{Next, Subscription};

/// How often a comment is sent on a quiet stream, so proxies keep the connection.
pub const HEARTBEAT: Duration = Duration::from_secs(15);

/// The open streams' slots (`http.max_event_streams`) and how long a stream may go without an
/// event (`http.event_stream_idle`). Read from the config once, when the server starts.
#[derive(Debug, Clone)]
pub struct EventStreams {
    slots: Arc<Semaphore>,
    max: usize,
    idle: Duration,
}

impl EventStreams {
    pub fn new(max: usize, idle: Duration) -> Self {
        Self {
            slots: Arc::new(Semaphore::new(max)),
            max,
            idle,
        }
    }
}

struct Stream {
    subscription: Subscription,
    heartbeat: tokio::time::Interval,
    /// The `Last-Event-ID` the client sent, echoed in a `reset`.
    resumed_from: Option<String>,
    /// When the stream ends unless an event comes first.
    idle_until: Instant,
    idle: Duration,
    /// This stream's slot, given back when the server drops the body.
    _slot: OwnedSemaphorePermit,
}

/// One SSE frame for what the subscription yielded; None when the stream ends.
fn frame(next: Next, resumed_from: Option<&str>) -> Option<String> {
    match next {
        Next::Event(event) => Some(format!(
            "id: {}\nevent: {}\ndata: {}\n\n",
            event.id,
            event.payload.kind(),
            event.data()
        )),
        Next::Reset(reason) => Some(format!(
            "event: reset\ndata: {}\n\n",
            reason.data(resumed_from)
        )),
        Next::Closed => None,
    }
}

#[utoipa::path(
    tag = "events",
    params(
        ("Last-Event-ID" = Option<String>, Header, description = "Resume after this event id: every event after it still kept, else a `reset` event first"),
    ),
    responses(
        (status = 200, description = "Server-Sent Events: `nudge`, `message`, `task` (each with an id `<run>-<seq>`), `reset`, and a `: keepalive` comment every 15 s", content_type = "text/event-stream"),
        (status = 401, description = "Missing or wrong bearer token"),
        (status = 503, description = "Shutting down, or `http.max_event_streams` streams are open already"),
    )
)]
#[get("/events")]
pub async fn events(
    app: web::Data<App>,
    streams: web::Data<EventStreams>,
    request: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let Ok(slot) = streams.slots.clone().try_acquire_owned() else {
        return Err(ApiError::Unavailable(format!(
            "{} event streams are open already (http.max_event_streams); close one or try again later",
            streams.max
        )));
    };
    let resumed_from = request
        .headers()
        .get("last-event-id")
        .and_then(|value| value.to_str().ok())
        .map(|value| value.trim().to_string())
        .filter(|value| !value.is_empty());
    // Subscribed before the answer's headers go out: a client that has them misses nothing.
    let subscription = app.events.subscribe(resumed_from.as_deref());
    let mut heartbeat =
        tokio::time::interval_at(tokio::time::Instant::now() + HEARTBEAT, HEARTBEAT);
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let state = Stream {
        subscription,
        heartbeat,
        resumed_from,
        idle_until: Instant::now() + streams.idle,
        idle: streams.idle,
        _slot: slot,
    };
    let body = futures_util::stream::unfold(state, |mut state| async move {
        let chunk = tokio::select! {
            next = state.subscription.next() => {
                state.idle_until = Instant::now() + state.idle;
                frame(next, state.resumed_from.as_deref())?
            }
            _ = state.heartbeat.tick() => ": keepalive\n\n".to_string(),
            // Idle too long: the stream ends (the client may reconnect with Last-Event-ID).
            () = tokio::time::sleep_until(state.idle_until) => return None,
        };
        Some((Ok::<_, Infallible>(Bytes::from(chunk)), state))
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // nginx and friends: pass each event on at once.
        .insert_header(("x-accel-buffering", "no"))
        .streaming(body))
}
