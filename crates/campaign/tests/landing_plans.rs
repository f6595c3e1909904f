//! Property tests of the campaign file's Landing Plans (FYOW 18.2): each of
//! Guernsey's plans, broken one way at a time (an element the battlegroup
//! lacks, an element in two waves, an unknown craft, an empty wave, an
//! element in no wave, a plan for a battlegroup not afloat), is refused as
//! `file:line:col: field: problem` at the value that is wrong.

#[path = "../../rules/tests/support/mutate.rs"]
mod mutate;

use mutate::{apply, check_refusal, mutations, random_text, wrong_values};
use proptest::prelude::*;
use proptest::sample::Index;
use warbound_campaign::play::CampaignFile;

const FILE: &str = "guernsey-1942.ron";
const GUERNSEY: &str = include_str!("../../../scenarios/campaigns/guernsey-1942.ron");

/// Each Landing Plan's line: its byte offset and text.
fn plans() -> Vec<(usize, &'static str)> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in GUERNSEY.split_inclusive('\n') {
        if line.trim_start().starts_with("landing: Some((") {
            out.push((at, line));
        }
        at += line.len();
    }
    out
}

/// The waves of a plan's line, as written.
fn waves(line: &str) -> Vec<Vec<String>> {
    let w = &line[line.find("waves: [").unwrap() + "waves: [".len()..];
    let mut out = Vec::new();
    for wave in w.split(']').filter(|s| s.contains('"')) {
        out.push(wave.split('"').skip(1).step_by(2).map(str::to_owned).collect());
    }
    out
}

/// The 1-based line and column of byte `at` in `text`.
fn place(text: &str, at: usize) -> (usize, usize) {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (text[..at].matches('\n').count() + 1, text[line_start..at].chars().count() + 1)
}

/// `text` with the plan line at `at` replaced by `line`; the byte where
/// `needle` is written in the new line, when given.
fn with_line(at: usize, old: &str, line: &str, needle: Option<(&str, usize)>) -> (String, Option<usize>) {
    let text = format!("{}{line}{}", &GUERNSEY[..at], &GUERNSEY[at + old.len()..]);
    let pos = needle.map(|(n, skip)| at + line.match_indices(n).nth(skip).expect("the needle is in the line").0);
    (text, pos)
}

/// The ways a plan is broken.
#[derive(Debug, Clone, Copy)]
enum Break {
    UnknownElement,
    Twice,
    UnknownCraft,
    EmptyWave,
    LeftOut,
}

fn breaks() -> impl Strategy<Value = Break> {
    prop_oneof![
        Just(Break::UnknownElement),
        Just(Break::Twice),
        Just(Break::UnknownCraft),
        Just(Break::EmptyWave),
        Just(Break::LeftOut),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_broken_landing_plan_is_refused_at_its_value(which in any::<Index>(), how in breaks(), pick in any::<Index>()) {
        let plans = plans();
        prop_assert_eq!(plans.len(), 5, "Guernsey's five landings declare their plans");
        let (at, line) = plans[which.index(plans.len())];
        let waves = waves(line);
        prop_assert!(waves.len() >= 2);
        let all: Vec<&String> = waves.iter().flatten().collect();
        let (text, pos, problem) = match how {
            Break::UnknownElement => {
                let e = all[pick.index(all.len())];
                let new = line.replacen(&format!("\"{e}\""), "\"Atlantis Company\"", 1);
                let (t, p) = with_line(at, line, &new, Some(("\"Atlantis Company\"", 0)));
                (t, p, "waves: \"Atlantis Company\" is no element of the battlegroup")
            }
            Break::Twice => {
                let (first, second) = (&waves[0][pick.index(waves[0].len())], &waves[1][0]);
                let new = line.replacen(&format!("\"{second}\""), &format!("\"{first}\""), 1);
                let (t, p) = with_line(at, line, &new, Some((&format!("\"{first}\""), 1)));
                (t, p, "is in two waves of the Landing Plan")
            }
            Break::UnknownCraft => {
                let new = line.replacen("\"], waves", "\", \"lcm_mk9\"], waves", 1);
                let (t, p) = with_line(at, line, &new, Some(("\"lcm_mk9\"", 0)));
                (t, p, "craft: \"lcm_mk9\" is no ")
            }
            Break::EmptyWave => {
                let last = waves.last().unwrap();
                let written = format!("[{}]", last.iter().map(|e| format!("\"{e}\"")).collect::<Vec<_>>().join(", "));
                let new = line.replacen(&written, "[]", 1);
                (with_line(at, line, &new, None).0, None, "lands nothing")
            }
            Break::LeftOut => {
                let last = waves.last().unwrap();
                let e = &last[pick.index(last.len())];
                let new = if last.len() == 1 {
                    // The wave of one element left out whole.
                    line.replacen(&format!(", [\"{e}\"]"), "", 1)
                } else {
                    line.replacen(&format!(", \"{e}\""), "", 1).replacen(&format!("\"{e}\", "), "", 1)
                };
                (with_line(at, line, &new, None).0, None, "is in no wave")
            }
        };
        let err = CampaignFile::load(FILE, &text).unwrap_err();
        check_refusal(&err, FILE, &text, true)?;
        prop_assert!(err.message.contains(problem), "{:?}: {}", how, err);
        let (plan_line, _) = place(&text, at);
        prop_assert_eq!(err.position.map(|p| p.0), Some(plan_line), "{}", err);
        if let Some(pos) = pos {
            prop_assert_eq!(err.position, Some(place(&text, pos)), "{}", err);
        }
    }
}

/// Loads `text`; a refusal must be one a player can act on.
fn load(text: &str) -> Result<(), TestCaseError> {
    match CampaignFile::load(FILE, text) {
        Ok(_) => Ok(()),
        Err(e) => check_refusal(&e, FILE, text, ron::from_str::<CampaignFile>(text).is_ok()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// A plan's line broken at random, or with wrong values: loaded or
    /// refused with its place.
    #[test]
    fn a_plan_broken_at_random_is_refused_with_its_place(which in any::<Index>(), broken in mutations(), wrong in wrong_values()) {
        let plans = plans();
        let (at, line) = plans[which.index(plans.len())];
        load(&with_line(at, line, &apply(line, &broken), None).0)?;
        load(&with_line(at, line, &apply(line, &wrong), None).0)?;
    }

    /// Made-up text as a plan's waves.
    #[test]
    fn made_up_waves_are_refused_with_their_place(which in any::<Index>(), made_up in random_text()) {
        let plans = plans();
        let (at, line) = plans[which.index(plans.len())];
        let waves = line.find("waves: ").unwrap() + "waves: ".len();
        let new = format!("{}{made_up})),\n", &line[..waves]);
        load(&with_line(at, line, &new, None).0)?;
    }
}

/// Only a battlegroup afloat lands by a Landing Plan.
#[test]
fn a_plan_for_a_battlegroup_on_the_map_is_refused() {
    let (at, line) = plans()[0];
    let garrison = GUERNSEY.find("start: OnBoard(\"Cobo Bay\"),").unwrap();
    let end = garrison
        + GUERNSEY[garrison..].find("\n                    ],\n").unwrap()
        + "\n                    ],\n".len();
    let text = format!("{}{}{line}{}", &GUERNSEY[..end].replacen(line, "", 1), "", &GUERNSEY[end..]);
    assert!(at < garrison);
    let err = CampaignFile::load(FILE, &text).unwrap_err();
    assert!(err.message.starts_with("landing: II./IR 582 is not afloat"), "{err}");
    let (l, _) = place(&text, text.find(line).unwrap());
    assert_eq!(err.position.map(|p| p.0), Some(l), "{err}");
}

/// The shipped plans load.
#[test]
fn guernseys_landing_plans_load() {
    let file = CampaignFile::load(FILE, GUERNSEY).unwrap();
    let landing: Vec<_> = file.armies[0].battlegroups.iter().filter_map(|b| b.landing.as_ref()).collect();
    assert_eq!(landing.len(), 5);
    assert!(landing.iter().all(|p| p.waves.len() == 2));
    assert_eq!(landing.iter().filter(|p| p.craft[0] == "lca").count(), 4);
    assert_eq!(landing.iter().filter(|p| p.covert()).count(), 1, "the raid on the airfield paddles ashore");
}

/// The field of the first landing plan whose line has `needle`, written anew.
fn edited(needle: &str, from: &str, to: &str) -> String {
    let (at, line) = plans().into_iter().find(|(_, l)| l.contains(needle)).unwrap();
    with_line(at, line, &line.replacen(from, to, 1), None).0
}

/// FYOW 13.8, 14.13: a covert landing is made in small boats only, and
/// only it may come ashore on a coast that is no beach.
#[test]
fn a_covert_landing_is_made_in_small_boats_at_a_cove() {
    let refused = |text: &str, problem: &str| {
        let err = CampaignFile::load(FILE, text).unwrap_err();
        check_refusal(&err, FILE, text, true).unwrap();
        assert!(err.message.contains(problem), "{err}");
        err
    };
    let lca = edited("rubber_boat", "\"rubber_boat\"", "\"lca\"");
    let err = refused(&lca, "\"Jerbourg\" has no sandy beach; its coast takes covert landings only, in small boats");
    let beach = lca.find("beach: \"Jerbourg\"").unwrap() + "beach: ".len();
    assert_eq!(err.position, Some(place(&lca, beach)), "{err}");
    refused(&edited("rubber_boat", "\"rubber_boat\"", "\"rubber_boat\", \"lca\""), "craft: \"lca\" is no small boat");
    refused(
        &edited("lct4", "\"lca\"", "\"lca\", \"assault_boat\""),
        "craft: \"assault_boat\" is a small boat; a landing is made in landing craft or in small boats, not both",
    );
}
