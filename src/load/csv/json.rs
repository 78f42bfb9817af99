//! A match list's event read in one pass, without the value tree: its header written as native JSON, its players, games and byes handed over (`native::Matches`).
//!
//! The tree (`load_csv`'s fallback, `tree`) is the reference: the head
//! written here holds the keys and values the tree's `event` holds, in the
//! same order; the players are its `participants` (`id`, `withdrawn_after`;
//! the names are all different, as `Rows` finds players by name), and the
//! games and byes those of its rounds (`home`, `away`, `result`; `id`,
//! `type: pairing`), in the same order. The one-pass reader gives up on anything it would
//! report, and `load_csv` then builds the tree.

use super::{GameRow, Player, Round};
use crate::diag::Source;
use crate::load::native::{Key, Matches, Node, V};
use crate::model::Event;

/// The event read in one pass from `players` and `rounds` (in round
/// order), or `None` for the tree path.
pub(super) fn event(
    src: &Source,
    event_items: &[(Key, Node)],
    players: &[Player],
    games: &[GameRow],
    rounds: &[Round],
    threads: usize,
) -> Option<Event> {
    let mut out = String::with_capacity(256);
    out.push_str("{\"event\":{");
    for (i, (k, n)) in event_items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        string(&mut out, &k.name);
        out.push(':');
        match &n.v {
            V::Str(s) => string(&mut out, s),
            V::Int(x) => out.push_str(&x.to_string()),
            _ => return None,
        }
    }
    out.push_str("}}");
    let participants = players.iter().map(|p| (&*p.name, p.dropped.map(|d| d.0)));
    let mut m = Matches::new(&out, participants)?;
    for r in rounds {
        // A game's place is the start of its row: the line of the units a
        // card result gives.
        let games = r.games.iter().map(|&g| &games[g]);
        let games = games.map(|g| (g.home, g.away, &*g.result, g.row.start));
        m.round(r.number, games, r.byes.iter().map(|b| b.who))?;
    }
    // `src.line_col(at).0`, without the index of every line it makes.
    let text = src.text.as_bytes();
    let line_of =
        |at: usize| Some(memchr::memchr_iter(b'\n', &text[..at.min(text.len())]).count() + 1);
    m.finish(threads, &line_of)
}

/// `s` as a JSON string.
fn string(out: &mut String, s: &str) {
    if s.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
        out.push_str(&serde_json::to_string(s).unwrap_or_default());
    } else {
        out.push('"');
        out.push_str(s);
        out.push('"');
    }
}
