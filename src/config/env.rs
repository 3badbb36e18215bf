//! The process environment, read only here: secrets and `TZ` come through `Env`, so a test
//! passes its own and nothing else in Donna reads environment variables.

/// Reads environment variables; tests pass their own.
pub trait Env {
    fn var(&self, name: &str) -> Option<String>;
}

/// The process environment.
#[derive(Debug, Clone, Copy)]
pub struct ProcessEnv;

impl Env for ProcessEnv {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name)
            .ok()
            .filter(|value| !value.trim().is_empty())
    }
}
