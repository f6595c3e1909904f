//! Guards re-faced (*Heroes All*, "Guards": "A guard can be re-faced during
//! the game by their NCO passing a Leadership test"): the check, the test,
//! and when the Auto side's NCO takes it.

use warbound_rules::{event::Book, movement::Compass, terrain::Point};

use super::{
    Battlefield,
    change::Change,
    command::{Refusal, refusal},
    state::ElementView,
};

/// Whether `me` may be re-faced towards `to` now. Readings: only a posted
/// guard, one with an NCO; the test is taken once a bound (a failed test is
/// not retaken until the next), and not to face the way it faces already.
pub(super) fn may_re_face(me: &ElementView, to: Compass) -> Result<(), Refusal> {
    let Some(guard) = me.order.posted() else {
        return Err(refusal(Book::HeroesAll, "Guards", "only a posted guard is re-faced"));
    };
    if me.force.element.nco.is_none() {
        return Err(refusal(Book::HeroesAll, "Guards", "it has no NCO to take the Leadership Test"));
    }
    if me.actions.this_bound.re_faced {
        return Err(refusal(Book::HeroesAll, "Guards", "its NCO has taken the test to re-face it this bound"));
    }
    if guard.facing == to {
        return Err(refusal(Book::HeroesAll, "Guards", format!("it faces {} already", to.name())));
    }
    Ok(())
}

/// The NCO of guard `id` takes his Leadership Test to re-face it towards
/// `to`; it faces that way if he passes (rules core `Guard::re_face`).
pub(super) fn re_face(t: &mut Battlefield, id: &str, to: Compass) {
    let bound = t.battle.clock.bound();
    let Some(mut f) = t.elements.one(&t.roster, id) else {
        t.failures.record(&mut t.log, bound, "re_face", id, format!("{id} is no element of the battle"));
        return;
    };
    let (Some(mut guard), Some(nco)) = (f.order.posted(), f.force.element.nco) else {
        t.failures.record(&mut t.log, bound, "re_face", id, format!("{id} is no posted guard with an NCO"));
        return;
    };
    let (_, event) = guard.re_face(nco, to, &mut t.dice.0, id);
    t.log.push(bound, event);
    f.apply(Change::ReFaced(guard.facing));
}

/// The way the Auto side's NCO re-faces guard `me`: towards the nearest
/// enemy it knows of (on the table, or last seen) or that fired on it, which
/// lies behind it, out of the 180° arc it observes; `None` when there is
/// none there, or one is in front of it already.
pub(super) fn auto_facing(me: &ElementView, enemies: &[ElementView]) -> Option<Compass> {
    let guard = me.order.posted()?;
    let (this, last) = (&me.actions.this_bound.fired_on_by, &me.actions.last_bound.fired_on_by);
    let known = enemies
        .iter()
        .filter(|e| me.intel.known.contains(e.id()) || this.contains(e.id()) || last.contains(e.id()))
        .map(|e| e.place.at);
    let places: Vec<Point> = known.chain(me.intel.last_seen.values().copied()).collect();
    if places.iter().any(|&p| guard.sees_towards(me.place.at, p)) {
        return None;
    }
    let d = |p: &&Point| warbound_rules::geometry::distance(me.place.at, **p);
    let nearest = places.iter().min_by(|a, b| d(a).total_cmp(&d(b)))?;
    Some(Compass::nearest(me.place.at, *nearest)).filter(|&c| c != guard.facing)
}
