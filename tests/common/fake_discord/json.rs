//! Discord's JSON as the fake sends it (users, the bot's own user, messages, thread channels,
//! ids as strings) and its timestamps (ISO 8601 with microseconds; a snowflake's creation time),
//! without a date crate.

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use super::state::DISCORD_EPOCH_MS;
use super::{BOT_USERNAME, BOT_USER_ID};

pub(super) fn user_json(id: u64, username: &str, bot: bool) -> Value {
    json!({
        "id": id.to_string(),
        "username": username,
        "discriminator": "0",
        "global_name": null,
        "avatar": null,
        "bot": bot,
        "public_flags": 0,
    })
}

/// The bot as `users/@me` and READY describe it.
pub(super) fn current_user_json() -> Value {
    json!({
        "id": BOT_USER_ID.to_string(),
        "username": BOT_USERNAME,
        "discriminator": "0",
        "global_name": null,
        "avatar": null,
        "bot": true,
        "verified": true,
        "mfa_enabled": false,
        "flags": 0,
        "public_flags": 0,
    })
}

pub(super) struct MessageParts<'a> {
    pub(super) id: u64,
    pub(super) channel_id: u64,
    pub(super) guild_id: Option<u64>,
    pub(super) author: Value,
    pub(super) content: &'a str,
    pub(super) mentions: Vec<Value>,
    pub(super) reply_to: Option<u64>,
}

/// A message as Discord sends it (the fields twilight-model's `Message` requires, plus the
/// usual nulls).
pub(super) fn message_json(parts: MessageParts<'_>) -> Value {
    let mut message = json!({
        "id": parts.id.to_string(),
        "channel_id": parts.channel_id.to_string(),
        "author": parts.author,
        "content": parts.content,
        "timestamp": iso_from_snowflake(parts.id),
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": parts.mentions,
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "components": [],
        "pinned": false,
        "type": 0,
        "flags": 0,
    });
    if let Some(object) = message.as_object_mut() {
        if let Some(guild_id) = parts.guild_id {
            object.insert("guild_id".into(), json!(guild_id.to_string()));
        }
        if let Some(reply_to) = parts.reply_to {
            object.insert("type".into(), json!(19));
            let mut reference = json!({
                "type": 0,
                "message_id": reply_to.to_string(),
                "channel_id": parts.channel_id.to_string(),
            });
            if let Some(guild_id) = parts.guild_id {
                reference["guild_id"] = json!(guild_id.to_string());
            }
            object.insert("message_reference".into(), reference);
        }
    }
    message
}

pub(super) fn thread_json(
    id: u64,
    parent_id: u64,
    guild_id: Option<u64>,
    name: &str,
    auto_archive_duration: u64,
    archived: bool,
) -> Value {
    let now = iso_now();
    let mut thread = json!({
        "id": id.to_string(),
        "type": 11,
        "parent_id": parent_id.to_string(),
        "name": name,
        "owner_id": BOT_USER_ID.to_string(),
        "last_message_id": null,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": archived,
            "auto_archive_duration": auto_archive_duration,
            "archive_timestamp": now,
            "locked": false,
            "create_timestamp": now,
        },
    });
    if let (Some(guild_id), Some(object)) = (guild_id, thread.as_object_mut()) {
        object.insert("guild_id".into(), json!(guild_id.to_string()));
    }
    thread
}

pub(super) fn id_field(value: &Value, field: &str) -> Option<u64> {
    match &value[field] {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

pub(super) fn message_id_of(message: &Value) -> u64 {
    id_field(message, "id").unwrap_or(0)
}

// ---- time ----------------------------------------------------------------------------------

pub(super) fn unix_micros() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX))
}

pub(super) fn iso_now() -> String {
    iso_8601(unix_micros())
}

/// The creation time encoded in a snowflake, as Discord's `timestamp` field shows it.
pub(super) fn iso_from_snowflake(id: u64) -> String {
    let ms = (id >> 22) + DISCORD_EPOCH_MS;
    iso_8601(i64::try_from(ms).unwrap_or(0) * 1000)
}

/// `2026-11-22T18:57:40.123000+00:00`, Discord's format.
pub(super) fn iso_8601(unix_micros: i64) -> String {
    let secs = unix_micros.div_euclid(1_000_000);
    let micros = unix_micros.rem_euclid(1_000_000);
    let days = secs.div_euclid(86_400);
    let second_of_day = secs.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{micros:06}+00:00",
        second_of_day / 3600,
        second_of_day / 60 % 60,
        second_of_day % 60
    )
}

/// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian calendar
/// (Howard Hinnant's algorithm).
pub(super) fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}
