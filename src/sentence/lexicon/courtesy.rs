//! The person's phatic words: what people put around what they mean ("hey donna,", "ok",
//! "sorry,", "ugh", "thanks!", "could you ..."). A sentence sets them aside at either end
//! (`sentence::wrapper`), so a reader sees the same core with or without them.

use super::WordSet;

/// Greetings.
pub const GREETINGS: &[&str] = &[
    "hi",
    "hello",
    "hey",
    "hiya",
    "yo",
    "howdy",
    "heya",
    "hallo",
    "hullo",
    "greetings",
    "sup",
];

/// Thanks.
pub const THANKS: &[&str] = &[
    "thanks",
    "thank",
    "thx",
    "ty",
    "cheers",
    "appreciate",
    "appreciated",
    "tysm",
    "thnx",
    "thanx",
    "ta",
];

/// Apologies.
pub const APOLOGIES: &[&str] = &["sorry", "sry", "apologies", "oops", "whoops", "soz"];

/// Please.
pub const PLEASE: &[&str] = &["please", "pls", "plz", "plse", "kindly"];

/// Sounds and words of mood that say nothing about what is meant ("ugh", "honestly", "hmm").
pub const INTERJECTIONS: &[&str] = &[
    "ugh", "argh", "urgh", "um", "umm", "uh", "uhh", "hmm", "hm", "erm", "er", "honestly", "tbh",
    "frankly", "anyway", "anyways", "phew", "whew", "meh", "welp", "gosh", "oof", "ooh", "wow",
    "jeez",
];

/// Words that are phatic only before a comma or another phatic word ("well, ...", "so yeah",
/// "morning donna!"): "well done", "so done with this" and "evening walk" mean something.
pub const SOFT_INTERJECTIONS: &[&str] = &[
    "well",
    "so",
    "oh",
    "ah",
    "right",
    "now",
    "morning",
    "evening",
    "afternoon",
    "night",
];

/// Agreement ("yes", "ok", "sure"): alone it answers a question; before content it only leads
/// into it ("yeah, sent it").
pub const AGREEMENT: &[&str] = &[
    "yes",
    "yeah",
    "yep",
    "yup",
    "ya",
    "yea",
    "ye",
    "ok",
    "okay",
    "okey",
    "k",
    "kk",
    "sure",
    "alright",
    "fine",
    "cool",
    "great",
    "perfect",
    "absolutely",
    "definitely",
    "totally",
    "indeed",
    "aye",
    "roger",
];

/// How people address Donna.
pub const ADDRESS: &[&str] = &["donna"];

/// Openers that only make a request polite: "can you", "could you please", "would you mind",
/// "I need you to".
pub const POLITE_OPENERS: &[&[&str]] = &[
    &["would", "you", "mind"],
    &["would", "you", "kindly"],
    &["can", "you", "please"],
    &["could", "you", "please"],
    &["would", "you", "please"],
    &["will", "you", "please"],
    &["can", "you"],
    &["could", "you"],
    &["would", "you"],
    &["will", "you"],
    &["can", "u"],
    &["could", "u"],
    &["would", "u"],
    &["i", "need", "you", "to"],
    &["i", "want", "you", "to"],
    &["i'd", "like", "you", "to"],
    &["id", "like", "you", "to"],
    &["i", "would", "like", "you", "to"],
];

/// Phatic phrases of more than one word ("thank you", "good morning", "my bad").
pub const PHATIC_PHRASES: &[&[&str]] = &[
    &["thank", "you"],
    &["thank", "u"],
    &["many", "thanks"],
    &["good", "morning"],
    &["good", "afternoon"],
    &["good", "evening"],
    &["hi", "there"],
    &["hey", "there"],
    &["hello", "there"],
    &["my", "bad"],
    &["of", "course"],
    &["sounds", "good"],
    &["oh", "well"],
    &["ok", "so"],
    &["okay", "so"],
    &["alright", "so"],
];

pub fn is_greeting(word: &str) -> bool {
    GREETINGS.contains(&word)
}

pub fn is_thanks(word: &str) -> bool {
    THANKS.contains(&word)
}

pub fn is_please(word: &str) -> bool {
    PLEASE.contains(&word)
}

pub fn is_apology(word: &str) -> bool {
    APOLOGIES.contains(&word)
}

pub fn is_interjection(word: &str) -> bool {
    INTERJECTIONS.contains(&word)
}

pub fn is_agreement(word: &str) -> bool {
    AGREEMENT.contains(&word)
}

pub fn is_address(word: &str) -> bool {
    ADDRESS.contains(&word)
}

/// Every word phatic wherever it stands at either end of a message.
static PHATIC: WordSet = WordSet::new(&[
    GREETINGS,
    THANKS,
    PLEASE,
    APOLOGIES,
    INTERJECTIONS,
    AGREEMENT,
    ADDRESS,
]);

/// Whether `word` is phatic wherever it stands at either end of a message.
pub fn is_phatic(word: &str) -> bool {
    PHATIC.contains(word)
}

/// Whether `word` is phatic before a comma or another phatic word ("well, ...", "oh ok").
pub fn is_soft_phatic(word: &str) -> bool {
    SOFT_INTERJECTIONS.contains(&word)
}
