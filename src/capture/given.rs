//! Which fields a model read from a capture the person's own words give: a domain or a
//! priority their message does not mention is the model's guess (a learned preference may
//! replace it, `capture::preferences`).
//!
//! Invariant (pure): only the person's words decide; the model's fields are data.

/// Words that show the person gave a priority themselves.
const PRIORITY_WORDS: [&str; 7] = [
    "priority",
    "urgent",
    "urgently",
    "asap",
    "important",
    "critical",
    "p1",
];

/// The domain the model gave, when the person's own words (`said`) mention it; else None.
pub fn domain(said: &[String], domain: Option<&str>) -> Option<String> {
    domain
        .filter(|domain| said.iter().any(|word| word == domain))
        .map(str::to_string)
}

/// The priority the model gave, when the person's own words (`said`) speak of one; else None.
pub fn priority(said: &[String], priority: Option<i64>) -> Option<i64> {
    priority.filter(|_| {
        said.iter()
            .any(|word| PRIORITY_WORDS.contains(&word.as_str()))
    })
}
