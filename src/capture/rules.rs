//! The capture rules: what a free-text message plainly asks, read without a model.
//!
//! A command counts only at the start of the message (after "please", "hey Donna," and the
//! like), in whole words: "add milk", "todo: call Anna", "new task: renew passport", "remind me
//! to pay rent friday 9am", "remind me friday to pay rent", "don't forget to water the plants".
//! Everything else is not a capture by the rules (DESIGN.md "Free text", step 7): a question
//! ("is the dentist on my list?", "can you remind me to call Alice?"), a negation ("don't put eggs
//! on the list"), a report ("I already sent it", "I added it"), someone else's intention ("my
//! brother will remind me to call"), and a command with nothing to add ("add a task") asks what
//! to add instead. The common questions ("list my tasks", "what's overdue", ...), greetings,
//! thanks and "never mind" are whole-message phrases, so "is the dentist on my list?" is none of
//! them.
//!
//! Pure: no clock, no store. Tested as tables of sentences (`tests/capture_rules.rs`).

use super::sentence::{is_question, squeeze, words, Word};

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
    Nothing,
}

/// The common questions answered from the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    ListTasks,
    Overdue,
    DueToday,
    DueTomorrow,
    DueThisWeek,
    /// "what are you waiting on?": proposals awaiting a yes, questions awaiting an answer,
    /// nudges not answered yet.
    WaitingOn,
}

/// Words that open a message without meaning anything for the rules.
const FILLERS: [&str; 11] = [
    "please", "pls", "plz", "donna", "hey", "hi", "ok", "okay", "oh", "also", "and",
];

/// Capture commands, as word sequences at the start of the message.
const COMMANDS: [&[&str]; 20] = [
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

/// Trailing words that only say where the task goes ("add milk to my list").
const LIST_TAILS: [&[&str]; 10] = [
    &["to", "my", "list"],
    &["to", "the", "list"],
    &["to", "my", "todo", "list"],
    &["to", "my", "to", "do", "list"],
    &["to", "the", "todo", "list"],
    &["to", "my", "tasks"],
    &["to", "my", "task", "list"],
    &["to", "the", "shopping", "list"],
    &["to", "my", "shopping", "list"],
    &["on", "my", "list"],
];

const QUESTIONS: [(Question, &[&str]); 6] = [
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
    if is_question(text, &all) {
        return Reading::Nothing;
    }
    let start = leading_fillers(&all);
    let rest = &all[start..];
    let Some(command) = COMMANDS.iter().find(|command| starts_with(rest, command)) else {
        return Reading::Nothing;
    };
    let after = &rest[command.len()..];
    let body = body_text(text, after);
    if EMPTY_BODIES.contains(&squeeze(&body.to_lowercase()).as_str()) {
        return Reading::BareCapture;
    }
    Reading::Capture { body }
}

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
    None
}

/// How many words at the start are fillers (always leaving at least one word).
fn leading_fillers(all: &[Word]) -> usize {
    let mut start = 0;
    while start + 1 < all.len() && FILLERS.contains(&all[start].text.as_str()) {
        start += 1;
    }
    start
}

fn starts_with(words: &[Word], command: &[&str]) -> bool {
    words.len() >= command.len()
        && words
            .iter()
            .zip(command)
            .all(|(word, expected)| word.text == *expected)
}

/// The text from the first of `after` to the end, without a list tail ("to my list") and
/// without a leading colon or dash.
fn body_text(text: &str, after: &[Word]) -> String {
    let Some(first) = after.first() else {
        return String::new();
    };
    let mut end = text.len();
    for tail in LIST_TAILS {
        // "add to my list" is all tail: nothing to add.
        if after.len() >= tail.len() {
            let from = after.len() - tail.len();
            if starts_with(&after[from..], tail) {
                end = after[from].range.start;
                break;
            }
        }
    }
    let body = &text[first.range.start..end];
    squeeze(body.trim_end_matches(|c: char| c.is_whitespace() || ".!,;".contains(c)))
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
