//! Disabling the buttons of nudges that can no longer be answered: once the task is closed
//! (done, cancelled, gone), a newer nudge about it was sent, or a click answered this one, its
//! "Done" / "Snooze 1h" / "Tomorrow" are edited to disabled, so nobody clicks an answer that
//! would change nothing.
//!
//! Runs at the end of every delivery round (the gateway's timer, and after turns), so a task
//! closed by typing ("done" in the thread, the API, another chat) has its buttons disabled
//! within a round.
//! Invariants: a message is marked disabled only when its edit is done (`disabled_buttons`);
//! any other failure leaves it to the next round. Each edit is bounded by `discord.http_timeout`.

use std::time::Duration;

use twilight_http::Client;

use super::disabled_buttons;
use crate::conversation::nudge_messages::{self, NudgeMessage};
use crate::discord::nudge_buttons;
use crate::store::Store;

/// Edits per round; the rest wait for the next round (a second later).
const PER_ROUND: usize = 50;

/// Disables the buttons of every nudge that can no longer be answered.
pub(super) async fn disable_stale(http: &Client, store: &Store, deadline: Duration) {
    let stale = match store
        .read(|conn| nudge_messages::to_disable(conn, PER_ROUND))
        .await
    {
        Ok(stale) => stale,
        Err(error) => {
            tracing::warn!(%error, "cannot read the nudges to disable");
            return;
        }
    };
    if stale.is_empty() {
        return;
    }
    let done =
        disabled_buttons::each_within(stale, deadline, async |nudge| disable(http, nudge).await)
            .await;
    let recorded = store
        .write(move |conn| {
            for nudge in &done {
                nudge_messages::mark_disabled(conn, nudge)?;
            }
            Ok(())
        })
        .await;
    if let Err(error) = recorded {
        tracing::warn!(%error, "could not record disabled nudge buttons; they are edited again");
    }
}

/// Edits one nudge's buttons to disabled; true when nothing is left to do (a nudge whose ids
/// cannot carry buttons never had any).
async fn disable(http: &Client, nudge: &NudgeMessage) -> bool {
    let Some(row) = nudge_buttons::row(&nudge.task_id, &nudge.nudge_id, true) else {
        return true;
    };
    match disabled_buttons::edit_to(http, &nudge.channel_id, &nudge.message_id, &row).await {
        Ok(()) => true,
        Err(error) => {
            tracing::warn!(%error, nudge = %nudge.nudge_id, "could not disable a nudge's buttons; tried again next round");
            false
        }
    }
}
