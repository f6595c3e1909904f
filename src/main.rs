//! The `warbound` binary: parse the command line, hand over to the library.

use std::process::ExitCode;

fn main() -> ExitCode {
    match warbound::cli::parse(std::env::args().skip(1)) {
        Ok((mode, query)) => warbound::run(mode, query),
        Err(usage) => {
            eprintln!("{usage}");
            ExitCode::from(2)
        }
    }
}
