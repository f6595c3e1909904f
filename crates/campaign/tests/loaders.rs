//! Property tests of the campaign file's loader: the shipped campaigns,
//! broken at random, and text made up from scratch never panic it, and every
//! refusal is `file:line:col: field: problem`.

#[path = "../../rules/tests/support/mutate.rs"]
mod mutate;

use mutate::{apply, check_refusal, mutations, random_text, wrong_values};
use proptest::prelude::*;
use proptest::sample::Index;
use warbound_campaign::play::CampaignFile;

const CAMPAIGNS: [(&str, &str); 2] = [
    ("scenarios/campaigns/guernsey-1942.ron", include_str!("../../../scenarios/campaigns/guernsey-1942.ron")),
    ("small.ron", include_str!("../src/play/test_campaign.ron")),
];

/// Loads `text` as the campaign `file`; a refusal must be one a player can act on.
fn load(file: &str, text: &str) -> Result<(), TestCaseError> {
    match CampaignFile::load(file, text) {
        Ok(_) => Ok(()),
        Err(e) => check_refusal(&e, file, text, ron::from_str::<CampaignFile>(text).is_ok()),
    }
}

/// The 1-based line and column of byte `at` in `text`.
fn place(text: &str, at: usize) -> (usize, usize) {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (text[..at].matches('\n').count() + 1, text[line_start..at].chars().count() + 1)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A shipped campaign, broken: loaded or refused with file, line and field.
    #[test]
    fn a_broken_campaign_is_refused_with_its_place(which in any::<Index>(), changes in mutations()) {
        let (file, text) = CAMPAIGNS[which.index(CAMPAIGNS.len())];
        load(file, &apply(text, &changes))?;
    }

    /// A shipped campaign with wrong values: loaded or refused at the field.
    #[test]
    fn a_wrong_value_in_a_campaign_is_refused_at_its_field(which in any::<Index>(), changes in wrong_values()) {
        let (file, text) = CAMPAIGNS[which.index(CAMPAIGNS.len())];
        load(file, &apply(text, &changes))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Text made up from scratch, as a campaign.
    #[test]
    fn any_text_as_a_campaign_is_refused_with_its_place(text in random_text()) {
        load("made-up.ron", &text)?;
    }
}

/// The broken campaign CI plays: a battlegroup starting on a board the map
/// does not have is refused at that board, as `file:line:col: start: …`.
#[test]
fn a_start_on_no_board_is_refused_where_it_is_written() {
    let (_, text) = CAMPAIGNS[0];
    let bad = text.replacen("start: OnBoard(\"St Peter Port\")", "start: OnBoard(\"Atlantis\")", 1);
    assert_ne!(bad, text, "the shipped campaign starts a battlegroup in St Peter Port");
    let e = CampaignFile::load("broken.ron", &bad).unwrap_err();
    let (line, col) = place(&bad, bad.find("\"Atlantis\"").unwrap());
    assert_eq!(
        e.to_string(),
        format!("broken.ron:{line}:{col}: start: \"Atlantis\" is not a Map Board of this campaign")
    );
}

/// A map's own error is placed at the link it is about.
#[test]
fn a_bad_link_is_refused_at_the_link() {
    let (file, text) = CAMPAIGNS[1];
    let links = text.find("links:").expect("the small campaign has links");
    let mp = links + text[links..].find("mp: ").unwrap();
    let bad = format!("{}mp: 0{}", &text[..mp], text[mp + 4..].trim_start_matches(char::is_numeric));
    let e = CampaignFile::load(file, &bad).unwrap_err();
    let link = bad[..mp].rfind('(').unwrap();
    assert_eq!(e.position, Some(place(&bad, link)), "{e}");
    assert!(e.message.starts_with("map: campaign map invalid: link 1 "), "{e}");
}
