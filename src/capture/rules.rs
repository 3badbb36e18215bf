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
//! A question about one task's time ("when's the passport renewal?", "what time is the school
//! run?") is read here too, naming the task in the person's words; "remind me about X <time>" is
//! a capture of X.
//!
//! Every rule reads the message's one reading (`crate::sentence`): its core, the wrapper of
//! phatic words set aside, so "hey donna, list my tasks please" is "list my tasks".
//!
//! Pure: no clock, no store. Tested as tables of sentences (`tests/it/free_text_words.rs`).

use super::command_words::{body_text, note_prefix, put_on_the_list};
pub use super::question::Question;
use super::{asked, closings};
use crate::sentence::lexicon::commands::{CAPTURE_COMMANDS, NEVER_MIND};
use crate::sentence::lexicon::{self, courtesy, deeds, questions};
use crate::sentence::tokens::squeeze;
use crate::sentence::Sentence;

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
    /// "when's the passport renewal?", "what time is the school run?": the time of the task the
    /// words name (`reference`, as written).
    TaskTime {
        reference: String,
    },
    Nothing,
}

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

/// Reads a free-text message by the rules.
pub fn read(said: &Sentence) -> Reading {
    let all: Vec<&str> = said.words().collect();
    let core = said.core();
    let plain_core: Vec<String> = all[core.clone()]
        .iter()
        .map(|word| word.replace('\'', ""))
        .collect();
    if let Some(reading) = fixed_phrase(&whole_phrase(&plain_core)) {
        return reading;
    }
    let plain: Vec<String> = all.iter().map(|word| word.replace('\'', "")).collect();
    let lead = &all[..core.start];
    // "can you remind me to ...?", "could you please add ...": a polite request, not a question.
    let polite = (0..lead.len())
        .any(|at| lexicon::longest_opening(&lead[at..], courtesy::POLITE_OPENERS).is_some());
    let first = all.iter().position(|word| !courtesy::is_phatic(word));
    let asks = said.text().trim_end().ends_with('?')
        || first.is_some_and(|at| {
            questions::opens_question(all[at], all.get(at + 1).copied().unwrap_or_default())
        });
    if let Some(question) = asked::question(&plain_core, asks, core.start > 0) {
        return Reading::Question(question);
    }
    match closings::read(&plain) {
        Some(closings::Kind::Thanks) => return Reading::Thanks,
        Some(closings::Kind::Greeting) => return Reading::Greeting,
        None => {}
    }
    if let Some(reference) = task_time(said, &plain_core) {
        return Reading::TaskTime { reference };
    }
    if asks && !polite {
        return Reading::Nothing;
    }
    let rest = &all[core.clone()];
    if let Some(body) = put_on_the_list(said, core.start) {
        return capture_of(body);
    }
    if let Some(body) = note_prefix(said, core.start) {
        return capture_of(body);
    }
    let Some(command) = CAPTURE_COMMANDS
        .iter()
        .find(|command| lexicon::starts_with(rest, command))
    else {
        return Reading::Nothing;
    };
    let after = core.start + command.len();
    // "remind me what we said", "remind me when the dentist is": a question, never a task;
    // "remind me about the dentist at 3pm" is a capture of the dentist, at 3pm.
    if command == &["remind", "me"].as_slice() {
        let next = all.get(after).copied().unwrap_or_default();
        if next == "about" && after + 1 < core.end {
            let body = body_text(said, after + 1);
            if !crate::tasks::when::time_words(&body).is_empty() {
                return capture_of(with_base_verb(&body));
            }
            return Reading::Nothing;
        }
        if questions::is_question_word(next) || ASKING_WORDS.contains(&next) {
            return Reading::Nothing;
        }
    }
    capture_of(body_text(said, after))
}

/// "when's the passport renewal?", "what time is the school run", "when is my haircut due":
/// the words that name the task, as written. Not "what time is it" (no task named).
fn task_time(said: &Sentence, plain: &[String]) -> Option<String> {
    const OPENINGS: &[&[&str]] = &[
        &["when", "is", "my"],
        &["when", "is", "the"],
        &["when", "is"],
        &["whens", "my"],
        &["whens", "the"],
        &["whens"],
        &["what", "time", "is", "my"],
        &["what", "time", "is", "the"],
        &["what", "time", "is"],
        &["what", "times", "my"],
        &["what", "times", "the"],
        &["what", "times"],
        &["what", "day", "is", "my"],
        &["what", "day", "is", "the"],
        &["what", "day", "is"],
        &["when", "do", "i", "have", "my"],
        &["when", "do", "i", "have", "the"],
        &["when", "do", "i", "have"],
    ];
    const TAILS: &[&str] = &[
        "due",
        "happening",
        "scheduled",
        "set",
        "for",
        "again",
        "on",
        "at",
        "planned",
        "today",
    ];
    const NOT_A_TASK: &[&str] = &[
        "it",
        "this",
        "that",
        "now",
        "today",
        "tomorrow",
        "tonight",
        "there",
        "everything",
        "anything",
        "something",
        "lunch",
        "dinner",
    ];
    let opening = lexicon::longest_opening(plain, OPENINGS)?;
    let mut end = plain.len();
    while end > opening && TAILS.contains(&plain[end - 1].as_str()) {
        end -= 1;
    }
    let named = &plain[opening..end];
    if named.is_empty() || named.iter().all(|word| NOT_A_TASK.contains(&word.as_str())) {
        return None;
    }
    let core = said.core();
    let (first, last) = (
        said.word_at(core.start + opening),
        said.word_at(core.start + end - 1),
    );
    said.text().get(first.start..last.end).map(str::to_string)
}

/// "booking the hotel" -> "book the hotel": a gerund first is said as its verb, as "remind me
/// to book the hotel" would be.
fn with_base_verb(body: &str) -> String {
    let Some((first, rest)) = body.split_once(' ') else {
        return body.to_string();
    };
    let lower = first.to_lowercase();
    let Some(stem) = lower.strip_suffix("ing") else {
        return body.to_string();
    };
    let candidates = crate::sentence::lemma::bases(&lower);
    let base = candidates
        .iter()
        .skip(1)
        .find(|base| deeds::is_known_verb(base))
        .cloned()
        .or_else(|| (stem.len() >= 3).then(|| stem.to_string()));
    match base {
        Some(base) => format!("{base} {rest}"),
        None => body.to_string(),
    }
}

/// A capture of `body`, or a command with nothing to capture.
fn capture_of(body: String) -> Reading {
    if EMPTY_BODIES.contains(&squeeze(&body.to_lowercase()).as_str()) {
        return Reading::BareCapture;
    }
    Reading::Capture { body }
}

/// Words after "remind me" (besides the question words) that make it a question about
/// something, not a task.
const ASKING_WORDS: &[&str] = &["if", "whether", "about"];

/// The core as one phrase for the fixed lists (the wrapper of "donna", "please" and the like
/// already set aside), without a leading "so" or a trailing "again", apostrophes dropped
/// ("what's" -> "whats").
fn whole_phrase(core: &[String]) -> String {
    let mut words: &[String] = core;
    while words.len() > 1 && courtesy::is_soft_phatic(&words[0]) {
        words = &words[1..];
    }
    while words.len() > 1 && words.last().is_some_and(|last| last == "again") {
        words = &words[..words.len() - 1];
    }
    words.join(" ")
}

fn fixed_phrase(phrase: &str) -> Option<Reading> {
    for (question, phrases) in QUESTIONS {
        if phrases.contains(&phrase) {
            return Some(Reading::Question(question));
        }
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
            read(&Sentence::read(
                "Please add Call Anna about the Lease to my list."
            )),
            Reading::Capture {
                body: "Call Anna about the Lease".into()
            }
        );
    }
}
