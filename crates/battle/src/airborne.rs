//! Airborne arrivals (*Heroes All*, "Paratroops" and "Gliders"): a platoon
//! dropped on its landing grid (a D10 square, 0 blown off course; unarmed
//! German paratroops of 1941 and before and their weapons container), its
//! cohesion test; a glider's landing throw (damage, casualties, CSWs lost).
//! Neither is effective until the bound after it lands.

use super::change::{Change, Held, HeldSides};
use warbound_rules::{
    airborne::{self, Landing},
    event::{Book, EventKind, RuleEvent, RuleRef},
    officer::{Grade, Officer, Rank},
    terrain::{Point, TableSize},
};

use super::{
    invariant::InvariantFailures,
    log::BattleLog,
    state::{Arrival, ElementView, Status},
};

pub(super) fn land(
    (log, failures): (&mut BattleLog, &mut InvariantFailures),
    dice: &mut warbound_rules::dice::Dice,
    bound: u32,
    sides: &mut HeldSides,
    f: &mut Held,
    (year, table): (u16, TableSize),
) {
    let id = f.id().to_owned();
    let clamp = |p: Point| Point(p.0.clamp(0.5, table.width - 0.5), p.1.clamp(0.5, table.depth - 0.5));
    match f.presence.arrival {
        Arrival::Edge | Arrival::Craft { .. } => {}
        Arrival::Drop(centre) => {
            let armed = airborne::armed_on_landing(&f.force.element.nation, year);
            let (drop, events) = airborne::drop_platoon(armed, dice, &id);
            log.extend(bound, events);
            let Landing::Square(_) = drop.platoon else {
                super::shared::leave(log, bound, f, Status::OutOfBattle, "blown off course: takes no further part");
                return;
            };
            if drop.removed {
                super::shared::leave(log, bound, f, Status::OutOfBattle, "unarmed, its weapons container lost");
                return;
            }
            let (dx, dy) = drop.platoon.offset().unwrap_or((0.0, 0.0));
            f.apply(Change::Arrive { at: clamp(Point(centre.0 + dx, centre.1 + dy)) });
            // "A Leadership Test is taken on landing to establish cohesion."
            let nco = f.force.element.nco.unwrap_or_else(|| Officer::new(Rank::Nco, Grade::Weak).expect("NCO grade"));
            let (test, e) = airborne::cohesion_test(nco, dice, &id);
            log.push(bound, e);
            f.apply(Change::EffectiveFrom(bound + 1));
            f.apply(Change::WithoutCohesion(!test.passed));
            arrived(log, bound, &f.view(), "Paratroops - Landing process");
        }
        Arrival::Glider(at) => {
            let aboard = f.men().min(u32::from(u8::MAX)) as u8;
            let csws = f.force.element.pieces.len().min(usize::from(u8::MAX)) as u8;
            let (landing, e) = airborne::glider_landing(aboard, csws, dice, &id);
            log.push(bound, e);
            f.apply(Change::Arrive { at: clamp(at) });
            let lost = f.apply(Change::LoseMen(u32::from(landing.casualties)));
            super::shared::casualties((&mut *log, &mut *failures), dice, bound, sides, f, lost);
            if landing.csws_destroyed {
                // The weapons are lost; their crews fight on as riflemen without them.
                f.apply(Change::CrewsAsRiflemen);
            }
            f.apply(Change::EffectiveFrom(bound + 1));
            arrived(log, bound, &f.view(), "Gliders - Landing process");
            if f.spent() {
                super::shared::leave(log, bound, f, Status::Destroyed, "every man lost in the landing");
            }
        }
    }
}

fn arrived(log: &mut BattleLog, bound: u32, f: &ElementView, section: &str) {
    let ev = RuleEvent::new(EventKind::Arrival, RuleRef::new(Book::HeroesAll, section))
        .actor(f.id())
        .input("at", (f.place.at.0, f.place.at.1), "inches from the near-left corner")
        .input("effective_from", f.presence.effective_from, "not fully effective until the bound after it lands")
        .outcome(serde_json::json!({ "men": f.men() }));
    log.push(bound, ev);
}
