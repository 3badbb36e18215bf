//! Words that make what follows not so ("not done", "never paid", "didn't send it"), the words
//! that say "not quite" ("almost finished", "half done"), and the words that refuse a repeating
//! thing ("stop sending me ...").

/// Negators. Any word ending in "n't" is one too; these are the others, with the forms people
/// type without the apostrophe.
pub const NEGATORS: &[&str] = &[
    "not", "no", "never", "nor", "neither", "without", "hardly", "cannot", "dont", "didnt",
    "doesnt", "havent", "hasnt", "hadnt", "isnt", "wasnt", "arent", "werent", "wont", "cant",
    "couldnt", "shouldnt", "wouldnt", "aint",
];

/// Qualifiers that say "not (quite)": "almost finished", "half done".
pub const NOT_QUITE: &[&str] = &["almost", "nearly", "half", "partly", "partially", "barely"];

/// Words that refuse something that repeats ("stop sending me my agenda", "cancel the daily
/// reminder").
pub const REFUSALS: &[&str] = &["stop", "stopping", "cancel", "quit", "unsubscribe"];

/// Whether `word` negates what follows it.
pub fn is_negator(word: &str) -> bool {
    word.ends_with("n't") || NEGATORS.contains(&word)
}

/// Whether `word` negates or says "not quite" ("almost", "half").
pub fn negates(word: &str) -> bool {
    is_negator(word) || NOT_QUITE.contains(&word)
}

/// Whether `word` refuses a repeating thing, or negates ("don't", "stop", "never").
pub fn refuses(word: &str) -> bool {
    is_negator(word) || REFUSALS.contains(&word)
}
