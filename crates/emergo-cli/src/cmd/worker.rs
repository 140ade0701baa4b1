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

use crate::process;
use anyhow::Context;
use emergo_platform::store::{self, PgStore};
use emergo_worker::pool::EnginePool;
use std::time::Duration;
use tokio::sync::watch;

/// Engine workers with `--threads` searches at a time over the database, until Ctrl-C or SIGTERM.
pub fn run(args: Args) -> anyhow::Result<()> {
    process::init_tracing();
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let db_url = args.db;
    process::block_on(async move {
        if !store::is_postgres_url(&db_url) {
            anyhow::bail!(
                "emergo worker needs a postgres:// database (with SQLite, `emergo serve` runs the engine)"
            );
        }
        let store = PgStore::open(&db_url)
            .await
            .with_context(|| format!("cannot open the database {db_url}"))?;
        let pool = EnginePool::new(threads, threads * 2, threads * 2);
        let (stop, stopped) = watch::channel(false);
        let workers = emergo_worker::worker::spawn(&store, pool.clone(), threads, stopped);
        process::announce(&format!(
            "Engine worker {} ready: {threads} threads",
            workers.id()
        ));
        process::wait_for_signal().await;
        tracing::info!("engine worker stopping");
        let _ = stop.send(true);
        workers.join(Duration::from_secs(5)).await;
        pool.close();
        store.pool().close().await;
        Ok(())
    })
}
