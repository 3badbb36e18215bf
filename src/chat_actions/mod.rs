//! Chat actions (docs/contract.md "Free text": Consent, Tasks named in chat): what the
//! chat's model may ask Donna to do, and how much of it runs without a yes.
//!
//! `registry` (config/chat_actions.yaml: handlers, required safety levels, parameters),
//! `request` (one proposed action checked against it), `prepare` (tasks and automations named
//! in words resolved by Donna, reads answered, writes bound to their handlers, a new task read
//! like a capture), `consent` (run at once, or one plan), `reads` (`query_tasks`, `get_task` in
//! Donna's words).
//!
//! Invariants: the model's output is data: an action runs only if the registry has it, its
//! parameters check, the task it names resolves to exactly one (never an id Donna did not
//! resolve), and consent allows it; everything here is pure or read-only (the turn commits).

pub mod consent;
pub mod prepare;
pub mod reads;
pub mod registry;
pub mod request;

pub use consent::{consent, Asked, Consent, WriteTarget};
pub use prepare::{prepare, Pick, Picked, Prepared, Ready, Which};
pub use registry::{ChatActions, ChatActionsError, ChatHandler, Safety};
pub use request::{ChatRequest, RequestError};
