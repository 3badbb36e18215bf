//! Recall of grounding (issue 30 item 6): a fake model that understood each reply proposes
//! exactly the right action, for replies phrased the way people answer a nudge ("knocked it
//! out", "bin it", "make the title say X", "stick X on the list"), none of them taken from the
//! word lists. Counted as reaching the person: the proposal is shown as a plan with that action,
//! or the keyword layer already did exactly that action. The figure is printed (and recorded in
//! BENCHMARKS.md); the test holds it at 90% or more.

use crate::common;
use crate::common::action_names;
use crate::common::TestConfig;
use donna::config::LlmProvider;

use common::fake_llm::{start_fake_llm, Script};
use serde_json::{json, Value};

/// (the task, the person's reply, the action the model proposes, its parameters)
const REPLIES: &[(&str, &str, &str, &str)] = &[
    // Done.
    ("Pay rent", "yep that's sorted now", "mark_done", "{}"),
    (
        "Slides for Monday",
        "wrapped those up an hour ago",
        "mark_done",
        "{}",
    ),
    ("Pay rent", "paid it online last night", "mark_done", "{}"),
    (
        "Send the contract",
        "sent it over this morning",
        "mark_done",
        "{}",
    ),
    ("Call the plumber", "all handled 👍", "mark_done", "{}"),
    (
        "Tax return",
        "knocked it out before lunch",
        "mark_done",
        "{}",
    ),
    (
        "Water the plants",
        "watered them when I got home",
        "mark_done",
        "{}",
    ),
    // Cancel.
    ("Gym membership", "nah just bin it", "cancel_task", "{}"),
    (
        "Book hotel",
        "scrap that, we're not going anymore",
        "cancel_task",
        "{}",
    ),
    ("Book hotel", "forget about this one", "cancel_task", "{}"),
    (
        "Order new chairs",
        "don't need them anymore, trash it",
        "cancel_task",
        "{}",
    ),
    (
        "Team dinner",
        "it got called off, remove it",
        "cancel_task",
        "{}",
    ),
    (
        "Renew magazine",
        "no point now, ditch it",
        "cancel_task",
        "{}",
    ),
    // Move.
    (
        "Pay rent",
        "let's push it to friday",
        "reschedule",
        r#"{"when": "friday"}"#,
    ),
    (
        "Dentist",
        "can we make it next tuesday instead",
        "reschedule",
        r#"{"when": "next tuesday"}"#,
    ),
    (
        "Report",
        "bump to monday morning",
        "reschedule",
        r#"{"when": "monday morning"}"#,
    ),
    (
        "Report",
        "not today, maybe thursday",
        "reschedule",
        r#"{"when": "thursday"}"#,
    ),
    (
        "Haircut",
        "shift it to the weekend",
        "reschedule",
        r#"{"when": "saturday"}"#,
    ),
    (
        "Call mum",
        "rather do it tomorrow evening",
        "reschedule",
        r#"{"when": "tomorrow evening"}"#,
    ),
    // Snooze.
    (
        "Pay rent",
        "ask me again in an hour",
        "reschedule",
        r#"{"when": "in an hour"}"#,
    ),
    (
        "Pay rent",
        "swamped rn, leave it with me for a while",
        "snooze",
        r#"{"duration_hours": 2}"#,
    ),
    (
        "Pay rent",
        "in a meeting till 3",
        "snooze",
        r#"{"duration_hours": 2}"#,
    ),
    (
        "Pay rent",
        "give me 30 mins",
        "snooze",
        r#"{"duration_minutes": 30}"#,
    ),
    (
        "Pay rent",
        "can't right now",
        "snooze",
        r#"{"duration_hours": 2}"#,
    ),
    (
        "Pay rent",
        "hold off a bit, driving",
        "snooze",
        r#"{"duration_hours": 1}"#,
    ),
    // Rename.
    (
        "Pay rent",
        "make the title say Pay December rent",
        "rename_task",
        r#"{"new_title": "Pay December rent"}"#,
    ),
    (
        "Expenses",
        "call it Submit Q4 expenses",
        "rename_task",
        r#"{"new_title": "Submit Q4 expenses"}"#,
    ),
    (
        "Dentist",
        "rename it to Dentist check-up",
        "rename_task",
        r#"{"new_title": "Dentist check-up"}"#,
    ),
    (
        "Venue",
        "change it to Book the venue",
        "rename_task",
        r#"{"new_title": "Book the venue"}"#,
    ),
    (
        "Insurance",
        "the name should be Renew car insurance",
        "rename_task",
        r#"{"new_title": "Renew car insurance"}"#,
    ),
    (
        "Plumber",
        "title should read Call the plumber about the leak",
        "rename_task",
        r#"{"new_title": "Call the plumber about the leak"}"#,
    ),
    // Create.
    (
        "Pay rent",
        "done, also stick oat milk on the list",
        "create_task",
        r#"{"title": "Buy oat milk"}"#,
    ),
    (
        "Pay rent",
        "and add a reminder to call Sam",
        "create_task",
        r#"{"title": "Call Sam"}"#,
    ),
    (
        "Pay rent",
        "oh and put bin bags on my list",
        "create_task",
        r#"{"title": "Buy bin bags"}"#,
    ),
    (
        "Pay rent",
        "can you also add buy stamps",
        "create_task",
        r#"{"title": "Buy stamps"}"#,
    ),
    (
        "Pay rent",
        "I also need to email the landlord",
        "create_task",
        r#"{"title": "Email the landlord"}"#,
    ),
    (
        "Pay rent",
        "new one: book flights to Rome",
        "create_task",
        r#"{"title": "Book flights to Rome"}"#,
    ),
];

/// Written after the grounding was built and measured once, never tuned to (the figure in
/// BENCHMARKS.md is this set's first run): (the task, the reply, the action, its parameters).
#[rustfmt::skip]
const HELD_OUT: &[(&str, &str, &str, &str)] = &[
    ("Pay rent", "just transferred it", "mark_done", r#"{}"#),
    ("Email Sam", "replied to him this morning", "mark_done", r#"{}"#),
    ("Gym bag", "packed it last night", "mark_done", r#"{}"#),
    ("Report", "it's in, submitted before the deadline", "mark_done", r#"{}"#),
    ("Call dentist", "rang them, all booked", "mark_done", r#"{}"#),
    ("Buy milk", "grabbed some on the way home", "mark_done", r#"{}"#),
    ("Fix bike", "bike's fixed 🚲", "mark_done", r#"{}"#),
    ("Newsletter", "cancel that, we dropped the newsletter", "cancel_task", r#"{}"#),
    ("Party supplies", "party's off, delete it", "cancel_task", r#"{}"#),
    ("Old ticket", "this is obsolete now", "cancel_task", r#"{}"#),
    ("Book club", "not doing book club anymore, remove", "cancel_task", r#"{}"#),
    ("Car wash", "skip this one entirely", "cancel_task", r#"{}"#),
    ("Pay rent", "push it back to next monday", "reschedule", r#"{"when": "next monday"}"#),
    ("Dentist", "move it to wednesday afternoon", "reschedule", r#"{"when": "wednesday afternoon"}"#),
    ("Report", "can it wait till friday?", "reschedule", r#"{"when": "friday"}"#),
    ("Call mum", "I'll call her sunday instead", "reschedule", r#"{"when": "sunday"}"#),
    ("Groceries", "reschedule for tomorrow at 6", "reschedule", r#"{"when": "tomorrow at 6pm"}"#),
    ("Pay rent", "remind me in 20 minutes", "reschedule", r#"{"when": "in 20 minutes"}"#),
    ("Pay rent", "I'm at work, later", "snooze", r#"{"duration_hours": 2}"#),
    ("Pay rent", "bit busy, nudge me in a couple of hours", "snooze", r#"{"duration_hours": 2}"#),
    ("Pay rent", "hang on, on a call", "snooze", r#"{"duration_hours": 1}"#),
    ("Pay rent", "snooze for 3 hours please", "snooze", r#"{"duration_hours": 3}"#),
    ("Pay rent", "mute this till tonight", "snooze", r#"{"duration_hours": 6}"#),
    ("Taxes", "rename to File 2026 taxes", "rename_task", r#"{"new_title": "File 2026 taxes"}"#),
    ("Gift", "can you retitle it Buy a gift for Mia", "rename_task", r#"{"new_title": "Buy a gift for Mia"}"#),
    ("Call", "should say Call the bank about the card", "rename_task", r#"{"new_title": "Call the bank about the card"}"#),
    ("Pay rent", "also I need to book a haircut", "create_task", r#"{"title": "Book a haircut"}"#),
    ("Pay rent", "add pick up the parcel to my list", "create_task", r#"{"title": "Pick up the parcel"}"#),
    ("Pay rent", "don't let me forget to water the plants", "create_task", r#"{"title": "Water the plants"}"#),
    ("Pay rent", "and put renew insurance on the todo list", "create_task", r#"{"title": "Renew insurance"}"#),
];

/// How many of `replies` reach the person as the right proposal (or the right keyword action);
/// prints the figure and each miss.
async fn recall(label: &str, replies: &[(&str, &str, &str, &str)]) -> f64 {
    let fake = start_fake_llm();
    let bot = TestConfig::new()
        .with_llm(&fake, LlmProvider::Ollama, 5, 2)
        .start()
        .await;
    let mut reached = 0;
    let mut missed = Vec::new();
    for (title, reply, action, params) in replies {
        let params: Value = serde_json::from_str(params).unwrap_or_else(|e| panic!("{e}"));
        let answer = format!("Shall I {action}?");
        fake.push_for(
            "classify",
            Script::answer(json!([{"name": action, "params": params}]), &answer),
        );
        let (_, thread) = bot.nudged_task(title).await;
        let result = bot.say(&thread, reply).await;
        let shown = result["pending_plan_id"].is_string()
            && action_names(&result).contains(&action.to_string());
        let done_at_once =
            result["path"] == "fast" && action_names(&result) == [action.to_string()];
        if shown || done_at_once {
            reached += 1;
        } else {
            missed.push(format!(
                "{reply:?} -> {action}: {} {:?}",
                result["path"], result["reply"]
            ));
        }
        if result["pending_plan_id"].is_string() {
            bot.say(&thread, "no").await;
        }
        // Unused scripts must not leak into the next reply.
        fake.clear_for("classify");
    }
    let total = replies.len();
    let recall = reached as f64 / total as f64;
    println!(
        "grounding recall ({label}): {reached} of {total} right proposals reached the person ({:.0}%)",
        recall * 100.0
    );
    for line in &missed {
        println!("  missed: {line}");
    }
    recall
}

#[actix_rt::test]
async fn right_proposals_of_a_capable_model_reach_the_person() {
    let tuned = recall("the table grounding was built with", REPLIES).await;
    let held_out = recall("held out", HELD_OUT).await;
    assert!(tuned >= 0.9, "recall on the first table {tuned}");
    assert!(held_out >= 0.9, "recall on the held-out table {held_out}");
}
