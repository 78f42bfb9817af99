//! The rows of a match list, one at a time: the players (by name key), the rounds (by number) and each round's games and byes, with where each is written.
//!
//! Each row is read as it comes (`Rows::row`), from the one-pass splitter
//! (`plain`) or the `csv` crate alike; nothing is kept of a row but its
//! game or bye. The event is then made from the players and rounds
//! (`tree`, the reference, or `json`).

use super::{err, Cell, HashMap, HashSet};
use crate::codes;
use crate::diag::{Diag, Source, Span};
use std::borrow::Cow;

/// A round of the list: its number, where it is first written, its games
/// (indexes in `Rows::games`) and byes in the order of their rows.
pub(super) struct Round {
    pub(super) number: i64,
    pub(super) span: Span,
    pub(super) games: Vec<usize>,
    pub(super) byes: Vec<ByeRow>,
}

/// A game's row: the players (indexes in the players), the result (as the
/// native format writes it) and where each is written.
pub(super) struct GameRow<'a> {
    pub(super) home: usize,
    pub(super) home_span: Span,
    pub(super) away: usize,
    pub(super) away_span: Span,
    pub(super) result: Cow<'a, str>,
    pub(super) result_span: Span,
    pub(super) row: Span,
}

/// A bye's row: the player and where it is written.
pub(super) struct ByeRow {
    pub(super) who: usize,
    pub(super) id_span: Span,
    pub(super) row: Span,
}

/// A player named in the list.
pub(super) struct Player {
    /// The first spelling: id and display name.
    pub(super) name: String,
    /// [`name_key`] of it.
    pub(super) key: String,
    /// Where it is first written.
    pub(super) span: Span,
    /// `drop` row: the round after which the player dropped, and where.
    pub(super) dropped: Option<(i64, Span)>,
    /// In how many rounds the player has a game or bye (once all rows are
    /// read: `Rows::done`).
    pub(super) rounds: usize,
    /// The first of them.
    pub(super) first_round: i64,
}

/// The rounds a player has a game or bye in, as rows are read: kept apart
/// from `Player`, small, as each row looks its players' up.
#[derive(Clone, Copy, Default)]
struct Seen {
    /// In how many rounds.
    rounds: usize,
    /// The first of them.
    first_round: i64,
    /// Of those rounds, rounds 1 to 64: bit `r - 1` for round `r` (the
    /// others are in `Rows::seen_far`).
    in_rounds: u64,
}

/// The key that identifies a player: case and spacing do not count
/// (`" Alice  Smith"` and `"alice smith"` are one player).
fn name_key(name: &str) -> String {
    let mut key = String::with_capacity(name.len());
    for word in name.split_whitespace() {
        if !key.is_empty() {
            key.push(' ');
        }
        key.push_str(word);
    }
    // Most names are ASCII, lowered in place; `to_lowercase` knows the
    // rest (a final sigma lowers differently from one inside a word).
    if key.is_ascii() {
        key.make_ascii_lowercase();
        key
    } else {
        key.to_lowercase()
    }
}

/// Where each column read is in a row (the header's order).
#[derive(Clone, Copy)]
pub(super) struct Columns {
    pub(super) round: usize,
    pub(super) home: usize,
    pub(super) away: Option<usize>,
    pub(super) result: Option<usize>,
    pub(super) home_wins: Option<usize>,
    pub(super) away_wins: Option<usize>,
    pub(super) draws: Option<usize>,
}

/// The players and rounds of the rows read so far.
pub(super) struct Rows<'s> {
    src: &'s Source,
    cols: Columns,
    pub(super) players: Vec<Player>,
    /// The rounds in the order they are first written.
    pub(super) rounds: Vec<Round>,
    /// The games of all rounds, in the order of their rows.
    pub(super) games: Vec<GameRow<'s>>,
    /// By player.
    seen: Vec<Seen>,
    /// (player, round) for each game or bye in a round not in 1 to 64
    /// (see `Seen::in_rounds`).
    seen_far: HashSet<(usize, i64)>,
    /// Game rows with one games-won cell empty: counted, the first named.
    pub(super) empty_counts: usize,
    pub(super) first_empty: Option<String>,
    /// Players by name key, rounds by number: one look-up per cell.
    by_key: HashMap<String, usize>,
    round_ix: HashMap<i64, usize>,
    /// The players by the text of a cell naming them: most rows spell a
    /// name as the rows before did, and this spares making its key. Short
    /// texts are held in the map itself: a look-up then reads one place in
    /// memory, not also the file where the text was first seen (at 40,000
    /// players, those reads cost more than the rest of the row).
    by_short: HashMap<Short, u32>,
    by_text: HashMap<&'s str, usize>,
}

/// A text of at most 23 bytes, held inline: the bytes, zero-padded, and
/// the length.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Short([u8; 23], u8);

impl Short {
    fn of(t: &str) -> Option<Short> {
        let mut b = [0; 23];
        b.get_mut(..t.len())?.copy_from_slice(t.as_bytes());
        Some(Short(b, t.len() as u8))
    }
}

impl<'s> Rows<'s> {
    /// Before the first row of about `rows` rows: the maps are sized for
    /// them (growing them row by row costs more than filling).
    pub(super) fn new(src: &'s Source, cols: Columns, rows: usize) -> Self {
        Rows {
            src,
            cols,
            // Each player is in at least one row, most in several.
            players: Vec::with_capacity(rows / 2),
            rounds: Vec::new(),
            games: Vec::with_capacity(rows),
            seen: Vec::with_capacity(rows / 2),
            seen_far: HashSet::default(),
            empty_counts: 0,
            first_empty: None,
            by_key: HashMap::with_capacity_and_hasher(rows / 2, Default::default()),
            round_ix: HashMap::default(),
            by_short: HashMap::with_capacity_and_hasher(rows / 2, Default::default()),
            by_text: HashMap::default(),
        }
    }

    /// The player a cell names, added if new.
    fn player(&mut self, cell: &Cell<'s>) -> usize {
        let short = Short::of(&cell.text);
        if let Some(short) = &short {
            if let Some(&p) = self.by_short.get(short) {
                return p as usize;
            }
        } else if let Cow::Borrowed(t) = cell.text {
            if let Some(&p) = self.by_text.get(t) {
                return p;
            }
        }
        let k = name_key(&cell.text);
        let (players, seen) = (&mut self.players, &mut self.seen);
        let p = *self.by_key.entry(k).or_insert_with_key(|k| {
            players.push(Player {
                name: cell.text.to_string(),
                key: k.clone(),
                span: cell.span,
                dropped: None,
                rounds: 0,
                first_round: 0,
            });
            seen.push(Seen::default());
            players.len() - 1
        });
        // Players stay below the input's size in bytes (a u32).
        match (short, &cell.text) {
            (Some(short), _) => {
                self.by_short.insert(short, p as u32);
            }
            (None, Cow::Borrowed(t)) => {
                self.by_text.insert(t, p);
            }
            (None, Cow::Owned(_)) => {}
        }
        p
    }

    /// Player `p` has a game or bye in `round`.
    fn appear(&mut self, p: usize, round: i64) {
        let pl = &mut self.seen[p];
        let new = match round_bit(round) {
            Some(bit) => {
                let new = pl.in_rounds & bit == 0;
                pl.in_rounds |= bit;
                new
            }
            None => self.seen_far.insert((p, round)),
        };
        if new {
            if pl.rounds == 0 {
                pl.first_round = round;
            }
            pl.rounds += 1;
        }
    }

    /// After the last row: each player's rounds.
    pub(super) fn done(&mut self) {
        for (p, s) in self.players.iter_mut().zip(&self.seen) {
            (p.rounds, p.first_round) = (s.rounds, s.first_round);
        }
    }

    /// Whether player `p` has a game or bye in `round`.
    pub(super) fn plays_in(&self, p: usize, round: i64) -> bool {
        match round_bit(round) {
            Some(bit) => self.seen[p].in_rounds & bit != 0,
            None => self.seen_far.contains(&(p, round)),
        }
    }

    /// The result of a game row written as games won (`home_wins`,
    /// `away_wins`, `draws`), as the native format writes it, and where
    /// it is; empty cells counted for the warning.
    fn result_from_counts(
        &mut self,
        cs: &[Cell<'s>],
        round: i64,
        row_span: Span,
        home_cell: &Cell<'s>,
        away: &Cell<'s>,
    ) -> Result<(Cow<'s, str>, Span), Diag> {
        let (src, c) = (self.src, self.cols);
        let get = |i: Option<usize>| i.and_then(|i| cs.get(i));
        // A game with neither games-won cell filled has no result
        // yet (a round exported before its results were entered):
        // read as 0-0 it would be a drawn match for both.
        let blank = |c: Option<&Cell>| c.is_none_or(|c| c.text.is_empty());
        if blank(get(c.home_wins)) && blank(get(c.away_wins)) {
            return Err(Diag::error(
                codes::LOAD_CSV_NO_RESULT,
                format!(
                    "round {round}: {} v {} has no result: both games-won cells are empty",
                    home_cell.text, away.text
                ),
            )
            .at(src, row_span, "no result")
            .with_help(
                "enter the games won (0 where a player won none), or leave the row out until the game is played",
            ));
        }
        // One empty cell beside a filled one: most likely a 0 left
        // blank (`2,,0` for 2-0), but perhaps a result half typed.
        for (c, col) in [(get(c.home_wins), "home"), (get(c.away_wins), "away")] {
            if c.is_some_and(|c| c.text.is_empty()) {
                self.empty_counts += 1;
                if self.first_empty.is_none() {
                    let (line, _) = src.line_col(row_span.start);
                    self.first_empty = Some(format!(
                        "line {line}, round {round}: {} v {}, the {col} player's games won",
                        home_cell.text, away.text
                    ));
                }
            }
        }
        let num = |c: Option<&Cell>, what: &str| -> Result<(String, Span), Diag> {
            match c {
                Some(c) if c.text.is_empty() => Ok(("0".into(), c.span)),
                Some(c) => c
                    .text
                    .parse::<u32>()
                    .map(|n| (n.to_string(), c.span))
                    .map_err(|_| {
                        err(
                            src,
                            c.span,
                            format!("`{}` is not a number of {what}", crate::text::clip(&c.text)),
                            "write a whole number",
                        )
                    }),
                None => Ok(("0".into(), row_span)),
            }
        };
        let (hw, s1) = num(get(c.home_wins), "games won")?;
        let (aw, _) = num(get(c.away_wins), "games won")?;
        let (dr, s3) = num(get(c.draws), "drawn games")?;
        Ok((Cow::Owned(format!("{hw}-{aw}-{dr}")), s1.join(s3)))
    }

    /// Read one row (its cells): a game, a bye or a drop.
    pub(super) fn row(&mut self, cs: &[Cell<'s>]) -> Result<(), Diag> {
        let (src, c) = (self.src, self.cols);
        let row_span = cs
            .first()
            .map(|c| c.span)
            .unwrap_or_default()
            .join(cs.last().map(|c| c.span).unwrap_or_default());
        let get = |i: Option<usize>| i.and_then(|i| cs.get(i));
        let round_cell = get(Some(c.round))
            .filter(|c| !c.text.is_empty())
            .ok_or_else(|| {
                err(
                    src,
                    row_span,
                    "this row has no `round` cell",
                    "every row needs a round number",
                )
            })?;
        let round: i64 = round_cell.text.parse().map_err(|_| {
            err(
                src,
                round_cell.span,
                format!(
                    "`{}` is not a round number",
                    crate::text::clip(&round_cell.text)
                ),
                "write a whole number such as 3",
            )
        })?;
        let home_cell = get(Some(c.home))
            .filter(|c| !c.text.is_empty())
            .ok_or_else(|| {
                err(
                    src,
                    row_span,
                    "this row names no home player",
                    "fill in the `home` column",
                )
            })?;
        let home = self.player(home_cell);
        let away_cell = get(c.away).filter(|c| !c.text.is_empty());
        let result = get(c.result).filter(|c| !c.text.is_empty());
        let is = |c: Option<&Cell>, w: &str| c.is_some_and(|c| c.text.eq_ignore_ascii_case(w));
        // `drop`: the home player dropped after this round. The row is a
        // marker, not a game: the player's game this round is its own row.
        if is(away_cell, "drop") || is(result, "drop") {
            let marker = if is(away_cell, "drop") {
                away_cell
            } else {
                result
            };
            let marker_span = marker.map_or(row_span, |c| c.span);
            if let Some(a) = away_cell.filter(|_| !is(away_cell, "drop")) {
                return Err(err(
                    src,
                    a.span,
                    "a `drop` row names an opponent",
                    "a drop is a row of its own: `round,player,drop`; record the game in another row",
                ));
            }
            if round < 1 {
                return Err(err(
                    src,
                    round_cell.span,
                    "a drop after round 0",
                    "a player who never played is simply left out of the list",
                ));
            }
            let p = &mut self.players[home];
            if let Some((r0, s0)) = p.dropped {
                let (line, _) = src.line_col(s0.start);
                return Err(Diag::error(
                    codes::LOAD_CSV_DROPPED_TWICE,
                    format!(
                        "`{}` is recorded as dropping twice (after rounds {r0} and {round})",
                        p.name
                    ),
                )
                .at(src, marker_span, "second drop")
                .with_help(format!(
                    "keep one `drop` row for each player (the other is on line {line})"
                )));
            }
            p.dropped = Some((round, marker_span));
            return Ok(());
        }
        self.appear(home, round);
        let idx = *self.round_ix.entry(round).or_insert_with(|| {
            self.rounds.push(Round {
                number: round,
                span: round_cell.span,
                games: Vec::new(),
                byes: Vec::new(),
            });
            self.rounds.len() - 1
        });
        let away = away_cell.filter(|c| !c.text.eq_ignore_ascii_case("bye"));
        if away.is_none() || is(result, "bye") {
            self.rounds[idx].byes.push(ByeRow {
                who: home,
                id_span: home_cell.span,
                row: row_span,
            });
            return Ok(());
        }
        let away = away.ok_or_else(|| err(src, row_span, "no opponent", "fill in `away`"))?;
        let away_p = self.player(away);
        self.appear(away_p, round);
        let (res_text, res_span) = match result {
            Some(r) => (r.text.clone(), r.span),
            None => self.result_from_counts(cs, round, row_span, home_cell, away)?,
        };
        self.rounds[idx].games.push(self.games.len());
        self.games.push(GameRow {
            home,
            home_span: home_cell.span,
            away: away_p,
            away_span: away.span,
            result: res_text,
            result_span: res_span,
            row: row_span,
        });
        Ok(())
    }
}

/// Round `r`'s bit in `Player::in_rounds`, for rounds 1 to 64.
fn round_bit(r: i64) -> Option<u64> {
    (1..=64).contains(&r).then(|| 1 << (r - 1))
}
