//! Setting a campaign up from its file and one seed: each army with its
//! General and Air Command, each Brigade's Senior Command, each battlegroup
//! rated, supplied and placed, the partisan cells. Every throw comes from
//! the campaign's seeded dice in the order of the file's armies and
//! battlegroups, so the same file and seed set up the same campaign.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::json;
use warbound_rules::dice::Dice;
use warbound_rules::event::{EventKind, RuleEvent};
use warbound_rules::strategic::SeniorOfficerRecord;

use crate::air::command::AirCommand;
use crate::air::squadron::Squadron;
use crate::army::battlegroup::{Battlegroup, BattlegroupKind};
use crate::army::calendar::CampaignDate;
use crate::army::commander::{Commander, CommanderRole, Traits, rate_commander};
use crate::army::game_flow::DiaryBox;
use crate::army::morale::StrategicMorale;
use crate::map::board::BoardId;
use crate::map::common::{Edge, ForceKind, SessionConditions, SessionStamp, Side};
use crate::map::movement::{MoveAllowance, MovementState};
use crate::map::occupation::{ArrivingForce, BoardOccupation};
use crate::paper::dunnigan::StrategicCondition;
use crate::paper::partisans::{TargetList, start_of_game};
use crate::play::file::{ArmyFile, BattlegroupFile, CampaignFile, ElementFile, Start};
use crate::play::state::{AirArm, Army, Campaign, CampaignError, Force, Partisans, SeniorCommand, Whereabouts, fyow};
use crate::supply::logistics::{SupplyLine, SupplyRecord};
use crate::supply::replenishment::LossLedger;

impl Campaign {
    /// Sets the campaign up from its file and a seed: commanders rated
    /// (FYOW 7) and their traits thrown (8.4), first Stockpiles (20), the
    /// partisan cells (34.1), forces placed on their boards.
    pub fn new(source: &str, file: CampaignFile, seed: u64) -> Result<Self, CampaignError> {
        let mut setup = Setup::new(&file, seed);
        for side in [Side::Blue, Side::Red] {
            setup.army(&file, side)?;
            for bg in &file.army(side).battlegroups {
                setup.senior_command(&file, side, bg);
                let force = setup.battlegroup(&file, side, bg)?;
                setup.place(&file, force, &bg.start)?;
            }
        }
        setup.partisans(&file)?;
        let mut campaign = setup.campaign(source, file, seed);
        campaign.update_held();
        campaign.trains_at_start();
        Ok(campaign)
    }
}

/// A campaign being set up: its seeded dice, the events of their throws in
/// order, and what has been raised so far.
struct Setup {
    dice: Dice,
    events: Vec<RuleEvent>,
    armies: Vec<Army>,
    senior_commands: Vec<SeniorCommand>,
    forces: Vec<Force>,
    occupation: BTreeMap<BoardId, BoardOccupation>,
    partisans: Option<Partisans>,
}

impl Setup {
    /// Nothing raised yet: every Map Board empty.
    fn new(file: &CampaignFile, seed: u64) -> Self {
        Setup {
            dice: Dice::new(seed),
            events: Vec::new(),
            armies: Vec::new(),
            senior_commands: Vec::new(),
            forces: Vec::new(),
            occupation: file.map.boards.iter().map(|b| (b.id.clone(), BoardOccupation::empty(b.id.clone()))).collect(),
            partisans: None,
        }
    }

    /// FYOW 7, 8.4: an army and its General, rated unless the file rates
    /// him, his traits thrown; its Air Command (28.1, 28.12).
    fn army(&mut self, file: &CampaignFile, side: Side) -> Result<(), CampaignError> {
        let a = file.army(side);
        let competency = match a.general_competency {
            Some(c) => c,
            None => {
                let (c, e) = rate_commander(CommanderRole::General, false, &mut self.dice, &a.general);
                self.events.push(e);
                c
            }
        };
        let (traits, e) = Traits::thrown(false, &mut self.dice, &a.general);
        self.events.push(e);
        let general =
            Commander { name: a.general.clone(), role: CommanderRole::General, competency, traits: Some(traits) };
        let air = air_arm(a)?;
        // 29.2: "Dice for each at the outset of the campaign" the guns of every vessel.
        let mut fleet = Vec::new();
        for v in &a.fleet {
            let (vessel, e) = crate::naval::craft::Vessel::commission(&v.name, v.craft, &mut self.dice);
            self.events.push(e);
            fleet.push(crate::play::state::Ship {
                vessel,
                station: v.station.clone(),
                harbour: v.harbour.clone(),
                radar: v.radar,
                at_sea: false,
                fired_at: BTreeSet::new(),
                held_in_harbour: false,
                stands_off: false,
            });
        }
        self.armies.push(Army {
            side,
            name: a.name.clone(),
            stance: a.stance,
            motivation: a.motivation,
            general,
            morale: StrategicMorale::default(),
            reduced_since_review: false,
            home: a.home.clone(),
            objectives: a.objectives.clone(),
            air,
            known: BTreeMap::new(),
            reports: BTreeMap::new(),
            hq_banked: 0,
            train: None,
            original_cost: 0,
            fleet,
            coastal_batteries: a
                .coastal_batteries
                .iter()
                .map(|b| crate::play::state::CoastalBattery {
                    name: b.name.clone(),
                    board: b.board.clone(),
                    guns: b.guns,
                    officer: b.officer.unwrap_or_else(|| crate::army::orbat::company_officer(a.quality)),
                })
                .collect(),
        });
        Ok(())
    }

    /// FYOW 6.3, 7, 8.4: the Senior Command of `bg`'s Brigade, its Senior
    /// Commander rated and his traits thrown, when the Brigade's first
    /// battlegroup is raised.
    fn senior_command(&mut self, file: &CampaignFile, side: Side, bg: &BattlegroupFile) {
        if self.senior_commands.iter().any(|sc| sc.side == side && sc.brigade == bg.brigade) {
            return;
        }
        let label =
            |army: &ArmyFile, brigade: &str| if brigade.is_empty() { army.name.clone() } else { brigade.to_owned() };
        let brigade = label(file.army(side), &bg.brigade);
        // Known by his side and Brigade: a Brigade name the other army
        // uses too is told apart by the side.
        let other = file.army(side.enemy());
        let name = if other.battlegroups.iter().any(|o| label(other, &o.brigade) == brigade) {
            format!("Senior Commander, {brigade} ({side:?})")
        } else {
            format!("Senior Commander, {brigade}")
        };
        let (competency, e) = rate_commander(CommanderRole::SeniorCommander, false, &mut self.dice, &name);
        self.events.push(e);
        let (traits, e) = Traits::thrown(false, &mut self.dice, &name);
        self.events.push(e);
        self.senior_commands.push(SeniorCommand {
            side,
            brigade: bg.brigade.clone(),
            commander: Commander { name, role: CommanderRole::SeniorCommander, competency, traits: Some(traits) },
            traits,
            objective: None,
            requests: Vec::new(),
        });
    }

    /// FYOW 2, 7, 8.4, 20: a battlegroup as its file writes it, within the
    /// cost limit (2.1), its commander rated unless the file rates him, his
    /// traits thrown, its first Stockpile thrown, its Strategic Milestones
    /// set (2).
    fn battlegroup(&mut self, file: &CampaignFile, side: Side, bg: &BattlegroupFile) -> Result<Force, CampaignError> {
        if let Some(e) = bg.elements.iter().find(|e| e.points.is_none()) {
            let why =
                format!("{} is not costed: its table template's cost comes from checking the file's tables", e.name);
            return Err(CampaignError::new("2.1", why));
        }
        let elements = bg.elements.iter().map(ElementFile::element).collect();
        let battlegroup =
            Battlegroup::new(&bg.name, BattlegroupKind::Line, &bg.brigade, &bg.commander, elements, file.max_points())
                .map_err(|e| CampaignError::new("2.1", e.to_string()))?;
        let competency = match bg.competency {
            Some(c) => c,
            None => {
                let (c, e) =
                    rate_commander(CommanderRole::BattlegroupCommander, bg.elite, &mut self.dice, &bg.commander);
                self.events.push(e);
                c
            }
        };
        let (traits, e) = Traits::thrown(bg.elite, &mut self.dice, &bg.commander);
        self.events.push(e);
        let bg_points = battlegroup.points();
        let (supply, e) = SupplyRecord::battlegroup_at_start(&mut self.dice, &bg.name);
        self.events.push(e);
        let at = match &bg.start {
            Start::OnBoard(b) | Start::InBox(b, _) => Whereabouts::Board(b.clone()),
            Start::Afloat { sea, beach, day } => {
                Whereabouts::Afloat { sea: sea.clone(), beach: beach.clone(), day: *day }
            }
            Start::Airborne { squadron, drop, day } => {
                Whereabouts::Airborne { squadron: squadron.clone(), drop: drop.clone(), day: *day }
            }
        };
        Ok(Force {
            name: bg.name.clone(),
            side,
            kind: ForceKind::Battlegroup,
            battlegroup,
            kit: bg.elements.clone(),
            commander: Commander {
                name: bg.commander.clone(),
                role: CommanderRole::BattlegroupCommander,
                competency,
                traits: Some(traits),
            },
            traits,
            elite: bg.elite,
            at,
            supply,
            line: SupplyLine::new(&[]),
            partisan_effects: Vec::new(),
            movement: MovementState::new_day(0, None),
            order: bg.order,
            objective: bg.objective.clone(),
            pending_orders: None,
            condition: StrategicCondition::Green,
            table_condition: StrategicCondition::Green,
            milestones: SeniorOfficerRecord::new(bg_points, file.army(side).milestone_pct)
                .map_err(|e| CampaignError::new("2", e.to_string()))?,
            sessions_here: 0,
            unloading: None,
            convoy_due: false,
            sighted: BTreeSet::new(),
            merged_into: None,
            orbat: Vec::new(),
            improved_after_battles: 0,
            disordered: None,
            questions: None,
            conceal: false,
            losses: LossLedger::default(),
            banked: 0,
            repairs: Vec::new(),
            parent: None,
            first_activation: None,
            withdrawn: false,
        })
    }

    /// FYOW 13.7, 13.9, 15.3: `force` joins the campaign where the file
    /// starts it. In a board's box it arrives by the edge the file names;
    /// on a board it arrives by the board's first link, enters and stands
    /// deployed; afloat it waits for its landing day.
    fn place(&mut self, file: &CampaignFile, force: Force, start: &Start) -> Result<(), CampaignError> {
        if let Start::OnBoard(b) | Start::InBox(b, _) = start {
            let board = file.map.board(b).map_err(|e| CampaignError::new("13", e.to_string()))?;
            let edge = match start {
                Start::InBox(_, edge) => *edge,
                _ => first_edge(file, b),
            };
            let occ = self.occupation.get_mut(b).expect("every board has an occupation");
            occ.arrive(
                board,
                file.max_points(),
                ArrivingForce {
                    force: force.name.clone(),
                    side: force.side,
                    kind: ForceKind::Battlegroup,
                    points: force.points(),
                    edge,
                    session: SessionStamp::new(1, 1).expect("day 1, session 1"),
                },
            )
            .map_err(|e| CampaignError::new("13.9", e.to_string()))?;
            if matches!(start, Start::OnBoard(_)) {
                occ.enter_board(&force.name).map_err(|e| CampaignError::new("13.7", e.to_string()))?;
                let o = occ.occupants.iter_mut().find(|o| o.force == force.name).expect("just arrived");
                // Forces placed at the outset stand deployed on their boards (FYOW 15.3).
                self.events.push(
                    o.attitude
                        .deploy(&force.name, &mut MoveAllowance::new_day(1))
                        .map_err(|e| CampaignError::new("15.3", e.to_string()))?,
                );
            }
        }
        self.forces.push(force);
        Ok(())
    }

    /// FYOW 34.1, 34.7: the partisan cells thrown and their target list,
    /// when the file has partisans.
    fn partisans(&mut self, file: &CampaignFile) -> Result<(), CampaignError> {
        let Some(p) = &file.partisans else { return Ok(()) };
        let (cells, es) = start_of_game(&mut self.dice);
        self.events.extend(es);
        self.partisans = Some(Partisans {
            helps: p.helps,
            cells,
            list: TargetList::new(p.targets.clone()).map_err(|e| CampaignError::new("34.7", e.to_string()))?,
            reserve: p.reserve.iter().cloned().collect(),
            missions: Vec::new(),
            sweeps_due: Vec::new(),
            unreported: BTreeMap::new(),
            last_mission: BTreeMap::new(),
            agents_home: Vec::new(),
            agent_joined: BTreeMap::new(),
            dispersed: BTreeMap::new(),
        });
        Ok(())
    }

    /// The campaign before its first day: its opening event (FYOW 1), then
    /// the setup's events in the order of their throws.
    fn campaign(self, source: &str, file: CampaignFile, seed: u64) -> Campaign {
        let date = CampaignDate::start_of(file.year, file.month);
        let mut campaign = Campaign {
            source: source.to_owned(),
            file,
            seed,
            dice: self.dice,
            date,
            day: 0,
            weather: None,
            today: None,
            forecast: Vec::new(),
            chance: None,
            cards_today: Vec::new(),
            conditions: SessionConditions::fine_day(),
            armies: self.armies,
            senior_commands: self.senior_commands,
            forces: self.forces,
            occupation: self.occupation,
            cut_lines: BTreeMap::new(),
            battles: Vec::new(),
            fought: Vec::new(),
            naval_engagements: Vec::new(),
            comparisons: Vec::new(),
            partisans: self.partisans,
            diary: DiaryBox::new(),
            held: BTreeMap::new(),
            activated: Vec::new(),
            ordered_today: BTreeSet::new(),
            jams: Vec::new(),
            decisions: BTreeMap::new(),
            ended: None,
            events: Vec::new(),
            events_logged: 0,
            tracking: None,
            player: None,
            player_orders: BTreeMap::new(),
            composite: BTreeMap::new(),
        };
        // 21.7: "ONLY at the outset of the campaign, calculate and record the
        // total points value (the "cost") of the forces in the armies".
        for k in 0..campaign.armies.len() {
            let side = campaign.armies[k].side;
            campaign.armies[k].original_cost =
                campaign.forces.iter().filter(|f| f.side == side).map(|f| f.points()).sum();
        }
        let opening = RuleEvent::new(EventKind::Calendar, fyow("1 The Campaign day"))
            .input("campaign", &campaign.file.name, &campaign.source)
            .input("seed", seed, "every throw of the campaign comes from this seed")
            .outcome(json!({ "date": date.to_string(), "days": campaign.file.days }));
        campaign.log(opening);
        for e in self.events {
            campaign.log(e);
        }
        campaign
    }
}

/// FYOW 28.1, 28.12: an army's squadrons under its Air Command, or none
/// when it has no squadrons.
fn air_arm(a: &ArmyFile) -> Result<Option<AirArm>, CampaignError> {
    if a.squadrons.is_empty() {
        return Ok(None);
    }
    let mut squadrons = Vec::new();
    for s in &a.squadrons {
        let sq = Squadron::new(&s.name, s.role, s.speed, s.basing, s.endurance, s.machines, s.strength)
            .map_err(|e| CampaignError::new("28.1", e.to_string()))?;
        squadrons.push((sq, s.specialist_recce));
    }
    let machines = a.squadrons.iter().map(|s| s.machines as u32).sum();
    let command = AirCommand::new(machines).map_err(|e| CampaignError::new("28.12", e.to_string()))?;
    let grass_strips = a.squadrons.iter().filter(|s| s.grass_strip).map(|s| s.name.clone()).collect();
    Ok(Some(AirArm {
        command,
        squadrons,
        flying: None,
        grass_strips,
        counted: Default::default(),
        raids: Default::default(),
    }))
}

/// The edge a force placed at the outset arrived by: the first link's edge on its board.
fn first_edge(file: &CampaignFile, board: &BoardId) -> Edge {
    file.map.legs_from(board).first().map_or(Edge::North, |l| l.departure_edge)
}
