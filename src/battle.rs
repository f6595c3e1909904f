//! The battle being played: which scenario is on the table.
//!
//! The battle flow (OPC deck, activations, Order Dice…) hangs its systems
//! here as plugins; today this holds the active scenario and logs the start
//! and end of a battle.

use bevy::prelude::*;

use crate::{data::LoadedScenario, states::AppState};

/// The scenario on the table, if a battle has been chosen.
#[derive(Resource, Debug, Default, Clone)]
pub struct ActiveBattle(pub Option<LoadedScenario>);

/// Asks to start a battle on `scenario` (from the picker or the command line).
#[derive(Message, Debug, Clone)]
pub struct StartBattle(pub LoadedScenario);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ActiveBattle>()
        .add_message::<StartBattle>()
        .add_systems(Update, start_battle)
        .add_systems(OnEnter(AppState::Battle), announce)
        .add_systems(OnExit(AppState::Battle), clear);
}

fn start_battle(
    mut requests: MessageReader<StartBattle>,
    mut active: ResMut<ActiveBattle>,
    mut next: ResMut<NextState<AppState>>,
) {
    if let Some(StartBattle(scenario)) = requests.read().last() {
        active.0 = Some(scenario.clone());
        next.set(AppState::Battle);
    }
}

fn announce(active: Res<ActiveBattle>) {
    match &active.0 {
        Some(b) => info!("battle begins: {} ({})", b.scenario.name, b.source),
        None => warn!("battle screen entered with no scenario"),
    }
}

fn clear(mut active: ResMut<ActiveBattle>) {
    active.0 = None;
}
