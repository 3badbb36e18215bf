//! Disabling the buttons of proposals that are no longer live: once a plan is answered (by a
//! click or a typed yes or no), replaced, cancelled or expired, the "Yes" / "No" under its
//! message are edited to disabled, so nobody clicks an answer that can no longer apply.
//!
//! Runs at the end of every delivery round (the gateway's timer, and after turns), so it also
//! catches plans that expired with nobody writing.
//! Invariants: a message is marked disabled only after Discord took the edit, or answered that
//! the message is gone; any other failure leaves it to the next round. Each edit is bounded by
//! `discord.http_timeout`.

use std::time::Duration;

use twilight_http::Client;
use twilight_model::id::Id;

use crate::clock::SharedClock;
use crate::conversation::proposal_messages::{self, ProposalMessage};
use crate::discord::buttons;
use crate::store::Store;

/// Edits per round; the rest wait for the next round (a second later).
const PER_ROUND: usize = 50;

/// Discord's "Unknown Message" and "Unknown Channel" codes: nothing left to disable.
const GONE: [u64; 2] = [10008, 10003];

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
    let mut done = Vec::new();
    for proposal in stale {
        if tokio::time::timeout(deadline, disable(http, &proposal))
            .await
            .unwrap_or(false)
        {
            done.push(proposal);
        }
    }
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
    let ids = (
        proposal
            .channel_id
            .parse::<u64>()
            .ok()
            .and_then(Id::new_checked),
        proposal
            .message_id
            .parse::<u64>()
            .ok()
            .and_then(Id::new_checked),
    );
    let (Some(channel), Some(message)) = ids else {
        return true;
    };
    let row = buttons::row(&proposal.plan_id, true);
    match http
        .update_message(channel, message)
        .components(Some(&row))
        .await
    {
        Ok(_) => true,
        Err(error) if is_gone(&error) => true,
        Err(error) => {
            tracing::warn!(%error, plan = %proposal.plan_id, "could not disable a proposal's buttons; tried again next round");
            false
        }
    }
}

pub(super) fn is_gone(error: &twilight_http::Error) -> bool {
    match error.kind() {
        twilight_http::error::ErrorType::Response { error, .. } => {
            matches!(error, twilight_http::api_error::ApiError::General(general) if GONE.contains(&general.code))
        }
        _ => false,
    }
}
