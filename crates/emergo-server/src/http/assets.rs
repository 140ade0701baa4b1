//! The page's files, embedded in the binary (every file under `assets/`, listed by build.rs).

mod table {
    include!(concat!(env!("OUT_DIR"), "/assets.rs"));
}

/// Served at `/` when `assets/index.html` is missing from the build.
pub const FALLBACK_PAGE: &str = "<!doctype html><meta charset=utf-8><title>Emergo</title>\
<p>This build of emergo has no page; the API is at /api/games.</p>";

/// The bytes of the asset at `path` (relative to `assets/`).
pub fn find(path: &str) -> Option<&'static [u8]> {
    table::FILES
        .iter()
        .find(|(name, _)| *name == path)
        .map(|(_, bytes)| *bytes)
}

/// The names of every embedded asset.
pub fn names() -> impl Iterator<Item = &'static str> {
    table::FILES.iter().map(|(name, _)| *name)
}

/// The content type for a file name, by its extension.
pub fn content_type(path: &str) -> &'static str {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    match ext.to_ascii_lowercase().as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "ico" => "image/x-icon",
        "webp" => "image/webp",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_its_files_are_embedded() {
        assert!(find("index.html").is_some());
        assert!(names().count() >= 1);
        assert_eq!(find("no-such-file.js"), None);
    }

    #[test]
    fn content_types_follow_the_extension() {
        assert_eq!(content_type("app.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("app.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
        assert_eq!(content_type("board.SVG"), "image/svg+xml");
        assert_eq!(content_type("noext"), "application/octet-stream");
    }
}
