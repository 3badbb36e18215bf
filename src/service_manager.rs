//! Telling a service manager (systemd's `Type=notify`) how the process is doing: `READY=1` once
//! the HTTP server serves and the inbox is recovered, `WATCHDOG=1` while the runtime's event
//! loop turns, `STOPPING=1` when the stop begins.
//!
//! Owns: the sd_notify protocol (through the `sd-notify` crate: a datagram to `$NOTIFY_SOCKET`).
//! Takes no messages; the binary's `run` calls it at those three moments.
//! Invariants: without `$NOTIFY_SOCKET` every call does nothing; a failed notification is
//! logged once and never stops Donna (the service manager, not Donna, decides what a missing
//! ping means); the watchdog pings at half the interval systemd asks for (`$WATCHDOG_USEC`), so
//! one late tick is not a restart.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sd_notify::NotifyState;

/// Startup is finished: the server answers and the messages of the last run are re-queued.
pub fn ready(address: &str) {
    let status = format!("serving on {address}");
    send(&[NotifyState::Ready, NotifyState::Status(&status)]);
}

/// The stop has begun: no new messages are taken; the turns in flight finish.
pub fn stopping() {
    send(&[
        NotifyState::Stopping,
        NotifyState::Status("stopping: finishing turns in flight"),
    ]);
}

/// When the service manager asked for a watchdog, pings it from the current (actix) event loop
/// until the process ends: a loop that stops turning stops the pings, and systemd restarts it.
pub fn spawn_watchdog() {
    let Some(interval) = sd_notify::watchdog_enabled() else {
        return;
    };
    let period = (interval / 2).max(Duration::from_millis(10));
    tracing::info!(
        interval_ms = u64::try_from(interval.as_millis()).unwrap_or(u64::MAX),
        "service manager watchdog on"
    );
    actix_rt::spawn(async move {
        let mut ticks = tokio::time::interval(period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            send(&[NotifyState::Watchdog]);
        }
    });
}

/// Whether a failed notification was already logged (the watchdog would repeat it every tick).
static FAILURE_LOGGED: AtomicBool = AtomicBool::new(false);

fn send(states: &[NotifyState<'_>]) {
    if let Err(error) = sd_notify::notify(states) {
        if !FAILURE_LOGGED.swap(true, Ordering::Relaxed) {
            tracing::warn!(%error, "cannot notify the service manager (said once)");
        }
    }
}
