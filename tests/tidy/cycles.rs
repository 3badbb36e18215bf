//! Check 7b: no import cycle between the files of `src/`. Every elementary cycle is listed
//! once (Tarjan's strongly connected components, then the simple paths from each file back to
//! itself through larger files of its component), as a path of files.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

use crate::graph::Graph;

/// Check 7b: every elementary cycle, as `a.rs:L -> b.rs:M -> a.rs` (each line is where that
/// file names the next), each listed once, starting at its smallest path.
pub fn check_cycles(graph: &Graph) -> Vec<String> {
    let nodes: Vec<&PathBuf> = graph
        .edges
        .keys()
        .flat_map(|(from, to)| [from, to])
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let index: HashMap<&PathBuf, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut next = vec![Vec::new(); nodes.len()];
    for (from, to) in graph.edges.keys() {
        next[index[from]].push(index[to]);
    }
    let component = strongly_connected(&next);

    let mut cycles = Vec::new();
    let mut budget = 200_000usize;
    for start in 0..nodes.len() {
        let mut path = vec![start];
        let mut on_path = vec![false; nodes.len()];
        on_path[start] = true;
        let mut search = CycleSearch {
            next: &next,
            component: &component,
            start,
            budget: &mut budget,
            found: &mut cycles,
        };
        search.from(start, &mut path, &mut on_path);
    }
    let mut out: Vec<String> = cycles
        .iter()
        .map(|cycle| {
            let mut text = String::new();
            for (i, &node) in cycle.iter().enumerate() {
                let after = cycle[(i + 1) % cycle.len()];
                let line = graph.edges[&(nodes[node].clone(), nodes[after].clone())];
                text.push_str(&format!("{}:{line} -> ", nodes[node].display()));
            }
            text.push_str(&nodes[cycle[0]].display().to_string());
            text
        })
        .collect();
    if budget == 0 {
        out.push("(more cycles not listed: the search gave up)".to_string());
    }
    out
}

struct CycleSearch<'a> {
    next: &'a [Vec<usize>],
    component: &'a [usize],
    start: usize,
    budget: &'a mut usize,
    found: &'a mut Vec<Vec<usize>>,
}

impl CycleSearch<'_> {
    /// Simple paths from `start` through nodes after it, in its strongly connected component.
    fn from(&mut self, node: usize, path: &mut Vec<usize>, on_path: &mut [bool]) {
        for &after in &self.next[node] {
            if after < self.start || self.component[after] != self.component[self.start] {
                continue;
            }
            if after == self.start {
                self.found.push(path.clone());
                continue;
            }
            if on_path[after] || *self.budget == 0 {
                continue;
            }
            *self.budget -= 1;
            path.push(after);
            on_path[after] = true;
            self.from(after, path, on_path);
            on_path[after] = false;
            path.pop();
        }
    }
}

/// Tarjan's strongly connected components: a component id per node.
fn strongly_connected(next: &[Vec<usize>]) -> Vec<usize> {
    struct State<'a> {
        next: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        counter: usize,
        component: Vec<usize>,
        components: usize,
    }
    fn visit(state: &mut State<'_>, node: usize) {
        state.index[node] = Some(state.counter);
        state.low[node] = state.counter;
        state.counter += 1;
        state.stack.push(node);
        state.on_stack[node] = true;
        for &after in &state.next[node] {
            match state.index[after] {
                None => {
                    visit(state, after);
                    state.low[node] = state.low[node].min(state.low[after]);
                }
                Some(index) if state.on_stack[after] => {
                    state.low[node] = state.low[node].min(index);
                }
                Some(_) => {}
            }
        }
        if Some(state.low[node]) == state.index[node] {
            while let Some(member) = state.stack.pop() {
                state.on_stack[member] = false;
                state.component[member] = state.components;
                if member == node {
                    break;
                }
            }
            state.components += 1;
        }
    }
    let n = next.len();
    let mut state = State {
        next,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        counter: 0,
        component: vec![0; n],
        components: 0,
    };
    for node in 0..n {
        if state.index[node].is_none() {
            visit(&mut state, node);
        }
    }
    state.component
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::build_graph;
    use crate::source::fake_files as files;

    #[test]
    fn a_two_file_cycle_is_reported() {
        let graph = build_graph(&files(&[
            ("src/lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
            ("src/a.rs", "use crate::b::B;\npub struct A;\n"),
            ("src/b.rs", "pub struct B;\n\nfn f(_: crate::a::A) {}\n"),
            ("src/c.rs", "use crate::a::A;\n"),
        ]))
        .unwrap_or_else(|errors| panic!("{errors:?}"));
        assert_eq!(
            check_cycles(&graph),
            vec!["src/a.rs:1 -> src/b.rs:3 -> src/a.rs"]
        );
    }

    #[test]
    fn an_acyclic_graph_has_no_cycles_and_every_cycle_is_listed_once() {
        let graph = build_graph(&files(&[
            ("src/lib.rs", "pub mod a;\npub mod b;\n"),
            ("src/a.rs", "use crate::b::B;\n"),
            ("src/b.rs", "pub struct B;\n"),
        ]))
        .unwrap_or_else(|errors| panic!("{errors:?}"));
        assert!(check_cycles(&graph).is_empty());

        let graph = build_graph(&files(&[
            ("src/lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
            (
                "src/a.rs",
                "use crate::b::B;\nuse crate::c::C;\npub struct A;\n",
            ),
            (
                "src/b.rs",
                "use crate::c::C;\nuse crate::a::A;\npub struct B;\n",
            ),
            ("src/c.rs", "use crate::a::A;\npub struct C;\n"),
        ]))
        .unwrap_or_else(|errors| panic!("{errors:?}"));
        assert_eq!(
            check_cycles(&graph),
            vec![
                "src/a.rs:1 -> src/b.rs:2 -> src/a.rs",
                "src/a.rs:1 -> src/b.rs:1 -> src/c.rs:1 -> src/a.rs",
                "src/a.rs:2 -> src/c.rs:1 -> src/a.rs",
            ]
        );
    }
}
