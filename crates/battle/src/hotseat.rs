//! The 2-player game at one screen (*Heroes All*, "Command and Control for
//! 2-Player games"): what the player whose turn it is may do with each of
//! his unused Command Dice, each choice checked by the very check that
//! answers it when given ([`super::two_player`]), a refused one with its rule
//! and reason, and the odds where dice follow, from the rules core.

use warbound_rules::{explosives::ChargeKind, geometry::distance};

use super::{
    auto,
    command::{Command, DieAction, ObserveTarget, Pace},
    names::Names,
    observation,
    options::{Stance, fire_odds},
    play::waiting_for_player,
    state::{Battle, ElementView, Elements, FieldedReadOnly, Flow, Roster, Sides},
    two_player,
    visible::Sight,
};
use crate::prelude::*;

/// One choice for a Command Die.
#[derive(Debug, Clone, PartialEq)]
pub struct DieOffer {
    pub label: String,
    pub command: Command,
    /// The rule and reason it is refused, or `None` when it may be given.
    pub refused: Option<String>,
}

/// One of the player's elements on the table, as his Command Dice stand to it.
#[derive(Debug, Clone, PartialEq)]
pub struct DieTaker {
    pub id: String,
    pub name: String,
    /// Command Dice given to it this bound (3 at most).
    pub used: u8,
    /// It failed its ORT or a morale throw: no die this bound.
    pub halted: bool,
    /// Morale throws its first die calls for (casualties, damage, aircraft driven off).
    pub morale_throws: u32,
}

/// What the player at the screen holds and may do.
#[derive(Debug, Clone, PartialEq)]
pub struct HotseatChoice {
    pub player: usize,
    pub side: String,
    /// His unused Command Dice: their place in the throw and their face.
    pub dice: Vec<(usize, u8)>,
    pub elements: Vec<DieTaker>,
    /// For the element asked about: each unused die's choices.
    pub offers: Vec<DieOffer>,
    /// Dice the element asked about may re-roll (it Seized the initiative).
    pub rerolls: Vec<DieOffer>,
    /// Ends his turn with the dice left unused.
    pub pass: Command,
}

/// The action a die's face gives, in words.
pub fn face_words(face: u8) -> &'static str {
    match face {
        1 => "Fire",
        2 => "Move",
        3 => "Observe",
        4 => "Act",
        5 => "Communicate",
        _ => "any action",
    }
}

/// The solo flow's commands a Command Die may give `me` (each offered on the
/// face its phase calls for, and on a 6): an assault, a petard and smoke at
/// a known enemy, AA fire at an enemy squadron over the table; a move by
/// stealth towards its objective (no move "At The Double" in a 2-player
/// game); checking the
/// place of an enemy lost track of; and the Acts: set up or take down its
/// weapons, aim at a known enemy, extract from concealment, re-net its radio, wade, fire its side's
/// charges, lift the enemy's, clear a minefield, work on a bridge, a Goliath,
/// get into one of its side's empty transports (`mine`) or out of its own.
fn solo_choices(
    me: &ElementView,
    (mine, enemies): (&[ElementView], &[ElementView]),
    known: &dyn Fn(&ElementView) -> bool,
    sight: &Sight,
    battle: &Battle,
    aircraft: &[super::air::Overhead],
    names: &Names,
) -> Vec<(String, Command)> {
    let id = me.id().to_owned();
    let element = || id.clone();
    let mut out = Vec::new();
    for e in enemies.iter().filter(|e| known(e)) {
        let (name, target) = (names.name(e.id()), e.id().to_owned());
        out.push((
            format!("aim at {name}: its next \"1\" fires an aimed shot"),
            Command::AimedFire { element: element(), target: target.clone() },
        ));
        out.push((format!("assault {name}"), Command::Assault { element: element(), target: target.clone() }));
        out.push((format!("petard at {name}"), Command::Petard { element: element(), target: target.clone() }));
        out.push((format!("smoke on {name}"), Command::Smoke { element: element(), at: (e.place.at.0, e.place.at.1) }));
        out.push((format!("Goliath at {name}"), Command::Goliath { element: element(), target }));
    }
    for o in aircraft.iter().filter(|o| o.side != me.identity.side) {
        let name = names.name(&o.squadron);
        out.push((format!("AA fire at {name}"), Command::FireAa { element: element(), squadron: o.squadron.clone() }));
    }
    if let Some(to) = auto::order_destination(me, enemies, sight) {
        let to = (to.0, to.1);
        out.push((
            "move by stealth towards its objective".into(),
            Command::Move { element: element(), to, pace: Pace::Stealth },
        ));
        out.push(("wade towards its objective".into(), Command::Wade { element: element(), to }));
        out.push(("launch its boats towards its objective".into(), Command::Launch { element: element(), to }));
    }
    for enemy in me.intel.last_seen.keys() {
        out.push((
            format!("check whether {} has left", names.name(enemy)),
            Command::CheckVacated { element: element(), enemy: enemy.clone() },
        ));
    }
    out.push(("set up its weapons".into(), Command::SetUp { element: element(), up: true }));
    out.push(("take down its weapons".into(), Command::SetUp { element: element(), up: false }));
    for (counter, _) in me.concealment.counters() {
        out.push((
            format!("extract from concealment at counter {counter}"),
            Command::Extract { element: element(), counter },
        ));
    }
    out.push(("re-net its radio".into(), Command::Renet { element: element() }));
    out.push(("set fire to the building it stands in".into(), Command::SetFire { element: element() }));
    out.push(("mend the damaged bridge it is at".into(), Command::Repair { element: element() }));
    // Heroes All, "Transport elements": into or out of a vehicle, a "4".
    if me.presence.status.aboard().is_some() {
        out.push(("get out of its transport".into(), Command::Disembark { element: element() }));
    }
    for v in mine.iter().filter(|v| v.force.transport() == Some(None)) {
        out.push((
            format!("get into {}", names.name(v.id())),
            Command::Embark { element: element(), transport: v.id().to_owned() },
        ));
    }
    for d in &battle.charges {
        if d.side == me.identity.side {
            out.push((
                format!("fire the charge on {}", d.target),
                Command::Detonate { element: element(), charge: d.id.clone() },
            ));
        } else if d.found || super::demolition::may_clear(me, d) {
            out.push((
                format!("lift the charge on {} (the whole bound)", d.target),
                Command::Clear { element: element(), charge: d.id.clone() },
            ));
        }
    }
    if let Some(to) = auto::order_destination(me, enemies, sight) {
        out.push((
            "blow a gap in the wire ahead with a Bangalore Torpedo".into(),
            Command::Bangalore { element: element(), toward: (to.0, to.1) },
        ));
    }
    for kind in [ChargeKind::Small, ChargeKind::Large].iter().filter(|k| me.force.explosives.contains(k)) {
        let name = super::demolition::charge_name(*kind);
        let delay = kind.max_delay().min(3);
        out.push((
            format!("set a {name} on the bridge to go off after {delay} bounds (the whole bound)"),
            Command::SetCharge { element: element(), kind: *kind, delay },
        ));
        if kind.needs_pack() {
            out.push((
                format!("set a {name} on the bridge for the detonation pack (the whole bound)"),
                Command::SetCharge { element: element(), kind: *kind, delay: 0 },
            ));
        }
    }
    out.push(("clear the minefield (the whole bound)".into(), Command::ClearMines { element: element() }));
    out.push(("work on the bridge (the whole bound)".into(), Command::Bridge { element: element() }));
    out
}

/// The player's Command Dice and, for `element` (one of his), each die's
/// choices; `None` when no player at the screen is giving out his dice.
pub fn hotseat_choice(world: &mut World, element: Option<&str>) -> Option<HotseatChoice> {
    if !waiting_for_player(world) {
        return None;
    }
    let Some(Flow::Commanding(h)) = world.get_resource::<Flow>().cloned() else { return None };
    let mut q = world.query::<FieldedReadOnly>();
    let roster = world.get_resource::<Roster>()?;
    let all = Elements::new(q.iter(world).map(|f| f.view()).collect(), roster);
    let battle = world.get_resource::<Battle>()?;
    let sides = world.get_resource::<Sides>()?;
    let names = world.get_resource::<Names>()?;
    let codex = &world.get_resource::<super::BattleCodex>()?.0;
    let sight = Sight::new(battle, codex);
    let aircraft = super::air::over_table(sides);
    let dice: Vec<(usize, u8)> = (0..h.dice.len()).filter_map(|i| h.dice.face(i).map(|f| (i, f))).collect();
    let mine: Vec<ElementView> =
        all.iter().copied().filter(|f| f.identity.side == h.player && f.presence.status.in_play()).collect();
    let mut elements: Vec<DieTaker> = mine
        .iter()
        .map(|f| DieTaker {
            id: f.id().to_owned(),
            name: names.name(f.id()),
            used: h.used.get(f.id()).copied().unwrap_or(0),
            halted: h.halted.contains(f.id()),
            morale_throws: f.momentum.morale_due.iter().map(|(_, n)| n).sum(),
        })
        .collect();
    // "Artillery with a FOO get 1 Command Die not 2": the FOO takes the dice.
    let side = &sides.0[h.player];
    let foos = two_player::foos_with_guns(side);
    // A FOO or a squadron taking dice: no morale throws.
    let taker = |id: &String| DieTaker {
        id: id.clone(),
        name: names.name(id),
        used: h.used.get(id).copied().unwrap_or(0),
        halted: h.halted.contains(id),
        morale_throws: 0,
    };
    elements.extend(foos.iter().map(|&k| taker(&side.foos[k].id)));
    let check = |cmd: &Command| {
        two_player::check(cmd, &h, (&all, sides), &sight, battle, &aircraft)
            .err()
            .map(|r| super::options::refusal_text(&r))
    };
    // Each squadron over the battle this bound takes its own dice.
    let flying = two_player::squadrons_due(side, battle.clock.bound(), battle.weather.grounds_aircraft());
    elements.extend(flying.iter().map(|&k| taker(&side.squadrons[k].id)));
    let mut offers = Vec::new();
    let mut rerolls = Vec::new();
    if let Some(&k) = flying.iter().find(|&&k| Some(side.squadrons[k].id.as_str()) == element) {
        for &(die, face) in dice.iter().filter(|(_, f)| [1, 6].contains(f)) {
            let command = Command::Die {
                element: side.squadrons[k].id.clone(),
                die,
                action: DieAction::Aircraft,
                sixes: Vec::new(),
            };
            let refused = check(&command);
            let label =
                format!("die {} (a {face}): its machines come down, acquire a ground target and attack", die + 1);
            offers.push(DieOffer { label, command, refused });
        }
    }
    if let Some(&k) = foos.iter().find(|&&k| Some(side.foos[k].id.as_str()) == element) {
        let fo = &side.foos[k];
        for &(die, face) in &dice {
            let mut add = |label: &str, action: DieAction| {
                let command = Command::Die { element: fo.id.clone(), die, action, sixes: Vec::new() };
                let refused = check(&command);
                offers.push(DieOffer { label: format!("die {} (a {face}): {label}", die + 1), command, refused });
            };
            if face == 4 || face == 6 {
                add("the FOO's Acts: net in, nominate, switch or observe for an Artillery Target", DieAction::Foo);
            }
            if face == 1 || face == 6 {
                let on = fo.plan.active.map_or(String::new(), |n| format!(" on Artillery Target {n}"));
                add(&format!("his batteries fire{on}"), DieAction::Battery);
            }
        }
    }
    if let Some(me) = element.and_then(|id| mine.iter().find(|f| f.id() == id)) {
        let enemies: Vec<ElementView> =
            all.iter().copied().filter(|e| e.identity.side != h.player && e.presence.status.on_table()).collect();
        let known = |e: &ElementView| me.intel.known.contains(e.id()) || sides.0[h.player].known.contains(e.id());
        // The other unused 6s, spent on failed morale throws when the first die calls for them.
        let sixes = |die: usize| -> Vec<usize> {
            if me.momentum.morale_due.is_empty() || h.used.contains_key(me.id()) {
                return Vec::new();
            }
            dice.iter().filter(|&&(i, f)| f == 6 && i != die).map(|&(i, _)| i).collect()
        };
        for &(die, face) in &dice {
            let with = format!("die {} (a {face})", die + 1);
            let mut add = |label: String, action: DieAction| {
                let command = Command::Die { element: me.id().to_owned(), die, action, sixes: sixes(die) };
                let refused = check(&command);
                offers.push(DieOffer { label: format!("{with}: {label}"), command, refused });
            };
            if face == 1 || face == 6 {
                for e in enemies.iter().filter(|e| known(e)) {
                    let odds = fire_odds(&sight, me, e, Stance::new(me.actions.this_bound.moved, 0, false))
                        .map(|o| {
                            format!(
                                ": {} shots, {:.0}% to hit, {:.1} hits expected",
                                o.shots,
                                o.at_least_one_hit * 100.0,
                                o.expected_hits
                            )
                        })
                        .unwrap_or_default();
                    add(format!("fire at {}{odds}", names.name(e.id())), DieAction::Fire { target: e.id().to_owned() });
                }
            }
            if (face == 2 || face == 6)
                && let Some(to) = auto::order_destination(me, &enemies, &sight)
            {
                let inches = distance(me.place.at, to).get();
                add(
                    format!("move towards its objective, {inches:.0}\" away (or click the table)"),
                    DieAction::Move { to: (to.0, to.1) },
                );
            }
            if face == 3 || face == 6 {
                // The enemy it has not seen but could: the chance, neither
                // the name nor the place (the player has not seen him).
                let unseen: Vec<_> = enemies.iter().filter(|e| !known(e) && sight.in_view(me, e)).collect();
                for (k, e) in unseen.iter().enumerate() {
                    let target = ObserveTarget::Element(e.id().to_owned());
                    let Some(p) = observation::chance_to_observe(&sight, me, &all, &target, 0) else { continue };
                    let which =
                        if unseen.len() > 1 { format!(" ({} of {})", k + 1, unseen.len()) } else { String::new() };
                    add(
                        format!("observe for an enemy not yet seen{which}: {:.0}% to see", p * 100.0),
                        DieAction::Observe { target: e.id().to_owned() },
                    );
                }
            }
            if (face == 4 || face == 6) && me.concealment.concealed() {
                add("come out of concealment (an Act)".into(), DieAction::Act);
            }
            if face == 4 || face == 6 {
                let on = !me.order.on_overwatch();
                let label = if on { "go onto Overwatch (its 180° arc ahead)" } else { "come out of Overwatch" };
                add(label.into(), DieAction::Overwatch { on });
                if let Some(g) = me.order.posted() {
                    for to in warbound_rules::movement::Compass::ALL.into_iter().filter(|&c| c != g.facing) {
                        add(format!("re-face the guard to the {}", to.name()), DieAction::ReFace { to });
                    }
                }
            }
            if face == 5 || face == 6 {
                add("tell its company what it has seen".into(), DieAction::Communicate);
            }
            for (label, command) in solo_choices(me, (&mine, &enemies), &known, &sight, battle, &aircraft, names) {
                let wanted = two_player::face_for(&command);
                if face == 6 || face == wanted {
                    add(label, DieAction::Solo { command: Box::new(command) });
                }
            }
        }
        if h.rerolls.contains(me.id()) {
            for &(die, face) in &dice {
                let command = Command::Reroll { element: me.id().to_owned(), die };
                let refused = check(&command);
                rerolls.push(DieOffer { label: format!("Re-roll die {} (a {face})", die + 1), command, refused });
            }
        }
    }
    Some(HotseatChoice {
        player: h.player,
        side: sides.0[h.player].name.clone(),
        dice,
        elements,
        offers,
        rerolls,
        pass: Command::Pass { player: h.player },
    })
}
