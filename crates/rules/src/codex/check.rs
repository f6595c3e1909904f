//! What a valid CODEX entry is: the limits on its values, and the rows,
//! calibres, ranges and classes that must fit together; a problem names the
//! field it is in.

use std::fmt;

use super::entry::{EntryData, calibre_band, gun_class, is_howitzer};
use super::{Armament, BOUNDS_PER_DAY, Kind, Points, ShotsPerDay};
use crate::effects::ArmourClass;
use crate::firing::{Reach, Weapon, WeaponRange};
use crate::observation::TargetClass;

/// What is wrong with a value in a CODEX entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    Empty,
    Missing,
    /// Given where the entry's kind has none.
    NotApplicable,
    OutOfRange {
        value: i64,
        min: i64,
        max: i64,
    },
    /// First year after the last.
    YearsReversed,
    /// `he` must name a howitzer row.
    NotAHowitzerRow(Weapon),
    /// Only AT gun rows take a separate HE row.
    NoHeShellOn(Weapon),
    /// The calibre does not belong to the row.
    CalibreOutsideRow {
        calibre: u16,
        min: u16,
        max: u16,
    },
    /// Ranges must run short ≤ effective ≤ long, on a row with bands.
    BadRange,
    /// A weapon has exactly one armament.
    WeaponArmament(usize),
    /// The observation class does not fit the kind (or the crew).
    ObservationClass(TargetClass),
    /// A cost written in the file that the formula does not give.
    CostDisagrees {
        written: u32,
        formula: Points,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "must not be empty"),
            Self::Missing => write!(f, "is required for this kind of entry"),
            Self::NotApplicable => write!(f, "does not apply to this kind of entry"),
            Self::OutOfRange { value, min, max } => write!(f, "{value} is outside {min}..={max}"),
            Self::YearsReversed => write!(f, "the first year in service is after the last"),
            Self::NotAHowitzerRow(w) => write!(f, "{} is not a howitzer row", w.row().name),
            Self::NoHeShellOn(w) => write!(f, "{} takes no separate HE row (only AT guns do)", w.row().name),
            Self::CalibreOutsideRow { calibre, min, max } => {
                write!(f, "{calibre}mm is outside this row's {min}..={max}mm")
            }
            Self::BadRange => write!(f, "ranges must run short <= effective <= long on a row with range bands"),
            Self::WeaponArmament(n) => write!(f, "a weapon has exactly one armament, not {n}"),
            Self::ObservationClass(c) => {
                write!(f, "observation class {c:?} does not fit this entry")
            }
            Self::CostDisagrees { written, formula } => {
                write!(f, "cost {written} disagrees with the formula's {formula}")
            }
        }
    }
}

/// Limits on values, with the passage each comes from.
mod limits {
    /// The war: 1939–45.
    pub const YEARS: (i64, i64) = (1939, 1945);
    /// The largest capacity in the Loads chapter: "LCT - 4 180".
    pub const CAPACITY: (i64, i64) = (1, 180);
    /// The largest load space in the Loads chapter: heavy tanks and AVRE, 60.
    pub const LOAD_SPACE: (i64, i64) = (0, 60);
    /// A crew of figures (a Katyusha's rails need 1, a heavy howitzer 10).
    pub const CREW: (i64, i64) = (0, 12);
    /// Weapons of one kind on one entry (a Calliope has 60 tubes).
    pub const COUNT: (i64, i64) = (1, 60);
    pub const CALIBRE: (i64, i64) = (5, 800);
}

fn out_of_range(value: impl Into<i64>, (min, max): (i64, i64)) -> Option<Problem> {
    let value = value.into();
    (!(min..=max).contains(&value)).then_some(Problem::OutOfRange { value, min, max })
}

fn check_armament(a: &Armament) -> Result<(), (&'static str, Problem)> {
    if let Some(p) = out_of_range(a.count, limits::COUNT) {
        return Err(("count", p));
    }
    if let Some(he) = a.he {
        if !is_howitzer(he) {
            return Err(("he", Problem::NotAHowitzerRow(he)));
        }
        if gun_class(a.row).is_none() {
            return Err(("he", Problem::NoHeShellOn(a.row)));
        }
    }
    if let Some(c) = a.calibre {
        if let Some(p) = out_of_range(c, limits::CALIBRE) {
            return Err(("calibre", p));
        }
        for row in [Some(a.row), a.he].into_iter().flatten() {
            if let Some((min, max)) = calibre_band(row)
                && !(min..=max).contains(&c)
            {
                return Err(("calibre", Problem::CalibreOutsideRow { calibre: c, min, max }));
            }
        }
    }
    if let Some(range) = a.range {
        let fits = match (a.row.row().range, range) {
            (WeaponRange::Bands { .. }, WeaponRange::Bands { short, effective, long }) => {
                short.is_none_or(|s| s <= effective)
                    && long.is_none_or(|l| match l {
                        Reach::Inches(l) => effective <= l,
                        Reach::Table => true,
                    })
            }
            _ => false,
        };
        if !fits {
            return Err(("range", Problem::BadRange));
        }
    }
    if let Some(ShotsPerDay::Bounds(n)) = a.shots_per_day
        && let Some(p) = out_of_range(n, (1, i64::from(BOUNDS_PER_DAY)))
    {
        return Err(("shots_per_day", p));
    }
    Ok(())
}

fn is_vehicle_class(c: TargetClass) -> bool {
    use TargetClass as T;
    matches!(
        c,
        T::Tankette
            | T::Jeep
            | T::Motorcycle
            | T::LightReconnaissanceCar
            | T::Tank
            | T::ArmouredCar
            | T::HalfTrack
            | T::Truck
            | T::LandingCraft
    )
}

/// Checks one entry; the error names the field.
pub(super) fn check(e: &EntryData) -> Result<(), (String, Problem)> {
    let field = |f: &str, p: Problem| Err((f.to_owned(), p));
    if e.id.trim().is_empty() {
        return field("id", Problem::Empty);
    }
    if e.name.trim().is_empty() {
        return field("name", Problem::Empty);
    }
    for year in [e.service.0, e.service.1] {
        if let Some(p) = out_of_range(year, limits::YEARS) {
            return field("service", p);
        }
    }
    if e.service.0 > e.service.1 {
        return field("service", Problem::YearsReversed);
    }
    if let Some(p) = out_of_range(e.crew, limits::CREW) {
        return field("crew", p);
    }
    for (i, a) in e.armament.iter().enumerate() {
        check_armament(a).map_err(|(f, p)| (format!("armament[{i}].{f}"), p))?;
    }
    match e.kind {
        Kind::Weapon => {
            if e.armament.len() != 1 {
                return field("armament", Problem::WeaponArmament(e.armament.len()));
            }
            if e.armour.is_some() {
                return field("armour", Problem::NotApplicable);
            }
            let crewed = e.armament[0].row.row().crewed;
            let fits = match e.observation {
                TargetClass::Csw { crew } => crewed && crew == e.crew,
                TargetClass::Figure => !crewed,
                _ => false,
            };
            if !fits {
                return field("observation", Problem::ObservationClass(e.observation));
            }
            if e.crew == 0 {
                return field("crew", Problem::OutOfRange { value: 0, min: 1, max: limits::CREW.1 });
            }
        }
        Kind::Vehicle => {
            if e.armour.is_none() {
                return field("armour", Problem::Missing);
            }
            if !is_vehicle_class(e.observation) {
                return field("observation", Problem::ObservationClass(e.observation));
            }
        }
        Kind::Aircraft => {
            if e.armour.is_some() {
                return field("armour", Problem::NotApplicable);
            }
            if e.observation != TargetClass::GroundedAircraft {
                return field("observation", Problem::ObservationClass(e.observation));
            }
            if e.movement.is_some() {
                return field("movement", Problem::NotApplicable);
            }
            if e.load_space.is_some() {
                return field("load_space", Problem::NotApplicable);
            }
        }
    }
    if e.open_topped && e.armour.is_none_or(|a| a == ArmourClass::SoftSkinned) {
        return field("open_topped", Problem::NotApplicable);
    }
    // *Heroes All*, "Petard type mortars": "These heavy mortars are normally
    // fitted to AFV's."
    if e.petard && (e.kind != Kind::Vehicle || e.armour.is_none_or(|a| a == ArmourClass::SoftSkinned)) {
        return field("petard", Problem::NotApplicable);
    }
    // *Heroes All*, "Bridge-laying or fascine-laying tanks".
    if e.lays_bridge && (e.kind != Kind::Vehicle || e.armour.is_none_or(|a| a == ArmourClass::SoftSkinned)) {
        return field("lays_bridge", Problem::NotApplicable);
    }
    // Flying data belongs to aircraft, under the entry's own name.
    if let Some(air) = &e.air
        && (e.kind != Kind::Aircraft || air.name != e.name)
    {
        return field("air", Problem::NotApplicable);
    }
    if e.kind != Kind::Aircraft {
        let Some(class) = e.movement else {
            return field("movement", Problem::Missing);
        };
        if e.drive.is_some() && class.default_drive().is_none() {
            return field("drive", Problem::NotApplicable);
        }
        match e.load_space {
            None => return field("load_space", Problem::Missing),
            Some(l) => {
                if let Some(p) = out_of_range(l, limits::LOAD_SPACE) {
                    return field("load_space", p);
                }
            }
        }
    }
    if let Some(c) = e.capacity
        && let Some(p) = out_of_range(c, limits::CAPACITY)
    {
        return field("capacity", p);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codex::testing::{GOOD, invalid, load_one, pts};

    #[test]
    fn out_of_range_values_name_the_field_and_its_line() {
        let (line, field, problem) = invalid(&GOOD.replace("(1940, 1944)", "(1938, 1944)"));
        assert_eq!(
            (line, field.as_str(), problem),
            (Some(9), "service", Problem::OutOfRange { value: 1938, min: 1939, max: 1945 })
        );
        let (_, field, problem) = invalid(&GOOD.replace("(1940, 1944)", "(1944, 1940)"));
        assert_eq!((field.as_str(), problem), ("service", Problem::YearsReversed));
        let (line, field, problem) = invalid(&GOOD.replace("load_space: 6", "load_space: 99"));
        assert_eq!(
            (line, field.as_str(), problem),
            (Some(14), "load_space", Problem::OutOfRange { value: 99, min: 0, max: 60 })
        );
        let (line, field, _) = invalid(&GOOD.replace("calibre: 40)", "calibre: 40, count: 0)"));
        assert_eq!((line, field.as_str()), (Some(11), "armament[0].count"));
        let (_, field, problem) = invalid(&GOOD.replace("calibre: 40)", "calibre: 40, shots_per_day: bounds(30))"));
        assert_eq!(
            (field.as_str(), problem),
            ("armament[0].shots_per_day", Problem::OutOfRange { value: 30, min: 1, max: 24 })
        );
        let (line, field, problem) =
            invalid(&GOOD.replace("movement: HandMovedGun,", "movement: HandMovedGun, drive: Tracked,"));
        assert_eq!((line, field.as_str(), problem), (Some(13), "drive", Problem::NotApplicable));
        let (_, field, problem) = invalid(&GOOD.replace("movement: HandMovedGun,", ""));
        assert_eq!((field.as_str(), problem), ("movement", Problem::Missing));
        let (_, field, _) = invalid(&GOOD.replace("name: \"Test gun\"", "name: \" \""));
        assert_eq!(field, "name");
    }

    #[test]
    fn flying_data_is_an_aircrafts_own() {
        let air = r#"air: (name: "Bofors 40mm", role: fighter, speed: fast, strength: 3),"#;
        let (_, field, problem) = invalid(&GOOD.replace("load_space: 6,", &format!("load_space: 6, {air}")));
        assert_eq!((field.as_str(), problem), ("air", Problem::NotApplicable));
    }

    #[test]
    fn a_petard_is_fitted_to_afvs_only() {
        let (_, field, problem) = invalid(&GOOD.replace("load_space: 6,", "load_space: 6, petard: true,"));
        assert_eq!((field.as_str(), problem), ("petard", Problem::NotApplicable));
        let avre = crate::codex::testing::entry("gb_churchill_avre");
        assert!(avre.petard && avre.armour == Some(ArmourClass::Heavy) && avre.in_service(1944));
    }

    #[test]
    fn classes_that_do_not_fit_are_rejected() {
        let he = |s: &str| GOOD.replace("calibre: 40)", s);
        let (_, field, problem) = invalid(&he("calibre: 40, he: mmg)"));
        assert_eq!((field.as_str(), problem), ("armament[0].he", Problem::NotAHowitzerRow(Weapon::Mmg)));
        let (_, _, problem) = invalid(&GOOD.replace("at_gun_class2, calibre: 40", "howitzer75, he: howitzer50"));
        assert_eq!(problem, Problem::NoHeShellOn(Weapon::Howitzer75));
        let (_, field, problem) = invalid(&he("calibre: 40, he: howitzer104)"));
        assert_eq!(
            (field.as_str(), problem),
            ("armament[0].calibre", Problem::CalibreOutsideRow { calibre: 40, min: 76, max: 104 })
        );
        let (_, field, problem) = invalid(&he("calibre: 40, range: bands(short: 30, effective: 20, long: table))"));
        assert_eq!((field.as_str(), problem), ("armament[0].range", Problem::BadRange));
        let (line, field, _) = invalid(&GOOD.replace("csw(crew: 4)", "csw(crew: 3)"));
        assert_eq!((line, field.as_str()), (Some(12), "observation"));
        let (_, field, problem) = invalid(&GOOD.replace("load_space: 6,", "load_space: 6, armour: light,"));
        assert_eq!((field.as_str(), problem), ("armour", Problem::NotApplicable));
        let (_, field, problem) = invalid(&GOOD.replace("kind: weapon", "kind: vehicle"));
        assert_eq!((field.as_str(), problem), ("armour", Problem::Missing));
        let lorry = GOOD
            .replace("kind: weapon", "kind: vehicle")
            .replace("csw(crew: 4)", "truck")
            .replace("load_space: 6,", "load_space: 20, armour: soft_skinned, open_topped: true,");
        let (_, field, _) = invalid(&lorry);
        assert_eq!(field, "open_topped");
        let (line, field, problem) = invalid(&GOOD.replace("load_space: 6,", "load_space: 6, cost: 12,"));
        assert_eq!(
            (line, field.as_str(), problem),
            (Some(14), "cost", Problem::CostDisagrees { written: 12, formula: pts(10) })
        );
        assert!(load_one(&GOOD.replace("load_space: 6,", "load_space: 6, cost: 10,")).is_ok());
    }
}
