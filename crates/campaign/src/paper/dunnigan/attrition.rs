//! Loss of Combat Value by attrition (FYOW 33.10): the assets a player
//! removes or reduces to make up a loss.

use serde::{Deserialize, Serialize};
use warbound_rules::event::RuleEvent;

use super::common::event;
use crate::paper::PaperError;

/// One asset a player removes or reduces to make up a loss (33.7.3 (ix), 33.10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AssetLoss {
    /// An element removed from the ORBAT, worth `points`.
    Removed { name: String, points: u32 },
    /// An AFV of `full_value` points reduced by `reduction` points (at most
    /// 50%); it is "damaged" when it next appears on the table.
    AfvReduced { name: String, full_value: u32, reduction: u32 },
}

/// The attrition booked against a force's ORBAT.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attrition {
    pub points_removed: u32,
    /// AFVs now damaged, to be repaired by Work & Tasks (31).
    pub damaged_afvs: Vec<String>,
}

/// Checks the assets a player chose to make up a `loss` of points (33.10):
/// AFVs reduced by no more than 50%, and the total at least the loss less the
/// 1 point that "may be ignored for ease".
pub fn allocate_losses(force: &str, loss: u32, assets: &[AssetLoss]) -> Result<(Attrition, RuleEvent), PaperError> {
    let mut a = Attrition { points_removed: 0, damaged_afvs: Vec::new() };
    for asset in assets {
        match asset {
            AssetLoss::Removed { points, .. } => a.points_removed += points,
            AssetLoss::AfvReduced { name, full_value, reduction } => {
                if u64::from(*reduction) * 2 > u64::from(*full_value) {
                    return Err(PaperError::new(
                        "33.10",
                        format!("{name}: an AFV's value can be reduced by up to 50% ({reduction} of {full_value})"),
                    ));
                }
                a.points_removed += reduction;
                a.damaged_afvs.push(name.clone());
            }
        }
    }
    if a.points_removed + 1 < loss {
        return Err(PaperError::new(
            "33.7.3 (ix)",
            format!("{force}: {} points removed do not make up a loss of {loss}", a.points_removed),
        ));
    }
    let e = event("33.10 Loss of Combat Value by attrition")
        .actor(force)
        .input("loss", loss, "from the Losses Suffered Table")
        .input("assets", assets, "the player's choice")
        .outcome(&a);
    Ok((a, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use warbound_rules::event::EventKind;

    #[test]
    fn attrition_allows_one_point_short_and_half_an_afv() {
        let assets = vec![
            AssetLoss::Removed { name: "MG".into(), points: 5 },
            AssetLoss::AfvReduced { name: "Stuart".into(), full_value: 60, reduction: 30 },
        ];
        let (a, e) = allocate_losses("BG", 36, &assets).unwrap();
        assert_eq!(a.points_removed, 35);
        assert_eq!(a.damaged_afvs, vec!["Stuart".to_string()]);
        assert_eq!(e.kind, EventKind::PaperBattle);
        assert!(allocate_losses("BG", 37, &assets).is_err());
        let too_much = [AssetLoss::AfvReduced { name: "Stuart".into(), full_value: 60, reduction: 31 }];
        assert_eq!(allocate_losses("BG", 31, &too_much).unwrap_err().section, "33.10");
    }
}
