//! `tb eval ... --write-trf OUT.trf`: the input TRF file written again with
//! the computed ranks in its rank column, for the rating report. The bytes
//! are rewritten by `tb::load::trf::write` (beside the TRF loader, which
//! owns the layout); this module checks the request and writes the file.
//! The input is read once, before ranking (`accepts`, with the CLI's
//! bounded reader): the event is loaded from those bytes and they are
//! what is copied.
//!
//! In: the data argument, the output path, the event and its standings.
//! Out: the file written (whole, through a temporary file beside it:
//! [`crate::cli::write`]), and a note for standard error; a diagnostic
//! (`tb::cli::write_trf`) when the input is not a TRF file (exit 2), or
//! (`tb::cli::write_failed`) when the output cannot be written (exit 3).

use crate::cli::write::{replace, same_file, seen, Seen, WriteError};
use std::collections::HashMap;
use std::path::Path;
use tb::codes;
use tb::diag::Diag;
use tb::load::Format;
use tb::model::{Event, Kind};
use tb::rank::Standings;

/// Refuse before ranking when the data is not a TRF file read from a path,
/// or the output would overwrite it; else the data's bytes, read by `read`
/// (which stops past the size limit), and what OUT is now (None: no file
/// there yet), for [`write`] to check that nothing changed it meanwhile.
pub fn accepts(
    data: &str,
    out: &str,
    read: impl FnOnce(&str) -> Result<Vec<u8>, Diag>,
) -> Result<(Vec<u8>, Option<Seen>), Diag> {
    let refuse = |why: String, help: &str| {
        Err(Diag::error(codes::CLI_WRITE_TRF, format!("--write-trf {out}: {why}")).with_help(help))
    };
    if data == "-" {
        return refuse(
            "the event was read from standard input".into(),
            "give the TRF file by its path: its bytes are copied into OUT.trf",
        );
    }
    // By device and inode: a hard link to the input is the input.
    if same_file(Path::new(data), Path::new(out)) {
        return refuse(
            format!("{out} is the input file"),
            "write the ranked copy to another file; the input stays as it was",
        );
    }
    // What OUT is before the data is read: whatever changes it from now on
    // is someone else's.
    let before = seen(Path::new(out)).map_err(|e| {
        Diag::error(codes::CLI_WRITE_FAILED, format!("cannot write {out}: {e}"))
            .with_help("give a path in a folder you can write to")
    })?;
    let bytes = read(data);
    // A file that cannot be read is told by its name alone.
    let text: String = bytes
        .as_deref()
        .unwrap_or_default()
        .iter()
        .map(|&b| b as char)
        .collect();
    if Format::detect(data, &text) != Some(Format::Trf) {
        return refuse(
            format!("{data} is not a TRF file"),
            "--write-trf copies a TRF file (.trf, .txt) with the computed ranks; for other data use --format json or csv",
        );
    }
    let bytes = bytes?;
    Ok((bytes, before))
}

/// Write `bytes`, the file `data`, with the computed ranks to `out`, whole
/// or not at all, and not if `out` is no longer what it was (`before`, from
/// [`accepts`]); the note says what was written.
pub fn write(
    data: &str,
    bytes: &[u8],
    out: &str,
    before: Option<&Seen>,
    event: &Event,
    st: &Standings,
) -> Result<String, Diag> {
    let ranks: HashMap<&str, usize> = st
        .rows
        .iter()
        .map(|r| (event.participants[r.pid].id.as_str(), r.rank))
        .collect();
    let team = event.kind == Kind::Team;
    let (text, written) =
        tb::load::trf::write::write_ranks(bytes, team, &|id| ranks.get(id).copied()).map_err(
            |why| {
                Diag::error(
                    codes::CLI_WRITE_TRF,
                    format!("--write-trf {out}: {data}: {why}"),
                )
            },
        )?;
    replace(Path::new(out), before, &text).map_err(|e| match e {
        WriteError::Changed => Diag::error(
            codes::CLI_FILE_CHANGED,
            format!("--write-trf {out}: the file changed on disk while the event was ranked: left as it is"),
        )
        .with_help("run again, or write the ranked copy to another file"),
        WriteError::Io(e) => Diag::error(
            codes::CLI_WRITE_FAILED,
            format!("cannot write {out}: {e} (nothing was written)"),
        )
        .with_help("give a path in a folder you can write to"),
    })?;
    let what = if team { "team (310)" } else { "player (001)" };
    let mut note = format!(
        "wrote {out}: {data} with the computed rank of {} {what} records",
        written.ranked
    );
    if written.unranked > 0 {
        note.push_str(&format!(
            "; {} not ranked, left as they were",
            written.unranked
        ));
    }
    Ok(note)
}
