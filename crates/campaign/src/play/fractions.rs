//! Fractions in play (FYOW 3): an Auto battlegroup that moves on from an
//! objective its army has taken leaves a company behind as a Fraction to
//! garrison it (3.4: "a company has been left to garrison a captured
//! village"), and its BC takes the Fraction back by a Command Decision when
//! both stand on one Map Board and the battlegroup is going no further
//! (3.7 Ending a fraction), and merges his Fractions that stand together
//! on another board into one (3.7 Merging Fractions). A player ends or
//! merges Fractions by the same steps.

use serde_json::json;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::army::battlegroup::ElementClass;
use crate::army::fraction::Fraction;
use crate::army::orders::OrderKind;
use crate::map::board::BoardId;
use crate::map::common::ForceKind;
use crate::map::movement::MoverClass;
use crate::paper::dunnigan::StrategicCondition;
use crate::play::state::{Campaign, CampaignError, Force, Whereabouts, fyow};
use crate::supply::logistics::Action;

/// A battlegroup leaves a garrison only while this many elements or more
/// remain to it: a company of a battalion, not half of a half.
const KEEPS_AT_LEAST: usize = 3;

/// The element a battlegroup leaves to garrison a board: the smallest of its
/// line companies of foot or lorried infantry (of the kind it has most of),
/// of its own (an element attached from Brigade needs a second decision,
/// 3.3), none when it has too few to spare.
///
/// Reading (FYOW 3): "a Fraction is typically based on a company-sized
/// formation", left "to garrison a captured village": infantry, never the
/// guns, the armour or the recce the battlegroup goes on with (test
/// `a_battlegroup_leaves_a_company_to_hold_the_objective_it_took`).
pub(super) fn garrison_element(f: &Force) -> Option<String> {
    let elements = &f.battlegroup.elements;
    if elements.len() <= KEEPS_AT_LEAST {
        return None;
    }
    let infantry: Vec<(&crate::army::battlegroup::Element, &crate::play::file::ElementFile)> = elements
        .iter()
        .filter(|e| !e.attached && matches!(e.class, ElementClass::Line | ElementClass::SpecialPurpose))
        .filter(|e| e.points * 2 <= f.battlegroup.original_points)
        .filter_map(|e| f.kit.iter().find(|k| k.name == e.name).map(|k| (e, k)))
        .filter(|(_, k)| {
            matches!(
                k.mover,
                MoverClass::RegularInfantry
                    | MoverClass::SpecialForces
                    | MoverClass::BicycleTroops
                    | MoverClass::HalfTracks
                    | MoverClass::TrackedCarriers
            ) && !k.afv
                && !k.recce
                && k.heavy_guns == 0
                && k.foo.is_none()
                && k.aa.is_empty()
        })
        .collect();
    // Its line companies are the kind it has most of (three rifle companies
    // to one of heavy weapons): the smallest of them.
    let kind = |k: &crate::play::file::ElementFile| infantry.iter().filter(|(_, x)| x.table == k.table).count();
    infantry.iter().min_by_key(|(e, k)| (std::cmp::Reverse(kind(k)), e.points)).map(|(e, _)| e.name.clone())
}

impl Campaign {
    /// FYOW 3.4: the Auto BC of `name`, about to move off `here`, an
    /// objective his army holds where no other force of his side stands,
    /// leaves a company there as a Fraction under Defend orders. Its
    /// creation is his Command Decision (`split_fraction`); a player's
    /// battlegroups split only by his Fraction command.
    pub(crate) fn leave_garrison(&mut self, name: &str, here: &BoardId) {
        let Some(i) = self.fx(name) else { return };
        let f = &self.forces[i];
        let side = f.side;
        if !f.is_battlegroup()
            || self.player == Some(side)
            || !self.army(side).objectives.contains(here)
            || self.held.get(here) != Some(&side)
            || self.occupation[here].occupants.iter().any(|o| o.side == side && o.force != name)
            || f.supply.permits(Action::CreateFraction).is_err()
        {
            return;
        }
        let Some(element) = garrison_element(f) else { return };
        let fraction = format!("{element} (garrison of {here})");
        if self.fx(&fraction).is_some() {
            return;
        }
        let commander = f.commander.name.clone();
        if let Err(e) = self.split_fraction(name, &fraction, std::slice::from_ref(&element)) {
            self.log_refusal(&e.section, &e.message);
            return;
        }
        // Refused by the Command Decision: no Fraction, the battlegroup goes on whole.
        let Some(k) = self.fx(&fraction) else { return };
        // 3.4: "Orders are issued immediately to the Fraction by the BC."
        self.forces[k].order = OrderKind::Defend;
        self.forces[k].objective = None;
        self.forces[k].pending_orders = None;
        self.log_applied(
            RuleEvent::new(EventKind::CommandDecision, fyow("3.4 Creating a fraction"))
                .actor(&commander)
                .target(&fraction)
                .input("board", here, "an objective its army holds, which its battlegroup leaves")
                .outcome(json!({ "order": OrderKind::Defend, "garrison": here })),
        );
    }

    /// FYOW 3.7: the Auto BC of `name` dissolves each Fraction of his on his
    /// Map Board, unless his battlegroup is about to go on to an objective
    /// beyond it (its garrison stays then). Reading: a battlegroup falling
    /// back, defending, or withdrawing at Red gathers its companies in.
    pub(crate) fn gather_fractions(&mut self, name: &str) {
        let Some(i) = self.fx(name) else { return };
        let f = &self.forces[i];
        let Some(board) = f.board().cloned() else { return };
        if !f.is_battlegroup() || self.player == Some(f.side) {
            return;
        }
        let going_on = f.condition != StrategicCondition::Red
            && f.order.moves()
            && f.objective.as_ref().is_some_and(|o| *o != board);
        if going_on {
            return;
        }
        let fractions: Vec<String> = self
            .forces
            .iter()
            .filter(|x| {
                x.kind == ForceKind::Fraction
                    && x.parent.as_deref() == Some(name)
                    && x.board() == Some(&board)
                    && x.first_activation.is_none()
                    && !self.in_battle(&x.name)
            })
            .map(|x| x.name.clone())
            .collect();
        for fraction in fractions {
            if let Err(e) = self.end_fraction(&fraction) {
                self.log_refusal(&e.section, &e.message);
            }
        }
    }

    /// FYOW 3.7 Merging Fractions: the Auto BC of `name`, when activated,
    /// merges his Fractions that stand together on one Map Board, none of
    /// them fighting, two at a time. The one in the best supply leads
    /// ("The circumstances of the joining Fractions may thus dictate the
    /// choice of new Officer"): Active before Rationed before at Rest, then
    /// the larger Stockpile, then the larger.
    ///
    /// Reading (FYOW 3.7 "can merge any of his Fractions together"): the
    /// rule leaves when to the BC; two of his companies on one board hold it
    /// as one, under one BPC and one supply line (test
    /// `the_auto_bc_merges_two_of_his_fractions_that_meet_under_the_better_supplied`).
    pub(crate) fn merge_met_fractions(&mut self, name: &str) {
        let Some(i) = self.fx(name) else { return };
        if !self.forces[i].is_battlegroup() || self.player == Some(self.forces[i].side) {
            return;
        }
        let mut refused: Vec<(String, String)> = Vec::new();
        loop {
            let ours: Vec<usize> = (0..self.forces.len())
                .filter(|&k| {
                    let x = &self.forces[k];
                    x.kind == ForceKind::Fraction
                        && !x.is_gone()
                        && x.first_activation.is_none()
                        && self.root_battlegroup(k) == i
                        && !self.in_battle(&x.name)
                })
                .collect();
            let supplied = |k: usize| {
                let s = &self.forces[k].supply;
                let mode = match s.mode {
                    crate::supply::logistics::Mode::Active => 2,
                    crate::supply::logistics::Mode::Rationed => 1,
                    crate::supply::logistics::Mode::Rest => 0,
                };
                (mode, s.stockpile(), self.forces[k].points())
            };
            let pair = ours.iter().find_map(|&a| {
                let a_name = &self.forces[a].name;
                self.fractions_beside(a_name)
                    .into_iter()
                    .filter_map(|b| self.fx(b).filter(|j| ours.contains(j)))
                    .find(|&b| !refused.contains(&(a_name.clone(), self.forces[b].name.clone())))
                    .map(|b| if supplied(b) > supplied(a) { (b, a) } else { (a, b) })
            });
            let Some((lead, other)) = pair else { return };
            let (lead, other) = (self.forces[lead].name.clone(), self.forces[other].name.clone());
            if let Err(e) = self.merge_fractions(&lead, &other) {
                self.log_refusal(&e.section, &e.message);
            }
            // A failed decision (or a refusal) is not asked again this activation.
            if self.fx(&other).is_some_and(|k| !self.forces[k].is_gone()) {
                refused.push((lead.clone(), other.clone()));
                refused.push((other, lead));
            }
        }
    }

    /// The Fractions `fraction` may merge with (FYOW 3.7): its battlegroup's
    /// others standing on its Map Board.
    pub fn fractions_beside(&self, fraction: &str) -> Vec<&str> {
        let Some(k) = self.fx(fraction) else { return Vec::new() };
        let f = &self.forces[k];
        if f.kind != ForceKind::Fraction || f.is_gone() || f.board().is_none() {
            return Vec::new();
        }
        let root = self.root_battlegroup(k);
        (0..self.forces.len())
            .filter(|&j| {
                let x = &self.forces[j];
                j != k
                    && x.kind == ForceKind::Fraction
                    && !x.is_gone()
                    && x.board() == f.board()
                    && self.root_battlegroup(j) == root
            })
            .map(|j| self.forces[j].name.as_str())
            .collect()
    }

    /// FYOW 3.7 Merging Fractions: the BC of the battlegroup both Fractions
    /// belong to merges `other` into `lead` by a Command Decision, once the
    /// two stand on one Map Board and neither is fighting. The merged
    /// Fraction keeps `lead`'s name, officer, orders and supply (its
    /// Stockpile, Rest or Rationed); `other`'s elements, their orders of
    /// battle and repairs join it, its Stockpile is discarded and it leaves
    /// the map, its BPC the pack. A failed decision changes nothing but the
    /// decision spent.
    ///
    /// Reading (FYOW 3.7): the book names no place; Fractions merge where
    /// they stand together, as a Fraction ends on its parent's board.
    pub(crate) fn merge_fractions(&mut self, lead: &str, other: &str) -> Result<(), CampaignError> {
        let k = self.live(lead)?;
        let j = self.live(other)?;
        for x in [k, j] {
            if self.forces[x].kind != ForceKind::Fraction {
                return Err(CampaignError::new("3.7", format!("{} is not a Fraction", self.forces[x].name)));
            }
        }
        if k == j {
            return Err(CampaignError::new("3.7", format!("{lead} cannot merge with itself")));
        }
        let r = self.root_battlegroup(k);
        if self.root_battlegroup(j) != r {
            return Err(CampaignError::new(
                "3.7",
                format!("{lead} and {other} are Fractions of different battlegroups"),
            ));
        }
        let bg_name = self.forces[r].name.clone();
        if self.forces[r].is_gone() {
            return Err(CampaignError::new(
                "3.7",
                format!("{bg_name} is no longer in the campaign: no Battlegroup Commander merges its Fractions"),
            ));
        }
        let board = self.forces[k].board().cloned();
        if board.is_none() || self.forces[j].board() != board.as_ref() {
            return Err(CampaignError::new("3.7", format!("{lead} and {other} must stand on one Map Board to merge")));
        }
        for x in [k, j] {
            let name = &self.forces[x].name;
            if self.in_battle(name) {
                return Err(CampaignError::new("15.8", format!("{name} is engaged in a battle")));
            }
            if self.forces[x].first_activation.is_some() {
                return Err(CampaignError::new("3.5", format!("{name} has not had its first activation")));
            }
        }
        let parts = [self.fraction_record(k), self.fraction_record(j)];
        let mut merged = self.forces[k].battlegroup.clone();
        merged
            .add_elements(self.forces[j].battlegroup.elements.clone())
            .map_err(|e| CampaignError::new("3.7", e.to_string()))?;
        let decision = self.commander_decision(r, &format!("merge the Fraction {other} into {lead}"))?;
        if !decision.success {
            return Ok(());
        }
        let leader = parts[0].commander.clone();
        let (_, e) =
            Fraction::merge(&parts, &leader, &decision).map_err(|e| CampaignError::new("3.7", e.to_string()))?;
        self.rejoin(j, k, merged);
        self.log_applied(e.input("points", self.forces[k].points(), "the merged Fraction's value"));
        Ok(())
    }

    /// Fraction `k`'s record sheet as the army's rules read it (FYOW 3.5):
    /// its battlegroup, parent, officer, elements and supply.
    fn fraction_record(&self, k: usize) -> Fraction {
        let f = &self.forces[k];
        Fraction {
            name: f.name.clone(),
            battlegroup: self.forces[self.root_battlegroup(k)].name.clone(),
            parent: f.parent.clone().unwrap_or_default(),
            commander: f.commander.name.clone(),
            elements: f.battlegroup.elements.clone(),
            stockpile: f.supply.stockpile(),
            activated: true,
            at_rest: f.supply.mode == crate::supply::logistics::Mode::Rest,
            rationed: f.supply.mode == crate::supply::logistics::Mode::Rationed,
        }
    }

    /// FYOW 3.7 Ending a fraction: once it is on its parent's Map Board, the
    /// parent's commander dissolves it by a Command Decision. Its elements,
    /// their orders of battle and repairs rejoin the parent; its Stockpile
    /// and the S it had today are discarded; it leaves the map, and its BPC
    /// the pack. A failed decision changes nothing but the decision spent.
    pub(crate) fn end_fraction(&mut self, fraction: &str) -> Result<(), CampaignError> {
        let k = self.live(fraction)?;
        let fr = &self.forces[k];
        if fr.kind != ForceKind::Fraction {
            return Err(CampaignError::new("3.7", format!("{fraction} is not a Fraction")));
        }
        let Some(parent) = fr.parent.clone() else {
            return Err(CampaignError::new("3.7", format!("{fraction} has no parent")));
        };
        let p = self.live(&parent)?;
        let Some(board) = fr.board().cloned() else {
            return Err(CampaignError::new("3.7", format!("{fraction} is not on a Map Board")));
        };
        if self.forces[p].board() != Some(&board) {
            return Err(CampaignError::new(
                "3.7",
                format!("{fraction} must first move to the Map Board of {parent} to be absorbed"),
            ));
        }
        if self.in_battle(fraction) || self.in_battle(&parent) {
            return Err(CampaignError::new("15.8", format!("{fraction} or {parent} is engaged in a battle")));
        }
        if fr.first_activation.is_some() {
            return Err(CampaignError::new("3.5", format!("{fraction} has not had its first activation")));
        }
        let whole = self.fraction_record(k);
        let decision = self.commander_decision(p, &format!("dissolve the Fraction {fraction}"))?;
        if !decision.success {
            return Ok(());
        }
        let mut bg = self.forces[p].battlegroup.clone();
        let e = whole.dissolve_into(&mut bg, true, &decision).map_err(|e| CampaignError::new("3.7", e.to_string()))?;
        self.rejoin(k, p, bg);
        self.log_applied(e);
        Ok(())
    }

    /// Force `k`'s elements rejoin force `p`, whose battlegroup with them
    /// added is `bg`: their kit, orders of battle and repairs go with them;
    /// `k` leaves the map.
    pub(crate) fn rejoin(&mut self, k: usize, p: usize, bg: crate::army::battlegroup::Battlegroup) {
        let gone = std::mem::take(&mut self.forces[k].kit);
        let orbat = std::mem::take(&mut self.forces[k].orbat);
        let repairs = std::mem::take(&mut self.forces[k].repairs);
        let parent_force = &mut self.forces[p];
        parent_force.battlegroup = bg;
        // The parent may still list them from before the split: one record each.
        parent_force.kit.retain(|x| !gone.iter().any(|k| k.name == x.name));
        parent_force.kit.extend(gone);
        parent_force.orbat.retain(|x| !orbat.iter().any(|c| c.element == x.element));
        parent_force.orbat.extend(orbat);
        parent_force.repairs.extend(repairs);
        let (name, parent) = (self.forces[k].name.clone(), self.forces[p].name.clone());
        if let Some(occ) = self.forces[k].board().cloned().and_then(|b| self.occupation.get_mut(&b)) {
            let _ = occ.leave(&name);
        }
        self.forces[k].at = Whereabouts::Gone;
        self.lose_sight_of(&name);
        self.sync_points(&parent);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::battlegroup::Element;
    use crate::map::common::{Edge, Side};
    use crate::play::command::Command;
    use crate::play::file::CampaignFile;
    use crate::play::file::tests::SMALL;

    const GARRISON: &str = "D Company (garrison of Village)";

    /// Blue 1, four elements strong, has taken the Village and moves on to the Town.
    fn blue_took_the_village(seed: u64) -> Campaign {
        let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), seed).unwrap();
        let village = BoardId::new("Village");
        c.remove_force("Red 1", "gone for the test");
        c.relocate("Blue 1", &BoardId::new("Sea"), &village, Edge::West).unwrap();
        let i = c.fx("Blue 1").unwrap();
        let mut d = c.forces[i].kit.iter().find(|k| k.name == "B Company").unwrap().clone();
        d.name = "D Company".into();
        c.forces[i].kit.push(d);
        c.forces[i].battlegroup.elements.push(Element {
            name: "D Company".into(),
            points: 250,
            class: ElementClass::Line,
            movement_points: 3,
            attached: false,
        });
        c.sync_points("Blue 1");
        c.occupation.get_mut(&village).unwrap().enter_board("Blue 1").unwrap();
        c.update_held();
        c.forces[i].order = OrderKind::MoveToContact;
        c.forces[i].objective = Some(BoardId::new("Town"));
        let max = c.forces[i].mover().profile().unwrap().max_per_day;
        c.forces[i].movement = crate::map::movement::MovementState::new_day(max, None);
        c.drain_events();
        c
    }

    #[test]
    fn a_battlegroup_leaves_a_company_to_hold_the_objective_it_took() {
        // FYOW 3: "a company has been left to garrison a captured village";
        // 3.4 "the BC creates the Fraction ... using the Command Decision
        // Process ... Orders are issued immediately to the Fraction by the BC."
        let (mut left, mut refused) = (0, 0);
        for seed in 0..20 {
            let mut c = blue_took_the_village(seed);
            assert_eq!(c.held.get(&BoardId::new("Village")), Some(&Side::Blue));
            let before = c.force("Blue 1").unwrap().points();
            c.activate("Blue 1");
            let events = c.drain_events();
            let decision = events.iter().find(|e| {
                e.rule.section == "8.1 Command Decisions"
                    && e.inputs.iter().any(|i| i.value == format!("create the Fraction {GARRISON}").as_str())
            });
            let Some(g) = c.force(GARRISON) else {
                refused += 1;
                assert!(
                    decision.is_some_and(|d| d.outcome["success"] == false),
                    "seed {seed}: only a failed decision keeps it whole: {events:#?}"
                );
                assert_eq!(c.force("Blue 1").unwrap().points(), before, "seed {seed}");
                continue;
            };
            left += 1;
            assert_eq!(g.kind, ForceKind::Fraction);
            assert_eq!(g.parent.as_deref(), Some("Blue 1"));
            assert_eq!(g.board(), Some(&BoardId::new("Village")), "seed {seed}: it stays on the objective");
            assert_eq!((g.order, g.objective.clone()), (OrderKind::Defend, None), "seed {seed}");
            assert_eq!(g.points(), 250, "the smallest rifle company, not the carriers");
            assert_eq!(g.commander.name, "CO, D Company");
            let parent = c.force("Blue 1").unwrap();
            assert_eq!(parent.points(), before - 250);
            assert!(!parent.battlegroup.elements.iter().any(|e| e.name == "D Company"));
            assert!(g.kit.iter().any(|k| k.name == "D Company"), "its kit goes with it");
            assert!(
                events
                    .iter()
                    .any(|e| e.rule.section == "3.4 Creating a fraction" && e.outcome["garrison"] == "Village")
            );
            // Its Senior Command keeps it there: its only option is to defend.
            let k = c.fx(GARRISON).unwrap();
            let options = c.order_options(k, crate::army::commander::Competency::Average);
            assert_eq!(options.len(), 1);
            assert_eq!(options[0].order, OrderKind::Defend);
            c.check_invariants().unwrap();
        }
        assert!(left > 0 && refused > 0, "left {left}, refused {refused}");
    }

    #[test]
    fn no_garrison_where_another_force_stands_or_from_a_three_element_battlegroup() {
        for seed in 0..5 {
            let mut c = blue_took_the_village(seed);
            let j = c.fx("Blue 2").unwrap();
            c.forces[j].battlegroup.elements.retain(|e| e.name == "C Company");
            c.forces[j].battlegroup.elements[0].points = 300;
            c.sync_points("Blue 2");
            c.relocate("Blue 2", &BoardId::new("Sea"), &BoardId::new("Village"), Edge::West).unwrap();
            c.activate("Blue 1");
            assert!(c.force(GARRISON).is_none(), "seed {seed}: Blue 2 holds the Village");
            let mut c = blue_took_the_village(seed);
            let i = c.fx("Blue 1").unwrap();
            c.forces[i].battlegroup.elements.retain(|e| e.name != "A Company");
            c.activate("Blue 1");
            assert!(c.fx(GARRISON).is_none(), "seed {seed}: three elements spare no company");
            let mut c = blue_took_the_village(seed);
            c.player = Some(Side::Blue);
            c.activate("Blue 1");
            assert!(c.fx(GARRISON).is_none(), "seed {seed}: a player's battlegroup splits only by his command");
        }
    }

    /// A garrison left on the Village, after its first activation, and its
    /// parent back beside it under Defend orders.
    fn garrison_and_parent_together(seed: u64) -> Option<Campaign> {
        let mut c = blue_took_the_village(seed);
        c.command(Command::Fraction {
            force: "Blue 1".into(),
            name: GARRISON.into(),
            elements: vec!["D Company".into()],
        })
        .unwrap();
        let k = c.fx(GARRISON)?;
        c.forces[k].order = OrderKind::Defend;
        c.forces[k].objective = None;
        c.activate(GARRISON);
        let i = c.fx("Blue 1").unwrap();
        c.forces[i].order = OrderKind::Defend;
        c.forces[i].objective = None;
        c.decisions.clear();
        c.drain_events();
        Some(c)
    }

    #[test]
    fn a_bc_takes_his_fraction_back_on_his_board_by_a_command_decision() {
        // 3.7 "A Battlegroup Commander dissolves a Fraction by successfully using
        // the Command Decision Process when he is activated and once the Fraction
        // moves to the map board occupied by it's parent ... it simply adds itself
        // to the Battlegroup roster, discards its Record Sheet, ignores any S
        // acquired that day and its Stockpile of S (if any). Its BPC is removed
        // from the pack for the next session."
        let (mut ended, mut kept) = (0, 0);
        for seed in 0..30 {
            let Some(mut c) = garrison_and_parent_together(seed) else { continue };
            let parent_before = c.force("Blue 1").unwrap().points();
            let stockpile = c.force("Blue 1").unwrap().supply.stockpile();
            c.activate("Blue 1");
            let events = c.drain_events();
            match c.force(GARRISON).filter(|g| !g.is_gone()) {
                Some(_) => {
                    kept += 1;
                    assert_eq!(c.force("Blue 1").unwrap().points(), parent_before, "seed {seed}");
                }
                None => {
                    ended += 1;
                    let e = events.iter().find(|e| e.rule.section == "3.7 Ending a fraction").expect("its event");
                    assert_eq!(e.target.as_deref(), Some(GARRISON));
                    let p = c.force("Blue 1").unwrap();
                    assert_eq!(p.points(), parent_before + 250);
                    assert_eq!(p.kit.iter().filter(|k| k.name == "D Company").count(), 1, "one record of it");
                    assert_eq!(p.supply.stockpile(), stockpile, "the Fraction's Stockpile is discarded, not added");
                    assert!(c.occupation[&BoardId::new("Village")].occupant(GARRISON).is_err(), "off the map");
                    assert_eq!(c.occupant("Blue 1").unwrap().points, p.points());
                    c.check_invariants().unwrap();
                }
            }
        }
        assert!(ended > 0 && kept > 0, "ended {ended}, kept {kept}");
    }

    #[test]
    fn a_battlegroup_going_on_leaves_its_garrison_and_a_fraction_elsewhere_is_not_taken_back() {
        for seed in 0..10 {
            let Some(mut c) = garrison_and_parent_together(seed) else { continue };
            let i = c.fx("Blue 1").unwrap();
            c.forces[i].order = OrderKind::MoveToContact;
            c.forces[i].objective = Some(BoardId::new("Town"));
            c.gather_fractions("Blue 1");
            assert!(c.force(GARRISON).is_some_and(|g| !g.is_gone()), "seed {seed}: going on, it leaves the garrison");
            let thrown = c.dice.thrown();
            c.relocate("Blue 1", &BoardId::new("Village"), &BoardId::new("Town"), Edge::West).unwrap();
            let e = c.command(Command::EndFraction { fraction: GARRISON.into() }).unwrap_err();
            assert_eq!(e.section, "3.7", "{e}");
            assert_eq!(c.dice.thrown(), thrown, "refused before any throw");
            let e = c.command(Command::EndFraction { fraction: "Blue 2".into() }).unwrap_err();
            assert_eq!(e.section, "3.7", "not a Fraction: {e}");
        }
    }

    use crate::supply::logistics::Mode;

    const SECOND: &str = "B Company (Fraction of Blue 1)";

    /// Blue 1's garrison of the Village and a second Fraction, B Company,
    /// both after their first activation under Defend orders on the
    /// Village, and Blue 1 gone on to the Town; `None` where a Command
    /// Decision kept either from being split off.
    fn two_fractions_on_the_village(seed: u64) -> Option<Campaign> {
        let mut c = blue_took_the_village(seed);
        for (name, element) in [(GARRISON, "D Company"), (SECOND, "B Company")] {
            c.command(Command::Fraction { force: "Blue 1".into(), name: name.into(), elements: vec![element.into()] })
                .unwrap();
            let k = c.fx(name)?;
            c.forces[k].order = OrderKind::Defend;
            c.forces[k].objective = None;
            c.activate(name);
        }
        c.relocate("Blue 1", &BoardId::new("Village"), &BoardId::new("Town"), Edge::West).unwrap();
        c.decisions.clear();
        c.drain_events();
        Some(c)
    }

    #[test]
    fn a_player_merges_two_fractions_on_one_board_under_the_one_he_names() {
        // 3.7 "A Battlegroup Commander can merge any of his Fractions together by
        // successfully using the Command Decision Process ... The Supply condition
        // of the new Fraction assumes the condition pertaining to the Fraction of
        // the new Officer."
        let (mut merged, mut failed) = (0, 0);
        for seed in 0..30 {
            let Some(mut c) = two_fractions_on_the_village(seed) else { continue };
            c.player = Some(Side::Blue);
            assert_eq!(c.fractions_beside(GARRISON), vec![SECOND]);
            let thrown = c.dice.thrown();
            let merge =
                |fraction: &str, with: &str| Command::MergeFractions { fraction: fraction.into(), with: with.into() };
            for (bad, section) in [
                (merge(GARRISON, GARRISON), "3.7"),
                (merge(GARRISON, "Blue 1"), "3.7"),
                (merge("Blue 2", SECOND), "3.7"),
            ] {
                assert_eq!(c.command(bad.clone()).unwrap_err().section, section, "{bad:?}");
            }
            let village = BoardId::new("Village");
            c.relocate(SECOND, &village, &BoardId::new("Town"), Edge::West).unwrap();
            assert!(c.fractions_beside(GARRISON).is_empty(), "apart");
            assert_eq!(c.command(merge(GARRISON, SECOND)).unwrap_err().section, "3.7", "not on one board");
            c.relocate(SECOND, &BoardId::new("Town"), &village, Edge::West).unwrap();
            assert_eq!(c.dice.thrown(), thrown, "refused before any throw");
            c.drain_events();
            let lead = c.force(GARRISON).unwrap().clone();
            let points = lead.points() + c.force(SECOND).unwrap().points();
            c.command(merge(GARRISON, SECOND)).unwrap();
            let events = c.drain_events();
            let decision =
                events.iter().find(|e| e.rule.section == "8.1 Command Decisions").expect("the BC's decision");
            assert_eq!(decision.actor.as_deref(), Some(c.force("Blue 1").unwrap().commander.name.as_str()));
            if decision.outcome["success"] == false {
                failed += 1;
                assert!(c.force(SECOND).is_some_and(|x| !x.is_gone()), "seed {seed}: a failed decision merges nothing");
                continue;
            }
            merged += 1;
            let e = events.iter().find(|e| e.rule.section == "3.7 Merging Fractions").expect("its event");
            assert_eq!(e.outcome["bpcs_removed"], serde_json::json!([SECOND]));
            let m = c.force(GARRISON).unwrap();
            assert_eq!(m.points(), points, "seed {seed}");
            assert_eq!((m.commander.name.as_str(), m.order), (lead.commander.name.as_str(), lead.order));
            assert_eq!(m.supply, lead.supply, "the leading Fraction's supply stands");
            assert!(m.kit.iter().any(|k| k.name == "B Company") && m.kit.iter().any(|k| k.name == "D Company"));
            assert!(c.force(SECOND).unwrap().is_gone());
            assert!(c.occupation[&village].occupant(SECOND).is_err(), "off the map");
            assert_eq!(c.occupant(GARRISON).unwrap().points, points);
            c.check_invariants().unwrap();
        }
        assert!(merged > 0, "merged {merged}, failed {failed}");
    }

    #[test]
    fn the_auto_bc_merges_two_of_his_fractions_that_meet_under_the_better_supplied() {
        let (mut merged, mut failed) = (0, 0);
        for seed in 0..30 {
            let Some(mut c) = two_fractions_on_the_village(seed) else { continue };
            // The garrison is Rationed: B Company's officer leads.
            for (name, mode) in [(GARRISON, Mode::Rationed), (SECOND, Mode::Active)] {
                let k = c.fx(name).unwrap();
                c.forces[k].supply.mode = mode;
            }
            let second = c.force(SECOND).unwrap().clone();
            c.merge_met_fractions("Blue 1");
            let events = c.drain_events();
            let decisions = events.iter().filter(|e| e.rule.section == "8.1 Command Decisions").count();
            assert_eq!(decisions, 1, "seed {seed}: one decision an activation: {events:#?}");
            if c.force(GARRISON).is_some_and(|g| !g.is_gone()) {
                failed += 1;
                assert!(c.force(SECOND).is_some_and(|x| !x.is_gone()));
                continue;
            }
            merged += 1;
            let m = c.force(SECOND).unwrap();
            assert_eq!(m.points(), second.points() + 250);
            assert_eq!(m.supply.mode, Mode::Active);
            c.check_invariants().unwrap();
            // A player's BC merges only by his command.
            let Some(mut c) = two_fractions_on_the_village(seed) else { continue };
            c.player = Some(Side::Blue);
            c.merge_met_fractions("Blue 1");
            assert!(c.force(GARRISON).is_some_and(|g| !g.is_gone()) && c.force(SECOND).is_some_and(|g| !g.is_gone()));
        }
        assert!(merged > 0, "merged {merged}, failed {failed}");
    }
}
