//! `emergo serve`: the web app. See docs/web.md (its "Limits" section lists every option below
//! with its default).

use crate::process;
use emergo_server::Limits;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// Run the web app: the page, the API and live games.
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    #[command(flatten)]
    pub database: super::Database,
    /// Engine worker threads (default: one per core). With PostgreSQL, 0 runs no engine in
    /// this instance (`emergo worker` processes search).
    #[arg(long)]
    pub engine_threads: Option<usize>,
    /// The URL people open, when a proxy stands in front (e.g. https://emergo.example/): its
    /// origin may change games and its host is answered.
    #[arg(long)]
    pub public_url: Option<String>,
    /// Another origin whose pages may change games (repeatable).
    #[arg(long = "allow-origin")]
    pub allow_origins: Vec<String>,
    /// Another host name to answer to (repeatable).
    #[arg(long = "allow-host")]
    pub allow_hosts: Vec<String>,
    /// A reverse proxy's address: its X-Forwarded-For names the client for per-client limits.
    #[arg(long)]
    pub trusted_proxy: Option<IpAddr>,
    #[command(flatten)]
    pub limits: Box<LimitArgs>,
}

/// Every limit, each defaulting to [`Limits::default`].
#[derive(clap::Args)]
pub struct LimitArgs {
    /// Bytes of a JSON request body [default: 16384].
    #[arg(long)]
    pub max_body: Option<usize>,
    /// Bytes of an imported game record [default: 262144].
    #[arg(long)]
    pub max_record: Option<usize>,
    /// Tags of an imported record [default: 64].
    #[arg(long)]
    pub max_tags: Option<usize>,
    /// Bytes of a tag value of an imported record [default: 1024].
    #[arg(long)]
    pub max_tag_length: Option<usize>,
    /// Bytes of a comment of an imported record [default: 4096].
    #[arg(long)]
    pub max_comment_length: Option<usize>,
    /// Moves of an imported record [default: 5000].
    #[arg(long)]
    pub max_plies: Option<usize>,
    /// Bytes of a request's path and query [default: 2048].
    #[arg(long)]
    pub max_uri: Option<usize>,
    /// New games (created or imported) one client may make at once [default: 20].
    #[arg(long)]
    pub games_burst: Option<u32>,
    /// Then one more new game per this many milliseconds [default: 3000].
    #[arg(long)]
    pub games_every_ms: Option<u64>,
    /// Seconds to send a request's headers; also the idle time of a kept-alive connection
    /// [default: 10].
    #[arg(long)]
    pub header_timeout: Option<u64>,
    /// Seconds a new connection has to send its first byte [default: 3].
    #[arg(long)]
    pub first_byte_timeout: Option<u64>,
    /// Seconds a request may take, its body included [default: 30].
    #[arg(long)]
    pub request_timeout: Option<u64>,
    /// Open connections [default: 1000].
    #[arg(long)]
    pub max_connections: Option<usize>,
    /// Open connections from one client address [default: 64].
    #[arg(long)]
    pub max_connections_per_client: Option<usize>,
    /// The last connections under --max-connections, kept for clients with fewer than 8 open
    /// [default: 250].
    #[arg(long)]
    pub connections_reserve: Option<usize>,
    /// Open WebSockets [default: 2000].
    #[arg(long)]
    pub max_websockets: Option<usize>,
    /// Open WebSockets from one client address [default: 32].
    #[arg(long)]
    pub max_websockets_per_client: Option<usize>,
    /// Engine searches waiting or running [default: 256].
    #[arg(long)]
    pub engine_queue: Option<usize>,
    /// Engine searches waiting or running for one client address [default: 8].
    #[arg(long)]
    pub engine_per_client: Option<usize>,
    /// Imports read at once [default: 2].
    #[arg(long)]
    pub imports_at_once: Option<usize>,
    /// Memory for the games kept in memory, in MiB (estimated) [default: 64].
    #[arg(long)]
    pub cache_mib: Option<usize>,
    /// Seconds a write to a client may wait for it to read before it is closed [default: 10].
    #[arg(long)]
    pub write_timeout: Option<u64>,
    /// Login attempts for one account name at once [default: 5] ...
    #[arg(long)]
    pub logins_per_name_burst: Option<u32>,
    /// ... then one more every this many seconds [default: 20].
    #[arg(long)]
    pub logins_per_name_every: Option<u64>,
    /// Login and sign-up attempts from one client at once [default: 20] ...
    #[arg(long)]
    pub logins_per_client_burst: Option<u32>,
    /// ... then one more every this many seconds [default: 3].
    #[arg(long)]
    pub logins_per_client_every: Option<u64>,
    /// Seeks and challenges one account may make at once [default: 10] ...
    #[arg(long)]
    pub seeks_burst: Option<u32>,
    /// ... then one more every this many seconds [default: 6].
    #[arg(long)]
    pub seeks_every: Option<u64>,
}

impl LimitArgs {
    fn limits(&self) -> Limits {
        let mut l = Limits::default();
        let set = |target: &mut usize, value: Option<usize>| {
            if let Some(v) = value {
                *target = v;
            }
        };
        set(&mut l.body_bytes, self.max_body);
        set(&mut l.record_bytes, self.max_record);
        set(&mut l.record.tags, self.max_tags);
        set(&mut l.record.tag_length, self.max_tag_length);
        set(&mut l.record.comment_length, self.max_comment_length);
        set(&mut l.record.plies, self.max_plies);
        set(&mut l.uri_bytes, self.max_uri);
        set(&mut l.connections, self.max_connections);
        set(
            &mut l.connections_per_client,
            self.max_connections_per_client,
        );
        set(&mut l.connections_reserve, self.connections_reserve);
        set(&mut l.websockets, self.max_websockets);
        set(&mut l.websockets_per_client, self.max_websockets_per_client);
        set(&mut l.engine_queue, self.engine_queue);
        set(&mut l.engine_per_client, self.engine_per_client);
        set(&mut l.imports_at_once, self.imports_at_once);
        if let Some(mib) = self.cache_mib {
            l.cache_bytes = mib.saturating_mul(1 << 20);
        }
        if let Some(secs) = self.write_timeout {
            l.write_timeout = Duration::from_secs(secs.max(1));
        }
        if let Some(n) = self.games_burst {
            l.games_burst = n;
        }
        if let Some(n) = self.logins_per_name_burst {
            l.logins_per_name_burst = n;
        }
        if let Some(s) = self.logins_per_name_every {
            l.logins_per_name_every = Duration::from_secs(s);
        }
        if let Some(n) = self.logins_per_client_burst {
            l.logins_per_client_burst = n;
        }
        if let Some(s) = self.logins_per_client_every {
            l.logins_per_client_every = Duration::from_secs(s);
        }
        if let Some(n) = self.seeks_burst {
            l.seeks_burst = n;
        }
        if let Some(s) = self.seeks_every {
            l.seeks_every = Duration::from_secs(s);
        }
        if let Some(ms) = self.games_every_ms {
            l.games_every = Duration::from_millis(ms);
        }
        if let Some(s) = self.header_timeout {
            l.header_timeout = Duration::from_secs(s);
        }
        if let Some(s) = self.first_byte_timeout {
            l.first_byte_timeout = Duration::from_secs(s);
        }
        if let Some(s) = self.request_timeout {
            l.request_timeout = Duration::from_secs(s);
        }
        l
    }
}

/// Runs the server until Ctrl-C (or SIGTERM), printing the address to open.
pub fn run(args: Args) -> anyhow::Result<()> {
    process::init_tracing();
    let mut config = emergo_server::Config::new(args.addr, &args.database.db);
    config.engine_workers = args.engine_threads;
    config.limits = args.limits.limits();
    config.public_url = args.public_url;
    config.allowed_origins = args.allow_origins;
    config.allowed_hosts = args.allow_hosts;
    config.trusted_proxy = args.trusted_proxy;
    process::block_on(async move {
        let server = emergo_server::Server::start(config).await?;
        process::announce(&format!("Open {} in a browser", server.url()));
        process::wait_for_signal().await;
        tracing::info!("shutting down");
        server.shutdown().await
    })
}
