//! *Heroes All* "Command and Control for 2-Player games": who goes first, the
//! Command Dice each player throws, and allocating them to elements with
//! their ORT, morale throws and re-rolls.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::morale::{fails, morale_row};
use super::{CommandError, MoraleCause, MoraleEffect, heroes_all};
use crate::dice::Roll;
use crate::event::{EventKind, RuleEvent};
use crate::officer::{Officer, Quality};
use crate::opc::{OrtResult, officer_reaction_test};

/// *Heroes All*: "one element can use up to 3 Command Dice per bound".
pub const COMMAND_DICE_PER_ELEMENT: u8 = 3;

/// The Command Dice a player has: one for each active element ("Artillery
/// with a FOO get 1 Command Die not 2"; a platoon with an attached CSW, or a
/// convoy treated as one, is one element), and "for every complete pile of 3
/// dice, he gets 1 extra".
pub fn command_dice_for(elements: u32) -> u32 {
    elements + elements / 3
}

/// What a Command Die allows an element (faces 1 to 5; a 6 is any of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CommandAction {
    /// 1 "fire some or all of its weapons".
    Fire,
    /// 2 "move up to maximum distance": no "At The Double".
    Move,
    /// 3 "observe".
    Observe,
    /// 4 an "Act": out of a concealed position, into/out of a vehicle, set up
    /// a CSW, a building, aim, change target/rotate turret, onto/off
    /// Overwatch, re-face a guard, engineering.
    Act,
    /// 5 "communicates with other elements on the table".
    Communicate,
}

/// *Heroes All* Command Dice faces 1..=5; a 6 "can be used for any of the
/// above or to re-roll a failed morale throw".
const COMMAND_DICE: [CommandAction; 5] =
    [CommandAction::Fire, CommandAction::Move, CommandAction::Observe, CommandAction::Act, CommandAction::Communicate];
const ANY_FACE: u8 = 6;

fn face_allows(face: u8, action: CommandAction) -> bool {
    face == ANY_FACE || COMMAND_DICE.get(usize::from(face) - 1) == Some(&action)
}

/// "At the start of each bound, each player throws 1 x D6. The player with
/// the highest score goes first." Reading: equal scores are thrown again.
/// Returns the first player, 0 or 1.
pub fn first_player(dice: &mut impl Roll) -> (usize, RuleEvent) {
    let mut faces = Vec::new();
    loop {
        let (a, b) = (dice.d6(), dice.d6());
        faces.extend([a, b]);
        if a != b {
            let first = usize::from(b > a);
            let e = RuleEvent::new(EventKind::CommandDice, heroes_all("Command and Control for 2-Player games"))
                .input("throws", faces.len() / 2, "equal scores throw again")
                .dice(6, &faces)
                .outcome(json!({ "first_player": first }));
            return (first, e);
        }
    }
}

/// An element in the 2-player game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TwoPlayerElement {
    pub id: String,
    pub nco: Officer,
    pub quality: Quality,
    /// Morale throws due: each cause with how many times it happened.
    /// Reading ("For each casualty sustained"): those since the element was
    /// last activated, as the solo game's Momentum tests are "on this bound".
    pub morale_due: Vec<(MoraleCause, u32)>,
}

/// What allocating a Command Die did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Allocation {
    /// The element takes the action; `seized` when its ORT earned a re-roll
    /// of one Command Die.
    Acts { action: CommandAction, seized: bool },
    /// Failed ORT: the die is lost and the element takes no action this bound.
    OrtFailed,
    /// Failed morale: the die is lost, no action this bound.
    MoraleFailed,
    /// An aircraft shot down failed its throw: the Air Command withdraws.
    AirCommandWithdraws,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
enum Activation {
    Acting { used: u8, rerolls: u8 },
    NoAction,
}

/// One player's Command Dice for a bound (*Heroes All* "Command and Control
/// for 2-Player games").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandDice {
    /// Faces thrown; `None` once used or lost.
    pool: Vec<Option<u8>>,
    activated: BTreeMap<String, Activation>,
}

impl CommandDice {
    /// Throws the player's Command Dice for `elements` active elements.
    pub fn throw(elements: u32, dice: &mut impl Roll) -> (Self, RuleEvent) {
        let n = command_dice_for(elements);
        let faces = dice.throw(n as usize, 6);
        let e = RuleEvent::new(EventKind::CommandDice, heroes_all("Command and Control for 2-Player games"))
            .input("elements", elements, "1 die each, 1 more per complete pile of 3")
            .dice(6, &faces)
            .outcome(json!({ "dice": n }));
        (Self { pool: faces.into_iter().map(Some).collect(), activated: BTreeMap::new() }, e)
    }

    /// Unused dice showing each face 1..=6.
    pub fn tally(&self) -> [u32; 6] {
        let mut t = [0; 6];
        for f in self.pool.iter().flatten() {
            t[usize::from(*f) - 1] += 1;
        }
        t
    }

    /// Dice thrown this bound, used or not.
    pub fn len(&self) -> usize {
        self.pool.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pool.is_empty()
    }

    /// The unused die at `index`.
    pub fn face(&self, index: usize) -> Option<u8> {
        self.pool.get(index).copied().flatten()
    }

    /// Gives die `die` to `element` for `action`. The first die an element is
    /// given in a bound calls for its NCO's ORT ("No action": the die is lost
    /// and, as the chart reads, the element does nothing this bound;
    /// "Seizes the initiative": one Command Die may be re-rolled, see
    /// [`CommandDice::reroll`]), then its morale throws. `sixes` are unused 6s
    /// the player will spend, one for each failed morale throw, to re-roll it.
    ///
    /// Reading (the 6 "can be used ... to re-roll a failed morale throw"
    /// against "to re-roll any of the above rolls if he has scored a '1'"):
    /// any failing morale throw may be re-rolled, a Poor element's 3 as much
    /// as a 1; each 6 re-rolls one throw.
    pub fn allocate(
        &mut self,
        element: &TwoPlayerElement,
        die: usize,
        action: CommandAction,
        sixes: &[usize],
        dice: &mut impl Roll,
    ) -> Result<(Allocation, Vec<RuleEvent>), CommandError> {
        let face = self.face(die).ok_or(CommandError::NoSuchDie(die))?;
        if !face_allows(face, action) {
            return Err(CommandError::WrongFace { face, action });
        }
        for (k, &s) in sixes.iter().enumerate() {
            if s == die || self.face(s) != Some(ANY_FACE) || sixes[..k].contains(&s) {
                return Err(CommandError::NotASix(s));
            }
        }
        let id = element.id.clone();
        let mut events = Vec::new();
        let mut seized = false;
        match self.activated.get(&id) {
            Some(Activation::NoAction) => return Err(CommandError::NoActionThisBound(id)),
            Some(Activation::Acting { used, .. }) if *used >= COMMAND_DICE_PER_ELEMENT => {
                return Err(CommandError::ThreeDiceUsed(id));
            }
            Some(Activation::Acting { .. }) => {}
            None => {
                let (ort, mut e) = officer_reaction_test(element.nco, dice, &id);
                e.rule = heroes_all("Command and Control for 2-Player games");
                events.push(e);
                if ort == OrtResult::NoAction {
                    self.pool[die] = None;
                    self.activated.insert(id, Activation::NoAction);
                    return Ok((Allocation::OrtFailed, events));
                }
                seized = ort == OrtResult::SeizesInitiative;
                let (failed, e) = self.morale(element, sixes, dice);
                events.push(e);
                if let Some(effect) = failed {
                    self.pool[die] = None;
                    self.activated.insert(id, Activation::NoAction);
                    let a = match effect {
                        MoraleEffect::NoActionThisBound => Allocation::MoraleFailed,
                        MoraleEffect::AirCommandWithdraws => Allocation::AirCommandWithdraws,
                    };
                    return Ok((a, events));
                }
                self.activated.insert(id.clone(), Activation::Acting { used: 0, rerolls: u8::from(seized) });
            }
        }
        self.pool[die] = None;
        if let Some(Activation::Acting { used, .. }) = self.activated.get_mut(&id) {
            *used += 1;
        }
        Ok((Allocation::Acts { action, seized }, events))
    }

    /// The element's morale throws, re-rolling failures with the 6s offered.
    /// Returns the effect of a throw still failed, if any.
    fn morale(
        &mut self,
        element: &TwoPlayerElement,
        sixes: &[usize],
        dice: &mut impl Roll,
    ) -> (Option<MoraleEffect>, RuleEvent) {
        let mut sixes = sixes.iter();
        let mut failed: Option<MoraleEffect> = None;
        let mut event = RuleEvent::new(EventKind::Morale, heroes_all("Morale")).actor(&element.id).input(
            "quality",
            element.quality,
            "",
        );
        let mut rerolled = 0;
        for &(cause, n) in &element.morale_due {
            let (_, sides, _, effect) = *morale_row(cause);
            for _ in 0..n {
                let mut face = dice.face(sides);
                event = event.dice(sides, &[face]);
                while fails(cause, element.quality, face) {
                    let Some(&six) = sixes.next() else { break };
                    self.pool[six] = None;
                    rerolled += 1;
                    face = dice.face(sides);
                    event = event.dice(sides, &[face]);
                }
                if fails(cause, element.quality, face) {
                    failed = match (failed, effect) {
                        (_, MoraleEffect::AirCommandWithdraws) | (Some(MoraleEffect::AirCommandWithdraws), _) => {
                            Some(MoraleEffect::AirCommandWithdraws)
                        }
                        _ => Some(MoraleEffect::NoActionThisBound),
                    };
                }
            }
        }
        let event = event
            .input("due", &element.morale_due, "one throw each")
            .outcome(json!({ "failed": failed, "sixes_spent": rerolled }));
        (failed, event)
    }

    /// Re-rolls one unused Command Die, the reward of an element that Seized
    /// the initiative ("can re-roll one Command Dice").
    pub fn reroll(&mut self, element: &str, die: usize, dice: &mut impl Roll) -> Result<(u8, RuleEvent), CommandError> {
        self.face(die).ok_or(CommandError::NoSuchDie(die))?;
        match self.activated.get_mut(element) {
            Some(Activation::Acting { rerolls, .. }) if *rerolls > 0 => *rerolls -= 1,
            _ => return Err(CommandError::NoRerollLeft(element.to_owned())),
        }
        let face = dice.d6();
        self.pool[die] = Some(face);
        let e = RuleEvent::new(EventKind::CommandDice, heroes_all("Command and Control for 2-Player games"))
            .actor(element)
            .input("die", die, "re-rolled for seizing the initiative")
            .dice(6, &[face])
            .outcome(json!({ "face": face }));
        Ok((face, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::testing::nco;
    use crate::dice::{Dice, Scripted};
    use crate::event::EventKind;
    use crate::officer::Grade;

    #[test]
    fn the_same_six_cannot_reroll_twice() {
        let (mut pool, _) = CommandDice::throw(2, &mut Scripted::new([2, 6]));
        let el = element(Grade::Regular, Quality::Poor, vec![(MoraleCause::Casualty, 2)]);
        assert_eq!(
            pool.allocate(&el, 0, CommandAction::Move, &[1, 1], &mut Scripted::new([])).unwrap_err(),
            CommandError::NotASix(1)
        );
    }

    #[test]
    fn book_example_six_elements_get_eight_command_dice() {
        // Heroes All: "The British player has 6 elements so he gets 6 Command Dice plus 2 more
        // for the 2 complete piles of 3 dice".
        assert_eq!(command_dice_for(6), 8);
        assert_eq!([0, 1, 2, 3, 5, 9, 10].map(command_dice_for), [0, 1, 2, 4, 6, 12, 13]);
        let (pool, e) = CommandDice::throw(6, &mut Scripted::new([1, 2, 3, 4, 5, 6, 1, 2]));
        assert_eq!(pool.tally().iter().sum::<u32>(), 8);
        assert_eq!(e.dice.len(), 8);
    }

    #[test]
    fn book_example_british_player_sorts_his_command_dice() {
        // "2 x Fire, 2 x Move, 1 x Observe, 2 x Acts and 1 x 'free' or Rally or Re-roll."
        let (pool, _) = CommandDice::throw(6, &mut Scripted::new([4, 1, 2, 6, 1, 3, 4, 2]));
        assert_eq!(pool.tally(), [2, 2, 1, 2, 0, 1]);
    }

    #[test]
    fn the_higher_d6_goes_first_and_ties_throw_again() {
        let (first, e) = first_player(&mut Scripted::new([3, 3, 2, 5]));
        assert_eq!((first, e.dice.len()), (1, 4));
        assert_eq!(first_player(&mut Scripted::new([6, 1])).0, 0);
    }

    fn element(grade: Grade, quality: Quality, due: Vec<(MoraleCause, u32)>) -> TwoPlayerElement {
        TwoPlayerElement { id: "1 Pl".into(), nco: nco(grade), quality, morale_due: due }
    }

    #[test]
    fn the_first_die_calls_for_an_ort_and_a_failure_loses_it() {
        let (mut pool, _) = CommandDice::throw(2, &mut Scripted::new([1, 2]));
        let el = element(Grade::Regular, Quality::Regular, vec![]);
        assert_eq!(
            pool.allocate(&el, 1, CommandAction::Fire, &[], &mut Scripted::new([])).unwrap_err(),
            CommandError::WrongFace { face: 2, action: CommandAction::Fire }
        );
        // Regular NCO: 1-2 no action.
        let (a, events) = pool.allocate(&el, 0, CommandAction::Fire, &[], &mut Scripted::new([2])).unwrap();
        assert_eq!((a, events.len()), (Allocation::OrtFailed, 1));
        assert_eq!(pool.face(0), None, "the die is lost");
        assert_eq!(
            pool.allocate(&el, 1, CommandAction::Move, &[], &mut Scripted::new([])).unwrap_err(),
            CommandError::NoActionThisBound("1 Pl".into())
        );
    }

    #[test]
    fn up_to_three_dice_an_element_with_one_ort_a_bound() {
        let (mut pool, _) = CommandDice::throw(3, &mut Scripted::new([1, 1, 6, 2]));
        let el = element(Grade::Regular, Quality::Regular, vec![]);
        let (a, _) = pool.allocate(&el, 0, CommandAction::Fire, &[], &mut Scripted::new([5])).unwrap();
        assert_eq!(a, Allocation::Acts { action: CommandAction::Fire, seized: false });
        // "it does not need to be allocated two 1's initially": a second 1, then a 6 as a Move.
        pool.allocate(&el, 1, CommandAction::Fire, &[], &mut Scripted::new([])).unwrap();
        pool.allocate(&el, 2, CommandAction::Move, &[], &mut Scripted::new([])).unwrap();
        assert_eq!(
            pool.allocate(&el, 3, CommandAction::Move, &[], &mut Scripted::new([])).unwrap_err(),
            CommandError::ThreeDiceUsed("1 Pl".into())
        );
        assert_eq!(
            pool.allocate(&el, 0, CommandAction::Fire, &[], &mut Scripted::new([])).unwrap_err(),
            CommandError::NoSuchDie(0)
        );
    }

    #[test]
    fn seizing_the_initiative_earns_one_command_die_reroll() {
        let (mut pool, _) = CommandDice::throw(2, &mut Scripted::new([3, 5]));
        let el = element(Grade::Regular, Quality::Regular, vec![]);
        let (a, _) = pool.allocate(&el, 0, CommandAction::Observe, &[], &mut Scripted::new([10])).unwrap();
        assert_eq!(a, Allocation::Acts { action: CommandAction::Observe, seized: true });
        let (face, _) = pool.reroll("1 Pl", 1, &mut Scripted::new([1])).unwrap();
        assert_eq!((face, pool.face(1)), (1, Some(1)));
        assert_eq!(
            pool.reroll("1 Pl", 1, &mut Scripted::new([4])).unwrap_err(),
            CommandError::NoRerollLeft("1 Pl".into())
        );
    }

    #[test]
    fn a_casualty_a_d10_and_a_failure_stops_the_element_unless_a_six_rerolls_it() {
        let el = element(Grade::Regular, Quality::Poor, vec![(MoraleCause::Casualty, 2)]);
        // ORT 5 (acts), morale D10s 7 and 3: the Poor element fails on the 3.
        let (mut pool, _) = CommandDice::throw(2, &mut Scripted::new([2, 6]));
        let (a, events) = pool.allocate(&el, 0, CommandAction::Move, &[], &mut Scripted::new([5, 7, 3])).unwrap();
        assert_eq!(a, Allocation::MoraleFailed);
        assert_eq!((events[1].kind, events[1].dice.len()), (EventKind::Morale, 2));
        assert_eq!(pool.face(1), Some(6), "no 6 offered, none spent");
        // Again with the 6 spent on a re-roll: 3 fails, re-rolled to 8.
        let (mut pool, _) = CommandDice::throw(2, &mut Scripted::new([2, 6]));
        assert_eq!(
            pool.allocate(&el, 0, CommandAction::Move, &[0], &mut Scripted::new([])).unwrap_err(),
            CommandError::NotASix(0)
        );
        let (a, _) = pool.allocate(&el, 0, CommandAction::Move, &[1], &mut Scripted::new([5, 7, 3, 8])).unwrap();
        assert_eq!(a, Allocation::Acts { action: CommandAction::Move, seized: false });
        assert_eq!(pool.tally(), [0; 6], "the 6 was spent");
    }

    #[test]
    fn an_aircraft_shot_down_may_withdraw_the_air_command() {
        let el = element(
            Grade::Bold,
            Quality::Elite,
            vec![(MoraleCause::AircraftDrivenOff, 1), (MoraleCause::AircraftShotDown, 1)],
        );
        let (mut pool, _) = CommandDice::throw(1, &mut Scripted::new([1]));
        let (a, _) = pool.allocate(&el, 0, CommandAction::Fire, &[], &mut Scripted::new([5, 4, 1])).unwrap();
        assert_eq!(a, Allocation::AirCommandWithdraws);
    }

    #[test]
    fn morale_failure_odds_match_the_table_for_every_seed() {
        // One casualty: a Regular element fails 2 in 10.
        let el = element(Grade::Inspirational, Quality::Regular, vec![(MoraleCause::Casualty, 1)]);
        let mut dice = Dice::new(13);
        let n = 10_000;
        let mut failed = 0;
        for _ in 0..n {
            let (mut pool, _) = CommandDice::throw(1, &mut dice);
            let action =
                COMMAND_DICE.get(usize::from(pool.face(0).unwrap()) - 1).copied().unwrap_or(CommandAction::Fire);
            let (a, _) = pool.allocate(&el, 0, action, &[], &mut dice).unwrap();
            failed += u32::from(a == Allocation::MoraleFailed);
        }
        assert!((f64::from(failed) / f64::from(n) - 0.2).abs() < 0.015, "{failed}");
    }
}
