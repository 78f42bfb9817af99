//! Synthetic events for benchmarks and tests: realistic Swiss tournaments generated from a seed.
//!
//! [`generate`] plays a whole Swiss event round by round — chess, card-game
//! best-of-three matches or bridge Swiss teams — and the result can be
//! written as FIDE TRF16 ([`Swiss::to_trf`], chess only) or in the native
//! format ([`Swiss::to_json`], [`Swiss::to_toml`]). The same seed always gives
//! the same event, byte for byte, on every platform: the generator uses its
//! own SplitMix64 stream and integer arithmetic only (no floating point, no
//! hash-map order).
//!
//! What a generated event contains:
//!
//! * participants sorted by rating (starting number 1 = highest rated), about
//!   3% unrated (chess); results depend on a hidden strength near the rating;
//! * pairing by score groups: each group (with the players floated down from
//!   the group above) is folded, top half against bottom half, avoiding
//!   repeat pairings; a player who cannot be paired in the group floats down;
//! * a pairing-allocated bye for the lowest-ranked player without one when
//!   the number of players to pair is odd;
//! * chess: about 2% half-point byes and 0.2% zero-point byes per player and
//!   round, 1% of games forfeited (a tenth of them double forfeits), 1% of
//!   the players withdrawing after each round;
//! * cards: best-of-three matches (`"2-1"`, `"1-1-1"` for an unfinished
//!   third game, `"1-1"` when time is called, drawn games), 0.5% no-shows,
//!   drops (more often by players with a losing record);
//! * bridge Swiss teams: IMPs and VPs (a 20-VP scale, two decimals, each
//!   match's VPs adding up to exactly 20), a 12-VP bye, rare withdrawals.

use std::fmt::Write as _;

/// SplitMix64: a small, fast, fixed generator (the same stream everywhere).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
    /// True with probability `per_10k` / 10,000.
    pub fn chance(&mut self, per_10k: u64) -> bool {
        self.below(10_000) < per_10k
    }
}

/// Which kind of event to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sport {
    /// Individual chess Swiss (TRF16 or native).
    Chess,
    /// Card-game Swiss, best-of-three matches (native).
    Cards,
    /// Bridge Swiss teams scored in IMPs and VPs (native).
    Bridge,
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct Config {
    /// The kind of event.
    pub sport: Sport,
    /// Number of participants (players or teams), at least 2.
    pub players: usize,
    /// Number of rounds, at least 1.
    pub rounds: u32,
    /// The seed: the same seed gives the same event.
    pub seed: u64,
}

/// A participant of a generated event; its id is its index + 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Display name ("Surname, Given"; teams "Team Surname").
    pub name: String,
    /// Rating (chess; none for unrated players and for other sports).
    pub rating: Option<u32>,
    /// Chess title code as TRF writes it (`g`, `m`, `f`), for the strongest.
    pub title: Option<&'static str>,
    /// Three-letter federation.
    pub federation: &'static str,
    /// Withdrew (dropped) after this round.
    pub withdrawn_after: Option<u32>,
}

/// Which side won a chess game or a card-game match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// The home side (White).
    Home,
    /// Neither: a draw.
    Draw,
    /// The away side (Black).
    Away,
}

/// The result of one encounter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Res {
    /// A chess game played over the board.
    Chess(Winner),
    /// A card-game match: games won by home, by away, and drawn (unfinished
    /// games count as drawn).
    Cards {
        /// Games won by the home player.
        home: u8,
        /// Games won by the away player.
        away: u8,
        /// Drawn (or unfinished) games.
        drawn: u8,
    },
    /// A bridge team match: IMPs and VPs (VPs in hundredths) for home and away.
    Bridge {
        /// IMPs scored by home and by away.
        imps: [u32; 2],
        /// VPs in hundredths, adding up to 2000.
        vp: [u32; 2],
    },
    /// Home won by forfeit (away did not appear).
    ForfeitHome,
    /// Away won by forfeit (home did not appear).
    ForfeitAway,
    /// Neither side appeared.
    DoubleForfeit,
}

/// One encounter: participant indices (id − 1) and the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// White / home team.
    pub home: u32,
    /// Black / away team.
    pub away: u32,
    /// What happened.
    pub res: Res,
}

/// Kinds of bye.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByeKind {
    /// Allocated by the pairing (odd number of players).
    Pairing,
    /// Requested, worth a draw.
    Half,
    /// Requested, worth nothing.
    Zero,
}

/// One bye: participant index and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bye {
    /// Participant index (id − 1).
    pub who: u32,
    /// Kind of bye.
    pub kind: ByeKind,
}

/// One round's encounters and byes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    /// Encounters, in board order.
    pub games: Vec<Game>,
    /// Byes.
    pub byes: Vec<Bye>,
}

/// Counts of what a generated event contains.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Encounters (played or forfeited).
    pub games: usize,
    /// Encounters won by forfeit (one side absent).
    pub forfeits: usize,
    /// Double forfeits.
    pub double_forfeits: usize,
    /// Drawn chess games, drawn card matches, tied bridge matches.
    pub draws: usize,
    /// Card matches with a drawn or unfinished game.
    pub drawn_games: usize,
    /// Pairing-allocated byes.
    pub pairing_byes: usize,
    /// Half-point byes.
    pub half_byes: usize,
    /// Zero-point byes.
    pub zero_byes: usize,
    /// Participants who withdrew.
    pub withdrawals: usize,
    /// Pairings of two participants who had already met.
    pub repeat_pairings: usize,
}

/// A generated Swiss event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swiss {
    /// The kind of event.
    pub sport: Sport,
    /// Event name.
    pub name: String,
    /// The seed it was generated from.
    pub seed: u64,
    /// Participants; id = index + 1.
    pub players: Vec<Player>,
    /// Rounds, round 1 first.
    pub rounds: Vec<Round>,
    /// Final score per participant in the generator's units: chess half
    /// points, card-game match points, bridge VPs in hundredths.
    pub scores: Vec<u32>,
    /// What the event contains.
    pub stats: Stats,
}

/// Logistic expected score (per mille) at rating differences 0, 50, ..., 800.
const EXPECTED: [i64; 17] = [
    500, 571, 640, 703, 760, 808, 849, 882, 909, 930, 947, 960, 969, 977, 983, 987, 990,
];

/// Expected score per mille of a side `d` rating points stronger.
fn expected(d: i64) -> i64 {
    let a = d.abs().min(799);
    let (i, f) = ((a / 50) as usize, a % 50);
    let e = EXPECTED[i] + (EXPECTED[i + 1] - EXPECTED[i]) * f / 50;
    if d >= 0 {
        e
    } else {
        1000 - e
    }
}

const GIVEN: [&str; 32] = [
    "Anna", "Liam", "Omar", "Claire", "Daria", "Ken", "Pedro", "Ewa", "Kwame", "Erik", "Mei",
    "Ravi", "Sofia", "Jonas", "Amara", "Ivan", "Lucia", "Tomas", "Nadia", "Hugo", "Ines", "Yusuf",
    "Greta", "Pavel", "Zara", "Mateo", "Leila", "Arjun", "Freya", "Diego", "Hana", "Olek",
];
const SYL_A: [&str; 16] = [
    "Kar", "Bel", "Mor", "Tan", "Vel", "Os", "Rad", "Sil", "No", "Har", "Len", "Dor", "Fal", "Gri",
    "Ama", "Zel",
];
const SYL_B: [&str; 16] = [
    "ov", "en", "ak", "ir", "ane", "ul", "ez", "ic", "ard", "om", "ais", "ug", "et", "in", "or",
    "as",
];
const SYL_C: [&str; 8] = ["", "a", "ski", "son", "ova", "elli", "berg", "ez"];
const FEDS: [&str; 16] = [
    "FRA", "GER", "ENG", "ESP", "ITA", "NED", "POL", "HUN", "USA", "IND", "CHN", "NOR", "BRA",
    "EGY", "AUS", "JPN",
];

fn surname(rng: &mut Rng) -> String {
    let mut s = String::with_capacity(12);
    s.push_str(SYL_A[rng.below(16) as usize]);
    s.push_str(SYL_B[rng.below(16) as usize]);
    s.push_str(SYL_C[rng.below(8) as usize]);
    s
}

/// Per-participant state while the event is played.
struct State {
    score: Vec<u32>,
    strength: Vec<i64>,
    met: Vec<Vec<u32>>,
    colour: Vec<i8>,
    had_bye: Vec<bool>,
    active: Vec<bool>,
    losses: Vec<u32>,
    wins: Vec<u32>,
}

impl State {
    fn met(&self, a: u32, b: u32) -> bool {
        self.met[a as usize].contains(&b)
    }
}

/// Score units for a win, a draw and a pairing bye.
fn units(sport: Sport) -> (u32, u32, u32) {
    match sport {
        Sport::Chess => (2, 1, 2),
        Sport::Cards => (3, 1, 3),
        // VPs in hundredths; a bye is worth 12 VPs.
        Sport::Bridge => (2000, 1000, 1200),
    }
}

/// Generate an event. Sizes from 2 participants and 1 round; nothing caps
/// them here, but TRF holds at most 9,999 players and the native loader
/// reads files up to 50 MB (about 100,000 players × 15 rounds).
pub fn generate(cfg: &Config) -> Swiss {
    let mut rng = Rng::new(cfg.seed);
    let n = cfg.players.max(2);
    let rounds = cfg.rounds.max(1);
    let (mut players, mut st) = participants(cfg, &mut rng, n, rounds);
    let points = units(cfg.sport);
    let mut stats = Stats::default();
    let mut out_rounds = Vec::with_capacity(rounds as usize);
    for r in 1..=rounds {
        let mut round = Round::default();
        let pool = byes(cfg, &mut rng, &mut st, &mut round, &mut stats, points);
        let pairs = pair(&pool, &st, &mut stats);
        play_round(
            cfg,
            &mut rng,
            &mut st,
            &mut round,
            &mut stats,
            (r, &pairs),
            points,
        );
        stats.games += round.games.len();
        // Withdrawals after this round (none after the last).
        if r < rounds {
            withdrawals(cfg, &mut rng, &mut st, &mut players, &mut stats, r);
        }
        round.byes.sort_by_key(|b| b.who);
        out_rounds.push(round);
    }
    let name = match cfg.sport {
        Sport::Chess => "Generated Chess Open",
        Sport::Cards => "Generated Card-game Swiss",
        Sport::Bridge => "Generated Swiss Teams",
    };
    Swiss {
        sport: cfg.sport,
        name: format!("{name} ({n} x {rounds}, seed {})", cfg.seed),
        seed: cfg.seed,
        players,
        rounds: out_rounds,
        scores: st.score,
        stats,
    }
}

/// The participants, strongest first (rating, then strength for the
/// unrated and other sports), and the pairing state with their strengths.
fn participants(cfg: &Config, rng: &mut Rng, n: usize, rounds: u32) -> (Vec<Player>, State) {
    let mut raw: Vec<(Option<u32>, i64, String, &'static str)> = Vec::with_capacity(n);
    for _ in 0..n {
        let r = 1000 + (0..4).map(|_| rng.below(401) as u32).sum::<u32>();
        let rating = match cfg.sport {
            Sport::Chess if !rng.chance(300) => Some(r),
            Sport::Chess => None,
            _ => None,
        };
        let hidden = rating
            .map(i64::from)
            .unwrap_or(1000 + rng.below(800) as i64);
        let strength = match cfg.sport {
            Sport::Chess => hidden + rng.below(201) as i64 - 100,
            _ => i64::from(r),
        };
        let name = match cfg.sport {
            Sport::Bridge => format!("Team {}", surname(rng)),
            _ => format!("{}, {}", surname(rng), GIVEN[rng.below(32) as usize]),
        };
        let fed = FEDS[rng.below(16) as usize];
        raw.push((rating, strength, name, fed));
    }
    // Starting rank: rating (then strength for the unrated and other sports).
    raw.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(b.1.cmp(&a.1))
            .then_with(|| a.2.cmp(&b.2))
    });
    let mut players = Vec::with_capacity(n);
    let mut st = State {
        score: vec![0; n],
        strength: Vec::with_capacity(n),
        met: vec![Vec::with_capacity(rounds as usize); n],
        colour: vec![0; n],
        had_bye: vec![false; n],
        active: vec![true; n],
        losses: vec![0; n],
        wins: vec![0; n],
    };
    for (rating, strength, name, federation) in raw {
        let title = match rating {
            Some(r) if r >= 2500 => Some("g"),
            Some(r) if r >= 2400 => Some("m"),
            Some(r) if r >= 2300 => Some("f"),
            _ => None,
        };
        players.push(Player {
            name,
            rating,
            title,
            federation,
            withdrawn_after: None,
        });
        st.strength.push(strength);
    }

    (players, st)
}

/// A round's byes: requested ones (chess only), then the pairing-allocated
/// bye when the rest is odd. Returns the pool to pair, in standings order.
fn byes(
    cfg: &Config,
    rng: &mut Rng,
    st: &mut State,
    round: &mut Round,
    stats: &mut Stats,
    (_, draw, bye_pts): (u32, u32, u32),
) -> Vec<u32> {
    let n = st.active.len();
    let mut pool: Vec<u32> = Vec::with_capacity(n);
    for p in 0..n as u32 {
        if !st.active[p as usize] {
            continue;
        }
        if cfg.sport == Sport::Chess && rng.chance(200) {
            round.byes.push(Bye {
                who: p,
                kind: ByeKind::Half,
            });
            st.score[p as usize] += draw;
            stats.half_byes += 1;
        } else if cfg.sport == Sport::Chess && rng.chance(20) {
            round.byes.push(Bye {
                who: p,
                kind: ByeKind::Zero,
            });
            stats.zero_byes += 1;
        } else {
            pool.push(p);
        }
    }
    pool.sort_by(|&a, &b| {
        st.score[b as usize]
            .cmp(&st.score[a as usize])
            .then(a.cmp(&b))
    });
    if pool.len() % 2 == 1 {
        let at = pool
            .iter()
            .rposition(|&p| !st.had_bye[p as usize])
            .unwrap_or(pool.len() - 1);
        let p = pool.remove(at);
        st.had_bye[p as usize] = true;
        st.score[p as usize] += bye_pts;
        st.wins[p as usize] += 1;
        round.byes.push(Bye {
            who: p,
            kind: ByeKind::Pairing,
        });
        stats.pairing_byes += 1;
    }
    pool
}

/// Round `r`'s games between `pairs`: colours, results, scores.
fn play_round(
    cfg: &Config,
    rng: &mut Rng,
    st: &mut State,
    round: &mut Round,
    stats: &mut Stats,
    (r, pairs): (u32, &[(u32, u32)]),
    (win, draw, _): (u32, u32, u32),
) {
    for (k, &(a, b)) in pairs.iter().enumerate() {
        // Colours: the one with fewer whites so far is White.
        let (ca, cb) = (st.colour[a as usize], st.colour[b as usize]);
        let a_white = match ca.cmp(&cb) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => (k + r as usize).is_multiple_of(2),
        };
        let (home, away) = if a_white { (a, b) } else { (b, a) };
        st.colour[home as usize] += 1;
        st.colour[away as usize] -= 1;
        st.met[home as usize].push(away);
        st.met[away as usize].push(home);
        let res = play(cfg.sport, rng, st, home, away, stats);
        let (h, w) = (home as usize, away as usize);
        let give = |pts: [u32; 2], st: &mut State| {
            st.score[h] += pts[0];
            st.score[w] += pts[1];
            for (i, who) in [h, w].into_iter().enumerate() {
                if pts[i] > pts[1 - i] {
                    st.wins[who] += 1;
                } else if pts[i] < pts[1 - i] {
                    st.losses[who] += 1;
                }
            }
        };
        match res {
            Res::Chess(Winner::Home) => give([win, 0], st),
            Res::Chess(Winner::Away) => give([0, win], st),
            Res::Chess(Winner::Draw) => give([draw, draw], st),
            Res::Cards { home, away, .. } => match home.cmp(&away) {
                std::cmp::Ordering::Greater => give([win, 0], st),
                std::cmp::Ordering::Less => give([0, win], st),
                std::cmp::Ordering::Equal => give([draw, draw], st),
            },
            Res::Bridge { vp, .. } => give(vp, st),
            Res::ForfeitHome => give([win, 0], st),
            Res::ForfeitAway => give([0, win], st),
            Res::DoubleForfeit => {
                st.losses[h] += 1;
                st.losses[w] += 1;
            }
        }
        round.games.push(Game { home, away, res });
    }
}

/// Who withdraws after round `r`.
fn withdrawals(
    cfg: &Config,
    rng: &mut Rng,
    st: &mut State,
    players: &mut [Player],
    stats: &mut Stats,
    r: u32,
) {
    for (p, player) in players.iter_mut().enumerate() {
        if !st.active[p] {
            continue;
        }
        let odds = match cfg.sport {
            Sport::Chess => 100,
            Sport::Cards if st.losses[p] > st.wins[p] => 300,
            Sport::Cards => 50,
            Sport::Bridge => 50,
        };
        if rng.chance(odds) {
            st.active[p] = false;
            player.withdrawn_after = Some(r);
            stats.withdrawals += 1;
        }
    }
}

/// Pair a pool sorted by standings: score groups, each folded with the
/// players floated down from above; repeat pairings avoided where possible.
fn pair(pool: &[u32], st: &State, stats: &mut Stats) -> Vec<(u32, u32)> {
    let mut pairs = Vec::with_capacity(pool.len() / 2);
    let mut carry: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < pool.len() {
        let s = st.score[pool[i] as usize];
        let mut j = i;
        while j < pool.len() && st.score[pool[j] as usize] == s {
            j += 1;
        }
        let mut group = std::mem::take(&mut carry);
        group.extend_from_slice(&pool[i..j]);
        carry = fold(&group, st, &mut pairs);
        i = j;
    }
    // The few left over: without repeats where possible, then with.
    let mut left = carry;
    while left.len() >= 2 {
        let a = left.remove(0);
        let at = left.iter().position(|&b| !st.met(a, b)).unwrap_or_else(|| {
            stats.repeat_pairings += 1;
            0
        });
        let b = left.remove(at);
        pairs.push((a, b));
    }
    pairs
}

/// Fold one group: top half against bottom half, skipping opponents already
/// met (looking a little way along the bottom half). Returns the players
/// left unpaired, in standings order, to float down.
fn fold(group: &[u32], st: &State, pairs: &mut Vec<(u32, u32)>) -> Vec<u32> {
    const LOOK: usize = 48;
    let m = group.len() / 2;
    let (s1, s2) = group.split_at(m);
    let mut used = vec![false; s2.len()];
    let mut left = Vec::new();
    for (k, &a) in s1.iter().enumerate() {
        let found = (k..s2.len())
            .chain(0..k.min(s2.len()))
            .filter(|&x| !used[x])
            .take(LOOK)
            .find(|&x| !st.met(a, s2[x]));
        match found {
            Some(x) => {
                used[x] = true;
                pairs.push((a, s2[x]));
            }
            None => left.push(a),
        }
    }
    left.extend(s2.iter().zip(&used).filter(|(_, &u)| !u).map(|(&b, _)| b));
    left.sort_by(|&a, &b| {
        st.score[b as usize]
            .cmp(&st.score[a as usize])
            .then(a.cmp(&b))
    });
    left
}

/// Play one encounter.
fn play(sport: Sport, rng: &mut Rng, st: &State, home: u32, away: u32, stats: &mut Stats) -> Res {
    let d = st.strength[home as usize] - st.strength[away as usize];
    let forfeit_odds = match sport {
        Sport::Chess => 100,
        Sport::Cards => 50,
        Sport::Bridge => 0,
    };
    if forfeit_odds > 0 && rng.chance(forfeit_odds) {
        if rng.chance(1000) {
            stats.double_forfeits += 1;
            return Res::DoubleForfeit;
        }
        stats.forfeits += 1;
        return if rng.below(2) == 0 {
            Res::ForfeitHome
        } else {
            Res::ForfeitAway
        };
    }
    match sport {
        Sport::Chess => {
            // White's first-move advantage is worth about 35 rating points.
            let d = d + 35;
            let e = expected(d);
            let draw = (350 - d.abs() * 3 / 8).max(80).min(2 * e.min(1000 - e));
            let home_win = e - draw / 2;
            let x = rng.below(1000) as i64;
            let w = if x < home_win {
                Winner::Home
            } else if x < home_win + draw {
                stats.draws += 1;
                Winner::Draw
            } else {
                Winner::Away
            };
            Res::Chess(w)
        }
        Sport::Cards => {
            let e = expected(d);
            let (mut h, mut a, mut dr) = (0u8, 0u8, 0u8);
            let mut games = 0;
            while h < 2 && a < 2 && games < 3 {
                if games == 2 && h == a {
                    // Time called at one game each: no third game, or an
                    // unfinished one (recorded as drawn).
                    if rng.chance(500) {
                        break;
                    }
                    if rng.chance(1000) {
                        dr += 1;
                        break;
                    }
                }
                if rng.chance(200) {
                    dr += 1;
                } else if (rng.below(1000) as i64) < e {
                    h += 1;
                } else {
                    a += 1;
                }
                games += 1;
            }
            if dr > 0 {
                stats.drawn_games += 1;
            }
            if h == a {
                stats.draws += 1;
            }
            Res::Cards {
                home: h,
                away: a,
                drawn: dr,
            }
        }
        Sport::Bridge => {
            // IMP margin: strength plus the luck of the cards.
            let luck: i64 = (0..3).map(|_| rng.below(31) as i64 - 15).sum();
            let margin = d / 20 + luck;
            let base = 5 + rng.below(30) as u32;
            let m = margin.unsigned_abs() as u32;
            let imps = if margin >= 0 {
                [base + m, base]
            } else {
                [base, base + m]
            };
            let v = vp_winner(m);
            let vp = if margin >= 0 {
                [v, 2000 - v]
            } else {
                [2000 - v, v]
            };
            if margin == 0 {
                stats.draws += 1;
            }
            Res::Bridge { imps, vp }
        }
    }
}

/// The winner's VPs (hundredths) for an IMP margin: a concave 20-VP scale
/// reaching 20.00 - 0.00 at 60 IMPs; 10.00 each for a tie.
pub fn vp_winner(margin: u32) -> u32 {
    const M: u64 = 60;
    let m = u64::from(margin).min(M);
    let den = M * M * M;
    let num = 1000 * (den - (M - m).pow(3));
    1000 + ((2 * num + den) / (2 * den)) as u32
}

/// The start date every generated event gives (before FIDE's 2026 edition).
const START: &str = "2025-01-04";

/// Hundredths as a decimal with two places (`1562` → `15.62`).
fn cents(v: u32) -> String {
    format!("{}.{:02}", v / 100, v % 100)
}

impl Swiss {
    /// Number of rounds.
    pub fn round_count(&self) -> u32 {
        self.rounds.len() as u32
    }

    /// A participant's final score as the data writes it (`7.5`, `21`, `123.45`).
    pub fn score_text(&self, p: usize) -> String {
        let s = self.scores[p];
        match self.sport {
            Sport::Chess => {
                if s.is_multiple_of(2) {
                    format!("{}", s / 2)
                } else {
                    format!("{}.5", s / 2)
                }
            }
            Sport::Cards => s.to_string(),
            Sport::Bridge => cents(s),
        }
    }

    /// The event as FIDE TRF16 (chess only, at most 9,999 players: starting
    /// numbers have four digits). Rounds after a withdrawal are written
    /// `0000 - -`; the rank column is left blank (no tie-break order is
    /// implied).
    pub fn to_trf(&self) -> Result<String, String> {
        if self.sport != Sport::Chess {
            return Err("TRF holds chess events only; use --format json or toml".into());
        }
        if self.players.len() > 9_999 {
            return Err(format!(
                "TRF starting numbers have four digits: at most 9,999 players, not {}",
                self.players.len()
            ));
        }
        let n = self.players.len();
        let rounds = self.rounds.len();
        // Each player's block per round.
        let mut cells = vec![*b"0000 - -"; n * rounds];
        for (r, round) in self.rounds.iter().enumerate() {
            for g in &round.games {
                let (hc, ac) = match g.res {
                    Res::Chess(Winner::Home) => (b'1', b'0'),
                    Res::Chess(Winner::Draw) => (b'=', b'='),
                    Res::Chess(Winner::Away) => (b'0', b'1'),
                    Res::ForfeitHome => (b'+', b'-'),
                    Res::ForfeitAway => (b'-', b'+'),
                    Res::DoubleForfeit => (b'-', b'-'),
                    _ => return Err("not a chess result".into()),
                };
                for (me, opp, colour, code) in
                    [(g.home, g.away, b'w', hc), (g.away, g.home, b'b', ac)]
                {
                    let c = &mut cells[me as usize * rounds + r];
                    let num = format!("{:>4}", opp + 1);
                    c[..4].copy_from_slice(num.as_bytes());
                    c[5] = colour;
                    c[7] = code;
                }
            }
            for b in &round.byes {
                cells[b.who as usize * rounds + r][7] = match b.kind {
                    ByeKind::Pairing => b'U',
                    ByeKind::Half => b'H',
                    ByeKind::Zero => b'Z',
                };
            }
        }
        let mut s = String::with_capacity(400 + n * (92 + 10 * rounds));
        let _ = writeln!(s, "012 {}", self.name);
        let _ = writeln!(s, "022 Generated");
        let _ = writeln!(s, "032 FID");
        let _ = writeln!(s, "042 {}", START.replace('-', "/"));
        let _ = writeln!(s, "052 2025/01/{:02}", 3 + rounds.min(28));
        let _ = writeln!(s, "062 {n}");
        let _ = writeln!(
            s,
            "072 {}",
            self.players.iter().filter(|p| p.rating.is_some()).count()
        );
        let _ = writeln!(s, "092 Individual: Swiss-System");
        let _ = writeln!(s, "102 tbgen, seed {}", self.seed);
        let _ = writeln!(s, "122 90 minutes + 30 seconds per move");
        let _ = writeln!(s, "XXR {rounds}");
        for (i, p) in self.players.iter().enumerate() {
            let pts = {
                let v = self.scores[i];
                format!("{}.{}", v / 2, if v % 2 == 1 { 5 } else { 0 })
            };
            let rating = p.rating.map(|r| r.to_string()).unwrap_or_default();
            let name: String = p.name.chars().take(33).collect();
            let sex = if i % 5 == 3 { 'w' } else { 'm' };
            let _ = write!(
                s,
                "001 {:>4} {sex}{:>3} {name:<33} {rating:>4} {} {:>11} {:>10} {pts:>4} {:>4}  ",
                i + 1,
                p.title.unwrap_or(""),
                p.federation,
                100_000 + i,
                format!("{}/01/01", 1950 + (i * 7) % 55),
                "",
            );
            for r in 0..rounds {
                if r > 0 {
                    s.push_str("  ");
                }
                let c = &cells[i * rounds + r];
                // Cells are ASCII by construction.
                s.push_str(std::str::from_utf8(c).unwrap_or("0000 - -"));
            }
            s.push('\n');
        }
        Ok(s)
    }

    fn sport_name(&self) -> &'static str {
        match self.sport {
            Sport::Chess => "chess",
            Sport::Cards => "cards",
            Sport::Bridge => "bridge",
        }
    }

    /// The result of a game as the native format writes it.
    fn result_text(res: Res) -> Option<String> {
        Some(match res {
            Res::Chess(Winner::Home) => "1-0".into(),
            Res::Chess(Winner::Draw) => "1/2-1/2".into(),
            Res::Chess(Winner::Away) => "0-1".into(),
            Res::Cards { home, away, drawn } => {
                if drawn == 0 {
                    format!("{home}-{away}")
                } else {
                    format!("{home}-{away}-{drawn}")
                }
            }
            Res::Bridge { .. } => return None,
            Res::ForfeitHome => "+-".into(),
            Res::ForfeitAway => "-+".into(),
            Res::DoubleForfeit => "--".into(),
        })
    }

    /// The event in the native JSON format, one participant, game or bye
    /// per line; ids are the starting numbers.
    pub fn to_json(&self) -> String {
        let rounds = self.rounds.len();
        let mut s = String::with_capacity(self.players.len() * (70 + 45 * rounds / 2) + 4096);
        let _ = write!(
            s,
            "{{\"event\":{{\"name\":\"{}\",\"sport\":\"{}\",\"system\":\"swiss\",\"start_date\":\"{START}\"",
            self.name,
            self.sport_name()
        );
        if self.sport == Sport::Bridge {
            s.push_str(
                ",\"kind\":\"team\",\"primary\":\"vp\",\"values\":{\"boards_per_match\":16}",
            );
        }
        let _ = write!(s, ",\"rounds\":{rounds}}},\n\"participants\":[");
        for (i, p) in self.players.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = write!(s, "\n{{\"id\":{},\"name\":\"{}\"", i + 1, p.name);
            if let Some(r) = p.rating {
                let _ = write!(s, ",\"rating\":{r}");
            }
            if let Some(t) = p.title {
                let _ = write!(s, ",\"title\":\"{}\"", full_title(t));
            }
            if self.sport == Sport::Chess {
                let _ = write!(s, ",\"federation\":\"{}\"", p.federation);
            }
            if let Some(w) = p.withdrawn_after {
                let _ = write!(s, ",\"withdrawn_after\":{w}");
            }
            let _ = write!(s, ",\"score\":{}}}", self.score_text(i));
        }
        s.push_str("],\n\"rounds\":[");
        for (r, round) in self.rounds.iter().enumerate() {
            if r > 0 {
                s.push(',');
            }
            let _ = write!(s, "\n{{\"round\":{},\"games\":[", r + 1);
            for (k, g) in round.games.iter().enumerate() {
                if k > 0 {
                    s.push(',');
                }
                let _ = write!(s, "\n{{\"home\":{},\"away\":{}", g.home + 1, g.away + 1);
                match (g.res, Self::result_text(g.res)) {
                    (Res::Bridge { imps, vp }, _) => {
                        let _ = write!(
                            s,
                            ",\"imps\":[{},{}],\"vp\":[{},{}]}}",
                            imps[0],
                            imps[1],
                            cents(vp[0]),
                            cents(vp[1])
                        );
                    }
                    (_, Some(t)) => {
                        let _ = write!(s, ",\"result\":\"{t}\"}}");
                    }
                    (_, None) => s.push('}'),
                }
            }
            s.push_str("],\"byes\":[");
            for (k, b) in round.byes.iter().enumerate() {
                if k > 0 {
                    s.push(',');
                }
                let _ = write!(
                    s,
                    "\n{{\"id\":{},\"type\":\"{}\"",
                    b.who + 1,
                    bye_name(b.kind)
                );
                if self.sport == Sport::Bridge {
                    s.push_str(",\"points\":12,\"vp\":12");
                }
                s.push('}');
            }
            s.push_str("]}");
        }
        s.push_str("]}\n");
        s
    }

    /// The event in the native TOML format (inline tables, one game per line).
    pub fn to_toml(&self) -> String {
        let rounds = self.rounds.len();
        let mut s = String::with_capacity(self.players.len() * (90 + 50 * rounds / 2) + 4096);
        let _ = writeln!(s, "# {} — generated by tbgen\n", self.name);
        let _ = writeln!(s, "[event]");
        let _ = writeln!(s, "name = \"{}\"", self.name);
        let _ = writeln!(s, "sport = \"{}\"", self.sport_name());
        let _ = writeln!(s, "system = \"swiss\"");
        let _ = writeln!(s, "start_date = \"{START}\"");
        if self.sport == Sport::Bridge {
            let _ = writeln!(s, "kind = \"team\"\nprimary = \"vp\"");
            let _ = writeln!(s, "values = {{ boards_per_match = 16 }}");
        }
        let _ = writeln!(s, "rounds = {rounds}");
        for (i, p) in self.players.iter().enumerate() {
            let _ = write!(
                s,
                "\n[[participants]]\nid = {}\nname = \"{}\"\n",
                i + 1,
                p.name
            );
            if let Some(r) = p.rating {
                let _ = writeln!(s, "rating = {r}");
            }
            if let Some(t) = p.title {
                let _ = writeln!(s, "title = \"{}\"", full_title(t));
            }
            if self.sport == Sport::Chess {
                let _ = writeln!(s, "federation = \"{}\"", p.federation);
            }
            if let Some(w) = p.withdrawn_after {
                let _ = writeln!(s, "withdrawn_after = {w}");
            }
            let _ = writeln!(s, "score = {}", self.score_text(i));
        }
        for (r, round) in self.rounds.iter().enumerate() {
            let _ = write!(s, "\n[[rounds]]\nround = {}\ngames = [\n", r + 1);
            for g in &round.games {
                let _ = write!(s, "  {{ home = {}, away = {}", g.home + 1, g.away + 1);
                match (g.res, Self::result_text(g.res)) {
                    (Res::Bridge { imps, vp }, _) => {
                        let _ = write!(
                            s,
                            ", imps = [{}, {}], vp = [{}, {}]",
                            imps[0],
                            imps[1],
                            cents(vp[0]),
                            cents(vp[1])
                        );
                    }
                    (_, Some(t)) => {
                        let _ = write!(s, ", result = \"{t}\"");
                    }
                    (_, None) => {}
                }
                s.push_str(" },\n");
            }
            s.push_str("]\n");
            if !round.byes.is_empty() {
                s.push_str("byes = [\n");
                for b in &round.byes {
                    let _ = write!(
                        s,
                        "  {{ id = {}, type = \"{}\"",
                        b.who + 1,
                        bye_name(b.kind)
                    );
                    if self.sport == Sport::Bridge {
                        s.push_str(", points = 12, vp = 12");
                    }
                    s.push_str(" },\n");
                }
                s.push_str("]\n");
            }
        }
        s
    }
}

fn bye_name(k: ByeKind) -> &'static str {
    match k {
        ByeKind::Pairing => "pairing",
        ByeKind::Half => "half",
        ByeKind::Zero => "zero",
    }
}

fn full_title(t: &str) -> &'static str {
    match t {
        "g" => "GM",
        "m" => "IM",
        _ => "FM",
    }
}

/// A chess Swiss of `players` × `rounds` from `seed`.
pub fn chess_swiss(players: usize, rounds: u32, seed: u64) -> Swiss {
    generate(&Config {
        sport: Sport::Chess,
        players,
        rounds,
        seed,
    })
}

/// A card-game Swiss of `players` × `rounds` from `seed`.
pub fn cards_swiss(players: usize, rounds: u32, seed: u64) -> Swiss {
    generate(&Config {
        sport: Sport::Cards,
        players,
        rounds,
        seed,
    })
}

/// A bridge Swiss teams event of `teams` × `rounds` from `seed`.
pub fn bridge_swiss_teams(teams: usize, rounds: u32, seed: u64) -> Swiss {
    generate(&Config {
        sport: Sport::Bridge,
        players: teams,
        rounds,
        seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_event() {
        assert_eq!(chess_swiss(60, 5, 9), chess_swiss(60, 5, 9));
        assert_ne!(chess_swiss(60, 5, 9), chess_swiss(60, 5, 10));
    }

    #[test]
    fn vp_scale_adds_to_twenty() {
        assert_eq!(vp_winner(0), 1000);
        assert_eq!(vp_winner(60), 2000);
        assert_eq!(vp_winner(500), 2000);
        for m in 0..80 {
            assert!(vp_winner(m) <= vp_winner(m + 1));
        }
    }

    #[test]
    fn expected_is_symmetric() {
        for d in [-900, -400, -35, 0, 35, 400, 900] {
            assert_eq!(expected(d) + expected(-d), 1000);
        }
    }
}
