//! Landing craft waves (*Heroes All*, "Landing craft"): each wave of the
//! Landing Plan is on approach in its bound (a D6 a craft where the
//! approaches are mined, 1 destroying it and blocking its lane), lands the
//! bound after (its troops ashore in its lane, their Order Dice thrown that
//! bound) and retires the bound after that. A lane blocked by a wreck sends
//! the later waves planned for it to the nearest free lane.

use super::change::{BattleChange, Change, Held};
use warbound_rules::{
    boats::{self, Stage},
    event::{Book, EventKind, RuleEvent, RuleRef},
    scenario::CraftSpec,
    terrain::Point,
};

use super::{
    Battlefield, sorted,
    state::{Arrival, SideLanding, Status},
};

/// The sides' landings as the scenario plans them.
pub(super) fn landings(start: &super::setup::BattleStart) -> Result<Vec<SideLanding>, String> {
    let mut out = Vec::new();
    for (side, s) in start.scenario.sides.iter().enumerate() {
        if let Some(beach) = &s.landing {
            let plan = beach.plan().map_err(|e| e.to_string())?;
            out.push(SideLanding { side, beach: beach.clone(), plan, lost: Vec::new() });
        }
    }
    Ok(out)
}

/// The bound's landing sequence for every craft of every plan.
pub(super) fn waves(t: &mut Battlefield, bound: u32) {
    for k in 0..t.battle.landings.len() {
        // Earlier waves first, whatever the scenario's order: a craft landing
        // this bound is beached before a later wave's approach can block its lane.
        let mut craft: Vec<CraftSpec> = t.battle.landings[k].beach.craft.clone();
        craft.sort_by_key(|c| c.wave);
        for c in craft {
            if t.battle.landings[k].lost.contains(&c.id) {
                continue;
            }
            match boats::stage(c.wave, bound) {
                Stage::Approach => approach(t, k, &c, bound),
                Stage::Land => land(t, k, &c, bound),
                Stage::Retire => sequence(t, bound, &c, Stage::Retire, serde_json::json!({ "retired": true })),
                Stage::Waiting | Stage::Gone => {}
            }
        }
    }
}

fn sequence(t: &mut Battlefield, bound: u32, c: &CraftSpec, stage: Stage, outcome: serde_json::Value) {
    let ev = RuleEvent::new(EventKind::Movement, RuleRef::new(Book::HeroesAll, "Landing craft landing sequence"))
        .actor(c.id.clone())
        .input("wave", c.wave, "on approach in its bound, lands the next, retires the one after")
        .input("stage", stage, "")
        .outcome(outcome);
    t.log.push(bound, ev);
}

fn approach(t: &mut Battlefield, k: usize, c: &CraftSpec, bound: u32) {
    let mined = t.battle.landings[k].beach.mined_approaches;
    sequence(t, bound, c, Stage::Approach, serde_json::json!({ "mined_approaches": mined }));
    if !mined {
        return;
    }
    let (destroyed, e) = boats::mined_approach(&mut t.dice.0, &c.id);
    t.log.push(bound, e);
    if !destroyed {
        return;
    }
    let side = t.battle.landings[k].side;
    t.battle.apply(BattleChange::CraftLost(k, c.id.clone()));
    // Reading (Heroes All, "Landing craft"): a craft destroyed on the mined
    // approach takes its troops with it; they never reach the beach.
    aboard(t, side, c, |log, f| {
        super::shared::leave(log, bound, f, Status::Destroyed, "lost with its landing craft on the mined approach");
    });
    let Some(slot) = t.battle.landings[k].slot_of(&c.id) else { return };
    replan(t, k, slot, c.wave, bound);
}

/// "If a lane is blocked by a destroyed craft, the Landing Plan must be
/// adjusted as this lane will no longer be available for use."
///
/// Reading: the program adjusts it for either side, as a careful planner
/// would: each later craft planned for the lane goes to the nearest slot it
/// may use that is free in its wave; with none left it turns back with its
/// troops, who take no part.
fn replan(t: &mut Battlefield, k: usize, slot: usize, wave: u32, bound: u32) {
    let mut plan = t.battle.landings[k].plan.clone();
    let displaced = plan.block(slot, wave);
    let slots = plan.slots.len();
    let mut turned_back = Vec::new();
    let mut moved = Vec::new();
    for l in displaced {
        let mut by_distance: Vec<usize> = (0..slots).filter(|&s| s != slot).collect();
        by_distance.sort_by_key(|&s| (s.abs_diff(slot), s));
        let id = l.contents.first().cloned().unwrap_or_default();
        match by_distance.into_iter().find(|&s| plan.schedule(boats::Landing { slot: s, ..l.clone() }).is_ok()) {
            Some(s) => moved.push((id, s)),
            None => turned_back.push(id),
        }
    }
    let ev = RuleEvent::new(EventKind::Movement, RuleRef::new(Book::HeroesAll, "Landing craft"))
        .input("blocked_slot", slot, "a destroyed craft blocks its lane")
        .outcome(serde_json::json!({ "moved": moved, "turned_back": turned_back }));
    t.log.push(bound, ev);
    t.battle.apply(BattleChange::LandingPlan(k, plan));
    for id in &turned_back {
        t.battle.apply(BattleChange::CraftLost(k, id.clone()));
    }
    let side = t.battle.landings[k].side;
    let specs: Vec<CraftSpec> =
        t.battle.landings[k].beach.craft.iter().filter(|c| turned_back.contains(&c.id)).cloned().collect();
    for c in specs {
        aboard(t, side, &c, |log, f| {
            super::shared::leave(log, bound, f, Status::OutOfBattle, "its landing craft turned back: no lane left");
        });
    }
}

/// The craft lands: its troops go ashore in its slot, side by side up the
/// beach, and throw their Order Dice this bound ("Order Dice thrown for the
/// occupants").
fn land(t: &mut Battlefield, k: usize, c: &CraftSpec, bound: u32) {
    let Some(slot) = t.battle.landings[k].slot_of(&c.id) else { return };
    let beach = t.battle.landings[k].beach.clone();
    let side = t.battle.landings[k].side;
    let (x, y) = beach.slot_centre(slot);
    // Up the beach is away from the sea, or where the scenario does not say
    // where the sea is, away from the side's own edge, across the table.
    use warbound_rules::scenario::Edge;
    let (across, inland) = match beach.sea.unwrap_or(t.battle.start.scenario.sides[side].edge) {
        Edge::Left if beach.sea.is_some() => (true, 1.0),
        Edge::Right if beach.sea.is_some() => (true, -1.0),
        Edge::Far => (false, -1.0),
        _ => (false, 1.0),
    };
    let table = t.battle.start.scenario.table;
    let mut n = 0.0;
    let mut ashore = Vec::new();
    aboard(t, side, c, |log, f| {
        let up = inland * (1.0 + 1.5 * n);
        let at = if across {
            Point((x + up).clamp(0.5, table.width - 0.5), y)
        } else {
            Point(x, (y + up).clamp(0.5, table.depth - 0.5))
        };
        n += 1.0;
        ashore.push(f.id().to_owned());
        let ev = RuleEvent::new(EventKind::Arrival, RuleRef::new(Book::HeroesAll, "Landing craft landing sequence"))
            .actor(f.id())
            .input("craft", c.id.clone(), "")
            .input("slot", slot, "its lane (or gap) on the beach")
            .input("at", (at.0, at.1), "inches from the near-left corner")
            .outcome(serde_json::json!({ "men": f.men() }));
        log.push(bound, ev);
        f.apply(Change::Arrive { at });
        f.apply(Change::EffectiveFrom(bound));
    });
    sequence(t, bound, c, Stage::Land, serde_json::json!({ "slot": slot, "ashore": ashore }));
}

/// Runs `apply` on each element of `side` still waiting aboard craft `c`.
fn aboard(
    t: &mut Battlefield,
    side: usize,
    c: &CraftSpec,
    mut apply: impl FnMut(&mut super::log::BattleLog, &mut Held),
) {
    let mut els = sorted(&mut t.elements);
    for f in els.iter_mut() {
        if f.identity.side == side
            && matches!(f.presence.status, Status::Waiting(_))
            && f.presence.arrival == (Arrival::Craft { wave: c.wave, slot: c.slot })
        {
            apply(&mut t.log, f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warbound_rules::scenario::BeachLanding;

    #[test]
    fn craft_are_found_by_their_planned_wave_and_slot_and_landed_where_replanned() {
        let beach = BeachLanding {
            at: (10.0, 2.0),
            width: 24.0,
            mined_approaches: true,
            sea: None,
            craft: vec![
                CraftSpec {
                    id: "A".into(),
                    craft: boats::Craft::Carrier(warbound_rules::loads::Carrier::Lca),
                    wave: 1,
                    slot: 0,
                },
                CraftSpec {
                    id: "B".into(),
                    craft: boats::Craft::Carrier(warbound_rules::loads::Carrier::Lca),
                    wave: 2,
                    slot: 0,
                },
            ],
        };
        let mut landing = SideLanding { side: 0, plan: beach.plan().unwrap(), beach, lost: Vec::new() };
        assert_eq!(landing.slot_of("B"), Some(0));
        let displaced = landing.plan.block(0, 1);
        assert_eq!(displaced.len(), 1);
        landing.plan.schedule(boats::Landing { slot: 2, ..displaced[0].clone() }).unwrap();
        assert_eq!(landing.slot_of("B"), Some(2), "B lands in lane 2 once lane 0 is blocked");
    }
}
