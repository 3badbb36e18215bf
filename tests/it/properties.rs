//! Property tests: thousands of generated inputs (a seeded generator, so a failure repeats)
//! checked against rules that must hold for every input.

use donna::actions::{ActionRegistry, BindContext};
use donna::discord::split::{split, MAX_CHARS};
use donna::llm::output;
use donna::replies::intents::IntentsConfig;
use donna::replies::matcher::{FallThroughReason, FastPath, FastPathOutcome, PlanAnswer};
use donna::sentence::Sentence;
use donna::tasks::when::WhenContext;

/// xorshift64*: small, seeded, good enough to spread inputs.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const WORDS: &[&str] = &[
    "done",
    "not",
    "yet",
    "finished",
    "tomorrow",
    "later",
    "push",
    "busy",
    "snooze",
    "yes",
    "no",
    "ok",
    "cancel",
    "undo",
    "but",
    "and",
    "also",
    "it",
    "I",
    "haven't",
    "never",
    "?",
    "!",
    ",",
    ".",
    "friday",
    "please",
    "DONE",
    "Done.",
    "not now",
    "did it",
    "don't",
    "go ahead",
    "é",
    "😀",
    "\n",
    "  ",
    "undone",
    "yesterday",
    "remove",
    "book",
];

fn fast_path() -> FastPath {
    let config = IntentsConfig::from_yaml_str(include_str!("../../config/reply_intents.yaml"))
        .unwrap_or_else(|e| panic!("{e}"));
    FastPath::new(&config)
}

fn soup(g: &mut Gen, max_words: usize) -> String {
    let n = 1 + g.below(max_words);
    (0..n).map(|_| g.pick(WORDS)).collect::<Vec<_>>().join(" ")
}

#[test]
fn the_fast_path_is_total_deterministic_and_never_acts_on_a_negated_or_questioned_keyword() {
    let fast = fast_path();
    let mut g = Gen(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let text = soup(&mut g, 12);
        let read = Sentence::read(&text);
        let first = fast.classify(read.whole());
        assert_eq!(
            first,
            fast.classify(Sentence::read(&text).whole()),
            "not deterministic: {text:?}"
        );
        let _ = (
            fast.plan_answer(read.whole()),
            fast.is_undo(read.whole()),
            fast.is_confirm_word(read.whole()),
        );
        if text.trim_end().ends_with('?') {
            assert!(
                !matches!(first, FastPathOutcome::Match(_)),
                "a question acted: {text:?}"
            );
        }
    }
    for keyword in ["done", "finished", "completed", "busy", "tomorrow"] {
        for negation in ["not", "never", "haven't", "didn't"] {
            let text = format!("{negation} {keyword}");
            assert!(
                !matches!(
                    fast.classify(Sentence::read(&text).whole()),
                    FastPathOutcome::Match(_)
                ),
                "{text:?} acted"
            );
        }
    }
    let long = "done ".repeat(20);
    assert_eq!(
        fast.classify(Sentence::read(&long).whole()),
        FastPathOutcome::FallThrough(FallThroughReason::TooLong)
    );
}

#[test]
fn a_reply_with_both_a_confirm_and_a_reject_word_is_never_a_confirmation() {
    let fast = fast_path();
    let mut g = Gen(7);
    let confirms = ["yes", "ok", "sure", "go ahead"];
    let rejects = ["no", "cancel", "nah", "stop"];
    for _ in 0..5_000 {
        let (a, b) = (g.pick(&confirms), g.pick(&rejects));
        let text = if g.below(2) == 0 {
            format!("{a} {b}")
        } else {
            format!("{b}, {a}")
        };
        assert_ne!(
            fast.plan_answer(Sentence::read(&text).whole()),
            PlanAnswer::Confirm,
            "{text:?}"
        );
    }
}

#[test]
fn model_output_parsing_is_total_and_what_it_accepts_binds_only_to_the_threads_task() {
    let registry = ActionRegistry::shipped().unwrap_or_else(|e| panic!("{e}"));
    let context = BindContext {
        task_id: Some("tsk_ctx".into()),
        thread_id: "thr".into(),
        when: WhenContext {
            now: chrono::DateTime::UNIX_EPOCH,
            timezone: chrono_tz::UTC,
            current_start: None,
            later: std::time::Duration::from_secs(3 * 3600),
        },
    };
    let names = [
        "mark_done",
        "snooze",
        "rename_task",
        "launch",
        "create_task",
        "reschedule",
    ];
    let values = [
        "1",
        "\"x\"",
        "null",
        "[]",
        "{}",
        "\"tsk_other\"",
        "99999999999999999999",
        "-3",
        "true",
    ];
    let mut g = Gen(42);
    for _ in 0..10_000 {
        let actions: Vec<String> = (0..g.below(8))
            .map(|_| {
                format!(
                    "{{\"name\": \"{}\", \"params\": {{\"task_id\": {}, \"new_title\": {}, \"duration_hours\": {}}}}}",
                    g.pick(&names),
                    g.pick(&values),
                    g.pick(&values),
                    g.pick(&values)
                )
            })
            .collect();
        let mut text = format!(
            "{{\"actions\": [{}], \"reply_to_user\": \"hi\", \"reasoning\": \"r\"}}",
            actions.join(", ")
        );
        // Sometimes cut it anywhere (on a character boundary).
        if g.below(4) == 0 {
            let cut = g.below(text.len());
            let cut = (0..=cut)
                .rev()
                .find(|i| text.is_char_boundary(*i))
                .unwrap_or(0);
            text.truncate(cut);
        }
        if let Ok(parsed) = output::parse(&text) {
            assert!(parsed.actions.len() <= 5);
            for request in &parsed.actions {
                if let Ok(bound) = registry.bind(request, &context) {
                    if let Some(task) = bound.params.get("task_id") {
                        assert_eq!(task, "tsk_ctx", "{text}");
                    }
                }
            }
        }
    }
}

#[test]
fn split_keeps_every_word_in_order_and_every_part_under_the_limit() {
    let mut g = Gen(99);
    for _ in 0..2_000 {
        let words: Vec<String> = (0..g.below(1_500))
            .map(|_| {
                let longest = if g.below(50) == 0 { 3_000 } else { 12 };
                "x".repeat(1 + g.below(longest))
            })
            .collect();
        let separators = [" ", "\n", "  "];
        let text: String = words
            .iter()
            .map(|w| format!("{w}{}", separators[g.below(3)]))
            .collect();
        let parts = split(&text, MAX_CHARS);
        assert!(parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().count() <= MAX_CHARS));
        let rejoined: String = parts.concat().split_whitespace().collect();
        let original: String = text.split_whitespace().collect();
        assert_eq!(rejoined, original);
    }
}

/// A title from a small vocabulary, so generated titles often share most of their words.
fn title(g: &mut Gen) -> String {
    const TITLE_WORDS: &[&str] = &[
        "Pay", "rent", "the", "call", "bank", "mom", "renew", "passport", "buy", "milk", "eggs",
        "and", "today", "a", "report", "Send", "weekly", "PAY", "Rent!", "x",
    ];
    (0..1 + g.below(7))
        .map(|_| g.pick(TITLE_WORDS))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The duplicate check goes through the word index of open titles; whatever the tasks went
/// through (created, retitled, closed, reopened, deleted), it finds exactly what comparing the
/// new title with every open task finds: the oldest open task with Jaccard >= 0.8.
#[test]
fn the_indexed_duplicate_check_finds_what_comparing_every_open_title_finds() {
    use donna::capture::duplicates::{likely_duplicate, same_task};
    use donna::tasks::{repo, title_index, NewTask, TaskStatus};

    let mut conn = rusqlite::Connection::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
    donna::store::migrations::apply(&mut conn).unwrap_or_else(|e| panic!("{e}"));
    let mut g = Gen(4242);
    let start = chrono::Utc::now();
    let mut ids = Vec::new();
    for step in 0..1_500 {
        let now = start + chrono::Duration::seconds(step);
        match g.below(10) {
            0..=4 => {
                let id = format!("tsk_{step}");
                repo::insert(&conn, &id, &NewTask::titled(title(&mut g)), now)
                    .unwrap_or_else(|e| panic!("{e}"));
                ids.push(id);
            }
            5 | 6 if !ids.is_empty() => {
                let id = &ids[g.below(ids.len())];
                let to = [TaskStatus::Done, TaskStatus::Cancelled, TaskStatus::Backlog][g.below(3)];
                // A move the state machine refuses changes nothing: fine for this test.
                let _ = repo::set_status(&conn, id, to, now);
            }
            7 | 8 if !ids.is_empty() => {
                let id = ids[g.below(ids.len())].clone();
                if let Some(mut task) = repo::get(&conn, &id).unwrap_or_else(|e| panic!("{e}")) {
                    task.title = title(&mut g);
                    if g.below(3) == 0 {
                        task.status = TaskStatus::Done;
                    }
                    repo::save(&conn, &task, now).unwrap_or_else(|e| panic!("{e}"));
                }
            }
            _ if !ids.is_empty() => {
                let id = ids.swap_remove(g.below(ids.len()));
                repo::delete(&conn, &id).unwrap_or_else(|e| panic!("{e}"));
            }
            _ => {}
        }
        if step % 5 == 0 {
            let wanted = title(&mut g);
            let expected = repo::list(&conn, None)
                .unwrap_or_else(|e| panic!("{e}"))
                .into_iter()
                .filter(|task| task.status.is_open() && same_task(&wanted, &task.title))
                .min_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)))
                .map(|task| task.id);
            let found = likely_duplicate(&conn, &wanted)
                .unwrap_or_else(|e| panic!("{e}"))
                .map(|task| task.id);
            assert_eq!(found, expected, "step {step}: {wanted:?}");
        }
    }
    assert_eq!(
        title_index::repair(&conn).unwrap_or_else(|e| panic!("{e}")),
        0,
        "the index was kept exactly by the task writes"
    );
}
