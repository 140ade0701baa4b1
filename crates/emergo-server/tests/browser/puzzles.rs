//! The puzzle trainer in a real browser (issue 21): a shipped puzzle solved by clicking its
//! move on the board, and another failed by a wrong legal move, the right one then shown.

use crate::rig::*;
use emergo_core::moves::Move;
use emergo_core::Position;
use emergo_platform::domain::puzzle::{shipped, PuzzleRecord};

/// The squares to click for `mv`: an entry's square, a step's two, a capture's start and
/// landings.
fn squares_of(mv: Move) -> Vec<String> {
    match mv {
        Move::Enter(sq) => vec![sq.to_string()],
        Move::Step { from, to } => vec![from.to_string(), to.to_string()],
        Move::Capture(path) => std::iter::once(path.from())
            .chain(path.landings())
            .map(|s| s.to_string())
            .collect(),
    }
}

async fn click_moves(c: &fantoccini::Client, mv: Move) {
    for sq in squares_of(mv) {
        click(c, &format!("#puzzles-board rect.hit[data-sq='{sq}']")).await;
    }
}

async fn status_kind(c: &fantoccini::Client, kind: &str, what: &str) {
    wait_until(
        c,
        &format!("document.querySelector('#puzzles-status').dataset.kind === '{kind}'"),
        what,
    )
    .await;
}

/// One-move puzzles whose position offers a choice, with their position.
fn one_movers() -> Vec<(PuzzleRecord, Position)> {
    shipped()
        .expect("the shipped set")
        .into_iter()
        .filter(|p| p.line.len() == 1)
        .filter_map(|p| {
            let pos: Position = p.position.parse().ok()?;
            (pos.legal_moves().len() > 1).then_some((p, pos))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_is_solved_by_clicking_and_another_failed_shows_the_right_move() {
    let _one = ONE_AT_A_TIME.lock().await;
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    let set = one_movers();
    assert!(set.len() >= 2, "two one-move puzzles with a choice");

    // Solved: the line's move, clicked.
    let (solve, pos) = &set[0];
    c.goto(&rig.url(&format!("/puzzles?id={}", solve.id)))
        .await
        .expect("the trainer loads");
    wait_until(
        &c,
        "document.querySelectorAll('#puzzles-board rect.hit').length === 41 && document.querySelector('#puzzles-info').textContent.length > 0",
        "the puzzle's board",
    )
    .await;
    assert_board_drawn(&c, "#puzzles-board", "the trainer").await;
    let right = pos.parse_move(&solve.line[0]).expect("legal");
    click_moves(&c, right).await;
    status_kind(&c, "solved", "the line's move solves it").await;
    save_screenshot(&c, "puzzle-solved").await;

    // Failed: another legal move that reaches another position.
    let (fail, pos) = &set[1];
    let right = pos.parse_move(&fail.line[0]).expect("legal");
    let after = pos.play(right).expect("legal");
    let wrong = pos
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| pos.play(m).ok() != Some(after))
        .expect("a wrong move");
    c.goto(&rig.url(&format!("/puzzles?id={}", fail.id)))
        .await
        .expect("the trainer loads");
    wait_until(
        &c,
        &format!(
            "document.querySelector('#puzzles-info').textContent.includes('{}') && document.querySelectorAll('#puzzles-board rect.hit').length === 41",
            fail.rating
        ),
        "the second puzzle",
    )
    .await;
    click_moves(&c, wrong).await;
    status_kind(&c, "wrong", "a wrong move fails").await;
    let said = js(
        &c,
        "return document.querySelector('#puzzles-status').textContent",
    )
    .await;
    assert!(
        said.as_str()
            .is_some_and(|s| s.contains(&right.to_string())),
        "the right move is named: {said}"
    );
    let retry = find(&c, "#puzzles-retry").await;
    assert!(
        retry.is_displayed().await.expect("displayed"),
        "Try again shown"
    );
    assert_eq!(
        axe_violations(&c).await,
        serde_json::json!([]),
        "the trainer"
    );
    assert_no_script_errors(&c).await;
}

/// Whether every legal move of `pos` reaches one position (the page plays such a ply itself).
fn forced(pos: &Position) -> bool {
    let moves = pos.legal_moves();
    let first = moves.first().and_then(|&m| pos.play(m).ok());
    moves.iter().all(|&m| pos.play(m).ok() == first)
}

/// Solves the puzzle on the page (its id on `#puzzles`), move by move, waiting for each reply.
async fn solve_shown(c: &fantoccini::Client, set: &[PuzzleRecord]) -> String {
    let id = wait_until(
        c,
        "document.querySelector('#puzzles').dataset.state === 'play' && document.querySelector('#puzzles').dataset.puzzle",
        "a puzzle to solve",
    )
    .await;
    let id = id.as_str().expect("an id").to_string();
    let record = set.iter().find(|p| p.id == id).expect("a shipped puzzle");
    let mut pos: Position = record.position.parse().expect("N2");
    for (ply, text) in record.line.iter().enumerate() {
        let mv = pos.parse_move(text).expect("legal");
        if ply % 2 == 0 && !forced(&pos) {
            wait_until(
                c,
                &format!("document.querySelector('#puzzles').dataset.ply === '{ply}' && document.querySelector('#puzzles').dataset.puzzle === '{id}'"),
                "the solver's turn",
            )
            .await;
            click_moves(c, mv).await;
        }
        pos.play_unchecked(mv);
    }
    wait_until(
        c,
        &format!("document.querySelector('#puzzles').dataset.state === 'solved' && document.querySelector('#puzzles').dataset.puzzle === '{id}'"),
        "the puzzle solved",
    )
    .await;
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streak_of_three_in_french_and_the_trainer_on_a_phone() {
    let _one = ONE_AT_A_TIME.lock().await;
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    let set = shipped().expect("the shipped set");
    c.goto(&rig.url("/puzzles"))
        .await
        .expect("the trainer loads");
    choose_lang(&c, "fr").await;
    wait_until(
        &c,
        "document.querySelector('#puzzles h2').textContent === 'Problèmes'",
        "the trainer in French",
    )
    .await;
    click(&c, "#puzzles-streak").await;
    let mut solved = Vec::new();
    for n in 1..=3 {
        solved.push(solve_shown(&c, &set).await);
        wait_until(
            &c,
            &format!(
                "document.querySelector('#puzzles-streak-count').textContent === 'Série : {n}'"
            ),
            "the streak counted",
        )
        .await;
    }
    solved.dedup();
    assert_eq!(
        solved.len(),
        3,
        "three puzzles one after another: {solved:?}"
    );
    save_screenshot(&c, "puzzle-streak-fr").await;
    assert_no_script_errors(&c).await;

    // A phone: the board wide, the status beside none of it.
    let p = rig.phone(390, 844).await;
    p.goto(&rig.url("/puzzles")).await.expect("loads");
    wait_until(
        &p,
        "document.querySelectorAll('#puzzles-board rect.hit').length === 41",
        "the phone's board",
    )
    .await;
    let board = rect(&p, "#puzzles-board").await;
    let status = rect(&p, "#puzzles-status").await;
    assert!(board["width"].as_f64().unwrap_or(0.0) > 300.0, "{board}");
    assert!(!overlap(&board, &status), "{board} {status}");
    save_screenshot(&p, "puzzle-phone").await;
}
