//! The one mutation path: what a rule step decided, as typed changes, and
//! the only code that writes battle state once a battle is set up.
//!
//! - An element: a step holds it as [`Held`] (from [`crate::sorted`]),
//!   reads every component, and changes one only by [`Held::apply`] of a
//!   [`Change`].
//! - The battle's table (deck, clock, charges, minefields, buildings,
//!   bridges, pontoons, landings, result): [`HeldBattle::apply`] of a
//!   [`BattleChange`].
//! - A side's command (Senior Officer, companies, FOOs, batteries,
//!   squadrons, Air Command): [`HeldSides::apply`] of a [`SideChange`].
//! - The flow's step (whose turn, what the acting element has done):
//!   [`HeldFlow::apply`] of a [`FlowChange`].
//!
//! Each is read through `Deref` and written nowhere else.
//!
//! Where a [`StateTally`] is in the world (the rules report puts one there),
//! every change that alters what it writes is credited to the rule event
//! logged last (see [`StateTally`]).

use std::{
    collections::BTreeMap,
    ops::Deref,
    sync::{Arc, Mutex, MutexGuard},
};

use bevy_ecs::{prelude::*, system::SystemParam};

use warbound_rules::{
    aircraft::Aircraft,
    boats::LandingPlan,
    buildings::{Bridge, BridgeType, Building},
    command::{MoraleCause, Objective},
    effects::VehicleState,
    engineers::Task,
    explosives::{Charge, ChargeKind},
    firing::Ranging,
    forces::{Figure, Shooter},
    mines::Minefield,
    momentum::{Accrued, CmCause},
    movement::{MoveClass, Mover},
    officer::Officer,
    opc::Deal,
    order_dice::{Act, ActivityCounter, Phase},
    strategic::{RadioNet, SeniorOfficerRecord},
    terrain::Point,
    terrain::{Feature, Gap, RiverBridge, Span},
};

use super::{
    setup::BattleResult,
    state::{
        Actions, AirCommand, Arrival, Battle, BridgeState, Concealment, ElementMut, ElementView, Fielded, Flow,
        FooState, Force, Intel, LastShot, Marks, Momentum, Order, PendingMove, Place, Presence, Roster, Sides, Status,
        Vehicle,
    },
};

/// One thing a rule step decided about an element.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// Men fall: figures first, then the crews from the last weapon
    /// (the rules' `Element::remove_men`); [`Held::apply`] returns how many fell.
    LoseMen(u32),
    /// Its first crewed weapon is knocked out and its crew with it;
    /// returns the crew lost (0 when no weapon was crewed).
    LoseWeapon,
    /// Its weapons lost, their crews fight on as riflemen without them.
    CrewsAsRiflemen,
    /// Its vehicle is in this state now.
    Vehicle(VehicleState),
    /// Its vehicle has run out of petrol.
    OutOfFuel,
    /// Its radio set off the Company's net (`Some`, with its re-netting Radio
    /// Tests) or back on it (`None`).
    OffNet(Option<RadioNet>),
    /// A Momentum Test Chart row it owes `n` tests for.
    Accrue(CmCause, u32),
    /// Its CM tests taken: its CMS now, and the tests carried forward.
    Tested { cms: u8, carried: Accrued },
    /// Its CMS after a rally.
    Cms(u8),
    /// A 2-player morale throw it owes `n` of.
    MoraleDue(MoraleCause, u32),
    /// Its morale throws taken.
    MoraleTaken,
    /// The partners whose loss (an attached AFV) or retirement (supporting
    /// infantry) it has accrued tests for, as they stand now.
    PartnersLost(Vec<String>),
    /// Its NCO is a casualty.
    NcoLost,
    /// A new NCO takes command of it.
    Nco(Officer),
    /// It fired this bound (a concealed element that fires is revealed by
    /// its own change, [`Change::Revealed`]; a sniper stays concealed).
    Fired,
    /// The enemy element that fired on it this bound.
    FiredOnBy(String),
    /// Its Fire phase: at whom, from where, the target where.
    Shot(LastShot),
    /// A round fired by this shooter of it, where rounds are counted.
    UseRound(Shooter),
    /// Its mortar ranging on the target it last fired at, and where that stood.
    Ranging(String, Ranging, Point),
    /// It throws its grenades on this game day (once a day).
    GrenadesUsed(u32),
    /// It moves to `to`; `moved` marks it as having moved this bound.
    Move { to: Point, moved: bool },
    /// It backs to `to`, its hull still pointing as it did (FYOB "Results of
    /// Momentum Tests": "AFV's may reverse so as to continue to show their
    /// frontal armour to the enemy").
    Reverse { to: Point },
    /// Its move this bound is a stealth move.
    Stealthy,
    /// Its immobile weapons are set up (`true`, this bound) or taken down.
    SetUp(bool),
    /// It goes into the water, or comes out of it.
    Wade,
    /// It gets into its river craft on the water (`true`), or out of them
    /// onto the bank.
    Afloat(bool),
    /// A guard turns about at the end of its bound's turn.
    TurnAbout,
    /// Its NCO took the Leadership Test to re-face it, a posted guard: it
    /// faces this way now (as before, where the test failed).
    ReFaced(warbound_rules::movement::Compass),
    /// It goes onto (or comes out of) Overwatch by a Command Die.
    Overwatch(bool),
    /// It has set one of the charges (or Bangalore Torpedoes) its men carry.
    ExplosiveUsed(ChargeKind),
    /// It gets into the transport with this place in the battle's order
    /// (`Some`), or out of it onto the table (`None`).
    Board(Option<u16>),
    /// The element its transport carries now (`None`: empty).
    Carrying(Option<String>),
    /// It is seen, or shows itself: out of concealment, its counters gone.
    Revealed,
    /// Its concealment counters as they stand now (FYOB "Placement options").
    Concealment(Concealment),
    /// A concealed element declared real at a counter, or found there: it stands there.
    StandsAt(Point),
    /// It has taken an observation test with an Act this bound.
    Observed,
    /// It arrives on the table at `at`.
    Arrive { at: Point },
    /// The first bound it may act in.
    EffectiveFrom(u32),
    /// Whether a dropped platoon is still without cohesion.
    WithoutCohesion(bool),
    /// It leaves the table for good, or for the box.
    Leave(Status),
    /// Committed from reserve, or re-committed from the box after its
    /// retirement (then at its side's edge): it moves on at the start of this
    /// bound.
    Waiting(u32),
    /// Its Activity Counter for the bound.
    Counter(Option<ActivityCounter>),
    /// The bound ends: this bound's marks become last bound's.
    EndBound,
    /// Its NCO's order.
    Objective(Objective),
    /// An order its Company Officer sent that waits for its runner (`None`:
    /// none waits).
    AwaitsRunner(Option<Objective>),
    /// Its NCO now knows of these enemy elements.
    Knows(Vec<String>),
    /// Its NCO has lost track of this enemy element, last seen at `at`.
    LostTrack { id: String, at: Point },
    /// Its NCO has seen that this enemy has vacated the place it was last seen at.
    Vacated(String),
}

/// Every element of the battle, as the flow's systems share it: held only
/// through [`AllElements::sorted`], so that [`Held::apply`] stays the one
/// writer.
#[derive(SystemParam)]
pub struct AllElements<'w, 's> {
    query: Query<'w, 's, Fielded>,
    tally: Option<Res<'w, StateTally>>,
}

impl<'w, 's> AllElements<'w, 's> {
    /// Every element, in scenario order, held to read and change.
    pub fn sorted(&mut self) -> Vec<Held<'_>> {
        let tally = self.tally.as_deref();
        let mut v: Vec<Held> = self.query.iter_mut().map(|item| Held { item: item.into(), tally }).collect();
        if !v.is_sorted_by_key(|f| f.identity.index) {
            v.sort_by_key(|f| f.identity.index);
        }
        debug_assert!(v.iter().enumerate().all(|(i, f)| usize::from(f.identity.index) == i), "indices in order");
        v
    }

    /// Every element, in scenario order, to read only.
    pub fn views(&self) -> Vec<ElementView<'_>> {
        let mut v: Vec<ElementView> = self.query.iter().map(|item| item.view()).collect();
        if !v.is_sorted_by_key(|f| f.identity.index) {
            v.sort_by_key(|f| f.identity.index);
        }
        v
    }

    /// Whether any element is as `pred` asks, read in no particular order.
    pub fn any(&self, pred: impl Fn(ElementView) -> bool) -> bool {
        self.query.iter().any(|item| pred(item.view()))
    }

    /// The element at `i` in scenario order, to read only.
    pub fn view_at(&self, roster: &Roster, i: usize) -> Option<ElementView<'_>> {
        self.query.get(roster.entity_at(i)?).ok().map(|item| item.view())
    }

    /// The element `id`, held alone to read and change.
    pub fn one(&mut self, roster: &Roster, id: &str) -> Option<Held<'_>> {
        self.at(roster, roster.index(id)?)
    }

    /// The element at `i` in scenario order, held alone to read and change.
    pub fn at(&mut self, roster: &Roster, i: usize) -> Option<Held<'_>> {
        let tally = self.tally.as_deref();
        let item = self.query.get_mut(roster.entity_at(i)?).ok()?;
        Some(Held { item: item.into(), tally })
    }
}

/// An element as a step holds it: every component read through
/// [`Deref`], changed only by [`Held::apply`].
pub struct Held<'a> {
    item: ElementMut<'a>,
    tally: Option<&'a StateTally>,
}

/// Every component of an element that a change may write, owned.
type Written = (Force, Place, Presence, Momentum, Actions, Concealment, Vehicle, Order, Intel);

impl Held<'_> {
    /// Writes what the rule decided; returns the men it cost the element
    /// ([`Change::LoseMen`], [`Change::LoseWeapon`]), 0 for every other change.
    pub fn apply(&mut self, change: Change) -> u32 {
        let Some(tally) = self.tally else { return self.write(change) };
        let kind = kind_of("Change", &change);
        let before = self.written();
        let men = self.write(change);
        if self.written() != before {
            tally.altered(kind);
        }
        men
    }

    fn written(&self) -> Written {
        let f = &self.item;
        (
            f.force.clone(),
            f.place.clone(),
            f.presence.clone(),
            f.momentum.clone(),
            f.actions.clone(),
            f.concealment.clone(),
            *f.vehicle,
            f.order.clone(),
            f.intel.clone(),
        )
    }

    fn write(&mut self, change: Change) -> u32 {
        let f = &mut self.item;
        match change {
            Change::LoseMen(n) => return f.force.element.remove_men(n),
            Change::LoseWeapon => {
                return f.force.element.pieces.iter_mut().find(|p| p.crew > 0).map_or(0, |p| {
                    let crew = u32::from(p.crew);
                    p.crew = 0;
                    crew
                });
            }
            Change::CrewsAsRiflemen => {
                let grade = f.force.element.troops();
                for p in std::mem::take(&mut f.force.element.pieces) {
                    for _ in 0..p.crew {
                        f.force.element.figures.push(Figure { grade, weapon: None, rounds: None });
                    }
                }
                // Men on foot now, whatever they served.
                if matches!(f.force.build, super::state::Build::Guns { .. }) {
                    f.force.build = super::state::Build::Infantry;
                    f.place.mover.class = MoveClass::Infantry;
                }
            }
            Change::Vehicle(state) => f.vehicle.state = Some(state),
            Change::OutOfFuel => f.vehicle.out_of_fuel = true,
            Change::Accrue(cause, n) => f.momentum.accrued.accrue(cause, n),
            Change::Tested { cms, carried } => {
                f.force.element.cms = cms;
                f.momentum.accrued = carried;
            }
            Change::Cms(cms) => f.force.element.cms = cms,
            Change::MoraleDue(cause, n) => match f.momentum.morale_due.iter_mut().find(|(c, _)| *c == cause) {
                Some((_, k)) => *k += n,
                None => f.momentum.morale_due.push((cause, n)),
            },
            Change::MoraleTaken => f.momentum.morale_due.clear(),
            Change::PartnersLost(ids) => f.momentum.partners_lost = ids,
            Change::OffNet(net) => f.force.off_net = net,
            Change::NcoLost => f.force.element.nco = None,
            Change::Nco(nco) => f.force.element.nco = Some(nco),
            Change::Fired => f.actions.this_bound.fired = true,
            Change::FiredOnBy(by) => {
                f.actions.this_bound.fired_on_by.insert(by);
            }
            Change::Shot(shot) => f.actions.last_shot = Some(shot),
            Change::UseRound(shooter) => {
                let rounds = match shooter {
                    Shooter::Figure(k) => f.force.element.figures.get_mut(k).map(|f| &mut f.rounds),
                    Shooter::Piece(p, a) => f.force.element.pieces.get_mut(p).and_then(|pc| pc.rounds.get_mut(a)),
                };
                if let Some(Some(n)) = rounds {
                    *n = n.saturating_sub(1);
                    f.actions.shots_used += 1;
                }
            }
            Change::Ranging(target, ranging, at) => {
                f.actions.ranging = Some((target, ranging));
                f.actions.ranging_at = Some(at);
            }
            Change::GrenadesUsed(day) => f.actions.grenades_day = Some(day),
            Change::Move { to, moved } => {
                if moved {
                    f.actions.this_bound.moved_inches += warbound_rules::geometry::distance(f.place.at, to).get();
                    let (dx, dy) = (to.0 - f.place.at.0, to.1 - f.place.at.1);
                    if dx.hypot(dy) > f32::EPSILON {
                        f.place.heading = Some(Point(dx, dy));
                    }
                }
                f.place.at = to;
                f.actions.this_bound.moved = moved;
            }
            Change::Reverse { to } => {
                f.actions.this_bound.moved_inches += warbound_rules::geometry::distance(f.place.at, to).get();
                f.place.at = to;
                f.actions.this_bound.moved = true;
            }
            Change::Stealthy => f.actions.this_bound.stealthy = true,
            Change::SetUp(up) => {
                f.actions.set_up = up;
                f.actions.this_bound.set_up |= up;
            }
            Change::Wade => f.place.mover.in_water = !f.place.mover.in_water,
            Change::TurnAbout => {
                if let Some(g) = f.order.guard.as_mut() {
                    g.turn_about();
                }
            }
            Change::ReFaced(facing) => {
                f.actions.this_bound.re_faced = true;
                if let Some(g) = f.order.guard.as_mut() {
                    g.facing = facing;
                }
            }
            Change::Afloat(afloat) => {
                if let Some(boats) = f.place.boats {
                    let class = if afloat { MoveClass::Raft } else { boats.ashore };
                    f.place.mover = Mover { class, drive: class.default_drive(), in_water: afloat, ..f.place.mover };
                }
            }
            Change::Overwatch(on) => f.order.overwatch = on,
            Change::ExplosiveUsed(kind) => {
                if let Some(k) = f.force.explosives.iter().position(|&c| c == kind) {
                    f.force.explosives.remove(k);
                }
            }
            Change::Board(transport) => {
                f.presence.status = transport.map_or(Status::OnTable, Status::Aboard);
            }
            Change::Carrying(passengers) => {
                f.force.element.role = warbound_rules::forces::Role::Transport { carrying: passengers };
            }
            Change::Revealed => *f.concealment = Concealment::default(),
            Change::Concealment(c) => *f.concealment = c,
            Change::StandsAt(at) => f.place.at = at,
            Change::Observed => f.actions.this_bound.observed = true,
            Change::Arrive { at } => {
                f.place.at = at;
                f.place.deployed.get_or_insert(at);
                f.presence.status = Status::OnTable;
                f.force.element.on_table = true;
            }
            Change::EffectiveFrom(bound) => f.presence.effective_from = bound,
            Change::WithoutCohesion(without) => f.presence.without_cohesion = without,
            Change::Leave(status) => {
                f.presence.status = status;
                f.force.element.on_table = false;
            }
            Change::Waiting(bound) => {
                if f.presence.status == Status::Retired {
                    f.presence.arrival = Arrival::Edge;
                }
                f.presence.status = Status::Waiting(bound);
            }
            Change::Counter(counter) => f.actions.counter = counter,
            Change::EndBound => {
                f.actions.last_bound = std::mem::take(&mut f.actions.this_bound);
                f.actions.counter = None;
                if !f.presence.status.in_play() {
                    f.actions.last_bound = Marks::default();
                }
            }
            Change::Objective(objective) => f.order.objective = objective,
            Change::AwaitsRunner(objective) => f.order.awaiting_runner = objective,
            Change::Knows(ids) => {
                for id in &ids {
                    f.intel.last_seen.remove(id);
                }
                f.intel.known.extend(ids);
            }
            Change::LostTrack { id, at } => {
                f.intel.known.remove(&id);
                f.intel.last_seen.insert(id, at);
            }
            Change::Vacated(id) => {
                f.intel.last_seen.remove(&id);
            }
        }
        0
    }
}

impl<'a> Deref for Held<'a> {
    type Target = ElementMut<'a>;

    fn deref(&self) -> &Self::Target {
        &self.item
    }
}

/// One thing a rule step decided about the battle's table.
#[derive(Debug, Clone, PartialEq)]
pub enum BattleChange {
    /// The OPC deck as the deal, a discard or a seized initiative leaves it;
    /// `None` once the bound's cards are done.
    Deck(Option<Deal>),
    /// The card acting now (this element's or officer's) is played: discarded.
    Discard(String),
    /// The next bound begins.
    NextBound,
    /// A campaign session's weather, from the next bound.
    Weather(warbound_rules::scenario::Weather),
    /// The battle is decided.
    Result(BattleResult),
    /// A demolition charge (by its place among the charges) as it stands now.
    Charge(usize, Charge),
    /// The enemy's engineers have found this charge.
    ChargeFound(usize),
    /// A side's engineers have set a charge on the table.
    ChargeLaid(super::state::Demolition),
    /// A figure has set a fire in a building.
    FireSet(super::state::FireSet),
    /// The fires set in an earlier bound have had their throw.
    FiresThrown,
    /// A Bangalore Torpedo has blown a gap in a line of wire or a wall.
    Gap(Gap),
    /// A minefield's clearing (by its place among the minefields) as it stands now.
    Minefield(usize, Minefield),
    /// A building's Defence Value and fire (by its place among the buildings) as they stand now.
    Building(usize, Building),
    /// A bridge's Defence Value (by its place among the bridges) as it stands now.
    Bridge(usize, Bridge),
    /// The score thrown towards mending a bridge's next point of damage.
    Mending(usize, warbound_rules::engineers::RoadRepair),
    /// A destroyed bridge is gone from its river.
    BridgeGone { river: usize, span: Span },
    /// A pontoon bridge is open across its river: a Type A bridge.
    BridgeOpened { river: usize, span: Span },
    /// A pontoon bridge's building, and a bridge-laying tank's work there (by
    /// its place among the pontoons), as they stand now.
    Pontoon(usize, Task, Task),
    /// A side's Landing Plan (by its place among the landings) as it is adjusted.
    LandingPlan(usize, LandingPlan),
    /// A landing craft lost on the approach, or turned back.
    CraftLost(usize, String),
    /// A smoke round hit: its smokeballs stand on the table.
    Smoke(super::state::Smoke),
    /// A smoke screen (by its place among those standing) has cleared.
    SmokeClears(usize),
}

/// The battle's table as the flow's systems share it: read through
/// `Deref`, written only by [`HeldBattle::apply`].
#[derive(SystemParam)]
pub struct HeldBattle<'w> {
    battle: ResMut<'w, Battle>,
    tally: Option<Res<'w, StateTally>>,
}

impl HeldBattle<'_> {
    /// Writes what the rule decided.
    pub fn apply(&mut self, change: BattleChange) {
        if let Some(tally) = &self.tally
            && change.alters(&self.battle)
        {
            tally.altered(kind_of("BattleChange", &change));
        }
        let b = &mut *self.battle;
        // The table's sight lines stand while the terrain, its buildings
        // and its smoke do.
        let table_stands = matches!(
            change,
            BattleChange::Deck(_)
                | BattleChange::NextBound
                | BattleChange::Discard(_)
                | BattleChange::Weather(_)
                | BattleChange::Result(_)
                | BattleChange::Charge(..)
                | BattleChange::ChargeFound(_)
                | BattleChange::Minefield(..)
                | BattleChange::Bridge(..)
                | BattleChange::Mending(..)
                | BattleChange::Pontoon(..)
                | BattleChange::LandingPlan(..)
                | BattleChange::CraftLost(..)
                | BattleChange::ChargeLaid(_)
                | BattleChange::FireSet(_)
                | BattleChange::FiresThrown
        );
        if !table_stands {
            b.sight_lines.clear();
        }
        match change {
            BattleChange::Deck(deck) => b.deck = deck,
            BattleChange::Discard(id) => {
                if let Some(deck) = b.deck.as_mut() {
                    deck.discard(&id).expect("a discard is applied to the card acting now");
                }
            }
            BattleChange::NextBound => b.clock.next_bound(),
            BattleChange::Weather(weather) => b.weather = weather,
            BattleChange::Result(result) => b.result = Some(result),
            BattleChange::Charge(k, charge) => b.charges[k].charge = charge,
            BattleChange::ChargeFound(k) => b.charges[k].found = true,
            BattleChange::Minefield(k, minefield) => b.minefields[k].1 = minefield,
            BattleChange::Building(k, building) => {
                b.buildings[k].1 = building;
                // A destroyed building stands as a ruin: no longer an intact
                // building for sight (*Heroes All*, "Buildings").
                let feature = b.buildings[k].0;
                if let Some(Feature::Building { ruined, .. }) = b.terrain.features.get_mut(feature) {
                    *ruined = building.is_ruin();
                }
            }
            BattleChange::Bridge(k, bridge) => b.bridges[k].bridge = bridge,
            BattleChange::Mending(k, repair) => b.bridges[k].repair = repair,
            BattleChange::BridgeGone { river, span } => {
                if let Some(Feature::River { bridges, .. }) = b.terrain.features.get_mut(river) {
                    bridges.retain(|r| r.span != span);
                }
            }
            BattleChange::BridgeOpened { river, span } => {
                if let Some(Feature::River { bridges, .. }) = b.terrain.features.get_mut(river) {
                    bridges.push(RiverBridge { kind: BridgeType::A, span });
                }
                b.bridges.push(BridgeState {
                    river,
                    span,
                    bridge: Bridge::new(BridgeType::A),
                    repair: Default::default(),
                });
            }
            BattleChange::Pontoon(k, task, laying) => {
                b.pontoons[k].task = task;
                b.pontoons[k].laying = laying;
            }
            BattleChange::LandingPlan(k, plan) => b.landings[k].plan = plan,
            BattleChange::CraftLost(k, craft) => b.landings[k].lost.push(craft),
            BattleChange::Smoke(smoke) => b.smoke.push(smoke),
            BattleChange::ChargeLaid(d) => b.charges.push(d),
            BattleChange::FireSet(f) => b.fires_set.push(f),
            BattleChange::FiresThrown => {
                let bound = b.clock.bound();
                b.fires_set.retain(|f| f.bound >= bound);
            }
            BattleChange::Gap(gap) => b.terrain.gaps.push(gap),
            BattleChange::SmokeClears(k) => {
                b.smoke.remove(k);
            }
        }
    }
}

impl BattleChange {
    /// Whether writing it would alter `b`.
    fn alters(&self, b: &Battle) -> bool {
        match self {
            BattleChange::Deck(deck) => b.deck != *deck,
            BattleChange::Weather(weather) => b.weather != *weather,
            BattleChange::Result(result) => b.result.as_ref() != Some(result),
            BattleChange::Charge(k, charge) => b.charges[*k].charge != *charge,
            BattleChange::ChargeFound(k) => !b.charges[*k].found,
            BattleChange::Minefield(k, minefield) => b.minefields[*k].1 != *minefield,
            BattleChange::Building(k, building) => b.buildings[*k].1 != *building,
            BattleChange::Bridge(k, bridge) => b.bridges[*k].bridge != *bridge,
            BattleChange::Mending(k, repair) => b.bridges[*k].repair != *repair,
            BattleChange::Pontoon(k, task, laying) => b.pontoons[*k].task != *task || b.pontoons[*k].laying != *laying,
            BattleChange::LandingPlan(k, plan) => b.landings[*k].plan != *plan,
            BattleChange::Discard(_)
            | BattleChange::NextBound
            | BattleChange::BridgeGone { .. }
            | BattleChange::BridgeOpened { .. }
            | BattleChange::CraftLost(..)
            | BattleChange::Smoke(_)
            | BattleChange::ChargeLaid(_)
            | BattleChange::FireSet(_)
            | BattleChange::FiresThrown
            | BattleChange::Gap(_)
            | BattleChange::SmokeClears(_) => true,
        }
    }
}

impl Deref for HeldBattle<'_> {
    type Target = Battle;

    fn deref(&self) -> &Battle {
        &self.battle
    }
}

/// One thing a rule step decided about a side's command.
#[derive(Debug, Clone, PartialEq)]
pub enum SideChange {
    /// Its Senior Officer's record after his tests.
    Record(SeniorOfficerRecord),
    /// Its Senior Officer orders a general withdrawal.
    GeneralWithdrawal,
    /// A company's new objective.
    CompanyObjective(usize, Objective),
    /// A company's Company Officer is a casualty.
    CoLost(usize),
    /// The NCO nominated to succeed a lost CO, as (element, his rating as
    /// the Company's officer); `None` when that successor is lost in turn.
    Successor(usize, Option<(String, Officer)>),
    /// The Senior Officer learns of these enemy elements.
    Knows(Vec<String>),
    /// A company's Company Officer learns of these enemy elements.
    CompanyKnows(usize, Vec<String>),
    /// A company's radio net as it stands now.
    Radio(usize, RadioNet),
    /// The Senior Officer's objective for a company, waiting for its CO's
    /// runner (`None`: none waits).
    FromSeniorOfficer(usize, Option<Objective>),
    /// A FOO as he stands now: his radio net, his Interdiction Fire plan,
    /// alive or lost with the element he was with.
    Foo(usize, FooState),
    /// An off-table battery's ranging: (target number, where it stands).
    BatteryRanging(usize, (u8, Ranging)),
    /// One aircraft of a squadron as it stands now: (squadron, machine).
    Machine(usize, usize, Aircraft),
    /// The bound a squadron called in arrives.
    SquadronArrives(usize, Option<u32>),
    /// The ground target a squadron has acquired.
    SquadronTarget(usize, String),
    /// The Air Command CO's score as it stands now.
    AirCommand(AirCommand),
}

/// Both sides' command as the flow's systems share it: read through
/// `Deref`, written only by [`HeldSides::apply`].
#[derive(SystemParam)]
pub struct HeldSides<'w> {
    sides: ResMut<'w, Sides>,
    tally: Option<Res<'w, StateTally>>,
}

impl HeldSides<'_> {
    /// Writes what the rule decided about side `s`.
    pub fn apply(&mut self, s: usize, change: SideChange) {
        let Some(tally) = self.tally.as_deref().cloned() else { return self.write(s, change) };
        let kind = kind_of("SideChange", &change);
        let before = self.sides.0[s].clone();
        self.write(s, change);
        if self.sides.0[s] != before {
            tally.altered(kind);
        }
    }

    fn write(&mut self, s: usize, change: SideChange) {
        let side = &mut self.sides.0[s];
        match change {
            SideChange::Record(record) => side.record = record,
            SideChange::GeneralWithdrawal => side.general_withdrawal = true,
            SideChange::CompanyObjective(c, objective) => side.companies[c].objective = Some(objective),
            SideChange::CoLost(c) => side.companies[c].co_alive = false,
            SideChange::Successor(c, None) => side.companies[c].successor = None,
            SideChange::Successor(c, Some((element, co))) => {
                let company = &mut side.companies[c];
                company.co = co;
                company.attached_to = element.clone();
                company.successor = Some(element);
            }
            SideChange::Knows(ids) => side.known.extend(ids),
            SideChange::CompanyKnows(c, ids) => side.companies[c].known.extend(ids),
            SideChange::Radio(c, net) => side.companies[c].radio = net,
            SideChange::FromSeniorOfficer(c, objective) => side.companies[c].from_senior_officer = objective,
            SideChange::Foo(k, now) => side.foos[k] = now,
            SideChange::BatteryRanging(k, ranging) => side.batteries[k].ranging = Some(ranging),
            SideChange::Machine(q, m, now) => side.squadrons[q].machines[m] = now,
            SideChange::SquadronArrives(q, bound) => side.squadrons[q].arrives = bound,
            SideChange::SquadronTarget(q, target) => side.squadrons[q].target = Some(target),
            SideChange::AirCommand(now) => side.air_command = Some(now),
        }
    }
}

impl Deref for HeldSides<'_> {
    type Target = Sides;

    fn deref(&self) -> &Sides {
        &self.sides
    }
}

/// One thing a step decided about where the flow stands.
#[derive(Debug, Clone, PartialEq)]
pub enum FlowChange {
    /// The flow moves on to this step.
    To(Flow),
    /// The acting element has taken this phase (once), with these Acts.
    PhaseTaken(Phase, Vec<Act>),
    /// A Player's move thrown and not yet made (`None`: made).
    PendingMove(Option<PendingMove>),
    /// The acting element moves "at the double" this turn.
    AtTheDouble,
}

/// Where the flow stands, as its systems share it: read through `Deref`,
/// written only by [`HeldFlow::apply`].
#[derive(SystemParam)]
pub struct HeldFlow<'w> {
    flow: ResMut<'w, Flow>,
    tally: Option<Res<'w, StateTally>>,
}

impl HeldFlow<'_> {
    /// Moves the flow as the step decided.
    pub fn apply(&mut self, change: FlowChange) {
        if let Some(tally) = &self.tally {
            // An element's turn given its orders, or a Player's turn to
            // decide, is what the rule before it decided; the rest is the
            // flow's own bookkeeping. Either way the step is over.
            if let FlowChange::To(
                to @ (Flow::Acting(_)
                | Flow::Seize { .. }
                | Flow::CoTurn { .. }
                | Flow::Session { .. }
                | Flow::Commanding(_)),
            ) = &change
                && *to != *self.flow
            {
                tally.altered(format!("FlowChange::To({})", variant(&format!("{to:?}"))));
            }
            tally.step_over();
        }
        match change {
            FlowChange::To(flow) => *self.flow = flow,
            FlowChange::PhaseTaken(phase, acts) => {
                if let Flow::Acting(turn) = &mut *self.flow {
                    // An Act phase already taken (to observe) takes an aim beside it.
                    if !turn.taken.contains(&phase) {
                        turn.taken.push(phase);
                    }
                    turn.acts.extend(acts);
                }
            }
            FlowChange::PendingMove(pending) => {
                if let Flow::Acting(turn) = &mut *self.flow {
                    turn.pending_move = pending;
                }
            }
            FlowChange::AtTheDouble => {
                if let Flow::Acting(turn) = &mut *self.flow {
                    turn.at_the_double = true;
                }
            }
        }
    }
}

impl Deref for HeldFlow<'_> {
    type Target = Flow;

    fn deref(&self) -> &Flow {
        &self.flow
    }
}

/// Which rule events changed the battle's state (for [`crate::report`]).
///
/// Put in the world as a resource and given to the [`crate::log::BattleLog`]
/// ([`crate::log::BattleLog::tally`]), it credits each typed change that
/// alters what it writes (an element, a side's command, the table) to the
/// rule event logged last, so long as the step that logged it is still
/// going: every step logs its rule's event and then applies what the rule
/// decided. A [`FlowChange`] ends the step (the flow moves on, a phase is
/// taken), and so does [`crate::log::BattleLog::step_done`] where a step
/// goes on to apply what no rule event records (a card's turn ends, officers
/// share what they know); changes applied after either and before the next
/// event are counted apart, credited to no event. Besides the table, the
/// flow moving into an element's turn with its orders (or to a Player's
/// decision) counts, as the effect of the ORT and Order Die logged before it.
#[derive(Resource, Debug, Clone, Default)]
pub struct StateTally(Arc<Mutex<Tally>>);

/// What a [`StateTally`] has counted.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    /// Each event logged since the tally was given to the log, in order:
    /// the changes credited to it, by kind (`Change::Move`).
    pub credited: Vec<Vec<String>>,
    /// Changes that altered the state with no event's step going, by kind.
    pub uncredited: BTreeMap<String, u32>,
    open: bool,
}

impl StateTally {
    fn lock(&self) -> MutexGuard<'_, Tally> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A rule event was logged: changes from now on are credited to it.
    pub(crate) fn event(&self) {
        let mut t = self.lock();
        t.credited.push(Vec::new());
        t.open = true;
    }

    /// The step that logged the last event is over.
    pub(crate) fn step_over(&self) {
        self.lock().open = false;
    }

    /// A change of this kind altered the state.
    fn altered(&self, kind: String) {
        let mut t = self.lock();
        if t.open {
            t.credited.last_mut().expect("an open step has an event").push(kind);
        } else {
            *t.uncredited.entry(kind).or_default() += 1;
        }
    }

    /// What has been counted so far.
    pub fn counted(&self) -> Tally {
        self.lock().clone()
    }
}

/// `Change::Move` for a `Change::Move { .. }`: the enum and its variant.
fn kind_of(of: &str, change: &impl std::fmt::Debug) -> String {
    format!("{of}::{}", variant(&format!("{change:?}")))
}

/// The variant's name at the head of a value's `Debug` text.
fn variant(debug: &str) -> &str {
    debug.split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap_or(debug)
}
