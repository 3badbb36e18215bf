//! The typing indicator: Discord shows "Donna is typing…" while a turn of a Discord channel
//! waits for the model (`turn::thinking`).
//!
//! Invariant: never blocks the turn: the request is spawned, bounded by
//! `discord.http_timeout`, and a failure is only logged (the answer comes anyway).

use std::sync::Arc;
use std::time::Duration;

use twilight_http::Client;
use twilight_model::id::Id;

use crate::conversation::Channel;
use crate::turn::thinking::ThinkingSink;
use crate::turn::Inbound;

/// Sends the typing indicator into the Discord channel of a turn.
#[derive(Debug)]
pub struct DiscordTyping {
    pub http: Arc<Client>,
    pub deadline: Duration,
}

impl ThinkingSink for DiscordTyping {
    fn thinking(&self, inbound: &Inbound) {
        if inbound.channel != Channel::Discord {
            return;
        }
        let Some(channel) = inbound
            .thread_id
            .parse::<u64>()
            .ok()
            .and_then(Id::new_checked)
        else {
            return;
        };
        let (http, deadline) = (self.http.clone(), self.deadline);
        tokio::spawn(async move {
            match tokio::time::timeout(deadline, http.create_typing_trigger(channel)).await {
                Ok(Ok(_)) => {}
                Ok(Err(error)) => tracing::debug!(%error, "typing indicator not shown"),
                Err(_) => tracing::debug!("typing indicator timed out"),
            }
        });
    }
}
