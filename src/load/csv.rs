//! CSV match lists (card-game events run from a spreadsheet) → the native schema, so every rule and diagnostic is shared.
//!
//! ```text
//! # name: Friday Night Swiss
//! # sport: cards
//! round,home,away,result
//! 1,Ana,Ben,2-1-0
//! 1,Cleo,,bye
//! 2,Ben,drop
//! ```
//!
//! A header row names the columns (any order, any case): `round`, `home`
//! (or `player`, `player1`), `away` (or `opponent`, `player2`), and either
//! `result` (as in the native format: `2-1-0` games won-lost-drawn for cards,
//! `1-0` for chess) or the numbers `home_wins`, `away_wins` and optionally
//! `draws`. An empty `away`, or `bye` in either the away or result column,
//! is a pairing bye for the home player; `drop` there says the home player
//! dropped after that round (the model's `withdrawn_after`). Lines starting
//! with `#` before the header may set `name`, `sport` (default cards),
//! `system`, `rounds` and `start_date`.
//!
//! Files saved by a spreadsheet are read as they come: a UTF-8 byte-order
//! mark is skipped, CRLF line ends are read, and a header with `;` (or tabs)
//! and no `,` sets the separator. The records are split by the `csv` crate
//! (this module finds where each cell stands, for diagnostics) or, in a
//! file with no quote, in one pass by `plain`; `rows` reads them one at a
//! time into players, rounds, games and byes. A valid list then goes to
//! the one-pass reader (`json`); anything it gives up on is built through
//! the value tree (`tree`, the reference, which gives every diagnostic).
//!
//! Names: a player is the same whatever the case and spacing of their name
//! (`Alice`, `alice `, `ALICE`); the first spelling is kept as id and
//! display name. A name seen in one round only, while a name one letter
//! from it is absent from that round, is a warning
//! (`tb::load::csv::similar_name`).
//! The loader is linear in the number of rows (hash maps, no scans).

use super::native::{build_from_tree, Key, Node, V};
use crate::codes;
use crate::diag::{Diag, Source, Span};
use crate::model::Warning;
use std::borrow::Cow;
use std::collections::HashMap as StdMap;

/// Hash maps and sets keyed by names and rounds: a fast hash, seeded per
/// process (one look-up per cell).
type HashMap<K, V> = StdMap<K, V, foldhash::fast::RandomState>;
type HashSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

mod json;
mod plain;
mod rows;

use rows::{Columns, GameRow, Player, Round, Rows};

/// The records of the file, header first: split in one pass as they are
/// read, or all split first by the `csv` crate.
enum Records<'s> {
    Plain(plain::Records<'s>),
    Crate(std::vec::IntoIter<Vec<Cell<'s>>>),
}

impl<'s> Records<'s> {
    /// The next record's cells, in `cells`; `false` after the last.
    fn next_into(&mut self, cells: &mut Vec<Cell<'s>>) -> bool {
        match self {
            Records::Plain(p) => p.next_into(cells),
            Records::Crate(records) => match records.next() {
                Some(next) => {
                    *cells = next;
                    true
                }
                None => false,
            },
        }
    }

    /// About how many records there are (no fewer).
    fn len(&self) -> usize {
        match self {
            Records::Plain(p) => p.lines,
            Records::Crate(records) => records.len(),
        }
    }
}

/// Largest CSV file read (the loaders' common limit).
pub const MAX_CSV_BYTES: usize = super::limits::MAX_INPUT_BYTES;

/// The warning for a name that looks like a misspelling of another.
pub const SIMILAR_NAME: &str = codes::LOAD_CSV_SIMILAR_NAME;
/// Warning: a game row whose games-won cell is empty (read as 0).
pub const EMPTY_COUNT: &str = codes::LOAD_CSV_EMPTY_COUNT;
/// The warning for a header column that looks like a misspelt known one.
pub const UNKNOWN_COLUMN: &str = codes::LOAD_CSV_UNKNOWN_COLUMN;

/// One cell: its text (unquoted, trimmed) and where it stands in the file.
struct Cell<'a> {
    text: Cow<'a, str>,
    span: Span,
}

/// Where each cell of the record starting at `pos` stands in `text`: the
/// `csv` crate reads the values but gives only the record's position. Also
/// refuses the two things the crate lets through that are almost always a
/// damaged file: a quote never closed (the crate would read the rest of the
/// file as one cell) and text after a closing quote.
fn cell_spans(text: &str, pos: usize, delim: u8) -> Result<Vec<Span>, (usize, &'static str)> {
    let b = text.as_bytes();
    let eol = |c: u8| c == b'\n' || c == b'\r';
    let mut out = Vec::new();
    let mut i = pos;
    loop {
        let start = i;
        if b.get(i) == Some(&b'"') {
            i += 1;
            loop {
                match b.get(i) {
                    None => return Err((start, "a quote that is never closed")),
                    Some(b'"') if b.get(i + 1) == Some(&b'"') => i += 2,
                    Some(b'"') => {
                        i += 1;
                        break;
                    }
                    Some(_) => i += 1,
                }
            }
            let quoted_end = i;
            while matches!(b.get(i), Some(&c) if (c == b' ' || c == b'\t') && c != delim) {
                i += 1;
            }
            if b.get(i).is_some_and(|&c| c != delim && !eol(c)) {
                return Err((i, "text after a closing quote"));
            }
            out.push(Span::new(start, quoted_end));
        } else {
            while i < b.len() && b[i] != delim && !eol(b[i]) {
                i += 1;
            }
            // The cell's text without the blanks around it.
            let cell = &text[start..i];
            let lead = cell.len() - cell.trim_start().len();
            let s = start + lead;
            out.push(Span::new(s, s.max(start + cell.trim_end().len())));
        }
        if b.get(i) == Some(&delim) {
            i += 1;
        } else {
            return Ok(out);
        }
    }
}

fn node(v: V, span: Span) -> Node {
    Node {
        span: Some(span),
        v,
    }
}

fn key(name: &str, span: Span) -> Key {
    Key {
        name: name.to_string(),
        span: Some(span),
    }
}

fn table(items: Vec<(Key, Node)>, span: Span) -> Node {
    node(V::Table(items), span)
}

fn err(src: &Source, span: Span, msg: impl Into<String>, help: &str) -> Diag {
    Diag::error(codes::LOAD_CSV_MALFORMED, msg)
        .at(src, span, "here")
        .with_help(help)
}

/// How far apart a header cell may be from a column name of `len`
/// characters and still look like it misspelt.
fn similar_limit(len: usize) -> usize {
    match len {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// The columns a match list may have (the first name of each is the one
/// documented), for the did-you-mean of a misspelt header.
const KNOWN_COLUMNS: &[&[&str]] = &[
    &["round"],
    &["home", "player", "player1"],
    &["away", "opponent", "player2"],
    &["result"],
    &["home_wins", "wins1", "games_won1"],
    &["away_wins", "wins2", "games_won2"],
    &["draws", "drawn"],
];

/// The separator a spreadsheet used, read from the header line: `;` where
/// the header has `;` and no `,` (a spreadsheet in a locale whose decimal
/// mark is the comma), a tab where it has only tabs, else `,`.
fn sniff(header: &str) -> u8 {
    if header.contains(';') && !header.contains(',') {
        b';'
    } else if header.contains('\t') && !header.contains(',') && !header.contains(';') {
        b'\t'
    } else {
        b','
    }
}

/// Load a CSV match list, with up to one thread per core (at most 8).
pub fn load_csv(src: &Source) -> Result<crate::model::Event, Diag> {
    load_csv_with(src, crate::par::default_threads())
}

/// Load a CSV match list with at most `threads` threads (the event never
/// depends on it).
pub fn load_csv_with(src: &Source, threads: usize) -> Result<crate::model::Event, Diag> {
    load(src, threads, true)
}

/// [`load_csv`] through the value tree only, as it was read before the
/// one-pass reader. For tests that check the two agree.
#[doc(hidden)]
pub fn load_csv_tree(src: &Source) -> Result<crate::model::Event, Diag> {
    load(src, 1, false)
}

/// With `fast`, a valid list is read in one pass (and records without
/// quotes split without the `csv` crate); anything the one-pass reader
/// gives up on is built through the value tree, which gives the
/// diagnostics.
fn load(src: &Source, threads: usize, fast: bool) -> Result<crate::model::Event, Diag> {
    if src.text.len() > MAX_CSV_BYTES {
        return Err(Diag::error(
            codes::LOAD_TOO_LARGE,
            format!("the file is larger than {MAX_CSV_BYTES} bytes"),
        )
        .in_source(src));
    }
    let text: &str = &src.text;
    // UTF-16 (a spreadsheet's "Unicode text") reaches us byte by byte as
    // Latin-1 characters, a NUL after each ASCII one: say what it is.
    if text.starts_with("\u{ff}\u{fe}")
        || text.starts_with("\u{fe}\u{ff}")
        || text.bytes().take(200).any(|b| b == 0)
    {
        return Err(Diag::error(
            codes::LOAD_CSV_ENCODING,
            format!("{} is not UTF-8 text (it looks like UTF-16)", src.name),
        )
        .with_help("save the sheet as \"CSV UTF-8\" (or plain CSV) and try again"));
    }
    // A spreadsheet's UTF-8 byte-order mark is not part of the first cell.
    let body = if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    };

    let (mut event_items, header_at) = read_preamble(src, body)?;
    let Some((header_start, header_line)) = header_at else {
        return Err(
            Diag::error(codes::LOAD_CSV_NO_HEADER, "the CSV file has no header row")
                .in_source(src)
                .with_help("start with a row such as `round,home,away,result`"),
        );
    };
    let delim = sniff(header_line);

    // The records, header first: split in one pass where nothing is
    // quoted, else as the `csv` crate splits them.
    let plain = if fast {
        plain::records(text, header_start, delim)
    } else {
        None
    };
    let mut records = match plain {
        Some(records) => Records::Plain(records),
        None => Records::Crate(crate_records(src, header_start, delim)?.into_iter()),
    };
    let mut cells = Vec::new();
    records.next_into(&mut cells);
    let (cols, mut warnings) = read_header(src, &cells, delim, header_line)?;
    let sport_declared = event_items.iter().any(|(k, _)| k.name == "sport");
    if !sport_declared {
        event_items.push((
            key("sport", Span::default()),
            node(V::Str("cards".into()), Span::default()),
        ));
    }

    let mut rows = Rows::new(src, cols, records.len());
    while records.next_into(&mut cells) {
        rows.row(&cells)?;
    }
    rows.done();
    warnings.extend(empty_count_warning(src, &mut rows));
    let plays_in = |p, r| rows.plays_in(p, r);
    warnings.extend(similar_names(
        src,
        &rows.players,
        &plays_in,
        rows.rounds.len(),
    ));
    let mut rounds = std::mem::take(&mut rows.rounds);
    rounds.sort_by_key(|r| r.number);
    let (players, games) = (&rows.players, &rows.games);
    let fast_ev = if fast {
        json::event(src, &event_items, players, games, &rounds, threads)
            .and_then(super::rounds::settle_read)
    } else {
        None
    };
    let mut ev = match fast_ev {
        Some(ev) => ev,
        None => {
            let tree = tree(event_items, players, games, rounds, text.len());
            build_from_tree(src, &tree)?
        }
    };
    // The `cards` put in above is the format's default, not the file's word.
    ev.sport_declared = sport_declared;
    ev.warnings.extend(warnings);
    Ok(ev)
}

/// The `#` lines and blank lines before the header, from byte `body` on:
/// the event's fields, and where the header row starts (with its text).
#[allow(clippy::type_complexity)]
fn read_preamble(
    src: &Source,
    body: usize,
) -> Result<(Vec<(Key, Node)>, Option<(usize, &str)>), Diag> {
    let text: &str = &src.text;
    let mut event_items: Vec<(Key, Node)> = Vec::new();
    let mut header_at = None;
    let mut offset = body;
    for raw in text[body..].split_inclusive('\n') {
        let line_start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let line_span = Span::new(line_start, line_start + line.len());
        // A spreadsheet writes an empty row as separators only.
        if line.trim_matches([',', ';', '\t', ' ']).is_empty() {
            continue;
        }
        let Some(meta) = line.trim_start().strip_prefix('#') else {
            header_at = Some((line_start, line));
            break;
        };
        if let Some((k, v)) = meta.split_once(':') {
            let k = k.trim().to_ascii_lowercase();
            // `# name: Friday;;;` — the empty cells after it on the row.
            let v = v.trim().trim_end_matches([',', ';', '\t']).trim();
            let value = match k.as_str() {
                "rounds" => match v.parse::<i64>() {
                    Ok(n) => V::Int(n),
                    Err(_) => {
                        return Err(err(
                            src,
                            line_span,
                            "`# rounds:` needs a whole number",
                            "write e.g. `# rounds: 5`",
                        ))
                    }
                },
                "name" | "sport" | "system" | "start_date" => V::Str(v.to_string()),
                _ => continue,
            };
            event_items.push((key(&k, line_span), node(value, line_span)));
        }
    }
    Ok((event_items, header_at))
}

/// The columns the header row (`cells`) names, and a warning for each
/// other column that looks like a misspelt known one.
fn read_header(
    src: &Source,
    cells: &[Cell],
    delim: u8,
    header_line: &str,
) -> Result<(Columns, Vec<Warning>), Diag> {
    let header: Vec<(String, Span)> = cells
        .iter()
        .map(|c| (c.text.to_lowercase(), c.span))
        .collect();
    let col = |names: &[&str]| header.iter().position(|(h, _)| names.contains(&h.as_str()));
    let round_c = col(&["round"]);
    let home_c = col(&["home", "player", "player1"]);
    let away_c = col(&["away", "opponent", "player2"]);
    let result_c = col(&["result"]);
    let hw_c = col(&["home_wins", "wins1", "games_won1"]);
    let aw_c = col(&["away_wins", "wins2", "games_won2"]);
    let dr_c = col(&["draws", "drawn"]);
    let header_span = header
        .first()
        .map(|h| h.1)
        .unwrap_or_default()
        .join(header.last().map(|h| h.1).unwrap_or_default());
    let (Some(round_c), Some(home_c)) = (round_c, home_c) else {
        let help = if delim == b',' && header_line.contains(['\t', ';']) {
            "the header mixes `,` with `;` or tabs: use one separator throughout"
        } else {
            "e.g. `round,home,away,result` or `round,home,away,home_wins,away_wins,draws`"
        };
        return Err(Diag::error(
            codes::LOAD_CSV_MISSING_COLUMN,
            "the header needs at least `round` and `home` columns",
        )
        .at(src, header_span, "header")
        .with_help(help));
    };
    if result_c.is_none() && (hw_c.is_none() || aw_c.is_none()) {
        return Err(Diag::error(
            codes::LOAD_CSV_MISSING_COLUMN,
            "the header needs a `result` column or `home_wins` and `away_wins`",
        )
        .at(src, header_span, "header")
        .with_help("add `result` (e.g. 2-1-0) or the two game-win columns"));
    }
    // Other columns (table numbers, notes) are ignored, but one that looks
    // like a misspelt known column would be silently lost (`drwas`: every
    // drawn game gone): a warning.
    let mut warnings = Vec::new();
    for (h, sp) in &header {
        if h.is_empty()
            || KNOWN_COLUMNS
                .iter()
                .any(|names| names.contains(&h.as_str()))
        {
            continue;
        }
        let near = KNOWN_COLUMNS
            .iter()
            .flat_map(|names| names.iter())
            .map(|k| (crate::text::edit_distance(h, k), *k))
            .filter(|(d, k)| *d <= similar_limit(k.len()).max(1))
            .min();
        if let Some((_, k)) = near {
            let (line, c) = src.line_col(sp.start);
            warnings.push(Warning::new(
                UNKNOWN_COLUMN,
                format!(
                    "column `{h}` ({}:{line}:{c}) is not one tb reads, and is ignored: did you mean `{k}`?",
                    src.name
                ),
            ));
        }
    }
    let cols = Columns {
        round: round_c,
        home: home_c,
        away: away_c,
        result: result_c,
        home_wins: hw_c,
        away_wins: aw_c,
        draws: dr_c,
    };
    Ok((cols, warnings))
}

/// The one warning for every empty games-won cell, naming the first.
fn empty_count_warning(src: &Source, rows: &mut Rows) -> Option<Warning> {
    let first = rows.first_empty.take()?;
    let more = match rows.empty_counts {
        1 => String::new(),
        n => format!(" (and {} more empty cells)", n - 1),
    };
    Some(Warning::new(
        EMPTY_COUNT,
        format!(
            "{}: an empty games-won cell is read as 0: {first}{more}; write 0 where a player won no game, so that a result not yet entered is not taken for one",
            src.name
        ),
    ))
}

/// The value tree of the list, as the native format would write it: the
/// reference the one-pass reader (`json`) mirrors.
fn tree(
    event_items: Vec<(Key, Node)>,
    players: &[Player],
    games: &[GameRow],
    rounds: Vec<Round>,
    len: usize,
) -> Node {
    let name = |p: usize, span: Span| node(V::Str(players[p].name.clone()), span);
    let participants = players
        .iter()
        .map(|p| {
            let mut items = vec![(key("id", p.span), node(V::Str(p.name.clone()), p.span))];
            if let Some((r, sp)) = p.dropped {
                items.push((key("withdrawn_after", sp), node(V::Int(r), sp)));
            }
            table(items, p.span)
        })
        .collect();
    let round_nodes = rounds
        .into_iter()
        .map(|r| {
            let games = r.games.iter().map(|&g| {
                let g = &games[g];
                table(
                    vec![
                        (key("home", g.home_span), name(g.home, g.home_span)),
                        (key("away", g.away_span), name(g.away, g.away_span)),
                        (
                            key("result", g.result_span),
                            node(V::Str(g.result.to_string()), g.result_span),
                        ),
                    ],
                    g.row,
                )
            });
            let byes = r.byes.into_iter().map(|b| {
                table(
                    vec![
                        (key("id", b.id_span), name(b.who, b.id_span)),
                        (key("type", b.row), node(V::Str("pairing".into()), b.row)),
                    ],
                    b.row,
                )
            });
            let sp = r.span;
            table(
                vec![
                    (key("round", sp), node(V::Int(r.number), sp)),
                    (key("games", sp), node(V::Arr(games.collect()), sp)),
                    (key("byes", sp), node(V::Arr(byes.collect()), sp)),
                ],
                sp,
            )
        })
        .collect();
    let whole = Span::new(0, len);
    table(
        vec![
            (key("event", whole), table(event_items, whole)),
            (
                key("participants", whole),
                node(V::Arr(participants), whole),
            ),
            (key("rounds", whole), node(V::Arr(round_nodes), whole)),
        ],
        whole,
    )
}

/// The records from byte `header_start` on, header first, as the `csv`
/// crate splits them (quotes, any line end), with each cell's place.
fn crate_records(src: &Source, header_start: usize, delim: u8) -> Result<Vec<Vec<Cell<'_>>>, Diag> {
    let text: &str = &src.text;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delim)
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .from_reader(&text.as_bytes()[header_start..]);
    let mut records: Vec<Vec<Cell>> = Vec::new();
    let mut record = csv::StringRecord::new();
    loop {
        let at = header_start + reader.position().byte() as usize;
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let at = e
                    .position()
                    .map_or(at, |p| header_start + p.byte() as usize);
                return Err(err(
                    src,
                    one_char(text, at),
                    format!("malformed CSV: {e}"),
                    "save the sheet again as CSV",
                ));
            }
        }
        // Where the record starts: the crate's position may stand on the
        // line end before it (CRLF) or on comment lines it skipped.
        let mut pos = record
            .position()
            .map_or(at, |p| header_start + p.byte() as usize);
        let b = text.as_bytes();
        while pos < b.len() {
            match b[pos] {
                b'\r' | b'\n' => pos += 1,
                b'#' => pos = text[pos..].find('\n').map_or(b.len(), |k| pos + k + 1),
                _ => break,
            }
        }
        let spans = cell_spans(text, pos, delim).map_err(|(at, what)| {
            err(
                src,
                one_char(text, at),
                format!("malformed CSV: {what}"),
                "quote a cell that contains the separator with double quotes",
            )
        })?;
        if record.iter().all(str::is_empty) {
            continue; // an empty spreadsheet row
        }
        let line_end = text[pos..]
            .find(['\n', '\r'])
            .map_or(text.len(), |k| pos + k);
        let whole = Span::new(pos, line_end);
        records.push(
            record
                .iter()
                .enumerate()
                .map(|(i, t)| Cell {
                    text: Cow::Owned(t.to_string()),
                    span: spans.get(i).copied().unwrap_or(whole),
                })
                .collect(),
        );
    }
    Ok(records)
}

/// Warnings for names that appear in one round only while a name one edit
/// from it (a letter changed, added or left out, or two neighbours swapped)
/// has no game or bye in that round: most likely one player, misspelt once
/// (`Alcie` for `Alice`), who would otherwise be a new player and leave the
/// real one absent. Names under four characters are too often one letter
/// apart by chance (`Al`, `Ed`).
///
/// Linear in the players, not quadratic: two names one edit apart share a
/// key with at most one character deleted from each, so the one-round
/// names' keys are indexed by those deletions and every other name looks
/// up its own. A deletion shared by more than [`CROWD`] names (a numbered
/// field, `player0001` ...) says nothing about a misspelling and is skipped;
/// past [`MAX_SIMILAR`] warnings the rest are counted in one.
fn similar_names(
    src: &Source,
    players: &[Player],
    plays_in: &dyn Fn(usize, i64) -> bool,
    rounds: usize,
) -> Vec<Warning> {
    const CROWD: usize = 32;
    const MAX_SIMILAR: usize = 100;
    let mut out = Vec::new();
    if rounds < 2 {
        return out;
    }
    // A key and the keys with one character deleted.
    let variants = |key: &str| -> Vec<String> {
        let cs: Vec<char> = key.chars().collect();
        let mut v = vec![key.to_string()];
        for k in 0..cs.len() {
            v.push(cs[..k].iter().chain(&cs[k + 1..]).collect());
        }
        v
    };
    let mut index: HashMap<String, Vec<usize>> = HashMap::default();
    for (i, p) in players.iter().enumerate() {
        if p.rounds == 1 && p.key.chars().count() >= 4 {
            for v in variants(&p.key) {
                index.entry(v).or_default().push(i);
            }
        }
    }
    if index.is_empty() {
        return out;
    }
    // The rounds of the one-round names: a name that plays in each of
    // them is never the name meant either (when there are few to look at).
    let mut lone_rounds: Vec<i64> = players
        .iter()
        .filter(|p| p.rounds == 1 && p.key.chars().count() >= 4)
        .map(|p| p.first_round)
        .collect();
    lone_rounds.sort_unstable();
    lone_rounds.dedup();
    let in_every_lone_round =
        |j: usize| lone_rounds.len() <= 8 && lone_rounds.iter().all(|&r| plays_in(j, r));
    // For each one-round name, the nearest other name absent in its round
    // (the first in the file among equals).
    let mut best: HashMap<usize, (usize, usize)> = HashMap::default();
    for (j, q) in players.iter().enumerate() {
        // A name in every round is in the one-round name's round too, so
        // it is never the name meant: most names of a large event.
        if q.rounds == 0 || q.rounds >= rounds || in_every_lone_round(j) {
            continue;
        }
        for v in variants(&q.key) {
            let Some(cands) = index.get(&v).filter(|c| c.len() <= CROWD) else {
                continue;
            };
            for &i in cands {
                let p = &players[i];
                if i == j || plays_in(j, p.first_round) {
                    continue;
                }
                let d = crate::text::edit_distance(&p.key, &q.key);
                if d == 1 && best.get(&i).is_none_or(|&b| (d, j) < b) {
                    best.insert(i, (d, j));
                }
            }
        }
    }
    let mut found: Vec<(usize, usize)> = best.into_iter().map(|(i, (_, j))| (i, j)).collect();
    found.sort_unstable();
    for &(i, j) in found.iter().take(MAX_SIMILAR) {
        let (p, q) = (&players[i], &players[j]);
        let (line, col) = src.line_col(p.span.start);
        out.push(Warning::new(
            SIMILAR_NAME,
            format!(
                "`{}` ({}:{line}:{col}) plays only in round {}, where `{}` has no game: did you mean `{}`? Correct the spelling if they are one player",
                p.name, src.name, p.first_round, q.name, q.name
            ),
        ));
    }
    if found.len() > MAX_SIMILAR {
        out.push(Warning::new(
            SIMILAR_NAME,
            format!(
                "{} more names play in one round only, each one letter from a name absent in that round",
                found.len() - MAX_SIMILAR
            ),
        ));
    }
    out
}

/// A span of the one character at byte `at` (not one byte: the text may be
/// any UTF-8).
fn one_char(text: &str, at: usize) -> Span {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let len = text[at..].chars().next().map_or(0, char::len_utf8);
    Span::new(at, at + len)
}
