//! Automations: recurring reminders ("every monday at 9 remind me to submit the timesheet").
//! `command` reads one from a message (pure; its schedule phrase in `repeat`, written out as an
//! RFC 5545 rule and in words by `rule`, its bounds in `bounds`, put together in `plan`; its
//! time of day by the time reader, `tasks::when`), `digest_command` a daily digest ("send me
//! my agenda every day at 8am"), `schedule` is its RFC 5545 rule in the person's time zone and
//! the math on it (bounded searches; `check_rule`: the rules a door stores), `due` which
//! automations are due at a tick (searched off the store writer), `repo` its SQL, `runner` the
//! actor that turns each occurrence into exactly one task; `stated` whether the person stated
//! its time of day (then it fires in quiet hours), `repeat_from` and `completion` repeating
//! from the time the last occurrence was done, `client_rule` a rule an API client writes. An
//! automation is stored only after a yes to its proposal (the internal `create_automation`
//! action in `actions`), or by a client's `POST /api/automations` or an import.

mod bounds;
pub mod client_rule;
pub mod command;
pub mod completion;
mod completion_words;
pub mod digest_command;
pub mod due;
mod plan;
mod repeat;
pub mod repeat_from;
pub mod repo;
mod rule;
pub mod runner;
pub mod schedule;
mod schedule_words;
pub mod stated;

pub use command::{read, AutomationDraft, AutomationReading};
pub use repeat_from::RepeatFrom;
pub use repo::{Automation, AutomationKind};
pub use runner::{AutomationRunner, AutomationsMsg};
pub use schedule::{Schedule, ScheduleError};
