//! USEBIO handicapped pairs: which score the file places its pairs by (the raw percentage, or the percentage less half the pair's `HANDICAP`), checked against the file's own places.
//!
//! A handicapped pairs file (the clubs' scoring programs write them) gives
//! each pair its raw `TOTAL_SCORE`/`PERCENTAGE` and its `HANDICAP`, and
//! places the pairs by the handicapped result, which it does not write.
//! The pair's handicap is the mean of its two players' (the file's
//! `HANDICAP` is their sum), so the handicapped score is the percentage
//! less half the `HANDICAP`. That is a reading of the file, so it is
//! checked: tb ranks by the score the file's places follow, and says which
//! in a note.

use super::participants::{Dir, PRec};
use crate::num::Num;

/// Which score the pairs are ranked by, set in each record's `total`, and
/// the note that says so (None: no pair has a handicap).
pub(super) fn choose_score(recs: &mut [PRec], two_fields: bool) -> Option<String> {
    let raw = |r: &PRec| {
        r.values
            .get("percentage")
            .or(r.values.get("total_score"))
            .copied()
    };
    if !recs.iter().any(|r| r.values.contains_key("handicap")) {
        return None;
    }
    let handicapped: Vec<Option<Num>> = recs
        .iter()
        .map(|r| {
            let h = r.values.get("handicap").copied().unwrap_or(Num::ZERO);
            raw(r)?.sub(h.div(Num::int(2)).ok()?).ok()
        })
        .collect();
    let raws: Vec<Option<Num>> = recs.iter().map(raw).collect();
    let follows_handicapped = places_follow(recs, &handicapped, two_fields);
    let follows_raw = places_follow(recs, &raws, two_fields);
    let use_handicapped = follows_handicapped || !follows_raw;
    let note = if use_handicapped {
        for (r, h) in recs.iter_mut().zip(&handicapped) {
            if let Some(h) = h {
                r.values.insert("handicapped_score".into(), *h);
                r.total = Some(*h);
            }
        }
        let why = if follows_handicapped {
            "the file's places follow it"
        } else {
            "the file's places follow neither it nor the raw score; check the file"
        };
        format!(
            "a handicapped pairs event: ranked by the handicapped score, the percentage less half the pair's HANDICAP (value `handicapped_score`; {why}); the raw score is the value `percentage`"
        )
    } else {
        "a handicapped pairs event whose places follow the raw score: ranked by the raw score (`percentage`), the handicap (`handicap`) not applied".to_string()
    };
    Some(note)
}

/// Whether the recorded places agree with `scores` (a better place never
/// has a lower score), within each field of a two-winner movement.
fn places_follow(recs: &[PRec], scores: &[Option<Num>], two_fields: bool) -> bool {
    let field = |r: &PRec| two_fields && r.direction == Some(Dir::Ew);
    let placed: Vec<(bool, u32, Num)> = recs
        .iter()
        .zip(scores)
        .filter_map(|(r, s)| Some((field(r), r.place?, (*s)?)))
        .collect();
    placed.iter().all(|a| {
        placed
            .iter()
            .all(|b| a.0 != b.0 || a.1 >= b.1 || a.2 >= b.2)
    })
}
