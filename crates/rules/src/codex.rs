//! The CODEX of named weapons, vehicles and aircraft that *Heroes All* refers
//! to but does not print ("The Heroes All Weapons Codex gives values for guns,
//! vehicles and other weapons"). It is authored from public WW2 facts in
//! `assets/codex/*.ron`, one file per nation, and mapped onto the classes the
//! rules define: the Weapons table rows ([`Weapon`]), AT classes 1–5, HE
//! columns, armour classes, observation target classes, movement table rows,
//! load space and carriage capacity (the Loads chapter), shots per day (the
//! logistics chapter). Points costs come from one formula ([`Armament::cost`],
//! [`CodexEntry::cost`], [`FigureGrade::cost`]); `docs/codex.md` documents the
//! format, the mapping and the formula's anchors.

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::data::{DataError, from_ron, locate};
use crate::effects::{ArmourClass, HeColumn};
use crate::firing::{Reach, Shots, Weapon, WeaponRange};
use crate::movement::{Drive, MoveClass};
use crate::observation::TargetClass;
use crate::opc::Nation;

/// A points cost, kept in half points: a Regular figure costs 1½
/// (*Heroes All*, "Cost of infantry").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
pub struct Points(u32);

crate::halves::impl_halves!(Points);

impl Points {
    /// *Fight Your Own Wars* 33.2: "Divide this total by 10 to calculate the
    /// Combat Value ... Ignore any fraction or decimal."
    pub const fn combat_value(self) -> u32 {
        self.0 / 20
    }
}

/// A figure's grade as *Heroes All* "Cost of infantry" prices it. Crews of
/// guns and vehicles are figures too and are costed here, not in the CODEX
/// entry of what they crew.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FigureGrade {
    /// Poor, green or militia.
    Poor,
    PoorEnhanced,
    Regular,
    /// Parachutists, gunners of artillery over 75mm, engineers, FOO, recce.
    RegularEnhanced,
    /// Elite or veteran.
    Elite,
    /// Snipers are costed here.
    EliteEnhanced,
    SpecialCharacter,
}

impl FigureGrade {
    /// *Heroes All*, "Cost of infantry": 1, 2, 1½, 3, 2, 4 and 8 points.
    pub const fn cost(self) -> Points {
        Points(match self {
            Self::Poor => 2,
            Self::PoorEnhanced => 4,
            Self::Regular => 3,
            Self::RegularEnhanced => 6,
            Self::Elite => 4,
            Self::EliteEnhanced => 8,
            Self::SpecialCharacter => 16,
        })
    }
}

/// The periods *Fight Your Own Wars* 2.1 sets battlegroup limits for.
///
/// Reading: the books give no years; early war is 1939–41 (until the US
/// enters and the second generation of tanks arrives), mid-war 1942–43,
/// late war 1944–45 (docs/rules-readings.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Era {
    Early,
    Mid,
    Late,
}

impl Era {
    /// The era of a year of the war, `None` outside 1939–45.
    pub const fn of_year(year: u16) -> Option<Self> {
        match year {
            1939..=1941 => Some(Self::Early),
            1942..=1943 => Some(Self::Mid),
            1944..=1945 => Some(Self::Late),
            _ => None,
        }
    }

    /// *Fight Your Own Wars* 2.1: "The recommended maximum points value
    /// ("cost") of a Battlegroup is 1200 points (early war), 1500 points
    /// (mid-war) and 1800 (late war)."
    pub const fn battlegroup_limit(self) -> Points {
        Points::whole(match self {
            Self::Early => 1200,
            Self::Mid => 1500,
            Self::Late => 1800,
        })
    }
}

/// What an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A weapon carried or served by figures: one armament, no armour.
    Weapon,
    /// A vehicle with an armour class (soft-skinned included).
    Vehicle,
    /// A transport aircraft or glider: carriage capacity, no armour class.
    Aircraft,
}

/// How many bounds a day a weapon may fire ("the number of 'shots' allowed
/// per weapon per day indicates the total number of bounds on which that
/// weapon may shoot").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShotsPerDay {
    Unlimited,
    Bounds(u8),
    /// Grenades: "1 use of grenades per day per 3 men of a platoon".
    PerThreeMen,
}

/// A wargame day: "A wargame day lasts for 24 bounds."
pub const BOUNDS_PER_DAY: u8 = 24;

impl ShotsPerDay {
    /// *Heroes All*, "Normal restrictions on ammunition", by Weapons table row.
    ///
    /// Readings (docs/rules-readings.md): the auto rifle is an infantry small
    /// arm with unlimited supply like the rifle; the PzFaust, missing from the
    /// list, is a one-shot weapon (1); vehicle flamethrowers take the
    /// flamethrowers' 3; autocannon take "10 bounds of AA fire". The AT and HE
    /// guns the chapter leaves to the CODEX ("see CODEX for different ...
    /// calibres") get fewer bounds as the round grows, as tanks stowed fewer of
    /// them: AT classes 1–2 10, class 3 8, class 4 6, class 5 5; howitzers up
    /// to 50mm 10, 51–75mm 8, 76–104mm 6, 105–149mm 5, 150mm and over 4.
    pub const fn for_row(row: Weapon) -> Self {
        use Weapon as W;
        match row {
            W::Rifle | W::Pistol | W::Smg | W::AutoRifle | W::Atr => Self::Unlimited,
            W::AtGrenades | W::HandGrenades => Self::PerThreeMen,
            W::PzFaust => Self::Bounds(1),
            W::RifleGrenadeLauncher | W::ManpackFlamethrower | W::VehicleFlamethrower | W::Rockets => Self::Bounds(3),
            W::Piat | W::Bazooka | W::PzSchreck => Self::Bounds(5),
            W::Hmg | W::HeavyMortar => Self::Bounds(6),
            W::TankMg | W::Mmg | W::MediumMortar => Self::Bounds(8),
            W::Lmg | W::LightMortar | W::AutocannonLight | W::AutocannonHeavy => Self::Bounds(10),
            W::AtGunClass1 | W::AtGunClass2 | W::Howitzer50 => Self::Bounds(10),
            W::AtGunClass3 | W::Howitzer75 => Self::Bounds(8),
            W::AtGunClass4 | W::Howitzer104 => Self::Bounds(6),
            W::AtGunClass5 | W::Howitzer149 => Self::Bounds(5),
            W::Howitzer150Plus => Self::Bounds(4),
        }
    }
}

/// One weapon of an entry: the Weapons table row it fires on, how many, and
/// what the CODEX adds to the row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armament {
    /// The Weapons table row (an AT gun's row is its AT class).
    pub row: Weapon,
    /// How many; for rockets, the barrels ("1 per barrel").
    #[serde(default = "one")]
    pub count: u8,
    /// An AT gun's HE shell: the howitzer row of its calibre, whose HE column
    /// and ranges it fires HE with ("a 2pdr gun (AT class 2 and no HE)" has none).
    #[serde(default)]
    pub he: Option<Weapon>,
    /// Bore in millimetres, where the row depends on it.
    #[serde(default)]
    pub calibre: Option<u16>,
    /// A named gun's own ranges where the books give them (the 4.5in gun's
    /// short range of 45 inches); otherwise the row's.
    #[serde(default)]
    pub range: Option<WeaponRange>,
    /// Bounds of fire a day where the CODEX differs from [`ShotsPerDay::for_row`].
    #[serde(default)]
    pub shots_per_day: Option<ShotsPerDay>,
}

fn one() -> u8 {
    1
}

/// Rows a figure carries as personal kit, "not counted as a load" (Loads
/// chapter: "his own personal weapon, any grenades"): the figure's grade
/// cost already pays for them.
const fn is_personal_kit(row: Weapon) -> bool {
    matches!(row, Weapon::AtGrenades | Weapon::HandGrenades)
}

const fn is_howitzer(row: Weapon) -> bool {
    matches!(
        row,
        Weapon::Howitzer50 | Weapon::Howitzer75 | Weapon::Howitzer104 | Weapon::Howitzer149 | Weapon::Howitzer150Plus
    )
}

/// The AT class of an AT gun row.
const fn gun_class(row: Weapon) -> Option<u8> {
    match row {
        Weapon::AtGunClass1 => Some(1),
        Weapon::AtGunClass2 => Some(2),
        Weapon::AtGunClass3 => Some(3),
        Weapon::AtGunClass4 => Some(4),
        Weapon::AtGunClass5 => Some(5),
        _ => None,
    }
}

/// The calibres (mm) a row's name covers, where it names them: the howitzer
/// rows by the Weapons table, the autocannon at 20mm, and the mortars by
/// size. Reading: the Loads chapter's "up to 50mm / up to 81mm / over 81mm"
/// mortars are the light, medium and heavy rows, with the US 60mm a light
/// mortar and the Soviet 82mm the medium one (docs/rules-readings.md).
const fn calibre_band(row: Weapon) -> Option<(u16, u16)> {
    match row {
        Weapon::Howitzer50 => Some((1, 50)),
        Weapon::Howitzer75 => Some((51, 75)),
        Weapon::Howitzer104 => Some((76, 104)),
        Weapon::Howitzer149 => Some((105, 149)),
        Weapon::Howitzer150Plus => Some((150, 999)),
        Weapon::AutocannonLight => Some((1, 20)),
        Weapon::AutocannonHeavy => Some((21, 999)),
        Weapon::LightMortar => Some((1, 60)),
        Weapon::MediumMortar => Some((61, 82)),
        Weapon::HeavyMortar => Some((83, 999)),
        _ => None,
    }
}

/// Steps of the HE column, A = 1 … F = 6; grenades' G1/G2 are personal kit (0).
const fn he_steps(column: HeColumn) -> u32 {
    match column {
        HeColumn::A => 1,
        HeColumn::B => 2,
        HeColumn::C => 3,
        HeColumn::D => 4,
        HeColumn::E => 5,
        HeColumn::F => 6,
        HeColumn::G1 | HeColumn::G2 => 0,
    }
}

/// Points per step of the formula (docs/codex.md): a machine gun, each HE
/// column step, each AT class and each armour class above soft-skinned.
/// Each AT class adds 3 to the Attack Value and each armour class 3 to the
/// Defence Values, so a class of gun and a class of armour cost the same.
pub const POINTS_PER_STEP: u32 = 5;

impl Armament {
    /// The AT class of the row, for the AT gun rows (1–5).
    pub const fn at_class(&self) -> Option<u8> {
        gun_class(self.row)
    }

    /// The row HE is fired on: the gun's HE shell row, or the row itself
    /// where it has an HE effect.
    pub fn he_row(&self) -> Option<Weapon> {
        self.he.or_else(|| self.row.row().he.map(|_| self.row))
    }

    /// HE Effects column; hand grenades thrown by Italians use G2 (the
    /// Weapons table: "G2 for Italians").
    pub fn he_column(&self, nation: &Nation) -> Option<HeColumn> {
        let column = self.he_row().and_then(|r| r.row().he)?;
        Some(if column == HeColumn::G1 && *nation == Nation::Italian { HeColumn::G2 } else { column })
    }

    /// The ranges it fires AT or small arms at.
    pub fn range(&self) -> WeaponRange {
        self.range.unwrap_or(self.row.row().range)
    }

    pub fn shots_per_day(&self) -> ShotsPerDay {
        self.shots_per_day.unwrap_or(ShotsPerDay::for_row(self.row))
    }

    /// An artillery piece over 75mm: a gun or rocket row of a larger calibre,
    /// or HE on the 76–104mm row or above.
    fn needs_gunners(&self) -> bool {
        let big_he = matches!(self.he_row(), Some(Weapon::Howitzer104 | Weapon::Howitzer149 | Weapon::Howitzer150Plus));
        let gun = gun_class(self.row).is_some() || is_howitzer(self.row) || self.row == Weapon::Rockets;
        big_he || (gun && self.calibre.is_some_and(|c| c > 75))
    }

    /// The points formula for one weapon, times `count` (docs/codex.md):
    /// 5 × (machine gun + HE column steps + AT class), where a machine gun is
    /// a row of 3 or more shots a bound (LMG, Tank MG, MMG, HMG), the HE
    /// column counts A = 1 … F = 6, and the AT class is the highest class
    /// whose effective Attack Value (3 × class + 2) the row reaches. Grenades
    /// are personal kit and cost nothing beyond the figure.
    pub fn cost(&self) -> Points {
        if is_personal_kit(self.row) {
            return Points::ZERO;
        }
        let row = self.row.row();
        let mg = u32::from(matches!(row.shots, Shots::PerBound(n) if n >= 3));
        let he = self.he_row().and_then(|r| r.row().he).map_or(0, he_steps);
        let at = row.attack[1].map_or(0, |av| u32::try_from((av - 2).max(0) / 3).unwrap_or(0));
        Points::whole(POINTS_PER_STEP * (mg + he + at)) * u32::from(self.count)
    }
}

/// One named weapon, vehicle or aircraft.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CodexEntry {
    pub id: String,
    pub name: String,
    /// From the file: British (and Commonwealth), American, German, Italian, Russian.
    pub nation: Nation,
    pub kind: Kind,
    /// First and last years in service, within 1939–45.
    pub service: (u16, u16),
    /// Figures that serve it (a personal weapon: 1; a remote-controlled Goliath: 0).
    pub crew: u8,
    /// Main armament first.
    pub armament: Vec<Armament>,
    /// Vehicles only.
    pub armour: Option<ArmourClass>,
    /// What it counts as when observed.
    pub observation: TargetClass,
    /// Open-topped or open-platform armour (the HE rules treat it apart).
    pub open_topped: bool,
    /// What it moves as: its rows of the Movement Table ([`MoveClass`]);
    /// aircraft have none.
    pub movement: Option<MoveClass>,
    /// How it is driven where that differs from its class's
    /// ([`MoveClass::default_drive`]): a jeep is all-wheel drive, a Bren
    /// Carrier tracked.
    pub drive: Option<Drive>,
    /// Carriage capacity in loads (Loads chapter), where it carries any.
    pub capacity: Option<u8>,
    /// Loads it occupies when transported (0: a figure's personal kit);
    /// aircraft have none.
    pub load_space: Option<u8>,
}

impl CodexEntry {
    /// The formula's cost (docs/codex.md): its weapons ([`Armament::cost`])
    /// plus 5 per armour class above soft-skinned (Flimsy 1 … Formidable 5).
    /// A soft-skinned vehicle is free but its weapons are charged (*Fight Your
    /// Own Wars* 2.1); crews are figures, costed by [`FigureGrade`].
    pub fn cost(&self) -> Points {
        let armour = self.armour.map_or(0, |a| a as u32);
        self.armament.iter().map(Armament::cost).sum::<Points>() + Points::whole(POINTS_PER_STEP * armour)
    }

    /// The grade its crew are costed at, from the grade of the troops.
    ///
    /// *Heroes All*, "Cost of infantry": the basic grades "man Crew Served
    /// Weapons and artillery pieces up to and including 75mm"; Enhanced
    /// troops "man artillery pieces as a gunner" ("Gunnery who are poor
    /// troops" for Poor). Reading: a gun over 75mm, towed or in an AFV, needs
    /// Enhanced gunners; everything else is crewed at the troops' own grade
    /// (docs/rules-readings.md).
    pub fn crew_grade(&self, troops: FigureGrade) -> FigureGrade {
        if !self.armament.iter().any(Armament::needs_gunners) {
            return troops;
        }
        match troops {
            FigureGrade::Poor => FigureGrade::PoorEnhanced,
            FigureGrade::Regular => FigureGrade::RegularEnhanced,
            FigureGrade::Elite => FigureGrade::EliteEnhanced,
            other => other,
        }
    }

    /// The best AT class among its weapons.
    pub fn at_class(&self) -> Option<u8> {
        self.armament.iter().filter_map(Armament::at_class).max()
    }

    /// The HE column of its main HE weapon (the first that fires HE).
    pub fn he_column(&self) -> Option<HeColumn> {
        self.armament.iter().find_map(|a| a.he_column(&self.nation))
    }

    /// How it is driven: its own drive, or its movement class's.
    pub fn drive(&self) -> Option<Drive> {
        self.drive.or_else(|| self.movement.and_then(MoveClass::default_drive))
    }

    pub fn in_service(&self, year: u16) -> bool {
        (self.service.0..=self.service.1).contains(&year)
    }
}

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

/// Why the CODEX could not be loaded, or an id could not be found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodexError {
    /// The RON itself is malformed (unknown field, unknown class, bad syntax).
    Malformed(DataError),
    /// A value is wrong: the file, the line and column of the field where it
    /// can be found, the entry and the field.
    Invalid {
        file: String,
        position: (usize, usize),
        id: String,
        field: String,
        problem: Problem,
    },
    /// The same id twice; `first` is the file that has it first.
    DuplicateId {
        id: String,
        file: String,
        position: (usize, usize),
        first: String,
    },
    UnknownId(String),
}

impl fmt::Display for CodexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownId(id) => write!(f, "unknown codex id \"{id}\""),
            _ => write!(f, "{}", DataError::from(self.clone())),
        }
    }
}

/// A CODEX file's error as every data file's: `file:line:col: field: problem`.
impl From<CodexError> for DataError {
    fn from(e: CodexError) -> Self {
        match e {
            CodexError::Malformed(e) => e,
            CodexError::Invalid { file, position, id, field, problem } => {
                DataError { file, position: Some(position), message: format!("{field}: {problem} (entry \"{id}\")") }
            }
            CodexError::DuplicateId { id, file, position, first } => DataError {
                file,
                position: Some(position),
                message: format!("id: \"{id}\" is already used in {first}"),
            },
            CodexError::UnknownId(id) => DataError::new("the CODEX", format!("unknown codex id \"{id}\"")),
        }
    }
}

impl std::error::Error for CodexError {}

/// A CODEX file as written: the nation, then its entries.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CodexFile {
    nation: Nation,
    entries: Vec<EntryData>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryData {
    id: String,
    name: String,
    kind: Kind,
    service: (u16, u16),
    crew: u8,
    #[serde(default)]
    armament: Vec<Armament>,
    #[serde(default)]
    armour: Option<ArmourClass>,
    observation: TargetClass,
    #[serde(default)]
    open_topped: bool,
    #[serde(default)]
    movement: Option<MoveClass>,
    #[serde(default)]
    drive: Option<Drive>,
    #[serde(default)]
    capacity: Option<u8>,
    #[serde(default)]
    load_space: Option<u8>,
    /// Optional: checked against the formula.
    #[serde(default)]
    cost: Option<u32>,
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
fn check(e: &EntryData) -> Result<(), (String, Problem)> {
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

/// Where the field `field` ("armour", "armament[1].he") of the `index`-th
/// entry, whose id is `id`, is written in `text`; an entry that leaves the
/// field out is placed at its id.
fn field_position(text: &str, index: usize, id: &str, field: &str) -> (usize, usize) {
    locate(text, &format!("entries[{index}].{field}"), Some(id))
}

/// The loaded CODEX: every nation's entries, looked up by id.
#[derive(Debug, Clone, PartialEq)]
pub struct Codex {
    entries: Vec<CodexEntry>,
    by_id: HashMap<String, (usize, String)>,
}

impl Codex {
    /// Loads CODEX files given as (file name, RON text); ids are unique across
    /// all of them.
    pub fn load(files: &[(&str, &str)]) -> Result<Self, CodexError> {
        let mut codex = Self { entries: Vec::new(), by_id: HashMap::new() };
        for &(file, text) in files {
            let data: CodexFile = from_ron(file, text).map_err(CodexError::Malformed)?;
            for (index, e) in data.entries.into_iter().enumerate() {
                if let Err((field, problem)) = check(&e) {
                    let position = field_position(text, index, &e.id, &field);
                    return Err(CodexError::Invalid { file: file.into(), position, id: e.id, field, problem });
                }
                let entry = CodexEntry {
                    id: e.id,
                    name: e.name,
                    nation: data.nation.clone(),
                    kind: e.kind,
                    service: e.service,
                    crew: e.crew,
                    armament: e.armament,
                    armour: e.armour,
                    observation: e.observation,
                    open_topped: e.open_topped,
                    movement: e.movement,
                    drive: e.drive,
                    capacity: e.capacity,
                    load_space: e.load_space,
                };
                if let Some(written) = e.cost
                    && Points::whole(written) != entry.cost()
                {
                    let position = field_position(text, index, &entry.id, "cost");
                    let problem = Problem::CostDisagrees { written, formula: entry.cost() };
                    return Err(CodexError::Invalid {
                        file: file.into(),
                        position,
                        id: entry.id,
                        field: "cost".into(),
                        problem,
                    });
                }
                if let Some((_, first)) = codex.by_id.get(&entry.id) {
                    return Err(CodexError::DuplicateId {
                        position: field_position(text, index, &entry.id, "id"),
                        id: entry.id,
                        file: file.into(),
                        first: first.clone(),
                    });
                }
                codex.by_id.insert(entry.id.clone(), (codex.entries.len(), file.to_owned()));
                codex.entries.push(entry);
            }
        }
        Ok(codex)
    }

    pub fn get(&self, id: &str) -> Result<&CodexEntry, CodexError> {
        self.by_id.get(id).map(|(i, _)| &self.entries[*i]).ok_or_else(|| CodexError::UnknownId(id.to_owned()))
    }

    /// Every entry, in file order.
    pub fn entries(&self) -> &[CodexEntry] {
        &self.entries
    }

    /// The cost of a force: its figures by grade (crews included) and its
    /// equipment by id and number.
    pub fn force_cost(&self, figures: &[(FigureGrade, u32)], equipment: &[(&str, u32)]) -> Result<Points, CodexError> {
        let men: Points = figures.iter().map(|&(grade, n)| grade.cost() * n).sum();
        let mut kit = Points::ZERO;
        for &(id, n) in equipment {
            kit += self.get(id)?.cost() * n;
        }
        Ok(men + kit)
    }
}

/// The CODEX files as shipped, for the crate's tests (the game embeds the
/// same files through its build script).
#[cfg(test)]
const TEST_FILES: [(&str, &str); 5] = [
    ("assets/codex/british.ron", include_str!("../../../assets/codex/british.ron")),
    ("assets/codex/us.ron", include_str!("../../../assets/codex/us.ron")),
    ("assets/codex/german.ron", include_str!("../../../assets/codex/german.ron")),
    ("assets/codex/italian.ron", include_str!("../../../assets/codex/italian.ron")),
    ("assets/codex/soviet.ron", include_str!("../../../assets/codex/soviet.ron")),
];

/// The shipped CODEX, loaded, for the crate's tests.
#[cfg(test)]
pub(crate) fn test_codex() -> Codex {
    Codex::load(&TEST_FILES).unwrap_or_else(|e| panic!("{e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effects::{AtResult, Facing, at_result};
    use crate::firing::{Band, WEAPONS};

    use super::test_codex as codex;

    fn entry(id: &str) -> CodexEntry {
        codex().get(id).unwrap().clone()
    }

    fn pts(n: u32) -> Points {
        Points::whole(n)
    }

    /// One entry in a file of its own, for the error tests.
    fn one_file(entry: &str) -> String {
        format!("#![enable(implicit_some)]\n(\n    nation: British,\n    entries: [\n{entry}\n    ],\n)\n")
    }

    const GOOD: &str = r#"        (
            id: "x_gun",
            name: "Test gun",
            kind: weapon,
            service: (1940, 1944),
            crew: 4,
            armament: [(row: at_gun_class2, calibre: 40)],
            observation: csw(crew: 4),
            movement: HandMovedGun,
            load_space: 6,
        ),"#;

    fn load_one(entry: &str) -> Result<Codex, CodexError> {
        let text = one_file(entry);
        Codex::load(&[("test.ron", &text)])
    }

    fn invalid(entry: &str) -> (Option<usize>, String, Problem) {
        match load_one(entry) {
            Err(CodexError::Invalid { file, position, field, problem, .. }) => {
                assert_eq!(file, "test.ron");
                (Some(position.0), field, problem)
            }
            other => panic!("expected an invalid entry, got {other:?}"),
        }
    }

    #[test]
    fn the_five_nations_load_with_sixty_entries_or_more() {
        let c = codex();
        assert!(c.entries().len() >= 60, "{} entries", c.entries().len());
        for (nation, prefix) in [
            (Nation::British, "gb_"),
            (Nation::American, "us_"),
            (Nation::German, "de_"),
            (Nation::Italian, "it_"),
            (Nation::Russian, "su_"),
        ] {
            let of = c.entries().iter().filter(|e| e.nation == nation).collect::<Vec<_>>();
            assert!(of.len() >= 10, "{nation:?}: {}", of.len());
            assert!(of.iter().all(|e| e.id.starts_with(prefix)), "{nation:?} ids start {prefix}");
        }
        for e in c.entries() {
            assert!(e.service.0 >= 1939 && e.service.1 <= 1945 && e.in_service(e.service.0), "{}", e.id);
            assert_eq!(c.get(&e.id).unwrap(), e);
        }
    }

    #[test]
    fn every_weapons_table_row_is_used() {
        let c = codex();
        let used = |w: Weapon| c.entries().iter().any(|e| e.armament.iter().any(|a| a.row == w || a.he == Some(w)));
        let missing: Vec<_> = WEAPONS.iter().filter(|r| !used(r.weapon)).map(|r| r.name).collect();
        assert!(missing.is_empty(), "rows with no CODEX entry: {missing:?}");
        // And as a row of its own, not only as an HE shell, for every row but the smallest howitzer.
        let own = |w: Weapon| c.entries().iter().any(|e| e.armament.iter().any(|a| a.row == w));
        assert!(WEAPONS.iter().filter(|r| r.weapon != Weapon::Howitzer50).all(|r| own(r.weapon)));
    }

    #[test]
    fn every_armour_class_is_used() {
        let c = codex();
        for class in [
            ArmourClass::SoftSkinned,
            ArmourClass::Flimsy,
            ArmourClass::Light,
            ArmourClass::Medium,
            ArmourClass::Heavy,
            ArmourClass::Formidable,
        ] {
            assert!(c.entries().iter().any(|e| e.armour == Some(class)), "{class:?} unused");
        }
        for e in c.entries() {
            assert_eq!(e.armour.is_some(), e.kind == Kind::Vehicle, "{}", e.id);
        }
    }

    #[test]
    fn cost_of_infantry_by_grade() {
        // Heroes All, "Cost of infantry".
        let cost = |g: FigureGrade| g.cost().halves();
        assert_eq!(cost(FigureGrade::Poor), 2);
        assert_eq!(cost(FigureGrade::PoorEnhanced), 4);
        assert_eq!(cost(FigureGrade::Regular), 3, "1 1/2 pts");
        assert_eq!(cost(FigureGrade::RegularEnhanced), 6);
        assert_eq!(cost(FigureGrade::Elite), 4);
        assert_eq!(cost(FigureGrade::EliteEnhanced), 8);
        assert_eq!(cost(FigureGrade::SpecialCharacter), 16);
        assert_eq!(FigureGrade::Regular.cost().to_string(), "1½");
        assert_eq!((FigureGrade::Regular.cost() * 20).to_string(), "30");
    }

    #[test]
    fn a_machine_gun_costs_5_and_a_medium_mortar_15() {
        // FYOW 21.5: "1 x MMG = 5 points", "1 x MMtr = 15 points"; its text
        // says an LMG: every machine gun costs 5 so the example totals 50 either way.
        let c = codex();
        for e in c.entries().iter().filter(|e| e.kind == Kind::Weapon) {
            let row = e.armament[0].row;
            if matches!(row, Weapon::Lmg | Weapon::Mmg | Weapon::Hmg) {
                assert_eq!(e.cost(), pts(5), "{}", e.id);
            }
            if row == Weapon::MediumMortar {
                assert_eq!(e.cost(), pts(15), "{}", e.id);
            }
        }
        assert_eq!(entry("gb_bren").cost(), pts(5));
        assert_eq!(entry("gb_vickers_mmg").cost(), pts(5));
        assert_eq!(entry("gb_3in_mortar").cost(), pts(15));
    }

    #[test]
    fn fyow_21_5_losses_total_50_points() {
        let c = codex();
        let losses =
            c.force_cost(&[(FigureGrade::Regular, 20)], &[("gb_vickers_mmg", 1), ("gb_3in_mortar", 1)]).unwrap();
        assert_eq!(losses, pts(50));
        let as_written = c.force_cost(&[(FigureGrade::Regular, 20)], &[("gb_bren", 1), ("gb_3in_mortar", 1)]).unwrap();
        assert_eq!(as_written, pts(50), "the example's LMG costs the same");
    }

    #[test]
    fn soft_skinned_vehicles_are_free_but_their_weapons_are_charged() {
        let c = codex();
        for e in c.entries().iter().filter(|e| e.armour == Some(ArmourClass::SoftSkinned)) {
            let weapons: Points = e.armament.iter().map(Armament::cost).sum();
            assert_eq!(e.cost(), weapons, "{}", e.id);
        }
        assert_eq!(entry("gb_bedford_qld").cost(), Points::ZERO);
        assert_eq!(entry("us_willys_jeep").cost(), Points::ZERO);
        assert_eq!(entry("gb_sas_jeep").cost(), pts(15), "twin Vickers K and a .50: three machine guns");
        assert_eq!(entry("su_bm13").cost(), pts(16 * 15), "16 rails of HE C rockets on a free lorry");
        // An armoured vehicle pays for its armour even unarmed (FYOW 2.1 specialist vehicles).
        assert_eq!(entry("de_goliath").cost(), pts(5));
    }

    #[test]
    fn formula_by_class() {
        // 5 per step: machine gun, HE column A..F, AT class, armour class.
        assert_eq!(entry("gb_2in_mortar").cost(), pts(5), "HE A");
        assert_eq!(entry("gb_25pdr").cost(), pts(20), "HE D");
        assert_eq!(entry("gb_72in_howitzer").cost(), pts(30), "HE F");
        assert_eq!(entry("gb_2pdr_atg").cost(), pts(10), "AT class 2, no HE");
        assert_eq!(entry("de_pak40").cost(), pts(15 + 15), "AT class 3 with HE C");
        assert_eq!(entry("de_pak43").cost(), pts(25 + 20), "AT class 5 with HE D");
        assert_eq!(entry("gb_piat").cost(), pts(10), "effective AV 8: as AT class 2");
        assert_eq!(entry("de_panzerschreck").cost(), pts(15), "effective AV 11: as AT class 3");
        assert_eq!(entry("gb_boys_atr").cost(), Points::ZERO, "effective AV 2 reaches no class");
        assert_eq!(entry("gb_bofors_40mm").cost(), pts(5 + 10), "AV 5 (class 1) and HE B");
        assert_eq!(entry("gb_no4_rifle").cost(), Points::ZERO, "a figure's personal weapon");
        assert_eq!(entry("gb_no36_grenade").cost(), Points::ZERO, "grenades are personal kit");
        assert_eq!(entry("gb_no74_sticky_bomb").cost(), Points::ZERO);
        assert_eq!(entry("gb_universal_carrier").cost(), pts(5 + 5), "Bren and Flimsy armour");
        assert_eq!(entry("us_m4a1_sherman").cost(), pts(10 + 15 + 2 * 5 + 5 + 15), "class 2, HE C, 2 TMG, HMG, Medium");
        assert_eq!(entry("de_tiger2").cost(), pts(25 + 20 + 10 + 25), "class 5, HE D, 2 TMG, Formidable");
        // The AT class equivalent is the highest class whose effective AV the row reaches.
        for class in 1..=5u8 {
            let a = Armament {
                row: [
                    Weapon::AtGunClass1,
                    Weapon::AtGunClass2,
                    Weapon::AtGunClass3,
                    Weapon::AtGunClass4,
                    Weapon::AtGunClass5,
                ][usize::from(class - 1)],
                count: 1,
                he: None,
                calibre: None,
                range: None,
                shots_per_day: None,
            };
            assert_eq!(a.row.row().attack_at(Band::Effective), Some(3 * class as i8 + 2));
            assert_eq!(a.cost(), pts(5 * u32::from(class)));
            assert_eq!(a.at_class(), Some(class));
        }
    }

    #[test]
    fn combat_value_is_cost_over_ten_ignoring_fractions() {
        // FYOW 33.2: "Thus 951 becomes 95 and 1019 becomes 101."
        assert_eq!(pts(951).combat_value(), 95);
        assert_eq!(pts(1019).combat_value(), 101);
        // "the new Combat Value of the enlarged Battlegroup will become 124 and not 123."
        assert_eq!((pts(1019) + pts(229)).combat_value(), 124);
        assert_eq!(pts(1019).combat_value() + pts(229).combat_value(), 123);
        assert_eq!((FigureGrade::Regular.cost() * 7).combat_value(), 1, "10½ is 1");
    }

    #[test]
    fn eras_and_battlegroup_limits() {
        assert_eq!(Era::of_year(1940).map(Era::battlegroup_limit), Some(pts(1200)));
        assert_eq!(Era::of_year(1943).map(Era::battlegroup_limit), Some(pts(1500)));
        assert_eq!(Era::of_year(1944).map(Era::battlegroup_limit), Some(pts(1800)));
        assert_eq!(Era::of_year(1946), None);
    }

    #[test]
    fn crews_over_75mm_are_gunners() {
        assert_eq!(entry("gb_25pdr").crew_grade(FigureGrade::Regular), FigureGrade::RegularEnhanced, "88mm");
        assert_eq!(entry("gb_6pdr_atg").crew_grade(FigureGrade::Regular), FigureGrade::Regular, "57mm");
        assert_eq!(entry("de_tiger1").crew_grade(FigureGrade::Elite), FigureGrade::EliteEnhanced);
        assert_eq!(entry("us_m4a1_sherman").crew_grade(FigureGrade::Poor), FigureGrade::Poor, "75mm and under");
        assert_eq!(
            entry("gb_sherman_firefly").crew_grade(FigureGrade::Poor),
            FigureGrade::PoorEnhanced,
            "\"Gunnery who are poor troops\""
        );
        assert_eq!(entry("gb_42in_mortar").crew_grade(FigureGrade::Regular), FigureGrade::Regular, "a mortar is a CSW");
    }

    /// A battalion as in FYOB's "Example of a structure": 4 companies of 3
    /// platoons with a HQ platoon, 2 batteries of artillery, 2 squadrons of
    /// 3 gun tanks and a Close Support tank; platoons of 8 figures (*Heroes
    /// All*: "the infantry element representing the platoon ... a group of 8
    /// figures"), every figure Regular, crews by [`CodexEntry::crew_grade`].
    fn battalion(c: &Codex, support: &[(&str, u32)]) -> Points {
        let riflemen = 12 * 8 + 4 * 4 + 4; // platoons, company HQs, battalion HQ
        let mut figures = vec![(FigureGrade::Regular, riflemen)];
        for &(id, n) in support {
            let e = c.get(id).unwrap();
            figures.push((e.crew_grade(FigureGrade::Regular), u32::from(e.crew) * n));
        }
        // Weapons carried by the rifle platoons and company HQs (crewed from their figures).
        let mut kit = vec![("gb_bren", 12), ("gb_2in_mortar", 4)];
        kit.extend_from_slice(support);
        c.force_cost(&figures, &kit).unwrap()
    }

    #[test]
    fn a_typical_battalion_lands_inside_each_eras_limit() {
        let c = codex();
        // 1940, France: Boys rifles, two 3-inch mortars, a carrier section,
        // brigade 2pdrs, two batteries of 25pdrs, Matilda IIs with CS tanks.
        let early = battalion(
            &c,
            &[
                ("gb_boys_atr", 12),
                ("gb_3in_mortar", 2),
                ("gb_universal_carrier", 4),
                ("gb_2pdr_atg", 4),
                ("gb_25pdr", 8),
                ("gb_matilda_ii", 6),
                ("gb_matilda_ii_cs", 2),
            ],
        );
        // 1943, Tunisia: PIATs, six 3-inch mortars, six 6pdrs, Churchills.
        let mid = battalion(
            &c,
            &[
                ("gb_piat", 4),
                ("gb_3in_mortar", 6),
                ("gb_universal_carrier", 4),
                ("gb_6pdr_atg", 6),
                ("gb_25pdr", 8),
                ("gb_churchill_iii", 6),
                ("gb_churchill_i", 2),
            ],
        );
        // 1944, Normandy: Shermans with a Firefly and a Cromwell CS in each squadron.
        let late = battalion(
            &c,
            &[
                ("gb_piat", 4),
                ("gb_3in_mortar", 6),
                ("gb_universal_carrier", 4),
                ("gb_6pdr_atg", 6),
                ("gb_25pdr", 8),
                ("gb_sherman_v", 4),
                ("gb_sherman_firefly", 2),
                ("gb_cromwell_vi_cs", 2),
            ],
        );
        for (year, cost) in [(1940, early), (1943, mid), (1944, late)] {
            let limit = Era::of_year(year).unwrap().battlegroup_limit();
            assert!(cost <= limit, "{year}: {cost} over {limit}");
            assert!(cost.halves() * 4 >= limit.halves() * 3, "{year}: {cost} uses less than 3/4 of {limit}");
        }
        assert!(early < mid, "a 1943 battalion costs more than a 1940 one");
    }

    #[test]
    fn humber_mk_iv_has_a_class_2_gun_no_he_and_a_tank_mg() {
        // Heroes All: "This Humber Mk IV has a 2pdr gun (AT class 2 and no HE) and a Tank MG in the turret."
        let h = entry("gb_humber_ac_mk4");
        assert_eq!(h.at_class(), Some(2));
        assert_eq!(h.he_column(), None);
        assert!(h.armament.iter().any(|a| a.row == Weapon::TankMg));
        assert_eq!(h.observation.counts_as(), 8, "an armoured car counts 8");
    }

    #[test]
    fn light_reconnaissance_cars_count_4_for_observation() {
        // The observation example: "4 men are spotting and the target counts as 4" (the Humber recce car).
        let lrc = entry("gb_humber_lrc");
        assert_eq!(lrc.observation, TargetClass::LightReconnaissanceCar);
        assert_eq!(lrc.observation.counts_as(), 4);
        assert_eq!(entry("su_ba64").observation.counts_as(), 4);
        assert_eq!(entry("de_sdkfz222").observation.counts_as(), 8, "an armoured car");
        assert_eq!(entry("gb_vickers_mmg").observation.counts_as(), 4, "a CSW counts 1 + crew");
    }

    #[test]
    fn the_45in_gun_fires_from_45_inches() {
        // Heroes All, FOO: "a British 4.5 inch gun with a short range of 45 inches".
        let gun = entry("gb_45in_gun");
        let a = &gun.armament[0];
        assert_eq!(a.range().band(45.0), Ok(Band::Short));
        assert_eq!(a.row.row().range.band(45.0), Ok(Band::Effective), "the 105-149mm row's short range is 30");
        assert_eq!(gun.he_column(), Some(HeColumn::E));
    }

    #[test]
    fn wespe_fires_on_row_e() {
        // Heroes All, HE Effects example: "The Wespe (105mm) ... refers to row E".
        let w = entry("de_wespe");
        assert_eq!(w.he_column(), Some(HeColumn::E));
        assert!(w.open_topped);
    }

    #[test]
    fn italian_hand_grenades_use_g2() {
        assert_eq!(entry("it_srcm35").he_column(), Some(HeColumn::G2), "\"G2 for Italians\"");
        assert_eq!(entry("gb_no36_grenade").he_column(), Some(HeColumn::G1));
    }

    #[test]
    fn the_late_war_glider_example_fits() {
        // Heroes All, Loads: "This late war glider has a carrying capacity of 16
        // loads so can easily deal with 8 figures (8 loads), the PIAT and ammo
        // (4 loads) and the 2 small charges ... (1 load)."
        let horsa = entry("gb_horsa");
        assert_eq!(horsa.capacity, Some(16));
        let (figures, piat_and_ammo, charges) = (8, 4, 1);
        assert!(figures + piat_and_ammo + charges <= horsa.capacity.unwrap());
        assert_eq!(
            entry("gb_piat").load_space,
            Some(1),
            "\"Hand held AT weapon 1\"; the example's 4 includes its ammunition"
        );
        assert_eq!(entry("de_dfs230").capacity, Some(10), "\"Glider (to mid 1942) 10\"");
        // A tank-carrying glider takes a light tank.
        assert!(entry("gb_tetrarch").load_space <= entry("gb_hamilcar").capacity);
    }

    #[test]
    fn capacities_and_load_spaces_follow_the_loads_chapter() {
        let cap = |id: &str| entry(id).capacity;
        let space = |id: &str| entry(id).load_space;
        assert_eq!(cap("gb_universal_carrier"), Some(7), "Universal carrier, jeep 7");
        assert_eq!(cap("us_willys_jeep"), Some(7));
        assert_eq!(cap("de_kubelwagen"), Some(5));
        assert_eq!(cap("de_kettenkrad"), Some(5));
        assert_eq!(cap("gb_morris_c8_quad"), Some(8), "prime mover for artillery");
        assert_eq!(cap("gb_bedford_qld"), Some(12), "service truck");
        assert_eq!(cap("de_pz2c"), Some(4), "light tank (up to Pz II ...)");
        assert_eq!(cap("us_m4a1_sherman"), Some(6), "other tanks");
        assert_eq!(cap("us_dukw"), Some(30));
        assert_eq!(cap("us_c47"), Some(32));
        assert_eq!(space("gb_bren"), Some(1));
        assert_eq!(space("gb_vickers_mmg"), Some(2));
        assert_eq!(space("us_m2hb"), Some(3));
        assert_eq!(space("gb_3in_mortar"), Some(3), "mortar up to 81mm");
        assert_eq!(space("gb_42in_mortar"), Some(4), "mortar over 81mm");
        assert_eq!(space("gb_25pdr"), Some(6), "artillery/AA piece");
        assert_eq!(space("de_sdkfz251"), Some(20), "armoured transport");
        assert_eq!(space("de_tiger1"), Some(60), "heavy tanks");
        assert_eq!(space("de_kettenkrad"), Some(5));
        let c = codex();
        assert!(c.entries().iter().all(|e| e.load_space.is_some() != (e.kind == Kind::Aircraft)));
    }

    #[test]
    fn the_movement_tables_named_vehicles_sit_on_their_rows() {
        use crate::movement::Row;
        let row = |id: &str| entry(id).movement.and_then(MoveClass::land_row);
        assert_eq!(row("gb_matilda_ii"), Some(Row::SlowTank), "Slow tank: Matilda II");
        assert_eq!(row("de_luchs"), Some(Row::FastTank), "Fast tank: Luchs");
        assert_eq!(row("de_opel_blitz"), Some(Row::MediumTruck), "Med Truck: Opel Blitz, QLT");
        assert_eq!(row("gb_morris_c8_quad"), Some(Row::LightTruck), "Light truck: Morris C8");
        assert_eq!(row("gb_universal_carrier"), Some(Row::HalfTrack), "1/2 track: Bren Carrier/SdKfz 251");
        assert_eq!(row("de_sdkfz251"), Some(Row::HalfTrack));
        assert_eq!(row("de_kubelwagen"), Some(Row::MilitaryCar), "Car: Kubelwagen, Jeep");
        assert_eq!(row("us_willys_jeep"), Some(Row::MilitaryCar));
        assert_eq!(row("de_goliath"), Some(Row::Goliath));
        assert_eq!(row("us_m2hb"), Some(Row::CarriedCsw), "Carried CSW: HMtr or HMG");
        assert_eq!(row("gb_horsa"), None, "aircraft fly");
        // Drives: a jeep is all-wheel drive, a Kubelwagen is not, a Bren Carrier is tracked.
        assert_eq!(entry("us_willys_jeep").drive(), Some(Drive::AllWheelDrive));
        assert_eq!(entry("de_kubelwagen").drive(), Some(Drive::Wheeled));
        assert_eq!(entry("gb_universal_carrier").drive(), Some(Drive::Tracked));
        assert_eq!(entry("de_sdkfz251").drive(), Some(Drive::HalfTracked));
        assert_eq!(entry("gb_25pdr").drive(), None);
    }

    #[test]
    fn shots_per_day_follow_the_logistics_chapter() {
        // Heroes All, "Normal restrictions on ammunition".
        let spd = ShotsPerDay::for_row;
        assert_eq!(spd(Weapon::Rifle), ShotsPerDay::Unlimited);
        assert_eq!(spd(Weapon::Atr), ShotsPerDay::Unlimited);
        assert_eq!(spd(Weapon::HandGrenades), ShotsPerDay::PerThreeMen);
        assert_eq!(spd(Weapon::RifleGrenadeLauncher), ShotsPerDay::Bounds(3));
        assert_eq!(spd(Weapon::Piat), ShotsPerDay::Bounds(5));
        assert_eq!(spd(Weapon::PzSchreck), ShotsPerDay::Bounds(5));
        assert_eq!(spd(Weapon::ManpackFlamethrower), ShotsPerDay::Bounds(3));
        assert_eq!(spd(Weapon::Lmg), ShotsPerDay::Bounds(10));
        assert_eq!(spd(Weapon::Mmg), ShotsPerDay::Bounds(8));
        assert_eq!(spd(Weapon::Hmg), ShotsPerDay::Bounds(6));
        assert_eq!(spd(Weapon::LightMortar), ShotsPerDay::Bounds(10));
        assert_eq!(spd(Weapon::MediumMortar), ShotsPerDay::Bounds(8));
        assert_eq!(spd(Weapon::HeavyMortar), ShotsPerDay::Bounds(6));
        assert_eq!(spd(Weapon::Rockets), ShotsPerDay::Bounds(3));
        assert_eq!(spd(Weapon::AutocannonLight), ShotsPerDay::Bounds(10), "10 bounds of AA fire");
        assert_eq!(spd(Weapon::TankMg), ShotsPerDay::Bounds(8));
        // The CODEX's own, for the calibres the chapter leaves to it: fewer as the round grows.
        let guns = [Weapon::AtGunClass1, Weapon::AtGunClass3, Weapon::AtGunClass4, Weapon::AtGunClass5];
        let bounds = |w: Weapon| match spd(w) {
            ShotsPerDay::Bounds(n) => n,
            other => panic!("{other:?}"),
        };
        assert!(guns.windows(2).all(|w| bounds(w[0]) >= bounds(w[1])));
        assert!(WEAPONS.iter().all(|r| matches!(
            spd(r.weapon),
            ShotsPerDay::Bounds(1..=BOUNDS_PER_DAY) | ShotsPerDay::Unlimited | ShotsPerDay::PerThreeMen
        )));
        assert_eq!(entry("de_panzerfaust60").armament[0].shots_per_day(), ShotsPerDay::Bounds(1));
    }

    #[test]
    fn armour_classes_fight_as_the_book_says() {
        // The mapping is sane against the Defence Values: a Pak 36 cannot
        // brew a Matilda II from the front; an 88 can brew a Sherman.
        let matilda = entry("gb_matilda_ii").armour.unwrap();
        let pak36 = entry("de_pak36").armament[0].row.row().attack_at(Band::Effective).unwrap();
        assert!((1..=10).all(|d| at_result(pak36, matilda, Facing::Front, d) != AtResult::Brewed));
        let sherman = entry("us_m4a1_sherman").armour.unwrap();
        let kwk36 = entry("de_tiger1").armament[0].row.row().attack_at(Band::Effective).unwrap();
        assert_eq!(at_result(kwk36, sherman, Facing::Front, 3), AtResult::Brewed);
    }

    #[test]
    fn unknown_ids_are_typed_errors() {
        let c = codex();
        assert_eq!(c.get("gb_tardis"), Err(CodexError::UnknownId("gb_tardis".into())));
        assert_eq!(c.force_cost(&[], &[("gb_tardis", 1)]), Err(CodexError::UnknownId("gb_tardis".into())));
        assert_eq!(CodexError::UnknownId("gb_tardis".into()).to_string(), "unknown codex id \"gb_tardis\"");
    }

    #[test]
    fn a_good_entry_loads() {
        let c = load_one(GOOD).unwrap();
        assert_eq!(c.get("x_gun").unwrap().cost(), pts(10));
        assert_eq!(c.get("x_gun").unwrap().nation, Nation::British);
    }

    #[test]
    fn malformed_ron_names_file_and_line() {
        let bad = GOOD.replace("crew: 4,\n", "crew: \"four\",\n");
        match load_one(&bad) {
            Err(CodexError::Malformed(e)) => {
                assert_eq!(e.file, "test.ron");
                assert_eq!(e.position.map(|p| p.0), Some(10), "{e}");
            }
            other => panic!("{other:?}"),
        }
        // An unknown class is a parse error at its line.
        let bad = GOOD.replace("at_gun_class2", "at_gun_class6");
        match load_one(&bad) {
            Err(CodexError::Malformed(e)) => {
                assert_eq!(e.position.map(|p| p.0), Some(11));
                assert!(e.message.contains("at_gun_class6"), "{e}");
            }
            other => panic!("{other:?}"),
        }
        let bad = GOOD.replace("HandMovedGun", "Hovercraft");
        assert!(
            matches!(load_one(&bad), Err(CodexError::Malformed(e)) if e.position.map(|p| p.0) == Some(13) && e.message.contains("Hovercraft"))
        );
        let bad = GOOD.replace("observation: csw(crew: 4)", "observation: battleship");
        assert!(matches!(load_one(&bad), Err(CodexError::Malformed(e)) if e.position.map(|p| p.0) == Some(12)));
        let bad = GOOD.replace("load_space: 6,", "load_space: 6, colour: \"green\",");
        assert!(matches!(load_one(&bad), Err(CodexError::Malformed(e)) if e.message.contains("colour")));
    }

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

    #[test]
    fn the_second_armament_is_located() {
        let two = GOOD.replace("kind: weapon", "kind: vehicle").replace("csw(crew: 4)", "tank").replace(
            "armament: [(row: at_gun_class2, calibre: 40)],",
            "armament: [\n                (row: at_gun_class2, calibre: 40),\n                (row: tank_mg, count: 0),\n            ],",
        ).replace("load_space: 6,", "load_space: 45, armour: medium,");
        let (line, field, _) = invalid(&two);
        assert_eq!((line, field.as_str()), (Some(13), "armament[1].count"));
        let shown = CodexError::Invalid {
            file: "test.ron".into(),
            position: (line.unwrap(), 32),
            id: "x_gun".into(),
            field,
            problem: Problem::OutOfRange { value: 0, min: 1, max: 60 },
        }
        .to_string();
        assert_eq!(shown, "test.ron:13:32: armament[1].count: 0 is outside 1..=60 (entry \"x_gun\")");
        match load_one(&two) {
            Err(e @ CodexError::Invalid { .. }) => assert_eq!(e.to_string(), shown, "the count's own column"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn duplicate_ids_are_rejected_across_files() {
        let a = one_file(GOOD);
        let b = one_file(&format!("{}\n{}", GOOD.replace("x_gun", "y_gun"), GOOD));
        match Codex::load(&[("a.ron", &a), ("b.ron", &b)]) {
            Err(e @ CodexError::DuplicateId { .. }) => {
                assert_eq!(
                    e.to_string(),
                    "b.ron:17:17: id: \"x_gun\" is already used in a.ron",
                    "the second entry of b.ron"
                );
            }
            other => panic!("{other:?}"),
        }
        let twice = one_file(&format!("{GOOD}\n{GOOD}"));
        assert!(matches!(Codex::load(&[("c.ron", &twice)]), Err(CodexError::DuplicateId { position: (17, _), .. })));
    }
}
