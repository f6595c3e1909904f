//! Supplemental Effects suffered by forces after a conflict (FYOW 33.7.3):
//! damage to supporting aircraft and shipping, ammunition used, engineers'
//! equipment lost, and damage to buildings and bridges.

use serde::{Deserialize, Serialize};
use warbound_rules::dice::Roll;
use warbound_rules::event::RuleEvent;

use super::common::event;
use super::crt::CrtResult;
use super::force::Force;
use super::losses::Role;

/// How much of a force's ammunition stock a battle used (Supplemental Effects table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AmmoUsed {
    None,
    Quarter,
    Half,
    ThreeQuarters,
    All,
    /// "All used and stockpile lost" (DR5).
    AllAndStockpileLost,
}

/// Supplemental effects on one force (FYOW 33.7.3, "Supplemental Effects
/// suffered by forces after a conflict").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Supplemental {
    /// Damage to each supporting aircraft or ship, in order.
    pub machine_damage: Vec<u8>,
    /// DR5 loser: "All machines lost".
    pub machines_lost: bool,
    pub ammo: AmmoUsed,
    pub engineer_pieces_lost: u32,
    /// Damage to each building or bridge, in order.
    pub building_damage: Vec<u8>,
}

/// The supplemental row a force reads: 0 for "NR/winner", else the loser's
/// level (1 AR/DR … 5 DR5).
///
/// Reading: the table's blank cells were vertically merged cells; each blank
/// repeats the entry above it (AR3/DR3 reads as AR2/DR2; the AR/DR ammunition
/// and equipment cells read as NR/winner; every row's building damage reads as
/// the one entry given). DR4's ammunition cell gives no face 6: as the worse
/// end of a continuous scale it reads "all used".
fn supplemental_row(result: CrtResult, role: Role) -> usize {
    if role == Role::Loser { result.level() } else { 0 }
}

/// D6 minus this per machine ("Aircraft/shipping damaged/lost"); `None` is "All machines lost".
fn machine_deduction(row: usize) -> Option<u8> {
    match row {
        0 => Some(3),     // NR/winner: D6 minus 3
        1 => Some(2),     // AR/DR: D6 minus 2
        2 | 3 => Some(1), // AR2/DR2 (AR3/DR3 merged): D6 minus 1
        4 => Some(0),     // DR4: D6
        _ => None,        // DR5: all machines lost
    }
}

/// "Ammo stocks": the D6 read by row; `None` for DR5's "all used and stockpile lost".
fn ammo_used(row: usize, face: u8) -> AmmoUsed {
    use AmmoUsed::*;
    match (row, face) {
        // NR/winner (and AR/DR, merged): 2,3 = 1/4; 4,5 = 1/2; 6 = 3/4.
        (0 | 1, 1) => None,
        (0 | 1, 2 | 3) => Quarter,
        (0 | 1, 4 | 5) => Half,
        (0 | 1, _) => ThreeQuarters,
        // AR2/DR2 (and AR3/DR3, merged): 1 = 1/4; 2,3 = 1/2; 4,5 = 3/4; 6 = all.
        (2 | 3, 1) => Quarter,
        (2 | 3, 2 | 3) => Half,
        (2 | 3, 4 | 5) => ThreeQuarters,
        (2 | 3, _) => All,
        // DR4: 1,2 = 1/2; 3,4,5 (and 6) = all.
        (4, 1 | 2) => Half,
        (4, _) => All,
        _ => AllAndStockpileLost,
    }
}

/// "Engineers equipment": a piece is lost on this or less (D6 each); DR5 loses all.
fn engineer_loss_on(row: usize) -> Option<u8> {
    match row {
        0 | 1 => Some(2), // 1,2 = lost
        2 | 3 => Some(3), // 1,2,3 = lost
        4 => Some(4),     // 1,2,3,4 = lost
        _ => None,        // all lost
    }
}

/// Supplemental effects on one force.
pub(super) fn supplemental(
    force: &Force,
    result: CrtResult,
    role: Role,
    dice: &mut impl Roll,
) -> (Supplemental, RuleEvent) {
    let row = supplemental_row(result, role);
    let mut e = event("33.7.3 (ix) Supplemental Effects").actor(force.name.clone()).input(
        "row",
        ["NR/winner", "AR/DR", "AR2/DR2", "AR3/DR3", "DR4", "DR5"][row],
        format!("{result:?} as {role:?}"),
    );
    let (machine_damage, machines_lost) = match machine_deduction(row) {
        Some(minus) => {
            let faces = dice.throw(force.machines as usize, 6);
            e = e.dice(6, &faces);
            (faces.iter().map(|&f| f.saturating_sub(minus)).collect(), false)
        }
        None => (Vec::new(), force.machines > 0),
    };
    let ammo = if row == 5 {
        AmmoUsed::AllAndStockpileLost
    } else {
        let f = dice.d6();
        e = e.dice(6, &[f]);
        ammo_used(row, f)
    };
    let engineer_pieces_lost = match engineer_loss_on(row) {
        Some(on) => {
            let faces = dice.throw(force.engineer_pieces as usize, 6);
            e = e.dice(6, &faces);
            faces.iter().filter(|&&f| f <= on).count() as u32
        }
        None => force.engineer_pieces,
    };
    // Building & Bridge damage: (D6 for each) 1, 2, 3 = that much damage.
    let faces = dice.throw(force.buildings as usize, 6);
    e = e.dice(6, &faces);
    let building_damage: Vec<u8> = faces.iter().map(|&f| if f <= 3 { f } else { 0 }).collect();
    let s = Supplemental { machine_damage, machines_lost, ammo, engineer_pieces_lost, building_damage };
    let e = e
        .input("machines", force.machines, "")
        .input("engineer_pieces", force.engineer_pieces, "")
        .input("buildings", force.buildings, "")
        .outcome(&s);
    (s, e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn supplemental_merged_rows_read_from_above() {
        assert_eq!(machine_deduction(3), machine_deduction(2));
        assert_eq!(ammo_used(3, 6), AmmoUsed::All);
        assert_eq!(ammo_used(1, 1), AmmoUsed::None);
        assert_eq!(ammo_used(4, 6), AmmoUsed::All, "DR4's missing 6 reads all used");
        assert_eq!(engineer_loss_on(1), Some(2));
        assert_eq!(engineer_loss_on(3), Some(3));
    }
}
