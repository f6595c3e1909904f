//! A Company Officer's command turn on his own OPC (FYOB "The 'Command' turn
//! of a Company Officer"): his ORT; lost NCOs replaced; then his duties —
//! orders, rallying — chosen by the Auto side or by the Player (the flow
//! waits at [`Flow::CoTurn`] for a [`Command::Command`]); last, what his
//! NCOs have seen is shared, and a squadron held for calling is called in.
//!
//! Radios and runners (FYOB "Radios", "Runners", "Radio Links between Officer
//! levels"; *Heroes All* "Passing on information"): the Company Officer nets
//! his Company's radios with Radio Tests at the start of the game and on his
//! turns while the net is down; an element whose set is on the net, or that
//! has the CO with it, is in touch with him; any other element reaches him
//! only by a runner, an Act of its own; the CO reaches the Senior Officer
//! over the net or by a runner of his own.

use std::collections::BTreeSet;

use super::change::{Change, FlowChange, SideChange};
use warbound_rules::{
    aircraft,
    command::{Activity, Objective},
    event::{Book, EventKind, RuleEvent, RuleRef},
    momentum, officer,
    opc::{self, OrtResult},
    order_dice::Act,
    scenario::Order,
    strategic,
    terrain::Point,
};

use super::{
    Battlefield,
    command::{ElementOrder, Refusal, refusal},
    setup::Control,
    shared::from_edge,
    sorted,
    state::{CompanyState, ElementView, Elements, Flow, Status},
};

/// Whether element `f` of `company` talks to its Company Officer without a
/// runner: the CO (or his successor) is with it, or it carries a radio on the
/// Company's net (FYOB "Runners": "If an element has no radio or if it's
/// radio is considered DIS then contact with the Company Officer takes place
/// via a runner").
///
/// Reading: a set whose Company net is down (the CO's Radio Tests failed, or
/// DIS) is no working radio either: the net is what the CO's Radio Test nets
/// ("To net all of the radios in a Company"). Test
/// `an_element_without_a_radio_hears_and_is_heard_only_through_its_runner`.
pub(super) fn in_touch(company: &CompanyState, f: &ElementView) -> bool {
    company.attached_to == f.id() || (f.force.radio && f.force.off_net.is_none() && company.netted())
}

/// How element `f` of `company` reaches its CO on its turn: `None` in touch;
/// `Some(news)` by runner, `news` when it has seen what the CO has not heard,
/// the CO knows what it does not, or an order waits for it.
pub(super) fn runner_due(company: &CompanyState, f: &ElementView) -> Option<bool> {
    (!in_touch(company, f)).then(|| {
        f.order.awaiting_runner.is_some()
            || !f.intel.known.is_subset(&company.known)
            || !company.known.is_subset(&f.intel.known)
    })
}

/// The Company Officer of company `c` of side `s` nets in his Company's
/// radios (FYOB "Radios": "the Company Officer must pass a Radio Test (i) at
/// the start of the game and (ii) where conditions listed below dictate. 2
/// attempts are permitted"; "2 Radio tests are allowed per bound"; "If a
/// Radio Test is failed 3 times then the radio is considered DIS for the
/// remainder of the game"). Up to 2 tests until one passes.
///
/// Reading: the start of the game is before the first bound's cards; a net
/// still down is tried again on his command turns from the second bound
/// on (his duties "do not count as an Act", so the per-bound limit, not his
/// Acts, bounds the tries). Test `a_failed_radio_test_cuts_the_company_off_until_it_is_netted`.
pub(super) fn net_in(t: &mut Battlefield, s: usize, c: usize) {
    let bound = t.battle.clock.bound();
    let company = &t.sides.0[s].companies[c];
    if company.radio.netted || company.radio.dis {
        return;
    }
    let (id, nation) = (company.id.clone(), t.sides.0[s].nation.clone());
    let mut net = company.radio.clone();
    net.new_bound();
    while !net.netted {
        let Ok((_, event)) = strategic::radio_test(&nation, &mut net, &mut t.dice.0, &id) else { break };
        t.log.push(bound, event.input("net", "company", "the Company's radios and the link to the Senior Officer"));
        t.sides.apply(s, SideChange::Radio(c, net.clone()));
    }
}

/// The acting element's Act to net its own set in again (FYOB "Radios": "the
/// radio set must be netted in again as above", a Radio Test; "If a Radio
/// Test is failed 3 times then the radio is considered DIS for the remainder
/// of the game"). Reading: the test is the element's, thrown against its
/// nation's score as the Company Officer's is; 2 tests a bound are the 2
/// Acts of its one turn (test
/// `a_set_knocked_off_the_net_is_netted_in_again_by_an_act`).
pub(super) fn renet(t: &mut Battlefield, id: &str) {
    let bound = t.battle.clock.bound();
    let mut els = sorted(&mut t.elements);
    let Some(i) = t.roster.index(id) else {
        t.failures.record(&mut t.log, bound, "renet", id, format!("{id} is no element of the battle"));
        return;
    };
    let Some(mut net) = els[i].force.off_net.clone() else {
        t.failures.record(&mut t.log, bound, "renet", id, format!("{id}'s radio is on the net"));
        return;
    };
    // A second Radio Test in the same turn counts against the bound's 2; in
    // the 2-player game each Command Die given for it is a bound's test.
    if !matches!(&*t.flow, Flow::Acting(turn) if turn.acts.contains(&Act::ReNetRadio)) {
        net.new_bound();
    }
    let nation = t.sides.0[els[i].identity.side].nation.clone();
    match strategic::radio_test(&nation, &mut net, &mut t.dice.0, id) {
        Ok((passed, event)) => {
            t.log.push(bound, event.input("net", "its own set", "knocked off the Company's net by a hit"));
            els[i].apply(Change::OffNet((!passed).then_some(net)));
        }
        Err(e) => t.failures.record(&mut t.log, bound, "renet", id, format!("no Radio Test can be taken: {e}")),
    }
}

/// The acting element's runner (FYOB "Runners": "each time that the NCO of
/// the element is due to receive or send information he must do so by
/// sending a \"runner\". This is represented by him passing a Leadership Test
/// as one of the element's Acts"): passed, what it has seen reaches its
/// Company Officer ("An element that has spotted an enemy element can
/// \"inform\" ... their CO using an Act"), and it hears what the CO knows and
/// any order waiting for it. An element without an NCO sends one under a
/// Weak leader, as it acts (FYOB "NCO is a casualty").
pub(super) fn runner(t: &mut Battlefield, id: &str) {
    let bound = t.battle.clock.bound();
    let mut els = sorted(&mut t.elements);
    let Some(i) = t.roster.index(id) else {
        t.failures.record(&mut t.log, bound, "runner", id, format!("{id} is no element of the battle"));
        return;
    };
    let (s, c) = (els[i].identity.side, els[i].identity.company);
    let Some(company) = t.sides.0[s].companies.get(c).cloned() else {
        t.failures.record(&mut t.log, bound, "runner", id, format!("{id} has no Company Officer"));
        return;
    };
    let f = &els[i];
    let weak = || officer::Officer::new(officer::Rank::Nco, officer::Grade::Weak).expect("an NCO grade");
    let nco = f.force.element.nco.unwrap_or_else(weak);
    let sent: Vec<String> = f.intel.known.difference(&company.known).cloned().collect();
    let brought: Vec<String> = company.known.difference(&f.intel.known).cloned().collect();
    let order = f.order.awaiting_runner.clone();
    let (test, mut event) = officer::leadership_test(nco, &mut t.dice.0, id);
    event.rule = RuleRef::new(Book::FightYourOwnBattles, "Runners");
    let event = event
        .target(company.id.clone())
        .input("act", Act::SendRunner, "a runner to the Company Officer: a Leadership Test as an Act")
        .input("sends", &sent, "enemies it has seen that the CO has not heard of")
        .input("brings", &brought, "enemies the CO knows of that it does not")
        .input("order", &order, "an order waiting for its runner");
    t.log.push(bound, event);
    if !test.passed {
        return;
    }
    if !sent.is_empty() {
        t.sides.apply(s, SideChange::CompanyKnows(c, sent));
    }
    if !brought.is_empty() {
        els[i].apply(Change::Knows(brought));
    }
    if let Some(o) = order {
        els[i].apply(Change::Objective(o));
        els[i].apply(Change::AwaitsRunner(None));
    }
}

/// The CO of company `c` gives `objective` to his element `id`: at once in
/// touch, otherwise it waits for the element's runner.
fn order_element(t: &mut Battlefield, s: usize, c: usize, id: &str, objective: Objective) {
    let company = t.sides.0[s].companies[c].clone();
    let mut els = t.elements.one(&t.roster, id);
    let Some(f) = els.as_mut() else { return };
    if in_touch(&company, &f.view()) {
        f.apply(Change::Objective(objective));
        if f.order.awaiting_runner.is_some() {
            f.apply(Change::AwaitsRunner(None));
        }
    } else {
        f.apply(Change::AwaitsRunner(Some(objective)));
    }
}

/// The Senior Officer's objective reaches company `c` (FYOB "Command and
/// Control session": he issues orders to his Company Officers "provided that
/// a radio link has been established"): its CO takes it and passes it on to
/// each element that `to` picks, as `each` makes it for that element — at
/// once where he is in touch with it, by its runner otherwise.
fn objective_reaches(
    t: &mut Battlefield,
    s: usize,
    c: usize,
    objective: Objective,
    each: impl Fn(&Objective) -> Option<Objective>,
) {
    t.sides.apply(s, SideChange::CompanyObjective(c, objective));
    if t.sides.0[s].companies[c].from_senior_officer.is_some() {
        t.sides.apply(s, SideChange::FromSeniorOfficer(c, None));
    }
    let els = t.elements.views();
    let orders: Vec<(String, Objective)> = els
        .iter()
        .filter(|f| f.identity.side == s && f.identity.company == c)
        .filter_map(|f| each(&f.order.objective).map(|o| (f.id().to_owned(), o)))
        .collect();
    drop(els);
    for (id, o) in orders {
        order_element(t, s, c, &id, o);
    }
}

/// The Senior Officer sends company `c` a new objective: over the radio link
/// it reaches the CO at once; without it, it waits for the CO's runner (FYOB
/// "Radio Links between Officer levels": "If that connection fails or is
/// lost, runners must be sent"). `each` makes each element's order from its
/// present one (`None`: it keeps its order).
pub(super) fn send_objective(
    t: &mut Battlefield,
    s: usize,
    c: usize,
    objective: Objective,
    each: impl Fn(&Objective) -> Option<Objective>,
) {
    if t.sides.0[s].companies[c].netted() {
        objective_reaches(t, s, c, objective, each);
        return;
    }
    let bound = t.battle.clock.bound();
    let company = t.sides.0[s].companies[c].id.clone();
    let ev = RuleEvent::new(
        EventKind::CommandDecision,
        RuleRef::new(Book::FightYourOwnBattles, "Radio Links between Officer levels"),
    )
    .actor(company)
    .input("radio_link", false, "no radio link: the objective waits for the Company Officer's runner")
    .outcome(serde_json::json!({ "delivered": false, "objective": objective }));
    t.log.push(bound, ev);
    t.sides.apply(s, SideChange::FromSeniorOfficer(c, Some(objective)));
}

/// Starts the command turn of company `c` of side `s`: the ORT, lost NCOs
/// replaced. Returns whether the CO goes on to his duties.
///
/// Readings: a lost NCO is replaced first (FYOB "NCO is a casualty": "On the
/// next bound that the element's Company Officer is activated").
pub(super) fn begin(t: &mut Battlefield, s: usize, c: usize) -> bool {
    let bound = t.battle.clock.bound();
    let company = t.sides.0[s].companies[c].clone();
    let (ort, event) = opc::officer_reaction_test(company.co, &mut t.dice.0, &company.id);
    t.log.push(bound, event);
    if ort == OrtResult::NoAction {
        return false;
    }
    replace_ncos(t, s, c);
    if bound > 1 {
        net_in(t, s, c);
    }
    true
}

/// Lost NCOs of company `c` replaced (FYOB "NCO is a casualty").
fn replace_ncos(t: &mut Battlefield, s: usize, c: usize) {
    let bound = t.battle.clock.bound();
    let mut els = sorted(&mut t.elements);
    for f in els.iter_mut().filter(|f| f.identity.side == s && f.identity.company == c && f.presence.status.in_play()) {
        // A transport has no NCO of its own to replace.
        if f.force.element.nco.is_none() && f.force.transport().is_none() {
            let (nco, e) = officer::replacement_nco(f.force.element.makeup(), &mut t.dice.0, f.id());
            t.log.push(bound, e);
            f.apply(Change::Nco(nco));
        }
    }
}

/// FYOB "Company Officer as a casualty": "If a CO is lost, an Officer from
/// his command must be nominated to succeed him (usually, for obvious
/// reasons, the highest ranked)". Nominated as soon as one of his elements
/// is activated after the loss, and again when that successor is lost or
/// leaves the table: the highest rated NCO of the company's elements on the
/// table ([`officer::successor`]), who commands as its officer at his own
/// rating ([`warbound_rules::command::Company::succeed`]).
pub(super) fn succession(t: &mut Battlefield, s: usize, c: usize) {
    let company = t.sides.0[s].companies[c].clone();
    if company.co_alive {
        return;
    }
    let els = t.elements.views();
    let standing = |id: &str| {
        t.roster.find(&els, id).is_some_and(|f| f.presence.status.in_play() && f.force.element.nco.is_some())
    };
    if company.successor.as_deref().is_some_and(standing) {
        return;
    }
    let candidates: Vec<(&str, officer::Officer)> = els
        .iter()
        .filter(|f| f.identity.side == s && f.identity.company == c && f.presence.status.in_play())
        .filter_map(|f| f.force.element.nco.map(|n| (f.id(), n)))
        .collect();
    let Some(id) = officer::successor(&candidates).map(str::to_owned) else { return };
    let Some(nco) = candidates.iter().find(|(e, _)| *e == id).map(|(_, n)| *n) else { return };
    let Ok(co) = officer::Officer::new(officer::Rank::CompanyOfficer, nco.grade()) else { return };
    let event = RuleEvent::new(
        EventKind::CommandDecision,
        RuleRef::new(Book::FightYourOwnBattles, "Company Officer as a casualty"),
    )
    .actor(company.id)
    .target(id.clone())
    .input(
        "candidates",
        candidates.iter().map(|(e, n)| (*e, n.grade())).collect::<Vec<_>>(),
        "the NCOs of his command on the table",
    )
    .outcome(serde_json::json!({ "successor": id, "grade": nco.grade() }));
    drop(els);
    let bound = t.battle.clock.bound();
    t.log.push(bound, event);
    t.sides.apply(s, SideChange::Successor(c, Some((id, co))));
}

/// A successor's Officer duties in his own element's turn, his ORT passed
/// (FYOB "Company Officer as a casualty": "using his own OPC (he does not
/// get another card to do this) but will need to pass his ORT to take his
/// own combat turn and carry out his Officer duties. These do not count as
/// an Act"): lost NCOs replaced, then rallies, orders, sharing and calling
/// in aircraft as a CO's, the Auto's at once, the Player's asked for before
/// the flow goes on to `then`.
pub(super) fn successor_duties(t: &mut Battlefield, s: usize, c: usize) {
    replace_ncos(t, s, c);
    if t.battle.clock.bound() > 1 {
        net_in(t, s, c);
    }
    if t.sides.0[s].control == Control::Auto {
        auto(t, s, c);
    } else {
        let then = Box::new((*t.flow).clone());
        t.flow.apply(FlowChange::To(Flow::CoTurn { side: s, company: c, then: Some(then) }));
    }
}

/// The Auto CO's duties: (i) orders, (ii) rallies, (iii) sharing.
///
/// Readings: he keeps the orders the Senior Officer gave, save Overwatch
/// (*Heroes All*, "Overwatch": "a Company Officer can pass a Leadership Test
/// and ... place an element in his command either onto or out of an
/// Overwatch position where it will gain advantages during the Observation
/// phase"): while his company holds its ground with two elements or more and
/// knows no enemy, he posts one lookout on Overwatch, its element nearest the
/// enemy's table edge;
/// once it knows one, the lookout comes off it, since "Elements on Overwatch
/// cannot Fire". He rallies the elements of his company lowest CMS first
/// ("elements in the order nominated"), those on the table before those back
/// in the box.
pub(super) fn auto(t: &mut Battlefield, s: usize, c: usize) {
    let orders = lookout(t, s, c);
    let els = t.elements.views();
    let mut nominated: Vec<(String, bool, u8)> = els
        .iter()
        .filter(|f| f.identity.side == s && f.identity.company == c)
        .filter(|f| matches!(f.presence.status, Status::OnTable | Status::Aboard(_) | Status::Retired))
        .filter(|f| f.force.element.cms < momentum::MAX_CMS)
        .map(|f| (f.id().to_owned(), f.presence.status == Status::Retired, f.force.element.cms))
        .collect();
    drop(els);
    nominated.sort_by_key(|(_, retired, cms)| (*retired, *cms));
    let ids: Vec<String> = nominated.into_iter().map(|(id, ..)| id).collect();
    apply(t, s, c, &ids, &orders);
}

/// The Auto CO's Overwatch order for his lookout, if any is due: onto
/// Overwatch while a holding company knows no enemy, off it once it does.
/// Elements the scenario orders onto Overwatch itself (guards) stay there.
fn lookout(t: &mut Battlefield, s: usize, c: usize) -> Vec<ElementOrder> {
    let holds = t.sides.0[s].companies[c].objective.as_ref().is_some_and(|o| o.activity == Activity::Hold);
    let Some(enemy) = (0..t.sides.0.len()).find(|&o| o != s) else { return Vec::new() };
    let edge = t.sides.0[enemy].edge;
    let scenario = &t.battle.start.scenario;
    let own_order = |id: &str| {
        scenario.sides[s]
            .companies
            .get(c)
            .and_then(|k| k.elements.iter().find(|e| e.id == id))
            .and_then(|e| e.order.as_ref())
            .is_some()
    };
    let els = t.elements.views();
    let mine: Vec<(&str, Activity, &str, Point)> = els
        .iter()
        .filter(|f| f.identity.side == s && f.identity.company == c && f.presence.status.in_play())
        .filter(|f| !own_order(f.id()))
        .map(|f| {
            // An order on its way by runner is the order he gave.
            let o = f.order.awaiting_runner.as_ref().unwrap_or(&f.order.objective);
            (f.id(), o.activity, o.location.as_str(), f.place.at)
        })
        .collect();
    let knows = els.iter().any(|f| f.identity.side == s && f.identity.company == c && !f.intel.known.is_empty());
    let order = |(id, _, location, _): &(&str, Activity, &str, Point), activity: Activity| ElementOrder {
        element: (*id).to_owned(),
        order: Order { activity, location: (*location).to_owned(), detail: String::new() },
    };
    let watching = mine.iter().find(|f| f.1 == Activity::Overwatch);
    match (holds, knows, watching) {
        // A lone element is the whole company: it stays ready to fire.
        (true, false, None) if mine.len() > 1 => mine
            .iter()
            .filter(|f| f.1 == Activity::Hold)
            .min_by(|a, b| from_edge(scenario.table, edge, a.3).total_cmp(&from_edge(scenario.table, edge, b.3)))
            .map(|f| vec![order(f, Activity::Overwatch)])
            .unwrap_or_default(),
        (true, true, Some(f)) => vec![order(f, Activity::Hold)],
        _ => Vec::new(),
    }
}

/// (ii) "rally their Continuous Momentum Score": the elements in the order nominated.
fn rally(t: &mut Battlefield, s: usize, c: usize, ids: &[String]) {
    if ids.is_empty() {
        return;
    }
    let bound = t.battle.clock.bound();
    let co = t.sides.0[s].companies[c].co;
    let company = t.sides.0[s].companies[c].id.clone();
    let mut els = sorted(&mut t.elements);
    let list: Vec<(&str, u8)> =
        ids.iter().filter_map(|id| t.roster.find(&els, id).map(|f| (id.as_str(), f.force.element.cms))).collect();
    let rationed = t.battle.start.scenario.sides[s].rationed;
    if let Ok((rallied, event)) = momentum::rally(co, &list, rationed, &mut t.dice.0, &company) {
        t.log.push(bound, event);
        for r in rallied {
            if let Some(f) = t.roster.find_mut(&mut els, &r.id) {
                f.apply(Change::Cms(r.cms_after));
            }
        }
    }
}

/// The end of his turn: sharing what is known, calling in aircraft.
///
/// Readings: he gathers what the elements in touch with him have seen (the
/// others' news came by their runners), and shares with the Senior Officer,
/// whose picture is the battalion's (FYOB "Command and Control session",
/// [`warbound_rules::command::CommandTurn::share`]): over the radio link, or,
/// with the net down, by a runner of his own, a Leadership Test, sent when
/// there is news either way or an objective waits for him (FYOB "Radio Links
/// between Officer levels": "runners must be sent"); then he passes all he
/// knows to the elements in touch with him (*Heroes All* "Passing on
/// information": "The CO can then share this information with his other
/// NCOs and his Senior Officer during his Command & Control turn"). A
/// squadron held for calling is called in (*Heroes All*, "'Calling in'
/// aircraft": a Leadership Test, then a D4 of bounds) as soon as his company
/// knows of an enemy.
pub(super) fn finish(t: &mut Battlefield, s: usize, c: usize) {
    let bound = t.battle.clock.bound();
    let company = t.sides.0[s].companies[c].clone();
    let mut els = sorted(&mut t.elements);
    let knows = els.iter().any(|f| f.identity.side == s && f.identity.company == c && !f.intel.known.is_empty());
    if knows && let Some(k) = t.sides.0[s].squadrons.iter().position(|q| q.arrives.is_none()) {
        let what = aircraft::CallIn::GroundAttack;
        if let Ok((arrives, events)) = aircraft::call_in(what, Some(company.co), bound, &mut t.dice.0, &company.id) {
            t.log.extend(bound, events);
            let first = t.sides.0[s].squadrons[k].window.first;
            t.sides.apply(s, SideChange::SquadronArrives(k, arrives.map(|b| b.max(first))));
        }
    }
    // Sharing over the radio or face to face logs no event of its own.
    t.log.step_done();
    let mine = |f: &ElementView| f.identity.side == s && f.identity.company == c && f.presence.status.in_play();
    let heard: BTreeSet<String> = els
        .iter()
        .filter(|f| mine(&f.view()) && in_touch(&company, &f.view()))
        .flat_map(|f| f.intel.known.iter().cloned())
        .collect();
    let new: Vec<String> = heard.difference(&company.known).cloned().collect();
    if !new.is_empty() {
        t.sides.apply(s, SideChange::CompanyKnows(c, new));
    }
    let (side, company) = (&t.sides.0[s], &t.sides.0[s].companies[c]);
    let up: Vec<String> = company.known.difference(&side.known).cloned().collect();
    let down: Vec<String> = side.known.difference(&company.known).cloned().collect();
    let objective = company.from_senior_officer.clone();
    let news = !up.is_empty() || !down.is_empty() || objective.is_some();
    let through = news
        && (company.netted() || {
            let (test, mut e) = officer::leadership_test(company.co, &mut t.dice.0, &company.id);
            e.rule = RuleRef::new(Book::FightYourOwnBattles, "Radio Links between Officer levels");
            let e = e
                .input("radio_link", false, "no radio link to the Senior Officer: a runner")
                .input("sends", &up, "enemies his NCOs have seen")
                .input("brings", &down, "enemies the Senior Officer knows of")
                .input("objective", &objective, "the Senior Officer's objective waiting for him");
            t.log.push(bound, e);
            test.passed
        });
    if through {
        if !up.is_empty() {
            t.sides.apply(s, SideChange::Knows(up));
        }
        if !down.is_empty() {
            t.sides.apply(s, SideChange::CompanyKnows(c, down));
        }
    }
    let company = t.sides.0[s].companies[c].clone();
    for f in els.iter_mut().filter(|f| mine(&f.view()) && in_touch(&company, &f.view())) {
        let missing: Vec<String> = company.known.difference(&f.intel.known).cloned().collect();
        if !missing.is_empty() {
            f.apply(Change::Knows(missing));
        }
    }
    drop(els);
    if through && let Some(o) = objective {
        objective_reaches(t, s, c, o.clone(), move |_| Some(o.clone()));
    }
}

/// Runs the card of company `c`: the Auto CO's whole turn, or the start of
/// the Player's, who is then asked for his orders and rallies.
pub(super) fn run(t: &mut Battlefield, s: usize, c: usize) -> bool {
    if !begin(t, s, c) {
        return false;
    }
    if t.sides.0[s].control == Control::Auto {
        auto(t, s, c);
        false
    } else {
        t.flow.apply(FlowChange::To(Flow::CoTurn { side: s, company: c, then: None }));
        true
    }
}

/// Checks a Player CO's orders and rallies.
pub(super) fn check(
    els: &Elements,
    scenario: &warbound_rules::scenario::Scenario,
    s: usize,
    c: usize,
    rally: &[String],
    orders: &[ElementOrder],
) -> Result<(), Refusal> {
    let fyob = Book::FightYourOwnBattles;
    let mine = |id: &str| els.get(id).filter(|f| f.identity.side == s && f.identity.company == c).copied();
    for (k, id) in rally.iter().enumerate() {
        let Some(f) = mine(id) else {
            return Err(refusal(fyob, "Rallying up CMS", format!("{id} is not an element under this Company Officer")));
        };
        if rally[..k].contains(id) {
            return Err(refusal(fyob, "Rallying up CMS", format!("{id} is nominated twice")));
        }
        if !f.presence.status.in_play() && f.presence.status != Status::Retired {
            return Err(refusal(fyob, "Rallying up CMS", format!("{id} is not on the table or in the box")));
        }
    }
    for o in orders {
        if mine(&o.element).is_none() {
            return Err(refusal(fyob, "Orders & Objectives", format!("{} is not under this CO", o.element)));
        }
        if let Err(e) = o.order.objective() {
            return Err(refusal(fyob, "Orders & Objectives", e.to_string()));
        }
        if scenario.place(&o.order.location).is_none() {
            return Err(refusal(fyob, "Orders & Objectives", format!("no place {:?} on this table", o.order.location)));
        }
    }
    Ok(())
}

/// Carries out a CO's orders and rallies (the Player's checked), and ends his turn.
/// Putting an element onto or off Overwatch needs the CO's Leadership Test
/// (*Heroes All*, "Overwatch").
pub(super) fn apply(t: &mut Battlefield, s: usize, c: usize, rally_ids: &[String], orders: &[ElementOrder]) {
    let bound = t.battle.clock.bound();
    let co = t.sides.0[s].companies[c].co;
    for o in orders {
        let Ok(objective) = o.order.objective() else { continue };
        let mut els = t.elements.one(&t.roster, &o.element);
        let Some(f) = els.as_mut() else {
            t.failures.record(
                &mut t.log,
                bound,
                "apply",
                &o.element,
                format!("{} is no element of the battle", o.element),
            );
            continue;
        };
        if f.order.objective == objective {
            continue;
        }
        let overwatch = |a: &Objective| a.activity == Activity::Overwatch;
        if overwatch(&f.order.objective) != overwatch(&objective) {
            let (test, mut e) = officer::leadership_test(co, &mut t.dice.0, &t.sides.0[s].companies[c].id);
            e.rule = RuleRef::new(Book::HeroesAll, "Overwatch");
            let to = if overwatch(&objective) { "onto Overwatch" } else { "out of Overwatch" };
            t.log.push(bound, e.target(o.element.clone()).input("order", objective.activity, to));
            if !test.passed {
                continue;
            }
        } else {
            let ev = RuleEvent::new(
                EventKind::CommandDecision,
                RuleRef::new(Book::FightYourOwnBattles, "Orders & Objectives"),
            )
            .side(t.sides.0[s].name.clone())
            .actor(t.sides.0[s].companies[c].id.clone())
            .target(o.element.clone())
            .input("order", objective.activity, "the Company Officer's order to an element of his company")
            .input("location", &objective.location, "its objective");
            t.log.push(bound, ev);
        }
        order_element(t, s, c, &o.element, objective);
    }
    rally(t, s, c, rally_ids);
    finish(t, s, c);
}
