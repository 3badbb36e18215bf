//! References to documents: every `*.md` file the code, the tests, the config, the scripts or
//! the docs name must exist in the repository (the contract lives in `docs/contract.md`, not in
//! a folder beside the clone), and nothing points outside it (`../`).

use std::path::{Path, PathBuf};

use super::source::{root, SourceFile};

/// Every file under `dirs` (and the top-level files named in `dirs` too) whose name ends in one
/// of `extensions`, relative to the root, with its text.
pub fn files_with(dirs: &[&str], extensions: &[&str]) -> Vec<SourceFile> {
    let root = root();
    let mut paths = Vec::new();
    for dir in dirs {
        collect(&root, &root.join(dir), extensions, &mut paths);
    }
    paths.sort();
    paths.dedup();
    paths
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(root.join(&path)).ok()?;
            Some((path, text))
        })
        .collect()
}

fn collect(root: &Path, path: &Path, extensions: &[&str], out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            // Build output and checkouts of other repositories are not ours.
            if name == "target" || name == ".git" {
                continue;
            }
            collect(root, &entry.path(), extensions, out);
        }
    } else if extensions
        .iter()
        .any(|ext| path.to_string_lossy().ends_with(ext))
    {
        if let Ok(relative) = path.strip_prefix(root) {
            out.push(relative.to_path_buf());
        }
    }
}

/// The `*.md` names a text mentions, with their line numbers.
fn mentioned_documents(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        for word in line.split(|c: char| !(c.is_alphanumeric() || "._/-".contains(c))) {
            let word = word.trim_end_matches('.');
            // A relative path names the same document from another folder ("../README.md").
            let word = word.trim_start_matches("../").trim_start_matches("./");
            let word = word.trim_start_matches('/');
            if word.ends_with(".md") && word.len() > 3 {
                found.push((index + 1, word.to_string()));
            }
        }
    }
    found
}

/// Every mention of a document that is not in `existing` (matched by its path's end:
/// "contract.md" or "docs/contract.md" both name docs/contract.md), and every path that
/// leaves the repository ("../").
pub fn check_document_references(files: &[SourceFile], existing: &[PathBuf]) -> Vec<String> {
    let existing: Vec<String> = existing
        .iter()
        .map(|path| path.to_string_lossy().replace('\\', "/"))
        .collect();
    let mut violations = Vec::new();
    // This file's own tests hold bad references on purpose.
    let this_file = Path::new("tests/tidy/documents.rs");
    for (path, text) in files.iter().filter(|(path, _)| path != this_file) {
        for (line, name) in mentioned_documents(text) {
            let known = existing
                .iter()
                .any(|doc| doc == &name || doc.ends_with(&format!("/{name}")));
            if !known {
                violations.push(format!(
                    "{}:{line}: names {name}, which is not in the repository",
                    path.display()
                ));
            }
        }
        for (index, line) in text.lines().enumerate() {
            if line.contains("../shared") {
                violations.push(format!(
                    "{}:{}: points outside the repository (../shared)",
                    path.display(),
                    index + 1
                ));
            }
        }
    }
    violations
}

/// Every line that points at a tracker a clone does not have: "issue 17", "issues 34, 40",
/// "seed 002". A comment says what is true and why, in its own words.
pub fn check_tracker_tags(files: &[SourceFile]) -> Vec<String> {
    let mut violations = Vec::new();
    for (path, text) in files {
        for (index, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            let tagged = ["issue ", "issues ", "seed "].iter().any(|tag| {
                lower.match_indices(tag).any(|(at, _)| {
                    let before = lower[..at].chars().next_back();
                    let after = lower[at + tag.len()..].chars().next();
                    !before.is_some_and(char::is_alphanumeric)
                        && after.is_some_and(|c| c.is_ascii_digit())
                })
            });
            if tagged {
                violations.push(format!("{}:{}: {}", path.display(), index + 1, line.trim()));
            }
        }
    }
    violations
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_issue_or_seed_tag_is_named_and_plain_words_pass() {
        let files = vec![
            (
                PathBuf::from("src/a.rs"),
                "//! The planner (seed 003): tools\n// fixed in issue 17\n".to_string(),
            ),
            (
                PathBuf::from("src/b.rs"),
                "//! An issue of the store; a seed of 3 bytes; issues arise\n".to_string(),
            ),
        ];
        let violations = check_tracker_tags(&files);
        assert_eq!(violations.len(), 2, "{violations:?}");
        assert!(violations[0].starts_with("src/a.rs:1:"), "{violations:?}");
        assert!(violations[1].starts_with("src/a.rs:2:"), "{violations:?}");
    }

    #[test]
    fn a_missing_document_or_a_path_outside_is_named_and_existing_ones_pass() {
        let existing = vec![
            PathBuf::from("docs/contract.md"),
            PathBuf::from("README.md"),
        ];
        let files = vec![
            (
                PathBuf::from("src/a.rs"),
                "//! See docs/contract.md \"Consent\" and README.md.\n".to_string(),
            ),
            (
                PathBuf::from("src/b.rs"),
                "//! The contract (DESIGN.md \"Times\")\n//! ../shared/x\n".to_string(),
            ),
            (
                PathBuf::from("src/c.rs"),
                "//! contract.md's \"A turn\"\n".to_string(),
            ),
        ];
        let violations = check_document_references(&files, &existing);
        assert_eq!(
            violations,
            vec![
                "src/b.rs:1: names DESIGN.md, which is not in the repository".to_string(),
                "src/b.rs:2: points outside the repository (../shared)".to_string(),
            ]
        );
    }
}
