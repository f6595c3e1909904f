//! leafwing-input-manager setup: every player action and its default binding.
//!
//! Both action sets live on one [`PlayerInput`] entity (one player, one
//! table); systems read them with `Single<&ActionState<…>>`. Defaults
//! follow PC strategy games: right-drag orbits, middle-drag pans, the wheel
//! zooms; WASD/arrows pan, Q/E rotate, R/F tilt, +/- zoom, Home resets, T top-down.

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

#[derive(Actionlike, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
pub enum CameraAction {
    /// Slide the view across the table (keys).
    #[actionlike(DualAxis)]
    Pan,
    /// Turn around the point looked at (keys).
    #[actionlike(Axis)]
    Rotate,
    /// Look more from above or more from the side (keys).
    #[actionlike(Axis)]
    Tilt,
    /// Wheel notches: closer or farther.
    #[actionlike(Axis)]
    ZoomWheel,
    /// Held keys: closer or farther.
    #[actionlike(Axis)]
    ZoomKeys,
    /// Mouse motion, used while a drag button is held.
    #[actionlike(DualAxis)]
    Pointer,
    /// Hold to orbit with the mouse.
    OrbitDrag,
    /// Hold to pan with the mouse.
    PanDrag,
    /// Back to the view of the whole table.
    ResetView,
    /// Look straight down on the table.
    TopDown,
    /// Centre the view on the selected miniature.
    FocusSelected,
}

impl CameraAction {
    pub fn default_input_map() -> InputMap<Self> {
        InputMap::default()
            .with_dual_axis(Self::Pan, VirtualDPad::wasd())
            .with_dual_axis(Self::Pan, VirtualDPad::arrow_keys())
            .with_axis(Self::Rotate, VirtualAxis::new(KeyCode::KeyQ, KeyCode::KeyE))
            .with_axis(Self::Tilt, VirtualAxis::new(KeyCode::KeyF, KeyCode::KeyR))
            .with_axis(Self::ZoomWheel, MouseScrollAxis::Y)
            .with_axis(Self::ZoomKeys, VirtualAxis::new(KeyCode::Minus, KeyCode::Equal))
            .with_axis(Self::ZoomKeys, VirtualAxis::new(KeyCode::NumpadSubtract, KeyCode::NumpadAdd))
            .with_dual_axis(Self::Pointer, MouseMove::default())
            .with(Self::OrbitDrag, MouseButton::Right)
            .with(Self::PanDrag, MouseButton::Middle)
            .with(Self::ResetView, KeyCode::Home)
            .with(Self::TopDown, KeyCode::KeyT)
            .with(Self::FocusSelected, KeyCode::KeyC)
    }
}

#[derive(Actionlike, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
pub enum UiAction {
    /// Esc: open the pause menu, or close the open menu.
    Back,
    /// F11: fullscreen on and off.
    ToggleFullscreen,
    /// Backspace: take back the Player's last command (a single key, so it
    /// can be rebound in the Controls window like every other action).
    Undo,
}

impl UiAction {
    pub fn default_input_map() -> InputMap<Self> {
        InputMap::default()
            .with(Self::Back, KeyCode::Escape)
            .with(Self::ToggleFullscreen, KeyCode::F11)
            .with(Self::Undo, KeyCode::Backspace)
    }
}

/// The entity holding the player's input maps and action states.
/// Actions on the battle table.
#[derive(Actionlike, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
pub enum TableAction {
    /// Select a miniature, or give the point a move goes to.
    Pick,
    /// End the acting element's turn.
    EndTurn,
    /// The inch tape.
    Tape,
    /// The line-of-sight tool.
    Sight,
    /// Skip the dice rolling in the tray to where they come to rest.
    SkipDice,
}

impl TableAction {
    pub fn default_input_map() -> InputMap<Self> {
        InputMap::default()
            .with(Self::Pick, MouseButton::Left)
            .with(Self::EndTurn, KeyCode::Enter)
            .with(Self::Tape, KeyCode::KeyM)
            .with(Self::Sight, KeyCode::KeyL)
            .with(Self::SkipDice, KeyCode::Space)
    }
}

#[derive(Component, Debug)]
pub struct PlayerInput;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        InputManagerPlugin::<CameraAction>::default(),
        InputManagerPlugin::<UiAction>::default(),
        InputManagerPlugin::<TableAction>::default(),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Key names in the debug form of every binding of `map`.
    fn keys<A: Actionlike>(map: &InputMap<A>) -> Vec<String> {
        let mut text = String::new();
        for (_, inputs) in map.iter_buttonlike() {
            text += &format!("{inputs:?}");
        }
        for (_, inputs) in map.iter_axislike() {
            text += &format!("{inputs:?}");
        }
        for (_, inputs) in map.iter_dual_axislike() {
            text += &format!("{inputs:?}");
        }
        text.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|t| {
                ["Key", "Arrow", "Numpad", "Digit"].iter().any(|p| t.starts_with(p) && t.len() > p.len())
                    || ["Escape", "F11", "Home", "Minus", "Equal", "Enter", "Space", "Backspace"].contains(t)
            })
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn no_key_does_two_things() {
        let mut all = keys(&CameraAction::default_input_map());
        all.extend(keys(&UiAction::default_input_map()));
        all.extend(keys(&TableAction::default_input_map()));
        let bound = all.len();
        assert!(bound >= 20, "expected the default keys, found {all:?}");
        all.sort();
        all.dedup();
        assert_eq!(all.len(), bound, "a key is bound twice");
    }
}
