//! The rules course (docs/api.md, "Learn"): the lessons, and the judge of a move played in one of
//! their exercises. The course and its judgement are the domain's (emergo-platform
//! `domain::course`), every rule the core's: this layer only reads requests and writes answers.

use crate::http::extract::Body;
use crate::http::session::{SessionCookie, SignedIn};
use crate::services::accounts::Accounts;
use crate::services::error::ServiceError;
use crate::services::learn::{Learn, Progress};
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use emergo_platform::domain::course::{Lesson, Text, Verdict};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// `GET /api/learn`.
#[derive(Serialize)]
pub struct CourseView {
    pub lessons: Vec<LessonView>,
}

#[derive(Serialize)]
pub struct LessonView {
    pub id: String,
    pub rules: Vec<String>,
    pub title: Text,
    pub text: Text,
    pub exercises: Vec<ExerciseView>,
}

#[derive(Serialize)]
pub struct ExerciseView {
    /// N2: the page asks `POST /api/position/moves` for its board and legal moves.
    pub position: String,
    pub goal: Text,
    pub hint: Text,
    pub explain: Text,
    /// Moves the lesson shows refused, and the rule.
    pub refused: Vec<RefusedView>,
}

#[derive(Serialize)]
pub struct RefusedView {
    #[serde(rename = "move")]
    pub mv: String,
    pub rule: String,
}

fn lesson_view(lesson: &Lesson) -> LessonView {
    LessonView {
        id: lesson.id.clone(),
        rules: lesson.rules.clone(),
        title: lesson.title.clone(),
        text: lesson.text.clone(),
        exercises: lesson
            .exercises
            .iter()
            .map(|e| ExerciseView {
                position: e.position.to_string(),
                goal: e.goal.clone(),
                hint: e.hint.clone(),
                explain: e.explain.clone(),
                refused: e
                    .refusals
                    .iter()
                    .map(|r| RefusedView {
                        mv: r.mv.clone(),
                        rule: r.rule.clone(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// `GET /api/learn`: every lesson, in order.
pub async fn course(State(learn): State<Arc<Learn>>) -> axum::Json<CourseView> {
    axum::Json(CourseView {
        lessons: learn.course().lessons().iter().map(lesson_view).collect(),
    })
}

/// `POST /api/learn/{lesson}/{exercise}` `{"played": [...], "move": "..."}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgeBody {
    /// The moves of the line so far (the solver's and the replies the page played).
    #[serde(default)]
    played: Vec<String>,
    #[serde(rename = "move")]
    mv: String,
}

/// The judgement.
#[derive(Serialize)]
pub struct VerdictView {
    /// `solved`, `reply` (right so far: `reply` is the page's answer), `not_the_goal` (a legal
    /// move that does not solve it), `refused` (no legal move: `refusal` says why), `unreadable`.
    pub verdict: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<RefusalView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The core's refusal: its stable name (a translation key of the page) and its rule.
#[derive(Serialize)]
pub struct RefusalView {
    pub reason: &'static str,
    pub rule: &'static str,
    pub message: String,
}

/// Judges a move in exercise `exercise` (from 1) of `lesson`; a solution is kept on the
/// account of the request's session, when there is one.
pub async fn judge(
    State(learn): State<Arc<Learn>>,
    State(accounts): State<Arc<Accounts>>,
    cookie: SessionCookie,
    path: Result<Path<(String, String)>, PathRejection>,
    Body(body): Body<JudgeBody>,
) -> Result<axum::Json<VerdictView>, ServiceError> {
    let Path((lesson, exercise)) =
        path.map_err(|e| ServiceError::BadRequest(format!("the path: {e}")))?;
    let account = cookie.account(&accounts).await?.map(|s| s.account.id);
    let verdict = learn
        .judge(&lesson, &exercise, &body.played, &body.mv, account)
        .await?;
    let mut view = VerdictView {
        verdict: "solved",
        reply: None,
        refusal: None,
        message: None,
    };
    match verdict {
        Verdict::Solved => {}
        Verdict::Reply(reply) => {
            view.verdict = "reply";
            view.reply = Some(reply);
        }
        Verdict::NotTheGoal => view.verdict = "not_the_goal",
        Verdict::Refused(refusal) => {
            view.verdict = "refused";
            view.refusal = Some(RefusalView {
                reason: refusal.name(),
                rule: refusal.rule(),
                message: refusal.to_string(),
            });
        }
        Verdict::Unreadable(message) => {
            view.verdict = "unreadable";
            view.message = Some(message);
        }
    }
    Ok(axum::Json(view))
}

/// `GET /api/learn/progress` and the answer of `POST` to it: the account's solved exercises.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgressView {
    /// Lesson id → the numbers (from 1) of its solved exercises.
    pub solved: Progress,
}

/// `GET /api/learn/progress`: what the signed-in account has solved.
pub async fn progress(
    State(learn): State<Arc<Learn>>,
    SignedIn(session): SignedIn,
) -> Result<axum::Json<ProgressView>, ServiceError> {
    Ok(axum::Json(ProgressView {
        solved: learn.progress(session.account.id).await?,
    }))
}

/// `POST /api/learn/progress {"solved": {...}}`: adds what this browser solved before signing in.
pub async fn add_progress(
    State(learn): State<Arc<Learn>>,
    SignedIn(session): SignedIn,
    Body(body): Body<ProgressView>,
) -> Result<axum::Json<ProgressView>, ServiceError> {
    Ok(axum::Json(ProgressView {
        solved: learn.add_progress(session.account.id, &body.solved).await?,
    }))
}
