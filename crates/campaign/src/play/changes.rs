//! Which events changed the campaign (the campaign rules report): while a
//! campaign is tracked, each logged event carries a fingerprint of the
//! campaign's state by part ([`Part`]), taken as it was logged, and whether
//! its step changed the state before logging it ([`Campaign::log_applied`])
//! or after ([`Campaign::log`], the common case); the events of a step run
//! by [`Campaign::in_step`] share what it changed ([`changed_parts`]).
//!
//! The dice, the log itself and the count of a commander's Command Decisions
//! are not part of the state: a throw that changed nothing else changed
//! nothing.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::io;

use serde::Serialize;

use crate::play::state::Campaign;

/// A part of the campaign's state, fingerprinted on its own so that the
/// report can say what each section changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Part {
    /// The date, the campaign day and the session's light and weather.
    Calendar,
    /// The weather spell, today's weather and the month's chance card.
    Weather,
    /// The armies: commanders, supply, air, fleets, Senior Commands.
    Armies,
    /// The forces: battlegroups, fractions, pickets, their moves and losses.
    Forces,
    /// Who occupies and holds each Map Board, and the railway lines cut.
    Map,
    /// Battles in progress and fought, and today's naval engagements.
    Battles,
    /// The partisans.
    Partisans,
    /// The Diary Box.
    Diary,
    /// Priority cards, orders and the orders the player has set.
    Orders,
    /// Whether and how the campaign ended.
    Ending,
}

impl Part {
    pub const ALL: [Part; 10] = [
        Part::Calendar,
        Part::Weather,
        Part::Armies,
        Part::Forces,
        Part::Map,
        Part::Battles,
        Part::Partisans,
        Part::Diary,
        Part::Orders,
        Part::Ending,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Part::Calendar => "calendar",
            Part::Weather => "weather",
            Part::Armies => "armies",
            Part::Forces => "forces",
            Part::Map => "map",
            Part::Battles => "battles",
            Part::Partisans => "partisans",
            Part::Diary => "diary",
            Part::Orders => "orders",
            Part::Ending => "ending",
        }
    }
}

/// The campaign's state, one hash for each [`Part`] in [`Part::ALL`]'s order.
pub type Fingerprint = [u64; 10];

/// A logged event's place in the tracking: the state as it was logged, and
/// whether its step changed the state before logging it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    pub state: Fingerprint,
    pub applied_before: bool,
    /// Logged by the same rule step as the event before it (see
    /// [`Campaign::in_step`]): the step's change is all its events'.
    pub joined: bool,
    /// The last event of a step run by [`Campaign::in_step`]: the state as
    /// the step ended, so that what the step changed is told from what came
    /// after it.
    pub step_end: Option<Fingerprint>,
}

/// Feeds what serde writes to a hasher.
struct HashWriter(DefaultHasher);

impl io::Write for HashWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn hash_of(value: &impl Serialize) -> u64 {
    let mut w = HashWriter(DefaultHasher::new());
    // Writing to a hasher cannot fail; a value serde cannot write (none in
    // the campaign) would hash as what was written before it.
    let _ = serde_json::to_writer(&mut w, value);
    w.0.finish()
}

impl Campaign {
    /// Starts tracking which events change the campaign: from now on each
    /// logged event is marked (see [`Campaign::drain_marks`]).
    pub fn track_changes(&mut self) {
        self.tracking = Some(Tracking::default());
    }

    /// The marks of the events logged since the last call, one for each
    /// event [`Campaign::drain_events`] returns over the same calls (empty
    /// when not tracked).
    pub fn drain_marks(&mut self) -> Vec<Mark> {
        self.tracking.as_mut().map(|t| std::mem::take(&mut t.marks)).unwrap_or_default()
    }

    /// The campaign's state now, by part.
    pub fn fingerprint(&self) -> Fingerprint {
        let mut parts = [0u64; 10];
        for (k, part) in Part::ALL.iter().enumerate() {
            parts[k] = match part {
                Part::Calendar => hash_of(&(&self.date, self.day, &self.conditions)),
                Part::Weather => {
                    hash_of(&(&self.weather, &self.today, &self.forecast, &self.chance, &self.cards_today))
                }
                Part::Armies => hash_of(&(&self.armies, &self.senior_commands)),
                Part::Forces => hash_of(&self.forces),
                Part::Map => hash_of(&(&self.occupation, &self.held, &self.cut_lines)),
                Part::Battles => hash_of(&(&self.battles, &self.fought, &self.comparisons, &self.naval_engagements)),
                Part::Partisans => hash_of(&self.partisans),
                Part::Diary => hash_of(&self.diary),
                Part::Orders => hash_of(&(&self.activated, &self.ordered_today, &self.player_orders, &self.composite)),
                Part::Ending => hash_of(&self.ended),
            };
        }
        parts
    }

    /// Marks an event being logged, when tracked. Within a step (see
    /// [`Campaign::in_step`]) the event carries the state as the step began.
    pub(crate) fn mark(&mut self, applied_before: bool) {
        let Some(tracking) = self.tracking.as_ref() else { return };
        let mark = match tracking.step {
            Some((state, logged)) => Mark { state, applied_before: false, joined: logged, step_end: None },
            None => Mark { state: self.fingerprint(), applied_before, joined: false, step_end: None },
        };
        if let Some(t) = self.tracking.as_mut() {
            t.marks.push(mark);
            if let Some((_, logged)) = t.step.as_mut() {
                *logged = true;
            }
        }
    }

    /// Runs `step` as one rule step: its events share what it changed (a
    /// throw and what it decided, a paper battle's session, a part of the
    /// state taken out, worked on and put back).
    pub(crate) fn in_step<T>(&mut self, step: impl FnOnce(&mut Self) -> T) -> T {
        let outer = match self.tracking.as_ref() {
            Some(t) if t.step.is_none() => Some(self.fingerprint()),
            _ => None,
        };
        if let (Some(t), Some(state)) = (self.tracking.as_mut(), outer) {
            t.step = Some((state, false));
        }
        let out = step(self);
        if outer.is_some() {
            let end = self.fingerprint();
            if let Some(t) = self.tracking.as_mut() {
                if let (Some((_, true)), Some(last)) = (t.step, t.marks.last_mut()) {
                    last.step_end = Some(end);
                }
                t.step = None;
            }
        }
        out
    }

    /// Records the events of one rule step, which changes the campaign, if it
    /// does, after they are logged.
    pub(crate) fn log_step(&mut self, events: impl IntoIterator<Item = warbound_rules::event::RuleEvent>) {
        self.in_step(|c| events.into_iter().for_each(|e| c.log(e)));
    }
}

/// The tracking of a campaign's changes: the marks of the events logged,
/// and the step being run, with the state as it began and whether it has
/// logged an event yet.
#[derive(Debug, Clone, Default)]
pub struct Tracking {
    marks: Vec<Mark>,
    step: Option<(Fingerprint, bool)>,
}

/// The parts each event changed, given the events' marks in order and the
/// state after the last: the change between two events is the earlier
/// one's, unless the later one changed the state before it was logged; and
/// it is the whole step's when that event was logged with others by one
/// rule step.
pub fn changed_parts(marks: &[Mark], end: &Fingerprint) -> Vec<Vec<Part>> {
    let mut changed: Vec<Vec<Part>> = vec![Vec::new(); marks.len()];
    let diff = |a: &Fingerprint, b: &Fingerprint| -> Vec<Part> {
        Part::ALL.iter().enumerate().filter(|(p, _)| a[*p] != b[*p]).map(|(_, &p)| p).collect()
    };
    let mut credit = |owner: usize, parts: &[Part]| {
        if parts.is_empty() {
            return;
        }
        let mut first = owner;
        while first > 0 && marks[first].joined {
            first -= 1;
        }
        let mut last = owner;
        while marks.get(last + 1).is_some_and(|m| m.joined) {
            last += 1;
        }
        for step in &mut changed[first..=last] {
            for &p in parts {
                if !step.contains(&p) {
                    step.push(p);
                }
            }
        }
    };
    for k in 0..marks.len() {
        let next = marks.get(k + 1).map_or(end, |m| &m.state);
        let mut from = marks[k].state;
        if let Some(step_end) = marks[k].step_end {
            credit(k, &diff(&from, &step_end));
            from = step_end;
        }
        let owner = if marks.get(k + 1).is_some_and(|m| m.applied_before) { k + 1 } else { k };
        credit(owner, &diff(&from, next));
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(state: u64, applied_before: bool) -> Mark {
        Mark { state: [state; 10], applied_before, joined: false, step_end: None }
    }

    #[test]
    fn a_change_is_the_event_before_it_unless_the_next_was_logged_after_its_change() {
        // The first changes the state after it is logged, the second and the
        // third change nothing, the fourth changed it before it was logged,
        // the fifth changes it after.
        let marks = [mark(1, false), mark(2, false), mark(2, false), mark(3, true), mark(3, false)];
        let changed = changed_parts(&marks, &[4; 10]);
        let any: Vec<bool> = changed.iter().map(|c| !c.is_empty()).collect();
        assert_eq!(any, [true, false, false, true, true]);
        assert_eq!(changed[0], Part::ALL.to_vec());
    }

    #[test]
    fn a_steps_change_is_all_its_events() {
        // A step of three events, then one that changes nothing.
        let step = |state, joined| Mark { state: [state; 10], applied_before: false, joined, step_end: None };
        let marks = [step(1, false), step(1, true), step(1, true), step(2, false)];
        let any: Vec<bool> = changed_parts(&marks, &[2; 10]).iter().map(|c| !c.is_empty()).collect();
        assert_eq!(any, [true, true, true, false]);
    }

    #[test]
    fn a_step_run_in_step_shares_its_change_and_a_step_applied_before_owns_the_change_before_it() {
        use crate::play::file::CampaignFile;
        use crate::play::file::tests::SMALL;
        use warbound_rules::event::{EventKind, RuleEvent};
        let e = || RuleEvent::new(EventKind::Calendar, crate::play::state::fyow("1 The Campaign day"));
        let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), 3).unwrap();
        c.track_changes();
        c.log(e()); // changes nothing
        c.in_step(|c| {
            c.log(e());
            c.forces[0].name.push('x');
            c.log(e());
        });
        c.log(e()); // changes nothing
        c.forces[0].name.push('y');
        c.log_applied(e());
        // A step whose change is followed at once by one logged after its own.
        c.in_step(|c| {
            c.log(e());
            c.diary = Default::default();
            c.diary.file(&c.date.clone(), crate::army::game_flow::DiaryCard { owner: "x".into(), text: "y".into() });
        });
        c.armies[0].hq_banked += 1;
        c.log_applied(e());
        let marks = c.drain_marks();
        assert_eq!(marks.len(), 7);
        let changed = changed_parts(&marks, &c.fingerprint());
        let any: Vec<bool> = changed.iter().map(|p| !p.is_empty()).collect();
        assert_eq!(any, [false, true, true, false, true, true, true]);
        assert_eq!(changed[5], [Part::Diary], "the step's own change");
        assert_eq!(changed[6], [Part::Armies], "the change made before the last event was logged");
    }

    #[test]
    fn the_fingerprint_sees_a_force_move_and_not_the_dice() {
        use crate::play::file::CampaignFile;
        use crate::play::file::tests::SMALL;
        let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), 3).unwrap();
        let before = c.fingerprint();
        let _ = warbound_rules::dice::Roll::d10(&mut c.dice);
        assert_eq!(c.fingerprint(), before, "a throw alone changes nothing");
        c.forces[0].name.push('x');
        let after = c.fingerprint();
        let differ: Vec<Part> =
            Part::ALL.iter().enumerate().filter(|(k, _)| before[*k] != after[*k]).map(|(_, &p)| p).collect();
        assert_eq!(differ, [Part::Forces]);
    }
}
