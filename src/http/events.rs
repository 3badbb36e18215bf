//! `GET /api/events`: the event bus as Server-Sent Events (`text/event-stream`).
//!
//! Owns: the wire format (`id:`, `event:`, one `data:` line of JSON, a blank line), the
//! `Last-Event-ID` resume, the `reset` notice (no `id:`, so the client's last id stays that of
//! the last real event) and the `: keepalive` comment every 15 s.
//! Takes: the request (behind the same guards as every /api/* route). Sends: a stream that ends
//! when the app begins draining.
//! Invariant: reading the stream never slows Donna: a slow client lags on its own subscription
//! and resumes from the ring (or is told with `reset`).

use std::convert::Infallible;
use std::time::Duration;

use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{get, web, HttpRequest, HttpResponse};

use crate::app::App;
use crate::events::{Next, Subscription};

/// How often a comment is sent on a quiet stream, so proxies keep the connection.
pub const HEARTBEAT: Duration = Duration::from_secs(15);

struct Stream {
    subscription: Subscription,
    heartbeat: tokio::time::Interval,
    /// The `Last-Event-ID` the client sent, echoed in a `reset`.
    resumed_from: Option<String>,
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
        (status = 503, description = "Shutting down"),
    )
)]
#[get("/events")]
pub async fn events(app: web::Data<App>, request: HttpRequest) -> HttpResponse {
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
    };
    let body = futures_util::stream::unfold(state, |mut state| async move {
        let chunk = tokio::select! {
            next = state.subscription.next() => frame(next, state.resumed_from.as_deref())?,
            _ = state.heartbeat.tick() => ": keepalive\n\n".to_string(),
        };
        Some((Ok::<_, Infallible>(Bytes::from(chunk)), state))
    });
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // nginx and friends: pass each event on at once.
        .insert_header(("x-accel-buffering", "no"))
        .streaming(body)
}
