//! The rules course (`/learn`, issue 21): one lesson per rule family, in the order a newcomer
//! needs them, each a short text and exercises. The lessons are data (`data/course.toml`): a
//! position (N2), a goal, a hint, an explanation, the lines that solve it, and moves that the core
//! refuses with the rule the lesson names. Every judgement goes through the core: a move is
//! legal when the generator lists it, and a refused move is explained by the core's own
//! [`Refusal`] with its rule number. [`Course::standard`] checks the whole file when it loads
//! (every line legal, every final condition met, every refusal refused with its rule), so a
//! lesson can never teach what the rules do not say.

use emergo_core::{Color, MoveError, Position, Refusal, Square};
use serde::{Deserialize, Serialize};

/// The course as shipped.
const COURSE_TOML: &str = include_str!("../../data/course.toml");

/// A text in each of the site's languages.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub en: String,
    pub fr: String,
}

/// The course: its lessons, in order.
#[derive(Clone, Debug)]
pub struct Course {
    lessons: Vec<Lesson>,
}

/// One lesson: a rule family.
#[derive(Clone, Debug)]
pub struct Lesson {
    /// A stable name (`entering`), for progress and links.
    pub id: String,
    /// The rules it teaches, as RULES.md numbers them.
    pub rules: Vec<String>,
    pub title: Text,
    pub text: Text,
    pub exercises: Vec<Exercise>,
}

/// One exercise: a position and what to do in it.
#[derive(Clone, Debug)]
pub struct Exercise {
    /// The position, as the page receives it.
    pub position: Position,
    pub goal: Text,
    pub hint: Text,
    /// Said once the exercise is solved.
    pub explain: Text,
    accept: Accept,
    /// What must hold once a line is played to its end.
    done: Option<Done>,
    /// Moves the lesson shows refused, with the rule the core refuses them by.
    pub refusals: Vec<RefusalExample>,
}

/// Which moves solve an exercise.
#[derive(Clone, Debug)]
enum Accept {
    /// Any legal move (the exercise teaches what is refused, or that a move is forced).
    AnyLegal,
    /// One of these lines: the solver's move, the reply the page plays, the solver's, … ending
    /// on a move of the solver. Moves are compared through the core (`E4-C4` = `e4xc4`).
    Lines(Vec<Vec<String>>),
}

/// A condition on the position a solving line leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Done {
    /// The opponent has lost (R10.1: no column, no man in hand).
    OpponentLost,
    /// The solver owns the column on this square.
    Owns(Square),
    /// The opponent owns the column on this square.
    OpponentOwns(Square),
}

/// A move the lesson shows refused, and the rule that refuses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefusalExample {
    pub mv: String,
    pub rule: String,
}

/// What the core says of a move played in an exercise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The exercise is solved.
    Solved,
    /// Right so far: the page plays this reply, and the solver goes on.
    Reply(String),
    /// A legal move, but not one that reaches the goal.
    NotTheGoal,
    /// No legal move: the rule it breaks (the text was read as a move).
    Refused(Refusal),
    /// The text is not a move at all.
    Unreadable(String),
}

/// What is wrong with the course file or with a request about it.
#[derive(Debug, thiserror::Error)]
pub enum CourseError {
    #[error("the course file: {0}")]
    File(#[from] toml::de::Error),
    #[error("lesson {lesson}, exercise {exercise}: {what}")]
    Exercise {
        lesson: String,
        exercise: usize,
        what: String,
    },
    #[error("lesson id {0} is given twice")]
    DuplicateLesson(String),
    #[error("the moves played so far are not a line of this exercise")]
    NotALine,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CourseFile {
    lesson: Vec<LessonFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LessonFile {
    id: String,
    rules: Vec<String>,
    title: Text,
    text: Text,
    exercise: Vec<ExerciseFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExerciseFile {
    position: String,
    goal: Text,
    hint: Text,
    explain: Text,
    /// `true`: any legal move solves it.
    #[serde(default)]
    any: bool,
    #[serde(default)]
    lines: Vec<Vec<String>>,
    /// `opponent_lost`, `owns <square>`, `opponent_owns <square>`.
    done: Option<String>,
    #[serde(default)]
    refused: Vec<RefusedFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RefusedFile {
    #[serde(rename = "move")]
    mv: String,
    rule: String,
}

impl Course {
    /// The course as shipped, checked move by move.
    pub fn standard() -> Result<Course, CourseError> {
        Course::parse(COURSE_TOML)
    }

    /// Reads and checks a course file (see the module's text).
    pub fn parse(text: &str) -> Result<Course, CourseError> {
        let file: CourseFile = toml::from_str(text)?;
        let mut lessons: Vec<Lesson> = Vec::with_capacity(file.lesson.len());
        for lesson in file.lesson {
            if lessons.iter().any(|l| l.id == lesson.id) {
                return Err(CourseError::DuplicateLesson(lesson.id));
            }
            let exercises = lesson
                .exercise
                .into_iter()
                .enumerate()
                .map(|(i, e)| {
                    Exercise::checked(e).map_err(|what| CourseError::Exercise {
                        lesson: lesson.id.clone(),
                        exercise: i + 1,
                        what,
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            lessons.push(Lesson {
                id: lesson.id,
                rules: lesson.rules,
                title: lesson.title,
                text: lesson.text,
                exercises,
            });
        }
        Ok(Course { lessons })
    }

    pub fn lessons(&self) -> &[Lesson] {
        &self.lessons
    }

    /// The lesson named `id`.
    pub fn lesson(&self, id: &str) -> Option<&Lesson> {
        self.lessons.iter().find(|l| l.id == id)
    }
}

impl Exercise {
    fn checked(file: ExerciseFile) -> Result<Exercise, String> {
        let position: Position = file
            .position
            .parse()
            .map_err(|e| format!("position {:?}: {e}", file.position))?;
        let accept = match (file.any, file.lines.is_empty()) {
            (true, true) => Accept::AnyLegal,
            (false, false) => Accept::Lines(file.lines),
            (true, false) => return Err("both `any` and `lines`".into()),
            (false, true) => return Err("neither `any` nor `lines`".into()),
        };
        let done = file.done.as_deref().map(parse_done).transpose()?;
        let refusals = file
            .refused
            .into_iter()
            .map(|r| RefusalExample {
                mv: r.mv,
                rule: r.rule,
            })
            .collect();
        let exercise = Exercise {
            position,
            goal: file.goal,
            hint: file.hint,
            explain: file.explain,
            accept,
            done,
            refusals,
        };
        exercise.check()?;
        Ok(exercise)
    }

    /// Every line legal and ending on the solver's move with its condition met; every refusal
    /// refused by the core with the rule given; an exercise open to any move has one.
    fn check(&self) -> Result<(), String> {
        match &self.accept {
            Accept::AnyLegal => {
                let moves = self.position.legal_moves();
                if moves.is_empty() {
                    return Err("no legal move".into());
                }
                if let Some(done) = self.done {
                    for &mv in moves.iter() {
                        let after = self.position.play(mv).map_err(|e| e.to_string())?;
                        if !self.met(done, &after) {
                            return Err(format!("the legal move {mv} does not reach the goal"));
                        }
                    }
                }
            }
            Accept::Lines(lines) => {
                for line in lines {
                    if line.len() % 2 == 0 {
                        return Err(format!("the line {line:?} ends on the reply"));
                    }
                    let mut position = self.position;
                    for text in line {
                        let mv = position
                            .parse_move(text)
                            .map_err(|e| format!("line {line:?}: {e}"))?;
                        position = position.play(mv).map_err(|e| e.to_string())?;
                    }
                    if let Some(done) = self.done {
                        if !self.met(done, &position) {
                            return Err(format!("the line {line:?} does not reach the goal"));
                        }
                    }
                }
            }
        }
        for example in &self.refusals {
            match self.position.parse_move(&example.mv) {
                Err(MoveError::NoLegalMatch { reason, .. }) if reason.rule() == example.rule => {}
                Err(MoveError::NoLegalMatch { reason, .. }) => {
                    return Err(format!(
                        "{} is refused by {}, not {}",
                        example.mv,
                        reason.rule(),
                        example.rule
                    ))
                }
                Err(e) => return Err(format!("{}: {e}", example.mv)),
                Ok(_) => return Err(format!("{} is legal", example.mv)),
            }
        }
        Ok(())
    }

    /// The side that solves the exercise.
    pub fn solver(&self) -> Color {
        self.position.turn()
    }

    fn met(&self, done: Done, after: &Position) -> bool {
        let solver = self.solver();
        let owner = |sq| after.column(sq).map(|c| c.owner);
        match done {
            Done::OpponentLost => after.turn() == solver.other() && after.is_lost(),
            Done::Owns(sq) => owner(sq) == Some(solver),
            Done::OpponentOwns(sq) => owner(sq) == Some(solver.other()),
        }
    }

    /// Judges `mv`, played after the moves `played` (the solver's and the page's replies, in
    /// order, as judged before).
    pub fn judge(&self, played: &[String], mv: &str) -> Result<Verdict, CourseError> {
        let mut position = self.position;
        let mut so_far = Vec::with_capacity(played.len());
        for text in played {
            let m = position
                .parse_move(text)
                .map_err(|_| CourseError::NotALine)?;
            so_far.push(m);
            position = position.play(m).map_err(|_| CourseError::NotALine)?;
        }
        let chosen = match position.parse_move(mv) {
            Ok(m) => m,
            Err(MoveError::NoLegalMatch { reason, .. }) => return Ok(Verdict::Refused(reason)),
            Err(e) => return Ok(Verdict::Unreadable(e.to_string())),
        };
        let after = position.play(chosen).map_err(|_| CourseError::NotALine)?;
        let lines = match &self.accept {
            Accept::AnyLegal => {
                if !played.is_empty() {
                    return Err(CourseError::NotALine);
                }
                let solved = self.done.is_none_or(|d| self.met(d, &after));
                return Ok(if solved {
                    Verdict::Solved
                } else {
                    Verdict::NotTheGoal
                });
            }
            Accept::Lines(lines) => lines,
        };
        let mut on_a_line = false;
        for line in lines {
            // The line as moves, as far as it goes.
            let mut pos = self.position;
            let mut moves = Vec::with_capacity(line.len());
            for text in line {
                let Ok(m) = pos.parse_move(text) else { break };
                moves.push(m);
                let Ok(next) = pos.play(m) else { break };
                pos = next;
            }
            if moves.len() <= so_far.len() || moves[..so_far.len()] != so_far[..] {
                continue;
            }
            on_a_line = true;
            if moves[so_far.len()] != chosen {
                continue;
            }
            return Ok(match line.get(so_far.len() + 1) {
                None => Verdict::Solved,
                Some(reply) => Verdict::Reply(reply.clone()),
            });
        }
        if on_a_line {
            Ok(Verdict::NotTheGoal)
        } else {
            Err(CourseError::NotALine)
        }
    }
}

fn parse_done(text: &str) -> Result<Done, String> {
    let square = |name: &str| {
        Square::parse(name).ok_or_else(|| format!("{name:?} is not a square (in done = {text:?})"))
    };
    match text.split_once(' ') {
        None if text == "opponent_lost" => Ok(Done::OpponentLost),
        Some(("owns", sq)) => Ok(Done::Owns(square(sq)?)),
        Some(("opponent_owns", sq)) => Ok(Done::OpponentOwns(square(sq)?)),
        _ => Err(format!(
            "done = {text:?}: expected opponent_lost, owns <square> or opponent_owns <square>"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn course() -> Course {
        match Course::standard() {
            Ok(course) => course,
            Err(err) => panic!("{err}"),
        }
    }

    /// Every exercise of the shipped course checks out against the core (lines legal, goals
    /// met, refusals refused by the rules named): `Course::standard` refuses anything else.
    #[test]
    fn every_lesson_of_the_shipped_course_checks_out_against_the_core() {
        let course = course();
        assert!(course.lessons().len() >= 8);
        for lesson in course.lessons() {
            assert!(
                (2..=5).contains(&lesson.exercises.len()),
                "{}: {} exercises",
                lesson.id,
                lesson.exercises.len()
            );
            for text in [&lesson.title, &lesson.text] {
                assert!(!text.en.trim().is_empty() && !text.fr.trim().is_empty());
            }
        }
    }

    /// The families in the order a newcomer needs them (issue 21), each naming its rules.
    #[test]
    fn the_lessons_follow_the_rule_families_in_order() {
        let course = course();
        let ids: Vec<&str> = course.lessons().iter().map(|l| l.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "board",
                "entering",
                "step",
                "jump",
                "sequences",
                "majority",
                "compulsory",
                "ending"
            ]
        );
        let rules: Vec<String> = course
            .lessons()
            .iter()
            .flat_map(|l| l.rules.clone())
            .collect();
        for rule in [
            "R9.2", "R9.3", "R9.4", "R8", "R6", "R7.1", "R7.2", "R7.3", "R7.4", "R5.1",
        ] {
            assert!(rules.iter().any(|r| r == rule), "no lesson teaches {rule}");
        }
    }

    /// A refusal written into a lesson with the wrong rule is caught when the course loads.
    #[test]
    fn a_refusal_with_another_rule_than_the_cores_is_refused_at_load() {
        let text = r#"
[[lesson]]
id = "x"
rules = ["R9.3"]
title = { en = "t", fr = "t" }
text = { en = "t", fr = "t" }
[[lesson.exercise]]
position = "W:12:12"
goal = { en = "g", fr = "g" }
hint = { en = "h", fr = "h" }
explain = { en = "e", fr = "e" }
any = true
refused = [{ move = "e5", rule = "R9.4" }]
"#;
        let err = Course::parse(text).expect_err("wrong rule");
        assert!(
            err.to_string().contains("refused by R9.3, not R9.4"),
            "{err}"
        );
        let right = text.replace("R9.4\" }", "R9.3\" }");
        assert!(Course::parse(&right).is_ok());
    }

    /// A line that is not legal, or that misses its goal, is caught when the course loads.
    #[test]
    fn an_illegal_or_unfinished_line_is_refused_at_load() {
        let exercise = |lines: &str, done: &str| {
            format!(
                r#"
[[lesson]]
id = "x"
rules = ["R6"]
title = {{ en = "t", fr = "t" }}
text = {{ en = "t", fr = "t" }}
[[lesson.exercise]]
position = "W:0:2:d5=W,e5=BW"
goal = {{ en = "g", fr = "g" }}
hint = {{ en = "h", fr = "h" }}
explain = {{ en = "e", fr = "e" }}
lines = {lines}
done = "{done}"
"#
            )
        };
        assert!(Course::parse(&exercise(r#"[["d5xf5"]]"#, "owns e5")).is_ok());
        let err = Course::parse(&exercise(r#"[["d5-c5"]]"#, "owns e5")).expect_err("illegal");
        assert!(err.to_string().contains("d5-c5"), "{err}");
        let err = Course::parse(&exercise(r#"[["d5xf5"]]"#, "opponent_owns e5")).expect_err("goal");
        assert!(err.to_string().contains("does not reach the goal"), "{err}");
    }

    /// The judge: the line's move solves, another legal move is not the goal, an illegal one
    /// is refused with the core's rule, the designers' notation is read as the core reads it.
    #[test]
    fn r7_3_the_judge_solves_refuses_by_rule_and_reads_the_designers_notation() {
        let course = course();
        let majority = course.lesson("majority").expect("majority lesson");
        let worked = &majority.exercises[0];
        assert_eq!(worked.judge(&[], "h4xf4xd4").unwrap(), Verdict::Solved);
        assert_eq!(worked.judge(&[], "H4-F4-D4").unwrap(), Verdict::Solved);
        match worked.judge(&[], "e5xe3").unwrap() {
            Verdict::Refused(refusal) => assert_eq!(refusal.rule(), "R7.3"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            worked.judge(&[], "zz").unwrap(),
            Verdict::Unreadable(_)
        ));
        let routes = &majority.exercises[1];
        assert_eq!(
            routes.judge(&[], "c4xc6xe6xe4xc4").unwrap(),
            Verdict::Solved
        );
        assert_eq!(
            routes.judge(&[], "c4xe4xe6xc6xc4").unwrap(),
            Verdict::Solved
        );
    }

    /// A line longer than one move: the judge answers with the page's reply, then solves; a
    /// legal move off every line is not the goal, and moves that are not a line are an error.
    #[test]
    fn a_line_of_several_moves_is_answered_reply_by_reply() {
        let text = r#"
[[lesson]]
id = "x"
rules = ["R8"]
title = { en = "t", fr = "t" }
text = { en = "t", fr = "t" }
[[lesson.exercise]]
position = "W:0:0:e5=W,a5=B"
goal = { en = "g", fr = "g" }
hint = { en = "h", fr = "h" }
explain = { en = "e", fr = "e" }
lines = [["e5-e4", "a5-b5", "e4-e3"]]
"#;
        let course = Course::parse(text).expect("course");
        let ex = &course.lessons()[0].exercises[0];
        assert_eq!(
            ex.judge(&[], "e5-e4").unwrap(),
            Verdict::Reply("a5-b5".into())
        );
        let played = ["e5-e4".to_string(), "a5-b5".to_string()];
        assert_eq!(ex.judge(&played, "e4-e3").unwrap(), Verdict::Solved);
        assert_eq!(ex.judge(&played, "e4-d4").unwrap(), Verdict::NotTheGoal);
        assert_eq!(ex.judge(&[], "e5-d5").unwrap(), Verdict::NotTheGoal);
        assert!(matches!(
            ex.judge(&["e5-d5".into(), "a5-b5".into()], "d5-d4"),
            Err(CourseError::NotALine)
        ));
    }
}
