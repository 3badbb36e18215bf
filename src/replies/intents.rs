//! Configuration of the reply `FastPath` (`config/reply_intents.yaml`): the vocabulary that turns
//! a short reply to a nudge into one intent, the confirm / reject / undo words, and the signals
//! that send a reply to the next layer (a second request, several tasks).
//!
//! Owns: the serde shape of that file, its validation, and the built-in list of multi-task
//! signals used when a file has none ([`DEFAULT_MULTI_TASK_SIGNALS`]). Matching itself lives in
//! [`super::matcher`], the tokenizer both use in [`super::words`]. The YAML text is parsed by
//! `crate::config::parse_yaml`, the one place that knows the YAML library.
//!
//! Invariants once [`IntentsConfig::validate`] has passed:
//! - every list in the file is non-empty (`fast_path.multi_task_signals` may be left out, and
//!   then is [`DEFAULT_MULTI_TASK_SIGNALS`]), and every entry has at least one word with no clause
//!   punctuation (`, . ; : ! ?`) between its words (such an entry could never match a reply);
//! - `fast_path.max_length` and `fast_path.max_clauses` are at least 1;
//! - intents keep the order of the YAML mapping, names are unique (a duplicate is a parse error)
//!   and non-empty, actions are non-empty;
//! - no intent keyword and no confirm keyword is also a reject keyword, and no keyword belongs to
//!   two intents: each of those would make one word mean two opposite things.
//!
//! Keywords are compared after the normalization the matcher applies to replies, so "Don't",
//! "don’t" and "don't!" are the same keyword.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;

use crate::config::ConfigError;
use crate::sentence::tokens::{keyword_words, KeywordProblem};

/// The multi-task signals of a file without `fast_path.multi_task_signals` (files written before
/// the key existed): the same list as the shipped `config/reply_intents.yaml`. "all" alone is not
/// one: "all done" and "finished it all" are about the one task.
pub const DEFAULT_MULTI_TASK_SIGNALS: [&str; 13] = [
    "every",
    "everything",
    "everything's",
    "everythings",
    "each",
    "all of them",
    "all of these",
    "all of those",
    "all my",
    "all the",
    "all tasks",
    "them all",
    "both",
];

fn default_multi_task_signals() -> Vec<String> {
    DEFAULT_MULTI_TASK_SIGNALS.map(str::to_owned).to_vec()
}

/// The whole `reply_intents.yaml` file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IntentsConfig {
    pub fast_path: FastPathConfig,
    /// In file order: the order is kept so logs and tools list intents the way the file does.
    #[serde(deserialize_with = "deserialize_intents")]
    pub intents: Vec<NamedIntent>,
}

/// The `fast_path` section: when a reply is simple enough to skip the LLM, and the words that
/// answer a pending plan.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FastPathConfig {
    /// Replies longer than this many characters (after trimming) go to the LLM.
    pub max_length: usize,
    /// Replies with more comma-separated non-empty clauses than this go to the LLM.
    pub max_clauses: usize,
    /// Whole-word phrases that announce a second request ("done but later", "and make it
    /// urgent").
    pub multi_intent_signals: Vec<String>,
    /// Whole-word phrases that make a reply about several tasks ("every", "all of them"): a
    /// keyword intent acts on the thread's one task, so such a reply goes to the next layer.
    /// [`DEFAULT_MULTI_TASK_SIGNALS`] when the key is absent.
    #[serde(default = "default_multi_task_signals")]
    pub multi_task_signals: Vec<String>,
    /// Words or phrases that negate a keyword shortly after them.
    pub negators: Vec<String>,
    /// How many words before a keyword a negator still negates it.
    pub negation_window: usize,
    pub confirm_keywords: Vec<String>,
    pub reject_keywords: Vec<String>,
    pub undo_keywords: Vec<String>,
}

/// One entry of the `intents` mapping, with its name (the mapping key).
#[derive(Debug, Clone, PartialEq)]
pub struct NamedIntent {
    pub name: String,
    pub def: IntentDef,
}

/// What an intent is recognised by and what it does.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IntentDef {
    pub keywords: Vec<String>,
    /// The action the caller runs for this intent.
    pub action: String,
    /// Whether the action is proposed as a plan and waits for a confirm instead of running.
    #[serde(default)]
    pub confirm: bool,
    /// Fixed parameters handed to the action.
    #[serde(default)]
    pub params: BTreeMap<String, serde_json::Value>,
}

/// Why `reply_intents.yaml` was refused. Every message names the key path at fault.
#[derive(Debug, thiserror::Error)]
pub enum IntentsError {
    #[error("reply intents config does not match its schema: {0}")]
    Parse(#[from] ConfigError),
    #[error("`{path}` must not be empty")]
    Empty { path: String },
    #[error("`{path}` must be at least 1")]
    Zero { path: String },
    #[error("`{path}` entry {keyword:?} has no words")]
    KeywordWithoutWords { path: String, keyword: String },
    #[error(
        "`{path}` entry {keyword:?} has clause punctuation between its words, so it can never match"
    )]
    KeywordSpansClauses { path: String, keyword: String },
    #[error("`intents` has an intent with an empty name")]
    EmptyIntentName,
    #[error("`{path}` entry {keyword:?} is also in `fast_path.reject_keywords`")]
    KeywordIsAlsoReject { path: String, keyword: String },
    #[error("`{path}` entry {keyword:?} is also in `{other_path}`, so it would match two intents")]
    KeywordInTwoIntents {
        path: String,
        keyword: String,
        other_path: String,
    },
}

impl IntentsConfig {
    /// Parses and validates a `reply_intents.yaml` text.
    ///
    /// # Errors
    /// [`IntentsError::Parse`] when the text does not fit the schema, otherwise whatever
    /// [`IntentsConfig::validate`] reports.
    pub fn from_yaml_str(yaml: &str) -> Result<Self, IntentsError> {
        let config: Self = crate::config::parse_yaml(yaml)?;
        config.validate()?;
        Ok(config)
    }

    /// Checks the invariants listed in the module doc.
    ///
    /// # Errors
    /// The first violation found, naming its key path.
    pub fn validate(&self) -> Result<(), IntentsError> {
        let fast_path = &self.fast_path;
        require_positive("fast_path.max_length", fast_path.max_length)?;
        require_positive("fast_path.max_clauses", fast_path.max_clauses)?;
        phrase_list(
            "fast_path.multi_intent_signals",
            &fast_path.multi_intent_signals,
        )?;
        phrase_list(
            "fast_path.multi_task_signals",
            &fast_path.multi_task_signals,
        )?;
        phrase_list("fast_path.negators", &fast_path.negators)?;
        let confirm = phrase_list("fast_path.confirm_keywords", &fast_path.confirm_keywords)?;
        let reject = phrase_list("fast_path.reject_keywords", &fast_path.reject_keywords)?;
        phrase_list("fast_path.undo_keywords", &fast_path.undo_keywords)?;

        for (keyword, words) in fast_path.confirm_keywords.iter().zip(&confirm) {
            if reject.contains(words) {
                return Err(IntentsError::KeywordIsAlsoReject {
                    path: "fast_path.confirm_keywords".to_owned(),
                    keyword: keyword.clone(),
                });
            }
        }

        if self.intents.is_empty() {
            return Err(IntentsError::Empty {
                path: "intents".to_owned(),
            });
        }
        let mut claimed: Vec<(Vec<String>, &str)> = Vec::new();
        for intent in &self.intents {
            let name = intent.name.as_str();
            if name.trim().is_empty() {
                return Err(IntentsError::EmptyIntentName);
            }
            if intent.def.action.trim().is_empty() {
                return Err(IntentsError::Empty {
                    path: format!("intents.{name}.action"),
                });
            }
            let path = format!("intents.{name}.keywords");
            let words_list = phrase_list(&path, &intent.def.keywords)?;
            for (keyword, words) in intent.def.keywords.iter().zip(&words_list) {
                if reject.contains(words) {
                    return Err(IntentsError::KeywordIsAlsoReject {
                        path,
                        keyword: keyword.clone(),
                    });
                }
                let other_owner = claimed
                    .iter()
                    .find(|(claimed_words, owner)| claimed_words == words && *owner != name);
                if let Some((_, owner)) = other_owner {
                    return Err(IntentsError::KeywordInTwoIntents {
                        path,
                        keyword: keyword.clone(),
                        other_path: format!("intents.{owner}.keywords"),
                    });
                }
            }
            claimed.extend(words_list.into_iter().map(|words| (words, name)));
        }
        Ok(())
    }
}

fn require_positive(path: &str, value: usize) -> Result<(), IntentsError> {
    if value == 0 {
        return Err(IntentsError::Zero {
            path: path.to_owned(),
        });
    }
    Ok(())
}

/// Normalizes every entry of a keyword list, refusing an empty list and entries that could
/// never match a reply.
fn phrase_list(path: &str, phrases: &[String]) -> Result<Vec<Vec<String>>, IntentsError> {
    if phrases.is_empty() {
        return Err(IntentsError::Empty {
            path: path.to_owned(),
        });
    }
    phrases
        .iter()
        .map(|phrase| {
            keyword_words(phrase).map_err(|problem| match problem {
                KeywordProblem::NoWords => IntentsError::KeywordWithoutWords {
                    path: path.to_owned(),
                    keyword: phrase.clone(),
                },
                KeywordProblem::SpansClauses => IntentsError::KeywordSpansClauses {
                    path: path.to_owned(),
                    keyword: phrase.clone(),
                },
            })
        })
        .collect()
}

/// Reads the `intents` mapping into a Vec so the file order survives (a `BTreeMap` would sort
/// it), refusing duplicate names instead of letting the later one win silently.
fn deserialize_intents<'de, D>(deserializer: D) -> Result<Vec<NamedIntent>, D::Error>
where
    D: Deserializer<'de>,
{
    struct IntentsVisitor;

    impl<'de> Visitor<'de> for IntentsVisitor {
        type Value = Vec<NamedIntent>;

        fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
            formatter.write_str("a mapping from intent name to intent definition")
        }

        fn visit_map<A>(self, mut map: A) -> Result<Self::Value, A::Error>
        where
            A: MapAccess<'de>,
        {
            let mut intents: Vec<NamedIntent> = Vec::with_capacity(map.size_hint().unwrap_or(0));
            while let Some(name) = map.next_key::<String>()? {
                if intents.iter().any(|intent| intent.name == name) {
                    return Err(de::Error::custom(format_args!(
                        "duplicate intent `{name}` in `intents`"
                    )));
                }
                let def = map.next_value::<IntentDef>()?;
                intents.push(NamedIntent { name, def });
            }
            Ok(intents)
        }
    }

    deserializer.deserialize_map(IntentsVisitor)
}
