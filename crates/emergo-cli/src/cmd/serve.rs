//! `emergo serve`: the web app. See docs/web.md.

use std::net::SocketAddr;

/// Run the web app: the page, the API and live games.
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The database: a file name or an `sqlite://` URL (created when missing, migrated at start).
    #[arg(long, default_value = "sqlite://emergo.db")]
    pub db: String,
    /// Engine worker threads (default: one per core).
    #[arg(long)]
    pub engine_threads: Option<usize>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    emergo_server::init_tracing();
    let mut config = emergo_server::Config::new(args.addr, &args.db);
    config.engine_workers = args.engine_threads;
    emergo_server::run_blocking(config)
}
