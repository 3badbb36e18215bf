//! Config error messages in words a person who edits YAML understands.
//!
//! Owns: turning serde's and the YAML parser's messages ("invalid type: integer `-3`, expected
//! usize", "found character that cannot start any token") into plain ones ("expected a whole
//! number (0 or more), got -3", "a tab: YAML indents with spaces"), without Rust type names.
//! Invariant: a message it does not recognise passes through unchanged (never lost, never
//! guessed at); the " at line L column C" position is kept.

/// The plain form of one serde/YAML error message (its key path is added by the caller).
pub fn plain_reason(message: &str) -> String {
    let (body, position) = split_position(message);
    let plain = body
        .strip_prefix("invalid type: ")
        .or_else(|| body.strip_prefix("invalid value: "))
        .and_then(got_expected)
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
fn got_expected(rest: &str) -> Option<String> {
    let (unexpected, expected) = rest.split_once(", expected ")?;
    Some(format!(
        "expected {}, got {}",
        expected_in_words(expected),
        unexpected_in_words(unexpected)
    ))
}

/// "`foo`, expected one of `a`, `b`" -> "unknown value \"foo\"; expected one of: a, b".
fn unknown(what: &str, rest: &str) -> Option<String> {
    let (name, expected) = rest.split_once(", ")?;
    let choices = expected
        .strip_prefix("expected one of ")
        .or_else(|| expected.strip_prefix("expected "))
        .map(|list| list.replace('`', ""));
    Some(match choices {
        Some(list) => format!("unknown {what} {}; expected one of: {list}", quoted(name)),
        None => format!("unknown {what} {}; this section takes none", quoted(name)),
    })
}

fn quoted(backticked: &str) -> String {
    format!("\"{}\"", backticked.trim_matches('`'))
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
        return unexpected[start..].trim_matches('`').to_string();
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
            assert_eq!(plain_reason(serde), plain, "for {serde:?}");
        }
    }

    #[test]
    fn no_rust_type_name_survives() {
        for ty in ["usize", "u64", "u32", "u16", "u8", "i64", "i32", "f64"] {
            let plain = plain_reason(&format!("invalid type: string \"a\", expected {ty}"));
            assert!(!plain.contains(ty), "{plain}");
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
