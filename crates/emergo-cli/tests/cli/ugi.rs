//! A UGI session with the built `emergo ugi`, driven through a pipe: the handshake, options,
//! positions, searches, queries, perft, `stop` during an infinite search, bad lines, a rejected
//! position, `go` tokens that cannot be used, `movestogo`, `MoveOverhead`, `quit`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    transcript: Vec<String>,
}

impl Session {
    fn start() -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_emergo"))
            .arg("ugi")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("emergo ugi starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        writeln!(self.stdin, "{line}").expect("the engine reads");
        self.stdin.flush().expect("flush");
    }

    /// Reads lines until one starts with `prefix`; returns all lines read, that one last.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no '{prefix}' in {:#?}", self.transcript));
            self.transcript.push(format!("< {line}"));
            got.push(line.clone());
            if line.starts_with(prefix) {
                return got;
            }
        }
    }

    fn answer(&mut self, line: &str) -> String {
        self.send(line);
        self.until("").pop().unwrap_or_default()
    }
}

#[test]
fn a_ugi_session_through_a_pipe() {
    let mut s = Session::start();
    s.send("ugi");
    let hello = s.until("ugiok");
    assert!(hello[0].starts_with("id name Emergo"), "{hello:?}");
    assert!(hello[1].starts_with("id author "));
    assert!(hello
        .iter()
        .any(|l| l.starts_with("option name Hash type spin")));
    assert!(hello
        .iter()
        .any(|l| l.starts_with("option name Threads type spin")));
    assert_eq!(s.answer("isready"), "readyok");

    s.send("setoption name Hash value 8");
    // The shipped book would answer the start without a search (its own test: the engine's).
    s.send("setoption name OwnBook value false");
    s.send("uginewgame");
    s.send("position startpos");
    assert_eq!(s.answer("query p1turn"), "response true");
    assert_eq!(s.answer("query gameover"), "response false");
    assert_eq!(s.answer("query result"), "response none");

    // Bad lines: each gets an error, and the engine goes on.
    for bad in [
        "hello",
        "position fen W:13:12",
        "setoption name Nonsense value 1",
        "query everything",
    ] {
        let reply = s.answer(bad);
        assert!(reply.starts_with("info string error: "), "{bad}: {reply}");
    }

    // A rejected 'position' leaves no position (not the previous one) until a valid one.
    s.send("position startpos moves d3");
    let rejected = s.answer("position startpos moves d3 zz9");
    assert!(
        rejected.starts_with("info string error: move 'zz9'"),
        "{rejected}"
    );
    assert_eq!(s.answer("query gameover"), "response true");
    assert_eq!(s.answer("query result"), "response none");
    s.send("go depth 3");
    assert_eq!(
        s.until("bestmove"),
        [
            "info string error: no position: the last 'position' was rejected",
            "bestmove 0000"
        ]
    );
    s.send("position startpos");
    assert_eq!(s.answer("query gameover"), "response false");

    // Every 'go' ends in 'bestmove': unknown tokens are reported and ignored, 'movestogo' is
    // understood, 'ponder' and 'mate' are noted.
    for (go, note) in [
        (
            "go depth 2 movestoga 20",
            "info string unknown 'go' parameter 'movestoga 20' ignored",
        ),
        (
            "go depth -1 nodes 2000",
            "info string 'depth' needs a whole number",
        ),
        ("go ponder depth 2", "info string 'ponder' is not supported"),
        ("go mate 1", "info string 'mate 1' is searched as 'depth 1'"),
    ] {
        s.send(go);
        let reply = s.until("bestmove");
        assert!(reply[0].starts_with(note), "{go}: {reply:?}");
        assert_eq!(reply.last().unwrap().split_whitespace().count(), 2);
    }
    s.send("go p1time 1000 p2time 1000 p1inc 10 p2inc 10 movestogo 20");
    let reply = s.until("bestmove");
    assert!(
        !reply.iter().any(|l| l.starts_with("info string")),
        "{reply:?}"
    );

    // MoveOverhead is kept back from movetime: the search aborts at 2000 - 1500 = 500 ms
    // (without it, it would run past 1,100 ms); the bound leaves room for a loaded machine.
    s.send("setoption name MoveOverhead value 1500");
    s.send("isready");
    s.until("readyok");
    let started = std::time::Instant::now();
    s.send("go movetime 2000");
    s.until("bestmove");
    assert!(
        started.elapsed() < Duration::from_millis(1000),
        "{:?}",
        started.elapsed()
    );
    s.send("setoption name MoveOverhead value 30");

    s.send("position startpos moves d3 f7");
    s.send("go depth 4");
    let search = s.until("bestmove");
    let infos: Vec<&String> = search
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 4, "{search:?}");
    for (i, info) in infos.iter().enumerate() {
        let fields: Vec<&str> = info.split_whitespace().collect();
        assert_eq!(fields[2], (i + 1).to_string());
        for key in ["score", "nodes", "nps", "time", "pv"] {
            assert!(fields.contains(&key), "{key} missing in {info}");
        }
    }
    let best = search
        .last()
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>();
    assert_eq!(best.len(), 2, "bestmove is one token");

    // The best move is legal: playing it is accepted (no error), and Black is to move after.
    s.send(&format!("position startpos moves d3 f7 {}", best[1]));
    assert_eq!(s.answer("query p1turn"), "response false");

    // An infinite search answers isready while it runs, and stops on 'stop'.
    s.send("go infinite");
    s.send("isready");
    let ready = s.until("readyok");
    assert!(
        ready.iter().all(|l| !l.starts_with("bestmove")),
        "{ready:?}"
    );
    s.send("stop");
    let stopped = s.until("bestmove");
    assert!(stopped.last().unwrap().split_whitespace().count() == 2);

    s.send("position fen B:0:0:c4=W");
    assert_eq!(s.answer("query gameover"), "response true");
    assert_eq!(s.answer("query result"), "response p1win");

    s.send("position startpos");
    s.send("go perft 3");
    let perft = s.until("nodes");
    assert_eq!(perft.last().unwrap(), "nodes 55172");
    assert_eq!(perft.len(), 41);

    s.send("d");
    let board = s.until("position");
    assert_eq!(board.last().unwrap(), "position W:12:12");

    s.send("quit");
    let status = s.child.wait().expect("the engine exits");
    assert!(status.success());
}
