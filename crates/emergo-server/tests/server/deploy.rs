//! The example deployment's proxy configuration (docs/deploy/nginx.conf) is one nginx accepts:
//! `nginx -t` with a prefix in a temporary directory. scripts/test.sh installs nginx when it is
//! missing; without it this test says so and passes, unless EMERGO_REQUIRE_NGINX is set. No database: it runs in
//! the SQLite run only.

use crate::common::{skip_unless, Backend};
use std::path::{Path, PathBuf};
use std::process::Command;

fn nginx() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/usr/local/sbin")])
        .map(|dir| dir.join("nginx"))
        .find(|path| path.is_file())
}

#[test]
fn the_example_nginx_configuration_parses() {
    if skip_unless(Backend::Sqlite) {
        return;
    }
    let conf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../docs/deploy/nginx.conf");
    let text = std::fs::read_to_string(&conf).expect("docs/deploy/nginx.conf");
    // What the deployment relies on is in it.
    for needed in [
        "proxy_set_header Upgrade $http_upgrade",
        "proxy_set_header Connection $connection_upgrade",
        "server 10.0.0.11:8080",
        "server 10.0.0.12:8080",
        "server 10.0.0.13:8080",
        "proxy_set_header X-Forwarded-For $remote_addr",
    ] {
        assert!(text.contains(needed), "nginx.conf lacks {needed}");
    }
    let directives: String = text
        .lines()
        .map(|line| line.split('#').next().unwrap_or_default())
        .collect();
    for sticky in ["ip_hash", "sticky", "hash $"] {
        assert!(!directives.contains(sticky), "no sticky sessions: {sticky}");
    }

    let Some(nginx) = nginx() else {
        assert!(
            std::env::var_os("EMERGO_REQUIRE_NGINX").is_none(),
            "nginx is not installed"
        );
        eprintln!("skipped: nginx is not installed (scripts/test.sh installs it)");
        return;
    };
    let prefix = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    std::fs::create_dir(prefix.path().join("logs")).expect("logs dir");
    let copy = prefix.path().join("nginx.conf");
    std::fs::write(&copy, &text).expect("copied");
    let mut prefix_arg = prefix.path().as_os_str().to_owned();
    prefix_arg.push("/");
    let out = Command::new(&nginx)
        .arg("-t")
        .arg("-p")
        .arg(&prefix_arg)
        .arg("-c")
        .arg(&copy)
        .args(["-e", "stderr"])
        .output()
        .expect("nginx runs");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "nginx -t refuses the file:\n{said}");
    assert!(said.contains("test is successful"), "{said}");
}
