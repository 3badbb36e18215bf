//! Reading a `/health` answer in a test: the actors it lists and one actor's record.

use serde_json::Value;

/// The actors every running Donna lists in /health (Discord's gateway too, "disabled" when
/// Discord is off).
pub const EVERY_ACTOR: [&str; 9] = [
    "thread_memory",
    "pending_plans",
    "fast_path",
    "llm_classifier",
    "action_executor",
    "rate_cap",
    "discord_gateway",
    "router",
    "store_writer",
];

/// Asserts that `health` lists every actor of `EVERY_ACTOR`.
#[track_caller]
pub fn assert_every_actor_listed(health: &Value) {
    let names = actor_names(health);
    for name in EVERY_ACTOR {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
}

/// The names of the actors `health` lists, in its order.
pub fn actor_names(health: &Value) -> Vec<&str> {
    health["actors"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|actor| actor["name"].as_str())
        .collect()
}

/// The record of the actor `name` in `health`; a panic showing the answer when it is not there.
#[track_caller]
pub fn actor_in(health: &Value, name: &str) -> Value {
    let found = health["actors"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|actor| actor["name"] == name)
        .cloned();
    match found {
        Some(actor) => actor,
        None => panic!("no actor {name} in {health}"),
    }
}
