//! Evidence: the phrases an actions file gives an action as its ground ("paid", "finished" for
//! marking a task done; "drop", "don't need" for cancelling it), compiled once by the one
//! tokenizer. Grounding (`super::grounding`) reads them like its own lexicon: by whole words
//! ("paid" is not in "unpaid"), never across a clause break, never when negated.
//!
//! Invariant: a phrase that no reply could ever match (no words, or words across a clause
//! break) is refused when the file is loaded.

use crate::sentence::tokens::{keyword_words, KeywordProblem};

/// A compiled list of phrases that can ground an action.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Grounds {
    phrases: Vec<Vec<String>>,
}

/// Why a phrase can never be found in a reply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GroundsError {
    #[error("{0:?} has no words")]
    NoWords(String),
    #[error("{0:?} spans a clause break (, . ; : ! ?), which no reply can match")]
    SpansClauses(String),
}

impl Grounds {
    /// Compiles `phrases` (as written in the actions file).
    pub fn new(phrases: &[String]) -> Result<Self, GroundsError> {
        let phrases = phrases
            .iter()
            .map(|phrase| {
                keyword_words(phrase).map_err(|problem| match problem {
                    KeywordProblem::NoWords => GroundsError::NoWords(phrase.clone()),
                    KeywordProblem::SpansClauses => GroundsError::SpansClauses(phrase.clone()),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self { phrases })
    }

    /// The compiled phrases, each as its words.
    pub fn phrases(&self) -> &[Vec<String>] {
        &self.phrases
    }

    pub fn is_empty(&self) -> bool {
        self.phrases.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phrase_across_a_clause_break_is_refused() {
        let phrases = vec!["took, care".to_string()];
        assert!(matches!(
            Grounds::new(&phrases),
            Err(GroundsError::SpansClauses(_))
        ));
    }
}
