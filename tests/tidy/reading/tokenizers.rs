//! Tokenizing outside the one tokenizer: `split_whitespace`, a `split` on a class of
//! characters, a `char_indices` walk that tests one.

use syn::visit::{self, Visit};

use super::{checked, parsed, SENTENCE};
use crate::lengths::is_test_code;
use crate::source::SourceFile;

pub const NOT_WORDS: &[(&str, &str)] = &[
    ("src/metrics/process.rs", "the fields of /proc lines"),
    (
        "src/store/query_plan.rs",
        "the words of SQLite's EXPLAIN QUERY PLAN lines",
    ),
    (
        "src/discord/split.rs",
        "cutting a long reply at a space, below Discord's 2,000 characters",
    ),
    (
        "src/store/query_plan.rs",
        "the words of SQLite's EXPLAIN QUERY PLAN lines",
    ),
];

/// Methods that split a text on a class of characters.
const SPLITTERS: &[&str] = &[
    "split",
    "rsplit",
    "split_terminator",
    "rsplit_terminator",
    "splitn",
    "rsplitn",
    "split_inclusive",
];

/// Character classes a tokenizer splits on.
const CLASSES: &[&str] = &[
    "is_alphanumeric",
    "is_alphabetic",
    "is_whitespace",
    "is_ascii_alphanumeric",
    "is_ascii_alphabetic",
    "is_ascii_whitespace",
    "is_ascii_punctuation",
];

#[derive(Default)]
struct NamesAClass(bool);

impl<'ast> Visit<'ast> for NamesAClass {
    fn visit_ident(&mut self, ident: &'ast proc_macro2::Ident) {
        self.0 |= CLASSES.contains(&ident.to_string().as_str());
    }
}

/// Tokenizing outside the one tokenizer, with the line of each.
#[derive(Default)]
struct Tokenizing {
    found: Vec<(usize, String)>,
}

impl Tokenizing {
    fn function(&mut self, attributes: &[syn::Attribute], body: &syn::Block) {
        if is_test_code(attributes) {
            return;
        }
        let mut calls = Calls::default();
        calls.visit_block(body);
        let mut class = NamesAClass::default();
        class.visit_block(body);
        let tests_a_class = class.0;
        for (line, method, classed) in calls.found {
            let tokenizing = match method.as_str() {
                "split_whitespace" | "split_ascii_whitespace" => true,
                "char_indices" => tests_a_class,
                name => SPLITTERS.contains(&name) && classed,
            };
            if tokenizing {
                self.found.push((line, method));
            }
        }
    }
}

impl<'ast> Visit<'ast> for Tokenizing {
    fn visit_item_mod(&mut self, module: &'ast syn::ItemMod) {
        if !is_test_code(&module.attrs) {
            visit::visit_item_mod(self, module);
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.function(&item.attrs, &item.block);
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.function(&item.attrs, &item.block);
    }
}

/// The method calls of a function: (line, method, whether its arguments name a class).
#[derive(Default)]
struct Calls {
    found: Vec<(usize, String, bool)>,
}

impl<'ast> Visit<'ast> for Calls {
    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        let mut class = NamesAClass::default();
        call.args
            .iter()
            .for_each(|argument| class.visit_expr(argument));
        let classed = class.0;
        self.found.push((
            call.method.span().start().line,
            call.method.to_string(),
            classed,
        ));
        visit::visit_expr_method_call(self, call);
    }
}

/// Check 1: no tokenizer but the one (see the module header).
pub fn check_tokenizers(files: &[SourceFile]) -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in files {
        let not_words: Vec<&str> = NOT_WORDS.iter().map(|(file, _)| *file).collect();
        if !checked(path, &[&[SENTENCE][..], &not_words].concat()) {
            continue;
        }
        let Some(file) = parsed(path, text, &mut out) else {
            continue;
        };
        let mut tokenizing = Tokenizing::default();
        tokenizing.visit_file(&file);
        for (line, method) in tokenizing.found {
            out.push(format!(
                "{}:{line}: `{method}` splits text into words",
                path.display()
            ));
        }
    }
    out
}
