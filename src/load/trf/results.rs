//! TRF results: every player's entries from the round blocks, both sides of each game checked against each other, and the `240` byes applied.

use super::header::{ByeRec, Points};
use super::players::{Block, ByNum, Raw};
use super::*;
use crate::model::{Entry, Outcome, Side, Status};

/// One player's entries as [`Loader::games`] builds them.
#[derive(Default)]
pub(super) struct Played {
    pub(super) entries: Vec<Entry>,
    /// Games played but unrated (`W D L`).
    pub(super) unrated: i64,
    /// The points over `entries` where the line records a total (`None`
    /// inside: too large to hold).
    pub(super) total: Option<Option<Num>>,
}

impl<'s> Loader<'s> {
    /// Build every player's entries from the round blocks, checking both
    /// sides of each game; one [`Played`] per player, in order. They are
    /// attached to the participants afterwards, in one pass: touching each
    /// participant between the entries being written costs a cache miss.
    pub(super) fn games(
        &mut self,
        raws: &[Raw],
        blocks: &[Block],
        by_num: &ByNum,
        scoring: Scoring,
        pts: &Points,
        rounds: u32,
    ) -> Vec<Played> {
        let plain = plain_games(raws, blocks, by_num, rounds);
        let ctx = Games {
            raws,
            blocks,
            by_num,
            scoring,
            pts,
            plain: &plain,
            rounds,
        };
        // A large event's second half of players is built on another
        // thread, with a loader of its own: used if it had nothing to say,
        // else built again here, so that every diagnostic comes as it
        // would have and in the same order.
        let n = raws.len();
        if !crate::par::pays(n.saturating_mul(rounds as usize), self.threads) {
            return self.games_of(&ctx, 0..n);
        }
        let mid = n / 2;
        let src = self.src;
        let (mut played, rest) = crate::par::join(
            || self.games_of(&ctx, 0..mid),
            || {
                let mut other = Loader::new(src);
                let played = other.games_of(&ctx, mid..n);
                let quiet = other.errors.is_empty()
                    && other.warnings.is_empty()
                    && other.old_half_byes.is_empty();
                quiet.then_some(played)
            },
        );
        let rest = match rest {
            Some(rest) => rest,
            None => self.games_of(&ctx, mid..n),
        };
        played.extend(rest);
        played
    }

    /// The entries of players `range`, with every check of their blocks.
    pub(super) fn games_of(&mut self, ctx: &Games, range: std::ops::Range<usize>) -> Vec<Played> {
        let (blocks, plain, rounds, pts) = (ctx.blocks, ctx.plain, ctx.rounds, ctx.pts);
        let nr = rounds as usize;
        let mut played = Vec::with_capacity(range.len());
        for i in range {
            let Some(a) = ctx.raws.get(i) else {
                break;
            };
            if a.broken {
                played.push(Played::default());
                continue;
            }
            let own = a.blocks(blocks);
            let mut unrated = 0i64;
            let entries: Vec<Entry> = (1..=rounds)
                .map(|r| {
                    let k = r as usize - 1;
                    // The usual case, found by `plain_games`: the same entry
                    // as the checks give, without their look-ups.
                    if let (Some(b), Some(&p)) = (own.get(k), plain.get(i * nr + k)) {
                        // Not a double forfeit: the other side is not `-`.
                        let game = game_status(char::from(b.result), '+');
                        if let (true, Some((status, outcome))) = (p != 0, game) {
                            if matches!(b.result, b'W' | b'D' | b'L') {
                                unrated += 1;
                            }
                            return game_entry(r, p as usize - 1, b, status, outcome, pts);
                        }
                    }
                    self.round_entry(ctx, i, a, own, r, &mut unrated)
                })
                .collect();
            // Summed now, while the entries are in cache.
            let total = a.scored.then(|| total(&entries));
            played.push(Played {
                entries,
                unrated,
                total,
            });
        }
        played
    }

    /// Player `i`'s entry for round `r`, with every check of its block
    /// (`own` are the player's blocks, `a` its line).
    pub(super) fn round_entry(
        &mut self,
        ctx: &Games,
        i: usize,
        a: &Raw,
        own: &[Block],
        r: u32,
        unrated: &mut i64,
    ) -> Entry {
        let Games {
            raws, scoring, pts, ..
        } = *ctx;
        let k = r as usize - 1;
        let absent = || Entry::unplayed(r, Status::Absent, pts.a, &scoring);
        let Some(b) = own.get(k) else {
            return absent();
        };
        if b.opp == 0 {
            return self.unpaired_entry(ctx, a, b, r).unwrap_or_else(absent);
        }
        let Some(j) = self.opponent(ctx, i, a, b, r) else {
            return absent();
        };
        let Some(o) = raws.get(j) else {
            return absent();
        };
        if o.broken {
            return absent();
        }
        let Some(ob) = self.names_back(ctx, a, o, r) else {
            return absent();
        };
        let (result, oresult) = (char::from(b.result), char::from(ob.result));
        let (complementary, colours_ok) = fit(b, ob);
        if !complementary || !colours_ok {
            // Reported once, from the side listed first.
            if i < j {
                self.misfit(ctx, a, o, (b, ob), r, complementary);
            }
            return absent();
        }
        let Some((status, outcome)) = game_status(result, oresult) else {
            // Paired but no result yet.
            if i < j {
                self.paired.push((r, self.warnings.len()));
                self.warnings.push(format!(
                    "round {r}: {} and {} are paired but have no result yet; both are treated as absent",
                    a.num, o.num
                ));
            }
            return absent();
        };
        if matches!(result, 'W' | 'D' | 'L') {
            *unrated += 1;
        }
        game_entry(r, j, b, status, outcome, pts)
    }

    /// Round `r`'s block `b` without an opponent: a bye, a forfeit win, or
    /// absent; None (an error) for a game result.
    fn unpaired_entry(&mut self, ctx: &Games, a: &Raw, b: &Block, r: u32) -> Option<Entry> {
        let src = self.src;
        let k = r as usize - 1;
        let status = match char::from(b.result) {
            ' ' | '-' => Status::Absent,
            'H' => Status::HalfBye,
            // The old notation of a half-point bye (before `H`), still
            // written by some programs: read as one, with a note.
            '=' => {
                self.old_half_byes.push(a.line);
                Status::HalfBye
            }
            'F' => Status::FullBye,
            'U' => Status::PairingBye,
            'Z' => Status::ZeroBye,
            '+' => Status::ForfeitWin,
            c => {
                let sp = a.spans(ctx.blocks, k);
                self.err(
                    Diag::error(
                        MALFORMED,
                        format!(
                            "line {}, column {}: round {r} result `{c}` is a game result but the opponent is 0000",
                            a.line,
                            src.line_col(sp.result.start).1
                        ),
                    )
                    .at(src, sp.result, "a game needs an opponent")
                    .at(src, sp.opp, "no opponent")
                    .with_help("for a bye use H, F, U or Z; for a forfeit win without an opponent use +"),
                );
                return None;
            }
        };
        let points = ctx.pts.of(status, Outcome::Win);
        let mut e = Entry::unplayed(r, status, points, &ctx.scoring);
        if status == Status::ForfeitWin {
            e.outcome = Outcome::Win;
        }
        Some(e)
    }

    /// The player block `b` names in round `r` (its index in the raws);
    /// None, with an error, for a bye with an opponent, an unknown
    /// starting number, or the player itself.
    fn opponent(&mut self, ctx: &Games, i: usize, a: &Raw, b: &Block, r: u32) -> Option<usize> {
        let src = self.src;
        let (k, n, result) = (r as usize - 1, b.opp, char::from(b.result));
        if matches!(result, 'H' | 'F' | 'U' | 'Z') {
            let sp = a.spans(ctx.blocks, k);
            self.err(
                Diag::error(
                    MALFORMED,
                    format!(
                        "line {}: round {r} result `{result}` is a bye, but the opponent is {n}",
                        a.line
                    ),
                )
                .at(src, sp.opp, "a bye has opponent 0000")
                .at(src, sp.result, "bye")
                .with_help(
                    "write 0000 in the opponent columns of a bye, or give the game's result",
                ),
            );
            return None;
        }
        let Some(j) = ctx.by_num.get(n) else {
            self.err(
                Diag::error(
                    UNKNOWN_OPPONENT,
                    format!(
                        "line {}: round {r} names opponent {n}, but no 001 line has starting number {n}",
                        a.line
                    ),
                )
                .at(src, a.spans(ctx.blocks, k).opp, format!("no player {n}"))
                .with_help("the opponent columns hold the starting number (columns 5-8) of another 001 line"),
            );
            return None;
        };
        if j == i {
            self.err(
                Diag::error(
                    INCONSISTENT,
                    format!(
                        "line {}: in round {r} player {n} is paired with itself",
                        a.line
                    ),
                )
                .at(src, a.spans(ctx.blocks, k).opp, "own starting number")
                .with_help("the opponent columns must name another player"),
            );
            return None;
        }
        Some(j)
    }

    /// The opponent `o`'s block in round `r`, when it names player `a`
    /// back; None, with an error, when it does not.
    fn names_back<'b>(&mut self, ctx: &Games<'b>, a: &Raw, o: &Raw, r: u32) -> Option<&'b Block> {
        let (src, blocks, k) = (self.src, ctx.blocks, r as usize - 1);
        let ob = o.blocks(blocks).get(k);
        let back = ob.map(|x| x.opp).filter(|&m| m != 0);
        if back == Some(a.num) {
            return ob;
        }
        let shows = match back {
            Some(m) => format!("opponent {m}"),
            None => "no opponent".to_string(),
        };
        let mut d = Diag::error(
            INCONSISTENT,
            format!(
                "round {r}: line {} pairs {} with {}, but {}'s line {} shows {shows} in that round",
                a.line, a.num, o.num, o.num, o.line
            ),
        )
        .at(
            src,
            a.spans(blocks, k).opp,
            format!("{} plays {}", a.num, o.num),
        );
        d = match ob {
            Some(_) => d.at(
                src,
                o.spans(blocks, k).span,
                format!("{} shows {shows}", o.num),
            ),
            None => {
                let end = o.line_span.end;
                d.at(
                    src,
                    Span::new(end, end),
                    format!("{} has no round {r} block", o.num),
                )
            }
        };
        self.err(d.with_help("both players' lines must name each other in the same round"));
        None
    }

    /// The error for two sides of a game in round `r` that do not fit: the
    /// results (`complementary` false), else the colours.
    fn misfit(
        &mut self,
        ctx: &Games,
        a: &Raw,
        o: &Raw,
        (b, ob): (&Block, &Block),
        r: u32,
        complementary: bool,
    ) {
        let (src, k) = (self.src, r as usize - 1);
        let what = if !complementary {
            format!(
                "results `{}` and `{}` do not fit together",
                char::from(b.result),
                char::from(ob.result)
            )
        } else {
            format!(
                "colours `{}` and `{}` are not one white and one black",
                colour_shown(b.colour),
                colour_shown(ob.colour)
            )
        };
        let (mine, theirs) = (a.spans(ctx.blocks, k), o.spans(ctx.blocks, k));
        let (sa, sb) = if !complementary {
            (mine.result, theirs.result)
        } else {
            (mine.colour, theirs.colour)
        };
        self.err(
            Diag::error(
                INCONSISTENT,
                format!(
                    "round {r}: {} (line {}) against {} (line {}): {what}",
                    a.num, a.line, o.num, o.line
                ),
            )
            .at(src, sa, format!("{}'s side", a.num))
            .at(src, sb, format!("{}'s side", o.num))
            .with_help("a game's two sides must match: 1 against 0, = against =, W against L, D against D, + against -, - against - (double forfeit); colours w against b"),
        );
    }

    /// Apply `240` byes of an individual event to the players' entries.
    /// A bye that changes an entry clears that player's total in `played`.
    pub(super) fn apply_byes(
        &mut self,
        byes: &[ByeRec],
        raws: &[Raw],
        by_num: &ByNum,
        event: &mut Event,
        pts: &Points,
        played: &mut [Played],
    ) {
        let src = self.src;
        let scoring = event.scoring;
        for b in byes {
            let beyond = b.round > event.rounds;
            if beyond {
                self.warnings.push(format!(
                    "record 240 on line {}: round {} is beyond the event's {} rounds; ignored",
                    b.line, b.round, event.rounds
                ));
            }
            for &(id, span) in &b.ids {
                let Some(pid) = by_num.get(id) else {
                    self.err(
                        Diag::error(
                            UNKNOWN_PLAYER,
                            format!(
                                "line {}: record 240 gives a bye to {id}, but no 001 line has starting number {id}",
                                b.line
                            ),
                        )
                        .at(src, span, format!("no player {id}"))
                        .with_help("record 240 lists starting numbers from columns 5-8 of the 001 lines"),
                    );
                    continue;
                };
                if beyond {
                    continue;
                }
                let Some(p) = event.participants.get_mut(pid) else {
                    continue;
                };
                let Some(e) = p.entries.iter_mut().find(|e| e.round == b.round) else {
                    continue;
                };
                if e.status == b.kind {
                    continue;
                }
                if e.status == Status::Absent && e.opponent.is_none() {
                    let points = pts.of(b.kind, Outcome::Loss);
                    *e = Entry::unplayed(b.round, b.kind, points, &scoring);
                    if let Some(g) = played.get_mut(pid) {
                        g.total = None;
                    }
                } else {
                    let num = raws.get(pid).map(|r| r.num).unwrap_or(id);
                    self.warnings.push(format!(
                        "record 240 on line {} gives player {num} a bye `{}` in round {}, but the 001 line shows {}; the 001 line is used",
                        b.line,
                        b.kind_char,
                        b.round,
                        e.status.name()
                    ));
                }
            }
        }
    }
}

pub(super) fn colour_shown(c: u8) -> char {
    if c == b' ' {
        '-'
    } else {
        char::from(c)
    }
}

/// What the checks of each round read, besides the player's own line.
#[derive(Clone, Copy)]
pub(super) struct Games<'a> {
    pub(super) raws: &'a [Raw],
    pub(super) blocks: &'a [Block],
    pub(super) by_num: &'a ByNum,
    pub(super) scoring: Scoring,
    pub(super) pts: &'a Points,
    /// [`plain_games`] of the event.
    pub(super) plain: &'a [u32],
    pub(super) rounds: u32,
}

/// Whether two sides of a pairing fit: (results complementary, colours one
/// white and one black where the game was played).
pub(super) fn fit(b: &Block, ob: &Block) -> (bool, bool) {
    let (result, oresult) = (char::from(b.result), char::from(ob.result));
    let complementary = matches!(
        (result, oresult),
        ('1', '0')
            | ('0', '1')
            | ('=', '=')
            | ('W', 'L')
            | ('L', 'W')
            | ('D', 'D')
            | ('+', '-')
            | ('-', '+')
            | ('-', '-')
            | (' ', ' ')
    );
    let played = matches!(result, '1' | '0' | '=' | 'W' | 'D' | 'L');
    let colours_ok = match (b.colour, ob.colour) {
        (b'w', b'b') | (b'b', b'w') | (b' ', b' ') => true,
        (b'w', b'w') | (b'b', b'b') => false,
        _ => !played,
    };
    (complementary, colours_ok)
}

/// What a game whose sides fit is, from the side with `result`; `None` when
/// the pairing has no result yet.
pub(super) fn game_status(result: char, oresult: char) -> Option<(Status, Outcome)> {
    Some(match result {
        '1' => (Status::Played, Outcome::Win),
        '=' => (Status::Played, Outcome::Draw),
        '0' => (Status::Played, Outcome::Loss),
        'W' => (Status::Played, Outcome::Win),
        'D' => (Status::Played, Outcome::Draw),
        'L' => (Status::Played, Outcome::Loss),
        '+' => (Status::ForfeitWin, Outcome::Win),
        '-' if oresult == '-' => (Status::DoubleForfeit, Outcome::Loss),
        '-' => (Status::ForfeitLoss, Outcome::Loss),
        _ => return None,
    })
}

/// The entry of a game against player `j`, from this side's block `b`.
pub(super) fn game_entry(
    r: u32,
    j: usize,
    b: &Block,
    status: Status,
    outcome: Outcome,
    pts: &Points,
) -> Entry {
    let side = match b.colour {
        b'w' => Some(Side::First),
        b'b' => Some(Side::Second),
        _ => None,
    };
    Entry {
        round: r,
        session: 1,
        stage: crate::model::Stage::Unstated,
        opponent: Some(j),
        partner: None,
        status,
        outcome,
        points: pts.of(status, outcome),
        side,
        weight: Num::ONE,
        extra: None,
    }
}

/// The ordinary games of every player, at `i * rounds + k` for player `i`
/// and block `k`: the opponent's index + 1 where both lines name each
/// other, the results and colours fit and there is a result, so the checks
/// of [`Loader::round_entry`] pass without a word; 0 for a round that
/// needs them. A double forfeit is left to them too, so that this side's
/// result alone tells what the game is.
///
/// Looked up round by round in a round-major copy of the blocks, the
/// opponents' blocks stay in cache; in pairing order over the whole file,
/// with entries being written in between, nearly every look-up missed it.
pub(super) fn plain_games(raws: &[Raw], blocks: &[Block], by_num: &ByNum, rounds: u32) -> Vec<u32> {
    let n = raws.len();
    let nr = rounds as usize;
    // Round `k` of player `i` at `k * n + i`; result 0 where there is no
    // block or the line could not be read.
    let none = Block {
        opp: 0,
        colour: 0,
        result: 0,
        opp_len: 0,
    };
    let mut grid = vec![none; n * nr];
    for (i, a) in raws.iter().enumerate().filter(|(_, a)| !a.broken) {
        for (k, b) in a.blocks(blocks).iter().take(nr).enumerate() {
            if let Some(g) = grid.get_mut(k * n + i) {
                *g = *b;
            }
        }
    }
    // Read for every round: apart from the players' lines, in little room.
    let nums: Vec<u32> = raws.iter().map(|a| a.num).collect();
    let mut plain = vec![0u32; n * nr];
    for (k, row) in grid.chunks_exact(n.max(1)).enumerate() {
        for (i, (b, &num)) in row.iter().zip(&nums).enumerate() {
            if b.result == 0 || b.opp == 0 || matches!(b.result, b'H' | b'F' | b'U' | b'Z') {
                continue;
            }
            let Some(j) = by_num.get(b.opp).filter(|&j| j != i) else {
                continue;
            };
            let Some(ob) = row.get(j).filter(|ob| ob.result != 0) else {
                continue;
            };
            if ob.opp != num || fit(b, ob) != (true, true) {
                continue;
            }
            let (result, oresult) = (char::from(b.result), char::from(ob.result));
            if game_status(result, oresult).is_none() || (result, oresult) == ('-', '-') {
                continue;
            }
            if let (Some(p), Ok(opp)) = (plain.get_mut(i * nr + k), u32::try_from(j + 1)) {
                *p = opp;
            }
        }
    }
    plain
}

/// A player's points over `entries`, in order; `None` if the sum does not fit.
pub(super) fn total(entries: &[Entry]) -> Option<Num> {
    // Points in whole and half points (every shipped scoring) are added up
    // in halves, without reducing a fraction at each step. With numerators
    // below 2^40 and fewer than 2^20 entries no partial sum (in halves,
    // below 2^61) can overflow, here or adding 64-bit `Num`s, so both give
    // the same exact sum.
    if entries.len() < 1 << 20 {
        let mut halves: i128 = 0;
        let small = entries.iter().all(|e| {
            let (n, d) = (e.points.numer(), e.points.denom());
            let fits = n.unsigned_abs() < 1 << 40 && (d == 1 || d == 2);
            if fits {
                halves += if d == 1 { 2 * n } else { n };
            }
            fits
        });
        if small {
            return Num::ratio(halves, 2).ok();
        }
    }
    let mut sum = Num::ZERO;
    for e in entries {
        sum = sum.add(e.points).ok()?;
    }
    Some(sum)
}
