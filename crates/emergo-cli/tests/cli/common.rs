//! The built `emergo` run as a script runs it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

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
