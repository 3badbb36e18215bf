//! The fake Discord's interactions: what a person's click on a button or a slash command looks
//! like to a bot, and the REST routes a bot answers them with.
//!
//! What it fakes:
//! - INTERACTION_CREATE dispatches (not subject to intents, as on Discord): type 3
//!   MESSAGE_COMPONENT (a button's `custom_id`, the message it sits on, the clicking user as
//!   `member.user` in a guild or `user` in a DM), type 2 APPLICATION_COMMAND (a slash
//!   command's name and string options) and type 4 APPLICATION_COMMAND_AUTOCOMPLETE (the same,
//!   with the option being typed marked `focused`).
//! - The callback `POST /interactions/{id}/{token}/callback` (204; a second callback for the
//!   same interaction is refused with 400 code 40060, as on Discord; type 4 creates the answer's
//!   message, private ones too, whose buttons can then be clicked; type 7 updates the message the
//!   clicked component sits on), the original response's
//!   edit and deletion `PATCH|DELETE /webhooks/{app}/{token}/messages/@original`, follow-ups
//!   `POST /webhooks/{app}/{token}`.
//! - Command registration: the bulk overwrites `PUT /applications/{app}/commands` and
//!   `PUT /applications/{app}/guilds/{guild}/commands` (the commands are echoed back with ids).
//! - Editing a message `PATCH /channels/{c}/messages/{m}` (content, components) and the typing
//!   indicator `POST /channels/{c}/typing`.
//!
//! Every request is recorded with the others (`FakeDiscord::requests`).

use serde_json::{json, Value};

use super::json::{id_field, message_id_of, message_json, user_json, MessageParts};
use super::rest::Answer;
use super::state::Inner;
use super::{FakeDiscord, RecordedRequest, APPLICATION_ID, BOT_USERNAME, BOT_USER_ID};

/// A click on a button of a message.
#[derive(Clone, Debug)]
pub struct Click {
    pub channel_id: u64,
    /// `None` for a DM (the user is then `user`, not `member.user`).
    pub guild_id: Option<u64>,
    pub user_id: u64,
    /// The message the button sits on (the fake must know it).
    pub message_id: u64,
    pub custom_id: String,
}

/// A slash command invocation.
#[derive(Clone, Debug)]
pub struct SlashCommand {
    pub channel_id: u64,
    pub guild_id: Option<u64>,
    pub user_id: u64,
    pub name: String,
    /// String options, `(name, value)`.
    pub options: Vec<(String, String)>,
}

/// An interaction the fake dispatched: its id and token (for the callback and the webhooks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentInteraction {
    pub id: u64,
    pub token: String,
}

/// What the fake remembers of an interaction it dispatched.
#[derive(Clone, Debug)]
pub(super) struct InteractionState {
    pub(super) id: u64,
    pub(super) token: String,
    pub(super) channel_id: u64,
    /// The message a component sat on (what `@original` edits after a deferred update).
    pub(super) message_id: Option<u64>,
    pub(super) callbacks: Vec<Value>,
    /// The bot deleted the interaction's original response.
    pub(super) original_deleted: bool,
}

impl FakeDiscord {
    /// Sends INTERACTION_CREATE for a button click; returns the interaction's id and token.
    pub fn click(&self, click: Click) -> SentInteraction {
        let mut inner = self.shared.lock();
        let message = inner
            .messages
            .iter()
            .find(|m| message_id_of(m) == click.message_id)
            .cloned()
            .unwrap_or_else(|| {
                panic!(
                    "fake discord: click on unknown message {}",
                    click.message_id
                )
            });
        let data = json!({
            "custom_id": click.custom_id,
            "component_type": 2,
            "values": [],
        });
        let mut value = inner.interaction_json(
            3,
            click.channel_id,
            click.guild_id,
            click.user_id,
            data,
            Some(click.message_id),
        );
        value["message"] = message;
        inner.queue_interaction(value)
    }

    /// Sends the same INTERACTION_CREATE again (Discord retries nothing, but a gateway replay
    /// or a proxy can deliver an interaction twice).
    pub fn redeliver_interaction(&self, id: u64) {
        let mut inner = self.shared.lock();
        let Some(event) = inner
            .interaction_events
            .iter()
            .find(|(i, _)| *i == id)
            .cloned()
        else {
            panic!("fake discord: no interaction {id} to redeliver");
        };
        inner.queue_dispatch("INTERACTION_CREATE", event.1);
    }

    /// Sends INTERACTION_CREATE for a slash command; returns the interaction's id and token.
    pub fn slash(&self, command: SlashCommand) -> SentInteraction {
        let mut inner = self.shared.lock();
        let command_id = inner.snowflake();
        let options: Vec<Value> = command
            .options
            .iter()
            .map(|(name, value)| json!({"name": name, "type": 3, "value": value}))
            .collect();
        let data = json!({
            "id": command_id.to_string(),
            "name": command.name,
            "type": 1,
            "options": options,
        });
        let value = inner.interaction_json(
            2,
            command.channel_id,
            command.guild_id,
            command.user_id,
            data,
            None,
        );
        inner.queue_interaction(value)
    }

    /// Sends INTERACTION_CREATE for an autocomplete (type 4 APPLICATION_COMMAND_AUTOCOMPLETE):
    /// the person is typing into option `focused` of `command`, which holds what they typed
    /// so far (the other options as already filled in); returns the interaction's id and token.
    /// The bot answers with a callback of type 8 and `data.choices`.
    pub fn autocomplete(&self, command: SlashCommand, focused: &str) -> SentInteraction {
        let mut inner = self.shared.lock();
        let command_id = inner.snowflake();
        let options: Vec<Value> = command
            .options
            .iter()
            .map(|(name, value)| {
                let mut option = json!({"name": name, "type": 3, "value": value});
                if name == focused {
                    option["focused"] = json!(true);
                }
                option
            })
            .collect();
        let data = json!({
            "id": command_id.to_string(),
            "name": command.name,
            "type": 1,
            "options": options,
        });
        let value = inner.interaction_json(
            4,
            command.channel_id,
            command.guild_id,
            command.user_id,
            data,
            None,
        );
        inner.queue_interaction(value)
    }

    /// The callbacks a bot posted for interaction `id` (each `{type, data}` body), in order.
    pub fn callbacks(&self, id: u64) -> Vec<Value> {
        self.shared
            .lock()
            .interactions
            .iter()
            .find(|i| i.id == id)
            .map(|i| i.callbacks.clone())
            .unwrap_or_default()
    }

    /// The message interaction `id` is about: the one its component sits on, or the one its
    /// answer (type 4) created.
    pub fn interaction_message(&self, id: u64) -> Option<u64> {
        self.shared
            .lock()
            .interactions
            .iter()
            .find(|i| i.id == id)
            .and_then(|i| i.message_id)
    }

    /// Whether the bot deleted the original response of interaction `id`.
    pub fn original_deleted(&self, id: u64) -> bool {
        self.shared
            .lock()
            .interactions
            .iter()
            .any(|i| i.id == id && i.original_deleted)
    }

    /// Every command-registration request (`PUT .../commands`), in order.
    pub fn command_registrations(&self) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.method == "PUT" && r.path.ends_with("/commands"))
            .collect()
    }

    /// How many typing indicators the bot sent in `channel_id`.
    pub fn typing_count(&self, channel_id: u64) -> usize {
        self.requests_to("POST", &format!("/channels/{channel_id}/typing"))
            .len()
    }

    /// A message the fake knows, as it is now (after any edits).
    pub fn message(&self, message_id: u64) -> Option<Value> {
        self.shared
            .lock()
            .messages
            .iter()
            .find(|m| message_id_of(m) == message_id)
            .cloned()
    }
}

impl Inner {
    fn interaction_json(
        &mut self,
        kind: u64,
        channel_id: u64,
        guild_id: Option<u64>,
        user_id: u64,
        data: Value,
        message_id: Option<u64>,
    ) -> Value {
        let id = self.snowflake();
        let token = format!("itoken{id}");
        let user = user_json(user_id, &format!("user{user_id}"), false);
        let mut value = json!({
            "id": id.to_string(),
            "application_id": APPLICATION_ID.to_string(),
            "type": kind,
            "data": data,
            "channel_id": channel_id.to_string(),
            "channel": {"id": channel_id.to_string(), "type": if guild_id.is_some() { 0 } else { 1 }},
            "token": token,
            "version": 1,
            "attachment_size_limit": 10_485_760,
            "authorizing_integration_owners": {},
            "entitlements": [],
            "locale": "en-US",
        });
        match guild_id {
            Some(guild_id) => {
                value["guild_id"] = json!(guild_id.to_string());
                value["member"] = json!({
                    "user": user,
                    "roles": [],
                    "joined_at": "2026-01-01T00:00:00.000000+00:00",
                    "deaf": false,
                    "mute": false,
                    "flags": 0,
                    "nick": null,
                    "communication_disabled_until": null,
                });
            }
            None => value["user"] = user,
        }
        self.interactions.push(InteractionState {
            id,
            token,
            channel_id,
            message_id,
            callbacks: Vec::new(),
            original_deleted: false,
        });
        value
    }

    fn queue_interaction(&mut self, value: Value) -> SentInteraction {
        let id = id_field(&value, "id").unwrap_or(0);
        let token = value["token"].as_str().unwrap_or_default().to_owned();
        self.interaction_events.push((id, value.clone()));
        self.queue_dispatch("INTERACTION_CREATE", value);
        SentInteraction { id, token }
    }

    /// The message an interaction's answer (type 4) creates: in its channel, marked as an
    /// interaction response, so channel listings and `sent_messages` leave it out as Discord's
    /// history leaves out private answers.
    fn response_message(&mut self, channel_id: u64, data: &Value) -> u64 {
        let message_id = self.snowflake();
        let mut message = message_json(MessageParts {
            id: message_id,
            channel_id,
            guild_id: self.guild_of(channel_id),
            author: user_json(BOT_USER_ID, BOT_USERNAME, true),
            content: data["content"].as_str().unwrap_or_default(),
            mentions: Vec::new(),
            reply_to: None,
        });
        for key in ["components", "flags"] {
            if let Some(value) = data.get(key).filter(|v| !v.is_null()) {
                message[key] = value.clone();
            }
        }
        message["interaction_response"] = json!(true);
        self.messages.push(message);
        message_id
    }

    fn interaction_by_token(&mut self, token: &str) -> Option<&mut InteractionState> {
        self.interactions.iter_mut().find(|i| i.token == token)
    }

    fn edit_message(&mut self, message_id: u64, body: Option<&Value>) -> Option<Value> {
        let message = self
            .messages
            .iter_mut()
            .find(|m| message_id_of(m) == message_id)?;
        if let Some(body) = body.and_then(Value::as_object) {
            for key in ["content", "components", "flags"] {
                if let Some(value) = body.get(key) {
                    message[key] = value.clone();
                }
            }
        }
        Some(message.clone())
    }
}

/// The interaction routes; `None` when the path is none of them.
pub(super) fn route(
    inner: &mut Inner,
    method: &str,
    segments: &[&str],
    body: Option<&Value>,
) -> Option<Answer> {
    let id = |s: &str| s.parse::<u64>().ok();
    let answer = match (method, segments) {
        ("POST", ["interactions", interaction, token, "callback"]) => {
            let Some(state) = inner.interaction_by_token(token) else {
                return Some(Answer::error(404, 10062, "Unknown interaction"));
            };
            if id(interaction) != Some(state.id) {
                return Some(Answer::error(404, 10062, "Unknown interaction"));
            }
            if !state.callbacks.is_empty() {
                return Some(Answer::error(
                    400,
                    40060,
                    "Interaction has already been acknowledged.",
                ));
            }
            state.callbacks.push(body.cloned().unwrap_or(Value::Null));
            let (channel_id, sat_on) = (state.channel_id, state.message_id);
            let data = body.map(|b| b["data"].clone()).unwrap_or(Value::Null);
            match body.and_then(|b| b["type"].as_u64()) {
                // A message as the answer (private with flags 64): it exists from now on, so
                // its buttons can be clicked and `@original` edits it.
                Some(4) => {
                    let message_id = inner.response_message(channel_id, &data);
                    if let Some(state) = inner.interaction_by_token(token) {
                        state.message_id = Some(message_id);
                    }
                }
                // UPDATE_MESSAGE: the message the clicked component sits on takes the new
                // content and components.
                Some(7) => {
                    if let Some(message_id) = sat_on {
                        inner.edit_message(message_id, Some(&data));
                    }
                }
                _ => {}
            }
            Answer::json(204, Value::Null)
        }
        ("PATCH", ["webhooks", app, token, "messages", "@original"]) => {
            if id(app) != Some(APPLICATION_ID) {
                return Some(Answer::error(404, 10002, "Unknown Application"));
            }
            let Some(state) = inner.interaction_by_token(token).cloned() else {
                return Some(Answer::error(404, 10015, "Unknown Webhook"));
            };
            match state.message_id.and_then(|m| inner.edit_message(m, body)) {
                Some(message) => Answer::json(200, message),
                None => Answer::error(404, 10008, "Unknown Message"),
            }
        }
        ("DELETE", ["webhooks", app, token, "messages", "@original"]) => {
            if id(app) != Some(APPLICATION_ID) {
                return Some(Answer::error(404, 10002, "Unknown Application"));
            }
            match inner.interaction_by_token(token) {
                Some(state) => {
                    state.original_deleted = true;
                    Answer::json(204, Value::Null)
                }
                None => Answer::error(404, 10015, "Unknown Webhook"),
            }
        }
        ("POST", ["webhooks", app, token]) => {
            if id(app) != Some(APPLICATION_ID) {
                return Some(Answer::error(404, 10002, "Unknown Application"));
            }
            let Some(state) = inner.interaction_by_token(token).cloned() else {
                return Some(Answer::error(404, 10015, "Unknown Webhook"));
            };
            let message_id = inner.snowflake();
            let content = body.and_then(|b| b["content"].as_str()).unwrap_or_default();
            let mut message = message_json(MessageParts {
                id: message_id,
                channel_id: state.channel_id,
                guild_id: inner.guild_of(state.channel_id),
                author: user_json(BOT_USER_ID, BOT_USERNAME, true),
                content,
                mentions: Vec::new(),
                reply_to: None,
            });
            if let Some(flags) = body.and_then(|b| b.get("flags")) {
                message["flags"] = flags.clone();
            }
            inner.messages.push(message.clone());
            Answer::json(200, message)
        }
        ("PUT", ["applications", app, "commands"])
        | ("PUT", ["applications", app, "guilds", _, "commands"]) => {
            if id(app) != Some(APPLICATION_ID) {
                return Some(Answer::error(404, 10002, "Unknown Application"));
            }
            let commands = body.and_then(Value::as_array).cloned().unwrap_or_default();
            let echoed: Vec<Value> = commands
                .into_iter()
                .map(|mut command| {
                    command["id"] = json!(inner.snowflake().to_string());
                    command["application_id"] = json!(APPLICATION_ID.to_string());
                    command["version"] = json!("1");
                    command
                })
                .collect();
            Answer::json(200, Value::Array(echoed))
        }
        ("PATCH", ["channels", _, "messages", message]) => {
            match id(message).and_then(|m| inner.edit_message(m, body)) {
                Some(message) => Answer::json(200, message),
                None => Answer::error(404, 10008, "Unknown Message"),
            }
        }
        ("POST", ["channels", _, "typing"]) => Answer::json(204, Value::Null),
        _ => return None,
    };
    Some(answer)
}
