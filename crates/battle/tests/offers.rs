//! The Orders window's offers carry the odds of the throw they lead to: each
//! number is the one the rules core gives for the same firer, charge or
//! radio, and a refused offer names its book, section and reason.

use std::sync::Arc;
use warbound_battle::{
    command::{Command, Pace},
    log::BattleLog,
    options::{Decision, Stance, along, decision, fire_odds},
    play,
    setup::{BattleStart, Control},
    shipped,
    state::{Battle, ElementBundle, Flow, Sides},
    visible::Sight,
};
use warbound_rules::{codex::Codex, explosives, order_dice::Phase};

fn codex() -> Arc<Codex> {
    shipped::codex().expect("the shipped CODEX loads")
}

/// Over the first bounds of the river battle, the British side at the
/// screen: every fire offer carries the rules core's chance to hit and hits
/// expected for that firer and target, every detonation the pack's 2+ on a
/// D6 for that charge, every radio the Radio Test's chance for its nation,
/// and every refused offer reads "book, section: reason".
#[test]
fn every_offer_carries_the_odds_of_its_throw_and_a_refusal_its_rule() {
    let (mut fire, mut detonate, mut renet, mut refused, mut acts) = (0, 0, 0, 0, 0);
    let codex = codex();
    for (name, seed) in [("river", 0), ("river", 1), ("river", 2), ("village", 0), ("village", 1)] {
        let scenario = shipped::battle(name, &codex).unwrap();
        let mut start = BattleStart::auto(name, scenario, seed);
        start.control = vec![Control::Player, Control::Player];
        let mut app = play::battle_app(start, BattleLog::default(), codex.clone()).unwrap();
        play::advance(&mut app).unwrap();
        for _ in 0..600 {
            if play::is_over(app.world()) || app.world().resource::<Battle>().clock.bound() > 6 {
                break;
            }
            let Some(d) = decision(app.world_mut()) else { break };
            let cmd = match d {
                Decision::Act { offers, element, pending, move_refused, .. } => {
                    acts += 1;
                    let Flow::Acting(turn) = app.world().resource::<Flow>().clone() else { panic!("an Act offer") };
                    let els: Vec<ElementBundle> = warbound_battle::state::elements(app.world());
                    let me = els.iter().find(|f| f.id() == element).unwrap().view();
                    let battle = app.world().resource::<Battle>();
                    let sight = Sight::new(battle, &codex);
                    let moving = turn.orders.order == Phase::Move || turn.taken.contains(&Phase::Move);
                    for o in &offers {
                        if let Some(why) = &o.refused {
                            let (book, rest) = why.split_once(", ").expect("book, section: reason");
                            assert!(matches!(book, "HA" | "FYOB"), "{why}");
                            let (section, reason) = rest.split_once(": ").expect("section: reason");
                            assert!(!section.is_empty() && !reason.is_empty(), "{why}");
                            refused += 1;
                        }
                        match &o.command {
                            Command::Fire { target, .. } | Command::AimedFire { target, .. } => {
                                let aimed = matches!(o.command, Command::AimedFire { .. });
                                let t = els.iter().find(|f| f.id() == target).unwrap().view();
                                let odds = fire_odds(&sight, &me, &t, Stance::new(moving, turn.failures, aimed));
                                assert_eq!(o.chance, odds.map(|o| o.at_least_one_hit), "{}", o.label);
                                assert_eq!(o.expected, odds.map(|o| o.expected_hits), "{}", o.label);
                                if let Some(p) = o.chance {
                                    assert!(o.label.contains(&format!("{:.0}% to hit", p * 100.0)), "{}", o.label);
                                }
                                fire += 1;
                            }
                            Command::Detonate { charge, .. } => {
                                let d = battle.charges.iter().find(|d| &d.id == charge).unwrap();
                                assert_eq!(o.chance, Some(explosives::detonation_chance(d.charge.kind)));
                                assert!(o.label.contains("83% it goes off"), "{}", o.label);
                                detonate += 1;
                            }
                            Command::Renet { .. } => {
                                let sides = app.world().resource::<Sides>();
                                let nation = &sides.0[me.identity.side].nation;
                                assert_eq!(o.chance, Some(warbound_rules::strategic::radio_test_odds(nation)));
                                renet += 1;
                            }
                            _ => {}
                        }
                    }
                    // Fire where it may, else detonate, else advance as ordered, else end the turn.
                    let pick = |f: fn(&Command) -> bool| offers.iter().find(|o| o.refused.is_none() && f(&o.command));
                    let advance = pick(|c| matches!(c, Command::Move { .. })).and_then(|o| match &o.command {
                        Command::Move { element, to, .. } if move_refused.is_none() => {
                            Some(Command::Move { element: element.clone(), to: *to, pace: Pace::Normal })
                        }
                        _ => None,
                    });
                    if let Some(p) = pending {
                        let to = along((me.place.at.0, me.place.at.1), p.to, p.allowance);
                        Command::MoveTo { element, to }
                    } else {
                        pick(|c| matches!(c, Command::Fire { .. }))
                            .or_else(|| pick(|c| matches!(c, Command::Detonate { .. })))
                            .map(|o| o.command.clone())
                            .or(advance)
                            .or_else(|| pick(|c| matches!(c, Command::EndTurn { .. })).map(|o| o.command.clone()))
                            .unwrap()
                    }
                }
                Decision::CoTurn { command, .. } => command,
                Decision::Session { keep, .. } => keep,
                Decision::Seize { command, .. } => command,
            };
            play::command(&mut app, cmd).unwrap();
        }
    }
    assert!(acts > 20 && fire > 0 && refused > 0, "acts {acts}, fire {fire}, refused {refused}, radio {renet}");
    assert!(detonate > 0, "the German pioneers were never offered the bridge charge");
}
