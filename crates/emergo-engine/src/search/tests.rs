use super::*;
use emergo_core::Color;

fn game_of(text: &str) -> Game {
    Game::new(text.parse::<Position>().expect("valid position text"))
}

fn search_game(game: &Game, depth: u32) -> FullResult {
    let tt = TranspositionTable::new(4);
    let stop = AtomicBool::new(false);
    search(
        game,
        &Limits::depth(depth),
        &SearchOptions::default(),
        &tt,
        &stop,
        &mut |_| {},
    )
}

fn pv_text(r: &FullResult) -> Vec<String> {
    r.result.pv.iter().map(|m| m.to_string()).collect()
}

/// RULES.md worked example: White feeds with `f4-e4`; Black must take two (majority rule,
/// R7.3); White then takes five, passing its own start square (R7.2) and wins (R10.1).
#[test]
fn finds_the_worked_example_combination_r7() {
    let r = search_game(&game_of("W:0:0:c5=B,d6=B,e5=B,f4=WWWW,g4=W,h4=BB"), 3);
    assert_eq!(pv_text(&r)[..3], ["f4-e4", "h4xf4xd4", "e4xc4xc6xe6xe4xc4"]);
    assert_eq!(mate_in(r.result.score), Some(2));
}

/// After `f4-e4`, Black has one legal move; the search plays it and sees the loss coming.
#[test]
fn the_forced_reply_in_the_worked_example_is_found_and_judged_lost_r7_3() {
    let mut game = game_of("W:0:0:c5=B,d6=B,e5=B,f4=WWWW,g4=W,h4=BB");
    game.play_text("f4-e4").unwrap();
    let r = search_game(&game, 1);
    assert_eq!(pv_text(&r)[..2], ["h4xf4xd4", "e4xc4xc6xe6xe4xc4"]);
    assert_eq!(mate_in(r.result.score), Some(-1));
}

/// A won capture combination (a position from a random game of the shared test data): White
/// steps `g6-g5`, Black must jump it (R5.1) with its thin cap `g4` over five White men, and White
/// then jumps that cap, liberating six men (R6). Quiescence sees it at depth 1.
#[test]
fn finds_a_sacrifice_that_liberates_six_men_r6() {
    let game = game_of("W:0:0:b5=BBB,c3=BB,f4=BBBW,f8=WWWB,g4=BWWWWW,g6=WWWBB");
    for depth in 1..=5 {
        let r = search_game(&game, depth);
        assert_eq!(
            pv_text(&r)[..3],
            ["g6-g5", "g4xg6", "g5xg7"],
            "depth {depth}"
        );
        assert!(
            r.result.score >= 300,
            "depth {depth}: score {}",
            r.result.score
        );
    }
}

/// A feeder — a step next to an enemy column with an empty square behind — lets Black take two
/// men (e7xe5xe3) and win. The search declines it at every depth; from depth 2 on it also
/// leaves Black no capture at all (at depth 1 the evaluation alone judges `d6-d7 e7xc7`, a man
/// for a thin cap on the rim, as fair).
#[test]
fn declines_a_feeder_that_loses_two_men() {
    let game = game_of("W:0:0:a5=B,d6=W,e4=W,e7=B");
    let feeder = game.position().parse_move("d6-e6").unwrap();
    for depth in 1..=4 {
        let r = search_game(&game, depth);
        let best = r.result.best.unwrap();
        assert_ne!(best, feeder, "depth {depth}");
        let after = game.position().play(best).unwrap();
        assert!(
            depth == 1 || !after.can_capture(Color::Black),
            "depth {depth}: {best}"
        );
        let feeder_score = r
            .root_scores
            .iter()
            .find(|(m, _)| *m == feeder)
            .map(|&(_, s)| s);
        if let Some(s) = feeder_score {
            assert!(s < r.result.score);
        }
    }
}

/// R10.3: with the game's history, the only move repeats a position for the third time, so
/// the search scores a draw though White is far ahead.
#[test]
fn a_third_occurrence_through_the_game_history_scores_a_draw_r10_3() {
    let mut game = game_of("W:0:0:e3=WWWWBB,a5=B");
    for m in [
        "e3-e2", "a5-b5", "e2-e1", "b5-a5", "e1-e2", "a5-b5", "e2-e1", "b5-a5",
    ] {
        game.play_text(m).unwrap();
    }
    assert_eq!(game.repetitions(), 2);
    assert!(!game.is_over());
    let with_history = search_game(&game, 4);
    assert_eq!(with_history.result.best.unwrap().to_string(), "e1-e2");
    assert_eq!(with_history.result.score, DRAW);
    let fresh = search_game(&Game::new(*game.position()), 4);
    assert!(fresh.result.score > 200, "score {}", fresh.result.score);
}

/// R10.3 inside the search: a position of the search path met again is a draw at once; one
/// met once before the root is not yet (the game needs a third occurrence).
#[test]
fn repetition_counts_the_search_path_and_the_game_history_r10_3() {
    let p = |t: &str| t.parse::<Position>().unwrap();
    let (x, y, z) = (
        p("W:0:0:a5=W,i5=B"),
        p("B:0:0:b5=W,i5=B"),
        p("W:0:0:b5=W,h5=B"),
    );
    let tt = TranspositionTable::new(1);
    let stop = AtomicBool::new(false);
    let shared = Shared {
        tt: &tt,
        stop: &stop,
        abort: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
    };
    let options = SearchOptions::default();
    let tc = TimeControl::new(&Limits::depth(1), Color::White);
    // History x, y, root z; the search path then meets y, then z.
    let mut w = Worker::new(&shared, &options, &tc, &[x, y, z], 0);
    w.push(&y);
    assert!(
        !w.is_repetition(),
        "y met once before the root: a second occurrence"
    );
    w.push(&z);
    assert!(w.is_repetition(), "the root met again inside the search");
    let mut w = Worker::new(&shared, &options, &tc, &[x, y, x, y, z], 0);
    w.push(&y);
    assert!(
        w.is_repetition(),
        "y twice before the root: a third occurrence"
    );
}

/// R10.1: the side to move with nothing left has lost; R10.2: blocked is a draw.
#[test]
fn lost_and_blocked_positions_score_as_the_rules_say_r10_1_r10_2() {
    let lost = search_game(&game_of("B:0:0:c4=W"), 3);
    assert_eq!(lost.result.best, None);
    assert_eq!(lost.result.score, -MATE);
    // White's only column on e1 is hemmed in by e2 (Black), and jumping e2 needs e3 empty.
    let blocked = search_game(&game_of("W:0:0:e1=W,e2=B,e3=B"), 3);
    assert_eq!(blocked.result.best, None);
    assert_eq!(blocked.result.score, DRAW);
}

/// The score of every root move is exact with `exact_root`, and the best matches the normal
/// search's.
#[test]
fn exact_root_scores_agree_with_the_normal_search() {
    // The linear evaluation: with it the two searches meet exactly on this position. With the
    // learned one, late move reductions inside the subtrees leave them a centiman apart (90
    // against 89), which is the search's usual instability, not a disagreement at the root.
    let game = game_of("W:0:0:a5=B,d6=W,e4=W,e7=B");
    let stop = AtomicBool::new(false);
    let linear = SearchOptions {
        eval: EvalKind::Linear,
        ..SearchOptions::default()
    };
    let options = SearchOptions {
        exact_root: true,
        ..linear.clone()
    };
    let tt = TranspositionTable::new(4);
    let exact = search(&game, &Limits::depth(3), &options, &tt, &stop, &mut |_| {});
    let tt = TranspositionTable::new(4);
    let normal = search(&game, &Limits::depth(3), &linear, &tt, &stop, &mut |_| {});
    assert_eq!(exact.root_scores.len(), game.position().legal_moves().len());
    let top = exact.root_scores.iter().map(|&(_, s)| s).max().unwrap();
    assert_eq!(top, normal.result.score);
}

/// The node limit is exact on one thread, and a stop flag set beforehand ends the search at
/// once with a legal move.
#[test]
fn node_limits_and_the_stop_flag_end_the_search() {
    let game: Game = Game::default();
    let tt = TranspositionTable::new(4);
    let stop = AtomicBool::new(false);
    let r = search(
        &game,
        &Limits::nodes(5000),
        &SearchOptions::default(),
        &tt,
        &stop,
        &mut |_| {},
    );
    assert!(r.result.nodes <= 5000, "{} nodes", r.result.nodes);
    assert!(r.result.best.is_some());
    stop.store(true, Ordering::Relaxed);
    let mut limits = Limits::depth(50);
    limits.infinite = true;
    let r = search(
        &game,
        &limits,
        &SearchOptions::default(),
        &tt,
        &stop,
        &mut |_| {},
    );
    let best = r.result.best.unwrap();
    assert!(game.position().is_legal(best));
}

/// Each completed depth is reported once, in order, with a legal principal variation.
#[test]
fn info_is_reported_per_depth_with_a_playable_pv() {
    let game = game_of(
        "B:0:0:b4=BW,c5=B,d3=B,d7=B,e1=BWW,e7=BWWWW,e8=B,e9=B,f3=W,f5=WB,f8=BW,g4=WB,g6=W,h6=B",
    );
    let tt = TranspositionTable::new(4);
    let stop = AtomicBool::new(false);
    let mut infos = Vec::new();
    search(
        &game,
        &Limits::depth(5),
        &SearchOptions::default(),
        &tt,
        &stop,
        &mut |i| infos.push(i.clone()),
    );
    assert_eq!(
        infos.iter().map(|i| i.depth).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5]
    );
    for info in &infos {
        let mut pos = *game.position();
        for &m in &info.pv {
            pos.try_play(m).unwrap();
        }
    }
}

/// With a margin, the root moves within it of the best keep their exact scores and the others
/// are bounded below the margin, so none of them could be chosen by a level's noise.
#[test]
fn a_root_margin_keeps_exact_scores_near_the_best() {
    let game = game_of("B:0:0:b5=BW,c3=BW,c4=BB,d3=BWW,d6=B,e5=B,e9=WBB,f8=W,g7=W,h4=WWW,i5=WWBBB");
    let run = |margin: i32| {
        let tt = TranspositionTable::new(4);
        let stop = AtomicBool::new(false);
        let options = SearchOptions {
            exact_root: true,
            root_margin: margin,
            ..SearchOptions::default()
        };
        search(&game, &Limits::depth(3), &options, &tt, &stop, &mut |_| {}).root_scores
    };
    let all = run(INFINITY);
    let near = run(30);
    let best = all.iter().map(|&(_, s)| s).max().unwrap();
    assert_eq!(near.iter().map(|&(_, s)| s).max(), Some(best));
    for (m, s) in all {
        let t = near.iter().find(|(n, _)| *n == m).map(|&(_, t)| t).unwrap();
        if s >= best - 30 {
            assert_eq!(s, t, "{m}");
        } else {
            assert!(t < best - 30, "{m}: {t}");
        }
    }
}

/// Lazy SMP threads give a legal move and the same mate as one thread.
#[test]
fn threads_agree_on_the_worked_example() {
    let game = game_of("W:0:0:c5=B,d6=B,e5=B,f4=WWWW,g4=W,h4=BB");
    let tt = TranspositionTable::new(4);
    let stop = AtomicBool::new(false);
    let options = SearchOptions {
        threads: 3,
        ..SearchOptions::default()
    };
    let r = search(&game, &Limits::depth(6), &options, &tt, &stop, &mut |_| {});
    assert_eq!(r.result.best.unwrap().to_string(), "f4-e4");
    assert_eq!(mate_in(r.result.score), Some(2));
}

#[test]
fn mate_scores_convert_to_moves() {
    assert_eq!(mate_in(MATE - 3), Some(2));
    assert_eq!(mate_in(-(MATE - 2)), Some(-1));
    assert_eq!(mate_in(250), None);
    assert_eq!(from_tt(to_tt(MATE - 7, 4), 4), MATE - 7);
    assert_eq!(from_tt(to_tt(-(MATE - 9), 6), 2), -(MATE - 9) - 4);
}

/// Multi-PV on the bench positions at a fixed depth: line 1 is the single-PV search exactly
/// (move, score and PV); the lines lead to distinct positions and are sorted by score.
#[test]
fn multipv_line_one_is_single_pv_and_lines_are_distinct_and_sorted() {
    let stop = AtomicBool::new(false);
    for (name, text) in crate::bench::POSITIONS {
        let game = game_of(text);
        let run = |multipv: usize| {
            let options = SearchOptions {
                multipv,
                ..SearchOptions::default()
            };
            let tt = TranspositionTable::new(4);
            search(&game, &Limits::depth(6), &options, &tt, &stop, &mut |_| {}).result
        };
        let single = run(1);
        let multi = run(3);
        assert_eq!(single.lines.len(), 1, "{name}");
        assert_eq!(
            (multi.best, multi.score, &multi.pv),
            (single.best, single.score, &single.pv),
            "{name}"
        );
        assert_eq!(multi.lines[0].pv, single.pv, "{name}");
        let pos = *game.position();
        let mut children: Vec<u64> = multi
            .lines
            .iter()
            .map(|l| {
                let mut child = pos;
                child.play_unchecked(l.pv[0]);
                child.hash()
            })
            .collect();
        assert_eq!(
            multi.lines.len(),
            distinct_children(&pos, &pos.legal_moves()).min(3),
            "{name}"
        );
        assert!(
            multi.lines.windows(2).all(|w| w[0].score >= w[1].score),
            "{name}"
        );
        children.sort_unstable();
        children.dedup();
        assert_eq!(children.len(), multi.lines.len(), "{name}");
    }
}

/// Each depth reports all its lines; a position with fewer distinct moves gives fewer lines.
#[test]
fn multipv_reports_every_depth_and_no_more_lines_than_moves() {
    let stop = AtomicBool::new(false);
    let options = SearchOptions {
        multipv: 8,
        ..SearchOptions::default()
    };
    let tt = TranspositionTable::new(4);
    let mut seen = Vec::new();
    let game = game_of("W:0:0:c5=B,d6=B,e5=B,f4=WWWW,g4=W,h4=BB");
    let moves = distinct_children(game.position(), &game.position().legal_moves());
    search(&game, &Limits::depth(3), &options, &tt, &stop, &mut |i| {
        seen.push((i.depth, i.lines.len()))
    });
    assert_eq!(
        seen,
        [(1, moves.min(8)), (2, moves.min(8)), (3, moves.min(8))]
    );
}

/// The search plays every board (issue 20): legal best moves and distinct multi-PV lines on the
/// 7×7 board and the hexagon, and a win found by R10.1 on the hexagon.
#[test]
fn the_search_plays_the_7x7_board_and_the_hexagon() {
    use emergo_core::{Emergo7x7, HexEmergo};
    fn check<V: Variant>(text: &str) {
        let game = Game::<V>::new(text.parse().expect("valid position text"));
        let tt = TranspositionTable::new(4);
        let stop = AtomicBool::new(false);
        let options = SearchOptions {
            multipv: 3,
            ..SearchOptions::default()
        };
        let full = search(&game, &Limits::depth(4), &options, &tt, &stop, &mut |_| {});
        let r = full.result;
        assert_eq!(r.depth, 4, "{text}");
        assert!(game.position().is_legal(r.best.unwrap()), "{text}");
        let firsts: Vec<_> = r.lines.iter().map(|l| l.first()).collect();
        assert_eq!(firsts.len(), 3, "{text}");
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    }
    check::<Emergo7x7>("W:8:8");
    check::<Emergo7x7>("B:6:7:c3=W,d5=W,e4=B");
    check::<HexEmergo>("W:12:12");
    check::<HexEmergo>("B:10:11:c3=W,d5=W,e4=B");
    // White's c3 over Black's lone man d4 jumps it to e5 (a hexagon step: both up): Black has
    // nothing left, R10.1.
    let game = Game::<HexEmergo>::new("W:0:0:c3=W,d4=B".parse().unwrap());
    let full = search(
        &game,
        &Limits::depth(2),
        &SearchOptions::default(),
        &TranspositionTable::new(1),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert_eq!(full.result.best.unwrap().to_string(), "c3xe5");
    assert_eq!(mate_in(full.result.score), Some(1));
}
