//! Supply trains (FYOW 30, 20.10): an army whose home has a railway station
//! runs a supply train. The Umpire loads it at the home station (30.1), runs
//! it along the rail links, six boards a day at most and one train to a
//! board without a station (30.2–30.3), unloads it at the station of the
//! battlegroup most in need, whose next daily supply is then that of a
//! convoy, and brings it home to load again. A line cut by the partisans
//! stops the trains until a platoon mends it (30.5); so does one cut by
//! commandos' charges (`play/demolitions.rs`).

use serde_json::json;
use warbound_rules::day::Light as DayLight;
use warbound_rules::event::{EventKind, RuleEvent};
use warbound_rules::loads::Carrier;

use crate::map::board::{BoardId, RouteKind};
use crate::map::common::Side;
use crate::naval::trains::{LineRepair, LoadRate, LoadingJob, RailMover, RepairParty, line_cut, may_enter, rail_move};
use crate::play::state::{Campaign, SupplyTrain, TrainWork, Whereabouts, fyow, ix};
use crate::supply::carrying::capacity;
use crate::supply::logistics::CONVOY_TRUCKS;
use crate::weather::ChanceOutcome;

/// The demolition charges that cut a railway line (FYOW 30.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Charges {
    pub large: u8,
    pub small: u8,
    pub partisan_sets: u8,
}

/// Reading (FYOW 20.10, 22, 30.1): a supply train carries a convoy's load,
/// six service trucks' worth of Load Spaces.
pub fn supply_train_load() -> u16 {
    let one = capacity(Carrier::ServiceTruck).halves() / 2;
    (one * u32::from(CONVOY_TRUCKS)) as u16
}

impl Campaign {
    /// Whether a board has a railway station (FYOW 13.6).
    fn station(&self, board: &BoardId) -> bool {
        self.file.map.board(board).is_ok_and(|b| b.detail.station)
    }

    /// The rail route from `from` to `to` through boards the enemy does not hold.
    fn rail_route(&self, side: Side, from: &BoardId, to: &BoardId) -> Option<Vec<BoardId>> {
        let mut prev = std::collections::BTreeMap::from([(from.clone(), from.clone())]);
        let mut queue = std::collections::VecDeque::from([from.clone()]);
        while let Some(b) = queue.pop_front() {
            if &b == to {
                let mut path = vec![b.clone()];
                let mut at = b;
                while &at != from {
                    at = prev[&at].clone();
                    path.push(at.clone());
                }
                path.reverse();
                path.remove(0);
                return Some(path);
            }
            for leg in self.file.map.legs_from(&b) {
                let open = self.occupation.get(&leg.to).is_none_or(|o| o.side_points(side.enemy()) == 0)
                    && !self.cut_lines.contains_key(&leg.to);
                if leg.route.kind() == RouteKind::Rail && open && !prev.contains_key(&leg.to) {
                    prev.insert(leg.to.clone(), b.clone());
                    queue.push_back(leg.to.clone());
                }
            }
        }
        None
    }

    /// Each army whose home has a station gets a supply train there at the start.
    pub(crate) fn trains_at_start(&mut self) {
        for a in 0..self.armies.len() {
            let home = self.armies[a].home.iter().find(|b| self.station(b)).cloned();
            if let Some(home) = home {
                let name = format!("{} supply train", self.armies[a].name);
                self.armies[a].train = Some(SupplyTrain {
                    name,
                    home: home.clone(),
                    at: home,
                    work: TrainWork::Loading(LoadingJob::new(supply_train_load())),
                    boards_today: 0,
                });
            }
        }
    }

    /// The station its army's train should deliver to: the one of the
    /// battlegroup with the least supply, reachable by rail, forces away
    /// from the home station first.
    fn train_destination(&self, side: Side, from: &BoardId) -> Option<BoardId> {
        self.forces
            .iter()
            .filter(|f| f.side == side && !f.convoy_due)
            .filter_map(|f| match &f.at {
                Whereabouts::Board(b) if self.station(b) => Some((b == from, f.supply.stockpile(), b.clone())),
                _ => None,
            })
            .filter(|(_, _, b)| b == from || self.rail_route(side, from, b).is_some())
            .min()
            .map(|(_, _, b)| b)
    }

    /// FYOW 30.5: "A railway line can be cut using 1 large or 2 small
    /// charges, or 1 set of Partisan explosives": `by`'s charges cut the
    /// line through `board`, if the railway runs there; a line cut again
    /// is mended from the start. No train enters the board until the line
    /// is mended.
    pub(crate) fn cut_line(&mut self, board: &BoardId, by: &str, charges: Charges) {
        let Charges { large, small, partisan_sets } = charges;
        if !self.railway_at(board) || !line_cut(large, small, partisan_sets) {
            return;
        }
        self.cut_lines.insert(board.clone(), LineRepair::default());
        self.log_applied(
            RuleEvent::new(EventKind::Work, fyow("30.5 A railway line can be cut"))
                .actor(by)
                .input("board", board, "")
                .input("large_charges", large, "1 large charge cuts a line")
                .input("small_charges", small, "2 small charges cut a line")
                .input("partisan_sets", partisan_sets, "1 set of Partisan explosives cuts a line")
                .outcome(json!({ "cut": true })),
        );
    }

    /// Whether a railway runs through `board` (a rail link leaves it).
    pub fn railway_at(&self, board: &BoardId) -> bool {
        self.file.map.legs_from(board).iter().any(|l| l.route.kind() == RouteKind::Rail)
    }

    /// FYOW 30.5: a platoon of the army whose train runs the line, from a
    /// force of its own on the board and not fighting there, mends a cut
    /// line, 24 to restore it; the line is open from the following session.
    ///
    /// Reading (FYOW 30.5): the campaign map does not tell engineers from
    /// other troops, so the platoon is of infantry (4D6 a session) (test
    /// `a_cut_line_stops_the_trains_until_a_platoon_mends_it`).
    fn mend_lines(&mut self, night: bool) {
        let cut: Vec<BoardId> = self.cut_lines.keys().cloned().collect();
        for board in cut {
            let Some(name) = self
                .forces
                .iter()
                .filter(|f| f.board() == Some(&board) && !self.in_battle(&f.name))
                .find(|f| self.armies[ix(f.side)].train.is_some())
                .map(|f| f.name.clone())
            else {
                continue;
            };
            let Some(job) = self.cut_lines.get_mut(&board) else { continue };
            let Ok((_, e)) = job.session(&name, RepairParty::Infantry, 10, night, &mut self.dice) else { continue };
            if job.restored() {
                self.cut_lines.remove(&board);
            }
            self.log_applied(e.input("board", &board, ""));
        }
    }

    /// One session of each army's supply train.
    pub(crate) fn run_trains(&mut self) {
        let night = self.date.light() == DayLight::Night;
        for a in 0..self.armies.len() {
            let Some(mut train) = self.armies[a].train.take() else { continue };
            let side = self.armies[a].side;
            let id = train.name.clone();
            match &mut train.work {
                TrainWork::Loading(job) => {
                    if self.train_handling(job, &id, night)
                        && let Some(to) = self.train_destination(side, &train.at)
                    {
                        train.work = TrainWork::Delivering(to);
                    }
                }
                TrainWork::Delivering(to) => {
                    let to = to.clone();
                    if train.at == to {
                        train.work = TrainWork::Unloading(LoadingJob::new(supply_train_load()));
                    } else {
                        self.train_step(&mut train, side, &to);
                    }
                }
                TrainWork::Unloading(job) => {
                    if self.train_handling(job, &id, night) {
                        self.train_delivers(&train, side);
                        train.work = TrainWork::Returning;
                    }
                }
                TrainWork::Returning => {
                    let home = train.home.clone();
                    if train.at == home {
                        train.work = TrainWork::Loading(LoadingJob::new(supply_train_load()));
                    } else {
                        self.train_step(&mut train, side, &home);
                    }
                }
            }
            self.armies[ix(side)].train = Some(train);
        }
        self.mend_lines(night);
    }

    /// One session's loading or unloading of a train, which goes "according to
    /// Work & Task rules" (30.1): today's 2♠ or 2♣ adds 2 (1) to the load
    /// spaces it must handle (32). Whether the train is loaded (unloaded).
    fn train_handling(&mut self, job: &mut LoadingJob, id: &str, night: bool) -> bool {
        let added: u16 = self
            .cards_today
            .iter()
            .map(|c| if let ChanceOutcome::WorkTaskNeed(n) = c { u16::from(*n) } else { 0 })
            .sum();
        job.load_spaces += added;
        if let Ok((_, e)) = job.session(id, LoadRate::Station, night, &mut self.dice) {
            self.log(e.input("chance_card_need", added, "32: the 2 of Spades (Clubs) adds 2 (1) to the need"));
        }
        let done = job.done();
        job.load_spaces -= added;
        done
    }

    /// FYOW 30.2–30.3: one rail link a session toward `to`, an "auto" move
    /// unless the weather intervenes (the Movement Test's weather modifier).
    fn train_step(&mut self, train: &mut SupplyTrain, side: Side, to: &BoardId) {
        let Some(next) = self.rail_route(side, &train.at, to).and_then(|p| p.first().cloned()) else {
            self.log(
                RuleEvent::new(EventKind::Train, fyow("30.2 Trains movement"))
                    .actor(&train.name)
                    .input("at", &train.at, "")
                    .outcome(json!({ "waits": format!("no open rail line to {to}") })),
            );
            return;
        };
        let trains_there = self.armies.iter().filter_map(|a| a.train.as_ref()).filter(|t| t.at == next).count();
        if let Err(e) = may_enter(self.station(&next), u8::try_from(trains_there).unwrap_or(u8::MAX)) {
            self.log(
                RuleEvent::new(EventKind::Train, fyow("30.3 One train to a Map Board"))
                    .actor(&train.name)
                    .input("at", &train.at, "")
                    .input("next", &next, "")
                    .outcome(json!({ "waits": e.to_string() })),
            );
            return;
        }
        if self.gauge_movement().is_none() {
            self.log(
                RuleEvent::new(EventKind::Train, fyow("26.6 Rain/Snow Gauge Effects"))
                    .actor(&train.name)
                    .input("at", &train.at, "")
                    .outcome(json!({ "waits": "the rain/snow gauge stands at 8 or more: all movement stops" })),
            );
            return;
        }
        let weather = crate::map::movement::MoverClass::Trains.row().weather_modifier(&self.conditions);
        let intervention = (weather != 0).then_some(weather);
        if let Ok((m, e)) = rail_move(&train.name, RailMover::Train, train.boards_today, intervention, &mut self.dice) {
            self.log(e.input("from", &train.at, "").input("to", &next, ""));
            if m.moved {
                train.at = next;
                train.boards_today += 1;
            }
        }
    }

    /// The train unloads a convoy's supply for the force at its station (FYOW 20.10).
    fn train_delivers(&mut self, train: &SupplyTrain, side: Side) {
        let force = self
            .forces
            .iter()
            .enumerate()
            .filter(|(_, f)| f.side == side && f.board() == Some(&train.at))
            .min_by_key(|(_, f)| f.supply.stockpile())
            .map(|(i, _)| i);
        let Some(i) = force else { return };
        self.forces[i].convoy_due = true;
        let name = self.forces[i].name.clone();
        self.log(
            RuleEvent::new(EventKind::Train, fyow("20.10 Supply convoys"))
                .actor(&train.name)
                .target(&name)
                .input("station", &train.at, "")
                .outcome(
                    json!({ "delivered": "a convoy's supply: its dice and a Direct line at the next daily throw" }),
                ),
        );
    }

    /// A new day: trains may run six boards again (30.2).
    pub(crate) fn trains_new_day(&mut self) {
        for a in &mut self.armies {
            if let Some(t) = a.train.as_mut() {
                t.boards_today = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARTISAN: Charges = Charges { large: 0, small: 0, partisan_sets: 1 };

    #[test]
    fn a_cut_line_stops_the_trains_until_a_platoon_mends_it() {
        // 30.5 "A railway line can be cut using 1 large or 2 small charges, or 1
        // set of Partisan explosives"; "The line is restored to working order
        // when they have an accumulated score of 24".
        let mut c = Campaign::new("guernsey-1942.ron", crate::play::testing::guernsey(), 3).unwrap();
        c.trains_at_start();
        let a = (0..c.armies.len()).find(|&a| c.armies[a].train.is_some()).expect("an army runs a train");
        let side = c.armies[a].side;
        let home = c.armies[a].train.as_ref().unwrap().home.clone();
        let far = c
            .file
            .map
            .boards
            .iter()
            .map(|b| b.id.clone())
            .filter(|b| b != &home)
            .filter_map(|b| c.rail_route(side, &home, &b).map(|r| (r.len(), b)))
            .max()
            .map(|(_, b)| b)
            .expect("a station down the line");
        let route = c.rail_route(side, &home, &far).unwrap();
        assert!(route.len() >= 2, "{route:?}");
        let cut = route[0].clone();
        c.drain_events();
        c.cut_line(&cut, "Guernsey cell", PARTISAN);
        let e = c.drain_events().pop().expect("the cut is logged");
        assert_eq!(e.rule.section, "30.5 A railway line can be cut");
        assert!(c.rail_route(side, &home, &far).is_none(), "no train passes the cut at {cut}");
        // Off the railway a key point cuts nothing.
        let inland = c
            .file
            .map
            .boards
            .iter()
            .map(|b| b.id.clone())
            .find(|b| !c.file.map.legs_from(b).iter().any(|l| l.route.kind() == RouteKind::Rail));
        if let Some(b) = inland {
            c.cut_line(&b, "Guernsey cell", PARTISAN);
            assert!(!c.cut_lines.contains_key(&b));
        }
        // Nobody of the train's army on the board: nobody mends it.
        c.forces.retain(|f| f.side != side || f.board() != Some(&cut));
        c.mend_lines(false);
        assert!(c.cut_lines.contains_key(&cut));
        // A force of its own arrives: a platoon mends it, 4D6 a session, to 24.
        let name = c.forces.iter().find(|f| f.side == side && f.board().is_some()).unwrap().name.clone();
        let i = c.fx(&name).unwrap();
        c.forces[i].at = Whereabouts::Board(cut.clone());
        c.drain_events();
        let mut sessions = 0;
        while c.cut_lines.contains_key(&cut) {
            c.mend_lines(false);
            sessions += 1;
            assert!(sessions <= 6, "4D6 a session reaches 24 in 6 sessions at most");
        }
        let work = c.drain_events();
        assert_eq!(work.len(), sessions);
        let total: u64 = work.iter().map(|e| e.outcome["score"].as_u64().unwrap()).sum();
        assert!(total >= 24 && work.last().unwrap().outcome["restored"] == true, "{total}");
        assert!(c.rail_route(side, &home, &far).is_some(), "the line is open again");
    }

    #[test]
    fn a_two_of_spades_adds_two_to_the_load_spaces_a_train_handles_today() {
        // 30.1 "Trains load and unload according to Work & Task rules"; 32 "2♠
        // Add 2 to every Work & Task need".
        let file = crate::play::testing::guernsey();
        let mut c = Campaign::new("guernsey-1942", file, 1).unwrap();
        c.army_mut(Side::Blue).train = None;
        let full = supply_train_load();
        let mut loaded = c.army(Side::Red).train.clone().expect("the garrison's train");
        loaded.work = TrainWork::Loading(LoadingJob { load_spaces: full, handled: full });
        let throws = |c: &mut Campaign| -> Vec<RuleEvent> {
            c.drain_events().into_iter().filter(|e| e.rule.section == "30.1 Trains have a capacity").collect()
        };
        c.army_mut(Side::Red).train = Some(loaded.clone());
        c.drain_events();
        c.run_trains();
        assert!(throws(&mut c).is_empty(), "no card: its load is handled");
        c.army_mut(Side::Red).train = Some(loaded);
        c.cards_today = vec![ChanceOutcome::WorkTaskNeed(2)];
        c.run_trains();
        let thrown = throws(&mut c);
        assert_eq!(thrown.len(), 1, "the 2♠: two more load spaces to handle");
        let need = thrown[0].inputs.iter().find(|i| i.name == "load_spaces").unwrap().value.as_u64().unwrap();
        assert_eq!(need, u64::from(full) + 2);
        let handled = thrown[0].outcome["handled"].as_u64().unwrap();
        assert_eq!(thrown[0].outcome["done"], handled >= need, "done once the two more are handled");
    }

    #[test]
    fn only_one_train_to_a_board_without_a_station() {
        // 30.3 "Only one train can occupy a Map Board at any one time but can
        // cross or pass at any Map Board where stations are indicated."
        let file = crate::play::testing::guernsey();
        let mut c = Campaign::new("guernsey-1942", file, 1).unwrap();
        let (havre, cobo, vazon) = (BoardId::new("Grand Havre"), BoardId::new("Cobo Bay"), BoardId::new("Vazon Bay"));
        assert!(!c.station(&cobo) && c.station(&vazon));
        let mut red = c.army(Side::Red).train.clone().expect("the garrison's train");
        red.at = havre.clone();
        let other = SupplyTrain { name: "Another train".into(), at: cobo.clone(), ..red.clone() };
        c.army_mut(Side::Blue).train = Some(other);
        c.drain_events();
        c.train_step(&mut red, Side::Red, &vazon);
        assert_eq!(red.at, havre, "Cobo Bay has a train and no station");
        assert!(c.drain_events().iter().any(|e| e.rule.section == "30.3 One train to a Map Board"));
        c.army_mut(Side::Blue).train = None;
        c.train_step(&mut red, Side::Red, &vazon);
        assert_eq!(red.at, cobo, "the line clear, it runs on");
    }
}
