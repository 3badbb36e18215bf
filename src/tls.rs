//! The process's one TLS crypto provider (rustls' ring).
//!
//! Owns: installing it. reqwest (built without a provider of its own) and twilight both use the
//! process default; without one installed first, building an HTTPS client panics, and with two
//! different ones they disagree. Invariant: idempotent; every place that builds a TLS client
//! (the model client, the app's start) calls it first, so no order of startup can miss it.

/// Installs rustls' ring provider as the process default; a second call changes nothing.
pub fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}
