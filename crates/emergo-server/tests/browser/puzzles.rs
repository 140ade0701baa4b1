//! The puzzle trainer in a real browser (issue 21): a shipped puzzle solved by clicking its
//! move on the board, and another failed by a wrong legal move, the right one then shown.

use crate::rig::*;
use emergo_core::moves::Move;
use emergo_core::position::Position;
use emergo_core::{Emergo, HexEmergo, Variant};
use emergo_platform::domain::puzzle::{shipped, PuzzleRecord};

/// The squares to click for `mv`: an entry's square, a step's two, a capture's start and
/// landings.
fn squares_of<V: Variant>(mv: Move<V>) -> Vec<String> {
    match mv {
        Move::Enter(sq) => vec![sq.to_string()],
        Move::Step { from, to } => vec![from.to_string(), to.to_string()],
        Move::Capture(path) => std::iter::once(path.from())
            .chain(path.landings())
            .map(|s| s.to_string())
            .collect(),
    }
}

async fn click_moves<V: Variant>(c: &fantoccini::Client, mv: Move<V>) {
    for sq in squares_of(mv) {
        click(c, &format!("#puzzles-board .hit[data-sq='{sq}']")).await;
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
fn one_movers() -> Vec<(PuzzleRecord, Position<Emergo>)> {
    shipped()
        .expect("the shipped set")
        .iter()
        .filter(|p| p.line.len() == 1 && p.variant == "emergo")
        .filter_map(|p| {
            let pos: Position = p.position.parse().ok()?;
            (pos.legal_moves().len() > 1).then(|| (p.clone(), pos))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_is_solved_by_clicking_and_another_failed_shows_the_right_move() {
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
fn forced<V: Variant>(pos: &Position<V>) -> bool {
    let moves = pos.legal_moves();
    let first = moves.first().and_then(|&m| pos.play(m).ok());
    moves.iter().all(|&m| pos.play(m).ok() == first)
}

/// Solves the puzzle on the page (its id on `#puzzles`), move by move, waiting for each reply.
async fn solve_shown(c: &fantoccini::Client, set: &[PuzzleRecord]) -> String {
    solve_shown_on::<Emergo>(c, set).await
}

/// [`solve_shown`] of a puzzle on the board `V`.
async fn solve_shown_on<V: Variant>(c: &fantoccini::Client, set: &[PuzzleRecord]) -> String {
    let (id, plies) = shown_choices::<V>(c, set).await;
    for (ply, _, mv) in plies {
        at_ply(c, &id, ply).await;
        click_moves(c, mv).await;
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
        solved.push(solve_shown(&c, set).await);
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

/// The `m:ss` the storm clock shows, in seconds.
async fn storm_seconds(c: &fantoccini::Client) -> u64 {
    let text = js(
        c,
        "return document.querySelector('#puzzles-storm-clock').textContent",
    )
    .await;
    let text = text.as_str().unwrap_or_default();
    let clock = text.split(' ').next().unwrap_or_default();
    let (m, s) = clock.split_once(':').expect("m:ss");
    m.parse::<u64>().expect("minutes") * 60 + s.parse::<u64>().expect("seconds")
}

/// The daily puzzle from the lobby's card, solved signed in; a vote, the line replayed, the
/// dashboard with the attempt; then a storm: a puzzle solved counts on its clock, and a wrong
/// move costs ten seconds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_puzzle_a_vote_the_dashboard_and_a_storm() {
    let mut rig = Rig::start().await;
    let set = shipped().expect("the shipped set");
    let account = sign_up_over_http(&rig, "daily_solver", "a fine long password").await;
    let c = rig.browser(1100, 900).await;
    log_in(&c, &rig, &account.token, "/").await;
    let daily: serde_json::Value = reqwest::get(rig.url("/api/puzzles/daily"))
        .await
        .expect("the daily puzzle")
        .json()
        .await
        .expect("JSON");
    let id = daily["puzzle"]["id"].as_str().expect("an id").to_string();
    wait_until(
        &c,
        "!document.querySelector('#daily').hidden && document.querySelector('#daily-info').textContent.length > 0",
        "the daily puzzle's card on the lobby",
    )
    .await;
    let card = rect(&c, "#daily").await;
    assert!(card["height"].as_f64().unwrap_or(0.0) > 40.0, "{card}");
    click(&c, "#daily-solve").await;
    let shown = solve_shown(&c, set).await;
    assert_eq!(shown, id, "the card opens the daily puzzle");

    // Signed in, after the solve: the vote, the replay and the dashboard.
    wait_until(
        &c,
        "!document.querySelector('#puzzles-vote').hidden",
        "the vote offered after the solve",
    )
    .await;
    let vote = find(&c, "#puzzles-vote-up").await;
    assert!(
        vote.is_displayed().await.expect("displayed"),
        "the vote is offered"
    );
    click(&c, "#puzzles-vote-up").await;
    wait_until(
        &c,
        "document.querySelector('#puzzles-vote-note').textContent === 'Thank you: your vote counts.'",
        "the vote counted",
    )
    .await;
    click(&c, "#puzzles-replay").await;
    wait_until(
        &c,
        "document.querySelector('#puzzles').dataset.state === 'replay'",
        "the line replayed",
    )
    .await;
    wait_until(
        &c,
        "document.querySelector('#puzzles').dataset.state === 'solved'",
        "the replay's end",
    )
    .await;
    click(&c, "#puzzles-dashboard summary").await;
    wait_until(
        &c,
        "document.querySelector('#puzzles-dashboard-body').textContent.includes('1 of 1 puzzles solved')",
        "the dashboard's count",
    )
    .await;
    save_screenshot(&c, "puzzle-dashboard").await;

    // Storm: the clock starts at three minutes.
    click(&c, "#puzzles-storm").await;
    wait_until(
        &c,
        "/^[23]:\\d\\d · 0 solved/.test(document.querySelector('#puzzles-storm-clock').textContent)",
        "the storm's clock",
    )
    .await;
    let mut solved = false;
    for _ in 0..3 {
        storm_solve_shown(&c, set).await;
        if js(
            &c,
            "return document.querySelector('#puzzles-storm-clock').textContent",
        )
        .await
        .as_str()
        .is_some_and(|t| t.contains("· 1 solved"))
        {
            solved = true;
            break;
        }
    }
    assert!(solved, "a storm puzzle solved counts on the clock");
    // A wrong move on the next puzzle: ten seconds less, the combo back to 0.
    let left = storm_seconds(&c).await;
    storm_fail_shown(&c, set).await;
    wait_until(
        &c,
        "document.querySelector('#puzzles-storm-clock').textContent.endsWith('combo 0')",
        "the combo ended",
    )
    .await;
    let after = storm_seconds(&c).await;
    assert!(
        after + 9 <= left,
        "a mistake costs ten seconds: {left} s, then {after} s"
    );
    save_screenshot(&c, "puzzle-storm").await;
    let clock = rect(&c, "#puzzles-storm-clock").await;
    let board = rect(&c, "#puzzles-board").await;
    assert!(!overlap(&board, &clock), "{board} {clock}");
    assert_eq!(axe_violations(&c).await, serde_json::json!([]), "storm");
    assert_no_script_errors(&c).await;
}

/// The puzzle on the page (its id once it is to be played), and at each of the solver's plies
/// with a choice (the page plays forced plies and the replies) the position and the line's move.
async fn shown_choices<V: Variant>(
    c: &fantoccini::Client,
    set: &[PuzzleRecord],
) -> (String, Vec<(usize, Position<V>, Move<V>)>) {
    let id = wait_until(
        c,
        "document.querySelector('#puzzles').dataset.state === 'play' && document.querySelector('#puzzles').dataset.puzzle",
        "a puzzle to solve",
    )
    .await;
    let id = id.as_str().expect("an id").to_string();
    let record = set.iter().find(|p| p.id == id).expect("a shipped puzzle");
    let mut pos: Position<V> = record.position.parse().expect("N2");
    let mut plies = Vec::new();
    for (ply, text) in record.line.iter().enumerate() {
        let mv = pos.parse_move(text).expect("legal");
        if ply % 2 == 0 && !forced(&pos) {
            plies.push((ply, pos, mv));
        }
        pos.play_unchecked(mv);
    }
    (id, plies)
}

async fn at_ply(c: &fantoccini::Client, id: &str, ply: usize) {
    wait_until(
        c,
        &format!("document.querySelector('#puzzles').dataset.ply === '{ply}' && document.querySelector('#puzzles').dataset.puzzle === '{id}' && document.querySelector('#puzzles').dataset.state === 'play'"),
        "the solver's turn",
    )
    .await;
}

/// Plays the storm puzzle's line (the solver's moves with a choice).
async fn storm_solve_shown(c: &fantoccini::Client, set: &[PuzzleRecord]) {
    let (id, plies) = shown_choices::<Emergo>(c, set).await;
    for (ply, _, mv) in plies {
        at_ply(c, &id, ply).await;
        click_moves(c, mv).await;
    }
    wait_until(
        c,
        &format!("document.querySelector('#puzzles').dataset.puzzle !== '{id}' || document.querySelector('#puzzles').dataset.state !== 'play'"),
        "the storm's puzzle done",
    )
    .await;
}

/// Plays a wrong move at the storm puzzle's first choice.
async fn storm_fail_shown(c: &fantoccini::Client, set: &[PuzzleRecord]) {
    let (id, plies) = shown_choices::<Emergo>(c, set).await;
    let (ply, pos, right) = plies.first().copied().expect("a choice in the line");
    let after = pos.play(right).expect("legal");
    let wrong = pos
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| pos.play(m).ok() != Some(after))
        .expect("a wrong move");
    at_ply(c, &id, ply).await;
    click_moves(c, wrong).await;
}

/// Issue 20: the trainer on the hexagon — its board chosen, a hex puzzle drawn on its 37 cells
/// and solved by clicking, the board named in the puzzle's analysis link.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hex_puzzle_is_drawn_on_its_board_and_solved() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    let set = shipped().expect("the shipped set");
    assert!(
        set.iter().any(|p| p.variant == "hex"),
        "hex puzzles are shipped"
    );
    c.goto(&rig.url("/puzzles"))
        .await
        .expect("the trainer loads");
    wait_until(
        &c,
        "document.querySelector('#puzzles').dataset.state === 'play' && document.querySelector('#puzzles-variant').options.length === 3",
        "the trainer and its boards",
    )
    .await;
    js(
        &c,
        "const s = document.querySelector('#puzzles-variant'); s.value = 'hex'; s.dispatchEvent(new Event('change')); return true",
    )
    .await;
    wait_until(
        &c,
        "document.querySelector('#puzzles').dataset.variant === 'hex' && document.querySelectorAll('#puzzles-board .hit').length === 37",
        "a hex puzzle on the hexagon",
    )
    .await;
    // 37 hexagons, each inside the board, and the status beside it, uncovered.
    let inside = js(
        &c,
        "const b = document.querySelector('#puzzles-board').getBoundingClientRect(); \
         const cells = [...document.querySelectorAll('#puzzles-board .hit')]; \
         return cells.filter((e) => { const r = e.getBoundingClientRect(); \
           return e.tagName === 'polygon' && r.width > 20 && r.left >= b.left && r.right <= b.right \
             && r.top >= b.top && r.bottom <= b.bottom; }).length",
    )
    .await;
    assert_eq!(inside, serde_json::json!(37), "the hexagon's cells drawn");
    let board = rect(&c, "#puzzles-board").await;
    let status = rect(&c, "#puzzles-status").await;
    assert!(!overlap(&board, &status), "{board} {status}");
    let id = solve_shown_on::<HexEmergo>(&c, set).await;
    let record = set.iter().find(|p| p.id == id).expect("shipped");
    assert_eq!(record.variant, "hex");
    save_screenshot(&c, "puzzle-hex").await;
    assert_eq!(
        axe_violations(&c).await,
        serde_json::json!([]),
        "the hex trainer"
    );
    assert_no_script_errors(&c).await;
}
