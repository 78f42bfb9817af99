//! USEBIO XML (the EBU's bridge results standard, version 1.2): pairs events with travellers, and match-based teams and Swiss pairs events.
//!
//! What is read, and how it becomes the one tournament model:
//!
//! - `EVENT` (the first one; `SESSION` and `SECTION` levels may wrap its
//!   parts). `EVENT_DESCRIPTION` is the event's name, `DATE` its date,
//!   `EVENT_TYPE` (`PAIRS`, `SWISS_PAIRS`, `TEAMS`, `SWISS_TEAMS`, ...) its
//!   system, `WINNER_TYPE` 2 means the North-South and East-West pairs are
//!   ranked separately (a two-winner movement).
//! - `PARTICIPANTS/PAIR` and `PARTICIPANTS/TEAM`: the participants. A pair's
//!   id is its `PAIR_NUMBER` as written ("1 NS", "(A) 3", "7"); a team's is
//!   its `TEAM_ID`/`TEAM_NUMBER`. Where numbers repeat (pair 1 NS and pair 1
//!   EW written as "1"), the direction and then the section are added to
//!   keep ids unique. `PLACE` (which may carry "=") is the recorded rank,
//!   `TOTAL_SCORE` (or `PERCENTAGE`) the recorded score.
//! - Pairs events: every `BOARD/TRAVELLER_LINE` gives a board to both pairs,
//!   scored in matchpoints (`NS_MATCH_POINTS`, `EW_MATCH_POINTS`; the top is
//!   their sum) or in IMPs (Butler `NS_BUTLER_POINTS`, cross-IMP
//!   `NS_CROSS_IMP_POINTS`, and their `EW_`; no top). A `SCORE` that is not
//!   a number, such as "A6040" or "NP", is an awarded score, an unplayed
//!   board. The boards two pairs played against each other form one
//!   encounter, an entry in each pair's rounds, with the unit `mp` (or
//!   `pair_imps`). A pair's score is the `TOTAL_SCORE` the scorer published
//!   (a percentage or IMPs, with any adjustment in it): USEBIO does not say
//!   how it was computed, and ties are ties in the published scores. Each
//!   encounter carries the share of it in proportion to the matchpoints (or
//!   IMPs) won there. A handicapped pairs file is ranked by the score its
//!   places follow (`handicap`). An encounter's `weight` is its number of
//!   boards over the most common number of boards per encounter (3 boards
//!   in a 2-board movement weigh 1.5).
//! - Match-based events: every `MATCH` (`ROUND_NUMBER`, `TEAM` /
//!   `NS_PAIR_NUMBER`, `OPPOSING_TEAM` / `EW_PAIR_NUMBER`, `TEAM_SCORE` /
//!   `NS_SCORE`, `OPPOSING_TEAM_SCORE` / `EW_SCORE`) is a game whose scores
//!   are the points (unit `vp`); its `BOARD`s carry `IMPS` (from the first
//!   team's side; the other side gets the negation) or `TEAM_POINTS` and
//!   `OPPOSING_TEAM_POINTS`. The match IMPs (unit `imps`) are added up from
//!   the boards when present. Several short matches of a team in a round
//!   (a triangle) each weigh 1/n; full ones count fully, with a warning.
//! - Scores print with the decimals the file writes (`score_places`).
//!
//! - Refused, with one error for the whole file: individual events, and
//!   pairs travellers that give no board score at all.
//!
//! The parts: this file parses the XML and builds the event (`build`);
//! `participants` (pairs and teams, their ids), `travellers` (pairs events:
//! boards to encounters), `handicap` (which score a handicapped file places
//! by), `matches` (match-based events).
//!
//! Files are often ISO-8859-1; the CLI hands them over byte for character,
//! which is exactly Latin-1. Problems are reported all at once, each with
//! its line and column.

use super::char_span;
pub use super::limits::{MAX_INPUT_BYTES, MAX_PARTICIPANT_ROUNDS, MAX_ROUNDS};
use crate::codes;
use crate::diag::{Diag, Source, Span};
use crate::model::{
    Board, Entry, EntryExtra, Event, Kind, Member, Outcome, Participant, Pid, Scoring, Side, Sport,
    Status, System,
};
use crate::num::Num;
use roxmltree::{Document, Node, ParsingOptions};
use std::collections::{BTreeMap, HashMap};

mod guard;
pub use guard::MAX_ATTRIBUTES;
mod handicap;
mod matches;
mod participants;
mod travellers;

use matches::read_matches;
use participants::{read_pair, read_team, unique_ids, Dir, Index, PRec};
use travellers::{board_scoring, read_travellers, share_total};

/// Most XML nodes accepted.
pub const MAX_NODES: u32 = 5_000_000;
/// Most participants accepted.
pub const MAX_PARTICIPANTS: usize = 100_000;

const SYNTAX: &str = codes::LOAD_USEBIO_SYNTAX;
const NOT_USEBIO: &str = codes::LOAD_USEBIO_NOT_USEBIO;
const MISSING: &str = codes::LOAD_USEBIO_MISSING;
const BAD_NUMBER: &str = codes::LOAD_USEBIO_BAD_NUMBER;
const UNKNOWN_PARTICIPANT: &str = codes::LOAD_USEBIO_UNKNOWN_PARTICIPANT;
const DUPLICATE_PARTICIPANT: &str = codes::LOAD_USEBIO_DUPLICATE_PARTICIPANT;
const UNSUPPORTED: &str = codes::LOAD_USEBIO_UNSUPPORTED;
const INVALID: &str = codes::LOAD_USEBIO_INVALID;
const TOO_LARGE: &str = codes::LOAD_TOO_LARGE;
const DTD: &str = codes::LOAD_USEBIO_DTD;
const ATTRIBUTES: &str = codes::LOAD_USEBIO_ATTRIBUTES;

/// Whether a text looks like a USEBIO file (for format detection).
pub fn looks_like_usebio(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    t.starts_with("<?xml") || t.starts_with("<USEBIO") || t.starts_with("<!DOCTYPE USEBIO")
}

/// Load a USEBIO XML event.
pub fn load_usebio(source: &Source) -> Result<Event, Diag> {
    super::limits::check_input_size(source, "check that this is the right file")?;
    let doc = parse_xml(source)?;
    let mut cx = Cx {
        src: source,
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    let ev = build(&mut cx, &doc);
    match ev {
        Some(mut ev) if cx.errors.is_empty() => {
            ev.warnings
                .extend(cx.warnings.into_iter().map(crate::model::Warning::from));
            Ok(ev)
        }
        _ => {
            let mut errors = cx.errors;
            if errors.is_empty() {
                errors.push(Diag::error(INVALID, "the file could not be read").in_source(source));
            }
            let n = errors.len();
            Err(Diag::many(
                INVALID,
                format!(
                    "{} has {n} problem{}",
                    source.name,
                    if n == 1 { "" } else { "s" }
                ),
                errors,
            ))
        }
    }
}

/// Parse the XML, refusing first what would make the reader slow or
/// large (`guard`): a DTD of the file's own, an element crowded with
/// attributes.
fn parse_xml(source: &Source) -> Result<Document<'_>, Diag> {
    let text = &source.text;
    let doctype = guard::doctype_at(text);
    if let Some(at) = doctype.filter(|&at| !guard::doctype_is_external(text, at)) {
        return Err(Diag::error(
            DTD,
            "the file declares a DTD of its own (`<!DOCTYPE ... [...]>`); tb does not read DTDs",
        )
        .at(source, Span::new(at, at + "<!DOCTYPE".len()), "a DTD of the file's own")
        .with_help("USEBIO needs no DTD of its own: keep at most `<!DOCTYPE USEBIO SYSTEM \"usebio_v1_2.dtd\">` and write every text out instead of using entities"));
    }
    if let Some(at) = guard::crowded_element(text, guard::MAX_ATTRIBUTES) {
        return Err(Diag::error(
            ATTRIBUTES,
            format!(
                "an element with more than {} attributes",
                guard::MAX_ATTRIBUTES
            ),
        )
        .at(source, char_span(text, at), "this element")
        .with_help(
            "USEBIO elements carry a handful of attributes; check that this is the right file",
        ));
    }
    let opts = ParsingOptions {
        // Only a DOCTYPE that names an external DTD gets this far; the
        // reader would refuse any other (`DtdDetected`).
        allow_dtd: doctype.is_some(),
        nodes_limit: MAX_NODES,
        ..ParsingOptions::default()
    };
    Document::parse_with_options(text, opts).map_err(|e| xml_error(source, &e))
}

fn xml_error(source: &Source, e: &roxmltree::Error) -> Diag {
    let pos = e.pos();
    let off = offset_of(&source.text, pos.row as usize, pos.col as usize);
    let msg = e.to_string();
    let code = match e {
        roxmltree::Error::NodesLimitReached => TOO_LARGE,
        // A DOCTYPE `guard` did not see: refused as it refuses one.
        roxmltree::Error::DtdDetected => DTD,
        _ => SYNTAX,
    };
    Diag::error(code, format!("XML error: {msg}"))
        .at(source, char_span(&source.text, off), "")
        .with_help("USEBIO files are XML; check that the file is complete and not damaged")
}

/// Byte offset of a 1-based row and character column.
fn offset_of(text: &str, row: usize, col: usize) -> usize {
    let mut off = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i + 1 == row {
            let within: usize = line
                .char_indices()
                .nth(col.saturating_sub(1))
                .map(|(b, _)| b)
                .unwrap_or(line.len());
            return off + within;
        }
        off += line.len();
    }
    text.len()
}

struct Cx<'s> {
    src: &'s Source,
    errors: Vec<Diag>,
    warnings: Vec<String>,
}

impl Cx<'_> {
    fn err(&mut self, code: &'static str, node: Node, msg: String, help: &str) {
        let d = Diag::error(code, msg)
            .at(self.src, span(node), "")
            .with_help(help);
        self.errors.push(d);
    }
    fn num(&mut self, node: Node, what: &str) -> Option<Num> {
        let t = text(node);
        match parse_num(t) {
            Some(n) => Some(n),
            None => {
                self.err(
                    BAD_NUMBER,
                    node,
                    format!("{what} `{t}` is not a number"),
                    "write a decimal number such as 52.08 or -1.5",
                );
                None
            }
        }
    }
}

fn span(node: Node) -> Span {
    let r = node.range();
    // Point at the start tag only, so the excerpt stays short (cut on a
    // character boundary: the text may hold any UTF-8).
    let text = node.document().input_text();
    let mut end = r.end.min(r.start + 200).max(r.start).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Span::new(r.start, end.max(r.start))
}

fn text<'a>(node: Node<'a, '_>) -> &'a str {
    node.text().unwrap_or("").trim()
}

fn parse_num(t: &str) -> Option<Num> {
    let t = t.trim();
    if t.is_empty() || t.len() > 40 {
        return None;
    }
    let t = t.strip_prefix('+').unwrap_or(t);
    Num::parse(t)
}

fn is(node: &Node, name: &str) -> bool {
    node.is_element() && node.tag_name().name().eq_ignore_ascii_case(name)
}

fn child<'a, 'i>(node: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
    node.children().find(|c| is(c, name))
}

fn child_text<'a>(node: Node<'a, '_>, name: &str) -> Option<&'a str> {
    child(node, name).map(text).filter(|t| !t.is_empty())
}

/// The `SECTION_ID` of the nearest enclosing `SECTION`, if any.
fn section_of(node: Node) -> Option<String> {
    node.ancestors().find(|a| is(a, "SECTION")).and_then(|s| {
        s.attribute("SECTION_ID")
            .map(str::to_string)
            .or_else(|| child_text(s, "SECTION_ID").map(str::to_string))
    })
}

/// The session number of the nearest enclosing `SESSION` (1 without one).
fn session_of(node: Node, sessions: &HashMap<usize, u32>) -> u32 {
    node.ancestors()
        .find(|a| is(a, "SESSION"))
        .and_then(|s| sessions.get(&s.range().start).copied())
        .unwrap_or(1)
}

/// The event in a USEBIO document: its participants, then its results
/// (matches, or traveller lines grouped into encounters), each
/// participant's entries, and the checks of its totals and size.
fn build(cx: &mut Cx, doc: &Document) -> Option<Event> {
    let event_node = event_element(cx, doc)?;
    let event_type = event_node
        .attribute("EVENT_TYPE")
        .map(|s| s.trim().to_ascii_uppercase())
        .unwrap_or_default();
    let winner_type = child_text(event_node, "WINNER_TYPE").and_then(|t| t.parse::<u32>().ok());
    let sessions = session_numbers(event_node);
    let (mut recs, rec_nodes, kind) = read_participants(cx, event_node)?;
    let (ids, index) = number_participants(cx, &recs, &rec_nodes);
    let mut ev = new_event(event_node, &event_type, kind, winner_type);
    let mut entries: Vec<Vec<Entry>> = vec![Vec::new(); recs.len()];
    let mut computed_total = false;
    let mut imp_pairs = false;
    let matches: Vec<Node> = event_node
        .descendants()
        .filter(|n| is(n, "MATCH"))
        .collect();
    if matches.is_empty() {
        let scoring = board_scoring(cx, event_node, &event_type)?;
        imp_pairs = scoring.imps();
        let unit = ev.unit_id(scoring.unit());
        let units = (scoring, unit);
        read_travellers(
            cx,
            event_node,
            &recs,
            &index,
            &sessions,
            units,
            &mut entries,
        );
        computed_total = true;
    } else {
        let units = (ev.unit_id("vp"), ev.unit_id("imps"));
        let scoring = read_matches(cx, &matches, &recs, &index, &sessions, units, &mut entries);
        if let Some(s) = scoring {
            ev.scoring = s;
        }
    }
    if !cx.errors.is_empty() {
        return None;
    }

    // Two-winner movements rank each direction separately: `field` says which.
    let two_fields = winner_type == Some(2);
    // A handicapped pairs event is ranked by the score its places follow.
    if computed_total {
        if let Some(note) = handicap::choose_score(&mut recs, two_fields) {
            cx.warnings.push(note);
        }
    }
    for (i, r) in recs.into_iter().enumerate() {
        let es = std::mem::take(&mut entries[i]);
        let totals = computed_total.then_some(imp_pairs);
        let p = participant(cx, r, &ids[i], es, two_fields, totals);
        ev.participants.push(p);
    }
    ev.score_places = score_places(event_node);
    ev.rounds = ev
        .participants
        .iter()
        .flat_map(|p| p.entries.iter().map(|e| e.round))
        .max()
        .unwrap_or(0);
    if computed_total {
        // Pairs with no encounters at all keep their published score.
        for p in &mut ev.participants {
            if p.entries.is_empty() {
                if let Some(t) = p.recorded_score {
                    let mut e = Entry::unplayed(1, Status::Absent, t, &ev.scoring);
                    e.outcome = Outcome::Loss;
                    p.entries.push(e);
                }
            }
        }
    } else {
        check_match_totals(cx, &ev);
    }
    let cells = (ev.participants.len() as u64).saturating_mul(u64::from(ev.rounds));
    if cells > MAX_PARTICIPANT_ROUNDS {
        cx.err(
            TOO_LARGE,
            event_node,
            format!(
                "{} participants over {} rounds is more than tb holds ({MAX_PARTICIPANT_ROUNDS} participant-rounds)",
                ev.participants.len(),
                ev.rounds
            ),
            "split the event into smaller files",
        );
        return None;
    }
    ev.complete_rounds();
    Some(ev)
}

/// The document's `EVENT` (the first of several, with a warning), under a
/// `USEBIO` root; a version other than 1.x is a warning.
fn event_element<'a, 'i>(cx: &mut Cx, doc: &'a Document<'i>) -> Option<Node<'a, 'i>> {
    let root = doc.root_element();
    if !is(&root, "USEBIO") {
        cx.err(
            NOT_USEBIO,
            root,
            format!(
                "the file's top element is <{}>, not <USEBIO>",
                root.tag_name().name()
            ),
            "tb reads USEBIO results files (version 1.2); other XML is not a results file it knows",
        );
        return None;
    }
    if let Some(v) = root
        .attribute("Version")
        .or_else(|| root.attribute("VERSION"))
    {
        if !v.trim().starts_with('1') {
            cx.warnings.push(format!(
                "USEBIO version {v}: tb reads version 1.2; some parts may be missed"
            ));
        }
    }
    let Some(event_node) = root.descendants().find(|n| is(n, "EVENT")) else {
        cx.err(
            MISSING,
            root,
            "the file has no <EVENT>".into(),
            "a USEBIO results file holds its event in <EVENT>",
        );
        return None;
    };
    if root.descendants().filter(|n| is(n, "EVENT")).count() > 1 {
        cx.warnings
            .push("the file holds several events; tb reads the first".to_string());
    }
    Some(event_node)
}

/// Sessions, numbered by SESSION_ID when it is a number, else in order:
/// each `SESSION` element's position in the text -> its number.
fn session_numbers(event_node: Node) -> HashMap<usize, u32> {
    let mut sessions: HashMap<usize, u32> = HashMap::new();
    for (i, s) in event_node
        .descendants()
        .filter(|n| is(n, "SESSION"))
        .enumerate()
    {
        let id = s
            .attribute("SESSION_ID")
            .or_else(|| child_text(s, "SESSION_ID"))
            .and_then(|t| t.trim().parse::<u32>().ok())
            .filter(|&n| (1..=MAX_ROUNDS).contains(&n))
            .unwrap_or(u32::try_from(i + 1).unwrap_or(1).min(MAX_ROUNDS));
        sessions.insert(s.range().start, id);
    }
    sessions
}

/// The pairs or teams under `PARTICIPANTS`, with their elements, and
/// whether they are pairs or teams; None, with an error, for none, too
/// many, or an individual event.
fn read_participants<'a, 'i>(
    cx: &mut Cx,
    event_node: Node<'a, 'i>,
) -> Option<(Vec<PRec>, Vec<Node<'a, 'i>>, Kind)> {
    let mut recs: Vec<PRec> = Vec::new();
    let mut rec_nodes: Vec<Node> = Vec::new();
    let mut kinds = (0usize, 0usize, 0usize); // pairs, teams, players
    for parts in event_node.descendants().filter(|n| is(n, "PARTICIPANTS")) {
        let section = section_of(parts);
        for p in parts.children().filter(|c| c.is_element()) {
            let rec = if is(&p, "PAIR") {
                kinds.0 += 1;
                read_pair(cx, p, &section)
            } else if is(&p, "TEAM") {
                kinds.1 += 1;
                read_team(cx, p, &section)
            } else if is(&p, "PLAYER") {
                kinds.2 += 1;
                continue;
            } else {
                continue;
            };
            if let Some(r) = rec {
                if recs.len() >= MAX_PARTICIPANTS {
                    cx.err(
                        TOO_LARGE,
                        p,
                        format!("more than {MAX_PARTICIPANTS} participants"),
                        "split the event",
                    );
                    return None;
                }
                recs.push(r);
                rec_nodes.push(p);
            }
        }
    }
    if kinds.2 > 0 && kinds.0 == 0 && kinds.1 == 0 {
        cx.err(
            UNSUPPORTED,
            event_node,
            "this is an individual event; tb reads USEBIO pairs and teams events".into(),
            "write the event in tb's native format (docs/data-format.md, individual bridge) instead",
        );
        return None;
    }
    if recs.is_empty() {
        cx.err(
            MISSING,
            event_node,
            "the event lists no participants (<PARTICIPANTS> with <PAIR> or <TEAM>)".into(),
            "a USEBIO results file lists its pairs or teams under <PARTICIPANTS>",
        );
        return None;
    }
    let kind = if kinds.1 > 0 { Kind::Team } else { Kind::Pair };
    Some((recs, rec_nodes, kind))
}

/// Each participant's id: the number as written, made unique with the
/// direction, then the section (an error for two alike); and the index
/// that finds them by number as results write it.
fn number_participants(cx: &mut Cx, recs: &[PRec], rec_nodes: &[Node]) -> (Vec<String>, Index) {
    let ids = unique_ids(recs);
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, id) in ids.iter().enumerate() {
        if let Some(&first) = seen.get(id.as_str()) {
            let d = Diag::error(
                DUPLICATE_PARTICIPANT,
                format!("two participants have the number `{id}`"),
            )
            .at(cx.src, span(rec_nodes[i]), "again here")
            .at(cx.src, span(rec_nodes[first]), "first here")
            .with_help(
                "every pair or team needs its own number (within its section and direction)",
            );
            cx.errors.push(d);
        } else {
            seen.insert(id, i);
        }
    }
    let mut index = Index {
        by_number: HashMap::new(),
    };
    for (i, r) in recs.iter().enumerate() {
        index
            .by_number
            .entry(r.number.trim().to_string())
            .or_default()
            .push(i);
        if ids[i] != r.number {
            index.by_number.entry(ids[i].clone()).or_default().push(i);
        }
    }
    (ids, index)
}

/// The event, without participants: its name, date, system (from
/// `EVENT_TYPE`), and the values `winner_type` and `boards_played`.
fn new_event(event_node: Node, event_type: &str, kind: Kind, winner_type: Option<u32>) -> Event {
    let system = match event_type {
        "PAIRS" | "MP_PAIRS" | "IMP_PAIRS" | "BUTLER_PAIRS" | "CROSS_IMP_PAIRS" => System::Movement,
        t if t.starts_with("SWISS") => System::Swiss,
        _ if kind == Kind::Pair => System::Movement,
        _ => System::Other,
    };
    let mut ev = Event::new(
        child_text(event_node, "EVENT_DESCRIPTION").unwrap_or(""),
        Sport::Bridge,
        system,
        0,
    );
    ev.kind = kind;
    ev.start_date = child_text(event_node, "DATE").map(str::to_string);
    if let Some(w) = winner_type {
        ev.values
            .insert("winner_type".into(), Num::int(i64::from(w)));
    }
    if let Some(b) = child_text(event_node, "BOARDS_PLAYED").and_then(parse_num) {
        ev.values.insert("boards_played".into(), b);
    }
    ev
}

/// A participant with its entries `es`. `totals`: in a pairs event (whose
/// totals are computed; `Some(imps)`, whether it is scored in IMPs) the
/// published total is shared over the encounters, which are numbered as
/// rounds in board order.
fn participant(
    cx: &mut Cx,
    mut r: PRec,
    id: &str,
    mut es: Vec<Entry>,
    two_fields: bool,
    totals: Option<bool>,
) -> Participant {
    let mut p = Participant::new(id.to_string(), r.name.clone());
    p.members = std::mem::take(&mut r.members);
    p.federation = r.section.clone();
    p.recorded_rank = r.place;
    p.values = std::mem::take(&mut r.values);
    let dir = r.direction.or_else(|| {
        es.iter().find_map(|e| match e.side {
            Some(Side::First) => Some(Dir::Ns),
            Some(Side::Second) => Some(Dir::Ew),
            None => None,
        })
    });
    let field = match (two_fields, dir) {
        (true, Some(Dir::Ew)) => 2,
        _ => 1,
    };
    p.values.insert("field".into(), Num::int(field));
    if let Some(imp_pairs) = totals {
        share_total(&mut es, r.total, imp_pairs, &mut cx.warnings, id);
        let total = r
            .total
            .or_else(|| es.iter().try_fold(Num::ZERO, |a, e| a.add(e.points).ok()));
        if let Some(t) = total {
            p.sessions = vec![t];
        }
    }
    p.recorded_score = r.total;
    // Each participant's encounters in board order are its rounds 1, 2, ...
    // (a pairs movement does not record round numbers).
    if totals.is_some() {
        for (k, e) in es.iter_mut().enumerate() {
            e.round = u32::try_from(k + 1).unwrap_or(MAX_ROUNDS).min(MAX_ROUNDS);
        }
    }
    p.entries = es;
    p
}

/// A match-based event: each recorded total against the sum of the
/// participant's matches, a warning where they differ.
fn check_match_totals(cx: &mut Cx, ev: &Event) {
    for p in &ev.participants {
        let total = p
            .entries
            .iter()
            .try_fold(Num::ZERO, |a, e| a.add(e.points).ok());
        if let (Some(rec), Some(t)) = (p.recorded_score, total) {
            if rec != t {
                cx.warnings.push(format!(
                    "{} ({}): the file records a total of {rec}, its matches add up to {t}",
                    p.name, p.id
                ));
            }
        }
    }
}

/// The most decimal places the file writes a participant's score with
/// (`TOTAL_SCORE`, `PERCENTAGE`), so scores print as the file has them
/// (`50.80`); None for whole numbers.
fn score_places(event_node: Node) -> Option<u32> {
    event_node
        .descendants()
        .filter(|n| is(n, "TOTAL_SCORE") || is(n, "PERCENTAGE"))
        .filter(|n| n.parent().is_some_and(|p| is(&p, "PAIR") || is(&p, "TEAM")))
        .filter_map(|n| text(n).split_once('.').map(|(_, f)| f.len()))
        .filter_map(|places| u32::try_from(places).ok())
        .filter(|&places| (1..=6).contains(&places))
        .max()
}
