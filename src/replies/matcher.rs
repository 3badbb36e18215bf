//! The `FastPath`: the keyword layer that turns a short reply to a nudge ("done", "push it to
//! tomorrow", "busy") into exactly one intent, and recognises confirm / reject answers to a
//! pending plan and "undo". Pure logic, no I/O; built once from [`IntentsConfig`].
//!
//! Invariants:
//! - Matching is on whole words. A reply is read from its one reading (`crate::sentence`) and
//!   every keyword goes through the same tokenizer; a keyword phrase matches only as consecutive
//!   words. "undone" is never "done", "book it" never "ok", "notice" never "not".
//! - Clause punctuation (`, . ; : ! ?`, ellipsis, em/en dash, line breaks) becomes a break
//!   token: a phrase never matches across a break, and negation never reaches across one
//!   ("no, done" is done).
//! - The complexity gate (length, multi-intent and multi-task signals, clauses, then the
//!   question test) is shared by [`FastPath::classify`], [`FastPath::plan_answer`] and
//!   [`FastPath::is_undo`]: a reply it refuses is a fall-through, [`PlanAnswer::Neither`] and
//!   not undo. A keyword acts once, on the thread's one task, so a reply that also asks for
//!   something else ("push it to friday and make it urgent") or is about several tasks
//!   ("mark everything done", "snooze them all") is never half-done by a keyword.
//! - A keyword counts only in a clause that means it (the sentence's moods): not in a question
//!   ("done? no way"), a wish, a condition, a habit, or a clause a later one denies ("I paid
//!   it last month, not this month"); a report of someone else ("Tom paid it") or a sarcastic
//!   one ("yeah right, done") is `hedged`: proposed as a plan, never run; someone else's
//!   intention ("Tom will have it done") is no report at all.
//! - When unsure, fall through: [`FastPathOutcome::FallThrough`], [`PlanAnswer::Neither`], not
//!   undo. A wrong fast answer changes a task; a fall-through only costs an LLM call.
//! - Keywords are tokenized once in [`FastPath::new`]; a reply is never tokenized here (it
//!   comes read), and is scanned once per call.

use std::collections::BTreeMap;

use super::intents::IntentsConfig;
use super::meaning::{meant, Meant};
use super::phrases::{Occurrence, Phrases, Reply, Role};
use crate::sentence::lexicon::questions;
use crate::sentence::tokens::{keyword_words, Token};
use crate::sentence::View;

/// The action whose keywords report a task done: only the person's own report runs it.
pub const MARK_DONE: &str = "mark_done";

/// What [`FastPath::classify`] made of a reply.
#[derive(Debug, Clone, PartialEq)]
pub enum FastPathOutcome {
    Match(IntentMatch),
    FallThrough(FallThroughReason),
}

/// The one intent a reply names.
#[derive(Debug, Clone, PartialEq)]
pub struct IntentMatch {
    pub intent: String,
    pub action: String,
    pub confirm: bool,
    pub params: BTreeMap<String, serde_json::Value>,
    /// The configured keyword of the first non-negated hit, as written in the config.
    pub keyword: String,
    /// Every non-negated hit for this intent is also a confirm keyword ("yes"): the reply may
    /// be answering a plan rather than naming the intent, so the caller treats it specially.
    pub only_confirm_word: bool,
    /// The person did not say it plainly (sarcasm, a suggestion, someone else's report: "Tom
    /// paid it"): the action is proposed as a plan, never run at once.
    pub hedged: bool,
}

/// Why a reply goes to the LLM instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FallThroughReason {
    /// Nothing but whitespace.
    Empty,
    /// More than `max_length` characters.
    TooLong,
    /// Contains a multi-intent signal ("but", "however", "and make").
    MultiIntent,
    /// Contains a multi-task signal ("every", "all of them", "both"): a keyword acts on the
    /// thread's one task only.
    MultiTask,
    /// More than `max_clauses` comma-separated clauses.
    TooManyClauses,
    /// Ends with "?" or starts with a question word.
    Question,
    /// No intent survived negation ("not done yet"), or one intent is both said and negated.
    Negated,
    /// The keyword stands in a clause that does not mean it: a wish, a condition, a habit,
    /// a clause a later one denies, or someone else's intention ("Tom will have it done").
    NotMeant,
    /// No keyword of any intent.
    NoKeyword,
    /// Keywords of two or more intents.
    Ambiguous,
}

impl FallThroughReason {
    /// A stable `snake_case` name for logs and metrics.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Empty => "empty",
            Self::TooLong => "too_long",
            Self::MultiIntent => "multi_intent",
            Self::MultiTask => "multi_task",
            Self::TooManyClauses => "too_many_clauses",
            Self::Question => "question",
            Self::Negated => "negated",
            Self::NotMeant => "not_meant",
            Self::NoKeyword => "no_keyword",
            Self::Ambiguous => "ambiguous",
        }
    }
}

/// How a reply answers a pending plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlanAnswer {
    Confirm,
    Reject,
    Neither,
}

/// The compiled `FastPath`. Cheap to share: it is immutable after [`FastPath::new`].
#[derive(Debug)]
pub struct FastPath {
    max_length: usize,
    max_clauses: usize,
    pub(super) intents: Vec<IntentTarget>,
    pub(super) phrases: Phrases,
}

#[derive(Debug)]
pub(super) struct IntentTarget {
    pub(super) name: String,
    pub(super) action: String,
    pub(super) confirm: bool,
    pub(super) params: BTreeMap<String, serde_json::Value>,
}

/// The vocabulary from one role, in config order.
struct PhraseSource<'c> {
    keywords: &'c [String],
    role: Role,
}

impl FastPath {
    /// Compiles the vocabulary. Meant for a validated config; an unvalidated one cannot make
    /// matching panic, but a keyword without words is skipped rather than matching everything.
    #[must_use]
    pub fn new(config: &IntentsConfig) -> Self {
        let fast_path = &config.fast_path;
        let confirm_words: Vec<Vec<String>> = fast_path
            .confirm_keywords
            .iter()
            .filter_map(|keyword| keyword_words(keyword).ok())
            .collect();

        let mut compiled = FastPath {
            max_length: fast_path.max_length,
            max_clauses: fast_path.max_clauses,
            intents: Vec::with_capacity(config.intents.len()),
            phrases: Phrases::new(fast_path.negation_window),
        };

        for (index, intent) in config.intents.iter().enumerate() {
            compiled.intents.push(IntentTarget {
                name: intent.name.clone(),
                action: intent.def.action.clone(),
                confirm: intent.def.confirm,
                params: intent.def.params.clone(),
            });
            for keyword in &intent.def.keywords {
                let Ok(words) = keyword_words(keyword) else {
                    continue;
                };
                let also_confirm = confirm_words.contains(&words);
                compiled.phrases.add(
                    keyword,
                    words,
                    Role::Intent {
                        index,
                        also_confirm,
                    },
                );
            }
        }

        let sources = [
            PhraseSource {
                keywords: &fast_path.confirm_keywords,
                role: Role::Confirm,
            },
            PhraseSource {
                keywords: &fast_path.reject_keywords,
                role: Role::Reject,
            },
            PhraseSource {
                keywords: &fast_path.undo_keywords,
                role: Role::Undo,
            },
            PhraseSource {
                keywords: &fast_path.negators,
                role: Role::Negator,
            },
            PhraseSource {
                keywords: &fast_path.multi_intent_signals,
                role: Role::MultiIntentSignal,
            },
            PhraseSource {
                keywords: &fast_path.multi_task_signals,
                role: Role::MultiTaskSignal,
            },
        ];
        for source in sources {
            for keyword in source.keywords {
                if let Ok(words) = keyword_words(keyword) {
                    compiled.phrases.add(keyword, words, source.role);
                }
            }
        }
        compiled
    }

    /// Turns a short reply to a nudge into one intent, or says why the LLM must read it.
    #[must_use]
    pub fn classify(&self, view: View<'_>) -> FastPathOutcome {
        let reply = match self.simple_reply(view) {
            Ok(reply) => reply,
            Err(reason) => return FastPathOutcome::FallThrough(reason),
        };

        let mut matched: Option<(usize, Occurrence, bool, bool)> = None;
        let mut matched_intents = 0;
        let mut contradicted = false;
        let mut negated_hit = false;
        let mut unmeant: Option<FallThroughReason> = None;
        for index in 0..self.intents.len() {
            let mut first_clean: Option<(Occurrence, bool)> = None;
            let mut only_confirm_word = true;
            let mut negated = false;
            for occurrence in reply.occurrences.iter().copied() {
                let Role::Intent {
                    index: owner,
                    also_confirm,
                } = self.phrases.role(occurrence)
                else {
                    continue;
                };
                if owner != index
                    || self
                        .phrases
                        .is_shadowed(&reply, occurrence, Role::is_intent)
                {
                    continue;
                }
                if self.phrases.is_negated(&reply, occurrence, Role::is_intent) {
                    negated = true;
                    continue;
                }
                let reports_done = self.intents[index].action == MARK_DONE;
                let hedged = match meant(view, occurrence.start, reports_done) {
                    Meant::Plainly => false,
                    Meant::Hedged => true,
                    Meant::Question => {
                        unmeant.get_or_insert(FallThroughReason::Question);
                        continue;
                    }
                    Meant::Not => {
                        unmeant.get_or_insert(FallThroughReason::NotMeant);
                        continue;
                    }
                };
                first_clean.get_or_insert((occurrence, hedged));
                only_confirm_word &= also_confirm;
            }
            negated_hit |= negated;
            if let Some((occurrence, hedged)) = first_clean {
                // "done, not finished" says and unsays the same thing: not a fast answer.
                contradicted |= negated;
                matched_intents += 1;
                matched.get_or_insert((index, occurrence, only_confirm_word, hedged));
            }
        }

        let reason = match (matched_intents, matched) {
            (2.., _) => FallThroughReason::Ambiguous,
            _ if contradicted => FallThroughReason::Negated,
            (_, Some((index, occurrence, only_confirm_word, hedged))) => {
                let mut found = self.intent_match(index, occurrence, only_confirm_word);
                found.hedged = hedged;
                return FastPathOutcome::Match(found);
            }
            (_, None) if unmeant.is_some() => unmeant.unwrap_or(FallThroughReason::NotMeant),
            (_, None) if negated_hit || self.phrases.has_negation(&reply) => {
                FallThroughReason::Negated
            }
            (_, None) => FallThroughReason::NoKeyword,
        };
        FastPathOutcome::FallThrough(reason)
    }

    /// How a reply answers a pending plan. Confirm needs a non-negated confirm keyword and no
    /// reject keyword at all; Reject needs a non-negated reject keyword and no non-negated
    /// confirm keyword; a reply that is a question or fails the complexity gate is Neither. So is
    /// a reply about several tasks ("yes to all of them", "cancel every one of these"): it may
    /// ask for more than the plan does, and Neither only costs the next layer a look at it.
    #[must_use]
    pub fn plan_answer(&self, view: View<'_>) -> PlanAnswer {
        let Ok(reply) = self.simple_reply(view) else {
            return PlanAnswer::Neither;
        };
        let words = self.plan_words(&reply);
        if words.confirm && !words.reject_present {
            PlanAnswer::Confirm
        } else if words.reject && !words.confirm {
            PlanAnswer::Reject
        } else {
            PlanAnswer::Neither
        }
    }

    /// Whether the reply asks to undo the last action: a non-negated undo keyword in a reply
    /// that is not a question and passes the complexity gate.
    #[must_use]
    pub fn is_undo(&self, view: View<'_>) -> bool {
        let Ok(reply) = self.simple_reply(view) else {
            return false;
        };
        reply.occurrences.iter().copied().any(|occurrence| {
            self.phrases.role(occurrence) == Role::Undo
                && !self.phrases.is_shadowed(&reply, occurrence, Role::is_undo)
                && !self.phrases.is_negated(&reply, occurrence, Role::is_undo)
        })
    }

    /// Whether the reply contains a non-negated confirm keyword, whatever else it says. Meant
    /// to recognise a late "yes" to a plan that has expired, so no gate applies.
    #[must_use]
    pub fn is_confirm_word(&self, view: View<'_>) -> bool {
        view.tokens.iter().any(Token::is_word) && self.plan_words(&self.phrases.read(view)).confirm
    }

    /// Which of the words of `view` are part of a confirm keyword ("yes", "go ahead", "ok"),
    /// not negated: one flag per word of the view.
    #[must_use]
    pub fn confirm_words(&self, view: View<'_>) -> Vec<bool> {
        let reply = self.phrases.read(view);
        let mut flags = vec![false; view.tokens.len()];
        for occurrence in reply.occurrences.iter().copied() {
            if self.phrases.role(occurrence) != Role::Confirm
                || self
                    .phrases
                    .is_negated(&reply, occurrence, Role::is_confirm)
            {
                continue;
            }
            for flag in flags.iter_mut().take(occurrence.end).skip(occurrence.start) {
                *flag = true;
            }
        }
        view.tokens
            .iter()
            .zip(flags)
            .filter(|(token, _)| token.is_word())
            .map(|(_, flag)| flag)
            .collect()
    }

    /// The intent a reply that names no keyword answers with when it asks for `action` in
    /// other words: "friday 3pm" (nothing but a time) asks for `reschedule`, "give me an hour"
    /// for `snooze`. The first intent with that action, if any; its keyword is the reply itself,
    /// trimmed, since no configured word matched. Whether the reply says only that is the time
    /// reader's call (`tasks::when`, a layer above this one).
    #[must_use]
    pub fn answer_for_action(&self, action: &str, text: &str) -> Option<IntentMatch> {
        let target = self.intents.iter().find(|intent| intent.action == action)?;
        Some(IntentMatch {
            intent: target.name.clone(),
            action: target.action.clone(),
            confirm: target.confirm,
            params: target.params.clone(),
            keyword: text.trim().to_string(),
            only_confirm_word: false,
            hedged: false,
        })
    }

    /// Applies the complexity gate and the question test, in that order.
    pub(super) fn simple_reply<'a>(&self, view: View<'a>) -> Result<Reply<'a>, FallThroughReason> {
        let trimmed = view.text().trim();
        if trimmed.is_empty() {
            return Err(FallThroughReason::Empty);
        }
        // The byte length bounds the char count, so most replies skip counting.
        if trimmed.len() > self.max_length && trimmed.chars().count() > self.max_length {
            return Err(FallThroughReason::TooLong);
        }
        let reply = self.phrases.read(view);
        let has = |role: Role| {
            reply
                .occurrences
                .iter()
                .any(|occurrence| self.phrases.role(*occurrence) == role)
        };
        if has(Role::MultiIntentSignal) {
            return Err(FallThroughReason::MultiIntent);
        }
        if has(Role::MultiTaskSignal) {
            return Err(FallThroughReason::MultiTask);
        }
        if reply.clause_count() > self.max_clauses {
            return Err(FallThroughReason::TooManyClauses);
        }
        if self.is_question(&reply) {
            return Err(FallThroughReason::Question);
        }
        Ok(reply)
    }

    fn is_question(&self, reply: &Reply<'_>) -> bool {
        if reply.ends_with_question_mark() {
            return true;
        }
        let Some(first) = reply.tokens.iter().position(Token::is_word) else {
            return false;
        };
        let second = reply.tokens[first + 1..]
            .first()
            .and_then(|token| token.word_in(reply.text()))
            .unwrap_or_default();
        let starts_with_question_word = reply
            .word(first)
            .is_some_and(|word| questions::opens_question(word, second));
        // "do it" and "did it" are configured keywords, not questions: a multi-word keyword
        // starting the reply overrides its question-word opening.
        starts_with_question_word
            && !reply.occurrences.iter().any(|occurrence| {
                occurrence.start == first
                    && occurrence.len() > 1
                    && self.phrases.role(*occurrence).is_keyword()
            })
    }

    fn plan_words(&self, reply: &Reply<'_>) -> PlanWords {
        let mut words = PlanWords::default();
        for occurrence in reply.occurrences.iter().copied() {
            let role = self.phrases.role(occurrence);
            if !role.is_plan_answer()
                || self
                    .phrases
                    .is_shadowed(reply, occurrence, Role::is_plan_answer)
            {
                continue;
            }
            // Only confirm phrases consume their own negators: "don't" is a reject keyword
            // and still negates the "do it" of "don't do it".
            let negated = self.phrases.is_negated(reply, occurrence, Role::is_confirm);
            match role {
                Role::Confirm => words.confirm |= !negated,
                Role::Reject => {
                    words.reject_present = true;
                    words.reject |= !negated;
                }
                _ => {}
            }
        }
        words
    }

    fn intent_match(
        &self,
        index: usize,
        occurrence: Occurrence,
        only_confirm_word: bool,
    ) -> IntentMatch {
        let target = &self.intents[index];
        IntentMatch {
            intent: target.name.clone(),
            action: target.action.clone(),
            confirm: target.confirm,
            params: target.params.clone(),
            keyword: self.phrases.keyword(occurrence).to_string(),
            only_confirm_word,
            hedged: false,
        }
    }
}

#[derive(Debug, Default)]
struct PlanWords {
    /// A non-negated confirm keyword.
    confirm: bool,
    /// Any reject keyword, negated or not.
    reject_present: bool,
    /// A non-negated reject keyword.
    reject: bool,
}
