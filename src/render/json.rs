//! The JSON document (`--format json`, a stable contract: the README and
//! `schema/eval.schema.json` describe it): the [`Report`] serialised by
//! serde_json, pretty-printed, with a final line break.

use super::Report;
use std::io;

/// Writes the document.
pub(super) fn write(r: &Report, out: &mut dyn io::Write) -> io::Result<()> {
    // One buffer, sized for the rows, written at once: serde_json's many
    // small writes would each be a call through `out`.
    let mut text = Vec::with_capacity(1024 + r.standings.len() * (320 + 80 * r.columns.len()));
    serde_json::to_writer_pretty(&mut text, r)?;
    text.push(b'\n');
    out.write_all(&text)
}
