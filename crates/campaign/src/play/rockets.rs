//! Aircraft firing AT guns and rockets at a battlegroup's armour over a
//! paper battle (FYOW 28.9 "AT/Rocket fire at ground targets"): each machine
//! that spotted the target and carries them fires at one armoured vehicle;
//! a brewed vehicle is a loss, a damaged one its crew repairs (23.1).

use serde_json::json;
use warbound_rules::codex::Points;
use warbound_rules::effects::VehicleState;
use warbound_rules::event::{EventKind, RuleEvent};
use warbound_rules::momentum::MAX_CMS;

use crate::air::firing::{ArmourWeapon, VehicleArmour, armour_attack};
use crate::map::common::Side;
use crate::play::state::{Campaign, fyow};
use crate::supply::repairs::RepairJob;

const SECTION: &str = "28.9 Aircraft firing, AT/Rocket fire";

/// One armoured vehicle of a force on the map: its element and armour.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ArmouredVehicle {
    pub element: String,
    pub armour: VehicleArmour,
}

/// What the strike did to one element's vehicles.
#[derive(Debug, Default)]
struct ElementHits {
    brewed: u32,
    damaged: u32,
}

/// Each vehicle's share of its element's value.
///
/// Reading (FYOW 28.9, 33.10): a campaign AFV element is a troop or
/// platoon of vehicles costed as one; each vehicle stands for an equal share
/// of its full value (test `rockets_brew_and_damage_a_panzer_companys_tanks`).
fn share(full: u32, vehicles: usize) -> u32 {
    (full / u32::try_from(vehicles.max(1)).unwrap_or(u32::MAX)).max(1)
}

impl Campaign {
    /// The AT guns and rockets each machine of `side`'s squadron `name`
    /// fires at armour: its CODEX aircraft's.
    pub fn at_weapons(&self, side: Side, name: &str) -> Vec<ArmourWeapon> {
        let file = self.file.armies.iter().find(|a| a.side == side);
        file.and_then(|a| a.squadrons.iter().find(|s| s.name == name)).map(|s| s.at_weapons.clone()).unwrap_or_default()
    }

    /// The armoured vehicles of force `target` still standing, the largest
    /// element's first; none of an element still at sea (18.2).
    pub(crate) fn armoured_vehicles(&self, target: &str) -> Vec<ArmouredVehicle> {
        let Some(i) = self.fx(target) else { return Vec::new() };
        let offshore = super::landing::offshore(self, i);
        let f = &self.forces[i];
        let mut elements: Vec<_> = f
            .battlegroup
            .elements
            .iter()
            .filter(|e| !offshore.contains(&e.name))
            .filter_map(|e| f.kit.iter().find(|k| k.name == e.name && k.afv && !k.armour.is_empty()).map(|k| (e, k)))
            .collect();
        elements.sort_by_key(|(e, _)| (std::cmp::Reverse(e.points), e.name.clone()));
        let mut vehicles = Vec::new();
        for (e, k) in elements {
            let v = share(k.points(), k.armour.len());
            let left = usize::try_from(e.points.div_ceil(v)).unwrap_or(usize::MAX).min(k.armour.len());
            vehicles
                .extend(k.armour.iter().take(left).map(|&armour| ArmouredVehicle { element: e.name.clone(), armour }));
        }
        vehicles
    }

    /// FYOW 28.9: `machines` of squadron `id` (army `side`) fire their
    /// `weapons` at force `target`'s armour, one vehicle each in turn; the
    /// vehicles brewed are lost, those damaged are repaired by their crews.
    /// Returns how many machines fired.
    pub(crate) fn rocket_strike(&mut self, id: &str, weapons: &[ArmourWeapon], machines: usize, target: &str) -> usize {
        if weapons.is_empty() || machines == 0 {
            return 0;
        }
        let vehicles = self.armoured_vehicles(target);
        let firing = machines.min(vehicles.len());
        let mut hits: Vec<(String, ElementHits)> = Vec::new();
        for v in vehicles.iter().take(firing) {
            let Ok((state, events)) = armour_attack(weapons, v.armour.target(VehicleState::Intact), &mut self.dice, id)
            else {
                continue;
            };
            for e in events {
                self.log(e.target(&v.element));
            }
            let at = match hits.iter().position(|(name, _)| *name == v.element) {
                Some(at) => at,
                None => {
                    hits.push((v.element.clone(), ElementHits::default()));
                    hits.len() - 1
                }
            };
            match state {
                VehicleState::Brewed => hits[at].1.brewed += 1,
                VehicleState::Damaged => hits[at].1.damaged += 1,
                VehicleState::Intact => {}
            }
        }
        self.armour_losses(id, target, &hits);
        firing
    }

    /// Writes what a strike did to force `target`'s elements: each brewed
    /// vehicle takes its share off its element as a casualty; each damaged
    /// one half its share (33.10), repaired by its crew (23.1) unless a
    /// vehicle of its element brewed.
    ///
    /// Reading (FYOW 28.9, 23.1): a crew's repair brings its element back to
    /// its full value, so an element that lost a vehicle outright has its
    /// damaged ones written off with it until it is replenished (21), as a
    /// paper battle's loss of part of an element is (test
    /// `rockets_brew_and_damage_a_panzer_companys_tanks`).
    fn armour_losses(&mut self, id: &str, target: &str, hits: &[(String, ElementHits)]) {
        let Some(i) = self.fx(target) else { return };
        let mut casualties = 0;
        let mut lost = Vec::new();
        for (element, h) in hits.iter().filter(|(_, h)| h.brewed + h.damaged > 0) {
            let Some(k) = self.forces[i].kit.iter().find(|k| &k.name == element) else { continue };
            let v = share(k.points(), k.armour.len());
            let f = &mut self.forces[i];
            let Some(el) = f.battlegroup.elements.iter_mut().find(|e| &e.name == element) else { continue };
            let reduction = (h.brewed * v + h.damaged * v.div_ceil(2)).min(el.points);
            el.points -= reduction;
            if h.brewed > 0 {
                casualties += reduction;
                f.repairs.retain(|j| &j.vehicle != element);
            } else if !f.repairs.iter().any(|j| &j.vehicle == element)
                && let Ok(job) = RepairJob::new(element, Points::whole(h.damaged * v), MAX_CMS)
            {
                f.repairs.push(job);
            }
            lost.push(json!({ "element": element, "brewed": h.brewed, "damaged": h.damaged, "points": reduction }));
        }
        if lost.is_empty() {
            return;
        }
        let gone = self.book_casualties(i, casualties);
        self.log_applied(
            RuleEvent::new(EventKind::AirOperation, fyow(SECTION))
                .actor(id)
                .target(target)
                .input("casualties", casualties, "brewed vehicles, booked for replenishment (21)")
                .outcome(json!({ "elements": lost })),
        );
        self.after_losses(target, gone);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::testing::ardennes;

    const P47: &str = "365th Fighter Group (P-47D Thunderbolt)";

    #[test]
    fn rockets_brew_and_damage_a_panzer_companys_tanks() {
        // FYOW 28.9: "Throw 1D6 per AT gun/rocket fired. 5+ required to hit.
        // Use the Attack Value ... of AT/rocket as +8. Use Top Defence Value
        // for an armoured target."
        let (mut brewed, mut damaged, mut repaired) = (0, 0, 0);
        for seed in 0..12 {
            let mut c = Campaign::new("ardennes-1945", ardennes(), seed).unwrap();
            let weapons = c.at_weapons(Side::Blue, P47);
            assert_eq!(weapons, vec![ArmourWeapon::Rocket; 6], "the P-47D's two triple tubes of M8 rockets");
            assert!(c.at_weapons(Side::Red, "Stab und I./JG 26 (Fw 190)").is_empty(), "an Fw 190A carries none");
            let target = c
                .forces
                .iter()
                .find(|f| f.side == Side::Red && f.kit.iter().any(|k| k.name.contains("Panther")))
                .map(|f| f.name.clone())
                .expect("the Panzer-Regiment's battlegroup");
            let vehicles = c.armoured_vehicles(&target);
            assert_eq!(vehicles.len(), 5 + 4, "five Panzer IVs and four Panthers, none soft-skinned");
            let before: Vec<(String, u32)> =
                c.force(&target).unwrap().battlegroup.elements.iter().map(|e| (e.name.clone(), e.points)).collect();
            c.drain_events();
            assert_eq!(c.rocket_strike(P47, &weapons, 16, &target), 9, "one machine to a vehicle, the rest strafe");
            let events = c.drain_events();
            let throws =
                events.iter().filter(|e| e.rule.section == SECTION && e.inputs.iter().any(|i| i.name == "weapons"));
            assert_eq!(throws.count(), 9, "six D6s at each vehicle");
            let Some(done) = events.iter().find(|e| e.rule.section == SECTION && e.outcome.get("elements").is_some())
            else {
                continue;
            };
            let f = c.force(&target).unwrap();
            for hit in done.outcome["elements"].as_array().unwrap() {
                let name = hit["element"].as_str().unwrap();
                let k = f.kit.iter().find(|k| k.name == name).unwrap();
                let v = share(k.points(), k.armour.len());
                let (b, d) = (hit["brewed"].as_u64().unwrap() as u32, hit["damaged"].as_u64().unwrap() as u32);
                let was = before.iter().find(|(n, _)| n == name).unwrap().1;
                let now = f.battlegroup.elements.iter().find(|e| e.name == name).map_or(0, |e| e.points);
                assert_eq!(was - now, (b * v + d * v.div_ceil(2)).min(was), "{name}: a share a brew, half a damage");
                let job = f.repairs.iter().any(|j| j.vehicle == name);
                assert_eq!(job, b == 0 && d > 0, "{name}: its crew repairs damage when nothing brewed");
                (brewed, damaged) = (brewed + b, damaged + d);
                repaired += u32::from(job);
            }
            let lost = f.losses.total();
            let brewed_points: u32 =
                done.inputs.iter().find(|i| i.name == "casualties").unwrap().value.as_u64().unwrap() as u32;
            assert_eq!(lost, Points::whole(brewed_points), "the brewed vehicles are booked for replenishment");
        }
        assert!(brewed > 0 && damaged > 0 && repaired > 0, "{brewed} brewed, {damaged} damaged, {repaired} repairs");
    }

    #[test]
    fn a_squadron_with_no_rockets_or_a_target_with_no_armour_fires_none() {
        let mut c = Campaign::new("ardennes-1945", ardennes(), 1).unwrap();
        let soft = c
            .forces
            .iter()
            .find(|f| f.side == Side::Red && c.armoured_vehicles(&f.name).is_empty())
            .map(|f| f.name.clone())
            .expect("a battlegroup with no armour");
        c.drain_events();
        let rockets = c.at_weapons(Side::Blue, P47);
        assert_eq!(c.rocket_strike(P47, &rockets, 16, &soft), 0);
        assert_eq!(c.rocket_strike(P47, &[], 16, &soft), 0);
        assert!(c.drain_events().is_empty());
    }
}
