//! Continuous Momentum (*Fight Your Own Battles*, "Continuous Momentum"):
//! the Momentum Test Charts, test reductions, the results of the tests, the
//! Continuous Momentum Score (CMS) and its effects, and rallying the CMS.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::dice::Roll;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::firing::Cover;
use crate::officer::{CommandGrade, Grade, Officer, Quality, Rank};

/// Every element starts with, and can never exceed, a CMS of 6.
pub const MAX_CMS: u8 = 6;

/// Element types for CM purposes (FYOB "Definitions of element types for CM
/// purposes"); aircraft and boats are not covered by these rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ElementType {
    /// Infantry, CSWs, artillery, engineers; also soft-skins carrying a load.
    Infantry,
    /// Soft-skinned vehicles (empty).
    SoftSkin,
    /// Tanks and other AFVs including armoured transport with weapons.
    Afv,
}

/// A row of a Momentum Test Chart: what happened to the element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CmCause {
    SmallArmsInHardCover,
    SmallArmsInSoftCover,
    SmallArmsInOpen,
    /// Soft-skins: "Under small arms or MG fire".
    SmallArms,
    UnobservedEnemy,
    CasualtyInHardCover,
    CasualtyInSoftCover,
    CasualtyInOpen,
    /// "Under fire from mortar or artillery or dive bomb" (infantry);
    /// "Under mortar or HE fire or from the air" (soft-skins).
    MortarArtilleryOrAir,
    ArmourWithoutAtWeapon,
    ArmourWithAtWeapon,
    Flame,
    TransportDestroyedWhileLoaded,
    NotDeployedFromGroup,
    NcoCasualty,
    Under25PercentStrength,
    Under50PercentStrength,
    AttachedCswLost,
    AttachedCswOutOfAmmunition,
    ArtilleryOutOfAmmunition,
    AttachedAfvLost,
    /// Soft-skins "Under AT fire"; AFVs "Under AT fire from a weapon that can destroy".
    AtFire,
    ClosedAfvUnderHe,
    OpenAfvUnderHe,
    OwnVehicleDamaged,
    UnitVehicleDamaged,
    UnitVehicleDestroyed,
    CoVehicleDestroyed,
    ClosedAfvFlame,
    OpenAfvFlame,
    MainGunOutOfAmmunition,
    SecondaryGunOutOfAmmunition,
    VehicleMmgOutOfAmmunition,
    SupportingInfantryRetired,
}

/// One chart row: tests due for Poor, Regular, Elite (`None` = "n/a"), and
/// whether it is one of the grey rows.
///
/// Reading (README, lost grey colouring): the grey rows are the persistent
/// states — under 25% / 50% strength, out of ammunition, not deployed from a
/// Group. "Those conditions shown in grey ... must be taken into account each
/// time that the element is due to take tests": they are added whenever tests
/// fall due, and do not by themselves make tests due.
#[derive(Debug, Clone, Copy)]
struct ChartRow {
    cause: CmCause,
    tests: [Option<u8>; 3],
    persistent: bool,
}

const fn row(cause: CmCause, poor: u8, regular: u8, elite: u8) -> ChartRow {
    ChartRow { cause, tests: [Some(poor), Some(regular), Some(elite)], persistent: false }
}

const fn grey(cause: CmCause, poor: u8, regular: u8, elite: u8) -> ChartRow {
    ChartRow { cause, tests: [Some(poor), Some(regular), Some(elite)], persistent: true }
}

const fn regular_only(cause: CmCause, regular: u8) -> ChartRow {
    ChartRow { cause, tests: [None, Some(regular), None], persistent: false }
}

use CmCause as C;

/// FYOB "Momentum Test Chart - infantry, CSWs, artillery, engineers etc".
const INFANTRY_CHART: [ChartRow; 20] = [
    row(C::SmallArmsInHardCover, 6, 3, 1),
    row(C::SmallArmsInSoftCover, 10, 5, 2),
    row(C::SmallArmsInOpen, 14, 7, 3),
    row(C::UnobservedEnemy, 6, 3, 1),
    row(C::CasualtyInHardCover, 10, 5, 2),
    row(C::CasualtyInSoftCover, 20, 10, 5),
    row(C::CasualtyInOpen, 30, 15, 7),
    row(C::MortarArtilleryOrAir, 12, 6, 3),
    row(C::ArmourWithoutAtWeapon, 18, 9, 4),
    row(C::ArmourWithAtWeapon, 6, 3, 1),
    row(C::Flame, 24, 12, 6),
    row(C::TransportDestroyedWhileLoaded, 6, 3, 1),
    grey(C::NotDeployedFromGroup, 12, 6, 3),
    row(C::NcoCasualty, 8, 4, 2),
    grey(C::Under25PercentStrength, 24, 12, 6),
    grey(C::Under50PercentStrength, 24, 12, 6),
    row(C::AttachedCswLost, 6, 3, 1),
    grey(C::AttachedCswOutOfAmmunition, 12, 6, 3),
    grey(C::ArtilleryOutOfAmmunition, 18, 9, 4),
    row(C::AttachedAfvLost, 12, 6, 3),
];

/// FYOB "Momentum Test Chart - soft-skinned vehicles". Poor and Elite are
/// "n/a": reading, a soft-skin always tests on the Regular column (an empty
/// transport "will behave as if it were a Regular element").
const SOFT_SKIN_CHART: [ChartRow; 5] = [
    regular_only(C::SmallArms, 5),
    regular_only(C::AtFire, 9),
    regular_only(C::MortarArtilleryOrAir, 4),
    regular_only(C::UnobservedEnemy, 3),
    regular_only(C::Flame, 12),
];

/// FYOB "Momentum Test Chart - AFVs and armoured transport".
const AFV_CHART: [ChartRow; 16] = [
    row(C::AtFire, 6, 3, 1),
    row(C::ClosedAfvUnderHe, 4, 2, 1),
    row(C::OpenAfvUnderHe, 12, 6, 3),
    row(C::UnobservedEnemy, 6, 3, 1),
    row(C::OwnVehicleDamaged, 18, 9, 4),
    row(C::UnitVehicleDamaged, 18, 9, 4),
    row(C::UnitVehicleDestroyed, 36, 18, 8),
    row(C::CoVehicleDestroyed, 8, 4, 2),
    row(C::ClosedAfvFlame, 12, 6, 3),
    row(C::OpenAfvFlame, 24, 12, 6),
    grey(C::NotDeployedFromGroup, 12, 6, 3),
    row(C::NcoCasualty, 8, 4, 2),
    grey(C::MainGunOutOfAmmunition, 18, 9, 4),
    grey(C::SecondaryGunOutOfAmmunition, 12, 6, 3),
    grey(C::VehicleMmgOutOfAmmunition, 12, 6, 3),
    row(C::SupportingInfantryRetired, 18, 9, 4),
];

fn chart(t: ElementType) -> &'static [ChartRow] {
    match t {
        ElementType::Infantry => &INFANTRY_CHART,
        ElementType::SoftSkin => &SOFT_SKIN_CHART,
        ElementType::Afv => &AFV_CHART,
    }
}

/// The rows of `t`'s Momentum Test Chart in the book's order, each with
/// whether it is a grey (persistent) row.
pub fn chart_rows(t: ElementType) -> impl Iterator<Item = (CmCause, bool)> {
    chart(t).iter().map(|r| (r.cause, r.persistent))
}

/// Bad input to a Continuous Momentum rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CmError {
    /// The cause has no row on this element type's chart.
    NotOnChart(ElementType, CmCause),
    /// A grey (persistent) row given as an event, or an event row given as a state.
    WrongKindOfRow(CmCause),
    CmsOutOfRange(u8),
    /// Only Company Officers (and their successors) rally.
    NotACompanyOfficer,
    /// Each element gets at most one rallying throw a bound.
    RalliedTwice(String),
}

impl fmt::Display for CmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CmError::NotOnChart(t, c) => write!(f, "{c:?} is not on the {t:?} Momentum Test Chart"),
            CmError::WrongKindOfRow(c) => write!(f, "{c:?} is in the wrong list (event vs persistent state)"),
            CmError::CmsOutOfRange(v) => write!(f, "a CMS of {v} is outside 0..={MAX_CMS}"),
            CmError::NotACompanyOfficer => write!(f, "only a Company Officer rallies"),
            CmError::RalliedTwice(id) => write!(f, "{id} can have only one rallying throw a bound"),
        }
    }
}

impl std::error::Error for CmError {}

fn chart_row(t: ElementType, cause: CmCause) -> Result<ChartRow, CmError> {
    chart(t).iter().find(|r| r.cause == cause).copied().ok_or(CmError::NotOnChart(t, cause))
}

/// What happened to an element that may make tests due, before the chart is
/// read: the battle says what happened, [`row_for`] on which row of the
/// element's own chart it falls (FYOB "Definitions of element types for CM
/// purposes" and the three Momentum Test Charts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Incident {
    /// Under small arms or MG fire, in this cover.
    SmallArms(Cover),
    /// Under mortar, artillery or other HE fire, under bombs, or in a
    /// charge's stun zone ("as if they were under artillery/mortar fire").
    He,
    /// Attacked from the air with guns or rockets, in this cover.
    FromTheAir(Cover),
    /// Under AT fire from a weapon that can destroy it.
    At,
    /// Under fire from a flame weapon.
    Flame,
    /// Under fire from armour; `at_weapon`: the element has a suitable AT
    /// weapon against it.
    Armour { at_weapon: bool },
    /// Each casualty taken, in this cover.
    Casualty(Cover),
    /// Its NCO hit this bound.
    NcoHit,
    /// A CSW attached to its men lost.
    CswLost,
    /// Its own vehicle damaged.
    OwnVehicleDamaged,
    /// An AFV attached to it lost.
    AttachedAfvLost,
    /// The infantry supporting it forced to retire.
    SupportingInfantryRetired,
    /// The transport it rode in destroyed under it.
    TransportDestroyed,
    /// Any of these from an enemy it has not observed.
    Unobserved,
}

/// The row of the Momentum Test Chart of an element of type `t` (an AFV
/// `open_topped` or closed) on which `incident` falls; `None` where its chart
/// has no such row, so that no tests fall due for it. Readings (test
/// `every_incident_falls_on_its_own_chart_or_nowhere`):
/// - HE, bombs and a charge's stun zone: the infantry chart's "mortar or
///   artillery or dive bomb", the soft-skin chart's "mortar or HE fire or
///   from the air", an AFV's "Closed/Open topped AFV under HE fire or from
///   the air".
/// - Guns and rockets from the air: men read them as small arms by their
///   cover (*Heroes All*: "as if they were hits from a grounded weapon"; the
///   infantry chart names only the dive bomb); the soft-skin and AFV charts
///   have "from the air" on their HE row.
/// - The soft-skin chart has no row for casualties, an NCO hit or its own
///   vehicle damaged (a soft-skin's NCO is its driver: he is still lost and
///   replaced, but no tests fall due); an AFV's chart none for small arms or
///   casualties; the infantry chart none for AT fire (what an AT weapon
///   fires at men is HE or small arms) or a vehicle damaged.
/// - Under fire from armour: only the infantry chart has the row, "with" or
///   "without a suitable AT weapon" by what the element under fire carries;
///   it falls beside the small-arms or HE row of the same fire.
/// - An attached AFV lost is on the infantry chart only; supporting infantry
///   forced to retire on the AFVs' only; a transport destroyed under its
///   passengers on the infantry chart only (the men it carried).
pub fn row_for(t: ElementType, open_topped: bool, incident: Incident) -> Option<CmCause> {
    use ElementType as T;
    use Incident as I;
    let by_cover = |cover: Cover, [hard, soft, open]: [CmCause; 3]| match cover {
        Cover::Hard | Cover::Pillbox => hard,
        Cover::Soft | Cover::HullDown => soft,
        Cover::Open => open,
    };
    let small_arms = [C::SmallArmsInHardCover, C::SmallArmsInSoftCover, C::SmallArmsInOpen];
    let afv = |closed: CmCause, open: CmCause| if open_topped { open } else { closed };
    match (t, incident) {
        (_, I::Unobserved) => Some(C::UnobservedEnemy),
        (T::Infantry, I::SmallArms(cover) | I::FromTheAir(cover)) => Some(by_cover(cover, small_arms)),
        (T::Infantry, I::He) => Some(C::MortarArtilleryOrAir),
        (T::Infantry, I::Flame) => Some(C::Flame),
        (T::Infantry, I::Armour { at_weapon: true }) => Some(C::ArmourWithAtWeapon),
        (T::Infantry, I::Armour { at_weapon: false }) => Some(C::ArmourWithoutAtWeapon),
        (T::Infantry, I::Casualty(cover)) => {
            Some(by_cover(cover, [C::CasualtyInHardCover, C::CasualtyInSoftCover, C::CasualtyInOpen]))
        }
        (T::Infantry, I::NcoHit) => Some(C::NcoCasualty),
        (T::Infantry, I::CswLost) => Some(C::AttachedCswLost),
        (T::Infantry, I::AttachedAfvLost) => Some(C::AttachedAfvLost),
        (T::Infantry, I::TransportDestroyed) => Some(C::TransportDestroyedWhileLoaded),
        (T::Infantry, I::At | I::OwnVehicleDamaged | I::SupportingInfantryRetired) => None,
        (T::SoftSkin, I::SmallArms(_)) => Some(C::SmallArms),
        (T::SoftSkin, I::He | I::FromTheAir(_)) => Some(C::MortarArtilleryOrAir),
        (T::SoftSkin, I::At) => Some(C::AtFire),
        (T::SoftSkin, I::Flame) => Some(C::Flame),
        (
            T::SoftSkin,
            I::Casualty(_)
            | I::NcoHit
            | I::CswLost
            | I::OwnVehicleDamaged
            | I::Armour { .. }
            | I::AttachedAfvLost
            | I::SupportingInfantryRetired
            | I::TransportDestroyed,
        ) => None,
        (T::Afv, I::He | I::FromTheAir(_)) => Some(afv(C::ClosedAfvUnderHe, C::OpenAfvUnderHe)),
        (T::Afv, I::At) => Some(C::AtFire),
        (T::Afv, I::Flame) => Some(afv(C::ClosedAfvFlame, C::OpenAfvFlame)),
        (T::Afv, I::OwnVehicleDamaged) => Some(C::OwnVehicleDamaged),
        (T::Afv, I::NcoHit) => Some(C::NcoCasualty),
        (T::Afv, I::SupportingInfantryRetired) => Some(C::SupportingInfantryRetired),
        (
            T::Afv,
            I::SmallArms(_)
            | I::Casualty(_)
            | I::CswLost
            | I::Armour { .. }
            | I::AttachedAfvLost
            | I::TransportDestroyed,
        ) => None,
    }
}

/// One set of tests (FYOB "Notes on Continuous Momentum test charts": "An
/// element coming under fire or taking casualties from 2 separate elements in
/// a bound will accrue 2 or more sets of tests"): the rows on `t`'s chart of
/// what one firing element, or one event, did to it, each as many times as
/// it happened; and, when any row fell and `unobserved`, "Under fire from
/// unobserved enemy" once.
pub fn test_set(
    t: ElementType,
    open_topped: bool,
    incidents: &[(Incident, u32)],
    unobserved: bool,
) -> Vec<(CmCause, u32)> {
    let mut rows: Vec<(CmCause, u32)> = Vec::new();
    for &(incident, times) in incidents {
        let Some(cause) = row_for(t, open_topped, incident).filter(|_| times > 0) else { continue };
        match rows.iter_mut().find(|(c, _)| *c == cause) {
            Some((_, n)) => *n += times,
            None => rows.push((cause, times)),
        }
    }
    if unobserved
        && !rows.is_empty()
        && let Some(cause) = row_for(t, open_topped, Incident::Unobserved)
    {
        rows.push((cause, 1));
    }
    rows
}

/// Tests due for one occurrence of `cause` on `t`'s chart for troops of `quality`.
pub fn tests_for(t: ElementType, quality: Quality, cause: CmCause) -> Result<u32, CmError> {
    let r = chart_row(t, cause)?;
    let column = quality as usize;
    Ok(u32::from(r.tests[column].or(r.tests[Quality::Regular as usize]).expect("every row has a Regular column")))
}

/// A weapon of an element that has fired its last round of the day (FYOB
/// "Momentum Test Chart": the "out of ammunition" rows; *Heroes All*
/// "Logistics": "the number of 'shots' allowed per weapon per day").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OutOfAmmunition {
    /// A crew-served weapon of men or guns: "If attached CSW out of ammunition".
    Csw,
    /// "If an artillery piece and out of ammunition".
    ArtilleryPiece,
    /// An AFV's first gun: "If main gun out of ammunition".
    MainGun,
    /// An AFV's later gun: "If secondary gun out of ammunition".
    SecondaryGun,
    /// An AFV's machine gun: "If vehicle MMG out of ammunition".
    VehicleMmg,
}

impl OutOfAmmunition {
    /// Its grey row on `t`'s chart; `None` where the chart has none (a
    /// soft-skin's chart has no ammunition rows).
    fn row(self, t: ElementType) -> Option<CmCause> {
        use OutOfAmmunition as O;
        match (t, self) {
            (ElementType::Infantry, O::Csw) => Some(C::AttachedCswOutOfAmmunition),
            (ElementType::Infantry, O::ArtilleryPiece) => Some(C::ArtilleryOutOfAmmunition),
            (ElementType::Afv, O::MainGun) => Some(C::MainGunOutOfAmmunition),
            (ElementType::Afv, O::SecondaryGun) => Some(C::SecondaryGunOutOfAmmunition),
            (ElementType::Afv, O::VehicleMmg) => Some(C::VehicleMmgOutOfAmmunition),
            _ => None,
        }
    }
}

/// The grey rows of the Momentum Test Chart that apply now to an element of
/// type `t` with `men` of its `men_start`: under 50% and under 25% of its
/// men (infantry chart only), and a row for each of `out`, its weapons out
/// of ammunition, on its chart (each row once, however many weapons are out).
pub fn persistent_states(t: ElementType, men: u32, men_start: u32, out: &[OutOfAmmunition]) -> Vec<CmCause> {
    let mut states = Vec::new();
    if t == ElementType::Infantry && men_start > 0 {
        let men = men * 100;
        if men < men_start * 50 {
            states.push(CmCause::Under50PercentStrength);
        }
        if men < men_start * 25 {
            states.push(CmCause::Under25PercentStrength);
        }
    }
    for row in out.iter().filter_map(|o| o.row(t)) {
        if !states.contains(&row) {
            states.push(row);
        }
    }
    states
}

/// The tests an element has accrued: events this bound (and carried forward
/// after a failed ORT), each with how many times it happened (each casualty,
/// each separate firing element: "2 separate elements ... accrue 2 or more
/// sets of tests"), and its persistent (grey) states.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accrued {
    pub events: Vec<(CmCause, u32)>,
    pub states: Vec<CmCause>,
}

impl Accrued {
    /// Adds `times` occurrences of `cause` to the tests accrued.
    pub fn accrue(&mut self, cause: CmCause, times: u32) {
        if times == 0 {
            return;
        }
        match self.events.iter_mut().find(|(c, _)| *c == cause) {
            Some((_, n)) => *n += times,
            None => self.events.push((cause, times)),
        }
    }

    /// Takes out the event rows `t`'s chart does not have, and returns them.
    /// An element must never be left unable to take its tests: the flow drops
    /// such a row (and records it as a failure) rather than stop the turn.
    pub fn take_off_chart(&mut self, t: ElementType) -> Vec<CmCause> {
        let off: Vec<CmCause> = self.events.iter().map(|&(c, _)| c).filter(|&c| chart_row(t, c).is_err()).collect();
        self.events.retain(|(c, _)| !off.contains(c));
        off
    }

    /// The tests due before reductions; 0 when no event has made tests due.
    pub fn original(&self, t: ElementType, quality: Quality) -> Result<u32, CmError> {
        let mut events = 0;
        for &(cause, times) in &self.events {
            if chart_row(t, cause)?.persistent {
                return Err(CmError::WrongKindOfRow(cause));
            }
            events += tests_for(t, quality, cause)? * times;
        }
        let mut states = 0;
        for &cause in &self.states {
            if !chart_row(t, cause)?.persistent {
                return Err(CmError::WrongKindOfRow(cause));
            }
            // Reading: under 25% and under 50% are separate grey rows, so an element
            // under 25% (hence also under 50%) takes both, as written.
            states += tests_for(t, quality, cause)?;
        }
        Ok(if events == 0 { 0 } else { events + states })
    }
}

/// What reduces (or multiplies) the tests an element takes (FYOB "Test
/// reductions"; *Heroes All* "Restrictions applied in Rationed state").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestConditions {
    /// The element's NCO; `None` for an element without one (an empty transport).
    pub nco: Option<Grade>,
    /// A Company Officer attached to the element.
    pub company_officer: Option<Officer>,
    /// Points value of supporting friendly, active, Regular or Elite elements within 6".
    pub support_points: u32,
    /// Landing on a beach this bound or the last.
    pub beach_landing: bool,
    pub rationed: bool,
}

/// FYOB "Test reductions": percent off for the element's NCO.
const NCO_REDUCTION: [(Grade, u32); 3] = [(Grade::Regular, 10), (Grade::Bold, 20), (Grade::Inspirational, 30)];
/// FYOB "Test reductions": percent off for an attached CO, by command grade.
const CO_REDUCTION: [(CommandGrade, u32); 2] = [(CommandGrade::Average, 20), (CommandGrade::AboveAverage, 30)];

/// The tests to take after reductions, and how they were reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestCount {
    pub original: u32,
    pub nco_off: u32,
    pub co_off: u32,
    pub support_off: u32,
    pub to_take: u32,
}

/// Applies the test reductions to `original` tests.
///
/// Reading (FYOB "Test reductions"): "the following reductions apply to the
/// original number of tests accrued" and "all reduction percentages are
/// rounded down (e.g. 10% of 29 = 2)": each reduction is its own percentage
/// of the original, rounded down on its own. Then a beach landing takes 50%
/// of what remains (rounded down), then "at least 1 test must be taken", and
/// last a rationed element doubles "the final number of tests that it must
/// take" (*Heroes All*: "apply any reductions due before doubling").
pub fn reduce(original: u32, c: &TestConditions) -> TestCount {
    let pct = |p: u32| original * p / 100;
    let nco_off = NCO_REDUCTION.iter().find(|(g, _)| Some(*g) == c.nco).map_or(0, |&(_, p)| pct(p));
    let co_grade = c.company_officer.and_then(Officer::command_grade);
    let co_off = CO_REDUCTION.iter().find(|(g, _)| Some(*g) == co_grade).map_or(0, |&(_, p)| pct(p));
    let support_off = pct(c.support_points.min(100));
    let mut to_take = original.saturating_sub(nco_off + co_off + support_off);
    if original > 0 {
        if c.beach_landing {
            to_take /= 2;
        }
        to_take = to_take.max(1);
        if c.rationed {
            to_take *= 2;
        }
    }
    TestCount { original, nco_off, co_off, support_off, to_take }
}

/// FYOB "Results of Momentum Tests this bound": the bands of failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CmBand {
    /// No failures.
    Clear,
    /// 1 or 2.
    Shaken,
    /// 3 or 4: suppressed.
    Suppressed,
    /// 5 or 6: pinned down, can observe.
    PinnedDown,
    /// 7 or 8: pinned down, makes a full move away.
    FallsBack,
    /// 9+: surrenders, or abandons everything and goes back to the "box".
    Broken,
}

/// How the element may move this bound after its tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CmMovement {
    Free,
    /// In the open it may move towards cover, never towards the enemy.
    TowardsCoverOnly,
    /// A full move away from the enemy.
    FullMoveAway,
    /// Vehicles and guns abandoned; the soldiers go back to the "box" on foot.
    BackToTheBox,
}

/// A band's effects this bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BandEffects {
    pub band: CmBand,
    /// Lowest failures in the band.
    pub from: u32,
    pub can_fire: bool,
    pub can_observe: bool,
    /// Segments added to any observation test.
    pub observation_segments: u8,
    /// Deducted from a D6 to hit over open sights.
    pub open_sights_penalty: u8,
    /// Pips deducted from each movement D6.
    pub movement_pips: u8,
    pub movement: CmMovement,
    /// Points off the CMS.
    pub cms_loss: u8,
}

/// FYOB "Results of Momentum Tests this bound - all elements".
const RESULTS_TABLE: [BandEffects; 6] = [
    BandEffects {
        band: CmBand::Clear,
        from: 0,
        can_fire: true,
        can_observe: true,
        observation_segments: 0,
        open_sights_penalty: 0,
        movement_pips: 0,
        movement: CmMovement::Free,
        cms_loss: 0,
    },
    BandEffects {
        band: CmBand::Shaken,
        from: 1,
        can_fire: true,
        can_observe: true,
        observation_segments: 1,
        open_sights_penalty: 1,
        movement_pips: 1,
        movement: CmMovement::Free,
        cms_loss: 0,
    },
    BandEffects {
        band: CmBand::Suppressed,
        from: 3,
        can_fire: false,
        can_observe: true,
        observation_segments: 1,
        open_sights_penalty: 0,
        movement_pips: 1,
        movement: CmMovement::TowardsCoverOnly,
        cms_loss: 1,
    },
    BandEffects {
        band: CmBand::PinnedDown,
        from: 5,
        can_fire: false,
        can_observe: true,
        observation_segments: 2,
        open_sights_penalty: 0,
        movement_pips: 1,
        movement: CmMovement::TowardsCoverOnly,
        cms_loss: 2,
    },
    BandEffects {
        band: CmBand::FallsBack,
        from: 7,
        can_fire: false,
        can_observe: false,
        observation_segments: 0,
        open_sights_penalty: 0,
        movement_pips: 0,
        movement: CmMovement::FullMoveAway,
        cms_loss: 3,
    },
    BandEffects {
        band: CmBand::Broken,
        from: 9,
        can_fire: false,
        can_observe: false,
        observation_segments: 0,
        open_sights_penalty: 0,
        movement_pips: 0,
        movement: CmMovement::BackToTheBox,
        cms_loss: 4,
    },
];

/// The band for a number of failures.
pub fn band_for(failures: u32) -> BandEffects {
    *RESULTS_TABLE.iter().rev().find(|b| failures >= b.from).expect("the table starts at 0")
}

/// Where the element stands for a 9+ result (FYOB: "If it is not supported by
/// friendly elements within 12 inches but has the enemy within 12 inches, it
/// surrenders").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Surroundings {
    pub friends_within_12: bool,
    pub enemy_within_12: bool,
}

/// The element taking its tests: its type, troop quality and present CMS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CmElement {
    pub element_type: ElementType,
    pub quality: Quality,
    pub cms: u8,
}

/// The outcome of a set of CM tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CmOutcome {
    pub count: TestCount,
    pub failures: u32,
    pub effects: BandEffects,
    /// A 9+ result with no friends but the enemy within 12": the element ceases
    /// to exist and its CMS comes off the CMT.
    pub surrenders: bool,
    pub cms_before: u8,
    /// Reading: the CMS does not fall below 0 (the score tables end at 1, an
    /// element at 1 or less retires to the "box").
    pub cms_after: u8,
}

/// Takes the CM tests an element has accrued (FYOB "Determining the result of
/// a Continuous Momentum test"): one D6 per test, each 1 a failure.
pub fn take_cm_tests(
    element: CmElement,
    accrued: &Accrued,
    conditions: &TestConditions,
    surroundings: Surroundings,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(CmOutcome, RuleEvent), CmError> {
    let CmElement { element_type: t, quality, cms } = element;
    if cms > MAX_CMS {
        return Err(CmError::CmsOutOfRange(cms));
    }
    let count = reduce(accrued.original(t, quality)?, conditions);
    let faces = dice.throw(count.to_take as usize, 6);
    let failures = faces.iter().filter(|&&f| f == 1).count() as u32;
    let effects = band_for(failures);
    let surrenders = effects.band == CmBand::Broken && !surroundings.friends_within_12 && surroundings.enemy_within_12;
    let cms_after = cms.saturating_sub(effects.cms_loss);
    let outcome = CmOutcome { count, failures, effects, surrenders, cms_before: cms, cms_after };
    let event = RuleEvent::new(EventKind::CmTests, RuleRef::new(Book::FightYourOwnBattles, "Continuous Momentum"))
        .actor(id)
        .input("element_type", t, "")
        .input("quality", quality, "")
        .input("accrued", accrued, "chart rows; grey rows re-applied each time tests are due")
        .input("conditions", conditions, "test reductions")
        .dice(6, &faces)
        .outcome(outcome);
    Ok((outcome, event))
}

/// The exact chance of each band when `tests` D6 are thrown (failures are
/// binomial with p = 1/6), indexed like [`CmBand`].
pub fn band_odds(tests: u32) -> [f64; 6] {
    let mut odds = [0.0; 6];
    // P(k) = C(n,k) (1/6)^k (5/6)^(n-k), built up term by term.
    let mut p = (5.0f64 / 6.0).powi(tests as i32);
    for k in 0..=tests {
        odds[band_for(k).band as usize] += p;
        if k < tests {
            p *= f64::from(tests - k) / f64::from(k + 1) / 5.0;
        }
    }
    odds
}

/// How the element moves under its CMS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CmsMovement {
    Free,
    /// Soft-skins at 4: only to reach an at least partially hidden position.
    ToHiddenPositionOnly,
    /// AFVs at 4: may not cross open ground or leave hull-down/partial concealment.
    NoOpenGround,
    /// Stays put; an OPC is issued to reach cover (AFVs: hull-down) if needed.
    StaysPut,
    /// Retires to the "box" (an OPC is issued to allow it).
    RetiresToBox,
}

/// What is abandoned at this score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Abandons {
    Nothing,
    /// All weapons except small arms.
    HeavyWeapons,
    /// A damaged vehicle is abandoned and its crew removed.
    DamagedVehicle,
    /// The vehicle is abandoned; crew (or driver) removed from the game.
    Vehicle,
}

/// The effects of a CMS on an element from its next activation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CmsEffects {
    /// Lowest CMS of the row.
    pub from: u8,
    pub can_fire: bool,
    pub can_observe: bool,
    pub can_assault: bool,
    pub open_sights_penalty: u8,
    pub observation_segments: u8,
    pub movement: CmsMovement,
    pub abandons: Abandons,
}

use Abandons as Ab;
use CmsMovement as Mv;

/// FYOB "Continuous Momentum Score - infantry, CSWs, engineers and artillery".
const INFANTRY_CMS: [CmsEffects; 4] = [
    CmsEffects {
        from: 5,
        can_fire: true,
        can_observe: true,
        can_assault: true,
        open_sights_penalty: 0,
        observation_segments: 0,
        movement: Mv::Free,
        abandons: Ab::Nothing,
    },
    CmsEffects {
        from: 4,
        can_fire: true,
        can_observe: true,
        can_assault: false,
        open_sights_penalty: 1,
        observation_segments: 1,
        movement: Mv::Free,
        abandons: Ab::Nothing,
    },
    CmsEffects {
        from: 2,
        can_fire: false,
        can_observe: false,
        can_assault: false,
        open_sights_penalty: 0,
        observation_segments: 0,
        movement: Mv::StaysPut,
        abandons: Ab::Nothing,
    },
    CmsEffects {
        from: 0,
        can_fire: false,
        can_observe: false,
        can_assault: false,
        open_sights_penalty: 0,
        observation_segments: 0,
        movement: Mv::RetiresToBox,
        abandons: Ab::HeavyWeapons,
    },
];

/// FYOB "Continuous Momentum Score - soft-skinned vehicles". At 4 it "can
/// only move to achieve a partially hidden position": it neither fires nor
/// observes (soft-skins carry no weapons of their own on these charts).
const SOFT_SKIN_CMS: [CmsEffects; 3] = [
    CmsEffects {
        from: 5,
        can_fire: true,
        can_observe: true,
        can_assault: false,
        open_sights_penalty: 0,
        observation_segments: 0,
        movement: Mv::Free,
        abandons: Ab::Nothing,
    },
    CmsEffects {
        from: 4,
        can_fire: false,
        can_observe: false,
        can_assault: false,
        open_sights_penalty: 0,
        observation_segments: 0,
        movement: Mv::ToHiddenPositionOnly,
        abandons: Ab::Nothing,
    },
    CmsEffects {
        from: 0,
        can_fire: false,
        can_observe: false,
        can_assault: false,
        open_sights_penalty: 0,
        observation_segments: 0,
        movement: Mv::StaysPut,
        abandons: Ab::Vehicle,
    },
];

/// FYOB "Continuous Momentum Score - AFVs and armoured transport".
const AFV_CMS: [CmsEffects; 4] = [
    CmsEffects {
        from: 5,
        can_fire: true,
        can_observe: true,
        can_assault: true,
        open_sights_penalty: 0,
        observation_segments: 0,
        movement: Mv::Free,
        abandons: Ab::Nothing,
    },
    CmsEffects {
        from: 4,
        can_fire: true,
        can_observe: true,
        can_assault: true,
        open_sights_penalty: 1,
        observation_segments: 1,
        movement: Mv::NoOpenGround,
        abandons: Ab::Nothing,
    },
    CmsEffects {
        from: 2,
        can_fire: false,
        can_observe: false,
        can_assault: false,
        open_sights_penalty: 0,
        observation_segments: 0,
        movement: Mv::StaysPut,
        abandons: Ab::DamagedVehicle,
    },
    CmsEffects {
        from: 0,
        can_fire: false,
        can_observe: false,
        can_assault: false,
        open_sights_penalty: 0,
        observation_segments: 0,
        movement: Mv::StaysPut,
        abandons: Ab::Vehicle,
    },
];

/// What a CMS lets an element do (FYOB "How Continuous Momentum affects future
/// bounds"). A CMS of 0 reads as the lowest row.
pub fn cms_effects(t: ElementType, cms: u8) -> Result<CmsEffects, CmError> {
    if cms > MAX_CMS {
        return Err(CmError::CmsOutOfRange(cms));
    }
    let table: &[CmsEffects] = match t {
        ElementType::Infantry => &INFANTRY_CMS,
        ElementType::SoftSkin => &SOFT_SKIN_CMS,
        ElementType::Afv => &AFV_CMS,
    };
    Ok(*table.iter().find(|r| cms >= r.from).expect("every table ends at 0"))
}

/// Rallying throws a Company Officer has each bound.
///
/// Reading (FYOB "Decisions made ... by the Officer grades": "rally their
/// CMS (maximum 2 per bound)"; "Rallying Continuous Momentum scores": a
/// rallying throw is 1/2/3 D6 by Below Average/Average/Above Average, each 6
/// one point; "Rallying up the CMS of an element": 1D6, a 6 is +1, "only 1
/// rallying throw for each element" and 1/2/3 throws a bound by grade): every
/// passage agrees on 1/2/3 D6 a bound by grade, so the CO has that many; the
/// most detailed passage gives one D6 to each nominated element; and the CO
/// duties cap what he rallies at 2 points a bound, so once two 6s have come
/// he throws no more. The grade is the CO's command grade (see
/// [`Officer::command_grade`]).
const RALLY_THROWS: [(CommandGrade, usize); 3] =
    [(CommandGrade::BelowAverage, 1), (CommandGrade::Average, 2), (CommandGrade::AboveAverage, 3)];
/// FYOB CO duties: "rally their Continuous Momentum Score (maximum 2 per bound)".
const MAX_RALLIED_PER_BOUND: u8 = 2;

/// The rallying throws a Company Officer has in his Command turn (one a
/// nominated element, a 6 adds 1), none for a rationed force ([`rally`]).
pub fn rally_throws(co: Officer, rationed: bool) -> usize {
    match co.command_grade() {
        Some(grade) if !rationed => RALLY_THROWS.iter().find(|(g, _)| *g == grade).map_or(0, |t| t.1),
        _ => 0,
    }
}

/// One element's rallying throw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rallied {
    pub id: String,
    pub face: u8,
    pub cms_after: u8,
}

/// A Company Officer's rallying in his Command turn: one D6 for each
/// nominated element in turn (those at 6 are passed over), while he has
/// throws and has not rallied 2 points; a 6 adds 1, never above 6. A rationed
/// force makes no rallying throws (*Heroes All*, "Forces acting whilst rationed").
pub fn rally(
    co: Officer,
    elements: &[(&str, u8)],
    rationed: bool,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(Vec<Rallied>, RuleEvent), CmError> {
    if co.rank() != Rank::CompanyOfficer {
        return Err(CmError::NotACompanyOfficer);
    }
    for (i, &(e, score)) in elements.iter().enumerate() {
        if score > MAX_CMS {
            return Err(CmError::CmsOutOfRange(score));
        }
        if elements[..i].iter().any(|&(other, _)| other == e) {
            return Err(CmError::RalliedTwice(e.to_owned()));
        }
    }
    let grade = co.command_grade().expect("a Company Officer has a command grade");
    let throws = rally_throws(co, rationed);
    let mut results = Vec::new();
    let mut rallied = 0;
    for &(e, score) in elements.iter().filter(|(_, s)| *s < MAX_CMS).take(throws) {
        if rallied == MAX_RALLIED_PER_BOUND {
            break;
        }
        let face = dice.d6();
        let up = u8::from(face == 6);
        rallied += up;
        results.push(Rallied { id: e.to_owned(), face, cms_after: (score + up).min(MAX_CMS) });
    }
    let faces: Vec<u8> = results.iter().map(|r| r.face).collect();
    let event = RuleEvent::new(
        EventKind::Rally,
        RuleRef::new(Book::FightYourOwnBattles, "Rallying up the Continuous Momentum score of an element"),
    )
    .actor(id)
    .input("command_grade", grade, "1/2/3 throws a bound; at most 2 points rallied a bound")
    .input("rationed", rationed, "a rationed force makes no rallying throws")
    .dice(6, &faces)
    .outcome(json!({ "rallied": results }));
    Ok((results, event))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Scripted};

    fn no_help() -> TestConditions {
        TestConditions { nco: None, company_officer: None, support_points: 0, beach_landing: false, rationed: false }
    }

    fn regular_nco() -> TestConditions {
        TestConditions { nco: Some(Grade::Regular), ..no_help() }
    }

    const SUPPORTED: Surroundings = Surroundings { friends_within_12: true, enemy_within_12: true };

    #[test]
    fn book_example_germans_under_unobserved_mortar_fire_take_nine_tests() {
        // FYOB caption: "The Regular Germans must take 6 tests for being under mortar fire and
        // 3 more because the enemy is unobserved. The Regular Officer gets a 10% test reduction
        // but when rounded down (10% of 9 = 0), this still results in 9 Tests. His throw yields
        // 1 failure but his unit is OK to continue."
        let accrued = Accrued { events: vec![(C::MortarArtilleryOrAir, 1), (C::UnobservedEnemy, 1)], states: vec![] };
        let mut dice = Scripted::new([2, 5, 1, 6, 3, 4, 4, 2, 5]);
        let (o, e) = take_cm_tests(
            CmElement { element_type: ElementType::Infantry, quality: Quality::Regular, cms: 6 },
            &accrued,
            &regular_nco(),
            SUPPORTED,
            &mut dice,
            "G",
        )
        .unwrap();
        assert_eq!((o.count.original, o.count.nco_off, o.count.to_take), (9, 0, 9));
        assert_eq!(o.failures, 1);
        assert_eq!(o.effects.band, CmBand::Shaken);
        assert!(o.effects.can_fire && o.effects.movement == CmMovement::Free, "OK to continue");
        assert_eq!(o.cms_after, 6);
        assert_eq!((e.kind, e.dice.len()), (EventKind::CmTests, 9));
    }

    #[test]
    fn book_example_ten_percent_of_29_is_2() {
        assert_eq!(reduce(29, &regular_nco()).to_take, 27);
    }

    #[test]
    fn chart_rows_by_quality() {
        let cases = [
            (ElementType::Infantry, C::CasualtyInOpen, [30, 15, 7]),
            (ElementType::Infantry, C::Flame, [24, 12, 6]),
            (ElementType::Infantry, C::AttachedAfvLost, [12, 6, 3]),
            (ElementType::Afv, C::UnitVehicleDestroyed, [36, 18, 8]),
            (ElementType::Afv, C::ClosedAfvUnderHe, [4, 2, 1]),
            (ElementType::SoftSkin, C::AtFire, [9, 9, 9]),
            (ElementType::SoftSkin, C::Flame, [12, 12, 12]),
        ];
        for (t, cause, want) in cases {
            let got = [Quality::Poor, Quality::Regular, Quality::Elite].map(|q| tests_for(t, q, cause).unwrap());
            assert_eq!(got, want, "{t:?} {cause:?}");
        }
        assert_eq!(
            tests_for(ElementType::SoftSkin, Quality::Elite, C::NcoCasualty),
            Err(CmError::NotOnChart(ElementType::SoftSkin, C::NcoCasualty))
        );
    }

    const INCIDENTS: [Incident; 19] = [
        Incident::SmallArms(Cover::Hard),
        Incident::SmallArms(Cover::Soft),
        Incident::SmallArms(Cover::Open),
        Incident::He,
        Incident::FromTheAir(Cover::Hard),
        Incident::FromTheAir(Cover::Open),
        Incident::At,
        Incident::Flame,
        Incident::Casualty(Cover::Pillbox),
        Incident::Casualty(Cover::HullDown),
        Incident::Casualty(Cover::Open),
        Incident::NcoHit,
        Incident::CswLost,
        Incident::OwnVehicleDamaged,
        Incident::Unobserved,
        Incident::SmallArms(Cover::Pillbox),
        Incident::AttachedAfvLost,
        Incident::SupportingInfantryRetired,
        Incident::TransportDestroyed,
    ];

    #[test]
    fn every_incident_falls_on_its_own_chart_or_nowhere() {
        // FYOB "Definitions of element types for CM purposes": each element
        // reads its own chart; a row that chart lacks makes no tests due and
        // never stops the element taking the rest.
        for t in [ElementType::Infantry, ElementType::SoftSkin, ElementType::Afv] {
            for open_topped in [false, true] {
                for i in INCIDENTS {
                    if let Some(cause) = row_for(t, open_topped, i) {
                        assert!(tests_for(t, Quality::Regular, cause).is_ok(), "{t:?} {i:?} -> {cause:?}");
                        let mut accrued = Accrued { events: vec![(cause, 1)], states: vec![] };
                        assert!(accrued.take_off_chart(t).is_empty());
                        assert!(accrued.original(t, Quality::Regular).unwrap() > 0, "{t:?} {i:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn shells_stuns_and_bombs_fall_on_each_charts_he_row() {
        // "Under fire from mortar or artillery or dive bomb"; "Under mortar or
        // HE fire or from the air"; "Closed/Open topped AFV under HE fire or
        // from the air".
        assert_eq!(row_for(ElementType::Infantry, false, Incident::He), Some(C::MortarArtilleryOrAir));
        assert_eq!(row_for(ElementType::SoftSkin, false, Incident::He), Some(C::MortarArtilleryOrAir));
        assert_eq!(row_for(ElementType::Afv, false, Incident::He), Some(C::ClosedAfvUnderHe));
        assert_eq!(row_for(ElementType::Afv, true, Incident::He), Some(C::OpenAfvUnderHe));
        assert_eq!(row_for(ElementType::Afv, true, Incident::Flame), Some(C::OpenAfvFlame));
        let strafed = Incident::FromTheAir(Cover::Soft);
        assert_eq!(row_for(ElementType::Infantry, false, strafed), Some(C::SmallArmsInSoftCover));
        assert_eq!(row_for(ElementType::SoftSkin, false, strafed), Some(C::MortarArtilleryOrAir));
        assert_eq!(row_for(ElementType::Afv, false, strafed), Some(C::ClosedAfvUnderHe));
    }

    #[test]
    fn reading_rows_the_soft_skin_and_afv_charts_lack() {
        // The soft-skin chart: small arms, AT, "mortar or HE fire or from the
        // air", unobserved, flame, nothing else.
        for i in [Incident::NcoHit, Incident::OwnVehicleDamaged, Incident::Casualty(Cover::Open), Incident::CswLost] {
            assert_eq!(row_for(ElementType::SoftSkin, false, i), None, "{i:?}");
        }
        assert_eq!(row_for(ElementType::Afv, false, Incident::SmallArms(Cover::Open)), None);
        assert_eq!(row_for(ElementType::Afv, true, Incident::Casualty(Cover::Open)), None);
        assert_eq!(row_for(ElementType::Afv, false, Incident::NcoHit), Some(C::NcoCasualty));
        assert_eq!(row_for(ElementType::Afv, false, Incident::OwnVehicleDamaged), Some(C::OwnVehicleDamaged));
        assert_eq!(row_for(ElementType::Infantry, false, Incident::At), None);
        // "If attached AFV lost from the element" is on the infantry chart
        // only, "If supporting infantry forced to retire" on the AFVs' only.
        assert_eq!(row_for(ElementType::Infantry, false, Incident::AttachedAfvLost), Some(C::AttachedAfvLost));
        assert_eq!(row_for(ElementType::Afv, false, Incident::AttachedAfvLost), None);
        assert_eq!(
            row_for(ElementType::Afv, true, Incident::SupportingInfantryRetired),
            Some(C::SupportingInfantryRetired)
        );
        assert_eq!(row_for(ElementType::Infantry, false, Incident::SupportingInfantryRetired), None);
    }

    #[test]
    fn a_set_counts_each_casualty_and_the_unseen_firer_once() {
        // The book's caption: "6 tests for being under mortar fire and 3 more
        // because the enemy is unobserved"; each casualty is a row of its own.
        let shelled = [(Incident::He, 1), (Incident::Casualty(Cover::Soft), 2), (Incident::NcoHit, 0)];
        let rows = test_set(ElementType::Infantry, false, &shelled, true);
        assert_eq!(rows, [(C::MortarArtilleryOrAir, 1), (C::CasualtyInSoftCover, 2), (C::UnobservedEnemy, 1)]);
        let accrued = Accrued { events: rows, states: vec![] };
        assert_eq!(accrued.original(ElementType::Infantry, Quality::Regular).unwrap(), 6 + 2 * 10 + 3);
        // A lorry whose driver is hit by a rifle it had not seen: nothing on its chart.
        assert!(test_set(ElementType::SoftSkin, false, &[(Incident::NcoHit, 1)], true).is_empty());
    }

    #[test]
    fn weapons_out_of_ammunition_add_their_grey_rows_each_time_tests_are_due() {
        // FYOB "Momentum Test Chart": "If attached CSW out of ammunition" 12/6/3,
        // "If an artillery piece and out of ammunition" 18/9/4 (infantry);
        // "If main gun out of ammunition" 18/9/4, "If secondary gun ..." and
        // "If vehicle MMG out of ammunition" 12/6/3 (AFVs); grey rows, "taken
        // into account each time that the element is due to take tests".
        use OutOfAmmunition as O;
        let men = persistent_states(ElementType::Infantry, 8, 8, &[O::Csw, O::Csw]);
        assert_eq!(men, [C::AttachedCswOutOfAmmunition], "one row however many weapons are dry");
        let guns = persistent_states(ElementType::Infantry, 4, 5, &[O::ArtilleryPiece]);
        assert_eq!(guns, [C::ArtilleryOutOfAmmunition]);
        let tank = persistent_states(ElementType::Afv, 5, 5, &[O::MainGun, O::VehicleMmg, O::Csw]);
        assert_eq!(tank, [C::MainGunOutOfAmmunition, C::VehicleMmgOutOfAmmunition], "a tank has no CSW row");
        assert!(persistent_states(ElementType::SoftSkin, 1, 1, &[O::VehicleMmg]).is_empty());
        let due = Accrued { events: vec![(C::AtFire, 1)], states: tank.clone() };
        assert_eq!(due.original(ElementType::Afv, Quality::Regular).unwrap(), 3 + 9 + 6);
        let quiet = Accrued { events: vec![], states: tank };
        assert_eq!(quiet.original(ElementType::Afv, Quality::Regular).unwrap(), 0, "no event, no tests due");
    }

    #[test]
    fn a_row_off_the_chart_is_taken_out_not_left_to_stop_the_turn() {
        let mut accrued = Accrued { events: vec![(C::MortarArtilleryOrAir, 1), (C::AtFire, 1)], states: vec![] };
        assert_eq!(
            accrued.original(ElementType::Afv, Quality::Regular),
            Err(CmError::NotOnChart(ElementType::Afv, C::MortarArtilleryOrAir))
        );
        assert_eq!(accrued.take_off_chart(ElementType::Afv), [C::MortarArtilleryOrAir]);
        assert_eq!(accrued.original(ElementType::Afv, Quality::Regular).unwrap(), 3);
    }

    #[test]
    fn the_charts_list_their_rows_in_the_books_order_with_the_grey_ones() {
        let infantry: Vec<(CmCause, bool)> = chart_rows(ElementType::Infantry).collect();
        assert_eq!(infantry.len(), 20);
        assert_eq!(infantry[0], (C::SmallArmsInHardCover, false));
        let grey: Vec<CmCause> = infantry.iter().filter(|(_, g)| *g).map(|(c, _)| *c).collect();
        assert_eq!(
            grey,
            [
                C::NotDeployedFromGroup,
                C::Under25PercentStrength,
                C::Under50PercentStrength,
                C::AttachedCswOutOfAmmunition,
                C::ArtilleryOutOfAmmunition
            ]
        );
        let soft: Vec<CmCause> = chart_rows(ElementType::SoftSkin).map(|(c, _)| c).collect();
        assert_eq!(soft, [C::SmallArms, C::AtFire, C::MortarArtilleryOrAir, C::UnobservedEnemy, C::Flame]);
        assert_eq!(chart_rows(ElementType::Afv).count(), 16);
        assert_eq!(chart_rows(ElementType::Afv).last(), Some((C::SupportingInfantryRetired, false)));
    }

    #[test]
    fn poor_troops_never_take_fewer_tests_than_regular_nor_regular_than_elite() {
        for t in [ElementType::Infantry, ElementType::SoftSkin, ElementType::Afv] {
            for r in chart(t) {
                let [p, g, e] =
                    [Quality::Poor, Quality::Regular, Quality::Elite].map(|q| tests_for(t, q, r.cause).unwrap());
                assert!(p >= g && g >= e, "{t:?} {:?}", r.cause);
            }
        }
    }

    #[test]
    fn each_casualty_and_each_firer_is_a_set() {
        let accrued =
            Accrued { events: vec![(C::CasualtyInSoftCover, 2), (C::SmallArmsInSoftCover, 2)], states: vec![] };
        assert_eq!(accrued.original(ElementType::Infantry, Quality::Elite).unwrap(), 2 * 5 + 2 * 2);
    }

    #[test]
    fn reading_grey_rows_are_added_whenever_tests_fall_due() {
        let states = vec![C::Under50PercentStrength, C::Under25PercentStrength, C::AttachedCswOutOfAmmunition];
        let idle = Accrued { events: vec![], states: states.clone() };
        assert_eq!(
            idle.original(ElementType::Infantry, Quality::Regular).unwrap(),
            0,
            "states alone make no tests due"
        );
        let fired_on = Accrued { events: vec![(C::SmallArmsInHardCover, 1)], states };
        assert_eq!(fired_on.original(ElementType::Infantry, Quality::Regular).unwrap(), 3 + 12 + 12 + 6);
        let wrong = Accrued { events: vec![(C::Under25PercentStrength, 1)], states: vec![] };
        assert_eq!(
            wrong.original(ElementType::Infantry, Quality::Regular),
            Err(CmError::WrongKindOfRow(C::Under25PercentStrength))
        );
    }

    #[test]
    fn reading_each_reduction_is_rounded_down_on_its_own() {
        let co = Officer::new(Rank::CompanyOfficer, Grade::Regular).unwrap();
        let c =
            TestConditions { nco: Some(Grade::Regular), company_officer: Some(co), support_points: 15, ..no_help() };
        // 10% of 29 = 2, 20% of 29 = 5, 15% of 29 = 4 → 18 (one 45% of 29 would give 16).
        let n = reduce(29, &c);
        assert_eq!((n.nco_off, n.co_off, n.support_off, n.to_take), (2, 5, 4, 18));
        let bold = Officer::new(Rank::CompanyOfficer, Grade::Bold).unwrap();
        assert_eq!(reduce(10, &TestConditions { company_officer: Some(bold), ..no_help() }).co_off, 3);
        let weak = Officer::new(Rank::CompanyOfficer, Grade::Weak).unwrap();
        assert_eq!(
            reduce(10, &TestConditions { company_officer: Some(weak), nco: Some(Grade::Cautious), ..no_help() })
                .to_take,
            10
        );
    }

    #[test]
    fn nco_reductions_include_bold_and_inspirational_ncos() {
        let off = |g| reduce(50, &TestConditions { nco: g, ..no_help() }).nco_off;
        assert_eq!([None, Some(Grade::Weak), Some(Grade::Cautious)].map(off), [0, 0, 0]);
        assert_eq!([Some(Grade::Regular), Some(Grade::Bold), Some(Grade::Inspirational)].map(off), [5, 10, 15]);
        // 1% per point of supporting Regular or Elite elements within 6".
        assert_eq!(reduce(50, &TestConditions { support_points: 30, ..no_help() }).to_take, 35);
    }

    #[test]
    fn beach_landing_halves_then_rationed_doubles_the_final_number() {
        let beach = TestConditions { beach_landing: true, ..regular_nco() };
        assert_eq!(reduce(15, &beach).to_take, 7, "15 - 1 = 14, half is 7");
        assert_eq!(reduce(15, &TestConditions { rationed: true, ..regular_nco() }).to_take, 28);
        assert_eq!(reduce(1, &TestConditions { beach_landing: true, ..no_help() }).to_take, 1);
        assert_eq!(reduce(1, &TestConditions { beach_landing: true, rationed: true, ..no_help() }).to_take, 2);
    }

    #[test]
    fn at_least_one_test_when_any_is_due_for_every_seed() {
        let mut dice = Dice::new(99);
        for _ in 0..2000 {
            let original = u32::from(dice.d12()) - 1;
            let nco =
                [None, Some(Grade::Regular), Some(Grade::Bold), Some(Grade::Inspirational)][usize::from(dice.d4()) - 1];
            let co = [None, Some(Officer::new(Rank::CompanyOfficer, Grade::Inspirational).unwrap())]
                [usize::from(dice.face(2)) - 1];
            let c = TestConditions {
                nco,
                company_officer: co,
                support_points: u32::from(dice.d10()) * 15,
                beach_landing: dice.d6() > 3,
                rationed: dice.d6() > 4,
            };
            let n = reduce(original, &c);
            assert_eq!(n.to_take == 0, original == 0, "{original} {c:?} → {n:?}");
            assert!(n.to_take <= original.max(1) * 2);
        }
    }

    #[test]
    fn results_table_bands() {
        let want = [
            (0, CmBand::Clear, 0),
            (1, CmBand::Shaken, 0),
            (2, CmBand::Shaken, 0),
            (3, CmBand::Suppressed, 1),
            (4, CmBand::Suppressed, 1),
            (5, CmBand::PinnedDown, 2),
            (6, CmBand::PinnedDown, 2),
            (7, CmBand::FallsBack, 3),
            (8, CmBand::FallsBack, 3),
            (9, CmBand::Broken, 4),
            (30, CmBand::Broken, 4),
        ];
        for (failures, band, loss) in want {
            let b = band_for(failures);
            assert_eq!((b.band, b.cms_loss), (band, loss), "{failures} failures");
        }
        assert!(!band_for(3).can_fire && band_for(5).can_observe && !band_for(7).can_observe);
        assert_eq!(band_for(5).observation_segments, 2);
    }

    #[test]
    fn nine_failures_surrender_only_when_unsupported_with_the_enemy_close() {
        // Poor infantry under small arms fire in the open: 14 tests, all failures.
        let accrued = Accrued { events: vec![(C::SmallArmsInOpen, 1)], states: vec![] };
        let poor = CmElement { element_type: ElementType::Infantry, quality: Quality::Poor, cms: 3 };
        let run = |s: Surroundings| {
            let mut dice = Scripted::new([1; 14]);
            take_cm_tests(poor, &accrued, &no_help(), s, &mut dice, "x").unwrap().0
        };
        let cut_off = run(Surroundings { friends_within_12: false, enemy_within_12: true });
        assert!(cut_off.surrenders);
        assert_eq!((cut_off.failures, cut_off.effects.band, cut_off.cms_after), (14, CmBand::Broken, 0));
        for s in [SUPPORTED, Surroundings { friends_within_12: false, enemy_within_12: false }] {
            let o = run(s);
            assert!(!o.surrenders, "{s:?}");
            assert_eq!(o.effects.movement, CmMovement::BackToTheBox);
        }
    }

    #[test]
    fn band_odds_are_exact_and_match_a_seeded_sample() {
        assert!((band_odds(0)[CmBand::Clear as usize] - 1.0).abs() < 1e-12);
        assert!((band_odds(1)[CmBand::Shaken as usize] - 1.0 / 6.0).abs() < 1e-12);
        // Two dice: P(1 or 2 failures) = 1 - (5/6)^2 = 11/36.
        assert!((band_odds(2)[CmBand::Shaken as usize] - 11.0 / 36.0).abs() < 1e-12);
        let mut dice = Dice::new(5);
        for n in [3u32, 9, 15, 36] {
            let odds = band_odds(n);
            assert!((odds.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            let trials = 20_000;
            let mut seen = [0u32; 6];
            for _ in 0..trials {
                let failures = dice.throw(n as usize, 6).iter().filter(|&&f| f == 1).count() as u32;
                seen[band_for(failures).band as usize] += 1;
            }
            for k in 0..6 {
                let f = f64::from(seen[k]) / f64::from(trials);
                assert!((f - odds[k]).abs() < 0.015, "{n} tests band {k}: sampled {f}, exact {}", odds[k]);
            }
        }
    }

    #[test]
    fn cms_never_rises_above_six_nor_below_zero_for_every_seed() {
        let accrued = Accrued { events: vec![(C::CasualtyInOpen, 1)], states: vec![C::Under50PercentStrength] };
        for seed in 0..300 {
            let mut dice = Dice::new(seed);
            let mut score = MAX_CMS;
            for _ in 0..6 {
                let (o, _) = take_cm_tests(
                    CmElement { element_type: ElementType::Infantry, quality: Quality::Poor, cms: score },
                    &accrued,
                    &regular_nco(),
                    SUPPORTED,
                    &mut dice,
                    "x",
                )
                .unwrap();
                assert!(o.cms_after <= score && o.cms_after <= MAX_CMS);
                score = o.cms_after;
            }
            let co = Officer::new(Rank::CompanyOfficer, Grade::Inspirational).unwrap();
            for _ in 0..10 {
                let (r, _) = rally(co, &[("x", score)], false, &mut dice, "CO").unwrap();
                score = r.first().map_or(score, |r| r.cms_after);
                assert!(score <= MAX_CMS);
            }
        }
    }

    #[test]
    fn cms_tables_by_element_type() {
        let inf = |s| cms_effects(ElementType::Infantry, s).unwrap();
        assert_eq!(inf(6), inf(5));
        assert!(inf(5).can_assault && !inf(4).can_assault && inf(4).can_fire);
        assert_eq!((inf(4).open_sights_penalty, inf(4).observation_segments), (1, 1));
        assert_eq!((inf(3).movement, inf(2).can_observe), (CmsMovement::StaysPut, false));
        assert_eq!((inf(1).movement, inf(1).abandons), (CmsMovement::RetiresToBox, Abandons::HeavyWeapons));
        assert_eq!(inf(0), inf(1));
        let soft = |s| cms_effects(ElementType::SoftSkin, s).unwrap();
        assert_eq!(soft(4).movement, CmsMovement::ToHiddenPositionOnly);
        assert!([3, 2, 1].iter().all(|&s| soft(s).abandons == Abandons::Vehicle));
        let afv = |s| cms_effects(ElementType::Afv, s).unwrap();
        assert_eq!(afv(4).movement, CmsMovement::NoOpenGround);
        assert_eq!(afv(2).abandons, Abandons::DamagedVehicle);
        assert_eq!(afv(1).abandons, Abandons::Vehicle);
        assert_eq!(cms_effects(ElementType::Afv, 7), Err(CmError::CmsOutOfRange(7)));
    }

    #[test]
    fn reading_rally_throws_by_grade_one_per_element_at_most_two_points() {
        let co = |g| Officer::new(Rank::CompanyOfficer, g).unwrap();
        let three = [("a", 3), ("b", 4), ("c", 5)];
        // Below Average (a Cautious CO): 1 throw.
        let (r, e) = rally(co(Grade::Cautious), &three, false, &mut Scripted::new([6]), "CO").unwrap();
        assert_eq!(r, vec![Rallied { id: "a".into(), face: 6, cms_after: 4 }]);
        assert_eq!(e.kind, EventKind::Rally);
        // Average (Regular CO): 2 throws, one per element.
        let (r, _) = rally(co(Grade::Regular), &three, false, &mut Scripted::new([2, 6]), "CO").unwrap();
        assert_eq!(r.iter().map(|r| r.cms_after).collect::<Vec<_>>(), [3, 5]);
        // Above Average (Bold CO): 3 throws, but no more once 2 points are rallied.
        let mut dice = Scripted::new([6, 6]);
        let (r, _) = rally(co(Grade::Bold), &three, false, &mut dice, "CO").unwrap();
        assert_eq!(r.len(), 2);
        let (r, _) = rally(co(Grade::Bold), &three, false, &mut Scripted::new([1, 6, 6]), "CO").unwrap();
        assert_eq!(r.iter().map(|r| r.cms_after).collect::<Vec<_>>(), [3, 5, 6]);
    }

    #[test]
    fn rally_passes_over_full_scores_and_refuses_bad_input() {
        let co = Officer::new(Rank::CompanyOfficer, Grade::Regular).unwrap();
        let (r, _) = rally(co, &[("full", 6), ("b", 2)], false, &mut Scripted::new([6]), "CO").unwrap();
        assert_eq!(r, vec![Rallied { id: "b".into(), face: 6, cms_after: 3 }]);
        let (r, e) = rally(co, &[("b", 2)], true, &mut Scripted::new([]), "CO").unwrap();
        assert!(r.is_empty() && e.dice.is_empty(), "rationed: no rallying throws");
        assert_eq!(
            rally(co, &[("b", 2), ("b", 2)], false, &mut Scripted::new([]), "CO"),
            Err(CmError::RalliedTwice("b".into()))
        );
        assert_eq!(rally(co, &[("b", 9)], false, &mut Scripted::new([]), "CO"), Err(CmError::CmsOutOfRange(9)));
        let nco = Officer::new(Rank::Nco, Grade::Regular).unwrap();
        assert_eq!(rally(nco, &[("b", 2)], false, &mut Scripted::new([]), "n"), Err(CmError::NotACompanyOfficer));
    }
}
