//! The panels' contents as plain functions of the state, and each panel
//! drawn headless with egui_kittest.

use serde_json::json;
use warbound_rules::{
    dice::Thrown,
    event::{Book, EventKind, Input, RuleEvent, RuleRef},
    forces::Role,
    officer::{Grade, Rank},
    opc::Deal,
    scenario::DEFAULT_MILESTONE,
    strategic::StrategicCondition,
};

use egui_kittest::{
    Harness,
    kittest::{By, Queryable},
};

use super::*;
use super::{cardsheet::*, deck::*, log::*, order_of_battle::*, senior::*};
use crate::battle::{
    log::{BattleLog, Entry},
    outcome,
    setup::BattleStart,
    state::{Flow, Status},
};

fn fire_event() -> RuleEvent {
    RuleEvent::new(EventKind::Fire, RuleRef::new(Book::HeroesAll, "How to fire weapons"))
        .actor("1/A")
        .target("G2")
        .input("band", "effective", "")
        .input("cover", "soft", "in a wood")
        .dice(6, &[2, 5])
        .dice(10, &[7])
        .outcome(json!({"hits": 1}))
}

/// The names the fire event's ids have in these tests.
fn named(id: &str) -> Option<String> {
    match id {
        "1/A" => Some("1 Section, A Company".to_owned()),
        "G2" => Some("Gruppe 2".to_owned()),
        _ => None,
    }
}

#[test]
fn a_log_line_is_a_sentence_with_names_dice_and_rule() {
    let entry = Entry { bound: 3, event: fire_event() };
    assert_eq!(
        log_line(&entry, &named),
        "B3 1 Section, A Company fires at Gruppe 2 (effective range, d6 2 5, d10 7): 1 hit (HA, How to fire weapons)"
    );
    let bare = Entry {
        bound: 1,
        event: RuleEvent::new(EventKind::Bound, RuleRef::new(Book::FightYourOwnBattles, "The game flow")),
    };
    assert_eq!(log_line(&bare, &named), "B1 (FYOB, The game flow)");
    let target_only = RuleEvent::new(EventKind::Casualties, RuleRef::new(Book::HeroesAll, "Casualties"))
        .target("G2")
        .input("casualties", 2, "")
        .outcome(json!({ "men": 5 }));
    assert_eq!(
        log_line(&Entry { bound: 2, event: target_only }, &named),
        "B2 Gruppe 2 loses 2 men, 5 men left (HA, Casualties)"
    );
}

#[test]
fn inputs_show_their_reasons_in_words() {
    let e = fire_event();
    assert_eq!(warbound_rules::narrate::input_words(&e.inputs[0], &named), "band: effective");
    assert_eq!(warbound_rules::narrate::input_words(&e.inputs[1], &named), "cover: soft (in a wood)");
    let n = Input { name: "route_length".into(), value: json!(14.142135620117188), reason: "inches".into() };
    assert_eq!(warbound_rules::narrate::input_words(&n, &named), "route length: 14.1 (inches)");
}

#[test]
fn the_filter_keeps_one_side_company_element_or_rule() {
    let mut e = fire_event();
    e.side = Some("British".into());
    let all = LogFilter::default();
    assert!(all.admits(&e));
    assert!(LogFilter { side: Some("British".into()), ..all.clone() }.admits(&e));
    assert!(!LogFilter { side: Some("German".into()), ..all.clone() }.admits(&e));
    assert!(LogFilter { company: Some(("A".into(), vec!["1/A".into()])), ..all.clone() }.admits(&e));
    assert!(!LogFilter { company: Some(("B".into(), vec!["1/B".into()])), ..all.clone() }.admits(&e));
    assert!(LogFilter { element: Some("G2".into()), ..all.clone() }.admits(&e), "the target counts");
    assert!(LogFilter { rule: Some("HA, How to fire weapons".into()), ..all.clone() }.admits(&e));
    assert!(!LogFilter { rule: Some("HA, Observation".into()), ..all.clone() }.admits(&e));
    let entries: Vec<Entry> =
        vec![Entry { bound: 1, event: e.clone() }, Entry { bound: 1, event: e.clone().actor("G2") }];
    let mut cache = LogCache::default();
    let only = LogFilter { element: Some("1/A".into()), ..all };
    cache.refresh_hiding(&entries, &named, &only, |_| false);
    assert_eq!((cache.lines.len(), cache.filtered), (1, 1));
    cache.refresh_hiding(&entries, &named, &LogFilter::default(), |_| false);
    assert_eq!((cache.lines.len(), cache.filtered), (2, 0), "a new filter starts the lines again");
}

#[test]
fn a_line_concerns_its_actor_else_its_target_if_an_element() {
    let e = fire_event();
    assert_eq!(concerns(&e, |_| true), Some("1/A"));
    assert_eq!(concerns(&e, |id| id == "G2"), Some("G2"));
    assert_eq!(concerns(&e, |_| false), None);
}

#[test]
fn names_dice_and_rounds_read_as_words() {
    assert_eq!(words(warbound_rules::command::Activity::ContactEnemy), "Contact enemy");
    assert_eq!(words(StrategicCondition::Green), "Green");
    let mut thrown = fire_event();
    thrown.dice = vec![Thrown { sides: 6, face: 1 }, Thrown { sides: 6, face: 6 }];
    assert_eq!(warbound_rules::narrate::dice_words(&thrown), "d6 1 6");
    assert_eq!(rounds_text(None, Some(3)), "unlimited");
    assert_eq!(rounds_text(Some(2), Some(5)), "■■□□□ 2/5");
    assert_eq!(rounds_text(Some(0), Some(2)), "□□ 0/2");
    assert_eq!(rounds_text(Some(4), None), "4 left");
    let bold = Officer::new(Rank::Nco, Grade::Bold).unwrap();
    assert_eq!(officer_text(bold), "Bold (3)");
    assert_eq!(
        flow_text(&Flow::Seize { element: "1/A".into() }, &Sides::default(), &named),
        "1 Section, A Company has Seized the Initiative"
    );
}

/// A patrol played by the program on both sides, stopped once a card
/// after the first is acting.
fn patrol_in_progress() -> App {
    let scenario = crate::data::load_scenario("patrol").unwrap().scenario;
    let mut app = crate::battle::battle_app(BattleStart::auto("patrol", scenario, 7), BattleLog::default()).unwrap();
    app.insert_resource(crate::battle::FlowPace(1));
    for _ in 0..200 {
        app.update();
        let battle = app.world().resource::<Battle>();
        if battle
            .deck
            .as_ref()
            .and_then(Deal::acting_now)
            .is_some_and(|id| battle.deck.as_ref().unwrap().card_of(id) > Some(1))
        {
            return app;
        }
    }
    panic!("no card after the first was played within 200 steps");
}

/// Every element of `world`, in scenario order.
fn elements(world: &World) -> Vec<ElementView<'_>> {
    let mut els: Vec<ElementView> =
        world.try_query::<FieldedReadOnly>().unwrap().iter(world).map(|f| f.view()).collect();
    els.sort_by_key(|f| f.identity.index);
    els
}

#[test]
fn the_log_keeps_the_enemys_unseen_elements_from_the_player() {
    let app = patrol_in_progress();
    let world = app.world();
    let els = elements(world);
    let mut sides = world.resource::<Sides>().clone();
    sides.0[0].control = Control::Player;
    let mine = els.iter().find(|f| f.identity.side == 0).unwrap();
    let unseen = els.iter().find(|f| f.identity.side == 1 && !crate::view::shown(f, &sides, &els, false)).unwrap();
    let moved = |id: &str| RuleEvent::new(EventKind::Movement, RuleRef::new(Book::HeroesAll, "Movement")).actor(id);
    assert!(!fogged(&moved(mine.id()), &els, &sides, false));
    assert!(fogged(&moved(unseen.id()), &els, &sides, false));
    assert!(!fogged(&moved(unseen.id()), &els, &sides, true), "the whole table shown");
    // Fire from an unseen enemy is kept from him; what it did to his own element is not.
    let fire = moved(unseen.id()).target(mine.id());
    assert!(fogged(&fire, &els, &sides, false));
    assert!(!fogged(&moved(mine.id()).target("someone"), &els, &sides, false));
    // His element finding one of the unseen enemy's counters a dummy: that he learns.
    let mut found =
        RuleEvent::new(EventKind::Concealment, RuleRef::new(Book::FightYourOwnBattles, "Placement options"))
            .actor(unseen.id())
            .target(mine.id());
    found.outcome = serde_json::json!({ "spotted": "Dummy", "counters_left": [1] });
    assert!(!fogged(&found, &els, &sides, false), "what his own observation found is his");
    let entries: Vec<Entry> =
        [moved(mine.id()), fire, moved(mine.id())].into_iter().map(|event| Entry { bound: 1, event }).collect();
    let mut cache = LogCache::default();
    cache.refresh_hiding(&entries, &|_: &str| None, &LogFilter::default(), |e| fogged(e, &els, &sides, false));
    assert_eq!((cache.lines.len(), cache.hidden), (2, 1));
    assert_eq!(cache.shown, [0, 2]);
}

/// A real battle in a headless app, a few steps in: every panel's content
/// is built from its state.
#[test]
fn the_panels_read_a_battle_in_progress() {
    let app = patrol_in_progress();
    let world = app.world();
    let els = elements(world);
    let battle = world.resource::<Battle>();
    let sides = world.resource::<Sides>();
    let log = world.resource::<BattleLog>();

    // The log: a sentence for every event, naming its section and its
    // actor by name, never an id or JSON.
    assert!(!log.entries.is_empty());
    let names = world.resource::<crate::battle::names::Names>();
    let name_of = |id: &str| names.get(id);
    for entry in &log.entries {
        let line = log_line(entry, &name_of);
        assert!(line.contains(&entry.event.rule.section), "{line}");
        if let Some(a) = entry.event.actor.as_deref().filter(|a| names.get(a).is_some()) {
            assert!(line.contains(&names.name(a)), "{line}");
        }
        assert!(!line.contains(['{', '}', '_']) && !line.contains("\":"), "{line}");
    }
    let mut cache = LogCache::default();
    cache.refresh_hiding(&log.entries, &name_of, &LogFilter::default(), |_| false);
    assert_eq!(cache.lines.len(), log.entries.len().min(LOG_LINES));
    assert_eq!(cache.lines.back(), log.entries.last().map(|e| log_line(e, &name_of)).as_ref());

    // The deck: every card in order, the ones before the acting card played.
    let deck = battle.deck.as_ref().unwrap();
    let names = world.resource::<crate::battle::names::Names>();
    let rows = deck_rows(deck, &els, sides, &|id: &str| names.get(id));
    assert!(rows.iter().all(|r| r.name == names.name(&r.holder)), "each card names its holder");
    assert_eq!(rows.len(), deck.order().len());
    assert_eq!(rows.iter().map(|r| r.card).collect::<Vec<_>>(), (1..=rows.len() as u16).collect::<Vec<_>>());
    let now: Vec<&CardRow> = rows.iter().filter(|r| r.now).collect();
    assert_eq!(now.len(), 1);
    assert_eq!(Some(now[0].holder.as_str()), deck.acting_now());
    assert!(rows.iter().all(|r| r.acted == (r.card < now[0].card)));
    assert!(rows.iter().all(|r| r.side.is_some() && !r.leader.is_empty()), "{rows:?}");

    // The Cardsheets: the element's own values.
    let codex = crate::data::codex().ok();
    for f in &els {
        let sheet = cardsheet(f, &els, sides, Some(deck), codex, &|id: &str| names.get(id));
        assert_eq!(sheet.title, names.name(f.id()));
        assert!(!sheet.subtitle.contains('_'), "{}", sheet.subtitle);
        let row = |k: &str| sheet.rows.iter().find(|(name, _)| *name == k).map(|(_, v)| v.clone());
        assert_eq!(row("CMS"), Some(f.force.element.cms.to_string()));
        assert_eq!(row("Number"), Some((f.identity.index + 1).to_string()));
        let opc = row("OPC").unwrap();
        match deck.card_of(f.id()) {
            Some(c) => assert!(opc.starts_with(&format!("card {c},")), "{opc}"),
            None => assert_eq!(opc, "none this bound"),
        }
        let pieces: usize = f.force.element.pieces.iter().map(|p| p.rounds.len().max(1)).sum();
        assert!(sheet.weapons.len() >= pieces, "{sheet:?}");
    }

    // The Senior Officers: both sides are Auto, so both are shown.
    assert_eq!(player_sides(sides), (0..sides.0.len()).collect::<Vec<_>>());
    for (s, side) in sides.0.iter().enumerate() {
        let sheet = senior_sheet(s, side, &els);
        assert_eq!(sheet.cmt_start, side.cmt_start);
        assert_eq!(sheet.milestone_pct, DEFAULT_MILESTONE);
        assert_eq!(sheet.cmt, outcome::cmt(els.iter().copied(), s));
        assert_eq!(sheet.condition, side.record.condition());
        let reserves =
            els.iter().filter(|f| f.identity.side == s && f.presence.status.committable(f.force.element.cms)).count();
        assert_eq!(sheet.reserves.len(), reserves);
    }
}

#[test]
fn the_player_sees_his_own_side_only() {
    let scenario = crate::data::load_scenario("patrol").unwrap().scenario;
    let mut start = BattleStart::auto("patrol", scenario, 3);
    start.control[0] = Control::Player;
    let mut app = crate::battle::battle_app(start, BattleLog::default()).unwrap();
    let world = app.world_mut();
    let mut q = world.query::<FieldedReadOnly>();
    let els: Vec<ElementView> = q.iter(world).map(|f| f.view()).collect();
    let sides = world.resource::<Sides>();
    assert_eq!(player_sides(sides), vec![0]);
    let own = els.iter().find(|f| f.identity.side == 0).unwrap();
    let enemy = els.iter().find(|f| f.identity.side == 1).unwrap();
    assert!(observed(own, &els, sides, &[0]));
    // Before the first bound nothing of the enemy is known.
    assert!(!observed(enemy, &els, sides, &[0]));
}
// -----------------------------------------------------------------------
// The panels as drawn (egui_kittest).

/// The text of every label drawn, in the order drawn.
fn labels<S>(h: &Harness<'_, S>) -> Vec<String> {
    h.query_all(By::new().role(egui::accesskit::Role::Label)).filter_map(|n| n.value()).collect()
}

/// The label drawn right after `key`: the value of the row it names.
fn after<'a>(labels: &'a [String], key: &str) -> Option<&'a str> {
    labels.iter().position(|l| l == key).and_then(|k| labels.get(k + 1)).map(String::as_str)
}

/// The log of `events`, in bounds 2, 2, 3 …, and its lines.
fn log_of(events: Vec<RuleEvent>) -> (BattleLog, LogCache) {
    let mut log = BattleLog::default();
    log.entries = events.into_iter().enumerate().map(|(k, event)| Entry { bound: 2 + k as u32 / 2, event }).collect();
    let mut cache = LogCache::default();
    cache.refresh_hiding(&log.entries, &named, &LogFilter::default(), |_| false);
    (log, cache)
}

/// The log drawn with elements "1/A" and "G2" on the table; its state is
/// the element of the last line clicked.
fn log_harness<'a>(log: &'a BattleLog, cache: &'a LogCache) -> Harness<'a, Option<String>> {
    Harness::new_ui_state(
        move |ui, clicked: &mut Option<String>| {
            if let Some(id) = log_ui(ui, log, cache, &named, None, |id| id == "1/A" || id == "G2") {
                *clicked = Some(id);
            }
        },
        None,
    )
}

fn three_events() -> Vec<RuleEvent> {
    vec![
        fire_event(),
        RuleEvent::new(EventKind::Casualties, RuleRef::new(Book::HeroesAll, "Casualties"))
            .target("G2")
            .outcome("retires"),
        RuleEvent::new(EventKind::Bound, RuleRef::new(Book::FightYourOwnBattles, "The game flow")).actor("side 1"),
    ]
}

#[test]
fn a_log_line_shows_rule_and_dice_and_a_click_selects_what_it_concerns() {
    let (log, cache) = log_of(three_events());
    let mut h = log_harness(&log, &cache);
    h.run();
    h.get_by_label("3 events · hover for inputs · click to select");
    let fire =
        "B2 1 Section, A Company fires at Gruppe 2 (effective range, d6 2 5, d10 7): 1 hit (HA, How to fire weapons)";
    h.get_by_label(fire);
    h.get_by_label("B3 side 1 (FYOB, The game flow)").click();
    h.run();
    assert_eq!(h.state(), &None, "a side is not an element");
    h.get_by_label("B2 Gruppe 2: retires (HA, Casualties)").click();
    h.run();
    assert_eq!(h.state().as_deref(), Some("G2"), "no actor: the target");
    h.get_by_label(fire).click();
    h.run();
    assert_eq!(h.state().as_deref(), Some("1/A"), "the actor before the target");
}

#[test]
fn hovering_a_log_line_shows_its_inputs_and_dice() {
    let (log, cache) = log_of(three_events());
    let mut h = log_harness(&log, &cache);
    h.run();
    assert!(h.query_by_label("cover: soft (in a wood)").is_none(), "no tooltip before hovering");
    h.get_by_label_contains("(HA, How to fire weapons)").hover();
    h.run();
    h.get_by_label("HA, How to fire weapons (Fire)");
    h.get_by_label("Acting: 1 Section, A Company");
    h.get_by_label("On: Gruppe 2");
    h.get_by_label("band: effective");
    h.get_by_label("cover: soft (in a wood)");
    h.get_by_label("Dice: d6 2 5, d10 7");
    h.get_by_label("Outcome: hits 1");
    assert_eq!(h.state(), &None, "hovering selects nothing");
}

#[test]
fn a_long_log_shows_its_newest_lines_and_says_so() {
    let events: Vec<RuleEvent> = (0..LOG_LINES + 20)
        .map(|k| {
            RuleEvent::new(EventKind::Command, RuleRef::new(Book::FightYourOwnBattles, "Orders"))
                .actor("1/A")
                .outcome(format!("order {k}"))
        })
        .collect();
    let (mut log, cache) = log_of(events);
    log.failed = Some("disk full".into());
    let mut h = log_harness(&log, &cache);
    h.run();
    h.get_by_label(&format!(
        "{} events, the last {LOG_LINES} shown · hover for inputs · click to select",
        LOG_LINES + 20
    ));
    h.get_by_label("Writing the log file failed: disk full");
    // The log sticks to its newest line.
    h.get_by_label_contains(&format!(": order {} (FYOB, Orders)", LOG_LINES + 19));
}

#[test]
fn the_deck_marks_played_and_acting_cards_and_a_click_selects_the_holder() {
    let app = patrol_in_progress();
    let world = app.world();
    let els = elements(world);
    let (battle, flow, sides) = (world.resource::<Battle>(), world.resource::<Flow>(), world.resource::<Sides>());
    let deck = battle.deck.as_ref().unwrap();
    let now = deck.acting_now().unwrap();
    let now_card = deck.card_of(now).unwrap();
    let names = world.resource::<crate::battle::names::Names>();
    let name_of = |id: &str| names.get(id);
    let mut h = Harness::new_ui_state(
        |ui, clicked: &mut Option<String>| {
            if let Some(id) = deck_ui(ui, battle, flow, &els, sides, &name_of) {
                *clicked = Some(id);
            }
        },
        None,
    );
    h.run();
    let l = labels(&h);
    assert!(l[0].starts_with(&format!("Bound {} of {} · ", battle.clock.bound(), battle.start.last_bound())));
    assert_eq!(l[1], flow_text(flow, sides, &name_of));
    for (k, id) in deck.order().into_iter().enumerate() {
        let card = k as u16 + 1;
        let mark = match card.cmp(&now_card) {
            std::cmp::Ordering::Less => "✔",
            std::cmp::Ordering::Equal => "▶",
            std::cmp::Ordering::Greater => "",
        };
        assert_eq!(after(&l, &format!("{mark} {card}")), Some(names.name(id).as_str()), "{l:?}");
    }
    // A click on an element's card, played or not, selects it; on a
    // Company Officer's, nothing.
    let is_element = |id: &str| els.iter().any(|f| f.id() == id);
    assert!(deck.order().into_iter().any(|id| !is_element(id)), "patrol deals Company Officers' cards");
    for id in deck.order() {
        *h.state_mut() = None;
        h.get_by_label(&names.name(id)).click();
        h.run();
        assert_eq!(h.state().as_deref(), is_element(id).then_some(id), "{id}");
    }
}

#[test]
fn the_order_of_battle_lists_each_company_its_elements_and_who_has_acted() {
    let app = patrol_in_progress();
    let world = app.world();
    let els = elements(world);
    let (battle, sides) = (world.resource::<Battle>(), world.resource::<Sides>());
    let deck = battle.deck.as_ref().unwrap();
    let (now, now_card) = (deck.acting_now().unwrap(), deck.card_of(deck.acting_now().unwrap()).unwrap());
    let names = world.resource::<crate::battle::names::Names>();
    let companies = order_of_battle(&els, sides, Some(deck), &|id: &str| names.get(id), |_| true);
    // Every element once, in scenario order, under its own side and company.
    let listed: Vec<&str> = companies.iter().flat_map(|c| c.elements.iter().map(|e| e.id.as_str())).collect();
    let mut all: Vec<&str> = els.iter().map(|f| f.id()).collect();
    let mut sorted_listed = listed.clone();
    all.sort();
    sorted_listed.sort();
    assert_eq!(sorted_listed, all);
    for c in &companies {
        assert_eq!(c.name, names.name(&c.id));
        assert!(c.officer.starts_with("Company Officer "), "{}", c.officer);
        for e in &c.elements {
            let f = els.iter().find(|f| f.id() == e.id).unwrap();
            assert_eq!((f.identity.side, &sides.0[c.side].companies[f.identity.company].id), (c.side, &c.id));
            assert_eq!(e.name, names.name(&e.id));
            let turn = match deck.card_of(&e.id) {
                None => Turn::NoCard,
                Some(_) if e.id == now => Turn::Acting,
                Some(card) if card < now_card => Turn::Acted,
                Some(_) => Turn::ToCome,
            };
            assert_eq!(e.turn, turn, "{}", e.id);
            assert_eq!(e.at, f.presence.status.in_play().then_some(f.place.at));
            if f.presence.status.on_table() {
                assert!(e.state.starts_with(&format!("{} of {} men", f.men(), f.force.men_start)), "{}", e.state);
            }
        }
        assert_eq!(c.acted(), c.elements.iter().filter(|e| e.turn == Turn::Acted).count());
        let on: Vec<_> = c.elements.iter().filter_map(|e| e.at).collect();
        let centre = c.centre().unwrap();
        let mean = on.iter().map(|p| p.0).sum::<f32>() / on.len() as f32;
        assert!((centre.0 - mean).abs() < 1e-3, "{centre:?}");
    }
    let played = |turn: Turn| companies.iter().flat_map(|c| &c.elements).filter(|e| e.turn == turn).count();
    let is_element = |id: &&str| els.iter().any(|f| f.id() == *id);
    let dealt: Vec<&str> = deck.order().into_iter().filter(is_element).collect();
    assert!(!dealt.is_empty());
    assert_eq!(played(Turn::Acted), dealt.iter().filter(|id| deck.card_of(id) < Some(now_card)).count());
    assert_eq!(played(Turn::Acting), usize::from(els.iter().any(|f| f.id() == now)));
}

#[test]
fn the_order_of_battle_shows_the_player_his_own_force_and_no_unseen_enemy() {
    let app = village();
    let world = app.world();
    let els = elements(world);
    let sides = world.resource::<Sides>();
    let names = world.resource::<crate::battle::names::Names>();
    let shown =
        |whole| order_of_battle(&els, sides, None, &|id: &str| names.get(id), |f| listed(f, sides, &els, whole));
    // Before the first bound he knows nothing of the enemy.
    let his = shown(false);
    assert!(!his.is_empty() && his.iter().all(|c| c.side == 0), "{his:?}");
    let own = els.iter().filter(|f| f.identity.side == 0).count();
    assert_eq!(his.iter().map(|c| c.elements.len()).sum::<usize>(), own, "all of his own, in the box or not");
    assert!(his.iter().flat_map(|c| &c.elements).all(|e| e.turn == Turn::NoCard), "no deal yet");
    // Seeing the whole table, he sees the enemy's companies too.
    assert!(shown(true).iter().any(|c| c.side == 1));
}

#[test]
fn a_click_in_the_order_of_battle_selects_and_centres_a_company_or_an_element() {
    let app = patrol_in_progress();
    let world = app.world();
    let els = elements(world);
    let (battle, sides) = (world.resource::<Battle>(), world.resource::<Sides>());
    let names = world.resource::<crate::battle::names::Names>();
    let companies = order_of_battle(&els, sides, battle.deck.as_ref(), &|id: &str| names.get(id), |_| true);
    let first = &companies[0];
    let inside = first.elements.iter().find(|e| e.at.is_some()).unwrap();
    // The company of the selected element starts open; the others closed.
    let mut h = Harness::new_ui_state(
        |ui, picked: &mut Option<Pick>| {
            if let Some(p) = order_of_battle_ui(ui, &companies, sides, Some(&inside.id)) {
                *picked = Some(p);
            }
        },
        None,
    );
    h.run();
    let l = labels(&h);
    for c in &companies {
        assert!(l.contains(&format!("{}: {} of {} acted", c.name, c.acted(), c.elements.len())), "{l:?}");
    }
    for e in &first.elements {
        let k = l.iter().position(|x| *x == e.name).unwrap_or_else(|| panic!("{} not shown: {l:?}", e.name));
        assert_eq!(l[k + 1], e.state);
        if e.turn == Turn::Acted {
            assert_eq!(l[k - 1], "✔");
        }
    }
    for e in companies.iter().skip(1).flat_map(|c| &c.elements) {
        assert!(!l.contains(&e.name) || first.elements.iter().any(|f| f.name == e.name), "{} shown closed", e.name);
    }
    // A click on an element picks it; the view turns on where it stands.
    h.get_by_label(&inside.name).click();
    h.run();
    assert_eq!(h.state(), &Some(Pick::Element(inside.id.clone())));
    assert_eq!(picked(h.state().as_ref().unwrap(), &companies), (Some(inside.id.clone()), inside.at));
    // A click on a company picks it: its first element on the table is
    // selected and the view turns on the middle of those on the table.
    let last = companies.last().unwrap();
    h.get_by_label(&format!("{}: {} of {} acted", last.name, last.acted(), last.elements.len())).click();
    h.run();
    assert_eq!(h.state(), &Some(Pick::Company(last.id.clone())));
    let lead = last.elements.iter().find(|e| e.at.is_some()).map(|e| e.id.clone());
    assert_eq!(picked(h.state().as_ref().unwrap(), &companies), (lead, last.centre()));
}

/// The village before its first bound, the British (side 0) under the
/// player's command.
fn village() -> App {
    let scenario = crate::data::load_scenario("village").unwrap().scenario;
    let mut start = BattleStart::auto("village", scenario, 5);
    start.control[0] = Control::Player;
    crate::battle::battle_app(start, BattleLog::default()).unwrap()
}

/// Changes the element `id` of `app`.
fn change(app: &mut App, id: &str, f: impl FnOnce(&mut crate::battle::state::FieldedItem)) {
    let world = app.world_mut();
    let mut q = world.query::<crate::battle::state::Fielded>();
    f(&mut q.iter_mut(world).find(|e| e.force.id() == id).unwrap());
}

/// The labels of `id`'s Cardsheet in `app`.
fn cardsheet_labels(app: &App, id: &str) -> Vec<String> {
    let world = app.world();
    let els = elements(world);
    let (battle, sides) = (world.resource::<Battle>(), world.resource::<Sides>());
    let f = els.iter().copied().find(|f| f.id() == id).unwrap();
    let codex = crate::data::codex().ok();
    let names = world.resource::<crate::battle::names::Names>();
    let mut h =
        Harness::new_ui(|ui| cardsheet_ui(ui, &f, &els, sides, battle.deck.as_ref(), codex, &|id: &str| names.get(id)));
    h.run();
    labels(&h)
}

#[test]
fn the_cardsheet_shows_an_elements_numbers_weapons_and_notes() {
    let mut app = village();
    // The 2-inch mortar has fired three bounds; the FOO with the platoon
    // has lost his radio.
    change(&mut app, "13_platoon", |f| {
        let mortar = f.force.element.pieces.iter_mut().find(|p| p.codex == "gb_2in_mortar").unwrap();
        mortar.rounds[0] = Some(7);
    });
    app.world_mut().resource_mut::<Sides>().0[0].foos[0].foo.net.dis = true;
    let l = cardsheet_labels(&app, "13_platoon");
    let world = app.world();
    let platoon = elements(world).into_iter().find(|f| f.id() == "13_platoon").unwrap();
    assert_eq!(l[0], "13 Platoon", "{l:?}");
    assert_eq!(after(&l, "Number"), Some("1"));
    assert_eq!(after(&l, "Quality"), Some("Regular"));
    assert_eq!(after(&l, "NCO"), Some("Regular (2)"));
    assert_eq!(after(&l, "CMS"), Some(platoon.force.element.cms.to_string().as_str()));
    assert_eq!(after(&l, "Men"), Some("34 of 34"));
    assert_eq!(after(&l, "OPC"), Some("none this bound"));
    assert_eq!(after(&l, "Order"), Some("4 Contact enemy — the church square"));
    assert_eq!(after(&l, "Ordnance ML 2-inch mortar: Light mortar (crew 2)"), Some("■■■■■■■□□□ 7/10"), "{l:?}");
    assert_eq!(after(&l, "2 × PIAT"), Some("■■■■■ 5/5"));
    assert_eq!(after(&l, "20 × Rifle No. 4 Mk I"), Some("unlimited"), "{l:?}");
    for note in ["Radio", "FOO with 13 Platoon: radio DIS", "Company Officer of C Coy with it: Bold (3)"] {
        assert!(l.iter().any(|x| x == note), "{note}: {l:?}");
    }
}

#[test]
fn the_cardsheet_shows_transport_duty() {
    let mut app = village();
    change(&mut app, "troop_corporal", |f| {
        f.force.element.role = Role::Transport { carrying: Some("14_platoon".into()) };
    });
    let carrier = cardsheet_labels(&app, "troop_corporal");
    assert_eq!(after(&carrier, "NCO"), Some("none (transport duty)"));
    assert!(carrier.iter().any(|x| x == "Transport, carrying 14 Platoon"), "{carrier:?}");
    let carried = cardsheet_labels(&app, "14_platoon");
    assert!(carried.iter().any(|x| x == "Carried by Troop Corporal"), "{carried:?}");
}

#[test]
fn the_cardsheet_of_an_enemy_not_observed_shows_nothing_of_it() {
    let mut app = village();
    let hidden = cardsheet_labels(&app, "zug_1_gruppe_1");
    assert_eq!(hidden, ["1. Gruppe, 1. Zug", "An enemy element your force has not observed."]);
    app.world_mut().resource_mut::<Sides>().0[0].known.insert("zug_1_gruppe_1".into());
    let seen = cardsheet_labels(&app, "zug_1_gruppe_1");
    assert_eq!(seen[0], "1. Gruppe, 1. Zug");
    assert_eq!(after(&seen, "NCO"), Some("Bold (3)"), "{seen:?}");
}

#[test]
fn the_senior_officer_sheet_shows_cmt_condition_and_reserves() {
    let mut app = village();
    // 14 Platoon is lost: the current CMT falls below the initial one.
    change(&mut app, "14_platoon", |f| f.presence.status = Status::Destroyed);
    let world = app.world();
    let els = elements(world);
    let sides = world.resource::<Sides>();
    let side = &sides.0[0];
    let cmt = outcome::cmt(els.iter().copied(), 0);
    assert!(cmt < side.cmt_start, "{cmt} {}", side.cmt_start);
    let mut h = Harness::new_ui_state(
        |ui, clicked: &mut Option<String>| {
            if let Some(id) = senior_ui(ui, sides, &els) {
                *clicked = Some(id);
            }
        },
        None,
    );
    h.run();
    let l = labels(&h);
    assert_eq!(l[0], side.name);
    assert_eq!(after(&l, "Senior Officer"), Some("Above average (Player)"));
    assert_eq!(after(&l, "Initial CMT"), Some(side.cmt_start.to_string().as_str()));
    assert_eq!(after(&l, "Milestone"), Some(format!("{DEFAULT_MILESTONE}%").as_str()));
    let passed = side.record.milestones_passed(cmt);
    assert_eq!(after(&l, "Current CMT"), Some(format!("{cmt} ({passed} milestones passed)").as_str()));
    assert_eq!(after(&l, "Strategic condition"), Some("Green"));
    assert!(l.iter().any(|x| x == "Reserves uncommitted:"), "{l:?}");
    assert!(!l.iter().any(|x| x == &sides.0[1].name || x.starts_with("panzer_iv")), "the enemy's sheet is hidden");
    let reserve = els.iter().find(|f| f.id() == "15_platoon").unwrap();
    h.get_by_label(&format!("15_platoon (CMS {})", reserve.force.element.cms)).click();
    h.run();
    assert_eq!(h.state().as_deref(), Some("15_platoon"));
}

/// The characters of `texts` that the default fonts of `family` cannot draw:
/// those no face of the family has, which take no width (`has_glyph` also
/// refuses every character of the face that holds the replacement glyph).
fn missing_glyphs(ctx: &egui::Context, family: egui::FontFamily, texts: &[String]) -> Vec<(char, String)> {
    let font = egui::FontId::new(14.0, family);
    let mut missing: Vec<(char, String)> = Vec::new();
    ctx.fonts_mut(|f| {
        for t in texts {
            for c in t.chars() {
                if f.glyph_width(&font, c) <= 0.0 && !missing.iter().any(|(m, _)| *m == c) {
                    missing.push((c, t.clone()));
                }
            }
        }
    });
    missing
}

/// Every shipped battle played to its end: every log line, card, Cardsheet,
/// Senior Officer sheet and flow text it shows has each of its characters in
/// the font the panel draws it with (the Cardsheet's rounds in monospace).
#[test]
fn every_glyph_the_battle_panels_show_is_in_their_font() {
    let codex = std::sync::Arc::new(crate::data::codex().unwrap().clone());
    let mut texts = Vec::new();
    let mut mono = Vec::new();
    for name in ["patrol", "village", "beach", "river", "merville", "vernon"] {
        let scenario = crate::data::load_scenario(name).unwrap().scenario;
        let (app, _) =
            crate::battle::play::autoplay(BattleStart::auto(name, scenario, 3), BattleLog::default(), codex.clone())
                .unwrap();
        let world = app.world();
        let els = elements(world);
        let sides = world.resource::<Sides>();
        let names = world.resource::<crate::battle::names::Names>();
        let name_of = |id: &str| names.get(id);
        let log = world.resource::<BattleLog>();
        for e in &log.entries {
            texts.push(log_line(e, &name_of));
            texts.extend(e.event.inputs.iter().map(|i| warbound_rules::narrate::input_words(i, &name_of)));
            texts.push(warbound_rules::narrate::value_words(&e.event.outcome, &name_of));
        }
        for f in &els {
            let sheet = cardsheet(f, &els, sides, None, Some(&codex), &name_of);
            texts.extend([sheet.title, sheet.subtitle]);
            texts.extend(sheet.rows.into_iter().flat_map(|(k, v)| [k.to_owned(), v]));
            texts.extend(sheet.notes);
            for w in sheet.weapons {
                texts.push(w.name);
                mono.push(w.rounds);
            }
        }
        for (s, side) in sides.0.iter().enumerate() {
            texts.push(format!("{:?}", senior_sheet(s, side, &els)));
        }
        for c in order_of_battle(&els, sides, None, &name_of, |_| true) {
            texts.extend([c.name, c.officer]);
            texts.extend(c.elements.into_iter().flat_map(|e| [e.name, e.state]));
        }
        texts.push(flow_text(world.resource::<Flow>(), sides, &name_of));
    }
    texts.push("▶ ✔ × · — …".to_owned());
    let mut h = Harness::new_ui(|ui| {
        ui.label("fonts");
    });
    h.run();
    let ctx = h.ctx.clone();
    assert_eq!(missing_glyphs(&ctx, egui::FontFamily::Proportional, &texts), []);
    assert_eq!(missing_glyphs(&ctx, egui::FontFamily::Monospace, &mono), []);
}
