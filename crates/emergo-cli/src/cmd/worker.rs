//! `emergo worker`: engine workers over a PostgreSQL database, on any machine. They take the
//! engine's replies and hints that the `emergo serve` instances queue in the database, search
//! them and answer them (docs/deploy.md, "Engine workers").

/// Run engine workers: take engine jobs from the database, search them, answer them.
#[derive(clap::Args)]
pub struct Args {
    /// The database the server instances use: a `postgres://` URL.
    #[arg(long)]
    pub db: String,
    /// Searches at a time (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    emergo_server::init_tracing();
    emergo_server::worker::run_blocking(&args.db, args.threads)
}
