//! The Emergo site below HTTP, in two layers that point one way:
//!
//! - [`domain`]: the platform's own types and rules beside the game's (emergo-core): clocks and
//!   time controls, ratings (Glicko-2), endings, what a stored game is made of, the limits. No I/O.
//! - [`store`]: the database contract and its two backends (SQLite embedded, PostgreSQL for
//!   several instances), the migrations, `emergo db copy`. It knows the domain and nothing above.
//!
//! Nothing here depends on axum, hyper or tower: the web server (emergo-server), `emergo worker`
//! and `emergo db copy` are built on it. See docs/architecture.md.

pub mod domain;
/// Always compiled (15 lines): behind a feature, the tests' build of every crate above this one
/// differed from `serve`'s and was made twice (README, "Time and disk").
#[doc(hidden)]
pub mod fixtures;
pub mod store;

#[cfg(test)]
mod tests {
    /// Every source file under `src/<dir>`, with its path.
    fn sources(dir: &str) -> Vec<(std::path::PathBuf, String)> {
        fn walk(dir: &std::path::Path, out: &mut Vec<(std::path::PathBuf, String)>) {
            let mut entries: Vec<_> = std::fs::read_dir(dir)
                .expect("src/ can be read")
                .map(|e| e.expect("a directory entry").path())
                .collect();
            entries.sort();
            for path in entries {
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).expect("a source file can be read");
                    out.push((path, text));
                }
            }
        }
        let mut out = Vec::new();
        walk(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("src")
                .join(dir),
            &mut out,
        );
        out
    }

    #[test]
    fn the_domain_imports_nothing_from_the_store_above_it() {
        let files = sources("domain");
        assert!(files.len() >= 5, "the domain's files are found: {files:?}");
        for (path, text) in files {
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or_default();
                assert!(
                    !code.contains("crate::store") && !code.contains("super::super"),
                    "{}:{}: the domain uses the store: {line}",
                    path.display(),
                    n + 1
                );
            }
        }
    }
}
