//! The calendars Donna reads: the operator's (config `calendars.sources`: a file or any URL)
//! and each person's own (`PUT /api/people/{user_id}` `calendars`: http(s) URLs only, fetched
//! through the address guard), as one `Source` each.
//!
//! Invariants: a source's `key` changes when its address changes, so a stored copy of an old
//! address is never served for a new one; `shown` is the most of an address anyone sees
//! (scheme and host: a secret address's path and query are a credential); a person's URL is
//! checked here before it is stored (`person_url`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use reqwest::Url;

use crate::config::{calendar_name_problem, is_calendar_url, CalendarSourceConfig};

/// How often a person's own calendar is refreshed.
pub const PERSON_REFRESH: Duration = Duration::from_secs(15 * 60);
/// The most calendars one person may add.
pub const MAX_PER_PERSON: usize = 10;
/// The longest URL taken.
const MAX_URL_CHARS: usize = 2_000;

/// Where a calendar's text comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    File(PathBuf),
    Url(String),
}

/// One calendar and whose it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub name: String,
    pub for_user_id: String,
    pub origin: Origin,
    pub refresh: Duration,
    /// Set by the person (through the API), not the operator: fetched through the guard.
    pub personal: bool,
}

impl Source {
    /// An operator's source; a relative file path is read from `base_dir` (the config's).
    pub fn from_config(config: &CalendarSourceConfig, base_dir: &Path) -> Self {
        let text = config.source.trim();
        let origin = if is_calendar_url(text) {
            Origin::Url(text.to_string())
        } else {
            let path = Path::new(text);
            Origin::File(if path.is_absolute() {
                path.to_path_buf()
            } else {
                base_dir.join(path)
            })
        };
        Self {
            name: config.name.clone(),
            for_user_id: config.for_user_id.clone(),
            origin,
            refresh: config.refresh.get(),
            personal: false,
        }
    }

    /// A person's own source.
    pub fn personal(user_id: &str, name: &str, url: &str) -> Self {
        Self {
            name: name.to_string(),
            for_user_id: user_id.to_string(),
            origin: Origin::Url(url.to_string()),
            refresh: PERSON_REFRESH,
            personal: true,
        }
    }

    /// The source's identity: who set it, whose it is, its name and its address, hashed (the
    /// stored copy's key; the address itself is not in it).
    pub fn key(&self) -> String {
        let address = match &self.origin {
            Origin::File(path) => format!("file:{}", path.display()),
            Origin::Url(url) => format!("url:{url}"),
        };
        let whole = format!(
            "{}\u{0}{}\u{0}{}\u{0}{address}",
            if self.personal { "person" } else { "config" },
            self.for_user_id,
            self.name
        );
        let digest = ring::digest::digest(&ring::digest::SHA256, whole.as_bytes());
        digest.as_ref()[..16]
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }

    /// The address as anyone may see it: "https://calendar.example.com", or "a file".
    pub fn shown(&self) -> String {
        match &self.origin {
            Origin::File(_) => "a file".to_string(),
            Origin::Url(url) => shown_url(url),
        }
    }
}

/// A URL cut to its scheme and host (and port): "https://calendar.example.com".
pub fn shown_url(url: &str) -> String {
    match Url::parse(url.trim()) {
        Ok(parsed) => {
            let host = parsed.host_str().unwrap_or("");
            match parsed.port() {
                Some(port) => format!("{}://{host}:{port}", parsed.scheme()),
                None => format!("{}://{host}", parsed.scheme()),
            }
        }
        Err(_) => "(not a URL)".to_string(),
    }
}

/// Why a person's calendar (name and URL) cannot be stored, or None.
pub fn person_problem(name: &str, url: &str) -> Option<String> {
    if let Some(reason) = calendar_name_problem(name) {
        return Some(reason);
    }
    if url.chars().count() > MAX_URL_CHARS {
        return Some(format!(
            "a calendar URL is at most {MAX_URL_CHARS} characters"
        ));
    }
    let parsed = match Url::parse(url.trim()) {
        Ok(parsed) => parsed,
        Err(_) => return Some("a calendar URL must be an http(s) URL".into()),
    };
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none_or(str::is_empty) {
        return Some("a calendar URL must be an http(s) URL".into());
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Some("a calendar URL may not carry a user name or password".into());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_shown_without_path_or_query_and_keys_follow_the_address() {
        let url = "https://calendar.example.com/private-abc123/basic.ics?token=s3cret";
        assert_eq!(shown_url(url), "https://calendar.example.com");
        assert_eq!(
            shown_url("http://127.0.0.1:8123/a.ics"),
            "http://127.0.0.1:8123"
        );
        let one = Source::personal("ana", "Work", url);
        let other = Source::personal("ana", "Work", "https://calendar.example.com/other.ics");
        assert_ne!(one.key(), other.key());
        assert!(!one.key().contains("s3cret"));
        assert_eq!(one.key(), Source::personal("ana", "Work", url).key());
    }

    #[test]
    fn only_http_urls_without_credentials_are_taken_from_people() {
        assert_eq!(person_problem("Work", "https://example.com/a.ics"), None);
        for (name, url) in [
            ("Work", "file:///etc/passwd"),
            ("Work", "ftp://example.com/a.ics"),
            ("Work", "example.com/a.ics"),
            ("Work", "https://user:pw@example.com/a.ics"),
            ("", "https://example.com/a.ics"),
            ("Work\n", "https://example.com/a.ics"),
        ] {
            assert!(person_problem(name, url).is_some(), "{name:?} {url}");
        }
    }
}
