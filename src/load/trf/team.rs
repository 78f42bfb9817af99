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
    Warning,
};
use crate::num::Num;
use std::collections::{HashMap, HashSet};

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
    let teams = read_teams(src, records, &mut errors);
    let team_of = rosters(&players, &teams, &mut warnings);
    let mut reader = Reader {
        src,
        team_index: teams.iter().enumerate().map(|(i, t)| (t.num, i)).collect(),
        errors,
        warnings,
    };
    let recs = reader.records(records, byes);
    let Reader {
        errors, warnings, ..
    } = reader;
    if !errors.is_empty() {
        let n = errors.len();
        let code = errors[0].code;
        return Err(
            Diag::many(code, format!("{n} problems in {}", src.name), errors).in_source(src),
        );
    }

    let game = players.scoring;
    let raw = boards_played(&players, &teams, &team_of, &recs.lineups);
    let observed_size = raw
        .iter()
        .flatten()
        .flatten()
        .flat_map(|x| x.boards.iter().map(|b| b.number))
        .max()
        .unwrap_or(0);
    let size = recs.team_size.unwrap_or(observed_size).max(1);
    let mut event = team_event(&players, recs.mscore, game, size, warnings);
    let matches = Matches {
        recs: &recs,
        raw: &raw,
        game,
        size,
        size_n: Num::int(size as i64),
        u_mp: event.unit_id("mp"),
        u_gp: event.unit_id("gp"),
        first_is_white: first_is_white(records),
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
        p.members = members(&players, t);
        for r in 1..=players.rounds {
            p.entries
                .push(matches.entry(ti, t.num, r, &mut event.warnings));
        }
        event.participants.push(p);
    }
    // 299: abnormal points replace the round's MP and GP.
    let (u_mp, u_gp) = (matches.u_mp, matches.u_gp);
    for &(r, ti, mp, gp) in &recs.abnormal {
        if let Some(e) = event.participants[ti]
            .entries
            .iter_mut()
            .find(|e| e.round == r)
        {
            e.points = mp;
            e.outcome = recs.mscore.outcome_of(mp);
            e.set_units(vec![(u_mp, mp), (u_gp, gp)]);
        }
    }
    check_totals(&mut event, &teams, u_gp);
    if gp_primary {
        make_game_points_primary(&mut event, &teams, game, matches.size_n, u_gp);
    }
    event.complete_rounds();
    Ok(event)
}

/// A malformed record: an error over its whole line.
fn bad(src: &Source, l: &RecLine, what: &str) -> Diag {
    Diag::error(
        MALFORMED,
        format!("line {}, record {}: {what}", l.no, field(l.text, 1, 3)),
    )
    .at(
        src,
        Span::new(l.base, l.base + l.text.len()),
        what.to_string(),
    )
}

/// The teams: records 310 (TRF-26), or 013 (TRF16, numbered in file order)
/// when there is no 310.
fn read_teams(src: &Source, records: &[RecLine], errors: &mut Vec<Diag>) -> Vec<Team> {
    let mut teams: Vec<Team> = Vec::new();
    let has_310 = records.iter().any(|l| l.text.starts_with("310"));
    for l in records {
        let tag = field(l.text, 1, 3);
        if tag == "310" {
            let Some(num) = field(l.text, 5, 7).trim().parse::<u32>().ok() else {
                errors.push(bad(src, l, "expected the team number in columns 5-7"));
                continue;
            };
            let Some(ps) = nums(field(l.text, 73, usize::MAX - 1)) else {
                errors.push(bad(
                    src,
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
                    src,
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
    teams
}

/// Each player's team and position in its roster (player pid -> (team,
/// position)), with a warning for a player listed twice or not at all.
fn rosters(
    players: &Event,
    teams: &[Team],
    warnings: &mut Vec<String>,
) -> HashMap<usize, (usize, usize)> {
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
    team_of
}

/// What the records other than the teams' say.
struct Records {
    /// 362: match points for a match won, drawn, lost.
    mscore: Scoring,
    /// 352: the number of boards.
    team_size: Option<u32>,
    /// 300: (round, team) -> its players in board order.
    lineups: HashMap<(u32, usize), Vec<u32>>,
    /// 320: the (round, team) that had the pairing-allocated bye.
    pab: HashSet<(u32, usize)>,
    /// 320: the bye's MP and GP.
    pab_points: Option<(Num, Num)>,
    /// 330: (round, team) -> its forfeit status and opponent.
    forfeits: HashMap<(u32, usize), (Status, usize)>,
    /// 299: (round, team, MP, GP).
    abnormal: Vec<(u32, usize, Num, Num)>,
    /// 240: (round, team) -> the bye's kind.
    byes: HashMap<(u32, usize), Status>,
}

/// Reads the records that name teams by number, collecting their problems.
struct Reader<'a> {
    src: &'a Source,
    /// Team number -> index in the teams.
    team_index: HashMap<u32, usize>,
    errors: Vec<Diag>,
    warnings: Vec<String>,
}

impl Reader<'_> {
    /// The team numbered `n`, or an error on line `l` that names it.
    fn find_team(&mut self, n: u32, l: &RecLine) -> Option<usize> {
        let t = self.team_index.get(&n).copied();
        if t.is_none() {
            self.errors.push(
                Diag::error(
                    UNKNOWN_TEAM,
                    format!(
                        "line {}: record {} names team {n}, but no team record has that number",
                        l.no,
                        field(l.text, 1, 3)
                    ),
                )
                .at(
                    self.src,
                    Span::new(l.base, l.base + l.text.len()),
                    format!("no team {n}"),
                )
                .with_help("teams are numbered by their 310 records (013: in file order)"),
            );
        }
        t
    }

    fn bad(&mut self, l: &RecLine, what: &str) {
        self.errors.push(bad(self.src, l, what));
    }

    /// Records 362, 352, 300, 320, 330 and 299 in file order, then the
    /// byes of records 240.
    fn records(&mut self, records: &[RecLine], byes: &[TeamBye]) -> Records {
        let mut recs = Records {
            mscore: Scoring {
                win: Num::int(2),
                draw: Num::ONE,
                loss: Num::ZERO,
            },
            team_size: None,
            lineups: HashMap::new(),
            pab: HashSet::new(),
            pab_points: None,
            forfeits: HashMap::new(),
            abnormal: Vec::new(),
            byes: HashMap::new(),
        };
        for l in records {
            match field(l.text, 1, 3) {
                "362" => match_scoring(l, &mut recs.mscore),
                "352" => {
                    let n = field(l.text, 5, usize::MAX - 1)
                        .trim()
                        .chars()
                        .filter(|c| "WBwb".contains(*c))
                        .count() as u32;
                    if n > 0 {
                        recs.team_size = Some(n);
                    }
                }
                "300" => match nums(field(l.text, 5, usize::MAX - 1)) {
                    Some(v) if v.len() >= 3 => {
                        if let Some(t) = self.find_team(v[1], l) {
                            recs.lineups.insert((v[0], t), v[3..].to_vec());
                        }
                    }
                    _ => self.bad(l, "expected `300 RRR TT1 TT2 P1 P2 ...`"),
                },
                "320" => self.pairing_bye(l, &mut recs),
                "330" => self.forfeit(l, &mut recs.forfeits),
                "299" => self.abnormal(l, &mut recs.abnormal),
                _ => {}
            }
        }
        for b in byes {
            for &id in &b.ids {
                match self.team_index.get(&id) {
                    Some(&t) => {
                        recs.byes.insert((b.round, t), b.kind);
                    }
                    None => self.errors.push(
                        Diag::error(
                            UNKNOWN_TEAM,
                            format!("line {}: record 240 gives a bye to team {id}, but no team record has that number", b.line),
                        )
                        .in_source(self.src)
                        .with_help("in a team event record 240 lists team numbers"),
                    ),
                }
            }
        }
        recs
    }

    /// `320 MMMM GGGG R1 R2 ...`: the bye's points, and the team that had
    /// it in each round.
    fn pairing_bye(&mut self, l: &RecLine, recs: &mut Records) {
        let mp = Num::parse(field(l.text, 5, 8).trim());
        let gp = Num::parse(field(l.text, 10, 13).trim());
        match (mp, gp) {
            (Some(m), Some(g)) => recs.pab_points = Some((m, g)),
            _ => {
                self.bad(l, "expected the bye's MP (columns 5-8) and GP (10-13)");
                return;
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
                        if let Some(t) = self.find_team(n, l) {
                            recs.pab.insert((r, t));
                        }
                    }
                    Err(_) => self.bad(
                        l,
                        &format!("expected a team number for round {r}, found `{f}`"),
                    ),
                }
            }
            r += 1;
            c += 4;
        }
    }

    /// `330 TT RRR WWW BBB`: a forfeited match, for both teams.
    fn forfeit(&mut self, l: &RecLine, forfeits: &mut HashMap<(u32, usize), (Status, usize)>) {
        let toks: Vec<&str> = field(l.text, 5, usize::MAX - 1)
            .split_whitespace()
            .collect();
        let kind = toks.first().map(|t| t.to_ascii_uppercase());
        let rest: Option<Vec<u32>> = toks.iter().skip(1).map(|t| t.parse().ok()).collect();
        let (w, b) = match kind.as_deref() {
            Some("+-" | "10" | "WL" | "WZ") => (Status::ForfeitWin, Status::ForfeitLoss),
            Some("-+" | "01" | "LW" | "ZW") => (Status::ForfeitLoss, Status::ForfeitWin),
            Some("--" | "00" | "LL" | "ZZ") => (Status::DoubleForfeit, Status::DoubleForfeit),
            _ => {
                self.bad(l, "expected the forfeit type +-, -+ or -- in columns 5-6");
                return;
            }
        };
        match rest.as_deref() {
            Some([r, tw, tb, ..]) => {
                let a = self.find_team(*tw, l);
                let c = self.find_team(*tb, l);
                if let (Some(a), Some(c)) = (a, c) {
                    forfeits.insert((*r, a), (w, c));
                    forfeits.insert((*r, c), (b, a));
                }
            }
            _ => self.bad(l, "expected `330 TT RRR WWW BBB`"),
        }
    }

    /// `299 T MMMM GGGG RRR TTT ...`: the teams' MP and GP in a round.
    fn abnormal(&mut self, l: &RecLine, abnormal: &mut Vec<(u32, usize, Num, Num)>) {
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
                    if let Some(t) = self.find_team(id, l) {
                        abnormal.push((r, t, m, g));
                    }
                }
            }
            _ => self.warnings.push(format!(
                "record 299 on line {} names no round and team; ignored",
                l.no
            )),
        }
    }
}

/// `362 TW w TD d TL l` (a value may follow its key without a space):
/// match points for a match won, drawn, lost.
fn match_scoring(l: &RecLine, mscore: &mut Scoring) {
    let toks: Vec<&str> = field(l.text, 5, usize::MAX - 1)
        .split_whitespace()
        .collect();
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i].to_ascii_uppercase();
        // `get`: a token may start with a multi-byte character,
        // where byte 2 is not a character boundary.
        let (key, v, used) =
            if let (true, Some(k), Some(rest)) = (t.len() > 2, t.get(..2), t.get(2..)) {
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

/// Each team's boards in each round (`[team][round]`), from its players'
/// games.
fn boards_played(
    players: &Event,
    teams: &[Team],
    team_of: &HashMap<usize, (usize, usize)>,
    lineups: &HashMap<(u32, usize), Vec<u32>>,
) -> Vec<Vec<Option<Raw>>> {
    let rounds = players.rounds;
    let mut raw: Vec<Vec<Option<Raw>>> = (0..teams.len())
        .map(|_| (0..=rounds).map(|_| None).collect())
        .collect();
    for (ti, t) in teams.iter().enumerate() {
        for r in 1..=rounds {
            let lineup = lineups.get(&(r, ti));
            raw[ti][r as usize] = team_round(players, t, ti, r, team_of, lineup);
        }
    }
    raw
}

/// Team `ti`'s round `r` as its players' games show it (`lineup`: its
/// record 300, which numbers the boards); None when none of them counts.
fn team_round(
    players: &Event,
    t: &Team,
    ti: usize,
    r: u32,
    team_of: &HashMap<usize, (usize, usize)>,
    lineup: Option<&Vec<u32>>,
) -> Option<Raw> {
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
        let key = match lineup {
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
        return None;
    }
    games.sort_by_key(|g| g.0);
    // The opposing team: the one most boards name (the lowest on a tie).
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
    let win = players.scoring.win;
    let boards: Vec<Board> = games
        .iter()
        .enumerate()
        .map(|(i, g)| Board {
            number: if lineup.is_some() && g.0 < 1000 {
                g.0 as u32
            } else {
                i as u32 + 1
            },
            score: g.1,
            top: Some(win),
            played: g.2,
        })
        .collect();
    Some(Raw {
        opp,
        boards,
        first_colour: games.first().and_then(|g| g.3),
    })
}

/// Whether the first board of a match is White (record 352's colour
/// sequence starts with W, or there is none).
fn first_is_white(records: &[RecLine]) -> bool {
    records
        .iter()
        .find(|l| l.text.starts_with("352"))
        .map(|l| {
            !field(l.text, 5, usize::MAX - 1)
                .trim()
                .to_ascii_uppercase()
                .starts_with('B')
        })
        .unwrap_or(true)
}

/// The team event, without participants: the players' event's name,
/// dates and values, the match scoring, the game scoring and the number of
/// boards as values, and the warnings so far.
fn team_event(
    players: &Event,
    mscore: Scoring,
    game: Scoring,
    size: u32,
    warnings: Vec<String>,
) -> Event {
    let mut event = Event::new(
        players.name.clone(),
        players.sport,
        players.system,
        players.rounds,
    );
    event.kind = Kind::Team;
    event.scoring = mscore;
    event.start_date = players.start_date.clone();
    event.tiebreaks = players.tiebreaks.clone();
    event.values = players.values.clone();
    event
        .values
        .insert("team_size".into(), Num::int(size as i64));
    event.values.insert("game_win".into(), game.win);
    event.values.insert("game_draw".into(), game.draw);
    event.values.insert("game_loss".into(), game.loss);
    event.warnings = players.warnings.clone();
    event
        .warnings
        .extend(warnings.into_iter().map(crate::model::Warning::from));
    event
}

/// A team's members: its roster's players that have a 001 line.
fn members(players: &Event, t: &Team) -> Vec<Member> {
    t.players
        .iter()
        .filter_map(|pl| players.find(&pl.to_string()))
        .map(|pid| {
            let q = &players.participants[pid];
            Member {
                id: q.id.clone(),
                name: q.name.clone(),
                rating: q.rating,
            }
        })
        .collect()
}

/// What every team's round is made from: the records, the boards played,
/// the scorings and the units.
struct Matches<'a> {
    recs: &'a Records,
    /// `[team][round]`: the boards the players' games show.
    raw: &'a [Vec<Option<Raw>>],
    game: Scoring,
    size: u32,
    size_n: Num,
    u_mp: crate::model::UnitId,
    u_gp: crate::model::UnitId,
    first_is_white: bool,
}

impl Matches<'_> {
    /// Team `ti` (numbered `num`)'s entry for round `r`: a forfeited match
    /// (330), the pairing-allocated bye (320), a bye (240), the match its
    /// players played, or absent. A round whose games name no opposing
    /// team that names the team back is a warning.
    fn entry(&self, ti: usize, num: u32, r: u32, warnings: &mut Vec<Warning>) -> Entry {
        let (mscore, game) = (self.recs.mscore, self.game);
        if let Some(&(st, o)) = self.recs.forfeits.get(&(r, ti)) {
            return self.forfeit(r, st, o);
        }
        if self.recs.pab.contains(&(r, ti)) {
            let (mp, gp) = self
                .recs
                .pab_points
                .unwrap_or((mscore.win, self.times(game.win)));
            // Art. 12: a pairing-allocated bye's boards count as wins.
            return self.unplayed(
                r,
                Status::PairingBye,
                mp,
                gp,
                self.all_boards(game.win),
                None,
            );
        }
        if let Some(&kind) = self.recs.byes.get(&(r, ti)) {
            let (mp, each) = match kind {
                Status::FullBye => (mscore.win, game.win),
                Status::HalfBye => (mscore.draw, game.draw),
                _ => (mscore.loss, Num::ZERO),
            };
            return self.unplayed(r, kind, mp, self.times(each), self.all_boards(each), None);
        }
        let Some(x) = &self.raw[ti][r as usize] else {
            return self.absent(r);
        };
        let gp = self.gp_of(ti, r).unwrap_or(Num::ZERO);
        let ogp = x.opp.and_then(|o| {
            let back = self.raw[o][r as usize].as_ref().and_then(|y| y.opp);
            if back != Some(ti) {
                None
            } else {
                self.gp_of(o, r)
            }
        });
        match (x.opp, ogp) {
            (Some(o), Some(ogp))
                if forfeited_match(x, self.raw[o][r as usize].as_ref(), gp, ogp) =>
            {
                self.forfeited_over_the_board(r, x, o, gp, ogp)
            }
            (Some(o), Some(ogp)) => self.played(r, x, o, gp, ogp),
            _ => {
                warnings.push(format!(
                    "team {num} in round {r}: its players' games do not name one opposing team that names it back; the round is taken as absent"
                ).into());
                self.absent(r)
            }
        }
    }

    /// `a` times the number of boards.
    fn times(&self, a: Num) -> Num {
        a.mul(self.size_n).unwrap_or(Num::ZERO)
    }

    /// Every board of an unplayed match, each scored `each`.
    fn all_boards(&self, each: Num) -> Vec<Board> {
        (1..=self.size)
            .map(|n| Board {
                number: n,
                score: each,
                top: Some(self.game.win),
                played: false,
            })
            .collect()
    }

    /// GP of a team-round that was played over the board.
    fn gp_of(&self, ti: usize, r: u32) -> Option<Num> {
        self.raw[ti][r as usize].as_ref().map(|x| {
            x.boards
                .iter()
                .fold(Num::ZERO, |a, b| a.add(b.score).unwrap_or(a))
        })
    }

    /// An unplayed round, with its MP and GP as units and its boards.
    fn unplayed(
        &self,
        r: u32,
        status: Status,
        mp: Num,
        gp: Num,
        boards: Vec<Board>,
        opp: Option<usize>,
    ) -> Entry {
        let mut e = Entry::unplayed(r, status, mp, &self.recs.mscore);
        e.opponent = opp;
        e.extra = EntryExtra::new(vec![(self.u_mp, mp), (self.u_gp, gp)], Vec::new(), boards);
        e
    }

    /// A round the team was absent from: no points, every board lost.
    fn absent(&self, r: u32) -> Entry {
        self.unplayed(
            r,
            Status::Absent,
            self.recs.mscore.loss,
            Num::ZERO,
            self.all_boards(Num::ZERO),
            None,
        )
    }

    /// Record 330: a forfeited match against `o`, with status `st`.
    fn forfeit(&self, r: u32, st: Status, o: usize) -> Entry {
        let (mscore, game) = (self.recs.mscore, self.game);
        let win = st == Status::ForfeitWin;
        let (mp, gp) = if win {
            (mscore.win, self.times(game.win))
        } else {
            (mscore.loss, Num::ZERO)
        };
        let (omp, ogp) = if st == Status::ForfeitLoss {
            (mscore.win, self.times(game.win))
        } else {
            (mscore.loss, Num::ZERO)
        };
        let boards = self.all_boards(if win { game.win } else { game.loss });
        let mut e = self.unplayed(r, st, mp, gp, boards, Some(o));
        e.outcome = if win { Outcome::Win } else { Outcome::Loss };
        e.set_against(vec![(self.u_mp, omp), (self.u_gp, ogp)]);
        e
    }

    /// C.07 15.1: no game of the match against `o` was played and one team
    /// (or neither) scored: a forfeited match.
    fn forfeited_over_the_board(&self, r: u32, x: &Raw, o: usize, gp: Num, ogp: Num) -> Entry {
        let mscore = self.recs.mscore;
        let (st, mp, omp) = if gp > ogp {
            (Status::ForfeitWin, mscore.win, mscore.loss)
        } else if gp < ogp {
            (Status::ForfeitLoss, mscore.loss, mscore.win)
        } else {
            (Status::DoubleForfeit, mscore.loss, mscore.loss)
        };
        let mut e = self.unplayed(r, st, mp, gp, x.boards.clone(), Some(o));
        e.outcome = if st == Status::ForfeitWin {
            Outcome::Win
        } else {
            Outcome::Loss
        };
        e.set_against(vec![(self.u_mp, omp), (self.u_gp, ogp)]);
        e
    }

    /// A match played against `o`: won, drawn or lost on game points; the
    /// team's side is its first board's colour.
    fn played(&self, r: u32, x: &Raw, o: usize, gp: Num, ogp: Num) -> Entry {
        let mscore = self.recs.mscore;
        let (outcome, mp, omp) = if gp > ogp {
            (Outcome::Win, mscore.win, mscore.loss)
        } else if gp == ogp {
            (Outcome::Draw, mscore.draw, mscore.draw)
        } else {
            (Outcome::Loss, mscore.loss, mscore.win)
        };
        let side = x.first_colour.map(|c| {
            if (c == Side::First) == self.first_is_white {
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
                vec![(self.u_mp, mp), (self.u_gp, gp)],
                vec![(self.u_mp, omp), (self.u_gp, ogp)],
                x.boards.clone(),
            ),
        }
    }
}

/// Recorded totals (310) against the computed ones: a warning for each
/// that differs.
fn check_totals(event: &mut Event, teams: &[Team], u_gp: crate::model::UnitId) {
    let mut warnings = Vec::new();
    for (p, t) in event.participants.iter().zip(teams) {
        let mp = p
            .entries
            .iter()
            .fold(Num::ZERO, |a, e| a.add(e.points).unwrap_or(a));
        let gp = p.entries.iter().fold(Num::ZERO, |a, e| {
            a.add(e.unit(u_gp).unwrap_or(Num::ZERO)).unwrap_or(a)
        });
        for (what, rec, sum) in [("match", t.mp, mp), ("game", t.gp, gp)] {
            if let Some(rec) = rec.filter(|rec| *rec != sum) {
                warnings.push(Warning::from(format!(
                    "team {} {}: record 310 says {rec} {what} points but the rounds add up to {sum}",
                    t.num, t.name
                )));
            }
        }
    }
    event.warnings.extend(warnings);
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
