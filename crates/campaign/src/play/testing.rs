//! The small test campaign set up for the tests of the day's steps.

use crate::play::file::CampaignFile;
use crate::play::file::tests::SMALL;
use crate::play::state::Campaign;
use crate::weather::{Wind, throw_day};

/// A shipped campaign, its tables checked and its elements costed by their
/// templates.
fn shipped(file: &str, text: &str) -> CampaignFile {
    let (codex, templates) = (crate::army::orbat::test_codex(), crate::army::orbat::shipped());
    let mut campaign = CampaignFile::load(file, text).unwrap();
    campaign.check_tables(file, text, &codex, &templates).unwrap_or_else(|e| panic!("{e}"));
    campaign
}

/// The shipped Guernsey campaign (temperate).
pub(crate) fn guernsey() -> CampaignFile {
    shipped("guernsey-1942.ron", include_str!("../../../../scenarios/campaigns/guernsey-1942.ron"))
}

/// The shipped Ardennes campaign (winter).
pub(crate) fn ardennes() -> CampaignFile {
    shipped("ardennes-1945.ron", include_str!("../../../../scenarios/campaigns/ardennes-1945.ron"))
}

/// The shipped Battleaxe campaign (desert).
pub(crate) fn cyrenaica() -> CampaignFile {
    shipped("cyrenaica-1941.ron", include_str!("../../../../scenarios/campaigns/cyrenaica-1941.ron"))
}

/// The small test campaign of seed 5 on its second day.
pub(crate) fn campaign() -> Campaign {
    let mut c = Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), 5).unwrap();
    c.day = 2;
    c
}

/// The wind of a thrown June day set to `wind`.
pub(crate) fn weather(c: &mut Campaign, wind: Wind) {
    let (mut day, _) = throw_day(&mut c.dice, c.file.climate, 6, None, &[]).unwrap();
    day.wind = wind;
    c.today = Some(day);
}
