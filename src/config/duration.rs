//! Durations in config files, written like "90s", "60m", "7d" (humantime's syntax).

use std::fmt;
use std::time::Duration;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

/// A duration read from (and written back to) its human form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ConfigDuration(pub Duration);

impl ConfigDuration {
    pub const fn secs(secs: u64) -> Self {
        Self(Duration::from_secs(secs))
    }

    pub const fn millis(millis: u64) -> Self {
        Self(Duration::from_millis(millis))
    }

    pub fn get(self) -> Duration {
        self.0
    }
}

impl<'de> Deserialize<'de> for ConfigDuration {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct DurationVisitor;
        impl Visitor<'_> for DurationVisitor {
            type Value = ConfigDuration;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a duration like \"90s\", \"60m\" or \"7d\"")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
                humantime::parse_duration(text.trim())
                    .map(ConfigDuration)
                    .map_err(|error| {
                        E::custom(format!(
                            "invalid duration {text:?} ({error}); write it like \"90s\", \"60m\" or \"7d\""
                        ))
                    })
            }
            fn visit_u64<E: de::Error>(self, value: u64) -> Result<Self::Value, E> {
                Err(E::custom(format!(
                    "invalid duration {value}: give a unit, like \"{value}s\""
                )))
            }
            fn visit_i64<E: de::Error>(self, value: i64) -> Result<Self::Value, E> {
                self.visit_u64(value.unsigned_abs())
            }
        }
        deserializer.deserialize_any(DurationVisitor)
    }
}

impl Serialize for ConfigDuration {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&humantime::format_duration(self.0).to_string())
    }
}
