//! Tidy: the architecture's invariants as tests, in the manner of rust-analyzer's `tidy`.
//!
//! Each `#[test]` here reads the real tree (from `CARGO_MANIFEST_DIR`) and fails with every
//! offending `file:line` and what to do. The checkers are plain functions over (path, text)
//! lists, so the unit tests in each module feed them synthetic input and show that every
//! check can fire, and stays quiet on good input.
//!
//! - `rules`: module headers, `serde_yaml` and `twilight_*` confinement, SQL only in store
//!   modules, the wall clock only in `src/clock.rs`, the environment only in `src/config/`, no
//!   `#[ignore]`, file sizes, an `actors` crate that knows nothing of Donna.
//! - `sleeps`: no test sleeps a fixed time and then asserts.
//! - `graph`, `cycles`, `layers`: the file-level import graph of `src/`, its cycles, and the
//!   layer order written in ARCHITECTURE.md (`## Layers`).
//! - `lengths`: no function in `src/` over 100 lines, no test file over 600 (allow lists that
//!   only shrink).
//! - `invariants`: every test ARCHITECTURE.md names as the guard of an invariant exists.
//! - `documents`: every document the tree names is in the repository; nothing points outside;
//!   no comment in `src/` points at an issue or a seed a clone does not have.
//! - `reading`: one tokenizer, one definition of each list of words, one zone table, and one
//!   place where a turn analyses its message.

mod cycles;
mod documents;
mod graph;
mod invariants;
mod layers;
mod lengths;
mod reading;
mod rules;
mod sleeps;
mod source;

use source::{root, rust_files};

/// Fails with every violation, one per line, and what to do about them.
fn assert_none(check: &str, advice: &str, violations: &[String]) {
    assert!(
        violations.is_empty(),
        "\n{check}: {} violation(s)\n  {}\n\nWhat to do: {advice}\n",
        violations.len(),
        violations.join("\n  ")
    );
}

#[test]
fn every_source_file_starts_with_a_module_header() {
    let files = rust_files(&["src", "actors/src"]);
    assert_none(
        "module headers",
        "start the file with `//!` lines saying what it owns and its invariants.",
        &rules::check_headers(&files),
    );
}

#[test]
fn only_the_config_module_knows_serde_yaml() {
    let files = rust_files(&[
        "src",
        "actors/src",
        "actors/tests",
        "actors/benches",
        "tests",
        "benches",
    ]);
    assert_none(
        "serde_yaml outside src/config/",
        "parse YAML with `donna::config::parse_yaml` (`crate::config::parse_yaml` inside the \
         crate); types that hold YAML values belong to src/config/ too.",
        &rules::check_serde_yaml(&files),
    );
}

#[test]
fn only_the_discord_channel_and_the_wiring_know_twilight() {
    let files = rust_files(&["src"]);
    assert_none(
        "twilight outside src/discord/ and src/app",
        "keep Discord's types inside src/discord/ and hand the rest of Donna its own types.",
        &rules::check_twilight(&files),
    );
}

#[test]
fn only_the_clock_reads_the_wall_clock() {
    let files = rust_files(&["src"]);
    assert_none(
        "the wall clock outside src/clock.rs",
        "take the time from the `Clock` (`SharedClock::now`), so tests can move it.",
        &rules::check_wall_clock(&files),
    );
}

#[test]
fn only_the_config_reads_environment_variables() {
    let files = rust_files(&["src"]);
    assert_none(
        "environment variables read outside src/config/",
        "name the variable in the config and read it through `config::Env`.",
        &rules::check_environment(&files),
    );
}

#[test]
fn sql_is_written_only_in_the_store_modules() {
    let files = rust_files(&["src"]);
    assert_none(
        "SQL outside src/store/, src/people/, src/conversation/, src/tasks/, src/automations/, src/actions/, src/calendar/repo.rs",
        "move the statement into a function of the store module that owns the table and call \
         that function.",
        &rules::check_sql(&files),
    );
}

#[test]
fn no_test_is_ignored() {
    let files = rust_files(&["src", "actors", "tests", "benches"]);
    assert_none(
        "#[ignore]",
        "make the test run (fast and reliable) or delete it.",
        &rules::check_ignore(&files),
    );
}

#[test]
fn no_test_sleeps_and_then_asserts_that_nothing_happened() {
    let files = rust_files(&["tests", "actors/tests"]);
    assert_none(
        "fixed sleeps before assertions",
        "wait on a condition or an event that proves the negative (e.g. `eventually` until an \
         actor's processed count shows a whole scheduled run happened) instead of sleeping.",
        &sleeps::check_sleeps(&files),
    );
}

fn src_graph() -> (Vec<source::SourceFile>, graph::Graph) {
    let files = rust_files(&["src"]);
    let graph = graph::build_graph(&files)
        .unwrap_or_else(|errors| panic!("cannot read src/:\n  {}", errors.join("\n  ")));
    (files, graph)
}

#[test]
fn no_import_cycle_between_files() {
    let (_, graph) = src_graph();
    assert_none(
        "import cycles between files of src/ (each line: a file, the line where it names the \
         next one, ...)",
        "break each cycle: move the shared item down into its own file (e.g. an error type out \
         of a mod.rs) or pass it in from above.",
        &cycles::check_cycles(&graph),
    );
}

#[test]
fn no_lower_layer_depends_on_a_higher_one() {
    let (files, graph) = src_graph();
    let markdown = std::fs::read_to_string(root().join("ARCHITECTURE.md"))
        .unwrap_or_else(|error| panic!("cannot read ARCHITECTURE.md: {error}"));
    let layers = layers::parse_layers(&markdown)
        .unwrap_or_else(|error| panic!("ARCHITECTURE.md `## Layers`: {error}"));
    assert_none(
        "layering (ARCHITECTURE.md, `## Layers`)",
        "move the item the lower file needs down to its layer (or into the lower module), or \
         pass it in from above; a new module goes into the layer list.",
        &layers::check_layers(&graph, &layers, &files),
    );
}

#[test]
fn the_actors_crate_knows_nothing_about_donna() {
    let files = rust_files(&["actors/src"]);
    assert_none(
        "Donna in the actors crate's code",
        "keep the runtime generic: take names, settings and types from the caller.",
        &rules::check_actors_know_nothing_of_donna(&files),
    );
}

#[test]
fn source_files_stay_small() {
    let files = rust_files(&["src"]);
    assert_none(
        "file sizes (src/: 500 lines; src/turn/: 300)",
        "split the file along its responsibilities (a folder with a mod.rs facade).",
        &rules::check_file_sizes(&files),
    );
}

#[test]
fn functions_stay_short() {
    let files = rust_files(&["src"]);
    assert_none(
        "function lengths (src/: 100 lines, test code aside)",
        "split the function along its steps (each a named function that says what it does); \
         an allow-list entry may only shrink and is deleted once its function is short.",
        &lengths::check_function_lengths(&files, lengths::LONG_FUNCTIONS),
    );
}

#[test]
fn test_files_stay_small() {
    let files = rust_files(&["tests", "actors/tests"]);
    assert_none(
        "test file sizes (600 lines)",
        "split the file by concept into a folder of tests/it/ (a mod.rs naming its parts); an \
         allow-list entry may only shrink and is deleted once its file is small.",
        &lengths::check_test_file_lengths(&files, lengths::LONG_TEST_FILES),
    );
}

#[test]
fn every_invariant_in_the_architecture_names_a_test_that_exists() {
    let markdown = std::fs::read_to_string(root().join("ARCHITECTURE.md"))
        .unwrap_or_else(|error| panic!("cannot read ARCHITECTURE.md: {error}"));
    let files = rust_files(&["src", "tests", "actors/tests"]);
    let missing = invariants::missing_tests(&markdown, &files)
        .unwrap_or_else(|error| panic!("ARCHITECTURE.md `## Invariants`: {error}"));
    assert_none(
        "invariants guarded by tests that do not exist",
        "name the test that guards the invariant (or write it).",
        &missing,
    );
}

#[test]
fn every_document_named_is_in_the_repository() {
    let searched = [
        "src",
        "actors",
        "tests",
        "benches",
        "scripts",
        "config",
        "prompts",
        "docs",
        "deploy",
        "fuzz",
        ".ci",
        "README.md",
        "ARCHITECTURE.md",
        "RELIABILITY.md",
        "BENCHMARKS.md",
    ];
    let files = documents::files_with(
        &searched,
        &[".rs", ".md", ".yaml", ".hbs", ".sh", ".py", ".toml", "run"],
    );
    let existing: Vec<std::path::PathBuf> = documents::files_with(&searched, &[".md"])
        .into_iter()
        .map(|(path, _)| path)
        .collect();
    assert_none(
        "documents named",
        "name a document that is in the repository (the contract is docs/contract.md), or \
         bring the document into it; never point outside the clone.",
        &documents::check_document_references(&files, &existing),
    );
}

#[test]
fn one_tokenizer_one_list_of_each_kind_one_zone_table() {
    let files = rust_files(&["src"]);
    assert_none(
        "tokenizers",
        "read people's words through `sentence::tokens` (a view of the one tokenizer), or \
         name the file in `reading::tokenizers::NOT_WORDS` if its text is not people's words.",
        &reading::check_tokenizers(&files),
    );
    assert_none(
        "word lists",
        "ask the list's function in `sentence::lexicon` (or the zone table's \
         `tasks::when::abbreviation`) instead of copying its words.",
        &reading::check_word_lists(&files),
    );
    assert_none(
        "one analysis",
        "take the turn's reading (`&Sentence`) as a parameter; only \
         `turn::message_reading` analyses the message.",
        &reading::check_one_analysis(&files),
    );
}

#[test]
fn no_source_comment_points_at_an_issue_or_a_seed() {
    let files = rust_files(&["src", "actors/src"]);
    assert_none(
        "issue and seed tags",
        "say what is true and why in the comment's own words: a clone has no issue tracker and \
         no seed documents.",
        &documents::check_tracker_tags(&files),
    );
}
