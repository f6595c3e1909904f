//! Playing a naval engagement (FYOW 29.17): the six sessions of the day with
//! their light, the Left and Right Boxes, the Combat Area and the Coastal
//! Area, one move per session, targets spotted and lost, and the follow-up
//! shot bonus of 29.8. The dice are thrown by [`crate::naval::spotting`] and
//! [`crate::naval::fire`]; this record says what may be done and feeds them.

use serde::{Deserialize, Serialize};
use serde_json::json;
use warbound_rules::day::SESSIONS_PER_DAY;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::map::common::{Light, Side};
use crate::naval::craft::{Craft, Weapon};
use crate::naval::spotting::SpotResult;
use crate::naval::{NavalError, rule};

/// Where a token stands on the template.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Station {
    /// The side's Box (off the Map Board's waters): "One side places their
    /// tokens in the Left Box, the other side uses the Right Box".
    Box,
    CombatArea,
    /// "Coastal guns are noted in the Coastal area", with other shore targets.
    CoastalArea,
}

/// What a token stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenKind {
    Vessel(Craft),
    Aircraft,
    CoastalBattery,
    /// Any other shore target ships may fire on.
    OnShore,
}

impl TokenKind {
    /// FYOW 29.17: "Naval Captains and aircraft Squadron Leaders ... do not
    /// need to take an Officer Reaction Test, nor throw the Order Dice. Coastal
    /// gun battery Officers do need to take the ORT".
    pub const fn needs_officer_reaction_test(self) -> bool {
        matches!(self, Self::CoastalBattery)
    }
}

/// One token on the template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Token {
    pub id: String,
    /// The army it belongs to.
    pub side: Side,
    pub kind: TokenKind,
    pub station: Station,
}

/// The engagement template for one day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NavalEngagement {
    /// "Record the night/day situation for each Session".
    pub sessions: [Light; SESSIONS_PER_DAY as usize],
    /// The current session, 1..=6.
    pub session: u8,
    pub tokens: Vec<Token>,
    /// (observer, target) pairs spotted and not lost.
    spotted: Vec<(String, String)>,
    /// (firer, target) pairs that have been fired on this engagement.
    fired_at: Vec<(String, String)>,
    /// Tokens that moved this session.
    moved: Vec<String>,
    /// Observers that spotted this session.
    spotters: Vec<String>,
    /// (firer, weapon, shots or guns) used this session.
    fired: Vec<(String, Weapon, u8)>,
    /// Squadrons that attacked this session.
    attacked: Vec<String>,
}

impl NavalEngagement {
    /// A new day's engagement at session 1.
    pub fn new(sessions: [Light; SESSIONS_PER_DAY as usize]) -> Self {
        Self {
            sessions,
            session: 1,
            tokens: Vec::new(),
            spotted: Vec::new(),
            fired_at: Vec::new(),
            moved: Vec::new(),
            spotters: Vec::new(),
            fired: Vec::new(),
            attacked: Vec::new(),
        }
    }

    /// The light of the current session.
    pub fn light(&self) -> Light {
        self.sessions[usize::from(self.session - 1)]
    }

    /// Places a token: vessels and aircraft in their side's Box, coastal guns
    /// and shore targets in the Coastal Area.
    pub fn place(&mut self, id: impl Into<String>, side: Side, kind: TokenKind) -> Result<(), NavalError> {
        let id = id.into();
        if self.tokens.iter().any(|t| t.id == id) {
            return Err(NavalError::Engagement(format!("{id} is already placed")));
        }
        let station = match kind {
            TokenKind::Vessel(_) | TokenKind::Aircraft => Station::Box,
            TokenKind::CoastalBattery | TokenKind::OnShore => Station::CoastalArea,
        };
        self.tokens.push(Token { id, side, kind, station });
        Ok(())
    }

    /// A token by id.
    pub fn token(&self, id: &str) -> Result<&Token, NavalError> {
        self.tokens.iter().find(|t| t.id == id).ok_or_else(|| NavalError::Engagement(format!("no token {id}")))
    }

    fn in_combat(&self, id: &str) -> Result<bool, NavalError> {
        Ok(self.token(id)?.station == Station::CombatArea)
    }

    /// Takes a sunk vessel or lost aircraft off the template.
    pub fn remove(&mut self, id: &str) -> Result<(), NavalError> {
        self.token(id)?;
        self.tokens.retain(|t| t.id != id);
        self.spotted.retain(|(o, t)| o != id && t != id);
        Ok(())
    }

    /// The next session: every token may act again.
    pub fn next_session(&mut self) -> Result<u8, NavalError> {
        if self.session >= SESSIONS_PER_DAY {
            return Err(NavalError::Engagement("the day has 6 sessions".into()));
        }
        self.session += 1;
        self.moved.clear();
        self.spotters.clear();
        self.fired.clear();
        self.attacked.clear();
        Ok(self.session)
    }

    /// FYOW 29.17 "Moving": "A vessel or aircraft can only move once per
    /// Session ... into or out of the box or Combat area". "Having left the
    /// Combat Area, a vessel must re-acquire targets when returning.
    /// Similarly, if a target leaves the Combat Area, it must be spotted again".
    pub fn move_token(&mut self, id: &str) -> Result<(Station, RuleEvent), NavalError> {
        let session = self.session;
        if self.moved.iter().any(|m| m == id) {
            return Err(NavalError::Engagement(format!("{id} has moved this session")));
        }
        let token = self
            .tokens
            .iter_mut()
            .find(|t| t.id == id)
            .ok_or_else(|| NavalError::Engagement(format!("no token {id}")))?;
        token.station = match token.station {
            Station::Box => Station::CombatArea,
            Station::CombatArea => Station::Box,
            Station::CoastalArea => return Err(NavalError::Engagement(format!("{id} is ashore and does not move"))),
        };
        let station = token.station;
        self.moved.push(id.to_string());
        let mut lost = Vec::new();
        if station == Station::Box {
            self.spotted.retain(|(o, t)| {
                let keep = o != id && t != id;
                if !keep {
                    lost.push(json!([o, t]));
                }
                keep
            });
        }
        let event = RuleEvent::new(EventKind::Naval, rule("29.17 Playing a naval engagement"))
            .actor(id)
            .input("session", session, "")
            .outcome(json!({ "station": station, "spots_lost": lost }));
        Ok((station, event))
    }

    /// Whether `id` is in the Combat Area, for [`crate::naval::spotting::spot`].
    pub fn in_combat_area(&self, id: &str) -> Result<bool, NavalError> {
        self.in_combat(id)
    }

    /// Records an observer's spotting throws (one spotting a session: its
    /// dice are per session, 29.9).
    pub fn record_spots(&mut self, observer: &str, results: &[SpotResult]) -> Result<(), NavalError> {
        self.token(observer)?;
        if self.spotters.iter().any(|s| s == observer) {
            return Err(NavalError::Engagement(format!("{observer} has spotted this session")));
        }
        for r in results {
            self.token(&r.id)?;
        }
        self.spotters.push(observer.to_string());
        for r in results.iter().filter(|r| r.spotted) {
            if !self.is_spotted(observer, &r.id) {
                self.spotted.push((observer.to_string(), r.id.clone()));
            }
        }
        Ok(())
    }

    /// "Only spotted targets can be fired on."
    pub fn is_spotted(&self, observer: &str, target: &str) -> bool {
        self.spotted.iter().any(|(o, t)| o == observer && t == target)
    }

    /// FYOW 29.8 and 29.17 "Firing": checks that `firer` may fire `count`
    /// guns (or torpedoes, or depth charges) of `weapon` at `target` now, and
    /// records it. `guns_able` is what the firer may fire this session
    /// ([`crate::naval::craft::Vessel::guns_able_to_fire`]; the battery's guns).
    /// Returns whether the 29.8 follow-up bonus stands: the firer has fired at
    /// this target before and has not fired two calibres this session ("ignore
    /// AA fire"); [`crate::naval::fire::ship_fire`] gives it to Destroyers and
    /// gunboats only.
    ///
    /// Position (29.8): vessels other than Destroyers fire only when they and
    /// their target are both in the Combat Area; Destroyers fire on vessels
    /// when either is, but drop depth charges only when both are; ships fire on
    /// shore targets and aircraft from the Combat Area; coastal guns fire on
    /// vessels in the Combat Area.
    pub fn prepare_fire(
        &mut self,
        firer: &str,
        target: &str,
        weapon: Weapon,
        count: u8,
        guns_able: u8,
    ) -> Result<(bool, RuleEvent), NavalError> {
        let f = self.token(firer)?.clone();
        let t = self.token(target)?.clone();
        if f.side == t.side {
            return Err(NavalError::CannotEngage(format!("{target} is on {firer}'s side")));
        }
        if !self.is_spotted(firer, target) {
            return Err(NavalError::CannotEngage(format!("{firer} has not spotted {target}")));
        }
        let (fc, tc) = (f.station == Station::CombatArea, t.station == Station::CombatArea);
        let placed = match (f.kind, t.kind) {
            (TokenKind::Vessel(Craft::Destroyer), TokenKind::Vessel(_)) if weapon != Weapon::DepthCharges => fc || tc,
            (TokenKind::Vessel(_), TokenKind::Vessel(_) | TokenKind::Aircraft) => fc && tc,
            (TokenKind::Vessel(_), TokenKind::CoastalBattery | TokenKind::OnShore) => fc,
            (TokenKind::CoastalBattery, TokenKind::Vessel(_)) => tc,
            _ => return Err(NavalError::CannotEngage(format!("{firer} cannot fire on {target} this way"))),
        };
        if !placed {
            return Err(NavalError::CannotEngage(format!("{firer} and {target} are not placed to fire (29.8)")));
        }
        let cap = match weapon {
            Weapon::Torpedoes | Weapon::DepthCharges => 2,
            _ => guns_able,
        };
        let used: u8 = self.fired.iter().filter(|(id, w, _)| id == firer && *w == weapon).map(|x| x.2).sum();
        if count == 0 || used + count > cap {
            return Err(NavalError::NoShots(format!("{firer}: {used} of {cap} {weapon:?} used this session")));
        }
        let main_calibre = |w: Weapon| w != Weapon::Aa20mm;
        let two_calibres =
            main_calibre(weapon) && self.fired.iter().any(|(id, w, _)| id == firer && main_calibre(*w) && *w != weapon);
        let before = self.fired_at.iter().any(|(a, b)| a == firer && b == target);
        self.fired.push((firer.to_string(), weapon, count));
        if !before {
            self.fired_at.push((firer.to_string(), target.to_string()));
        }
        let follow_up = before && !two_calibres && weapon.is_gun() && main_calibre(weapon);
        let event = RuleEvent::new(EventKind::Naval, rule("29.8 Fire power of boats"))
            .actor(firer)
            .target(target)
            .input("session", self.session, "")
            .input("weapon", weapon, "")
            .input("count", count, "")
            .input("fired_at_before", before, "second or subsequent firing at the same target")
            .input("two_calibres", two_calibres, "different calibres this session remove the benefit (AA ignored)")
            .outcome(json!({ "follow_up": follow_up }));
        Ok((follow_up, event))
    }

    /// An aircraft squadron's attack on a vessel: once a session, on a
    /// spotted vessel, both in the Combat Area (29.9: aircraft spot vessels
    /// only from the Combat Area).
    pub fn prepare_air_attack(&mut self, squadron: &str, target: &str) -> Result<(), NavalError> {
        let s = self.token(squadron)?;
        let t = self.token(target)?;
        if s.kind != TokenKind::Aircraft || !matches!(t.kind, TokenKind::Vessel(_)) || s.side == t.side {
            return Err(NavalError::CannotEngage(format!("{squadron} cannot attack {target}")));
        }
        if s.station != Station::CombatArea || t.station != Station::CombatArea {
            return Err(NavalError::CannotEngage(format!("{squadron} and {target} must both be in the Combat Area")));
        }
        if !self.is_spotted(squadron, target) {
            return Err(NavalError::CannotEngage(format!("{squadron} has not spotted {target}")));
        }
        if self.attacked.iter().any(|a| a == squadron) {
            return Err(NavalError::Engagement(format!("{squadron} has attacked this session")));
        }
        self.attacked.push(squadron.to_string());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use warbound_rules::dice::Scripted;

    use super::*;
    use crate::naval::SeaConditions;
    use crate::naval::condition::assess_condition;
    use crate::naval::craft::Vessel;
    use crate::naval::fire::ship_fire;
    use crate::naval::spotting::{Nomination, Observer, SpotTarget, spot};

    fn template() -> NavalEngagement {
        let mut e = NavalEngagement::new([
            Light::NightNoMoon,
            Light::NightNoMoon,
            Light::Daylight,
            Light::Daylight,
            Light::Daylight,
            Light::NightNoMoon,
        ]);
        e.place("D", Side::Blue, TokenKind::Vessel(Craft::Destroyer)).unwrap();
        e.place("G", Side::Red, TokenKind::Vessel(Craft::Gunboat)).unwrap();
        e.place("Bty", Side::Red, TokenKind::CoastalBattery).unwrap();
        e
    }

    fn seen(id: &str) -> SpotResult {
        SpotResult { id: id.into(), needed: 3, face: 6, spotted: true }
    }

    #[test]
    fn template_example_night_night_day_day_day_night() {
        let mut e = template();
        assert_eq!(e.light(), Light::NightNoMoon);
        for _ in 0..2 {
            e.next_session().unwrap();
        }
        assert_eq!(e.light(), Light::Daylight);
        while e.session < 6 {
            e.next_session().unwrap();
        }
        assert!(e.next_session().is_err());
        assert_eq!(e.token("Bty").unwrap().station, Station::CoastalArea);
        assert!(e.place("D", Side::Red, TokenKind::Aircraft).is_err());
    }

    #[test]
    fn only_coastal_battery_officers_take_the_ort() {
        assert!(TokenKind::CoastalBattery.needs_officer_reaction_test());
        assert!(!TokenKind::Vessel(Craft::Destroyer).needs_officer_reaction_test());
        assert!(!TokenKind::Aircraft.needs_officer_reaction_test());
    }

    #[test]
    fn one_move_per_session_and_shore_guns_stay() {
        let mut e = template();
        let (s, _) = e.move_token("D").unwrap();
        assert_eq!(s, Station::CombatArea);
        assert!(e.move_token("D").is_err());
        assert!(e.move_token("Bty").is_err());
        e.next_session().unwrap();
        assert_eq!(e.move_token("D").unwrap().0, Station::Box);
    }

    #[test]
    fn leaving_the_combat_area_loses_spots() {
        let mut e = template();
        e.move_token("G").unwrap();
        e.record_spots("D", &[seen("G")]).unwrap();
        assert!(e.record_spots("D", &[seen("G")]).is_err(), "once a session");
        assert!(e.is_spotted("D", "G"));
        e.next_session().unwrap();
        let (_, ev) = e.move_token("G").unwrap();
        assert!(!e.is_spotted("D", "G"), "the target left the Combat Area");
        assert_eq!(ev.outcome["spots_lost"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn destroyer_fires_from_the_box_gunboat_needs_both_in() {
        let mut e = template();
        e.move_token("G").unwrap();
        e.record_spots("D", &[seen("G")]).unwrap();
        e.record_spots("G", &[seen("D")]).unwrap();
        assert_eq!(e.prepare_fire("D", "G", Weapon::Gun149mm, 2, 4).map(|r| r.0), Ok(false));
        assert!(e.prepare_fire("G", "D", Weapon::Gun75mm, 1, 4).is_err(), "the Destroyer is in its Box");
        assert!(e.prepare_fire("D", "G", Weapon::Gun149mm, 3, 4).is_err(), "only 4 guns this session");
    }

    #[test]
    fn follow_up_bonus_and_two_calibres() {
        let mut e = template();
        e.move_token("G").unwrap();
        e.record_spots("D", &[seen("G")]).unwrap();
        assert_eq!(e.prepare_fire("D", "G", Weapon::Gun149mm, 1, 4).map(|r| r.0), Ok(false), "first time");
        e.next_session().unwrap();
        assert_eq!(e.prepare_fire("D", "G", Weapon::Gun149mm, 1, 4).map(|r| r.0), Ok(true), "second time");
        assert_eq!(e.prepare_fire("D", "G", Weapon::Aa20mm, 1, 4).map(|r| r.0), Ok(false), "AA never gains");
        assert_eq!(e.prepare_fire("D", "G", Weapon::Gun149mm, 1, 4).map(|r| r.0), Ok(true), "AA is ignored");
        assert_eq!(
            e.prepare_fire("D", "G", Weapon::Gun150mmPlus, 1, 2).map(|r| r.0),
            Ok(false),
            "two calibres this session"
        );
    }

    #[test]
    fn only_spotted_targets_and_not_your_own_side() {
        let mut e = template();
        e.move_token("G").unwrap();
        assert!(e.prepare_fire("D", "G", Weapon::Gun149mm, 1, 4).is_err());
        e.place("D2", Side::Blue, TokenKind::Vessel(Craft::Destroyer)).unwrap();
        e.record_spots("D", &[seen("D2")]).unwrap();
        assert!(e.prepare_fire("D", "D2", Weapon::Gun149mm, 1, 4).is_err());
    }

    #[test]
    fn depth_charges_need_both_in_the_combat_area() {
        let mut e = template();
        e.place("U", Side::Red, TokenKind::Vessel(Craft::Submarine)).unwrap();
        e.move_token("U").unwrap();
        e.record_spots("D", &[seen("U")]).unwrap();
        assert!(e.prepare_fire("D", "U", Weapon::DepthCharges, 2, 0).is_err());
        e.move_token("D").unwrap();
        assert_eq!(e.prepare_fire("D", "U", Weapon::DepthCharges, 2, 0).map(|r| r.0), Ok(false));
        assert!(e.prepare_fire("D", "U", Weapon::DepthCharges, 2, 0).is_err(), "one attack of 2 a session");
    }

    #[test]
    fn coastal_battery_and_aircraft() {
        let mut e = template();
        e.place("Sq", Side::Red, TokenKind::Aircraft).unwrap();
        e.record_spots("Bty", &[seen("D")]).unwrap();
        assert!(e.prepare_fire("Bty", "D", Weapon::Gun150mmPlus, 2, 4).is_err(), "the Destroyer is in its Box");
        e.move_token("D").unwrap();
        assert_eq!(e.prepare_fire("Bty", "D", Weapon::Gun150mmPlus, 2, 4).map(|r| r.0), Ok(false));
        e.record_spots("Sq", &[seen("D")]).unwrap();
        assert!(e.prepare_air_attack("Sq", "D").is_err(), "squadron still in its Box");
        e.move_token("Sq").unwrap();
        e.prepare_air_attack("Sq", "D").unwrap();
        assert!(e.prepare_air_attack("Sq", "D").is_err());
        e.remove("D").unwrap();
        assert!(e.token("D").is_err());
    }

    #[test]
    fn a_destroyer_engages_a_gunboat_over_two_sessions() {
        // Session 3 (day): the gunboat steams into the Combat Area; the
        // Destroyer, still in its Box, spots it (3+, D6 4) and fires two 149mm
        // guns (6+: 6 hits, effect D6 2 -> E 2; 5 misses).
        let mut e = template();
        e.next_session().unwrap();
        e.next_session().unwrap();
        let (mut d, _) = Vessel::commission("D", Craft::Destroyer, &mut Scripted::new([6, 6, 1, 1, 1, 1]));
        let (mut g, _) = Vessel::commission("G", Craft::Gunboat, &mut Scripted::new([3, 3]));
        e.move_token("G").unwrap();
        let n = Nomination {
            id: "G".into(),
            target: SpotTarget::Vessel(Craft::Gunboat),
            in_combat_area: e.in_combat_area("G").unwrap(),
            firing_at_observer: false,
        };
        let observer = Observer::Vessel { craft: Craft::Destroyer, british_radar: false };
        let c = SeaConditions { light: e.light(), ..SeaConditions::FAIR_DAY };
        let (seen, _) = spot("D", observer, e.in_combat_area("D").unwrap(), &[n], c, &mut Scripted::new([4])).unwrap();
        e.record_spots("D", &seen).unwrap();
        let able = d.guns_able_to_fire(Weapon::Gun149mm);
        let (bonus, _) = e.prepare_fire("D", "G", Weapon::Gun149mm, 2, able).unwrap();
        assert!(!bonus);
        let (o, _) =
            ship_fire(&mut d, Weapon::Gun149mm, 2, &mut g, bonus, e.light(), &mut Scripted::new([6, 2, 5])).unwrap();
        assert_eq!(o.effect, 2);
        // Session 4: the gunboat is activated and tests its Strategic Condition
        // (2 points: D6 1 and 3 -> 5); the Destroyer fires again with +1.
        e.next_session().unwrap();
        let (t, _) = assess_condition(&mut g, &mut Scripted::new([1, 3])).unwrap();
        assert_eq!(t.condition, 5);
        let (bonus, _) = e.prepare_fire("D", "G", Weapon::Gun149mm, 1, able).unwrap();
        assert!(bonus);
        let (o, _) =
            ship_fire(&mut d, Weapon::Gun149mm, 1, &mut g, bonus, e.light(), &mut Scripted::new([5, 6])).unwrap();
        assert!(o.shots[0].hit, "5 hits with the follow-up +1");
        assert_eq!(g.damage, 6);
        assert!(g.sunk());
        e.remove("G").unwrap();
        assert!(!e.is_spotted("D", "G"));
    }
}
