//! USEBIO pairs events: every traveller line a board for both pairs, the boards two pairs played against each other one encounter, and each pair's published total shared over its encounters.

use super::participants::{unknown, Dir, Index, PRec};
use super::*;

/// The IMP tags of a Butler or cross-IMP pairs traveller line, and the kind
/// of event each says.
const IMP_TAGS: [(&str, &str); 4] = [
    ("NS_BUTLER_POINTS", "a Butler-scored pairs event"),
    ("EW_BUTLER_POINTS", "a Butler-scored pairs event"),
    ("NS_CROSS_IMP_POINTS", "a cross-IMP pairs event"),
    ("EW_CROSS_IMP_POINTS", "a cross-IMP pairs event"),
];

/// A pairs event scored by IMPs (Butler, cross-IMP), which tb does not
/// read: its `EVENT_TYPE` (`BUTLER_PAIRS`, `CROSS_IMP_PAIRS`, `CROSS_IMP`)
/// or IMP tags on traveller lines that give no matchpoints. One error for
/// the whole file, with its count of lines: each of hundreds of lines
/// lacking `NS_MATCH_POINTS` would say the same thing.
pub(super) fn refuse_imp_pairs(cx: &mut Cx, event_node: Node, event_type: &str) -> bool {
    let lines: Vec<Node> = event_node
        .descendants()
        .filter(|n| is(n, "TRAVELLER_LINE") && !n.ancestors().any(|a| is(&a, "MATCH")))
        .collect();
    let by_type = match event_type {
        "BUTLER_PAIRS" => Some("a Butler-scored pairs event"),
        "CROSS_IMP_PAIRS" | "CROSS_IMP" => Some("a cross-IMP pairs event"),
        _ => None,
    };
    let tagged = lines.iter().find_map(|l| {
        IMP_TAGS
            .iter()
            .find(|(t, _)| child(*l, t).is_some())
            .map(|&(t, k)| (*l, t, k))
    });
    let without_mp = lines
        .iter()
        .filter(|l| child(**l, "NS_MATCH_POINTS").is_none())
        .count();
    if without_mp == 0 || (by_type.is_none() && tagged.is_none()) {
        return false;
    }
    let kind = by_type.or(tagged.map(|t| t.2)).unwrap_or_default();
    let how = match (event_type.is_empty(), by_type) {
        (false, Some(_)) => format!(" (EVENT_TYPE {event_type})"),
        _ => String::new(),
    };
    let tag = tagged.map_or(String::new(), |t| format!(" (<{}>)", t.1));
    let node = tagged.map_or(event_node, |t| t.0);
    cx.err(
        UNSUPPORTED,
        node,
        format!(
            "this USEBIO file is {kind}{how}: its {} traveller line{} score the boards in IMPs{tag}, and {without_mp} give no matchpoints (<NS_MATCH_POINTS>)",
            lines.len(),
            if lines.len() == 1 { "" } else { "s" },
        ),
        "tb reads matchpointed pairs events and match-based teams and Swiss events from USEBIO, not IMP-scored pairs (Butler, cross-IMP) yet; write the event in tb's native format (docs/data-format.md)",
    );
    true
}

/// Pairs events: traveller lines grouped into encounters.
pub(super) fn read_travellers(
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
/// the matchpoints won in each (until now each entry's points are its MPs).
pub(super) fn share_total(
    es: &mut [Entry],
    total: Option<Num>,
    warnings: &mut Vec<String>,
    id: &str,
) {
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
