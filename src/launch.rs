//! What the launch of the process hands the screens: the build, when it
//! started, a screenshot asked for on the command line, and messages for the
//! player gathered before the window opened.

use std::{path::PathBuf, time::Instant};

use bevy::prelude::*;

/// The build: package version and, for a git checkout, the short commit.
pub const BUILD: &str = env!("WARBOUND_BUILD");

/// When the process started, to report the time to the first frame.
#[derive(Resource, Debug, Clone, Copy)]
pub struct LaunchTime(pub Instant);

/// `--screenshot`: save a PNG of the window after `frames` frames.
#[derive(Resource, Debug, Clone)]
pub struct ScreenshotRequest {
    pub path: PathBuf,
    pub frames: u32,
}

/// Messages for the player gathered before the window opened (bad settings file…).
#[derive(Resource, Debug, Default, Clone)]
pub struct Notices(pub Vec<String>);
