//! Map Board Movement (FYOW 14): Movement Points, the Movement Test (D10 + MP
//! against the link's MP), the 14.11 Map Movement Test Table, "V" links, retry
//! bonuses by day and night, the maximum boards per day, sessions engaged,
//! rationing, overtaking, trains, landings from the sea or air, and moving in
//! retreat.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use crate::map::board::{Coast, Leg, RouteKind};
use crate::map::common::{Light, MapError, SessionConditions};

/// The rows of the 14.11 Map Movement Test Table, in the book's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoverClass {
    RegularInfantry,
    SpecialForces,
    BicycleTroops,
    Cavalry,
    Motorcycles,
    SlowTanks,
    Afvs,
    FastAfvs,
    FourWheeledArmour,
    SixPlusWheeledArmour,
    SpArtillery,
    TrackedCarriers,
    HalfTracks,
    AwdTrucks,
    OtherTrucks,
    JeepsKubel,
    CivilianCars,
    Trains,
    RowedCraft,
    Ferry,
    Schwimmwagen,
    PoweredCraft,
    BeachLanding,
    ShoreLanding,
}

/// How a class moves: which links it may use (FYOW 13.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Medium {
    /// Roads and tracks.
    Land,
    /// "Trains can only move between map boards where railway line links are shown."
    Rail,
    /// "Water-borne craft can only move between boards where there is a water link."
    Water,
    /// The landing rows, used only by [`landing_test`].
    Landing,
}

/// A weather cell of the 14.11 table as printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cell {
    Modifier(i8),
    /// Printed "n/a": the weather does not affect this class.
    NotApplicable,
    /// Printed empty.
    /// Reading (FYOW 14.11): an empty cell, like "n/a", gives no modifier — the conversion kept
    /// every other cell of these rows and no value is left over that could belong to a merged cell.
    Blank,
}

impl Cell {
    pub fn modifier(self) -> i8 {
        match self {
            Cell::Modifier(m) => m,
            Cell::NotApplicable | Cell::Blank => 0,
        }
    }
}

/// One row of the 14.11 Map Movement Test Table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovementRow {
    pub class: MoverClass,
    pub mp: u8,
    /// Max boards per day; `None` where printed "n/a" (the landing rows).
    pub max_per_day: Option<u8>,
    pub heavy_rain: Cell,
    pub snow: Cell,
    pub high_winds: Cell,
    pub fog: Cell,
    pub night_moon: Cell,
    pub night_no_moon: Cell,
    /// FYOW 14.4: "vehicles shown in red" cannot traverse "V" links. The red was lost in
    /// conversion; Reading (FYOW 14.4, README): the rows printed in bold are those vehicles.
    pub v_barred: bool,
    pub medium: Medium,
}

const NA: Cell = Cell::NotApplicable;
const BL: Cell = Cell::Blank;
const fn m(x: i8) -> Cell {
    Cell::Modifier(x)
}

const fn row(class: MoverClass, mp: u8, max: Option<u8>, w: [Cell; 6], v_barred: bool, medium: Medium) -> MovementRow {
    MovementRow {
        class,
        mp,
        max_per_day: max,
        heavy_rain: w[0],
        snow: w[1],
        high_winds: w[2],
        fog: w[3],
        night_moon: w[4],
        night_no_moon: w[5],
        v_barred,
        medium,
    }
}

use Medium as Md;
use MoverClass as C;

/// FYOW 14.11 Map Movement Test Table, row for row: Movement Points, max boards per day,
/// heavy rain, snow, high winds, fog, night (moon), night (no moon); bold rows barred from "V".
pub const MOVEMENT_TEST_TABLE: [MovementRow; 24] = [
    row(C::RegularInfantry, 1, Some(2), [m(-1), m(-1), m(-1), m(-3), m(-1), m(-3)], false, Md::Land),
    row(C::SpecialForces, 1, Some(3), [NA, m(-1), NA, m(-1), NA, m(-1)], false, Md::Land),
    row(C::BicycleTroops, 2, Some(4), [m(-1), m(-3), m(-2), m(-3), m(-1), m(-3)], true, Md::Land),
    row(C::Cavalry, 2, Some(4), [BL, m(-1), m(-1), BL, BL, BL], false, Md::Land),
    row(C::Motorcycles, 4, Some(5), [BL, m(-2), m(-1), BL, BL, BL], false, Md::Land),
    row(C::SlowTanks, 1, Some(3), [BL, m(-1), NA, BL, BL, BL], true, Md::Land),
    row(C::Afvs, 2, Some(4), [BL, m(-1), NA, BL, BL, BL], true, Md::Land),
    row(C::FastAfvs, 3, Some(4), [BL, m(-1), NA, BL, BL, BL], true, Md::Land),
    row(C::FourWheeledArmour, 4, Some(4), [BL, m(-1), NA, BL, BL, BL], false, Md::Land),
    row(C::SixPlusWheeledArmour, 3, Some(4), [BL, m(-1), NA, BL, BL, BL], false, Md::Land),
    row(C::SpArtillery, 2, Some(4), [BL, m(-1), NA, BL, BL, BL], true, Md::Land),
    row(C::TrackedCarriers, 3, Some(4), [BL, m(-1), NA, BL, BL, BL], true, Md::Land),
    row(C::HalfTracks, 3, Some(4), [BL, m(-1), NA, BL, BL, BL], true, Md::Land),
    row(C::AwdTrucks, 3, Some(4), [BL, m(-1), NA, BL, BL, BL], true, Md::Land),
    row(C::OtherTrucks, 3, Some(4), [BL, m(-2), NA, BL, BL, BL], true, Md::Land),
    row(C::JeepsKubel, 4, Some(5), [BL, m(-1), NA, BL, BL, BL], false, Md::Land),
    row(C::CivilianCars, 4, Some(5), [BL, m(-3), m(-1), BL, BL, BL], true, Md::Land),
    row(C::Trains, 4, Some(6), [NA, m(-1), NA, m(-2), NA, NA], false, Md::Rail),
    // Water craft
    row(C::RowedCraft, 1, Some(3), [m(-1), NA, m(-3), m(-3), m(-1), m(-3)], false, Md::Water),
    row(C::Ferry, 1, Some(3), [NA, NA, m(-3), m(-3), m(-1), m(-1)], false, Md::Water),
    row(C::Schwimmwagen, 1, Some(3), [NA, NA, m(-3), m(-3), m(-1), m(-3)], false, Md::Water),
    row(C::PoweredCraft, 2, Some(6), [NA, NA, m(-1), m(-3), m(-1), m(-1)], false, Md::Water),
    row(C::BeachLanding, 2, None, [m(-1), m(-1), m(-3), m(-2), m(-1), m(-2)], false, Md::Landing),
    row(C::ShoreLanding, 2, None, [m(-2), m(-2), m(-4), m(-4), m(-2), m(-4)], false, Md::Landing),
];

impl MoverClass {
    /// This class's row of the 14.11 table.
    pub fn row(self) -> &'static MovementRow {
        MOVEMENT_TEST_TABLE.iter().find(|r| r.class == self).expect("every class has a row")
    }

    /// Foot soldiers, who may jump by parachute (FYOW 28.13).
    pub const fn parachutes(self) -> bool {
        matches!(self, Self::RegularInfantry | Self::SpecialForces)
    }
}

impl MovementRow {
    /// The sum of the weather columns that apply in `c`.
    /// Reading (FYOW 14.11): conditions together (a foggy night) add their modifiers.
    pub fn weather_modifier(&self, c: &SessionConditions) -> i8 {
        let mut total = 0;
        for (on, cell) in [
            (c.heavy_rain, self.heavy_rain),
            (c.snow, self.snow),
            (c.high_winds, self.high_winds),
            (c.fog, self.fog),
            (c.light == Light::NightMoon, self.night_moon),
            (c.light == Light::NightNoMoon, self.night_no_moon),
        ] {
            if on {
                total += cell.modifier();
            }
        }
        total
    }
}

/// What a Battlegroup or Fraction is made of, for moving (FYOW 14.1, 14.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mover {
    /// The table rows its elements fall in.
    pub classes: Vec<MoverClass>,
    /// "Battlegroups comprising entirely Elite units" (FYOW 14.5).
    pub all_elite: bool,
}

/// The movement figures of a [`Mover`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoverProfile {
    pub mp: u8,
    pub max_per_day: u8,
    pub v_barred: bool,
    pub medium: Medium,
}

impl Mover {
    pub fn new(classes: impl IntoIterator<Item = MoverClass>, all_elite: bool) -> Self {
        Self { classes: classes.into_iter().collect(), all_elite }
    }

    /// FYOW 14.1: "Mixed Battlegroups move at the rate of the slowest element": the lowest
    /// MP and the lowest maximum per day; any element barred from "V" bars the force.
    pub fn profile(&self) -> Result<MoverProfile, MapError> {
        let rows: Vec<&MovementRow> = self.classes.iter().map(|c| c.row()).collect();
        let first = rows.first().ok_or_else(|| MapError::NotAllowed("a mover needs at least one class".into()))?;
        if rows.iter().any(|r| r.medium != first.medium) {
            return Err(MapError::NotAllowed(
                "a force moves by one medium: land, rail or water (FYOW 13.5); split it into Fractions".into(),
            ));
        }
        if first.medium == Medium::Landing {
            return Err(MapError::NotAllowed("landings are tested with landing_test (FYOW 14.13)".into()));
        }
        Ok(MoverProfile {
            mp: rows.iter().map(|r| r.mp).min().unwrap_or(0),
            max_per_day: rows.iter().filter_map(|r| r.max_per_day).min().unwrap_or(0),
            v_barred: rows.iter().any(|r| r.v_barred),
            medium: first.medium,
        })
    }

    /// Reading (FYOW 14.1): the slowest element governs the weather too — the worst modifier
    /// among the force's rows.
    pub fn weather_modifier(&self, c: &SessionConditions) -> i8 {
        self.classes.iter().map(|k| k.row().weather_modifier(c)).min().unwrap_or(0)
    }
}

/// Moves left to a force today (FYOW 14.1, 14.2, 14.7, 15.8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveAllowance {
    max_per_day: u8,
    moves_made: u8,
    sessions_engaged: u8,
    acted_this_session: bool,
}

impl MoveAllowance {
    /// A fresh day for a force that may move `max_per_day` boards.
    pub fn new_day(max_per_day: u8) -> Self {
        Self { max_per_day, moves_made: 0, sessions_engaged: 0, acted_this_session: false }
    }

    /// FYOW 3.5: a new Fraction "can only have the same number of Moves that day as are
    /// remaining to the parent Battlegroup, subject to any maximum applicable to it".
    pub fn for_new_fraction(parent: &MoveAllowance, fraction_max: u8) -> Self {
        let left = parent.remaining().min(fraction_max);
        Self { max_per_day: left, moves_made: 0, sessions_engaged: 0, acted_this_session: false }
    }

    /// Moves still allowed today.
    pub fn remaining(&self) -> u8 {
        self.max_per_day.saturating_sub(self.moves_made.saturating_add(self.sessions_engaged))
    }

    pub fn moves_made(&self) -> u8 {
        self.moves_made
    }

    /// FYOW 14.1: one Map Board per session; a new session frees the force to act.
    pub fn new_session(&mut self) {
        self.acted_this_session = false;
    }

    /// FYOW 14.2, 15.8: a session engaged with the enemy loses one board of allowance.
    pub fn engaged_session(&mut self) {
        self.sessions_engaged = self.sessions_engaged.saturating_add(1);
    }

    /// Whether the force may still spend a move this session.
    pub fn check_move(&self) -> Result<(), MapError> {
        if self.acted_this_session {
            return Err(MapError::NotAllowed(
                "the force has already acted this session (FYOW 14.1: 1 Map Board per session)".into(),
            ));
        }
        if self.remaining() == 0 {
            return Err(MapError::NotAllowed(format!(
                "no Map Board moves left today: maximum {} per day less moves made and sessions engaged (FYOW 14.7, 15.8)",
                self.max_per_day
            )));
        }
        Ok(())
    }

    /// Spends one move (a board moved, or a deployment, FYOW 15.3).
    pub fn spend_move(&mut self) -> Result<(), MapError> {
        self.check_move()?;
        self.moves_made += 1;
        self.acted_this_session = true;
        Ok(())
    }

    /// Uses the session without a move: a box shift (FYOW 13.7) or a failed Movement Test.
    pub fn spend_session(&mut self) -> Result<(), MapError> {
        if self.acted_this_session {
            return Err(MapError::NotAllowed("the force has already acted this session (FYOW 14.1)".into()));
        }
        self.acted_this_session = true;
        Ok(())
    }
}

/// Repeated attempts at the same move (FYOW 14.6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetryRecord {
    pub from: String,
    pub to: String,
    pub route: RouteKind,
    /// Daylight attempts at this move that failed.
    pub daylight_failures: u8,
    /// A night attempt at this move failed: no "second try" modifiers any more.
    pub forfeited: bool,
}

/// FYOW 14.6: "The maximum modifier is +3 (+6 for elite)", +1 (+2 elite) a failed attempt.
pub const MAX_RETRY_STEPS: u8 = 3;

impl RetryRecord {
    fn is_for(&self, leg: &Leg) -> bool {
        self.from == leg.from.0 && self.to == leg.to.0 && self.route == leg.route.kind()
    }

    /// The "second try" bonus for a daylight attempt.
    /// Reading (FYOW 14.6): the bonus is earned by failed daylight attempts and used on later
    /// daylight attempts ("the following daylight session it may try again"); a failed night
    /// attempt forfeits it for this move "by night or day" until a move is made.
    fn bonus(&self, all_elite: bool) -> i8 {
        if self.forfeited {
            return 0;
        }
        (self.daylight_failures.min(MAX_RETRY_STEPS) * if all_elite { 2 } else { 1 }) as i8
    }
}

/// A force's movement state across sessions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovementState {
    pub allowance: MoveAllowance,
    pub retry: Option<RetryRecord>,
}

impl MovementState {
    pub fn new_day(max_per_day: u8, previous: Option<RetryRecord>) -> Self {
        Self { allowance: MoveAllowance::new_day(max_per_day), retry: previous }
    }
}

/// FYOW 14.9 / 18.1: overtaking a friendly force that occupies a board on the route.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Overtaking {
    /// The move leaves a board already occupied by a friendly force it is overtaking.
    pub leaving: bool,
    /// The move enters a board already occupied by a friendly force it is overtaking.
    pub entering: bool,
}

/// Chance cards that change Movement Test dice for a day (FYOW 32, the threes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MovementCard {
    /// 3 of Clubs: "Any MP Test D10 roll of 0 counts as 0 not 10 today".
    ZeroCountsAsZero,
    /// 3 of Hearts: "Any MP Test D10 roll of 1 can be re-rolled today".
    /// Reading: a 1 is always re-rolled (it is the worst score), once; the second throw stands.
    RerollOnes,
}

/// Why a force moves back (FYOW 14.14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Retreat {
    /// Obliged to retire by a Strategic Condition test: a Movement Test at +1.
    StrategicCondition,
    /// Obliged to retreat by the Dunnigan rules: no test, the move is automatic.
    Dunnigan,
}

/// One proposed move between Map Boards (FYOW 14.3, 14.5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveAttempt {
    /// The leg named before the throw (FYOW 14.3).
    pub leg: Leg,
    pub conditions: SessionConditions,
    /// FYOW 14.10, 20.7.1: "A unit that is Rationed loses its MPs when attempting any move."
    pub rationed: bool,
    /// The Rain/Snow Gauge deduction of the day (FYOW 25.6: 0, -1, -2 or -4), from the weather rules.
    pub gauge_modifier: i8,
    pub overtaking: Overtaking,
    pub retreat: Option<Retreat>,
    pub card: Option<MovementCard>,
}

impl MoveAttempt {
    /// An ordinary move along `leg` in `conditions`.
    pub fn new(leg: Leg, conditions: SessionConditions) -> Self {
        Self {
            leg,
            conditions,
            rationed: false,
            gauge_modifier: 0,
            overtaking: Overtaking::default(),
            retreat: None,
            card: None,
        }
    }
}

/// The result of a Movement Test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveOutcome {
    pub moved: bool,
    /// The D10 as counted (10 for a 0, unless a card says otherwise); `None` when no test was taken.
    pub d10: Option<u8>,
    pub total: i16,
    /// The link's Movement Points to equal or better.
    pub needed: u8,
    /// Each modifier added to the D10, with its name.
    pub modifiers: Vec<(String, i16)>,
}

fn throw_d10(dice: &mut impl Roll, card: Option<MovementCard>, thrown: &mut Vec<u8>) -> u8 {
    let mut face = dice.d10();
    thrown.push(face);
    if card == Some(MovementCard::RerollOnes) && face == 1 {
        face = dice.d10();
        thrown.push(face);
    }
    if card == Some(MovementCard::ZeroCountsAsZero) && face == 10 { 0 } else { face }
}

fn medium_allows(medium: Medium, route: RouteKind) -> bool {
    match medium {
        Medium::Land => matches!(route, RouteKind::MetalledRoad | RouteKind::SecondaryRoad),
        Medium::Rail => route == RouteKind::Rail,
        Medium::Water => route.is_water(),
        Medium::Landing => false,
    }
}

/// FYOW 14.5 Movement Test: D10 + the force's MP (none when rationed) + elite +1 + the
/// "second try" bonus + weather and night (14.11) + the Rain/Snow Gauge + overtaking -1 on
/// roads + retreat +1, against the link's MP. Checks the route, "V", and the day's allowance
/// (a retreat is obliged, so it is not refused for want of moves). A Dunnigan retreat
/// moves without a test.
pub fn movement_test(
    force: &str,
    mover: &Mover,
    state: &mut MovementState,
    attempt: &MoveAttempt,
    dice: &mut impl Roll,
) -> Result<(MoveOutcome, RuleEvent), MapError> {
    let profile = mover.profile()?;
    let leg = &attempt.leg;
    let route = leg.route.kind();
    if !medium_allows(profile.medium, route) {
        return Err(MapError::NotAllowed(format!(
            "{force} cannot move along a {} link: {:?} forces need a matching link (FYOW 13.5)",
            route.name(),
            profile.medium
        )));
    }
    if leg.v && profile.v_barred {
        return Err(MapError::NotAllowed(format!(
            "{force} has vehicles that cannot traverse the \"V\" link {} – {} (FYOW 14.4)",
            leg.from, leg.to
        )));
    }
    if attempt.retreat.is_none() {
        state.allowance.check_move()?;
    }
    let rule = RuleRef::new(Book::FightYourOwnWars, "14.5 Movement Test");
    let event = RuleEvent::new(EventKind::MapMovement, rule)
        .actor(force)
        .input("from", &leg.from, "")
        .input("to", &leg.to, "")
        .input("route", route, "named before the throw (14.3)")
        .input("link_mp", leg.mp, "the Movement Points shown on the link");

    if attempt.retreat == Some(Retreat::Dunnigan) {
        state.retry = None;
        let outcome = MoveOutcome { moved: true, d10: None, total: 0, needed: leg.mp, modifiers: Vec::new() };
        let event = event
            .input("retreat", "Dunnigan", "no Movement Test: the move is automatic (14.14)")
            .outcome(json!({ "moved": true, "arrival_edge": leg.arrival_edge }));
        state.allowance.acted_this_session = true;
        return Ok((outcome, event));
    }

    let mut modifiers: Vec<(String, i16, String)> = Vec::new();
    let mut add = |name: &str, value: i16, why: &str| {
        if value != 0 {
            modifiers.push((name.to_owned(), value, why.to_owned()));
        }
    };
    if !attempt.rationed {
        add("movement_points", profile.mp.into(), "the force's MP, slowest element (14.1, 14.11)");
    }
    if mover.all_elite {
        add("elite", 1, "entirely Elite units (14.5)");
    }
    let same_move = state.retry.as_ref().filter(|r| r.is_for(leg));
    if attempt.conditions.light == Light::Daylight
        && let Some(r) = same_move
    {
        add("second_try", r.bonus(mover.all_elite).into(), "failed daylight attempts at this move (14.6)");
    }
    add("weather", mover.weather_modifier(&attempt.conditions).into(), "weather and night columns (14.11)");
    add("rain_snow_gauge", attempt.gauge_modifier.into(), "state of the roads and rivers (25.6)");
    if matches!(route, RouteKind::MetalledRoad | RouteKind::SecondaryRoad) {
        if attempt.overtaking.leaving {
            add("overtaking_leaving", -1, "leaves a board occupied by a friendly force it overtakes (14.9)");
        }
        if attempt.overtaking.entering {
            add("overtaking_entering", -1, "enters a board occupied by a friendly force it overtakes (14.9)");
        }
    }
    if attempt.retreat == Some(Retreat::StrategicCondition) {
        add("retreat", 1, "obliged to retire by a Strategic Condition test (14.14)");
    }

    let mut thrown = Vec::new();
    let d10 = throw_d10(dice, attempt.card, &mut thrown);
    let total = i16::from(d10) + modifiers.iter().map(|m| m.1).sum::<i16>();
    let moved = total >= i16::from(leg.mp);

    // Bookkeeping: a move made spends a move and clears the retry record; a failed attempt
    // spends the session and builds (by day) or forfeits (by night) the "second try" bonus.
    if moved {
        if attempt.retreat.is_some() {
            state.allowance.acted_this_session = true;
        } else {
            state.allowance.spend_move()?;
        }
        state.retry = None;
    } else {
        state.allowance.acted_this_session = true;
        let mut r = match state.retry.take() {
            Some(r) if r.is_for(leg) => r,
            _ => RetryRecord {
                from: leg.from.0.clone(),
                to: leg.to.0.clone(),
                route,
                daylight_failures: 0,
                forfeited: false,
            },
        };
        if attempt.conditions.light.is_night() {
            r.forfeited = true;
        } else {
            r.daylight_failures = r.daylight_failures.saturating_add(1);
        }
        state.retry = Some(r);
    }

    let mut event = event.input("rationed", attempt.rationed, "a Rationed force loses its MPs (14.10)");
    for (name, value, why) in &modifiers {
        event = event.input(name.clone(), value, why.clone());
    }
    if let Some(card) = attempt.card {
        event = event.input("chance_card", card, "FYOW 32");
    }
    let event = event.dice(10, &thrown).outcome(json!({
        "moved": moved,
        "total": total,
        "needed": leg.mp,
        "arrival_edge": moved.then_some(leg.arrival_edge),
    }));
    let outcome = MoveOutcome {
        moved,
        d10: Some(d10),
        total,
        needed: leg.mp,
        modifiers: modifiers.into_iter().map(|(n, v, _)| (n, v)).collect(),
    };
    Ok((outcome, event))
}

/// A force's part in a contact on the campaign map (FYOW 14.8, 16.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ContactRole {
    /// It moved into contact with an enemy occupying the board.
    Arrived {
        /// The occupying enemy was detected (FYOW 16).
        enemy_detected: bool,
        /// The occupiers have detected it (FYOW 16.3, 16.4).
        itself_detected: bool,
        orders_allow_withdrawal: bool,
    },
    /// It occupies the board an enemy arrived at.
    Occupying {
        /// The arriving enemy stayed in the box and did not advance onto the board.
        enemy_stayed_in_box: bool,
        orders_allow_withdrawal: bool,
    },
}

/// FYOW 14.8: whether a force in contact may move away. An arriving force may only if it
/// detected the occupiers and its orders permit it to withdraw without engaging — and, by
/// 16.1, only if it was not detected itself. An occupying force may only if the enemy stayed
/// in the box and its orders allow withdrawal.
pub fn may_leave_contact(force: &str, role: ContactRole) -> (bool, RuleEvent) {
    let may = match role {
        ContactRole::Arrived { enemy_detected, itself_detected, orders_allow_withdrawal } => {
            enemy_detected && orders_allow_withdrawal && !itself_detected
        }
        ContactRole::Occupying { enemy_stayed_in_box, orders_allow_withdrawal } => {
            enemy_stayed_in_box && orders_allow_withdrawal
        }
    };
    let event =
        RuleEvent::new(EventKind::MapMovement, RuleRef::new(Book::FightYourOwnWars, "14.8 Moving out of contact"))
            .actor(force)
            .input("role", role, "")
            .outcome(json!({ "may_move_away": may }));
    (may, event)
}

/// FYOW 14.13: how a force comes ashore.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Landing {
    /// Landing craft, small boats and dinghies onto a beach: "Beach landing", total 4.
    Beach,
    /// Small boats and dinghies onto a shoreline that is not a beach: "Shore landing", total 5.
    Shore,
    /// "Paratroopers do not need to make this Movement Test during a parachute landing."
    Parachute,
}

/// FYOW 14.13: "A beach landing requires a total score of 4."
pub const BEACH_LANDING_NEEDS: u8 = 4;
/// FYOW 14.13: a shore landing "will need a total score of 5".
pub const SHORE_LANDING_NEEDS: u8 = 5;

/// FYOW 14.13 Landings from sea or air: D10 + 2 MP + the landing row's weather (+1 elite)
/// against 4 (beach) or 5 (shore). A parachute landing needs no test.
/// Reading (FYOW 13.8, 14.13): a beach landing needs a sandy beach; a shore landing is onto
/// any coast that is not a beach (non-beach coastline or a harbour).
pub fn landing_test(
    force: &str,
    landing: Landing,
    coast: Option<Coast>,
    conditions: &SessionConditions,
    all_elite: bool,
    dice: &mut impl Roll,
) -> Result<(MoveOutcome, RuleEvent), MapError> {
    let rule = RuleRef::new(Book::FightYourOwnWars, "14.13 Landings from sea or air");
    let (class, needed) = match (landing, coast) {
        (Landing::Parachute, _) => {
            let event = RuleEvent::new(EventKind::MapMovement, rule)
                .actor(force)
                .input("landing", landing, "paratroopers take no Movement Test")
                .outcome(json!({ "moved": true }));
            return Ok((MoveOutcome { moved: true, d10: None, total: 0, needed: 0, modifiers: Vec::new() }, event));
        }
        (Landing::Beach, Some(Coast::SandyBeach)) => (MoverClass::BeachLanding, BEACH_LANDING_NEEDS),
        (Landing::Shore, Some(Coast::NonBeach | Coast::Harbour)) => (MoverClass::ShoreLanding, SHORE_LANDING_NEEDS),
        (Landing::Beach, _) => {
            return Err(MapError::NotAllowed("a beach landing needs a sandy beach (FYOW 13.8, 14.13)".into()));
        }
        (Landing::Shore, _) => {
            return Err(MapError::NotAllowed(
                "a shore landing is onto a coastline that is not a beach (FYOW 13.8, 14.13)".into(),
            ));
        }
    };
    let r = class.row();
    let weather = i16::from(r.weather_modifier(conditions));
    let elite = i16::from(all_elite);
    let d10 = dice.d10();
    let total = i16::from(d10) + i16::from(r.mp) + weather + elite;
    let moved = total >= i16::from(needed);
    let mut modifiers = vec![("movement_points".to_owned(), i16::from(r.mp))];
    if weather != 0 {
        modifiers.push(("weather".into(), weather));
    }
    if elite != 0 {
        modifiers.push(("elite".into(), elite));
    }
    let event = RuleEvent::new(EventKind::MapMovement, rule)
        .actor(force)
        .input("landing", landing, "")
        .input("movement_points", r.mp, "landing row of 14.11")
        .input("weather", weather, "landing row weather columns (14.11)")
        .input("elite", elite, "entirely Elite units (14.5)")
        .dice(10, &[d10])
        .outcome(json!({ "moved": moved, "total": total, "needed": needed }));
    Ok((MoveOutcome { moved, d10: Some(d10), total, needed, modifiers }, event))
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;
    use crate::map::board::BoardId;
    use crate::map::board::tests::guernsey;

    fn leg(from: &str, to: &str, route: RouteKind) -> Leg {
        guernsey().leg(&BoardId::new(from), &BoardId::new(to), route).unwrap()
    }

    fn infantry() -> Mover {
        Mover::new([MoverClass::RegularInfantry], false)
    }

    fn day() -> SessionConditions {
        SessionConditions::fine_day()
    }

    #[test]
    fn the_table_is_copied_row_for_row() {
        assert_eq!(MOVEMENT_TEST_TABLE.len(), 24);
        let inf = MoverClass::RegularInfantry.row();
        assert_eq!((inf.mp, inf.max_per_day), (1, Some(2)));
        assert_eq!([inf.heavy_rain, inf.fog, inf.night_no_moon], [m(-1), m(-3), m(-3)]);
        let cars = MoverClass::CivilianCars.row();
        assert_eq!((cars.mp, cars.max_per_day, cars.snow, cars.high_winds), (4, Some(5), m(-3), m(-1)));
        let trains = MoverClass::Trains.row();
        assert_eq!((trains.mp, trains.max_per_day, trains.fog), (4, Some(6), m(-2)));
        let shore = MoverClass::ShoreLanding.row();
        assert_eq!((shore.max_per_day, shore.high_winds), (None, m(-4)));
        assert_eq!(MoverClass::PoweredCraft.row().max_per_day, Some(6));
        let bold: Vec<_> = MOVEMENT_TEST_TABLE.iter().filter(|r| r.v_barred).map(|r| r.class).collect();
        assert_eq!(bold.len(), 10);
        assert!(bold.contains(&MoverClass::Afvs) && !bold.contains(&MoverClass::JeepsKubel));
    }

    #[test]
    fn blank_and_na_cells_give_no_modifier_and_conditions_add_up() {
        let night_fog = SessionConditions { fog: true, ..SessionConditions::fine(Light::NightNoMoon) };
        assert_eq!(MoverClass::RegularInfantry.row().weather_modifier(&night_fog), -6);
        assert_eq!(MoverClass::Afvs.row().weather_modifier(&night_fog), 0);
        assert_eq!(MoverClass::SpecialForces.row().weather_modifier(&night_fog), -2);
    }

    #[test]
    fn mixed_battlegroups_move_at_the_rate_of_the_slowest_element() {
        let mixed = Mover::new([MoverClass::JeepsKubel, MoverClass::RegularInfantry], false);
        let p = mixed.profile().unwrap();
        assert_eq!((p.mp, p.max_per_day, p.v_barred), (1, 2, false));
        let snow = SessionConditions { snow: true, ..day() };
        let trucks = Mover::new([MoverClass::OtherTrucks, MoverClass::AwdTrucks], false);
        assert_eq!(trucks.weather_modifier(&snow), -2, "the worst modifier governs");
        assert!(Mover::new([], false).profile().is_err());
        let err = Mover::new([MoverClass::Afvs, MoverClass::PoweredCraft], false).profile().unwrap_err();
        assert!(err.to_string().contains("one medium"), "{err}");
    }

    #[test]
    fn a_move_succeeds_when_d10_plus_mp_equals_the_link() {
        // Castel -> Cobo Bay needs 6: infantry MP 1 + D10 5 = 6.
        let mut state = MovementState::new_day(2, None);
        let attempt = MoveAttempt::new(leg("Castel", "Cobo Bay", RouteKind::MetalledRoad), day());
        let (out, event) = movement_test("1 Bn", &infantry(), &mut state, &attempt, &mut Scripted::new([5])).unwrap();
        assert!(out.moved);
        assert_eq!((out.total, out.needed), (6, 6));
        assert_eq!(event.kind, EventKind::MapMovement);
        assert_eq!(event.rule.section, "14.5 Movement Test");
        assert_eq!(event.dice[0].face, 5);
        assert_eq!(state.allowance.moves_made(), 1);
        let mut state = MovementState::new_day(2, None);
        let (out, _) = movement_test("1 Bn", &infantry(), &mut state, &attempt, &mut Scripted::new([4])).unwrap();
        assert!(!out.moved);
        assert_eq!(state.allowance.moves_made(), 0, "a failed attempt is not a move");
    }

    #[test]
    fn weather_night_elite_and_rationing_modify_the_throw() {
        let l = leg("Castel", "Cobo Bay", RouteKind::MetalledRoad);
        let fog_night = SessionConditions { fog: true, ..SessionConditions::fine(Light::NightMoon) };
        let elite = Mover::new([MoverClass::RegularInfantry], true);
        let mut state = MovementState::new_day(2, None);
        let attempt = MoveAttempt { rationed: true, gauge_modifier: -1, ..MoveAttempt::new(l, fog_night) };
        // D10 10, MP lost, +1 elite, fog -3, moon -1, gauge -1 = 6: just enough.
        let (out, event) = movement_test("Paras", &elite, &mut state, &attempt, &mut Scripted::new([10])).unwrap();
        assert_eq!(out.total, 6);
        assert!(out.moved);
        assert!(!out.modifiers.iter().any(|(n, _)| n == "movement_points"), "rationed: no MP");
        assert!(event.inputs.iter().any(|i| i.name == "rain_snow_gauge"));
    }

    #[test]
    fn failed_daylight_attempts_build_the_second_try_bonus_to_three() {
        let l = leg("Cobo Bay", "Castel", RouteKind::MetalledRoad);
        let mut state = MovementState::new_day(2, None);
        let attempt = MoveAttempt::new(l.clone(), day());
        let mut totals = Vec::new();
        for _ in 0..5 {
            state.allowance.new_session();
            let (out, _) = movement_test("1 Bn", &infantry(), &mut state, &attempt, &mut Scripted::new([1])).unwrap();
            totals.push(out.total);
        }
        assert_eq!(totals, [2, 3, 4, 5, 5], "+1, +2, +3 and no more");
        state.allowance.new_session();
        let (out, _) = movement_test("1 Bn", &infantry(), &mut state, &attempt, &mut Scripted::new([2])).unwrap();
        assert!(out.moved, "2 + 1 + 3 = 6");
        assert_eq!(state.retry, None, "a move made resets the modifier");
    }

    #[test]
    fn elite_retry_bonus_is_two_a_failure_to_six() {
        let l = leg("Cobo Bay", "Castel", RouteKind::MetalledRoad);
        let elite = Mover::new([MoverClass::RegularInfantry], true);
        let retry = RetryRecord {
            from: "Cobo Bay".into(),
            to: "Castel".into(),
            route: RouteKind::MetalledRoad,
            daylight_failures: 4,
            forfeited: false,
        };
        let mut state = MovementState::new_day(2, Some(retry));
        let (out, _) =
            movement_test("Guards", &elite, &mut state, &MoveAttempt::new(l, day()), &mut Scripted::new([1])).unwrap();
        assert!(out.modifiers.contains(&("second_try".into(), 6)));
        assert_eq!(out.total, 1 + 1 + 1 + 6);
    }

    #[test]
    fn a_failed_night_attempt_forfeits_the_second_try_bonus() {
        let l = leg("Cobo Bay", "Castel", RouteKind::MetalledRoad);
        let mut state = MovementState::new_day(2, None);
        movement_test("1 Bn", &infantry(), &mut state, &MoveAttempt::new(l.clone(), day()), &mut Scripted::new([1]))
            .unwrap();
        state.allowance.new_session();
        let night = MoveAttempt::new(l.clone(), SessionConditions::fine(Light::NightMoon));
        let (out, _) = movement_test("1 Bn", &infantry(), &mut state, &night, &mut Scripted::new([1])).unwrap();
        assert!(!out.modifiers.iter().any(|(n, _)| n == "second_try"), "no bonus by night");
        state.allowance.new_session();
        let (out, _) =
            movement_test("1 Bn", &infantry(), &mut state, &MoveAttempt::new(l, day()), &mut Scripted::new([1]))
                .unwrap();
        assert_eq!(out.total, 2, "forfeited by day too");
    }

    #[test]
    fn another_route_resets_the_bonus() {
        let mut state = MovementState::new_day(2, None);
        let a = MoveAttempt::new(leg("Cobo Bay", "Castel", RouteKind::MetalledRoad), day());
        movement_test("1 Bn", &infantry(), &mut state, &a, &mut Scripted::new([1])).unwrap();
        state.allowance.new_session();
        let b = MoveAttempt::new(leg("Cobo Bay", "Vazon Bay", RouteKind::SecondaryRoad), day());
        let (out, _) = movement_test("1 Bn", &infantry(), &mut state, &b, &mut Scripted::new([1])).unwrap();
        assert_eq!(out.total, 2);
        assert_eq!(state.retry.as_ref().map(|r| r.to.as_str()), Some("Vazon Bay"));
    }

    #[test]
    fn one_board_per_session_and_the_daily_maximum_less_sessions_engaged() {
        let l = leg("Castel", "Cobo Bay", RouteKind::MetalledRoad);
        let mut state = MovementState::new_day(2, None);
        let a = MoveAttempt::new(l, day());
        movement_test("1 Bn", &infantry(), &mut state, &a, &mut Scripted::new([9])).unwrap();
        let err = movement_test("1 Bn", &infantry(), &mut state, &a, &mut Scripted::new([9])).unwrap_err();
        assert!(err.to_string().contains("1 Map Board per session"), "{err}");
        state.allowance.new_session();
        state.allowance.engaged_session();
        state.allowance.new_session();
        let err = movement_test("1 Bn", &infantry(), &mut state, &a, &mut Scripted::new([9])).unwrap_err();
        assert!(err.to_string().contains("no Map Board moves left"), "{err}");
    }

    #[test]
    fn a_new_fraction_has_the_parents_remaining_moves() {
        let mut parent = MoveAllowance::new_day(4);
        parent.spend_move().unwrap();
        assert_eq!(MoveAllowance::for_new_fraction(&parent, 5).remaining(), 3);
        assert_eq!(MoveAllowance::for_new_fraction(&parent, 2).remaining(), 2);
    }

    #[test]
    fn v_links_bar_the_bold_vehicles() {
        let l = leg("Cobo Bay", "Vazon Bay", RouteKind::SecondaryRoad);
        let tanks = Mover::new([MoverClass::Afvs, MoverClass::RegularInfantry], false);
        let mut state = MovementState::new_day(2, None);
        let err =
            movement_test("Tanks", &tanks, &mut state, &MoveAttempt::new(l.clone(), day()), &mut Scripted::new([]))
                .unwrap_err();
        assert!(err.to_string().contains("\"V\""), "{err}");
        let jeeps = Mover::new([MoverClass::JeepsKubel], false);
        assert!(
            movement_test("Recce", &jeeps, &mut state, &MoveAttempt::new(l, day()), &mut Scripted::new([4]))
                .unwrap()
                .0
                .moved
        );
    }

    #[test]
    fn water_craft_need_water_links_and_trains_rails() {
        let mut state = MovementState::new_day(6, None);
        let boats = Mover::new([MoverClass::PoweredCraft], false);
        let road = MoveAttempt::new(leg("Castel", "Cobo Bay", RouteKind::MetalledRoad), day());
        assert!(movement_test("MTB", &boats, &mut state, &road, &mut Scripted::new([])).is_err());
        let train = Mover::new([MoverClass::Trains], false);
        assert!(movement_test("Train", &train, &mut state, &road, &mut Scripted::new([])).is_err());
        let sea = MoveAttempt::new(leg("West Sea", "Cobo Bay", RouteKind::Sea), day());
        assert!(movement_test("MTB", &boats, &mut state, &sea, &mut Scripted::new([1])).unwrap().0.moved);
    }

    #[test]
    fn trains_are_auto_moves_unless_the_weather_intervenes() {
        let rail = leg("Castel", "St Peter Port", RouteKind::Rail);
        let train = Mover::new([MoverClass::Trains], false);
        for face in 1..=10 {
            let mut state = MovementState::new_day(6, None);
            let (out, _) = movement_test(
                "Train",
                &train,
                &mut state,
                &MoveAttempt::new(rail.clone(), day()),
                &mut Scripted::new([face]),
            )
            .unwrap();
            assert!(out.moved, "face {face}");
        }
        let snow = SessionConditions { snow: true, ..day() };
        let mut state = MovementState::new_day(6, None);
        let (out, _) =
            movement_test("Train", &train, &mut state, &MoveAttempt::new(rail, snow), &mut Scripted::new([1])).unwrap();
        assert!(!out.moved, "1 + 4 - 1 = 4 < 5");
    }

    #[test]
    fn overtaking_costs_one_entering_and_one_leaving_on_roads_only() {
        let mut state = MovementState::new_day(2, None);
        let a = MoveAttempt {
            overtaking: Overtaking { leaving: true, entering: true },
            ..MoveAttempt::new(leg("Castel", "Cobo Bay", RouteKind::MetalledRoad), day())
        };
        let (out, _) = movement_test("2 Bn", &infantry(), &mut state, &a, &mut Scripted::new([6])).unwrap();
        assert_eq!(out.total, 5);
        let boats = Mover::new([MoverClass::PoweredCraft], false);
        let mut state = MovementState::new_day(6, None);
        let sea = MoveAttempt {
            overtaking: a.overtaking,
            ..MoveAttempt::new(leg("West Sea", "Cobo Bay", RouteKind::Sea), day())
        };
        let (out, _) = movement_test("MTB", &boats, &mut state, &sea, &mut Scripted::new([1])).unwrap();
        assert_eq!(out.total, 3, "no traffic jam at sea");
    }

    #[test]
    fn retreat_after_a_strategic_condition_test_gains_one_and_ignores_the_allowance() {
        let mut state = MovementState::new_day(0, None);
        let a = MoveAttempt {
            retreat: Some(Retreat::StrategicCondition),
            ..MoveAttempt::new(leg("Castel", "Cobo Bay", RouteKind::MetalledRoad), day())
        };
        let (out, _) = movement_test("1 Bn", &infantry(), &mut state, &a, &mut Scripted::new([4])).unwrap();
        assert!(out.moved, "4 + 1 + 1 = 6");
        let mut state = MovementState::new_day(0, None);
        let d = MoveAttempt { retreat: Some(Retreat::Dunnigan), ..a };
        let (out, event) = movement_test("1 Bn", &infantry(), &mut state, &d, &mut Scripted::new([])).unwrap();
        assert!(out.moved && out.d10.is_none() && event.dice.is_empty());
    }

    #[test]
    fn chance_cards_change_the_movement_d10() {
        let rail = leg("Castel", "St Peter Port", RouteKind::Rail);
        let train = Mover::new([MoverClass::Trains], false);
        let mut state = MovementState::new_day(6, None);
        let a = MoveAttempt { card: Some(MovementCard::ZeroCountsAsZero), ..MoveAttempt::new(rail, day()) };
        let (out, _) = movement_test("Train", &train, &mut state, &a, &mut Scripted::new([10])).unwrap();
        assert!(!out.moved, "a 0 counts as 0: 0 + 4 < 5");
        let mut state = MovementState::new_day(2, None);
        let a = MoveAttempt {
            card: Some(MovementCard::RerollOnes),
            ..MoveAttempt::new(leg("Castel", "Cobo Bay", RouteKind::MetalledRoad), day())
        };
        let (out, event) = movement_test("1 Bn", &infantry(), &mut state, &a, &mut Scripted::new([1, 7])).unwrap();
        assert_eq!((out.d10, event.dice.len()), (Some(7), 2));
    }

    #[test]
    fn a_force_in_contact_moves_away_only_when_detection_and_orders_allow() {
        let arrived = |enemy_detected, itself_detected, orders_allow_withdrawal| ContactRole::Arrived {
            enemy_detected,
            itself_detected,
            orders_allow_withdrawal,
        };
        assert!(may_leave_contact("Recce", arrived(true, false, true)).0);
        assert!(!may_leave_contact("Recce", arrived(false, false, true)).0, "the enemy was not detected");
        assert!(!may_leave_contact("Recce", arrived(true, false, false)).0, "orders to engage");
        assert!(!may_leave_contact("Recce", arrived(true, true, true)).0, "detected itself (16.1)");
        let occ = |enemy_stayed_in_box, orders_allow_withdrawal| ContactRole::Occupying {
            enemy_stayed_in_box,
            orders_allow_withdrawal,
        };
        let (may, e) = may_leave_contact("1 Bn", occ(true, true));
        assert!(may);
        assert_eq!(e.rule.section, "14.8 Moving out of contact");
        assert!(!may_leave_contact("1 Bn", occ(false, true)).0);
        assert!(!may_leave_contact("1 Bn", occ(true, false)).0);
    }

    #[test]
    fn beach_landings_need_four_and_shore_landings_five() {
        let day = day();
        let (out, e) =
            landing_test("Commando", Landing::Beach, Some(Coast::SandyBeach), &day, false, &mut Scripted::new([2]))
                .unwrap();
        assert!(out.moved && out.total == 4);
        assert_eq!(e.rule.section, "14.13 Landings from sea or air");
        let (out, _) =
            landing_test("Commando", Landing::Shore, Some(Coast::NonBeach), &day, false, &mut Scripted::new([2]))
                .unwrap();
        assert!(!out.moved, "2 + 2 < 5");
        let gale = SessionConditions { high_winds: true, ..day };
        let (out, _) =
            landing_test("Commando", Landing::Shore, Some(Coast::NonBeach), &gale, true, &mut Scripted::new([6]))
                .unwrap();
        assert_eq!(out.total, 6 + 2 - 4 + 1);
        assert!(landing_test("x", Landing::Beach, Some(Coast::NonBeach), &day, false, &mut Scripted::new([])).is_err());
        assert!(landing_test("x", Landing::Shore, None, &day, false, &mut Scripted::new([])).is_err());
        let (out, e) = landing_test("Paras", Landing::Parachute, None, &day, false, &mut Scripted::new([])).unwrap();
        assert!(out.moved && e.dice.is_empty());
    }
}
