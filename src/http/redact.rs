//! What the access log prints of a request's path: the path decoded, with anything that looks
//! like a secret replaced by `[redacted]`, whatever the route and however it was spelled.
//!
//! Why: a mistyped feed URL (`/api/calendar.ics&token=T`, `%3Ftoken=T`) puts the token in the
//! path, which the log printed; the query was never printed, but a path is whatever a client
//! sends. So the path is judged by what it looks like, not by the route: percent-encoding is
//! undone (repeatedly: `%253D` is `=`), then (1) the secrets Donna knows (the API token, the
//! calendar token, the web page's session value) are cut wherever they stand, and (2) whatever
//! follows a secret-looking word (`token`, `secret`, `password`, `key`, `auth`, `session`, ... in
//! any case, inside longer names such as `access_token` too) and a separator (`=`, `:`, `/`,
//! `.`, ...) is cut up to the next delimiter (`&`, `;`, `?`, `#`, `/`, ...). Control characters
//! are shown escaped, and the result is cut at [`MAX_SHOWN_CHARS`].
//! Invariants: pure; the result never holds a known secret nor the value of a secret-looking
//! parameter, and never a raw control character (no forged log line).

use std::borrow::Cow;

/// What a cut value is replaced with.
pub const REDACTED: &str = "[redacted]";
/// The longest path printed, in characters.
pub const MAX_SHOWN_CHARS: usize = 300;
/// How many layers of percent-encoding are undone.
const DECODE_ROUNDS: usize = 4;
/// Words whose value is a secret (matched in lower case, also inside a longer name).
const SECRET_WORDS: [&str; 9] = [
    "token", "secret", "password", "passwd", "pwd", "key", "auth", "session", "bearer",
];

/// The path as the log shows it.
pub fn shown_path(path: &str, secrets: &[&str]) -> String {
    let mut decoded = path.to_string();
    for _ in 0..DECODE_ROUNDS {
        let once: Cow<'_, str> = percent_encoding::percent_decode_str(&decoded).decode_utf8_lossy();
        if once == decoded {
            break;
        }
        decoded = once.into_owned();
    }
    for secret in secrets.iter().filter(|secret| !secret.is_empty()) {
        decoded = decoded.replace(secret, REDACTED);
    }
    let redacted = cut_secret_values(&decoded);
    let mut shown = String::new();
    for c in redacted.chars() {
        if shown.chars().count() >= MAX_SHOWN_CHARS {
            shown.push('…');
            break;
        }
        if c.is_control() {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    shown
}

/// Between a secret word and its value.
fn is_separator(c: char) -> bool {
    matches!(c, '=' | ':' | '/' | '.' | '-' | '_' | '+' | '"' | '\'')
        || c.is_whitespace()
        || c.is_control()
}

/// After a value.
fn is_delimiter(c: char) -> bool {
    matches!(
        c,
        '&' | ';' | '?' | '#' | '/' | '\\' | ',' | '"' | '\'' | '<' | '>' | '(' | ')'
    ) || c.is_whitespace()
        || c.is_control()
}

/// `text` with the value after every secret word cut.
fn cut_secret_values(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let lower: Vec<char> = text.chars().flat_map(char::to_lowercase).collect();
    // Lower-casing can change the length (rare letters): then judge the text as it is.
    let lower = if lower.len() == chars.len() {
        lower
    } else {
        chars.clone()
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let word = SECRET_WORDS.iter().find(|word| {
            let word: Vec<char> = word.chars().collect();
            lower.get(i..i + word.len()) == Some(word.as_slice())
        });
        let Some(word) = word else {
            out.push(chars[i]);
            i += 1;
            continue;
        };
        let mut j = i + word.chars().count();
        // The rest of a longer name: `tokens`, `token_value`, `apikey2`.
        while j < chars.len() && chars[j].is_alphanumeric() {
            j += 1;
        }
        out.extend(&chars[i..j]);
        let separators = j;
        while j < chars.len() && is_separator(chars[j]) {
            j += 1;
        }
        if j == separators {
            i = j;
            continue;
        }
        out.extend(&chars[separators..j]);
        let value = j;
        while j < chars.len() && !is_delimiter(chars[j]) {
            j += 1;
        }
        if j > value {
            out.push_str(REDACTED);
        }
        i = j;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_cut_however_the_path_spells_it() {
        // (path as sent, what the log shows)
        let table = [
            (
                "/api/calendar.ics&token=T1",
                "/api/calendar.ics&token=[redacted]",
            ),
            (
                "/api/calendar.ics%3Ftoken=T1",
                "/api/calendar.ics?token=[redacted]",
            ),
            (
                "/api/calendar.ics%3ftoken%3dT1",
                "/api/calendar.ics?token=[redacted]",
            ),
            (
                "/api/calendar.ics;token=T1",
                "/api/calendar.ics;token=[redacted]",
            ),
            (
                "/api/calendar.ics&TOKEN=T1",
                "/api/calendar.ics&TOKEN=[redacted]",
            ),
            (
                "/api/calendar.ics%253Ftoken%253DT1",
                "/api/calendar.ics?token=[redacted]",
            ),
            (
                "/api/calendar.ics/token/T1",
                "/api/calendar.ics/token/[redacted]",
            ),
            ("/x&access_token=T1&b=2", "/x&access_token=[redacted]&b=2"),
            ("/x;API_KEY:T1", "/x;API_KEY:[redacted]"),
            ("/x&password=T1", "/x&password=[redacted]"),
            ("/x&token==T1", "/x&token==[redacted]"),
            ("/x&token%00=T1", "/x&token\\u{0}=[redacted]"),
            ("/x%0Aforged line", "/x\\nforged line"),
            ("/api/tasks", "/api/tasks"),
            ("/web/session", "/web/session"),
            ("/no/such/page", "/no/such/page"),
        ];
        for (path, shown) in table {
            assert_eq!(shown_path(path, &[]), shown, "{path}");
        }
    }

    #[test]
    fn a_known_secret_is_cut_wherever_it_stands() {
        let shown = shown_path(
            "/api/calendar.ics/s3cr3t-T0k3n/x%2Ds3cr3t-T0k3n",
            &["s3cr3t-T0k3n"],
        );
        assert_eq!(shown, "/api/calendar.ics/[redacted]/x-[redacted]");
        assert!(shown_path(&"a".repeat(1000), &[]).chars().count() <= MAX_SHOWN_CHARS + 1);
    }
}
