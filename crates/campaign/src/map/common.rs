//! Words the map rules share: sides, kinds of force, table edges, the light
//! and weather of a session, and the errors the map rules return.

use std::fmt;

use serde::de::{self, DeserializeSeed, EnumAccess, VariantAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use warbound_rules::day::SESSIONS_PER_DAY;

/// The two armies of a campaign (the book's examples call them Red and Blue),
/// on the map and on a naval engagement's template.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    Blue,
    Red,
}

impl Side {
    /// The other army.
    pub fn enemy(self) -> Side {
        match self {
            Side::Blue => Side::Red,
            Side::Red => Side::Blue,
        }
    }
}

/// What a force on the map is (FYOW 2, 3, 3.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ForceKind {
    Battlegroup,
    Fraction,
    Picket,
}

/// An edge of a Map Board's table, where its "box" lies (FYOW 13.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Edge {
    North,
    East,
    South,
    West,
}

impl Edge {
    /// The edge across the table.
    pub fn opposite(self) -> Edge {
        match self {
            Edge::North => Edge::South,
            Edge::East => Edge::West,
            Edge::South => Edge::North,
            Edge::West => Edge::East,
        }
    }

    /// Whether two edges meet at a corner (FYOW 13.7 "two adjacent edges").
    pub fn is_adjacent(self, other: Edge) -> bool {
        other != self && other != self.opposite()
    }
}

/// Light during a session (FYOW 1.2 daylight and night sessions; 25.2 moonlight):
/// what the map, weather, air and naval rules read as "day", "moonlight" and
/// "night (no moon)". "Some moonlight" is resolved by the weather rules into one
/// of these per session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Light {
    Daylight,
    NightMoon,
    NightNoMoon,
}

impl Light {
    /// Every light, in the order of [`LightWords`].
    const ALL: [Light; 3] = [Light::Daylight, Light::NightMoon, Light::NightNoMoon];

    pub fn is_night(self) -> bool {
        self != Light::Daylight
    }
}

/// [`Light`] in the words of a rule whose events name it otherwise: the
/// word for daylight, a moonlit night and a moonless night, in that order.
/// The air rules' flying chart writes "day", "moonlight", "no_moon"; the
/// weather rules' moon throw "Day", "NightMoonlit", "NightNoMoon".
pub(crate) struct LightWords(pub(crate) [&'static str; 3]);

impl LightWords {
    pub(crate) fn word(&self, light: Light) -> &'static str {
        self.0[light as usize]
    }

    /// Writes `light` as its word.
    pub(crate) fn serialize<S: Serializer>(&self, light: Light, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit_variant("Light", light as u32, self.word(light))
    }

    /// Reads a light written as one of the words.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(&'static self, deserializer: D) -> Result<Light, D::Error> {
        deserializer.deserialize_enum("Light", &self.0, Words(&self.0))
    }
}

/// Reads a [`Light`] by its word, as a variant's name.
#[derive(Clone, Copy)]
struct Words(&'static [&'static str; 3]);

impl<'de> Visitor<'de> for Words {
    type Value = Light;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "one of {:?}", self.0)
    }

    fn visit_str<E: de::Error>(self, word: &str) -> Result<Light, E> {
        match self.0.iter().position(|w| *w == word) {
            Some(i) => Ok(Light::ALL[i]),
            None => Err(E::unknown_variant(word, self.0)),
        }
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Light, A::Error> {
        let (light, variant) = data.variant_seed(self)?;
        variant.unit_variant()?;
        Ok(light)
    }
}

impl<'de> DeserializeSeed<'de> for Words {
    type Value = Light;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Light, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

/// The light and weather of a session as the map rules read them; the weather
/// rules (FYOW 25–27) decide them. Light rain and light winds have no map effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionConditions {
    pub light: Light,
    #[serde(default)]
    pub heavy_rain: bool,
    #[serde(default)]
    pub snow: bool,
    #[serde(default)]
    pub high_winds: bool,
    #[serde(default)]
    pub fog: bool,
}

impl SessionConditions {
    /// A fine session in the given light.
    pub fn fine(light: Light) -> Self {
        Self { light, heavy_rain: false, snow: false, high_winds: false, fog: false }
    }

    /// A fine daylight session.
    pub fn fine_day() -> Self {
        Self::fine(Light::Daylight)
    }

    /// Heavy rain or fog, which the detection and information rules treat alike (FYOW 16, 17.1).
    pub fn rain_or_fog(&self) -> bool {
        self.heavy_rain || self.fog
    }
}

/// A session of the campaign: the day (counted from 1) and its session 1..=6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SessionStamp {
    day: u32,
    session: u8,
}

impl SessionStamp {
    pub fn new(day: u32, session: u8) -> Result<Self, MapError> {
        if day == 0 || !(1..=SESSIONS_PER_DAY).contains(&session) {
            return Err(MapError::BadSession { day, session });
        }
        Ok(Self { day, session })
    }

    pub fn day(self) -> u32 {
        self.day
    }

    pub fn session(self) -> u8 {
        self.session
    }
}

/// What is wrong with a map, a move or a request to the map rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapError {
    /// The map file could not be read (file:line:col: message).
    Parse(String),
    /// The map is readable but breaks a rule of FYOW 13; the message names the board or link.
    Invalid(String),
    UnknownBoard(String),
    UnknownForce(String),
    /// No link of that route between the two boards.
    NoSuchLink {
        from: String,
        to: String,
        route: String,
    },
    /// The move, test or action is not allowed; the message says which rule forbids it.
    NotAllowed(String),
    BadSession {
        day: u32,
        session: u8,
    },
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MapError::Parse(m) => write!(f, "campaign map unreadable: {m}"),
            MapError::Invalid(m) => write!(f, "campaign map invalid: {m}"),
            MapError::UnknownBoard(b) => write!(f, "no Map Board \"{b}\" on the campaign map"),
            MapError::UnknownForce(x) => write!(f, "no force \"{x}\" here"),
            MapError::NoSuchLink { from, to, route } => {
                write!(f, "no {route} link between Map Boards \"{from}\" and \"{to}\"")
            }
            MapError::NotAllowed(m) => write!(f, "{m}"),
            MapError::BadSession { day, session } => {
                write!(f, "day {day} session {session} is not a campaign session (days from 1, sessions 1 to 6)")
            }
        }
    }
}

impl std::error::Error for MapError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_know_their_neighbours() {
        assert!(Edge::North.is_adjacent(Edge::East));
        assert!(Edge::West.is_adjacent(Edge::North));
        assert!(!Edge::North.is_adjacent(Edge::South));
        assert!(!Edge::North.is_adjacent(Edge::North));
        assert_eq!(Edge::East.opposite(), Edge::West);
    }

    #[test]
    fn sessions_run_one_to_six() {
        assert!(SessionStamp::new(1, 6).is_ok());
        let err = SessionStamp::new(1, 7).unwrap_err();
        assert!(err.to_string().contains("session 7"), "{err}");
        assert!(SessionStamp::new(0, 1).is_err());
    }
}
