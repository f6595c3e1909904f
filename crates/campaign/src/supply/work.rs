//! FYOW 31 Work and Tasks, and the loading it drives: FYOW 24 loading and
//! unloading at Transit hubs and elsewhere (with 24.2, supply through a port,
//! airfield or beach), 31.4 convoy loading, 31.5 trains. A task accumulates a
//! session's dice until its need is reached; night, weather, rationing and
//! chance cards change the score or the need.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::day::BOUNDS_PER_SESSION;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::supply::logistics::{Disruption, Mode, SupplyLine};
use crate::supply::{SupplyError, fyow};

/// How a session's dice make its score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Combine {
    /// Accumulated totals ("throw 4D10 and record the total").
    Sum,
    /// "The scores are multiplied together" (loading, FYOW 24, 31.4, 31.5).
    Product,
}

/// The dice thrown for a task each session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkDice {
    pub d10: u8,
    pub d6: u8,
    pub combine: Combine,
}

impl WorkDice {
    pub const fn sum(d10: u8, d6: u8) -> Self {
        Self { d10, d6, combine: Combine::Sum }
    }

    pub const fn product(d10: u8, d6: u8) -> Self {
        Self { d10, d6, combine: Combine::Product }
    }
}

/// The session's conditions for a task (FYOW 31, 20.7.3, 25–27, 32).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkConditions {
    /// A night session: "the dice scores achieved should be halved (rounded up)".
    pub night: bool,
    /// Weather "deduct a total of N pips from the dice score thrown": heavy rain
    /// 2, snow 3, fog 3 (FYOW 25.7, 26.7), freezing wind 2 (26.7).
    pub total_pips: u8,
    /// Weather "deduct 1 pip from each dice score thrown": Hot/Fair (FYOW 27.6).
    pub pips_each_die: u8,
    /// A chance card's "Add 2 (1) to every Work & Task need" today (FYOW 32).
    pub need_added: u32,
    /// The working force's Supply mode: no work at Rest, more needed Rationed.
    pub mode: Mode,
}

impl WorkConditions {
    /// A fair day session by an Active force.
    pub const DAY: Self = Self { night: false, total_pips: 0, pips_each_die: 0, need_added: 0, mode: Mode::Active };
}

/// The need for a task in a Supply mode.
///
/// Reading (README contradiction, rationed work and tasks): FYOW 20.7.3
/// doubles "the requirements for Work and Task dice throws"; FYOW 31.1 adds
/// "50% ... to the dice requirement"; 31.1's own example makes the 45 of the
/// pontoon bridge "(90 + 50%) 135". Both rules are campaign rules and the
/// book's only worked figure applies both, so the need is doubled and then
/// half as much again: three times the need (test
/// `book_rationed_pontoon_needs_135`). On the table `warbound_rules::logistics`
/// doubles only, as the 2020 addendum says.
pub const fn need_in_mode(need: u32, mode: Mode) -> u32 {
    match mode {
        Mode::Active | Mode::Rest => need,
        Mode::Rationed => {
            let doubled = need * 2;
            doubled + doubled / 2
        }
    }
}

/// One session's work.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionWork {
    pub d10_faces: Vec<u8>,
    pub d6_faces: Vec<u8>,
    pub score: u32,
    pub accumulated: u32,
    pub need: u32,
    pub done: bool,
}

/// A piece of Work or a Task in hand: its need, its dice, its score so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Task {
    pub name: String,
    /// The need of an Active force by day, before rationing and chance cards.
    pub need: u32,
    pub dice: WorkDice,
    pub accumulated: u32,
    /// The book section the task comes from.
    pub section: String,
}

/// Who clears a 6 inch x 6 inch minefield (FYOW 31 example).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MineClearers {
    /// "a specialist AFV": 2D10 a bound.
    Afv,
    /// "2 sappers": 1D10 a bound.
    TwoSappers,
    /// "4 infantrymen": 1D6 a bound.
    FourInfantry,
}

/// FYOW 31 example: "The minefield is cleared when they have accumulated a score of 10."
pub const MINEFIELD_NEED: u32 = 10;
/// FYOW 31.1 example: the bridge "finished when an accumulated score of 45 is achieved".
pub const PONTOON_NEED: u32 = 45;
/// FYOW 31.1 example: the bridging "Battlegroup" of 10 engineers "throw 4D10" a session.
pub const PONTOON_SESSION_D10: u8 = 4;

impl Task {
    /// Any work: a need above 0 and at least one die.
    pub fn new(name: &str, need: u32, dice: WorkDice, section: &str) -> Result<Self, SupplyError> {
        if need == 0 || dice.d10 + dice.d6 == 0 {
            return Err(SupplyError::EmptyTask);
        }
        Ok(Self { name: name.to_owned(), need, dice, accumulated: 0, section: section.to_owned() })
    }

    /// FYOW 31.1 example: a pontoon bridge by a bridging "Battlegroup" of 10
    /// engineers: 4D10 a session to 45, available the session after.
    ///
    /// Reading (README contradiction, pontoon bridge): *Heroes All* builds it
    /// with 1D6 per engineer to 60, FYOW 31 with 1D10 per 4 engineers to 45.
    /// On the campaign map FYOW's own example governs — 4D10 a session to 45;
    /// on the table `warbound_rules::engineers` keeps *Heroes All*'s 60 (test
    /// `reading_campaign_pontoon_is_fyow_45_not_heroes_all_60`).
    pub fn pontoon_bridge() -> Self {
        Self {
            name: "pontoon bridge".into(),
            need: PONTOON_NEED,
            dice: WorkDice::sum(PONTOON_SESSION_D10, 0),
            accumulated: 0,
            section: "31.1 Work and Tasks".into(),
        }
    }

    /// FYOW 31 example on the campaign map: the bound's dice (AFV 2D10, 2
    /// sappers 1D10, 4 infantrymen 1D6) "multiplied" by the 4 bounds of a
    /// session (31.1: "each session represents 4 bounds. Dice throws must
    /// therefore be multiplied."), to 10.
    pub fn minefield_clearance(by: MineClearers) -> Self {
        let dice = match by {
            MineClearers::Afv => WorkDice::sum(2 * BOUNDS_PER_SESSION, 0),
            MineClearers::TwoSappers => WorkDice::sum(BOUNDS_PER_SESSION, 0),
            MineClearers::FourInfantry => WorkDice::sum(0, BOUNDS_PER_SESSION),
        };
        Self {
            name: "minefield clearance".into(),
            need: MINEFIELD_NEED,
            dice,
            accumulated: 0,
            section: "31.1 Work and Tasks".into(),
        }
    }

    /// FYOW 31.4: a supply convoy loads with 1D10 x 1D6 a session until the
    /// load spaces being filled are reached; it departs the session after.
    pub fn convoy_loading(load_spaces: u32) -> Result<Self, SupplyError> {
        Self::new("convoy loading", load_spaces, WorkDice::product(1, 1), "31.4 Convoys")
    }

    /// FYOW 31.5 (and 30): a train loads or unloads D10 x D6 load spaces a session.
    pub fn train_loading(load_spaces: u32) -> Result<Self, SupplyError> {
        Self::new("train loading", load_spaces, WorkDice::product(1, 1), "31.5 Trains used as transport")
    }

    /// FYOW 24 and 24.1: loading or unloading `load_spaces` at a site; a small
    /// cove or a riverside takes no vehicles.
    pub fn handling(site: Site, load_spaces: u32, vehicles: bool) -> Result<Self, SupplyError> {
        if vehicles && !site.takes_vehicles() {
            return Err(SupplyError::NoVehiclesHere);
        }
        let section =
            if site.is_transit_hub() { "24 Loading or Unloading" } else { "24.1 Non-Transit Hub load handling" };
        Self::new(&format!("{} handling", site.words()), load_spaces, site.dice(), section)
    }

    /// The need under these conditions: rationed (see [`need_in_mode`]),
    /// then any chance card's addition.
    pub fn need_under(&self, cond: &WorkConditions) -> u32 {
        need_in_mode(self.need, cond.mode) + cond.need_added
    }

    /// One session's throw (FYOW 31, 31.1).
    ///
    /// Order of working: each die less the per-die pips (not below 0), the
    /// dice summed or multiplied, less the total pips (not below 0), then
    /// halved rounded up at night.
    ///
    /// Reading (FYOW 31 example): the minefield's "10 (or 14 if the activity is
    /// during a night session)" is the games table's figure; the campaign's
    /// rule is the general one above it, "at night, the dice scores achieved
    /// should be halved (rounded up)", and the need stays (test
    /// `reading_night_halves_the_score_and_keeps_the_need`).
    ///
    /// A force at Rest may not "Undertake any Work & Tasks" (FYOW 20.6).
    pub fn session(
        &mut self,
        cond: &WorkConditions,
        dice: &mut impl Roll,
        id: &str,
    ) -> Result<(SessionWork, RuleEvent), SupplyError> {
        if cond.mode == Mode::Rest {
            return Err(SupplyError::NotAllowed { action: "WorkAndTasks".into(), mode: "Rest".into() });
        }
        let need = self.need_under(cond);
        if self.accumulated >= need {
            return Err(SupplyError::AlreadyDone);
        }
        let d10_faces = dice.throw(usize::from(self.dice.d10), 10);
        let d6_faces = dice.throw(usize::from(self.dice.d6), 6);
        let each = d10_faces.iter().chain(&d6_faces).map(|&f| u32::from(f.saturating_sub(cond.pips_each_die)));
        let raw: u32 = match self.dice.combine {
            Combine::Sum => each.sum(),
            Combine::Product => each.product(),
        };
        let after_pips = raw.saturating_sub(u32::from(cond.total_pips));
        let score = if cond.night { after_pips.div_ceil(2) } else { after_pips };
        self.accumulated += score;
        let done = self.accumulated >= need;
        let work = SessionWork { d10_faces, d6_faces, score, accumulated: self.accumulated, need, done };
        let event = RuleEvent::new(EventKind::Work, fyow(&self.section))
            .actor(id)
            .input("task", &self.name, "")
            .input("dice", self.dice, "the session's throw")
            .input("base_need", self.need, "by day, Active")
            .input("conditions", cond, "night halves; weather pips; rationed x3 (20.7.3 + 31.1); chance cards")
            .dice(10, &work.d10_faces)
            .dice(6, &work.d6_faces)
            .outcome(
                json!({ "raw": raw, "score": score, "accumulated": self.accumulated, "need": need, "done": done }),
            );
        Ok((work, event))
    }
}

/// Places where loads are handled (FYOW 24 Transit hubs, 24.1 elsewhere).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Site {
    LargePort,
    /// Small "fishing" port.
    SmallPort,
    /// "Invasion" Beach.
    InvasionBeach,
    Airfield,
    MakeshiftAirstrip,
    /// Roadside/yard.
    RoadsideYard,
    RailwayYard,
    RiverFerryTerminal,
    /// 24.1: no vehicles.
    SmallCove,
    /// 24.1: no vehicles.
    Riverside,
}

impl Site {
    /// FYOW 24 and 24.1: the dice multiplied together each session, row for row.
    pub const fn dice(self) -> WorkDice {
        match self {
            Site::LargePort => WorkDice::product(3, 1),          // D10 x D10 x D10 x D6
            Site::SmallPort => WorkDice::product(1, 3),          // D10 x D6 x D6 x D6
            Site::InvasionBeach => WorkDice::product(2, 2),      // D10 x D10 x D6 x D6
            Site::Airfield => WorkDice::product(2, 2),           // D10 x D10 x D6 x D6
            Site::MakeshiftAirstrip => WorkDice::product(1, 3),  // D10 x D6 x D6 x D6
            Site::RoadsideYard => WorkDice::product(1, 1),       // D10 x D6
            Site::RailwayYard => WorkDice::product(1, 1),        // D10 x D6
            Site::RiverFerryTerminal => WorkDice::product(1, 2), // D10 x D6 x D6
            Site::SmallCove => WorkDice::product(0, 2),          // D6 x D6 (no vehicles)
            Site::Riverside => WorkDice::product(0, 2),          // D6 x D6 (no vehicles)
        }
    }

    /// The site as the player reads it: "small cove".
    pub const fn words(self) -> &'static str {
        match self {
            Site::LargePort => "large port",
            Site::SmallPort => "small fishing port",
            Site::InvasionBeach => "invasion beach",
            Site::Airfield => "airfield",
            Site::MakeshiftAirstrip => "makeshift airstrip",
            Site::RoadsideYard => "roadside yard",
            Site::RailwayYard => "railway yard",
            Site::RiverFerryTerminal => "river ferry terminal",
            Site::SmallCove => "small cove",
            Site::Riverside => "riverside",
        }
    }

    /// A Transit hub of FYOW 24 (not the 24.1 places without cranes or ramps).
    pub const fn is_transit_hub(self) -> bool {
        !matches!(self, Site::SmallCove | Site::Riverside)
    }

    /// FYOW 24.1: "Small cove D6 x D6 (no vehicles); Riverside D6 x D6 (no vehicles)".
    pub const fn takes_vehicles(self) -> bool {
        self.is_transit_hub()
    }
}

/// FYOW 24.2: a force supplied through a port, airfield or beach "must be
/// treated as having an Elongated or Contested supply route", and the line is
/// Broken when the weather stops ships arriving or aircraft flying.
pub fn line_through_hub(contested: bool, weather_stops_delivery: bool) -> SupplyLine {
    let mut line = SupplyLine::new(&[if contested { Disruption::Contested } else { Disruption::Elongated }]);
    line.broken = weather_stops_delivery;
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use warbound_rules::dice::{Dice, Scripted};

    fn rationed() -> WorkConditions {
        WorkConditions { mode: Mode::Rationed, ..WorkConditions::DAY }
    }

    #[test]
    fn book_pontoon_bridge_4d10_a_session_to_45() {
        let mut bridge = Task::pontoon_bridge();
        let (w, e) = bridge.session(&WorkConditions::DAY, &mut Scripted::new([5, 6, 7, 4]), "Bridging BG").unwrap();
        assert_eq!((w.score, w.done), (22, false));
        assert_eq!(e.kind, EventKind::Work);
        assert_eq!(e.rule.section, "31.1 Work and Tasks");
        let (w, _) = bridge.session(&WorkConditions::DAY, &mut Scripted::new([10, 3, 8, 2]), "Bridging BG").unwrap();
        assert_eq!((w.accumulated, w.done), (45, true), "a 0 counts as 10; 45 reached");
        assert_eq!(bridge.session(&WorkConditions::DAY, &mut Scripted::new([]), "B"), Err(SupplyError::AlreadyDone));
    }

    #[test]
    fn book_rationed_pontoon_needs_135() {
        assert_eq!(need_in_mode(PONTOON_NEED, Mode::Rationed), 135, "(90 + 50%) 135");
        assert_eq!(need_in_mode(PONTOON_NEED, Mode::Active), 45);
        let mut bridge = Task::pontoon_bridge();
        bridge.accumulated = 100;
        let (w, _) = bridge.session(&rationed(), &mut Scripted::new([10, 10, 10, 4]), "B").unwrap();
        assert_eq!((w.need, w.accumulated, w.done), (135, 134, false));
        assert_eq!(
            bridge.session(&WorkConditions::DAY, &mut Scripted::new([]), "B"),
            Err(SupplyError::AlreadyDone),
            "134 already passes the 45 once supplied again"
        );
    }

    #[test]
    fn reading_campaign_pontoon_is_fyow_45_not_heroes_all_60() {
        let bridge = Task::pontoon_bridge();
        assert_eq!(bridge.need, 45);
        assert_ne!(bridge.need, warbound_rules::engineers::PONTOON_SCORE, "Heroes All's 60 is the table's");
        assert_eq!(bridge.dice, WorkDice::sum(4, 0));
    }

    #[test]
    fn book_minefield_dice_multiplied_by_four_bounds() {
        assert_eq!(Task::minefield_clearance(MineClearers::Afv).dice, WorkDice::sum(8, 0));
        assert_eq!(Task::minefield_clearance(MineClearers::TwoSappers).dice, WorkDice::sum(4, 0));
        let mut inf = Task::minefield_clearance(MineClearers::FourInfantry);
        let (w, _) = inf.session(&WorkConditions::DAY, &mut Scripted::new([1, 2, 3, 4]), "Sec").unwrap();
        assert!(w.done && w.score == 10);
    }

    #[test]
    fn reading_night_halves_the_score_and_keeps_the_need() {
        let night = WorkConditions { night: true, ..WorkConditions::DAY };
        let mut mf = Task::minefield_clearance(MineClearers::FourInfantry);
        let (w, _) = mf.session(&night, &mut Scripted::new([1, 2, 3, 3]), "Sec").unwrap();
        assert_eq!((w.score, w.need, w.done), (5, 10, false), "9 halved, rounded up; need 10 not 14");
    }

    #[test]
    fn weather_pips_total_and_each_die() {
        let heavy_rain = WorkConditions { total_pips: 2, ..WorkConditions::DAY };
        let mut t = Task::new("a road repair", 24, WorkDice::sum(1, 0), "31.2 Repairs").unwrap();
        assert_eq!(t.session(&heavy_rain, &mut Scripted::new([7]), "Pl").unwrap().0.score, 5);
        assert_eq!(t.session(&heavy_rain, &mut Scripted::new([1]), "Pl").unwrap().0.score, 0, "never below 0");
        let hot = WorkConditions { pips_each_die: 1, ..WorkConditions::DAY };
        let mut b = Task::pontoon_bridge();
        assert_eq!(b.session(&hot, &mut Scripted::new([1, 5, 5, 5]), "B").unwrap().0.score, 12);
        let mut c = Task::convoy_loading(100).unwrap();
        assert_eq!(c.session(&hot, &mut Scripted::new([5, 4]), "C").unwrap().0.score, 12, "(5-1) x (4-1)");
    }

    #[test]
    fn chance_card_adds_to_the_need_and_rest_forbids_work() {
        let card = WorkConditions { need_added: 2, ..WorkConditions::DAY };
        let mut t = Task::new("a road repair", 24, WorkDice::sum(1, 0), "31.2 Repairs").unwrap();
        t.accumulated = 20;
        let (w, _) = t.session(&card, &mut Scripted::new([5]), "Pl").unwrap();
        assert_eq!((w.need, w.done), (26, false));
        let rest = WorkConditions { mode: Mode::Rest, ..WorkConditions::DAY };
        assert!(matches!(t.session(&rest, &mut Scripted::new([]), "Pl"), Err(SupplyError::NotAllowed { .. })));
    }

    #[test]
    fn book_convoy_loading_d10_times_d6_to_its_load_spaces() {
        // Six service trucks' worth of load spaces (FYOW 20.10, 22): 6 x 12.
        let mut c = Task::convoy_loading(72).unwrap();
        let (w, e) = c.session(&WorkConditions::DAY, &mut Scripted::new([7, 5]), "Convoy").unwrap();
        assert_eq!((w.score, w.done), (35, false), "another throw next session");
        assert_eq!(e.rule.section, "31.4 Convoys");
        let (w, _) = c.session(&WorkConditions::DAY, &mut Scripted::new([10, 4]), "Convoy").unwrap();
        assert_eq!((w.accumulated, w.done), (75, true));
        assert_eq!(Task::convoy_loading(0), Err(SupplyError::EmptyTask));
    }

    #[test]
    fn book_train_loading_d10_times_d6() {
        let mut t = Task::train_loading(30).unwrap();
        let (w, e) = t.session(&WorkConditions::DAY, &mut Scripted::new([6, 5]), "Train").unwrap();
        assert_eq!((w.score, w.done), (30, true));
        assert_eq!(e.rule.section, "31.5 Trains used as transport");
    }

    #[test]
    fn transit_hub_rows() {
        let rows = [
            (Site::LargePort, 3, 1),
            (Site::SmallPort, 1, 3),
            (Site::InvasionBeach, 2, 2),
            (Site::Airfield, 2, 2),
            (Site::MakeshiftAirstrip, 1, 3),
            (Site::RoadsideYard, 1, 1),
            (Site::RailwayYard, 1, 1),
            (Site::RiverFerryTerminal, 1, 2),
            (Site::SmallCove, 0, 2),
            (Site::Riverside, 0, 2),
        ];
        for (site, d10, d6) in rows {
            assert_eq!(site.dice(), WorkDice::product(d10, d6), "{site:?}");
        }
        let mut port = Task::handling(Site::LargePort, 500, true).unwrap();
        let (w, _) = port.session(&WorkConditions::DAY, &mut Scripted::new([10, 5, 2, 6]), "Port").unwrap();
        assert_eq!(w.score, 600);
        assert!(w.done);
        assert_eq!(Task::handling(Site::SmallCove, 10, true), Err(SupplyError::NoVehiclesHere));
        let mut cove = Task::handling(Site::Riverside, 10, false).unwrap();
        assert_eq!(cove.section, "24.1 Non-Transit Hub load handling");
        assert_eq!(cove.name, "riverside handling", "named for the player");
        let (w, _) = cove.session(&WorkConditions::DAY, &mut Scripted::new([3, 3]), "Cove").unwrap();
        assert_eq!((w.d10_faces.len(), w.score), (0, 9));
    }

    #[test]
    fn supply_through_a_hub_is_elongated_or_contested() {
        assert_eq!(line_through_hub(false, false).record(), "E");
        assert_eq!(line_through_hub(true, true).record(), "BC");
    }

    #[test]
    fn bad_tasks_are_refused() {
        assert_eq!(Task::new("x", 0, WorkDice::sum(1, 0), "31"), Err(SupplyError::EmptyTask));
        assert_eq!(Task::new("x", 5, WorkDice::sum(0, 0), "31"), Err(SupplyError::EmptyTask));
    }

    #[test]
    fn tasks_always_finish_and_scores_never_exceed_the_dice() {
        for seed in 0..200 {
            let mut dice = Dice::new(seed);
            let mut t = Task::pontoon_bridge();
            let cond = WorkConditions { night: seed % 2 == 0, total_pips: (seed % 4) as u8, ..rationed() };
            let mut sessions = 0;
            loop {
                let (w, _) = t.session(&cond, &mut dice, "B").unwrap();
                assert!(w.score <= 40);
                sessions += 1;
                if w.done {
                    break;
                }
            }
            assert!((4..200).contains(&sessions), "{sessions}");
        }
    }
}
