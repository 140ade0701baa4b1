//! The players only ever play legal moves: over positions of the shared random games, through
//! whole games, at every level.

use emergo_core::{Color, Game, Outcome, Position, Status};
use emergo_engine::{AlphaBetaPlayer, Level, Limits, MctsPlayer, Player, RandomPlayer};

const POSITIONS: &str = include_str!("../../emergo-core/tests/data/positions.tsv");

/// Every 97th position of the 23,379 in the shared data: entering, captures, shadowpieces,
/// movement, and finished positions.
fn sample() -> Vec<Position> {
    POSITIONS
        .lines()
        .step_by(97)
        .filter_map(|l| l.split('\t').next()?.parse().ok())
        .collect()
}

#[test]
fn alphabeta_never_plays_an_illegal_move_over_random_positions() {
    let mut player = AlphaBetaPlayer::new(Level::MAX);
    let positions = sample();
    assert!(positions.len() > 200);
    for pos in positions {
        let game = Game::new(pos);
        match player.choose_move(&game, &Limits::nodes(3_000)) {
            Some(m) => assert!(pos.is_legal(m), "{m} in {pos}"),
            None => assert!(pos.legal_moves().is_empty(), "no move in {pos}"),
        }
    }
}

#[test]
fn mcts_never_plays_an_illegal_move_over_random_positions() {
    let mut player = MctsPlayer::new(11);
    for pos in sample().into_iter().step_by(3) {
        let game = Game::new(pos);
        match player.choose_move(&game, &Limits::nodes(30)) {
            Some(m) => assert!(pos.is_legal(m), "{m} in {pos}"),
            None => assert!(pos.legal_moves().is_empty(), "no move in {pos}"),
        }
    }
}

/// Plays `a` (White when `a_white`) against `b`; returns the outcome.
fn play(a: &mut dyn Player, b: &mut dyn Player, a_white: bool, limits: &Limits) -> Status {
    let mut game = Game::default();
    while !game.is_over() && game.ply() < 400 {
        let white = game.position().turn() == Color::White;
        let p: &mut dyn Player = if white == a_white { &mut *a } else { &mut *b };
        let m = p
            .choose_move(&game, limits)
            .expect("an ongoing game has a move");
        game.play(m)
            .unwrap_or_else(|e| panic!("{}: {e} in {}", p.name(), game.position()));
    }
    game.status()
}

/// Each level plays a whole game against a random player, with legal moves only.
#[test]
fn every_level_plays_legal_moves_through_a_whole_game() {
    for level in Level::all() {
        let mut engine = AlphaBetaPlayer::new(level).with_seed(u64::from(level.get()));
        let mut random = RandomPlayer::new(u64::from(level.get()));
        play(
            &mut engine,
            &mut random,
            level.get() % 2 == 0,
            &Limits::nodes(2_000),
        );
    }
}

#[test]
fn full_strength_beats_random_play() {
    for seed in 0..4u64 {
        let mut engine = AlphaBetaPlayer::new(Level::MAX);
        let mut random = RandomPlayer::new(seed);
        let engine_white = seed % 2 == 0;
        let status = play(
            &mut engine,
            &mut random,
            engine_white,
            &Limits::nodes(5_000),
        );
        let engine_color = if engine_white {
            Color::White
        } else {
            Color::Black
        };
        assert!(
            matches!(status, Status::Finished { outcome: Outcome::Win(c), .. } if c == engine_color),
            "seed {seed}: {status:?}"
        );
    }
}

#[test]
fn analyse_reports_depths_and_returns_the_pv_head() {
    let mut player = AlphaBetaPlayer::new(Level::MAX);
    let game = Game::default();
    let mut depths = Vec::new();
    let r = player.analyse(&game, &Limits::depth(4), |i| depths.push(i.depth));
    assert_eq!(depths, [1, 2, 3, 4]);
    assert_eq!(r.depth, 4);
    assert_eq!(r.best, r.pv.first().copied());
    assert!(r.nodes > 0);
}
