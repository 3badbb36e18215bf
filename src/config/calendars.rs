//! The calendars Donna reads (`calendars.*`).
//!
//! Shape: `calendars: {sources: [{name, source, for_user_id, refresh?}], max_bytes, timeout,
//! max_events, allow_private_addresses}`. The design writes the sources as `calendars: [...]`
//! and the bounds as `calendars.max_bytes` and so on; one YAML key cannot be a list and a map
//! at once, so the list is `calendars.sources` (a list written where the map goes is refused
//! with that advice).
//! Invariants: a source is a file path or an http(s) URL (no other scheme); `refresh` is at
//! least one minute; names are unique per person; nothing here fetches or reads a file.

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};

use super::duration::ConfigDuration;

/// The shortest refresh interval of a source.
pub const MIN_REFRESH_SECS: u64 = 60;
/// The longest refresh interval of a source.
pub const MAX_REFRESH_SECS: u64 = 7 * 24 * 3600;
/// The longest source name.
pub const MAX_NAME_CHARS: usize = 100;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CalendarsConfig {
    /// The operator's sources: files or URLs of any address.
    pub sources: Vec<CalendarSourceConfig>,
    /// The largest calendar body read; reading stops past it and the fetch fails.
    pub max_bytes: usize,
    /// How long one fetch may take as a whole (connect, redirects, the body).
    pub timeout: ConfigDuration,
    /// The most events one source may expand to in the window Donna keeps; more fail the fetch.
    pub max_events: usize,
    /// Whether a person's own calendar URL may point at a private, loopback or link-local
    /// address (a home Nextcloud; tests). Off: such a URL is never fetched.
    pub allow_private_addresses: bool,
}

impl Default for CalendarsConfig {
    fn default() -> Self {
        Self {
            sources: Vec::new(),
            max_bytes: 10 * 1024 * 1024,
            timeout: ConfigDuration::secs(30),
            max_events: 20_000,
            allow_private_addresses: false,
        }
    }
}

/// The map form, read field by field (unknown keys refused, paths named).
#[derive(Deserialize)]
#[serde(default, deny_unknown_fields)]
struct CalendarsFields {
    sources: Vec<CalendarSourceConfig>,
    max_bytes: usize,
    timeout: ConfigDuration,
    max_events: usize,
    allow_private_addresses: bool,
}

impl Default for CalendarsFields {
    fn default() -> Self {
        let defaults = CalendarsConfig::default();
        Self {
            sources: defaults.sources,
            max_bytes: defaults.max_bytes,
            timeout: defaults.timeout,
            max_events: defaults.max_events,
            allow_private_addresses: defaults.allow_private_addresses,
        }
    }
}

impl<'de> Deserialize<'de> for CalendarsConfig {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> de::Visitor<'de> for Fields {
            type Value = CalendarsFields;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map with sources, max_bytes, timeout, max_events")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                CalendarsFields::deserialize(de::value::MapAccessDeserializer::new(map))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, _seq: A) -> Result<Self::Value, A::Error> {
                Err(de::Error::custom(
                    "the list of calendars goes under `sources:` (calendars: {sources: [...]})",
                ))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(CalendarsFields::default())
            }
        }
        let fields = deserializer.deserialize_any(Fields)?;
        Ok(Self {
            sources: fields.sources,
            max_bytes: fields.max_bytes,
            timeout: fields.timeout,
            max_events: fields.max_events,
            allow_private_addresses: fields.allow_private_addresses,
        })
    }
}

/// One calendar the operator names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalendarSourceConfig {
    /// Shown in answers, /health and the events' `calendar`.
    pub name: String,
    /// A file path (relative to the config file) or an http(s) URL of an iCalendar file.
    pub source: String,
    /// Whose calendar it is: the id they write with (a Discord user id, `web`, `console`).
    #[serde(deserialize_with = "person_id")]
    pub for_user_id: String,
    #[serde(default = "default_refresh")]
    pub refresh: ConfigDuration,
}

fn default_refresh() -> ConfigDuration {
    ConfigDuration::secs(15 * 60)
}

/// A person's id, written as a string or a number.
fn person_id<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Id {
        Text(String),
        Number(u64),
    }
    Ok(match Id::deserialize(deserializer)? {
        Id::Text(text) => text.trim().to_string(),
        Id::Number(number) => number.to_string(),
    })
}

/// Is `source` an http(s) URL (else a file path)?
pub fn is_url(source: &str) -> bool {
    let lower = source.trim().to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

impl CalendarsConfig {
    /// The first problem: (key path, why).
    pub fn problem(&self) -> Option<(String, String)> {
        if self.max_bytes == 0 {
            return Some((
                "calendars.max_bytes".into(),
                "must be at least 1 byte".into(),
            ));
        }
        if self.max_events == 0 {
            return Some(("calendars.max_events".into(), "must be at least 1".into()));
        }
        let mut seen = std::collections::HashSet::new();
        for (index, source) in self.sources.iter().enumerate() {
            let key = |field: &str| format!("calendars.sources[{index}].{field}");
            if let Some(reason) = name_problem(&source.name) {
                return Some((key("name"), reason));
            }
            if !seen.insert((source.for_user_id.clone(), source.name.clone())) {
                return Some((
                    key("name"),
                    format!("{:?} is named twice for the same person", source.name),
                ));
            }
            if source.for_user_id.is_empty() {
                return Some((key("for_user_id"), "must name a person".into()));
            }
            let text = source.source.trim();
            if text.is_empty() {
                return Some((
                    key("source"),
                    "must be a file path or an http(s) URL".into(),
                ));
            }
            if text.contains("://") && !is_url(text) {
                return Some((
                    key("source"),
                    "only http(s) URLs and file paths are read".into(),
                ));
            }
            let refresh = source.refresh.get().as_secs();
            if refresh < MIN_REFRESH_SECS {
                return Some((key("refresh"), "must be at least 1m".into()));
            }
            if refresh > MAX_REFRESH_SECS {
                return Some((key("refresh"), "is too long; at most 7d".into()));
            }
        }
        None
    }
}

/// Why a calendar name cannot be used (config or a person's own), or None.
pub fn name_problem(name: &str) -> Option<String> {
    if name.trim().is_empty()
        || name.chars().count() > MAX_NAME_CHARS
        || name.chars().any(char::is_control)
    {
        return Some(format!(
            "a calendar name is 1 to {MAX_NAME_CHARS} characters without control characters"
        ));
    }
    None
}
