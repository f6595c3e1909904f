//! The acting element's turn: the phases it has taken, the end of its turn
//! (its Activity Counter, FYOB "Activity counters") and its card discarded.

use super::change::{BattleChange, Change, FlowChange};
use warbound_rules::order_dice;

use super::{Battlefield, state::Flow};

/// The element's turn is over: its Activity Counter, and the next card.
pub(super) fn end_turn(t: &mut Battlefield, id: &str) {
    let mut els = t.elements.one(&t.roster, id);
    if let Some(f) = els.as_mut() {
        let counter = order_dice::activity_counter(f.actions.this_bound.fired, f.actions.this_bound.moved);
        f.apply(Change::Counter(counter));
    }
    discard(t, id);
}

/// An Act: the acting element sets up its immobile weapons, or takes them
/// down (*Heroes All*, "Weapons table notes").
pub(super) fn set_up(t: &mut Battlefield, id: &str, up: bool) {
    set_up_weapons(t, id, up);
    phase_done(t, order_dice::Phase::Act, &[order_dice::Act::SetUpOrTakeDownImmobileCsw]);
}

/// The Act of setting up (`up`) or taking down an element's immobile weapons.
pub(super) fn set_up_weapons(t: &mut Battlefield, id: &str, up: bool) {
    let bound = t.battle.clock.bound();
    let event = warbound_rules::event::RuleEvent::new(
        warbound_rules::event::EventKind::OrderDie,
        warbound_rules::event::RuleRef::new(warbound_rules::event::Book::HeroesAll, "Weapons table notes: Immobile"),
    )
    .actor(id)
    .input("act", order_dice::Act::SetUpOrTakeDownImmobileCsw, "an Act to break down and set up")
    .outcome(serde_json::json!({ "set_up": up }));
    t.log.push(bound, event);
    let mut els = t.elements.one(&t.roster, id);
    if let Some(f) = els.as_mut() {
        f.apply(Change::SetUp(up));
    }
}

/// Records that the acting element has taken `phase`; ends its turn when it
/// has nothing left to take (all three phases, or a move "at the double",
/// which uses "their 2 actions and their fire phase": *Heroes All*, "Movement").
pub(super) fn phase_done(t: &mut Battlefield, phase: order_dice::Phase, acts: &[order_dice::Act]) {
    t.flow.apply(FlowChange::PhaseTaken(phase, acts.to_vec()));
    let Flow::Acting(turn) = &*t.flow else { return };
    if turn.taken.len() == 3 || (phase == order_dice::Phase::Move && turn.at_the_double) {
        let id = turn.element.clone();
        end_turn(t, &id);
    }
}

/// The card's turn is over: discard it.
pub(super) fn discard(t: &mut Battlefield, id: &str) {
    if let Some(deck) = t.battle.deck.as_ref() {
        // The rule's one refusal ("Discard": only the card acting now), asked
        // before the change is applied.
        if deck.acting_now() == Some(id) {
            t.battle.apply(BattleChange::Discard(id.to_owned()));
        } else {
            let e = warbound_rules::opc::OpcError::NotActingNow(id.to_owned());
            t.fail("discard", id, format!("its card cannot be discarded: {e}"));
        }
    }
    if *t.flow != Flow::Over {
        t.flow.apply(FlowChange::To(Flow::NextCard));
    }
}
