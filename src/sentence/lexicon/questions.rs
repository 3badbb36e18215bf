//! The words of a question: the question words ("what", "when's") and the verbs that open a
//! question when they come before their subject ("is it done", "did you move it").

/// Question words, with their contracted and apostrophe-less forms.
pub const QUESTION_WORDS: &[&str] = &[
    "what", "when", "where", "who", "whom", "whose", "why", "how", "which", "what's", "whats",
    "when's", "whens", "where's", "wheres", "who's", "whos", "how's", "hows", "why's",
];

/// Verbs that open a question when they come before their subject ("is it done").
pub const AUXILIARIES: &[&str] = &[
    "is",
    "are",
    "am",
    "was",
    "were",
    "do",
    "does",
    "did",
    "have",
    "has",
    "had",
    "can",
    "could",
    "should",
    "will",
    "would",
    "shall",
    "may",
    "might",
    "must",
    "isn't",
    "aren't",
    "didn't",
    "doesn't",
    "don't",
    "haven't",
    "hasn't",
    "wasn't",
    "weren't",
    "won't",
    "can't",
    "shouldn't",
    "couldn't",
    "wouldn't",
];

/// Whether `word` is a question word.
pub fn is_question_word(word: &str) -> bool {
    QUESTION_WORDS.contains(&word)
}

/// Whether `word` is a question word with its verb in it ("what's", "whats", "how's").
pub fn is_contracted(word: &str) -> bool {
    is_question_word(word) && (word.contains('\'') || (word.ends_with('s') && word != "whose"))
}

/// Whether `word` is a verb that opens a question before its subject.
pub fn is_auxiliary(word: &str) -> bool {
    AUXILIARIES.contains(&word)
}

/// Whether a message whose first word is `first` (and second `second`) opens like a question:
/// a question word, or a verb that opens one ("is", "did", "can", ...). "may" followed by a
/// number is the month ("may 3rd"), and a negated verb opens a question only before a subject
/// ("don't mark it" is an order).
pub fn opens_question(first: &str, second: &str) -> bool {
    if is_question_word(first) {
        return true;
    }
    if first == "may" && second.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    if first.ends_with("n't") {
        return super::moods::is_subject(second);
    }
    is_auxiliary(first) && !matches!(first, "had" | "must" | "might")
}
