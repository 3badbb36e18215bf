//! Check 7a: the file-level import graph of the `donna` crate (`src/`).
//!
//! An edge F -> G means: F names a path that resolves into file G. Paths come from `use` items
//! (`crate::`, `super::`, `self::`, and `child::` where `child` is a module declared in that
//! scope, which is what a 2018-edition relative path means), from paths in code and types
//! (`crate::a::b::Item` written inline), and from `crate::`/`$crate::`/`super::` token
//! sequences inside macro invocations, whose tokens syn does not parse. `mod x;` declarations
//! are not edges; an edge from a file to itself is ignored.
//!
//! Resolution: a path is made absolute (`super` pops the current module, inline `mod` blocks
//! included), then lands on the deepest file it names: `crate::a::b::c` is `src/a/b/c.rs` or
//! `src/a/b/c/mod.rs` if there is one, else `src/a/b.rs` (or `.../b/mod.rs`), else `src/a.rs`
//! (`src/a/mod.rs`). When it lands on a file with `pub use child::...` re-exports and its next
//! segment is a name so re-exported (by name, or by a glob whose child defines that name), it
//! continues from the child's path, so `crate::actions::ActionRegistry` is an edge to
//! `src/actions/registry.rs`, not to the facade. `crate::name` for a `#[macro_export]` macro
//! lands on the file that defines the macro. `src/main.rs` is its own crate: `donna::` is the
//! library root there.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use syn::visit::{self, Visit};

use crate::source::{flatten, SourceFile};

type ModPath = Vec<String>;

/// Edges between files, with the first line in the source file that makes each one.
#[derive(Debug, Default)]
pub struct Graph {
    pub edges: BTreeMap<(PathBuf, PathBuf), usize>,
}

/// The module path of a file under `src/`: `src/lib.rs` (and `src/main.rs`) is the root,
/// `src/a.rs` and `src/a/mod.rs` are `a`, `src/a/b.rs` is `a::b`.
pub fn module_path(path: &Path) -> Option<ModPath> {
    let relative = path.strip_prefix("src").ok()?;
    let mut parts: Vec<String> = relative
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    let file = parts.pop()?;
    let stem = file.strip_suffix(".rs")?;
    match stem {
        "mod" => {}
        "lib" | "main" if parts.is_empty() => {}
        _ => parts.push(stem.to_string()),
    }
    Some(parts)
}

/// The top-level module a file of `src/` belongs to (`lib` and `main` for the crate roots).
pub fn top_module(path: &Path) -> Option<String> {
    let relative = path.strip_prefix("src").ok()?;
    let first = relative.iter().next()?.to_string_lossy().into_owned();
    Some(first.strip_suffix(".rs").unwrap_or(&first).to_string())
}

/// A path of a `use` tree, with the line of its first segment; `glob` for `path::*`.
struct UseLeaf {
    path: Vec<String>,
    alias: Option<String>,
    glob: bool,
    line: usize,
}

fn flatten_use(tree: &syn::UseTree, prefix: &mut Vec<syn::Ident>, out: &mut Vec<UseLeaf>) {
    let leaf = |prefix: &[syn::Ident], last: Option<&syn::Ident>, alias, glob| {
        let mut path: Vec<String> = prefix.iter().map(ToString::to_string).collect();
        path.extend(last.map(ToString::to_string));
        let first = prefix.first().or(last);
        UseLeaf {
            path,
            alias,
            glob,
            line: first.map_or(0, |ident| ident.span().start().line),
        }
    };
    match tree {
        syn::UseTree::Path(path) => {
            prefix.push(path.ident.clone());
            flatten_use(&path.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(name) if name.ident == "self" => {
            let alias = prefix.last().map(ToString::to_string);
            out.push(leaf(prefix, None, alias, false));
        }
        syn::UseTree::Name(name) => {
            out.push(leaf(
                prefix,
                Some(&name.ident),
                Some(name.ident.to_string()),
                false,
            ));
        }
        syn::UseTree::Rename(rename) if rename.ident == "self" => {
            out.push(leaf(prefix, None, Some(rename.rename.to_string()), false));
        }
        syn::UseTree::Rename(rename) => {
            let alias = Some(rename.rename.to_string());
            out.push(leaf(prefix, Some(&rename.ident), alias, false));
        }
        syn::UseTree::Glob(_) => out.push(leaf(prefix, None, None, true)),
        syn::UseTree::Group(group) => {
            for item in &group.items {
                flatten_use(item, prefix, out);
            }
        }
    }
}

fn use_leaves(item: &syn::ItemUse) -> Vec<UseLeaf> {
    let mut out = Vec::new();
    if item.leading_colon.is_none() {
        flatten_use(&item.tree, &mut Vec::new(), &mut out);
    }
    out
}

/// Names of the modules declared (`mod x;` or `mod x { ... }`) among `items`.
fn child_modules(items: &[syn::Item]) -> HashSet<String> {
    items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Mod(module) => Some(module.ident.to_string()),
            _ => None,
        })
        .collect()
}

/// What other files need to know about one file to resolve paths into it.
struct FileInfo {
    module: ModPath,
    ast: syn::File,
    /// `pub use child::X as Y`: Y -> absolute path of X.
    reexports: HashMap<String, ModPath>,
    /// `pub use child::*`: the absolute path of `child`.
    globs: Vec<ModPath>,
    /// Names its top-level items define (for glob re-exports).
    defines: HashSet<String>,
}

fn item_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Const(item) => &item.ident,
        syn::Item::Enum(item) => &item.ident,
        syn::Item::Fn(item) => &item.sig.ident,
        syn::Item::Macro(item) => item.ident.as_ref()?,
        syn::Item::Mod(item) => &item.ident,
        syn::Item::Static(item) => &item.ident,
        syn::Item::Struct(item) => &item.ident,
        syn::Item::Trait(item) => &item.ident,
        syn::Item::Type(item) => &item.ident,
        syn::Item::Union(item) => &item.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

fn file_info(path: &Path, ast: syn::File) -> FileInfo {
    let module = module_path(path).unwrap_or_default();
    let children = child_modules(&ast.items);
    let mut reexports = HashMap::new();
    let mut globs = Vec::new();
    let mut defines: HashSet<String> = ast.items.iter().filter_map(item_name).collect();
    for item in &ast.items {
        let syn::Item::Use(item) = item else { continue };
        if matches!(item.vis, syn::Visibility::Inherited) {
            continue;
        }
        for leaf in use_leaves(item) {
            // Only re-exports of the file's own submodules: `child::...` or `self::child::...`.
            let relative = match leaf.path.first().map(String::as_str) {
                Some("self") => &leaf.path[1..],
                _ => &leaf.path[..],
            };
            if !relative
                .first()
                .is_some_and(|first| children.contains(first))
            {
                continue;
            }
            let mut absolute = module.clone();
            absolute.extend(relative.iter().cloned());
            if leaf.glob {
                globs.push(absolute);
            } else if let Some(alias) = leaf.alias {
                defines.insert(alias.clone());
                reexports.insert(alias, absolute);
            }
        }
    }
    FileInfo {
        module,
        ast,
        reexports,
        globs,
        defines,
    }
}

/// The `#[macro_export]` macros a file defines, at any depth (they live at the crate root).
#[derive(Default)]
struct ExportedMacros {
    names: Vec<String>,
}

impl<'ast> Visit<'ast> for ExportedMacros {
    fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
        let exported = item
            .attrs
            .iter()
            .any(|attribute| attribute.path().is_ident("macro_export"));
        if let (true, Some(ident)) = (exported, &item.ident) {
            self.names.push(ident.to_string());
        }
    }
}

struct Scope {
    path: ModPath,
    children: HashSet<String>,
}

/// The absolute paths one file names, with their lines.
struct Refs {
    scopes: Vec<Scope>,
    /// `src/main.rs`: its own crate; the library is `donna::` there.
    bin: bool,
    found: Vec<(ModPath, usize)>,
}

impl Refs {
    fn absolutize(&self, segments: &[String]) -> Option<ModPath> {
        let scope = self.scopes.last()?;
        let (mut base, rest) = match segments.first()?.as_str() {
            "crate" if self.bin => return None,
            "crate" => (Vec::new(), &segments[1..]),
            "donna" if self.bin => (Vec::new(), &segments[1..]),
            "self" => (scope.path.clone(), &segments[1..]),
            "super" => {
                let mut base = scope.path.clone();
                let mut at = 0;
                while segments.get(at).is_some_and(|segment| segment == "super") {
                    base.pop()?;
                    at += 1;
                }
                (base, &segments[at..])
            }
            name if scope.children.contains(name) => (scope.path.clone(), segments),
            _ => return None,
        };
        base.extend(rest.iter().cloned());
        Some(base)
    }

    fn push(&mut self, segments: &[String], line: usize) {
        if let Some(path) = self.absolutize(segments) {
            self.found.push((path, line));
        }
    }

    /// `crate :: a :: b` (also `$crate`) and `super :: a` sequences in a macro's tokens.
    fn macro_tokens(&mut self, tokens: proc_macro2::TokenStream) {
        let mut leaves = Vec::new();
        flatten(tokens, &mut leaves);
        for (i, leaf) in leaves.iter().enumerate() {
            let Some(first) = leaf
                .ident()
                .filter(|ident| ident == "crate" || ident == "super")
            else {
                continue;
            };
            let mut segments = vec![first];
            let mut at = i + 1;
            while leaves.get(at).is_some_and(|l| l.is_punct(':'))
                && leaves.get(at + 1).is_some_and(|l| l.is_punct(':'))
            {
                match leaves.get(at + 2).and_then(|l| l.ident()) {
                    Some(ident) => segments.push(ident),
                    None => break,
                }
                at += 3;
            }
            if segments.len() > 1 {
                self.push(&segments, leaf.line);
            }
        }
    }
}

impl<'ast> Visit<'ast> for Refs {
    fn visit_item_mod(&mut self, module: &'ast syn::ItemMod) {
        let Some((_, items)) = &module.content else {
            return;
        };
        let mut path = self
            .scopes
            .last()
            .map(|s| s.path.clone())
            .unwrap_or_default();
        path.push(module.ident.to_string());
        self.scopes.push(Scope {
            path,
            children: child_modules(items),
        });
        visit::visit_item_mod(self, module);
        self.scopes.pop();
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        for leaf in use_leaves(item) {
            self.push(&leaf.path, leaf.line);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() && path.segments.len() >= 2 {
            let segments: Vec<String> = path
                .segments
                .iter()
                .map(|segment| segment.ident.to_string())
                .collect();
            let line = path.segments[0].ident.span().start().line;
            self.push(&segments, line);
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit::visit_macro(self, mac);
        self.macro_tokens(mac.tokens.clone());
    }
}

/// Everything needed to resolve an absolute module path to a file.
struct Crate {
    files: BTreeMap<PathBuf, FileInfo>,
    by_module: HashMap<ModPath, PathBuf>,
    macros: HashMap<String, PathBuf>,
}

impl Crate {
    fn resolve(&self, path: &[String], depth: usize) -> Option<PathBuf> {
        if depth > 16 {
            return None;
        }
        let (file, rest) = (0..=path.len()).rev().find_map(|k| {
            self.by_module
                .get(&path[..k])
                .map(|file| (file, &path[k..]))
        })?;
        let info = self.files.get(file)?;
        if let Some(name) = rest.first() {
            if let Some(target) = info.reexports.get(name) {
                let mut next = target.clone();
                next.extend(rest[1..].iter().cloned());
                return self.resolve(&next, depth + 1);
            }
            for glob in &info.globs {
                let defines = self
                    .by_module
                    .get(glob)
                    .and_then(|child| self.files.get(child))
                    .is_some_and(|child| child.defines.contains(name));
                if defines {
                    let mut next = glob.clone();
                    next.extend(rest.iter().cloned());
                    return self.resolve(&next, depth + 1);
                }
            }
            if info.module.is_empty() {
                if let Some(file) = self.macros.get(name) {
                    return Some(file.clone());
                }
            }
        }
        Some(file.clone())
    }
}

/// Builds the file-level graph of the `src/` files among `files` (others are ignored).
pub fn build_graph(files: &[SourceFile]) -> Result<Graph, Vec<String>> {
    let mut errors = Vec::new();
    let mut krate = Crate {
        files: BTreeMap::new(),
        by_module: HashMap::new(),
        macros: HashMap::new(),
    };
    for (path, text) in files {
        let Some(module) = module_path(path) else {
            continue;
        };
        let ast = match syn::parse_file(text) {
            Ok(ast) => ast,
            Err(error) => {
                errors.push(format!("{}: cannot parse: {error}", path.display()));
                continue;
            }
        };
        let mut macros = ExportedMacros::default();
        macros.visit_file(&ast);
        for name in macros.names {
            krate.macros.insert(name, path.clone());
        }
        if path != Path::new("src/main.rs") {
            krate.by_module.insert(module, path.clone());
        }
        krate.files.insert(path.clone(), file_info(path, ast));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut graph = Graph::default();
    for (path, info) in &krate.files {
        let mut refs = Refs {
            scopes: vec![Scope {
                path: info.module.clone(),
                children: child_modules(&info.ast.items),
            }],
            bin: path == Path::new("src/main.rs"),
            found: Vec::new(),
        };
        refs.visit_file(&info.ast);
        for (target, line) in refs.found {
            let Some(to) = krate.resolve(&target, 0) else {
                continue;
            };
            if &to != path {
                let first = graph.edges.entry((path.clone(), to)).or_insert(line);
                *first = (*first).min(line);
            }
        }
    }
    Ok(graph)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::fake_files as files;

    fn edges(list: &[(&str, &str)]) -> Vec<String> {
        let graph = build_graph(&files(list)).unwrap_or_else(|errors| panic!("{errors:?}"));
        graph
            .edges
            .iter()
            .map(|((from, to), line)| format!("{}:{line} -> {}", from.display(), to.display()))
            .collect()
    }

    #[test]
    fn module_paths_and_top_modules() {
        assert_eq!(module_path(Path::new("src/lib.rs")), Some(vec![]));
        assert_eq!(module_path(Path::new("src/a.rs")), Some(vec!["a".into()]));
        assert_eq!(
            module_path(Path::new("src/a/mod.rs")),
            Some(vec!["a".into()])
        );
        assert_eq!(
            module_path(Path::new("src/a/b.rs")),
            Some(vec!["a".into(), "b".into()])
        );
        assert_eq!(top_module(Path::new("src/a/b.rs")).as_deref(), Some("a"));
        assert_eq!(
            top_module(Path::new("src/main.rs")).as_deref(),
            Some("main")
        );
    }

    #[test]
    fn paths_resolve_to_the_deepest_file_and_through_re_exports() {
        let found = edges(&[
            ("src/lib.rs", "pub mod a;\npub mod b;\npub mod m;\n"),
            (
                "src/a/mod.rs",
                "pub mod x;\nmod y;\npub use x::{Thing, Other as Renamed};\npub use y::*;\n\
                 pub struct Own;\n",
            ),
            ("src/a/x.rs", "pub struct Thing;\npub struct Other;\n"),
            ("src/a/y.rs", "use super::Own;\npub fn globbed() {}\n"),
            (
                "src/b.rs",
                "use crate::a::Thing;\n\
                 fn f() -> crate::a::Renamed { crate::a::globbed(); todo!() }\n\
                 fn g() -> crate::a::Own { crate::limited!(crate::a::x::Thing); todo!() }\n\
                 mod inner { use super::super::a::y; }\n\
                 mod c { fn h() { let _ = self::f; } }\n",
            ),
            (
                "src/m.rs",
                "#[macro_export]\nmacro_rules! limited { () => {} }\n",
            ),
            ("src/main.rs", "fn main() { donna::b::run(); }\n"),
        ]);
        assert_eq!(
            found,
            vec![
                // `pub use x::...` and `pub use y::*` in the facade name its children.
                "src/a/mod.rs:3 -> src/a/x.rs",
                "src/a/mod.rs:4 -> src/a/y.rs",
                "src/a/y.rs:1 -> src/a/mod.rs",
                "src/b.rs:3 -> src/a/mod.rs",
                "src/b.rs:1 -> src/a/x.rs",
                "src/b.rs:2 -> src/a/y.rs",
                "src/b.rs:3 -> src/m.rs",
                "src/main.rs:1 -> src/b.rs",
            ]
        );
    }
}
