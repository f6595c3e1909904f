//! Where a landing force's waves are in the campaign (FYOW 18.2): which of
//! its Landing Plan's waves are still at sea when it fights on its beach,
//! for the table's landing craft and for the paper battles.

use crate::map::board::BoardId;
use crate::play::file::Start as FileStart;
use crate::play::state::{Campaign, Whereabouts};
use crate::table::forces::Afloat;

/// The waves of force `i`'s Landing Plan still afloat when it fights on
/// `board`: none unless the board is its plan's beach and it has landed
/// there; the first wave is ashore in its landing session, and each session
/// it has spent there since has brought the next.
pub(crate) fn afloat(c: &Campaign, i: usize, board: &BoardId) -> Option<Afloat> {
    let f = c.forces.get(i)?;
    let bg =
        c.file.army(f.side).battlegroups.iter().find(|b| b.name == f.name || Some(&b.name) == f.parent.as_ref())?;
    let (Some(plan), FileStart::Afloat { beach, .. }) = (&bg.landing, &bg.start) else { return None };
    if beach != board || f.at != Whereabouts::Board(beach.clone()) {
        return None;
    }
    Afloat::after(plan, f.sessions_here)
}

/// FYOW 18.2, the Landing Plan's "impact on ... the 'Dunnigan Rules'": the
/// elements of force `i` still at sea beyond this session's wave, which its
/// paper battles neither count nor take losses from. The wave landing this
/// session is ashore for them.
pub(crate) fn offshore(c: &Campaign, i: usize) -> Vec<String> {
    let Some(Whereabouts::Board(board)) = c.forces.get(i).map(|f| &f.at) else { return Vec::new() };
    afloat(c, i, board).map(|a| a.waves.into_iter().skip(1).flatten().collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FYOW 18.2's "impact on ... the 'Dunnigan Rules'": in the session the
    /// 4th Dorsets land at Cobo Bay their second wave is still at sea, out
    /// of their paper battles; the session after, it lands and counts.
    #[test]
    fn on_paper_only_the_waves_ashore_count() {
        let mut c = Campaign::new("guernsey-1942", crate::play::testing::guernsey(), 1).unwrap();
        let i = c.forces.iter().position(|f| f.name == "4th Dorsets").unwrap();
        assert!(offshore(&c, i).is_empty(), "afloat, not yet landed: no battle on the beach");
        c.forces[i].at = Whereabouts::Board(BoardId::new("Cobo Bay"));
        c.forces[i].sessions_here = 0;
        assert_eq!(
            offshore(&c, i),
            ["C Company", "Carrier Platoon", "3 Troop, B Sqn North Irish Horse (3 x Churchill III)"]
        );
        c.forces[i].sessions_here = 1;
        assert!(offshore(&c, i).is_empty(), "the second wave lands this session");
        c.forces[i].sessions_here = 0;
        c.forces[i].at = Whereabouts::Board(BoardId::new("Castel"));
        assert!(offshore(&c, i).is_empty(), "off its beach the plan is done");
    }
}
