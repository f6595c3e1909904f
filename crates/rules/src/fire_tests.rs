//! The CM tests fire leaves its target to take on its next activation (FYOB
//! "Momentum Test Chart"): what one firing element's fire did to the target,
//! and the rows of the target's own chart that falls on, by what the target
//! is, its cover and whether the firer was seen.

use crate::{
    firing::Cover,
    momentum::{ElementType, Incident},
};

/// What the target is, for the chart's three parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChartTarget {
    /// Figures, crew-served weapons and guns (the infantry chart); `figures`:
    /// it has riflemen besides any crews.
    Infantry {
        figures: bool,
    },
    Afv {
        open_topped: bool,
    },
    SoftSkin,
}

impl ChartTarget {
    /// Its chart, and whether an AFV is open-topped.
    pub fn chart(self) -> (ElementType, bool) {
        match self {
            ChartTarget::Infantry { .. } => (ElementType::Infantry, false),
            ChartTarget::Afv { open_topped } => (ElementType::Afv, open_topped),
            ChartTarget::SoftSkin => (ElementType::SoftSkin, false),
        }
    }
}

/// What one firing element's fire did to the target in a bound: every volley,
/// shell, bomb and pass together (FYOB: "An element coming under fire or
/// taking casualties from 2 separate elements in a bound will accrue 2 or
/// more sets of tests": one firing element, one set).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FireResults {
    /// Small-arms fire fell on it.
    pub small_arms: bool,
    /// HE fell on it.
    pub he: bool,
    /// Aircraft guns or rockets fell on it.
    pub from_the_air: bool,
    /// AT fire from a weapon that can destroy it.
    pub at: bool,
    /// A flame weapon's fire.
    pub flame: bool,
    /// The fire came from armour: `Some(true)` where the target has a
    /// suitable AT weapon against it, `Some(false)` where it has none.
    pub from_armour: Option<bool>,
    pub casualties: u32,
    /// Its vehicle was damaged by this fire.
    pub damaged: bool,
    /// Crew-served weapons it carried that were lost.
    pub guns_lost: u32,
}

impl FireResults {
    /// The fire one volley or shell puts `target` under, hit or miss, from a
    /// weapon that has it under fire ([`crate::command::under_fire`]: "even
    /// though any shot has not caused either"). `attack`: the weapon has an
    /// AT attack at this range; `he`: it fires HE. On an AFV, AT fire, or HE
    /// that is no AT attack (a shell). On a soft-skin, AT fire, HE, or else
    /// small arms. On men and guns, HE or small arms.
    pub fn under_fire_from(target: ChartTarget, he: bool, attack: bool) -> Self {
        let mut r = Self::default();
        match target {
            ChartTarget::Afv { .. } => {
                r.at = attack;
                r.he = he && !attack;
            }
            ChartTarget::SoftSkin if attack => r.at = true,
            ChartTarget::SoftSkin if he => r.he = true,
            ChartTarget::SoftSkin => r.small_arms = true,
            ChartTarget::Infantry { .. } if he => r.he = true,
            ChartTarget::Infantry { .. } => r.small_arms = true,
        }
        r
    }

    /// The target came under `fire` as well.
    pub fn under(&mut self, fire: FireResults) {
        self.small_arms |= fire.small_arms;
        self.he |= fire.he;
        self.from_the_air |= fire.from_the_air;
        self.at |= fire.at;
        self.flame |= fire.flame;
        self.from_armour = self.from_armour.or(fire.from_armour);
    }

    /// What happened to `target` in `cover`, for its chart: under small arms,
    /// HE, guns from the air, AT or flame fire, each casualty, its vehicle damaged,
    /// an attached CSW lost (only where there are riflemen besides the crews
    /// to test for it).
    pub fn incidents(&self, target: ChartTarget, cover: Cover) -> Vec<(Incident, u32)> {
        let mut incidents = Vec::new();
        let mut happened = |yes: bool, incident: Incident| {
            if yes {
                incidents.push((incident, 1));
            }
        };
        happened(self.small_arms, Incident::SmallArms(cover));
        happened(self.he, Incident::He);
        happened(self.from_the_air, Incident::FromTheAir(cover));
        happened(self.at, Incident::At);
        happened(self.flame, Incident::Flame);
        if let Some(at_weapon) = self.from_armour {
            happened(true, Incident::Armour { at_weapon });
        }
        happened(self.damaged, Incident::OwnVehicleDamaged);
        incidents.push((Incident::Casualty(cover), self.casualties));
        if matches!(target, ChartTarget::Infantry { figures: true }) {
            incidents.push((Incident::CswLost, self.guns_lost));
        }
        incidents
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::momentum::{CmCause, test_set};

    /// One firing element's set of tests on `target`.
    fn fire_tests(target: ChartTarget, r: &FireResults, unobserved: bool, cover: Cover) -> Vec<(CmCause, u32)> {
        let (t, open_topped) = target.chart();
        test_set(t, open_topped, &r.incidents(target, cover), unobserved)
    }

    #[test]
    fn infantry_in_soft_cover_hit_by_small_arms_from_an_unseen_enemy() {
        let r = FireResults { small_arms: true, casualties: 2, ..FireResults::default() };
        let causes = fire_tests(ChartTarget::Infantry { figures: true }, &r, true, Cover::Soft);
        assert_eq!(
            causes,
            [(CmCause::SmallArmsInSoftCover, 1), (CmCause::CasualtyInSoftCover, 2), (CmCause::UnobservedEnemy, 1)]
        );
    }

    #[test]
    fn riflemen_under_a_tanks_fire_take_the_armour_row() {
        // FYOB "Momentum Test Chart - infantry": "Under fire from armour
        // without a suitable AT weapon 18 / 9 / 4", "with a suitable AT weapon
        // 6 / 3 / 1", beside "Under small arms/MG fire ... in the open 14 / 7 / 3".
        let riflemen = ChartTarget::Infantry { figures: true };
        let without = FireResults { small_arms: true, from_armour: Some(false), ..FireResults::default() };
        let causes = fire_tests(riflemen, &without, false, Cover::Open);
        assert_eq!(causes, [(CmCause::SmallArmsInOpen, 1), (CmCause::ArmourWithoutAtWeapon, 1)]);
        let tests = |c| crate::momentum::tests_for(ElementType::Infantry, crate::officer::Quality::Regular, c).unwrap();
        assert_eq!(causes.iter().map(|&(c, _)| tests(c)).sum::<u32>(), 7 + 9);
        let with = FireResults { from_armour: Some(true), ..without };
        assert_eq!(fire_tests(riflemen, &with, false, Cover::Open)[1], (CmCause::ArmourWithAtWeapon, 1));
        // Neither AFV nor soft-skin chart has the row.
        let on_a_lorry = fire_tests(ChartTarget::SoftSkin, &without, false, Cover::Open);
        assert_eq!(on_a_lorry, [(CmCause::SmallArms, 1)]);
    }

    #[test]
    fn a_closed_afv_under_he_and_damaged() {
        let r = FireResults { he: true, damaged: true, ..FireResults::default() };
        let causes = fire_tests(ChartTarget::Afv { open_topped: false }, &r, false, Cover::Open);
        assert_eq!(causes, [(CmCause::ClosedAfvUnderHe, 1), (CmCause::OwnVehicleDamaged, 1)]);
    }

    #[test]
    fn a_weapon_in_range_puts_its_target_under_fire_though_no_shot_hits() {
        // "even though any shot has not caused either": a volley that missed
        // still falls on the chart's "Under small arms/MG fire" row.
        let missed = FireResults::under_fire_from(ChartTarget::Infantry { figures: true }, false, false);
        assert_eq!(
            fire_tests(ChartTarget::Infantry { figures: true }, &missed, false, Cover::Open),
            [(CmCause::SmallArmsInOpen, 1)]
        );
        let shelled = FireResults::under_fire_from(ChartTarget::Infantry { figures: false }, true, false);
        assert!(
            fire_tests(ChartTarget::Infantry { figures: false }, &shelled, false, Cover::Hard)
                .contains(&(CmCause::MortarArtilleryOrAir, 1))
        );
        let lorry = FireResults::under_fire_from(ChartTarget::SoftSkin, false, false);
        assert_eq!(fire_tests(ChartTarget::SoftSkin, &lorry, false, Cover::Open), [(CmCause::SmallArms, 1)]);
    }

    #[test]
    fn a_weapon_that_cannot_hurt_an_afv_puts_it_under_nothing() {
        // "has the capability of taking casualties or inflicting damage": a
        // rifle volley at a closed AFV does not put it under fire.
        let rifles = FireResults::under_fire_from(ChartTarget::Afv { open_topped: false }, false, false);
        assert!(fire_tests(ChartTarget::Afv { open_topped: false }, &rifles, true, Cover::Open).is_empty());
        let gun = FireResults::under_fire_from(ChartTarget::Afv { open_topped: false }, false, true);
        assert_eq!(
            fire_tests(ChartTarget::Afv { open_topped: false }, &gun, false, Cover::Open),
            [(CmCause::AtFire, 1)]
        );
    }

    #[test]
    fn nothing_on_a_vehicle_adds_no_unobserved_row() {
        let causes = fire_tests(ChartTarget::SoftSkin, &FireResults::default(), true, Cover::Open);
        assert!(causes.is_empty());
    }

    #[test]
    fn a_gun_crew_losing_its_gun_has_no_figures_to_test_for_it() {
        let r = FireResults { he: true, guns_lost: 1, ..FireResults::default() };
        let with = fire_tests(ChartTarget::Infantry { figures: true }, &r, false, Cover::Open);
        let without = fire_tests(ChartTarget::Infantry { figures: false }, &r, false, Cover::Open);
        assert!(with.contains(&(CmCause::AttachedCswLost, 1)));
        assert!(!without.iter().any(|(c, _)| *c == CmCause::AttachedCswLost));
    }
}
