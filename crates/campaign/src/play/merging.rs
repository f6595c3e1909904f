//! Merging battlegroups in play (FYOW 2.7): an Auto Brigade Senior Command,
//! when activated, merges two of its battlegroups that stand together on a
//! Map Board, each worn down to half its original value or less, into one
//! within the cost limit; the senior's orders continue.

use crate::army::battlegroup::Battlegroup;
use crate::army::command::CommandLevel;
use crate::map::occupation::Place;
use crate::play::state::{Campaign, CampaignError, Whereabouts};

impl Campaign {
    /// FYOW 2.7: the Auto Senior Command `k` merges, two at a time, its
    /// battlegroups worn to half their original value or less that stand on
    /// one Map Board (on it, or in one box), none of them fighting, whose
    /// values together keep within the limit (2.1). The stronger is the
    /// senior: it keeps its name, commander and orders.
    ///
    /// Reading (FYOW 2.7 "can merge any 2 of his Battlegroups"): the rule
    /// leaves when to the Senior Command; two battalions each worn to half
    /// make one that can fight, as the armies of the war amalgamated theirs
    /// (test `two_worn_battlegroups_on_one_board_merge_into_the_stronger`).
    pub(crate) fn merge_worn_battlegroups(&mut self, k: usize) {
        let (side, brigade) = (self.senior_commands[k].side, self.senior_commands[k].brigade.clone());
        if self.player == Some(side) {
            return;
        }
        loop {
            let worn: Vec<usize> = (0..self.forces.len())
                .filter(|&i| {
                    let f = &self.forces[i];
                    f.side == side
                        && f.is_battlegroup()
                        && f.battlegroup.brigade == brigade
                        && f.board().is_some()
                        && f.points() * 2 <= f.battlegroup.original_points
                        && !self.in_battle(&f.name)
                })
                .collect();
            let place = |i: usize| self.occupant(&self.forces[i].name).map(|o| (o.place, o.arrival_edge));
            let pair = worn.iter().enumerate().find_map(|(n, &a)| {
                worn[n + 1..]
                    .iter()
                    .copied()
                    .find(|&b| {
                        let (fa, fb) = (&self.forces[a], &self.forces[b]);
                        fa.board() == fb.board()
                            && match (place(a), place(b)) {
                                (Some((Place::OnBoard, _)), Some((Place::OnBoard, _))) => true,
                                (Some((pa, ea)), Some((pb, eb))) => pa == pb && ea == eb,
                                _ => false,
                            }
                            && fa.points() + fb.points() <= fa.battlegroup.max_points.min(fb.battlegroup.max_points)
                            && fa.points() > 0
                            && fb.points() > 0
                    })
                    .map(|b| (a, b))
            });
            let Some((a, b)) = pair else { return };
            let (senior, absorbed) = if (self.forces[b].points(), self.forces[b].battlegroup.original_points)
                > (self.forces[a].points(), self.forces[a].battlegroup.original_points)
            {
                (b, a)
            } else {
                (a, b)
            };
            let (senior, absorbed) = (self.forces[senior].name.clone(), self.forces[absorbed].name.clone());
            if let Err(e) = self.merge_battlegroups(k, &senior, &absorbed) {
                self.log_refusal(&e.section, &e.message);
                return;
            }
        }
    }

    /// FYOW 2.7 by a player's command: two battlegroups of his on one Map
    /// Board (on it, or in one box), neither fighting, merged by the Senior
    /// Command of the senior's brigade (of two brigades, by the command over
    /// both: the player as the General), refused before any change.
    pub(crate) fn merge_by_command(&mut self, senior: &str, absorbed: &str) -> Result<(), CampaignError> {
        let (s, a) = (self.live(senior)?, self.live(absorbed)?);
        let (fs, fa) = (&self.forces[s], &self.forces[a]);
        if s == a || !fs.is_battlegroup() || !fa.is_battlegroup() || fs.side != fa.side {
            return Err(CampaignError::new("2.7", "two battlegroups of one army are merged"));
        }
        let (ps, pa) = (self.occupant(senior), self.occupant(absorbed));
        let together = fs.board().is_some()
            && fs.board() == fa.board()
            && ps.zip(pa).is_some_and(|(x, y)| {
                x.place == y.place && (x.place == Place::OnBoard || x.arrival_edge == y.arrival_edge)
            });
        if !together {
            return Err(CampaignError::new(
                "2.7",
                format!("{senior} and {absorbed} must stand together on one Map Board"),
            ));
        }
        if self.in_battle(senior) || self.in_battle(absorbed) {
            return Err(CampaignError::new("15.8", format!("{senior} or {absorbed} is engaged in a battle")));
        }
        let k = self
            .senior_command_of(senior)
            .ok_or_else(|| CampaignError::new("6.3", format!("{senior} has no Senior Command")))?;
        self.merge_battlegroups(k, senior, absorbed)
    }

    /// FYOW 2.7: Senior Command `k` merges `absorbed` into `senior`: the
    /// elements, their kit, orders of battle, repairs, losses to replace and
    /// replenishment banked go to the senior; the Stockpiles are averaged,
    /// rounded up; the senior's supply state, Strategic Condition and
    /// orders stand, its record card counting both original values; the
    /// absorbed battlegroup leaves the map, and its BPC the pack. Its
    /// Fractions are the senior's from now on.
    pub(crate) fn merge_battlegroups(&mut self, k: usize, senior: &str, absorbed: &str) -> Result<(), CampaignError> {
        let s = self.live(senior)?;
        let a = self.live(absorbed)?;
        let by = if self.forces[s].battlegroup.brigade == self.forces[a].battlegroup.brigade {
            self.senior_commands[k].commander.name.clone()
        } else {
            self.army(self.forces[s].side).general.name.clone()
        };
        let mut merged: Battlegroup = self.forces[s].battlegroup.clone();
        let mut other: Battlegroup = self.forces[a].battlegroup.clone();
        merged.stockpile = self.forces[s].supply.stockpile();
        other.stockpile = self.forces[a].supply.stockpile();
        let commander = self.forces[s].commander.name.clone();
        // Battlegroups of two brigades are merged by the command over both.
        let by_level = if merged.brigade == other.brigade { CommandLevel::Brigade } else { CommandLevel::Division };
        let e = Battlegroup::merge(&mut merged, &other, by_level, &commander, true)
            .map_err(|e| CampaignError::new("2.7", e.to_string()))?;
        let taken = self.forces[a].clone();
        let f = &mut self.forces[s];
        f.battlegroup = merged;
        f.supply = f.supply.merged_with(&taken.supply);
        f.milestones = f.milestones.merged_with(&taken.milestones);
        f.kit.extend(taken.kit);
        f.orbat.extend(taken.orbat);
        f.repairs.extend(taken.repairs);
        f.losses.losses.extend(taken.losses.losses);
        f.banked += taken.banked;
        if let Some(occ) = self.forces[a].board().cloned().and_then(|b| self.occupation.get_mut(&b)) {
            let _ = occ.leave(absorbed);
        }
        self.forces[a].at = Whereabouts::Gone;
        self.forces[a].merged_into = Some(senior.to_owned());
        self.lose_sight_of(absorbed);
        for f in &mut self.forces {
            if f.parent.as_deref() == Some(absorbed) {
                f.parent = Some(senior.to_owned());
            }
        }
        for sc in &mut self.senior_commands {
            sc.requests.retain(|(r, ..)| r.from != absorbed);
        }
        self.sync_points(senior);
        self.log_applied(e.input("by", &by, "the Senior Command, or the General over two brigades"));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::map::board::BoardId;
    use crate::map::common::{Edge, Side};
    use crate::play::command::Command;
    use crate::play::file::CampaignFile;
    use crate::play::file::tests::SMALL;
    use crate::play::state::Campaign;
    use crate::supply::logistics::Mode;

    /// Blue 1 and Blue 2, each worn to one company, ashore on the Beach.
    fn worn_on_the_beach(seed: u64) -> Campaign {
        let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), seed).unwrap();
        for (name, keep) in [("Blue 1", "B Company"), ("Blue 2", "C Company")] {
            let i = c.fx(name).unwrap();
            c.forces[i].battlegroup.elements.retain(|e| e.name == keep);
            c.relocate(name, &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
        }
        c.drain_events();
        c
    }

    #[test]
    fn two_worn_battlegroups_on_one_board_merge_into_the_stronger() {
        // FYOW 2.7 "the Brigade Senior Command can merge any 2 of his
        // Battlegroups together ... merges the Supply Stockpiles together
        // (taking an average of both rounded up) ... The Priority Card for the
        // defunct Battlegroup is removed from the pack ... If the Battlegroup
        // being absorbed is at Rest, rationed or in disarray, this is
        // cancelled by the merger."
        let mut c = worn_on_the_beach(3);
        let k = c.senior_command_of("Blue 1").unwrap();
        assert_eq!(c.senior_command_of("Blue 2"), Some(k), "one brigade");
        let (s1, s2) = (c.force("Blue 1").unwrap().supply.stockpile(), c.force("Blue 2").unwrap().supply.stockpile());
        let one = c.fx("Blue 1").unwrap();
        c.forces[one].supply.mode = Mode::Rest;
        let (order, objective) = (c.force("Blue 2").unwrap().order, c.force("Blue 2").unwrap().objective.clone());
        c.senior_command_activated(k);
        let events = c.drain_events();
        let e = events.iter().find(|e| e.rule.section == "2.7 Merging Battlegroups together").expect("merged");
        assert_eq!(
            (e.actor.as_deref(), e.target.as_deref()),
            (Some("Blue 2"), Some("Blue 1")),
            "C Company's 400 is the senior"
        );
        let merged = c.force("Blue 2").unwrap();
        assert_eq!(merged.points(), 750);
        assert_eq!(merged.supply.stockpile(), (s1 + s2).div_ceil(2));
        assert_ne!(merged.supply.mode, Mode::Rest, "the absorbed one's Rest is cancelled");
        assert_eq!((merged.order, merged.objective.clone()), (order, objective), "the senior's orders continue");
        assert_eq!(merged.milestones.original_cmt(), 900 + 1050, "the record card counts both");
        assert!(merged.kit.iter().any(|k| k.name == "B Company"));
        let gone = c.force("Blue 1").unwrap();
        assert!(gone.is_gone());
        assert_eq!(gone.merged_into.as_deref(), Some("Blue 2"));
        assert!(c.occupation[&BoardId::new("Beach")].occupant("Blue 1").is_err());
        assert_eq!(c.occupant("Blue 2").unwrap().points, 750);
        c.check_invariants().unwrap();
        // 12.3: the weekly review counts the merged battlegroup once, and the absorbed one not as lost.
        c.army_mut(Side::Blue).reduced_since_review = true;
        c.weekly_morale();
        let review = c
            .drain_events()
            .into_iter()
            .find(|e| e.rule.section.starts_with("12.3") && e.actor.as_deref() == Some("Landing force"))
            .expect("the weekly review");
        let standings = &review.inputs.iter().find(|i| i.name == "battlegroups").unwrap().value;
        assert_eq!(standings, &serde_json::json!(["Green"]));
    }

    #[test]
    fn a_player_merges_two_battlegroups_together_and_not_apart() {
        let mut c = worn_on_the_beach(5);
        c.player = Some(Side::Blue);
        let i = c.fx("Blue 2").unwrap();
        c.forces[i].battlegroup.elements[0].points = 600;
        let e = c.command(Command::Merge { senior: "Blue 2".into(), absorbed: "Red 1".into() }).unwrap_err();
        assert_eq!(e.section, "2.7", "{e}");
        let mut apart = c.clone();
        let j = apart.fx("Blue 1").unwrap();
        apart.forces[j].at = crate::play::state::Whereabouts::Board(BoardId::new("Hill"));
        let e = apart.command(Command::Merge { senior: "Blue 2".into(), absorbed: "Blue 1".into() }).unwrap_err();
        assert_eq!(e.section, "2.7", "{e}");
        c.command(Command::Merge { senior: "Blue 2".into(), absorbed: "Blue 1".into() }).unwrap();
        assert_eq!(c.force("Blue 2").unwrap().points(), 950, "a player merges whenever they are together");
        assert_eq!(c.force("Blue 1").unwrap().merged_into.as_deref(), Some("Blue 2"));
    }

    #[test]
    fn a_battlegroup_at_more_than_half_apart_or_the_players_is_not_merged() {
        let mut c = worn_on_the_beach(4);
        let i = c.fx("Blue 2").unwrap();
        c.forces[i].battlegroup.elements[0].points = 600;
        let k = c.senior_command_of("Blue 1").unwrap();
        c.senior_command_activated(k);
        assert!(c.force("Blue 1").is_some_and(|f| !f.is_gone()), "600 of 1050 is more than half");

        let mut c = worn_on_the_beach(4);
        let i = c.fx("Blue 1").unwrap();
        c.forces[i].at = crate::play::state::Whereabouts::Board(BoardId::new("Hill"));
        c.senior_command_activated(k);
        assert!(c.force("Blue 2").is_some_and(|f| f.points() == 400), "not on one board");

        let mut c = worn_on_the_beach(4);
        c.player = Some(Side::Blue);
        c.senior_command_activated(k);
        assert!(c.force("Blue 1").is_some_and(|f| !f.is_gone()), "the player's brigade merges by his choice");
    }
}
