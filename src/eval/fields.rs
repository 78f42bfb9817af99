//! Built-in fields: `r.points`, `r.opponent`, `p.rating`, `b.score`, `event.rounds`, ... and the data values read by name (`r.imps`, `me.carryover`).
//!
//! The one definition of every field, for both evaluators (the columnar
//! path reads entries with [`entry_num`] and [`entry_flag_of`]).

use crate::codes;
use crate::eval::{EvalError, Evaluator, Value, R};
use crate::model::{Pid, Side, Status, System};
use crate::num::Num;
use crate::plan::*;
use std::sync::Arc;

/// A participant's text field as a value: undefined where the data gives none.
fn text(t: &Option<String>) -> Value {
    t.as_deref()
        .map_or(Value::Undef, |t| Value::Str(Arc::from(t)))
}

impl Evaluator<'_> {
    /// Field `f` of value `b` (`e` is the field expression).
    pub(super) fn field(&mut self, e: &PExpr, b: &Value, f: &Field) -> R<Value> {
        use BuiltinField as F;
        let ev = self.event;
        Ok(match b {
            Value::Undef => Value::Undef,
            Value::Entry(p, i) => {
                let en = &ev.participants[*p].entries[*i as usize];
                if let Some(flag) = f.builtin.and_then(|b| entry_flag(b, en)) {
                    return Ok(Value::Bool(flag));
                }
                if let Some(n) = f.builtin.and_then(|b| self.entry_number(b, *p, *i as usize)) {
                    return Ok(Value::Num(n));
                }
                match f.builtin {
                    Some(F::Opponent) => en.opponent.map(Value::Part).unwrap_or(Value::Undef),
                    Some(F::Partner) => en.partner.map(Value::Part).unwrap_or(Value::Undef),
                    Some(F::OpponentPartner) => self
                        .mirror(*p, *i as usize)
                        .and_then(|(q, j)| ev.participants[q].entries[j].partner)
                        .map(Value::Part)
                        .unwrap_or(Value::Undef),
                    Some(F::PointsAgainst) => self
                        .mirror(*p, *i as usize)
                        .map(|(q, j)| Value::Num(ev.participants[q].entries[j].points))
                        .unwrap_or(Value::Undef),
                    Some(F::Boards) if !self.tables.has_boards => {
                        return Err(self.fail(
                            e,
                            codes::EVAL_MISSING_DATA,
                            "the event's data has no boards (no game records board results)".into(),
                            "this criterion needs board-by-board results: give each game its `boards` (native format), or choose a criterion that does not use them",
                        ))
                    }
                    Some(F::Boards) => Value::Boards(*p, *i),
                    _ => {
                        let (name, against) = match f.name.strip_suffix("_against") {
                            Some(n) if ev.find_unit(n).is_some() => (n, true),
                            _ => (&*f.name, false),
                        };
                        match ev.find_unit(name) {
                            Some(u) => {
                                let v = if against { en.unit_against(u) } else { en.unit(u) };
                                v.map(Value::Num).unwrap_or(Value::Undef)
                            }
                            None => return Err(self.missing(e, "a round", &f.name, &ev.units)),
                        }
                    }
                }
            }
            Value::Part(p) => {
                let part = &ev.participants[*p];
                match f.builtin {
                    Some(F::Id) => Value::Str(Arc::from(part.id.as_str())),
                    Some(F::Rating) if !self.tables.has_ratings => {
                        return Err(self.fail(
                            e,
                            codes::EVAL_MISSING_DATA,
                            "the event's data has no ratings (no participant has one)".into(),
                            "give participants their ratings (TRF columns 49-52, native `rating`), or guard the use: `if p.rated then p.rating else undefined`",
                        ))
                    }
                    Some(F::Rating) => part.rating.map(|r| Value::Num(Num::int(r))).unwrap_or(Value::Undef),
                    Some(F::Rated) => Value::Bool(part.rating.is_some_and(|r| r > 0)),
                    Some(F::Score) => Value::Num(self.tables.scores[*p]),
                    Some(F::Rounds) => Value::Entries(*p),
                    Some(F::Sessions) => Value::Nums(Arc::new(part.sessions.clone())),
                    Some(F::Withdrawn) => Value::Bool(part.withdrawn_after.is_some()),
                    // What a category is usually about; undefined where the
                    // data does not say (a category names such participants).
                    Some(F::Sex) => text(&part.sex),
                    Some(F::Federation) => text(&part.federation),
                    Some(F::Title) => text(&part.title),
                    Some(F::Born) => part.born.map(|y| Value::Num(Num::int(y))).unwrap_or(Value::Undef),
                    _ => match part.values.get(&*f.name) {
                        Some(v) => Value::Num(*v),
                        None if ev.participants.iter().any(|q| q.values.contains_key(&*f.name)) => Value::Undef,
                        None => {
                            let known: Vec<String> = ev.participants.first().map(|q| q.values.keys().cloned().collect()).unwrap_or_default();
                            return Err(self.missing(e, "a participant", &f.name, &known));
                        }
                    },
                }
            }
            Value::Board(p, i, bi) => {
                let bd = &ev.participants[*p].entries[*i as usize].boards()[*bi as usize];
                match f.builtin {
                    Some(F::Number) => Value::Num(Num::int(bd.number as i64)),
                    Some(F::Score) => Value::Num(bd.score),
                    Some(F::Top) => bd.top.map(Value::Num).unwrap_or(Value::Undef),
                    Some(F::Session) => Value::Num(Num::int(
                        ev.participants[*p].entries[*i as usize].session as i64,
                    )),
                    Some(F::Played) => Value::Bool(bd.played),
                    _ => return Err(self.missing(e, "a board", &f.name, &[])),
                }
            }
            Value::Event => match f.builtin {
                Some(F::Rounds) => Value::Num(Num::int(ev.rounds as i64)),
                Some(F::Participants) => Value::Parts(self.tables.all.clone()),
                Some(F::Swiss) => Value::Bool(ev.system == System::Swiss),
                Some(F::RoundRobin) => Value::Bool(ev.system == System::RoundRobin),
                Some(F::WinPoints) => Value::Num(ev.scoring.win),
                Some(F::DrawPoints) => Value::Num(ev.scoring.draw),
                Some(F::LossPoints) => Value::Num(ev.scoring.loss),
                Some(F::MaxScore) => self.arith(e, ev.scoring.win.mul(Num::int(ev.rounds as i64)))?,
                _ => match ev.values.get(&*f.name) {
                    Some(v) => Value::Num(*v),
                    None => {
                        let known: Vec<String> = ev.values.keys().cloned().collect();
                        return Err(self.missing(e, "the event", &f.name, &known));
                    }
                },
            },
            other => {
                return Err(self.fail(
                    e,
                    codes::EVAL_TYPE,
                    format!("`.{}` cannot be taken of {}", f.name, other.kind()),
                    "fields belong to rounds (`r.points`), participants (`o.score`), boards and `event`",
                ))
            }
        })
    }

    /// A numeric built-in field of entry `i` of participant `p` (`r.round`,
    /// `r.points`, ...); None for the other fields. The one definition of
    /// these fields, for both evaluators.
    pub(super) fn entry_number(&self, f: BuiltinField, p: Pid, i: usize) -> Option<Num> {
        match f {
            BuiltinField::RunningScore => Some(self.tables.running[self.tables.entry_base[p] + i]),
            _ => entry_num(f, &self.event.participants[p].entries[i]),
        }
    }

    /// The opponent's side of entry `i` of participant `p`: the opponent's
    /// entry that names `p`, in the same round when there is one, else the
    /// one at the same position among their meetings (the n-th meeting of
    /// `p` with `q` is the n-th of `q` with `p`).
    fn mirror(&self, p: Pid, i: usize) -> Option<(Pid, usize)> {
        let entries = &self.event.participants.get(p)?.entries;
        let en = entries.get(i)?;
        let q = en.opponent?;
        let theirs = &self.event.participants.get(q)?.entries;
        if let Some(j) = theirs
            .iter()
            .position(|x| x.round == en.round && x.opponent == Some(p))
        {
            return Some((q, j));
        }
        let n = entries[..i]
            .iter()
            .filter(|x| x.opponent == Some(q))
            .count();
        let j = theirs
            .iter()
            .enumerate()
            .filter(|(_, x)| x.opponent == Some(p))
            .nth(n)?
            .0;
        Some((q, j))
    }

    fn missing(&self, e: &PExpr, of: &str, name: &str, known: &[String]) -> Box<EvalError> {
        let builtin: Vec<&str> = BuiltinField::ALL.iter().map(|(n, _)| *n).collect();
        // A value the ruleset declares it reads is no slip for a built-in
        // field: say, in the sport's words, what the event records instead
        // and which article needs it, not the list of field names.
        let declared = self.rs.reads.iter().find(|d| d.name == name);
        let help = if let Some(d) = declared {
            let sport = match self.event.sport {
                crate::model::Sport::Bridge => "bridge",
                crate::model::Sport::Chess => "chess",
                crate::model::Sport::Cards => "card-game",
                crate::model::Sport::Other => "",
            };
            let kind = match self.event.kind {
                crate::model::Kind::Team => "teams",
                crate::model::Kind::Pair => "pairs",
                crate::model::Kind::Player => "",
            };
            let words = |n: &str| unit_words(self.event.sport, n);
            let has = if known.is_empty() {
                format!("has no {}", words(name))
            } else {
                let w: Vec<String> = known.iter().map(|k| words(k)).collect();
                format!("records {}, not {}", w.join(" and "), words(name))
            };
            let needs = match &d.cite {
                Some(c) => format!("the ruleset reads it ({c})"),
                None => "the ruleset reads it".to_string(),
            };
            let what: Vec<&str> = [sport, kind]
                .into_iter()
                .filter(|w| !w.is_empty())
                .collect();
            let subject = if what.is_empty() {
                "this event".to_string()
            } else {
                format!("this {} event", what.join(" "))
            };
            format!(
                "{subject} {has}: {needs}; give it in the data, or use a ruleset that does not need it"
            )
        } else if known.is_empty() {
            format!(
                "the event's data has no `{name}`; built-in fields are: {}",
                builtin.join(", ")
            )
        } else {
            format!(
                "the event's data has: {}; built-in fields are: {}",
                known.join(", "),
                builtin.join(", ")
            )
        };
        self.fail(
            e,
            codes::EVAL_MISSING_DATA,
            format!("{of} has no field or data value `{name}`"),
            &help,
        )
    }
}

/// A data value's name as the sport says it (`total` in bridge: "total
/// points (`total`)"); other names as written, in backquotes.
fn unit_words(sport: crate::model::Sport, name: &str) -> String {
    let words = match (sport, name) {
        (crate::model::Sport::Bridge, "total") => "total points",
        (crate::model::Sport::Bridge, "imps") => "IMPs",
        (crate::model::Sport::Bridge, "vp") => "VPs",
        (crate::model::Sport::Bridge, "mp") => "matchpoints",
        (crate::model::Sport::Bridge, "pair_imps") => "a pair's IMPs (Butler, cross-IMP)",
        _ => return format!("`{name}`"),
    };
    format!("{words} (`{name}`)")
}

/// A number field of an entry that the entry alone gives (not the running
/// score, see [`Evaluator::entry_number`]); None for other fields. The one
/// definition of these fields, for both evaluators.
#[inline]
pub(super) fn entry_num(f: BuiltinField, en: &crate::model::Entry) -> Option<Num> {
    use BuiltinField as F;
    Some(match f {
        F::Round => Num::int(en.round as i64),
        F::Session => Num::int(en.session as i64),
        F::Points => en.points,
        F::Weight => en.weight,
        _ => return None,
    })
}

/// An entry's true-or-false built-in field (`r.played`, `r.half_bye`,
/// ...); None for the other fields. The one definition of these fields, for
/// both evaluators.
pub(super) fn entry_flag(f: BuiltinField, en: &crate::model::Entry) -> Option<bool> {
    entry_flag_of(f).map(|flag| flag(en))
}

/// The function reading true-or-false built-in field `f` of an entry; None
/// for the other fields. Chosen once, it reads every entry of an event
/// without matching the field again for each.
pub(super) fn entry_flag_of(f: BuiltinField) -> Option<fn(&crate::model::Entry) -> bool> {
    use crate::model::{Entry, Outcome};
    use BuiltinField as F;
    Some(match f {
        F::Played => |en: &Entry| en.status.played(),
        F::Knockout => |en: &Entry| en.stage.knockout(),
        F::Qualification => |en: &Entry| en.stage == crate::model::Stage::Qualification,
        F::Unplayed => |en: &Entry| !en.status.played(),
        F::Forfeit => |en: &Entry| en.status.forfeit(),
        F::ForfeitWin => |en: &Entry| en.status == Status::ForfeitWin,
        F::ForfeitLoss => |en: &Entry| en.status == Status::ForfeitLoss,
        F::DoubleForfeit => |en: &Entry| en.status == Status::DoubleForfeit,
        F::Bye => |en: &Entry| en.status.bye(),
        F::PairingBye => |en: &Entry| en.status == Status::PairingBye,
        F::FullBye => |en: &Entry| en.status == Status::FullBye,
        F::HalfBye => |en: &Entry| en.status == Status::HalfBye,
        F::ZeroBye => |en: &Entry| en.status == Status::ZeroBye,
        F::Absent => |en: &Entry| en.status == Status::Absent,
        F::Win => |en: &Entry| en.outcome == Outcome::Win,
        F::Draw => |en: &Entry| en.outcome == Outcome::Draw,
        F::Loss => |en: &Entry| en.outcome == Outcome::Loss,
        F::HasOpponent => |en: &Entry| en.opponent.is_some(),
        F::First => |en: &Entry| en.side == Some(Side::First),
        F::Second => |en: &Entry| en.side == Some(Side::Second),
        _ => return None,
    })
}
