//! The two sides (R2) and a pair of values indexed by side.

use std::fmt;
use std::ops::{Index, IndexMut};
use std::str::FromStr;
use thiserror::Error;

/// The two sides. White moves first (R2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The side that moves second.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black (for tables; pairs of values are [`ByColor`]).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter used in position text (N2): `W` or `B`.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }

    /// The side named by a letter (either case).
    pub fn from_letter(c: char) -> Option<Color> {
        match c {
            'W' | 'w' => Some(Color::White),
            'B' | 'b' => Some(Color::Black),
            _ => None,
        }
    }

    /// The lower-case name, `white` or `black` (its `Display` and `FromStr` text).
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The capitalised name for sentences: `White` or `Black`.
    pub const fn title(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Text that names no colour.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown colour `{0}` (expected white or black)")]
pub struct ColorError(pub String);

/// Reads `white` or `black` (the `Display` text).
impl FromStr for Color {
    type Err = ColorError;

    fn from_str(s: &str) -> Result<Color, ColorError> {
        Color::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| ColorError(s.to_string()))
    }
}

/// One value per side, indexed by [`Color`]: `hand[Color::White]`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// A pair from White's and Black's values.
    #[inline]
    pub const fn new(white: T, black: T) -> ByColor<T> {
        ByColor { white, black }
    }

    /// A pair from a function of each colour.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        let white = f(Color::White);
        ByColor {
            white,
            black: f(Color::Black),
        }
    }

    /// The pair with `f` applied to both values.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor {
            white: f(self.white),
            black: f(self.black),
        }
    }

    /// The values with their colours, White first.
    pub fn iter(&self) -> impl Iterator<Item = (Color, &T)> {
        [(Color::White, &self.white), (Color::Black, &self.black)].into_iter()
    }
}

impl<T: Clone> ByColor<T> {
    /// The same value for both sides.
    pub fn splat(value: T) -> ByColor<T> {
        ByColor {
            white: value.clone(),
            black: value,
        }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, color: Color) -> &T {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline(always)]
    fn index_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn color_text_round_trips_and_by_color_indexes_by_side() {
        for c in Color::ALL {
            assert_eq!(c.to_string().parse::<Color>(), Ok(c));
        }
        assert!("White".parse::<Color>().is_err());
        let mut hand = ByColor::new(12u8, 11);
        hand[Color::Black] -= 1;
        assert_eq!((hand[Color::White], hand[Color::Black]), (12, 10));
        assert_eq!(ByColor::new_with(Color::index), ByColor::new(0, 1));
    }
}
