//! `tb completions SHELL` and `tb man`: generated from the clap definition
//! of the command line, so they never disagree with `--help`.
//!
//! In: the command line's definition (`Cli::command()`). Out: the text to
//! print.

/// A completion script for `shell`.
pub fn completions(shell: clap_complete::Shell, mut cmd: clap::Command) -> String {
    let mut text = Vec::new();
    clap_complete::generate(shell, &mut cmd, "tb", &mut text);
    String::from_utf8_lossy(&text).into_owned()
}

/// The manual page, in roff.
pub fn man(cmd: clap::Command) -> String {
    let mut text = Vec::new();
    // Rendering into memory cannot fail.
    let _ = clap_mangen::Man::new(cmd).render(&mut text);
    String::from_utf8_lossy(&text).into_owned()
}
