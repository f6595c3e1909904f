//! *Heroes All* "Firing weapons": the Weapons table as data and the throws to hit.
//!
//! The table's colours, which chose each row's firing procedure, were lost in
//! conversion; [`Procedure`] restores them from the text around the table
//! ("How to fire weapons", "Indirect Fire", "Flame weapons", "Grenades").
//! Over open sights each shot is a D6 plus the listed modifiers, 5+ hits;
//! indirect fire needs 4+/5+ with the ranging ladder and the 2+/3+ once on
//! target; flame hits automatically.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dice::Roll;
use crate::effects::HeColumn;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::observation::Momentum;
use crate::officer::Quality;

/// How far a band reaches: inches, or "table" ("the weapon fires at anything
/// on the table at long range").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reach {
    Inches(u8),
    Table,
}

impl Reach {
    fn covers(self, distance: f32) -> bool {
        match self {
            Self::Inches(n) => distance <= f32::from(n),
            Self::Table => true,
        }
    }
}

/// A row's range column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponRange {
    /// Short, effective and long (S E L); `None` where the table prints n/a.
    Bands { short: Option<u8>, effective: u8, long: Option<Reach> },
    /// Mortars and rockets: "6 to 24", "24 to table".
    Span { min: u8, max: Reach },
    /// Flame and grenades: a single reach, no bands.
    Within(u8),
}

/// Range band of a shot; [`WeaponRange::Span`] and [`WeaponRange::Within`] are
/// read as effective range (no range modifier).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Band {
    Short,
    Effective,
    Long,
}

impl WeaponRange {
    /// The band `distance` inches falls in, or why it cannot be fired at.
    pub fn band(self, distance: crate::inches::Inches) -> Result<Band, FireError> {
        let distance = distance.get();
        if !(distance.is_finite() && distance >= 0.0) {
            return Err(FireError::BadDistance);
        }
        match self {
            Self::Bands { short, effective, long } => {
                if short.is_some_and(|s| distance <= f32::from(s)) {
                    Ok(Band::Short)
                } else if distance <= f32::from(effective) {
                    Ok(Band::Effective)
                } else if long.is_some_and(|l| l.covers(distance)) {
                    Ok(Band::Long)
                } else {
                    Err(FireError::OutOfRange)
                }
            }
            Self::Span { min, max } => {
                if distance < f32::from(min) {
                    Err(FireError::TooClose)
                } else if max.covers(distance) {
                    Ok(Band::Effective)
                } else {
                    Err(FireError::OutOfRange)
                }
            }
            Self::Within(n) => {
                if distance <= f32::from(n) {
                    Ok(Band::Effective)
                } else {
                    Err(FireError::OutOfRange)
                }
            }
        }
    }
}

/// "Shots per bound".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shots {
    PerBound(u8),
    /// Rockets: "1 per barrel".
    PerBarrel,
}

/// "Immobile: this weapon takes time to set up and break down ... It cannot
/// set up and fire in the same turn."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Immobile {
    No,
    Yes,
    /// Autocannon: "Crewed + Immobile if ground mounted".
    IfGroundMounted,
}

/// The firing procedure a row's lost colour chose (*Heroes All*, "How to fire weapons").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Procedure {
    /// Yellow: small arms or AT over open sights, every modifier.
    OpenSights,
    /// Dark green: howitzers, HE over open sights (cover and movement
    /// modifiers only) or indirect fire.
    Howitzer,
    /// Light green: mortars, indirect only; `light` hits on 4+, others 5+.
    /// The Rifle Grenade Launcher (blue) "is fired as per a light mortar".
    Mortar { light: bool },
    /// Light green: rockets, 5+ "for every shot fired".
    Rockets,
    /// Pink: automatic hit within range.
    Flame,
    /// Blue: AT and hand grenades, thrown in assaults.
    Assault,
}

/// The rows of the Weapons table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weapon {
    Rifle,
    Pistol,
    Smg,
    AutoRifle,
    Lmg,
    TankMg,
    Mmg,
    Hmg,
    Atr,
    Piat,
    Bazooka,
    PzSchreck,
    PzFaust,
    AtGunClass1,
    AtGunClass2,
    AtGunClass3,
    AtGunClass4,
    AtGunClass5,
    /// "<=20mm A/cannon".
    AutocannonLight,
    /// ">20mm A/cannon".
    AutocannonHeavy,
    LightMortar,
    MediumMortar,
    HeavyMortar,
    Rockets,
    /// Howitzer up to 50mm.
    Howitzer50,
    /// 51–75mm.
    Howitzer75,
    /// 76–104mm.
    Howitzer104,
    /// 105–149mm.
    Howitzer149,
    /// 150mm and over.
    Howitzer150Plus,
    ManpackFlamethrower,
    VehicleFlamethrower,
    RifleGrenadeLauncher,
    AtGrenades,
    HandGrenades,
}

/// One row of the Weapons table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct WeaponRow {
    pub weapon: Weapon,
    pub name: &'static str,
    pub range: WeaponRange,
    /// A separate range for HE, where the row gives one.
    pub he_range: Option<WeaponRange>,
    pub shots: Shots,
    /// Attack Value at short, effective and long range.
    pub attack: [Option<i8>; 3],
    pub he: Option<HeColumn>,
    pub crewed: bool,
    pub immobile: Immobile,
    /// "Can move and fire without penalty".
    pub move_and_fire: bool,
    /// "(*) Sub machine guns are allowed to re-roll misses".
    pub reroll_misses: bool,
    pub procedure: Procedure,
    /// The row's note as printed.
    pub note: &'static str,
}

use Immobile as Im;
use Procedure as P;
use Reach::{Inches, Table};
use WeaponRange::{Bands, Span, Within};

const fn bands(short: Option<u8>, effective: u8, long: Option<Reach>) -> WeaponRange {
    Bands { short, effective, long }
}

const fn row(
    weapon: Weapon,
    name: &'static str,
    range: WeaponRange,
    shots: u8,
    attack: [Option<i8>; 3],
    he: Option<HeColumn>,
) -> WeaponRow {
    WeaponRow {
        weapon,
        name,
        range,
        he_range: None,
        shots: Shots::PerBound(shots),
        attack,
        he,
        crewed: false,
        immobile: Im::No,
        move_and_fire: false,
        reroll_misses: false,
        procedure: P::OpenSights,
        note: "",
    }
}

const fn crewed(mut r: WeaponRow, immobile: Immobile, note: &'static str) -> WeaponRow {
    r.crewed = true;
    r.immobile = immobile;
    r.note = note;
    r
}

const fn with(mut r: WeaponRow, procedure: Procedure, note: &'static str) -> WeaponRow {
    r.procedure = procedure;
    r.note = note;
    r
}

const NA: [Option<i8>; 3] = [None, None, None];
const fn av(s: i8, e: i8, l: i8) -> [Option<i8>; 3] {
    [Some(s), Some(e), Some(l)]
}
const fn av2(s: i8, e: i8) -> [Option<i8>; 3] {
    [Some(s), Some(e), None]
}
const fn av1(e: i8) -> [Option<i8>; 3] {
    [None, Some(e), None]
}

const CREWED_IMMOBILE: &str = "Crewed + Immobile";

const fn howitzer(weapon: Weapon, name: &'static str, range: WeaponRange, he: HeColumn) -> WeaponRow {
    crewed(with(row(weapon, name, range, 1, NA, Some(he)), P::Howitzer, ""), Im::Yes, CREWED_IMMOBILE)
}

const fn at_gun(weapon: Weapon, name: &'static str, range: WeaponRange, attack: [Option<i8>; 3]) -> WeaponRow {
    crewed(row(weapon, name, range, 1, attack, None), Im::Yes, "Crew served ATGs are \"Crewed + Immobile\"")
}

/// The field guns' bands: 30 / 60 / `long`.
const fn gun(long: Reach) -> WeaponRange {
    bands(Some(30), 60, Some(long))
}

/// *Heroes All*, "Weapons table showing ranges, shots, effects and limitations",
/// every row in the book's order.
///
/// Readings (docs/rules-readings.md):
/// - the PzFaust row's note "Crew served ATGs are 'Crewed + Immobile'" names
///   the AT gun rows below it, so AT gun classes 1–5 are crewed and immobile;
/// - the autocannon note "Crewed + Immobile if ground mounted. HE Range
///   24/48/60" sits in a cell spanning both autocannon rows and is applied to
///   both (test `autocannon_rows_share_their_note`);
/// - a single range ("6", "12", "3 if thrown") is a reach with no bands;
///   "AT grenades: In assault or" is cut off and read as the hand grenades'
///   "3 if thrown".
pub const WEAPONS: [WeaponRow; 34] = {
    use Weapon as W;
    let ac_note = "Crewed + Immobile if ground mounted. HE Range 24/48/60";
    let ac_he_range = Some(bands(Some(24), 48, Some(Inches(60))));
    let mut ac_light = crewed(
        row(
            W::AutocannonLight,
            "<=20mm A/cannon",
            bands(Some(12), 24, Some(Inches(36))),
            2,
            av(4, 1, -3),
            Some(HeColumn::A),
        ),
        Im::IfGroundMounted,
        ac_note,
    );
    ac_light.he_range = ac_he_range;
    let mut ac_heavy = crewed(
        row(
            W::AutocannonHeavy,
            ">20mm A/cannon",
            bands(Some(15), 30, Some(Inches(60))),
            2,
            av(8, 5, -3),
            Some(HeColumn::B),
        ),
        Im::IfGroundMounted,
        ac_note,
    );
    ac_heavy.he_range = ac_he_range;
    let mut rockets = crewed(
        row(W::Rockets, "Rockets", Span { min: 24, max: Table }, 1, NA, Some(HeColumn::C)),
        Im::Yes,
        "Crewed + Immobile; HE C each",
    );
    rockets.shots = Shots::PerBarrel;
    rockets.procedure = P::Rockets;
    let mut rifle = row(W::Rifle, "Rifle", bands(Some(12), 24, Some(Inches(36))), 1, NA, None);
    rifle.move_and_fire = true;
    rifle.note = "Can move and fire without penalty";
    let mut smg = row(W::Smg, "SMG", bands(None, 12, None), 1, NA, None);
    smg.reroll_misses = true;
    let mut atr = row(W::Atr, "ATR", bands(Some(12), 24, None), 1, av2(6, 2), None);
    atr.move_and_fire = true;
    atr.note = "Can move and fire without penalty";
    let mut light_mortar = crewed(
        with(
            row(W::LightMortar, "Light mortar", Span { min: 6, max: Inches(24) }, 2, NA, Some(HeColumn::A)),
            P::Mortar { light: true },
            "",
        ),
        Im::No,
        "Crewed. Can fire/move without penalty",
    );
    light_mortar.move_and_fire = true;
    let short_at = bands(Some(12), 24, Some(Inches(48)));
    let long_at = bands(Some(24), 48, Some(Inches(60)));
    let mg = bands(Some(24), 48, Some(Inches(60)));
    [
        rifle,
        row(W::Pistol, "Pistol", bands(None, 3, None), 1, NA, None),
        smg,
        row(W::AutoRifle, "Auto Rifle", bands(Some(12), 24, Some(Inches(36))), 2, NA, None),
        crewed(row(W::Lmg, "LMG", bands(Some(18), 36, Some(Inches(60))), 3, NA, None), Im::No, "Crewed"),
        with(row(W::TankMg, "Tank MG", mg, 4, NA, None), P::OpenSights, "Hull or turret mantle mounted"),
        crewed(row(W::Mmg, "MMG", mg, 4, NA, None), Im::Yes, CREWED_IMMOBILE),
        crewed(row(W::Hmg, "HMG", mg, 4, av(4, 1, -3), None), Im::Yes, CREWED_IMMOBILE),
        atr,
        row(W::Piat, "PIAT", bands(Some(3), 6, None), 1, av2(8, 8), None),
        row(W::Bazooka, "Bazooka", bands(Some(4), 9, None), 1, av2(8, 8), None),
        row(W::PzSchreck, "PzSchreck", bands(Some(4), 9, None), 1, av2(11, 11), None),
        row(W::PzFaust, "PzFaust", bands(None, 6, None), 1, av1(11), None),
        at_gun(W::AtGunClass1, "Class 1 AT gun", short_at, av(8, 5, -3)),
        at_gun(W::AtGunClass2, "Class 2 AT gun", short_at, av(11, 8, 1)),
        at_gun(W::AtGunClass3, "Class 3 AT gun", long_at, av(14, 11, 3)),
        at_gun(W::AtGunClass4, "Class 4 AT gun", long_at, av(17, 14, 6)),
        at_gun(W::AtGunClass5, "Class 5 AT gun", long_at, av(20, 17, 9)),
        ac_light,
        ac_heavy,
        light_mortar,
        crewed(
            with(
                row(W::MediumMortar, "Med mortar", Span { min: 6, max: Inches(48) }, 1, NA, Some(HeColumn::C)),
                P::Mortar { light: false },
                "",
            ),
            Im::Yes,
            CREWED_IMMOBILE,
        ),
        crewed(
            with(
                row(W::HeavyMortar, "Heavy mortar", Span { min: 12, max: Inches(60) }, 1, NA, Some(HeColumn::D)),
                P::Mortar { light: false },
                "",
            ),
            Im::Yes,
            CREWED_IMMOBILE,
        ),
        rockets,
        howitzer(W::Howitzer50, "Howitzer -50mm", bands(Some(24), 48, Some(Inches(60))), HeColumn::B),
        howitzer(W::Howitzer75, "51 - 75mm", gun(Table), HeColumn::C),
        howitzer(W::Howitzer104, "76 - 104mm", gun(Table), HeColumn::D),
        howitzer(W::Howitzer149, "105 - 149mm", gun(Table), HeColumn::E),
        howitzer(W::Howitzer150Plus, "150mm+", gun(Table), HeColumn::F),
        with(
            row(W::ManpackFlamethrower, "Manpack Flamethrower", Within(6), 1, av1(3), Some(HeColumn::C)),
            P::Flame,
            "automatic hit",
        ),
        with(
            row(W::VehicleFlamethrower, "Vehicle Flamethrower", Within(12), 1, av1(4), Some(HeColumn::D)),
            P::Flame,
            "automatic hit",
        ),
        with(
            row(W::RifleGrenadeLauncher, "Rifle Grenade Launcher", bands(None, 12, None), 1, NA, Some(HeColumn::A)),
            P::Mortar { light: true },
            "3 RGL shots per game or one use of either AT or HE grenades per platoon",
        ),
        with(row(W::AtGrenades, "AT grenades", Within(3), 1, av1(5), None), P::Assault, "In assault or 3 if thrown"),
        with(
            row(W::HandGrenades, "Hand grenades", Within(3), 1, NA, Some(HeColumn::G1)),
            P::Assault,
            "3 if thrown; G2 for Italians",
        ),
    ]
};

impl Weapon {
    /// This weapon's row of [`WEAPONS`].
    pub fn row(self) -> &'static WeaponRow {
        &WEAPONS[self as usize]
    }

    /// Whether it may fire a smoke round. *Heroes All*, "Firing smoke": "A
    /// smoke round counts as one round of the guns allocation"; "Indirect
    /// Fire": "4+ ... (light mortars and smoke shells only)". Reading: smoke
    /// is a shell from a gun's or a mortar's allocation: the mortars and the
    /// howitzer rows (an AT gun fires it from its HE shell's row, as it fires
    /// HE); rockets, grenades and the Rifle Grenade Launcher fire none (test
    /// `only_guns_and_mortars_fire_smoke`).
    pub fn fires_smoke(self) -> bool {
        matches!(self.row().procedure, Procedure::Mortar { .. } | Procedure::Howitzer)
            && self != Weapon::RifleGrenadeLauncher
    }
}

impl WeaponRow {
    /// Attack Value in `band`, `None` where the table prints n/a.
    pub fn attack_at(&self, band: Band) -> Option<i8> {
        self.attack[band as usize]
    }

    /// Needs an Act to set up before it may fire.
    pub fn is_immobile(&self, ground_mounted: bool) -> bool {
        match self.immobile {
            Immobile::No => false,
            Immobile::Yes => true,
            Immobile::IfGroundMounted => ground_mounted,
        }
    }
}

/// Why a shot cannot be taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FireError {
    BadDistance,
    OutOfRange,
    /// Inside a mortar's or rocket's minimum range.
    TooClose,
    /// The weapon does not fire by this procedure.
    WrongProcedure(Weapon),
    /// The cover named cannot apply to the target named.
    CoverDoesNotFit,
    /// Firing team of 0 or more than 10 weapons ("Firing teams cannot exceed 10 figures").
    TeamSize(u8),
    /// A Continuous Momentum score outside 1..=6.
    CmsOutOfRange(u8),
    /// *FYOB* Continuous Momentum forbids firing this bound.
    MomentumForbids,
    /// "They cannot fire if they are more than 3 inches into a wood."
    CrewInWood,
    /// Only a rifle can be a sniper's weapon.
    SniperNeedsRifle,
}

impl fmt::Display for FireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BadDistance => write!(f, "distance must be a non-negative number of inches"),
            Self::OutOfRange => write!(f, "target out of range"),
            Self::TooClose => write!(f, "target inside the weapon's minimum range"),
            Self::WrongProcedure(w) => write!(f, "{} does not fire this way", w.row().name),
            Self::CoverDoesNotFit => write!(f, "that cover does not apply to that target"),
            Self::TeamSize(n) => write!(f, "a firing team has 1 to 10 weapons, not {n}"),
            Self::CmsOutOfRange(v) => write!(f, "Continuous Momentum score {v} is outside 1..=6"),
            Self::MomentumForbids => write!(f, "Continuous Momentum forbids firing this bound"),
            Self::CrewInWood => write!(f, "crews more than 3 inches into a wood cannot fire indirect"),
            Self::SniperNeedsRifle => write!(f, "snipers shoot with the rifle"),
        }
    }
}

impl std::error::Error for FireError {}

/// What is shot at, as the hit modifiers name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FireTarget {
    Infantry,
    Csw,
    Artillery,
    Afv,
    SoftSkin,
    Bridge,
    Building,
}

/// The target's cover as the hit modifiers name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    /// In the open: +1.
    Open,
    /// Soft cover: no modifier (the table assumes an AFV up to 50% obscured).
    #[default]
    Soft,
    /// Infantry/CSW/artillery in hard cover: −1.
    Hard,
    /// Infantry/CSW in a pillbox: −1 for the pillbox and −1 for hard cover.
    /// Reading: a pillbox is hard cover, and its own line would say nothing
    /// if it did not add to it (test `pillbox_is_hard_cover_and_more`).
    Pillbox,
    /// An AFV showing less than 50% of itself: −1.
    HullDown,
}

/// The hit modifiers of "How to fire weapons", in the book's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modifier {
    ShortRange,
    LongRange,
    SecondShot,
    Aimed,
    Bridge,
    Building,
    InOpen,
    HullDown,
    HardCover,
    Pillbox,
    UnobservedAutospot,
    FiringOnMove,
    TargetMoving,
    EliteFirer,
    PoorFirer,
    Smoke,
}

/// Which modifiers a howitzer over open sights keeps ("only consider modifiers
/// for **cover** and **movement**").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Range,
    Cover,
    Movement,
    /// *Heroes All*, "Firing smoke": its +2 stands apart from the table.
    Smoke,
    /// The aim of an Act: FYOB "Act", (iv) names it for "a HE/AT shot when
    /// firing an artillery piece".
    Aim,
    Other,
}

const MODIFIERS: usize = 16;

/// *Heroes All*, "How to fire weapons": (name, value, kind, reason).
const MODIFIER_TABLE: [(&str, i8, Kind, &str); MODIFIERS] = [
    ("short_range", 1, Kind::Range, "+1 short range"),
    ("long_range", -1, Kind::Range, "-1 for long range"),
    ("second_shot", 1, Kind::Other, "+1 for a 2nd shot at a stationary target from the same position"),
    ("aimed", 1, Kind::Aim, "+1 when firing AT/HE on an ACT order (using the ACT as aim)"),
    ("bridge", 2, Kind::Other, "+2 if the target is a bridge"),
    ("building", 3, Kind::Other, "+3 if the target is a building"),
    ("in_open", 1, Kind::Cover, "+1 if (any) target is in the open"),
    ("hull_down", -1, Kind::Cover, "-1 if the target is an AFV showing less than 50% of itself"),
    ("hard_cover", -1, Kind::Cover, "-1 if the target is infantry/a CSW/artillery and is in hard cover"),
    ("pillbox", -1, Kind::Cover, "-1 if the target is infantry/a CSW in a pillbox"),
    ("unobserved_autospot", 1, Kind::Other, "+1 if the target is unobserved but would be an autospot"),
    ("firing_on_move", -1, Kind::Movement, "-1 firing on the move"),
    ("target_moving", -1, Kind::Movement, "-1 target moving"),
    ("elite_firer", 1, Kind::Other, "+1 if firer is elite/veteran"),
    ("poor_firer", -1, Kind::Other, "-1 if firer is Poor/Militia"),
    // *Heroes All*, "Firing smoke": "fire as usual with a +2 hit modifier".
    ("smoke", 2, Kind::Smoke, "+2 firing smoke"),
];

/// The names the hit modifiers of a volley are logged under, in the book's order.
pub fn hit_modifiers() -> impl Iterator<Item = &'static str> {
    MODIFIER_TABLE.iter().map(|(name, ..)| *name)
}

/// "A result of 5 or more scores a hit."
pub const OPEN_SIGHTS_HIT: u8 = 5;
/// Snipers "only need a 4+ to hit".
pub const SNIPER_HIT: u8 = 4;
/// Largest firing team: "Firing teams cannot exceed 10 figures".
pub const MAX_TEAM: u8 = 10;
/// Most dice one volley throws: 10 weapons × 4 shots.
const MAX_VOLLEY: usize = 40;

/// One firing team's shots over open sights (small arms, AT, HE over open sights).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct OpenSightsFire {
    pub weapon: Weapon,
    /// Weapons of this kind firing together (figures with rifles, guns), 1..=10.
    pub weapons: u8,
    /// Shots each weapon may take this bound, when fewer than its row allows
    /// (a short-crewed weapon, see [`crew_check`]); `None` for the row's full rate.
    pub shots_each: Option<u8>,
    pub distance: crate::inches::Inches,
    /// Firing HE (autocannon HE range, howitzers over open sights).
    pub he: bool,
    pub target: FireTarget,
    pub cover: Cover,
    pub firer_quality: Quality,
    pub firing_on_move: bool,
    pub target_moving: bool,
    pub second_shot_same_position: bool,
    /// Firing AT/HE on an ACT order.
    pub aimed: bool,
    /// *Heroes All*, "Unobserved Autospot": fired on without an observing Act.
    /// Reading: the text says the element "will suffer a +1 firing modifier"
    /// and the modifier list prints "+1 if the target is unobserved but would
    /// be an autospot"; both give +1 on the die, which is applied as printed.
    pub unobserved_autospot: bool,
    /// A sniper: 4+ to hit, ignoring the long range and hard cover modifiers.
    pub sniper: bool,
    /// Firing a smoke round: +2 (*Heroes All*, "Firing smoke"); a hit places
    /// a [`SmokeScreen`].
    pub smoke: bool,
    pub momentum: Momentum,
}

impl Default for OpenSightsFire {
    fn default() -> Self {
        Self {
            weapon: Weapon::Rifle,
            weapons: 1,
            shots_each: None,
            distance: crate::inches::Inches::ZERO,
            he: false,
            target: FireTarget::Infantry,
            cover: Cover::Soft,
            firer_quality: Quality::Regular,
            firing_on_move: false,
            target_moving: false,
            second_shot_same_position: false,
            aimed: false,
            unobserved_autospot: false,
            sniper: false,
            smoke: false,
            momentum: Momentum::default(),
        }
    }
}

/// The die modifiers of a shot, line by line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HitModifiers {
    active: [bool; MODIFIERS],
    /// *FYOB* Continuous Momentum modifier (0, −1 or −2).
    pub momentum: i8,
}

impl HitModifiers {
    pub fn has(&self, m: Modifier) -> bool {
        self.active[m as usize]
    }

    pub fn total(&self) -> i8 {
        self.active.iter().zip(MODIFIER_TABLE).filter(|(on, _)| **on).map(|(_, (_, v, _, _))| v).sum::<i8>()
            + self.momentum
    }
}

/// The shot worked out before any die is thrown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HitAssessment {
    pub band: Band,
    pub modifiers: HitModifiers,
    /// The modified score that hits.
    pub needed: u8,
    /// Dice thrown, before SMG re-rolls.
    pub shots: u8,
    pub reroll_misses: bool,
}

impl HitAssessment {
    /// Exact chance one shot hits (an SMG's re-roll included).
    pub fn chance_each(&self) -> f64 {
        let p = chance_d6(self.needed, self.modifiers.total());
        if self.reroll_misses { p + (1.0 - p) * p } else { p }
    }

    /// Exact chance of each number of hits, 0..=shots.
    pub fn hits_distribution(&self) -> Vec<f64> {
        binomial(self.shots, self.chance_each())
    }
}

/// Chance that a D6 plus `modifier` reaches `needed`.
pub fn chance_d6(needed: u8, modifier: i8) -> f64 {
    let faces = (1..=6i16).filter(|f| f + i16::from(modifier) >= i16::from(needed)).count();
    faces as f64 / 6.0
}

/// Chance of each number of successes in `n` independent tries of chance `p`.
pub fn binomial(n: u8, p: f64) -> Vec<f64> {
    let mut dist = vec![0.0; usize::from(n) + 1];
    dist[0] = 1.0;
    for i in 1..=usize::from(n) {
        for k in (0..=i).rev() {
            dist[k] = dist[k] * (1.0 - p) + if k > 0 { dist[k - 1] * p } else { 0.0 };
        }
    }
    dist
}

/// Works out band, modifiers and the score needed, throwing nothing.
pub fn assess_open_sights(fire: &OpenSightsFire) -> Result<HitAssessment, FireError> {
    let row = fire.weapon.row();
    let howitzer = match row.procedure {
        Procedure::OpenSights => false,
        Procedure::Howitzer => true,
        _ => return Err(FireError::WrongProcedure(fire.weapon)),
    };
    if fire.weapons == 0 || fire.weapons > MAX_TEAM {
        return Err(FireError::TeamSize(fire.weapons));
    }
    if fire.sniper && fire.weapon != Weapon::Rifle {
        return Err(FireError::SniperNeedsRifle);
    }
    let momentum = match fire.momentum.validate() {
        Ok(m) => m.open_sights_modifier().ok_or(FireError::MomentumForbids)?,
        Err(_) => return Err(FireError::CmsOutOfRange(fire.momentum.cms)),
    };
    let range = if fire.he { row.he_range.unwrap_or(row.range) } else { row.range };
    let band = range.band(fire.distance)?;
    use FireTarget as T;
    let fits = match fire.cover {
        Cover::Open | Cover::Soft => true,
        Cover::Hard => matches!(fire.target, T::Infantry | T::Csw | T::Artillery),
        Cover::Pillbox => matches!(fire.target, T::Infantry | T::Csw),
        Cover::HullDown => fire.target == T::Afv,
    };
    if !fits {
        return Err(FireError::CoverDoesNotFit);
    }
    let mut active = [false; MODIFIERS];
    let mut on = |m: Modifier, cond: bool| active[m as usize] = cond;
    on(Modifier::ShortRange, band == Band::Short);
    on(Modifier::LongRange, band == Band::Long && !fire.sniper);
    on(Modifier::SecondShot, fire.second_shot_same_position && !fire.target_moving);
    // AT fire is an Attack Value weapon shooting at a vehicle.
    let at_fire = row.attack.iter().any(Option::is_some) && matches!(fire.target, T::Afv | T::SoftSkin);
    on(Modifier::Aimed, fire.aimed && (fire.he || at_fire));
    on(Modifier::Bridge, fire.target == T::Bridge);
    on(Modifier::Building, fire.target == T::Building);
    on(Modifier::InOpen, fire.cover == Cover::Open);
    on(Modifier::HullDown, fire.cover == Cover::HullDown);
    on(Modifier::HardCover, matches!(fire.cover, Cover::Hard | Cover::Pillbox) && !fire.sniper);
    on(Modifier::Pillbox, fire.cover == Cover::Pillbox);
    on(Modifier::UnobservedAutospot, fire.unobserved_autospot);
    on(Modifier::FiringOnMove, fire.firing_on_move && !row.move_and_fire);
    on(Modifier::TargetMoving, fire.target_moving);
    on(Modifier::EliteFirer, fire.firer_quality == Quality::Elite);
    on(Modifier::PoorFirer, fire.firer_quality == Quality::Poor);
    on(Modifier::Smoke, fire.smoke);
    if howitzer {
        // "Artillery firing HE over open sights ... only consider modifiers for cover and movement."
        // Reading: a smoke round is not HE, and "Firing smoke" adds its +2 "as usual".
        // Reading: the aim is kept, for FYOB "Act", (iv) gives the Act to "'aim' a
        // HE/AT shot when firing an artillery piece", and FYOB governs the solo game
        // (test `howitzer_over_open_sights_keeps_only_cover_movement_and_the_aim`).
        for (flag, (_, _, kind, _)) in active.iter_mut().zip(MODIFIER_TABLE) {
            *flag &= matches!(kind, Kind::Cover | Kind::Movement | Kind::Smoke | Kind::Aim);
        }
    }
    let full = match row.shots {
        Shots::PerBound(n) => n,
        Shots::PerBarrel => 1,
    };
    let each = fire.shots_each.map_or(full, |s| s.min(full));
    Ok(HitAssessment {
        band,
        modifiers: HitModifiers { active, momentum },
        needed: if fire.sniper { SNIPER_HIT } else { OPEN_SIGHTS_HIT },
        shots: each * fire.weapons,
        reroll_misses: row.reroll_misses,
    })
}

/// A thrown volley.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Volley {
    pub fire: OpenSightsFire,
    pub assessment: HitAssessment,
    faces: [u8; MAX_VOLLEY],
    rerolls: [u8; MAX_VOLLEY],
    rerolled: u8,
    pub hits: u8,
}

impl Volley {
    /// The first throw of each shot.
    pub fn faces(&self) -> &[u8] {
        &self.faces[..usize::from(self.assessment.shots)]
    }

    /// SMG re-rolls of the misses.
    pub fn rerolls(&self) -> &[u8] {
        &self.rerolls[..usize::from(self.rerolled)]
    }

    /// The `fire` event, built on demand.
    pub fn event(&self) -> RuleEvent {
        let a = &self.assessment;
        let mut e = RuleEvent::new(EventKind::Fire, RuleRef::new(Book::HeroesAll, "How to fire weapons"))
            .input("weapon", self.fire.weapon.row().name, "")
            .input("band", a.band, format!("{} inches", self.fire.distance.get()))
            .input("shots", a.shots, "weapons x shots per bound");
        for (i, (name, value, _, reason)) in MODIFIER_TABLE.iter().enumerate() {
            if a.modifiers.active[i] {
                e = e.input(*name, value, *reason);
            }
        }
        if a.modifiers.momentum != 0 {
            e = e.input("momentum", a.modifiers.momentum, "FYOB Continuous Momentum: -1 to fire over open sights");
        }
        e.input(
            "needed",
            a.needed,
            if self.fire.sniper { "snipers need 4+" } else { "a result of 5 or more scores a hit" },
        )
        .dice(6, self.faces())
        .dice(6, self.rerolls())
        .outcome(serde_json::json!({ "hits": self.hits }))
    }
}

/// Throws a volley over open sights: one D6 per shot, each hitting when the
/// die plus modifiers reaches the score needed; an SMG re-rolls each miss once.
pub fn fire_open_sights(fire: &OpenSightsFire, dice: &mut impl Roll) -> Result<Volley, FireError> {
    let assessment = assess_open_sights(fire)?;
    let m = i16::from(assessment.modifiers.total());
    let hits_on = |face: u8| i16::from(face) + m >= i16::from(assessment.needed);
    let mut v =
        Volley { fire: *fire, assessment, faces: [0; MAX_VOLLEY], rerolls: [0; MAX_VOLLEY], rerolled: 0, hits: 0 };
    for i in 0..usize::from(assessment.shots) {
        let face = dice.d6();
        v.faces[i] = face;
        if hits_on(face) {
            v.hits += 1;
        } else if assessment.reroll_misses {
            let again = dice.d6();
            v.rerolls[usize::from(v.rerolled)] = again;
            v.rerolled += 1;
            v.hits += u8::from(hits_on(again));
        }
    }
    Ok(v)
}

/// *Heroes All*, Weapons table notes, "Crewed": a D6 for each missing man,
/// every one 3+ for full rate; otherwise a 1-shot weapon cannot fire and a
/// weapon of 2 or more shots fires once. Returns the shots allowed and the faces.
pub fn crew_check(weapon: Weapon, missing: u8, dice: &mut impl Roll) -> (u8, RuleEvent) {
    let row = weapon.row();
    let full = match row.shots {
        Shots::PerBound(n) => n,
        Shots::PerBarrel => 1,
    };
    let mut faces = [0u8; 16];
    let thrown = usize::from(if row.crewed { missing.min(16) } else { 0 });
    for f in faces.iter_mut().take(thrown) {
        *f = dice.d6();
    }
    let full_rate = faces[..thrown].iter().all(|&f| f >= 3);
    let shots = if full_rate { full } else { u8::from(full >= 2) };
    let event = RuleEvent::new(EventKind::Fire, RuleRef::new(Book::HeroesAll, "Weapons table notes: Crewed"))
        .input("weapon", row.name, "")
        .input(
            "missing_crew",
            missing,
            if row.crewed { "a D6 per missing man, every one 3+" } else { "not a crewed weapon" },
        )
        .dice(6, &faces[..thrown])
        .outcome(serde_json::json!({ "shots": shots }));
    (shots, event)
}

/// How the fire already laid on this target stands (*Heroes All*, "Indirect Fire").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ranging {
    /// No earlier shot at this target (or it did not stay put).
    #[default]
    First,
    /// The `shot`th shot (2, 3, …) at the same static target, no hit yet:
    /// "+1 to the die. A third shot gets +2 and a fourth +3 etc."
    Ladder { shot: u8 },
    /// A hit already achieved: 2+ on all subsequent mortar/HE shots.
    OnTarget,
}

/// How the target moved this bound, for indirect fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IndirectMove {
    #[default]
    Static,
    /// Moved 3 inches or less.
    UpTo3,
    /// Moved more than 3 inches: −1 to the die.
    Over3,
}

/// *Heroes All*, "Firing smoke": "If a hit is obtained, place 3 x 1 inch
/// smokeballs on this spot for 2 bounds." Where it blocks sight is the
/// table's geometry (an observer looking through it has
/// [`crate::observation::Between::sight_blocked`]).
///
/// Reading: the 2 bounds are the bound it is fired in and the next; it is
/// gone at the start of the one after (test `smoke_screen_three_balls_for_two_bounds`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SmokeScreen {
    /// The bound the smoke round hit.
    pub fired_in: u32,
}

impl SmokeScreen {
    /// "3 x 1 inch smokeballs".
    pub const BALLS: u8 = 3;
    /// Each smokeball's size, in inches.
    pub const BALL_INCHES: f32 = 1.0;
    /// "for 2 bounds".
    pub const BOUNDS: u32 = 2;

    /// Whether the smoke still stands in `bound`.
    pub fn stands_in(&self, bound: u32) -> bool {
        bound >= self.fired_in && bound - self.fired_in < Self::BOUNDS
    }
}

/// One indirect shot (mortar, RGL, rockets, howitzer off open sights).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct IndirectFire {
    pub weapon: Weapon,
    pub distance: crate::inches::Inches,
    pub smoke: bool,
    pub ranging: Ranging,
    pub target_moved: IndirectMove,
    /// Inches the fire is walked from the last point of aim.
    pub walked: f32,
    /// Inches the crew stands inside a wood.
    pub crew_in_wood: f32,
}

/// An indirect shot worked out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct IndirectAssessment {
    /// Score needed on the die before modifiers.
    pub needed: u8,
    pub modifier: i8,
    /// Why `needed` has its value.
    pub basis: &'static str,
}

impl IndirectAssessment {
    pub fn chance(&self) -> f64 {
        chance_d6(self.needed, self.modifier)
    }
}

/// *Heroes All*, "Indirect Fire" and "Firing smoke".
///
/// Readings (docs/rules-readings.md): the ladder bonus needs a static
/// target; once on target, a target that moved more than 3 inches or fire
/// walked more than 3 inches loses the 2+/3+ and is fired at afresh; smoke
/// "fire as usual with a +2" adds its +2 to the smoke shell's 4+.
pub fn assess_indirect(fire: &IndirectFire) -> Result<IndirectAssessment, FireError> {
    let row = fire.weapon.row();
    let (light, rockets) = match row.procedure {
        Procedure::Mortar { light } => (light, false),
        Procedure::Howitzer => (false, false),
        Procedure::Rockets => (false, true),
        _ => return Err(FireError::WrongProcedure(fire.weapon)),
    };
    if !(fire.walked.is_finite() && fire.walked >= 0.0 && fire.crew_in_wood.is_finite() && fire.crew_in_wood >= 0.0) {
        return Err(FireError::BadDistance);
    }
    if fire.crew_in_wood > 3.0 {
        return Err(FireError::CrewInWood);
    }
    row.range.band(fire.distance)?;
    let moved_far = fire.target_moved == IndirectMove::Over3 || fire.walked > 3.0;
    let smoke = if fire.smoke { 2 } else { 0 };
    let moved = if fire.target_moved == IndirectMove::Over3 { -1 } else { 0 };
    let a = match fire.ranging {
        _ if rockets => {
            IndirectAssessment { needed: 5, modifier: moved, basis: "rockets need 5+ for every shot fired" }
        }
        Ranging::OnTarget if !moved_far => {
            if fire.target_moved == IndirectMove::UpTo3 || fire.walked > 0.0 {
                IndirectAssessment {
                    needed: 3,
                    modifier: smoke,
                    basis: "on target, moved or walked 3 inches or less: 3+",
                }
            } else {
                IndirectAssessment { needed: 2, modifier: smoke, basis: "a hit achieved: 2+ on subsequent shots" }
            }
        }
        ranging => {
            let ladder = match ranging {
                Ranging::Ladder { shot } if fire.target_moved == IndirectMove::Static && fire.walked == 0.0 => {
                    shot.saturating_sub(1).min(10) as i8
                }
                _ => 0,
            };
            let (needed, basis) = if light || fire.smoke {
                (4, "4+ (light mortars and smoke shells)")
            } else {
                (5, "5+ (other mortars, HE fire and rockets)")
            };
            IndirectAssessment { needed, modifier: moved + ladder + smoke, basis }
        }
    };
    Ok(a)
}

/// Throws one indirect shot; returns whether it hit and its `fire` event.
pub fn fire_indirect(fire: &IndirectFire, dice: &mut impl Roll) -> Result<(bool, RuleEvent), FireError> {
    let a = assess_indirect(fire)?;
    let face = dice.d6();
    let hit = i16::from(face) + i16::from(a.modifier) >= i16::from(a.needed);
    let event = RuleEvent::new(EventKind::Fire, RuleRef::new(Book::HeroesAll, "Indirect Fire"))
        .input("weapon", fire.weapon.row().name, "")
        .input("needed", a.needed, a.basis)
        .input("target_moved", fire.target_moved, "how far the target moved on this bound")
        .input("walked", fire.walked, "inches the fire is walked from its last point of aim")
        .input(
            "modifier",
            a.modifier,
            "-1 target moved more than 3 inches; ladder +1 per earlier shot at a static target; +2 smoke",
        )
        .dice(6, &[face])
        .outcome(serde_json::json!({ "hit": hit }));
    Ok((hit, event))
}

/// *Heroes All*, "Flame weapons": an automatic hit within range. Returns the
/// Attack Value (against armour and soft-skins) and the HE column (against
/// infantry and buildings).
pub fn fire_flame(weapon: Weapon, distance: crate::inches::Inches) -> Result<(i8, HeColumn, RuleEvent), FireError> {
    let row = weapon.row();
    let (Procedure::Flame, Some(attack), Some(he)) = (row.procedure, row.attack_at(Band::Effective), row.he) else {
        return Err(FireError::WrongProcedure(weapon));
    };
    row.range.band(distance)?;
    let event = RuleEvent::new(EventKind::Fire, RuleRef::new(Book::HeroesAll, "Flame weapons"))
        .input("weapon", row.name, "")
        .input("distance", distance, "automatic hit if fired within range")
        .outcome(serde_json::json!({ "hit": true, "attack": attack, "he": he }));
    Ok((attack, he, event))
}

/// *Heroes All*, Close assaults: "For every 3 figures attacking, they throw 1
/// grenade" (the example: 7 figures throw 2). AT grenades against closed AFVs
/// are likewise "a D10 per 3 figures".
pub const fn grenades(figures: u8) -> u8 {
    figures / 3
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Scripted};

    #[test]
    fn every_row_is_in_the_books_order_and_indexed_by_its_weapon() {
        for (i, r) in WEAPONS.iter().enumerate() {
            assert_eq!(r.weapon as usize, i, "{}", r.name);
            assert_eq!(r.weapon.row().name, r.name);
        }
    }

    #[test]
    fn table_rows_match_the_book() {
        let r = Weapon::Rifle.row();
        assert_eq!(r.range, bands(Some(12), 24, Some(Inches(36))));
        assert!(r.move_and_fire);
        assert_eq!(Weapon::Smg.row().range.band(crate::inches::Inches(12.0)), Ok(Band::Effective));
        assert!(Weapon::Smg.row().reroll_misses);
        assert_eq!(Weapon::Lmg.row().shots, Shots::PerBound(3));
        assert!(Weapon::Lmg.row().crewed && !Weapon::Lmg.row().is_immobile(true));
        assert_eq!(Weapon::Mmg.row().shots, Shots::PerBound(4));
        assert!(Weapon::Mmg.row().is_immobile(false));
        assert_eq!(Weapon::Hmg.row().attack, av(4, 1, -3));
        assert_eq!(Weapon::PzSchreck.row().attack_at(Band::Short), Some(11));
        assert_eq!(Weapon::PzFaust.row().attack_at(Band::Effective), Some(11));
        assert_eq!(Weapon::AtGunClass2.row().attack, av(11, 8, 1));
        assert_eq!(Weapon::AtGunClass5.row().attack, av(20, 17, 9));
        assert!(Weapon::AtGunClass3.row().crewed && Weapon::AtGunClass3.row().is_immobile(false));
        assert_eq!(Weapon::MediumMortar.row().range, Span { min: 6, max: Inches(48) });
        assert_eq!(Weapon::HeavyMortar.row().he, Some(HeColumn::D));
        assert_eq!(Weapon::Rockets.row().shots, Shots::PerBarrel);
        assert_eq!(Weapon::Howitzer149.row().he, Some(HeColumn::E));
        assert_eq!(
            Weapon::Howitzer150Plus.row().range.band(crate::inches::Inches(70.0)),
            Ok(Band::Long),
            "table: anything at long range"
        );
        assert_eq!(Weapon::VehicleFlamethrower.row().attack_at(Band::Effective), Some(4));
        assert_eq!(Weapon::HandGrenades.row().he, Some(HeColumn::G1));
        assert_eq!(Weapon::LightMortar.row().procedure, Procedure::Mortar { light: true });
        assert_eq!(
            Weapon::RifleGrenadeLauncher.row().procedure,
            Procedure::Mortar { light: true },
            "fired as per a light mortar"
        );
    }

    #[test]
    fn autocannon_rows_share_their_note() {
        for w in [Weapon::AutocannonLight, Weapon::AutocannonHeavy] {
            let r = w.row();
            assert!(r.crewed && r.is_immobile(true) && !r.is_immobile(false));
            assert_eq!(r.he_range.unwrap().band(crate::inches::Inches(40.0)), Ok(Band::Effective));
        }
        let f = OpenSightsFire {
            weapon: Weapon::AutocannonLight,
            distance: crate::inches::Inches(40.0),
            ..OpenSightsFire::default()
        };
        assert_eq!(assess_open_sights(&f), Err(FireError::OutOfRange), "AT range ends at 36");
        assert_eq!(assess_open_sights(&OpenSightsFire { he: true, ..f }).unwrap().band, Band::Effective);
    }

    #[test]
    fn range_bands_and_limits() {
        let rifle = Weapon::Rifle.row().range;
        assert_eq!(rifle.band(crate::inches::Inches(12.0)), Ok(Band::Short));
        assert_eq!(rifle.band(crate::inches::Inches(12.5)), Ok(Band::Effective));
        assert_eq!(rifle.band(crate::inches::Inches(36.0)), Ok(Band::Long));
        assert_eq!(rifle.band(crate::inches::Inches(36.5)), Err(FireError::OutOfRange));
        assert_eq!(Weapon::Pistol.row().range.band(crate::inches::Inches(4.0)), Err(FireError::OutOfRange));
        assert_eq!(Weapon::LightMortar.row().range.band(crate::inches::Inches(5.0)), Err(FireError::TooClose));
        assert_eq!(rifle.band(crate::inches::Inches(-1.0)), Err(FireError::BadDistance));
        assert_eq!(rifle.band(crate::inches::Inches(f32::NAN)), Err(FireError::BadDistance));
    }

    fn total(fire: OpenSightsFire) -> i8 {
        assess_open_sights(&fire).unwrap().modifiers.total()
    }

    #[test]
    fn smoke_screen_three_balls_for_two_bounds() {
        // "fire as usual with a +2 hit modifier on the D6".
        let base = OpenSightsFire {
            weapon: Weapon::AtGunClass2,
            distance: crate::inches::Inches(30.0),
            ..OpenSightsFire::default()
        };
        assert_eq!(total(OpenSightsFire { smoke: true, ..base }), total(base) + 2);
        // A howitzer over open sights keeps only cover and movement, and the smoke's +2.
        let how = OpenSightsFire {
            weapon: Weapon::Howitzer104,
            distance: crate::inches::Inches(20.0),
            ..OpenSightsFire::default()
        };
        assert_eq!(total(OpenSightsFire { smoke: true, ..how }), total(how) + 2);
        let s = SmokeScreen { fired_in: 5 };
        assert_eq!((SmokeScreen::BALLS, SmokeScreen::BALL_INCHES), (3, 1.0));
        assert!(!s.stands_in(4));
        assert!(s.stands_in(5) && s.stands_in(6));
        assert!(!s.stands_in(7), "gone after 2 bounds");
    }

    #[test]
    fn only_guns_and_mortars_fire_smoke() {
        // "A smoke round counts as one round of the guns allocation";
        // "(light mortars and smoke shells only)".
        for w in [Weapon::LightMortar, Weapon::MediumMortar, Weapon::HeavyMortar, Weapon::Howitzer75] {
            assert!(w.fires_smoke(), "{w:?}");
        }
        for w in [Weapon::Rifle, Weapon::AtGunClass2, Weapon::Rockets, Weapon::RifleGrenadeLauncher, Weapon::Piat] {
            assert!(!w.fires_smoke(), "{w:?}");
        }
    }

    #[test]
    fn a_volley_logs_its_hit_modifiers_under_their_names() {
        let names: Vec<&str> = hit_modifiers().collect();
        assert_eq!(names.len(), MODIFIERS);
        assert_eq!((names[0], names[3], names[15]), ("short_range", "aimed", "smoke"));
        let f = OpenSightsFire {
            distance: crate::inches::Inches(30.0),
            cover: Cover::Hard,
            firer_quality: Quality::Elite,
            ..Default::default()
        };
        let e = fire_open_sights(&f, &mut Scripted::new([6])).unwrap().event();
        let logged: Vec<&str> = e.inputs.iter().map(|i| i.name.as_str()).filter(|n| names.contains(n)).collect();
        assert_eq!(logged, ["long_range", "hard_cover", "elite_firer"]);
    }

    #[test]
    fn each_hit_modifier_by_the_book() {
        let base = OpenSightsFire { distance: crate::inches::Inches(20.0), ..OpenSightsFire::default() };
        assert_eq!(total(base), 0);
        assert_eq!(total(OpenSightsFire { distance: crate::inches::Inches(10.0), ..base }), 1, "short range");
        assert_eq!(total(OpenSightsFire { distance: crate::inches::Inches(30.0), ..base }), -1, "long range");
        assert_eq!(total(OpenSightsFire { cover: Cover::Open, ..base }), 1);
        assert_eq!(total(OpenSightsFire { cover: Cover::Hard, ..base }), -1);
        assert_eq!(total(OpenSightsFire { target: FireTarget::Building, ..base }), 3);
        assert_eq!(total(OpenSightsFire { target: FireTarget::Bridge, ..base }), 2);
        assert_eq!(total(OpenSightsFire { target: FireTarget::Afv, cover: Cover::HullDown, ..base }), -1);
        assert_eq!(total(OpenSightsFire { unobserved_autospot: true, ..base }), 1);
        assert_eq!(total(OpenSightsFire { target_moving: true, ..base }), -1);
        assert_eq!(total(OpenSightsFire { second_shot_same_position: true, ..base }), 1);
        assert_eq!(
            total(OpenSightsFire { second_shot_same_position: true, target_moving: true, ..base }),
            -1,
            "only at a stationary target"
        );
        assert_eq!(total(OpenSightsFire { firer_quality: Quality::Elite, ..base }), 1);
        assert_eq!(total(OpenSightsFire { firer_quality: Quality::Poor, ..base }), -1);
        assert_eq!(total(OpenSightsFire { firing_on_move: true, ..base }), 0, "rifles move and fire without penalty");
        assert_eq!(total(OpenSightsFire { weapon: Weapon::Lmg, firing_on_move: true, ..base }), -1);
        assert_eq!(total(OpenSightsFire { aimed: true, ..base }), 0, "the aim bonus is for AT/HE");
        assert_eq!(
            total(OpenSightsFire { weapon: Weapon::Hmg, aimed: true, distance: crate::inches::Inches(30.0), ..base }),
            0,
            "an HMG at infantry is not AT fire"
        );
        let at = OpenSightsFire { weapon: Weapon::AtGunClass2, target: FireTarget::Afv, ..base };
        assert_eq!(total(OpenSightsFire { aimed: true, ..at }), 1);
        assert_eq!(
            total(OpenSightsFire { momentum: Momentum { cms: 4, failures: 1 }, ..base }),
            -2,
            "FYOB: CMS 4 and 1-2 failures"
        );
        assert_eq!(
            assess_open_sights(&OpenSightsFire { momentum: Momentum { cms: 3, failures: 0 }, ..base }),
            Err(FireError::MomentumForbids)
        );
        assert_eq!(
            assess_open_sights(&OpenSightsFire { momentum: Momentum { cms: 6, failures: 3 }, ..base }),
            Err(FireError::MomentumForbids)
        );
    }

    #[test]
    fn pillbox_is_hard_cover_and_more() {
        let f = OpenSightsFire {
            distance: crate::inches::Inches(20.0),
            cover: Cover::Pillbox,
            ..OpenSightsFire::default()
        };
        let m = assess_open_sights(&f).unwrap().modifiers;
        assert!(m.has(Modifier::Pillbox) && m.has(Modifier::HardCover));
        assert_eq!(m.total(), -2);
        assert_eq!(
            assess_open_sights(&OpenSightsFire { target: FireTarget::Afv, ..f }),
            Err(FireError::CoverDoesNotFit)
        );
        assert_eq!(
            assess_open_sights(&OpenSightsFire { target: FireTarget::Infantry, cover: Cover::HullDown, ..f }),
            Err(FireError::CoverDoesNotFit)
        );
    }

    #[test]
    fn sniper_needs_four_and_ignores_long_range_and_hard_cover() {
        let f = OpenSightsFire {
            distance: crate::inches::Inches(30.0),
            cover: Cover::Hard,
            sniper: true,
            ..OpenSightsFire::default()
        };
        let a = assess_open_sights(&f).unwrap();
        assert_eq!((a.needed, a.modifiers.total()), (4, 0));
        assert!(fire_open_sights(&f, &mut Scripted::new([4])).unwrap().hits == 1);
        assert!(fire_open_sights(&f, &mut Scripted::new([3])).unwrap().hits == 0);
        assert_eq!(
            assess_open_sights(&OpenSightsFire { weapon: Weapon::Smg, distance: crate::inches::Inches(5.0), ..f }),
            Err(FireError::SniperNeedsRifle)
        );
    }

    #[test]
    fn howitzer_over_open_sights_keeps_only_cover_movement_and_the_aim() {
        let f = OpenSightsFire {
            weapon: Weapon::Howitzer104,
            he: true,
            distance: crate::inches::Inches(20.0), // short range: ignored
            aimed: true,                           // kept: FYOB "aim a HE/AT shot when firing an artillery piece"
            firer_quality: Quality::Elite,         // ignored
            cover: Cover::Open,
            target_moving: true,
            ..OpenSightsFire::default()
        };
        let m = assess_open_sights(&f).unwrap().modifiers;
        assert!(m.has(Modifier::InOpen) && m.has(Modifier::TargetMoving) && m.has(Modifier::Aimed));
        assert!(!m.has(Modifier::ShortRange) && !m.has(Modifier::EliteFirer));
        assert_eq!(m.total(), 1);
        assert_eq!(assess_open_sights(&OpenSightsFire { aimed: false, ..f }).unwrap().modifiers.total(), 0);
        let mortar = OpenSightsFire { weapon: Weapon::MediumMortar, ..f };
        assert_eq!(assess_open_sights(&mortar), Err(FireError::WrongProcedure(Weapon::MediumMortar)));
    }

    #[test]
    fn volley_throws_a_die_per_shot_and_five_hits() {
        // The QLD example: an MMG's 5s hit at effective range with no modifiers.
        let f = OpenSightsFire {
            weapon: Weapon::Mmg,
            distance: crate::inches::Inches(30.0),
            target: FireTarget::SoftSkin,
            ..OpenSightsFire::default()
        };
        let v = fire_open_sights(&f, &mut Scripted::new([5, 5, 4, 1])).unwrap();
        assert_eq!(v.faces(), [5, 5, 4, 1], "the table gives the MMG 4 shots");
        assert_eq!(v.hits, 2);
        let team = OpenSightsFire { weapons: 8, distance: crate::inches::Inches(20.0), ..OpenSightsFire::default() };
        let v = fire_open_sights(&team, &mut Scripted::new([1, 2, 3, 4, 5, 6, 5, 4])).unwrap();
        assert_eq!(v.hits, 3);
        assert_eq!(assess_open_sights(&OpenSightsFire { weapons: 11, ..team }), Err(FireError::TeamSize(11)));
        let e = v.event();
        assert_eq!(e.kind, EventKind::Fire);
        assert_eq!(e.dice.len(), 8);
        assert_eq!(e.outcome["hits"], 3);
    }

    #[test]
    fn smg_rerolls_each_miss_once() {
        let f = OpenSightsFire {
            weapon: Weapon::Smg,
            weapons: 3,
            distance: crate::inches::Inches(8.0),
            ..OpenSightsFire::default()
        };
        let v = fire_open_sights(&f, &mut Scripted::new([6, 2, 5, 3, 1])).unwrap();
        assert_eq!(v.faces(), [6, 2, 3]);
        assert_eq!(v.rerolls(), [5, 1]);
        assert_eq!(v.hits, 2);
        let p = assess_open_sights(&f).unwrap().chance_each();
        assert!((p - (1.0 / 3.0 + 2.0 / 3.0 / 3.0)).abs() < 1e-12);
    }

    #[test]
    fn short_crewed_weapons_fire_less() {
        let (shots, _) = crew_check(Weapon::Mmg, 2, &mut Scripted::new([3, 6]));
        assert_eq!(shots, 4, "every die 3+: full rate");
        let (shots, e) = crew_check(Weapon::Mmg, 2, &mut Scripted::new([2, 6]));
        assert_eq!(shots, 1, "2 or more shots fire once");
        assert_eq!(e.dice.len(), 2);
        assert_eq!(crew_check(Weapon::AtGunClass3, 1, &mut Scripted::new([1])).0, 0, "1 shot cannot fire");
        assert_eq!(crew_check(Weapon::Rifle, 1, &mut Scripted::new([])).0, 1, "not crewed");
        let f = OpenSightsFire {
            weapon: Weapon::Mmg,
            shots_each: Some(1),
            distance: crate::inches::Inches(30.0),
            ..OpenSightsFire::default()
        };
        assert_eq!(assess_open_sights(&f).unwrap().shots, 1);
    }

    #[test]
    fn indirect_fire_needs_by_the_book() {
        let base = IndirectFire {
            weapon: Weapon::MediumMortar,
            distance: crate::inches::Inches(30.0),
            smoke: false,
            ranging: Ranging::First,
            target_moved: IndirectMove::Static,
            walked: 0.0,
            crew_in_wood: 0.0,
        };
        let need = |f: IndirectFire| {
            let a = assess_indirect(&f).unwrap();
            (a.needed, a.modifier)
        };
        assert_eq!(need(base), (5, 0), "other mortars 5+");
        assert_eq!(
            need(IndirectFire { weapon: Weapon::LightMortar, distance: crate::inches::Inches(20.0), ..base }),
            (4, 0)
        );
        assert_eq!(
            need(IndirectFire { weapon: Weapon::RifleGrenadeLauncher, distance: crate::inches::Inches(10.0), ..base }),
            (4, 0)
        );
        assert_eq!(need(IndirectFire { target_moved: IndirectMove::Over3, ..base }), (5, -1));
        assert_eq!(need(IndirectFire { ranging: Ranging::Ladder { shot: 2 }, ..base }), (5, 1));
        assert_eq!(need(IndirectFire { ranging: Ranging::Ladder { shot: 4 }, ..base }), (5, 3), "a fourth shot +3");
        assert_eq!(
            need(IndirectFire { ranging: Ranging::Ladder { shot: 3 }, target_moved: IndirectMove::UpTo3, ..base }),
            (5, 0),
            "the ladder needs a static target"
        );
        assert_eq!(need(IndirectFire { ranging: Ranging::OnTarget, ..base }), (2, 0));
        assert_eq!(
            need(IndirectFire { ranging: Ranging::OnTarget, target_moved: IndirectMove::UpTo3, ..base }),
            (3, 0)
        );
        assert_eq!(need(IndirectFire { ranging: Ranging::OnTarget, walked: 3.0, ..base }), (3, 0));
        assert_eq!(
            need(IndirectFire { ranging: Ranging::OnTarget, walked: 3.5, ..base }),
            (5, 0),
            "walked too far: afresh"
        );
        assert_eq!(
            need(IndirectFire { ranging: Ranging::OnTarget, target_moved: IndirectMove::Over3, ..base }),
            (5, -1)
        );
        assert_eq!(
            need(IndirectFire { weapon: Weapon::Rockets, ranging: Ranging::OnTarget, ..base }),
            (5, 0),
            "rockets 5+ every shot"
        );
        assert_eq!(
            need(IndirectFire { weapon: Weapon::Howitzer149, distance: crate::inches::Inches(70.0), ..base }),
            (5, 0),
            "HE fire 5+"
        );
        assert_eq!(need(IndirectFire { smoke: true, ..base }), (4, 2), "smoke shells 4+, and +2");
        assert_eq!(assess_indirect(&IndirectFire { crew_in_wood: 3.5, ..base }), Err(FireError::CrewInWood));
        assert_eq!(
            assess_indirect(&IndirectFire { weapon: Weapon::Rifle, ..base }),
            Err(FireError::WrongProcedure(Weapon::Rifle))
        );
        let (hit, e) = fire_indirect(&base, &mut Scripted::new([5])).unwrap();
        assert!(hit && e.dice.len() == 1);
        assert!(!fire_indirect(&base, &mut Scripted::new([4])).unwrap().0);
        assert!(
            fire_indirect(&IndirectFire { ranging: Ranging::OnTarget, ..base }, &mut Scripted::new([2])).unwrap().0
        );
    }

    #[test]
    fn flame_hits_automatically_within_range() {
        let (attack, he, e) = fire_flame(Weapon::ManpackFlamethrower, crate::inches::Inches(6.0)).unwrap();
        assert_eq!((attack, he), (3, HeColumn::C));
        assert_eq!(e.outcome["hit"], true);
        assert!(e.dice.is_empty());
        assert_eq!(
            fire_flame(Weapon::ManpackFlamethrower, crate::inches::Inches(6.5)).unwrap_err(),
            FireError::OutOfRange
        );
        assert_eq!(fire_flame(Weapon::VehicleFlamethrower, crate::inches::Inches(12.0)).unwrap().1, HeColumn::D);
        assert!(fire_flame(Weapon::Rifle, crate::inches::Inches(1.0)).is_err());
    }

    #[test]
    fn seven_figures_throw_two_grenades() {
        assert_eq!(grenades(7), 2);
        assert_eq!(grenades(2), 0, "2 Germans cannot assault with AT grenades: 3 figures are required");
        assert_eq!(grenades(9), 3);
    }

    #[test]
    fn hit_odds_exact_and_sampled() {
        assert!((chance_d6(5, 0) - 1.0 / 3.0).abs() < 1e-12);
        assert!((chance_d6(5, 3) - 5.0 / 6.0).abs() < 1e-12);
        assert!((chance_d6(5, 4) - 1.0).abs() < 1e-12);
        assert!((chance_d6(5, -4) - 0.0).abs() < 1e-12);
        let d = binomial(2, 1.0 / 3.0);
        assert!((d[0] - 4.0 / 9.0).abs() < 1e-12 && (d[2] - 1.0 / 9.0).abs() < 1e-12);
        let f = OpenSightsFire {
            weapon: Weapon::Smg,
            weapons: 4,
            distance: crate::inches::Inches(6.0),
            cover: Cover::Hard,
            ..OpenSightsFire::default()
        };
        let a = assess_open_sights(&f).unwrap();
        let exact = a.hits_distribution();
        assert!((exact.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let mut dice = Dice::new(99);
        let n = 100_000;
        let mut seen = [0u32; 5];
        for _ in 0..n {
            seen[usize::from(fire_open_sights(&f, &mut dice).unwrap().hits)] += 1;
        }
        for k in 0..5 {
            let freq = f64::from(seen[k]) / f64::from(n);
            assert!((freq - exact[k]).abs() < 0.006, "{k} hits: exact {}, sampled {freq}", exact[k]);
        }
    }

    #[test]
    fn hits_never_exceed_shots_over_many_seeds() {
        for seed in 0..300u64 {
            let mut dice = Dice::new(seed);
            let weapon = WEAPONS[usize::from(dice.d12()) % 12].weapon; // rifle .. PzFaust
            let f = OpenSightsFire {
                weapon,
                weapons: dice.d10(),
                distance: crate::inches::Inches(f32::from(dice.d6())),
                cover: [Cover::Open, Cover::Soft, Cover::Hard][usize::from(dice.d3()) - 1],
                firer_quality: Quality::Elite,
                ..OpenSightsFire::default()
            };
            if let Ok(v) = fire_open_sights(&f, &mut dice) {
                assert!(v.hits <= v.assessment.shots);
                assert!(v.rerolls().len() <= v.faces().len());
            }
        }
    }
}
