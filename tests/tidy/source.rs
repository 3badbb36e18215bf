//! Reading the tree: the `.rs` files under some folders, and their code tokens (comments and
//! doc comments left out) with line numbers.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// A file as the checkers see it: its path relative to the workspace root, and its text.
pub type SourceFile = (PathBuf, String);

/// The workspace root (this package's manifest folder).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dirs` (relative to the root), recursively, sorted by path.
pub fn rust_files(dirs: &[&str]) -> Vec<SourceFile> {
    let root = root();
    let mut paths = Vec::new();
    for dir in dirs {
        collect(&root, &root.join(dir), &mut paths);
    }
    paths.sort();
    paths.dedup();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(root.join(&path))
                .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
            (path, text)
        })
        .collect()
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            if let Ok(relative) = path.strip_prefix(root) {
                out.push(relative.to_path_buf());
            }
        }
    }
}

/// The line a token starts on (1-based; needs proc-macro2's `span-locations`).
pub fn line_of(tree: &TokenTree) -> usize {
    tree.span().start().line
}

/// One code token: an identifier, a punctuation character or a literal, never a group.
#[derive(Debug, Clone)]
pub struct Leaf {
    pub tree: TokenTree,
    pub line: usize,
}

impl Leaf {
    pub fn ident(&self) -> Option<String> {
        match &self.tree {
            TokenTree::Ident(ident) => Some(ident.to_string()),
            _ => None,
        }
    }

    pub fn is_punct(&self, ch: char) -> bool {
        matches!(&self.tree, TokenTree::Punct(punct) if punct.as_char() == ch)
    }
}

/// The code tokens of a Rust text, flattened, in order. Comments are not tokens, and doc
/// comments (`#[doc = "..."]` / `#![doc = "..."]` once tokenized) are dropped: they are prose.
pub fn leaves(text: &str) -> Result<Vec<Leaf>, String> {
    let stream = TokenStream::from_str(text).map_err(|error| error.to_string())?;
    let mut out = Vec::new();
    flatten(stream, &mut out);
    Ok(out)
}

/// The code tokens of a token stream (e.g. a macro's input), flattened, doc attributes dropped.
pub fn flatten(stream: TokenStream, out: &mut Vec<Leaf>) {
    let trees: Vec<TokenTree> = stream.into_iter().collect();
    let mut i = 0;
    while i < trees.len() {
        if let Some(skip) = doc_attribute_len(&trees[i..]) {
            i += skip;
            continue;
        }
        match &trees[i] {
            TokenTree::Group(group) => flatten(group.stream(), out),
            tree => out.push(Leaf {
                tree: tree.clone(),
                line: line_of(tree),
            }),
        }
        i += 1;
    }
}

/// How many trees a doc attribute at the start of `trees` spans (`#` [`!`] `[doc ...]`).
fn doc_attribute_len(trees: &[TokenTree]) -> Option<usize> {
    let TokenTree::Punct(hash) = trees.first()? else {
        return None;
    };
    if hash.as_char() != '#' {
        return None;
    }
    let bang = matches!(trees.get(1), Some(TokenTree::Punct(p)) if p.as_char() == '!');
    let at = if bang { 2 } else { 1 };
    let TokenTree::Group(group) = trees.get(at)? else {
        return None;
    };
    let first = group.stream().into_iter().next();
    let is_doc = group.delimiter() == Delimiter::Bracket
        && matches!(first, Some(TokenTree::Ident(ident)) if ident == "doc");
    is_doc.then_some(at + 1)
}

/// Is `path` under `prefix` (component-wise: `src/app` covers `src/app/x.rs`, not `src/apps.rs`)?
pub fn under(path: &Path, prefix: &str) -> bool {
    path.starts_with(prefix)
}

/// A fake file list for the checkers' unit tests.
#[cfg(test)]
pub fn fake_files(list: &[(&str, &str)]) -> Vec<SourceFile> {
    list.iter()
        .map(|(path, text)| (PathBuf::from(path), text.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_doc_comments_are_not_code_tokens() {
        let text =
            "//! header serde_yaml\n// serde_yaml\n/// serde_yaml\nfn f() { serde_yaml::x(); }\n";
        let found: Vec<(String, usize)> = leaves(text)
            .unwrap_or_default()
            .iter()
            .filter_map(|leaf| leaf.ident().map(|ident| (ident, leaf.line)))
            .filter(|(ident, _)| ident == "serde_yaml")
            .collect();
        assert_eq!(found, vec![("serde_yaml".to_string(), 4)]);
    }

    #[test]
    fn a_prefix_covers_whole_components_only() {
        assert!(under(Path::new("src/app/x.rs"), "src/app"));
        assert!(under(Path::new("src/app.rs"), "src/app.rs"));
        assert!(!under(Path::new("src/apps.rs"), "src/app"));
    }
}
