//! Physics dice: the D6s of a throw (and the Order Die, a D6 marked 1, 1, 2,
//! 2, 3, 3 as FYOB makes it) tumble in a dice tray before the table and
//! come to rest showing the faces the seeded dice already decided. Each die
//! is thrown once in a rapier world of its own (the tray's floor and walls,
//! gravity 386 in/s²), before it is shown; the face that ends up on top is
//! then numbered with the result (its opposite with the rest to 7), and the
//! recorded flight is played back. The rules never wait for them: the log
//! has the result at once. Settings: normal, fast, or no dice.

use bevy::prelude::*;
use bevy_rapier3d::rapier::prelude::{ColliderBuilder, PhysicsWorld, RigidBodyBuilder, Vector};
use leafwing_input_manager::prelude::*;
use warbound_rules::{event::EventKind, narrate};

use super::table::TableRoot;
use crate::{
    battle::{
        WatchAssaults,
        log::{BattleLog, Entry},
        names::Names,
        setup::Control,
        state::{FieldedReadOnly, Sides},
    },
    input::{PlayerInput, TableAction},
    settings::{DiceShow, Settings},
};

/// Half the edge of a die: a 16mm die is about 0.6".
const HALF: f32 = 0.3;
/// The tray's inner size, inches.
const TRAY_SIZE: Vec2 = Vec2::new(12.0, 7.0);
/// The tray stands on a shelf in front of the near edge, this far out, at the table top's height.
const TRAY_OUT: f32 = 3.0;
/// Simulation steps a second, and the longest flight recorded.
const STEPS_PER_SECOND: f32 = 60.0;
const MAX_STEPS: usize = 360;
/// At most this many dice of one throw are shown (a side's Command Dice fill the tray).
const MAX_DICE: usize = 12;
/// The local face normals of a die, in the order of [`faces_for`]'s result:
/// +Y, −Y, +X, −X, +Z, −Z (opposites side by side).
const NORMALS: [Vec3; 6] = [Vec3::Y, Vec3::NEG_Y, Vec3::X, Vec3::NEG_X, Vec3::Z, Vec3::NEG_Z];

/// The face whose normal points most nearly up when the die rests at `rotation`.
pub fn face_up(rotation: Quat) -> usize {
    (0..6).max_by(|&a, &b| (rotation * NORMALS[a]).y.total_cmp(&(rotation * NORMALS[b]).y)).expect("six faces")
}

/// Numbers for the six faces (in [`NORMALS`] order) so that face `up` shows
/// `wanted` and opposite faces add up to 7, as on a real die.
pub fn faces_for(up: usize, wanted: u8) -> [u8; 6] {
    let wanted = wanted.clamp(1, 6);
    let mut faces = [0u8; 6];
    faces[up] = wanted;
    faces[up ^ 1] = 7 - wanted;
    let mut rest = (1..=3u8).filter(|&n| n != wanted && n != 7 - wanted);
    for pair in [0usize, 2, 4] {
        if pair == up & !1 {
            continue;
        }
        let n = rest.next().expect("two pairs left");
        faces[pair] = n;
        faces[pair + 1] = 7 - n;
    }
    faces
}

/// Numbers for a D3 made as FYOB makes the Order Dice — a D6 "showing 1, 1,
/// 2, 2, 3, 3" — so that face `up` shows `wanted` (1 to 3).
pub fn d3_faces_for(up: usize, wanted: u8) -> [u8; 6] {
    faces_for(up, wanted.clamp(1, 3) * 2).map(|n| n.div_ceil(2))
}

/// A die's flight in tray coordinates (inches, the tray floor's centre at the origin).
pub fn throw_path(start: Vec3, velocity: Vec3, spin: Vec3) -> Vec<(Vec3, Quat)> {
    let mut world = PhysicsWorld { gravity: Vector::new(0.0, -386.0, 0.0), ..PhysicsWorld::default() };
    world.integration_parameters.dt = 1.0 / STEPS_PER_SECOND;
    let (hx, hz) = (TRAY_SIZE.x / 2.0, TRAY_SIZE.y / 2.0);
    let wall = 0.5;
    let pieces = [
        (Vector::new(0.0, -wall, 0.0), Vector::new(hx + wall, wall, hz + wall)),
        (Vector::new(hx + wall, 3.0, 0.0), Vector::new(wall, 4.0, hz + wall)),
        (Vector::new(-hx - wall, 3.0, 0.0), Vector::new(wall, 4.0, hz + wall)),
        (Vector::new(0.0, 3.0, hz + wall), Vector::new(hx + wall, 4.0, wall)),
        (Vector::new(0.0, 3.0, -hz - wall), Vector::new(hx + wall, 4.0, wall)),
    ];
    for (at, half) in pieces {
        world.insert(
            RigidBodyBuilder::fixed().translation(at),
            ColliderBuilder::cuboid(half.x, half.y, half.z).friction(0.6).restitution(0.3),
        );
    }
    let (die, _) = world.insert(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(start.x, start.y, start.z))
            .linvel(Vector::new(velocity.x, velocity.y, velocity.z))
            .angvel(Vector::new(spin.x, spin.y, spin.z))
            .linear_damping(0.3)
            .angular_damping(0.6),
        ColliderBuilder::cuboid(HALF, HALF, HALF).friction(0.5).restitution(0.35).density(0.02),
    );
    let mut path = Vec::new();
    for _ in 0..MAX_STEPS {
        world.step();
        let body = &world.bodies[die];
        let (t, r) = (body.translation(), body.rotation());
        path.push((Vec3::new(t.x, t.y, t.z), Quat::from_xyzw(r.x, r.y, r.z, r.w).normalize()));
        if body.is_sleeping() || (body.linvel().length() < 0.05 && body.angvel().length() < 0.05 && path.len() > 30) {
            break;
        }
    }
    path
}

/// A small, deterministic stream from a throw's place in the log: the
/// dice's starting speeds vary from throw to throw and replay identically.
fn wobble(seed: u64, k: u64) -> f32 {
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407 ^ k.wrapping_mul(0x9E37));
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51afd7ed558ccd);
    x ^= x >> 33;
    (x % 10_000) as f32 / 10_000.0
}

/// A die in the tray, playing back its flight.
#[derive(Component, Debug)]
struct Die {
    path: Vec<(Vec3, Quat)>,
    /// Steps played so far.
    t: f32,
}

/// The dice tray on the table.
#[derive(Component, Debug)]
struct Tray;

/// Meshes and materials shared by every die.
#[derive(Resource)]
struct DiceKit {
    body: Handle<Mesh>,
    pip: Handle<Mesh>,
    ivory: Handle<StandardMaterial>,
    black: Handle<StandardMaterial>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TrayThrows>().add_systems(Update, (place_tray, read_throws, next_throw, play_back).chain());
}

/// Where the tray's floor centre lies in the table root's space: on the
/// player's side, in front of the near edge's middle, off the terrain.
fn tray_origin(root: &TableRoot) -> Vec3 {
    Vec3::new(0.0, 0.0, root.0.depth / 2.0 + TRAY_OUT + TRAY_SIZE.y / 2.0)
}

fn place_tray(
    mut commands: Commands,
    tables: Query<(Entity, &TableRoot), Added<TableRoot>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    for (table, root) in &tables {
        let felt = materials.add(StandardMaterial { base_color: Color::srgb(0.12, 0.25, 0.14), ..default() });
        let wood = materials.add(StandardMaterial { base_color: Color::srgb(0.35, 0.22, 0.12), ..default() });
        let at = tray_origin(root);
        let (w, d) = (TRAY_SIZE.x, TRAY_SIZE.y);
        commands.entity(table).with_children(|t| {
            t.spawn((Tray, Transform::from_translation(at), Visibility::default())).with_children(|tray| {
                tray.spawn((
                    Mesh3d(meshes.add(Cuboid::new(w, 0.2, d))),
                    MeshMaterial3d(felt),
                    Transform::from_xyz(0.0, -0.1, 0.0),
                ));
                for (x, z, sx, sz) in
                    [(w / 2.0, 0.0, 0.3, d), (-w / 2.0, 0.0, 0.3, d), (0.0, d / 2.0, w, 0.3), (0.0, -d / 2.0, w, 0.3)]
                {
                    tray.spawn((
                        Mesh3d(meshes.add(Cuboid::new(sx, 0.8, sz))),
                        MeshMaterial3d(wood.clone()),
                        Transform::from_xyz(x, 0.2, z),
                    ));
                }
                // The shelf the tray stands on.
                tray.spawn((
                    Mesh3d(meshes.add(Cuboid::new(w + 2.0, 0.6, d + 2.0 * TRAY_OUT))),
                    MeshMaterial3d(wood),
                    Transform::from_xyz(0.0, -0.5, -TRAY_OUT),
                ));
            });
        });
        commands.insert_resource(DiceKit {
            body: meshes.add(Cuboid::new(2.0 * HALF, 2.0 * HALF, 2.0 * HALF)),
            pip: meshes.add(Sphere::new(0.055)),
            ivory: materials.add(StandardMaterial { base_color: Color::srgb(0.93, 0.90, 0.82), ..default() }),
            black: materials.add(StandardMaterial { base_color: Color::srgb(0.05, 0.05, 0.05), ..default() }),
        });
    }
}

/// Pip positions on a face, in the face's own two axes (units of a third of the face).
fn pips(n: u8) -> &'static [(f32, f32)] {
    match n {
        1 => &[(0.0, 0.0)],
        2 => &[(-1.0, -1.0), (1.0, 1.0)],
        3 => &[(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)],
        4 => &[(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)],
        5 => &[(-1.0, -1.0), (1.0, -1.0), (0.0, 0.0), (-1.0, 1.0), (1.0, 1.0)],
        _ => &[(-1.0, -1.0), (1.0, -1.0), (-1.0, 0.0), (1.0, 0.0), (-1.0, 1.0), (1.0, 1.0)],
    }
}

/// One throw to show in the tray: its dice (sides, face up), the seed of
/// its flight, and the log's sentence for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Throw {
    pub faces: Vec<(u8, u8)>,
    pub seed: u64,
    pub caption: String,
}

/// The throws waiting for the tray, and the sentence of the one in it. The
/// rounds of an assault wait their turn, each shown until it rests and a
/// moment longer; any other throw replaces the one in the tray at once.
#[derive(Resource, Debug, Default)]
pub struct TrayThrows {
    queue: std::collections::VecDeque<Throw>,
    /// Whether the throw in the tray is an assault's, to be watched to the end.
    watched: bool,
    /// Seconds the dice in the tray have lain at rest.
    rested: f32,
    /// What the dice in the tray are, in words.
    pub caption: Option<String>,
}

/// Seconds an assault's round lies in the tray after coming to rest.
const ROUND_DWELL: f32 = 1.2;

/// The log entries from `from` whose dice the tray shows, by index: every
/// throw from the first assault on, in order, when the new entries hold an
/// assault (it is watched round by round); else only the newest throw that
/// concerns the person at the screen (`mine`). The flag says which.
pub fn throws_to_show(entries: &[Entry], from: usize, mine: impl Fn(&Option<String>) -> bool) -> (Vec<usize>, bool) {
    let tumbles = |e: &Entry| e.event.dice.iter().any(|d| d.sides == 6 || d.sides == 3);
    let new = &entries[from.min(entries.len())..];
    if let Some(first) = new.iter().position(|e| e.event.kind == EventKind::Assault) {
        let rounds = (from + first..entries.len()).filter(|&i| tumbles(&entries[i])).collect();
        return (rounds, true);
    }
    let newest = (from..entries.len()).rev().find(|&i| tumbles(&entries[i]) && mine(&entries[i].event.actor));
    (newest.into_iter().collect(), false)
}

/// Reads the new log entries: queues an assault's rounds, or puts the newest
/// throw of the person at the screen in the tray (his own elements' throws,
/// or any when he commands no side).
#[allow(clippy::too_many_arguments)]
fn read_throws(
    log: Option<Res<BattleLog>>,
    sides: Option<Res<Sides>>,
    names: Option<Res<Names>>,
    elements: Query<FieldedReadOnly>,
    settings: Res<Settings>,
    mut throws: ResMut<TrayThrows>,
    watch: Option<ResMut<WatchAssaults>>,
    (at, mut seen): (Res<super::AtScreen>, Local<usize>),
) {
    let (Some(log), Some(sides)) = (log, sides) else { return };
    let sides = at.seen(&sides);
    let total = log.entries.len();
    if total < *seen {
        *seen = 0;
        *throws = TrayThrows::default();
    }
    if total == *seen {
        return;
    }
    let from = *seen;
    *seen = total;
    if settings.dice == DiceShow::Off {
        // No dice shown: nothing to watch, the flow goes straight on.
        if let Some(mut w) = watch {
            w.held = false;
        }
        return;
    }
    let player = sides.0.iter().position(|s| s.control == Control::Player);
    let mine = |actor: &Option<String>| match (player, actor) {
        (None, _) => true,
        // His elements' throws, and his side's own (its Command Dice).
        (Some(p), Some(a)) => elements.iter().any(|f| f.id() == a && f.identity.side == p) || sides.0[p].name == *a,
        (Some(_), None) => false,
    };
    let (shown, assault) = throws_to_show(&log.entries, from, mine);
    let name = |id: &str| names.as_ref().and_then(|n| n.get(id));
    let throw = |i: usize| {
        let e = &log.entries[i].event;
        let faces =
            e.dice.iter().filter(|d| d.sides == 6 || d.sides == 3).map(|d| (d.sides, d.face)).take(MAX_DICE).collect();
        Throw { faces, seed: i as u64, caption: narrate::sentence(e, &name) }
    };
    if assault {
        throws.queue.extend(shown.into_iter().map(throw));
    } else if let Some(&i) = shown.last()
        && throws.queue.is_empty()
        && !throws.watched
    {
        throws.queue.push_back(throw(i));
    }
    if assault
        && throws.queue.is_empty()
        && let Some(mut w) = watch
    {
        w.held = false;
    }
}

/// Puts the next throw in the tray when the one there may give way: at once
/// for an ordinary throw, after it has rested a moment for an assault's
/// round; lets the flow go on when the assault's last round has been seen.
#[allow(clippy::too_many_arguments)]
fn next_throw(
    mut commands: Commands,
    time: Res<Time>,
    settings: Res<Settings>,
    kit: Option<Res<DiceKit>>,
    trays: Query<Entity, With<Tray>>,
    old: Query<(Entity, &Die)>,
    mut throws: ResMut<TrayThrows>,
    watch: Option<ResMut<WatchAssaults>>,
) {
    let resting = old.iter().all(|(_, d)| d.t as usize + 1 >= d.path.len());
    if resting {
        throws.rested += time.delta_secs() * if settings.dice == DiceShow::Fast { 3.0 } else { 1.0 };
    }
    let done = !throws.watched || (resting && throws.rested >= ROUND_DWELL);
    if !done {
        return;
    }
    let (Some(kit), Ok(tray)) = (kit, trays.single()) else {
        // No tray to throw in: nothing is watched.
        throws.queue.clear();
        throws.watched = false;
        if let Some(mut w) = watch {
            w.held = false;
        }
        return;
    };
    let Some(next) = throws.queue.pop_front() else {
        if throws.watched {
            throws.watched = false;
            if let Some(mut w) = watch {
                w.held = false;
            }
        }
        return;
    };
    for (die, _) in &old {
        commands.entity(die).despawn();
    }
    throws.watched = !throws.queue.is_empty() || watch.as_ref().is_some_and(|w| w.held);
    throws.rested = 0.0;
    throws.caption = Some(next.caption.clone());
    spawn_throw(&mut commands, tray, &kit, &next);
}

/// The dice of `throw` flying into the tray.
fn spawn_throw(commands: &mut Commands, tray: Entity, kit: &DiceKit, throw: &Throw) {
    let seed = throw.seed;
    // Six abreast across the tray, a second row behind the first.
    let n = throw.faces.len().min(6) as f32;
    commands.entity(tray).with_children(|t| {
        for (k, &(sides, face)) in throw.faces.iter().enumerate() {
            let k64 = k as u64;
            let (row, across) = ((k / 6) as f32, (k % 6) as f32);
            let start = Vec3::new(
                -TRAY_SIZE.x / 2.0 + 1.0 + 1.2 * row,
                2.5 + wobble(seed, k64),
                (across - (n - 1.0) / 2.0) * 1.0,
            );
            let velocity = Vec3::new(30.0 + 15.0 * wobble(seed, k64 + 10), 0.0, 8.0 * (wobble(seed, k64 + 20) - 0.5));
            let spin = Vec3::new(
                20.0 * (wobble(seed, k64 + 30) - 0.5),
                20.0 * (wobble(seed, k64 + 40) - 0.5),
                20.0 * (wobble(seed, k64 + 50) - 0.5),
            );
            let path = throw_path(start, velocity, spin);
            let Some(&(_, end)) = path.last() else { continue };
            let numbers = if sides == 3 { d3_faces_for(face_up(end), face) } else { faces_for(face_up(end), face) };
            t.spawn((
                Die { path, t: 0.0 },
                Mesh3d(kit.body.clone()),
                MeshMaterial3d(kit.ivory.clone()),
                Transform::from_translation(start),
            ))
            .with_children(|d| {
                for (f, normal) in NORMALS.iter().enumerate() {
                    let (u, v) = normal.any_orthonormal_pair();
                    for &(a, b) in pips(numbers[f]) {
                        let at = *normal * HALF + (u * a + v * b) * (HALF * 0.55);
                        d.spawn((
                            Mesh3d(kit.pip.clone()),
                            MeshMaterial3d(kit.black.clone()),
                            Transform::from_translation(at),
                        ));
                    }
                }
            });
        }
    });
}

/// Plays each die's flight back at the speed set; Space skips to the end.
/// The dice then lie in the tray as they fell until the next throw.
fn play_back(
    mut dice: Query<(&mut Die, &mut Transform)>,
    time: Res<Time>,
    settings: Res<Settings>,
    actions: Query<&ActionState<TableAction>, With<PlayerInput>>,
) {
    let skip = actions.single().is_ok_and(|a| a.just_pressed(&TableAction::SkipDice));
    let speed = if settings.dice == DiceShow::Fast { 3.0 } else { 1.0 };
    for (mut die, mut transform) in &mut dice {
        let last = die.path.len().saturating_sub(1) as f32;
        die.t = if skip { last } else { (die.t + time.delta_secs() * STEPS_PER_SECOND * speed).min(last) };
        let (at, rotation) = die.path[die.t as usize];
        transform.translation = at;
        transform.rotation = rotation;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_put_the_result_on_top_and_opposites_add_to_seven() {
        for up in 0..6 {
            for wanted in 1..=6 {
                let f = faces_for(up, wanted);
                assert_eq!(f[up], wanted);
                for pair in [0, 2, 4] {
                    assert_eq!(f[pair] + f[pair + 1], 7, "{f:?}");
                }
                let mut sorted = f;
                sorted.sort();
                assert_eq!(sorted, [1, 2, 3, 4, 5, 6]);
            }
        }
    }

    #[test]
    fn the_order_die_is_a_d6_marked_one_to_three_twice_with_the_result_on_top() {
        for up in 0..6 {
            for wanted in 1..=3u8 {
                let f = d3_faces_for(up, wanted);
                assert_eq!(f[up], wanted, "{f:?}");
                let mut sorted = f;
                sorted.sort();
                assert_eq!(sorted, [1, 1, 2, 2, 3, 3]);
            }
        }
    }

    #[test]
    fn a_thrown_die_comes_to_rest_in_the_tray_and_the_numbered_face_is_on_top() {
        let path = throw_path(Vec3::new(-4.0, 3.0, 0.0), Vec3::new(35.0, 0.0, 2.0), Vec3::new(9.0, -6.0, 4.0));
        let (at, rotation) = *path.last().unwrap();
        assert!(path.len() > 10 && path.len() <= MAX_STEPS);
        assert!(at.x.abs() < TRAY_SIZE.x / 2.0 && at.z.abs() < TRAY_SIZE.y / 2.0, "in the tray: {at}");
        assert!((at.y - HALF).abs() < 0.1, "resting on the floor: {at}");
        let up = face_up(rotation);
        assert!((rotation * NORMALS[up]).y > 0.9, "flat on a face");
        // The same throw flies the same way.
        assert_eq!(path, throw_path(Vec3::new(-4.0, 3.0, 0.0), Vec3::new(35.0, 0.0, 2.0), Vec3::new(9.0, -6.0, 4.0)));
    }

    fn entry(kind: EventKind, actor: &str, dice: &[u8]) -> Entry {
        let e = warbound_rules::event::RuleEvent::new(
            kind,
            warbound_rules::event::RuleRef::new(warbound_rules::event::Book::HeroesAll, "Close assaults"),
        )
        .actor(actor)
        .dice(6, dice);
        Entry { bound: 1, event: e }
    }

    #[test]
    fn an_assault_shows_every_round_in_turn_and_other_throws_only_the_newest() {
        let mine = |a: &Option<String>| a.as_deref() == Some("ours");
        let entries = vec![
            entry(EventKind::Fire, "ours", &[3]),
            entry(EventKind::Fire, "ours", &[4, 5]),
            entry(EventKind::Fire, "theirs", &[6]),
        ];
        // Ordinary throws: only the newest of the player's own.
        assert_eq!(throws_to_show(&entries, 0, mine), (vec![1], false));
        let mut entries = entries;
        entries.push(entry(EventKind::Assault, "ours", &[2, 5]));
        entries.push(entry(EventKind::Fire, "ours", &[1, 6, 6]));
        entries.push(entry(EventKind::Fire, "theirs", &[3, 4]));
        // An assault: the grenades and each side's close fire, in order, the enemy's included.
        assert_eq!(throws_to_show(&entries, 2, mine), (vec![3, 4, 5], true));
        assert_eq!(throws_to_show(&entries, entries.len(), mine), (vec![], false));
    }
}
