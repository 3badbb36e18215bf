//! Commands in people's words, each a list of phrases read at the start of a message's core:
//! capture commands ("remind me", "don't forget to", "add a task"), "never mind", and the
//! openings of a nudge reply that ask to be asked again at a time ("remind me", "I'll do it",
//! "how about").

/// Capture commands, as word sequences at the start of the core.
pub const CAPTURE_COMMANDS: [&[&str]; 25] = [
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

/// "Never mind": drops a pending question, said as a whole message.
pub const NEVER_MIND: [&str; 9] = [
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

/// Openings that ask to be asked again, or say when it will be done: what follows is the time.
pub const ASK_AGAIN_AT: &[&[&str]] = &[
    &["remind", "me", "again"],
    &["remind", "me"],
    &["ask", "me", "again"],
    &["ask", "me"],
    &["ping", "me"],
    &["nudge", "me"],
    &["bug", "me"],
    &["check", "with", "me"],
    &["check", "back"],
    &["try", "me", "again"],
    &["try", "me"],
    &["i'll", "do", "it"],
    &["ill", "do", "it"],
    &["i", "will", "do", "it"],
    &["i'll", "do", "that"],
    &["i'll", "get", "to", "it"],
    &["i'll", "get", "it", "done"],
    &["i", "can", "do", "it"],
    &["let's", "do", "it"],
    &["lets", "do", "it"],
    &["let's", "do"],
    &["lets", "do"],
    &["do", "it"],
    &["make", "it"],
    &["let's", "say"],
    &["lets", "say"],
    &["how", "about"],
    &["what", "about"],
    &["maybe"],
];
