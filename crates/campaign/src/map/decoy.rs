//! Decoy Map Markers (FYOW 19): a Battlegroup shown by up to three markers
//! A, B and C, which of them is real decided by a D3 only when a marker meets
//! the enemy or its owner chooses to reveal it.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use crate::map::board::BoardId;
use crate::map::common::MapError;

/// A marker's letter; a D3 reads 1 = A, 2 = B, 3 = C (FYOW 19.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DecoyLabel {
    A,
    B,
    C,
}

impl DecoyLabel {
    pub const ALL: [DecoyLabel; 3] = [DecoyLabel::A, DecoyLabel::B, DecoyLabel::C];

    /// The label a D3 face names.
    pub fn from_d3(face: u8) -> Option<Self> {
        Self::ALL.get(usize::from(face).checked_sub(1)?).copied()
    }
}

/// One marker on the campaign map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecoyMarker {
    pub label: DecoyLabel,
    pub board: BoardId,
}

/// What a contact or a reveal decided.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reveal {
    /// The marker is the Battlegroup; the other markers are removed.
    Real(DecoyLabel),
    /// The marker was a decoy and is removed.
    Removed(DecoyLabel),
}

/// The markers of one Battlegroup (FYOW 19.2). All act on the Battlegroup's orders and
/// activation; each takes the Movement Test of the link it traverses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecoySet {
    pub battlegroup: String,
    markers: Vec<DecoyMarker>,
    revealed: bool,
}

fn rule(section: &str) -> RuleRef {
    RuleRef::new(Book::FightYourOwnWars, section)
}

impl DecoySet {
    /// "Any Battlegroup can be represented by up to 3 Map markers", each labelled once.
    pub fn new(battlegroup: impl Into<String>, markers: Vec<DecoyMarker>) -> Result<Self, MapError> {
        let battlegroup = battlegroup.into();
        if markers.is_empty() || markers.len() > 3 {
            return Err(MapError::NotAllowed(format!(
                "{battlegroup} has {} markers: 1 to 3 (FYOW 19.2)",
                markers.len()
            )));
        }
        for (i, m) in markers.iter().enumerate() {
            if markers[..i].iter().any(|x| x.label == m.label) {
                return Err(MapError::NotAllowed(format!("{battlegroup} has two markers labelled {:?}", m.label)));
            }
        }
        let revealed = markers.len() == 1;
        Ok(Self { battlegroup, markers, revealed })
    }

    pub fn markers(&self) -> &[DecoyMarker] {
        &self.markers
    }

    /// The real Battlegroup's board once known: when revealed, or when one marker is left.
    /// Reading (FYOW 19.3): the last marker left is the Battlegroup.
    pub fn real(&self) -> Option<&DecoyMarker> {
        self.markers.first().filter(|_| self.revealed)
    }

    fn index(&self, label: DecoyLabel) -> Result<usize, MapError> {
        self.markers
            .iter()
            .position(|m| m.label == label)
            .ok_or_else(|| MapError::NotAllowed(format!("{} has no marker {label:?}", self.battlegroup)))
    }

    /// A marker moved after a successful Movement Test. Markers that come to share a board
    /// "merge together and are removed" (FYOW 19.3).
    /// Reading: the markers on one board become one, keeping the earliest letter.
    pub fn move_marker(&mut self, label: DecoyLabel, to: BoardId) -> Result<(), MapError> {
        let i = self.index(label)?;
        self.markers[i].board = to;
        let mut kept: Vec<DecoyMarker> = Vec::new();
        let mut markers = std::mem::take(&mut self.markers);
        markers.sort_by_key(|m| m.label);
        for m in markers {
            if !kept.iter().any(|k| k.board == m.board) {
                kept.push(m);
            }
        }
        self.markers = kept;
        self.revealed |= self.markers.len() == 1;
        Ok(())
    }

    fn keep_only(&mut self, label: DecoyLabel) {
        self.markers.retain(|m| m.label == label);
        self.revealed = true;
    }

    /// FYOW 19.3: a marker contacts the enemy. Its owner throws a D3: the label thrown reveals
    /// the marker as the Battlegroup (the others are removed); any other throw removes it.
    pub fn contact(&mut self, label: DecoyLabel, dice: &mut impl Roll) -> Result<(Reveal, RuleEvent), MapError> {
        let i = self.index(label)?;
        let event = RuleEvent::new(EventKind::Detection, rule("19.3 Detecting or revealing decoys"))
            .actor(&self.battlegroup)
            .input("marker", label, "in contact with the enemy")
            .input("markers_left", self.markers.len(), "");
        if self.revealed {
            return Ok((Reveal::Real(label), event.outcome(json!({ "real": label, "thrown": false }))));
        }
        let face = dice.d3();
        let reveal = if DecoyLabel::from_d3(face) == Some(label) {
            self.keep_only(label);
            Reveal::Real(label)
        } else {
            self.markers.remove(i);
            self.revealed = self.markers.len() == 1;
            Reveal::Removed(label)
        };
        let event = event.dice(3, &[face]).outcome(json!({ "reveal": reveal }));
        Ok((reveal, event))
    }

    /// FYOW 19.3: at any point the owner throws a D3 to decide which marker is real; the others
    /// are removed. Reading: a throw naming a marker no longer on the map is thrown again.
    pub fn reveal(&mut self, dice: &mut impl Roll) -> Result<(DecoyLabel, RuleEvent), MapError> {
        if self.markers.is_empty() {
            return Err(MapError::NotAllowed(format!("{} has no markers on the map (FYOW 19.2)", self.battlegroup)));
        }
        let mut faces = Vec::new();
        let label = loop {
            if self.revealed {
                break self.markers[0].label;
            }
            let face = dice.d3();
            faces.push(face);
            if let Some(l) = DecoyLabel::from_d3(face).filter(|l| self.markers.iter().any(|m| m.label == *l)) {
                break l;
            }
        };
        self.keep_only(label);
        let event = RuleEvent::new(EventKind::Detection, rule("19.3 Detecting or revealing decoys"))
            .actor(&self.battlegroup)
            .input("by", "owner", "the Battlegroup Commander decides to reveal")
            .dice(3, &faces)
            .outcome(json!({ "real": label, "board": &self.markers[0].board }));
        Ok((label, event))
    }

    /// FYOW 19.3: after a decoy is removed, when next activated, a remaining marker is the basis
    /// for a replacement decoy on its board under a free letter; the two may then part.
    pub fn replace(&mut self, basis: DecoyLabel) -> Result<DecoyLabel, MapError> {
        if self.revealed {
            return Err(MapError::NotAllowed(format!("{} is revealed: no more decoys (FYOW 19.3)", self.battlegroup)));
        }
        let board = self.markers[self.index(basis)?].board.clone();
        let free = DecoyLabel::ALL
            .into_iter()
            .find(|l| self.markers.iter().all(|m| m.label != *l))
            .ok_or_else(|| MapError::NotAllowed(format!("{} already has 3 markers (FYOW 19.2)", self.battlegroup)))?;
        self.markers.push(DecoyMarker { label: free, board });
        self.markers.sort_by_key(|m| m.label);
        Ok(free)
    }
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;

    fn set() -> DecoySet {
        let m = |label, b: &str| DecoyMarker { label, board: BoardId::new(b) };
        DecoySet::new("2 Bn", vec![m(DecoyLabel::A, "1"), m(DecoyLabel::B, "2"), m(DecoyLabel::C, "3")]).unwrap()
    }

    #[test]
    fn the_d3_reads_a_b_c() {
        assert_eq!(DecoyLabel::from_d3(1), Some(DecoyLabel::A));
        assert_eq!(DecoyLabel::from_d3(3), Some(DecoyLabel::C));
        assert_eq!(DecoyLabel::from_d3(0), None);
        assert_eq!(DecoyLabel::from_d3(4), None);
    }

    #[test]
    fn a_contact_reveals_the_marker_on_its_letter() {
        let mut s = set();
        // The order die D3 reads a D6 as 1,1,2,2,3,3: a 4 is "2" = B.
        let (r, e) = s.contact(DecoyLabel::B, &mut Scripted::new([4])).unwrap();
        assert_eq!(r, Reveal::Real(DecoyLabel::B));
        assert_eq!(s.markers().len(), 1);
        assert_eq!(s.real().unwrap().board, BoardId::new("2"));
        assert_eq!(e.dice[0].face, 2);
    }

    #[test]
    fn a_contact_on_another_letter_removes_the_decoy_and_the_last_marker_is_real() {
        let mut s = set();
        let (r, _) = s.contact(DecoyLabel::A, &mut Scripted::new([6])).unwrap();
        assert_eq!(r, Reveal::Removed(DecoyLabel::A));
        assert_eq!(s.real(), None);
        assert_eq!(s.replace(DecoyLabel::C).unwrap(), DecoyLabel::A, "a replacement on C's board");
        assert_eq!(s.markers()[0].board, BoardId::new("3"));
        s.contact(DecoyLabel::A, &mut Scripted::new([3])).unwrap();
        s.contact(DecoyLabel::B, &mut Scripted::new([1])).unwrap();
        assert_eq!(s.real().unwrap().label, DecoyLabel::C);
        let (r, e) = s.contact(DecoyLabel::C, &mut Scripted::new([])).unwrap();
        assert_eq!(r, Reveal::Real(DecoyLabel::C));
        assert!(e.dice.is_empty());
        assert!(s.replace(DecoyLabel::C).is_err());
    }

    #[test]
    fn the_owner_may_reveal_at_will_and_markers_merge_on_one_board() {
        let mut s = set();
        s.contact(DecoyLabel::A, &mut Scripted::new([5])).unwrap();
        let (real, e) = s.reveal(&mut Scripted::new([1, 6])).unwrap();
        assert_eq!(real, DecoyLabel::C, "A is gone: thrown again");
        assert_eq!(e.dice.len(), 2);
        let mut s = set();
        s.move_marker(DecoyLabel::C, BoardId::new("2")).unwrap();
        assert_eq!(s.markers().iter().map(|m| m.label).collect::<Vec<_>>(), [DecoyLabel::A, DecoyLabel::B]);
        s.move_marker(DecoyLabel::A, BoardId::new("2")).unwrap();
        assert_eq!(s.real().unwrap().label, DecoyLabel::A);
    }

    #[test]
    fn a_set_holds_one_to_three_distinct_markers() {
        let m = |label| DecoyMarker { label, board: BoardId::new("1") };
        assert!(DecoySet::new("x", vec![]).is_err());
        assert!(DecoySet::new("x", vec![m(DecoyLabel::A), m(DecoyLabel::A)]).is_err());
        assert!(set().contact(DecoyLabel::A, &mut Scripted::new([1])).is_ok());
        let mut full = set();
        assert!(full.replace(DecoyLabel::A).is_err(), "already 3");
        let mut saved: DecoySet = serde_json::from_str(r#"{"battlegroup":"x","markers":[],"revealed":true}"#).unwrap();
        assert_eq!(saved.real(), None);
        assert!(saved.reveal(&mut Scripted::new([])).is_err(), "bad saved data is an error, not a panic");
    }
}
