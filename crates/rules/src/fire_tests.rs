//! The CM tests fire leaves its target to take on its next activation (FYOB
//! "Momentum Test Chart"): which rows of the chart a volley's results fall
//! on, by what the target is, its cover and whether the firer was seen.

use crate::{firing::Cover, momentum::CmCause};

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

/// What the fire did to the target.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FireResults {
    /// Small-arms fire fell on it.
    pub small_arms: bool,
    /// HE fell on it.
    pub he: bool,
    /// AT fire from a weapon that can destroy it.
    pub at: bool,
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
}

/// The chart rows (and how many times each) the fire accrues: under small
/// arms by its cover, each casualty by its cover, mortar, artillery or air
/// fire, an attached CSW lost; for an AFV AT fire, HE open or closed, its own
/// vehicle damaged; for a soft-skin small arms and AT fire; and, when any of
/// these falls on it from an enemy it has not observed, one more row for
/// the unobserved enemy.
pub fn fire_tests(target: ChartTarget, r: &FireResults, unobserved: bool, cover: Cover) -> Vec<(CmCause, u32)> {
    let (small_arms, casualty) = match cover {
        Cover::Hard | Cover::Pillbox => (CmCause::SmallArmsInHardCover, CmCause::CasualtyInHardCover),
        Cover::Soft | Cover::HullDown => (CmCause::SmallArmsInSoftCover, CmCause::CasualtyInSoftCover),
        Cover::Open => (CmCause::SmallArmsInOpen, CmCause::CasualtyInOpen),
    };
    let mut causes: Vec<(CmCause, u32)> = Vec::new();
    match target {
        ChartTarget::Infantry { figures } => {
            if r.small_arms {
                causes.push((small_arms, 1));
            }
            if r.he {
                causes.push((CmCause::MortarArtilleryOrAir, 1));
            }
            causes.push((casualty, r.casualties));
            if r.guns_lost > 0 && figures {
                causes.push((CmCause::AttachedCswLost, r.guns_lost));
            }
        }
        ChartTarget::Afv { open_topped } => {
            if r.at {
                causes.push((CmCause::AtFire, 1));
            }
            if r.he {
                causes.push((if open_topped { CmCause::OpenAfvUnderHe } else { CmCause::ClosedAfvUnderHe }, 1));
            }
            if r.damaged {
                causes.push((CmCause::OwnVehicleDamaged, 1));
            }
        }
        ChartTarget::SoftSkin => {
            if r.small_arms {
                causes.push((CmCause::SmallArms, 1));
            }
            if r.at {
                causes.push((CmCause::AtFire, 1));
            }
        }
    }
    if unobserved && !causes.is_empty() {
        causes.push((CmCause::UnobservedEnemy, 1));
    }
    causes
}

#[cfg(test)]
mod tests {
    use super::*;

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
            [(CmCause::SmallArmsInOpen, 1), (CmCause::CasualtyInOpen, 0)]
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
