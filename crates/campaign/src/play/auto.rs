//! The Auto commanders. Each week a General gives each of his Senior
//! Commands its objective (FYOW 10.1); each day a Senior Command lays out
//! two or three options for each of its battlegroups, most sensible in the
//! middle, and the Variable Order Rule chooses among them with the weights
//! for the Senior Commander's competency (FYOW 11), moved a face by his
//! traits (8.4–8.5). Each session a battlegroup activated on its BPC carries
//! its orders out (FYOW 10.5) through the same commands a player gives; a
//! Senior Command activated on its BPC answers its BCs' requests (6.3, 9.1).

use serde_json::json;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::army::command::{Request, clerk_throw};
use crate::army::commander::{Aggression, Competency, Decisiveness, Traits, variable_order, vor_weights};
use crate::army::game_flow::{Deck, DiaryCard, deal};
use crate::army::orders::OrderKind;
use crate::map::attitude::{Attitude, Reorganiser};
use crate::map::board::BoardId;
use crate::map::common::{ForceKind, Side};
use crate::map::detection::{OccupierPosture, Quarry, bearing, detect_from_occupation};
use crate::map::occupation::Place;
use crate::paper::dunnigan::StrategicCondition;
use crate::play::command::MoveResult;
use crate::play::file::Stance;
use crate::play::state::{Campaign, Whereabouts, fyow};
use crate::supply::logistics::{DayOrders, Formation, Mode, SupplyRecord};

/// One option laid out for the VOR: an order, where to, and its words.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OrderOption {
    pub(crate) order: OrderKind,
    objective: Option<BoardId>,
    words: String,
}

fn option(order: OrderKind, objective: Option<&BoardId>) -> OrderOption {
    let words = match objective {
        Some(b) => format!("{order:?} to {b}"),
        None => format!("{order:?} where it stands"),
    };
    OrderOption { order, objective: objective.cloned(), words }
}

/// FYOW 11's weights for the options laid out cautious, sensible, bold
/// (three) or sensible, cautious (two), moved by the commander's traits.
///
/// Reading (FYOW 8.5, 11): the VOR "weightings can be adjusted to reflect
/// the commander's character". One face moves for each trait that is not
/// Balanced: an Aggressive commander's from the cautious option to the bold
/// one (Passive the other way); a Decisive commander's from the cautious
/// option to the sensible one (Hesitant the other way). No option falls below
/// nothing and the ten faces stay ten.
pub(crate) fn weights(competency: Competency, traits: Traits, options: usize) -> Vec<u8> {
    let mut w = vor_weights(competency, options).unwrap_or_else(|_| vec![10 / options as u8; options]);
    let shift = |w: &mut Vec<u8>, from: usize, to: usize| {
        if w[from] > 0 {
            w[from] -= 1;
            w[to] += 1;
        }
    };
    let (cautious, sensible, bold) = if options == 3 { (0, 1, Some(2)) } else { (1, 0, None) };
    match (traits.aggression, bold) {
        (Aggression::Aggressive, Some(b)) => shift(&mut w, cautious, b),
        (Aggression::Passive, Some(b)) => shift(&mut w, b, cautious),
        (Aggression::Aggressive, None) => shift(&mut w, cautious, sensible),
        (Aggression::Passive, None) => shift(&mut w, sensible, cautious),
        (Aggression::Balanced, _) => {}
    }
    match traits.decisiveness {
        Decisiveness::Decisive => shift(&mut w, cautious, sensible),
        Decisiveness::Hesitant => shift(&mut w, sensible, cautious),
        Decisiveness::Balanced => {}
    }
    w
}

/// The end of a Diary Box card's words for a Senior Command's new objective (FYOW 5.2).
const NEW_OBJECTIVE: &str = " (the week's objective)";
const TAKE: &str = "take ";

/// A week's objective as the General's options and the Diary Box read it.
fn objective_words(objective: &Option<BoardId>) -> String {
    objective.as_ref().map_or("hold what it has".to_owned(), |b| format!("{TAKE}{b}"))
}

impl Campaign {
    /// The objective of `side`'s army nearest to `from` by road that the army does not hold.
    fn next_objective(&self, side: Side, from: &BoardId, v_barred: bool) -> Option<BoardId> {
        self.army(side)
            .objectives
            .iter()
            .filter(|b| self.held.get(*b) != Some(&side))
            .filter_map(|b| self.road_route(from, b, v_barred).map(|r| (r.len(), b.clone())))
            .min()
            .map(|(_, b)| b)
    }

    /// The nearest board where this army knows of an enemy force.
    fn nearest_known_enemy(&self, side: Side, from: &BoardId, v_barred: bool) -> Option<BoardId> {
        self.army(side)
            .known
            .iter()
            .filter(|(force, (board, _))| self.force(force).is_some_and(|f| f.board() == Some(board)))
            .filter_map(|(_, (b, _))| self.road_route(from, b, v_barred).map(|r| (r.len(), b.clone())))
            .min()
            .map(|(_, b)| b)
    }

    /// The options a Senior Command lays out for a force today, toward the
    /// objective its General gave the Brigade this week (10.1) or, that one
    /// taken, the army's nearest objective not held.
    pub(crate) fn order_options(&self, i: usize, decider: Competency) -> Vec<OrderOption> {
        let f = &self.forces[i];
        let Some(here) = f.board().cloned() else {
            return vec![option(f.order, f.objective.as_ref())];
        };
        let v = f.mover().profile().is_ok_and(|p| p.v_barred);
        let army = self.army(f.side);
        let home = army
            .home
            .iter()
            .filter(|b| !self.is_sea(b))
            .find_map(|b| self.road_route(&here, b, v).map(|r| (r.len(), b.clone())));
        // FYOB: a battlegroup at Red withdraws; FYOW 20.5: short of supply it rests.
        if f.condition == StrategicCondition::Red {
            return match home {
                Some((n, b)) if n > 0 => vec![option(OrderKind::Move, Some(&b))],
                _ => vec![option(OrderKind::Rest, None)],
            };
        }
        let hungry = f.supply.mode == Mode::Rationed && f.supply.stockpile() == 0;
        let held_here = army.objectives.contains(&here) && self.held.get(&here) == Some(&f.side);
        let weekly = self.senior_command_of(&f.name).map(|k| self.senior_commands[k].objective.clone());
        let target = match weekly {
            // The General's "hold" for the week (10.1).
            Some(None) => None,
            Some(Some(o)) if self.held.get(&o) != Some(&f.side) => Some(o),
            _ => self.next_objective(f.side, &here, v),
        };
        let enemy = self.nearest_known_enemy(f.side, &here, v);
        let cautious = if hungry { option(OrderKind::Rest, None) } else { option(OrderKind::Defend, None) };
        // FYOW 3.8: a Picket is its BC's to command, not its Senior Command's.
        if f.kind == ForceKind::Picket {
            return vec![option(f.order, f.objective.as_ref())];
        }
        // FYOW 3: a Fraction left to garrison an objective its army holds keeps it.
        if f.kind == ForceKind::Fraction && held_here {
            return vec![cautious];
        }
        let mut options = match (army.stance, &target) {
            (Stance::Attack, Some(t)) => vec![
                cautious,
                option(OrderKind::MoveToContact, Some(t)),
                option(OrderKind::Engage, Some(enemy.as_ref().unwrap_or(t))),
            ],
            (Stance::Defend, Some(t)) if !held_here => vec![
                cautious,
                option(OrderKind::MoveToContact, Some(t)),
                option(OrderKind::Engage, Some(enemy.as_ref().unwrap_or(t))),
            ],
            _ => {
                let mut o = vec![option(OrderKind::StandBy, None), option(OrderKind::Defend, None)];
                if let Some(e) = enemy.filter(|e| self.road_route(&here, e, v).is_some_and(|r| r.len() == 1)) {
                    o.push(option(OrderKind::Engage, Some(&e)));
                }
                o
            }
        };
        if decider == Competency::BelowAverage && options.len() == 3 {
            // FYOW 11: a Below Average commander is offered two options: the sensible one and the cautious.
            options = vec![options[1].clone(), options[0].clone()];
        } else if options.len() == 2 {
            options.swap(0, 1);
        }
        options
    }

    /// FYOW 10.1, 11: in the order of the Weekly Order Cards each General
    /// sets out the week's options for each of his Senior Commands; once all
    /// are set out the dice are thrown and the decisions become orders.
    ///
    /// Reading (FYOW 10.1, 11): a General's options for a Brigade are the
    /// army's objectives it does not hold: the nearest to the Brigade (the
    /// sensible), the farthest (the over-bold) and holding what it has (the
    /// cautious); with one objective left, take it or hold; with none, hold
    /// (test `generals_set_each_brigade_its_objective_for_the_week`). After
    /// the first day, a new objective is taken up on the day its Diary Box
    /// card comes up (5.2).
    pub(crate) fn weekly_orders(&mut self) {
        let generals: Vec<String> = self.armies.iter().map(|a| a.general.name.clone()).collect();
        let order = match deal(Deck::WeeklyOrder, &generals, &mut self.dice) {
            Ok((order, e)) => {
                self.log(e);
                order
            }
            Err(e) => {
                self.log_refusal("10.1", &e.to_string());
                generals
            }
        };
        let mut laid_out = Vec::new();
        for general in order {
            let Some(side) = self.armies.iter().find(|a| a.general.name == general).map(|a| a.side) else { continue };
            for k in (0..self.senior_commands.len()).filter(|&k| self.senior_commands[k].side == side) {
                laid_out.push((k, self.weekly_options(k)));
            }
        }
        for (k, options) in laid_out {
            let side = self.senior_commands[k].side;
            let general = self.army(side).general.clone();
            let objective = if options.len() == 1 {
                options[0].clone()
            } else {
                let balanced = Traits { aggression: Aggression::Balanced, decisiveness: Decisiveness::Balanced };
                let traits = general.traits.unwrap_or(balanced);
                let w = weights(general.competency, traits, options.len());
                let words: Vec<String> = options.iter().map(objective_words).collect();
                match variable_order(&words, &w, &mut self.dice, &general.name) {
                    Ok((choice, e)) => {
                        self.log(e.input("senior_command", &self.senior_commands[k].commander.name, ""));
                        options[choice].clone()
                    }
                    Err(e) => {
                        self.log_refusal("11", &e.to_string());
                        options[0].clone()
                    }
                }
            };
            self.log(
                RuleEvent::new(EventKind::CommandDecision, fyow("10.1 Generals"))
                    .actor(&general.name)
                    .target(&self.senior_commands[k].commander.name)
                    .outcome(json!({ "objective_for_the_week": objective })),
            );
            if self.day > 1 && objective != self.senior_commands[k].objective {
                // 5.2: when the Senior Command acts on the change is a surprise.
                let owner = self.senior_commands[k].commander.name.clone();
                let card = DiaryCard { owner, text: format!("{}{NEW_OBJECTIVE}", objective_words(&objective)) };
                let today = self.date;
                let (_, e) = self.diary.file_surprise(&today, card, &mut self.dice);
                self.log(e);
            } else {
                self.senior_commands[k].objective = objective;
            }
        }
    }

    /// FYOW 5.2: the Senior Command whose card it is takes up the new
    /// objective its General gave it, the day the card comes up.
    pub(crate) fn new_objective_card(&mut self, card: &DiaryCard) -> bool {
        let Some(words) = card.text.strip_suffix(NEW_OBJECTIVE) else { return false };
        let objective = words.strip_prefix(TAKE).map(BoardId::new);
        if let Some(sc) = self.senior_commands.iter_mut().find(|s| s.commander.name == card.owner) {
            sc.objective = objective;
        }
        true
    }

    /// A General's options for one Senior Command this week, sensible first
    /// when two, cautious, sensible, bold when three.
    fn weekly_options(&self, k: usize) -> Vec<Option<BoardId>> {
        let sc = &self.senior_commands[k];
        let position =
            self.forces.iter().filter(|f| f.side == sc.side && f.battlegroup.brigade == sc.brigade).find_map(|f| {
                match &f.at {
                    Whereabouts::Board(b) => Some(b.clone()),
                    Whereabouts::Afloat { beach, .. } => Some(beach.clone()),
                    Whereabouts::Airborne { drop, .. } => Some(drop.clone()),
                    Whereabouts::Gone => None,
                }
            });
        let Some(from) = position else { return vec![None] };
        let mut unheld: Vec<(usize, BoardId)> = self
            .army(sc.side)
            .objectives
            .iter()
            .filter(|b| self.held.get(*b) != Some(&sc.side))
            .filter_map(|b| self.road_route(&from, b, false).map(|r| (r.len(), b.clone())))
            .collect();
        unheld.sort();
        let general = self.army(sc.side).general.competency;
        match unheld.as_slice() {
            [] => vec![None],
            [(_, only)] => vec![Some(only.clone()), None],
            [(_, near), ..] if general == Competency::BelowAverage => vec![Some(near.clone()), None],
            [(_, near), .., (_, far)] => vec![None, Some(near.clone()), Some(far.clone())],
        }
    }

    /// FYOW 10.2: each day the Senior Commands set their battlegroups' (and
    /// their Fractions') orders, in the order of the Daily Order Cards.
    pub(crate) fn daily_orders(&mut self) {
        let holders: Vec<String> = self
            .senior_commands
            .iter()
            .filter(|sc| {
                self.forces.iter().any(|f| !f.is_gone() && f.side == sc.side && f.battlegroup.brigade == sc.brigade)
            })
            .map(|sc| sc.commander.name.clone())
            .collect();
        let order = match deal(Deck::DailyOrder, &holders, &mut self.dice) {
            Ok((order, e)) => {
                self.log(e);
                order
            }
            Err(_) => holders,
        };
        for sc in order {
            let Some(k) = self.senior_commands.iter().position(|s| s.commander.name == sc) else { continue };
            let (side, brigade) = (self.senior_commands[k].side, self.senior_commands[k].brigade.clone());
            let forces: Vec<String> = self
                .forces
                .iter()
                .filter(|f| !f.is_gone() && f.side == side && f.battlegroup.brigade == brigade)
                .map(|f| f.name.clone())
                .collect();
            for name in forces {
                match self.player_orders.get(&name).cloned().filter(|_| self.player == Some(side)) {
                    // The player's own orders for his force (10.2).
                    Some((order, objective)) => {
                        if self.fx(&name).is_some_and(|i| !self.in_battle(&name) && !self.forces[i].is_gone())
                            && let Err(e) = self.give_orders(&name, order, objective)
                        {
                            self.log_refusal(&e.section, &e.message);
                        }
                    }
                    None => self.auto_daily_order(&name, k),
                }
                self.ordered_today.insert(name);
            }
        }
    }

    /// FYOW 10.2, 11: a Senior Command's orders for one of its forces today,
    /// by the VOR weighted for the Senior Commander.
    pub(crate) fn auto_daily_order(&mut self, name: &str, k: usize) {
        let Some(i) = self.fx(name) else { return };
        if self.forces[i].is_gone() || self.in_battle(name) {
            return;
        }
        let sc = self.senior_commands[k].clone();
        let options = self.order_options(i, sc.commander.competency);
        let chosen = if options.len() == 1 {
            options[0].clone()
        } else {
            let w = weights(sc.commander.competency, sc.traits, options.len());
            let words: Vec<String> = options.iter().map(|o| o.words.clone()).collect();
            match variable_order(&words, &w, &mut self.dice, &sc.commander.name) {
                Ok((k, e)) => {
                    self.log(e.input("force", name, "").input("traits", sc.traits, "weights moved a face per trait"));
                    options[k].clone()
                }
                Err(e) => {
                    self.log_refusal("11", &e.to_string());
                    options[0].clone()
                }
            }
        };
        if let Err(e) = self.give_orders(name, chosen.order, chosen.objective) {
            self.log_refusal(&e.section, &e.message);
        }
        self.auto_if_order(name);
    }

    /// A Senior Command activated on its BPC answers the requests of its
    /// BCs that reached it (FYOW 6.3, 9.1): a Command Decision each (9.3),
    /// the Obvious rule for orders a Strategic Condition demands (10.4); the
    /// new orders stand at once, to be carried out when the BC is next
    /// activated (9.3).
    pub(crate) fn senior_command_activated(&mut self, k: usize) {
        let me = self.senior_commands[k].commander.name.clone();
        let competency = self.senior_commands[k].commander.competency;
        let requests = std::mem::take(&mut self.senior_commands[k].requests);
        let clerks = self.file.army(self.senior_commands[k].side).telegraph_clerks;
        for (mut request, order, objective, waited) in requests {
            let force = request.from.clone();
            if self.fx(&force).is_none_or(|i| self.forces[i].is_gone()) {
                continue;
            }
            // 9.2 (optional): the clerks' D6, easier each session the request waits.
            if let Some(base) = clerks {
                let (through, e) = clerk_throw(base, waited, &mut self.dice, &request.subject);
                self.log(e.target(&me));
                if !through {
                    self.senior_commands[k].requests.push((request, order, objective, waited.saturating_add(1)));
                    continue;
                }
            }
            request.pass_on(std::slice::from_ref(&me), 0);
            if !request.answered() {
                continue;
            }
            let obvious = self.force(&force).is_some_and(|f| f.condition == StrategicCondition::Red);
            let (granted, e) = match self.command_decision(&me, competency, &request.subject, obvious) {
                Ok((d, e)) => (d.success, Some(e)),
                // More than 5 decisions: the rest wait for its next activation (8).
                Err(_) => {
                    self.senior_commands[k].requests.push((request, order, objective, waited));
                    continue;
                }
            };
            if let Some(e) = e {
                self.log(e.input("force", &force, "9.1 a BC's request"));
            }
            if granted && let Some(i) = self.fx(&force) {
                self.log(
                    RuleEvent::new(EventKind::CommandDecision, fyow("10.4 New Orders"))
                        .actor(&me)
                        .target(&force)
                        .input("from", self.forces[i].order, "")
                        .outcome(json!({ "order": order, "objective": objective })),
                );
                self.forces[i].order = order;
                self.forces[i].objective = objective;
            }
        }
        self.merge_worn_battlegroups(k);
    }

    /// A BC asks his Senior Command for new orders (FYOW 9.1); it answers
    /// when next activated. One request at a time.
    pub(crate) fn request_orders(&mut self, name: &str, order: OrderKind, objective: Option<BoardId>, why: &str) {
        let Some(k) = self.senior_command_of(name) else { return };
        if self.senior_commands[k].requests.iter().any(|(r, ..)| r.from == name) {
            return;
        }
        let sc = self.senior_commands[k].commander.name.clone();
        let subject = format!("{name}: {order:?} orders ({why})");
        let Ok(request) = Request::new(name, &subject, vec![sc.clone()]) else { return };
        self.log(
            RuleEvent::new(EventKind::CommandDecision, fyow("9.1 Communication"))
                .actor(name)
                .target(&sc)
                .input("order", order, "")
                .input("objective", &objective, "")
                .outcome(json!({ "request": subject, "answered": "when the Senior Command is next activated" })),
        );
        self.senior_commands[k].requests.push((request, order, objective, 0));
    }

    /// A force's activation on its BPC (FYOW 4.5).
    pub(crate) fn activate(&mut self, name: &str) {
        let Some(i) = self.fx(name) else { return };
        // 10.6: orders the BC changed since his last activation are now his.
        if !self.forces[i].is_gone()
            && let Some((order, objective)) = self.forces[i].pending_orders.take()
        {
            self.log(
                RuleEvent::new(EventKind::CommandDecision, fyow("10.6 Changing orders"))
                    .actor(name)
                    .input("from", self.forces[i].order, "")
                    .outcome(json!({ "order": order, "objective": objective, "in_force": true })),
            );
            self.forces[i].order = order;
            self.forces[i].objective = objective;
        }
        // 10.7: an "if" written into its orders, read once they have stood.
        self.read_composite(name);
        match self.forces[i].at.clone() {
            Whereabouts::Gone => return,
            // From its day, a force off the map lands from the sea or drops from the air.
            at @ (Whereabouts::Afloat { day, .. } | Whereabouts::Airborne { day, .. }) => {
                if day <= self.day {
                    let arrived = if matches!(at, Whereabouts::Afloat { .. }) {
                        self.land(name)
                    } else {
                        self.drop_airborne(name)
                    };
                    match arrived {
                        Ok(result) => self.after_move(name, result),
                        Err(e) => self.log_refusal(&e.section, &e.message),
                    }
                }
                return;
            }
            Whereabouts::Board(_) => {}
        }
        self.picket_separated(name);
        if self.forces[i].first_activation.is_some() {
            self.in_step(|c| c.fraction_first_activation(i));
        }
        if self.in_battle(name) {
            self.defenders_detection(name);
            return;
        }
        if self.attitude(name) == Some(Attitude::Disarray) {
            let e = self.occupant_mut(name).map(|o| o.attitude.reorganise(name, Reorganiser::Own, Attitude::Present));
            match e {
                Some(Ok(e)) => self.log(e),
                Some(Err(e)) => self.log_refusal("15.3", &e.to_string()),
                None => {}
            }
            return;
        }
        self.occupier_detection(name);
        self.gather_intelligence(name);
        self.auto_cut_railway(name);
        self.gather_fractions(name);
        self.merge_met_fractions(name);
        self.call_in_pickets(name, false);
        self.post_picket(name);
        if self.forces[i].supply.mode == Mode::Rest {
            return;
        }
        if self.forces[i].condition == StrategicCondition::Red && self.forces[i].order.moves() {
            // FYOW 10.4: a Strategic Condition that demands withdrawal demands new
            // orders (FYOB: a battlegroup at Red withdraws from the fight); the BC
            // asks his Senior Command (9.1) and holds until they come.
            let options = self.order_options(i, self.forces[i].commander.competency);
            let (order, objective) = (options[0].order, options[0].objective.clone());
            if self.forces[i].order != order || self.forces[i].objective != objective {
                self.request_orders(name, order, objective, "10.4 its Strategic Condition is Red");
                return;
            }
        }
        if self.fight_enemy_here(name) {
            return;
        }
        let f = &self.forces[i];
        let here = f.board().cloned().expect("on a board");
        let order = f.order;
        if !order.moves() {
            if order == OrderKind::Defend
                && self.occupant(name).is_some_and(|o| o.place == Place::OnBoard)
                && self.attitude(name) == Some(Attitude::Present)
                && f.sessions_here >= 1
            {
                let _ = self.command(crate::play::command::Command::Deploy { force: name.to_owned() });
            } else if self.in_box(name) {
                self.enter_if_clear(name, &here);
            }
            return;
        }
        let Some(objective) = f.objective.clone() else { return };
        self.objective_taken_by_others(name, &here, &objective);
        let f = &self.forces[i];
        if objective == here {
            self.enter_if_clear(name, &here);
            // The order's move is done: the force stands and defends (FYOW 10.3 standing orders).
            self.forces[i].order = OrderKind::Defend;
            self.forces[i].objective = None;
            self.log(
                RuleEvent::new(EventKind::CommandDecision, fyow("10.3 Standing orders"))
                    .actor(name)
                    .input("reached", &here, "the objective of its order")
                    .outcome(json!({ "order": OrderKind::Defend })),
            );
            return;
        }
        let v = f.mover().profile().is_ok_and(|p| p.v_barred);
        let Some(route) = self.road_route(&here, &objective, v) else { return };
        let Some(leg) = route.first().cloned() else { return };
        let side = f.side;
        let enemy_known_there = self
            .army(side)
            .known
            .iter()
            .any(|(force, (b, _))| *b == leg.to && self.force(force).is_some_and(|x| x.board() == Some(&leg.to)));
        if enemy_known_there && order.enemy_on_destination() != crate::army::orders::EnemyOnBoard::Enters {
            return;
        }
        // 3.8: a battlegroup marching off takes its pickets with it.
        self.call_in_pickets(name, true);
        if self.check_move(name, &leg.to, leg.route.kind()).is_err() {
            return;
        }
        self.leave_garrison(name, &here);
        match self.move_force(name, &leg.to, leg.route.kind()) {
            Ok(result) => self.after_move(name, result),
            Err(e) => self.log_refusal(&e.section, &e.message),
        }
    }

    /// FYOW 10.6: an Auto BC going to take an objective of his army that
    /// another force of his side has taken meanwhile changes his own orders,
    /// by a Command Decision, to the nearest objective his army does not
    /// hold; they stand from his next activation, and he carries out the
    /// old ones until then. Reading: the day's orders named a place to take;
    /// once it is held, going on to it serves nothing, and waiting for the
    /// next day's orders would waste the day (test
    /// `a_bc_whose_objective_is_taken_by_others_changes_his_orders_by_decision`).
    fn objective_taken_by_others(&mut self, name: &str, here: &BoardId, objective: &BoardId) {
        let Some(i) = self.fx(name) else { return };
        let f = &self.forces[i];
        let side = f.side;
        if self.player == Some(side)
            || !matches!(f.order, OrderKind::MoveToContact | OrderKind::Engage)
            || f.condition == StrategicCondition::Red
            || f.pending_orders.is_some()
            || objective == here
            || !self.army(side).objectives.contains(objective)
            || self.held.get(objective) != Some(&side)
            || !self.ordered_today.contains(name)
        {
            return;
        }
        let v = f.mover().profile().is_ok_and(|p| p.v_barred);
        let Some(next) = self.next_objective(side, here, v) else { return };
        if let Err(e) = self.give_orders(name, OrderKind::MoveToContact, Some(next)) {
            self.log_refusal(&e.section, &e.message);
        }
    }

    /// After a move or landing: contact follows the order (FYOW 10.5, 16.1, 16.2).
    fn after_move(&mut self, name: &str, result: MoveResult) {
        let Some(i) = self.fx(name) else { return };
        let Some(board) = self.forces[i].board().cloned() else { return };
        let side = self.forces[i].side;
        let enemies: Vec<String> =
            self.occupation[&board].occupants.iter().filter(|o| o.side != side).map(|o| o.force.clone()).collect();
        if enemies.is_empty() {
            return;
        }
        let enters = self.forces[i].order.enemy_on_destination() == crate::army::orders::EnemyOnBoard::Enters;
        match result {
            MoveResult::Contact if enters => {
                self.fight_enemy_here(name);
            }
            // 16.1: detected, not ordered to engage: it holds in its box.
            MoveResult::Contact | MoveResult::Stayed => {}
            // 16.2: nothing detected: it enters the board and meets the enemy unawares.
            MoveResult::Arrived => {
                let defender = self.strongest(&enemies);
                if let Some(d) = defender {
                    self.start_battle(name, &d);
                }
            }
        }
    }

    /// The strongest of some forces not already fighting.
    fn strongest(&self, names: &[String]) -> Option<String> {
        names
            .iter()
            .filter(|n| !self.in_battle(n))
            .filter_map(|n| self.force(n).map(|f| (f.points(), n.clone())))
            .max()
            .map(|(_, n)| n)
    }

    /// A force under orders that enter a board with the enemy (Engage, Move
    /// To Contact) attacks the strongest enemy it has detected on its board.
    fn fight_enemy_here(&mut self, name: &str) -> bool {
        let Some(i) = self.fx(name) else { return false };
        let f = &self.forces[i];
        let Some(board) = f.board().cloned() else { return false };
        if f.order.enemy_on_destination() != crate::army::orders::EnemyOnBoard::Enters {
            return false;
        }
        let known: Vec<String> = self.occupation[&board]
            .occupants
            .iter()
            .filter(|o| o.side != f.side && f.sighted.contains(&o.force))
            .map(|o| o.force.clone())
            .collect();
        match self.strongest(&known) {
            Some(d) => {
                self.start_battle(name, &d);
                true
            }
            None => false,
        }
    }

    /// A force in its box with no enemy on the board moves onto the board (16.2).
    fn enter_if_clear(&mut self, name: &str, board: &BoardId) {
        let Some(side) = self.force(name).map(|f| f.side) else { return };
        if self.in_box(name) && !self.occupation[board].occupants.iter().any(|o| o.side != side) {
            let _ = self.occupation.get_mut(board).map(|o| o.enter_board(name));
        }
    }

    /// FYOW 3.5: a new Fraction's first activation: its Stockpile is its
    /// parent's × ¼ (rounded up, at most 5S), and it throws 3D6 for its S for
    /// the rest of the day, none of it over the day's 10S going to the Stockpile.
    fn fraction_first_activation(&mut self, i: usize) {
        let Some(mut fraction) = self.forces[i].first_activation.take() else { return };
        let name = self.forces[i].name.clone();
        let parent_stockpile =
            self.forces[i].parent.as_deref().and_then(|p| self.force(p)).map_or(0, |p| p.supply.stockpile());
        let moves = self.forces[i].movement.allowance.remaining();
        let Ok((first, e)) = fraction.first_activation(parent_stockpile, moves, None, &mut self.dice) else { return };
        self.log(e);
        let Ok(supply) = SupplyRecord::new(Formation::Fraction, first.stockpile) else { return };
        self.forces[i].supply = supply;
        let f = &self.forces[i];
        let orders = DayOrders { rest: false, engaged: self.in_battle(&name), ordered_to_act: f.order.moves() };
        let today = first.supply_today - first.surplus_lost;
        match self.forces[i].supply.meet_needs(today, orders, &name) {
            Ok((_, e)) => self.log(e),
            Err(e) => self.log_refusal("3.5", &e.to_string()),
        }
    }

    /// FYOW 33.5, 33.7.1 (ii): "Detection throws are made by the defenders
    /// when they are activated": a defender in a paper battle that has not
    /// detected its attacker throws as the occupiers do (16.4); its attacker's
    /// box is the edge it arrived by.
    ///
    /// Reading (FYOW 33.7.1 (ii)): the throw is the defenders' at every
    /// activation until they detect their attacker, whether or not the
    /// attacker has left its box for the board (16.3's "remains in the box"
    /// is for occupiers not yet attacked); a success counts for the battle's
    /// next Combat Session (test `the_defenders_throw_when_activated_and_only_their_throw_counts`).
    pub(crate) fn defenders_detection(&mut self, name: &str) {
        let Some(k) = self.battles.iter().position(|b| b.defender == name) else { return };
        if self.battles[k].situation.defenders_detected_attackers {
            return;
        }
        let attacker = self.battles[k].attacker.clone();
        let (Some(me), Some(them)) = (self.occupant(name).cloned(), self.occupant(&attacker).cloned()) else { return };
        let Some(i) = self.fx(name) else { return };
        let all_recce = self.forces[i].kit.iter().all(|k| k.recce);
        let posture = OccupierPosture::of(me.attitude.attitude(), self.forces[i].supply.mode == Mode::Rest, all_recce);
        let b = bearing(me.arrival_edge, them.arrival_edge);
        match detect_from_occupation(name, posture, b, &self.conditions, Quarry::EnemyUnits, true, &mut self.dice) {
            Ok((seen, e)) => {
                self.log(e.target(&attacker).input("battle", &attacker, "33.7.1 (ii) the defenders' throw"));
                if seen {
                    self.sight(name, &attacker);
                    self.battles[k].situation.defenders_detected_attackers = true;
                }
            }
            Err(e) => self.log_refusal("33.7.1", &e.to_string()),
        }
    }

    /// FYOW 16.3–16.4: the occupiers throw to detect an enemy that arrived
    /// in a box of their board and stayed there.
    fn occupier_detection(&mut self, name: &str) {
        let Some(i) = self.fx(name) else { return };
        let Some(board) = self.forces[i].board().cloned() else { return };
        let side = self.forces[i].side;
        let Some(me) = self.occupant(name).cloned() else { return };
        let now = self.stamp();
        let targets: Vec<(String, crate::map::common::Edge)> = self.occupation[&board]
            .occupants
            .iter()
            .filter(|o| o.side != side && o.arrived < now && !self.forces[i].sighted.contains(&o.force))
            .filter_map(|o| match o.place {
                Place::Box(edge) => Some((o.force.clone(), edge)),
                Place::OnBoard => None,
            })
            .collect();
        let all_recce = self.forces[i].kit.iter().all(|k| k.recce);
        let posture = OccupierPosture::of(me.attitude.attitude(), self.forces[i].supply.mode == Mode::Rest, all_recce);
        for (enemy, edge) in targets {
            let b = bearing(me.arrival_edge, edge);
            if let Ok((seen, e)) =
                detect_from_occupation(name, posture, b, &self.conditions, Quarry::EnemyUnits, true, &mut self.dice)
            {
                self.log(e.target(&enemy));
                if seen {
                    self.sight(name, &enemy);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::common::{Edge, Light, SessionConditions};
    use crate::play::file::CampaignFile;
    use crate::play::file::tests::SMALL;

    /// Blue 1 in the west box of the Village, where Red 1 stands; each
    /// Senior Command told of the other's force (by aircraft or partisans).
    fn blue_at_the_village(seed: u64) -> Campaign {
        let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), seed).unwrap();
        let (sea, village) = (BoardId::new("Sea"), BoardId::new("Village"));
        c.relocate("Blue 1", &sea, &village, Edge::West).unwrap();
        c.army_mut(Side::Blue).known.insert("Red 1".into(), (village.clone(), 1));
        c.army_mut(Side::Red).known.insert("Blue 1".into(), (village, 1));
        c.drain_events();
        c
    }

    #[test]
    fn a_bc_whose_objective_is_taken_by_others_changes_his_orders_by_decision() {
        // 10.6 "The BC can change his orders at any time but must do so using
        // the Command Decision process ... New Orders will be available when
        // he is next activated."
        let (mut changed, mut kept) = (0, 0);
        for seed in 0..20 {
            let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), seed).unwrap();
            c.remove_force("Red 1", "gone for the test");
            c.relocate("Blue 2", &BoardId::new("Sea"), &BoardId::new("Village"), Edge::West).unwrap();
            c.occupation.get_mut(&BoardId::new("Village")).unwrap().enter_board("Blue 2").unwrap();
            c.relocate("Blue 1", &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
            c.update_held();
            assert_eq!(c.held.get(&BoardId::new("Village")), Some(&Side::Blue), "Blue 2 took the Village");
            let i = c.fx("Blue 1").unwrap();
            c.forces[i].order = OrderKind::MoveToContact;
            c.forces[i].objective = Some(BoardId::new("Village"));
            c.ordered_today.insert("Blue 1".into());
            c.drain_events();
            c.activate("Blue 1");
            let events = c.drain_events();
            let decision = events
                .iter()
                .find(|e| e.rule.section == "8.1 Command Decisions")
                .expect("his Command Decision to change his orders");
            assert_eq!(decision.actor.as_deref(), Some("Major One"));
            assert_eq!(
                c.forces[i].objective,
                Some(BoardId::new("Village")),
                "seed {seed}: the old orders stand for now"
            );
            if decision.outcome["success"] == true {
                changed += 1;
                assert_eq!(c.forces[i].pending_orders, Some((OrderKind::MoveToContact, Some(BoardId::new("Town")))));
                c.decisions.clear();
                c.activate("Blue 1");
                assert_eq!(c.forces[i].objective, Some(BoardId::new("Town")), "seed {seed}: from his next activation");
            } else {
                kept += 1;
                assert_eq!(c.forces[i].pending_orders, None);
            }
        }
        assert!(changed > 0 && kept > 0, "changed {changed}, kept {kept}");
        // Not before the day's orders are given, and never a player's.
        let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), 1).unwrap();
        c.player = Some(Side::Blue);
        c.relocate("Blue 1", &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
        c.held.insert(BoardId::new("Village"), Side::Blue);
        c.ordered_today.insert("Blue 1".into());
        let i = c.fx("Blue 1").unwrap();
        c.forces[i].objective = Some(BoardId::new("Village"));
        c.drain_events();
        c.activate("Blue 1");
        assert!(
            !c.drain_events().iter().any(|e| e.rule.section == "8.1 Command Decisions"),
            "the player's orders stand"
        );
    }

    #[test]
    fn the_defenders_throw_when_activated_and_only_their_throw_counts() {
        // 33.5 "These are made by both forces when activated"; 33.7.1 (ii)
        // "Detection throws are made by the defenders when they are activated."
        let (mut seen, mut unseen) = (0, 0);
        for seed in 0..40 {
            let mut c = blue_at_the_village(seed);
            c.start_battle("Blue 1", "Red 1");
            let s = &c.battles[0].situation;
            assert!(
                !s.attackers_detected_defenders,
                "seed {seed}: what the Senior Command knows is not the attacker's throw"
            );
            assert!(!s.defenders_detected_attackers, "seed {seed}: nor the defender's");
            c.drain_events();
            c.activate("Red 1");
            let throws: Vec<_> = c
                .drain_events()
                .into_iter()
                .filter(|e| e.rule.section.starts_with("16.4") && e.actor.as_deref() == Some("Red 1"))
                .collect();
            assert_eq!(throws.len(), 1, "seed {seed}: the defender throws once when activated");
            assert_eq!(throws[0].target.as_deref(), Some("Blue 1"));
            let detected = throws[0].outcome["detected"] == true;
            assert_eq!(c.battles[0].situation.defenders_detected_attackers, detected, "seed {seed}");
            assert_eq!(c.force("Red 1").unwrap().sighted.contains("Blue 1"), detected);
            if detected {
                seen += 1;
                c.activate("Red 1");
                assert!(
                    !c.drain_events().iter().any(|e| e.rule.section.starts_with("16.4")),
                    "seed {seed}: a detected attacker is not thrown for again"
                );
            } else {
                unseen += 1;
            }
        }
        assert!(seen > 0 && unseen > 0, "the throw can go either way: {seen} seen, {unseen} not");
    }

    #[test]
    fn senior_commands_order_their_battlegroups_by_their_own_vor() {
        // 10.2 "A Daily Order Card is dealt daily to each Senior Command ... the
        // Brigade leaders set out the various plans for the day for the
        // Battlegroups under his control"; 11: weighted for the decision maker.
        let mut c = blue_at_the_village(3);
        // Senior Commanders and BCs rated and inclined apart, so that the
        // weights tell whose VOR it is.
        let bold = Traits { aggression: Aggression::Aggressive, decisiveness: Decisiveness::Decisive };
        let timid = Traits { aggression: Aggression::Passive, decisiveness: Decisiveness::Hesitant };
        for sc in &mut c.senior_commands {
            (sc.commander.competency, sc.commander.traits, sc.traits) = (Competency::AboveAverage, Some(bold), bold);
        }
        for f in &mut c.forces {
            (f.commander.competency, f.commander.traits, f.traits) = (Competency::BelowAverage, Some(timid), timid);
        }
        c.day = 1;
        c.daily_orders();
        let events = c.drain_events();
        let scs: Vec<String> = c.senior_commands.iter().map(|sc| sc.commander.name.clone()).collect();
        assert_eq!(scs, ["Senior Commander, Landing force", "Senior Commander, Garrison"]);
        let deal = events.iter().find(|e| e.rule.section.starts_with("10.2")).expect("Daily Order Cards");
        let holders = &deal.inputs.iter().find(|i| i.name == "holders").unwrap().value;
        assert_eq!(holders.as_array().unwrap().len(), 2, "dealt to the Senior Commands, not to the forces");
        let vor: Vec<_> = events.iter().filter(|e| e.rule.section.starts_with("11 ")).collect();
        assert!(!vor.is_empty());
        for e in vor {
            let force = e.inputs.iter().find(|i| i.name == "force").unwrap().value.as_str().unwrap().to_owned();
            let k = c.senior_command_of(&force).unwrap();
            assert_eq!(e.actor.as_deref(), Some(c.senior_commands[k].commander.name.as_str()));
            let sc = &c.senior_commands[k];
            let n = e.inputs.iter().find(|i| i.name == "options").unwrap().value.as_array().unwrap().len();
            let w: Vec<u8> =
                serde_json::from_value(e.inputs.iter().find(|i| i.name == "weights").unwrap().value.clone()).unwrap();
            assert_eq!(w, weights(sc.commander.competency, sc.traits, n), "the Senior Commander's weights");
            let bc = c.force(&force).unwrap();
            assert_ne!(w, weights(bc.commander.competency, bc.traits, n), "not {force}'s BC's");
        }
    }

    #[test]
    fn each_side_has_its_own_senior_command_for_a_brigade_name_both_armies_use() {
        // 6.3, 10.2: each army's Brigade has its Senior Command, which orders
        // that army's battlegroups, whatever the other army calls its own.
        let text = SMALL.replace("commander: \"", "brigade: \"1st Brigade\", commander: \"");
        let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", &text).unwrap(), 3).unwrap();
        let scs: Vec<(Side, String)> =
            c.senior_commands.iter().map(|sc| (sc.side, sc.commander.name.clone())).collect();
        assert_eq!(
            scs,
            [
                (Side::Blue, "Senior Commander, 1st Brigade (Blue)".to_owned()),
                (Side::Red, "Senior Commander, 1st Brigade (Red)".to_owned())
            ]
        );
        c.day = 1;
        c.daily_orders();
        for name in ["Blue 1", "Blue 2", "Red 1", "Red 2"] {
            assert!(c.ordered_today.contains(name), "{name} has its orders for the day");
        }
        for e in c.drain_events().iter().filter(|e| e.rule.section.starts_with("11 ")) {
            let force = e.inputs.iter().find(|i| i.name == "force").unwrap().value.as_str().unwrap().to_owned();
            let side = c.force(&force).unwrap().side;
            let own = c.senior_commands.iter().find(|sc| sc.side == side).unwrap();
            assert_eq!(e.actor.as_deref(), Some(own.commander.name.as_str()), "{force}'s own Senior Command");
        }
    }

    #[test]
    fn a_bc_at_red_asks_his_senior_command_which_answers_when_activated() {
        // 10.4 "Any Strategic Condition demands that ... he withdraws ... will
        // trigger a demand for new Orders"; 9.1 the request "must pass through
        // the Senior Officer"; 6.3 "When the Senior Command is activated during a
        // session, he can respond to requests from Battlegroup Commanders".
        let mut granted = 0;
        for seed in 0..20 {
            let mut c = blue_at_the_village(seed);
            c.battles.clear();
            let i = c.fx("Blue 1").unwrap();
            c.forces[i].condition = StrategicCondition::Red;
            c.forces[i].order = OrderKind::MoveToContact;
            c.forces[i].objective = Some(BoardId::new("Town"));
            c.activate("Blue 1");
            let events = c.drain_events();
            assert!(events.iter().any(|e| e.rule.section == "9.1 Communication"), "seed {seed}: a request");
            assert_eq!(c.forces[i].order, OrderKind::MoveToContact, "seed {seed}: not changed by the BC himself");
            assert!(c.force("Blue 1").unwrap().board() == Some(&BoardId::new("Village")), "it holds meanwhile");
            let k = c.senior_command_of("Blue 1").unwrap();
            assert_eq!(c.senior_commands[k].requests.len(), 1);
            c.senior_command_activated(k);
            let events = c.drain_events();
            let decision = events.iter().find(|e| e.rule.section.starts_with("8.1")).expect("a Command Decision");
            assert_eq!(decision.actor.as_deref(), Some(c.senior_commands[k].commander.name.as_str()));
            assert!(c.senior_commands[k].requests.is_empty(), "answered");
            if decision.outcome["success"] == true {
                granted += 1;
                assert_ne!(c.forces[i].order, OrderKind::MoveToContact, "seed {seed}: withdrawal orders");
            } else {
                assert_eq!(c.forces[i].order, OrderKind::MoveToContact, "seed {seed}: refused");
            }
        }
        assert!(granted > 0);
    }

    #[test]
    fn telegraph_clerks_pass_a_request_sooner_each_session() {
        // 9.2 [Optional]: "throw, for example, 3+ on a D6 in order to allow a
        // response to be available to the BC within the usual time frame. This
        // falls to 2+ during the subsequent session and so on."
        for seed in 0..10 {
            let mut c = blue_at_the_village(seed);
            c.battles.clear();
            c.file.armies.iter_mut().for_each(|a| a.telegraph_clerks = Some(3));
            let i = c.fx("Blue 1").unwrap();
            c.forces[i].condition = StrategicCondition::Red;
            c.forces[i].order = OrderKind::MoveToContact;
            c.forces[i].objective = Some(BoardId::new("Town"));
            c.activate("Blue 1");
            let k = c.senior_command_of("Blue 1").unwrap();
            let mut needed = Vec::new();
            for _ in 0..3 {
                c.decisions.clear();
                c.drain_events();
                c.senior_command_activated(k);
                let events = c.drain_events();
                let clerk = events.iter().find(|e| e.rule.section.starts_with("9.2")).expect("the clerks' throw");
                needed.push(clerk.inputs.iter().find(|i| i.name == "needed").unwrap().value.as_u64().unwrap());
                let through = clerk.outcome["through"] == true;
                assert_eq!(events.iter().any(|e| e.rule.section.starts_with("8.1")), through, "seed {seed}");
                if through {
                    break;
                }
            }
            assert_eq!(needed, [3, 2, 1][..needed.len()], "seed {seed}");
            assert!(c.senior_commands[k].requests.is_empty(), "answered by the third session at the latest");
        }
        let bad = SMALL.replacen("motivation: Motivated,", "motivation: Motivated, telegraph_clerks: Some(7),", 1);
        let e = CampaignFile::load("small.ron", &bad).unwrap_err().to_string();
        assert!(e.contains("telegraph_clerks: 7"), "{e}");
    }

    #[test]
    fn generals_set_each_brigade_its_objective_for_the_week() {
        // 10.1 "A Weekly Order Card is dealt weekly to each General ... Once all
        // Generals have set out the options, all dice throws are made".
        let mut c = blue_at_the_village(2);
        c.weekly_orders();
        let events = c.drain_events();
        let deal = events.iter().position(|e| e.rule.section.starts_with("10.1 Generals: Weekly")).expect("cards");
        let vor: Vec<_> = events.iter().filter(|e| e.rule.section.starts_with("11 ")).collect();
        assert_eq!(vor.len(), 1, "the landing force's General chooses; the garrison holds both objectives");
        assert_eq!(vor[0].actor.as_deref(), Some("Brigadier Blue"));
        let options = vor[0].inputs.iter().find(|i| i.name == "options").unwrap().value.clone();
        assert_eq!(options, json!(["hold what it has", "take Village", "take Town"]), "cautious, nearest, farthest");
        let blue = &c.senior_commands[0];
        let chosen = vor[0].outcome["chosen"].as_str().unwrap();
        assert_eq!(blue.objective.as_ref().map(|b| format!("take {b}")).unwrap_or("hold what it has".into()), chosen);
        assert_eq!(c.senior_commands[1].objective, None);
        assert!(events.iter().skip(deal).filter(|e| e.rule.section == "10.1 Generals").count() == 2);
    }

    #[test]
    fn a_later_weeks_new_objective_is_taken_up_on_a_surprise_day() {
        // 5.2: "three diary cards are prepared. Two are blank whilst the third is
        // marked with the BC's decision. They are shuffled and put into ... the
        // next 3 days"; "When the card showing the BC's decision is revealed, he
        // will undertake the action."
        let mut surprised = 0;
        for seed in 0..12 {
            let mut c = blue_at_the_village(seed);
            c.day = 8;
            let before = c.senior_commands[0].objective.clone();
            c.weekly_orders();
            let events = c.drain_events();
            let blue = c.senior_commands[0].commander.name.clone();
            let decided = events
                .iter()
                .find(|e| e.rule.section == "10.1 Generals" && e.target.as_deref() == Some(blue.as_str()))
                .expect("the General's decision for the Blue brigade");
            let chosen: Option<BoardId> = serde_json::from_value(decided.outcome["objective_for_the_week"].clone())
                .expect("the objective decided");
            let filed = events
                .iter()
                .find(|e| e.rule.section == "5.2 \"Surprise\" Events" && e.actor.as_deref() == Some(blue.as_str()));
            if chosen == before {
                assert!(filed.is_none() && c.diary.is_empty(), "seed {seed}: no change, no card");
                continue;
            }
            surprised += 1;
            let filed = filed.expect("a surprise card for the change");
            assert_eq!(c.senior_commands[0].objective, before, "seed {seed}: not yet taken up");
            let (day, card) = c.diary.cards()[0].clone();
            assert_eq!(filed.outcome["day"].as_str(), Some(day.to_string().as_str()));
            let ahead = (1..=3).find(|&n| c.date.plus_days(n).day_start() == day);
            assert!(ahead.is_some(), "seed {seed}: filed for one of the next 3 days");
            assert!(c.diary.draw(&c.date.plus_days(ahead.unwrap() - 1)).is_empty(), "not before its day");
            for card in c.diary.draw(&day) {
                c.diary_card(card);
            }
            assert_eq!(c.senior_commands[0].objective, chosen, "seed {seed}: {card:?} taken up on its day");
        }
        assert!(surprised > 0);
    }

    #[test]
    fn a_force_detected_counts_for_its_detector_only_while_both_stay_on_the_board() {
        let mut c = blue_at_the_village(1);
        // Red 2 joins Red 1 at the village before either side throws.
        c.relocate("Red 2", &BoardId::new("Town"), &BoardId::new("Village"), Edge::East).unwrap();
        c.sight("Blue 1", "Red 1");
        c.sight("Red 1", "Blue 1");
        assert!(c.army(Side::Red).known.contains_key("Blue 1"), "the garrison knows where Blue 1 is");
        let mut other = c.clone();
        other.start_battle("Blue 1", "Red 2");
        let s = &other.battles[0].situation;
        assert!(!s.defenders_detected_attackers, "Red 1's throw is its own, not Red 2's");
        assert!(!s.attackers_detected_defenders, "Blue 1 detected Red 1, not Red 2");
        let mut moved = c.clone();
        moved.relocate("Blue 1", &BoardId::new("Village"), &BoardId::new("Town"), Edge::West).unwrap();
        assert!(moved.force("Blue 1").unwrap().sighted.is_empty(), "it forgets what it saw where it left");
        assert!(!moved.force("Red 1").unwrap().sighted.contains("Blue 1"));
        assert!(!moved.army(Side::Red).known.contains_key("Blue 1"), "the garrison no longer knows where it is");
        c.start_battle("Blue 1", "Red 1");
        let s = &c.battles[0].situation;
        assert!(s.attackers_detected_defenders && s.defenders_detected_attackers);
    }

    #[test]
    fn a_force_arriving_where_friends_are_shares_what_they_detected_and_throws_nothing() {
        // 15.5 "If the Map Board does not already contain a friendly Battlegroup
        // or Fraction, the force arriving immediately makes a Detection Throw";
        // with one there, it knows what they have detected (33.5), no more.
        let village = BoardId::new("Village");
        let mut c = blue_at_the_village(1);
        let i = c.fx("Blue 2").unwrap();
        c.forces[i].battlegroup.elements.truncate(1);
        c.relocate("Blue 2", &BoardId::new("Sea"), &village, Edge::West).unwrap();
        c.sight("Red 1", "Blue 1");
        c.relocate("Red 2", &BoardId::new("Town"), &village, Edge::East).unwrap();
        c.drain_events();
        assert_eq!(c.after_arrival("Red 2", &village), MoveResult::Contact);
        let f = c.force("Red 2").unwrap();
        assert!(f.sighted.contains("Blue 1"), "Red 1 detected Blue 1");
        assert!(!f.sighted.contains("Blue 2"), "nobody detected Blue 2");
        assert!(!c.drain_events().iter().any(|e| e.rule.section.starts_with("16")), "no Detection Throw");
    }

    #[test]
    fn a_force_that_detects_nobody_enters_the_board_and_attacks_unawares() {
        // 16.2 "The arriving force is deemed to be entering the Board and action
        // moves to the tabletop ... If the player is using the "Dunnigan Rules"
        // for quick play, this affects the attacking force".
        let village = BoardId::new("Village");
        let mut unaware = 0;
        for seed in 0..30 {
            let mut c = blue_at_the_village(seed);
            let i = c.fx("Blue 1").unwrap();
            c.forces[i].kit[0].heavy_guns = 4;
            c.conditions = SessionConditions { fog: true, ..SessionConditions::fine(Light::NightNoMoon) };
            c.drain_events();
            let result = c.after_arrival("Blue 1", &village);
            if result != MoveResult::Arrived {
                continue;
            }
            unaware += 1;
            c.after_move("Blue 1", result);
            assert_eq!(c.battles.len(), 1, "seed {seed}: a Contact Session");
            let b = &c.battles[0];
            assert_eq!((b.attacker.as_str(), b.defender.as_str()), ("Blue 1", "Red 1"), "seed {seed}");
            assert!(!b.situation.attackers_detected_defenders, "seed {seed}");
            assert!(!b.situation.barrage, "seed {seed}: no barrage on an enemy not detected");
            assert_eq!(c.occupant("Blue 1").unwrap().place, Place::OnBoard, "seed {seed}: it enters the board");
        }
        assert!(unaware > 0, "some arrivals detect nobody");
    }

    fn traits(a: Aggression, d: Decisiveness) -> Traits {
        Traits { aggression: a, decisiveness: d }
    }

    #[test]
    fn weights_follow_the_vor_and_move_a_face_per_trait() {
        let balanced = traits(Aggression::Balanced, Decisiveness::Balanced);
        assert_eq!(weights(Competency::Average, balanced, 3), [2, 6, 2]);
        assert_eq!(weights(Competency::AboveAverage, balanced, 3), [1, 8, 1]);
        assert_eq!(weights(Competency::BelowAverage, balanced, 2), [5, 5]);
        let bold = traits(Aggression::Aggressive, Decisiveness::Decisive);
        assert_eq!(weights(Competency::Average, bold, 3), [0, 7, 3]);
        let timid = traits(Aggression::Passive, Decisiveness::Hesitant);
        assert_eq!(weights(Competency::Average, timid, 3), [4, 5, 1]);
        assert_eq!(weights(Competency::AboveAverage, bold, 3), [0, 8, 2]);
        for w in [weights(Competency::Average, timid, 2), weights(Competency::AboveAverage, bold, 2)] {
            assert_eq!(w.iter().map(|&x| u32::from(x)).sum::<u32>(), 10);
        }
    }
}
