//! One place analyses a turn's message: `Sentence::read` calls elsewhere in `src/`.

use syn::visit::{self, Visit};

use super::{checked, parsed, ANALYSIS, SENTENCE};
use crate::source::SourceFile;

/// Calls of `Sentence::read`, with their lines.
#[derive(Default)]
struct Analyses {
    found: Vec<usize>,
}

impl<'ast> Visit<'ast> for Analyses {
    outside_test_code!('ast);

    fn visit_expr_path(&mut self, path: &'ast syn::ExprPath) {
        let segments: Vec<String> = path
            .path
            .segments
            .iter()
            .map(|segment| segment.ident.to_string())
            .collect();
        if segments.ends_with(&["Sentence".to_string(), "read".to_string()]) {
            let line = path
                .path
                .segments
                .first()
                .map_or(0, |segment| segment.ident.span().start().line);
            self.found.push(line);
        }
        visit::visit_expr_path(self, path);
    }
}

/// Check 3: a turn's message is analysed in one place (see the module header).
pub fn check_one_analysis(files: &[SourceFile]) -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in files {
        if !checked(path, &[SENTENCE, ANALYSIS]) {
            continue;
        }
        let Some(file) = parsed(path, text, &mut out) else {
            continue;
        };
        let mut analyses = Analyses::default();
        analyses.visit_file(&file);
        for line in analyses.found {
            out.push(format!(
                "{}:{line}: `Sentence::read`: a message is analysed once, in {ANALYSIS}",
                path.display()
            ));
        }
    }
    out
}
