//! Where an automation's next occurrence counts from: its schedule (the rule's occurrences,
//! whatever was done) or its completion (the rule's interval after the last one was done:
//! `completion`). Stored as `automation.repeat_from` (migration 0023), shown and taken by the
//! API and the export as `"schedule"` | `"completion"`.

/// Where an automation's next occurrence counts from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RepeatFrom {
    /// The rule's own occurrences, whatever was done.
    #[default]
    Schedule,
    /// The time the last occurrence was done, plus the rule's interval.
    Completion,
}

impl RepeatFrom {
    pub fn as_str(self) -> &'static str {
        match self {
            RepeatFrom::Schedule => "schedule",
            RepeatFrom::Completion => "completion",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "schedule" => Some(RepeatFrom::Schedule),
            "completion" => Some(RepeatFrom::Completion),
            _ => None,
        }
    }
}
