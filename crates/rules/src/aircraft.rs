//! *Heroes All*, "Aircraft rules": operating heights, squadrons and their
//! 4-bound windows, ground-attack density, scheduling and calling in, the
//! box, the aircraft's Order Die options, spotting, attacks on ground troops
//! (guns, rockets, bombs, AT), anti-aircraft fire, damage and strength,
//! air-to-air combat, pre-game bombardment, the window closing, Air Command's
//! Continuous Momentum and aircraft on the ground.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::dice::Roll;
use crate::effects::{self, ArmourClass, AtResult, Facing, HeColumn, HeTarget, VehicleState};
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::officer::{self, Officer};
use crate::order_dice::Phase;

fn rule(section: &str) -> RuleRef {
    RuleRef::new(Book::HeroesAll, section)
}

/// "There are 3 operating heights for aircraft."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Height {
    Low,
    Medium,
    High,
}

/// Speed class: the AA damage throw and the air-to-air hit table read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    Fast,
    /// "All other".
    Normal,
    Slow,
}

/// What an aircraft is for ("fighter" or "ground attack", the bombers,
/// transports of "Operating heights").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Fighter,
    GroundAttack,
    /// "Dive bombers operate from medium level but immediately after their
    /// attack, they are considered to be at low level."
    DiveBomber,
    LightBomber,
    MediumBomber,
    HeavyBomber,
    Transport,
    TorpedoBomber,
}

/// Bomb sizes of "Bomb damage" (weights for comparison).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BombSize {
    /// Up to 100lbs: HE Effects column D.
    Small,
    /// 100–250lbs: column F.
    Medium,
    /// 500lbs and over: column "3F".
    Heavy,
}

/// An aircraft type as the (missing) aircraft CODEX would give it: "typical
/// weaponry, strength factors and speed".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AircraftType {
    pub name: String,
    pub role: Role,
    pub speed: Speed,
    pub strength: u8,
    #[serde(default)]
    pub mmg: u8,
    #[serde(default)]
    pub hmg: u8,
    #[serde(default)]
    pub cannon: u8,
    #[serde(default)]
    pub at_cannon: u8,
    #[serde(default)]
    pub rockets: u8,
    /// Bombs dropped per bound: "The CODEX shows how many bombs are dropped
    /// per bound for each aircraft type."
    #[serde(default)]
    pub bombs: Option<(BombSize, u8)>,
}

/// Bad input to an aircraft rule, or an action the rules forbid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AirError {
    /// "A force must field a Combat Air Patrol in its ORBATS ... If a CAP is
    /// not specified, it will not be available."
    NoCapFielded,
    /// The aircraft must be over the table (not in the box) for this.
    NotOverTable,
    /// The aircraft is already over the table.
    AlreadyOverTable,
    /// Moved to the height it is at.
    SameHeight(Height),
    /// "Aircraft cannot move 'at the double'."
    AtTheDouble,
    /// "Aircraft get 1 act per bound."
    TooManyActs(usize),
    /// "Aircraft attack ground troops with either bombs or machine guns from
    /// low level only" (bombing also from medium: see [`spot_ground_target_need`]).
    WrongHeight(Height),
    /// "Aircraft may not attack each other if they are at different levels."
    DifferentLevels(Height, Height),
    /// "AT cannons cannot be used in air-to-air combat."
    NoAirWeapons,
    /// The aircraft has no bombs, or no AT weapon.
    NoSuchWeapon,
    /// Only light and/or medium bombers (and fighters with them) fly a
    /// pre-game bombardment.
    NotForPreGame(Role),
    /// A match-up the rules forbid (per-defender attacker counts given).
    BadMatchUp(Vec<usize>),
    /// An aircraft shot down takes no further part.
    ShotDown,
    /// A D6 requirement outside 2..=6 or a table size that is not positive.
    BadInput(&'static str),
    /// "AA fire cannot be conducted at medium level aircraft if air-to-air
    /// combat is taking place", or the weapon cannot reach this height.
    NoAaFire,
    /// The window has closed: the aircraft leaves without further action.
    WindowClosed,
    /// Aircraft on the ground "may not use their guns".
    OnTheGround,
}

impl fmt::Display for AirError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for AirError {}

// ---------------------------------------------------------------- formations

/// "Aircraft normally operate in squadrons of 3 machines."
pub const SQUADRON: usize = 3;
/// "Aircraft are permitted to operate over the table in 'windows' of 4 bounds."
pub const WINDOW_BOUNDS: u32 = 4;

/// A force's window of operation: bounds `first..first + 4`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    pub first: u32,
}

impl Window {
    pub fn open(self, bound: u32) -> bool {
        (self.first..self.first + WINDOW_BOUNDS).contains(&bound)
    }

    /// "If the 'window' closes and aircraft are still on the table, they must
    /// leave immediately they are activated by their OPC on the next bound
    /// without taking any further action": [`AirError::WindowClosed`] once the
    /// window has passed, so the caller moves the aircraft off.
    pub fn may_act(self, bound: u32) -> Result<(), AirError> {
        if bound >= self.first + WINDOW_BOUNDS { Err(AirError::WindowClosed) } else { Ok(()) }
    }
}

/// *Heroes All*, "Ground attack aircraft density": "2 aircraft for every 8
/// square feet covered by the table. This means that a table 6ft x 4ft (24
/// square feet) can accommodate 6 aircraft."
///
/// Reading: a rate (1 aircraft per 4 square feet), rounded down, not whole
/// 8-square-foot blocks: the density is "suggested", and a 5ft x 3ft table
/// takes 3 (test `density_is_a_rate_rounded_down`).
pub fn ground_attack_capacity(width_ft: f32, depth_ft: f32) -> Result<u32, AirError> {
    if !(width_ft > 0.0 && depth_ft > 0.0 && width_ft.is_finite() && depth_ft.is_finite()) {
        return Err(AirError::BadInput("table size must be positive feet"));
    }
    Ok((width_ft * depth_ft * 2.0 / 8.0).floor() as u32)
}

/// How many of `wanting` ground attackers enter at low level this bound when
/// `attacking` already do; the rest "are considered in the 'box'".
pub fn admit_ground_attackers(capacity: u32, attacking: u32, wanting: u32) -> (u32, u32) {
    let enter = wanting.min(capacity.saturating_sub(attacking));
    (enter, wanting - enter)
}

/// How a squadron comes to the table ("Scheduling aircraft to appear").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Schedule {
    /// "Scheduled to appear on a specific bound."
    Bound(u32),
    /// "Allocated as close support to the ground troops": the next bound.
    CloseSupport,
    /// Called in during the game.
    CalledIn,
}

/// What is called in: "a ground attack or a Combat Air Patrol".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallIn {
    GroundAttack,
    CombatAirPatrol { fielded: bool },
}

/// The bound a close-support squadron asked for on `bound` arrives.
pub const fn close_support_arrival(bound: u32) -> u32 {
    bound + 1
}

/// *Heroes All*, "'Calling in' aircraft": the CO, in his Command turn, "must
/// pass a Leadership Test and then throws a D4 which will show the number of
/// bounds delay". Returns the bound of arrival, or `None` when the test fails.
/// The 2-player game passes `co = None` ("a player throws a D4").
pub fn call_in(
    what: CallIn,
    co: Option<Officer>,
    bound: u32,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(Option<u32>, Vec<RuleEvent>), AirError> {
    if what == (CallIn::CombatAirPatrol { fielded: false }) {
        return Err(AirError::NoCapFielded);
    }
    let mut events = Vec::new();
    if let Some(co) = co {
        let (test, e) = officer::leadership_test(co, dice, id);
        events.push(e);
        if !test.passed {
            return Ok((None, events));
        }
    }
    let delay = dice.d4();
    let arrives = bound + u32::from(delay);
    events.push(
        RuleEvent::new(EventKind::Movement, rule("\"Calling in\" aircraft"))
            .actor(id)
            .input("called_in", what, "a ground attack or a Combat Air Patrol")
            .input("bound", bound, "")
            .dice(4, &[delay])
            .outcome(json!({ "delay": delay, "arrives": arrives })),
    );
    Ok((Some(arrives), events))
}

// ------------------------------------------------------------------ aircraft

/// Where an aircraft is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Position {
    /// On the friendly edge: "In this position, they are referred to as being
    /// in the 'box'." The height it flies at is kept.
    Box(Height),
    OverTable(Height),
    /// Driven off until the bound given.
    DrivenOff {
        until: u32,
    },
    ShotDown,
    /// "Aircraft on the ground": a soft-skinned vehicle that may not use its guns.
    OnGround,
}

/// One machine of a squadron.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Aircraft {
    pub kind: AircraftType,
    /// Strength left: below 0 is shot down.
    pub strength: i8,
    pub position: Position,
    /// Made a ground attack this bound (AA adds a D6, spotting is automatic).
    pub attacked_ground: bool,
}

impl Aircraft {
    /// A machine arriving in the box at the height it will fly.
    pub fn new(kind: AircraftType, height: Height) -> Self {
        let strength = kind.strength as i8;
        Self { kind, strength, position: Position::Box(height), attacked_ground: false }
    }

    /// "Increased by 1 if the firing aircraft is damaged": strength below its start.
    pub fn damaged(&self) -> bool {
        self.strength < self.kind.strength as i8
    }

    pub fn in_action(&self) -> bool {
        matches!(self.position, Position::Box(_) | Position::OverTable(_))
    }

    pub fn height(&self) -> Option<Height> {
        match self.position {
            Position::Box(h) | Position::OverTable(h) => Some(h),
            _ => None,
        }
    }

    fn over_table(&self) -> Result<Height, AirError> {
        match self.position {
            Position::OverTable(h) => Ok(h),
            Position::ShotDown => Err(AirError::ShotDown),
            Position::OnGround => Err(AirError::OnTheGround),
            _ => Err(AirError::NotOverTable),
        }
    }
}

/// The Squadron Leader: "If the Squadron Leader is shot down or driven off,
/// the second aircraft in the squadron takes over automatically" — the first
/// machine, in squadron order, still in action.
pub fn squadron_leader(squadron: &[Aircraft]) -> Option<usize> {
    squadron.iter().position(Aircraft::in_action)
}

/// "If the pilot passes his ORT, the aircraft must move onto the table
/// automatically before the Order Die is thrown": from the box to over the
/// table at its height.
pub fn enter_table(a: &mut Aircraft) -> Result<(), AirError> {
    match a.position {
        Position::Box(h) => {
            a.position = Position::OverTable(h);
            Ok(())
        }
        Position::OverTable(_) => Err(AirError::AlreadyOverTable),
        Position::ShotDown => Err(AirError::ShotDown),
        _ => Err(AirError::NotOverTable),
    }
}

/// A **move** order's choices for an aircraft over the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AirMove {
    /// "Move back into the 'box' to avoid AA fire".
    ToBox,
    /// "Move from one operating height to another."
    ToHeight(Height),
    /// Take off or land: "Aircraft on the ground ... may take off (or land) on
    /// a move order and are then placed in the 'box' until activated again."
    TakeOff(Height),
    Land,
    /// Refused: "Aircraft cannot move 'at the double'".
    AtTheDouble,
}

/// *Heroes All*, "Order Die options", Move.
pub fn air_move(a: &mut Aircraft, mv: AirMove) -> Result<Position, AirError> {
    let next = match (mv, a.position) {
        (AirMove::AtTheDouble, _) => return Err(AirError::AtTheDouble),
        (AirMove::TakeOff(h), Position::OnGround) => Position::Box(h),
        (AirMove::Land, Position::OverTable(_) | Position::Box(_)) => Position::OnGround,
        (AirMove::ToBox, Position::OverTable(h)) => Position::Box(h),
        (AirMove::ToHeight(to), Position::OverTable(h)) if to == h => return Err(AirError::SameHeight(h)),
        (AirMove::ToHeight(to), Position::OverTable(_)) => Position::OverTable(to),
        (_, Position::ShotDown) => return Err(AirError::ShotDown),
        (_, Position::OnGround) => return Err(AirError::OnTheGround),
        _ => return Err(AirError::NotOverTable),
    };
    a.position = next;
    Ok(next)
}

/// What an aircraft's one act may be ("Act" option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AirAct {
    SpotAircraft,
    AcquireGroundTarget,
    /// "It can use its act to 'aim' if it is firing at ground targets."
    Aim,
}

/// "Aircraft get 1 act per bound."
pub const AIR_ACTS_PER_BOUND: usize = 1;

/// Checks an aircraft's turn: its phases (the ordered one first, as for any
/// element) and acts: one act, only "providing it is over the table".
pub fn check_air_turn(a: &Aircraft, phases: &[Phase], acts: &[AirAct]) -> Result<(), AirError> {
    if acts.len() > AIR_ACTS_PER_BOUND {
        return Err(AirError::TooManyActs(acts.len()));
    }
    if !acts.is_empty() || phases.contains(&Phase::Fire) {
        a.over_table()?;
    }
    Ok(())
}

/// After a dive bomber's attack it "is considered to be at low level".
pub fn after_attack(a: &mut Aircraft) {
    a.attacked_ground = true;
    if a.kind.role == Role::DiveBomber
        && let Position::OverTable(_) = a.position
    {
        a.position = Position::OverTable(Height::Low);
    }
}

// ----------------------------------------------------------------- spotting

/// The weather for spotting, as the two spotting tables name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weather {
    Fair,
    Overcast,
    LightRain,
    HeavyRain,
}

/// The D6 an aircraft needs to spot a ground target (*Heroes All*,
/// "Observation - aircraft rules"): at low level 3+ (5+ in a building or
/// woodland or camouflaged); at medium level, for bombing, 4+ (5+ as before);
/// "called in" to a specific target, 2+.
///
/// Reading: the called-in 2+ is for the target it was called to, at either
/// height and whatever its cover (the briefing names it). High-level bombers
/// do not attack on this table (test `spotting_ground_targets_by_height`).
pub fn spot_ground_target_need(height: Height, covered: bool, called_in: bool) -> Result<u8, AirError> {
    match (height, called_in, covered) {
        (Height::High, ..) => Err(AirError::WrongHeight(Height::High)),
        (_, true, _) => Ok(2),
        (_, false, true) => Ok(5),
        (Height::Low, false, false) => Ok(3),
        (Height::Medium, false, false) => Ok(4),
    }
}

/// An aircraft spotting another: 2+ fair, 3+ light rain, 5+ heavy rain, less 1
/// if the target is firing at the spotter.
///
/// Reading: overcast without rain is fair for aircraft (only rain is named);
/// the "deduct 1" can bring 2+ to 1+, which always spots
/// (test `spotting_aircraft_by_weather`).
pub fn spot_aircraft_need(weather: Weather, target_firing_at_spotter: bool) -> u8 {
    let need = match weather {
        Weather::Fair | Weather::Overcast => 2,
        Weather::LightRain => 3,
        Weather::HeavyRain => 5,
    };
    need - u8::from(target_firing_at_spotter)
}

/// AA crews and ground troops spotting an aircraft: 2+ fair, 3+
/// overcast/light rain, 4+ heavy rain; automatic if it "has just made a ground
/// attack" (`None`). "Ground troops spotting aircraft at night require a 3+
/// for all levels."
///
/// Reading: at night the 3+ is a floor, so heavy rain at night stays 4+
/// (test `ground_spotting_aircraft`).
pub fn ground_spot_need(weather: Weather, night: bool, just_attacked: bool) -> Option<u8> {
    if just_attacked {
        return None;
    }
    let need = match weather {
        Weather::Fair => 2,
        Weather::Overcast | Weather::LightRain => 3,
        Weather::HeavyRain => 4,
    };
    Some(if night { need.max(3) } else { need })
}

/// Throws a spotting D6 against `need` (`None` is automatic).
pub fn spot(need: Option<u8>, what: &str, dice: &mut impl Roll, id: &str) -> (bool, RuleEvent) {
    let face = need.map(|_| dice.d6());
    let seen = match (need, face) {
        (Some(n), Some(f)) => f >= n,
        _ => true,
    };
    let e = RuleEvent::new(EventKind::Observation, rule("Observation - aircraft rules"))
        .actor(id)
        .input("spotting", what, "")
        .input("need", need, "None: automatic after a ground attack this bound")
        .dice(6, face.as_slice())
        .outcome(json!({ "seen": seen }));
    (seen, e)
}

// ------------------------------------------------- attacks on ground troops

/// "Aircraft fire their MMG's with a 1D6 each, HMGs with 2D6 each. Cannons
/// throw 2D6. 5+ hits. Rockets throw 1D6 each and hit on a 5+."
pub const GROUND_ATTACK_DICE: [(&str, u8); 4] = [("mmg", 1), ("hmg", 2), ("cannon", 2), ("rockets", 1)];
/// The hit score of guns and rockets against ground targets.
pub const GROUND_ATTACK_HIT: u8 = 5;

/// Strafes a ground target from low level: the dice of every MMG, HMG,
/// cannon and rocket, 5+ hits. "Hits on infantry, CSW and soft-skinned
/// targets are dealt with as if they were hits from a grounded weapon."
pub fn strafe(a: &Aircraft, dice: &mut impl Roll, id: &str) -> Result<(u8, RuleEvent), AirError> {
    if a.over_table()? != Height::Low {
        return Err(AirError::WrongHeight(a.over_table()?));
    }
    let counts = [a.kind.mmg, a.kind.hmg, a.kind.cannon, a.kind.rockets];
    let n: usize = GROUND_ATTACK_DICE.iter().zip(counts).map(|((_, per), c)| usize::from(per * c)).sum();
    if n == 0 {
        return Err(AirError::NoSuchWeapon);
    }
    let faces = dice.throw(n, 6);
    let hits = faces.iter().filter(|&&f| f >= GROUND_ATTACK_HIT).count() as u8;
    let e = RuleEvent::new(EventKind::Fire, rule("Aircraft attacking ground troops"))
        .actor(id)
        .input("mmg", a.kind.mmg, "1D6 each")
        .input("hmg", a.kind.hmg, "2D6 each")
        .input("cannon", a.kind.cannon, "2D6 each")
        .input("rockets", a.kind.rockets, "1D6 each")
        .input("hit", GROUND_ATTACK_HIT, "5+ hits")
        .dice(6, &faces)
        .outcome(json!({ "hits": hits }));
    Ok((hits, e))
}

/// Drops the bombs of one bound: "Bombs are dropped using Indirect Fire rules
/// but always need a 6 to hit the target. Dive bombers (Stuka etc) always need
/// a 4+ to hit." One D6 a bomb; no modifier ("always").
///
/// Reading: bombing is from low level or, for bombers and dive bombers, from
/// medium ("Aircraft at medium level trying to spot a target for bombing"),
/// never from high; guns and rockets are low level only
/// (test `bombs_need_six_or_four_for_dive_bombers`).
pub fn drop_bombs(a: &Aircraft, dice: &mut impl Roll, id: &str) -> Result<(BombSize, u8, RuleEvent), AirError> {
    let height = a.over_table()?;
    if height == Height::High {
        return Err(AirError::WrongHeight(height));
    }
    let (size, n) = a.kind.bombs.filter(|b| b.1 > 0).ok_or(AirError::NoSuchWeapon)?;
    let need = if a.kind.role == Role::DiveBomber { 4 } else { 6 };
    let faces = dice.throw(usize::from(n), 6);
    let hits = faces.iter().filter(|&&f| f >= need).count() as u8;
    let e = RuleEvent::new(EventKind::Fire, rule("Aircraft attacking ground troops"))
        .actor(id)
        .input("bombs", n, "dropped per bound (CODEX)")
        .input("size", size, "")
        .input("need", need, "always a 6; dive bombers always 4+")
        .dice(6, &faces)
        .outcome(json!({ "hits": hits }));
    Ok((size, hits, e))
}

/// *Heroes All*, "Bomb damage": small bombs on HE Effects column D, medium on
/// F, heavy on "3F": "Throw 3D6 and refer to HE Effects Table column F for
/// each. The effect is the accumulated score." "For hits on buildings, the HE
/// Effects Table scores are doubled." Returns the score a bomb hit gives
/// (the building rules take it from here).
pub fn bomb_score(size: BombSize, on_building: bool, dice: &mut impl Roll, id: &str) -> (u8, RuleEvent) {
    let (column, n) = bomb_column(size);
    let faces = dice.throw(n, 6);
    let table: u8 = faces.iter().map(|&f| column.casualties(f)).sum();
    let score = if on_building { table * 2 } else { table };
    let e = RuleEvent::new(EventKind::HeEffect, rule("Bomb damage"))
        .actor(id)
        .input("size", size, "small D, medium F, heavy 3 x F accumulated")
        .input("on_building", on_building, "scores doubled on buildings")
        .dice(6, &faces)
        .outcome(json!({ "score": score }));
    (score, e)
}

/// The HE Effects column and number of D6 of a bomb.
pub const fn bomb_column(size: BombSize) -> (HeColumn, usize) {
    match size {
        BombSize::Small => (HeColumn::D, 1),
        BombSize::Medium => (HeColumn::F, 1),
        BombSize::Heavy => (HeColumn::F, 3),
    }
}

/// A bomb hit on men, guns or AFVs. Small and medium bombs are an HE hit on
/// their column ([`effects::he_hit`]); a heavy bomb's accumulated 3F score
/// stands for the table's casualties and the rules under the HE Effects Table
/// follow from it.
///
/// Reading: against a closed AFV a heavy bomb damages on 5+ like a shell of
/// 150mm and over (test `heavy_bomb_accumulates_three_f_dice`).
pub fn bomb_hit(size: BombSize, target: HeTarget, dice: &mut impl Roll) -> Result<(u8, bool, RuleEvent), AirError> {
    if size != BombSize::Heavy {
        let (column, _) = bomb_column(size);
        let (out, e) = effects::he_hit(column, target, dice).map_err(|_| AirError::BadInput("no one there"))?;
        return Ok((out.casualties, out.weapon_destroyed || out.vehicle_damaged, e));
    }
    if matches!(target, HeTarget::Infantry { figures: 0 } | HeTarget::Gun { crew: 0 }) {
        return Err(AirError::BadInput("no one there"));
    }
    let faces = dice.throw(3, 6);
    let table: u8 = faces.iter().map(|&f| HeColumn::F.casualties(f)).sum();
    let (casualties, second_need) = match target {
        HeTarget::Infantry { figures } => (table.min(figures), None),
        HeTarget::Gun { crew } => (table.min(crew), (table > 0).then_some(4)),
        HeTarget::OpenTopped { crew } => {
            let c = table.saturating_sub(1).min(crew);
            (c, (c > 0).then_some(6))
        }
        HeTarget::Closed { .. } => (0, (table > 1).then_some(5)),
    };
    let second = second_need.map(|_| dice.d6());
    let wrecked = matches!((second_need, second), (Some(n), Some(f)) if f >= n);
    let mut e = RuleEvent::new(EventKind::HeEffect, rule("Bomb damage"))
        .input("size", size, "heavy: 3D6 on column F, accumulated")
        .input("target", target, "rules under the HE Effects Table")
        .dice(6, &faces);
    if let Some(s) = second {
        e = e.dice(6, &[s]);
    }
    let e = e.outcome(json!({ "table": table, "casualties": casualties, "destroyed_or_damaged": wrecked }));
    Ok((casualties, wrecked, e))
}

/// "Treat the Attack Value of the AT weapon as +8."
pub const AIR_AT_ATTACK: i8 = 8;

/// An armoured vehicle attacked from the air.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AtTarget {
    pub moving: bool,
    pub armour: ArmourClass,
    pub open_topped: bool,
    pub state: VehicleState,
}

/// *Heroes All*, "Anti Tank damage": a D6 per AT weapon, 5+ against a
/// stationary target, 6 against a moving one; a hit is D10 + 8 against the
/// side armour ("Defence Values for the top of AFVs is the same as the side
/// armour"); "Any hit on an open-topped AFV destroys it."
///
/// Reading: an aim (the aircraft's act) adds +1 to the D6 as the ground
/// rules' aim does for AT fire (test `at_from_the_air`).
pub fn at_attack(
    a: &Aircraft,
    aimed: bool,
    target: AtTarget,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(VehicleState, Vec<RuleEvent>), AirError> {
    let AtTarget { moving, armour, open_topped, state } = target;
    if a.over_table()? != Height::Low {
        return Err(AirError::WrongHeight(a.over_table()?));
    }
    if a.kind.at_cannon == 0 {
        return Err(AirError::NoSuchWeapon);
    }
    let need = if moving { 6 } else { 5 };
    let faces = dice.throw(usize::from(a.kind.at_cannon), 6);
    let hits = faces.iter().filter(|&&f| f + u8::from(aimed) >= need).count();
    let mut events = vec![
        RuleEvent::new(EventKind::Fire, rule("Anti Tank damage"))
            .actor(id)
            .input("need", need, "5+ stationary, 6 moving")
            .input("aimed", aimed, "+1 for an aim")
            .dice(6, &faces)
            .outcome(json!({ "hits": hits })),
    ];
    let mut state = state;
    for _ in 0..hits {
        if open_topped {
            state = state.after(AtResult::Brewed);
            continue;
        }
        let (after, _, e) = effects::at_hit(AIR_AT_ATTACK, armour, Facing::Side, state, dice);
        state = after;
        events.push(e);
    }
    Ok((state, events))
}

// ------------------------------------------------------------------ AA fire

/// The AA weapons of "Anti aircraft fire".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AaWeapon {
    /// Per 3 figures.
    Infantry,
    /// LMG in a dedicated role.
    Lmg,
    /// Turret-mounted MG.
    Tmg,
    Hmg,
    /// Multiple HMG (AA).
    MultipleHmg,
    CannonUnder40,
    Cannon40Plus,
    Cannon75Plus,
}

/// One row of the AA table: dice per shot at each height (`None`: cannot
/// fire at that height), shots per bound, and whether the (*) extra D6 for a
/// ground attacker applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AaRow {
    pub weapon: AaWeapon,
    pub dice: [Option<u8>; 3],
    pub shots: u8,
    pub star: bool,
}

/// 0 is a blank cell: the weapon cannot fire at that height.
const fn cell(n: u8) -> Option<u8> {
    if n == 0 { None } else { Some(n) }
}

const fn aa(weapon: AaWeapon, low: u8, medium: u8, high: u8, shots: u8, star: bool) -> AaRow {
    AaRow { weapon, dice: [cell(low), cell(medium), cell(high)], shots, star }
}

/// *Heroes All*, "Anti aircraft fire" table: D6 per shot by height; "Guns
/// have 2 shots per bound unless stated" (infantry: "1 shot only").
///
/// Readings: every weapon is a "gun" for the 2 shots except infantry; a
/// 40mm+ cannon fires at medium (3D6) and high (2D6) levels; a 75mm+ at high
/// (3D6) only, where it is listed; no cannon is listed against low level and
/// none fires there, as written (test `aa_table_as_printed`).
pub const AA_TABLE: [AaRow; 8] = [
    aa(AaWeapon::Infantry, 2, 0, 0, 1, false),
    aa(AaWeapon::Lmg, 2, 0, 0, 2, true),
    aa(AaWeapon::Tmg, 2, 0, 0, 2, true),
    aa(AaWeapon::Hmg, 3, 0, 0, 2, true),
    aa(AaWeapon::MultipleHmg, 4, 0, 0, 2, true),
    aa(AaWeapon::CannonUnder40, 0, 3, 0, 2, false),
    aa(AaWeapon::Cannon40Plus, 0, 3, 2, 2, false),
    aa(AaWeapon::Cannon75Plus, 0, 0, 3, 2, false),
];

impl AaWeapon {
    pub fn row(self) -> &'static AaRow {
        &AA_TABLE[self as usize]
    }
}

/// "Each double thrown scores 1 hit. A 'triple' counts as 2 hits, a
/// quadruple is 3 hits and a quintuple is 4 hits": every face showing n
/// times (n ≥ 2) scores n − 1; two pairs are two doubles.
pub fn aa_hits(faces: &[u8]) -> u8 {
    (1..=6u8).map(|f| faces.iter().filter(|&&x| x == f).count().saturating_sub(1) as u8).sum()
}

/// The D6 an AA or air-to-air hit needs to register damage.
pub const fn aa_damage_need(speed: Speed) -> u8 {
    match speed {
        Speed::Fast => 5,
        Speed::Normal => 4,
        Speed::Slow => 3,
    }
}

/// "For every hit, throw a D6 and score 3+ to register damage" (air to air).
pub const AIR_TO_AIR_DAMAGE: u8 = 3;

/// One AA weapon's fire at an aircraft for the bound: each shot its dice
/// (another D6 per shot at a low-level aircraft that has made a ground attack
/// this bound, for starred rows), hits from doubles and better, then a damage
/// D6 per hit. Returns damages. `air_to_air_at_medium`: air-to-air combat is
/// taking place at medium level, which stops AA fire there.
pub fn aa_fire(
    weapon: AaWeapon,
    target: &Aircraft,
    air_to_air_at_medium: bool,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(u8, RuleEvent), AirError> {
    let height = target.over_table()?;
    if height == Height::Medium && air_to_air_at_medium {
        return Err(AirError::NoAaFire);
    }
    let row = weapon.row();
    let base = row.dice[height as usize].ok_or(AirError::NoAaFire)?;
    let extra = u8::from(row.star && height == Height::Low && target.attacked_ground);
    let mut e = RuleEvent::new(EventKind::Fire, rule("Anti aircraft fire"))
        .actor(id)
        .input("weapon", weapon, "")
        .input("height", height, "")
        .input("dice_per_shot", base + extra, "(*) another D6 at an aircraft that made a ground attack")
        .input("shots", row.shots, "guns 2 shots unless stated");
    let mut hits = 0;
    for _ in 0..row.shots {
        let faces = dice.throw(usize::from(base + extra), 6);
        hits += aa_hits(&faces);
        e = e.dice(6, &faces);
    }
    let need = aa_damage_need(target.kind.speed);
    let damage_faces = dice.throw(usize::from(hits), 6);
    let damages = damage_faces.iter().filter(|&&f| f >= need).count() as u8;
    let e = e
        .input("damage_need", need, "4+; Fast 5+; Slow 3+")
        .dice(6, &damage_faces)
        .outcome(json!({ "hits": hits, "damages": damages }));
    Ok((damages, e))
}

// ------------------------------------------------------------------- damage

/// What damage left an aircraft as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageResult {
    Flying,
    /// Strength 0 and a 1 or 2: "driven off the table for D4 bounds".
    DrivenOff {
        bounds: u8,
    },
    ShotDown,
}

/// Applies the damages of one fire (AA or air to air). "Each 'damage'
/// reduces the strength of the aircraft by 1." At exactly 0 it throws a D6
/// and is driven off for D4 bounds on a 1 or 2; below 0 (or damaged again at
/// 0) it is shot down. Returns the result and the damages that count for
/// Continuous Momentum: a shooting-down "is recorded as 1 further damage ...
/// irrespective of the number of damages taken by the aircraft on that
/// bound", so at most strength + 1.
///
/// Reading: damages of one fire are taken together; an aircraft at 1 that
/// takes 2 is shot down without a driven-off throw
/// (test `strength_driven_off_and_shot_down`).
pub fn take_damage(
    a: &mut Aircraft,
    damages: u8,
    bound: u32,
    dice: &mut impl Roll,
    id: &str,
) -> (DamageResult, u8, RuleEvent) {
    let before = a.strength;
    let counted = u8::try_from((i16::from(before) + 1).max(0)).unwrap_or(u8::MAX).min(damages);
    a.strength = (i16::from(before) - i16::from(damages)).max(-1) as i8;
    let mut thrown = Vec::new();
    let result = if damages == 0 {
        DamageResult::Flying
    } else if a.strength < 0 {
        a.position = Position::ShotDown;
        DamageResult::ShotDown
    } else if a.strength == 0 {
        let face = dice.d6();
        thrown.push(face);
        if face <= 2 {
            let bounds = dice.d4();
            thrown.push(bounds);
            a.position = Position::DrivenOff { until: bound + u32::from(bounds) };
            DamageResult::DrivenOff { bounds }
        } else {
            DamageResult::Flying
        }
    } else {
        DamageResult::Flying
    };
    let mut e = RuleEvent::new(EventKind::Fire, rule("Hits on aircraft with AA fire"))
        .target(id)
        .input("strength", before, "")
        .input("damages", damages, "")
        .dice(6, &thrown[..thrown.len().min(1)]);
    if thrown.len() > 1 {
        e = e.dice(4, &thrown[1..]);
    }
    let e = e.outcome(json!({ "result": result, "strength": a.strength, "cm_damages": counted }));
    (result, counted, e)
}

/// A driven-off aircraft comes back to the box on the bound it is due
/// (at the height it flew); "This may mean that the 'window' closes before it
/// returns."
pub fn return_from_driven_off(a: &mut Aircraft, bound: u32, window: Window, height: Height) -> bool {
    match a.position {
        Position::DrivenOff { until } if bound >= until && window.open(bound) => {
            a.position = Position::Box(height);
            true
        }
        _ => false,
    }
}

// -------------------------------------------------------------- air to air

/// Checks a match-up: per defender, how many attackers take it on. "It is
/// not permitted for more than one aircraft to attack a member of the
/// opposing squadron unless the attackers outnumber the defenders in which
/// case any surplus attackers ... can attack any defender"; "4 attackers and
/// 2 defenders ... must 'match-up' 2-1 twice and cannot 'match-up' 1-1 and 3-1".
///
/// Reading: from the example, surplus attackers are spread evenly (no
/// defender has two more attackers than another); with fewer attackers each
/// takes a different defender (test `match_up_four_against_two`).
pub fn check_match_up(attackers: usize, per_defender: &[usize]) -> Result<(), AirError> {
    let bad = || AirError::BadMatchUp(per_defender.to_vec());
    if per_defender.iter().sum::<usize>() != attackers || per_defender.is_empty() {
        return Err(bad());
    }
    let max = per_defender.iter().copied().max().unwrap_or(0);
    let min = per_defender.iter().copied().min().unwrap_or(0);
    if max > 1 && (max - min > 1 || attackers <= per_defender.len()) {
        return Err(bad());
    }
    Ok(())
}

/// An even match-up: the first defenders take the surplus.
pub fn match_up(attackers: usize, defenders: usize) -> Vec<usize> {
    if defenders == 0 {
        return Vec::new();
    }
    (0..defenders).map(|i| attackers / defenders + usize::from(i < attackers % defenders)).collect()
}

/// *Heroes All*, "Air to air combat" hit table: rows the target's speed,
/// columns the attacker's (Fast, All other, Slow). A 7 is "6 then 4+".
pub const AIR_TO_AIR_HIT: [[u8; 3]; 3] = [
    [5, 6, 7], // Fast target
    [4, 5, 6], // All other
    [3, 4, 5], // Slow target
];

/// The score needed, as a ladder past 6: 7 is "6 then 4+", and "increased by
/// 1 if the firing aircraft is damaged".
///
/// Reading: past 6 the ladder continues the book's "6 then 4+": 8 is "6 then
/// 5+" (test `air_to_air_table`).
pub fn air_to_air_need(attacker: Speed, target: Speed, attacker_damaged: bool) -> u8 {
    AIR_TO_AIR_HIT[target as usize][attacker as usize] + u8::from(attacker_damaged)
}

/// Whether a D6 (and, past 6, a second D6) scores `need`.
fn ladder(need: u8, dice: &mut impl Roll, faces: &mut Vec<u8>) -> bool {
    let f = dice.d6();
    faces.push(f);
    if need <= 6 {
        return f >= need;
    }
    if f < 6 {
        return false;
    }
    let g = dice.d6();
    faces.push(g);
    g >= need - 3
}

/// One aircraft's fire at another at the same height: "throw 1D6 per machine
/// gun. AT cannons cannot be used in air-to-air combat"; a hit then damages
/// on 3+. Returns damages.
///
/// Reading: the aircraft's (non-AT) cannon fire in the air like its machine
/// guns, a D6 each (test `air_to_air_fire_uses_guns_not_at_cannon`).
pub fn air_to_air_fire(
    attacker: &Aircraft,
    target: &Aircraft,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(u8, RuleEvent), AirError> {
    let (ha, ht) = (attacker.over_table()?, target.over_table()?);
    if ha != ht {
        return Err(AirError::DifferentLevels(ha, ht));
    }
    let guns = attacker.kind.mmg + attacker.kind.hmg + attacker.kind.cannon;
    if guns == 0 {
        return Err(AirError::NoAirWeapons);
    }
    let need = air_to_air_need(attacker.kind.speed, target.kind.speed, attacker.damaged());
    let mut faces = Vec::new();
    let hits = (0..guns).filter(|_| ladder(need, dice, &mut faces)).count();
    let damage_faces = dice.throw(hits, 6);
    let damages = damage_faces.iter().filter(|&&f| f >= AIR_TO_AIR_DAMAGE).count() as u8;
    let e = RuleEvent::new(EventKind::Fire, rule("Air to air combat"))
        .actor(id)
        .input("guns", guns, "1D6 per machine gun")
        .input("need", need, "7: 6 then 4+; +1 if the firer is damaged")
        .dice(6, &faces)
        .dice(6, &damage_faces)
        .outcome(json!({ "hits": hits, "damages": damages }));
    Ok((damages, e))
}

// ------------------------------------------------------- pre-game, morale

/// "Light and/or medium bombers can be scheduled for a pre-game
/// bombardment"; the OPCs used are "those aircraft involved (including
/// fighters) plus any active dedicated AA elements on the table".
pub fn pre_game_role(role: Role) -> Result<(), AirError> {
    match role {
        Role::LightBomber | Role::MediumBomber | Role::Fighter => Ok(()),
        other => Err(AirError::NotForPreGame(other)),
    }
}

/// Air Command's Continuous Momentum score: "the total of the strength
/// factors of all aircraft", pre-game aircraft included.
pub fn air_command_cms(aircraft: &[AircraftType]) -> u32 {
    aircraft.iter().map(|a| u32::from(a.strength)).sum()
}

/// *Heroes All*, "Continuous Momentum for Aircraft": on activation, "1D6 for
/// each 'damage' suffered since the last activation. A score of 1, 2 or 3
/// reduces his Continuous Momentum score by that number. Throws of 4, 5 or 6
/// are ignored." At 0 he "will withdraw all of his remaining aircraft".
/// Returns the new score and whether he withdraws.
pub fn air_command_cm(cms: u32, damages: u32, dice: &mut impl Roll, id: &str) -> (u32, bool, RuleEvent) {
    let faces = dice.throw(damages as usize, 6);
    let loss: u32 = faces.iter().filter(|&&f| f <= 3).map(|&f| u32::from(f)).sum();
    let after = cms.saturating_sub(loss);
    let e = RuleEvent::new(EventKind::CmTests, rule("Continuous Momentum for Aircraft"))
        .actor(id)
        .input("cms", cms, "")
        .input("damages", damages, "1D6 each since the last activation")
        .dice(6, &faces)
        .outcome(json!({ "cms": after, "withdraws": after == 0 }));
    (after, after == 0, e)
}

/// The 2-player morale throws: "For each aircraft driven off, throw 1D6. If
/// the resultant throw is a '1', the element is unable to take any action";
/// "For each aircraft shot down, throw 1D6. If the resultant throw scores a
/// '1', the Air Command withdraws his machines." True when a 1 is thrown.
pub fn air_morale(count: u8, shot_down: bool, dice: &mut impl Roll, id: &str) -> (bool, RuleEvent) {
    let faces = dice.throw(usize::from(count), 6);
    let failed = faces.contains(&1);
    let e = RuleEvent::new(EventKind::Morale, rule("Morale"))
        .actor(id)
        .input(
            "aircraft",
            count,
            if shot_down { "shot down: a 1 withdraws Air Command" } else { "driven off: a 1 stops the element" },
        )
        .dice(6, &faces)
        .outcome(json!({ "failed": failed }));
    (failed, e)
}

/// "A landing craft/grounded aircraft etc counts as 12 targets" when observed.
pub const GROUNDED_AIRCRAFT_TARGETS: u32 = 12;

/// "If fired at when on the ground, treat an aircraft as a soft-skinned vehicle."
pub const GROUNDED_ARMOUR: ArmourClass = ArmourClass::SoftSkinned;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;
    use crate::officer::{Grade, Rank};

    fn kind(role: Role, speed: Speed, strength: u8) -> AircraftType {
        AircraftType {
            name: "test".into(),
            role,
            speed,
            strength,
            mmg: 0,
            hmg: 0,
            cannon: 0,
            at_cannon: 0,
            rockets: 0,
            bombs: None,
        }
    }

    fn flying(k: AircraftType, h: Height) -> Aircraft {
        let mut a = Aircraft::new(k, h);
        enter_table(&mut a).unwrap();
        a
    }

    #[test]
    fn density_worked_example_six_by_four_takes_six() {
        assert_eq!(ground_attack_capacity(6.0, 4.0), Ok(6));
        assert_eq!(admit_ground_attackers(6, 4, 3), (2, 1), "the rest wait in the box");
        assert!(ground_attack_capacity(0.0, 4.0).is_err());
    }

    #[test]
    fn density_is_a_rate_rounded_down() {
        assert_eq!(ground_attack_capacity(5.0, 3.0), Ok(3));
        assert_eq!(ground_attack_capacity(8.0, 6.0), Ok(12));
    }

    #[test]
    fn window_spans_four_bounds_then_aircraft_leave() {
        let w = Window { first: 3 };
        assert!(!w.open(2) && w.open(3) && w.open(6) && !w.open(7));
        assert_eq!(w.may_act(6), Ok(()));
        assert_eq!(w.may_act(7), Err(AirError::WindowClosed));
    }

    #[test]
    fn calling_in_needs_a_leadership_test_then_a_d4() {
        let co = Officer::new(Rank::CompanyOfficer, Grade::Regular).unwrap(); // below 5
        let (arr, ev) = call_in(CallIn::GroundAttack, Some(co), 4, &mut Scripted::new([4, 3]), "CO").unwrap();
        assert_eq!(arr, Some(7));
        assert_eq!(ev.len(), 2);
        let (arr, _) = call_in(CallIn::GroundAttack, Some(co), 4, &mut Scripted::new([5]), "CO").unwrap();
        assert_eq!(arr, None, "a 5 fails the test; no D4");
        let (arr, _) =
            call_in(CallIn::CombatAirPatrol { fielded: true }, None, 2, &mut Scripted::new([1]), "P").unwrap();
        assert_eq!(arr, Some(3), "2-player: a D4 only");
        let r = call_in(CallIn::CombatAirPatrol { fielded: false }, None, 2, &mut Scripted::new([]), "P");
        assert_eq!(r.unwrap_err(), AirError::NoCapFielded);
        assert_eq!(close_support_arrival(5), 6);
    }

    #[test]
    fn arrival_box_moves_and_acts() {
        let mut a = Aircraft::new(kind(Role::Fighter, Speed::Fast, 2), Height::Medium);
        assert_eq!(a.position, Position::Box(Height::Medium));
        assert_eq!(check_air_turn(&a, &[Phase::Act], &[AirAct::SpotAircraft]), Err(AirError::NotOverTable));
        enter_table(&mut a).unwrap();
        assert_eq!(enter_table(&mut a), Err(AirError::AlreadyOverTable));
        assert_eq!(check_air_turn(&a, &[Phase::Act], &[AirAct::SpotAircraft]), Ok(()));
        assert_eq!(check_air_turn(&a, &[Phase::Act], &[AirAct::Aim, AirAct::Aim]), Err(AirError::TooManyActs(2)));
        assert_eq!(air_move(&mut a, AirMove::AtTheDouble), Err(AirError::AtTheDouble));
        assert_eq!(air_move(&mut a, AirMove::ToHeight(Height::Medium)), Err(AirError::SameHeight(Height::Medium)));
        assert_eq!(air_move(&mut a, AirMove::ToHeight(Height::Low)), Ok(Position::OverTable(Height::Low)));
        assert_eq!(air_move(&mut a, AirMove::ToBox), Ok(Position::Box(Height::Low)));
        assert_eq!(air_move(&mut a, AirMove::ToBox), Err(AirError::NotOverTable));
    }

    #[test]
    fn second_aircraft_takes_over_as_squadron_leader() {
        let k = kind(Role::GroundAttack, Speed::Normal, 1);
        let mut sq = vec![
            Aircraft::new(k.clone(), Height::Low),
            Aircraft::new(k.clone(), Height::Low),
            Aircraft::new(k, Height::Low),
        ];
        assert_eq!(squadron_leader(&sq), Some(0));
        sq[0].position = Position::DrivenOff { until: 5 };
        assert_eq!(squadron_leader(&sq), Some(1));
        sq[1].position = Position::ShotDown;
        sq[2].position = Position::ShotDown;
        assert_eq!(squadron_leader(&sq), None);
        assert_eq!(SQUADRON, 3);
    }

    #[test]
    fn dive_bomber_is_at_low_level_after_its_attack() {
        let mut a = flying(kind(Role::DiveBomber, Speed::Slow, 2), Height::Medium);
        after_attack(&mut a);
        assert_eq!(a.position, Position::OverTable(Height::Low));
        let mut b = flying(kind(Role::MediumBomber, Speed::Normal, 3), Height::Medium);
        after_attack(&mut b);
        assert_eq!(b.position, Position::OverTable(Height::Medium));
        assert!(b.attacked_ground);
    }

    #[test]
    fn spotting_ground_targets_by_height() {
        assert_eq!(spot_ground_target_need(Height::Low, false, false), Ok(3));
        assert_eq!(spot_ground_target_need(Height::Low, true, false), Ok(5));
        assert_eq!(spot_ground_target_need(Height::Medium, false, false), Ok(4));
        assert_eq!(spot_ground_target_need(Height::Medium, true, false), Ok(5));
        assert_eq!(spot_ground_target_need(Height::Low, true, true), Ok(2));
        assert!(spot_ground_target_need(Height::High, false, false).is_err());
        let (seen, e) = spot(Some(3), "ground target", &mut Scripted::new([2]), "Typhoon");
        assert!(!seen);
        assert_eq!(e.dice.len(), 1);
    }

    #[test]
    fn spotting_aircraft_by_weather() {
        assert_eq!(spot_aircraft_need(Weather::Fair, false), 2);
        assert_eq!(spot_aircraft_need(Weather::LightRain, false), 3);
        assert_eq!(spot_aircraft_need(Weather::HeavyRain, false), 5);
        assert_eq!(spot_aircraft_need(Weather::HeavyRain, true), 4);
        assert_eq!(spot_aircraft_need(Weather::Fair, true), 1);
        assert!(spot(Some(1), "aircraft", &mut Scripted::new([1]), "a").0);
    }

    #[test]
    fn ground_spotting_aircraft() {
        assert_eq!(ground_spot_need(Weather::Fair, false, false), Some(2));
        assert_eq!(ground_spot_need(Weather::Overcast, false, false), Some(3));
        assert_eq!(ground_spot_need(Weather::HeavyRain, false, false), Some(4));
        assert_eq!(ground_spot_need(Weather::Fair, true, false), Some(3));
        assert_eq!(ground_spot_need(Weather::HeavyRain, true, false), Some(4));
        assert_eq!(ground_spot_need(Weather::HeavyRain, false, true), None);
        let (seen, e) = spot(None, "aircraft", &mut Scripted::new([]), "AA");
        assert!(seen && e.dice.is_empty());
    }

    #[test]
    fn strafing_dice_by_weapon_and_five_hits() {
        let mut k = kind(Role::GroundAttack, Speed::Normal, 2);
        k.mmg = 2; // 2 dice
        k.hmg = 1; // 2 dice
        k.cannon = 1; // 2 dice
        k.rockets = 2; // 2 dice
        let a = flying(k, Height::Low);
        let mut d = Scripted::new([5, 4, 6, 1, 2, 5, 3, 5]);
        let (hits, e) = strafe(&a, &mut d, "a").unwrap();
        assert_eq!(hits, 4);
        assert_eq!(e.dice.len(), 8);
        assert_eq!(d.remaining(), 0);
        let mut b = a.clone();
        b.position = Position::OverTable(Height::Medium);
        assert_eq!(strafe(&b, &mut Scripted::new([]), "b").unwrap_err(), AirError::WrongHeight(Height::Medium));
    }

    #[test]
    fn bombs_need_six_or_four_for_dive_bombers() {
        let mut k = kind(Role::MediumBomber, Speed::Normal, 3);
        k.bombs = Some((BombSize::Medium, 3));
        let a = flying(k.clone(), Height::Medium);
        let (_, hits, _) = drop_bombs(&a, &mut Scripted::new([6, 5, 4]), "b").unwrap();
        assert_eq!(hits, 1);
        k.role = Role::DiveBomber;
        let d = flying(k.clone(), Height::Medium);
        let (_, hits, _) = drop_bombs(&d, &mut Scripted::new([6, 5, 4]), "s").unwrap();
        assert_eq!(hits, 3);
        let h = flying(k, Height::High);
        assert!(drop_bombs(&h, &mut Scripted::new([]), "h").is_err());
        let f = flying(kind(Role::Fighter, Speed::Fast, 1), Height::Low);
        assert_eq!(drop_bombs(&f, &mut Scripted::new([]), "f").unwrap_err(), AirError::NoSuchWeapon);
    }

    #[test]
    fn bomb_columns_and_buildings_doubled() {
        // Column D face 6 = 3; column F face 6 = 4 (HE Effects Table).
        assert_eq!(bomb_score(BombSize::Small, false, &mut Scripted::new([6]), "b").0, 3);
        assert_eq!(bomb_score(BombSize::Medium, false, &mut Scripted::new([6]), "b").0, 4);
        assert_eq!(bomb_score(BombSize::Medium, true, &mut Scripted::new([6]), "b").0, 8);
        // 3F: F(1)=1 + F(4)=3 + F(6)=4 = 8.
        assert_eq!(bomb_score(BombSize::Heavy, false, &mut Scripted::new([1, 4, 6]), "b").0, 8);
        assert_eq!(bomb_score(BombSize::Heavy, true, &mut Scripted::new([1, 4, 6]), "b").0, 16);
    }

    #[test]
    fn heavy_bomb_accumulates_three_f_dice() {
        let (c, _, _) =
            bomb_hit(BombSize::Heavy, HeTarget::Infantry { figures: 10 }, &mut Scripted::new([2, 2, 3])).unwrap();
        assert_eq!(c, 6, "F: 2 + 2 + 2");
        let (c, _, _) =
            bomb_hit(BombSize::Heavy, HeTarget::Infantry { figures: 4 }, &mut Scripted::new([6, 6, 6])).unwrap();
        assert_eq!(c, 4, "no more casualties than figures");
        let (_, wrecked, _) =
            bomb_hit(BombSize::Heavy, HeTarget::Closed { calibre_150_plus: false }, &mut Scripted::new([1, 1, 1, 5]))
                .unwrap();
        assert!(wrecked, "3 indicated (>1), then 5+ damages");
        let (c, wrecked, _) = bomb_hit(BombSize::Small, HeTarget::Gun { crew: 3 }, &mut Scripted::new([6, 4])).unwrap();
        assert_eq!((c, wrecked), (3, true), "column D face 6 = 3, then 4+ destroys the gun");
    }

    #[test]
    fn at_from_the_air() {
        let mut k = kind(Role::GroundAttack, Speed::Normal, 2);
        k.at_cannon = 2;
        let a = flying(k, Height::Low);
        // Stationary: 5 hits, 4 misses. Open-topped: any hit destroys.
        let (s, _) = at_attack(
            &a,
            false,
            AtTarget { moving: false, armour: ArmourClass::Light, open_topped: true, state: VehicleState::Intact },
            &mut Scripted::new([5, 4]),
            "a",
        )
        .unwrap();
        assert_eq!(s, VehicleState::Brewed);
        // Moving: a 5 misses, unless aimed (+1).
        let (s, ev) = at_attack(
            &a,
            false,
            AtTarget { moving: true, armour: ArmourClass::Light, open_topped: true, state: VehicleState::Intact },
            &mut Scripted::new([5, 5]),
            "a",
        )
        .unwrap();
        assert_eq!((s, ev.len()), (VehicleState::Intact, 1));
        let (s, _) = at_attack(
            &a,
            true,
            AtTarget { moving: true, armour: ArmourClass::Light, open_topped: true, state: VehicleState::Intact },
            &mut Scripted::new([5, 1]),
            "a",
        )
        .unwrap();
        assert_eq!(s, VehicleState::Brewed);
        // Closed: D10 + 8 against the side (top) armour.
        let (_, ev) = at_attack(
            &a,
            false,
            AtTarget { moving: false, armour: ArmourClass::Heavy, open_topped: false, state: VehicleState::Intact },
            &mut Scripted::new([6, 1, 10]),
            "a",
        )
        .unwrap();
        assert_eq!(ev.len(), 2);
        assert_eq!(ev[1].inputs[0].value, json!(8));
        assert_eq!(ev[1].inputs[2].value, json!("side"));
    }

    #[test]
    fn aa_table_as_printed() {
        use AaWeapon as W;
        assert_eq!(W::Infantry.row().dice, [Some(2), None, None]);
        assert_eq!(W::Infantry.row().shots, 1);
        assert_eq!(W::Hmg.row().dice[0], Some(3));
        assert_eq!(W::MultipleHmg.row().dice[0], Some(4));
        assert_eq!(W::CannonUnder40.row().dice, [None, Some(3), None]);
        assert_eq!(W::Cannon40Plus.row().dice, [None, Some(3), Some(2)]);
        assert_eq!(W::Cannon75Plus.row().dice, [None, None, Some(3)]);
        assert!(AA_TABLE.iter().all(|r| r.shots == 2 || r.weapon == W::Infantry));
        assert!(AA_TABLE.iter().enumerate().all(|(i, r)| r.weapon as usize == i));
    }

    #[test]
    fn doubles_triples_and_more_score_hits() {
        assert_eq!(aa_hits(&[1, 2]), 0);
        assert_eq!(aa_hits(&[3, 3]), 1);
        assert_eq!(aa_hits(&[3, 3, 3]), 2);
        assert_eq!(aa_hits(&[5, 5, 5, 5]), 3);
        assert_eq!(aa_hits(&[2, 2, 2, 2, 2]), 4);
        assert_eq!(aa_hits(&[3, 3, 5, 5]), 2, "two doubles");
    }

    #[test]
    fn aa_fire_adds_a_die_after_a_ground_attack_and_damages_by_speed() {
        let mut a = flying(kind(Role::GroundAttack, Speed::Fast, 2), Height::Low);
        // HMG 2 shots of 3D6: (4,4,1) = 1 hit, (2,2,2) = 2 hits; damage 5+ (Fast): 5,4,6 -> 2.
        let (d, e) = aa_fire(AaWeapon::Hmg, &a, false, &mut Scripted::new([4, 4, 1, 2, 2, 2, 5, 4, 6]), "aa").unwrap();
        assert_eq!(d, 2);
        assert_eq!(e.dice.len(), 9);
        a.attacked_ground = true;
        // 4D6 a shot now: (1,2,3,4), (6,6,1,2) = 1 hit; damage 5 -> 1.
        let (d, _) = aa_fire(AaWeapon::Hmg, &a, false, &mut Scripted::new([1, 2, 3, 4, 6, 6, 1, 2, 5]), "aa").unwrap();
        assert_eq!(d, 1);
        assert_eq!(
            aa_fire(AaWeapon::CannonUnder40, &a, false, &mut Scripted::new([]), "aa").unwrap_err(),
            AirError::NoAaFire
        );
        let m = flying(kind(Role::MediumBomber, Speed::Slow, 3), Height::Medium);
        assert_eq!(
            aa_fire(AaWeapon::Cannon40Plus, &m, true, &mut Scripted::new([]), "aa").unwrap_err(),
            AirError::NoAaFire
        );
        assert_eq!(
            (aa_damage_need(Speed::Fast), aa_damage_need(Speed::Normal), aa_damage_need(Speed::Slow)),
            (5, 4, 3)
        );
    }

    #[test]
    fn strength_driven_off_and_shot_down() {
        let k = kind(Role::GroundAttack, Speed::Normal, 2);
        let mut a = flying(k.clone(), Height::Low);
        let (r, cm, _) = take_damage(&mut a, 1, 3, &mut Scripted::new([]), "a");
        assert_eq!((r, cm, a.strength), (DamageResult::Flying, 1, 1));
        assert!(a.damaged());
        // To 0: a 2 drives it off for D4 = 3 bounds.
        let (r, _, _) = take_damage(&mut a, 1, 3, &mut Scripted::new([2, 3]), "a");
        assert_eq!(r, DamageResult::DrivenOff { bounds: 3 });
        assert_eq!(a.position, Position::DrivenOff { until: 6 });
        assert!(!return_from_driven_off(&mut a, 5, Window { first: 3 }, Height::Low));
        assert!(!return_from_driven_off(&mut a, 7, Window { first: 3 }, Height::Low), "the window closed first");
        assert!(return_from_driven_off(&mut a, 6, Window { first: 3 }, Height::Low));
        // At 0 and a 3: it stays; damaged again it is shot down, 1 damage for CM.
        let mut b = flying(k.clone(), Height::Low);
        take_damage(&mut b, 2, 3, &mut Scripted::new([3]), "b");
        assert_eq!(b.position, Position::OverTable(Height::Low));
        let (r, cm, _) = take_damage(&mut b, 3, 4, &mut Scripted::new([]), "b");
        assert_eq!((r, cm), (DamageResult::ShotDown, 1));
        // From 2, four damages: shot down, counted 3 (2 + 1 further).
        let mut c = flying(k, Height::Low);
        let (r, cm, _) = take_damage(&mut c, 4, 4, &mut Scripted::new([]), "c");
        assert_eq!((r, cm), (DamageResult::ShotDown, 3));
    }

    #[test]
    fn match_up_four_against_two() {
        assert_eq!(match_up(4, 2), vec![2, 2]);
        assert_eq!(check_match_up(4, &[2, 2]), Ok(()));
        assert!(check_match_up(4, &[1, 3]).is_err(), "cannot match up 1-1 and 3-1");
        assert_eq!(check_match_up(5, &[3, 2]), Ok(()));
        assert_eq!(check_match_up(2, &[1, 1, 0]), Ok(()));
        assert!(check_match_up(2, &[2, 0, 0]).is_err(), "no doubling up without outnumbering");
        assert_eq!(match_up(2, 3), vec![1, 1, 0]);
    }

    #[test]
    fn air_to_air_table() {
        assert_eq!(air_to_air_need(Speed::Fast, Speed::Fast, false), 5);
        assert_eq!(air_to_air_need(Speed::Normal, Speed::Fast, false), 6);
        assert_eq!(air_to_air_need(Speed::Slow, Speed::Fast, false), 7);
        assert_eq!(air_to_air_need(Speed::Fast, Speed::Normal, false), 4);
        assert_eq!(air_to_air_need(Speed::Slow, Speed::Normal, false), 6);
        assert_eq!(air_to_air_need(Speed::Fast, Speed::Slow, false), 3);
        assert_eq!(air_to_air_need(Speed::Slow, Speed::Slow, false), 5);
        assert_eq!(air_to_air_need(Speed::Normal, Speed::Normal, true), 6);
        let mut faces = Vec::new();
        assert!(ladder(7, &mut Scripted::new([6, 4]), &mut faces), "6 then 4+");
        assert!(!ladder(7, &mut Scripted::new([6, 3]), &mut faces));
        assert!(!ladder(8, &mut Scripted::new([6, 4]), &mut faces), "damaged: 6 then 5+");
        assert!(!ladder(7, &mut Scripted::new([5]), &mut faces));
    }

    #[test]
    fn air_to_air_fire_uses_guns_not_at_cannon() {
        let mut k = kind(Role::Fighter, Speed::Fast, 2);
        k.mmg = 2;
        k.cannon = 1;
        k.at_cannon = 2;
        let a = flying(k, Height::Medium);
        let t = flying(kind(Role::MediumBomber, Speed::Normal, 3), Height::Medium);
        // Fast vs all other: 4+. 3 guns: 4, 3, 6 -> 2 hits; damage 3+: 3, 2 -> 1.
        let (d, _) = air_to_air_fire(&a, &t, &mut Scripted::new([4, 3, 6, 3, 2]), "f").unwrap();
        assert_eq!(d, 1);
        let low = flying(kind(Role::GroundAttack, Speed::Normal, 2), Height::Low);
        assert!(matches!(air_to_air_fire(&a, &low, &mut Scripted::new([]), "f"), Err(AirError::DifferentLevels(..))));
        let mut at_only = kind(Role::GroundAttack, Speed::Normal, 2);
        at_only.at_cannon = 2;
        let b = flying(at_only, Height::Medium);
        assert_eq!(air_to_air_fire(&b, &t, &mut Scripted::new([]), "b").unwrap_err(), AirError::NoAirWeapons);
    }

    #[test]
    fn pre_game_and_air_command_momentum() {
        assert!(pre_game_role(Role::LightBomber).is_ok() && pre_game_role(Role::Fighter).is_ok());
        assert_eq!(pre_game_role(Role::HeavyBomber), Err(AirError::NotForPreGame(Role::HeavyBomber)));
        let cms = air_command_cms(&[kind(Role::Fighter, Speed::Fast, 2), kind(Role::MediumBomber, Speed::Normal, 3)]);
        assert_eq!(cms, 5);
        let (after, withdraw, _) = air_command_cm(cms, 3, &mut Scripted::new([1, 5, 3]), "AC");
        assert_eq!((after, withdraw), (1, false), "1 and 3 count, 5 is ignored");
        let (after, withdraw, _) = air_command_cm(after, 1, &mut Scripted::new([2]), "AC");
        assert_eq!((after, withdraw), (0, true));
    }

    #[test]
    fn morale_and_aircraft_on_the_ground() {
        assert!(air_morale(2, true, &mut Scripted::new([4, 1]), "AC").0);
        assert!(!air_morale(1, false, &mut Scripted::new([2]), "el").0);
        let mut a = Aircraft::new(kind(Role::Transport, Speed::Slow, 2), Height::Medium);
        a.position = Position::OnGround;
        assert_eq!(check_air_turn(&a, &[Phase::Fire], &[]), Err(AirError::OnTheGround));
        assert_eq!(air_move(&mut a, AirMove::TakeOff(Height::Medium)), Ok(Position::Box(Height::Medium)));
        assert_eq!(GROUNDED_AIRCRAFT_TARGETS, 12);
        assert_eq!(GROUNDED_ARMOUR, ArmourClass::SoftSkinned);
    }
}
