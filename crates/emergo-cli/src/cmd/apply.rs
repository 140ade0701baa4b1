//! `emergo apply [--variant V] [--position <POS>] <MOVE>...`: plays the moves and prints the
//! position text.

use super::{moves::sorted_moves, position_or_start, Exit, VariantArg};
use emergo_core::{with_variant, Variant};

#[derive(clap::Args)]
pub struct Args {
    /// Position text (N2); the start by default.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// Moves in notation (N1), played in order.
    #[arg(required = true, allow_hyphen_values = true)]
    moves: Vec<String>,
    #[command(flatten)]
    variant: VariantArg,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    with_variant!(args.variant.variant, V => run_on::<V>(&args))
}

fn run_on<V: Variant>(args: &Args) -> anyhow::Result<()> {
    let mut pos = position_or_start::<V>(args.position.as_deref())?;
    for (i, text) in args.moves.iter().enumerate() {
        match pos.parse_move(text) {
            Ok(mv) => pos.play_unchecked(mv),
            Err(e) => {
                let legal = sorted_moves(&pos);
                let legal = if legal.is_empty() {
                    "none".to_string()
                } else {
                    legal.join(" ")
                };
                return Err(Exit {
                    code: 2,
                    message: format!(
                        "move {} ('{text}'): {e}; position {pos}; legal moves: {legal}",
                        i + 1
                    ),
                }
                .into());
            }
        }
    }
    outln!("{pos}")?;
    Ok(())
}
