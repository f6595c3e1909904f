//! Where a landing force's waves are in the campaign (FYOW 18.2, 24): the
//! first wave comes ashore with the landing itself (14.13); each later wave
//! is unloaded over the beach by Work & Task at the beach's rate, a session's
//! throw at a time, until its Load Spaces are handled, and comes ashore in
//! that session; the next wave's unloading starts the session after. The
//! battlegroup moves on from its beach the session after its last wave is
//! ashore (24: "available for movement ... in the following session").
//! Which waves are still at sea when it fights on its beach is read here for
//! the table's landing craft and for the paper battles.
//!
//! A covert landing in small boats may come ashore at a cove, a coast that
//! is no beach (FYOW 13.8): it takes the shore landing's Movement Test
//! (14.13), its later waves are unloaded at the small cove's rate (24.1),
//! and each wave's rubber boats throw against swamping as they come in
//! (29.16 "Landing at coves").

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::army::battlegroup::ElementClass;
use crate::map::board::{BoardId, Coast};
use crate::map::common::{Light, SessionStamp};
use crate::naval::Wind as SeaWind;
use crate::naval::condition::{Swamped, swamping};
use crate::play::file::Start as FileStart;
use crate::play::state::fyow;
use crate::play::state::{Campaign, Whereabouts};
use crate::supply::SupplyError;
use crate::supply::work::{Site, Task, WorkConditions};
use crate::table::forces::Afloat;
use crate::table::landing::LandingFile;
use crate::weather::{ChanceOutcome, Wind};

/// A battlegroup's Landing Plan being unloaded over its beach.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unloading {
    /// The waves ashore, the first with the landing itself.
    pub ashore: usize,
    /// The session the last of them came ashore.
    pub landed: SessionStamp,
    /// The next wave's unloading; `None` once all are ashore, or where the
    /// file did not count the wave's loads (it then lands the session after).
    pub next: Option<Task>,
}

/// Force `i`'s Landing Plan and its beach, when it lands by one.
fn plan_of(c: &Campaign, i: usize) -> Option<(&LandingFile, &BoardId)> {
    let f = c.forces.get(i)?;
    let bg =
        c.file.army(f.side).battlegroups.iter().find(|b| b.name == f.name || Some(&b.name) == f.parent.as_ref())?;
    match (&bg.landing, &bg.start) {
        (Some(plan), FileStart::Afloat { beach, .. }) => Some((plan, beach)),
        _ => None,
    }
}

/// Whether force `i` lands by a covert Landing Plan, in small boats.
pub(crate) fn covert(c: &Campaign, i: usize) -> bool {
    plan_of(c, i).is_some_and(|(plan, _)| plan.covert())
}

/// Whether force `i` lands by a covert Landing Plan at a cove, a coast that
/// is no beach (FYOW 13.8, 24.1, 29.16).
pub(crate) fn at_cove(c: &Campaign, i: usize) -> bool {
    plan_of(c, i).is_some_and(|(plan, beach)| {
        plan.covert() && c.file.map.board(beach).is_ok_and(|b| b.coast == Some(Coast::NonBeach))
    })
}

/// The waves of force `i`'s Landing Plan still afloat when it fights on
/// `board`: none unless the board is its plan's beach and it is still
/// landing there; the wave that came ashore this session is the first.
/// A covert landing's boats do not come in under fire: its waves still
/// afloat stay out of the battle.
pub(crate) fn afloat(c: &Campaign, i: usize, board: &BoardId) -> Option<Afloat> {
    let f = c.forces.get(i)?;
    let (plan, beach) = plan_of(c, i)?;
    if plan.covert() {
        return None;
    }
    if beach != board || f.at != Whereabouts::Board(beach.clone()) {
        return None;
    }
    let u = f.unloading.as_ref()?;
    let from = if u.landed == c.stamp() { u.ashore.saturating_sub(1) } else { u.ashore };
    Afloat::after(plan, from as u32)
}

/// FYOW 18.2's "impact on ... the 'Dunnigan Rules'": the elements of force
/// `i` still at sea, which its paper battles neither count nor take losses
/// from. The wave unloaded this session is ashore for them.
pub(crate) fn offshore(c: &Campaign, i: usize) -> Vec<String> {
    let Some(f) = c.forces.get(i) else { return Vec::new() };
    let (Some((plan, beach)), Some(u)) = (plan_of(c, i), f.unloading.as_ref()) else { return Vec::new() };
    if f.at != Whereabouts::Board(beach.clone()) {
        return Vec::new();
    }
    plan.waves.iter().skip(u.ashore).flatten().cloned().collect()
}

impl Campaign {
    /// The unloading of force `i`'s wave `wave` (counted from 0) over its
    /// beach, at the beach's rate (FYOW 24).
    fn wave_task(&self, i: usize, wave: usize) -> Option<Task> {
        let (plan, _) = plan_of(self, i)?;
        let load = *plan.wave_loads.get(wave)?;
        // Reading (FYOW 13.8, 24): a landing's beach is a sandy beach
        // capable of sustaining a landing, the "Invasion" Beach of 24's
        // guide; a covert landing's cove is 24.1's small cove. A wave of no
        // loads has no task and lands the session after.
        let site = if at_cove(self, i) { Site::SmallCove } else { Site::InvasionBeach };
        Task::handling(site, load.load_spaces, load.vehicles).ok()
    }

    /// While force `name` is still coming ashore by its Landing Plan: its
    /// waves ashore and all its waves.
    pub fn waves_ashore(&self, name: &str) -> Option<(usize, usize)> {
        let i = self.fx(name)?;
        let ashore = self.forces[i].unloading.as_ref()?.ashore;
        let waves = plan_of(self, i)?.0.waves.len();
        (ashore < waves).then_some((ashore, waves))
    }

    /// FYOW 14.13, 18.2: force `i` has just landed; its first wave is
    /// ashore and its second, if any, is to be unloaded from next session.
    pub(crate) fn begin_unloading(&mut self, i: usize) {
        if plan_of(self, i).is_none() {
            return;
        }
        let next = self.wave_task(i, 1);
        self.forces[i].unloading = Some(Unloading { ashore: 1, landed: self.stamp(), next });
        self.swamp_wave(i, 0);
    }

    /// The session's wind at sea, as 29.16 reads it: a desert's sandstorm
    /// and a winter's freezing wind blow as high winds.
    fn sea_wind(&self) -> SeaWind {
        match self.today.as_ref().and_then(|t| t.wind_in_session(self.date.session()).ok()) {
            None | Some(Wind::Calm) => SeaWind::Calm,
            Some(Wind::Light) => SeaWind::Light,
            Some(Wind::High | Wind::Freezing | Wind::Sandstorm) => SeaWind::High,
        }
    }

    /// FYOW 29.16 "Landing at coves": wave `wave` (counted from 0) of force
    /// `i` comes in to its cove in rubber boats, and each boat throws
    /// against swamping in the session's wind. A sunk boat's men are lost,
    /// booked for replenishment; the boat itself is recovered (21).
    ///
    /// Reading (FYOW 29.16, *Heroes All* "Carriage capacity"): a wave fills
    /// as many of its plan's largest boats as its Load Spaces need; each
    /// carries an equal share of the wave, so a sunk boat costs each of the
    /// wave's elements that share of its value. The boats are handled by
    /// Enhanced troops when every element of the wave is Elite or Enhanced
    /// (special-purpose troops or recce) (test
    /// `rubber_boats_swamp_at_a_cove_and_their_men_are_lost`).
    fn swamp_wave(&mut self, i: usize, wave: usize) {
        if !at_cove(self, i) {
            return;
        }
        let Some((plan, _)) = plan_of(self, i) else { return };
        let (Some(capacity), Some(load)) = (plan.boat_capacity(), plan.wave_loads.get(wave)) else { return };
        let names = plan.waves.get(wave).cloned().unwrap_or_default();
        let boats = load.load_spaces.div_ceil(capacity.max(1));
        let f = &self.forces[i];
        let enhanced_crew = names.iter().all(|n| {
            f.elite || f.kit.iter().any(|k| &k.name == n && (k.recce || k.class == ElementClass::SpecialPurpose))
        });
        let (name, wind) = (f.name.clone(), self.sea_wind());
        self.in_step(|c| {
            let mut sunk = 0;
            for boat in 1..=boats {
                let (lost, e) = swamping(&name, wind, Swamped::AtCove { enhanced_crew }, &mut c.dice);
                sunk += u32::from(lost);
                c.log(e.input("boat", format!("{boat} of {boats}"), "").input("wave", wave + 1, ""));
            }
            if sunk > 0 {
                c.boats_lost(i, &names, sunk, boats);
            }
        });
    }

    /// Writes the loss of `sunk` of a wave's `boats`: each element of the
    /// wave `names` loses that share of its value, booked as casualties.
    fn boats_lost(&mut self, i: usize, names: &[String], sunk: u32, boats: u32) {
        let mut casualties = 0;
        let mut lost = Vec::new();
        for el in self.forces[i].battlegroup.elements.iter_mut().filter(|e| names.contains(&e.name)) {
            let cost = (el.points * sunk).div_ceil(boats).min(el.points);
            el.points -= cost;
            casualties += cost;
            lost.push(json!({ "element": el.name, "points": cost }));
        }
        let name = self.forces[i].name.clone();
        let gone = self.book_casualties(i, casualties);
        self.log_applied(
            RuleEvent::new(EventKind::Naval, fyow("29.16 Landing at coves"))
                .actor(&name)
                .input("sunk", sunk, "rubber boats swamped")
                .input("boats", boats, "the wave's boats")
                .input("casualties", casualties, "men drowned, booked for replenishment (21)")
                .outcome(json!({ "elements": lost })),
        );
        self.after_losses(&name, gone);
    }

    /// FYOW 24: each landing force's session of unloading over its beach
    /// (not at Rest, 20.6): the night halves the score, the weather takes
    /// its pips (25.7, 26.7, 27.6) and the day's chance card adds to the
    /// need (32). A force off its beach has done with its plan; one whose
    /// waves are all ashore may move on from the session after the last.
    pub(crate) fn unload_waves(&mut self) {
        let now = self.stamp();
        for i in 0..self.forces.len() {
            let Some(mut u) = self.forces[i].unloading.clone() else { continue };
            let Some((waves, beach)) = plan_of(self, i).map(|(p, b)| (p.waves.len(), b.clone())) else { continue };
            if self.forces[i].at != Whereabouts::Board(beach.clone()) {
                self.forces[i].unloading = None;
                continue;
            }
            if u.ashore >= waves {
                if u.landed < now {
                    self.forces[i].unloading = None;
                }
                continue;
            }
            let name = self.forces[i].name.clone();
            let done = match u.next.as_mut() {
                None => true,
                Some(task) => {
                    let work = self.today.as_ref().and_then(|t| t.spell(self.date.session()).ok()).map(|s| s.work);
                    let cond = WorkConditions {
                        night: self.conditions.light != Light::Daylight,
                        total_pips: work.map_or(0, |w| w.total),
                        pips_each_die: work.map_or(0, |w| w.per_die),
                        need_added: self
                            .cards_today
                            .iter()
                            .map(|c| if let ChanceOutcome::WorkTaskNeed(n) = c { u32::from(*n) } else { 0 })
                            .sum(),
                        mode: self.forces[i].supply.mode,
                    };
                    match task.session(&cond, &mut self.dice, &name) {
                        Ok((session, e)) => {
                            let e = e.input("wave", u.ashore + 1, "the Landing Plan's wave").input("beach", &beach, "");
                            self.log(e);
                            session.done
                        }
                        Err(SupplyError::AlreadyDone) => true,
                        // At Rest no work is done (20.6).
                        Err(_) => false,
                    }
                }
            };
            let landed = done.then_some(u.ashore);
            if done {
                u.ashore += 1;
                u.landed = now;
                u.next = if u.ashore < waves { self.wave_task(i, u.ashore) } else { None };
            }
            self.forces[i].unloading = Some(u);
            if let Some(wave) = landed {
                self.swamp_wave(i, wave);
            }
        }
    }

    /// FYOW 18.2 on the table: force `name`'s waves still afloat land by the
    /// table's landing sequence, so the campaign counts them ashore.
    pub(crate) fn table_lands_waves(&mut self, name: &str) {
        let Some(i) = self.fx(name) else { return };
        if covert(self, i) {
            // Its boats come in by the campaign's unloading, not under fire.
            return;
        }
        let Some(waves) = plan_of(self, i).map(|(p, _)| p.waves.len()) else { return };
        let now = self.stamp();
        if let Some(u) = self.forces[i].unloading.as_mut()
            && u.ashore < waves
        {
            *u = Unloading { ashore: waves, landed: now, next: None };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::board::RouteKind;
    use crate::map::common::{Edge, SessionConditions};
    use warbound_rules::codex::Points;

    /// The next session, in daylight.
    fn next_session(c: &mut Campaign) {
        let (crossed, _) = c.date.advance();
        if crossed.new_day {
            c.day += 1;
        }
        c.conditions = SessionConditions::fine_day();
    }

    /// Guernsey with the 4th Dorsets' first wave just ashore at Cobo Bay.
    fn dorsets_landed(seed: u64) -> (Campaign, usize) {
        let mut c = Campaign::new("guernsey-1942", crate::play::testing::guernsey(), seed).unwrap();
        let i = c.forces.iter().position(|f| f.name == "4th Dorsets").unwrap();
        c.day = 1;
        c.relocate("4th Dorsets", &BoardId::new("West Sea"), &BoardId::new("Cobo Bay"), Edge::West).unwrap();
        c.begin_unloading(i);
        c.drain_events();
        (c, i)
    }

    /// FYOW 18.2's "impact on ... the 'Dunnigan Rules'": in the session the
    /// 4th Dorsets land at Cobo Bay their second wave is still at sea, out
    /// of their paper battles; in the session it is unloaded it counts.
    #[test]
    fn on_paper_only_the_waves_ashore_count() {
        let c = Campaign::new("guernsey-1942", crate::play::testing::guernsey(), 1).unwrap();
        let i = c.forces.iter().position(|f| f.name == "4th Dorsets").unwrap();
        assert!(offshore(&c, i).is_empty(), "afloat, not yet landed: no battle on the beach");
        let (mut c, i) = dorsets_landed(1);
        assert_eq!(
            offshore(&c, i),
            ["C Company", "Carrier Platoon", "3 Troop, B Sqn North Irish Horse (3 x Churchill III)"]
        );
        let now = c.stamp();
        c.forces[i].unloading = Some(Unloading { ashore: 2, landed: now, next: None });
        assert!(offshore(&c, i).is_empty(), "the second wave lands this session");
        c.forces[i].at = Whereabouts::Board(BoardId::new("Castel"));
        assert!(offshore(&c, i).is_empty(), "off its beach the plan is done");
    }

    /// FYOW 24: the Dorsets' second wave, a company, the carriers and a troop
    /// of Churchills, is unloaded over the sandy beach, an "Invasion" Beach
    /// (D10 x D10 x D6 x D6 a session), until its Load Spaces are handled;
    /// it is ashore in that session, and the battalion moves on the session
    /// after, not before.
    #[test]
    fn the_waves_come_ashore_as_the_beach_unloads_them() {
        let mut sessions_to_land = Vec::new();
        for seed in 0..12 {
            let (mut c, i) = dorsets_landed(seed);
            let (plan, _) = plan_of(&c, i).unwrap();
            let loads = plan.wave_loads.clone();
            assert_eq!(loads.len(), 2);
            assert!(!loads[0].vehicles && loads[1].vehicles, "the Churchills and carriers come in the second wave");
            assert!(loads[0].load_spaces >= 100, "two rifle companies, a load a man: {loads:?}");
            let u = c.forces[i].unloading.clone().unwrap();
            assert_eq!(u.ashore, 1);
            let task = u.next.expect("the second wave's unloading");
            assert_eq!((task.need, task.section.as_str()), (loads[1].load_spaces, "24 Loading or Unloading"));
            assert_eq!(c.waves_ashore("4th Dorsets"), Some((1, 2)));
            let refused = |c: &Campaign| c.check_move("4th Dorsets", &BoardId::new("Castel"), RouteKind::MetalledRoad);
            assert_eq!(refused(&c).unwrap_err().section, "24");
            let mut sessions = 0;
            while c.forces[i].unloading.as_ref().unwrap().ashore < 2 {
                next_session(&mut c);
                c.unload_waves();
                sessions += 1;
                assert!(sessions < 30, "seed {seed}: the wave never lands");
                let events = c.drain_events();
                let work = events.iter().find(|e| e.rule.section == "24 Loading or Unloading").expect("a throw");
                let need = work.outcome["need"].as_u64().unwrap();
                assert_eq!(need, u64::from(loads[1].load_spaces));
                let ashore = c.forces[i].unloading.as_ref().unwrap().ashore;
                assert_eq!(ashore == 2, work.outcome["done"].as_bool().unwrap(), "seed {seed}");
                assert_eq!(refused(&c).unwrap_err().section, "24", "no move in the session it lands");
                assert_eq!(offshore(&c, i).is_empty(), ashore == 2, "ashore for a battle in its session");
            }
            assert_eq!(c.waves_ashore("4th Dorsets"), None, "all ashore");
            next_session(&mut c);
            c.unload_waves();
            assert!(c.forces[i].unloading.is_none(), "all ashore, the session after");
            assert!(refused(&c).err().is_none_or(|e| e.section != "24"), "free to move on");
            sessions_to_land.push(sessions);
        }
        // The beach takes 1 session or more by the dice, not always 1.
        assert!(sessions_to_land.iter().any(|&n| n > 1), "{sessions_to_land:?}");
        assert!(sessions_to_land.contains(&1), "{sessions_to_land:?}");
    }

    /// On the table the waves still afloat land by the table's landing
    /// sequence: the campaign then counts them ashore.
    #[test]
    fn the_table_lands_the_waves_still_afloat() {
        let (mut c, i) = dorsets_landed(3);
        c.table_lands_waves("4th Dorsets");
        let u = c.forces[i].unloading.clone().unwrap();
        assert_eq!((u.ashore, u.next), (2, None));
        next_session(&mut c);
        c.unload_waves();
        assert!(c.forces[i].unloading.is_none());
    }

    const RAID: &str = "5 and 6 Troops, No. 3 Commando";

    /// Guernsey on day 1 in the day's `wind`, the Commando's raiding party
    /// still afloat off the Jerbourg cliffs.
    fn raid(seed: u64, wind: Wind) -> (Campaign, usize) {
        let mut c = Campaign::new("guernsey-1942", crate::play::testing::guernsey(), seed).unwrap();
        let i = c.fx(RAID).unwrap();
        c.day = 1;
        let (mut day, _) = crate::weather::throw_day(&mut c.dice, c.file.climate, 8, None, &[]).unwrap();
        day.wind = wind;
        day.sandstorm_sessions.clear();
        c.today = Some(day);
        c.conditions = SessionConditions::fine_day();
        c.drain_events();
        (c, i)
    }

    /// FYOW 13.8, 14.13, 24.1: the raiding party paddles ashore at the
    /// Jerbourg cove by a shore landing (5 needed), not a beach landing;
    /// its second wave is unloaded at the small cove's D6 x D6 a session,
    /// and stays out of a battle on the table while it is at sea.
    #[test]
    fn a_covert_landing_paddles_ashore_at_a_cove() {
        let jerbourg = BoardId::new("Jerbourg");
        let mut landed = 0;
        for seed in 0..16 {
            let (mut c, i) = raid(seed, Wind::Calm);
            assert!(at_cove(&c, i));
            let loads = plan_of(&c, i).unwrap().0.wave_loads.clone();
            assert!(loads.iter().all(|l| !l.vehicles && l.load_spaces > 8), "{loads:?}");
            c.land(RAID).unwrap();
            let events = c.drain_events();
            let test = events.iter().find(|e| e.rule.section == "14.13 Landings from sea or air").unwrap();
            assert_eq!(test.inputs.iter().find(|x| x.name == "landing").unwrap().value, "Shore");
            assert_eq!(test.outcome["needed"], 5, "a shore landing needs 5");
            if c.forces[i].at != Whereabouts::Board(jerbourg.clone()) {
                assert!(events.iter().all(|e| !e.rule.section.starts_with("29.16")), "no boat came in");
                continue;
            }
            landed += 1;
            let boats = events.iter().filter(|e| e.rule.section == "29.16 Landing at coves").count();
            assert_eq!(boats as u32, loads[0].load_spaces.div_ceil(8), "the first wave's rubber boats of 8");
            assert!(afloat(&c, i, &jerbourg).is_none(), "no landing craft on the table's beach");
            assert_eq!(offshore(&c, i), ["6 Troop"], "the second troop is still at sea");
            let task = c.forces[i].unloading.as_ref().unwrap().next.clone().unwrap();
            assert_eq!(task.section, "24.1 Non-Transit Hub load handling");
            assert_eq!(task.need, loads[1].load_spaces);
            let mut sessions = 0;
            while c.waves_ashore(RAID).is_some() {
                next_session(&mut c);
                c.unload_waves();
                sessions += 1;
                assert!(sessions < 30, "seed {seed}: the second troop never lands");
                let events = c.drain_events();
                assert!(events.iter().any(|e| e.rule.section == "24.1 Non-Transit Hub load handling"));
                let came_in = events.iter().filter(|e| e.rule.section == "29.16 Landing at coves").count();
                let ashore = c.waves_ashore(RAID).is_none();
                assert_eq!(came_in > 0, ashore, "seed {seed}: the boats come in as the wave lands");
            }
            c.table_lands_waves(RAID);
            assert!(offshore(&c, i).is_empty());
        }
        assert!(landed > 0, "some landings succeed");
    }

    /// FYOW 29.16: in high winds a rubber boat handled by Enhanced troops
    /// sinks on 1, 2 or 3 (a D6 + 2 of 5 or less); its share of the wave is
    /// lost and booked for replenishment. In calm water no boat is thrown for.
    #[test]
    fn rubber_boats_swamp_at_a_cove_and_their_men_are_lost() {
        let mut sank = 0;
        let mut safe = 0;
        for seed in 0..16 {
            let (mut c, i) = raid(seed, Wind::High);
            c.relocate(RAID, &BoardId::new("South Coast waters"), &BoardId::new("Jerbourg"), Edge::South).unwrap();
            let before: u32 = c.forces[i].battlegroup.elements.iter().map(|e| e.points).sum();
            let five = c.forces[i].battlegroup.elements.iter().find(|e| e.name == "5 Troop").unwrap().points;
            c.begin_unloading(i);
            let events = c.drain_events();
            let throws: Vec<_> =
                events.iter().filter(|e| e.rule.section == "29.16 Landing at coves" && e.dice.len() == 1).collect();
            assert!(!throws.is_empty());
            let sunk = throws.iter().filter(|e| e.outcome["sunk"] == true).count() as u32;
            for t in &throws {
                assert_eq!(t.outcome["sunk"] == true, t.dice[0].face <= 3, "seed {seed}: +2 for the trained crew");
            }
            let after: u32 = c.forces[i].battlegroup.elements.iter().map(|e| e.points).sum();
            let boats = throws.len() as u32;
            (sank, safe) = (sank + sunk, safe + boats - sunk);
            if sunk == 0 {
                assert_eq!(after, before);
                continue;
            }
            let cost = (five * sunk).div_ceil(boats).min(five);
            assert_eq!(before - after, cost, "seed {seed}: 5 Troop loses {sunk} of {boats} boats' share");
            let loss = events.iter().find(|e| e.inputs.iter().any(|x| x.name == "sunk")).unwrap();
            assert_eq!(loss.inputs.iter().find(|x| x.name == "casualties").unwrap().value, cost);
            assert!(c.forces[i].losses.total() > Points::whole(0), "booked for replenishment");
        }
        assert!(sank > 0 && safe > 0, "boats sunk {sank}, boats safe {safe}");
        let (mut c, i) = raid(1, Wind::Calm);
        c.relocate(RAID, &BoardId::new("South Coast waters"), &BoardId::new("Jerbourg"), Edge::South).unwrap();
        c.begin_unloading(i);
        assert!(c.drain_events().iter().filter(|e| e.rule.section.starts_with("29.16")).all(|e| e.dice.is_empty()));
    }

    /// FYOW 24.1: small boats carry no vehicles, so a covert plan whose wave
    /// lands carriers and tanks is refused at that wave.
    #[test]
    fn small_boats_carry_no_vehicles() {
        let text = include_str!("../../../../scenarios/campaigns/guernsey-1942.ron").replacen(
            "craft: [\"lca\", \"lcm_mk1\", \"lct4\"]",
            "craft: [\"assault_boat\"]",
            1,
        );
        let mut file = crate::play::file::CampaignFile::load("g.ron", &text).unwrap();
        let (codex, templates) = (crate::army::orbat::test_codex(), crate::army::orbat::shipped());
        let err = file.check_tables("g.ron", &text, &codex, &templates).unwrap_err();
        assert!(
            err.message.contains("waves: wave 2 lands vehicles, which small boats cannot carry (FYOW 24.1)"),
            "{err}"
        );
        let line = text[..text.find("craft: [\"assault_boat\"]").unwrap()].matches('\n').count() + 1;
        assert_eq!(err.position.map(|p| p.0), Some(line), "{err}");
    }
}
