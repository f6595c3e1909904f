//! The table's measuring tools: an inch tape (M) between two points clicked,
//! and a line-of-sight tool (L) that shows what lies between two figures
//! standing at the points clicked — each wood, wall, hedge, building and
//! crest the line meets and the segments counted — with the very functions
//! the rules use ([`geometry::sight_line`], [`observation::assess`]).

use std::f32::consts::FRAC_PI_2;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use leafwing_input_manager::prelude::*;
use warbound_rules::{
    day::Light,
    geometry::{self, HILL_LEVEL_HEIGHT, Seen, Viewpoint, distance, hill_level},
    observation::{self, Momentum, ObservationTest, ObserverClass, ObserverState, Sight, TargetClass, TargetState},
    terrain::{Point, Terrain},
};

use super::{table::TableRoot, terrain::to_world};
use crate::{
    battle::state::Battle,
    input::{PlayerInput, TableAction},
    states::AppState,
};

/// The tool in hand and the points clicked with it.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Tool {
    pub kind: Option<ToolKind>,
    pub points: Vec<Point>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolKind {
    Tape,
    Sight,
}

impl Tool {
    /// A click on the table with the tool: the first point, the second, then a fresh start.
    pub fn click(&mut self, p: Point) {
        if self.points.len() >= 2 {
            self.points.clear();
        }
        self.points.push(p);
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Tool>()
        .add_systems(Update, (choose_tool, draw_tool).run_if(in_state(AppState::Battle)))
        .add_systems(EguiPrimaryContextPass, tool_window.run_if(resource_exists::<Battle>));
}

fn choose_tool(actions: Query<&ActionState<TableAction>, With<PlayerInput>>, mut tool: ResMut<Tool>) {
    let Ok(actions) = actions.single() else { return };
    for (action, kind) in [(TableAction::Tape, ToolKind::Tape), (TableAction::Sight, ToolKind::Sight)] {
        if actions.just_pressed(&action) {
            *tool =
                if tool.kind == Some(kind) { Tool::default() } else { Tool { kind: Some(kind), points: Vec::new() } };
        }
    }
}

/// What a line of sight between figures at `a` and `b` meets, and the
/// segments an observation along it would count (Regular observers, no
/// other factor but the night of a night bound).
pub fn sight_report(terrain: &Terrain, a: Point, b: Point, night: bool) -> Result<(Vec<String>, String), String> {
    let line =
        geometry::sight_line(terrain, Viewpoint::figure(a), Viewpoint::figure(b), false).map_err(|e| e.to_string())?;
    let mut notes = Vec::new();
    for n in &line.trace {
        let what = match n.seen {
            Seen::Wood { density, inches } => format!("{inches:.1}\" of {density:?} wood"),
            Seen::Obstacle { kind, height } => format!("a {height:?} {kind:?}: 1 segment"),
            Seen::ObstacleTouching { kind, .. } => format!("a {kind:?} touching the observer: ignored"),
            Seen::ObstacleBlocks { kind } => format!("a {kind:?} higher than the target: no sight"),
            Seen::BuildingBlocks => "a building across the line: no sight".to_owned(),
            Seen::CrestBlocks { level } => format!("hill level {level} rises above the line: no sight"),
            Seen::Height { hill_levels, storeys } => {
                format!("the observer stands {hill_levels} hill level(s) and {storeys} storey(s) higher")
            }
        };
        notes.push(format!("at {:.1}\": {what}", n.at));
    }
    let test = ObservationTest {
        observers: &[(ObserverClass::Figure, 1)],
        targets: &[(TargetClass::Figure, 1)],
        between: line.between,
        observer: ObserverState { momentum: Momentum::default(), ..ObserverState::default() },
        target: TargetState::default(),
        night,
    };
    let assessment = observation::assess(&test).map_err(|e| e.to_string())?;
    for (name, why, n) in assessment.segments.lines() {
        notes.push(format!("{name}: {n:+} ({why})"));
    }
    let verdict = match assessment.sight {
        Sight::Autospot => "seen without a test (1 segment or less)".to_owned(),
        Sight::Test { needed } => format!("a test: each D6 needs {needed}+"),
        Sight::SuperThrow { needed } => format!("a super-throw: a 6, then {needed}+ on a D10"),
        Sight::Unseeable(why) => format!("cannot be seen: {why:?}"),
    };
    Ok((notes, verdict))
}

fn draw_tool(
    mut gizmos: Gizmos,
    tool: Res<Tool>,
    battle: Option<Res<Battle>>,
    tables: Query<(&TableRoot, &GlobalTransform)>,
) {
    let (Some(battle), Ok((root, table))) = (battle, tables.single()) else { return };
    let at = |p: Point| {
        let ground = f32::from(hill_level(&battle.terrain, p)) * HILL_LEVEL_HEIGHT + 0.3;
        table.transform_point(to_world(root.0, p, ground))
    };
    let colour = match tool.kind {
        Some(ToolKind::Tape) => Color::srgb(1.0, 1.0, 0.4),
        Some(ToolKind::Sight) => Color::srgb(0.4, 1.0, 1.0),
        None => return,
    };
    for p in &tool.points {
        gizmos.circle(Isometry3d::new(at(*p), Quat::from_rotation_x(FRAC_PI_2)), 0.5, colour);
    }
    if let [a, b] = tool.points[..] {
        gizmos.line(at(a), at(b), colour);
        // Inch marks every 6" along a tape.
        if tool.kind == Some(ToolKind::Tape) {
            let length = distance(a, b).get();
            let mut d = 6.0;
            while d < length {
                let k = d / length;
                let p = Point(a.0 + (b.0 - a.0) * k, a.1 + (b.1 - a.1) * k);
                gizmos.circle(Isometry3d::new(at(p), Quat::from_rotation_x(FRAC_PI_2)), 0.25, colour);
                d += 6.0;
            }
        }
    }
}

fn tool_window(mut contexts: EguiContexts, mut tool: ResMut<Tool>, battle: Res<Battle>) {
    let Some(kind) = tool.kind else { return };
    let Ok(ctx) = contexts.ctx_mut() else { return };
    let title = match kind {
        ToolKind::Tape => "Tape measure",
        ToolKind::Sight => "Line of sight",
    };
    let mut open = true;
    egui::Window::new(title)
        .open(&mut open)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 10.0])
        .default_width(360.0)
        .resizable(false)
        .show(ctx, |ui| match tool.points[..] {
            [] => {
                ui.label("Click the table where it starts.");
            }
            [_] => {
                ui.label("Click where it ends.");
            }
            [a, b, ..] => {
                ui.label(format!("{:.1}\" from ({:.1}, {:.1}) to ({:.1}, {:.1})", distance(a, b), a.0, a.1, b.0, b.1));
                if kind == ToolKind::Sight {
                    match sight_report(&battle.terrain, a, b, battle.clock.light() == Light::Night) {
                        Ok((notes, verdict)) => {
                            ui.strong(verdict);
                            for n in notes {
                                ui.label(egui::RichText::new(n).small());
                            }
                        }
                        Err(e) => {
                            ui.colored_label(egui::Color32::LIGHT_RED, e);
                        }
                    }
                }
            }
        });
    if !open {
        *tool = Tool::default();
    }
}

#[cfg(test)]
mod tests {
    use warbound_rules::terrain::{Feature, WoodDensity};

    use super::*;

    #[test]
    fn a_tool_takes_two_points_then_starts_again() {
        let mut t = Tool { kind: Some(ToolKind::Tape), points: Vec::new() };
        t.click(Point(1.0, 1.0));
        t.click(Point(4.0, 5.0));
        assert_eq!(t.points.len(), 2);
        t.click(Point(9.0, 9.0));
        assert_eq!(t.points, vec![Point(9.0, 9.0)]);
    }

    #[test]
    fn the_sight_tool_counts_the_wood_it_crosses_as_the_rules_do() {
        let wood = Feature::Wood {
            density: WoodDensity::Dense,
            outline: vec![Point(10.0, -5.0), Point(11.0, -5.0), Point(11.0, 5.0), Point(10.0, 5.0)],
        };
        let terrain = Terrain { features: vec![wood], gaps: Vec::new() };
        let (notes, verdict) = sight_report(&terrain, Point(0.0, 0.0), Point(21.0, 0.0), false).unwrap();
        // 21" is 3 segments, an inch of dense wood 1 more: 4+ on each D6.
        assert!(notes.iter().any(|n| n.starts_with("distance: +3")), "{notes:?}");
        assert!(notes.iter().any(|n| n.starts_with("dense_wood: +1")), "{notes:?}");
        assert!(notes.iter().any(|n| n.contains("Dense wood")), "{notes:?}");
        assert!(!notes.iter().any(|n| n.starts_with("night")), "{notes:?}");
        assert_eq!(verdict, "a test: each D6 needs 4+");
        // In a night bound the same line counts 4 segments more.
        let (notes, verdict) = sight_report(&terrain, Point(0.0, 0.0), Point(21.0, 0.0), true).unwrap();
        assert!(notes.iter().any(|n| n.starts_with("night: +4")), "{notes:?}");
        assert_ne!(verdict, "a test: each D6 needs 4+");
    }
}
