//! Bombing raids (FYOW 28.8; 6.7 "a pre-action bombardment on a specific
//! Map Board"): a squadron carrying bombs flies over a Map Board in the
//! morning; the enemy's AA there fires as it comes over (28.10); the targets
//! on the board, the enemy forces in sight and the railway his trains run
//! on, are numbered by a D6; the machines still flying drop their bombs, 3D6
//! a bomb, a double hitting the target of its number; each hit's damage on
//! the HE Effects chart is points off the force's value, or cuts the line
//! (30.2). The player orders raids squadron by squadron; the Auto raids the
//! enemy it knows of on its forces' roads.

use serde_json::json;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::air::Role;
use crate::air::missions::{BombType, allocate_targets, bomb_damage, drop_bombs, targets_for};
use crate::map::board::BoardId;
use crate::map::common::Side;
use crate::play::state::{Campaign, CampaignError, fyow, ix};

/// The ground target a bomb may hit besides the enemy's forces.
pub const RAILWAY: &str = "the railway line";

const RAIDS: &str = "28.8 Aircraft Missions, Bombing raids";

/// The roles that fly bombing raids, when their aircraft carry bombs.
pub fn bombing_role(role: Role) -> bool {
    matches!(role, Role::Bomber | Role::DiveBomber | Role::FighterBomber | Role::GroundAttack)
}

impl Campaign {
    /// The bombs each machine of `side`'s squadron `name` carries on a raid:
    /// its CODEX aircraft's, when its role flies raids.
    pub fn bomb_load(&self, side: Side, name: &str) -> Option<(BombType, u8)> {
        let file = self.file.armies.iter().find(|a| a.side == side)?;
        let sq = file.squadrons.iter().find(|s| s.name == name)?;
        sq.bombs.filter(|&(_, n)| n > 0 && bombing_role(sq.role))
    }

    /// The side whose Air Command has the squadron called `name`.
    pub fn squadron_side(&self, name: &str) -> Option<Side> {
        self.armies
            .iter()
            .find(|a| a.air.as_ref().is_some_and(|air| air.squadrons.iter().any(|(s, _)| s.name == name)))
            .map(|a| a.side)
    }

    /// FYOW 28.8: the squadron called `squadron` is to raid `board` each
    /// morning it may fly, or no longer raid (`None`). Refused unless the
    /// squadron carries bombs and the board is on the map.
    pub(crate) fn order_raid(&mut self, squadron: &str, board: Option<BoardId>) -> Result<(), CampaignError> {
        let refuse = |why: String| Err(CampaignError::new("28.8", why));
        let Some(side) = self.squadron_side(squadron) else {
            return refuse(format!("no squadron is called {squadron:?}"));
        };
        if self.bomb_load(side, squadron).is_none() {
            return refuse(format!("{squadron} carries no bombs"));
        }
        if let Some(b) = &board
            && !self.occupation.contains_key(b)
        {
            return refuse(format!("no Map Board is called {b}"));
        }
        let Some(air) = self.armies[ix(side)].air.as_mut() else {
            return refuse(format!("{squadron} has no Air Command"));
        };
        match board {
            Some(b) => air.raids.insert(squadron.to_owned(), b),
            None => air.raids.remove(squadron),
        };
        Ok(())
    }

    /// The raids army `a` flies this morning, by squadron and board: the
    /// player's orders for his army; the Auto's one raid, with its bombing
    /// squadron of the most machines, on [`Campaign::raid_target`].
    fn raids_today(&self, a: usize) -> Vec<(usize, BoardId)> {
        let side = self.armies[a].side;
        let Some(air) = self.armies[a].air.as_ref() else { return Vec::new() };
        if self.player == Some(side) {
            return air
                .raids
                .iter()
                .filter_map(|(name, board)| {
                    air.squadrons.iter().position(|(s, _)| &s.name == name).map(|g| (g, board.clone()))
                })
                .filter(|(g, _)| {
                    let sq = &air.squadrons[*g].0;
                    !sq.used_today && sq.operational() > 0 && !self.strip_closed(a, &sq.name)
                })
                .collect();
        }
        let Some(g) = self.squadron_for(a, bombing_role) else { return Vec::new() };
        if self.bomb_load(side, &air.squadrons[g].0.name).is_none() {
            return Vec::new();
        }
        self.raid_target(a).map(|b| vec![(g, b)]).unwrap_or_default()
    }

    /// The board the Auto's army `a` raids: the first board on one of its
    /// forces' roads to their objectives where it knows an enemy force to
    /// be, and none of its own forces stands (those are fought over with
    /// Air Artillery, 28.8).
    ///
    /// Reading (FYOW 6.7, 28.8): the Auto bombs ahead of its advance, on
    /// the enemy its army has detected (16, 17, 28.8 recce), never blind
    /// (test `the_auto_bombs_the_enemy_it_knows_ahead_of_its_advance`).
    fn raid_target(&self, a: usize) -> Option<BoardId> {
        let side = self.armies[a].side;
        let known = &self.armies[a].known;
        self.forces.iter().filter(|f| f.side == side && !f.is_gone()).find_map(|f| {
            let (here, to) = (f.board()?, f.objective.as_ref()?);
            let v = f.mover().profile().is_ok_and(|p| p.v_barred);
            let route = self.road_route(here, to, v)?;
            let ahead = route.into_iter().map(|l| l.to).find(|b| known.values().any(|(k, _)| k == b))?;
            self.forces_on(&ahead, side).is_empty().then_some(ahead)
        })
    }

    /// What a raid by `side` on `board` may hit, in the order its bombers
    /// choose among targets sharing a number: the enemy's forces in sight,
    /// the largest first, then the railway line where it carries his supply
    /// train and not `side`'s own.
    ///
    /// Reading (FYOW 28.8 "a hit on any one of the targets allocated to a
    /// 5"; 30.2 "Disruption ... can occur from bombing"): entirely concealed
    /// forces are not seen from the air and are not targets (28.8 recce); a
    /// hit on the railway cuts the line as a large charge does, and the line
    /// is mended as 30.5 says (test `a_raid_numbers_its_targets_and_its_hits_do_damage`).
    pub fn raid_targets(&self, side: Side, board: &BoardId) -> Vec<String> {
        let Some(occupation) = self.occupation.get(board) else { return Vec::new() };
        let mut forces: Vec<(u32, String)> = occupation
            .occupants
            .iter()
            .filter(|o| o.side != side && !o.entirely_concealed)
            .filter_map(|o| self.force(&o.force).filter(|f| !f.is_gone()).map(|f| (f.points(), f.name.clone())))
            .collect();
        forces.sort_by(|x, y| y.0.cmp(&x.0).then_with(|| x.1.cmp(&y.1)));
        let mut targets: Vec<String> = forces.into_iter().map(|(_, name)| name).collect();
        let railway = self.railway_at(board)
            && !self.cut_lines.contains_key(board)
            && self.armies[ix(side.enemy())].train.is_some()
            && self.armies[ix(side)].train.is_none();
        if railway {
            targets.push(RAILWAY.to_owned());
        }
        targets
    }

    /// FYOW 28.8 in the morning, after 28.4's throw to fly: each army's
    /// raids, when the throw lets its aircraft fly in `conditions`.
    pub(crate) fn bombing_raids(&mut self, conditions: crate::air::Conditions) {
        for a in 0..self.armies.len() {
            let flies = self.armies[a]
                .air
                .as_ref()
                .and_then(|air| air.flying)
                .is_some_and(|t| t.permits(crate::air::flying::Flight::Aircraft, conditions));
            if !flies {
                continue;
            }
            for (g, board) in self.raids_today(a) {
                self.bombing_raid(a, g, &board);
            }
        }
    }

    /// FYOW 28.8: squadron `g` of army `a` raids `board`.
    pub(crate) fn bombing_raid(&mut self, a: usize, g: usize, board: &BoardId) {
        let side = self.armies[a].side;
        let Some(id) = self.armies[a].air.as_ref().map(|air| air.squadrons[g].0.name.clone()) else { return };
        let Some((bomb, per_machine)) = self.bomb_load(side, &id) else { return };
        let Some(sq) = self.armies[a].air.as_mut().map(|air| &mut air.squadrons[g].0) else { return };
        sq.fly_sortie();
        let machines = sq.operational();
        self.log(
            RuleEvent::new(EventKind::AirOperation, fyow("28.8 Aircraft missions"))
                .actor(&id)
                .input("mission", "Bombing raid", "a pre-action bombardment (6.7)")
                .input("board", board, "")
                .outcome(json!({ "machines": machines })),
        );
        // 28.10: the enemy's AA on the board fires as the machines come over.
        self.flak(board, a, g, false);
        let flying = self.armies[a].air.as_ref().map_or(0, |air| air.squadrons[g].0.flying().len());
        if flying == 0 {
            return;
        }
        let targets = self.raid_targets(side, board);
        if targets.is_empty() {
            self.log(
                RuleEvent::new(EventKind::AirOperation, fyow(RAIDS))
                    .actor(&id)
                    .input("board", board, "the Map Board raided")
                    .outcome(json!({ "targets": 0 })),
            );
            return;
        }
        let (allocated, e) = allocate_targets(&targets, &mut self.dice, &id);
        self.log(e.input("board", board, "the Map Board raided"));
        let bombs = u8::try_from(flying * usize::from(per_machine)).unwrap_or(u8::MAX);
        let (hits, e) = drop_bombs(bombs, &mut self.dice, &id);
        self.log(e.input("machines", flying, "each drops its load").input("board", board, ""));
        for number in hits {
            let Some(target) = targets_for(number, &allocated).into_iter().next() else { continue };
            if target == RAILWAY && self.cut_lines.contains_key(board) {
                continue;
            }
            let (points, e) = bomb_damage(bomb, false, &mut self.dice, &id);
            let total: u32 = points.iter().map(|&p| u32::from(p)).sum();
            let e = e.target(&target).input("board", board, "").input("number", number, "the target's number");
            if target == RAILWAY {
                self.log(e.input("cut", true, "a hit cuts the line (30.2)"));
                self.cut_lines.insert(board.clone(), Default::default());
            } else {
                self.log(e);
                self.book_losses(&target, total, None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::air::Conditions;
    use crate::air::flying::{Chart, FlyingThrow};
    use crate::air::squadron::Status;
    use crate::map::common::Edge;
    use crate::play::command::Command;
    use crate::weather::{Sky, Wind, throw_day};

    /// Guernsey on a fine, calm day, every machine ready and both Air
    /// Commands let fly; the Dorsets landed at Cobo Bay.
    fn guernsey(seed: u64) -> Campaign {
        let mut c = Campaign::new("guernsey-1942.ron", crate::play::testing::guernsey(), seed).unwrap();
        c.relocate("4th Dorsets", &BoardId::new("West Sea"), &BoardId::new("Cobo Bay"), Edge::West).unwrap();
        let (mut day, _) = throw_day(&mut c.dice, c.file.climate, 8, None, &[]).unwrap();
        for spell in &mut day.spells {
            spell.sky = Sky::Fair;
            spell.low_cloud = false;
        }
        day.wind = Wind::Calm;
        c.today = Some(day);
        for army in &mut c.armies {
            let Some(air) = army.air.as_mut() else { continue };
            air.flying = Some(FlyingThrow { face: 6, chart: Chart::Standard });
            for (sq, _) in &mut air.squadrons {
                for m in &mut sq.aircraft {
                    m.status = Status::Operational;
                }
            }
        }
        c.drain_events();
        c
    }

    fn input<'e>(e: &'e RuleEvent, name: &str) -> Option<&'e serde_json::Value> {
        e.inputs.iter().find(|i| i.name == name).map(|i| &i.value)
    }

    fn bomber(c: &Campaign, side: Side) -> (usize, String) {
        let air = c.army(side).air.as_ref().unwrap();
        let g = air.squadrons.iter().position(|(s, _)| c.bomb_load(side, &s.name).is_some()).expect("a bomber");
        (g, air.squadrons[g].0.name.clone())
    }

    /// A board holding a force of `side`'s enemy and none of `side`'s.
    fn enemy_board(c: &Campaign, side: Side) -> (BoardId, String) {
        c.occupation
            .iter()
            .find(|(_, o)| o.occupants.iter().all(|x| x.side != side) && o.occupants.iter().any(|x| x.side != side))
            .map(|(b, o)| (b.clone(), o.occupants.iter().find(|x| x.side != side).unwrap().force.clone()))
            .expect("a board the enemy holds")
    }

    #[test]
    fn squadrons_carry_their_codex_aircrafts_bombs() {
        let c = guernsey(1);
        let loads: Vec<_> = c
            .file
            .armies
            .iter()
            .flat_map(|a| a.squadrons.iter().map(move |s| (a.side, s)))
            .map(|(side, s)| (s.name.clone(), c.bomb_load(side, &s.name)))
            .collect();
        // The Hurricane IIB's two 250lb bombs; the Fw 190's one 250 kg bomb;
        // the Spitfires and the PR flight carry none.
        let load = |name: &str| loads.iter().find(|(n, _)| n.contains(name)).unwrap().1;
        assert_eq!(load("No. 175"), Some((BombType::Medium, 2)));
        assert_eq!(load("Jabo"), Some((BombType::Heavy, 1)));
        assert_eq!(load("No. 234"), None);
        assert_eq!(load("PRU"), None);
    }

    #[test]
    fn a_raid_numbers_its_targets_and_its_hits_do_damage() {
        // FYOW 28.8: every target numbered by a D6, 3D6 a bomb, a double a
        // hit on its number's target, each hit's damage on the HE chart.
        let mut damaged = 0;
        for seed in 1..=12 {
            let mut c = guernsey(seed);
            let side = Side::Blue;
            let (g, id) = bomber(&c, side);
            let (board, force) = enemy_board(&c, side);
            let before = c.force(&force).unwrap().points();
            c.bombing_raid(ix(side), g, &board);
            let events = c.drain_events();
            let raid: Vec<_> = events.iter().filter(|e| e.rule.section == RAIDS).collect();
            assert!(raid.iter().all(|e| e.actor.as_deref() == Some(id.as_str())));
            let hits: u32 = raid.iter().filter(|e| e.target.as_deref() == Some(force.as_str())).count() as u32;
            let points: u32 = raid
                .iter()
                .filter(|e| e.target.as_deref() == Some(force.as_str()))
                .map(|e| e.outcome["total"].as_u64().unwrap() as u32)
                .sum();
            let after = c.force(&force).unwrap().points();
            assert!(before - after <= points, "the bombs take no more than their points");
            // A hit of a single point takes nothing off (`book_losses` takes a loss of 2 or more).
            let telling = raid
                .iter()
                .any(|e| e.target.as_deref() == Some(force.as_str()) && e.outcome["total"].as_u64().unwrap() > 1);
            if hits > 0 && telling {
                assert!(after < before, "seed {seed}: {points} points of hits took nothing off {force}");
                damaged += 1;
            }
            assert!(c.army(side).air.as_ref().unwrap().squadrons[g].0.used_today, "the raid is the day's sortie");
        }
        assert!(damaged > 0, "in twelve raids some bombs hit");
    }

    #[test]
    fn the_auto_bombs_the_enemy_it_knows_ahead_of_its_advance() {
        let mut c = guernsey(2);
        let side = Side::Blue;
        let a = ix(side);
        assert_eq!(c.raid_target(a), None, "nothing known of the enemy: no raid");
        // The Dorsets' road from Cobo Bay to St Peter Port, and an enemy known on it.
        let (f, here, to) = ("4th Dorsets", BoardId::new("Cobo Bay"), BoardId::new("St Peter Port"));
        let i = c.fx(f).unwrap();
        c.forces[i].objective = Some(to.clone());
        let route = c.road_route(&here, &to, false).expect("a road to St Peter Port");
        let ahead = route.into_iter().map(|l| l.to).find(|b| c.forces_on(b, side).is_empty()).unwrap();
        let (_, enemy) = enemy_board(&c, side);
        c.armies[a].known.insert(enemy, (ahead.clone(), 1));
        assert_eq!(c.raid_target(a), Some(ahead.clone()), "{f} has the enemy ahead of it");
        c.bombing_raids(Conditions::FINE_DAY);
        let raided: Vec<_> =
            c.drain_events().into_iter().filter(|e| input(e, "mission") == Some(&json!("Bombing raid"))).collect();
        assert!(raided.iter().any(|e| input(e, "board") == Some(&json!(ahead))), "{raided:?}");
    }

    #[test]
    fn the_player_orders_a_squadron_to_raid_a_board() {
        let mut c = guernsey(3);
        let side = Side::Blue;
        c.player = Some(side);
        let (g, id) = bomber(&c, side);
        let (board, _) = enemy_board(&c, side);
        c.bombing_raids(Conditions::FINE_DAY);
        assert!(!c.army(side).air.as_ref().unwrap().squadrons[g].0.used_today, "the player ordered no raid");
        c.command(Command::Raid { squadron: id.clone(), board: Some(board.clone()) }).unwrap();
        c.bombing_raids(Conditions::FINE_DAY);
        assert!(c.army(side).air.as_ref().unwrap().squadrons[g].0.used_today, "it raids {board}");
        let e = c.command(Command::Raid { squadron: "No. 234 Squadron RAF (Spitfire VB)".into(), board: None });
        assert!(e.unwrap_err().to_string().contains("carries no bombs"));
        c.command(Command::Raid { squadron: id, board: None }).unwrap();
        assert!(c.army(side).air.as_ref().unwrap().raids.is_empty(), "the raid is called off");
    }

    #[test]
    fn a_hit_on_the_enemys_railway_cuts_the_line() {
        let mut c = guernsey(4);
        c.trains_at_start();
        let Some(runs) = c.armies.iter().position(|a| a.train.is_some()) else { panic!("a train runs") };
        let raider = c.armies[1 - runs].side;
        let home = c.armies[runs].train.as_ref().unwrap().home.clone();
        let rail = c.occupation.keys().find(|b| **b != home && c.railway_at(b)).cloned().expect("a railway board");
        c.occupation.get_mut(&rail).unwrap().occupants.clear();
        assert_eq!(c.raid_targets(raider, &rail), vec![RAILWAY.to_owned()]);
        assert!(c.raid_targets(c.armies[runs].side, &rail).is_empty(), "nobody bombs his own train's line");
        let (g, _) = bomber(&c, raider);
        let mut cut = false;
        for _ in 0..40 {
            c.armies[ix(raider)].air.as_mut().unwrap().squadrons[g].0.used_today = false;
            c.bombing_raid(ix(raider), g, &rail);
            if c.cut_lines.contains_key(&rail) {
                cut = true;
                break;
            }
        }
        assert!(cut, "in forty raids a bomb hits the line");
    }
}
