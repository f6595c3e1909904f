//! Engagements on the campaign map fought on paper by the Dunnigan rules
//! (FYOW 33): contact, Combat Sessions with barrage and counter-battery,
//! losses booked against the ORBAT, Strategic Conditions, retreats and
//! surrenders. Each engagement also keeps the start value a table battle on
//! its Map Board would take (FYOW 15.6).

use serde_json::json;
use warbound_rules::event::{EventKind, RuleEvent};
use warbound_rules::handoff::{BattleResult, BattleStart};
use warbound_rules::momentum::MAX_CMS;

use crate::map::attitude::Attitude as MapAttitude;
use crate::map::board::{BoardId, BoardKind, Terrain as MapTerrain};
use crate::map::engagement::Engagement;
use crate::map::movement::{MoveAttempt, Retreat};
use crate::paper::dunnigan::{
    AmmoUsed, AssetLoss, Attitude, Engagement as Fight, Force, NextStep, RetreatDestination, RetreatFate, RetreatOrder,
    Side as PaperSide, Situation, StrategicCondition, Terrain, allocate_losses, bystander_retreats,
    resolve_combat_session, retreat_into,
};
use crate::play::state::{BattleRecord, Campaign, PaperBattle, Whereabouts, fyow};
use crate::play::table::Tabletop;
use crate::supply::logistics::Mode;
use crate::supply::repairs::RepairJob;
use crate::supply::replenishment::LossKind;
use warbound_rules::codex::Points;

/// FYOW 33.3: the Dunnigan terrain of a Map Board type.
fn terrain(kind: BoardKind) -> Terrain {
    match kind {
        BoardKind::Land(MapTerrain::Open) | BoardKind::Tidal => Terrain::OpenPlains,
        BoardKind::Land(MapTerrain::Light) => Terrain::Farmland,
        BoardKind::Land(MapTerrain::Broken) => Terrain::HeavyWoodland,
        BoardKind::Land(MapTerrain::Rugged) => Terrain::Rugged,
        BoardKind::Land(MapTerrain::Dense) => Terrain::City,
        BoardKind::Land(MapTerrain::Fortified) => Terrain::Fortified,
    }
}

impl Campaign {
    /// The defenders' attitude as the Battle Factors Chart reads it (33.7.2 (vi)).
    fn paper_attitude(&self, name: &str) -> Attitude {
        let f = self.force(name).expect("a force in battle");
        if f.supply.mode == Mode::Rest {
            return Attitude::Rest;
        }
        if f.order == crate::army::orders::OrderKind::StandBy {
            return Attitude::StandBy;
        }
        match self.attitude(name) {
            Some(MapAttitude::Deployed) => Attitude::Deployed,
            Some(MapAttitude::Fortified) => Attitude::Fortified,
            Some(MapAttitude::Disarray) => Attitude::Disarray,
            _ => Attitude::Present,
        }
    }

    /// A Command Decision by a force's commander (FYOW 8.1).
    pub(crate) fn decision(&mut self, name: &str, question: &str, obvious: bool) -> bool {
        let Some(f) = self.force(name) else { return false };
        let (c, who) = (f.commander.competency, f.commander.name.clone());
        match self.command_decision(&who, c, question, obvious) {
            Ok((d, e)) => {
                self.log(e.input("force", name, ""));
                d.success
            }
            Err(_) => false,
        }
    }

    /// Contact (FYOW 15.6, 33.7): `attacker` engages `defender` on its
    /// board. The Combat Sessions follow from the next session. Each side
    /// counts as having detected the other only by its own force's detection
    /// throws (33.5, 33.7.1 (ii)); the defenders may still throw when they
    /// are activated ([`Campaign::defenders_detection`]).
    pub(crate) fn start_battle(&mut self, attacker: &str, defender: &str) {
        if self.in_battle(attacker) || self.in_battle(defender) {
            return;
        }
        let Some(board) = self.force(attacker).and_then(|f| f.board().cloned()) else { return };
        if self.force(defender).and_then(|f| f.board()) != Some(&board) {
            return;
        }
        let sighted = |by: &str, of: &str| self.force(by).is_some_and(|f| f.sighted.contains(of));
        let attackers_detected = sighted(attacker, defender);
        let defenders_detected = sighted(defender, attacker);
        let kind = self.file.map.board(&board).map(|b| b.kind).unwrap_or(BoardKind::Land(MapTerrain::Open));
        let mut situation = Situation::new(terrain(kind), self.paper_attitude(defender));
        situation.attackers_detected_defenders = attackers_detected;
        situation.defenders_detected_attackers = defenders_detected;
        situation.defender_rationed = self.force(defender).is_some_and(|f| f.supply.mode == Mode::Rationed);
        let guns = self.force(attacker).map_or(0, |f| f.heavy_guns());
        if guns > 0 && attackers_detected {
            situation.barrage = self.decision(attacker, &format!("barrage {defender} before the attack"), true);
        }
        let engagement = Engagement::start(
            &self.file.map,
            &self.occupation[&board],
            &[attacker, defender],
            self.stamp(),
            self.conditions,
        )
        .ok()
        .map(|(e, _)| e);
        if let Some(occ) = self.occupation.get_mut(&board) {
            let _ = occ.enter_board(attacker);
        }
        self.log(
            RuleEvent::new(EventKind::PaperBattle, fyow("33.7 Contact Session"))
                .actor(attacker)
                .target(defender)
                .input("board", &board, "")
                .input("terrain", situation.terrain, "33.3 the Map Board's description")
                .input("defender_attitude", situation.defender_attitude, "")
                .input("attackers_detected_defenders", attackers_detected, "16: the attacking force's own throw")
                .input("defenders_detected_attackers", defenders_detected, "16.4: the defending force's own throw")
                .input("barrage", situation.barrage, "the attacking BC's Command Decision")
                .outcome(json!({ "combat_from": "the next session", "table_battle": engagement.is_some() })),
        );
        self.note_attack(defender);
        self.battles.push(PaperBattle {
            board,
            attacker: attacker.to_owned(),
            defender: defender.to_owned(),
            situation,
            contact: self.date,
            combat_sessions: 0,
            engagement,
            table: None,
            joined: Vec::new(),
            partisans: None,
        });
        let k = self.battles.len() - 1;
        self.partisans_join(k);
    }

    /// The battles whose Combat Session is due this session (their contact
    /// came before it), as (attacker, defender), in the order they are fought.
    pub fn due_battles(&self) -> Vec<(String, String)> {
        self.battles
            .iter()
            .filter(|b| b.contact < self.date)
            .map(|b| (b.attacker.clone(), b.defender.clone()))
            .collect()
    }

    /// Fights the Combat Session of every battle whose contact came before this session.
    pub(crate) fn resolve_battles(&mut self, mut table: Option<&mut dyn Tabletop>) {
        for (a, d) in self.due_battles() {
            self.resolve_battle(&a, &d, table.as_mut().map(|t| &mut **t as &mut dyn Tabletop));
        }
    }

    /// The battle of `attacker` on `defender`, if it is being fought.
    pub fn battle_of(&self, attacker: &str, defender: &str) -> Option<usize> {
        self.battles.iter().position(|b| b.attacker == attacker && b.defender == defender)
    }

    /// Whether the battle can go to the table: the campaign has what a table
    /// battle starts from (FYOW 15.6).
    pub fn fielded(&self, k: usize) -> bool {
        self.battles.get(k).is_some_and(|b| b.engagement.is_some() || b.table.is_some())
    }

    /// One Combat Session of the battle of `attacker` on `defender`: on
    /// `table` when one is given and the battle can be fielded there, else on
    /// paper (FYOW 33.7).
    pub fn resolve_battle(&mut self, attacker: &str, defender: &str, table: Option<&mut dyn Tabletop>) {
        let Some(k) = self.battle_of(attacker, defender) else { return };
        let over = match table {
            Some(t) if self.fielded(k) => match self.table_session(k, t) {
                Ok(over) => over,
                Err(why) => self.paper_instead(k, &why),
            },
            _ => self.fight_session(k),
        };
        if over {
            self.battles.retain(|b| !(b.attacker == attacker && b.defender == defender));
        }
    }

    /// Battle `attacker` on `defender`'s start for this session's bounds on
    /// a table the game plays itself (a Player commanding a side, or Auto
    /// watched): `None` when the table cannot field it, and then this
    /// session has been fought on paper instead, as [`Campaign::resolve_battle`]
    /// would. The result goes back with [`Campaign::finish_on_table`].
    pub fn start_on_table(&mut self, attacker: &str, defender: &str, t: &dyn Tabletop) -> Option<BattleStart> {
        let k = self.battle_of(attacker, defender)?;
        match self.prepare_table(k, t) {
            Ok(start) => Some(start),
            Err(why) => {
                if self.paper_instead(k, &why) {
                    self.battles.remove(k);
                }
                None
            }
        }
    }

    /// A battle begun with [`Campaign::start_on_table`] that the game could
    /// not set up: this session goes to paper instead, said so.
    pub fn table_refused(&mut self, attacker: &str, defender: &str, why: &str) {
        let Some(k) = self.battle_of(attacker, defender) else { return };
        if self.paper_instead(k, why) {
            self.battles.remove(k);
        }
    }

    /// The result of the session's bounds of a battle begun with
    /// [`Campaign::start_on_table`], carried back to the campaign.
    pub fn finish_on_table(&mut self, attacker: &str, defender: &str, result: BattleResult, t: &dyn Tabletop) {
        let Some(k) = self.battle_of(attacker, defender) else { return };
        if self.in_step(|c| c.finish_table(k, result, t)) {
            self.battles.remove(k);
        }
    }

    /// A battle the table cannot field goes to paper, said so.
    fn paper_instead(&mut self, k: usize, why: &str) -> bool {
        self.log_refusal("15.6 Engagements on Map Boards", &format!("not on the table: {why}"));
        self.battles[k].engagement = None;
        self.battles[k].table = None;
        self.fight_session(k)
    }

    /// A paper force for a side of a battle, with the machines of the
    /// ground-attack squadron supporting it still flying (33.7.3 (ix)).
    pub(crate) fn paper_force(&self, name: &str, squadron: Option<usize>) -> Force {
        let f = self.force(name).expect("a force in battle");
        let offshore = self.fx(name).map(|i| super::landing::offshore(self, i)).unwrap_or_default();
        let ashore = |e: &&crate::army::battlegroup::Element| !offshore.contains(&e.name);
        let points = f.battlegroup.elements.iter().filter(ashore).map(|e| e.points).sum();
        let mut force = Force::new(name, points);
        let kit = |e: &crate::army::battlegroup::Element| f.kit.iter().find(|k| k.name == e.name).map(|k| k.heavy_guns);
        force.heavy_guns = f.battlegroup.elements.iter().filter(ashore).filter_map(kit).sum();
        force.commander = Self::dunnigan_competency(f.commander.competency);
        force.movement_allowance_left = f.movement.allowance.remaining() > 0;
        if let (Some(k), Some(air)) = (squadron, self.army(f.side).air.as_ref()) {
            force.machines = air.squadrons[k].0.operational() as u32;
        }
        force
    }

    /// One Combat Session of battle `k` (33.7.2–33.7.3); returns whether the battle is over.
    pub(crate) fn fight_session(&mut self, k: usize) -> bool {
        let b = self.battles[k].clone();
        let (Some(_), Some(_)) = (self.force(&b.attacker), self.force(&b.defender)) else { return true };
        if self.force(&b.attacker).is_some_and(|f| f.is_gone()) || self.force(&b.defender).is_some_and(|f| f.is_gone())
        {
            return true;
        }
        let mut situation = b.situation.clone();
        let pos = |n: &str| self.activated.iter().position(|x| x == n);
        situation.defender_activated_first =
            matches!((pos(&b.defender), pos(&b.attacker)), (Some(d), Some(a)) if d < a);
        if b.combat_sessions > 0 {
            // 33.7.3 (x): after an NR the further Combat Session begins, like the
            // first, with the attackers' optional barrage (33.7.2 (iv)).
            let guns = self.force(&b.attacker).map_or(0, |f| f.heavy_guns());
            situation.barrage = guns > 0
                && situation.attackers_detected_defenders
                && situation.engagement == Fight::NrContinuation
                && self.decision(&b.attacker, &format!("barrage {} again after an NR", b.defender), true);
        }
        situation.counter_battery = false;
        let guns = self.force(&b.defender).map_or(0, |f| f.heavy_guns());
        if guns > 0
            && situation.defenders_detected_attackers
            && !situation.defender_activated_first
            && situation.engagement != Fight::SecondBattle
        {
            situation.counter_battery =
                self.decision(&b.defender, &format!("counter-battery fire on {}", b.attacker), true);
        }
        // 28.8–28.11: aircraft over the battle strike before the CRT is thrown.
        let air = self.in_step(|c| c.air_over_battle(&b.attacker, &b.defender));
        if self.force(&b.attacker).is_none_or(|f| f.is_gone()) || self.force(&b.defender).is_none_or(|f| f.is_gone()) {
            return true;
        }
        let attacker = self.with_partisans(b.partisans, self.paper_force(&b.attacker, air.attacker));
        let defender = self.with_partisans(b.partisans, self.paper_force(&b.defender, air.defender));
        let session = match resolve_combat_session(&attacker, &defender, &situation, &mut self.dice) {
            Ok(s) => s,
            Err(e) => {
                self.log_refusal(e.section, &e.message);
                return true;
            }
        };
        self.log_step(session.events.clone());
        self.battles[k].combat_sessions += 1;
        for (o, name, squadron, value) in [
            (&session.attacker, &b.attacker, air.attacker, attacker.value),
            (&session.defender, &b.defender, air.defender, defender.value),
        ] {
            let loss = self.partisan_losses(b.partisans, name, o.barrage_loss + o.battle_loss, value);
            self.book_losses(name, loss, o.condition);
            if let Some(s) = &o.supplemental {
                if s.ammo == AmmoUsed::AllAndStockpileLost
                    && let Some(i) = self.fx(name)
                {
                    let lost = self.forces[i].supply.stockpile();
                    let e = self.forces[i].supply.lose_stockpile(lost, name);
                    self.log(e);
                }
                if let Some(k) = squadron {
                    self.in_step(|c| c.air_damage(name, k, &s.machine_damage, s.machines_lost));
                }
            }
        }
        // A force that lost its last element (33.10) has left the campaign,
        // and its battle with it.
        let still = self.battles.get(k).filter(|x| x.attacker == b.attacker && x.defender == b.defender);
        let Some(sessions) = still.map(|x| x.combat_sessions) else {
            let winner = [&b.attacker, &b.defender].into_iter().find(|n| self.force(n).is_some_and(|f| !f.is_gone()));
            self.partisans_battle_over(b.partisans, winner.map(String::as_str), RetreatOrder::Disarray);
            self.fought.push(BattleRecord {
                board: b.board.clone(),
                attacker: b.attacker.clone(),
                defender: b.defender.clone(),
                began: b.contact.to_string(),
                combat_sessions: b.combat_sessions + 1,
                result: "a force lost its last element (33.10)".into(),
            });
            return true;
        };
        let (result, over) = match session.next {
            NextStep::FurtherCombatSession => {
                self.battles[k].situation = situation.continue_after_nr();
                // Either force may choose to retreat one board in good order
                // (33.7.3 (x)): the choice and the retreat are one step.
                self.in_step(|c| {
                    let mut broke_off = None;
                    for name in [&b.defender, &b.attacker] {
                        let weak = c.force(name).is_some_and(|f| {
                            f.condition == StrategicCondition::Red || f.points() * 4 < f.battlegroup.original_points
                        });
                        if weak {
                            let traits = c.force(name).map(|f| f.traits).expect("in battle");
                            let (yes, e) = traits.answer("break off and retreat in good order?", &mut c.dice, name);
                            c.log(e);
                            if yes {
                                broke_off = Some(name.clone());
                                break;
                            }
                        }
                    }
                    match broke_off {
                        Some(name) => {
                            let winner = if name == b.attacker { &b.defender } else { &b.attacker };
                            c.retreat(&name, RetreatOrder::GoodOrder, &b.board);
                            c.winner_takes(winner, &b.board);
                            c.partisans_battle_over(b.partisans, Some(winner.as_str()), RetreatOrder::GoodOrder);
                            (format!("NR; {name} broke off"), true)
                        }
                        None => ("NR".to_owned(), false),
                    }
                })
            }
            NextStep::Retreat { side, order } => {
                let (loser, winner) = match side {
                    PaperSide::Attacker => (&b.attacker, &b.defender),
                    PaperSide::Defender => (&b.defender, &b.attacker),
                };
                self.retreat(loser, order, &b.board);
                self.winner_takes(winner, &b.board);
                self.partisans_battle_over(b.partisans, Some(winner.as_str()), order);
                (format!("{loser} retreats in {order:?}"), true)
            }
            NextStep::Destroyed { side } => {
                let (loser, winner) = match side {
                    PaperSide::Attacker => (&b.attacker, &b.defender),
                    PaperSide::Defender => (&b.defender, &b.attacker),
                };
                self.remove_force(loser, "destroyed in battle (33.7.3 (viii))");
                self.winner_takes(winner, &b.board);
                self.partisans_battle_over(b.partisans, Some(winner.as_str()), RetreatOrder::Disarray);
                (format!("{loser} destroyed"), true)
            }
        };
        if over {
            self.fought.push(BattleRecord {
                board: b.board.clone(),
                attacker: b.attacker.clone(),
                defender: b.defender.clone(),
                began: b.contact.to_string(),
                combat_sessions: sessions,
                result,
            });
        }
        over
    }

    /// The winner stays; an attacker left alone on the board moves onto it.
    pub(crate) fn winner_takes(&mut self, winner: &str, board: &BoardId) {
        let Some(side) = self.force(winner).map(|f| f.side) else { return };
        if self.force(winner).and_then(|f| f.board()) != Some(board) {
            return;
        }
        if !self.occupation[board].occupants.iter().any(|o| o.side != side)
            && let Some(occ) = self.occupation.get_mut(board)
        {
            let _ = occ.enter_board(winner);
        }
    }

    /// FYOW 33.10: a loss in points made up from the force's ORBAT: the
    /// smallest elements first; an AFV may be reduced by up to half.
    ///
    /// Reading (FYOW 33.10): campaign elements are companies and troops, so
    /// when the loss left is smaller than the next element, that element
    /// loses the rest of the points (men or vehicles out of it) rather than
    /// being removed whole; AFVs by no more than half.
    pub(crate) fn book_losses(&mut self, name: &str, loss: u32, named: Option<StrategicCondition>) {
        let Some(i) = self.fx(name) else { return };
        let side = self.forces[i].side;
        let before = self.forces[i].condition;
        self.forces[i].table_condition = StrategicCondition::after_battle(self.forces[i].table_condition, named);
        self.forces[i].condition = before.max(self.forces[i].table_condition);
        // 12.2: the weekly throw follows a battlegroup's fall, not a Fraction's.
        if self.forces[i].condition > before && self.forces[i].is_battlegroup() {
            self.army_mut(side).reduced_since_review = true;
        }
        if loss == 0 {
            return;
        }
        let offshore = super::landing::offshore(self, i);
        let mut elements = self.forces[i].battlegroup.elements.clone();
        elements.retain(|e| !offshore.contains(&e.name));
        elements.sort_by_key(|e| (e.points, e.name.clone()));
        let mut left = loss;
        let mut assets = Vec::new();
        for e in &elements {
            if left <= 1 {
                break;
            }
            // An AFV already damaged is not reduced again: it goes whole (33.10).
            let afv = self.forces[i].kit.iter().any(|k| k.name == e.name && k.afv && k.points() == e.points);
            if e.points <= left {
                assets.push(AssetLoss::Removed { name: e.name.clone(), points: e.points });
                left -= e.points;
            } else if afv {
                let reduction = left.min(e.points / 2);
                assets.push(AssetLoss::AfvReduced { name: e.name.clone(), full_value: e.points, reduction });
                left -= reduction;
            } else {
                assets.push(AssetLoss::Removed { name: format!("part of {}", e.name), points: left });
                left = 0;
            }
        }
        let e = match allocate_losses(name, loss, &assets) {
            Ok((_, e)) => e,
            Err(e) => {
                self.log_refusal(e.section, &e.message);
                return;
            }
        };
        self.log(e);
        let mut casualties = 0;
        for a in &assets {
            let bg = &mut self.forces[i].battlegroup;
            match a {
                AssetLoss::Removed { name, points } => {
                    let whole = name.strip_prefix("part of ").unwrap_or(name);
                    if let Some(el) = bg.elements.iter_mut().find(|x| x.name == whole) {
                        el.points -= (*points).min(el.points);
                    }
                    casualties += points;
                    self.forces[i].repairs.retain(|j| j.vehicle != whole);
                }
                AssetLoss::AfvReduced { name, full_value, reduction } => {
                    if let Some(el) = bg.elements.iter_mut().find(|x| &x.name == name) {
                        el.points -= (*reduction).min(el.points);
                    }
                    // 33.10: "considered to be damaged"; its crew repairs it (23.1), so
                    // it is not a casualty for replenishment (21). Only its value fell:
                    // its CMS is 6, and the repair brings no Rallying throw (24.2).
                    if let Ok(job) = RepairJob::new(name, Points::whole(*full_value), MAX_CMS) {
                        self.forces[i].repairs.push(job);
                    }
                }
            }
        }
        let gone = self.book_casualties(i, casualties);
        self.after_losses(name, gone);
    }

    /// Books `casualties` points of force `i` for replenishment and drops
    /// its elements left with no points; returns whether none is left.
    /// 21.2: a Fraction's casualties are replenished back to its parent
    /// Battlegroup, a Fraction's Fraction's too (3.2).
    pub(crate) fn book_casualties(&mut self, i: usize, casualties: u32) -> bool {
        let name = self.forces[i].name.clone();
        let booked_to = self.root_battlegroup(i);
        self.forces[booked_to].losses.record(
            &format!("losses of {name}"),
            LossKind::Casualty,
            Points::whole(casualties),
        );
        self.forces[i].battlegroup.elements.retain(|e| e.points > 0);
        self.forces[i].battlegroup.elements.is_empty()
    }

    /// After force `name` has taken losses: gone when no element is left
    /// (33.10), else its value and Strategic Milestones tested anew.
    pub(crate) fn after_losses(&mut self, name: &str, gone: bool) {
        if gone {
            self.remove_force(name, "no elements left (33.10)");
        } else {
            self.sync_points(name);
            self.milestone_tests(name);
        }
    }

    /// FYOW 2, 33.9: the FYOB Strategic Milestone tests on the battlegroup's
    /// value, which stands for its CMT; a fall past a milestone may drop its
    /// condition, a recovery above one may restore it.
    ///
    /// Reading (FYOW 2 "Refer to FYOB to determine the Strategic Condition of
    /// the Battlegroup and the Strategic Condition Milestone percentage"): on
    /// the map a battlegroup has no CMS to total, so its points value is its
    /// CMT; FYOB's Yellow is FYOW's Amber, and a FYOB withdrawal leaves the
    /// battlegroup at Red, withdrawing (10.4). The worse of this and the
    /// Dunnigan losses table stands.
    pub(crate) fn milestone_tests(&mut self, name: &str) {
        use warbound_rules::strategic::StrategicCondition as Fyob;
        let Some(i) = self.fx(name) else { return };
        let points = self.forces[i].points();
        let rationed = self.forces[i].supply.mode == Mode::Rationed;
        let Ok((tests, e)) = self.forces[i].milestones.milestone_tests(points, rationed, &mut self.dice, name) else {
            return;
        };
        if tests.is_empty() {
            return;
        }
        self.log_applied(e);
        let fyob = match self.forces[i].milestones.condition() {
            Fyob::Green => StrategicCondition::Green,
            Fyob::Yellow => StrategicCondition::Amber,
            Fyob::Red | Fyob::Withdrawn => StrategicCondition::Red,
        };
        let before = self.forces[i].condition;
        let side = self.forces[i].side;
        // Milestone re-takes may repair what milestones took; the table's condition stays (33.9).
        self.forces[i].condition = fyob.max(self.forces[i].table_condition);
        if self.forces[i].milestones.condition() == Fyob::Withdrawn {
            self.forces[i].withdrawn = true;
        }
        if self.forces[i].condition != StrategicCondition::Red {
            self.forces[i].withdrawn = false;
        }
        if self.forces[i].condition > before && self.forces[i].is_battlegroup() {
            self.army_mut(side).reduced_since_review = true;
        }
    }

    /// Damage to the supporting squadron's machines still flying (33.7.3 (ix)).
    fn air_damage(&mut self, name: &str, k: usize, damage: &[u8], all_lost: bool) {
        let Some(side) = self.force(name).map(|f| f.side) else { return };
        let Some(mut air) = self.army_mut(side).air.take() else { return };
        let sq = &mut air.squadrons[k].0;
        for (n, m) in sq.flying().into_iter().enumerate() {
            let d = if all_lost { u8::MAX } else { damage.get(n).copied().unwrap_or(0) };
            if d > 0
                && let Ok((_, mut e)) = sq.take_damage(m, d.min(sq.aircraft[m].strength.saturating_add(1)))
            {
                e.rule = fyow("33.7.3 (ix) Supplemental Effects");
                self.log(e.actor(name));
            }
        }
        self.army_mut(side).air = Some(air);
    }

    /// A force leaves the campaign.
    pub(crate) fn remove_force(&mut self, name: &str, why: &str) {
        let Some(i) = self.fx(name) else { return };
        if let Some(b) = self.forces[i].board().cloned()
            && let Some(occ) = self.occupation.get_mut(&b)
        {
            let _ = occ.leave(name);
        }
        self.forces[i].at = Whereabouts::Gone;
        self.lose_sight_of(name);
        let side = self.forces[i].side;
        if self.forces[i].is_battlegroup() {
            self.army_mut(side).reduced_since_review = true;
        }
        self.battles.retain(|b| b.attacker != name && b.defender != name);
        for b in &mut self.battles {
            b.joined.retain(|j| j != name);
        }
        self.log_applied(
            RuleEvent::new(EventKind::Battlegroup, fyow("33.10 Loss of Combat Value by attrition"))
                .actor(name)
                .outcome(json!({ "gone": why })),
        );
    }

    /// FYOW 33.8: the loser moves one Map Board away from the enemy,
    /// automatically (14.14); with it go the friendly forces on the board
    /// that were not engaged (33.7 (xii)).
    fn retreat(&mut self, name: &str, order: RetreatOrder, from: &BoardId) {
        self.retreat_as(name, order, from, Retreat::Dunnigan);
    }

    /// A retreat from `from`, automatic after the Dunnigan rules (33.8) or
    /// by a Movement Test with +1 after a Strategic Condition test (14.14):
    /// a force that fails that test stays. Returns whether it left.
    pub(crate) fn retreat_as(&mut self, name: &str, order: RetreatOrder, from: &BoardId, how: Retreat) -> bool {
        let Some(i) = self.fx(name) else { return false };
        let side = self.forces[i].side;
        let bystanders: Vec<String> = self
            .forces_on(from, side)
            .iter()
            .map(|f| f.name.clone())
            .filter(|n| n != name && !self.in_battle(n))
            .collect();
        // A retreat is one step: where to, the move, its disorder.
        if !self.in_step(|c| c.retreat_one(name, order, from, how)) {
            return false;
        }
        for b in bystanders {
            self.in_step(|c| {
                let (retreats, e) = bystander_retreats(&b, false);
                c.log(e);
                if retreats {
                    c.retreat_one(&b, RetreatOrder::GoodOrder, from, Retreat::Dunnigan);
                }
            });
        }
        true
    }

    fn retreat_one(&mut self, name: &str, order: RetreatOrder, from: &BoardId, how: Retreat) -> bool {
        let Some(i) = self.fx(name) else { return false };
        let f = &self.forces[i];
        let side = f.side;
        let v = f.mover().profile().is_ok_and(|p| p.v_barred);
        let home: Vec<BoardId> = self.army(side).home.clone();
        let distance = |c: &Campaign, b: &BoardId| {
            home.iter().filter_map(|h| c.road_route(b, h, v).map(|r| r.len())).min().unwrap_or(99)
        };
        let mut options: Vec<(u8, usize, crate::map::board::Leg)> = self
            .land_legs(from, v)
            .into_iter()
            .map(|leg| {
                let enemy = self.occupation[&leg.to].side_points(side.enemy());
                (u8::from(enemy > 0), distance(self, &leg.to), leg)
            })
            .collect();
        options.sort_by(|a, b| (a.0, a.1, &a.2.to.0).cmp(&(b.0, b.1, &b.2.to.0)));
        let value = f.points();
        let Some((_, _, leg)) = options.into_iter().find(|(_, _, leg)| {
            let board = self.file.map.board(&leg.to).expect("map board");
            let mut trial = self.occupation[&leg.to].clone();
            trial.arrive(board, self.file.max_points(), self.arriving(&self.forces[i], leg.arrival_edge)).is_ok()
        }) else {
            // Nowhere to go but the sea, or every board full: the force surrenders.
            let (_, e) = retreat_into(name, value, order, RetreatDestination::SeaOrLake);
            self.log(e);
            self.remove_force(name, "surrendered: no board to retreat to (33.8)");
            return true;
        };
        let enemy = self.occupation[&leg.to].side_points(side.enemy());
        let destination =
            if enemy > 0 { RetreatDestination::Enemy { value: enemy } } else { RetreatDestination::Clear };
        let (fate, e) = retreat_into(name, value, order, destination);
        self.log(e);
        if fate == RetreatFate::Surrenders {
            self.remove_force(name, "surrendered retreating into the enemy (33.8)");
            return true;
        }
        let attempt = MoveAttempt { retreat: Some(how), ..MoveAttempt::new(leg.clone(), self.conditions) };
        let mover = self.forces[i].mover();
        let mut state = self.forces[i].movement.clone();
        if let Ok((moved, e)) = crate::map::movement::movement_test(name, &mover, &mut state, &attempt, &mut self.dice)
        {
            self.log(e);
            self.forces[i].movement = state;
            // 14.14: "If the Battlegroup fails to make a move during the
            // session, it must continue its tabletop action".
            if how == Retreat::StrategicCondition && !moved.moved {
                return false;
            }
        }
        if self.relocate(name, from, &leg.to, leg.arrival_edge).is_err() {
            self.remove_force(name, "surrendered: could not retreat (33.8)");
            return true;
        }
        // 14.14: "If successful, it arrives on the new Map Board in disordered
        // Line of March fashion. The elements dice for position in this line."
        // Reading (FYOW 14.14): the Dunnigan retreat, "automatic" without the
        // test, arrives disordered too (test
        // `a_retreat_arrives_in_a_disordered_line_of_march_until_it_next_moves`).
        if let Some(order) = self.forces[i].order_of_march() {
            let (line, e) = crate::map::march::disordered_line_of_march(name, &order, &mut self.dice);
            self.forces[i].disordered = Some(line.elements().iter().map(|e| e.element.clone()).collect());
            self.log_applied(e);
        }
        if enemy == 0 {
            let _ = self.occupation.get_mut(&leg.to).map(|o| o.enter_board(name));
        } else {
            // 16: arriving where the enemy is, it throws to detect him, led
            // by whatever heads its line.
            self.after_arrival(name, &leg.to);
        }
        if order == RetreatOrder::Disarray
            && let Some(o) = self.occupant_mut(name)
        {
            let e = o.attitude.fall_into_disarray(name);
            self.log(e);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::board::RouteKind;
    use crate::map::common::Edge;
    use crate::play::file::CampaignFile;
    use crate::play::file::tests::SMALL;

    #[test]
    fn a_retreat_arrives_in_a_disordered_line_of_march_until_it_next_moves() {
        // 14.14 "If successful, it arrives on the new Map Board in disordered
        // Line of March fashion. The elements dice for position in this line."
        let mut recce_heads = [0, 0];
        for seed in 0..20 {
            let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), seed).unwrap();
            let i = c.fx("Red 1").unwrap();
            let first = c.forces[i].battlegroup.elements[0].name.clone();
            c.forces[i].kit.iter_mut().filter(|k| k.name == first).for_each(|k| k.recce = true);
            assert!(c.forces[i].recce_led(), "a recce element heads its Order of March");
            let from = c.forces[i].board().unwrap().clone();
            c.drain_events();
            assert!(c.retreat_as("Red 1", RetreatOrder::Disarray, &from, Retreat::Dunnigan));
            let Some(i) = c.fx("Red 1").filter(|&i| !c.forces[i].is_gone()) else { continue };
            let events = c.drain_events();
            let e = events.iter().find(|e| e.rule.section == "14.14 Movement in retreat").expect("the line is thrown");
            let line = c.forces[i].disordered.clone().expect("it arrives disordered");
            let mut names: Vec<String> = c.forces[i].battlegroup.elements.iter().map(|e| e.name.clone()).collect();
            let mut sorted = line.clone();
            names.sort();
            sorted.sort();
            assert_eq!(sorted, names, "seed {seed}: every element has its place in the line");
            let faces: Vec<u8> = e.dice.iter().map(|d| d.face).collect();
            assert_eq!(faces.len(), line.len(), "a D6 an element");
            assert_eq!(
                c.forces[i].recce_led(),
                line[0] == first,
                "seed {seed}: recce-led only with the recce at the head"
            );
            recce_heads[usize::from(line[0] == first)] += 1;
            // Its next move by its orders forms its Order of March again.
            c.forces[i].disordered = Some(line);
            let here = c.forces[i].board().unwrap().clone();
            let road = |l: &&crate::map::board::Link| {
                (l.from == here || l.to == here)
                    && matches!(l.route.kind(), RouteKind::MetalledRoad | RouteKind::SecondaryRoad)
            };
            let Some(leg) = c.file.map.links.iter().find(road).cloned() else { continue };
            let to = if leg.from == here { leg.to } else { leg.from };
            c.forces[i].movement = crate::map::movement::MovementState::new_day(3, None);
            let route = leg.route.kind();
            if let Ok(crate::play::command::MoveResult::Arrived | crate::play::command::MoveResult::Contact) =
                c.move_force("Red 1", &to, route)
            {
                assert!(c.force("Red 1").unwrap().disordered.is_none(), "seed {seed}: reformed on the march");
            }
        }
        assert!(recce_heads[0] > 0 && recce_heads[1] > 0, "the dice put the recce at the head or not: {recce_heads:?}");
    }

    #[test]
    fn the_fifth_decision_is_the_last_of_an_activation() {
        // 8: "Battlegroup Commanders may make a maximum of 5 decisions during each
        // activation but may not attempt to make the same (or a similar) decision
        // twice in the same activation."
        let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), 1).unwrap();
        let asked = |c: &mut Campaign| c.drain_events().iter().filter(|e| e.rule.section.starts_with("8.1")).count();
        c.drain_events();
        c.decision("Red 1", "the same question", false);
        c.decision("Red 1", "the same question", false);
        assert_eq!(asked(&mut c), 1, "not twice in one activation");
        for q in 0..6 {
            c.decision("Red 1", &format!("question {q}"), false);
        }
        assert_eq!(asked(&mut c), 4, "five in all");
        c.decision("Red 2", "question 0", false);
        assert_eq!(asked(&mut c), 1, "another commander has his own");
        c.play_session_with(None);
        c.drain_events();
        c.decision("Red 1", "the same question", false);
        assert_eq!(asked(&mut c), 1, "a new session, a new activation");
    }

    #[test]
    fn a_further_combat_session_after_an_nr_offers_a_new_barrage() {
        // 33.7.3 (x) "If the combat result is "NR", this session automatically
        // becomes a further Combat session with the attacker referring to 33.7.2
        // above", which begins with "an optional pre-combat artillery barrage".
        let mut fired = 0;
        for seed in 0..20 {
            let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), seed).unwrap();
            c.relocate("Blue 1", &BoardId::new("Sea"), &BoardId::new("Town"), Edge::West).unwrap();
            c.sight("Red 2", "Blue 1");
            c.start_battle("Red 2", "Blue 1");
            c.battles[0].combat_sessions = 1;
            c.battles[0].situation = c.battles[0].situation.continue_after_nr();
            c.drain_events();
            c.fight_session(0);
            let events = c.drain_events();
            let asked = events
                .iter()
                .find(|e| {
                    e.rule.section.starts_with("8.1")
                        && e.inputs.iter().any(|i| i.value == "barrage Blue 1 again after an NR")
                })
                .unwrap_or_else(|| panic!("seed {seed}: the attackers' Command Decision is asked"));
            let barrage = events.iter().any(|e| e.rule.section == "33.7.2 (iv) Pre-combat artillery barrage");
            assert_eq!(barrage, asked.outcome["success"] == true, "seed {seed}: the barrage follows the decision");
            fired += usize::from(barrage);
        }
        assert!(fired > 0);
    }
}
