//! The sorted path of group-relative aggregates (`eval::group`: `count(q
//! in others where q.x > x)`, `all(q.x == x for q in others)`, ... from
//! the group's values sorted once) against the loop of the per-participant
//! reference evaluator: the same standings, values and explanations on
//! generated events, with the sorted path taken for every tied group of
//! two or more, and on large groups whose members have all met, or none.

use crate::common;
use tb::diag::Source;
use tb::model::Event;
use tb::num::Num;
use tb::plan::Ruleset;
use tb::rank::Options;

fn load(name: &str, text: String) -> Event {
    tb::load::load(&Source::new(name, text)).unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// The shipped rulesets that compare a member with the others of its group
/// (FIDE Direct Encounter, 6.2 and 6.3, in both the Swiss and the round
/// robin), and FIDE's codes with DE first.
fn rulesets() -> Vec<(String, Ruleset)> {
    let mut out: Vec<_> = common::shipped_rulesets()
        .into_iter()
        .filter(|(n, _)| {
            matches!(
                n.as_str(),
                "fide/swiss" | "fide/round-robin" | "fide/swiss-2024" | "us-chess/swiss"
            )
        })
        .collect();
    if tb::shipped::get("fide/lib").is_some() {
        for (codes, edition) in [("DE,WIN,BH/C1", "2026"), ("DE,BH", "2024")] {
            let rated = [("unrated_rating".to_string(), Num::int(1000))];
            let rs = tb::check::check_list(
                Source::new("--tiebreaks", codes),
                "fide/codes",
                Some(edition),
                &tb::shipped::Shipped,
                &rated,
            )
            .unwrap_or_else(|d| panic!("{}", d.plain()));
            out.push((format!("{codes} {edition}"), rs));
        }
    }
    out
}

/// Standings, values and explanation of `rs` on `ev` with the sorted path
/// from groups of `from` (None: the reference evaluator, no sorted path).
fn outputs(ev: &Event, rs: &Ruleset, from: Option<usize>) -> Result<(String, String), String> {
    let opts = Options {
        lots_seed: Some(5),
        per_participant: from.is_none(),
        group_forms_from: from,
        ..Default::default()
    };
    let st = tb::rank::rank(ev, rs, &opts).map_err(|d| d.code.to_string())?;
    let meta = tb::render::Meta::default();
    Ok((
        tb::render::render(&st, ev, rs, &meta, tb::render::Format::Json),
        tb::render::explain(&st, ev, rs, &mut Default::default(), Default::default()),
    ))
}

fn agree(ename: &str, ev: &Event, rulesets: &[(String, Ruleset)]) {
    for (rname, rs) in rulesets {
        let reference = outputs(ev, rs, None);
        assert!(
            outputs(ev, rs, Some(2)) == reference,
            "{rname} on {ename}: the sorted path differs from the loop"
        );
        assert!(
            outputs(ev, rs, Some(tb::eval::GROUP_FORMS_FROM)) == reference,
            "{rname} on {ename}: the default path differs from the loop"
        );
    }
}

#[test]
fn sorted_forms_agree_with_the_loop_on_generated_events() {
    let rs = rulesets();
    for (players, rounds, seed) in [(120, 7, 1), (200, 5, 2), (400, 3, 3), (60, 9, 4)] {
        let name = format!("chess {players} x {rounds}, seed {seed}");
        let ev = load(
            "gen.json",
            tb_gen::chess_swiss(players, rounds, seed).to_json(),
        );
        agree(&name, &ev, &rs);
    }
}

/// An event of `n` players as native JSON: `rounds` rounds of games
/// `(home, away, result)`, players numbered from 1.
fn event(n: usize, rounds: &[Vec<(usize, usize, &str)>], system: &str) -> String {
    let players: Vec<String> = (1..=n)
        .map(|i| format!(r#"{{"id":{i},"name":"P{i}","rating":{}}}"#, 1500 + i))
        .collect();
    let rounds: Vec<String> = rounds
        .iter()
        .enumerate()
        .map(|(k, games)| {
            let g: Vec<String> = games
                .iter()
                .map(|(a, b, r)| format!(r#"{{"home":{a},"away":{b},"result":"{r}"}}"#))
                .collect();
            format!(
                r#"{{"round":{},"games":[{}],"byes":[]}}"#,
                k + 1,
                g.join(",")
            )
        })
        .collect();
    format!(
        r#"{{"event":{{"name":"t","sport":"chess","system":"{system}","rounds":{}}},"participants":[{}],"rounds":[{}]}}"#,
        rounds.len(),
        players.join(","),
        rounds.join(",")
    )
}

/// A round robin of `n` players (circle method), results by `result`.
fn round_robin(n: usize, result: impl Fn(usize, usize) -> &'static str) -> String {
    let mut order: Vec<usize> = (1..=n).collect();
    let mut rounds = Vec::new();
    for _ in 0..n - 1 {
        let games = (0..n / 2)
            .map(|i| {
                let (a, b) = (order[i], order[n - 1 - i]);
                (a, b, result(a, b))
            })
            .collect();
        rounds.push(games);
        order[1..].rotate_right(1);
    }
    event(n, &rounds, "round-robin")
}

/// Large tied groups in which everyone has met everyone (6.2: the separate
/// standings rank them), or no one has met anyone (6.3: no one is clear):
/// the sorted path gives what the loop gives.
#[test]
fn large_groups_where_all_or_none_have_met() {
    let rs = rulesets();
    // No one met: 2,400 players, one round, every game won by home: two
    // groups of 1,200 (a point, or none), none of whose members met.
    let games: Vec<_> = (0..1200).map(|i| (2 * i + 1, 2 * i + 2, "1-0")).collect();
    let none = load("none.json", event(2400, &[games], "swiss"));
    // All met: a round robin of 60 whose games are all drawn (one group of
    // 60, all level in the separate standings too), and one in which the
    // lower number wins when the two differ by a multiple of 3 (otherwise
    // a draw): several groups, separated by the separate standings.
    let drawn = load("drawn.json", round_robin(60, |_, _| "1/2-1/2"));
    let mixed = load(
        "mixed.json",
        round_robin(60, |a, b| match (a.abs_diff(b) % 3, a < b) {
            (0, true) => "1-0",
            (0, false) => "0-1",
            _ => "1/2-1/2",
        }),
    );
    // The loop takes the square of 1,200 per criterion (seconds in a
    // debug build): one ruleset.
    let fide: Vec<_> = rs
        .iter()
        .filter(|(n, _)| n == "fide/swiss")
        .cloned()
        .collect();
    agree("2,400 players, one round", &none, &fide);
    agree("round robin of 60, all drawn", &drawn, &rs);
    agree("round robin of 60", &mixed, &rs);
}

/// Players who met each other several times (6.1.2: each game counts
/// 1/meetings): a round robin of 12 played three times, the results
/// changing from one cycle to the next, one game forfeited. FIDE's
/// `meetings(p, forfeits)` is then answered from one tally of each
/// player's rounds (`eval::tally`), which must give what the loop counts.
#[test]
fn repeated_meetings_are_tallied_as_the_loop_counts_them() {
    let n = 12;
    let mut order: Vec<usize> = (1..=n).collect();
    let mut rounds = Vec::new();
    for cycle in 0..3 {
        for _ in 0..n - 1 {
            let games = (0..n / 2)
                .map(|i| {
                    let (a, b) = (order[i], order[n - 1 - i]);
                    let r = match (a + b + cycle) % 4 {
                        _ if (a, b, cycle) == (1, 12, 1) => "+-",
                        0 => "1-0",
                        1 => "0-1",
                        _ => "1/2-1/2",
                    };
                    (a, b, r)
                })
                .collect();
            rounds.push(games);
            order[1..].rotate_right(1);
        }
    }
    let rs = rulesets();
    for system in ["round-robin", "swiss"] {
        let ev = load("triple.json", event(n, &rounds, system));
        agree(&format!("triple round robin as {system}"), &ev, &rs);
    }
}
