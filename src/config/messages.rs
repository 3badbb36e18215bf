//! Config error messages in words a person who edits YAML understands.
//!
//! Owns: turning serde's and the YAML parser's messages ("invalid type: integer `-3`, expected
//! usize", "found character that cannot start any token") into plain ones ("expected a whole
//! number (0 or more), got -3", "a tab: YAML indents with spaces"), without Rust type names.
//!
//! Never the file's contents (a file that is not the expected YAML may be a `.env` file or
//! /etc/passwd named by mistake or on purpose, and the message reaches the log and the
//! unauthenticated /health): a value is quoted only under a key the schema knows, and only
//! when short and on one line ([`shown_value`]); a whole document that is not a section of
//! keys is never quoted; a key is named only when it is written like a config key
//! ([`shown_key`]: lower case letters, digits and underscores), else "a key" with its line.
//! Invariant: a message it does not recognise passes through unchanged (never lost, never
//! guessed at); the " at line L column C" position is kept.

/// Longest value quoted back in a message.
const MAX_SHOWN_CHARS: usize = 40;

/// Whether a key (or a name in the key path) may be shown: written like the keys of Donna's
/// files, so it is a name a person typed, not a secret or a line of another kind of file.
pub fn shown_key(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && key.len() <= MAX_SHOWN_CHARS
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Whether a value found under a known key may be quoted back: short, on one line, printable.
fn shown_value(value: &str) -> bool {
    value.chars().count() <= MAX_SHOWN_CHARS && !value.chars().any(char::is_control)
}

/// The plain form of one serde/YAML error message (its key path is added by the caller).
/// `top_level`: the error is about the whole document (not under any key), whose value is
/// never quoted.
pub fn plain_reason(message: &str, top_level: bool) -> String {
    let (body, position) = split_position(message);
    let plain = body
        .strip_prefix("invalid type: ")
        .or_else(|| body.strip_prefix("invalid value: "))
        .and_then(|rest| got_expected(rest, top_level))
        .or_else(|| {
            body.strip_prefix("unknown field ")
                .and_then(|rest| unknown("key", rest))
        })
        .or_else(|| {
            body.strip_prefix("unknown variant ")
                .and_then(|rest| unknown("value", rest))
        })
        .or_else(|| {
            body.strip_prefix("missing field ")
                .map(|field| format!("the key {} is required here", quoted(field)))
        })
        .or_else(|| {
            body.strip_prefix("duplicate field ")
                .map(|field| format!("the key {} is written twice", quoted(field)))
        });
    format!("{}{position}", plain.unwrap_or_else(|| body.to_string()))
}

/// A backticked key from serde's message, quoted when it may be shown.
fn quoted(backticked: &str) -> String {
    let key = backticked.trim_matches('`');
    if shown_key(key) {
        format!("\"{key}\"")
    } else {
        "(not shown)".to_string()
    }
}

/// When the parser stopped on a line indented with a tab, says so: YAML forbids tabs in
/// indentation, and the parser's own words ("found character that cannot start any token")
/// do not say which character.
pub fn tab_hint(text: &str, message: &str) -> Option<String> {
    let line_number = line_of(message)?;
    let line = text.lines().nth(line_number.checked_sub(1)?)?;
    let indentation: String = line.chars().take_while(|c| c.is_whitespace()).collect();
    indentation.contains('\t').then(|| {
        format!("line {line_number} is indented with a tab; YAML indents with spaces only")
    })
}

/// "… at line 2 column 20" -> ("…", " at line 2 column 20").
fn split_position(message: &str) -> (&str, &str) {
    match message.rfind(" at line ") {
        Some(at) => message.split_at(at),
        None => (message, ""),
    }
}

fn line_of(message: &str) -> Option<usize> {
    let (_, position) = split_position(message);
    let digits: String = position
        .strip_prefix(" at line ")?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// "integer `-3`, expected usize" -> "expected a whole number (0 or more), got -3".
fn got_expected(rest: &str, top_level: bool) -> Option<String> {
    // The expected part is serde's own words; the unexpected value comes first and may hold
    // ", expected " itself, so split at the last one.
    let (unexpected, expected) = rest.rsplit_once(", expected ")?;
    if top_level {
        return Some(format!(
            "expected {}; this file is not that (its contents are not shown)",
            expected_in_words(expected)
        ));
    }
    Some(format!(
        "expected {}, got {}",
        expected_in_words(expected),
        unexpected_in_words(unexpected)
    ))
}

/// "`foo`, expected one of `a`, `b`" -> "unknown value \"foo\"; expected one of: a, b".
fn unknown(what: &str, rest: &str) -> Option<String> {
    // The name is backticked and may itself hold ", " or backticks: it ends at the last
    // "`, expected" (serde's own words follow).
    let (name, expected) = match rest.rfind("`, expected") {
        Some(end) => (&rest[..=end], &rest[end + 3..]),
        None => rest.split_once(", ")?,
    };
    let name = name.strip_prefix('`').unwrap_or(name);
    let name = name.strip_suffix('`').unwrap_or(name);
    let shown = match what {
        "key" if shown_key(name) => format!("unknown key \"{name}\""),
        "key" => "a key that is not known here (not shown: it is not written like one)".into(),
        _ if shown_value(name) => format!("unknown {what} \"{name}\""),
        _ => format!("an unknown {what}"),
    };
    let choices = expected
        .strip_prefix("expected one of ")
        .or_else(|| expected.strip_prefix("expected "))
        .map(|list| list.replace('`', ""));
    Some(match choices {
        Some(list) => format!("{shown}; expected one of: {list}"),
        None => format!("{shown}; this section takes none"),
    })
}

fn expected_in_words(expected: &str) -> String {
    let words = match expected {
        "usize" | "u64" | "u32" | "u16" | "u8" => "a whole number (0 or more)",
        "isize" | "i64" | "i32" | "i16" | "i8" => "a whole number",
        "f64" | "f32" => "a number",
        "a sequence" => "a list",
        "a map" => "a section of key: value lines",
        "a boolean" => "true or false",
        "option" => "a value",
        other if other.starts_with("struct ") => "a section of key: value lines",
        other if other.starts_with("enum ") => "one of the names this key takes",
        other => other,
    };
    words.to_string()
}

fn unexpected_in_words(unexpected: &str) -> String {
    // "integer `-3`", "floating point `0.5`", "string \"x\"": the value is the quoted part.
    if let Some(start) = unexpected.find(['`', '"']) {
        let value = unexpected[start..].trim_matches('`');
        if shown_value(value) {
            return value.to_string();
        }
        return match &unexpected[..start] {
            "string " => "a long text (not shown)".to_string(),
            _ => "a value (not shown)".to_string(),
        };
    }
    match unexpected {
        "sequence" => "a list".to_string(),
        "map" => "a section of key: value lines".to_string(),
        "unit value" => "nothing (an empty value)".to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_messages_read_as_plain_words_and_keep_their_position() {
        let table = [
            (
                "invalid type: integer `-3`, expected usize at line 2 column 20",
                "expected a whole number (0 or more), got -3 at line 2 column 20",
            ),
            (
                "invalid type: string \"many\", expected u64",
                "expected a whole number (0 or more), got \"many\"",
            ),
            (
                "invalid type: sequence, expected a string at line 2 column 9",
                "expected a string, got a list at line 2 column 9",
            ),
            (
                "invalid type: string \"yes please\", expected a boolean",
                "expected true or false, got \"yes please\"",
            ),
            (
                "invalid type: string \"x\", expected struct LlmConfig at line 1 column 6",
                "expected a section of key: value lines, got \"x\" at line 1 column 6",
            ),
            (
                "invalid type: floating point `0.5`, expected u32",
                "expected a whole number (0 or more), got 0.5",
            ),
            (
                "invalid value: integer `70000`, expected u16",
                "expected a whole number (0 or more), got 70000",
            ),
            (
                "unknown field `modle`, expected one of `provider`, `model` at line 2 column 3",
                "unknown key \"modle\"; expected one of: provider, model at line 2 column 3",
            ),
            (
                "unknown variant `foo`, expected one of `ollama`, `openai`, `none`",
                "unknown value \"foo\"; expected one of: ollama, openai, none",
            ),
            ("missing field `at`", "the key \"at\" is required here"),
            // Our own messages pass through unchanged.
            (
                "invalid duration \"5 parsecs\"; write it like \"90s\"",
                "invalid duration \"5 parsecs\"; write it like \"90s\"",
            ),
        ];
        for (serde, plain) in table {
            assert_eq!(plain_reason(serde, false), plain, "for {serde:?}");
        }
    }

    #[test]
    fn no_rust_type_name_survives() {
        for ty in ["usize", "u64", "u32", "u16", "u8", "i64", "i32", "f64"] {
            let plain = plain_reason(&format!("invalid type: string \"a\", expected {ty}"), false);
            assert!(!plain.contains(ty), "{plain}");
        }
    }

    #[test]
    fn a_file_that_is_not_the_expected_yaml_is_never_quoted() {
        let table = [
            // A `.env` file: one plain scalar, the whole document.
            (
                "invalid type: string \"API_KEY=sk-very-secret-123\", expected struct Config",
                true,
                "expected a section of key: value lines; this file is not that (its contents are not shown)",
            ),
            // A long value under a known key.
            (
                "invalid type: string \"root:x:0:0:root:/root:/bin/bash daemon:x:1:1\", expected a boolean",
                false,
                "expected true or false, got a long text (not shown)",
            ),
            // Keys not written like config keys.
            (
                "unknown field `sk-very-secret-123`, expected one of `actions` at line 1 column 2",
                false,
                "a key that is not known here (not shown: it is not written like one); expected one of: actions at line 1 column 2",
            ),
            (
                "unknown field `DB_PASSWORD`, expected one of `actions`",
                false,
                "a key that is not known here (not shown: it is not written like one); expected one of: actions",
            ),
            (
                "unknown variant `a value with, a comma and more than forty characters`, expected one of `a`, `b`",
                false,
                "an unknown value; expected one of: a, b",
            ),
        ];
        for (serde, top_level, plain) in table {
            assert_eq!(plain_reason(serde, top_level), plain, "for {serde:?}");
        }
        assert!(shown_key("max_concurrency") && shown_key("v1") && shown_key("_x"));
        for hidden in ["DB_PASSWORD", "sk-very-secret-123", "a b", "", "é"] {
            assert!(!shown_key(hidden), "{hidden:?}");
        }
    }

    #[test]
    fn a_tab_in_the_indentation_is_named_and_other_errors_are_not() {
        let message =
            "found character that cannot start any token at line 2 column 1, while scanning";
        assert_eq!(
            tab_hint("llm:\n\tprovider: none\n", message).as_deref(),
            Some("line 2 is indented with a tab; YAML indents with spaces only")
        );
        assert_eq!(tab_hint("llm:\n  provider: none\n", message), None);
        assert_eq!(tab_hint("llm:\n\tprovider: none\n", "no position"), None);
    }
}
