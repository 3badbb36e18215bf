//! Slash commands: `/tasks [status]`, `/add <text>`, `/undo`, `/pending`, `/timezone [zone]`
//! (`timezone`: set or shown privately, autocomplete over IANA names).
//!
//! Owns: the commands' definitions, their registration at startup (`register`) and answering
//! an invocation.
//! - `/tasks` and `/pending` are read-only and only for the person: answered at once,
//!   ephemerally, from the database (the same answers as "list my tasks" and "what are you
//!   waiting on?"), a page at a time with a More button (`list_pages`), in the asker's time
//!   zone.
//! - `/add` and `/undo` are conversation: the same turn as typing "add <text>" or "undo" in the
//!   channel (same thread order, same inbox, the interaction id as the message id), whose reply
//!   is delivered from the outbox like any other; the interaction is acknowledged at once with
//!   a private "thinking", removed once the reply is on its way.
//!
//! Invariants: registration is one bulk overwrite (idempotent), once per process, logged;
//! only allowed users are answered (others are told so, privately); nothing here waits for a
//! model before acknowledging.

use std::sync::atomic::Ordering;

use serde_json::json;
use twilight_http::Client;
use twilight_model::application::command::Command;
use twilight_model::application::interaction::application_command::CommandOptionValue;
use twilight_model::application::interaction::{Interaction, InteractionData};
use twilight_model::channel::message::MessageFlags;
use twilight_model::http::interaction::{
    InteractionResponse, InteractionResponseData, InteractionResponseType,
};
use twilight_model::id::Id;

use super::clicks::{ephemeral, respond, NOT_ALLOWED};
use super::inbound::InboundWork;
use super::shared::GatewayShared;
use crate::capture::rules::Question;
use crate::conversation::{threads, Channel};
use crate::turn::intake::{Incoming, PendingTurn};

/// The commands' definitions, as Discord's bulk overwrite takes them.
fn definitions() -> serde_json::Value {
    let text = |name: &str, description: &str, required: bool| json!({"type": 3, "name": name, "description": description, "required": required});
    let mut status = text("status", "Which tasks (default: open)", false);
    status["choices"] = json!([
        {"name": "open", "value": "open"},
        {"name": "overdue", "value": "overdue"},
        {"name": "today", "value": "today"},
        {"name": "tomorrow", "value": "tomorrow"},
        {"name": "this week", "value": "week"},
    ]);
    json!([
        {"type": 1, "version": "1", "name": "tasks", "description": "List your tasks", "options": [status]},
        {"type": 1, "version": "1", "name": "add", "description": "Add a task, as you would say it",
         "options": [text("text", "e.g. call mom friday 3pm", true)]},
        {"type": 1, "version": "1", "name": "undo", "description": "Undo Donna's last action here"},
        {"type": 1, "version": "1", "name": "pending", "description": "What Donna is waiting on you for"},
        {"type": 1, "version": "1", "name": "timezone", "description": "Set your time zone (or see it)",
         "options": [{"type": 3, "name": "zone", "description": "A city or an IANA name, e.g. Europe/Berlin",
                      "required": false, "autocomplete": true}]},
    ])
}

/// Registers the commands for `guild` (or globally) once per process: a bulk overwrite, so a
/// repeat changes nothing.
pub(super) async fn register(http: &Client, shared: &GatewayShared, guild: Option<u64>) {
    let application = shared.application_id.load(Ordering::Acquire);
    let Some(application) = Id::new_checked(application) else {
        return;
    };
    if shared.commands_registered.swap(true, Ordering::AcqRel) {
        return;
    }
    let commands: Vec<Command> = match serde_json::from_value(definitions()) {
        Ok(commands) => commands,
        Err(error) => {
            tracing::error!(%error, "the slash commands' definitions are invalid");
            return;
        }
    };
    let client = http.interaction(application);
    let (sent, scope) = match guild.and_then(Id::new_checked) {
        Some(guild) => (
            client.set_guild_commands(guild, &commands).await,
            format!("guild {guild}"),
        ),
        None => (client.set_global_commands(&commands).await, "global".into()),
    };
    match sent {
        Ok(_) => tracing::info!(count = commands.len(), %scope, "slash commands registered"),
        Err(error) => {
            // Tried again at the next session's READY.
            shared.commands_registered.store(false, Ordering::Release);
            tracing::warn!(%error, %scope, "could not register the slash commands");
        }
    }
}

impl InboundWork {
    pub(super) async fn command(self, interaction: Box<Interaction>) {
        let Some(InteractionData::ApplicationCommand(data)) = &interaction.data else {
            return;
        };
        let (Some(user), Some(channel)) = (
            interaction.author_id().map(|id| id.get()),
            interaction.channel.as_ref().map(|c| c.id.get().to_string()),
        ) else {
            return;
        };
        if !self.settings.allowed_user_ids.contains(&user) {
            respond(&self.http, &interaction, ephemeral(NOT_ALLOWED)).await;
            return;
        }
        let option = |name: &str| {
            data.options
                .iter()
                .find(|option| option.name == name)
                .and_then(|option| match &option.value {
                    CommandOptionValue::String(text) => Some(text.clone()),
                    _ => None,
                })
        };
        match data.name.as_str() {
            "tasks" => {
                let question = match option("status").as_deref() {
                    Some("overdue") => Question::Overdue,
                    Some("today") => Question::DueToday,
                    Some("tomorrow") => Question::DueTomorrow,
                    Some("week") => Question::DueThisWeek,
                    _ => Question::ListTasks,
                };
                self.answer_list(&interaction, question).await;
            }
            "pending" => self.answer_list(&interaction, Question::WaitingOn).await,
            "add" => match option("text").filter(|text| !text.trim().is_empty()) {
                Some(text) => {
                    let said = format!("add {}", text.trim());
                    self.converse(&interaction, channel, user, said).await;
                }
                None => respond(&self.http, &interaction, ephemeral("Add what?")).await,
            },
            "undo" => {
                self.converse(&interaction, channel, user, "undo".into())
                    .await
            }
            "timezone" => {
                self.timezone_command(&interaction, user, option("zone"))
                    .await
            }
            other => {
                tracing::debug!(command = other, "a slash command Donna does not have");
                respond(
                    &self.http,
                    &interaction,
                    ephemeral("I don't know that command."),
                )
                .await;
            }
        }
    }

    /// The turn of `text` in `channel`, as if typed there; its reply comes from the outbox.
    async fn converse(&self, interaction: &Interaction, channel: String, user: u64, text: String) {
        let thinking = InteractionResponse {
            kind: InteractionResponseType::DeferredChannelMessageWithSource,
            data: Some(InteractionResponseData {
                flags: Some(MessageFlags::EPHEMERAL),
                ..InteractionResponseData::default()
            }),
        };
        respond(&self.http, interaction, thinking).await;
        if let Err(error) = self
            .ensure_thread(&channel, interaction.guild_id.is_some())
            .await
        {
            tracing::warn!(%error, "cannot record a Discord conversation");
            return;
        }
        let queued = self
            .intake
            .enqueue(
                Incoming::typed(Channel::Discord, channel, user.to_string(), text)
                    .with_message_id(interaction.id.get().to_string()),
            )
            .await;
        let pending = match queued {
            Ok(pending) => pending,
            Err(error) => {
                tracing::warn!(%error, "a slash command was refused");
                return;
            }
        };
        // The private "thinking" goes once the turn is done (its reply is then in the outbox).
        let http = self.http.clone();
        let (application, token) = (interaction.application_id, interaction.token.clone());
        let done: PendingTurn = Box::pin(async move {
            let result = pending.await;
            if let Err(error) = http.interaction(application).delete_response(&token).await {
                tracing::debug!(%error, "could not remove a slash command's thinking message");
            }
            result
        });
        self.deliver_after(done, ());
    }

    /// A channel Donna does not know yet becomes a free conversation (as a first DM does).
    async fn ensure_thread(
        &self,
        channel: &str,
        is_group: bool,
    ) -> Result<(), crate::store::StoreError> {
        let (id, now) = (channel.to_string(), self.clock.now());
        self.store
            .write(move |conn| threads::ensure_free(conn, &id, is_group, Channel::Discord, now))
            .await
    }
}
