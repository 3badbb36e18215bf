//! A sentence's clauses (split at `, . ; : ! ?` and line breaks) and what each one is: its mood
//! (a question, a request, an intention, a report, a closing, a statement), its markers (a wish,
//! a condition, a habit, a suggestion, sarcasm, a contrast that denies the clause before it), who
//! it is about, and which of its words a negator cancels.
//!
//! Rules (pure):
//! - A clause that ends in "?" asks something, unless it is a polite request ("can you move
//!   it?", "could you please ...", "would you mind ...") or a suggestion ("how about friday?").
//!   A clause that opens with a question word followed by a verb ("what's left", "when is it
//!   due") or with a verb before its subject ("is it done", "did you move it") asks something
//!   too; "did it (this morning)" is a report and "do it" an order.
//! - A word is negated when a negator stands within [`NEGATION_WINDOW`] words before it in its
//!   clause, or when the clause opens with one ("don't mark the passport thing as done").
//! - The subject is the person ("I paid it", an order, a report without one: "paid it"), the
//!   task ("it's done", "all sent", a passive: "the rent is paid"), or someone else: the words
//!   before the first verb ("Tom paid it", "mum called", "the meeting ran late").
//! - A clause opening with "not" and naming no deed ("not this month", "not this one"), or a
//!   subject and a negated verb alone ("the form isn't"), denies the clause before it.

use std::borrow::Cow;
use std::ops::Range;

use super::lemma;
use super::lexicon::{self, courtesy, deeds, moods, negators, questions};

/// How many words before a word a negator still cancels it ("not really quite done").
pub const NEGATION_WINDOW: usize = 3;

/// What a clause does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Mood {
    Statement,
    Question,
    Request,
    Intention,
    Report,
    Closing,
}

/// Who a clause is about.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Subject {
    /// The person speaking (or no subject: an order, a report like "paid it").
    Person,
    /// The task itself ("it's done", "all sent", "the rent is paid").
    Task,
    /// Someone or something else: these words of the clause (its word indices).
    Other(Range<usize>),
}

/// What else a clause says about itself.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Marks {
    pub wish: bool,
    pub condition: bool,
    pub habit: bool,
    pub suggestion: bool,
    pub sarcasm: bool,
    /// A clause after it denies it ("I paid it last month, not this month").
    pub denied: bool,
    /// It denies the clause before it.
    pub denial: bool,
}

impl Marks {
    /// Whether the clause is not the person's plain word: a wish, a condition, a habit, a
    /// suggestion, sarcasm, or denied.
    pub fn hedged(&self) -> bool {
        self.wish || self.condition || self.habit || self.suggestion || self.sarcasm || self.denied
    }
}

/// One clause: its words (indices into the sentence's words), how it ended, and what it is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Clause {
    pub words: Range<usize>,
    /// Its tokens in the sentence (words only; the break after it is `tokens.end`).
    pub tokens: Range<usize>,
    pub question_mark: bool,
    /// Whether it asks something (a question, not a request).
    pub asks: bool,
    pub request: bool,
    pub mood: Mood,
    pub marks: Marks,
    pub subject: Subject,
}

/// Reads one clause (`words` are the sentence's words, `range` this clause's).
pub fn read(words: &[&str], range: Range<usize>, tokens: Range<usize>, mark: bool) -> Clause {
    let own = &words[range.clone()];
    let request = is_request(own);
    let asks = asks(own, mark);
    let subject = subject(own, range.start);
    let marks = Marks {
        wish: own.iter().enumerate().any(|(at, _)| {
            moods::WISHES
                .iter()
                .any(|phrase| lexicon::starts_with(&own[at..], phrase))
        }),
        condition: holds_any(own, moods::CONDITIONS) && !lexicon::holds(own, &["what", "if"]),
        habit: holds_any(own, moods::HABITS),
        suggestion: suggests(own),
        sarcasm: sarcastic(own),
        denied: false,
        denial: false,
    };
    let mood = if asks {
        Mood::Question
    } else if closes(own) {
        Mood::Closing
    } else if request {
        Mood::Request
    } else if intends(own) {
        Mood::Intention
    } else if own.iter().any(|word| lemma::is_past(word)) {
        Mood::Report
    } else {
        Mood::Statement
    };
    Clause {
        words: range,
        tokens,
        question_mark: mark,
        asks,
        request,
        mood,
        marks,
        subject,
    }
}

fn holds_any(words: &[&str], phrases: &[&[&str]]) -> bool {
    phrases.iter().any(|phrase| lexicon::holds(words, phrase))
}

/// "we could push it to friday maybe", "perhaps we should": a suggestion, hedged. "maybe
/// tomorrow" (a time offered as the answer) is not one.
fn suggests(words: &[&str]) -> bool {
    let hedge = |word: &&str| moods::HEDGES.contains(word);
    let strong = moods::SUGGESTIONS
        .iter()
        .any(|phrase| lexicon::holds(words, phrase));
    let modal = words
        .iter()
        .any(|word| matches!(*word, "could" | "might" | "should"));
    let hedged_at_the_end = words.len() > 1 && words.last().is_some_and(hedge);
    strong || (words.iter().any(hedge) && modal) || hedged_at_the_end
}

/// "oh sure, it's done", "yeah right", "it's totally done lol": a claim not meant.
fn sarcastic(words: &[&str]) -> bool {
    let opens = moods::SARCASM
        .iter()
        .any(|phrase| lexicon::starts_with(words, phrase));
    let laughs_after_a_claim = words.len() > 1
        && words
            .last()
            .is_some_and(|word| moods::LAUGHTER.contains(word))
        && words[..words.len() - 1]
            .iter()
            .any(|word| !courtesy::is_phatic(word) && !moods::LAUGHTER.contains(word));
    opens || laughs_after_a_claim
}

/// Whether every word closes a conversation (a goodbye, thanks, "that's all", praise).
fn closes(words: &[&str]) -> bool {
    use lexicon::closings;
    let plain: Vec<Cow<str>> = words.iter().map(|word| without_apostrophes(word)).collect();
    let closing_word = plain.iter().any(|word| {
        closings::is_goodbye(word) || courtesy::is_thanks(word) || closings::is_compliment(word)
    }) || closings::CLOSING_PHRASES
        .iter()
        .chain(closings::GOODBYE_PHRASES)
        .any(|phrase| lexicon::holds(&plain, phrase));
    closing_word && !words.iter().any(|word| lemma::is_past(word))
}

/// `word` without its apostrophes ("that's" -> "thats"), copied only when it has one.
pub fn without_apostrophes(word: &str) -> Cow<'_, str> {
    if word.contains('\'') {
        Cow::Owned(word.replace('\'', ""))
    } else {
        Cow::Borrowed(word)
    }
}

/// An intention of the person or someone else ("I'll send it", "going to pay", "Tom will").
fn intends(words: &[&str]) -> bool {
    let start = courtesy_opening(words);
    words[start..].iter().take(4).any(|word| {
        matches!(*word, "will" | "gonna" | "going" | "shall" | "wanna") || word.ends_with("'ll")
    })
}

/// How many words at the start only make a request polite ("can you", "please").
pub fn courtesy_opening(words: &[&str]) -> usize {
    let mut at = 0;
    loop {
        if let Some(length) = lexicon::longest_opening(&words[at..], courtesy::POLITE_OPENERS)
            .or_else(|| lexicon::longest_opening(&words[at..], courtesy::PHATIC_PHRASES))
        {
            at += length;
            continue;
        }
        // "so it takes an hour": a clause's opening "so" joins it to what came before, as a
        // conjunction does (`subject_at`), and says nothing of its subject.
        let joined = at == 0 && words.first() == Some(&"so");
        let phatic = words.get(at).is_some_and(|word| courtesy::is_phatic(word)) || joined;
        if phatic && at + 1 < words.len() {
            at += 1;
            continue;
        }
        return at;
    }
}

/// Whether a clause asks something (see the module header).
fn asks(words: &[&str], question_mark: bool) -> bool {
    let first = words.first().copied().unwrap_or_default();
    let second = words.get(1).copied().unwrap_or_default();
    if is_request(words) {
        return false;
    }
    if question_mark {
        return true;
    }
    if questions::is_question_word(first) {
        // "what's left", "when is it due"; not "when I'm back I'll do it".
        return questions::is_contracted(first) || questions::is_auxiliary(second);
    }
    let subject = moods::is_subject(second)
        || matches!(
            second,
            "the" | "my" | "your" | "our" | "there" | "anyone" | "anything" | "mum" | "mom"
        );
    if questions::is_auxiliary(first) && subject {
        // "did it" (a report) and "do it" (an order) ask nothing.
        return !(matches!(first, "did" | "do") && second == "it");
    }
    false
}

/// A polite request or a suggestion, which a question mark does not make a question: "can you
/// move it?", "could you please add milk?", "would you mind...", "how about friday?", "why
/// not friday?", "please ...?".
pub fn is_request(words: &[&str]) -> bool {
    let word = |index: usize| words.get(index).copied().unwrap_or_default();
    if words
        .iter()
        .any(|word| courtesy::is_please(word) && *word != "kindly")
    {
        return true;
    }
    let modal = matches!(
        word(0),
        "can" | "could" | "would" | "will" | "can't" | "cant"
    );
    if modal && matches!(word(1), "you" | "u" | "ya" | "we") {
        return true;
    }
    word(0) == "mind"
        || moods::OFFERS
            .iter()
            .any(|offer| lexicon::starts_with(words, offer))
}

/// Who the part of a clause a word at `at` stands in is about: from the last conjunction
/// before it ("they called it off so never mind": "never mind" is the person's).
pub fn subject_at(words: &[&str], at: usize, offset: usize) -> Subject {
    let from = words[..at.min(words.len())]
        .iter()
        .rposition(|word| matches!(*word, "so" | "and" | "but" | "because" | "then" | "cause"))
        .map_or(0, |conjunction| conjunction + 1);
    subject(&words[from..], offset + from)
}

/// Who the clause is about (see the module header). `offset` is the clause's first word in
/// the sentence.
fn subject(words: &[&str], offset: usize) -> Subject {
    let start = courtesy_opening(words).min(words.len());
    let Some(first) = words.get(start) else {
        return Subject::Person;
    };
    if moods::is_person(first) {
        return Subject::Person;
    }
    if moods::is_task_subject(first) {
        return Subject::Task;
    }
    if moods::is_other_pronoun(first) {
        return Subject::Other(offset + start..offset + start + 1);
    }
    // An order: "mark call mum as done", "push the dentist to friday".
    if deeds::is_known_verb(first) {
        return Subject::Person;
    }
    let Some(verb) = (start..words.len()).find(|&at| is_verb_at(words, at)) else {
        return Subject::Person;
    };
    let noun: Vec<usize> = (start..verb)
        .filter(|&at| {
            let word = words[at];
            let number = word.chars().all(|c| c.is_ascii_digit());
            !number
                && !moods::is_adverb(word)
                && !negators::negates(word)
                && !courtesy::is_phatic(word)
        })
        .collect();
    let (Some(&from), Some(&to)) = (noun.first(), noun.last()) else {
        return Subject::Person;
    };
    if passive_at(words, verb) {
        return Subject::Task;
    }
    Subject::Other(offset + from..offset + to + 1)
}

/// Whether the word at `at` is a verb that carries the clause: a past form, a helper ("is",
/// "will", "got"), or a noun with "'s" before a past form ("the money's been sent").
fn is_verb_at(words: &[&str], at: usize) -> bool {
    let word = words[at];
    if lemma::is_past(word) || moods::is_helper(word) {
        return true;
    }
    let Some(stem) = word.strip_suffix("'s") else {
        return false;
    };
    let next = words.get(at + 1).copied().unwrap_or_default();
    !stem.is_empty()
        && (next == "been" || lemma::is_past(next) || negators::is_negator(next) || next.is_empty())
}

/// "is paid", "'s been transferred", "got sent", "are done": a passive report.
fn passive_at(words: &[&str], verb: usize) -> bool {
    let word = words[verb];
    let be = moods::PASSIVE_HELPERS.contains(&word) || word.ends_with("'s");
    be && words[verb + 1..]
        .iter()
        .take(3)
        .any(|next| lemma::is_past(next) && !matches!(*next, "got" | "been"))
}

/// Whether the clause denies the one before it: "not this month", "not this one", "the form
/// isn't", "not yet it isn't".
pub fn denies(words: &[&str]) -> bool {
    if moods::DENIALS
        .iter()
        .any(|phrase| lexicon::starts_with(words, phrase) && words.len() <= phrase.len() + 1)
    {
        return true;
    }
    // "not this month", "not this one" deny the claim about this; "done, not the other one" and
    // "it should be X, not Y" do not.
    let about_this = words
        .iter()
        .any(|word| matches!(*word, "this" | "these" | "it" | "that" | "here"));
    let opens_with_not = matches!(words.first(), Some(&"not")) && words.len() >= 2 && about_this;
    let names_a_deed = words.iter().skip(1).any(|word| lemma::is_past(word))
        || words.iter().any(|word| matches!(*word, "now" | "yet"));
    // "the form isn't", "the other one hasn't": a subject and a negated verb alone.
    let elliptic = words.len() >= 2
        && words.len() <= 4
        && words.last().is_some_and(|word| {
            negators::is_negator(word) && word.ends_with('t') && *word != "not"
        });
    (opens_with_not && !names_a_deed) || elliptic
}

/// Whether the word at `index` of `words` (one clause) is negated (see the module header).
pub fn negated_at(words: &[&str], index: usize) -> bool {
    let word = |at: usize| words.get(at).copied().unwrap_or_default();
    // "don't mark it done", "never mind the rent", "please don't move it", "do not ...";
    // a clause opening with "no" is an answer ("no, I paid it"), not a negated order.
    let opens_negated = (negators::negates(word(0)) && word(0) != "no")
        || (matches!(word(0), "do" | "please" | "pls") && negators::negates(word(1)));
    if opens_negated && index > 0 {
        return true;
    }
    words[..index.min(words.len())]
        .iter()
        .rev()
        .take(NEGATION_WINDOW)
        .any(|word| negators::negates(word))
}
