//! The command line's own parts: each command's body (`<command>.rs`),
//! and what the library leaves to its caller: reading data and ruleset
//! files from disk, rewriting them (`tb fmt`, `--write-trf`), printing.

/// Print to standard output. A closed pipe (`tb eval ... | head`) ends the
/// program quietly instead of panicking; another write error is reported.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout().lock(), $($arg)*) {
            $crate::cli::output_failed(e);
        }
    }};
}

/// Ends the program when standard output cannot be written (see [`out!`]).
pub fn output_failed(e: std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("tb: cannot write the output: {e}");
    std::process::exit(1);
}

/// [`out!`] with a line break.
macro_rules! outln {
    ($($arg:tt)*) => {{
        out!($($arg)*);
        out!("\n");
    }};
}

pub mod category;
pub mod check;
pub mod data;
pub mod diagnostics;
pub mod doc;
pub mod eval;
pub mod explain;
pub mod files;
pub mod fmt;
pub mod list;
pub mod manual;
pub mod prepare;
pub mod roles;
pub mod rules;
pub mod test;
pub mod trf_out;
pub mod verify;
pub mod write;
