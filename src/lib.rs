//! Donna: a personal assistant runtime that nudges a person about their tasks and turns their
//! replies into task actions safely. See ARCHITECTURE.md for the codemap.

pub mod actions;
pub mod app;
pub mod automations;
pub mod calendar;
pub mod capture;
pub mod chat_actions;
pub mod cli;
pub mod clock;
pub mod config;
pub mod console;
pub mod conversation;
pub mod discord;
pub mod events;
pub mod http;
pub mod ids;
pub mod live;
pub mod llm;
pub mod log_limit;
pub mod metrics;
pub mod nudges;
pub mod people;
pub mod planner;
pub mod replies;
pub mod sentence;
pub mod service_manager;
pub mod skipped_rows;
pub mod store;
pub mod subsystems;
pub mod tasks;
pub mod ticking;
pub mod tls;
pub mod transfer;
pub mod turn;
pub mod turn_path;
