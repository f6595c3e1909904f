//! The points formula (docs/codex.md): a figure's cost by grade, a weapon's
//! and an entry's cost in steps of 5, the Combat Value of a cost and the
//! battlegroup limit of each era.

use serde::{Deserialize, Serialize};

use super::entry::{Armament, CodexEntry};
use crate::effects::HeColumn;
use crate::firing::{Shots, Weapon};

/// A points cost, kept in half points: a Regular figure costs 1½
/// (*Heroes All*, "Cost of infantry").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
pub struct Points(u32);

crate::halves::impl_halves!(Points);

impl Points {
    /// *Fight Your Own Wars* 33.2: "Divide this total by 10 to calculate the
    /// Combat Value ... Ignore any fraction or decimal."
    pub const fn combat_value(self) -> u32 {
        self.0 / 20
    }
}

/// A figure's grade as *Heroes All* "Cost of infantry" prices it. Crews of
/// guns and vehicles are figures too and are costed here, not in the CODEX
/// entry of what they crew.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FigureGrade {
    /// Poor, green or militia.
    Poor,
    PoorEnhanced,
    Regular,
    /// Parachutists, gunners of artillery over 75mm, engineers, FOO, recce.
    RegularEnhanced,
    /// Elite or veteran.
    Elite,
    /// Snipers are costed here.
    EliteEnhanced,
    SpecialCharacter,
}

impl FigureGrade {
    /// *Heroes All*, "Cost of infantry": 1, 2, 1½, 3, 2, 4 and 8 points.
    pub const fn cost(self) -> Points {
        Points(match self {
            Self::Poor => 2,
            Self::PoorEnhanced => 4,
            Self::Regular => 3,
            Self::RegularEnhanced => 6,
            Self::Elite => 4,
            Self::EliteEnhanced => 8,
            Self::SpecialCharacter => 16,
        })
    }
}

/// The periods *Fight Your Own Wars* 2.1 sets battlegroup limits for.
///
/// Reading: the books give no years; early war is 1939–41 (until the US
/// enters and the second generation of tanks arrives), mid-war 1942–43,
/// late war 1944–45 (docs/rules-readings.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Era {
    Early,
    Mid,
    Late,
}

impl Era {
    /// The era of a year of the war, `None` outside 1939–45.
    pub const fn of_year(year: u16) -> Option<Self> {
        match year {
            1939..=1941 => Some(Self::Early),
            1942..=1943 => Some(Self::Mid),
            1944..=1945 => Some(Self::Late),
            _ => None,
        }
    }

    /// *Fight Your Own Wars* 2.1: "The recommended maximum points value
    /// ("cost") of a Battlegroup is 1200 points (early war), 1500 points
    /// (mid-war) and 1800 (late war)."
    pub const fn battlegroup_limit(self) -> Points {
        Points::whole(match self {
            Self::Early => 1200,
            Self::Mid => 1500,
            Self::Late => 1800,
        })
    }
}

/// Rows a figure carries as personal kit, "not counted as a load" (Loads
/// chapter: "his own personal weapon, any grenades"): the figure's grade
/// cost already pays for them.
const fn is_personal_kit(row: Weapon) -> bool {
    matches!(row, Weapon::AtGrenades | Weapon::HandGrenades)
}

/// Steps of the HE column, A = 1 … F = 6; grenades' G1/G2 are personal kit (0).
const fn he_steps(column: HeColumn) -> u32 {
    match column {
        HeColumn::A => 1,
        HeColumn::B => 2,
        HeColumn::C => 3,
        HeColumn::D => 4,
        HeColumn::E => 5,
        HeColumn::F => 6,
        HeColumn::G1 | HeColumn::G2 => 0,
    }
}

/// Points per step of the formula (docs/codex.md): a machine gun, each HE
/// column step, each AT class and each armour class above soft-skinned.
/// Each AT class adds 3 to the Attack Value and each armour class 3 to the
/// Defence Values, so a class of gun and a class of armour cost the same.
pub const POINTS_PER_STEP: u32 = 5;

impl Armament {
    /// The points formula for one weapon, times `count` (docs/codex.md):
    /// 5 × (machine gun + HE column steps + AT class), where a machine gun is
    /// a row of 3 or more shots a bound (LMG, Tank MG, MMG, HMG), the HE
    /// column counts A = 1 … F = 6, and the AT class is the highest class
    /// whose effective Attack Value (3 × class + 2) the row reaches. Grenades
    /// are personal kit and cost nothing beyond the figure.
    pub fn cost(&self) -> Points {
        if is_personal_kit(self.row) {
            return Points::ZERO;
        }
        let row = self.row.row();
        let mg = u32::from(matches!(row.shots, Shots::PerBound(n) if n >= 3));
        let he = self.he_row().and_then(|r| r.row().he).map_or(0, he_steps);
        let at = row.attack[1].map_or(0, |av| u32::try_from((av - 2).max(0) / 3).unwrap_or(0));
        Points::whole(POINTS_PER_STEP * (mg + he + at)) * u32::from(self.count)
    }
}

impl CodexEntry {
    /// The formula's cost (docs/codex.md): its weapons ([`Armament::cost`])
    /// plus 5 per armour class above soft-skinned (Flimsy 1 … Formidable 5).
    /// A soft-skinned vehicle is free but its weapons are charged (*Fight Your
    /// Own Wars* 2.1); crews are figures, costed by [`FigureGrade`].
    pub fn cost(&self) -> Points {
        let armour = self.armour.map_or(0, |a| a as u32);
        self.armament.iter().map(Armament::cost).sum::<Points>() + Points::whole(POINTS_PER_STEP * armour)
    }

    /// The grade its crew are costed at, from the grade of the troops.
    ///
    /// *Heroes All*, "Cost of infantry": the basic grades "man Crew Served
    /// Weapons and artillery pieces up to and including 75mm"; Enhanced
    /// troops "man artillery pieces as a gunner" ("Gunnery who are poor
    /// troops" for Poor). Reading: a gun over 75mm, towed or in an AFV, needs
    /// Enhanced gunners; everything else is crewed at the troops' own grade
    /// (docs/rules-readings.md).
    pub fn crew_grade(&self, troops: FigureGrade) -> FigureGrade {
        if !self.armament.iter().any(Armament::needs_gunners) {
            return troops;
        }
        match troops {
            FigureGrade::Poor => FigureGrade::PoorEnhanced,
            FigureGrade::Regular => FigureGrade::RegularEnhanced,
            FigureGrade::Elite => FigureGrade::EliteEnhanced,
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codex::testing::test_codex as codex;
    use crate::codex::testing::{entry, pts};
    use crate::codex::{Codex, Kind};
    use crate::effects::ArmourClass;
    use crate::firing::Band;

    #[test]
    fn cost_of_infantry_by_grade() {
        // Heroes All, "Cost of infantry".
        let cost = |g: FigureGrade| g.cost().halves();
        assert_eq!(cost(FigureGrade::Poor), 2);
        assert_eq!(cost(FigureGrade::PoorEnhanced), 4);
        assert_eq!(cost(FigureGrade::Regular), 3, "1 1/2 pts");
        assert_eq!(cost(FigureGrade::RegularEnhanced), 6);
        assert_eq!(cost(FigureGrade::Elite), 4);
        assert_eq!(cost(FigureGrade::EliteEnhanced), 8);
        assert_eq!(cost(FigureGrade::SpecialCharacter), 16);
        assert_eq!(FigureGrade::Regular.cost().to_string(), "1½");
        assert_eq!((FigureGrade::Regular.cost() * 20).to_string(), "30");
    }

    #[test]
    fn crews_over_75mm_are_gunners() {
        assert_eq!(entry("gb_25pdr").crew_grade(FigureGrade::Regular), FigureGrade::RegularEnhanced, "88mm");
        assert_eq!(entry("gb_6pdr_atg").crew_grade(FigureGrade::Regular), FigureGrade::Regular, "57mm");
        assert_eq!(entry("de_tiger1").crew_grade(FigureGrade::Elite), FigureGrade::EliteEnhanced);
        assert_eq!(entry("us_m4a1_sherman").crew_grade(FigureGrade::Poor), FigureGrade::Poor, "75mm and under");
        assert_eq!(
            entry("gb_sherman_firefly").crew_grade(FigureGrade::Poor),
            FigureGrade::PoorEnhanced,
            "\"Gunnery who are poor troops\""
        );
        assert_eq!(entry("gb_42in_mortar").crew_grade(FigureGrade::Regular), FigureGrade::Regular, "a mortar is a CSW");
    }

    #[test]
    fn a_machine_gun_costs_5_and_a_medium_mortar_15() {
        // FYOW 21.5: "1 x MMG = 5 points", "1 x MMtr = 15 points"; its text
        // says an LMG: every machine gun costs 5 so the example totals 50 either way.
        let c = codex();
        for e in c.entries().iter().filter(|e| e.kind == Kind::Weapon) {
            let row = e.armament[0].row;
            if matches!(row, Weapon::Lmg | Weapon::Mmg | Weapon::Hmg) {
                assert_eq!(e.cost(), pts(5), "{}", e.id);
            }
            if row == Weapon::MediumMortar {
                assert_eq!(e.cost(), pts(15), "{}", e.id);
            }
        }
        assert_eq!(entry("gb_bren").cost(), pts(5));
        assert_eq!(entry("gb_vickers_mmg").cost(), pts(5));
        assert_eq!(entry("gb_3in_mortar").cost(), pts(15));
    }

    #[test]
    fn fyow_21_5_losses_total_50_points() {
        let c = codex();
        let losses =
            c.force_cost(&[(FigureGrade::Regular, 20)], &[("gb_vickers_mmg", 1), ("gb_3in_mortar", 1)]).unwrap();
        assert_eq!(losses, pts(50));
        let as_written = c.force_cost(&[(FigureGrade::Regular, 20)], &[("gb_bren", 1), ("gb_3in_mortar", 1)]).unwrap();
        assert_eq!(as_written, pts(50), "the example's LMG costs the same");
    }

    #[test]
    fn soft_skinned_vehicles_are_free_but_their_weapons_are_charged() {
        let c = codex();
        for e in c.entries().iter().filter(|e| e.armour == Some(ArmourClass::SoftSkinned)) {
            let weapons: Points = e.armament.iter().map(Armament::cost).sum();
            assert_eq!(e.cost(), weapons, "{}", e.id);
        }
        assert_eq!(entry("gb_bedford_qld").cost(), Points::ZERO);
        assert_eq!(entry("us_willys_jeep").cost(), Points::ZERO);
        assert_eq!(entry("gb_sas_jeep").cost(), pts(15), "twin Vickers K and a .50: three machine guns");
        assert_eq!(entry("su_bm13").cost(), pts(16 * 15), "16 rails of HE C rockets on a free lorry");
        // An armoured vehicle pays for its armour even unarmed (FYOW 2.1 specialist vehicles).
        assert_eq!(entry("de_goliath").cost(), pts(5));
    }

    #[test]
    fn formula_by_class() {
        // 5 per step: machine gun, HE column A..F, AT class, armour class.
        assert_eq!(entry("gb_2in_mortar").cost(), pts(5), "HE A");
        assert_eq!(entry("gb_25pdr").cost(), pts(20), "HE D");
        assert_eq!(entry("gb_72in_howitzer").cost(), pts(30), "HE F");
        assert_eq!(entry("gb_2pdr_atg").cost(), pts(10), "AT class 2, no HE");
        assert_eq!(entry("de_pak40").cost(), pts(15 + 15), "AT class 3 with HE C");
        assert_eq!(entry("de_pak43").cost(), pts(25 + 20), "AT class 5 with HE D");
        assert_eq!(entry("gb_piat").cost(), pts(10), "effective AV 8: as AT class 2");
        assert_eq!(entry("de_panzerschreck").cost(), pts(15), "effective AV 11: as AT class 3");
        assert_eq!(entry("gb_boys_atr").cost(), Points::ZERO, "effective AV 2 reaches no class");
        assert_eq!(entry("gb_bofors_40mm").cost(), pts(5 + 10), "AV 5 (class 1) and HE B");
        assert_eq!(entry("gb_no4_rifle").cost(), Points::ZERO, "a figure's personal weapon");
        assert_eq!(entry("gb_no36_grenade").cost(), Points::ZERO, "grenades are personal kit");
        assert_eq!(entry("gb_no74_sticky_bomb").cost(), Points::ZERO);
        assert_eq!(entry("gb_universal_carrier").cost(), pts(5 + 5), "Bren and Flimsy armour");
        assert_eq!(entry("us_m4a1_sherman").cost(), pts(10 + 15 + 2 * 5 + 5 + 15), "class 2, HE C, 2 TMG, HMG, Medium");
        assert_eq!(entry("de_tiger2").cost(), pts(25 + 20 + 10 + 25), "class 5, HE D, 2 TMG, Formidable");
        // The AT class equivalent is the highest class whose effective AV the row reaches.
        for class in 1..=5u8 {
            let a = Armament {
                row: [
                    Weapon::AtGunClass1,
                    Weapon::AtGunClass2,
                    Weapon::AtGunClass3,
                    Weapon::AtGunClass4,
                    Weapon::AtGunClass5,
                ][usize::from(class - 1)],
                count: 1,
                he: None,
                calibre: None,
                range: None,
                shots_per_day: None,
            };
            assert_eq!(a.row.row().attack_at(Band::Effective), Some(3 * class as i8 + 2));
            assert_eq!(a.cost(), pts(5 * u32::from(class)));
            assert_eq!(a.at_class(), Some(class));
        }
    }

    #[test]
    fn combat_value_is_cost_over_ten_ignoring_fractions() {
        // FYOW 33.2: "Thus 951 becomes 95 and 1019 becomes 101."
        assert_eq!(pts(951).combat_value(), 95);
        assert_eq!(pts(1019).combat_value(), 101);
        // "the new Combat Value of the enlarged Battlegroup will become 124 and not 123."
        assert_eq!((pts(1019) + pts(229)).combat_value(), 124);
        assert_eq!(pts(1019).combat_value() + pts(229).combat_value(), 123);
        assert_eq!((FigureGrade::Regular.cost() * 7).combat_value(), 1, "10½ is 1");
    }

    #[test]
    fn eras_and_battlegroup_limits() {
        assert_eq!(Era::of_year(1940).map(Era::battlegroup_limit), Some(pts(1200)));
        assert_eq!(Era::of_year(1943).map(Era::battlegroup_limit), Some(pts(1500)));
        assert_eq!(Era::of_year(1944).map(Era::battlegroup_limit), Some(pts(1800)));
        assert_eq!(Era::of_year(1946), None);
    }

    /// A battalion as in FYOB's "Example of a structure": 4 companies of 3
    /// platoons with a HQ platoon, 2 batteries of artillery, 2 squadrons of
    /// 3 gun tanks and a Close Support tank; platoons of 8 figures (*Heroes
    /// All*: "the infantry element representing the platoon ... a group of 8
    /// figures"), every figure Regular, crews by [`CodexEntry::crew_grade`].
    fn battalion(c: &Codex, support: &[(&str, u32)]) -> Points {
        let riflemen = 12 * 8 + 4 * 4 + 4; // platoons, company HQs, battalion HQ
        let mut figures = vec![(FigureGrade::Regular, riflemen)];
        for &(id, n) in support {
            let e = c.get(id).unwrap();
            figures.push((e.crew_grade(FigureGrade::Regular), u32::from(e.crew) * n));
        }
        // Weapons carried by the rifle platoons and company HQs (crewed from their figures).
        let mut kit = vec![("gb_bren", 12), ("gb_2in_mortar", 4)];
        kit.extend_from_slice(support);
        c.force_cost(&figures, &kit).unwrap()
    }

    #[test]
    fn a_typical_battalion_lands_inside_each_eras_limit() {
        let c = codex();
        // 1940, France: Boys rifles, two 3-inch mortars, a carrier section,
        // brigade 2pdrs, two batteries of 25pdrs, Matilda IIs with CS tanks.
        let early = battalion(
            &c,
            &[
                ("gb_boys_atr", 12),
                ("gb_3in_mortar", 2),
                ("gb_universal_carrier", 4),
                ("gb_2pdr_atg", 4),
                ("gb_25pdr", 8),
                ("gb_matilda_ii", 6),
                ("gb_matilda_ii_cs", 2),
            ],
        );
        // 1943, Tunisia: PIATs, six 3-inch mortars, six 6pdrs, Churchills.
        let mid = battalion(
            &c,
            &[
                ("gb_piat", 4),
                ("gb_3in_mortar", 6),
                ("gb_universal_carrier", 4),
                ("gb_6pdr_atg", 6),
                ("gb_25pdr", 8),
                ("gb_churchill_iii", 6),
                ("gb_churchill_i", 2),
            ],
        );
        // 1944, Normandy: Shermans with a Firefly and a Cromwell CS in each squadron.
        let late = battalion(
            &c,
            &[
                ("gb_piat", 4),
                ("gb_3in_mortar", 6),
                ("gb_universal_carrier", 4),
                ("gb_6pdr_atg", 6),
                ("gb_25pdr", 8),
                ("gb_sherman_v", 4),
                ("gb_sherman_firefly", 2),
                ("gb_cromwell_vi_cs", 2),
            ],
        );
        for (year, cost) in [(1940, early), (1943, mid), (1944, late)] {
            let limit = Era::of_year(year).unwrap().battlegroup_limit();
            assert!(cost <= limit, "{year}: {cost} over {limit}");
            assert!(cost.halves() * 4 >= limit.halves() * 3, "{year}: {cost} uses less than 3/4 of {limit}");
        }
        assert!(early < mid, "a 1943 battalion costs more than a 1940 one");
    }
}
