//! TRF header records: the points per result (`162`), byes (`240`), and the system the type records (`092`, `192`) say.

use super::lines::{tokens, Line};
use super::*;
use crate::model::{Outcome, Status, System};

/// Points per kind of result (TRF-26 record 162).
#[derive(Clone, Copy)]
pub(super) struct Points {
    pub(super) w: Num,
    pub(super) d: Num,
    pub(super) l: Num,
    pub(super) a: Num,
    pub(super) p: Num,
}

impl Points {
    pub(super) fn of(&self, status: Status, outcome: Outcome) -> Num {
        match status {
            Status::Played => match outcome {
                Outcome::Win => self.w,
                Outcome::Draw => self.d,
                Outcome::Loss => self.l,
            },
            Status::ForfeitWin | Status::FullBye => self.w,
            Status::PairingBye => self.p,
            Status::HalfBye => self.d,
            Status::ForfeitLoss | Status::DoubleForfeit | Status::ZeroBye | Status::Absent => {
                self.a
            }
        }
    }
}

/// A `240` bye record.
pub(super) struct ByeRec {
    pub(super) line: usize,
    pub(super) kind: Status,
    pub(super) kind_char: char,
    pub(super) round: u32,
    pub(super) ids: Vec<(u32, Span)>,
}

impl<'s> Loader<'s> {
    /// TRF-26 record 162: result codes each followed by their points.
    pub(super) fn scoring(
        &mut self,
        l: &Line,
        body: &str,
        pts: &mut Points,
        p_given: &mut bool,
        explicit: &mut Vec<(&'static str, Num)>,
    ) {
        let toks = tokens(body, &[]);
        let mut i = 0;
        let mut unread: Vec<String> = Vec::new();
        while i < toks.len() {
            let t = &toks[i].1;
            let mut chars = t.chars();
            let code = chars.next().map(|c| c.to_ascii_uppercase());
            let glued = chars.as_str();
            let (value, used) = if glued.is_empty() {
                (toks.get(i + 1).and_then(|n| Num::parse(&n.1)), 2)
            } else {
                (Num::parse(glued), 1)
            };
            match (code, value) {
                (Some(c), Some(v)) if "WDLAPX".contains(c) => {
                    match c {
                        'W' => pts.w = v,
                        'D' => pts.d = v,
                        'L' => pts.l = v,
                        'A' => {
                            pts.a = v;
                            explicit.push(("points_absent", v));
                        }
                        'P' => {
                            pts.p = v;
                            *p_given = true;
                            explicit.push(("points_pab", v));
                        }
                        _ => explicit.push(("points_unknown", v)),
                    }
                    i += used;
                }
                _ => {
                    unread.push(t.clone());
                    i += 1;
                }
            }
        }
        if !unread.is_empty() {
            self.warnings.push(format!(
                "record 162 on line {}: could not read {}; expected result codes W D L A P X each followed by points (e.g. `162 W 1.0    D 0.5    L 0.0`)",
                l.no,
                unread
                    .iter()
                    .map(|u| format!("`{u}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }

    /// TRF-26 record 240: `240 T RRR PPPP PPPP ...`.
    pub(super) fn bye_record(&mut self, l: &Line, coff: usize, body: &str) -> Option<ByeRec> {
        let src = self.src;
        let toks = tokens(body, &[]);
        let sp = |o: usize, t: &str| Span::new(l.base + coff + o, l.base + coff + o + t.len());
        let whole = Span::new(l.base, l.base + l.text.len());
        let (kind, kind_char) = match toks.first() {
            Some((o, t)) => match t.to_ascii_uppercase().as_str() {
                "F" => (Status::FullBye, 'F'),
                "H" => (Status::HalfBye, 'H'),
                "Z" => (Status::ZeroBye, 'Z'),
                _ => {
                    self.err(
                        Diag::error(
                            MALFORMED,
                            format!(
                                "line {}, record 240: expected the type of bye F, H or Z, found `{t}`",
                                l.no
                            ),
                        )
                        .at(src, sp(*o, t), "expected F, H or Z")
                        .with_help("record 240 is `240 T RRR PPPP PPPP ...`: bye type, round, ids"),
                    );
                    return None;
                }
            },
            None => return None,
        };
        let round = match toks.get(1) {
            Some((o, t)) => match parse_u32(t) {
                Some(r) if r > 0 => r,
                _ => {
                    self.err(
                        Diag::error(
                            MALFORMED,
                            format!(
                                "line {}, record 240: expected a round number, found `{t}`",
                                l.no
                            ),
                        )
                        .at(src, sp(*o, t), "expected a round number")
                        .with_help("record 240 is `240 T RRR PPPP PPPP ...`: bye type, round, ids"),
                    );
                    return None;
                }
            },
            None => {
                self.err(
                    Diag::error(
                        MALFORMED,
                        format!("line {}, record 240: the round number is missing", l.no),
                    )
                    .at(src, whole, "expected a round number")
                    .with_help("record 240 is `240 T RRR PPPP PPPP ...`: bye type, round, ids"),
                );
                return None;
            }
        };
        let mut ids = Vec::new();
        for (o, t) in toks.iter().skip(2) {
            match parse_u32(t) {
                Some(n) if n > 0 => ids.push((n, sp(*o, t))),
                _ => {
                    self.err(
                        Diag::error(
                            MALFORMED,
                            format!(
                                "line {}, record 240: expected a starting number, found `{t}`",
                                l.no
                            ),
                        )
                        .at(src, sp(*o, t), "expected a starting number")
                        .with_help("record 240 is `240 T RRR PPPP PPPP ...`: bye type, round, ids"),
                    );
                    return None;
                }
            }
        }
        Some(ByeRec {
            line: l.no,
            kind,
            kind_char,
            round,
            ids,
        })
    }
}

/// Round robin if the TRF-26 code (192) or the type text (092) says so.
pub(super) fn detect_system(code: Option<&str>, text: Option<&str>) -> System {
    let rr_words = |s: &str| {
        let u = s.to_ascii_uppercase();
        u.contains("ROUNDROBIN")
            || u.contains("ROUND_ROBIN")
            || u.contains("ROUND-ROBIN")
            || u.contains("ROUND ROBIN")
    };
    if let Some(c) = code.filter(|c| !c.is_empty()) {
        return if rr_words(c) {
            System::RoundRobin
        } else {
            System::Swiss
        };
    }
    match text {
        Some(t) if rr_words(t) => System::RoundRobin,
        _ => System::Swiss,
    }
}
