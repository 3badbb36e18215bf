//! A reply vocabulary in which the words the buttons stand for mean something else: "done"
//! moves a task, "tomorrow" snoozes it, "yes" says no to a proposal and "snooze" is no keyword.
//! A click that still does what its button says was not read back from its words.

/// The intents file (config/reply_intents.yaml's shape).
pub const SWAPPED_INTENTS: &str = r#"
fast_path:
  max_length: 60
  max_clauses: 2
  multi_intent_signals: ["but"]
  negators: ["not", "don't"]
  negation_window: 3
  confirm_keywords: ["si", "vale"]
  reject_keywords: ["yes", "nope"]
  undo_keywords: ["undo"]
intents:
  mark_done:
    keywords: ["finito"]
    action: mark_done
  reschedule:
    keywords: ["done", "postpone"]
    action: reschedule
  busy:
    keywords: ["tomorrow", "busy"]
    action: snooze
"#;

/// Writes the file into a new directory (kept while the returned guard lives) and returns the
/// config line that names it.
pub fn swapped_words() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let path = dir.path().join("swapped_intents.yaml");
    std::fs::write(&path, SWAPPED_INTENTS).unwrap_or_else(|e| panic!("{e}"));
    (dir, format!("intents_file: {}\n", path.display()))
}
