//! Test helpers: build small events as native TOML (loaded through the real
//! loader) and evaluate shipped or inline rulesets over them.
#![allow(dead_code)]

use std::collections::BTreeMap;
use tb::diag::Source;
use tb::eval::Value;
use tb::model::Event;
use tb::plan::Ruleset;
use tb::rank::Standings;

/// An event under construction.
pub struct Ev {
    sport: &'static str,
    system: &'static str,
    rounds: u32,
    players: Vec<String>,
    games: Vec<(u32, String, String, String)>,
    byes: Vec<(u32, String, &'static str)>,
    withdrawn: BTreeMap<String, u32>,
    fillers: usize,
}

impl Ev {
    /// A chess Swiss of `rounds` rounds.
    pub fn chess(rounds: u32) -> Ev {
        Ev::new("chess", "swiss", rounds)
    }
    /// A chess round robin.
    pub fn chess_rr(rounds: u32) -> Ev {
        Ev::new("chess", "round-robin", rounds)
    }
    /// A card-game Swiss.
    pub fn cards(rounds: u32) -> Ev {
        Ev::new("cards", "swiss", rounds)
    }
    fn new(sport: &'static str, system: &'static str, rounds: u32) -> Ev {
        Ev {
            sport,
            system,
            rounds,
            players: Vec::new(),
            games: Vec::new(),
            byes: Vec::new(),
            withdrawn: BTreeMap::new(),
            fillers: 0,
        }
    }
    fn add(&mut self, p: &str) {
        if !self.players.iter().any(|q| q == p) {
            self.players.push(p.to_string());
        }
    }
    /// A game: chess "1-0", "0-1", "1/2-1/2", "+-", "-+", "--"; cards "W-L-D".
    pub fn game(&mut self, round: u32, home: &str, away: &str, result: &str) -> &mut Ev {
        self.add(home);
        self.add(away);
        self.games
            .push((round, home.into(), away.into(), result.into()));
        self
    }
    /// A bye: kind pairing | full | half | zero.
    pub fn bye(&mut self, round: u32, who: &str, kind: &'static str) -> &mut Ev {
        self.add(who);
        self.byes.push((round, who.into(), kind));
        self
    }
    /// Withdraw after a round.
    pub fn withdraw(&mut self, who: &str, after: u32) -> &mut Ev {
        self.withdrawn.insert(who.into(), after);
        self
    }
    fn busy(&self, p: &str, round: u32) -> bool {
        self.games
            .iter()
            .any(|(r, h, a, _)| *r == round && (h == p || a == p))
            || self.byes.iter().any(|(r, w, _)| *r == round && w == p)
    }
    /// Fill `p`'s free rounds, in order, with results against fresh filler
    /// players: chess W D L (played), F / f (forfeit won / lost), B full bye,
    /// H half bye, U pairing bye, Z zero bye, X nothing; cards W D L or "2-1-0", B bye.
    pub fn record(&mut self, p: &str, seq: &str) -> &mut Ev {
        self.add(p);
        let mut free = (1..=self.rounds)
            .filter(|&r| !self.busy(p, r))
            .collect::<Vec<_>>()
            .into_iter();
        for tok in seq.split_whitespace() {
            let r = free.next().expect("more results than free rounds");
            let mut filler = || {
                self.fillers += 1;
                format!("filler{}", self.fillers)
            };
            let cards = self.sport == "cards";
            match tok {
                "B" => {
                    self.bye(r, p, "full");
                }
                "U" => {
                    self.bye(r, p, "pairing");
                }
                "H" => {
                    self.bye(r, p, "half");
                }
                "Z" => {
                    self.bye(r, p, "zero");
                }
                "X" => {}
                _ => {
                    let f = filler();
                    let res = match (tok, cards) {
                        ("W", false) => "1-0",
                        ("D", false) => "1/2-1/2",
                        ("L", false) => "0-1",
                        ("F", _) => "+-",
                        ("f", _) => "-+",
                        ("W", true) => "2-0-0",
                        ("D", true) => "1-1-0",
                        ("L", true) => "0-2-0",
                        (other, true) => other,
                        (other, false) => panic!("unknown token {other}"),
                    };
                    self.game(r, p, &f, res);
                }
            }
        }
        self
    }
    /// The event as native TOML.
    pub fn toml(&self) -> String {
        let mut s = format!(
            "[event]\nname = \"test\"\nsport = \"{}\"\nsystem = \"{}\"\nrounds = {}\n\n",
            self.sport, self.system, self.rounds
        );
        for p in &self.players {
            s.push_str(&format!("[[participants]]\nid = \"{p}\"\nname = \"{p}\"\n"));
            if let Some(w) = self.withdrawn.get(p) {
                s.push_str(&format!("withdrawn_after = {w}\n"));
            }
            s.push('\n');
        }
        for r in 1..=self.rounds {
            s.push_str(&format!("[[rounds]]\nround = {r}\ngames = [\n"));
            for (gr, h, a, res) in &self.games {
                if *gr == r {
                    s.push_str(&format!(
                        "  {{ home = \"{h}\", away = \"{a}\", result = \"{res}\" }},\n"
                    ));
                }
            }
            s.push_str("]\nbyes = [\n");
            for (br, w, k) in &self.byes {
                if *br == r {
                    s.push_str(&format!("  {{ id = \"{w}\", type = \"{k}\" }},\n"));
                }
            }
            s.push_str("]\n\n");
        }
        s
    }
    /// Load through the native TOML loader.
    pub fn load(&self) -> Event {
        let text = self.toml();
        match tb::load::native::load_toml(&Source::new("test.toml", text.clone())) {
            Ok(e) => e,
            Err(d) => panic!("event does not load: {}\n{text}", d.plain()),
        }
    }
}

/// Check a shipped ruleset by name.
pub fn shipped(name: &str) -> Ruleset {
    let src = crate::files::load_root(name).unwrap_or_else(|d| panic!("{}", d.plain()));
    tb::check::check(src, &tb::shipped::Shipped, &[]).unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// Check a shipped ruleset by name with parameters (`--param NAME=VALUE`).
pub fn shipped_with(name: &str, params: &[(&str, &str)]) -> Ruleset {
    let src = crate::files::load_root(name).unwrap_or_else(|d| panic!("{}", d.plain()));
    let params: Vec<(String, tb::num::Num)> = params
        .iter()
        .map(|(k, v)| (k.to_string(), tb::num::Num::parse(v).unwrap()))
        .collect();
    tb::check::check(src, &tb::shipped::Shipped, &params)
        .unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// `ebu/split-tie` told to split every tie (White Book 143.4 splits only
/// the ties the event names: the tests of the split-tie steps say so).
pub fn ebu_every_tie() -> Ruleset {
    shipped_with("ebu/split-tie", &[("split_every_tie", "1")])
}

/// Check an inline ruleset (it may import shipped libraries).
pub fn inline(text: &str) -> Ruleset {
    tb::check::check(Source::new("inline.tb", text), &tb::shipped::Shipped, &[])
        .unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// Check an inline ruleset expecting errors; returns their codes.
pub fn inline_errors(text: &str) -> Vec<&'static str> {
    match tb::check::check(Source::new("inline.tb", text), &tb::shipped::Shipped, &[]) {
        Ok(_) => Vec::new(),
        Err(d) => {
            if d.related.is_empty() {
                vec![d.code]
            } else {
                d.related.iter().map(|r| r.code).collect()
            }
        }
    }
}

/// Rank an event.
pub fn rank(ev: &Event, rs: &Ruleset) -> Standings {
    tb::rank::rank(ev, rs, &tb::rank::Options::default())
        .unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// Ids in final order.
pub fn order(ev: &Event, st: &Standings) -> Vec<String> {
    st.rows
        .iter()
        .map(|r| ev.participants[r.pid].id.clone())
        .collect()
}

/// (id, rank) pairs in final order.
pub fn ranks(ev: &Event, st: &Standings) -> Vec<(String, usize)> {
    st.rows
        .iter()
        .map(|r| (ev.participants[r.pid].id.clone(), r.rank))
        .collect()
}

/// The rank of one participant.
pub fn rank_of(ev: &Event, st: &Standings, id: &str) -> usize {
    st.rows
        .iter()
        .find(|r| ev.participants[r.pid].id == id)
        .map(|r| r.rank)
        .unwrap_or_else(|| panic!("no {id}"))
}

/// A metric's exact value for a participant.
pub fn value(ev: &Event, rs: &Ruleset, metric: &str, id: &str) -> Value {
    tb::eval::metric_value(ev, rs, metric, id).unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// A number from text ("12.5", "2/3").
pub fn num(s: &str) -> Value {
    Value::Num(tb::num::Num::parse(s).expect("number"))
}

/// The first step's value for each participant (by id order in the data)
/// and the standings, ranked once per participant and once in columns:
/// the two evaluators must agree.
pub fn first_step_both_ways(ev: &Event, rs: &Ruleset, what: &str) -> (Vec<Value>, Standings) {
    let mut out = Vec::new();
    let mut last = None;
    for per_participant in [true, false] {
        let st = tb::rank::rank(
            ev,
            rs,
            &tb::rank::Options {
                per_participant,
                ..Default::default()
            },
        )
        .unwrap_or_else(|d| panic!("{what}: {}", d.plain()));
        let mut vals = vec![Value::Undef; ev.participants.len()];
        for row in &st.rows {
            vals[row.pid] = row.values[0].clone();
        }
        out.push(vals);
        last = Some(st);
    }
    assert_eq!(out[0], out[1], "{what}: the two evaluators disagree");
    (out.remove(0), last.expect("ranked"))
}

/// Files held in memory (name → text), anything else among the shipped
/// files: a resolver for rulesets, libraries and tables' data files.
pub struct InMemory(pub std::collections::HashMap<&'static str, &'static str>);

impl tb::check::Resolve for InMemory {
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String> {
        match self.0.get(name) {
            Some(text) => Ok(Source::new(name, *text)),
            None => tb::shipped::Shipped.resolve(name, from),
        }
    }
}

/// Whether `a` comes before `b` in the standings.
pub fn ahead(ev: &Event, st: &Standings, a: &str, b: &str) -> bool {
    let o = order(ev, st);
    o.iter().position(|x| x == a) < o.iter().position(|x| x == b)
}

/// Every shipped ruleset, checked.
pub fn shipped_rulesets() -> Vec<(String, Ruleset)> {
    let mut out = Vec::new();
    for (name, ..) in tb::shipped::list() {
        let root = crate::files::load_root(name).expect("shipped");
        let rs = tb::check::check(root, &tb::shipped::Shipped, &[]).expect("checks");
        out.push((name.to_string(), rs));
    }
    out
}

/// Run the `tb` binary in the crate's folder, without colour.
pub fn tb(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_tb"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run tb")
}
