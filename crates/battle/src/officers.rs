//! A Player's officers at work: the flow waits at a Company Officer's command
//! turn ([`Flow::CoTurn`]) or a Senior Officer's session ([`Flow::Session`])
//! for his one command of orders, rallies, reserves and objectives, checks
//! it against the rules and carries it out.

use super::change::{BattleChange, FlowChange};
use crate::prelude::*;
use warbound_rules::{event::Book, opc::OrtResult};

use super::{
    Battlefield, FlowSchedule, FlowSet, activation, at,
    command::{Command, CommandRecord, Inbox, event, refusal},
    command_turn, start_bound,
    state::{Elements, Flow},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        FlowSchedule,
        officers
            .in_set(FlowSet::Dispatch)
            .run_if(at(|f| matches!(f, Flow::CoTurn { .. } | Flow::Session { .. } | Flow::Seize { .. }))),
    );
}

fn officers(mut t: Battlefield, mut inbox: ResMut<Inbox>, mut record: ResMut<CommandRecord>) {
    let Some(cmd) = inbox.0.pop_front() else { return };
    let bound = t.battle.clock.bound();
    let flow = t.flow.clone();
    let checked = match (&flow, &cmd) {
        (Flow::CoTurn { side, company, .. }, Command::Command { company: id, orders, rally }) => {
            if t.sides.0[*side].companies[*company].id != *id {
                Err(refusal(Book::FightYourOwnBattles, "The game flow", format!("it is not {id}'s command turn")))
            } else {
                let els = t.elements.views();
                let all = Elements::new(els.clone(), &t.roster);
                command_turn::check(&all, &t.battle.start.scenario, *side, *company, rally, orders)
            }
        }
        (Flow::Session { side }, Command::Session { side: s, commit, objectives, withdraw }) => {
            if s != side {
                Err(refusal(Book::FightYourOwnBattles, "The game flow", "it is the other side's session"))
            } else {
                start_bound::check(&mut t, *side, commit, objectives, *withdraw)
            }
        }
        (Flow::Seize { element }, Command::Seize { element: e, swap_with }) => {
            if e != element {
                Err(refusal(
                    Book::FightYourOwnBattles,
                    "The game flow",
                    format!("{element} seized the initiative, not {e}"),
                ))
            } else if let Some(target) = swap_with {
                let mut deck = t.battle.deck.clone();
                match deck.as_mut().map(|d| d.seize_initiative(element, OrtResult::SeizesInitiative, target)) {
                    Some(Ok(())) => Ok(()),
                    Some(Err(err)) => {
                        Err(refusal(Book::FightYourOwnBattles, "Taking an Officer Reaction Test", err.to_string()))
                    }
                    None => Err(refusal(Book::FightYourOwnBattles, "The game flow", "no cards are dealt")),
                }
            } else {
                Ok(())
            }
        }
        _ => Err(refusal(Book::FightYourOwnBattles, "The game flow", "an officer's orders are awaited")),
    };
    if let Err(r) = checked {
        t.log.push(bound, event(&cmd, false, Some(&r)));
        return;
    }
    t.log.push(bound, event(&cmd, false, None));
    record.0.push(cmd.clone());
    match (flow, cmd) {
        (Flow::CoTurn { side, company, then }, Command::Command { orders, rally, company: id }) => {
            command_turn::apply(&mut t, side, company, &rally, &orders);
            match then {
                // A successor's duties end; his element's turn goes on.
                Some(then) => t.flow.apply(FlowChange::To(*then)),
                None => {
                    t.flow.apply(FlowChange::To(Flow::NextCard));
                    super::turn::discard(&mut t, &id);
                }
            }
        }
        (Flow::Session { side }, Command::Session { commit, objectives, withdraw, .. }) => {
            start_bound::session(&mut t, side, &commit, &objectives);
            if withdraw {
                start_bound::withdraw(&mut t, side);
            }
            match start_bound::next_player_session(&t, Some(side)) {
                Some(next) => t.flow.apply(FlowChange::To(Flow::Session { side: next })),
                None => start_bound::finish(&mut t),
            }
        }
        (Flow::Seize { element }, Command::Seize { swap_with, .. }) => match swap_with {
            Some(target) => {
                if let Some(mut deck) = t.battle.deck.clone()
                    && deck.seize_initiative(&element, OrtResult::SeizesInitiative, &target).is_ok()
                {
                    t.battle.apply(BattleChange::Deck(Some(deck)));
                }
                t.flow.apply(FlowChange::To(Flow::NextCard));
            }
            None => {
                t.flow.apply(FlowChange::To(Flow::NextCard));
                activation::take_turn(&mut t, &element, false, activation::OnSeizing::ActAsOrdered);
                super::outcome::settle(&mut t);
            }
        },
        _ => {}
    }
}
