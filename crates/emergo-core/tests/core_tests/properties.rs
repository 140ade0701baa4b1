//! Property tests over random legal games (proptest chooses the seeds and lengths).

use emergo_core::{Color, Game, GameRecord, Move, Position, Square};
use proptest::prelude::*;

/// A random legal game from the start: each choice is an index taken modulo the move count.
fn random_game(choices: &[u16]) -> Game {
    let mut game = Game::default();
    for &c in choices {
        if game.is_over() {
            break;
        }
        let moves = game.position().legal_moves();
        game.play(moves[c as usize % moves.len()]).unwrap();
    }
    game
}

/// Some moves that may or may not be legal: every entry, every step and a few capture texts.
fn candidate_moves(p: &Position) -> Vec<Move> {
    let mut v: Vec<Move> = Square::all().map(Move::Enter).collect();
    for from in Square::all() {
        for to in Square::all() {
            if from != to {
                v.push(Move::Step { from, to });
            }
        }
    }
    v.extend(p.legal_moves());
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn r2_twelve_men_a_side_are_conserved(choices in prop::collection::vec(any::<u16>(), 0..200)) {
        let game = random_game(&choices);
        for p in game.positions() {
            for c in Color::ALL {
                prop_assert_eq!(p.men_on_board(c) + p.hand(c) as u32, 12, "{}", p);
            }
        }
    }

    #[test]
    fn r3_every_column_has_men_on_top_and_at_most_two_layers(choices in prop::collection::vec(any::<u16>(), 0..200)) {
        let game = random_game(&choices);
        for p in game.positions() {
            for (sq, col) in p.columns() {
                prop_assert!(col.men >= 1, "{} on {}", p, sq);
                prop_assert!(p.owned(col.owner).contains(sq));
                prop_assert!(!p.owned(col.owner.other()).contains(sq));
            }
        }
    }

    #[test]
    fn incremental_hash_equals_hash_from_scratch(choices in prop::collection::vec(any::<u16>(), 0..200)) {
        let game = random_game(&choices);
        for p in game.positions() {
            prop_assert_eq!(p.hash(), p.hash_from_scratch());
        }
    }

    #[test]
    fn n1_n2_notation_and_position_text_round_trip(choices in prop::collection::vec(any::<u16>(), 0..200)) {
        let game = random_game(&choices);
        for p in game.positions() {
            let back: Position = p.to_string().parse().unwrap();
            prop_assert_eq!(back, *p);
            prop_assert_eq!(back.hash(), p.hash());
            for m in p.legal_moves() {
                prop_assert_eq!(p.parse_move(&m.to_string()).unwrap(), m);
            }
        }
    }

    #[test]
    fn every_listed_move_plays_and_no_other_does(choices in prop::collection::vec(any::<u16>(), 0..200)) {
        let game = random_game(&choices);
        let p = *game.position();
        let legal = p.legal_moves();
        for m in candidate_moves(&p) {
            let mut q = p;
            let result = q.try_play(m);
            prop_assert_eq!(result.is_ok(), legal.contains(&m), "{} {}", p, m);
            if result.is_err() {
                prop_assert_eq!(q, p);
                prop_assert_eq!(q.hash(), p.hash());
            }
        }
    }

    /// R10.3: the counted history agrees with counting equal positions by hand, at every ply of
    /// random games among few columns (where positions repeat often), and after undo.
    #[test]
    fn r10_3_repetition_counts_equal_a_count_of_equal_positions(choices in prop::collection::vec(any::<u16>(), 0..300)) {
        let mut game = Game::new("W:0:0:a5=W,c5=WW,g5=B,i5=BB".parse().unwrap());
        let naive = |g: &Game| g.positions().iter().filter(|p| *p == g.position()).count();
        for &c in &choices {
            prop_assert_eq!(game.repetitions(), naive(&game));
            prop_assert_eq!(
                game.status().eq(&emergo_core::Status::Ongoing),
                naive(&game) < 3 && !game.position().is_lost() && !game.position().has_no_moves()
            );
            if game.is_over() {
                break;
            }
            let moves = game.position().legal_moves();
            game.play(moves[c as usize % moves.len()]).unwrap();
        }
        while game.undo().is_some() {
            prop_assert_eq!(game.repetitions(), naive(&game));
        }
    }

    #[test]
    fn undo_restores_the_position_exactly(choices in prop::collection::vec(any::<u16>(), 1..200)) {
        let mut game = random_game(&choices);
        let positions = game.positions().to_vec();
        for i in (0..game.ply()).rev() {
            game.undo().unwrap();
            prop_assert_eq!(*game.position(), positions[i]);
            prop_assert_eq!(game.position().hash(), positions[i].hash());
        }
        prop_assert!(game.undo().is_none());
    }

    #[test]
    fn game_records_read_back_what_was_written(choices in prop::collection::vec(any::<u16>(), 0..200)) {
        let game = random_game(&choices);
        let record = GameRecord::from_game(&game, &[("Event", "proptest"), ("White", "a \"quoted\" name")]);
        let text = record.to_string();
        let back = GameRecord::parse(&text).unwrap();
        prop_assert_eq!(&back, &record);
        prop_assert_eq!(back.to_string(), text);
        let replayed = back.to_game().unwrap();
        prop_assert_eq!(replayed.moves(), game.moves());
        prop_assert_eq!(replayed.status(), game.status());
    }

    /// Issue 17 item 9: comments holding braces, backslashes, newlines, parentheses, move
    /// numbers and moves (`} 2. a5 {`), on moves of the main line and of variations and before
    /// the first move: the written record reads back to the same tree, and the same text.
    #[test]
    fn a_written_record_reads_back_to_the_same_tree_whatever_its_comments_hold(
        choices in prop::collection::vec(any::<u16>(), 1..60),
        comments in prop::collection::vec(prop::option::of(comment_strategy()), 1..60),
        opening in prop::option::of(comment_strategy()),
        branch in any::<u16>(),
        line in prop::collection::vec(any::<u16>(), 1..6),
    ) {
        let game = random_game(&choices);
        let mut record = GameRecord::from_game(&game, &[("Event", "proptest")]);
        record.opening_comment = opening;
        for (m, c) in record.moves.iter_mut().zip(comments.iter().cycle()) {
            m.comment = c.clone();
        }
        if !record.moves.is_empty() {
            // A variation in place of one move, from the position before it, with comments.
            let at = branch as usize % record.moves.len();
            let mut before = Game::new(*game.start());
            for m in &game.moves()[..at] {
                before.play(*m).unwrap();
            }
            let mut variation = Vec::new();
            for (i, &c) in line.iter().enumerate() {
                if before.is_over() {
                    break;
                }
                let moves = before.position().legal_moves();
                let mv = moves[c as usize % moves.len()];
                before.play(mv).unwrap();
                let mut rm = emergo_core::record::RecordMove::new(mv);
                rm.comment = comments.get(i + 1).cloned().flatten();
                variation.push(rm);
            }
            record.moves[at].variations.push(variation);
        }
        let text = record.to_string();
        let back = GameRecord::parse(&text);
        prop_assert!(back.is_ok(), "{:?}\n{}", back, text);
        let back = back.unwrap();
        prop_assert_eq!(&back, &record, "{}", text);
        prop_assert_eq!(back.to_string(), text);
        let replayed = back.to_game().unwrap();
        prop_assert_eq!(replayed.moves(), game.moves());
    }
}

/// Comment texts made to break a record: braces, backslashes, newlines, parentheses, brackets,
/// quotes, move numbers, moves, result tokens, spaces and a few other characters.
fn comment_strategy() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "}", "{", "\\", "\\}", "\n", "\r\n", "\t", " ", "(", ")", "[", "]", "\"", "2.", "1...",
        "a5", "d3", "1-0", "*", ";", "%", "é", "\u{0}", "abc",
    ]);
    prop::collection::vec(pieces, 0..12).prop_map(|p| p.concat())
}
