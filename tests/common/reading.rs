//! The readers of words, called on text the way a turn calls them: the message read once
//! (`donna::sentence::Sentence`), then the reader on its reading. For tables of sentences.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use donna::automations::digest_command::DigestReading;
use donna::automations::AutomationReading;
use donna::capture::rules::Reading;
use donna::replies::analysis::Analysis;
use donna::replies::matcher::{FastPath, FastPathOutcome, PlanAnswer};
use donna::sentence::Sentence;

pub fn classify(fast: &FastPath, text: &str) -> FastPathOutcome {
    fast.classify(Sentence::read(text).whole())
}

pub fn plan_answer(fast: &FastPath, text: &str) -> PlanAnswer {
    fast.plan_answer(Sentence::read(text).whole())
}

pub fn is_undo(fast: &FastPath, text: &str) -> bool {
    fast.is_undo(Sentence::read(text).whole())
}

pub fn is_confirm_word(fast: &FastPath, text: &str) -> bool {
    fast.is_confirm_word(Sentence::read(text).whole())
}

/// What the FastPath actor answers for a message about no task in particular.
pub fn analyze_reply(fast: &FastPath, text: &str) -> Analysis {
    donna::subsystems::fast_path::analyze_reply(fast, &Sentence::read(text), None)
}

pub fn read_rules(text: &str) -> Reading {
    donna::capture::rules::read(&Sentence::read(text))
}

pub fn read_automation(text: &str, now: DateTime<Utc>, tz: Tz) -> AutomationReading {
    donna::automations::read(&Sentence::read(text), now, tz)
}

pub fn read_digest(text: &str, now: DateTime<Utc>, tz: Tz) -> DigestReading {
    donna::automations::digest_command::read(&Sentence::read(text), now, tz)
}
