//! Button clicks: a click on "Yes" / "No" under a proposal answers exactly that plan, through
//! the same turn as a typed "yes" / "no" would reach (entering as the intent `yes` / `no`, never
//! as the words). Clicks on a nudge's buttons go to `nudge_clicks`, on
//! a list's More button to `list_pages`.
//!
//! Owns: reading a click (which plan, which answer, who), deciding whether it may answer, the
//! interaction's acknowledgement, and queueing its turn.
//! Takes: `Interaction`s from the channel's inbound queue (so a click keeps its place among the
//! channel's messages). Sends: the callback to Discord; `Incoming` to the intake (the intent yes
//! or no, the interaction id as the message id, `answers_plan` the button's plan).
//! Invariants:
//! - A click is acknowledged once, at once (a deferred update, or the ephemeral reason it
//!   changes nothing), well within Discord's 3 seconds: one store read comes before it, no
//!   turn and no model.
//! - Only the person the proposal was for (the author of the message that led to it) may answer
//!   it; anyone else is told so, privately, and nothing changes.
//! - Only a live plan is answered; a replaced, expired, cancelled or answered one is told why,
//!   privately, and nothing changes. The turn itself answers only the named plan (a newer one
//!   proposed meanwhile is never confirmed by it: `turn::decide_click::pin_to_plan`).
//! - The interaction id is the message id: an interaction delivered twice is one message in the
//!   inbox, applied once.

use chrono::{DateTime, Utc};
use rusqlite::Connection;
use twilight_http::Client;
use twilight_model::application::interaction::{Interaction, InteractionData, InteractionType};
use twilight_model::channel::message::MessageFlags;
use twilight_model::http::interaction::{
    InteractionResponse, InteractionResponseData, InteractionResponseType,
};

use super::inbound::InboundWork;
use crate::conversation::plans::{self, PlanStatus};
use crate::conversation::Channel;
use crate::discord::buttons::{self, PlanButton, Refusal};
use crate::discord::{more_button, nudge_buttons};
use crate::store::StoreError;
use crate::turn::intake::Incoming;

impl InboundWork {
    /// A click or a slash command, up to the point where its turn (if any) is queued.
    pub(super) async fn interaction(self, interaction: Box<Interaction>) {
        match interaction.kind {
            InteractionType::MessageComponent => self.click(interaction).await,
            InteractionType::ApplicationCommand => self.command(interaction).await,
            InteractionType::ApplicationCommandAutocomplete => self.autocomplete(interaction).await,
            _ => tracing::debug!(kind = ?interaction.kind, "an interaction Donna does not use"),
        }
    }

    async fn click(self, interaction: Box<Interaction>) {
        let custom_id = match &interaction.data {
            Some(InteractionData::MessageComponent(data)) => data.custom_id.clone(),
            _ => return,
        };
        let (Some(user), Some(channel)) = (
            interaction.author_id().map(|id| id.get()),
            interaction.channel.as_ref().map(|c| c.id.get().to_string()),
        ) else {
            return;
        };
        if let Some(nudge) = nudge_buttons::parse(&custom_id) {
            self.nudge_click(&interaction, user, nudge).await;
            return;
        }
        if let Some(more) = more_button::parse(&custom_id) {
            if self.settings.allowed_user_ids.contains(&user) {
                self.more_click(&interaction, more).await;
            } else {
                respond(&self.http, &interaction, ephemeral(NOT_ALLOWED)).await;
            }
            return;
        }
        let Some(button) = buttons::parse(&custom_id) else {
            respond(&self.http, &interaction, ephemeral(Refusal::Unknown.text())).await;
            return;
        };
        let refusal = if self.settings.allowed_user_ids.contains(&user) {
            let (plan_id, thread, now) =
                (button.plan_id.clone(), channel.clone(), self.clock.now());
            let user = user.to_string();
            match self
                .store
                .read(move |conn| may_answer(conn, &plan_id, &thread, &user, now))
                .await
            {
                Ok(refusal) => refusal,
                Err(error) => {
                    tracing::warn!(%error, "cannot check a click against its plan");
                    return;
                }
            }
        } else {
            Some(Refusal::NotYours)
        };
        if let Some(refusal) = refusal {
            tracing::debug!(?refusal, plan = %button.plan_id, "a click changed nothing");
            respond(&self.http, &interaction, ephemeral(refusal.text())).await;
            return;
        }
        let deferred = InteractionResponse {
            kind: InteractionResponseType::DeferredUpdateMessage,
            data: None,
        };
        respond(&self.http, &interaction, deferred).await;
        self.answer(&interaction, channel, user, button).await;
    }

    /// Queues the click's turn: its intent, bound to the button's plan.
    async fn answer(
        &self,
        interaction: &Interaction,
        channel: String,
        user: u64,
        button: PlanButton,
    ) {
        let queued = self
            .intake
            .enqueue(
                Incoming::clicked(
                    Channel::Discord,
                    channel,
                    user.to_string(),
                    button.answer.intent(),
                )
                .with_message_id(interaction.id.get().to_string())
                .answering_plan(button.plan_id),
            )
            .await;
        match queued {
            Ok(pending) => self.deliver_after(pending, ()),
            Err(error) => tracing::warn!(%error, "a click was refused"),
        }
    }
}

/// Whether `user` may answer plan `plan_id` from channel `thread` at `now`; the reason if not.
fn may_answer(
    conn: &Connection,
    plan_id: &str,
    thread: &str,
    user: &str,
    now: DateTime<Utc>,
) -> Result<Option<Refusal>, StoreError> {
    let Some(plan) = plans::get(conn, plan_id)?.filter(|plan| plan.thread_id == thread) else {
        return Ok(Some(Refusal::Unknown));
    };
    // Whose proposal: the person whose message led to it (the same rule as a typed answer).
    if !plan.answerable_by(user) {
        return Ok(Some(Refusal::NotYours));
    }
    if plan.is_live(now) {
        return Ok(None);
    }
    Ok(Some(match plan.status {
        PlanStatus::Pending | PlanStatus::Expired => Refusal::Expired,
        PlanStatus::Confirmed | PlanStatus::Rejected => Refusal::Answered,
        PlanStatus::Cancelled => {
            let newer =
                plans::latest(conn, &plan.thread_id)?.is_some_and(|latest| latest.id != plan.id);
            if newer {
                Refusal::Replaced
            } else {
                Refusal::Cancelled
            }
        }
    }))
}

/// Told to someone not in `discord.allowed_user_ids`.
pub(super) const NOT_ALLOWED: &str = "I only work for the people I was set up for.";

/// A message only the person who clicked (or typed the command) sees.
pub(super) fn ephemeral(text: &str) -> InteractionResponse {
    InteractionResponse {
        kind: InteractionResponseType::ChannelMessageWithSource,
        data: Some(InteractionResponseData {
            content: Some(text.to_string()),
            flags: Some(MessageFlags::EPHEMERAL),
            allowed_mentions: Some(Default::default()),
            ..InteractionResponseData::default()
        }),
    }
}

/// Answers an interaction (once; Discord refuses a second answer). A failure is logged: the
/// person sees Discord's "interaction failed", and nothing else depends on it.
pub(super) async fn respond(
    http: &Client,
    interaction: &Interaction,
    response: InteractionResponse,
) {
    let sent = http
        .interaction(interaction.application_id)
        .create_response(interaction.id, &interaction.token, &response)
        .await;
    if let Err(error) = sent {
        tracing::warn!(%error, "could not answer a Discord interaction");
    }
}
