//! River craft on the table (*Heroes All*, "Boats": river craft): an element
//! that brings its assault boats (rubber boats, canoes) to a river's edge
//! gets into them with an Act, paddles across on the Movement Table's
//! "Improvised/paddled raft" row, and gets out at the far bank as part of
//! the move that brings it there.

use super::change::Change;
use crate::prelude::*;
use warbound_rules::{
    boats::GET_IN,
    event::{Book, EventKind, RuleEvent, RuleRef},
    geometry,
    inches::Inches,
    movement::Terrain as Ground,
    order_dice::{Act, Phase},
    terrain::{Point, Terrain},
};

use super::{
    Battlefield, FlowSchedule, FlowSet, at,
    change::Held,
    command::{Command, Current},
    log::BattleLog,
    state::{ElementView, Flow},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(FlowSchedule, act_phase.in_set(FlowSet::Phase).run_if(at(|f| matches!(f, Flow::Acting(_)))));
}

/// Reading: getting in or out steps the men just over the waterline.
const STEP: Inches = Inches(0.3);

fn boats_rule() -> RuleRef {
    RuleRef::new(Book::HeroesAll, "Boats")
}

/// How far ahead of `from`, on the straight way to `to`, the first water
/// (`water`) or land (not `water`) begins, and its going.
fn ahead(terrain: &Terrain, from: Point, to: Point, water: bool) -> Option<(f32, Ground)> {
    let route = geometry::route(terrain, &[from, to]).ok()?;
    let mut along = 0.0;
    for s in &route.stretches {
        if s.length > 0.0 && s.terrain.is_water() == water {
            return Some((along, s.terrain));
        }
        along += s.length;
    }
    None
}

/// Reading: an element stopped within this of the waterline, inches, stands
/// at the water's edge (to get in) or at the bank (to get out).
const AT_THE_EDGE: f32 = 0.5;

/// Whether `f` stands at a river's edge with its boats ashore, its way to
/// `to` going into the river.
pub fn at_launch(f: &ElementView, terrain: &Terrain, to: (f32, f32)) -> bool {
    f.place.boats.is_some()
        && !f.place.afloat()
        && f.presence.status.on_table()
        && to.0.is_finite()
        && to.1.is_finite()
        && ahead(terrain, f.place.at, Point(to.0, to.1), true)
            .is_some_and(|(d, g)| d <= AT_THE_EDGE && matches!(g, Ground::SmallRiver | Ground::WideRiver))
}

/// Gets `element` into its boats, a step into the river towards `to`:
/// "Getting into a boat is treated as an Act".
pub(super) fn launch(t: &mut Battlefield, element: &str, to: (f32, f32)) {
    let bound = t.battle.clock.bound();
    let mut els = t.elements.one(&t.roster, element);
    let Some(f) = els.as_mut() else {
        t.failures.record(&mut t.log, bound, "launch", element, format!("{element} is no element of the battle"));
        return;
    };
    let Some(boats) = f.place.boats else {
        t.failures.record(&mut t.log, bound, "launch", element, format!("{element} has no boats"));
        return;
    };
    let to = Point(to.0, to.1);
    let edge = ahead(&t.battle.terrain, f.place.at, to, true).map_or(0.0, |(d, _)| d);
    let at = super::shared::toward(f.place.at, to, Inches(edge) + STEP);
    let ev = RuleEvent::new(EventKind::Movement, boats_rule())
        .actor(element.to_owned())
        .input("act", Act::EmbarkOrDisembark, "getting into a boat is treated as an Act")
        .input("craft", boats.carried.craft, "river craft, paddled: the Improvised/paddled raft row")
        .input("boats", boats.carried.count, "the element shared among its boats")
        .outcome(serde_json::json!({ "afloat": true, "at": (at.0, at.1) }));
    t.log.push(bound, ev);
    f.apply(Change::Afloat(true));
    f.apply(Change::Move { to: at, moved: true });
}

/// After a move of `f` towards `target`: at the bank its boats have reached
/// (or within [`AT_THE_EDGE`] of it), it gets out onto the land, "as part of
/// the move phase".
pub(super) fn land_at_bank(log: &mut BattleLog, bound: u32, terrain: &Terrain, f: &mut Held, target: Point) {
    if !f.place.afloat() {
        return;
    }
    let Some((bank, _)) = ahead(terrain, f.place.at, target, false).filter(|(d, _)| *d <= AT_THE_EDGE) else {
        return;
    };
    let at = super::shared::toward(f.place.at, target, Inches(bank) + STEP);
    let ev = RuleEvent::new(EventKind::Movement, boats_rule())
        .actor(f.id().to_owned())
        .input("phase", Phase::Move, "getting out is done as part of the move phase")
        .outcome(serde_json::json!({ "afloat": false, "at": (at.0, at.1) }));
    log.push(bound, ev);
    f.apply(Change::Afloat(false));
    f.apply(Change::Move { to: at, moved: true });
}

fn act_phase(mut t: Battlefield, mut current: ResMut<Current>) {
    let Some(Command::Launch { element, to }) = current.0.clone() else { return };
    current.0 = None;
    launch(&mut t, &element, to);
    super::turn::phase_done(&mut t, GET_IN.solo, &[Act::EmbarkOrDisembark]);
}
