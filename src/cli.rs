//! Command-line entry points: play in a window, run headless, or take a screenshot.

use std::{fmt, path::PathBuf};

/// How the game was asked to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// The normal game: a window with the title screen.
    Play { scenario: Option<String> },
    /// No window and no GPU: `MinimalPlugins` for `frames` updates.
    Headless { frames: u32, scenario: Option<String> },
    /// Render `frames` frames in a real window, save a PNG to `path`, exit.
    Screenshot { path: PathBuf, frames: u32, scenario: Option<String> },
    /// `--help`: print usage and exit 0.
    Help,
    /// `--version`: print the build and exit 0.
    Version,
}

/// Frames rendered before a screenshot is taken when `--frames` is not given.
pub const DEFAULT_SCREENSHOT_FRAMES: u32 = 30;
/// Updates run by `--headless` when `--frames` is not given.
pub const DEFAULT_HEADLESS_FRAMES: u32 = 10;

pub const USAGE: &str = "\
usage: warbound [--scenario S]
       warbound --headless [--frames N] [--scenario S]
       warbound --screenshot OUT.png [--frames N] [--scenario S]
       warbound --help | --version

  (no flags)          open the game window at the title screen
  --scenario S        start straight into battle scenario S: a built-in name
                      (see --list-scenarios) or a path to a .ron file
  --list-scenarios    print the built-in scenarios and exit
  --headless          run without a window or GPU
  --screenshot OUT    render N frames in a window, save OUT as PNG, exit
  --frames N          frames to run (headless default 10, screenshot default 30)
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
            "--list-scenarios" => query = Some(Query::ListScenarios),
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
            other if other.starts_with('-') => return Err(UsageError(format!("unknown flag {other:?}"))),
            other => return Err(UsageError(format!("unexpected argument {other:?}"))),
        }
    }
    if headless && screenshot.is_some() {
        return Err(UsageError("--headless and --screenshot cannot be used together".into()));
    }
    let mode = match (headless, screenshot) {
        (true, _) => Mode::Headless { frames: frames.unwrap_or(DEFAULT_HEADLESS_FRAMES), scenario },
        (false, Some(path)) => {
            if path.extension().is_none_or(|e| !e.eq_ignore_ascii_case("png")) {
                return Err(UsageError(format!("--screenshot writes a PNG: give a path ending in .png, not {path:?}")));
            }
            Mode::Screenshot { path, frames: frames.unwrap_or(DEFAULT_SCREENSHOT_FRAMES), scenario }
        }
        (false, None) => {
            if frames.is_some() {
                return Err(UsageError("--frames only applies to --headless or --screenshot".into()));
            }
            Mode::Play { scenario }
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
    fn no_flags_plays() {
        assert_eq!(mode(&[]), Ok(Mode::Play { scenario: None }));
    }

    #[test]
    fn screenshot_with_frames_and_scenario() {
        assert_eq!(
            mode(&["--screenshot", "out.png", "--frames=12", "--scenario", "patrol"]),
            Ok(Mode::Screenshot { path: "out.png".into(), frames: 12, scenario: Some("patrol".into()) })
        );
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
    fn list_scenarios_is_a_query() {
        assert_eq!(parse(["--list-scenarios"]).map(|(_, q)| q), Ok(Some(Query::ListScenarios)));
    }
}
