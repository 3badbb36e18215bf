//! Titles a message quotes: "put 'buy milk' on the list", "rename it to “Pay rent for
//! December”". A quote opens after the start, a space or an opening bracket and closes before
//! the end, a space or punctuation, so the apostrophe of "don't" or "dogs'" quotes nothing.
//!
//! Invariant (pure): every range is on char boundaries of the text, inside the quotes, and
//! holds at least one letter or digit.

use std::ops::Range;

/// The byte ranges of the quoted titles in `text`, in order.
pub fn titles(text: &str) -> Vec<Range<usize>> {
    if !text.contains(|c: char| closing_of(c).is_some()) {
        return Vec::new();
    }
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut found = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let (start, character) = chars[at];
        let Some(closing) = closing_of(character) else {
            at += 1;
            continue;
        };
        let opens = at == 0 || chars[at - 1].1.is_whitespace() || "([{".contains(chars[at - 1].1);
        if !opens {
            at += 1;
            continue;
        }
        let inner_start = start + character.len_utf8();
        let close = (at + 1..chars.len()).find(|&index| {
            let (_, candidate) = chars[index];
            let ends = chars
                .get(index + 1)
                .is_none_or(|(_, next)| !next.is_alphanumeric());
            closing.contains(&candidate) && ends
        });
        match close {
            Some(index) => {
                let range = inner_start..chars[index].0;
                let holds_a_word = text
                    .get(range.clone())
                    .is_some_and(|inner| inner.chars().any(char::is_alphanumeric));
                if holds_a_word {
                    found.push(range);
                }
                at = index + 1;
            }
            None => at += 1,
        }
    }
    found
}

/// The marks that close a quote opened by `opening`.
fn closing_of(opening: char) -> Option<&'static [char]> {
    match opening {
        '\'' => Some(&['\'']),
        '"' => Some(&['"']),
        '`' => Some(&['`']),
        '\u{2018}' => Some(&['\u{2019}', '\'']),
        '\u{201C}' => Some(&['\u{201D}', '"']),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::titles;

    #[test]
    fn quotes_hold_titles_and_apostrophes_hold_none() {
        let quoted = |text: &str| -> Vec<String> {
            titles(text)
                .into_iter()
                .map(|range| text[range].to_string())
                .collect()
        };
        assert_eq!(quoted("put 'buy milk' on the list"), ["buy milk"]);
        assert_eq!(
            quoted("rename it to “Pay rent for December”"),
            ["Pay rent for December"]
        );
        assert_eq!(quoted("don't forget the dogs' food"), Vec::<String>::new());
        assert_eq!(quoted("call it \"Q4 report\", please"), ["Q4 report"]);
        assert_eq!(quoted("'' and \"!\""), Vec::<String>::new());
    }
}
