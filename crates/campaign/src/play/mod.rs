//! The campaign played: a campaign file loaded, the Umpire's duties of each
//! day run in the order of FYOW 4, the armies' Auto commanders choosing among
//! options weighted by the Variable Order Rule (FYOW 11) in the spirit of
//! their traits (FYOW 8.5), and every engagement resolved on paper by the
//! Dunnigan rules (FYOW 33). Every rule step logs its event.

pub(crate) mod air;
mod airborne;
mod auto;
mod battle;
pub mod bombing;
mod chance;
pub mod changes;
pub mod command;
pub mod composite;
pub mod concealment;
mod day;
pub mod demolitions;
mod ending;
mod experience;
pub mod file;
pub mod fleet;
pub mod forecast;
mod fractions;
pub mod intelligence;
mod joiners;
mod landing;
mod merging;
mod morale;
mod partisans;
mod partisans_in_battle;
mod pickets;
mod repairs;
mod replenishment;
mod rockets;
pub mod sea;
mod setup;
pub mod state;
mod supply;
pub mod table;
#[cfg(test)]
pub(crate) mod testing;
pub mod trains;

pub use command::Command;
pub use file::CampaignFile;
pub use state::{Campaign, CampaignError};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::file::tests::SMALL;

    fn small(seed: u64) -> Campaign {
        Campaign::new("small.ron", CampaignFile::load("small.ron", SMALL).unwrap(), seed).unwrap()
    }

    #[test]
    fn the_same_seed_plays_the_same_campaign() {
        let lines = |seed| {
            let mut c = small(seed);
            c.play_days(6);
            let log: Vec<String> = c.drain_events().iter().map(|e| e.to_json_line()).collect();
            (log, c.summary())
        };
        let (a, sa) = lines(3);
        let (b, sb) = lines(3);
        assert_eq!(a, b);
        assert_eq!(sa, sb);
        assert_ne!(lines(4).0, a, "another seed plays another campaign");
    }

    #[test]
    fn the_players_orders_are_given_at_the_days_order_phase_and_the_auto_gives_the_rest() {
        use crate::army::orders::OrderKind;
        use crate::map::common::Side;
        let mut c = small(5);
        let side = Side::Blue;
        let mine: Vec<String> = c.forces.iter().filter(|f| f.side == side).map(|f| f.name.clone()).collect();
        let (first, rest) = mine.split_first().expect("Blue has forces");
        // Stand By: an order the Auto would seldom choose for all of them.
        c.player = Some(side);
        c.player_orders.insert(first.clone(), (OrderKind::StandBy, None));
        c.begin_day();
        assert_eq!(c.force(first).unwrap().order, OrderKind::StandBy);
        // Without a player the same order is the Auto's own choice, by its dice.
        let mut auto = small(5);
        auto.player_orders.insert(first.clone(), (OrderKind::StandBy, None));
        auto.begin_day();
        let orders = |c: &Campaign| rest.iter().map(|n| c.force(n).unwrap().order).collect::<Vec<_>>();
        assert_eq!(orders(&c).len(), rest.len());
        assert!(
            auto.force(first).unwrap().order != OrderKind::StandBy
                || orders(&auto).iter().all(|o| *o == OrderKind::StandBy),
            "player_orders are read only for the player's army"
        );
    }

    const GUERNSEY: &str = include_str!("../../../../scenarios/campaigns/guernsey-1942.ron");

    #[test]
    fn the_shipped_campaign_fields_its_elements_on_the_table() {
        // Each element naming a template fields it, of its army's nation,
        // in 1942, within the battlegroup limit (FYOW 2.1).
        let (codex, templates) = (crate::army::orbat::test_codex(), crate::army::orbat::shipped());
        let mut file = CampaignFile::load("guernsey-1942.ron", GUERNSEY).unwrap();
        file.check_tables("guernsey-1942.ron", GUERNSEY, &codex, &templates).unwrap_or_else(|e| panic!("{e}"));
        // Every element fields a template, every CO is rated, every battery
        // has its FOO and every armed squadron its CODEX aircraft.
        let elements: Vec<_> = file.armies.iter().flat_map(|a| &a.battlegroups).flat_map(|b| &b.elements).collect();
        assert_eq!(elements.len(), 46);
        for e in &elements {
            assert!(e.table.is_some() && e.officer.is_some(), "{}", e.name);
        }
        let batteries: Vec<_> = elements.iter().filter_map(|e| e.battery(&templates)).collect();
        let guns: Vec<_> = batteries.iter().map(|(g, _)| (g.gun, g.guns)).collect();
        assert_eq!(guns, [("gb_25pdr", 8), ("gb_45in_gun", 4), ("de_lefh18", 4)]);
        for sq in file.armies.iter().flat_map(|a| &a.squadrons).filter(|s| s.role != crate::air::Role::Recce) {
            assert!(sq.aircraft(&codex).is_some(), "{}", sq.name);
        }
        // An unknown template: its line and field.
        let text = GUERNSEY.replacen("\"gb_rifle_company_1942\"", "\"gb_rifle_company_1492\"", 1);
        let mut file = CampaignFile::load("g.ron", &text).unwrap();
        let err = file.check_tables("g.ron", &text, &codex, &templates).unwrap_err();
        let line = text.lines().position(|l| l.contains("1492")).unwrap() + 1;
        assert_eq!(err.position.map(|p| p.0), Some(line), "{err}");
        assert!(err.message.contains("unknown template"), "{err}");
        // A British template in the German army.
        let text = GUERNSEY.replacen("\"de_r35_kompanie\"", "\"gb_churchill_troop_1942\"", 1);
        let mut file = CampaignFile::load("g.ron", &text).unwrap();
        let err = file.check_tables("g.ron", &text, &codex, &templates).unwrap_err();
        assert!(err.message.contains("German"), "{err}");
        // AA guns written beside a template (28.10): refused at their line; the
        // Flak-Zug's come from its template.
        let text = GUERNSEY.replacen(
            "table: Some(\"de_flak_zug_1942\"),",
            "table: Some(\"de_flak_zug_1942\"), aa: [(barrels: 4, calibre_40_plus: false)],",
            1,
        );
        let mut file = CampaignFile::load("g.ron", &text).unwrap();
        let err = file.check_tables("g.ron", &text, &codex, &templates).unwrap_err();
        let line = text.lines().position(|l| l.contains("barrels: 4")).unwrap() + 1;
        assert_eq!(err.position.map(|p| p.0), Some(line), "{err}");
        assert!(err.message.contains("AA guns of its table template"), "{err}");
        let mut file = CampaignFile::load("g.ron", GUERNSEY).unwrap();
        file.check_tables("g.ron", GUERNSEY, &codex, &templates).unwrap();
        let flak = file.armies.iter().flat_map(|a| &a.battlegroups).flat_map(|b| &b.elements);
        assert_eq!(flak.map(|e| e.aa.len()).sum::<usize>(), 6, "two Flak platoons of three guns each");
        // A Landing Plan's loads are counted from the templates, never written (FYOW 24).
        let text = GUERNSEY.replacen(
            "waves: [[\"1 Troop\"",
            "wave_loads: [(load_spaces: 1, vehicles: false)], waves: [[\"1 Troop\"",
            1,
        );
        let mut file = CampaignFile::load("g.ron", &text).unwrap();
        let err = file.check_tables("g.ron", &text, &codex, &templates).unwrap_err();
        assert!(err.message.starts_with("wave_loads: counted from"), "{err}");
        let mut file = CampaignFile::load("g.ron", GUERNSEY).unwrap();
        file.check_tables("g.ron", GUERNSEY, &codex, &templates).unwrap();
        let plans = file.armies.iter().flat_map(|a| &a.battlegroups).filter_map(|b| b.landing.as_ref());
        assert!(plans.clone().count() == 5 && plans.clone().all(|p| p.wave_loads.len() == p.waves.len()));
        // Over the limit by the CODEX formula.
        let mut file = CampaignFile::load("g.ron", GUERNSEY).unwrap();
        file.max_points = Some(300);
        let err = file.check_tables("g.ron", GUERNSEY, &codex, &templates).unwrap_err();
        assert!(err.message.contains("over the limit of 300"), "{err}");
    }

    #[test]
    fn battlegroups_starting_on_one_board_over_its_capacity_are_refused_at_their_start() {
        // FYOW 13.9: a Map Board holds the battlegroup cost limit a side, its
        // box included. The Ardennes' Combat Command A put in the box of the
        // board the 334th's battalion holds is over it.
        const ARDENNES: &str = include_str!("../../../../scenarios/campaigns/ardennes-1945.ron");
        let (codex, templates) = (crate::army::orbat::test_codex(), crate::army::orbat::shipped());
        let mut file = CampaignFile::load("a.ron", ARDENNES).unwrap();
        file.check_tables("a.ron", ARDENNES, &codex, &templates).expect("the shipped starts fit");
        let text = ARDENNES.replacen("start: OnBoard(\"Barvaux\")", "start: InBox(\"Erezée\", North)", 1);
        let mut file = CampaignFile::load("a.ron", &text).unwrap();
        let err = file.check_tables("a.ron", &text, &codex, &templates).unwrap_err();
        let line = text.lines().position(|l| l.contains("InBox(\"Erezée\"")).unwrap() + 1;
        assert_eq!(err.position.map(|p| p.0), Some(line), "{err}");
        assert!(err.message.contains("\"Erezée\" holds 1800 points a side (FYOW 13.9)"), "{err}");
        assert!(err.message.contains("2nd Bn, 334th Infantry and Combat Command A, 2nd Armored"), "{err}");
    }

    #[test]
    fn a_templated_element_costs_its_order_of_battle() {
        // FYOW 2.1: a Battlegroup's "cost" by the FYOB "Cost of a Force"
        // rules, soft skins free; FYOW 33.2 "Using the values of figures,
        // vehicles, equipment and weapons, calculate the value of each unit".
        let (codex, templates) = (crate::army::orbat::test_codex(), crate::army::orbat::shipped());
        let file = testing::guernsey();
        let mut checked = 0;
        for army in &file.armies {
            for bg in &army.battlegroups {
                let mut exact = warbound_rules::codex::Points::ZERO;
                for e in &bg.elements {
                    let (nation, template) = e.template(&templates).expect("every Guernsey element fields a template");
                    let cost = template.points(&codex, nation, army.quality).unwrap();
                    assert_eq!(
                        e.points,
                        Some(cost.halves() / 2),
                        "{}: its template's cost, half point dropped",
                        e.name
                    );
                    exact += cost;
                    checked += 1;
                }
                // Within the limit by its exact cost, so by its whole points too.
                assert!(exact <= warbound_rules::codex::Points::whole(file.max_points()), "{}", bg.name);
                let c = Campaign::new("guernsey-1942", file.clone(), 1).unwrap();
                let force = c.forces.iter().find(|f| f.battlegroup.name == bg.name).unwrap();
                let written: u32 = bg.elements.iter().map(file::ElementFile::points).sum();
                assert_eq!(force.battlegroup.original_points, written, "{}", bg.name);
            }
        }
        assert_eq!(checked, 46);
    }

    #[test]
    fn an_airborne_battlegroup_is_flown_by_a_transport_squadron_and_jumps_on_foot() {
        // FYOW 28.8 Transport Missions, 28.13.
        let refused = |from: &str, to: &str| {
            let text = GUERNSEY.replacen(from, to, 1);
            let err = CampaignFile::load("g.ron", &text).unwrap_err();
            let line = text.lines().position(|l| l.contains(to)).unwrap() + 1;
            assert_eq!(err.position.map(|p| p.0), Some(line), "{err}");
            err.message
        };
        let fighters = refused(
            "squadron: \"No. 51 Squadron RAF (Whitley V)\"",
            "squadron: \"No. 234 Squadron RAF (Spitfire VB)\"",
        );
        assert!(fighters.contains("not a transport squadron of Force Take Three"), "{fighters}");
        let sea = refused("drop: \"Forest\"", "drop: \"West Sea\"");
        assert!(sea.contains("cannot be dropped on the sea board"), "{sea}");
        let carriers = refused(
            "(name: \"7 Platoon\", class: SpecialPurpose, mover: SpecialForces",
            "(name: \"7 Platoon\", class: SpecialPurpose, mover: TrackedCarriers",
        );
        assert!(carriers.contains("7 Platoon moves as TrackedCarriers and cannot jump"), "{carriers}");
    }

    #[test]
    fn a_written_cost_beside_a_template_is_refused_and_one_without_is_needed() {
        // The template's CODEX cost is the element's: a second figure beside
        // it would be ignored or contradict it, so it is refused at its line.
        let text = GUERNSEY.replacen("(name: \"1 Troop\", ", "(name: \"1 Troop\", points: 260, ", 1);
        let err = CampaignFile::load("g.ron", &text).unwrap_err();
        let line = text.lines().position(|l| l.contains("points: 260")).unwrap() + 1;
        assert_eq!(err.position.map(|p| p.0), Some(line), "{err}");
        assert!(err.message.starts_with("points: 1 Troop fields \"gb_commando_troop_1942\""), "{err}");
        // Without a template the cost must be written.
        let text = GUERNSEY.replacen(", table: Some(\"gb_commando_troop_1942\")", "", 1);
        let err = CampaignFile::load("g.ron", &text).unwrap_err();
        assert!(err.message.contains("1 Troop has no table template and needs its points written"), "{err}");
        // A file whose tables were never checked is not set up on 0 points.
        let unchecked = CampaignFile::load("g.ron", GUERNSEY).unwrap();
        let err = Campaign::new("g.ron", unchecked, 1).unwrap_err().to_string();
        assert!(err.contains("not costed"), "{err}");
    }

    #[test]
    fn a_battlegroup_over_its_limit_by_its_templates_is_refused_at_its_elements() {
        // FYOW 2.1: "1200 points (early war), 1500 points (mid-war) and 1800
        // (late war)"; the file's max_points alters it ("The player is free to
        // alter these figures"). The limit a battlegroup's computed cost breaks
        // is named at its elements' line.
        let (codex, templates) = (crate::army::orbat::test_codex(), crate::army::orbat::shipped());
        let file = testing::guernsey();
        let bg = &file.armies[0].battlegroups[0];
        let cost: u32 = bg.elements.iter().map(file::ElementFile::points).sum();
        let text = GUERNSEY.replacen("period: Mid,", &format!("period: Mid,\n    max_points: Some({}),", cost - 1), 1);
        let mut over = CampaignFile::load("g.ron", &text).unwrap();
        let err = over.check_tables("g.ron", &text, &codex, &templates).unwrap_err();
        assert!(err.message.contains(&format!("over the limit of {} (FYOW 2.1)", cost - 1)), "{err}");
        assert!(err.message.starts_with(&format!("elements: {} costs", bg.name)), "{err}");
        let at = text.find(&format!("name: \"{}\"", bg.name)).unwrap();
        let line = text[..at].matches('\n').count() + 1;
        let elements = text.lines().skip(line).position(|l| l.contains("elements: [")).unwrap() + line + 1;
        assert_eq!(err.position.map(|p| p.0), Some(elements), "{err}");
    }

    #[test]
    fn the_campaign_file_refuses_bad_leaders_and_aircraft() {
        let (codex, templates) = (crate::army::orbat::test_codex(), crate::army::orbat::shipped());
        let refused = |text: &str| {
            let mut file = CampaignFile::load("g.ron", text).unwrap();
            file.check_tables("g.ron", text, &codex, &templates).unwrap_err()
        };
        // An unknown aircraft, a weapon named as one, a type of the other
        // side: each at its line, naming the field.
        for (id, why) in [("gb_tardis", "unknown codex id"), ("gb_bren", "not an aircraft"), ("de_bf109f", "German")] {
            let text = GUERNSEY.replacen("codex: Some(\"gb_spitfire_vb\")", &format!("codex: Some(\"{id}\")"), 1);
            let err = refused(&text);
            let line =
                text.lines().position(|l| l.contains(&format!("\"{id}\")")) && l.contains("strength")).unwrap() + 1;
            assert_eq!(err.position.map(|p| p.0), Some(line), "{err}");
            assert!(err.message.starts_with("codex: ") && err.message.contains(why), "{err}");
        }
        // Bombs come from the CODEX aircraft, never from the campaign.
        let text = GUERNSEY.replacen(
            "codex: Some(\"gb_hurricane_iib\")",
            "codex: Some(\"gb_hurricane_iib\"), bombs: Some((heavy, 4))",
            1,
        );
        let err = refused(&text);
        let line = text.lines().position(|l| l.contains("bombs: Some((heavy, 4))")).unwrap() + 1;
        assert_eq!(err.position.map(|p| p.0), Some(line), "{err}");
        assert!(err.message.starts_with("bombs: ") && err.message.contains("gb_hurricane_iib"), "{err}");
        // So do the AT guns and rockets a machine fires at armour (28.9), and
        // the armoured vehicles of an AFV element come from its template.
        let text = GUERNSEY.replacen(
            "codex: Some(\"gb_hurricane_iib\")",
            "codex: Some(\"gb_hurricane_iib\"), at_weapons: [rocket, rocket]",
            1,
        );
        let err = refused(&text);
        let line = text.lines().position(|l| l.contains("at_weapons: [rocket, rocket]")).unwrap() + 1;
        assert_eq!(err.position.map(|p| p.0), Some(line), "{err}");
        assert!(err.message.starts_with("at_weapons: ") && err.message.contains("gb_hurricane_iib"), "{err}");
        let text = GUERNSEY.replacen(
            "afv: true, table: Some(\"gb_churchill_troop_1942\")",
            "afv: true, armour: [(armour: heavy, open_topped: false)], table: Some(\"gb_churchill_troop_1942\")",
            1,
        );
        let err = refused(&text);
        let line = text.lines().position(|l| l.contains("armour: [(armour: heavy")).unwrap() + 1;
        assert_eq!(err.position.map(|p| p.0), Some(line), "{err}");
        assert!(err.message.starts_with("armour: ") && err.message.contains("gb_churchill_troop_1942"), "{err}");
        // The partisans' weapon: a one-man CODEX weapon in service that year.
        for (id, why) in [("gb_tardis", "unknown codex id"), ("gb_bren", "not a personal weapon"), ("gb_piat", "1943")]
        {
            let text = GUERNSEY.replacen("weapon: \"gb_smle_rifle\"", &format!("weapon: \"{id}\""), 1);
            let err = refused(&text);
            let line = text.lines().position(|l| l.contains(&format!("weapon: \"{id}\""))).unwrap() + 1;
            assert_eq!(err.position.map(|p| p.0), Some(line), "{err}");
            assert!(err.message.starts_with("weapon: ") && err.message.contains(why), "{err}");
        }
        let text = GUERNSEY.replacen("        weapon: \"gb_smle_rifle\",\n", "", 1);
        assert!(CampaignFile::load("g.ron", &text).unwrap_err().message.contains("weapon"));
        // A battery with no FOO to call its guns, and a FOO with no guns.
        let text = GUERNSEY.replacen(", foo: Some(Regular)", "", 1);
        assert!(refused(&text).message.contains("needs a FOO"));
        let text = GUERNSEY.replacen("officer: Some(Regular)", "officer: Some(Regular), foo: Some(Bold)", 1);
        assert!(refused(&text).message.contains("foo: "));
        // A Senior Officer's grade for a CO is refused on loading.
        let text = GUERNSEY.replacen("officer: Some(Regular)", "officer: Some(AboveAverage)", 1);
        let err = CampaignFile::load("g.ron", &text).unwrap_err();
        assert!(err.message.starts_with("officer: AboveAverage"), "{err}");
        // Left out, the CO takes his troops' likeliest rating.
        let text = GUERNSEY.replacen("officer: Some(Bold)", "officer: None", 1);
        let file = CampaignFile::load("g.ron", &text).unwrap();
        let e = file.armies.iter().flat_map(|a| &a.battlegroups).flat_map(|b| &b.elements);
        let e = e.into_iter().find(|e| e.officer.is_none()).unwrap();
        assert_eq!(e.officer(warbound_rules::officer::Quality::Elite), warbound_rules::officer::Grade::Regular);
    }

    #[test]
    fn a_campaign_round_trips_through_ron() {
        // A campaign stored mid-way and loaded again plays on exactly as the
        // one that never stopped: same log, same summary.
        let file = testing::guernsey();
        let mut a = Campaign::new("guernsey-1942", file, 5).unwrap();
        a.play_days(3);
        a.drain_events();
        let text = ron::to_string(&a).unwrap();
        let mut b: Campaign = ron::from_str(&text).unwrap();
        assert_eq!(b.summary(), a.summary());
        a.play_days(3);
        b.play_days(3);
        let lines = |c: &mut Campaign| c.drain_events().iter().map(|e| e.to_json_line()).collect::<Vec<_>>();
        let (la, lb) = (lines(&mut a), lines(&mut b));
        assert!(!la.is_empty(), "three more days log something");
        assert_eq!(la, lb);
        assert_eq!(a.summary(), b.summary());
    }

    #[test]
    fn the_shipped_campaign_keeps_the_rules_and_runs_its_trains() {
        let file = testing::guernsey();
        let mut delivered = 0;
        let mut decided = 0;
        for seed in 0..6 {
            let mut c = Campaign::new("guernsey-1942", file.clone(), seed).unwrap();
            while c.ended.is_none() {
                c.play_day();
                c.check_invariants().unwrap_or_else(|e| panic!("seed {seed}, day {}: {e}", c.day));
            }
            let log: Vec<String> = c.drain_events().iter().map(|e| e.to_json_line()).collect();
            delivered += log.iter().filter(|l| l.contains("20.10 Supply convoys")).count();
            decided += usize::from(c.ended.as_ref().is_some_and(|e| e.winner.is_some()));
            assert!(!c.fought.is_empty(), "seed {seed}: the landing meets the garrison");
            assert!(log.iter().any(|l| l.contains("14.13 Landings from sea or air")));
        }
        assert!(delivered > 0, "the garrison's railway carries supply");
        assert_eq!(decided, 6, "every campaign has a winner");
    }

    #[test]
    fn the_rules_hold_after_every_session_over_many_seeds() {
        for seed in 0..40 {
            let mut c = small(seed);
            for _ in 0..6 {
                c.play_day();
                c.check_invariants().unwrap_or_else(|e| panic!("seed {seed}, day {}: {e}", c.day));
                for a in &c.armies {
                    assert!(a.morale.score <= 3);
                }
                for f in &c.forces {
                    assert!(f.supply.stockpile() <= f.supply.formation.stockpile_limit());
                }
            }
            assert!(c.ended.is_some(), "seed {seed}: the campaign ends by its last day");
        }
    }
}
