//! Partisans in battle (FYOW 34.11): a cell fights beside the army it
//! helps when that army battles the occupier on a Map Board where the
//! partisans work, valued as Regular Enhanced troops; it shares the side's
//! losses; when the side is forced to retreat the cell goes back to its
//! hideout in good order, stood down for the month, or in disarray,
//! dispersed until a double on the weekly 5D6 (34.11, Retreat in Disarray).
//!
//! Readings (docs/rules-readings.md, "Partisans in battle"):
//! - a cell joins a battle on a board of the partisans' target list (34.7,
//!   the boards where they work) between the army it helps and the
//!   occupier; it must be free to act, hold 3 or more members and a radio
//!   (34.12: it speaks to the liberators only by radio), and not be in
//!   another battle; of those, the cell with the most members joins;
//! - the side's losses in a Combat Session are shared in proportion to the
//!   points: the cell's share in points, 3 a member (rounded up), comes off
//!   its members;
//! - a side destroyed leaves its cell to retreat in disarray; a side that
//!   holds the board sends the cell home free to act.

use serde_json::json;
use warbound_rules::codex::FigureGrade;
use warbound_rules::event::{EventKind, RuleEvent};
use warbound_rules::handoff::BattleResult;
use warbound_rules::officer::Quality;
use warbound_rules::scenario::Figures;

use crate::army::orbat::{TemplateElement, company_officer};
use crate::map::common::Side;
use crate::paper::dunnigan::{Force, RetreatOrder};
use crate::paper::partisans::{POINTS_PER_MEMBER, Standing};
use crate::play::state::{Campaign, fyow};
use crate::table::deploy::TableCompany;
use crate::table::record::TableBattle;

const IN_BATTLE: &str = "34.11 Partisans in battle";

/// The template element a cell fields on the table.
pub const CELL_ELEMENT: &str = "partisans";

impl Campaign {
    /// The cell `cell` of a battle (its `PaperBattle::partisans`), if it
    /// is still a cell, with its name.
    fn battle_cell(&self, cell: Option<usize>) -> Option<(usize, &str)> {
        let c = self.partisans.as_ref()?.cells.get(cell?)?;
        (!c.is_gone()).then_some((cell?, c.name.as_str()))
    }

    /// FYOW 34.11 at the contact of battle `k`: a cell joins the side its
    /// partisans help when the board is one where they work.
    pub(crate) fn partisans_join(&mut self, k: usize) {
        let Some(p) = self.partisans.as_ref() else { return };
        let b = &self.battles[k];
        let sides: Vec<_> = [&b.attacker, &b.defender].iter().filter_map(|n| self.force(n).map(|f| f.side)).collect();
        if !sides.contains(&p.helps) || !sides.contains(&p.helps.enemy()) {
            return;
        }
        let works_here = p.list.targets().iter().chain(&p.reserve).any(|t| t.map_board == b.board.0);
        if !works_here {
            return;
        }
        let busy: Vec<usize> = self.battles.iter().filter_map(|x| x.partisans).collect();
        let Some(i) = (0..p.cells.len())
            .filter(|i| !busy.contains(i) && p.cells[*i].can_observe())
            .max_by_key(|&i| (p.cells[i].members, std::cmp::Reverse(i)))
        else {
            return;
        };
        let cell = &p.cells[i];
        let beside = if self.force(&b.attacker).is_some_and(|f| f.side == p.helps) { &b.attacker } else { &b.defender };
        let e = RuleEvent::new(EventKind::Partisans, fyow(IN_BATTLE))
            .actor(&cell.name)
            .target(beside)
            .input("board", &b.board, "on the partisans' target list (34.7)")
            .input("members", cell.members, "")
            .input("points", cell.force().value, "Regular Enhanced, 3 points a member")
            .outcome(json!({ "joins": beside }));
        self.log(e);
        self.battles[k].partisans = Some(i);
    }

    /// The paper force `force` with the battle's `cell` beside it, if the
    /// force is of the side the cell helps: its value adds the cell's.
    pub(crate) fn with_partisans(&self, cell: Option<usize>, mut force: Force) -> Force {
        if let (Some((i, _)), Some(p)) = (self.battle_cell(cell), self.partisans.as_ref())
            && self.force(&force.name).is_some_and(|f| f.side == p.helps)
        {
            force.value += p.cells[i].force().value;
        }
        force
    }

    /// The part of `loss` points, taken by `name`'s side in a Combat
    /// Session where it stood at `value` with the battle's `cell`, that
    /// falls on the force; the cell loses the rest in members.
    pub(crate) fn partisan_losses(&mut self, cell: Option<usize>, name: &str, loss: u32, value: u32) -> u32 {
        let Some((i, cell_name)) = self.battle_cell(cell) else { return loss };
        let cell_name = cell_name.to_owned();
        let Some(p) = self.partisans.as_mut() else { return loss };
        if loss == 0 || value == 0 || self.forces.iter().all(|f| f.name != name || f.side != p.helps) {
            return loss;
        }
        let cell = &mut p.cells[i];
        let points = cell.force().value;
        let share = (loss * points + value / 2) / value;
        let before = cell.members;
        let lost = share.div_ceil(POINTS_PER_MEMBER).min(u32::from(before)) as u8;
        cell.lose(lost);
        let after = cell.members;
        self.log_applied(
            RuleEvent::new(EventKind::Partisans, fyow(IN_BATTLE))
                .actor(&cell_name)
                .input("side_loss", loss, "points, the Combat Session's")
                .input("share", share, format!("{points} of the side's {value} points"))
                .input("members_before", before, "")
                .outcome(json!({ "members_lost": lost, "members": after })),
        );
        loss.saturating_sub(share)
    }

    /// The battle's `cell` as the table fields it, with the side it joins:
    /// one element of its members, Regular Enhanced, each with the
    /// partisans' weapon.
    pub(crate) fn partisan_company(&self, cell: Option<usize>) -> Option<(Side, TableCompany)> {
        let (i, name) = self.battle_cell(cell)?;
        let p = self.partisans.as_ref()?;
        let weapon = self.file.partisans.as_ref()?.weapon.clone();
        let element = TemplateElement {
            id: CELL_ELEMENT.to_owned(),
            figures: vec![Figures {
                men: p.cells[i].members,
                weapon: Some(weapon),
                grade: Some(FigureGrade::RegularEnhanced),
            }],
            pieces: Vec::new(),
            radio: false,
            recce: false,
            off_table: false,
        };
        let company = TableCompany {
            element: name.to_owned(),
            officer: company_officer(Quality::Regular),
            elements: vec![element],
            cms: vec![None],
            shots_used: vec![0],
            concealed: false,
            foo: None,
        };
        Some((p.helps, company))
    }

    /// The men of the battle's `cell` who came through its table battle
    /// `battle`, ending in `r`: those lost come off its members.
    pub(crate) fn partisans_from_table(&mut self, cell: Option<usize>, battle: &TableBattle, r: &BattleResult) {
        let Some((i, name)) = self.battle_cell(cell) else { return };
        let name = name.to_owned();
        let entries: Vec<_> = battle
            .roster
            .0
            .iter()
            .filter(|e| e.campaign_element == name && e.template_element == CELL_ELEMENT)
            .collect();
        if entries.is_empty() {
            return;
        }
        let men: u32 = entries
            .iter()
            .filter_map(|e| r.elements.iter().find(|x| x.id == e.scenario_element))
            .flat_map(|x| &x.figures)
            .map(|f| u32::from(f.men))
            .sum();
        let Some(p) = self.partisans.as_mut() else { return };
        let cell = &mut p.cells[i];
        let before = cell.members;
        let lost = u32::from(before).saturating_sub(men) as u8;
        cell.lose(lost);
        let after = cell.members;
        self.log_applied(
            RuleEvent::new(EventKind::Partisans, fyow(IN_BATTLE))
                .actor(&name)
                .input("members_before", before, "")
                .input("on_the_table", true, "the men who came through the battle")
                .outcome(json!({ "members_lost": lost, "members": after })),
        );
    }

    /// The end of a battle for its `cell`: `winner` holds the board (none
    /// when neither side won it); the beaten side retreated in `order`. A
    /// cell beside the beaten side retreats as it did.
    pub(crate) fn partisans_battle_over(&mut self, cell: Option<usize>, winner: Option<&str>, order: RetreatOrder) {
        let Some((i, _)) = self.battle_cell(cell) else { return };
        let date = self.date;
        let won = winner.and_then(|w| self.force(w)).map(|f| f.side);
        let Some(p) = self.partisans.as_mut() else { return };
        let beaten = won.is_some_and(|s| s != p.helps).then_some(order);
        let e = match beaten {
            Some(order) => {
                let e = p.cells[i].retreat_from_battle(order);
                if p.cells[i].standing == Standing::Dispersed {
                    p.dispersed.insert(i, date);
                }
                e
            }
            None => RuleEvent::new(EventKind::Partisans, fyow(IN_BATTLE))
                .actor(&p.cells[i].name)
                .outcome(json!({ "home": "its side holds the board; the cell goes back to its hideout" })),
        };
        self.log_applied(e);
    }

    /// FYOW 34.11, Retreat in Disarray: on the first day of each week every
    /// dispersed cell throws 5D6; a double gathers it again, stood down if
    /// it is still the month of its battle.
    pub(crate) fn partisans_regather(&mut self) {
        let Some(mut p) = self.partisans.take() else { return };
        let now = self.date;
        for i in 0..p.cells.len() {
            if p.cells[i].standing != Standing::Dispersed || p.cells[i].is_gone() {
                continue;
            }
            let same_month = p.dispersed.get(&i).is_some_and(|d| d.year() == now.year() && d.month() == now.month());
            match p.cells[i].weekly_reform(same_month, &mut self.dice) {
                Ok(e) => self.log(e),
                Err(e) => self.log_refusal(e.section, &e.message),
            }
            if p.cells[i].standing != Standing::Dispersed {
                p.dispersed.remove(&i);
            }
        }
        self.partisans = Some(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::calendar::CampaignDate;
    use crate::map::board::BoardId;
    use crate::map::common::Edge;
    use crate::paper::partisans::Mission;
    use crate::play::testing::guernsey;

    fn value(e: &RuleEvent, name: &str) -> serde_json::Value {
        e.inputs.iter().find(|i| i.name == name).map(|i| i.value.clone()).unwrap_or_default()
    }

    /// Seed `seed`'s Guernsey with cell 0 of 6 members and the others of 3,
    /// all free with a radio, and 4th Dorsets come ashore on `board`.
    fn dorsets_on(seed: u64, board: &str) -> Campaign {
        let mut c = Campaign::new("guernsey-1942", guernsey(), seed).unwrap();
        // Each side's forces within the board's 1500 points (FYOW 13.9).
        for name in ["4th Dorsets", "I./IR 582", "Panzer-Abteilung 213"] {
            let i = c.fx(name).unwrap();
            c.forces[i].battlegroup.elements.truncate(2);
            c.sync_points(name);
        }
        let p = c.partisans.as_mut().unwrap();
        while p.cells.len() < 2 {
            p.cells.push(crate::paper::partisans::Cell::new(format!("Cell {}", p.cells.len() + 1), 3));
        }
        for (i, cell) in p.cells.iter_mut().enumerate() {
            (cell.members, cell.radio, cell.standing) = (if i == 0 { 6 } else { 3 }, true, Standing::Free);
        }
        c.relocate("4th Dorsets", &BoardId::new("West Sea"), &BoardId::new(board), Edge::West).unwrap();
        c.drain_events();
        c
    }

    #[test]
    fn a_cell_fights_beside_its_liberators_where_it_works_and_shares_their_fate() {
        // 34.11: "Partisan forces can engage with the enemy ... using the
        // 'Dunnigan Rules'. They will have a value and a Combat Value as if
        // they were Regular Enhanced troops"; forced to retreat in good order
        // the cell "cannot take any further action during this month"; in
        // disarray it is "dispersed".
        let mut endings = std::collections::BTreeSet::new();
        for seed in 0..12 {
            let mut c = dorsets_on(seed, "St Peter Port");
            c.start_battle("4th Dorsets", "I./IR 582");
            assert_eq!(c.battles[0].partisans, Some(0), "seed {seed}: the largest cell joins");
            let events = c.drain_events();
            let joined = events.iter().find(|e| e.rule.section == IN_BATTLE).expect("its joining is logged");
            assert_eq!(joined.actor.as_deref(), Some(c.partisans.as_ref().unwrap().cells[0].name.as_str()));
            assert_eq!(value(joined, "points"), 6 * POINTS_PER_MEMBER);
            let cell = c.battles[0].partisans;
            let blue = c.paper_force("4th Dorsets", None);
            assert_eq!(c.with_partisans(cell, blue.clone()).value, blue.value + 18, "the cell adds its value");
            let red = c.paper_force("I./IR 582", None);
            assert_eq!(c.with_partisans(cell, red.clone()).value, red.value, "not to the enemy's");
            let mut lost = 0;
            let mut over = false;
            for _ in 0..12 {
                over = c.fight_session(0);
                for e in c.drain_events().iter().filter(|e| e.rule.section == IN_BATTLE) {
                    if let Some(share) = value(e, "share").as_u64() {
                        let n = e.outcome["members_lost"].as_u64().unwrap();
                        assert_eq!(n, share.div_ceil(3).min(6 - lost), "seed {seed}: 3 points a member");
                        assert!(share <= value(e, "side_loss").as_u64().unwrap());
                        lost += n;
                    }
                }
                if over {
                    break;
                }
            }
            assert!(over, "seed {seed}: the battle ends");
            let cell = &c.partisans.as_ref().unwrap().cells[0];
            assert_eq!(u64::from(cell.members), 6 - lost, "seed {seed}");
            let result = &c.fought.last().unwrap().result;
            let expected = if cell.is_gone() {
                cell.standing
            } else if result.contains("4th Dorsets retreats in GoodOrder") || result.contains("4th Dorsets broke off") {
                Standing::StoodDown
            } else if result.contains("4th Dorsets retreats in Disarray") || result.contains("4th Dorsets destroyed") {
                Standing::Dispersed
            } else {
                Standing::Free
            };
            assert_eq!(cell.standing, expected, "seed {seed}: {result}");
            assert_eq!(c.partisans.as_ref().unwrap().dispersed.contains_key(&0), expected == Standing::Dispersed);
            endings.insert(format!("{expected:?}"));
        }
        assert!(endings.len() >= 2, "the seeds end more than one way: {endings:?}");
    }

    #[test]
    fn a_cell_goes_on_its_planned_mission_once_its_battle_is_over() {
        let mut c = dorsets_on(2, "St Peter Port");
        c.start_battle("4th Dorsets", "I./IR 582");
        assert_eq!(c.battles[0].partisans, Some(0));
        c.partisans.as_mut().unwrap().missions.push((c.date, 0, Mission::Observation));
        c.drain_events();
        c.partisan_missions();
        assert!(c.drain_events().is_empty(), "no mission while it fights");
        assert_eq!(c.partisans.as_ref().unwrap().missions.len(), 1, "the mission waits");
        c.battles.clear();
        c.partisan_missions();
        let events = c.drain_events();
        assert!(events.iter().any(|e| e.rule.section.starts_with("34.9")), "{events:?}");
        assert!(c.partisans.as_ref().unwrap().missions.is_empty());
    }

    #[test]
    fn no_cell_joins_away_from_its_targets_or_without_a_radio() {
        let mut c = dorsets_on(1, "St Andrew");
        c.start_battle("4th Dorsets", "Panzer-Abteilung 213");
        assert_eq!(c.battles.len(), 1);
        assert_eq!(c.battles[0].partisans, None, "St Andrew is not on the partisans' list");
        let mut c = dorsets_on(1, "St Peter Port");
        c.partisans.as_mut().unwrap().cells.iter_mut().for_each(|cell| cell.radio = false);
        c.start_battle("4th Dorsets", "I./IR 582");
        assert_eq!(c.battles[0].partisans, None, "no radio, no word of the battle");
        assert!(c.drain_events().iter().all(|e| e.rule.section != IN_BATTLE));
    }

    #[test]
    fn a_dispersed_cell_regathers_on_a_double_and_misses_its_mission() {
        // 34.11 Retreat in Disarray: "On the 1st day of next week (and
        // subsequent weeks if required), they throw 5D6 and cannot be active
        // again until a double is thrown."
        let mut seen = [false; 2];
        for seed in 0..40 {
            let mut c = dorsets_on(seed, "St Peter Port");
            let last_year = CampaignDate::new(c.date.year() - 1, c.date.month(), 1, 1).unwrap();
            let p = c.partisans.as_mut().unwrap();
            p.cells[0].standing = Standing::Dispersed;
            p.cells[1].standing = Standing::Dispersed;
            p.dispersed.insert(0, c.date);
            p.dispersed.insert(1, last_year);
            c.partisans_regather();
            let events = c.drain_events();
            assert_eq!(events.len(), 2, "seed {seed}: each dispersed cell throws");
            let p = c.partisans.as_ref().unwrap();
            for (i, e) in events.iter().enumerate() {
                let faces: Vec<u8> = e.dice.iter().map(|d| d.face).collect();
                assert_eq!(faces.len(), 5, "5D6");
                let double = crate::paper::partisans::double(&faces).is_some();
                let regathered = if i == 0 { Standing::StoodDown } else { Standing::Free };
                let want = if double { regathered } else { Standing::Dispersed };
                assert_eq!(p.cells[i].standing, want, "seed {seed}, cell {i}: the month of its battle or later");
                assert_eq!(p.dispersed.contains_key(&i), !double);
                seen[usize::from(double)] = true;
            }
            // A cell not free does not carry out its planned mission.
            let mut c = dorsets_on(seed, "St Peter Port");
            let p = c.partisans.as_mut().unwrap();
            p.cells[0].standing = Standing::StoodDown;
            p.missions.push((c.date, 0, Mission::Observation));
            c.partisan_missions();
            let events = c.drain_events();
            assert_eq!(events.len(), 1, "seed {seed}: no target is chosen");
            assert_eq!(events[0].rule.section, IN_BATTLE);
            assert!(c.partisans.as_ref().unwrap().missions.is_empty());
        }
        assert_eq!(seen, [true, true], "some throws double and some do not");
    }
}
