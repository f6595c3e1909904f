//! FYOW 20 Logistics: the 3D6 Stockpile, the daily 3D6 "S" throw, supply
//! routes (D, C, E, A, B and their combinations), the 10S/6S daily needs,
//! Rest and Rationed modes, the rationed fuel test, recovery of abandoned
//! vehicles, sharing supply dice, convoys, non-combat units, Home Guard and
//! attacks on static stocks.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::supply::{SupplyError, fyow};

/// FYOW 20: "each Battlegroup throws 3D6 to determine its Stockpile" and
/// "each Battlegroup or Fraction throws 3D6" for the day's S.
pub const DAILY_DICE: u8 = 3;
/// FYOW 20.4: "a nominal daily requirement of 10 S".
pub const ACTIVE_NEED: u32 = 10;
/// FYOW 20.6: "In rest mode, the daily requirement ... is 6S".
pub const REST_NEED: u32 = 6;
/// FYOW 20.1: "The force starts with 6D6": 1D6 for the days, then 5D6 for the 1s.
pub const DISRUPTION_DICE: usize = 5;
/// FYOW 20.7.1: "A score of 5 or less disables all of the Battlegroup/Fraction vehicles."
pub const FUEL_DISABLED_AT_OR_BELOW: u8 = 5;
/// FYOW 20.10: "The convoy comprises a nominal 6 trucks."
pub const CONVOY_TRUCKS: u8 = 6;

/// Who holds a Stockpile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    Battlegroup,
    Fraction,
}

impl Formation {
    /// FYOW 20.4.1: "The maximum size of Stockpile for a Battlegroup is 20S ... for a Fraction is 5S."
    pub const fn stockpile_limit(self) -> u32 {
        match self {
            Formation::Battlegroup => 20,
            Formation::Fraction => 5,
        }
    }
}

/// The Supply state on the Record Sheet (FYOW 20.4–20.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// The day's 10S met.
    Active,
    /// 6S a day, and the restrictions of FYOW 20.6.
    Rest,
    /// Short of S but acting: all its S used, the restrictions of FYOW 20.7.
    Rationed,
}

/// A disrupted line of supply (FYOW 20.1), each a letter on the Record (20.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Disruption {
    /// "A" — mountains, jungle: 2 pips lost per 1 thrown.
    Abnormal,
    /// "C" — through enemy country, across contested water, or surrounded: 1D6 lost per 1.
    Contested,
    /// "E" — extended, e.g. across the Western Desert: 1 pip lost per 1.
    Elongated,
}

impl Disruption {
    /// The letter of FYOW 20.3.
    pub const fn letter(self) -> char {
        match self {
            Disruption::Abnormal => 'A',
            Disruption::Contested => 'C',
            Disruption::Elongated => 'E',
        }
    }

    /// FYOW 20.1: what each "1" of the 5D6 costs the daily throw, as (dice, pips).
    pub const fn penalty_per_one(self) -> (u8, u8) {
        match self {
            Disruption::Contested => (1, 0),
            Disruption::Elongated => (0, 1),
            Disruption::Abnormal => (0, 2),
        }
    }
}

/// FYOW 20.1: "A force is surrounded if all map boards around it are occupied
/// by enemy forces each comprising at least 1 Company (or equivalent)";
/// one flag per adjacent Map Board. A board with no neighbours is not surrounded.
pub fn surrounded(adjacent_held_by_enemy_company: &[bool]) -> bool {
    !adjacent_held_by_enemy_company.is_empty() && adjacent_held_by_enemy_company.iter().all(|&held| held)
}

/// The route a force HQ traces to its home territory, as the map gives it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    /// Map Board links crossed to deliver Supply to the force HQ.
    pub links: u32,
    /// Of those, links with an MP number of 8 or more.
    pub hard_links: u32,
    /// The line passes through enemy country or across contested water.
    pub through_enemy: bool,
    /// The force is [`surrounded`].
    pub surrounded: bool,
}

/// FYOW 20.1's suggested limits, which "Players should always be guided by
/// historical fact" in setting: 12 links Elongated ("2 days train travel" in
/// Europe), 3 or more links of 8+ MP Abnormal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteGuide {
    pub elongated_links: u32,
    pub abnormal_links: u32,
}

impl RouteGuide {
    /// The book's examples: 12 links, 3 links.
    pub const BOOK: Self = Self { elongated_links: 12, abnormal_links: 3 };

    /// The disruptions a route suggests (none: Direct).
    ///
    /// Reading (FYOW 20.1): "could be set at, for example, 12 links" is met
    /// by 12 links or more, as "3 or more links" is for Abnormal (test
    /// `route_guide_suggests_the_letters`).
    pub fn disruptions(&self, route: Route) -> Vec<Disruption> {
        let mut d = Vec::new();
        if route.hard_links >= self.abnormal_links {
            d.push(Disruption::Abnormal);
        }
        if route.through_enemy || route.surrounded {
            d.push(Disruption::Contested);
        }
        if route.links >= self.elongated_links {
            d.push(Disruption::Elongated);
        }
        d
    }
}

/// The 1s thrown for one disruption in the current period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DisruptionThrow {
    pub kind: Disruption,
    pub ones: u8,
}

/// A period of disruption: its days left (today included) and the 1s thrown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DisruptionPeriod {
    pub days_left: u8,
    pub throws: Vec<DisruptionThrow>,
}

/// The line of supply between a force HQ (Division or Brigade) and its home
/// territory (FYOW 20.1); "this condition can change daily".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SupplyLine {
    /// The disruptions that apply; none is a Direct line.
    disruptions: Vec<Disruption>,
    /// Weather or partisans (or an attack on the HQ's stocks) have broken it: "B".
    pub broken: bool,
    period: Option<DisruptionPeriod>,
}

impl SupplyLine {
    /// A line with these disruptions (none: Direct). Duplicates count once.
    pub fn new(disruptions: &[Disruption]) -> Self {
        let mut d = disruptions.to_vec();
        d.sort_unstable();
        d.dedup();
        Self { disruptions: d, broken: false, period: None }
    }

    /// The disruptions that apply.
    pub fn disruptions(&self) -> &[Disruption] {
        &self.disruptions
    }

    /// The current period, if one is running.
    pub fn period(&self) -> Option<&DisruptionPeriod> {
        self.period.as_ref()
    }

    /// The route changes ("this condition can change daily").
    ///
    /// Reading (FYOW 20.1): a changed route ends the running period, and the
    /// next day's assessment throws anew for the new route (test
    /// `a_changed_route_is_assessed_anew`).
    pub fn set_disruptions(&mut self, disruptions: &[Disruption]) {
        let new = Self::new(disruptions);
        if new.disruptions != self.disruptions {
            self.disruptions = new.disruptions;
            self.period = None;
        }
    }

    /// FYOW 20.3: the letters on the Battlegroup Record, in alphabetical
    /// order, with the days a penalty period has left ("C3", then "C2"; "BE").
    pub fn record(&self) -> String {
        let mut letters: Vec<char> = self.disruptions.iter().map(|d| d.letter()).collect();
        if self.broken {
            letters.push('B');
        }
        if self.disruptions.is_empty() {
            letters.push('D');
        }
        letters.sort_unstable();
        let mut s: String = letters.into_iter().collect();
        if let Some(p) = &self.period {
            s.push_str(&p.days_left.to_string());
        }
        s
    }

    /// The start of a day (FYOW 4.4 "Changes in the condition of Supply routes
    /// are noted"): a running period counts down a day; when none runs, a
    /// disrupted line throws 1D6 for the days and 5D6 for each disruption,
    /// counting the 1s (FYOW 20.1). A Contested line that is also Elongated
    /// follows the Contested process and then a second 5D6 for the Elongated
    /// penalty (FYOW 20.2).
    ///
    /// Reading (FYOW 20.1/20.2): one 1D6 sets the days for every disruption of
    /// the line; each disruption then has its own 5D6 — the "second throw of
    /// 5D6" of 20.2, extended to Abnormal lines in combination (test
    /// `book_combination_contested_and_elongated`).
    pub fn start_day(&mut self, dice: &mut impl Roll, id: &str) -> Option<RuleEvent> {
        if let Some(p) = &mut self.period
            && p.days_left > 1
        {
            p.days_left -= 1;
            return None;
        }
        self.period = None;
        if self.disruptions.is_empty() {
            return None;
        }
        let days = dice.d6();
        let mut faces = vec![days];
        let mut throws = Vec::new();
        for &kind in &self.disruptions {
            let five = dice.throw(DISRUPTION_DICE, 6);
            let ones = five.iter().filter(|&&f| f == 1).count() as u8;
            faces.extend_from_slice(&five);
            throws.push(DisruptionThrow { kind, ones });
        }
        let section = if self.disruptions.len() > 1 { "20.2 Combination of disruption" } else { "20.1 Supply Routes" };
        self.period = Some(DisruptionPeriod { days_left: days, throws: throws.clone() });
        Some(
            RuleEvent::new(EventKind::Supply, fyow(section))
                .actor(id)
                .input("disruptions", &self.disruptions, "the route to home territory")
                .dice(6, &faces)
                .outcome(json!({ "days": days, "throws": throws, "record": self.record() })),
        )
    }

    /// Dice and pips the line takes off today's throw, as (dice, pips).
    pub fn penalty(&self) -> (u8, u8) {
        self.period.as_ref().map_or((0, 0), |p| {
            p.throws.iter().fold((0, 0), |(d, s), t| {
                let (pd, ps) = t.kind.penalty_per_one();
                (d + pd * t.ones, s + ps * t.ones)
            })
        })
    }
}

/// The dice a force throws for its day's S: 3D6 normally, 6D6 or any split
/// when sharing (FYOW 20.9), and a D3 for an odd truck of a convoy (20.10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SupplyDice {
    pub d6: u8,
    pub d3: u8,
}

impl SupplyDice {
    /// The daily 3D6.
    pub const DAILY: Self = Self { d6: DAILY_DICE, d3: 0 };

    /// Two pools put together (a convoy giving its throw, FYOW 20.10).
    pub const fn with(self, other: Self) -> Self {
        Self { d6: self.d6 + other.d6, d3: self.d3 + other.d3 }
    }
}

/// FYOW 20.9: "If two Battlegroups and/or Fractions occupy the same map board,
/// they can use their 6D6 supply dice in whatever combination they see fit
/// e.g. 4D6 for one and 2D6 for the other." Returns the two pools.
pub fn share_dice(pool: u8, first: u8) -> Result<(SupplyDice, SupplyDice), SupplyError> {
    if first > pool {
        return Err(SupplyError::BadShare { pool, first });
    }
    Ok((SupplyDice { d6: first, d3: 0 }, SupplyDice { d6: pool - first, d3: 0 }))
}

/// FYOW 20.10: what a convoy of 6 trucks delivers after trucks are lost
/// en route: "each vehicle ... carrying D3 Supply. Losing 2 trucks will result
/// in only 2D6 ... If 3 trucks are lost ... only 1D6 and 1D3." Each pair of
/// trucks left is a D6, an odd truck a D3.
pub fn convoy_dice(trucks_lost: u8) -> Result<SupplyDice, SupplyError> {
    if trucks_lost > CONVOY_TRUCKS {
        return Err(SupplyError::TooManyTrucks(trucks_lost));
    }
    let left = CONVOY_TRUCKS - trucks_lost;
    Ok(SupplyDice { d6: left / 2, d3: left % 2 })
}

/// FYOW 20.10: a convoy can be sent "assuming that the HQ Battlegroup is
/// supplied for the day and has a stockpile".
///
/// Reading (FYOW 20.10): "supplied for the day" is Active, and "has a
/// stockpile" is at least 1S in it (test `convoy_leaves_only_a_supplied_hq_with_stock`).
pub fn convoy_may_leave(hq: &SupplyRecord) -> Result<(), SupplyError> {
    if hq.mode != Mode::Active || hq.stockpile == 0 {
        return Err(SupplyError::NotAllowed { action: "SupplyConvoy".into(), mode: format!("{:?}", hq.mode) });
    }
    Ok(())
}

/// Why a line is treated as Direct today whatever its state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TreatedAsDirect {
    /// FYOW 20.1: "On the day of an invasion across a beach ... Direct for that one day only."
    InvasionDay,
    /// FYOW 20.10: "When supplied by a convoy ... treat their supply line as Direct."
    Convoy,
}

/// Other penalties on the day's throw (FYOW 20.1 "Break in lines of supply").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DailyModifiers {
    /// Pips lost to the weather (FYOW 25.6, 26.6, 27.5.1), "cumulative with any other".
    pub weather_pips: u8,
    /// Dice lost to partisan action (FYOW 34), from the day after the attack.
    pub partisan_dice: u8,
    /// Pips lost to partisan action (FYOW 34).
    pub partisan_pips: u8,
    /// Pips gained (+) or lost (−) by a chance card (FYOW 32).
    pub chance_pips: i8,
}

/// One daily supply throw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DailyThrow {
    /// The dice thrown after dice were lost.
    pub thrown: SupplyDice,
    pub d6_faces: Vec<u8>,
    pub d3_faces: Vec<u8>,
    /// Pips taken off (net of a chance card's gain).
    pub pips: i32,
    /// The S received, never below 0.
    pub received: u32,
}

/// The day's supply throw (FYOW 20, 20.1, 20.2, 20.10).
///
/// Lost dice come off the D6s first, then the D3s. Reading (FYOW 20.1):
/// pips come off the total of the dice, and a total cannot go below 0 S
/// (test `penalties_never_take_the_throw_below_zero`).
pub fn daily_throw(
    pool: SupplyDice,
    line: &SupplyLine,
    direct: Option<TreatedAsDirect>,
    mods: DailyModifiers,
    dice: &mut impl Roll,
    id: &str,
) -> (DailyThrow, RuleEvent) {
    let (line_dice, line_pips) = if direct.is_some() { (0, 0) } else { line.penalty() };
    let dice_lost = line_dice.saturating_add(mods.partisan_dice);
    let d6 = pool.d6.saturating_sub(dice_lost);
    let d3 = pool.d3.saturating_sub(dice_lost.saturating_sub(pool.d6));
    let d6_faces = dice.throw(usize::from(d6), 6);
    let d3_faces: Vec<u8> = (0..d3).map(|_| dice.d3()).collect();
    let sum: i32 = d6_faces.iter().chain(&d3_faces).map(|&f| i32::from(f)).sum();
    let pips = i32::from(line_pips) + i32::from(mods.weather_pips) + i32::from(mods.partisan_pips)
        - i32::from(mods.chance_pips);
    let received = (sum - pips).max(0) as u32;
    let event = RuleEvent::new(EventKind::Supply, fyow("20 Logistics"))
        .actor(id)
        .input("pool", pool, "3D6 a day; shared or convoy dice (20.9, 20.10)")
        .input("record", line.record(), "the line of supply (20.3)")
        .input("treated_as_direct", direct, "20.1 invasion day, 20.10 convoy")
        .input("line_dice_lost", line_dice, "Contested: 1D6 per 1 thrown")
        .input("line_pips_lost", line_pips, "Elongated 1 pip, Abnormal 2 pips per 1 thrown")
        .input("modifiers", mods, "weather, partisans, chance cards")
        .dice(6, &d6_faces)
        .dice(3, &d3_faces)
        .outcome(json!({ "sum": sum, "pips": pips, "received": received }));
    (DailyThrow { thrown: SupplyDice { d6, d3 }, d6_faces, d3_faces, pips, received }, event)
}

/// What the force is doing today, for FYOW 20.5–20.6.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DayOrders {
    /// The BC orders Rest (6S) to preserve S.
    pub rest: bool,
    /// Engaged with the enemy at the start of the day.
    pub engaged: bool,
    /// Ordered to move or to engage the enemy.
    pub ordered_to_act: bool,
}

/// The result of meeting the day's need.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DayOutcome {
    pub mode: Mode,
    pub need: u32,
    pub drawn: u32,
    pub added: u32,
    /// FYOW 20.4.1: "Any S received but not either used, nor capable of being added ... is ignored."
    pub ignored: u32,
    pub stockpile: u32,
    /// FYOW 20.4: the full daily requirement resets every weapon's shots to the Codex maximum.
    pub shots_reset: bool,
    /// FYOW 20.7.1: vehicles disabled for fuel move again once the day's 10S is met.
    pub vehicles_restored: bool,
}

/// A Battlegroup's or Fraction's supply record (FYOW 20.3–20.7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SupplyRecord {
    pub formation: Formation,
    stockpile: u32,
    pub mode: Mode,
    /// FYOW 20.7.1: all vehicles disabled by the rationed fuel test.
    pub vehicles_disabled: bool,
    /// FYOW 20.12: Home Guard or Militia forage; only their firing is affected.
    pub militia: bool,
}

impl SupplyRecord {
    /// A record with a given Stockpile (a Fraction's comes from its parent, FYOW 3.5).
    pub fn new(formation: Formation, stockpile: u32) -> Result<Self, SupplyError> {
        let limit = formation.stockpile_limit();
        if stockpile > limit {
            return Err(SupplyError::StockpileOverLimit { stockpile, limit });
        }
        Ok(Self { formation, stockpile, mode: Mode::Active, vehicles_disabled: false, militia: false })
    }

    /// FYOW 20: "At the start of the game, each Battlegroup throws 3D6 to determine its Stockpile of S."
    pub fn battlegroup_at_start(dice: &mut impl Roll, id: &str) -> (Self, RuleEvent) {
        let faces = dice.throw(usize::from(DAILY_DICE), 6);
        let s: u32 = faces.iter().map(|&f| u32::from(f)).sum();
        let limit = Formation::Battlegroup.stockpile_limit();
        let record = Self {
            formation: Formation::Battlegroup,
            stockpile: s.min(limit),
            mode: Mode::Active,
            vehicles_disabled: false,
            militia: false,
        };
        let event = RuleEvent::new(EventKind::Supply, fyow("20 Logistics"))
            .actor(id)
            .input("formation", Formation::Battlegroup, "3D6 for the initial Stockpile")
            .dice(6, &faces)
            .outcome(json!({ "stockpile": record.stockpile }));
        (record, event)
    }

    /// The S in the Stockpile.
    pub fn stockpile(&self) -> u32 {
        self.stockpile
    }

    /// FYOW 2.7: the supply of a battlegroup that absorbs another: the
    /// Stockpiles merged, "taking an average of both rounded up"; the
    /// absorbed one's Rest or rationing "is cancelled by the merger", the
    /// senior's own "is adopted by the new, enlarged Battlegroup".
    pub fn merged_with(&self, absorbed: &SupplyRecord) -> Self {
        let stockpile = (self.stockpile + absorbed.stockpile).div_ceil(2).min(self.formation.stockpile_limit());
        Self { stockpile, ..self.clone() }
    }

    /// FYOW 20.4–20.6: the day's S received meets the need, from the
    /// Stockpile if short; surplus goes to the Stockpile up to its limit.
    ///
    /// - Active needs 10S, Rest 6S; a force engaged cannot Rest.
    /// - Short of 10S, a force engaged or ordered to move or engage "must use
    ///   all of the S it has available but must move to rationed mode".
    /// - Reading (FYOW 20.5): otherwise the BC, "obliged to issue Rest or
    ///   Rationed orders", Rests when the S in hand covers 6S — it saves the
    ///   force and the Stockpile (test `short_and_idle_rests_short_and_acting_rations`).
    /// - Reading (FYOW 20.6): a force at Rest that cannot find even 6S is
    ///   Rationed and uses all it has (test `rest_short_of_six_is_rationed`).
    pub fn meet_needs(
        &mut self,
        received: u32,
        orders: DayOrders,
        id: &str,
    ) -> Result<(DayOutcome, RuleEvent), SupplyError> {
        if orders.rest && orders.engaged {
            return Err(SupplyError::CannotRestWhenEngaged);
        }
        let limit = self.formation.stockpile_limit();
        let available = received + self.stockpile;
        let must_act = orders.engaged || orders.ordered_to_act;
        let mode = if !orders.rest && available >= ACTIVE_NEED {
            Mode::Active
        } else if available >= REST_NEED && (orders.rest || !must_act) {
            Mode::Rest
        } else {
            Mode::Rationed
        };
        let need = match mode {
            Mode::Active => ACTIVE_NEED,
            Mode::Rest => REST_NEED,
            Mode::Rationed => available,
        };
        let (drawn, added, ignored) = if received >= need {
            let surplus = received - need;
            let room = limit.saturating_sub(self.stockpile);
            (0, surplus.min(room), surplus.saturating_sub(room))
        } else {
            (need - received, 0, 0)
        };
        self.stockpile = self.stockpile + added - drawn;
        let vehicles_restored = self.vehicles_disabled && mode == Mode::Active;
        if vehicles_restored {
            self.vehicles_disabled = false;
        }
        self.mode = mode;
        let outcome = DayOutcome {
            mode,
            need,
            drawn,
            added,
            ignored,
            stockpile: self.stockpile,
            shots_reset: mode == Mode::Active,
            vehicles_restored,
        };
        let event = RuleEvent::new(EventKind::Supply, fyow("20.4 Daily Supply Requirements"))
            .actor(id)
            .input("received", received, "the day's supply throw")
            .input("stockpile_before", available - received, "")
            .input("limit", limit, "20.4.1: 20S a Battlegroup, 5S a Fraction")
            .input("orders", orders, "20.5–20.6")
            .outcome(&outcome);
        Ok((outcome, event))
    }

    /// FYOW 20.7.1: "Throw 2D6 after any Map Move. A score of 5 or less
    /// disables all of the Battlegroup/Fraction vehicles." Only a Rationed
    /// force throws, and not Home Guard (FYOW 20.12); `None` when no throw.
    ///
    /// Reading (README contradiction, fuel when rationed): *Heroes All* runs a
    /// vehicle dry on a double, the 2020 addendum on under 5, FYOW 20.7.1 on 5
    /// or less. This is the campaign's Map Move of the whole force, so FYOW
    /// 20.7.1 governs here: 5 or less (test `reading_fuel_five_or_less_disables_all_vehicles`).
    pub fn fuel_after_map_move(&mut self, dice: &mut impl Roll, id: &str) -> Option<(bool, RuleEvent)> {
        if self.mode != Mode::Rationed || self.militia || self.vehicles_disabled {
            return None;
        }
        let faces = [dice.d6(), dice.d6()];
        let score = faces[0] + faces[1];
        let disabled = score <= FUEL_DISABLED_AT_OR_BELOW;
        self.vehicles_disabled = disabled;
        let event = RuleEvent::new(EventKind::Supply, fyow("20.7.1 Moving whilst Rationed"))
            .actor(id)
            .input("at_or_below", FUEL_DISABLED_AT_OR_BELOW, "5 or less disables all vehicles")
            .dice(6, &faces)
            .outcome(json!({ "score": score, "vehicles_disabled": disabled }));
        Some((disabled, event))
    }

    /// FYOW 20.7.1 and 14.10: a Rationed force "loses its Movement Points"
    /// and moves only by the D10 Movement Test. Home Guard keep theirs (20.12).
    pub fn keeps_movement_points(&self) -> bool {
        self.mode != Mode::Rationed || self.militia
    }

    /// Whether the force may take `action` in its mode.
    ///
    /// - Rest (FYOW 20.6): only a Detection Throw, adding S to the Stockpile
    ///   and communicating.
    /// - Rationed (FYOW 20.7): acts, but vehicles disabled for fuel cannot
    ///   move, and a Fraction is created only from an Active parent (FYOW 3.4).
    /// - Home Guard/Militia (FYOW 20.12): "only their firing capability is
    ///   affected" — at Rest they do not fire; all else is allowed.
    pub fn permits(&self, action: Action) -> Result<(), SupplyError> {
        let allowed = match (self.mode, self.militia) {
            (Mode::Active, _) => true,
            (Mode::Rest, true) => action != Action::Fire,
            (Mode::Rest, false) => matches!(action, Action::Detect | Action::AddToStockpile | Action::Communicate),
            (Mode::Rationed, true) => true,
            (Mode::Rationed, false) => match action {
                Action::MoveVehicles => !self.vehicles_disabled,
                Action::CreateFraction => false,
                _ => true,
            },
        };
        if allowed {
            Ok(())
        } else {
            Err(SupplyError::NotAllowed { action: format!("{action:?}"), mode: format!("{:?}", self.mode) })
        }
    }

    /// FYOW 32, the 8s: "All Battlegroups (Fractions) −1 from (+1 to)
    /// Stockpile", within its limit (20.4.1) and never below nothing.
    pub fn chance_card(&mut self, change: i8, id: &str) -> RuleEvent {
        let before = self.stockpile;
        let limit = self.formation.stockpile_limit();
        self.stockpile = before.saturating_add_signed(i32::from(change)).min(limit.max(before));
        RuleEvent::new(EventKind::Supply, fyow("20.4.1 Stockpiles"))
            .actor(id)
            .input("stockpile_before", before, "")
            .input("change", change, "32 an 8 chance card")
            .outcome(json!({ "stockpile": self.stockpile }))
    }

    /// Stock lost without breaking the line of supply: a DR5 loser's
    /// "stockpile lost" (FYOW 33.7.3 (ix)) or a partisan attack on a stockpile
    /// (FYOW 34.8).
    pub fn lose_stockpile(&mut self, lost: u32, id: &str) -> RuleEvent {
        let before = self.stockpile;
        self.stockpile = before.saturating_sub(lost);
        RuleEvent::new(EventKind::Supply, fyow("20.4.1 Stockpiles"))
            .actor(id)
            .input("stockpile_before", before, "")
            .input("lost", lost, "destroyed by the enemy or spent in a defeat")
            .outcome(json!({ "stockpile": self.stockpile }))
    }

    /// FYOW 20.14: an attack by artillery or aircraft on an HQ destroys `lost`
    /// S of its Stockpile, and the line of supply is then Broken.
    pub fn stocks_attacked(&mut self, lost: u32, line: &mut SupplyLine, id: &str) -> RuleEvent {
        let before = self.stockpile;
        self.stockpile = before.saturating_sub(lost);
        line.broken = true;
        RuleEvent::new(EventKind::Supply, fyow("20.14 Attacking static stocks of supply"))
            .actor(id)
            .input("lost", lost, "as the attack's result gives")
            .input("stockpile_before", before, "")
            .outcome(json!({ "stockpile": self.stockpile, "record": line.record() }))
    }
}

/// The actions the Supply mode restricts (FYOW 20.6, 20.7, 20.11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Detect,
    AddToStockpile,
    Communicate,
    /// Attempt to move to another Map Board.
    MoveMapBoard,
    /// Move its vehicles (blocked when disabled for fuel).
    MoveVehicles,
    Fire,
    CreateFraction,
    /// Dig in, conceal itself or re-deploy on the Map Board.
    DigInConcealRedeploy,
    WorkAndTasks,
    /// Repairs by Field Park Engineers or crews (FYOW 20.11, 23).
    Repair,
}

/// FYOW 20.11: engineers and other non-combat units of an HQ Battlegroup on
/// the games table: at Rest they repair nothing; Rationed, they "are only
/// allowed to work on even-numbered bounds".
pub fn engineers_work_bound(hq_mode: Mode, bound: u8) -> bool {
    match hq_mode {
        Mode::Active => true,
        Mode::Rest => false,
        Mode::Rationed => bound.is_multiple_of(2),
    }
}

/// FYOW 20.7.2: vehicles abandoned when Rationed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbandonedVehicles {
    /// The Map Board they were left on.
    pub map_board: String,
    pub vehicles: u32,
}

impl AbandonedVehicles {
    /// "If ... restored to Active mode, previously abandoned vehicles that were
    /// not destroyed may be recovered immediately if they are on the same map
    /// board, or when the previous Map Board is re-occupied."
    pub fn recoverable(&self, owner: &SupplyRecord, owner_board: &str) -> bool {
        owner.mode == Mode::Active && owner_board == self.map_board
    }

    /// "Enemy units occupying map boards containing serviceable abandoned
    /// vehicles are able to capture and use them."
    pub fn capturable_by_enemy_on(&self, enemy_board: &str) -> bool {
        enemy_board == self.map_board
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warbound_rules::dice::{Dice, Scripted};

    fn record(formation: Formation, stockpile: u32) -> SupplyRecord {
        SupplyRecord::new(formation, stockpile).unwrap()
    }

    const ACT: DayOrders = DayOrders { rest: false, engaged: false, ordered_to_act: true };
    const IDLE: DayOrders = DayOrders { rest: false, engaged: false, ordered_to_act: false };

    #[test]
    fn initial_stockpile_is_3d6() {
        let (r, e) = SupplyRecord::battlegroup_at_start(&mut Scripted::new([6, 5, 4]), "BG1");
        assert_eq!(r.stockpile(), 15);
        assert_eq!(r.mode, Mode::Active);
        assert_eq!(e.kind, EventKind::Supply);
        assert_eq!(e.dice.len(), 3);
    }

    #[test]
    fn stockpile_limits_are_20_and_5() {
        assert_eq!(Formation::Battlegroup.stockpile_limit(), 20);
        assert_eq!(Formation::Fraction.stockpile_limit(), 5);
        assert_eq!(
            SupplyRecord::new(Formation::Fraction, 6),
            Err(SupplyError::StockpileOverLimit { stockpile: 6, limit: 5 })
        );
        let mut f = record(Formation::Fraction, 4);
        let (o, _) = f.meet_needs(18, IDLE, "F1").unwrap();
        assert_eq!((o.added, o.ignored, o.stockpile), (1, 7, 5), "surplus past the limit is ignored");
        let mut bg = record(Formation::Battlegroup, 15);
        let (o, _) = bg.meet_needs(18, IDLE, "BG").unwrap();
        assert_eq!((o.added, o.ignored, o.stockpile), (5, 3, 20));
    }

    #[test]
    fn direct_line_throws_3d6_untouched() {
        let mut line = SupplyLine::default();
        assert!(line.start_day(&mut Scripted::new([]), "HQ").is_none(), "a Direct line throws no 6D6");
        assert_eq!(line.record(), "D");
        let (t, e) =
            daily_throw(SupplyDice::DAILY, &line, None, DailyModifiers::default(), &mut Scripted::new([4, 3, 2]), "BG");
        assert_eq!(t.received, 9);
        assert_eq!(e.outcome["received"], 9);
    }

    #[test]
    fn contested_loses_a_d6_per_one_for_the_days_thrown() {
        let mut line = SupplyLine::new(&[Disruption::Contested]);
        // 1D6 = 3 days; 5D6 with two 1s.
        let e = line.start_day(&mut Scripted::new([3, 1, 4, 1, 6, 2]), "HQ").unwrap();
        assert_eq!(e.rule.section, "20.1 Supply Routes");
        assert_eq!(line.penalty(), (2, 0));
        assert_eq!(line.record(), "C3");
        let (t, _) =
            daily_throw(SupplyDice::DAILY, &line, None, DailyModifiers::default(), &mut Scripted::new([5]), "BG");
        assert_eq!((t.thrown.d6, t.received), (1, 5), "3D6 less 2D6");
        // Day 2 and 3: no new throw; "C2", "C1".
        assert!(line.start_day(&mut Scripted::new([]), "HQ").is_none());
        assert_eq!(line.record(), "C2");
        assert!(line.start_day(&mut Scripted::new([]), "HQ").is_none());
        assert_eq!(line.record(), "C1");
        // "On the 4th day ... this initial 1D6 throw is made again": no 1s this time.
        assert!(line.start_day(&mut Scripted::new([2, 2, 3, 4, 5, 6]), "HQ").is_some());
        assert_eq!((line.penalty(), line.record()), ((0, 0), "C2".to_owned()));
    }

    #[test]
    fn elongated_loses_a_pip_and_abnormal_two_per_one() {
        let mut e = SupplyLine::new(&[Disruption::Elongated]);
        e.start_day(&mut Scripted::new([2, 1, 1, 1, 5, 5]), "HQ");
        assert_eq!(e.penalty(), (0, 3));
        let mut a = SupplyLine::new(&[Disruption::Abnormal]);
        a.start_day(&mut Scripted::new([2, 1, 1, 1, 5, 5]), "HQ");
        assert_eq!(a.penalty(), (0, 6));
        let (t, _) =
            daily_throw(SupplyDice::DAILY, &a, None, DailyModifiers::default(), &mut Scripted::new([6, 6, 3]), "BG");
        assert_eq!(t.received, 9);
        assert_eq!(a.record(), "A2");
    }

    #[test]
    fn book_combination_contested_and_elongated() {
        // FYOW 20.2: the Contested process, then a second 5D6 for the Elongated penalty.
        let mut line = SupplyLine::new(&[Disruption::Elongated, Disruption::Contested]);
        let e = line.start_day(&mut Scripted::new([4, 1, 2, 3, 4, 5, 1, 1, 6, 6, 6]), "HQ").unwrap();
        assert_eq!(e.rule.section, "20.2 Combination of disruption");
        assert_eq!(e.dice.len(), 11, "1D6 days + 5D6 + 5D6");
        assert_eq!(line.penalty(), (1, 2));
        assert_eq!(line.record(), "CE4");
        let (t, _) =
            daily_throw(SupplyDice::DAILY, &line, None, DailyModifiers::default(), &mut Scripted::new([6, 5]), "BG");
        assert_eq!(t.received, 9, "2D6 (11) less 2 pips");
    }

    #[test]
    fn book_record_letters_be() {
        // FYOW 20.3: "an Elongated supply line affected by weather (broken) will be shown as BE".
        let mut be = SupplyLine::new(&[Disruption::Elongated]);
        be.broken = true;
        assert_eq!(be.record(), "BE");
        let bd = SupplyLine { broken: true, ..SupplyLine::default() };
        assert_eq!(bd.record(), "BD", "a Direct line broken by weather");
    }

    #[test]
    fn a_changed_route_is_assessed_anew() {
        let mut line = SupplyLine::new(&[Disruption::Contested]);
        line.start_day(&mut Scripted::new([6, 1, 1, 1, 1, 1]), "HQ");
        line.set_disruptions(&[Disruption::Contested]);
        assert!(line.period().is_some(), "the same route keeps its period");
        line.set_disruptions(&[]);
        assert_eq!((line.period(), line.penalty()), (None, (0, 0)));
        assert_eq!(line.record(), "D");
    }

    #[test]
    fn invasion_day_and_convoys_are_direct() {
        let mut line = SupplyLine::new(&[Disruption::Contested]);
        line.start_day(&mut Scripted::new([6, 1, 1, 1, 1, 1]), "HQ");
        let (t, _) = daily_throw(
            SupplyDice::DAILY,
            &line,
            Some(TreatedAsDirect::InvasionDay),
            DailyModifiers::default(),
            &mut Scripted::new([1, 2, 3]),
            "BG",
        );
        assert_eq!(t.received, 6);
        let (t, _) =
            daily_throw(SupplyDice::DAILY, &line, None, DailyModifiers::default(), &mut Scripted::new([]), "BG");
        assert_eq!((t.thrown.d6, t.received), (0, 0), "five 1s take all three dice");
    }

    #[test]
    fn weather_partisans_and_chance_cards_add_up() {
        let line = SupplyLine::default();
        let mods = DailyModifiers { weather_pips: 2, partisan_dice: 1, partisan_pips: 1, chance_pips: 1 };
        let (t, _) = daily_throw(SupplyDice::DAILY, &line, None, mods, &mut Scripted::new([5, 5]), "BG");
        assert_eq!((t.thrown.d6, t.pips, t.received), (2, 2, 8));
    }

    #[test]
    fn penalties_never_take_the_throw_below_zero() {
        let line = SupplyLine::default();
        let mods = DailyModifiers { weather_pips: 4, partisan_pips: 10, ..Default::default() };
        let (t, _) = daily_throw(SupplyDice::DAILY, &line, None, mods, &mut Scripted::new([1, 1, 1]), "BG");
        assert_eq!(t.received, 0);
    }

    #[test]
    fn active_draws_from_stockpile_and_banks_surplus() {
        let mut r = record(Formation::Battlegroup, 8);
        let (o, e) = r.meet_needs(7, ACT, "BG").unwrap();
        assert_eq!((o.mode, o.drawn, o.stockpile, o.shots_reset), (Mode::Active, 3, 5, true));
        assert_eq!(e.rule.section, "20.4 Daily Supply Requirements");
        let (o, _) = r.meet_needs(14, ACT, "BG").unwrap();
        assert_eq!((o.mode, o.added, o.stockpile), (Mode::Active, 4, 9));
    }

    #[test]
    fn short_and_idle_rests_short_and_acting_rations() {
        let mut idle = record(Formation::Battlegroup, 2);
        let (o, _) = idle.meet_needs(5, IDLE, "BG").unwrap();
        assert_eq!((o.mode, o.need, o.drawn, o.stockpile, o.shots_reset), (Mode::Rest, 6, 1, 1, false));
        let mut acting = record(Formation::Battlegroup, 2);
        let (o, _) = acting.meet_needs(5, ACT, "BG").unwrap();
        assert_eq!((o.mode, o.stockpile), (Mode::Rationed, 0), "uses all of the S it has");
        let mut engaged = record(Formation::Battlegroup, 2);
        let (o, _) = engaged.meet_needs(5, DayOrders { engaged: true, ..IDLE }, "BG").unwrap();
        assert_eq!(o.mode, Mode::Rationed, "an engaged force cannot rest");
    }

    #[test]
    fn rest_short_of_six_is_rationed() {
        let mut r = record(Formation::Fraction, 1);
        let (o, _) = r.meet_needs(3, DayOrders { rest: true, ..IDLE }, "F").unwrap();
        assert_eq!((o.mode, o.stockpile), (Mode::Rationed, 0));
    }

    #[test]
    fn rest_orders_need_six_and_bank_the_rest() {
        let mut r = record(Formation::Battlegroup, 0);
        let (o, _) = r.meet_needs(15, DayOrders { rest: true, ..IDLE }, "BG").unwrap();
        assert_eq!((o.mode, o.need, o.added), (Mode::Rest, 6, 9));
        assert_eq!(
            r.meet_needs(15, DayOrders { rest: true, engaged: true, ordered_to_act: false }, "BG"),
            Err(SupplyError::CannotRestWhenEngaged)
        );
    }

    #[test]
    fn reading_fuel_five_or_less_disables_all_vehicles() {
        let mut r = record(Formation::Battlegroup, 0);
        r.mode = Mode::Rationed;
        let (disabled, e) = r.fuel_after_map_move(&mut Scripted::new([3, 2]), "BG").unwrap();
        assert!(disabled && r.vehicles_disabled, "5 is '5 or less'");
        assert_eq!(e.rule.section, "20.7.1 Moving whilst Rationed");
        assert_eq!(
            r.permits(Action::MoveVehicles),
            Err(SupplyError::NotAllowed { action: "MoveVehicles".into(), mode: "Rationed".into() })
        );
        assert_eq!(r.permits(Action::MoveMapBoard), Ok(()), "they may abandon the vehicles and march");
        assert!(r.fuel_after_map_move(&mut Scripted::new([]), "BG").is_none(), "already disabled");
        // A daily throw of 10 restores them.
        let (o, _) = r.meet_needs(10, ACT, "BG").unwrap();
        assert!(o.vehicles_restored && !r.vehicles_disabled);
        let mut r2 = record(Formation::Battlegroup, 0);
        r2.mode = Mode::Rationed;
        assert!(!r2.fuel_after_map_move(&mut Scripted::new([3, 3]), "BG").unwrap().0, "6 runs on");
        assert!(r2.fuel_after_map_move(&mut Scripted::new([1, 1]), "BG").unwrap().0, "2 disables");
        let mut active = record(Formation::Battlegroup, 0);
        assert!(active.fuel_after_map_move(&mut Scripted::new([]), "BG").is_none(), "only rationed forces throw");
    }

    #[test]
    fn rationed_forces_lose_movement_points_but_home_guard_do_not() {
        let mut r = record(Formation::Battlegroup, 0);
        assert!(r.keeps_movement_points());
        r.mode = Mode::Rationed;
        assert!(!r.keeps_movement_points());
        r.militia = true;
        assert!(r.keeps_movement_points());
        assert!(r.fuel_after_map_move(&mut Scripted::new([]), "HG").is_none(), "Home Guard forage fuel");
    }

    #[test]
    fn rest_permits_only_detection_stockpiling_and_talking() {
        let mut r = record(Formation::Battlegroup, 0);
        r.mode = Mode::Rest;
        for a in [Action::Detect, Action::AddToStockpile, Action::Communicate] {
            assert_eq!(r.permits(a), Ok(()));
        }
        for a in [
            Action::MoveMapBoard,
            Action::Fire,
            Action::CreateFraction,
            Action::DigInConcealRedeploy,
            Action::WorkAndTasks,
            Action::Repair,
        ] {
            assert!(r.permits(a).is_err(), "{a:?}");
        }
        r.militia = true;
        assert!(r.permits(Action::Fire).is_err() && r.permits(Action::MoveMapBoard).is_ok(), "20.12");
        r.mode = Mode::Rationed;
        r.militia = false;
        assert_eq!(r.permits(Action::Detect), Ok(()), "20.7.3: detection unaffected");
        assert!(r.permits(Action::CreateFraction).is_err(), "3.4: only from an Active parent");
    }

    #[test]
    fn engineers_work_even_bounds_when_hq_rationed() {
        assert!(engineers_work_bound(Mode::Active, 1));
        assert!(!engineers_work_bound(Mode::Rest, 2));
        assert!(!engineers_work_bound(Mode::Rationed, 3));
        assert!(engineers_work_bound(Mode::Rationed, 4));
    }

    #[test]
    fn sharing_splits_six_dice_any_way() {
        let (a, b) = share_dice(6, 4).unwrap();
        assert_eq!((a.d6, b.d6), (4, 2));
        assert_eq!(share_dice(6, 7), Err(SupplyError::BadShare { pool: 6, first: 7 }));
    }

    #[test]
    fn book_convoy_losing_two_or_three_trucks() {
        assert_eq!(convoy_dice(0), Ok(SupplyDice { d6: 3, d3: 0 }));
        assert_eq!(convoy_dice(2), Ok(SupplyDice { d6: 2, d3: 0 }), "2D6 arrive");
        assert_eq!(convoy_dice(3), Ok(SupplyDice { d6: 1, d3: 1 }), "1D6 and 1D3");
        assert_eq!(convoy_dice(6), Ok(SupplyDice { d6: 0, d3: 0 }));
        assert_eq!(convoy_dice(7), Err(SupplyError::TooManyTrucks(7)));
        // The convoy gives all its 3D6: the Battlegroup has 6D6, treated as Direct.
        let pool = SupplyDice::DAILY.with(convoy_dice(0).unwrap());
        let mut line = SupplyLine::new(&[Disruption::Abnormal]);
        line.start_day(&mut Scripted::new([6, 1, 1, 1, 1, 1]), "HQ");
        let (t, _) = daily_throw(
            pool,
            &line,
            Some(TreatedAsDirect::Convoy),
            DailyModifiers::default(),
            &mut Scripted::new([1, 2, 3, 4, 5, 6]),
            "BG",
        );
        assert_eq!(t.received, 21);
        // 3 trucks lost: 3D6 + 1D6 + 1D3 (a D6 face 5 reads 3).
        let pool = SupplyDice::DAILY.with(convoy_dice(3).unwrap());
        let (t, _) = daily_throw(
            pool,
            &SupplyLine::default(),
            Some(TreatedAsDirect::Convoy),
            DailyModifiers::default(),
            &mut Scripted::new([1, 1, 1, 1, 5]),
            "BG",
        );
        assert_eq!((t.d3_faces.clone(), t.received), (vec![3], 7));
    }

    #[test]
    fn convoy_leaves_only_a_supplied_hq_with_stock() {
        let mut hq = record(Formation::Battlegroup, 4);
        assert_eq!(convoy_may_leave(&hq), Ok(()));
        hq.mode = Mode::Rest;
        assert!(convoy_may_leave(&hq).is_err());
        let empty = record(Formation::Battlegroup, 0);
        assert!(convoy_may_leave(&empty).is_err(), "no stockpile to send");
    }

    #[test]
    fn route_guide_suggests_the_letters() {
        let g = RouteGuide::BOOK;
        assert!(g.disruptions(Route { links: 11, hard_links: 2, ..Default::default() }).is_empty());
        assert_eq!(g.disruptions(Route { links: 12, ..Default::default() }), [Disruption::Elongated]);
        assert_eq!(
            g.disruptions(Route { links: 14, hard_links: 3, through_enemy: true, surrounded: false }),
            [Disruption::Abnormal, Disruption::Contested, Disruption::Elongated]
        );
        assert_eq!(g.disruptions(Route { surrounded: true, ..Default::default() }), [Disruption::Contested]);
        assert!(surrounded(&[true, true, true]));
        assert!(!surrounded(&[true, false, true]));
        assert!(!surrounded(&[]));
    }

    #[test]
    fn lost_dice_come_off_d6s_before_d3s() {
        let pool = SupplyDice { d6: 1, d3: 1 };
        let mods = DailyModifiers { partisan_dice: 1, ..Default::default() };
        let (t, _) = daily_throw(pool, &SupplyLine::default(), None, mods, &mut Scripted::new([6]), "BG");
        assert_eq!((t.thrown, t.received), (SupplyDice { d6: 0, d3: 1 }, 3));
    }

    #[test]
    fn attacked_stocks_break_the_line() {
        let mut r = record(Formation::Battlegroup, 12);
        let mut line = SupplyLine::new(&[Disruption::Elongated]);
        let e = r.stocks_attacked(20, &mut line, "HQ");
        assert_eq!(r.stockpile(), 0);
        assert!(line.broken);
        assert_eq!(e.outcome["record"], "BE");
    }

    #[test]
    fn abandoned_vehicles_recovered_when_active_on_the_board() {
        let left = AbandonedVehicles { map_board: "MB7".into(), vehicles: 3 };
        let mut r = record(Formation::Battlegroup, 0);
        r.mode = Mode::Rationed;
        assert!(!left.recoverable(&r, "MB7"), "not while rationed");
        r.mode = Mode::Active;
        assert!(left.recoverable(&r, "MB7"));
        assert!(!left.recoverable(&r, "MB8"));
        assert!(left.capturable_by_enemy_on("MB7") && !left.capturable_by_enemy_on("MB1"));
    }

    #[test]
    fn stockpile_stays_within_limits_for_every_seed() {
        for seed in 0..200 {
            let mut dice = Dice::new(seed);
            let formation = if seed % 2 == 0 { Formation::Battlegroup } else { Formation::Fraction };
            let mut r = record(formation, 0);
            let mut line = SupplyLine::new(&[Disruption::Contested, Disruption::Abnormal]);
            for day in 0..30u64 {
                line.start_day(&mut dice, "HQ");
                let (t, _) = daily_throw(SupplyDice::DAILY, &line, None, DailyModifiers::default(), &mut dice, "BG");
                let orders = DayOrders { rest: day % 5 == 0, engaged: false, ordered_to_act: day % 3 == 0 };
                let (o, _) = r.meet_needs(t.received, orders, "BG").unwrap();
                assert!(r.stockpile() <= formation.stockpile_limit());
                assert!(o.mode != Mode::Active || t.received + o.drawn >= ACTIVE_NEED);
            }
        }
    }
}
