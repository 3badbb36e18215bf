//! Discord: the only module that knows Discord's types. The gateway actor (inbound messages,
//! outbound replies, nudge threads, clicks and slash commands), the buttons under proposals,
//! nudges (`nudge_buttons`) and paged lists (`more_button`),
//! the gateway as the Nudger's nudge sink, who is heard, and
//! how long replies are split, the typing indicator while a turn waits for the model.

pub mod buttons;
pub mod gateway;
pub mod hearing;
pub mod more_button;
pub mod nudge_buttons;
pub mod nudge_sink;
pub mod split;
pub mod typing;

/// Re-exported: what a Discord nudge answers when it cannot open (it lives with the nudges).
pub use crate::nudges::NudgeFailure;
pub use gateway::{DiscordGateway, DiscordMsg, DiscordSettings, GatewayParts, GatewayShared};
pub use nudge_sink::DiscordNudges;
