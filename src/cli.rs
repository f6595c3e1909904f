//! Command-line entry points: play in a window, run headless, or take a screenshot.

use std::{fmt, path::PathBuf};

/// How the game was asked to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// The normal game: a window with the title screen. `demo`: the program
    /// plays both sides of every battle and the whole table shows.
    Play { scenario: Option<String>, demo: bool, table: TableOptions },
    /// No window and no GPU: `MinimalPlugins` for `frames` updates.
    Headless { frames: u32, scenario: Option<String> },
    /// Both sides Auto, no window: play the battle to its end, write the
    /// battle log and a summary.
    AutoPlay(AutoPlay),
    /// Both armies Auto, no window: play a *Fight Your Own Wars* campaign,
    /// every engagement on paper, and write its log and summary.
    Campaign(CampaignRun),
    /// `--frame-bench OUT.json [--frames N]`: frame times of the empty table
    /// and of the largest battle, N frames each, written to `out`.
    FrameBench { out: PathBuf, frames: u32 },
    /// Render `frames` frames in a real window, save a PNG to `path`, exit;
    /// `load`: of the battle in this save, as it stands there.
    Screenshot {
        path: PathBuf,
        frames: u32,
        scenario: Option<String>,
        demo: bool,
        load: Option<PathBuf>,
        table: TableOptions,
    },
    /// `--campaign C` in the window: the campaign map of campaign C, the
    /// player commanding its first army (`demo`: the program plays both and
    /// watches each battle on the table); with `screenshot`, a PNG after
    /// that many frames.
    CampaignMap { campaign: String, seed: Option<u64>, demo: bool, screenshot: Option<(PathBuf, u32)> },
    /// `--rules-report [--seeds N]`: play every shipped battle on seeds
    /// 1..=N headless and print which sections of both books changed state.
    RulesReport { seeds: u32 },
    /// `--help`: print usage and exit 0.
    Help,
    /// `--version`: print the build and exit 0.
    Version,
}

/// How a battle started in the window (`--scenario S`) is played: its dice
/// seed (`--seed N`, else new dice each game), and `--two-player`: the
/// *Heroes All* 2-player Command Dice game, both sides at the screen in turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TableOptions {
    pub seed: Option<u64>,
    pub two_player: bool,
}

/// `--headless --scenario S --seed N [--bounds K] [--log L] [--summary F]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutoPlay {
    pub scenario: String,
    pub seed: u64,
    pub bounds: Option<u32>,
    /// The battle log, JSON lines.
    pub log: Option<PathBuf>,
    /// The result, JSON.
    pub summary: Option<PathBuf>,
    /// The *Heroes All* 2-player Command Dice instead of the solo mechanism.
    pub two_player: bool,
    /// `--load SAVE`: resume this save instead (scenario and seed come from
    /// it) and play on to the end, both sides Auto from there. A campaign
    /// save goes on as its campaign.
    pub load: Option<PathBuf>,
    /// With `--load` of a campaign save: the campaign days to play on after
    /// the present one (to its end when not given).
    pub days: Option<u32>,
}

/// `--headless --campaign C --seed N [--days D] [--log L] [--summary F]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CampaignRun {
    pub campaign: String,
    pub seed: u64,
    /// Stop after this many campaign days (before the campaign's own end).
    pub days: Option<u32>,
    pub log: Option<PathBuf>,
    pub summary: Option<PathBuf>,
    /// How its engagements are resolved: paper, table or both.
    pub battles: warbound_war::Battles,
}

/// Frames rendered before a screenshot is taken when `--frames` is not given.
pub const DEFAULT_SCREENSHOT_FRAMES: u32 = 30;
/// Frames measured in each phase of `--frame-bench` when `--frames` is not given.
pub const DEFAULT_BENCH_FRAMES: u32 = 120;
/// Updates run by `--headless` when `--frames` is not given.
pub const DEFAULT_HEADLESS_FRAMES: u32 = 10;

pub const USAGE: &str = "\
usage: warbound [--scenario S [--seed N] [--two-player]] [--demo]
       warbound --headless [--frames N] [--scenario S]
       warbound --headless --scenario S --seed N [--bounds K] [--log OUT.jsonl] [--summary OUT.json] [--two-player]
       warbound --headless --load SAVE.ron [--days D] [--log OUT.jsonl] [--summary OUT.json]
       warbound --headless --campaign C --seed N [--battles paper|table|both] [--days D] [--log OUT.jsonl] [--summary OUT.json]
       warbound --campaign C [--seed N] [--demo] [--screenshot OUT.png [--frames N]]
       warbound --screenshot OUT.png [--frames N] [--scenario S [--seed N] [--two-player] | --load SAVE.ron] [--demo]
       warbound --frame-bench OUT.json [--frames N]
       warbound --rules-report [--seeds N]
       warbound --help | --version

  (no flags)          open the game window at the title screen
  --scenario S        start straight into battle scenario S: a built-in name
                      (see --list-scenarios) or a path to a .ron file
  --demo              the program plays both sides and the whole table shows
                      (a demonstration at a show)
  --list-scenarios    print the built-in scenarios and exit
  --headless          run without a window or GPU
  --screenshot OUT    render N frames in a window, save OUT as PNG, exit; with
                      --load SAVE.ron, of the saved battle where it stands
  --frames N          frames to run (headless default 10, screenshot default 30)
  --seed N            with --headless: play scenario S to its end, both sides
                      Auto, from dice seed N (the same seed plays the same
                      battle); in the window: the dice seed of scenario S
  --bounds K          stop after K bounds (before the scenario's time limit)
  --log OUT.jsonl     write the battle log, one rule event per line
  --summary OUT.json  write the result: winner, losses, CMT per side
  --two-player        the Heroes All 2-player Command Dice rules instead of
                      the solo mechanism; in the window a hotseat: the two
                      players take the screen in turn
  --load SAVE.ron     with --headless: resume a saved battle (the autosave
                      after every bound is autosave.ron in the data directory)
                      and play it on to its end, both sides Auto; a campaign
                      save (campaign-autosave.ron, after every session) goes
                      on as its campaign
  --campaign C        in the window: open campaign C's map, commanding its
                      first army (--demo: the program plays both and watches
                      each battle on the table);
                      with --headless and --seed: play campaign C (a built-in
                      name, see --list-scenarios, or a path to a .ron file),
                      both armies Auto
  --battles B         how the campaign's engagements are resolved: paper (the
                      Dunnigan rules, the default), table (fought on the
                      table, four bounds a session) or both (on the table,
                      each also resolved on paper and the two compared in
                      the summary)
  --days D            stop the campaign after D campaign days (with --load:
                      D more days after the present one)
  --frame-bench OUT   in a window: frame times of the empty table and of the
                      largest shipped battle, N frames each (default 120),
                      and the game's systems' CPU time a frame; writes OUT
  --rules-report      play every shipped battle headless, both sides Auto,
                      on seeds 1..N (--seeds N, default 5) and print, for
                      each section of both books, the events it produced and
                      how many changed the battle; exit 1 on a rule failure
  --help, -h          print this message
  --version, -V       print the build";

/// A command line that could not be understood; shown with [`USAGE`], exit code 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "warbound: {}\n\n{USAGE}", self.0)
    }
}

impl std::error::Error for UsageError {}

/// Extra request that is answered without starting the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Query {
    ListScenarios,
}

/// Parses the arguments after the program name.
pub fn parse<I, S>(args: I) -> Result<(Mode, Option<Query>), UsageError>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let mut headless = false;
    let mut screenshot: Option<PathBuf> = None;
    let mut frames: Option<u32> = None;
    let mut scenario: Option<String> = None;
    let mut seed: Option<u64> = None;
    let mut bounds: Option<u32> = None;
    let mut log: Option<PathBuf> = None;
    let mut summary: Option<PathBuf> = None;
    let mut two_player = false;
    let mut load: Option<PathBuf> = None;
    let mut campaign: Option<String> = None;
    let mut demo = false;
    let mut frame_bench: Option<PathBuf> = None;
    let mut days: Option<u32> = None;
    let mut battles: Option<warbound_war::Battles> = None;
    let mut rules_report = false;
    let mut seeds: Option<u32> = None;
    let mut query = None;
    let mut args = args.into_iter().map(Into::into);
    while let Some(arg) = args.next() {
        // Accept both `--flag value` and `--flag=value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| -> Result<String, UsageError> {
            inline
                .clone()
                .or_else(|| args.next())
                .filter(|v| !v.is_empty())
                .ok_or_else(|| UsageError(format!("{name} needs a value")))
        };
        match flag.as_str() {
            "--help" | "-h" => return Ok((Mode::Help, None)),
            "--version" | "-V" => return Ok((Mode::Version, None)),
            "--headless" => headless = true,
            "--demo" => demo = true,
            "--frame-bench" => frame_bench = Some(PathBuf::from(value("--frame-bench")?)),
            "--list-scenarios" => query = Some(Query::ListScenarios),
            "--rules-report" => rules_report = true,
            "--seeds" => {
                let raw = value("--seeds")?;
                seeds = Some(
                    raw.parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| UsageError(format!("--seeds wants a whole number above 0, not {raw:?}")))?,
                );
            }
            "--screenshot" => screenshot = Some(PathBuf::from(value("--screenshot")?)),
            "--scenario" => scenario = Some(value("--scenario")?),
            "--frames" => {
                let raw = value("--frames")?;
                let n: u32 = raw
                    .parse()
                    .map_err(|_| UsageError(format!("--frames wants a whole number from 1 up, not {raw:?}")))?;
                if n == 0 {
                    return Err(UsageError("--frames wants a whole number from 1 up, not 0".into()));
                }
                frames = Some(n);
            }
            "--seed" => {
                let raw = value("--seed")?;
                seed = Some(raw.parse().map_err(|_| UsageError(format!("--seed wants a whole number, not {raw:?}")))?);
            }
            "--bounds" => {
                let raw = value("--bounds")?;
                let n: u32 = raw
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| UsageError(format!("--bounds wants a whole number from 1 up, not {raw:?}")))?;
                bounds = Some(n);
            }
            "--log" => log = Some(PathBuf::from(value("--log")?)),
            "--summary" => summary = Some(PathBuf::from(value("--summary")?)),
            "--two-player" => two_player = true,
            "--load" => load = Some(PathBuf::from(value("--load")?)),
            "--campaign" => campaign = Some(value("--campaign")?),
            "--battles" => battles = Some(value("--battles")?.parse().map_err(UsageError)?),
            "--days" => {
                let raw = value("--days")?;
                let n: u32 = raw
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| UsageError(format!("--days wants a whole number from 1 up, not {raw:?}")))?;
                days = Some(n);
            }
            other if other.starts_with('-') => return Err(UsageError(format!("unknown flag {other:?}"))),
            other => return Err(UsageError(format!("unexpected argument {other:?}"))),
        }
    }
    if headless && demo {
        return Err(UsageError(
            "--demo plays on screen; headless battles with --seed are played by the program already".into(),
        ));
    }
    if headless && screenshot.is_some() {
        return Err(UsageError("--headless and --screenshot cannot be used together".into()));
    }
    if rules_report {
        if headless || screenshot.is_some() || scenario.is_some() || demo || campaign.is_some() || seed.is_some() {
            return Err(UsageError("--rules-report takes only --seeds: it plays every shipped battle itself".into()));
        }
        return Ok((Mode::RulesReport { seeds: seeds.unwrap_or(warbound_battle::report::DEFAULT_SEEDS) }, query));
    }
    if seeds.is_some() {
        return Err(UsageError("--seeds is for --rules-report; a single battle takes --seed N".into()));
    }
    if let Some(out) = frame_bench {
        if headless || screenshot.is_some() || scenario.is_some() || demo || campaign.is_some() || seed.is_some() {
            return Err(UsageError(
                "--frame-bench takes only --frames: it renders in a window and picks its battle".into(),
            ));
        }
        return Ok((Mode::FrameBench { out, frames: frames.unwrap_or(DEFAULT_BENCH_FRAMES) }, query));
    }
    if let Some(campaign) = campaign.clone().filter(|_| !headless) {
        if scenario.is_some() || bounds.is_some() || two_player || load.is_some() || log.is_some() || summary.is_some()
        {
            return Err(UsageError(
                "--campaign in the window takes --seed, --demo, --screenshot and --frames; the rest are for battles or the headless campaign".into(),
            ));
        }
        if days.is_some() || battles.is_some() {
            return Err(UsageError(
                "--days and --battles are for the campaign played headless (add --headless)".into(),
            ));
        }
        if let Some(path) = &screenshot
            && path.extension().is_none_or(|e| !e.eq_ignore_ascii_case("png"))
        {
            return Err(UsageError(format!("--screenshot writes a PNG: give a path ending in .png, not {path:?}")));
        }
        if frames.is_some() && screenshot.is_none() {
            return Err(UsageError("--frames only applies to --headless or --screenshot".into()));
        }
        let screenshot = screenshot.map(|p| (p, frames.unwrap_or(DEFAULT_SCREENSHOT_FRAMES)));
        return Ok((Mode::CampaignMap { campaign, seed, demo, screenshot }, query));
    }
    if let Some(campaign) = campaign {
        if scenario.is_some() || bounds.is_some() || two_player || load.is_some() || frames.is_some() {
            return Err(UsageError(
                "--campaign takes --seed, --days, --log and --summary; --scenario, --bounds, --two-player, --load and --frames are for battles".into(),
            ));
        }
        let seed = seed.ok_or_else(|| UsageError("a campaign played headless needs --seed N".into()))?;
        let battles = battles.unwrap_or_default();
        return Ok((Mode::Campaign(CampaignRun { campaign, seed, days, log, summary, battles }), query));
    }
    if battles.is_some() {
        return Err(UsageError("--battles goes with --campaign (a campaign save keeps its own)".into()));
    }
    if days.is_some() && load.is_none() {
        return Err(UsageError("--days goes with --campaign or --load of a campaign save".into()));
    }
    if let (Some(path), Some(save)) = (&screenshot, &load) {
        if headless || scenario.is_some() || seed.is_some() || bounds.is_some() || two_player {
            return Err(UsageError(
                "--screenshot --load pictures a saved battle: its scenario, seed and rules come from the save".into(),
            ));
        }
        if path.extension().is_none_or(|e| !e.eq_ignore_ascii_case("png")) {
            return Err(UsageError(format!("--screenshot writes a PNG: give a path ending in .png, not {path:?}")));
        }
        let frames = frames.unwrap_or(DEFAULT_SCREENSHOT_FRAMES);
        let mode = Mode::Screenshot {
            path: path.clone(),
            frames,
            scenario: None,
            demo,
            load: Some(save.clone()),
            table: TableOptions::default(),
        };
        return Ok((mode, query));
    }
    // In the window, a battle named on the command line may take its seed
    // and the 2-player game.
    let mut table = TableOptions::default();
    if !headless && scenario.is_some() && bounds.is_none() && log.is_none() && summary.is_none() && load.is_none() {
        table = TableOptions { seed: seed.take(), two_player: std::mem::take(&mut two_player) };
    }
    let autoplay =
        seed.is_some() || bounds.is_some() || log.is_some() || summary.is_some() || two_player || load.is_some();
    if autoplay {
        if !headless {
            return Err(UsageError(
                "--seed, --bounds, --log, --summary, --two-player and --load go with --headless".into(),
            ));
        }
        if frames.is_some() {
            return Err(UsageError("--frames does not apply to a battle played to its end (use --bounds)".into()));
        }
        if load.is_some() {
            if scenario.is_some() || seed.is_some() || bounds.is_some() || two_player {
                return Err(UsageError(
                    "--load resumes a saved battle: its scenario, seed and rules come from the save".into(),
                ));
            }
            let a = AutoPlay { scenario: String::new(), seed: 0, bounds, log, summary, two_player, load, days };
            return Ok((Mode::AutoPlay(a), query));
        }
        let Some(scenario) = scenario else {
            return Err(UsageError("a battle played headless needs --scenario S".into()));
        };
        let seed = seed.ok_or_else(|| UsageError("a battle played headless needs --seed N".into()))?;
        let a = AutoPlay { scenario, seed, bounds, log, summary, two_player, load: None, days: None };
        return Ok((Mode::AutoPlay(a), query));
    }
    let mode = match (headless, screenshot) {
        (true, _) => Mode::Headless { frames: frames.unwrap_or(DEFAULT_HEADLESS_FRAMES), scenario },
        (false, Some(path)) => {
            if path.extension().is_none_or(|e| !e.eq_ignore_ascii_case("png")) {
                return Err(UsageError(format!("--screenshot writes a PNG: give a path ending in .png, not {path:?}")));
            }
            Mode::Screenshot {
                path,
                frames: frames.unwrap_or(DEFAULT_SCREENSHOT_FRAMES),
                scenario,
                demo,
                load: None,
                table,
            }
        }
        (false, None) => {
            if frames.is_some() {
                return Err(UsageError("--frames only applies to --headless or --screenshot".into()));
            }
            Mode::Play { scenario, demo, table }
        }
    };
    Ok((mode, query))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(args: &[&str]) -> Result<Mode, UsageError> {
        parse(args.iter().copied()).map(|(m, _)| m)
    }

    #[test]
    fn a_campaign_opens_its_map_in_the_window() {
        assert_eq!(
            mode(&["--campaign", "guernsey-1942", "--screenshot", "m.png", "--frames", "9"]),
            Ok(Mode::CampaignMap {
                campaign: "guernsey-1942".into(),
                seed: None,
                demo: false,
                screenshot: Some((PathBuf::from("m.png"), 9)),
            })
        );
        assert!(mode(&["--campaign", "guernsey-1942", "--scenario", "patrol"]).is_err());
        assert!(mode(&["--campaign", "guernsey-1942", "--days", "3"]).is_err(), "--days is headless");
        assert!(matches!(mode(&["--campaign", "c", "--headless", "--seed", "1"]), Ok(Mode::Campaign(_))));
    }

    #[test]
    fn no_flags_plays() {
        let table = TableOptions::default();
        assert_eq!(mode(&[]), Ok(Mode::Play { scenario: None, demo: false, table }));
        assert_eq!(mode(&["--demo"]), Ok(Mode::Play { scenario: None, demo: true, table }));
        assert!(mode(&["--headless", "--demo"]).is_err(), "--demo is for the window");
    }

    #[test]
    fn a_battle_in_the_window_takes_its_seed_and_the_two_player_game() {
        let table = TableOptions { seed: Some(8), two_player: true };
        assert_eq!(
            mode(&["--scenario", "river", "--seed", "8", "--two-player"]),
            Ok(Mode::Play { scenario: Some("river".into()), demo: false, table })
        );
        assert!(matches!(
            mode(&["--screenshot", "a.png", "--scenario", "river", "--seed", "8"]),
            Ok(Mode::Screenshot { table: TableOptions { seed: Some(8), two_player: false }, .. })
        ));
        // A seed needs the battle it seeds.
        assert!(mode(&["--seed", "8"]).is_err());
    }

    #[test]
    fn screenshot_with_frames_and_scenario() {
        assert_eq!(
            mode(&["--screenshot", "out.png", "--frames=12", "--scenario", "patrol"]),
            Ok(Mode::Screenshot {
                path: "out.png".into(),
                frames: 12,
                scenario: Some("patrol".into()),
                demo: false,
                load: None,
                table: TableOptions::default()
            })
        );
    }

    #[test]
    fn a_screenshot_pictures_a_save() {
        assert_eq!(
            mode(&["--screenshot", "out.png", "--load", "autosave.ron"]),
            Ok(Mode::Screenshot {
                path: "out.png".into(),
                frames: DEFAULT_SCREENSHOT_FRAMES,
                scenario: None,
                demo: false,
                load: Some("autosave.ron".into()),
                table: TableOptions::default()
            })
        );
        assert!(mode(&["--screenshot", "out.png", "--load", "a.ron", "--scenario", "patrol"]).is_err());
        assert!(mode(&["--screenshot", "out.png", "--load", "a.ron", "--seed", "3"]).is_err());
        assert!(mode(&["--screenshot", "out.jpg", "--load", "a.ron"]).is_err());
    }

    #[test]
    fn headless_defaults() {
        assert_eq!(mode(&["--headless"]), Ok(Mode::Headless { frames: DEFAULT_HEADLESS_FRAMES, scenario: None }));
    }

    #[test]
    fn bad_input_is_a_usage_error() {
        for args in [
            &["--bogus"][..],
            &["--frames", "ten", "--headless"],
            &["--frames", "0", "--headless"],
            &["--frames", "5"],
            &["--screenshot"],
            &["--screenshot", "out.jpg"],
            &["--headless", "--screenshot", "a.png"],
            &["stray"],
        ] {
            let err = mode(args).expect_err(&format!("{args:?} should be refused"));
            assert!(err.to_string().contains("usage: warbound"), "{err}");
        }
    }

    #[test]
    fn autoplay_flags() {
        assert_eq!(
            mode(&["--headless", "--scenario", "patrol", "--seed", "7", "--log", "a.jsonl", "--bounds=3"]),
            Ok(Mode::AutoPlay(AutoPlay {
                scenario: "patrol".into(),
                seed: 7,
                bounds: Some(3),
                log: Some("a.jsonl".into()),
                summary: None,
                two_player: false,
                load: None,
                days: None,
            }))
        );
        assert!(matches!(mode(&["--headless", "--load", "a.ron"]), Ok(Mode::AutoPlay(AutoPlay { load: Some(_), .. }))));
        assert!(mode(&["--headless", "--load", "a.ron", "--seed", "3"]).is_err(), "a save brings its own seed");
        assert!(mode(&["--load", "a.ron"]).is_err(), "--load goes with --headless");
        for args in [
            &["--headless", "--seed", "x", "--scenario", "patrol"][..],
            &["--headless", "--seed", "1"],
            &["--headless", "--scenario", "patrol", "--log", "a"],
            &["--seed", "1", "--scenario", "patrol", "--log", "a"],
            &["--headless", "--scenario", "patrol", "--seed", "1", "--bounds", "0"],
            &["--headless", "--scenario", "patrol", "--seed", "1", "--frames", "3"],
        ] {
            assert!(mode(args).is_err(), "{args:?} should be refused");
        }
    }

    #[test]
    fn frame_bench_flags() {
        assert_eq!(
            mode(&["--frame-bench", "b.json", "--frames", "60"]),
            Ok(Mode::FrameBench { out: "b.json".into(), frames: 60 })
        );
        assert!(mode(&["--frame-bench", "b.json", "--headless"]).is_err());
    }

    #[test]
    fn campaign_flags() {
        assert_eq!(
            mode(&["--headless", "--campaign", "guernsey-1942", "--seed", "4", "--days=12", "--summary", "s.json"]),
            Ok(Mode::Campaign(CampaignRun {
                campaign: "guernsey-1942".into(),
                seed: 4,
                days: Some(12),
                log: None,
                summary: Some("s.json".into()),
                battles: warbound_war::Battles::Paper,
            }))
        );
        assert!(matches!(
            mode(&["--headless", "--campaign", "guernsey-1942", "--seed", "4", "--battles", "both"]),
            Ok(Mode::Campaign(CampaignRun { battles: warbound_war::Battles::Both, .. }))
        ));
        assert!(matches!(
            mode(&["--headless", "--load", "c.ron", "--days", "2"]),
            Ok(Mode::AutoPlay(AutoPlay { days: Some(2), load: Some(_), .. }))
        ));
        assert!(matches!(
            mode(&["--campaign", "guernsey-1942", "--seed", "1"]),
            Ok(Mode::CampaignMap { seed: Some(1), screenshot: None, .. })
        ));
        for args in [
            &["--headless", "--campaign", "guernsey-1942"][..],
            &["--headless", "--campaign", "guernsey-1942", "--seed", "1", "--days", "0"],
            &["--headless", "--campaign", "guernsey-1942", "--seed", "1", "--scenario", "patrol"],
            &["--headless", "--scenario", "patrol", "--seed", "1", "--days", "3"],
            &["--headless", "--campaign", "guernsey-1942", "--seed", "1", "--battles", "dice"],
            &["--headless", "--scenario", "patrol", "--seed", "1", "--battles", "table"],
        ] {
            let err = mode(args).expect_err(&format!("{args:?} should be refused"));
            assert!(err.to_string().contains("usage: warbound"), "{err}");
        }
    }

    #[test]
    fn list_scenarios_is_a_query() {
        assert_eq!(parse(["--list-scenarios"]).map(|(_, q)| q), Ok(Some(Query::ListScenarios)));
    }

    #[test]
    fn the_rules_report_takes_a_number_of_seeds() {
        assert_eq!(parse(["--rules-report"]).map(|(m, _)| m), Ok(Mode::RulesReport { seeds: 5 }));
        assert_eq!(parse(["--rules-report", "--seeds", "20"]).map(|(m, _)| m), Ok(Mode::RulesReport { seeds: 20 }));
        assert!(parse(["--rules-report", "--seeds", "0"]).is_err());
        assert!(parse(["--rules-report", "--headless"]).is_err());
        assert!(parse(["--seeds", "3"]).is_err());
    }
}
