//! The invariants ARCHITECTURE.md states are guarded by tests that exist: every backticked
//! test name in its `## Invariants` section (a snake_case name of four words or more, which is
//! how tests are named here) must be the name of a `fn` in tests/, actors/tests/ or src/.

use std::collections::BTreeSet;

use crate::source::{leaves, SourceFile};

/// The backticked names in the `## Invariants` section that look like test names.
pub fn named_tests(markdown: &str) -> Result<Vec<String>, String> {
    let start = markdown
        .find("\n## Invariants\n")
        .ok_or("ARCHITECTURE.md has no `## Invariants` section")?;
    let section = &markdown[start + 1..];
    let end = section[3..].find("\n## ").map_or(section.len(), |i| i + 3);
    let section = &section[..end];
    let mut names = Vec::new();
    for (index, piece) in section.split('`').enumerate() {
        let looks_like_a_test = index % 2 == 1
            && piece.split('_').count() >= 4
            && piece
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if looks_like_a_test {
            names.push(piece.to_string());
        }
    }
    if names.is_empty() {
        return Err("the `## Invariants` section names no test".into());
    }
    Ok(names)
}

/// Every function name defined in the files.
pub fn function_names(files: &[SourceFile]) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (_, text) in files {
        let Ok(tokens) = leaves(text) else { continue };
        for pair in tokens.windows(2) {
            if pair[0].ident().as_deref() == Some("fn") {
                if let Some(name) = pair[1].ident() {
                    names.insert(name);
                }
            }
        }
    }
    names
}

/// The named tests that no file defines.
pub fn missing_tests(markdown: &str, files: &[SourceFile]) -> Result<Vec<String>, String> {
    let defined = function_names(files);
    Ok(named_tests(markdown)?
        .into_iter()
        .filter(|name| !defined.contains(name))
        .map(|name| format!("ARCHITECTURE.md names `{name}`, which no test defines"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::fake_files;

    const MARKDOWN: &str = "# A\n\n## Invariants\n- **One:** `tests/x.rs`: \
        `the_first_thing_holds`, and `the_second_thing_holds`; see `Pipeline::commit`.\n\n\
        ## Later\n`not_an_invariant_test_name`\n";

    #[test]
    fn a_named_test_that_does_not_exist_is_reported() {
        let files = fake_files(&[(
            "tests/x.rs",
            "//! x\n#[test]\nfn the_first_thing_holds() {}\n",
        )]);
        assert_eq!(
            missing_tests(MARKDOWN, &files),
            Ok(vec![
                "ARCHITECTURE.md names `the_second_thing_holds`, which no test defines".into()
            ])
        );
    }

    #[test]
    fn only_test_like_names_of_the_invariants_section_count() {
        assert_eq!(
            named_tests(MARKDOWN),
            Ok(vec![
                "the_first_thing_holds".to_string(),
                "the_second_thing_holds".to_string()
            ])
        );
    }
}
