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
