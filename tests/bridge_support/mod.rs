//! Helpers for the bridge tests: team events written as native TOML (and
//! loaded through the real loader), with filler matches that bring a team's
//! totals to chosen values so each test states only the matches that matter.
#![allow(dead_code)]

use tb::diag::{Diag, Source};
use tb::eval::Value;
use tb::model::Event;
use tb::num::Num;
use tb::rank::{Decided, Row, Standings};

/// One match of a team event.
#[derive(Clone, Debug)]
pub struct Match {
    pub round: u32,
    pub session: u32,
    pub home: String,
    pub away: String,
    pub vp: [String; 2],
    pub imps: [i64; 2],
    pub total: [i64; 2],
    pub weight: Option<String>,
}

/// A team event under construction.
pub struct Teams {
    system: &'static str,
    teams: Vec<String>,
    matches: Vec<Match>,
    fillers: usize,
    values: Vec<(String, String)>,
    withdrawn: Vec<(String, u32)>,
    rounds: Option<u32>,
}

fn n(s: &str) -> Num {
    Num::parse(s).unwrap_or_else(|| panic!("not a number: {s}"))
}

fn show(x: Num) -> String {
    x.to_exact_decimal()
        .unwrap_or_else(|| format!("\"{}/{}\"", x.numer(), x.denom()))
}

impl Teams {
    /// A round robin (WBF section 1).
    pub fn round_robin() -> Teams {
        Teams::new("round-robin")
    }
    /// A Swiss (WBF section 3).
    pub fn swiss() -> Teams {
        Teams::new("swiss")
    }
    fn new(system: &'static str) -> Teams {
        Teams {
            system,
            teams: Vec::new(),
            matches: Vec::new(),
            fillers: 0,
            values: Vec::new(),
            withdrawn: Vec::new(),
            rounds: None,
        }
    }
    fn add(&mut self, t: &str) {
        if !self.teams.iter().any(|x| x == t) {
            self.teams.push(t.to_string());
        }
    }
    fn busy(&self, t: &str, r: u32) -> bool {
        self.matches
            .iter()
            .any(|m| m.round == r && (m.home == t || m.away == t))
    }
    /// The first round in which neither team has a match.
    fn free_round(&self, a: &str, b: &str) -> u32 {
        (1..)
            .find(|&r| !self.busy(a, r) && !self.busy(b, r))
            .unwrap()
    }
    /// A match: VPs as text ("12.5"), IMPs and total points as numbers.
    pub fn m(
        &mut self,
        home: &str,
        away: &str,
        vp: (&str, &str),
        imps: (i64, i64),
        total: (i64, i64),
    ) -> &mut Teams {
        self.add(home);
        self.add(away);
        let round = self.free_round(home, away);
        self.matches.push(Match {
            round,
            session: 1,
            home: home.into(),
            away: away.into(),
            vp: [vp.0.into(), vp.1.into()],
            imps: [imps.0, imps.1],
            total: [total.0, total.1],
            weight: None,
        });
        self
    }
    /// A match in a given (round, session).
    pub fn m_at(
        &mut self,
        (round, session): (u32, u32),
        home: &str,
        away: &str,
        vp: (&str, &str),
        imps: (i64, i64),
        total: (i64, i64),
    ) -> &mut Teams {
        self.add(home);
        self.add(away);
        self.matches.push(Match {
            round,
            session,
            home: home.into(),
            away: away.into(),
            vp: [vp.0.into(), vp.1.into()],
            imps: [imps.0, imps.1],
            total: [total.0, total.1],
            weight: None,
        });
        self
    }
    /// A participant value (`carryover`, `qualification_rank`, `penalty_vp`).
    pub fn value(&mut self, team: &str, name: &str, v: &str) -> &mut Teams {
        self.add(team);
        self.values
            .push((team.to_string(), format!("{name} = {v}")));
        self
    }
    /// Withdraw a team after a round.
    pub fn withdraw(&mut self, team: &str, after: u32) -> &mut Teams {
        self.withdrawn.push((team.to_string(), after));
        self
    }
    /// The scheduled number of rounds (default: the highest round used).
    pub fn rounds(&mut self, r: u32) -> &mut Teams {
        self.rounds = Some(r);
        self
    }
    fn sums(&self, t: &str) -> (Num, i64, i64, i64, i64) {
        let mut vp = Num::ZERO;
        let (mut iw, mut il, mut tw, mut tl) = (0, 0, 0, 0);
        for m in &self.matches {
            let side = if m.home == t {
                0
            } else if m.away == t {
                1
            } else {
                continue;
            };
            vp = vp.add(n(&m.vp[side])).unwrap();
            iw += m.imps[side];
            il += m.imps[1 - side];
            tw += m.total[side];
            tl += m.total[1 - side];
        }
        (vp, iw, il, tw, tl)
    }
    /// Add one match against `filler` (a fresh filler team when None) that
    /// brings `team` to `vp` Victory Points, an IMP quotient of
    /// `imp_q.0 / imp_q.1` and a total point quotient of `tp_q.0 / tp_q.1`.
    /// The filler's own VPs are `filler_vp`.
    pub fn balance_vs(
        &mut self,
        team: &str,
        filler: Option<&str>,
        vp: &str,
        imp_q: (i64, i64),
        tp_q: (i64, i64),
    ) -> &mut Teams {
        let (cur_vp, iw, il, tw, tl) = self.sums(team);
        let need_vp = n(vp).sub(cur_vp).unwrap();
        assert!(
            need_vp >= Num::ZERO,
            "{team} already has more than {vp} VPs"
        );
        let solve = |w: i64, l: i64, (p, q): (i64, i64), step: i64| -> (i64, i64) {
            // (w + x) / (l + y) = p / q with x, y >= 0 whole numbers.
            for y in (0..100_000).map(|k| k * step) {
                let num = p * (l + y);
                if num % q == 0 {
                    let x = num / q - w;
                    if x >= 0 {
                        return (x, y);
                    }
                }
            }
            panic!("cannot balance {team}");
        };
        let (ix, iy) = solve(iw, il, imp_q, 1);
        let (tx, ty) = solve(tw, tl, tp_q, 10);
        let filler = match filler {
            Some(f) => f.to_string(),
            None => {
                self.fillers += 1;
                format!("filler{}", self.fillers)
            }
        };
        let filler_vp = format!("0.0{}", (self.teams.len() % 9) + 1);
        self.m(
            team,
            &filler,
            (&show(need_vp), &filler_vp),
            (ix, iy),
            (tx, ty),
        );
        self
    }
    /// As `balance_vs` against a fresh filler team.
    pub fn balance(
        &mut self,
        team: &str,
        vp: &str,
        imp_q: (i64, i64),
        tp_q: (i64, i64),
    ) -> &mut Teams {
        self.balance_vs(team, None, vp, imp_q, tp_q)
    }
    /// The event as native TOML.
    pub fn toml(&self) -> String {
        let rounds = self
            .rounds
            .unwrap_or_else(|| self.matches.iter().map(|m| m.round).max().unwrap_or(1));
        let mut s = format!(
            "[event]\nname = \"test\"\nsport = \"bridge\"\nsystem = \"{}\"\nkind = \"team\"\nprimary = \"vp\"\nrounds = {rounds}\nscoring = {{ win = 20, draw = 10, loss = 0 }}\n\n",
            self.system
        );
        for t in &self.teams {
            s.push_str(&format!("[[participants]]\nid = \"{t}\"\nname = \"{t}\"\n"));
            let vals: Vec<&str> = self
                .values
                .iter()
                .filter(|(x, _)| x == t)
                .map(|(_, v)| v.as_str())
                .collect();
            if !vals.is_empty() {
                s.push_str(&format!("values = {{ {} }}\n", vals.join(", ")));
            }
            if let Some((_, w)) = self.withdrawn.iter().find(|(x, _)| x == t) {
                s.push_str(&format!("withdrawn_after = {w}\n"));
            }
            s.push('\n');
        }
        for m in &self.matches {
            s.push_str(&format!(
                "[[rounds]]\nround = {}\nsession = {}\ngames = [ {{ home = \"{}\", away = \"{}\", vp = [{}, {}], imps = [{}, {}], total = [{}, {}]{} }} ]\n\n",
                m.round,
                m.session,
                m.home,
                m.away,
                m.vp[0],
                m.vp[1],
                m.imps[0],
                m.imps[1],
                m.total[0],
                m.total[1],
                m.weight
                    .as_ref()
                    .map(|w| format!(", weight = {w}"))
                    .unwrap_or_default()
            ));
        }
        s
    }
    /// Load through the native TOML loader.
    pub fn load(&self) -> Event {
        load_toml(&self.toml())
    }
}

/// Load native TOML text.
pub fn load_toml(text: &str) -> Event {
    match tb::load::native::load_toml(&Source::new("test.toml", text.to_string())) {
        Ok(e) => e,
        Err(d) => panic!("event does not load: {}\n{text}", d.plain()),
    }
}

/// A shipped example file, loaded.
pub fn example(name: &str) -> Event {
    let path = format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    tb::load::load(&Source::new(path, text)).unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// A participant's row of the standings.
pub fn row<'a>(ev: &Event, st: &'a Standings, id: &str) -> &'a Row {
    st.rows
        .iter()
        .find(|r| ev.participants[r.pid].id == id)
        .unwrap_or_else(|| panic!("no {id}"))
}

/// The value of a column (by label) for a participant.
pub fn column(ev: &Event, st: &Standings, label: &str, id: &str) -> Value {
    let c = st.columns.iter().position(|c| c.label == label).unwrap();
    row(ev, st, id).values[c].clone()
}

/// The step that decided a participant's place (None when none did).
pub fn decided_step<'a>(ev: &Event, st: &'a Standings, id: &str) -> Option<&'a Decided> {
    row(ev, st, id).decided_by.as_deref()
}

/// The criterion that decided a participant's place (empty when none did).
pub fn decided(ev: &Event, st: &Standings, id: &str) -> String {
    decided_step(ev, st, id)
        .map(|d| d.criterion.clone())
        .unwrap_or_default()
}

/// (procedure, cite) of the step that placed `id`.
pub fn placed_by(ev: &Event, st: &Standings, id: &str) -> (String, String) {
    let d = decided_step(ev, st, id).unwrap_or_else(|| panic!("{id} was not decided"));
    (d.procedure.clone(), d.cite.clone().unwrap_or_default())
}

/// A (procedure, cite) pair, as `placed_by` gives it.
pub fn pc(p: &str, c: &str) -> (String, String) {
    (p.to_string(), c.to_string())
}

/// The codes of the problems a diagnostic lists, or its own code when it
/// lists none.
pub fn codes(d: &Diag) -> Vec<&'static str> {
    if d.related.is_empty() {
        vec![d.code]
    } else {
        d.related.iter().map(|r| r.code).collect()
    }
}
