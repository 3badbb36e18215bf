//! Splitting a reply into Discord messages: each below Discord's 2,000-character limit, cut at a
//! line break if there is one in reach, else at a space, else (one endless word) anywhere.

/// Characters per message; a margin under Discord's 2,000.
pub const MAX_CHARS: usize = 1_990;

pub fn split(text: &str, max_chars: usize) -> Vec<String> {
    let max_chars = max_chars.max(1);
    let mut parts = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        if rest.chars().count() <= max_chars {
            parts.push(rest.to_string());
            break;
        }
        // Byte index just past the first `max_chars` characters.
        let limit = rest
            .char_indices()
            .nth(max_chars)
            .map_or(rest.len(), |(i, _)| i);
        let window = &rest[..limit];
        let cut = window
            .rfind('\n')
            .filter(|&i| i > 0)
            .or_else(|| window.rfind(' ').filter(|&i| i > 0))
            .unwrap_or(limit);
        let (head, tail) = rest.split_at(cut);
        let head = head.trim_end();
        if !head.is_empty() {
            parts.push(head.to_string());
        }
        rest = tail.trim_start();
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_one_message_and_empty_text_none() {
        assert_eq!(split("Marked it done.", MAX_CHARS), vec!["Marked it done."]);
        assert!(split("   ", MAX_CHARS).is_empty());
    }

    #[test]
    fn long_text_splits_at_lines_then_words_in_order_below_the_limit() {
        let paragraph = "word ".repeat(700); // 3,500 characters
        let parts = split(&paragraph, MAX_CHARS);
        assert_eq!(parts.len(), 2);
        assert!(parts.iter().all(|p| p.chars().count() <= MAX_CHARS));
        assert!(parts
            .iter()
            .all(|p| !p.starts_with(' ') && !p.ends_with(' ')));
        assert_eq!(parts.join(" ").split_whitespace().count(), 700);
        let lines = format!("{}\n{}", "a".repeat(1500), "b".repeat(1500));
        assert_eq!(
            split(&lines, MAX_CHARS),
            vec!["a".repeat(1500), "b".repeat(1500)]
        );
    }

    #[test]
    fn one_endless_word_is_cut_anywhere_on_a_character_boundary() {
        let word = "ü".repeat(4_500);
        let parts = split(&word, MAX_CHARS);
        assert_eq!(
            parts.iter().map(|p| p.chars().count()).collect::<Vec<_>>(),
            vec![1990, 1990, 520]
        );
    }
}
