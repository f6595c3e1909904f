//! A campaign whose engagements are fought on the table: the battles are
//! fought four bounds a session and their results carried back; the same
//! seed plays the same campaign; a save taken mid-battle goes on to the same
//! end; paper and table are compared without the paper changing the
//! campaign.

use warbound_campaign::play::Campaign;
use warbound_war::{Battles, War, run::Progress, save, shipped};

const DAYS: u32 = 8;

fn played(seed: u64, battles: Battles, days: u32) -> War {
    let mut war = shipped::war("guernsey-1942", seed, battles).unwrap();
    for _ in 0..days {
        war.play_day(|_| {});
    }
    war
}

/// Every event's text, for comparing two campaigns.
fn log(c: &mut Campaign) -> Vec<String> {
    c.drain_events().iter().map(|e| e.to_json_line()).collect()
}

#[test]
fn the_engagements_are_fought_on_the_table_and_carried_back() {
    let mut fought = 0;
    let mut carried = 0;
    for seed in 0..4 {
        let mut war = played(seed, Battles::Table, DAYS);
        let lines = log(&mut war.progress.campaign);
        let on_table = lines.iter().filter(|l| l.contains("\"to\":\"tabletop\"") && l.contains("\"scenario\"")).count();
        // A force left with nothing a table can field (a battery whose FOO's
        // party paper losses took, its guns behind the edge) goes to paper,
        // and the log says so; every other engagement is fielded.
        let refused =
            lines.iter().filter(|l| l.contains("not on the table") && !l.contains("side fields nothing")).count();
        assert_eq!(
            refused,
            0,
            "every Guernsey engagement can be fielded: {:?}",
            lines.iter().find(|l| l.contains("not on the table"))
        );
        let paused = lines.iter().filter(|l| l.contains("continues next session")).count();
        let c = war.campaign();
        fought += war.table.as_ref().unwrap().battles;
        assert!(on_table as u32 >= war.table.as_ref().unwrap().battles, "{on_table}");
        let fielded_nothing = lines.iter().filter(|l| l.contains("side fields nothing")).count();
        let on_paper = c.fought.iter().filter(|b| !b.result.starts_with("table:")).count();
        assert!(on_paper <= fielded_nothing, "{on_paper} battles on paper, {fielded_nothing} not fielded");
        // A battle that lasted beyond 4 bounds paused at the end of a session.
        if c.fought.iter().any(|b| b.combat_sessions > 1) {
            assert!(paused > 0);
        }
        // Losses on the table come off the order of battle and the points.
        for f in &c.forces {
            for company in &f.orbat {
                let Some(el) = f.battlegroup.elements.iter().find(|e| e.name == company.element) else { continue };
                let costed = f.kit.iter().find(|k| k.name == company.element).unwrap().points();
                if company.cms.iter().any(Option::is_some) && el.points < costed {
                    carried += 1;
                }
            }
        }
    }
    assert!(fought >= 4, "{fought} battles fought on the table over 4 seeds");
    assert!(carried > 0, "no company came out of a table battle with fewer points");
}

#[test]
fn the_same_seed_plays_the_same_table_campaign() {
    let mut a = played(5, Battles::Table, DAYS);
    let mut b = played(5, Battles::Table, DAYS);
    assert_eq!(log(&mut a.progress.campaign), log(&mut b.progress.campaign));
    assert_eq!(a.campaign().summary(), b.campaign().summary());
}

#[test]
fn a_save_taken_mid_battle_goes_on_to_the_same_end() {
    // Play session by session until a table battle stands paused, save
    // there, and go on from the save beside the campaign that never stopped.
    for seed in 0..6 {
        let mut war = shipped::war("guernsey-1942", seed, Battles::Table).unwrap();
        let mut at = None;
        for _ in 0..6 * DAYS {
            war.play_session();
            if war.campaign().battles.iter().any(|b| b.table.is_some()) {
                at = Some(save::CampaignSave::of(&war.progress));
                break;
            }
        }
        let Some(saved) = at else { continue };
        let dir = std::env::temp_dir().join(format!("warbound-save-test-{}-{seed}", std::process::id()));
        let path = dir.join("campaign.ron");
        save::write(&path, &saved).unwrap();
        let back: Progress = save::read(&path).unwrap().progress;
        std::fs::remove_dir_all(&dir).unwrap();
        let mut resumed = War::resume(back, shipped::runner(false).unwrap());
        war.progress.campaign.drain_events();
        for _ in 0..6 * 2 {
            war.play_session();
            resumed.play_session();
        }
        assert_eq!(log(&mut war.progress.campaign), log(&mut resumed.progress.campaign), "seed {seed}");
        assert_eq!(war.campaign().summary(), resumed.campaign().summary(), "seed {seed}");
        return;
    }
    panic!("no seed had a table battle going on at the end of a session");
}

#[test]
fn both_compares_paper_and_table_and_the_table_carries_the_campaign() {
    let mut both = played(2, Battles::Both, DAYS);
    let mut table = played(2, Battles::Table, DAYS);
    let c = both.campaign();
    assert!(!c.comparisons.is_empty(), "no engagement compared");
    assert_eq!(c.comparisons.len(), c.fought.iter().filter(|b| b.result.starts_with("table:")).count());
    for x in &c.comparisons {
        assert!(x.paper.length >= 1 && x.table.length >= 1, "{x:?}");
    }
    // The paper battles are resolved on a copy: the campaign is the table's.
    let mut s = both.campaign().summary();
    s.as_object_mut().unwrap().remove("comparisons");
    let mut t = table.campaign().summary();
    t.as_object_mut().unwrap().remove("comparisons");
    assert_eq!(s, t);
    assert_eq!(log(&mut both.progress.campaign), log(&mut table.progress.campaign));
}
