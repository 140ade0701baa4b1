//! `emergo explorer rebuild` and `emergo explorer import FILE`: the opening explorer's
//! statistics (docs/api.md, "Opening explorer") made again from the stored games, or added from
//! a file of records (self-play from `emergo match --pgn`, say).

use super::{Database, Exit};
use crate::process;
use anyhow::Context;
use emergo_server::explorer::Explorer;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;

/// The opening explorer's statistics.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(clap::Subcommand)]
pub enum Action {
    /// Forget the statistics and index every finished stored game again (records indexed from
    /// files are to be imported again after it).
    Rebuild {
        #[command(flatten)]
        db: Database,
    },
    /// Index the game records of FILE, each on the board its Variant tag names (the 9×9 board
    /// without one), each once whichever file it comes from; records without a result are left
    /// out.
    Import {
        file: PathBuf,
        #[command(flatten)]
        db: Database,
    },
}

/// The games indexed per step of a rebuild.
const REBUILD_STEP: u32 = 500;

pub fn run(args: Args) -> anyhow::Result<()> {
    process::block_on(async move {
        match args.action {
            Action::Rebuild { db } => rebuild(&db).await,
            Action::Import { file, db } => import(&file, &db).await,
        }
    })
}

async fn open(db: &Database) -> anyhow::Result<Explorer> {
    Ok(Explorer::new(db.open().await?))
}

async fn rebuild(db: &Database) -> anyhow::Result<()> {
    let explorer = open(db).await?;
    explorer.reset().await?;
    let total = explorer.pending().await?;
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {per_sec}  [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut left = total;
    let mut counted = 0;
    loop {
        counted += explorer.catch_up(REBUILD_STEP).await?;
        let now = explorer.pending().await?;
        bar.set_position(total.saturating_sub(now));
        // A step that indexed nothing: done, or only games that cannot be read are left.
        if now == 0 || now >= left {
            left = now;
            break;
        }
        left = now;
    }
    bar.finish();
    outln!("indexed {counted} games ({} finished games in all)", total)?;
    if left > 0 {
        return Err(Exit {
            code: 1,
            message: format!("{left} finished games could not be indexed (see the log)"),
        }
        .into());
    }
    Ok(())
}

async fn import(file: &PathBuf, db: &Database) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let explorer = open(db).await?;
    let report = explorer.import_records(&text).await?;
    for (line, why) in &report.unreadable {
        eprintln!("{}:{line}: not indexed: {why}", file.display());
    }
    outln!(
        "indexed {} records; {} indexed before; {} without a result; {} unreadable",
        report.indexed,
        report.known,
        report.unfinished,
        report.unreadable.len()
    )?;
    if report.unreadable.is_empty() {
        Ok(())
    } else {
        Err(Exit {
            code: 1,
            message: format!("{} records could not be read", report.unreadable.len()),
        }
        .into())
    }
}
