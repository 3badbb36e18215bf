//! Donna: a personal assistant runtime that nudges a person about their tasks and turns their
//! replies into task actions safely. See ARCHITECTURE.md for the codemap.

pub mod config;
pub mod clock;
pub mod store;
