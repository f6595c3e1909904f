//! Demolition charges on the table (*Heroes All*, "Explosives"): each live
//! charge the side at the screen knows of — its own, or an enemy's its
//! engineers have found — as a crate of explosive where it is set, a fuse
//! post beside it while it waits on a delay. Gone once it goes off or dies.

use bevy::prelude::*;
use warbound_rules::explosives::ChargeState;

use super::{at_screen::AtScreen, table::TableRoot, terrain::to_world};
use crate::battle::state::{Battle, Demolition};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, show_charges);
}

/// A charge's model on the table.
#[derive(Component)]
struct ChargeModel;

/// The charges the side at the screen knows of (every live one when the
/// program plays both sides): where each stands and whether it is on a delay.
fn known(charges: &[Demolition], at: AtScreen) -> Vec<(f32, f32, bool)> {
    charges
        .iter()
        .filter(|d| d.live() && at.0.is_none_or(|s| d.side == s || d.found))
        .map(|d: &Demolition| (d.at.0, d.at.1, matches!(d.charge.state, ChargeState::Delayed(_))))
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn show_charges(
    mut commands: Commands,
    battle: Option<Res<Battle>>,
    at: Res<AtScreen>,
    tables: Query<(Entity, &TableRoot)>,
    drawn: Query<Entity, With<ChargeModel>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut shown: Local<Option<Vec<(f32, f32, bool)>>>,
) {
    let want = battle.as_ref().map(|b| known(&b.charges, *at)).unwrap_or_default();
    let Ok((table, root)) = tables.single() else { return };
    if shown.as_ref() == Some(&want) && drawn.is_empty() == want.is_empty() {
        return;
    }
    for e in &drawn {
        commands.entity(e).despawn();
    }
    *shown = Some(want.clone());
    if want.is_empty() {
        return;
    }
    let crate_mesh = meshes.add(Cuboid::new(0.6, 0.4, 0.4));
    let fuse_mesh = meshes.add(Cylinder::new(0.05, 0.8));
    let red = materials.add(StandardMaterial { base_color: Color::srgb(0.55, 0.12, 0.08), ..default() });
    let fuse = materials.add(StandardMaterial { base_color: Color::srgb(0.9, 0.8, 0.2), ..default() });
    commands.entity(table).with_children(|t| {
        for &(x, y, delayed) in &want {
            let p = warbound_rules::terrain::Point(x, y);
            t.spawn((
                ChargeModel,
                Mesh3d(crate_mesh.clone()),
                MeshMaterial3d(red.clone()),
                Transform::from_translation(to_world(root.0, p, 0.45)),
            ));
            if delayed {
                t.spawn((
                    ChargeModel,
                    Mesh3d(fuse_mesh.clone()),
                    MeshMaterial3d(fuse.clone()),
                    Transform::from_translation(to_world(root.0, warbound_rules::terrain::Point(x + 0.5, y), 0.65)),
                ));
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use warbound_rules::explosives::{Charge, ChargeKind};
    use warbound_rules::terrain::Point;

    fn charge(side: usize, found: bool, delay: u8) -> Demolition {
        Demolition {
            id: format!("c{side}{delay}"),
            side,
            at: Point(10.0, 20.0),
            charge: Charge::set(ChargeKind::Large, delay).unwrap(),
            target: "bridge".into(),
            found,
        }
    }

    #[test]
    fn a_side_sees_its_own_charges_and_the_enemy_charges_it_found() {
        let mut charges = vec![charge(0, false, 0), charge(1, false, 3), charge(1, true, 0)];
        assert_eq!(known(&charges, AtScreen(Some(0))), vec![(10.0, 20.0, false), (10.0, 20.0, false)]);
        assert_eq!(known(&charges, AtScreen(Some(1))), vec![(10.0, 20.0, true), (10.0, 20.0, false)]);
        assert_eq!(known(&charges, AtScreen(None)).len(), 3, "the program plays both: all show");
        charges[0].charge.state = ChargeState::Detonated;
        assert_eq!(known(&charges, AtScreen(None)).len(), 2, "a charge gone off is gone");
    }
}
