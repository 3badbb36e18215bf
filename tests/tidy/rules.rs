//! The per-file rules: module headers, who may name `serde_yaml` and `twilight_*`, where SQL may
//! be written, no `#[ignore]`, file sizes, and an `actors` crate that knows nothing of Donna.
//! Each takes a list of (path, text) and returns one line per violation, `path:line: what`.

use std::path::Path;

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::visit::{self, Visit};

use crate::source::{flatten, leaves, line_of, under, Leaf, SourceFile};

/// Check 1: the first non-empty line of every file is a `//!` module header.
pub fn check_headers(files: &[SourceFile]) -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in files {
        let first = text
            .lines()
            .enumerate()
            .find(|(_, line)| !line.trim().is_empty());
        match first {
            Some((_, line)) if line.starts_with("//!") => {}
            Some((index, _)) => out.push(format!(
                "{}:{}: the file does not start with a `//!` header",
                path.display(),
                index + 1
            )),
            None => out.push(format!(
                "{}:1: the file is empty (no `//!` header)",
                path.display()
            )),
        }
    }
    out
}

/// Where each code identifier for which `matches` holds appears, in files not under `allowed`.
fn idents_outside(
    files: &[SourceFile],
    allowed: &[&str],
    matches: impl Fn(&str) -> bool,
) -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in files {
        if allowed.iter().any(|prefix| under(path, prefix)) {
            continue;
        }
        let tokens = match leaves(text) {
            Ok(tokens) => tokens,
            Err(error) => {
                out.push(format!("{}: cannot tokenize: {error}", path.display()));
                continue;
            }
        };
        for leaf in tokens {
            if let Some(ident) = leaf.ident().filter(|ident| matches(ident)) {
                out.push(format!("{}:{}: `{ident}`", path.display(), leaf.line));
            }
        }
    }
    out
}

/// Check 2: only `src/config/` names `serde_yaml` (code only; comments may mention it).
pub fn check_serde_yaml(files: &[SourceFile]) -> Vec<String> {
    idents_outside(files, &["src/config", "tests/tidy"], |ident| {
        ident == "serde_yaml"
    })
}

/// Check 3: within `src/`, only the Discord channel and the wiring name a `twilight_*` crate.
pub fn check_twilight(files: &[SourceFile]) -> Vec<String> {
    let src: Vec<SourceFile> = files
        .iter()
        .filter(|(path, _)| under(path, "src"))
        .cloned()
        .collect();
    idents_outside(&src, &["src/discord", "src/app", "src/app.rs"], |ident| {
        ident == "twilight" || ident.starts_with("twilight_")
    })
}

/// Does a string literal hold SQL? The uppercase keywords the code writes: `SELECT ... FROM`,
/// `INSERT [OR x] INTO`, `UPDATE <name> SET`, `DELETE FROM`, `CREATE [UNIQUE] TABLE|INDEX`,
/// `PRAGMA`. Case-sensitive, whole words, so prose ("select a task from") is not SQL.
pub fn is_sql(text: &str) -> bool {
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| !word.is_empty())
        .collect();
    let at = |i: usize| words.get(i).copied().unwrap_or("");
    words.iter().enumerate().any(|(i, word)| match *word {
        "SELECT" => words[i + 1..].contains(&"FROM"),
        "INSERT" => at(i + 1) == "INTO" || (at(i + 1) == "OR" && at(i + 3) == "INTO"),
        "UPDATE" => at(i + 2) == "SET",
        "DELETE" => at(i + 1) == "FROM",
        "CREATE" => {
            matches!(at(i + 1), "TABLE" | "INDEX")
                || (at(i + 1) == "UNIQUE" && at(i + 2) == "INDEX")
        }
        "PRAGMA" => true,
        _ => false,
    })
}

/// Every string literal of a parsed file with its line: those syn sees as literals, and those
/// inside macro invocations (`format!`, `concat!`, `macro_rules!` bodies), whose tokens syn
/// leaves unparsed. Doc attributes are prose and are skipped.
#[derive(Default)]
struct StringLiterals {
    found: Vec<(usize, String)>,
}

impl<'ast> Visit<'ast> for StringLiterals {
    fn visit_attribute(&mut self, attribute: &'ast syn::Attribute) {
        if !attribute.path().is_ident("doc") {
            visit::visit_attribute(self, attribute);
        }
    }

    fn visit_lit_str(&mut self, literal: &'ast syn::LitStr) {
        self.found
            .push((literal.span().start().line, literal.value()));
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit::visit_macro(self, mac);
        self.macro_tokens(mac.tokens.clone());
    }
}

impl StringLiterals {
    fn macro_tokens(&mut self, tokens: TokenStream) {
        let mut flat = Vec::new();
        flatten(tokens, &mut flat);
        for Leaf { tree, line } in flat {
            if let TokenTree::Literal(literal) = tree {
                if let syn::Lit::Str(string) = syn::Lit::new(literal) {
                    self.found.push((line, string.value()));
                }
            }
        }
    }
}

/// Check 4: SQL string literals only in the modules that own the schema's SQL.
pub fn check_sql(files: &[SourceFile]) -> Vec<String> {
    const STORE_MODULES: [&str; 7] = [
        "src/store",
        "src/calendar/repo.rs",
        "src/people",
        "src/conversation",
        "src/tasks",
        "src/automations",
        "src/actions",
    ];
    let mut out = Vec::new();
    for (path, text) in files {
        if !under(path, "src") || STORE_MODULES.iter().any(|prefix| under(path, prefix)) {
            continue;
        }
        let file = match syn::parse_file(text) {
            Ok(file) => file,
            Err(error) => {
                out.push(format!("{}: cannot parse: {error}", path.display()));
                continue;
            }
        };
        let mut literals = StringLiterals::default();
        literals.visit_file(&file);
        for (line, value) in literals.found {
            if is_sql(&value) {
                out.push(format!(
                    "{}:{line}: SQL {}",
                    path.display(),
                    shorten(&value)
                ));
            }
        }
    }
    out
}

fn shorten(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let short: String = flat.chars().take(60).collect();
    if short.len() < flat.len() {
        format!("{short:?}...")
    } else {
        format!("{short:?}")
    }
}

/// Check 5: no `#[ignore]` (nor `#[cfg_attr(..., ignore)]`); a test that cannot run is deleted
/// or fixed, not parked.
pub fn check_ignore(files: &[SourceFile]) -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in files {
        match text.parse::<TokenStream>() {
            Ok(stream) => find_ignore(stream, path, &mut out),
            Err(error) => out.push(format!("{}: cannot tokenize: {error}", path.display())),
        }
    }
    out
}

fn find_ignore(stream: TokenStream, path: &Path, out: &mut Vec<String>) {
    let trees: Vec<TokenTree> = stream.into_iter().collect();
    for (i, tree) in trees.iter().enumerate() {
        let TokenTree::Group(group) = tree else {
            continue;
        };
        let after_hash = i
            .checked_sub(1)
            .and_then(|j| trees.get(j))
            .is_some_and(|prev| matches!(prev, TokenTree::Punct(p) if p.as_char() == '#'));
        if group.delimiter() == Delimiter::Bracket && after_hash && attribute_ignores(group) {
            out.push(format!("{}:{}: `#[ignore]`", path.display(), line_of(tree)));
        }
        find_ignore(group.stream(), path, out);
    }
}

/// `[ignore]`, `[ignore = "..."]` or `[cfg_attr(..., ignore)]`.
fn attribute_ignores(group: &proc_macro2::Group) -> bool {
    let inner: Vec<TokenTree> = group.stream().into_iter().collect();
    match inner.first() {
        Some(TokenTree::Ident(ident)) if ident == "ignore" => true,
        Some(TokenTree::Ident(ident)) if ident == "cfg_attr" => {
            matches!(inner.get(1), Some(TokenTree::Group(args)) if args
                .stream()
                .into_iter()
                .any(|tree| matches!(tree, TokenTree::Ident(ident) if ident == "ignore")))
        }
        _ => false,
    }
}

/// Check 8: no file under `src/` over 500 lines, and none under `src/turn/` over 300 (the time
/// reader, once exempt as one 1,200-line file, is split by concept in `src/tasks/when/`).
pub fn check_file_sizes(files: &[SourceFile]) -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in files {
        if !under(path, "src") {
            continue;
        }
        let limit = if under(path, "src/turn") { 300 } else { 500 };
        let lines = text.lines().count();
        if lines > limit {
            out.push(format!("{}: {lines} lines (limit {limit})", path.display()));
        }
    }
    out
}

/// Check 7d: the `actors` crate's code names nothing of Donna. Code means identifiers (any that
/// contains "donna", case-insensitive: `DonnaError`, `donna_id`) and string literals (the word
/// "donna", case-insensitive). Comments and doc comments are not code: a header may say that
/// the crate knows nothing about Donna.
pub fn check_actors_know_nothing_of_donna(files: &[SourceFile]) -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in files {
        let tokens = match leaves(text) {
            Ok(tokens) => tokens,
            Err(error) => {
                out.push(format!("{}: cannot tokenize: {error}", path.display()));
                continue;
            }
        };
        for leaf in tokens {
            let hit = match &leaf.tree {
                TokenTree::Ident(ident) => ident.to_string().to_lowercase().contains("donna"),
                TokenTree::Literal(literal) => has_word(&literal.to_string(), "donna"),
                _ => false,
            };
            if hit {
                out.push(format!("{}:{}: `{}`", path.display(), leaf.line, leaf.tree));
            }
        }
    }
    out
}

/// Does `text` hold `word` (lowercase) as a whole word, ignoring case?
fn has_word(text: &str, word: &str) -> bool {
    text.to_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|part| part == word)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::fake_files as files;

    #[test]
    fn a_file_without_a_header_is_reported() {
        let found = check_headers(&files(&[
            ("src/good.rs", "\n//! What this is.\nfn f() {}\n"),
            ("src/bad.rs", "\n// not a module header\nfn f() {}\n"),
            (
                "src/inner.rs",
                "/// An item doc is not a header.\nfn f() {}\n",
            ),
        ]));
        assert_eq!(
            found,
            vec![
                "src/bad.rs:2: the file does not start with a `//!` header",
                "src/inner.rs:1: the file does not start with a `//!` header",
            ]
        );
    }

    #[test]
    fn serde_yaml_outside_config_is_reported_and_comments_do_not_count() {
        let found = check_serde_yaml(&files(&[
            (
                "src/config/mod.rs",
                "//! x\nfn f() { serde_yaml::from_str(\"\"); }\n",
            ),
            (
                "src/replies/x.rs",
                "//! x\n// serde_yaml in a comment\nuse serde_yaml::Value;\n",
            ),
            (
                "tests/t.rs",
                "//! x\nfn f() -> serde_yaml::Value { todo!() }\n",
            ),
            ("tests/tidy/main.rs", "//! x\nuse serde_yaml;\n"),
        ]));
        assert_eq!(
            found,
            vec![
                "src/replies/x.rs:3: `serde_yaml`",
                "tests/t.rs:2: `serde_yaml`"
            ]
        );
    }

    #[test]
    fn twilight_outside_discord_and_wiring_is_reported() {
        let found = check_twilight(&files(&[
            ("src/discord/gateway.rs", "use twilight_model::id::Id;"),
            ("src/app.rs", "use twilight_http::Client;"),
            (
                "src/turn/x.rs",
                "// twilight\nfn f(_: twilight_model::id::Id) {}",
            ),
            ("tests/it/discord.rs", "use twilight_model::id::Id;"),
        ]));
        assert_eq!(found, vec!["src/turn/x.rs:2: `twilight_model`"]);
    }

    #[test]
    fn sql_is_told_from_prose() {
        assert!(is_sql("SELECT id FROM task WHERE x = ?1"));
        assert!(is_sql("INSERT INTO inbox (a) VALUES (?1)"));
        assert!(is_sql("INSERT OR IGNORE INTO t (a) VALUES (1)"));
        assert!(is_sql("UPDATE task SET status = ?2"));
        assert!(is_sql("DELETE FROM inbox"));
        assert!(is_sql("CREATE TABLE t (id TEXT)"));
        assert!(is_sql("CREATE UNIQUE INDEX i ON t (id)"));
        assert!(is_sql("PRAGMA journal_mode"));
        assert!(!is_sql("select a task from the list"));
        assert!(!is_sql("SELECT"));
        assert!(!is_sql("UPDATE"));
        assert!(!is_sql("DELETED FROM the list"));
    }

    #[test]
    fn sql_literals_outside_store_modules_are_reported_even_inside_macros() {
        let found = check_sql(&files(&[
            (
                "src/tasks/repo.rs",
                "fn f() { q(\"SELECT id FROM task\"); }",
            ),
            (
                "src/turn/x.rs",
                "//! SELECT id FROM task in a header\n\
                 // DELETE FROM inbox in a comment\n\
                 /// PRAGMA in a doc comment\n\
                 fn f() {\n\
                     q(\"UPDATE task SET a = 1\");\n\
                     let s = format!(\"DELETE FROM {}\", t);\n\
                     q(r#\"SELECT \"x\" FROM y\"#);\n\
                     q(\"select nothing from prose\");\n\
                 }\n",
            ),
            ("tests/x.rs", "fn f() { q(\"PRAGMA x\"); }"),
        ]));
        assert_eq!(
            found,
            vec![
                "src/turn/x.rs:5: SQL \"UPDATE task SET a = 1\"",
                "src/turn/x.rs:6: SQL \"DELETE FROM {}\"",
                "src/turn/x.rs:7: SQL \"SELECT \\\"x\\\" FROM y\"",
            ]
        );
    }

    #[test]
    fn ignore_attributes_are_reported() {
        let found = check_ignore(&files(&[
            ("tests/a.rs", "#[test]\n#[ignore]\nfn a() {}\n"),
            (
                "tests/b.rs",
                "mod m {\n#[test]\n#[ignore = \"slow\"]\nfn b() {}\n}\n",
            ),
            ("tests/c.rs", "#[cfg_attr(not(x), ignore)]\nfn c() {}\n"),
            (
                "tests/d.rs",
                "// #[ignore]\nfn d() { let s = \"#[ignore]\"; let ignore = 1; }\n",
            ),
        ]));
        assert_eq!(
            found,
            vec![
                "tests/a.rs:2: `#[ignore]`",
                "tests/b.rs:3: `#[ignore]`",
                "tests/c.rs:1: `#[ignore]`",
            ]
        );
    }

    #[test]
    fn long_files_are_reported_with_their_limit() {
        let long = |n: usize| "x\n".repeat(n);
        let found = check_file_sizes(&files(&[
            ("src/a.rs", &long(500)),
            ("src/b.rs", &long(501)),
            ("src/tasks/when/mod.rs", &long(501)),
            ("src/turn/c.rs", &long(301)),
            ("src/turn/d.rs", &long(300)),
            ("tests/e.rs", &long(2000)),
        ]));
        assert_eq!(
            found,
            vec![
                "src/b.rs: 501 lines (limit 500)",
                "src/tasks/when/mod.rs: 501 lines (limit 500)",
                "src/turn/c.rs: 301 lines (limit 300)"
            ]
        );
    }

    #[test]
    fn donna_in_the_actors_code_is_reported_but_not_in_comments() {
        let found = check_actors_know_nothing_of_donna(&files(&[
            (
                "actors/src/lib.rs",
                "//! It knows nothing about Donna.\n\
                 // donna\n\
                 pub struct DonnaError;\n\
                 const PATH: &str = \"donna.lock\";\n\
                 const OK: &str = \"madonnas\";\n",
            ),
            ("actors/src/x.rs", "use donna::app::App;\n"),
        ]));
        assert_eq!(
            found,
            vec![
                "actors/src/lib.rs:3: `DonnaError`",
                "actors/src/lib.rs:4: `\"donna.lock\"`",
                "actors/src/x.rs:1: `donna`",
            ]
        );
    }
}

/// Where the two-segment path `first::second` (for any pair in `paths`) appears in code, in
/// files not under `allowed`.
fn paths_outside(files: &[SourceFile], allowed: &[&str], paths: &[(&str, &str)]) -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in files {
        if allowed.iter().any(|prefix| under(path, prefix)) {
            continue;
        }
        let tokens = match leaves(text) {
            Ok(tokens) => tokens,
            Err(error) => {
                out.push(format!("{}: cannot tokenize: {error}", path.display()));
                continue;
            }
        };
        for window in tokens.windows(4) {
            let (Some(first), Some(second)) = (window[0].ident(), window[3].ident()) else {
                continue;
            };
            let joined = window[1].is_punct(':') && window[2].is_punct(':');
            if joined && paths.contains(&(first.as_str(), second.as_str())) {
                out.push(format!(
                    "{}:{}: `{first}::{second}`",
                    path.display(),
                    window[0].line
                ));
            }
        }
    }
    out
}

/// The wall clock is read only in `src/clock.rs`; everything else asks the `Clock`, which tests
/// control (expiry, retention, undo window, timestamps).
pub fn check_wall_clock(files: &[SourceFile]) -> Vec<String> {
    paths_outside(
        files,
        &["src/clock.rs"],
        &[("Utc", "now"), ("Local", "now"), ("SystemTime", "now")],
    )
}

/// Environment variables are read only in `src/config/` (secrets come from the variables the
/// config names, through its `Env`).
pub fn check_environment(files: &[SourceFile]) -> Vec<String> {
    paths_outside(
        files,
        &["src/config"],
        &[("env", "var"), ("env", "var_os"), ("env", "vars")],
    )
}

#[cfg(test)]
mod clock_and_environment_tests {
    use super::*;
    use crate::source::fake_files;

    #[test]
    fn the_wall_clock_outside_clock_rs_is_reported() {
        let files = fake_files(&[
            ("src/clock.rs", "//! c\nfn now() { chrono::Utc::now(); }\n"),
            (
                "src/turn/x.rs",
                "//! x\nfn f() {\n    let t = Utc::now();\n}\n",
            ),
            (
                "src/turn/y.rs",
                "//! y\n// Utc::now() in a comment is fine\nfn g() {}\n",
            ),
        ]);
        assert_eq!(
            check_wall_clock(&files),
            vec!["src/turn/x.rs:3: `Utc::now`"]
        );
    }

    #[test]
    fn reading_the_environment_outside_config_is_reported() {
        let files = fake_files(&[
            (
                "src/config/mod.rs",
                "//! c\nfn v() { std::env::var(\"X\"); }\n",
            ),
            (
                "src/app/mod.rs",
                "//! a\nfn k() { std::env::var(\"KEY\"); }\n",
            ),
        ]);
        assert_eq!(
            check_environment(&files),
            vec!["src/app/mod.rs:2: `env::var`"]
        );
    }
}
