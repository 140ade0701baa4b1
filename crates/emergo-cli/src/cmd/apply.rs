//! `emergo apply [--position <POS>] <MOVE>...`: plays the moves and prints the position text.

use super::{moves::sorted_moves, parse_position, Exit};

#[derive(clap::Args)]
pub struct Args {
    /// Position text (N2); the start by default.
    #[arg(long, default_value = "W:12:12", allow_hyphen_values = true)]
    position: String,
    /// Moves in notation (N1), played in order.
    #[arg(required = true, allow_hyphen_values = true)]
    moves: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut pos = parse_position(&args.position)?;
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
    println!("{pos}");
    Ok(())
}
