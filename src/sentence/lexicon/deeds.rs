//! The done / later / cancel lexicon: what a message may say to ask for each kind of change to
//! a task, in people's words: phrases of base
//! forms (matched by every conjugation), past forms where only a report counts ("sent it" is
//! done, "I'll send it" is not), and gaps for the words people put inside a phrasal verb
//! ("knocked IT out", "called THE TRIP off").
//!
//! Phrase syntax (compiled once): words separated by spaces; `word+` matches only a past form
//! of that base ("pay+" matches "paid", not "pay"); `=word` matches that word exactly, no other
//! form ("=forget it" is not "forgot it"); `*` matches up to [`GAP`] words.
//!
//! Invariant (pure): the lists are data; how they are matched (negation, questions, intention)
//! is `replies::grounding`'s business, not theirs.

use std::sync::OnceLock;

use crate::sentence::Ask;

/// Most words a `*` in a phrase stands for.
pub const GAP: usize = 3;

/// One item of a compiled phrase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// The word itself, or a word with this base ("move" matches "moved", "moving").
    Word(String),
    /// A past form of this base only.
    Past(String),
    /// Exactly this word.
    Exact(String),
    /// Up to [`GAP`] words.
    Gap,
}

pub type Phrase = Vec<Item>;

pub fn compile(phrase: &str) -> Phrase {
    phrase
        .split_whitespace()
        .map(|word| {
            if word == "*" {
                Item::Gap
            } else if let Some(exact) = word.strip_prefix('=') {
                Item::Exact(exact.to_string())
            } else if let Some(base) = word.strip_suffix('+') {
                Item::Past(base.to_string())
            } else {
                Item::Word(word.to_string())
            }
        })
        .collect()
}

/// "Done": reports that it happened.
#[rustfmt::skip]
const DONE: &[&str] = &[
    "done", "all done", "did it", "did that", "did them", "got it done", "got that done",
    "all set", "sorted", "all sorted", "take+ care", "taken care", "deal+ with", "handled",
    "out of the way", "off my plate", "in the bag", "finished", "completed", "complete", "ticked",
    "crossed", "checked off", "that's a wrap", "nailed it", "pay+", "send+", "submit+", "handle+",
    "finish+", "complete+", "fix+", "buy+", "call+", "book+", "renew+", "file+", "return+",
    "deliver+", "email+", "mail+", "post+", "clean+", "ship+", "text+", "message+", "sign+",
    "order+", "upload+", "print+", "wash+", "cook+", "tidy+", "empty+", "fill+", "write+", "ring+",
    "phone+", "settle+", "transfer+", "pack+", "clear+", "nail+", "smash+", "crush+", "finalise+",
    "finalize+", "resolve+", "sort+", "make+", "pick+ * up", "drop+ * off", "hand+ * in",
    "turn+ * in", "knock+ * out", "wrap+ * up", "tick+ * off", "cross+ * off", "check+ * off",
    "get+ * done", "do+", "read+", "reply+", "answer+", "review+", "approve+", "schedule+ * in",
    "water+", "feed+", "walk+", "mow+", "vacuum+", "hoover+", "iron+", "repair+", "install+",
    "update+", "collect+", "visit+", "attend+",
];

/// "Move": another time.
#[rustfmt::skip]
const MOVE: &[&str] = &[
    "move", "push", "postpone", "reschedule", "delay", "shift", "bump", "defer", "punt", "slide",
    "kick * to", "put * off", "push * back", "move * back", "rain check", "raincheck",
    "another day", "another time", "not today", "not this week", "not tonight", "give me until",
    "until", "till", "til", "instead", "later", "how about", "what about", "switch", "change",
    "swap", "let's do", "lets do", "reschedule",
];

/// "Snooze": not now, leave me be for a while.
#[rustfmt::skip]
const SNOOZE: &[&str] = &[
    "snooze", "busy", "not now", "not right now", "later", "in a bit", "a bit", "a while",
    "leave me", "bug me", "ping me", "remind me", "ask me", "nudge me", "hold off", "hold on",
    "meeting", "driving", "one sec", "give me", "mute", "pause", "quiet", "few hours", "can't right now", "cant right now", "can't now", "hour",
    "hours", "minute", "minutes", "min", "mins", "sec", "secs", "not yet", "swamped", "slammed",
    "occupied", "tied up", "in a call", "on a call", "afk", "brb", "hang on", "wait",
];

/// "Cancel": it will not be done.
#[rustfmt::skip]
const CANCEL: &[&str] = &[
    "cancel", "drop it", "drop that", "drop this", "drop the", "drop", "delete", "remove", "scrap",
    "abandon", "bin", "ditch", "trash", "nuke", "kill", "axe", "toss", "chuck", "purge", "erase",
    "get rid", "call * off", "=forget it", "=forget about", "=forget that", "=forget this",
    "never mind", "nevermind", "give up", "gave up", "not doing", "not going to", "won't do",
    "wont do", "won't happen", "not happening", "no longer", "not needed", "don't need",
    "dont need", "doesn't matter", "not relevant", "irrelevant", "moot", "obsolete", "no point",
    "skip it", "skip this", "don't bother", "dont bother", "take * off", "off the list",
    "off my list", "not necessary", "unnecessary", "no need", "fell through", "called off",
    "cancelled", "canceled", "strike", "discard",
];

/// "Rename": the title should say something else.
#[rustfmt::skip]
const RENAME: &[&str] = &[
    "rename", "retitle", "title", "name", "call it", "call this", "call that", "label", "reword",
    "rephrase", "should say", "should read", "should be", "make it say", "make it read",
    "change it to", "change that to", "change this to", "change the", "typo", "spelled",
    "spelling", "spell", "correct", "fix the", "actually", "instead", "update the", "wording",
];

/// "Create": a new task.
#[rustfmt::skip]
const CREATE: &[&str] = &[
    "add", "also", "remind", "new task", "another task", "new one", "new item", "don't forget",
    "dont forget", "remember to", "need to", "needs to", "have to", "has to", "got to", "gotta",
    "todo", "to do", "list", "jot", "note", "capture", "create", "make a task", "stick", "throw",
    "pop", "write * down", "too", "as well", "i should", "i must", "reminder", "put * on",
    "keep track", "on the list", "don't let me forget", "dont let me forget", "set up",
];

/// "Change": priority, domain, description.
#[rustfmt::skip]
const CHANGE: &[&str] = &[
    "priority", "prio", "urgent", "important", "asap", "critical", "high", "low", "medium", "work",
    "personal", "family", "category", "domain", "description", "describe", "note", "notes",
    "details", "detail", "tag", "label", "mark * as", "raise", "lower", "downgrade", "upgrade",
    "priorit", "prioritise", "prioritize", "deprioritise", "deprioritize", "make it", "change",
];

/// The compiled phrases that can ask for `ask`.
pub fn phrases(ask: Ask) -> &'static [Phrase] {
    static COMPILED: OnceLock<Vec<Vec<Phrase>>> = OnceLock::new();
    let all = COMPILED.get_or_init(|| {
        [DONE, MOVE, SNOOZE, CANCEL, RENAME, CREATE, CHANGE]
            .iter()
            .map(|list| list.iter().map(|phrase| compile(phrase)).collect())
            .collect()
    });
    let index = match ask {
        Ask::Done => 0,
        Ask::Move => 1,
        Ask::Snooze => 2,
        Ask::Cancel => 3,
        Ask::Rename => 4,
        Ask::Create => 5,
        Ask::Change => 6,
    };
    all.get(index).map(Vec::as_slice).unwrap_or_default()
}

/// Verbs people open an order with besides the deeds of [`DONE`] ("mark it done", "push the
/// dentist", "bin it", "tell Anna").
#[rustfmt::skip]
const ORDERS: &[&str] = &[
    "mark", "set", "tick", "cross", "check", "close", "finish", "complete", "tell", "let", "give",
    "get", "take", "go", "put", "make", "do", "start", "stop", "keep", "leave", "ask", "ping",
    "move", "push", "postpone", "reschedule", "delay", "shift", "bump", "defer", "switch",
    "change", "swap", "cancel", "drop", "delete", "remove", "scrap", "abandon", "bin", "ditch",
    "trash", "nuke", "kill", "axe", "toss", "erase", "discard", "snooze", "mute", "pause",
    "rename", "retitle", "reword", "rephrase", "add", "remind", "capture", "create", "jot", "note",
    "stick", "throw", "pop", "list", "show", "remember", "forget",
];

/// Whether `word` is the base form of a verb the lexicon knows (its phrases' first words, the
/// verbs people open an order with): "booking" is said as "book", "mark it done" is an order.
pub fn is_known_verb(word: &str) -> bool {
    use std::collections::HashSet;
    static KNOWN: OnceLock<HashSet<String, super::Words>> = OnceLock::new();
    KNOWN
        .get_or_init(|| {
            let mut known: HashSet<String, super::Words> =
                ORDERS.iter().map(|verb| verb.to_string()).collect();
            for phrase in DONE {
                let first = phrase.split(' ').next().unwrap_or_default();
                if let Some(base) = first.strip_suffix('+') {
                    known.insert(base.to_string());
                }
            }
            known
        })
        .contains(word)
}

/// Past forms that do not report the task done ("I moved it", "forgot", "I was stressed").
#[rustfmt::skip]
pub const NOT_COMPLETION: &[&str] = &[
    "move", "push", "postpone", "reschedule", "delay", "shift", "bump", "defer", "snooze",
    "cancel", "drop", "delete", "remove", "scrap", "forget", "miss", "lose", "start", "begin",
    "try", "attempt", "skip", "plan", "schedule", "need", "want", "hope", "mean", "intend", "wish",
    "decide", "ask", "wonder", "think", "say", "tell", "hear", "feel", "guess", "suppose",
    "expect", "look", "seem", "wait", "get", "leave", "come", "know", "realize", "realise",
    "notice", "remember", "remind", "worry", "stress", "tire", "bore", "confuse", "overwhelm",
    "exhaust", "annoy", "frustrate", "marry", "use", "block", "break", "fail", "let", "set", "put",
    "mention", "add", "rename", "stick", "struggle", "stall", "stuck", "swamp", "slam", "occupy",
    "tie", "bury", "crash", "burn", "delay", "bin", "ditch", "axe", "trash", "abandon", "postpone",
    "like", "love", "hate", "prefer", "agree", "promise", "offer", "invite", "expect", "assume",
    "plan", "prepare", "arrange", "book", "happen",
];

/// Words after which a past form describes a state or a feeling, not a deed ("I'm so
/// stressed", "it got delayed", "feeling overwhelmed").
#[rustfmt::skip]
pub const STATE_BEFORE: &[&str] = &[
    "am", "i'm", "im", "is", "it's", "its", "are", "we're", "you're", "they're", "was", "were",
    "be", "been", "being", "feel", "feeling", "felt", "so", "very", "really", "too", "pretty",
    "quite", "super", "get", "got", "getting", "seem", "seems", "look", "looks", "kinda", "kind",
    "bit", "totally", "extremely",
];

/// Phrases that look like an ask but are not ("dropped it off" is no cancel, "killing it" is
/// praise, "took the bins out" is no binning): a match at the same word is void.
pub const BLOCKERS: &[(Ask, &str)] = &[
    (Ask::Cancel, "drop * off"),
    (Ask::Cancel, "drop by"),
    (Ask::Cancel, "drop in"),
    (Ask::Cancel, "drop round"),
    (Ask::Cancel, "drop over"),
    (Ask::Cancel, "killing it"),
    (Ask::Cancel, "killed it"),
    (Ask::Cancel, "kill time"),
    (Ask::Cancel, "kill me"),
    (Ask::Cancel, "bin day"),
    (Ask::Cancel, "bin bag"),
    (Ask::Cancel, "bin out"),
    (Ask::Cancel, "bin * out"),
    (Ask::Done, "done with"),
    (Ask::Done, "done by"),
    (Ask::Done, "done before"),
    (Ask::Done, "done until"),
    (Ask::Done, "finished by"),
    (Ask::Done, "completed by"),
];

/// Objects that follow a past form reporting a deed ("sent IT", "cleaned THE kitchen").
#[rustfmt::skip]
pub const OBJECTS: &[&str] = &[
    "it", "them", "that", "this", "those", "these", "the", "my", "our", "her", "his", "their",
    "everything", "all", "both", "a", "an", "some", "off", "out", "up", "in",
];
