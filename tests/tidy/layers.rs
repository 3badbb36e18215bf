//! Check 7c: layering. The layer order and its allowed exceptions are read from the
//! `## Layers` section of ARCHITECTURE.md (machine-readable lists between HTML comments); an
//! edge of the import graph from a lower layer's file to a higher layer's file is a violation.

use std::collections::BTreeSet;
use std::path::Path;

use crate::graph::{top_module, Graph};
use crate::source::SourceFile;

/// The layers, lowest first (modules of one layer together), and the allowed up-edges.
#[derive(Debug, Default, PartialEq)]
pub struct Layers {
    pub order: Vec<Vec<String>>,
    pub exceptions: Vec<Exception>,
}

/// An allowed edge from a lower layer's file to a higher layer's file.
#[derive(Debug, PartialEq)]
pub struct Exception {
    pub from: String,
    pub to: String,
    pub reason: String,
}

impl Layers {
    /// The layer index of a top-level module (0 is the lowest), if it is listed.
    pub fn rank(&self, module: &str) -> Option<usize> {
        self.order
            .iter()
            .position(|layer| layer.iter().any(|name| name == module))
    }
}

/// The lines strictly between `<!-- {tag}` (any text after the tag) and `<!-- /{tag} -->`.
fn block<'a>(section: &'a str, tag: &str) -> Result<Vec<&'a str>, String> {
    let open = format!("<!-- {tag}");
    let close = format!("<!-- /{tag} -->");
    let mut lines = section.lines();
    lines
        .by_ref()
        .find(|line| {
            let line = line.trim();
            line.starts_with(&open) && !line.starts_with(&close)
        })
        .ok_or_else(|| format!("no `{open} ... -->` line in the `## Layers` section"))?;
    let mut out = Vec::new();
    for line in lines {
        if line.trim() == close {
            return Ok(out);
        }
        out.push(line);
    }
    Err(format!("no closing `{close}` in the `## Layers` section"))
}

/// Parses the `## Layers` section of ARCHITECTURE.md.
pub fn parse_layers(markdown: &str) -> Result<Layers, String> {
    let start = markdown
        .find("\n## Layers\n")
        .ok_or("ARCHITECTURE.md has no `## Layers` section")?;
    let rest = &markdown[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |at| at + 3);
    let section = &rest[..end];

    let mut layers = Layers::default();
    for line in block(section, "layers")? {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let item = line
            .strip_prefix("- ")
            .ok_or_else(|| format!("layers: not a list item: {line:?}"))?;
        let names = item.split_once(':').map_or(item, |(names, _)| names);
        let layer: Vec<String> = names
            .split(',')
            .map(|name| name.trim().trim_matches('`').to_string())
            .collect();
        if layer.iter().any(|name| name.is_empty()) {
            return Err(format!("layers: an empty module name in {line:?}"));
        }
        if let Some(twice) = layer.iter().find(|name| layers.rank(name).is_some()) {
            return Err(format!("layers: `{twice}` is listed twice"));
        }
        layers.order.push(layer);
    }
    for line in block(section, "exceptions")? {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let item = line
            .strip_prefix("- ")
            .ok_or_else(|| format!("exceptions: not a list item: {line:?}"))?;
        let (edge, reason) = item
            .split_once(": ")
            .ok_or_else(|| format!("exceptions: no `: reason` in {line:?}"))?;
        let (from, to) = edge
            .split_once(" -> ")
            .ok_or_else(|| format!("exceptions: no `from -> to` in {line:?}"))?;
        layers.exceptions.push(Exception {
            from: from.trim().trim_matches('`').to_string(),
            to: to.trim().trim_matches('`').to_string(),
            reason: reason.trim().to_string(),
        });
    }
    Ok(layers)
}

/// Check 7c: no edge from a lower layer's file to a higher layer's file unless it is an allowed
/// exception; at most one exception; every top-level module of `src/` placed in a layer; no
/// exception that no longer matches an up-edge.
pub fn check_layers(graph: &Graph, layers: &Layers, files: &[SourceFile]) -> Vec<String> {
    let mut out = Vec::new();
    let modules: BTreeSet<String> = files
        .iter()
        .filter_map(|(path, _)| top_module(path))
        .collect();
    for module in &modules {
        if layers.rank(module).is_none() {
            out.push(format!(
                "module `{module}` is not in the layer list: place it in a layer"
            ));
        }
    }
    if layers.exceptions.len() > 1 {
        out.push(format!(
            "{} exceptions are listed; at most one is allowed: fix the edges instead",
            layers.exceptions.len()
        ));
    }
    let mut used = vec![false; layers.exceptions.len()];
    for ((from, to), line) in &graph.edges {
        let (Some(low), Some(high)) = (top_module(from), top_module(to)) else {
            continue;
        };
        let (Some(low_rank), Some(high_rank)) = (layers.rank(&low), layers.rank(&high)) else {
            continue;
        };
        if low_rank >= high_rank {
            continue;
        }
        let allowed = layers.exceptions.iter().position(|exception| {
            Path::new(&exception.from) == from && Path::new(&exception.to) == to
        });
        match allowed {
            Some(at) => used[at] = true,
            None => out.push(format!(
                "{}:{line} -> {}: `{low}` (layer {}) must not depend on `{high}` (layer {})",
                from.display(),
                to.display(),
                low_rank + 1,
                high_rank + 1
            )),
        }
    }
    for (exception, used) in layers.exceptions.iter().zip(used) {
        if !used {
            out.push(format!(
                "exception {} -> {} matches no up-edge any more: remove it",
                exception.from, exception.to
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::build_graph;
    use crate::source::fake_files as files;

    const DOC: &str = "# A\n\n## Layers\nLowest first.\n\n\
        <!-- layers: lowest first; tests/tidy.rs reads this list -->\n\
        - `clock`, `ids`: utilities\n\
        - `store`: SQLite\n\
        - `cli`, `main`, `lib`: the top\n\
        <!-- /layers -->\n\n\
        Allowed exceptions:\n\
        <!-- exceptions -->\n\
        - src/store/a.rs -> src/cli.rs: a reason\n\
        <!-- /exceptions -->\n\n\
        ## Next\n- `not`: a layer\n";

    #[test]
    fn the_layer_list_and_its_exceptions_are_read() {
        let layers = parse_layers(DOC).unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(layers.order.len(), 3);
        assert_eq!(layers.rank("ids"), Some(0));
        assert_eq!(layers.rank("store"), Some(1));
        assert_eq!(layers.rank("lib"), Some(2));
        assert_eq!(layers.rank("not"), None);
        assert_eq!(
            layers.exceptions,
            vec![Exception {
                from: "src/store/a.rs".into(),
                to: "src/cli.rs".into(),
                reason: "a reason".into()
            }]
        );
    }

    #[test]
    fn a_missing_section_or_a_bad_line_is_an_error() {
        assert!(parse_layers("# A\n## Other\n").is_err());
        assert!(parse_layers(&DOC.replace("- `store`: SQLite", "store")).is_err());
        assert!(parse_layers(&DOC.replace("<!-- /exceptions -->", "")).is_err());
        assert!(parse_layers(&DOC.replace("- `store`: SQLite", "- `store`, `ids`: x")).is_err());
    }

    fn two_layers(exceptions: Vec<Exception>) -> Layers {
        Layers {
            order: vec![
                vec!["store".into()],
                vec!["turn".into()],
                vec!["lib".into(), "main".into()],
            ],
            exceptions,
        }
    }

    #[test]
    fn a_lower_to_higher_edge_is_reported_unless_excepted() {
        let list = files(&[
            ("src/lib.rs", "pub mod store;\npub mod turn;\n"),
            (
                "src/store.rs",
                "pub struct S;\nfn f(_: crate::turn::T) {}\n",
            ),
            ("src/turn/mod.rs", "use crate::store::S;\npub struct T;\n"),
        ]);
        let graph = build_graph(&list).unwrap_or_else(|errors| panic!("{errors:?}"));
        assert_eq!(
            check_layers(&graph, &two_layers(Vec::new()), &list),
            vec!["src/store.rs:2 -> src/turn/mod.rs: `store` (layer 1) must not depend on `turn` (layer 2)"]
        );
        let excepted = vec![Exception {
            from: "src/store.rs".into(),
            to: "src/turn/mod.rs".into(),
            reason: "for now".into(),
        }];
        assert!(check_layers(&graph, &two_layers(excepted), &list).is_empty());
    }

    #[test]
    fn unplaced_modules_too_many_and_stale_exceptions_are_reported() {
        let list = files(&[
            ("src/lib.rs", "pub mod store;\npub mod extra;\n"),
            ("src/store.rs", "pub struct S;\n"),
            ("src/extra.rs", "use crate::store::S;\n"),
        ]);
        let graph = build_graph(&list).unwrap_or_else(|errors| panic!("{errors:?}"));
        let exception = |from: &str| Exception {
            from: from.into(),
            to: "src/turn/mod.rs".into(),
            reason: "r".into(),
        };
        let found = check_layers(
            &graph,
            &two_layers(vec![exception("src/store.rs"), exception("src/x.rs")]),
            &list,
        );
        assert_eq!(
            found,
            vec![
                "module `extra` is not in the layer list: place it in a layer",
                "2 exceptions are listed; at most one is allowed: fix the edges instead",
                "exception src/store.rs -> src/turn/mod.rs matches no up-edge any more: remove it",
                "exception src/x.rs -> src/turn/mod.rs matches no up-edge any more: remove it",
            ]
        );
    }
}
