//! The JSON document (`--format json`, a stable contract: the README and
//! `schema/eval.schema.json` describe it): the [`Report`] serialised by
//! serde_json, pretty-printed as `serde_json::to_writer_pretty` prints it,
//! with a final line break.

use super::Report;
use serde::Serialize;
use serde_json::ser::Formatter;
use std::io;

/// Writes the document.
pub(super) fn write(r: &Report, out: &mut dyn io::Write) -> io::Result<()> {
    // One buffer, sized for the rows, written at once: serde_json's many
    // small writes would each be a call through `out`.
    let mut text = Vec::with_capacity(1024 + r.standings.len() * (320 + 80 * r.columns.len()));
    let mut ser = serde_json::Serializer::with_formatter(&mut text, Pretty::default());
    r.serialize(&mut ser)?;
    text.push(b'\n');
    out.write_all(&text)
}

/// A line break and the indentation of up to [`MAX_DEPTH`] levels.
const LINE: &[u8; 1 + 2 * MAX_DEPTH] = &{
    let mut line = [b' '; 1 + 2 * MAX_DEPTH];
    line[0] = b'\n';
    line
};
const MAX_DEPTH: usize = 16;

/// `serde_json::ser::PrettyFormatter`'s layout (two spaces a level), with
/// a line's break and indentation written at once rather than a write per
/// level: at 10,000 rows of a dozen values that is most of the writes.
#[derive(Default)]
struct Pretty {
    depth: usize,
    has_value: bool,
}

impl Pretty {
    fn line<W: ?Sized + io::Write>(&self, w: &mut W) -> io::Result<()> {
        let n = self.depth.min(MAX_DEPTH);
        w.write_all(&LINE[..1 + 2 * n])?;
        for _ in n..self.depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn open<W: ?Sized + io::Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    fn close<W: ?Sized + io::Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.line(w)?;
        }
        w.write_all(bracket)
    }

    fn item<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        self.line(w)
    }
}

impl Formatter for Pretty {
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.item(w, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.item(w, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Laid out as serde_json's pretty printer lays it out, deep or not.
    #[test]
    fn the_layout_is_serde_jsons() {
        let mut deep = serde_json::json!([]);
        for k in 0..20 {
            deep = serde_json::json!({ "k": k, "empty": {}, "none": [], "in": [deep, "x\n"] });
        }
        let mut ours = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut ours, Pretty::default());
        deep.serialize(&mut ser).unwrap();
        assert_eq!(
            String::from_utf8(ours).unwrap(),
            serde_json::to_string_pretty(&deep).unwrap()
        );
    }
}
