//! `emergo ugi`: the engine speaks UGI on stdin/stdout (see docs/engine.md).

/// Arguments of `emergo ugi` (none).
#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    let stdin = std::io::stdin().lock();
    emergo_engine::ugi::run(stdin, std::io::stdout())?;
    Ok(())
}
