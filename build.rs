//! Embeds the game's data files in the binary so it runs from any directory.
//!
//! Every `*.ron` file under `assets/` and `scenarios/` is listed in
//! `$OUT_DIR/embedded.rs` as `(relative path, include_str!(...))`, and each
//! file and folder is registered with `rerun-if-changed`, so editing, adding
//! or removing a data file rebuilds the table. The build's identity (package
//! version and, where the source is a git checkout, the short commit) is
//! exported as `WARBOUND_BUILD` for the window title and version label.

use std::{
    env, fs,
    path::{Path, PathBuf},
    process::Command,
};

const DATA_DIRS: [&str; 2] = ["assets", "scenarios"];

fn main() {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in DATA_DIRS {
        let path = root.join(dir);
        println!("cargo:rerun-if-changed={}", path.display());
        collect(&root, &path, &mut files);
    }
    files.sort();

    let mut out = String::from(
        "/// Data files built into the binary: (path relative to the repository, contents).\n\
         pub static EMBEDDED: &[(&str, &str)] = &[\n",
    );
    for (rel, abs) in &files {
        println!("cargo:rerun-if-changed={}", abs.display());
        out.push_str(&format!("    ({rel:?}, include_str!({:?})),\n", abs.display().to_string()));
    }
    out.push_str("];\n");
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out_dir.join("embedded.rs"), out).expect("write embedded.rs");

    let version = env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let build = match git_commit(&root) {
        Some(commit) => format!("{version}+{commit}"),
        None => version,
    };
    println!("cargo:rustc-env=WARBOUND_BUILD={build}");
    // Re-run when the checked-out commit moves: HEAD and the branch it names.
    let head = root.join(".git/HEAD");
    if let Ok(text) = fs::read_to_string(&head) {
        println!("cargo:rerun-if-changed={}", head.display());
        if let Some(reference) = text.trim().strip_prefix("ref: ") {
            let reference = root.join(".git").join(reference);
            if reference.exists() {
                println!("cargo:rerun-if-changed={}", reference.display());
            }
        }
    }
}

/// Walks `dir`, collecting every `.ron` file as (path relative to `root`, absolute path).
fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            println!("cargo:rerun-if-changed={}", path.display());
            collect(root, &path, files);
        } else if path.extension().is_some_and(|e| e == "ron") {
            let rel = path.strip_prefix(root).expect("under root");
            let rel = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            files.push((rel, path));
        }
    }
}

fn git_commit(root: &Path) -> Option<String> {
    let out = Command::new("git").args(["rev-parse", "--short=8", "HEAD"]).current_dir(root).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned()).filter(|s| !s.is_empty())
}
