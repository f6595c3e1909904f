//! Start of a bound: the Senior Officers' session every 4 bounds (FYOB "Start
//! of session activity for Senior Officer": Strategic Milestone Tests,
//! committing reserves) and elements moving on from the box.

use super::change::{Change, FlowChange, SideChange};
use crate::prelude::*;
use warbound_rules::{
    artillery,
    command::{Activity, Directive, Moves, Objective, RESERVE_MIN_CMS, Reserve, SeniorOfficer},
    day::Light,
    event::{Book, EventKind, RuleEvent, RuleRef},
    geometry::distance,
    momentum::ElementType,
    strategic::{self, StrategicCondition},
};

use super::{
    Battlefield, FlowSchedule, FlowSet, airborne, at,
    command::{CompanyOrder, Refusal, refusal},
    landing, outcome,
    setup::Control,
    shared::edge_point,
    sorted,
    state::{Arrival, Flow, FooState, Status},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, start_bound.in_set(FlowSet::StartBound).run_if(at(|f| *f == Flow::StartBound)));
}

fn start_bound(mut t: Battlefield) {
    let bound = t.battle.clock.bound();
    let light = t.battle.clock.light();
    let ev = RuleEvent::new(EventKind::Bound, RuleRef::new(Book::FightYourOwnBattles, "The game flow"))
        .input("bound", bound, "one bound is one hour")
        .input("hour", t.battle.clock.hour(), "")
        .input("light", light, if light == Light::Night { "Heroes All, Night fighting applies" } else { "" })
        .outcome(serde_json::json!({ "session": t.battle.clock.senior_officer_session() }));
    t.log.push(bound, ev);
    // Reading (Heroes All, "Landing craft landing sequence"): the craft's
    // moves open the bound, so troops landing are ashore before a Senior
    // Officer's session counts his force.
    landing::waves(&mut t, bound);
    super::setting_fire::take_hold(&mut t);
    // Reading: the Senior Officer's sessions belong to the solo mechanism; in
    // the 2-player game "players are free to make whatever decisions they wish
    // about their elements or reserves".
    let solo = t.battle.start.mechanism == super::setup::Mechanism::Solo;
    // FYOB "Radios": each Company Officer nets his Company's radios "at the
    // start of the game".
    if solo && bound == 1 {
        for s in 0..t.sides.0.len() {
            for c in 0..t.sides.0[s].companies.len() {
                super::command_turn::net_in(&mut t, s, c);
            }
        }
    }
    if solo && bound > 1 && t.battle.clock.senior_officer_session() {
        for s in 0..t.sides.0.len() {
            if t.sides.0[s].control == Control::Auto {
                let before = t.sides.0[s].record.condition();
                let commit = auto_reserves(&mut t, s);
                session(&mut t, s, &commit, &[]);
                let condition = t.sides.0[s].record.condition();
                if before < StrategicCondition::Yellow && condition == StrategicCondition::Yellow {
                    revise_at_yellow(&mut t, s);
                }
                let els = t.elements.views();
                // Reading: troops still due from the box or afloat in later
                // waves are a force he has yet to commit, like reserves.
                let reserves = els
                    .iter()
                    .any(|f| f.identity.side == s && matches!(f.presence.status, Status::Reserve | Status::Waiting(_)));
                drop(els);
                if strategic::withdraws_at_red(condition, reserves) {
                    withdraw(&mut t, s);
                }
            }
        }
        if let Some(s) = next_player_session(&t, None) {
            t.flow.apply(FlowChange::To(Flow::Session { side: s }));
            return;
        }
    }
    finish(&mut t);
}

/// The Senior Officer orders a general withdrawal: the battle is lost.
pub(super) fn withdraw(t: &mut Battlefield, s: usize) {
    let bound = t.battle.clock.bound();
    let ev = RuleEvent::new(
        EventKind::StrategicMilestone,
        RuleRef::new(Book::FightYourOwnBattles, "Strategic Condition at Red"),
    )
    .actor(t.sides.0[s].name.clone())
    .input("condition", t.sides.0[s].record.condition(), "a fall to Red should trigger a general withdrawal")
    .outcome(serde_json::json!({ "general_withdrawal": true }));
    t.log.push(bound, ev);
    t.sides.apply(s, SideChange::GeneralWithdrawal);
}

/// The next Player side after `after` whose Senior Officer holds a session.
pub(super) fn next_player_session(t: &Battlefield, after: Option<usize>) -> Option<usize> {
    let from = after.map_or(0, |a| a + 1);
    (from..t.sides.0.len()).find(|&s| t.sides.0[s].control == Control::Player && !t.sides.0[s].withdrawn())
}

/// The rest of the start of the bound: arrivals, then the deal.
pub(super) fn finish(t: &mut Battlefield) {
    let bound = t.battle.clock.bound();
    super::air::returning(t);
    arrivals(t, bound);
    let next = if t.battle.result.is_some() { Flow::Over } else { Flow::Deal };
    t.flow.apply(FlowChange::To(next));
    outcome::settle(t);
}

/// The Auto Senior Officer commits his reserves when his force is at Yellow
/// or worse (FYOB "A fall to Yellow should trigger a revision of orders ...
/// Alternatively, he could commit his reserves"), and at any session the
/// elements back in the box that their Company Officers have rallied to an
/// acceptable CMS (FYOB "Strategic Conditions": "the element can be
/// re-committed to the table using the \"reserves\" mechanism").
fn auto_reserves(t: &mut Battlefield, s: usize) -> Vec<String> {
    let yellow = t.sides.0[s].record.condition() >= StrategicCondition::Yellow;
    let els = t.elements.views();
    els.iter()
        .filter(|f| {
            let held = f.presence.status != Status::Reserve || yellow;
            f.identity.side == s
                && held
                && f.force.element.cms >= RESERVE_MIN_CMS
                && f.presence.status.committable(f.force.element.cms)
        })
        .map(|f| f.id().to_owned())
        .collect()
}

/// The Auto Senior Officer's revision of orders on a fall to Yellow (FYOB
/// "Strategic Condition": "to avoid further losses and the danger of further
/// falls in the Strategic Condition").
///
/// Reading: the companies ordered into contact with the enemy are ordered to
/// hold the positions they have reached (order 1, "remain in and hold present
/// position"), each element of theirs with them; the others keep their
/// objectives. Reserves he still holds are committed at his next session
/// ("Alternatively, he could commit his reserves").
fn revise_at_yellow(t: &mut Battlefield, s: usize) {
    let side = t.sides.0[s].clone();
    let attacking = |o: &Objective| o.activity.conduct().moves == Moves::IntoContact;
    let els = t.elements.views();
    let revised: Vec<usize> = (0..side.companies.len())
        .filter(|&c| {
            side.companies[c].objective.as_ref().is_some_and(attacking)
                || els.iter().any(|f| {
                    f.identity.side == s
                        && f.identity.company == c
                        && f.presence.status.on_table()
                        && attacking(&f.order.objective)
                })
        })
        .collect();
    if revised.is_empty() {
        return;
    }
    let bound = t.battle.clock.bound();
    let names: Vec<&str> = revised.iter().map(|&c| side.companies[c].id.as_str()).collect();
    let ev = RuleEvent::new(EventKind::CommandDecision, RuleRef::new(Book::FightYourOwnBattles, "Strategic Condition"))
        .side(side.name.clone())
        .input("condition", StrategicCondition::Yellow, "a fall to Yellow should trigger a revision of orders")
        .outcome(serde_json::json!({ "hold": names }));
    t.log.push(bound, ev);
    drop(els);
    for c in revised {
        let location = side.companies[c].objective.as_ref().map(|o| o.location.clone()).unwrap_or_default();
        let hold = Objective { activity: Activity::Hold, location, detail: String::new() };
        super::command_turn::send_objective(t, s, c, hold, |o| {
            attacking(o).then(|| Objective { activity: Activity::Hold, ..o.clone() })
        });
    }
}

/// A Senior Officer's session (FYOB "Start of session activity for Senior
/// Officer"): the reserves named are committed on one Leadership Test, the
/// Strategic Milestone Tests are taken, new objectives go to the companies.
///
/// Reading: a company's new objective becomes the order of each of its
/// elements, over the radio link or once the CO's runner brings it, then
/// from the CO at once to the elements in touch with him and by their
/// runners to the others ([`super::command_turn::send_objective`]).
pub(super) fn session(t: &mut Battlefield, s: usize, commit: &[String], objectives: &[CompanyOrder]) {
    let bound = t.battle.clock.bound();
    let mut els = sorted(&mut t.elements);
    let side = t.sides.0[s].clone();
    if side.record.condition() == StrategicCondition::Withdrawn {
        return;
    }
    let cmt = outcome::cmt(els.iter().map(|m| m.view()), s);
    let reserves: Vec<Reserve> = commit
        .iter()
        .filter_map(|id| t.roster.find(&els, id).map(|f| Reserve { id: id.clone(), cms: f.force.element.cms }))
        .collect();
    let mut so = match SeniorOfficer::new(side.senior, side.record.clone()) {
        Ok(so) => so,
        Err(e) => {
            let what = format!("his Senior Officer cannot hold the session: {e}");
            t.failures.record(&mut t.log, bound, "session", &side.name, what);
            return;
        }
    };
    let rationed = t.battle.start.scenario.sides[s].rationed;
    match so.start_of_session(cmt, rationed, &reserves, &mut t.dice.0) {
        Ok((session, events)) => {
            // The session's tests are the Senior Officer's ("SO"): named by
            // his side. Each event is logged before the changes it makes:
            // the milestone tests, then the reserves' Leadership Test and the
            // elements it commits, then the tests re-taken.
            let named = |e: RuleEvent| e.side(side.name.clone());
            let (commits, tests): (Vec<RuleEvent>, Vec<RuleEvent>) =
                events.into_iter().partition(|e| e.rule.section == "Committing Reserves to the table");
            let mut tests = tests.into_iter();
            t.log.extend(bound, tests.next().map(named));
            let retests: Vec<RuleEvent> = tests.collect();
            if retests.is_empty() {
                t.sides.apply(s, SideChange::Record(so.record.clone()));
            }
            t.log.extend(bound, commits.into_iter().map(named));
            for id in &session.committed {
                if let Some(f) = t.roster.find_mut(&mut els, id) {
                    f.apply(Change::Waiting(bound));
                }
            }
            if !retests.is_empty() {
                t.log.extend(bound, retests.into_iter().map(named));
                t.sides.apply(s, SideChange::Record(so.record));
            }
            if session.directive == Directive::BattleLost {
                info!("{} withdraws: the battle is lost", side.name);
            }
        }
        Err(e) => {
            let what = format!("the Senior Officer's session cannot be resolved: {e}");
            t.failures.record(&mut t.log, bound, "session", &side.name, what);
        }
    }
    drop(els);
    for o in objectives {
        let Ok(objective) = o.order.objective() else { continue };
        let Some(c) = side.companies.iter().position(|c| c.id == o.company) else { continue };
        let each = objective.clone();
        super::command_turn::send_objective(t, s, c, objective, move |_| Some(each.clone()));
    }
    replace_foos(t, s);
}

/// *Heroes All*, "Direct Fire Support": "In the event that the FOO is a
/// casualty, the Battlegroup Commander (BC) when next activated, can appoint a
/// replacement who must be a CO of an infantry or armoured Company/Squadron.
/// He must net-in his radio as above before off-table firing can
/// re-commence." The Senior Officer stands for the BC at his session: the
/// first Company Officer (not a successor) with his figure on the table whose
/// company has infantry or armour takes the radio, off the net, and the fire
/// plan as it stood; the FOO's card is dealt for him from then on.
fn replace_foos(t: &mut Battlefield, s: usize) {
    let bound = t.battle.clock.bound();
    for k in 0..t.sides.0[s].foos.len() {
        let fo = t.sides.0[s].foos[k].clone();
        if fo.alive {
            continue;
        }
        let els = t.elements.views();
        let side = &t.sides.0[s];
        let pick = side.companies.iter().enumerate().find_map(|(c, company)| {
            let with = t.roster.find(&els, &company.attached_to).filter(|f| f.presence.status.on_table())?;
            let mine = || els.iter().filter(|f| f.identity.side == s && f.identity.company == c);
            let command = if mine().any(|f| f.force.build.element_type() == ElementType::Afv) {
                artillery::Command::ArmouredSquadron
            } else if mine().any(|f| f.force.build.element_type() == ElementType::Infantry) {
                artillery::Command::InfantryCompany
            } else {
                artillery::Command::Other
            };
            let observer = artillery::replacement_foo(company.co, command, side.nation.clone()).ok()?;
            company.co_alive.then(|| (company.id.clone(), with.id().to_owned(), observer))
        });
        drop(els);
        let Some((co, with, observer)) = pick else { continue };
        let event = RuleEvent::new(EventKind::CommandDecision, RuleRef::new(Book::HeroesAll, "Direct Fire Support"))
            .side(t.sides.0[s].name.clone())
            .target(co.clone())
            .input("lost", fo.id.clone(), "the FOO is a casualty")
            .outcome(serde_json::json!({ "replacement": co, "with": with, "netted": false }));
        t.log.push(bound, event);
        let now = FooState { id: fo.id, foo: observer, with, plan: fo.plan, alive: true };
        t.sides.apply(s, SideChange::Foo(k, now));
    }
}

/// Checks a Player Senior Officer's session.
/// Why `side`'s Senior Officer may not order a general withdrawal now: only
/// at Red (FYOB "Strategic Condition at Red").
pub(super) fn withdrawal_refused(side: &super::state::SideState) -> Option<Refusal> {
    (side.record.condition() < StrategicCondition::Red).then(|| {
        refusal(Book::FightYourOwnBattles, "Strategic Condition at Red", "a general withdrawal is ordered at Red")
    })
}

pub(super) fn check(
    t: &mut Battlefield,
    s: usize,
    commit: &[String],
    objectives: &[CompanyOrder],
    withdraw: bool,
) -> Result<(), Refusal> {
    let fyob = Book::FightYourOwnBattles;
    if withdraw && let Some(r) = withdrawal_refused(&t.sides.0[s]) {
        return Err(r);
    }
    let els = t.elements.views();
    for id in commit {
        let Some(f) = t.roster.find(&els, id).filter(|f| f.identity.side == s) else {
            return Err(refusal(
                fyob,
                "Committing Reserves to the table",
                format!("{id} is not one of this side's elements"),
            ));
        };
        if !matches!(f.presence.status, Status::Reserve | Status::Retired) {
            return Err(refusal(
                fyob,
                "Committing Reserves to the table",
                format!("{id} is not held in reserve nor back in the box"),
            ));
        }
        if !f.presence.status.committable(f.force.element.cms) || f.force.element.cms < RESERVE_MIN_CMS {
            return Err(refusal(fyob, "Rallying up CMS", format!("{id} is not rallied to an acceptable CMS")));
        }
    }
    for o in objectives {
        if !t.sides.0[s].companies.iter().any(|c| c.id == o.company) {
            return Err(refusal(
                fyob,
                "Orders & Objectives",
                format!("{} is not one of this side's companies", o.company),
            ));
        }
        if let Err(e) = o.order.objective() {
            return Err(refusal(fyob, "Orders & Objectives", e.to_string()));
        }
        if t.battle.start.scenario.place(&o.order.location).is_none() {
            return Err(refusal(fyob, "Orders & Objectives", format!("no place {:?} on this table", o.order.location)));
        }
    }
    Ok(())
}

/// Elements due from the box move on at their side's edge, towards their
/// objective (*Heroes All*, "The \"box\"": a move measured from its own edge).
fn arrivals(t: &mut Battlefield, bound: u32) {
    let table = t.battle.start.scenario.table;
    let mut els = sorted(&mut t.elements);
    let mut count = vec![0u32; t.sides.0.len()];
    // Men carried from the box come on aboard their transport.
    let riders: Vec<Option<usize>> = els.iter().map(|f| super::transport::carried_on(&els, f)).collect();
    for (f, rides) in els.iter_mut().zip(&riders) {
        let Status::Waiting(b) = f.presence.status else { continue };
        if b > bound || rides.is_some() {
            continue;
        }
        if matches!(f.presence.arrival, Arrival::Craft { .. }) {
            continue;
        }
        if f.presence.arrival != Arrival::Edge {
            let year = t.battle.start.scenario.sides[f.identity.side].year;
            airborne::land((&mut t.log, &mut t.failures), &mut t.dice.0, bound, &mut t.sides, f, (year, table));
            continue;
        }
        let side = &t.sides.0[f.identity.side];
        let own = side.companies.get(f.identity.company).is_some_and(|c| c.edge.is_some());
        let edge = side.home(f.identity.company);
        let aim = t
            .battle
            .start
            .scenario
            .place(&f.order.objective.location)
            .unwrap_or((table.width / 2.0, table.depth / 2.0));
        let k = count[f.identity.side];
        count[f.identity.side] += 1;
        // Side by side, 4" apart, either side of the line to the objective.
        let offset = (k as f32 * 4.0) * if k.is_multiple_of(2) { 1.0 } else { -1.0 };
        let along = match edge {
            warbound_rules::scenario::Edge::Near | warbound_rules::scenario::Edge::Far => aim.0 + offset,
            _ => aim.1 + offset,
        };
        let at = edge_point(table, edge, along);
        let ev = RuleEvent::new(EventKind::Arrival, RuleRef::new(Book::HeroesAll, "The \"box\""))
            .actor(f.id())
            .input("edge", edge, if own { "its company's own box (FYOW 15.2)" } else { "its side's table edge" })
            .input("at", (at.0, at.1), "inches from the near-left corner")
            .outcome(serde_json::json!({ "distance_to_objective": distance(at, warbound_rules::terrain::Point(aim.0, aim.1)) }));
        t.log.push(bound, ev);
        f.apply(Change::Arrive { at });
    }
    for (i, k) in riders.into_iter().enumerate().filter_map(|(i, k)| Some((i, k?))) {
        let due = matches!(els[i].presence.status, Status::Waiting(b) if b <= bound);
        if due && els[k].presence.status.on_table() {
            let at = els[k].place.at;
            els[i].apply(Change::Arrive { at });
            els[i].apply(Change::Board(Some(k as u16)));
        }
    }
}
