//! Actions: what a reply can make Donna do to tasks. The registry (reply_actions.yaml) defines
//! them, `bind` validates requests against it (context parameters from the thread, times read
//! once), the handlers run them inside the turn's transaction, `execute` journals them for
//! undo, and `describe` words them for a plan.

pub mod bind;
pub mod describe;
pub mod execute;
pub mod handlers;
pub mod registry;

pub use bind::{
    bind_intent, BindContext, BindError, BoundAction, BoundIntent, ParamError, TimeReading,
};
pub use execute::{execute_all, undo_last, ActionResult, UndoOutcome};
pub use handlers::{ActionEnv, HandlerKind};
pub use registry::{ActionRegistry, ActionRequest};
