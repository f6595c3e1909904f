//! Aircraft firing at ground targets (FYOW 28.9), anti-aircraft fire (28.10)
//! and air-to-air combat (28.11).

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::aircraft::AircraftType;
use warbound_rules::dice::Roll;
use warbound_rules::effects::{self, ArmourClass, AtResult, Facing, VehicleState};
use warbound_rules::event::{EventKind, RuleEvent};

use crate::air::{AirError, Conditions, Sky, Speed, rule};
use crate::map::common::Light;

/// The D6 a machine needs to spot: weather at its worst first, as 28.9 and
/// 28.11 list them (the sky and night of the session).
fn spot_need(conditions: Conditions, good: u8, fair: u8, bad: u8) -> Result<u8, AirError> {
    match (conditions.sky, conditions.light) {
        (Sky::Snow | Sky::Fog, _) => Err(AirError::NoFlying),
        (Sky::HeavyRain, _) | (_, Light::NightNoMoon) => Ok(bad),
        (Sky::LightRain, _) | (_, Light::NightMoon) => Ok(fair),
        (Sky::Fine, Light::Daylight) => Ok(good),
    }
}

/// 28.9: "3+ to spot successfully, 5+ in light rain or moonlight, 6 in heavy
/// rain or no moonlight. A score of 2+ is required if the attack is called in
/// by an Air Observation Officer."
///
/// Reading (FYOW 28.9): an Air Observation Officer's 2+ replaces the weather's
/// score, as written; it is not added to it (test `ground_spotting_scores`).
pub fn ground_spot_need(conditions: Conditions, called_in: bool) -> Result<u8, AirError> {
    let need = spot_need(conditions, 3, 5, 6)?;
    Ok(if called_in { 2 } else { need })
}

/// 28.11: "2+ on a D6 to spot enemy squadrons, 3+ in light rain or
/// moonlight or 5+ in heavy rain or with no moonlight."
pub fn air_spot_need(conditions: Conditions) -> Result<u8, AirError> {
    spot_need(conditions, 2, 3, 5)
}

/// What a squadron is trying to spot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpotTarget {
    /// A ground target (28.9).
    Ground,
    /// An enemy squadron (28.11).
    Air,
}

/// A squadron's spotting: "1D6 per aircraft" (28.9) or "1D6 per machine in
/// squadron" (the QRG for 28.11). Returns which machines spotted.
///
/// Reading (FYOW 28.9, 28.11): each machine that spots may attack; those that
/// fail do not attack this activation (test `each_machine_spots_for_itself`).
pub fn spot(machines: usize, need: u8, what: SpotTarget, dice: &mut impl Roll, id: &str) -> (Vec<bool>, RuleEvent) {
    let faces = dice.throw(machines, 6);
    let spotted: Vec<bool> = faces.iter().map(|&f| f >= need).collect();
    let section = match what {
        SpotTarget::Ground => "28.9 Aircraft firing",
        SpotTarget::Air => "28.11 Air-to-air combat",
    };
    let event = RuleEvent::new(EventKind::AirOperation, rule(section))
        .actor(id)
        .input("spotting", what, "a D6 per machine")
        .input("need", need, "by the weather and night of the session")
        .dice(6, &faces)
        .outcome(json!({ "spotted": spotted }));
    (spotted, event)
}

/// A machine gun of an aircraft.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mg {
    Mmg,
    Hmg,
}

/// "Throw 1D6 per MMG or HMG firing. 3+ is a hit."
pub const GROUND_MG_HIT: u8 = 3;

/// Machine-gun fire at a ground target (28.9): a D6 per gun, 3+ hits, then a
/// D6 per hit for effect, "assess as effective range. Ignore any cover and
/// movement modifiers" (the effect faces are read on the *Heroes All*
/// MMG/HMG effect rules by the tabletop). Returns hits and effect faces.
pub fn mg_ground_attack(guns: &[Mg], dice: &mut impl Roll, id: &str) -> Result<(u8, Vec<u8>, RuleEvent), AirError> {
    if guns.is_empty() {
        return Err(AirError::NoWeapons);
    }
    let faces = dice.throw(guns.len(), 6);
    let hits = faces.iter().filter(|&&f| f >= GROUND_MG_HIT).count();
    let effect = dice.throw(hits, 6);
    let event = RuleEvent::new(EventKind::AirOperation, rule("28.9 Aircraft firing, Machine gun/AT fire"))
        .actor(id)
        .input("guns", guns, "1D6 per MMG or HMG")
        .input("need", GROUND_MG_HIT, "3+ hits")
        .dice(6, &faces)
        .dice(6, &effect)
        .outcome(json!({ "hits": hits, "effect_faces": effect, "range": "effective", "cover_ignored": true }));
    Ok((u8::try_from(hits).unwrap_or(u8::MAX), effect, event))
}

/// A weapon firing at an armoured target from the air (28.9 "AT/Rocket fire").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmourWeapon {
    Hmg,
    AtGun,
    Rocket,
}

impl ArmourWeapon {
    /// The AT weapons a machine of `kind` fires at armour: its AT cannon,
    /// then its rockets ("Rockets throw 1D6 each", *Heroes All*).
    pub fn carried(kind: &AircraftType) -> Vec<Self> {
        let cannon = std::iter::repeat_n(Self::AtGun, usize::from(kind.at_cannon));
        cannon.chain(std::iter::repeat_n(Self::Rocket, usize::from(kind.rockets))).collect()
    }

    /// "Use the Attack Value of a HMG as +1 and of AT/rocket as +8."
    pub const fn attack_value(self) -> i8 {
        match self {
            Self::Hmg => 1,
            Self::AtGun | Self::Rocket => 8,
        }
    }
}

/// "5+ required to hit."
pub const ARMOUR_HIT: u8 = 5;

/// One armoured vehicle as the campaign map keeps it: its armour class and
/// whether it is open-topped, from its CODEX entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct VehicleArmour {
    pub armour: ArmourClass,
    pub open_topped: bool,
}

impl VehicleArmour {
    /// The vehicle as a target in `state`.
    pub const fn target(self, state: VehicleState) -> ArmouredTarget {
        ArmouredTarget { armour: self.armour, open_topped: self.open_topped, state }
    }
}

/// An armoured target on the ground.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmouredTarget {
    pub armour: ArmourClass,
    pub open_topped: bool,
    pub state: VehicleState,
}

/// AT guns and rockets (and HMGs) at an armoured target (28.9): a D6 each,
/// 5+ hits; each hit a D10 plus the Attack Value against the **Top** Defence
/// Value (*Heroes All*: the top's Defence Value is the side's); "Any hit on
/// open topped armour destroys it."
///
/// Reading (FYOW 28.9): an HMG firing at armour uses this procedure (5+ to
/// hit, Attack Value +1); against men and soft targets it uses the
/// machine-gun procedure (test `at_and_rockets_at_armour`).
pub fn armour_attack(
    weapons: &[ArmourWeapon],
    target: ArmouredTarget,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(VehicleState, Vec<RuleEvent>), AirError> {
    if weapons.is_empty() {
        return Err(AirError::NoWeapons);
    }
    let faces = dice.throw(weapons.len(), 6);
    let hitting: Vec<ArmourWeapon> =
        weapons.iter().zip(&faces).filter(|&(_, &f)| f >= ARMOUR_HIT).map(|(&w, _)| w).collect();
    let mut events = vec![
        RuleEvent::new(EventKind::AirOperation, rule("28.9 Aircraft firing, AT/Rocket fire"))
            .actor(id)
            .input("weapons", weapons, "1D6 each")
            .input("need", ARMOUR_HIT, "5+ to hit")
            .input("open_topped", target.open_topped, "any hit destroys open-topped armour")
            .dice(6, &faces)
            .outcome(json!({ "hits": hitting })),
    ];
    let mut state = target.state;
    for w in hitting {
        // A brewed vehicle is out: the hits left on it throw no effect.
        if state == VehicleState::Brewed {
            break;
        }
        if target.open_topped {
            state = state.after(AtResult::Brewed);
            continue;
        }
        let (after, _, e) = effects::at_hit(w.attack_value(), target.armour, Facing::Side, state, dice);
        state = after;
        events.push(e.actor(id).input("top", "side", "Top Defence Value: the side's (Heroes All)"));
    }
    Ok((state, events))
}

// ------------------------------------------------------------------ AA fire

/// An AA gun of an AA battlegroup (28.10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AaGun {
    pub barrels: u8,
    /// 40mm or over: 3D6 a barrel, 2D6 for damage a hit.
    pub calibre_40_plus: bool,
}

/// The D6 of AA or air-to-air damage: "1 point of damage is inflicted for 4+
/// (5+ for Fast or Fast/Agile aircraft and 3+ for Slow aircraft)".
pub const fn aa_damage_need(speed: Speed) -> u8 {
    match speed {
        Speed::FastAgile | Speed::Fast => 5,
        Speed::Other => 4,
        Speed::Slow => 3,
    }
}

/// Hits in one barrel's throw: "A double scores a hit. If a 'triple' is scored with 3D6, this counts as 2 hits."
pub fn aa_hits(faces: &[u8]) -> u8 {
    let most = (1..=6u8).map(|f| faces.iter().filter(|&&x| x == f).count()).max().unwrap_or(0);
    match most {
        0 | 1 => 0,
        2 => 1,
        _ => 2,
    }
}

/// One AA gun's fire at a squadron (28.10): 2D6 a barrel (3D6 if 40mm or
/// over), doubles hit and a triple hits twice; each hit 1D6 (2D6 for 40mm
/// or over), each die scoring the target's need a point of damage. No fire
/// while friendly aircraft are over the Map Board. Returns damage points.
///
/// Reading (FYOW 28.10): "guns over 40mm" in the damage throw are the same
/// guns as "40mm or over" in the hit throw (the QRG writes "40mm+" for both),
/// and each die of a 2D6 damage throw counts on its own, so such a hit can
/// do 2 points (test `aa_gun_of_40mm_throws_more`).
pub fn aa_fire(
    gun: AaGun,
    target: Speed,
    friendly_overhead: bool,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(u8, RuleEvent), AirError> {
    if friendly_overhead {
        return Err(AirError::FriendlyAircraftOverhead);
    }
    if gun.barrels == 0 {
        return Err(AirError::NoWeapons);
    }
    let per_barrel = if gun.calibre_40_plus { 3 } else { 2 };
    let mut faces = Vec::new();
    let mut hits = 0u8;
    for _ in 0..gun.barrels {
        let throw = dice.throw(per_barrel, 6);
        hits = hits.saturating_add(aa_hits(&throw));
        faces.extend(throw);
    }
    let need = aa_damage_need(target);
    let damage_dice = if gun.calibre_40_plus { 2 } else { 1 };
    let damage_faces = dice.throw(usize::from(hits) * damage_dice, 6);
    let damage = damage_faces.iter().filter(|&&f| f >= need).count() as u8;
    let event = RuleEvent::new(EventKind::AirOperation, rule("28.10 Anti-Aircraft fire"))
        .actor(id)
        .input("barrels", gun.barrels, "")
        .input("dice_per_barrel", per_barrel, "2D6, 3D6 if 40mm or over")
        .input("damage_dice", damage_dice, "a hit: 1D6, 2D6 if 40mm or over")
        .input("damage_need", need, "4+; 5+ Fast or Fast/Agile; 3+ Slow")
        .dice(6, &faces)
        .dice(6, &damage_faces)
        .outcome(json!({ "hits": hits, "damage": damage }));
    Ok((damage, event))
}

// -------------------------------------------------------------- air to air

/// A score on the air-to-air table: a D6, or "6 then" a second D6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HitNeed {
    Score(u8),
    /// "6 then 5+", "6 then 6".
    SixThen(u8),
    /// Past "6 then 6": no hit possible.
    Impossible,
}

/// FYOW 28.11 hit table as a ladder: 2..=6 a D6; 7 is "6 then 5+", 8 "6 then
/// 6". Rows the target, columns the attacker: Fast/Agile, Fast, All other, Slow.
pub const AIR_TO_AIR: [[u8; 4]; 4] = [
    [5, 6, 7, 8], // Fast/agile target
    [4, 5, 6, 7], // Fast target
    [3, 4, 5, 6], // All other targets
    [2, 3, 4, 5], // Slow target
];

const fn speed_index(speed: Speed) -> usize {
    match speed {
        Speed::FastAgile => 0,
        Speed::Fast => 1,
        Speed::Other => 2,
        Speed::Slow => 3,
    }
}

/// The score a machine gun needs, "increased by 1 if the firing aircraft is damaged".
///
/// Reading (FYOW 28.11): the table's own ladder runs 5+, 6, "6 then 5+",
/// "6 then 6", so 6 increased by 1 is "6 then 5+", "6 then 5+" increased is
/// "6 then 6", and "6 then 6" increased cannot hit (test `air_to_air_table_as_printed`).
pub fn air_to_air_need(attacker: Speed, target: Speed, attacker_damaged: bool) -> HitNeed {
    match AIR_TO_AIR[speed_index(target)][speed_index(attacker)] + u8::from(attacker_damaged) {
        n @ 2..=6 => HitNeed::Score(n),
        7 => HitNeed::SixThen(5),
        8 => HitNeed::SixThen(6),
        _ => HitNeed::Impossible,
    }
}

/// "For every hit, throw a D6 and score 4+ (MMG) or 3+ (HMG) to register damage."
pub const fn air_damage_need(gun: Mg) -> u8 {
    match gun {
        Mg::Mmg => 4,
        Mg::Hmg => 3,
    }
}

/// One attacking machine's fire at a squadron (28.11): a D6 per MG on the
/// hit table, then a D6 per hit for damage. Returns the damages, to be shared out.
pub fn air_to_air_fire(
    guns: &[Mg],
    attacker: Speed,
    attacker_damaged: bool,
    target: Speed,
    dice: &mut impl Roll,
    id: &str,
) -> Result<(u8, RuleEvent), AirError> {
    if guns.is_empty() {
        return Err(AirError::NoWeapons);
    }
    let need = air_to_air_need(attacker, target, attacker_damaged);
    let mut faces = Vec::new();
    let mut hits = Vec::new();
    for &gun in guns {
        let hit = match need {
            HitNeed::Impossible => false,
            HitNeed::Score(n) => {
                let f = dice.d6();
                faces.push(f);
                f >= n
            }
            HitNeed::SixThen(n) => {
                let f = dice.d6();
                faces.push(f);
                f == 6 && {
                    let g = dice.d6();
                    faces.push(g);
                    g >= n
                }
            }
        };
        if hit {
            hits.push(gun);
        }
    }
    let damage_faces = dice.throw(hits.len(), 6);
    let damages = hits.iter().zip(&damage_faces).filter(|&(&g, &f)| f >= air_damage_need(g)).count() as u8;
    let event = RuleEvent::new(EventKind::AirOperation, rule("28.11 Air-to-air combat"))
        .actor(id)
        .input("guns", guns, "1D6 per MG")
        .input("need", need, "attacker and target speed; +1 if the firer is damaged")
        .dice(6, &faces)
        .dice(6, &damage_faces)
        .outcome(json!({ "hits": hits.len(), "damages": damages }));
    Ok((damages, event))
}

/// An even share of damages over a squadron's machines (the first take any surplus).
pub fn even_share(damages: u8, machines: usize) -> Vec<u8> {
    if machines == 0 {
        return Vec::new();
    }
    let n = u32::try_from(machines).unwrap_or(u32::MAX);
    (0..n).map(|i| (u32::from(damages) / n + u32::from(i < u32::from(damages) % n)) as u8).collect()
}

/// Checks the player's share of damages over a squadron (28.11): "shared out
/// across the targeted squadron as equally as possible ... but aircraft
/// already damaged can be targeted with extra or single hits as the player sees fit."
///
/// Reading (FYOW 28.11): a machine may take more than one damage beyond
/// another only if it was already damaged (test `damage_is_shared_out_evenly`).
pub fn check_share(share: &[u8], damages: u8, already_damaged: &[bool]) -> Result<(), AirError> {
    let bad = || AirError::BadShare(share.to_vec());
    if share.len() != already_damaged.len() || share.iter().map(|&d| u32::from(d)).sum::<u32>() != u32::from(damages) {
        return Err(bad());
    }
    let least = share.iter().copied().min().unwrap_or(0);
    if share.iter().zip(already_damaged).any(|(&d, &was)| u16::from(d) > u16::from(least) + 1 && !was) {
        return Err(bad());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::air::Wind;
    use warbound_rules::dice::Scripted;

    fn c(sky: Sky, light: Light) -> Conditions {
        Conditions { sky, wind: Wind::Calm, light }
    }

    #[test]
    fn ground_spotting_scores() {
        assert_eq!(ground_spot_need(Conditions::FINE_DAY, false), Ok(3));
        assert_eq!(ground_spot_need(c(Sky::LightRain, Light::Daylight), false), Ok(5));
        assert_eq!(ground_spot_need(c(Sky::Fine, Light::NightMoon), false), Ok(5));
        assert_eq!(ground_spot_need(c(Sky::HeavyRain, Light::Daylight), false), Ok(6));
        assert_eq!(ground_spot_need(c(Sky::LightRain, Light::NightNoMoon), false), Ok(6));
        assert_eq!(ground_spot_need(c(Sky::HeavyRain, Light::Daylight), true), Ok(2));
        assert_eq!(ground_spot_need(c(Sky::Fog, Light::Daylight), true), Err(AirError::NoFlying));
    }

    #[test]
    fn air_spotting_scores() {
        assert_eq!(air_spot_need(Conditions::FINE_DAY), Ok(2));
        assert_eq!(air_spot_need(c(Sky::LightRain, Light::Daylight)), Ok(3));
        assert_eq!(air_spot_need(c(Sky::Fine, Light::NightMoon)), Ok(3));
        assert_eq!(air_spot_need(c(Sky::HeavyRain, Light::Daylight)), Ok(5));
        assert_eq!(air_spot_need(c(Sky::Fine, Light::NightNoMoon)), Ok(5));
        assert_eq!(air_spot_need(c(Sky::Snow, Light::Daylight)), Err(AirError::NoFlying));
    }

    #[test]
    fn each_machine_spots_for_itself() {
        let (spotted, e) = spot(3, 3, SpotTarget::Ground, &mut Scripted::new([2, 3, 6]), "Typhoons");
        assert_eq!(spotted, [false, true, true]);
        assert_eq!(e.rule.section, "28.9 Aircraft firing");
        let (_, e) = spot(1, 2, SpotTarget::Air, &mut Scripted::new([1]), "Spitfires");
        assert_eq!(e.rule.section, "28.11 Air-to-air combat");
    }

    #[test]
    fn machine_guns_at_ground_targets() {
        let (hits, effect, e) =
            mg_ground_attack(&[Mg::Mmg, Mg::Mmg, Mg::Hmg, Mg::Hmg], &mut Scripted::new([2, 3, 1, 6, 4, 1]), "P-47")
                .unwrap();
        assert_eq!((hits, effect), (2, vec![4, 1]));
        assert_eq!(e.dice.len(), 6);
        assert_eq!(mg_ground_attack(&[], &mut Scripted::new([]), "P-47").unwrap_err(), AirError::NoWeapons);
    }

    #[test]
    fn at_and_rockets_at_armour() {
        assert_eq!(ArmourWeapon::Hmg.attack_value(), 1);
        assert_eq!(ArmourWeapon::Rocket.attack_value(), 8);
        // Medium tank: top (side) brews on 13, damages on 11. Rocket hits on 5, D10 5 + 8 = 13 brews.
        let tank = ArmouredTarget { armour: ArmourClass::Medium, open_topped: false, state: VehicleState::Intact };
        let (state, events) = armour_attack(
            &[ArmourWeapon::Rocket, ArmourWeapon::Rocket],
            tank,
            &mut Scripted::new([5, 4, 5]),
            "Typhoon",
        )
        .unwrap();
        assert_eq!(state, VehicleState::Brewed);
        assert_eq!(events.len(), 2);
        // Three rockets hit; the first brews the tank and the others throw no D10.
        let rockets = [ArmourWeapon::Rocket; 3];
        let (state, events) = armour_attack(&rockets, tank, &mut Scripted::new([6, 5, 5, 7, 1]), "P-47").unwrap();
        assert_eq!((state, events.len()), (VehicleState::Brewed, 2), "one throw at the hits, one effect");
        // D10 3 + 8 = 11 damages only.
        let (state, _) = armour_attack(&[ArmourWeapon::AtGun], tank, &mut Scripted::new([6, 3]), "Hs 129").unwrap();
        assert_eq!(state, VehicleState::Damaged);
        // An HMG hit (+1) does nothing to a medium tank's top.
        let (state, _) = armour_attack(&[ArmourWeapon::Hmg], tank, &mut Scripted::new([6, 9]), "P-47").unwrap();
        assert_eq!(state, VehicleState::Intact);
        // Any hit on open-topped armour destroys it, with no D10.
        let open = ArmouredTarget { open_topped: true, ..tank };
        let (state, events) = armour_attack(&[ArmourWeapon::Hmg], open, &mut Scripted::new([5]), "P-47").unwrap();
        assert_eq!((state, events.len()), (VehicleState::Brewed, 1));
        let (state, _) = armour_attack(&[ArmourWeapon::Rocket], open, &mut Scripted::new([4]), "P-47").unwrap();
        assert_eq!(state, VehicleState::Intact, "4 misses");
        assert_eq!(armour_attack(&[], tank, &mut Scripted::new([]), "x").unwrap_err(), AirError::NoWeapons);
    }

    #[test]
    fn aa_doubles_and_triples() {
        assert_eq!(aa_hits(&[3, 3]), 1);
        assert_eq!(aa_hits(&[3, 4]), 0);
        assert_eq!(aa_hits(&[2, 2, 5]), 1);
        assert_eq!(aa_hits(&[6, 6, 6]), 2);
        assert_eq!(aa_hits(&[]), 0);
    }

    #[test]
    fn aa_gun_under_40mm() {
        // Twin 20mm at a normal aircraft: barrels 4,4 (hit) and 1,2; damage D6 4 scores.
        let gun = AaGun { barrels: 2, calibre_40_plus: false };
        let (damage, e) = aa_fire(gun, Speed::Other, false, &mut Scripted::new([4, 4, 1, 2, 4]), "Flak").unwrap();
        assert_eq!(damage, 1);
        assert_eq!(e.outcome["hits"], 1);
        // The same 4 does nothing to a fast aircraft, but a 3 damages a slow one.
        let (damage, _) = aa_fire(gun, Speed::Fast, false, &mut Scripted::new([4, 4, 1, 2, 4]), "Flak").unwrap();
        assert_eq!(damage, 0);
        let (damage, _) = aa_fire(gun, Speed::Slow, false, &mut Scripted::new([4, 4, 1, 2, 3]), "Flak").unwrap();
        assert_eq!(damage, 1);
        assert_eq!(
            aa_fire(gun, Speed::Slow, true, &mut Scripted::new([]), "Flak").unwrap_err(),
            AirError::FriendlyAircraftOverhead
        );
        assert_eq!(
            aa_fire(AaGun { barrels: 0, calibre_40_plus: false }, Speed::Slow, false, &mut Scripted::new([]), "Flak")
                .unwrap_err(),
            AirError::NoWeapons
        );
    }

    #[test]
    fn aa_gun_of_40mm_throws_more() {
        // Bofors: 3D6, a triple is 2 hits, each hit 2D6 for damage, each die on its own.
        let gun = AaGun { barrels: 1, calibre_40_plus: true };
        let (damage, e) =
            aa_fire(gun, Speed::Other, false, &mut Scripted::new([5, 5, 5, 4, 6, 1, 2]), "Bofors").unwrap();
        assert_eq!(e.outcome["hits"], 2);
        assert_eq!(e.dice.len(), 7);
        assert_eq!(damage, 2);
    }

    #[test]
    fn air_to_air_table_as_printed() {
        use HitNeed::{Impossible, Score, SixThen};
        use Speed::{Fast, FastAgile, Other, Slow};
        let row = |target| [FastAgile, Fast, Other, Slow].map(|a| air_to_air_need(a, target, false));
        assert_eq!(row(FastAgile), [Score(5), Score(6), SixThen(5), SixThen(6)]);
        assert_eq!(row(Fast), [Score(4), Score(5), Score(6), SixThen(5)]);
        assert_eq!(row(Other), [Score(3), Score(4), Score(5), Score(6)]);
        assert_eq!(row(Slow), [Score(2), Score(3), Score(4), Score(5)]);
        assert_eq!(air_to_air_need(Other, Other, true), Score(6));
        assert_eq!(air_to_air_need(Slow, Other, true), SixThen(5));
        assert_eq!(air_to_air_need(Other, FastAgile, true), SixThen(6));
        assert_eq!(air_to_air_need(Slow, FastAgile, true), Impossible);
    }

    #[test]
    fn air_to_air_fire_and_damage() {
        // Fast attacker at a normal target needs 4+: MMG 4 hits, HMG 3 misses; damage MMG 4+.
        let (d, e) = air_to_air_fire(
            &[Mg::Mmg, Mg::Hmg],
            Speed::Fast,
            false,
            Speed::Other,
            &mut Scripted::new([4, 3, 4]),
            "Me 109",
        )
        .unwrap();
        assert_eq!((d, e.outcome["hits"].as_u64()), (1, Some(1)));
        // HMG damage needs 3+.
        let (d, _) =
            air_to_air_fire(&[Mg::Hmg], Speed::Fast, false, Speed::Other, &mut Scripted::new([6, 3]), "x").unwrap();
        assert_eq!(d, 1);
        let (d, _) =
            air_to_air_fire(&[Mg::Mmg], Speed::Fast, false, Speed::Other, &mut Scripted::new([6, 3]), "x").unwrap();
        assert_eq!(d, 0);
        // "6 then 5+": a 6 then a 5 hits, a 5 alone throws no second die.
        let (d, e) = air_to_air_fire(
            &[Mg::Hmg, Mg::Hmg],
            Speed::Other,
            false,
            Speed::FastAgile,
            &mut Scripted::new([6, 5, 5, 3]),
            "x",
        )
        .unwrap();
        assert_eq!((d, e.dice.len()), (1, 4));
        // Impossible: no dice thrown at all.
        let (d, e) =
            air_to_air_fire(&[Mg::Hmg], Speed::Slow, true, Speed::FastAgile, &mut Scripted::new([]), "x").unwrap();
        assert_eq!((d, e.dice.len()), (0, 0));
        assert!(air_to_air_fire(&[], Speed::Slow, true, Speed::Slow, &mut Scripted::new([]), "x").is_err());
    }

    #[test]
    fn damage_is_shared_out_evenly() {
        assert_eq!(even_share(4, 3), [2, 1, 1]);
        assert_eq!(even_share(2, 3), [1, 1, 0]);
        assert!(even_share(2, 0).is_empty());
        assert!(check_share(&[2, 1, 1], 4, &[false; 3]).is_ok());
        assert!(check_share(&[0, 1, 0], 1, &[false; 3]).is_ok(), "a single hit anywhere");
        assert_eq!(check_share(&[3, 1, 0], 4, &[false; 3]).unwrap_err(), AirError::BadShare(vec![3, 1, 0]));
        assert!(check_share(&[3, 1, 0], 4, &[true, false, false]).is_ok(), "extra on a damaged machine");
        assert!(check_share(&[2, 1, 1], 5, &[false; 3]).is_err(), "must add up");
        assert!(check_share(&[2, 2], 4, &[false; 3]).is_err(), "one share a machine");
        assert!(check_share(&[255, 0], 255, &[false, false]).is_err(), "no overflow");
    }
}
