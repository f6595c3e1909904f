//! Setting up the battle from its [`BattleStart`]: elements become entities,
//! NCOs without a grade are rated (FYOB "Rating NCOs and Officers"), the
//! Senior Officers open their record sheets, and concealed elements take
//! their positions.

use std::collections::BTreeSet;

use crate::prelude::*;
use warbound_rules::{
    aircraft::{Aircraft, Schedule},
    artillery::Interdiction,
    buildings::Building,
    codex::Codex,
    command::{Activity, Objective},
    concealment,
    day::WargameClock,
    dice::Dice,
    effects::VehicleState,
    event::{Book, EventKind, RuleEvent, RuleRef},
    explosives::Charge,
    forces::{Element, Role},
    geometry::distance,
    mines::{Minefield, Shape},
    movement::{MoveClass, Mover},
    officer::{self, Grade, Officer, Rank},
    scenario::{CompanySpec, ElementSpec, Side, Start},
    strategic::{self, SeniorOfficerRecord},
    terrain::{Feature, Point},
};

use super::{
    BattleCodex,
    log::BattleLog,
    setup::{BattleStart, Continuation},
    state::Demolition,
    state::{
        Actions, AirCommand, Arrival, BatteryState, Battle, BattleDice, Build, CompanyState, Concealment,
        ElementBundle, Flow, FooState, Force, Identity, Intel, Momentum, Order, Place, Presence, Roster, SideState,
        Sides, SquadronState, Status, Vehicle, point,
    },
};

/// Why the Strategic Milestone is what it is (FYOB "Strategic Milestones").
fn milestone_reason(pct: u32) -> &'static str {
    if pct == warbound_rules::scenario::DEFAULT_MILESTONE {
        "for most armies this will be 10%"
    } else {
        "set by the scenario for a force historically weak or resilient"
    }
}

/// How an element moves: a vehicle as its CODEX row, a gun or CSW team
/// without riflemen as its piece, anyone else on foot.
fn mover(element: &Element, codex: &Codex, quality: officer::Quality) -> Mover {
    let mut class = MoveClass::Infantry;
    for p in &element.pieces {
        let Ok(entry) = codex.get(&p.codex) else { continue };
        match entry.movement {
            Some(m) if entry.kind != warbound_rules::codex::Kind::Weapon => {
                let mut mover = Mover::new(m);
                if let Some(d) = entry.drive {
                    mover.drive = Some(d);
                }
                mover.quality = quality;
                return mover;
            }
            Some(MoveClass::HandMovedGun) => class = MoveClass::HandMovedGun,
            Some(MoveClass::CarriedCsw) if element.figures.is_empty() && class == MoveClass::Infantry => {
                class = MoveClass::CarriedCsw;
            }
            _ => {}
        }
    }
    let mut mover = Mover::new(class);
    mover.quality = quality;
    mover
}

fn fyob(section: &str) -> RuleRef {
    RuleRef::new(Book::FightYourOwnBattles, section)
}

/// Builds every element and both sides' command; returns the entities' data
/// in scenario order and the log of the ratings thrown.
pub fn build(
    start: &BattleStart,
    codex: &Codex,
    dice: &mut Dice,
) -> Result<(Vec<ElementBundle>, Sides, Vec<RuleEvent>), String> {
    let mut fielded = Vec::new();
    let mut sides = Vec::new();
    let mut events = Vec::new();
    for (s, side) in start.scenario.sides.iter().enumerate() {
        let mut companies = Vec::new();
        for (c, company) in side.companies.iter().enumerate() {
            companies.push(company_state(company)?);
            for spec in &company.elements {
                let index = fielded.len() as u16;
                fielded.push(bundle(start, codex, (s, c, index), company, spec, dice, &mut events)?);
            }
        }
        sides.push(side_state(s, side, start, companies, &fielded)?);
    }
    for side in &sides {
        events.push(
            RuleEvent::new(EventKind::StrategicMilestone, fyob("Strategic Condition"))
                .actor(side.name.clone())
                .input("cmt", side.cmt_start, "the CMS of every element that will fight, 6 each")
                .input("milestone_pct", side.record.milestone_pct(), milestone_reason(side.record.milestone_pct()))
                .outcome(serde_json::json!({ "condition": side.record.condition() })),
        );
    }
    Ok((fielded, Sides(sides), events))
}

/// A Company as it stands at the start (or as it joins the battle).
fn company_state(company: &CompanySpec) -> Result<CompanyState, String> {
    let co = Officer::new(Rank::CompanyOfficer, company.officer).map_err(|e| format!("{e:?}"))?;
    let objective = company.objective.as_ref().map(|o| o.objective()).transpose().map_err(|e| e.to_string())?;
    Ok(CompanyState {
        id: company.id.clone(),
        co,
        attached_to: company.attached_to.clone(),
        co_alive: true,
        successor: None,
        objective,
        radio: Default::default(),
        known: Default::default(),
        from_senior_officer: None,
        edge: company.edge,
    })
}

/// Element `spec` of `company`, company `c` of side `s` and the `index`th
/// element of the battle, as it is spawned: its NCO rated if the scenario
/// gives no grade, concealed if the scenario conceals it.
#[allow(clippy::too_many_arguments)]
fn bundle(
    start: &BattleStart,
    codex: &Codex,
    (s, c, index): (usize, usize, u16),
    company: &CompanySpec,
    spec: &ElementSpec,
    dice: &mut Dice,
    events: &mut Vec<RuleEvent>,
) -> Result<ElementBundle, String> {
    let side = &start.scenario.sides[s];
    let mut element = spec.element(codex, &side.nation, side.quality)?;
    if side.rationed {
        element.ration(codex).map_err(|e| e.to_string())?;
    }
    let shots_used = used_today(&mut element, codex, spec.shots_used)?;
    // *Heroes All*, "Transport elements": "Lorries and armoured carriers
    // allocated to transport duties are not given an NCO nor are they
    // rated"; the element it carries rides in it from the start.
    if let Some(passengers) = side.elements().find(|e| e.aboard.as_deref() == Some(spec.id.as_str())) {
        element.role = Role::Transport { carrying: Some(passengers.id.clone()) };
        element.validate(codex).map_err(|e| format!("{}: {e}", spec.id))?;
    }
    if element.nco.is_none() && element.role == Role::Fighting {
        let (nco, e) = officer::rate(Rank::Nco, element.makeup(), dice, &element.id);
        element.nco = Some(nco);
        events.push(e);
    }
    let build = Build::of(&element, codex);
    let order = match spec.order.as_ref().or(company.objective.as_ref()) {
        Some(o) => o.objective().map_err(|e| e.to_string())?,
        None => Objective::new(Activity::Hold, "where it stands", "").map_err(|e| e.to_string())?,
    };
    // *Heroes All*, "Snipers": "Snipers are elite/veteran (Enhanced) and
    // automatically start the game as concealed."
    let quality = if spec.sniper { officer::Quality::Elite } else { element.quality(side.quality) };
    let carrier = spec.aboard.as_deref().and_then(|id| {
        start.scenario.sides.iter().flat_map(|s| s.elements()).position(|e| e.id == id).map(|k| k as u16)
    });
    let status = match spec.start {
        Start::At(..) => carrier.map_or(Status::OnTable, Status::Aboard),
        Start::Box(b) | Start::Drop(b, ..) | Start::Glider(b, ..) => Status::Waiting(b),
        // Ashore when its wave lands, the bound after its approach.
        Start::Landing(wave, _) => Status::Waiting(wave + 1),
        Start::Reserve => Status::Reserve,
    };
    let at = match spec.start {
        Start::At(x, y) => point((x, y)),
        _ => Point(0.0, 0.0),
    };
    // A campaign's vehicle not yet repaired starts "damaged" (FYOW 23).
    let damaged = spec.pieces.iter().any(|p| p.damaged);
    let vehicle = build.is_vehicle().then_some(if damaged { VehicleState::Damaged } else { VehicleState::Intact });
    let (concealment, at) = conceal(start, codex, side, spec, &order, at, dice, events)?;
    let deployed = status.in_play().then_some(at);
    Ok(ElementBundle {
        identity: Identity { index, side: s, company: c },
        place: {
            let mover = mover(&element, codex, quality);
            let boats = spec.boats.map(|craft| crate::state::Boats { carried: craft, ashore: mover.class });
            Place { at, mover, heading: None, deployed, boats }
        },
        force: Force {
            men_start: element.men(),
            element,
            build,
            quality,
            engineers: order.activity == Activity::Engineering,
            radio: spec.radio,
            off_net: None,
            sniper: spec.sniper,
            recce: spec.recce,
            explosives: spec.explosives.clone(),
        },
        presence: Presence {
            status,
            arrival: match spec.start {
                Start::Drop(_, x, y) => Arrival::Drop(point((x, y))),
                Start::Glider(_, x, y) => Arrival::Glider(point((x, y))),
                Start::Landing(wave, slot) => Arrival::Craft { wave, slot },
                _ => Arrival::Edge,
            },
            effective_from: 0,
            without_cohesion: false,
        },
        momentum: Momentum::default(),
        // Emplaced where it starts on the table; set up with an
        // Act after it comes on.
        actions: Actions { set_up: matches!(spec.start, Start::At(..)), shots_used, ..Actions::default() },
        concealment,
        vehicle: Vehicle { state: vehicle, out_of_fuel: false },
        order: {
            // Heroes All, "Guards": "faced at the start of the game with a D8
            // or \"Compass\" die" and "automatically given Overwatch instructions".
            let guard = spec.guard.then(|| {
                let (guard, event) = warbound_rules::movement::face_guard(dice, &spec.id);
                events.push(event);
                guard
            });
            Order { objective: order, awaiting_runner: None, overwatch: guard.is_some(), guard }
        },
        intel: Intel::default(),
    })
}

/// The bounds of fire an element's weapons used earlier today, taken off
/// what each has for the day: FYOW 20.4 resets a weapon's shots "to the
/// maximum" only when it "receives its full daily requirement", and *Heroes
/// All*, "Forces acting whilst rationed", carries "the total shown on the
/// Cardsheet ... forward and not topped back up". Each weapon with a daily
/// allowance then has what its maximum (its CODEX bounds, a day's 24 for one
/// rationed from unlimited) less its share of `used` leaves, and no more than
/// the allowance it was given (halved when rationed), as the rules'
/// `logistics::day_allowance` takes a carried total.
///
/// Reading: the campaign carries one count an element (the battle's
/// `shots_used`), so the bounds used are spread one at a time to the
/// weapon with the most left, as a careful player would have shared the
/// fire; an element of one limited weapon (the usual case) is exact. Returns
/// the bounds taken off, which its `Actions::shots_used` starts at (test
/// `an_element_starts_with_the_shots_it_used_today`).
fn used_today(element: &mut Element, codex: &Codex, used: u32) -> Result<u32, String> {
    use warbound_rules::codex::{Armament, BOUNDS_PER_DAY, ShotsPerDay};
    if used == 0 {
        return Ok(0);
    }
    let most = |a: Option<&Armament>| match a.map(Armament::shots_per_day) {
        Some(ShotsPerDay::Bounds(n)) => n,
        _ => BOUNDS_PER_DAY,
    };
    let mut weapons: Vec<(&mut u8, u8)> = Vec::new();
    for f in &mut element.figures {
        if let (Some(w), Some(rounds)) = (&f.weapon, f.rounds.as_mut()) {
            let entry = codex.get(w).map_err(|e| e.to_string())?;
            weapons.push((rounds, most(entry.armament.first())));
        }
    }
    for p in &mut element.pieces {
        let entry = codex.get(&p.codex).map_err(|e| e.to_string())?;
        for (j, rounds) in p.rounds.iter_mut().enumerate() {
            if let Some(rounds) = rounds.as_mut() {
                weapons.push((rounds, most(entry.armament.get(j))));
            }
        }
    }
    let mut left: Vec<u8> = weapons.iter().map(|(_, most)| *most).collect();
    let mut taken = 0;
    while taken < used {
        let Some(w) = (0..left.len()).filter(|&w| left[w] > 0).max_by_key(|&w| (left[w], std::cmp::Reverse(w))) else {
            break;
        };
        left[w] -= 1;
        taken += 1;
    }
    for ((rounds, _), left) in weapons.iter_mut().zip(left) {
        **rounds = (**rounds).min(left);
    }
    Ok(taken)
}

/// FYOB "How to conceal an element": the Senior Officer throws a D6 for each
/// element the scenario conceals, 5+ (his grade modifying) conceals it; one
/// that fails stands in the open where it starts. A concealed element's
/// counters go on the table and it stands at the one its owner would declare
/// real (see [`Concealment`]): the real dummy marker, else the placement
/// option nearest its objective. Returns its concealment and where it stands.
/// Test `concealment_is_thrown_five_up_at_the_start`. One concealed on the
/// campaign's map board (FYOW 15.4) has had its throw: it starts concealed
/// where it stands, without FYOB's (test
/// `an_element_concealed_on_the_map_board_starts_concealed_without_a_throw`).
#[allow(clippy::too_many_arguments)]
fn conceal(
    start: &BattleStart,
    codex: &Codex,
    side: &Side,
    spec: &ElementSpec,
    order: &Objective,
    at: Point,
    dice: &mut Dice,
    events: &mut Vec<RuleEvent>,
) -> Result<(Concealment, Point), String> {
    use warbound_rules::scenario::Concealment as Spec;
    let Some(how) = &spec.concealed else {
        // Heroes All, "Snipers": concealed where it starts, without a throw.
        let sniper = spec.sniper.then(|| Concealment::new(concealment::Concealed::in_place(&spec.id, true), vec![at]));
        return Ok((sniper.unwrap_or_default(), at));
    };
    if *how == Spec::OnMapBoard {
        let counters = spec.concealed().map_err(|e| format!("{}: {e}", spec.id))?.ok_or("concealed")?;
        events.push(
            RuleEvent::new(
                EventKind::Concealment,
                RuleRef::new(Book::FightYourOwnWars, "15.4 Concealment on a Map Board"),
            )
            .actor(spec.id.clone())
            .input(
                "thrown",
                "on the campaign map",
                "each element throws a D10 and will be considered in concealment on a score of 6+",
            )
            .outcome(serde_json::json!({ "concealed": true, "at": (at.0, at.1) })),
        );
        return Ok((Concealment::new(counters, vec![at]), at));
    }
    let candidate = spec.candidate(codex, &start.scenario.terrain)?;
    let (concealed, event) = concealment::concealment_test(side.senior_officer()?, &candidate, dice, &spec.id)
        .map_err(|e| format!("{}: {e}", spec.id))?;
    events.push(event);
    if !concealed {
        return Ok((Concealment::default(), at));
    }
    let counters = spec.concealed().map_err(|e| format!("{}: {e}", spec.id))?.ok_or("concealed")?;
    let places: Vec<Point> = match how {
        Spec::InPlace | Spec::OnMapBoard => vec![at],
        Spec::PlacementOptions(p) | Spec::DummyMarkers { at: p, .. } => p.iter().map(|&q| point(q)).collect(),
    };
    let concealment = Concealment::new(counters, places);
    let objective = start.scenario.place(&order.location).map_or(at, point);
    let stands = declared_place(&concealment, objective).unwrap_or(at);
    Ok((concealment, stands))
}

/// Where a concealed element stands until it acts or is found: its real
/// counter where that is known, else the counter nearest `objective`.
pub(super) fn declared_place(c: &Concealment, objective: Point) -> Option<Point> {
    let real = c.state.as_ref().and_then(|s| s.real()).and_then(|k| c.place(k));
    real.or_else(|| {
        c.counters()
            .into_iter()
            .map(|(_, p)| p)
            .min_by(|a, b| distance(*a, objective).total_cmp(&distance(*b, objective)))
    })
}

/// *Heroes All*, "Interdiction Fire": "at the start of the game, nominate 2
/// target points on the table - perhaps a bridge or road junction - which he
/// wishes to deny to the enemy". Reading: the places the enemy's orders and
/// goals send him to, in the order written; the table's centre if none.
fn first_targets(start: &BattleStart, side: usize, k: usize) -> (f32, f32) {
    let s = &start.scenario;
    let mut places: Vec<(f32, f32)> = Vec::new();
    for (_, other) in s.sides.iter().enumerate().filter(|(o, _)| *o != side) {
        for c in &other.companies {
            let orders = c.objective.iter().chain(c.elements.iter().filter_map(|e| e.order.as_ref()));
            for order in orders {
                if let Some(p) = s.place(&order.location)
                    && !places.contains(&p)
                {
                    places.push(p);
                }
            }
        }
    }
    places.get(k).or(places.first()).copied().unwrap_or((s.table.width / 2.0, s.table.depth / 2.0))
}

fn side_state(
    s: usize,
    side: &Side,
    start: &BattleStart,
    companies: Vec<CompanyState>,
    fielded: &[ElementBundle],
) -> Result<SideState, String> {
    // FYOB "Strategic Conditions": "the CMT for the force will be the sum of
    // the CMS's for the elements present on the table. Ignore any elements
    // held in reserve." Reading: those landing or moving on in the first
    // bound are present from the start, as are those landing with the
    // first wave of craft of a force that starts afloat; later arrivals add
    // their CMS when they come on, as committed reserves do.
    let first_wave = fielded
        .iter()
        .filter_map(|f| match f.presence.arrival {
            Arrival::Craft { wave, .. } if f.identity.side == s => Some(wave),
            _ => None,
        })
        .min();
    let scores: Vec<u8> = fielded
        .iter()
        .filter(|f| {
            f.identity.side == s
                && f.force.transport().is_none()
                && (matches!(f.presence.status, Status::OnTable | Status::Aboard(_) | Status::Waiting(1))
                    || matches!(f.presence.arrival, Arrival::Craft { wave, .. } if Some(wave) == first_wave))
        })
        .map(|f| f.force.element.cms)
        .collect();
    let cmt = strategic::cmt(&scores).map_err(|e| format!("{e:?}"))?;
    let record = SeniorOfficerRecord::new(cmt.max(1), side.milestone).map_err(|e| format!("{e:?}"))?;
    Ok(SideState {
        name: side.name.clone(),
        nation: side.nation.clone(),
        edge: side.edge,
        control: start.control.get(s).copied().unwrap_or(super::setup::Control::Auto),
        senior: side.senior_officer()?,
        record,
        cmt_start: cmt,
        companies,
        known: BTreeSet::new(),
        general_withdrawal: false,
        air_command: (!side.aircraft.is_empty()).then(|| {
            let types: Vec<_> =
                side.aircraft.iter().flat_map(|q| std::iter::repeat_n(q.aircraft.clone(), q.count.into())).collect();
            AirCommand {
                id: format!("air_command_{s}"),
                cms: warbound_rules::aircraft::air_command_cms(&types),
                damages: 0,
                withdrawn: false,
            }
        }),
        foos: side
            .foos
            .iter()
            .map(|f| {
                let officer = side.foo(&f.id).expect("listed FOO").map_err(|e| format!("{}: {e}", f.id))?;
                Ok(FooState {
                    id: f.id.clone(),
                    foo: officer,
                    with: f.attached_to.clone(),
                    plan: Interdiction::new(first_targets(start, s, 0), first_targets(start, s, 1)),
                    alive: true,
                })
            })
            .collect::<Result<_, String>>()?,
        batteries: side
            .artillery
            .iter()
            .map(|b| BatteryState {
                id: b.id.clone(),
                gun: b.gun.clone(),
                guns: b.guns,
                foo: b.foo.clone(),
                ranging: None,
            })
            .collect(),
        squadrons: side
            .aircraft
            .iter()
            .map(|q| SquadronState {
                id: q.id.clone(),
                machines: (0..q.count).map(|_| Aircraft::new(q.aircraft.clone(), q.height)).collect(),
                window: q.window(),
                // "If the scenario shows that aircraft are allocated as close
                // support to the ground troops, the aircraft arrive on the next
                // bound": reading, the first bound of their window.
                arrives: match q.schedule {
                    Schedule::Bound(b) => Some(b),
                    Schedule::CloseSupport => Some(q.window),
                    Schedule::CalledIn => None,
                },
                // Reading: no rating is given for pilots; the Squadron Leader is a Regular NCO.
                leader: Officer::new(Rank::Nco, Grade::Regular).expect("Regular is an NCO grade"),
                target: None,
            })
            .collect(),
    })
}

/// The charges each side set before the battle.
fn demolitions(start: &BattleStart) -> Result<Vec<Demolition>, String> {
    let mut out = Vec::new();
    for (s, side) in start.scenario.sides.iter().enumerate() {
        for c in &side.charges {
            let charge = Charge::set(c.kind, c.delay).map_err(|e| format!("{}: {e}", c.id))?;
            out.push(Demolition {
                id: c.id.clone(),
                side: s,
                at: point(c.at),
                charge,
                target: c.target.clone(),
                found: false,
            });
        }
    }
    Ok(out)
}

/// The state each minefield and building of the terrain starts in.
#[allow(clippy::type_complexity)]
fn works(terrain: &warbound_rules::terrain::Terrain) -> (Vec<(usize, Minefield)>, Vec<(usize, Building)>) {
    let mut minefields = Vec::new();
    let mut buildings = Vec::new();
    for (k, f) in terrain.features.iter().enumerate() {
        match f {
            Feature::Minefield { kind, .. } => minefields.push((k, Minefield::new(*kind, Shape::Area))),
            Feature::Building { .. } => buildings.extend(f.building().map(|b| (k, b))),
            _ => {}
        }
    }
    (minefields, buildings)
}

/// The side each actor of the battle fights for, by name: the sides
/// themselves (and their players), their elements, companies, FOOs,
/// batteries, squadrons and Air Command.
fn sides_of(sides: &Sides, fielded: &[ElementBundle]) -> std::collections::BTreeMap<String, String> {
    let mut of = std::collections::BTreeMap::new();
    for (i, side) in sides.0.iter().enumerate() {
        // A command passed or a session held is logged as "player N" / "side N".
        let ids = [side.name.clone(), format!("player {i}"), format!("side {i}")]
            .into_iter()
            .chain(side.companies.iter().map(|c| c.id.clone()))
            .chain(side.foos.iter().map(|f| f.id.clone()))
            .chain(side.batteries.iter().map(|b| b.id.clone()))
            .chain(side.squadrons.iter().map(|q| q.id.clone()))
            .chain(side.air_command.iter().map(|a| a.id.clone()));
        for id in ids {
            of.insert(id, side.name.clone());
        }
    }
    for f in fielded {
        of.insert(f.force.id().to_owned(), sides.0[f.identity.side].name.clone());
    }
    of
}

/// Refuses a continuation whose joining companies could not join the battle
/// in `world`, before anything changes: a side it does not have, an id (of a
/// company or an element) the battle has already, a Company Officer with no
/// element of his company, an element concealed (a joiner comes from the
/// box), a place no one knows, an element the CODEX cannot build or kit not
/// in service in its side's year.
pub fn check_joining(world: &World, c: &Continuation) -> Result<(), String> {
    let battle = world.get_resource::<Battle>().ok_or("there is no battle")?;
    let roster = world.resource::<Roster>();
    let sides = world.resource::<Sides>();
    let codex = &world.resource::<BattleCodex>().0;
    let scenario = &battle.start.scenario;
    let mut companies: BTreeSet<&str> =
        sides.0.iter().flat_map(|s| s.companies.iter().map(|c| c.id.as_str())).collect();
    let mut ids: BTreeSet<&str> = BTreeSet::new();
    for j in &c.joining {
        let company = &j.company;
        let side = scenario.sides.get(j.side).ok_or_else(|| format!("{}: no side {}", company.id, j.side))?;
        if !companies.insert(&company.id) {
            return Err(format!("{}: the battle has a company of that id already", company.id));
        }
        if !company.elements.iter().any(|e| e.id == company.attached_to) {
            return Err(format!("{}: its officer is with {:?}, no element of it", company.id, company.attached_to));
        }
        company_state(company).map_err(|e| format!("{}: {e}", company.id))?;
        let orders = company.objective.iter().chain(company.elements.iter().filter_map(|e| e.order.as_ref()));
        for o in orders {
            o.objective().map_err(|e| format!("{}: {e}", company.id))?;
            if scenario.place(&o.location).is_none() {
                return Err(format!("{}: no place {:?} on this table", company.id, o.location));
            }
        }
        for e in &company.elements {
            if roster.index(&e.id).is_some() || !ids.insert(&e.id) {
                return Err(format!("{}: the battle has an element of that id already", e.id));
            }
            if e.concealed.is_some() {
                return Err(format!("{}: a joining element comes from the box and cannot start concealed", e.id));
            }
            e.element(codex, &side.nation, side.quality).map_err(|m| format!("{}: {m}", e.id))?;
            let kit =
                e.figures.iter().filter_map(|f| f.weapon.as_deref()).chain(e.pieces.iter().map(|p| p.codex.as_str()));
            for id in kit {
                let entry = codex.get(id).map_err(|m| format!("{}: {m}", e.id))?;
                if !entry.in_service(side.year) {
                    let (a, b) = entry.service;
                    return Err(format!("{}: {id:?} is in service {a}–{b}, not {}", e.id, side.year));
                }
            }
        }
    }
    Ok(())
}

/// FYOW 15.7: the companies joining with `c` are "placed in the appropriate
/// 'box' ready to join the battle": each element due from its company's box
/// (its own edge, else its side's) in the next bound after
/// `after_bounds`, spawned after every element there is, its NCO rated as at
/// the start. Checked first by [`check_joining`]; returns the new companies
/// as (side, company).
pub(crate) fn join(world: &mut World, c: &Continuation) -> Result<Vec<(usize, usize)>, String> {
    check_joining(world, c)?;
    let codex = world.resource::<BattleCodex>().0.clone();
    let battle = world.resource::<Battle>();
    let start = battle.start.clone();
    let bound = battle.clock.bound();
    let mut index = world.resource::<Roster>().len();
    let mut next_company: Vec<usize> = world.resource::<Sides>().0.iter().map(|s| s.companies.len()).collect();
    let mut fielded = Vec::new();
    let mut joined = Vec::new();
    let mut events = Vec::new();
    world.resource_scope(|_, mut dice: Mut<BattleDice>| -> Result<(), String> {
        for j in &c.joining {
            let k = next_company[j.side];
            next_company[j.side] += 1;
            joined.push((j.side, k, company_state(&j.company)?));
            for spec in &j.company.elements {
                let mut spec = spec.clone();
                spec.start = Start::Box(bound + 1 + u32::from(j.after_bounds));
                let at = u16::try_from(index).map_err(|_| "too many elements".to_owned())?;
                fielded.push(bundle(&start, &codex, (j.side, k, at), &j.company, &spec, &mut dice.0, &mut events)?);
                index += 1;
            }
        }
        Ok(())
    })?;
    let mut actors = Vec::new();
    for f in fielded {
        let id = f.force.element.id.clone();
        let side = world.resource::<Sides>().0[f.identity.side].name.clone();
        let e = world.spawn((Name::new(id.clone()), f)).id();
        world.resource_mut::<Roster>().push(e, &id);
        actors.push((id, side));
    }
    let mut out = Vec::new();
    let mut names = world.resource_mut::<super::names::Names>();
    for j in &c.joining {
        names.add_company(&j.company);
    }
    for (s, k, company) in joined {
        let mut sides = world.resource_mut::<Sides>();
        actors.push((company.id.clone(), sides.0[s].name.clone()));
        sides.0[s].companies.push(company);
        out.push((s, k));
    }
    let mut log = world.resource_mut::<BattleLog>();
    log.sides_of.extend(actors);
    log.extend(bound, events);
    Ok(out)
}

/// Starts the battle in `world`: clears any previous one, spawns the elements
/// and sets the flow to the first bound.
pub fn start(world: &mut World, start: BattleStart) -> Result<(), String> {
    let codex = world.get_resource::<BattleCodex>().ok_or("no CODEX was given to the battle")?.0.clone();
    let codex = &*codex;
    let clock = WargameClock::new(start.scenario.season, start.scenario.start_hour).map_err(|e| e.to_string())?;
    let mut dice = Dice::new(start.seed);
    let (fielded, sides, events) = build(&start, codex, &mut dice)?;
    let old: Vec<Entity> = world.query_filtered::<Entity, With<Identity>>().iter(world).collect();
    for e in old {
        world.despawn(e);
    }
    let actors = sides_of(&sides, &fielded);
    let mut spawned = Vec::with_capacity(fielded.len());
    for f in fielded {
        let id = f.force.element.id.clone();
        spawned.push((world.spawn((Name::new(id.clone()), f)).id(), id));
    }
    world.insert_resource(Roster::new(spawned.iter().map(|(e, id)| (*e, id.as_str()))));
    world.insert_resource(super::names::Names::of(&start.scenario));
    world.insert_resource(sides);
    world.insert_resource(BattleDice(dice));
    let charges = demolitions(&start)?;
    let (minefields, buildings) = works(&start.scenario.terrain);
    let terrain = start.scenario.terrain.clone();
    let weather = start.scenario.weather;
    let bridges = super::bridging::bridges(&terrain);
    let pontoons = super::bridging::pontoons(&start);
    let landings = super::landing::landings(&start)?;
    let mut actors = actors;
    for l in &landings {
        let side = world.resource::<Sides>().0[l.side].name.clone();
        actors.extend(l.beach.craft.iter().map(|c| (c.id.clone(), side.clone())));
    }
    world.insert_resource(Battle {
        start,
        terrain,
        clock,
        weather,
        deck: None,
        result: None,
        charges,
        minefields,
        buildings,
        bridges,
        pontoons,
        landings,
        smoke: Vec::new(),
        fires_set: Vec::new(),
        sight_lines: Default::default(),
    });
    let mut log = world.resource_mut::<BattleLog>();
    log.sides_of = actors;
    log.extend(0, events);
    world.insert_resource(super::command::Inbox::default());
    world.insert_resource(super::command::Current::default());
    world.insert_resource(super::command::CommandRecord::default());
    world.insert_resource(super::invariant::InvariantFailures::default());
    *world.resource_mut::<Flow>() = Flow::StartBound;
    Ok(())
}
