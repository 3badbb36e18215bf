//! What closes a conversation: goodbyes ("bye", "see you tomorrow", "talk soon"), the phrases
//! that say nothing more is needed ("that's all", "that's it for today"), and compliments
//! ("you're the best", "you rock", "legend").

/// Words that close a conversation.
pub const GOODBYES: &[&str] = &[
    "bye",
    "goodbye",
    "byebye",
    "byee",
    "night",
    "goodnight",
    "nite",
    "ttyl",
    "later",
    "laters",
    "cya",
    "adios",
    "ciao",
];

/// Phrases that close without thanking.
pub const CLOSING_PHRASES: &[&[&str]] = &[
    &["thats", "all"],
    &["thats", "it"],
    &["nothing", "else"],
    &["all", "good"],
    &["im", "good"],
    &["were", "done"],
    &["im", "done"],
    &["all", "set"],
    &["no", "more"],
    &["that", "will", "do"],
    &["thatll", "do"],
];

/// Phrases that say goodbye ("see you tomorrow", "talk soon", "have a good one").
pub const GOODBYE_PHRASES: &[&[&str]] = &[
    &["see", "you"],
    &["see", "ya"],
    &["see", "u"],
    &["talk", "soon"],
    &["talk", "later"],
    &["speak", "soon"],
    &["catch", "you"],
    &["talk", "to", "you"],
    &["speak", "to", "you"],
    &["take", "care"],
    &["have", "a", "good"],
    &["have", "a", "nice"],
    &["have", "a", "great"],
];

/// Words of praise for Donna ("you're the best", "legend", "you rock").
pub const COMPLIMENTS: &[&str] = &[
    "best",
    "legend",
    "star",
    "rock",
    "rockstar",
    "lifesaver",
    "genius",
    "hero",
    "superstar",
    "champ",
    "gem",
    "angel",
    "brilliant",
    "amazing",
    "awesome",
    "wonderful",
    "lovely",
    "excellent",
    "fantastic",
    "superb",
    "nice",
    "sweet",
    "super",
    "helpful",
    "marvellous",
    "marvelous",
];

pub fn is_goodbye(word: &str) -> bool {
    GOODBYES.contains(&word)
}

pub fn is_compliment(word: &str) -> bool {
    COMPLIMENTS.contains(&word)
}
