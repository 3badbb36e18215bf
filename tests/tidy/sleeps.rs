//! Check 6: no test sleeps a fixed time and then asserts that nothing happened.
//!
//! A fixed sleep before an assertion "proves" a negative only on a fast, idle machine: under
//! load the event being ruled out may simply not have happened yet, and the test passes for
//! the wrong reason (or a positive check flakes). The rule, on the syntax tree:
//!
//! - Only test functions count: `#[test]`, `#[actix_rt::test]`, `#[tokio::test]` or
//!   `#[actix::test]`, in any module of the file. Helpers (polling loops such as `wait_healthy`
//!   or `until_ok`) are not tests.
//! - Only statements of the function's top-level block count. A statement sleeps when it calls
//!   `sleep(...)` (any path: `std::thread::sleep`, `actix_rt::time::sleep`, `tokio::time::sleep`)
//!   outside a loop, closure, async block, nested item or `spawn(...)` call: sleeps in those are
//!   polling or pacing (a loop that waits for a condition, load generators), not a wait whose
//!   end is an assertion.
//! - It is a violation when a later statement of that block asserts (`assert*!`, also inside
//!   `if`/`match`/loops of that statement, not inside closures or async blocks) before any
//!   statement waits on a condition (the polling helpers of tests/common: `eventually(...)`,
//!   `eventually_some(...)`, `wait_until(...)`, `wait_for(...)`, `wait_for_every(...)`;
//!   anywhere in the statement, macro arguments included). A wait in the same statement as the
//!   assertion (`assert!(eventually(...).await)`) counts as a wait: that assertion is proved by
//!   its condition, not by the sleep.

use proc_macro2::TokenTree;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

use crate::source::SourceFile;

const TEST_ATTRIBUTES: [&str; 4] = ["test", "actix_rt::test", "tokio::test", "actix::test"];
const WAITS: [&str; 5] = [
    "eventually",
    "eventually_some",
    "wait_until",
    "wait_for",
    "wait_for_every",
];

/// One line per violation: `path:line: sleeps ...`.
pub fn check_sleeps(files: &[SourceFile]) -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in files {
        let file = match syn::parse_file(text) {
            Ok(file) => file,
            Err(error) => {
                out.push(format!("{}: cannot parse: {error}", path.display()));
                continue;
            }
        };
        let mut tests = TestFns::default();
        tests.visit_file(&file);
        for (name, block) in tests.found {
            for (sleep, assert) in sleeps_then_asserts(&block.stmts) {
                out.push(format!(
                    "{}:{sleep}: `{name}` sleeps a fixed time, then asserts at line {assert} \
                     with no wait on a condition in between",
                    path.display()
                ));
            }
        }
    }
    out
}

/// (sleep line, assert line) for each sleeping statement of `stmts` followed by an assertion
/// before any wait.
fn sleeps_then_asserts(stmts: &[syn::Stmt]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, stmt) in stmts.iter().enumerate() {
        let mut sleeps = Sleeps::default();
        sleeps.visit_stmt(stmt);
        for sleep in sleeps.lines {
            for later in &stmts[i + 1..] {
                if waits(later) {
                    break;
                }
                let mut asserts = Asserts::default();
                asserts.visit_stmt(later);
                if let Some(assert) = asserts.lines.first() {
                    out.push((sleep, *assert));
                    break;
                }
            }
        }
    }
    out
}

/// The test functions of a file (free functions, in any inline module).
#[derive(Default)]
struct TestFns {
    found: Vec<(String, syn::Block)>,
}

impl<'ast> Visit<'ast> for TestFns {
    fn visit_item_fn(&mut self, function: &'ast syn::ItemFn) {
        let is_test = function.attrs.iter().any(|attribute| {
            let path = attribute
                .path()
                .segments
                .iter()
                .map(|segment| segment.ident.to_string())
                .collect::<Vec<_>>()
                .join("::");
            TEST_ATTRIBUTES.contains(&path.as_str())
        });
        if is_test {
            self.found
                .push((function.sig.ident.to_string(), (*function.block).clone()));
        }
        visit::visit_item_fn(self, function);
    }
}

fn last_segment(expr: &syn::Expr) -> Option<String> {
    match expr {
        syn::Expr::Path(path) => path
            .path
            .segments
            .last()
            .map(|segment| segment.ident.to_string()),
        _ => None,
    }
}

/// Sleep calls of a statement that run when the statement runs (see the module doc).
#[derive(Default)]
struct Sleeps {
    lines: Vec<usize>,
}

impl<'ast> Visit<'ast> for Sleeps {
    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        match last_segment(&call.func).as_deref() {
            Some("sleep") => self.lines.push(call.span().start().line),
            Some(name) if name.starts_with("spawn") => {}
            _ => visit::visit_expr_call(self, call),
        }
    }
    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
    fn visit_expr_async(&mut self, _: &'ast syn::ExprAsync) {}
    fn visit_expr_loop(&mut self, _: &'ast syn::ExprLoop) {}
    fn visit_expr_while(&mut self, _: &'ast syn::ExprWhile) {}
    fn visit_expr_for_loop(&mut self, _: &'ast syn::ExprForLoop) {}
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// `assert*!` invocations of a statement, outside closures, async blocks and nested items.
#[derive(Default)]
struct Asserts {
    lines: Vec<usize>,
}

impl<'ast> Visit<'ast> for Asserts {
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if let Some(last) = mac.path.segments.last() {
            if last.ident.to_string().starts_with("assert") {
                self.lines.push(last.ident.span().start().line);
            }
        }
    }
    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
    fn visit_expr_async(&mut self, _: &'ast syn::ExprAsync) {}
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// Does the statement wait on a condition (one of `WAITS`, e.g. `eventually(...)`), anywhere?
fn waits(stmt: &syn::Stmt) -> bool {
    let mut waits = Waits::default();
    waits.visit_stmt(stmt);
    waits.found
}

#[derive(Default)]
struct Waits {
    found: bool,
}

impl<'ast> Visit<'ast> for Waits {
    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        if last_segment(&call.func).is_some_and(|name| WAITS.contains(&name.as_str())) {
            self.found = true;
        }
        visit::visit_expr_call(self, call);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // Macro arguments are unparsed tokens: look for `eventually` followed by `(...)`.
        let trees: Vec<TokenTree> = mac.tokens.clone().into_iter().collect();
        self.found |= tokens_call_a_wait(&trees);
    }
}

fn tokens_call_a_wait(trees: &[TokenTree]) -> bool {
    trees.iter().enumerate().any(|(i, tree)| match tree {
        TokenTree::Ident(ident) => {
            WAITS.contains(&ident.to_string().as_str())
                && matches!(trees.get(i + 1), Some(TokenTree::Group(group))
                    if group.delimiter() == proc_macro2::Delimiter::Parenthesis)
        }
        TokenTree::Group(group) => {
            tokens_call_a_wait(&group.stream().into_iter().collect::<Vec<_>>())
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn check(text: &str) -> Vec<String> {
        check_sleeps(&[(PathBuf::from("tests/t.rs"), text.to_string())])
    }

    #[test]
    fn a_sleep_then_an_assert_is_reported() {
        let found = check(
            "#[actix_rt::test]\n\
             async fn t() {\n\
                 bot.clock.advance(d);\n\
                 actix_rt::time::sleep(ms(200)).await;\n\
                 let n = count().await;\n\
                 assert_eq!(n, 3);\n\
             }\n\
             #[test]\n\
             fn u() {\n\
                 std::thread::sleep(ms(5));\n\
                 if x { assert!(y) }\n\
             }\n",
        );
        assert_eq!(
            found,
            vec![
                "tests/t.rs:4: `t` sleeps a fixed time, then asserts at line 6 with no wait on a \
                 condition in between",
                "tests/t.rs:10: `u` sleeps a fixed time, then asserts at line 11 with no wait on \
                 a condition in between",
            ]
        );
    }

    #[test]
    fn waits_polling_loops_pacing_and_helpers_are_not_reported() {
        let found = check(
            "#[tokio::test]\n\
             async fn waits_first() {\n\
                 sleep(ms(100)).await;\n\
                 assert!(eventually(s(5), || async { done() }).await);\n\
                 assert_eq!(x, 1);\n\
             }\n\
             #[actix_rt::test]\n\
             async fn waits_between() {\n\
                 tokio::time::sleep(ms(100)).await;\n\
                 let ok = common::eventually(s(5), || async { done() }).await;\n\
                 assert!(ok);\n\
             }\n\
             #[test]\n\
             fn blocking_waits_between() {\n\
                 std::thread::sleep(ms(100));\n\
                 let found = wait_for(s(5), || probe());\n\
                 assert!(found.is_some());\n\
                 sleep(ms(100));\n\
                 assert!(wait_until(s(5), || ready()));\n\
             }\n\
             #[test]\n\
             fn polls() {\n\
                 while !ready() { std::thread::sleep(ms(20)); }\n\
                 for _ in 0..3 { sleep(ms(1)); }\n\
                 assert!(ready());\n\
             }\n\
             #[actix_rt::test]\n\
             async fn paces() {\n\
                 let chaos = actix_rt::spawn(async move { loop { sleep(ms(25)).await; } });\n\
                 let f = || sleep(ms(1));\n\
                 assert!(chaos.is_running());\n\
             }\n\
             #[actix_rt::test]\n\
             async fn no_assert_after() {\n\
                 assert!(x);\n\
                 sleep(ms(1)).await;\n\
             }\n\
             fn helper() {\n\
                 std::thread::sleep(ms(50));\n\
                 assert!(x);\n\
             }\n",
        );
        assert_eq!(found, Vec::<String>::new());
    }

    #[test]
    fn tests_in_inline_modules_count() {
        let found = check(
            "mod inner {\n\
                 #[actix::test]\n\
                 async fn t() {\n\
                     sleep(ms(1)).await;\n\
                     assert!(nothing_happened());\n\
                 }\n\
             }\n",
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("tests/t.rs:4: `t`"), "{found:?}");
    }
}
