//! Thanks, goodbyes and greetings in people's words: "thanks, that's all", "cheers mate",
//! "great, thank you so much", "that's it for now", "bye!", "good night", "hi Donna", "hey, good
//! morning". Read as a whole message: every word must be one such a message is made of, and one
//! of them must thank, close or greet. So "thanks, add milk" is not one (it asks for something).
//!
//! Invariant (pure): a message read here creates nothing and needs no model.

/// What a closing or greeting is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Thanks,
    Greeting,
}

/// Words that thank or close a conversation.
const CLOSERS: &[&str] = &[
    "thanks",
    "thank",
    "ty",
    "thx",
    "cheers",
    "appreciate",
    "appreciated",
    "bye",
    "goodbye",
    "byebye",
    "night",
    "goodnight",
    "ttyl",
    "later",
    "cya",
    "laters",
];

/// Phrases that close without thanking ("that's all", "that's it", "nothing else").
const CLOSING_PHRASES: &[&[&str]] = &[
    &["thats", "all"],
    &["thats", "it"],
    &["nothing", "else"],
    &["all", "good"],
    &["im", "good"],
    &["were", "done"],
    &["im", "done"],
    &["all", "set"],
    &["no", "more"],
];

/// Words that greet.
const GREETERS: &[&str] = &[
    "hi",
    "hello",
    "hey",
    "hiya",
    "yo",
    "morning",
    "afternoon",
    "evening",
    "howdy",
    "greetings",
    "sup",
    "heya",
    "hallo",
    "hullo",
];

/// Everything else such a message may hold.
const GLUE: &[&str] = &[
    "you",
    "so",
    "much",
    "a",
    "lot",
    "lots",
    "again",
    "ok",
    "okay",
    "great",
    "perfect",
    "awesome",
    "cool",
    "nice",
    "lovely",
    "brilliant",
    "amazing",
    "wonderful",
    "good",
    "fine",
    "super",
    "sweet",
    "excellent",
    "thats",
    "that",
    "all",
    "for",
    "now",
    "it",
    "is",
    "nothing",
    "else",
    "no",
    "more",
    "i",
    "im",
    "am",
    "we",
    "were",
    "done",
    "set",
    "see",
    "ya",
    "take",
    "care",
    "have",
    "day",
    "mate",
    "donna",
    "helps",
    "helped",
    "help",
    "helpful",
    "got",
    "understood",
    "noted",
    "will",
    "do",
    "k",
    "kk",
    "alright",
    "right",
    "sounds",
    "then",
    "catch",
    "speak",
    "talk",
    "soon",
    "today",
    "tonight",
    "tomorrow",
    "very",
    "really",
    "there",
    "the",
    "guys",
    "dear",
    "oh",
    "ah",
    "haha",
    "lol",
    "nice",
    "one",
    "your",
    "my",
    "friend",
    "how",
    "are",
    "doing",
    "hows",
    "going",
    "whats",
    "up",
    "back",
    "again",
    "to",
    "too",
    "u",
    "yeah",
    "yes",
    "yep",
    "and",
];

/// Whether `words` (lower case, apostrophes dropped) are a thanks, a goodbye or a greeting.
pub fn read(words: &[String]) -> Option<Kind> {
    if words.is_empty() {
        return None;
    }
    let known = |word: &String| {
        let word = word.as_str();
        CLOSERS.contains(&word) || GREETERS.contains(&word) || GLUE.contains(&word)
    };
    if !words.iter().all(known) {
        return None;
    }
    let closes = words.iter().any(|word| CLOSERS.contains(&word.as_str()))
        || CLOSING_PHRASES.iter().any(|phrase| {
            words
                .windows(phrase.len())
                .any(|window| window.iter().zip(*phrase).all(|(w, p)| w == p))
        });
    if closes {
        return Some(Kind::Thanks);
    }
    words
        .iter()
        .any(|word| GREETERS.contains(&word.as_str()))
        .then_some(Kind::Greeting)
}
