//! The campaign screen's campaign: the *Fight Your Own Wars* campaign being
//! played in the window ([`ActiveWar`]), the player's army against the Auto
//! one, advanced a session or a day at a time. Each battle due is handed to
//! the player's choice ([`Fight`]): commanded by him on the table, watched on
//! the table Auto against Auto, fought Auto off screen, or resolved on paper
//! by the Dunnigan rules. A battle on the table is this app's own battle,
//! four bounds a session; its result goes back to the campaign when the
//! session's bounds are played, and the battle waits, kept, for the next
//! session. The campaign is autosaved after every session.

use std::collections::{BTreeMap, VecDeque};

use bevy::prelude::*;
use warbound_campaign::{
    army::orders::OrderKind,
    map::{board::BoardId, common::Side},
    play::{Campaign, CampaignFile, Command as MapCommand, composite::IfOrder, table::Tabletop},
};
use warbound_rules::{
    event::{EventKind, RuleEvent},
    handoff::{BattleResult, Continuation},
};
use warbound_war::{
    Battles, War,
    save::{self, CampaignSave},
};

use crate::{
    battle::{ActiveBattle, CampaignBattle, command::Command, log::BattleLog, play, save::Save, setup, state},
    data::LoadedScenario,
    launch::Notices,
    states::AppState,
};

/// How the player has a battle due fought.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fight {
    /// On the table, the player commanding his army's side, the program the other.
    Command,
    /// On the table, both sides Auto, shown.
    Watch,
    /// On the table, both sides Auto, not shown: only its result.
    Unseen,
    /// On paper, by the Dunnigan rules (FYOW 33).
    Paper,
}

impl Fight {
    pub const ALL: [Fight; 4] = [Fight::Command, Fight::Watch, Fight::Unseen, Fight::Paper];

    pub fn label(self) -> &'static str {
        match self {
            Fight::Command => "Command it on the table",
            Fight::Watch => "Watch it on the table",
            Fight::Unseen => "Fight it on the table unseen",
            Fight::Paper => "Resolve it on paper",
        }
    }

    pub fn explain(self) -> &'static str {
        match self {
            Fight::Command => {
                "You command your battlegroup's side, the program the other; four bounds, then back to the map."
            }
            Fight::Watch => "Both sides Auto; you watch the four bounds of this session on the table.",
            Fight::Unseen => "Both sides Auto on the table, played at once; the map shows the result.",
            Fight::Paper => "The Dunnigan rules (FYOW 33): Battle Factors, the CRT column, its shifts and one die.",
        }
    }
}

/// Where the session stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// On the map between sessions, waiting for the player.
    Map,
    /// A session is open: its battles due, the first waiting for the player's choice.
    Battles(VecDeque<(String, String)>),
    /// The first of these battles is on the table.
    Table(VecDeque<(String, String)>),
}

/// A campaign day's state for the charts: each army's Strategic Morale and
/// each battlegroup's points and condition (0 Green … 2 Red).
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub day: u32,
    pub morale: [u8; 2],
    pub forces: Vec<(String, Side, u32, u8)>,
}

/// The campaign in the window.
/// Not `Send`: the headless table keeps its battles' apps, so this is a
/// non-send resource, on the main thread.
pub struct ActiveWar {
    pub war: War,
    /// The army the player commands; the other is Auto.
    pub player: Side,
    pub step: Step,
    /// The campaign's events as sentences, with the day each happened.
    pub log: Vec<(u32, String)>,
    /// One sample at the start and after every campaign day.
    pub history: Vec<Sample>,
    /// Advancing to the end of the day: sessions follow each other until it
    /// ends or a battle waits for the player.
    pub to_day_end: bool,
    /// The battles the player has commanded on the table, by their key: his
    /// commands so far. Such a battle stays on the game's table (its dice
    /// went with his commands), and a campaign save replays it from them.
    pub commands: BTreeMap<String, Vec<Command>>,
    /// The board of the battle last taken to the table.
    pub board: Option<BoardId>,
    /// The last battle resolved off the screen, step by step: its title and
    /// its events (the Dunnigan rules' Battle Factors, CRT column and shifts,
    /// die, result and losses), until the player closes it.
    pub report: Option<(String, Vec<RuleEvent>)>,
    /// The campaign as it stood before the last battle resolved on paper,
    /// with the battle's two forces: a re-fight on the table starts from it.
    pub before_paper: Option<(String, String, Box<Campaign>)>,
    /// That battle re-fought on the table to its end, Auto against Auto,
    /// from the same forces, weather and seed, beside the paper result; or
    /// why it could not be.
    pub refight: Option<Result<BattleResult, String>>,
    /// The decisions of the player's commanders (FYOW 8, 10, 11), with the
    /// campaign day of each: their inputs, dice and outcome.
    pub decisions: Vec<(u32, RuleEvent)>,
    /// What became of the player's last orders, in a sentence.
    pub orders_said: Option<String>,
    /// Where the campaign is saved after every session (`None`: not saved).
    pub autosave: Option<std::path::PathBuf>,
    /// Why the last autosave failed, for the player.
    pub save_failed: Option<String>,
}

impl ActiveWar {
    pub fn new(war: War, player: Side) -> Self {
        let mut w = Self {
            war,
            player,
            step: Step::Map,
            log: Vec::new(),
            history: Vec::new(),
            to_day_end: false,
            commands: BTreeMap::new(),
            board: None,
            report: None,
            before_paper: None,
            refight: None,
            decisions: Vec::new(),
            orders_said: None,
            autosave: None,
            save_failed: None,
        };
        w.sample();
        w.take_events();
        w
    }

    pub fn campaign(&self) -> &Campaign {
        self.war.campaign()
    }

    /// The battle first in line, if the session is at its battles.
    pub fn due(&self) -> Option<&(String, String)> {
        match &self.step {
            Step::Battles(q) | Step::Table(q) => q.front(),
            Step::Map => None,
        }
    }

    /// The key of the battle of `attacker` on `defender` on the table, once it is there.
    fn key(&self, attacker: &str, defender: &str) -> Option<String> {
        let c = self.campaign();
        c.battle_of(attacker, defender).and_then(|k| c.battles[k].table.as_ref()).map(|t| t.key.clone())
    }

    /// How the battle first in line may be fought now: a battle already on
    /// the screen stays there (its dice went with the player's commands),
    /// one the table cannot field goes to paper.
    pub fn choices(&self) -> Vec<Fight> {
        let Some((a, d)) = self.due() else { return Vec::new() };
        let c = self.campaign();
        let Some(k) = c.battle_of(a, d) else { return Vec::new() };
        if self.key(a, d).is_some_and(|key| self.commands.contains_key(&key)) {
            return vec![Fight::Command, Fight::Watch];
        }
        if !c.fielded(k) || self.war.table.is_none() {
            return vec![Fight::Paper];
        }
        // He commands on the table only a battle his army fights.
        let mine = [a, d].iter().any(|n| c.force(n).is_some_and(|f| f.side == self.player));
        Fight::ALL.into_iter().filter(|f| mine || *f != Fight::Command).collect()
    }

    /// The campaign's new events into the log, as sentences; returns them.
    pub fn take_events(&mut self) -> Vec<RuleEvent> {
        let day = self.campaign().day;
        let events = self.war.progress.campaign.drain_events();
        let names = |_: &str| None;
        let mine = self.commanders();
        for e in &events {
            self.log.push((day, warbound_rules::narrate::sentence(e, &names)));
            let his = [&e.actor, &e.target].into_iter().flatten().any(|n| mine.contains(n));
            if e.kind == EventKind::CommandDecision && his {
                self.decisions.push((day, e.clone()));
            }
        }
        events
    }

    /// The names of the player's forces, their commanders and his Senior
    /// Commanders: whose decisions are his army's.
    pub fn commanders(&self) -> std::collections::BTreeSet<String> {
        let c = self.campaign();
        let forces = c.forces.iter().filter(|f| f.side == self.player);
        let senior = c.senior_commands.iter().filter(|s| s.side == self.player).map(|s| s.commander.name.clone());
        forces.flat_map(|f| [f.name.clone(), f.commander.name.clone()]).chain(senior).collect()
    }

    fn sample(&mut self) {
        let c = self.campaign();
        let morale = [c.army(Side::Blue).morale.score, c.army(Side::Red).morale.score];
        let forces = c
            .forces
            .iter()
            .filter(|f| f.is_battlegroup())
            .map(|f| (f.name.clone(), f.side, f.points(), f.condition as u8))
            .collect();
        self.history.push(Sample { day: c.day, morale, forces });
    }

    /// Opens the next session: its battles wait for the player, or, with
    /// none, it closes at once.
    pub fn open_session(&mut self) {
        if self.step != Step::Map || !self.war.open_session() {
            self.to_day_end = false;
            return;
        }
        let due: VecDeque<_> = self.campaign().due_battles().into();
        self.take_events();
        self.step = Step::Battles(due);
        self.next_battle();
    }

    /// Closes the session once its battles are fought, autosaves, and at the
    /// day's end takes the charts' sample.
    fn next_battle(&mut self) {
        let Step::Battles(due) = &self.step else { return };
        if !due.is_empty() {
            return;
        }
        self.war.close_session();
        self.take_events();
        self.step = Step::Map;
        if self.war.progress.sessions_today == 0 {
            self.sample();
            self.to_day_end = false;
        }
        if self.war.ended() {
            self.to_day_end = false;
        }
        if let Some(path) = &self.autosave {
            self.save_failed =
                save::write(path, &self.save()).map_err(|e| format!("cannot write {}: {e}", path.display())).err();
        }
    }

    /// The campaign as a save: its progress and the commands of the battles
    /// the player commands, from which they replay.
    pub fn save(&self) -> CampaignSave {
        CampaignSave { commands: self.commands.clone(), ..CampaignSave::of(&self.war.progress) }
    }

    /// The player keeps a vessel of his fleet in harbour, or lets it sail.
    pub fn hold_in_harbour(&mut self, h: &HoldInHarbour) -> String {
        if !self.campaign().fleet(self.player).any(|s| s.vessel.id == h.vessel) {
            return format!("{} is not yours to command.", h.vessel);
        }
        let command = MapCommand::Harbour { vessel: h.vessel.clone(), hold: h.hold };
        match self.war.progress.campaign.command(command) {
            Ok(()) if h.hold => format!("{} stays in harbour from tomorrow morning (FYOW 29.5).", h.vessel),
            Ok(()) => format!("{} sails from tomorrow morning when she is fit for sea (FYOW 29.4, 29.5).", h.vessel),
            Err(e) => format!("{}: refused: {e}", h.vessel),
        }
    }

    /// The player's command over his forces' detachments: split a Fraction,
    /// send or call in a Picket, take a Fraction back, merge two
    /// battlegroups, cut a railway (FYOW 2.7, 3.4, 3.7, 3.8, 30.5). Says what came of it in the
    /// words of the campaign log.
    pub fn map_order(&mut self, order: &MapOrder) -> String {
        let subject = match &order.0 {
            MapCommand::Fraction { force, .. } | MapCommand::Picket { force, .. } => force,
            MapCommand::EndFraction { fraction } | MapCommand::MergeFractions { fraction, .. } => fraction,
            MapCommand::CallIn { picket } => picket,
            MapCommand::Merge { senior, .. } => senior,
            MapCommand::CutRailway { force } | MapCommand::ShiftBox { force, .. } => force,
            MapCommand::Inquire { force, .. } | MapCommand::Conceal { force, .. } => force,
            MapCommand::Raid { squadron, board } => {
                if self.campaign().squadron_side(squadron) != Some(self.player) {
                    return format!("{squadron} is not yours to command.");
                }
                let (squadron, board) = (squadron.clone(), board.clone());
                return match self.war.progress.campaign.command(order.0.clone()) {
                    Ok(()) => match board {
                        Some(b) => {
                            format!("{squadron} will bomb {} each morning the weather lets it fly (FYOW 28.8).", b.0)
                        }
                        None => format!("{squadron} flies no more bombing raids (FYOW 28.8)."),
                    },
                    Err(e) => format!("{squadron}: refused: {e}"),
                };
            }
            MapCommand::StandOff { vessel, stand_off } => {
                if !self.campaign().fleet(self.player).any(|s| &s.vessel.id == vessel) {
                    return format!("{vessel} is not yours to command.");
                }
                let (vessel, stand_off) = (vessel.clone(), *stand_off);
                return match self.war.progress.campaign.command(order.0.clone()) {
                    Ok(()) if stand_off => format!(
                        "{vessel}'s captain keeps out of any naval engagement, waiting off the coast (FYOW 29.17)."
                    ),
                    Ok(()) => format!("{vessel}'s captain fights when the enemy is at sea (FYOW 29.17)."),
                    Err(e) => format!("{vessel}: refused: {e}"),
                };
            }
            other => return format!("{other:?} is given elsewhere."),
        };
        if self.campaign().force(subject).is_none_or(|f| f.side != self.player) {
            return format!("{subject} is not yours to command.");
        }
        let subject = subject.clone();
        if let MapCommand::Conceal { conceal, .. } = &order.0 {
            let conceal = *conceal;
            return match self.war.progress.campaign.command(order.0.clone()) {
                Ok(()) if conceal => format!(
                    "{subject}'s Elite and Enhanced infantry will hide on each board it occupies, from the session after it arrives (FYOW 15.4)."
                ),
                Ok(()) => format!("{subject} no longer hides on the board (FYOW 15.4)."),
                Err(e) => format!("{subject}: refused: {e}"),
            };
        }
        if let MapCommand::Inquire { questions, .. } = &order.0 {
            let asked: Vec<&str> = questions.iter().map(|q| q.words()).collect();
            let said = if asked.is_empty() { "nothing".to_owned() } else { asked.join(", ") };
            return match self.war.progress.campaign.command(order.0.clone()) {
                Ok(()) => format!("{subject}'s observers will ask for {said} (FYOW 17)."),
                Err(e) => format!("{subject}: refused: {e}"),
            };
        }
        match self.war.progress.campaign.command(order.0.clone()) {
            Ok(()) => {
                let events = self.take_events();
                let failed =
                    events.iter().any(|e| e.rule.section == "8.1 Command Decisions" && e.outcome["success"] == false);
                let names = |_: &str| None;
                let done = events
                    .iter()
                    .rev()
                    .find(|e| ["2.7", "3.", "13.7", "30.5"].iter().any(|s| e.rule.section.starts_with(s)));
                match done {
                    _ if failed => {
                        format!("{subject}: its commander's Command Decision failed (FYOW 8): nothing changes.")
                    }
                    Some(e) => warbound_rules::narrate::sentence(e, &names),
                    None => format!("{subject}: done."),
                }
            }
            Err(e) => format!("{subject}: refused: {e}"),
        }
    }

    /// The player's orders for one of his forces: kept for the next day's
    /// order phase when no day is under way, else given now by a Command
    /// Decision, which may fail or be refused.
    pub fn give_orders(&mut self, g: &GiveOrders) -> String {
        let to = g.objective.as_ref().map(|b| format!(" on {}", b.0)).unwrap_or_default();
        let what = format!("{}{to}", warbound_rules::narrate::words(&format!("{:?}", g.order)));
        if self.campaign().force(&g.force).is_none_or(|f| f.side != self.player) {
            return format!("{} is not yours to command.", g.force);
        }
        // The "if" is written with the orders it goes with, or taken out.
        let composite = g.composite.clone().map(|o| IfOrder { with: (g.order, g.objective.clone()), ..o });
        let before = self.campaign().composite.get(&g.force).cloned();
        let written = composite.as_ref().map(|o| format!(" {}.", o.words())).unwrap_or_default();
        if let Err(e) = self.war.progress.campaign.set_if_order(&g.force, composite) {
            return format!("{}: the \"if\" is refused: {e}", g.force);
        }
        if self.war.progress.sessions_today == 0 {
            self.war.progress.campaign.player_orders.insert(g.force.clone(), (g.order, g.objective.clone()));
            return format!("{}: {what} at the next day's orders (FYOW 10.2).{written}", g.force);
        }
        let order = MapCommand::Orders { force: g.force.clone(), order: g.order, objective: g.objective.clone() };
        let wanted = (g.order, g.objective.clone());
        let said = match self.war.progress.campaign.command(order) {
            Ok(()) => match self.campaign().force(&g.force) {
                Some(f) if f.pending_orders.as_ref() == Some(&wanted) => {
                    format!("{}: {what} from its commander's next activation (FYOW 10.6).{written}", g.force)
                }
                Some(f) if (f.order, f.objective.clone()) == wanted => format!("{}: {what}.{written}", g.force),
                _ => {
                    self.restore_if(&g.force, before);
                    format!(
                        "{}: its commander's Command Decision failed (FYOW 10.6): the orders stand as they were.",
                        g.force
                    )
                }
            },
            Err(e) => {
                self.restore_if(&g.force, before);
                format!("{}: {what} refused: {e}", g.force)
            }
        };
        self.take_events();
        said
    }

    /// Orders not given leave the "if" written before them as it was.
    fn restore_if(&mut self, force: &str, before: Option<warbound_campaign::play::composite::Composite>) {
        let composite = &mut self.war.progress.campaign.composite;
        match before {
            Some(b) => composite.insert(force.to_owned(), b),
            None => composite.remove(force),
        };
    }

    /// Re-fights the last paper battle on the table, both sides Auto, to its
    /// end, from the campaign as it stood before it (the same forces,
    /// weather and seed); the campaign itself goes on with the paper result.
    pub fn refight(&mut self) {
        let Some((a, d, before)) = self.before_paper.take() else { return };
        let mut copy = *before;
        let Some(t) = self.war.table.as_ref() else { return };
        let result = match copy.start_on_table(&a, &d, t as &dyn Tabletop) {
            Some(mut start) => {
                start.pause_every = None;
                start.continuations.clear();
                crate::data::shared_codex()
                    .map_err(|e| e.to_string())
                    .and_then(|codex| play::autoplay(start, BattleLog::default(), codex))
                    .map(|(_, r)| r)
            }
            None => Err("the table cannot field this battle".to_owned()),
        };
        self.refight = Some(result);
    }

    /// Resolves the battle first in line off the screen, on paper or on the
    /// headless table.
    pub fn resolve_off_screen(&mut self, fight: Fight) {
        let Step::Battles(due) = &mut self.step else { return };
        let Some((a, d)) = due.pop_front() else { return };
        let board = self.campaign().battle_of(&a, &d).map(|k| self.campaign().battles[k].board.0.clone());
        // What the table would have started from, for a re-fight beside the paper result.
        let fielded = self.campaign().battle_of(&a, &d).is_some_and(|k| self.campaign().fielded(k));
        self.before_paper =
            (fight == Fight::Paper && fielded).then(|| (a.clone(), d.clone(), Box::new(self.campaign().clone())));
        self.refight = None;
        self.war.resolve(&a, &d, fight == Fight::Unseen);
        let steps: Vec<RuleEvent> =
            self.take_events().into_iter().filter(|e| e.kind == EventKind::PaperBattle).collect();
        let how = if fight == Fight::Paper { "on paper" } else { "on the table, unseen" };
        let title = format!("{a} against {d} at {}, {how}", board.unwrap_or_default());
        self.report = Some((title, steps));
        self.next_battle();
    }
}

/// A campaign is being played: [`ActiveWar`] is there. A plain resource, for
/// run conditions (which may run off the main thread, where a non-send
/// resource cannot be read).
#[derive(Resource, Debug, Clone, Copy)]
pub struct CampaignOn;

/// Where a campaign played in the window is saved after every session (the
/// game's data directory; none for a screenshot or a test).
#[derive(Resource, Debug, Default, Clone)]
pub struct CampaignAutosave(pub Option<std::path::PathBuf>);

/// Asks to begin a campaign: its file, seed and the army the player commands.
#[derive(Message, Debug, Clone)]
pub struct StartCampaign {
    pub source: String,
    pub file: CampaignFile,
    pub seed: u64,
    pub player: Side,
}

/// Asks to go on with a saved campaign, the player commanding the army he
/// commanded (the first, for a campaign saved with both Auto).
#[derive(Message, Debug, Clone)]
pub struct ResumeCampaign(pub CampaignSave);

/// Asks to play the next session, or the day's sessions to its end.
#[derive(Message, Debug, Clone, Copy)]
pub struct AdvanceCampaign {
    pub to_day_end: bool,
}

/// The player's orders for one of his forces (FYOW 10): set for the next
/// day's order phase between days; during a day, a change of orders by a
/// Command Decision (10.6).
#[derive(Message, Debug, Clone)]
pub struct GiveOrders {
    pub force: String,
    pub order: OrderKind,
    pub objective: Option<BoardId>,
    /// An "if" written into them (FYOW 10.7).
    pub composite: Option<IfOrder>,
}

/// The player keeps one of his vessels in harbour, or lets it sail again,
/// from the next morning's placing (FYOW 29.5).
#[derive(Message, Debug, Clone)]
pub struct HoldInHarbour {
    pub vessel: String,
    pub hold: bool,
}

/// The player's command over his forces' detachments (FYOW 2.7, 3, 3.8).
#[derive(Message, Debug, Clone)]
pub struct MapOrder(pub MapCommand);

/// Re-fight the last paper battle on the table beside its paper result.
#[derive(Message, Debug, Clone, Copy)]
pub struct Refight;

/// The player has read the last battle's report.
#[derive(Message, Debug, Clone, Copy)]
pub struct CloseReport;

/// The player's choice for the battle first in line.
#[derive(Message, Debug, Clone, Copy)]
pub struct ChooseFight(pub Fight);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<StartCampaign>()
        .add_message::<ResumeCampaign>()
        .add_message::<ChooseFight>()
        .add_message::<AdvanceCampaign>()
        .add_message::<GiveOrders>()
        .add_message::<HoldInHarbour>()
        .add_message::<MapOrder>()
        .add_message::<CloseReport>()
        .add_message::<Refight>()
        .add_systems(
            Update,
            (
                begin_campaign,
                (demo.run_if(resource_exists::<CampaignDemo>), orders, advance, choose, back_to_map, day_on)
                    .chain()
                    .in_set(CampaignSystems),
            )
                .chain(),
        )
        .add_systems(OnEnter(AppState::Title), end_campaign);
}

fn begin_campaign(world: &mut World) {
    let starts: Vec<StartCampaign> = world.resource_mut::<Messages<StartCampaign>>().drain().collect();
    let resumes: Vec<ResumeCampaign> = world.resource_mut::<Messages<ResumeCampaign>>().drain().collect();
    let mut commands = BTreeMap::new();
    let made = if let Some(s) = starts.into_iter().last() {
        Some(Campaign::new(&s.source, s.file, s.seed).map_err(|e| format!("{}: {e}", s.source)).and_then(|c| {
            let table = crate::campaign::tabletop(false)?;
            let mut war = War::new(c, Battles::Table, table);
            war.progress.player = Some(s.player);
            Ok((war, s.player))
        }))
    } else {
        resumes.into_iter().last().map(|ResumeCampaign(saved)| {
            commands = saved.commands;
            let mut progress = saved.progress;
            progress.battles = Battles::Table;
            let player = *progress.player.get_or_insert(Side::Blue);
            crate::campaign::tabletop(false).map(|t| (War::resume(progress, t), player))
        })
    };
    match made {
        Some(Ok((mut war, player))) => {
            war.progress.campaign.player = Some(player);
            let mut w = ActiveWar::new(war, player);
            w.commands = commands;
            w.autosave = world.get_resource::<CampaignAutosave>().and_then(|a| a.0.clone());
            world.insert_non_send(w);
            world.insert_resource(CampaignOn);
            world.resource_mut::<NextState<AppState>>().set(AppState::Campaign);
        }
        Some(Err(e)) => {
            if let Some(mut n) = world.get_resource_mut::<Notices>() {
                n.0.push(format!("The campaign cannot begin: {e}"));
            }
            error!("the campaign cannot begin: {e}");
        }
        None => {}
    }
}

/// The player's choice for the battle first in line: off the screen at
/// once, or onto the table.
fn choose(world: &mut World) {
    let choices: Vec<ChooseFight> = world.resource_mut::<Messages<ChooseFight>>().drain().collect();
    let Some(ChooseFight(fight)) = choices.into_iter().last() else { return };
    let Some(mut w) = world.remove_non_send::<ActiveWar>() else { return };
    if !w.choices().contains(&fight) || !matches!(w.step, Step::Battles(_)) {
        world.insert_non_send(w);
        return;
    }
    match fight {
        Fight::Paper | Fight::Unseen => w.resolve_off_screen(fight),
        Fight::Command | Fight::Watch => to_table(world, &mut w, fight),
    }
    world.insert_non_send(w);
}

/// Sets the battle first in line on the table (or goes on with it there).
fn to_table(world: &mut World, w: &mut ActiveWar, fight: Fight) {
    let Step::Battles(due) = &w.step else { return };
    let Some((a, d)) = due.front().cloned() else { return };
    let Some(t) = w.war.table.as_ref() else { return };
    let start = w.war.progress.campaign.start_on_table(&a, &d, t as &dyn Tabletop);
    w.take_events();
    let Some(start) = start else {
        // The table could not field it: this session went to paper.
        if let Step::Battles(due) = &mut w.step {
            due.pop_front();
        }
        w.next_battle();
        return;
    };
    let c = w.campaign();
    let Some(k) = c.battle_of(&a, &d) else { return };
    let Some(table) = c.battles[k].table.as_ref() else { return };
    let key = table.key.clone();
    let player_side = table.sides.iter().position(|s| *s == w.player);
    w.board = Some(c.battles[k].board.clone());
    // The battle on the game's table goes on where the last session left it;
    // else it is set up afresh from its start, the player's commands replayed.
    let kept = world.get_resource::<CampaignBattle>().is_some_and(|b| b.key == key)
        && world
            .get_resource::<state::Battle>()
            .is_some_and(|b| b.start.continuations.len() + 1 == start.continuations.len());
    if fight == Fight::Command {
        w.commands.entry(key.clone()).or_default();
    }
    let result = if kept {
        let c: Continuation = start.continuations.last().cloned().unwrap_or_default();
        play::continue_with(world, c)
    } else {
        crate::battle::clear(world);
        let mut start = start;
        start.control = vec![setup::Control::Auto; start.scenario.sides.len()];
        let commanded = w.commands.contains_key(&key);
        if let (true, Some(s)) = (commanded, player_side) {
            start.control[s] = setup::Control::Player;
        }
        world.resource_mut::<ActiveBattle>().0 =
            Some(LoadedScenario { source: start.source.clone(), scenario: start.scenario.clone() });
        match w.commands.get(&key).filter(|c| !c.is_empty()) {
            Some(commands) => {
                let build = crate::launch::BUILD.to_owned();
                crate::battle::restart(world, Save { build, start, commands: commands.clone(), bound: 0 })
            }
            None => crate::battle::spawn::start(world, start),
        }
    };
    if let Err(e) = result {
        error!("the campaign battle cannot go on the table: {e}");
        crate::battle::clear(world);
        world.remove_resource::<CampaignBattle>();
        w.war.progress.campaign.table_refused(&a, &d, &e);
        w.take_events();
        if let Step::Battles(due) = &mut w.step {
            due.pop_front();
        }
        w.next_battle();
        return;
    }
    // Commanded or watched this session, whatever the sessions before.
    let control = if fight == Fight::Command { setup::Control::Player } else { setup::Control::Auto };
    if let (Some(s), Some(mut sides)) = (player_side, world.get_resource_mut::<state::Sides>()) {
        sides.0[s].control = control;
    }
    world.insert_resource(CampaignBattle { key, attacker: a, defender: d });
    let Step::Battles(due) = std::mem::replace(&mut w.step, Step::Map) else { return };
    w.step = Step::Table(due);
    world.resource_mut::<NextState<AppState>>().set(AppState::Battle);
}

/// The session's bounds played (or the battle over): its result to the
/// campaign, and back to the map.
fn back_to_map(world: &mut World) {
    if !world.get_resource::<State<AppState>>().is_some_and(|s| *s.get() == AppState::Battle) {
        return;
    }
    let Some(cb) = world.get_resource::<CampaignBattle>().cloned() else { return };
    if !play::stopped(world) {
        return;
    }
    let Some(result) = world.resource::<state::Battle>().result.clone() else { return };
    let Some(mut w) = world.remove_non_send::<ActiveWar>() else { return };
    if let Some(t) = w.war.table.as_ref() {
        w.war.progress.campaign.finish_on_table(&cb.attacker, &cb.defender, result, t as &dyn Tabletop);
    }
    w.take_events();
    if let Some(c) = w.commands.get_mut(&cb.key) {
        *c = play::commands(world);
    }
    if play::is_over(world) {
        w.commands.remove(&cb.key);
        world.remove_resource::<CampaignBattle>();
    }
    if let Step::Table(mut due) = std::mem::replace(&mut w.step, Step::Map) {
        due.pop_front();
        w.step = Step::Battles(due);
        w.next_battle();
    }
    world.insert_non_send(w);
    world.resource_mut::<NextState<AppState>>().set(AppState::Campaign);
}

fn orders(
    mut given: MessageReader<GiveOrders>,
    mut harbour: MessageReader<HoldInHarbour>,
    mut map_orders: MessageReader<MapOrder>,
    mut closed: MessageReader<CloseReport>,
    mut refight: MessageReader<Refight>,
    war: Option<NonSendMut<ActiveWar>>,
) {
    let Some(mut w) = war else { return };
    if refight.read().count() > 0 {
        w.refight();
    }
    if closed.read().count() > 0 {
        w.report = None;
        w.before_paper = None;
        w.refight = None;
    }
    for g in given.read() {
        w.orders_said = Some(w.give_orders(g));
    }
    for h in harbour.read() {
        w.orders_said = Some(w.hold_in_harbour(h));
    }
    for o in map_orders.read() {
        w.orders_said = Some(w.map_order(o));
    }
}

fn advance(mut asked: MessageReader<AdvanceCampaign>, war: Option<NonSendMut<ActiveWar>>) {
    let Some(a) = asked.read().last().copied() else { return };
    let Some(mut w) = war else { return };
    if w.step == Step::Map {
        w.to_day_end = a.to_day_end;
        w.open_session();
    }
}

/// The campaign's steps after it has begun: they wait while the camera
/// flies between the map and the table.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CampaignSystems;

/// `--campaign C --demo`: the program plays the player's army too, day
/// after day, and watches every battle on the table.
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct CampaignDemo;

fn demo(war: Option<NonSendMut<ActiveWar>>, screen: Res<State<AppState>>, mut choose: MessageWriter<ChooseFight>) {
    let Some(mut w) = war else { return };
    if *screen.get() != AppState::Campaign {
        return;
    }
    w.report = None;
    match &w.step {
        Step::Map if !w.war.ended() => w.to_day_end = true,
        Step::Battles(_) => {
            let fight = if w.choices().contains(&Fight::Watch) { Fight::Watch } else { Fight::Paper };
            choose.write(ChooseFight(fight));
        }
        _ => {}
    }
}

/// Advancing to the day's end opens the next session once one closes.
fn day_on(war: Option<NonSendMut<ActiveWar>>, screen: Res<State<AppState>>) {
    let Some(mut w) = war else { return };
    if *screen.get() == AppState::Campaign && w.to_day_end && w.step == Step::Map && w.report.is_none() {
        w.open_session();
    }
}

/// Back at the title, the campaign is put away (its autosave holds it) with
/// any battle of it kept for the next session.
fn end_campaign(world: &mut World) {
    world.remove_non_send::<ActiveWar>();
    world.remove_resource::<CampaignOn>();
    if world.remove_resource::<CampaignBattle>().is_some() {
        crate::battle::clear(world);
        world.resource_mut::<ActiveBattle>().0 = None;
    }
}

#[cfg(test)]
mod tests {
    use warbound_campaign::play::intelligence::Question;

    use super::*;

    #[test]
    fn the_player_sets_his_own_observers_questions_only() {
        let war = warbound_war::shipped::war("guernsey-1942", 3, Battles::Paper).unwrap();
        let mut w = ActiveWar::new(war, Side::Blue);
        let side_force = |w: &ActiveWar, side: Side| {
            w.campaign().forces.iter().find(|f| f.side == side && f.is_battlegroup()).unwrap().name.clone()
        };
        let (mine, theirs) = (side_force(&w, Side::Blue), side_force(&w, Side::Red));
        let ask = |force: &str| {
            MapOrder(MapCommand::Inquire {
                force: force.to_owned(),
                questions: vec![Question::Troops, Question::Attitude],
            })
        };
        let said = w.map_order(&ask(&theirs));
        assert_eq!(said, format!("{theirs} is not yours to command."));
        assert_eq!(w.campaign().force(&theirs).unwrap().questions, None);
        let said = w.map_order(&ask(&mine));
        assert_eq!(said, format!("{mine}'s observers will ask for the kinds of troops, their attitude (FYOW 17)."));
        assert_eq!(w.campaign().force(&mine).unwrap().questions, Some(vec![Question::Troops, Question::Attitude]));
    }

    #[test]
    fn the_player_sends_his_own_bombers_only() {
        let war = warbound_war::shipped::war("guernsey-1942", 3, Battles::Paper).unwrap();
        let mut w = ActiveWar::new(war, Side::Blue);
        let bomber = |w: &ActiveWar, side: Side| {
            let air = w.campaign().army(side).air.as_ref().unwrap();
            air.squadrons
                .iter()
                .map(|(s, _)| s.name.clone())
                .find(|n| w.campaign().bomb_load(side, n).is_some())
                .unwrap()
        };
        let (mine, theirs) = (bomber(&w, Side::Blue), bomber(&w, Side::Red));
        let board = w.campaign().occupation.keys().next().unwrap().clone();
        let raid =
            |squadron: &str| MapOrder(MapCommand::Raid { squadron: squadron.to_owned(), board: Some(board.clone()) });
        assert_eq!(w.map_order(&raid(&theirs)), format!("{theirs} is not yours to command."));
        assert!(w.campaign().army(Side::Red).air.as_ref().unwrap().raids.is_empty());
        let said = w.map_order(&raid(&mine));
        assert_eq!(said, format!("{mine} will bomb {} each morning the weather lets it fly (FYOW 28.8).", board.0));
        assert_eq!(w.campaign().army(Side::Blue).air.as_ref().unwrap().raids.get(&mine), Some(&board));
    }
}
