//! Issue 24: `emergo bot` with `emergo ugi` as its engine, against a real `emergo serve` over
//! loopback: it accepts a person's challenge and plays the timed game to its result through a
//! dropped connection (a proxy between them cut in the middle) and an engine killed mid-game;
//! and two bots play each other, one of them over TLS (nginx in front of the site, with a
//! certificate of a test authority that the bot is given with `--ca-cert`).

use crate::common::{serve, EMERGO};
use reqwest::blocking::Client;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A TCP proxy on loopback whose connections can be cut at once (the bot's "network").
struct Proxy {
    addr: SocketAddr,
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    fn to(target: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
        let addr = listener.local_addr().expect("its address");
        let open: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let kept = open.clone();
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { break };
                let Ok(server) = TcpStream::connect(target) else {
                    continue;
                };
                let mut kept = kept.lock().expect("lock");
                for end in [&client, &server] {
                    if let Ok(clone) = end.try_clone() {
                        kept.push(clone);
                    }
                }
                pipe(&client, &server);
                pipe(&server, &client);
            }
        });
        Proxy { addr, open }
    }

    /// Drops every connection through the proxy (new ones go through again).
    fn cut(&self) {
        for stream in self.open.lock().expect("lock").drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}

/// Copies what `from` says to `to`, on a thread, until either end closes.
fn pipe(from: &TcpStream, to: &TcpStream) {
    let (Ok(mut from), Ok(mut to)) = (from.try_clone(), to.try_clone()) else {
        return;
    };
    std::thread::spawn(move || {
        let mut buf = [0u8; 16 * 1024];
        while let Ok(n) = from.read(&mut buf) {
            if n == 0 || to.write_all(&buf[..n]).is_err() {
                break;
            }
        }
        let _ = to.shutdown(Shutdown::Write);
    });
}

fn client() -> Client {
    Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .expect("client")
}

/// A signed-up account's session cookie.
fn sign_up(http: &Client, base: &str, name: &str) -> String {
    let res = http
        .post(format!("{base}/api/accounts"))
        .json(&json!({"name": name, "password": "password-of-test"}))
        .send()
        .expect("sign up");
    assert_eq!(res.status().as_u16(), 201);
    let cookie = res.headers()["set-cookie"].to_str().expect("text");
    cookie.split(';').next().expect("a cookie").to_string()
}

/// A bot account `name`: its token (bot:play, challenge:write, read), upgraded.
fn bot_account(http: &Client, base: &str, name: &str) -> String {
    let cookie = sign_up(http, base, name);
    let made: Value = http
        .post(format!("{base}/api/tokens"))
        .header("cookie", &cookie)
        .json(&json!({"scopes": ["bot:play", "challenge:write", "read"]}))
        .send()
        .and_then(|r| r.json())
        .expect("a token");
    let token = made["token"].as_str().expect("its text").to_string();
    let res = http
        .post(format!("{base}/api/bot/account/upgrade"))
        .bearer_auth(&token)
        .send()
        .expect("upgrade");
    assert_eq!(res.status().as_u16(), 200);
    token
}

/// `emergo bot` for `token` on `server`, its log in `log`.
fn bridge(server: &str, token: &str, log: &Path, extra: &[&str]) -> Child {
    let stderr = std::fs::File::create(log).expect("a log");
    Command::new(EMERGO)
        .args(["bot", "--server", server, "--token", token])
        .args(["--engine", &format!("ugi:{EMERGO} ugi")])
        .args(["--move-overhead", "200", "--games", "1"])
        .args(extra)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .expect("emergo bot starts")
}

fn log_text(log: &Path) -> String {
    std::fs::read_to_string(log).unwrap_or_default()
}

/// Waits (at most `secs`) until `log` holds `text`.
fn wait_for_log(log: &Path, text: &str, secs: u64) {
    let until = Instant::now() + Duration::from_secs(secs);
    while !log_text(log).contains(text) {
        assert!(
            Instant::now() < until,
            "no {text:?} in the log:\n{}",
            log_text(log)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The last engine process the bridge's log names.
fn engine_pid(log: &Path) -> Option<u32> {
    let text = log_text(log);
    let at = text.rfind("pid=")?;
    text[at + 4..]
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// Waits (at most `secs`) for a process to end; its success.
fn wait_exit(child: &mut Child, secs: u64, log: &Path) -> bool {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return status.success();
        }
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            panic!("emergo bot did not end:\n{}", log_text(log));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn temp() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let path = dir.path().to_path_buf();
    (dir, path)
}

#[test]
fn a_bot_plays_a_challenge_to_its_end_through_a_dropped_connection_and_an_engine_crash() {
    let (_dir, dir) = temp();
    let (mut server, base) = serve(
        &dir.join("bot.db").display().to_string(),
        &dir.join("serve.log"),
    );
    let http = client();
    let token = bot_account(&http, &base, "robo");
    let alice = sign_up(&http, &base, "alice");
    let target: SocketAddr = base
        .trim_start_matches("http://")
        .parse()
        .expect("an address");
    let proxy = Proxy::to(target);
    let log = dir.join("bot.log");
    // A fixed budget of nodes a move rather than its clock: the game is about the drop and the
    // crash, and a bot that missed its turn after either still loses on time.
    let mut bot = bridge(
        &format!("http://{}", proxy.addr),
        &token,
        &log,
        &["--nodes", "3000"],
    );
    wait_for_log(&log, "event stream open", 30);

    let challenge: Value = http
        .post(format!("{base}/api/challenge/robo"))
        .header("cookie", &alice)
        .json(&json!({"time": "0.5+0", "color": "white"}))
        .send()
        .and_then(|r| r.json())
        .expect("a challenge");
    let seek = challenge["id"]
        .as_str()
        .unwrap_or_else(|| panic!("a challenge: {challenge}"))
        .to_string();
    // The challenge becomes a game once the bot accepts it.
    let until = Instant::now() + Duration::from_secs(30);
    let game = loop {
        let seen: Value = http
            .get(format!("{base}/api/seeks/{seek}"))
            .send()
            .and_then(|r| r.json())
            .expect("the seek");
        if let Some(game) = seen["game"].as_str() {
            break game.to_string();
        }
        assert!(Instant::now() < until, "not accepted:\n{}", log_text(&log));
        std::thread::sleep(Duration::from_millis(50));
    };

    // Alice plays at once whenever it is her turn; in the middle, the bot's connections drop
    // and then its engine is killed.
    let (mut cut, mut killed) = (false, false);
    let until = Instant::now() + Duration::from_secs(150);
    let end = loop {
        assert!(
            Instant::now() < until,
            "the game did not end:\n{}",
            log_text(&log)
        );
        let view: Value = http
            .get(format!("{base}/api/games/{game}"))
            .send()
            .and_then(|r| r.json())
            .expect("the game");
        if view["status"] == "finished" {
            break view;
        }
        let ply = view["ply"].as_u64().unwrap_or(0);
        if ply >= 6 && !cut {
            proxy.cut();
            cut = true;
        }
        if ply >= 14 && !killed {
            if let Some(pid) = engine_pid(&log) {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
                killed = true;
            }
        }
        if view["turn"] == "white" {
            let legal = view["legal_moves"].as_array().cloned().unwrap_or_default();
            if let Some(mv) = legal.get(ply as usize % legal.len().max(1)) {
                let _ = http
                    .post(format!("{base}/api/games/{game}/moves"))
                    .header("cookie", &alice)
                    .json(&json!({"ply": ply, "move": mv}))
                    .send();
            }
        } else {
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    let summary = format!("ply {}, {} {}", end["ply"], end["result"], end["reason"]);
    assert!(
        cut && killed,
        "the game ended before the drop and the crash: {summary}"
    );
    let text = log_text(&log);
    assert!(
        text.contains("connecting again"),
        "no reconnection:\n{text}"
    );
    assert!(
        text.matches("engine started").count() >= 2,
        "no restart:\n{text}"
    );
    // The bot lost nothing on time: it moved whenever it was its turn.
    assert!(
        !(end["reason"] == "time" && end["result"] == "1-0"),
        "the bot lost on time: {summary}\n{text}"
    );
    assert!(end["result"].is_string(), "{summary}");
    assert!(wait_exit(&mut bot, 30, &log), "emergo bot failed:\n{text}");
    let _ = server.kill();
    let _ = server.wait();
}

/// nginx terminating TLS in front of `upstream` on a free loopback port, with a certificate
/// for `localhost` signed by a test authority; the authority's PEM file beside it. `None` when
/// nginx or openssl is missing (scripts/test.sh installs nginx and sets EMERGO_REQUIRE_NGINX).
struct TlsFront {
    nginx: Child,
    url: String,
    ca: PathBuf,
}

impl TlsFront {
    fn start(upstream: &str, dir: &Path) -> Option<TlsFront> {
        let nginx = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"]
            .into_iter()
            .map(PathBuf::from)
            .find(|p| p.is_file());
        let Some(nginx) = nginx else {
            assert!(
                std::env::var_os("EMERGO_REQUIRE_NGINX").is_none(),
                "nginx is not installed"
            );
            eprintln!("no TLS: nginx is not installed (scripts/test.sh installs it)");
            return None;
        };
        let openssl = |args: &[&str]| {
            let out = Command::new("openssl")
                .args(args)
                .current_dir(dir)
                .output()
                .expect("openssl runs");
            assert!(
                out.status.success(),
                "openssl {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        let ec = [
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
        ];
        openssl(
            &[
                &[
                    "req",
                    "-x509",
                    "-days",
                    "2",
                    "-subj",
                    "/CN=emergo test authority",
                ][..],
                &ec,
                &["-keyout", "ca.key", "-out", "ca.pem"],
            ]
            .concat(),
        );
        openssl(
            &[
                &["req", "-subj", "/CN=localhost"][..],
                &ec,
                &["-keyout", "site.key", "-out", "site.csr"],
            ]
            .concat(),
        );
        std::fs::write(
            dir.join("site.ext"),
            "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n\
             extendedKeyUsage=serverAuth\n",
        )
        .expect("extensions");
        openssl(&[
            "x509",
            "-req",
            "-in",
            "site.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            "site.ext",
            "-out",
            "site.pem",
        ]);
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let upstream = upstream.trim_start_matches("http://");
        let d = dir.display();
        let conf = format!(
            "daemon off; worker_processes 1; pid {d}/nginx.pid; error_log {d}/nginx.log;\n\
             events {{ worker_connections 64; }}\n\
             http {{ access_log off; client_body_temp_path {d}/body; proxy_temp_path {d}/proxy;\n\
               fastcgi_temp_path {d}/fcgi; uwsgi_temp_path {d}/uwsgi; scgi_temp_path {d}/scgi;\n\
               server {{ listen 127.0.0.1:{port} ssl;\n\
                 ssl_certificate {d}/site.pem; ssl_certificate_key {d}/site.key;\n\
                 location / {{ proxy_pass http://{upstream}; proxy_http_version 1.1;\n\
                   proxy_buffering off; proxy_read_timeout 60s; }} }} }}\n"
        );
        std::fs::write(dir.join("nginx.conf"), conf).expect("nginx.conf");
        let child = Command::new(nginx)
            .arg("-p")
            .arg(dir)
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nginx starts");
        let until = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < until,
                "nginx does not listen: {}",
                std::fs::read_to_string(dir.join("nginx.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(TlsFront {
            nginx: child,
            url: format!("https://localhost:{port}"),
            ca: dir.join("ca.pem"),
        })
    }
}

impl Drop for TlsFront {
    fn drop(&mut self) {
        let _ = self.nginx.kill();
        let _ = self.nginx.wait();
    }
}

#[test]
fn two_bots_play_each_other() {
    let (_dir, dir) = temp();
    let (mut server, base) = serve(
        &dir.join("bots.db").display().to_string(),
        &dir.join("serve.log"),
    );
    let http = client();
    let first = bot_account(&http, &base, "first");
    let second = bot_account(&http, &base, "second");
    let first_log = dir.join("first.log");
    let mut a = bridge(&base, &first, &first_log, &[]);
    wait_for_log(&first_log, "event stream open", 30);
    // The second bot reaches the site over TLS, through nginx, trusting the site's authority.
    let tls_dir = dir.join("tls");
    std::fs::create_dir(&tls_dir).expect("a folder");
    let front = TlsFront::start(&base, &tls_dir);
    let ca = front.as_ref().map(|f| f.ca.display().to_string());
    let mut extra = vec![
        "--challenge",
        "first",
        "--challenge-time",
        "0.25+0",
        "--nodes",
        "3000",
    ];
    if let Some(ca) = &ca {
        extra.extend(["--ca-cert", ca]);
    }
    let second_log = dir.join("second.log");
    let second_server = front.as_ref().map_or(base.clone(), |f| f.url.clone());
    let mut b = bridge(&second_server, &second, &second_log, &extra);
    assert!(
        wait_exit(&mut a, 120, &first_log),
        "{}",
        log_text(&first_log)
    );
    assert!(
        wait_exit(&mut b, 60, &second_log),
        "{}",
        log_text(&second_log)
    );
    let page: Value = http
        .get(format!("{base}/api/players/first"))
        .send()
        .and_then(|r| r.json())
        .expect("the player");
    let games = page["games"].as_array().cloned().unwrap_or_default();
    assert_eq!(games.len(), 1, "{page}");
    assert!(games[0]["result"].is_string(), "{page}");
    if let Some(front) = &front {
        let log = log_text(&second_log);
        assert!(
            log.contains(&front.url),
            "the second bot went through TLS: {log}"
        );
    }
    drop(front);
    let _ = server.kill();
    let _ = server.wait();
}

#[test]
fn a_ca_cert_file_without_a_certificate_is_refused_clearly() {
    let (_dir, dir) = temp();
    let empty = dir.join("empty.pem");
    std::fs::write(&empty, "not a certificate\n").expect("a file");
    for (file, says) in [
        (empty.display().to_string(), "no PEM certificate"),
        (dir.join("missing.pem").display().to_string(), "missing.pem"),
    ] {
        let out = Command::new(EMERGO)
            .args(["bot", "--server", "https://localhost:1", "--token", "emt_x"])
            .args(["--engine", &format!("ugi:{EMERGO} ugi"), "--ca-cert", &file])
            .stdin(Stdio::null())
            .output()
            .expect("emergo bot runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{err}");
        assert!(err.contains("--ca-cert") && err.contains(says), "{err}");
    }
}
