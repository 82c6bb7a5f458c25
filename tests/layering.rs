//! The source tree's layering: no import circle anywhere in `src/`, and the engine core never uses the
//! command-line tools.
//!
//! How it is checked: every `use` and every `crate::…`/`super::…`/`self::…` path in a file (its test module
//! left out) is resolved to the file of the module it names, following `pub use` re-exports to the file
//! that defines the item. A reference is then looked at on the level where the two files part: under their
//! nearest common folder, it is an edge from the part that holds the user to the part that holds the used
//! (a file or a sub-folder). A module using its own parent, or a parent using its parts, is not an edge
//! (a folder's `mod.rs` and its parts are one unit one level up). Every level's edges must form no cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// Every source file of the library, by module path (`src/board/fen.rs` is `board::fen`).
fn modules() -> BTreeMap<Module, PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&root, &mut files);
    let mut out = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(&root).unwrap().with_extension("");
        let mut m: Module = rel.iter().map(|s| s.to_str().unwrap().to_string()).collect();
        match m.last().map(String::as_str) {
            Some("main") if m.len() == 1 => continue, // the binary, which uses the library from outside
            Some("mod") | Some("lib") => {
                m.pop();
            }
            _ => {}
        }
        out.insert(m, f);
    }
    out
}

/// The code of a file without comments, string and character literals, and its `#[cfg(test)]` module (tests
/// may reach anything).
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && (chars.get(i + 2) == Some(&'\'') || next == Some('\\')) {
            // A character literal ('"', '\n'); a lifetime has no closing quote.
            i += if next == Some('\\') { 4 } else { 3 };
            while i < chars.len() && chars[i - 1] != '\'' {
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The paths a `use` tree names, braces expanded (`a::{b, c::{d}}` gives `a::b` and `a::c::d`).
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else { return vec![tree.to_string()] };
    let (prefix, inner) = (&tree[..open], &tree[open + 1..tree.rfind('}').unwrap()]);
    let (mut parts, mut depth, mut cur) = (Vec::new(), 0, String::new());
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            parts.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    parts.push(cur);
    parts
        .iter()
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(&format!("{}{p}", prefix.trim())))
        .collect()
}

fn segments(path: &str) -> Vec<String> {
    let path = path.split(" as ").next().unwrap();
    let mut s: Vec<String> = path.split("::").filter(|s| !s.is_empty()).map(|s| s.replace("r#", "")).collect();
    if s.last().is_some_and(|l| l == "self" || l == "*") {
        s.pop();
    }
    s
}

/// Every path the code names through `use` or a `crate::`/`super::`/`self::` path.
fn named_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let before = rest[..i].chars().last();
        rest = &rest[i + 4..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let end = rest.find(';').unwrap_or(rest.len());
        out.extend(expand(&rest[..end]).iter().map(|p| segments(p)));
    }
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b':') {
                continue;
            }
            let len = code[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '#'))
                .unwrap_or(code.len() - at);
            out.push(segments(&code[at..at + len]));
        }
    }
    out
}

/// `pub use` re-exports of a file: the name it gives → the path it names.
fn reexports(code: &str) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut rest = code;
    while let Some(i) = rest.find("pub use ") {
        rest = &rest[i + 8..];
        let end = rest.find(';').unwrap_or(rest.len());
        for p in expand(&rest[..end]) {
            let name = match p.split_once(" as ") {
                Some((_, alias)) => alias.trim().to_string(),
                None => p.rsplit("::").next().unwrap().trim().to_string(),
            };
            out.insert(name, segments(&p));
        }
    }
    out
}

/// The module a path names from inside `from`, following re-exports; `None` outside the crate.
fn resolve(
    from: &Module,
    path: &[String],
    mods: &BTreeMap<Module, PathBuf>,
    reexp: &BTreeMap<Module, BTreeMap<String, Vec<String>>>,
    hops: usize,
) -> Option<Module> {
    let (mut base, mut segs): (Module, &[String]) = match path.first().map(String::as_str) {
        Some("crate") => (Vec::new(), &path[1..]),
        Some("super") | Some("self") => {
            let mut base = from.clone();
            let mut i = 0;
            while i < path.len() && (path[i] == "super" || path[i] == "self") {
                if path[i] == "super" {
                    base.pop();
                }
                i += 1;
            }
            (base, &path[i..])
        }
        Some(first) => {
            let mut child = from.clone();
            child.push(first.to_string());
            if !mods.contains_key(&child) {
                return None;
            }
            (from.clone(), path)
        }
        None => return None,
    };
    // Walk down module by module; at a name the module re-exports, continue from what it names.
    loop {
        let Some((head, tail)) = segs.split_first() else { return Some(base) };
        let mut next = base.clone();
        next.push(head.clone());
        if mods.contains_key(&next) {
            base = next;
            segs = tail;
            continue;
        }
        if let Some(target) = reexp.get(&base).and_then(|r| r.get(head)) {
            if hops < 8 {
                let mut full = target.clone();
                full.extend(tail.iter().cloned());
                return resolve(&base, &full, mods, reexp, hops + 1);
            }
        }
        return Some(base);
    }
}

/// The edges of the layering graph: per folder (module path), its parts' uses of each other.
fn levels() -> BTreeMap<Module, BTreeSet<(String, String)>> {
    let mods = modules();
    let codes: BTreeMap<Module, String> = mods.iter().map(|(m, p)| (m.clone(), code(p))).collect();
    let reexp: BTreeMap<_, _> = codes.iter().map(|(m, c)| (m.clone(), reexports(c))).collect();
    let mut levels: BTreeMap<Module, BTreeSet<(String, String)>> = BTreeMap::new();
    for (from, c) in &codes {
        for path in named_paths(c) {
            let Some(to) = resolve(from, &path, &mods, &reexp, 0) else { continue };
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common == from.len() || common == to.len() {
                continue; // the same module, a part of it, or its owner
            }
            levels.entry(from[..common].to_vec()).or_default().insert((from[common].clone(), to[common].clone()));
        }
    }
    levels
}

/// A cycle in a directed graph, if there is one.
fn cycle(edges: &BTreeSet<(String, String)>) -> Option<Vec<String>> {
    fn visit<'a>(
        n: &'a str,
        edges: &'a BTreeSet<(String, String)>,
        state: &mut BTreeMap<&'a str, u8>,
        stack: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        state.insert(n, 1);
        stack.push(n);
        for (_, to) in edges.iter().filter(|(a, _)| a == n) {
            match state.get(to.as_str()) {
                Some(1) => {
                    let i = stack.iter().position(|s| s == to).unwrap();
                    let mut c: Vec<String> = stack[i..].iter().map(|s| s.to_string()).collect();
                    c.push(to.clone());
                    return Some(c);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(to, edges, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(n, 2);
        None
    }
    let mut state = BTreeMap::new();
    for (a, _) in edges {
        if !state.contains_key(a.as_str()) {
            if let Some(c) = visit(a, edges, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn no_import_circle_in_src() {
    let levels = levels();
    let mut circles = Vec::new();
    for (folder, edges) in &levels {
        if let Some(c) = cycle(edges) {
            let at = if folder.is_empty() { "src".to_string() } else { format!("src/{}", folder.join("/")) };
            circles.push(format!("{at}: {}", c.join(" → ")));
        }
    }
    assert!(circles.is_empty(), "import circles:\n{}", circles.join("\n"));
}

#[test]
fn the_core_never_uses_the_tools() {
    let top = &levels()[&Vec::new()];
    let users: Vec<_> = top.iter().filter(|(a, b)| b == "tools" && a != "tools").collect();
    assert!(users.is_empty(), "{users:?}");
}

#[test]
fn the_checker_sees_what_it_should() {
    // The resolver follows re-exports and finds the uses it must: without these the checks above prove nothing.
    let levels = levels();
    let top = &levels[&Vec::new()];
    assert!(top.contains(&("search".into(), "board".into())), "{top:?}");
    assert!(top.contains(&("tools".into(), "search".into())));
    assert!(top.contains(&("protocol".into(), "engine".into())), "{top:?}");
    let tools = &levels[&vec!["tools".to_string()]];
    assert!(tools.contains(&("cli".into(), "analyze".into())), "{tools:?}");
    assert!(tools.contains(&("judge".into(), "records".into())));
    assert!(tools.contains(&("analyze".into(), "args".into())));
    let circle: BTreeSet<(String, String)> =
        [("a", "b"), ("b", "c"), ("c", "a")].iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    assert_eq!(cycle(&circle).map(|c| c.len()), Some(4));
    assert_eq!(expand("a::{b, c::{d, e}}"), ["a::b", "a::c::d", "a::c::e"]);
}
