//! Battlegroups (FYOW 2): cost limits by period, what may be grouped
//! together, attaching elements from the Senior Command's reserve, merging
//! battlegroups, B-echelon elements, the Brigade HQ Battlegroup (6.4) and
//! Brigade formations moving as a "Group".

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::army::calendar::CampaignDate;
use crate::army::command::CommandLevel;
use crate::army::{ArmyError, fyow, not_allowed, out_of_range};

/// The period of the war, for the recommended cost limit (FYOW 2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WarPeriod {
    Early,
    Mid,
    Late,
}

impl WarPeriod {
    /// "The recommended maximum points value ('cost') of a Battlegroup is
    /// 1200 points (early war), 1500 points (mid-war) and 1800 (late war)"
    /// (FYOW 2.1; the player may alter them, so every check takes the limit).
    pub const fn recommended_max(self) -> u32 {
        match self {
            WarPeriod::Early => 1200,
            WarPeriod::Mid => 1500,
            WarPeriod::Late => 1800,
        }
    }
}

/// The cost of a vehicle (FYOW 2.1): "All soft-skinned vehicles are provided
/// Free of 'cost' although carried weapons must be charged. Specialist
/// (engineering etc) vehicles which may not be armed still attract a cost."
/// Vehicle repair, maintenance and radio exchange vehicles are costed too (2.8).
pub const fn vehicle_cost(soft_skinned: bool, vehicle_points: u32, carried_weapons_points: u32) -> u32 {
    if soft_skinned { carried_weapons_points } else { vehicle_points + carried_weapons_points }
}

/// What kind of element, for FYOW 2.4's restrictions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ElementClass {
    /// Any line element: infantry, armour, artillery, engineers, recce,
    /// support vehicles, and rafts, canoes and dinghies.
    Line,
    /// Special Forces, Airborne, Marine and other special-purpose troops.
    SpecialPurpose,
    Aircraft,
    /// Ships and boats other than rafts, canoes and dinghies.
    Ship,
    /// Static defence installations (gun batteries etc).
    StaticDefence,
}

/// A building block of a battlegroup (FYOW "Definitions": Element), costed
/// by the caller by the FYOB/*Heroes All* cost rules.
///
/// B-echelon and service units (medical, catering, ordnance, admin; FYOW
/// 2.8) are not elements: they are not costed nor shown on the map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Element {
    pub name: String,
    pub points: u32,
    pub class: ElementClass,
    /// The element's Movement Points on the campaign map (FYOW 14).
    pub movement_points: u32,
    /// Attached from Brigade/Regimental HQ (FYOW 3.3).
    pub attached: bool,
}

/// FYOW 2.4: special-purpose troops, aircraft, ships and static defences
/// "always form their own Battlegroup".
///
/// Reading (FYOW 2.4): each of those four classes forms battlegroups of its
/// own class only; line elements may be mixed freely.
pub fn check_composition(elements: &[Element]) -> Result<(), ArmyError> {
    let Some(first) = elements.first() else { return Ok(()) };
    if let Some(other) = elements.iter().find(|e| e.class != first.class)
        && (first.class != ElementClass::Line || other.class != ElementClass::Line)
    {
        return Err(not_allowed(format!(
            "{:?} and {:?} elements cannot share a Battlegroup: special-purpose troops, aircraft, ships and \
             static defences always form their own (FYOW 2.4)",
            first.class, other.class
        )));
    }
    Ok(())
}

/// A Battlegroup's role: a line battlegroup, or the Brigade HQ Battlegroup
/// whose BC is the Brigade 2iC and which holds the Senior Command's reserves
/// and support (FYOW 2.5, 6.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BattlegroupKind {
    Line,
    BrigadeHq,
}

/// A Battlegroup and its record card (FYOW 2, 35).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battlegroup {
    pub name: String,
    pub kind: BattlegroupKind,
    /// The Brigade (or Regiment) it belongs to.
    pub brigade: String,
    pub commander: String,
    pub elements: Vec<Element>,
    /// Its value when raised: a Fraction may not exceed half of it (FYOW 2.2).
    pub original_points: u32,
    /// The cost limit in force (FYOW 2.1).
    pub max_points: u32,
    /// The Supply Stockpile, in S.
    pub stockpile: u32,
    pub at_rest: bool,
    pub rationed: bool,
    pub in_disarray: bool,
}

impl Battlegroup {
    /// Raises a battlegroup, checking the cost limit (2.1) and composition (2.4).
    pub fn new(
        name: &str,
        kind: BattlegroupKind,
        brigade: &str,
        commander: &str,
        elements: Vec<Element>,
        max_points: u32,
    ) -> Result<Self, ArmyError> {
        check_composition(&elements)?;
        let points = elements.iter().map(|e| e.points).sum::<u32>();
        if points > max_points {
            return Err(out_of_range(format!(
                "{name} costs {points} points, over the limit of {max_points} (FYOW 2.1)"
            )));
        }
        Ok(Self {
            name: name.to_string(),
            kind,
            brigade: brigade.to_string(),
            commander: commander.to_string(),
            elements,
            original_points: points,
            max_points,
            stockpile: 0,
            at_rest: false,
            rationed: false,
            in_disarray: false,
        })
    }

    /// The value of the force now.
    pub fn points(&self) -> u32 {
        self.elements.iter().map(|e| e.points).sum()
    }

    /// "Battlegroups move at the rate of the slowest element" (FYOW 2.3);
    /// `None` for a battlegroup with no elements.
    pub fn movement_points(&self) -> Option<u32> {
        self.elements.iter().map(|e| e.movement_points).min()
    }

    /// Active as far as Supply is concerned: neither at Rest nor Rationed.
    pub fn is_active(&self) -> bool {
        !self.at_rest && !self.rationed
    }

    /// Adds elements, keeping to the cost limit and FYOW 2.4.
    pub(crate) fn add_elements(&mut self, elements: Vec<Element>) -> Result<(), ArmyError> {
        let added: u32 = elements.iter().map(|e| e.points).sum();
        if self.points() + added > self.max_points {
            return Err(out_of_range(format!(
                "{} would cost {} points, over the limit of {} (FYOW 2.1, 2.5)",
                self.name,
                self.points() + added,
                self.max_points
            )));
        }
        let mut all = self.elements.clone();
        all.extend(elements);
        check_composition(&all)?;
        self.elements = all;
        Ok(())
    }

    /// Takes the named elements out of the battlegroup.
    pub(crate) fn take_elements(&mut self, names: &[String]) -> Result<Vec<Element>, ArmyError> {
        take_elements(&mut self.elements, names, &self.name)
    }

    /// FYOW 2.6: with the army HQ on the same Map Board as the battlegroup
    /// receiving reserves, elements pass from the HQ Battlegroup without a
    /// Fraction; "the transfer becomes effective from the following
    /// session". Not while the HQ is at Rest. (Elsewhere the Senior Command
    /// sends them as a Fraction: [`crate::army::fraction::Fraction::create`].)
    ///
    /// Reading (FYOW 2.6): the consist changes now ("any amendments to its
    /// Movement Points or Combat Value take immediate effect") and the
    /// battlegroup acts with them from the following session, which is
    /// returned.
    pub fn transfer_from_hq(
        hq: &mut Battlegroup,
        to: &mut Battlegroup,
        names: &[String],
        same_map_board: bool,
        now: &CampaignDate,
    ) -> Result<(CampaignDate, RuleEvent), ArmyError> {
        if !same_map_board {
            return Err(not_allowed(
                "a direct transfer needs the HQ on the same Map Board; send a Fraction (FYOW 2.5, 2.6)",
            ));
        }
        if hq.at_rest {
            return Err(not_allowed("this transfer cannot be made if the HQ is at Rest (FYOW 2.6)"));
        }
        let moved = hq.take_elements(names)?;
        if let Err(e) = to.add_elements(moved.clone()) {
            hq.elements.extend(moved);
            return Err(e);
        }
        let effective = now.next_session().0;
        let event = RuleEvent::new(EventKind::Battlegroup, fyow("2.6 Reserves on the same Map Board"))
            .actor(&hq.name)
            .target(&to.name)
            .input("elements", names, "")
            .outcome(json!({
                "points": to.points(),
                "movement_points": to.movement_points(),
                "effective_from": effective.to_string(),
            }));
        Ok((effective, event))
    }

    /// FYOW 2.7: merges `absorbed` into `senior`. The Brigade Senior Command
    /// merges two of his own battlegroups; battlegroups of different
    /// brigades are merged by the command over both (Division or Army).
    /// The new battlegroup keeps to the cost limit, gets the stated
    /// commander, and the average of both stockpiles rounded up. The absorbed
    /// battlegroup's Rest, Rationed or disarray is cancelled; the senior's
    /// is kept. Its Priority Card leaves the pack; new orders are issued
    /// unless the senior's continue (`keep_orders`).
    pub fn merge(
        senior: &mut Battlegroup,
        absorbed: &Battlegroup,
        by: CommandLevel,
        commander: &str,
        keep_orders: bool,
    ) -> Result<RuleEvent, ArmyError> {
        let needed = if senior.brigade == absorbed.brigade { CommandLevel::Brigade } else { CommandLevel::Division };
        if by < needed {
            return Err(not_allowed(format!(
                "merging {} and {} is done by the {needed:?} command or above (FYOW 2.7)",
                senior.name, absorbed.name
            )));
        }
        let stockpiles = [senior.stockpile, absorbed.stockpile];
        let stockpile = (stockpiles[0] + stockpiles[1]).div_ceil(2);
        senior.add_elements(absorbed.elements.clone())?;
        senior.stockpile = stockpile;
        senior.commander = commander.to_string();
        Ok(RuleEvent::new(EventKind::Battlegroup, fyow("2.7 Merging Battlegroups together"))
            .actor(&senior.name)
            .target(&absorbed.name)
            .input("merged_by", by, "")
            .input("stockpiles", stockpiles, "averaged, rounded up")
            .outcome(json!({
                "points": senior.points(),
                "commander": commander,
                "stockpile": stockpile,
                "at_rest": senior.at_rest,
                "rationed": senior.rationed,
                "in_disarray": senior.in_disarray,
                "bpc_removed": absorbed.name,
                "new_orders": !keep_orders,
            })))
    }
}

/// Takes the named elements out of a roster (all or nothing).
pub(crate) fn take_elements(
    roster: &mut Vec<Element>,
    names: &[String],
    owner: &str,
) -> Result<Vec<Element>, ArmyError> {
    if let Some(missing) = names.iter().find(|n| !roster.iter().any(|e| &e.name == *n)) {
        return Err(out_of_range(format!("{owner} has no element '{missing}'")));
    }
    let (taken, kept) = std::mem::take(roster).into_iter().partition(|e| names.contains(&e.name));
    *roster = kept;
    Ok(taken)
}

/// A member of a Brigade Group (FYOW 2.9).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupMember {
    pub name: String,
    pub movement_points: u32,
    /// A reconnaissance Fraction leading the Group.
    pub leading_recce: bool,
}

/// How a Group member was attacked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Attack {
    Ground,
    Air,
    OffShore,
}

/// A Brigade (Regiment) moving or defending as one "Group" under its Senior
/// Command (FYOW 2.9). Only the Senior Command holds a BPC. Aircraft and
/// boats do not use Groups.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrigadeGroup {
    pub senior_command: String,
    /// In order of march: the first is the lead battlegroup (or the recce Fraction leading it).
    pub members: Vec<GroupMember>,
}

impl BrigadeGroup {
    /// The Group's Movement Points: "the lowest level of Movement Points
    /// from amongst the Battlegroups in the Group"; a reconnaissance
    /// Fraction leading the Group is not held to it and does not slow it.
    pub fn movement_points(&self) -> Option<u32> {
        self.members.iter().filter(|m| !m.leading_recce).map(|m| m.movement_points).min()
    }

    /// Who draws a Battlegroup Priority Card: the Senior Command, not the
    /// battlegroups it controls in the Group.
    pub fn bpc_holder(&self) -> &str {
        &self.senior_command
    }

    /// FYOW 2.9: "Any Battlegroup, other than the lead Battlegroup or
    /// reconnaissance Fraction, is automatically detached from the Group if
    /// it is attacked by ground forces." Air and off-shore attacks leave it
    /// in (the Senior Command may decide otherwise by the trait matrix).
    /// Returns whether `name` was detached.
    pub fn attacked(&mut self, name: &str, by: Attack) -> Result<(bool, RuleEvent), ArmyError> {
        let index = self
            .members
            .iter()
            .position(|m| m.name == name)
            .ok_or_else(|| out_of_range(format!("{name} is not in {}'s Group", self.senior_command)))?;
        let lead = index == 0 || self.members[index].leading_recce || (index == 1 && self.members[0].leading_recce);
        let detached = by == Attack::Ground && !lead;
        if detached {
            self.members.remove(index);
        }
        let event = RuleEvent::new(EventKind::Battlegroup, fyow("2.9 Brigade formations as Groups"))
            .actor(&self.senior_command)
            .target(name)
            .input("attack", by, "")
            .input("lead", lead, "the lead battlegroup and a leading recce Fraction stay")
            .outcome(json!({ "detached": detached }));
        Ok((detached, event))
    }

    /// Battlegroups are attached to or detached from the Group by the
    /// General "at the start of the campaign week" (FYOW 2.9); the Senior
    /// Command may split off one battlegroup or the whole Group at any time
    /// without a decision throw.
    pub fn general_may_regroup(date: &CampaignDate) -> bool {
        date.is_first_day_of_week() && date.session() == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::calendar::Month;

    fn el(name: &str, points: u32, mp: u32) -> Element {
        Element { name: name.into(), points, class: ElementClass::Line, movement_points: mp, attached: false }
    }

    fn bg(name: &str, brigade: &str, elements: Vec<Element>) -> Battlegroup {
        Battlegroup::new(name, BattlegroupKind::Line, brigade, "Lt Col", elements, 1500).unwrap()
    }

    #[test]
    fn cost_limits_by_period() {
        assert_eq!(WarPeriod::Early.recommended_max(), 1200);
        assert_eq!(WarPeriod::Mid.recommended_max(), 1500);
        assert_eq!(WarPeriod::Late.recommended_max(), 1800);
        let over = Battlegroup::new("1 BG", BattlegroupKind::Line, "1 Bde", "x", vec![el("a", 1201, 4)], 1200);
        assert!(over.is_err());
        assert!(Battlegroup::new("1 BG", BattlegroupKind::Line, "1 Bde", "x", vec![el("a", 1200, 4)], 1200).is_ok());
    }

    #[test]
    fn soft_skins_are_free_but_their_weapons_are_not() {
        assert_eq!(vehicle_cost(true, 30, 5), 5, "a truck with a machine gun");
        assert_eq!(vehicle_cost(false, 40, 0), 40, "an unarmed specialist vehicle still costs");
    }

    #[test]
    fn special_purpose_aircraft_ships_and_static_defences_form_their_own() {
        let mut para = el("Para coy", 200, 3);
        para.class = ElementClass::SpecialPurpose;
        assert!(check_composition(&[el("A Coy", 100, 3), para.clone()]).is_err());
        assert!(check_composition(&[para.clone(), para.clone()]).is_ok());
        let mut ship = el("Destroyer", 300, 10);
        ship.class = ElementClass::Ship;
        let mut plane = el("Typhoons", 300, 20);
        plane.class = ElementClass::Aircraft;
        assert!(check_composition(&[ship, plane]).is_err());
        assert!(check_composition(&[el("A Coy", 100, 3), el("Dinghies", 5, 2)]).is_ok());
        assert!(check_composition(&[]).is_ok());
    }

    #[test]
    fn a_battlegroup_moves_at_its_slowest_element() {
        let b = bg("1 BG", "1 Bde", vec![el("A Coy", 300, 3), el("Carriers", 200, 8)]);
        assert_eq!(b.movement_points(), Some(3));
        assert_eq!(b.points(), 500);
    }

    #[test]
    fn reserves_pass_directly_when_the_hq_is_on_the_same_board() {
        let mut hq =
            Battlegroup::new("Bde HQ", BattlegroupKind::BrigadeHq, "1 Bde", "2iC", vec![el("RE Pl", 80, 4)], 1500)
                .unwrap();
        let mut b = bg("1 BG", "1 Bde", vec![el("A Coy", 300, 3)]);
        let now = CampaignDate::new(1944, Month::June, 2, 6).unwrap();
        let names = vec!["RE Pl".to_string()];
        assert!(Battlegroup::transfer_from_hq(&mut hq, &mut b, &names, false, &now).is_err());
        hq.at_rest = true;
        assert!(Battlegroup::transfer_from_hq(&mut hq, &mut b, &names, true, &now).is_err(), "HQ at Rest");
        hq.at_rest = false;
        let (from, event) = Battlegroup::transfer_from_hq(&mut hq, &mut b, &names, true, &now).unwrap();
        assert_eq!(from, CampaignDate::new(1944, Month::June, 3, 1).unwrap(), "from the following session");
        assert_eq!(b.points(), 380);
        assert!(hq.elements.is_empty());
        assert_eq!(event.kind, EventKind::Battlegroup);
    }

    #[test]
    fn a_transfer_over_the_limit_is_refused_and_undone() {
        let mut hq =
            Battlegroup::new("Bde HQ", BattlegroupKind::BrigadeHq, "1 Bde", "2iC", vec![el("Tanks", 600, 6)], 1500)
                .unwrap();
        let mut b = bg("1 BG", "1 Bde", vec![el("A Coy", 1000, 3)]);
        let now = CampaignDate::start_of(1944, Month::June);
        assert!(Battlegroup::transfer_from_hq(&mut hq, &mut b, &["Tanks".into()], true, &now).is_err());
        assert_eq!(hq.points(), 600, "the HQ keeps them");
        assert!(Battlegroup::transfer_from_hq(&mut hq, &mut b, &["Nothing".into()], true, &now).is_err());
    }

    #[test]
    fn merging_two_battlegroups() {
        let mut a = bg("1 BG", "1 Bde", vec![el("A Coy", 300, 3)]);
        let mut b = bg("2 BG", "1 Bde", vec![el("B Coy", 250, 3)]);
        a.stockpile = 8;
        a.rationed = true;
        b.stockpile = 5;
        b.at_rest = true;
        let e = Battlegroup::merge(&mut a, &b, CommandLevel::Brigade, "Maj Smith", false).unwrap();
        assert_eq!(a.stockpile, 7, "(8 + 5) / 2 rounded up");
        assert!(a.rationed, "the senior's state is kept");
        assert!(!a.at_rest, "the absorbed battlegroup's Rest is cancelled");
        assert_eq!(a.points(), 550);
        assert_eq!(a.commander, "Maj Smith");
        assert_eq!(e.outcome["bpc_removed"], "2 BG");
        assert_eq!(e.outcome["new_orders"], true);
    }

    #[test]
    fn merging_across_brigades_needs_the_division() {
        let mut a = bg("1 BG", "1 Bde", vec![el("A Coy", 300, 3)]);
        let b = bg("5 BG", "2 Bde", vec![el("B Coy", 250, 3)]);
        assert!(Battlegroup::merge(&mut a, &b, CommandLevel::Brigade, "x", true).is_err());
        assert!(Battlegroup::merge(&mut a, &b, CommandLevel::Division, "x", true).is_ok());
        let c = bg("2 BG", "1 Bde", vec![el("C Coy", 1300, 3)]);
        assert!(Battlegroup::merge(&mut a, &c, CommandLevel::Brigade, "x", true).is_err(), "over 1500");
        let d = bg("3 BG", "1 Bde", vec![el("D Coy", 10, 3)]);
        assert!(Battlegroup::merge(&mut a, &d, CommandLevel::Battlegroup, "x", true).is_err());
    }

    fn group() -> BrigadeGroup {
        let m = |name: &str, mp, leading_recce| GroupMember { name: name.into(), movement_points: mp, leading_recce };
        BrigadeGroup {
            senior_command: "1 Bde".into(),
            members: vec![m("Recce", 12, true), m("1 BG", 6, false), m("2 BG", 4, false), m("3 BG", 5, false)],
        }
    }

    #[test]
    fn a_group_moves_at_its_slowest_battlegroup_but_not_its_recce() {
        assert_eq!(group().movement_points(), Some(4));
        assert_eq!(group().bpc_holder(), "1 Bde");
    }

    #[test]
    fn ground_attacks_detach_all_but_the_lead() {
        let mut g = group();
        assert!(!g.attacked("2 BG", Attack::Air).unwrap().0);
        assert!(!g.attacked("1 BG", Attack::Ground).unwrap().0, "lead battlegroup behind the recce");
        assert!(!g.attacked("Recce", Attack::Ground).unwrap().0);
        assert!(g.attacked("2 BG", Attack::Ground).unwrap().0);
        assert_eq!(g.members.len(), 3);
        assert_eq!(g.movement_points(), Some(5));
        assert!(g.attacked("9 BG", Attack::Ground).is_err());
    }

    #[test]
    fn the_general_regroups_at_the_start_of_the_week() {
        assert!(BrigadeGroup::general_may_regroup(&CampaignDate::new(1944, Month::June, 4, 1).unwrap()));
        assert!(!BrigadeGroup::general_may_regroup(&CampaignDate::new(1944, Month::June, 5, 1).unwrap()));
    }
}
