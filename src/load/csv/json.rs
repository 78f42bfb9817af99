//! A match list's players and rounds as native JSON text, for the one-pass reader: the same event the value tree `load_csv` builds, read without the tree.
//!
//! The tree (`load_csv`'s fallback) is the reference: every key and value
//! written here is one it puts in its tree, in the same order. The
//! one-pass reader gives up on anything it would report, and `load_csv`
//! then builds the tree.

use super::{Player, Round};
use crate::diag::Source;
use crate::load::native::{Node, V};
use crate::model::Event;

/// The event read in one pass from `players` and `rounds` (in round
/// order), or `None` for the tree path.
pub(super) fn event(
    src: &Source,
    event_items: &[(crate::load::native::Key, Node)],
    players: &[Player],
    rounds: &[Round],
    threads: usize,
) -> Option<Event> {
    let games: usize = rounds.iter().map(|r| r.games.len() + r.byes.len()).sum();
    let names_len: usize = players.iter().map(|p| p.name.len()).sum();
    let mut out = String::with_capacity(names_len * 2 + 100 * games + 64 * players.len() + 256);
    // Each game's place in `out` and the start of its row in the file: the
    // line of the units a card result gives.
    let mut games_at: Vec<(usize, usize)> = Vec::new();
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
    // Each name as a JSON string, made once: it is written in every game.
    let names: Vec<String> = players
        .iter()
        .map(|p| {
            let mut s = String::with_capacity(p.name.len() + 2);
            string(&mut s, &p.name);
            s
        })
        .collect();
    out.push_str("},\"participants\":[");
    for (i, (p, name)) in players.iter().zip(&names).enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"id\":");
        out.push_str(name);
        if let Some((r, _)) = p.dropped {
            out.push_str(",\"withdrawn_after\":");
            out.push_str(&r.to_string());
        }
        out.push('}');
    }
    out.push_str("],\"rounds\":[");
    for (i, r) in rounds.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"round\":");
        out.push_str(&r.number.to_string());
        out.push_str(",\"games\":[");
        for (j, g) in r.games.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            games_at.push((out.len(), g.row.start));
            out.push_str("{\"home\":");
            out.push_str(&names[g.home]);
            out.push_str(",\"away\":");
            out.push_str(&names[g.away]);
            out.push_str(",\"result\":");
            string(&mut out, &g.result);
            out.push('}');
        }
        out.push_str("],\"byes\":[");
        for (j, b) in r.byes.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            out.push_str("{\"id\":");
            out.push_str(&names[b.who]);
            out.push_str(",\"type\":\"pairing\"}");
        }
        out.push_str("]}");
    }
    out.push_str("]}");
    let line_of = |at: usize| {
        let i = games_at.binary_search_by_key(&at, |g| g.0).ok()?;
        Some(src.line_col(games_at[i].1).0)
    };
    crate::load::native::load_text_noting_lines(&out, threads, &line_of)
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
