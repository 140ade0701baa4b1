//! The Emergo web app: the page (embedded), the JSON API of docs/api.md, live games over
//! WebSocket, SQLite storage and the engine's worker pool.
//!
//! ```no_run
//! # async fn demo() -> anyhow::Result<()> {
//! let config = emergo_server::Config::new("127.0.0.1:0".parse()?, "sqlite://emergo.db");
//! let server = emergo_server::Server::start(config).await?;
//! println!("Open {} in a browser", server.url());
//! server.shutdown().await?;
//! # Ok(()) }
//! ```

pub(crate) mod http;
pub(crate) mod services;

#[cfg(test)]
mod layers_check;

// The paths other crates and the tests use.
pub use emergo_platform::domain::{clock, limits};
pub use http::assets;
pub use services::games::jobs;
pub use services::{explorer, games::import, notify};

use anyhow::Context;
// The store, for the fuzz target `import` (fuzz/fuzz_targets/import.rs).
pub use emergo_platform::store;
use emergo_platform::store::Store;
use emergo_worker::pool::EnginePool;
use emergo_worker::worker;
use http::edge::EdgeConfig;
use http::{net, router as routes};
pub use limits::Limits;
use services::accounts::Accounts;
use services::fanout;
use services::games::flag;
use services::games::{AppState, Shared};
use services::learn::Learn;
use services::lobby::Lobby;
use services::notify::Notify;
use services::permits::Permits;
use services::puzzles::Puzzles;
use services::Services;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// How often idle games are dropped from memory, and after how long.
const EVICT_EVERY: Duration = Duration::from_secs(60);
const EVICT_IDLE: Duration = Duration::from_secs(600);

/// What `emergo serve` is started with.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen; port 0 picks a free port.
    pub addr: SocketAddr,
    /// The database: `sqlite://emergo.db` (created when missing) or `postgres://...`.
    pub db_url: String,
    /// Engine worker threads; `None` for one per core. With PostgreSQL the instance also runs
    /// as many job workers (emergo-worker's `worker`); 0 runs no engine here (`emergo worker` processes
    /// search), which needs PostgreSQL.
    pub engine_workers: Option<usize>,
    /// Every bound on what a client can make the server do.
    pub limits: Limits,
    /// The URL people open when the server sits behind a proxy, e.g.
    /// `https://emergo.example/`: its origin is the server's own, its host a name it answers to.
    pub public_url: Option<String>,
    /// More origins whose pages may change games (besides the server's own).
    pub allowed_origins: Vec<String>,
    /// More host names the server answers to (besides its address, and `localhost` when
    /// that address is a loopback one).
    pub allowed_hosts: Vec<String>,
    /// A reverse proxy whose `X-Forwarded-For` names the client (per-client limits then key
    /// on that address).
    pub trusted_proxy: Option<IpAddr>,
    /// Where the game clocks' time comes from (the system's; tests use a manual clock).
    pub clock: clock::Clock,
}

impl Config {
    pub fn new(addr: SocketAddr, db_url: &str) -> Config {
        Config {
            addr,
            db_url: db_url.to_string(),
            engine_workers: None,
            limits: Limits::default(),
            public_url: None,
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            trusted_proxy: None,
            clock: clock::Clock::system(),
        }
    }

    /// What the edge needs to know, once the address is bound.
    fn edge(&self, listen: SocketAddr) -> anyhow::Result<EdgeConfig> {
        let mut hosts = self.allowed_hosts.clone();
        let mut origins = self.allowed_origins.clone();
        if let Some(url) = &self.public_url {
            let (scheme, rest) = url.split_once("://").with_context(|| {
                format!("--public-url {url}: expected http://host or https://host")
            })?;
            let authority = rest.split('/').next().unwrap_or_default();
            if authority.is_empty() || !matches!(scheme, "http" | "https") {
                anyhow::bail!("--public-url {url}: expected http://host or https://host");
            }
            hosts.push(authority.to_string());
            origins.push(format!("{scheme}://{authority}"));
        }
        Ok(EdgeConfig {
            listen: Some(listen),
            hosts,
            origins,
            trusted_proxy: self.trusted_proxy,
            uri_bytes: self.limits.uri_bytes,
            request_timeout: self.limits.request_timeout,
        })
    }
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    state: AppState,
    services: Services,
    stop: watch::Sender<bool>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Server {
    /// Opens the database (applying migrations), binds the address and starts serving.
    pub async fn start(config: Config) -> anyhow::Result<Server> {
        http::ops::recorder();
        let store = Store::open(&config.db_url)
            .await
            .with_context(|| format!("cannot open the database {}", config.db_url))?;
        let limits = config.limits.clone();
        if config.engine_workers == Some(0) && !matches!(store, Store::Postgres(_)) {
            anyhow::bail!("--engine-threads 0 needs a postgres:// database, where `emergo worker` processes search");
        }
        let pool = match config.engine_workers {
            Some(n) => EnginePool::new(n, limits.engine_queue, limits.engine_per_client),
            None => EnginePool::per_core(limits.engine_queue, limits.engine_per_client),
        };
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .with_context(|| format!("cannot listen on {}", config.addr))?;
        let addr = listener.local_addr()?;
        let edge = config.edge(addr)?;
        let (stop, stopped) = watch::channel(false);
        // The composition root: each service built with what it uses; the notifications
        // listen to the games' changes.
        let notify = Notify::new(store.clone());
        let explorer = crate::services::explorer::Explorer::new(store.clone());
        let state: AppState = Arc::new(Shared::new(
            store,
            pool,
            limits.clone(),
            stopped.clone(),
            config.clock.clone(),
            vec![Arc::new(notify.clone()), Arc::new(explorer.clone())],
        ));
        let services = Services {
            games: state.clone(),
            accounts: Arc::new(Accounts::new(&limits, state.store.clone())),
            lobby: Arc::new(Lobby::new(&limits, state.store.clone())),
            notify,
            explorer,
            reviews: Arc::default(),
            analyses: Arc::default(),
            learn: Arc::new(Learn::new(
                Arc::new(
                    emergo_platform::domain::course::Course::standard()
                        .context("the rules course (crates/emergo-platform/data/course.toml)")?,
                ),
                state.store.clone(),
            )),
            puzzles: Arc::new(Puzzles::new(&limits, state.store.clone())),
            bots: crate::services::bots::Bots::new(state.store.clone()),
            tournaments: Arc::new(crate::services::tournaments::Tournaments::new(
                state.store.clone(),
            )),
        };
        let loaded = services
            .puzzles
            .load_shipped()
            .await
            .context("the shipped puzzles (crates/emergo-platform/data/puzzles.jsonl)")?;
        if loaded > 0 {
            tracing::info!(
                puzzles = loaded,
                "loaded the shipped puzzles into an empty database"
            );
        }
        // Flags fall with nobody connected: this instance's timers and the store's sweep.
        flag::spawn(state.clone(), stopped.clone());
        services.accounts.set_secure(
            config
                .public_url
                .as_deref()
                .is_some_and(|u| u.starts_with("https://")),
        );
        spawn_account_sweeper(services.clone(), stopped.clone());
        spawn_tournament_director(services.clone(), stopped.clone());
        if let store::Store::Postgres(pg) = &state.store {
            // Other instances' changes reach this instance's WebSockets.
            fanout::spawn(state.clone(), services.notify.clone(), pg, stopped.clone());
            // The engine's replies and hints are jobs in the database, for any worker.
            let jobs = jobs::JobQueue::new(store::JobsPg::new(pg.pool().clone()), &limits);
            jobs.spawn_upkeep(stopped.clone());
            let _ = state.jobs.set(jobs);
            if state.pool.workers() > 0 {
                worker::spawn(
                    pg,
                    state.pool.clone(),
                    state.pool.workers(),
                    stopped.clone(),
                );
            }
        }
        let app = routes::router(services.clone(), edge);
        let accept = net::Accept {
            connections: Permits::with_reserve(
                "connections",
                limits.connections,
                limits.connections_per_client,
                limits.connections_reserve,
                net::FEW_CONNECTIONS,
            ),
            health: Permits::new(
                "connections",
                net::HEALTH_CONNECTIONS,
                net::HEALTH_CONNECTIONS_PER_CLIENT,
            ),
            header_timeout: limits.header_timeout,
            first_byte_timeout: limits.first_byte_timeout,
            write_timeout: limits.write_timeout,
            trusted_proxy: config.trusted_proxy,
        };
        let task = tokio::spawn(net::serve(listener, app, accept, stopped.clone()));
        let sweeper = state.clone();
        let mut sweeper_stop = stopped;
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(EVICT_EVERY);
            loop {
                tokio::select! {
                    _ = tick.tick() => {
                        let n = sweeper.evict_idle(EVICT_IDLE);
                        if n > 0 {
                            tracing::debug!("{n} idle games dropped from memory");
                        }
                    }
                    _ = sweeper_stop.wait_for(|s| *s) => break,
                }
            }
        });
        tracing::info!(
            "listening on {addr}; {} database {}; {} engine workers",
            state.store.backend(),
            config.db_url,
            state.pool.workers()
        );
        Ok(Server {
            addr,
            state,
            services,
            stop,
            task,
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://<addr>/`; when listening on every interface, the loopback address, which a
    /// browser on this machine can open.
    pub fn url(&self) -> String {
        let mut addr = self.addr;
        if addr.ip().is_unspecified() {
            addr.set_ip(match addr {
                SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
                SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
            });
        }
        format!("http://{addr}/")
    }

    /// The games' service (the store, the live games), for tests and tools.
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Every service, for tests.
    pub fn services(&self) -> &Services {
        &self.services
    }

    /// Stops accepting requests, lets running ones finish, closes WebSockets and the database.
    pub async fn shutdown(self) -> anyhow::Result<()> {
        let _ = self.stop.send(true);
        self.task.await.context("server task")??;
        self.state.pool.close();
        self.state.store.close().await;
        Ok(())
    }
}

/// How often the tournaments are looked at (a round ended, an arena's players waiting).
const TOURNAMENT_TICK: Duration = Duration::from_secs(1);

/// Runs the tournaments: every [`TOURNAMENT_TICK`], each one that may have something to do
/// (issue 23; every instance does, and the store's guarded writes let one of them act).
fn spawn_tournament_director(services: Services, mut stop: watch::Receiver<bool>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(TOURNAMENT_TICK);
        loop {
            let stopped = tokio::select! {
                _ = tick.tick() => false,
                _ = stop.wait_for(|s| *s) => true,
            };
            if stopped {
                break;
            }
            services
                .tournaments
                .tick(&services.games, &services.notify)
                .await;
        }
    });
}

/// How often expired seeks go and unsettled rated games are settled.
const ACCOUNT_SWEEP_EVERY: Duration = Duration::from_secs(10);

/// Removes expired seeks, settles the rated games whose settlement is missing and indexes the
/// finished games the explorer misses (at start, then every [`ACCOUNT_SWEEP_EVERY`]).
fn spawn_account_sweeper(services: Services, mut stop: watch::Receiver<bool>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(ACCOUNT_SWEEP_EVERY);
        let mut rounds: u64 = 0;
        loop {
            let stopped = tokio::select! {
                _ = tick.tick() => false,
                _ = stop.wait_for(|s| *s) => true,
            };
            if stopped {
                break;
            }
            services.lobby.sweep().await;
            // The finished games the explorer has not indexed yet (issue 22).
            let explorer = crate::services::explorer::CATCH_UP_GAMES;
            if let Err(err) = services.explorer.catch_up(explorer).await {
                tracing::warn!("explorer catch-up: {err}");
            }
            if rounds.is_multiple_of(6) {
                crate::services::games::ratings::settle_pending(&services.games).await;
                services.accounts.forget_idle();
                services.lobby.forget_idle();
                services.puzzles.forget_idle();
            }
            rounds += 1;
        }
    });
}
