//! Games, boards and byes of a native event: result strings read for the sport, each side's entry, the units, and what a bye is worth.

use super::cx::HashMap;
use super::cx::{lookup, Cx, Obj};
use super::schema;
use super::tree::{Node, V};
use super::*;
use crate::model::{
    Board, Entry, EntryExtra, Event, Outcome, Pid, Scoring, Side, Sport, Stage, Status, UnitId,
};
use crate::num::Num;

/// One game as read, with both sides' entries and where it was written.
pub(super) struct GameRec {
    pub(super) round: u32,
    pub(super) span: Span,
    /// (participant, span of its id) for home, away, home partner, away partner.
    pub(super) sides: Vec<(Pid, Span)>,
    pub(super) home: Pid,
    pub(super) away: Pid,
    pub(super) weight: Num,
    pub(super) home_entry: Entry,
    pub(super) away_entry: Entry,
    pub(super) partner_entries: Vec<(Pid, Entry)>,
}

pub(super) struct ByeRec {
    pub(super) round: u32,
    pub(super) pid: Pid,
    pub(super) span: Span,
    pub(super) entry: Entry,
}

/// A result string, read for the event's sport.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Res {
    /// Each side's outcome (chess-style results).
    Outcomes(Outcome, Outcome),
    /// Games won by home, won by away, drawn (cards).
    Games(u32, u32, u32),
    /// One side forfeited; `true` when home won.
    Forfeit(bool),
    DoubleForfeit,
}

pub(super) fn parse_result(s: &str, sport: Sport) -> Option<Res> {
    let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    match t.as_str() {
        "+-" | "+:-" | "+/-" => return Some(Res::Forfeit(true)),
        "-+" | "-:+" | "-/+" => return Some(Res::Forfeit(false)),
        "--" | "-:-" | "-/-" => return Some(Res::DoubleForfeit),
        _ => {}
    }
    if sport == Sport::Cards {
        let parts: Vec<&str> = t.split('-').collect();
        if !(2..=3).contains(&parts.len()) {
            return None;
        }
        let mut g = [0u32; 3];
        for (slot, p) in g.iter_mut().zip(&parts) {
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) || p.len() > 4 {
                return None;
            }
            *slot = p.parse().ok()?;
        }
        return Some(Res::Games(g[0], g[1], g[2]));
    }
    if t == "=" {
        return Some(Res::Outcomes(Outcome::Draw, Outcome::Draw));
    }
    let side = |x: &str| -> Option<Outcome> {
        match x {
            "1" | "1.0" => Some(Outcome::Win),
            "0" | "0.0" => Some(Outcome::Loss),
            "½" | "1/2" | "0.5" | ".5" => Some(Outcome::Draw),
            _ => None,
        }
    };
    let (a, b) = t.split_once('-').or_else(|| t.split_once(':'))?;
    let (a, b) = (side(a)?, side(b)?);
    let valid = matches!(
        (a, b),
        (Outcome::Win, Outcome::Loss)
            | (Outcome::Loss, Outcome::Win)
            | (Outcome::Draw, Outcome::Draw)
            | (Outcome::Loss, Outcome::Loss)
            | (Outcome::Draw, Outcome::Loss)
            | (Outcome::Loss, Outcome::Draw)
    );
    valid.then_some(Res::Outcomes(a, b))
}

/// Whether a result `sport` cannot read is unmistakably another sport's:
/// a draw written the chess way (½, 1/2, 0.5, =) in a card-game event, or
/// games won-lost-drawn (three numbers) elsewhere.
fn other_sports_result(s: &str, sport: Sport) -> bool {
    let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    if sport == Sport::Cards {
        parse_result(&t, Sport::Chess).is_some()
            && (t.contains('½') || t.contains("1/2") || t.contains(".5") || t == "=")
    } else {
        match parse_result(&t, Sport::Cards) {
            // Two numbers may be a team match score ("2-2"): only the
            // three-number form is unmistakably cards.
            Some(Res::Games(..)) => t.split('-').count() == 3,
            _ => false,
        }
    }
}

pub(super) fn flip(o: Outcome) -> Outcome {
    match o {
        Outcome::Win => Outcome::Loss,
        Outcome::Loss => Outcome::Win,
        Outcome::Draw => Outcome::Draw,
    }
}

pub(super) fn compare(h: Num, a: Num) -> Outcome {
    match h.cmp(&a) {
        std::cmp::Ordering::Greater => Outcome::Win,
        std::cmp::Ordering::Less => Outcome::Loss,
        std::cmp::Ordering::Equal => Outcome::Draw,
    }
}

fn points_for(s: &Scoring, o: Outcome) -> Num {
    match o {
        Outcome::Win => s.win,
        Outcome::Draw => s.draw,
        Outcome::Loss => s.loss,
    }
}

fn unit_id(cx: &mut Cx, ev: &mut Event, name: &str, span: Span) -> Option<UnitId> {
    if ev.find_unit(name).is_none() && ev.units.len() >= MAX_UNITS {
        cx.err(
            TOO_LARGE,
            span,
            format!("more than {MAX_UNITS} different units"),
            "one unit too many",
            "tb caps the number of unit names; check for misspelt or generated keys",
        );
        return None;
    }
    if !cx.lines.units.contains_key(name) {
        let line = cx.line(Some(span));
        cx.lines.units.insert(name.to_string(), line);
    }
    Some(ev.unit_id(name))
}

/// A game as written: each key read, with the diagnostics for its value.
struct Written {
    /// Each side's participant: `None` where its id was wrong (reported),
    /// `Some(None)` where it was not given.
    home: Option<Option<(Pid, Span)>>,
    away: Option<Option<(Pid, Span)>>,
    home_partner: Option<Option<(Pid, Span)>>,
    away_partner: Option<Option<(Pid, Span)>>,
    result: Option<(String, Span)>,
    /// The result, read for the sport.
    parsed: Option<Res>,
    points: Option<[Num; 2]>,
    weight: Num,
    boards: Vec<BoardRec>,
    /// Every other key: a unit, [home, away].
    units: Vec<(String, Span, [Num; 2])>,
}

/// A board as read: number, home's and away's scores, top, played.
type BoardRec = (u32, Num, Num, Option<Num>, bool);

/// Read one game of round `round`: its keys, both sides, its units, its
/// points and outcomes, then each side's entry (and each partner's).
pub(super) fn read_game(
    cx: &mut Cx,
    ev: &mut Event,
    primary: Option<&str>,
    index: &HashMap<String, Pid>,
    node: &Node,
    round: u32,
    session: u32,
) -> Option<GameRec> {
    let mut t = cx.object(node, &schema::GAME)?;
    let errors_before = cx.errors.len();
    let w = read_written(cx, ev.sport, index, &mut t);
    let (home, away, home_partner, away_partner) = both_sides(cx, node, &w)?;
    if cx.errors.len() > errors_before {
        return None;
    }
    let seen = once_each(cx, ev, [Some(home), Some(away), home_partner, away_partner])?;
    let (home_units, away_units) = game_units(cx, ev, node, w.parsed, &w.units)?;
    let (status, result_outcomes) = outcomes_of(w.parsed);
    let (pts, outcomes) = game_points(
        cx,
        ev,
        primary,
        node,
        round,
        &w,
        [home.0, away.0],
        result_outcomes,
        status[0],
    )?;

    let (home_boards, away_boards) = side_boards(&w.boards);
    let home_entry = Entry {
        round,
        session,
        stage: Stage::Unstated,
        opponent: Some(away.0),
        partner: home_partner.map(|p| p.0),
        status: status[0],
        outcome: outcomes.0,
        points: pts[0],
        side: Some(Side::First),
        weight: w.weight,
        extra: EntryExtra::new(home_units.clone(), away_units.clone(), home_boards),
    };
    let away_entry = Entry {
        round,
        session,
        stage: Stage::Unstated,
        opponent: Some(home.0),
        partner: away_partner.map(|p| p.0),
        status: status[1],
        outcome: outcomes.1,
        points: pts[1],
        side: Some(Side::Second),
        weight: w.weight,
        extra: EntryExtra::new(away_units, home_units, away_boards),
    };
    // Partners share their side's entry; each one's opponent is the other
    // side's partner (or, without one, the other side's player).
    let mut partner_entries = Vec::new();
    if let Some(hp) = home_partner {
        let mut e = home_entry.clone();
        e.partner = Some(home.0);
        e.opponent = Some(away_partner.map_or(away.0, |p| p.0));
        partner_entries.push((hp.0, e));
    }
    if let Some(ap) = away_partner {
        let mut e = away_entry.clone();
        e.partner = Some(away.0);
        e.opponent = Some(home_partner.map_or(home.0, |p| p.0));
        partner_entries.push((ap.0, e));
    }
    Some(GameRec {
        round,
        span: node.sp(),
        sides: seen,
        home: home.0,
        away: away.0,
        weight: w.weight,
        home_entry,
        away_entry,
        partner_entries,
    })
}

/// Every key of a game, each value read and its mistakes reported (the
/// result is checked even if an id is wrong).
fn read_written(cx: &mut Cx, sport: Sport, index: &HashMap<String, Pid>, t: &mut Obj) -> Written {
    // `what` is the key in backquotes, for the diagnostics.
    let side_id = |cx: &mut Cx, t: &mut Obj, key: &str, what: &str| match t.get(key) {
        Some(n) => lookup(cx, index, n, what).map(Some),
        None => Some(None),
    };
    let home = side_id(cx, t, "home", "`home`");
    let away = side_id(cx, t, "away", "`away`");
    let home_partner = side_id(cx, t, "home_partner", "`home_partner`");
    let away_partner = side_id(cx, t, "away_partner", "`away_partner`");
    let result = t
        .get("result")
        .and_then(|n| cx.string(n, "`result`").map(|s| (s, n.sp())));
    let points = t.get("points").and_then(|n| cx.pair(n, "`points`"));
    let parsed = match &result {
        Some((s, span)) => read_result(cx, s, *span, sport),
        None => None,
    };
    let weight = match t.get("weight") {
        Some(n) => read_weight(cx, n),
        None => Num::ONE,
    };
    let mut boards: Vec<BoardRec> = Vec::new();
    if let Some(bn) = t.get("boards") {
        if let Some(list) = cx.array(bn, "`boards`") {
            for (i, b) in list.iter().enumerate() {
                let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
                if let Some(board) = read_board(cx, b, number) {
                    boards.push(board);
                }
            }
        }
    }
    // Every other key is a unit: [home, away].
    let mut units: Vec<(String, Span, [Num; 2])> = Vec::new();
    for (k, v) in t.rest() {
        match &v.v {
            V::Arr(items) if items.len() == 2 => {
                if let Some(pair) = cx.pair(v, &format!("unit `{}`", k.name)) {
                    units.push((k.name.clone(), k.sp(), pair));
                }
            }
            _ => cx.unknown_field(t, k),
        }
    }
    Written {
        home,
        away,
        home_partner,
        away_partner,
        result,
        parsed,
        points,
        weight,
        boards,
        units,
    }
}

/// A result string read for the sport; a result of another sport, or of
/// none, reported.
fn read_result(cx: &mut Cx, s: &str, span: Span, sport: Sport) -> Option<Res> {
    if let Some(r) = parse_result(s, sport) {
        return Some(r);
    }
    if other_sports_result(s, sport) {
        // A result of another sport's shape: one file, one sport.
        let (this, that) = if sport == Sport::Cards {
            ("a card-game event", "a chess-style result (win/draw/loss)")
        } else {
            (
                "a chess-style event",
                "a card-game result (games won-lost-drawn)",
            )
        };
        cx.err(
            MIXED_SPORTS,
            span,
            format!("\"{}\" is {that}, but this is {this}", crate::text::clip(s)),
            "another sport's result",
            if sport == Sport::Cards {
                "one file holds one sport: set `sport` in [event] to the event's game; card results are games won - games lost - drawn, e.g. \"2-1-0\""
            } else {
                "one file holds one sport: set `sport = \"cards\"` in [event] for a card-game event; chess results are \"1-0\", \"0-1\", \"1/2-1/2\""
            },
        );
        return None;
    }
    let help = if sport == Sport::Cards {
        "card results are games won by home - games won by away - drawn games, e.g. \"2-1-0\"; forfeits \"+-\", \"-+\", \"--\""
    } else {
        "write \"1-0\", \"0-1\", \"1/2-1/2\" (or \"½-½\", \"0.5-0.5\", \"=\"), \"0-0\"; forfeits \"+-\", \"-+\", \"--\""
    };
    cx.err(
        BAD_RESULT,
        span,
        format!("\"{}\" is not a result tb knows", crate::text::clip(s)),
        "unknown result",
        help,
    );
    None
}

/// A game's `weight`: more than 0 (1 where it is not a number).
fn read_weight(cx: &mut Cx, n: &Node) -> Num {
    let w = cx.num(n, "`weight`");
    if let Some(w) = w {
        if w <= Num::ZERO {
            cx.err(
                SYNTAX,
                n.sp(),
                format!("`weight` must be more than 0, not {w}"),
                "not positive",
                "a full meeting has weight 1; a triangle's half match 0.5",
            );
        }
    }
    w.unwrap_or(Num::ONE)
}

/// The four sides of a game (home, away, their partners); `None` where
/// one was wrong or home or away is missing (reported).
#[allow(clippy::type_complexity)]
fn both_sides(
    cx: &mut Cx,
    node: &Node,
    w: &Written,
) -> Option<(
    (Pid, Span),
    (Pid, Span),
    Option<(Pid, Span)>,
    Option<(Pid, Span)>,
)> {
    let (home, away) = match (w.home, w.away) {
        (Some(Some(h)), Some(Some(a))) => (h, a),
        (Some(None), _) | (_, Some(None)) => {
            cx.err(
                SYNTAX,
                node.sp(),
                "a game needs both `home` and `away`".to_string(),
                "incomplete game",
                schema::GAME.required_help("home"),
            );
            return None;
        }
        _ => return None,
    };
    let (Some(home_partner), Some(away_partner)) = (w.home_partner, w.away_partner) else {
        return None;
    };
    Some((home, away, home_partner, away_partner))
}

/// The game's participants, each once (a participant twice is reported).
fn once_each(cx: &mut Cx, ev: &Event, sides: [Option<(Pid, Span)>; 4]) -> Option<Vec<(Pid, Span)>> {
    let mut seen: Vec<(Pid, Span)> = Vec::new();
    for s in sides.into_iter().flatten() {
        if let Some(first) = seen.iter().find(|(p, _)| *p == s.0) {
            let id = ev.participants[s.0].id.clone();
            cx.errors.push(
                Diag::error(
                    PAIRED_TWICE,
                    format!("`{id}` appears twice in the same game"),
                )
                .at(cx.src, s.1, "again here")
                .at(cx.src, first.1, "first here")
                .with_help("a participant cannot play itself or partner its opponent"),
            );
            return None;
        }
        seen.push(s);
    }
    Some(seen)
}

/// Home's and away's units: those a card result gives (unless written
/// out), then those written.
#[allow(clippy::type_complexity)]
fn game_units(
    cx: &mut Cx,
    ev: &mut Event,
    node: &Node,
    parsed: Option<Res>,
    units: &[(String, Span, [Num; 2])],
) -> Option<(Vec<(UnitId, Num)>, Vec<(UnitId, Num)>)> {
    let mut home_units: Vec<(UnitId, Num)> = Vec::new();
    let mut away_units: Vec<(UnitId, Num)> = Vec::new();
    if let Some(Res::Games(w, l, d)) = parsed {
        for (name, h, a) in [
            ("games_won", w, l),
            ("games_lost", l, w),
            ("games_drawn", d, d),
        ] {
            if units.iter().any(|(n, _, _)| n == name) {
                continue; // given explicitly: that wins
            }
            let u = unit_id(cx, ev, name, node.sp())?;
            home_units.push((u, Num::int(i64::from(h))));
            away_units.push((u, Num::int(i64::from(a))));
        }
    }
    for (name, span, [h, a]) in units {
        let u = unit_id(cx, ev, name, *span)?;
        home_units.push((u, *h));
        away_units.push((u, *a));
    }
    Some((home_units, away_units))
}

/// Each side's status and, where the result gives them, each side's
/// outcome: most results are mirror images; "0-0", "½-0" and double
/// forfeits are not. Both readers take a result's outcomes from here.
pub(super) fn outcomes_of(parsed: Option<Res>) -> ([Status; 2], Option<(Outcome, Outcome)>) {
    let mut status = [Status::Played, Status::Played];
    let outcome_from_result = match parsed {
        Some(Res::Outcomes(h, _)) => Some(h),
        Some(Res::Games(w, l, _)) => Some(compare(Num::int(i64::from(w)), Num::int(i64::from(l)))),
        Some(Res::Forfeit(home_won)) => {
            if home_won {
                status = [Status::ForfeitWin, Status::ForfeitLoss];
                Some(Outcome::Win)
            } else {
                status = [Status::ForfeitLoss, Status::ForfeitWin];
                Some(Outcome::Loss)
            }
        }
        Some(Res::DoubleForfeit) => {
            status = [Status::DoubleForfeit, Status::DoubleForfeit];
            None
        }
        None => None,
    };
    let outcomes = match parsed {
        Some(Res::Outcomes(h, a)) => Some((h, a)),
        Some(Res::DoubleForfeit) => Some((Outcome::Loss, Outcome::Loss)),
        _ => outcome_from_result.map(|o| (o, flip(o))),
    };
    (status, outcomes)
}

/// Each side's points and outcome, from the first of: `points`, the
/// result, the primary unit, the boards' totals; a game with none of them
/// is reported. Points that disagree with the result are kept, with a
/// warning.
#[allow(clippy::too_many_arguments)]
fn game_points(
    cx: &mut Cx,
    ev: &mut Event,
    primary: Option<&str>,
    node: &Node,
    round: u32,
    w: &Written,
    [home, away]: [Pid; 2],
    result_outcomes: Option<(Outcome, Outcome)>,
    home_status: Status,
) -> Option<([Num; 2], (Outcome, Outcome))> {
    let scoring = ev.scoring;
    let primary_unit = primary.and_then(|p| w.units.iter().find(|(n, _, _)| n == p));
    let board_totals = if w.boards.is_empty() {
        None
    } else {
        Some(board_totals(cx, node, &w.boards)?)
    };
    if let Some(p) = w.points {
        // Points that rank the two sides the other way round from the
        // result: kept as written, with a warning naming both and the round.
        if let (Some((h, a)), Some((text, _))) = (result_outcomes, &w.result) {
            let by_points = compare(p[0], p[1]);
            if h == flip(a) && by_points != h && home_status == Status::Played {
                let hid = &ev.participants[home].id;
                let aid = &ev.participants[away].id;
                ev.warnings.push(format!(
                    "round {round}: `{hid}` - `{aid}`: the points [{}, {}] disagree with the result \"{text}\"; the points are used as written",
                    p[0], p[1]
                ).into());
            }
        }
        return Some((
            p,
            result_outcomes.unwrap_or((compare(p[0], p[1]), compare(p[1], p[0]))),
        ));
    }
    if let Some((h, a)) = result_outcomes {
        return Some(([points_for(&scoring, h), points_for(&scoring, a)], (h, a)));
    }
    if let Some((_, _, p)) = primary_unit {
        return Some((*p, (compare(p[0], p[1]), compare(p[1], p[0]))));
    }
    if let Some([h, a]) = board_totals {
        let o = compare(h, a);
        return Some((
            [points_for(&scoring, o), points_for(&scoring, flip(o))],
            (o, flip(o)),
        ));
    }
    let hid = &ev.participants[home].id;
    let aid = &ev.participants[away].id;
    let help = match primary {
        Some(p) => format!("give `result`, `points = [home, away]`, `{p} = [home, away]` (the event's primary unit) or `boards`"),
        None => "give `result`, `points = [home, away]` or `boards`, or set `primary` in [event] to the unit that is the score".to_string(),
    };
    cx.err(
        NO_RESULT,
        node.sp(),
        format!("the game `{hid}` - `{aid}` in round {round} has no result"),
        "no result",
        &help,
    );
    None
}

/// Home's and away's board totals; a sum too large is reported.
fn board_totals(cx: &mut Cx, node: &Node, boards: &[BoardRec]) -> Option<[Num; 2]> {
    let mut h = Num::ZERO;
    let mut a = Num::ZERO;
    for b in boards {
        match (h.add(b.1), a.add(b.2)) {
            (Ok(x), Ok(y)) => (h, a) = (x, y),
            _ => {
                cx.err(
                    TOO_LARGE,
                    node.sp(),
                    "the board scores add up to more than tb can hold".to_string(),
                    "too large",
                    "check the board scores",
                );
                return None;
            }
        }
    }
    Some([h, a])
}

/// Each side's boards.
fn side_boards(boards: &[BoardRec]) -> (Vec<Board>, Vec<Board>) {
    let mut home_boards = Vec::new();
    let mut away_boards = Vec::new();
    for &(number, h, a, top, played) in boards {
        home_boards.push(Board {
            number,
            score: h,
            top,
            played,
        });
        away_boards.push(Board {
            number,
            score: a,
            top,
            played,
        });
    }
    (home_boards, away_boards)
}

fn read_board(cx: &mut Cx, node: &Node, position: u32) -> Option<BoardRec> {
    match &node.v {
        V::Arr(_) => {
            let [h, a] = cx.pair(node, "a board")?;
            Some((position, h, a, None, true))
        }
        V::Table(_) => {
            let mut t = cx.object(node, &schema::BOARD)?;
            let number = match t.get("number") {
                Some(n) => cx.count(n, "a board number")?,
                None => position,
            };
            let h = t
                .get("home")
                .and_then(|n| cx.num(n, "a board's `home` score"));
            let a = t
                .get("away")
                .and_then(|n| cx.num(n, "a board's `away` score"));
            let top = t.get("top").and_then(|n| cx.num(n, "a board's `top`"));
            let played = match t.get("played") {
                Some(n) => cx.boolean(n, "a board's `played`").unwrap_or(true),
                None => true,
            };
            cx.finish(&t);
            match (h, a) {
                (Some(h), Some(a)) => Some((number, h, a, top, played)),
                _ => {
                    cx.err(
                        SYNTAX,
                        node.sp(),
                        "a board needs both `home` and `away` scores".to_string(),
                        "incomplete board",
                        schema::BOARD.required_help("home"),
                    );
                    None
                }
            }
        }
        _ => {
            cx.wrong_type(node, "a board", "a pair [home, away] or a table");
            None
        }
    }
}

pub(super) fn read_bye(
    cx: &mut Cx,
    ev: &mut Event,
    index: &HashMap<String, Pid>,
    node: &Node,
    round: u32,
    session: u32,
) -> Option<ByeRec> {
    let mut t = cx.object(node, &schema::BYE)?;
    let Some(id_node) = t.get("id") else {
        cx.missing(&t, node, "id");
        return None;
    };
    let who = lookup(cx, index, id_node, "a bye's `id`");
    let status = match t.get("type") {
        Some(n) => match cx.string(n, "a bye's `type`")?.as_str() {
            "pairing" => Status::PairingBye,
            "full" => Status::FullBye,
            "half" => Status::HalfBye,
            "zero" => Status::ZeroBye,
            "absent" => Status::Absent,
            other => {
                cx.bad_choice(n, "a bye's `type`", other, schema::BYE.choices("type"));
                return None;
            }
        },
        None => Status::PairingBye,
    };
    let s = ev.scoring;
    let points = match t.get("points") {
        Some(n) => cx.num(n, "a bye's `points`")?,
        None => match bye_default(status, &s, cx.bye_points, ev.sport, cx.scoring_given) {
            Ok(x) => x,
            Err(why) => {
                cx.err(
                    BYE_WORTH,
                    node.sp(),
                    format!("round {round}: {why}"),
                    "a bye of unstated worth",
                    "a bridge event's regulations state what a bye is worth (often a stated number of VPs): give the bye its worth, `{ id = \"C\", type = \"pairing\", points = 12 }`, or give the event's `scoring = { win = 20, draw = 10, loss = 0, bye = 12 }`",
                );
                s.loss
            }
        },
    };
    let mut units = Vec::new();
    for (k, v) in t.rest() {
        match &v.v {
            V::Int(_) | V::Float(_) | V::NumText(_) | V::Str(_) => {
                let x = cx.num(v, &format!("unit `{}`", k.name))?;
                let u = unit_id(cx, ev, &k.name, k.sp())?;
                units.push((u, x));
            }
            _ => cx.unknown_field(&t, k),
        }
    }
    let (pid, span) = who?;
    let mut entry = Entry::unplayed(round, status, points, &s);
    entry.session = session;
    entry.set_units(units);
    Some(ByeRec {
        round,
        pid,
        span,
        entry,
    })
}

/// What a bye that does not give its `points` is worth. A pairing bye is
/// worth `event.scoring.bye` where given, else a win — in chess (FIDE's
/// pairing-allocated bye) and card games (seed 001: byes count as 2-0 match
/// wins). A bridge event has no such rule: there a pairing bye is worth
/// what the event's scoring says (`scoring.bye`), and a full or half bye a
/// win or a draw of the event's own `scoring`; otherwise the worth is
/// unstated (the error's text, Err) — never the chess point by default.
pub(super) fn bye_default(
    status: Status,
    s: &Scoring,
    bye: Option<Num>,
    sport: Sport,
    scoring_given: bool,
) -> Result<Num, &'static str> {
    let bridge = sport == Sport::Bridge;
    match status {
        Status::PairingBye => match bye {
            Some(x) => Ok(x),
            None if bridge => Err("a pairing bye in a bridge event is worth what the event's regulations say, and neither the bye's `points` nor the event's `scoring.bye` gives it"),
            None => Ok(s.win),
        },
        Status::FullBye | Status::HalfBye if bridge && !scoring_given => Err(
            "a full or half bye is worth a win or a draw of the event's scoring, and this bridge event gives no `scoring` (nor the bye its `points`)",
        ),
        Status::FullBye => Ok(s.win),
        Status::HalfBye => Ok(s.draw),
        _ => Ok(s.loss),
    }
}
