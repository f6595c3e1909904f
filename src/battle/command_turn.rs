//! A Company Officer's command turn on his own OPC (FYOB "The 'Command' turn
//! of a Company Officer"): his ORT, then rallying, replacing lost NCOs and
//! sharing what his NCOs have seen with them and the Senior Officer.

use warbound_rules::{
    momentum, officer,
    opc::{self, OrtResult},
};

use super::{Table, sorted, state::Status};

/// Runs the command turn of company `c` of side `s`.
///
/// Readings: the CO rallies the elements of his company on the table,
/// lowest CMS first ("elements in the order nominated"); a lost NCO is
/// replaced first (FYOB "NCO is a casualty": "On the next bound that the
/// element's Company Officer is activated"); information is shared through
/// the Senior Officer's picture with the whole side (FYOB "Command and
/// Control session", [`warbound_rules::command::CommandTurn::share`]).
pub(super) fn run(t: &mut Table, s: usize, c: usize) {
    let bound = t.battle.clock.bound();
    let company = t.sides.0[s].companies[c].clone();
    let (ort, event) = opc::officer_reaction_test(company.co, &mut t.dice.0, &company.id);
    t.log.push(bound, event);
    if ort == OrtResult::NoAction {
        return;
    }
    let mut els = sorted(&mut t.elements);
    for f in els.iter_mut().filter(|f| f.side == s && f.company == c && f.status.on_table()) {
        if f.element.nco.is_none() {
            let (nco, e) = officer::replacement_nco(f.element.makeup(), &mut t.dice.0, f.id());
            f.element.nco = Some(nco);
            t.log.push(bound, e);
        }
    }
    let mut nominated: Vec<(String, u8)> = els
        .iter()
        .filter(|f| f.side == s && f.company == c && f.status == Status::OnTable && f.element.cms < momentum::MAX_CMS)
        .map(|f| (f.id().to_owned(), f.element.cms))
        .collect();
    nominated.sort_by_key(|(_, cms)| *cms);
    if !nominated.is_empty() {
        let list: Vec<(&str, u8)> = nominated.iter().map(|(id, cms)| (id.as_str(), *cms)).collect();
        if let Ok((rallied, event)) = momentum::rally(company.co, &list, false, &mut t.dice.0, &company.id) {
            t.log.push(bound, event);
            for r in rallied {
                if let Some(f) = els.iter_mut().find(|f| f.id() == r.id) {
                    f.element.cms = r.cms_after;
                }
            }
        }
    }
    let side = &mut t.sides.0[s];
    // *Heroes All*, "'Calling in' aircraft": the CO, in his Command turn, passes
    // a Leadership Test and throws a D4 for the bounds of delay. Reading: the
    // Auto CO calls in a squadron held for calling as soon as his company
    // knows of an enemy.
    let knows = els.iter().any(|f| f.side == s && f.company == c && !f.known.is_empty());
    if knows && let Some(q) = side.squadrons.iter_mut().find(|q| q.arrives.is_none()) {
        let what = warbound_rules::aircraft::CallIn::GroundAttack;
        if let Ok((arrives, events)) =
            warbound_rules::aircraft::call_in(what, Some(company.co), bound, &mut t.dice.0, &company.id)
        {
            t.log.extend(bound, events);
            q.arrives = arrives.map(|b| b.max(q.window.first));
        }
    }
    for f in els.iter().filter(|f| f.side == s && f.company == c) {
        side.known.extend(f.known.iter().cloned());
    }
    for f in els.iter_mut().filter(|f| f.side == s && f.company == c && f.status.on_table()) {
        let missing: Vec<String> = side.known.difference(&f.known).cloned().collect();
        if !missing.is_empty() {
            f.known.extend(missing);
        }
    }
}
