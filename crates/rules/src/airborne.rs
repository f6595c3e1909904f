//! *Heroes All*, "Paratroops and Gliders": the jump as an Act, weapons
//! containers, firing on and observing paratroops and gliders in the air, the
//! 12-inch landing grid thrown on a D10 (its 0 face: blown off course), the
//! cohesion Leadership Test, and glider landings (damage, casualties, crew
//! served weapons lost, the landed glider as soft cover).

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::dice::Roll;
use crate::effects::ArmourClass;
use crate::event::{Book, EventKind, RuleEvent, RuleRef};
use crate::firing::{Cover, Weapon};
use crate::inches::Inches;
use crate::observation::{ObservationTest, TargetMovement};
use crate::officer::{LeadershipTest, Officer, leadership_test};
use crate::opc::Nation;
use crate::order_dice::Phase;

fn rule(section: &str) -> RuleRef {
    RuleRef::new(Book::HeroesAll, section)
}

/// What an element may still do on the bound it jumps, after the jump's Act.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AfterJump {
    /// Acts left of the 2 an Act phase allows.
    pub acts: u8,
    pub may_move: bool,
    pub may_fire: bool,
}

/// *Heroes All*, "Paratroops jumping": jumping "uses an Act"; on a Move order
/// "the ACT (of jumping) is undertaken first leaving just another act and a
/// fire phase"; on an Act order "they jump, act, move and fire".
///
/// Reading: the jump must come first, so the ordered phase is lost unless it
/// is the Act phase itself (the Order Die's phase must be "the first activity
/// undertaken", FYOB "Order Dice scores"); a Fire order leaves another act and
/// a move, as the Move order leaves another act and a fire. Either way "they
/// will not become fully effective until the bound after they jump"
/// (test `reading_the_jump_takes_the_ordered_phase_unless_it_is_act`).
pub const fn after_jump(order: Phase) -> AfterJump {
    match order {
        Phase::Fire => AfterJump { acts: 1, may_move: true, may_fire: false },
        Phase::Move => AfterJump { acts: 1, may_move: false, may_fire: true },
        Phase::Act => AfterJump { acts: 1, may_move: true, may_fire: true },
    }
}

/// *Heroes All*, "Paratroop weapons": "Early in the war, German paratroops
/// descended unarmed"; "After 1942 (and all other nations), they carry
/// personal weapons". Reading: German drops up to 1941 are unarmed, from 1942
/// armed (1942 itself falls in neither phrase; the drops of 1942 onwards were
/// made with personal weapons, so the earlier rule ends with 1941; test
/// `german_paratroops_are_unarmed_before_1942`).
pub fn armed_on_landing(nation: &Nation, year: u16) -> bool {
    !(*nation == Nation::German && year < 1942)
}

/// "Only infantry or machine guns may fire at paratroops - treat them as being
/// in the open": the infantry small-arms and machine-gun rows of the Weapons table.
pub const fn may_fire_on_paratroops(weapon: Weapon) -> bool {
    matches!(
        weapon,
        Weapon::Rifle
            | Weapon::Pistol
            | Weapon::Smg
            | Weapon::AutoRifle
            | Weapon::Lmg
            | Weapon::TankMg
            | Weapon::Mmg
            | Weapon::Hmg
    )
}

/// Paratroops in the air are fired on as in the open.
pub const PARATROOPS_COVER: Cover = Cover::Open;

/// The landing grid: "a 12 inch x 12 inch grid divided into nine 4 inch x 4 inch squares".
pub const GRID_SIDE: f32 = 12.0;
pub const SQUARE_SIDE: f32 = 4.0;

/// "Range is measured to the landing grid edge": the distance in inches from
/// a firer at `(x, y)` inches from the grid's centre (along its sides) to the
/// nearest point of the grid; 0 under it.
pub fn range_to_grid(x: f32, y: f32) -> f32 {
    let half = GRID_SIDE / 2.0;
    let dx = (x.abs() - half).max(0.0);
    let dy = (y.abs() - half).max(0.0);
    dx.hypot(dy)
}

/// The inches a segment of distance stands for (*Heroes All*, Observation:
/// each 10 inches or part of it).
const INCHES_PER_SEGMENT: f32 = 10.0;

/// "Paratroops and gliders in flight are observed as infantry or vehicles
/// respectively moving in the open, 2 segments further away than the ground
/// distance." The caller gives the test as on the ground (targets as figures
/// or as the vehicle class); this adds 2 segments of distance (20 inches)
/// and makes the target a moving one in the open.
///
/// Reading: "further away" is distance, so the 60-inch limit of observation
/// applies to the distance so lengthened (test
/// `in_flight_targets_are_two_segments_further_and_moving`).
pub fn in_flight<'a>(test: &ObservationTest<'a>) -> ObservationTest<'a> {
    let mut t = *test;
    t.between.distance += Inches(2.0 * INCHES_PER_SEGMENT);
    t.target.movement = TargetMovement::Moved;
    t.target.in_intact_building = false;
    t.target.concealed = false;
    t
}

/// Where a D10 puts an element on the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Landing {
    /// Squares 1..=9.
    Square(u8),
    /// "A '0' means that the element has been blown off course and will not
    /// take any further part in the game."
    BlownOffCourse,
}

impl Landing {
    /// The centre of the square in inches from the grid's centre, x along the
    /// grid to the right, y away from the player. Reading: the book numbers
    /// the squares 1 to 9 without a drawing; they are numbered in reading
    /// order, 1 at the far left and 9 at the near right (test `grid_squares_lie_in_reading_order`).
    pub fn offset(self) -> Option<(f32, f32)> {
        match self {
            Self::BlownOffCourse => None,
            Self::Square(n) => {
                let (row, col) = (f32::from((n - 1) / 3), f32::from((n - 1) % 3));
                Some(((col - 1.0) * SQUARE_SIDE, (1.0 - row) * SQUARE_SIDE))
            }
        }
    }
}

/// Throws the landing D10 for one platoon, gun, vehicle or weapons container;
/// the grid reads the die's printed face (0..=9).
pub fn land(dice: &mut impl Roll, id: &str, what: &str) -> (Landing, RuleEvent) {
    let face = dice.d10_face();
    let landing = if face == 0 { Landing::BlownOffCourse } else { Landing::Square(face) };
    let event = RuleEvent::new(EventKind::Landing, rule("Paratroops - Landing process"))
        .actor(id)
        .input("dropped", what, "a D10 for each platoon; guns and vehicles diced separately")
        .dice(10, &[if face == 0 { 10 } else { face }])
        .outcome(json!({ "landing": landing }));
    (landing, event)
}

/// A platoon's drop: where it lands and, when it jumped unarmed, where its
/// weapons container lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlatoonDrop {
    pub platoon: Landing,
    /// `None` for armed paratroops.
    pub container: Option<Landing>,
    /// Out of the game: blown off course, or unarmed with its container lost.
    pub removed: bool,
    /// Unarmed and on the table: it needs a Move order to reach its container
    /// before it can fire (collecting the weapons is automatic).
    pub must_collect_weapons: bool,
}

/// Drops one platoon (its officers attached): a D10 for the platoon, and for
/// an unarmed platoon a D10 for its weapons container.
///
/// Reading of "Weapons containers can be lost. Unarmed elements are removed
/// from the game": a container is diced on the grid like the guns and
/// vehicles "diced for separately"; a 0 loses it, and the unarmed platoon
/// whose weapons are lost is removed (test `reading_a_lost_container_removes_its_unarmed_platoon`).
pub fn drop_platoon(armed: bool, dice: &mut impl Roll, id: &str) -> (PlatoonDrop, Vec<RuleEvent>) {
    let (platoon, e) = land(dice, id, "platoon");
    let mut events = vec![e];
    let container = (!armed).then(|| {
        let (c, e) = land(dice, id, "weapons container");
        events.push(e);
        c
    });
    let lost = platoon == Landing::BlownOffCourse || container == Some(Landing::BlownOffCourse);
    let drop = PlatoonDrop { platoon, container, removed: lost, must_collect_weapons: !armed && !lost };
    (drop, events)
}

/// "A Leadership Test is taken on landing to establish cohesion for the
/// platoon. The platoon cannot function until this test is passed." Reading:
/// a platoon that fails takes the test again on each later bound until it
/// passes (test `cohesion_is_the_nco_leadership_test`).
pub fn cohesion_test(nco: Officer, dice: &mut impl Roll, id: &str) -> (LeadershipTest, RuleEvent) {
    let (test, mut event) = leadership_test(nco, dice, id);
    event.rule = rule("Paratroops - Landing process");
    event.inputs.insert(
        0,
        crate::event::Input {
            name: "purpose".into(),
            value: json!("cohesion on landing"),
            reason: "the platoon cannot function until this test is passed".into(),
        },
    );
    (test, event)
}

/// A landed glider is a soft-skinned vehicle ("treated as soft-skinned vehicles once landed").
pub const LANDED_GLIDER_ARMOUR: ArmourClass = ArmourClass::SoftSkinned;

/// "Troops who stay inside their glider may claim soft cover if fired upon."
pub const GLIDER_COVER: Cover = Cover::Soft;

/// What a glider's landing did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GliderLanding {
    pub damaged: bool,
    /// Casualties among those aboard.
    pub casualties: u8,
    /// Every crew served weapon aboard destroyed.
    pub csws_destroyed: bool,
}

/// *Heroes All*, "Gliders - Landing process": "throw 1 x D6. A score of 1
/// indicates damage. Throw a further D6 if damage occurs - the score shows the
/// number of casualties sustained. A final throw is made for any CSW's on
/// board. A 6 destroys any crew served weapons."
///
/// Reading: the CSW throw is the last step of the damage sequence, so it is
/// made only when the glider is damaged and there are CSWs aboard, and one
/// throw covers all of them ("destroys any crew served weapons"); casualties
/// are capped at the men aboard (test `reading_glider_landing_damage_sequence`).
pub fn glider_landing(aboard: u8, csws: u8, dice: &mut impl Roll, id: &str) -> (GliderLanding, RuleEvent) {
    let first = dice.d6();
    let damaged = first == 1;
    let mut faces = vec![first];
    let mut casualties = 0;
    let mut csws_destroyed = false;
    if damaged {
        let c = dice.d6();
        faces.push(c);
        casualties = c.min(aboard);
        if csws > 0 {
            let w = dice.d6();
            faces.push(w);
            csws_destroyed = w == 6;
        }
    }
    let out = GliderLanding { damaged, casualties, csws_destroyed };
    let event = RuleEvent::new(EventKind::Landing, rule("Gliders - Landing process"))
        .actor(id)
        .input("aboard", aboard, "figures carried")
        .input("csws", csws, "crew served weapons aboard")
        .dice(6, &faces)
        .outcome(out);
    (out, event)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Scripted};
    use crate::observation::{Between, ObserverClass, ObserverState, TargetClass, TargetState, assess};
    use crate::officer::{Grade, Rank};

    #[test]
    fn reading_the_jump_takes_the_ordered_phase_unless_it_is_act() {
        // Book: a Move order leaves "just another act and a fire phase".
        assert_eq!(after_jump(Phase::Move), AfterJump { acts: 1, may_move: false, may_fire: true });
        // Book: "optimum ... a 3 (Act) so that they jump, act, move and fire".
        assert_eq!(after_jump(Phase::Act), AfterJump { acts: 1, may_move: true, may_fire: true });
        assert_eq!(after_jump(Phase::Fire), AfterJump { acts: 1, may_move: true, may_fire: false });
    }

    #[test]
    fn german_paratroops_are_unarmed_before_1942() {
        assert!(!armed_on_landing(&Nation::German, 1940));
        assert!(!armed_on_landing(&Nation::German, 1941));
        assert!(armed_on_landing(&Nation::German, 1942));
        assert!(armed_on_landing(&Nation::British, 1941), "all other nations carry personal weapons");
    }

    #[test]
    fn only_infantry_arms_and_machine_guns_fire_on_paratroops() {
        assert!(may_fire_on_paratroops(Weapon::Rifle));
        assert!(may_fire_on_paratroops(Weapon::Mmg));
        assert!(!may_fire_on_paratroops(Weapon::LightMortar));
        assert!(!may_fire_on_paratroops(Weapon::AtGunClass2));
        assert!(!may_fire_on_paratroops(Weapon::Piat));
        assert_eq!(PARATROOPS_COVER, Cover::Open);
    }

    #[test]
    fn range_is_measured_to_the_grid_edge() {
        assert_eq!(range_to_grid(0.0, 20.0), 14.0);
        assert_eq!(range_to_grid(-26.0, 0.0), 20.0);
        assert_eq!(range_to_grid(9.0, 10.0), 5.0, "3-4-5 from the corner");
        assert_eq!(range_to_grid(2.0, -5.0), 0.0, "under the grid");
    }

    #[test]
    fn grid_squares_lie_in_reading_order() {
        assert_eq!(Landing::Square(1).offset(), Some((-4.0, 4.0)));
        assert_eq!(Landing::Square(5).offset(), Some((0.0, 0.0)));
        assert_eq!(Landing::Square(9).offset(), Some((4.0, -4.0)));
        assert_eq!(Landing::BlownOffCourse.offset(), None);
        for n in 1..=9 {
            let (x, y) = Landing::Square(n).offset().unwrap();
            assert!(x.abs() + SQUARE_SIDE / 2.0 <= GRID_SIDE / 2.0 && y.abs() + SQUARE_SIDE / 2.0 <= GRID_SIDE / 2.0);
        }
    }

    #[test]
    fn the_grid_reads_the_d10_face_and_zero_is_blown_off_course() {
        // Scripted 10 is the face marked 0.
        let mut dice = Scripted::new([7, 10]);
        assert_eq!(land(&mut dice, "1 Pl", "platoon").0, Landing::Square(7));
        let (l, e) = land(&mut dice, "2 Pl", "platoon");
        assert_eq!(l, Landing::BlownOffCourse);
        assert_eq!(e.rule.section, "Paratroops - Landing process");
        let mut seeded = Dice::new(3);
        let mut lost = 0;
        for _ in 0..1000 {
            lost += u32::from(land(&mut seeded, "x", "platoon").0 == Landing::BlownOffCourse);
        }
        assert!((60..=140).contains(&lost), "about one in ten blown off course: {lost}");
    }

    #[test]
    fn reading_a_lost_container_removes_its_unarmed_platoon() {
        let (d, events) = drop_platoon(false, &mut Scripted::new([4, 10]), "FJ 1");
        assert_eq!(d.platoon, Landing::Square(4));
        assert_eq!(d.container, Some(Landing::BlownOffCourse));
        assert!(d.removed && !d.must_collect_weapons);
        assert_eq!(events.len(), 2);
        let (d, _) = drop_platoon(false, &mut Scripted::new([4, 6]), "FJ 2");
        assert!(!d.removed && d.must_collect_weapons);
        let (d, events) = drop_platoon(true, &mut Scripted::new([10]), "Para 1");
        assert!(d.removed && d.container.is_none());
        assert_eq!(events.len(), 1, "armed paratroops have no container");
    }

    #[test]
    fn cohesion_is_the_nco_leadership_test() {
        let nco = Officer::new(Rank::Nco, Grade::Regular).unwrap();
        // Regular (2): less than 5 passes.
        let (t, e) = cohesion_test(nco, &mut Scripted::new([4]), "1 Pl");
        assert!(t.passed);
        assert_eq!(e.rule.section, "Paratroops - Landing process");
        assert!(!cohesion_test(nco, &mut Scripted::new([5]), "1 Pl").0.passed);
    }

    #[test]
    fn in_flight_targets_are_two_segments_further_and_moving() {
        let observers = [(ObserverClass::Figure, 5)];
        let targets = [(TargetClass::Figure, 8)];
        let test = ObservationTest {
            observers: &observers,
            targets: &targets,
            between: Between { distance: Inches(21.0), ..Default::default() },
            observer: ObserverState::default(),
            target: TargetState::default(),
            night: false,
        };
        let ground = assess(&test).unwrap();
        let air = assess(&in_flight(&test)).unwrap();
        // 21 inches is 3 segments; in the air 5, less 1 for moving.
        assert_eq!(air.segments.total() - ground.segments.total(), 2 - 1);
        assert_eq!(in_flight(&test).target.movement, TargetMovement::Moved);
    }

    #[test]
    fn reading_glider_landing_damage_sequence() {
        // A safe landing throws one die.
        let mut dice = Scripted::new([3]);
        assert_eq!(
            glider_landing(8, 1, &mut dice, "Horsa").0,
            GliderLanding { damaged: false, casualties: 0, csws_destroyed: false }
        );
        assert_eq!(dice.remaining(), 0);
        // Damage: 4 casualties, then a 6 for the CSWs.
        let (g, e) = glider_landing(8, 1, &mut Scripted::new([1, 4, 6]), "Horsa");
        assert_eq!(g, GliderLanding { damaged: true, casualties: 4, csws_destroyed: true });
        assert_eq!(e.dice.len(), 3);
        // No CSW aboard: no final throw; casualties capped at those aboard.
        let mut dice = Scripted::new([1, 6]);
        assert_eq!(glider_landing(3, 0, &mut dice, "DFS").0.casualties, 3);
        assert_eq!(dice.remaining(), 0);
        assert_eq!(LANDED_GLIDER_ARMOUR, ArmourClass::SoftSkinned);
        assert_eq!(GLIDER_COVER, Cover::Soft);
    }
}
