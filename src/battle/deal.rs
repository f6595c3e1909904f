//! Dealing the Order Priority Cards (FYOB "Order Priority Cards"): one card
//! to every element on the table and one to each Company Officer whose figure
//! is with one, both sides in one deck, shuffled with the battle's dice.

use bevy::prelude::*;
use warbound_rules::opc::{self, Holder, Participant};

use super::{FlowSchedule, FlowSet, Table, at, sorted, state::Flow};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, deal.in_set(FlowSet::Deal).run_if(at(|f| *f == Flow::Deal)));
}

fn deal(mut t: Table) {
    let bound = t.battle.clock.bound();
    let els = sorted(&mut t.elements);
    let mut participants: Vec<Participant> = els
        .iter()
        .filter(|f| f.status.on_table())
        .map(|f| Participant {
            id: f.id().to_owned(),
            holder: Holder::Element,
            nation: f.element.nation.clone(),
            active: true,
        })
        .collect();
    for side in &t.sides.0 {
        for c in side.companies.iter().filter(|c| c.co_alive) {
            let with = els.iter().find(|f| f.id() == c.attached_to && f.status.on_table());
            if let Some(f) = with {
                participants.push(Participant {
                    id: c.id.clone(),
                    holder: Holder::CompanyOfficer,
                    nation: f.element.nation.clone(),
                    active: true,
                });
            }
        }
    }
    drop(els);
    match opc::deal(&participants, &mut t.dice.0) {
        Ok((deck, event)) => {
            t.log.push(bound, event);
            t.battle.deck = Some(deck);
            *t.flow = Flow::NextCard;
        }
        Err(e) => {
            warn!("no OPCs dealt: {e}");
            t.battle.deck = None;
            *t.flow = Flow::EndBound;
        }
    }
}
