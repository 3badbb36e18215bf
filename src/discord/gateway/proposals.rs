//! Disabling the buttons of proposals that are no longer live: once a plan is answered (by a
//! click or a typed yes or no), replaced, cancelled or expired, the "Yes" / "No" under its
//! message are edited to disabled, so nobody clicks an answer that can no longer apply.
//!
//! Runs at the end of every delivery round (the gateway's timer, and after turns), so it also
//! catches plans that expired with nobody writing.
//! Invariants: a message is marked disabled only when its edit is done (`disabled_buttons`);
//! any other failure leaves it to the next round. Each edit is bounded by `discord.http_timeout`.

use std::time::Duration;

use twilight_http::Client;

use super::disabled_buttons;
use crate::clock::SharedClock;
use crate::conversation::proposal_messages::{self, ProposalMessage};
use crate::discord::buttons;
use crate::store::Store;

/// Edits per round; the rest wait for the next round (a second later).
const PER_ROUND: usize = 50;

/// Disables the buttons of every proposal whose plan is no longer live.
pub(super) async fn disable_answered(
    http: &Client,
    store: &Store,
    clock: &SharedClock,
    deadline: Duration,
) {
    let now = clock.now();
    let stale = match store
        .read(move |conn| proposal_messages::to_disable(conn, now, PER_ROUND))
        .await
    {
        Ok(stale) => stale,
        Err(error) => {
            tracing::warn!(%error, "cannot read the proposals to disable");
            return;
        }
    };
    if stale.is_empty() {
        return;
    }
    let done = disabled_buttons::each_within(stale, deadline, async |proposal| {
        disable(http, proposal).await
    })
    .await;
    let recorded = store
        .write(move |conn| {
            for proposal in &done {
                proposal_messages::mark_disabled(conn, proposal)?;
            }
            Ok(())
        })
        .await;
    if let Err(error) = recorded {
        tracing::warn!(%error, "could not record disabled buttons; they are edited again");
    }
}

/// Edits one proposal's buttons to disabled; true when nothing is left to do.
async fn disable(http: &Client, proposal: &ProposalMessage) -> bool {
    let row = buttons::row(&proposal.plan_id, true);
    match disabled_buttons::edit_to(http, &proposal.channel_id, &proposal.message_id, &row).await {
        Ok(()) => true,
        Err(error) => {
            tracing::warn!(%error, plan = %proposal.plan_id, "could not disable a proposal's buttons; tried again next round");
            false
        }
    }
}
