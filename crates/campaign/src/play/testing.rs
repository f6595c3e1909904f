//! The small test campaign set up for the tests of the day's steps.

use crate::play::file::CampaignFile;
use crate::play::file::tests::SMALL;
use crate::play::state::Campaign;
use crate::weather::{Wind, throw_day};

/// The shipped Guernsey campaign, its tables checked and its elements
/// costed by their templates.
pub(crate) fn guernsey() -> CampaignFile {
    const GUERNSEY: &str = include_str!("../../../../scenarios/campaigns/guernsey-1942.ron");
    let (codex, templates) = (crate::army::orbat::test_codex(), crate::army::orbat::shipped());
    let mut file = CampaignFile::load("guernsey-1942.ron", GUERNSEY).unwrap();
    file.check_tables("guernsey-1942.ron", GUERNSEY, &codex, &templates).unwrap_or_else(|e| panic!("{e}"));
    file
}

/// The shipped Ardennes campaign, its tables checked and its elements
/// costed by their templates.
pub(crate) fn ardennes() -> CampaignFile {
    const ARDENNES: &str = include_str!("../../../../scenarios/campaigns/ardennes-1945.ron");
    let (codex, templates) = (crate::army::orbat::test_codex(), crate::army::orbat::shipped());
    let mut file = CampaignFile::load("ardennes-1945.ron", ARDENNES).unwrap();
    file.check_tables("ardennes-1945.ron", ARDENNES, &codex, &templates).unwrap_or_else(|e| panic!("{e}"));
    file
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
