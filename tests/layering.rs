//! The layering, kept by a test (in the manner of rust-analyzer's tidy tests): it reads the
//! `crate::` and `super::` paths of every source file and fails on an edge the architecture
//! forbids or on an import circle. The layers, lowest first (ARCHITECTURE.md explains them):
//!
//! * `engine-core` (the rules), then `gtp` (the protocol): neither names anything above it;
//! * in the `tengen` crate, the foundations `clock`, `sgf`, `user_files`; then `player` (the
//!   trait the front end drives); then `search` (a player) beside `gtp_engine` (the front end,
//!   which reaches a player only through `player`) and beside `arena` (refereed games between
//!   GTP engines), the base of `match_runner` and `tournament`, which stand side by side
//!   without naming each other; none of the three sees a player; `cli`, `bench` and
//!   `train_patterns` on top.
//!
//! Test code (`tests.rs` files and the `#[cfg(test)]` part of a file) is not read.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The foundations: they may name each other (the circle test keeps them apart).
const FOUNDATIONS: &[&str] = &["clock", "sgf", "user_files"];

/// The top-level modules of the `tengen` crate each module may name besides the foundations;
/// every other edge is forbidden. The modules on top (`TOP`) may name anything.
const MAY_NAME: &[(&str, &[&str])] = &[
    ("clock", &[]),
    ("sgf", &[]),
    ("user_files", &[]),
    ("player", &[]),
    ("search", &["player"]),
    ("gtp_engine", &["player"]),
    ("arena", &[]),
    ("match_runner", &["arena"]),
    ("tournament", &["arena"]),
];

/// The modules that put the others together (and the crate's roots).
const TOP: &[&str] = &["cli", "bench", "train_patterns", "lib", "main"];

/// A source file of the crate: `gtp_engine/session` for src/gtp_engine/session.rs,
/// `search/mod` for src/search/mod.rs, `clock` for src/clock.rs.
type Node = String;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every non-test `.rs` file below `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("tests.rs") {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// The code of a file without comments and without its `#[cfg(test)]` part.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let text = text.split("#[cfg(test)]").next().unwrap();
    text.lines()
        .map(|line| line.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first path segments after each `prefix` (`crate::a::b`, `crate::{a::b, c}`).
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut found = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        let heads: Vec<&str> = match rest.strip_prefix('{') {
            Some(group) => group
                .split('}')
                .next()
                .unwrap()
                .split(',')
                .map(str::trim)
                .collect(),
            None => vec![rest],
        };
        for head in heads {
            let first = ident(head);
            let second = head
                .strip_prefix(&first)
                .and_then(|r| r.strip_prefix("::"))
                .map(ident)
                .unwrap_or_default();
            if !first.is_empty() {
                found.push(vec![first, second]);
            }
        }
    }
    found
}

/// The file a module path names: `a/b` if src/a/b.rs exists, else `a/mod` or `a`.
fn resolve(src: &Path, first: &str, second: &str) -> Option<Node> {
    if !second.is_empty() && src.join(first).join(format!("{second}.rs")).exists() {
        return Some(format!("{first}/{second}"));
    }
    if src.join(first).join("mod.rs").exists() {
        return Some(format!("{first}/mod"));
    }
    src.join(format!("{first}.rs"))
        .exists()
        .then(|| first.to_string())
}

/// The file-level import graph of the crate.
fn graph() -> BTreeMap<Node, BTreeSet<Node>> {
    let src = root().join("src");
    let mut edges: BTreeMap<Node, BTreeSet<Node>> = BTreeMap::new();
    for path in sources(&src) {
        let relative = path.strip_prefix(&src).unwrap().with_extension("");
        let node: Node = relative.to_string_lossy().into_owned();
        let code = code(&path);
        let mut targets: BTreeSet<Node> = paths_after(&code, "crate::")
            .into_iter()
            .filter_map(|p| resolve(&src, &p[0], &p[1]))
            .collect();
        if let Some((dir, _)) = node.split_once('/') {
            targets.extend(
                paths_after(&code, "super::")
                    .into_iter()
                    .filter_map(|p| resolve(&src, dir, &p[0])),
            );
        }
        if node == "main" {
            targets.extend(
                paths_after(&code, "tengen::")
                    .into_iter()
                    .filter_map(|p| resolve(&src, &p[0], &p[1])),
            );
        }
        targets.remove(&node);
        edges.insert(node, targets);
    }
    edges
}

fn top(node: &str) -> &str {
    node.split('/').next().unwrap()
}

#[test]
fn no_module_names_a_layer_above_it() {
    let mut wrong = Vec::new();
    for (from, targets) in graph() {
        if TOP.contains(&top(&from)) {
            continue;
        }
        let Some((_, may_name)) = MAY_NAME.iter().find(|(module, _)| *module == top(&from)) else {
            panic!(
                "module {} has no place in the layering: add it to MAY_NAME or TOP",
                top(&from)
            );
        };
        for to in &targets {
            let to_top = top(to);
            let allowed =
                to_top == top(&from) || FOUNDATIONS.contains(&to_top) || may_name.contains(&to_top);
            if !allowed {
                wrong.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(wrong.is_empty(), "forbidden imports: {wrong:#?}");
}

#[test]
fn the_lower_crates_name_nothing_above_them() {
    for (krate, above) in [
        ("engine-core", ["gtp::", "tengen::"]),
        ("gtp", ["tengen::", "tengen::"]),
    ] {
        for path in sources(&root().join(krate).join("src")) {
            let code = code(&path);
            for name in above {
                assert!(!code.contains(name), "{} names {name}", path.display());
            }
        }
    }
}

#[test]
fn no_import_circles() {
    let edges = graph();
    // Between top-level modules, and between the files of one module (a module's mod.rs is
    // its face: its children may name it and it names them).
    let mut modules: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (from, targets) in &edges {
        for to in targets {
            if top(from) != top(to) {
                modules.entry(top(from)).or_default().insert(top(to));
            }
        }
    }
    let files: BTreeMap<&str, BTreeSet<&str>> = edges
        .iter()
        .filter(|(from, _)| !from.ends_with("/mod"))
        .map(|(from, targets)| {
            let siblings = targets
                .iter()
                .filter(|to| top(to) == top(from) && !to.ends_with("/mod") && from.contains('/'))
                .map(String::as_str)
                .collect();
            (from.as_str(), siblings)
        })
        .collect();
    for (level, graph) in [("modules", &modules), ("files", &files)] {
        if let Some(cycle) = find_cycle(graph) {
            panic!("an import circle between {level}: {}", cycle.join(" -> "));
        }
    }
}

/// A cycle of `graph`, if it has one (depth-first search).
fn find_cycle<'a>(graph: &BTreeMap<&'a str, BTreeSet<&'a str>>) -> Option<Vec<&'a str>> {
    fn visit<'a>(
        node: &'a str,
        graph: &BTreeMap<&'a str, BTreeSet<&'a str>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<&'a str>> {
        if let Some(at) = path.iter().position(|n| *n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node);
            return Some(cycle);
        }
        if !done.insert(node) {
            return None;
        }
        path.push(node);
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_reader_sees_imports() {
    let edges = graph();
    assert!(edges["gtp_engine/session"].contains("player"), "{edges:#?}");
    assert!(edges["gtp_engine/gogui"].contains("gtp_engine/session"));
    assert!(edges["search/mod"].contains("player"));
}
