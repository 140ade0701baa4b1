//! Analysis of any position (docs/api.md, "Analysis"): `GET /api/analysis` for tools and the
//! analysis board's stream over `GET /api/analysis/ws`.

use crate::common::*;
use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// Black to move after White's first entry.
const AFTER_D3: &str = "B:11:12:d3=W";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_analysis_answers_the_best_lines_and_refuses_bad_parameters() {
    let srv = TestServer::start().await;
    let (status, body) = srv
        .get(&format!(
            "/api/analysis?position={AFTER_D3}&multipv=3&ms=300"
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["position"], AFTER_D3);
    assert!(body["depth"].as_u64().unwrap() >= 1, "{body}");
    let lines = body["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{body}");
    let mut moves: Vec<&str> = lines.iter().map(|l| l["move"].as_str().unwrap()).collect();
    for line in lines {
        assert_eq!(line["pv"][0], line["move"], "{line}");
        assert!(line["score"].is_i64());
    }
    let scores: Vec<i64> = lines.iter().map(|l| l["score"].as_i64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    moves.sort();
    moves.dedup();
    assert_eq!(moves.len(), 3);

    // A won game has nothing to analyse; a win in one is said as mate 1 (R10.1).
    let (status, over) = srv.get("/api/analysis?position=B:0:0:c4=W").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(over["depth"], 0);
    assert_eq!(over["lines"], json!([]));
    let (status, win) = srv
        .get("/api/analysis?position=W:0:0:d4=W,e4=B&ms=100")
        .await;
    assert_eq!(status, StatusCode::OK, "{win}");
    assert_eq!(win["lines"][0]["move"], "d4xf4");
    assert_eq!(win["lines"][0]["mate"], 1);

    for query in [
        "",
        "?position=X:1:2",
        &format!("?position={AFTER_D3}&multipv=0"),
        &format!("?position={AFTER_D3}&multipv=6"),
        &format!("?position={AFTER_D3}&ms=5001"),
        &format!("?position={AFTER_D3}&ms=soon"),
    ] {
        let (status, body) = srv.get(&format!("/api/analysis{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        assert_eq!(body["error"], "bad_request");
    }
    srv.stop().await;
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn open(srv: &TestServer) -> Ws {
    let url = format!("ws://{}/api/analysis/ws", srv.server.addr());
    tokio_tungstenite::connect_async(url)
        .await
        .expect("WebSocket opens")
        .0
}

async fn ask(ws: &mut Ws, request: Value) {
    ws.send(Message::Text(request.to_string().into()))
        .await
        .expect("sent");
}

async fn next_event(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("an event within 20 s")
            .expect("the socket is open")
            .expect("a good frame");
        if let Message::Text(text) = msg {
            return serde_json::from_str(text.as_str()).expect("JSON");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stream_sends_deeper_lines_follows_the_page_and_runs_one_analysis_per_browser() {
    let srv = TestServer::start().await;
    let mut ws = open(&srv).await;
    ask(&mut ws, json!({"position": AFTER_D3, "multipv": 2})).await;
    let mut depths = Vec::new();
    while depths.len() < 3 {
        let event = next_event(&mut ws).await;
        assert_eq!(event["type"], "lines", "{event}");
        assert_eq!(event["position"], AFTER_D3);
        assert_eq!(event["lines"].as_array().unwrap().len(), 2, "{event}");
        depths.push(event["depth"].as_u64().unwrap());
    }
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
    assert_eq!(srv.server.services().analyses.len(), 1);

    // A new position replaces the analysis; its lines follow (perhaps after a last old one).
    ask(
        &mut ws,
        json!({"position": "W:10:11:d3=W,f7=B", "multipv": 1}),
    )
    .await;
    loop {
        let event = next_event(&mut ws).await;
        if event["position"] == "W:10:11:d3=W,f7=B" {
            assert_eq!(event["type"], "lines", "{event}");
            assert_eq!(event["lines"].as_array().unwrap().len(), 1);
            break;
        }
    }

    // A second analysis from the same address stops the first.
    let mut other = open(&srv).await;
    ask(&mut other, json!({"position": AFTER_D3})).await;
    loop {
        let event = next_event(&mut ws).await;
        if event["type"] == "stopped" {
            assert_eq!(
                event["reason"],
                "another analysis from this browser started"
            );
            break;
        }
    }
    let event = next_event(&mut other).await;
    assert_eq!(event["type"], "lines", "{event}");
    assert_eq!(
        event["lines"].as_array().unwrap().len(),
        3,
        "three lines by default"
    );

    // Bad requests are answered and the socket goes on; closing it stops the analysis.
    ask(&mut ws, json!({"position": "nonsense"})).await;
    assert_eq!(next_event(&mut ws).await["type"], "error");
    ask(&mut ws, json!({"colour": "blue"})).await;
    assert_eq!(next_event(&mut ws).await["type"], "error");
    other.close(None).await.expect("closed");
    drop(other);
    for _ in 0..100 {
        if srv.server.services().analyses.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(srv.server.services().analyses.is_empty());
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_give_their_moves_and_a_tree_becomes_a_record_with_variations() {
    let srv = TestServer::start().await;
    let (status, view) = srv
        .post(
            "/api/position/moves",
            json!({"position": "W:0:0:d4=W,e4=B"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["status"], "ongoing");
    // R5.1: the capture is the only move; after it Black has nothing left (R10.1).
    assert_eq!(view["legal_moves"].as_array().unwrap().len(), 1);
    let after = view["legal_moves"][0]["after"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(view["legal_moves"][0]["move"], "d4xf4");
    let (status, end) = srv
        .post("/api/position/moves", json!({"position": after}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(end["result"], "1-0");
    assert_eq!(end["legal_moves"], json!([]));
    let (status, _) = srv
        .post("/api/position/moves", json!({"position": "W:99"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    let tree = json!({"position": "W:12:12", "moves": [
        {"move": "d3", "variations": [[{"move": "c4"}, {"move": "f7"}]]},
        {"move": "f7"},
    ]});
    let res = srv
        .client
        .post(format!("{}/api/position/record", srv.base))
        .json(&tree)
        .send()
        .await
        .expect("sent");
    assert_eq!(res.status(), StatusCode::OK);
    let text = res.text().await.expect("text");
    let record = emergo_core::GameRecord::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(record.moves.len(), 2, "{text}");
    assert_eq!(record.moves[0].variations.len(), 1, "{text}");
    assert_eq!(record.moves[0].variations[0].len(), 2, "{text}");
    let (status, body) = srv
        .post(
            "/api/position/record",
            json!({"position": "W:12:12", "moves": [{"move": "e5"}]}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["error"], "illegal_move");
    srv.stop().await;
}

/// Issue 20 item 4: the analysis board and the editor on the three boards. Each endpoint reads
/// the board the request names (RULES-hex.md, RULES-7x7.md), says which in its answer, refuses an
/// unknown one naming the three, and the record of a hex line carries its `[Variant]` tag.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item4_positions_moves_and_records_on_each_board_the_request_names() {
    let srv = TestServer::start().await;
    // Perft 1 from each start (the rules pages): 40, 24 and 36 moves.
    for (variant, start, moves) in [
        ("emergo", "W:12:12", 40),
        ("7x7", "W:8:8", 24),
        ("hex", "W:12:12", 36),
    ] {
        let (status, view) = srv
            .post(
                "/api/position/moves",
                json!({"position": start, "variant": variant}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{variant}: {view}");
        assert_eq!(view["variant"], variant);
        assert_eq!(
            view["legal_moves"].as_array().unwrap().len(),
            moves,
            "{variant}"
        );
        let (status, view) = srv
            .get(&format!("/api/position?position={start}&variant={variant}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{variant}: {view}");
        assert_eq!(
            (
                view["variant"].as_str(),
                view["legal_moves"].as_array().map(Vec::len)
            ),
            (Some(variant), Some(moves))
        );
    }
    // Absent: the square 9×9 board, as before.
    let (_, view) = srv
        .post("/api/position/moves", json!({"position": "W:12:12"}))
        .await;
    assert_eq!(view["variant"], "emergo");
    // R9.3 on the hexagon: White's first man not on d4; the worked example's capture of
    // RULES-hex.md (Black's only move, over b3 and d3).
    let (_, view) = srv
        .post(
            "/api/position/moves",
            json!({"position": "B:0:0:a3=BB,b3=W,d3=WWWW,e4=B,f4=BB", "variant": "hex"}),
        )
        .await;
    let legal: Vec<&str> = view["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(legal, ["a3xc3xe3"], "{view}");
    assert_eq!(
        view["legal_moves"][0]["captured"],
        json!(["b3", "d3"]),
        "{view}"
    );
    assert_eq!(
        view["legal_moves"][0]["after"],
        "W:0:0:d3=WWW,e3=BBWW,e4=B,f4=BB"
    );
    // A hex cell is no square of the 9×9 board, nor of the 7×7 one.
    for variant in [None, Some("7x7")] {
        let mut body = json!({"position": "B:11:12:a1=W"});
        if let Some(v) = variant {
            body["variant"] = json!(v);
        }
        let (status, err) = srv.post("/api/position/moves", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{variant:?}: {err}");
    }
    // An unknown board: 400 naming the three, on each endpoint.
    let (status, err) = srv
        .post(
            "/api/position/moves",
            json!({"position": "W:12:12", "variant": "HexEmergo9"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(err["error"], "bad_request");
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("expected emergo, 7x7 or hex"),
        "{err}"
    );
    let (status, err) = srv
        .get("/api/position?position=W:12:12&variant=square")
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    assert!(err["message"]
        .as_str()
        .unwrap()
        .contains("emergo, 7x7 or hex"));
    let (status, err) = srv
        .post(
            "/api/position/record",
            json!({"position": "W:12:12", "variant": "8x8", "moves": []}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    // A hex line with a variation: the record names its board and reads back on it.
    let tree = json!({"position": "W:12:12", "variant": "hex", "moves": [
        {"move": "c3", "variations": [[{"move": "g7"}, {"move": "a1"}]]},
        {"move": "g7"},
    ]});
    let res = srv
        .client
        .post(format!("{}/api/position/record", srv.base))
        .json(&tree)
        .send()
        .await
        .expect("sent");
    assert_eq!(res.status(), StatusCode::OK);
    let text = res.text().await.expect("text");
    assert!(text.contains("[Variant \"HexEmergo\"]"), "{text}");
    assert_eq!(
        emergo_core::record_variant(&text).expect("a tag"),
        emergo_core::VariantKind::HexEmergo
    );
    let record = emergo_core::record::GameRecord::<emergo_core::HexEmergo>::parse(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(record.moves.len(), 2, "{text}");
    assert_eq!(record.moves[0].variations[0].len(), 2, "{text}");
    // A 9×9 move on the hexagon is refused where it stands.
    let (status, body) = srv
        .post(
            "/api/position/record",
            json!({"position": "W:12:12", "variant": "hex", "moves": [{"move": "i5"}]}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    srv.stop().await;
}

/// Issue 20 item 4: `GET /api/variants` lists each board's cells with their drawing places, and
/// is the list the page's node tests draw from (tests/js/variants.json).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item4_the_boards_cells_are_served_as_the_page_tests_read_them() {
    let srv = TestServer::start().await;
    let (status, body) = srv.get("/api/variants").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let fixture: Value =
        serde_json::from_str(include_str!("../js/variants.json")).expect("tests/js/variants.json");
    assert_eq!(body, fixture, "tests/js/variants.json is GET /api/variants");
    let counts: Vec<usize> = body["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["cells"].as_array().unwrap().len())
        .collect();
    assert_eq!(counts, [41, 25, 37]);
    srv.stop().await;
}

/// Issue 20: the engine analyses the board the request names, once and over the stream: its
/// lines start with legal moves of that board, and a position that is not of it is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn item4_the_engine_analyses_the_7x7_board_and_the_hexagon() {
    use emergo_core::position::Position;
    use emergo_core::{Emergo7x7, HexEmergo};
    let srv = TestServer::start().await;
    let (status, body) = srv
        .get("/api/analysis?position=W:8:8&variant=7x7&multipv=2&ms=200")
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let lines = body["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 2, "{body}");
    let start = Position::<Emergo7x7>::start();
    for line in lines {
        let mv = line["move"].as_str().expect("a move");
        assert!(start.parse_move(mv).is_ok(), "a 7x7 move: {body}");
    }
    // Twelve men in hand do not fit the 7x7 board (8 a side).
    let (status, body) = srv
        .get("/api/analysis?position=W:12:12&variant=7x7&ms=50")
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["message"].as_str().unwrap_or("").contains("7x7 board"),
        "{body}"
    );
    let (status, _) = srv
        .get("/api/analysis?position=W:8:8&variant=chess&ms=50")
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    let mut ws = open(&srv).await;
    ask(
        &mut ws,
        json!({"position": "W:12:12", "variant": "hex", "multipv": 1}),
    )
    .await;
    let event = next_event(&mut ws).await;
    assert_eq!(event["type"], "lines", "{event}");
    let mv = event["lines"][0]["move"].as_str().expect("a move");
    let hex = Position::<HexEmergo>::start();
    assert!(hex.parse_move(mv).is_ok(), "a hex move: {event}");
    ask(&mut ws, json!({"position": "W:12:12", "variant": "square"})).await;
    loop {
        let event = next_event(&mut ws).await;
        if event["type"] == "error" {
            assert_eq!(event["code"], "bad_request", "{event}");
            break;
        }
    }
    srv.stop().await;
}
