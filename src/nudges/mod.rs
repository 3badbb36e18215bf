//! Nudges, whole: Donna's question about a task, asked without being spoken to.
//!
//! The path of a nudge: the Nudger's tick (`nudger`, a `ticking::Ticking` actor) asks `due`
//! which tasks are due and which nudge each gets (overdue, check-in, the backoff; `completion`:
//! the completion check-in; `quiet`: quiet hours and the explicit times that fire in them);
//! `round` gives every chat one message (`record::group` for several tasks at once) and opens
//! the others (`open`: the chat the task was captured in, its open thread, or a new thread);
//! `record` writes every nudge, in one place; `opened` publishes them once committed. A nudge
//! asked for (`POST /api/nudges`, the console's `nudge`) goes through `request`, the one door.
//! A channel that starts its own threads (Discord) takes nudges through a `NudgeSink` (`sink`)
//! and asks `open::opening` what to start; its buttons and messages stay in `discord/`.
//! `text` says what a nudge says; `failure` why one could not open.
//!
//! Invariants: choosing the tasks and recording their nudges is one unit of work, so two ticks
//! never nudge a task twice; a task has at most one open thread and a new nudge reuses it;
//! every nudge is recorded by `record` (memory, outbox, nudge record, counters, completion
//! mark), and published only after its commit.

pub mod completion;
pub mod due;
pub mod failure;
pub mod nudger;
pub mod open;
pub mod opened;
pub mod quiet;
pub mod record;
pub mod request;
pub mod round;
pub mod sink;
pub mod text;

pub use due::{gap, is_due, DueNudge, DueRules, MAX_GAP};
pub use failure::{NudgeError, NudgeFailure};
pub use nudger::{NudgeRules, Nudger, NudgerMsg};
pub use open::{as_unit, open, open_in_origin, open_on, open_where_it_belongs, opening, Opening};
pub use opened::{NudgeOpened, Opened};
pub use record::new_nudge_id;
pub use request::{NudgeDesk, NudgeRequest, Requested};
pub use sink::{NudgeSink, PendingNudge};
pub use text::{default_context, nudge_text, text_for, NudgeTime};
