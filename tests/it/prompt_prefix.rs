//! Prompts a model server can reuse (issue 34): for every call kind, the request bodies Donna
//! sends for two different turns (another time, message, history, task) start with the same
//! bytes — the rules, the actions, the examples — and what the turn changes comes last, also
//! when the system prompt is folded into the first user message (`llm.system_role: user`, as
//! Gemma is served). llama.cpp's server and Ollama evaluate only what follows the longest prefix
//! shared with the previous prompt, so a static part in front is what makes a second turn cheap.
//!
//! The bodies are the ones the bench `model_calls` replays against the real server (built by
//! Donna's own prompt code in benches/model_calls/cases.rs), so this test and the bench's
//! figures are about the same bytes. The frozen bodies of the prompts before the change
//! (benches/model_calls/before.json) are checked too: they must FAIL the same criterion, which
//! shows the criterion can fail.

#[allow(dead_code)]
#[path = "../../benches/model_calls/cases.rs"]
mod cases;

use serde_json::Value;

/// The prompt as the server's chat template sees it: each message's role and content, in order.
fn prompt_text(body: &Value) -> String {
    body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|message| {
            format!(
                "<{}>\n{}\n",
                message["role"].as_str().unwrap_or_default(),
                message["content"].as_str().unwrap_or_default()
            )
        })
        .collect()
}

/// Bytes at the start of `a` and `b` that are the same.
fn shared_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

/// The system message as it travels folded into the first user message.
fn instructions(text: &str) -> Option<&str> {
    let end = text.find("</instructions>")? + "</instructions>".len();
    Some(&text[..end])
}

/// Why two turns' prompts of one call kind do not share a static part in front; None when
/// they do: the whole system message lies in the shared prefix, and at least `SHARE` of the
/// shorter prompt is shared (what follows is the turn's own words, time and records, and the
/// few labels around them).
fn not_reusable(a: &Value, b: &Value) -> Option<String> {
    const SHARE: f64 = 0.75;
    let (a, b) = (prompt_text(a), prompt_text(b));
    let shared = shared_prefix(&a, &b);
    let shorter = a.len().min(b.len());
    let first_difference = a
        .get(shared.saturating_sub(80)..(shared + 80).min(a.len()))
        .unwrap_or_default()
        .to_string();
    match instructions(&a) {
        Some(system) if system.len() > shared => {
            return Some(format!(
                "the system message is not the same in both turns: they differ at byte \
                 {shared} of its {}, around {first_difference:?}",
                system.len()
            ))
        }
        None => return Some("no folded system message".into()),
        Some(_) => {}
    }
    let share = shared as f64 / shorter as f64;
    (share < SHARE).then(|| {
        format!(
            "only {shared} of {shorter} bytes ({:.0}%) are a shared prefix; the turns differ \
             around {first_difference:?}",
            share * 100.0
        )
    })
}

fn before() -> cases::Cases {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/model_calls/before.json"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_call_kind_starts_with_a_static_part_that_two_different_turns_share() {
    let today = cases::build("after");
    let mut problems = Vec::new();
    for kind in cases::KINDS {
        let [a, b] = &today.calls[kind];
        assert_ne!(a, b, "{kind}: the two turns must differ");
        if let Some(why) = not_reusable(a, b) {
            problems.push(format!("{kind}: {why}"));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn the_criterion_rejects_the_prompts_from_before_the_change() {
    // Before, the chat room's system message held the time, and the planner and the
    // free-text calls each had a system message of their own.
    let frozen = before();
    let rejected: Vec<&str> = cases::KINDS
        .into_iter()
        .filter(|kind| {
            let [a, b] = &frozen.calls[*kind];
            not_reusable(a, b).is_some()
        })
        .collect();
    assert!(rejected.contains(&"chat"), "{rejected:?}");
}

#[test]
fn the_free_text_calls_share_one_system_message_so_a_turn_reuses_the_call_before() {
    // A chat turn calls `route` and then, when `route` did not answer for the room, the
    // chat room; a question calls `route` then the planner; the next turn calls `route`
    // again. The server keeps one prompt: each call can reuse the previous one only if they
    // start alike.
    let today = cases::build("after");
    let system_of = |kind: &str| {
        let text = prompt_text(&today.calls[kind][0]);
        instructions(&text).map(String::from)
    };
    let route = system_of("route").unwrap_or_else(|| panic!("route has no system message"));
    for kind in ["parse_task", "plan_step", "chat"] {
        assert_eq!(
            system_of(kind).as_deref(),
            Some(route.as_str()),
            "{kind} starts otherwise than route"
        );
    }
    let frozen = before();
    let before_route = instructions(&prompt_text(&frozen.calls["route"][0])).map(String::from);
    let before_chat = instructions(&prompt_text(&frozen.calls["chat"][0])).map(String::from);
    assert_ne!(before_route, before_chat, "before, they did not");
}
