//! Battle state: elements as entities with one component per meaning
//! (queried whole as [`Fielded`]), the sides' command
//! ([`Sides`]), the OPC deck, the clock, the dice and the flow's step.
//! Only the flow systems write it, each through a rule step that logs an
//! event; an element only through [`crate::change::Held::apply`].

use std::collections::BTreeSet;

use crate::prelude::*;
use bevy_ecs::query::QueryData;
use serde::{Deserialize, Serialize};
use warbound_rules::{
    boats::LandingPlan,
    codex::{Codex, Kind as CodexKind},
    command::Objective,
    day::WargameClock,
    dice::Dice,
    effects::{ArmourClass, VehicleState},
    engineers::Task,
    explosives::{Charge, ChargeState},
    firing::FireTarget,
    forces::Element,
    momentum::{Accrued, ElementType},
    movement::{MoveClass, Mover},
    observation::{ObserverClass, TargetClass},
    officer::{Officer, Quality},
    opc::{Deal, Nation},
    order_dice::{Act, ActivityCounter, Phase},
    scenario::{BeachLanding, BridgingSite, Edge},
    strategic::{RadioNet, SeniorOfficerRecord},
    terrain::Point,
    turn::Orders,
};

use super::setup::{BattleResult, BattleStart, Control};

/// Where an element is in the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// In the box, moving on at the start of this bound.
    Waiting(u32),
    /// A reserve in the box, waiting for the Senior Officer to commit it.
    Reserve,
    OnTable,
    /// Aboard the transport with this place in the battle's order, on the
    /// table (*Heroes All*, "Transport elements"): it moves with it under
    /// its own NCO, and is neither seen nor hit but through it.
    Aboard(u16),
    /// Went back to the box under its CMS or its tests, or by its own move:
    /// its Company Officer may rally it and the Senior Officer re-commit it
    /// (FYOB "Strategic Conditions").
    Retired,
    /// Takes no further part in the battle: blown off course, its weapons
    /// container lost, its landing craft turned back.
    OutOfBattle,
    Surrendered,
    Destroyed,
}

impl Status {
    pub fn on_table(self) -> bool {
        self == Status::OnTable
    }

    /// On the table, or riding a transport there: it takes its turns and
    /// its Company Officer commands it.
    pub fn in_play(self) -> bool {
        matches!(self, Status::OnTable | Status::Aboard(_))
    }

    /// The place in the battle's order of the transport it rides in.
    pub fn aboard(self) -> Option<usize> {
        match self {
            Status::Aboard(t) => Some(usize::from(t)),
            _ => None,
        }
    }

    /// Whether its Senior Officer may commit it at his session: a reserve, or
    /// an element back in the box rallied to an acceptable CMS (FYOB
    /// "Strategic Conditions": "re-committed to the table using the
    /// \"reserves\" mechanism").
    pub fn committable(self, cms: u8) -> bool {
        match self {
            Status::Reserve => true,
            Status::Retired => cms >= warbound_rules::command::RESERVE_MIN_CMS,
            _ => false,
        }
    }
}

/// What an element is, for the charts that differ by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Build {
    /// Figures, perhaps with light CSWs carried.
    Infantry,
    /// Crew-served weapons or guns without vehicles.
    Guns { artillery: bool },
    /// Armoured fighting vehicles.
    Afv { armour: ArmourClass, open_topped: bool },
    /// Soft-skinned vehicles.
    SoftSkin,
}

impl Build {
    pub fn element_type(self) -> ElementType {
        match self {
            Build::Infantry | Build::Guns { .. } => ElementType::Infantry,
            Build::Afv { .. } => ElementType::Afv,
            Build::SoftSkin => ElementType::SoftSkin,
        }
    }

    pub fn fire_target(self) -> FireTarget {
        match self {
            Build::Infantry => FireTarget::Infantry,
            Build::Guns { artillery: false } => FireTarget::Csw,
            Build::Guns { artillery: true } => FireTarget::Artillery,
            Build::Afv { .. } => FireTarget::Afv,
            Build::SoftSkin => FireTarget::SoftSkin,
        }
    }

    pub fn is_vehicle(self) -> bool {
        matches!(self, Build::Afv { .. } | Build::SoftSkin)
    }

    /// Of what an element is made, from its CODEX entries.
    pub fn of(element: &Element, codex: &Codex) -> Build {
        let mut build = Build::Infantry;
        for piece in &element.pieces {
            let Ok(entry) = codex.get(&piece.codex) else { continue };
            if entry.kind != CodexKind::Weapon {
                return match entry.armour {
                    Some(ArmourClass::SoftSkinned) | None => Build::SoftSkin,
                    Some(armour) => Build::Afv { armour, open_topped: entry.open_topped },
                };
            }
            let artillery =
                entry.movement.is_some_and(|m| matches!(m, MoveClass::HandMovedGun | MoveClass::HorseTowedGun));
            if element.figures.is_empty() || artillery {
                build = Build::Guns { artillery: artillery || matches!(build, Build::Guns { artillery: true }) };
            }
        }
        build
    }
}

/// How an element comes from the box.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Arrival {
    /// Moves on at its side's edge.
    Edge,
    /// Paratroops on a landing grid centred here.
    Drop(Point),
    /// Gliders landing here.
    Glider(Point),
    /// Aboard the landing craft the scenario planned for this wave and slot.
    Craft { wave: u32, slot: usize },
}

/// What an element did this bound and last bound.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Marks {
    pub moved: bool,
    /// Inches it moved (*Heroes All*, Indirect Fire: "moved more than 3
    /// inches on this bound").
    #[serde(default)]
    pub moved_inches: f32,
    pub fired: bool,
    /// Took an observation test with an Act this bound (the 9" rule).
    pub observed: bool,
    /// It set up its immobile weapons this bound: it may not fire.
    #[serde(default)]
    pub set_up: bool,
    /// Its move was a stealth move (*Heroes All*, "Observation": no segment
    /// gained for its having moved).
    #[serde(default)]
    pub stealthy: bool,
    /// Enemy elements that fired on it this bound (Recce and Report replies to them).
    pub fired_on_by: BTreeSet<String>,
    /// Its NCO took the Leadership Test to re-face it, a posted guard, this
    /// bound (*Heroes All*, "Guards"; one test a bound).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub re_faced: bool,
}

/// Where an element stands in the battle's order: its place in the
/// scenario (the order every system visits elements in), its side and its
/// company. Set at spawn, never changed.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    pub index: u16,
    pub side: usize,
    pub company: usize,
}

/// Its men, weapons and vehicles as the rules record them (with its id, its
/// NCO and its CMS), what they make it, its grade and what it carries.
#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Force {
    pub element: Element,
    pub build: Build,
    /// Its troops' quality ([`warbound_rules::forces::Element::quality`]):
    /// what it moves, observes, is seen and supports others at.
    pub quality: Quality,
    /// Engineers: an element whose order at the start is Engineering (its own
    /// or its Company's), whatever it is ordered to do later.
    pub engineers: bool,
    pub men_start: u32,
    pub radio: bool,
    /// Its own set knocked off the Company's net (FYOB "Radios": an infantry
    /// element hit by 81mm+ mortar or artillery fire, a radio vehicle damaged
    /// by AT or HE fire or in an assault), with the Radio Tests of its
    /// re-netting: `None` while on the net.
    #[serde(default)]
    pub off_net: Option<RadioNet>,
    pub sniper: bool,
    /// A recognised recce unit (*Heroes All*, "Observation").
    #[serde(default)]
    pub recce: bool,
    /// The charges and Bangalore Torpedoes its men still carry (*Heroes All*,
    /// "Explosives").
    #[serde(default)]
    pub explosives: Vec<warbound_rules::explosives::ChargeKind>,
}

impl Force {
    pub fn id(&self) -> &str {
        &self.element.id
    }

    /// A transport (*Heroes All*, "Transport elements"): a vehicle the
    /// scenario allocated to carry an element, with the element it carries.
    pub fn transport(&self) -> Option<Option<&str>> {
        match &self.element.role {
            warbound_rules::forces::Role::Transport { carrying } => Some(carrying.as_deref()),
            warbound_rules::forces::Role::Fighting => None,
        }
    }

    /// The element it carries, a transport loaded.
    pub fn carrying(&self) -> Option<&str> {
        self.transport().flatten()
    }

    /// The quality it fires and takes its CM tests at (*Heroes All*,
    /// "Engineers": "Engineers are rated as Poor for firing and Continuous
    /// Momentum Tests"); its troops' for everyone else.
    pub fn fire_and_cm_quality(&self) -> Quality {
        if self.engineers { warbound_rules::engineers::ENGINEER_QUALITY } else { self.quality }
    }

    pub fn men(&self) -> u32 {
        self.element.men()
    }
}

/// Where it stands on the table and how it moves.
#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Place {
    pub at: Point,
    pub mover: Mover,
    /// The way its hull points, set by its moves (the direction it last
    /// drove); `None` until it moves, facing away from its own edge.
    #[serde(default)]
    pub heading: Option<Point>,
    /// Where it was deployed: its start on the table, or where it came on
    /// (a Goliath's range is measured from it: *Heroes All*, "Goliath").
    #[serde(default)]
    pub deployed: Option<Point>,
    /// The river craft it brings to the water; absent: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boats: Option<Boats>,
}

impl Place {
    /// In its boats on the water (*Heroes All*, "Boats": river craft).
    pub fn afloat(&self) -> bool {
        self.boats.is_some() && self.mover.class == MoveClass::Raft
    }
}

/// An element's river craft and how it moves once out of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Boats {
    pub carried: warbound_rules::boats::RiverBoats,
    /// Its Movement Table class on land.
    pub ashore: MoveClass,
}

/// Whether it is in the box, on the table or gone, and how it comes on.
#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Presence {
    pub status: Status,
    /// How it comes onto the table from the box.
    pub arrival: Arrival,
    /// The first bound it may act in (paratroops and gliders "will not become
    /// fully effective until the bound after they jump"; a platoon that has
    /// not passed its cohesion test).
    pub effective_from: u32,
    /// A dropped platoon that has not yet passed its cohesion test.
    pub without_cohesion: bool,
}

/// The tests its CMS owes: CM tests accrued this bound and carried forward,
/// and (2-player games) morale throws due when it is next given a Command Die.
#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Momentum {
    pub accrued: Accrued,
    pub morale_due: Vec<(warbound_rules::command::MoraleCause, u32)>,
    /// The AFVs attached to it that it has accrued tests for losing, or the
    /// infantry supporting it it has accrued tests for seeing retire
    /// (`shared::partners_lost`).
    #[serde(default)]
    pub partners_lost: Vec<String>,
}

/// What it has done: this bound and last, its Activity Counter, the rounds
/// it has fired and the mortar ranging it holds.
#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Actions {
    pub this_bound: Marks,
    pub last_bound: Marks,
    pub counter: Option<ActivityCounter>,
    pub shots_used: u32,
    /// Mortar ranging on the target it last fired at (*Heroes All*, "Indirect Fire").
    pub ranging: Option<(String, warbound_rules::firing::Ranging)>,
    /// An immobile weapon set up to fire (*Heroes All*, "Weapons table notes").
    #[serde(default)]
    pub set_up: bool,
    /// Where that target stood when it was last fired at: the point the
    /// fire is "walked" from.
    #[serde(default)]
    pub ranging_at: Option<Point>,
    /// Its last Fire phase, for a 2nd shot from the same position.
    #[serde(default)]
    pub last_shot: Option<LastShot>,
    /// The game day it threw its grenades (*Heroes All*, "Close assaults": "A
    /// platoon is only allowed to throw grenades once during the game day").
    #[serde(default)]
    pub grenades_day: Option<u32>,
}

/// An element's last Fire phase (*Heroes All*, "+1 for a 2nd shot at a
/// stationary target from the same position"): at whom, from where, and
/// where the target stood.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LastShot {
    pub target: String,
    pub from: Point,
    pub at: Point,
}

/// In a concealed position, not yet seen or revealed: its counters (FYOB
/// "Placement options"; *Heroes All* addendum "Blinds"), which the enemy
/// observes in its stead.
///
/// Reading: while concealed the element stands (in [`Place`]) at one of its
/// counters still on the table, the one its owner would declare real: the
/// real counter of dummy markers, otherwise the counter nearest its
/// objective. Where it really is stays undecided until it acts (it is
/// declared there) or the enemy finds it at another counter (it stands
/// there). Test `observing_a_counter_throws_real_or_dummy`.
#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Concealment {
    /// The element's counters; `None` in the open.
    pub state: Option<warbound_rules::concealment::Concealed>,
    /// Where each numbered counter stands: counter `k` at `places[k - 1]`.
    pub places: Vec<Point>,
}

impl Concealment {
    /// Concealed with these counters at these places.
    pub fn new(state: warbound_rules::concealment::Concealed, places: Vec<Point>) -> Self {
        Self { state: Some(state), places }
    }

    /// Still concealed: the enemy sees its counters, not the element.
    pub fn concealed(&self) -> bool {
        self.state.as_ref().is_some_and(|c| c.is_concealed())
    }

    /// Its counters still on the table, by number, with where they stand;
    /// none once it is out of concealment.
    pub fn counters(&self) -> Vec<(u8, Point)> {
        let Some(c) = self.state.as_ref().filter(|c| c.is_concealed()) else { return Vec::new() };
        c.counters().iter().filter_map(|&k| Some((k, *self.places.get(usize::from(k).checked_sub(1)?)?))).collect()
    }

    /// Where counter `k` stands.
    pub fn place(&self, k: u8) -> Option<Point> {
        self.places.get(usize::from(k).checked_sub(1)?).copied()
    }

    /// The counter standing at `at`, if one does.
    pub fn counter_at(&self, at: Point) -> Option<u8> {
        self.counters().into_iter().find(|(_, p)| p.0 == at.0 && p.1 == at.1).map(|(k, _)| k)
    }
}

/// Its vehicle's state, when it is one.
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vehicle {
    pub state: Option<VehicleState>,
    /// A rationed side's vehicle that has run out of petrol: it cannot move
    /// further this day (*Heroes All*, "Forces acting whilst rationed").
    #[serde(default)]
    pub out_of_fuel: bool,
}

/// The order its NCO follows.
#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Order {
    pub objective: Objective,
    /// An order its Company Officer sent that waits for its runner (FYOB
    /// "Runners": "each time that the NCO of the element is due to receive
    /// ... information").
    #[serde(default)]
    pub awaiting_runner: Option<Objective>,
    /// Put on Overwatch by a "4" Command Die in the 2-player game, whatever
    /// its objective (*Heroes All*, "Overwatch").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub overwatch: bool,
    /// A posted guard and the way it faces (*Heroes All*, "Guards"), while
    /// it stays on Overwatch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<warbound_rules::movement::Guard>,
}

impl Order {
    /// Its guard, while it is one: a guard taken off Overwatch is an
    /// ordinary element again.
    pub fn posted(&self) -> Option<warbound_rules::movement::Guard> {
        self.guard.filter(|_| self.on_overwatch())
    }
}

impl Order {
    /// On Overwatch: by its order (FYOB), or by a "4" Command Die.
    pub fn on_overwatch(&self) -> bool {
        self.overwatch || self.objective.activity.conduct().overwatch
    }
}

/// Enemy elements its NCO knows of (seen, or passed on by the CO).
#[derive(Component, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Intel {
    pub known: BTreeSet<String>,
    /// Where enemies it lost track of were last seen: it acts as if they
    /// are still there until it checks (*Heroes All*, "Checking vacated
    /// positions").
    #[serde(default)]
    pub last_seen: std::collections::BTreeMap<String, Point>,
}

/// An element on the battle, every component of it: the flow's systems
/// query it whole to read and change it; [`ElementView`] is its read-only
/// form.
#[derive(QueryData)]
#[query_data(mutable)]
pub struct Fielded {
    pub entity: Entity,
    pub identity: &'static Identity,
    pub force: &'static mut Force,
    pub place: &'static mut Place,
    pub presence: &'static mut Presence,
    pub momentum: &'static mut Momentum,
    pub actions: &'static mut Actions,
    pub concealment: &'static mut Concealment,
    pub vehicle: &'static mut Vehicle,
    pub order: &'static mut Order,
    pub intel: &'static mut Intel,
}

/// The components an element is spawned with; also an owned copy of an
/// element (see [`elements`]).
#[derive(Bundle, Debug, Clone, PartialEq)]
pub struct ElementBundle {
    pub identity: Identity,
    pub force: Force,
    pub place: Place,
    pub presence: Presence,
    pub momentum: Momentum,
    pub actions: Actions,
    pub concealment: Concealment,
    pub vehicle: Vehicle,
    pub order: Order,
    pub intel: Intel,
}

impl ElementBundle {
    pub fn id(&self) -> &str {
        self.force.id()
    }

    pub fn men(&self) -> u32 {
        self.force.men()
    }

    /// The copy read as an element on the table (it has no entity).
    pub fn view(&self) -> ElementView<'_> {
        ElementView {
            entity: Entity::PLACEHOLDER,
            identity: &self.identity,
            force: &self.force,
            place: &self.place,
            presence: &self.presence,
            momentum: &self.momentum,
            actions: &self.actions,
            concealment: &self.concealment,
            vehicle: &self.vehicle,
            order: &self.order,
            intel: &self.intel,
        }
    }
}

/// Every element's components, owned, in scenario order: for checking a
/// battle and comparing two.
pub fn elements(world: &World) -> Vec<ElementBundle> {
    let Some(mut q) = world.try_query::<FieldedReadOnly>() else { return Vec::new() };
    let mut v: Vec<ElementBundle> = q
        .iter(world)
        .map(|f| ElementBundle {
            identity: *f.identity,
            force: f.force.clone(),
            place: f.place.clone(),
            presence: f.presence.clone(),
            momentum: f.momentum.clone(),
            actions: f.actions.clone(),
            concealment: f.concealment.clone(),
            vehicle: *f.vehicle,
            order: f.order.clone(),
            intel: f.intel.clone(),
        })
        .collect();
    v.sort_by_key(|f| f.identity.index);
    v
}

/// Every element of the battle by its id: its entity, and its place in the
/// scenario's order (the index of its [`Identity`], which is its place in
/// [`crate::sorted`]). The flow finds an element here, never by comparing
/// ids one by one; an id the roster does not know is no element.
#[derive(Resource, Debug, Default, Clone)]
pub struct Roster {
    entities: Vec<Entity>,
    by_id: std::collections::HashMap<String, usize>,
}

impl Roster {
    /// The roster of elements spawned in scenario order, with their ids.
    pub fn new<'a>(elements: impl IntoIterator<Item = (Entity, &'a str)>) -> Self {
        let mut roster = Self::default();
        for (e, id) in elements {
            roster.by_id.insert(id.to_owned(), roster.entities.len());
            roster.entities.push(e);
        }
        roster
    }

    /// An element joining the battle, after every other.
    pub fn push(&mut self, e: Entity, id: &str) {
        self.by_id.insert(id.to_owned(), self.entities.len());
        self.entities.push(e);
    }

    /// How many elements the battle has.
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// Whether the battle has no element.
    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }

    /// The element's place in scenario order.
    pub fn index(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    /// The entity of the element at `i` in scenario order.
    pub fn entity_at(&self, i: usize) -> Option<Entity> {
        self.entities.get(i).copied()
    }

    /// The element's entity.
    pub fn entity(&self, id: &str) -> Option<Entity> {
        self.index(id).map(|i| self.entities[i])
    }

    /// The element `id` of `els`, every element in scenario order.
    pub fn find<'a, T>(&self, els: &'a [T], id: &str) -> Option<&'a T> {
        self.index(id).and_then(|i| els.get(i))
    }

    /// The element `id` of `els`, every element in scenario order, to change.
    pub fn find_mut<'a, T>(&self, els: &'a mut [T], id: &str) -> Option<&'a mut T> {
        self.index(id).and_then(|i| els.get_mut(i))
    }
}

/// Every element as the rules read it, in scenario order, found by id
/// through the [`Roster`]; it reads as a slice of [`ElementView`]s.
#[derive(Debug, Clone)]
pub struct Elements<'a> {
    views: Vec<ElementView<'a>>,
    roster: &'a Roster,
}

impl<'a> Elements<'a> {
    /// `views` are every element, in scenario order.
    pub fn new(views: Vec<ElementView<'a>>, roster: &'a Roster) -> Self {
        Self { views, roster }
    }

    /// The element `id`.
    pub fn get(&self, id: &str) -> Option<&ElementView<'a>> {
        self.roster.find(&self.views, id)
    }
}

impl<'a> std::ops::Deref for Elements<'a> {
    type Target = [ElementView<'a>];

    fn deref(&self) -> &Self::Target {
        &self.views
    }
}

/// An element as the rules read it: every component, shared.
#[derive(Debug, Clone, Copy)]
pub struct ElementView<'a> {
    pub entity: Entity,
    pub identity: &'a Identity,
    pub force: &'a Force,
    pub place: &'a Place,
    pub presence: &'a Presence,
    pub momentum: &'a Momentum,
    pub actions: &'a Actions,
    pub concealment: &'a Concealment,
    pub vehicle: &'a Vehicle,
    pub order: &'a Order,
    pub intel: &'a Intel,
}

/// An element's components borrowed to change, as a step holds them
/// through [`crate::change::Held`]: plain references, cheaper to hand about
/// than Bevy's `Mut`. Nothing reads Bevy's change detection on elements;
/// holding one marks it changed.
#[derive(Debug)]
pub struct ElementMut<'a> {
    pub entity: Entity,
    pub identity: &'a Identity,
    pub force: &'a mut Force,
    pub place: &'a mut Place,
    pub presence: &'a mut Presence,
    pub momentum: &'a mut Momentum,
    pub actions: &'a mut Actions,
    pub concealment: &'a mut Concealment,
    pub vehicle: &'a mut Vehicle,
    pub order: &'a mut Order,
    pub intel: &'a mut Intel,
}

impl<'w> From<FieldedItem<'w, '_>> for ElementMut<'w> {
    fn from(f: FieldedItem<'w, '_>) -> Self {
        ElementMut {
            entity: f.entity,
            identity: f.identity,
            force: f.force.into_inner(),
            place: f.place.into_inner(),
            presence: f.presence.into_inner(),
            momentum: f.momentum.into_inner(),
            actions: f.actions.into_inner(),
            concealment: f.concealment.into_inner(),
            vehicle: f.vehicle.into_inner(),
            order: f.order.into_inner(),
            intel: f.intel.into_inner(),
        }
    }
}

impl ElementMut<'_> {
    /// Its read-only form.
    pub fn view(&self) -> ElementView<'_> {
        ElementView {
            entity: self.entity,
            identity: self.identity,
            force: self.force,
            place: self.place,
            presence: self.presence,
            momentum: self.momentum,
            actions: self.actions,
            concealment: self.concealment,
            vehicle: self.vehicle,
            order: self.order,
            intel: self.intel,
        }
    }

    pub fn id(&self) -> &str {
        self.force.id()
    }

    pub fn men(&self) -> u32 {
        self.force.men()
    }

    /// See [`ElementView::spent`].
    pub fn spent(&self) -> bool {
        self.view().spent()
    }
}

impl<'w> FieldedReadOnlyItem<'w, '_> {
    pub fn id(&self) -> &'w str {
        self.force.id()
    }

    pub fn men(&self) -> u32 {
        self.force.men()
    }

    /// Its read-only form.
    pub fn view(&self) -> ElementView<'w> {
        ElementView {
            entity: self.entity,
            identity: self.identity,
            force: self.force,
            place: self.place,
            presence: self.presence,
            momentum: self.momentum,
            actions: self.actions,
            concealment: self.concealment,
            vehicle: self.vehicle,
            order: self.order,
            intel: self.intel,
        }
    }
}

impl<'a> ElementView<'a> {
    /// Itself: a view reads as any other held element.
    pub fn view(&self) -> ElementView<'a> {
        *self
    }

    /// The way it faces on the table, given its own edge: a posted guard the
    /// way its Compass die or NCO faced it; anything else the way it last
    /// moved, or away from its own edge until it moves.
    pub fn facing(&self, own_edge: Edge) -> Point {
        if let Some(g) = self.order.posted() {
            return g.facing.toward();
        }
        self.place.heading.unwrap_or_else(|| warbound_rules::facing::ahead(own_edge))
    }

    pub fn id(&self) -> &str {
        self.force.id()
    }

    pub fn men(&self) -> u32 {
        self.force.men()
    }

    /// Observers as the Observation rules count them.
    pub fn observers(&self) -> Vec<(ObserverClass, u16)> {
        match self.force.build {
            Build::Afv { open_topped: false, .. } => vec![(ObserverClass::Afv, 1)],
            Build::Afv { open_topped: true, .. } => vec![(ObserverClass::OpenTopped, 1)],
            Build::SoftSkin => vec![(ObserverClass::SoftSkin, 1)],
            _ => vec![(ObserverClass::Figure, self.men().max(1) as u16)],
        }
    }

    /// Targets as the Observation rules count them: each figure, and each
    /// piece as its CODEX says (a CSW counts 1 + its crew).
    pub fn targets(&self, codex: &Codex) -> Vec<(TargetClass, u16)> {
        let element = &self.force.element;
        let mut t = Vec::new();
        if !element.figures.is_empty() {
            t.push((TargetClass::Figure, element.figures.len() as u16));
        }
        for p in &element.pieces {
            let class = match codex.get(&p.codex).map(|e| e.observation) {
                Ok(TargetClass::Csw { .. }) => TargetClass::Csw { crew: p.crew },
                Ok(c) => c,
                Err(_) => TargetClass::Figure,
            };
            t.push((class, 1));
        }
        if t.is_empty() {
            t.push((TargetClass::Figure, 1));
        }
        t
    }

    /// Whether it is lost to its side: nothing left that fights or moves.
    pub fn spent(&self) -> bool {
        self.men() == 0 || self.vehicle.state == Some(VehicleState::Brewed)
    }
}

/// A Company and its Company Officer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompanyState {
    pub id: String,
    pub co: Officer,
    /// The element the CO figure is with.
    pub attached_to: String,
    /// `false` once the CO is a casualty; his successor commands from his
    /// own element and the command card is no longer dealt.
    pub co_alive: bool,
    /// The element whose NCO succeeded the lost CO (FYOB "Company Officer as
    /// a casualty"); `co` and `attached_to` are then his.
    #[serde(default)]
    pub successor: Option<String>,
    pub objective: Option<Objective>,
    /// The Company's radio net (FYOB "Radios": "To net all of the radios in
    /// a Company, the Company Officer must pass a Radio Test"): the sets of
    /// its elements that carry one, and his link to the Senior Officer.
    #[serde(default)]
    pub radio: RadioNet,
    /// Enemy elements the Company Officer knows of: what his NCOs passed on
    /// and what he had from the Senior Officer.
    #[serde(default)]
    pub known: BTreeSet<String>,
    /// An objective the Senior Officer sent without a radio link: it waits
    /// for the Company Officer's runner (FYOB "Radio Links between Officer
    /// levels").
    #[serde(default)]
    pub from_senior_officer: Option<Objective>,
    /// Its own box's edge, where it is not its side's (FYOW 15.2).
    #[serde(default)]
    pub edge: Option<Edge>,
}

impl CompanyState {
    /// Whether the Company's radio net is up: netted in, not DIS.
    pub fn netted(&self) -> bool {
        self.radio.netted && !self.radio.dis
    }
}

/// A Forward Observation Officer and his Interdiction Fire plan (*Heroes
/// All*, "Advanced Artillery Rules").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FooState {
    pub id: String,
    pub foo: warbound_rules::artillery::Foo,
    /// The element his figure is with.
    pub with: String,
    pub plan: warbound_rules::artillery::Interdiction,
    pub alive: bool,
}

/// An off-table battery.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BatteryState {
    pub id: String,
    /// CODEX id of its gun.
    pub gun: String,
    pub guns: u8,
    pub foo: String,
    /// Ranging on the target it last fired at: (target number, where it stands).
    pub ranging: Option<(u8, warbound_rules::firing::Ranging)>,
}

/// A squadron of aircraft (*Heroes All*, "Aircraft rules").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SquadronState {
    pub id: String,
    pub machines: Vec<warbound_rules::aircraft::Aircraft>,
    pub window: warbound_rules::aircraft::Window,
    /// The bound it arrives in the box; `None` until called in.
    pub arrives: Option<u32>,
    /// The Squadron Leader NCO who takes the ORT.
    pub leader: Officer,
    /// The ground target it has acquired.
    pub target: Option<String>,
}

/// A side's command: the Senior Officer and his Company Officers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideState {
    pub name: String,
    pub nation: Nation,
    pub edge: Edge,
    pub control: Control,
    pub senior: Officer,
    pub record: SeniorOfficerRecord,
    pub cmt_start: u32,
    pub companies: Vec<CompanyState>,
    /// Enemy elements the Senior Officer knows of (shared by his COs).
    pub known: BTreeSet<String>,
    pub foos: Vec<FooState>,
    pub batteries: Vec<BatteryState>,
    pub squadrons: Vec<SquadronState>,
    /// The Senior Officer ordered a general withdrawal at Red (FYOB
    /// "Strategic Condition at Red").
    pub general_withdrawal: bool,
    /// The Air Command CO of its squadrons, if it has any.
    pub air_command: Option<AirCommand>,
}

/// *Heroes All*, "Continuous Momentum for Aircraft": the Air Command CO and
/// his score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AirCommand {
    /// His OPC's holder id.
    pub id: String,
    /// "The total of the strength factors of all aircraft" at the start.
    pub cms: u32,
    /// Damages his aircraft have suffered since he was last activated.
    pub damages: u32,
    /// His score reached 0: every machine has left the table.
    pub withdrawn: bool,
}

impl SideState {
    /// The edge of company `c`'s box: its own (FYOW 15.2), else the side's.
    /// Its elements come on from there, and fall back and retire towards it.
    pub fn home(&self, c: usize) -> Edge {
        self.companies.get(c).and_then(|c| c.edge).unwrap_or(self.edge)
    }

    /// The force has left the battle: Withdrawn, or withdrawing at Red.
    pub fn withdrawn(&self) -> bool {
        self.general_withdrawal || self.record.condition() == warbound_rules::strategic::StrategicCondition::Withdrawn
    }
}

/// Both sides' command.
#[derive(Resource, Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Sides(pub Vec<SideState>);

/// The battle's clock, table and deck.
#[derive(Resource, Debug, Clone)]
pub struct Battle {
    pub start: BattleStart,
    /// The table as it stands: the scenario's terrain with the bridges
    /// built and blown during the battle.
    pub terrain: warbound_rules::terrain::Terrain,
    pub clock: WargameClock,
    /// The weather now: the scenario's, then each campaign session's
    /// (a [`crate::setup::Continuation`]'s) from the bound after it is given.
    pub weather: warbound_rules::scenario::Weather,
    pub deck: Option<Deal>,
    /// The result once the battle is over.
    pub result: Option<BattleResult>,
    /// Demolition charges on the table.
    pub charges: Vec<Demolition>,
    /// Each minefield of the terrain (by feature index) and its clearing.
    pub minefields: Vec<(usize, warbound_rules::mines::Minefield)>,
    /// Each building of the terrain (by feature index): Defence Value left, fire.
    pub buildings: Vec<(usize, warbound_rules::buildings::Building)>,
    /// Each bridge of the terrain: river (feature index), its place in the
    /// river's bridges, Defence Value left.
    pub bridges: Vec<BridgeState>,
    /// Pontoon bridges the sides' engineers are building.
    pub pontoons: Vec<Pontoon>,
    /// The sides' landings from the sea.
    pub landings: Vec<SideLanding>,
    /// Smoke screens standing on the table (*Heroes All*, "Firing smoke").
    pub smoke: Vec<Smoke>,
    /// Fires set in buildings, to take hold (or not) next bound (*Heroes
    /// All*, "Setting fire to buildings").
    pub fires_set: Vec<FireSet>,
    /// Sight lines measured on the table as it stands.
    pub sight_lines: SightLines,
}

/// A sight line's two ends (point as bits, whether a vehicle, which fix
/// each viewpoint on the table it was measured on)
/// and whether its observer is all in turrets.
pub type LineKey = ([u32; 3], [u32; 3], bool);

/// Sight lines already measured (`visible::Sight::between`) and routes
/// already split into stretches (`geometry::route`), each exactly as
/// measured, with the table and the smoke they were measured on: they are
/// forgotten when either differs ([`SightLines::stand_on`]), when the apply
/// step changes the terrain, a building or the smoke, and when
/// [`MEASURED_AT_MOST`] are kept. Not saved: a loaded battle measures them again.
#[derive(Default)]
pub struct SightLines(std::sync::Mutex<Measured>);

type Between = warbound_rules::observation::Between;

/// A straight route's two ends, as bits.
type RouteKey = ([u32; 2], [u32; 2]);

/// The most sight lines, or routes, kept at once (a few MB); past it they are measured afresh.
const MEASURED_AT_MOST: usize = 1 << 17;

#[derive(Default)]
struct Measured {
    terrain: warbound_rules::terrain::Terrain,
    smoke: Vec<Smoke>,
    lines: std::collections::HashMap<LineKey, Option<Between>, KeyHash>,
    routes: std::collections::HashMap<RouteKey, Option<std::sync::Arc<warbound_rules::geometry::Route>>, KeyHash>,
}

/// A hash for the measured lines' and routes' keys, a few words of bits
/// each: a multiply and a rotate a word, far cheaper than the standard
/// map's hash, which guards against keys chosen by an attacker.
#[derive(Default, Clone, Copy)]
struct KeyHash;

impl std::hash::BuildHasher for KeyHash {
    type Hasher = KeyHasher;
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(0)
    }
}

struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // A word at a time: the keys are arrays of words.
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.write_u64(u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]));
        }
        for &b in words.remainder() {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u32(&mut self, word: u32) {
        self.write_u64(u64::from(word));
    }
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl SightLines {
    /// Keeps the lines measured on `terrain` under `smoke`, forgets any
    /// measured on another table.
    pub fn stand_on(&self, terrain: &warbound_rules::terrain::Terrain, smoke: &[Smoke]) {
        if let Ok(mut m) = self.0.lock()
            && (m.terrain != *terrain || m.smoke != smoke)
        {
            *m = Measured { terrain: terrain.clone(), smoke: smoke.to_vec(), ..Default::default() };
        }
    }

    pub fn get(&self, key: &LineKey) -> Option<Option<Between>> {
        self.0.lock().ok().and_then(|m| m.lines.get(key).copied())
    }

    pub fn insert(&self, key: LineKey, between: Option<Between>) {
        if let Ok(mut m) = self.0.lock() {
            if m.lines.len() >= MEASURED_AT_MOST {
                m.lines.clear();
            }
            m.lines.insert(key, between);
        }
    }

    /// The straight route from `from` to `to` over `terrain`, the battle's
    /// table as it stands (`geometry::route`); `None` where the geometry
    /// refuses the points.
    pub fn route(
        &self,
        terrain: &warbound_rules::terrain::Terrain,
        from: Point,
        to: Point,
    ) -> Option<std::sync::Arc<warbound_rules::geometry::Route>> {
        let key = ([from.0.to_bits(), from.1.to_bits()], [to.0.to_bits(), to.1.to_bits()]);
        if let Some(known) = self.0.lock().ok().and_then(|m| m.routes.get(&key).cloned()) {
            return known;
        }
        let route = warbound_rules::geometry::route(terrain, &[from, to]).ok().map(std::sync::Arc::new);
        if let Ok(mut m) = self.0.lock() {
            if m.routes.len() >= MEASURED_AT_MOST {
                m.routes.clear();
            }
            m.routes.insert(key, route.clone());
        }
        route
    }

    pub fn clear(&self) {
        if let Ok(mut m) = self.0.lock() {
            m.lines.clear();
            m.routes.clear();
        }
    }
}

/// A copy of the battle measures its own sight lines.
impl Clone for SightLines {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl std::fmt::Debug for SightLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.lock().map(|m| m.lines.len()).unwrap_or_default();
        write!(f, "SightLines({n} measured)")
    }
}

/// A smoke round's screen on the table: "place 3 x 1 inch smokeballs on
/// this spot for 2 bounds" (*Heroes All*, "Firing smoke").
#[derive(Debug, Clone, PartialEq)]
pub struct Smoke {
    /// The element that fired it.
    pub by: String,
    /// The spot hit.
    pub spot: Point,
    /// The smokeballs, in a row across the line of fire.
    pub balls: [Point; 3],
    /// The bound it was laid, and how long it stands.
    pub screen: warbound_rules::firing::SmokeScreen,
}

/// A fire an element has set in a building (*Heroes All*, "Setting fire to
/// buildings"): "The fire takes hold next bound on a 2+ throw on a D6."
#[derive(Debug, Clone, PartialEq)]
pub struct FireSet {
    /// The building, by its place among the battle's buildings.
    pub building: usize,
    /// The element whose figure set it.
    pub by: String,
    /// The bound it was set in.
    pub bound: u32,
}

/// A charge on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Demolition {
    pub id: String,
    /// The side that set it.
    pub side: usize,
    pub at: Point,
    pub charge: Charge,
    /// What it brings down, for the log.
    pub target: String,
    /// Found by the enemy's engineers.
    pub found: bool,
}

impl Demolition {
    pub fn live(&self) -> bool {
        matches!(self.charge.state, ChargeState::Set | ChargeState::Delayed(_))
    }
}

/// A pontoon bridge being built at a side's bridging site.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pontoon {
    pub side: usize,
    pub site: BridgingSite,
    pub task: Task,
    /// A bridge-laying tank's work at the site (*Heroes All*, "Bridge-laying
    /// or fascine-laying tanks"): the site is bridged when either is done.
    #[serde(default = "warbound_rules::engineers::layer_task")]
    pub laying: Task,
}

/// One side's landing: its beach and the Landing Plan as it stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideLanding {
    pub side: usize,
    pub beach: BeachLanding,
    pub plan: LandingPlan,
    /// Craft destroyed on the approach, or turned back with no lane left.
    pub lost: Vec<String>,
}

impl SideLanding {
    /// Where the craft `id` lands now (its slot after any change of plan).
    pub fn slot_of(&self, id: &str) -> Option<usize> {
        self.plan.landings.iter().find(|l| l.contents.first().is_some_and(|c| c == id)).map(|l| l.slot)
    }
}

/// A bridge on the table and what is left of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BridgeState {
    pub river: usize,
    pub span: warbound_rules::terrain::Span,
    pub bridge: warbound_rules::buildings::Bridge,
    /// The score its menders have thrown towards the next point of damage
    /// (*Heroes All*, "Repairing roads and bridges").
    #[serde(default)]
    pub repair: warbound_rules::engineers::RoadRepair,
}

/// The battle's dice: one seeded stream for everything.
#[derive(Resource, Debug)]
pub struct BattleDice(pub Dice);

/// The element whose card is being played, and what it may still do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    pub element: String,
    pub orders: Orders,
    /// Phases taken so far, in order.
    pub taken: Vec<Phase>,
    pub acts: Vec<Act>,
    /// Failures in this bound's CM tests (they limit observing and firing).
    pub failures: u8,
    /// A Player's move thrown and not yet made: he now moves up to the score.
    #[serde(default)]
    pub pending_move: Option<PendingMove>,
    /// Its move this turn is "at the double": it may neither fire nor act
    /// (*Heroes All*, "Movement").
    #[serde(default)]
    pub at_the_double: bool,
    /// How its NCO reaches his Company Officer (FYOB "Runners"): `None` by
    /// radio on the Company's net or face to face; `Some(news)` only by a
    /// runner, `news` when there is something to send or to receive.
    #[serde(default)]
    pub runner: Option<bool>,
}

/// Movement Dice thrown for a declared route (towards `to`): the element may
/// stop anywhere on it up to `allowance` inches.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PendingMove {
    pub to: (f32, f32),
    pub allowance: f32,
}

/// A player's part of a 2-player bound (*Heroes All*, "Command and Control
/// for 2-Player games").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hotseat {
    pub player: usize,
    /// The second player of the bound: when he is done, the bound ends.
    pub second: bool,
    pub dice: warbound_rules::command::CommandDice,
    /// Command Dice each element has been given this bound.
    pub used: std::collections::BTreeMap<String, u8>,
    /// Elements that failed their ORT or morale: no action this bound.
    pub halted: BTreeSet<String>,
    /// Elements that seized the initiative and may re-roll one die.
    pub rerolls: BTreeSet<String>,
    /// Elements that used a "4" to aim: their next shot this bound is aimed.
    #[serde(default)]
    pub aimed: BTreeSet<String>,
}

/// Where the flow stands.
#[derive(Resource, Debug, Clone, PartialEq, Default)]
pub enum Flow {
    /// Waiting for a battle.
    #[default]
    Idle,
    /// Arrivals and, every 4 bounds, the Senior Officers' session.
    StartBound,
    Deal,
    /// The next card comes up.
    NextCard,
    /// An element acts on its Order Die: its side gives commands.
    Acting(Turn),
    /// 2-player games: a player gives out his Command Dice.
    Commanding(Hotseat),
    /// A Player's NCO has Seized the Initiative: swap cards, or act as ordered.
    Seize {
        element: String,
    },
    /// A Player's Company Officer, his ORT passed, gives orders and rallies.
    CoTurn {
        side: usize,
        company: usize,
        /// Where the flow goes after a successor's duties, taken in his own
        /// element's turn: `None` for a CO's own card (discarded then).
        then: Option<Box<Flow>>,
    },
    /// A Player's Senior Officer's session: reserves and objectives.
    Session {
        side: usize,
    },
    EndBound,
    /// A campaign session's bounds are played ([`BattleStart::pause_every`]):
    /// the battle goes on with the campaign's continuation for it, or, with
    /// none given yet, waits for one (its result then says
    /// [`crate::setup::Decision::Paused`]).
    Paused,
    Over,
}

/// Helpers shared by the flow systems.
pub fn point(at: (f32, f32)) -> Point {
    Point(at.0, at.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use warbound_rules::geometry::{self, HazardKind};
    use warbound_rules::terrain::{Extent, Feature, Gap, Terrain};

    #[test]
    fn a_route_kept_is_the_one_measured_until_the_table_changes() {
        let wire = Feature::Wire(Extent::Line(vec![Point(10.0, 0.0), Point(10.0, 48.0)]));
        let mut terrain = Terrain { features: vec![wire], gaps: Vec::new() };
        let lines = SightLines::default();
        let (a, b) = (Point(5.0, 20.0), Point(15.0, 20.0));
        let first = lines.route(&terrain, a, b).expect("a route over the table");
        assert_eq!(*first, geometry::route(&terrain, &[a, b]).expect("measured"));
        assert!(first.hazards.iter().any(|h| h.kind == HazardKind::Wire), "{first:?}");
        // A gap blown where the route crosses: the apply step clears what was
        // measured, and the route is measured again, through the gap.
        terrain.gaps.push(Gap { feature: 0, at: Point(10.0, 20.0) });
        lines.clear();
        let gapped = lines.route(&terrain, a, b).expect("a route over the table");
        assert!(gapped.hazards.is_empty(), "{gapped:?}");
        // Standing on another table forgets it too.
        terrain.gaps.clear();
        lines.stand_on(&terrain, &[]);
        let wired = lines.route(&terrain, a, b).expect("a route over the table");
        assert_eq!(wired, first);
    }
}
