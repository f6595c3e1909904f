//! An assault on the table as it happens (*Heroes All*, "Close assaults"):
//! the grenades the assailants throw before they go in fly from them to the
//! building and burst there, one for each grenade thrown; the assailants
//! close (their miniatures glide in, `miniatures`), and each round's dice
//! are thrown in the tray in turn (`dice`) while the battle waits.

use bevy::prelude::*;
use warbound_rules::event::EventKind;

use super::{ElementModel, table::TableRoot};
use crate::{battle::log::BattleLog, settings::Settings};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (throw_grenades, fly_grenades).chain());
}

/// Seconds a grenade flies, and between two grenades thrown.
const FLIGHT: f32 = 0.9;
const STAGGER: f32 = 0.25;
/// Seconds a burst lasts, and its widest radius in inches.
const BURST: f32 = 0.5;
const BURST_RADIUS: f32 = 1.2;
/// How high a grenade's arc rises over the straight line, inches.
const ARC: f32 = 3.0;

/// A grenade in the air, `t` seconds after it was thrown (negative: not yet).
#[derive(Component, Debug)]
struct Grenade {
    from: Vec3,
    to: Vec3,
    t: f32,
}

/// A grenade's burst, `t` seconds old.
#[derive(Component, Debug)]
struct Burst {
    t: f32,
}

/// Meshes and materials of grenades and bursts.
#[derive(Resource, Clone)]
struct GrenadeKit {
    grenade: Handle<Mesh>,
    burst: Handle<Mesh>,
    iron: Handle<StandardMaterial>,
    flash: Handle<StandardMaterial>,
}

/// Where a grenade is `t` seconds into its flight: along the line from the
/// thrower to the target, lifted on a parabola [`ARC`] high at the middle.
pub fn grenade_at(from: Vec3, to: Vec3, t: f32) -> Vec3 {
    let k = (t / FLIGHT).clamp(0.0, 1.0);
    from.lerp(to, k) + Vec3::Y * (4.0 * ARC * k * (1.0 - k))
}

/// The grenades of each assault logged since the last frame: as many as
/// dice were thrown for them on entering, from the assailants' miniatures to
/// the defenders'.
#[allow(clippy::too_many_arguments)]
fn throw_grenades(
    mut commands: Commands,
    log: Option<Res<BattleLog>>,
    settings: Res<Settings>,
    tables: Query<Entity, With<TableRoot>>,
    models: Query<(&ElementModel, &Transform, &Visibility)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    kit: Option<Res<GrenadeKit>>,
    mut seen: Local<usize>,
) {
    let Some(log) = log else { return };
    let total = log.entries.len();
    if total < *seen {
        *seen = 0;
    }
    let from = *seen;
    *seen = total;
    if settings.dice == crate::settings::DiceShow::Off {
        return;
    }
    let Ok(table) = tables.single() else { return };
    let at = |id: &str| {
        models.iter().find(|(m, _, v)| m.0 == id && **v != Visibility::Hidden).map(|(_, t, _)| t.translation)
    };
    let kit = match kit {
        Some(k) => k.clone(),
        None => {
            let k = GrenadeKit {
                grenade: meshes.add(Sphere::new(0.25)),
                burst: meshes.add(Sphere::new(1.0)),
                iron: materials.add(StandardMaterial { base_color: Color::srgb(0.2, 0.25, 0.15), ..default() }),
                flash: materials.add(StandardMaterial {
                    base_color: Color::srgba(1.0, 0.6, 0.15, 0.8),
                    emissive: LinearRgba::rgb(6.0, 2.5, 0.4),
                    alpha_mode: AlphaMode::Blend,
                    unlit: true,
                    ..default()
                }),
            };
            commands.insert_resource(k.clone());
            k
        }
    };
    for entry in &log.entries[from.min(total)..] {
        let e = &entry.event;
        let entering = e.outcome.get("entering").is_some();
        if e.kind != EventKind::Assault || !entering || e.dice.is_empty() {
            continue;
        }
        let (Some(thrower), Some(target)) = (e.actor.as_deref().and_then(at), e.target.as_deref().and_then(at)) else {
            continue;
        };
        commands.entity(table).with_children(|t| {
            for (k, _) in e.dice.iter().enumerate() {
                let from = thrower + Vec3::Y * 1.0;
                t.spawn((
                    Grenade { from, to: target + Vec3::Y * 0.5, t: -(k as f32) * STAGGER },
                    Mesh3d(kit.grenade.clone()),
                    MeshMaterial3d(kit.iron.clone()),
                    Transform::from_translation(from),
                    Visibility::Hidden,
                ));
            }
        });
    }
}

/// Flies each grenade along its arc, bursts it on arrival, and fades the bursts.
fn fly_grenades(
    mut commands: Commands,
    time: Res<Time>,
    kit: Option<Res<GrenadeKit>>,
    tables: Query<Entity, With<TableRoot>>,
    mut grenades: Query<(Entity, &mut Grenade, &mut Transform, &mut Visibility), Without<Burst>>,
    mut bursts: Query<(Entity, &mut Burst, &mut Transform), Without<Grenade>>,
) {
    let dt = time.delta_secs();
    for (entity, mut g, mut transform, mut visibility) in &mut grenades {
        g.t += dt;
        if g.t < 0.0 {
            continue;
        }
        *visibility = Visibility::Inherited;
        transform.translation = grenade_at(g.from, g.to, g.t);
        if g.t >= FLIGHT {
            commands.entity(entity).despawn();
            if let (Some(kit), Ok(table)) = (kit.as_ref(), tables.single()) {
                commands.entity(table).with_children(|t| {
                    t.spawn((
                        Burst { t: 0.0 },
                        Mesh3d(kit.burst.clone()),
                        MeshMaterial3d(kit.flash.clone()),
                        Transform::from_translation(g.to).with_scale(Vec3::splat(0.2)),
                    ));
                });
            }
        }
    }
    for (entity, mut b, mut transform) in &mut bursts {
        b.t += dt;
        if b.t >= BURST {
            commands.entity(entity).despawn();
            continue;
        }
        transform.scale = Vec3::splat(0.2 + (BURST_RADIUS - 0.2) * (b.t / BURST));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grenade_leaves_the_thrower_arcs_over_and_lands_on_the_target() {
        let (from, to) = (Vec3::new(0.0, 1.0, 0.0), Vec3::new(6.0, 0.5, -2.0));
        assert_eq!(grenade_at(from, to, 0.0), from);
        assert!(grenade_at(from, to, FLIGHT).distance(to) < 1e-5);
        let middle = grenade_at(from, to, FLIGHT / 2.0);
        assert!((middle.y - (from.y + to.y) / 2.0 - ARC).abs() < 1e-4, "{middle}");
        // Not yet thrown: still in the thrower's hand; long landed: on the target.
        assert_eq!(grenade_at(from, to, -1.0), from);
        assert!(grenade_at(from, to, 10.0).distance(to) < 1e-5);
    }
}
