//! The `timezone` key: the zone times are read and shown in, and where it came from.
//!
//! A config that names a zone uses it. One that does not uses the machine's own, so a new
//! install on a laptop in Paris reads "tomorrow at 10" as 10:00 in Paris, not in UTC: the `TZ`
//! environment variable (read only through [`Env`]; ":Europe/Paris" and a zoneinfo path count),
//! then the zone `/etc/localtime` links to (resolved to its IANA name), then UTC. The start log
//! and `/health` say which (`ZoneSource`).
//! Invariants: only a zone chrono-tz knows is used; an unusable `TZ` or link is passed over
//! (logged), never guessed; resolving reads nothing but the `Env` and the link it is given, so a
//! test injects both.

use std::path::Path;
use std::str::FromStr;

use chrono_tz::Tz;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

use super::env::Env;

/// Where the machine's zone is linked from on Linux and the BSDs.
pub const LOCALTIME: &str = "/etc/localtime";

/// Where the zone in force came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZoneSource {
    /// The config file's `timezone`.
    Config,
    /// The `TZ` environment variable.
    TzVariable,
    /// The zone `/etc/localtime` links to.
    Localtime,
    /// Nothing named one: UTC.
    Fallback,
}

impl ZoneSource {
    /// How /health and the start log name it.
    pub fn as_str(self) -> &'static str {
        match self {
            ZoneSource::Config => "config",
            ZoneSource::TzVariable => "TZ",
            ZoneSource::Localtime => LOCALTIME,
            ZoneSource::Fallback => "default",
        }
    }
}

/// The zone in force and where it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZoneSetting {
    zone: Tz,
    source: ZoneSource,
}

impl Default for ZoneSetting {
    /// No `timezone` in the file: UTC until `Config::settle_zone` finds the machine's.
    fn default() -> Self {
        Self {
            zone: chrono_tz::UTC,
            source: ZoneSource::Fallback,
        }
    }
}

impl ZoneSetting {
    /// The zone a config file names.
    pub fn named(zone: Tz) -> Self {
        Self {
            zone,
            source: ZoneSource::Config,
        }
    }

    pub fn zone(self) -> Tz {
        self.zone
    }

    pub fn source(self) -> ZoneSource {
        self.source
    }

    /// Whether the config file names it (the machine's zone is not looked for then).
    pub fn is_named(self) -> bool {
        self.source == ZoneSource::Config
    }

    /// The machine's zone: `TZ` (from `env`), then the zone `localtime` links to, then UTC.
    pub fn of_machine(env: &dyn Env, localtime: &Path) -> Self {
        if let Some(value) = env.var("TZ") {
            match zone_in_tz_variable(&value) {
                Some(zone) => {
                    return Self {
                        zone,
                        source: ZoneSource::TzVariable,
                    }
                }
                None => tracing::warn!(
                    tz = %value,
                    "TZ names no zone Donna knows (write an IANA name like Europe/Paris); \
                     looking at /etc/localtime"
                ),
            }
        }
        match zone_of_link(localtime) {
            Some(zone) => Self {
                zone,
                source: ZoneSource::Localtime,
            },
            None => Self::default(),
        }
    }
}

/// The zone `TZ` names: "Europe/Paris", ":Europe/Paris", "/usr/share/zoneinfo/Europe/Paris".
fn zone_in_tz_variable(value: &str) -> Option<Tz> {
    let value = value.trim().trim_start_matches(':');
    Tz::from_str(value)
        .ok()
        .or_else(|| zone_in_path(Path::new(value)))
}

/// The zone a zoneinfo path names: ".../zoneinfo/Europe/Paris" (also under `posix/`).
fn zone_in_path(path: &Path) -> Option<Tz> {
    let text = path.to_str()?;
    let (_, name) = text.rsplit_once("zoneinfo/")?;
    let name = name
        .strip_prefix("posix/")
        .or_else(|| name.strip_prefix("right/"))
        .unwrap_or(name);
    Tz::from_str(name).ok()
}

/// The zone the link at `localtime` points to: its own target first (the name the machine's
/// owner chose), then the end of its chain of links.
fn zone_of_link(localtime: &Path) -> Option<Tz> {
    let target = std::fs::read_link(localtime).ok();
    target.as_deref().and_then(zone_in_path).or_else(|| {
        std::fs::canonicalize(localtime)
            .ok()
            .as_deref()
            .and_then(zone_in_path)
    })
}

impl<'de> Deserialize<'de> for ZoneSetting {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.trim().parse::<Tz>().map(Self::named).map_err(|_| {
            de::Error::custom(format!(
                "unknown timezone {name:?}: use an IANA name like \"Europe/Berlin\" or \"UTC\""
            ))
        })
    }
}

impl Serialize for ZoneSetting {
    /// What the file says: the zone it names, or null (a reload compares files, not machines).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.is_named() {
            serializer.serialize_some(self.zone.name())
        } else {
            serializer.serialize_none()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Vars(Vec<(&'static str, &'static str)>);
    impl Env for Vars {
        fn var(&self, name: &str) -> Option<String> {
            self.0
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| value.to_string())
        }
    }

    /// A case: the environment, the link, the zone found and where it came from.
    type Case<'a> = (
        &'static [(&'static str, &'static str)],
        &'a Path,
        &'static str,
        ZoneSource,
    );

    /// A fake /etc/localtime: a link to `target` in a temporary folder.
    fn link_to(dir: &Path, target: &str) -> std::path::PathBuf {
        let link = dir.join("localtime");
        std::os::unix::fs::symlink(target, &link).unwrap_or_else(|e| panic!("link: {e}"));
        link
    }

    #[test]
    fn the_machine_zone_is_tz_then_the_localtime_link_then_utc() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let paris = link_to(dir.path(), "/usr/share/zoneinfo/Europe/Paris");
        let none = dir.path().join("missing");
        let cases: [Case; 7] = [
            (
                &[("TZ", "America/New_York")],
                &paris,
                "America/New_York",
                ZoneSource::TzVariable,
            ),
            (
                &[("TZ", ":Asia/Tokyo")],
                &none,
                "Asia/Tokyo",
                ZoneSource::TzVariable,
            ),
            (
                &[("TZ", "/usr/share/zoneinfo/Europe/Lisbon")],
                &none,
                "Europe/Lisbon",
                ZoneSource::TzVariable,
            ),
            // A POSIX rule Donna cannot name falls through to the link.
            (
                &[("TZ", "CET-1CEST,M3.5.0,M10.5.0/3")],
                &paris,
                "Europe/Paris",
                ZoneSource::Localtime,
            ),
            (&[], &paris, "Europe/Paris", ZoneSource::Localtime),
            (&[], &none, "UTC", ZoneSource::Fallback),
            (
                &[("TZ", "Mars/Olympus")],
                &none,
                "UTC",
                ZoneSource::Fallback,
            ),
        ];
        for (vars, localtime, zone, source) in cases {
            let found = ZoneSetting::of_machine(&Vars(vars.to_vec()), localtime);
            assert_eq!(
                (found.zone().name(), found.source()),
                (zone, source),
                "{vars:?}"
            );
        }
    }

    #[test]
    fn a_link_through_the_posix_tree_or_a_relative_link_is_still_named() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let link = link_to(dir.path(), "../usr/share/zoneinfo/posix/Australia/Sydney");
        assert_eq!(zone_of_link(&link), Some(chrono_tz::Australia::Sydney));
    }
}
