//! Naval engagements (FYOW 29.17). When vessels of both sides are on station
//! on one sea Map Board for the day, the day there is played on the
//! engagement template: each side's vessels start in its Box; each session
//! the vessels are activated in the order of Battlegroup Priority Cards dealt
//! to them, and each captain moves into or out of the Combat Area, spots the
//! enemy's vessels (29.9) and fires on one he has spotted (29.8, 29.10.2,
//! 29.10.3). A coastal battery whose guns reach that sea stands in the
//! Coastal Area: when its card comes up its officer takes the Officer
//! Reaction Test, and if he acts it spots and fires on the enemy's vessels
//! in the Combat Area (29.10.1). A vessel sunk leaves the template and the
//! sea.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::event::{EventKind, RuleEvent};
use warbound_rules::officer::{Officer, Rank};
use warbound_rules::opc::{OrtResult, officer_reaction_test};

use crate::army::game_flow::{Deck, deal};
use crate::map::board::BoardId;
use crate::map::common::{Light, Side};
use crate::naval::craft::{Craft, Weapon};
use crate::naval::engagement::{NavalEngagement, Station, TokenKind};
use crate::naval::fire::{coastal_battery_fire, ship_fire};
use crate::naval::spotting::{Nomination, Observer, SpotTarget, base_score, position_allows, spot, spotting_dice};
use crate::play::state::Campaign;

/// The guns a vessel fires at another vessel, the heaviest first.
const SHIP_GUNS: [Weapon; 3] = [Weapon::Gun150mmPlus, Weapon::Gun149mm, Weapon::Gun75mm];

/// One day's engagement template on a sea Map Board (29.17).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeaEngagement {
    pub board: BoardId,
    pub template: NavalEngagement,
}

/// How a vessel would fire at a target: the weapon and how many guns (or
/// torpedoes, or depth charges) it fires.
struct Salvo {
    weapon: Weapon,
    count: u8,
}

impl Campaign {
    /// The army and fleet index of the vessel called `name`.
    pub(crate) fn vessel_at(&self, name: &str) -> Option<(usize, usize)> {
        self.armies
            .iter()
            .enumerate()
            .find_map(|(a, army)| army.fleet.iter().position(|s| s.vessel.id == name).map(|k| (a, k)))
    }

    /// The army and index of the coastal battery called `name`.
    fn battery_at(&self, name: &str) -> Option<(usize, usize)> {
        self.armies
            .iter()
            .enumerate()
            .find_map(|(a, army)| army.coastal_batteries.iter().position(|b| b.name == name).map(|g| (a, g)))
    }

    /// Whether `side`'s coastal battery `b` is silent: an enemy force stands
    /// on its board (29.10.1).
    pub fn battery_silent(&self, side: Side, b: &crate::play::state::CoastalBattery) -> bool {
        self.occupation.get(&b.board).is_some_and(|o| o.occupants.iter().any(|x| x.side != side))
    }

    /// The coastal batteries whose guns reach the sea Map Board `sea`, with
    /// their sides: those on a coast its sea links reach, where no enemy
    /// force stands.
    fn batteries_over(&self, sea: &BoardId) -> Vec<(Side, String)> {
        self.armies
            .iter()
            .flat_map(|army| army.coastal_batteries.iter().map(move |b| (army.side, b)))
            .filter(|(side, b)| self.coasts_of(sea).contains(&b.board) && !self.battery_silent(*side, b))
            .map(|(side, b)| (side, b.name.clone()))
            .collect()
    }

    /// Whether a vessel of the enemy of army `a` is stationed on `station`
    /// and afloat: what a submarine is sent out to hunt (29.10.2).
    pub(crate) fn enemy_vessels_stationed(&self, a: usize, station: &BoardId) -> bool {
        let side = self.armies[a].side;
        self.armies
            .iter()
            .filter(|army| army.side != side)
            .flat_map(|army| &army.fleet)
            .any(|s| &s.station == station && s.vessel.ready().is_ok())
    }

    /// Whether a vessel or battery of `side` has spotted `name` in today's
    /// naval engagements (29.9): what that side knows of an enemy submarine.
    pub fn spotted_by(&self, side: Side, name: &str) -> bool {
        self.naval_engagements
            .iter()
            .any(|s| s.template.tokens.iter().any(|t| t.side == side && s.template.is_spotted(&t.id, name)))
    }

    /// Whether vessel `name` waits in its side's Box of a naval engagement:
    /// off the Map Board's waters, where it cannot fire on the shore (29.8).
    pub fn in_the_box(&self, name: &str) -> bool {
        self.naval_engagements.iter().any(|s| s.template.token(name).is_ok_and(|t| t.station == Station::Box))
    }

    /// FYOW 29.17 at the start of the day, once the vessels have sailed: a
    /// template for each sea Map Board with vessels of both sides on
    /// station, or vessels under the guns of an enemy coastal battery, each
    /// side's vessels in its own Box and the batteries in the Coastal Area.
    pub(crate) fn naval_engagements_begin(&mut self) {
        self.naval_engagements.clear();
        let mut boards: Vec<BoardId> =
            self.armies.iter().flat_map(|a| &a.fleet).filter(|s| s.at_sea).map(|s| s.station.clone()).collect();
        boards.sort();
        boards.dedup();
        for board in boards {
            let mut on_station: Vec<(Side, String, TokenKind)> = self
                .armies
                .iter()
                .flat_map(|a| a.fleet.iter().map(move |s| (a.side, s)))
                .filter(|(_, s)| s.at_sea && s.station == board)
                .map(|(side, s)| (side, s.vessel.id.clone(), TokenKind::Vessel(s.vessel.craft)))
                .collect();
            let batteries = self.batteries_over(&board);
            on_station.extend(batteries.iter().map(|(side, name)| (*side, name.clone(), TokenKind::CoastalBattery)));
            if !on_station.iter().any(|v| v.0 != on_station[0].0) {
                continue;
            }
            let mut template = NavalEngagement::new([self.conditions.light; 6]);
            for (side, id, kind) in &on_station {
                // Names are unique among the campaign's vessels and batteries (the loader's check).
                let _ = template.place(id.clone(), *side, *kind);
            }
            let boxes = |side: Side| -> Vec<&str> {
                on_station
                    .iter()
                    .filter(|v| v.0 == side && matches!(v.2, TokenKind::Vessel(_)))
                    .map(|v| v.1.as_str())
                    .collect()
            };
            let coastal: Vec<&str> = batteries.iter().map(|b| b.1.as_str()).collect();
            let event = RuleEvent::new(EventKind::Naval, crate::naval::rule("29.17 Playing a naval engagement"))
                .input(
                    "board",
                    &board,
                    "vessels of both sides on station for the day, or under an enemy battery's guns",
                )
                .outcome(json!({
                    "begins": true,
                    "left_box": boxes(Side::Blue),
                    "right_box": boxes(Side::Red),
                    "coastal_area": coastal,
                }));
            self.naval_engagements.push(SeaEngagement { board, template });
            self.log_applied(event);
        }
    }

    /// FYOW 29.17 in a session: the vessels of each engagement are activated
    /// in the order of their Battlegroup Priority Cards, and each captain
    /// acts ([`Campaign::captain_acts`]). Called before the vessels fire on
    /// the shore.
    pub(crate) fn naval_engagements_session(&mut self) {
        let session = self.date.session();
        let light = self.conditions.light;
        for k in 0..self.naval_engagements.len() {
            let template = &mut self.naval_engagements[k].template;
            while template.session < session && template.next_session().is_ok() {}
            if template.session != session {
                continue;
            }
            template.sessions[usize::from(session - 1)] = light;
            let holders: Vec<String> = template.tokens.iter().map(|t| t.id.clone()).collect();
            let sides = template.tokens.iter().map(|t| t.side).collect::<std::collections::BTreeSet<_>>();
            if sides.len() < 2 {
                continue;
            }
            let board = self.naval_engagements[k].board.clone();
            let order = match deal(Deck::BattlegroupPriority, &holders, &mut self.dice) {
                Ok((order, e)) => {
                    self.log(e.input(
                        "board",
                        &board,
                        "a naval engagement: a card for each vessel and coastal battery (29.17)",
                    ));
                    order
                }
                Err(e) => {
                    self.log_refusal("29.17", &e.to_string());
                    continue;
                }
            };
            for name in order {
                if self.battery_at(&name).is_some() {
                    self.in_step(|c| c.battery_acts(k, &name, light));
                } else {
                    self.in_step(|c| c.captain_acts(k, &name, light));
                }
            }
        }
    }

    /// A vessel's activation in engagement `k` (29.17): "Fire on a spotted
    /// target (Fire), Move onto or away from the Combat Area (Move), or Spot
    /// a target (Act)". The Auto captain moves first, into the Combat Area
    /// while his vessel is above half strength and has shots left, else back
    /// to his Box; then he spots the enemy vessels he may, and fires on the
    /// best one he has spotted.
    ///
    /// Reading (FYOW 29.17): "Naval Captains ... do not need to take an
    /// Officer Reaction Test", so the captains of both sides, the player's
    /// too, act by this plan; a player keeps his vessel out of the fight by
    /// ordering her to stand off (she waits in her Box) or by holding her in
    /// harbour (tests `a_submarine_and_the_inshore_squadron_fight_it_out`,
    /// `a_vessel_ordered_to_stand_off_waits_in_her_box`).
    fn captain_acts(&mut self, k: usize, name: &str, light: Light) {
        let Some((a, v)) = self.vessel_at(name) else { return };
        let vessel = &self.armies[a].fleet[v].vessel;
        if vessel.ready().is_err() || !self.armies[a].fleet[v].at_sea {
            return;
        }
        let craft = vessel.craft;
        let armed = vessel.mounts.iter().any(|m| m.left_today > 0 && m.weapon != Weapon::Aa20mm);
        let fight = armed && !vessel.half_strength() && !self.armies[a].fleet[v].stands_off;
        let template = &mut self.naval_engagements[k].template;
        let Ok(token) = template.token(name) else { return };
        if (token.station == Station::Box) == fight
            && let Ok((_, e)) = template.move_token(name)
        {
            self.log(e.input("board", &self.naval_engagements[k].board, ""));
        }
        if !fight {
            return;
        }
        self.captain_spots(k, name, a, craft);
        self.captain_fires(k, name, a, v, light);
    }

    /// FYOW 29.9: the captain spots from where he is
    /// ([`Campaign::spot_enemy_vessels`]).
    fn captain_spots(&mut self, k: usize, name: &str, a: usize, craft: Craft) {
        let side = self.armies[a].side;
        let radar = self.vessel_at(name).is_some_and(|(a, v)| self.armies[a].fleet[v].radar);
        let observer = Observer::Vessel { craft, british_radar: radar };
        let Ok(in_combat) = self.naval_engagements[k].template.in_combat_area(name) else { return };
        self.spot_enemy_vessels(k, name, side, observer, in_combat);
    }

    /// FYOW 29.9 in engagement `k`: observer `name` of `side` nominates the
    /// enemy vessels it has not spotted and may see, as many as its spotting
    /// dice, a submarine first, then the largest; throws, and records what
    /// it spotted.
    fn spot_enemy_vessels(&mut self, k: usize, name: &str, side: Side, observer: Observer, in_combat: bool) {
        let template = &self.naval_engagements[k].template;
        let mut nominations: Vec<(u8, Nomination)> = template
            .tokens
            .iter()
            .filter(|t| t.side != side && !template.is_spotted(name, &t.id))
            .filter_map(|t| {
                let TokenKind::Vessel(target) = t.kind else { return None };
                let n = Nomination {
                    id: t.id.clone(),
                    target: SpotTarget::Vessel(target),
                    in_combat_area: t.station == Station::CombatArea,
                    firing_at_observer: false,
                };
                let first = if target == Craft::Submarine { u8::MAX } else { target.defence_value() };
                (base_score(observer, n.target).is_ok() && position_allows(observer, in_combat, &n))
                    .then_some((first, n))
            })
            .collect();
        nominations.sort_by_key(|(first, _)| std::cmp::Reverse(*first));
        nominations.truncate(usize::from(spotting_dice(observer)));
        if nominations.is_empty() {
            return;
        }
        let nominations: Vec<Nomination> = nominations.into_iter().map(|(_, n)| n).collect();
        let sea = self.sea_conditions();
        let Ok((results, e)) = spot(name, observer, in_combat, &nominations, sea, &mut self.dice) else { return };
        let board = self.naval_engagements[k].board.clone();
        let _ = self.naval_engagements[k].template.record_spots(name, &results);
        self.log(e.input("board", &board, "a naval engagement"));
    }

    /// What vessel `v` of army `a` fires at `target` (29.10.2, 29.10.3): a
    /// submarine its torpedoes, two a session; a Destroyer its depth charges
    /// at a submarine, two an attack; a gun vessel its heaviest guns with
    /// shots left at a surface vessel its chart lets it hit.
    fn salvo(&self, a: usize, v: usize, target: Craft) -> Option<Salvo> {
        let vessel = &self.armies[a].fleet[v].vessel;
        let left = |w: Weapon| vessel.mount(w).map_or(0, |m| m.left_today);
        match (vessel.craft, target) {
            (Craft::Submarine, Craft::Submarine) => None,
            (Craft::Submarine, _) => {
                let count = u8::try_from(left(Weapon::Torpedoes).min(2)).unwrap_or(2);
                (count > 0).then_some(Salvo { weapon: Weapon::Torpedoes, count })
            }
            (Craft::Destroyer, Craft::Submarine) => {
                (left(Weapon::DepthCharges) >= 2).then_some(Salvo { weapon: Weapon::DepthCharges, count: 2 })
            }
            (firer, _) => {
                crate::naval::fire::ship_hit_score(firer, target).ok()?;
                let weapon = SHIP_GUNS.into_iter().find(|&w| vessel.guns_able_to_fire(w) > 0 && left(w) > 0)?;
                Some(Salvo { weapon, count: vessel.guns_able_to_fire(weapon) })
            }
        }
    }

    /// FYOW 29.8, 29.10.2, 29.10.3: the captain fires on the enemy vessel he
    /// has spotted and may fire on, the one he fired on before first (the
    /// follow-up of 29.8), then the largest.
    fn captain_fires(&mut self, k: usize, name: &str, a: usize, v: usize, light: Light) {
        let side = self.armies[a].side;
        let template = &self.naval_engagements[k].template;
        let mut targets: Vec<(String, Craft)> = template
            .tokens
            .iter()
            .filter(|t| t.side != side && template.is_spotted(name, &t.id))
            .filter_map(|t| match t.kind {
                TokenKind::Vessel(c) => Some((t.id.clone(), c)),
                _ => None,
            })
            .collect();
        let fired_on = |id: &str| self.armies[a].fleet[v].fired_at.contains(id);
        targets.sort_by_key(|(id, c)| (!fired_on(id), std::cmp::Reverse(c.defence_value())));
        let board = self.naval_engagements[k].board.clone();
        for (target, craft) in targets {
            let Some(salvo) = self.salvo(a, v, craft) else { continue };
            let guns_able = self.armies[a].fleet[v].vessel.guns_able_to_fire(salvo.weapon);
            let template = &mut self.naval_engagements[k].template;
            let Ok((follow_up, e)) = template.prepare_fire(name, &target, salvo.weapon, salvo.count, guns_able) else {
                continue;
            };
            self.log(e.input("board", &board, ""));
            let Some((b, w)) = self.vessel_at(&target).filter(|&(b, _)| b != a) else { return };
            let (firer, struck) = two_vessels(&mut self.armies, (a, v), (b, w));
            let Ok((out, e)) = ship_fire(firer, salvo.weapon, salvo.count, struck, follow_up, light, &mut self.dice)
            else {
                return;
            };
            self.armies[a].fleet[v].fired_at.insert(target.clone());
            self.log(e.input("board", &board, ""));
            if out.sunk {
                self.goes_down(k, &target);
            }
            return;
        }
    }

    /// A vessel sunk in engagement `k` leaves the template and the sea.
    fn goes_down(&mut self, k: usize, name: &str) {
        if let Some((b, w)) = self.vessel_at(name) {
            self.armies[b].fleet[w].at_sea = false;
        }
        let _ = self.naval_engagements[k].template.remove(name);
    }

    /// A coastal battery's activation in engagement `k` (29.17): its officer
    /// takes the Officer Reaction Test; if he acts, the battery spots the
    /// largest enemy vessel in the Combat Area it has not spotted (29.9) and
    /// fires every gun at the largest it has spotted that its guns may hit
    /// (29.10.1: not an MTB or a submarine).
    ///
    /// Reading (FYOW 29.17, FYOB "Officer Reaction Test"): the battery is
    /// the officer's own command, activated by its card as an element is,
    /// so he tests on the row of his own grade (Weak to Inspirational), not
    /// a Company Officer's command row, on which a Regular officer would act
    /// without a throw (test `the_bardia_battery_fires_on_the_inshore_squadron_when_its_officer_acts`).
    fn battery_acts(&mut self, k: usize, name: &str, light: Light) {
        let Some((a, g)) = self.battery_at(name) else { return };
        let (side, guns, grade) = {
            let b = &self.armies[a].coastal_batteries[g];
            (self.armies[a].side, b.guns, b.officer)
        };
        let board = self.naval_engagements[k].board.clone();
        let Ok(officer) = Officer::new(Rank::Nco, grade) else { return };
        let (result, e) = officer_reaction_test(officer, &mut self.dice, name);
        self.log(e.input("board", &board, "a coastal battery's officer, on his own grade's row (29.17)"));
        if result == OrtResult::NoAction {
            return;
        }
        // Coastal guns see no submarine and only the Combat Area (29.9).
        self.spot_enemy_vessels(k, name, side, Observer::CoastalArtillery, false);
        let template = &self.naval_engagements[k].template;
        let mut targets: Vec<(String, Craft)> = template
            .tokens
            .iter()
            .filter(|t| t.side != side && t.station == Station::CombatArea && template.is_spotted(name, &t.id))
            .filter_map(|t| match t.kind {
                TokenKind::Vessel(c) if !matches!(c, Craft::Mtb | Craft::Submarine) => Some((t.id.clone(), c)),
                _ => None,
            })
            .collect();
        targets.sort_by_key(|(_, c)| std::cmp::Reverse(c.defence_value()));
        let Some((target, _)) = targets.into_iter().next() else { return };
        let Ok((_, e)) =
            self.naval_engagements[k].template.prepare_fire(name, &target, Weapon::Gun150mmPlus, guns, guns)
        else {
            return;
        };
        self.log(e.input("board", &board, "").input("firer", "a coastal battery", ""));
        let Some((b, w)) = self.vessel_at(&target) else { return };
        let Ok((out, e)) = coastal_battery_fire(name, guns, &mut self.armies[b].fleet[w].vessel, light, &mut self.dice)
        else {
            return;
        };
        self.log(e.input("board", &board, ""));
        if out.sunk {
            self.goes_down(k, &target);
        }
    }
}

/// The vessels at `(army, fleet index)` `x` and `y` of two different armies,
/// both borrowed to fire one at the other.
fn two_vessels(
    armies: &mut [crate::play::state::Army],
    x: (usize, usize),
    y: (usize, usize),
) -> (&mut crate::naval::craft::Vessel, &mut crate::naval::craft::Vessel) {
    if x.0 < y.0 {
        let (low, high) = armies.split_at_mut(y.0);
        (&mut low[x.0].fleet[x.1].vessel, &mut high[0].fleet[y.1].vessel)
    } else {
        let (low, high) = armies.split_at_mut(x.0);
        (&mut high[0].fleet[x.1].vessel, &mut low[y.0].fleet[y.1].vessel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::state::ix;
    use crate::play::testing::cyrenaica;

    /// Battleaxe's log on `seed`, played for `days`.
    fn battleaxe(seed: u64, days: u32) -> (Campaign, Vec<RuleEvent>) {
        let mut c = Campaign::new("cyrenaica-1941.ron", cyrenaica(), seed).unwrap();
        let mut log = c.drain_events();
        for _ in 0..days {
            c.play_day();
            log.extend(c.drain_events());
        }
        (c, log)
    }

    fn said(e: &RuleEvent, name: &str) -> Option<String> {
        e.inputs.iter().find(|i| i.name == name).map(|i| i.value.to_string())
    }

    #[test]
    fn a_submarine_and_the_inshore_squadron_fight_it_out() {
        // 29.17: vessels of both sides on one sea board fight on the
        // template; 29.9: only spotted targets are fired on; 29.10.2 the
        // submarine's torpedoes, 29.10.3 the Destroyer's depth charges.
        let british = ["HMS Aphis", "HMAS Waterhen"];
        let (mut torpedoes, mut charges, mut engagements) = (0, 0, 0);
        for seed in 1..=6 {
            let (c, log) = battleaxe(seed, 10);
            let mut spotted: Vec<(String, String)> = Vec::new();
            let mut sunk: Vec<String> = Vec::new();
            for e in &log {
                let section = e.rule.section.as_str();
                let actor = e.actor.clone().unwrap_or_default();
                assert!(!sunk.contains(&actor), "seed {seed}: {actor} acts after she sank: {section}");
                if section == "29.5 Boats shown on the campaign map" {
                    spotted.retain(|(o, _)| o != &actor);
                }
                if section == "29.17 Playing a naval engagement" && e.outcome["begins"] == true {
                    engagements += 1;
                    let under_the_guns = e.outcome["coastal_area"] == json!(["Bardia coastal battery"]);
                    assert!(
                        e.outcome["right_box"] == json!(["Salpa"])
                            || (e.outcome["right_box"] == json!([]) && under_the_guns),
                        "seed {seed}: {}",
                        e.outcome
                    );
                    spotted.clear();
                }
                if section == "29.9 Spotting targets" {
                    for r in e.outcome["results"].as_array().unwrap() {
                        if r["spotted"] == true {
                            spotted.push((actor.clone(), r["id"].as_str().unwrap().to_owned()));
                        }
                    }
                }
                let target = e.target.clone().unwrap_or_default();
                if section == "29.10.2 Submarine vs ship firing" {
                    torpedoes += 1;
                    assert_eq!(actor, "Salpa");
                    assert!(british.contains(&target.as_str()), "seed {seed}: {target}");
                }
                if section == "29.10.3 Ship vs Ship/submarine firing" {
                    assert_eq!(said(e, "weapon").as_deref(), Some("\"depth_charges\""), "seed {seed}");
                    assert_eq!((actor.as_str(), target.as_str()), ("HMAS Waterhen", "Salpa"), "seed {seed}");
                    charges += 1;
                }
                if section.starts_with("29.10.2") || section.starts_with("29.10.3") {
                    assert!(
                        spotted.contains(&(actor.clone(), target.clone())),
                        "seed {seed}: {actor} fires on {target} unspotted"
                    );
                    if e.outcome["sunk"] == true {
                        sunk.push(target);
                    }
                }
            }
            for name in &sunk {
                let (a, v) = c.vessel_at(name).unwrap();
                assert!(c.armies[a].fleet[v].vessel.sunk(), "seed {seed}: {name} is on the bottom");
            }
        }
        assert!(engagements > 0, "the submarine meets the Inshore Squadron");
        assert!(torpedoes > 0, "Salpa fires her torpedoes");
        assert!(charges > 0, "Waterhen drops depth charges on Salpa");
    }

    #[test]
    fn a_vessel_in_its_box_does_not_shell_the_shore() {
        // 29.8: vessels fire only from the Combat Area; a vessel back in its
        // Box is off the Map Board's waters.
        let mut c = Campaign::new("cyrenaica-1941.ron", cyrenaica(), 3).unwrap();
        c.begin_day();
        c.conditions = crate::map::common::SessionConditions::fine_day();
        let blue = ix(Side::Blue);
        for ship in &mut c.armies[blue].fleet {
            ship.at_sea = true;
        }
        let red = ix(Side::Red);
        c.armies[red].fleet[0].at_sea = true;
        c.naval_engagements_begin();
        assert_eq!(c.naval_engagements.len(), 1);
        assert!(c.in_the_box("HMS Aphis") && c.in_the_box("Salpa"));
        // Aphis has fired all her guns today: she stays in her Box.
        for m in &mut c.armies[blue].fleet[0].vessel.mounts {
            m.left_today = 0;
        }
        c.drain_events();
        c.fleet_session();
        let events = c.drain_events();
        assert!(c.in_the_box("HMS Aphis"));
        assert!(
            !events.iter().any(|e| e.actor.as_deref() == Some("HMS Aphis") && e.rule.section.starts_with("29.10.4"))
        );
        assert!(!c.in_the_box("Salpa") && !c.in_the_box("HMAS Waterhen"), "the armed vessels go into the Combat Area");
    }

    #[test]
    fn no_engagement_without_both_sides_at_sea_or_a_battery_ashore() {
        let mut c = Campaign::new("cyrenaica-1941.ron", cyrenaica(), 3).unwrap();
        c.begin_day();
        for army in &mut c.armies {
            for ship in &mut army.fleet {
                ship.at_sea = army.side == Side::Blue;
            }
        }
        // The Bardia battery's guns reach the Gulf of Sollum.
        c.naval_engagements_begin();
        assert_eq!(c.naval_engagements.len(), 1);
        let template = &c.naval_engagements[0].template;
        assert_eq!(template.token("Bardia coastal battery").unwrap().station, Station::CoastalArea);
        assert!(c.in_the_box("HMS Aphis") && c.in_the_box("HMAS Waterhen"));
        // With Bardia taken by the British, its guns are silent.
        let red = ix(Side::Red);
        let bardia = BoardId::new("Bardia");
        let taken = c.occupation[&bardia].occupants.iter().any(|o| o.side == Side::Blue);
        if !taken {
            let mut british =
                c.occupation.values().flat_map(|o| o.occupants.iter()).find(|o| o.side == Side::Blue).unwrap().clone();
            british.force = "a British column".into();
            c.occupation.get_mut(&bardia).unwrap().occupants.push(british);
        }
        c.naval_engagements_begin();
        assert!(c.naval_engagements.is_empty(), "no Italian gun answers from Bardia");
        c.armies[red].coastal_batteries.clear();
        c.naval_engagements_begin();
        assert!(c.naval_engagements.is_empty());
        assert!(!c.in_the_box("HMS Aphis"));
    }

    #[test]
    fn a_vessel_ordered_to_stand_off_waits_in_her_box() {
        use crate::play::Command;
        let mut c = Campaign::new("cyrenaica-1941.ron", cyrenaica(), 3).unwrap();
        c.player = Some(Side::Blue);
        c.begin_day();
        c.conditions = crate::map::common::SessionConditions::fine_day();
        for army in &mut c.armies {
            for ship in &mut army.fleet {
                ship.at_sea = true;
            }
        }
        c.naval_engagements_begin();
        c.command(Command::StandOff { vessel: "HMAS Waterhen".into(), stand_off: true }).unwrap();
        c.drain_events();
        c.fleet_session();
        let events = c.drain_events();
        assert!(c.in_the_box("HMAS Waterhen"), "she keeps out of the Combat Area");
        assert!(!c.in_the_box("HMS Aphis"), "her consort goes in");
        let acted =
            |name: &str| events.iter().any(|e| e.actor.as_deref() == Some(name) && e.rule.section.starts_with("29.1"));
        assert!(!acted("HMAS Waterhen"), "she neither fights nor shells the coast");
        c.command(Command::StandOff { vessel: "HMAS Waterhen".into(), stand_off: false }).unwrap();
        c.date = c.date.next_session().0;
        c.fleet_session();
        assert!(!c.in_the_box("HMAS Waterhen"), "ordered to fight again, she goes in");
        let e = c.command(Command::StandOff { vessel: "HMS Hood".into(), stand_off: true }).unwrap_err();
        assert!(e.to_string().contains("no vessel is called"), "{e}");
    }

    #[test]
    fn an_enemy_submarine_is_known_only_once_spotted() {
        let mut c = Campaign::new("cyrenaica-1941.ron", cyrenaica(), 3).unwrap();
        c.begin_day();
        for army in &mut c.armies {
            for ship in &mut army.fleet {
                ship.at_sea = true;
            }
        }
        c.naval_engagements_begin();
        assert!(!c.spotted_by(Side::Blue, "Salpa"), "she sails unseen");
        let seen = crate::naval::spotting::SpotResult { id: "Salpa".into(), needed: 2, face: 4, spotted: true };
        c.naval_engagements[0].template.record_spots("HMAS Waterhen", &[seen]).unwrap();
        assert!(c.spotted_by(Side::Blue, "Salpa"));
        assert!(!c.spotted_by(Side::Red, "HMAS Waterhen"));
    }

    #[test]
    fn the_bardia_battery_fires_on_the_inshore_squadron_when_its_officer_acts() {
        // 29.17: the battery's officer takes the ORT when its card comes up;
        // 29.9: it spots only vessels in the Combat Area; 29.10.1: it fires
        // every gun, never at a submarine or an MTB.
        let battery = "Bardia coastal battery";
        let (mut fired, mut held, mut tests) = (0, 0, 0);
        for seed in 1..=6 {
            let (_, log) = battleaxe(seed, 10);
            let mut acts = false;
            for e in &log {
                let section = e.rule.section.as_str();
                if e.actor.as_deref() != Some(battery) {
                    continue;
                }
                if e.kind == EventKind::Ort {
                    tests += 1;
                    acts = e.outcome["result"] != "NoAction";
                    held += usize::from(!acts);
                }
                if section == "29.9 Spotting targets" {
                    assert!(acts, "seed {seed}: the battery spots only when its officer acts");
                }
                if section == "29.10.1 Coastal gun battery counter-fire" {
                    assert!(acts, "seed {seed}: the battery fires only when its officer acts");
                    assert_eq!(said(e, "guns").as_deref(), Some("2"), "seed {seed}: both guns fire");
                    let target = e.target.clone().unwrap_or_default();
                    assert!(["HMS Aphis", "HMAS Waterhen"].contains(&target.as_str()), "seed {seed}: {target}");
                    fired += 1;
                }
            }
        }
        assert!(tests > 0 && fired > 0, "the battery's officer tests ({tests}) and it fires ({fired})");
        assert!(held > 0, "a Regular officer sometimes takes no action: {held} of {tests}");
    }
}
