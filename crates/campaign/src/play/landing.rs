//! Where a landing force's waves are in the campaign (FYOW 18.2, 24): the
//! first wave comes ashore with the landing itself (14.13); each later wave
//! is unloaded over the beach by Work & Task at the beach's rate, a session's
//! throw at a time, until its Load Spaces are handled, and comes ashore in
//! that session; the next wave's unloading starts the session after. The
//! battlegroup moves on from its beach the session after its last wave is
//! ashore (24: "available for movement ... in the following session").
//! Which waves are still at sea when it fights on its beach is read here for
//! the table's landing craft and for the paper battles.

use serde::{Deserialize, Serialize};

use crate::map::board::BoardId;
use crate::map::common::{Light, SessionStamp};
use crate::play::file::Start as FileStart;
use crate::play::state::{Campaign, Whereabouts};
use crate::supply::SupplyError;
use crate::supply::work::{Site, Task, WorkConditions};
use crate::table::forces::Afloat;
use crate::table::landing::LandingFile;
use crate::weather::ChanceOutcome;

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

/// The waves of force `i`'s Landing Plan still afloat when it fights on
/// `board`: none unless the board is its plan's beach and it is still
/// landing there; the wave that came ashore this session is the first.
pub(crate) fn afloat(c: &Campaign, i: usize, board: &BoardId) -> Option<Afloat> {
    let f = c.forces.get(i)?;
    let (plan, beach) = plan_of(c, i)?;
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
        // capable of sustaining a landing (the loader requires one), the
        // "Invasion" Beach of 24's guide. A wave of no loads has no task and
        // lands the session after.
        Task::handling(Site::InvasionBeach, load.load_spaces, load.vehicles).ok()
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
            if done {
                u.ashore += 1;
                u.landed = now;
                u.next = if u.ashore < waves { self.wave_task(i, u.ashore) } else { None };
            }
            self.forces[i].unloading = Some(u);
        }
    }

    /// FYOW 18.2 on the table: force `name`'s waves still afloat land by the
    /// table's landing sequence, so the campaign counts them ashore.
    pub(crate) fn table_lands_waves(&mut self, name: &str) {
        let Some(i) = self.fx(name) else { return };
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
}
