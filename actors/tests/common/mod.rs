//! Helpers shared by the runtime's tests: a polling wait (no fixed sleeps as assertions).

use std::time::{Duration, Instant};

/// Polls `condition` every 5 ms until it holds or `limit` passes; returns whether it held.
pub async fn wait_until(limit: Duration, mut condition: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if condition() {
            return true;
        }
        actix_rt::time::sleep(Duration::from_millis(5)).await;
    }
    condition()
}
