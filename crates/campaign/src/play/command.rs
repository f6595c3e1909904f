//! What a commander orders on the campaign map, checked against the rules
//! before any die is thrown: Map Board moves (FYOW 14), landings (14.13),
//! deploying (15.3), orders (10) and Fractions (3). The Auto commanders give
//! their orders through the same path, so a rule refused to one is refused
//! to the other, and a refused command changes nothing.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::army::battlegroup::{Battlegroup, BattlegroupKind};
use crate::army::commander::{Commander, CommanderRole, Traits, rate_commander};
use crate::army::fraction::Fraction;
use crate::army::orders::OrderKind;
use crate::map::board::{BoardId, Coast, Leg, MapBoard, RouteKind};
use crate::map::common::ForceKind;
use crate::map::detection::{ArrivingObserver, EnemyPosture, detect_on_arrival};
use crate::map::march::traffic_jam;
use crate::map::movement::{
    ContactRole, Landing, MoveAllowance, MoveAttempt, MovementCard, MovementState, landing_test, may_leave_contact,
    movement_test,
};
use crate::map::occupation::{ArrivingForce, Place};
use crate::paper::dunnigan::StrategicCondition;
use crate::play::state::{Campaign, CampaignError, Force, Jam, Whereabouts, fyow};
use crate::supply::logistics::{Action, Formation, SupplyLine, SupplyRecord};
use crate::weather::ChanceOutcome;
use warbound_rules::strategic::SeniorOfficerRecord;

/// An order given on the campaign map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Move a force one Map Board along a named route (FYOW 14.3).
    Move { force: String, to: BoardId, route: RouteKind },
    /// A Present force on the board deploys into defensive positions (FYOW 15.3).
    Deploy { force: String },
    /// New orders (FYOW 10): at the day's order phase they are simply given;
    /// later in the day the BC changes them by a Command Decision, and they
    /// stand from his next activation (10.6).
    Orders { force: String, order: OrderKind, objective: Option<BoardId> },
    /// Split a Fraction of the named elements off a battlegroup (FYOW 3.4).
    Fraction { force: String, name: String, elements: Vec<String> },
    /// Dissolve a Fraction back into its parent, once it is on the parent's
    /// Map Board, by the parent BC's Command Decision (FYOW 3.7).
    EndFraction { fraction: String },
    /// Merge the Fraction `with` into `fraction`, which leads the merged
    /// Fraction, once both stand on one Map Board, by their battlegroup's
    /// BC's Command Decision (FYOW 3.7 Merging Fractions).
    MergeFractions { fraction: String, with: String },
    /// Send some of a force's elements as a Picket to an adjacent Map Board (FYOW 3.8).
    Picket { force: String, name: String, elements: Vec<String>, to: BoardId },
    /// Call a Picket in the chain back into its battlegroup's roster (FYOW 3.8).
    CallIn { picket: String },
    /// Merge two battlegroups standing on one Map Board into the first, by
    /// their Senior Command (FYOW 2.7).
    Merge { senior: String, absorbed: String },
    /// Blow the railway line through the force's board with its demolition
    /// charges (FYOW 30.5).
    CutRailway { force: String },
    /// The questions the force's observers ask when they gather
    /// information (FYOW 17).
    Inquire { force: String, questions: Vec<crate::play::intelligence::Question> },
    /// Keep a vessel of the fleet in harbour, or let it sail again, from
    /// the next day's placing of vessels (FYOW 29.5).
    Harbour { vessel: String, hold: bool },
    /// Order a vessel's captain to keep out of any naval engagement on her
    /// station, waiting in her Box, or to fight again (FYOW 29.17).
    StandOff { vessel: String, stand_off: bool },
    /// Shift a force in its box to the box on an adjacent edge of its Map
    /// Board where a friendly force stands: no Movement Points or test, but
    /// the session (FYOW 13.7).
    ShiftBox { force: String, to: crate::map::common::Edge },
    /// Order a force's Elite or Enhanced infantry to CONCEAL on the boards
    /// it occupies, from the session after it arrives, or no longer to
    /// (FYOW 15.4).
    Conceal { force: String, conceal: bool },
    /// Send one of the army's squadrons carrying bombs to raid a Map Board
    /// every morning it may fly, or call its raids off (`None`) (FYOW 28.8).
    Raid { squadron: String, board: Option<BoardId> },
}

/// What a move led to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveResult {
    /// The Movement Test failed: the force stays.
    Stayed,
    /// Arrived in the box of an empty board, or one where no enemy was seen.
    Arrived,
    /// Arrived and detected the enemy on the board.
    Contact,
}

impl Campaign {
    /// Carries out a command, or refuses it with the rule it breaks and
    /// changes nothing.
    pub fn command(&mut self, command: Command) -> Result<(), CampaignError> {
        match command {
            Command::Move { force, to, route } => self.move_force(&force, &to, route).map(|_| ()),
            Command::Deploy { force } => self.deploy(&force),
            Command::Orders { force, order, objective } => self.give_orders(&force, order, objective).map(|_| ()),
            Command::Fraction { force, name, elements } => self.split_fraction(&force, &name, &elements),
            Command::EndFraction { fraction } => self.end_fraction(&fraction),
            Command::MergeFractions { fraction, with } => self.merge_fractions(&fraction, &with),
            Command::Picket { force, name, elements, to } => self.send_picket(&force, &name, &elements, &to),
            Command::CallIn { picket } => self.call_in(&picket),
            Command::Merge { senior, absorbed } => self.merge_by_command(&senior, &absorbed),
            Command::CutRailway { force } => self.cut_railway(&force),
            Command::Inquire { force, questions } => self.inquire(&force, questions),
            Command::Harbour { vessel, hold } => self.hold_in_harbour(&vessel, hold),
            Command::StandOff { vessel, stand_off } => self.stand_off(&vessel, stand_off),
            Command::Raid { squadron, board } => self.order_raid(&squadron, board),
            Command::ShiftBox { force, to } => self.shift_box(&force, to),
            Command::Conceal { force, conceal } => self.order_conceal(&force, conceal),
        }
    }

    pub(crate) fn live(&self, name: &str) -> Result<usize, CampaignError> {
        let i = self.fx(name).ok_or_else(|| CampaignError::new("2", format!("no force is called {name:?}")))?;
        if self.forces[i].is_gone() {
            return Err(CampaignError::new("2", format!("{name} is no longer in the campaign")));
        }
        Ok(i)
    }

    /// Checks a move without throwing: the force, its landing (24), the link, the winter
    /// gauge (26.6), its route and "V" (13.5, 14.4), the day's moves left (14.7), the board it would
    /// enter (13.7, 13.9) and the supply mode (20.6, 20.7.1). Returns the leg.
    pub fn check_move(&self, name: &str, to: &BoardId, route: RouteKind) -> Result<Leg, CampaignError> {
        let i = self.live(name)?;
        let f = &self.forces[i];
        let Some(from) = f.board() else {
            return Err(CampaignError::new("14.13", format!("{name} is afloat: it must land first")));
        };
        if self.in_battle(name) {
            return Err(CampaignError::new(
                "15.8",
                format!("{name} is engaged in a battle on {from}: it leaves only by retreating"),
            ));
        }
        if f.unloading.is_some() {
            return Err(CampaignError::new(
                "24",
                format!(
                    "{name} is still coming ashore at {from}: it moves on the session after its last wave is unloaded"
                ),
            ));
        }
        let leg = self.file.map.leg(from, to, route).map_err(|e| CampaignError::new("13.3", e.to_string()))?;
        if self.gauge_movement().is_none() {
            return Err(CampaignError::new("26.6", "the rain/snow gauge stands at 8 or more: all movement stops"));
        }
        let profile = f.mover().profile().map_err(|e| CampaignError::new("13.5", e.to_string()))?;
        if !matches!(route, RouteKind::MetalledRoad | RouteKind::SecondaryRoad) {
            return Err(CampaignError::new(
                "13.5",
                format!("{name} moves by road: a {} link needs trains or boats", route.name()),
            ));
        }
        if leg.v && profile.v_barred {
            return Err(CampaignError::new(
                "14.4",
                format!("{name} has vehicles that cannot traverse the \"V\" link {} – {}", leg.from, leg.to),
            ));
        }
        f.movement.allowance.check_move().map_err(|e| CampaignError::new("14.7", e.to_string()))?;
        if let Some(role) = self.contact_role(name) {
            let (may, _) = may_leave_contact(name, role);
            if !may {
                return Err(CampaignError::new(
                    "14.8",
                    format!("{name} is in contact with the enemy on {from} and may not move away ({role:?})"),
                ));
            }
        }
        f.supply.permits(Action::MoveMapBoard).map_err(|e| CampaignError::new("20.6", e.to_string()))?;
        if f.has_vehicles() {
            f.supply.permits(Action::MoveVehicles).map_err(|e| CampaignError::new("20.7.1", e.to_string()))?;
        }
        let board = self.file.map.board(to).map_err(|e| CampaignError::new("13", e.to_string()))?;
        let mut trial = self.occupation[to].clone();
        trial
            .arrive(board, self.file.max_points(), self.arriving(f, leg.arrival_edge))
            .map_err(|e| CampaignError::new("13.9", e.to_string()))?;
        Ok(leg)
    }

    /// FYOW 14.8: how a force stands in contact with the enemy on its board,
    /// if it does: arrived after an enemy there (had it detected them, been
    /// detected) or occupying (the arrivals all still in their boxes).
    /// Orders allow a withdrawal when they move the force without obliging
    /// it to enter against the enemy (Move, Reconnaissance, Support).
    fn contact_role(&self, name: &str) -> Option<ContactRole> {
        let f = self.force(name)?;
        let me = self.occupant(name)?;
        let board = f.board()?;
        let enemies: Vec<&crate::map::occupation::Occupant> =
            self.occupation[board].occupants.iter().filter(|o| o.side != f.side).collect();
        if enemies.is_empty() {
            return None;
        }
        let orders_allow_withdrawal =
            f.order.moves() && f.order.enemy_on_destination() != crate::army::orders::EnemyOnBoard::Enters;
        let earlier: Vec<_> = enemies.iter().filter(|o| o.arrived < me.arrived).collect();
        Some(if earlier.is_empty() {
            ContactRole::Occupying {
                enemy_stayed_in_box: enemies.iter().all(|o| matches!(o.place, Place::Box(_))),
                orders_allow_withdrawal,
            }
        } else {
            ContactRole::Arrived {
                enemy_detected: earlier.iter().all(|o| f.sighted.contains(&o.force)),
                itself_detected: enemies.iter().any(|o| self.force(&o.force).is_some_and(|e| e.sighted.contains(name))),
                orders_allow_withdrawal,
            }
        })
    }

    /// A force as it arrives on a board through `edge` this session.
    pub(crate) fn arriving(&self, f: &Force, edge: crate::map::common::Edge) -> ArrivingForce {
        ArrivingForce {
            force: f.name.clone(),
            side: f.side,
            kind: f.kind,
            points: f.points(),
            edge,
            session: self.stamp(),
        }
    }

    fn movement_card(&self) -> Option<MovementCard> {
        self.cards_today.iter().find_map(|c| match c {
            ChanceOutcome::MovementTestZeroCountsZero => Some(MovementCard::ZeroCountsAsZero),
            ChanceOutcome::MovementTestRerollOnes => Some(MovementCard::RerollOnes),
            _ => None,
        })
    }

    /// FYOW 14.5: the Movement Test, and on success the arrival in the box
    /// at the far end of the link (15.5) with its Detection Throw (16).
    pub(crate) fn move_force(
        &mut self,
        name: &str,
        to: &BoardId,
        route: RouteKind,
    ) -> Result<MoveResult, CampaignError> {
        let leg = self.check_move(name, to, route)?;
        let i = self.live(name)?;
        // 14.9: a friendly force on the board it leaves, or on the one it enters.
        let side = self.forces[i].side;
        let overtaking = crate::map::movement::Overtaking {
            leaving: self.forces_on(&leg.from, side).iter().any(|f| f.name != name),
            entering: self.forces_on(to, side).iter().any(|f| f.name != name),
        };
        if self.held_up(name, &leg.from, to, route)? {
            return Ok(MoveResult::Stayed);
        }
        if let Some(role) = self.contact_role(name) {
            let (_, e) = may_leave_contact(name, role);
            self.log(e);
        }
        let attempt = MoveAttempt {
            rationed: !self.forces[i].supply.keeps_movement_points(),
            gauge_modifier: self.gauge_movement().unwrap_or(0),
            overtaking,
            card: self.movement_card(),
            ..MoveAttempt::new(leg.clone(), self.conditions)
        };
        let mover = self.forces[i].mover();
        let mut state = self.forces[i].movement.clone();
        let (outcome, e) = movement_test(name, &mover, &mut state, &attempt, &mut self.dice)
            .map_err(|e| CampaignError::new("14.5", e.to_string()))?;
        self.log(e);
        self.forces[i].movement = state;
        if !outcome.moved {
            self.jams.push(Jam { side, from: leg.from.clone(), to: to.clone(), route, failed: name.to_owned() });
            return Ok(MoveResult::Stayed);
        }
        if let Some((_, e)) = self.forces[i].supply.fuel_after_map_move(&mut self.dice, name) {
            self.log_applied(e);
        }
        // 18: a force moving by its orders marches in its Order of March again.
        self.forces[i].disordered = None;
        self.relocate(name, &leg.from, to, leg.arrival_edge)?;
        Ok(self.after_arrival(name, to))
    }

    /// FYOW 18.1: a force setting out along a route on which a friendly
    /// force failed its Movement Test this session, and still stands, is
    /// behind it in the column. Its commander decides by a Command Decision
    /// (8.1) whether to overtake, with the -1 of 14.9; if not, it is held up
    /// and its session is spent. Returns whether it is held up.
    ///
    /// Reading (FYOW 18.1 "may be unable to move forward"): the column is
    /// the forces setting out along the same route from the same board in
    /// the same session, in the order they set out; those behind the one
    /// that failed are held up unless they overtake (test
    /// `a_force_behind_a_failed_move_on_its_route_overtakes_or_is_held_up`).
    fn held_up(&mut self, name: &str, from: &BoardId, to: &BoardId, route: RouteKind) -> Result<bool, CampaignError> {
        let i = self.live(name)?;
        let side = self.forces[i].side;
        let Some(jam) = self
            .jams
            .iter()
            .find(|j| j.side == side && &j.from == from && &j.to == to && j.route == route && j.failed != name)
            .filter(|j| self.force(&j.failed).is_some_and(|f| f.board() == Some(from)))
            .cloned()
        else {
            return Ok(false);
        };
        let overtakes =
            self.decision(name, &format!("overtake {} on the route to {to} (FYOW 18.1, 14.9)?", jam.failed), false);
        let column = [jam.failed.clone(), name.to_owned()];
        let overtaking = if overtakes { vec![name.to_owned()] } else { Vec::new() };
        let (held, e) =
            traffic_jam(&column, &jam.failed, &overtaking).map_err(|e| CampaignError::new("18.1", e.to_string()))?;
        if held.iter().any(|h| h == name) {
            self.forces[i].movement.allowance.spend_session().map_err(|e| CampaignError::new("14.1", e.to_string()))?;
            self.log_applied(e.input("route", route.name(), "").input("to", to, ""));
            return Ok(true);
        }
        self.log(e.input("route", route.name(), "").input("to", to, ""));
        Ok(false)
    }

    /// Takes a force off one board and puts it in the box of another.
    pub(crate) fn relocate(
        &mut self,
        name: &str,
        from: &BoardId,
        to: &BoardId,
        edge: crate::map::common::Edge,
    ) -> Result<(), CampaignError> {
        let i = self.live(name)?;
        let board = self.file.map.board(to).map_err(|e| CampaignError::new("13", e.to_string()))?.clone();
        let arriving = self.arriving(&self.forces[i], edge);
        let mut target = self.occupation[to].clone();
        let (_, e) = target
            .arrive(&board, self.file.max_points(), arriving)
            .map_err(|e| CampaignError::new("13.9", e.to_string()))?;
        if let Some(occ) = self.occupation.get_mut(from) {
            let _ = occ.leave(name);
        }
        self.lose_sight_of(name);
        self.occupation.insert(to.clone(), target);
        self.log(e);
        self.forces[i].at = Whereabouts::Board(to.clone());
        self.forces[i].sessions_here = 0;
        // 12.3: a battlegroup at Red that moves away has withdrawn.
        if self.forces[i].condition == StrategicCondition::Red {
            self.forces[i].withdrawn = true;
        }
        Ok(())
    }

    /// FYOW 15.5, 16: on arrival with no friendly force there, a Detection
    /// Throw against each enemy force on the board; with nobody to find, the
    /// force moves from its box onto the board (16.2).
    pub(crate) fn after_arrival(&mut self, name: &str, board: &BoardId) -> MoveResult {
        let Some(i) = self.fx(name) else { return MoveResult::Stayed };
        let side = self.forces[i].side;
        let enemies: Vec<(String, EnemyPosture)> = self.occupation[board]
            .occupants
            .iter()
            .filter(|o| o.side != side)
            .map(|o| (o.force.clone(), EnemyPosture::of(o.attitude.attitude(), o.entirely_concealed)))
            .collect();
        if enemies.is_empty() {
            if let Some(occ) = self.occupation.get_mut(board) {
                let _ = occ.enter_board(name);
            }
            return MoveResult::Arrived;
        }
        let friends: Vec<String> = self.occupation[board]
            .occupants
            .iter()
            .filter(|o| o.side == side && o.force != name)
            .map(|o| o.force.clone())
            .collect();
        if !friends.is_empty() {
            // Reading (FYOW 15.5): no throw where a friendly force is already
            // on the board; the arriving force shares what those forces have
            // detected there, and nothing more.
            let shared: Vec<String> =
                friends.iter().filter_map(|f| self.force(f)).flat_map(|f| f.sighted.iter().cloned()).collect();
            for enemy in shared {
                self.sight(name, &enemy);
            }
            return MoveResult::Contact;
        }
        let observer = if self.forces[i].recce_led() { ArrivingObserver::RecceLed } else { ArrivingObserver::Ordinary };
        let (sightings, e) = detect_on_arrival(name, observer, &self.conditions, &enemies, &mut self.dice);
        self.log(e);
        let mut any = false;
        for s in sightings.iter().filter(|s| s.detected) {
            any = true;
            self.sight(name, &s.force);
        }
        if any { MoveResult::Contact } else { MoveResult::Arrived }
    }

    /// FYOW 14.13: a battlegroup afloat comes ashore on its beach.
    pub(crate) fn land(&mut self, name: &str) -> Result<MoveResult, CampaignError> {
        let i = self.live(name)?;
        let Whereabouts::Afloat { sea, beach, .. } = self.forces[i].at.clone() else {
            return Err(CampaignError::new("14.13", format!("{name} is not afloat")));
        };
        let leg =
            self.file.map.leg(&sea, &beach, RouteKind::Sea).map_err(|e| CampaignError::new("13.8", e.to_string()))?;
        let board = self.file.map.board(&beach).map_err(|e| CampaignError::new("13", e.to_string()))?.clone();
        let mut trial = self.occupation[&beach].clone();
        if let Err(e) = trial.arrive(&board, self.file.max_points(), self.arriving(&self.forces[i], leg.arrival_edge)) {
            return Err(CampaignError::new("13.9", e.to_string()));
        }
        // A covert landing at a cove is a shore landing (14.13).
        let how = if board.coast == Some(Coast::NonBeach) { Landing::Shore } else { Landing::Beach };
        let (outcome, e) = landing_test(name, how, board.coast, &self.conditions, self.forces[i].elite, &mut self.dice)
            .map_err(|e| CampaignError::new("14.13", e.to_string()))?;
        self.log(e);
        if !outcome.moved {
            return Ok(MoveResult::Stayed);
        }
        self.arrive_from_off_the_map(i, &board, leg.arrival_edge)?;
        self.begin_unloading(i);
        if self.forces[i].at == Whereabouts::Gone {
            // Its boats were all swamped (29.16).
            return Ok(MoveResult::Stayed);
        }
        Ok(self.after_arrival(name, &beach))
    }

    /// Force `i`, afloat or airborne, arrives at `edge` of `board` (15.5),
    /// its landing or drop its move this session (14.13).
    pub(crate) fn arrive_from_off_the_map(
        &mut self,
        i: usize,
        board: &MapBoard,
        edge: crate::map::common::Edge,
    ) -> Result<(), CampaignError> {
        let arriving = self.arriving(&self.forces[i], edge);
        let (_, e) = self
            .occupation
            .get_mut(&board.id)
            .expect("every board has an occupation")
            .arrive(board, self.file.max_points(), arriving)
            .map_err(|e| CampaignError::new("13.9", e.to_string()))?;
        self.log(e);
        let name = self.forces[i].name.clone();
        self.lose_sight_of(&name);
        self.forces[i].at = Whereabouts::Board(board.id.clone());
        self.forces[i].sessions_here = 0;
        let max = self.forces[i].mover().profile().map_or(0, |p| p.max_per_day);
        let mut state = MovementState::new_day(max, None);
        let _ = state.allowance.spend_move();
        self.forces[i].movement = state;
        Ok(())
    }

    /// FYOW 13.7: force `name`, in its box, joins a friendly force in the
    /// box on an adjacent edge, the shift taking its session; refused before
    /// any change where 13.7 does not allow it.
    fn shift_box(&mut self, name: &str, to: crate::map::common::Edge) -> Result<(), CampaignError> {
        let i = self.live(name)?;
        let Some(board) = self.forces[i].board().cloned() else {
            return Err(CampaignError::new("14.13", format!("{name} is afloat: it must land first")));
        };
        if self.in_battle(name) {
            return Err(CampaignError::new("15.8", format!("{name} is engaged in a battle on {board}")));
        }
        let mut allowance = self.forces[i].movement.allowance.clone();
        let e = self
            .occupation
            .get_mut(&board)
            .expect("every board has an occupation")
            .shift_box(name, to, &mut allowance)
            .map_err(|e| CampaignError::new("13.7", e.to_string()))?;
        self.forces[i].movement.allowance = allowance;
        self.log_applied(e);
        Ok(())
    }

    fn deploy(&mut self, name: &str) -> Result<(), CampaignError> {
        let i = self.live(name)?;
        self.forces[i]
            .supply
            .permits(Action::DigInConcealRedeploy)
            .map_err(|e| CampaignError::new("20.6", e.to_string()))?;
        let mut allowance = self.forces[i].movement.allowance.clone();
        let occ =
            self.occupant_mut(name).ok_or_else(|| CampaignError::new("15.3", format!("{name} is not on a board")))?;
        if occ.place != Place::OnBoard {
            return Err(CampaignError::new("15.3", format!("{name} is in its box: it deploys on the board")));
        }
        let e = occ.attitude.deploy(name, &mut allowance).map_err(|e| CampaignError::new("15.3", e.to_string()))?;
        self.forces[i].movement.allowance = allowance;
        self.log(e);
        Ok(())
    }

    /// Gives a force new orders; returns whether they took effect now (a
    /// change made later in the day waits for the BC's next activation).
    pub(crate) fn give_orders(
        &mut self,
        name: &str,
        order: OrderKind,
        objective: Option<BoardId>,
    ) -> Result<bool, CampaignError> {
        let i = self.live(name)?;
        if let Some(o) = &objective {
            self.file.map.board(o).map_err(|e| CampaignError::new("10.2.1", e.to_string()))?;
        }
        if order.needs_order_of_march() && objective.is_none() {
            return Err(CampaignError::new("10.5", format!("{order:?} orders name the board to go to")));
        }
        if order == OrderKind::Rest && self.in_battle(name) {
            return Err(CampaignError::new("20.6", format!("{name} is engaged with the enemy and cannot Rest")));
        }
        let f = &self.forces[i];
        if f.order == order && f.objective == objective {
            return Ok(true);
        }
        let at_order_time = !self.ordered_today.contains(name);
        if !at_order_time {
            // 10.6: later in the day the BC changes his own orders by one
            // Command Decision; "New Orders will be available when he is next
            // activated".
            let commander = f.commander.name.clone();
            if self.commander_decision(i, &format!("change {name}'s orders to {order:?}"))?.success {
                self.log(
                    RuleEvent::new(EventKind::CommandDecision, fyow("10.6 Changing orders"))
                        .actor(&commander)
                        .target(name)
                        .input("from", self.forces[i].order, "")
                        .outcome(json!({ "order": order, "objective": objective, "from": "his next activation" })),
                );
                self.forces[i].pending_orders = Some((order, objective));
            }
            return Ok(false);
        }
        let e = RuleEvent::new(EventKind::CommandDecision, fyow("10 Orders"))
            .actor(name)
            .input("from", f.order, "")
            .input("to", order, "")
            .input("objective", &objective, "");
        self.log(e.outcome(json!({ "order": order, "objective": objective })));
        self.forces[i].order = order;
        self.forces[i].objective = objective;
        // The day's orders (10.2) replace any change still waiting.
        self.forces[i].pending_orders = None;
        Ok(true)
    }

    /// FYOW 3.4: the BC creates a Fraction by Command Decision, only while
    /// his battlegroup is Active for supply and the Fraction is no more than
    /// half its original value (2.2), a Fraction's Fraction (3.2) too.
    pub(crate) fn split_fraction(
        &mut self,
        name: &str,
        fraction: &str,
        elements: &[String],
    ) -> Result<(), CampaignError> {
        let i = self.live(name)?;
        let f = &self.forces[i];
        let from_fraction = f.kind == ForceKind::Fraction;
        if self.fx(fraction).is_some() {
            return Err(CampaignError::new("3", format!("a force called {fraction:?} already exists")));
        }
        if f.board().is_none() {
            return Err(CampaignError::new("3.4", format!("{name} is not on a Map Board")));
        }
        for e in elements {
            if !f.battlegroup.elements.iter().any(|x| &x.name == e) {
                return Err(CampaignError::new("3.4", format!("{name} has no element called {e:?}")));
            }
        }
        let points: u32 = f.battlegroup.elements.iter().filter(|e| elements.contains(&e.name)).map(|e| e.points).sum();
        // 2.2 limits "any Fraction created" to half "the total original value of
        // the Battlegroup", one a Fraction creates from itself (3.2) too.
        let bg = &self.forces[self.root_battlegroup(i)];
        if points * 2 > bg.battlegroup.original_points {
            return Err(CampaignError::new(
                "2.2",
                format!(
                    "a Fraction of {points} points is over half of {}'s original {}",
                    bg.name, bg.battlegroup.original_points
                ),
            ));
        }
        if points == f.points() {
            return Err(CampaignError::new("3.4", "a Fraction leaves part of the battlegroup behind"));
        }
        f.supply.permits(Action::CreateFraction).map_err(|e| CampaignError::new("3.4", e.to_string()))?;
        if self.in_battle(name) {
            return Err(CampaignError::new("3.4", format!("{name} is engaged in a battle")));
        }
        let commander = f.commander.name.clone();
        let decision = self.commander_decision(i, &format!("create the Fraction {fraction}"))?;
        if !decision.success {
            return Ok(());
        }
        let mut parent = self.forces[i].battlegroup.clone();
        // 3.3: "Fractions are commanded by the CO of the Company at its core", its largest element.
        let core = parent
            .elements
            .iter()
            .filter(|e| elements.contains(&e.name))
            .max_by_key(|e| e.points)
            .map_or(fraction.to_owned(), |e| e.name.clone());
        let co = format!("CO, {core}");
        let (frac, e) = if from_fraction {
            let mut whole = Fraction {
                name: name.to_owned(),
                battlegroup: self.forces[self.root_battlegroup(i)].name.clone(),
                parent: name.to_owned(),
                commander: commander.clone(),
                elements: parent.elements.clone(),
                stockpile: self.forces[i].supply.stockpile(),
                activated: true,
                at_rest: false,
                rationed: false,
            };
            let split = whole
                .split(fraction, &co, elements, &decision)
                .map_err(|e| CampaignError::new("3.2", e.to_string()))?;
            parent.elements = whole.elements;
            split
        } else {
            Fraction::create(&mut parent, fraction, &co, elements, &decision, None)
                .map_err(|e| CampaignError::new("3.4", e.to_string()))?
        };
        self.log(e);
        self.detach(i, fraction, ForceKind::Fraction, elements, parent, frac.commander.clone(), Some(frac))
    }

    /// A Fraction or a Picket detached from force `i`: the named `elements`
    /// out of its battlegroup (`parent` is what remains of it), under the
    /// commander `co`, rated as any new commander; it stands where its parent
    /// stands, with the moves left to it today and its parent's orders.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn detach(
        &mut self,
        i: usize,
        fraction: &str,
        kind: ForceKind,
        elements: &[String],
        parent: Battlegroup,
        co: String,
        first_activation: Option<Fraction>,
    ) -> Result<(), CampaignError> {
        let name = self.forces[i].name.clone();
        let board = self.forces[i]
            .board()
            .cloned()
            .ok_or_else(|| CampaignError::new("3", format!("{name} is not on a Map Board")))?;
        let detached: Vec<_> =
            self.forces[i].battlegroup.elements.iter().filter(|e| elements.contains(&e.name)).cloned().collect();
        let elite = self.forces[i].elite;
        let (competency, e) = rate_commander(CommanderRole::BattlegroupCommander, elite, &mut self.dice, &co);
        self.log(e);
        let (traits, e) = Traits::thrown(elite, &mut self.dice, &co);
        self.log(e);
        let side = self.forces[i].side;
        let milestones =
            SeniorOfficerRecord::new(detached.iter().map(|e| e.points).sum(), self.file.army(side).milestone_pct)
                .map_err(|e| CampaignError::new("2", e.to_string()))?;
        let bg =
            Battlegroup::new(fraction, BattlegroupKind::Line, &parent.brigade, &co, detached, self.file.max_points())
                .map_err(|e| CampaignError::new("3.4", e.to_string()))?;
        // Its Stockpile is found at its first activation (3.5).
        let supply = SupplyRecord::new(Formation::Fraction, 0).map_err(|e| CampaignError::new("3.5", e.to_string()))?;
        let parent_force = self.forces[i].clone();
        let allowance = MoveAllowance::for_new_fraction(
            &parent_force.movement.allowance,
            parent_force.mover().profile().map_or(0, |p| p.max_per_day),
        );
        let new = Force {
            name: fraction.to_owned(),
            kind,
            battlegroup: bg,
            kit: parent_force.kit.iter().filter(|k| elements.contains(&k.name)).cloned().collect(),
            supply,
            line: SupplyLine::new(&[]),
            partisan_effects: Vec::new(),
            movement: MovementState { allowance, retry: None },
            sessions_here: 0,
            unloading: None,
            convoy_due: false,
            losses: Default::default(),
            banked: 0,
            // Its damaged AFVs' crews go on repairing them (23.1).
            repairs: parent_force.repairs.iter().filter(|j| elements.contains(&j.vehicle)).cloned().collect(),
            parent: Some(parent_force.name.clone()),
            commander: Commander {
                name: co,
                role: CommanderRole::BattlegroupCommander,
                competency,
                traits: Some(traits),
            },
            traits,
            milestones,
            condition: StrategicCondition::Green,
            table_condition: StrategicCondition::Green,
            first_activation,
            withdrawn: false,
            pending_orders: None,
            // Its elements' orders of battle go with them.
            orbat: parent_force.orbat.iter().filter(|c| elements.contains(&c.element)).cloned().collect(),
            improved_after_battles: 0,
            disordered: None,
            questions: None,
            conceal: false,
            // What the parent has detected on its board, its Fraction knows too.
            ..parent_force
        };
        self.forces[i].battlegroup = parent;
        self.forces[i].repairs.retain(|j| !elements.contains(&j.vehicle));
        self.sync_points(&name);
        let arrived = self.stamp();
        let occ = self.occupation.get_mut(&board).expect("every board has an occupation");
        let parent_place = occ.occupant(&name).map(|o| (o.place, o.arrival_edge, o.attitude.clone())).ok();
        if let Some((place, edge, attitude)) = parent_place {
            occ.occupants.push(crate::map::occupation::Occupant {
                force: new.name.clone(),
                side: new.side,
                kind,
                points: new.points(),
                arrival_edge: edge,
                place,
                attitude,
                arrived,
                concealed_elements: Vec::new(),
                entirely_concealed: false,
                concealment_thrown: false,
                emplaced_coastal_gun: false,
            });
        }
        self.forces.push(new);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::orders::OrderKind;
    use crate::map::common::Side;
    use crate::play::file::CampaignFile;
    use crate::play::file::tests::SMALL;

    fn campaign() -> Campaign {
        Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), 7).unwrap()
    }

    fn ashore(c: &mut Campaign, name: &str) {
        let i = c.fx(name).unwrap();
        c.relocate_for_test(i, "Beach");
    }

    impl Campaign {
        fn relocate_for_test(&mut self, i: usize, board: &str) {
            let to = BoardId::new(board);
            let f = self.forces[i].clone();
            let arriving = self.arriving(&f, crate::map::common::Edge::West);
            let b = self.file.map.board(&to).unwrap().clone();
            self.occupation.get_mut(&to).unwrap().arrive(&b, 1500, arriving).unwrap();
            self.occupation.get_mut(&to).unwrap().enter_board(&f.name).unwrap();
            self.forces[i].at = Whereabouts::Board(to);
            self.forces[i].movement = MovementState::new_day(3, None);
        }
    }

    #[test]
    fn a_bc_changes_his_own_orders_by_one_decision_from_his_next_activation() {
        // 10.6 "To change orders, the BC must use the Command Decision Process.
        // New Orders will be available when he is next activated."
        let (mut changed, mut refused) = (0, 0);
        for seed in 0..20 {
            let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), seed).unwrap();
            ashore(&mut c, "Blue 1");
            c.ordered_today.insert("Blue 1".into());
            c.drain_events();
            let now = c.give_orders("Blue 1", OrderKind::Defend, None).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(!now, "seed {seed}: not before his next activation");
            let events = c.drain_events();
            let decisions: Vec<_> = events.iter().filter(|e| e.rule.section.starts_with("8.1")).collect();
            assert_eq!(decisions.len(), 1, "seed {seed}: one Command Decision");
            assert_eq!(decisions[0].actor.as_deref(), Some("Major One"), "seed {seed}: the BC's own");
            assert!(!events.iter().any(|e| e.rule.section.starts_with("9.1")), "seed {seed}: no request");
            assert!(c.senior_commands.iter().all(|sc| sc.requests.is_empty()), "seed {seed}");
            assert_eq!(c.force("Blue 1").unwrap().order, OrderKind::MoveToContact, "seed {seed}");
            let success = decisions[0].outcome["success"] == true;
            c.activate("Blue 1");
            let f = c.force("Blue 1").unwrap();
            if success {
                changed += 1;
                assert_eq!((f.order, f.objective.clone()), (OrderKind::Defend, None), "seed {seed}");
            } else {
                refused += 1;
                assert_eq!(f.order, OrderKind::MoveToContact, "seed {seed}");
            }
        }
        assert!(changed > 0 && refused > 0, "{changed} changed, {refused} refused");
    }

    #[test]
    fn a_v_link_is_refused_to_vehicles_and_nothing_changes() {
        let mut c = campaign();
        ashore(&mut c, "Blue 2");
        let before = c.summary();
        let thrown = c.dice.thrown();
        let e = c.command(Command::Move {
            force: "Blue 2".into(),
            to: BoardId::new("Hill"),
            route: RouteKind::SecondaryRoad,
        });
        let e = e.unwrap_err();
        assert_eq!(e.section, "14.4", "{e}");
        assert!(e.to_string().contains("\"V\""), "{e}");
        assert_eq!(c.summary(), before);
        assert_eq!(c.dice.thrown(), thrown, "no die thrown");
    }

    #[test]
    fn a_fraction_over_half_the_parent_is_refused_before_any_throw() {
        let mut c = campaign();
        ashore(&mut c, "Blue 2");
        let thrown = c.dice.thrown();
        let e = c
            .command(Command::Fraction {
                force: "Blue 2".into(),
                name: "Tank troop".into(),
                elements: vec!["Tanks".into(), "Field battery".into()],
            })
            .unwrap_err();
        assert_eq!(e.section, "2.2", "{e}");
        assert_eq!(c.dice.thrown(), thrown);
        assert_eq!(c.forces.len(), 4);
    }

    #[test]
    fn a_fraction_within_half_splits_off_on_a_good_decision() {
        // Try seeds until the BC's Command Decision succeeds (D10 under 9 or 10).
        for seed in 0..20 {
            let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), seed).unwrap();
            ashore(&mut c, "Blue 2");
            c.command(Command::Fraction {
                force: "Blue 2".into(),
                name: "Tank troop".into(),
                elements: vec!["Tanks".into()],
            })
            .unwrap();
            if let Some(f) = c.force("Tank troop") {
                assert_eq!(f.kind, ForceKind::Fraction);
                assert_eq!(f.points(), 450);
                assert_eq!(c.force("Blue 2").unwrap().points(), 600);
                assert!(f.supply.stockpile() <= 5);
                c.check_invariants().unwrap();
                return;
            }
        }
        panic!("no seed gave a successful decision");
    }

    #[test]
    fn a_fraction_splits_from_a_fraction_under_its_own_co_and_throws_on_first_activation() {
        // 3.2 "A Fraction can create another Fraction from itself"; 3.3 "Fractions
        // are commanded by the CO of the Company at its core"; 3.5 "The initial
        // Stockpile of the Fraction is ... Parent Stockpile x 1/4 (result rounded
        // up)" and "The Fraction must throw 3D6 ... On the first activation only".
        // 2.2 "the points value of any Fraction created cannot exceed 1/2 of the
        // total original value of the Battlegroup".
        for seed in 0..20 {
            let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), seed).unwrap();
            ashore(&mut c, "Blue 1");
            // Blue 1 (900) stands as a Fraction of Blue 2, whose original value is 1050.
            let i = c.fx("Blue 1").unwrap();
            c.forces[i].kind = ForceKind::Fraction;
            c.forces[i].parent = Some("Blue 2".into());
            let parent_cmt = c.forces[i].milestones.original_cmt();
            let thrown = c.dice.thrown();
            let e = c
                .command(Command::Fraction {
                    force: "Blue 1".into(),
                    name: "Rifles".into(),
                    elements: vec!["A Company".into(), "Carriers".into()],
                })
                .unwrap_err();
            assert_eq!(e.section, "2.2", "550 is over half of Blue 2's 1050: {e}");
            assert_eq!(c.dice.thrown(), thrown, "refused before any throw");
            assert!(c.force("Rifles").is_none());
            c.command(Command::Fraction {
                force: "Blue 1".into(),
                name: "Rifles".into(),
                elements: vec!["B Company".into(), "Carriers".into()],
            })
            .unwrap();
            let Some(f) = c.force("Rifles") else { continue };
            assert_eq!(f.points(), 500, "over half of Blue 1's 900, within half of the battlegroup's 1050");
            assert_eq!(f.commander.name, "CO, B Company");
            assert_eq!(f.parent.as_deref(), Some("Blue 1"));
            assert_eq!(f.milestones.original_cmt(), 500, "its own milestone record, not the parent's {parent_cmt}");
            assert!(f.first_activation.is_some());
            let parent_stockpile = c.force("Blue 1").unwrap().supply.stockpile();
            c.drain_events();
            c.activate("Rifles");
            let events = c.drain_events();
            let first = events.iter().find(|e| e.rule.section.starts_with("3.5")).expect("the first activation");
            assert_eq!(first.dice.len(), 3, "3D6");
            let f = c.force("Rifles").unwrap();
            assert!(f.first_activation.is_none());
            let surplus = first.outcome["supply_today"].as_u64().unwrap().saturating_sub(10) as u32;
            assert!(
                f.supply.stockpile() <= parent_stockpile.div_ceil(4).min(5),
                "no surplus over 10 goes in ({surplus})"
            );
            c.activate("Rifles");
            assert!(
                !c.drain_events().iter().any(|e| e.rule.section.starts_with("3.5")),
                "on the first activation only"
            );
            c.check_invariants().unwrap();
            return;
        }
        panic!("no seed gave a successful decision");
    }

    #[test]
    fn a_force_in_contact_moves_away_only_as_14_8_allows() {
        // 14.8 "Any Battlegroup or Fraction that moves into contact with an enemy
        // ... cannot move again unless; (i) the occupying enemy is detected ... and
        // (ii) the advancing Battlegroup has orders permitting it to withdraw
        // without engaging"; 16.1 "It may retire ... if it is not detected
        // itself"; the occupiers "may only move away when an enemy ... arrives in
        // the box ... [and] does not advance onto the Map Board".
        let mut c = campaign();
        let _ = c.date.advance();
        c.relocate("Blue 1", &BoardId::new("Sea"), &BoardId::new("Village"), crate::map::common::Edge::West).unwrap();
        let i = c.fx("Blue 1").unwrap();
        c.forces[i].movement = MovementState::new_day(3, None);
        c.forces[i].order = OrderKind::Move;
        let back = |c: &Campaign| c.check_move("Blue 1", &BoardId::new("Beach"), RouteKind::MetalledRoad);
        assert_eq!(back(&c).unwrap_err().section, "14.8", "the occupiers not detected");
        c.sight("Blue 1", "Red 1");
        back(&c).unwrap();
        c.forces[i].order = OrderKind::MoveToContact;
        assert_eq!(back(&c).unwrap_err().section, "14.8", "orders to engage");
        c.forces[i].order = OrderKind::Move;
        c.sight("Red 1", "Blue 1");
        assert_eq!(back(&c).unwrap_err().section, "14.8", "detected itself");

        let r = c.fx("Red 1").unwrap();
        c.forces[r].movement = MovementState::new_day(3, None);
        c.forces[r].order = OrderKind::Move;
        c.forces[r].objective = Some(BoardId::new("Town"));
        let away = |c: &Campaign| c.check_move("Red 1", &BoardId::new("Town"), RouteKind::MetalledRoad);
        away(&c).unwrap();
        c.occupation.get_mut(&BoardId::new("Village")).unwrap().enter_board("Blue 1").unwrap();
        assert_eq!(away(&c).unwrap_err().section, "14.8", "the enemy came onto the board");
    }

    #[test]
    fn overtaking_costs_a_point_leaving_a_friendly_board_too() {
        // 14.9 "the overtaking Battlegroup suffers a -1 modifier ... when it
        // enters and leaves the Map Board already occupied by a friendly force".
        let mut c = campaign();
        let b = c.fx("Blue 2").unwrap();
        c.forces[b].battlegroup.elements.retain(|e| e.name == "C Company");
        ashore(&mut c, "Blue 1");
        ashore(&mut c, "Blue 2");
        c.drain_events();
        c.command(Command::Move { force: "Blue 2".into(), to: BoardId::new("Hill"), route: RouteKind::SecondaryRoad })
            .unwrap();
        let test = c.drain_events().into_iter().find(|e| e.rule.section.starts_with("14.5")).expect("a Movement Test");
        assert!(test.inputs.iter().any(|i| i.name == "overtaking_leaving" && i.value == -1), "{test:?}");
        assert!(!test.inputs.iter().any(|i| i.name == "overtaking_entering"));
    }

    #[test]
    fn a_force_behind_a_failed_move_on_its_route_overtakes_or_is_held_up() {
        // 18.1 "If a unit fails to move following a failed Movement Test, any
        // units behind it may be unable to move forward owing to the 'traffic
        // jam'"; "one may overtake the other. However, the overtaking
        // Battlegroup suffers a -1 modifier".
        let (mut held, mut overtook) = (0, 0);
        let hill = BoardId::new("Hill");
        for seed in 0..30 {
            let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), seed).unwrap();
            let b = c.fx("Blue 2").unwrap();
            c.forces[b].battlegroup.elements.retain(|e| e.name == "C Company");
            ashore(&mut c, "Blue 1");
            ashore(&mut c, "Blue 2");
            c.jams.push(Jam {
                side: Side::Blue,
                from: BoardId::new("Beach"),
                to: hill.clone(),
                route: RouteKind::SecondaryRoad,
                failed: "Blue 1".into(),
            });
            c.drain_events();
            let moved =
                c.command(Command::Move { force: "Blue 2".into(), to: hill.clone(), route: RouteKind::SecondaryRoad });
            let events = c.drain_events();
            let jam = events.iter().find(|e| e.rule.section == "18.1 Traffic Jam Rule").expect("the column is jammed");
            let decided = events.iter().any(|e| e.rule.section.starts_with("8.1"));
            assert!(decided, "seed {seed}: the BC decides whether to overtake");
            let test = events.iter().find(|e| e.rule.section.starts_with("14.5"));
            if jam.outcome["held_up"].as_array().unwrap().is_empty() {
                overtook += 1;
                let test = test.expect("the overtaker takes its Movement Test");
                assert!(test.inputs.iter().any(|i| i.name == "overtaking_leaving" && i.value == -1), "seed {seed}");
                moved.unwrap();
            } else {
                held += 1;
                assert!(test.is_none(), "seed {seed}: a force held up throws no Movement Test");
                assert_eq!(c.force("Blue 2").unwrap().board(), Some(&BoardId::new("Beach")));
                let again = c.check_move("Blue 2", &BoardId::new("Village"), RouteKind::MetalledRoad).unwrap_err();
                assert_eq!(again.section, "14.7", "seed {seed}: its session is spent: {again}");
            }
        }
        assert!(held > 0 && overtook > 0, "both happen in 30 seeds: held {held}, overtook {overtook}");
        // A force on another route is not in the column.
        let mut c = campaign();
        let b = c.fx("Blue 2").unwrap();
        c.forces[b].battlegroup.elements.retain(|e| e.name == "C Company");
        ashore(&mut c, "Blue 1");
        ashore(&mut c, "Blue 2");
        c.jams.push(Jam {
            side: Side::Blue,
            from: BoardId::new("Beach"),
            to: BoardId::new("Village"),
            route: RouteKind::MetalledRoad,
            failed: "Blue 1".into(),
        });
        c.drain_events();
        let _ = c.command(Command::Move { force: "Blue 2".into(), to: hill, route: RouteKind::SecondaryRoad });
        assert!(!c.drain_events().iter().any(|e| e.rule.section.starts_with("18.1")));
    }

    #[test]
    fn the_winter_gauge_at_eight_stops_all_movement() {
        // 26.6 "When the rain/snow gauge reaches 8 or more, all movement stops".
        let mut c = campaign();
        ashore(&mut c, "Blue 1");
        let (mut day, _) = crate::weather::throw_day(&mut c.dice, c.file.climate, 6, None, &[]).unwrap();
        let winter =
            |movement, stops, supply| crate::weather::GaugeEffect { movement, all_movement_stops: stops, supply };
        for spell in &mut day.spells {
            spell.travel = winter(0, true, -4);
        }
        c.today = Some(day.clone());
        let thrown = c.dice.thrown();
        let village = BoardId::new("Village");
        let e =
            c.command(Command::Move { force: "Blue 1".into(), to: village.clone(), route: RouteKind::MetalledRoad });
        let e = e.unwrap_err();
        assert_eq!(e.section, "26.6", "{e}");
        assert_eq!(c.dice.thrown(), thrown, "no Movement Test is thrown");
        assert_eq!(c.force("Blue 1").unwrap().board(), Some(&BoardId::new("Beach")));

        // At 7 the force still throws, 3 down.
        for spell in &mut day.spells {
            spell.travel = winter(-3, false, -2);
        }
        c.today = Some(day);
        c.drain_events();
        c.command(Command::Move { force: "Blue 1".into(), to: village, route: RouteKind::MetalledRoad }).unwrap();
        let test = c.drain_events().into_iter().find(|e| e.rule.section.starts_with("14.5")).expect("a Movement Test");
        assert!(test.inputs.iter().any(|i| i.name == "rain_snow_gauge" && i.value == -3), "{test:?}");
    }

    #[test]
    fn a_fourth_move_in_a_day_is_refused() {
        let mut c = campaign();
        ashore(&mut c, "Blue 1");
        let i = c.fx("Blue 1").unwrap();
        // Infantry may move 3 boards a day (FYOW 14.11): spend them.
        let max = c.forces[i].mover().profile().unwrap().max_per_day;
        c.forces[i].movement = MovementState::new_day(max, None);
        for _ in 0..max {
            c.forces[i].movement.allowance.spend_move().unwrap();
            c.forces[i].movement.allowance.new_session();
        }
        let e = c
            .command(Command::Move {
                force: "Blue 1".into(),
                to: BoardId::new("Village"),
                route: RouteKind::MetalledRoad,
            })
            .unwrap_err();
        assert_eq!(e.section, "14.7", "{e}");
        assert!(e.message.contains("no Map Board moves left today"), "{e}");
    }

    #[test]
    fn a_force_in_its_box_shifts_to_a_friends_box_on_an_adjacent_edge() {
        use crate::map::common::Edge;
        let mut c = crate::play::testing::campaign();
        let (sea, town) = (BoardId::new("Sea"), BoardId::new("Town"));
        // Room on the board for both battlegroups (13.9).
        c.file.max_points = Some(3000);
        c.relocate("Blue 1", &sea, &town, Edge::West).unwrap();
        c.relocate("Blue 2", &sea, &town, Edge::North).unwrap();
        c.drain_events();
        let shift = |to: Edge| Command::ShiftBox { force: "Blue 2".into(), to };
        // Across the table, or where no friend stands: refused, nothing changed.
        for to in [Edge::South, Edge::East] {
            let e = c.command(shift(to)).unwrap_err();
            assert_eq!(e.section, "13.7", "{to:?}: {e}");
            assert_eq!(c.occupant("Blue 2").unwrap().place, Place::Box(Edge::North));
        }
        let moves = c.force("Blue 2").unwrap().movement.allowance.remaining();
        c.command(shift(Edge::West)).unwrap();
        assert_eq!(c.occupant("Blue 2").unwrap().place, Place::Box(Edge::West));
        let f = c.force("Blue 2").unwrap();
        assert_eq!(f.movement.allowance.remaining(), moves, "no Movement Points, no move of the day used");
        assert!(f.movement.allowance.check_move().is_err(), "but the shift takes the session");
        let events = c.drain_events();
        let e = events.iter().find(|e| e.rule.section == "13.7 The box").expect("the shift is logged");
        assert_eq!(e.outcome["movement_points"], 0);
        // Nobody is left in the north box to join.
        let e = c.command(Command::ShiftBox { force: "Blue 2".into(), to: Edge::North }).unwrap_err();
        assert_eq!(e.section, "13.7");
    }
}
