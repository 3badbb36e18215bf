//! The Discord ids every test uses, in one place: the people (the owner Donna works for, a
//! friend she also hears, a stranger she must not), the server and its channels, the direct
//! messages, and the bot's token. The fake Discord's own ids (its bot user and application)
//! are its own (`fake_discord::BOT_USER_ID`, `APPLICATION_ID`) and are re-exported here.
//! Only distinctness matters: no two of these stand for different things in one test.

#[allow(unused_imports)]
pub use super::fake_discord::{APPLICATION_ID, BOT_USER_ID};

/// The person Donna works for (allowed in every Discord test).
pub const OWNER: u64 = 42;
/// Somebody Donna must not hear (never in an allow list).
pub const STRANGER: u64 = 43;
/// A second allowed person (a group member, a friend with their own chat).
pub const FRIEND: u64 = 44;
/// The server the channels belong to.
pub const GUILD: u64 = 900;
/// The channel Donna opens nudge threads in.
pub const NUDGE_CHANNEL: u64 = 500;
/// An ordinary server channel (a group chat).
pub const GENERAL: u64 = 501;
/// The owner's direct messages with Donna.
pub const DM: u64 = 700;
/// The stranger's direct messages with Donna.
pub const STRANGER_DM: u64 = 701;
/// The friend's direct messages with Donna.
pub const FRIEND_DM: u64 = 702;
/// The bot token the fake accepts (`DISCORD_TOKEN`).
pub const TOKEN: &str = "test-token";
