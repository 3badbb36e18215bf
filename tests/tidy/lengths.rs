//! Lengths a reader can hold: no function in `src/` over 100 lines, no test file over 600.
//!
//! A function is measured from its `fn` keyword to its closing brace (attributes and doc
//! comments are not counted; a nested function counts inside its parent too). Test code in
//! `#[cfg(test)]` modules and `#[test]` functions is left out: its tables are long by design.
//!
//! Today's long pieces are frozen in allow lists (`LONG_FUNCTIONS`, `LONG_TEST_FILES`) that may
//! only shrink: an entry fails when its piece grows past the length it was frozen at, and when
//! the piece is gone or back under the limit (then the entry is to be deleted). The lists end
//! empty.

use std::path::Path;

use syn::visit::{self, Visit};

use crate::source::{under, SourceFile};

/// The longest a function in `src/` may be, in lines.
pub const FUNCTION_LIMIT: usize = 100;
/// The longest a test file may be, in lines.
pub const TEST_FILE_LIMIT: usize = 600;

/// Functions over the limit when the guard landed: (file, `Type::name` or `name`, its length
/// then). Split them and delete their line; never add one.
pub const LONG_FUNCTIONS: &[(&str, &str, usize)] = &[];

/// Test files over the limit when the guard landed: (file, its length then).
pub const LONG_TEST_FILES: &[(&str, usize)] = &[];

/// One function of a file: where it is, what it is called, how long it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionLength {
    pub name: String,
    pub line: usize,
    pub lines: usize,
}

/// Every function of a Rust text outside test code, with its length.
pub fn function_lengths(text: &str) -> Result<Vec<FunctionLength>, String> {
    let file = syn::parse_file(text).map_err(|error| error.to_string())?;
    let mut visitor = Lengths {
        owner: Vec::new(),
        out: Vec::new(),
    };
    visitor.visit_file(&file);
    Ok(visitor.out)
}

struct Lengths {
    /// The `impl` or `trait` the visitor is inside (its type's last path segment).
    owner: Vec<String>,
    out: Vec<FunctionLength>,
}

impl Lengths {
    fn record(&mut self, name: &syn::Ident, fn_token: &syn::token::Fn, block: &syn::Block) {
        let first = fn_token.span.start().line;
        let last = block.brace_token.span.close().end().line;
        let name = match self.owner.last() {
            Some(owner) => format!("{owner}::{name}"),
            None => name.to_string(),
        };
        self.out.push(FunctionLength {
            name,
            line: first,
            lines: last.saturating_sub(first) + 1,
        });
    }
}

/// `#[test]`, or `#[cfg(test)]` (any `cfg` whose tokens name `test`).
pub fn is_test_code(attributes: &[syn::Attribute]) -> bool {
    attributes.iter().any(|attribute| {
        let path = attribute.path();
        if path.is_ident("test") {
            return true;
        }
        path.is_ident("cfg")
            && attribute.meta.require_list().is_ok_and(|list| {
                list.tokens
                    .to_string()
                    .split_whitespace()
                    .any(|t| t == "test")
            })
    })
}

/// The name an `impl` block's functions are listed under: the type's last path segment
/// (`impl Display for crate::x::Task` gives `Task`), through references; `_` for other types.
fn type_name(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(path) => path
            .path
            .segments
            .last()
            .map(|segment| segment.ident.to_string())
            .unwrap_or_else(|| "_".to_string()),
        syn::Type::Reference(reference) => type_name(&reference.elem),
        _ => "_".to_string(),
    }
}

impl<'ast> Visit<'ast> for Lengths {
    fn visit_item_mod(&mut self, module: &'ast syn::ItemMod) {
        if !is_test_code(&module.attrs) {
            visit::visit_item_mod(self, module);
        }
    }

    fn visit_item_fn(&mut self, function: &'ast syn::ItemFn) {
        if is_test_code(&function.attrs) {
            return;
        }
        self.record(&function.sig.ident, &function.sig.fn_token, &function.block);
        visit::visit_item_fn(self, function);
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        if is_test_code(&item.attrs) {
            return;
        }
        self.owner.push(type_name(&item.self_ty));
        visit::visit_item_impl(self, item);
        self.owner.pop();
    }

    fn visit_impl_item_fn(&mut self, function: &'ast syn::ImplItemFn) {
        if is_test_code(&function.attrs) {
            return;
        }
        self.record(&function.sig.ident, &function.sig.fn_token, &function.block);
        visit::visit_impl_item_fn(self, function);
    }

    fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
        self.owner.push(item.ident.to_string());
        visit::visit_item_trait(self, item);
        self.owner.pop();
    }

    fn visit_trait_item_fn(&mut self, function: &'ast syn::TraitItemFn) {
        if let Some(block) = &function.default {
            self.record(&function.sig.ident, &function.sig.fn_token, block);
        }
        visit::visit_trait_item_fn(self, function);
    }
}

/// No function in `src/` over `FUNCTION_LIMIT` lines but those frozen in `allowed`, none of
/// those grown, and no entry of `allowed` that is no longer needed.
pub fn check_function_lengths(
    files: &[SourceFile],
    allowed: &[(&str, &str, usize)],
) -> Vec<String> {
    let mut out = Vec::new();
    let mut used = vec![false; allowed.len()];
    for (path, text) in files {
        if !under(path, "src") {
            continue;
        }
        let functions = match function_lengths(text) {
            Ok(functions) => functions,
            Err(error) => {
                out.push(format!("{}: cannot parse: {error}", path.display()));
                continue;
            }
        };
        for function in functions {
            if function.lines <= FUNCTION_LIMIT {
                continue;
            }
            let entry = allowed
                .iter()
                .position(|(file, name, _)| Path::new(file) == path && *name == function.name);
            match entry {
                Some(index) => {
                    used[index] = true;
                    let frozen = allowed[index].2;
                    if function.lines > frozen {
                        out.push(format!(
                            "{}:{}: `{}` grew to {} lines (frozen at {frozen}, limit \
                             {FUNCTION_LIMIT})",
                            path.display(),
                            function.line,
                            function.name,
                            function.lines
                        ));
                    }
                }
                None => out.push(format!(
                    "{}:{}: `{}` is {} lines (limit {FUNCTION_LIMIT})",
                    path.display(),
                    function.line,
                    function.name,
                    function.lines
                )),
            }
        }
    }
    for (index, (file, name, _)) in allowed.iter().enumerate() {
        if !used[index] {
            out.push(format!(
                "{file}: `{name}` is no longer over {FUNCTION_LIMIT} lines (or is gone): delete \
                 its line from the allow list"
            ));
        }
    }
    out
}

/// No test file over `TEST_FILE_LIMIT` lines but those frozen in `allowed`, none of those
/// grown, and no entry of `allowed` that is no longer needed.
pub fn check_test_file_lengths(files: &[SourceFile], allowed: &[(&str, usize)]) -> Vec<String> {
    let mut out = Vec::new();
    let mut used = vec![false; allowed.len()];
    for (path, text) in files {
        let lines = text.lines().count();
        if lines <= TEST_FILE_LIMIT {
            continue;
        }
        match allowed.iter().position(|(file, _)| Path::new(file) == path) {
            Some(index) => {
                used[index] = true;
                let frozen = allowed[index].1;
                if lines > frozen {
                    out.push(format!(
                        "{}: grew to {lines} lines (frozen at {frozen}, limit {TEST_FILE_LIMIT})",
                        path.display()
                    ));
                }
            }
            None => out.push(format!(
                "{}: {lines} lines (limit {TEST_FILE_LIMIT})",
                path.display()
            )),
        }
    }
    for (index, (file, _)) in allowed.iter().enumerate() {
        if !used[index] {
            out.push(format!(
                "{file}: no longer over {TEST_FILE_LIMIT} lines (or gone): delete its line from \
                 the allow list"
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::fake_files as files;

    fn body(lines: usize) -> String {
        "    let _ = 1;\n".repeat(lines.saturating_sub(2))
    }

    #[test]
    fn functions_are_measured_from_fn_to_the_closing_brace_and_tests_are_left_out() {
        let text = format!(
            "//! x\n/// doc\n#[inline]\nfn short() {{\n}}\nstruct S;\nimpl S {{\n    fn method() \
             {{\n{}    }}\n}}\n#[cfg(test)]\nmod tests {{\n    fn helper() {{\n{}    }}\n}}\n\
             #[test]\nfn a_test() {{\n{}}}\n",
            body(5),
            body(200),
            body(200)
        );
        let found = function_lengths(&text).unwrap_or_default();
        let names: Vec<(&str, usize)> = found
            .iter()
            .map(|function| (function.name.as_str(), function.lines))
            .collect();
        assert_eq!(names, vec![("short", 2), ("S::method", 5)]);
    }

    #[test]
    fn a_long_function_is_reported_unless_frozen_and_a_frozen_one_may_not_grow() {
        let long = format!("//! x\nfn long() {{\n{}}}\n", body(120));
        let longer = format!("//! x\nfn long() {{\n{}}}\n", body(130));
        let listed = [("src/a.rs", "long", 120)];
        assert_eq!(
            check_function_lengths(&files(&[("src/a.rs", &long)]), &[]).len(),
            1,
            "an unlisted long function is reported"
        );
        assert!(check_function_lengths(&files(&[("src/a.rs", &long)]), &listed).is_empty());
        let grown = check_function_lengths(&files(&[("src/a.rs", &longer)]), &listed);
        assert!(grown.len() == 1 && grown[0].contains("grew"), "{grown:?}");
        assert!(
            check_function_lengths(&files(&[("tests/a.rs", &long)]), &[]).is_empty(),
            "only src/ is measured"
        );
    }

    #[test]
    fn an_allow_list_entry_that_is_no_longer_needed_is_reported() {
        let short = "//! x\nfn long() {\n}\n";
        let found =
            check_function_lengths(&files(&[("src/a.rs", short)]), &[("src/a.rs", "long", 120)]);
        assert!(found.len() == 1 && found[0].contains("delete"), "{found:?}");
    }

    #[test]
    fn long_test_files_are_reported_unless_frozen_and_may_only_shrink() {
        let long = "x\n".repeat(700);
        let longer = "x\n".repeat(710);
        let fine = "x\n".repeat(600);
        assert_eq!(
            check_test_file_lengths(&files(&[("tests/it/a.rs", &long)]), &[]).len(),
            1
        );
        assert!(check_test_file_lengths(&files(&[("tests/it/a.rs", &fine)]), &[]).is_empty());
        let listed = [("tests/it/a.rs", 700)];
        assert!(check_test_file_lengths(&files(&[("tests/it/a.rs", &long)]), &listed).is_empty());
        assert_eq!(
            check_test_file_lengths(&files(&[("tests/it/a.rs", &longer)]), &listed).len(),
            1
        );
        let gone = check_test_file_lengths(&files(&[("tests/it/a.rs", &fine)]), &listed);
        assert!(gone.len() == 1 && gone[0].contains("delete"), "{gone:?}");
    }
}
