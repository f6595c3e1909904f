//! Rule events read as sentences a player understands: "13 Platoon, Order
//! Die 3: Act (FYOB, Order Dice)". Names, not ids (through the caller's
//! names); numbers rounded as the rules round them (whole men and dice,
//! inches to the tenth, written 12.5"); rule words, not program words; no
//! JSON; only characters the game's font draws.

use serde_json::Value;

use crate::event::{EventKind, Input, RuleEvent};

/// What a log line calls an id: the name of the element, company, officer,
/// squadron or craft it is, `None` for a string that is no id.
pub type Names<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The name of `id`, or the id written as a name.
fn name_of(id: &str, names: Names) -> String {
    names(id).unwrap_or_else(|| id_name(id))
}

/// An id written as a name when nothing better is known: "13_platoon" →
/// "13 Platoon", "zug_2_gruppe_1" → "Zug 2 Gruppe 1".
pub fn id_name(id: &str) -> String {
    if id.contains(' ') {
        return id.to_owned();
    }
    id.split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A program name in words: "SeizesInitiative" → "seizes initiative",
/// "end_turn" → "end turn"; names of rules keep their capitals where the
/// book writes them in full ("Green", "Regular").
pub fn words(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut last: Option<char> = None;
    for c in name.chars() {
        if c == '_' {
            out.push(' ');
        } else if c.is_ascii_uppercase() && last.is_some_and(|l| l.is_ascii_lowercase()) {
            out.push(' ');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
        last = Some(c);
    }
    out.split(' ').map(acronym).collect::<Vec<_>>().join(" ")
}

/// The books' abbreviations in capitals: "cms" → "CMS".
fn acronym(word: &str) -> String {
    match word {
        "cms" | "cmt" | "nco" | "co" | "so" | "opc" | "foo" | "csw" | "csws" | "mmg" | "hmg" | "lmg" | "aa" | "he"
        | "ort" => word.to_uppercase(),
        _ => word.to_owned(),
    }
}

/// A number as the rules count it: whole numbers bare, others to a tenth
/// (distances are measured in inches, to the tenth at the finest).
pub fn number(x: f64) -> String {
    if (x - x.round()).abs() < 0.05 { format!("{}", x.round() as i64) } else { format!("{x:.1}") }
}

/// A point on the table in inches from the near-left corner.
fn point(v: &Value) -> Option<String> {
    let a = v.as_array()?;
    match a.as_slice() {
        [x, y] if x.is_f64() || y.is_f64() => Some(format!("({}\", {}\")", number(x.as_f64()?), number(y.as_f64()?))),
        _ => None,
    }
}

/// A value in words: ids through `names`, program names in words, numbers
/// rounded, points in inches, lists joined, objects as "key value".
pub fn value_words(v: &Value, names: Names) -> String {
    value_in(v, names)
}

fn value_in(v: &Value, names: Names) -> String {
    match v {
        Value::Null => "none".to_owned(),
        Value::Bool(true) => "yes".to_owned(),
        Value::Bool(false) => "no".to_owned(),
        Value::Number(n) => n.as_f64().map_or_else(|| n.to_string(), number),
        Value::String(s) => names(s).unwrap_or_else(|| words(s)),
        Value::Array(a) => {
            if let Some(p) = point(v) {
                return p;
            }
            if a.is_empty() {
                return "none".to_owned();
            }
            // A pair of a name and a count: "figure 8" → "8 figure".
            if let [name @ Value::String(_), n @ Value::Number(_)] = a.as_slice() {
                return format!("{} × {}", value_in(name, names), value_in(n, names));
            }
            let items: Vec<String> = a.iter().map(|x| value_in(x, names)).collect();
            items.join(", ")
        }
        Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .filter(|(_, x)| !x.is_null())
                .map(|(k, x)| match x {
                    Value::Bool(true) => words(k),
                    Value::Bool(false) => format!("not {}", words(k)),
                    Value::Object(_) if m.len() == 1 => format!("{} ({})", words(k), value_in(x, names)),
                    _ => format!("{} {}", words(k), value_in(x, names)),
                })
                .collect();
            parts.join(", ")
        }
    }
}

/// An input with why it has its value: "shots 6 (weapons x shots per bound)".
pub fn input_words(input: &Input, names: Names) -> String {
    let value = value_in(&input.value, names);
    if input.reason.is_empty() {
        format!("{}: {value}", words(&input.name))
    } else {
        format!("{}: {value} ({})", words(&input.name), input.reason)
    }
}

/// The dice thrown, as a player calls them: "d6 2 5 6, d10 7".
pub fn dice_words(e: &RuleEvent) -> String {
    let mut out = String::new();
    let mut last = None;
    for d in &e.dice {
        if last == Some(d.sides) {
            out.push(' ');
        } else {
            if last.is_some() {
                out.push_str(", ");
            }
            out.push_str(&format!("d{} ", d.sides));
            last = Some(d.sides);
        }
        out.push_str(&d.face.to_string());
    }
    out
}

fn input<'e>(e: &'e RuleEvent, name: &str) -> Option<&'e Value> {
    e.inputs.iter().find(|i| i.name == name).map(|i| &i.value)
}

fn out<'e>(e: &'e RuleEvent, name: &str) -> Option<&'e Value> {
    e.outcome.get(name)
}

fn text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => words(s),
        Some(v) => value_words(v, &|_: &str| None),
        None => String::new(),
    }
}

fn count(v: Option<&Value>) -> i64 {
    v.and_then(Value::as_f64).map_or(0, |x| x.round() as i64)
}

/// What an aircraft fires at armour (FYOW 28.9): "6 rockets", "2 AT guns
/// and 6 rockets".
pub fn armour_weapons(guns: i64, rockets: i64) -> String {
    match (guns, rockets) {
        (0, r) => plural(r, "rocket", "rockets"),
        (g, 0) => plural(g, "AT gun", "AT guns"),
        (g, r) => format!("{} and {}", plural(g, "AT gun", "AT guns"), plural(r, "rocket", "rockets")),
    }
}

fn plural(n: i64, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

fn passed(e: &RuleEvent) -> Option<bool> {
    out(e, "passed").and_then(Value::as_bool)
}

/// What an event says, before its rule: "13 Platoon, Order Die 3: Act".
fn said(e: &RuleEvent, names: Names) -> String {
    let actor = e.actor.as_deref().map(|a| subject(a, e, names));
    let target = e.target.as_deref().map(|t| name_of(t, names));
    let who = actor.clone().or_else(|| target.clone()).unwrap_or_default();
    let face = e.dice.first().map(|d| d.face).unwrap_or_default();
    let dice = dice_words(e);
    let section = e.rule.section.as_str();
    match e.kind {
        EventKind::OrderDie if section == "Order Dice" => {
            format!("{who}, Order Die {face}: {}", text(out(e, "order")))
        }
        EventKind::CommandDice if out(e, "first_player").is_some() => {
            let side = if who.is_empty() { format!("Player {}", count(out(e, "first_player")) + 1) } else { who };
            format!("{side} goes first ({dice})")
        }
        EventKind::CommandDice if out(e, "dice").is_some() => {
            format!("{who} throws {} ({dice})", plural(count(out(e, "dice")), "Command Die", "Command Dice"))
        }
        EventKind::CommandDice if out(e, "overwatch").is_some() => {
            let on = out(e, "overwatch").and_then(Value::as_bool) == Some(true);
            format!("{who} {} Overwatch (a 4)", if on { "goes onto" } else { "comes out of" })
        }
        EventKind::CommandDice if out(e, "face").is_some() => {
            format!("{who} re-rolls Command Die {} for seizing the initiative: a {face}", count(input(e, "die")) + 1)
        }
        EventKind::AtEffect if out(e, "result").is_some() => {
            let hit = target.clone().unwrap_or(who);
            let attack = count(input(e, "attack_value"));
            let brew = input(e, "defence").and_then(|d| d.get("brew")).map_or(0, |b| count(Some(b)));
            let result = match out(e, "result").and_then(Value::as_str) {
                Some("brewed") => "it brews up".to_owned(),
                Some("damaged") if out(e, "state").and_then(Value::as_str) == Some("brewed") => {
                    "damaged a second time, it brews up".to_owned()
                }
                Some("damaged") => "it is damaged".to_owned(),
                _ => "no effect".to_owned(),
            };
            format!("An AT hit on {hit} (d10 {face}, {attack:+} against {brew} to brew): {result}")
        }
        EventKind::Ort => {
            let auto = out(e, "automatic").and_then(Value::as_bool) == Some(true);
            let how = if auto { "no throw".to_owned() } else { format!("d10 {face}") };
            format!("{who}, Officer Reaction Test ({how}): {}", text(out(e, "result")))
        }
        EventKind::Rating => {
            format!("{who} is rated {} ({}), d6 {face}", text(out(e, "grade")), text(out(e, "rating")))
        }
        EventKind::OpcDeal => {
            let order: Vec<String> = out(e, "order")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).map(|s| name_of(s, names)).collect())
                .unwrap_or_default();
            format!("Order Priority Cards dealt: {}", order.join(", "))
        }
        EventKind::Bound if input(e, "bound").is_some() => {
            let bound = count(input(e, "bound"));
            let hour = count(input(e, "hour"));
            let light = text(input(e, "light"));
            if light.is_empty() {
                format!("Bound {bound} begins")
            } else {
                format!("Bound {bound} begins, {hour:02}00 hours, {}", light.to_lowercase())
            }
        }
        EventKind::Command if input(e, "command").is_some() => command(e, &who, names),
        EventKind::Fire if section == "How to fire weapons" => {
            let hits = count(out(e, "hits"));
            let weapon = input(e, "weapon").map(|w| format!(" {}", text(Some(w)))).unwrap_or_default();
            let at = target.map(|t| format!(" at {t}")).unwrap_or_default();
            let mut how: Vec<String> =
                input(e, "band").map(|b| format!("{} range", text(Some(b)))).into_iter().collect();
            match input(e, "needed").and_then(Value::as_f64) {
                Some(n) => how.push(format!("{}+ on {dice}", number(n))),
                None if !dice.is_empty() => how.push(dice),
                None => {}
            }
            format!("{who} fires{weapon}{at} ({}): {}", how.join(", "), plural(hits, "hit", "hits"))
        }
        EventKind::Fire if section == "Indirect Fire" => {
            let hit = out(e, "hit").and_then(Value::as_bool) == Some(true);
            format!(
                "{who} fires {} ({} on {dice}): {}",
                text(input(e, "weapon")),
                needs(e),
                if hit { "on target" } else { "misses" }
            )
        }
        EventKind::Fire if out(e, "hits").is_some() => {
            let hits = count(out(e, "hits"));
            let at = target.map(|t| format!(" at {t}")).unwrap_or_default();
            format!("{who} fires{at} ({dice}): {}", plural(hits, "hit", "hits"))
        }
        EventKind::Casualties if out(e, "men").is_some() => {
            let lost = count(input(e, "casualties"));
            let men = count(out(e, "men"));
            format!("{who} loses {}, {} left", plural(lost, "man", "men"), plural(men, "man", "men"))
        }
        EventKind::Movement if section == "Movement" => {
            let moved = out(e, "distance").and_then(Value::as_f64).unwrap_or(0.0);
            let mut s = format!("{who} moves {}\" ({dice})", number(moved));
            if out(e, "broke_down").and_then(Value::as_bool) == Some(true) {
                s.push_str(", and breaks down");
            }
            if out(e, "track_lost").and_then(Value::as_bool) == Some(true) {
                s.push_str(", and throws a track");
            }
            s
        }
        EventKind::Observation if out(e, "seen").is_some() => {
            let seen = out(e, "seen").and_then(Value::as_bool) == Some(true);
            let dice = if dice.is_empty() { String::new() } else { format!(" ({dice})") };
            format!("{who} looks for {}{dice}: {}", target.unwrap_or_default(), if seen { "seen" } else { "not seen" })
        }
        EventKind::CmTests => {
            let before = count(out(e, "cms_before"));
            let after = count(out(e, "cms_after"));
            let failures = count(out(e, "failures"));
            let band = out(e, "effects").and_then(|f| f.get("band")).map(|b| text(Some(b))).unwrap_or_default();
            let mut s = format!(
                "{who} takes {}: {}, CMS {before} to {after}",
                plural(e.dice.len() as i64, "Continuous Momentum test", "Continuous Momentum tests"),
                plural(failures, "failure", "failures")
            );
            if !band.is_empty() {
                s.push_str(&format!(" ({})", band.to_lowercase()));
            }
            if out(e, "surrenders").and_then(Value::as_bool) == Some(true) {
                s.push_str(", and surrenders");
            }
            s
        }
        EventKind::Rally => {
            let rallied: Vec<String> = out(e, "rallied")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|r| {
                            let id = r.get("id")?.as_str()?;
                            Some(format!("{} to CMS {}", name_of(id, names), count(r.get("cms_after"))))
                        })
                        .collect()
                })
                .unwrap_or_default();
            if rallied.is_empty() {
                format!("{who} rallies ({dice}): no one")
            } else {
                format!("{who} rallies ({dice}): {}", rallied.join(", "))
            }
        }
        // A counter observed: who found what, without naming a dummy's
        // element (the observer has not seen it).
        EventKind::Concealment if out(e, "spotted").is_some() && target.is_some() => {
            let observer = target.clone().unwrap_or_default();
            let counter = count(input(e, "counter"));
            let left = out(e, "counters_left").and_then(Value::as_array).map_or(0, |a| a.len() as i64);
            // Dummy markers name the real one: no die is thrown for them.
            let thrown = if dice.is_empty() { String::new() } else { format!(" ({dice})") };
            if text(out(e, "spotted")) == "Dummy" {
                let left = plural(left, "counter is", "counters are");
                format!("{observer} finds counter {counter} is a dummy{thrown}; {left} left")
            } else {
                format!("{observer} finds {} at counter {counter}{thrown}", actor.clone().unwrap_or_default())
            }
        }
        EventKind::Concealment if section == "How to conceal an element" => {
            let hidden = out(e, "concealed").and_then(Value::as_bool) == Some(true);
            let need = count(out(e, "needed"));
            let result = if hidden { "starts concealed" } else { "starts in the open" };
            format!("{who} tries to start concealed ({need}+ on {dice}): {result}")
        }
        EventKind::Assault if out(e, "entering").is_some() => {
            let how = match (input(e, "column"), dice.is_empty()) {
                (Some(c), false) => format!(" (column {}, {dice})", text(Some(c))),
                (Some(c), true) => format!(" (column {})", text(Some(c))),
                (None, false) => format!(" ({dice})"),
                (None, true) => String::new(),
            };
            format!(
                "{who} assaults {}{how}: {}; {} go in, {} wait outside",
                target.unwrap_or_default(),
                plural(count(out(e, "casualties")), "casualty", "casualties"),
                plural(count(out(e, "entering")), "man", "men"),
                count(out(e, "left_outside"))
            )
        }
        EventKind::Assault if out(e, "winner").is_some() => {
            let winner = text(out(e, "winner")).to_lowercase();
            let status = out(e, "status")
                .map(|s| format!("; {} is {}", target.clone().unwrap_or_default(), text(Some(s)).to_lowercase()));
            format!(
                "{who}'s assault on {} ends: the {winner} wins{}",
                target.clone().unwrap_or_default(),
                status.unwrap_or_default()
            )
        }
        EventKind::Leaves => format!("{who} leaves the table: {}", text(out(e, "status")).to_lowercase()),
        EventKind::LeadershipTest if section == "Guards" => {
            let to =
                input(e, "re_face").and_then(|v| serde_json::from_value::<crate::movement::Compass>(v.clone()).ok());
            let to = to.map_or("a new way", |c| c.name());
            let result = if passed(e) == Some(true) { "it faces that way now" } else { "it faces as before" };
            let dice = if dice.is_empty() { "no throw".to_owned() } else { dice };
            format!("{who}'s NCO takes a Leadership Test to re-face the guard to the {to} ({dice}): {result}")
        }
        EventKind::LeadershipTest => {
            let result = match passed(e) {
                Some(true) => "passed",
                Some(false) => "failed",
                None => "taken",
            };
            let about = target.filter(|t| *t != who).map(|t| format!(" ({t})")).unwrap_or_default();
            let dice = if dice.is_empty() { "no throw".to_owned() } else { dice };
            format!("{who}, Leadership Test{about} ({dice}): {result}")
        }
        EventKind::RadioTest => {
            let result = if passed(e) == Some(true) { "netted in" } else { "not netted in" };
            format!("{who}, radio netting-in ({dice}): {result}")
        }
        EventKind::OfficerCasualty => {
            let hit = out(e, "nco_hit").and_then(Value::as_bool) == Some(true)
                || out(e, "co_hit").and_then(Value::as_bool) == Some(true)
                || out(e, "foo_hit").and_then(Value::as_bool) == Some(true);
            format!("{who}: is the officer hit? ({dice}): {}", if hit { "yes" } else { "no" })
        }
        EventKind::StrategicMilestone => {
            format!("{who}: Strategic Condition {}", text(out(e, "condition")))
        }
        EventKind::Arrival => {
            let at = input(e, "at").and_then(point).unwrap_or_default();
            format!("{who} comes onto the table at {at}")
        }
        EventKind::Movement if section == "Buildings" => {
            let moved = out(e, "halted_after").and_then(Value::as_f64).unwrap_or_default();
            let why = out(e, "refused").and_then(Value::as_str).unwrap_or("it may not go in");
            format!("{who} halts after {moved:.1}\" at the door of a building: {why}")
        }
        EventKind::Movement if section == "Transport elements" => {
            let vehicle = target.clone().unwrap_or_else(|| "its transport".to_owned());
            match (out(e, "aboard"), out(e, "out_at").and_then(point)) {
                (Some(_), _) => format!("{who} gets into {vehicle}"),
                (None, Some(at)) if out(e, "casualties").is_some() => {
                    let lost = count(out(e, "casualties"));
                    format!(
                        "{who} gets out of the wreck of {vehicle} at {at}: {}",
                        plural(lost, "casualty", "casualties")
                    )
                }
                (None, Some(at)) => format!("{who} gets out of {vehicle} at {at}"),
                (None, None) => who,
            }
        }
        EventKind::Movement if section == "Forces acting whilst rationed" && out(e, "fuel").is_some() => {
            let score = count(out(e, "score"));
            if out(e, "fuel").and_then(Value::as_str) == Some("out_of_fuel") {
                format!("{who} throws for its petrol ({dice}): {score}, under 5, out of petrol (light damage)")
            } else {
                format!("{who} throws for its petrol ({dice}): {score}, it runs on")
            }
        }
        EventKind::Movement if section == "Boats" => {
            let at = out(e, "at").and_then(point).unwrap_or_default();
            match (out(e, "afloat").and_then(Value::as_bool), input(e, "boats").and_then(Value::as_u64)) {
                (Some(true), n) => {
                    let craft = text(input(e, "craft")).to_lowercase().replace('_', " ");
                    let boats = match n {
                        Some(1) | None => format!("its {craft}"),
                        Some(n) => format!("its {n} {craft}s"),
                    };
                    format!("{who} gets into {boats} at {at} and pushes off")
                }
                _ => format!("{who} reaches the bank and gets out of its boats at {at}"),
            }
        }
        EventKind::Explosives if out(e, "state").and_then(Value::as_str) == Some("set") => {
            let kind = text(input(e, "charge")).to_lowercase().replace('_', " ");
            let on = out(e, "target").and_then(Value::as_str).unwrap_or("the target");
            let when = match out(e, "goes_off") {
                Some(Value::Object(m)) => match m.get("after_bounds").and_then(Value::as_u64) {
                    Some(1) => "to go off after 1 bound".to_owned(),
                    Some(n) => format!("to go off after {n} bounds"),
                    None => String::new(),
                },
                Some(Value::String(w)) if w == "now" => "to go off now".to_owned(),
                Some(Value::String(w)) => w.clone(),
                _ => String::new(),
            };
            format!("{who} sets a {kind} charge on the {on}, {when}")
        }
        EventKind::Explosives if out(e, "state").and_then(Value::as_str) == Some("gap") => {
            let what = out(e, "in").and_then(Value::as_str).unwrap_or("wire");
            let at = out(e, "at").and_then(point).unwrap_or_default();
            format!("{who} blows a gap 1 figure wide in the {what} at {at} with a Bangalore Torpedo")
        }
        EventKind::Engineering if section == "Bridge-laying or fascine-laying tanks" => {
            match out(e, "accumulated").and_then(Value::as_u64) {
                Some(n) if out(e, "laid").and_then(Value::as_bool) == Some(true) => {
                    format!("{who} works at laying its bridge ({dice}): {n} of 6, laid")
                }
                Some(n) => format!("{who} works at laying its bridge ({dice}): {n} of 6"),
                None => "The bridge is laid across the water".to_owned(),
            }
        }
        EventKind::Engineering if section == "Repairing roads and bridges" => {
            let mended = out(e, "repaired").and_then(Value::as_u64).unwrap_or_default();
            let carried = out(e, "carried").and_then(Value::as_u64).unwrap_or_default();
            format!("{who} mends the bridge ({dice}): {mended} point(s) of damage mended, {carried} towards the next")
        }
        EventKind::HeEffect if section == "Setting fire to buildings" => {
            match out(e, "burning").and_then(Value::as_bool) {
                Some(true) => format!("The fire {who} set takes hold ({dice}): the building burns for 3 bounds"),
                Some(false) => format!("The fire {who} set does not take hold ({dice})"),
                None => format!("{who} sets a fire in the building it holds: it takes hold next bound on 2+"),
            }
        }
        EventKind::BattleEnd => {
            let how = text(out(e, "decided_by")).to_lowercase();
            match out(e, "winner").and_then(Value::as_str) {
                Some(w) => format!("The battle ends: {} wins ({how})", name_of(w, names)),
                None => format!("The battle ends undecided ({how})"),
            }
        }
        _ if campaign(e, &who, target.as_deref(), &dice).is_some() => {
            campaign(e, &who, target.as_deref(), &dice).unwrap_or_default()
        }
        _ => {
            // A campaign's weather thrown ahead (FYOW 25.4) names the day it forecasts.
            let mut s = match input(e, "forecast_for") {
                Some(day) => format!("The forecast for {}", raw(Some(day))),
                None => who,
            };
            if let Some(t) = target.filter(|t| !s.is_empty() && t != &s) {
                s.push_str(&format!(" and {t}"));
            }
            if !dice.is_empty() {
                s.push_str(&format!(" ({dice})"));
            }
            let outcome = value_words(&e.outcome, names);
            if !outcome.is_empty() && e.outcome != Value::Null {
                if !s.is_empty() {
                    s.push_str(": ");
                }
                s.push_str(&outcome);
            }
            s
        }
    }
}

/// A value as it was written (a force's or a board's name).
/// A noun with "a" or "an" before it, by its first letter.
fn with_article(noun: &str) -> String {
    let vowel = noun.chars().next().is_some_and(|c| "AEIOUaeiou".contains(c));
    format!("{} {noun}", if vowel { "an" } else { "a" })
}

fn raw(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(v) => value_words(v, &|_: &str| None),
        None => String::new(),
    }
}

/// The campaign's commonest events (FYOW) as a player says them; `None`
/// for one said in the general form.
fn campaign(e: &RuleEvent, who: &str, target: Option<&str>, dice: &str) -> Option<String> {
    if e.rule.book != crate::event::Book::FightYourOwnWars {
        return None;
    }
    let section = e.rule.section.as_str();
    let thrown = if dice.is_empty() { String::new() } else { format!(" ({dice})") };
    let yes = |name: &str| out(e, name).and_then(Value::as_bool) == Some(true);
    let said = match section {
        "1 The Campaign day" if out(e, "ended").is_some() => {
            let winner = out(e, "winner").and_then(Value::as_str).map_or("nobody".to_owned(), str::to_owned);
            format!("The campaign ends, {}: {winner} wins", raw(out(e, "ended")))
        }
        "1 The Campaign day" if out(e, "days").is_some() => {
            format!("{} begins on {}: {} days", raw(input(e, "campaign")), raw(out(e, "date")), count(out(e, "days")))
        }
        "1 The Campaign day" => {
            let light = raw(out(e, "light")).to_lowercase();
            let new_day = out(e, "crossed").and_then(|c| c.get("new_day")).and_then(Value::as_bool) == Some(true);
            let what = if new_day { "A new day" } else { "A new session" };
            format!("{what}: {}, {light}", raw(out(e, "date")))
        }
        s if s.starts_with("4.5 ") => {
            let order: Vec<String> = out(e, "order")?.as_array()?.iter().map(|v| raw(Some(v))).collect();
            match input(e, "board") {
                Some(sea) => format!(
                    "In the naval engagement on {}, the Battlegroup Priority Cards come up{thrown}: {}",
                    raw(Some(sea)),
                    order.join(", ")
                ),
                None => format!("The Battlegroup Priority Cards come up{thrown}: {}", order.join(", ")),
            }
        }
        "8.4 Character Traits" => format!(
            "{who} is {}, {}",
            raw(out(e, "aggression")).to_lowercase(),
            raw(out(e, "decisiveness")).to_lowercase()
        ),
        "10 Orders" => {
            let on = out(e, "objective").and_then(Value::as_str).map(|b| format!(" on {b}")).unwrap_or_default();
            format!("{who} is ordered to {}{on}", text(out(e, "order")).to_lowercase())
        }
        "11 The Variable Order Rule" => format!("{who} chooses to {}{thrown}", raw(out(e, "chosen"))),
        "14.5 Movement Test" => {
            let (from, to) = (raw(input(e, "from")), raw(input(e, "to")));
            let needed = count(out(e, "needed"));
            let how =
                format!("{}, {needed} needed", if dice.is_empty() { "no throw".to_owned() } else { dice.to_owned() });
            if yes("moved") {
                format!("{who} moves from {from} to {to} ({how})")
            } else {
                format!("{who} stays at {from}, not moving to {to} ({how})")
            }
        }
        "15.5 Battlegroups arriving on a Map Board" => format!("{who} arrives on {}", raw(input(e, "board"))),
        "15.3 Disarray" if out(e, "activations_to_reorganise").is_some() => format!(
            "{who} falls into disarray: {} to reorganise",
            plural(count(out(e, "activations_to_reorganise")), "activation", "activations")
        ),
        "16 Detection Throw - forces arriving" => {
            let sightings = out(e, "sightings")?.as_array()?;
            let seen: Vec<String> = sightings
                .iter()
                .filter(|s| s.get("detected").and_then(Value::as_bool) == Some(true))
                .filter_map(|s| s.get("force").and_then(Value::as_str).map(str::to_owned))
                .collect();
            if seen.is_empty() {
                format!("{who} looks for the enemy{thrown}: none detected")
            } else {
                format!("{who} looks for the enemy{thrown}: detects {}", seen.join(", "))
            }
        }
        "30.5 A railway line can be cut" if yes("cut") => {
            let with = if count(input(e, "large_charges")) > 0 {
                "a large charge"
            } else if count(input(e, "small_charges")) > 0 {
                "small charges"
            } else {
                "partisan explosives"
            };
            format!(
                "{who} cuts the railway line at {} with {with}: no train passes until it is mended",
                raw(input(e, "board"))
            )
        }
        "17.1 Information gathering attempt" if out(e, "seen").is_some() => {
            let seen: Vec<&str> = out(e, "seen")?.as_array()?.iter().filter_map(Value::as_str).collect();
            let learnt =
                if seen.is_empty() { "learns nothing".to_owned() } else { format!("learns {}", seen.join("; ")) };
            let from = input(e, "from").and_then(Value::as_str).unwrap_or("its box");
            format!("{who} watches the enemy on {} from {from}{thrown}: {learnt}", raw(input(e, "board")))
        }
        s if s.starts_with("16.4 ") && input(e, "extra_dice").is_some() => {
            let result = if yes("detected") { "seen" } else { "not seen" };
            format!("{who} looks for {} coming down from the air, with an extra die{thrown}: {result}", target?)
        }
        s if s.starts_with("16.4 ") && out(e, "detected").is_some() => {
            let result = if yes("detected") { "detected" } else { "not detected" };
            format!("{who} looks for {}{thrown}: {result}", target?)
        }
        "20 Logistics" if out(e, "stockpile").is_some() && e.inputs.len() == 1 => {
            format!("{who} draws its first Stockpile{thrown}: {} S", count(out(e, "stockpile")))
        }
        "20.4 Daily Supply Requirements" => format!(
            "{who}, {}, needs {} S and draws {} S: {} S left in its Stockpile",
            raw(out(e, "mode")),
            count(out(e, "need")),
            count(out(e, "drawn")),
            count(out(e, "stockpile"))
        ),
        s if s.starts_with("33.7.3 (ix) Losses Suffered") => format!(
            "{who} loses {} points, {}%{thrown}: its condition is {}",
            count(out(e, "points_lost")),
            count(out(e, "percent")),
            raw(out(e, "condition"))
        ),
        s if s.starts_with("33.10 ") => {
            format!("{who} loses {} by attrition", plural(count(out(e, "points_removed")), "point", "points"))
        }
        "29.2 Guns on boats" => format!("{who} is commissioned{thrown}: {}", vessel_guns(out(e, "mounts")?)),
        "29.4 Supply for boats" => {
            let operates = out(e, "boats")?.as_array()?.first()?.get("operates")?.as_bool()?;
            if operates {
                format!("{who} is ready for sea{thrown}")
            } else {
                format!("{who} is not serviceable today and stays in harbour{thrown}")
            }
        }
        "29.5 Boats shown on the campaign map" => {
            format!(
                "{who} sails from {} and takes station on {} for the day",
                raw(input(e, "from")),
                raw(out(e, "placed_on"))
            )
        }
        "29.17 Playing a naval engagement" if yes("begins") => {
            let names = |k: &str| -> String {
                let v: Vec<String> =
                    out(e, k).and_then(Value::as_array).into_iter().flatten().map(|v| raw(Some(v))).collect();
                v.join(" and ")
            };
            let boxes = [
                ("left_box", "in the Left Box"),
                ("right_box", "in the Right Box"),
                ("coastal_area", "in the Coastal Area"),
            ];
            let placed: Vec<String> = boxes
                .iter()
                .map(|(k, place)| (names(k), place))
                .filter(|(n, _)| !n.is_empty())
                .map(|(n, place)| format!("{n} {place}"))
                .collect();
            format!("A naval engagement begins on {}: {}", raw(input(e, "board")), placed.join(", "))
        }
        "29.17 Playing a naval engagement" => match raw(out(e, "station")).as_str() {
            "combat_area" => format!("{who} moves into the Combat Area"),
            _ => format!("{who} withdraws to her Box, losing sight of the enemy"),
        },
        "29.9 Spotting targets" => {
            let results = out(e, "results")?.as_array()?;
            let seen: Vec<String> = results
                .iter()
                .filter(|r| r.get("spotted").and_then(Value::as_bool) == Some(true))
                .map(|r| raw(r.get("id")))
                .collect();
            let looked: Vec<String> = results.iter().map(|r| raw(r.get("id"))).collect();
            let found =
                if seen.is_empty() { "sees nothing".to_owned() } else { format!("spots {}", seen.join(" and ")) };
            format!("{who} looks for {}{thrown}: {found}", looked.join(" and "))
        }
        "29.8 Fire power of boats" => {
            let weapon = match raw(input(e, "weapon")).as_str() {
                "torpedoes" => "torpedoes",
                "depth_charges" => "depth charges",
                "gun75mm" => "75mm guns",
                "gun149mm" => "149mm guns",
                _ => "heavy guns",
            };
            let again = if yes("follow_up") { ", firing again at the same target" } else { "" };
            let whose = if input(e, "firer").is_some() { "its" } else { "her" };
            format!("{who} engages {} with {whose} {weapon}{again}", target?)
        }
        "29.10.2 Submarine vs ship firing" | "29.10.3 Ship vs Ship/submarine firing" => {
            let verb = match raw(input(e, "weapon")).as_str() {
                "torpedoes" => "fires torpedoes at",
                "depth_charges" => "drops depth charges on",
                _ => "fires on",
            };
            let sinks = if yes("sunk") { ": she sinks" } else { "" };
            format!(
                "{who} {verb} {}{thrown}: {}, {} of damage{sinks}",
                target?,
                plural(hits(e), "hit", "hits"),
                plural(count(out(e, "effect")), "point", "points")
            )
        }
        "29.10.1 Coastal gun battery counter-fire" => format!(
            "{who} fires on {}{thrown}: {}, {} of damage{}",
            target?,
            plural(hits(e), "hit", "hits"),
            plural(count(out(e, "effect")), "point", "points"),
            if yes("sunk") { ": she sinks" } else { "" }
        ),
        "29.10.4 Ships firing on shore based targets" => format!(
            "{who} shells {} on {}{thrown}: {}, {} lost",
            target?,
            raw(input(e, "board")),
            plural(hits(e), "hit", "hits"),
            plural(count(input(e, "points_lost")), "point", "points")
        ),
        "5.2 \"Surprise\" Events" => format!(
            "{who}'s decision, \"{}\", goes into the Diary Box with two blank cards{thrown}: it comes up on {}",
            raw(input(e, "decision")),
            raw(out(e, "day"))
        ),
        "5 Event Timings" if out(e, "card").is_some() => {
            format!("A Diary Box card comes up for {who}: {}", raw(out(e, "card")))
        }
        "28.8 Aircraft missions" if input(e, "mission").and_then(Value::as_str) == Some("Bombing raid") => format!(
            "{who} flies a bombing raid over {} with {}",
            raw(input(e, "board")),
            plural(count(out(e, "machines")), "machine", "machines")
        ),
        "28.8 Aircraft Missions, Bombing raids" if out(e, "targets").is_some() => {
            format!("{who} finds nothing to bomb on {}", raw(input(e, "board")))
        }
        "28.8 Aircraft Missions, Bombing raids" if out(e, "allocated").is_some() => {
            let numbered: Vec<String> = out(e, "allocated")?
                .as_array()?
                .iter()
                .filter_map(|pair| Some(format!("{} {}", pair.get(0)?.as_str()?, pair.get(1)?.as_u64()?)))
                .collect();
            format!("{who} numbers its targets on {}{thrown}: {}", raw(input(e, "board")), numbered.join(", "))
        }
        "28.8 Aircraft Missions, Bombing raids" if out(e, "hits_on").is_some() => {
            let hits: Vec<String> = out(e, "hits_on")?.as_array()?.iter().map(|n| raw(Some(n))).collect();
            let bombs = plural(count(input(e, "bombs")), "bomb", "bombs");
            if hits.is_empty() {
                format!("{who} drops {bombs}: no double, every bomb misses")
            } else {
                format!("{who} drops {bombs}: doubles on {}", hits.join(", "))
            }
        }
        "28.8 Aircraft Missions, Bombing raids" if input(e, "cut").is_some() => {
            format!("{who} hits the railway line at {}: the line is cut until it is mended", raw(input(e, "board")))
        }
        "28.8 Aircraft Missions, Bombing raids" if out(e, "total").is_some() && target.is_some() => format!(
            "{who}'s bomb hits {}{thrown}: {} of damage",
            target?,
            plural(count(out(e, "total")), "point", "points")
        ),
        "24 Loading or Unloading" | "24.1 Non-Transit Hub load handling" if input(e, "wave").is_some() => {
            let done = if out(e, "done").and_then(Value::as_bool) == Some(true) {
                "the wave is ashore"
            } else {
                "the rest next session"
            };
            format!(
                "{who} unloads wave {} over {}{thrown}: {}, {} of {} handled; {done}",
                count(input(e, "wave")),
                raw(input(e, "beach")),
                plural(count(out(e, "score")), "load space", "load spaces"),
                count(out(e, "accumulated")),
                count(out(e, "need"))
            )
        }
        "14.13 Landings from sea or air" if out(e, "needed").is_some() => {
            let how = match input(e, "landing").and_then(Value::as_str) {
                Some("Shore") => "a shore landing",
                _ => "a beach landing",
            };
            let needed = count(out(e, "needed"));
            if yes("moved") {
                format!("{who} comes ashore, {how}{thrown}: {} against {needed}", count(out(e, "total")))
            } else {
                format!("{who} cannot come ashore, {how}{thrown}: {} against {needed}", count(out(e, "total")))
            }
        }
        "28.4 Air Command decision to fly" if input(e, "columns").is_some() => {
            let columns = raw(input(e, "columns"));
            let load = if columns.contains("Paratroops") {
                "with paratroops aboard"
            } else if columns.contains("Gliders") {
                "with gliders in tow"
            } else {
                "on its mission"
            };
            let face = count(input(e, "face"));
            if yes("permitted") {
                format!("{who} takes off {load}: the day's throw of {face} allows it")
            } else {
                format!("{who} cannot take off {load}: the day's throw of {face} is too low")
            }
        }
        "28.8 Aircraft Missions, Transport Missions" if input(e, "mission").is_some() => format!(
            "{who} flies {} to {} with {}",
            raw(input(e, "supporting")),
            raw(input(e, "board")),
            plural(count(out(e, "machines")), "machine", "machines")
        ),
        "28.8 Aircraft missions" if input(e, "mission").is_some() && input(e, "board").is_some() => format!(
            "{who} flies {} mission over {} with {}",
            with_article(&raw(input(e, "mission"))),
            raw(input(e, "board")),
            plural(count(out(e, "machines")), "machine", "machines")
        ),
        "28.8 Aircraft Missions, Transport Missions" if input(e, "carriers").is_some() => {
            let lost: Vec<String> = out(e, "lost")?
                .as_array()?
                .iter()
                .filter_map(|l| {
                    let p = l.get("paratroops")?;
                    Some(format!("{} points of {}", p.get("points")?.as_u64()?, p.get("element")?.as_str()?))
                })
                .collect();
            format!(
                "{who} loses {} with {} of its {} shot down",
                lost.join(", "),
                count(input(e, "carriers_shot_down")),
                plural(count(input(e, "carriers")), "carrier", "carriers")
            )
        }
        "28.13 Parachutists and glider landings" if out(e, "pct_lost").is_some() => {
            let whose = target.map_or_else(String::new, |t| format!(" of {t}"));
            let lost = count(out(e, "pct_lost"));
            let result = if lost == 0 {
                "no double, it lands whole".to_owned()
            } else {
                format!("a double, {lost}% of it lost: {}", plural(count(out(e, "points_lost")), "point", "points"))
            };
            format!("{who}{whose} jumps over {}{thrown}: {result}", raw(input(e, "board")))
        }
        "28.13 Parachutists and glider landings" if yes("occupies") => {
            format!("{who} comes down on {} and holds it at once, without entering its box", raw(input(e, "board")))
        }
        "29.16 Landing at coves" if input(e, "boat").is_some() => {
            let wind = raw(input(e, "wind")).to_lowercase();
            let wind = if wind == "calm" { "on a calm sea, no throw".to_owned() } else { format!("in {wind} winds") };
            let crew = if input(e, "enhanced_crew").and_then(Value::as_bool) == Some(true) {
                ", +2 for its trained crew"
            } else {
                ""
            };
            let result = if yes("sunk") { "swamped, its men are lost" } else { "it lands" };
            let dice = if dice.is_empty() { String::new() } else { format!(" ({dice}{crew})") };
            format!(
                "{who}'s rubber boat {} of wave {} runs in to the cove {wind}{dice}: {result}",
                raw(input(e, "boat")),
                count(input(e, "wave"))
            )
        }
        "29.16 Landing at coves" if input(e, "sunk").is_some() => {
            let lost: Vec<String> = out(e, "elements")?
                .as_array()?
                .iter()
                .filter_map(|l| Some(format!("{} {} points", l.get("element")?.as_str()?, l.get("points")?.as_u64()?)))
                .collect();
            format!(
                "{who} loses {} of {} to the sea: {}, booked for replenishment",
                count(input(e, "sunk")),
                plural(count(input(e, "boats")), "rubber boat", "rubber boats"),
                lost.join(", ")
            )
        }
        "15.4 Concealment on a Map Board" if out(e, "concealed").is_some() => {
            let hidden: Vec<String> =
                out(e, "concealed")?.as_array()?.iter().filter_map(Value::as_str).map(str::to_owned).collect();
            let elements = plural(count(input(e, "elements")), "element throws", "elements throw");
            if hidden.is_empty() {
                format!("{who} tries to hide on its board, {elements} a D10{thrown}: no 6+, nothing is hidden")
            } else {
                format!("{who} tries to hide on its board, {elements} a D10{thrown}: {} hidden", hidden.join(", "))
            }
        }
        "28.9 Aircraft firing, AT/Rocket fire" if out(e, "hits").is_some() => {
            let weapons = input(e, "weapons").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
            let rockets = weapons.iter().filter(|w| w.as_str() == Some("rocket")).count() as i64;
            let guns = weapons.len() as i64 - rockets;
            let fired = armour_weapons(guns, rockets);
            let hit = out(e, "hits").and_then(Value::as_array).map_or(0, Vec::len) as i64;
            let open = if input(e, "open_topped").and_then(Value::as_bool) == Some(true) {
                " open-topped"
            } else {
                "n armoured"
            };
            let result = if hit == 0 { "no hit, 5+ needed".to_owned() } else { plural(hit, "hit", "hits") };
            format!("{who} fires {fired} at a{open} vehicle of {}{thrown}: {result}", target?)
        }
        "28.9 Aircraft firing, AT/Rocket fire" if out(e, "elements").is_some() => {
            let lost: Vec<String> = out(e, "elements")?
                .as_array()?
                .iter()
                .filter_map(|x| {
                    let (b, d) = (x.get("brewed")?.as_i64()?, x.get("damaged")?.as_i64()?);
                    let what = match (b, d) {
                        (0, d) => plural(d, "vehicle damaged", "vehicles damaged"),
                        (b, 0) => plural(b, "vehicle brewed", "vehicles brewed"),
                        (b, d) => format!("{} brewed and {d} damaged", plural(b, "vehicle", "vehicles")),
                    };
                    let points = plural(x.get("points")?.as_i64()?, "point", "points");
                    Some(format!("{} {what} ({points})", x.get("element")?.as_str()?))
                })
                .collect();
            format!("{who}'s strike on {}'s armour: {}", target?, lost.join("; "))
        }
        "28.6 Flight Time" if input(e, "board").is_some() => format!(
            "{who} has the Flight Time to stay over {} for {}",
            raw(input(e, "board")),
            plural(count(out(e, "sessions")), "session", "sessions")
        ),
        "34.4 Recruiting members" if out(e, "new_cell").is_some() => format!(
            "A new resistance cell, {}, forms with {}{thrown}",
            raw(out(e, "new_cell")),
            plural(count(out(e, "members")), "member", "members")
        ),
        "34.4 Recruiting members" if out(e, "recruits").is_some() => match count(out(e, "recruits")) {
            0 => format!("{who} seeks recruits{thrown}: no double, it stays {} strong", count(out(e, "members"))),
            n => format!(
                "{who} seeks recruits{thrown}: {} join, {} in all",
                plural(n, "recruit", "recruits"),
                count(out(e, "members"))
            ),
        },
        "34.5 Supplies for resistance" if out(e, "gained").is_some() => {
            let held = match count(out(e, "explosives")) {
                0 => "none".to_owned(),
                n => plural(n, "unit", "units"),
            };
            if yes("gained") {
                format!("{who} seeks explosives{thrown}: a double, it now holds {held}")
            } else {
                format!("{who} seeks explosives{thrown}: no double, it holds {held}")
            }
        }
        "34.6 Radios" if out(e, "radio").is_some() => {
            if yes("radio") {
                format!("{who} seeks a radio{thrown}: a double, the cell has a radio")
            } else {
                format!("{who} seeks a radio{thrown}: no double, still no radio")
            }
        }
        "34.12 Partisan communications" if out(e, "connected").is_some() => {
            if !yes("connected") {
                format!("{who} calls its liberators by radio{thrown}: no connection this week")
            } else if out(e, "transmitted").is_some_and(|t| !t.is_null()) {
                format!("{who} calls its liberators by radio{thrown}: the report gets through")
            } else {
                format!("{who} calls its liberators by radio{thrown}: connected, but the report is not picked up")
            }
        }
        "34.13 Enemy listening units" if out(e, "intercepted").is_some() => {
            let score = count(input(e, "score"));
            if yes("intercepted") {
                format!("The enemy's listening units, needing {score} or less{thrown}, pinpoint the partisans' radio")
            } else {
                format!(
                    "The enemy's listening units, needing {score} or less{thrown}, do not find the partisans' radio"
                )
            }
        }
        "34.11 Partisans in battle" if out(e, "joins").is_some() => format!(
            "{who}, {} strong, fights beside {} on {}",
            plural(count(input(e, "members")), "partisan", "partisans"),
            raw(out(e, "joins")),
            raw(input(e, "board"))
        ),
        "34.11 Partisans in battle" if out(e, "members_lost").is_some() => {
            let lost = plural(count(out(e, "members_lost")), "member", "members");
            let left = count(out(e, "members"));
            let share = match input(e, "share") {
                Some(points) => format!(
                    "shares its side's losses, {} of {}",
                    raw(Some(points)),
                    plural(count(input(e, "side_loss")), "point", "points")
                ),
                None => "comes through the battle on the table".to_owned(),
            };
            if left == 0 {
                format!("{who} {share}: {lost} lost, and the cell is wiped out")
            } else {
                format!("{who} {share}: {lost} lost, {left} left")
            }
        }
        "34.11 Partisans in battle" if out(e, "home").is_some() => {
            format!("{who} goes back to its hideout: its side holds the board")
        }
        "34.11 Partisans in battle" if out(e, "cancelled").is_some() => {
            format!("{who} is not free to act after its battle: its mission this month is called off")
        }
        "34.11 Partisans in battle" if input(e, "retreat").is_some() => match raw(input(e, "retreat")).as_str() {
            "GoodOrder" => {
                format!("{who} retreats in good order with its side and stands down for the rest of the month")
            }
            _ => format!("{who} retreats in disarray with its side and is dispersed"),
        },
        "34.11 Retreat in Disarray" => match e.outcome.as_str() {
            Some("Dispersed") => format!("{who} throws 5D6 to gather again{thrown}: no double, it stays dispersed"),
            Some("StoodDown") => {
                format!(
                    "{who} throws 5D6 to gather again{thrown}: a double, it gathers but stands down for the rest of the month"
                )
            }
            _ => format!("{who} throws 5D6 to gather again{thrown}: a double, it is free to act"),
        },
        "28.10 Anti-Aircraft fire" if out(e, "hits").is_some() => {
            let over = input(e, "board").map_or(String::new(), |b| format!(" over {}", raw(Some(b))));
            format!(
                "{who}'s AA fires at {}{over}{thrown}: {}, {} of damage",
                target?,
                plural(count(out(e, "hits")), "hit", "hits"),
                plural(count(out(e, "damage")), "point", "points")
            )
        }
        "29.10.5 Ships vs aircraft" if out(e, "shots").is_some() => {
            format!("{who}'s AA fires at {}{thrown}: {}", target?, plural(hits(e), "hit", "hits"))
        }
        "29.10.6 Aircraft vs ships" => {
            let sinks = if yes("sunk") { ": she sinks" } else { "" };
            format!(
                "{who} attacks {}{thrown}: {}, {} of damage{sinks}",
                target?,
                plural(hits(e), "hit", "hits"),
                plural(count(out(e, "effect")), "point", "points")
            )
        }
        "29.11 Strategic Condition of naval Battlegroups" => {
            let retires = if yes("retires") { ": she retires" } else { "" };
            format!("{who}'s damage is assessed{thrown}: Strategic Condition {}{retires}", count(out(e, "condition")))
        }
        "29.12 Rallying Strategic Condition" => {
            format!("{who} rallies in the Dockyard{thrown}: Strategic Condition {}", count(out(e, "condition")))
        }
        "29.15 Repairs to damage on boats" => format!(
            "The Dockyard repairs {who}{thrown}: {} mended, {} left",
            plural(count(out(e, "repaired")), "point", "points"),
            count(out(e, "damage"))
        ),
        "2.7 Merging Battlegroups together" => format!(
            "{} merges {} into {who}: {} points, Stockpile {}S",
            raw(input(e, "by")),
            target?,
            count(out(e, "points")),
            count(out(e, "stockpile"))
        ),
        "3.4 Creating a fraction" if out(e, "garrison").is_some() => {
            format!("{who} leaves {} to garrison {}, under Defend orders", target?, raw(out(e, "garrison")))
        }
        "3.4 Creating a fraction" if out(e, "fraction").is_some() => {
            format!(
                "{who} splits off the Fraction {}, led by the {}",
                raw(out(e, "fraction")),
                raw(out(e, "commander"))
            )
        }
        "3.8 Pickets" if out(e, "post").is_some() => {
            format!("{who} sends {} as a picket to {}", target?, raw(out(e, "post")))
        }
        "3.8 Pickets" if out(e, "called_in").is_some() => format!(
            "{who} calls its picket {} back in ({}): {} points",
            target?,
            raw(input(e, "why")),
            count(out(e, "points"))
        ),
        "3.8 Pickets" if out(e, "fraction").is_some() => {
            format!("{who}, cut off from its battlegroup, declares itself a Fraction and makes its way back")
        }
        "3.7 Merging Fractions" => {
            let absorbed: Vec<&str> = out(e, "bpcs_removed")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            format!(
                "{who} merges {} into its Fraction {}, led by the {}: {} points, Stockpile {}S",
                absorbed.join(" and "),
                raw(out(e, "fraction")),
                raw(out(e, "commander")),
                count(input(e, "points")),
                count(out(e, "stockpile"))
            )
        }
        "3.7 Ending a fraction" => {
            format!("{who} takes its Fraction {} back into its ranks: {} points", target?, count(out(e, "points")))
        }
        "10.7 Composite Orders" => match out(e, "void") {
            Some(v) => format!("{who}'s \"if\" is read: void, {}", raw(Some(v))),
            None => {
                let on = out(e, "objective").and_then(Value::as_str).map(|b| format!(" on {b}")).unwrap_or_default();
                let holds = if yes("condition_holds") { "it holds" } else { "it does not hold" };
                format!("{who}'s \"if\" is read, {holds}: {}{on}", text(out(e, "order")).to_lowercase())
            }
        },
        _ => return None,
    };
    Some(said)
}

/// The hits of a naval firing's shots.
fn hits(e: &RuleEvent) -> i64 {
    out(e, "shots")
        .and_then(Value::as_array)
        .map_or(0, |shots| shots.iter().filter(|s| s.get("hit").and_then(Value::as_bool) == Some(true)).count() as i64)
}

/// A vessel's guns as commissioned: "6 75mm guns, 2 20mm AA guns".
fn vessel_guns(mounts: &Value) -> String {
    let said: Vec<String> = mounts
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| {
            let n = m.get("count")?.as_i64()?;
            let what = match m.get("weapon")?.as_str()? {
                "gun149mm" => ("149mm gun", "149mm guns"),
                "gun150mm_plus" => ("gun of 150mm or more", "guns of 150mm or more"),
                "gun75mm" => ("75mm gun", "75mm guns"),
                "aa20mm" => ("20mm AA gun", "20mm AA guns"),
                "depth_charges" => ("depth charge", "depth charges"),
                "torpedoes" => ("torpedo", "torpedoes"),
                _ => return None,
            };
            (n > 0).then(|| plural(n, what.0, what.1))
        })
        .collect();
    said.join(", ")
}

/// Who an event's actor is: its name; the Senior Officer by his side.
fn subject(id: &str, e: &RuleEvent, names: Names) -> String {
    match (id, &e.side) {
        ("SO", Some(side)) => format!("The Senior Officer of {side}"),
        ("SO", None) => "The Senior Officer".to_owned(),
        _ => name_of(id, names),
    }
}

/// "5+" from the event's `needed` input, else its modifier.
fn needs(e: &RuleEvent) -> String {
    match input(e, "needed").and_then(Value::as_f64) {
        Some(n) => format!("{}+", number(n)),
        None => "thrown".to_owned(),
    }
}

/// A command in words: "Sappers: move to (36″, 17″)".
fn command(e: &RuleEvent, who: &str, names: Names) -> String {
    let Some(c) = input(e, "command") else { return who.to_owned() };
    let (verb, args) = match c {
        Value::Object(m) if m.len() == 1 => {
            let (k, v) = m.iter().next().expect("one entry");
            (k.as_str(), v.clone())
        }
        Value::String(s) => (s.as_str(), Value::Null),
        _ => ("command", Value::Null),
    };
    let verb = match verb {
        "end_turn" => "ends its turn".to_owned(),
        "runner" => "sends a runner".to_owned(),
        "set_fire" => "sets fire to the building it stands in".to_owned(),
        "repair" => "mends the bridge".to_owned(),
        "re_face" => "re-faces the guard".to_owned(),
        "bangalore" => "fires a Bangalore Torpedo".to_owned(),
        "embark" => "gets into".to_owned(),
        // The Player's stop after the Movement Dice: "moves on to (x, y)".
        "move_to" => "moves on".to_owned(),
        "disembark" => "gets out of its transport".to_owned(),
        "launch" => "gets into its boats, heading".to_owned(),
        v => words(v),
    };
    let mut said = format!("{who}: {verb}");
    if let Value::Object(m) = &args {
        for (k, v) in m {
            let value = value_in(v, names);
            match k.as_str() {
                "element" if value == who || v.as_str().is_some_and(|s| name_of(s, names) == who) => {}
                "to" | "at" => said.push_str(&format!(" {k} {value}")),
                "target" | "squadron" if verb.starts_with("fire") => said.push_str(&format!(" at {value}")),
                "target" | "targets" | "enemy" | "squadron" => said.push_str(&format!(" {value}")),
                "transport" => said.push_str(&format!(" {}", name_of(v.as_str().unwrap_or_default(), names))),
                _ => said.push_str(&format!(", {} {value}", words(k))),
            }
        }
    }
    match out(e, "accepted").and_then(Value::as_bool) {
        Some(false) => {
            let why = out(e, "reason").or_else(|| out(e, "refused")).map(|r| value_in(r, names)).unwrap_or_default();
            if why.is_empty() { format!("{said}: refused") } else { format!("{said}: refused, {why}") }
        }
        _ => said,
    }
}

/// The event as one sentence with its rule: "13 Platoon, Order Die 3: Act
/// (FYOB, Order Dice)".
pub fn sentence(e: &RuleEvent, names: Names) -> String {
    let said = said(e, names);
    let rule = format!("({}, {})", e.rule.book.abbrev(), e.rule.section);
    if said.is_empty() { rule } else { format!("{said} {rule}") }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::dice::Thrown;
    use crate::event::{Book, RuleRef};

    fn named(id: &str) -> Option<String> {
        match id {
            "13_platoon" => Some("13 Platoon".to_owned()),
            "wache" => Some("the guard house".to_owned()),
            _ => None,
        }
    }

    fn event(kind: EventKind, book: Book, section: &str) -> RuleEvent {
        RuleEvent::new(kind, RuleRef::new(book, section))
    }

    #[test]
    fn a_fire_set_and_taking_hold_read_as_sentences() {
        let set = event(EventKind::HeEffect, Book::HeroesAll, "Setting fire to buildings")
            .actor("13_platoon")
            .outcome(json!({ "fire_set": true }));
        assert_eq!(
            sentence(&set, &named),
            "13 Platoon sets a fire in the building it holds: it takes hold next bound on 2+ (HA, Setting fire to buildings)"
        );
        let mut house = crate::buildings::Building::new(crate::buildings::Structure::House);
        let (_, held) = house.fire_takes_hold(&mut crate::dice::Scripted::new([2]), "13_platoon").unwrap();
        assert_eq!(
            sentence(&held, &named),
            "The fire 13 Platoon set takes hold (d6 2): the building burns for 3 bounds (HA, Setting fire to buildings)"
        );
    }

    #[test]
    fn concealment_on_a_map_board_reads_who_hid() {
        let hide = |hidden: Vec<&str>| {
            event(EventKind::Detection, Book::FightYourOwnWars, "15.4 Concealment on a Map Board")
                .actor("No. 3 Commando")
                .input("elements", 2, "")
                .outcome(json!({ "concealed": hidden }))
        };
        assert_eq!(
            sentence(&hide(vec!["1 Troop"]), &named),
            "No. 3 Commando tries to hide on its board, 2 elements throw a D10: 1 Troop hidden (FYOW, 15.4 Concealment on a Map Board)"
        );
        assert!(sentence(&hide(vec![]), &named).contains("no 6+, nothing is hidden"));
    }

    #[test]
    fn a_parachute_drop_reads_its_take_off_its_losses_and_its_landing() {
        let paras = "C Company, 2nd Parachute Battalion";
        let whitleys = "No. 51 Squadron RAF (Whitley V)";
        let fyow = |kind, section: &str| event(kind, Book::FightYourOwnWars, section);
        let take_off = |permitted: bool| {
            fyow(EventKind::AirOperation, "28.4 Air Command decision to fly")
                .actor(whitleys)
                .input("face", 2, "")
                .input("columns", json!(["Aircraft", "Paratroops"]), "")
                .outcome(json!({ "permitted": permitted }))
        };
        assert!(
            sentence(&take_off(true), &named)
                .starts_with(&format!("{whitleys} takes off with paratroops aboard: the day's throw of 2 allows it"))
        );
        assert!(sentence(&take_off(false), &named).contains("cannot take off with paratroops aboard"));
        let flown = fyow(EventKind::AirOperation, "28.8 Aircraft Missions, Transport Missions")
            .actor(whitleys)
            .input("mission", "Transport", "")
            .input("board", "Forest", "")
            .input("supporting", paras, "")
            .outcome(json!({ "machines": 12 }));
        assert!(sentence(&flown, &named).starts_with(&format!("{whitleys} flies {paras} to Forest with 12 machines")));
        let escort = fyow(EventKind::AirOperation, "28.8 Aircraft missions")
            .actor("No. 234 Squadron RAF (Spitfire VB)")
            .input("mission", "Escort", "")
            .input("board", "Forest", "")
            .outcome(json!({ "machines": 1 }));
        assert!(sentence(&escort, &named).contains("flies an Escort mission over Forest with 1 machine "));
        let shot_down = fyow(EventKind::AirOperation, "28.8 Aircraft Missions, Transport Missions")
            .actor(paras)
            .target(whitleys)
            .input("carriers_shot_down", 1, "")
            .input("carriers", 4, "")
            .outcome(json!({ "lost": [{ "paratroops": { "element": "7 Platoon", "points": 20 } }] }));
        assert!(
            sentence(&shot_down, &named)
                .starts_with(&format!("{paras} loses 20 points of 7 Platoon with 1 of its 4 carriers shot down"))
        );
        let jump = |faces: &[u8], pct: u32, lost: u32| {
            fyow(EventKind::AirOperation, "28.13 Parachutists and glider landings")
                .actor("8 Platoon")
                .target(paras)
                .input("board", "Forest", "")
                .dice(6, faces)
                .outcome(json!({ "pct_lost": pct, "points_lost": lost }))
        };
        assert_eq!(
            sentence(&jump(&[3, 3], 25, 18), &named),
            format!(
                "8 Platoon of {paras} jumps over Forest (d6 3 3): a double, 25% of it lost: 18 points (FYOW, 28.13 \
                 Parachutists and glider landings)"
            )
        );
        assert!(sentence(&jump(&[1, 4], 0, 0), &named).contains("no double, it lands whole"));
        let held = fyow(EventKind::MapMovement, "28.13 Parachutists and glider landings")
            .actor(paras)
            .input("board", "Forest", "")
            .outcome(json!({ "occupies": true, "box": false }));
        assert!(sentence(&held, &named).starts_with(&format!("{paras} comes down on Forest and holds it at once")));
        let seen = fyow(EventKind::Detection, "16.4 Detection Throw - the forces in occupation")
            .actor("III./IR 582")
            .target(paras)
            .input("extra_dice", 1, "")
            .dice(6, &[2, 5])
            .outcome(json!({ "detected": true }));
        assert!(sentence(&seen, &named).contains("coming down from the air, with an extra die"));
    }

    #[test]
    fn a_covert_landing_reads_its_shore_landing_and_its_boats() {
        let raid = "5 and 6 Troops, No. 3 Commando";
        let landed = event(EventKind::MapMovement, Book::FightYourOwnWars, "14.13 Landings from sea or air")
            .actor(raid)
            .input("landing", "Shore", "")
            .dice(10, &[4])
            .outcome(json!({ "moved": true, "total": 6, "needed": 5 }));
        assert_eq!(
            sentence(&landed, &named),
            format!("{raid} comes ashore, a shore landing (d10 4): 6 against 5 (FYOW, 14.13 Landings from sea or air)")
        );
        let boat = |wind: &str, faces: &[u8], sunk: bool| {
            event(EventKind::Naval, Book::FightYourOwnWars, "29.16 Landing at coves")
                .actor(raid)
                .input("wind", wind, "")
                .input("enhanced_crew", true, "")
                .input("boat", "2 of 5", "")
                .input("wave", 1, "")
                .dice(6, faces)
                .outcome(json!({ "sunk": sunk }))
        };
        assert_eq!(
            sentence(&boat("High", &[3], true), &named),
            format!(
                "{raid}'s rubber boat 2 of 5 of wave 1 runs in to the cove in high winds (d6 3, +2 for its trained crew): \
                 swamped, its men are lost (FYOW, 29.16 Landing at coves)"
            )
        );
        let calm = sentence(&boat("Calm", &[], false), &named);
        assert!(calm.contains("runs in to the cove on a calm sea, no throw: it lands"), "{calm}");
        let lost = event(EventKind::Naval, Book::FightYourOwnWars, "29.16 Landing at coves")
            .actor(raid)
            .input("sunk", 2, "")
            .input("boats", 5, "")
            .outcome(json!({ "elements": [{ "element": "5 Troop", "points": 34 }] }));
        assert_eq!(
            sentence(&lost, &named),
            format!(
                "{raid} loses 2 of 5 rubber boats to the sea: 5 Troop 34 points, booked for replenishment (FYOW, \
                 29.16 Landing at coves)"
            )
        );
    }

    #[test]
    fn rockets_at_armour_read_what_they_fired_and_what_they_did() {
        let mut dice = crate::dice::Scripted::new([7]);
        let (_, _, hit) = crate::effects::at_hit(
            8,
            crate::effects::ArmourClass::Medium,
            crate::effects::Facing::Side,
            crate::effects::VehicleState::Intact,
            &mut dice,
        );
        let hit = hit.actor("365th Fighter Group").target("4. Kompanie");
        let said = sentence(&hit, &named);
        assert!(said.starts_with("An AT hit on 4. Kompanie (d10 7, +8 against "), "{said}");
        let fired = event(EventKind::AirOperation, Book::FightYourOwnWars, "28.9 Aircraft firing, AT/Rocket fire")
            .actor("365th Fighter Group")
            .target("4. Kompanie")
            .input("weapons", ["rocket"; 6], "")
            .input("open_topped", false, "")
            .outcome(json!({ "hits": ["rocket", "rocket"] }));
        assert_eq!(
            sentence(&fired, &named),
            "365th Fighter Group fires 6 rockets at an armoured vehicle of 4. Kompanie: 2 hits (FYOW, 28.9 Aircraft firing, AT/Rocket fire)"
        );
        let done = event(EventKind::AirOperation, Book::FightYourOwnWars, "28.9 Aircraft firing, AT/Rocket fire")
            .actor("365th Fighter Group")
            .target("Kampfgruppe Bayer")
            .outcome(json!({ "elements": [
                { "element": "4. Kompanie", "brewed": 1, "damaged": 1, "points": 30 },
                { "element": "1. Kompanie", "brewed": 0, "damaged": 2, "points": 24 },
            ] }));
        assert_eq!(
            sentence(&done, &named),
            "365th Fighter Group's strike on Kampfgruppe Bayer's armour: 4. Kompanie 1 vehicle brewed and 1 damaged (30 points); 1. Kompanie 2 vehicles damaged (24 points) (FYOW, 28.9 Aircraft firing, AT/Rocket fire)"
        );
    }

    #[test]
    fn a_railway_cut_reads_who_cut_it_and_with_what() {
        let e = event(EventKind::Work, Book::FightYourOwnWars, "30.5 A railway line can be cut")
            .actor("No. 3 Commando")
            .input("board", "Vazon Bay", "")
            .input("large_charges", 1, "")
            .input("small_charges", 0, "")
            .input("partisan_sets", 0, "")
            .outcome(json!({ "cut": true }));
        assert_eq!(
            sentence(&e, &named),
            "No. 3 Commando cuts the railway line at Vazon Bay with a large charge: no train passes until it is mended (FYOW, 30.5 A railway line can be cut)"
        );
    }

    #[test]
    fn a_bombing_raid_reads_its_targets_bombs_and_hits() {
        let raid = |section| event(EventKind::AirOperation, Book::FightYourOwnWars, section).actor("No. 175 Squadron");
        let flown = raid("28.8 Aircraft missions")
            .input("mission", "Bombing raid", "")
            .input("board", "Forest", "")
            .outcome(json!({ "machines": 11 }));
        let numbered = raid("28.8 Aircraft Missions, Bombing raids")
            .input("board", "Forest", "")
            .dice(6, &[3, 5])
            .outcome(json!({ "allocated": [["III./IR 582", 3], ["the railway line", 5]] }));
        let dropped =
            raid("28.8 Aircraft Missions, Bombing raids").input("bombs", 22, "").outcome(json!({ "hits_on": [3, 1] }));
        let hit = raid("28.8 Aircraft Missions, Bombing raids")
            .target("III./IR 582")
            .dice(6, &[4])
            .outcome(json!({ "points": [3], "total": 3 }));
        let cut = raid("28.8 Aircraft Missions, Bombing raids")
            .target("the railway line")
            .input("board", "Forest", "")
            .input("cut", true, "")
            .outcome(json!({ "points": [2], "total": 2 }));
        let said: Vec<String> = [flown, numbered, dropped, hit, cut].iter().map(|e| sentence(e, &named)).collect();
        let unload = |score: u32, accumulated: u32, done: bool| {
            event(EventKind::Work, Book::FightYourOwnWars, "24 Loading or Unloading")
                .actor("4th Dorsets")
                .input("wave", 2, "")
                .input("beach", "Cobo Bay", "")
                .dice(10, &[4, 7])
                .dice(6, &[3, 5])
                .outcome(json!({ "score": score, "accumulated": accumulated, "need": 310, "done": done }))
        };
        assert_eq!(
            sentence(&unload(420, 420, true), &named),
            "4th Dorsets unloads wave 2 over Cobo Bay (d10 4 7, d6 3 5): 420 load spaces, 420 of 310 handled; the wave is ashore (FYOW, 24 Loading or Unloading)"
        );
        assert!(sentence(&unload(120, 120, false), &named).contains("120 of 310 handled; the rest next session"));
        let time = event(EventKind::AirOperation, Book::FightYourOwnWars, "28.6 Flight Time")
            .actor("No. 6 Squadron")
            .input("board", "Sidi Omar", "")
            .outcome(json!({ "sessions": 2 }));
        assert_eq!(
            sentence(&time, &named),
            "No. 6 Squadron has the Flight Time to stay over Sidi Omar for 2 sessions (FYOW, 28.6 Flight Time)"
        );
        assert_eq!(
            said,
            [
                "No. 175 Squadron flies a bombing raid over Forest with 11 machines (FYOW, 28.8 Aircraft missions)",
                "No. 175 Squadron numbers its targets on Forest (d6 3 5): III./IR 582 3, the railway line 5 (FYOW, 28.8 Aircraft Missions, Bombing raids)",
                "No. 175 Squadron drops 22 bombs: doubles on 3, 1 (FYOW, 28.8 Aircraft Missions, Bombing raids)",
                "No. 175 Squadron's bomb hits III./IR 582 (d6 4): 3 points of damage (FYOW, 28.8 Aircraft Missions, Bombing raids)",
                "No. 175 Squadron hits the railway line at Forest: the line is cut until it is mended (FYOW, 28.8 Aircraft Missions, Bombing raids)",
            ]
        );
    }

    #[test]
    fn the_partisans_throws_read_as_sentences() {
        let cell = |section| event(EventKind::Partisans, Book::FightYourOwnWars, section).actor("Cell 1");
        let events = [
            event(EventKind::Partisans, Book::FightYourOwnWars, "34.4 Recruiting members")
                .dice(4, &[3, 3, 1])
                .outcome(json!({ "members": 5, "new_cell": "Cell 2" })),
            cell("34.4 Recruiting members").dice(4, &[2, 2, 4]).outcome(json!({ "members": 7, "recruits": 2 })),
            cell("34.4 Recruiting members").dice(4, &[1, 2, 3]).outcome(json!({ "members": 1, "recruits": 0 })),
            cell("34.5 Supplies for resistance")
                .dice(6, &[5, 5, 2])
                .outcome(json!({ "explosives": 1, "gained": true })),
            cell("34.5 Supplies for resistance")
                .dice(6, &[3, 2, 1])
                .outcome(json!({ "explosives": 0, "gained": false })),
            cell("34.6 Radios").dice(6, &[4, 6, 1]).outcome(json!({ "radio": false })),
            cell("34.12 Partisan communications")
                .dice(10, &[7])
                .dice(6, &[3])
                .outcome(json!({ "connected": true, "transmitted": 3 })),
            cell("34.12 Partisan communications")
                .dice(10, &[2])
                .outcome(json!({ "connected": false, "transmitted": null })),
            event(EventKind::Partisans, Book::FightYourOwnWars, "34.13 Enemy listening units")
                .input("score", 3, "")
                .dice(10, &[2])
                .outcome(json!({ "intercepted": true })),
        ];
        let said: Vec<String> = events.iter().map(|e| sentence(e, &named)).collect();
        assert_eq!(
            said,
            [
                "A new resistance cell, Cell 2, forms with 5 members (d4 3 3 1) (FYOW, 34.4 Recruiting members)",
                "Cell 1 seeks recruits (d4 2 2 4): 2 recruits join, 7 in all (FYOW, 34.4 Recruiting members)",
                "Cell 1 seeks recruits (d4 1 2 3): no double, it stays 1 strong (FYOW, 34.4 Recruiting members)",
                "Cell 1 seeks explosives (d6 5 5 2): a double, it now holds 1 unit (FYOW, 34.5 Supplies for resistance)",
                "Cell 1 seeks explosives (d6 3 2 1): no double, it holds none (FYOW, 34.5 Supplies for resistance)",
                "Cell 1 seeks a radio (d6 4 6 1): no double, still no radio (FYOW, 34.6 Radios)",
                "Cell 1 calls its liberators by radio (d10 7, d6 3): the report gets through (FYOW, 34.12 Partisan communications)",
                "Cell 1 calls its liberators by radio (d10 2): no connection this week (FYOW, 34.12 Partisan communications)",
                "The enemy's listening units, needing 3 or less (d10 2), pinpoint the partisans' radio (FYOW, 34.13 Enemy listening units)",
            ]
        );
    }

    #[test]
    fn a_partisan_cell_in_battle_reads_as_sentences() {
        let cell = |section| event(EventKind::Partisans, Book::FightYourOwnWars, section).actor("Cell 2");
        let joins = cell("34.11 Partisans in battle")
            .target("4th Dorsets")
            .input("board", "St Peter Port", "")
            .input("members", 6, "")
            .outcome(json!({ "joins": "4th Dorsets" }));
        let share = cell("34.11 Partisans in battle")
            .input("side_loss", 40, "")
            .input("share", 5, "")
            .outcome(json!({ "members_lost": 2, "members": 4 }));
        let table = cell("34.11 Partisans in battle")
            .input("on_the_table", true, "")
            .outcome(json!({ "members_lost": 4, "members": 0 }));
        let retreat = cell("34.11 Partisans in battle").input("retreat", "Disarray", "").outcome("Dispersed");
        let regather = cell("34.11 Retreat in Disarray").dice(6, &[1, 3, 3, 5, 6]).outcome("StoodDown");
        let said: Vec<String> = [joins, share, table, retreat, regather].iter().map(|e| sentence(e, &named)).collect();
        assert_eq!(
            said,
            [
                "Cell 2, 6 partisans strong, fights beside 4th Dorsets on St Peter Port (FYOW, 34.11 Partisans in battle)",
                "Cell 2 shares its side's losses, 5 of 40 points: 2 members lost, 4 left (FYOW, 34.11 Partisans in battle)",
                "Cell 2 comes through the battle on the table: 4 members lost, and the cell is wiped out (FYOW, 34.11 Partisans in battle)",
                "Cell 2 retreats in disarray with its side and is dispersed (FYOW, 34.11 Partisans in battle)",
                "Cell 2 throws 5D6 to gather again (d6 1 3 3 5 6): a double, it gathers but stands down for the rest of the month (FYOW, 34.11 Retreat in Disarray)",
            ]
        );
    }

    #[test]
    fn an_information_gathering_attempt_reads_what_was_learnt() {
        let e = event(EventKind::Detection, Book::FightYourOwnWars, "17.1 Information gathering attempt")
            .actor("Blue 1")
            .input("board", "Village", "")
            .input("from", "its box", "")
            .dice(6, &[3])
            .outcome(json!({ "pieces": 2, "seen": ["infantry", "2 infantry companies"] }));
        assert_eq!(
            sentence(&e, &named),
            "Blue 1 watches the enemy on Village from its box (d6 3): learns infantry; 2 infantry companies (FYOW, 17.1 Information gathering attempt)"
        );
    }

    #[test]
    fn a_garrison_left_taken_back_and_a_merger_read_as_sentences() {
        let fyow = |section| event(EventKind::Battlegroup, Book::FightYourOwnWars, section);
        let left = fyow("3.4 Creating a fraction")
            .actor("Major One")
            .target("D Company (garrison of Village)")
            .outcome(json!({ "order": "Defend", "garrison": "Village" }));
        assert_eq!(
            sentence(&left, &named),
            "Major One leaves D Company (garrison of Village) to garrison Village, under Defend orders (FYOW, 3.4 Creating a fraction)"
        );
        let back = fyow("3.7 Ending a fraction").actor("Blue 1").target("D Company (garrison of Village)").outcome(
            json!({ "points": 1150, "stockpile_discarded": 2, "bpc_removed": "D Company (garrison of Village)" }),
        );
        assert_eq!(
            sentence(&back, &named),
            "Blue 1 takes its Fraction D Company (garrison of Village) back into its ranks: 1150 points (FYOW, 3.7 Ending a fraction)"
        );
        let joined = fyow("3.7 Merging Fractions")
            .actor("Blue 1")
            .input("fractions", ["D Company (garrison of Village)", "B Company (garrison of Town)"], "")
            .input("points", 600, "the merged Fraction's value")
            .outcome(json!({
                "fraction": "D Company (garrison of Village)",
                "commander": "CO, D Company",
                "stockpile": 4,
                "bpcs_removed": ["B Company (garrison of Town)"],
            }));
        assert_eq!(
            sentence(&joined, &named),
            "Blue 1 merges B Company (garrison of Town) into its Fraction D Company (garrison of Village), led by the CO, D Company: 600 points, Stockpile 4S (FYOW, 3.7 Merging Fractions)"
        );
        let posted = fyow("3.8 Pickets")
            .actor("Red 2")
            .target("4. Kompanie (picket on Village)")
            .outcome(json!({ "picket": "4. Kompanie (picket on Village)", "post": "Village", "order": "Move" }));
        assert_eq!(
            sentence(&posted, &named),
            "Red 2 sends 4. Kompanie (picket on Village) as a picket to Village (FYOW, 3.8 Pickets)"
        );
        let cut =
            fyow("3.8 Pickets").actor("Posten").input("board", "Village", "").outcome(json!({ "fraction": "Posten" }));
        assert_eq!(
            sentence(&cut, &named),
            "Posten, cut off from its battlegroup, declares itself a Fraction and makes its way back (FYOW, 3.8 Pickets)"
        );
        let merged = fyow("2.7 Merging Battlegroups together")
            .actor("Blue 2")
            .target("Blue 1")
            .input("by", "Brigadier Blue", "")
            .outcome(json!({ "points": 750, "stockpile": 9 }));
        assert_eq!(
            sentence(&merged, &named),
            "Brigadier Blue merges Blue 1 into Blue 2: 750 points, Stockpile 9S (FYOW, 2.7 Merging Battlegroups together)"
        );
    }

    #[test]
    fn a_guard_re_faced_reads_as_a_sentence() {
        let officer = crate::officer::Officer::new(crate::officer::Rank::Nco, crate::officer::Grade::Regular).unwrap();
        let mut guard = crate::movement::Guard { facing: crate::movement::Compass::S };
        let (passed, e) =
            guard.re_face(officer, crate::movement::Compass::NE, &mut crate::dice::Scripted::new([1]), "wache");
        assert!(passed);
        assert_eq!(
            sentence(&e, &named),
            "the guard house's NCO takes a Leadership Test to re-face the guard to the north-east (d6 1): it faces that way now (HA, Guards)"
        );
    }

    #[test]
    fn an_order_die_reads_as_the_issue_writes_it() {
        let mut e = event(EventKind::OrderDie, Book::FightYourOwnBattles, "Order Dice").actor("13_platoon");
        e.dice.push(Thrown { sides: 3, face: 3 });
        e.outcome = json!({ "order": "Act" });
        assert_eq!(sentence(&e, &named), "13 Platoon, Order Die 3: Act (FYOB, Order Dice)");
    }

    #[test]
    fn ids_become_names_and_program_words_become_words() {
        assert_eq!(id_name("zug_2_gruppe_1"), "Zug 2 Gruppe 1");
        assert_eq!(id_name("629_fd_sqn"), "629 Fd Sqn");
        assert_eq!(id_name("LCA 1"), "LCA 1");
        assert_eq!(words("SeizesInitiative"), "Seizes initiative");
        assert_eq!(words("LMG"), "LMG");
        assert_eq!(words("cms_after"), "CMS after");
        assert_eq!(words("end_turn"), "end turn");
    }

    #[test]
    fn numbers_are_rounded_as_the_rules_round_them() {
        assert_eq!(number(29.274562835693), "29.3");
        assert_eq!(number(11.0), "11");
        assert_eq!(number(6.96), "7");
        assert_eq!(value_words(&json!([35.662071, 36.02875]), &named), "(35.7\", 36\")");
    }

    #[test]
    fn the_campaigns_commonest_events_read_as_sentences() {
        let fyow = |section| event(EventKind::MapMovement, Book::FightYourOwnWars, section).actor("4th Dorsets");
        let mut m = fyow("14.5 Movement Test").input("from", "Cobo Bay", "").input("to", "Castel", "");
        m.dice.push(Thrown { sides: 10, face: 3 });
        m.outcome = json!({ "moved": false, "needed": 6, "total": 3 });
        assert_eq!(
            sentence(&m, &named),
            "4th Dorsets stays at Cobo Bay, not moving to Castel (d10 3, 6 needed) (FYOW, 14.5 Movement Test)"
        );
        m.outcome = json!({ "moved": true, "needed": 6, "total": 7 });
        assert!(sentence(&m, &named).starts_with("4th Dorsets moves from Cobo Bay to Castel"));
        let mut ahead = event(EventKind::Weather, Book::FightYourOwnWars, "25.3 Wind Table").input(
            "forecast_for",
            "6th August",
            "a forecast noted in the Campaign Log",
        );
        ahead.dice.push(Thrown { sides: 10, face: 4 });
        ahead.outcome = json!({ "wind": "Light" });
        assert!(
            sentence(&ahead, &named).starts_with("The forecast for 6th August (d10 4): wind"),
            "{}",
            sentence(&ahead, &named)
        );
        let mut day = event(EventKind::Calendar, Book::FightYourOwnWars, "1 The Campaign day");
        day.outcome = json!({ "date": "2nd August 1942 (week 1), session 1 (00.00hrs)", "light": "Night",
            "crossed": { "new_day": true, "new_week": false } });
        assert_eq!(
            sentence(&day, &named),
            "A new day: 2nd August 1942 (week 1), session 1 (00.00hrs), night (FYOW, 1 The Campaign day)"
        );
        let mut supply = fyow("20.4 Daily Supply Requirements");
        supply.outcome = json!({ "mode": "active", "need": 10, "drawn": 6, "stockpile": 4 });
        assert_eq!(
            sentence(&supply, &named),
            "4th Dorsets, active, needs 10 S and draws 6 S: 4 S left in its Stockpile (FYOW, 20.4 Daily Supply Requirements)"
        );
        // An event of a section not written out keeps the general form.
        let mut other = fyow("99 Unwritten");
        other.outcome = json!({ "points": 3 });
        assert_eq!(sentence(&other, &named), "4th Dorsets: points 3 (FYOW, 99 Unwritten)");
    }

    #[test]
    fn a_vessel_shelling_the_coast_and_bombed_reads_as_sentences() {
        let fyow = |kind, section| event(kind, Book::FightYourOwnWars, section);
        let mut placed = fyow(EventKind::MapMovement, "29.5 Boats shown on the campaign map").actor("HMS Aphis").input(
            "from",
            "Alexandria",
            "",
        );
        placed.outcome = json!({ "placed_on": "Gulf of Sollum", "for": "the day" });
        assert_eq!(
            sentence(&placed, &named),
            "HMS Aphis sails from Alexandria and takes station on Gulf of Sollum for the day (FYOW, 29.5 Boats shown on the campaign map)"
        );
        let shot = |hit: bool| json!({ "face": 5, "needed": 3, "hit": hit, "effect_face": null, "effect": 0 });
        let mut shelled = fyow(EventKind::Naval, "29.10.4 Ships firing on shore based targets")
            .actor("HMS Aphis")
            .target("II./Schützen-Regiment 104")
            .input("board", "Sollum", "")
            .input("points_lost", 5, "");
        shelled.outcome = json!({ "shots": [shot(true), shot(false), shot(true)], "effect": 5, "sunk": false });
        assert!(
            sentence(&shelled, &named)
                .starts_with("HMS Aphis shells II./Schützen-Regiment 104 on Sollum: 2 hits, 5 points lost"),
            "{}",
            sentence(&shelled, &named)
        );
        let mut bombed = fyow(EventKind::Naval, "29.10.6 Aircraft vs ships").actor("I./StG 1").target("HMAS Waterhen");
        bombed.outcome = json!({ "shots": [shot(true)], "effect": 12, "sunk": true });
        assert!(
            sentence(&bombed, &named)
                .starts_with("I./StG 1 attacks HMAS Waterhen: 1 hit, 12 points of damage: she sinks")
        );
        let mut filed = fyow(EventKind::Chance, "5.2 \"Surprise\" Events").actor("Brigadier Blue").input(
            "decision",
            "take Sollum (the week's objective)",
            "",
        );
        filed.outcome = json!({ "day": "17 June 1941" });
        assert!(
            sentence(&filed, &named).starts_with(
                "Brigadier Blue's decision, \"take Sollum (the week's objective)\", goes into the Diary Box"
            ),
            "{}",
            sentence(&filed, &named)
        );
        let mut flak = fyow(EventKind::AirOperation, "28.10 Anti-Aircraft fire")
            .actor("Flak-Zug")
            .target("No. 175 Squadron RAF")
            .input("board", "Cobo Bay", "");
        flak.outcome = json!({ "hits": 1, "damage": 1 });
        assert!(
            sentence(&flak, &named)
                .starts_with("Flak-Zug's AA fires at No. 175 Squadron RAF over Cobo Bay: 1 hit, 1 point of damage"),
            "{}",
            sentence(&flak, &named)
        );
        let mut begins =
            fyow(EventKind::Naval, "29.17 Playing a naval engagement").input("board", "Gulf of Sollum", "");
        begins.outcome = json!({ "begins": true, "left_box": ["HMS Aphis", "HMAS Waterhen"], "right_box": ["Salpa"] });
        assert_eq!(
            sentence(&begins, &named),
            "A naval engagement begins on Gulf of Sollum: HMS Aphis and HMAS Waterhen in the Left Box, Salpa in the Right Box (FYOW, 29.17 Playing a naval engagement)"
        );
        let mut moved = fyow(EventKind::Naval, "29.17 Playing a naval engagement").actor("Salpa");
        moved.outcome = json!({ "station": "combat_area", "spots_lost": [] });
        assert!(sentence(&moved, &named).starts_with("Salpa moves into the Combat Area"));
        let mut looked = fyow(EventKind::Detection, "29.9 Spotting targets").actor("Salpa");
        looked.outcome = json!({ "results": [
            { "id": "HMAS Waterhen", "needed": 2, "face": 4, "spotted": true },
            { "id": "HMS Aphis", "needed": 2, "face": 1, "spotted": false },
        ] });
        assert!(
            sentence(&looked, &named).starts_with("Salpa looks for HMAS Waterhen and HMS Aphis: spots HMAS Waterhen"),
            "{}",
            sentence(&looked, &named)
        );
        let mut engages = fyow(EventKind::Naval, "29.8 Fire power of boats")
            .actor("Salpa")
            .target("HMAS Waterhen")
            .input("weapon", "torpedoes", "");
        engages.outcome = json!({ "follow_up": false });
        assert!(sentence(&engages, &named).starts_with("Salpa engages HMAS Waterhen with her torpedoes ("));
        let mut torpedoed = fyow(EventKind::Naval, "29.10.2 Submarine vs ship firing")
            .actor("Salpa")
            .target("HMAS Waterhen")
            .input("weapon", "torpedoes", "");
        torpedoed.outcome = json!({ "shots": [shot(true), shot(false)], "effect": 12, "sunk": true });
        assert!(
            sentence(&torpedoed, &named)
                .starts_with("Salpa fires torpedoes at HMAS Waterhen: 1 hit, 12 points of damage: she sinks"),
            "{}",
            sentence(&torpedoed, &named)
        );
        let mut charged = fyow(EventKind::Naval, "29.10.3 Ship vs Ship/submarine firing")
            .actor("HMAS Waterhen")
            .target("Salpa")
            .input("weapon", "depth_charges", "");
        charged.outcome = json!({ "shots": [shot(true), shot(false)], "effect": 2, "sunk": false });
        assert!(
            sentence(&charged, &named)
                .starts_with("HMAS Waterhen drops depth charges on Salpa: 1 hit, 2 points of damage (")
        );
        let mut cards = fyow(EventKind::Calendar, "4.5 Start of each session: Battlegroup Priority Cards").input(
            "board",
            "Gulf of Sollum",
            "a naval engagement",
        );
        cards.outcome = json!({ "order": ["Salpa", "Bardia coastal battery", "HMS Aphis"] });
        assert!(
            sentence(&cards, &named).starts_with(
                "In the naval engagement on Gulf of Sollum, the Battlegroup Priority Cards come up: Salpa, Bardia coastal battery, HMS Aphis"
            ),
            "{}",
            sentence(&cards, &named)
        );
        let mut under_the_guns =
            fyow(EventKind::Naval, "29.17 Playing a naval engagement").input("board", "Gulf of Sollum", "");
        under_the_guns.outcome = json!({
            "begins": true, "left_box": ["HMS Aphis"], "right_box": [], "coastal_area": ["Bardia coastal battery"],
        });
        assert!(
            sentence(&under_the_guns, &named).starts_with(
                "A naval engagement begins on Gulf of Sollum: HMS Aphis in the Left Box, Bardia coastal battery in the Coastal Area ("
            ),
            "{}",
            sentence(&under_the_guns, &named)
        );
        let mut laid = fyow(EventKind::Naval, "29.8 Fire power of boats")
            .actor("Bardia coastal battery")
            .target("HMS Aphis")
            .input("weapon", "gun150mm_plus", "")
            .input("firer", "a coastal battery", "");
        laid.outcome = json!({ "follow_up": false });
        assert!(sentence(&laid, &named).starts_with("Bardia coastal battery engages HMS Aphis with its heavy guns ("));
        let mut counter = fyow(EventKind::Naval, "29.10.1 Coastal gun battery counter-fire")
            .actor("Bardia coastal battery")
            .target("HMS Aphis");
        counter.outcome = json!({ "shots": [shot(true), shot(true)], "effect": 3, "sunk": false });
        assert!(
            sentence(&counter, &named)
                .starts_with("Bardia coastal battery fires on HMS Aphis: 2 hits, 3 points of damage ("),
            "{}",
            sentence(&counter, &named)
        );
        let mut commissioned = fyow(EventKind::Naval, "29.2 Guns on boats").actor("HMS Aphis");
        commissioned.outcome = json!({ "mounts": [
            { "weapon": "gun75mm", "count": 6, "shots_per_gun_per_day": 3, "left_today": 18 },
            { "weapon": "aa20mm", "count": 1, "shots_per_gun_per_day": 3, "left_today": 3 },
        ] });
        assert!(sentence(&commissioned, &named).starts_with("HMS Aphis is commissioned: 6 75mm guns, 1 20mm AA gun"));
    }

    #[test]
    fn a_weapon_halted_at_a_building_reads_as_a_sentence() {
        let e = event(EventKind::Movement, Book::HeroesAll, "Buildings").actor("10_pl_hq").outcome(json!({
            "halted_after": 1.5,
            "refused": crate::buildings::BuildingError::NotAllowed(crate::buildings::Occupier::Mortar { on_flat_roof: false }).to_string(),
        }));
        assert_eq!(
            sentence(&e, &|id: &str| (id == "10_pl_hq").then(|| "10 Platoon HQ".to_owned())),
            "10 Platoon HQ halts after 1.5\" at the door of a building: a mortar may not occupy this building (HA, Buildings)"
        );
    }

    #[test]
    fn no_sentence_is_json() {
        let mut e = event(EventKind::Command, Book::FightYourOwnBattles, "The game flow").actor("13_platoon");
        e = e.input("command", json!({ "assault": { "element": "13_platoon", "target": "wache" } }), "");
        e.outcome = json!({ "accepted": true });
        let s = sentence(&e, &named);
        assert_eq!(s, "13 Platoon: assault the guard house (FYOB, The game flow)");
        let mut m = event(EventKind::Movement, Book::HeroesAll, "Rivers").actor("13_platoon");
        m.outcome = json!({ "at": [32.718650817871094, 18.858783721923828], "in_water": true });
        let s = sentence(&m, &named);
        assert!(!s.contains(['{', '}', '[', ']']) && !s.contains("\":"), "{s}");
        assert!(s.contains("(32.7\", 18.9\")") && s.contains("in water"), "{s}");
    }

    #[test]
    fn charges_set_and_gaps_blown_read_as_sentences() {
        let mut set = event(EventKind::Explosives, Book::HeroesAll, "Explosives").actor("13_platoon");
        set = set.input("charge", "large", "").input("delay", 3, "");
        set.outcome = json!({ "state": "set", "target": "bridge", "goes_off": { "after_bounds": 3 } });
        assert_eq!(
            sentence(&set, &named),
            "13 Platoon sets a large charge on the bridge, to go off after 3 bounds (HA, Explosives)"
        );
        set.outcome = json!({ "state": "set", "target": "bridge", "goes_off": "on the detonation pack" });
        assert!(sentence(&set, &named).contains("on the bridge, on the detonation pack"), "{}", sentence(&set, &named));
        let mut gap = event(EventKind::Explosives, Book::HeroesAll, "Explosives").actor("13_platoon");
        gap.outcome = json!({ "state": "gap", "in": "wire", "at": [30.0, 20.5], "figures_wide": 1 });
        assert_eq!(
            sentence(&gap, &named),
            "13 Platoon blows a gap 1 figure wide in the wire at (30\", 20.5\") with a Bangalore Torpedo (HA, Explosives)"
        );
    }

    #[test]
    fn getting_into_and_out_of_a_transport_reads_as_sentences() {
        let section = "Transport elements";
        let mut into = event(EventKind::Movement, Book::HeroesAll, section).actor("13_platoon").target("lorry_1");
        into.outcome = json!({ "aboard": "lorry_1" });
        assert_eq!(sentence(&into, &named), "13 Platoon gets into Lorry 1 (HA, Transport elements)");
        let mut out = event(EventKind::Movement, Book::HeroesAll, section).actor("13_platoon").target("lorry_1");
        out.outcome = json!({ "out_at": [30.0, 12.26] });
        assert_eq!(sentence(&out, &named), "13 Platoon gets out of Lorry 1 at (30\", 12.3\") (HA, Transport elements)");
        out.outcome = json!({ "out_at": [30.0, 12.0], "casualties": 2 });
        assert_eq!(
            sentence(&out, &named),
            "13 Platoon gets out of the wreck of Lorry 1 at (30\", 12\"): 2 casualties (HA, Transport elements)"
        );
    }

    #[test]
    fn a_rationed_vehicles_petrol_throw_reads_as_a_sentence() {
        let mut e = event(EventKind::Movement, Book::HeroesAll, "Forces acting whilst rationed").actor("lorry_1");
        e = e.dice(6, &[3, 5]);
        e.outcome = json!({ "score": 8, "fuel": "running", "cms": "" });
        assert_eq!(
            sentence(&e, &named),
            "Lorry 1 throws for its petrol (d6 3 5): 8, it runs on (HA, Forces acting whilst rationed)"
        );
        e.outcome = json!({ "score": 3, "fuel": "out_of_fuel", "cms": "light damage" });
        assert!(
            sentence(&e, &named).contains(": 3, under 5, out of petrol (light damage)"),
            "{}",
            sentence(&e, &named)
        );
    }

    #[test]
    fn getting_into_and_out_of_river_craft_reads_as_sentences() {
        let mut into = event(EventKind::Movement, Book::HeroesAll, "Boats").actor("13_platoon");
        into = into.input("craft", "assault_boat", "").input("boats", 3, "");
        into.outcome = json!({ "afloat": true, "at": [30.0, 20.3] });
        assert_eq!(
            sentence(&into, &named),
            "13 Platoon gets into its 3 assault boats at (30\", 20.3\") and pushes off (HA, Boats)"
        );
        let mut out = event(EventKind::Movement, Book::HeroesAll, "Boats").actor("13_platoon");
        out.outcome = json!({ "afloat": false, "at": [30.0, 28.3] });
        assert_eq!(
            sentence(&out, &named),
            "13 Platoon reaches the bank and gets out of its boats at (30\", 28.3\") (HA, Boats)"
        );
    }

    #[test]
    fn commands_to_get_in_get_out_and_stop_read_as_sentences() {
        let mut e = event(EventKind::Command, Book::FightYourOwnBattles, "The game flow").actor("13_platoon");
        e = e.input("command", json!({ "embark": { "element": "13_platoon", "transport": "lorry_1" } }), "");
        e.outcome = json!({ "accepted": true });
        assert_eq!(sentence(&e, &named), "13 Platoon: gets into Lorry 1 (FYOB, The game flow)");
        let mut e = event(EventKind::Command, Book::FightYourOwnBattles, "The game flow").actor("13_platoon");
        e = e.input("command", json!({ "disembark": { "element": "13_platoon" } }), "");
        e.outcome = json!({ "accepted": true });
        assert_eq!(sentence(&e, &named), "13 Platoon: gets out of its transport (FYOB, The game flow)");
        let mut e = event(EventKind::Command, Book::FightYourOwnBattles, "The game flow").actor("13_platoon");
        e = e.input("command", json!({ "move_to": { "element": "13_platoon", "to": [24.0, 11.0] } }), "");
        e.outcome = json!({ "accepted": true });
        assert_eq!(sentence(&e, &named), "13 Platoon: moves on to (24\", 11\") (FYOB, The game flow)");
    }

    #[test]
    fn an_assault_reads_as_it_happens() {
        let mut e = event(EventKind::Assault, Book::HeroesAll, "Close assaults").actor("13_platoon").target("wache");
        e = e.input("column", "G1", "");
        e.dice = vec![Thrown { sides: 6, face: 4 }];
        e.outcome = json!({ "casualties": 2, "column": "G1", "entering": 5, "grenade_faces": [4], "left_outside": 24 });
        assert_eq!(
            sentence(&e, &named),
            "13 Platoon assaults the guard house (column G1, d6 4): 2 casualties; 5 men go in, 24 wait outside (HA, Close assaults)"
        );
        let mut end = event(EventKind::Assault, Book::HeroesAll, "Close assaults").actor("13_platoon").target("wache");
        end.outcome = json!({ "status": "Destroyed", "winner": "attacker" });
        assert_eq!(
            sentence(&end, &named),
            "13 Platoon's assault on the guard house ends: the attacker wins; the guard house is destroyed (HA, Close assaults)"
        );
    }

    #[test]
    fn fire_names_weapon_target_odds_and_hits() {
        let mut e = event(EventKind::Fire, Book::HeroesAll, "How to fire weapons").actor("13_platoon").target("wache");
        e = e.input("weapon", "Rifle", "").input("band", "effective", "23.5 inches").input("needed", 5, "");
        e.dice = [3, 5, 6].iter().map(|&face| Thrown { sides: 6, face }).collect();
        e.outcome = json!({ "hits": 2 });
        assert_eq!(
            sentence(&e, &named),
            "13 Platoon fires Rifle at the guard house (effective range, 5+ on d6 3 5 6): 2 hits (HA, How to fire weapons)"
        );
        let mut bare = e.clone();
        bare.inputs.clear();
        assert_eq!(
            sentence(&bare, &named),
            "13 Platoon fires at the guard house (d6 3 5 6): 2 hits (HA, How to fire weapons)"
        );
    }

    #[test]
    fn the_command_dice_read_as_sentences() {
        let first = event(EventKind::CommandDice, Book::HeroesAll, "Command and Control for 2-Player games")
            .actor("Kampfgruppe Meyer")
            .dice(6, &[5, 2]);
        let mut first = first;
        first.outcome = json!({ "first_player": 1 });
        let s = sentence(&first, &|_: &str| None);
        assert!(s.starts_with("Kampfgruppe Meyer goes first (d6 5 2)"), "{s}");
        let mut thrown = event(EventKind::CommandDice, Book::HeroesAll, "Command and Control for 2-Player games")
            .actor("Kampfgruppe Meyer")
            .dice(6, &[6, 3, 1]);
        thrown.outcome = json!({ "dice": 3 });
        let s = sentence(&thrown, &|_: &str| None);
        assert!(s.starts_with("Kampfgruppe Meyer throws 3 Command Dice (d6 6 3 1)"), "{s}");
    }

    #[test]
    fn a_counter_found_to_be_a_dummy_reads_without_the_hidden_element() {
        let mut e = event(EventKind::Concealment, Book::FightYourOwnBattles, "Placement options")
            .actor("zug_2_gruppe_1")
            .target("troop_sergeant")
            .input("counter", 2, "observed by the enemy")
            .dice(2, &[2]);
        e.outcome = json!({ "spotted": "Dummy", "counters_left": [1] });
        let s = sentence(&e, &|_: &str| None);
        assert!(s.starts_with("Troop Sergeant finds counter 2 is a dummy (d2 2); 1 counter is left"), "{s}");
        assert!(!s.contains("Zug"), "the dummy's element stays unnamed: {s}");
        e.outcome = json!({ "spotted": "Real", "counters_left": [] });
        let s = sentence(&e, &|_: &str| None);
        assert!(s.starts_with("Troop Sergeant finds Zug 2 Gruppe 1 at counter 2"), "{s}");
        // Dummy markers name the real one: no die, no empty brackets.
        e.dice.clear();
        e.outcome = json!({ "spotted": "Dummy", "counters_left": [1] });
        let s = sentence(&e, &|_: &str| None);
        assert!(s.starts_with("Troop Sergeant finds counter 2 is a dummy; 1 counter is left"), "{s}");
    }
}
