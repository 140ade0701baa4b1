//! The match runner's side of UGI: an external engine spoken to over pipes.
//!
//! `ugi` → `ugiok`, `isready` → `readyok`, `uginewgame`,
//! `position fen <N2> moves ...`, `go movetime N` or `go p1time .. p2time .. p1inc .. p2inc ..`,
//! then `bestmove <move>`. Every wait has a deadline, so a silent or dead engine loses the game
//! instead of hanging the match. The engine's answer is only text here; the runner checks it
//! against the rules.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};
use thiserror::Error;

/// What went wrong with an external engine.
#[derive(Debug, Error)]
pub enum UgiError {
    #[error("cannot start '{command}': {source}")]
    Spawn {
        command: String,
        #[source]
        source: std::io::Error,
    },
    #[error("engine '{command}' did not answer '{waiting_for}' within {seconds:.1} s")]
    Timeout {
        command: String,
        waiting_for: String,
        seconds: f64,
    },
    #[error("engine '{command}' closed its output (it exited or crashed)")]
    Disconnected { command: String },
    #[error("cannot write to engine '{command}': {source}")]
    Write {
        command: String,
        #[source]
        source: std::io::Error,
    },
}

/// How long the handshake (`ugi`, `isready`) may take.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// A running external engine.
pub struct UgiEngine {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl UgiEngine {
    /// Starts `command` (program and arguments) and does the `ugi`/`isready` handshake.
    pub fn start(command: &[String]) -> Result<UgiEngine, UgiError> {
        let text = command.join(" ");
        let (program, args) = command.split_first().ok_or_else(|| UgiError::Spawn {
            command: text.clone(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidInput, "empty command"),
        })?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| UgiError::Spawn {
                command: text.clone(),
                source,
            })?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(UgiError::Disconnected { command: text });
            }
        };
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = UgiEngine {
            command: text,
            child,
            stdin,
            lines,
        };
        engine.send("ugi")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let line = engine.read_line(deadline, "ugiok")?;
            if line.split_whitespace().next() == Some("ugiok") {
                break;
            }
        }
        engine.ready()?;
        Ok(engine)
    }

    /// The engine process's id (a log names it).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), UgiError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|source| UgiError::Write {
                command: self.command.clone(),
                source,
            })
    }

    fn read_line(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, UgiError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(UgiError::Timeout {
                command: self.command.clone(),
                waiting_for: waiting_for.to_string(),
                seconds: left.as_secs_f64(),
            }),
            Err(RecvTimeoutError::Disconnected) => Err(UgiError::Disconnected {
                command: self.command.clone(),
            }),
        }
    }

    /// `isready` → `readyok`.
    pub fn ready(&mut self) -> Result<(), UgiError> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        while self.read_line(deadline, "readyok")?.trim() != "readyok" {}
        Ok(())
    }

    /// `uginewgame` then `isready`.
    pub fn new_game(&mut self) -> Result<(), UgiError> {
        self.send("uginewgame")?;
        self.ready()
    }

    /// Sends the position and the `go` line, and returns the token after `bestmove` (the empty
    /// string if there is none), waiting until `deadline`.
    pub fn best_move(
        &mut self,
        position: &str,
        go: &str,
        deadline: Instant,
    ) -> Result<String, UgiError> {
        self.send(position)?;
        self.send(go)?;
        loop {
            let line = self.read_line(deadline, "bestmove")?;
            let mut words = line.split_whitespace();
            if words.next() == Some("bestmove") {
                return Ok(words.next().unwrap_or("").to_string());
            }
        }
    }
}

impl Drop for UgiEngine {
    /// Says `quit`, gives the engine a moment, then kills it.
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
