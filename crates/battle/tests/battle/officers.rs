//! The Auto side's officers play their part of the book: the Company
//! Officer's Overwatch orders and rallies in the box, the Senior Officer's
//! re-commitment of rallied elements and his revision of orders at Yellow.

use super::*;
use warbound_battle::state::{Force, Presence, Status};

#[test]
fn an_element_rallied_back_in_the_box_is_recommitted_and_moves_on() {
    // FYOB "Strategic Conditions": "If the CMS of the element is rallied back
    // up to an acceptable level the element can be re-committed to the table
    // using the \"reserves\" mechanism described below."
    let mut scenario = duel(
        r#"(activity: ContactEnemy, location: "the road")"#,
        r#"(activity: Hold, location: "the farm")"#,
        (36.0, 40.0),
    );
    let mut second = scenario.sides[0].companies[0].elements[0].clone();
    second.id = "a2".into();
    second.start = warbound_rules::scenario::Start::At(20.0, 4.0);
    scenario.sides[0].companies[0].elements.push(second);
    scenario.time_limit = 8;
    let mut recommitted = 0;
    for seed in 0..12 {
        let mut retired = false;
        let mut log_at_end = Vec::new();
        step_through(BattleStart::auto("duel", scenario.clone(), seed), |app| {
            let bound = app.world().resource::<Battle>().clock.bound();
            if !retired && bound == 2 {
                let mut q = app.world_mut().query::<(&mut Force, &mut Presence)>();
                for (mut force, mut presence) in q.iter_mut(app.world_mut()) {
                    if force.id() == "a2" && presence.status == Status::OnTable {
                        presence.status = Status::Retired;
                        force.element.on_table = false;
                        force.element.cms = warbound_rules::command::RESERVE_MIN_CMS;
                        retired = true;
                    }
                }
            }
            log_at_end = app.world().resource::<BattleLog>().entries.clone();
        });
        if !retired {
            continue;
        }
        let commit = log_at_end.iter().find(|e| {
            e.event.kind == EventKind::LeadershipTest && e.event.rule.section == "Committing Reserves to the table"
        });
        let Some(commit) = commit else { continue };
        let arrived =
            log_at_end.iter().find(|e| e.event.kind == EventKind::Arrival && e.event.actor.as_deref() == Some("a2"));
        if commit.event.outcome["passed"] == serde_json::json!(true) {
            let arrived = arrived.unwrap_or_else(|| panic!("seed {seed}: committed, never moved on"));
            assert_eq!(arrived.bound, commit.bound, "seed {seed}: it moves on in the bound of the session");
            let at = input(arrived, "at").and_then(|v| v.as_array()).expect("where it moved on");
            assert!(at[1].as_f64().unwrap() <= 1.0, "seed {seed}: at its side's (near) edge: {at:?}");
            recommitted += 1;
        } else {
            assert!(arrived.is_none(), "seed {seed}: moved on though the Leadership Test failed");
        }
    }
    assert!(recommitted > 0, "no rallied element was re-committed");
}

#[test]
fn a_company_officer_puts_his_holding_elements_on_overwatch_until_they_know_the_enemy() {
    // Heroes All, "Overwatch": "a Company Officer can pass a Leadership Test
    // and during his Command & Control turn, place an element in his command
    // either onto or out of an Overwatch position where it will gain
    // advantages during the Observation phase"; "Elements on Overwatch cannot
    // Fire".
    let (mut onto, mut off) = (0, 0);
    for seed in 0..6 {
        for (name, scenario) in shipped() {
            let (app, _) = autoplay(&name, scenario, seed);
            let log = &app.world().resource::<BattleLog>().entries;
            let mut watching = std::collections::BTreeSet::new();
            for e in log {
                let passed = e.event.outcome["passed"] == serde_json::json!(true);
                if e.event.rule.section == "Overwatch" && e.event.kind == EventKind::LeadershipTest && passed {
                    let target = e.event.target.clone().expect("the element ordered");
                    if input(e, "order") == Some(&serde_json::json!("Overwatch")) {
                        watching.insert(target);
                        onto += 1;
                    } else {
                        watching.remove(&target);
                        off += 1;
                    }
                }
                // A CO's order off Overwatch without the test can only go to an
                // element whose Overwatch order never reached it (it waited for
                // a runner who did not get through), so it was not watching.
                if e.event.kind == EventKind::CommandDecision
                    && e.event.rule.section == "Orders & Objectives"
                    && input(e, "order") != Some(&serde_json::json!("Overwatch"))
                    && let Some(target) = &e.event.target
                {
                    watching.remove(target);
                }
                if e.event.kind == EventKind::Fire
                    && let Some(firer) = &e.event.actor
                {
                    assert!(!watching.contains(firer), "{name} seed {seed}: {firer} fired on Overwatch");
                }
            }
        }
    }
    assert!(onto > 0 && off > 0, "onto Overwatch {onto}, out of it {off}");
}

#[test]
fn at_a_fall_to_yellow_the_senior_officer_orders_his_attacking_companies_to_hold() {
    // FYOB "Strategic Condition": "A fall to Yellow should trigger a revision
    // of orders from the SO to his CO's to avoid further losses".
    let mut revised = 0;
    for seed in 0..20 {
        for (name, scenario) in shipped() {
            let (app, _) = autoplay(&name, scenario, seed);
            let log = &app.world().resource::<BattleLog>().entries;
            for (k, e) in log.iter().enumerate() {
                if e.event.kind != EventKind::CommandDecision || e.event.rule.section != "Strategic Condition" {
                    continue;
                }
                revised += 1;
                // The session's milestone tests just before took the side to Yellow.
                let fell = log[..k].iter().rev().take_while(|l| l.bound == e.bound).any(|l| {
                    l.event.side == e.event.side && l.event.outcome["condition"] == serde_json::json!("Yellow")
                });
                assert!(fell, "{name} seed {seed}: revised without a fall to Yellow: {e:?}");
                let companies = e.event.outcome["hold"].as_array().expect("the companies told to hold");
                assert!(!companies.is_empty(), "{name} seed {seed}");
            }
        }
    }
    assert!(revised > 0, "no Senior Officer revised his orders at Yellow");
}
