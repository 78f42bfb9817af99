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
//! - Pairs events: every `BOARD/TRAVELLER_LINE` gives a board to both pairs
//!   (`NS_MATCH_POINTS`, `EW_MATCH_POINTS`; the top is their sum; a `SCORE`
//!   that is not a number, such as "A6040" or "NP", is an awarded score, an
//!   unplayed board). The boards two pairs played against each other form
//!   one encounter, an entry in each pair's rounds, with the unit `mp`.
//!   A pair's score is the `TOTAL_SCORE` the scorer published (a
//!   percentage, with any handicap or adjustment in it): USEBIO does not say
//!   how it was computed, and ties are ties in the published scores. Each
//!   encounter carries the share of it in proportion to the matchpoints won
//!   there. An encounter's `weight` is its number of boards over the most
//!   common number of boards per encounter (3 boards in a 2-board movement
//!   weigh 1.5).
//! - Match-based events: every `MATCH` (`ROUND_NUMBER`, `TEAM` /
//!   `NS_PAIR_NUMBER`, `OPPOSING_TEAM` / `EW_PAIR_NUMBER`, `TEAM_SCORE` /
//!   `NS_SCORE`, `OPPOSING_TEAM_SCORE` / `EW_SCORE`) is a game whose scores
//!   are the points (unit `vp`); its `BOARD`s carry `IMPS` (from the first
//!   team's side; the other side gets the negation) or `TEAM_POINTS` and
//!   `OPPOSING_TEAM_POINTS`. The match IMPs (unit `imps`) are added up from
//!   the boards when present. A team with several matches in a round (a
//!   triangle) has each weigh 1/n.
//!
//! Files are often ISO-8859-1; the CLI hands them over byte for character,
//! which is exactly Latin-1. Problems are reported all at once, each with
//! its line and column.

pub use super::limits::{MAX_INPUT_BYTES, MAX_PARTICIPANT_ROUNDS, MAX_ROUNDS};
use crate::diag::{Diag, Source, Span};
use crate::model::{
    Board, Entry, EntryExtra, Event, Kind, Member, Outcome, Participant, Pid, Scoring, Side, Sport,
    Status, System,
};
use crate::num::Num;
use roxmltree::{Document, Node, ParsingOptions};
use std::collections::{BTreeMap, HashMap};

/// Most XML nodes accepted.
pub const MAX_NODES: u32 = 5_000_000;
/// Most participants accepted.
pub const MAX_PARTICIPANTS: usize = 100_000;

const SYNTAX: &str = "tb::load::usebio::syntax";
const NOT_USEBIO: &str = "tb::load::usebio::not_usebio";
const MISSING: &str = "tb::load::usebio::missing";
const BAD_NUMBER: &str = "tb::load::usebio::bad_number";
const UNKNOWN_PARTICIPANT: &str = "tb::load::usebio::unknown_participant";
const DUPLICATE_PARTICIPANT: &str = "tb::load::usebio::duplicate_participant";
const UNSUPPORTED: &str = "tb::load::usebio::unsupported";
const INVALID: &str = "tb::load::usebio::invalid";
const TOO_LARGE: &str = "tb::load::too_large";

/// Whether a text looks like a USEBIO file (for format detection).
pub fn looks_like_usebio(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    t.starts_with("<?xml") || t.starts_with("<USEBIO") || t.starts_with("<!DOCTYPE USEBIO")
}

/// Load a USEBIO XML event.
pub fn load_usebio(source: &Source) -> Result<Event, Diag> {
    if source.text.len() > MAX_INPUT_BYTES {
        return Err(Diag::error(
            TOO_LARGE,
            format!(
                "{} is {} bytes; the most tb reads is {} bytes",
                source.name,
                source.text.len(),
                MAX_INPUT_BYTES
            ),
        )
        .in_source(source)
        .with_help("check that this is the right file"));
    }
    let opts = ParsingOptions {
        allow_dtd: true,
        nodes_limit: MAX_NODES,
        ..ParsingOptions::default()
    };
    let doc = match Document::parse_with_options(&source.text, opts) {
        Ok(d) => d,
        Err(e) => return Err(xml_error(source, &e)),
    };
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

fn xml_error(source: &Source, e: &roxmltree::Error) -> Diag {
    let pos = e.pos();
    let off = offset_of(&source.text, pos.row as usize, pos.col as usize);
    let msg = e.to_string();
    let code = if matches!(e, roxmltree::Error::NodesLimitReached) {
        TOO_LARGE
    } else {
        SYNTAX
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

fn char_span(text: &str, at: usize) -> Span {
    let mut start = at.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let end = text[start..]
        .chars()
        .next()
        .map(|c| start + c.len_utf8())
        .unwrap_or(start);
    Span::new(start, end)
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

/// A participant as the file lists it.
struct PRec {
    number: String,
    direction: Option<Dir>,
    section: Option<String>,
    name: String,
    members: Vec<Member>,
    place: Option<u32>,
    total: Option<Num>,
    values: BTreeMap<String, Num>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dir {
    Ns,
    Ew,
}

impl Dir {
    fn name(self) -> &'static str {
        match self {
            Dir::Ns => "NS",
            Dir::Ew => "EW",
        }
    }
    fn parse(s: &str) -> Option<Dir> {
        match s.trim().to_ascii_uppercase().as_str() {
            "NS" | "N" | "N-S" | "NORTH-SOUTH" => Some(Dir::Ns),
            "EW" | "E" | "E-W" | "EAST-WEST" => Some(Dir::Ew),
            _ => None,
        }
    }
}

/// Finds participants by the numbers travellers and matches use.
struct Index {
    by_number: HashMap<String, Vec<Pid>>,
}

impl Index {
    fn find(
        &self,
        recs: &[PRec],
        number: &str,
        section: &Option<String>,
        dir: Option<Dir>,
    ) -> Option<Pid> {
        let cands = self.by_number.get(number.trim())?;
        if cands.len() == 1 {
            return cands.first().copied();
        }
        let same_section: Vec<Pid> = cands
            .iter()
            .copied()
            .filter(|&p| section.is_none() || recs[p].section == *section)
            .collect();
        if same_section.len() == 1 {
            return same_section.first().copied();
        }
        let same_dir: Vec<Pid> = same_section
            .iter()
            .copied()
            .filter(|&p| dir.is_some() && recs[p].direction == dir)
            .collect();
        if same_dir.len() == 1 {
            return same_dir.first().copied();
        }
        None
    }
}

fn build(cx: &mut Cx, doc: &Document) -> Option<Event> {
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
    let event_type = event_node
        .attribute("EVENT_TYPE")
        .map(|s| s.trim().to_ascii_uppercase())
        .unwrap_or_default();
    let winner_type = child_text(event_node, "WINNER_TYPE").and_then(|t| t.parse::<u32>().ok());

    // Sessions, numbered by SESSION_ID when it is a number, else in order.
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

    // Participants.
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

    // Ids: the number as written, made unique with the direction, then the section.
    let ids = unique_ids(&recs);
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

    let system = match event_type.as_str() {
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

    let matches: Vec<Node> = event_node
        .descendants()
        .filter(|n| is(n, "MATCH"))
        .collect();
    let mut entries: Vec<Vec<Entry>> = vec![Vec::new(); recs.len()];
    let mut computed_total = false;
    if matches.is_empty() {
        let mp = ev.unit_id("mp");
        read_travellers(cx, event_node, &recs, &index, &sessions, mp, &mut entries);
        computed_total = true;
    } else {
        let vp = ev.unit_id("vp");
        let imps = ev.unit_id("imps");
        let scoring = read_matches(
            cx,
            &matches,
            &recs,
            &index,
            &sessions,
            (vp, imps),
            &mut entries,
        );
        if let Some(s) = scoring {
            ev.scoring = s;
        }
    }
    if !cx.errors.is_empty() {
        return None;
    }

    // Two-winner movements rank each direction separately: `field` says which.
    let two_fields = winner_type == Some(2);
    for (i, mut r) in recs.into_iter().enumerate() {
        let mut p = Participant::new(ids[i].clone(), r.name.clone());
        p.members = std::mem::take(&mut r.members);
        p.federation = r.section.clone();
        p.recorded_rank = r.place;
        p.values = std::mem::take(&mut r.values);
        let dir = r.direction.or_else(|| {
            entries[i].iter().find_map(|e| match e.side {
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
        let mut es = std::mem::take(&mut entries[i]);
        if computed_total {
            share_total(&mut es, r.total, &mut cx.warnings, &ids[i]);
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
        if computed_total {
            for (k, e) in es.iter_mut().enumerate() {
                e.round = u32::try_from(k + 1).unwrap_or(MAX_ROUNDS).min(MAX_ROUNDS);
            }
        }
        p.entries = es;
        ev.participants.push(p);
    }
    ev.rounds = ev
        .participants
        .iter()
        .flat_map(|p| p.entries.iter().map(|e| e.round))
        .max()
        .unwrap_or(0);
    // Pairs with no encounters at all keep their published score.
    if computed_total {
        for p in &mut ev.participants {
            if p.entries.is_empty() {
                if let Some(t) = p.recorded_score {
                    let mut e = Entry::unplayed(1, Status::Absent, t, &ev.scoring);
                    e.outcome = Outcome::Loss;
                    p.entries.push(e);
                }
            }
        }
    }
    if !computed_total {
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

/// Ids: the number as written; where that repeats, with the direction; where
/// that still repeats, with the section too.
fn unique_ids(recs: &[PRec]) -> Vec<String> {
    let tiers: [&dyn Fn(&PRec) -> String; 3] = [
        &|r: &PRec| r.number.trim().to_string(),
        &|r: &PRec| with_dir(r),
        &|r: &PRec| match &r.section {
            Some(s) if !r.number.contains(&format!("({s})")) => format!("({s}) {}", with_dir(r)),
            _ => with_dir(r),
        },
    ];
    let mut best = Vec::new();
    for tier in tiers {
        let ids: Vec<String> = recs.iter().map(tier).collect();
        let mut seen = std::collections::HashSet::new();
        let unique = ids.iter().all(|i| seen.insert(i.clone()));
        best = ids;
        if unique {
            break;
        }
    }
    best
}

fn with_dir(r: &PRec) -> String {
    let n = r.number.trim();
    match r.direction {
        Some(d) if !n.to_ascii_uppercase().ends_with(d.name()) => format!("{n} {}", d.name()),
        _ => n.to_string(),
    }
}

fn players(node: Node) -> Vec<Member> {
    node.descendants()
        .filter(|n| is(n, "PLAYER"))
        .map(|pl| {
            let name = child_text(pl, "PLAYER_NAME").unwrap_or("").to_string();
            let id = child_text(pl, "NATIONAL_ID_NUMBER")
                .or_else(|| child_text(pl, "PLAYER_NUMBER"))
                .map(str::to_string)
                .unwrap_or_else(|| name.clone());
            Member {
                id,
                name,
                rating: None,
            }
        })
        .collect()
}

/// `PLACE`, which may carry "=" for a shared place ("3=", "=3").
fn place(cx: &mut Cx, node: Node) -> Option<u32> {
    let n = child(node, "PLACE")?;
    let t = text(n);
    let digits = t.trim_matches(|c: char| c == '=' || c.is_whitespace());
    if digits.is_empty() {
        return None;
    }
    match digits.parse::<u32>() {
        Ok(v) if v >= 1 => Some(v),
        _ => {
            cx.err(
                BAD_NUMBER,
                n,
                format!("the place `{t}` is not a whole number from 1"),
                "a place is a number, with \"=\" when shared: 3 or 3=",
            );
            None
        }
    }
}

fn totals(cx: &mut Cx, node: Node, values: &mut BTreeMap<String, Num>) -> Option<Num> {
    let mut total = None;
    for (tag, key) in [
        ("TOTAL_SCORE", "total_score"),
        ("PERCENTAGE", "percentage"),
        ("HANDICAP", "handicap"),
        ("BOARDS_PLAYED", "boards_played"),
        ("CARRY_FORWARD", "carryover"),
    ] {
        if let Some(n) = child(node, tag) {
            if text(n).is_empty() {
                continue;
            }
            if let Some(v) = cx.num(n, &format!("<{tag}>")) {
                values.insert(key.into(), v);
                if tag == "TOTAL_SCORE" || (tag == "PERCENTAGE" && total.is_none()) {
                    total = Some(v);
                }
            }
        }
    }
    total
}

fn read_pair(cx: &mut Cx, node: Node, section: &Option<String>) -> Option<PRec> {
    let Some(number) = child_text(node, "PAIR_NUMBER") else {
        cx.err(
            MISSING,
            node,
            "a <PAIR> has no <PAIR_NUMBER>".into(),
            "every pair needs the number its travellers use",
        );
        return None;
    };
    let direction = child_text(node, "DIRECTION")
        .and_then(Dir::parse)
        .or_else(|| {
            let up = number.to_ascii_uppercase();
            if up.ends_with(" NS") {
                Some(Dir::Ns)
            } else if up.ends_with(" EW") {
                Some(Dir::Ew)
            } else {
                None
            }
        });
    let members = players(node);
    let name = if members.is_empty() {
        number.to_string()
    } else {
        members
            .iter()
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>()
            .join(" & ")
    };
    let mut values = BTreeMap::new();
    let total = totals(cx, node, &mut values);
    Some(PRec {
        number: number.to_string(),
        direction,
        section: section.clone(),
        name,
        members,
        place: place(cx, node),
        total,
        values,
    })
}

fn read_team(cx: &mut Cx, node: Node, section: &Option<String>) -> Option<PRec> {
    let number = node
        .attribute("TEAM_ID")
        .or_else(|| node.attribute("TEAM_NUMBER"))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .or_else(|| child_text(node, "TEAM_ID"))
        .or_else(|| child_text(node, "TEAM_NUMBER"));
    let Some(number) = number else {
        cx.err(
            MISSING,
            node,
            "a <TEAM> has no TEAM_ID or TEAM_NUMBER".into(),
            "every team needs the number its matches use",
        );
        return None;
    };
    let name = node
        .attribute("TEAM_NAME")
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .or_else(|| child_text(node, "TEAM_NAME"))
        .unwrap_or(number)
        .to_string();
    let mut values = BTreeMap::new();
    let total = totals(cx, node, &mut values);
    Some(PRec {
        number: number.to_string(),
        direction: None,
        section: section.clone(),
        name,
        members: players(node),
        place: place(cx, node),
        total,
        values,
    })
}

fn unknown(cx: &mut Cx, node: Node, what: &str, number: &str) {
    cx.err(
        UNKNOWN_PARTICIPANT,
        node,
        format!("{what} `{number}` is not among the event's participants"),
        "every pair or team a traveller or match names must be listed under <PARTICIPANTS>",
    );
}

/// Pairs events: traveller lines grouped into encounters.
fn read_travellers(
    cx: &mut Cx,
    event_node: Node,
    recs: &[PRec],
    index: &Index,
    sessions: &HashMap<usize, u32>,
    mp: crate::model::UnitId,
    entries: &mut [Vec<Entry>],
) {
    // (session, ns, ew) → boards: (number, ns mp, ew mp, played)
    type Enc = Vec<(u32, Num, Num, bool)>;
    let mut encounters: BTreeMap<(u32, Pid, Pid), Enc> = BTreeMap::new();
    for board in event_node.descendants().filter(|n| is(n, "BOARD")) {
        if board.ancestors().any(|a| is(&a, "MATCH")) {
            continue;
        }
        let section = section_of(board);
        let session = session_of(board, sessions);
        let number = match child(board, "BOARD_NUMBER") {
            Some(n) => match text(n).parse::<u32>() {
                Ok(v) => v,
                Err(_) => {
                    cx.err(
                        BAD_NUMBER,
                        n,
                        format!("the board number `{}` is not a whole number", text(n)),
                        "boards are numbered 1, 2, 3, ...",
                    );
                    continue;
                }
            },
            None => {
                cx.err(
                    MISSING,
                    board,
                    "a <BOARD> has no <BOARD_NUMBER>".into(),
                    "give each board its number",
                );
                continue;
            }
        };
        for line in board.children().filter(|c| is(c, "TRAVELLER_LINE")) {
            let side = |cx: &mut Cx, tag: &str, dir: Dir| -> Option<Pid> {
                let Some(n) = child(line, tag) else {
                    cx.err(
                        MISSING,
                        line,
                        format!("a traveller line has no <{tag}>"),
                        "each line names the North-South and East-West pairs",
                    );
                    return None;
                };
                let t = text(n);
                let found = index.find(recs, t, &section, Some(dir));
                if found.is_none() {
                    unknown(cx, n, &format!("the {} pair", dir.name()), t);
                }
                found
            };
            let ns = side(cx, "NS_PAIR_NUMBER", Dir::Ns);
            let ew = side(cx, "EW_PAIR_NUMBER", Dir::Ew);
            let mut points = |tag: &str| -> Option<Num> {
                match child(line, tag) {
                    Some(n) => cx.num(n, &format!("<{tag}>")),
                    None => {
                        cx.err(
                            MISSING,
                            line,
                            format!("a traveller line has no <{tag}>"),
                            "tb reads matchpointed travellers: NS_MATCH_POINTS and EW_MATCH_POINTS on every line",
                        );
                        None
                    }
                }
            };
            let ns_mp = points("NS_MATCH_POINTS");
            let ew_mp = points("EW_MATCH_POINTS");
            let (Some(ns), Some(ew), Some(ns_mp), Some(ew_mp)) = (ns, ew, ns_mp, ew_mp) else {
                continue;
            };
            if ns == ew {
                cx.err(
                    MISSING,
                    line,
                    "a traveller line has the same pair North-South and East-West".into(),
                    "check the pair numbers",
                );
                continue;
            }
            // A score that is not a number ("A6040", "NP") was awarded, not played.
            let played = child_text(line, "SCORE")
                .map(|s| parse_num(s).is_some())
                .unwrap_or(false);
            encounters
                .entry((session, ns, ew))
                .or_default()
                .push((number, ns_mp, ew_mp, played));
        }
    }
    // The most common number of boards per encounter is one meeting's worth.
    let mut sizes: BTreeMap<usize, usize> = BTreeMap::new();
    for b in encounters.values() {
        *sizes.entry(b.len()).or_default() += 1;
    }
    let per_round = sizes
        .iter()
        .max_by_key(|(size, count)| (**count, **size))
        .map(|(s, _)| *s)
        .unwrap_or(1)
        .max(1);
    let mut list: Vec<((u32, Pid, Pid), Enc)> = encounters.into_iter().collect();
    for (_, b) in &mut list {
        b.sort_by_key(|x| x.0);
    }
    list.sort_by_key(|((s, ns, ew), b)| (*s, b.first().map(|x| x.0).unwrap_or(0), *ns, *ew));
    for ((session, ns, ew), boards) in list {
        let weight = Num::ratio(boards.len() as i128, per_round as i128).unwrap_or(Num::ONE);
        let mut tot = (Num::ZERO, Num::ZERO);
        let mut nb = Vec::new();
        let mut eb = Vec::new();
        for &(number, a, b, played) in &boards {
            let top = a.add(b).ok();
            tot = (tot.0.add(a).unwrap_or(tot.0), tot.1.add(b).unwrap_or(tot.1));
            nb.push(Board {
                number,
                score: a,
                top,
                played,
            });
            eb.push(Board {
                number,
                score: b,
                top,
                played,
            });
        }
        let o = outcome(tot.0, tot.1);
        let mk =
            |opp: Pid, side: Side, mine: Num, theirs: Num, o: Outcome, boards: Vec<Board>| Entry {
                round: 0,
                session,
                stage: crate::model::Stage::Unstated,
                opponent: Some(opp),
                partner: None,
                status: Status::Played,
                outcome: o,
                points: mine,
                side: Some(side),
                weight,
                extra: EntryExtra::new(vec![(mp, mine)], vec![(mp, theirs)], boards),
            };
        entries[ns].push(mk(ew, Side::First, tot.0, tot.1, o, nb));
        entries[ew].push(mk(ns, Side::Second, tot.1, tot.0, flip(o), eb));
    }
}

fn outcome(a: Num, b: Num) -> Outcome {
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => Outcome::Win,
        std::cmp::Ordering::Equal => Outcome::Draw,
        std::cmp::Ordering::Less => Outcome::Loss,
    }
}

fn flip(o: Outcome) -> Outcome {
    match o {
        Outcome::Win => Outcome::Loss,
        Outcome::Draw => Outcome::Draw,
        Outcome::Loss => Outcome::Win,
    }
}

/// A pair's published total, shared among its encounters in proportion to
/// the matchpoints won in each (until now each entry's points are its MPs).
fn share_total(es: &mut [Entry], total: Option<Num>, warnings: &mut Vec<String>, id: &str) {
    let Some(t) = total else {
        // No published total: the percentage of the matchpoints available.
        let mut top = Num::ZERO;
        for e in es.iter() {
            for b in e.boards() {
                top = top.add(b.top.unwrap_or(Num::ZERO)).unwrap_or(top);
            }
        }
        let hundred = Num::int(100);
        for e in es.iter_mut() {
            e.points = e
                .points
                .mul(hundred)
                .and_then(|x| x.div(top))
                .unwrap_or(Num::ZERO);
        }
        if top.is_zero() && !es.is_empty() {
            warnings.push(format!(
                "pair {id}: no total score and no matchpoints available"
            ));
        }
        return;
    };
    let won = es
        .iter()
        .fold(Num::ZERO, |a, e| a.add(e.points).unwrap_or(a));
    if es.is_empty() {
        return;
    }
    if won.is_zero() {
        for (k, e) in es.iter_mut().enumerate() {
            e.points = if k == 0 { t } else { Num::ZERO };
        }
        return;
    }
    let mut shared = Num::ZERO;
    let n = es.len();
    for (k, e) in es.iter_mut().enumerate() {
        if k + 1 == n {
            // The last share is what remains, so the sum is the total exactly
            // even where a share could not be held exactly.
            e.points = t.sub(shared).unwrap_or(Num::ZERO);
        } else {
            e.points = e
                .points
                .mul(t)
                .and_then(|x| x.div(won))
                .unwrap_or(Num::ZERO);
            shared = shared.add(e.points).unwrap_or(shared);
        }
    }
}

/// Match-based events (teams, Swiss pairs): one game per `MATCH`.
fn read_matches(
    cx: &mut Cx,
    matches: &[Node],
    recs: &[PRec],
    index: &Index,
    sessions: &HashMap<usize, u32>,
    (vp, imps): (crate::model::UnitId, crate::model::UnitId),
    entries: &mut [Vec<Entry>],
) -> Option<Scoring> {
    struct M {
        round: u32,
        session: u32,
        home: Pid,
        away: Pid,
        score: (Num, Num),
        imps: Option<(Num, Num)>,
        boards: Vec<(u32, Num, Num)>,
    }
    let mut ms: Vec<M> = Vec::new();
    for (k, m) in matches.iter().enumerate() {
        let m = *m;
        let section = section_of(m);
        let session = session_of(m, sessions);
        let round = match child(m, "ROUND_NUMBER") {
            Some(n) => {
                match text(n).parse::<u32>() {
                    Ok(v) if (1..=MAX_ROUNDS).contains(&v) => v,
                    _ => {
                        cx.err(
                        BAD_NUMBER,
                        n,
                        format!("the round number `{}` is not a whole number from 1 to {MAX_ROUNDS}", text(n)),
                        "rounds are numbered 1, 2, 3, ...",
                    );
                        continue;
                    }
                }
            }
            None => u32::try_from(k + 1).unwrap_or(MAX_ROUNDS).min(MAX_ROUNDS),
        };
        let side = |cx: &mut Cx, tags: [&str; 2], what: &str, dir: Dir| -> Option<Pid> {
            let Some(n) = tags.iter().find_map(|t| child(m, t)) else {
                cx.err(
                    MISSING,
                    m,
                    format!("a <MATCH> has no <{}>", tags[0]),
                    "a match names both sides: TEAM and OPPOSING_TEAM (or NS_PAIR_NUMBER and EW_PAIR_NUMBER)",
                );
                return None;
            };
            let t = text(n);
            let found = index.find(recs, t, &section, Some(dir));
            if found.is_none() {
                unknown(cx, n, what, t);
            }
            found
        };
        let home = side(cx, ["TEAM", "NS_PAIR_NUMBER"], "the team", Dir::Ns);
        let away = side(
            cx,
            ["OPPOSING_TEAM", "EW_PAIR_NUMBER"],
            "the opposing team",
            Dir::Ew,
        );
        let mut score = |tags: [&str; 2]| -> Option<Num> {
            match tags.iter().find_map(|t| child(m, t)) {
                Some(n) => cx.num(n, &format!("<{}>", n.tag_name().name())),
                None => {
                    cx.err(
                        MISSING,
                        m,
                        format!("a <MATCH> has no <{}>", tags[0]),
                        "a match gives each side's score: TEAM_SCORE and OPPOSING_TEAM_SCORE",
                    );
                    None
                }
            }
        };
        let hs = score(["TEAM_SCORE", "NS_SCORE"]);
        let as_ = score(["OPPOSING_TEAM_SCORE", "EW_SCORE"]);
        let mut boards = Vec::new();
        let mut sum_imps: Option<(Num, Num)> = None;
        for b in m.children().filter(|c| is(c, "BOARD")) {
            let Some(num) = child_text(b, "BOARD_NUMBER").and_then(|t| t.parse::<u32>().ok())
            else {
                cx.err(
                    MISSING,
                    b,
                    "a match's <BOARD> has no whole-number <BOARD_NUMBER>".into(),
                    "give each board its number",
                );
                continue;
            };
            if let Some(n) = child(b, "IMPS") {
                if let Some(v) = cx.num(n, "<IMPS>") {
                    let neg = v.neg().unwrap_or(Num::ZERO);
                    boards.push((num, v, neg));
                    let (f, a) = sum_imps.unwrap_or((Num::ZERO, Num::ZERO));
                    sum_imps = Some(if v > Num::ZERO {
                        (f.add(v).unwrap_or(f), a)
                    } else {
                        (f, a.add(neg).unwrap_or(a))
                    });
                }
            } else if let (Some(t), Some(o)) =
                (child(b, "TEAM_POINTS"), child(b, "OPPOSING_TEAM_POINTS"))
            {
                if let (Some(t), Some(o)) = (
                    cx.num(t, "<TEAM_POINTS>"),
                    cx.num(o, "<OPPOSING_TEAM_POINTS>"),
                ) {
                    boards.push((num, t, o));
                }
            }
        }
        let explicit_imps = match (child(m, "TEAM_IMPS"), child(m, "OPPOSING_TEAM_IMPS")) {
            (Some(a), Some(b)) => {
                match (cx.num(a, "<TEAM_IMPS>"), cx.num(b, "<OPPOSING_TEAM_IMPS>")) {
                    (Some(a), Some(b)) => Some((a, b)),
                    _ => None,
                }
            }
            _ => None,
        };
        let (Some(home), Some(away), Some(hs), Some(as_)) = (home, away, hs, as_) else {
            continue;
        };
        if home == away {
            cx.err(
                MISSING,
                m,
                "a match has the same participant on both sides".into(),
                "check the team numbers",
            );
            continue;
        }
        ms.push(M {
            round,
            session,
            home,
            away,
            score: (hs, as_),
            imps: explicit_imps.or(sum_imps),
            boards,
        });
    }
    // Several matches in one round (a triangle): each weighs 1/n.
    let mut per_round: HashMap<(Pid, u32), i128> = HashMap::new();
    for m in &ms {
        *per_round.entry((m.home, m.round)).or_default() += 1;
        *per_round.entry((m.away, m.round)).or_default() += 1;
    }
    let mut totals: Vec<Num> = Vec::new();
    for m in &ms {
        let n = per_round
            .get(&(m.home, m.round))
            .copied()
            .unwrap_or(1)
            .max(per_round.get(&(m.away, m.round)).copied().unwrap_or(1));
        let weight = Num::ratio(1, n.max(1)).unwrap_or(Num::ONE);
        if let Ok(t) = m.score.0.add(m.score.1) {
            totals.push(t);
        }
        let o = outcome(m.score.0, m.score.1);
        let mut hu = vec![(vp, m.score.0)];
        let mut au = vec![(vp, m.score.1)];
        if let Some((f, a)) = m.imps {
            hu.push((imps, f));
            au.push((imps, a));
        }
        let hb: Vec<Board> = m
            .boards
            .iter()
            .map(|&(number, s, _)| Board {
                number,
                score: s,
                top: None,
                played: true,
            })
            .collect();
        let ab: Vec<Board> = m
            .boards
            .iter()
            .map(|&(number, _, s)| Board {
                number,
                score: s,
                top: None,
                played: true,
            })
            .collect();
        entries[m.home].push(Entry {
            round: m.round,
            session: m.session,
            stage: crate::model::Stage::Unstated,
            opponent: Some(m.away),
            partner: None,
            status: Status::Played,
            outcome: o,
            points: m.score.0,
            side: Some(Side::First),
            weight,
            extra: EntryExtra::new(hu.clone(), au.clone(), hb),
        });
        entries[m.away].push(Entry {
            round: m.round,
            session: m.session,
            stage: crate::model::Stage::Unstated,
            opponent: Some(m.home),
            partner: None,
            status: Status::Played,
            outcome: flip(o),
            points: m.score.1,
            side: Some(Side::Second),
            weight,
            extra: EntryExtra::new(au, hu, ab),
        });
    }
    for es in entries.iter_mut() {
        es.sort_by_key(|e| e.round);
    }
    // A VP scale whose two scores always add up to the same total: a draw is half.
    let first = *totals.first()?;
    if totals.iter().all(|t| *t == first) && first > Num::ZERO {
        let half = first.div(Num::int(2)).ok()?;
        return Some(Scoring {
            win: first,
            draw: half,
            loss: Num::ZERO,
        });
    }
    None
}
