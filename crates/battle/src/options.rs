//! What the person at the screen may order now: the decision the flow waits
//! for and, for an element acting on its Order Die, each command with the
//! rule's answer beside it, checked by the very function that checks a
//! command when it is given ([`super::check::check`]).

pub use super::firing::{FireOdds, Stance, fire_odds};
use super::{
    check::check,
    command::{Command, Pace},
    play::waiting_for_player,
    state::{Battle, Elements, FieldedReadOnly, Flow, PendingMove, Roster, Sides, Status},
    visible::Sight,
};
use crate::prelude::*;
use warbound_rules::{
    explosives::ChargeKind,
    opc::{OpcError, OrtResult},
    order_dice::Phase,
};

/// Enemies this near are offered to assault (no Movement Dice reach further).
const ASSAULT_OFFERED: f32 = 24.0;

/// One command on offer and, if the rules refuse it now, why.
#[derive(Debug, Clone, PartialEq)]
pub struct Offer {
    pub label: String,
    pub command: Command,
    /// The rule and reason it is refused, or `None` when it may be given.
    pub refused: Option<String>,
    /// The chance its test or throw succeeds (a hit, a target seen, the fight
    /// won, the charge fired), from the rules core function the step throws
    /// by; `None` where it throws no die.
    pub chance: Option<f64>,
    /// What it is expected to bring, where that is a count (hits, targets seen).
    pub expected: Option<f64>,
}

impl Offer {
    /// A command on offer, not yet checked, without odds.
    pub fn new(label: impl Into<String>, command: Command) -> Self {
        Self { label: label.into(), command, refused: None, chance: None, expected: None }
    }

    /// The same offer with its odds.
    fn odds(self, chance: Option<f64>, expected: Option<f64>) -> Self {
        Self { chance, expected, ..self }
    }
}

/// The decision the flow waits for.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// An element acts on its Order Die: move (click the table), fire, observe, end its turn.
    Act {
        element: String,
        /// The element as the player reads it.
        name: String,
        /// The Order Die and the phases taken so far, in words.
        orders: String,
        /// Movement Dice thrown for a declared route: stop anywhere up to the score.
        pending: Option<PendingMove>,
        /// Why a move may not be declared now (the Order Die, a move taken).
        move_refused: Option<String>,
        offers: Vec<Offer>,
    },
    /// A Company Officer's command turn: `command` carries on as the Auto
    /// CO would (orders stand, the lowest rallied); `elements` are his to
    /// give new orders and to nominate for rallying.
    CoTurn {
        company: String,
        /// The company as the player reads it.
        name: String,
        command: Command,
        elements: Vec<CoElement>,
        /// The places on the table an order may name.
        places: Vec<String>,
        /// His rallying throws this turn (FYOB: a 6 adds 1, at most 2 a bound).
        rally_throws: usize,
    },
    /// The Senior Officer's session: the reserves he may commit, with the
    /// chance of the one Leadership Test for all, and the general withdrawal
    /// (offered at Red, refused otherwise with the rule).
    Session {
        side: usize,
        /// The side as the player reads it.
        name: String,
        keep: Command,
        commit_all: Option<Command>,
        /// Each reserve fit to commit: id, name, CMS.
        reserves: Vec<(String, String, u8)>,
        /// The chance his Leadership Test commits them.
        chance: f64,
        withdraw: Box<Offer>,
    },
    /// An NCO Seized the Initiative: act now as ordered, or swap his card
    /// with a friendly element yet to act.
    Seize { element: String, name: String, command: Command, swaps: Vec<Offer> },
}

/// One element under a Company Officer in his command turn.
#[derive(Debug, Clone, PartialEq)]
pub struct CoElement {
    pub id: String,
    pub name: String,
    pub cms: u8,
    /// Its order now.
    pub order: warbound_rules::scenario::Order,
    /// Nominated for rallying as the Auto CO would (below the full CMS, lowest first).
    pub rally: bool,
}

/// The decision waiting for the person at the screen, if the flow waits for one.
pub fn decision(world: &mut World) -> Option<Decision> {
    if !waiting_for_player(world) {
        return None;
    }
    let flow = world.get_resource::<Flow>()?.clone();
    let mut q = world.query::<FieldedReadOnly>();
    let roster = world.get_resource::<Roster>()?;
    let all = Elements::new(q.iter(world).map(|f| f.view()).collect(), roster);
    let battle = world.get_resource::<Battle>()?;
    let sides = world.get_resource::<Sides>()?;
    let names = world.get_resource::<super::names::Names>()?;
    match flow {
        Flow::Acting(turn) => {
            let me = all.get(&turn.element).copied()?;
            let codex = &world.get_resource::<super::BattleCodex>()?.0;
            let sight = Sight::new(battle, codex);
            let aircraft = super::air::over_table(sides);
            let element = me.id().to_owned();
            let mut commands: Vec<Offer> = Vec::new();
            // Observe: what the Auto side would observe in its place: the
            // enemy in the open and the counters of the concealed, which he
            // sees on the table; never a concealed element where it stands.
            let targets = super::auto::observe_targets(&me, &all, &sight);
            // The chance of each test from the rules core, before the dice (the
            // targets unnamed: the player has not seen them yet).
            let chances: Vec<f64> = targets
                .iter()
                .filter_map(|t| super::observation::chance_to_observe(&sight, &me, &all, t, turn.failures))
                .collect();
            let words: Vec<String> = chances.iter().map(|p| format!("{:.0}%", p * 100.0)).collect();
            let label = match chances.len() {
                0 => "Observe (an Act)".to_owned(),
                1 => format!("Observe (an Act): 1 test, {} to see", words[0]),
                n => format!("Observe (an Act): {n} tests, {} to see", words.join(" and ")),
            };
            // One test: its chance; several: the targets expected to be seen.
            let (one, seen) = match chances.as_slice() {
                [] => (None, None),
                [p] => (Some(*p), Some(*p)),
                ps => (None, Some(ps.iter().sum())),
            };
            commands.push(Offer::new(label, Command::Observe { element: element.clone(), targets }).odds(one, seen));
            // FYOB "Placement options": an Act extracts a concealed element,
            // declared real at the counter its owner chooses.
            for (counter, at) in me.concealment.counters() {
                commands.push(Offer::new(
                    format!("Extract from concealment at counter {counter} ({:.0}, {:.0}) (an Act)", at.0, at.1),
                    Command::Extract { element: element.clone(), counter },
                ));
            }
            // Fire: each known enemy it may fire at, with the teams in range.
            for e in all.iter().copied().filter(|e| e.identity.side != me.identity.side && e.presence.status.on_table())
            {
                if me.intel.known.contains(e.id()) || sides.0[me.identity.side].known.contains(e.id()) {
                    let teams = sight.teams_in_range(&me, &e).len();
                    // The odds from the rules core, before the dice.
                    // A second shot from the same position counts as the volley counts it.
                    let assess = |aimed| fire_odds(&sight, &me, &e, Stance::of(&turn, aimed));
                    let odds = |o: Option<FireOdds>| match o {
                        Some(o) => format!(
                            ": {} shots, {:.0}% to hit, {:.1} hits expected",
                            o.shots,
                            o.at_least_one_hit * 100.0,
                            o.expected_hits
                        ),
                        None => String::new(),
                    };
                    let numbers = |o: Option<FireOdds>| (o.map(|o| o.at_least_one_hit), o.map(|o| o.expected_hits));
                    let s = if teams == 1 { "" } else { "s" };
                    let plain = assess(false);
                    let label = format!("Fire at {} ({teams} team{s} in range{})", names.name(e.id()), odds(plain));
                    let (hit, hits) = numbers(plain);
                    commands.push(
                        Offer::new(label, Command::Fire { element: element.clone(), target: e.id().to_owned() })
                            .odds(hit, hits),
                    );
                    // An Act to aim an AT/HE shot, then fire (FYOB "Act", (iv)).
                    if super::firing::aim_counts(&sight, &me, &e, turn.failures) {
                        let aimed = assess(true);
                        let label = format!(
                            "Aim (an Act), then fire at {} ({teams} team{s} in range{})",
                            names.name(e.id()),
                            odds(aimed)
                        );
                        let (hit, hits) = numbers(aimed);
                        commands.push(
                            Offer::new(
                                label,
                                Command::AimedFire { element: element.clone(), target: e.id().to_owned() },
                            )
                            .odds(hit, hits),
                        );
                    }
                    // Assault: a known enemy in a building or a vehicle within
                    // a move, or a lone enemy for a lone man.
                    let d = warbound_rules::geometry::distance(me.place.at, e.place.at).get();
                    if super::assault::assailable(&sight, &me, &e) && d <= ASSAULT_OFFERED {
                        let to_contact = (d - super::shared::CONTACT).max(0.0);
                        // The exact chance of winning a fight 1-on-1, from the rules core.
                        let win = super::assault::one_on_one(&me, &e)
                            .then(|| warbound_rules::assault::one_on_one_odds(me.force.fire_and_cm_quality()));
                        let label = if let Some(odds) = win {
                            let approach = if to_contact > 0.0 {
                                format!("{to_contact:.1}\" to contact: a stealth move, then")
                            } else {
                                "in contact:".to_owned()
                            };
                            format!(
                                "Assault {} 1-on-1 ({approach} {:.0}% to win the fight)",
                                names.name(e.id()),
                                odds * 100.0
                            )
                        } else if to_contact > 0.0 {
                            format!(
                                "Assault {} ({to_contact:.1}\" to contact: Move, then the assault)",
                                names.name(e.id())
                            )
                        } else {
                            format!("Assault {} (in contact)", names.name(e.id()))
                        };
                        commands.push(
                            Offer::new(label, Command::Assault { element: element.clone(), target: e.id().to_owned() })
                                .odds(win, None),
                        );
                    }
                    // Its petard at the building the enemy holds (Heroes All,
                    // "Petard type mortars"): 2+ to hit, column F doubled, and
                    // doubled again on the building.
                    if super::demolition_vehicles::has_petard(&me, codex) {
                        let hit = warbound_rules::assault::petard_hit_chance();
                        let label = format!(
                            "Fire the petard at {}'s building ({:.0}% to hit: column F doubled, doubled again on the building)",
                            names.name(e.id()),
                            hit * 100.0
                        );
                        commands.push(
                            Offer::new(label, Command::Petard { element: element.clone(), target: e.id().to_owned() })
                                .odds(Some(hit), None),
                        );
                    }
                    // A Goliath detonated against what it is in contact with
                    // (Heroes All, "Goliath").
                    if super::demolition_vehicles::is_goliath(&me) {
                        let mut harm = None;
                        let odds = if e.force.build.is_vehicle() {
                            let armour = match e.force.build {
                                super::state::Build::Afv { armour, .. } => armour,
                                _ => warbound_rules::effects::ArmourClass::SoftSkinned,
                            };
                            let front = warbound_rules::effects::at_odds(
                                warbound_rules::assault::GOLIATH_ATTACK,
                                armour,
                                warbound_rules::effects::Facing::Front,
                            );
                            let p = 1.0 - front[0];
                            harm = Some(p);
                            format!("Attack Value +11: {:.0}% to damage or brew from the front", p * 100.0)
                        } else {
                            "column F doubled".to_owned()
                        };
                        let label = format!(
                            "Detonate the Goliath against {} (an Act; {odds}; the Goliath is lost)",
                            names.name(e.id())
                        );
                        commands.push(
                            Offer::new(label, Command::Goliath { element: element.clone(), target: e.id().to_owned() })
                                .odds(harm, None),
                        );
                    }
                    // Smoke on its position from the guns and mortars that reach it
                    // (Heroes All, "Firing smoke").
                    let smoke = super::smoke::reach(&me, e.place.at, codex);
                    if !smoke.is_empty() {
                        let s = if smoke.len() == 1 { "" } else { "s" };
                        let label = format!(
                            "Fire smoke on {}'s position ({} team{s}: +2 to hit, 3 smokeballs for 2 bounds)",
                            names.name(e.id()),
                            smoke.len()
                        );
                        let at = (e.place.at.0, e.place.at.1);
                        commands.push(Offer::new(label, Command::Smoke { element: element.clone(), at }));
                    }
                }
            }
            // A move at another pace towards where its orders take it: the
            // table click gives a normal move anywhere.
            let enemies: Vec<_> = all
                .iter()
                .copied()
                .filter(|e| e.identity.side != me.identity.side && e.presence.status.on_table())
                .collect();
            let destination = super::auto::order_destination(&me, &enemies, &sight);
            if let Some(to) = destination {
                commands.push(Offer::new(
                    format!(
                        "Move at the double towards ({:.0}, {:.0}): twice the dice, then no fire and no Act",
                        to.0, to.1
                    ),
                    Command::Move { element: element.clone(), to: (to.0, to.1), pace: Pace::AtTheDouble },
                ));
                commands.push(Offer::new(
                    format!("Move by stealth towards ({:.0}, {:.0}): 1D6 (2D6 elite), not marked as moved", to.0, to.1),
                    Command::Move { element: element.clone(), to: (to.0, to.1), pace: Pace::Stealth },
                ));
            }
            // The places of enemies it lost track of, to check.
            for (id, at) in &me.intel.last_seen {
                commands.push(Offer::new(
                    format!("Check whether {} has left ({:.0}, {:.0}) (an Act)", names.name(id), at.0, at.1),
                    Command::CheckVacated { element: element.clone(), enemy: id.clone() },
                ));
            }
            // FYOB "Runners": without a working radio, news goes and comes by runner.
            if let Some(news) = turn.runner {
                let label = if news {
                    "Send a runner to the Company Officer (an Act, a Leadership Test): news to pass or to hear"
                } else {
                    "Send a runner to the Company Officer (an Act, a Leadership Test): nothing new either way"
                };
                commands.push(Offer::new(label, Command::Runner { element: element.clone() }));
            }
            // FYOB "Radios": a set knocked off the net by a hit is netted in again with an Act.
            if me.force.off_net.as_ref().is_some_and(|n| !n.dis) {
                let nation = &sides.0[me.identity.side].nation;
                let needed = warbound_rules::strategic::radio_target(nation);
                let chance = warbound_rules::strategic::radio_test_odds(nation);
                commands.push(
                    Offer::new(
                        format!(
                            "Net its radio in again (an Act, a Radio Test: {needed}+ on a D10, {:.0}%)",
                            chance * 100.0
                        ),
                        Command::Renet { element: element.clone() },
                    )
                    .odds(Some(chance), None),
                );
            }
            if sight.immobile(&me) {
                let (label, up) = if me.actions.set_up {
                    ("Take down its weapons (an Act; then it may move)", false)
                } else {
                    ("Set up its weapons (an Act; it fires from next turn)", true)
                };
                commands.push(Offer::new(label, Command::SetUp { element: element.clone(), up }));
            }
            // Heroes All, "Repairing roads and bridges", in contact with a damaged bridge.
            if let Ok(k) = super::bridging::mendable(&me, &turn, battle) {
                let b = &battle.bridges[k].bridge;
                commands.push(Offer::new(
                    format!(
                        "Mend the bridge, {} of its Defence Value lost (its whole bound: each 6 thrown mends a point)",
                        b.damage()
                    ),
                    Command::Repair { element: element.clone() },
                ));
            }
            // Heroes All, "Setting fire to buildings", where it stands in a building.
            if sight.in_building(me.place.at) && !me.force.build.is_vehicle() {
                commands.push(Offer::new(
                    "Set fire to this building (an Act and its whole bound: it takes hold next bound on 2+, burns 3 bounds and smokes)",
                    Command::SetFire { element: element.clone() },
                ).odds(Some(warbound_rules::buildings::fire_takes_hold_chance()), None));
            }
            // Heroes All, "Guards": a posted guard is re-faced by its NCO's
            // Leadership Test (no Act; once a bound).
            if let (Some(guard), Some(nco)) = (me.order.posted(), me.force.element.nco) {
                let chance = warbound_rules::officer::leadership_chance(nco);
                for to in warbound_rules::movement::Compass::ALL.into_iter().filter(|&c| c != guard.facing) {
                    commands.push(
                        Offer::new(
                            format!(
                                "Re-face the guard to the {} (its NCO's Leadership Test, {:.0}%; no Act)",
                                to.name(),
                                chance * 100.0
                            ),
                            Command::ReFace { element: element.clone(), to },
                        )
                        .odds(Some(chance), None),
                    );
                }
            }
            for o in aircraft.iter().filter(|o| o.side != me.identity.side) {
                commands.push(Offer::new(
                    format!("Fire at the aircraft, {}", names.name(&o.squadron)),
                    Command::FireAa { element: element.clone(), squadron: o.squadron.clone() },
                ));
            }
            // Heroes All, "Transport elements": get out of the transport it
            // rides in, or into an empty one of its side in contact (an Act).
            if let Some(v) = me.presence.status.aboard().and_then(|k| all[..].get(k)) {
                commands.push(Offer::new(
                    format!("Get out of {} (an Act)", names.name(v.id())),
                    Command::Disembark { element: element.clone() },
                ));
            }
            for v in all.iter().filter(|v| {
                v.identity.side == me.identity.side
                    && v.force.transport() == Some(None)
                    && v.presence.status.on_table()
                    && !me.force.build.is_vehicle()
            }) {
                commands.push(Offer::new(
                    format!("Get into {} (an Act)", names.name(v.id())),
                    Command::Embark { element: element.clone(), transport: v.id().to_owned() },
                ));
            }
            // Heroes All, "Rivers": men on foot at the water's edge get in or
            // out with an Act, on the way their orders take them.
            if let Some(to) = destination {
                let way = if me.place.mover.in_water { "Get out of" } else { "Wade into" };
                commands.push(Offer::new(
                    format!("{way} the river towards ({:.0}, {:.0}) (an Act)", to.0, to.1),
                    Command::Wade { element: element.clone(), to: (to.0, to.1) },
                ));
                // Heroes All, "Boats": an element with river craft gets into
                // them at the water's edge with an Act.
                if let Some(boats) = me.place.boats.filter(|_| !me.place.afloat()) {
                    commands.push(Offer::new(
                        format!(
                            "Get into its {} towards ({:.0}, {:.0}) (an Act)",
                            boats_words(boats.carried),
                            to.0,
                            to.1
                        ),
                        Command::Launch { element: element.clone(), to: (to.0, to.1) },
                    ));
                }
            }
            // Heroes All, "Explosives": its side's charges set for the
            // detonation pack, 2+ on a D6 to fire one (a failure kills it).
            for d in battle.charges.iter().filter(|d| {
                d.side == me.identity.side
                    && d.charge.state == warbound_rules::explosives::ChargeState::Set
                    && d.charge.kind.needs_pack()
            }) {
                let chance = warbound_rules::explosives::detonation_chance(d.charge.kind);
                let label = format!(
                    "Detonate the charge at the {} (an Act, the detonation pack: {:.0}% it goes off)",
                    d.target,
                    chance * 100.0
                );
                commands.push(
                    Offer::new(label, Command::Detonate { element: element.clone(), charge: d.id.clone() })
                        .odds(Some(chance), None),
                );
            }
            // An enemy charge found by its side, lifted in contact with both Acts.
            for d in battle.charges.iter().filter(|d| d.side != me.identity.side && d.live() && d.found) {
                commands.push(Offer::new(
                    format!("Lift the enemy charge at the {} (both Acts)", d.target),
                    Command::Clear { element: element.clone(), charge: d.id.clone() },
                ));
            }
            // Heroes All, "Explosives": the charges its men carry, set on the
            // bridge in contact for the whole turn; a Bangalore Torpedo with
            // both Acts into the wire or wall 2" ahead, on its way.
            let carried = |k: ChargeKind| me.force.explosives.iter().filter(|&&c| c == k).count();
            if let Some(to) = destination
                && carried(ChargeKind::Bangalore) > 0
            {
                commands.push(Offer::new(
                    format!(
                        "Blow a gap in the wire or wall ahead with a Bangalore Torpedo (both Acts; {} carried)",
                        carried(ChargeKind::Bangalore)
                    ),
                    Command::Bangalore { element: element.clone(), toward: (to.0, to.1) },
                ));
            }
            for kind in [ChargeKind::Small, ChargeKind::Large] {
                if carried(kind) == 0 {
                    continue;
                }
                let delays = (0..=3).chain((kind.max_delay() > 3).then_some(kind.max_delay()));
                for delay in delays {
                    let when = match delay {
                        0 if kind.needs_pack() => "for the detonation pack".to_owned(),
                        0 => "to go off now, on its setters too".to_owned(),
                        1 => "to go off after 1 bound".to_owned(),
                        n => format!("to go off after {n} bounds"),
                    };
                    commands.push(Offer::new(
                        format!("Set a {} on the bridge {when} (the whole turn)", super::demolition::charge_name(kind)),
                        Command::SetCharge { element: element.clone(), kind, delay },
                    ));
                }
            }
            let label = if super::bridging::is_layer(&me, sight.codex) {
                "Lay its bridge (an Act: a D10 a bound, laid at 6)"
            } else {
                "Build the bridge (the whole turn)"
            };
            commands.push(Offer::new(label, Command::Bridge { element: element.clone() }));
            commands.push(Offer::new(
                "Clear the minefield (the whole turn)",
                Command::ClearMines { element: element.clone() },
            ));
            commands.push(Offer::new("End the turn", Command::EndTurn { element: element.clone() }));
            let mut offers: Vec<Offer> = commands
                .into_iter()
                .map(|mut o| {
                    o.refused =
                        check(&o.command, &turn, &all, &sight, battle, &aircraft).err().map(|r| refusal_text(&r));
                    o
                })
                .collect();
            // Whole-turn works, wading and lifting are offered only where they apply.
            offers.retain(|o| {
                o.refused.is_none()
                    || !matches!(
                        o.command,
                        Command::Bridge { .. }
                            | Command::ClearMines { .. }
                            | Command::Wade { .. }
                            | Command::Launch { .. }
                            | Command::Embark { .. }
                            | Command::Clear { .. }
                            | Command::SetCharge { .. }
                            | Command::Bangalore { .. }
                    )
            });
            // FYOB "Order Dice scores": the ordered phase is "the first activity
            // undertaken"; the element may do without it, but another phase
            // taken first gives it up for the bound. Said on each offer that would.
            let ordered = turn.orders.order;
            let pending_order = !turn.taken.contains(&ordered);
            for o in offers.iter_mut().filter(|o| o.refused.is_none() && pending_order) {
                if phase_of(&o.command).is_some_and(|p| p != ordered) {
                    o.label.push_str(&format!(" (gives up the {})", phase_word(ordered)));
                }
            }
            let mut orders = format!(
                "Order Die: {:?}; taken: {}",
                turn.orders.order,
                if turn.taken.is_empty() {
                    "nothing yet".to_owned()
                } else {
                    turn.taken.iter().map(|p| format!("{p:?}")).collect::<Vec<_>>().join(", ")
                }
            );
            if pending_order && turn.taken.is_empty() {
                orders.push_str(&format!(
                    ". The {0} comes first: do another first and the {0} is given up this bound.",
                    phase_word(ordered)
                ));
            }
            // A move that goes nowhere tells whether a move may be declared at
            // all this turn (a declared route is checked when declared: pinned,
            // it may not lead towards the enemy).
            let step =
                Command::Move { element: element.clone(), to: (me.place.at.0, me.place.at.1), pace: Pace::Normal };
            let move_refused = check(&step, &turn, &all, &sight, battle, &aircraft).err().map(|r| refusal_text(&r));
            let name = names.name(&element);
            Some(Decision::Act { element, name, orders, pending: turn.pending_move, move_refused, offers })
        }
        Flow::CoTurn { side, company, .. } => {
            let c = &sides.0[side].companies[company];
            // As the Auto CO: his elements below the full CMS, lowest first,
            // those on the table before those back in the box.
            let mut low: Vec<(bool, u8, String)> = all
                .iter()
                .filter(|f| f.identity.side == side && f.identity.company == company)
                .filter(|f| matches!(f.presence.status, Status::OnTable | Status::Retired))
                .filter(|f| f.force.element.cms < warbound_rules::momentum::MAX_CMS)
                .map(|f| (f.presence.status == Status::Retired, f.force.element.cms, f.id().to_owned()))
                .collect();
            low.sort();
            let rally: Vec<String> = low.into_iter().map(|(.., id)| id).collect();
            let elements = all
                .iter()
                .filter(|f| f.identity.side == side && f.identity.company == company)
                .filter(|f| matches!(f.presence.status, Status::OnTable | Status::Retired | Status::Reserve))
                .map(|f| CoElement {
                    id: f.id().to_owned(),
                    name: names.name(f.id()),
                    cms: f.force.element.cms,
                    order: warbound_rules::scenario::Order {
                        activity: f.order.objective.activity,
                        location: f.order.objective.location.clone(),
                        detail: f.order.objective.detail.clone(),
                    },
                    rally: rally.iter().any(|id| id == f.id()),
                })
                .collect();
            let places = battle.start.scenario.places.iter().map(|p| p.name.clone()).collect();
            let rationed = battle.start.scenario.sides[side].rationed;
            let rally_throws = warbound_rules::momentum::rally_throws(c.co, rationed);
            let command = Command::Command { company: c.id.clone(), orders: Vec::new(), rally };
            let name = names.name(&c.id);
            Some(Decision::CoTurn { company: c.id.clone(), name, command, elements, places, rally_throws })
        }
        Flow::Session { side } => {
            let keep = Command::Session { side, commit: Vec::new(), objectives: Vec::new(), withdraw: false };
            let reserves: Vec<String> = all
                .iter()
                .filter(|f| f.identity.side == side && f.presence.status.committable(f.force.element.cms))
                .map(|f| f.id().to_owned())
                .collect();
            let listed = reserves
                .iter()
                .filter_map(|id| all.get(id).map(|f| (id.clone(), names.name(id), f.force.element.cms)))
                .collect();
            let commit_all = (!reserves.is_empty()).then(|| Command::Session {
                side,
                commit: reserves,
                objectives: Vec::new(),
                withdraw: false,
            });
            let chance = warbound_rules::officer::leadership_chance(sides.0[side].senior);
            let withdraw = Box::new(Offer {
                refused: super::start_bound::withdrawal_refused(&sides.0[side]).map(|r| refusal_text(&r)),
                ..Offer::new(
                    "Order a general withdrawal: the battle is lost",
                    Command::Session { side, commit: Vec::new(), objectives: Vec::new(), withdraw: true },
                )
            });
            let name = sides.0[side].name.clone();
            Some(Decision::Session { side, name, keep, commit_all, reserves: listed, chance, withdraw })
        }
        Flow::Seize { element } => {
            let command = Command::Seize { element: element.clone(), swap_with: None };
            // FYOB "Taking an Officer Reaction Test": his card swapped with a
            // friendly element's yet to act, checked by the deck's own rule.
            let side = all.get(&element).map(|f| f.identity.side);
            let swaps = battle
                .deck
                .as_ref()
                .map(|deck| {
                    deck.order()
                        .into_iter()
                        .filter(|id| *id != element && all.get(id).is_some_and(|f| Some(f.identity.side) == side))
                        .filter_map(|id| {
                            let mut tried = deck.clone();
                            let done = tried.seize_initiative(&element, OrtResult::SeizesInitiative, id);
                            let refused = match done {
                                Ok(()) => None,
                                Err(e @ OpcError::OtherNation(_)) => {
                                    Some(format!("FYOB, Taking an Officer Reaction Test: {e}"))
                                }
                                Err(_) => return None,
                            };
                            Some(Offer {
                                refused,
                                ..Offer::new(
                                    format!(
                                        "Swap cards with {}: it acts now, {} later on its card",
                                        names.name(id),
                                        names.name(&element)
                                    ),
                                    Command::Seize { element: element.clone(), swap_with: Some(id.to_owned()) },
                                )
                            })
                        })
                        .collect()
                })
                .unwrap_or_default();
            let name = names.name(&element);
            Some(Decision::Seize { element, name, command, swaps })
        }
        _ => None,
    }
}

/// The phase of the Order Dice a command takes, if it takes one.
fn phase_of(command: &Command) -> Option<Phase> {
    match command {
        Command::Fire { .. } | Command::FireAa { .. } | Command::Petard { .. } => Some(Phase::Fire),
        Command::Move { .. } | Command::MoveTo { .. } => Some(Phase::Move),
        Command::Observe { .. }
        | Command::AimedFire { .. }
        | Command::Extract { .. }
        | Command::CheckVacated { .. }
        | Command::Runner { .. }
        | Command::SetUp { .. }
        | Command::Goliath { .. }
        | Command::Bridge { .. }
        | Command::ClearMines { .. }
        | Command::Wade { .. }
        | Command::Launch { .. }
        | Command::Embark { .. }
        | Command::Disembark { .. }
        | Command::Detonate { .. }
        | Command::Clear { .. }
        | Command::Renet { .. }
        | Command::SetFire { .. }
        | Command::Repair { .. } => Some(Phase::Act),
        _ => None,
    }
}

/// An Order Dice phase as the player reads it.
fn phase_word(p: Phase) -> &'static str {
    match p {
        Phase::Fire => "fire",
        Phase::Move => "move",
        Phase::Act => "act",
    }
}

/// A refusal in words: book, section and reason.
pub(super) fn refusal_text(r: &super::command::Refusal) -> String {
    format!("{}, {}: {}", r.rule.book.abbrev(), r.rule.section, r.reason)
}

/// The point `allowance` inches along the straight route from `from` towards `to`.
pub fn along(from: (f32, f32), to: (f32, f32), allowance: f32) -> (f32, f32) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = (dx * dx + dy * dy).sqrt();
    if length <= allowance || length == 0.0 {
        return to;
    }
    let k = allowance / length;
    (from.0 + dx * k, from.1 + dy * k)
}

/// An element's boats in words: "3 assault boats".
fn boats_words(boats: warbound_rules::boats::RiverBoats) -> String {
    use warbound_rules::boats::RiverCraft;
    let craft = match boats.craft {
        RiverCraft::Canoe => "canoe",
        RiverCraft::RubberBoat => "rubber boat",
        RiverCraft::AssaultBoat => "assault boat",
    };
    if boats.count == 1 { craft.to_owned() } else { format!("{} {craft}s", boats.count) }
}

#[cfg(test)]
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn along_stops_at_the_allowance_or_the_end() {
        assert_eq!(along((0.0, 0.0), (10.0, 0.0), 4.0), (4.0, 0.0));
        assert_eq!(along((0.0, 0.0), (3.0, 4.0), 10.0), (3.0, 4.0));
        let (x, y) = along((0.0, 0.0), (3.0, 4.0), 2.5);
        assert!((x - 1.5).abs() < 1e-5 && (y - 2.0).abs() < 1e-5);
    }
}
