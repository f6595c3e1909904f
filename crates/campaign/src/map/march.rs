//! Order of March (FYOW 18), the Traffic Jam rule (18.1), the Landing Plan of
//! beach landings (18.2), and the disordered Line of March after a retreat (14.14).

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{Book, EventKind, RuleEvent, RuleRef};

use crate::map::board::BoardId;
use crate::map::common::{MapError, SessionStamp};
use crate::map::detection::ArrivingObserver;

fn rule(section: &str) -> RuleRef {
    RuleRef::new(Book::FightYourOwnWars, section)
}

/// One element in a Battlegroup's Order of March.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarchElement {
    pub element: String,
    /// Recce designated troops (FYOW 16: a Recce head throws 6D6 on arrival).
    #[serde(default)]
    pub recce: bool,
}

/// FYOW 18: the order a Battlegroup moves in along a route; it decides who makes the
/// Detection Throw on arrival, not the order the elements enter the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderOfMarch {
    elements: Vec<MarchElement>,
}

impl OrderOfMarch {
    /// An Order of March, head first; it must name each element once.
    pub fn new(elements: Vec<MarchElement>) -> Result<Self, MapError> {
        if elements.is_empty() {
            return Err(MapError::NotAllowed("an Order of March names at least one element (FYOW 18)".into()));
        }
        for (i, e) in elements.iter().enumerate() {
            if elements[..i].iter().any(|x| x.element == e.element) {
                return Err(MapError::NotAllowed(format!("{} is named twice in the Order of March", e.element)));
            }
        }
        Ok(Self { elements })
    }

    pub fn elements(&self) -> &[MarchElement] {
        &self.elements
    }

    /// Who throws on arrival (FYOW 16): 6D6 when Recce troops head the column.
    pub fn observer(&self) -> ArrivingObserver {
        if self.elements.first().is_some_and(|e| e.recce) {
            ArrivingObserver::RecceLed
        } else {
            ArrivingObserver::Ordinary
        }
    }
}

/// FYOW 14.14: a force that retreats successfully "arrives on the new Map Board in
/// disordered Line of March fashion. The elements dice for position in this line".
/// Reading (FYOW 14.14): each element throws a D6, highest at the head; ties keep their
/// former order.
pub fn disordered_line_of_march(force: &str, order: &OrderOfMarch, dice: &mut impl Roll) -> (OrderOfMarch, RuleEvent) {
    let faces: Vec<u8> = order.elements.iter().map(|_| dice.d6()).collect();
    let mut ranked: Vec<(u8, &MarchElement)> = faces.iter().copied().zip(&order.elements).collect();
    ranked.sort_by_key(|r| std::cmp::Reverse(r.0));
    let new = OrderOfMarch { elements: ranked.into_iter().map(|(_, e)| e.clone()).collect() };
    let event = RuleEvent::new(EventKind::MapMovement, rule("14.14 Movement in retreat"))
        .actor(force)
        .input("order_before", order.elements.iter().map(|e| &e.element).collect::<Vec<_>>(), "")
        .dice(6, &faces)
        .outcome(json!({ "line_of_march": new.elements.iter().map(|e| &e.element).collect::<Vec<_>>() }));
    (new, event)
}

/// FYOW 18.1 Traffic Jam: forces moving down one route in the column's order. When `failed`
/// fails its Movement Test, the forces behind it cannot move forward this session unless they
/// overtake, taking the -1 of 14.9 entering and leaving the board the friendly force occupies.
/// Reading (FYOW 18.1 "may be unable to move forward"): held up unless they overtake.
/// Returns the forces held up.
pub fn traffic_jam(
    column: &[String],
    failed: &str,
    overtaking: &[String],
) -> Result<(Vec<String>, RuleEvent), MapError> {
    let at = column.iter().position(|f| f == failed).ok_or_else(|| MapError::UnknownForce(failed.into()))?;
    if let Some(o) = overtaking.iter().find(|o| !column[at + 1..].contains(o)) {
        return Err(MapError::NotAllowed(format!("{o} is not behind {failed} in the column (FYOW 18.1)")));
    }
    let held: Vec<String> = column[at + 1..].iter().filter(|f| !overtaking.contains(f)).cloned().collect();
    let event = RuleEvent::new(EventKind::MapMovement, rule("18.1 Traffic Jam Rule"))
        .actor(failed)
        .input("column", column, "the Order of March of the forces on the route")
        .input("overtaking", overtaking, "-1 entering and leaving the board (14.9)")
        .outcome(json!({ "held_up": held }));
    Ok((held, event))
}

/// One wave of a landing, declared for a session (FYOW 18.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LandingWave {
    pub session: SessionStamp,
    pub elements: Vec<String>,
}

/// FYOW 18.2: "The Order of March is declared as a 'Landing Plan' ... The exact composition of
/// each 'wave' of landings per session must be declared."
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LandingPlan {
    pub beach: BoardId,
    waves: Vec<LandingWave>,
}

impl LandingPlan {
    /// A plan of one wave a session, in session order, each element landing once.
    pub fn new(beach: BoardId, waves: Vec<LandingWave>) -> Result<Self, MapError> {
        if waves.is_empty() {
            return Err(MapError::NotAllowed("a Landing Plan declares at least one wave (FYOW 18.2)".into()));
        }
        let mut seen: Vec<&String> = Vec::new();
        for (i, w) in waves.iter().enumerate() {
            if w.elements.is_empty() {
                return Err(MapError::NotAllowed(format!("wave {} lands nothing (FYOW 18.2)", i + 1)));
            }
            if i > 0 && w.session <= waves[i - 1].session {
                return Err(MapError::NotAllowed(format!(
                    "wave {} must land in a later session than wave {}: one wave per session (FYOW 18.2)",
                    i + 1,
                    i
                )));
            }
            for e in &w.elements {
                if seen.contains(&e) {
                    return Err(MapError::NotAllowed(format!("{e} is in two waves of the Landing Plan")));
                }
                seen.push(e);
            }
        }
        Ok(Self { beach, waves })
    }

    pub fn waves(&self) -> &[LandingWave] {
        &self.waves
    }

    /// The wave declared for `session`, if any.
    pub fn wave_at(&self, session: SessionStamp) -> Option<&LandingWave> {
        self.waves.iter().find(|w| w.session == session)
    }
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;

    fn el(id: &str, recce: bool) -> MarchElement {
        MarchElement { element: id.into(), recce }
    }

    #[test]
    fn a_recce_head_throws_six_dice_on_arrival() {
        let led = OrderOfMarch::new(vec![el("Recce Tp", true), el("A Coy", false)]).unwrap();
        assert_eq!(led.observer(), ArrivingObserver::RecceLed);
        let plain = OrderOfMarch::new(vec![el("A Coy", false), el("Recce Tp", true)]).unwrap();
        assert_eq!(plain.observer(), ArrivingObserver::Ordinary);
        assert!(OrderOfMarch::new(vec![]).is_err());
        assert!(OrderOfMarch::new(vec![el("A", false), el("A", true)]).is_err());
    }

    #[test]
    fn a_retreat_arrives_in_a_line_of_march_diced_for() {
        let order = OrderOfMarch::new(vec![el("A", false), el("B", false), el("C", false), el("D", false)]).unwrap();
        let (new, e) = disordered_line_of_march("1 Bn", &order, &mut Scripted::new([2, 6, 2, 4]));
        let names: Vec<_> = new.elements().iter().map(|e| e.element.as_str()).collect();
        assert_eq!(names, ["B", "D", "A", "C"], "ties keep their order");
        assert_eq!(e.rule.section, "14.14 Movement in retreat");
    }

    #[test]
    fn forces_behind_a_failed_move_are_held_up_unless_they_overtake() {
        let column: Vec<String> = ["1 Bn", "2 Bn", "Recce F", "3 Bn"].map(String::from).to_vec();
        let (held, e) = traffic_jam(&column, "2 Bn", &["3 Bn".into()]).unwrap();
        assert_eq!(held, ["Recce F"]);
        assert_eq!(e.rule.section, "18.1 Traffic Jam Rule");
        assert!(traffic_jam(&column, "2 Bn", &["1 Bn".into()]).is_err(), "1 Bn is ahead");
        assert!(traffic_jam(&column, "9 Bn", &[]).is_err());
        assert!(traffic_jam(&column, "3 Bn", &[]).unwrap().0.is_empty());
    }

    #[test]
    fn a_landing_plan_declares_one_wave_a_session() {
        let s = |n| SessionStamp::new(1, n).unwrap();
        let wave =
            |n, els: &[&str]| LandingWave { session: s(n), elements: els.iter().map(|e| e.to_string()).collect() };
        let beach = BoardId::new("Cobo Bay");
        let plan = LandingPlan::new(beach.clone(), vec![wave(2, &["A Coy", "B Coy"]), wave(3, &["Tanks"])]).unwrap();
        assert_eq!(plan.wave_at(s(3)).unwrap().elements, ["Tanks"]);
        assert!(plan.wave_at(s(4)).is_none());
        assert!(LandingPlan::new(beach.clone(), vec![]).is_err());
        assert!(LandingPlan::new(beach.clone(), vec![wave(3, &["A"]), wave(2, &["B"])]).is_err());
        assert!(LandingPlan::new(beach.clone(), vec![wave(2, &["A"]), wave(3, &["A"])]).is_err());
        assert!(LandingPlan::new(beach, vec![wave(2, &[])]).is_err());
    }
}
