//! Picking on the table: a left click selects the miniature under the
//! pointer or, while a move is being given, sends the acting element there
//! (or the acting miniature is dragged to where it goes);
//! Enter ends its turn; C, or a pick in a panel ([`CentreView`]), turns the
//! view on a place. All through leafwing actions (`input.rs`), and never
//! while egui has the pointer.

use bevy::{prelude::*, window::PrimaryWindow};
use bevy_egui::input::EguiWantsInput;
use leafwing_input_manager::prelude::*;
use warbound_rules::{
    geometry::distance,
    terrain::{Point, TableSize},
};

use super::{miniatures::shown, table::TableRoot};
use crate::{
    battle::{
        Selected,
        command::{Command, Inbox},
        setup::Control,
        state::{ElementView, FieldedReadOnly, Flow, Sides},
    },
    input::{PlayerInput, TableAction},
};

/// What a left click on the table does now.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum TableClick {
    /// Selects the miniature clicked.
    #[default]
    Select,
    /// Gives the acting element's move: the point clicked.
    Move,
}

/// In the 2-player game, the Command Die a move on the table is given with:
/// the element and the die (its index in the throw). A click on the table
/// while [`TableClick::Move`] gives that die's move to the point.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct DieMove(pub Option<(String, usize)>);

/// A miniature is picked within this many inches of the point clicked.
const PICK_RADIUS: f32 = 2.0;

/// Turns the view on this point of the table (inches from its near-left
/// corner), the camera keeping its angle and distance: sent by C on the
/// selected miniature and by the panels (a company or element picked in the
/// Order of Battle).
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct CentreView(pub Point);

/// A drag let go nearer than this to where it began is a click.
const DRAG_MIN: f32 = 1.0;

/// The point of the table under the pointer, inches, if it is over the table.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct TablePointer(pub Option<Point>);

/// A move being dragged from the acting miniature: where the drag began.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct Dragging(pub Option<Point>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TableClick>()
        .init_resource::<TablePointer>()
        .init_resource::<Dragging>()
        .init_resource::<DieMove>()
        .add_message::<CentreView>()
        .add_systems(Update, (track_pointer, pick, focus_selected, centre_view).chain());
}

/// Where on the table the pointer is, each frame.
fn track_pointer(
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    tables: Query<(&TableRoot, &GlobalTransform)>,
    mut pointer: ResMut<TablePointer>,
) {
    let at = (|| {
        let (window, (camera, eye), (root, at)) =
            (windows.single().ok()?, cameras.single().ok()?, tables.single().ok()?);
        let ray = camera.viewport_to_world(eye, window.cursor_position()?).ok()?;
        table_point(ray, at, root.0)
    })();
    if pointer.0 != at {
        pointer.0 = at;
    }
}

/// C: the view turns on the selected miniature.
fn focus_selected(
    actions: Query<&ActionState<crate::input::CameraAction>, With<PlayerInput>>,
    selected: Res<Selected>,
    elements: Query<FieldedReadOnly>,
    mut centre: MessageWriter<CentreView>,
) {
    let Ok(actions) = actions.single() else { return };
    if !actions.just_pressed(&crate::input::CameraAction::FocusSelected) {
        return;
    }
    let Some(id) = &selected.0 else { return };
    if let Some(f) = elements.iter().find(|f| f.id() == id) {
        centre.write(CentreView(f.place.at));
    }
}

/// The view turns on the last point asked for, kept over the table.
fn centre_view(
    mut asked: MessageReader<CentreView>,
    tables: Query<&TableRoot>,
    mut cameras: Query<&mut super::OrbitCamera>,
) {
    let (Some(CentreView(point)), Ok(root)) = (asked.read().last(), tables.single()) else { return };
    let at = super::to_world(root.0, *point, 0.0);
    for mut camera in &mut cameras {
        *camera = super::OrbitCamera { focus: Vec3::new(at.x, 0.0, at.z), ..*camera }.clamped();
    }
}

/// The point of the table top (inches from its near-left corner) a ray meets, if it meets the table.
pub fn table_point(ray: Ray3d, root: &GlobalTransform, size: TableSize) -> Option<Point> {
    let t = ray.intersect_plane(root.translation(), InfinitePlane3d::new(root.up()))?;
    let local = root.affine().inverse().transform_point3(ray.get_point(t));
    let p = Point(local.x + size.width / 2.0, size.depth / 2.0 - local.z);
    ((0.0..=size.width).contains(&p.0) && (0.0..=size.depth).contains(&p.1)).then_some(p)
}

/// The element acting now, if the person at the screen commands it.
fn players_turn(flow: &Flow, sides: &Sides, elements: &[ElementView]) -> Option<(String, bool)> {
    let Flow::Acting(turn) = flow else { return None };
    let me = elements.iter().find(|f| f.id() == turn.element)?;
    (sides.0[me.identity.side].control == Control::Player).then(|| (turn.element.clone(), turn.pending_move.is_some()))
}

/// The command a move given on the table makes: before the Movement Dice
/// the route declared towards the point, after them where it stops.
fn move_command(element: &str, pending: bool, point: Point) -> Command {
    let (element, to) = (element.to_owned(), (point.0, point.1));
    if pending { Command::MoveTo { element, to } } else { Command::Move { element, to, pace: Default::default() } }
}

/// What letting go of a drag begun on the acting miniature gives: a move to
/// where it was let go, or nothing when it was let go where it began (a click).
pub fn drag_release(turn: Option<(&str, bool)>, began: Point, released: Option<Point>) -> Option<Command> {
    let (element, pending) = turn?;
    let to = released?;
    (distance(began, to) >= DRAG_MIN).then(|| move_command(element, pending, to))
}

#[allow(clippy::too_many_arguments)]
fn pick(
    actions: Query<&ActionState<TableAction>, With<PlayerInput>>,
    egui: Option<Res<EguiWantsInput>>,
    pointer: Res<TablePointer>,
    mut dragging: ResMut<Dragging>,
    elements: Query<FieldedReadOnly>,
    state: (Option<Res<Flow>>, Option<Res<Sides>>, Res<crate::settings::Settings>),
    mut selected: ResMut<Selected>,
    mut mode: ResMut<TableClick>,
    mut inbox: ResMut<Inbox>,
    mut tool: ResMut<super::tools::Tool>,
    (at, mut die_move): (Res<super::AtScreen>, ResMut<DieMove>),
) {
    let Ok(actions) = actions.single() else { return };
    let (Some(flow), Some(sides), settings) = state else { return };
    let sides = at.seen(&sides);
    let whole = settings.show_whole_table;
    let all: Vec<ElementView> = elements.iter().map(|f| f.view()).collect();
    let turn = players_turn(&flow, &sides, &all);
    let egui_keys = egui.as_ref().is_some_and(|e| e.wants_any_keyboard_input());
    if actions.just_pressed(&TableAction::EndTurn)
        && !egui_keys
        && inbox.0.is_empty()
        && let Some((element, _)) = &turn
    {
        inbox.0.push_back(Command::EndTurn { element: element.clone() });
        *mode = TableClick::Select;
    }
    // A drag from the acting miniature, let go: the move to where it was let go.
    if let Some(began) = dragging.0
        && !actions.pressed(&TableAction::Pick)
    {
        dragging.0 = None;
        let turn = turn.as_ref().map(|(e, p)| (e.as_str(), *p));
        if let Some(cmd) = drag_release(turn, began, pointer.0)
            && inbox.0.is_empty()
        {
            inbox.0.push_back(cmd);
            *mode = TableClick::Select;
        }
        return;
    }
    if !actions.just_pressed(&TableAction::Pick) || egui.is_some_and(|e| e.wants_any_pointer_input()) {
        return;
    }
    let Some(point) = pointer.0 else { return };
    if tool.kind.is_some() {
        tool.click(point);
        return;
    }
    // A Command Die's move: to the point clicked.
    if *mode == TableClick::Move
        && let Some((element, die)) = die_move.0.take()
    {
        let action = crate::battle::command::DieAction::Move { to: (point.0, point.1) };
        inbox.0.push_back(Command::Die { element, die, action, sixes: Vec::new() });
        *mode = TableClick::Select;
        return;
    }
    match (*mode, &turn) {
        (TableClick::Move, Some((element, pending))) => {
            inbox.0.push_back(move_command(element, *pending, point));
            *mode = TableClick::Select;
        }
        _ => {
            // Pressed on the acting miniature: perhaps the start of a drag.
            if let Some((element, _)) = &turn
                && all.iter().any(|f| f.id() == element && distance(f.place.at, point) <= PICK_RADIUS)
            {
                dragging.0 = Some(point);
            }
            *mode = TableClick::Select;
            selected.0 = all
                .iter()
                .filter(|f| shown(f, &sides, &all, whole))
                .map(|f| (distance(f.place.at, point), f.id()))
                .filter(|(d, _)| *d <= PICK_RADIUS)
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, id)| id.to_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drag_let_go_away_from_the_miniature_gives_the_move() {
        let began = Point(10.0, 10.0);
        // Before the Movement Dice: the route declared.
        assert_eq!(
            drag_release(Some(("1_section", false)), began, Some(Point(10.0, 20.0))),
            Some(Command::Move { element: "1_section".into(), to: (10.0, 20.0), pace: Default::default() })
        );
        // After them: where it stops.
        assert_eq!(
            drag_release(Some(("1_section", true)), began, Some(Point(12.0, 14.0))),
            Some(Command::MoveTo { element: "1_section".into(), to: (12.0, 14.0) })
        );
        // Let go where it began: a click, not a move; off the table or not his turn: nothing.
        assert_eq!(drag_release(Some(("1_section", false)), began, Some(Point(10.5, 10.2))), None);
        assert_eq!(drag_release(Some(("1_section", false)), began, None), None);
        assert_eq!(drag_release(None, began, Some(Point(30.0, 30.0))), None);
    }

    #[test]
    fn a_ray_straight_down_meets_the_table_where_it_points() {
        let size = TableSize { width: 72.0, depth: 48.0 };
        let root = GlobalTransform::from(Transform::from_xyz(0.0, 30.0, 0.0));
        // Straight down over the table's centre: 36", 24".
        let ray = Ray3d::new(Vec3::new(0.0, 100.0, 0.0), Dir3::NEG_Y);
        let p = table_point(ray, &root, size).unwrap();
        assert!((p.0 - 36.0).abs() < 1e-4 && (p.1 - 24.0).abs() < 1e-4, "{p:?}");
        // 10" right and 12" towards the near edge (world +z).
        let ray = Ray3d::new(Vec3::new(10.0, 100.0, 12.0), Dir3::NEG_Y);
        let p = table_point(ray, &root, size).unwrap();
        assert!((p.0 - 46.0).abs() < 1e-4 && (p.1 - 12.0).abs() < 1e-4, "{p:?}");
        // Off the table: no point.
        let ray = Ray3d::new(Vec3::new(50.0, 100.0, 0.0), Dir3::NEG_Y);
        assert_eq!(table_point(ray, &root, size), None);
    }

    #[test]
    fn a_point_asked_for_turns_the_view_on_it_over_the_table() {
        let mut app = App::new();
        app.add_message::<CentreView>().add_systems(Update, centre_view);
        let size = TableSize { width: 72.0, depth: 48.0 };
        let home = super::super::OrbitCamera::home(Vec2::new(72.0, 48.0));
        app.world_mut().spawn(TableRoot(size));
        let camera = app.world_mut().spawn(home).id();
        // 10" right of the table's centre and 12" nearer its near edge.
        app.world_mut().write_message(CentreView(Point(46.0, 12.0)));
        app.update();
        let cam = *app.world().get::<super::super::OrbitCamera>(camera).unwrap();
        assert_eq!(cam.focus, Vec3::new(10.0, 0.0, 12.0));
        assert_eq!(
            (cam.yaw, cam.pitch, cam.distance),
            (home.yaw, home.pitch, home.distance),
            "angle and distance kept"
        );
        // A point off the table: the view stops at its edge.
        app.world_mut().write_message(CentreView(Point(100.0, 12.0)));
        app.update();
        assert_eq!(app.world().get::<super::super::OrbitCamera>(camera).unwrap().focus, Vec3::new(36.0, 0.0, 12.0));
    }
}
