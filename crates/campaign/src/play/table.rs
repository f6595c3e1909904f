//! Engagements fought on the table (FYOW 15.6 and "The role of the
//! Umpire"): the campaign builds each battle's start from its board's table
//! and the forces' orders of battle, has it played four bounds a session by
//! a [`Tabletop`], and at its end takes the result back: men, pieces and
//! vehicles to the order of battle and its points, damaged vehicles to the
//! crews' repairs (FYOW 23), the FYOB condition to the battlegroup, the
//! loser's retreat (14.14), the board to whoever holds the table, damaged
//! aircraft to their squadrons.

use serde_json::json;
use warbound_rules::codex::{Codex, Points};
use warbound_rules::event::{EventKind, RuleEvent};
use warbound_rules::handoff::{BattleResult, BattleStart, Continuation, Decision, PieceState};
use warbound_rules::momentum::MAX_CMS;
use warbound_rules::scenario::{Figures, Ground, Weather};
use warbound_rules::strategic::StrategicCondition as Fyob;

use crate::army::orbat::{Template, TemplateElement, Templates};
use crate::map::board::BoardId;
use crate::map::common::Side;
use crate::map::movement::Retreat;
use crate::paper::dunnigan::{RetreatOrder, StrategicCondition};
use crate::play::state::{BattleRecord, Campaign, Force, fyow};
use crate::supply::logistics::Mode;
use crate::supply::repairs::RepairJob;
use crate::supply::replenishment::LossKind;
use crate::table::deploy::{BattleDay, TableCompany, TableForce, scenario_for, senior_officer};
use crate::table::record::{CompanyOnTable, Comparison, Outcome, TableBattle};
use crate::table::{BoardTable, TableError};
use crate::weather::Climate;

/// Bounds a campaign battle may last: a campaign day's six sessions of four
/// bounds (FYOW 1.2). Reading: a battle still undecided after a whole day is
/// broken off where it stands, neither side beaten.
pub const TIME_LIMIT: u32 = 24;

/// Bounds of table action in one campaign session (FYOW "The role of the
/// Umpire": "After 4 bounds of tabletop action, the player is directed back
/// to the campaign map").
pub const BOUNDS_A_SESSION: u32 = 4;

/// What plays the campaign's table battles: the battle engine, beside the
/// campaign, which never runs it itself.
pub trait Tabletop {
    fn codex(&self) -> &Codex;
    fn templates(&self) -> &Templates;
    /// The table of `board`: its authored layout or the generated one.
    fn board_table(&self, campaign: &Campaign, board: &BoardId) -> Result<BoardTable, TableError>;
    /// Plays `start`, with its continuations, to its next pause or its end.
    /// `key` names the battle, so a tabletop may keep it running between
    /// sessions rather than replay it.
    fn fight(&mut self, key: &str, start: &BattleStart) -> Result<BattleResult, String>;
    /// Whether each engagement is also resolved on paper, from the same
    /// state and seed, for the comparison.
    fn compare(&self) -> bool;
}

/// The stable 64-bit FNV-1a of some words: seeds that do not change with
/// the compiler, unlike the standard hasher's.
fn fnv(words: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in words {
        for b in w.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// The scenario's weather in this session: the sky of the day's spell as
/// the spotting tables name it (snow as heavy rain, fog as overcast), the
/// gauge, and fog, snow and high winds as the session's conditions give
/// them (FYOW 25.8).
fn weather(c: &Campaign) -> Weather {
    use crate::weather::Sky;
    use warbound_rules::aircraft::Weather as Spotting;
    let spell = c.today.as_ref().and_then(|d| d.spell(c.date.session()).ok());
    let sky = match spell.map(|s| s.sky) {
        Some(Sky::Overcast | Sky::Fog) => Spotting::Overcast,
        Some(Sky::LightRain) => Spotting::LightRain,
        Some(Sky::HeavyRain | Sky::Snow) => Spotting::HeavyRain,
        _ => Spotting::Fair,
    };
    let k = c.conditions;
    Weather {
        sky,
        rain_snow_gauge: c.today.as_ref().map(|d| d.gauge_at_start),
        fog: k.fog,
        snow: k.snow,
        high_winds: k.high_winds,
    }
}

/// What covers the table: lying snow all through a winter campaign (FYOW 26)
/// and on a temperate day snow falls, sand in the desert (27), grass else.
fn ground(c: &Campaign) -> Ground {
    let snowing = c.today.as_ref().is_some_and(|d| d.spells.iter().any(|s| s.sky == crate::weather::Sky::Snow));
    match c.file.climate {
        Climate::Winter => Ground::Snow,
        Climate::Desert => Ground::Sand,
        Climate::Temperate if snowing => Ground::Snow,
        Climate::Temperate => Ground::Grass,
    }
}

/// A company's CODEX cost, to scale its campaign points by what it lost; an
/// element with no one and nothing left costs nothing.
fn cost(
    codex: &Codex,
    templates: &Templates,
    template: &str,
    company: &[TemplateElement],
    quality: warbound_rules::officer::Quality,
) -> Option<Points> {
    let (nation, t) = templates.get(template)?;
    let elements: Vec<TemplateElement> =
        company.iter().filter(|e| !e.figures.is_empty() || !e.pieces.is_empty()).cloned().collect();
    if elements.is_empty() {
        return Some(Points::ZERO);
    }
    let now = Template { elements, ..t.clone() };
    now.points(codex, nation, quality).ok()
}

/// Takes men and pieces out of a company in proportion to the points it has
/// lost on the map, largest groups first. Reading (FYOW 33.10): a paper
/// battle books its losses in points against the campaign element; when
/// the element next fights on the table it fields that fraction of its
/// order of battle, the men of each section and then whole pieces.
fn thin(company: &mut [TemplateElement], keep: f64) {
    for e in company.iter_mut() {
        for f in e.figures.iter_mut() {
            f.men = (f64::from(f.men) * keep).round() as u8;
        }
        e.figures.retain(|f| f.men > 0);
    }
    let pieces: usize = company.iter().map(|e| e.pieces.len()).sum();
    let mut lose = pieces - (pieces as f64 * keep).round() as usize;
    for e in company.iter_mut().rev() {
        while lose > 0 && !e.pieces.is_empty() {
            e.pieces.pop();
            lose -= 1;
        }
    }
}

impl Campaign {
    /// The force's companies on the table, their orders of battle set up from
    /// their templates the first time they fight there.
    fn field(&mut self, i: usize, t: &dyn Tabletop) -> Vec<TableCompany> {
        let f = &self.forces[i];
        let quality = self.file.army(f.side).quality;
        let mut orbat = f.orbat.clone();
        for e in &f.battlegroup.elements {
            if orbat.iter().any(|c| c.element == e.name) {
                continue;
            }
            let Some(k) = f.kit.iter().find(|k| k.name == e.name) else { continue };
            let Some((_, template)) = k.table.as_deref().and_then(|id| t.templates().get(id)) else { continue };
            let mut elements = template.elements.clone();
            let keep = f64::from(e.points) / f64::from(k.points().max(1));
            if keep < 1.0 {
                thin(&mut elements, keep);
            }
            let (cms, shots_used) = (vec![None; elements.len()], vec![0; elements.len()]);
            orbat.push(CompanyOnTable { element: e.name.clone(), cms, shots_used, elements });
        }
        orbat.retain(|c| f.battlegroup.elements.iter().any(|e| e.name == c.element));
        self.forces[i].orbat = orbat.clone();
        let concealed = self.occupant(&self.forces[i].name).map(|o| o.concealed_elements.clone()).unwrap_or_default();
        orbat
            .into_iter()
            .filter(|c| c.elements.iter().any(|e| !e.figures.is_empty() || !e.pieces.is_empty()))
            .map(|c| TableCompany {
                officer: self.forces[i]
                    .kit
                    .iter()
                    .find(|k| k.name == c.element)
                    .map_or_else(|| crate::army::orbat::company_officer(quality), |k| k.officer(quality)),
                concealed: concealed.contains(&c.element),
                foo: self.forces[i].kit.iter().find(|k| k.name == c.element).and_then(|k| k.foo),
                element: c.element,
                elements: c.elements,
                cms: c.cms,
                shots_used: c.shots_used,
            })
            .collect()
    }

    pub(crate) fn table_force(&mut self, name: &str, board: &BoardId, t: &dyn Tabletop) -> Option<TableForce> {
        let i = self.fx(name)?;
        let mut companies = self.field(i, t);
        if super::landing::covert(self, i) {
            // A covert landing's boats still at sea stay out of the battle.
            let offshore = super::landing::offshore(self, i);
            companies.retain(|c| !offshore.contains(&c.element));
        }
        let f = &self.forces[i];
        let army = self.file.army(f.side);
        Some(TableForce {
            force: name.to_owned(),
            nation: army.nation.clone()?,
            quality: army.quality,
            year: self.file.year,
            senior_officer: senior_officer(f.commander.competency),
            companies,
            rationed: f.supply.mode == Mode::Rationed,
            milestone: army.milestone_pct,
            order: Some(f.order),
            objective_here: f.objective.as_ref() == Some(board),
            landing: super::landing::afloat(self, i, board),
        })
    }

    /// The start of battle `k` on the table: its board's table, both
    /// forces' orders of battle deployed by FYOW 15.3, the session's
    /// weather, a seed of the campaign's, the board's and the contact's.
    fn table_start(&mut self, k: usize, t: &dyn Tabletop) -> Result<TableBattle, String> {
        let b = self.battles[k].clone();
        let engagement = b.engagement.clone().ok_or("the board has no table (FYOW 13.8)")?;
        let table = t.board_table(self, &b.board).map_err(|e| e.to_string())?;
        let mut forces = Vec::new();
        for name in [&b.attacker, &b.defender] {
            let f = self.table_force(name, &b.board, t).ok_or_else(|| format!("{name} has no army nation"))?;
            if f.companies.is_empty() {
                return Err(format!("{name} has no element with a table order of battle"));
            }
            forces.push(f);
        }
        // 34.11: a partisan cell fights beside the side it helps.
        if let Some((side, company)) = self.partisan_company(b.partisans) {
            let helped = forces.iter_mut().find(|f| self.forces.iter().any(|x| x.name == f.force && x.side == side));
            if let Some(f) = helped {
                f.companies.push(company);
            }
        }
        let day = BattleDay {
            start_hour: self.date.start_hour(),
            season: self.date.season(),
            weather: weather(self),
            ground: ground(self),
            time_limit: TIME_LIMIT,
        };
        let seed = fnv(&[&self.seed.to_string(), &b.board.0, &b.contact.to_string()]);
        let (scenario, roster) = scenario_for(&engagement, &table, &forces, &day, t.codex(), seed)?;
        scenario.check(t.codex()).map_err(|e| format!("{}: {}", e.field, e.message))?;
        // The scenario's sides are Blue's, then Red's.
        let sides = vec![Side::Blue, Side::Red];
        let key = format!("{} {} {}", b.board.0, b.contact, b.attacker);
        let mut start = BattleStart::auto(&key, scenario, seed);
        start.pause_every = Some(BOUNDS_A_SESSION);
        Ok(TableBattle { key, start, roster, sides, last: None, paper: None })
    }

    /// One campaign session of battle `k` on the table: four bounds, then
    /// back to the map. Returns whether the battle is over, or why it cannot
    /// be fought on the table.
    pub(crate) fn table_session(&mut self, k: usize, t: &mut dyn Tabletop) -> Result<bool, String> {
        let start = self.prepare_table(k, t)?;
        let key = self.battles[k].table.as_ref().map(|b| b.key.clone()).unwrap_or_default();
        let result = t.fight(&key, &start)?;
        Ok(self.in_step(|c| c.finish_table(k, result, t)))
    }

    /// Battle `k`'s start for this session's bounds on the table: the
    /// battle's first (its table, both forces deployed, the seed), or the
    /// battle so far with this session's continuation (forces joining, the
    /// weather). An error says why the table cannot field it; then the
    /// battle is fought on paper instead ([`Campaign::paper_instead`]).
    pub(crate) fn prepare_table(&mut self, k: usize, t: &dyn Tabletop) -> Result<BattleStart, String> {
        let battle = match self.battles[k].table.take() {
            Some(mut battle) => {
                let joining = self.joiners(k, &mut battle, t);
                let c = Continuation { joining, weather: Some(weather(self)) };
                battle.start.continuations.push(c);
                battle
            }
            None => {
                let mut battle = self.table_start(k, t)?;
                if t.compare() {
                    battle.paper = Some(self.on_paper(k));
                }
                self.table_air(k, &mut battle, t.codex());
                self.log(
                    RuleEvent::new(EventKind::PaperBattle, fyow("15.6 Engagements on Map Boards"))
                        .actor(&self.battles[k].attacker)
                        .target(&self.battles[k].defender)
                        .input("board", &self.battles[k].board, "")
                        .input("seed", battle.start.seed, "the campaign's, the board's and the contact's")
                        .input("elements", battle.roster.0.len(), "")
                        .outcome(json!({ "to": "tabletop", "scenario": battle.start.scenario.name })),
                );
                battle
            }
        };
        let start = battle.start.clone();
        self.battles[k].table = Some(battle);
        let b = &self.battles[k];
        let fighting: Vec<String> = [&b.attacker, &b.defender].into_iter().chain(&b.joined).cloned().collect();
        for name in fighting {
            self.table_lands_waves(&name);
        }
        Ok(start)
    }

    /// Takes the result of battle `k`'s session on the table back: a pause
    /// waits for the next session; an end carries the losses, conditions,
    /// retreat and board back to the campaign. Returns whether it is over.
    pub(crate) fn finish_table(&mut self, k: usize, result: BattleResult, t: &dyn Tabletop) -> bool {
        let Some(mut battle) = self.battles[k].table.take() else { return false };
        battle.last = Some(result.clone());
        self.battles[k].combat_sessions += 1;
        if result.decided_by == Decision::Paused {
            self.log(
                RuleEvent::new(EventKind::PaperBattle, fyow("The role of the Umpire"))
                    .actor(&self.battles[k].attacker)
                    .target(&self.battles[k].defender)
                    .input("bounds_played", result.bounds_played, "4 bounds a session")
                    .outcome(json!({ "battle": "continues next session" })),
            );
            self.battles[k].table = Some(battle);
            return false;
        }
        self.battles[k].table = Some(battle.clone());
        self.take_result(k, &battle, &result, t);
        true
    }

    /// The end of a table battle carried back to the campaign.
    fn take_result(&mut self, k: usize, battle: &TableBattle, r: &BattleResult, t: &dyn Tabletop) {
        let b = self.battles[k].clone();
        let names = [b.attacker.clone(), b.defender.clone()];
        let before: Vec<u32> = names.iter().map(|n| self.force(n).map_or(0, Force::points)).collect();
        // The two forces and those that joined them (FYOW 15.7).
        let everyone: Vec<String> = names.iter().chain(&b.joined).cloned().collect();
        for name in &everyone {
            self.carry_losses(name, battle, r, t);
        }
        // The FYOB condition of each side to its battlegroups (Yellow is FYOW's Amber).
        for (s, side) in r.sides.iter().enumerate() {
            let Some(&campaign_side) = battle.sides.get(s) else { continue };
            let named = match side.condition {
                Fyob::Green => StrategicCondition::Green,
                Fyob::Yellow => StrategicCondition::Amber,
                Fyob::Red | Fyob::Withdrawn => StrategicCondition::Red,
            };
            for name in &everyone {
                let Some(i) = self.fx(name).filter(|&i| self.forces[i].side == campaign_side) else { continue };
                let was = self.forces[i].condition;
                self.forces[i].table_condition = self.forces[i].table_condition.max(named);
                self.forces[i].condition = was.max(named);
                if self.forces[i].condition > was && self.forces[i].is_battlegroup() {
                    self.army_mut(campaign_side).reduced_since_review = true;
                }
            }
        }
        for s in &r.squadrons {
            let Some(&side) = battle.sides.get(s.side) else { continue };
            self.in_step(|c| {
                c.table_air_damage(side, crate::table::air::squadron_of(&s.id), s.machines_lost, s.damaged)
            });
        }
        let winner_side = r.winner.and_then(|w| battle.sides.get(w).copied());
        let winner =
            winner_side.and_then(|s| names.iter().find(|n| self.force(n).is_some_and(|f| f.side == s))).cloned();
        let loser =
            winner_side.and_then(|s| names.iter().find(|n| self.force(n).is_some_and(|f| f.side != s))).cloned();
        self.partisans_from_table(b.partisans, battle, r);
        self.partisans_battle_over(b.partisans, winner.as_deref(), RetreatOrder::Disarray);
        let mut retreated = None;
        let mut joiners_retreated = Vec::new();
        if let (Some(w), Some(l)) = (&winner, &loser) {
            if self.force(l).is_some_and(|f| !f.is_gone()) {
                if self.table_retreat(l, &b.board) {
                    retreated = Some(l.clone());
                }
            } else {
                retreated = Some(l.clone());
            }
            // The forces that joined the beaten side were beaten with it: each
            // retires by its own Movement Test (14.14, 33.7 (xii)).
            let side = self.force(w).map(|f| f.side);
            for j in &b.joined {
                if self.force(j).is_some_and(|f| Some(f.side) != side && !f.is_gone())
                    && self.table_retreat(j, &b.board)
                {
                    joiners_retreated.push(j.clone());
                }
            }
            let winners: Vec<&String> = everyone.iter().filter(|n| self.force(n).map(|f| f.side) == side).collect();
            for name in winners {
                self.winner_takes(name, &b.board);
            }
        }
        let after: Vec<u32> = names.iter().map(|n| self.force(n).map_or(0, Force::points)).collect();
        let result = match (&winner, r.decided_by) {
            (Some(w), d) => format!("table: {w} wins ({d:?}, {} bounds)", r.bounds_played),
            (None, d) => format!("table: undecided ({d:?}, {} bounds)", r.bounds_played),
        };
        self.log(
            RuleEvent::new(EventKind::PaperBattle, fyow("15.6 Engagements on Map Boards"))
                .actor(&b.attacker)
                .target(&b.defender)
                .input("board", &b.board, "")
                .input("decided_by", r.decided_by, "")
                .input("bounds", r.bounds_played, "")
                .input("points_before", &before, "attacker, defender")
                .input("joined", &b.joined, "15.7")
                .outcome(json!({
                    "winner": winner,
                    "retreated": retreated,
                    "joiners_retreated": joiners_retreated,
                    "points_after": after
                })),
        );
        let table = Outcome {
            winner,
            losses: (before[0].saturating_sub(after[0]), before[1].saturating_sub(after[1])),
            retreated,
            length: r.bounds_played,
        };
        if let Some(paper) = battle.paper.clone() {
            self.comparisons.push(Comparison {
                board: b.board.clone(),
                attacker: b.attacker.clone(),
                defender: b.defender.clone(),
                began: b.contact.to_string(),
                table,
                paper,
            });
        }
        self.fought.push(BattleRecord {
            board: b.board.clone(),
            attacker: b.attacker.clone(),
            defender: b.defender.clone(),
            began: b.contact.to_string(),
            combat_sessions: b.combat_sessions,
            result,
        });
    }

    /// Battle `k` resolved on paper from the campaign as it stands, its
    /// Combat Sessions one after another, on a copy that is then dropped:
    /// the campaign goes on from the table's result.
    fn on_paper(&self, k: usize) -> Outcome {
        let mut copy = self.clone();
        copy.events.clear();
        let b = &self.battles[k];
        let names = [b.attacker.clone(), b.defender.clone()];
        let before: Vec<u32> = names.iter().map(|n| self.force(n).map_or(0, Force::points)).collect();
        let mut sessions = 0;
        // 33.7.3: every Combat Session ends the battle or brings another; a
        // day's six sessions bound it.
        while sessions < 6 {
            sessions += 1;
            if copy.fight_session(k) {
                break;
            }
        }
        let after: Vec<u32> =
            names.iter().map(|n| copy.force(n).filter(|f| !f.is_gone()).map_or(0, Force::points)).collect();
        let still = |n: &str| copy.force(n).and_then(|f| f.board()) == Some(&b.board);
        let retreated = names.iter().find(|n| !still(n)).cloned();
        let winner = retreated.as_ref().and_then(|l| names.iter().find(|n| *n != l && still(n))).cloned();
        Outcome {
            winner,
            losses: (before[0].saturating_sub(after[0]), before[1].saturating_sub(after[1])),
            retreated,
            length: sessions,
        }
    }

    /// Men, pieces and CMS from the battle to the force's order of battle;
    /// each campaign element's points fall in proportion to its CODEX cost
    /// (FYOW 33.2, 2.1); damaged vehicles go to the crews' repairs (23.1).
    fn carry_losses(&mut self, name: &str, battle: &TableBattle, r: &BattleResult, t: &dyn Tabletop) {
        let Some(i) = self.fx(name) else { return };
        let quality = self.file.army(self.forces[i].side).quality;
        let mut lost_points = 0u32;
        let mut damaged_companies = Vec::new();
        for c in 0..self.forces[i].orbat.len() {
            let company = self.forces[i].orbat[c].element.clone();
            let mine: Vec<_> =
                battle.roster.0.iter().filter(|e| e.force == name && e.campaign_element == company).collect();
            if mine.is_empty() {
                continue;
            }
            let template = self.forces[i].kit.iter().find(|k| k.name == company).and_then(|k| k.table.clone());
            let Some(template) = template else { continue };
            let was = self.forces[i].orbat[c].elements.clone();
            let mut damaged = Points::ZERO;
            for entry in mine {
                let Some(res) = r.elements.iter().find(|e| e.id == entry.scenario_element) else { continue };
                let Some(j) = was.iter().position(|e| e.id == entry.template_element) else { continue };
                let el = &mut self.forces[i].orbat[c].elements[j];
                el.figures = res.figures.iter().filter(|f| f.men > 0).cloned().collect::<Vec<Figures>>();
                let mut pieces = Vec::new();
                for (p, piece) in el.pieces.iter().enumerate() {
                    let Some(after) = res.pieces.get(p) else {
                        pieces.push(piece.clone());
                        continue;
                    };
                    // A piece with no one left to crew it is lost with them.
                    if after.state == PieceState::Lost || after.crew == 0 {
                        continue;
                    }
                    let mut piece = piece.clone();
                    piece.crew = Some(after.crew);
                    if after.state == PieceState::Damaged {
                        if !piece.damaged {
                            damaged += t.codex().get(&piece.codex).map_or(Points::ZERO, |e| e.cost());
                        }
                        piece.damaged = true;
                    }
                    pieces.push(piece);
                }
                el.pieces = pieces;
                self.forces[i].orbat[c].cms[j] = Some(res.cms.clamp(1, MAX_CMS));
                let shots = &mut self.forces[i].orbat[c].shots_used;
                shots.resize(shots.len().max(j + 1), 0);
                shots[j] = res.shots_used;
            }
            let now = self.forces[i].orbat[c].elements.clone();
            let (Some(full), Some(left)) = (
                cost(t.codex(), t.templates(), &template, &was, quality),
                cost(t.codex(), t.templates(), &template, &now, quality),
            ) else {
                continue;
            };
            let Some(el) = self.forces[i].battlegroup.elements.iter_mut().find(|e| e.name == company) else { continue };
            let keep = if full > Points::ZERO { f64::from(left.halves()) / f64::from(full.halves()) } else { 1.0 };
            let points = (f64::from(el.points) * keep).round() as u32;
            lost_points += el.points - points.min(el.points);
            el.points = points.min(el.points);
            if damaged > Points::ZERO {
                damaged_companies.push((company.clone(), damaged));
            }
        }
        for (company, value) in damaged_companies {
            if let Ok(job) = RepairJob::new(&company, value, MAX_CMS) {
                self.forces[i].repairs.retain(|j| j.vehicle != company);
                self.forces[i].repairs.push(job);
            }
        }
        self.forces[i].battlegroup.elements.retain(|e| e.points > 0);
        let kept: Vec<String> = self.forces[i].battlegroup.elements.iter().map(|e| e.name.clone()).collect();
        self.forces[i].orbat.retain(|c| kept.contains(&c.element));
        let root = self.root_battlegroup(i);
        self.forces[root].losses.record(
            &format!("losses of {name} on the table"),
            LossKind::Casualty,
            Points::whole(lost_points),
        );
        if self.forces[i].battlegroup.elements.is_empty() {
            self.remove_force(name, "no elements left after the battle on the table");
        } else {
            self.sync_points(name);
            self.milestone_tests(name);
        }
    }

    /// Machines lost or damaged over the table come off the squadron that
    /// flew there, named by the table squadron's id, else off the side's
    /// squadrons; the first flying machines first.
    fn table_air_damage(&mut self, side: Side, squadron: &str, lost: u32, damaged: u32) {
        let Some(mut air) = self.army_mut(side).air.take() else { return };
        let mut hits: Vec<u8> =
            std::iter::repeat_n(u8::MAX, lost as usize).chain(std::iter::repeat_n(1, damaged as usize)).collect();
        let named = air.squadrons.iter().any(|(sq, _)| sq.name == squadron);
        'squadrons: for (sq, _) in air.squadrons.iter_mut().filter(|(sq, _)| !named || sq.name == squadron) {
            for m in 0..sq.aircraft.len() {
                if hits.is_empty() {
                    break 'squadrons;
                }
                if sq.aircraft[m].status != crate::air::squadron::Status::Operational {
                    continue;
                }
                let d = hits.remove(0);
                if let Ok((_, e)) = sq.take_damage(m, d.min(sq.aircraft[m].strength.saturating_add(1))) {
                    self.log(e.input("over", "a table battle", ""));
                }
            }
        }
        self.army_mut(side).air = Some(air);
    }

    /// The loser retires from the board (FYOW 14.14): a Movement Test with
    /// +1, arriving in disorder. Returns whether it left the board.
    fn table_retreat(&mut self, name: &str, from: &BoardId) -> bool {
        self.retreat_as(name, RetreatOrder::Disarray, from, Retreat::StrategicCondition)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::orbat::{shipped, test_codex};
    use crate::table::{layout::board_seed, table_of};
    use warbound_rules::handoff::{Fate, PieceResult};

    /// Bounds of fire each of the winner's elements used.
    const WINNER_SHOTS: u32 = 3;

    /// A tabletop that plays no battle: each ends at once, side 0 the
    /// winner (each element using [`WINNER_SHOTS`] bounds of fire), side 1 losing half of every element's men and every piece,
    /// and falling to Red.
    struct Decisive {
        codex: Codex,
        templates: Templates,
        fought: Vec<BattleStart>,
    }

    impl Tabletop for Decisive {
        fn codex(&self) -> &Codex {
            &self.codex
        }
        fn templates(&self) -> &Templates {
            &self.templates
        }
        fn board_table(&self, c: &Campaign, board: &BoardId) -> Result<BoardTable, TableError> {
            table_of(&c.file.map, board, board_seed(c.seed, board))
        }
        fn fight(&mut self, _key: &str, start: &BattleStart) -> Result<BattleResult, String> {
            self.fought.push(start.clone());
            let s = &start.scenario;
            let mut elements = Vec::new();
            for (i, side) in s.sides.iter().enumerate() {
                for company in &side.companies {
                    for e in &company.elements {
                        let men: u32 = e.figures.iter().map(|f| u32::from(f.men)).sum();
                        let figures = if i == 1 {
                            e.figures.iter().map(|f| Figures { men: f.men / 2, ..f.clone() }).collect()
                        } else {
                            e.figures.clone()
                        };
                        let state = if i == 1 { PieceState::Lost } else { PieceState::Intact };
                        elements.push(warbound_rules::handoff::ElementResult {
                            id: e.id.clone(),
                            side: i,
                            fate: Fate::OnTable,
                            men_start: men,
                            men: if i == 1 { men / 2 } else { men },
                            vehicles: 0,
                            vehicles_damaged: 0,
                            cms: if i == 1 { 2 } else { 6 },
                            shots_used: if i == 0 { WINNER_SHOTS } else { 0 },
                            figures,
                            pieces: e
                                .pieces
                                .iter()
                                .map(|p| {
                                    let crew = p.crew.unwrap_or_else(|| self.codex.get(&p.codex).map_or(0, |x| x.crew));
                                    PieceResult { codex: p.codex.clone(), state, crew }
                                })
                                .collect(),
                            company: company.id.clone(),
                        });
                    }
                }
            }
            let sides = s
                .sides
                .iter()
                .enumerate()
                .map(|(i, side)| warbound_rules::handoff::SideResult {
                    name: side.name.clone(),
                    cmt_start: 60,
                    cmt: if i == 1 { 10 } else { 60 },
                    condition: if i == 1 { Fyob::Red } else { Fyob::Green },
                    withdrew: i == 1,
                    holds_table: i == 0,
                    men_lost: 0,
                })
                .collect();
            Ok(BattleResult {
                scenario: s.name.clone(),
                seed: start.seed,
                bounds_played: 3,
                winner: Some(0),
                decided_by: Decision::Withdrawal,
                sides,
                elements,
                squadrons: Vec::new(),
            })
        }
        fn compare(&self) -> bool {
            false
        }
    }

    #[test]
    fn a_table_result_comes_back_to_the_campaign() {
        let file = crate::play::testing::guernsey();
        let mut table = Decisive { codex: test_codex(), templates: shipped(), fought: Vec::new() };
        let mut checked = 0;
        for seed in 0..6 {
            let mut c = Campaign::new("guernsey-1942", file.clone(), seed).unwrap();
            for _ in 0..10 {
                c.play_day_with(Some(&mut table));
                if !c.fought.is_empty() {
                    break;
                }
            }
            let Some(record) = c.fought.first().cloned() else { continue };
            let start = table.fought.last().unwrap();
            assert_eq!(start.pause_every, Some(BOUNDS_A_SESSION));
            assert_eq!(start.scenario.time_limit, TIME_LIMIT);
            assert!(record.result.starts_with("table: "), "{}", record.result);
            let events = c.drain_events();
            let taken = events.iter().find(|e| e.outcome.get("points_after").is_some()).expect("the result is logged");
            let before: Vec<u32> =
                serde_json::from_value(taken.inputs.iter().find(|i| i.name == "points_before").unwrap().value.clone())
                    .unwrap();
            let after: Vec<u32> = serde_json::from_value(taken.outcome["points_after"].clone()).unwrap();
            // The winner (scenario side 0) lost nothing; the loser half its men and every piece.
            // Scenario side 1 is Red's.
            let l = if c.force(&record.attacker).is_some_and(|f| f.side == Side::Red) { 0 } else { 1 };
            let w = 1 - l;
            assert_eq!(after[w], before[w], "seed {seed}: the winner lost nothing");
            assert!(after[l] < before[l], "seed {seed}: {} of {}", after[l], before[l]);
            // The loser's companies carry their losses and CMS to the next battle.
            let loser = if l == 0 { &record.attacker } else { &record.defender };
            if let Some(f) = c.force(loser) {
                assert!(f.orbat.iter().all(|co| co.cms.contains(&Some(2))), "{:?}", f.orbat);
                assert!(f.orbat.iter().all(|co| co.elements.iter().all(|e| e.off_table || e.pieces.is_empty())));
                assert!(f.condition == StrategicCondition::Red, "Red on the table is Red on the map");
            }
            checked += 1;
        }
        assert!(checked >= 3, "{checked} seeds had a battle on the table");
    }

    #[test]
    fn a_partisan_cell_fights_on_the_table_beside_the_side_it_helps() {
        // 34.11: "Partisan forces can engage with the enemy either directly
        // on the table or using the 'Dunnigan Rules'", as Regular Enhanced
        // troops. Here the resistance helps the side the tabletop beats, so
        // the cell loses half its men and retreats with it, in disarray.
        use crate::paper::partisans::Standing;
        use crate::play::partisans_in_battle::CELL_ELEMENT;
        use warbound_rules::codex::FigureGrade;
        let mut t = Decisive { codex: test_codex(), templates: shipped(), fought: Vec::new() };
        let mut c = Campaign::new("guernsey-1942", crate::play::testing::guernsey(), 2).unwrap();
        for name in ["4th Dorsets", "I./IR 582"] {
            let i = c.fx(name).unwrap();
            c.forces[i].battlegroup.elements.truncate(2);
            c.sync_points(name);
        }
        let p = c.partisans.as_mut().unwrap();
        p.helps = Side::Red;
        for cell in &mut p.cells {
            (cell.members, cell.radio, cell.standing) = (6, true, Standing::Free);
        }
        let board = BoardId::new("St Peter Port");
        c.relocate("4th Dorsets", &BoardId::new("West Sea"), &board, crate::map::common::Edge::West).unwrap();
        c.start_battle("4th Dorsets", "I./IR 582");
        let cell = c.battles[0].partisans.expect("a cell joins");
        assert!(c.table_session(0, &mut t).unwrap(), "the tabletop decides it at once");
        let roster = &c.battles[0].table.as_ref().unwrap().roster;
        let fielded: Vec<(usize, &warbound_rules::scenario::ElementSpec)> = t.fought[0]
            .scenario
            .sides
            .iter()
            .enumerate()
            .flat_map(|(s, side)| side.companies.iter().flat_map(move |co| co.elements.iter().map(move |e| (s, e))))
            .filter(|(_, e)| roster.get(&e.id).is_some_and(|r| r.template_element == CELL_ELEMENT))
            .collect();
        assert_eq!(fielded.len(), 1, "one element of partisans");
        let (side, element) = fielded[0];
        assert_eq!(side, 1, "on Red's side, the side it helps");
        assert_eq!(element.figures.len(), 1);
        let men = &element.figures[0];
        assert_eq!((men.men, men.weapon.as_deref()), (6, Some("gb_smle_rifle")));
        assert_eq!(men.grade, Some(FigureGrade::RegularEnhanced));
        let cell = &c.partisans.as_ref().unwrap().cells[cell];
        assert_eq!(cell.members, 3, "the men who came through the battle");
        assert_eq!(cell.standing, Standing::Dispersed, "beaten on the table: in disarray");
    }

    #[test]
    fn the_table_is_laid_in_snow_in_winter_and_sand_in_the_desert() {
        use crate::play::testing::{ardennes, cyrenaica, guernsey};
        for (file, cover) in [(ardennes(), Ground::Snow), (cyrenaica(), Ground::Sand), (guernsey(), Ground::Grass)] {
            let name = file.name.clone();
            let mut table = Decisive { codex: test_codex(), templates: shipped(), fought: Vec::new() };
            for seed in 0..4 {
                let mut c = Campaign::new("shipped", file.clone(), seed).unwrap();
                c.play_days(1);
                c.play_day_with(Some(&mut table));
            }
            assert!(!table.fought.is_empty(), "{name}: a battle on the table");
            for start in &table.fought {
                let snowing = start.scenario.weather.snow;
                let wanted = if cover == Ground::Grass && snowing { Ground::Snow } else { cover };
                assert_eq!(start.scenario.ground, wanted, "{name}: {}", start.scenario.briefing);
            }
        }
    }

    #[test]
    fn shots_used_carry_to_the_next_battle_until_the_force_is_supplied() {
        // FYOW 20.4: shots are "reset to the maximum" when the weapon
        // "receives its full daily requirement"; Heroes All, "Forces acting
        // whilst rationed": "carried forward and not topped back up".
        use crate::supply::logistics::Mode;
        let file = crate::play::testing::guernsey();
        let mut table = Decisive { codex: test_codex(), templates: shipped(), fought: Vec::new() };
        let mut checked = 0;
        for seed in 0..6 {
            let mut c = Campaign::new("guernsey-1942", file.clone(), seed).unwrap();
            for _ in 0..10 {
                c.play_day_with(Some(&mut table));
                if !c.fought.is_empty() {
                    break;
                }
            }
            let Some(record) = c.fought.first().cloned() else { continue };
            // The winner's elements that fought carry the bounds they used.
            let winner = [&record.attacker, &record.defender]
                .into_iter()
                .find(|n| c.force(n).is_some_and(|f| f.orbat.iter().any(|co| co.shots_used.contains(&WINNER_SHOTS))));
            let Some(winner) = winner.cloned() else { continue };
            let board = c.force(&winner).and_then(|f| f.board().cloned()).unwrap();
            // Its next battle today starts with them used, element by element.
            let force = c.table_force(&winner, &board, &table).unwrap();
            let i = c.fx(&winner).unwrap();
            for (company, on_table) in force.companies.iter().zip(&c.forces[i].orbat) {
                assert_eq!(company.shots_used, on_table.shots_used, "{}", company.element);
            }
            assert!(force.companies.iter().any(|co| co.shots_used.contains(&WINNER_SHOTS)));
            // Rationed, they are carried forward; supplied, reset.
            let mut orbat = c.forces[i].orbat.clone();
            crate::table::record::daily_shots(&mut orbat, Mode::Rationed);
            assert_eq!(orbat, c.forces[i].orbat, "rationed: not topped back up");
            for mode in [Mode::Active, Mode::Rest] {
                let mut orbat = c.forces[i].orbat.clone();
                crate::table::record::daily_shots(&mut orbat, mode);
                assert!(orbat.iter().all(|co| co.shots_used.iter().all(|&n| n == 0)), "{mode:?}: reset");
            }
            // The campaign's own daily supply does the same by each force's mode.
            let before: Vec<_> = c.forces.iter().map(|f| f.orbat.clone()).collect();
            c.daily_supply();
            c.pickets_supplied();
            for (f, was) in c.forces.iter().zip(before) {
                let used =
                    |o: &[CompanyOnTable]| -> Vec<Vec<u32>> { o.iter().map(|co| co.shots_used.clone()).collect() };
                if f.supply.mode == Mode::Rationed {
                    assert_eq!(used(&f.orbat), used(&was), "{}", f.name);
                } else {
                    assert!(f.orbat.iter().all(|co| co.shots_used.iter().all(|&n| n == 0)), "{}", f.name);
                }
            }
            checked += 1;
        }
        assert!(checked >= 2, "{checked} seeds had a winner carrying shots");
    }

    /// FYOW 24.1, 29.16: a covert landing's troop still at sea in its rubber
    /// boats is out of a battle on its cove; the troop ashore fights, and no
    /// landing craft come to the table's beach.
    #[test]
    fn a_covert_landings_troop_at_sea_stays_out_of_the_battle_on_its_cove() {
        let raid = "5 and 6 Troops, No. 3 Commando";
        let jerbourg = BoardId::new("Jerbourg");
        let table = Decisive { codex: test_codex(), templates: shipped(), fought: Vec::new() };
        let mut c = Campaign::new("guernsey-1942", crate::play::testing::guernsey(), 1).unwrap();
        let i = c.fx(raid).unwrap();
        c.relocate(raid, &BoardId::new("South Coast waters"), &jerbourg, crate::map::common::Edge::South).unwrap();
        c.begin_unloading(i);
        let force = c.table_force(raid, &jerbourg, &table).unwrap();
        let fielded: Vec<&str> = force.companies.iter().map(|co| co.element.as_str()).collect();
        assert_eq!(fielded, ["5 Troop"], "6 Troop is still in its boats");
        assert!(force.landing.is_none(), "no landing craft on a cove");
        c.table_lands_waves(raid);
        assert_eq!(c.waves_ashore(raid), Some((1, 2)), "the boats come in by the cove's unloading, not the table's");
    }
}
