//! Dealing the Order Priority Cards (FYOB "Order Priority Cards"): one card
//! to every element on the table and one to each Company Officer whose figure
//! is with one, both sides in one deck, shuffled with the battle's dice.

use super::change::{BattleChange, FlowChange};
use crate::prelude::*;
use warbound_rules::opc::{self, Holder, Participant};

use super::{Battlefield, FlowSchedule, FlowSet, at, state::Flow};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, deal.in_set(FlowSet::Deal).run_if(at(|f| *f == Flow::Deal)));
}

fn deal(mut t: Battlefield) {
    if super::two_player::two_player(&t) {
        return;
    }
    let bound = t.battle.clock.bound();
    let els = t.elements.views();
    let mut participants: Vec<Participant> = els
        .iter()
        .filter(|f| f.presence.status.in_play())
        .map(|f| Participant {
            id: f.id().to_owned(),
            // A loaded transport "will be under the command of the NCO of
            // that element": it moves on its passengers' card.
            holder: match f.force.transport() {
                Some(Some(_)) => Holder::LoadedTransport,
                Some(None) => Holder::EmptyTransport,
                None => Holder::Element,
            },
            nation: f.force.element.nation.clone(),
            active: true,
        })
        .collect();
    for side in &t.sides.0 {
        // The FOO's card and his batteries' (Heroes All, "Advanced Artillery Rules").
        for observer in side.foos.iter().filter(|f| f.alive) {
            if t.roster.find(&els, &observer.with).is_some_and(|f| f.presence.status.on_table()) {
                let nation = side.nation.clone();
                participants.push(Participant {
                    id: observer.id.clone(),
                    holder: Holder::CompanyOfficer,
                    nation,
                    active: true,
                });
                for b in side.batteries.iter().filter(|b| b.foo == observer.id) {
                    let nation = side.nation.clone();
                    participants.push(Participant { id: b.id.clone(), holder: Holder::Element, nation, active: true });
                }
            }
        }
        // "An OPC is added to the pack for each squadron and the Air Command of each force."
        // "No flying" in fog, snow or high winds (FYOW 25.8): a campaign
        // session's weather may ground the squadrons from its first bound.
        let grounded = t.battle.weather.grounds_aircraft();
        if let Some(ac) = side.air_command.as_ref().filter(|ac| !ac.withdrawn && !grounded) {
            let flying = side.squadrons.iter().any(|q| {
                q.arrives.is_some_and(|b| b <= t.battle.clock.bound()) && q.machines.iter().any(|m| m.in_action())
            });
            if flying {
                let nation = side.nation.clone();
                participants.push(Participant {
                    id: ac.id.clone(),
                    holder: Holder::CompanyOfficer,
                    nation,
                    active: true,
                });
            }
        }
        // A card for each squadron in its window (Heroes All, "When aircraft arrive").
        for q in &side.squadrons {
            let due = q.arrives.is_some_and(|b| b <= t.battle.clock.bound());
            if due && !grounded && q.machines.iter().any(|m| m.in_action()) {
                let nation = side.nation.clone();
                participants.push(Participant { id: q.id.clone(), holder: Holder::AirSquadron, nation, active: true });
            }
        }
        for c in side.companies.iter().filter(|c| c.co_alive) {
            let with = t.roster.find(&els, &c.attached_to).filter(|f| f.presence.status.on_table());
            if let Some(f) = with {
                participants.push(Participant {
                    id: c.id.clone(),
                    holder: Holder::CompanyOfficer,
                    nation: f.force.element.nation.clone(),
                    active: true,
                });
            }
        }
    }
    drop(els);
    match opc::deal(&participants, &mut t.dice.0) {
        Ok((deck, event)) => {
            t.log.push(bound, event);
            t.battle.apply(BattleChange::Deck(Some(deck)));
            t.flow.apply(FlowChange::To(Flow::NextCard));
        }
        Err(e) => {
            t.fail("deal", "the OPC deck", format!("no OPCs can be dealt: {e}"));
            t.battle.apply(BattleChange::Deck(None));
            t.flow.apply(FlowChange::To(Flow::EndBound));
        }
    }
}
