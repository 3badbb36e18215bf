//! The examples the `route` call shows before the person's message: short messages of other
//! people, each with the whole answer as the model should write it, sent as user and
//! assistant messages after the system message. They are part of the one prefix every call
//! starts with (`system_prompt`), so `route`, the most frequent call, costs only its turn
//! whatever call came before it. A new `route` answer field goes into prompts/route.hbs, the
//! output schema (`free_text::route_schema`) and these examples, in the grammar's key order.
//!
//! Why examples: a small model (Gemma 3 270M) answers in shape only when it has seen the shape,
//! and copies the placeholders of a described format ("<your answer>") instead; an answer
//! format is shown here by real answers. Order: a small model leans towards what it read
//! first, so the harmless intent (chat: an answer, nothing changes) comes first and last.
//! A copied example title is caught later: a captured title must share a word with the
//! person's message.
//!
//! Invariant: every example answer is a valid `route` answer carrying what its intent needs
//! (`free_text_answers::parse_route`; tested below), with its keys in the order the output grammar
//! asks for them (serde_json writes them sorted).

use serde_json::{json, Value};

/// (the message, the answer) pairs, in the order shown.
pub fn examples() -> Vec<(&'static str, Value)> {
    vec![
        (
            "ugh, what a day",
            json!({"confidence": 0.9, "intent": "chat",
                   "reply_to_user": "Sounds like a long one. Want to talk about it?"}),
        ),
        (
            "I have to call the bank tomorrow, 20 min, ask about the card fee",
            json!({"confidence": 0.9, "description": "Ask about the card fee",
                   "estimated_minutes": 20, "intent": "capture", "title": "Call the bank",
                   "when": "tomorrow"}),
        ),
        (
            "when is my dentist appointment?",
            json!({"confidence": 0.9, "intent": "question"}),
        ),
        (
            "my cat is sick",
            json!({"confidence": 0.9, "intent": "chat",
                   "reply_to_user": "Oh no, I hope she feels better soon."}),
        ),
        (
            "I paid the electricity bill already",
            json!({"confidence": 0.8, "intent": "task_action"}),
        ),
        (
            "every monday at 9 remind me to water the plants",
            json!({"confidence": 0.9, "intent": "automation", "recurrence": "every monday at 9",
                   "title": "Water the plants"}),
        ),
        (
            "thanks, that helps",
            json!({"confidence": 0.9, "intent": "chat", "reply_to_user": "Glad to hear it."}),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::super::free_text_answers::{parse_route, RouteIntent};
    use super::*;

    #[test]
    fn every_example_is_a_valid_route_answer_with_what_its_intent_needs() {
        let shown = examples();
        assert_eq!(
            shown.first().map(|(_, a)| a["intent"].clone()),
            Some(json!("chat")),
            "the harmless intent first"
        );
        assert_eq!(
            shown.last().map(|(_, a)| a["intent"].clone()),
            Some(json!("chat")),
            "and last"
        );
        for (message, answer) in shown {
            let route =
                parse_route(&answer.to_string()).unwrap_or_else(|e| panic!("{message}: {e}"));
            match route.intent {
                RouteIntent::Chat => assert!(route.reply.is_some(), "{message}"),
                RouteIntent::Capture | RouteIntent::Automation => {
                    assert!(route.task.is_some(), "{message}")
                }
                _ => assert!(route.reply.is_none() && route.task.is_none(), "{message}"),
            }
        }
    }
}
