//! The campaign save's loader: a save written and read back is the same
//! campaign; another version, a corrupted or a made-up file is refused
//! with `file:line:col: field: problem`, never a panic.

#[path = "../../rules/tests/support/mutate.rs"]
mod mutate;

use std::sync::OnceLock;

use mutate::{apply, check_refusal, mutations, random_text, wrong_values};
use proptest::prelude::*;
use warbound_war::{
    Battles,
    save::{self, CampaignSave, VERSION},
    shipped,
};

/// A save of Guernsey two days in, its engagements on the table.
fn saved() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let mut war = shipped::war("guernsey-1942", 3, Battles::Table).unwrap();
        war.play_day(|_| {});
        war.play_day(|_| {});
        ron::ser::to_string_pretty(&CampaignSave::of(&war.progress), ron::ser::PrettyConfig::default()).unwrap()
    })
}

fn load(file: &str, text: &str) -> Result<(), TestCaseError> {
    match save::parse(file, text) {
        Ok(_) => Ok(()),
        Err(e) => check_refusal(&e, file, text, ron::from_str::<CampaignSave>(text).is_ok()),
    }
}

#[test]
fn a_save_reads_back_as_the_same_campaign() {
    let text = saved();
    let back = save::parse("save.ron", text).unwrap();
    assert_eq!(back.version, VERSION);
    let again = ron::ser::to_string_pretty(&back, ron::ser::PrettyConfig::default()).unwrap();
    assert_eq!(again, text);
}

#[test]
fn another_version_is_refused_by_its_number() {
    let text = saved().replacen(&format!("version: {VERSION}"), "version: 99", 1);
    let e = save::parse("old.ron", &text).unwrap_err();
    let msg = e.to_string();
    assert!(msg.starts_with("old.ron:2:") && msg.contains("version 99"), "{msg}");
}

#[test]
fn a_save_cut_short_is_refused_with_its_place() {
    let text = saved();
    let cut = &text[..text.len() / 2];
    let e = save::parse("cut.ron", cut).unwrap_err();
    assert!(e.to_string().starts_with("cut.ron:"), "{e}");
    assert!(e.position.is_some(), "{e}");
}

#[test]
fn a_save_that_cannot_be_read_says_so() {
    let e = save::read(std::path::Path::new("no/such/save.ron")).unwrap_err();
    assert!(e.contains("no/such/save.ron") && e.contains("cannot read"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// A save, broken at random: loaded or refused with file, line and field.
    #[test]
    fn a_broken_save_is_refused_with_its_place(changes in mutations()) {
        load("save.ron", &apply(saved(), &changes))?;
    }

    /// A save with wrong values: loaded or refused at the field.
    #[test]
    fn a_wrong_value_in_a_save_is_refused_at_its_field(changes in wrong_values()) {
        load("save.ron", &apply(saved(), &changes))?;
    }

    /// Text made up from scratch, as a save.
    #[test]
    fn any_text_as_a_save_is_refused_with_its_place(text in random_text()) {
        load("made-up.ron", &text)?;
    }
}

#[test]
fn named_saves_are_listed_newest_first_with_a_broken_one_shown_with_its_error() {
    let dir = std::env::temp_dir().join(format!("warbound-campaign-saves-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(save::list(&dir).is_empty(), "no folder lists nothing");
    let good = save::parse("save.ron", saved()).unwrap();
    let path = save::write_named(&dir, "Landing: day 2/3", &good).unwrap();
    assert_eq!(path.file_name().unwrap(), "Landing_ day 2_3.ron", "a safe file name");
    std::fs::write(dir.join("broken.ron"), &saved()[..200]).unwrap();
    let list = save::list(&dir);
    assert_eq!(list.len(), 2, "both listed");
    let broken = list.iter().find(|e| e.name == "broken").unwrap();
    assert!(broken.save.as_ref().unwrap_err().contains("broken.ron:"), "its error names the file");
    let landing = list.iter().find(|e| e.name != "broken").unwrap();
    let back = landing.save.as_ref().expect("the good one reads");
    assert_eq!(back.progress.campaign.date, good.progress.campaign.date);
    assert!(save::default_name(back).contains(&back.progress.campaign.file.name));
    let _ = std::fs::remove_dir_all(&dir);
}
