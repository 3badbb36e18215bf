//! The common questions Donna answers from the database without a model.

/// The common questions answered from the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    ListTasks,
    Overdue,
    DueToday,
    DueTomorrow,
    DueThisWeek,
    /// "what are you waiting on?": proposals awaiting a yes, questions awaiting an answer,
    /// nudges not answered yet.
    WaitingOn,
    /// "send me my agenda" (once, now): what is overdue, due today and waiting for an answer,
    /// as the daily digest shows it.
    Agenda,
}
