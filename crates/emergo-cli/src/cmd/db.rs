//! `emergo db copy --from URL --to URL`: every game of one database into another, e.g. from the
//! embedded SQLite file into PostgreSQL when a site moves to several instances
//! (docs/deploy.md, "Moving from SQLite").

use super::Exit;

/// Work on a database as a whole.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(clap::Subcommand)]
pub enum Action {
    /// Copy every game (moves, seats, endings, kept records and reviews) into another
    /// database; games the target has already are left alone, so it can be run again.
    Copy {
        /// The database to read: `sqlite://emergo.db`, a file name, or `postgres://...`.
        #[arg(long)]
        from: String,
        /// The database to write (created and migrated when needed).
        #[arg(long)]
        to: String,
    },
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.action {
        Action::Copy { from, to } => copy(&from, &to),
    }
}

fn copy(from: &str, to: &str) -> anyhow::Result<()> {
    let report = emergo_platform::store::copy::copy_blocking(from, to, |done| {
        eprint!("\r{done} games read");
    })?;
    eprintln!();
    for (id, why) in &report.unreadable {
        eprintln!("not copied: game {id} cannot be read: {why}");
    }
    outln!(
        "copied {} games ({} moves); {} already there; {} unreadable",
        report.copied,
        report.moves,
        report.skipped,
        report.unreadable.len()
    )?;
    let rows: Vec<String> = report
        .rows
        .iter()
        .map(|(table, n)| format!("{table} {n}"))
        .collect();
    outln!("account rows written: {}", rows.join(", "))?;
    if report.unreadable.is_empty() {
        Ok(())
    } else {
        Err(Exit {
            code: 1,
            message: format!("{} games could not be read", report.unreadable.len()),
        }
        .into())
    }
}
