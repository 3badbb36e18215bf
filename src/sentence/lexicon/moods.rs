//! The words that give a clause its mood beyond a plain statement: who it is about (the person,
//! the task, someone else), an intention ("I'll", "going to"), a wish ("I wish", "if only"), a
//! condition ("if", "unless"), a habit ("usually", "always"), a suggestion ("we could ...
//! maybe"), sarcasm ("oh sure", "yeah right", "lol" after a claim), and the words around a
//! verb that are no subject ("just", "already", "finally").

/// Subjects that are the person speaking.
pub const PERSON: &[&str] = &[
    "i",
    "i'm",
    "im",
    "i've",
    "ive",
    "i'd",
    "id",
    "i'll",
    "ill",
    "we",
    "we're",
    "were",
    "we've",
    "weve",
    "we'd",
    "we'll",
    "me",
    "myself",
    "us",
    "ourselves",
    "let's",
    "lets",
];

/// Subjects that are the task itself ("it's done", "that's sorted", "all sent").
pub const TASK: &[&str] = &[
    "it",
    "it's",
    "its",
    "that",
    "that's",
    "thats",
    "this",
    "this's",
    "these",
    "those",
    "all",
    "both",
    "everything",
    "everything's",
    "everythings",
];

/// Pronouns for someone else.
pub const OTHERS: &[&str] = &[
    "he",
    "she",
    "they",
    "he's",
    "she's",
    "they're",
    "hes",
    "shes",
    "theyre",
    "he'll",
    "she'll",
    "they'll",
    "he'd",
    "she'd",
    "they'd",
    "someone",
    "somebody",
    "everyone",
    "everybody",
    "nobody",
    "you",
    "you're",
    "youre",
    "u",
];

/// Words that may stand between a subject and its verb without being either ("I just paid
/// it", "finally sent", "not done").
pub const ADVERBS: &[&str] = &[
    "just",
    "already",
    "finally",
    "also",
    "totally",
    "really",
    "actually",
    "literally",
    "still",
    "only",
    "even",
    "now",
    "then",
    "so",
    "too",
    "all",
    "quite",
    "pretty",
    "very",
    "def",
    "defo",
    "definitely",
    "fully",
    "completely",
    "properly",
    "basically",
    "mostly",
    "kinda",
    "sorta",
];

/// Verbs that carry a clause (a tense, a modal) without being the deed.
pub const HELPERS: &[&str] = &[
    "is", "are", "am", "was", "were", "be", "been", "being", "has", "have", "had", "will", "would",
    "shall", "should", "can", "could", "may", "might", "must", "do", "does", "did", "got", "gets",
    "get", "getting", "gonna", "going", "wanna", "gotta", "'s", "'re", "'ve", "'ll", "'d",
];

/// Words that make a clause an intention, not a report ("I'll send it", "going to pay").
#[rustfmt::skip]
pub const INTENTION: &[&str] = &[
    "will", "i'll", "ill", "we'll", "gonna", "going", "about", "plan", "planning", "want", "wanna",
    "need", "needs", "should", "must", "might", "may", "could", "would", "hope", "hoping", "try",
    "trying", "intend", "let's", "lets", "soon", "tomorrow", "tonight", "later", "can", "shall",
    "if", "unless", "whether",
];

/// A wish: "I wish", "if only", "would be nice".
pub const WISHES: &[&[&str]] = &[
    &["wish"],
    &["wished"],
    &["wishing"],
    &["if", "only"],
    &["would", "be", "nice"],
    &["would", "be", "great"],
    &["i'd", "love"],
    &["id", "love"],
    &["would", "love"],
    &["hopefully"],
    &["i", "hope"],
];

/// A condition: "if", "unless", "in case".
pub const CONDITIONS: &[&[&str]] = &[
    &["if"],
    &["unless"],
    &["in", "case"],
    &["assuming"],
    &["provided"],
    &["as", "long", "as"],
    &["otherwise"],
];

/// A habit: "I usually pay rent on the 1st".
pub const HABITS: &[&[&str]] = &[
    &["usually"],
    &["always"],
    &["normally"],
    &["typically"],
    &["generally"],
    &["often"],
    &["sometimes"],
    &["tend", "to"],
    &["tends", "to"],
    &["every", "time"],
    &["each", "time"],
    &["whenever"],
    &["most", "days"],
    &["used", "to"],
];

/// A suggestion with a hedge: "we could push it maybe", "perhaps move it".
pub const SUGGESTIONS: &[&[&str]] = &[
    &["we", "could"],
    &["i", "could"],
    &["could", "always"],
    &["we", "might"],
    &["might", "as", "well"],
    &["what", "if"],
];

/// Hedges: a suggestion when they close a clause or stand with a modal ("push it maybe",
/// "maybe we should move it"), an answer on their own ("maybe tomorrow").
pub const HEDGES: &[&str] = &["maybe", "perhaps", "possibly"];

/// A suggestion put as a question ("how about friday?", "why not monday?"): a request.
pub const OFFERS: &[&[&str]] = &[&["how", "about"], &["what", "about"], &["why", "not"]];

/// The verbs of a passive report ("the rent is paid", "it got sent", "the money's been
/// transferred").
pub const PASSIVE_HELPERS: &[&str] = &[
    "is", "are", "was", "were", "been", "got", "gets", "has", "have",
];

/// Sarcasm at the start of a claim ("oh sure, it's done", "yeah right").
pub const SARCASM: &[&[&str]] = &[
    &["oh", "sure"],
    &["yeah", "right"],
    &["yeah", "sure"],
    &["sure", "sure"],
    &["oh", "yeah"],
    &["oh", "totally"],
    &["as", "if"],
    &["in", "your", "dreams"],
];

/// A clause that only denies the one before it ("done? no way", "paid? not really").
pub const DENIALS: &[&[&str]] = &[
    &["no", "way"],
    &["no", "chance"],
    &["not", "really"],
    &["not", "even", "close"],
    &["not", "quite"],
    &["far", "from", "it"],
    &["nope"],
];

/// Laughter after a claim ("it's totally done lol"): the claim is not meant.
pub const LAUGHTER: &[&str] = &["lol", "lmao", "lmfao", "rofl", "haha", "hahaha", "jk", "s"];

pub fn is_subject(word: &str) -> bool {
    PERSON.contains(&word) || TASK.contains(&word) || OTHERS.contains(&word)
}

pub fn is_person(word: &str) -> bool {
    PERSON.contains(&word)
}

pub fn is_task_subject(word: &str) -> bool {
    TASK.contains(&word)
}

pub fn is_other_pronoun(word: &str) -> bool {
    OTHERS.contains(&word)
}

pub fn is_adverb(word: &str) -> bool {
    ADVERBS.contains(&word)
}

pub fn is_helper(word: &str) -> bool {
    HELPERS.contains(&word)
}

pub fn is_intention(word: &str) -> bool {
    INTENTION.contains(&word) || word.ends_with("'ll")
}
