//! `/timezone [zone]`: the person's own time zone, set or shown privately, with autocomplete
//! over IANA names while they type.
//!
//! Takes: the `timezone` slash command (from `commands`) and its autocomplete interactions
//! (type 4, from `clicks`). `zone` is a city or an IANA name read like the chat's "my time zone
//! is ..." (`people::zones::find`); an unknown one is answered with the nearest names and
//! changes nothing; without `zone` the current one is shown.
//! Invariants: the zone is stored for the invoking Discord user only; autocomplete answers at
//! most 25 names (Discord's limit) and reads nothing but the zone list; only allowed users are
//! answered (others get no names and are told so when they invoke).

use twilight_model::application::command::{CommandOptionChoice, CommandOptionChoiceValue};
use twilight_model::application::interaction::application_command::CommandOptionValue;
use twilight_model::application::interaction::{Interaction, InteractionData};
use twilight_model::http::interaction::{
    InteractionResponse, InteractionResponseData, InteractionResponseType,
};

use super::clicks::{ephemeral, respond};
use super::inbound::InboundWork;
use crate::people::zones::{self, ZoneMatch};
use crate::people::{self, repo};

/// Discord shows at most this many autocomplete choices.
const MAX_CHOICES: usize = 25;

impl InboundWork {
    /// `/timezone [zone]` by `user`.
    pub(super) async fn timezone_command(
        &self,
        interaction: &Interaction,
        user: u64,
        zone: Option<String>,
    ) {
        let (user, now, default) = (user.to_string(), self.clock.now(), self.settings.timezone);
        let text = match zone
            .as_deref()
            .map(str::trim)
            .filter(|zone| !zone.is_empty())
        {
            None => {
                let shown = self
                    .store
                    .read(move |conn| repo::get(conn, &user))
                    .await
                    .map(|person| match person.and_then(|person| person.timezone) {
                        Some(timezone) => people::currently(timezone, true, now),
                        None => people::currently(default, false, now),
                    });
                shown.unwrap_or_else(|error| {
                    tracing::warn!(%error, "cannot read a time zone");
                    "I can't look that up right now; try again in a moment.".into()
                })
            }
            Some(name) => match zones::find(name) {
                ZoneMatch::Found(timezone) => {
                    let stored = self
                        .store
                        .write(move |conn| repo::set(conn, &user, timezone, now))
                        .await;
                    match stored {
                        Ok(()) => people::now_set(timezone, now),
                        Err(error) => {
                            tracing::warn!(%error, "cannot store a time zone");
                            "I couldn't save that; try again in a moment.".into()
                        }
                    }
                }
                ZoneMatch::Unknown { suggestions } => people::unknown_zone(name, &suggestions),
            },
        };
        respond(&self.http, interaction, ephemeral(&text)).await;
    }

    /// Names matching what the person has typed into `/timezone`'s `zone` so far.
    pub(super) async fn autocomplete(&self, interaction: Box<Interaction>) {
        let Some(InteractionData::ApplicationCommand(data)) = &interaction.data else {
            return;
        };
        let allowed = interaction
            .author_id()
            .is_some_and(|user| self.settings.allowed_user_ids.contains(&user.get()));
        let typed = data
            .options
            .iter()
            .find_map(|option| match &option.value {
                CommandOptionValue::Focused(text, _) => Some(text.as_str()),
                _ => None,
            })
            .unwrap_or_default();
        let names = if allowed && data.name == "timezone" {
            zones::complete(typed, MAX_CHOICES)
        } else {
            Vec::new()
        };
        let choices = names
            .into_iter()
            .map(|name| CommandOptionChoice {
                name: name.to_string(),
                name_localizations: None,
                value: CommandOptionChoiceValue::String(name.to_string()),
            })
            .collect();
        let response = InteractionResponse {
            kind: InteractionResponseType::ApplicationCommandAutocompleteResult,
            data: Some(InteractionResponseData {
                choices: Some(choices),
                ..InteractionResponseData::default()
            }),
        };
        respond(&self.http, &interaction, response).await;
    }
}
