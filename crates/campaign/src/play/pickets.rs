//! Pickets in play (FYOW 3.8): an Auto battlegroup holding its Map Board
//! posts a platoon-sized picket on the adjacent board the enemy would come
//! by; the picket draws its supply through its battlegroup while it is in
//! the chain, and one cut off declares itself a Fraction and makes its way
//! back.

use serde_json::json;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::army::fraction::Picket;
use crate::army::orders::OrderKind;
use crate::map::board::BoardId;
use crate::map::common::ForceKind;
use crate::map::occupation::Place;
use crate::play::state::{Campaign, CampaignError, fyow};
use crate::supply::logistics::{Action, Formation, SupplyRecord};

impl Campaign {
    /// FYOW 3.8: the Auto BC of `name`, holding its board under Defend
    /// orders, sends its smallest company of infantry (the element a
    /// garrison would be) as a Picket to the neighbouring board by road
    /// nearest the enemy's ground, when that board is empty and it has no
    /// Picket out already. The Picket goes there under Move orders and
    /// defends it on arrival.
    ///
    /// Reading (FYOW 3.8 "to scout, patrol or to provide defence in depth"):
    /// the Auto posts one Picket a battlegroup, on the road the enemy would
    /// use; the book asks no Command Decision for it (test
    /// `a_holding_battlegroup_posts_a_picket_toward_the_enemy`).
    pub(crate) fn post_picket(&mut self, name: &str) {
        let Some(i) = self.fx(name) else { return };
        let f = &self.forces[i];
        let side = f.side;
        let Some(here) = f.board().cloned() else { return };
        if !f.is_battlegroup()
            || self.player == Some(side)
            || f.order != OrderKind::Defend
            || self.in_battle(name)
            || self.occupant(name).is_none_or(|o| o.place != Place::OnBoard)
            || f.supply.permits(Action::MoveMapBoard).is_err()
            || self
                .forces
                .iter()
                .any(|x| x.kind == ForceKind::Picket && !x.is_gone() && x.parent.as_deref() == Some(name))
        {
            return;
        }
        let Some(element) = super::fractions::garrison_element(f) else { return };
        let v = f.mover().profile().is_ok_and(|p| p.v_barred);
        let enemy = side.enemy();
        let enemy_ground: Vec<BoardId> =
            self.held.iter().filter(|(_, s)| **s == enemy).map(|(b, _)| b.clone()).collect();
        let hops = self.road_hops(&enemy_ground, v);
        let distance = |from: &BoardId| hops.get(from).copied();
        let Some(mine) = distance(&here) else { return };
        let post = self
            .land_legs(&here, v)
            .into_iter()
            .filter(|l| self.occupation.get(&l.to).is_some_and(|o| o.occupants.is_empty()))
            .filter(|l| self.held.get(&l.to) != Some(&enemy))
            .filter_map(|l| distance(&l.to).filter(|d| *d < mine).map(|d| (d, l.to)))
            .min();
        let Some((_, post)) = post else { return };
        let picket = format!("{element} (picket on {post})");
        if self.fx(&picket).is_some() {
            return;
        }
        if let Err(e) = self.send_picket(name, &picket, std::slice::from_ref(&element), &post) {
            self.log_refusal(&e.section, &e.message);
        }
    }

    /// FYOW 3.8: `name` sends the named elements as the Picket `picket` to
    /// the adjacent board `post`, under Move orders to it. Refused, changing
    /// nothing, unless `name` is a battlegroup or Fraction on a board next to
    /// `post`, not fighting, keeping part of its force.
    pub(crate) fn send_picket(
        &mut self,
        name: &str,
        picket: &str,
        elements: &[String],
        post: &BoardId,
    ) -> Result<(), CampaignError> {
        let i = self.live(name)?;
        let f = &self.forces[i];
        if !matches!(f.kind, ForceKind::Battlegroup | ForceKind::Fraction) {
            return Err(CampaignError::new("3.8", format!("{name} is not a battlegroup or a Fraction")));
        }
        if self.fx(picket).is_some() {
            return Err(CampaignError::new("3", format!("a force called {picket:?} already exists")));
        }
        let Some(here) = f.board().cloned() else {
            return Err(CampaignError::new("3.8", format!("{name} is not on a Map Board")));
        };
        if !self.file.map.legs_from(&here).iter().any(|l| &l.to == post) {
            return Err(CampaignError::new("3.8", format!("{post} is not next to {here}")));
        }
        if elements.is_empty()
            || elements.len() >= f.battlegroup.elements.len()
            || !elements.iter().all(|e| f.battlegroup.elements.iter().any(|x| &x.name == e))
        {
            return Err(CampaignError::new(
                "3.8",
                format!("a Picket is part of {name}'s own elements, not all of them"),
            ));
        }
        if self.in_battle(name) {
            return Err(CampaignError::new("15.8", format!("{name} is engaged in a battle")));
        }
        let mut parent = f.battlegroup.clone();
        parent.elements.retain(|e| !elements.contains(&e.name));
        let co = format!("CO, {}", elements[0]);
        self.detach(i, picket, ForceKind::Picket, elements, parent, co, None)?;
        let k = self.fx(picket).expect("just detached");
        self.forces[k].order = OrderKind::Move;
        self.forces[k].objective = Some(post.clone());
        self.forces[k].pending_orders = None;
        self.log_applied(
            RuleEvent::new(EventKind::Battlegroup, fyow("3.8 Pickets"))
                .actor(name)
                .target(picket)
                .input("from", &here, "the board its battlegroup holds")
                .input("elements", elements, "nominally a platoon of infantry or a troop of armour")
                .outcome(json!({ "picket": picket, "post": post, "order": OrderKind::Move })),
        );
        Ok(())
    }

    /// FYOW 3.8: the Auto BC of `name` calls in each Picket of his in the
    /// chain, its elements back on his roster, when his battlegroup is about
    /// to move off (`leaving`), or when the Picket is worn below a Combat
    /// Value of 1 (33.2: under 10 points it can fight no battle).
    ///
    /// Reading (FYOW 3.8: a Picket in the chain "is still treated as part of
    /// the Battlegroup"): its elements are its battlegroup's and rejoin it
    /// without a Command Decision, as none was needed to post it; a
    /// battlegroup marching off takes its pickets with it rather than leave
    /// them to be cut off (test `a_picket_is_called_in_when_its_battlegroup_moves_off`).
    pub(crate) fn call_in_pickets(&mut self, name: &str, leaving: bool) {
        let Some(p) = self.fx(name) else { return };
        if self.player == Some(self.forces[p].side) {
            return;
        }
        let pickets: Vec<usize> = (0..self.forces.len())
            .filter(|&k| {
                let x = &self.forces[k];
                x.kind == ForceKind::Picket
                    && !x.is_gone()
                    && x.parent.as_deref() == Some(name)
                    && !self.in_battle(&x.name)
                    && (leaving || crate::paper::dunnigan::combat_value(x.points()) == 0)
                    && self.picket_connected(k)
            })
            .collect();
        for k in pickets {
            let why = if leaving { "its battlegroup moves off" } else { "worn below a Combat Value of 1" };
            if let Err(e) = self.rejoin_picket(k, why) {
                self.log_refusal(&e.section, &e.message);
            }
        }
    }

    /// A player calls a Picket of his in the chain back into its
    /// battlegroup's roster (FYOW 3.8).
    pub(crate) fn call_in(&mut self, picket: &str) -> Result<(), CampaignError> {
        let k = self.live(picket)?;
        if self.forces[k].kind != ForceKind::Picket {
            return Err(CampaignError::new("3.8", format!("{picket} is not a Picket")));
        }
        if !self.picket_connected(k) {
            return Err(CampaignError::new("3.8", format!("{picket} is cut off from its battlegroup")));
        }
        if self.in_battle(picket) {
            return Err(CampaignError::new("15.8", format!("{picket} is engaged in a battle")));
        }
        self.rejoin_picket(k, "called in by its commander")
    }

    /// Picket `k`, in the chain, rejoins its battlegroup's roster.
    fn rejoin_picket(&mut self, k: usize, why: &str) -> Result<(), CampaignError> {
        let parent = self.forces[k].parent.clone().unwrap_or_default();
        let p = self.live(&parent)?;
        // 13.9: its board holds no more of a side than the battlegroup limit.
        let (side, points) = (self.forces[p].side, self.forces[k].points());
        if let Some(b) = self.forces[p].board().filter(|&b| self.forces[k].board() != Some(b)) {
            let room = self.file.max_points().saturating_sub(self.occupation[b].side_points(side));
            if points > room {
                return Err(CampaignError::new(
                    "13.9",
                    format!("{} has room for {room} more points of {parent}'s side, not {points}", b.0),
                ));
            }
        }
        let mut bg = self.forces[p].battlegroup.clone();
        bg.add_elements(self.forces[k].battlegroup.elements.clone())
            .map_err(|e| CampaignError::new("3.8", e.to_string()))?;
        let picket = self.forces[k].name.clone();
        let from = self.forces[k].board().cloned();
        self.rejoin(k, p, bg);
        self.log_applied(
            RuleEvent::new(EventKind::Battlegroup, fyow("3.8 Pickets"))
                .actor(&parent)
                .target(&picket)
                .input("from", &from, "")
                .input("why", why, "")
                .outcome(json!({ "called_in": picket, "points": self.forces[p].points() })),
        );
        Ok(())
    }

    /// Whether a Picket is in its battlegroup's chain (FYOW 3.8): on a board
    /// next to its parent's, or next to a board of another Picket of the
    /// same battlegroup that is.
    pub(crate) fn picket_connected(&self, k: usize) -> bool {
        let f = &self.forces[k];
        let (Some(board), Some(parent)) = (f.board(), f.parent.as_deref()) else { return false };
        let Some(parent_board) = self.force(parent).filter(|p| !p.is_gone()).and_then(|p| p.board()) else {
            return false;
        };
        let root = self.forces[self.root_battlegroup(k)].name.clone();
        let pickets: Vec<Picket> = self
            .forces
            .iter()
            .enumerate()
            .filter(|(_, x)| x.kind == ForceKind::Picket && !x.is_gone() && x.board().is_some())
            .map(|(j, x)| Picket {
                name: x.name.clone(),
                battlegroup: self.forces[self.root_battlegroup(j)].name.clone(),
                parent: x.parent.clone().unwrap_or_default(),
                board: x.board().map(|b| b.0.clone()).unwrap_or_default(),
                elements: x.battlegroup.elements.iter().map(|e| e.name.clone()).collect(),
            })
            .collect();
        let me = Picket {
            name: f.name.clone(),
            battlegroup: root,
            parent: parent.to_owned(),
            board: board.0.clone(),
            elements: Vec::new(),
        };
        let adjacent =
            |a: &str, b: &str| a == b || self.file.map.legs_from(&BoardId::new(a)).iter().any(|l| l.to.0 == b);
        me.connected(&parent_board.0, &pickets, adjacent)
    }

    /// FYOW 3.8 at a Picket's activation: one cut off from its battlegroup
    /// (by enemy action, or its battlegroup moving away) "must, when next
    /// activated, declare itself to be a Fraction", with no Command
    /// Decision, under automatic orders to re-connect; its first activation
    /// as a Fraction (3.5) follows at once.
    ///
    /// Reading: a Picket on its way to its post, still on its parent's
    /// board or the next, is in the chain.
    pub(crate) fn picket_separated(&mut self, name: &str) {
        let Some(k) = self.fx(name) else { return };
        if self.forces[k].kind != ForceKind::Picket || self.forces[k].is_gone() || self.picket_connected(k) {
            return;
        }
        let f = &self.forces[k];
        let parent = f.parent.clone().unwrap_or_default();
        let parent_board = self.force(&parent).filter(|p| !p.is_gone()).and_then(|p| p.board().cloned());
        let picket = Picket {
            name: f.name.clone(),
            battlegroup: self.forces[self.root_battlegroup(k)].name.clone(),
            parent: parent.clone(),
            board: f.board().map(|b| b.0.clone()).unwrap_or_default(),
            elements: f.battlegroup.elements.iter().map(|e| e.name.clone()).collect(),
        };
        let mut roster = f.battlegroup.elements.clone();
        let to = parent_board.clone().map_or("where it stands".to_owned(), |b| b.0);
        let Ok((first, _, e)) = picket.declare_fraction(&mut roster, &f.commander.name, &to) else { return };
        // Its Stockpile is found at its first activation (3.5).
        let Ok(supply) = SupplyRecord::new(Formation::Fraction, 0) else { return };
        let f = &mut self.forces[k];
        f.kind = ForceKind::Fraction;
        f.supply = supply;
        f.first_activation = Some(first);
        (f.order, f.objective) = match parent_board {
            Some(b) => (OrderKind::Move, Some(b)),
            None => (OrderKind::Defend, None),
        };
        if let Some(o) = self.occupant_mut(name) {
            o.kind = ForceKind::Fraction;
        }
        self.log_applied(e);
    }

    /// FYOW 3.8: "Supply can flow" to a Picket in its battlegroup's chain:
    /// it takes its battlegroup's supply state for the day and throws none,
    /// its elements' shots topped up or carried forward as that state says.
    pub(crate) fn pickets_supplied(&mut self) {
        for k in 0..self.forces.len() {
            if self.forces[k].kind != ForceKind::Picket || self.forces[k].is_gone() || !self.picket_connected(k) {
                continue;
            }
            let Some(mode) = self.forces[k].parent.as_deref().and_then(|p| self.force(p)).map(|p| p.supply.mode) else {
                continue;
            };
            self.forces[k].supply.mode = mode;
            // Its shots a day are its battlegroup's supply's (20.7.3).
            crate::table::record::daily_shots(&mut self.forces[k].orbat, mode);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::battlegroup::{Element, ElementClass};
    use crate::map::common::{Edge, Side};
    use crate::map::movement::MovementState;
    use crate::play::command::Command;
    use crate::play::file::CampaignFile;
    use crate::play::file::tests::SMALL;
    use crate::play::state::Whereabouts;

    /// Red 2 holds the Town under Defend orders with four companies; the
    /// Blue landing holds the Beach; the Village and the Hill lie between.
    fn red_holds_the_town(seed: u64) -> Campaign {
        let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), seed).unwrap();
        c.remove_force("Red 1", "gone for the test");
        c.held.insert(BoardId::new("Beach"), Side::Blue);
        let i = c.fx("Red 2").unwrap();
        for (name, points) in [("3. Kompanie", 200), ("4. Kompanie", 150)] {
            let mut k = c.forces[i].kit.iter().find(|k| k.name == "2. Kompanie").unwrap().clone();
            k.name = name.into();
            c.forces[i].kit.push(k);
            c.forces[i].battlegroup.elements.push(Element {
                name: name.into(),
                points,
                class: ElementClass::Line,
                movement_points: 3,
                attached: false,
            });
        }
        c.sync_points("Red 2");
        c.forces[i].order = OrderKind::Defend;
        for f in &mut c.forces {
            let max = f.mover().profile().map_or(0, |p| p.max_per_day);
            f.movement = MovementState::new_day(max, None);
        }
        c.drain_events();
        c
    }

    const PICKET: &str = "4. Kompanie (picket on Village)";

    #[test]
    fn a_holding_battlegroup_posts_a_picket_toward_the_enemy() {
        // 3.8 "A Battlegroup or a Fraction can send part of its force to an
        // adjacent Map Board to scout, patrol or to provide defence in depth
        // ... nominally, a platoon of infantry or Troop of armour. If the picket
        // occupies a map board adjacent to it's parent ... Supply can flow and
        // the picket is still treated as part of the Battlegroup."
        let mut c = red_holds_the_town(1);
        let before = c.force("Red 2").unwrap().points();
        c.activate("Red 2");
        let events = c.drain_events();
        let posted = events.iter().find(|e| e.rule.section == "3.8 Pickets").expect("a picket posted");
        assert_eq!(posted.outcome["post"], "Village", "the Hill's road is barred to its lorried guns");
        let p = c.force(PICKET).expect("the picket");
        assert_eq!(p.kind, ForceKind::Picket);
        assert_eq!(p.points(), 150, "its smallest rifle company");
        assert_eq!((p.order, p.objective.clone()), (OrderKind::Move, Some(BoardId::new("Village"))));
        assert_eq!(c.force("Red 2").unwrap().points(), before - 150);
        // It goes to its post by its own Movement Test, and stays in the chain.
        for _ in 0..3 {
            c.activate(PICKET);
        }
        let k = c.fx(PICKET).unwrap();
        assert!(c.picket_connected(k));
        // Supplied through its battlegroup: no throw of its own.
        c.forces[k].supply.mode = crate::supply::logistics::Mode::Rest;
        c.drain_events();
        c.daily_supply();
        c.pickets_supplied();
        assert!(c.drain_events().iter().all(|e| e.actor.as_deref() != Some(PICKET)), "it throws nothing itself");
        assert_eq!(c.forces[k].supply.mode, c.force("Red 2").unwrap().supply.mode, "its battlegroup's state");
        assert!(c.force(PICKET).unwrap().board().is_some());
        c.check_invariants().unwrap();
        // One picket a battlegroup.
        c.activate("Red 2");
        assert_eq!(c.forces.iter().filter(|f| f.kind == ForceKind::Picket && !f.is_gone()).count(), 1);
    }

    #[test]
    fn a_picket_cut_off_declares_itself_a_fraction_and_makes_for_its_battlegroup() {
        // 3.8 "If a picket becomes separated from it's Battlegroup or Fraction
        // by enemy action, movement etc, it must, when next activated, declare
        // itself to be a Fraction. The Battlegroup Commander (or Fraction CO)
        // does not need to take a Command Decision Test for this purpose. The
        // picket (now Fraction) is given automatic orders to re-connect".
        let mut c = red_holds_the_town(2);
        c.activate("Red 2");
        let k = c.fx(PICKET).unwrap();
        // Its battlegroup driven back beyond reach: two boards away.
        c.forces[k].at = Whereabouts::Board(BoardId::new("Beach"));
        let occ = c.occupation.get_mut(&BoardId::new("Town")).unwrap();
        let mut o = occ.occupant(PICKET).unwrap().clone();
        occ.leave(PICKET).unwrap();
        o.arrival_edge = Edge::West;
        c.occupation.get_mut(&BoardId::new("Beach")).unwrap().occupants.push(o);
        assert!(!c.picket_connected(k));
        c.drain_events();
        c.activate(PICKET);
        let events = c.drain_events();
        assert!(events.iter().any(|e| e.rule.section == "3.8 Pickets" && e.outcome["decision"] == "not needed"));
        assert!(events.iter().any(|e| e.rule.section.starts_with("3.5")), "its first activation as a Fraction");
        assert!(!events.iter().any(|e| e.rule.section == "8.1 Command Decisions"));
        let f = c.force(PICKET).unwrap();
        assert_eq!(f.kind, ForceKind::Fraction);
        assert_eq!(f.objective, Some(BoardId::new("Town")), "orders to re-connect");
        assert_eq!(c.occupant(PICKET).unwrap().kind, ForceKind::Fraction);
    }

    #[test]
    fn a_player_sends_a_picket_next_door_and_calls_it_in() {
        let mut c = red_holds_the_town(4);
        c.player = Some(Side::Red);
        let send = |to: &str, elements: &[&str]| Command::Picket {
            force: "Red 2".into(),
            name: "Posten".into(),
            elements: elements.iter().map(|e| e.to_string()).collect(),
            to: BoardId::new(to),
        };
        let thrown = c.dice.thrown();
        assert_eq!(c.command(send("Beach", &["3. Kompanie"])).unwrap_err().section, "3.8", "not next to the Town");
        let all = ["2. Kompanie", "Haubitzen", "3. Kompanie", "4. Kompanie"];
        assert_eq!(c.command(send("Village", &all)).unwrap_err().section, "3.8", "not the whole battlegroup");
        assert_eq!(c.dice.thrown(), thrown, "refused before any throw");
        c.activate("Red 2");
        assert!(c.forces.iter().all(|f| f.kind != ForceKind::Picket), "a player's battlegroup posts none itself");
        c.command(send("Village", &["3. Kompanie"])).unwrap();
        assert_eq!(c.force("Posten").unwrap().kind, ForceKind::Picket);
        assert_eq!(c.force("Posten").unwrap().objective, Some(BoardId::new("Village")));
        let before = c.force("Red 2").unwrap().points();
        c.command(Command::CallIn { picket: "Posten".into() }).unwrap();
        assert!(c.force("Posten").unwrap().is_gone());
        assert_eq!(c.force("Red 2").unwrap().points(), before + 200);
        assert_eq!(c.command(Command::CallIn { picket: "Red 2".into() }).unwrap_err().section, "3.8");
    }

    #[test]
    fn a_picket_is_called_in_when_its_battlegroup_moves_off() {
        let mut c = red_holds_the_town(3);
        c.activate("Red 2");
        let before = c.force("Red 2").unwrap().points();
        let i = c.fx("Red 2").unwrap();
        c.forces[i].order = OrderKind::MoveToContact;
        c.forces[i].objective = Some(BoardId::new("Beach"));
        c.drain_events();
        c.activate("Red 2");
        let events = c.drain_events();
        let e = events.iter().find(|e| e.outcome.get("called_in").is_some()).expect("called in");
        assert_eq!(e.outcome["called_in"], PICKET);
        assert!(c.force(PICKET).unwrap().is_gone());
        assert_eq!(e.outcome["points"], before + 150, "back on its roster");
        // Leaving the Town, an objective, it may then leave the same company as its garrison (3.4).
        let garrison = c.force("4. Kompanie (garrison of Town)").filter(|g| !g.is_gone());
        let on_roster = c.force("Red 2").unwrap().battlegroup.elements.iter().any(|e| e.name == "4. Kompanie");
        assert!(on_roster != garrison.is_some(), "on the roster or garrisoning the Town, once");
        c.check_invariants().unwrap();
    }

    #[test]
    fn a_picket_comes_back_only_where_its_battlegroups_board_has_room() {
        // FYOW 13.9: a board holds no more of a side than the battlegroup
        // cost limit; a Picket called in must fit on its battlegroup's board.
        let mut c = red_holds_the_town(4);
        c.player = Some(Side::Red);
        let send = Command::Picket {
            force: "Red 2".into(),
            name: "Posten".into(),
            elements: vec!["3. Kompanie".into()],
            to: BoardId::new("Village"),
        };
        c.command(send).unwrap();
        let town = BoardId::new("Town");
        if c.force("Posten").unwrap().board() == Some(&town) {
            c.relocate("Posten", &town, &BoardId::new("Village"), Edge::East).unwrap();
        }
        assert_eq!(c.force("Posten").unwrap().board(), Some(&BoardId::new("Village")));
        let room = c.file.max_points() - c.occupation[&town].side_points(Side::Red);
        // Another Red force fills the Town up to 100 points short of the
        // limit: the Picket's 200 no longer fit.
        let filler = c.occupation[&town].occupants[0].clone();
        let mut other = filler.clone();
        other.force = "Grenadiere".into();
        other.points = room - 100;
        c.occupation.get_mut(&town).unwrap().occupants.push(other);
        let refused = c.command(Command::CallIn { picket: "Posten".into() }).unwrap_err();
        assert_eq!(refused.section, "13.9", "{refused:?}");
        assert!(!c.force("Posten").unwrap().is_gone(), "it stays out");
        c.occupation.get_mut(&town).unwrap().occupants.retain(|o| o.force != "Grenadiere");
        c.command(Command::CallIn { picket: "Posten".into() }).unwrap();
        assert!(c.force("Posten").unwrap().is_gone());
    }
}
