//! Discord: the only module that knows Discord's types. The gateway actor (inbound messages,
//! outbound replies, nudge threads), who is heard, and how long replies are split.

pub mod gateway;
pub mod hearing;
pub mod split;

pub use gateway::{
    DiscordGateway, DiscordMsg, DiscordSettings, GatewayParts, GatewayShared, NudgeFailure,
};

/// Installs rustls' ring provider once for the process (twilight and reqwest would otherwise
/// disagree about it and panic).
pub fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}
