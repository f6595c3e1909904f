//! Takes the next command for the acting element, checks it against the rules
//! and either refuses it (logging the rule that forbids it; nothing changes)
//! or hands it to the phase systems. Ending the turn leaves the element's
//! Activity Counter (FYOB "Activity counters") and discards its OPC.

use crate::prelude::*;

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    command::{self, AutoChecked, Command, CommandRecord, Current, Inbox},
    setup::Control,
    state::{Elements, Flow},
    visible::Sight,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, dispatch.in_set(FlowSet::Dispatch).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

fn dispatch(
    mut t: Battlefield,
    mut inbox: ResMut<Inbox>,
    mut current: ResMut<Current>,
    mut record: ResMut<CommandRecord>,
    mut decided: ResMut<AutoChecked>,
) {
    let Flow::Acting(turn) = &*t.flow else { return };
    let turn = turn.clone();
    if current.0.is_some() {
        return;
    }
    let Some(cmd) = inbox.0.pop_front() else { return };
    let bound = t.battle.clock.bound();
    // The Auto side chose it and had it checked in this very state.
    let (auto, checked) = match decided.0.take().filter(|(c, _)| *c == cmd) {
        Some((_, checked)) => (true, checked),
        None => {
            let codex = t.codex.0.clone();
            let all = Elements::new(t.elements.views(), &t.roster);
            let sight = Sight::new(&t.battle, &codex);
            let side = all.get(&turn.element).map(|f| f.identity.side);
            let auto = side.is_some_and(|s| t.sides.0[s].control == Control::Auto);
            let aircraft = super::air::over_table(&t.sides);
            (auto, super::check::check(&cmd, &turn, &all, &sight, &t.battle, &aircraft))
        }
    };
    match checked {
        Err(refusal) => {
            t.log.push(bound, command::event(&cmd, auto, Some(&refusal)));
            if auto {
                // An Auto choice the rules refuse ends its turn rather than loop.
                inbox.0.push_back(Command::EndTurn { element: turn.element.clone() });
            }
        }
        Ok(()) => {
            t.log.push(bound, command::event(&cmd, auto, None));
            if !auto {
                record.0.push(cmd.clone());
            }
            match cmd {
                Command::EndTurn { .. } => super::turn::end_turn(&mut t, &turn.element),
                Command::SetUp { up, .. } => super::turn::set_up(&mut t, &turn.element, up),
                Command::ReFace { to, .. } => super::guards::re_face(&mut t, &turn.element, to),
                other => current.0 = Some(other),
            }
        }
    }
}
