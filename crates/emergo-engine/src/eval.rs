//! The static evaluation, made for Emergo: who controls which men, how safe each cap is, what
//! the opponent threatens, the men still to enter, mobility and blocked columns.
//!
//! Every weight lives in [`Weights`], so self-play tuning can change them in one place. Scores
//! are in hundredths of a man ("centimen"), from the side to move's point of view.

use emergo_core::bitboard::Bitboard;
use emergo_core::movegen::attackable;
use emergo_core::position::Position;
use emergo_core::{Color, Direction, Variant, VariantKind};

/// The evaluation weights, in centimen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A man of one's own colour on top of one's own column.
    pub man: i32,
    /// A man still in hand.
    pub hand: i32,
    /// An opponent's man held prisoner under one's column (the same man is lost to its owner).
    pub prisoner: i32,
    /// Per prisoner under a cap of one man: a single jump frees them all.
    pub thin_cap: i32,
    /// Per prisoner under a cap of two men.
    pub medium_cap: i32,
    /// Per prisoner under a cap the opponent can jump now (attacked), on top of the cap terms.
    pub exposed_prisoner: i32,
    /// A column the opponent can jump now: its top man is at stake.
    pub attacked_column: i32,
    /// Each of one's columns (spread and presence on the board).
    pub column: i32,
    /// Each man above the first in a column (tall columns take many jumps to break).
    pub height: i32,
    /// Per man of a shadowpiece still to come (the opponent's hand is empty, one's own is not).
    pub shadow: i32,
    /// Per step move available.
    pub mobility: i32,
    /// Per column that has no empty neighbour.
    pub blocked: i32,
    /// Per column on the edge of the board.
    pub edge: i32,
    /// The side to move's bonus.
    pub tempo: i32,
}

impl Default for Weights {
    /// Fitted by `emergo tune` to 2,000 self-play games (see docs/engine.md); they beat the
    /// hand-set weights they started from by 71% at 100 ms a move. Some signs look odd alone:
    /// men on top, in hand and imprisoned add up to 12 for each side, so only `hand - man` and
    /// `prisoner + man` mean something, and an attacked column is often one that attacks too.
    fn default() -> Self {
        Weights {
            man: 100,
            hand: -18,
            prisoner: 110,
            thin_cap: 50,
            medium_cap: 5,
            exposed_prisoner: 22,
            attacked_column: -32,
            column: -71,
            height: 4,
            shadow: -4,
            mobility: 6,
            blocked: 27,
            edge: 59,
            tempo: 51,
        }
    }
}

/// The weights of Emergo 7×7, fitted by `emergo tune --variant 7x7` to 1,000 self-play games on
/// that board (docs/engine.md, "Weights per variant"); they beat the square board's weights
/// there by 74.5% (200 games at 8,000 nodes a move).
const WEIGHTS_7X7: Weights = Weights {
    man: 100,
    hand: -22,
    prisoner: 140,
    thin_cap: 21,
    medium_cap: -16,
    exposed_prisoner: 27,
    attacked_column: -20,
    column: -73,
    height: 4,
    shadow: 25,
    mobility: 11,
    blocked: 19,
    edge: 12,
    tempo: 29,
};

/// The weights of HexEmergo, fitted by `emergo tune --variant hex` to 1,000 self-play games on
/// the hexagon (docs/engine.md, "Weights per variant"); they beat the square board's weights
/// there by 57.6% (400 games at 8,000 nodes a move). `hand` and `column` moved far along the
/// ties of the terms: a man entered onto an empty cell gains `man - hand + column` = 124
/// centimen here, 47 with the square board's weights.
const WEIGHTS_HEX: Weights = Weights {
    man: 100,
    hand: -138,
    prisoner: 108,
    thin_cap: 74,
    medium_cap: 31,
    exposed_prisoner: 24,
    attacked_column: -94,
    column: -114,
    height: 4,
    shadow: -9,
    mobility: 11,
    blocked: 28,
    edge: 65,
    tempo: 86,
};

impl Weights {
    /// The weights the engine plays with on the board `kind`: [`Weights::default`] (fitted on
    /// the square 9×9 board) for `emergo`, and weights fitted on each other board's own
    /// self-play games (see docs/engine.md, "Weights per variant").
    pub fn for_variant(kind: VariantKind) -> Weights {
        match kind {
            VariantKind::Emergo => Weights::default(),
            VariantKind::Emergo7x7 => WEIGHTS_7X7,
            VariantKind::HexEmergo => WEIGHTS_HEX,
        }
    }

    /// The names of the weights, as [`Weights::set`] takes them.
    pub const NAMES: [&'static str; 14] = [
        "man",
        "hand",
        "prisoner",
        "thin_cap",
        "medium_cap",
        "exposed_prisoner",
        "attacked_column",
        "column",
        "height",
        "shadow",
        "mobility",
        "blocked",
        "edge",
        "tempo",
    ];

    /// Sets the weight called `name`; false when there is no such weight.
    pub fn set(&mut self, name: &str, value: i32) -> bool {
        let field = match name {
            "man" => &mut self.man,
            "hand" => &mut self.hand,
            "prisoner" => &mut self.prisoner,
            "thin_cap" => &mut self.thin_cap,
            "medium_cap" => &mut self.medium_cap,
            "exposed_prisoner" => &mut self.exposed_prisoner,
            "attacked_column" => &mut self.attacked_column,
            "column" => &mut self.column,
            "height" => &mut self.height,
            "shadow" => &mut self.shadow,
            "mobility" => &mut self.mobility,
            "blocked" => &mut self.blocked,
            "edge" => &mut self.edge,
            "tempo" => &mut self.tempo,
            _ => return false,
        };
        *field = value;
        true
    }
}

/// The cells on the rim of the board `V`: fewer neighbours than the board has directions (four
/// on the square boards, six on the hexagon), read from the board's geometry.
const fn edge_bits<V: Variant>() -> u64 {
    let all = Bitboard::<V>::ALL;
    let mut inner = all.0;
    let mut i = 0;
    while i < Direction::HEX.len() {
        let d = Direction::HEX[i];
        // A direction the board does not have moves nothing.
        if all.shift(d).0 != 0 {
            inner &= all.shift(d.opposite()).shift(d).0;
        }
        i += 1;
    }
    all.0 & !inner
}

/// [`edge_bits`] as a constant of the board.
#[inline(always)]
fn edge<V: Variant>() -> Bitboard<V> {
    Bitboard::from_bits(const { edge_bits::<V>() })
}

/// Cells with at least one empty neighbour.
#[inline]
fn next_to_empty<V: Variant>(empty: Bitboard<V>) -> Bitboard<V> {
    V::DIRECTIONS
        .into_iter()
        .fold(Bitboard::EMPTY, |acc, d| acc | empty.shift(d))
}

/// The evaluation of `pos` for the side to move, in centimen.
pub fn evaluate<V: Variant>(pos: &Position<V>, w: &Weights) -> i32 {
    let white = side_score(pos, Color::White, w);
    let black = side_score(pos, Color::Black, w);
    let score = white - black;
    let score = if pos.turn() == Color::White {
        score
    } else {
        -score
    };
    score + w.tempo
}

fn side_score<V: Variant>(pos: &Position<V>, me: Color, w: &Weights) -> i32 {
    let own = pos.owned(me);
    let opp = pos.owned(me.other());
    let empty = pos.empty();
    let hand = pos.hand(me) as i32;
    let under_attack = attackable(own, opp, empty);
    let free = next_to_empty(empty);
    let mut s = hand * w.hand;
    if hand > 0 && pos.hand(me.other()) == 0 {
        s += hand * w.shadow;
    }
    for sq in own {
        let Some(col) = pos.column(sq) else { continue };
        let men = col.men as i32;
        let pris = col.prisoners as i32;
        s += men * w.man + pris * w.prisoner + w.column + (men - 1) * w.height;
        if pris > 0 {
            s -= pris
                * match men {
                    1 => w.thin_cap,
                    2 => w.medium_cap,
                    _ => 0,
                };
        }
        if under_attack.contains(sq) {
            s -= w.attacked_column;
            if men == 1 {
                s -= pris * w.exposed_prisoner;
            }
        }
    }
    s -= (own & edge::<V>()).len() as i32 * w.edge;
    s -= (own - free).len() as i32 * w.blocked;
    if pos.hand(me) == 0 {
        let steps: u32 = V::DIRECTIONS
            .into_iter()
            .map(|d| (own.shift(d) & empty).len() as u32)
            .sum();
        s += steps as i32 * w.mobility;
    }
    s
}

/// The evaluation's terms for the side to move, one per weight in the order of
/// [`Weights::NAMES`]: [`evaluate`] is their dot product with the weights (a test checks it on
/// thousands of positions). Tuning fits weights to these; the search uses [`evaluate`], which
/// sums as it goes: writing it as this dot product made `emergo bench` 20-25% slower.
pub fn features<V: Variant>(pos: &Position<V>) -> [i32; 14] {
    let mut f = [0; 14];
    let sign = |c: Color| if c == pos.turn() { 1 } else { -1 };
    for me in [Color::White, Color::Black] {
        let side = side_features(pos, me);
        for (total, term) in f.iter_mut().zip(side) {
            *total += sign(me) * term;
        }
    }
    f[13] = 1;
    f
}

/// One side's terms (tempo excluded), in the order of [`Weights::NAMES`].
fn side_features<V: Variant>(pos: &Position<V>, me: Color) -> [i32; 14] {
    let [mut man, mut hand, mut prisoner, mut thin, mut medium, mut exposed, mut attacked_n] =
        [0; 7];
    let [mut column, mut height, mut shadow, mut mobility] = [0; 4];
    let own = pos.owned(me);
    let opp = pos.owned(me.other());
    let empty = pos.empty();
    let in_hand = pos.hand(me) as i32;
    let under_attack = attackable(own, opp, empty);
    let free = next_to_empty(empty);
    hand += in_hand;
    if in_hand > 0 && pos.hand(me.other()) == 0 {
        shadow += in_hand;
    }
    for sq in own {
        let Some(col) = pos.column(sq) else { continue };
        let men = col.men as i32;
        let pris = col.prisoners as i32;
        man += men;
        prisoner += pris;
        column += 1;
        height += men - 1;
        match men {
            1 => thin -= pris,
            2 => medium -= pris,
            _ => {}
        }
        if under_attack.contains(sq) {
            attacked_n -= 1;
            if men == 1 {
                exposed -= pris;
            }
        }
    }
    let edge = -((own & edge::<V>()).len() as i32);
    let blocked = -((own - free).len() as i32);
    if pos.hand(me) == 0 {
        mobility = V::DIRECTIONS
            .into_iter()
            .map(|d| (own.shift(d) & empty).len() as i32)
            .sum();
    }
    [
        man, hand, prisoner, thin, medium, exposed, attacked_n, column, height, shadow, mobility,
        blocked, edge, 0,
    ]
}

impl Weights {
    /// The weights in the order of [`Weights::NAMES`].
    pub fn to_array(&self) -> [i32; 14] {
        [
            self.man,
            self.hand,
            self.prisoner,
            self.thin_cap,
            self.medium_cap,
            self.exposed_prisoner,
            self.attacked_column,
            self.column,
            self.height,
            self.shadow,
            self.mobility,
            self.blocked,
            self.edge,
            self.tempo,
        ]
    }

    /// Weights from values in the order of [`Weights::NAMES`].
    pub fn from_array(values: [i32; 14]) -> Weights {
        let mut w = Weights::default();
        for (name, value) in Weights::NAMES.iter().zip(values) {
            w.set(name, value);
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use emergo_core::Position;

    fn eval(text: &str) -> i32 {
        evaluate(&text.parse::<Position>().unwrap(), &Weights::default())
    }

    #[test]
    fn every_named_weight_can_be_set() {
        let mut w = Weights::default();
        for (i, name) in Weights::NAMES.iter().enumerate() {
            assert!(w.set(name, 1000 + i as i32), "{name}");
        }
        assert_eq!(w.man, 1000);
        assert_eq!(w.tempo, 1013);
        assert!(!w.set("nothing", 1));
    }

    #[test]
    fn the_evaluation_is_the_dot_product_of_its_features_and_weights() {
        let mut rng = emergo_core::playout::SplitMix::new(7);
        let weights: Vec<Weights> = (0..4)
            .map(|k| {
                let mut values = Weights::default().to_array();
                for v in values.iter_mut().skip(k) {
                    *v += (rng.next_u64() % 41) as i32 - 20;
                }
                Weights::from_array(values)
            })
            .collect();
        assert_eq!(
            Weights::from_array(Weights::default().to_array()),
            Weights::default()
        );
        let mut positions = 0;
        for game in 0..40 {
            let mut pos = Position::start();
            let mut rng = emergo_core::playout::SplitMix::new(game);
            while !pos.legal_moves().is_empty() && positions < 4000 {
                let f = features(&pos);
                for w in &weights {
                    let dot: i32 = f.iter().zip(w.to_array()).map(|(a, b)| a * b).sum();
                    assert_eq!(dot, evaluate(&pos, w), "{pos}");
                }
                let moves = pos.legal_moves();
                pos.play_unchecked(moves[(rng.next_u64() % moves.len() as u64) as usize]);
                positions += 1;
            }
        }
        assert!(positions > 1000);
    }

    #[test]
    fn the_rim_comes_from_each_boards_geometry() {
        use emergo_core::{Emergo, Emergo7x7, HexEmergo};
        // The square boards' rims are the diamonds' sides; the hexagon's is its outer ring
        // (37 cells less the 19 of the inner hexagon of side 3).
        assert_eq!(edge::<Emergo>().len(), 16);
        assert_eq!(edge::<Emergo7x7>().len(), 12);
        assert_eq!(edge::<HexEmergo>().len(), 18);
        assert!(!edge::<HexEmergo>().contains("d4".parse().unwrap()));
        assert!(edge::<HexEmergo>().contains("a1".parse().unwrap()));
        assert!(edge::<HexEmergo>().contains("d7".parse().unwrap()));
        assert!(!edge::<HexEmergo>().contains("c4".parse().unwrap()));
    }

    #[test]
    fn on_every_board_the_evaluation_is_the_dot_product_of_its_features() {
        fn check<V: Variant>() -> usize {
            let w = Weights::for_variant(V::KIND);
            let mut positions = 0;
            for game in 0..20 {
                let mut pos = emergo_core::position::Position::<V>::start();
                let mut rng = emergo_core::playout::SplitMix::new(game);
                while !pos.legal_moves().is_empty() {
                    let dot: i32 = features(&pos)
                        .iter()
                        .zip(w.to_array())
                        .map(|(a, b)| a * b)
                        .sum();
                    assert_eq!(dot, evaluate(&pos, &w), "{pos}");
                    let moves = pos.legal_moves();
                    pos.play_unchecked(moves[rng.below(moves.len())]);
                    positions += 1;
                }
            }
            positions
        }
        assert!(check::<emergo_core::Emergo7x7>() > 500);
        assert!(check::<emergo_core::HexEmergo>() > 500);
    }

    #[test]
    fn the_start_is_even_but_for_the_tempo() {
        assert_eq!(eval("W:12:12"), Weights::default().tempo);
    }

    #[test]
    fn evaluation_is_symmetric_between_the_colours() {
        let a = eval("W:3:4:c4=WWWBBBBB,e5=B");
        let b = eval("B:4:3:c4=BBBWWWWW,e5=W");
        assert_eq!(a, b);
    }

    #[test]
    fn holding_prisoners_is_good_and_a_thin_cap_over_them_is_worse_than_a_thick_one() {
        assert!(eval("W:0:0:c4=WBB,g6=B") > eval("W:0:0:c4=W,g6=BBB"));
        assert!(eval("W:0:0:c4=WWWBB,g6=B") > eval("W:0:0:c4=WBB,g6=BWW"));
    }

    #[test]
    fn an_attacked_thin_cap_is_worse_than_a_safe_one() {
        // c4 = W over 3 B; Black on c5 with c3 empty can jump it.
        let exposed = eval("W:0:0:c4=WBBB,c5=B,g6=W");
        let safe = eval("W:0:0:c4=WBBB,e9=B,g6=W");
        assert!(safe > exposed);
    }
}
