//! The Orders window: the decision the battle waits for, and the commands
//! the person at the screen may give — each checked by the rules before it
//! is offered, a refused one shown with its rule and reason. Moves are given
//! by clicking the table (`view::picking`).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::battle::Selected;
use crate::battle::{
    command::ElementOrder,
    hotseat::{HotseatChoice, face_words, hotseat_choice},
    options::CoElement,
};
use crate::{
    battle::{
        command::{Command, Inbox},
        options::{Decision, along, decision},
        state::{Battle, FieldedReadOnly},
    },
    states::AppState,
    view::{DieMove, TableClick},
};
use warbound_rules::{command::Activity, narrate::words};

/// The decision waiting for the person at the screen, refreshed each frame.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Waiting(pub Option<Decision>);

/// In the 2-player game: the Command Dice of the player at the screen and
/// the choices for the element he has selected, refreshed each frame.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct DiceWaiting(pub Option<HotseatChoice>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Waiting>()
        .init_resource::<DiceWaiting>()
        .add_systems(Update, refresh.run_if(in_state(AppState::Battle).and_then(resource_exists::<Battle>)))
        .add_systems(
            EguiPrimaryContextPass,
            orders_window.run_if(in_state(AppState::Battle).and_then(resource_exists::<Battle>)),
        );
}

/// Reads the flow's decision; selects the element it concerns when it changes.
fn refresh(world: &mut World) {
    let now = decision(world);
    let before = world.resource::<Waiting>().0.clone();
    let acting = |d: &Option<Decision>| match d {
        Some(Decision::Act { element, .. } | Decision::Seize { element, .. }) => Some(element.clone()),
        _ => None,
    };
    if acting(&now) != acting(&before)
        && let Some(element) = acting(&now)
    {
        world.resource_mut::<Selected>().0 = Some(element);
    }
    if now != before {
        world.resource_mut::<Waiting>().0 = now;
    }
    let selected = world.resource::<Selected>().0.clone();
    let dice = hotseat_choice(world, selected.as_deref());
    if world.resource::<DiceWaiting>().0 != dice {
        world.resource_mut::<DiceWaiting>().0 = dice;
    }
}

/// What the person at the screen chose in the Orders window.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Give this command.
    Give(Command),
    /// Start (or stop) giving a move by clicking the table.
    ToggleMove,
    /// 2-player game: look at this element's choices.
    Select(String),
    /// 2-player game: give this element's move with this die by clicking the table.
    DieMove(String, usize),
}

/// The 2-player game's window: the player's Command Dice, his elements (the
/// one selected framed), that element's choices die by die, re-rolls, and
/// the end of his turn. `moving`: a die's move waits for a click on the table.
pub fn dice_ui(ui: &mut egui::Ui, choice: &HotseatChoice, selected: Option<&str>, moving: bool) -> Option<Answer> {
    let mut answer = None;
    ui.heading(format!("{}: Command Dice", choice.side));
    // The dice left, face by face: "3 Observe ×3".
    let dice: Vec<String> = (1..=6u8)
        .filter_map(|f| {
            let n = choice.dice.iter().filter(|&&(_, face)| face == f).count();
            (n > 0)
                .then(|| if n == 1 { format!("{f} {}", face_words(f)) } else { format!("{f} {} ×{n}", face_words(f)) })
        })
        .collect();
    ui.label(if dice.is_empty() { "No dice left.".to_owned() } else { format!("Left: {}", dice.join(" · ")) });
    ui.separator();
    egui::ScrollArea::vertical().id_salt("dice-elements").max_height(140.0).show(ui, |ui| {
        for e in &choice.elements {
            let state = if e.halted { "no action this bound".to_owned() } else { format!("{} of 3 dice", e.used) };
            let on = selected == Some(e.id.as_str());
            if ui.selectable_label(on, format!("{} ({state})", e.name)).clicked() {
                answer = Some(Answer::Select(e.id.clone()));
            }
        }
    });
    ui.separator();
    match choice.elements.iter().find(|e| selected == Some(e.id.as_str())) {
        None => {
            ui.label("Select one of your elements, here or on the table, to give it a die.");
        }
        Some(e) => {
            if e.morale_throws > 0 && e.used == 0 {
                ui.label(
                    egui::RichText::new(format!(
                        "Its first die calls for its NCO's reaction test and {} morale throw(s); \
                         your other 6s re-roll failed ones.",
                        e.morale_throws
                    ))
                    .small(),
                );
            }
            for (die, face) in choice.dice.iter().copied().filter(|&(_, f)| f == 2 || f == 6) {
                let label = if moving {
                    "Move: click the table…".to_owned()
                } else {
                    format!("die {} (a {face}): move… (click the table)", die + 1)
                };
                if ui.add_enabled(!e.halted, egui::Button::new(label).selected(moving)).clicked() {
                    answer = Some(Answer::DieMove(e.id.clone(), die));
                }
            }
            for offer in choice.offers.iter().chain(&choice.rerolls) {
                if offer_button(ui, &offer.label, offer.refused.as_deref(), None) {
                    answer = Some(Answer::Give(offer.command.clone()));
                }
            }
        }
    }
    ui.separator();
    if ui.button("Done with my Command Dice").clicked() {
        answer = Some(Answer::Give(choice.pass.clone()));
    }
    answer
}

/// A choice as a button: greyed with its rule and reason when the rules
/// refuse it, its odds on hover when it has them; whether it was clicked.
fn offer_button(ui: &mut egui::Ui, label: &str, refused: Option<&str>, odds: Option<String>) -> bool {
    let button = ui.add_enabled(refused.is_none(), egui::Button::new(label));
    let button = match (refused, odds) {
        (Some(why), _) => button.on_disabled_hover_text(why),
        (None, Some(odds)) => button.on_hover_text(odds),
        (None, None) => button,
    };
    button.clicked()
}

/// An offer's odds for its hover: the chance of its throw, from the same
/// rules function the throw uses, and what it is expected to bring.
fn odds_words(offer: &crate::battle::options::Offer) -> Option<String> {
    let chance = offer.chance.map(|p| format!("{:.1}% to succeed", p * 100.0));
    let expected = offer.expected.map(|n| format!("{n:.2} expected"));
    let words: Vec<String> = chance.into_iter().chain(expected).collect();
    (!words.is_empty()).then(|| words.join(", "))
}

/// The Orders window's contents for `decision` (none: the flow is not
/// waiting for the person at the screen, `idle` says why). `moving`: a move
/// is being given by clicking the table; `at`: the acting element's place.
pub fn orders_ui(
    ui: &mut egui::Ui,
    decision: Option<&Decision>,
    idle: &str,
    moving: bool,
    at: Option<(f32, f32)>,
) -> Option<Answer> {
    let mut answer = None;
    match decision {
        None => {
            ui.label(idle);
        }
        Some(Decision::Act { element, name, orders, pending, move_refused, offers }) => {
            ui.heading(name);
            ui.label(egui::RichText::new(orders).small());
            ui.separator();
            match pending {
                Some(p) => {
                    ui.label(format!("Movement Dice: up to {:.1}\". Click the table where it stops.", p.allowance));
                    if let Some(from) = at
                        && ui.button("Go the full distance").clicked()
                    {
                        let to = along(from, p.to, p.allowance);
                        answer = Some(Answer::Give(Command::MoveTo { element: element.clone(), to }));
                    }
                }
                None => {
                    let label = if moving { "Move: click the table…" } else { "Move…" };
                    // A button like the others, lit while the table waits for the route.
                    let button = ui.add_enabled(move_refused.is_none(), egui::Button::new(label).selected(moving));
                    let button = match move_refused {
                        Some(why) => button.on_disabled_hover_text(why),
                        None => button.on_hover_text(
                            "Declare the route: click where it goes, or drag the miniature there. \
                             The rings show how far the Movement Dice can take it (bright: even chances).",
                        ),
                    };
                    if button.clicked() {
                        answer = Some(Answer::ToggleMove);
                    }
                }
            }
            for offer in offers {
                if offer_button(ui, &offer.label, offer.refused.as_deref(), odds_words(offer)) {
                    answer = Some(Answer::Give(offer.command.clone()));
                }
            }
            ui.label(egui::RichText::new("Enter ends the turn").small().color(egui::Color32::from_gray(150)));
        }
        Some(Decision::CoTurn { company, name, command, elements, places, rally_throws }) => {
            answer = co_turn_ui(ui, (company, name), command, elements, places, *rally_throws);
        }
        Some(Decision::Session { side, name, keep, commit_all, reserves, chance, withdraw }) => {
            ui.heading(format!("{name}: the Senior Officer's session"));
            let id = ui.id().with(("session", *side));
            let mut ticked: Vec<String> = ui.data(|d| d.get_temp(id)).unwrap_or_default();
            if reserves.is_empty() {
                ui.label("No reserve is fit to commit (FYOB: rallied to an acceptable CMS).");
            } else {
                ui.label(format!(
                    "Reserves to commit: one Leadership Test for all, {:.0}% to pass (FYOB, Committing Reserves to the table).",
                    chance * 100.0
                ));
                for (rid, name, cms) in reserves {
                    let mut on = ticked.contains(rid);
                    if ui.checkbox(&mut on, format!("{name} (CMS {cms})")).changed() {
                        ticked.retain(|t| t != rid);
                        if on {
                            ticked.push(rid.clone());
                        }
                    }
                }
                ui.data_mut(|d| d.insert_temp(id, ticked.clone()));
                let label = format!("Commit the {} ticked", ticked.len());
                if ui.add_enabled(!ticked.is_empty(), egui::Button::new(label)).clicked() {
                    answer = Some(Answer::Give(Command::Session {
                        side: *side,
                        commit: ticked.clone(),
                        objectives: Vec::new(),
                        withdraw: false,
                    }));
                }
                if let Some(commit) = commit_all
                    && ui.button("Commit every reserve").clicked()
                {
                    answer = Some(Answer::Give(commit.clone()));
                }
            }
            if ui.button("Keep the reserves back").clicked() {
                answer = Some(Answer::Give(keep.clone()));
            }
            if offer_button(ui, &withdraw.label, withdraw.refused.as_deref(), None) {
                answer = Some(Answer::Give(withdraw.command.clone()));
            }
        }
        Some(Decision::Seize { name, command, swaps, .. }) => {
            ui.heading(format!("{name} seized the initiative"));
            if ui.button("Act as ordered now").clicked() {
                answer = Some(Answer::Give(command.clone()));
            }
            for offer in swaps {
                if offer_button(ui, &offer.label, offer.refused.as_deref(), None) {
                    answer = Some(Answer::Give(offer.command.clone()));
                }
            }
        }
    }
    answer
}

/// The orders FYOB's "Orders & Objectives" lists, 1 to 8.
fn activities() -> impl Iterator<Item = Activity> {
    (1..=8).filter_map(|n| Activity::from_number(n).ok())
}

/// A Company Officer's command turn: for each of his elements the order it
/// holds (changed with the lists: what, where, and for Support or
/// Engineering whom or what) and whether he nominates it for rallying.
/// *Carry on* leaves every order and nominates as the program would.
fn co_turn_ui(
    ui: &mut egui::Ui,
    (company, name): (&str, &str),
    carry_on: &Command,
    elements: &[CoElement],
    places: &[String],
    rally_throws: usize,
) -> Option<Answer> {
    let mut answer = None;
    ui.heading(format!("{name}: the Company Officer's turn"));
    let id = ui.id().with(("co-turn", company));
    let mut draft: Vec<CoElement> = ui.data(|d| d.get_temp(id)).unwrap_or_else(|| elements.to_vec());
    if draft.len() != elements.len() || draft.iter().zip(elements).any(|(a, b)| a.id != b.id) {
        draft = elements.to_vec();
    }
    ui.label(
        egui::RichText::new(format!(
            "Rally: {rally_throws} throw(s), one for each element ticked in turn; a 6 adds 1 CMS, at most 2 this bound \
             ({:.0}% each). A new order onto or off Overwatch takes his Leadership Test.",
            100.0 / 6.0
        ))
        .small(),
    );
    let mut problem = None;
    egui::Grid::new(("co-orders", company)).num_columns(4).show(ui, |ui| {
        for (k, e) in draft.iter_mut().enumerate() {
            ui.checkbox(&mut e.rally, format!("{} (CMS {})", e.name, e.cms)).on_hover_text("Nominate for rallying");
            egui::ComboBox::from_id_salt(("activity", company, k))
                .selected_text(words(&format!("{:?}", e.order.activity)))
                .show_ui(ui, |ui| {
                    for a in activities() {
                        ui.selectable_value(&mut e.order.activity, a, words(&format!("{a:?}")));
                    }
                });
            egui::ComboBox::from_id_salt(("place", company, k)).selected_text(e.order.location.clone()).show_ui(
                ui,
                |ui| {
                    for p in places {
                        ui.selectable_value(&mut e.order.location, p.clone(), p);
                    }
                },
            );
            if matches!(e.order.activity, Activity::Support | Activity::Engineering) {
                ui.add(egui::TextEdit::singleline(&mut e.order.detail).hint_text("whom / what").desired_width(90.0));
            } else {
                ui.label("");
            }
            if let Err(err) = e.order.objective() {
                problem = Some(format!("FYOB, Orders & Objectives: {}: {err}", e.name));
            }
            ui.end_row();
        }
    });
    ui.data_mut(|d| d.insert_temp(id, draft.clone()));
    let orders: Vec<ElementOrder> = draft
        .iter()
        .zip(elements)
        .filter(|(now, before)| now.order != before.order)
        .map(|(now, _)| ElementOrder { element: now.id.clone(), order: now.order.clone() })
        .collect();
    let rally: Vec<String> = draft.iter().filter(|e| e.rally).map(|e| e.id.clone()).collect();
    let give = ui.add_enabled(
        problem.is_none(),
        egui::Button::new(format!("Give {} new order(s), rally {}", orders.len(), rally.len())),
    );
    let give = match &problem {
        Some(why) => give.on_disabled_hover_text(why),
        None => give,
    };
    if give.clicked() {
        answer = Some(Answer::Give(Command::Command { company: company.to_owned(), orders, rally }));
    }
    if ui.button("Carry on").on_hover_text("Orders stand; the program nominates the lowest for rallying").clicked() {
        answer = Some(Answer::Give(carry_on.clone()));
    }
    answer
}

/// The end of the battle in words: who won and what decided it.
pub fn result_words(r: &crate::battle::setup::BattleResult) -> String {
    use crate::battle::setup::Decision as Decided;
    let why = match r.decided_by {
        Decided::Withdrawal => "a side withdrew at Red (FYOB \"Strategic Condition at Red\")",
        Decided::Surrender => "a side has nothing left on the table or able to come on",
        Decided::Objective => "a side achieved its goals",
        Decided::TimeLimit => "the time limit came; the goals held decided",
        Decided::Stopped => "stopped before its end",
        Decided::Paused => {
            return format!("The battle pauses after {} bounds: the campaign's session is over.", r.bounds_played);
        }
    };
    match r.winner.and_then(|w| r.sides.get(w)) {
        Some(side) => format!("The battle is over after {} bounds: {} wins — {why}.", r.bounds_played, side.name),
        None => format!("The battle is over after {} bounds: a draw — {why}.", r.bounds_played),
    }
}

#[allow(clippy::too_many_arguments)]
fn orders_window(
    mut contexts: EguiContexts,
    (waiting, dice, mut selected, mut die_move): (Res<Waiting>, Res<DiceWaiting>, ResMut<Selected>, ResMut<DieMove>),
    battle: Res<Battle>,
    elements: Query<FieldedReadOnly>,
    mut inbox: ResMut<Inbox>,
    mut click: ResMut<TableClick>,
) {
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let demo = !battle.start.control.contains(&crate::battle::setup::Control::Player);
    let idle = match &battle.result {
        Some(r) => result_words(r),
        None if demo => "A demonstration: the program plays both sides.".to_owned(),
        None => "The enemy acts…".to_owned(),
    };
    let at = match &waiting.0 {
        Some(Decision::Act { element, .. }) => {
            elements.iter().find(|f| f.id() == element).map(|f| (f.place.at.0, f.place.at.1))
        }
        _ => None,
    };
    let moving = *click == TableClick::Move;
    let answer = egui::Window::new("Orders")
        .anchor(egui::Align2::RIGHT_BOTTOM, [-10.0, -28.0])
        .default_width(300.0)
        .resizable(false)
        .show(ctx, |ui| match &dice.0 {
            Some(choice) => dice_ui(ui, choice, selected.0.as_deref(), moving && die_move.0.is_some()),
            None => orders_ui(ui, waiting.0.as_ref(), &idle, moving, at),
        })
        .and_then(|r| r.inner.flatten());
    match answer {
        Some(Answer::Give(cmd)) => {
            inbox.0.push_back(cmd);
            *click = TableClick::Select;
            die_move.0 = None;
        }
        Some(Answer::ToggleMove) => {
            *click = if moving { TableClick::Select } else { TableClick::Move };
        }
        Some(Answer::Select(element)) => selected.0 = Some(element),
        Some(Answer::DieMove(element, die)) => {
            let again = moving && die_move.0.as_ref().is_some_and(|(e, d)| *e == element && *d == die);
            *click = if again { TableClick::Select } else { TableClick::Move };
            die_move.0 = (!again).then_some((element, die));
        }
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use egui_kittest::{Harness, kittest::Queryable};

    use super::*;

    #[test]
    fn the_end_of_a_battle_names_the_winner_and_what_decided_it() {
        let scenario = crate::data::load_scenario("patrol").unwrap().scenario;
        let start = crate::battle::setup::BattleStart::auto("patrol", scenario, 3);
        let mut app = crate::battle::battle_app(start, Default::default()).unwrap();
        for _ in 0..2_000 {
            app.update();
            if crate::battle::play::is_over(app.world()) {
                break;
            }
        }
        let r = app.world().resource::<Battle>().result.clone().expect("the patrol ends");
        let words = result_words(&r);
        assert!(words.contains(&format!("after {} bounds", r.bounds_played)), "{words}");
        match r.winner {
            Some(w) => assert!(words.contains(&format!("{} wins", r.sides[w].name)), "{words}"),
            None => assert!(words.contains("a draw"), "{words}"),
        }
    }
    use crate::battle::options::Offer;

    fn decision() -> Decision {
        let element = "1_section".to_owned();
        Decision::Act {
            element: element.clone(),
            name: "1 Section".into(),
            orders: "Order Die: Fire; taken: nothing yet".into(),
            pending: None,
            move_refused: Some("HA, Order Dice: the Order Die allows no move".into()),
            offers: vec![
                Offer {
                    label: "Observe (an Act)".into(),
                    command: Command::Observe { element: element.clone(), targets: Vec::new() },
                    refused: Some("HA, Observation: nothing in view".into()),
                    chance: None,
                    expected: None,
                },
                Offer {
                    label: "Fire at 1. Gruppe (2 teams in range: 9 shots, 64% to hit, 1.0 hits expected)".into(),
                    command: Command::Fire { element: element.clone(), target: "gruppe_1".into() },
                    refused: None,
                    chance: Some(0.64),
                    expected: Some(1.0),
                },
                Offer::new("End the turn", Command::EndTurn { element }),
            ],
        }
    }

    fn harness(d: Decision) -> Harness<'static, Option<Answer>> {
        Harness::new_ui_state(
            move |ui, answer: &mut Option<Answer>| {
                if let Some(a) = orders_ui(ui, Some(&d), "", false, Some((10.0, 2.0))) {
                    *answer = Some(a);
                }
            },
            None,
        )
    }

    #[test]
    fn clicking_an_offer_gives_its_command() {
        let mut h = harness(decision());
        // The element is headed by its name, not its id.
        h.get_by_label("1 Section");
        h.get_by_label("Fire at 1. Gruppe (2 teams in range: 9 shots, 64% to hit, 1.0 hits expected)").click();
        h.run();
        assert_eq!(
            h.state(),
            &Some(Answer::Give(Command::Fire { element: "1_section".into(), target: "gruppe_1".into() }))
        );
    }

    #[test]
    fn a_refused_command_cannot_be_given() {
        let mut h = harness(decision());
        h.get_by_label("Observe (an Act)").click();
        h.get_by_label("Move…").click();
        h.run();
        assert_eq!(h.state(), &None, "the Observe and the Move the rules refuse give nothing");
        h.get_by_label("End the turn").click();
        h.run();
        assert_eq!(h.state(), &Some(Answer::Give(Command::EndTurn { element: "1_section".into() })));
    }

    #[test]
    fn a_thrown_move_can_go_the_full_distance() {
        let Decision::Act { element, name, orders, offers, .. } = decision() else { unreachable!() };
        let pending = Some(crate::battle::state::PendingMove { to: (10.0, 12.0), allowance: 4.0 });
        let mut h = harness(Decision::Act { element, name, orders, pending, move_refused: None, offers });
        h.get_by_label("Go the full distance").click();
        h.run();
        assert_eq!(h.state(), &Some(Answer::Give(Command::MoveTo { element: "1_section".into(), to: (10.0, 6.0) })));
    }

    fn dice_choice() -> HotseatChoice {
        use crate::battle::{
            command::DieAction,
            hotseat::{DieOffer, DieTaker},
        };
        let taker = |id: &str, name: &str, used, halted| DieTaker {
            id: id.into(),
            name: name.into(),
            used,
            halted,
            morale_throws: 0,
        };
        HotseatChoice {
            player: 1,
            side: "Kampfgruppe".into(),
            dice: vec![(0, 1), (2, 2)],
            elements: vec![taker("g1", "1. Gruppe", 0, false), taker("g2", "2. Gruppe", 0, true)],
            offers: vec![
                DieOffer {
                    label: "die 1 (a 1): fire at 2 Section: 9 shots, 64% to hit, 1.0 hits expected".into(),
                    command: Command::Die {
                        element: "g1".into(),
                        die: 0,
                        action: DieAction::Fire { target: "2_section".into() },
                        sixes: vec![],
                    },
                    refused: None,
                },
                DieOffer {
                    label: "die 1 (a 1): fire at 3 Section".into(),
                    command: Command::Die {
                        element: "g1".into(),
                        die: 0,
                        action: DieAction::Fire { target: "3_section".into() },
                        sixes: vec![],
                    },
                    refused: Some("HA, Weapons table: 3_section is out of range".into()),
                },
            ],
            rerolls: vec![],
            pass: Command::Pass { player: 1 },
        }
    }

    #[test]
    fn the_hotseat_window_gives_a_die_selects_an_element_and_passes() {
        let mut h = Harness::new_ui_state(
            |ui, answer: &mut Option<Answer>| {
                if let Some(a) = dice_ui(ui, &dice_choice(), Some("g1"), false) {
                    *answer = Some(a);
                }
            },
            None,
        );
        h.get_by_label("die 1 (a 1): fire at 3 Section").click();
        h.run();
        assert_eq!(h.state(), &None, "a refused die gives nothing");
        h.get_by_label("die 1 (a 1): fire at 2 Section: 9 shots, 64% to hit, 1.0 hits expected").click();
        h.run();
        assert!(matches!(h.state(), Some(Answer::Give(Command::Die { die: 0, .. }))), "{:?}", h.state());
        h.get_by_label("die 3 (a 2): move… (click the table)").click();
        h.run();
        assert_eq!(h.state(), &Some(Answer::DieMove("g1".into(), 2)));
        h.get_by_label("2. Gruppe (no action this bound)").click();
        h.run();
        assert_eq!(h.state(), &Some(Answer::Select("g2".into())));
        h.get_by_label("Done with my Command Dice").click();
        h.run();
        assert_eq!(h.state(), &Some(Answer::Give(Command::Pass { player: 1 })));
    }
}
