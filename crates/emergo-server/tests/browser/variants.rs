//! The boards of issue 20 on the analysis board and the editor (item 4): the hexagon of 37
//! cells and the 7×7 checkerboard drawn where their rules pages draw them, a move played by a
//! click and one by drag and drop on each, the board chosen with the selector and kept in the
//! address, the phone layout. What a person sees is checked: where each cell is on the screen,
//! the colour of the screenshot's pixels there, the status left uncovered.

use crate::rig::*;
use fantoccini::Client;
use serde_json::{json, Value};

/// Drags the column on `from` to `to` on the analysis board with the mouse.
async fn drag(c: &Client, from: &str, to: &str) {
    drag_between(
        c,
        &format!("#an-board .hit[data-sq='{from}']"),
        &format!("#an-board .hit[data-sq='{to}']"),
    )
    .await;
}

/// What the board `css` shows, read from the page: each cell's centre on the screen (the
/// centre of its outline), the board's and the status's rectangles, the theme's dark square
/// colour, and points beside the centres of the empty unmarked cells where that colour should
/// be seen.
const PROBE: &str = r#"
const b = document.querySelector(arguments[0]);
const status = document.querySelector(arguments[1]);
b.scrollIntoView({ block: 'nearest', inline: 'nearest' });
const probe = document.createElement('div');
document.body.append(probe);
probe.style.color = 'var(--sq-dark)';
const dark = getComputedStyle(probe).color;
probe.remove();
const box = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height }; };
const cells = [...b.querySelectorAll('.hit')].map((h) => {
  const r = h.getBoundingClientRect();
  return { sq: h.dataset.sq, tag: h.tagName, x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height };
});
const marked = new Set([...b.querySelectorAll('.under [data-sq], .over [data-sq]')].map((e) => e.dataset.sq));
const scale = b.getBoundingClientRect().width / 1000;
const points = cells
  .filter((c) => !marked.has(c.sq) && !b.querySelector(`.column[data-col='${c.sq}']`))
  .map((c) => ({ sq: c.sq, x: Math.round(c.x + 28 * scale), y: Math.round(c.y) }))
  .filter((p) => p.x > 2 && p.y > 2 && p.x < innerWidth - 3 && p.y < innerHeight - 3);
// what lies on top at the status's centre: the status itself (or something inside it)
const s = box(status);
const atStatus = document.elementFromPoint(s.left + s.width / 2, s.top + Math.min(s.height / 2, 12));
return { cells, board: box(b), status: s, statusOnTop: !!atStatus && status.contains(atStatus), dark, points,
  scrollWidth: document.documentElement.scrollWidth, innerWidth };
"#;

fn f(v: &Value, k: &str) -> f64 {
    v[k].as_f64().unwrap_or(f64::NAN)
}

/// Fails unless the board shows `count` cells, each inside the board, none overlapping
/// another, in the order its rules page draws them, the empty ones in the theme's dark colour
/// on the screenshot, and the status uncovered beside or under it. Returns the probe.
async fn assert_cells_drawn(c: &Client, variant: &str, count: usize, screen: &str) -> Value {
    assert_cells_drawn_on(c, ("#an-board", "#an-status"), variant, count, screen).await
}

/// [`assert_cells_drawn`] for the board and status `(board, status)` (CSS selectors).
async fn assert_cells_drawn_on(
    c: &Client,
    (board, status): (&str, &str),
    variant: &str,
    count: usize,
    screen: &str,
) -> Value {
    let probe = c
        .execute(PROBE, vec![json!(board), json!(status)])
        .await
        .expect("the board is read");
    let cells = probe["cells"].as_array().expect("cells").clone();
    assert_eq!(cells.len(), count, "{screen}: the playable cells");
    let board = &probe["board"];
    let at = |sq: &str| -> (f64, f64) {
        let c = cells
            .iter()
            .find(|c| c["sq"] == sq)
            .unwrap_or_else(|| panic!("{screen}: no cell {sq}"));
        (f(c, "x"), f(c, "y"))
    };
    let width = f(&cells[0], "w");
    for (i, a) in cells.iter().enumerate() {
        assert!(
            f(a, "x") > f(board, "left")
                && f(a, "x") < f(board, "right")
                && f(a, "y") > f(board, "top")
                && f(a, "y") < f(board, "bottom"),
            "{screen}: {} inside the board",
            a["sq"]
        );
        for b in &cells[i + 1..] {
            let d = (f(a, "x") - f(b, "x")).hypot(f(a, "y") - f(b, "y"));
            assert!(
                d > width * 0.85,
                "{screen}: {} and {} overlap ({d:.1} px apart, cells {width:.1} px wide)",
                a["sq"],
                b["sq"]
            );
        }
    }
    // The centre cell in the middle of the board.
    let (cx, cy) = at("d4");
    let (mx, my) = (
        (f(board, "left") + f(board, "right")) / 2.0,
        (f(board, "top") + f(board, "bottom")) / 2.0,
    );
    assert!(
        (cx - mx).abs() < 2.0 && (cy - my).abs() < 2.0,
        "{screen}: d4 at ({cx}, {cy}), the board's middle ({mx}, {my})"
    );
    if variant == "hex" {
        assert!(
            cells.iter().all(|c| c["tag"] == "polygon"),
            "{screen}: hexagons"
        );
        // RULES-hex.md R1: row 4 reads g4 … a4 from left to right, row 7 at the top, a1 a2 a3
        // a4 from lower left to upper right.
        let row4 = ["g4", "f4", "e4", "d4", "c4", "b4", "a4"].map(at);
        assert!(
            row4.windows(2)
                .all(|w| w[1].0 > w[0].0 + width * 0.9 && (w[1].1 - w[0].1).abs() < 1.0),
            "{screen}: row 4 left to right {row4:?}"
        );
        assert!(
            at("d7").1 < at("d4").1 && at("d4").1 < at("d1").1,
            "{screen}"
        );
        let a = ["a1", "a2", "a3", "a4"].map(at);
        assert!(
            a.windows(2).all(|w| w[1].0 > w[0].0 && w[1].1 < w[0].1),
            "{screen}: the line a {a:?}"
        );
    } else {
        // RULES-7x7.md R1: d1 bottom-left, a4 top-left, d7 top-right, g4 bottom-right.
        let [d1, a4, d7, g4] = ["d1", "a4", "d7", "g4"].map(at);
        assert!(
            d1.0 < cx && d1.1 > cy && a4.0 < cx && a4.1 < cy,
            "{screen}: d1 {d1:?}, a4 {a4:?}"
        );
        assert!(
            d7.0 > cx && d7.1 < cy && g4.0 > cx && g4.1 > cy,
            "{screen}: d7 {d7:?}, g4 {g4:?}"
        );
        assert!(
            (a4.0 - d1.0).abs() < 1.0 && (d7.1 - a4.1).abs() < 1.0,
            "{screen}: a square"
        );
    }
    // The status is not under the board, nor covered by anything.
    assert!(
        !overlap(&probe["status"], board),
        "{screen}: the status {} under the board {}",
        probe["status"],
        board
    );
    assert!(
        probe["statusOnTop"] == json!(true),
        "{screen}: something covers the status"
    );
    // Pixels: the empty cells show the dark square colour.
    let points = probe["points"].as_array().expect("points").clone();
    assert!(
        points.len() >= count / 2,
        "{screen}: empty cells to look at"
    );
    let png = c.screenshot().await.expect("a screenshot");
    let seen = pixels(c, &png, &Value::Array(points.clone())).await;
    let want = rgb_of(probe["dark"].as_str().expect("a colour"));
    for (p, got) in points.iter().zip(seen) {
        assert!(
            got.iter().zip(want).all(|(&g, w)| g.abs_diff(w) <= 8),
            "{screen}: the empty cell {} shows {got:?}, not {want:?}",
            p["sq"]
        );
    }
    probe
}

async fn analysis_data(c: &Client, key: &str) -> String {
    js(
        c,
        &format!("return document.querySelector('#analysis').dataset.{key} || ''"),
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// Opens the analysis board at `path` and waits for its board of `count` cells.
async fn open(c: &Client, rig: &Rig, path: &str, variant: &str, count: usize) {
    c.goto(&rig.url(path)).await.expect("the page loads");
    wait_until(
        c,
        &format!(
            "document.querySelector('#analysis').dataset.variant === '{variant}' \
             && document.querySelectorAll('#an-board .hit').length === {count} \
             && document.querySelector('#an-status').textContent !== '' \
             && document.querySelector('#an-board .start, #an-board .target') !== null"
        ),
        "the analysis board on its board",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item4_the_analysis_board_draws_the_hexagon_and_the_7x7_board_and_plays_by_click_and_drag()
{
    let mut rig = Rig::start().await;
    // A finished game on the hexagon (c3, then Black resigns), indexed by the explorer.
    let hex_game = crate::explorer::finished_game_on(&rig, "hex", &["c3"]).await;
    let counted = format!("{}/api/explorer?variant=hex&position=W:12:12", rig.url(""));
    let mut indexed = Value::Null;
    for _ in 0..100 {
        indexed = reqwest::get(&counted)
            .await
            .expect("asked")
            .json()
            .await
            .expect("JSON");
        if indexed["white"] == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(indexed["white"], 1, "the hex game is indexed: {indexed}");
    let c = rig.browser(1100, 860).await;

    // The hexagon from the address: 37 cells as RULES-hex.md draws them; White enters c3.
    open(&c, &rig, "/analysis?variant=hex", "hex", 37).await;
    assert_eq!(
        js(&c, "return document.querySelector('#an-variant').value").await,
        json!("hex")
    );
    // The opening explorer is drawn on the hexagon: the finished hex game's move, its game.
    wait_until(
        &c,
        "document.querySelector(\"#ex-moves tr[data-move='c3']\") !== null \
         && document.querySelector('#an-explorer').dataset.games === '1'",
        "the hex game's move in the explorer",
    )
    .await;
    let explorer = js(
        &c,
        "const box = document.querySelector('#an-explorer'); const r = box.getBoundingClientRect(); \
         return {hidden: box.hidden, height: r.height, width: r.width, \
           row: document.querySelector(\"#ex-moves tr[data-move='c3']\").innerText, \
           total: document.querySelector('#ex-total').innerText, \
           game: document.querySelector('#ex-games a.ex-game')?.getAttribute('href')}",
    )
    .await;
    assert_eq!(explorer["hidden"], json!(false), "{explorer}");
    assert!(
        explorer["height"].as_f64() > Some(50.0) && explorer["width"].as_f64() > Some(100.0),
        "the panel takes room: {explorer}"
    );
    assert!(
        explorer["row"].as_str().unwrap_or("").starts_with("c3"),
        "{explorer}"
    );
    // One game, said in the singular.
    let total = explorer["total"].as_str().unwrap_or("");
    assert!(
        total.contains("This position: 1 game") && !total.contains("1 games"),
        "{explorer}"
    );
    assert_eq!(
        explorer["game"],
        json!(format!("/game/{hex_game}")),
        "{explorer}"
    );
    js(
        &c,
        "document.querySelector('#ex-moves').scrollIntoView({block: 'center'})",
    )
    .await;
    save_screenshot(&c, "analysis-hex-explorer.png").await;
    js(&c, "window.scrollTo(0, 0)").await;
    // The engine analyses the hexagon: its lines, each a legal first move of the board.
    let first = wait_until(
        &c,
        "document.querySelectorAll('#an-lines .an-line').length >= 1 \
         && document.querySelector('#an-lines .an-line .an-pv-move')?.textContent",
        "the engine's lines on the hexagon",
    )
    .await;
    let first = first.as_str().expect("a move").to_string();
    let hex: emergo_core::position::Position<emergo_core::HexEmergo> =
        emergo_core::position::Position::start();
    assert!(hex.parse_move(&first).is_ok(), "a hex move: {first}");
    assert_cells_drawn(&c, "hex", 37, "the hexagon").await;
    // R9.3: d4 is no entry; c3 is.
    let entries = js(
        &c,
        "return [...document.querySelectorAll('#an-board .target')].map((e) => e.dataset.mark)",
    )
    .await;
    let entries = entries.as_array().expect("entries").clone();
    assert_eq!(entries.len(), 36, "R9.3: every cell but d4");
    assert!(!entries.contains(&json!("d4")));
    click(&c, "#an-board .hit[data-sq='c3']").await;
    wait_until(
        &c,
        "document.querySelector('#analysis').dataset.position === 'B:11:12:c3=W'",
        "c3 played by a click",
    )
    .await;
    save_screenshot(&c, "analysis-hex.png").await;

    // A capture dragged on the hexagon (RULES-hex.md, second example): d4 over e4 to f4.
    open(
        &c,
        &rig,
        "/analysis?variant=hex&position=W:0:0:d4=W,e4=BB,e5=B",
        "hex",
        37,
    )
    .await;
    drag(&c, "d4", "f4").await;
    wait_until(
        &c,
        "document.querySelector('#analysis').dataset.path === '0' \
         && document.querySelector('#an-tree .an-move').textContent.endsWith('d4xf4')",
        "d4xf4 played by drag and drop",
    )
    .await;
    assert_eq!(analysis_data(&c, "position").await, "B:0:0:e4=B,e5=B,f4=WB");
    // The last move is shown on the hexagon: its cells shaded, its arrow, the man it took.
    let shown = js(
        &c,
        "const b = document.querySelector('#an-board'); return [b.querySelectorAll('.under .last').length, \
         b.querySelectorAll('.last-path').length, b.querySelectorAll('[data-captured]').length]",
    )
    .await;
    assert_eq!(shown, json!([2, 1, 1]), "the last move's marks");

    // The selector chooses the 7×7 board: the address keeps it; 25 squares.
    find(&c, "#an-variant")
        .await
        .select_by_value("7x7")
        .await
        .expect("7×7 chosen");
    wait_until(
        &c,
        "location.search === '?variant=7x7' && document.querySelectorAll('#an-board .hit').length === 25 \
         && document.querySelectorAll('#an-board .target').length === 24",
        "the 7×7 board from the selector",
    )
    .await;
    assert_eq!(analysis_data(&c, "position").await, "W:8:8");
    // The explorer asks about the 7×7 board's start: no game of that board yet.
    wait_until(
        &c,
        "!document.querySelector('#an-explorer').hidden \
         && document.querySelector('#an-explorer').dataset.games === '0'",
        "the explorer on the 7×7 board, with no game",
    )
    .await;
    let probe = assert_cells_drawn(&c, "7x7", 25, "the 7×7 board").await;
    assert!(probe["cells"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["tag"] == "rect"));
    assert_eq!(
        js(
            &c,
            "return document.querySelectorAll('#an-board .squares .sq-light').length"
        )
        .await,
        json!(24),
        "the light squares of the checkerboard"
    );
    click(&c, "#an-board .hit[data-sq='c3']").await;
    wait_until(
        &c,
        "document.querySelector('#analysis').dataset.position === 'B:7:8:c3=W'",
        "c3 played by a click on the 7×7 board",
    )
    .await;
    save_screenshot(&c, "analysis-7x7.png").await;

    // The worked example of RULES-7x7.md dragged: c3 to c5 is its one legal capture.
    open(
        &c,
        &rig,
        "/analysis?variant=7x7&position=W:0:0:c3=WWW,c4=BBW,d3=B,d5=B,d6=B,e4=B,e6=W",
        "7x7",
        25,
    )
    .await;
    drag(&c, "c3", "c5").await;
    wait_until(
        &c,
        "document.querySelector('#analysis').dataset.path === '0'",
        "the capture played by drag and drop",
    )
    .await;
    assert_eq!(
        analysis_data(&c, "position").await,
        "B:0:0:c4=W,c5=WWWBBBBB,d6=B,e6=W"
    );
    // The record names its board.
    click(&c, "#an-export").await;
    wait_until(
        &c,
        "!document.querySelector('#an-record').hidden",
        "the record",
    )
    .await;
    let text = js(&c, "return document.querySelector('#an-record').value").await;
    assert!(
        text.as_str()
            .unwrap_or("")
            .contains("[Variant \"Emergo 7x7\"]"),
        "{text}"
    );
    assert_eq!(
        axe_violations(&c).await,
        json!([]),
        "the 7×7 analysis board"
    );

    // The finished hex game's page has the explorer under it, on the hexagon: at its start the
    // game's c3; a click on it steps through the game.
    c.goto(&rig.url(&format!("/game/{hex_game}")))
        .await
        .expect("the game page loads");
    click(&c, "#nav-first").await;
    wait_until(
        &c,
        "!document.querySelector('#game-explorer').hidden \
         && document.querySelector('#game-explorer').dataset.games === '1' \
         && !!document.querySelector(\"#gx-moves tr[data-move='c3']\")",
        "the explorer under the finished hex game, at its start",
    )
    .await;
    js(
        &c,
        "document.querySelector(\"#gx-moves tr[data-move='c3'] button.ex-play\").click(); return true",
    )
    .await;
    wait_until(
        &c,
        "document.querySelector('#game').dataset.viewPly === '1'",
        "the game's c3 stepped to",
    )
    .await;
    save_screenshot(&c, "game-hex-explorer.png").await;

    // In French, on a phone: the hexagon fits the screen, the status under it uncovered.
    let p = rig.phone(390, 844).await;
    open(&p, &rig, "/analysis?variant=hex", "hex", 37).await;
    choose_lang(&p, "fr").await;
    let probe = assert_cells_drawn(&p, "hex", 37, "the hexagon on a phone").await;
    assert!(
        probe["scrollWidth"].as_f64() <= probe["innerWidth"].as_f64(),
        "nothing scrolls sideways: {probe}"
    );
    assert!(f(&probe["board"], "right") <= 390.5, "{probe}");
    assert_eq!(
        js(
            &p,
            "const s = document.querySelector('#an-variant'); return s.options[s.selectedIndex].textContent"
        )
        .await,
        json!("HexEmergo")
    );
    // Said again in French when the language changes (the status and the move tree stayed in
    // English before).
    wait_until(
        &p,
        "document.querySelector('#an-status').textContent === 'Trait aux Blancs' \
         && document.querySelector('#an-tree').textContent.startsWith('Aucun coup')",
        "the analysis board in French",
    )
    .await;
    // The explorer, shown on the hexagon too, speaks French.
    wait_until(
        &p,
        "document.querySelector('#ex-title').textContent === 'Explorateur d’ouvertures' \
         && !document.querySelector('#an-explorer').hidden",
        "the explorer's title in French",
    )
    .await;
    save_screenshot(&p, "phone-analysis-hex.png").await;
    assert_no_script_errors(&c).await;
    assert_no_script_errors(&p).await;
    p.close().await.expect("closed");
    c.close().await.expect("closed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item4_the_editor_sets_up_a_hex_position_and_analyses_it_on_its_board() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    c.goto(&rig.url("/editor?variant=hex"))
        .await
        .expect("the page loads");
    wait_until(
        &c,
        "document.querySelector('#editor').dataset.variant === 'hex' \
         && document.querySelectorAll('#editor-board .hit').length === 37 \
         && document.querySelector('#editor-check').dataset.valid === 'true'",
        "the editor on the hexagon",
    )
    .await;
    assert_eq!(
        js(&c, "return document.querySelector('#editor-text').value").await,
        json!("W:12:12")
    );
    // Two White men on a1 (a hex corner, no square of the 9×9 board), two fewer in hand.
    click(&c, "#editor-board .hit[data-sq='a1']").await;
    click(&c, "#editor-board .hit[data-sq='a1']").await;
    find(&c, "#editor-hand-white")
        .await
        .clear()
        .await
        .expect("cleared");
    find(&c, "#editor-hand-white")
        .await
        .send_keys("10")
        .await
        .expect("typed");
    wait_until(
        &c,
        "document.querySelector('#editor-text').value === 'W:10:12:a1=WW' \
         && document.querySelector('#editor-check').dataset.valid === 'true'",
        "a legal hex position",
    )
    .await;
    // The 7×7 board allows 8 men a side (R2): the selector starts it afresh.
    find(&c, "#editor-variant")
        .await
        .select_by_value("7x7")
        .await
        .expect("7×7 chosen");
    wait_until(
        &c,
        "location.search === '?variant=7x7' && document.querySelector('#editor-text').value === 'W:8:8' \
         && document.querySelectorAll('#editor-board .hit').length === 25",
        "the editor on the 7×7 board",
    )
    .await;
    find(&c, "#editor-variant")
        .await
        .select_by_value("hex")
        .await
        .expect("hex chosen");
    click(&c, "#editor-board .hit[data-sq='a1']").await;
    find(&c, "#editor-hand-white")
        .await
        .clear()
        .await
        .expect("cleared");
    find(&c, "#editor-hand-white")
        .await
        .send_keys("11")
        .await
        .expect("typed");
    wait_until(
        &c,
        "document.querySelector('#editor-check').dataset.valid === 'true' \
         && document.querySelector('#editor-text').value === 'W:11:12:a1=W'",
        "a legal hex position again",
    )
    .await;
    save_screenshot(&c, "editor-hex.png").await;
    click(&c, "#editor-analyse").await;
    wait_until(
        &c,
        "location.pathname === '/analysis' && document.querySelector('#analysis').dataset.variant === 'hex' \
         && document.querySelector('#analysis').dataset.position === 'W:11:12:a1=W'",
        "the analysis board on the hexagon",
    )
    .await;
    assert_no_script_errors(&c).await;
    c.close().await.expect("closed");
}

/// Starts a game against the engine (level 1, the person White) on `variant` from the lobby's
/// form, from `position` when given; waits for its board of `count` cells with moves to make.
async fn engine_game_on(
    c: &Client,
    rig: &Rig,
    variant: &str,
    position: Option<&str>,
    count: usize,
) -> String {
    c.goto(&rig.url("/")).await.expect("the lobby loads");
    wait_until(
        c,
        "document.querySelectorAll('#new-engine select[name=variant] option').length === 3",
        "the boards listed in the form",
    )
    .await;
    find(c, "#new-engine select[name=variant]")
        .await
        .select_by_value(variant)
        .await
        .expect("the board is chosen");
    let id = new_game(c, "new-engine", "white", Some(1), position).await;
    wait_until(
        c,
        &format!(
            "document.querySelector('#game').dataset.variant === '{variant}' \
             && document.querySelectorAll('#board .hit').length === {count} \
             && document.querySelector('#board .start, #board .target') !== null"
        ),
        "the game on its board, the person to move",
    )
    .await;
    id
}

/// The game page's move list, once its first move reads as `pred` says (a JS expression over
/// `m`, the first move's text) and the engine has replied.
async fn first_move_where(c: &Client, pred: &str, what: &str) -> Vec<String> {
    wait_until(
        c,
        &format!(
            "(() => {{ const m = document.querySelector('#moves .mv[data-ply]')?.textContent || ''; \
             return ({pred}) && Number(document.querySelector('#game').dataset.ply) >= 2; }})()"
        ),
        what,
    )
    .await;
    moves_listed(c).await
}

/// Plays the first marked entry of the game page by a click; waits for the engine's reply.
async fn enter_first_target(c: &Client) {
    let before = ply(c).await;
    let targets = marks(c, "target").await;
    let sq = targets.first().expect("an entry to make");
    click(c, &format!("#board .hit[data-sq='{sq}']")).await;
    wait_until(
        c,
        &format!(
            "Number(document.querySelector('#game').dataset.ply) >= {} \
             || document.querySelector('#game').dataset.status === 'finished'",
            before + 2
        ),
        "the entry played and the engine's reply",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item4_the_game_page_plays_a_hex_game_and_a_7x7_game_by_click_and_drag() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;
    let w = rig.browser(1100, 860).await;

    // The hexagon chosen in the lobby: 37 hexagonal cells, every one but d4 an entry (R9.3).
    let id = engine_game_on(&c, &rig, "hex", None, 37).await;
    assert_eq!(
        js(
            &c,
            "return [...document.querySelectorAll('#board .hit')].every((h) => h.tagName === 'polygon')"
        )
        .await,
        json!(true),
        "hexagons"
    );
    let entries = marks(&c, "target").await;
    assert_eq!(entries.len(), 36, "{entries:?}");
    assert!(!entries.contains(&"d4".to_string()));
    // c3 by a click; the engine replies on the hexagon; one more entry by a click.
    click(&c, "#board .hit[data-sq='c3']").await;
    let moves =
        first_move_where(&c, "m === 'c3'", "c3 played by a click, the engine's reply").await;
    assert_eq!(moves[0], "c3");
    enter_first_target(&c).await;
    save_screenshot(&c, "game-hex.png").await;
    // A spectator sees the same game on the hexagon, drawn where RULES-hex.md draws it.
    w.goto(&rig.url(&format!("/game/{id}")))
        .await
        .expect("the game loads");
    let seen = ply(&c).await;
    wait_until(
        &w,
        &format!(
            "document.querySelector('#game').dataset.variant === 'hex' \
             && Number(document.querySelector('#game').dataset.ply) >= {seen}"
        ),
        "the spectator's hexagon",
    )
    .await;
    assert_cells_drawn_on(&w, ("#board", "#status"), "hex", 37, "the hex game").await;
    save_screenshot(&w, "game-hex-watched.png").await;

    // A capture dragged on the hexagon (RULES-hex.md, second example): d4 over e4 to f4.
    engine_game_on(&c, &rig, "hex", Some("W:0:0:d4=W,e4=BB,e5=B"), 37).await;
    drag_between(&c, "#board .hit[data-sq='d4']", "#board .hit[data-sq='f4']").await;
    let moves = first_move_where(&c, "m === 'd4xf4'", "d4xf4 played by drag and drop").await;
    assert_eq!(moves[0], "d4xf4");

    // The 7×7 board: 25 squares, 24 entries (d4 is its centre); c3 by a click.
    let id = engine_game_on(&c, &rig, "7x7", None, 25).await;
    assert_eq!(
        js(
            &c,
            "return [...document.querySelectorAll('#board .hit')].every((h) => h.tagName === 'rect')"
        )
        .await,
        json!(true),
        "squares"
    );
    assert_eq!(marks(&c, "target").await.len(), 24);
    click(&c, "#board .hit[data-sq='c3']").await;
    let moves = first_move_where(&c, "m === 'c3'", "c3 played by a click on the 7×7 board").await;
    assert_eq!(moves[0], "c3");
    enter_first_target(&c).await;
    save_screenshot(&c, "game-7x7.png").await;
    w.goto(&rig.url(&format!("/game/{id}")))
        .await
        .expect("the game loads");
    let seen = ply(&c).await;
    wait_until(
        &w,
        &format!(
            "document.querySelector('#game').dataset.variant === '7x7' \
             && Number(document.querySelector('#game').dataset.ply) >= {seen}"
        ),
        "the spectator's 7×7 board",
    )
    .await;
    assert_cells_drawn_on(&w, ("#board", "#status"), "7x7", 25, "the 7×7 game").await;

    // The worked example of RULES-7x7.md dragged: c3 over c4 to c5.
    engine_game_on(
        &c,
        &rig,
        "7x7",
        Some("W:0:0:c3=WWW,c4=BBW,d3=B,d5=B,d6=B,e4=B,e6=W"),
        25,
    )
    .await;
    drag_between(&c, "#board .hit[data-sq='c3']", "#board .hit[data-sq='c5']").await;
    let moves = first_move_where(
        &c,
        "m.startsWith('c3x')",
        "the capture played by drag and drop",
    )
    .await;
    assert!(moves[0].ends_with("c5"), "{moves:?}");
    assert_no_script_errors(&c).await;
    assert_no_script_errors(&w).await;
    w.close().await.expect("closed");
    c.close().await.expect("closed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item4_premoves_on_the_hexagon_and_the_hex_game_opened_on_the_analysis_board() {
    let mut rig = Rig::start().await;
    let c = rig.browser(1100, 860).await;

    // A game between people on the hexagon: White on this page, Black through the API.
    c.goto(&rig.url("/")).await.expect("the lobby loads");
    wait_until(
        &c,
        "document.querySelectorAll('#new-human select[name=variant] option').length === 3",
        "the boards listed in the form",
    )
    .await;
    find(&c, "#new-human select[name=variant]")
        .await
        .select_by_value("hex")
        .await
        .expect("the hexagon is chosen");
    let id = new_game(&c, "new-human", "white", None, None).await;
    let (black, _) = join_as_black(&rig, &c, &id).await;
    let moves_path = format!("/api/games/{id}/moves");
    let black_moves = |ply: u64, mv: &str| {
        post(
            &rig,
            &moves_path,
            json!({"token": black, "ply": ply, "move": mv}),
        )
    };

    // White enters c3; while Black thinks, White premoves e5 on the hexagon: played as soon
    // as Black has entered a1.
    wait_until(
        &c,
        "document.querySelector('#game').dataset.variant === 'hex' \
         && document.querySelectorAll('#board .target').length === 36",
        "White's entries on the hexagon",
    )
    .await;
    click(&c, "#board .hit[data-sq='c3']").await;
    wait_until(
        &c,
        "document.querySelector('#game').dataset.ply === '1'",
        "c3 played",
    )
    .await;
    click(&c, "#board .hit[data-sq='e5']").await;
    wait_until(
        &c,
        "document.querySelector('#game').dataset.premove === 'pending' \
         && document.querySelectorAll('#board .premove').length > 0",
        "the premove shown as pending on its cell",
    )
    .await;
    save_screenshot(&c, "game-hex-premove.png").await;
    black_moves(1, "a1").await;
    wait_until(
        &c,
        "document.querySelector('#game').dataset.ply === '3'",
        "the premove played",
    )
    .await;
    assert_eq!(moves_listed(&c).await, ["c3", "a1", "e5"]);

    // A premove that Black's reply makes illegal (Black enters the same cell) is cancelled.
    click(&c, "#board .hit[data-sq='f4']").await;
    wait_until(
        &c,
        "document.querySelector('#game').dataset.premove === 'pending'",
        "the second premove",
    )
    .await;
    black_moves(3, "f4").await;
    wait_until(
        &c,
        "document.querySelector('#toast-text').innerText.includes('premove was cancelled')",
        "the cancelled premove said",
    )
    .await;
    assert_eq!(ply(&c).await, 4);
    assert_eq!(game_data(&c, "premove").await, "");

    // Black resigns; the game's Analyse link opens it on the analysis board, on the hexagon,
    // every move in its tree, the board selector fixed to the game's board.
    post(
        &rig,
        &format!("/api/games/{id}/resign"),
        json!({ "token": black }),
    )
    .await;
    wait_until(
        &c,
        "document.querySelector('#game').dataset.status === 'finished'",
        "the game over",
    )
    .await;
    click(&c, "#analyse").await;
    wait_until(
        &c,
        "location.pathname === '/analysis' \
         && document.querySelector('#analysis').dataset.variant === 'hex' \
         && document.querySelectorAll('#an-board .hit').length === 37 \
         && document.querySelectorAll('#an-tree .an-move').length === 4",
        "the hex game on the analysis board",
    )
    .await;
    assert_eq!(
        js(&c, "return document.querySelector('#an-variant').disabled").await,
        json!(true),
        "a game's own board"
    );
    assert_cells_drawn(&c, "hex", 37, "the hex game analysed").await;
    assert_no_script_errors(&c).await;
    c.close().await.expect("closed");
}
