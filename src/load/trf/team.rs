//! TRF-26 (and TRF16) team events: the players' event read from the `001`
//! lines becomes a team event (FIDE Tie-Break Regulations Art. 11-13).
//!
//! A TRF file is a team event when it has a team record `310` (TRF-26) or
//! `013` (TRF16); otherwise nothing here runs and the individual loader is
//! unchanged. Records (columns 1-based, TRF-26 "Teams" section):
//!
//! * `310 TTT NAME(9-40) FED(42-46) RTG(48-53) MP(55-60) GP(62-67) RANK(69-71) P1 P2 ...`
//!   (players' starting numbers from column 74, five columns each): the
//!   roster in board order; MP and GP are the recorded totals (checked);
//! * `013 NAME(5-36) P1 P2 ...` (TRF16): the same without a team number
//!   (teams are numbered in file order);
//! * `300 RRR TT1 TT2 P1 P2 ...`: team TT1's line-up against TT2 in round RRR,
//!   board by board (0: board left empty); without it the players who took
//!   part are placed on boards in roster order (as FIDE's reference engine does);
//! * `320 MMMM GGGG R1 R2 ...`: the pairing-allocated bye, its MP and GP, and
//!   the team that had it in each round (columns 15-17, 19-21, ...);
//! * `330 TT RRR WWW BBB`: a forfeited match (`+-`, `-+`, `--`, or `10`,
//!   `01`, `00`, `WL`, `LW`, `LL`);
//! * `240 T RRR TTTT ...`: team byes F (full), H (half), Z (zero);
//! * `299 T MMMM GGGG RRR TTT ...`: abnormal points: the team's MP and GP in
//!   that round are set to the recorded values;
//! * `362 TW w TD d TL l`: match points for a match won, drawn, lost
//!   (default 2/1/0); `352` (colour sequence, e.g. `WBWB`) gives the number
//!   of boards;
//! * `801`/`802` are per-round summaries written from the same results;
//!   they are not needed and not read (the 310 totals are checked instead).
//!
//! Each team round becomes one entry: opponent team, MP as `points` (the
//! primary score) and in unit `mp`, GP in unit `gp` (`mp_against`,
//! `gp_against` for the opponent), one [`Board`] per board in board order.
//! Unplayed matches carry their awarded MP and GP; for the board tie-breaks
//! (Art. 12) a pairing-allocated bye's boards are wins, a full-point bye's
//! and a forfeit win's boards wins, a half-point bye's boards draws.

use crate::codes;
use crate::diag::{Diag, Source, Span};
use crate::model::{
    Board, Entry, EntryExtra, Event, Kind, Member, Outcome, Participant, Scoring, Side, Status,
};
use crate::num::Num;
use std::collections::HashMap;

const MALFORMED: &str = codes::LOAD_TRF_MALFORMED;
const UNKNOWN_TEAM: &str = codes::LOAD_TRF_UNKNOWN_TEAM;

/// One raw record line: line number, byte offset, text.
pub(crate) struct RecLine<'a> {
    pub no: usize,
    pub base: usize,
    pub text: &'a str,
}

/// A `240` bye record, as the individual loader read it.
pub(crate) struct TeamBye {
    pub line: usize,
    pub kind: Status,
    pub round: u32,
    pub ids: Vec<u32>,
}

/// A board game of a team in one round: (roster position or line-up
/// board, points, played, colour, opponent team).
type BoardGame = (usize, Num, bool, Option<Side>, Option<usize>);

/// A team's round as its players' games show it.
struct Raw {
    opp: Option<usize>,
    boards: Vec<Board>,
    first_colour: Option<Side>,
}

struct Team {
    num: u32,
    name: String,
    federation: Option<String>,
    rating: Option<i64>,
    mp: Option<Num>,
    gp: Option<Num>,
    rank: Option<u32>,
    players: Vec<u32>,
}

fn field(text: &str, c1: usize, c2: usize) -> &str {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let a = chars.get(c1 - 1).map(|x| x.0).unwrap_or(text.len());
    let b = chars.get(c2).map(|x| x.0).unwrap_or(text.len());
    text.get(a..b.max(a)).unwrap_or("")
}

fn nums(s: &str) -> Option<Vec<u32>> {
    s.split_whitespace()
        .map(|t| t.parse::<u32>().ok())
        .collect()
}

/// Whether the records make a team event.
pub(crate) fn is_team(records: &[RecLine]) -> bool {
    records
        .iter()
        .any(|l| l.text.starts_with("310") || l.text.starts_with("013"))
}

/// Build the team event from the players' event and the team records.
pub(crate) fn build(
    src: &Source,
    players: Event,
    records: &[RecLine],
    byes: &[TeamBye],
    type_code: Option<&str>,
) -> Result<Event, Diag> {
    let mut errors: Vec<Diag> = Vec::new();
    let mut warnings: Vec<String> = Vec::new();
    let (gp_primary, note) = primary_score(type_code);
    warnings.extend(note);
    let whole = |l: &RecLine| Span::new(l.base, l.base + l.text.len());
    let bad = |l: &RecLine, what: &str| {
        Diag::error(
            MALFORMED,
            format!("line {}, record {}: {what}", l.no, field(l.text, 1, 3)),
        )
        .at(
            src,
            Span::new(l.base, l.base + l.text.len()),
            what.to_string(),
        )
    };

    // Teams: 310 (TRF-26) or 013 (TRF16, numbered in file order).
    let mut teams: Vec<Team> = Vec::new();
    let has_310 = records.iter().any(|l| l.text.starts_with("310"));
    for l in records {
        let tag = field(l.text, 1, 3);
        if tag == "310" {
            let Some(num) = field(l.text, 5, 7).trim().parse::<u32>().ok() else {
                errors.push(bad(l, "expected the team number in columns 5-7"));
                continue;
            };
            let Some(ps) = nums(field(l.text, 73, usize::MAX - 1)) else {
                errors.push(bad(
                    l,
                    "expected the players' starting numbers from column 74",
                ));
                continue;
            };
            let fed = field(l.text, 42, 46).trim();
            teams.push(Team {
                num,
                name: field(l.text, 9, 40).trim().to_string(),
                federation: (!fed.is_empty()).then(|| fed.to_string()),
                rating: field(l.text, 48, 53)
                    .trim()
                    .parse::<i64>()
                    .ok()
                    .filter(|r| *r > 0),
                mp: Num::parse(field(l.text, 55, 60).trim()),
                gp: Num::parse(field(l.text, 62, 67).trim()),
                rank: field(l.text, 69, 71).trim().parse().ok(),
                players: ps.into_iter().filter(|p| *p > 0).collect(),
            });
        } else if tag == "013" && !has_310 {
            let Some(ps) = nums(field(l.text, 37, usize::MAX - 1)) else {
                errors.push(bad(
                    l,
                    "expected the players' starting numbers from column 37",
                ));
                continue;
            };
            teams.push(Team {
                num: teams.len() as u32 + 1,
                name: field(l.text, 5, 36).trim().to_string(),
                federation: None,
                rating: None,
                mp: None,
                gp: None,
                rank: None,
                players: ps.into_iter().filter(|p| *p > 0).collect(),
            });
        }
    }
    let team_index: HashMap<u32, usize> =
        teams.iter().enumerate().map(|(i, t)| (t.num, i)).collect();
    // Player pid -> (team, position in the roster).
    let mut team_of: HashMap<usize, (usize, usize)> = HashMap::new();
    for (ti, t) in teams.iter().enumerate() {
        for (k, p) in t.players.iter().enumerate() {
            match players.find(&p.to_string()) {
                Some(pid) => {
                    if team_of.insert(pid, (ti, k)).is_some() {
                        warnings.push(format!(
                            "player {p} is listed in more than one team; the last one is used"
                        ));
                    }
                }
                None => warnings.push(format!(
                    "team {} lists player {p}, who has no 001 line",
                    t.num
                )),
            }
        }
    }

    // Scoring (362), boards (352), and the other records.
    let mut mscore = Scoring {
        win: Num::int(2),
        draw: Num::ONE,
        loss: Num::ZERO,
    };
    let mut team_size: Option<u32> = None;
    let mut lineups: HashMap<(u32, usize), Vec<u32>> = HashMap::new();
    let mut pab: HashMap<(u32, usize), ()> = HashMap::new();
    let mut pab_points: Option<(Num, Num)> = None;
    let mut forfeits: HashMap<(u32, usize), (Status, usize)> = HashMap::new();
    let mut abnormal: Vec<(u32, usize, Num, Num)> = Vec::new();
    let find_team = |n: u32, l: &RecLine, errors: &mut Vec<Diag>| -> Option<usize> {
        let t = team_index.get(&n).copied();
        if t.is_none() {
            errors.push(
                Diag::error(
                    UNKNOWN_TEAM,
                    format!(
                        "line {}: record {} names team {n}, but no team record has that number",
                        l.no,
                        field(l.text, 1, 3)
                    ),
                )
                .at(src, whole(l), format!("no team {n}"))
                .with_help("teams are numbered by their 310 records (013: in file order)"),
            );
        }
        t
    };
    for l in records {
        match field(l.text, 1, 3) {
            "362" => {
                let toks: Vec<&str> = field(l.text, 5, usize::MAX - 1)
                    .split_whitespace()
                    .collect();
                let mut i = 0;
                while i < toks.len() {
                    let t = toks[i].to_ascii_uppercase();
                    // `get`: a token may start with a multi-byte character,
                    // where byte 2 is not a character boundary.
                    let (key, v, used) = if let (true, Some(k), Some(rest)) =
                        (t.len() > 2, t.get(..2), t.get(2..))
                    {
                        (k.to_string(), Num::parse(rest), 1)
                    } else {
                        (t.clone(), toks.get(i + 1).and_then(|x| Num::parse(x)), 2)
                    };
                    match (key.as_str(), v) {
                        ("TW", Some(v)) => mscore.win = v,
                        ("TD", Some(v)) => mscore.draw = v,
                        ("TL", Some(v)) => mscore.loss = v,
                        _ => {
                            i += 1;
                            continue;
                        }
                    }
                    i += used;
                }
            }
            "352" => {
                let n = field(l.text, 5, usize::MAX - 1)
                    .trim()
                    .chars()
                    .filter(|c| "WBwb".contains(*c))
                    .count() as u32;
                if n > 0 {
                    team_size = Some(n);
                }
            }
            "300" => match nums(field(l.text, 5, usize::MAX - 1)) {
                Some(v) if v.len() >= 3 => {
                    if let Some(t) = find_team(v[1], l, &mut errors) {
                        lineups.insert((v[0], t), v[3..].to_vec());
                    }
                }
                _ => errors.push(bad(l, "expected `300 RRR TT1 TT2 P1 P2 ...`")),
            },
            "320" => {
                let mp = Num::parse(field(l.text, 5, 8).trim());
                let gp = Num::parse(field(l.text, 10, 13).trim());
                match (mp, gp) {
                    (Some(m), Some(g)) => pab_points = Some((m, g)),
                    _ => {
                        errors.push(bad(l, "expected the bye's MP (columns 5-8) and GP (10-13)"));
                        continue;
                    }
                }
                let width = l.text.chars().count();
                let mut r = 1u32;
                let mut c = 15usize;
                while c <= width {
                    let f = field(l.text, c, c + 2).trim();
                    if !f.is_empty() {
                        match f.parse::<u32>() {
                            Ok(0) => {}
                            Ok(n) => {
                                if let Some(t) = find_team(n, l, &mut errors) {
                                    pab.insert((r, t), ());
                                }
                            }
                            Err(_) => errors.push(bad(
                                l,
                                &format!("expected a team number for round {r}, found `{f}`"),
                            )),
                        }
                    }
                    r += 1;
                    c += 4;
                }
            }
            "330" => {
                let toks: Vec<&str> = field(l.text, 5, usize::MAX - 1)
                    .split_whitespace()
                    .collect();
                let kind = toks.first().map(|t| t.to_ascii_uppercase());
                let rest: Option<Vec<u32>> = toks.iter().skip(1).map(|t| t.parse().ok()).collect();
                let (w, b) = match kind.as_deref() {
                    Some("+-" | "10" | "WL" | "WZ") => (Status::ForfeitWin, Status::ForfeitLoss),
                    Some("-+" | "01" | "LW" | "ZW") => (Status::ForfeitLoss, Status::ForfeitWin),
                    Some("--" | "00" | "LL" | "ZZ") => {
                        (Status::DoubleForfeit, Status::DoubleForfeit)
                    }
                    _ => {
                        errors.push(bad(
                            l,
                            "expected the forfeit type +-, -+ or -- in columns 5-6",
                        ));
                        continue;
                    }
                };
                match rest.as_deref() {
                    Some([r, tw, tb, ..]) => {
                        let a = find_team(*tw, l, &mut errors);
                        let c = find_team(*tb, l, &mut errors);
                        if let (Some(a), Some(c)) = (a, c) {
                            forfeits.insert((*r, a), (w, c));
                            forfeits.insert((*r, c), (b, a));
                        }
                    }
                    _ => errors.push(bad(l, "expected `330 TT RRR WWW BBB`")),
                }
            }
            "299" => {
                let toks: Vec<&str> = field(l.text, 5, usize::MAX - 1)
                    .split_whitespace()
                    .collect();
                let mp = toks.get(1).and_then(|t| Num::parse(t));
                let gp = toks.get(2).and_then(|t| Num::parse(t));
                let r = toks.get(3).and_then(|t| t.parse::<u32>().ok());
                let ids: Vec<u32> = toks.iter().skip(4).filter_map(|t| t.parse().ok()).collect();
                match (mp, gp, r) {
                    (Some(m), Some(g), Some(r)) if !ids.is_empty() => {
                        for id in ids {
                            if let Some(t) = find_team(id, l, &mut errors) {
                                abnormal.push((r, t, m, g));
                            }
                        }
                    }
                    _ => warnings.push(format!(
                        "record 299 on line {} names no round and team; ignored",
                        l.no
                    )),
                }
            }
            _ => {}
        }
    }
    let mut team_byes: HashMap<(u32, usize), Status> = HashMap::new();
    for b in byes {
        for &id in &b.ids {
            match team_index.get(&id) {
                Some(&t) => {
                    team_byes.insert((b.round, t), b.kind);
                }
                None => errors.push(
                    Diag::error(
                        UNKNOWN_TEAM,
                        format!("line {}: record 240 gives a bye to team {id}, but no team record has that number", b.line),
                    )
                    .in_source(src)
                    .with_help("in a team event record 240 lists team numbers"),
                ),
            }
        }
    }
    if !errors.is_empty() {
        let n = errors.len();
        let code = errors[0].code;
        return Err(
            Diag::many(code, format!("{n} problems in {}", src.name), errors).in_source(src),
        );
    }

    let game = players.scoring;
    let rounds = players.rounds;

    // Each team's boards per round, from its players' games.
    let mut raw: Vec<Vec<Option<Raw>>> = (0..teams.len())
        .map(|_| (0..=rounds).map(|_| None).collect())
        .collect();
    let mut observed_size = 0u32;
    for (ti, t) in teams.iter().enumerate() {
        for r in 1..=rounds {
            // (roster position or line-up board, points, played, colour, opponent team)
            let mut games: Vec<BoardGame> = Vec::new();
            for p in &t.players {
                let Some(pid) = players.find(&p.to_string()) else {
                    continue;
                };
                let Some(&(pt, pos)) = team_of.get(&pid) else {
                    continue;
                };
                if pt != ti {
                    continue;
                }
                let Some(e) = players.participants[pid]
                    .entries
                    .iter()
                    .find(|e| e.round == r)
                else {
                    continue;
                };
                let opp_team = e.opponent.and_then(|o| team_of.get(&o)).map(|x| x.0);
                let counts = match e.opponent {
                    Some(_) => opp_team.is_some(),
                    None => e.status == Status::ForfeitWin,
                };
                if !counts {
                    continue;
                }
                let key = match lineups.get(&(r, ti)) {
                    Some(lu) => lu
                        .iter()
                        .position(|x| x == p)
                        .map(|i| i + 1)
                        .unwrap_or(1000 + pos),
                    None => pos,
                };
                games.push((key, e.points, e.status.played(), e.side, opp_team));
            }
            if games.is_empty() {
                continue;
            }
            games.sort_by_key(|g| g.0);
            let mut count: HashMap<usize, usize> = HashMap::new();
            for g in &games {
                if let Some(o) = g.4 {
                    *count.entry(o).or_default() += 1;
                }
            }
            let opp = count
                .iter()
                .max_by_key(|(o, n)| (**n, std::cmp::Reverse(**o)))
                .map(|(o, _)| *o);
            let lineup = lineups.contains_key(&(r, ti));
            let boards: Vec<Board> = games
                .iter()
                .enumerate()
                .map(|(i, g)| Board {
                    number: if lineup && g.0 < 1000 {
                        g.0 as u32
                    } else {
                        i as u32 + 1
                    },
                    score: g.1,
                    top: Some(game.win),
                    played: g.2,
                })
                .collect();
            observed_size = observed_size.max(boards.iter().map(|b| b.number).max().unwrap_or(0));
            raw[ti][r as usize] = Some(Raw {
                opp,
                boards,
                first_colour: games.first().and_then(|g| g.3),
            });
        }
    }
    let size = team_size.unwrap_or(observed_size).max(1);
    let size_n = Num::int(size as i64);
    let times = |a: Num, b: Num| a.mul(b).unwrap_or(Num::ZERO);
    let first_is_white = records
        .iter()
        .find(|l| l.text.starts_with("352"))
        .map(|l| {
            !field(l.text, 5, usize::MAX - 1)
                .trim()
                .to_ascii_uppercase()
                .starts_with('B')
        })
        .unwrap_or(true);
    let all_boards = |each: Num, played: bool| -> Vec<Board> {
        (1..=size)
            .map(|n| Board {
                number: n,
                score: each,
                top: Some(game.win),
                played,
            })
            .collect()
    };

    let mut event = Event::new(players.name.clone(), players.sport, players.system, rounds);
    event.kind = Kind::Team;
    event.scoring = mscore;
    event.start_date = players.start_date.clone();
    event.tiebreaks = players.tiebreaks.clone();
    event.values = players.values.clone();
    event.values.insert("team_size".into(), size_n);
    event.values.insert("game_win".into(), game.win);
    event.values.insert("game_draw".into(), game.draw);
    event.values.insert("game_loss".into(), game.loss);
    let u_mp = event.unit_id("mp");
    let u_gp = event.unit_id("gp");
    event.warnings = players.warnings.clone();
    event
        .warnings
        .extend(warnings.into_iter().map(crate::model::Warning::from));

    // GP of each team-round that was played over the board.
    let gp_of = |ti: usize, r: u32| -> Option<Num> {
        raw[ti][r as usize].as_ref().map(|x| {
            x.boards
                .iter()
                .fold(Num::ZERO, |a, b| a.add(b.score).unwrap_or(a))
        })
    };
    for (ti, t) in teams.iter().enumerate() {
        let mut p = Participant::new(t.num.to_string(), t.name.clone());
        p.federation = t.federation.clone();
        p.rating = t.rating;
        p.recorded_score = t.mp;
        p.recorded_rank = t.rank;
        if let Some(g) = t.gp {
            p.values.insert("recorded_gp".into(), g);
        }
        for pl in &t.players {
            if let Some(pid) = players.find(&pl.to_string()) {
                let q = &players.participants[pid];
                p.members.push(Member {
                    id: q.id.clone(),
                    name: q.name.clone(),
                    rating: q.rating,
                });
            }
        }
        for r in 1..=rounds {
            let unplayed =
                |status: Status, mp: Num, gp: Num, boards: Vec<Board>, opp: Option<usize>| {
                    let mut e = Entry::unplayed(r, status, mp, &mscore);
                    e.opponent = opp;
                    e.extra = EntryExtra::new(vec![(u_mp, mp), (u_gp, gp)], Vec::new(), boards);
                    e
                };
            let e = if let Some(&(st, o)) = forfeits.get(&(r, ti)) {
                let win = st == Status::ForfeitWin;
                let (mp, gp) = if win {
                    (mscore.win, times(game.win, size_n))
                } else {
                    (mscore.loss, Num::ZERO)
                };
                let (omp, ogp) = if st == Status::ForfeitLoss {
                    (mscore.win, times(game.win, size_n))
                } else {
                    (mscore.loss, Num::ZERO)
                };
                let mut e = unplayed(
                    st,
                    mp,
                    gp,
                    all_boards(if win { game.win } else { game.loss }, false),
                    Some(o),
                );
                e.outcome = if win { Outcome::Win } else { Outcome::Loss };
                e.set_against(vec![(u_mp, omp), (u_gp, ogp)]);
                e
            } else if pab.contains_key(&(r, ti)) {
                let (mp, gp) = pab_points.unwrap_or((mscore.win, times(game.win, size_n)));
                // Art. 12: a pairing-allocated bye's boards count as wins.
                unplayed(
                    Status::PairingBye,
                    mp,
                    gp,
                    all_boards(game.win, false),
                    None,
                )
            } else if let Some(&kind) = team_byes.get(&(r, ti)) {
                let (mp, each) = match kind {
                    Status::FullBye => (mscore.win, game.win),
                    Status::HalfBye => (mscore.draw, game.draw),
                    _ => (mscore.loss, Num::ZERO),
                };
                unplayed(kind, mp, times(each, size_n), all_boards(each, false), None)
            } else if let Some(x) = &raw[ti][r as usize] {
                let gp = gp_of(ti, r).unwrap_or(Num::ZERO);
                let ogp = x.opp.and_then(|o| {
                    let back = raw[o][r as usize].as_ref().and_then(|y| y.opp);
                    if back != Some(ti) {
                        None
                    } else {
                        gp_of(o, r)
                    }
                });
                match (x.opp, ogp) {
                    (Some(o), Some(ogp))
                        if forfeited_match(x, raw[o][r as usize].as_ref(), gp, ogp) =>
                    {
                        // C.07 15.1: no game of the match was played and
                        // one team (or neither) scored: a forfeited match.
                        let (st, mp, omp) = if gp > ogp {
                            (Status::ForfeitWin, mscore.win, mscore.loss)
                        } else if gp < ogp {
                            (Status::ForfeitLoss, mscore.loss, mscore.win)
                        } else {
                            (Status::DoubleForfeit, mscore.loss, mscore.loss)
                        };
                        let mut e = unplayed(st, mp, gp, x.boards.clone(), Some(o));
                        e.outcome = if st == Status::ForfeitWin {
                            Outcome::Win
                        } else {
                            Outcome::Loss
                        };
                        e.set_against(vec![(u_mp, omp), (u_gp, ogp)]);
                        e
                    }
                    (Some(o), Some(ogp)) => {
                        let (outcome, mp, omp) = if gp > ogp {
                            (Outcome::Win, mscore.win, mscore.loss)
                        } else if gp == ogp {
                            (Outcome::Draw, mscore.draw, mscore.draw)
                        } else {
                            (Outcome::Loss, mscore.loss, mscore.win)
                        };
                        let side = x.first_colour.map(|c| {
                            if (c == Side::First) == first_is_white {
                                Side::First
                            } else {
                                Side::Second
                            }
                        });
                        Entry {
                            round: r,
                            session: 1,
                            stage: crate::model::Stage::Unstated,
                            opponent: Some(o),
                            partner: None,
                            status: Status::Played,
                            outcome,
                            points: mp,
                            side,
                            weight: Num::ONE,
                            extra: EntryExtra::new(
                                vec![(u_mp, mp), (u_gp, gp)],
                                vec![(u_mp, omp), (u_gp, ogp)],
                                x.boards.clone(),
                            ),
                        }
                    }
                    _ => {
                        event.warnings.push(format!(
                            "team {} in round {r}: its players' games do not name one opposing team that names it back; the round is taken as absent",
                            t.num
                        ).into());
                        unplayed(
                            Status::Absent,
                            mscore.loss,
                            Num::ZERO,
                            all_boards(Num::ZERO, false),
                            None,
                        )
                    }
                }
            } else {
                unplayed(
                    Status::Absent,
                    mscore.loss,
                    Num::ZERO,
                    all_boards(Num::ZERO, false),
                    None,
                )
            };
            p.entries.push(e);
        }
        event.participants.push(p);
    }
    // 299: abnormal points replace the round's MP and GP.
    for (r, ti, mp, gp) in abnormal {
        if let Some(e) = event.participants[ti]
            .entries
            .iter_mut()
            .find(|e| e.round == r)
        {
            e.points = mp;
            e.outcome = mscore.outcome_of(mp);
            e.set_units(vec![(u_mp, mp), (u_gp, gp)]);
        }
    }
    // Recorded totals (310) against the computed ones.
    for (p, t) in event.participants.iter().zip(&teams) {
        let mp = p
            .entries
            .iter()
            .fold(Num::ZERO, |a, e| a.add(e.points).unwrap_or(a));
        let gp = p.entries.iter().fold(Num::ZERO, |a, e| {
            a.add(e.unit(u_gp).unwrap_or(Num::ZERO)).unwrap_or(a)
        });
        if let Some(rec) = t.mp {
            if rec != mp {
                event.warnings.push(
                    format!(
                    "team {} {}: record 310 says {rec} match points but the rounds add up to {mp}",
                    t.num, t.name
                )
                    .into(),
                );
            }
        }
        if let Some(rec) = t.gp {
            if rec != gp {
                event.warnings.push(
                    format!(
                    "team {} {}: record 310 says {rec} game points but the rounds add up to {gp}",
                    t.num, t.name
                )
                    .into(),
                );
            }
        }
    }
    if gp_primary {
        make_game_points_primary(&mut event, &teams, game, size_n, u_gp);
    }
    event.complete_rounds();
    Ok(event)
}

/// Whether a match that both teams' players name is a forfeited match (C.07
/// 15.1): none of its games was played over the board, and not both teams
/// scored (as FIDE's reference engine reads it: one team forfeited every
/// board, or both did). `x` is the team's side, `other` the opponent's.
fn forfeited_match(x: &Raw, other: Option<&Raw>, gp: Num, ogp: Num) -> bool {
    let none_played = |boards: &[Board]| boards.iter().all(|b| !b.played);
    none_played(&x.boards)
        && other.map(|y| none_played(&y.boards)).unwrap_or(true)
        && !(gp > Num::ZERO && ogp > Num::ZERO)
}

/// Record 192 (TRF-26 encoded type) of a team event: whether game points are
/// the primary score (`FIDE_TEAM_TYPEA_GP`, `..._GP_MP`, ...), with a
/// warning where the code does not say and is not one tb knows to keep
/// match points primary (it then keeps them, and says so).
fn primary_score(code: Option<&str>) -> (bool, Option<String>) {
    let Some(code) = code.map(str::trim).filter(|c| !c.is_empty()) else {
        return (false, None);
    };
    let up = code.to_ascii_uppercase();
    // The scores a code names, in order: `_MP_GP` (match points primary,
    // game points secondary), `_GP_MP`, `_MP`, `_GP`, each possibly
    // followed by `_BAKU`.
    let parts: Vec<&str> = up.split('_').collect();
    match parts.iter().find(|p| **p == "MP" || **p == "GP") {
        Some(&"GP") => return (true, None),
        Some(_) => return (false, None),
        None => {}
    }
    // Team codes that name no score: match points are primary (C.07 Art. 13
    // "the default"), as FIDE's reference engine reads them.
    const MATCH_POINTS: &[&str] = &[
        "FIDE_TEAM",
        "FIDE_TEAM_BAKU",
        "CUSTOM_TEAM_SWISS",
        "BERGER_TEAM_ROUNDROBIN",
        "BERGER_TEAM_DOUBLEROUNDROBIN",
        "FIDE_TEAM_ROUNDROBIN",
        "FIDE_TEAM_DOUBLEROUNDROBIN",
        "CUSTOM_TEAM_ROUNDROBIN",
        "CUSTOM_TEAM_KNOCKOUT",
        "FIDE_SCHILLER",
        "CUSTOM_SCHILLER",
        "FIDE_SCHEVENINGEN",
        "FIDE_DOUBLESCHEVENINGEN",
        "CUSTOM_SCHEVENINGEN",
    ];
    if MATCH_POINTS.contains(&up.as_str()) {
        return (false, None);
    }
    (
        false,
        Some(format!(
            "record 192 `{code}` is not a team type tb knows and does not name the primary score \
(`FIDE_TEAM_TYPEA_MP_GP`, `FIDE_TEAM_TYPEA_GP_MP`, `..._MP`, `..._GP`); match points are taken as primary"
        )),
    )
}

/// Record 192 made game points the primary score: every entry's `points`
/// become its game points, the event's scoring that of a match in game
/// points, and the match scoring is kept as `match_win`, `match_draw`,
/// `match_loss`, with `gp_primary` = 1 (what `fide/unplayed` reads for
/// the secondary score). Units `mp` and `gp` are unchanged.
fn make_game_points_primary(
    event: &mut Event,
    teams: &[Team],
    game: Scoring,
    size: Num,
    u_gp: crate::model::UnitId,
) {
    let times = |a: Num| a.mul(size).unwrap_or(Num::ZERO);
    let mscore = event.scoring;
    event.scoring = Scoring {
        win: times(game.win),
        draw: times(game.draw),
        loss: times(game.loss),
    };
    event.values.insert("gp_primary".into(), Num::ONE);
    event.values.insert("match_win".into(), mscore.win);
    event.values.insert("match_draw".into(), mscore.draw);
    event.values.insert("match_loss".into(), mscore.loss);
    for (p, t) in event.participants.iter_mut().zip(teams) {
        p.recorded_score = t.gp;
        if let Some(mp) = t.mp {
            p.values.insert("recorded_mp".into(), mp);
        }
        for e in &mut p.entries {
            if let Some(gp) = e.unit(u_gp) {
                e.points = gp;
            }
        }
    }
}
