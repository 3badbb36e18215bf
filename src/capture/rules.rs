//! The capture rules: what a free-text message plainly asks, read without a model.
//!
//! A command counts only at the start of the message (after "please", "hey Donna," and the
//! like), in whole words: "add milk", "todo: call Anna", "new task: renew passport", "remind me
//! to pay rent friday 9am", "remind me friday to pay rent", "don't forget to water the plants".
//! Everything else is not a capture by the rules (docs/contract.md "Free text", step 7): a question
//! ("is the dentist on my list?", "can you remind me to call Alice?"), a negation ("don't put eggs
//! on the list"), a report ("I already sent it", "I added it"), someone else's intention ("my
//! brother will remind me to call"), and a command with nothing to add ("add a task") asks what
//! to add instead. The common questions ("list my tasks", "what's overdue", ...), greetings,
//! thanks, "never mind" and "more" (the next page of the last list) are whole-message phrases,
//! so "is the dentist on my list?" is none of them, nor is "more milk" or "next friday".
//!
//! Pure: no clock, no store. Tested as tables of sentences (`tests/capture_rules.rs`).

use super::command_words::{
    body_text, leading_fillers, note_prefix, polite_opening, put_on_the_list, starts_with,
};
pub use super::question::Question;
use super::sentence::{is_question, squeeze, words, Word};
use super::{asked, closings};

/// What the rules make of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// An explicit capture command; `body` is the rest of the message in the person's own
    /// spelling (it may still hold a time).
    Capture {
        body: String,
    },
    /// A capture command with nothing to capture ("add a task", "remind me").
    BareCapture,
    Question(Question),
    Greeting,
    Thanks,
    /// "never mind", "cancel", "forget it": drops a pending question.
    NeverMind,
    /// "more", "next", "show more", "continue": the next page of the chat's last list.
    More,
    Nothing,
}

/// Capture commands, as word sequences at the start of the message.
const COMMANDS: [&[&str]; 25] = [
    &["don't", "let", "me", "forget", "to"],
    &["do", "not", "let", "me", "forget", "to"],
    &["don't", "forget", "to"],
    &["dont", "forget", "to"],
    &["do", "not", "forget", "to"],
    &["don't", "forget"],
    &["dont", "forget"],
    &["remind", "me"],
    &["add", "a", "task", "to"],
    &["add", "a", "task"],
    &["add", "task"],
    &["add", "a", "reminder", "to"],
    &["add", "a", "reminder"],
    &["add"],
    &["todo"],
    &["new", "task"],
    &["new", "todo"],
    &["new", "reminder"],
    &["create", "a", "task"],
    &["create", "task"],
    &["remember", "to"],
    &["note", "to", "self"],
    &["jot", "down"],
    &["write", "down"],
    &["note", "down"],
];

/// A capture body that names nothing to capture.
const EMPTY_BODIES: [&str; 14] = [
    "",
    "it",
    "this",
    "that",
    "them",
    "these",
    "those",
    "something",
    "a task",
    "a reminder",
    "all",
    "all of them",
    "everything",
    "stuff",
];

const QUESTIONS: [(Question, &[&str]); 7] = [
    (
        Question::ListTasks,
        &[
            "list my tasks",
            "list tasks",
            "list",
            "list my todos",
            "show my tasks",
            "show tasks",
            "show my list",
            "show me my tasks",
            "my tasks",
            "tasks",
            "my list",
            "my todo list",
            "todo list",
            "what are my tasks",
            "whats on my list",
            "what is on my list",
            "whats on my plate",
            "what do i have to do",
            "what do i need to do",
            "what tasks do i have",
        ],
    ),
    (
        Question::Overdue,
        &[
            "whats overdue",
            "what is overdue",
            "overdue",
            "anything overdue",
            "is anything overdue",
            "what am i late on",
            "show overdue",
            "list overdue",
            "overdue tasks",
            "what have i missed",
        ],
    ),
    (
        Question::DueToday,
        &[
            "whats due today",
            "what is due today",
            "due today",
            "what do i have today",
            "whats on today",
            "what is on today",
            "todays tasks",
            "what do i need to do today",
            "anything due today",
        ],
    ),
    (
        Question::DueTomorrow,
        &[
            "whats due tomorrow",
            "what is due tomorrow",
            "due tomorrow",
            "what do i have tomorrow",
            "whats on tomorrow",
            "what is on tomorrow",
            "anything due tomorrow",
        ],
    ),
    (
        Question::DueThisWeek,
        &[
            "whats due this week",
            "what is due this week",
            "due this week",
            "what do i have this week",
            "whats on this week",
            "what is on this week",
            "anything due this week",
        ],
    ),
    (
        Question::WaitingOn,
        &[
            "what are you waiting on",
            "what are you waiting for",
            "what are you waiting on me for",
            "whats pending",
            "what is pending",
            "anything pending",
            "pending",
        ],
    ),
    (
        Question::Agenda,
        &[
            "agenda",
            "my agenda",
            "send me my agenda",
            "send my agenda",
            "show me my agenda",
            "show my agenda",
            "give me my agenda",
            "whats my agenda",
            "what is my agenda",
            "whats on my agenda",
            "what is on my agenda",
            "whats on my agenda today",
            "my agenda for today",
            "my daily agenda",
            "send me my daily agenda",
            "give me my daily agenda",
            "show me my daily agenda",
            "agenda for today",
            "todays agenda",
            "my day",
            "digest",
            "my digest",
            "send me my digest",
            "send me a digest",
            "give me a digest",
            "summary",
            "send me a summary",
            "give me a summary",
            "briefing",
            "my briefing",
        ],
    ),
];

/// "Show me the next page", said as a whole message.
const MORE: [&str; 19] = [
    "more",
    "next",
    "show more",
    "show me more",
    "more tasks",
    "show more tasks",
    "next page",
    "next one",
    "next ones",
    "continue",
    "go on",
    "keep going",
    "the rest",
    "rest",
    "show the rest",
    "show me the rest",
    "and the rest",
    "next 20",
    "show next",
];

const GREETINGS: [&str; 12] = [
    "hi",
    "hello",
    "hey",
    "hiya",
    "yo",
    "good morning",
    "good afternoon",
    "good evening",
    "morning",
    "hi there",
    "hello there",
    "hey there",
];

const THANKS: [&str; 9] = [
    "thanks",
    "thank you",
    "thx",
    "ty",
    "cheers",
    "thanks a lot",
    "thank you so much",
    "many thanks",
    "great thanks",
];

const NEVER_MIND: [&str; 9] = [
    "never mind",
    "nevermind",
    "nvm",
    "cancel",
    "cancel that",
    "forget it",
    "forget about it",
    "stop",
    "drop it",
];

/// Reads a free-text message by the rules.
pub fn read(text: &str) -> Reading {
    let all = words(text);
    let phrase = whole_phrase(&all);
    if let Some(reading) = fixed_phrase(&phrase) {
        return reading;
    }
    let plain: Vec<String> = all.iter().map(|w| w.text.replace('\'', "")).collect();
    let asks = is_question(text, &all);
    if let Some(question) = asked::question(&plain, asks) {
        return Reading::Question(question);
    }
    match closings::read(&plain) {
        Some(closings::Kind::Thanks) => return Reading::Thanks,
        Some(closings::Kind::Greeting) => return Reading::Greeting,
        None => {}
    }
    // "can you remind me to ...?", "could you please add ...": a polite request, not a question.
    let polite = polite_opening(&all);
    if asks && polite == 0 {
        return Reading::Nothing;
    }
    let start = polite + leading_fillers(&all[polite..]);
    let rest = &all[start..];
    if let Some(body) = put_on_the_list(text, rest) {
        return capture_of(body);
    }
    if let Some(body) = note_prefix(text, rest) {
        return capture_of(body);
    }
    let Some(command) = COMMANDS.iter().find(|command| starts_with(rest, command)) else {
        return Reading::Nothing;
    };
    let after = &rest[command.len()..];
    // "remind me what we said", "remind me when the dentist is": a question, never a task.
    if command == &["remind", "me"].as_slice()
        && after
            .first()
            .is_some_and(|word| ASKING_WORDS.contains(&word.text.as_str()))
    {
        return Reading::Nothing;
    }
    capture_of(body_text(text, after))
}

/// A capture of `body`, or a command with nothing to capture.
fn capture_of(body: String) -> Reading {
    if EMPTY_BODIES.contains(&squeeze(&body.to_lowercase()).as_str()) {
        return Reading::BareCapture;
    }
    Reading::Capture { body }
}

/// Words after "remind me" that make it a question about something, not a task.
const ASKING_WORDS: &[&str] = &[
    "what", "what's", "whats", "when", "where", "who", "whom", "whose", "why", "how", "which",
    "if", "whether", "about",
];

/// The message as one phrase for the fixed lists: its words without "donna", "please" and the
/// like at either end, apostrophes dropped ("what's" -> "whats").
fn whole_phrase(all: &[Word]) -> String {
    let mut words: Vec<String> = all.iter().map(|w| w.text.replace('\'', "")).collect();
    while words.len() > 1 && matches!(words[0].as_str(), "donna" | "please" | "so" | "ok") {
        words.remove(0);
    }
    while words.len() > 1
        && matches!(
            words.last().map(String::as_str),
            Some("donna" | "please" | "again")
        )
    {
        words.pop();
    }
    words.join(" ")
}

fn fixed_phrase(phrase: &str) -> Option<Reading> {
    for (question, phrases) in QUESTIONS {
        if phrases.contains(&phrase) {
            return Some(Reading::Question(question));
        }
    }
    if GREETINGS.contains(&phrase) {
        return Some(Reading::Greeting);
    }
    if THANKS.contains(&phrase) {
        return Some(Reading::Thanks);
    }
    if NEVER_MIND.contains(&phrase) {
        return Some(Reading::NeverMind);
    }
    if MORE.contains(&phrase) {
        return Some(Reading::More);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_keeps_the_persons_spelling() {
        assert_eq!(
            read("Please add Call Anna about the Lease to my list."),
            Reading::Capture {
                body: "Call Anna about the Lease".into()
            }
        );
    }
}
