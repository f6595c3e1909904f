//! Today's chance card (FYOW 32) where it acts once, at the start of the
//! day: Stockpiles, partisan radios, extra rallying throws, a new CO.

use serde_json::json;
use warbound_rules::dice::Roll;
use warbound_rules::event::{EventKind, RuleEvent};

use crate::army::commander::{Commander, CommanderRole, Traits, rate_commander};
use crate::map::common::Side;
use crate::play::state::{Campaign, fyow};
use crate::weather::{ChanceOutcome, RallyWho, StockpileWho};

impl Campaign {
    /// FYOW 32: the outcomes of today's chance card that act once, at the
    /// start of the day: the 8s on every Stockpile, the 5♥ and 5♦ on a
    /// partisan radio, the 4♥ on each land force's Strategic Condition
    /// Repair throw. (The weather cards act in the day's throw, the 7s and
    /// 6s on supply, the 4♠ on Command Decisions, the 3s on flying and
    /// movement, the 2s on Work & Tasks and on replenishment.)
    ///
    /// Reading (FYOW 32 5♥, 5♦): the radio goes to the first cell without
    /// one, and the first cell with one loses it (test `chance_cards_act_on_their_day`).
    pub(crate) fn chance_card_today(&mut self) {
        for card in self.cards_today.clone() {
            match card {
                ChanceOutcome::Stockpile { who, change } => {
                    let kind = match who {
                        StockpileWho::AllBattlegroups => crate::map::common::ForceKind::Battlegroup,
                        StockpileWho::AllFractions => crate::map::common::ForceKind::Fraction,
                    };
                    for i in 0..self.forces.len() {
                        if self.forces[i].kind == kind && !self.forces[i].is_gone() {
                            let name = self.forces[i].name.clone();
                            let e = self.forces[i].supply.chance_card(change, &name);
                            self.log(e);
                        }
                    }
                }
                ChanceOutcome::SeniorCommandAppointsNewCo => self.new_fraction_co(),
                // The 4♥ "Everybody gets an extra SC Rallying throw": each
                // land force its Strategic Condition Repair throw (12.4), the Air
                // Commands theirs at their start of the day (28.12).
                ChanceOutcome::ExtraRally(RallyWho::Everybody) => {
                    for side in [Side::Blue, Side::Red] {
                        self.morale_repair_throw(side, "32: the 4 of Hearts, an extra SC Rallying throw");
                    }
                }
                ChanceOutcome::PartisanRadioAdded | ChanceOutcome::PartisanRadioBroken => {
                    let added = card == ChanceOutcome::PartisanRadioAdded;
                    let Some(p) = self.partisans.as_mut() else { continue };
                    let Some(cell) = p.cells.iter_mut().find(|c| c.radio != added) else { continue };
                    cell.radio = added;
                    let name = cell.name.clone();
                    self.log(
                        RuleEvent::new(EventKind::Partisans, fyow("32 Chance Cards"))
                            .actor(&name)
                            .outcome(json!({ "radio": added })),
                    );
                }
                _ => {}
            }
        }
    }

    /// FYOW 32, the A♠ and A♣: "Senior Command chosen by dice throw appoints
    /// a new CO".
    ///
    /// Reading (FYOW 3.3, 32): the COs on the campaign map are the Fractions'
    /// (3.3); the Senior Command chosen by a die among all of them appoints a
    /// new CO, rated (7) with his traits thrown (8.4), to one of its Fractions
    /// chosen by a die; with none, the card changes nothing on the map (test
    /// `chance_cards_act_on_their_day`).
    fn new_fraction_co(&mut self) {
        if self.senior_commands.is_empty() {
            return;
        }
        // A die with a face for each; one alone needs no throw.
        let pick = |c: &mut Campaign, n: usize| match u8::try_from(n).unwrap_or(u8::MAX) {
            0 | 1 => 0,
            n => usize::from(c.dice.face(n)) - 1,
        };
        let k = pick(self, self.senior_commands.len());
        let (side, brigade, sc) = {
            let sc = &self.senior_commands[k];
            (sc.side, sc.brigade.clone(), sc.commander.name.clone())
        };
        let fractions: Vec<usize> = (0..self.forces.len())
            .filter(|&i| {
                let f = &self.forces[i];
                f.kind == crate::map::common::ForceKind::Fraction
                    && f.side == side
                    && f.battlegroup.brigade == brigade
                    && !f.is_gone()
            })
            .collect();
        if fractions.is_empty() {
            self.log(
                RuleEvent::new(EventKind::Calendar, fyow("32 Chance Cards"))
                    .actor(&sc)
                    .outcome(json!({ "new_co": null, "reason": "no Fraction, no CO on the map" })),
            );
            return;
        }
        let i = fractions[pick(self, fractions.len())];
        let name = format!("CO of {} (appointed {})", self.forces[i].name, self.date);
        let elite = self.forces[i].elite;
        let (competency, e) = rate_commander(CommanderRole::BattlegroupCommander, elite, &mut self.dice, &name);
        self.log(e);
        let (traits, e) = Traits::thrown(elite, &mut self.dice, &name);
        self.log(e);
        self.forces[i].commander = Commander {
            name: name.clone(),
            role: CommanderRole::BattlegroupCommander,
            competency,
            traits: Some(traits),
        };
        self.forces[i].traits = traits;
        self.log(
            RuleEvent::new(EventKind::Calendar, fyow("32 Chance Cards"))
                .actor(&sc)
                .target(&self.forces[i].name)
                .outcome(json!({ "new_co": name })),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::army::commander::Competency;
    use crate::army::game_flow::DiaryCard;
    use crate::map::board::BoardId;
    use crate::map::common::Edge;
    use crate::play::testing::{campaign, weather};
    use crate::weather::Wind;

    #[test]
    fn the_four_of_hearts_gives_everybody_an_extra_rallying_throw() {
        // 32: "4♥ Everybody gets an extra SC Rallying throw", against the 4♣'s
        // "Air Commands get an extra SC Rallying throw".
        let mut c = campaign();
        for a in &mut c.armies {
            a.morale.score = 2;
            a.general.competency = Competency::Average;
        }
        let repair_throws = |c: &mut Campaign| -> Vec<String> {
            c.drain_events()
                .into_iter()
                .filter(|e| e.rule.section == "12.4 Strategic Condition Repair Throw")
                .map(|e| e.actor.unwrap_or_default())
                .collect()
        };
        c.drain_events();
        c.cards_today = vec![ChanceOutcome::ExtraRally(RallyWho::AirCommands)];
        c.chance_card_today();
        assert!(repair_throws(&mut c).is_empty(), "the 4♣ is the Air Commands' alone");
        c.cards_today = vec![ChanceOutcome::ExtraRally(RallyWho::Everybody)];
        c.chance_card_today();
        assert_eq!(repair_throws(&mut c), ["Landing force", "Garrison"], "each land force's throw (12.4)");
        weather(&mut c, Wind::Calm);
        c.air_start_of_day();
        let extra = c.drain_events().into_iter().find(|e| {
            e.rule.section == "28.12 Rallying Strategic Condition" && e.inputs.iter().any(|i| i.name == "card")
        });
        assert!(extra.is_some(), "and the Air Command's");
    }

    #[test]
    fn chance_cards_act_on_their_day() {
        // 32: "8s All Battlegroups (Fractions) -1 from (+1 to) Stockpile";
        // "5♥ 1 Partisan radio added"; "2♦ Any Replenishment due today delayed
        // until tomorrow"; "4♠ Command Decision rolls can be re-rolled today".
        let mut c = campaign();
        let before: Vec<u32> = c.forces.iter().map(|f| f.supply.stockpile()).collect();
        c.cards_today = vec![ChanceOutcome::Stockpile { who: StockpileWho::AllBattlegroups, change: -1 }];
        c.chance_card_today();
        for (f, b) in c.forces.iter().zip(before) {
            assert_eq!(f.supply.stockpile(), b.saturating_sub(1), "{}", f.name);
        }

        for cell in &mut c.partisans.as_mut().unwrap().cells {
            cell.radio = false;
        }
        c.cards_today = vec![ChanceOutcome::PartisanRadioAdded];
        c.chance_card_today();
        let radios: Vec<bool> = c.partisans.as_ref().unwrap().cells.iter().map(|c| c.radio).collect();
        assert_eq!(radios.iter().filter(|&&r| r).count(), 1, "one radio added: {radios:?}");
        assert!(radios[0]);

        c.relocate("Blue 2", &BoardId::new("Sea"), &BoardId::new("Beach"), Edge::West).unwrap();
        c.book_losses("Blue 2", 300, None);
        let (points, cards) = (c.force("Blue 2").unwrap().points(), c.diary.len());
        c.cards_today = vec![ChanceOutcome::ReplenishmentDelayed];
        c.diary_card(DiaryCard { owner: "Blue 2".into(), text: "replenishment 50".into() });
        assert_eq!(c.force("Blue 2").unwrap().points(), points, "not today");
        assert_eq!(c.diary.len(), cards + 1, "filed again for tomorrow");

        c.cards_today = vec![ChanceOutcome::CommandDecisionReroll];
        c.drain_events();
        let mut rerolled = 0;
        for q in 0..60 {
            c.decisions.clear();
            let Ok((d, e)) = c.command_decision("Major Two", Competency::BelowAverage, &format!("q{q}"), false) else {
                panic!("a decision")
            };
            if e.inputs.iter().any(|i| i.name == "rerolled") {
                rerolled += 1;
                assert_eq!(e.dice.len(), 2, "the first D10 and the re-roll");
                assert_eq!(d.success, d.face < d.target);
                assert!(e.dice[0].face >= d.target, "only a failure is re-rolled");
            }
        }
        assert!(rerolled > 0);

        // "4♣ Air Commands get an extra SC Rallying throw".
        weather(&mut c, Wind::Calm);
        c.cards_today = vec![ChanceOutcome::ExtraRally(RallyWho::AirCommands)];
        c.drain_events();
        c.air_start_of_day();
        let rally = c.drain_events().into_iter().find(|e| e.rule.section == "28.12 Rallying Strategic Condition");
        assert_eq!(rally.expect("the extra throw").dice.len(), 1, "one D6");

        // "A♠ Senior Command chosen by dice throw appoints a new CO": a Fraction's CO (3.3).
        let mut fraction = c.force("Blue 1").unwrap().clone();
        fraction.name = "Blue 1 carriers".into();
        fraction.kind = crate::map::common::ForceKind::Fraction;
        c.forces.push(fraction);
        c.cards_today = vec![ChanceOutcome::SeniorCommandAppointsNewCo];
        let mut appointed = false;
        for _ in 0..20 {
            c.chance_card_today();
            let co = &c.force("Blue 1 carriers").unwrap().commander;
            if co.name.starts_with("CO of Blue 1 carriers") {
                appointed = true;
                break;
            }
        }
        assert!(appointed, "the landing force's Senior Command comes up on the die");
        assert_eq!(c.force("Blue 1").unwrap().commander.name, "Major One", "a battlegroup's BC stays");
    }
}
