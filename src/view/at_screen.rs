//! Who is at the screen: the side the person there commands, whose eyes the
//! table, the panels and the log see with. In the solo game it is the
//! Player's side; in the 2-player hotseat (*Heroes All*'s Command Dice game,
//! both sides commanded at this screen) it is the side whose player throws
//! his Command Dice now, and between their turns the one who last did, so
//! that neither sees the other's hidden enemies.

use std::borrow::Cow;

use bevy::prelude::*;

use crate::battle::{
    setup::Control,
    state::{Flow, Sides},
};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AtScreen>().add_systems(PreUpdate, follow_turns);
}

/// The side the person at the screen commands now (`None`: the program
/// plays every side, a demonstration, and the whole table shows).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AtScreen(pub Option<usize>);

impl AtScreen {
    /// The side at the screen, given the last one and the flow: the Player's
    /// side; in a hotseat the side whose player gives out his Command Dice,
    /// else the last.
    pub fn next(self, sides: &Sides, flow: &Flow) -> Self {
        let players: Vec<usize> = (0..sides.0.len()).filter(|&s| sides.0[s].control == Control::Player).collect();
        if players.len() <= 1 {
            return Self(players.first().copied());
        }
        match flow {
            Flow::Commanding(h) if players.contains(&h.player) => Self(Some(h.player)),
            _ => Self(self.0.filter(|s| players.contains(s)).or(players.first().copied())),
        }
    }

    /// The sides as the person at the screen stands to them: in a hotseat,
    /// the other player's side reads as the program's, so everything that
    /// keeps the enemy's secrets from a player keeps them from him.
    pub fn seen<'a>(&self, sides: &'a Sides) -> Cow<'a, Sides> {
        let hotseat = sides.0.iter().filter(|s| s.control == Control::Player).count() > 1;
        match self.0 {
            Some(me) if hotseat => {
                let mut seen = sides.clone();
                for (k, s) in seen.0.iter_mut().enumerate() {
                    if k != me {
                        s.control = Control::Auto;
                    }
                }
                Cow::Owned(seen)
            }
            _ => Cow::Borrowed(sides),
        }
    }
}

fn follow_turns(sides: Option<Res<Sides>>, flow: Option<Res<Flow>>, mut at: ResMut<AtScreen>) {
    let (Some(sides), Some(flow)) = (sides, flow) else {
        if at.0.is_some() {
            at.0 = None;
        }
        return;
    };
    let next = at.next(&sides, &flow);
    if *at != next {
        *at = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::state::Hotseat;

    fn sides(control: [Control; 2]) -> Sides {
        let scenario = crate::data::load_scenario("patrol").unwrap().scenario;
        let mut start = crate::battle::setup::BattleStart::auto("patrol", scenario, 1);
        start.control = control.to_vec();
        let app = crate::battle::battle_app(start, Default::default()).unwrap();
        app.world().resource::<Sides>().clone()
    }

    fn commanding(player: usize) -> Flow {
        Flow::Commanding(Hotseat {
            player,
            second: false,
            dice: warbound_rules::command::CommandDice::throw(2, &mut warbound_rules::dice::Dice::new(1)).0,
            used: Default::default(),
            halted: Default::default(),
            rerolls: Default::default(),
            aimed: Default::default(),
        })
    }

    #[test]
    fn the_solo_player_is_always_at_the_screen_and_a_demonstration_has_no_one() {
        let solo = sides([Control::Auto, Control::Player]);
        assert_eq!(AtScreen(None).next(&solo, &Flow::Deal), AtScreen(Some(1)));
        assert_eq!(AtScreen(Some(1)).next(&solo, &commanding(0)), AtScreen(Some(1)));
        assert!(matches!(AtScreen(Some(1)).seen(&solo), Cow::Borrowed(_)));
        let demo = sides([Control::Auto, Control::Auto]);
        assert_eq!(AtScreen(Some(0)).next(&demo, &Flow::Deal), AtScreen(None));
    }

    #[test]
    fn in_a_hotseat_the_commanding_player_has_the_screen_and_the_other_side_reads_as_the_program() {
        let both = sides([Control::Player, Control::Player]);
        let at = AtScreen(None).next(&both, &commanding(1));
        assert_eq!(at, AtScreen(Some(1)));
        // Between the players' turns the screen stays with the last.
        assert_eq!(at.next(&both, &Flow::EndBound), AtScreen(Some(1)));
        assert_eq!(at.next(&both, &commanding(0)), AtScreen(Some(0)));
        let seen = at.seen(&both);
        assert_eq!(seen.0[1].control, Control::Player);
        assert_eq!(seen.0[0].control, Control::Auto, "the other player's side is kept from him as the enemy's");
        assert_eq!(crate::view::player_side(&seen), Some(1));
    }
}
