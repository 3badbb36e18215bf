//! The event bus: a bounded ring of the last events plus a broadcast channel for live
//! subscribers, and the subscription that reads them in order without gaps or duplicates.
//!
//! Owns: this run's id (random, so ids never repeat across restarts without storing anything),
//! the sequence, the ring, the live channel and the "closing" signal (set when the app drains).
//! Invariants: `publish` assigns the sequence, stores the event and broadcasts it under one
//! short lock, so the ring and the live channel see the same order; it never awaits. A
//! subscription yields each event at most once and in sequence order; when it cannot give every
//! event after its position (the ring overflowed), it yields `Next::Reset` first.

use std::collections::VecDeque;
use std::sync::Arc;

use parking_lot::Mutex;
use tokio::sync::{broadcast, watch};

use super::payload::{Event, Payload, ResetReason};

/// How many events the ring keeps for clients that reconnect.
pub const RING_CAPACITY: usize = 1024;
/// How many events a live subscriber may fall behind before it lags (and resumes from the ring).
pub const LIVE_CAPACITY: usize = 256;

struct Ring {
    /// The sequence the next event gets (the first is 1).
    next: u64,
    events: VecDeque<Arc<Event>>,
}

impl Ring {
    /// The sequence of the oldest event kept (`next` when empty).
    fn oldest(&self) -> u64 {
        self.events.front().map_or(self.next, |event| event.seq)
    }

    /// Every kept event from `from` on, or None when some of them have left the ring.
    fn from(&self, from: u64) -> Option<Vec<Arc<Event>>> {
        if from < self.oldest() {
            return None;
        }
        Some(
            self.events
                .iter()
                .filter(|event| event.seq >= from)
                .cloned()
                .collect(),
        )
    }
}

struct Inner {
    run: String,
    capacity: usize,
    ring: Mutex<Ring>,
    live: broadcast::Sender<Arc<Event>>,
    closing: watch::Sender<bool>,
}

/// The app's event bus; clones share it.
#[derive(Clone)]
pub struct EventBus {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for EventBus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventBus")
            .field("run", &self.inner.run)
            .finish_non_exhaustive()
    }
}

impl Default for EventBus {
    fn default() -> Self {
        Self::new(RING_CAPACITY, LIVE_CAPACITY)
    }
}

impl EventBus {
    pub fn new(ring_capacity: usize, live_capacity: usize) -> Self {
        let (live, _) = broadcast::channel(live_capacity.max(1));
        let (closing, _) = watch::channel(false);
        Self {
            inner: Arc::new(Inner {
                // Random per process: an id from an earlier run is recognised as not ours, with
                // no state kept on disk.
                run: format!("{:08x}", rand::random::<u32>()),
                capacity: ring_capacity.max(1),
                ring: Mutex::new(Ring {
                    next: 1,
                    events: VecDeque::new(),
                }),
                live,
                closing,
            }),
        }
    }

    /// Records and broadcasts an event; returns its sequence. Never blocks on subscribers.
    pub fn publish(&self, payload: Payload) -> u64 {
        let mut ring = self.inner.ring.lock();
        let seq = ring.next;
        ring.next += 1;
        let event = Arc::new(Event {
            seq,
            id: format!("{}-{seq}", self.inner.run),
            payload,
        });
        ring.events.push_back(event.clone());
        while ring.events.len() > self.inner.capacity {
            ring.events.pop_front();
        }
        // An error only means nobody is listening right now.
        let _ = self.inner.live.send(event);
        seq
    }

    /// Stops every subscription (the app is draining): their streams end.
    pub fn close(&self) {
        self.inner.closing.send_replace(true);
    }

    /// Subscribes. Without `last_event_id`: live events only. With one of this run's ids still
    /// covered by the ring: every event after it, then live ones. Otherwise: a reset, the ring's
    /// content, then live ones.
    pub fn subscribe(&self, last_event_id: Option<&str>) -> Subscription {
        let ring = self.inner.ring.lock();
        // Subscribed under the lock: nothing is published between the backlog and the live
        // channel, so nothing is missed and the position filter drops any overlap.
        let live = self.inner.live.subscribe();
        let mut pending = VecDeque::new();
        let from = match last_event_id {
            None => ring.next,
            Some(id) => match self.position_after(&ring, id) {
                Ok(from) => {
                    pending.extend(
                        ring.from(from)
                            .unwrap_or_default()
                            .into_iter()
                            .map(Next::Event),
                    );
                    from
                }
                Err(reason) => {
                    pending.push_back(Next::Reset(reason));
                    pending.extend(ring.events.iter().cloned().map(Next::Event));
                    ring.oldest()
                }
            },
        };
        Subscription {
            bus: self.clone(),
            from,
            pending,
            live,
            closing: self.inner.closing.subscribe(),
        }
    }

    /// The sequence that follows `id`, if `id` is this run's and the ring still holds every
    /// event after it.
    fn position_after(&self, ring: &Ring, id: &str) -> Result<u64, ResetReason> {
        let (run, seq) = id.trim().rsplit_once('-').ok_or(ResetReason::UnknownId)?;
        let seq: u64 = seq.parse().map_err(|_| ResetReason::UnknownId)?;
        if run != self.inner.run || seq >= ring.next {
            return Err(ResetReason::UnknownId);
        }
        let from = seq + 1;
        if from < ring.oldest() {
            return Err(ResetReason::TooOld);
        }
        Ok(from)
    }

    fn from(&self, from: u64) -> Option<Vec<Arc<Event>>> {
        self.inner.ring.lock().from(from)
    }

    fn everything(&self) -> (u64, Vec<Arc<Event>>) {
        let ring = self.inner.ring.lock();
        (ring.oldest(), ring.events.iter().cloned().collect())
    }
}

/// What a subscription yields next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    Event(Arc<Event>),
    /// Events were missed; the ring's content follows.
    Reset(ResetReason),
    /// The app is draining: the stream ends.
    Closed,
}

/// One subscriber's position in the stream.
pub struct Subscription {
    bus: EventBus,
    /// The sequence of the next event to yield; anything older is a duplicate.
    from: u64,
    pending: VecDeque<Next>,
    live: broadcast::Receiver<Arc<Event>>,
    closing: watch::Receiver<bool>,
}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription")
            .field("from", &self.from)
            .finish_non_exhaustive()
    }
}

impl Subscription {
    /// The next event, a reset, or Closed once the app drains. Cancel-safe: dropping the future
    /// loses nothing (the live channel keeps the event).
    pub async fn next(&mut self) -> Next {
        loop {
            if let Some(next) = self.pending.pop_front() {
                match &next {
                    Next::Event(event) if event.seq < self.from => continue,
                    Next::Event(event) => self.from = event.seq + 1,
                    _ => {}
                }
                return next;
            }
            if *self.closing.borrow() {
                return Next::Closed;
            }
            tokio::select! {
                biased;
                changed = self.closing.changed() => {
                    if changed.is_err() || *self.closing.borrow() {
                        return Next::Closed;
                    }
                }
                received = self.live.recv() => match received {
                    Ok(event) => self.pending.push_back(Next::Event(event)),
                    Err(broadcast::error::RecvError::Lagged(_)) => self.catch_up(),
                    Err(broadcast::error::RecvError::Closed) => return Next::Closed,
                },
            }
        }
    }

    /// After lagging: the missed events from the ring, or a reset and the whole ring.
    fn catch_up(&mut self) {
        match self.bus.from(self.from) {
            Some(events) => self.pending.extend(events.into_iter().map(Next::Event)),
            None => {
                let (oldest, events) = self.bus.everything();
                tracing::debug!(
                    from = self.from,
                    oldest,
                    "event subscriber lagged past the ring"
                );
                self.from = oldest;
                self.pending.push_back(Next::Reset(ResetReason::Lagged));
                self.pending.extend(events.into_iter().map(Next::Event));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(n: u64) -> Payload {
        Payload::Message {
            thread_id: "thr".into(),
            text: format!("m{n}"),
        }
    }

    fn texts(nexts: &[Next]) -> Vec<String> {
        nexts
            .iter()
            .map(|next| match next {
                Next::Event(event) => match &event.payload {
                    Payload::Message { text, .. } => text.clone(),
                    other => other.kind().to_string(),
                },
                Next::Reset(reason) => format!("reset:{reason:?}"),
                Next::Closed => "closed".into(),
            })
            .collect()
    }

    async fn take(subscription: &mut Subscription, n: usize) -> Vec<Next> {
        let mut out = Vec::new();
        for _ in 0..n {
            out.push(subscription.next().await);
        }
        out
    }

    #[tokio::test]
    async fn a_reconnect_gets_exactly_the_events_after_its_id_then_live_ones() {
        let bus = EventBus::new(8, 4);
        let ids: Vec<String> = (1..=3)
            .map(|n| {
                let seq = bus.publish(message(n));
                format!("{}-{seq}", bus.inner.run)
            })
            .collect();
        let mut resumed = bus.subscribe(Some(&ids[0]));
        bus.publish(message(4));
        assert_eq!(texts(&take(&mut resumed, 3).await), ["m2", "m3", "m4"]);
        let mut fresh = bus.subscribe(None);
        bus.publish(message(5));
        assert_eq!(texts(&take(&mut fresh, 1).await), ["m5"]);
        assert_eq!(texts(&take(&mut resumed, 1).await), ["m5"]);
    }

    #[tokio::test]
    async fn an_unknown_or_overflowed_id_gets_a_reset_then_the_ring() {
        let bus = EventBus::new(2, 4);
        for n in 1..=4 {
            bus.publish(message(n));
        }
        let mut other_run = bus.subscribe(Some("deadbeef-1"));
        assert_eq!(
            texts(&take(&mut other_run, 3).await),
            ["reset:UnknownId", "m3", "m4"]
        );
        // Seen up to 1; 2 has left the ring (it keeps 3 and 4).
        let first = format!("{}-1", bus.inner.run);
        let mut too_old = bus.subscribe(Some(&first));
        assert_eq!(
            texts(&take(&mut too_old, 3).await),
            ["reset:TooOld", "m3", "m4"]
        );
        // Seen up to 2: nothing missed, no reset.
        let second = format!("{}-2", bus.inner.run);
        let mut just_in_time = bus.subscribe(Some(&second));
        assert_eq!(texts(&take(&mut just_in_time, 2).await), ["m3", "m4"]);
    }

    #[tokio::test]
    async fn a_lagging_subscriber_resumes_from_the_ring_without_duplicates() {
        let bus = EventBus::new(16, 2);
        let mut slow = bus.subscribe(None);
        for n in 1..=6 {
            bus.publish(message(n));
        }
        assert_eq!(
            texts(&take(&mut slow, 6).await),
            ["m1", "m2", "m3", "m4", "m5", "m6"]
        );
        bus.close();
        assert_eq!(slow.next().await, Next::Closed);
    }
}
