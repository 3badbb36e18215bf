//! The words people use to say how long a task takes ("it takes about an hour", "should take
//! 20 minutes", "that's a 2 hour job"): who takes it, the helpers and verbs of taking, the
//! hedges before an amount, the nouns of a job, and what may follow the amount.
//!
//! Read by `tasks::estimate_said`; the amount itself is the time reader's
//! (`tasks::when::amounts_of_time`).

/// What a length is said of: the task ("it", "this one"). Someone else ("the meeting", "I")
/// is no subject of a task's length.
pub const SUBJECTS: &[&[&str]] = &[
    &["it"],
    &["this"],
    &["that"],
    &["this", "one"],
    &["that", "one"],
];

/// A subject's contractions with a helper ("it's", "it'll"): the ending, and whether it is a
/// form of "be" (so "it's an hour" says the length) or a modal ("it'll take").
pub const CONTRACTIONS: &[(&str, bool)] = &[
    ("'s", true),
    ("s", true),
    ("'ll", false),
    ("ll", false),
    ("'d", false),
    ("d", false),
];

/// Forms of "be" that say a length of their subject ("it is an hour", "should be 20 min").
pub const BE: &[&str] = &["is", "be", "'s"];

/// Helpers and adverbs between a subject and its verb ("it should probably take", "it'll
/// usually take", "it's gonna take").
pub const HELPERS: &[&[&str]] = &[
    &["should"],
    &["will"],
    &["would"],
    &["might"],
    &["may"],
    &["could"],
    &["can"],
    &["gonna"],
    &["going", "to"],
    &["usually"],
    &["normally"],
    &["typically"],
    &["generally"],
    &["probably"],
    &["prob"],
    &["likely"],
    &["only"],
    &["just"],
    &["realistically"],
    &["honestly"],
    &["really"],
    &["always"],
];

/// Verbs that say a length, and whether they need a subject or a helper before them: "takes
/// an hour" says it alone, "take an hour" is an order ("take an hour off") unless "it should"
/// or "will" comes first; "taking" needs "be" ("it's taking an hour").
pub const VERBS: &[(&str, Taking)] = &[
    ("takes", Taking::Alone),
    ("needs", Taking::Alone),
    ("lasts", Taking::Alone),
    ("requires", Taking::Alone),
    ("take", Taking::AfterAHelper),
    ("need", Taking::AfterAHelper),
    ("last", Taking::AfterAHelper),
    ("require", Taking::AfterAHelper),
    ("taking", Taking::AfterBe),
];

/// What a verb of [`VERBS`] needs before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Taking {
    Alone,
    AfterAHelper,
    AfterBe,
}

/// Whom a length is taken from, right after the verb ("it takes me an hour").
pub const TAKERS: &[&str] = &["me", "us", "you", "u"];

/// Words of approximation before an amount or a time ("about an hour", "in like 20 mins", "at
/// around 5pm"): the amount or time is still the one meant. The time reader's too
/// (`tasks::when::words`).
pub const APPROXIMATIONS: [&str; 8] = [
    "about",
    "around",
    "roughly",
    "approximately",
    "approx",
    "like",
    "circa",
    "maybe",
];

/// Hedges before a task's length besides the [`APPROXIMATIONS`] ("max 2 hours", "just 20 min",
/// "a good hour").
pub const ROUGHLY: &[&[&str]] = &[
    &["probably"],
    &["prob"],
    &["just"],
    &["only"],
    &["max"],
    &["under"],
    &["at", "most"],
    &["a", "good"],
    &["a", "solid"],
];

/// The article before "N job" ("a 2 hour job").
pub const ARTICLES: &[&str] = &["a", "an"];

/// Nouns that make an amount before them a job's length ("a 2 hour job", "a 20 minute thing").
pub const JOBS: &[&str] = &[
    "job", "task", "thing", "one", "errand", "chore", "session", "jobby", "gig",
];

/// What may follow a length and leave it the task's ("about an hour or so", "20 min tops",
/// "an hour of work", "a 2 hour job I think"). Anything else ("an hour each way", "an hour to
/// get there") leaves it alone.
pub const AFTER_A_LENGTH: &[&[&str]] = &[
    &["or", "so"],
    &["or", "less"],
    &["tops"],
    &["max"],
    &["maybe"],
    &["probably"],
    &["ish"],
    &["roughly"],
    &["total"],
    &["in", "total"],
    &["at", "most"],
    &["give", "or", "take"],
    &["of", "work"],
    &["to", "do"],
    &["to", "finish"],
    &["to", "get", "done"],
    &["i", "think"],
    &["i", "guess"],
    &["i", "reckon"],
    &["i'd", "say"],
    &["i", "believe"],
    &["i", "suppose"],
    &["or", "two"],
];

/// Lead-ins before the subject that leave the length the person's estimate ("I think it takes
/// an hour", "realistically, it's a 2 hour job").
pub const LEAD_INS: &[&[&str]] = &[
    &["i", "think"],
    &["i", "guess"],
    &["i", "reckon"],
    &["i'd", "say"],
    &["id", "say"],
    &["i", "believe"],
    &["i", "suppose"],
    &["probably"],
    &["prob"],
    &["realistically"],
    &["honestly"],
    &["tbh"],
    &["hmm"],
    &["hm"],
    &["um"],
    &["uh"],
];

/// How many words a subject of [`SUBJECTS`] opening `words` takes.
pub fn subject_at(words: &[&str]) -> Option<usize> {
    super::longest_opening(words, SUBJECTS)
}

/// A subject contracted with a helper ("it's", "that'll"): whether the helper is "be".
pub fn contracted_subject(word: &str) -> Option<bool> {
    CONTRACTIONS.iter().find_map(|(ending, be)| {
        let stem = word.strip_suffix(ending)?;
        SUBJECTS.contains(&&[stem][..]).then_some(*be)
    })
}

/// What a length verb needs before it; None for any other word.
pub fn taking(word: &str) -> Option<Taking> {
    VERBS
        .iter()
        .find(|(verb, _)| *verb == word)
        .map(|(_, taking)| *taking)
}

pub fn is_be(word: &str) -> bool {
    BE.contains(&word)
}

pub fn is_taker(word: &str) -> bool {
    TAKERS.contains(&word)
}

pub fn is_article(word: &str) -> bool {
    ARTICLES.contains(&word)
}

pub fn is_job(word: &str) -> bool {
    JOBS.contains(&word)
}
