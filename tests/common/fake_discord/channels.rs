//! The fake Discord's channel routes: creating a message (echoed as MESSAGE_CREATE, as Discord
//! does), listing a channel's messages (`after`/`before`/`limit`, newest first), starting a
//! thread from a message (the thread gets the message's id; a second one is refused with 400,
//! code 160004) and patching a thread (archive, lock, rename).

use serde_json::{json, Value};

use super::json::{
    id_field, iso_now, message_id_of, message_json, thread_json, user_json, MessageParts,
};
use super::rest::Answer;
use super::state::{Inner, Shared};
use super::{BOT_USERNAME, BOT_USER_ID};

pub(super) fn create_message(
    shared: &Shared,
    inner: &mut Inner,
    channel_id: u64,
    body: Option<&Value>,
) -> Answer {
    let content = body
        .and_then(|b| b["content"].as_str())
        .unwrap_or_default()
        .to_owned();
    let has_embeds = body
        .and_then(|b| b["embeds"].as_array())
        .is_some_and(|e| !e.is_empty());
    if content.is_empty() && !has_embeds {
        return Answer::error(400, 50006, "Cannot send an empty message");
    }
    let id = inner.snowflake();
    let reply_to = body.and_then(|b| id_field(&b["message_reference"], "message_id"));
    let mut message = message_json(MessageParts {
        id,
        channel_id,
        guild_id: inner.guild_of(channel_id),
        author: user_json(BOT_USER_ID, BOT_USERNAME, true),
        content: &content,
        mentions: Vec::new(),
        reply_to,
    });
    if let Some(components) = body.and_then(|b| b.get("components")) {
        message["components"] = components.clone();
    }
    inner.messages.push(message.clone());
    inner.sent.push((channel_id, content));
    if shared.options.echo_rest_events {
        inner.dispatch(&shared.options, "MESSAGE_CREATE", message.clone());
    }
    Answer::json(200, message)
}

pub(super) fn list_messages(inner: &Inner, channel_id: u64, query: Option<&str>) -> Answer {
    let param = |name: &str| {
        query?.split('&').find_map(|pair| {
            let (key, value) = pair.split_once('=')?;
            (key == name).then(|| value.parse::<u64>().ok()).flatten()
        })
    };
    let limit = usize::try_from(param("limit").unwrap_or(50).clamp(1, 100)).unwrap_or(50);
    let mut in_channel: Vec<&Value> = inner
        .messages
        .iter()
        .filter(|m| id_field(m, "channel_id") == Some(channel_id))
        .filter(|m| m.get("interaction_response").is_none())
        .collect();
    in_channel.sort_by_key(|m| message_id_of(m));
    let mut page: Vec<Value> = if let Some(after) = param("after") {
        // The oldest `limit` messages after `after`...
        in_channel
            .into_iter()
            .filter(|m| message_id_of(m) > after)
            .take(limit)
            .cloned()
            .collect()
    } else {
        let before = param("before").unwrap_or(u64::MAX);
        let older: Vec<&Value> = in_channel
            .into_iter()
            .filter(|m| message_id_of(m) < before)
            .collect();
        let skip = older.len().saturating_sub(limit);
        older.into_iter().skip(skip).cloned().collect()
    };
    // ...but, as on Discord, always newest first.
    page.reverse();
    Answer::json(200, Value::Array(page))
}

pub(super) fn start_thread(
    shared: &Shared,
    inner: &mut Inner,
    channel_id: u64,
    message_id: u64,
    body: Option<&Value>,
) -> Answer {
    if inner.threads.contains_key(&message_id) {
        return Answer::error(
            400,
            160_004,
            "A thread has already been created for this message",
        );
    }
    let name = body
        .and_then(|b| b["name"].as_str())
        .unwrap_or("thread")
        .to_owned();
    let auto_archive = body
        .and_then(|b| b["auto_archive_duration"].as_u64())
        .unwrap_or(4320);
    let guild_id = inner.guild_of(channel_id);
    let mut thread = thread_json(message_id, channel_id, guild_id, &name, auto_archive, false);
    if let Some(guild_id) = guild_id {
        inner.channel_guilds.insert(message_id, guild_id);
    }
    inner.threads.insert(message_id, thread.clone());
    if shared.options.echo_rest_events {
        if let Some(object) = thread.as_object_mut() {
            object.insert("newly_created".into(), json!(true));
        }
        inner.dispatch(&shared.options, "THREAD_CREATE", thread.clone());
    }
    Answer::json(201, thread)
}

/// Applies the thread fields of a PATCH body (`archived`, `locked`, `name`, ...).
pub(super) fn patch_thread(thread: &mut Value, body: Option<&Value>) {
    let Some(body) = body.and_then(Value::as_object) else {
        return;
    };
    for (key, value) in body {
        match key.as_str() {
            "archived" | "locked" | "auto_archive_duration" | "invitable" => {
                thread["thread_metadata"][key] = value.clone();
                if key == "archived" {
                    thread["thread_metadata"]["archive_timestamp"] = json!(iso_now());
                }
            }
            _ => thread[key] = value.clone(),
        }
    }
}
