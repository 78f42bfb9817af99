//! Standings and traces → text: table, JSON (a stable contract), CSV, Markdown, HTML.
//!
//! Every format is written straight into one pre-sized buffer: an event of
//! 10,000 participants prints 10,000 rows, and a `String` per cell, a
//! `format!` per value or a JSON tree per row cost far more than the
//! evaluation that produced them. Numbers are printed by a 64-bit fast path
//! that gives exactly the text of `Value::display` (the tests below compare
//! the two); anything outside it goes through `Value::display` itself.

use crate::eval::{compare_values, Value};
use crate::model::{Event, Pid};
use crate::num::Num;
use crate::plan::Ruleset;
use crate::rank::{Decided, Outcome, Standings, TraceStep};
use crate::syntax::ast::Direction;
use serde_json::{json, Map, Value as Json};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::ops::Range;

/// Output formats of `tb eval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned text table.
    Table,
    /// JSON (documented schema).
    Json,
    /// Comma-separated values.
    Csv,
    /// A Markdown table.
    Markdown,
    /// An HTML table.
    Html,
}

/// What the header of an output says about the ruleset.
#[derive(Clone, Debug, Default)]
pub struct Meta {
    /// The name the user gave (`cards/swiss`, a path, or `--tiebreaks ...`).
    pub ruleset: String,
    /// Extra notes to print (edition chosen, warnings).
    pub notes: Vec<String>,
}

/// Text being written, held as bytes: appending a few ASCII digits to a
/// `String` costs a UTF-8 check or a push per character, to a `Vec<u8>` one
/// copy. Only `str`s, `char`s and ASCII digits go in, so it is UTF-8.
#[derive(Default)]
struct Out(Vec<u8>);

impl Out {
    fn with_capacity(n: usize) -> Out {
        Out(Vec::with_capacity(n))
    }

    fn push_str(&mut self, s: &str) {
        self.0.extend_from_slice(s.as_bytes());
    }

    fn push(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn truncate(&mut self, len: usize) {
        self.0.truncate(len);
    }

    fn into_string(self) -> String {
        // Never lossy: see the type.
        String::from_utf8(self.0).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into())
    }
}

impl fmt::Write for Out {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_str(s);
        Ok(())
    }
}

/// The text last written for a key, copied when the next row has the same
/// key: consecutive rows are mostly decided by the same criterion, so its
/// text need not be checked for escaping and written again.
struct Repeat<K> {
    key: Option<K>,
    text: Range<usize>,
}

impl<K: PartialEq> Repeat<K> {
    fn new() -> Repeat<K> {
        Repeat {
            key: None,
            text: 0..0,
        }
    }

    fn write(&mut self, out: &mut Out, key: K, write: impl FnOnce(&mut Out, &K)) {
        let start = out.len();
        if self.key.as_ref() == Some(&key) {
            out.0.extend_from_within(self.text.clone());
        } else {
            write(out, &key);
            self.key = Some(key);
        }
        self.text = start..out.len();
    }
}

/// Whether row `i` shares its place. Rows are in rank order, so a shared
/// place has a neighbour with the same rank (constant time: output stays
/// linear in the number of participants).
fn is_shared(s: &Standings, i: usize) -> bool {
    let r = s.rows[i].rank;
    (i > 0 && s.rows[i - 1].rank == r) || s.rows.get(i + 1).is_some_and(|x| x.rank == r)
}

/// The ruleset's title, or the name the user gave it.
fn title<'a>(rs: &'a Ruleset, meta: &'a Meta) -> &'a str {
    rs.title.as_deref().unwrap_or(&meta.ruleset)
}

/// Most decimal places the 64-bit fast path handles (10^18 < 2^63).
const FAST_PLACES: u32 = 18;

/// 10^k for every k up to [`FAST_PLACES`] (a load, not a loop).
const POW10: [u64; FAST_PLACES as usize + 1] = {
    let mut p = [1u64; FAST_PLACES as usize + 1];
    let mut k = 1;
    while k < p.len() {
        p[k] = p[k - 1] * 10;
        k += 1;
    }
    p
};

/// "00" to "99": the integer part is written two digits per division.
const PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// Decimal text in parts: `-int.frac`, `frac` zero-padded to `places` digits.
#[derive(Clone, Copy, Debug)]
struct Fixed {
    neg: bool,
    int: u64,
    frac: u64,
    places: u32,
}

impl Fixed {
    /// A whole number.
    fn int(v: u64) -> Fixed {
        Fixed {
            neg: false,
            int: v,
            frac: 0,
            places: 0,
        }
    }

    /// `n` rounded to `places` places the way `Num::to_fixed` rounds it (floor
    /// quotient; a remainder above half rounds up, exactly half away from
    /// zero), or `None` if that does not fit in 64 bits.
    fn round(n: Num, places: u32) -> Option<Fixed> {
        if places > FAST_PLACES {
            return None;
        }
        let num = i64::try_from(n.numer()).ok()?;
        let den = i64::try_from(n.denom()).ok().filter(|&d| d > 0)?;
        if den == 1 {
            // A whole number: its digits, then zeros.
            return Some(Fixed {
                neg: num < 0,
                int: num.unsigned_abs(),
                frac: 0,
                places,
            });
        }
        let scale = POW10[places as usize] as i64;
        let scaled = num.checked_mul(scale)?;
        let (q, r) = (scaled.div_euclid(den), scaled.rem_euclid(den));
        // 2r against den, written so that nothing can overflow.
        let rounded = match r.cmp(&(den - r)) {
            Ordering::Greater => q + 1,
            Ordering::Less => q,
            Ordering::Equal => q + i64::from(scaled >= 0),
        };
        let (abs, scale) = (rounded.unsigned_abs(), scale.unsigned_abs());
        Some(Fixed {
            neg: rounded < 0,
            int: abs / scale,
            frac: abs % scale,
            places,
        })
    }

    fn push(self, out: &mut Out) {
        // Back to front into a stack buffer, appended at once.
        let mut buf = [0u8; 1 + 20 + 1 + FAST_PLACES as usize];
        let mut i = buf.len();
        let mut f = self.frac;
        for _ in 0..self.places {
            i -= 1;
            buf[i] = b'0' + (f % 10) as u8;
            f /= 10;
        }
        if self.places > 0 {
            i -= 1;
            buf[i] = b'.';
        }
        let mut v = self.int;
        while v >= 100 {
            let d = (v % 100) as usize * 2;
            v /= 100;
            i -= 2;
            buf[i..i + 2].copy_from_slice(&PAIRS[d..d + 2]);
        }
        if v >= 10 {
            let d = v as usize * 2;
            i -= 2;
            buf[i..i + 2].copy_from_slice(&PAIRS[d..d + 2]);
        } else {
            i -= 1;
            buf[i] = b'0' + v as u8;
        }
        if self.neg {
            i -= 1;
            buf[i] = b'-';
        }
        out.0.extend_from_slice(&buf[i..]);
    }
}

/// A number as it reads exactly (`Num`'s `Display`).
enum Exact {
    /// A terminating decimal, in its shortest form.
    Decimal(Fixed),
    /// `num/den` (negative when `neg`): the decimal would not terminate.
    Fraction { neg: bool, num: u64, den: u64 },
}

impl Exact {
    /// `None` if it does not fit the 64-bit fast path.
    fn of(n: Num) -> Option<Exact> {
        let num = i64::try_from(n.numer()).ok()?;
        let den = u64::try_from(n.denom()).ok().filter(|&d| d > 0)?;
        let (neg, abs) = (num < 0, num.unsigned_abs());
        if den == 1 {
            let whole = Fixed {
                neg,
                int: abs,
                frac: 0,
                places: 0,
            };
            return Some(Exact::Decimal(whole));
        }
        // A reduced fraction terminates iff its denominator is 2^a 5^b.
        let twos = den.trailing_zeros();
        let (mut rest, mut fives) = (den >> twos, 0);
        while rest % 5 == 0 {
            rest /= 5;
            fives += 1;
        }
        if rest != 1 {
            return Some(Exact::Fraction { neg, num: abs, den });
        }
        let places = twos.max(fives);
        if places > FAST_PLACES {
            return None;
        }
        // `den` divides 10^places: the decimal is exact, nothing to round.
        let mult = POW10[places as usize] / den;
        Some(Exact::Decimal(Fixed {
            neg,
            int: abs / den,
            frac: abs % den * mult,
            places,
        }))
    }
}

/// How `Value::display` shows the number `n`, by the 64-bit fast path
/// (`None` outside it), and whether that is also its exact text (`Display`).
fn shown(n: Num, decimals: Option<u32>) -> Option<(Fixed, bool)> {
    match decimals {
        Some(places) => Some((Fixed::round(n, places)?, false)),
        None => match Exact::of(n)? {
            Exact::Decimal(d) => Some((d, true)),
            // Not a terminating decimal: four places, as `Value::display`.
            Exact::Fraction { .. } => Some((Fixed::round(n, 4)?, false)),
        },
    }
}

/// Appends `v` as `Value::display` shows it: a number by the fast path, other
/// text through `text`, which escapes it as the format needs (digits never
/// need it). False, having written nothing, where it shows nothing.
fn push_value(out: &mut Out, v: &Value, decimals: Option<u32>, text: fn(&mut Out, &str)) -> bool {
    if let Some((f, _)) = match v {
        Value::Num(n) => shown(*n, decimals),
        _ => None,
    } {
        f.push(out);
        return true;
    }
    match v.display(decimals) {
        Some(shown) => {
            text(out, &shown);
            true
        }
        None => false,
    }
}

/// A value as the table, Markdown, HTML and `explain` show it (`-` if undefined).
fn push_cell(out: &mut Out, v: &Value, decimals: Option<u32>) {
    if !push_value(out, v, decimals, Out::push_str) {
        out.push('-');
    }
}

/// Appends a cell as [`push_cell`] does, with `more` digits where given.
fn push_cell_more(out: &mut Out, v: &Value, decimals: Option<u32>, more: Option<More>) {
    match more {
        None => push_cell(out, v, decimals),
        Some(m) => match text_of(v, decimals, Some(m)) {
            Some(t) => out.push_str(&t),
            None => out.push('-'),
        },
    }
}

/// Appends `n`'s `Display` text: its exact decimal, else `p/q`.
fn push_exact(out: &mut Out, n: Num) {
    match Exact::of(n) {
        Some(Exact::Decimal(d)) => d.push(out),
        Some(Exact::Fraction { neg, num, den }) => {
            if neg {
                out.push('-');
            }
            Fixed::int(num).push(out);
            out.push('/');
            Fixed::int(den).push(out);
        }
        None => {
            let _ = write!(out, "{n}");
        }
    }
}

fn push_name(out: &mut Out, event: &Event, p: usize) {
    let p = &event.participants[p];
    out.push_str(&p.name);
    out.push_str(" (");
    out.push_str(&p.id);
    out.push(')');
}

fn push_names(out: &mut Out, event: &Event, group: &[usize], sep: &str) {
    for (k, &p) in group.iter().enumerate() {
        if k > 0 {
            out.push_str(sep);
        }
        push_name(out, event, p);
    }
}

/// Each undefined step value as a line of the table's, Markdown's and
/// HTML's notes: the criterion, the participants, why, and whether it
/// decided a place. Participants with the same cause share a line, with
/// the first one's whole account (every unrated player's rating
/// tie-breaks dropped under FIDE Art. 10 make one line, not one each).
/// Values past [`crate::rank::MAX_REASONS`] are counted.
pub fn undefined_notes(s: &Standings, event: &Event) -> Vec<String> {
    // (criterion, cause, decided) -> (first account, participants)
    let mut groups: Vec<(&str, &str, bool, &str, Vec<usize>)> = Vec::new();
    let mut unexplained = s.undefined_more;
    for u in &s.undefined {
        let (Some(reason), Some(cause)) = (&u.reason, &u.cause) else {
            unexplained += 1;
            continue;
        };
        match groups
            .iter_mut()
            .find(|g| g.0 == u.criterion && g.1 == cause && g.2 == u.decided)
        {
            Some(g) => g.4.push(u.pid),
            None => groups.push((&u.criterion, cause, u.decided, reason, vec![u.pid])),
        }
    }
    let mut lines = Vec::with_capacity(groups.len() + 1);
    for (criterion, cause, decided, reason, pids) in groups {
        let mut who = Out::default();
        let shown = pids.len().min(5);
        push_names(&mut who, event, &pids[..shown], ", ");
        if pids.len() > shown {
            let _ = write!(who, " and {} more", pids.len() - shown);
        }
        let placed = if decided {
            "; placed after those with a value"
        } else {
            ""
        };
        let line = if pids.len() == 1 {
            format!(
                "{criterion} of {}: undefined: {reason}{placed}",
                who.into_string()
            )
        } else {
            let mut first = Out::default();
            push_name(&mut first, event, pids[0]);
            format!(
                "{criterion} of {}: undefined: {cause}{placed} (for {}: {reason})",
                who.into_string(),
                first.into_string()
            )
        };
        lines.push(line);
    }
    if unexplained > 0 {
        lines.push(format!(
            "{unexplained} more undefined values, shown as `-` (only the first {} are explained)",
            crate::rank::MAX_REASONS
        ));
    }
    lines
}

/// The reason participant `p`'s value of `criterion` is undefined, if the
/// ranking met it.
pub fn undefined_reason<'a>(s: &'a Standings, p: usize, criterion: &str) -> Option<&'a str> {
    s.undefined
        .iter()
        .find(|u| u.pid == p && u.criterion == criterion)
        .and_then(|u| u.reason.as_deref())
}

/// What decided row `i`'s place, as the table, CSV, Markdown and HTML say
/// it, in pieces to be joined.
fn decided(s: &Standings, i: usize) -> [&str; 4] {
    let row = &s.rows[i];
    if let Some(u) = &row.unresolved {
        return ["unresolved: ", u, "", ""];
    }
    if is_shared(s, i) {
        return ["shared", "", "", ""];
    }
    match &row.decided_by {
        Some(d) => match &d.cite {
            Some(c) => [&d.criterion, " (", c, ")"],
            None => [&d.criterion, "", "", ""],
        },
        None => ["", "", "", ""],
    }
}

/// A CSV field made of `parts`: quoted, quotes doubled, if it has a comma,
/// quote or line break.
fn push_csv_joined(out: &mut Out, parts: &[&str]) {
    let special = |p: &&str| p.bytes().any(|b| matches!(b, b',' | b'"' | b'\n'));
    if !parts.iter().any(special) {
        parts.iter().for_each(|p| out.push_str(p));
        return;
    }
    out.push('"');
    for p in parts {
        if p.contains('"') {
            out.push_str(&p.replace('"', "\"\""));
        } else {
            out.push_str(p);
        }
    }
    out.push('"');
}

fn push_csv(out: &mut Out, text: &str) {
    push_csv_joined(out, &[text]);
}

/// The inside of a JSON string, escaped as serde_json escapes it.
fn push_json_chars(out: &mut Out, text: &str) {
    if text.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        // Rare: serde_json's own escaping, without its quotes.
        let quoted = Json::from(text).to_string();
        out.push_str(&quoted[1..quoted.len() - 1]);
    } else {
        out.push_str(text);
    }
}

fn push_json_str(out: &mut Out, text: &str) {
    out.push('"');
    push_json_chars(out, text);
    out.push('"');
}

fn push_json_opt(out: &mut Out, text: Option<&str>) {
    match text {
        Some(t) => push_json_str(out, t),
        None => out.push_str("null"),
    }
}

/// `v`'s display text as a JSON string, or null where it has none.
fn push_json_value(out: &mut Out, v: &Value, decimals: Option<u32>) {
    let start = out.len();
    out.push('"');
    if push_value(out, v, decimals, push_json_chars) {
        out.push('"');
    } else {
        out.truncate(start);
        out.push_str("null");
    }
}

fn push_markdown(out: &mut String, text: &str) {
    if text.contains('|') {
        out.push_str(&text.replace('|', "\\|"));
    } else {
        out.push_str(text);
    }
}

fn push_html(out: &mut String, text: &str) {
    if !text.bytes().any(|b| matches!(b, b'&' | b'<' | b'>' | b'"')) {
        out.push_str(text);
        return;
    }
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// Render standings in a format.
pub fn render(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta, fmt: Format) -> String {
    match fmt {
        Format::Table => table(s, event, rs, meta),
        Format::Json => json_text(s, event, rs, meta),
        Format::Csv => csv(s, event),
        Format::Markdown => markdown(s, event, rs, meta),
        Format::Html => html(s, event, rs, meta),
    }
}

/// The cells of the table, Markdown and HTML outputs, header row first, in
/// one string (rather than a `String` per cell).
struct Cells {
    text: String,
    /// Cell `k` is `text[bounds[k]..bounds[k + 1]]`.
    bounds: Vec<usize>,
    /// Row `r` is cells `rows[r]..rows[r + 1]`.
    rows: Vec<usize>,
}

impl Cells {
    fn new(s: &Standings, event: &Event) -> Cells {
        let more = table_more(s);
        let per_row = s.columns.len() + 3;
        let mut text = Out::with_capacity((s.rows.len() + 1) * (32 + 8 * per_row));
        let mut bounds = Vec::with_capacity((s.rows.len() + 1) * per_row + 1);
        let mut rows = Vec::with_capacity(s.rows.len() + 2);
        bounds.push(0);
        rows.push(0);
        let head = ["Rank", "Participant"]
            .into_iter()
            .chain(s.columns.iter().map(|c| c.label.as_str()))
            .chain(["Decided by"]);
        for h in head {
            text.push_str(h);
            bounds.push(text.len());
        }
        rows.push(bounds.len() - 1);
        for (i, r) in s.rows.iter().enumerate() {
            Fixed::int(r.rank as u64).push(&mut text);
            if is_shared(s, i) {
                text.push('=');
            }
            bounds.push(text.len());
            push_name(&mut text, event, r.pid);
            bounds.push(text.len());
            for (ci, (v, col)) in r.values.iter().zip(&s.columns).enumerate() {
                if more.is_empty() {
                    push_cell(&mut text, v, col.decimals);
                } else {
                    push_cell_more(&mut text, v, col.decimals, more.get(&(i, ci)).copied());
                }
                bounds.push(text.len());
            }
            decided(s, i).iter().for_each(|d| text.push_str(d));
            bounds.push(text.len());
            rows.push(bounds.len() - 1);
        }
        Cells {
            text: text.into_string(),
            bounds,
            rows,
        }
    }

    /// The number of rows, the header included.
    fn len(&self) -> usize {
        self.rows.len() - 1
    }

    /// Row `r`'s cells (row 0 is the header).
    fn row(&self, r: usize) -> impl Iterator<Item = &str> {
        self.bounds[self.rows[r]..=self.rows[r + 1]]
            .windows(2)
            .map(|w| &self.text[w[0]..w[1]])
    }
}

fn table(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) -> String {
    let cells = Cells::new(s, event);
    // Widths are in characters; in an all-ASCII table (the usual case)
    // those are bytes, and need no counting.
    let ascii = cells.text.is_ascii();
    let chars = |c: &str| if ascii { c.len() } else { c.chars().count() };
    let mut width = vec![0usize; cells.row(0).count()];
    for r in 0..cells.len() {
        for (w, c) in width.iter_mut().zip(cells.row(r)) {
            *w = (*w).max(chars(c));
        }
    }
    let line_len: usize = width.iter().map(|w| w + 2).sum::<usize>() + 1;
    let mut out = String::with_capacity(1024 + (cells.len() + 1) * line_len);
    let _ = writeln!(out, "{} — {}", event.name, title(rs, meta));
    if let Some(src) = &rs.source_doc {
        let _ = writeln!(out, "Ruleset {}: {src}", meta.ruleset);
    }
    for n in &meta.notes {
        let _ = writeln!(out, "Note: {n}");
    }
    out.push('\n');
    let row = |r: usize| cells.row(r).map(|c| (c, chars(c)));
    table_line(&mut out, &width, row(0));
    let dashes = "-".repeat(width.iter().copied().max().unwrap_or(0));
    table_line(&mut out, &width, width.iter().map(|&w| (&dashes[..w], w)));
    for r in 1..cells.len() {
        table_line(&mut out, &width, row(r));
    }
    // Every column with its direction (a place is lower-is-better, a score
    // higher-is-better: the reader must not have to guess), then its article.
    let cites: Vec<String> = s
        .columns
        .iter()
        .map(|c| {
            let mut note = format!("{} ({}", c.label, c.dir.phrase());
            if c.reversed {
                note.push_str(", reversed");
            }
            if c.places {
                note.push_str(", printed as the place among those tied when it was reached, 0 if it separated none");
            } else if c.group_relative {
                note.push_str(", among the tied: as last compared");
            }
            note.push(')');
            if let Some(ci) = &c.cite {
                note.push_str(": ");
                note.push_str(ci);
            }
            note
        })
        .collect();
    if !cites.is_empty() {
        let _ = writeln!(out, "\nCriteria: {}", cites.join("; "));
    }
    let undefined = undefined_notes(s, event);
    if !undefined.is_empty() {
        out.push_str("\nUndefined values:\n");
        for l in &undefined {
            let _ = writeln!(out, "  {l}");
        }
    }
    if let Some(seed) = s.lots_seed {
        let _ = writeln!(out, "Lots seed: {seed}");
    }
    out
}

/// One line of the aligned table from its cells and their widths in
/// characters: numbers right-aligned, text left-aligned, two spaces between
/// columns, no trailing blanks.
fn table_line<'a>(
    out: &mut String,
    width: &[usize],
    cells: impl Iterator<Item = (&'a str, usize)>,
) {
    let ncol = width.len();
    let start = out.len();
    for (i, (c, chars)) in cells.enumerate() {
        let pad = width[i] - chars;
        if i >= 2 && i + 1 < ncol {
            push_spaces(out, pad);
            out.push_str(c);
        } else {
            out.push_str(c);
            if i + 1 < ncol {
                push_spaces(out, pad);
            }
        }
        if i + 1 < ncol {
            out.push_str("  ");
        }
    }
    let kept = out[start..].trim_end().len();
    out.truncate(start + kept);
    out.push('\n');
}

fn push_spaces(out: &mut String, mut n: usize) {
    const SPACES: &str = "                                ";
    while n > 0 {
        let k = n.min(SPACES.len());
        out.push_str(&SPACES[..k]);
        n -= k;
    }
}

/// The JSON document of `tb eval --format json` (see the README for the
/// schema) as a tree; `render` writes the same text directly.
pub fn to_json(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) -> Json {
    let more = table_more(s);
    let rows: Vec<Json> = s
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let p = &event.participants[r.pid];
            let mut values = Map::new();
            let mut exact = Map::new();
            for (ci, (v, c)) in r.values.iter().zip(&s.columns).enumerate() {
                // `values` holds decimal strings or null, nothing else (the
                // contract); an infinite quotient is null there and
                // "infinity" in `exact`.
                let shown = match v {
                    Value::Inf => Json::Null,
                    _ => text_of(v, c.decimals, more.get(&(i, ci)).copied())
                        .map(Json::String)
                        .unwrap_or(Json::Null),
                };
                values.insert(c.label.clone(), shown);
                let ex = match v {
                    Value::Num(n) => Json::String(n.to_string()),
                    Value::Inf => Json::String("infinity".into()),
                    Value::Undef => Json::Null,
                    other => other.display(None).map(Json::String).unwrap_or(Json::Null),
                };
                exact.insert(c.label.clone(), ex);
            }
            let shared = is_shared(s, i);
            json!({
                "rank": r.rank,
                "id": p.id,
                "name": p.name,
                "shared": shared,
                "values": values,
                "exact": exact,
                "decided_by": r.decided_by.as_ref().map(|d| json!({"procedure": d.procedure, "criterion": d.criterion, "cite": d.cite})),
                "unresolved": r.unresolved,
            })
        })
        .collect();
    let (head, tail) = json_members(s, event, rs, meta);
    let mut doc = Map::new();
    doc.extend(head.map(|(k, v)| (k.to_string(), v)));
    doc.insert("standings".into(), Json::Array(rows));
    doc.extend(tail.map(|(k, v)| (k.to_string(), v)));
    Json::Object(doc)
}

type Members = [(&'static str, Json); 3];
/// The members after the standings.
type Tail = [(&'static str, Json); 5];

/// The members of the document before `standings`, and after it.
fn json_members(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) -> (Members, Tail) {
    let columns = s.columns.iter();
    let head = [
        (
            "ruleset",
            json!({"name": meta.ruleset, "title": rs.title, "source": rs.source_doc, "edition": rs.edition}),
        ),
        (
            "event",
            json!({"name": event.name, "participants": event.participants.len(), "rounds": event.rounds}),
        ),
        (
            "columns",
            columns
                .map(|c| json!({"label": c.label, "cite": c.cite, "better": better(c.dir), "reversed": c.reversed}))
                .collect(),
        ),
    ];
    let tail = [
        ("notes", json!(meta.notes)),
        ("warnings", json!(event.warnings)),
        ("lots_seed", json!(s.lots_seed)),
        (
            "undefined",
            s.undefined
                .iter()
                .map(|u| {
                    let p = &event.participants[u.pid];
                    json!({"id": p.id, "name": p.name, "criterion": u.criterion,
                           "cite": u.cite, "reason": u.reason, "cause": u.cause, "decided": u.decided})
                })
                .collect(),
        ),
        ("undefined_more", json!(s.undefined_more)),
    ];
    (head, tail)
}

/// [`to_json`] pretty-printed, as serde_json prints it, without building the
/// tree: the small members go through serde_json, the rows are written here.
fn json_text(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) -> String {
    // Each label's key once, where the label first appears, naming its last
    // column: what inserting the columns into a JSON map in order gives.
    let mut keys: Vec<(String, usize)> = Vec::new();
    for (ci, c) in s.columns.iter().enumerate() {
        let mut key = Out::default();
        key.push_str("        ");
        push_json_str(&mut key, &c.label);
        key.push_str(": ");
        let key = key.into_string();
        match keys.iter_mut().find(|(k, _)| *k == key) {
            Some(found) => found.1 = ci,
            None => keys.push((key, ci)),
        }
    }
    let mut out = Out::with_capacity(1024 + s.rows.len() * (320 + 80 * keys.len()));
    let (head, tail) = json_members(s, event, rs, meta);
    out.push('{');
    for (key, value) in &head {
        push_json_member(&mut out, key, value);
        out.push(',');
    }
    out.push_str("\n  \"standings\": ");
    if s.rows.is_empty() {
        out.push_str("[]");
    } else {
        out.push('[');
        let more = table_more(s);
        let mut decided_by = Repeat::new();
        for i in 0..s.rows.len() {
            out.push_str(if i == 0 { "\n" } else { ",\n" });
            json_row(&mut out, s, event, &keys, &more, &mut decided_by, i);
        }
        out.push_str("\n  ]");
    }
    for (key, value) in &tail {
        out.push(',');
        push_json_member(&mut out, key, value);
    }
    out.push_str("\n}\n");
    out.into_string()
}

/// `"key": value` at the top level of the document.
fn push_json_member(out: &mut Out, key: &str, value: &Json) {
    out.push_str("\n  ");
    push_json_str(out, key);
    out.push_str(": ");
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    // JSON strings escape their line breaks, so every one here is the
    // printer's: indent them one level.
    out.push_str(&text.replace('\n', "\n  "));
}

/// One entry of `standings`, as serde_json pretty-prints it there.
fn json_row<'a>(
    out: &mut Out,
    s: &'a Standings,
    event: &Event,
    keys: &[(String, usize)],
    more: &HashMap<(usize, usize), More>,
    decided_by: &mut Repeat<Option<&'a Decided>>,
    i: usize,
) {
    let r = &s.rows[i];
    let p = &event.participants[r.pid];
    out.push_str("    {\n      \"rank\": ");
    Fixed::int(r.rank as u64).push(out);
    out.push_str(",\n      \"id\": ");
    push_json_str(out, &p.id);
    out.push_str(",\n      \"name\": ");
    push_json_str(out, &p.name);
    out.push_str(",\n      \"shared\": ");
    out.push_str(if is_shared(s, i) { "true" } else { "false" });
    out.push_str(",\n      \"values\": ");
    let values = out.len();
    let same = json_object(out, keys, &r.values, |out, v, ci| {
        match more.get(&(i, ci)) {
            None => json_shown(out, v, s.columns[ci].decimals),
            Some(&m) => {
                match text_of(v, s.columns[ci].decimals, Some(m)) {
                    Some(t) => push_json_str(out, &t),
                    None => out.push_str("null"),
                }
                false
            }
        }
    });
    let values = values..out.len();
    out.push_str(",\n      \"exact\": ");
    if same {
        // Every value is shown exactly (the usual case): the same text again.
        out.0.extend_from_within(values);
    } else {
        json_object(out, keys, &r.values, |out, v, _| {
            json_exact(out, v);
            true
        });
    }
    out.push_str(",\n      \"decided_by\": ");
    decided_by.write(out, r.decided_by.as_deref(), |out, d| match d {
        Some(d) => {
            out.push_str("{\n        \"procedure\": ");
            push_json_str(out, &d.procedure);
            out.push_str(",\n        \"criterion\": ");
            push_json_str(out, &d.criterion);
            out.push_str(",\n        \"cite\": ");
            push_json_opt(out, d.cite.as_deref());
            out.push_str("\n      }");
        }
        None => out.push_str("null"),
    });
    out.push_str(",\n      \"unresolved\": ");
    push_json_opt(out, r.unresolved.as_deref());
    out.push_str("\n    }");
}

/// A row's `values` or `exact` object: `write` gives each value's JSON and
/// says whether it is also the value's `exact` entry; so does the result,
/// for all of them.
fn json_object(
    out: &mut Out,
    keys: &[(String, usize)],
    values: &[Value],
    write: impl Fn(&mut Out, &Value, usize) -> bool,
) -> bool {
    let mut first = true;
    let mut same = true;
    for (key, ci) in keys {
        let Some(v) = values.get(*ci) else { continue };
        out.push_str(if first { "{\n" } else { ",\n" });
        first = false;
        out.push_str(key);
        same &= write(out, v, *ci);
    }
    out.push_str(if first { "{}" } else { "\n      }" });
    same
}

/// A `values` entry: decimal strings or null, nothing else (the contract),
/// so an infinite quotient is null there (and "infinity" in `exact`).
/// Returns whether the `exact` entry reads the same.
fn json_shown(out: &mut Out, v: &Value, decimals: Option<u32>) -> bool {
    match v {
        Value::Inf => out.push_str("null"),
        Value::Num(n) => match shown(*n, decimals) {
            Some((f, exact)) => {
                out.push('"');
                f.push(out);
                out.push('"');
                return exact;
            }
            None => push_json_value(out, v, decimals),
        },
        _ => push_json_value(out, v, decimals),
    }
    false
}

/// An `exact` entry: the number's exact decimal or fraction, "infinity",
/// or null where undefined.
fn json_exact(out: &mut Out, v: &Value) {
    match v {
        Value::Num(n) => {
            out.push('"');
            push_exact(out, *n);
            out.push('"');
        }
        Value::Inf => out.push_str("\"infinity\""),
        Value::Undef => out.push_str("null"),
        other => push_json_value(out, other, None),
    }
}

fn csv(s: &Standings, event: &Event) -> String {
    let more = table_more(s);
    let mut out = Out::with_capacity(256 + s.rows.len() * (48 + 12 * s.columns.len()));
    let head = ["rank", "id", "name"]
        .into_iter()
        .chain(s.columns.iter().map(|c| c.label.as_str()))
        .chain(["decided_by"]);
    for (k, h) in head.enumerate() {
        if k > 0 {
            out.push(',');
        }
        push_csv(&mut out, h);
    }
    out.push('\n');
    let mut decided_by = Repeat::new();
    for (i, r) in s.rows.iter().enumerate() {
        let p = &event.participants[r.pid];
        Fixed::int(r.rank as u64).push(&mut out);
        out.push(',');
        push_csv(&mut out, &p.id);
        out.push(',');
        push_csv(&mut out, &p.name);
        for (ci, (v, c)) in r.values.iter().zip(&s.columns).enumerate() {
            out.push(',');
            // An undefined value is an empty field.
            match more.get(&(i, ci)) {
                None => {
                    push_value(&mut out, v, c.decimals, push_csv);
                }
                Some(&m) => {
                    if let Some(t) = text_of(v, c.decimals, Some(m)) {
                        push_csv(&mut out, &t);
                    }
                }
            }
        }
        out.push(',');
        decided_by.write(&mut out, decided(s, i), |out, d| push_csv_joined(out, d));
        out.push('\n');
    }
    out.into_string()
}

fn markdown(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) -> String {
    let cells = Cells::new(s, event);
    let mut out = String::with_capacity(1024 + cells.text.len() + 3 * cells.bounds.len());
    let _ = write!(out, "## {} — {}\n\n", event.name, title(rs, meta));
    for r in 0..cells.len() {
        out.push_str("| ");
        for (k, c) in cells.row(r).enumerate() {
            if k > 0 {
                out.push_str(" | ");
            }
            // The header is written as it is; only body cells are escaped.
            if r == 0 {
                out.push_str(c);
            } else {
                push_markdown(&mut out, c);
            }
        }
        out.push_str(" |\n");
        if r == 0 {
            out.push('|');
            for _ in cells.row(0) {
                out.push_str("---|");
            }
            out.push('\n');
        }
    }
    let undefined = undefined_notes(s, event);
    if !undefined.is_empty() {
        out.push_str("\nUndefined values:\n\n");
        for l in &undefined {
            out.push_str("- ");
            push_markdown(&mut out, l);
            out.push('\n');
        }
    }
    out
}

fn html(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) -> String {
    let cells = Cells::new(s, event);
    let mut out = String::with_capacity(1024 + cells.text.len() + 9 * cells.bounds.len());
    out.push_str("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
    push_html(&mut out, &event.name);
    out.push_str("</title></head><body>\n<h1>");
    push_html(&mut out, &event.name);
    out.push_str("</h1>\n<p>");
    push_html(&mut out, title(rs, meta));
    out.push_str("</p>\n<table>\n<thead><tr>");
    for h in cells.row(0) {
        out.push_str("<th>");
        push_html(&mut out, h);
        out.push_str("</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for r in 1..cells.len() {
        out.push_str("<tr>");
        for c in cells.row(r) {
            out.push_str("<td>");
            push_html(&mut out, c);
            out.push_str("</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    let undefined = undefined_notes(s, event);
    if !undefined.is_empty() {
        out.push_str("<p>Undefined values:</p>\n<ul>\n");
        for l in &undefined {
            out.push_str("<li>");
            push_html(&mut out, l);
            out.push_str("</li>\n");
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</body></html>\n");
    out
}

/// A readable account of each step that involved the given participants
/// (all steps on tied groups when `ids` is empty).
pub fn explain(s: &Standings, event: &Event, pids: &[usize]) -> String {
    let mut out = Out::with_capacity(64 * (s.trace.len() + event.participants.len()));
    // Columns printed as places (FIDE DE, EDE, TBR, BBE): where such a step
    // is first reached by a tied group, the places the table prints for its
    // members follow the step's values, so that the two read together (the
    // values compared in each application; the place after them all).
    let placed: HashMap<&str, usize> = s
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| c.places)
        .map(|(i, c)| (c.label.as_str(), i))
        .collect();
    let row_of: HashMap<Pid, usize> = if placed.is_empty() {
        HashMap::new()
    } else {
        s.rows.iter().enumerate().map(|(i, r)| (r.pid, i)).collect()
    };
    // Per such label: each participant's entry group (numbered), to tell a
    // group's first application from a re-application to part of it.
    let mut entries: HashMap<&str, (HashMap<Pid, usize>, usize)> = HashMap::new();
    for t in &s.trace {
        let mut places_line = None;
        if let Some(&ci) = placed.get(t.criterion.as_str()) {
            let (seen, next) = entries.entry(t.criterion.as_str()).or_default();
            let first = t.group.first().and_then(|p| seen.get(p)).copied();
            let inside = first.is_some() && t.group.iter().all(|p| seen.get(p) == first.as_ref());
            if !inside {
                for &p in &t.group {
                    seen.insert(p, *next);
                }
                *next += 1;
                places_line = Some(ci);
            }
        }
        if t.group.len() > event.participants.len().min(64) && pids.is_empty() {
            // The first split of the whole field is the score itself; summarise it.
            let _ = writeln!(
                out,
                "{} / {}{}: ranks the whole field of {}",
                t.procedure,
                t.criterion,
                dir_note(t.dir),
                t.group.len()
            );
            continue;
        }
        if !pids.is_empty() && !pids.iter().any(|p| t.group.contains(p)) {
            continue;
        }
        if !pids.is_empty() && t.group.len() > 64 {
            let _ = write!(
                out,
                "{} / {}{}: ",
                t.procedure,
                t.criterion,
                dir_note(t.dir)
            );
            let more = step_more(t);
            let shown = t.values.iter().filter(|(p, _)| pids.contains(p));
            for (k, (p, v)) in shown.enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                push_name(&mut out, event, *p);
                out.push_str(" = ");
                push_cell_more(&mut out, v, t.decimals, more.get(p).copied());
            }
            out.push('\n');
            continue;
        }
        explain_step(&mut out, t, event, s);
        // Only where a printed place differs from the value just shown.
        let places_line = places_line.filter(|&ci| {
            t.values.iter().any(|(p, v)| {
                row_of
                    .get(p)
                    .and_then(|&r| s.rows[r].values.get(ci))
                    .is_some_and(|shown| compare_values(shown, v) != Ordering::Equal)
            })
        });
        if let Some(ci) = places_line {
            out.push_str("  printed in the ");
            out.push_str(&t.criterion);
            out.push_str(
                " column (place among them after every re-application; 0: not separated): ",
            );
            for (k, p) in t.group.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                push_name(&mut out, event, *p);
                out.push_str(" = ");
                match row_of.get(p).and_then(|&r| s.rows[r].values.get(ci)) {
                    Some(v) => push_cell(&mut out, v, s.columns[ci].decimals),
                    None => out.push('-'),
                }
            }
            out.push('\n');
        }
    }
    out.into_string()
}

/// ` (higher is better)` after a step's label in `explain`; nothing for an end.
fn dir_note(d: Option<Direction>) -> String {
    d.map(|d| format!(" ({})", d.phrase())).unwrap_or_default()
}

/// `higher` or `lower`: which values a column ranks first (JSON `columns`).
fn better(d: Direction) -> &'static str {
    match d {
        Direction::Desc => "higher",
        Direction::Asc => "lower",
    }
}

/// The procedures of a ruleset, step by step: label, direction, hand-off,
/// article (`tb check --verbose`).
pub fn procedures(rs: &Ruleset) -> String {
    let mut out = String::new();
    for (pi, p) in rs.procs.iter().enumerate() {
        let _ = write!(out, "procedure {}", p.name);
        if rs.standings == Some(pi) {
            out.push_str(" (standings)");
        }
        if let Some(c) = &p.cite {
            let _ = write!(out, " [{c}]");
        }
        out.push('\n');
        for (si, st) in p.steps.iter().enumerate() {
            let _ = write!(out, "  {}. {}: {}", si + 1, st.label, st.dir.phrase());
            if st.reversed {
                out.push_str(" (reversed)");
            }
            match st.select {
                Some(crate::syntax::ast::Select::Best) => out.push_str(", unique best only"),
                Some(crate::syntax::ast::Select::Worst) => out.push_str(", unique worst only"),
                None => {}
            }
            if st.when.is_some() {
                out.push_str(", when a condition holds");
            }
            let action = |a: &crate::plan::PAction| match a {
                crate::plan::PAction::Continue => "continue".to_string(),
                crate::plan::PAction::Restart => "restart".to_string(),
                crate::plan::PAction::Repeat => "repeat".to_string(),
                crate::plan::PAction::Proc(q) => rs.procs[*q].name.clone(),
            };
            match &st.then {
                crate::plan::PHandoff::Always(crate::plan::PAction::Continue) => {}
                crate::plan::PHandoff::Always(a) => {
                    let _ = write!(out, ", then {}", action(a));
                }
                crate::plan::PHandoff::BySize(cases, other) => {
                    out.push_str(", then ");
                    for (n, a) in cases {
                        let _ = write!(out, "size {n} => {}, ", action(a));
                    }
                    let _ = write!(out, "else {}", action(other));
                }
            }
            if let Some(c) = &st.cite {
                let _ = write!(out, " [{c}]");
            }
            out.push('\n');
        }
        let end = match &p.end {
            crate::syntax::ast::EndKind::Shared => "shared".to_string(),
            crate::syntax::ast::EndKind::Lots => "lots".to_string(),
            crate::syntax::ast::EndKind::Unresolved(r) => format!("unresolved: {r}"),
        };
        let _ = write!(out, "  otherwise {end}");
        if let Some(c) = &p.end_cite {
            let _ = write!(out, " [{c}]");
        }
        out.push('\n');
    }
    out
}

fn explain_step(out: &mut Out, t: &TraceStep, event: &Event, s: &Standings) {
    out.push_str(&t.procedure);
    out.push_str(" / ");
    out.push_str(&t.criterion);
    out.push_str(&dir_note(t.dir));
    if let Some(c) = &t.cite {
        out.push_str(" [");
        out.push_str(c);
        out.push(']');
    }
    out.push_str("\n  tied: ");
    push_names(out, event, &t.group, ", ");
    out.push('\n');
    // Values a split tells apart print apart: more digits where needed.
    let more = step_more(t);
    for (p, v) in &t.values {
        out.push_str("    ");
        push_name(out, event, *p);
        out.push_str(" = ");
        push_cell_more(out, v, t.decimals, more.get(p).copied());
        if *v == Value::Undef {
            if let Some(why) = undefined_reason(s, *p, &t.criterion) {
                out.push_str(" (undefined: ");
                out.push_str(why);
                out.push(')');
            }
        }
        out.push('\n');
    }
    match &t.outcome {
        Outcome::Skipped => out.push_str("  → condition does not hold; step skipped\n"),
        Outcome::NotSplit => out.push_str("  → does not separate them\n"),
        Outcome::Split(parts) => {
            out.push_str("  → ");
            for (k, g) in parts.iter().enumerate() {
                if k > 0 {
                    out.push_str("  >  ");
                }
                push_names(out, event, g, " = ");
            }
            out.push('\n');
            for (g, what) in &t.handoffs {
                out.push_str("    still tied: ");
                push_names(out, event, g, ", ");
                out.push_str(" → ");
                out.push_str(&what.to_string());
                out.push('\n');
            }
        }
    }
}

// ------------------------------------------------------------ more digits

/// How a value is printed where its column's decimals would print it like
/// a value a step told it apart from (issue 15: `Bob = 0.44, Carol = 0.44
/// → Carol > Bob`, 4/9 against 133/300).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum More {
    /// This many decimal places: the fewest above the column's at which
    /// the two values print differently.
    Places(u32),
    /// The exact value (`133/300`): no number of places up to the
    /// language's 12 tells them apart.
    Exact,
}

/// The most places tried before printing the exact value (the language's
/// `decimals` limit).
const MAX_MORE_PLACES: u32 = 12;

/// A value's text at the column's `decimals`, or with `more`.
fn text_of(v: &Value, decimals: Option<u32>, more: Option<More>) -> Option<String> {
    match more {
        None => v.display(decimals),
        Some(More::Places(p)) => v.display(Some(p)),
        Some(More::Exact) => match v {
            Value::Num(n) => Some(n.to_string()),
            Value::List(items) => Some(
                items
                    .iter()
                    .map(|i| i.value.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            other => other.display(None),
        },
    }
}

/// Whether a value is one digits can tell apart: a number or a list.
fn refinable(v: &Value) -> bool {
    matches!(v, Value::Num(_) | Value::List(_))
}

/// How to print `a` and `b`, which a step told apart but which print alike
/// at `decimals`: the fewest places that print them differently, else
/// exactly. `None` when they already print differently (or cannot differ).
fn more_for(a: &Value, b: &Value, decimals: Option<u32>) -> Option<More> {
    if !refinable(a) || !refinable(b) || compare_values(a, b) == Ordering::Equal {
        return None;
    }
    // Rounding half up is monotone: numbers a unit of the last printed
    // place apart or more never print alike (no text needs making).
    if let (Value::Num(x), Value::Num(y)) = (a, b) {
        let places = decimals.unwrap_or(4).min(18);
        let unit = Num::ratio(1, 10i128.pow(places));
        let gap = x
            .sub(*y)
            .map(|d| if d < Num::ZERO { d.neg() } else { Ok(d) });
        if let (Ok(unit), Ok(Ok(gap))) = (unit, gap) {
            if gap >= unit {
                return None;
            }
        }
    }
    if text_of(a, decimals, None) != text_of(b, decimals, None) {
        return None;
    }
    // Without a column's decimals, a number prints exactly or to 4 places.
    let from = decimals.unwrap_or(4) + 1;
    for p in from..=MAX_MORE_PLACES {
        let m = Some(More::Places(p));
        if text_of(a, None, m) != text_of(b, None, m) {
            return Some(More::Places(p));
        }
    }
    Some(More::Exact)
}

/// The members of `part` that lie next to the following (or preceding)
/// part of a split: those with its worst value when `worst`, else its best,
/// "worst" and "best" as the step ranks (`dir`). Undefined values, which
/// print as `-`, are left out.
fn edge<'a>(
    part: &[Pid],
    value: &impl Fn(Pid) -> Option<&'a Value>,
    dir: Direction,
    worst: bool,
) -> (Option<&'a Value>, Vec<Pid>) {
    // For `desc` the worst is the least value; for `asc` the greatest.
    let want_less = (dir == Direction::Desc) == worst;
    let mut best: Option<&Value> = None;
    for &p in part {
        let Some(v) = value(p).filter(|v| refinable(v)) else {
            continue;
        };
        let better = match best {
            None => true,
            Some(b) => {
                let o = compare_values(v, b);
                if want_less {
                    o == Ordering::Less
                } else {
                    o == Ordering::Greater
                }
            }
        };
        if better {
            best = Some(v);
        }
    }
    let Some(b) = best else {
        return (None, Vec::new());
    };
    let members = part
        .iter()
        .copied()
        .filter(|&p| value(p).is_some_and(|v| compare_values(v, b) == Ordering::Equal))
        .collect();
    (Some(b), members)
}

/// For one split of a step, the participants whose values print alike
/// across two neighbouring sub-groups, each with the digits that tell them
/// apart (`value` gives the printed value of a participant).
fn split_more<'a>(
    parts: &[Vec<Pid>],
    value: &impl Fn(Pid) -> Option<&'a Value>,
    dir: Direction,
    decimals: Option<u32>,
    out: &mut Vec<(Pid, More)>,
) {
    for w in parts.windows(2) {
        let (a, above) = edge(&w[0], value, dir, true);
        let (b, below) = edge(&w[1], value, dir, false);
        let (Some(a), Some(b)) = (a, b) else { continue };
        if let Some(m) = more_for(a, b, decimals) {
            out.extend(above.into_iter().chain(below).map(|p| (p, m)));
        }
    }
}

/// For one step of the trace, the members whose values would print alike
/// across a split, with the digits that print them apart (as
/// [`table_more`] for the table, checked the same way).
fn step_more(t: &TraceStep) -> HashMap<Pid, More> {
    let mut more: HashMap<Pid, More> = HashMap::new();
    if let (Outcome::Split(parts), Some(dir)) = (&t.outcome, t.dir) {
        let by_pid: HashMap<Pid, &Value> = t.values.iter().map(|(p, v)| (*p, v)).collect();
        let value = |p: Pid| by_pid.get(&p).copied();
        let mut found = Vec::new();
        split_more(parts, &value, dir, t.decimals, &mut found);
        for (p, m) in found {
            let e = more.entry(p).or_insert(m);
            *e = (*e).max(m);
        }
        // A pair still printed alike with the larger places: exactly.
        if !more.is_empty() {
            for w in parts.windows(2) {
                let (_, above) = edge(&w[0], &value, dir, true);
                let (_, below) = edge(&w[1], &value, dir, false);
                if let (Some(a), Some(b)) = (above.first(), below.first()) {
                    let (va, vb) = (by_pid[a], by_pid[b]);
                    let (ma, mb) = (more.get(a).copied(), more.get(b).copied());
                    if text_of(va, t.decimals, ma) == text_of(vb, t.decimals, mb) {
                        for p in above.iter().chain(&below) {
                            more.insert(*p, More::Exact);
                        }
                    }
                }
            }
        }
    }
    more
}

/// The cells of the standings printed with more digits than their column's
/// decimals, `(row, column) → text`: where the decimals would print alike
/// two values a step separates (the table, CSV, Markdown, HTML and JSON
/// `values` print these texts).
pub fn more_digits(s: &Standings) -> HashMap<(usize, usize), String> {
    table_more(s)
        .into_iter()
        .filter_map(|((r, c), m)| {
            let v = s.rows.get(r)?.values.get(c)?;
            Some(((r, c), text_of(v, s.columns[c].decimals, Some(m))?))
        })
        .collect()
}

/// As [`more_digits`] for one step of `explain`: participant → text.
pub fn step_more_digits(t: &TraceStep) -> HashMap<Pid, String> {
    let by_pid: HashMap<Pid, &Value> = t.values.iter().map(|(p, v)| (*p, v)).collect();
    step_more(t)
        .into_iter()
        .filter_map(|(p, m)| Some((p, text_of(by_pid.get(&p)?, t.decimals, Some(m))?)))
        .collect()
}

/// Every cell of the standings to print with more digits, by
/// `(row, column)`: for each split in the trace, the values of its column
/// on either side of the split that would print alike. Where two requests
/// for one cell differ, the larger holds; a pair that still prints alike
/// then (rounding to more places is not monotone) prints exactly.
fn table_more(s: &Standings) -> HashMap<(usize, usize), More> {
    let mut cells: HashMap<(usize, usize), More> = HashMap::new();
    if s.trace.is_empty() {
        return cells;
    }
    let n = s.rows.iter().map(|r| r.pid + 1).max().unwrap_or(0);
    let mut row_of = vec![usize::MAX; n];
    for (i, r) in s.rows.iter().enumerate() {
        row_of[r.pid] = i;
    }
    let col_of: HashMap<&str, usize> = s
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| (c.label.as_str(), i))
        .collect();
    let mut checks: Vec<(usize, Pid, Pid)> = Vec::new();
    for t in &s.trace {
        let (Outcome::Split(parts), Some(&ci)) = (&t.outcome, col_of.get(t.criterion.as_str()))
        else {
            continue;
        };
        let col = &s.columns[ci];
        let value = |p: Pid| -> Option<&Value> {
            let r = *row_of.get(p)?;
            s.rows.get(r)?.values.get(ci)
        };
        let mut found = Vec::new();
        split_more(parts, &value, col.dir, col.decimals, &mut found);
        for w in parts.windows(2) {
            let (_, above) = edge(&w[0], &value, col.dir, true);
            let (_, below) = edge(&w[1], &value, col.dir, false);
            if let (Some(&a), Some(&b)) = (above.first(), below.first()) {
                checks.push((ci, a, b));
            }
        }
        for (p, m) in found {
            let key = (row_of[p], ci);
            let e = cells.entry(key).or_insert(m);
            *e = (*e).max(m);
        }
    }
    if cells.is_empty() {
        return cells;
    }
    // Each neighbouring pair, as it now prints: still alike → exact.
    for (ci, a, b) in checks {
        let (ra, rb) = (row_of[a], row_of[b]);
        let dec = s.columns[ci].decimals;
        let (va, vb) = (&s.rows[ra].values[ci], &s.rows[rb].values[ci]);
        if compare_values(va, vb) == Ordering::Equal || !refinable(va) || !refinable(vb) {
            continue;
        }
        let (ma, mb) = (cells.get(&(ra, ci)).copied(), cells.get(&(rb, ci)).copied());
        if text_of(va, dec, ma) == text_of(vb, dec, mb) {
            // Every refined cell of the column with either value goes exact.
            let same: Vec<(usize, usize)> = cells
                .keys()
                .filter(|&&(r, c)| {
                    c == ci && {
                        let v = &s.rows[r].values[ci];
                        compare_values(v, va) == Ordering::Equal
                            || compare_values(v, vb) == Ordering::Equal
                    }
                })
                .copied()
                .collect();
            for k in same.into_iter().chain([(ra, ci), (rb, ci)]) {
                cells.insert(k, More::Exact);
            }
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::ListItem;
    use std::sync::Arc;

    fn written(write: impl FnOnce(&mut Out)) -> String {
        let mut out = Out::default();
        write(&mut out);
        out.into_string()
    }

    /// Numbers of every shape: whole, terminating and repeating fractions,
    /// halves on both sides of zero, and the edges of 64 bits and of the
    /// fast path (denominators whose decimal needs more than 18 places).
    fn numbers() -> Vec<Num> {
        let dens = [
            1,
            2,
            3,
            4,
            5,
            6,
            7,
            8,
            16,
            20,
            25,
            40,
            64,
            100,
            125,
            128,
            1000,
            1024,
            3125,
            3 * 1024,
            1 << 20,
            1 << 40,
            1 << 62,
            5i128.pow(20),
            5i128.pow(27),
            i128::from(i64::MAX),
        ];
        let nums = (-250..=250).chain([
            999_999,
            -999_999,
            1 << 40,
            i128::from(i64::MAX),
            i128::from(i64::MIN),
            i128::from(i64::MAX / 3),
            i128::from(i64::MIN / 7),
        ]);
        let mut out = Vec::new();
        for num in nums {
            for den in dens {
                out.extend(Num::ratio(num, den).ok());
            }
        }
        out
    }

    #[test]
    fn numbers_read_as_value_display_and_num_display() {
        let places = [None, Some(0), Some(1), Some(2), Some(3), Some(4)];
        let places = places.into_iter().chain([6, 12, 17, 18, 19, 30].map(Some));
        let places: Vec<_> = places.collect();
        for n in numbers() {
            let v = Value::Num(n);
            for &d in &places {
                let fast = written(|o| assert!(push_value(o, &v, d, Out::push_str)));
                assert_eq!(Some(fast), v.display(d), "{n:?} to {d:?} places");
            }
            assert_eq!(written(|o| push_exact(o, n)), n.to_string(), "{n:?}");
            if let Some((f, true)) = shown(n, None) {
                // Said to read exactly: it does.
                assert_eq!(written(|o| f.push(o)), n.to_string(), "{n:?}");
            }
        }
    }

    #[test]
    fn other_values_read_as_value_display() {
        let item = |v: i64| ListItem {
            value: Num::ratio(i128::from(v), 4).unwrap(),
            key: Num::ZERO,
            voluntary: false,
        };
        let values = [
            Value::Undef,
            Value::Inf,
            Value::Bool(true),
            Value::Bool(false),
            Value::Str("a, \"b\" | <c> & d\n".into()),
            Value::List(Arc::new(vec![item(1), item(-6), item(10)])),
            Value::Event,
        ];
        for v in &values {
            for d in [None, Some(0), Some(2)] {
                let mut out = Out::default();
                let shown = push_value(&mut out, v, d, Out::push_str);
                let text = out.into_string();
                assert_eq!(shown.then_some(text.clone()), v.display(d), "{v:?}");
                assert!(shown || text.is_empty());
            }
        }
    }

    #[test]
    fn escaping_matches_the_formats() {
        let texts = [
            "plain",
            "",
            "Noom, Anna",
            "say \"hi\"",
            "a|b",
            "<b>&amp;</b>",
            "tab\tline\nreturn\r\u{1}\u{1f}\u{7f}",
            "back\\slash",
            "Ünïcødé — 名前",
        ];
        for t in texts {
            let quoted = serde_json::to_string(t).unwrap();
            assert_eq!(written(|o| push_json_str(o, t)), quoted);
            let csv = if t.contains([',', '"', '\n']) {
                format!("\"{}\"", t.replace('"', "\"\""))
            } else {
                t.to_string()
            };
            assert_eq!(written(|o| push_csv(o, t)), csv);
            let mut html = String::new();
            push_html(&mut html, t);
            let esc = t
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('"', "&quot;");
            assert_eq!(html, esc);
        }
    }
}
