//! Helpers for the FIDE tests: small events written as TRF (so the TRF
//! loader is part of every test), the FIDE library under an edition, and
//! descriptor chains.
#![allow(dead_code)]

use tb::diag::Source;
use tb::eval::Value;
use tb::model::Event;
use tb::num::Num;
use tb::plan::Ruleset;
use tb::rank::Standings;

/// A TRF event under construction: players numbered 1, 2, ... in the order
/// they are added.
pub struct Trf {
    rounds: u32,
    system: &'static str,
    date: &'static str,
    scoring: Option<&'static str>,
    players: Vec<(String, Option<u32>)>,
    /// (round, player, opponent or 0, colour, result code)
    blocks: Vec<(u32, usize, usize, char, char)>,
}

impl Trf {
    /// A Swiss of `rounds` rounds, starting 2024-05-01 (2024 edition).
    pub fn swiss(rounds: u32) -> Trf {
        Trf {
            rounds,
            system: "Swiss-System",
            date: "2024/05/01",
            scoring: None,
            players: Vec::new(),
            blocks: Vec::new(),
        }
    }
    /// A round robin of `rounds` rounds.
    pub fn round_robin(rounds: u32) -> Trf {
        Trf {
            system: "Round-Robin",
            ..Trf::swiss(rounds)
        }
    }
    /// Another start date (`YYYY/MM/DD`).
    pub fn date(mut self, d: &'static str) -> Trf {
        self.date = d;
        self
    }
    /// A TRF-26 record 162, e.g. `" W 3.0    D 1.0    L 0.0"`.
    pub fn scoring(mut self, s: &'static str) -> Trf {
        self.scoring = Some(s);
        self
    }
    /// Add players by name (ratings: `name:2000`); their numbers are 1, 2, ...
    pub fn players(mut self, names: &[&str]) -> Trf {
        for n in names {
            let (name, rating) = match n.split_once(':') {
                Some((a, r)) => (a.to_string(), Some(r.parse().expect("rating"))),
                None => (n.to_string(), None),
            };
            self.players.push((name, rating));
        }
        self
    }
    fn num(&self, name: &str) -> usize {
        self.players
            .iter()
            .position(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no player {name}"))
            + 1
    }
    /// A game, White first: "1-0", "0-1", "=", "+-", "-+", "--".
    pub fn game(mut self, round: u32, white: &str, black: &str, result: &str) -> Trf {
        let (w, b) = (self.num(white), self.num(black));
        let (rw, rb) = match result {
            "1-0" => ('1', '0'),
            "0-1" => ('0', '1'),
            "=" => ('=', '='),
            "+-" => ('+', '-'),
            "-+" => ('-', '+'),
            "--" => ('-', '-'),
            other => panic!("result {other}"),
        };
        self.blocks.push((round, w, b, 'w', rw));
        self.blocks.push((round, b, w, 'b', rb));
        self
    }
    /// A round without an opponent: U (pairing-allocated bye), F (full-point
    /// bye), H (half-point bye), Z (zero-point bye), - (absent).
    pub fn bye(mut self, round: u32, who: &str, code: char) -> Trf {
        let p = self.num(who);
        self.blocks.push((round, p, 0, '-', code));
        self
    }
    /// Results against fresh filler players, one per free round, in order:
    /// W (won), D (drew), L (lost), each a game with White.
    pub fn fill(mut self, who: &str, results: &str) -> Trf {
        let p = self.num(who);
        let mut free =
            (1..=self.rounds).filter(|r| !self.blocks.iter().any(|b| b.0 == *r && b.1 == p));
        let rounds: Vec<u32> = results
            .split_whitespace()
            .map(|_| free.next().expect("more results than free rounds"))
            .collect();
        for (r, res) in rounds.into_iter().zip(results.split_whitespace()) {
            let name = format!("filler{}", self.players.len() + 1);
            self.players.push((name.clone(), None));
            let res = match res {
                "W" => "1-0",
                "D" => "=",
                "L" => "0-1",
                other => panic!("filler result {other}"),
            };
            let white = self.players[p - 1].0.clone();
            self = self.game(r, &white, &name, res);
        }
        self
    }
    /// The TRF text.
    pub fn text(&self) -> String {
        let mut out = vec![
            "012 test event".to_string(),
            format!("042 {}", self.date),
            format!("092 Individual: {}", self.system),
            format!("142 {}", self.rounds),
        ];
        if let Some(s) = self.scoring {
            out.push(format!("162 {s}"));
        }
        for (i, (name, rating)) in self.players.iter().enumerate() {
            let p = i + 1;
            // Columns: number 5-8, name 15-47, rating 49-52, round blocks from 92.
            let mut line = format!(
                "001 {p:>4}      {name:<33} {:>4}{:37}",
                rating.map(|r| r.to_string()).unwrap_or_default(),
                ""
            );
            for r in 1..=self.rounds {
                match self.blocks.iter().find(|b| b.0 == r && b.1 == p) {
                    Some(&(_, _, o, c, res)) => line.push_str(&format!("  {o:04} {c} {res}")),
                    None => line.push_str("          "),
                }
            }
            out.push(line.trim_end().to_string());
        }
        out.join("\n") + "\n"
    }
    /// Loaded through the TRF loader.
    pub fn load(&self) -> Event {
        let text = self.text();
        tb::load::load(&Source::new("test.trf", text.clone()))
            .unwrap_or_else(|d| panic!("{}\n{text}", d.plain()))
    }
}

/// The FIDE library under an edition, with a `probe` metric.
fn library(edition: u32, probe: &str, params: &[(&str, i64)]) -> Ruleset {
    let text =
        format!("import \"fide/lib\"\nset fide_edition = {edition}\nmetric probe = {probe}\n");
    let overrides: Vec<(String, Num)> = params
        .iter()
        .map(|(k, v)| (k.to_string(), Num::int(*v)))
        .collect();
    tb::check::check(
        Source::new("probe.tb", text),
        &tb::shipped::Shipped,
        &overrides,
    )
    .unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// An expression of the FIDE library evaluated for participant `id`
/// (ids are starting numbers: "1", "2", ...).
pub fn value(ev: &Event, edition: u32, expr: &str, id: &str) -> Value {
    value_with(ev, edition, expr, id, &[])
}

/// As [`value`], with library parameters set.
pub fn value_with(ev: &Event, edition: u32, expr: &str, id: &str, params: &[(&str, i64)]) -> Value {
    let rs = library(edition, expr, params);
    tb::eval::metric_value(ev, &rs, "probe", id).unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// The expression for every participant `ids`, as display text ("-" for undefined).
pub fn values(ev: &Event, edition: u32, expr: &str, ids: &[&str]) -> Vec<String> {
    ids.iter()
        .map(|id| show(&value(ev, edition, expr, id)))
        .collect()
}

/// A value as text.
pub fn show(v: &Value) -> String {
    v.display(None).unwrap_or_else(|| "-".into())
}

/// A number from text ("12.5", "2/3").
pub fn num(s: &str) -> Value {
    Value::Num(Num::parse(s).expect("number"))
}

/// Rank `ev` with a descriptor list under an edition, DE printed as FIDE places.
pub fn chain(ev: &Event, list: &str, edition: u32) -> Standings {
    chain_with(ev, list, edition, &[])
}

/// As [`chain`], with library parameters set.
pub fn chain_with(ev: &Event, list: &str, edition: u32, params: &[(&str, i64)]) -> Standings {
    let overrides: Vec<(String, Num)> = params
        .iter()
        .map(|(k, v)| (k.to_string(), Num::int(*v)))
        .collect();
    let rs = tb::check::check_list(
        Source::new("--tiebreaks", list),
        "fide/codes",
        Some(&edition.to_string()),
        &tb::shipped::Shipped,
        &overrides,
    )
    .unwrap_or_else(|d| panic!("{}", d.plain()));
    let mut st = tb::rank::rank(ev, &rs, &tb::rank::Options::default())
        .unwrap_or_else(|d| panic!("{}", d.plain()));
    tb::rank::places::apply(&mut st, &rs);
    st
}

/// A column of the standings for the given ids, as text.
pub fn column(ev: &Event, st: &Standings, label: &str, ids: &[&str]) -> Vec<String> {
    let ci = st
        .columns
        .iter()
        .position(|c| c.label == label)
        .unwrap_or_else(|| panic!("no column {label}"));
    ids.iter()
        .map(|id| {
            let row = st
                .rows
                .iter()
                .find(|r| ev.participants[r.pid].id == *id)
                .unwrap_or_else(|| panic!("no {id}"));
            show(&row.values[ci])
        })
        .collect()
}

/// Ids in final order.
pub fn order(ev: &Event, st: &Standings) -> Vec<String> {
    st.rows
        .iter()
        .map(|r| ev.participants[r.pid].id.clone())
        .collect()
}

/// The hand-made Swiss of tests/fixtures/fide/tiny.trf: five players, four
/// rounds, every kind of unplayed round of Art. 16.2.
///
/// | round | A (1) 2000 | B (2) 1900 | C (3) 1800 | D (4) 1700 | E (5) 1600 |
/// |---|---|---|---|---|---|
/// | 1 | PAB (1) | beat C (w) | lost to B | drew E (w) | drew D |
/// | 2 | beat B (w) | lost to A | full-point bye | forfeit win vs E | forfeit loss vs D |
/// | 3 | forfeit loss vs C | drew D (w) | forfeit win vs A | drew B | half-point bye |
/// | 4 | half-point bye | zero-point bye | beat E (w) | absent | lost to C |
/// | score | 2.5 | 1.5 | 3 | 2 | 1 |
pub fn tiny() -> Event {
    Trf::swiss(4)
        .players(&["A:2000", "B:1900", "C:1800", "D:1700", "E:1600"])
        .bye(1, "A", 'U')
        .game(1, "B", "C", "1-0")
        .game(1, "D", "E", "=")
        .game(2, "A", "B", "1-0")
        .bye(2, "C", 'F')
        .game(2, "D", "E", "+-")
        .game(3, "C", "A", "+-")
        .game(3, "B", "D", "=")
        .bye(3, "E", 'H')
        .bye(4, "A", 'H')
        .bye(4, "B", 'Z')
        .game(4, "C", "E", "1-0")
        .bye(4, "D", '-')
        .load()
}
