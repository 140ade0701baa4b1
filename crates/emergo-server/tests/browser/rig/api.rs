//! The API beside the page: accounts made over HTTP and requests with their sessions, for the
//! set-up of a browser test (what the browser then shows is the test).

use super::{find, js, Rig};
use fantoccini::Client;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// An account made over HTTP: its name and its session token.
pub struct Account {
    pub name: String,
    /// Its session, for the API's requests.
    pub token: String,
}

/// Signs `name` up with `password` over HTTP.
pub async fn sign_up_over_http(rig: &Rig, name: &str, password: &str) -> Account {
    let res = reqwest::Client::new()
        .post(rig.url("/api/accounts"))
        .json(&json!({"name": name, "password": password}))
        .send()
        .await
        .expect("the sign-up is sent");
    assert_eq!(res.status(), StatusCode::CREATED);
    let token = res
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|c| c.split(';').next())
        .and_then(|kv| kv.split_once('='))
        .map(|(_, v)| v.to_string())
        .expect("a session cookie");
    Account {
        name: name.to_string(),
        token,
    }
}

/// A request with the session `token` and a JSON body; an answer that is not JSON reads as
/// `null`.
pub async fn send_as(
    rig: &Rig,
    method: reqwest::Method,
    path: &str,
    token: &str,
    body: Value,
) -> (StatusCode, Value) {
    let res = reqwest::Client::new()
        .request(method, rig.url(path))
        .header("cookie", format!("emergo_session={token}"))
        .json(&body)
        .send()
        .await
        .expect("the request is sent");
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// Logs the browser in with a session made over HTTP (the page then reloads).
pub async fn log_in(c: &Client, rig: &Rig, session: &str, path: &str) {
    c.goto(&rig.url("/")).await.expect("the page loads");
    js(
        c,
        &format!("document.cookie = 'emergo_session={session}; path=/'; return true"),
    )
    .await;
    c.goto(&rig.url(path)).await.expect("the page loads");
    find(c, "#me-link:not([hidden])").await;
}
