//! The 2-player game (*Heroes All*, "Command and Control for 2-Player
//! games"), replacing the solo mechanism: each bound a D6 each decides who
//! goes first; that player throws a Command Die for each active element (one
//! more per complete pile of 3) and gives them out, each die one action —
//! 1 fire, 2 move, 3 observe, 4 an Act, 5 communicate, 6 any — at most 3 to an
//! element, the first calling for its NCO's ORT and its morale throws; then
//! the other player does the same, and the bound ends.

use super::change::{BattleChange, Change, FlowChange};
use std::collections::{BTreeMap, BTreeSet};

use crate::prelude::*;
use warbound_rules::{
    command::{self, Allocation, CommandAction, CommandDice, TwoPlayerElement},
    event::{Book, EventKind},
    geometry::distance,
    terrain::Point,
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at, auto,
    command::{Command, CommandRecord, DieAction, Inbox, Refusal, event, refusal},
    firing, movement, observation,
    setup::{Control, Mechanism},
    sorted,
    state::{ElementView, Elements, Flow, Hotseat},
    visible::Sight,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, first_player.in_set(FlowSet::Deal).run_if(at(|f| *f == Flow::Deal)))
        .add_systems(FlowSchedule, choose.in_set(FlowSet::Auto).run_if(at(|f| matches!(f, Flow::Commanding(_)))))
        .add_systems(FlowSchedule, give.in_set(FlowSet::Dispatch).run_if(at(|f| matches!(f, Flow::Commanding(_)))));
}

const SECTION: &str = "Command and Control for 2-Player games";

pub(super) fn two_player(t: &Battlefield) -> bool {
    t.battle.start.mechanism == Mechanism::TwoPlayer
}

/// "At the start of each bound, each player throws 1 x D6. The player with
/// the highest score goes first."
fn first_player(mut t: Battlefield) {
    if !two_player(&t) {
        return;
    }
    let bound = t.battle.clock.bound();
    let (first, e) = command::first_player(&mut t.dice.0);
    t.log.push(bound, e.actor(t.sides.0[first].name.clone()));
    t.battle.apply(BattleChange::Deck(None));
    throw(&mut t, first, false);
}

/// The player throws his Command Dice.
fn throw(t: &mut Battlefield, player: usize, second: bool) {
    let bound = t.battle.clock.bound();
    let els = sorted(&mut t.elements);
    // Reading: off-table batteries ("Artillery with a FOO get 1 Command Die")
    // are not yet commanded in the 2-player game, so they get no die.
    let active = els.iter().filter(|f| f.identity.side == player && f.presence.status.on_table()).count() as u32;
    drop(els);
    let (dice, e) = CommandDice::throw(active, &mut t.dice.0);
    t.log.push(bound, e.actor(t.sides.0[player].name.clone()));
    t.flow.apply(FlowChange::To(Flow::Commanding(Hotseat {
        player,
        second,
        dice,
        used: BTreeMap::new(),
        halted: BTreeSet::new(),
        rerolls: BTreeSet::new(),
    })));
}

fn action_of(a: &DieAction) -> CommandAction {
    match a {
        DieAction::Fire { .. } => CommandAction::Fire,
        DieAction::Move { .. } => CommandAction::Move,
        DieAction::Observe { .. } => CommandAction::Observe,
        DieAction::Act => CommandAction::Act,
        DieAction::Communicate => CommandAction::Communicate,
    }
}

/// Checks a command against what the player holds and the table, before any
/// die is spent.
pub(super) fn check(cmd: &Command, h: &Hotseat, els: &Elements, sight: &Sight) -> Result<(), Refusal> {
    let ha = |reason: String| refusal(Book::HeroesAll, SECTION, reason);
    let (element, die, action) = match cmd {
        Command::Pass { player } if *player == h.player => return Ok(()),
        Command::Pass { .. } => return Err(ha("it is the other player's turn".into())),
        Command::Reroll { element, die } => {
            if !h.rerolls.contains(element) {
                return Err(ha(format!("{element} did not Seize the initiative: no re-roll")));
            }
            if h.dice.face(*die).is_none() {
                return Err(ha(format!("there is no unused Command Die {die}")));
            }
            return Ok(());
        }
        Command::Die { element, die, action, .. } => (element, *die, action),
        _ => return Err(ha("in a 2-player game every action is given by a Command Die".into())),
    };
    let Some(me) = els.get(element).filter(|f| f.presence.status.on_table()) else {
        return Err(ha(format!("{element} is not on the table")));
    };
    if me.identity.side != h.player {
        return Err(ha(format!("{element} is not one of this player's elements")));
    }
    let Some(face) = h.dice.face(die) else { return Err(ha(format!("there is no unused Command Die {die}"))) };
    let wanted = action_of(action);
    if face != 6 && face != wanted as u8 + 1 {
        return Err(ha(format!("a {face} cannot be used to {wanted:?}")));
    }
    if h.halted.contains(element) {
        return Err(ha(format!("{element} can take no action this bound")));
    }
    if h.used.get(element).copied().unwrap_or(0) >= command::COMMAND_DICE_PER_ELEMENT {
        return Err(ha(format!("{element} has used 3 Command Dice this bound")));
    }
    let enemy =
        |id: &str| els.get(id).filter(|e| e.identity.side != me.identity.side && e.presence.status.on_table()).copied();
    match action {
        DieAction::Fire { target } => {
            let Some(t) = enemy(target) else { return Err(ha(format!("{target} is no enemy on the table"))) };
            if !sight.may_fire_at(me, &t) {
                return Err(refusal(
                    Book::HeroesAll,
                    "How to fire weapons",
                    format!("{target} is not observed and is not an autospot"),
                ));
            }
            if !sight.in_range_of_any(me, &t) {
                return Err(refusal(Book::HeroesAll, "Weapons table", format!("{target} is out of range")));
            }
        }
        DieAction::Observe { target } => {
            if enemy(target).is_none() {
                return Err(ha(format!("{target} is no enemy on the table")));
            }
        }
        DieAction::Move { to } => {
            if !(to.0.is_finite() && to.1.is_finite() && sight.scenario.table.contains(*to)) {
                return Err(refusal(Book::HeroesAll, "Movement", "the destination is off the table"));
            }
        }
        DieAction::Act | DieAction::Communicate => {}
    }
    Ok(())
}

/// Gives out the next Command Die, re-rolls one, or ends the player's turn.
fn give(mut t: Battlefield, mut inbox: ResMut<Inbox>, mut record: ResMut<CommandRecord>) {
    let Flow::Commanding(h) = &*t.flow else { return };
    let mut h = h.clone();
    let Some(cmd) = inbox.0.pop_front() else { return };
    let bound = t.battle.clock.bound();
    let codex = t.codex.0.clone();
    let codex = &*codex;
    let auto = t.sides.0[h.player].control == Control::Auto;
    let checked = {
        let els = sorted(&mut t.elements);
        let all = Elements::new(els.iter().map(|m| m.view()).collect(), &t.roster);
        let sight = Sight::new(&t.battle, codex);
        check(&cmd, &h, &all, &sight)
    };
    if let Err(r) = checked {
        t.log.push(bound, event(&cmd, auto, Some(&r)));
        if auto {
            inbox.0.push_back(Command::Pass { player: h.player });
        }
        return;
    }
    match &cmd {
        Command::Pass { .. } => {
            t.log.push(bound, event(&cmd, auto, None));
            if !auto {
                record.0.push(cmd.clone());
            }
            if h.second {
                t.flow.apply(FlowChange::To(Flow::EndBound));
            } else {
                throw(&mut t, 1 - h.player, true);
            }
            return;
        }
        Command::Reroll { element, die } => match h.dice.reroll(element, *die, &mut t.dice.0) {
            Ok((_, e)) => {
                t.log.push(bound, event(&cmd, auto, None));
                t.log.push(bound, e);
                h.rerolls.remove(element);
            }
            Err(e) => {
                let r = refusal(Book::HeroesAll, SECTION, e.to_string());
                t.log.push(bound, event(&cmd, auto, Some(&r)));
                return;
            }
        },
        Command::Die { element, die, action, sixes } => {
            let mut els = sorted(&mut t.elements);
            let Some(me) = t.roster.find_mut(&mut els, element) else {
                t.failures.record(
                    &mut t.log,
                    bound,
                    "give",
                    element,
                    format!("{} is no element of the battle", element),
                );
                return;
            };
            let nco = me.force.element.nco.unwrap_or_else(|| {
                warbound_rules::officer::Officer::new(
                    warbound_rules::officer::Rank::Nco,
                    warbound_rules::officer::Grade::Weak,
                )
                .expect("Weak is an NCO grade")
            });
            let two = TwoPlayerElement {
                id: element.clone(),
                nco,
                quality: me.force.quality,
                morale_due: me.momentum.morale_due.clone(),
            };
            let allocated = h.dice.allocate(&two, *die, action_of(action), sixes, &mut t.dice.0);
            let (allocation, events) = match allocated {
                Ok(a) => a,
                Err(e) => {
                    drop(els);
                    let r = refusal(Book::HeroesAll, SECTION, e.to_string());
                    t.log.push(bound, event(&cmd, auto, Some(&r)));
                    if auto {
                        inbox.0.push_back(Command::Pass { player: h.player });
                    }
                    return;
                }
            };
            if events.iter().any(|e| e.kind == EventKind::Ort) {
                me.apply(Change::MoraleTaken);
            }
            drop(els);
            t.log.push(bound, event(&cmd, auto, None));
            if !auto {
                record.0.push(cmd.clone());
            }
            t.log.extend(bound, events);
            *h.used.entry(element.clone()).or_default() += 1;
            match allocation {
                Allocation::Acts { seized, .. } => {
                    if seized {
                        h.rerolls.insert(element.clone());
                    }
                    t.flow.apply(FlowChange::To(Flow::Commanding(h.clone())));
                    act(&mut t, element, action);
                }
                Allocation::OrtFailed | Allocation::MoraleFailed | Allocation::AirCommandWithdraws => {
                    h.halted.insert(element.clone());
                }
            }
        }
        _ => return,
    }
    if matches!(*t.flow, Flow::Commanding(_)) {
        t.flow.apply(FlowChange::To(Flow::Commanding(h)));
    }
    super::outcome::settle(&mut t);
}

/// Carries out the action a Command Die gave.
fn act(t: &mut Battlefield, element: &str, action: &DieAction) {
    match action {
        DieAction::Fire { target } => {
            let moved = t.roster.index(element).is_some_and(|i| sorted(&mut t.elements)[i].actions.this_bound.moved);
            firing::do_fire(t, element, target, firing::Stance { on_the_move: moved, ..Default::default() });
        }
        DieAction::Move { to } => movement::do_move(t, element, Point(to.0, to.1), 0, super::command::Pace::Normal),
        DieAction::Observe { target } => {
            observation::do_observe(t, element, &[super::command::ObserveTarget::Element(target.clone())], 0)
        }
        DieAction::Act => {
            let mut els = sorted(&mut t.elements);
            if let Some(f) = t.roster.find_mut(&mut els, element) {
                f.apply(Change::Revealed);
            }
        }
        DieAction::Communicate => {
            let bound = t.battle.clock.bound();
            let mut els = sorted(&mut t.elements);
            let Some(i) = t.roster.index(element) else {
                t.failures.record(
                    &mut t.log,
                    bound,
                    "act",
                    element,
                    format!("{} is no element of the battle", element),
                );
                return;
            };
            let (side, company, known) = (els[i].identity.side, els[i].identity.company, els[i].intel.known.clone());
            for f in els
                .iter_mut()
                .filter(|f| f.identity.side == side && f.identity.company == company && f.presence.status.on_table())
            {
                f.apply(Change::Knows(known.iter().cloned().collect()));
            }
        }
    }
}

/// The program's choice for an Auto player in a 2-player game: the first die
/// it can use well — fire at a known enemy in view and range, observe an
/// unseen one, move as the element's orders say — else it passes.
fn choose(mut t: Battlefield, mut inbox: ResMut<Inbox>) {
    let Flow::Commanding(h) = &*t.flow else { return };
    let h = h.clone();
    if !inbox.0.is_empty() || t.sides.0[h.player].control != Control::Auto {
        return;
    }
    let codex = t.codex.0.clone();
    let codex = &*codex;
    let els = sorted(&mut t.elements);
    let all = Elements::new(els.iter().map(|m| m.view()).collect(), &t.roster);
    let sight = Sight::new(&t.battle, codex);
    let mine: Vec<ElementView> =
        all.iter().copied().filter(|f| f.identity.side == h.player && f.presence.status.on_table()).collect();
    let enemies: Vec<ElementView> =
        all.iter().copied().filter(|f| f.identity.side != h.player && f.presence.status.on_table()).collect();
    let mut pick = None;
    'dice: for die in 0..h.dice.len() {
        let Some(face) = h.dice.face(die) else { continue };
        for me in &mine {
            let nearest = |pred: &dyn Fn(&ElementView) -> bool| {
                enemies
                    .iter()
                    .copied()
                    .filter(|e| pred(e))
                    .min_by(|a, b| distance(me.place.at, a.place.at).total_cmp(&distance(me.place.at, b.place.at)))
            };
            let mut options = Vec::new();
            if face == 1 || face == 6 {
                let fire = nearest(&|e| sight.may_fire_at(me, e) && sight.in_range_of_any(me, e));
                options.extend(fire.map(|e| DieAction::Fire { target: e.id().to_owned() }));
            }
            if face == 3 || face == 6 {
                let look = nearest(&|e| !me.intel.known.contains(e.id()) && sight.in_view(me, e));
                options.extend(look.map(|e| DieAction::Observe { target: e.id().to_owned() }));
            }
            if (face == 2 || face == 6) && !me.actions.this_bound.moved {
                let to = auto::order_destination(me, &enemies, &sight);
                options.extend(to.map(|p| DieAction::Move { to: (p.0, p.1) }));
            }
            for action in options {
                let cmd = Command::Die { element: me.id().to_owned(), die, action, sixes: Vec::new() };
                if check(&cmd, &h, &all, &sight).is_ok() {
                    pick = Some(cmd);
                    break 'dice;
                }
            }
        }
    }
    inbox.0.push_back(pick.unwrap_or(Command::Pass { player: h.player }));
}
