//! The schema walker: the value tree to an [`Event`] (the event header, participants, rounds, decisions), every mistake reported with its place.

use super::checks::{
    add_warnings, bridge_warnings, canonical_units, check_rounds, check_stages, session_mismatches,
    without_field, RoundRef,
};
use super::cx::HashMap;
use super::cx::{lookup, Cx};
use super::game::{read_bye, read_game, ByeRec, GameRec};
use super::schema;
use super::tree::{Node, V};
use super::*;
use crate::load::limits::participant_rounds_over;
use crate::model::{
    Decision, Event, Kind, Member, Participant, Pid, Scoring, Sport, Stage, System,
};

/// Build an event from a value tree made by another loader (CSV), so every
/// format shares the native schema's rules and diagnostics.
pub(in crate::load) fn build_from_tree(src: &Source, root: &Node) -> Result<Event, Diag> {
    build(src, root)
}

pub(super) fn build(src: &Source, root: &Node) -> Result<Event, Diag> {
    let mut cx = Cx {
        src,
        errors: Vec::new(),
        bye_points: None,
        scoring_given: false,
        lines: Default::default(),
    };
    let mut top = match cx.object(root, &schema::ROOT) {
        Some(t) => t,
        None => return Err(finish_errors(src, cx.errors)),
    };
    let event_node = top.get("event");
    let participants_node = top.get("participants");
    let rounds_node = top.get("rounds");
    let decisions_node = top.get("decisions");
    cx.finish(&top);

    let (mut ev, primary) = read_event_header(&mut cx, event_node)?;
    let declared_rounds = ev.rounds;

    let (index, session_spans, id_spans) = read_participants(&mut cx, &mut ev, participants_node)?;

    // Rounds.
    let mut games: Vec<GameRec> = Vec::new();
    let mut byes: Vec<ByeRec> = Vec::new();
    let mut round_refs: Vec<RoundRef> = Vec::new();
    if let Some(rn) = rounds_node {
        if let Some(list) = cx.array(rn, "`rounds`") {
            for (i, rnode) in list.iter().enumerate() {
                read_round(
                    &mut cx,
                    &mut ev,
                    primary.as_deref(),
                    &index,
                    rnode,
                    i,
                    &mut games,
                    &mut byes,
                    &mut round_refs,
                )?;
            }
        }
    }

    // Decisions.
    if let Some(dn) = decisions_node {
        if let Some(list) = cx.array(dn, "`decisions`") {
            for d in list {
                if let Some(dec) = read_decision(&mut cx, &index, d) {
                    ev.decisions.push(dec);
                }
            }
        }
    }

    // The scheduled number of rounds, and every round inside it.
    match declared_rounds {
        0 => ev.rounds = round_refs.iter().map(|r| r.round).max().unwrap_or(0),
        n => {
            for r in round_refs.iter().filter(|r| r.round > n) {
                cx.err(
                    ROUND_OUT_OF_RANGE,
                    r.span,
                    format!("round {} is after the last round ({n})", r.round),
                    "beyond `event.rounds`",
                    "correct the round number, or raise `rounds` in [event]",
                );
            }
        }
    }
    if let Some(cells) = participant_rounds_over(ev.participants.len(), ev.rounds) {
        return Err(too_large(
            src,
            Span::new(0, 0),
            format!(
                "{} participants × {} rounds is {cells} participant-rounds; the most tb reads is {MAX_PARTICIPANT_ROUNDS}",
                ev.participants.len(),
                ev.rounds
            ),
        ));
    }

    check_stages(&mut cx, &ev, &round_refs);
    let keep = check_rounds(&mut cx, &ev, &games, &byes);

    if !cx.errors.is_empty() {
        return Err(finish_errors(src, cx.errors));
    }

    // Everything is consistent: hand out the entries. Room for one entry a
    // round, the usual count, saves regrowing each list entry by entry.
    for p in &mut ev.participants {
        p.entries.reserve_exact(ev.rounds as usize);
    }
    for (g, keep) in games.into_iter().zip(keep) {
        if !keep {
            continue;
        }
        ev.participants[g.home].entries.push(g.home_entry);
        ev.participants[g.away].entries.push(g.away_entry);
        for (pid, e) in g.partner_entries {
            ev.participants[pid].entries.push(e);
        }
    }
    for b in byes {
        ev.participants[b.pid].entries.push(b.entry);
    }
    canonical_units(&mut ev);
    ev.complete_rounds();
    check_declared(&mut cx, &ev, &session_spans, &id_spans);
    if !cx.errors.is_empty() {
        return Err(finish_errors(src, cx.errors));
    }
    // Before the recorded scores are compared with the rounds: a score
    // written after round 7 does not count a bye entered for round 8.
    crate::load::rounds::settle(&mut ev);
    add_warnings(&mut ev);
    bridge_warnings(&mut ev);
    ev.data_names = Some(with_lines(crate::model::DataNames::of(&ev), &cx.lines));
    Ok(ev)
}

/// The participants, by id, and where each one's `sessions` (else its id)
/// and its id are written.
#[allow(clippy::type_complexity)]
fn read_participants(
    cx: &mut Cx,
    ev: &mut Event,
    participants_node: Option<&Node>,
) -> Result<(HashMap<String, Pid>, Vec<Span>, Vec<Span>), Diag> {
    let mut index: HashMap<String, Pid> = HashMap::default();
    let mut session_spans: Vec<Span> = Vec::new();
    let mut id_spans: Vec<Span> = Vec::new();
    if let Some(pn) = participants_node {
        if let Some(list) = cx.array(pn, "`participants`") {
            if list.len() > MAX_PARTICIPANTS {
                return Err(too_large(
                    cx.src,
                    pn.sp(),
                    format!(
                        "{} participants; the most tb reads is {MAX_PARTICIPANTS}",
                        list.len()
                    ),
                ));
            }
            for pnode in list {
                if let Some((p, id_span, sessions_span)) = read_participant(cx, pnode) {
                    if let Some(&first) = index.get(&p.id) {
                        let msg = format!("participant id `{}` is used twice", p.id);
                        let first_name = ev.participants[first].name.clone();
                        cx.err(
                            DUPLICATE_PARTICIPANT,
                            id_span,
                            msg,
                            "second participant with this id",
                            &format!("ids must be unique; the first `{}` is {first_name}", p.id),
                        );
                        continue;
                    }
                    index.insert(p.id.clone(), ev.participants.len());
                    session_spans.push(sessions_span.unwrap_or(id_span));
                    id_spans.push(id_span);
                    ev.participants.push(p);
                }
            }
        }
    }
    Ok((index, session_spans, id_spans))
}

/// The built event against what the file declares beside its games: each
/// participant's session scores, and a field for everyone or no one.
fn check_declared(cx: &mut Cx, ev: &Event, session_spans: &[Span], id_spans: &[Span]) {
    for m in session_mismatches(ev) {
        let p = &ev.participants[m.pid];
        cx.err(
            SESSION_MISMATCH,
            session_spans[m.pid],
            format!(
                "`{}` ({}): session {} is declared as {}, but its games add up to {}",
                p.id, p.name, m.session, m.declared, m.computed
            ),
            "declared session scores",
            "a session score is the sum of the points of the participant's rounds in that session (in the unit of the points); correct the declared score or the games",
        );
    }
    for pid in without_field(ev) {
        let p = &ev.participants[pid];
        cx.err(
            FIELD_MISSING,
            id_spans[pid],
            format!(
                "`{}` ({}) has no `field`, but other participants have one",
                p.id, p.name
            ),
            "no field",
            "in a two-winner movement every pair is ranked in its field: give each participant `values = { field = 1 }` (North-South) or `{ field = 2 }` (East-West)",
        );
    }
}

/// The event's data names with the lines the tree reader saw them at.
fn with_lines(
    mut names: crate::model::DataNames,
    lines: &crate::model::DataNames,
) -> crate::model::DataNames {
    for (k, v) in &mut names.participant {
        if let Some(l) = lines.participant.get(k) {
            *v = l.clone();
        }
    }
    for (k, v) in &mut names.event {
        *v = lines.event.get(k).copied().flatten();
    }
    for (k, v) in &mut names.units {
        *v = lines.units.get(k).copied().flatten();
    }
    names
}

fn finish_errors(src: &Source, errors: Vec<Diag>) -> Diag {
    let n = errors.len();
    if n == 1 {
        return Diag::many(INVALID, "", errors);
    }
    Diag::many(INVALID, format!("{n} problems in {}", src.name), errors)
        .in_source(src)
        .with_help("each problem is listed below with its place in the file")
}

pub(super) fn too_large(src: &Source, span: Span, msg: String) -> Diag {
    Diag::error(TOO_LARGE, msg)
        .at(src, span, "too large")
        .with_help("tb caps the size of an event so that a bad file cannot exhaust memory; split the event or check the file")
}

fn read_event_header(cx: &mut Cx, node: Option<&Node>) -> Result<(Event, Option<String>), Diag> {
    let mut ev = Event::new("", Sport::Chess, System::Swiss, 0);
    let Some(node) = node else {
        return Ok((ev, None));
    };
    let Some(mut t) = cx.object(node, &schema::EVENT) else {
        return Ok((ev, None));
    };
    if let Some(n) = t.get("name") {
        ev.name = cx.string(n, "`event.name`").unwrap_or_default();
    }
    if let Some(n) = t.get("sport") {
        ev.sport_declared = true;
        if let Some(s) = cx.string(n, "`event.sport`") {
            ev.sport = match s.as_str() {
                "chess" => Sport::Chess,
                "cards" => Sport::Cards,
                "bridge" => Sport::Bridge,
                "other" => Sport::Other,
                _ => {
                    cx.bad_choice(n, "`event.sport`", &s, schema::EVENT.choices("sport"));
                    Sport::Chess
                }
            };
        }
    }
    ev.scoring = match ev.sport {
        Sport::Cards => Scoring::cards(),
        _ => Scoring::chess(),
    };
    if let Some(n) = t.get("system") {
        if let Some(s) = cx.string(n, "`event.system`") {
            ev.system = match s.as_str() {
                "swiss" => System::Swiss,
                "round-robin" | "round_robin" => System::RoundRobin,
                "knockout" => System::Knockout,
                "movement" => System::Movement,
                "other" => System::Other,
                _ => {
                    cx.bad_choice(n, "`event.system`", &s, schema::EVENT.choices("system"));
                    System::Swiss
                }
            };
        }
    }
    if let Some(n) = t.get("kind") {
        if let Some(s) = cx.string(n, "`event.kind`") {
            ev.kind = match s.as_str() {
                "player" => Kind::Player,
                "pair" => Kind::Pair,
                "team" => Kind::Team,
                _ => {
                    cx.bad_choice(n, "`event.kind`", &s, schema::EVENT.choices("kind"));
                    Kind::Player
                }
            };
        }
    }
    if let Some(n) = t.get("rounds") {
        if let Some(r) = cx.count(n, "`event.rounds`") {
            if r > MAX_ROUNDS {
                return Err(too_large(
                    cx.src,
                    n.sp(),
                    format!("{r} rounds; the most tb reads is {MAX_ROUNDS}"),
                ));
            }
            if r == 0 {
                cx.err(
                    ROUND_OUT_OF_RANGE,
                    n.sp(),
                    "`event.rounds` is 0".to_string(),
                    "no rounds",
                    "give the scheduled number of rounds, or leave `rounds` out to use the highest round in the data",
                );
            }
            ev.rounds = r;
        }
    }
    if let Some(n) = t.get("start_date") {
        ev.start_date = cx.string(n, "`event.start_date`");
    }
    if let Some(n) = t.get("scoring") {
        if let Some(mut s) = cx.object(n, &schema::SCORING) {
            cx.scoring_given = true;
            for (field, slot) in [
                ("win", &mut ev.scoring.win),
                ("draw", &mut ev.scoring.draw),
                ("loss", &mut ev.scoring.loss),
            ] {
                if let Some(v) = s.get(field) {
                    if let Some(x) = cx.num(v, &format!("`event.scoring.{field}`")) {
                        *slot = x;
                    }
                }
            }
            if let Some(v) = s.get("bye") {
                cx.bye_points = cx.num(v, "`event.scoring.bye`");
            }
            cx.finish(&s);
        }
    }
    let mut primary = None;
    if let Some(n) = t.get("primary") {
        primary = cx.string(n, "`event.primary`");
    }
    if let Some(n) = t.get("values") {
        ev.values = cx.values(n, "`event.values`");
        if let V::Table(items) = &n.v {
            for (k, _) in items {
                let line = cx.line(k.span);
                cx.lines.event.entry(k.name.clone()).or_insert(line);
            }
        }
    }
    if let Some(n) = t.get("tiebreaks") {
        if let Some(list) = cx.array(n, "`event.tiebreaks`") {
            for item in list {
                if let Some(s) = cx.string(item, "a tie-break descriptor") {
                    ev.tiebreaks.push(s);
                }
            }
        }
    }
    cx.finish(&t);
    Ok((ev, primary))
}

fn read_participant(cx: &mut Cx, node: &Node) -> Option<(Participant, Span, Option<Span>)> {
    let mut t = cx.object(node, &schema::PARTICIPANT)?;
    let Some(id_node) = t.get("id") else {
        cx.missing(&t, node, "id");
        return None;
    };
    let id = cx.id(id_node, "a participant id")?;
    let mut p = Participant::new(id.clone(), id);
    if let Some(n) = t.get("name") {
        if let Some(s) = cx.string(n, "a participant name") {
            p.name = s;
        }
    }
    if let Some(n) = t.get("rating") {
        p.rating = cx.whole(n, "a rating");
    }
    if let Some(n) = t.get("title") {
        p.title = cx.string(n, "a title");
    }
    if let Some(n) = t.get("federation") {
        p.federation = cx.string(n, "a federation");
    }
    if let Some(n) = t.get("sex") {
        p.sex = cx.string(n, "a sex");
    }
    if let Some(n) = t.get("born") {
        p.born = cx.whole(n, "a year of birth");
    }
    if let Some(n) = t.get("withdrawn_after") {
        p.withdrawn_after = cx.count(n, "`withdrawn_after`");
    }
    if let Some(n) = t.get("members") {
        if let Some(list) = cx.array(n, "`members`") {
            for m in list {
                if let Some(m) = read_member(cx, m) {
                    p.members.push(m);
                }
            }
        }
    }
    let sessions_span = t.get("sessions").map(|n| n.sp());
    if let Some(n) = t.get("sessions") {
        if let Some(list) = cx.array(n, "`sessions`") {
            for s in list {
                if let Some(x) = cx.num(s, "a session score") {
                    p.sessions.push(x);
                }
            }
        }
    }
    if let Some(n) = t.get("values") {
        p.values = cx.values(n, "a participant's `values`");
        if let V::Table(items) = &n.v {
            for (k, _) in items {
                let line = cx.line(k.span);
                cx.lines
                    .participant
                    .entry(k.name.clone())
                    .or_insert_with(|| (p.id.clone(), line));
            }
        }
    }
    if let Some(n) = t.get("score") {
        p.recorded_score = cx.num(n, "`score`");
    }
    if let Some(n) = t.get("rank") {
        p.recorded_rank = cx.count(n, "`rank`");
        if p.recorded_rank == Some(0) {
            cx.err(
                SYNTAX,
                n.sp(),
                "`rank` is 0: ranks start at 1".to_string(),
                "rank 0",
                "write the place as printed, from 1",
            );
        }
    }
    cx.finish(&t);
    Some((p, id_node.sp(), sessions_span))
}

fn read_member(cx: &mut Cx, node: &Node) -> Option<Member> {
    if let V::Str(s) = &node.v {
        return Some(Member {
            id: s.clone(),
            name: s.clone(),
            rating: None,
        });
    }
    let mut t = cx.object(node, &schema::MEMBER)?;
    let id = t.get("id").and_then(|n| cx.id(n, "a member id"));
    let name = t.get("name").and_then(|n| cx.string(n, "a member name"));
    let rating = t.get("rating").and_then(|n| cx.whole(n, "a rating"));
    cx.finish(&t);
    let (id, name) = match (id, name) {
        (Some(i), Some(n)) => (i, n),
        (Some(i), None) => (i.clone(), i),
        (None, Some(n)) => (n.clone(), n),
        (None, None) => {
            cx.err(
                SYNTAX,
                node.sp(),
                "a member has neither `id` nor `name`".to_string(),
                "empty member",
                "give each member an id, a name, or both",
            );
            return None;
        }
    };
    Some(Member { id, name, rating })
}

#[allow(clippy::too_many_arguments)]
fn read_round(
    cx: &mut Cx,
    ev: &mut Event,
    primary: Option<&str>,
    index: &HashMap<String, Pid>,
    node: &Node,
    position: usize,
    games: &mut Vec<GameRec>,
    byes: &mut Vec<ByeRec>,
    round_refs: &mut Vec<RoundRef>,
) -> Result<(), Diag> {
    let Some(mut t) = cx.object(node, &schema::ROUND) else {
        return Ok(());
    };
    let (round, round_span) = match t.get("round") {
        Some(n) => match cx.count(n, "a round number") {
            Some(r) => (r, n.sp()),
            None => return Ok(()),
        },
        None => (u32::try_from(position + 1).unwrap_or(u32::MAX), node.sp()),
    };
    if round > MAX_ROUNDS {
        return Err(too_large(
            cx.src,
            round_span,
            format!("round {round}; the highest round tb reads is {MAX_ROUNDS}"),
        ));
    }
    if round == 0 {
        cx.err(
            ROUND_OUT_OF_RANGE,
            round_span,
            "round 0: rounds are numbered from 1".to_string(),
            "round 0",
            "number rounds from 1",
        );
        return Ok(());
    }
    let session = match t.get("session") {
        Some(n) => cx.count(n, "a session number").unwrap_or(1),
        None => 1,
    };
    // The stage is what the data says, never inferred (WBF 2 needs the
    // knockout match told apart from the qualification).
    let stage = match t.get("stage") {
        Some(n) => match cx.string(n, "a round's `stage`") {
            Some(name) => Stage::by_name(&name).unwrap_or_else(|| {
                cx.bad_choice(
                    n,
                    "a round's `stage`",
                    &name,
                    schema::ROUND.choices("stage"),
                );
                Stage::Unstated
            }),
            None => Stage::Unstated,
        },
        None => Stage::Unstated,
    };
    round_refs.push(RoundRef {
        round,
        span: round_span,
        stage,
    });
    if let Some(gn) = t.get("games") {
        if let Some(list) = cx.array(gn, "`games`") {
            for g in list {
                if let Some(mut rec) = read_game(cx, ev, primary, index, g, round, session) {
                    let carry = ev.find_unit("carryover");
                    if ev.sport == Sport::Bridge
                        && !stage.knockout()
                        && carry.is_some_and(|u| rec.home_entry.unit(u).is_some())
                    {
                        cx.err(
                            CARRYOVER_OUTSIDE,
                            rec.span,
                            format!("a carry-over in round {round}, which is not in a knockout match"),
                            "carry-over outside a knockout match",
                            "a knockout carry-over belongs to the knockout match: give this round `stage = \"knockout\"` (or `final`, `play-off`); a BAM stage's carry-over is the participant value `carryover`",
                        );
                    }
                    rec.home_entry.stage = stage;
                    rec.away_entry.stage = stage;
                    for (_, e) in &mut rec.partner_entries {
                        e.stage = stage;
                    }
                    games.push(rec);
                }
            }
        }
    }
    if let Some(bn) = t.get("byes") {
        if let Some(list) = cx.array(bn, "`byes`") {
            for b in list {
                if let Some(mut rec) = read_bye(cx, ev, index, b, round, session) {
                    rec.entry.stage = stage;
                    byes.push(rec);
                }
            }
        }
    }
    cx.finish(&t);
    Ok(())
}

fn read_decision(cx: &mut Cx, index: &HashMap<String, Pid>, node: &Node) -> Option<Decision> {
    let mut t = cx.object(node, &schema::DECISION)?;
    let order_node = t.get("order");
    let reason = t
        .get("reason")
        .and_then(|n| cx.string(n, "a decision's `reason`"))
        .unwrap_or_else(|| "decision".to_string());
    cx.finish(&t);
    let Some(order_node) = order_node else {
        cx.missing(&t, node, "order");
        return None;
    };
    let list = cx.array(order_node, "a decision's `order`")?;
    let mut order = Vec::new();
    for n in list {
        if let Some((p, _)) = lookup(cx, index, n, "a participant in a decision") {
            order.push(p);
        }
    }
    (order.len() == list.len()).then_some(Decision { order, reason })
}
