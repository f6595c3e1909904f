//! Table orders of battle: what a campaign element (a company, troop,
//! battery) fields when its engagement goes to the table. A template, by
//! nation and years, lists its platoons and sections with their men,
//! grades, CODEX weapons and vehicles, as a scenario's elements are written
//! (`warbound_rules::scenario::{Figures, PieceSpec}`); its points are the
//! CODEX formula's (FYOW 2.1: "soft skins" free; FYOW 33.2: "Using the values
//! of figures, vehicles, equipment and weapons, calculate the value of each
//! unit"). Templates live once in `assets/orbat/<nation>.ron`; campaigns name
//! them by id.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use warbound_rules::{
    codex::{Codex, FigureGrade, Kind as CodexKind, Points},
    data::{DataError, from_ron_with},
    dice::Scripted,
    effects::ArmourClass,
    firing::Weapon,
    forces::Element,
    officer::{self, ElementMakeup, Grade, Quality, Rank},
    opc::Nation,
    scenario::{Figures, PieceSpec},
};

use crate::air::firing::{AaGun, VehicleArmour};

/// One platoon, section, troop vehicle or gun of a template: a table element.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemplateElement {
    pub id: String,
    #[serde(default)]
    pub figures: Vec<Figures>,
    #[serde(default)]
    pub pieces: Vec<PieceSpec>,
    /// Carries a radio on its Company's net (FYOB "Radios").
    #[serde(default)]
    pub radio: bool,
    /// A recognised recce unit (*Heroes All*, "Observation").
    #[serde(default)]
    pub recce: bool,
    /// Guns that fire from behind the table edge, called by the element's
    /// FOO on the table (*Heroes All*, "Advanced Artillery Rules").
    #[serde(default)]
    pub off_table: bool,
}

/// An artillery element's guns off the table and where its FOO starts on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OffTableGuns<'a> {
    /// The CODEX id of the gun.
    pub gun: &'a str,
    pub guns: u8,
    /// The template element, on the table, the FOO starts with.
    pub foo_with: &'a str,
}

/// A campaign element's order of battle on the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Template {
    pub id: String,
    /// What the player reads: "British rifle company, 1942".
    pub name: String,
    /// First and last years the organisation stands for; every weapon and
    /// vehicle in it is in service in the first.
    pub years: (u16, u16),
    pub elements: Vec<TemplateElement>,
}

/// A file of templates: one nation's.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct TemplateFile {
    nation: Nation,
    templates: Vec<Template>,
}

/// Every template loaded, by id, with its nation.
#[derive(Debug, Clone, Default)]
pub struct Templates {
    by_id: BTreeMap<String, (Nation, Template)>,
}

impl Templates {
    /// Loads template files given as (file name, RON text), checked against
    /// `codex`: an unknown CODEX id, a weapon or vehicle not yet in service in
    /// the template's first year, a template id used twice or an empty
    /// template is refused with file, line and field.
    pub fn load(files: &[(&str, &str)], codex: &Codex) -> Result<Self, DataError> {
        let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        let mut by_id = BTreeMap::new();
        for &(file, text) in files {
            let data: TemplateFile = from_ron_with(&options, file, text)?;
            for (t, template) in data.templates.into_iter().enumerate() {
                let at = format!("templates[{t}]");
                let refuse =
                    |field: &str, value: &str, why: String| DataError::located(file, text, field, Some(value), why);
                if by_id.contains_key(&template.id) {
                    let why = format!("id: \"{}\" is already used", template.id);
                    return Err(refuse(&format!("{at}.id"), &template.id, why));
                }
                if template.elements.is_empty() {
                    return Err(refuse(&format!("{at}.elements"), &template.id, "elements: none".into()));
                }
                let year = template.years.0;
                if let Some(why) = template.off_table_fault(codex) {
                    return Err(refuse(&format!("{at}.elements"), &template.id, format!("elements: {why}")));
                }
                for (e, element) in template.elements.iter().enumerate() {
                    let weapons = element.figures.iter().filter_map(|f| f.weapon.as_deref());
                    let kit = weapons.chain(element.pieces.iter().map(|p| p.codex.as_str()));
                    for id in kit {
                        let at = format!("{at}.elements[{e}]");
                        match codex.get(id) {
                            Err(err) => return Err(refuse(&at, id, err.to_string())),
                            Ok(entry) if !entry.in_service(year) => {
                                let (from, to) = entry.service;
                                let why = format!("\"{id}\" is in service {from}-{to}, not in {year}");
                                return Err(refuse(&at, id, why));
                            }
                            Ok(_) => {}
                        }
                    }
                }
                by_id.insert(template.id.clone(), (data.nation.clone(), template));
            }
        }
        Ok(Self { by_id })
    }

    /// The template `id` and its nation.
    pub fn get(&self, id: &str) -> Option<(&Nation, &Template)> {
        self.by_id.get(id).map(|(n, t)| (n, t))
    }

    /// Every template id, sorted.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.by_id.keys().map(String::as_str)
    }
}

impl Template {
    /// The template's elements as the rules' `Element`s, their figures at
    /// their own grade or `quality`'s, every piece with its CODEX crew
    /// unless written.
    pub fn elements(&self, codex: &Codex, nation: &Nation, quality: Quality) -> Result<Vec<Element>, String> {
        let grade = match quality {
            Quality::Poor => FigureGrade::Poor,
            Quality::Regular => FigureGrade::Regular,
            Quality::Elite => FigureGrade::Elite,
        };
        self.elements
            .iter()
            .map(|e| {
                let figures: Vec<(FigureGrade, Option<&str>)> = e
                    .figures
                    .iter()
                    .flat_map(|f| std::iter::repeat_n((f.grade.unwrap_or(grade), f.weapon.as_deref()), f.men.into()))
                    .collect();
                let mut pieces = Vec::new();
                for p in &e.pieces {
                    let crew = match p.crew {
                        Some(c) => c,
                        None => codex.get(&p.codex).map_err(|err| err.to_string())?.crew,
                    };
                    pieces.push((p.codex.as_str(), crew));
                }
                Element::new(codex, &e.id, nation.clone(), &figures, &pieces).map_err(|err| format!("{err:?}"))
            })
            .collect()
    }

    /// Its points by the CODEX formula (*Heroes All*, "The cost of your
    /// army"): every figure at his grade, every crew at the grade its piece
    /// asks, every weapon and vehicle at its CODEX cost, soft skins free.
    pub fn points(&self, codex: &Codex, nation: &Nation, quality: Quality) -> Result<Points, String> {
        let mut total = Points::ZERO;
        for e in self.elements(codex, nation, quality)? {
            total += e.cost(codex).map_err(|err| format!("{err:?}"))?;
        }
        Ok(total)
    }

    /// Its AA guns (FYOW 28.10: "Only AA guns can engage bombers and
    /// fighters"), one for each piece that is a gun firing on the autocannon
    /// rows, its barrels the armament's count.
    ///
    /// Reading (FYOW 28.10): an AA gun is a towed or hand-moved autocannon
    /// (the 2 cm Flak 38, the Bofors 40 mm); a tank's or armoured car's
    /// autocannon is not one (test `a_flak_zug_has_three_aa_guns`).
    pub fn aa_guns(&self, codex: &Codex) -> Vec<AaGun> {
        self.elements
            .iter()
            .flat_map(|e| &e.pieces)
            .filter_map(|p| codex.get(&p.codex).ok())
            .filter(|entry| entry.kind == CodexKind::Weapon)
            .flat_map(|entry| &entry.armament)
            .filter(|a| matches!(a.row, Weapon::AutocannonLight | Weapon::AutocannonHeavy))
            .map(|a| AaGun { barrels: a.count, calibre_40_plus: a.calibre.is_some_and(|c| c >= 40) })
            .collect()
    }

    /// Its armoured vehicles (soft skins left out), each as the CODEX
    /// armours it: what an aircraft's AT guns and rockets fire at (FYOW
    /// 28.9).
    pub fn armoured_vehicles(&self, codex: &Codex) -> Vec<VehicleArmour> {
        self.elements
            .iter()
            .flat_map(|e| &e.pieces)
            .filter_map(|p| codex.get(&p.codex).ok())
            .filter(|entry| entry.kind == CodexKind::Vehicle)
            .filter_map(|entry| match entry.armour {
                Some(ArmourClass::SoftSkinned) | None => None,
                Some(armour) => Some(VehicleArmour { armour, open_topped: entry.open_topped }),
            })
            .collect()
    }

    /// Its off-table guns, where it has any: one CODEX gun, their number,
    /// and the first element on the table, the FOO's party.
    pub fn off_table_guns(&self) -> Option<OffTableGuns<'_>> {
        let mut guns = self.elements.iter().filter(|e| e.off_table).flat_map(|e| &e.pieces);
        let gun = guns.next()?.codex.as_str();
        let guns = u8::try_from(1 + guns.count()).unwrap_or(u8::MAX);
        let foo_with = self.elements.iter().find(|e| !e.off_table)?.id.as_str();
        Some(OffTableGuns { gun, guns, foo_with })
    }

    /// What is wrong with its off-table elements: a battery fires one gun
    /// from behind the table edge (*Heroes All*, "Advanced Artillery
    /// Rules": "the distance given as their 'short' range"), its elements
    /// are guns alone, and its FOO starts with an element on the table.
    fn off_table_fault(&self, codex: &Codex) -> Option<String> {
        let off: Vec<&TemplateElement> = self.elements.iter().filter(|e| e.off_table).collect();
        if off.is_empty() {
            return None;
        }
        if off.len() == self.elements.len() {
            return Some("off-table guns need an element on the table for their FOO".into());
        }
        let mut gun = None;
        for e in off {
            if !e.figures.is_empty() || e.pieces.is_empty() {
                return Some(format!("{} is off the table: guns alone, no figures", e.id));
            }
            for p in &e.pieces {
                if gun.is_some_and(|g| g != p.codex.as_str()) {
                    return Some(format!("{} fires {}: a battery fires one gun", e.id, p.codex));
                }
                gun = Some(p.codex.as_str());
                let entry = codex.get(&p.codex).ok()?;
                let behind = match (entry.kind, entry.armament.first()) {
                    (warbound_rules::codex::Kind::Weapon, Some(a)) => {
                        warbound_rules::artillery::behind_the_edge(a.range()).is_ok()
                    }
                    _ => false,
                };
                if !behind {
                    return Some(format!("\"{}\" cannot fire from behind the table edge", p.codex));
                }
            }
        }
        None
    }

    /// Men in the template.
    pub fn men(&self) -> u32 {
        let figures: u32 = self.elements.iter().flat_map(|e| &e.figures).map(|f| u32::from(f.men)).sum();
        figures
    }
}

/// The Company Officer's grade where a campaign writes none: the grade the
/// FYOB rating table ("Rating NCOs and Officers": a D6, +1 for Elite troops,
/// −1 for Poor) gives a CO of troops of `quality` most often. Reading
/// (docs/rules-readings.md): the campaign keeps its COs' ratings as FYOW's
/// "record ... showing the ratings of all CO's" does, so a CO it does not
/// rate takes his troops' likeliest rating, not a new throw each battle;
/// that is Regular at every quality (faces 2–5, 1–4 or 3–6 of the six).
pub fn company_officer(quality: Quality) -> Grade {
    let mut rated: BTreeMap<Grade, u8> = BTreeMap::new();
    for face in 1..=6 {
        let mut die = Scripted::new([face]);
        let (co, _) = officer::rate(Rank::CompanyOfficer, ElementMakeup::Whole(quality), &mut die, "co");
        *rated.entry(co.grade()).or_default() += 1;
    }
    rated.into_iter().max_by_key(|&(_, n)| n).map_or(Grade::Regular, |(grade, _)| grade)
}

/// The shipped template files, for the crate's tests.
#[cfg(test)]
pub(crate) const SHIPPED: [(&str, &str); 3] = [
    ("assets/orbat/british.ron", include_str!("../../../../assets/orbat/british.ron")),
    ("assets/orbat/german.ron", include_str!("../../../../assets/orbat/german.ron")),
    ("assets/orbat/us.ron", include_str!("../../../../assets/orbat/us.ron")),
];

/// The British, German and US CODEX files, for the crate's tests.
#[cfg(test)]
pub(crate) fn test_codex() -> Codex {
    const FILES: [(&str, &str); 3] = [
        ("assets/codex/british.ron", include_str!("../../../../assets/codex/british.ron")),
        ("assets/codex/german.ron", include_str!("../../../../assets/codex/german.ron")),
        ("assets/codex/us.ron", include_str!("../../../../assets/codex/us.ron")),
    ];
    Codex::load(&FILES).unwrap_or_else(|e| panic!("{e}"))
}

/// The shipped templates, for the crate's tests.
#[cfg(test)]
pub(crate) fn shipped() -> Templates {
    Templates::load(&SHIPPED, &test_codex()).unwrap_or_else(|e| panic!("{e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_codex as codex;

    #[test]
    fn a_flak_zug_has_three_aa_guns() {
        // FYOW 28.10: "each AA gun throws 2D6 per barrel (3D6 if 40mm or over)".
        let (codex, t) = (codex(), shipped());
        let flak = t.get("de_flak_zug_1942").unwrap().1.aa_guns(&codex);
        assert_eq!(flak, vec![AaGun { barrels: 1, calibre_40_plus: false }; 3]);
        // A rifle company has none, nor a tank platoon whose turrets carry autocannon.
        let ids: Vec<&str> = t.ids().collect();
        for id in ids.iter().filter(|id| id.contains("kompanie") || id.contains("zug") && !id.contains("flak")) {
            assert!(t.get(id).unwrap().1.aa_guns(&codex).is_empty(), "{id}");
        }
    }

    #[test]
    fn every_shipped_template_loads_and_has_a_cost() {
        let (codex, t) = (codex(), shipped());
        assert!(t.ids().count() >= 8, "{}", t.ids().count());
        for id in t.ids() {
            let (nation, template) = t.get(id).unwrap();
            let points = template.points(&codex, nation, Quality::Regular).unwrap();
            assert!(points > Points::ZERO, "{id}");
        }
    }

    #[test]
    fn a_template_is_costed_by_the_codex_formula() {
        // HA "The cost of your army": a Regular figure 1½ points; the CODEX
        // gives each weapon's. A template's cost is the sum of its elements'.
        let (codex, t) = (codex(), shipped());
        let (nation, coy) = t.get("gb_rifle_company_1942").unwrap();
        let by_hand: Points = coy
            .elements(&codex, nation, Quality::Regular)
            .unwrap()
            .iter()
            .map(|e| e.cost(&codex).unwrap())
            .fold(Points::ZERO, |a, b| a + b);
        assert_eq!(coy.points(&codex, nation, Quality::Regular).unwrap(), by_hand);
        let figures = FigureGrade::Regular.cost() * coy.men();
        assert!(by_hand > figures, "weapons cost on top of the men: {by_hand:?} against {figures:?}");
        let elite = coy.points(&codex, nation, Quality::Elite).unwrap();
        assert!(elite > by_hand, "Elite men cost 2, Regular 1½");
    }

    #[test]
    fn an_unknown_codex_id_names_its_file_line_and_field() {
        let text = SHIPPED[0].1.replacen("gb_bren", "gb_tardis", 1);
        let err = Templates::load(&[("british.ron", &text)], &codex()).unwrap_err();
        let line = text.lines().position(|l| l.contains("gb_tardis")).unwrap() + 1;
        assert_eq!(err.position.map(|p| p.0), Some(line), "{err}");
        assert!(err.message.contains("gb_tardis"), "{err}");
    }

    #[test]
    fn a_company_officer_left_unrated_takes_the_likeliest_rating() {
        // FYOB rating table: 0 Weak, 1 Cautious, 2-5 Regular, 6 Bold, 7
        // Inspirational; Elite +1, Poor -1. Four faces in six give Regular.
        for quality in [Quality::Poor, Quality::Regular, Quality::Elite] {
            assert_eq!(company_officer(quality), Grade::Regular, "{quality:?}");
        }
    }

    #[test]
    fn a_battery_fires_one_gun_from_off_the_table_through_its_foo() {
        let (t, codex) = (shipped(), codex());
        let (_, battery) = t.get("gb_field_battery_1942").unwrap();
        let guns = battery.off_table_guns().unwrap();
        assert_eq!((guns.gun, guns.guns, guns.foo_with), ("gb_25pdr", 8, "op_party"));
        assert!(t.get("gb_rifle_company_1942").unwrap().1.off_table_guns().is_none());
        // Two guns in one battery, and a battery with no one on the table.
        let text = SHIPPED[0].1.replacen(
            "(codex: \"gb_25pdr\"), (codex: \"gb_25pdr\")]",
            "(codex: \"gb_25pdr\"), (codex: \"gb_45in_gun\")]",
            1,
        );
        let err = Templates::load(&[("british.ron", &text)], &codex).unwrap_err();
        assert!(err.message.contains("a battery fires one gun"), "{err}");
        let text = SHIPPED[0].1.replacen(
            "radio: true),\n                (id: \"guns\"",
            "radio: true, off_table: true),\n                (id: \"guns\"",
            1,
        );
        let err = Templates::load(&[("british.ron", &text)], &codex).unwrap_err();
        assert!(err.message.contains("guns alone") || err.message.contains("on the table"), "{err}");
    }

    #[test]
    fn a_weapon_not_yet_in_service_is_refused() {
        // The PIAT entered service in 1943: not in a 1942 company.
        let text = SHIPPED[0].1.replacen("gb_boys_atr", "gb_piat", 1);
        let err = Templates::load(&[("british.ron", &text)], &codex()).unwrap_err();
        assert!(err.message.contains("gb_piat") && err.message.contains("not in 1942"), "{err}");
    }
}
