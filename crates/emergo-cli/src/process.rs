//! What the long-running commands (`serve`, `worker`) share as processes: the log, the async
//! runtime, and waiting to be told to stop (Ctrl-C, SIGTERM).

use anyhow::Context;
use std::future::Future;

/// Logs to stderr; `RUST_LOG` chooses what (default: info).
pub fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// Runs `main` on a multi-threaded runtime until it returns.
pub fn block_on<F: Future<Output = anyhow::Result<()>>>(main: F) -> anyhow::Result<()> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?
        .block_on(main)
}

/// Prints a line on stdout at once (a supervisor or a test waits for it).
pub fn announce(line: &str) {
    use std::io::Write as _;
    // Nobody reading is no reason to stop a server.
    let _ = outln!("{line}");
    let _ = std::io::stdout().flush();
}

/// Waits until the process is told to stop: Ctrl-C, or SIGTERM on Unix.
pub async fn wait_for_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = terminate => {}
    }
}
