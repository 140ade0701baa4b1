//! The rules course (docs/api.md, "Learn"): the lessons, and the judge of a move played in one of
//! their exercises. The course and its judgement are the domain's (emergo-platform
//! `domain::course`), every rule the core's: this layer only reads requests and writes answers.

use crate::http::extract::Body;
use crate::services::error::{echo, ServiceError};
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use emergo_platform::domain::course::{Course, CourseError, Lesson, Text, Verdict};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The most moves an exercise's line may have been played to before a move is judged.
pub const MAX_PLAYED: usize = 32;

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
pub async fn course(State(course): State<Arc<Course>>) -> axum::Json<CourseView> {
    axum::Json(CourseView {
        lessons: course.lessons().iter().map(lesson_view).collect(),
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

/// Judges a move in exercise `exercise` (from 1) of `lesson`.
pub async fn judge(
    State(course): State<Arc<Course>>,
    path: Result<Path<(String, String)>, PathRejection>,
    Body(body): Body<JudgeBody>,
) -> Result<axum::Json<VerdictView>, ServiceError> {
    let Path((lesson, exercise)) =
        path.map_err(|e| ServiceError::BadRequest(format!("the path: {e}")))?;
    let exercise: usize = exercise.parse().map_err(|_| {
        ServiceError::NotFound(format!("exercise {} is not a number", echo(&exercise)))
    })?;
    let lesson = course
        .lesson(&lesson)
        .ok_or_else(|| ServiceError::NotFound(format!("no lesson {}", echo(&lesson))))?;
    let ex = exercise
        .checked_sub(1)
        .and_then(|i| lesson.exercises.get(i))
        .ok_or_else(|| {
            ServiceError::NotFound(format!(
                "lesson {} has exercises 1 to {}, not {exercise}",
                lesson.id,
                lesson.exercises.len()
            ))
        })?;
    if body.played.len() > MAX_PLAYED {
        return Err(ServiceError::BadRequest(format!(
            "at most {MAX_PLAYED} moves played, not {}",
            body.played.len()
        )));
    }
    let verdict = ex.judge(&body.played, &body.mv).map_err(|e| match e {
        CourseError::NotALine => ServiceError::BadRequest(format!(
            "{}: the moves played are not a line of this exercise",
            echo(&body.played.join(" "))
        )),
        other => ServiceError::BadRequest(other.to_string()),
    })?;
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
