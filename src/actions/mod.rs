//! Actions: what a reply can make Donna do to tasks. The registry (reply_actions.yaml) validates
//! and binds requests; the handlers run them inside the turn's transaction.

pub mod describe;
pub mod execute;
pub mod handlers;
pub mod registry;

pub use execute::{execute_all, undo_last, ActionResult, UndoOutcome};
pub use handlers::{ActionEnv, HandlerKind};
pub use registry::{ActionRegistry, ActionRequest, BindContext, BoundAction};
