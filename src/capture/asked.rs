//! The common questions in people's words: "what's on my plate today?", "anything I'm behind
//! on?", "what have I got on tomorrow", "remind me what's due this week", "what's left?", "show
//! me everything", "what do you need from me?". Read as a whole message: after the polite
//! openings ("can you", "tell me", "remind me") every word must be one a question about the
//! person's tasks is made of, and one of them says which question it is. So "is the dentist on
//! my list?" or "what's the weather tomorrow?" hold a word outside that vocabulary and are not
//! read here (the model, or an honest answer, takes them).
//!
//! Invariant (pure): a message this reads is a question and never a capture; which question is
//! decided by the most specific topic word (waiting > overdue > today > tomorrow > this week >
//! the list).

use super::question::Question;
use crate::sentence::lexicon::questions;

/// Openings that only make a question polite ("tell me ...", "remind me what ..."), besides the
/// wrapper the sentence already set aside ("can you", "please", "hey donna").
const OPENINGS: &[&[&str]] = &[
    &["so"],
    &["quick"],
    &["question"],
    &["tell", "me"],
    &["show", "me"],
    &["give", "me"],
    &["let", "me", "know"],
    &["remind", "me"],
    &["i", "want", "to", "know"],
    &["i", "wonder"],
    &["just"],
    &["and"],
];

/// Words that may close a question without changing it.
const CLOSINGS: &[&str] = &["please", "donna", "again", "thanks", "now"];

/// Which question a topic word asks, most specific first.
const TOPICS: &[(Question, &[&str])] = &[
    (
        Question::WaitingOn,
        &["waiting", "pending", "owe", "awaiting"],
    ),
    (
        Question::Overdue,
        &[
            "overdue",
            "late",
            "behind",
            "missed",
            "miss",
            "forgot",
            "forgotten",
            "slipped",
            "lapsed",
        ],
    ),
    (Question::DueToday, &["today", "todays", "tonight"]),
    (Question::DueTomorrow, &["tomorrow", "tomorrows"]),
    (Question::DueThisWeek, &["week", "weeks", "weekend", "days"]),
    (
        Question::ListTasks,
        &[
            "tasks",
            "task",
            "todos",
            "todo",
            "list",
            "plate",
            "agenda",
            "left",
            "remaining",
            "outstanding",
            "open",
            "unfinished",
            "upcoming",
            "coming",
            "next",
            "everything",
            "reminders",
            "deadlines",
            "due",
            "schedule",
            "priorities",
            "focus",
        ],
    ),
];

/// Everything else a question about one's tasks is made of (besides the question words and
/// the verbs that open a question: `sentence::lexicon::questions`).
#[rustfmt::skip]
const GLUE: &[&str] = &[
    "got", "i", "im", "ive", "me", "my", "the", "a", "an", "any", "anything", "there", "theres",
    "still", "up", "on", "in", "for", "at", "to", "of", "all", "else", "this", "that", "rest",
    "things", "stuff", "you", "need", "needs", "from", "show", "see", "view", "many", "much",
    "work", "focus", "be", "doing", "get", "gotta", "must", "few", "couple", "soon", "right",
    "current", "currently", "first", "lined", "planned", "scheduled", "going", "looking", "look",
    "like", "day", "coming", "we", "our", "it", "its", "list", "nothing", "something", "with",
    "about", "by", "before", "end", "far", "yet", "so", "again", "left", "now",
];

/// The question a message asks about the person's tasks, if it is one (see the module header).
/// `words` are the words of the message's core, lower case, apostrophes dropped; `asks` says
/// whether the message reads as a question (a question mark, or a question word first);
/// `polite`, whether a wrapper ("can you", "hey donna") opened it.
pub fn question(words: &[String], asks: bool, polite: bool) -> Option<Question> {
    let mut rest: &[String] = words;
    while let Some(opening) = OPENINGS.iter().find(|opening| starts_with(rest, opening)) {
        rest = &rest[opening.len()..];
    }
    while let Some((last, before)) = rest.split_last() {
        if !CLOSINGS.contains(&last.as_str()) || before.is_empty() {
            break;
        }
        rest = before;
    }
    let opens_like_a_question = rest.first().is_some_and(|first| {
        questions::is_question_word(first)
            || questions::is_auxiliary(first)
            || matches!(
                first.as_str(),
                "any" | "anything" | "show" | "list" | "tasks" | "my"
            )
    });
    let polite = polite || rest.len() < words.len();
    if rest.is_empty() || (rest.len() < 2 && !polite) || !(asks || opens_like_a_question || polite)
    {
        return None;
    }
    let known = |word: &String| {
        GLUE.contains(&word.as_str())
            || questions::is_question_word(word)
            || questions::is_auxiliary(word)
            || TOPICS
                .iter()
                .any(|(_, topics)| topics.contains(&word.as_str()))
    };
    if !rest.iter().all(known) {
        return None;
    }
    // "what a week", "what a day": an exclamation, not a question.
    if matches!(rest, [what, a, ..] if what == "what" && matches!(a.as_str(), "a" | "an")) {
        return None;
    }
    let about_donna = rest.iter().any(|word| word == "you" || word == "u");
    if about_donna && rest.iter().any(|word| word == "need" || word == "want") {
        // "what do you need from me?"
        return Some(Question::WaitingOn);
    }
    let question = TOPICS.iter().find_map(|(question, topics)| {
        rest.iter()
            .any(|word| topics.contains(&word.as_str()))
            .then_some(*question)
    })?;
    // "how are you doing today?" is small talk; "how many tasks are left?" is not. Only
    // "what do you need from me?" asks about Donna.
    let how_much = match rest.first().map(String::as_str) {
        Some("how") => rest
            .get(1)
            .is_some_and(|second| second == "many" || second == "much"),
        _ => true,
    };
    (how_much && (!about_donna || question == Question::WaitingOn)).then_some(question)
}

fn starts_with(words: &[String], opening: &[&str]) -> bool {
    words.len() > opening.len()
        && words
            .iter()
            .zip(opening)
            .all(|(word, expected)| word == expected)
}
