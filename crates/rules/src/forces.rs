//! The forces on the table (*Heroes All*, "Composition of an element",
//! "Cohesion within an element", "Transport elements", "Firing weapons", "The
//! cost of your army"; *Fight Your Own Battles*, "Composition of an element",
//! "Company Officer figures", "Definitions of each grade of Officer"):
//! elements and what they hold, validated against the CODEX; cohesion;
//! firing teams; transports and their passengers; the commanders above the
//! Senior Officer; who gets an Order Priority Card; the cost of a force.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::buildings::Occupier;
use crate::codex::{Codex, CodexEntry, CodexError, FigureGrade, Kind, Points, ShotsPerDay};
use crate::command::Company;
use crate::effects::ArmourClass;
use crate::firing::{MAX_TEAM, Weapon};
use crate::loads::{LoadError, Loads, codex_capacity, codex_load_space, fits, transported_figure};
use crate::momentum::MAX_CMS;
use crate::officer::{ElementMakeup, Officer, Quality};
use crate::opc::{Holder, Nation, Participant};

/// *Heroes All*, "Cost of infantry": "for Momentum purposes, Poor & Poor
/// (Enhanced) troops are considered to be Poor, Regular & Regular (Enhanced)
/// troops are considered to be Regular and Elite & Elite (Enhanced) are
/// considered to be Elite". Reading: a Special Character (costed above Elite
/// Enhanced) counts as Elite (test `grades_fold_into_the_momentum_qualities`).
pub const fn quality_of(grade: FigureGrade) -> Quality {
    match grade {
        FigureGrade::Poor | FigureGrade::PoorEnhanced => Quality::Poor,
        FigureGrade::Regular | FigureGrade::RegularEnhanced => Quality::Regular,
        FigureGrade::Elite | FigureGrade::EliteEnhanced | FigureGrade::SpecialCharacter => Quality::Elite,
    }
}

/// What keeps its own spacing within an element (*Heroes All*, "Cohesion
/// within an element").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spacing {
    /// Infantry and cavalry figures (crews of CSWs and the Company Officer figure too).
    Figure,
    Vehicle,
    /// "Artillery pieces forming a battery".
    BatteryPiece,
    /// "Figures specifically allocated as Guards at a location and placed on Overwatch."
    Guard,
}

impl Spacing {
    /// *Heroes All*, "Cohesion within an element": figures "within 1 inch of
    /// any other figure", vehicles 6 inches apart, a battery's pieces 3
    /// inches, Guards on Overwatch 12 inches.
    pub const fn inches(self) -> f32 {
        match self {
            Self::Figure => 1.0,
            Self::Vehicle => 6.0,
            Self::BatteryPiece => 3.0,
            Self::Guard => 12.0,
        }
    }
}

/// Whether the members of an element, each at its position on the table
/// (inches), keep cohesion.
///
/// Reading (*Heroes All*, "Cohesion within an element": "within 1 inch of any
/// other figure in the element"): "any other" is *some* other, and the
/// element must be one chain — every member reached from every other by
/// steps no longer than the spacing — or two pairs a table apart would pass.
/// A step between members of different spacings (a figure and a vehicle)
/// uses the wider of the two. Distances are from position to position.
/// Tests `a_platoon_in_a_chain_of_one_inch_steps_keeps_cohesion`,
/// `two_separate_pairs_break_cohesion`, `vehicles_keep_cohesion_at_six_inches`.
pub fn in_cohesion(members: &[(Spacing, [f32; 2])]) -> Result<bool, ForceError> {
    if members.iter().any(|(_, p)| !p.iter().all(|c| c.is_finite())) {
        return Err(ForceError::BadPosition);
    }
    let mut reached = vec![false; members.len()];
    let mut frontier = Vec::new();
    if !members.is_empty() {
        reached[0] = true;
        frontier.push(0);
    }
    while let Some(i) = frontier.pop() {
        let (si, pi) = members[i];
        for (j, &(sj, pj)) in members.iter().enumerate() {
            let reach = si.inches().max(sj.inches());
            if !reached[j] && (pi[0] - pj[0]).hypot(pi[1] - pj[1]) <= reach {
                reached[j] = true;
                frontier.push(j);
            }
        }
    }
    Ok(reached.into_iter().all(|r| r))
}

/// Bounds of fire left today for one weapon: `None` for unlimited supply.
pub type Rounds = Option<u8>;

/// The day's allowance for a weapon (*Heroes All*, "Normal restrictions on
/// ammunition", via [`ShotsPerDay`]); grenades are counted for the element
/// ([`Element::grenade_uses`]), so their row has no rounds of its own.
fn day_allowance(shots: ShotsPerDay) -> Rounds {
    match shots {
        ShotsPerDay::Unlimited | ShotsPerDay::PerThreeMen => None,
        ShotsPerDay::Bounds(n) => Some(n),
    }
}

/// A figure with the personal weapon he carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figure {
    pub grade: FigureGrade,
    /// CODEX id of a weapon one man serves (rifle, SMG, PIAT); `None` unarmed.
    pub weapon: Option<String>,
    pub rounds: Rounds,
}

/// A crew-served weapon, gun or vehicle with the figures serving it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    pub codex: String,
    /// Figures serving it now, at most the CODEX crew.
    pub crew: u8,
    /// Bounds of fire left today, one per armament in CODEX order.
    pub rounds: Vec<Rounds>,
}

/// What an element is for (*Heroes All*/FYOB, "Transport elements").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// A platoon, CSW, gun, AFV … led by its rated NCO.
    Fighting,
    /// "Lorries and armoured carriers allocated to transport duties are not
    /// given an NCO nor are they rated"; carrying the element named.
    Transport { carrying: Option<String> },
}

/// An element (*Heroes All*, "Composition of an element": "any group of
/// infantry, specialist troops, crew-served weapons (CSW), armoured or
/// soft-skinned vehicles etc operating together or a vehicle, CSW etc
/// standing independently"), "defined and identified at the start of the game".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Element {
    pub id: String,
    pub nation: Nation,
    /// Local resistance or militia: the NCO's rating throw is not modified.
    pub militia: bool,
    /// `None` until rated, and always for a transport on duty.
    pub nco: Option<Officer>,
    /// Continuous Momentum score, 6 at the start (FYOB).
    pub cms: u8,
    pub figures: Vec<Figure>,
    pub pieces: Vec<Piece>,
    pub role: Role,
    /// On the table and active (not in the box, not in reserve).
    pub on_table: bool,
}

impl Element {
    /// A new fighting element, CMS 6, on the table, every weapon with its full
    /// allowance for the day; `figures` are (grade, personal weapon id) and
    /// `pieces` (CODEX id, crew).
    pub fn new(
        codex: &Codex,
        id: &str,
        nation: Nation,
        figures: &[(FigureGrade, Option<&str>)],
        pieces: &[(&str, u8)],
    ) -> Result<Self, ForceError> {
        let figures = figures
            .iter()
            .map(|&(grade, weapon)| {
                let rounds = match weapon {
                    Some(w) => day_allowance(
                        codex.get(w)?.armament.first().map_or(ShotsPerDay::Unlimited, |a| a.shots_per_day()),
                    ),
                    None => None,
                };
                Ok(Figure { grade, weapon: weapon.map(str::to_owned), rounds })
            })
            .collect::<Result<Vec<_>, ForceError>>()?;
        let pieces = pieces
            .iter()
            .map(|&(piece, crew)| {
                let entry = codex.get(piece)?;
                let rounds = entry.armament.iter().map(|a| day_allowance(a.shots_per_day())).collect();
                Ok(Piece { codex: piece.to_owned(), crew, rounds })
            })
            .collect::<Result<Vec<_>, ForceError>>()?;
        let element = Self {
            id: id.to_owned(),
            nation,
            militia: false,
            nco: None,
            cms: MAX_CMS,
            figures,
            pieces,
            role: Role::Fighting,
            on_table: true,
        };
        element.validate(codex)?;
        Ok(element)
    }

    /// *Heroes All*, "Restrictions applied in 'Rationed' state": "the number
    /// of rounds shown in the Weapons Codex is halved (rounded up)" and
    /// "Rifle grenade launchers and hand grenades are not available for
    /// use": every weapon's bounds of fire for the day as
    /// [`crate::logistics::day_allowance`] gives them rationed (test
    /// `a_rationed_element_has_half_its_rounds`).
    pub fn ration(&mut self, codex: &Codex) -> Result<(), ForceError> {
        use crate::logistics::{Supply, day_allowance};
        let men = u8::try_from(self.men()).unwrap_or(u8::MAX);
        let rationed = |a: &crate::codex::Armament| {
            day_allowance(a.row, a.shots_per_day(), men, Supply::Rationed, None).unwrap_or(Some(0))
        };
        for f in &mut self.figures {
            if let Some(w) = &f.weapon
                && let Some(a) = codex.get(w)?.armament.first()
            {
                f.rounds = rationed(a);
            }
        }
        for p in &mut self.pieces {
            let entry = codex.get(&p.codex)?;
            for (rounds, a) in p.rounds.iter_mut().zip(&entry.armament) {
                *rounds = rationed(a);
            }
        }
        Ok(())
    }

    /// What it brings into a building (*Heroes All*, "Buildings": figures
    /// count against the capacity, "Ignore hand-held weapons"; "Buildings may
    /// not be occupied by vehicles, artillery or mortars"; "The only AT
    /// weapons that may occupy intact buildings are a PIAT, Bazooka,
    /// Panzerfaust etc"). Readings: a vehicle's crew stays in it, so a vehicle
    /// brings the vehicle alone; a piece on an AT row is that AT weapon, a
    /// mortar is a mortar off the roof (the terrain records no flat roofs),
    /// howitzers, autocannon and rockets are artillery; machine guns and
    /// flamethrowers are served by their crews, who count as figures (test
    /// `a_gun_may_not_start_in_a_house`).
    pub fn occupiers(&self, codex: &Codex) -> Result<Vec<Occupier>, ForceError> {
        let mut figures = self.figures.len();
        let mut out = Vec::new();
        for p in &self.pieces {
            let entry = codex.get(&p.codex)?;
            if entry.kind != Kind::Weapon {
                out.push(Occupier::Vehicle);
                continue;
            }
            figures += usize::from(p.crew);
            let Some(row) = entry.armament.first().map(|a| a.row) else { continue };
            match row {
                Weapon::LightMortar | Weapon::MediumMortar | Weapon::HeavyMortar => {
                    out.push(Occupier::Mortar { on_flat_roof: false });
                }
                Weapon::Atr
                | Weapon::Piat
                | Weapon::Bazooka
                | Weapon::PzSchreck
                | Weapon::PzFaust
                | Weapon::AtGunClass1
                | Weapon::AtGunClass2
                | Weapon::AtGunClass3
                | Weapon::AtGunClass4
                | Weapon::AtGunClass5 => out.push(Occupier::AtWeapon(row)),
                Weapon::AutocannonLight
                | Weapon::AutocannonHeavy
                | Weapon::Rockets
                | Weapon::Howitzer50
                | Weapon::Howitzer75
                | Weapon::Howitzer104
                | Weapon::Howitzer149
                | Weapon::Howitzer150Plus => out.push(Occupier::Artillery),
                _ => {}
            }
        }
        out.push(Occupier::Figures(u8::try_from(figures).unwrap_or(u8::MAX)));
        Ok(out)
    }

    /// What rates its NCO (FYOB "Rating NCOs and Officers": "If the whole
    /// element comprises Elite/veteran troops, add 1 ... Green/poor troops,
    /// deduct 1"). Crews of pieces are of the element's troops, so the
    /// figures decide; an element of pieces alone is Regular.
    pub fn makeup(&self) -> ElementMakeup {
        if self.militia {
            return ElementMakeup::Militia;
        }
        let mut qualities = self.figures.iter().map(|f| quality_of(f.grade));
        match qualities.next() {
            None => ElementMakeup::Whole(Quality::Regular),
            Some(q) if qualities.all(|o| o == q) => ElementMakeup::Whole(q),
            Some(_) => ElementMakeup::Mixed,
        }
    }

    /// The grade its crews are costed at: the grade most of its figures have
    /// (the first, on a tie); Regular for an element of pieces alone.
    pub fn troops(&self) -> FigureGrade {
        let mut best = (0, FigureGrade::Regular);
        for f in &self.figures {
            let n = self.figures.iter().filter(|g| g.grade == f.grade).count();
            if n > best.0 {
                best = (n, f.grade);
            }
        }
        best.1
    }

    /// The quality it fires, tests and moves at (*Heroes All*, "Cost of
    /// infantry": "Poor, green or militia"; "for Momentum purposes, Poor &
    /// Poor (Enhanced) troops are considered to be Poor ..."): its own
    /// troops' ([`Element::troops`]), Poor for militia; `crews`, the grade
    /// its side's figures have by default, for an element of pieces alone
    /// (test `an_element_is_of_its_own_troops_quality`).
    pub fn quality(&self, crews: Quality) -> Quality {
        if self.militia {
            Quality::Poor
        } else if self.figures.is_empty() {
            crews
        } else {
            quality_of(self.troops())
        }
    }

    /// Figures in the element, crews of its pieces included (a casualty is
    /// one of them).
    pub fn men(&self) -> u32 {
        self.figures.len() as u32 + self.pieces.iter().map(|p| u32::from(p.crew)).sum::<u32>()
    }

    /// Takes `n` casualties, riflemen first and then the crews of its pieces
    /// (the last piece's first); returns how many men went.
    pub fn remove_men(&mut self, n: u32) -> u32 {
        let mut lost = 0;
        while lost < n && self.figures.pop().is_some() {
            lost += 1;
        }
        for piece in self.pieces.iter_mut().rev() {
            while lost < n && piece.crew > 0 {
                piece.crew -= 1;
                lost += 1;
            }
        }
        lost
    }

    /// *Heroes All*, "Normal restrictions on ammunition": "1 use of grenades
    /// per day per 3 men of a platoon". Reading: whole threes of the men
    /// fielded, fractions dropped (test `grenades_one_use_per_three_men`).
    pub fn grenade_uses(&self) -> u32 {
        self.men() / 3
    }

    /// Checks the element against the CODEX and the rules of composition.
    pub fn validate(&self, codex: &Codex) -> Result<(), ForceError> {
        let id = || self.id.clone();
        if self.figures.is_empty() && self.pieces.is_empty() {
            return Err(ForceError::Empty(id()));
        }
        if !(1..=MAX_CMS).contains(&self.cms) {
            return Err(ForceError::CmsOutOfRange { element: id(), cms: self.cms });
        }
        for (i, f) in self.figures.iter().enumerate() {
            let Some(w) = &f.weapon else { continue };
            let entry = codex.get(w)?;
            if entry.kind != Kind::Weapon || entry.crew > 1 {
                return Err(ForceError::NotPersonalWeapon { element: id(), figure: i, codex: w.clone() });
            }
            let allowed = entry.armament.first().and_then(|a| day_allowance(a.shots_per_day()));
            check_rounds(&self.id, w, f.rounds, allowed)?;
        }
        for p in &self.pieces {
            let entry = codex.get(&p.codex)?;
            if p.crew > entry.crew {
                return Err(ForceError::TooManyCrew {
                    element: id(),
                    codex: p.codex.clone(),
                    crew: p.crew,
                    allowed: entry.crew,
                });
            }
            if p.rounds.len() != entry.armament.len() {
                return Err(ForceError::RoundsPerArmament { element: id(), codex: p.codex.clone() });
            }
            for (a, &r) in entry.armament.iter().zip(&p.rounds) {
                check_rounds(&self.id, &p.codex, r, day_allowance(a.shots_per_day()))?;
            }
        }
        if let Role::Transport { .. } = self.role {
            // "Lorries and armoured carriers allocated to transport duties are
            // not given an NCO": vehicles that carry, and their drivers only.
            if self.nco.is_some() {
                return Err(ForceError::TransportHasNco(id()));
            }
            if !self.figures.is_empty() || self.pieces.is_empty() {
                return Err(ForceError::NotATransport(id()));
            }
            for p in &self.pieces {
                codex_capacity(codex.get(&p.codex)?).map_err(ForceError::Load)?;
            }
        }
        Ok(())
    }

    /// The element's cost (*Heroes All*, "The cost of your army"): every
    /// figure at his grade, every crew figure at the grade the CODEX gives
    /// for what he serves ([`CodexEntry::crew_grade`]: gunners over 75mm are
    /// Enhanced), and every weapon and vehicle at the CODEX formula, summed by
    /// [`Codex::force_cost`].
    pub fn cost(&self, codex: &Codex) -> Result<Points, ForceError> {
        let troops = self.troops();
        let mut men: Vec<(FigureGrade, u32)> = self.figures.iter().map(|f| (f.grade, 1)).collect();
        let mut kit: Vec<(&str, u32)> =
            self.figures.iter().filter_map(|f| f.weapon.as_deref()).map(|w| (w, 1)).collect();
        for p in &self.pieces {
            men.push((codex.get(&p.codex)?.crew_grade(troops), u32::from(p.crew)));
            kit.push((&p.codex, 1));
        }
        Ok(codex.force_cost(&men, &kit)?)
    }

    /// Load its men and pieces take aboard a transport (*Heroes All*, "Loads
    /// and carrying capacity": a figure is 1 load and what he carries is
    /// counted in addition; a piece its CODEX load space; crews ride as figures).
    pub fn load(&self, codex: &Codex) -> Result<Loads, ForceError> {
        let mut total = Loads::ZERO;
        for f in &self.figures {
            total += transported_figure(&[]).map_err(ForceError::Load)?;
            if let Some(w) = &f.weapon {
                total += codex_load_space(codex.get(w)?).map_err(ForceError::Load)?;
            }
        }
        for p in &self.pieces {
            total = total
                + codex_load_space(codex.get(&p.codex)?).map_err(ForceError::Load)?
                + Loads::whole(u32::from(p.crew));
        }
        Ok(total)
    }
}

fn check_rounds(element: &str, codex: &str, left: Rounds, allowed: Rounds) -> Result<(), ForceError> {
    let fine = match (left, allowed) {
        // A count of an unlimited weapon: a rationed day's (`Element::ration`).
        (_, None) => true,
        (Some(l), Some(a)) => l <= a,
        _ => false,
    };
    if fine {
        Ok(())
    } else {
        Err(ForceError::RoundsBeyondDay { element: element.to_owned(), codex: codex.to_owned(), left, allowed })
    }
}

/// Who fires in a team: a figure by index, or a piece's armament.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Shooter {
    Figure(usize),
    /// Piece index, armament index.
    Piece(usize, usize),
}

/// What kind of team, and so how large it may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TeamKind {
    /// Figures and crew-served weapons: at most 10 weapons.
    Figures,
    /// Guns: at most 3 pieces.
    Artillery,
    /// One AFV's weapons of one row: "AFVs fire separately".
    Afv,
}

/// One firing team: weapons of one Weapons-table row firing together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FiringTeam {
    pub kind: TeamKind,
    pub row: Weapon,
    /// Weapons firing (an armament of `count` 2 gives 2), the
    /// [`crate::firing::OpenSightsFire::weapons`] of its shot.
    pub weapons: u8,
    pub shooters: Vec<Shooter>,
}

/// "Firing teams cannot exceed ... 3 artillery pieces."
pub const MAX_BATTERY_TEAM: u8 = 3;

/// The rows fired by "artillery pieces" (*Heroes All*, "Firing weapons"):
/// the AT guns, autocannon, rockets and howitzers when they are guns, not
/// vehicles. Reading: mortars are crew-served weapons that fire as figures
/// do (test `guns_fire_in_threes_and_afvs_alone`).
const fn is_gun_row(row: Weapon) -> bool {
    matches!(
        row,
        Weapon::AtGunClass1
            | Weapon::AtGunClass2
            | Weapon::AtGunClass3
            | Weapon::AtGunClass4
            | Weapon::AtGunClass5
            | Weapon::AutocannonLight
            | Weapon::AutocannonHeavy
            | Weapon::Rockets
            | Weapon::Howitzer50
            | Weapon::Howitzer75
            | Weapon::Howitzer104
            | Weapon::Howitzer149
            | Weapon::Howitzer150Plus
    )
}

fn is_afv(entry: &CodexEntry) -> bool {
    entry.kind == Kind::Vehicle && entry.armour.is_some_and(|a| a != ArmourClass::SoftSkinned)
}

/// Splits an element's shooters into firing teams (*Heroes All*, "Firing
/// weapons": "Firing teams cannot exceed 10 figures or 3 artillery pieces.
/// AFVs fire separately.").
///
/// Weapons of one row fire together, the fewest teams filled in order;
/// weapons out of bounds of fire today, unarmed figures, uncrewed pieces and
/// grenades (thrown in assaults) are left out. A transport's weapons fire
/// only while it carries passengers ("Armoured transports may only use their
/// weapons when they are carrying passengers").
pub fn firing_teams(element: &Element, codex: &Codex) -> Result<Vec<FiringTeam>, ForceError> {
    let mut teams: Vec<FiringTeam> = Vec::new();
    let mut add = |kind: TeamKind, row: Weapon, weapons: u8, shooter: Shooter| {
        let cap = match kind {
            TeamKind::Figures => MAX_TEAM,
            TeamKind::Artillery => MAX_BATTERY_TEAM,
            TeamKind::Afv => u8::MAX,
        };
        let open = teams
            .iter_mut()
            .find(|t| kind != TeamKind::Afv && t.kind == kind && t.row == row && t.weapons + weapons <= cap);
        match open {
            Some(t) => {
                t.weapons += weapons;
                t.shooters.push(shooter);
            }
            None => teams.push(FiringTeam { kind, row, weapons, shooters: vec![shooter] }),
        }
    };
    if matches!(element.role, Role::Transport { carrying: None }) {
        return Ok(Vec::new());
    }
    for (i, f) in element.figures.iter().enumerate() {
        let Some(w) = &f.weapon else { continue };
        let Some(a) = codex.get(w)?.armament.first() else { continue };
        if f.rounds != Some(0) && !matches!(a.shots_per_day(), ShotsPerDay::PerThreeMen) {
            add(TeamKind::Figures, a.row, a.count, Shooter::Figure(i));
        }
    }
    for (i, p) in element.pieces.iter().enumerate() {
        let entry = codex.get(&p.codex)?;
        if p.crew == 0 && entry.crew > 0 {
            continue;
        }
        for (j, a) in entry.armament.iter().enumerate() {
            if p.rounds.get(j) == Some(&Some(0)) || matches!(a.shots_per_day(), ShotsPerDay::PerThreeMen) {
                continue;
            }
            let kind = if is_afv(entry) {
                TeamKind::Afv
            } else if entry.kind == Kind::Weapon && is_gun_row(a.row) {
                TeamKind::Artillery
            } else {
                TeamKind::Figures
            };
            if kind == TeamKind::Artillery {
                add(kind, a.row, 1, Shooter::Piece(i, j));
            } else {
                add(kind, a.row, a.count, Shooter::Piece(i, j));
            }
        }
    }
    Ok(teams)
}

/// The commander over the Senior Officers, by what is on the table (FYOB
/// "Definitions of each grade of Officer").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HighestCommand {
    /// One battalion: its Senior Officer.
    SeniorOfficer,
    /// "If more than 1 battalion appears on the table, the Brigade Officer
    /// will be their overall Commander. He is not rated."
    BrigadeOfficer,
    /// "The Commander of 2 or more Brigades."
    DivisionalOfficer,
}

impl HighestCommand {
    /// The highest level of command ("For each force on the table, the
    /// highest level of command must be identified") from the battalions on
    /// the table, each given as (battalion, its brigade).
    pub fn of(battalions: &[(&str, &str)]) -> Option<Self> {
        let first = battalions.first()?;
        if battalions.iter().any(|b| b.1 != first.1) {
            Some(Self::DivisionalOfficer)
        } else if battalions.iter().any(|b| b.0 != first.0) {
            Some(Self::BrigadeOfficer)
        } else {
            Some(Self::SeniorOfficer)
        }
    }
}

/// The commanders who are "activated by a prompt" and never rated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HigherCommand {
    BrigadeOfficer,
    DivisionalOfficer,
}

/// What a Brigade or Divisional Officer may do when prompted (FYOB
/// "Decisions made and actions taken by the Officer grades").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum HigherDuty {
    /// "(i) give them an objective or change their objective" (each
    /// Battalion, or each Brigade).
    Objective,
    /// Brigade: "(ii) activate any Company Officers leading Brigade-level
    /// reserve units and allocate them to a Senior Officer (engineers etc)".
    AllocateBrigadeReserve,
    /// Division: "(ii) (re)allocate any Divisional reserve elements to a
    /// Brigade Officer or back to reserve status".
    AllocateDivisionalReserve,
}

/// Days in a wargame week.
pub const DAYS_PER_WEEK: u32 = 7;

impl HigherCommand {
    /// Whether he is prompted at the start of bound `bound` (1..=24) of
    /// wargame day `day` (1-based): a Brigade Officer "at the start of each
    /// wargame day", a Divisional Officer "at the start of each wargame week"
    /// (days 1, 8, 15 …).
    pub fn prompted(self, day: u32, bound: u8) -> Result<bool, ForceError> {
        if day == 0 || !(1..=crate::codex::BOUNDS_PER_DAY).contains(&bound) {
            return Err(ForceError::BadTime { day, bound });
        }
        Ok(bound == 1
            && match self {
                Self::BrigadeOfficer => true,
                Self::DivisionalOfficer => day % DAYS_PER_WEEK == 1,
            })
    }

    /// His two duties.
    pub const fn duties(self) -> [HigherDuty; 2] {
        match self {
            Self::BrigadeOfficer => [HigherDuty::Objective, HigherDuty::AllocateBrigadeReserve],
            Self::DivisionalOfficer => [HigherDuty::Objective, HigherDuty::AllocateDivisionalReserve],
        }
    }
}

/// How a transport is commanded (*Heroes All*/FYOB "Transport elements").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TransportCommand<'a> {
    /// "When they are carrying an element, they will be under the command
    /// of the NCO of that element who will dictate it's actions."
    Passengers { element: &'a str, nco: Option<Officer> },
    /// "If a transport moves when empty, it will behave as if it was a
    /// 'Regular' element."
    EmptyAsRegular,
}

/// A side's force: its elements and the vessels of any off-shore naval
/// gunfire. Company Officers are [`Company`]s (command/company.rs); their figures
/// ride with the element named in [`Company::attached_to`] and change
/// element by [`Company::change_element`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Force {
    pub nation: Nation,
    pub elements: Vec<Element>,
    /// Vessels giving off-shore gunfire: "a single OPC for the vessels is all
    /// that is required".
    pub naval_gunfire: Vec<String>,
}

impl Force {
    /// A checked force: ids unique, every element valid, every transport
    /// carrying an element of the force that fits.
    pub fn new(
        codex: &Codex,
        nation: Nation,
        elements: Vec<Element>,
        naval_gunfire: Vec<String>,
    ) -> Result<Self, ForceError> {
        for (i, e) in elements.iter().enumerate() {
            if elements[..i].iter().any(|o| o.id == e.id) || naval_gunfire.contains(&e.id) {
                return Err(ForceError::DuplicateId(e.id.clone()));
            }
            e.validate(codex)?;
        }
        let force = Self { nation, elements, naval_gunfire };
        for e in &force.elements {
            if let Role::Transport { carrying: Some(p) } = &e.role {
                force.check_passengers(codex, &e.id, p)?;
            }
        }
        Ok(force)
    }

    pub fn element(&self, id: &str) -> Result<&Element, ForceError> {
        self.elements.iter().find(|e| e.id == id).ok_or_else(|| ForceError::UnknownElement(id.to_owned()))
    }

    fn element_mut(&mut self, id: &str) -> Result<&mut Element, ForceError> {
        self.elements.iter_mut().find(|e| e.id == id).ok_or_else(|| ForceError::UnknownElement(id.to_owned()))
    }

    /// The transport carrying `element`, if any.
    pub fn carrier_of(&self, element: &str) -> Option<&Element> {
        self.elements.iter().find(|e| matches!(&e.role, Role::Transport { carrying: Some(p) } if p == element))
    }

    fn check_passengers(&self, codex: &Codex, transport: &str, passengers: &str) -> Result<(), ForceError> {
        let t = self.element(transport)?;
        let p = self.element(passengers)?;
        if let Role::Transport { .. } = p.role {
            return Err(ForceError::NotPassengers(passengers.to_owned()));
        }
        let capacity = t
            .pieces
            .iter()
            .map(|v| {
                codex.get(&v.codex).map_err(ForceError::from).and_then(|e| codex_capacity(e).map_err(ForceError::Load))
            })
            .sum::<Result<Loads, ForceError>>()?;
        fits(capacity, &[p.load(codex)?]).map_err(ForceError::Load)?;
        Ok(())
    }

    /// Puts `passengers` aboard the transport element `transport`, checking
    /// capacity (*Heroes All*, "Loads and carrying capacity").
    pub fn embark(&mut self, codex: &Codex, transport: &str, passengers: &str) -> Result<(), ForceError> {
        match &self.element(transport)?.role {
            Role::Transport { carrying: None } => {}
            Role::Transport { carrying: Some(_) } => return Err(ForceError::TransportFull(transport.to_owned())),
            Role::Fighting => return Err(ForceError::NotATransport(transport.to_owned())),
        }
        if self.carrier_of(passengers).is_some() {
            return Err(ForceError::AlreadyCarried(passengers.to_owned()));
        }
        self.check_passengers(codex, transport, passengers)?;
        self.element_mut(transport)?.role = Role::Transport { carrying: Some(passengers.to_owned()) };
        Ok(())
    }

    /// The passengers leave the transport; returns who they were.
    pub fn disembark(&mut self, transport: &str) -> Result<String, ForceError> {
        let t = self.element_mut(transport)?;
        match std::mem::replace(&mut t.role, Role::Transport { carrying: None }) {
            Role::Transport { carrying: Some(p) } => Ok(p),
            other => {
                let empty = matches!(other, Role::Transport { .. });
                t.role = other;
                Err(if empty {
                    ForceError::TransportEmpty(transport.to_owned())
                } else {
                    ForceError::NotATransport(transport.to_owned())
                })
            }
        }
    }

    /// Who commands a transport element.
    pub fn transport_command(&self, transport: &str) -> Result<TransportCommand<'_>, ForceError> {
        match &self.element(transport)?.role {
            Role::Transport { carrying: Some(p) } => {
                let p = self.element(p)?;
                Ok(TransportCommand::Passengers { element: &p.id, nco: p.nco })
            }
            Role::Transport { carrying: None } => Ok(TransportCommand::EmptyAsRegular),
            Role::Fighting => Err(ForceError::NotATransport(transport.to_owned())),
        }
    }

    /// The candidates for this bound's Order Priority Cards, for
    /// [`crate::opc::deal`]: each element (a loaded transport moves on its
    /// passengers' card, an empty one needs its own), each Company Officer
    /// whose figure is with an element on the table, and the naval gunfire
    /// vessels (which [`crate::opc::card_holders`] give one card between them).
    pub fn participants(&self, companies: &[Company]) -> Result<Vec<Participant>, ForceError> {
        let mut out = Vec::new();
        for e in &self.elements {
            let holder = match e.role {
                Role::Fighting => Holder::Element,
                Role::Transport { carrying: Some(_) } => Holder::LoadedTransport,
                Role::Transport { carrying: None } => Holder::EmptyTransport,
            };
            out.push(Participant { id: e.id.clone(), holder, nation: e.nation.clone(), active: e.on_table });
        }
        for c in companies {
            let with = self.element(&c.attached_to)?;
            out.push(Participant {
                id: c.id.clone(),
                holder: Holder::CompanyOfficer,
                nation: with.nation.clone(),
                active: with.on_table,
            });
        }
        for v in &self.naval_gunfire {
            out.push(Participant {
                id: v.clone(),
                holder: Holder::OffshoreGunfireVessel,
                nation: self.nation.clone(),
                active: true,
            });
        }
        Ok(out)
    }

    /// The cost of the force (*Heroes All*, "The cost of your army"): its
    /// elements, plus each Company Officer's figure. Reading: the CO figure
    /// is a figure like those of the element he is attached to and is costed
    /// at its troops' grade (test `a_company_officer_figure_costs_as_his_element`).
    pub fn cost(&self, codex: &Codex, companies: &[Company]) -> Result<Points, ForceError> {
        let mut total = Points::ZERO;
        for e in &self.elements {
            total += e.cost(codex)?;
        }
        for c in companies {
            total += self.element(&c.attached_to)?.troops().cost();
        }
        Ok(total)
    }
}

/// What is wrong with a force or an element.
#[derive(Debug, Clone, PartialEq)]
pub enum ForceError {
    /// An id not in the CODEX, or another CODEX failure.
    Codex(CodexError),
    Load(LoadError),
    Empty(String),
    DuplicateId(String),
    UnknownElement(String),
    CmsOutOfRange {
        element: String,
        cms: u8,
    },
    /// A figure's weapon must be a weapon one man serves.
    NotPersonalWeapon {
        element: String,
        figure: usize,
        codex: String,
    },
    /// More figures serving a piece than its CODEX crew.
    TooManyCrew {
        element: String,
        codex: String,
        crew: u8,
        allowed: u8,
    },
    /// A piece needs one count of rounds per CODEX armament.
    RoundsPerArmament {
        element: String,
        codex: String,
    },
    /// More bounds of fire left than the day allows (or a count where supply
    /// is unlimited, or none where it is not).
    RoundsBeyondDay {
        element: String,
        codex: String,
        left: Rounds,
        allowed: Rounds,
    },
    TransportHasNco(String),
    /// Transport duty is for vehicles with a capacity and no other figures.
    NotATransport(String),
    /// Transports do not carry transports.
    NotPassengers(String),
    TransportFull(String),
    TransportEmpty(String),
    AlreadyCarried(String),
    /// A position that is not a finite number of inches.
    BadPosition,
    /// Day from 1, bound 1..=24.
    BadTime {
        day: u32,
        bound: u8,
    },
}

impl From<CodexError> for ForceError {
    fn from(e: CodexError) -> Self {
        Self::Codex(e)
    }
}

impl fmt::Display for ForceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Codex(e) => write!(f, "{e}"),
            Self::Load(e) => write!(f, "{e}"),
            Self::Empty(id) => write!(f, "element {id} has no figures and no pieces"),
            Self::DuplicateId(id) => write!(f, "id {id} is used twice"),
            Self::UnknownElement(id) => write!(f, "no element {id} in the force"),
            Self::CmsOutOfRange { element, cms } => write!(f, "element {element}: CMS {cms} is outside 1..=6"),
            Self::NotPersonalWeapon { element, figure, codex } => {
                write!(f, "element {element}, figure {figure}: {codex} is not a weapon one man serves")
            }
            Self::TooManyCrew { element, codex, crew, allowed } => {
                write!(f, "element {element}: {codex} has {crew} crew, the CODEX allows {allowed}")
            }
            Self::RoundsPerArmament { element, codex } => {
                write!(f, "element {element}: {codex} needs one count of rounds per armament")
            }
            Self::RoundsBeyondDay { element, codex, left, allowed } => {
                write!(f, "element {element}: {codex} has {left:?} bounds of fire left, the day allows {allowed:?}")
            }
            Self::TransportHasNco(id) => write!(f, "transport {id} on transport duty is given no NCO"),
            Self::NotATransport(id) => write!(f, "element {id} is not a transport of vehicles with a capacity"),
            Self::NotPassengers(id) => write!(f, "element {id} is a transport, not passengers"),
            Self::TransportFull(id) => write!(f, "transport {id} is already carrying an element"),
            Self::TransportEmpty(id) => write!(f, "transport {id} carries nobody"),
            Self::AlreadyCarried(id) => write!(f, "element {id} is already aboard a transport"),
            Self::BadPosition => write!(f, "positions must be finite numbers of inches"),
            Self::BadTime { day, bound } => write!(f, "day {day}, bound {bound}: days count from 1, bounds 1..=24"),
        }
    }
}

impl std::error::Error for ForceError {}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::officer::{Grade, Rank};
    use crate::opc::card_holders;
    use crate::strategic::RadioNet;

    use crate::codex::test_codex as codex;

    const R: FigureGrade = FigureGrade::Regular;
    const RIFLE: Option<&str> = Some("gb_no4_rifle");

    /// "An NCO and 7 figures make up a platoon": 6 riflemen and a Bren team of 2.
    fn platoon(c: &Codex, id: &str) -> Element {
        Element::new(c, id, Nation::British, &[(R, RIFLE); 6], &[("gb_bren", 2)]).unwrap()
    }

    fn transport(c: &Codex, id: &str, vehicle: &str) -> Element {
        let mut t = Element::new(c, id, Nation::British, &[], &[(vehicle, 1)]).unwrap();
        t.role = Role::Transport { carrying: None };
        t.validate(c).unwrap();
        t
    }

    fn company(attached_to: &str) -> Company {
        Company {
            id: "A Coy".into(),
            co: Officer::new(Rank::CompanyOfficer, Grade::Regular).unwrap(),
            attached_to: attached_to.into(),
            radio: RadioNet::default(),
            rationed: false,
            objective: None,
            from_senior_officer: None,
            known: BTreeSet::new(),
            elements: Vec::new(),
            successor: None,
        }
    }

    #[test]
    fn grades_fold_into_the_momentum_qualities() {
        assert_eq!(quality_of(FigureGrade::PoorEnhanced), Quality::Poor);
        assert_eq!(quality_of(FigureGrade::RegularEnhanced), Quality::Regular);
        assert_eq!(quality_of(FigureGrade::EliteEnhanced), Quality::Elite);
        assert_eq!(quality_of(FigureGrade::SpecialCharacter), Quality::Elite);
    }

    #[test]
    fn a_platoon_in_a_chain_of_one_inch_steps_keeps_cohesion() {
        // HA photo: "This German infantry platoon of 8 men and the 2-man
        // Panzerschrecke team attached to them maintain cohesion by being
        // within 1 inch of each other": 10 figures in a line, 1" apart.
        let line: Vec<_> = (0..10).map(|i| (Spacing::Figure, [i as f32, 0.0])).collect();
        assert!(in_cohesion(&line).unwrap());
        let mut stray = line.clone();
        stray[9].1 = [9.5, 0.0];
        stray.push((Spacing::Figure, [10.6, 0.0]));
        assert!(!in_cohesion(&stray).unwrap());
    }

    #[test]
    fn two_separate_pairs_break_cohesion() {
        let pairs = [
            (Spacing::Figure, [0.0, 0.0]),
            (Spacing::Figure, [0.5, 0.0]),
            (Spacing::Figure, [20.0, 0.0]),
            (Spacing::Figure, [20.5, 0.0]),
        ];
        assert!(!in_cohesion(&pairs).unwrap());
    }

    #[test]
    fn vehicles_keep_cohesion_at_six_inches() {
        let at = |s: Spacing, d: f32| in_cohesion(&[(s, [0.0, 0.0]), (s, [0.0, d])]).unwrap();
        assert!(at(Spacing::Vehicle, 6.0) && !at(Spacing::Vehicle, 6.1));
        assert!(at(Spacing::BatteryPiece, 3.0) && !at(Spacing::BatteryPiece, 3.1));
        assert!(at(Spacing::Guard, 12.0) && !at(Spacing::Guard, 12.1));
        assert!(at(Spacing::Figure, 1.0) && !at(Spacing::Figure, 1.1));
        assert_eq!(in_cohesion(&[(Spacing::Figure, [f32::NAN, 0.0])]), Err(ForceError::BadPosition));
    }

    #[test]
    fn book_example_fyow_21_5_twenty_regulars_an_lmg_and_a_medium_mortar_cost_50() {
        // FYOW 21.5: "20 x 1 1/2 = 30 points, 1 x MMG = 5 points, 1 x MMtr =
        // 15 points, Total 50 points". 15 riflemen, a Bren team of 2 and a
        // 3-inch mortar team of 3 make the 20 Regulars.
        let c = codex();
        let e = Element::new(&c, "losses", Nation::British, &[(R, RIFLE); 15], &[("gb_bren", 2), ("gb_3in_mortar", 3)])
            .unwrap();
        assert_eq!(e.men(), 20);
        assert_eq!(e.cost(&c).unwrap(), Points::whole(50));
    }

    #[test]
    fn gunners_over_75mm_cost_as_regular_enhanced() {
        // HA "Cost of infantry": Regular (Enhanced), 3 pts, "man artillery
        // pieces as a gunner"; the 6pdr (57mm) is crewed by Regulars at 1½.
        let c = codex();
        let gun = |id: &str| Element::new(&c, "gun", Nation::British, &[], &[(id, 5)]).unwrap().cost(&c).unwrap();
        let entry = |id: &str| c.get(id).unwrap().cost();
        assert_eq!(gun("gb_25pdr"), entry("gb_25pdr") + Points::whole(15));
        assert_eq!(gun("gb_6pdr_atg"), entry("gb_6pdr_atg") + FigureGrade::Regular.cost() * 5);
    }

    #[test]
    fn a_company_officer_figure_costs_as_his_element() {
        let c = codex();
        let force = Force::new(&c, Nation::British, vec![platoon(&c, "1 Pl")], Vec::new()).unwrap();
        let without = force.cost(&c, &[]).unwrap();
        assert_eq!(force.cost(&c, &[company("1 Pl")]).unwrap(), without + FigureGrade::Regular.cost());
        assert!(matches!(force.cost(&c, &[company("9 Pl")]), Err(ForceError::UnknownElement(_))));
    }

    #[test]
    fn bad_elements_are_typed_errors() {
        let c = codex();
        let unknown = Element::new(&c, "x", Nation::British, &[(R, Some("gb_no_such_rifle"))], &[]);
        assert!(matches!(unknown, Err(ForceError::Codex(CodexError::UnknownId(id))) if id == "gb_no_such_rifle"));
        let crewed = Element::new(&c, "x", Nation::British, &[], &[("gb_bren", 3)]);
        assert!(matches!(crewed, Err(ForceError::TooManyCrew { crew: 3, allowed: 2, .. })));
        let gun_as_rifle = Element::new(&c, "x", Nation::British, &[(R, Some("gb_25pdr"))], &[]);
        assert!(matches!(gun_as_rifle, Err(ForceError::NotPersonalWeapon { figure: 0, .. })));
        assert!(matches!(Element::new(&c, "x", Nation::British, &[], &[]), Err(ForceError::Empty(_))));
        let mut p = platoon(&c, "1 Pl");
        p.cms = 7;
        assert!(matches!(p.validate(&c), Err(ForceError::CmsOutOfRange { cms: 7, .. })));
        let twice = Force::new(&c, Nation::British, vec![platoon(&c, "1 Pl"), platoon(&c, "1 Pl")], Vec::new());
        assert_eq!(twice, Err(ForceError::DuplicateId("1 Pl".into())));
    }

    #[test]
    fn rounds_start_at_the_days_allowance_and_cannot_exceed_it() {
        // HA "Normal restrictions on ammunition": "5 bounds of bazooka,
        // PzSchrecke, PIAT fire"; rifles unlimited.
        let c = codex();
        let mut e = Element::new(&c, "x", Nation::British, &[(R, Some("gb_piat")), (R, RIFLE)], &[]).unwrap();
        assert_eq!(e.figures[0].rounds, Some(5));
        assert_eq!(e.figures[1].rounds, None);
        e.figures[0].rounds = Some(6);
        assert!(matches!(e.validate(&c), Err(ForceError::RoundsBeyondDay { left: Some(6), allowed: Some(5), .. })));
    }

    #[test]
    fn a_rationed_element_has_half_its_rounds() {
        // HA "Restrictions applied in 'Rationed' state": "the number of rounds
        // shown in the Weapons Codex is halved (rounded up)"; 2020 addendum:
        // unlimited weapons "can only fire in half the number of bounds".
        let c = codex();
        let mut e = Element::new(&c, "x", Nation::British, &[(R, Some("gb_piat")), (R, RIFLE)], &[]).unwrap();
        e.ration(&c).unwrap();
        assert_eq!(e.figures[0].rounds, Some(3), "5 bounds of PIAT fire halved, rounded up");
        assert_eq!(e.figures[1].rounds, Some(12), "half the 24 bounds of the day");
        assert_eq!(e.validate(&c), Ok(()));
    }

    #[test]
    fn grenades_one_use_per_three_men() {
        let c = codex();
        assert_eq!(platoon(&c, "1 Pl").grenade_uses(), 2);
        let eleven = Element::new(&c, "x", Nation::British, &[(R, RIFLE); 9], &[("gb_bren", 2)]).unwrap();
        assert_eq!(eleven.grenade_uses(), 3);
    }

    #[test]
    fn the_nco_rating_modifier_needs_the_whole_element() {
        let c = codex();
        let elite = Element::new(
            &c,
            "x",
            Nation::British,
            &[(FigureGrade::EliteEnhanced, RIFLE), (FigureGrade::Elite, RIFLE)],
            &[],
        )
        .unwrap();
        assert_eq!(elite.makeup(), ElementMakeup::Whole(Quality::Elite));
        let mixed = Element::new(&c, "x", Nation::British, &[(FigureGrade::Elite, RIFLE), (R, RIFLE)], &[]).unwrap();
        assert_eq!(mixed.makeup(), ElementMakeup::Mixed);
        let mut militia = Element::new(&c, "x", Nation::British, &[(FigureGrade::Poor, RIFLE)], &[]).unwrap();
        militia.militia = true;
        assert_eq!(militia.makeup(), ElementMakeup::Militia);
    }

    #[test]
    fn an_element_is_of_its_own_troops_quality() {
        let c = codex();
        let grenadiers = Element::new(&c, "x", Nation::German, &[(R, RIFLE); 3], &[]).unwrap();
        assert_eq!(grenadiers.quality(Quality::Poor), Quality::Regular, "Regular troops of a Poor side");
        let paras = Element::new(&c, "x", Nation::British, &[(FigureGrade::RegularEnhanced, RIFLE); 2], &[]).unwrap();
        assert_eq!(paras.quality(Quality::Elite), Quality::Regular, "Regular (Enhanced) troops of an Elite side");
        let gun = Element::new(&c, "x", Nation::British, &[], &[("gb_6pdr_atg", 5)]).unwrap();
        assert_eq!(gun.quality(Quality::Elite), Quality::Elite, "crews of the side's grade");
        let mut militia = Element::new(&c, "x", Nation::British, &[(R, RIFLE)], &[]).unwrap();
        militia.militia = true;
        assert_eq!(militia.quality(Quality::Elite), Quality::Poor, "Poor, green or militia");
    }

    #[test]
    fn firing_teams_hold_at_most_ten_figures() {
        let c = codex();
        let e = Element::new(&c, "x", Nation::British, &[(R, RIFLE); 12], &[("gb_bren", 2)]).unwrap();
        let teams = firing_teams(&e, &c).unwrap();
        let rifles: Vec<u8> = teams.iter().filter(|t| t.row == Weapon::Rifle).map(|t| t.weapons).collect();
        assert_eq!(rifles, [10, 2]);
        assert!(teams.iter().any(|t| t.row == Weapon::Lmg && t.weapons == 1 && t.kind == TeamKind::Figures));
        assert!(teams.iter().all(|t| t.weapons <= MAX_TEAM));
    }

    #[test]
    fn guns_fire_in_threes_and_afvs_alone() {
        let c = codex();
        let battery = Element::new(&c, "bty", Nation::British, &[], &[("gb_25pdr", 5); 4]).unwrap();
        let teams = firing_teams(&battery, &c).unwrap();
        let sizes: Vec<u8> = teams.iter().map(|t| t.weapons).collect();
        assert_eq!(sizes, [3, 1]);
        assert!(teams.iter().all(|t| t.kind == TeamKind::Artillery));
        let troop = Element::new(&c, "tp", Nation::British, &[], &[("gb_sherman_v", 5), ("gb_sherman_v", 5)]).unwrap();
        let teams = firing_teams(&troop, &c).unwrap();
        let guns: Vec<_> = teams.iter().filter(|t| t.row == Weapon::AtGunClass2).collect();
        assert_eq!(guns.len(), 2, "each Sherman fires its gun separately");
        assert!(teams.iter().all(|t| t.kind == TeamKind::Afv && t.shooters.len() == 1));
        let mortars = Element::new(&c, "m", Nation::British, &[], &[("gb_3in_mortar", 3); 4]).unwrap();
        let teams = firing_teams(&mortars, &c).unwrap();
        assert_eq!((teams.len(), teams[0].kind, teams[0].weapons), (1, TeamKind::Figures, 4));
    }

    #[test]
    fn spent_and_uncrewed_weapons_do_not_fire() {
        let c = codex();
        let mut e = Element::new(&c, "x", Nation::British, &[(R, Some("gb_piat"))], &[("gb_bren", 2)]).unwrap();
        e.figures[0].rounds = Some(0);
        e.pieces[0].crew = 0;
        assert!(firing_teams(&e, &c).unwrap().is_empty());
    }

    #[test]
    fn an_armoured_transport_fires_only_when_carrying() {
        let c = codex();
        let mut force = Force::new(
            &c,
            Nation::British,
            vec![
                platoon(&c, "1 Pl"),
                transport(&c, "lorry", "gb_bedford_qld"),
                transport(&c, "carrier", "gb_universal_carrier"),
            ],
            Vec::new(),
        )
        .unwrap();
        assert!(firing_teams(force.element("carrier").unwrap(), &c).unwrap().is_empty());
        assert_eq!(force.transport_command("lorry").unwrap(), TransportCommand::EmptyAsRegular);
        force.embark(&c, "lorry", "1 Pl").unwrap();
        let nco = Officer::new(Rank::Nco, Grade::Cautious).unwrap();
        force.element_mut("1 Pl").unwrap().nco = Some(nco);
        assert_eq!(
            force.transport_command("lorry").unwrap(),
            TransportCommand::Passengers { element: "1 Pl", nco: Some(nco) }
        );
        assert_eq!(force.embark(&c, "carrier", "1 Pl"), Err(ForceError::AlreadyCarried("1 Pl".into())));
        assert_eq!(force.disembark("lorry").unwrap(), "1 Pl");
        assert_eq!(force.disembark("lorry"), Err(ForceError::TransportEmpty("lorry".into())));
    }

    #[test]
    fn a_transport_carries_what_fits_and_has_no_nco() {
        // A Bedford QLD carries 12 loads: 6 riflemen (6), a Bren (1) and its
        // crew of 2 (2) fit; 14 riflemen do not.
        let c = codex();
        let big = Element::new(&c, "big", Nation::British, &[(R, RIFLE); 14], &[]).unwrap();
        assert_eq!(platoon(&c, "1 Pl").load(&c).unwrap(), Loads::whole(9));
        let mut force = Force::new(
            &c,
            Nation::British,
            vec![platoon(&c, "1 Pl"), big, transport(&c, "lorry", "gb_bedford_qld")],
            Vec::new(),
        )
        .unwrap();
        assert!(matches!(force.embark(&c, "lorry", "big"), Err(ForceError::Load(LoadError::OverCapacity { .. }))));
        assert_eq!(force.embark(&c, "1 Pl", "big"), Err(ForceError::NotATransport("1 Pl".into())));
        let mut t = transport(&c, "t", "gb_bedford_qld");
        t.nco = Some(Officer::new(Rank::Nco, Grade::Regular).unwrap());
        assert_eq!(t.validate(&c), Err(ForceError::TransportHasNco("t".into())));
        let mut no_room = Element::new(&c, "g", Nation::British, &[], &[("gb_25pdr", 5)]).unwrap();
        no_room.role = Role::Transport { carrying: None };
        assert!(matches!(no_room.validate(&c), Err(ForceError::Load(LoadError::NotInCodex { .. }))));
    }

    #[test]
    fn cards_for_elements_officers_and_one_for_the_naval_gunfire() {
        let c = codex();
        let mut force = Force::new(
            &c,
            Nation::British,
            vec![
                platoon(&c, "1 Pl"),
                transport(&c, "lorry", "gb_bedford_qld"),
                transport(&c, "lorry 2", "gb_bedford_qld"),
            ],
            vec!["HMS Ajax".into(), "HMS Orion".into()],
        )
        .unwrap();
        force.embark(&c, "lorry", "1 Pl").unwrap();
        let participants = force.participants(&[company("1 Pl")]).unwrap();
        let carded: Vec<&str> = card_holders(&participants).iter().map(|p| p.id.as_str()).collect();
        assert_eq!(carded, ["1 Pl", "lorry 2", "A Coy", "HMS Ajax"]);
    }

    #[test]
    fn the_highest_command_and_when_it_is_prompted() {
        assert_eq!(HighestCommand::of(&[]), None);
        assert_eq!(HighestCommand::of(&[("1 Bn", "8 Bde")]), Some(HighestCommand::SeniorOfficer));
        assert_eq!(HighestCommand::of(&[("1 Bn", "8 Bde"), ("2 Bn", "8 Bde")]), Some(HighestCommand::BrigadeOfficer));
        assert_eq!(
            HighestCommand::of(&[("1 Bn", "8 Bde"), ("2 Bn", "9 Bde")]),
            Some(HighestCommand::DivisionalOfficer)
        );
        let b = HigherCommand::BrigadeOfficer;
        let d = HigherCommand::DivisionalOfficer;
        assert!(b.prompted(2, 1).unwrap() && !b.prompted(2, 2).unwrap());
        assert!(d.prompted(1, 1).unwrap() && d.prompted(8, 1).unwrap() && !d.prompted(2, 1).unwrap());
        assert_eq!(b.prompted(0, 1), Err(ForceError::BadTime { day: 0, bound: 1 }));
        assert_eq!(d.prompted(1, 25), Err(ForceError::BadTime { day: 1, bound: 25 }));
        assert_eq!(b.duties()[1], HigherDuty::AllocateBrigadeReserve);
        assert_eq!(d.duties()[1], HigherDuty::AllocateDivisionalReserve);
    }
}
