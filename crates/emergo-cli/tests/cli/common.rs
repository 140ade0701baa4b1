//! The built `emergo` run as a script runs it.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

/// The `emergo` binary of this build.
pub const EMERGO: &str = env!("CARGO_BIN_EXE_emergo");

/// `emergo args…`, its output once it ends.
pub fn emergo(args: &[&str]) -> Output {
    Command::new(EMERGO)
        .args(args)
        .output()
        .expect("run emergo")
}

/// `emergo args…` with `input` on its standard input, its output once it ends.
pub fn emergo_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(EMERGO)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run emergo");
    // Written from a thread: an input larger than a pipe's buffer would otherwise wait for
    // output that nobody reads yet.
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("wait");
    writer.join().expect("writer").expect("write stdin");
    output
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Starts `emergo serve` on a free loopback port with its log in `log`; returns the process
/// and its base URL. A server that ends before it prints its address is started once more
/// (the database is the same); a second such end fails the test with the exit status and log
/// of both attempts.
pub fn serve(db_url: &str, log: &Path) -> (Child, String) {
    match start_server(db_url, log) {
        Ok(started) => started,
        Err(first) => {
            eprintln!("first start failed: {first}");
            start_server(db_url, log)
                .unwrap_or_else(|second| panic!("emergo serve did not start: {first}\n{second}"))
        }
    }
}

fn start_server(db_url: &str, log: &Path) -> Result<(Child, String), String> {
    let stderr = File::create(log).expect("a log file");
    let mut child = Command::new(env!("CARGO_BIN_EXE_emergo"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db_url])
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("emergo serve starts");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    // "Open http://127.0.0.1:PORT/ in a browser"
    let mut printed = Vec::new();
    for line in stdout.lines() {
        let line = line.expect("stdout is text");
        if let Some(url) = line.split_whitespace().find(|w| w.starts_with("http://")) {
            return Ok((child, url.trim_end_matches('/').to_string()));
        }
        printed.push(line);
    }
    let status = child.wait().expect("reaped");
    let log = std::fs::read_to_string(log).unwrap_or_default();
    Err(format!(
        "emergo serve ended ({status}) without an address; stdout: {printed:?}; stderr:\n{log}"
    ))
}
