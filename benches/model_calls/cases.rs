//! The request bodies the bench replays: built with Donna's own prompt code (the same
//! builders the turns use, after the same prefix the LLMClassifier puts in front of every
//! call, fitted to a 4,096-token context) from two fixed turns, A and B, of every call kind, as
//! `llm::client::LlmClient::body` sends them to llama-cpp-python (OpenAI-compatible,
//! `response_format: json_object` with the schema, `llm.system_role: user`: what
//! scripts/real_llm_e2e.sh configures for Gemma). A and B differ in everything a turn varies
//! (the time, the message, the history, the task), so what they share is the static part.
//! The kinds: `classify`, `route`, `parse_task`, `plan_step`, `answer` (the planner's composed
//! `chat`), `chat` (the chat room's), `summarize` and `gate` (the reply check).
//!
//! Also whole turns: the bodies of each model call a turn of that kind makes, in order (a
//! chat or capture turn: `route` alone, its answer carrying the reply or the task; a question:
//! `route`, then `plan_step` calls, the last one answering). `converse` and `parse` stay as the
//! call kinds `chat` and `parse_task` (the rooms' own calls, made when `route` does not answer
//! for them).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use donna::actions::ActionRegistry;
use donna::config::{LlmConfig, LlmProvider, Persona, ResponseFormat, SystemRole};
use donna::llm::budget::ContextWindow;
use donna::llm::chat_prompt::{ChatContext, ChatLine, ChatPrompts, SummaryContext};
use donna::llm::classify::Classifier;
use donna::llm::client::LlmClient;
use donna::llm::free_text::{parse_task_schema, route_schema, FreeTextContext, FreeTextModel};
use donna::llm::gate::ReplyGate;
use donna::llm::planner::{chat_schema, plan_step_schema, PlannerContext, PlannerModel};
use donna::llm::prompts::{ClassifyContext, GateContext, HistoryLine, Prompts, TaskFacts};
use donna::llm::system_prompt::{Prefix, SystemFacts, SystemPrompt};
use donna::planner::Observation;

/// The call kinds, in the order of the report.
pub const KINDS: [&str; 8] = [
    "classify",
    "route",
    "parse_task",
    "plan_step",
    "answer",
    "chat",
    "summarize",
    "gate",
];

/// The turns, in the order of the report.
pub const TURNS: [&str; 6] = [
    "nudge_reply",
    "chat",
    "capture",
    "task_talk",
    "question",
    "question_one_look_up",
];

/// Every body of one version of the prompts: per call kind the A and B requests, per turn
/// the A and B turns' requests in call order.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Cases {
    pub label: String,
    pub calls: BTreeMap<String, [Value; 2]>,
    pub turns: BTreeMap<String, [Vec<Value>; 2]>,
}

/// One fixed turn's words and time.
struct Turn {
    now_rfc3339: &'static str,
    now_shown: &'static str,
    history: Vec<(bool, &'static str)>,
}

fn turns() -> [Turn; 2] {
    [
        Turn {
            now_rfc3339: "2026-11-27T09:14:03+01:00",
            now_shown: "Fri 27 Nov 2026 09:14",
            history: vec![
                (true, "morning! busy day ahead of me"),
                (false, "Morning! Want to go through what's on your list?"),
            ],
        },
        Turn {
            now_rfc3339: "2026-11-27T18:42:51+01:00",
            now_shown: "Fri 27 Nov 2026 18:42",
            history: vec![
                (
                    true,
                    "I'm feeling a bit overwhelmed with everything this week",
                ),
                (
                    false,
                    "That sounds like a lot. Want to pick one thing to start with?",
                ),
                (
                    true,
                    "could you make sure I call the plumber tomorrow morning",
                ),
                (
                    false,
                    "Added 'Call the plumber', tomorrow (Sat 28 Nov) at 09:00.",
                ),
            ],
        },
    ]
}

const TIMEZONE: &str = "Europe/Berlin";

fn client() -> LlmClient {
    let config = LlmConfig {
        provider: LlmProvider::Openai,
        base_url: "http://127.0.0.1:1/v1".into(),
        model: "gemma-3-270m".into(),
        response_format: ResponseFormat::JsonObject,
        system_role: SystemRole::User,
        ..LlmConfig::default()
    };
    LlmClient::new(&config, None, None).unwrap_or_else(|e| panic!("client: {e}"))
}

/// The prefix every call starts with, as scripts/real_llm_e2e.sh runs Donna (the shipped
/// files, the Donna persona, no bigger model configured), fitted to a 4,096-token context.
pub fn prefix() -> Prefix {
    let facts = SystemFacts::shipped(Persona::Donna, false).unwrap_or_else(|e| panic!("{e}"));
    let messages = SystemPrompt::new()
        .and_then(|prompt| prompt.prefix(&facts))
        .unwrap_or_else(|e| panic!("prefix: {e}"));
    Prefix::new(messages, ContextWindow::new(4096).prompt_tokens())
}

fn free_text(turn: &Turn, message: &str) -> FreeTextContext {
    FreeTextContext {
        history: turn
            .history
            .iter()
            .map(|(person, text)| HistoryLine {
                who: if *person { "User" } else { "Donna" }.into(),
                text: (*text).into(),
            })
            .collect(),
        message: message.into(),
        now: turn.now_rfc3339.into(),
        timezone: TIMEZONE.into(),
    }
}

fn chat_context(turn: &Turn, message: &str, open_tasks: Vec<String>) -> ChatContext {
    ChatContext {
        open_tasks,
        pinned: None,
        summaries: Vec::new(),
        history: turn
            .history
            .iter()
            .map(|(person, text)| ChatLine {
                from_person: *person,
                text: (*text).into(),
            })
            .collect(),
        message: message.into(),
        now: turn.now_shown.into(),
        timezone: TIMEZONE.into(),
        budget_tokens: 24_000,
    }
}

fn open_tasks(index: usize) -> Vec<String> {
    let mut tasks = vec![
        "Pay rent (due Fri 1 Jan 2027 at 10:00)".to_string(),
        "Dentist appointment (Mon 4 Jan 2027 at 16:00)".to_string(),
        "Tax return (due Sun 31 Jan 2027 at 18:00)".to_string(),
    ];
    if index == 1 {
        tasks.insert(0, "Call the plumber (Sat 28 Nov 2026 at 09:00)".into());
    }
    tasks
}

fn nudge(index: usize, turn: &Turn) -> ClassifyContext {
    let (title, context, reply, history) = if index == 0 {
        (
            "Pay rent",
            "the task is overdue",
            "the shop was closed, I'll try again on saturday",
            vec![(
                "Donna",
                "'Pay rent' is overdue (it was due Thu 26 Nov at 10:00). Done?",
            )],
        )
    } else {
        (
            "Renew passport",
            "a check-in: the task's time has come",
            "I paid it this morning, all good now",
            vec![
                ("Donna", "Time for 'Renew passport'. How is it going?"),
                ("User", "still waiting for the photos"),
                ("Donna", "Alright, I'll check in again later."),
            ],
        )
    };
    ClassifyContext {
        task: TaskFacts {
            title: title.into(),
            status: "scheduled".into(),
            domain: "personal".into(),
            priority: 2,
            scheduled_start: None,
            deadline: Some("Thu 26 Nov 2026 10:00".into()),
            estimated_duration_minutes: None,
        },
        context: context.into(),
        now: turn.now_shown.into(),
        timezone: TIMEZONE.into(),
        history: history
            .into_iter()
            .map(|(who, text)| HistoryLine {
                who: who.into(),
                text: text.into(),
            })
            .collect(),
        reply: reply.into(),
    }
}

fn summary(index: usize) -> SummaryContext {
    let lines: &[(bool, &str)] = if index == 0 {
        &[
            (true, "ugh, what a week"),
            (
                false,
                "Sounds like a long one. Anything I can take off your plate?",
            ),
            (true, "not really, I just need to get through friday"),
            (false, "Fair enough. I'm here if something comes up."),
        ]
    } else {
        &[
            (true, "my sister is visiting this weekend"),
            (false, "Nice! Anything to prepare before she arrives?"),
            (true, "I should clean the guest room and buy flowers"),
            (false, "Want me to add those two as tasks?"),
            (true, "maybe later"),
        ]
    };
    SummaryContext {
        lines: lines
            .iter()
            .map(|(person, text)| ChatLine {
                from_person: *person,
                text: (*text).into(),
            })
            .collect(),
        budget_tokens: 24_000,
    }
}

fn gate(index: usize) -> GateContext {
    let (history, author, message): (&[(&str, &str)], &str, &str) = if index == 0 {
        (
            &[
                ("ann", "who's bringing the cake on saturday?"),
                ("ben", "I can"),
            ],
            "ann",
            "great, thanks Ben!",
        )
    } else {
        (
            &[("carl", "the printer is jammed again")],
            "carl",
            "@Donna can you remind me to call the repair shop at 3?",
        )
    };
    GateContext {
        history: history
            .iter()
            .map(|(who, text)| HistoryLine {
                who: (*who).into(),
                text: (*text).into(),
            })
            .collect(),
        author: author.into(),
        message: message.into(),
    }
}

/// The planner's context for a question, after `observations` look-ups.
fn question(
    turn: &Turn,
    message: &str,
    observations: Vec<Observation>,
    calls_left: usize,
) -> PlannerContext {
    PlannerContext {
        question: free_text(turn, message),
        observations,
        calls_left,
    }
}

fn look_up(index: usize) -> Observation {
    if index == 0 {
        Observation {
            tool: "get_task".into(),
            args: json!({"task": "dentist"}),
            ok: true,
            text: "Dentist appointment: open, scheduled Mon 4 Jan 2027 at 16:00, priority 3, \
                   domain personal. Captured Tue 24 Nov in this chat."
                .into(),
        }
    } else {
        Observation {
            tool: "search_memory".into(),
            args: json!({"query": "electricity bill"}),
            ok: true,
            text: "1 message: (Sun 22 Nov, you) \"electricity bill is due next week, \
                   don't let me forget\""
                .into(),
        }
    }
}

/// The bodies of today's prompt code.
pub fn build(label: &str) -> Cases {
    let client = client();
    let registry = ActionRegistry::shipped().unwrap_or_else(|e| panic!("registry: {e}"));
    let classifier =
        Classifier::new(client.clone(), &registry).unwrap_or_else(|e| panic!("classify: {e}"));
    let free = FreeTextModel::new(client.clone()).unwrap_or_else(|e| panic!("free text: {e}"));
    let planner = PlannerModel::new(client.clone()).unwrap_or_else(|e| panic!("planner: {e}"));
    let chat = ChatPrompts::new().unwrap_or_else(|e| panic!("chat prompts: {e}"));
    let own = Prompts::new().unwrap_or_else(|e| panic!("prompts: {e}"));
    let prefix = prefix();
    let fail = |e: donna::llm::prompts::PromptError| -> Vec<donna::llm::ChatMessage> {
        panic!("prompt: {e}")
    };
    let body = |messages: Vec<donna::llm::ChatMessage>, schema: Option<&Value>| {
        client.body(&messages, schema)
    };

    let turns = turns();
    let mut calls: BTreeMap<String, [Value; 2]> = BTreeMap::new();
    let mut whole: BTreeMap<String, [Vec<Value>; 2]> = BTreeMap::new();
    let pair = |make: &dyn Fn(usize, &Turn) -> Value| [make(0, &turns[0]), make(1, &turns[1])];
    let pair_turn =
        |make: &dyn Fn(usize, &Turn) -> Vec<Value>| [make(0, &turns[0]), make(1, &turns[1])];

    const CHAT: [&str; 2] = [
        "honestly I could use a break",
        "ugh my boss moved the meeting again",
    ];
    const CAPTURE: [&str; 2] = [
        "could you make sure I call the plumber tomorrow morning",
        "I need to buy a present for Sam before saturday",
    ];
    const TASK_TALK: [&str; 2] = [
        "I finished paying the rent",
        "can you push the dentist to next week",
    ];
    const QUESTION: [&str; 2] = [
        "what's the deal with the dentist thing?",
        "did I already pay the electricity bill?",
    ];

    let classify = |i: usize, t: &Turn| {
        body(
            classifier
                .messages(&prefix, &nudge(i, t))
                .unwrap_or_else(fail),
            Some(classifier.schema()),
        )
    };
    let route = |message: &str, t: &Turn| {
        body(
            free.messages(&prefix, "route", &free_text(t, message))
                .unwrap_or_else(fail),
            Some(&route_schema()),
        )
    };
    let parse = |message: &str, t: &Turn| {
        body(
            free.messages(&prefix, "parse_task", &free_text(t, message))
                .unwrap_or_else(fail),
            Some(&parse_task_schema()),
        )
    };
    let converse = |message: &str, t: &Turn, tasks: Vec<String>| {
        body(
            chat.messages(&prefix, &chat_context(t, message, tasks))
                .unwrap_or_else(fail),
            Some(&chat_schema()),
        )
    };
    let step = |i: usize, t: &Turn, seen: Vec<Observation>| {
        let left = 3 - seen.len();
        body(
            planner
                .step_messages(&prefix, &question(t, QUESTION[i], seen, left))
                .unwrap_or_else(fail),
            Some(&plan_step_schema()),
        )
    };
    let answer = |i: usize, t: &Turn| {
        body(
            planner
                .answer_messages(&prefix, &question(t, QUESTION[i], vec![look_up(i)], 0))
                .unwrap_or_else(fail),
            Some(&chat_schema()),
        )
    };
    let summarize = |i: usize| {
        body(
            chat.summary_messages(&prefix, &summary(i))
                .unwrap_or_else(fail),
            Some(&donna::llm::chat::summarize_schema()),
        )
    };
    let check = |i: usize| {
        body(
            ReplyGate::messages(&own, &prefix, &gate(i)).unwrap_or_else(fail),
            None,
        )
    };

    calls.insert("classify".into(), pair(&classify));
    calls.insert("route".into(), pair(&|i, t| route(CHAT[i], t)));
    calls.insert("parse_task".into(), pair(&|i, t| parse(CAPTURE[i], t)));
    calls.insert("plan_step".into(), pair(&|i, t| step(i, t, Vec::new())));
    calls.insert("answer".into(), pair(&answer));
    calls.insert(
        "chat".into(),
        pair(&|i, t| converse(CHAT[i], t, Vec::new())),
    );
    calls.insert("summarize".into(), pair(&|i, _| summarize(i)));
    calls.insert("gate".into(), pair(&|i, _| check(i)));

    whole.insert(
        "nudge_reply".into(),
        pair_turn(&|i, t| vec![classify(i, t)]),
    );
    // A chat or capture turn is one `route` call whose answer carries the reply or the task
    // (the room's own call is made only when it does not).
    whole.insert("chat".into(), pair_turn(&|i, t| vec![route(CHAT[i], t)]));
    whole.insert(
        "capture".into(),
        pair_turn(&|i, t| vec![route(CAPTURE[i], t)]),
    );
    // Task talk is the chat room's call alone (no `route`: the words name the change).
    whole.insert(
        "task_talk".into(),
        pair_turn(&|i, t| vec![converse(TASK_TALK[i], t, open_tasks(i))]),
    );
    // A question: `route`, then the step that answers (no look-up), or a look-up and the step
    // that answers from it.
    whole.insert(
        "question".into(),
        pair_turn(&|i, t| vec![route(QUESTION[i], t), step(i, t, Vec::new())]),
    );
    whole.insert(
        "question_one_look_up".into(),
        pair_turn(&|i, t| {
            vec![
                route(QUESTION[i], t),
                step(i, t, Vec::new()),
                step(i, t, vec![look_up(i)]),
            ]
        }),
    );
    Cases {
        label: label.into(),
        calls,
        turns: whole,
    }
}
