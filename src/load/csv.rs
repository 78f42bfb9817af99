//! CSV match lists (card-game events run from a spreadsheet) → the native schema, so every rule and diagnostic is shared.
//!
//! ```text
//! # name: Friday Night Swiss
//! # sport: cards
//! round,home,away,result
//! 1,Ana,Ben,2-1-0
//! 1,Cleo,,bye
//! ```
//!
//! A header row names the columns (any order, any case): `round`, `home`
//! (or `player`, `player1`), `away` (or `opponent`, `player2`), and either
//! `result` (as in the native format: `2-1-0` games won-lost-drawn for cards,
//! `1-0` for chess) or the numbers `home_wins`, `away_wins` and optionally
//! `draws`. An empty `away`, or `bye` in either the away or result column,
//! is a pairing bye for the home player. Lines starting with `#` before the
//! header may set `name`, `sport` (default cards), `system` and `rounds`.
//! Participants are everyone named; their id is the name as written.

use super::native::{build_from_tree, Key, Node, V};
use crate::diag::{Diag, Source, Span};

/// Largest CSV file read (the loaders' common limit).
pub const MAX_CSV_BYTES: usize = super::limits::MAX_INPUT_BYTES;

/// One cell: its text (unquoted) and where it stands in the file.
struct Cell {
    text: String,
    span: Span,
}

/// Split one line into cells, honouring double quotes ("" inside quotes is a quote).
fn cells(line: &str, offset: usize) -> Result<Vec<Cell>, (usize, &'static str)> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    loop {
        let start = i;
        let mut text = String::new();
        if bytes.get(i) == Some(&b'"') {
            i += 1;
            loop {
                match bytes.get(i) {
                    None => return Err((offset + start, "a quote that is never closed")),
                    Some(b'"') if bytes.get(i + 1) == Some(&b'"') => {
                        text.push('"');
                        i += 2;
                    }
                    Some(b'"') => {
                        i += 1;
                        break;
                    }
                    Some(_) => {
                        let ch = line[i..].chars().next().unwrap_or(' ');
                        text.push(ch);
                        i += ch.len_utf8();
                    }
                }
            }
            if !matches!(bytes.get(i), None | Some(b',')) {
                return Err((offset + i, "text after a closing quote"));
            }
        } else {
            let end = line[i..].find(',').map(|k| i + k).unwrap_or(line.len());
            text.push_str(line[i..end].trim());
            i = end;
        }
        out.push(Cell {
            text: text.trim().to_string(),
            span: Span::new(offset + start, offset + i),
        });
        if bytes.get(i) == Some(&b',') {
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
    Diag::error("tb::load::csv::malformed", msg)
        .at(src, span, "here")
        .with_help(help)
}

/// Load a CSV match list.
pub fn load_csv(src: &Source) -> Result<crate::model::Event, Diag> {
    if src.text.len() > MAX_CSV_BYTES {
        return Err(Diag::error(
            "tb::load::too_large",
            format!("the file is larger than {MAX_CSV_BYTES} bytes"),
        )
        .in_source(src));
    }
    let text: &str = &src.text;
    let mut event_items: Vec<(Key, Node)> = Vec::new();
    let mut header: Option<Vec<(String, Span)>> = None;
    let mut rows: Vec<(Vec<Cell>, Span)> = Vec::new();
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let line_start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let line_span = Span::new(line_start, line_start + line.len());
        if line.trim().is_empty() {
            continue;
        }
        if let Some(meta) = line.trim_start().strip_prefix('#') {
            if header.is_none() {
                if let Some((k, v)) = meta.split_once(':') {
                    let k = k.trim().to_ascii_lowercase();
                    let v = v.trim();
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
            continue;
        }
        let cs = cells(line, line_start).map_err(|(at, what)| {
            // One character at `at` (not one byte: the text may be any UTF-8).
            let mut at = at.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let len = text[at..].chars().next().map_or(0, char::len_utf8);
            err(
                src,
                Span::new(at, (at + len).min(line_span.end.max(at))),
                format!("malformed CSV: {what}"),
                "quote a cell that contains commas with double quotes",
            )
        })?;
        match &header {
            None => {
                header = Some(
                    cs.into_iter()
                        .map(|c| (c.text.to_ascii_lowercase(), c.span))
                        .collect(),
                )
            }
            Some(_) => rows.push((cs, line_span)),
        }
    }
    let header = header.ok_or_else(|| {
        Diag::error("tb::load::csv::no_header", "the CSV file has no header row")
            .in_source(src)
            .with_help("start with a row such as `round,home,away,result`")
    })?;
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
        return Err(Diag::error(
            "tb::load::csv::missing_column",
            "the header needs at least `round` and `home` columns",
        )
        .at(src, header_span, "header")
        .with_help(
            "e.g. `round,home,away,result` or `round,home,away,home_wins,away_wins,draws`",
        ));
    };
    if result_c.is_none() && (hw_c.is_none() || aw_c.is_none()) {
        return Err(Diag::error(
            "tb::load::csv::missing_column",
            "the header needs a `result` column or `home_wins` and `away_wins`",
        )
        .at(src, header_span, "header")
        .with_help("add `result` (e.g. 2-1-0) or the two game-win columns"));
    }
    if !event_items.iter().any(|(k, _)| k.name == "sport") {
        event_items.push((
            key("sport", Span::default()),
            node(V::Str("cards".into()), Span::default()),
        ));
    }

    // Rounds in order of first appearance, each with its games and byes.
    let mut names: Vec<(String, Span)> = Vec::new();
    let mut rounds: Vec<(i64, Span, Vec<Node>, Vec<Node>)> = Vec::new();
    for (cs, row_span) in rows {
        let get = |i: Option<usize>| i.and_then(|i| cs.get(i));
        let round_cell = get(Some(round_c)).ok_or_else(|| {
            err(
                src,
                row_span,
                "this row has no `round` cell",
                "every row needs a round number",
            )
        })?;
        let round: i64 = round_cell.text.parse().map_err(|_| {
            err(
                src,
                round_cell.span,
                format!("`{}` is not a round number", round_cell.text),
                "write a whole number such as 3",
            )
        })?;
        let home = get(Some(home_c))
            .filter(|c| !c.text.is_empty())
            .ok_or_else(|| {
                err(
                    src,
                    row_span,
                    "this row names no home player",
                    "fill in the `home` column",
                )
            })?;
        if !names.iter().any(|(n, _)| *n == home.text) {
            names.push((home.text.clone(), home.span));
        }
        let away =
            get(away_c).filter(|c| !c.text.is_empty() && !c.text.eq_ignore_ascii_case("bye"));
        let result = get(result_c);
        let is_bye = away.is_none() || result.is_some_and(|r| r.text.eq_ignore_ascii_case("bye"));
        let idx = match rounds.iter().position(|r| r.0 == round) {
            Some(i) => i,
            None => {
                rounds.push((round, round_cell.span, Vec::new(), Vec::new()));
                rounds.len() - 1
            }
        };
        if is_bye {
            let bye = table(
                vec![
                    (
                        key("id", home.span),
                        node(V::Str(home.text.clone()), home.span),
                    ),
                    (
                        key("type", row_span),
                        node(V::Str("pairing".into()), row_span),
                    ),
                ],
                row_span,
            );
            rounds[idx].3.push(bye);
            continue;
        }
        let away = away.ok_or_else(|| err(src, row_span, "no opponent", "fill in `away`"))?;
        if !names.iter().any(|(n, _)| *n == away.text) {
            names.push((away.text.clone(), away.span));
        }
        let (res_text, res_span) = match result {
            Some(r) if !r.text.is_empty() => (r.text.clone(), r.span),
            _ => {
                let num = |c: Option<&Cell>, what: &str| -> Result<(String, Span), Diag> {
                    match c {
                        Some(c) if c.text.is_empty() => Ok(("0".into(), c.span)),
                        Some(c) => c
                            .text
                            .parse::<u32>()
                            .map(|n| (n.to_string(), c.span))
                            .map_err(|_| {
                                err(
                                    src,
                                    c.span,
                                    format!("`{}` is not a number of {what}", c.text),
                                    "write a whole number",
                                )
                            }),
                        None => Ok(("0".into(), row_span)),
                    }
                };
                let (hw, s1) = num(get(hw_c), "games won")?;
                let (aw, _) = num(get(aw_c), "games won")?;
                let (dr, s3) = num(get(dr_c), "drawn games")?;
                (format!("{hw}-{aw}-{dr}"), s1.join(s3))
            }
        };
        let game = table(
            vec![
                (
                    key("home", home.span),
                    node(V::Str(home.text.clone()), home.span),
                ),
                (
                    key("away", away.span),
                    node(V::Str(away.text.clone()), away.span),
                ),
                (key("result", res_span), node(V::Str(res_text), res_span)),
            ],
            row_span,
        );
        rounds[idx].2.push(game);
    }
    rounds.sort_by_key(|r| r.0);
    let participants = names
        .into_iter()
        .map(|(n, sp)| table(vec![(key("id", sp), node(V::Str(n), sp))], sp))
        .collect();
    let round_nodes = rounds
        .into_iter()
        .map(|(r, sp, games, byes)| {
            table(
                vec![
                    (key("round", sp), node(V::Int(r), sp)),
                    (key("games", sp), node(V::Arr(games), sp)),
                    (key("byes", sp), node(V::Arr(byes), sp)),
                ],
                sp,
            )
        })
        .collect();
    let whole = Span::new(0, text.len());
    let root = table(
        vec![
            (key("event", whole), table(event_items, whole)),
            (
                key("participants", whole),
                node(V::Arr(participants), whole),
            ),
            (key("rounds", whole), node(V::Arr(round_nodes), whole)),
        ],
        whole,
    );
    build_from_tree(src, &root)
}
