//! The rules course (issue 21, docs/api.md "Learn"): its lessons, the judge of a move played in
//! one of their exercises, and a signed-in player's progress. The course and its judgement are
//! the domain's (emergo-platform `domain::course`), every rule the core's; the progress is the
//! store's (`learn_progress`).

use crate::services::error::{echo, ServiceError};
use emergo_platform::domain::course::{Course, CourseError, Exercise, Verdict};
use emergo_platform::domain::model::now_text;
use emergo_platform::store::learn::Solved;
use emergo_platform::store::Store;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The most moves an exercise's line may have been played to before a move is judged.
pub const MAX_PLAYED: usize = 32;

/// Solved exercises by lesson id: the exercises' numbers (from 1), ascending.
pub type Progress = BTreeMap<String, Vec<i64>>;

/// The course and its progress.
pub struct Learn {
    course: Arc<Course>,
    store: Store,
}

impl Learn {
    pub fn new(course: Arc<Course>, store: Store) -> Learn {
        Learn { course, store }
    }

    pub fn course(&self) -> &Course {
        &self.course
    }

    /// Exercise `exercise` (its number from 1, as the path gives it) of `lesson`.
    fn exercise(
        &self,
        lesson: &str,
        exercise: &str,
    ) -> Result<(&str, usize, &Exercise), ServiceError> {
        let number: usize = exercise.parse().map_err(|_| {
            ServiceError::NotFound(format!("exercise {} is not a number", echo(exercise)))
        })?;
        let lesson = self
            .course
            .lesson(lesson)
            .ok_or_else(|| ServiceError::NotFound(format!("no lesson {}", echo(lesson))))?;
        let ex = number
            .checked_sub(1)
            .and_then(|i| lesson.exercises.get(i))
            .ok_or_else(|| {
                ServiceError::NotFound(format!(
                    "lesson {} has exercises 1 to {}, not {number}",
                    lesson.id,
                    lesson.exercises.len()
                ))
            })?;
        Ok((lesson.id.as_str(), number, ex))
    }

    /// Judges `mv` after the line `played` in an exercise; a solution is recorded on the
    /// account, when there is one, before the verdict is given.
    pub async fn judge(
        &self,
        lesson: &str,
        exercise: &str,
        played: &[String],
        mv: &str,
        account: Option<i64>,
    ) -> Result<Verdict, ServiceError> {
        let (lesson, number, ex) = self.exercise(lesson, exercise)?;
        if played.len() > MAX_PLAYED {
            return Err(ServiceError::BadRequest(format!(
                "at most {MAX_PLAYED} moves played, not {}",
                played.len()
            )));
        }
        let verdict = ex.judge(played, mv).map_err(|e| match e {
            CourseError::NotALine => ServiceError::BadRequest(format!(
                "{}: the moves played are not a line of this exercise",
                echo(&played.join(" "))
            )),
            other => ServiceError::BadRequest(other.to_string()),
        })?;
        if let (Verdict::Solved, Some(account)) = (&verdict, account) {
            let solved = Solved {
                lesson: lesson.to_string(),
                exercise: number as i64,
            };
            self.store
                .mark_solved(account, &[solved], &now_text())
                .await?;
        }
        Ok(verdict)
    }

    /// What the account has solved of today's course (a row of a lesson or an exercise the
    /// course no longer has is left out).
    pub async fn progress(&self, account: i64) -> Result<Progress, ServiceError> {
        let rows = self.store.solved_of(account).await?;
        let mut progress = Progress::new();
        for row in rows {
            let known = self
                .course
                .lesson(&row.lesson)
                .is_some_and(|l| (1..=l.exercises.len() as i64).contains(&row.exercise));
            if known {
                progress.entry(row.lesson).or_default().push(row.exercise);
            }
        }
        Ok(progress)
    }

    /// Adds what a browser solved before signing in to the account's progress (every exercise
    /// named must be one of the course's: otherwise nothing is recorded); the account's whole
    /// progress after it.
    pub async fn add_progress(
        &self,
        account: i64,
        solved: &Progress,
    ) -> Result<Progress, ServiceError> {
        let mut rows = Vec::new();
        for (lesson, numbers) in solved {
            let known = self
                .course
                .lesson(lesson)
                .ok_or_else(|| ServiceError::BadRequest(format!("no lesson {}", echo(lesson))))?;
            let count = known.exercises.len() as i64;
            if numbers.len() as i64 > count {
                return Err(ServiceError::BadRequest(format!(
                    "lesson {lesson} has {count} exercises, not {}",
                    numbers.len()
                )));
            }
            for &n in numbers {
                if !(1..=count).contains(&n) {
                    return Err(ServiceError::BadRequest(format!(
                        "lesson {lesson} has exercises 1 to {count}, not {n}"
                    )));
                }
                rows.push(Solved {
                    lesson: lesson.clone(),
                    exercise: n,
                });
            }
        }
        self.store.mark_solved(account, &rows, &now_text()).await?;
        self.progress(account).await
    }
}
