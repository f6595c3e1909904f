//! Gathering Information in play (FYOW 16.5, 17, 17.1): a force in the box
//! of a Map Board whose enemy it has detected, and whose orders do not send
//! it in against them, throws each session for the pieces of information
//! it gathers from its list; its army keeps what it learnt of the board as
//! a report, in words, until the enemy there changes.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::army::orders::EnemyOnBoard;
use crate::map::board::BoardId;
use crate::map::information::{Fact, Observed, TroopType, Vantage, gather_information};
use crate::map::movement::MoverClass;
use crate::map::occupation::Place;
use crate::play::file::ElementFile;
use crate::play::state::{Campaign, Force};

/// What an army knows of the enemy on one Map Board (FYOW 17): the facts
/// gathered, each with what was seen, about the enemy forces named.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// The enemy forces on the board the facts are about.
    pub forces: Vec<String>,
    /// The campaign day of the last piece gathered.
    pub day: u32,
    pub findings: Vec<Finding>,
}

/// One piece of information and what it showed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    pub fact: Fact,
    /// What the observers saw, in words ("2 infantry companies").
    pub seen: String,
}

/// A question on an observing force's list (FYOW 17: "The information
/// gathered ... can be collected as the player requires. He may ignore
/// "attitude" of enemy troops for example").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Question {
    /// The troop types present.
    Troops,
    /// The number of each kind present.
    Numbers,
    Attitude,
    /// Whether the enemy occupies defences.
    Defences,
    /// The forces in the other boxes.
    Boxes,
}

impl Question {
    pub const ALL: [Question; 5] =
        [Question::Troops, Question::Numbers, Question::Attitude, Question::Defences, Question::Boxes];

    /// Whether `fact` answers this question.
    fn asks(self, fact: &Fact) -> bool {
        matches!(
            (self, fact),
            (Question::Troops, Fact::TroopTypes)
                | (Question::Numbers, Fact::Number(_))
                | (Question::Attitude, Fact::Attitude)
                | (Question::Defences, Fact::OccupiesDefences)
                | (Question::Boxes, Fact::ForcesInBox)
        )
    }

    /// The question in the player's words.
    pub fn words(self) -> &'static str {
        match self {
            Question::Troops => "the kinds of troops",
            Question::Numbers => "how many of each",
            Question::Attitude => "their attitude",
            Question::Defences => "whether they hold defences",
            Question::Boxes => "the forces in the other boxes",
        }
    }
}

/// The kinds of troops the observers count, in the order they ask for them.
const TROOP_TYPES: [TroopType; 4] =
    [TroopType::Infantry, TroopType::Armour, TroopType::ArmouredCars, TroopType::Artillery];

/// The kind of troops a campaign element is, as observers tell them apart:
/// guns (field guns with heavy pieces or a FOO, self-propelled artillery),
/// armoured cars (wheeled AFVs), armour (other AFVs), infantry (troops on
/// foot, on bicycles or horses, in lorries, carriers or half-tracks);
/// `None` for trains and boats.
pub fn troop_type(e: &ElementFile) -> Option<TroopType> {
    use MoverClass as M;
    if e.heavy_guns > 0 || e.foo.is_some() || e.mover == M::SpArtillery {
        return Some(TroopType::Artillery);
    }
    if e.afv {
        return Some(if matches!(e.mover, M::FourWheeledArmour | M::SixPlusWheeledArmour) {
            TroopType::ArmouredCars
        } else {
            TroopType::Armour
        });
    }
    match e.mover {
        M::Trains | M::RowedCraft | M::Ferry | M::PoweredCraft => None,
        _ => Some(TroopType::Infantry),
    }
}

/// How many elements of `kind` the forces hold.
fn count(forces: &[&Force], kind: &TroopType) -> usize {
    forces.iter().flat_map(|f| &f.kit).filter(|e| troop_type(e).as_ref() == Some(kind)).count()
}

fn troops_words(kind: &TroopType, n: usize) -> String {
    let (one, many) = match kind {
        TroopType::Infantry => ("infantry company", "infantry companies"),
        TroopType::Armour => ("troop or platoon of tanks", "troops or platoons of tanks"),
        TroopType::ArmouredCars => ("troop of armoured cars", "troops of armoured cars"),
        TroopType::Artillery => ("battery of guns", "batteries of guns"),
        TroopType::Other(what) => return format!("{n} {what}"),
    };
    format!("{n} {}", if n == 1 { one } else { many })
}

fn type_name(kind: &TroopType) -> &str {
    match kind {
        TroopType::Infantry => "infantry",
        TroopType::Armour => "armour",
        TroopType::ArmouredCars => "armoured cars",
        TroopType::Artillery => "artillery",
        TroopType::Other(what) => what,
    }
}

/// "a", "a and b", "a, b and c".
fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

impl Campaign {
    /// FYOW 17.1: the information gathering attempt of `name` this session,
    /// when it stands in a box of its board, has detected an enemy force on
    /// the board itself, is not fighting, and its orders do not send it in
    /// against the enemy (16.5: "If the purpose of the force is to gather
    /// information rather than to attack"). It throws a D6 (less 1 at night,
    /// less 1 in fog or heavy rain) for the pieces it takes from its army's
    /// list ([`Campaign::wanted`]); its army's report on the board keeps them.
    ///
    /// Reading (FYOW 17 "Information cannot be gathered on Concealed
    /// units"): the facts are about the detected enemy forces on the board
    /// that are not entirely concealed; when every one is, the enemy facts
    /// are passed over. Test `a_force_in_the_box_gathers_information_on_the_enemy_it_detected`.
    pub(crate) fn gather_intelligence(&mut self, name: &str) {
        let Some(i) = self.fx(name) else { return };
        let f = &self.forces[i];
        let (Some(board), side) = (f.board().cloned(), f.side) else { return };
        if !self.in_box(name)
            || self.in_battle(name)
            || f.order.enemy_on_destination() == EnemyOnBoard::Enters
            || f.is_gone()
        {
            return;
        }
        let on_board: Vec<&crate::map::occupation::Occupant> = self.occupation[&board]
            .occupants
            .iter()
            .filter(|o| o.side != side && o.place == Place::OnBoard && f.sighted.contains(&o.force))
            .collect();
        if on_board.is_empty() {
            return;
        }
        let concealed = on_board.iter().all(|o| o.entirely_concealed);
        let forces: Vec<String> = on_board.iter().filter(|o| !o.entirely_concealed).map(|o| o.force.clone()).collect();
        self.gather_on(name, "its box", (side, &board), forces, concealed);
    }

    /// FYOW 17.1 for `observer` of `side`, watching `board` from `lookout`
    /// ("its box", "the air"): the throw, the facts from the list about the
    /// enemy `forces` detected there (none to be had when every one is
    /// `concealed`), logged and kept in its army's report.
    pub(crate) fn gather_on(
        &mut self,
        observer: &str,
        lookout: &str,
        (side, board): (crate::map::common::Side, &BoardId),
        mut forces: Vec<String>,
        concealed: bool,
    ) {
        forces.sort();
        let observed = Observed { enemy_present: true, enemy_concealed: concealed };
        let report = self.army(side).reports.get(board).filter(|r| r.forces == forces && !forces.is_empty()).cloned();
        let known: Vec<Fact> =
            report.as_ref().map(|r| r.findings.iter().map(|x| x.fact.clone()).collect()).unwrap_or_default();
        let wanted = self.wanted(observer, &forces);
        // Nothing left on the list to learn: the observers throw no more.
        if !forces.is_empty() && wanted.iter().all(|f| known.contains(f)) {
            return;
        }
        let conditions = self.conditions;
        let Ok((gathered, event)) =
            gather_information(observer, Vantage::Box, observed, &conditions, &wanted, &known, &mut self.dice)
        else {
            return;
        };
        let findings: Vec<Finding> = gathered
            .facts
            .iter()
            .map(|fact| Finding { fact: fact.clone(), seen: self.seen(fact, board, &forces, side) })
            .collect();
        let seen: Vec<&str> = findings.iter().map(|x| x.seen.as_str()).collect();
        let mut event = event.target(&board.0).input("board", board, "the Map Board observed").input(
            "from",
            lookout,
            "where the observers watch from",
        );
        event.outcome["seen"] = json!(seen);
        self.log(event);
        if !findings.is_empty() {
            let day = self.day;
            let mut kept = report.unwrap_or(Report { forces: forces.clone(), day, findings: Vec::new() });
            kept.day = day;
            kept.findings.extend(findings);
            self.army_mut(side).reports.insert(board.clone(), kept);
        }
    }

    /// The list an observing force works through, in order (FYOW 17's
    /// "for example" list): the troop types present, then the number of
    /// each, the enemy's attitude, whether it occupies defences, and the
    /// forces in the box.
    ///
    /// Reading (FYOW 17 "The number of platoons cannot be gathered without
    /// knowing that infantry are present"): the observers count only the
    /// kinds of troops present, which they learn first; the campaign keeps
    /// infantry by companies, so the count is of companies.
    ///
    /// A player's force asks only the questions he chose for it
    /// ([`Command::Inquire`](crate::play::command::Command::Inquire)).
    fn wanted(&self, observer: &str, forces: &[String]) -> Vec<Fact> {
        let enemy: Vec<&Force> = forces.iter().filter_map(|n| self.force(n)).collect();
        let numbers = TROOP_TYPES.iter().filter(|k| count(&enemy, k) > 0).map(|k| Fact::Number(k.clone()));
        let asked = self.force(observer).and_then(|f| f.questions.clone());
        std::iter::once(Fact::TroopTypes)
            .chain(numbers)
            .chain([Fact::Attitude, Fact::OccupiesDefences, Fact::ForcesInBox])
            .filter(|fact| asked.as_ref().is_none_or(|q| q.iter().any(|q| q.asks(fact))))
            .collect()
    }

    /// The player sets the questions `force`'s observers ask (FYOW 17).
    pub(crate) fn inquire(
        &mut self,
        force: &str,
        questions: Vec<Question>,
    ) -> Result<(), crate::play::state::CampaignError> {
        let i = self.live(force)?;
        self.forces[i].questions = Some(questions);
        Ok(())
    }

    /// What the observers see of `fact` on `board`, in words.
    fn seen(&self, fact: &Fact, board: &BoardId, forces: &[String], side: crate::map::common::Side) -> String {
        let enemy: Vec<&Force> = forces.iter().filter_map(|n| self.force(n)).collect();
        match fact {
            Fact::TroopTypes => {
                let kinds: Vec<String> =
                    TROOP_TYPES.iter().filter(|k| count(&enemy, k) > 0).map(|k| type_name(k).to_owned()).collect();
                if kinds.is_empty() { "no troops to name".to_owned() } else { listed(&kinds) }
            }
            Fact::Number(kind) => troops_words(kind, count(&enemy, kind)),
            Fact::Attitude => {
                let words: Vec<String> = forces
                    .iter()
                    .filter_map(|n| {
                        let resting = self.force(n)?.supply.mode == crate::supply::logistics::Mode::Rest;
                        let attitude = self.attitude(n)?;
                        let word = if resting { "at Rest".to_owned() } else { format!("{attitude:?}").to_lowercase() };
                        Some(format!("{n} {word}"))
                    })
                    .collect();
                listed(&words)
            }
            Fact::OccupiesDefences => {
                let dug_in = forces.iter().any(|n| {
                    matches!(
                        self.attitude(n),
                        Some(crate::map::attitude::Attitude::Deployed | crate::map::attitude::Attitude::Fortified)
                    )
                });
                if dug_in { "in defensive positions".to_owned() } else { "not in defences".to_owned() }
            }
            Fact::ForcesInBox => {
                let boxed: Vec<String> = self.occupation[board]
                    .occupants
                    .iter()
                    .filter(|o| o.side != side && matches!(o.place, Place::Box(_)))
                    .map(|o| format!("{} in the {} box", o.force, format!("{:?}", o.arrival_edge).to_lowercase()))
                    .collect();
                if boxed.is_empty() { "no force in the other boxes".to_owned() } else { listed(&boxed) }
            }
            other => format!("{other:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::orders::OrderKind;
    use crate::map::common::{Edge, Side};
    use crate::play::file::CampaignFile;
    use crate::play::file::tests::SMALL;

    /// Blue 1 under Move orders in the west box of the Village, Red 1 on it.
    fn watching(seed: u64) -> Campaign {
        let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), seed).unwrap();
        let village = BoardId::new("Village");
        c.relocate("Blue 1", &BoardId::new("Sea"), &village, Edge::West).unwrap();
        let i = c.fx("Blue 1").unwrap();
        c.forces[i].order = OrderKind::Move;
        c.drain_events();
        c
    }

    #[test]
    fn a_force_in_the_box_gathers_information_on_the_enemy_it_detected() {
        let village = BoardId::new("Village");
        // Nothing is gathered on an enemy not yet detected.
        let mut c = watching(1);
        c.gather_intelligence("Blue 1");
        assert!(c.drain_events().is_empty(), "not detected: no attempt");
        assert!(c.army(Side::Blue).reports.is_empty());

        let mut pieces_seen = Vec::new();
        for seed in 0..30 {
            let mut c = watching(seed);
            c.sight("Blue 1", "Red 1");
            c.gather_intelligence("Blue 1");
            let events = c.drain_events();
            let e = events.iter().find(|e| e.rule.section == "17.1 Information gathering attempt").expect("a throw");
            let face = e.dice[0].face;
            let night = c.conditions.light.is_night() as u8;
            let rain = c.conditions.rain_or_fog() as u8;
            let pieces = face.saturating_sub(night + rain);
            assert_eq!(e.outcome["pieces"], pieces, "seed {seed}");
            pieces_seen.push(pieces);
            let report = c.army(Side::Blue).reports.get(&village);
            if pieces == 0 {
                assert!(report.is_none(), "seed {seed}: nothing learnt, nothing kept");
                continue;
            }
            let report = report.expect("a report on the Village");
            assert_eq!(report.forces, ["Red 1"]);
            // The list in order: the troop types before their number.
            assert_eq!(report.findings[0].fact, Fact::TroopTypes);
            assert_eq!(report.findings[0].seen, "infantry");
            if pieces >= 2 {
                assert_eq!(report.findings[1].fact, Fact::Number(TroopType::Infantry));
                assert_eq!(report.findings[1].seen, "2 infantry companies");
            }
            // A 6 alone shows the forces in the box; 5 facts precede it on the list.
            let boxed = report.findings.iter().any(|x| x.fact == Fact::ForcesInBox);
            assert_eq!(boxed, face == 6 && pieces >= 5, "seed {seed}");
            // The next session's throw adds only what is not yet known.
            c.gather_intelligence("Blue 1");
            let again = &c.army(Side::Blue).reports[&village];
            let facts: Vec<&Fact> = again.findings.iter().map(|x| &x.fact).collect();
            for (k, f) in facts.iter().enumerate() {
                assert!(!facts[..k].contains(f), "seed {seed}: {f:?} learnt twice");
            }
        }
        assert!(pieces_seen.iter().any(|&p| p >= 5) && pieces_seen.iter().any(|&p| p < 5), "{pieces_seen:?}");

        // Engage orders send it in instead (16.5); a concealed enemy yields no enemy facts.
        let mut c = watching(3);
        c.sight("Blue 1", "Red 1");
        let i = c.fx("Blue 1").unwrap();
        c.forces[i].order = OrderKind::Engage;
        c.gather_intelligence("Blue 1");
        assert!(c.drain_events().is_empty(), "an attacker does not stop to gather");
        let mut c = watching(3);
        c.sight("Blue 1", "Red 1");
        c.occupation.get_mut(&village).unwrap().occupants.iter_mut().for_each(|o| {
            if o.force == "Red 1" {
                o.entirely_concealed = true;
            }
        });
        c.gather_intelligence("Blue 1");
        assert!(c.army(Side::Blue).reports.is_empty(), "information cannot be gathered on Concealed units");
        // Once everything on the list is known, the observers throw no more.
        let mut c = watching(7);
        c.sight("Blue 1", "Red 1");
        for _ in 0..100 {
            c.gather_intelligence("Blue 1");
        }
        let full = c.army(Side::Blue).reports[&village].findings.len();
        assert_eq!(full, c.wanted("Blue 1", &["Red 1".to_owned()]).len(), "every fact learnt in 100 sessions");
        c.drain_events();
        c.gather_intelligence("Blue 1");
        assert!(c.drain_events().is_empty(), "nothing left to learn: no throw");
        // A player's observers ask only what he chose: here the numbers and the attitude.
        let mut c = watching(7);
        c.sight("Blue 1", "Red 1");
        c.command(crate::play::command::Command::Inquire {
            force: "Blue 1".into(),
            questions: vec![Question::Troops, Question::Attitude],
        })
        .unwrap();
        for _ in 0..50 {
            c.gather_intelligence("Blue 1");
        }
        let facts: Vec<Fact> = c.army(Side::Blue).reports[&village].findings.iter().map(|x| x.fact.clone()).collect();
        assert_eq!(facts.len(), 2, "{facts:?}");
        assert!(facts.contains(&Fact::TroopTypes) && facts.contains(&Fact::Attitude), "{facts:?}");
        // The report goes stale when its enemy moves off.
        let mut c = watching(5);
        c.sight("Blue 1", "Red 1");
        while c.army(Side::Blue).reports.is_empty() {
            c.gather_intelligence("Blue 1");
        }
        c.lose_sight_of("Red 1");
        assert!(c.army(Side::Blue).reports.is_empty());
    }

    #[test]
    fn observers_tell_infantry_armour_armoured_cars_and_guns_apart() {
        let e = |mover: MoverClass, afv: bool, heavy_guns: u32| -> ElementFile {
            ron::from_str(&format!("(name: \"x\", mover: {mover:?}, afv: {afv}, heavy_guns: {heavy_guns})"))
                .expect("an element")
        };
        assert_eq!(troop_type(&e(MoverClass::RegularInfantry, false, 0)), Some(TroopType::Infantry));
        assert_eq!(troop_type(&e(MoverClass::HalfTracks, false, 0)), Some(TroopType::Infantry));
        assert_eq!(troop_type(&e(MoverClass::Afvs, true, 0)), Some(TroopType::Armour));
        assert_eq!(troop_type(&e(MoverClass::FourWheeledArmour, true, 0)), Some(TroopType::ArmouredCars));
        assert_eq!(troop_type(&e(MoverClass::AwdTrucks, false, 4)), Some(TroopType::Artillery));
        assert_eq!(troop_type(&e(MoverClass::PoweredCraft, false, 0)), None);
        assert_eq!(listed(&["a".into(), "b".into(), "c".into()]), "a, b and c");
        assert_eq!(troops_words(&TroopType::Artillery, 1), "1 battery of guns");
    }
}
