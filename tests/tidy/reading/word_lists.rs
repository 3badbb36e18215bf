//! Second copies of the shared word lists and of the zone table: collections of string
//! literals (arrays, slices, the alternatives of a pattern or a `matches!`) holding enough words
//! of a guarded list.

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::{self, Visit};

use super::{checked, parsed, GUARDED, LEXICON, ZONE_TABLE};
use crate::source::SourceFile;

/// A collection of string literals in the code: an array or slice (its strings, the first
/// string of each tuple, each nested array of strings as one phrase), or the alternatives of
/// a pattern.
#[derive(Default)]
struct Collections {
    found: Vec<(usize, Vec<String>)>,
}

fn string_of(expression: &syn::Expr) -> Option<String> {
    match expression {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(string),
            ..
        }) => Some(string.value()),
        syn::Expr::Reference(reference) => string_of(&reference.expr),
        syn::Expr::Tuple(tuple) => tuple.elems.first().and_then(string_of),
        syn::Expr::Array(array) => {
            let words: Option<Vec<String>> = array.elems.iter().map(string_of).collect();
            words.map(|words| words.join(" "))
        }
        _ => None,
    }
}

fn strings_of_pattern(pattern: &syn::Pat, out: &mut Vec<String>) {
    match pattern {
        syn::Pat::Lit(syn::ExprLit {
            lit: syn::Lit::Str(string),
            ..
        }) => out.push(string.value()),
        syn::Pat::Or(or) => or
            .cases
            .iter()
            .for_each(|case| strings_of_pattern(case, out)),
        syn::Pat::Reference(reference) => strings_of_pattern(&reference.pat, out),
        _ => {}
    }
}

impl<'ast> Visit<'ast> for Collections {
    outside_test_code!('ast);

    fn visit_expr_array(&mut self, array: &'ast syn::ExprArray) {
        let strings: Vec<String> = array.elems.iter().filter_map(string_of).collect();
        if strings.len() >= 2 {
            let line = array.bracket_token.span.open().start().line;
            self.found.push((line, strings));
        }
        visit::visit_expr_array(self, array);
    }

    fn visit_pat_or(&mut self, or: &'ast syn::PatOr) {
        let mut strings = Vec::new();
        or.cases
            .iter()
            .for_each(|case| strings_of_pattern(case, &mut strings));
        if strings.len() >= 2 {
            let line = or
                .cases
                .first()
                .map_or(0, |case| syn::spanned::Spanned::span(case).start().line);
            self.found.push((line, strings));
        }
        visit::visit_pat_or(self, or);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit::visit_macro(self, mac);
        // `matches!(word, "a" | "b" | "c")`: the string literals after the first comma.
        if mac.path.is_ident("matches") {
            let mut strings = Vec::new();
            let mut after_comma = false;
            collect_literals(mac.tokens.clone(), &mut after_comma, &mut strings);
            if strings.len() >= 2 {
                let line = mac
                    .path
                    .segments
                    .first()
                    .map_or(0, |segment| segment.ident.span().start().line);
                self.found.push((line, strings));
            }
        }
    }
}

fn collect_literals(tokens: TokenStream, after_comma: &mut bool, out: &mut Vec<String>) {
    for tree in tokens {
        match tree {
            TokenTree::Punct(punct) if punct.as_char() == ',' => *after_comma = true,
            TokenTree::Literal(literal) if *after_comma => {
                if let syn::Lit::Str(string) = syn::Lit::new(literal) {
                    out.push(string.value());
                }
            }
            TokenTree::Group(group) => collect_literals(group.stream(), after_comma, out),
            _ => {}
        }
    }
}

/// A word as lists are compared: lower case, a lexicon phrase's exact mark (`=forget`)
/// dropped; a past-form mark (`pay+`, "paid") is kept, so the base verb is no copy of it.
fn plain(word: &str) -> String {
    word.split(' ')
        .map(|part| part.trim_start_matches('='))
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A guarded list: its name, its words, and how many of them make a copy.
pub struct Guarded {
    pub name: String,
    pub words: Vec<String>,
    pub shared: usize,
}

/// The guarded lists ([`GUARDED`]), read from their sources: the strings of each list's own
/// array (a phrase given as an array of words is one entry).
pub fn guarded_lists(files: &[SourceFile]) -> Vec<Guarded> {
    let mut lists = Vec::new();
    for (path, text) in files {
        let Ok(file) = syn::parse_file(text) else {
            continue;
        };
        for item in &file.items {
            let syn::Item::Const(constant) = item else {
                continue;
            };
            let name = constant.ident.to_string();
            let Some((_, _, shared, phrases_only)) = GUARDED.iter().find(|(file, list, _, _)| {
                path.as_path() == std::path::Path::new(file) && *list == name
            }) else {
                continue;
            };
            let expr = match constant.expr.as_ref() {
                syn::Expr::Reference(reference) => reference.expr.as_ref(),
                other => other,
            };
            let syn::Expr::Array(array) = expr else {
                continue;
            };
            let words: Vec<String> = array
                .elems
                .iter()
                .filter_map(string_of)
                .filter(|word| !phrases_only || word.contains(' ') || word.ends_with('+'))
                .map(|word| plain(&word))
                .collect();
            let name = if path.as_path() == std::path::Path::new(ZONE_TABLE) {
                format!("the zone table ({ZONE_TABLE}:{name})")
            } else {
                format!("{}:{name}", path.display())
            };
            lists.push(Guarded {
                name,
                words,
                shared: *shared,
            });
        }
    }
    lists
}

/// Check 2: one definition of each list of words, and one zone table (see the module header).
pub fn check_word_lists(files: &[SourceFile]) -> Vec<String> {
    let lists = guarded_lists(files);
    let mut out = Vec::new();
    for (path, text) in files {
        if !checked(path, &[LEXICON, ZONE_TABLE]) {
            continue;
        }
        let Some(file) = parsed(path, text, &mut out) else {
            continue;
        };
        let mut collections = Collections::default();
        collections.visit_file(&file);
        for (line, words) in collections.found {
            let words: Vec<String> = words.iter().map(|word| plain(word)).collect();
            for list in &lists {
                let mut shared: Vec<&String> = words
                    .iter()
                    .filter(|word| list.words.contains(word))
                    .collect();
                shared.sort();
                shared.dedup();
                if shared.len() >= list.shared {
                    out.push(format!(
                        "{}:{line}: a second copy of {} ({})",
                        path.display(),
                        list.name,
                        shared
                            .iter()
                            .map(|word| format!("{word:?}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
        }
    }
    out
}
