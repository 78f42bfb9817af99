//! Writing ranks back into a TRF file (`tb eval --write-trf`): the input's
//! bytes, with the rank column of each ranked participant's record set to
//! the rank computed, and every other byte as it was.
//!
//! In: the file's bytes as read (TRF files are often Latin-1, so bytes, not
//! text) and the rank of each participant by id (its starting number; a
//! team's pairing number). Out: the bytes to write. The columns are the
//! loader's (module `trf`): `001` rank 86-89, `310` team rank 69-71, counted
//! in characters where the line is UTF-8 and its points column sits there,
//! else in bytes. It lives beside the loader so that one folder holds the
//! TRF layout; it ranks nothing and imports no later stage.
//!
//! TRF-26 declares tie-breaks by name only (records `202`/`212`): it has no
//! per-participant field for their values, so only ranks are written.

/// What the writer changed: how many records got a rank.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// Records whose rank column was set.
    pub ranked: usize,
    /// Records of the kind ranked whose participant has no rank given.
    pub unranked: usize,
}

/// `bytes` with the ranks `rank_of(id)` in the rank column of the records
/// that carry the ranked participants: `310` team records when `team`,
/// `001` player lines otherwise. An error in words when a rank does not fit
/// its column or a team file has no `310` records.
pub fn write_ranks(
    bytes: &[u8],
    team: bool,
    rank_of: &dyn Fn(&str) -> Option<usize>,
) -> Result<(Vec<u8>, Written), String> {
    // (tag, id columns, rank columns), 1-based and inclusive.
    let (tag, id_cols, rank_cols): (&[u8], (usize, usize), (usize, usize)) = if team {
        (b"310", (5, 7), (69, 71))
    } else {
        (b"001", (5, 8), (86, 89))
    };
    let width = rank_cols.1 - rank_cols.0 + 1;
    let mut out = Vec::with_capacity(bytes.len() + 64);
    let mut written = Written::default();
    let mut pos = 0;
    while pos < bytes.len() {
        let (end, next) = line_end(bytes, pos);
        let line = &bytes[pos..end];
        if !line.starts_with(tag) {
            out.extend_from_slice(&bytes[pos..next]);
            pos = next;
            continue;
        }
        let cols = columns(line, team);
        let id = field(line, &cols, id_cols).trim().to_string();
        let Some(rank) = rank_of(&id) else {
            written.unranked += 1;
            out.extend_from_slice(&bytes[pos..next]);
            pos = next;
            continue;
        };
        let text = format!("{rank:>width$}");
        if text.len() > width {
            return Err(format!(
                "rank {rank} of {id} does not fit the {width} columns of the rank field"
            ));
        }
        let (a, b) = (
            offset(line, &cols, rank_cols.0 - 1),
            offset(line, &cols, rank_cols.1),
        );
        out.extend_from_slice(&line[..a]);
        // A short line is padded with blanks up to the rank field.
        let missing = (rank_cols.0 - 1).saturating_sub(cols.len());
        out.extend(std::iter::repeat_n(b' ', missing));
        out.extend_from_slice(text.as_bytes());
        out.extend_from_slice(&line[b..]);
        out.extend_from_slice(&bytes[end..next]);
        written.ranked += 1;
        pos = next;
    }
    if team && written.ranked + written.unranked == 0 {
        return Err("its teams have no 310 records, and 013 records have no rank column".into());
    }
    Ok((out, written))
}

/// The end of the line starting at `pos` (before its break) and the start
/// of the next: breaks are `\n`, `\r\n` or a lone `\r`, as the loader reads them.
fn line_end(bytes: &[u8], pos: usize) -> (usize, usize) {
    let rest = &bytes[pos..];
    match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
        None => (bytes.len(), bytes.len()),
        Some(i) if rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n') => (pos + i, pos + i + 2),
        Some(i) => (pos + i, pos + i + 1),
    }
}

/// The byte offset where each column of `line` starts: characters when
/// the line is UTF-8 with multi-byte characters and its points column
/// (`001` 81-84, `310` 55-60) reads as a number or blank that way; bytes
/// otherwise (ASCII, Latin-1, or a writer that padded names by bytes).
fn columns(line: &[u8], team: bool) -> Vec<usize> {
    let bytewise: Vec<usize> = (0..line.len()).collect();
    let Ok(text) = std::str::from_utf8(line) else {
        return bytewise;
    };
    if text.is_ascii() {
        return bytewise;
    }
    let chars: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    let points = if team { (55, 60) } else { (81, 84) };
    let fits = |cols: &Vec<usize>| {
        let f = field(line, cols, points);
        let t = f.trim();
        t.is_empty() || t.parse::<f64>().is_ok()
    };
    if fits(&chars) || !fits(&bytewise) {
        chars
    } else {
        bytewise
    }
}

/// The byte offset of 0-based column `c` (the line's end past it).
fn offset(line: &[u8], cols: &[usize], c: usize) -> usize {
    cols.get(c).copied().unwrap_or(line.len())
}

/// Columns `c1..=c2` (1-based) as text (Latin-1 bytes as their characters).
fn field(line: &[u8], cols: &[usize], (c1, c2): (usize, usize)) -> String {
    let (a, b) = (offset(line, cols, c1 - 1), offset(line, cols, c2));
    match std::str::from_utf8(&line[a..b]) {
        Ok(s) => s.to_string(),
        Err(_) => line[a..b].iter().map(|&b| b as char).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranks(id: &str) -> Option<usize> {
        match id {
            "1" => Some(2),
            "2" => Some(1),
            _ => None,
        }
    }

    #[test]
    fn only_the_rank_columns_change() {
        let a = format!("{:<85}{:>4}  rest\r\n", "001    1      Alice", 1);
        let b = format!("{:<85}{:>4}\n", "001    2      Bob", 2);
        let input = format!("012 Event\r\n{a}{b}### end");
        let (out, w) = write_ranks(input.as_bytes(), false, &ranks).unwrap();
        let want = input
            .replacen(&format!("{:>4}  rest", 1), &format!("{:>4}  rest", 2), 1)
            .replacen(&format!("{:>4}\n", 2), &format!("{:>4}\n", 1), 1);
        assert_eq!(String::from_utf8(out).unwrap(), want);
        assert_eq!(
            w,
            Written {
                ranked: 2,
                unranked: 0
            }
        );
    }

    #[test]
    fn latin1_and_short_lines() {
        // A Latin-1 name (one byte per column) and a line that ends at the name.
        let mut input = b"001    1      M\xfcller".to_vec();
        input.extend(std::iter::repeat_n(b' ', 85 - input.len()));
        input.extend_from_slice(b"   9\n001    2      Bob\n");
        let (out, _) = write_ranks(&input, false, &ranks).unwrap();
        let lines: Vec<&[u8]> = out.split(|&b| b == b'\n').collect();
        assert_eq!(&lines[0][85..89], b"   2");
        assert_eq!(&lines[0][..20], &input[..20]);
        assert_eq!(lines[1].len(), 89);
        assert_eq!(&lines[1][85..89], b"   1");
    }
}
