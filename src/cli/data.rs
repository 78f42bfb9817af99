//! The event's data file read from disk or standard input (never more
//! than [`MAX_DATA_BYTES`]) and loaded.

use tb::codes;
use tb::diag::{Diag, Source};

/// Largest data file read.
const MAX_DATA_BYTES: u64 = 200 * 1024 * 1024;

/// Load the event in file `path`, with at most `threads` threads (default:
/// one per core).
pub fn load_data(path: &str, threads: Option<usize>) -> Result<tb::model::Event, Diag> {
    let bytes = read_data(path)?;
    load_bytes(path, bytes, threads)
}

/// The bytes of the data file `path` (`-`: standard input), read once and
/// never more than one byte past [`MAX_DATA_BYTES`]: a device such as
/// /dev/zero reports no size and never ends.
pub fn read_data(path: &str) -> Result<Vec<u8>, Diag> {
    use std::io::Read as _;
    let shown = if path == "-" { "<stdin>" } else { path };
    let too_large = || {
        Diag::error(
            codes::LOAD_TOO_LARGE,
            format!("{shown} is larger than 200 MB"),
        )
    };
    let mut bytes = Vec::new();
    if path == "-" {
        // Standard input: the format is told by the text (`Format::detect`).
        std::io::stdin()
            .take(MAX_DATA_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Diag::error(codes::LOAD_IO, format!("cannot read standard input: {e}")))?;
    } else {
        let meta = std::fs::metadata(path).map_err(|e| {
            Diag::error(codes::LOAD_IO, format!("cannot read {path}: {e}"))
                .with_help("give the path of a .toml, .json or .trf file")
        })?;
        if meta.len() > MAX_DATA_BYTES {
            return Err(too_large());
        }
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_DATA_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|e| Diag::error(codes::LOAD_IO, format!("cannot read {path}: {e}")))?;
    }
    if bytes.len() as u64 > MAX_DATA_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Load the event in `bytes`, read from `path` (`-`: standard input).
pub fn load_bytes(
    path: &str,
    bytes: Vec<u8>,
    threads: Option<usize>,
) -> Result<tb::model::Event, Diag> {
    let path = if path == "-" { "<stdin>" } else { path };
    // TRF and CSV files are often Windows-1252, USEBIO ones declare theirs.
    let tb::load::decode::Decoded { text, read_as } = tb::load::decode::decode(bytes);
    let source = Source::new(path.to_string(), text);
    let mut ev = tb::load::load_with(&source, threads.unwrap_or_else(tb::par::default_threads))?;
    read_as.tell(&mut ev);
    Ok(ev)
}
