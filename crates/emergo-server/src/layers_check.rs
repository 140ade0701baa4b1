//! The check that the server's modules keep their layers (docs/architecture.md): it reads the
//! crate's own source, takes every `crate::…` and `super::…` path of every file, and finds
//!
//! - a **cycle** of modules: a strongly connected component of more than one module, unless one
//!   of its members is a parent of all the others (a module with its own submodules);
//! - an import that runs **up** the layers: services → http → app, each using only those before
//!   it (and itself); domain and store, below them, are the emergo-platform crate, whose
//!   dependencies keep it from importing anything here;
//! - a module that uses the **crate root**, which only declares and re-exports.
//!
//! Run it alone with `cargo test --workspace --lib layers`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first; a module's layer is its first path segment.
const LAYERS: [&str; 3] = ["services", "http", "app"];

/// Module path (`services::games::flag`; the root is "") → the file's text.
fn modules(src: &Path) -> BTreeMap<String, String> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<String, String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("the crate's src/ can be read")
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                let mut p = prefix.to_vec();
                p.push(name);
                walk(&path, &p, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let mut p = prefix.to_vec();
                if !(name == "mod" || (prefix.is_empty() && name == "lib")) {
                    p.push(name);
                }
                let text = std::fs::read_to_string(&path).expect("a source file can be read");
                out.insert(p.join("::"), text);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, &[], &mut out);
    out
}

/// The text without comments (line comments, doc comments included) and string literals, so
/// that a path in a comment or a message is not an import.
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => in_string = false,
                '\n' => out.push('\n'),
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '\'' => {
                // A char literal ('"', '\'') or a lifetime ('a): skip a literal whole.
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with('\\') {
                    for n in chars.by_ref() {
                        if n == '\'' {
                            break;
                        }
                    }
                } else if rest.chars().nth(1) == Some('\'') {
                    chars.next();
                    chars.next();
                }
                out.push(' ');
            }
            '/' if chars.peek() == Some(&'/') => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// Every path that starts at `crate::` or `super::` in `code`, as segments (`super` kept), with
/// use-trees (`crate::{a, b::{c, d}}`) expanded.
fn paths(code: &str) -> Vec<Vec<String>> {
    let tokens: Vec<String> = {
        let mut t = Vec::new();
        let mut chars = code.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c.is_alphanumeric() || c == '_' {
                let mut end = i + c.len_utf8();
                while let Some(&(j, n)) = chars.peek() {
                    if n.is_alphanumeric() || n == '_' {
                        end = j + n.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                t.push(code[i..end].to_string());
            } else if c == ':' && chars.peek().map(|p| p.1) == Some(':') {
                chars.next();
                t.push("::".into());
            } else if !c.is_whitespace() {
                t.push(c.to_string());
            }
        }
        t
    };
    // One use-tree from tokens[i] (just after a `::`), prefixed by `prefix`.
    fn tree(tokens: &[String], mut i: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
        let mut path = prefix;
        loop {
            match tokens.get(i).map(String::as_str) {
                Some("{") => {
                    i += 1;
                    loop {
                        tree(tokens, i, path.clone(), out);
                        // Skip to this item's end: the `,` or `}` at depth 0.
                        let mut depth = 0;
                        while let Some(t) = tokens.get(i) {
                            match t.as_str() {
                                "{" => depth += 1,
                                "}" if depth == 0 => break,
                                "}" => depth -= 1,
                                "," if depth == 0 => break,
                                _ => {}
                            }
                            i += 1;
                        }
                        match tokens.get(i).map(String::as_str) {
                            Some(",") => i += 1,
                            _ => return,
                        }
                        if tokens.get(i).map(String::as_str) == Some("}") {
                            return;
                        }
                    }
                }
                Some(t) if t.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                    if t != "self" {
                        path.push(t.to_string());
                    }
                    if tokens.get(i + 1).map(String::as_str) == Some("::") {
                        i += 2;
                        continue;
                    }
                    out.push(path);
                    return;
                }
                _ => {
                    out.push(path);
                    return;
                }
            }
        }
    }
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let start = t == "crate" || t == "super";
        let preceded = i > 0 && tokens[i - 1] == "::";
        if start && !preceded && tokens.get(i + 1).map(String::as_str) == Some("::") {
            tree(&tokens, i + 2, vec![t.clone()], &mut out);
        }
    }
    out
}

/// Which module a path names: the longest prefix of it that is a module, else the root ("").
fn target(from: &str, path: &[String], known: &BTreeSet<String>) -> String {
    let mut segments: Vec<String> = Vec::new();
    let mut rest = path;
    if rest.first().map(String::as_str) == Some("crate") {
        rest = &rest[1..];
    } else {
        segments = from
            .split("::")
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        while rest.first().map(String::as_str) == Some("super") {
            segments.pop();
            rest = &rest[1..];
        }
    }
    segments.extend(rest.iter().cloned());
    (1..=segments.len())
        .rev()
        .map(|n| segments[..n].join("::"))
        .find(|m| known.contains(m))
        .unwrap_or_default()
}

fn layer(module: &str) -> Option<usize> {
    let first = module.split("::").next()?;
    LAYERS.iter().position(|l| *l == first)
}

fn is_ancestor(parent: &str, child: &str) -> bool {
    parent.is_empty() || child.starts_with(&format!("{parent}::"))
}

/// The edges module → module it imports.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules(src);
    let known: BTreeSet<String> = modules.keys().cloned().collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, text) in &modules {
        // A module's unit tests are not part of its imports.
        let text = match text.find("#[cfg(test)]\nmod tests") {
            Some(at) => &text[..at],
            None => text,
        };
        let entry = edges.entry(module.clone()).or_default();
        for path in paths(&code_only(text)) {
            let to = target(module, &path, &known);
            if &to != module {
                entry.insert(to);
            }
        }
    }
    edges
}

/// Strongly connected components (Tarjan), each sorted.
fn components(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Tarjan<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.edges.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.edges.contains_key(w) {
                    continue;
                }
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.on_stack.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                component.sort();
                self.out.push(component);
            }
        }
    }
    let mut t = Tarjan {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out
}

/// What is wrong with the layers of the crate whose `src/` is given: one line per defect.
fn defects(src: &Path) -> Vec<String> {
    defects_of(&graph(src))
}

/// What is wrong with the layers of a module graph: one line per defect.
fn defects_of(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut out = Vec::new();
    for component in components(edges) {
        if component.len() < 2 {
            continue;
        }
        let parented = component
            .iter()
            .any(|p| component.iter().all(|c| c == p || is_ancestor(p, c)));
        if !parented {
            // One line a member, so that the list shrinks as modules leave the cycle.
            out.extend(component.iter().map(|m| format!("{m} is in a cycle")));
        }
    }
    for (from, tos) in edges {
        for to in tos {
            if to.is_empty() && !from.is_empty() {
                out.push(format!("{from} uses the crate root"));
                continue;
            }
            if let (Some(a), Some(b)) = (layer(from), layer(to)) {
                if b > a {
                    out.push(format!(
                        "{from} -> {to}: {} uses {}, a layer above it",
                        LAYERS[a], LAYERS[b]
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn the_server_modules_form_no_cycle_and_import_only_downwards() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules = modules(&src);
    assert!(
        modules.contains_key("services::games") && modules.contains_key("http::router"),
        "the crate's modules are read: {:?}",
        modules.keys().collect::<Vec<_>>()
    );
    let found = defects(&src);
    assert!(
        found.is_empty(),
        "{} defects in the layers (mend them; docs/architecture.md):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_check_sees_use_trees_super_paths_and_skips_comments() {
    let code = code_only(
        "use crate::{a::{b, c::D}, e};\n// crate::f::g\nlet s = \"crate::h\";\nsuper::super::i::J;",
    );
    let found = paths(&code);
    assert_eq!(
        found,
        vec![
            vec!["crate", "a", "b"],
            vec!["crate", "a", "c", "D"],
            vec!["crate", "e"],
            vec!["super", "super", "i", "J"],
        ]
    );
    let known: BTreeSet<String> = ["a", "a::c", "x", "x::i", "x::y", "x::y::z", "i"]
        .into_iter()
        .map(String::from)
        .collect();
    // From x::y::z, `super` is x::y and `super::super` is x.
    assert_eq!(target("x::y::z", &found[3], &known), "x::i");
    assert_eq!(target("e", &found[1], &known), "a::c");
    assert_eq!(
        target("a", &found[2], &known),
        "",
        "crate::e names the root"
    );
}

#[test]
fn a_cycle_between_siblings_is_a_defect_but_a_parent_with_its_submodules_is_not() {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut add = |a: &str, b: &str| {
        edges.entry(a.into()).or_default().insert(b.into());
        edges.entry(b.into()).or_default();
    };
    add("services::games", "services::games::flag");
    add("services::games::flag", "services::games");
    add("services::lobby", "services::notify");
    add("services::notify", "services::lobby");
    add("http::router", "services::lobby");
    add("services::games", "http::error");
    add("http::ws", "");
    assert_eq!(
        defects_of(&edges),
        vec![
            "services::lobby is in a cycle",
            "services::notify is in a cycle",
            "http::ws uses the crate root",
            "services::games -> http::error: services uses http, a layer above it",
        ]
    );
}
