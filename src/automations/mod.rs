//! Automations: recurring reminders ("every monday at 9 remind me to submit the timesheet").
//! `command` reads one from a message (pure; its schedule phrase in `repeat`, its time of day
//! in `time_of_day`), `digest_command` a daily digest ("send me my agenda every day at 8am"), `schedule` is its RFC 5545 rule in the person's
//! time zone and the math on it, `repo` its SQL, `runner` the actor that turns each occurrence
//! into exactly one task. An automation is stored only after a yes to its proposal (the
//! internal `create_automation` action in `actions`).

pub mod command;
pub mod digest_command;
mod repeat;
pub mod repo;
pub mod runner;
pub mod schedule;
mod time_of_day;

pub use command::{read, AutomationDraft, AutomationReading};
pub use repo::{Automation, AutomationKind};
pub use runner::{AutomationRunner, AutomationsMsg};
pub use schedule::{Schedule, ScheduleError};
