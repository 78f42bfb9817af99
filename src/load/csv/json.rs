//! A match list's event read in one pass, without the value tree: its header and players written as native JSON, its games and byes handed over by player index (`native::Matches`).
//!
//! The tree (`load_csv`'s fallback, `tree`) is the reference: the head
//! written here holds the keys and values the tree's `event` and
//! `participants` hold, in the same order, and the games and byes are
//! those of its rounds (`home`, `away`, `result`; `id`, `type: pairing`),
//! in the same order. The one-pass reader gives up on anything it would
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
    let names_len: usize = players.iter().map(|p| p.name.len()).sum();
    let mut out = String::with_capacity(names_len + 40 * players.len() + 256);
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
    out.push_str("},\"participants\":[");
    for (i, p) in players.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"id\":");
        string(&mut out, &p.name);
        if let Some((r, _)) = p.dropped {
            out.push_str(",\"withdrawn_after\":");
            out.push_str(&r.to_string());
        }
        out.push('}');
    }
    out.push_str("]}");
    let mut m = Matches::new(&out)?;
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
