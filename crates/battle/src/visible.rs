//! What one element can see of another and how it would fire on it, measured
//! from the scenario's terrain by the rules core's geometry: the same
//! functions the 3D table's line-of-sight tool uses.

use warbound_rules::{
    codex::Codex,
    firing::{self, Cover},
    forces::{self, FiringTeam},
    geometry::{self, FIGURE_HEIGHT, Viewpoint},
    observation::{self, Between, Momentum, ObservationTest, ObserverState, TargetMovement, TargetState},
    officer::Quality,
    scenario::Scenario,
    terrain::{Feature, Point, Terrain, WoodDensity, inside},
};

use super::state::{Build, ElementView, SightLines};

/// A vehicle's height, inches, for sight lines (about twice a figure).
const VEHICLE_HEIGHT: f32 = 2.0 * FIGURE_HEIGHT;

/// An AFV this near the brow in front of it is hull down behind it: about
/// a tank's length.
const HULL_DOWN_BROW: warbound_rules::inches::Inches = warbound_rules::inches::Inches(2.0);

/// The table as the rules see it this bound.
pub struct Sight<'a> {
    pub scenario: &'a Scenario,
    /// The table as it stands this bound.
    pub terrain: &'a Terrain,
    pub codex: &'a Codex,
    pub night: bool,
    /// The smoke screens standing this bound.
    pub smoke: &'a [super::state::Smoke],
    /// The outlines of the buildings burning this bound: "Smoke is created
    /// the size of the building" (*Heroes All*, "Setting fire to buildings").
    pub burning: Vec<&'a [Point]>,
    /// Sight lines already measured on this table as it stands.
    pub lines: &'a SightLines,
    /// [`Sight::immobile`] already answered, by element (the address of its
    /// `Force`), when kept: only by a step that reads the table and changes
    /// no element while this sight lasts ([`Sight::reading_only`]).
    pub immobile_known: Option<std::cell::RefCell<Vec<(usize, bool)>>>,
}

/// An end of a sight line as the measured lines are kept: where it stands and
/// whether it is a vehicle, which fix its [`viewpoint`] on a given table.
fn end_key(f: &ElementView) -> [u32; 3] {
    [f.place.at.0.to_bits(), f.place.at.1.to_bits(), u32::from(f.force.build.is_vehicle())]
}

impl<'a> Sight<'a> {
    /// The battle's table as it stands this bound (night from the clock).
    pub fn new(battle: &'a super::state::Battle, codex: &'a Codex) -> Self {
        let night = battle.clock.light() == warbound_rules::day::Light::Night;
        battle.sight_lines.stand_on(&battle.terrain, &battle.smoke);
        let burning = battle
            .buildings
            .iter()
            .filter(|(_, b)| matches!(b.state, warbound_rules::buildings::State::Burning { .. }))
            .filter_map(|&(k, _)| match battle.terrain.features.get(k) {
                Some(Feature::Building { outline, .. }) => Some(outline.as_slice()),
                _ => None,
            })
            .collect();
        Self {
            scenario: &battle.start.scenario,
            terrain: &battle.terrain,
            codex,
            night,
            smoke: &battle.smoke,
            burning,
            lines: &battle.sight_lines,
            immobile_known: None,
        }
    }
}

/// Farther apart than anyone may observe (*Heroes All*, "Observation":
/// `observation::assess` finds such a target unseeable whatever lies between).
fn beyond_sight(a: &ElementView, b: &ElementView) -> bool {
    geometry::distance(a.place.at, b.place.at).get() > observation::MAX_OBSERVATION_RANGE
}

/// Where an element stands for the sight rules. Reading (*Heroes All*,
/// "Observation": "Extra height allows the observer to gain 1 segment and
/// comprises ... a storey of a building (can be multiplied)"): an element
/// that is not a vehicle, inside a building of more than one storey, holds
/// its top storey, where it observes from and is seen at.
pub fn viewpoint(terrain: &Terrain, f: &ElementView) -> Viewpoint {
    let vehicle = f.force.build.is_vehicle();
    let height = if vehicle { VEHICLE_HEIGHT } else { FIGURE_HEIGHT };
    let storey = match geometry::intact_building_at(terrain, f.place.at) {
        Some((_, storeys)) if !vehicle => storeys.saturating_sub(1),
        _ => 0,
    };
    Viewpoint { at: f.place.at, storey, height, reach: 0.5 }
}

impl Sight<'_> {
    /// This sight for a step that only reads the elements while it lasts
    /// (the Auto choosing its command): what it has worked out of each
    /// element's weapons is kept and not worked out again.
    pub fn reading_only(self) -> Self {
        Self { immobile_known: Some(Default::default()), ..self }
    }

    /// What lies between `from` and `to`; `None` if the geometry refuses the
    /// points (off the table). Smoke standing on the line, or round either
    /// end, blocks the sight (*Heroes All*, "Firing smoke").
    pub fn between(&self, from: &ElementView, to: &ElementView) -> Option<Between> {
        let all_in_turrets = matches!(from.force.build, Build::Afv { open_topped: false, .. });
        let key = (end_key(from), end_key(to), all_in_turrets);
        if let Some(known) = self.lines.get(&key) {
            return known;
        }
        let (a, b) = (viewpoint(self.terrain, from), viewpoint(self.terrain, to));
        let between = geometry::sight_line(self.terrain, a, b, all_in_turrets).ok().map(|s| {
            let smoke = self.smoke_between(from.place.at, to.place.at);
            Between { sight_blocked: s.between.sight_blocked || smoke, ..s.between }
        });
        self.lines.insert(key, between);
        between
    }

    /// The edge `f` comes from and faces away from until it moves: its
    /// company's, else its side's.
    pub fn own_edge(&self, f: &ElementView) -> warbound_rules::scenario::Edge {
        let side = &self.scenario.sides[f.identity.side];
        side.companies.get(f.identity.company).and_then(|c| c.edge).unwrap_or(side.edge)
    }

    /// *Heroes All*, "Overwatch": "Overwatch covers a 180 degree arc in the
    /// direction that the element is facing." Reading: the arc bounds the
    /// Overwatch segment, not the element's sight; a target behind it is
    /// observed as by any element not on Overwatch (a guard alone sees
    /// nothing behind: "Guards"). Test
    /// `overwatch_gains_its_segment_only_in_the_arc_it_faces`.
    pub fn overwatch_covers(&self, observer: &ElementView, at: Point) -> bool {
        warbound_rules::facing::in_front(observer.place.at, observer.facing(self.own_edge(observer)), at)
    }

    /// Whether a smoke screen standing on the table, or the smoke of a
    /// burning building, hides `b` from `a`. Reading (*Heroes All*, "Setting
    /// fire to buildings": "Smoke is created the size of the building for
    /// those 3 bounds"): the smoke fills the building's outline, so any line
    /// through it or from inside it is blocked, whatever fire set it burning
    /// (test `a_fire_set_takes_hold_on_two_and_its_smoke_hides_the_building`).
    pub fn smoke_between(&self, a: Point, b: Point) -> bool {
        self.smoke.iter().any(|s| geometry::smoke_hides(&s.balls, a, b))
            || self.burning.iter().any(|outline| geometry::crosses_area(outline, a, b))
    }

    /// Inside a building or its ruin: hard cover (*Heroes All*,
    /// "Buildings": "treat it as a ruin and hard cover").
    pub fn in_building(&self, at: Point) -> bool {
        geometry::building_at(self.terrain, at).is_some()
    }

    /// Inside an intact building, not a ruin (*Heroes All*, "Observation").
    pub fn in_intact_building(&self, at: Point) -> bool {
        geometry::intact_building_at(self.terrain, at).is_some()
    }

    pub fn in_wood(&self, at: Point) -> Option<WoodDensity> {
        self.terrain.features.iter().find_map(|f| match f {
            Feature::Wood { density, outline } if inside(outline, at) => Some(*density),
            _ => None,
        })
    }

    /// The Observation Test `observer` would take on `target`.
    pub fn observation<'b>(
        &self,
        observer: &ElementView,
        target: &ElementView,
        observers: &'b [(observation::ObserverClass, u16)],
        targets: &'b [(observation::TargetClass, u16)],
        momentum: Momentum,
        overwatch: bool,
    ) -> Option<ObservationTest<'b>> {
        // Heroes All, "Guards": a guard "can observe a 180 degree arc to their front".
        if observer.order.posted().is_some_and(|g| !g.sees_towards(observer.place.at, target.place.at)) {
            return None;
        }
        let between = self.between(observer, target)?;
        // *Heroes All*, "Observation": "a target that moved on its last turn
        // (but not if it moved with a stealth move)".
        let (last, this) = (&target.actions.last_bound, &target.actions.this_bound);
        let movement = if (last.moved && !last.stealthy) || (this.moved && !this.stealthy) {
            TargetMovement::Moved
        } else if last.moved || this.moved {
            TargetMovement::StealthMove
        } else {
            TargetMovement::Stationary
        };
        Some(ObservationTest {
            observers,
            targets,
            between,
            observer: ObserverState {
                overwatch,
                quality: observer.force.quality,
                recce: observer.force.recce,
                momentum,
            },
            target: TargetState {
                fired_last_turn: target.actions.last_bound.fired || target.actions.this_bound.fired,
                movement,
                elite: target.force.quality == Quality::Elite,
                in_intact_building: self.in_intact_building(target.place.at),
                concealed: target.concealment.concealed(),
            },
            night: self.night,
        })
    }

    /// Whether `f` has a line of sight to a figure at `at`, within the
    /// observation distance (the place an enemy was last seen).
    pub fn place_in_sight(&self, f: &ElementView, at: Point) -> bool {
        geometry::distance(f.place.at, at) <= observation::MAX_OBSERVATION_RANGE
            && geometry::sight_line(self.terrain, viewpoint(self.terrain, f), Viewpoint::figure(at), false)
                .is_ok_and(|s| !s.between.sight_blocked)
            && !self.smoke_between(f.place.at, at)
    }

    /// Whether `target` would be seen without a test (an autospot).
    pub fn autospot(&self, observer: &ElementView, target: &ElementView) -> bool {
        if beyond_sight(observer, target) || self.blocked(observer, target) {
            return false;
        }
        let (o, t) = (observer.observers(), target.targets(self.codex));
        let m = Momentum { cms: observer.force.element.cms.clamp(1, 6), failures: 0 };
        self.observation(observer, target, &o, &t, m, false)
            .and_then(|test| observation::assess(&test).ok())
            .is_some_and(|a| a.is_autospot())
    }

    /// Whether no line of sight runs from one to the other whatever the
    /// Observation Test: none measured, or one blocked (`observation::assess`
    /// finds it unseeable). A cheap first test before the whole one.
    fn blocked(&self, from: &ElementView, to: &ElementView) -> bool {
        self.between(from, to).is_none_or(|b| b.sight_blocked)
    }

    /// Whether a line of sight runs from one to the other that the rules let
    /// an observer use (not blocked, not through too much wood, within 60").
    pub fn in_view(&self, from: &ElementView, to: &ElementView) -> bool {
        if beyond_sight(from, to) || self.blocked(from, to) {
            return false;
        }
        let (o, t) = (from.observers(), to.targets(self.codex));
        self.observation(from, to, &o, &t, Momentum::default(), false)
            .and_then(|test| observation::assess(&test).ok())
            .is_some_and(|a| !matches!(a.sight, observation::Sight::Unseeable(_)))
    }

    /// *Heroes All*, "How to fire weapons": "Only observed targets can be
    /// fired at unless the target is an unobserved autospot." Reading: an
    /// enemy the element knows of stays observed while it stays in view; a
    /// concealed enemy is seen only as its counters, which are observed, not
    /// fired at, until one is found to be it (FYOB "Placement options").
    pub fn may_fire_at(&self, firer: &ElementView, target: &ElementView) -> bool {
        !target.concealment.concealed()
            && ((firer.intel.known.contains(target.id()) && self.in_view(firer, target))
                || self.autospot(firer, target))
    }

    /// The element's firing teams that reach `target`.
    pub fn teams_in_range(&self, firer: &ElementView, target: &ElementView) -> Vec<FiringTeam> {
        let teams = forces::firing_teams(&firer.force.element, self.codex).unwrap_or_default();
        self.reaching(&teams, firer, target).cloned().collect()
    }

    /// Which of the firer's `teams` reach `target`: [`Sight::teams_in_range`]
    /// for teams already drawn up.
    pub fn reaching<'t>(
        &self,
        teams: &'t [FiringTeam],
        firer: &ElementView,
        target: &ElementView,
    ) -> impl Iterator<Item = &'t FiringTeam> {
        let d = geometry::distance(firer.place.at, target.place.at);
        teams.iter().filter(move |t| {
            let row = t.row.row();
            matches!(
                row.procedure,
                firing::Procedure::OpenSights
                    | firing::Procedure::Howitzer
                    | firing::Procedure::Mortar { .. }
                    | firing::Procedure::Rockets
                    | firing::Procedure::Flame
            ) && row.range.band(d).is_ok()
        })
    }

    /// *Heroes All*, "Weapons table notes": "Immobile This weapon takes time
    /// to set up and break down. It therefore requires an \"act\" to break
    /// down and set up. It cannot set up and fire in the same turn." Reading:
    /// an element on foot whose every weapon is immobile (a gun, an MMG or
    /// HMG team); a section with one among its rifles moves and fires as a
    /// section.
    pub fn immobile(&self, f: &ElementView) -> bool {
        let key = std::ptr::from_ref(f.force) as usize;
        let known = self.immobile_known.as_ref().and_then(|m| m.borrow().iter().find(|(k, _)| *k == key).map(|e| e.1));
        if let Some(known) = known {
            return known;
        }
        let teams = forces::firing_teams(&f.force.element, self.codex).unwrap_or_default();
        let immobile =
            !f.force.build.is_vehicle() && !teams.is_empty() && teams.iter().all(|t| t.row.row().is_immobile(true));
        if let Some(m) = &self.immobile_known {
            m.borrow_mut().push((key, immobile));
        }
        immobile
    }

    pub fn in_range_of_any(&self, firer: &ElementView, target: &ElementView) -> bool {
        !self.teams_in_range(firer, target).is_empty()
    }

    /// Whether the AFV `target` is hull down to `firer` (*Heroes All*,
    /// "Vehicle cover": "Tanks will try to conceal as much of themselves as
    /// possible whilst still being able to fire ... 'hull down' ... where the
    /// undulations of the ground are the only cover"; "-1 if the target is
    /// an AFV showing less than 50% of itself"). Reading: an AFV on higher
    /// ground than its firer, with the brow of its hill level within
    /// [`HULL_DOWN_BROW`] in front of it on the line to the firer, shows its
    /// turret over the brow and hides its hull; farther back the crest hides
    /// it whole (the sight rules' dead ground). Test
    /// `an_afv_just_behind_the_brow_is_hull_down_to_a_firer_below`.
    pub fn hull_down(&self, firer: &ElementView, target: &ElementView) -> bool {
        if !matches!(target.force.build, Build::Afv { .. }) {
            return false;
        }
        let level = |p: Point| geometry::hill_level(self.terrain, p);
        let own = level(target.place.at);
        let (at, from) = (target.place.at, firer.place.at);
        let d = geometry::distance(at, from);
        let t = if d <= HULL_DOWN_BROW { 1.0 } else { HULL_DOWN_BROW / d };
        let brow = Point(at.0 + (from.0 - at.0) * t, at.1 + (from.1 - at.1) * t);
        own > level(from) && level(brow) < own
    }

    /// The target's cover from this firer (*Heroes All*, hit modifiers).
    ///
    /// Reading: inside a building is hard cover; in a wood, or behind a wall
    /// or hedge the line of fire crosses, is soft cover; otherwise the target
    /// is in the open. An AFV is never "in the open" for the +1 (the table
    /// assumes it is up to 50% obscured), so it counts as soft.
    pub fn cover(&self, firer: &ElementView, target: &ElementView) -> Cover {
        if self.hull_down(firer, target) {
            return Cover::HullDown;
        }
        if target.force.build.is_vehicle() {
            return Cover::Soft;
        }
        if self.in_building(target.place.at) {
            return Cover::Hard;
        }
        let behind = self.between(firer, target).is_some_and(|b| b.obstacles > 0);
        if self.in_wood(target.place.at).is_some() || behind { Cover::Soft } else { Cover::Open }
    }
}
