//! The campaign rules report (`campaign-report`): every shipped campaign
//! played headless, both armies Auto, on seeds 1..=N, once with every
//! engagement on paper and once with every engagement on the table, and
//! which sections of *Fight Your Own Wars* it played.
//!
//! For each section the campaign crate logs ([`SECTIONS`]): the events that
//! name it, how many of them changed the campaign's state, and which parts
//! of it they changed (`warbound_campaign::play::changes`). A section counts
//! as played only when an event of it changed the state; the events logged
//! while the campaign is set up (the commanders rated, the first
//! Stockpiles) decide the state it starts in and count as changing it.
//!
//! Besides, for each campaign: the days played, the battles fought, who won
//! how often and why the campaign ended, and the forces' supply modes at the
//! end of each day.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use warbound_campaign::play::changes::{Part, changed_parts};
use warbound_campaign::play::{Campaign, CampaignFile};

use crate::{Battles, War, shipped};
use warbound_campaign::supply::logistics::Mode;
use warbound_rules::event::{Book, RuleEvent};

/// The heading in `docs/campaign-coverage.md` over the sections no shipped
/// campaign reaches, each with its reason.
pub const NOT_REACHED_HEADING: &str = "## Not reached by the shipped campaigns";

/// The heading of the coverage document's table of the sections reached
/// only on some seeds: a rare throw starts them, so 20 seeds may or may not
/// show one, and the check passes either way. Each row's reason gives the
/// odds and the test that plays the section through the campaign.
pub const BY_CHANCE_HEADING: &str = "## Reached on some seeds only";

/// Every section of *Fight Your Own Wars* the campaign crate logs an event
/// under, as the log names it, in the book's order.
pub const SECTIONS: &[&str] = &[
    "Preparations for the campaign: Weather",
    "The role of the Umpire",
    "1 The Campaign day",
    "2.6 Reserves on the same Map Board",
    "2.7 Merging Battlegroups together",
    "2.9 Brigade formations as Groups",
    "3.2 A Fraction from a Fraction",
    "3.4 Creating a fraction",
    "3.5 When the Fraction is first activated",
    "3.7 Ending a fraction",
    "3.7 Merging Fractions",
    "3.8 Pickets",
    "4 Game Flow",
    "4.5 Start of each session: Battlegroup Priority Cards",
    "5 Event Timings",
    "5.2 \"Surprise\" Events",
    "7 Competency of Commanders",
    "7.1 Changing Commanders, promotions and experience",
    "8.1 Command Decisions",
    "8.4 Character Traits",
    "8.5 Using the weightings",
    "9.1 Communication",
    "9.2 Communication delays",
    "10 Orders",
    "10.1 Generals",
    "10.1 Generals: Weekly Order Cards",
    "10.2 Senior Commands: Daily Order Cards",
    "10.3 Standing orders",
    "10.4 New Orders",
    "10.6 Changing orders",
    "10.7 Composite Orders",
    "11 The Variable Order Rule",
    "12.3 Strategic Morale Throws",
    "12.4 Strategic Condition Repair Throw",
    "13.7 The box",
    "14.5 Movement Test",
    "14.8 Moving out of contact",
    "14.13 Landings from sea or air",
    "14.14 Movement in retreat",
    "15.3 Deployed",
    "15.3 Disarray",
    "15.3 Fortified Defence",
    "15.4 Concealment on a Map Board",
    "15.5 Battlegroups arriving on a Map Board",
    "15.6 Engagements on Map Boards",
    "15.7 Engagements continuing across multiple sessions",
    "16 Detection Throw - forces arriving",
    "16.4 Detection Throw - the forces in occupation",
    "17.1 Information gathering attempt",
    "18.1 Traffic Jam Rule",
    "19.3 Detecting or revealing decoys",
    "20 Logistics",
    "20.1 Supply Routes",
    "20.2 Combination of disruption",
    "20.4 Daily Supply Requirements",
    "20.4.1 Stockpiles",
    "20.7.1 Moving whilst Rationed",
    "20.10 Supply convoys",
    "20.14 Attacking static stocks of supply",
    "21.4 What can be replenished?",
    "21.7 Replenishment from Home",
    "21.8 Trading-in System for obsolete equipment",
    "23.1 Repairs to Damaged vehicles",
    "24 Loading or Unloading",
    "24.1 Non-Transit Hub load handling",
    "25.1 Weather Table",
    "25.2 Moonlight",
    "25.3 Wind Table",
    "25.4 Weather Forecasting",
    "25.5 The effect of travel",
    "25.8 The effect of weather on flying",
    "26.1 Weather Table",
    "26.2 Moonlight",
    "26.3 Wind Table",
    "26.4 Weather Forecasting",
    "26.5 The effect of travel",
    "26.6 Rain/Snow Gauge Effects",
    "26.9 The effect of weather on flying",
    "27.1 Weather Table",
    "27.2 Moonlight",
    "27.3 Wind Table",
    "27.4 Weather Forecasting",
    "27.5.2 Sandstorm effects",
    "27.7 The effect of weather on flying",
    "28.2 Supply for air operations",
    "28.3 Repairs to damage received whilst on a mission",
    "28.4 Air Command decision to fly",
    "28.6 Flight Time",
    "28.7 Aircraft Movement between Map Boards",
    "28.8 Aircraft Missions, Bombing raids",
    "28.8 Aircraft Missions, Reconnaissance",
    "28.8 Aircraft Missions, Transport Missions",
    "28.8 Aircraft missions",
    "28.9 Aircraft firing",
    "28.9 Aircraft firing, AT/Rocket fire",
    "28.9 Aircraft firing, Machine gun/AT fire",
    "28.10 Anti-Aircraft fire",
    "28.11 Air-to-air combat",
    "28.12 Rallying Strategic Condition",
    "28.12 Strategic Condition Score of Air Command",
    "28.13 German Parachute landings",
    "28.13 Parachutists and glider landings",
    "29.2 Guns on boats",
    "29.4 Supply for boats",
    "29.5 Boats shown on the campaign map",
    "29.6.1 Movement for boats - simple coastlines",
    "29.6.2 Movement for boats - island/peninsular campaigns",
    "29.8 Fire power of boats",
    "29.9 Spotting targets",
    "29.10.1 Coastal gun battery counter-fire",
    "29.10.2 Submarine vs ship firing",
    "29.10.3 Ship vs Ship/submarine firing",
    "29.10.4 Ships firing on shore based targets",
    "29.10.5 Ships vs aircraft",
    "29.10.6 Aircraft vs ships",
    "29.11 Strategic Condition of naval Battlegroups",
    "29.12 Rallying Strategic Condition",
    "29.15 Repairs to damage on boats",
    "29.16 Kamikaze Aircraft",
    "29.16 Landing Craft, barges and low-draft vessels at sea",
    "29.16 Landing at coves",
    "29.17 Playing a naval engagement",
    "30.1 Trains have a capacity",
    "30.2 Trains movement",
    "30.3 One train to a Map Board",
    "30.5 A railway line can be cut",
    "30.7 Railway guns",
    "31.1 Work and Tasks",
    "31.4 Convoys",
    "31.5 Trains used as transport",
    "32 Chance Cards",
    "33.7 Contact Session",
    "33.7 (xii) Multiple Combat",
    "33.7.2 (iv) Counter-battery fire",
    "33.7.2 (iv) Pre-combat artillery barrage",
    "33.7.2 (v) Combat Results Table",
    "33.7.3 (viii) CRT Results Table",
    "33.7.3 (ix) Losses Suffered Table",
    "33.7.3 (ix) Supplemental Effects",
    "33.8 Retreating into trouble",
    "33.10 Loss of Combat Value by attrition",
    "34.1 Start of the game",
    "34.4 Recruiting members",
    "34.5 Supplies for resistance",
    "34.6 Radios",
    "34.8 Attacking targets",
    "34.9 Observing targets",
    "34.10 After the mission",
    "34.11 Partisans in battle",
    "34.11 Retreat in Disarray",
    "34.12 Partisan communications",
    "34.13 Enemy listening units",
    "34.14 Anti Partisan sweeps",
    "34.15 Agent operations",
];

/// A section's events over every campaign and seed.
#[derive(Debug, Clone, Default)]
pub struct Counted {
    pub events: u32,
    /// The events that changed the campaign's state.
    pub changed: u32,
    /// The parts of the state they changed.
    pub parts: BTreeSet<Part>,
    /// The campaigns whose events changed the state.
    pub campaigns: BTreeSet<String>,
}

/// One shipped campaign over every seed, its engagements on paper or on
/// the table.
#[derive(Debug, Clone, Default)]
pub struct Played {
    pub name: String,
    /// "paper" or "table".
    pub battles_on: &'static str,
    pub seeds: u32,
    pub days: u32,
    pub battles: u32,
    /// How the campaigns ended: the winner (or "neither") and the reason,
    /// with how often.
    pub endings: BTreeMap<(String, String), u32>,
    /// The forces' supply modes at the end of each day: force-days by mode.
    pub supply: BTreeMap<&'static str, u32>,
}

/// The report over every shipped campaign.
#[derive(Debug, Clone, Default)]
pub struct CampaignReport {
    pub seeds: u32,
    pub campaigns: Vec<Played>,
    /// By section as the log names it (FYOW; another book's as "FYOB
    /// Strategic Milestone Test").
    pub sections: BTreeMap<String, Counted>,
    /// The steps a rule refused in play, by section: how often, and the
    /// first reason given.
    pub refusals: BTreeMap<String, (u32, String)>,
    /// A campaign that could not be played, or a log the report could not
    /// follow.
    pub failures: Vec<String>,
}

/// Plays every campaign on seeds 1..=`seeds`, on paper and on the table.
pub fn campaign_report(campaigns: &[(String, CampaignFile)], seeds: u32) -> CampaignReport {
    let mut report = CampaignReport { seeds, ..CampaignReport::default() };
    for (name, file) in campaigns {
        for battles in [Battles::Paper, Battles::Table] {
            let on = if battles == Battles::Paper { "paper" } else { "table" };
            let mut played = Played { name: name.clone(), battles_on: on, ..Played::default() };
            for seed in 1..=u64::from(seeds) {
                if let Err(e) = play_one(name, file, seed, battles, &mut played, &mut report) {
                    report.failures.push(format!("{name} ({on}), seed {seed}: {e}"));
                }
            }
            report.campaigns.push(played);
        }
    }
    report
}

fn play_one(
    name: &str,
    file: &CampaignFile,
    seed: u64,
    battles: Battles,
    played: &mut Played,
    report: &mut CampaignReport,
) -> Result<(), String> {
    let campaign = Campaign::new(name, file.clone(), seed).map_err(|e| e.to_string())?;
    let table = shipped::runner(false).map_err(|e| e.to_string())?;
    let mut war = War::new(campaign, battles, table);
    let mut count = |e: &RuleEvent, parts: &[Part]| {
        if let Some(why) = e.outcome.get("refused") {
            let refused = report.refusals.entry(e.rule.section.clone()).or_insert_with(|| (0, why.to_string()));
            refused.0 += 1;
            return;
        }
        let section = match e.rule.book {
            Book::FightYourOwnWars => e.rule.section.clone(),
            other => format!("{} {}", other.abbrev(), e.rule.section),
        };
        let counted = report.sections.entry(section).or_default();
        counted.events += 1;
        if !parts.is_empty() {
            counted.changed += 1;
            counted.parts.extend(parts);
            counted.campaigns.insert(name.to_owned());
        }
    };
    for e in war.progress.campaign.drain_events() {
        count(&e, &Part::ALL);
    }
    war.progress.campaign.track_changes();
    let (mut events, mut marks) = (Vec::new(), Vec::new());
    for _ in 0..file.days {
        if war.ended() {
            break;
        }
        war.play_day(|_| {});
        let c = &mut war.progress.campaign;
        events.extend(c.drain_events());
        marks.extend(c.drain_marks());
        for f in c.forces.iter().filter(|f| f.board().is_some()) {
            let mode = match f.supply.mode {
                Mode::Active => "active",
                Mode::Rest => "rest",
                Mode::Rationed => "rationed",
            };
            *played.supply.entry(mode).or_default() += 1;
        }
    }
    let c = &war.progress.campaign;
    if events.len() != marks.len() {
        return Err(format!("{} events logged but {} marked: an event bypassed the log", events.len(), marks.len()));
    }
    for (e, parts) in events.iter().zip(changed_parts(&marks, &c.fingerprint())) {
        count(e, &parts);
    }

    played.seeds += 1;
    played.days += c.day;
    played.battles += c.fought.len() as u32;
    let ending = match &c.ended {
        Some(end) => (end.winner.map_or("neither".to_owned(), |s| c.army(s).name.clone()), end.reason.clone()),
        None => ("neither".to_owned(), "not ended".to_owned()),
    };
    *played.endings.entry(ending).or_default() += 1;
    Ok(())
}

impl CampaignReport {
    /// The FYOW sections logged that [`SECTIONS`] does not have.
    pub fn unlisted(&self) -> Vec<&String> {
        self.sections.keys().filter(|s| !SECTIONS.contains(&s.as_str()) && !is_other_book(s)).collect()
    }

    /// A section's count as the log names it.
    pub fn section(&self, section: &str) -> Option<&Counted> {
        self.sections.get(section)
    }

    /// Where the campaigns and the list of sections no shipped campaign
    /// reaches disagree: a section of [`SECTIONS`] no event changed the
    /// state of that is not listed, a listed one that was played, a listed
    /// one [`SECTIONS`] does not have, a logged one [`SECTIONS`] does not
    /// have. A section `by_chance` (reached on some seeds only) passes
    /// played or not. Empty when they agree.
    pub fn check_reached(
        &self,
        listed: &[(String, String, String)],
        by_chance: &[(String, String, String)],
    ) -> Vec<String> {
        let mut problems = Vec::new();
        for section in SECTIONS {
            let changed = self.sections.get(*section).map_or(0, |c| c.changed);
            let on_list = listed.iter().any(|(_, n, _)| n == section);
            let rare = by_chance.iter().any(|(_, n, _)| n == section);
            if rare && on_list {
                problems.push(format!("FYOW \"{section}\": listed both as not reached and as reached on some seeds"));
            }
            if rare {
                continue;
            }
            match (changed, on_list) {
                (0, false) => problems.push(format!(
                    "FYOW \"{section}\": no shipped campaign changed the state by it in {} seeds, and the coverage document does not list it as not reached",
                    self.seeds
                )),
                (n, true) if n > 0 => problems.push(format!(
                    "FYOW \"{section}\": listed as not reached, but {n} events played it: take it off the list"
                )),
                _ => {}
            }
        }
        for (book, name, _) in listed.iter().chain(by_chance) {
            if book != "FYOW" || !SECTIONS.contains(&name.as_str()) {
                problems.push(format!("{book} \"{name}\": listed, but the report has no such section"));
            }
        }
        for section in self.unlisted() {
            problems.push(format!("FYOW \"{section}\": logged, but not in the report's list of sections"));
        }
        problems
    }

    /// The report as Markdown.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# Campaign rules report\n");
        let _ = writeln!(
            s,
            "Every shipped campaign played on seeds 1..={}, both armies Auto, once with every engagement on paper and once on the table.\n",
            self.seeds
        );
        let _ = writeln!(s, "## Campaigns\n");
        let _ = writeln!(
            s,
            "| campaign | battles on | seeds | days (mean) | battles (mean) | supply at day's end (force-days) |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|");
        for p in &self.campaigns {
            let n = p.seeds.max(1) as f64;
            let supply: Vec<String> = p.supply.iter().map(|(m, k)| format!("{m} {k}")).collect();
            let _ = writeln!(
                s,
                "| {} | {} | {} | {:.1} | {:.1} | {} |",
                p.name,
                p.battles_on,
                p.seeds,
                f64::from(p.days) / n,
                f64::from(p.battles) / n,
                supply.join(", ")
            );
        }
        let _ = writeln!(s, "\n| campaign | battles on | winner | how it ended | campaigns |");
        let _ = writeln!(s, "|---|---|---|---|---|");
        for p in &self.campaigns {
            for ((winner, reason), k) in &p.endings {
                let _ =
                    writeln!(s, "| {} | {} | {winner} | {} | {k} |", p.name, p.battles_on, reason.replace('|', "/"));
            }
        }
        let played = SECTIONS.iter().filter(|x| self.sections.get(**x).is_some_and(|c| c.changed > 0)).count();
        let _ = writeln!(s, "\n## Sections\n");
        let _ = writeln!(
            s,
            "{played} of the {} sections the campaign crate logs changed a campaign's state.\n",
            SECTIONS.len()
        );
        let _ = writeln!(s, "| section | events | changed the state | what they changed | campaigns |");
        let _ = writeln!(s, "|---|---|---|---|---|");
        for section in SECTIONS {
            let c = self.sections.get(*section).cloned().unwrap_or_default();
            let parts: Vec<&str> = c.parts.iter().map(|p| p.name()).collect();
            let campaigns: Vec<&str> = c.campaigns.iter().map(String::as_str).collect();
            let _ = writeln!(
                s,
                "| {section} | {} | {} | {} | {} |",
                c.events,
                c.changed,
                parts.join(", "),
                campaigns.join(", ")
            );
        }
        let other: Vec<(&String, &Counted)> = self.sections.iter().filter(|(x, _)| is_other_book(x)).collect();
        if !other.is_empty() {
            let _ = writeln!(s, "\nFrom the other books:\n");
            let _ = writeln!(s, "| section | events | changed the state | what they changed |");
            let _ = writeln!(s, "|---|---|---|---|");
            for (x, c) in other {
                let parts: Vec<&str> = c.parts.iter().map(|p| p.name()).collect();
                let _ = writeln!(s, "| {x} | {} | {} | {} |", c.events, c.changed, parts.join(", "));
            }
        }
        if !self.refusals.is_empty() {
            let _ = writeln!(s, "\n## Steps a rule refused\n");
            let _ = writeln!(
                s,
                "A step an Auto commander tried that the rules do not allow then, refused and logged, changing nothing.\n"
            );
            let _ = writeln!(s, "| section | refusals | the first reason |");
            let _ = writeln!(s, "|---|---|---|");
            for (x, (k, why)) in &self.refusals {
                let _ = writeln!(s, "| {x} | {k} | {} |", why.trim_matches('"').replace('|', "/"));
            }
        }
        let unlisted = self.unlisted();
        if !unlisted.is_empty() {
            let _ = writeln!(s, "\n## Logged but not in the report's list\n");
            for x in unlisted {
                let c = &self.sections[x];
                let parts: Vec<&str> = c.parts.iter().map(|p| p.name()).collect();
                let _ =
                    writeln!(s, "- {x}: {} events, {} changed the state ({})", c.events, c.changed, parts.join(", "));
            }
        }
        if !self.failures.is_empty() {
            let _ = writeln!(s, "\n## Failures\n");
            for f in &self.failures {
                let _ = writeln!(s, "- {f}");
            }
        }
        s
    }
}

/// A section of another book than FYOW, as the report keys it.
fn is_other_book(section: &str) -> bool {
    ["HA ", "FYOB ", "OP COM ", "Setup "].iter().any(|b| section.starts_with(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use warbound_battle::report::listed_under;

    fn report_with(section: &str, changed: u32) -> CampaignReport {
        let mut r = CampaignReport { seeds: 20, ..CampaignReport::default() };
        r.sections.insert(section.to_owned(), Counted { events: 5, changed, ..Counted::default() });
        r
    }

    fn listed(section: &str) -> Vec<(String, String, String)> {
        vec![("FYOW".to_owned(), section.to_owned(), "a reason".to_owned())]
    }

    #[test]
    fn the_check_fails_a_section_unplayed_and_unlisted_and_one_listed_but_played() {
        let played = report_with("14.5 Movement Test", 3);
        let problems = played.check_reached(&[], &[]);
        assert!(problems.iter().any(|p| p.contains("\"3.8 Pickets\": no shipped campaign")), "{problems:?}");
        assert!(!problems.iter().any(|p| p.contains("14.5 Movement Test")), "played: {problems:?}");
        let listed_but_played = played.check_reached(&listed("14.5 Movement Test"), &[]);
        assert!(listed_but_played.iter().any(|p| p.contains("take it off the list")), "{listed_but_played:?}");
        let logged_only = report_with("14.5 Movement Test", 0);
        assert!(
            logged_only.check_reached(&[], &[]).iter().any(|p| p.contains("14.5 Movement Test")),
            "logged, no change"
        );
        let unknown = played.check_reached(&listed("99 No such rule"), &[]);
        assert!(unknown.iter().any(|p| p.contains("no such section")), "{unknown:?}");
        // A section reached on some seeds only passes played or not, never listed twice.
        assert!(!played.check_reached(&[], &listed("3.8 Pickets")).iter().any(|p| p.contains("3.8 Pickets")));
        assert!(!played.check_reached(&[], &listed("14.5 Movement Test")).iter().any(|p| p.contains("14.5")));
        let twice = played.check_reached(&listed("3.8 Pickets"), &listed("3.8 Pickets"));
        assert!(twice.iter().any(|p| p.contains("listed both")), "{twice:?}");
        let unlisted = report_with("14.5 Movement test", 1);
        assert!(unlisted.check_reached(&[], &[]).iter().any(|p| p.contains("not in the report's list")));
    }

    #[test]
    fn the_sections_are_named_once_and_the_coverage_document_names_only_them() {
        let mut seen = BTreeSet::new();
        for s in SECTIONS {
            assert!(seen.insert(*s), "{s} twice");
        }
        let doc = include_str!("../../../docs/campaign-coverage.md");
        let rows = listed_under(doc, NOT_REACHED_HEADING).expect("the list parses");
        assert!(rows.len() > 10);
        let rare = listed_under(doc, BY_CHANCE_HEADING).expect("the list of sections reached by chance parses");
        let rows: Vec<_> = rows.into_iter().chain(rare).collect();
        for (book, section, _) in &rows {
            assert_eq!(book, "FYOW");
            assert!(SECTIONS.contains(&section.as_str()), "{section} listed, not a section of the report");
        }
    }

    #[test]
    fn a_shipped_campaign_played_changes_the_state_by_its_movement_and_logs_only_listed_sections() {
        let campaigns = shipped::campaigns().expect("the shipped campaigns load");
        let r = campaign_report(&campaigns, 1);
        assert!(r.failures.is_empty(), "{:?}", r.failures);
        assert!(r.unlisted().is_empty(), "{:?}", r.unlisted());
        let moves = r.section("14.5 Movement Test").expect("forces move");
        assert!(moves.changed > 0 && moves.parts.contains(&Part::Forces), "{moves:?}");
        // A weekly deal orders the Generals' decisions and keeps nothing itself.
        let deal = r.section("10.1 Generals: Weekly Order Cards").expect("dealt");
        assert!(deal.events > 0 && deal.changed == 0, "{deal:?}");
        let md = r.markdown();
        assert!(md.contains("| 14.5 Movement Test |") && md.contains("| guernsey-1942 | table | 1 |"), "{md}");
        let on_table = r.section("15.6 Engagements on Map Boards").expect("an engagement goes to the table");
        assert!(on_table.changed > 0, "{on_table:?}");
    }
}
