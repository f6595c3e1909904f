//! *Heroes All* "Observation": who may be seen, and the Observation Test.
//!
//! Dice = observers × targets ÷ 10 rounded up, at most 5. The score needed is
//! the count of **segments** between observer and target; 1 or less is an
//! autospot, above 6 only a **super-throw** (a 6 on the D6, then the score on
//! a D10) sees. Geometry is not measured here: the caller describes what lies
//! between observer and target in [`Between`].

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dice::Roll;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::officer::Quality;

/// *Heroes All*, Observation: "Maximum observation range is 60 inches."
pub const MAX_OBSERVATION_RANGE: f32 = 60.0;
/// *Heroes All*, Observation: "The maximum number of dice that can be thrown in a test is 5."
pub const MAX_OBSERVATION_DICE: u8 = 5;
/// *Heroes All*, "Spotting a potential ambush": no advance to within 9 inches
/// of an enemy held position without an observation test.
pub const AMBUSH_DISTANCE: f32 = 9.0;

fn rule() -> RuleRef {
    RuleRef::new(Book::HeroesAll, "Observation")
}

/// What observes (*Heroes All*, "Observers and targets").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObserverClass {
    /// A figure, including CSW crews and Officers.
    Figure,
    /// A (closed) AFV.
    Afv,
    /// Open topped or open platform armour.
    OpenTopped,
    /// Lorries, cars, jeeps etc.
    SoftSkin,
    Dog,
}

impl ObserverClass {
    /// How many observers one of these counts as (*Heroes All*, Observation).
    pub const fn counts_as(self) -> u32 {
        match self {
            Self::Figure | Self::Afv => 1,
            Self::OpenTopped | Self::SoftSkin | Self::Dog => 2,
        }
    }
}

/// What is observed (*Heroes All*, "Observers and targets").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetClass {
    Figure,
    /// A crew served weapon: counts 1 + the number of crew.
    Csw {
        crew: u8,
    },
    /// Barricades, road blocks etc.
    Barricade,
    Tankette,
    Jeep,
    Motorcycle,
    Horse,
    /// A light reconnaissance car (Humber LRC and the like). The observation
    /// example counts the Humber recce car as 4, the jeep/tankette class, not
    /// the armoured-car 8 (*Heroes All*, Observation example; rules README).
    LightReconnaissanceCar,
    Tank,
    ArmouredCar,
    HalfTrack,
    Truck,
    LandingCraft,
    GroundedAircraft,
    Building,
    Bridge,
}

impl TargetClass {
    /// How many targets one of these counts as (*Heroes All*, Observation).
    pub const fn counts_as(self) -> u32 {
        match self {
            Self::Figure => 1,
            Self::Csw { crew } => 1 + crew as u32,
            Self::Barricade | Self::Tankette | Self::Jeep | Self::Motorcycle | Self::Horse => 4,
            Self::LightReconnaissanceCar => 4,
            Self::Tank | Self::ArmouredCar | Self::HalfTrack | Self::Truck => 8,
            Self::LandingCraft | Self::GroundedAircraft => 12,
            Self::Building => 20,
            Self::Bridge => 10,
        }
    }
}

/// Bad input to an observation rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObservationError {
    NoObservers,
    NoTargets,
    /// A distance or depth that is negative or not a number.
    BadMeasure(&'static str),
    /// A Continuous Momentum score outside 1..=6.
    CmsOutOfRange(u8),
    /// "A whole element cannot use its 2 Acts to attempt to spot the same target twice."
    SameTargetTwice,
    /// Both Acts of the bound are already spent on observation.
    NoActsLeft,
}

impl fmt::Display for ObservationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoObservers => write!(f, "an observation test needs at least one observer"),
            Self::NoTargets => write!(f, "an observation test needs at least one target"),
            Self::BadMeasure(what) => write!(f, "{what} must be a non-negative number of inches"),
            Self::CmsOutOfRange(v) => write!(f, "Continuous Momentum score {v} is outside 1..=6"),
            Self::SameTargetTwice => write!(f, "an element cannot use its 2 Acts to spot the same target twice"),
            Self::NoActsLeft => write!(f, "the element has used both its Acts this bound"),
        }
    }
}

impl std::error::Error for ObservationError {}

/// Continuous Momentum as it bears on observing and firing (*FYOB*).
///
/// Reading: *Heroes All* has observers lose a segment "for every CMS point
/// below 6", while *FYOB*'s "Continuous Momentum Score" charts (infantry/CSW
/// and AFV) add 1 segment at a score of 4 and forbid observing at 3 or less.
/// *FYOB* governs the solo game where the books overlap, so its charts are
/// used (docs/rules-readings.md, test `cms_follows_fyob_chart`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Momentum {
    /// Continuous Momentum score, 1..=6.
    pub cms: u8,
    /// Failures in this bound's Continuous Momentum tests.
    pub failures: u8,
}

impl Default for Momentum {
    fn default() -> Self {
        Self { cms: 6, failures: 0 }
    }
}

impl Momentum {
    pub fn validate(self) -> Result<Self, ObservationError> {
        if (1..=6).contains(&self.cms) { Ok(self) } else { Err(ObservationError::CmsOutOfRange(self.cms)) }
    }

    /// Segments added to an observation test, `None` where the element may not observe.
    /// *FYOB* "Continuous Momentum Score" (4: add 1 segment; 3 or less: cannot
    /// observe) and "Results of Momentum Tests this bound" (1–4 failures: 1
    /// segment; 5–6: 2 segments; 7 or more: cannot observe).
    pub const fn observation_segments(self) -> Option<i8> {
        let from_cms = match self.cms {
            5.. => 0,
            4 => 1,
            _ => return None,
        };
        let from_tests = match self.failures {
            0 => 0,
            1..=4 => 1,
            5 | 6 => 2,
            _ => return None,
        };
        Some(from_cms + from_tests)
    }

    /// Modifier to a D6 fired over open sights, `None` where the element may not fire.
    /// *FYOB* "Continuous Momentum Score" (4: −1; 3 or less: cannot fire) and
    /// "Results of Momentum Tests this bound" (1–2 failures: −1; 3 or more: cannot fire).
    pub const fn open_sights_modifier(self) -> Option<i8> {
        let from_cms = match self.cms {
            5.. => 0,
            4 => -1,
            _ => return None,
        };
        let from_tests = match self.failures {
            0 => 0,
            1 | 2 => -1,
            _ => return None,
        };
        Some(from_cms + from_tests)
    }
}

/// What lies between observer and target, measured by the caller.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Between {
    /// From observer to target.
    pub distance: crate::inches::Inches,
    /// Inches of sparse woods, groves etc crossed.
    pub sparse_wood: f32,
    /// Inches of dense woods, jungle etc crossed.
    pub dense_wood: f32,
    /// Walls, hedges or similar obstacles (vehicles included) up to the height
    /// of a figure, not counting those the observers are in contact with.
    pub obstacles: u8,
    /// Obstacles the observers are in contact with (ignored, recorded for the log).
    pub obstacles_touching_observer: u8,
    /// No line of sight: a building, or a wall or solid obstacle higher than the target.
    pub sight_blocked: bool,
    /// Levels of hill the observer stands above the target.
    pub hill_levels: u8,
    /// Storeys of a building the observer stands above the target.
    pub storeys: u8,
    /// Every observer is in the turret of an AFV.
    pub all_in_turrets: bool,
}

/// How the target moved on its last turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetMovement {
    #[default]
    Stationary,
    /// Moved in view: the observers gain a segment.
    Moved,
    /// A stealth move: no gain.
    StealthMove,
    /// Started and ended its move out of sight but was visible during it:
    /// the observers lose 2 segments. Reading: this case is the one named
    /// rule for such a target, so the "moved" gain is not added to it
    /// (test `moved_out_of_sight_costs_two_without_the_moved_gain`).
    MovedOutOfSight,
}

/// The observing element.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct ObserverState {
    pub overwatch: bool,
    pub quality: Quality,
    /// A recognised recce unit.
    pub recce: bool,
    pub momentum: Momentum,
}

/// The element observed.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct TargetState {
    /// Fired on its last turn, or an explosion.
    pub fired_last_turn: bool,
    pub movement: TargetMovement,
    pub elite: bool,
    pub in_intact_building: bool,
    /// In a concealed position (*FYOB* "Concealed elements").
    pub concealed: bool,
}

/// One Observation Test, everything the rule needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ObservationTest<'a> {
    pub observers: &'a [(ObserverClass, u16)],
    pub targets: &'a [(TargetClass, u16)],
    pub between: Between,
    pub observer: ObserverState,
    pub target: TargetState,
    /// A night bound (*Heroes All*, Night Fighting: add 4 segments unless the
    /// target fired on its last turn).
    pub night: bool,
}

/// The lines of the segment count, in the order the book lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segment {
    Distance,
    SparseWood,
    DenseWood,
    Obstacles,
    Height,
    Turret,
    Overwatch,
    EliteOrRecce,
    TargetFired,
    TargetMoved,
    EliteTarget,
    IntactBuilding,
    Concealed,
    MovedOutOfSight,
    Night,
    Momentum,
}

const SEGMENTS: usize = 16;

/// Name and reason of each [`Segment`] line (*Heroes All*, "How to work out
/// whether an element can be seen"; Night Fighting; *FYOB* Continuous Momentum).
const SEGMENT_TABLE: [(&str, &str); SEGMENTS] = [
    ("distance", "1 segment per 10 inches (or part) between observer and target"),
    ("sparse_wood", "4 inches of sparse woods is 1 segment"),
    ("dense_wood", "2 inches of dense woods is 1 segment"),
    ("obstacles", "1 segment per wall, hedge or vehicle up to figure height (not those touching the observer)"),
    ("height", "extra height: 1 segment per level of hills or storey of a building"),
    ("turret", "extra height: all observers in AFV turrets"),
    ("overwatch", "observers on Overwatch gain 1 segment"),
    ("elite_or_recce", "elite and/or recognised recce observers gain 1 segment"),
    ("target_fired", "target fired on its last turn / an explosion"),
    ("target_moved", "target moved on its last turn (not a stealth move)"),
    ("elite_target", "trying to spot an elite target"),
    ("intact_building", "target occupies an intact building"),
    ("concealed", "trying to spot concealed troops: 2 segments"),
    ("moved_out_of_sight", "target started and ended its move out of sight: 2 segments"),
    ("night", "night bound: 4 segments unless the target fired on its last turn"),
    ("momentum", "FYOB Continuous Momentum score and this bound's Momentum Test results"),
];

/// Why a target cannot be seen whatever the dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unseeable {
    /// More than 60 inches.
    BeyondRange,
    /// No line of sight (building, wall or obstacle higher than the target).
    SightBlocked,
    /// More than 2 inches of dense or 4 inches of sparse wood.
    WoodsBlock,
    /// *FYOB*: Continuous Momentum forbids observing this bound.
    MomentumForbids,
    /// More than 10 segments: not even a super-throw can make it.
    BeyondSuperThrow,
}

/// What the segment count allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sight {
    /// 1 segment or less: seen without a test (the Act is still spent).
    Autospot,
    /// Each D6 needs `needed`+ (2..=6).
    Test {
        needed: u8,
    },
    /// `needed` is 7..=10: a 6 on a D6 and then `needed`+ on a D10.
    SuperThrow {
        needed: u8,
    },
    Unseeable(Unseeable),
}

/// The segment count of one test, line by line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Segments([i8; SEGMENTS]);

impl Segments {
    pub fn get(&self, line: Segment) -> i8 {
        self.0[line as usize]
    }

    /// The score needed: the sum of the lines.
    pub fn total(&self) -> i16 {
        self.0.iter().map(|&v| i16::from(v)).sum()
    }

    fn set(&mut self, line: Segment, value: i8) {
        self.0[line as usize] = value;
    }

    /// Each line of the count that is not 0: its name, the book's reason, its segments.
    pub fn lines(&self) -> Vec<(&'static str, &'static str, i8)> {
        SEGMENT_TABLE.iter().zip(self.0).filter(|(_, v)| *v != 0).map(|(&(name, why), v)| (name, why, v)).collect()
    }
}

/// The test worked out before any die is thrown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Assessment {
    /// Observers and targets as counted by the rule.
    pub observers: u32,
    pub targets: u32,
    /// Dice in the test, 1..=5.
    pub dice: u8,
    pub segments: Segments,
    pub sight: Sight,
}

impl Assessment {
    /// An autospot: seen without a test, and (*Heroes All*, "Unobserved
    /// Autospot") fireable without an Act at +1 on the firing dice.
    pub fn is_autospot(&self) -> bool {
        self.sight == Sight::Autospot
    }

    /// Exact chance the test sees the target.
    pub fn chance_seen(&self) -> f64 {
        chance_seen(self.dice, self.sight)
    }
}

/// Observers × targets ÷ 10, rounded up, at most 5 (*Heroes All*, Observation:
/// "42 becomes 5, 28 becomes 3").
pub fn observation_dice(observers: u32, targets: u32) -> Result<u8, ObservationError> {
    if observers == 0 {
        return Err(ObservationError::NoObservers);
    }
    if targets == 0 {
        return Err(ObservationError::NoTargets);
    }
    let dice = (u64::from(observers) * u64::from(targets)).div_ceil(10);
    Ok(dice.min(u64::from(MAX_OBSERVATION_DICE)) as u8)
}

fn measure(value: f32, what: &'static str) -> Result<f32, ObservationError> {
    if value.is_finite() && value >= 0.0 { Ok(value) } else { Err(ObservationError::BadMeasure(what)) }
}

/// Works out dice, segments and what they allow, throwing nothing.
pub fn assess(test: &ObservationTest<'_>) -> Result<Assessment, ObservationError> {
    let observers: u32 = test.observers.iter().map(|&(c, n)| c.counts_as() * u32::from(n)).sum();
    let targets: u32 = test.targets.iter().map(|&(c, n)| c.counts_as() * u32::from(n)).sum();
    let dice = observation_dice(observers, targets)?;
    let b = &test.between;
    let distance = measure(b.distance.get(), "distance")?;
    let sparse = measure(b.sparse_wood, "sparse wood")?;
    let dense = measure(b.dense_wood, "dense wood")?;
    let momentum = test.observer.momentum.validate()?;

    let mut s = Segments::default();
    // "10 inches of distance": the worked example counts 21 inches as 3, so
    // each 10 inches or part of it is a segment.
    s.set(Segment::Distance, (distance / 10.0).ceil().min(7.0) as i8);
    s.set(Segment::SparseWood, i8::from(sparse > 0.0));
    s.set(Segment::DenseWood, i8::from(dense > 0.0));
    s.set(Segment::Obstacles, b.obstacles.min(100) as i8);
    s.set(Segment::Height, -(b.hill_levels.saturating_add(b.storeys).min(100) as i8));
    s.set(Segment::Turret, -i8::from(b.all_in_turrets));
    s.set(Segment::Overwatch, -i8::from(test.observer.overwatch));
    s.set(Segment::EliteOrRecce, -i8::from(test.observer.quality == Quality::Elite || test.observer.recce));
    let t = &test.target;
    s.set(Segment::TargetFired, -i8::from(t.fired_last_turn));
    s.set(Segment::TargetMoved, -i8::from(t.movement == TargetMovement::Moved));
    s.set(Segment::EliteTarget, i8::from(t.elite));
    s.set(Segment::IntactBuilding, i8::from(t.in_intact_building));
    s.set(Segment::Concealed, 2 * i8::from(t.concealed));
    s.set(Segment::MovedOutOfSight, 2 * i8::from(t.movement == TargetMovement::MovedOutOfSight));
    s.set(Segment::Night, 4 * i8::from(test.night && !t.fired_last_turn));
    let momentum_segments = momentum.observation_segments();
    s.set(Segment::Momentum, momentum_segments.unwrap_or(0));

    let blocked = if distance > MAX_OBSERVATION_RANGE {
        Some(Unseeable::BeyondRange)
    } else if b.sight_blocked {
        Some(Unseeable::SightBlocked)
    } else if sparse > 4.0 || dense > 2.0 {
        Some(Unseeable::WoodsBlock)
    } else if momentum_segments.is_none() {
        Some(Unseeable::MomentumForbids)
    } else {
        None
    };
    let sight = match (blocked, s.total()) {
        (Some(why), _) => Sight::Unseeable(why),
        (None, ..=1) => Sight::Autospot,
        (None, n @ 2..=6) => Sight::Test { needed: n as u8 },
        (None, n @ 7..=10) => Sight::SuperThrow { needed: n as u8 },
        (None, _) => Sight::Unseeable(Unseeable::BeyondSuperThrow),
    };
    Ok(Assessment { observers, targets, dice, segments: s, sight })
}

/// Exact chance that `dice` dice see the target.
/// Test: 1 − ((needed−1)/6)^dice. Super-throw (reading: each D6 showing 6
/// earns its own D10, see docs/rules-readings.md): 1 − (1 − p)^dice with
/// p = 1/6 × (11 − needed)/10.
pub fn chance_seen(dice: u8, sight: Sight) -> f64 {
    let miss_one = match sight {
        Sight::Autospot => return 1.0,
        Sight::Unseeable(_) => return 0.0,
        Sight::Test { needed } => f64::from(needed.clamp(1, 7) - 1) / 6.0,
        Sight::SuperThrow { needed } => 1.0 - f64::from(11 - needed.clamp(1, 11)) / 60.0,
    };
    1.0 - miss_one.powi(i32::from(dice))
}

/// A thrown Observation Test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Observation<'a> {
    pub test: ObservationTest<'a>,
    pub assessment: Assessment,
    /// The D6 faces, `d6_count` of them.
    d6: [u8; MAX_OBSERVATION_DICE as usize],
    d6_count: u8,
    /// The D10 faces of a super-throw (0 counts as 10), `d10_count` of them.
    d10: [u8; MAX_OBSERVATION_DICE as usize],
    d10_count: u8,
    pub seen: bool,
}

impl Observation<'_> {
    pub fn d6(&self) -> &[u8] {
        &self.d6[..usize::from(self.d6_count)]
    }

    pub fn d10(&self) -> &[u8] {
        &self.d10[..usize::from(self.d10_count)]
    }

    /// The `observation` event: every count and segment with its reason, the
    /// dice and the outcome. Built on demand so that resolving stays cheap.
    pub fn event(&self) -> RuleEvent {
        let a = &self.assessment;
        let mut e = RuleEvent::new(EventKind::Observation, rule());
        for &(class, n) in self.test.observers {
            e = e.input("observer", (class, n), format!("counts as {} observer(s) each", class.counts_as()));
        }
        for &(class, n) in self.test.targets {
            e = e.input("target", (class, n), format!("counts as {} target(s) each", class.counts_as()));
        }
        e = e.input(
            "dice",
            a.dice,
            format!("{} observers x {} targets / 10, rounded up, max 5", a.observers, a.targets),
        );
        if self.test.between.obstacles_touching_observer > 0 {
            e = e.input(
                "obstacles_ignored",
                self.test.between.obstacles_touching_observer,
                "observers ignore obstacles they are in contact with",
            );
        }
        for (i, &(name, reason)) in SEGMENT_TABLE.iter().enumerate() {
            if a.segments.0[i] != 0 {
                e = e.input(name, a.segments.0[i], reason);
            }
        }
        e = e.input("segments", a.segments.total(), "the score needed").dice(6, self.d6()).dice(10, self.d10());
        e.outcome(serde_json::json!({ "sight": a.sight, "seen": self.seen }))
    }
}

/// Throws the Observation Test: the dice of [`observation_dice`], each
/// needing the segment count; for a super-throw each 6 earns a D10 that must
/// reach the count. An autospot or an unseeable target throws nothing.
pub fn observe<'a>(test: &ObservationTest<'a>, dice: &mut impl Roll) -> Result<Observation<'a>, ObservationError> {
    let assessment = assess(test)?;
    let mut out = Observation {
        test: *test,
        assessment,
        d6: [0; MAX_OBSERVATION_DICE as usize],
        d6_count: 0,
        d10: [0; MAX_OBSERVATION_DICE as usize],
        d10_count: 0,
        seen: false,
    };
    let needed = match assessment.sight {
        Sight::Autospot => {
            out.seen = true;
            return Ok(out);
        }
        Sight::Unseeable(_) => return Ok(out),
        Sight::Test { needed } | Sight::SuperThrow { needed } => needed,
    };
    for i in 0..usize::from(assessment.dice) {
        out.d6[i] = dice.d6();
    }
    out.d6_count = assessment.dice;
    if needed <= 6 {
        out.seen = out.d6().iter().any(|&f| f >= needed);
    } else {
        for i in 0..usize::from(assessment.dice) {
            if out.d6[i] == 6 {
                let d10 = dice.d10();
                out.d10[usize::from(out.d10_count)] = d10;
                out.d10_count += 1;
                if d10 >= needed {
                    out.seen = true;
                    break;
                }
            }
        }
    }
    Ok(out)
}

/// The Acts an element has spent observing this bound (*Heroes All*: "A whole
/// element cannot use its 2 Acts to attempt to spot the same target twice but
/// it can attempt to observe 2 different targets").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObservingActs<T> {
    tried: [Option<T>; 2],
}

impl<T> Default for ObservingActs<T> {
    fn default() -> Self {
        Self { tried: [None, None] }
    }
}

impl<T: PartialEq + Copy> ObservingActs<T> {
    /// Spends an Act observing `target`, or says why it may not.
    pub fn spend(&mut self, target: T) -> Result<(), ObservationError> {
        if self.tried.contains(&Some(target)) {
            return Err(ObservationError::SameTargetTwice);
        }
        let slot = self.tried.iter_mut().find(|t| t.is_none()).ok_or(ObservationError::NoActsLeft)?;
        *slot = Some(target);
        Ok(())
    }
}

/// *Heroes All*, "Spotting a potential ambush": may an advancing element end
/// (or pass) `distance` inches from an enemy held position? Within 9 inches
/// (9 itself included, "within" read inclusively) it may only go after taking
/// an observation test with an Act this bound, passed or failed.
pub fn may_approach(distance: f32, tested_this_bound: bool) -> Result<bool, ObservationError> {
    let distance = measure(distance, "distance to the enemy position")?;
    Ok(distance > AMBUSH_DISTANCE || tested_this_bound)
}

/// *Heroes All*, "Checking vacated positions": at least 2 D6, one per observer.
pub const MIN_VACATED_DICE: u32 = 2;

/// *Heroes All*, "Checking vacated positions": an approaching force checks
/// whether a previously observed enemy element has left its building or
/// position unseen. "Throw 1 x D6 per observer (minimum 2 x D6) and score a
/// double to see that the enemy have now vacated"; on a failure it "must
/// continue to act as if the position is occupied". Returns whether the
/// vacated position was seen to be empty.
///
/// Readings: observers count as in "Observers and targets" (a lorry's crew
/// counts 2); "a double" is any two dice showing the same face; no cap on the
/// dice is printed (unlike the Observation Test's 5), so none is applied
/// (test `vacated_positions_need_a_double_on_a_d6_per_observer`).
pub fn check_vacated(
    observers: &[(ObserverClass, u16)],
    dice: &mut impl Roll,
    id: &str,
) -> Result<(bool, RuleEvent), ObservationError> {
    let counted: u32 = observers.iter().map(|&(class, n)| class.counts_as() * u32::from(n)).sum();
    if counted == 0 {
        return Err(ObservationError::NoObservers);
    }
    let n = counted.max(MIN_VACATED_DICE);
    let faces = dice.throw(n as usize, 6);
    let mut seen_face = [false; 7];
    let double = faces.iter().any(|&f| std::mem::replace(&mut seen_face[usize::from(f)], true));
    let event = RuleEvent::new(EventKind::Observation, RuleRef::new(Book::HeroesAll, "Checking vacated positions"))
        .actor(id)
        .input("observers", counted, "1 x D6 per observer")
        .input("dice", n, "minimum 2 x D6")
        .dice(6, &faces)
        .outcome(serde_json::json!({ "vacated_seen": double }));
    Ok((double, event))
}

#[cfg(test)]
mod tests {
    #[test]
    fn segment_lines_name_each_counted_line_with_its_reason() {
        let mut s = Segments::default();
        s.set(Segment::Distance, 3);
        s.set(Segment::DenseWood, 1);
        let lines = s.lines();
        assert_eq!(lines.len(), 2);
        assert_eq!((lines[0].0, lines[0].2), ("distance", 3));
        assert!(lines[1].1.contains("dense woods"), "{lines:?}");
    }

    use super::*;
    use crate::dice::{Dice, Scripted};

    const FOUR_MEN: &[(ObserverClass, u16)] = &[(ObserverClass::Figure, 4)];
    const HUMBER: &[(TargetClass, u16)] = &[(TargetClass::LightReconnaissanceCar, 1)];

    fn test<'a>(
        observers: &'a [(ObserverClass, u16)],
        targets: &'a [(TargetClass, u16)],
        between: Between,
    ) -> ObservationTest<'a> {
        ObservationTest {
            observers,
            targets,
            between,
            observer: ObserverState::default(),
            target: TargetState::default(),
            night: false,
        }
    }

    fn at(distance: f32) -> Between {
        Between { distance: crate::inches::Inches(distance), ..Between::default() }
    }

    #[test]
    fn dice_follow_the_books_worked_numbers() {
        assert_eq!(observation_dice(42, 1), Ok(5), "42 becomes 5");
        assert_eq!(observation_dice(28, 1), Ok(3), "28 becomes 3");
        assert_eq!(observation_dice(4, 4), Ok(2), "16 becomes 2");
        assert_eq!(observation_dice(1, 4), Ok(1));
        assert_eq!(observation_dice(10, 1), Ok(1));
        assert_eq!(observation_dice(11, 1), Ok(2));
        assert_eq!(observation_dice(60, 20), Ok(5), "never more than 5");
        assert_eq!(observation_dice(0, 4), Err(ObservationError::NoObservers));
        assert_eq!(observation_dice(4, 0), Err(ObservationError::NoTargets));
    }

    #[test]
    fn observer_and_target_classes_count_as_the_table() {
        assert_eq!(ObserverClass::Figure.counts_as(), 1);
        assert_eq!(ObserverClass::Afv.counts_as(), 1);
        assert_eq!(ObserverClass::OpenTopped.counts_as(), 2);
        assert_eq!(ObserverClass::SoftSkin.counts_as(), 2);
        assert_eq!(ObserverClass::Dog.counts_as(), 2);
        assert_eq!(TargetClass::Csw { crew: 3 }.counts_as(), 4, "1 + the crew");
        assert_eq!(TargetClass::Jeep.counts_as(), 4);
        assert_eq!(TargetClass::LightReconnaissanceCar.counts_as(), 4, "the Humber recce car counts as 4");
        assert_eq!(TargetClass::ArmouredCar.counts_as(), 8);
        assert_eq!(TargetClass::Truck.counts_as(), 8);
        assert_eq!(TargetClass::GroundedAircraft.counts_as(), 12);
        assert_eq!(TargetClass::Building.counts_as(), 20);
        assert_eq!(TargetClass::Bridge.counts_as(), 10);
    }

    /// *Heroes All* Observation example 1: 4 German infantry spot the Humber
    /// recce car 21" away past 2 hedges (ignoring the one they touch): 5 needed,
    /// 2 dice; they throw 1 and 2 and fail.
    #[test]
    fn example_germans_fail_to_spot_the_humber() {
        let between = Between {
            distance: crate::inches::Inches(21.0),
            obstacles: 2,
            obstacles_touching_observer: 1,
            ..Between::default()
        };
        let t = test(FOUR_MEN, HUMBER, between);
        let a = assess(&t).unwrap();
        assert_eq!((a.observers, a.targets, a.dice), (4, 4, 2));
        assert_eq!(a.segments.get(Segment::Distance), 3);
        assert_eq!(a.sight, Sight::Test { needed: 5 });
        let mut dice = Scripted::new([1, 2]);
        let o = observe(&t, &mut dice).unwrap();
        assert!(!o.seen);
        assert_eq!(o.d6(), [1, 2]);
        assert_eq!(dice.remaining(), 0);
        let with_a_five = observe(&t, &mut Scripted::new([1, 5])).unwrap();
        assert!(with_a_five.seen, "the other way: a 5 would have seen it");
    }

    /// *Heroes All* Observation example 2: the recce car (1 AFV observer, in its
    /// turret, recce) looks back at the 4 men: 3 + 3 hedges − 1 − 1 = 4+, one
    /// die; it throws a 5 and spots them.
    #[test]
    fn example_humber_spots_the_lurking_infantry() {
        let between =
            Between { distance: crate::inches::Inches(21.0), obstacles: 3, all_in_turrets: true, ..Between::default() };
        let mut t = test(&[(ObserverClass::Afv, 1)], &[(TargetClass::Figure, 4)], between);
        t.observer.recce = true;
        let a = assess(&t).unwrap();
        assert_eq!(a.dice, 1);
        assert_eq!(a.sight, Sight::Test { needed: 4 });
        assert!(observe(&t, &mut Scripted::new([5])).unwrap().seen);
        assert!(!observe(&t, &mut Scripted::new([3])).unwrap().seen, "the other way: a 3 misses");
    }

    #[test]
    fn each_segment_line_moves_the_score_by_the_book() {
        let base = test(FOUR_MEN, HUMBER, at(35.0)); // 4 segments
        let needed = |t: &ObservationTest| assess(t).unwrap().segments.total();
        assert_eq!(needed(&base), 4);
        let with = |f: &dyn Fn(&mut ObservationTest)| {
            let mut t = base;
            f(&mut t);
            needed(&t) - 4
        };
        assert_eq!(with(&|t| t.between.sparse_wood = 4.0), 1);
        assert_eq!(with(&|t| t.between.dense_wood = 1.5), 1);
        assert_eq!(with(&|t| t.between.obstacles_touching_observer = 3), 0, "touching obstacles are ignored");
        assert_eq!(with(&|t| t.between.hill_levels = 2), -2, "hill levels multiply");
        assert_eq!(with(&|t| t.between.storeys = 1), -1);
        assert_eq!(with(&|t| t.between.all_in_turrets = true), -1);
        assert_eq!(with(&|t| t.observer.overwatch = true), -1);
        assert_eq!(with(&|t| t.observer.quality = Quality::Elite), -1);
        assert_eq!(
            with(&|t| {
                t.observer.quality = Quality::Elite;
                t.observer.recce = true
            }),
            -1,
            "elite and/or recce is one segment"
        );
        assert_eq!(
            with(&|t| {
                t.observer.recce = true;
                t.observer.overwatch = true
            }),
            -2,
            "recce on overwatch: doubly enhanced"
        );
        assert_eq!(with(&|t| t.target.fired_last_turn = true), -1);
        assert_eq!(with(&|t| t.target.movement = TargetMovement::Moved), -1);
        assert_eq!(with(&|t| t.target.movement = TargetMovement::StealthMove), 0);
        assert_eq!(with(&|t| t.target.elite = true), 1);
        assert_eq!(with(&|t| t.target.in_intact_building = true), 1);
        assert_eq!(with(&|t| t.target.concealed = true), 2);
        assert_eq!(with(&|t| t.night = true), 4);
        assert_eq!(
            with(&|t| {
                t.night = true;
                t.target.fired_last_turn = true
            }),
            -1,
            "at night a target that fired is observed by normal criteria"
        );
    }

    #[test]
    fn moved_out_of_sight_costs_two_without_the_moved_gain() {
        let mut t = test(FOUR_MEN, HUMBER, at(35.0));
        t.target.movement = TargetMovement::MovedOutOfSight;
        let a = assess(&t).unwrap();
        assert_eq!(a.segments.get(Segment::MovedOutOfSight), 2);
        assert_eq!(a.segments.get(Segment::TargetMoved), 0);
        assert_eq!(a.sight, Sight::Test { needed: 6 });
    }

    #[test]
    fn distance_counts_each_ten_inches_or_part() {
        let seg = |d: f32| assess(&test(FOUR_MEN, HUMBER, at(d))).unwrap().segments.get(Segment::Distance);
        assert_eq!(seg(0.0), 0);
        assert_eq!(seg(10.0), 1);
        assert_eq!(seg(10.5), 2);
        assert_eq!(seg(21.0), 3);
        assert_eq!(seg(60.0), 6);
    }

    #[test]
    fn sight_blockers_and_range() {
        let sight = |b: Between| assess(&test(FOUR_MEN, HUMBER, b)).unwrap().sight;
        assert_eq!(sight(at(60.5)), Sight::Unseeable(Unseeable::BeyondRange));
        assert_eq!(sight(Between { sight_blocked: true, ..at(5.0) }), Sight::Unseeable(Unseeable::SightBlocked));
        assert_eq!(sight(Between { dense_wood: 2.5, ..at(5.0) }), Sight::Unseeable(Unseeable::WoodsBlock));
        assert_eq!(sight(Between { sparse_wood: 4.5, ..at(5.0) }), Sight::Unseeable(Unseeable::WoodsBlock));
        assert_eq!(
            sight(Between { dense_wood: 2.0, ..at(5.0) }),
            Sight::Test { needed: 2 },
            "2 inches is a segment, not a blocker"
        );
    }

    #[test]
    fn one_segment_or_less_is_an_autospot_without_dice() {
        let t = test(FOUR_MEN, HUMBER, at(8.0));
        let a = assess(&t).unwrap();
        assert!(a.is_autospot());
        let mut dice = Scripted::new([]);
        let o = observe(&t, &mut dice).unwrap();
        assert!(o.seen && o.d6().is_empty());
        let mut close = test(FOUR_MEN, HUMBER, at(8.0));
        close.observer.overwatch = true; // 0 segments
        assert!(assess(&close).unwrap().is_autospot());
        let far = test(FOUR_MEN, HUMBER, at(15.0));
        assert!(!assess(&far).unwrap().is_autospot(), "2 segments needs a test");
    }

    /// "an 8 can be made with 6 on a D6 and then 8+ on a D10".
    #[test]
    fn super_throw_for_eight() {
        let between = Between { distance: crate::inches::Inches(55.0), obstacles: 2, ..Between::default() }; // 6 + 2
        let t = test(FOUR_MEN, HUMBER, between);
        assert_eq!(assess(&t).unwrap().sight, Sight::SuperThrow { needed: 8 });
        assert!(observe(&t, &mut Scripted::new([6, 3, 8])).unwrap().seen);
        assert!(!observe(&t, &mut Scripted::new([6, 3, 7])).unwrap().seen, "7 on the D10 is short");
        assert!(!observe(&t, &mut Scripted::new([5, 5])).unwrap().seen, "no 6, no D10");
        let o = observe(&t, &mut Scripted::new([6, 6, 2, 10])).unwrap();
        assert!(o.seen, "each 6 earns a D10; the 0 face counts 10");
        assert_eq!(o.d10(), [2, 10]);
        let eleven = test(FOUR_MEN, HUMBER, Between { obstacles: 5, ..at(55.0) });
        assert_eq!(assess(&eleven).unwrap().sight, Sight::Unseeable(Unseeable::BeyondSuperThrow));
    }

    #[test]
    fn cms_follows_fyob_chart() {
        let mut t = test(FOUR_MEN, HUMBER, at(35.0));
        let with = |t: &mut ObservationTest, cms, failures| {
            t.observer.momentum = Momentum { cms, failures };
            assess(t).map(|a| a.sight)
        };
        assert_eq!(with(&mut t, 5, 0), Ok(Sight::Test { needed: 4 }), "FYOB: 6 or 5 is OK");
        assert_eq!(with(&mut t, 4, 0), Ok(Sight::Test { needed: 5 }), "FYOB: 4 adds 1 segment");
        assert_eq!(with(&mut t, 3, 0), Ok(Sight::Unseeable(Unseeable::MomentumForbids)));
        assert_eq!(with(&mut t, 6, 2), Ok(Sight::Test { needed: 5 }));
        assert_eq!(with(&mut t, 6, 5), Ok(Sight::Test { needed: 6 }), "pinned: 2 segments");
        assert_eq!(with(&mut t, 4, 6), Ok(Sight::SuperThrow { needed: 7 }));
        assert_eq!(with(&mut t, 6, 7), Ok(Sight::Unseeable(Unseeable::MomentumForbids)));
        assert_eq!(with(&mut t, 0, 0), Err(ObservationError::CmsOutOfRange(0)));
        assert_eq!(with(&mut t, 7, 0), Err(ObservationError::CmsOutOfRange(7)));
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert_eq!(assess(&test(&[], HUMBER, at(5.0))), Err(ObservationError::NoObservers));
        assert_eq!(assess(&test(FOUR_MEN, &[(TargetClass::Figure, 0)], at(5.0))), Err(ObservationError::NoTargets));
        assert_eq!(assess(&test(FOUR_MEN, HUMBER, at(-1.0))), Err(ObservationError::BadMeasure("distance")));
        assert_eq!(assess(&test(FOUR_MEN, HUMBER, at(f32::NAN))), Err(ObservationError::BadMeasure("distance")));
        let wood = Between { sparse_wood: f32::INFINITY, ..at(5.0) };
        assert_eq!(assess(&test(FOUR_MEN, HUMBER, wood)), Err(ObservationError::BadMeasure("sparse wood")));
        let huge = Between { obstacles: 255, hill_levels: 255, storeys: 255, ..at(5.0) };
        assert!(assess(&test(FOUR_MEN, HUMBER, huge)).is_ok());
    }

    #[test]
    fn two_acts_may_not_spot_the_same_target() {
        let mut acts = ObservingActs::default();
        assert_eq!(acts.spend("tiger"), Ok(()));
        assert_eq!(acts.spend("tiger"), Err(ObservationError::SameTargetTwice));
        assert_eq!(acts.spend("half-track"), Ok(()), "two different targets are allowed");
        assert_eq!(acts.spend("truck"), Err(ObservationError::NoActsLeft));
    }

    #[test]
    fn ambush_rule_holds_at_nine_inches() {
        assert_eq!(may_approach(12.0, false), Ok(true));
        assert_eq!(may_approach(9.0, false), Ok(false), "within 9 inches needs a test first");
        assert_eq!(may_approach(4.0, false), Ok(false));
        assert_eq!(may_approach(4.0, true), Ok(true), "a failed test still lets it advance");
        assert!(may_approach(-3.0, true).is_err());
    }

    #[test]
    fn vacated_positions_need_a_double_on_a_d6_per_observer() {
        // One observer still throws 2 x D6; a double sees the position empty.
        let one = &[(ObserverClass::Figure, 1)];
        let (seen, e) = check_vacated(one, &mut Scripted::new([4, 4]), "recce").unwrap();
        assert!(seen);
        assert_eq!(e.dice.iter().map(|t| (t.sides, t.face)).collect::<Vec<_>>(), [(6, 4), (6, 4)]);
        assert!(!check_vacated(one, &mut Scripted::new([4, 5]), "recce").unwrap().0);
        // Three figures throw 3 dice: any pair is a double.
        let three = &[(ObserverClass::Figure, 3)];
        assert!(check_vacated(three, &mut Scripted::new([1, 6, 1]), "x").unwrap().0);
        assert!(!check_vacated(three, &mut Scripted::new([1, 6, 2]), "x").unwrap().0);
        // A lorry counts as 2 observers, an AFV as 1: 3 dice.
        let mixed = &[(ObserverClass::SoftSkin, 1), (ObserverClass::Afv, 1)];
        let (_, e) = check_vacated(mixed, &mut Scripted::new([1, 2, 3]), "x").unwrap();
        assert_eq!(e.dice.len(), 3);
        // Seven or more dice always show a double.
        let mut dice = Dice::new(7);
        let seven = &[(ObserverClass::Figure, 7)];
        assert!((0..200).all(|_| check_vacated(seven, &mut dice, "x").unwrap().0));
        assert!(matches!(check_vacated(&[], &mut dice, "x"), Err(ObservationError::NoObservers)));
    }

    #[test]
    fn exact_odds_match_known_values() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(close(chance_seen(2, Sight::Test { needed: 5 }), 5.0 / 9.0), "two dice needing 5+");
        assert!(close(chance_seen(1, Sight::Test { needed: 4 }), 0.5));
        assert!(close(chance_seen(3, Sight::Test { needed: 6 }), 1.0 - 125.0 / 216.0));
        assert!(close(chance_seen(1, Sight::SuperThrow { needed: 8 }), 1.0 / 6.0 * 3.0 / 10.0));
        assert!(close(chance_seen(5, Sight::Autospot), 1.0));
        assert!(close(chance_seen(5, Sight::Unseeable(Unseeable::SightBlocked)), 0.0));
    }

    #[test]
    fn odds_match_monte_carlo() {
        let cases = [
            (Between { distance: crate::inches::Inches(21.0), obstacles: 2, ..Between::default() }, FOUR_MEN),
            (at(45.0), &[(ObserverClass::Figure, 8)][..]),
            (
                Between { distance: crate::inches::Inches(55.0), obstacles: 3, ..Between::default() },
                &[(ObserverClass::Figure, 13)][..],
            ),
        ];
        let mut dice = Dice::new(2024);
        for (between, observers) in cases {
            let t = test(observers, HUMBER, between);
            let p = assess(&t).unwrap().chance_seen();
            let n = 100_000;
            let seen = (0..n).filter(|_| observe(&t, &mut dice).unwrap().seen).count();
            let freq = seen as f64 / f64::from(n);
            assert!((freq - p).abs() < 0.006, "{between:?}: exact {p}, sampled {freq}");
        }
    }

    #[test]
    fn never_more_than_five_dice_over_many_seeds() {
        for seed in 0..300u64 {
            let mut dice = Dice::new(seed);
            let observers =
                [(ObserverClass::Figure, u16::from(dice.d10()) * 3), (ObserverClass::SoftSkin, u16::from(dice.d4()))];
            let targets = [(TargetClass::Tank, u16::from(dice.d6())), (TargetClass::Figure, u16::from(dice.d8()))];
            let between = Between {
                distance: crate::inches::Inches(f32::from(dice.d12()) * 5.0),
                obstacles: dice.d3(),
                ..Between::default()
            };
            let o = observe(&test(&observers, &targets, between), &mut dice).unwrap();
            assert!(o.assessment.dice <= MAX_OBSERVATION_DICE);
            assert!(o.d6().len() <= usize::from(MAX_OBSERVATION_DICE));
            assert!(o.d10().iter().all(|f| (1..=10).contains(f)));
        }
    }

    #[test]
    fn event_records_segments_with_reasons_and_dice() {
        let between = Between {
            distance: crate::inches::Inches(21.0),
            obstacles: 2,
            obstacles_touching_observer: 1,
            ..Between::default()
        };
        let o = observe(&test(FOUR_MEN, HUMBER, between), &mut Scripted::new([1, 2])).unwrap();
        let e = o.event();
        assert_eq!(e.kind, EventKind::Observation);
        let input = |name: &str| e.inputs.iter().find(|i| i.name == name).unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(input("distance").value, 3);
        assert_eq!(input("obstacles").value, 2);
        assert_eq!(input("obstacles_ignored").value, 1);
        assert_eq!(input("segments").value, 5);
        assert!(input("distance").reason.contains("10 inches"));
        assert_eq!(e.dice.len(), 2);
        assert_eq!(e.outcome["seen"], false);
    }
}
