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
    event::{Book, EventKind, RuleEvent, RuleRef},
    geometry::distance,
    momentum::{CmMovement, CmsMovement},
    order_dice::Phase,
    terrain::Point,
    turn::Orders,
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at, auto,
    command::{Command, CommandRecord, DieAction, Inbox, Pace, Refusal, event, refusal},
    firing, movement, observation,
    setup::{Control, Mechanism},
    sorted,
    state::{Battle, ElementView, Elements, Flow, Hotseat, SideState, Sides, Turn},
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
    let els = t.elements.views();
    let active = els.iter().filter(|f| f.identity.side == player && f.presence.status.in_play()).count() as u32;
    drop(els);
    // "Artillery with a FOO get 1 Command Die not 2": a die for each FOO
    // with batteries to call.
    let active = active + gunners(t, player).len() as u32 + flyers(t, player).len() as u32;
    let (dice, e) = CommandDice::throw(active, &mut t.dice.0);
    t.log.push(bound, e.actor(t.sides.0[player].name.clone()));
    t.flow.apply(FlowChange::To(Flow::Commanding(Hotseat {
        player,
        second,
        dice,
        used: BTreeMap::new(),
        halted: BTreeSet::new(),
        rerolls: BTreeSet::new(),
        aimed: BTreeSet::new(),
    })));
}

fn action_of(a: &DieAction) -> CommandAction {
    match a {
        DieAction::Fire { .. } => CommandAction::Fire,
        DieAction::Move { .. } => CommandAction::Move,
        DieAction::Observe { .. } => CommandAction::Observe,
        DieAction::Act | DieAction::Overwatch { .. } | DieAction::ReFace { .. } => CommandAction::Act,
        DieAction::Communicate => CommandAction::Communicate,
        DieAction::Foo => CommandAction::Act,
        DieAction::Battery | DieAction::Aircraft => CommandAction::Fire,
        DieAction::Solo { command } => match **command {
            Command::Move { .. } => CommandAction::Move,
            Command::Observe { .. } | Command::CheckVacated { .. } => CommandAction::Observe,
            Command::AimedFire { .. } => CommandAction::Act,
            _ if command.phase() == Some(Phase::Fire) => CommandAction::Fire,
            _ => CommandAction::Act,
        },
    }
}

/// The FOOs of side `s` alive and with batteries to call, by their place in
/// the side's FOOs.
pub(super) fn gunners(t: &Battlefield, s: usize) -> Vec<usize> {
    foos_with_guns(&t.sides.0[s])
}

pub(super) fn foos_with_guns(side: &SideState) -> Vec<usize> {
    (0..side.foos.len())
        .filter(|&k| side.foos[k].alive && side.batteries.iter().any(|b| b.foo == side.foos[k].id))
        .collect()
}

/// The squadrons of side `s` due over the battle this bound, as the solo
/// deal gives them a card (*Heroes All*, "When aircraft arrive"), by their
/// place in the side's squadrons: each is an element for the Command Dice.
pub(super) fn flyers(t: &Battlefield, s: usize) -> Vec<usize> {
    squadrons_due(&t.sides.0[s], t.battle.clock.bound(), t.battle.weather.grounds_aircraft())
}

pub(super) fn squadrons_due(side: &SideState, bound: u32, grounded: bool) -> Vec<usize> {
    let withdrawn = side.air_command.as_ref().is_some_and(|ac| ac.withdrawn);
    (0..side.squadrons.len())
        .filter(|&k| {
            let q = &side.squadrons[k];
            !grounded && !withdrawn && q.arrives.is_some_and(|b| b <= bound) && q.machines.iter().any(|m| m.in_action())
        })
        .collect()
}

/// Checks a die given to a squadron: a "1" sends its machines in.
fn check_squadron(h: &Hotseat, id: &str, die: usize, action: &DieAction) -> Result<(), Refusal> {
    let ha = |reason: String| refusal(Book::HeroesAll, SECTION, reason);
    let Some(face) = h.dice.face(die) else { return Err(ha(format!("there is no unused Command Die {die}"))) };
    if *action != DieAction::Aircraft {
        return Err(ha(format!("{id} is a squadron: a 1 sends its machines in")));
    }
    if face != 6 && face != 1 {
        return Err(ha(format!("a {face} cannot be used to Fire")));
    }
    if h.halted.contains(id) {
        return Err(ha(format!("{id} can take no action this bound")));
    }
    if h.used.get(id).copied().unwrap_or(0) >= command::COMMAND_DICE_PER_ELEMENT {
        return Err(ha(format!("{id} has used 3 Command Dice this bound")));
    }
    Ok(())
}

/// Checks a die given to a FOO: his Acts by a "4", his batteries' fire by a "1".
fn check_foo(h: &Hotseat, side: &SideState, k: usize, die: usize, action: &DieAction) -> Result<(), Refusal> {
    let ha = |reason: String| refusal(Book::HeroesAll, SECTION, reason);
    let fo = &side.foos[k];
    let Some(face) = h.dice.face(die) else { return Err(ha(format!("there is no unused Command Die {die}"))) };
    let wanted = action_of(action);
    if !matches!(action, DieAction::Foo | DieAction::Battery) {
        return Err(ha(format!("{} is a FOO: a 4 gives his Acts, a 1 his batteries' fire", fo.id)));
    }
    if face != 6 && face != wanted as u8 + 1 {
        return Err(ha(format!("a {face} cannot be used to {wanted:?}")));
    }
    if h.halted.contains(&fo.id) {
        return Err(ha(format!("{} can take no action this bound", fo.id)));
    }
    if h.used.get(&fo.id).copied().unwrap_or(0) >= command::COMMAND_DICE_PER_ELEMENT {
        return Err(ha(format!("{} has used 3 Command Dice this bound", fo.id)));
    }
    if *action == DieAction::Battery {
        if let Err(e) = fo.foo.may_call_fire() {
            return Err(refusal(Book::HeroesAll, "Advanced Artillery Rules", e.to_string()));
        }
        if fo.plan.active.is_none() {
            return Err(refusal(Book::HeroesAll, "Interdiction Fire", "no Artillery Target is active"));
        }
    }
    Ok(())
}

/// The face of a Command Die that gives `command` (a 6 gives any):
/// 1 fire, 2 move, 3 observe, 4 an Act, 5 communicate.
pub(super) fn face_for(command: &Command) -> u8 {
    action_of(&DieAction::Solo { command: Box::new(command.clone()) }) as u8 + 1
}

/// A solo command given by a die that takes the element's whole bound: the
/// clearers of a minefield and the builders of a bridge "do nothing else"
/// (*Heroes All*, "Mines", "Pontoon bridges"), nor do the setters of a
/// charge ("Explosives") or of a fire ("Setting fire to buildings"), nor
/// the menders of a bridge ("Repairing roads and bridges").
fn whole_bound(action: &DieAction) -> bool {
    matches!(action, DieAction::Solo { command } if matches!(**command, Command::ClearMines { .. } | Command::Bridge { .. } | Command::Repair { .. } | Command::SetCharge { .. } | Command::SetFire { .. }))
}

/// The turn a solo command given by a Command Die is checked and carried out
/// in: its own phase first (there is no Order Die in the 2-player game), no
/// CM tests' limits (the 2-player game has its own morale throws), nothing
/// else taken.
pub(super) fn die_turn(element: &str, command: &Command) -> Turn {
    let order = match command {
        Command::AimedFire { .. } => Phase::Act,
        c => c.phase().unwrap_or(Phase::Act),
    };
    Turn {
        element: element.to_owned(),
        orders: Orders {
            order,
            can_fire: true,
            can_observe: true,
            can_assault: true,
            open_sights_penalty: 0,
            observation_segments: 0,
            movement_pips: 0,
            movement: CmMovement::Free,
            cms_movement: CmsMovement::Free,
        },
        taken: Vec::new(),
        acts: Vec::new(),
        failures: 0,
        pending_move: None,
        at_the_double: false,
        runner: None,
    }
}

/// Checks a command against what the player holds and the table, before any
/// die is spent.
pub(super) fn check(
    cmd: &Command,
    h: &Hotseat,
    (els, sides): (&Elements, &Sides),
    sight: &Sight,
    battle: &Battle,
    aircraft: &[super::air::Overhead],
) -> Result<(), Refusal> {
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
    let side = &sides.0[h.player];
    if let Some(k) = foos_with_guns(side).into_iter().find(|&k| &side.foos[k].id == element) {
        return check_foo(h, side, k, die, action);
    }
    if squadrons_due(side, battle.clock.bound(), battle.weather.grounds_aircraft())
        .into_iter()
        .any(|k| &side.squadrons[k].id == element)
    {
        return check_squadron(h, element, die, action);
    }
    if matches!(action, DieAction::Foo | DieAction::Battery) {
        return Err(ha(format!("{element} is no FOO of this player's with batteries to call")));
    }
    if *action == DieAction::Aircraft {
        return Err(ha(format!("{element} is no squadron of this player's over the battle")));
    }
    let Some(me) = els.get(element).filter(|f| f.presence.status.in_play()) else {
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
    let used = h.used.get(element).copied().unwrap_or(0);
    if used >= command::COMMAND_DICE_PER_ELEMENT {
        return Err(ha(format!("{element} has used 3 Command Dice this bound")));
    }
    if used > 0 && whole_bound(action) {
        return Err(ha(format!("{element} has acted this bound: the work takes its whole bound")));
    }
    let enemy =
        |id: &str| els.get(id).filter(|e| e.identity.side != me.identity.side && e.presence.status.on_table()).copied();
    match action {
        DieAction::Fire { target } => {
            let Some(t) = enemy(target) else { return Err(ha(format!("{target} is no enemy on the table"))) };
            // Men aboard a transport fire its weapons.
            let me = me.presence.status.aboard().and_then(|k| els[..].get(k)).unwrap_or(me);
            if me.force.transport() == Some(None) {
                return Err(refusal(
                    Book::HeroesAll,
                    "Transport elements",
                    "armoured transports may only use their weapons when they are carrying passengers",
                ));
            }
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
        DieAction::Overwatch { on } if *on == me.order.on_overwatch() => {
            let now = if *on { "already on" } else { "not on" };
            return Err(refusal(Book::HeroesAll, "Overwatch", format!("{element} is {now} Overwatch")));
        }
        DieAction::ReFace { to } => match me.order.posted() {
            None => return Err(refusal(Book::HeroesAll, "Guards", format!("{element} is no posted guard"))),
            Some(g) if g.facing == *to => {
                return Err(refusal(Book::HeroesAll, "Guards", format!("{element} faces {} already", to.name())));
            }
            Some(_) => {}
        },
        DieAction::Act
        | DieAction::Overwatch { .. }
        | DieAction::Communicate
        | DieAction::Foo
        | DieAction::Battery
        | DieAction::Aircraft => {}
        DieAction::Solo { command } => {
            if command.element() != element.as_str() {
                return Err(ha(format!("the die is given to {element}, the command to {}", command.element())));
            }
            if matches!(**command, Command::Runner { .. }) {
                return Err(ha("in a 2-player game a 5 communicates what an element has seen".into()));
            }
            if matches!(**command, Command::Move { pace: Pace::AtTheDouble, .. }) {
                return Err(ha("\"At The Double\" moves are NOT available".into()));
            }
            if h.aimed.contains(element) && matches!(**command, Command::AimedFire { .. }) {
                return Err(ha(format!("{element} has aimed already: its next shot is aimed")));
            }
            if command.phase().is_none() || matches!(**command, Command::Fire { .. } | Command::Observe { .. }) {
                return Err(ha("that is given by a die's own action, not as a solo command".into()));
            }
            super::check::check(command, &die_turn(element, command), els, sight, battle, aircraft)?;
        }
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
        let els = t.elements.views();
        let all = Elements::new(els.clone(), &t.roster);
        let sight = Sight::new(&t.battle, codex);
        let aircraft = super::air::over_table(&t.sides);
        check(&cmd, &h, (&all, &t.sides), &sight, &t.battle, &aircraft)
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
        Command::Die {
            element,
            die,
            action: action @ (DieAction::Foo | DieAction::Battery | DieAction::Aircraft),
            ..
        } => {
            // The FOO's or the Squadron Leader's own ORT, as the die is
            // allocated; no morale throws (a FOO team's losses are the
            // element's it is with; aircraft are driven off, not hurt).
            let s = h.player;
            let (k, officer, with) = if *action == DieAction::Aircraft {
                let Some(k) = t.sides.0[s].squadrons.iter().position(|q| &q.id == element) else { return };
                (k, t.sides.0[s].squadrons[k].leader, None)
            } else {
                let Some(k) = t.sides.0[s].foos.iter().position(|f| &f.id == element) else { return };
                (k, t.sides.0[s].foos[k].foo.officer, Some(t.sides.0[s].foos[k].with.clone()))
            };
            let quality = with
                .and_then(|w| t.roster.index(&w))
                .and_then(|i| t.elements.view_at(&t.roster, i))
                .map_or(warbound_rules::officer::Quality::Regular, |f| f.force.quality);
            let two = TwoPlayerElement { id: element.clone(), nco: officer, quality, morale_due: Vec::new() };
            let (allocation, events) = match h.dice.allocate(&two, *die, action_of(action), &[], &mut t.dice.0) {
                Ok(a) => a,
                Err(e) => {
                    let r = refusal(Book::HeroesAll, SECTION, e.to_string());
                    t.log.push(bound, event(&cmd, auto, Some(&r)));
                    if auto {
                        inbox.0.push_back(Command::Pass { player: h.player });
                    }
                    return;
                }
            };
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
                    if *action == DieAction::Aircraft {
                        super::air::squadron_die(&mut t, s, k);
                    } else if *action == DieAction::Foo {
                        super::artillery::foo_die(&mut t, s, k);
                    } else {
                        let id = element.clone();
                        let batteries: Vec<usize> = (0..t.sides.0[s].batteries.len())
                            .filter(|&b| t.sides.0[s].batteries[b].foo == id)
                            .collect();
                        for b in batteries {
                            super::artillery::battery_turn(&mut t, s, b);
                        }
                    }
                }
                _ => {
                    h.halted.insert(element.clone());
                }
            }
        }
        Command::Die { element, die, action, sixes } => {
            let mut els = t.elements.one(&t.roster, element);
            let Some(me) = els.as_mut() else {
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
                    if whole_bound(action) {
                        h.halted.insert(element.clone());
                    }
                    // A "4" aims: the element's next "1" this bound fires an aimed shot.
                    let aim =
                        matches!(action, DieAction::Solo { command } if matches!(**command, Command::AimedFire { .. }));
                    let aimed = if aim {
                        h.aimed.insert(element.clone());
                        false
                    } else {
                        matches!(action, DieAction::Fire { .. }) && h.aimed.remove(element)
                    };
                    t.flow.apply(FlowChange::To(Flow::Commanding(h.clone())));
                    if aim {
                        aim_taken(&mut t, element, action);
                    } else {
                        act(&mut t, element, action, aimed);
                    }
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

/// A "4" given to aim (*Heroes All*, "Command and Control for 2-Player
/// games": "aim a shot to improve its chances of a hit"): logged; its next
/// "1" this bound fires the aimed shot.
fn aim_taken(t: &mut Battlefield, element: &str, action: &DieAction) {
    let DieAction::Solo { command } = action else { return };
    let Command::AimedFire { target, .. } = &**command else { return };
    let bound = t.battle.clock.bound();
    let e = RuleEvent::new(EventKind::OrderDie, RuleRef::new(Book::HeroesAll, SECTION))
        .actor(element)
        .target(target.clone())
        .input("act", warbound_rules::order_dice::Act::Aim, "a \"4\": aim a shot to improve its chances of a hit")
        .outcome(serde_json::json!({ "aimed": true }));
    t.log.push(bound, e);
}

/// Carries out the action a Command Die gave; `aimed`: a fire after a "4" to aim.
fn act(t: &mut Battlefield, element: &str, action: &DieAction, aimed: bool) {
    match action {
        DieAction::Fire { target } => {
            let moved = t
                .roster
                .index(element)
                .and_then(|i| t.elements.view_at(&t.roster, i))
                .is_some_and(|f| f.actions.this_bound.moved);
            firing::do_fire(t, element, target, firing::Stance { on_the_move: moved, aimed, ..Default::default() });
        }
        DieAction::Move { to } => movement::do_move(t, element, Point(to.0, to.1), 0, Pace::Normal),
        DieAction::Observe { target } => {
            observation::do_observe(t, element, &[super::command::ObserveTarget::Element(target.clone())], 0)
        }
        DieAction::Act => {
            let mut els = t.elements.one(&t.roster, element);
            if let Some(f) = els.as_mut() {
                f.apply(Change::Revealed);
            }
        }
        DieAction::Overwatch { on } => {
            let bound = t.battle.clock.bound();
            let mut els = t.elements.one(&t.roster, element);
            if let Some(f) = els.as_mut() {
                f.apply(Change::Overwatch(*on));
                let ev = RuleEvent::new(EventKind::CommandDice, RuleRef::new(Book::HeroesAll, "Overwatch"))
                    .actor(element.to_owned())
                    .input("die", 4, "a \"4\" Command Die")
                    .outcome(serde_json::json!({ "overwatch": on }));
                t.log.push(bound, ev);
            }
        }
        DieAction::ReFace { to } => {
            let bound = t.battle.clock.bound();
            let mut els = t.elements.one(&t.roster, element);
            if let Some(f) = els.as_mut() {
                let before = f.order.posted().map(|g| g.facing);
                f.apply(Change::ReFaced(*to));
                let ev = RuleEvent::new(EventKind::CommandDice, RuleRef::new(Book::HeroesAll, "Guards"))
                    .actor(element.to_owned())
                    .input("die", 4, "a \"4\" Command Die re-faces a guard")
                    .input("facing", before, "before")
                    .outcome(serde_json::json!({ "facing": to }));
                t.log.push(bound, ev);
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
                .filter(|f| f.identity.side == side && f.identity.company == company && f.presence.status.in_play())
            {
                f.apply(Change::Knows(known.iter().cloned().collect()));
            }
        }
        DieAction::Solo { command } => solo(t, element, command),
        DieAction::Foo | DieAction::Battery | DieAction::Aircraft => {}
    }
}

/// Carries out a solo command given by a Command Die through the rule step
/// the solo flow's phase takes it to.
fn solo(t: &mut Battlefield, element: &str, command: &Command) {
    let moved = t
        .roster
        .index(element)
        .and_then(|i| t.elements.view_at(&t.roster, i))
        .is_some_and(|f| f.actions.this_bound.moved);
    let stance = firing::Stance { on_the_move: moved, ..Default::default() };
    match command {
        Command::Smoke { at, .. } => super::smoke::lay(t, element, *at, stance),
        Command::Assault { target, .. } => {
            let turn = die_turn(element, command);
            super::assault::assault(t, element, target, &turn);
        }
        Command::Petard { target, .. } => super::demolition_vehicles::petard(t, element, target),
        Command::Goliath { target, .. } => super::demolition_vehicles::detonate(t, element, target),
        Command::FireAa { squadron, .. } => {
            let bound = t.battle.clock.bound();
            let mut els = t.elements.one(&t.roster, element);
            if let Some(f) = els.as_mut() {
                super::shared::reveal(&mut t.log, bound, f, warbound_rules::concealment::ConcealedActivity::Fire);
            }
            super::air::aa_fire(t, element, squadron);
            let mut els = t.elements.one(&t.roster, element);
            if let Some(f) = els.as_mut() {
                f.apply(Change::Fired);
            }
        }
        Command::Move { to, pace, .. } => {
            movement::do_move(t, element, Point(to.0, to.1), 0, *pace);
            if *pace == Pace::Stealth {
                movement::stealthy(t, element);
            }
        }
        Command::CheckVacated { enemy, .. } => observation::check_vacated(t, element, enemy),
        Command::Extract { counter, .. } => observation::extract(t, element, *counter),
        Command::SetUp { up, .. } => super::turn::set_up_weapons(t, element, *up),
        Command::Renet { .. } => super::command_turn::renet(t, element),
        Command::SetFire { .. } => super::setting_fire::set_fire(t, element),
        Command::Repair { .. } => super::bridging::repair(t, element),
        Command::Detonate { charge, .. } => super::demolition::charge_act(t, element, charge, 1),
        Command::Clear { charge, .. } => super::demolition::charge_act(t, element, charge, 2),
        Command::ClearMines { .. } => super::demolition::clear_mines(t, element),
        Command::SetCharge { kind, delay, .. } => super::demolition::set_charge(t, element, *kind, *delay),
        Command::Bangalore { toward, .. } => super::demolition::bangalore(t, element, Point(toward.0, toward.1)),
        Command::Bridge { .. } => super::bridging::work(t, element),
        Command::Wade { to, .. } => super::bridging::wade(t, element, *to),
        Command::Launch { to, .. } => super::river_craft::launch(t, element, *to),
        Command::Embark { transport, .. } => super::transport::embark(t, element, transport),
        Command::Disembark { .. } => super::transport::disembark(t, element),
        other => {
            let bound = t.battle.clock.bound();
            t.failures.record(&mut t.log, bound, "solo", element, format!("{other:?} is not given by a Command Die"));
        }
    }
}

/// The program's choice for an Auto player in a 2-player game: the first die
/// it can use well — an engineer's work (fire its side's charge, lift an
/// enemy's, clear the minefield or bridge the river it is at, blow a gap in
/// the wire ahead with a Bangalore Torpedo), a Goliath at
/// its quarry, an assault on an enemy in contact, fire at a known enemy in
/// view and range, AA fire at a squadron over the table, observe an unseen
/// enemy, move as the element's orders say — else it passes.
fn choose(t: Battlefield, mut inbox: ResMut<Inbox>) {
    let Flow::Commanding(h) = &*t.flow else { return };
    let h = h.clone();
    if !inbox.0.is_empty() || t.sides.0[h.player].control != Control::Auto {
        return;
    }
    let codex = t.codex.0.clone();
    let codex = &*codex;
    let els = t.elements.views();
    let all = Elements::new(els.clone(), &t.roster);
    let sight = Sight::new(&t.battle, codex);
    let aircraft = super::air::over_table(&t.sides);
    let mine: Vec<ElementView> =
        all.iter().copied().filter(|f| f.identity.side == h.player && f.presence.status.in_play()).collect();
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
            let id = me.id().to_owned();
            let solo = |command: Command| DieAction::Solo { command: Box::new(command) };
            if face == 4 || face == 6 {
                let vehicle = me.presence.status.aboard().and_then(|k| all[..].get(k));
                if vehicle.is_some_and(|v| auto::gets_out(me, v, &enemies, &sight)) {
                    options.push(solo(Command::Disembark { element: id.clone() }));
                }
                for d in &t.battle.charges {
                    options.push(solo(Command::Detonate { element: id.clone(), charge: d.id.clone() }));
                    options.push(solo(Command::Clear { element: id.clone(), charge: d.id.clone() }));
                }
                options.push(solo(Command::ClearMines { element: id.clone() }));
                options.push(solo(Command::Bridge { element: id.clone() }));
                if let Some(to) = auto::order_destination(me, &enemies, &sight) {
                    options.push(solo(Command::Bangalore { element: id.clone(), toward: (to.0, to.1) }));
                }
                if let Some((target, _)) = super::demolition_vehicles::goliath_quarry(me, &enemies, &t.battle) {
                    options.push(solo(Command::Goliath { element: id.clone(), target }));
                }
            }
            if face == 1 || face == 6 {
                let foe = nearest(&|e| super::assault::assailable(&sight, me, e));
                options.extend(foe.map(|e| solo(Command::Assault { element: id.clone(), target: e.id().to_owned() })));
            }
            if face == 1 || face == 6 {
                let fire = nearest(&|e| sight.may_fire_at(me, e) && sight.in_range_of_any(me, e));
                options.extend(fire.map(|e| DieAction::Fire { target: e.id().to_owned() }));
                for o in aircraft.iter().filter(|o| o.side != h.player) {
                    options.push(solo(Command::FireAa { element: id.clone(), squadron: o.squadron.clone() }));
                }
            }
            if face == 3 || face == 6 {
                let look = nearest(&|e| !me.intel.known.contains(e.id()) && sight.in_view(me, e));
                options.extend(look.map(|e| DieAction::Observe { target: e.id().to_owned() }));
            }
            if (face == 2 || face == 6) && !me.actions.this_bound.moved {
                let edge = t.sides.0[h.player].home(me.identity.company);
                let home = super::shared::nearest_on_edge(t.battle.start.scenario.table, edge, me.place.at);
                let to = match me.force.transport() {
                    Some(None) => auto::empty_transport_home(me, home),
                    _ => auto::order_destination(me, &enemies, &sight),
                };
                options.extend(to.map(|p| DieAction::Move { to: (p.0, p.1) }));
            }
            for action in options {
                let cmd = Command::Die { element: me.id().to_owned(), die, action, sixes: Vec::new() };
                if check(&cmd, &h, (&all, &t.sides), &sight, &t.battle, &aircraft).is_ok() {
                    pick = Some(cmd);
                    break 'dice;
                }
            }
        }
        // The FOO: his guns fire on his active target; else he nets in and
        // nominates or observes one.
        let grounded = t.battle.weather.grounds_aircraft();
        for k in squadrons_due(&t.sides.0[h.player], t.battle.clock.bound(), grounded) {
            let element = t.sides.0[h.player].squadrons[k].id.clone();
            let cmd = Command::Die { element, die, action: DieAction::Aircraft, sixes: Vec::new() };
            if check(&cmd, &h, (&all, &t.sides), &sight, &t.battle, &aircraft).is_ok() {
                pick = Some(cmd);
                break 'dice;
            }
        }
        for k in foos_with_guns(&t.sides.0[h.player]) {
            let element = t.sides.0[h.player].foos[k].id.clone();
            for action in [DieAction::Battery, DieAction::Foo] {
                let cmd = Command::Die { element: element.clone(), die, action, sixes: Vec::new() };
                if check(&cmd, &h, (&all, &t.sides), &sight, &t.battle, &aircraft).is_ok() {
                    pick = Some(cmd);
                    break 'dice;
                }
            }
        }
    }
    inbox.0.push_back(pick.unwrap_or(Command::Pass { player: h.player }));
}
