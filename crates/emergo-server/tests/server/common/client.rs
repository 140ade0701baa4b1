//! Signed-in clients: an account's session cookie, sent with each request it makes.

use super::TestServer;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// The password of the tests' accounts.
pub const PASSWORD: &str = "password-of-test";

/// A signed-in account: its name and its session cookie.
#[derive(Clone, Debug)]
pub struct User {
    pub name: String,
    pub cookie: String,
}

impl User {
    /// The `Cookie` header that proves the session.
    pub fn cookie_header(&self) -> String {
        format!("emergo_session={}", self.cookie)
    }

    /// A POST as this account (an answer that is not JSON reads as `null`).
    pub async fn post(&self, s: &TestServer, path: &str, body: Value) -> (StatusCode, Value) {
        send(s, path, Some(self), body).await
    }

    /// A GET as this account.
    pub async fn get(&self, s: &TestServer, path: &str) -> (StatusCode, Value) {
        call(s, reqwest::Method::GET, path, Some(self), None).await
    }
}

/// Signs up `name` (password [`PASSWORD`]); the account is signed in.
pub async fn sign_up(s: &TestServer, name: &str) -> User {
    let res = s
        .client
        .post(format!("{}/api/accounts", s.base))
        .json(&json!({"name": name, "password": PASSWORD}))
        .send()
        .await
        .expect("request sent");
    assert_eq!(res.status(), StatusCode::CREATED);
    let cookie = res
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .map(token_of)
        .expect("a session cookie");
    User {
        name: name.to_string(),
        cookie,
    }
}

/// The session token of a `Set-Cookie` header.
pub fn token_of(set_cookie: &str) -> String {
    set_cookie
        .split(';')
        .next()
        .and_then(|kv| kv.split_once('='))
        .map(|(_, v)| v.to_string())
        .expect("a cookie value")
}

/// A POST of `body`, as `user` or nobody; an answer that is not JSON reads as `null`.
pub async fn send(
    s: &TestServer,
    path: &str,
    user: Option<&User>,
    body: Value,
) -> (StatusCode, Value) {
    let mut req = s.client.post(format!("{}{path}", s.base)).json(&body);
    if let Some(user) = user {
        req = req.header("cookie", user.cookie_header());
    }
    let res = req.send().await.expect("request sent");
    let status = res.status();
    let value = res.json().await.unwrap_or(Value::Null);
    (status, value)
}

/// A request of any method, as `user` or nobody, with a JSON body or none; an empty answer
/// reads as `null`, any other must be JSON.
pub async fn call(
    s: &TestServer,
    method: reqwest::Method,
    path: &str,
    user: Option<&User>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = s.client.request(method, format!("{}{path}", s.base));
    if let Some(user) = user {
        req = req.header("cookie", user.cookie_header());
    }
    if let Some(body) = body {
        req = req.json(&body);
    }
    let res = req.send().await.expect("request sent");
    let status = res.status();
    let text = res.text().await.expect("a body");
    let value = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).expect("JSON")
    };
    (status, value)
}

/// A GET as `user`.
pub async fn get_as(s: &TestServer, user: &User, path: &str) -> (StatusCode, Value) {
    call(s, reqwest::Method::GET, path, Some(user), None).await
}

/// A POST as `user` (the answer must be JSON or empty).
pub async fn post_as(s: &TestServer, user: &User, path: &str, body: Value) -> (StatusCode, Value) {
    call(s, reqwest::Method::POST, path, Some(user), Some(body)).await
}
