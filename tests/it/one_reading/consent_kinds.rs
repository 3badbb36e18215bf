//! Only the person's own request acts: the keyword layer and consent read the same structure.
//! An action runs at once only from a clause of the person's that asks for it or reports it
//! done, plainly: not a question, a denied claim, a wish, a condition, a habit, a suggestion,
//! sarcasm, someone else's intention; someone else's report ("Tom paid it") and sarcasm become a
//! plan, never nothing and never a write. Kinds, each with members the issue never named.

use crate::common::TestConfig;
use donna::config::LlmProvider;
use serde_json::{json, Value};

use super::outcome::in_a_nudge_thread;
use crate::common::fake_llm::start_fake_llm;
use crate::common::start_bot;

/// What a message must lead to.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Then {
    /// The action runs now.
    Runs,
    /// The action is proposed: a plan, nothing changed.
    Plan,
    /// Nothing runs and nothing is proposed.
    Nothing,
}
use Then::{Nothing, Plan, Runs};

fn then_of(result: &Value) -> Then {
    let ran = result["results"]
        .as_array()
        .is_some_and(|results| results.iter().any(|result| result["ok"] == true));
    if ran {
        Runs
    } else if result["pending_plan_id"].is_string() {
        Plan
    } else {
        Nothing
    }
}

/// The keyword layer, no model: (the task, the reply, what must happen).
#[rustfmt::skip]
const KEYWORD_ROWS: &[(&str, &str, Then)] = &[
    // A question, then a denial.
    ("Pay rent", "done? no way, not even close", Nothing),
    ("Pay rent", "finished? nope, not even close", Nothing),
    ("File the taxes", "sorted? not really", Nothing),
    // Someone else's intention.
    ("Pay rent", "Tom will have it done", Nothing),
    ("Send the invoice", "my sister is going to get it sorted", Nothing),
    ("File the taxes", "the accountant will have it finished", Nothing),
    // A claim a later clause denies.
    ("Pay rent", "I paid it last month, not this month", Nothing),
    ("Send the invoice", "sent it yesterday, not this one", Nothing),
    ("Renew passport", "the photos are done, the form isn't", Nothing),
    // Sarcasm: a plan, never a write and never nothing.
    ("Pay rent", "oh sure, it's totally done lol", Plan),
    ("Pay rent", "yeah right, done", Plan),
    ("File the taxes", "sure sure, all sorted", Plan),
    ("Send the invoice", "oh yeah, sent it lol", Plan),
    // A condition, a wish, a habit.
    ("Pay rent", "if I pay it tomorrow will I still be late", Nothing),
    ("File the taxes", "if it was done I'd be so happy", Nothing),
    ("Renew passport", "I wish it was done", Nothing),
    ("Pay rent", "it's usually done by now", Nothing),
    // Someone else did it: the person confirms.
    ("Pay rent", "Tom paid it", Plan),
    ("Send the invoice", "my sister sent it", Plan),
    ("Book the hotel", "Anna took care of it", Plan),
    // Another subject acting is no report ("mum called" is not "Call mum" done).
    ("Call mum", "mum called, she says hi", Nothing),
    ("Pay rent", "rent went up again ugh", Nothing),
    ("Call the plumber", "the plumber called back", Nothing),
    // The person's own plain request or report runs.
    ("Call mum", "called her this morning", Runs),
    ("Pay rent", "can you mark it as done", Runs),
    ("Pay rent", "paid it, thanks", Runs),
    ("Send the invoice", "yep, all sent", Runs),
];

#[actix_rt::test]
async fn a_keyword_acts_only_in_the_persons_own_plain_clause() {
    let bot = start_bot("").await;
    let mut wrong = Vec::new();
    for (title, text, expected) in KEYWORD_ROWS {
        let (_, result) = in_a_nudge_thread(&bot, title, text).await;
        let got = then_of(&result);
        if got != *expected {
            wrong.push(format!(
                "{text:?} ({title}): expected {expected:?}, got {got:?}: {result}"
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

/// Free chat with a model that proposes the write: (the task, the message, the action it
/// proposes, what must happen).
#[rustfmt::skip]
const CHAT_ROWS: &[(&str, &str, &str, Then)] = &[
    ("Call mum", "mum called, she says hi", "mark_done", Plan),
    ("Call grandpa", "grandpa rang, all good", "mark_done", Plan),
    ("Pay rent", "rent went up again ugh", "mark_done", Plan),
    ("Pay the bills", "the bills went up again", "mark_done", Plan),
    ("Pay rent", "oh sure, the rent is totally paid lol", "mark_done", Plan),
    ("Do the taxes", "I wish the taxes were done", "mark_done", Plan),
    ("Clean the garage", "if only the garage was clean", "mark_done", Plan),
    ("Renew passport", "the passport photos are done, the form isn't", "mark_done", Plan),
    ("Pay rent", "I usually pay rent on the 1st", "mark_done", Plan),
    ("Water the plants", "I always water the plants on sundays", "mark_done", Plan),
    ("Dentist appointment", "we could push the dentist to friday maybe", "reschedule_task", Plan),
    ("Gym session", "I'd snooze the gym if I could", "snooze", Plan),
    ("Book the hotel", "Tom booked the hotel", "mark_done", Plan),
    ("Pay rent", "I paid the rent last month, not this month", "mark_done", Plan),
    // Plain requests and reports still run at once.
    ("Call mum", "can you mark call mum as done", "mark_done", Runs),
    ("Pay rent", "paid the rent this morning", "mark_done", Runs),
    ("Dentist appointment", "push the dentist to friday", "reschedule_task", Runs),
];

#[actix_rt::test]
async fn a_model_write_runs_at_once_only_on_the_persons_plain_request() {
    let fake = start_fake_llm();
    let bot = TestConfig::new()
        .with_llm(&fake, LlmProvider::Ollama, 10, 2)
        .start()
        .await;
    let mut wrong = Vec::new();
    for (title, text, action, expected) in CHAT_ROWS {
        let task = bot.task(json!({"title": title})).await;
        let chat = bot.free_thread().await;
        let params = match *action {
            "reschedule_task" => json!({"task": title, "when": "friday"}),
            _ => json!({"task": title}),
        };
        fake.proposes("Sure.", json!([{"name": action, "params": params}]));
        let result = bot.say(&chat, text).await;
        let got = then_of(&result);
        let status = bot.task_json(&task).await["status"].clone();
        let untouched = status == "backlog";
        if got != *expected || (got != Runs && !untouched) {
            wrong.push(format!(
                "{text:?} ({title}): expected {expected:?}, got {got:?}: {result}"
            ));
        }
        if got == Plan {
            bot.say(&chat, "no").await;
        }
        let _ = bot
            .patch(
                &format!("/api/tasks/{task}"),
                json!({"status": "cancelled"}),
            )
            .await;
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}
