//! A move worked out before the dice ([`plan`]), one named step a function:
//! the route and the element checked, the going of each stretch, the dice
//! thrown, the pips off each die, night, "at the double"; and how the plan
//! reads a throw ([`MovePlan`]: the score, the chance of each allowance).

use serde::{Deserialize, Serialize};

use super::{
    AFV_BUILT_UP_DICE, Concealment, DAMAGED_DICE, DoubleBar, Drive, ELITE_STEALTH_DICE, FordCondition, MoveClass,
    MoveError, MoveMode, MoveRequest, Mover, Pace, Row, STEALTH_DICE, Stretch, Terrain,
};
use crate::day::Light;
use crate::officer::Quality;

/// Why each die loses pips.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PipCause {
    /// "Reduce each d6 by 1 pip" (carried HMtr/HMG; also on stealth moves and wading).
    CarriedCsw,
    /// Crossing this ground ("Move distance modifiers", "Rivers").
    Terrain(Terrain),
    /// *FYOB* "Results of Momentum Tests this bound".
    Momentum,
    /// *FYOB* Concealment, leaving without an Act.
    Concealment,
    /// 2020 addendum "Weather": a cross-country move uphill by an ordinary wheeled vehicle.
    UphillInRainOrSnow,
}

/// A move worked out before the dice: what is thrown and how it is read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MovePlan {
    /// The row that sets the dice (the most restrictive going of the route).
    pub row: Row,
    pub dice: u8,
    /// Why that many dice.
    pub dice_reason: &'static str,
    pub pips: Vec<(PipCause, u8)>,
    /// Night: "halve all of the scores achieved. Round fractions downwards."
    pub night_halved: bool,
    pub factor: f32,
    pub route_length: f32,
    /// A Goliath throws for reliability after moving.
    pub goliath: bool,
    /// Where a tracked vehicle first meets rough ground along the route.
    pub rough_ground_at: Option<f32>,
}

impl MovePlan {
    /// Pips off each die.
    pub fn pips_per_die(&self) -> u8 {
        self.pips.iter().map(|&(_, p)| p).fold(0u8, u8::saturating_add)
    }

    /// The score of the dice read as the rules read it.
    pub(super) fn score(&self, faces: &[u8]) -> u32 {
        let pips = self.pips_per_die();
        let sum: u32 = faces.iter().map(|&f| u32::from(f.saturating_sub(pips))).sum();
        if self.night_halved { sum / 2 } else { sum }
    }

    /// The chance of each allowance in inches, lowest first (for planning).
    pub fn distribution(&self) -> Vec<(f32, f64)> {
        let pips = self.pips_per_die();
        let mut sums = vec![1.0f64];
        for _ in 0..self.dice {
            let mut next = vec![0.0; sums.len() + 6];
            for (s, p) in sums.iter().enumerate() {
                for face in 1..=6u8 {
                    next[s + usize::from(face.saturating_sub(pips))] += p / 6.0;
                }
            }
            sums = next;
        }
        let mut out: Vec<(f32, f64)> = Vec::new();
        for (s, p) in sums.into_iter().enumerate().filter(|&(_, p)| p > 0.0) {
            let score = if self.night_halved { s / 2 } else { s };
            let inches = score as f32 * self.factor;
            match out.last_mut() {
                Some(last) if last.0 == inches => last.1 += p,
                _ => out.push((inches, p)),
            }
        }
        out
    }

    /// The most the throw can give, inches.
    pub fn max_allowance(&self) -> f32 {
        self.score(&vec![6; usize::from(self.dice)]) as f32 * self.factor
    }
}

/// Works out the dice, pips and factors for a move (no dice thrown), one step
/// a function in the order below; the first step that refuses the move gives
/// the error.
pub fn plan(req: &MoveRequest<'_>) -> Result<MovePlan, MoveError> {
    check_route(req.route)?;
    check_drive(req.mover)?;
    check_mode(req)?;
    let going = going_of_each_stretch(req)?;
    let thrown = dice_thrown(req, &going)?;
    let pips = pips_off_each_die(req);
    let night_halved = halved_at_night(req);
    check_at_the_double(req, &going, night_halved)?;
    Ok(MovePlan {
        row: thrown.row,
        dice: thrown.dice,
        dice_reason: thrown.reason,
        pips,
        night_halved,
        factor: req.pace.factor(),
        route_length: req.route.iter().map(|s| s.length).sum(),
        goliath: req.mover.class == MoveClass::Goliath,
        rough_ground_at: rough_ground_at(req),
    })
}

/// A route of at least one stretch, each a non-negative number of inches.
fn check_route(route: &[Stretch]) -> Result<(), MoveError> {
    if route.is_empty() {
        return Err(MoveError::EmptyRoute);
    }
    for (i, s) in route.iter().enumerate() {
        if !(s.length.is_finite() && s.length >= 0.0) {
            return Err(MoveError::BadLength { stretch: i, length: s.length });
        }
    }
    Ok(())
}

/// Land vehicles have a drive; men, horses and craft that only float have none.
fn check_drive(mover: Mover) -> Result<(), MoveError> {
    let class = mover.class;
    let needs_drive = class.land_row().is_some() && class.is_vehicle();
    if needs_drive != mover.drive.is_some() {
        return Err(MoveError::DriveMismatch(class));
    }
    Ok(())
}

/// Only infantry crawl, or make a stealth move ("instead of a normal move",
/// so not at the double).
fn check_mode(req: &MoveRequest<'_>) -> Result<(), MoveError> {
    let on_foot = req.mover.class.on_foot();
    if req.mode == MoveMode::Stealth && (!on_foot || req.pace == Pace::AtTheDouble) {
        return Err(MoveError::Stealth { stretch: None });
    }
    if req.mode == MoveMode::Crawl && !on_foot {
        return Err(MoveError::Crawl);
    }
    Ok(())
}

/// The dice a stretch of the route gives, or the whole move throws: the row
/// read, the number of D6 and why.
#[derive(Debug, Clone, Copy)]
struct Going {
    row: Row,
    dice: u8,
    reason: &'static str,
}

impl Going {
    /// The row's own figure, on a road or cross-country.
    fn from_table(row: Row, on_road: bool, reason: &'static str) -> Self {
        Self { row, dice: row.entry().dice(on_road), reason }
    }
}

/// The dice each stretch would give, in order along the route. The element
/// is in the water from a river stretch to the next stretch of land.
fn going_of_each_stretch(req: &MoveRequest<'_>) -> Result<Vec<Going>, MoveError> {
    let mut in_water = req.mover.in_water;
    let mut going = Vec::with_capacity(req.route.len());
    for (i, s) in req.route.iter().enumerate() {
        going.push(if s.terrain.is_water() {
            water_going(req.mover.class, i, s.terrain, in_water)?
        } else {
            land_going(req, i, s.terrain, in_water)?
        });
        in_water = s.terrain.is_water();
    }
    Ok(going)
}

/// A river or the sea (*Heroes All*, "Rivers"): the element's row in water.
fn water_going(class: MoveClass, stretch: usize, terrain: Terrain, in_water: bool) -> Result<Going, MoveError> {
    let impassable = MoveError::Impassable { stretch, terrain, class };
    let water = class.water_row().ok_or(impassable)?;
    let navigable = match terrain {
        // "Small river … Can be crossed by infantry wading or by
        // cavalry … Only navigable by canoe, rowing boat or raft."
        Terrain::SmallRiver => class.wades() || class == MoveClass::Raft,
        _ => !class.wades(),
    };
    if !navigable {
        return Err(impassable);
    }
    if class.wades() && !in_water {
        return Err(MoveError::RiverBankNeedsAnAct { stretch });
    }
    Ok(Going::from_table(water, false, "in water"))
}

/// Ground: the element's row on land, road or cross-country, or the infantry
/// row the going calls for.
fn land_going(req: &MoveRequest<'_>, stretch: usize, terrain: Terrain, in_water: bool) -> Result<Going, MoveError> {
    let class = req.mover.class;
    let on_foot = class.on_foot();
    let impassable = MoveError::Impassable { stretch, terrain, class };
    let land = class.land_row().ok_or(impassable)?;
    if class.wades() && in_water {
        return Err(MoveError::RiverBankNeedsAnAct { stretch });
    }
    Ok(match terrain {
        Terrain::Ford(FordCondition::Uncrossable) => return Err(impassable),
        Terrain::NoGo if class.is_vehicle() => return Err(impassable),
        Terrain::Sheer | Terrain::Tunnel if !on_foot => return Err(impassable),
        Terrain::Sheer => Going::from_table(Row::InfantrySheer, true, "sheer face"),
        Terrain::Tunnel => Going::from_table(Row::InfantryCrawl, true, "crawling in a tunnel"),
        _ if req.mode == MoveMode::Crawl => Going::from_table(Row::InfantryCrawl, false, "crawling"),
        Terrain::BuiltUp | Terrain::Jungle if on_foot => {
            Going::from_table(Row::InfantryBuiltUp, true, "infantry in built up/jungle areas")
        }
        Terrain::BuiltUp if class.is_afv() => {
            Going { row: land, dice: AFV_BUILT_UP_DICE, reason: "All AFVs move at 1D6 per bound in built up areas" }
        }
        // Reading: a built-up area is crossed by its streets, so
        // other elements use their road figure there.
        Terrain::BuiltUp | Terrain::Road => Going::from_table(land, true, "road"),
        _ => Going::from_table(land, false, "cross-country"),
    })
}

/// "The number of dice thrown will vary depending on whether the element is
/// on a made-up/metalled road or moving cross-country": the stretch with the
/// fewest dice governs the whole move. A stealth move and a damaged vehicle
/// throw their own dice instead.
fn dice_thrown(req: &MoveRequest<'_>, going: &[Going]) -> Result<Going, MoveError> {
    let mut thrown = *going.iter().min_by_key(|g| g.dice).expect("the route is not empty");
    if req.mode == MoveMode::Stealth {
        thrown = stealth_dice(req)?;
    }
    if req.mover.damaged && req.mover.class.is_vehicle() {
        thrown.dice = DAMAGED_DICE;
        thrown.reason = "damaged vehicle: 1D6 per bound";
    }
    Ok(thrown)
}

/// A stealth move: "up to 1D6 inches (2D6 inches for elite) on either a road
/// or cross-country only", on the element's own row.
fn stealth_dice(req: &MoveRequest<'_>) -> Result<Going, MoveError> {
    if let Some(i) = req.route.iter().position(|s| {
        s.terrain.is_water()
            || matches!(s.terrain, Terrain::BuiltUp | Terrain::Jungle | Terrain::Sheer | Terrain::Tunnel)
    }) {
        return Err(MoveError::Stealth { stretch: Some(i) });
    }
    let row = req.mover.class.land_row().expect("infantry have a land row");
    Ok(if req.mover.quality == Quality::Elite {
        Going { row, dice: ELITE_STEALTH_DICE, reason: "stealth move, elite: 2D6" }
    } else {
        Going { row, dice: STEALTH_DICE, reason: "stealth move: 1D6" }
    })
}

/// Pips off each die, each with its cause, in this order: a carried CSW, each
/// feature crossed, this bound's momentum tests, leaving concealment without
/// an Act, an ordinary wheeled vehicle climbing in rain or snow.
fn pips_off_each_die(req: &MoveRequest<'_>) -> Vec<(PipCause, u8)> {
    let carried = req.mover.class.land_row().map_or(0, |r| r.entry().pips);
    let concealment = u8::from(req.concealment == Concealment::LeavesWithoutAct);
    std::iter::once((PipCause::CarriedCsw, carried))
        .chain(feature_pips(req.route, req.mover.class.is_vehicle()))
        .chain([
            (PipCause::Momentum, req.momentum_pips),
            (PipCause::Concealment, concealment),
            (PipCause::UphillInRainOrSnow, uphill_pips(req)),
        ])
        .filter(|&(_, p)| p > 0)
        .collect()
}

/// Each feature crossed costs its pips once; a feature the geometry split
/// into consecutive stretches is one feature.
fn feature_pips(route: &[Stretch], vehicle: bool) -> impl Iterator<Item = (PipCause, u8)> {
    route
        .iter()
        .enumerate()
        .filter(|&(i, s)| i == 0 || route[i - 1].terrain != s.terrain)
        .map(move |(_, s)| (PipCause::Terrain(s.terrain), s.terrain.pips(vehicle)))
}

/// *Heroes All*, "Movement modification": with the Rain/Snow Gauge in use, a
/// cross-country move uphill by a vehicle that is not tracked, half-tracked
/// or all wheel drive.
fn uphill_pips(req: &MoveRequest<'_>) -> u8 {
    let climbs = req.route.iter().any(|s| s.uphill && s.terrain.is_cross_country());
    if req.mover.drive == Some(Drive::Wheeled) && climbs { req.weather.uphill_pip() } else { 0 }
}

/// Night fighting: "halve all of the scores achieved"; elite troops and
/// partisans ignore the night restrictions.
fn halved_at_night(req: &MoveRequest<'_>) -> bool {
    req.light == Light::Night && !(req.mover.quality == Quality::Elite || req.mover.partisan)
}

/// An "at the double" move needs every stretch's row to allow it, and none of
/// the bars to apply; the first bar found is the one given.
fn check_at_the_double(req: &MoveRequest<'_>, going: &[Going], night: bool) -> Result<(), MoveError> {
    if req.pace != Pace::AtTheDouble {
        return Ok(());
    }
    let bar = if let Some(g) = going.iter().find(|g| !g.row.entry().at_the_double) {
        Some(DoubleBar::NotInRow(g.row))
    } else if let Some(s) = req.route.iter().find(|s| s.terrain.bars_at_the_double()) {
        Some(DoubleBar::Terrain(s.terrain))
    } else if night {
        Some(DoubleBar::Night)
    } else if req.rationed {
        Some(DoubleBar::Rationed)
    } else if req.concealment != Concealment::NotConcealed {
        Some(DoubleBar::LeavingConcealment)
    } else {
        None
    };
    bar.map_or(Ok(()), |bar| Err(MoveError::AtTheDouble(bar)))
}

/// Where a tracked vehicle first meets rough ground along the route: it
/// throws for its track only if it gets that far.
fn rough_ground_at(req: &MoveRequest<'_>) -> Option<f32> {
    if req.mover.drive != Some(Drive::Tracked) {
        return None;
    }
    let mut at = 0.0;
    for s in req.route {
        if s.terrain == Terrain::RoughGround {
            return Some(at);
        }
        at += s.length;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::day::BattleWeather;

    use Terrain as T;

    fn open(len: f32) -> [Stretch; 1] {
        [Stretch::new(T::Open, len)]
    }

    #[test]
    fn road_or_cross_country_and_the_most_restrictive_going_governs() {
        let tank = Mover::new(MoveClass::Tank);
        let road = [Stretch::new(T::Road, 30.0)];
        assert_eq!(plan(&MoveRequest::new(tank, &road)).unwrap().dice, 5);
        let mixed = [Stretch::new(T::Road, 10.0), Stretch::new(T::Open, 10.0)];
        let p = plan(&MoveRequest::new(tank, &mixed)).unwrap();
        assert_eq!((p.dice, p.dice_reason), (3, "cross-country"));
        let town = [Stretch::new(T::Road, 10.0), Stretch::new(T::BuiltUp, 10.0)];
        assert_eq!(plan(&MoveRequest::new(tank, &town)).unwrap().dice, 1, "All AFVs move at 1D6 in built up areas");
        let truck = Mover::new(MoveClass::MediumTruck);
        assert_eq!(plan(&MoveRequest::new(truck, &town)).unwrap().dice, 6, "a lorry drives the streets");
        let p = plan(&MoveRequest::new(Mover::new(MoveClass::Infantry), &town)).unwrap();
        assert_eq!((p.row, p.dice), (Row::InfantryBuiltUp, 2));
    }

    #[test]
    fn vehicles_lose_two_pips_in_dense_woods_and_marsh() {
        for t in [T::DenseWoodland, T::Marsh, T::HighWall] {
            let r = [Stretch::new(t, 3.0)];
            assert_eq!(plan(&MoveRequest::new(Mover::new(MoveClass::Tank), &r)).unwrap().pips_per_die(), 2, "{t:?}");
            assert_eq!(
                plan(&MoveRequest::new(Mover::new(MoveClass::Infantry), &r)).unwrap().pips_per_die(),
                1,
                "{t:?}"
            );
        }
        for t in [T::LightWoodland, T::RoughGround, T::Ditch, T::Hedge, T::LowWall, T::Ford(FordCondition::Normal)] {
            let r = [Stretch::new(t, 3.0)];
            assert_eq!(plan(&MoveRequest::new(Mover::new(MoveClass::Tank), &r)).unwrap().pips_per_die(), 0, "{t:?}");
        }
    }

    #[test]
    fn a_stream_costs_every_element_one_pip() {
        let r = [Stretch::new(T::Open, 2.0), Stretch::new(T::Stream, 1.5), Stretch::new(T::Open, 2.0)];
        for c in [MoveClass::Infantry, MoveClass::Tank, MoveClass::MediumTruck] {
            assert_eq!(plan(&MoveRequest::new(Mover::new(c), &r)).unwrap().pips_per_die(), 1, "{c:?}");
        }
    }

    #[test]
    fn stealth_is_1d6_or_2d6_for_elite_on_road_or_cross_country_only() {
        let r = [Stretch::new(T::Road, 20.0)];
        let mut m = Mover::new(MoveClass::Infantry);
        let mut req = MoveRequest::new(m, &r);
        req.mode = MoveMode::Stealth;
        assert_eq!(plan(&req).unwrap().dice, 1);
        m.quality = Quality::Elite;
        req.mover = m;
        assert_eq!(plan(&req).unwrap().dice, 2);
        let town = [Stretch::new(T::BuiltUp, 5.0)];
        req.route = &town;
        assert_eq!(plan(&req), Err(MoveError::Stealth { stretch: Some(0) }));
        let mut req = MoveRequest::new(Mover::new(MoveClass::Tank), &r);
        req.mode = MoveMode::Stealth;
        assert_eq!(plan(&req), Err(MoveError::Stealth { stretch: None }));
    }

    #[test]
    fn at_the_double_is_barred_by_woods_night_rations_and_concealment() {
        for t in [T::LightWoodland, T::DenseWoodland, T::Mountains, T::Marsh, T::Stream, T::HighWall] {
            let r = [Stretch::new(T::Open, 2.0), Stretch::new(t, 2.0)];
            let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &r);
            req.pace = Pace::AtTheDouble;
            assert_eq!(plan(&req), Err(MoveError::AtTheDouble(DoubleBar::Terrain(t))), "{t:?}");
        }
        let r = open(30.0);
        let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &r);
        req.pace = Pace::AtTheDouble;
        req.light = Light::Night;
        assert_eq!(plan(&req), Err(MoveError::AtTheDouble(DoubleBar::Night)));
        req.mover.quality = Quality::Elite;
        assert!(plan(&req).is_ok(), "Elite troops ignore the night restrictions");
        req.mover.quality = Quality::Regular;
        req.mover.partisan = true;
        assert!(plan(&req).is_ok(), "and so do Partisans");
        req.light = Light::Daylight;
        req.rationed = true;
        assert_eq!(plan(&req), Err(MoveError::AtTheDouble(DoubleBar::Rationed)));
        req.rationed = false;
        req.concealment = Concealment::ExtractedByAct;
        assert_eq!(plan(&req), Err(MoveError::AtTheDouble(DoubleBar::LeavingConcealment)));
        req.pace = Pace::Normal;
        req.mode = MoveMode::Stealth;
        assert!(plan(&req).is_ok());
    }

    #[test]
    fn uphill_in_rain_slows_only_ordinary_wheels_off_road() {
        let hill = [Stretch::uphill(T::Open, 10.0)];
        let wet = BattleWeather::new(Some(3)).unwrap();
        let pips = |class: MoveClass, route: &[Stretch], weather: BattleWeather| {
            let mut req = MoveRequest::new(Mover::new(class), route);
            req.weather = weather;
            plan(&req).unwrap().pips_per_die()
        };
        assert_eq!(pips(MoveClass::MediumTruck, &hill, wet), 1);
        assert_eq!(pips(MoveClass::Motorcycle, &hill, wet), 1);
        assert_eq!(pips(MoveClass::AwdTruck, &hill, wet), 0);
        assert_eq!(pips(MoveClass::HalfTrack, &hill, wet), 0);
        assert_eq!(pips(MoveClass::Tank, &hill, wet), 0);
        assert_eq!(pips(MoveClass::Infantry, &hill, wet), 0, "only vehicles");
        assert_eq!(pips(MoveClass::MediumTruck, &hill, BattleWeather::default()), 0, "gauge not in use");
        assert_eq!(pips(MoveClass::MediumTruck, &[Stretch::uphill(T::Road, 10.0)], wet), 0, "on a road");
        assert_eq!(pips(MoveClass::MediumTruck, &[Stretch::new(T::Open, 10.0)], wet), 0, "not uphill");
        let mut jeep = Mover::new(MoveClass::MilitaryCar);
        jeep.drive = Some(Drive::AllWheelDrive);
        let mut req = MoveRequest::new(jeep, &hill);
        req.weather = wet;
        assert_eq!(plan(&req).unwrap().pips_per_die(), 0, "a Jeep is all wheel drive");
    }

    #[test]
    fn rivers_by_size() {
        let small = [Stretch::new(T::SmallRiver, 4.0)];
        let wide = [Stretch::new(T::WideRiver, 10.0)];
        let afloat = |c: MoveClass, r: &[Stretch]| {
            let mut m = Mover::new(c);
            m.in_water = true;
            plan(&MoveRequest::new(m, r)).map(|p| (p.row, p.dice))
        };
        assert_eq!(afloat(MoveClass::MountedCavalry, &small), Ok((Row::Wading, 1)), "cavalry at 1 x D6");
        assert_eq!(afloat(MoveClass::Raft, &small), Ok((Row::Raft, 2)));
        assert_eq!(afloat(MoveClass::Mtb, &wide), Ok((Row::Mtb, 8)));
        assert_eq!(afloat(MoveClass::Schwimmwagen, &wide), Ok((Row::Schwimmwagen, 3)));
        assert!(
            matches!(afloat(MoveClass::Mtb, &small), Err(MoveError::Impassable { .. })),
            "only canoe, rowing boat or raft"
        );
        assert!(
            matches!(afloat(MoveClass::Infantry, &wide), Err(MoveError::Impassable { .. })),
            "no wading a wide river"
        );
        assert!(matches!(afloat(MoveClass::Tank, &small), Err(MoveError::Impassable { .. })));
        let road = [Stretch::new(T::Road, 4.0)];
        assert!(matches!(afloat(MoveClass::PoweredBoat, &road), Err(MoveError::Impassable { .. })));
        let amphibious = [Stretch::new(T::Road, 4.0), Stretch::new(T::WideRiver, 6.0)];
        let p = plan(&MoveRequest::new(Mover::new(MoveClass::Schwimmwagen), &amphibious)).unwrap();
        assert_eq!((p.row, p.dice), (Row::Schwimmwagen, 3));
    }

    #[test]
    fn fords_and_no_go_areas() {
        let ford = |c| [Stretch::new(T::Road, 2.0), Stretch::new(T::Ford(c), 3.0), Stretch::new(T::Road, 2.0)];
        let truck = Mover::new(MoveClass::MediumTruck);
        assert_eq!(plan(&MoveRequest::new(truck, &ford(FordCondition::Normal))).unwrap().pips_per_die(), 0);
        assert_eq!(plan(&MoveRequest::new(truck, &ford(FordCondition::Restricted(2)))).unwrap().pips_per_die(), 2);
        assert!(matches!(
            plan(&MoveRequest::new(truck, &ford(FordCondition::Uncrossable))),
            Err(MoveError::Impassable { stretch: 1, .. })
        ));
        let swamp = [Stretch::new(T::NoGo, 3.0)];
        assert!(plan(&MoveRequest::new(truck, &swamp)).is_err());
        assert!(plan(&MoveRequest::new(Mover::new(MoveClass::Infantry), &swamp)).is_ok());
    }

    #[test]
    fn infantry_only_on_sheer_faces_and_in_tunnels() {
        let cliff = [Stretch::new(T::Sheer, 3.0)];
        let p = plan(&MoveRequest::new(Mover::new(MoveClass::Infantry), &cliff)).unwrap();
        assert_eq!((p.row, p.dice), (Row::InfantrySheer, 1));
        assert!(plan(&MoveRequest::new(Mover::new(MoveClass::MountedCavalry), &cliff)).is_err());
        let r = open(5.0);
        let mut req = MoveRequest::new(Mover::new(MoveClass::Infantry), &r);
        req.mode = MoveMode::Crawl;
        assert_eq!(plan(&req).unwrap().row, Row::InfantryCrawl);
        req.mover = Mover::new(MoveClass::Bicycle);
        assert_eq!(plan(&req), Err(MoveError::Crawl));
    }

    #[test]
    fn bad_routes_are_refused() {
        let m = Mover::new(MoveClass::Infantry);
        assert_eq!(plan(&MoveRequest::new(m, &[])), Err(MoveError::EmptyRoute));
        let r = [Stretch::new(T::Open, 2.0), Stretch::new(T::Open, f32::NAN)];
        assert!(matches!(plan(&MoveRequest::new(m, &r)), Err(MoveError::BadLength { stretch: 1, .. })));
        let r = open(-1.0);
        assert!(matches!(plan(&MoveRequest::new(m, &r)), Err(MoveError::BadLength { stretch: 0, .. })));
        let mut truck = Mover::new(MoveClass::LightTruck);
        truck.drive = None;
        assert_eq!(plan(&MoveRequest::new(truck, &open(3.0))), Err(MoveError::DriveMismatch(MoveClass::LightTruck)));
        assert!(MoveError::RiverBankNeedsAnAct { stretch: 2 }.to_string().contains("Act"));
    }

    #[test]
    fn distribution_matches_the_dice() {
        let r = open(100.0);
        let p = plan(&MoveRequest::new(Mover::new(MoveClass::Infantry), &r)).unwrap();
        let d = p.distribution();
        let mean: f64 = d.iter().map(|&(x, p)| f64::from(x) * p).sum();
        assert!((mean - 7.0).abs() < 1e-9, "{mean}");
        assert!((d.iter().map(|&(_, p)| p).sum::<f64>() - 1.0).abs() < 1e-9);
        assert_eq!(p.max_allowance(), 12.0);
        let mut req = MoveRequest::new(Mover::new(MoveClass::CarriedCsw), &r);
        req.light = Light::Night;
        let p = plan(&req).unwrap();
        assert_eq!((p.max_allowance(), d.first().map(|x| x.0)), (5.0, Some(2.0)));
        assert_eq!(p.distribution().first().map(|x| x.0), Some(0.0));
    }
}
