//! Actions: what a reply can make Donna do to tasks. The registry (reply_actions.yaml) defines
//! them, `bind` validates requests against it (context parameters from the thread, times read
//! once), `review` checks a model's proposal as a whole (evidence, titles, contradictions), the
//! handlers run them inside the turn's transaction, `execute` journals them for undo (`journal`
//! reads the journal back for the event stream), and
//! `describe` words them for a plan; `intent` is what a button stands for (bound without reading words);
//! `reply_time` reads what a keyword reply says about its time
//! beyond the instant (unclear words, a snooze's length), `snooze_length` how long a snooze
//! lasts, `task_details` a new task's description, estimate and tags checked as every door
//! checks them; `estimate` a reply's "it takes about an hour" as an action on its task.
//! `automation` is the internal `create_automation` action
//! (proposed by Donna's own rules, stored after a yes).

pub mod automation;
pub mod bind;
pub mod describe;
pub mod estimate;
pub mod execute;
pub mod handler_kind;
pub mod handlers;
pub mod intent;
pub mod journal;
pub mod params;
pub mod registry;
pub mod reply_time;
pub mod review;
pub mod snooze_length;
mod task_details;
pub mod undo;

pub use bind::{bind_intent, BindContext, BindError, BoundAction, BoundIntent, TimeReading};
pub use execute::{execute_all, execute_plan, ActionResult, PlanOutcome};
pub use handler_kind::HandlerKind;
pub use handlers::ActionEnv;
pub use intent::{bind_button, Intent, IntentError};
pub use params::{ParamDef, ParamError, ParamType};
pub use registry::{ActionRegistry, ActionRequest};
pub use undo::{undo_last, UndoOutcome};
