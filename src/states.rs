//! Screens and menus as Bevy states.
//!
//! [`AppState`] is the screen (title, battle, the campaign map). [`Menu`] is the overlay on top of it: while any menu is open the
//! battle flow and the camera wait.

use bevy::prelude::*;

#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AppState {
    /// Title screen with the main menu, the empty table behind it.
    #[default]
    Title,
    /// A battle on the table.
    Battle,
    /// The *Fight Your Own Wars* campaign map.
    Campaign,
}

#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Menu {
    /// No overlay: the player is at the table.
    #[default]
    Closed,
    /// Esc during a battle.
    Pause,
    Settings,
    /// Choosing a battle from the title screen.
    ScenarioPicker,
    /// Choosing a campaign and the army to command from the title screen.
    CampaignPicker,
    /// Naming the battle to save it (from the pause menu).
    SaveAs,
    /// Choosing a named save to load (from the title or the pause menu).
    LoadSave,
}

impl Menu {
    /// Where Esc leads from this menu on `screen`.
    pub fn back(self, screen: AppState) -> Menu {
        match (self, screen) {
            (Menu::Settings | Menu::SaveAs | Menu::LoadSave, AppState::Battle) => Menu::Pause,
            (Menu::Closed, AppState::Battle) => Menu::Pause,
            (
                Menu::Pause
                | Menu::Settings
                | Menu::ScenarioPicker
                | Menu::CampaignPicker
                | Menu::SaveAs
                | Menu::LoadSave
                | Menu::Closed,
                _,
            ) => Menu::Closed,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Menu>();
    // Leaving a screen closes whatever menu was open on it.
    app.add_systems(OnExit(AppState::Battle), close_menu)
        .add_systems(OnExit(AppState::Title), close_menu)
        .add_systems(OnExit(AppState::Campaign), close_menu);
}

fn close_menu(mut next: ResMut<NextState<Menu>>) {
    next.set(Menu::Closed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_toggles_pause_in_battle_and_closes_menus_on_title() {
        assert_eq!(Menu::Closed.back(AppState::Battle), Menu::Pause);
        assert_eq!(Menu::Pause.back(AppState::Battle), Menu::Closed);
        assert_eq!(Menu::Settings.back(AppState::Battle), Menu::Pause);
        assert_eq!(Menu::Settings.back(AppState::Title), Menu::Closed);
        assert_eq!(Menu::ScenarioPicker.back(AppState::Title), Menu::Closed);
        assert_eq!(Menu::Closed.back(AppState::Title), Menu::Closed);
        assert_eq!(Menu::SaveAs.back(AppState::Battle), Menu::Pause);
        assert_eq!(Menu::LoadSave.back(AppState::Battle), Menu::Pause);
        assert_eq!(Menu::LoadSave.back(AppState::Title), Menu::Closed);
        assert_eq!(Menu::CampaignPicker.back(AppState::Title), Menu::Closed);
        assert_eq!(Menu::Closed.back(AppState::Campaign), Menu::Closed, "Esc on the map opens nothing");
    }
}
