//! The small test campaign set up for the tests of the day's steps.

use crate::play::file::CampaignFile;
use crate::play::file::tests::SMALL;
use crate::play::state::Campaign;
use crate::weather::{Wind, throw_day};

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
