//! Setting fire to buildings (*Heroes All*): "1 figure may enter a building
//! and stay there for 1 bound to start a fire on an Act ... without taking
//! any other action. The fire takes hold next bound on a 2+ throw on a D6. It
//! burns for 3 bounds. Smoke is created the size of the building for those 3
//! bounds." The smoke is the sight rules' ([`crate::visible::Sight`]); the
//! burning, and the building burnt down, are the buildings' own
//! (`end_bound`).

use crate::prelude::*;
use warbound_rules::{
    buildings::State,
    event::{Book, EventKind, RuleEvent, RuleRef},
    geometry,
    order_dice::{Act, Phase},
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    change::BattleChange,
    command::{Command, Current, Refusal, refusal},
    state::{Battle, ElementView, FireSet, Flow, Turn},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, set_fire_phase.in_set(FlowSet::Phase).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

const SECTION: &str = "Setting fire to buildings";

/// The standing building (by its place among the battle's buildings) that
/// holds `f`, whatever its state.
fn building_of(battle: &Battle, f: &ElementView) -> Option<usize> {
    let (feature, _) = geometry::building_at(&battle.terrain, f.place.at)?;
    battle.buildings.iter().position(|(k, b)| *k == feature && b.structure.row().building)
}

/// Whether `me` may set fire to the building it stands in now. Readings: a
/// man on foot inside a building still standing and not yet burning, where
/// no fire is already set; "stay there for 1 bound ... without taking any
/// other action": the element has neither moved nor fired this bound nor
/// taken any phase of its turn, and the Act ends its turn.
pub(super) fn may_set_fire(me: &ElementView, turn: &Turn, battle: &Battle) -> Result<(), Refusal> {
    let no = |why: &str| Err(refusal(Book::HeroesAll, SECTION, why));
    if me.force.build.is_vehicle() || me.men() == 0 {
        return no("a figure on foot enters the building to start the fire");
    }
    let Some(k) = building_of(battle, me) else { return no("it stands in no building") };
    match battle.buildings[k].1.state {
        State::Standing => {}
        State::Burning { .. } => return no("the building is burning already"),
        State::Destroyed(_) => return no("the building is destroyed"),
    }
    if battle.fires_set.iter().any(|f| f.building == k) {
        return no("a fire is set in the building already: it takes hold or not next bound");
    }
    let acts = &me.actions.this_bound;
    if !turn.taken.is_empty() || acts.moved || acts.fired {
        return no("the figure stays in the building the whole bound without taking any other action");
    }
    Ok(())
}

fn set_fire_phase(mut t: Battlefield, mut current: ResMut<Current>) {
    let Some(Command::SetFire { element }) = current.0.clone() else { return };
    current.0 = None;
    set_fire(&mut t, &element);
    super::turn::phase_done(&mut t, Phase::Act, &[Act::SetFire]);
    // "without taking any other action": the Act is its whole turn.
    if matches!(&*t.flow, Flow::Acting(turn) if turn.element == element) {
        super::turn::end_turn(&mut t, &element);
    }
}

/// A figure of `element` sets a fire in the building it stands in.
pub(super) fn set_fire(t: &mut Battlefield, element: &str) {
    let bound = t.battle.clock.bound();
    let building = t.elements.one(&t.roster, element).and_then(|f| building_of(&t.battle, &f.view()));
    let Some(k) = building else {
        t.failures.record(&mut t.log, bound, "set_fire", element, format!("{element} stands in no building"));
        return;
    };
    let event = RuleEvent::new(EventKind::HeEffect, RuleRef::new(Book::HeroesAll, SECTION))
        .actor(element.to_owned())
        .input("act", Act::SetFire, "1 figure stays in the building for 1 bound to start a fire on an Act")
        .outcome(serde_json::json!({ "fire_set": true, "takes_hold": "next bound on 2+" }));
    t.log.push(bound, event);
    t.battle.apply(BattleChange::FireSet(FireSet { building: k, by: element.to_owned(), bound }));
}

/// The fires set in an earlier bound take hold, or not, as this bound opens:
/// "The fire takes hold next bound on a 2+ throw on a D6. It burns for 3
/// bounds." Reading: a fire that does not take hold is out; the figure may
/// set another (the rules core's `Building::fire_takes_hold`).
pub(super) fn take_hold(t: &mut Battlefield) {
    let bound = t.battle.clock.bound();
    let due: Vec<FireSet> = t.battle.fires_set.iter().filter(|f| f.bound < bound).cloned().collect();
    if due.is_empty() {
        return;
    }
    for fire in due {
        let mut building = t.battle.buildings[fire.building].1;
        match building.fire_takes_hold(&mut t.dice.0, &fire.by) {
            Ok((_, event)) => {
                t.log.push(bound, event);
                t.battle.apply(BattleChange::Building(fire.building, building));
            }
            // Burnt or brought down since it was set: nothing left to take hold.
            Err(e) => debug!("the fire {} set does not take hold: {e}", fire.by),
        }
    }
    t.battle.apply(BattleChange::FiresThrown);
}
