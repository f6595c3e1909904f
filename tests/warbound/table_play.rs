//! A battle played through the table's decisions, as the person at the
//! screen plays it: the headless game with the first side under the
//! player's command, each decision read from `battle::options` and answered
//! with one of the commands it offers.

use warbound::{
    app::headless_app,
    battle::{
        NewBattle,
        command::{Command, Inbox},
        log::BattleLog,
        options::{Decision, along, decision},
        play::is_over,
        state::{Battle, ElementBundle},
    },
    data,
};

/// The first offer the rules accept whose command matches `pick`.
fn first(offers: &[warbound::battle::options::Offer], pick: fn(&Command) -> bool) -> Option<Command> {
    offers.iter().find(|o| o.refused.is_none() && pick(&o.command)).map(|o| o.command.clone())
}

#[test]
fn the_patrol_plays_to_its_end_through_the_decisions_the_table_offers() {
    let mut app = headless_app(Some(data::load_scenario("patrol").unwrap()));
    app.insert_resource(NewBattle { seed: 7, player: Some(0), two_player: false });
    let mut decisions = 0;
    let mut moved = 0;
    let mut warned = 0;
    for _ in 0..5_000 {
        app.update();
        if is_over(app.world()) {
            break;
        }
        let Some(d) = decision(app.world_mut()) else { continue };
        decisions += 1;
        let cmd = match d {
            Decision::Act { element, name, pending, move_refused, offers, orders } => {
                // Headed by its name, never its id.
                assert_eq!(name, app.world().resource::<warbound::battle::names::Names>().name(&element));
                // FYOB "Order Dice scores": an offer of another phase before the
                // ordered one says it gives the ordered one up.
                for o in offers.iter().filter(|o| o.refused.is_none()) {
                    let phase = match o.command {
                        Command::Fire { .. } => Some("Fire"),
                        Command::Observe { .. } => Some("Act"),
                        _ => None,
                    };
                    let ordered_first = orders.contains("nothing yet");
                    if let Some(phase) = phase
                        && ordered_first
                        && !orders.starts_with(&format!("Order Die: {phase};"))
                    {
                        assert!(o.label.contains("(gives up the "), "{orders}: {}", o.label);
                        warned += 1;
                    }
                }
                let at = {
                    let world = app.world_mut();
                    let els = warbound::battle::state::elements(world);
                    els.iter().find(|f| f.id() == element).map(|f| (f.place.at.0, f.place.at.1)).unwrap()
                };
                if let Some(p) = pending {
                    moved += 1;
                    Command::MoveTo { element, to: along(at, p.to, p.allowance) }
                } else if let Some(fire) = first(&offers, |c| matches!(c, Command::Fire { .. })) {
                    fire
                } else if let Some(observe) =
                    first(&offers, |c| matches!(c, Command::Observe { targets, .. } if !targets.is_empty()))
                {
                    observe
                } else if move_refused.is_none() {
                    // Up the lane towards the crossroads.
                    Command::Move { element, to: (at.0, (at.1 + 12.0).min(46.0)), pace: Default::default() }
                } else {
                    first(&offers, |c| matches!(c, Command::EndTurn { .. })).expect("the turn can always end")
                }
            }
            Decision::CoTurn { command, .. } | Decision::Seize { command, .. } => command,
            Decision::Session { keep, .. } => keep,
        };
        app.world_mut().resource_mut::<Inbox>().0.push_back(cmd);
    }
    assert!(is_over(app.world()), "the battle ends");
    let world = app.world();
    let result = world.resource::<Battle>().result.clone().expect("a result");
    assert!(decisions >= 5, "the player was asked to decide ({decisions} decisions)");
    assert!(moved >= 1, "the player's sections moved");
    assert!(warned >= 1, "an offer before the ordered phase said what it gives up");
    // Every command given from the offers was accepted by the rules.
    let refused = world
        .resource::<BattleLog>()
        .entries
        .iter()
        .filter(|e| e.event.outcome.get("accepted") == Some(&serde_json::Value::Bool(false)))
        .count();
    assert_eq!(refused, 0, "no offered command was refused");
    assert!(result.bounds_played >= 1);
}

/// The patrol at its start, a British section on the table and a German
/// element (to be placed by the test).
fn patrol_pair() -> (bevy::prelude::App, ElementBundle, ElementBundle) {
    use warbound::battle::{battle_app, setup::BattleStart};
    let loaded = data::load_scenario("patrol").unwrap();
    let mut app = battle_app(BattleStart::auto("patrol", loaded.scenario, 1), BattleLog::default()).unwrap();
    let world = app.world_mut();
    let els = warbound::battle::state::elements(world);
    let british =
        els.iter().find(|f| f.identity.side == 0 && f.presence.status.on_table()).expect("a British section").clone();
    let german = els.iter().find(|f| f.identity.side == 1).expect("a German element").clone();
    (app, british, german)
}

#[test]
fn the_odds_offered_before_a_volley_come_from_the_rules_and_fall_with_range() {
    use warbound::battle::{
        options::{Stance, fire_odds},
        visible::Sight,
    };
    use warbound_rules::terrain::Point;
    let (app, firer, mut target) = patrol_pair();
    let sight = Sight::new(app.world().resource::<Battle>(), data::codex().unwrap());
    let standing = Stance::new(false, 0, false);
    // Along the firer's own lane: 6" and then 20" ahead of it.
    target.place.at = Point(firer.place.at.0, firer.place.at.1 + 6.0);
    let near = fire_odds(&sight, &firer.view(), &target.view(), standing).expect("rifles reach 6 inches");
    // Heroes All, "-1 firing on the move": the odds shown on a Move order
    // are the dice's, lower than standing.
    let moving = fire_odds(&sight, &firer.view(), &target.view(), Stance::new(true, 0, false)).unwrap();
    assert_eq!(moving.shots, near.shots);
    assert!(moving.at_least_one_hit < near.at_least_one_hit, "{moving:?} against {near:?}");
    assert!(moving.expected_hits < near.expected_hits, "{moving:?} against {near:?}");
    target.place.at = Point(firer.place.at.0, firer.place.at.1 + 20.0);
    let far = fire_odds(&sight, &firer.view(), &target.view(), standing);
    assert!(near.shots > 0 && near.at_least_one_hit > 0.0 && near.at_least_one_hit <= 1.0, "{near:?}");
    assert!(near.expected_hits <= f64::from(near.shots));
    if let Some(far) = far {
        assert!(far.expected_hits <= near.expected_hits, "{far:?} against {near:?}");
    }
}

#[test]
fn the_odds_offered_before_an_observation_test_come_from_the_rules_and_fall_with_range() {
    use warbound::battle::{observation::chance_to_see, visible::Sight};
    use warbound_rules::terrain::Point;
    let (app, observer, mut target) = patrol_pair();
    target.concealment = Default::default();
    let sight = Sight::new(app.world().resource::<Battle>(), data::codex().unwrap());
    // Along the observer's own lane: 4" and then 24" ahead of it.
    target.place.at = Point(observer.place.at.0, observer.place.at.1 + 4.0);
    let near = chance_to_see(&sight, &observer.view(), &target.view(), 0).expect("a line to a target 4 inches ahead");
    target.place.at = Point(observer.place.at.0, observer.place.at.1 + 24.0);
    let far = chance_to_see(&sight, &observer.view(), &target.view(), 0).unwrap_or(0.0);
    assert!(near > 0.0 && near <= 1.0, "{near}");
    assert!(far <= near, "{far} at 24 inches against {near} at 4");
    // Failed CM tests make it harder (FYOB: a failure takes a pip off the observation dice).
    target.place.at = Point(observer.place.at.0, observer.place.at.1 + 12.0);
    let calm = chance_to_see(&sight, &observer.view(), &target.view(), 0).unwrap_or(0.0);
    let shaken = chance_to_see(&sight, &observer.view(), &target.view(), 3).unwrap_or(0.0);
    assert!(shaken <= calm, "{shaken} shaken against {calm}");
}
