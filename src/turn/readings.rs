//! What the free-text rules make of a message (docs/contract.md "Free text", step 7): the
//! capture rules and common questions, an automation or a digest command, a time-zone
//! sentence, a quiet-hours sentence, a question about the sender's own time
//! (`capture::calendar_asked`). Read once per turn from the message's one reading (`crate::sentence`), before the
//! group gate, and shared by the gate (a rule command skips it), `decide::keep_the_live_plan`
//! ("what are you waiting on?" keeps the live proposal) and the free-text room.
//!
//! Invariant: pure; each reader runs once per turn.

use chrono::{DateTime, Utc};

use crate::automations::command::{self as automation_command, AutomationReading};
use crate::automations::digest_command::{self, DigestReading};
use crate::capture::calendar_asked::{self, CalendarAsk};
use crate::capture::rules::{self, Reading};
use crate::people::quiet_sentence::{self, QuietSentence};
use crate::people::sentence::ZoneSentence;
use crate::sentence::Sentence;

/// What the free-text rules make of a message, read once per turn from its one reading.
#[derive(Debug, Clone)]
pub struct Readings {
    pub rules: Reading,
    pub automation: AutomationReading,
    pub digest: DigestReading,
    /// What it says about the sender's time zone.
    pub zone: ZoneSentence,
    /// What it asks about the sender's own time ("what's on my calendar tomorrow?").
    pub calendar: Option<CalendarAsk>,
    /// What it says about the sender's quiet hours.
    pub quiet: QuietSentence,
}

impl Readings {
    pub fn of(said: &Sentence, now: DateTime<Utc>, timezone: chrono_tz::Tz) -> Self {
        Self {
            rules: rules::read(said),
            automation: automation_command::read(said, now, timezone),
            digest: digest_command::read(said, now, timezone),
            zone: crate::people::sentence::read(said),
            calendar: calendar_asked::read(said, now, timezone),
            quiet: quiet_sentence::read(said),
        }
    }

    /// Whether the message is a command of its own (an automation, a digest, quiet hours): never
    /// the answer to Donna's question.
    pub fn is_command(&self) -> bool {
        !matches!(self.automation, AutomationReading::NotAutomation)
            || !matches!(self.digest, DigestReading::NotDigest)
            || self.quiet != QuietSentence::Nothing
    }
}
