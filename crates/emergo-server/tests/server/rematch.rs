//! A rematch between the seat holders of a finished game between people (docs/api.md,
//! `POST /api/games/{id}/rematch`): offered, told to the other side over the WebSocket,
//! declined or accepted; the new game has the colours swapped and seats both players, each
//! proving its seat with the old game's token. Two acceptances on two instances make one game.

use crate::common::*;
use reqwest::StatusCode;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_is_offered_told_declined_accepted_and_seats_both_with_colours_swapped() {
    let srv = TestServer::start().await;
    let (white, black, id) = finished_game(&srv).await;
    let rematch = format!("/api/games/{id}/rematch");
    let act =
        |token: &Value, action: &str| srv.post(&rematch, json!({"token": token, "action": action}));
    // White's page follows the game: it is told of Black's offer, of its own refusal...
    let mut white_page = srv.socket(&id).await;
    assert_eq!(
        next_state(&mut white_page).await["rematch_offer"],
        Value::Null
    );

    let (status, offered) = act(&black["token"], "offer").await;
    assert_eq!(status, StatusCode::OK, "{offered}");
    assert_eq!(offered["rematch_offer"], "black");
    assert_eq!(next_state(&mut white_page).await["rematch_offer"], "black");
    // Offering twice changes nothing; Black cannot accept its own offer.
    assert_eq!(act(&black["token"], "offer").await.0, StatusCode::OK);
    let (status, own) = act(&black["token"], "accept").await;
    assert_eq!(
        (status, &own["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed"))
    );

    let (status, declined) = act(&white["token"], "decline").await;
    assert_eq!(status, StatusCode::OK, "{declined}");
    assert_eq!(declined["rematch_offer"], Value::Null);
    let seen = state_where(&mut white_page, |g| g["rematch_offer"].is_null()).await;
    assert_eq!(seen["rematch_game"], Value::Null);

    // ... and the offerer's page is told of the acceptance: the new game's id.
    let mut black_page = srv.socket(&id).await;
    next_state(&mut black_page).await;
    act(&black["token"], "offer").await;
    let (status, accepted) = act(&white["token"], "accept").await;
    assert_eq!(status, StatusCode::CREATED, "{accepted}");
    let new_id = id_of(&accepted);
    assert_ne!(new_id, id);
    assert_eq!(
        accepted["seat"], "black",
        "colours swapped: White plays Black"
    );
    assert_eq!(accepted["game"]["mode"], "human");
    assert_eq!(accepted["game"]["ply"], 0);
    assert_eq!(accepted["game"]["black"]["joined"], true);
    assert_eq!(accepted["game"]["white"]["joined"], false);
    assert!(accepted.get("invite").is_none(), "{accepted}");
    let told = state_where(&mut black_page, |g| !g["rematch_game"].is_null()).await;
    assert_eq!(told["rematch_game"], new_id.as_str());
    assert_eq!(told["rematch_offer"], "black");

    // One rematch only; the acceptor's seat in it is taken, the offerer joins once.
    let (status, again) = act(&white["token"], "accept").await;
    assert_eq!(
        (status, &again["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed"))
    );
    let (status, theirs) = act(&white["token"], "join").await;
    assert_eq!(
        (status, &theirs["error"]),
        (StatusCode::CONFLICT, &json!("seat_taken"))
    );
    let (status, joined) = act(&black["token"], "join").await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    assert_eq!(
        (joined["seat"].as_str(), id_of(&joined)),
        (Some("white"), new_id.clone())
    );
    assert_eq!(joined["game"]["white"]["joined"], true);
    let (status, twice) = act(&black["token"], "join").await;
    assert_eq!(
        (status, &twice["error"]),
        (StatusCode::CONFLICT, &json!("seat_taken"))
    );

    // The new tokens play the new game; the old ones do not.
    let (status, moved) = srv.play(&new_id, &joined["token"], 0, "d3").await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let (status, _) = srv.play(&new_id, &black["token"], 1, "a5").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, moved) = srv.play(&new_id, &accepted["token"], 1, "a5").await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offering_back_accepts_and_only_seat_holders_of_finished_games_between_people_may() {
    let srv = TestServer::start().await;
    let (white, black, id) = finished_game(&srv).await;
    let rematch = format!("/api/games/{id}/rematch");
    let (status, _) = srv
        .post(
            &rematch,
            json!({"token": white["token"], "action": "offer"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    // A stranger, no token, a bad action.
    for (body, code) in [
        (json!({"token": "nope", "action": "accept"}), "bad_token"),
        (json!({"action": "accept"}), "bad_token"),
        (
            json!({"token": black["token"], "action": "maybe"}),
            "bad_request",
        ),
    ] {
        let (_, refused) = srv.post(&rematch, body).await;
        assert_eq!(refused["error"], code, "{refused}");
    }
    // Black offers back: that accepts White's offer.
    let (status, grant) = srv
        .post(
            &rematch,
            json!({"token": black["token"], "action": "offer"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{grant}");
    assert_eq!(grant["seat"], "white");

    // Engine games keep their own rematch (a new game); imported games have no seats.
    let engine = srv
        .create(json!({"mode": "engine", "color": "white", "level": 1}))
        .await;
    let eid = id_of(&engine);
    srv.post(
        &format!("/api/games/{eid}/resign"),
        json!({"token": engine["token"]}),
    )
    .await;
    let (status, refused) = srv
        .post(
            &format!("/api/games/{eid}/rematch"),
            json!({"token": engine["token"], "action": "offer"}),
        )
        .await;
    assert_eq!(
        (status, &refused["error"]),
        (StatusCode::CONFLICT, &json!("not_allowed"))
    );
    let (_, imported) = srv
        .post_raw("/api/games/import", "text/plain", "1. d3 a5 1-0")
        .await;
    let (status, refused) = srv
        .post(
            &format!(
                "/api/games/{}/rematch",
                imported["id"].as_str().expect("id")
            ),
            json!({"token": engine["token"], "action": "offer"}),
        )
        .await;
    assert_eq!(
        (status, &refused["error"]),
        (StatusCode::FORBIDDEN, &json!("bad_token"))
    );
    srv.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_acceptances_on_two_instances_make_one_rematch() {
    let a = TestServer::start().await;
    let b = TestServer::builder().db(&a.db).start().await;
    let (white, black, id) = finished_game(&a).await;
    let rematch = format!("/api/games/{id}/rematch");
    let (status, _) = a
        .post(
            &rematch,
            json!({"token": black["token"], "action": "offer"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    // B reads the game (with the offer) before the race.
    assert_eq!(b.game(&id).await["rematch_offer"], "black");
    let before = a.get("/api/games?status=ongoing").await.1["games"]
        .as_array()
        .expect("list")
        .len();
    let body = json!({"token": white["token"], "action": "accept"});
    let (on_a, on_b) = tokio::join!(a.post(&rematch, body.clone()), b.post(&rematch, body));
    let answers = [on_a, on_b];
    let made: Vec<&Value> = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::CREATED)
        .map(|(_, v)| v)
        .collect();
    assert_eq!(made.len(), 1, "{answers:?}");
    for (status, refused) in answers.iter().filter(|(s, _)| *s != StatusCode::CREATED) {
        assert_eq!(*status, StatusCode::CONFLICT, "{refused}");
        assert_eq!(refused["error"], "not_allowed", "{refused}");
    }
    let new_id = id_of(made[0]);
    // One new game stored (the loser's is gone), named on both instances.
    let after = a.get("/api/games?status=ongoing").await.1["games"]
        .as_array()
        .expect("list")
        .len();
    assert_eq!(after, before + 1);
    for server in [&a, &b] {
        assert_eq!(server.game(&id).await["rematch_game"], new_id.as_str());
    }
    a.stop().await;
    b.stop().await;
}

/// A rematch keeps the time control; its clock starts when the offerer takes its seat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_keeps_the_time_control() {
    let srv = TestServer::start().await;
    let (id, white, black) = timed_game(&srv, "5+3").await;
    let (status, over) = srv
        .post(&format!("/api/games/{id}/resign"), json!({"token": white}))
        .await;
    assert_eq!(status, StatusCode::OK, "{over}");
    assert_eq!(over["reason"], "aborted");
    let rematch = format!("/api/games/{id}/rematch");
    let act =
        |token: &Value, action: &str| srv.post(&rematch, json!({"token": token, "action": action}));
    assert_eq!(act(&white, "offer").await.0, StatusCode::OK);
    let (status, accepted) = act(&black, "accept").await;
    assert_eq!(status, StatusCode::CREATED, "{accepted}");
    assert_eq!(accepted["game"]["time_control"], "5+3");
    assert_eq!(
        accepted["game"]["clock"],
        json!({"white_ms": 300_000, "black_ms": 300_000, "increment_ms": 3_000, "running": null})
    );
    let (status, joined) = act(&white, "join").await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    assert_eq!(joined["game"]["time_control"], "5+3");
    assert_eq!(joined["game"]["clock"]["running"], "white");
    srv.stop().await;
}
