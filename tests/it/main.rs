//! The integration tests, one binary: each module is one area of behaviour, tested through the
//! real parts (the real SQLite, the real HTTP server and binary, the real twilight clients
//! against the fake Discord, the real model client against the fake model, Debian's Chromium;
//! the helpers are in tests/common/). One binary rather than one per area: the suite compiles
//! and links once (BENCHMARKS.md, "The test suite", has the before and after). Run one area
//! with `cargo test --test it <module>::`, one test with its name.

#[path = "../common/mod.rs"]
mod common;

mod automations;
mod backup;
mod bounds;
mod calendar;
mod calendars;
mod chat;
mod chat_actions;
mod chat_consent;
mod cli;
mod config_cli;
mod console;
mod crash;
mod damaged_store;
mod decide_clicks;
mod decide_table;
mod digest;
mod discord;
mod discord_buttons;
mod discord_capture;
mod discord_intents;
mod discord_native;
mod discord_timezone;
mod escalation;
mod event_streams;
mod events;
mod evidence_table;
mod fake_discord_demo;
mod fast_path_table;
mod fault_injection;
mod free_text;
mod free_text_model;
mod free_text_words;
mod grounding_recall;
mod grounding_table;
mod hostile_files;
mod http_contract;
mod http_guard;
mod invisible_titles;
mod journal;
mod lists;
mod llm_layer;
mod logs;
mod model_probe;
mod nudger;
mod nudges_here;
mod one_call;
mod operations;
mod parked;
mod people;
mod plain_errors;
mod planner;
mod poison;
mod promised_nudges;
mod prompt_prefix;
mod properties;
mod readme;
mod recurrences;
mod reliability;
mod replay;
mod reply_gate;
mod reply_pipeline;
mod reply_times;
mod schedules;
mod service_manager;
mod settings_in_force;
mod shutdown;
mod small_models;
mod transfer;
mod web_act;
mod web_buttons;
mod web_changes;
mod web_intents;
mod web_page;
mod web_person;
mod web_screenshot;
mod web_token;
mod when_categories;
mod when_table;
mod zone_search;
