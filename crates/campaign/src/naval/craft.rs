//! Fleets and vessels (FYOW 29.1–29.5, 29.7): the kinds of craft, the guns
//! each carries (diced at the outset of the campaign), the water each may
//! use, serviceability when ordered out, Defence Values and damage.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::naval::{NavalError, rule};

/// The craft of FYOW 29 ("much simplified for ease").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Craft {
    /// "Off-shore support vessel (referred to generically here as a Destroyer)".
    Destroyer,
    Gunboat,
    /// "Small gunboat/trawler": the armed trawler.
    SmallGunboat,
    /// MTB or E-Boat.
    Mtb,
    Submarine,
    /// "Fishing boats (generic term for all yachts, smacks, junks etc)".
    FishingBoat,
    Canoe,
    Raft,
    /// Dinghy or rubber boat.
    Dinghy,
    AssaultBoat,
    /// "Small launch" of the river craft.
    Launch,
    /// Cargo or landing ship.
    CargoShip,
    LandingCraft,
}

/// Water a craft is on (29.3). Lakes are "navigable as per the rivers
/// feeding/flowing from them": pass the river class; inland water treated as
/// off-shore by the campaign (the Norwegian fjords) is `OffShore`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Water {
    OffShore,
    LargeRiver,
    SmallRiver,
}

/// What may stand on a stretch of river (29.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Obstacle {
    Weir,
    Lock,
    Rapids,
    EngineersBridge,
}

/// A weapon carried by a vessel (29.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weapon {
    /// 149mm (6 inch) guns.
    Gun149mm,
    /// 150mm and larger guns.
    Gun150mmPlus,
    /// 75mm (3 inch) guns.
    Gun75mm,
    /// 20mm AA guns.
    Aa20mm,
    DepthCharges,
    Torpedoes,
}

impl Weapon {
    /// Guns (as against depth charges and torpedoes, which are counted rounds).
    pub fn is_gun(self) -> bool {
        matches!(self, Self::Gun149mm | Self::Gun150mmPlus | Self::Gun75mm | Self::Aa20mm)
    }
}

/// One line of a vessel's armament: how many of a weapon, and the shots left today.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mount {
    pub weapon: Weapon,
    /// Guns of this kind, or depth charges / torpedoes carried.
    pub count: u8,
    /// "Shots per gun per day" for guns; `None` for depth charges and torpedoes.
    pub shots_per_gun_per_day: Option<u8>,
    /// Shots (or rounds) left for the rest of the day.
    pub left_today: u16,
}

impl Mount {
    fn new(weapon: Weapon, count: u8, shots_per_gun_per_day: Option<u8>) -> Self {
        let mut m = Self { weapon, count, shots_per_gun_per_day, left_today: 0 };
        m.refill();
        m
    }

    /// Reading (FYOW 29.2, 29.4): "ammunition supply was not a factor that
    /// interfered with naval operations", so a vessel starts every day with its
    /// day's shots and its full load of depth charges and torpedoes.
    fn refill(&mut self) {
        self.left_today = u16::from(self.count) * u16::from(self.shots_per_gun_per_day.unwrap_or(1));
    }
}

/// How the guns of one line of the 29.2 table are diced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Count {
    Fixed(u8),
    /// `n` dice of `sides` (D3 is the Order Die, 1,1,2,2,3,3).
    Dice(u8, u8),
    /// Davg plus a number.
    Avg(u8),
}

/// FYOW 29.2 "Guns on boats", row for row: weapon, number, shots per gun per day.
const fn armament_table(craft: Craft) -> &'static [(Weapon, Count, Option<u8>)] {
    match craft {
        Craft::Destroyer => &[
            (Weapon::Gun149mm, Count::Dice(2, 3), Some(2)),
            (Weapon::Gun150mmPlus, Count::Dice(2, 3), Some(2)),
            (Weapon::Aa20mm, Count::Dice(2, 4), Some(3)),
            (Weapon::DepthCharges, Count::Fixed(6), None),
        ],
        Craft::Gunboat => &[(Weapon::Gun75mm, Count::Avg(2), Some(3)), (Weapon::Aa20mm, Count::Avg(0), Some(3))],
        Craft::SmallGunboat => &[(Weapon::Gun75mm, Count::Avg(0), Some(3)), (Weapon::Aa20mm, Count::Avg(0), Some(3))],
        Craft::Mtb => &[(Weapon::Gun75mm, Count::Dice(1, 3), Some(3)), (Weapon::Torpedoes, Count::Fixed(4), None)],
        Craft::Submarine => &[(Weapon::Torpedoes, Count::Fixed(6), None)],
        _ => &[],
    }
}

/// The sea-going vessels a campaign's fleet fields: the off-shore fire
/// support craft with guns (FYOW 29.2, 29.3) and the submarine (29.10.2).
pub const FLEET_CRAFT: [Craft; 5] =
    [Craft::Destroyer, Craft::Gunboat, Craft::SmallGunboat, Craft::Mtb, Craft::Submarine];

/// "Fishing boats ... unarmed - capacity for 12 load spaces" (29.2).
pub const FISHING_BOAT_LOAD_SPACES: u8 = 12;

/// A boat Battlegroup "starts the game with a Strategic Condition of 6" (29.11).
pub const START_CONDITION: u8 = 6;

impl Craft {
    /// FYOW 29.7 "Defensive Values for naval craft", row for row.
    ///
    /// Reading (FYOW 29.7): the river craft's "Small launch/trawler/yacht 2"
    /// is the fishing-boat class (yachts, smacks and unarmed trawlers); the
    /// armed "Trawler, Small gunboat" keeps its in-shore 4.
    pub const fn defence_value(self) -> u8 {
        match self {
            // River craft
            Self::Canoe | Self::Dinghy | Self::Raft | Self::AssaultBoat => 1,
            Self::Launch | Self::FishingBoat => 2,
            // In-shore craft
            Self::SmallGunboat | Self::CargoShip => 4,
            Self::LandingCraft => 2,
            // Off-shore craft
            Self::Destroyer => 12,
            Self::Gunboat => 6,
            Self::Mtb => 4,
            Self::Submarine => 6,
        }
    }

    /// "Small gunboats/trawlers, MTB/E-Boats and fishing boats are referred to
    /// as Small Vessels when being spotted" (29.2 note).
    pub const fn is_small_vessel(self) -> bool {
        matches!(self, Self::SmallGunboat | Self::Mtb | Self::FishingBoat)
    }

    /// The river "small craft (dingy, assault boat, canoe, raft etc)" (29.3).
    pub const fn is_small_craft(self) -> bool {
        matches!(self, Self::Canoe | Self::Raft | Self::Dinghy | Self::AssaultBoat | Self::Launch)
    }

    /// Ships lost cannot be replaced; "canoes, rafts etc are only counted
    /// towards replenishment if sunk" (29.1).
    pub const fn counts_for_replenishment(self) -> bool {
        self.is_small_craft()
    }

    /// Craft paddled or rowed, needing no supply (29.4); a motorised raft is
    /// set on the [`Vessel`].
    const fn unpowered_by_default(self) -> bool {
        matches!(self, Self::Canoe | Self::Raft | Self::Dinghy | Self::AssaultBoat)
    }

    /// May this craft use this water (29.3)?
    ///
    /// Reading (FYOW 29.3, 29.16): off-shore carries the sea-going vessels,
    /// cargo ships and landing craft, and the rubber boats (dinghies) of covert
    /// landings at coves; canoes, rafts, assault boats and launches are
    /// "restricted to inland waterways".
    pub fn may_use(self, water: Water) -> Result<(), NavalError> {
        let ok = match water {
            Water::OffShore => !matches!(self, Self::Canoe | Self::Raft | Self::AssaultBoat | Self::Launch),
            Water::LargeRiver => {
                self.is_small_craft() || matches!(self, Self::FishingBoat | Self::SmallGunboat | Self::Mtb)
            }
            Water::SmallRiver => self.is_small_craft(),
        };
        if ok { Ok(()) } else { Err(NavalError::NotNavigable(format!("{self:?} on {water:?}"))) }
    }

    /// May this craft pass this obstacle on this water (29.3)?
    ///
    /// Reading (FYOW 29.3): on a large river "only canoes and rafts can pass a
    /// weir", and rapids are read the same way; locks pass every craft that may
    /// use the river (the text names small gunboats, MTBs and fishing boats;
    /// small craft on small rivers use their locks too). "Nothing can move past
    /// engineer's bridges", nor past weirs or rapids on a small river.
    pub fn may_pass(self, water: Water, obstacle: Obstacle) -> Result<(), NavalError> {
        self.may_use(water)?;
        let ok = match (water, obstacle) {
            (_, Obstacle::Lock) => true,
            (_, Obstacle::EngineersBridge) => false,
            (Water::SmallRiver, _) => false,
            (_, Obstacle::Weir | Obstacle::Rapids) => matches!(self, Self::Canoe | Self::Raft),
        };
        if ok { Ok(()) } else { Err(NavalError::NotNavigable(format!("{self:?} past {obstacle:?} on {water:?}"))) }
    }
}

/// One vessel of a fleet, as saved in the campaign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vessel {
    pub id: String,
    pub craft: Craft,
    /// Powered craft need the serviceability throw (29.4); unpowered ones need
    /// no supply but only infantry with enhanced capability may use them.
    pub motorised: bool,
    pub mounts: Vec<Mount>,
    /// Damage points accrued against the Defence Value.
    pub damage: u8,
    /// Damage taken since the vessel was last activated (29.11).
    pub damage_since_activation: u8,
    /// Strategic Condition, 6 at the start; 0 retires the vessel (29.11).
    pub condition: u8,
}

impl Vessel {
    /// A vessel with the armament given (for a saved or scenario fleet).
    pub fn new(id: impl Into<String>, craft: Craft, mounts: Vec<Mount>) -> Self {
        Self {
            id: id.into(),
            craft,
            motorised: !craft.unpowered_by_default(),
            mounts,
            damage: 0,
            damage_since_activation: 0,
            condition: START_CONDITION,
        }
    }

    /// FYOW 29.2: "Dice for each at the outset of the campaign" the number of
    /// guns of every line of the vessel's table.
    ///
    /// Reading (FYOW 29.2): the Destroyer's 149mm and 150mm+ lines are both
    /// diced, as printed (the "Destroyer" stands for every off-shore support
    /// vessel, cruisers included).
    pub fn commission(id: impl Into<String>, craft: Craft, dice: &mut impl Roll) -> (Self, RuleEvent) {
        let id = id.into();
        let mut faces_d6 = Vec::new();
        let mut faces_d4 = Vec::new();
        let mut mounts = Vec::new();
        for &(weapon, count, shots) in armament_table(craft) {
            let n = match count {
                Count::Fixed(n) => n,
                Count::Dice(n, 3) => (0..n)
                    .map(|_| {
                        let f = dice.d6();
                        faces_d6.push(f);
                        f.div_ceil(2)
                    })
                    .sum(),
                Count::Dice(n, sides) => {
                    let f = dice.throw(usize::from(n), sides);
                    faces_d4.extend(&f);
                    f.iter().sum()
                }
                Count::Avg(plus) => {
                    let f = dice.d6();
                    faces_d6.push(f);
                    [2, 3, 3, 4, 4, 5][usize::from(f - 1)] + plus
                }
            };
            mounts.push(Mount::new(weapon, n, shots));
        }
        let vessel = Self::new(id.clone(), craft, mounts);
        let event = RuleEvent::new(EventKind::Naval, rule("29.2 Guns on boats"))
            .actor(id)
            .input("craft", craft, "")
            .dice(6, &faces_d6)
            .dice(4, &faces_d4)
            .outcome(json!({ "mounts": vessel.mounts }));
        (vessel, event)
    }

    pub fn defence_value(&self) -> u8 {
        self.craft.defence_value()
    }

    /// Strength left: Defence Value less damage.
    pub fn strength(&self) -> u8 {
        self.defence_value().saturating_sub(self.damage)
    }

    /// "When it is reduced to 0, the vessel sinks."
    pub fn sunk(&self) -> bool {
        self.strength() == 0
    }

    /// "When the strength is reduced by half" (strength left at or below half
    /// the Defence Value).
    pub fn half_strength(&self) -> bool {
        u16::from(self.strength()) * 2 <= u16::from(self.defence_value())
    }

    /// A Strategic Condition of 0: "the boat retires from the Map Board".
    pub fn retired(&self) -> bool {
        self.condition == 0
    }

    /// Accrues damage against the strength (capped at the Defence Value).
    pub fn take_damage(&mut self, points: u8) {
        let points = points.min(self.strength());
        self.damage += points;
        self.damage_since_activation = self.damage_since_activation.saturating_add(points);
    }

    /// The mount carrying `weapon`, if any.
    pub fn mount(&self, weapon: Weapon) -> Option<&Mount> {
        self.mounts.iter().find(|m| m.weapon == weapon)
    }

    pub(crate) fn mount_mut(&mut self, weapon: Weapon) -> Option<&mut Mount> {
        self.mounts.iter_mut().find(|m| m.weapon == weapon)
    }

    /// Guns of this kind that may fire: "when the strength is reduced by half,
    /// only half of any guns may fire (rounded up)". Reading (FYOW 29.10.1):
    /// the halving is of guns; depth charges and torpedoes are not guns.
    pub fn guns_able_to_fire(&self, weapon: Weapon) -> u8 {
        let count = self.mount(weapon).map_or(0, |m| m.count);
        if weapon.is_gun() && self.half_strength() { count.div_ceil(2) } else { count }
    }

    /// A new day: every mount gets its day's shots back (see [`Mount`]).
    pub fn new_day(&mut self) {
        self.mounts.iter_mut().for_each(Mount::refill);
    }

    /// The vessel can act: not sunk, not retired.
    pub fn ready(&self) -> Result<(), NavalError> {
        if self.sunk() {
            Err(NavalError::Sunk)
        } else if self.retired() {
            Err(NavalError::Retired)
        } else {
            Ok(())
        }
    }
}

/// One boat's serviceability throw (29.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Serviceability {
    pub id: String,
    /// The D6, `None` for an unpowered boat (no supply needed).
    pub face: Option<u8>,
    pub operates: bool,
}

/// FYOW 29.4: "For each ship ordered to conduct naval operations, when
/// activated, 1D6 is thrown for each boat in the Battlegroup ... able to
/// operate if a 2+ is scored". "Supply is not required for unpowered boats.
/// However these craft can only be used by infantry if they have enhanced
/// capability."
pub fn serviceability(
    boats: &[Vessel],
    enhanced_capability: bool,
    dice: &mut impl Roll,
) -> (Vec<Serviceability>, RuleEvent) {
    let mut faces = Vec::new();
    let results: Vec<Serviceability> = boats
        .iter()
        .map(|b| {
            if b.motorised {
                let f = dice.d6();
                faces.push(f);
                Serviceability { id: b.id.clone(), face: Some(f), operates: f >= 2 }
            } else {
                Serviceability { id: b.id.clone(), face: None, operates: enhanced_capability }
            }
        })
        .collect();
    let event = RuleEvent::new(EventKind::Supply, rule("29.4 Supply for boats"))
        .input("boats", boats.len(), "")
        .input("enhanced_capability", enhanced_capability, "unpowered boats need enhanced infantry")
        .input("target", 2, "D6 per powered boat")
        .dice(6, &faces)
        .outcome(json!({ "boats": results }));
    (results, event)
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;

    #[test]
    fn destroyer_dices_every_line_of_its_table() {
        // 149mm 2D3: D6 faces 1,6 -> 1+3; 150mm+ 2D3: 3,4 -> 2+2; AA 2D4: 2,4.
        let mut dice = Scripted::new([1, 6, 3, 4, 2, 4]);
        let (d, event) = Vessel::commission("HMS Kelly", Craft::Destroyer, &mut dice);
        assert_eq!(d.mount(Weapon::Gun149mm).unwrap().count, 4);
        assert_eq!(d.mount(Weapon::Gun150mmPlus).unwrap().count, 4);
        assert_eq!(d.mount(Weapon::Aa20mm).unwrap().count, 6);
        assert_eq!(d.mount(Weapon::DepthCharges).unwrap().count, 6);
        assert_eq!(d.mount(Weapon::Gun149mm).unwrap().left_today, 8, "2 shots per gun per day");
        assert_eq!(d.mount(Weapon::Aa20mm).unwrap().left_today, 18, "3 shots per gun per day");
        assert_eq!(event.dice.len(), 6);
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn gunboats_use_the_average_die() {
        let mut dice = Scripted::new([6, 1]);
        let (g, _) = Vessel::commission("G1", Craft::Gunboat, &mut dice);
        assert_eq!(g.mount(Weapon::Gun75mm).unwrap().count, 7, "Davg 5 + 2");
        assert_eq!(g.mount(Weapon::Aa20mm).unwrap().count, 2);
        let mut dice = Scripted::new([3, 4]);
        let (t, _) = Vessel::commission("T1", Craft::SmallGunboat, &mut dice);
        assert_eq!(t.mount(Weapon::Gun75mm).unwrap().count, 3);
        assert_eq!(t.mount(Weapon::Aa20mm).unwrap().count, 4);
    }

    #[test]
    fn mtbs_submarines_and_fishing_boats() {
        let mut dice = Scripted::new([5]);
        let (m, _) = Vessel::commission("S-38", Craft::Mtb, &mut dice);
        assert_eq!(m.mount(Weapon::Gun75mm).unwrap().count, 3);
        assert_eq!(m.mount(Weapon::Torpedoes).unwrap().count, 4);
        let (s, _) = Vessel::commission("U-47", Craft::Submarine, &mut Scripted::new([]));
        assert_eq!(s.mount(Weapon::Torpedoes).unwrap().count, 6);
        let (f, _) = Vessel::commission("Smack", Craft::FishingBoat, &mut Scripted::new([]));
        assert!(f.mounts.is_empty(), "unarmed");
        assert_eq!(FISHING_BOAT_LOAD_SPACES, 12);
    }

    #[test]
    fn defence_values_as_printed() {
        let expected = [
            (Craft::Canoe, 1),
            (Craft::Dinghy, 1),
            (Craft::Raft, 1),
            (Craft::Launch, 2),
            (Craft::FishingBoat, 2),
            (Craft::SmallGunboat, 4),
            (Craft::CargoShip, 4),
            (Craft::LandingCraft, 2),
            (Craft::Destroyer, 12),
            (Craft::Gunboat, 6),
            (Craft::Mtb, 4),
            (Craft::Submarine, 6),
        ];
        for (c, dv) in expected {
            assert_eq!(c.defence_value(), dv, "{c:?}");
        }
    }

    #[test]
    fn small_vessels_for_spotting() {
        assert!(Craft::SmallGunboat.is_small_vessel());
        assert!(Craft::Mtb.is_small_vessel());
        assert!(Craft::FishingBoat.is_small_vessel());
        assert!(!Craft::Gunboat.is_small_vessel());
        assert!(!Craft::Destroyer.is_small_vessel());
    }

    #[test]
    fn who_may_use_which_water() {
        assert!(Craft::Destroyer.may_use(Water::OffShore).is_ok());
        assert!(Craft::Destroyer.may_use(Water::LargeRiver).is_err());
        assert!(Craft::Gunboat.may_use(Water::LargeRiver).is_err(), "only small gunboats on rivers");
        for c in [Craft::Mtb, Craft::SmallGunboat, Craft::FishingBoat, Craft::Canoe] {
            assert!(c.may_use(Water::LargeRiver).is_ok(), "{c:?}");
        }
        assert!(Craft::Mtb.may_use(Water::SmallRiver).is_err());
        assert!(Craft::AssaultBoat.may_use(Water::SmallRiver).is_ok());
        assert!(Craft::Raft.may_use(Water::OffShore).is_err(), "inland waterways only");
        assert!(Craft::Dinghy.may_use(Water::OffShore).is_ok(), "rubber boats land at coves");
    }

    #[test]
    fn weirs_locks_and_bridges() {
        assert!(Craft::Canoe.may_pass(Water::LargeRiver, Obstacle::Weir).is_ok());
        assert!(Craft::Raft.may_pass(Water::LargeRiver, Obstacle::Weir).is_ok());
        assert!(Craft::Mtb.may_pass(Water::LargeRiver, Obstacle::Weir).is_err());
        assert!(Craft::Mtb.may_pass(Water::LargeRiver, Obstacle::Lock).is_ok());
        assert!(Craft::FishingBoat.may_pass(Water::LargeRiver, Obstacle::Lock).is_ok());
        assert!(Craft::Canoe.may_pass(Water::SmallRiver, Obstacle::Weir).is_err(), "nothing passes on small rivers");
        assert!(Craft::Canoe.may_pass(Water::SmallRiver, Obstacle::Lock).is_ok());
        assert!(Craft::Canoe.may_pass(Water::LargeRiver, Obstacle::EngineersBridge).is_err());
        assert!(Craft::Mtb.may_pass(Water::SmallRiver, Obstacle::Lock).is_err(), "not on small rivers at all");
    }

    #[test]
    fn half_strength_halves_guns_rounded_up_and_zero_sinks() {
        let (mut g, _) = Vessel::commission("G", Craft::Gunboat, &mut Scripted::new([6, 3]));
        assert_eq!(g.guns_able_to_fire(Weapon::Gun75mm), 7);
        g.take_damage(2);
        assert!(!g.half_strength());
        g.take_damage(1);
        assert!(g.half_strength(), "6 reduced by half");
        assert_eq!(g.guns_able_to_fire(Weapon::Gun75mm), 4, "half of 7 rounded up");
        g.take_damage(9);
        assert_eq!(g.damage, 6, "capped at the Defence Value");
        assert!(g.sunk());
        assert_eq!(g.ready(), Err(NavalError::Sunk));
    }

    #[test]
    fn torpedoes_are_not_halved() {
        let (mut s, _) = Vessel::commission("U", Craft::Submarine, &mut Scripted::new([]));
        s.take_damage(3);
        assert_eq!(s.guns_able_to_fire(Weapon::Torpedoes), 6);
    }

    #[test]
    fn serviceability_needs_2_plus_and_unpowered_boats_need_enhanced_troops() {
        let boats = vec![
            Vessel::new("A", Craft::Mtb, vec![]),
            Vessel::new("B", Craft::Mtb, vec![]),
            Vessel::new("C", Craft::AssaultBoat, vec![]),
        ];
        let (r, e) = serviceability(&boats, false, &mut Scripted::new([1, 2]));
        assert!(!r[0].operates);
        assert!(r[1].operates);
        assert_eq!(r[2].face, None);
        assert!(!r[2].operates, "no enhanced capability");
        assert_eq!(e.dice.len(), 2);
        let (r, _) = serviceability(&boats[2..], true, &mut Scripted::new([]));
        assert!(r[0].operates);
    }

    #[test]
    fn a_new_day_restores_shots() {
        let (mut m, _) = Vessel::commission("M", Craft::Mtb, &mut Scripted::new([1]));
        m.mount_mut(Weapon::Gun75mm).unwrap().left_today = 0;
        m.new_day();
        assert_eq!(m.mount(Weapon::Gun75mm).unwrap().left_today, 3);
    }

    #[test]
    fn small_craft_count_for_replenishment_ships_do_not() {
        assert!(Craft::Canoe.counts_for_replenishment());
        assert!(!Craft::Destroyer.counts_for_replenishment());
    }

    #[test]
    fn a_vessel_saves_and_loads() {
        let (mut d, _) = Vessel::commission("D", Craft::Destroyer, &mut Scripted::new([1, 2, 3, 4, 1, 2]));
        d.take_damage(4);
        let back: Vessel = serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
        assert_eq!(back, d);
        assert_eq!(NavalError::Sunk.to_string(), "the vessel has sunk");
    }
}
