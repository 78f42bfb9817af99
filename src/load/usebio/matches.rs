//! USEBIO match-based events (teams, Swiss pairs): one game per `MATCH`, its boards' IMPs or points; several short matches of a team in a round (a triangle) each weigh 1/n.

use super::participants::{unknown, Dir, Index, PRec};
use super::travellers::{flip, outcome};
use super::*;

/// A match's boards: (number, home's score, away's score).
type BoardScores = Vec<(u32, Num, Num)>;

/// One `MATCH` as read: its round, session, sides, scores, IMPs and
/// boards.
struct M {
    round: u32,
    session: u32,
    home: Pid,
    away: Pid,
    score: (Num, Num),
    imps: Option<(Num, Num)>,
    boards: BoardScores,
}

/// Match-based events (teams, Swiss pairs): one game per `MATCH`.
pub(super) fn read_matches(
    cx: &mut Cx,
    matches: &[Node],
    recs: &[PRec],
    index: &Index,
    sessions: &HashMap<usize, u32>,
    units: (crate::model::UnitId, crate::model::UnitId),
    entries: &mut [Vec<Entry>],
) -> Option<Scoring> {
    let ms: Vec<M> = matches
        .iter()
        .enumerate()
        .filter_map(|(k, m)| read_match(cx, k, *m, recs, index, sessions))
        .collect();
    let per_round = matches_per_round(cx, &ms, recs);
    let mut totals: Vec<Num> = Vec::new();
    for m in &ms {
        let of = |team: Pid| {
            per_round
                .get(&(team, m.round))
                .copied()
                .unwrap_or((1, false))
        };
        let (home, away) = (of(m.home), of(m.away));
        let n = if home.1 && away.1 {
            home.0.max(away.0)
        } else {
            1
        };
        let weight = Num::ratio(1, n.max(1)).unwrap_or(Num::ONE);
        if let Ok(t) = m.score.0.add(m.score.1) {
            totals.push(t);
        }
        push_match(entries, m, weight, units);
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

/// The `k`-th `MATCH` (numbered `k + 1` when it has no round number);
/// None, with its errors, when it cannot be used.
fn read_match(
    cx: &mut Cx,
    k: usize,
    m: Node,
    recs: &[PRec],
    index: &Index,
    sessions: &HashMap<usize, u32>,
) -> Option<M> {
    let section = section_of(m);
    let session = session_of(m, sessions);
    let round = match child(m, "ROUND_NUMBER") {
        Some(n) => match text(n).parse::<u32>() {
            Ok(v) if (1..=MAX_ROUNDS).contains(&v) => v,
            _ => {
                cx.err(
                    BAD_NUMBER,
                    n,
                    format!(
                        "the round number `{}` is not a whole number from 1 to {MAX_ROUNDS}",
                        text(n)
                    ),
                    "rounds are numbered 1, 2, 3, ...",
                );
                return None;
            }
        },
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
    let (boards, sum_imps) = match_boards(cx, m);
    let explicit_imps = match (child(m, "TEAM_IMPS"), child(m, "OPPOSING_TEAM_IMPS")) {
        (Some(a), Some(b)) => match (cx.num(a, "<TEAM_IMPS>"), cx.num(b, "<OPPOSING_TEAM_IMPS>")) {
            (Some(a), Some(b)) => Some((a, b)),
            _ => None,
        },
        _ => None,
    };
    let (Some(home), Some(away), Some(hs), Some(as_)) = (home, away, hs, as_) else {
        return None;
    };
    if home == away {
        cx.err(
            MISSING,
            m,
            "a match has the same participant on both sides".into(),
            "check the team numbers",
        );
        return None;
    }
    Some(M {
        round,
        session,
        home,
        away,
        score: (hs, as_),
        imps: explicit_imps.or(sum_imps),
        boards,
    })
}

/// A match's `BOARD`s (number, home's score, away's score: IMPs, or each
/// side's points) and the IMPs they add up to for each side.
fn match_boards(cx: &mut Cx, m: Node) -> (BoardScores, Option<(Num, Num)>) {
    let mut boards = Vec::new();
    let mut sum_imps: Option<(Num, Num)> = None;
    for b in m.children().filter(|c| is(c, "BOARD")) {
        let Some(num) = child_text(b, "BOARD_NUMBER").and_then(|t| t.parse::<u32>().ok()) else {
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
    (boards, sum_imps)
}

/// How many matches each team has in each round, and whether all are
/// short: (team, round) -> (count, all short).
///
/// Several matches of a team in one round are a triangle's half
/// matches, each weighing 1/n, only when the data says so: each is
/// shorter than a full match (the most common number of boards per
/// match). USEBIO 1.2 has no weight of its own. Otherwise each counts
/// fully, with a warning: a round number that does not follow the
/// movement must not halve whole matches.
fn matches_per_round(cx: &mut Cx, ms: &[M], recs: &[PRec]) -> BTreeMap<(Pid, u32), (i128, bool)> {
    let mut sizes: BTreeMap<usize, usize> = BTreeMap::new();
    for m in ms.iter().filter(|m| !m.boards.is_empty()) {
        *sizes.entry(m.boards.len()).or_default() += 1;
    }
    let full = sizes
        .iter()
        .max_by_key(|(size, count)| (**count, **size))
        .map(|(s, _)| *s);
    let short = |m: &M| full.is_some_and(|f| !m.boards.is_empty() && m.boards.len() < f);
    let mut per_round: BTreeMap<(Pid, u32), (i128, bool)> = BTreeMap::new();
    for m in ms {
        for team in [m.home, m.away] {
            let e = per_round.entry((team, m.round)).or_insert((0, true));
            e.0 += 1;
            e.1 &= short(m);
        }
    }
    let mut full_doubles: BTreeMap<u32, Vec<&str>> = BTreeMap::new();
    for (&(team, round), &(n, all_short)) in &per_round {
        if n > 1 && !all_short {
            full_doubles
                .entry(round)
                .or_default()
                .push(recs[team].number.trim());
        }
    }
    if !full_doubles.is_empty() {
        let rounds: Vec<String> = full_doubles
            .iter()
            .map(|(r, teams)| format!("round {r}: {}", teams.join(", ")))
            .collect();
        cx.warnings.push(format!(
            "several full matches of a team under one round number ({}); each counts as a whole match (a triangle's half matches would have fewer boards than a full match)",
            rounds.join("; ")
        ));
    }
    per_round
}

/// A match's two entries, weighing `weight`: the home side first (in unit
/// `vp` its score, in unit `imps` its IMPs), its boards as each side
/// scored them.
fn push_match(
    entries: &mut [Vec<Entry>],
    m: &M,
    weight: Num,
    (vp, imps): (crate::model::UnitId, crate::model::UnitId),
) {
    let o = outcome(m.score.0, m.score.1);
    let mut hu = vec![(vp, m.score.0)];
    let mut au = vec![(vp, m.score.1)];
    if let Some((f, a)) = m.imps {
        hu.push((imps, f));
        au.push((imps, a));
    }
    let boards = |home: bool| -> Vec<Board> {
        m.boards
            .iter()
            .map(|&(number, h, a)| Board {
                number,
                score: if home { h } else { a },
                top: None,
                played: true,
            })
            .collect()
    };
    let (hb, ab) = (boards(true), boards(false));
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
