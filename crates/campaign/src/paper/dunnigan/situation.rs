//! Everything but the forces that the Combat Results Table reads (FYOW
//! 33.7.2 (vi)): the Terrain Effects Chart, the Battle Factors Chart, which
//! combat this is, and the checks on the attackers' and defenders' decisions.

use serde::{Deserialize, Serialize};

use super::retreat::RetreatOrder;
use crate::paper::PaperError;

/// The six Map Board descriptions of FYOW 33.3, with their colour codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Terrain {
    /// Open plains, barren areas, little cover (grey).
    OpenPlains,
    /// Farm or few buildings, light woods, some walls and hedges, wide beaches (orange).
    Farmland,
    /// Heavy woodland, broken ground, walls and hedges common, village/town, river or railway line (green).
    HeavyWoodland,
    /// Rugged, steep hills, cliffs, mountains, valleys, forests, bridges, few roads, broken coastline (brown).
    Rugged,
    /// City, factories, urban environment, or dense jungle or very heavy forests (gold).
    City,
    /// Fortified: wire, obstacles, tank ditches, pillboxes, casement guns, minefields (yellow);
    /// fixed at the outset of the campaign.
    Fortified,
}

impl Terrain {
    /// Terrain Effects Chart (FYOW 33.7.2 (vi)): the CRT shift, right positive, left negative.
    pub fn shift(self) -> i32 {
        match self {
            Terrain::OpenPlains => 1,     // 1 Right
            Terrain::Farmland => 0,       // 0
            Terrain::HeavyWoodland => -1, // 1 Left
            Terrain::Rugged => -2,        // 2 Left
            Terrain::City => -2,          // 2 Left
            Terrain::Fortified => -3,     // 3 Left
        }
    }
}

/// The defenders' attitude on the Map Board (FYOW 15.3, 20.6), as the Battle Factors Chart reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Attitude {
    /// In Line of March: not deployed.
    Present,
    /// Standing by: not deployed.
    StandBy,
    /// In defensive positions.
    Deployed,
    /// A deployment elevated to a fortified position (15.3): still "deployed" for the chart.
    Fortified,
    /// In Rest mode (20.6).
    Rest,
    /// After a retreat in disarray (33.8), until re-deployed.
    Disarray,
}

impl Attitude {
    /// Battle Factors Chart rows for the attitude (FYOW 33.7.2 (vi)).
    fn shift(self) -> (i32, &'static str) {
        match self {
            Attitude::Rest | Attitude::Disarray => (2, "defenders at rest or in disarray: 2 right-shift"),
            Attitude::Present | Attitude::StandBy => (1, "defenders not deployed (stand-by, present): 1 right-shift"),
            // Reading (FYOW 15.3/33.3): a fortified *attitude* is a deployment; the
            // 3-left Fortified Map Board comes from the terrain, fixed at the outset.
            Attitude::Deployed | Attitude::Fortified => (0, "defenders deployed"),
        }
    }
}

/// Which combat this session is (33.7.3 (x)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Engagement {
    /// The first Combat Session after contact.
    First,
    /// The session after an NR: "automatically becomes a further Combat
    /// session"; the defender is "already engaged (NR)" and cannot gain the −1.
    NrContinuation,
    /// A second attack on a defender obliged to retreat: no barrage.
    SecondBattle,
}

/// A further shift from another section (e.g. FYOW 28: German paratroops
/// without their weapons suffer 1 right-shift), right positive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtraShift {
    pub reason: String,
    pub shift: i32,
}

/// Everything but the forces that the CRT and its throw depend on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Situation {
    pub terrain: Terrain,
    pub engagement: Engagement,
    pub defender_attitude: Attitude,
    pub defender_rationed: bool,
    /// The attackers' Detection Throw found the defenders (33.5, 16).
    pub attackers_detected_defenders: bool,
    /// The defenders' Detection Throw found the attackers.
    pub defenders_detected_attackers: bool,
    /// The defenders' BPC came up before the attack in this Combat Session.
    pub defender_activated_first: bool,
    /// The attackers' Command Decision to lay down a pre-combat barrage.
    pub barrage: bool,
    /// The defenders' Command Decision to fire counter-battery.
    pub counter_battery: bool,
    /// 2nd attack against the same defender this session.
    pub second_attack_this_session: bool,
    /// 2nd attack against the same defender today, in a different session.
    pub second_attack_today: bool,
    /// The attackers are making a 2nd attack during the Outcome Session.
    pub attackers_second_attack_in_outcome_session: bool,
    /// The defenders have been attackers today.
    pub defenders_attacked_today: bool,
    /// Shifts from other sections.
    pub extra_shifts: Vec<ExtraShift>,
}

impl Situation {
    /// A first Combat Session on `terrain` against defenders in `attitude`,
    /// both sides detected, the attackers activated first, no barrage, no other factor.
    pub fn new(terrain: Terrain, defender_attitude: Attitude) -> Self {
        Self {
            terrain,
            engagement: Engagement::First,
            defender_attitude,
            defender_rationed: false,
            attackers_detected_defenders: true,
            defenders_detected_attackers: true,
            defender_activated_first: false,
            barrage: false,
            counter_battery: false,
            second_attack_this_session: false,
            second_attack_today: false,
            attackers_second_attack_in_outcome_session: false,
            defenders_attacked_today: false,
            extra_shifts: Vec::new(),
        }
    }

    /// The next session after an NR (33.7.3 (x)): a further Combat Session
    /// against a defender already engaged. Barrage decisions and activation
    /// order are the new session's, so they start cleared.
    pub fn continue_after_nr(&self) -> Situation {
        Situation {
            engagement: Engagement::NrContinuation,
            barrage: false,
            counter_battery: false,
            defender_activated_first: false,
            ..self.clone()
        }
    }

    /// A second attack on a defender obliged to retreat, the attackers being
    /// activated before it (33.7.3 (x)): the disarray inflicted "will now count
    /// against them", a retreat in good order leaves them deployed (33.8), and
    /// no barrage may be fired.
    pub fn second_attack(
        &self,
        defender_retreat: RetreatOrder,
        same_session: bool,
        in_outcome_session: bool,
    ) -> Situation {
        Situation {
            engagement: Engagement::SecondBattle,
            defender_attitude: match defender_retreat {
                RetreatOrder::Disarray => Attitude::Disarray,
                RetreatOrder::GoodOrder => Attitude::Deployed,
            },
            barrage: false,
            counter_battery: false,
            defender_activated_first: false,
            second_attack_this_session: same_session,
            second_attack_today: !same_session,
            attackers_second_attack_in_outcome_session: in_outcome_session,
            ..self.clone()
        }
    }

    pub(super) fn check(&self) -> Result<(), PaperError> {
        if (self.barrage || self.counter_battery) && self.engagement == Engagement::SecondBattle {
            return Err(PaperError::new(
                "33.7.3 (x)",
                "pre-combat artillery barrages cannot be undertaken in second battles",
            ));
        }
        if self.barrage && !self.attackers_detected_defenders {
            return Err(PaperError::new("33.7.2 (iv)", "a barrage needs the attackers to have detected the defenders"));
        }
        if self.counter_battery && !self.defenders_detected_attackers {
            return Err(PaperError::new(
                "33.7.2 (iv)",
                "counter-battery fire needs the defenders to have detected the attackers",
            ));
        }
        if self.counter_battery && self.defender_activated_first {
            return Err(PaperError::new(
                "33.7.2 (iv)",
                "counter-battery fire is only for defenders activated after the attackers",
            ));
        }
        if self.second_attack_this_session && self.second_attack_today {
            return Err(PaperError::new(
                "33.7.2 (vi)",
                "a 2nd attack is either this session or today in a different session, not both",
            ));
        }
        if self.engagement == Engagement::SecondBattle && !self.second_attack_this_session && !self.second_attack_today
        {
            return Err(PaperError::new("33.7.2 (vi)", "a second battle is a 2nd attack this session or today"));
        }
        Ok(())
    }

    /// The Battle Factors Chart (FYOW 33.7.2 (vi)), row for row, plus the
    /// terrain and any extra shifts: (shift, why).
    pub(super) fn shifts(&self) -> Vec<(i32, String)> {
        let mut s = vec![(self.terrain.shift(), format!("terrain {:?} (Terrain Effects Chart)", self.terrain))];
        let (a, why) = self.defender_attitude.shift();
        if a != 0 {
            s.push((a, why.to_string()));
        }
        let rows: [(bool, i32, &str); 8] = [
            (self.defender_rationed, 2, "defenders are Rationed: 2 right-shift"),
            (!self.attackers_detected_defenders, -1, "undetected defenders on the Map Board: 1 left-shift"),
            (!self.defenders_detected_attackers, 1, "undetected attackers entering Map Board: 1 right-shift"),
            (
                self.engagement == Engagement::NrContinuation,
                1,
                "attack against Battlegroup already engaged (NR): 1 right-shift",
            ),
            (self.second_attack_this_session, 1, "2nd attack against same defender this session: 1 right-shift"),
            (self.second_attack_today, 1, "2nd attack against same defender today (different sessions): 1 right-shift"),
            (
                self.attackers_second_attack_in_outcome_session,
                -1,
                "attackers making a 2nd attack during the Outcome Session: 1 left-shift",
            ),
            (
                self.defenders_attacked_today,
                1,
                "attack against Battlegroup that has been an attacker today: 1 right-shift",
            ),
        ];
        s.extend(rows.iter().filter(|r| r.0).map(|r| (r.1, r.2.to_string())));
        s.extend(self.extra_shifts.iter().map(|e| (e.shift, e.reason.clone())));
        s
    }
}
