//! Fetching a calendar's text: an http(s) URL with a conditional request (If-None-Match /
//! If-Modified-Since from the last good copy's ETag / Last-Modified), or a file; bounded in
//! time (`calendars.timeout`, the whole request) and size (`calendars.max_bytes`: reading
//! stops past it).
//!
//! Two clients: the operator's sources (config) may name any address; a person's own go
//! through `guard` (public addresses only, after DNS and on every redirect, no proxy) unless
//! `calendars.allow_private_addresses`.
//! Invariants: no error, log line or answer carries a URL's path or query (a calendar's secret
//! address is a credential): reqwest's errors are taken without their URL and reduced to their
//! cause, and `scrub` takes out any URL a cause might still quote; a file is opened without
//! blocking and read only if it is a regular file.

mod address;
mod guard;

use std::path::Path;
use std::time::Duration;

use reqwest::header::{ETAG, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED};
use reqwest::{StatusCode, Url};

use crate::config::CalendarsConfig;

pub use address::is_public;
pub use guard::Refused;

/// The longest ETag or Last-Modified value kept.
const MAX_VALIDATOR_CHARS: usize = 512;

/// What a server said about a copy, for the next conditional request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Validators {
    pub etag: Option<String>,
    pub last_modified: Option<String>,
}

/// A fetch that worked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetched {
    /// 304: the copy Donna has is current.
    NotModified,
    Body {
        text: String,
        validators: Validators,
    },
}

/// Why a fetch failed, in words that name no URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    #[error("the server answered HTTP {0}")]
    Status(u16),
    #[error("no answer within {0:?}")]
    Timeout(Duration),
    #[error("larger than calendars.max_bytes ({0} bytes)")]
    TooLarge(usize),
    #[error("refused: {0}")]
    Refused(Refused),
    #[error("{0}")]
    Failed(String),
}

/// The two HTTP clients and the bounds.
#[derive(Debug, Clone)]
pub struct Fetcher {
    open: reqwest::Client,
    guarded: reqwest::Client,
    /// The address rule of a person's sources; None: `allow_private_addresses`.
    guard: Option<guard::Rule>,
    timeout: Duration,
    max_bytes: usize,
}

fn client(timeout: Duration, guard: Option<&guard::Rule>) -> Result<reqwest::Client, FetchError> {
    let builder = reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout.min(Duration::from_secs(10)))
        .user_agent("Donna calendar reader");
    let builder = match guard {
        Some(rule) => builder
            .no_proxy()
            .dns_resolver(guard::PublicOnly(rule.clone()))
            .redirect(guard::redirects(rule.clone())),
        None => builder.redirect(reqwest::redirect::Policy::limited(guard::MAX_REDIRECTS)),
    };
    builder
        .build()
        .map_err(|error| FetchError::Failed(cause(&error)))
}

impl Fetcher {
    pub fn new(config: &CalendarsConfig) -> Result<Self, FetchError> {
        crate::tls::install_crypto_provider();
        let timeout = config.timeout.get();
        let guard = (!config.allow_private_addresses).then(guard::Rule::default);
        Ok(Self {
            open: client(timeout, None)?,
            guarded: client(timeout, guard.as_ref())?,
            guard,
            timeout,
            max_bytes: config.max_bytes,
        })
    }

    /// A test seam: the guard treats `addresses` as public (loopback offers no public address
    /// to test a redirect from). Nothing in Donna calls it.
    pub fn treating_as_public(
        mut self,
        addresses: Vec<std::net::IpAddr>,
    ) -> Result<Self, FetchError> {
        let rule = guard::Rule::treating_as_public(addresses);
        self.guarded = client(self.timeout, Some(&rule))?;
        self.guard = Some(rule);
        Ok(self)
    }

    /// Fetches `url` (`personal`: a person's own source, through the guard).
    pub async fn url(
        &self,
        url: &str,
        personal: bool,
        known: Option<&Validators>,
    ) -> Result<Fetched, FetchError> {
        let parsed = Url::parse(url.trim())
            .map_err(|_| FetchError::Failed("not a valid http(s) URL".into()))?;
        if let (true, Some(rule)) = (personal, &self.guard) {
            guard::check_url(&parsed, rule).map_err(FetchError::Refused)?;
        }
        let client = if personal { &self.guarded } else { &self.open };
        let mut request = client.get(parsed);
        if let Some(known) = known {
            if let Some(etag) = &known.etag {
                request = request.header(IF_NONE_MATCH, etag);
            }
            if let Some(modified) = &known.last_modified {
                request = request.header(IF_MODIFIED_SINCE, modified);
            }
        }
        let response = request.send().await.map_err(|e| self.failure(e, url))?;
        match response.status() {
            StatusCode::NOT_MODIFIED if known.is_some() => return Ok(Fetched::NotModified),
            status if !status.is_success() => return Err(FetchError::Status(status.as_u16())),
            _ => {}
        }
        if response
            .content_length()
            .is_some_and(|length| length > self.max_bytes as u64)
        {
            return Err(FetchError::TooLarge(self.max_bytes));
        }
        let header = |name| {
            response
                .headers()
                .get(name)
                .and_then(|value: &reqwest::header::HeaderValue| value.to_str().ok())
                .filter(|value| value.len() <= MAX_VALIDATOR_CHARS)
                .map(str::to_string)
        };
        let validators = Validators {
            etag: header(ETAG),
            last_modified: header(LAST_MODIFIED),
        };
        let text = self.body(response, url).await?;
        Ok(Fetched::Body { text, validators })
    }

    /// Reads the body chunk by chunk, stopping as soon as it would pass `max_bytes`.
    async fn body(&self, mut response: reqwest::Response, url: &str) -> Result<String, FetchError> {
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| self.failure(e, url))? {
            if body.len() + chunk.len() > self.max_bytes {
                return Err(FetchError::TooLarge(self.max_bytes));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(String::from_utf8_lossy(&body).into_owned())
    }

    fn failure(&self, error: reqwest::Error, url: &str) -> FetchError {
        if let Some(refused) = refusal(&error) {
            return FetchError::Refused(refused);
        }
        if error.is_timeout() {
            return FetchError::Timeout(self.timeout);
        }
        FetchError::Failed(scrub(&cause(&error), url))
    }

    /// Reads a file source: only a regular file, at most `max_bytes`. The file's modification
    /// time and length stand for an ETag, so an unchanged file is `NotModified`. Blocking.
    pub fn file(&self, path: &Path, known: Option<&Validators>) -> Result<Fetched, FetchError> {
        let failed =
            |error: std::io::Error| FetchError::Failed(format!("cannot read the file: {error}"));
        let metadata = std::fs::metadata(path).map_err(failed)?;
        let stamp = metadata
            .modified()
            .ok()
            .and_then(|at| at.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|since| {
                format!(
                    "{}.{}-{}",
                    since.as_secs(),
                    since.subsec_nanos(),
                    metadata.len()
                )
            });
        if stamp.is_some() && known.is_some_and(|known| known.etag == stamp) {
            return Ok(Fetched::NotModified);
        }
        let limit = crate::config::Limit {
            bytes: self.max_bytes as u64,
            shown: "calendars.max_bytes",
            one: "a calendar file",
            these: "calendar files",
        };
        let text = crate::config::read_text_within(path, &limit).map_err(|error| match error {
            crate::config::FileError::TooLarge { .. } => FetchError::TooLarge(self.max_bytes),
            other => FetchError::Failed(other.to_string()),
        })?;
        Ok(Fetched::Body {
            text,
            validators: Validators {
                etag: stamp,
                last_modified: None,
            },
        })
    }
}

/// Our own refusal, when it is what stopped the request (the resolver or the redirect policy).
fn refusal(error: &reqwest::Error) -> Option<Refused> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(current) = source {
        if let Some(refused) = current.downcast_ref::<Refused>() {
            return Some(refused.clone());
        }
        source = current.source();
    }
    None
}

/// The root cause of a failed request ("could not connect: Connection refused (os error
/// 111)"), without the URL reqwest puts in its own message.
fn cause(error: &reqwest::Error) -> String {
    let Some(mut root) = std::error::Error::source(error) else {
        return error_kind(error).to_string();
    };
    while let Some(next) = root.source() {
        root = next;
    }
    format!("{}: {root}", error_kind(error))
}

fn error_kind(error: &reqwest::Error) -> &'static str {
    if error.is_connect() {
        "could not connect"
    } else if error.is_redirect() {
        "a redirect could not be followed"
    } else if error.is_body() || error.is_decode() {
        "the answer broke off"
    } else {
        "the request failed"
    }
}

/// `message` with `url`, and its path and query, taken out wherever they appear.
pub fn scrub(message: &str, url: &str) -> String {
    let mut clean = message.replace(url.trim(), "(the calendar's address)");
    if let Ok(parsed) = Url::parse(url.trim()) {
        let path = parsed.path();
        if path.len() > 1 {
            clean = clean.replace(path, "(path)");
        }
        if let Some(query) = parsed.query().filter(|query| !query.is_empty()) {
            clean = clean.replace(query, "(query)");
        }
    }
    clean
}
