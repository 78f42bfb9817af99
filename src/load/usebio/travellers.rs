//! USEBIO pairs events: every traveller line a board for both pairs, the boards two pairs played against each other one encounter, and each pair's published total shared over its encounters.

use super::participants::{unknown, Dir, Index, PRec};
use super::*;

/// How a pairs event's traveller lines score the boards: matchpoints, or
/// IMPs (Butler: against a datum; cross-IMP: against every other table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BoardScoring {
    Matchpoints,
    Butler,
    CrossImps,
}

impl BoardScoring {
    /// The North-South and East-West tags of a traveller line.
    fn tags(self) -> [&'static str; 2] {
        match self {
            BoardScoring::Matchpoints => ["NS_MATCH_POINTS", "EW_MATCH_POINTS"],
            BoardScoring::Butler => ["NS_BUTLER_POINTS", "EW_BUTLER_POINTS"],
            BoardScoring::CrossImps => ["NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS"],
        }
    }

    /// What kind of event it makes, for messages.
    fn kind(self) -> &'static str {
        match self {
            BoardScoring::Matchpoints => "a matchpointed pairs event",
            BoardScoring::Butler => "a Butler-scored pairs event",
            BoardScoring::CrossImps => "a cross-IMP pairs event",
        }
    }

    /// The unit of an encounter: `mp`, or `pair_imps` (not `imps`: a pairs
    /// event is not converted to VPs, so its basic method of scoring is its
    /// final one, White Book 143.5.1, and `ebu/lib` reads `imps` as a teams
    /// match's IMPs).
    pub(super) fn unit(self) -> &'static str {
        match self {
            BoardScoring::Matchpoints => "mp",
            _ => "pair_imps",
        }
    }

    /// Whether the boards are scored in IMPs.
    pub(super) fn imps(self) -> bool {
        self != BoardScoring::Matchpoints
    }
}

/// The traveller lines of a pairs event (not those inside a `MATCH`).
fn pairs_lines<'a, 'i>(event_node: Node<'a, 'i>) -> Vec<Node<'a, 'i>> {
    event_node
        .descendants()
        .filter(|n| is(n, "TRAVELLER_LINE") && !n.ancestors().any(|a| is(&a, "MATCH")))
        .collect()
}

/// How the event's travellers score the boards: what the lines carry, and
/// where they carry several kinds, what the event says (`EVENT_TYPE`
/// `BUTLER_PAIRS`, `CROSS_IMP_PAIRS`, `CROSS_IMP`, or a
/// `BOARD_SCORING_METHOD` naming Butler or cross-IMPs), else matchpoints.
/// Lines that carry no board score at all tb cannot read: one error for
/// the whole file, naming the kind of event and the count of lines (each
/// of hundreds of lines would say the same thing).
pub(super) fn board_scoring(
    cx: &mut Cx,
    event_node: Node,
    event_type: &str,
) -> Option<BoardScoring> {
    use BoardScoring as S;
    let lines = pairs_lines(event_node);
    let method = child_text(event_node, "BOARD_SCORING_METHOD")
        .unwrap_or("")
        .to_ascii_uppercase();
    let declared = match event_type {
        "BUTLER_PAIRS" => Some(S::Butler),
        "CROSS_IMP_PAIRS" | "CROSS_IMP" => Some(S::CrossImps),
        _ if method.contains("BUTLER") => Some(S::Butler),
        _ if method.contains("CROSS") => Some(S::CrossImps),
        _ => None,
    };
    let carried = |s: S| {
        lines
            .iter()
            .filter(|l| child(**l, s.tags()[0]).is_some())
            .count()
    };
    let counts = [S::Matchpoints, S::Butler, S::CrossImps].map(|s| (s, carried(s)));
    if let Some(d) = declared.filter(|d| carried(*d) > 0) {
        return Some(d);
    }
    if let Some((s, _)) = counts
        .iter()
        .filter(|(_, n)| *n > 0)
        .max_by_key(|(s, n)| (*n, *s == S::Matchpoints))
    {
        return Some(*s);
    }
    if lines.is_empty() {
        return Some(declared.unwrap_or(S::Matchpoints));
    }
    let kind = declared.map_or("a pairs event", S::kind);
    let how = if declared.is_some() && !event_type.is_empty() {
        format!(" (EVENT_TYPE {event_type})")
    } else {
        String::new()
    };
    cx.err(
        UNSUPPORTED,
        lines[0],
        format!(
            "this USEBIO file is {kind}{how}, but none of its {} traveller line{} gives a score for the board: no matchpoints (<NS_MATCH_POINTS>), no Butler (<NS_BUTLER_POINTS>) or cross-IMP points (<NS_CROSS_IMP_POINTS>)",
            lines.len(),
            if lines.len() == 1 { "" } else { "s" },
        ),
        "tb reads pairs travellers scored in matchpoints, Butler IMPs or cross-IMPs; write the event in tb's native format (docs/data-format.md)",
    );
    None
}

/// A pairs event's boards for one encounter: (number, NS's score, EW's
/// score, played).
type Enc = Vec<(u32, Num, Num, bool)>;

/// Pairs events: traveller lines grouped into encounters.
pub(super) fn read_travellers(
    cx: &mut Cx,
    event_node: Node,
    recs: &[PRec],
    index: &Index,
    sessions: &HashMap<usize, u32>,
    (scoring, unit): (BoardScoring, crate::model::UnitId),
    entries: &mut [Vec<Entry>],
) {
    let encounters = encounters(cx, event_node, recs, index, sessions, scoring);
    push_encounters(encounters, scoring, unit, entries);
}

/// A traveller line as read.
enum Line {
    /// Both pairs and both scores: (NS, EW, NS's score, EW's, played).
    Scored(Pid, Pid, Num, Num, bool),
    /// No score of the event's kind: the tag missing.
    Lacking(&'static str),
    /// Not usable (its errors are reported).
    Unusable,
}

/// Every traveller line outside a match, grouped by encounter: (session,
/// NS, EW) -> its boards. Lines missing a board score are counted, one
/// error for them all.
fn encounters(
    cx: &mut Cx,
    event_node: Node,
    recs: &[PRec],
    index: &Index,
    sessions: &HashMap<usize, u32>,
    scoring: BoardScoring,
) -> BTreeMap<(u32, Pid, Pid), Enc> {
    let mut lacking: Option<(Node, &str)> = None;
    let mut lacking_count = 0usize;
    let mut line_count = 0usize;
    let mut encounters: BTreeMap<(u32, Pid, Pid), Enc> = BTreeMap::new();
    for board in event_node.descendants().filter(|n| is(n, "BOARD")) {
        if board.ancestors().any(|a| is(&a, "MATCH")) {
            continue;
        }
        let section = section_of(board);
        let session = session_of(board, sessions);
        let Some(number) = board_number(cx, board) else {
            continue;
        };
        for line in board.children().filter(|c| is(c, "TRAVELLER_LINE")) {
            line_count += 1;
            match read_line(cx, line, recs, index, &section, scoring) {
                Line::Scored(ns, ew, ns_mp, ew_mp, played) => encounters
                    .entry((session, ns, ew))
                    .or_default()
                    .push((number, ns_mp, ew_mp, played)),
                Line::Lacking(tag) => {
                    lacking_count += 1;
                    if lacking.is_none() {
                        lacking = Some((line, tag));
                    }
                }
                Line::Unusable => {}
            }
        }
    }
    if let Some((line, tag)) = lacking {
        cx.err(
            MISSING,
            line,
            format!(
                "{lacking_count} of the {line_count} traveller lines of {} give no <{tag}>",
                scoring.kind()
            ),
            &format!(
                "each line gives both sides' scores: <{}> and <{}>",
                scoring.tags()[0],
                scoring.tags()[1]
            ),
        );
    }
    encounters
}

/// A `BOARD`'s number, or an error.
fn board_number(cx: &mut Cx, board: Node) -> Option<u32> {
    match child(board, "BOARD_NUMBER") {
        Some(n) => match text(n).parse::<u32>() {
            Ok(v) => Some(v),
            Err(_) => {
                cx.err(
                    BAD_NUMBER,
                    n,
                    format!("the board number `{}` is not a whole number", text(n)),
                    "boards are numbered 1, 2, 3, ...",
                );
                None
            }
        },
        None => {
            cx.err(
                MISSING,
                board,
                "a <BOARD> has no <BOARD_NUMBER>".into(),
                "give each board its number",
            );
            None
        }
    }
}

/// One traveller line of a board in `section`: its pairs and their scores
/// in the event's kind (an IMP line written with the other kind of IMP
/// tags is read too).
fn read_line(
    cx: &mut Cx,
    line: Node,
    recs: &[PRec],
    index: &Index,
    section: &Option<String>,
    scoring: BoardScoring,
) -> Line {
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
        let found = index.find(recs, t, section, Some(dir));
        if found.is_none() {
            unknown(cx, n, &format!("the {} pair", dir.name()), t);
        }
        found
    };
    let ns = side(cx, "NS_PAIR_NUMBER", Dir::Ns);
    let ew = side(cx, "EW_PAIR_NUMBER", Dir::Ew);
    let other = match scoring {
        BoardScoring::Butler => BoardScoring::CrossImps,
        BoardScoring::CrossImps => BoardScoring::Butler,
        BoardScoring::Matchpoints => BoardScoring::Matchpoints,
    };
    let tags = [scoring.tags(), other.tags()]
        .into_iter()
        .find(|t| t.iter().all(|tag| child(line, tag).is_some()));
    let Some(tags) = tags else {
        // A score that is there is still checked.
        for t in scoring.tags() {
            if let Some(n) = child(line, t) {
                cx.num(n, &format!("<{t}>"));
            }
        }
        let tag = scoring
            .tags()
            .into_iter()
            .find(|t| child(line, t).is_none());
        return Line::Lacking(tag.unwrap_or("NS_MATCH_POINTS"));
    };
    let ns_mp = child(line, tags[0]).and_then(|n| cx.num(n, &format!("<{}>", tags[0])));
    let ew_mp = child(line, tags[1]).and_then(|n| cx.num(n, &format!("<{}>", tags[1])));
    let (Some(ns), Some(ew), Some(ns_mp), Some(ew_mp)) = (ns, ew, ns_mp, ew_mp) else {
        return Line::Unusable;
    };
    if ns == ew {
        cx.err(
            MISSING,
            line,
            "a traveller line has the same pair North-South and East-West".into(),
            "check the pair numbers",
        );
        return Line::Unusable;
    }
    // A score that is not a number ("A6040", "NP") was awarded, not played.
    let played = child_text(line, "SCORE")
        .map(|s| parse_num(s).is_some())
        .unwrap_or(false);
    Line::Scored(ns, ew, ns_mp, ew_mp, played)
}

/// Each encounter's two entries (in session and board order), weighing
/// its share of a meeting's boards, with the sides' totals as points in
/// `unit`.
fn push_encounters(
    encounters: BTreeMap<(u32, Pid, Pid), Enc>,
    scoring: BoardScoring,
    unit: crate::model::UnitId,
    entries: &mut [Vec<Entry>],
) {
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
            // A matchpoint top is both sides' matchpoints together; IMPs
            // have none (their average is 0).
            let top = if scoring.imps() { None } else { a.add(b).ok() };
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
                extra: EntryExtra::new(vec![(unit, mine)], vec![(unit, theirs)], boards),
            };
        entries[ns].push(mk(ew, Side::First, tot.0, tot.1, o, nb));
        entries[ew].push(mk(ns, Side::Second, tot.1, tot.0, flip(o), eb));
    }
}

pub(super) fn outcome(a: Num, b: Num) -> Outcome {
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => Outcome::Win,
        std::cmp::Ordering::Equal => Outcome::Draw,
        std::cmp::Ordering::Less => Outcome::Loss,
    }
}

pub(super) fn flip(o: Outcome) -> Outcome {
    match o {
        Outcome::Win => Outcome::Loss,
        Outcome::Draw => Outcome::Draw,
        Outcome::Loss => Outcome::Win,
    }
}

/// A pair's published total, shared among its encounters in proportion to
/// the matchpoints (or IMPs) won in each (until now each entry's points are
/// its matchpoints or IMPs). Where IMPs add up to the total, each encounter
/// keeps its IMPs exactly.
pub(super) fn share_total(
    es: &mut [Entry],
    total: Option<Num>,
    imps: bool,
    warnings: &mut Vec<String>,
    id: &str,
) {
    let Some(t) = total else {
        if imps {
            // No published total: the IMPs themselves.
            return;
        }
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
