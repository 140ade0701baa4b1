//! The JSON objects of docs/api.md: `GameView`, `SeatGrant`, `GameSummary`.

use crate::services::games::LiveGame;
use emergo_core::game::Game as GameOf;
use emergo_core::moves::Move as MoveOf;
use emergo_core::position::Position as PositionOf;
use emergo_core::{any_game, Color, Status, Variant};
use emergo_engine::Level;
use emergo_platform::domain::model::{format_unix_time, PlayerRef, Players, Seat};
use emergo_platform::domain::time_control::Category;
use emergo_platform::domain::time_control::TimeControl;
use emergo_platform::store::{status_columns, SummaryRow};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SeatView {
    pub kind: &'static str,
    pub joined: bool,
}

impl SeatView {
    pub fn of(seat: &Seat) -> SeatView {
        SeatView {
            kind: seat.kind.name(),
            joined: seat.joined(),
        }
    }
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Hand {
    pub white: u8,
    pub black: u8,
}

impl Hand {
    fn of<V: Variant>(pos: &PositionOf<V>) -> Hand {
        Hand {
            white: pos.hand(Color::White),
            black: pos.hand(Color::Black),
        }
    }
}

/// A seat's account in a game view: its name, or `"deleted": true`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PlayerView {
    pub name: Option<String>,
    pub deleted: bool,
    /// In a game view: the rating the player began with, and its change once settled
    /// (issue 18); absent in the list of games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<super::ratings::SeatRating>,
    /// A bot account (issue 24), marked BOT; absent for a person.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
}

/// `"players"` of a game view: `null` seats in anonymous games; `"rated"` names the category
/// of a rated game.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct PlayersView {
    pub white: Option<PlayerView>,
    pub black: Option<PlayerView>,
    pub rated: Option<&'static str>,
}

impl PlayersView {
    pub fn of(players: &Players) -> PlayersView {
        PlayersView::with_ratings(players, &Default::default())
    }

    /// The seats' accounts with the ratings a game view shows.
    pub fn with_ratings(players: &Players, ratings: &super::ratings::GameRatings) -> PlayersView {
        let one = |p: Option<&PlayerRef>, color: Color| {
            p.map(|p| PlayerView {
                name: p.name.clone(),
                deleted: p.name.is_none(),
                rating: ratings.of(color).cloned(),
                bot: p.bot,
            })
        };
        PlayersView {
            white: one(players.white.as_ref(), Color::White),
            black: one(players.black.as_ref(), Color::Black),
            rated: players.rated.map(Category::name),
        }
    }
}

/// The squares of one move, for drawing: what core knows of it, so the page needs no rule.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MoveView {
    /// N1 text.
    #[serde(rename = "move")]
    pub text: String,
    /// The squares the column passed: an entry's square; a step's two; a capture's start and
    /// every landing (R7.4).
    pub passed: Vec<String>,
    /// The squares whose top man the move took, one per jump in order (R6); empty unless a
    /// capture.
    pub captured: Vec<String>,
}

impl MoveView {
    /// The move's squares, on any board.
    pub fn of<V: Variant>(mv: &MoveOf<V>) -> MoveView {
        let (passed, captured) = match mv {
            MoveOf::Enter(to) => (vec![to.to_string()], Vec::new()),
            MoveOf::Step { from, to } => (vec![from.to_string(), to.to_string()], Vec::new()),
            MoveOf::Capture(path) => {
                let mut passed = vec![path.from().to_string()];
                let mut captured = Vec::with_capacity(path.len());
                for (over, land) in path.jumps() {
                    captured.push(over.to_string());
                    passed.push(land.to_string());
                }
                (passed, captured)
            }
        };
        MoveView {
            text: mv.to_string(),
            passed,
            captured,
        }
    }
}

/// One column as drawn: its owner, its men of the owner's colour and its prisoners (R3).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ColumnView {
    pub owner: &'static str,
    pub men: u8,
    pub prisoners: u8,
}

/// One position as drawn: side to move, men in hand, and the columns by square name.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct BoardView {
    pub turn: &'static str,
    pub hand: Hand,
    pub columns: BTreeMap<String, ColumnView>,
}

impl BoardView {
    /// The position as drawn, on any board.
    pub fn of<V: Variant>(pos: &PositionOf<V>) -> BoardView {
        BoardView {
            turn: pos.turn().name(),
            hand: Hand::of(pos),
            columns: pos
                .columns()
                .map(|(sq, col)| {
                    let view = ColumnView {
                        owner: col.owner.name(),
                        men: col.men,
                        prisoners: col.prisoners,
                    };
                    (sq.to_string(), view)
                })
                .collect(),
        }
    }
}

/// Everything a page needs to draw a game.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    pub id: String,
    pub mode: &'static str,
    /// The board: `emergo`, `7x7` or `hex`.
    pub variant: &'static str,
    pub level: Option<u8>,
    pub white: SeatView,
    pub black: SeatView,
    pub start: String,
    /// The first ply the lists below start at: 0 for the whole game; a paged view
    /// (`?from=<ply>`) gives `moves` and `history` from that ply on, and `positions` and
    /// `boards` from the position before it (so `positions[0]` lets a reader check that it
    /// holds the same game up to there).
    pub from: usize,
    pub moves: Vec<String>,
    /// The squares of each move of `moves`, in order.
    pub history: Vec<MoveView>,
    pub ply: usize,
    /// The stored game's version: every stored change (a move, a takeback, a seat taken, a
    /// draw offer, an ending) makes it higher. Of two views of one game, one with a lower
    /// version is older.
    pub version: i64,
    /// N2 text of the position before each move and after the last: `ply + 1` entries, the
    /// first equal to `start`, the last to `position`.
    pub positions: Vec<String>,
    /// The same positions as the page draws them.
    pub boards: Vec<BoardView>,
    pub position: String,
    pub turn: &'static str,
    pub phase: &'static str,
    pub hand: Hand,
    pub shadowpiece: bool,
    pub legal_moves: Vec<String>,
    /// The squares of each move of `legal_moves`, in the same order.
    pub legal: Vec<MoveView>,
    pub status: &'static str,
    pub result: Option<&'static str>,
    pub reason: Option<&'static str>,
    pub draw_offer: Option<&'static str>,
    /// Who asks for a takeback now (games between people, src/services/games/takeback.rs).
    pub takeback_offer: Option<&'static str>,
    /// Who was refused a takeback since the last move (asks again after the next one).
    pub takeback_declined: Option<&'static str>,
    /// Whether takebacks may be asked for in this game: between people, not rated.
    pub takebacks: bool,
    /// Whether the game may be aborted now: between people, before each side has moved.
    pub can_abort: bool,
    /// Who offers a rematch of the finished game (it stays set once accepted).
    pub rematch_offer: Option<&'static str>,
    /// The rematch's game id, once accepted.
    pub rematch_game: Option<String>,
    pub engine_thinking: bool,
    /// The accounts at the seats (games between accounts) and the rating category.
    pub players: PlayersView,
    pub created_at: String,
    pub updated_at: String,
    /// `"3+2"`, `"corr:3"`, or `null` for an untimed game.
    pub time_control: Option<String>,
    /// A real-time game's clocks, as they stand when the view is made.
    pub clock: Option<ClockView>,
    /// When the side to move of a correspondence game loses on time (RFC 3339).
    pub deadline: Option<String>,
    /// The seat a timed game waits for (`"white"` or `"black"`): no one may move until both
    /// seats are taken and the clock starts; `null` otherwise.
    pub waiting_for: Option<&'static str>,
    /// The tournament that paired this game (issue 23), or `null`.
    pub tournament: Option<GameTournamentView>,
}

/// A tournament game's mark in its view: the tournament, who went berserk, and who may now
/// (an arena's player, once, before its first move: `TournamentMark::berserk_refusal`).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GameTournamentView {
    pub id: String,
    pub arena: bool,
    pub berserk: Sides,
    pub can_berserk: Sides,
}

/// A yes or no for each side.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct Sides {
    pub white: bool,
    pub black: bool,
}

impl Sides {
    fn of(f: impl Fn(Color) -> bool) -> Sides {
        Sides {
            white: f(Color::White),
            black: f(Color::Black),
        }
    }
}

impl GameTournamentView {
    fn of(live: &LiveGame) -> Option<GameTournamentView> {
        let mark = live.meta.tournament.as_ref()?;
        Some(GameTournamentView {
            id: mark.id.clone(),
            arena: mark.arena,
            berserk: Sides::of(|color| mark.berserk[color]),
            can_berserk: Sides::of(|color| mark.berserk_refusal(&live.game, color).is_none()),
        })
    }
}

/// A real-time game's clocks: the time left to each side now (the side to move's going down
/// while `running` names it).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ClockView {
    pub white_ms: i64,
    pub black_ms: i64,
    pub increment_ms: i64,
    pub running: Option<&'static str>,
}

impl ClockView {
    /// The clocks of `live` (`None` for an untimed or correspondence game), and the deadline
    /// of a correspondence game's side to move.
    fn of(live: &LiveGame) -> (Option<ClockView>, Option<String>) {
        let Some(clock) = live.meta.clock else {
            return (None, None);
        };
        let turn = live.game.turn();
        let running = live.clock_running();
        match clock.control {
            TimeControl::RealTime { increment_ms, .. } => {
                let shown = clock.shown(turn, live.time.now_ms());
                let view = ClockView {
                    white_ms: shown.white,
                    black_ms: shown.black,
                    increment_ms: increment_ms as i64,
                    running: running.then(|| turn.name()),
                };
                (Some(view), None)
            }
            TimeControl::Correspondence { .. } => {
                let deadline = live
                    .flag_at()
                    .filter(|_| running)
                    .map(|at| format_unix_time(at.div_euclid(1000)));
                (None, deadline)
            }
        }
    }
}

impl GameView {
    pub fn of(live: &LiveGame) -> GameView {
        GameView::paged(live, 0)
    }

    /// The view from ply `from` on (at most the game's ply): only the newest moves and
    /// positions, for a reader that holds the rest.
    pub fn paged(live: &LiveGame, from: usize) -> GameView {
        any_game!(&live.game, game => GameView::paged_on(live, game, from))
    }

    /// [`GameView::paged`] of `live`, whose game is `game`, on its board.
    fn paged_on<V: Variant>(live: &LiveGame, game: &GameOf<V>, from: usize) -> GameView {
        let from = from.min(game.ply());
        let pos = game.position();
        let status = game.status();
        let (result, reason) = status_columns(status);
        let result = emergo_platform::store::shown_result(result, reason);
        let legal = if status == Status::Ongoing {
            let mut moves: Vec<MoveView> = pos.legal_moves().iter().map(MoveView::of).collect();
            moves.sort_by(|a, b| a.text.cmp(&b.text));
            moves
        } else {
            Vec::new()
        };
        let turn = pos.turn();
        let (clock, deadline) = ClockView::of(live);
        GameView {
            id: live.meta.id.clone(),
            mode: live.meta.mode.name(),
            variant: V::KIND.name(),
            level: live.meta.level.map(Level::get),
            white: SeatView::of(&live.meta.seats[Color::White]),
            black: SeatView::of(&live.meta.seats[Color::Black]),
            start: game.start().to_string(),
            from,
            moves: game.moves()[from..]
                .iter()
                .map(ToString::to_string)
                .collect(),
            history: game.moves()[from..].iter().map(MoveView::of).collect(),
            ply: game.ply(),
            version: live.version,
            positions: game.positions()[from..]
                .iter()
                .map(ToString::to_string)
                .collect(),
            boards: game.positions()[from..].iter().map(BoardView::of).collect(),
            position: pos.to_string(),
            turn: turn.name(),
            phase: pos.phase().name(),
            hand: Hand::of(pos),
            shadowpiece: pos.shadowpiece_pending(),
            legal_moves: legal.iter().map(|m| m.text.clone()).collect(),
            legal,
            status: if status == Status::Ongoing {
                "ongoing"
            } else {
                "finished"
            },
            result,
            reason,
            draw_offer: live.meta.draw_offer.map(Color::name),
            takeback_offer: live.meta.takeback.offer.map(Color::name),
            takeback_declined: live.meta.takeback.declined.map(Color::name),
            takebacks: crate::services::games::takeback::allowed(&live.meta),
            can_abort: crate::services::games::takeback::can_abort(live),
            rematch_offer: live.meta.rematch.offer.map(Color::name),
            rematch_game: live.meta.rematch.game.clone(),
            engine_thinking: live.engine_thinking,
            players: PlayersView::with_ratings(&live.meta.players, &live.ratings),
            created_at: live.meta.created_at.clone(),
            updated_at: live.meta.updated_at.clone(),
            time_control: live.meta.clock.map(|c| c.control.to_string()),
            clock,
            deadline,
            waiting_for: live.waiting_for().map(Color::name),
            tournament: GameTournamentView::of(live),
        }
    }
}

/// A seat given to its holder: the only time the token is shown.
#[derive(Clone, Debug, Serialize)]
pub struct SeatGrant {
    pub game: GameView,
    pub seat: &'static str,
    pub token: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// A line of the list of games.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    pub id: String,
    pub mode: &'static str,
    /// The board: `emergo`, `7x7` or `hex`.
    pub variant: &'static str,
    pub level: Option<u8>,
    pub white: SeatView,
    pub black: SeatView,
    /// The accounts at the seats (names), as in a game view.
    pub players: PlayersView,
    pub ply: i64,
    pub status: &'static str,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

impl GameSummary {
    pub fn of(row: SummaryRow) -> GameSummary {
        GameSummary {
            mode: row.mode.name(),
            variant: row.variant.name(),
            level: row.level.map(Level::get),
            white: SeatView::of(&row.seats.white),
            black: SeatView::of(&row.seats.black),
            players: PlayersView::of(&row.players),
            ply: row.ply,
            status: if row.result.is_some() {
                "finished"
            } else {
                "ongoing"
            },
            result: emergo_platform::store::shown_result(row.result, row.reason.as_deref()),
            reason: row.reason,
            created_at: row.created_at,
            updated_at: row.updated_at,
            id: row.id,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use emergo_core::ByColor;
    use emergo_core::{Game, Position};
    use emergo_platform::domain::model::{GameMeta, Mode, Seat};

    fn live(game: Game) -> LiveGame {
        let seats = ByColor::splat(Seat::vacant());
        let meta = GameMeta::new("test".into(), Mode::Imported, seats, String::new());
        LiveGame::new(meta, game.into())
    }

    fn game_from(start: &str, moves: &[&str]) -> Game {
        let mut game = Game::new(start.parse().expect("N2 text"));
        for mv in moves {
            game.play_text(mv).expect("a legal move");
        }
        game
    }

    #[test]
    fn the_view_gives_every_position_and_the_squares_of_every_move() {
        // RULES.md's worked example: a step, a double capture, the five-man capture.
        let start = "W:0:0:c5=B,d6=B,e5=B,f4=WWWW,g4=W,h4=BB,i5=B";
        let game = game_from(start, &["f4-e4", "h4xf4xd4", "e4xc4xc6xe6xe4xc4"]);
        let view = GameView::of(&live(game.clone()));
        assert_eq!(view.positions.len(), view.ply + 1);
        assert_eq!(view.positions[0], view.start);
        assert_eq!(view.positions[3], view.position);
        assert_eq!(view.boards.len(), view.ply + 1);
        for (text, board) in view.positions.iter().zip(&view.boards) {
            let pos: Position = text.parse().expect("N2 text");
            assert_eq!(*board, BoardView::of(&pos));
        }
        assert_eq!(view.boards[3].columns["c4"].men, 3);
        assert_eq!(view.boards[3].columns["c4"].prisoners, 5);
        let squares = |v: &[String]| v.join(" ");
        assert_eq!(squares(&view.history[0].passed), "f4 e4");
        assert!(view.history[0].captured.is_empty());
        assert_eq!(squares(&view.history[1].passed), "h4 f4 d4");
        assert_eq!(squares(&view.history[1].captured), "g4 e4");
        // R7.2: d4 is jumped twice, the start square passed again.
        assert_eq!(squares(&view.history[2].passed), "e4 c4 c6 e6 e4 c4");
        assert_eq!(squares(&view.history[2].captured), "d4 c5 d6 e5 d4");
        let texts: Vec<&str> = view.legal.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, view.legal_moves);
    }

    #[test]
    fn an_entry_passes_its_one_square() {
        let view = GameView::of(&live(game_from("W:12:12", &["d3"])));
        assert_eq!(view.history[0].passed, ["d3"]);
        assert!(view.legal.iter().all(|m| m.passed.len() == 1));
    }

    /// R5: the view's phase is `Position::phase` (the word `emergo show` prints) on every
    /// position of core's test data.
    #[test]
    fn r5_the_views_phase_is_core_phase_on_all_test_positions() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../emergo-core/tests/data/positions.tsv"
        );
        let data = std::fs::read_to_string(path).expect("core's position list");
        let mut checked = 0;
        for line in data.lines().filter(|l| !l.trim().is_empty()) {
            let text = line.split('\t').next().unwrap_or_default();
            let pos: Position = text.parse().expect("N2 text in the data");
            let view = GameView::of(&live(Game::new(pos)));
            assert_eq!(view.phase, pos.phase().to_string(), "{text}");
            assert!(["capture", "enter", "step"].contains(&view.phase), "{text}");
            checked += 1;
        }
        assert_eq!(checked, 23_379);
    }
}
