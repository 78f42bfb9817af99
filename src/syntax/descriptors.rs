//! FIDE tie-break descriptors (MTB26, TRF-26 records 202/212) → ruleset text over the FIDE library.
//!
//! A descriptor names a FIDE tie-break and its modifiers: `BH/C1`, `SB/M1`,
//! `KS/L-1`, `DE/P`. [`parse_list`] reads a comma-separated list (as given
//! to `tb eval --tiebreaks`, or from a TRF-26 file) and reports every
//! problem at once, each pointing into the list. [`Chain::ruleset_text`]
//! writes the chain as a ruleset that imports `fide/lib`, one step per
//! descriptor labelled with the descriptor exactly as given, so the whole
//! engine (checker, evaluator, trace, rendering) is reused.
//!
//! The grammar of a descriptor, as FIDE's reference engine reads it:
//! `CODE[:PT][/MOD]...`, codes and modifiers case-insensitive, where MOD is
//! `Cn` (cut the n least significant values, 14.1-14.2), `Mn` (median: cut n
//! low and n high, 14.3-14.4), `L±n` / `Ln` (Koya limit moved by n
//! half-points, or set to n percent; `L±n.n` moves it by points, 14.5), `P`
//! (forfeits count as games), `F` (Fore: final-round games as draws) and `R`
//! (reverse the order).

use crate::codes;
use crate::diag::{Diag, Source, Span};
use crate::model::Event;
use crate::num::Num;
use crate::plan::Ruleset;

/// The library a chain of individual codes imports.
const LIBRARY: &str = "fide/lib";

/// The procedure a descriptor chain's ruleset ranks with.
pub const PROCEDURE: &str = "descriptors";

/// The edition for an event when none is chosen explicitly, and why: the
/// one in force on the event's start date, by the editions the library the
/// chains import declares (`editions` in `fide/unplayed`). Checks the
/// library to find them; the CLI reads them from the chain's own ruleset
/// instead ([`edition_in`]).
pub fn edition_for(event: &Event) -> (Edition, String) {
    let src = Source::new("<descriptors>", format!("import \"{LIBRARY}\"\n"));
    let declared = crate::check::check(src, &crate::shipped::Shipped, &[])
        .ok()
        .and_then(|rs| rs.editions);
    edition_in(declared.as_ref(), event)
}

/// The edition in force on the event's start date among `declared`, and
/// why; the latest edition when nothing is declared.
pub fn edition_in(declared: Option<&crate::plan::Editions>, event: &Event) -> (Edition, String) {
    let (year, why) = match declared {
        Some(e) => e.for_date(event.start_date.as_deref()),
        None => (0, String::new()),
    };
    (
        Edition::parse(&year.to_string()).unwrap_or(Edition::E2026),
        why,
    )
}

/// The chain of `descriptors` and its checked ruleset under `explicit`
/// or, without it, under the edition in force on the event's start date,
/// and why. The editions are declared by the library, so they are known
/// once the chain is checked: it is checked under the latest edition, and
/// moved to the event's edition when that is another. The two texts differ
/// only in their header (`source`, `edition`), and `edition` sets the
/// declared parameter as a `set` would, so the move is what a second check
/// would give, without parsing the library again.
pub fn chain_ruleset(
    descriptors: Vec<Descriptor>,
    explicit: Option<Edition>,
    event: &Event,
    overrides: &[(String, Num)],
) -> Result<(Chain, Ruleset, String), Diag> {
    let first = explicit.unwrap_or(Edition::E2026);
    let chain = Chain::new(descriptors.clone(), first);
    let mut rs = ruleset(&chain, overrides)?;
    let (edition, why) = match explicit {
        Some(e) => (e, "--edition".to_string()),
        None => edition_in(rs.editions.as_ref(), event),
    };
    if edition == first {
        return Ok((chain, rs, why));
    }
    let chain = Chain::new(descriptors, edition);
    let param = rs.editions.as_ref().map(|e| e.param.clone());
    let by_user = overrides.iter().any(|(k, _)| Some(k) == param.as_ref());
    match rs
        .params
        .iter_mut()
        .find(|p| Some(&p.name) == param.as_ref())
    {
        Some(p) if !by_user => {
            p.value = Num::int(i64::from(edition.year()));
            rs.source_doc = Some(chain.source_doc());
            rs.edition = Some(edition.year().to_string());
        }
        // A parameter the user sets, or none declared: check the text.
        _ => rs = ruleset(&chain, overrides)?,
    }
    Ok((chain, rs, why))
}

/// Check the ruleset of a chain (it imports the shipped `fide/lib`).
/// `overrides` set library parameters (`--param unrated_rating=1000`).
pub fn ruleset(chain: &Chain, overrides: &[(String, Num)]) -> Result<Ruleset, Diag> {
    crate::check::check(
        Source::new("<descriptors>", chain.ruleset_text()),
        &crate::shipped::Shipped,
        overrides,
    )
}

/// An edition of the FIDE regulations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edition {
    /// Approved 29/07/2024 (seed 004).
    E2024,
    /// In force from 1 March 2026.
    E2026,
}

impl Edition {
    /// The year, as the library's `fide_edition` parameter takes it.
    pub fn year(self) -> u32 {
        match self {
            Edition::E2024 => 2024,
            Edition::E2026 => 2026,
        }
    }
    /// From "2024" or "2026".
    pub fn parse(s: &str) -> Option<Edition> {
        match s.trim() {
            "2024" => Some(Edition::E2024),
            "2026" => Some(Edition::E2026),
            _ => None,
        }
    }
}

/// One FIDE tie-break code of the individual catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    /// Points.
    Pts,
    /// Direct Encounter (Art. 6).
    De,
    /// Number of wins (7.1).
    Win,
    /// Games won over the board (7.2).
    Won,
    /// Games played with Black (7.3).
    Bpg,
    /// Games won with Black (7.4).
    Bwg,
    /// Progressive scores (7.5).
    Ps,
    /// Rounds one elected to play (7.6).
    Rep,
    /// Buchholz (8.1).
    Bh,
    /// Average of opponents' Buchholz (8.2).
    Aob,
    /// Fore Buchholz (8.3).
    Fb,
    /// Sonneborn-Berger (9.1).
    Sb,
    /// Koya (9.2).
    Ks,
    /// Average rating of opponents (10.1).
    Aro,
    /// Tournament performance rating (10.2).
    Tpr,
    /// Perfect tournament performance (10.3).
    Ptp,
    /// Average performance rating of opponents (10.4).
    Apro,
    /// Average perfect performance of opponents (10.5).
    Appo,
    /// Standard points (2026).
    Std,
    /// Tournament pairing number (2026).
    Tpn,
    /// Rating (2026).
    Rtng,
    /// Team: match points (`MPTS`), Art. 11.1.1.
    Mpts,
    /// Team: game points (`GPTS`), Art. 11.1.2.
    Gpts,
    /// Team: the score that is not primary (13.1).
    MpVgp,
    /// Team: Board Count (12.1).
    Bc,
    /// Team: Top Board Results (12.2).
    Tbr,
    /// Team: Bottom Board Elimination (12.3).
    Bbe,
    /// Team: Extended Sonneborn-Berger (13.2): opponent's score in GP?, own score in GP?
    Esb(bool, bool),
    /// Team: Extended Direct Encounter (13.3), with the 13.3.2 board
    /// criteria for two teams still tied (2026 names): `C` Board Count,
    /// `T` Top Board Results, `B` Bottom Board Elimination.
    Ede(&'static str),
    /// Team: Scores and Schedule Strength Combination (13.4).
    Sssc,
}

/// Every code: (name, code, article, added in 2026). Aliases follow their code.
const CODES: &[(&str, Code, &str, bool)] = &[
    ("PTS", Code::Pts, "Art. 4.2", false),
    ("DE", Code::De, "Art. 6", false),
    ("WIN", Code::Win, "Art. 7.1", false),
    ("WON", Code::Won, "Art. 7.2", false),
    ("BPG", Code::Bpg, "Art. 7.3", false),
    ("BWG", Code::Bwg, "Art. 7.4", false),
    ("PS", Code::Ps, "Art. 7.5", false),
    ("REP", Code::Rep, "Art. 7.6", false),
    ("GE", Code::Rep, "Art. 7.6", false),
    ("BH", Code::Bh, "Art. 8.1", false),
    ("AOB", Code::Aob, "Art. 8.2", false),
    ("FB", Code::Fb, "Art. 8.3", false),
    ("SB", Code::Sb, "Art. 9.1", false),
    ("KS", Code::Ks, "Art. 9.2", false),
    ("ARO", Code::Aro, "Art. 10.1", false),
    ("TPR", Code::Tpr, "Art. 10.2", false),
    ("PTP", Code::Ptp, "Art. 10.3", false),
    ("APRO", Code::Apro, "Art. 10.4", false),
    ("APPO", Code::Appo, "Art. 10.5", false),
    ("STD", Code::Std, "2026 edition", true),
    ("TPN", Code::Tpn, "2026 edition", true),
    ("SNO", Code::Tpn, "2026 edition", true),
    ("RTNG", Code::Rtng, "2026 edition", true),
    ("MPTS", Code::Mpts, "Art. 11.1.1", false),
    ("GPTS", Code::Gpts, "Art. 11.1.2", false),
    ("MPVGP", Code::MpVgp, "Art. 13.1", false),
    ("BC", Code::Bc, "Art. 12.1", false),
    ("TBR", Code::Tbr, "Art. 12.2", false),
    ("BBE", Code::Bbe, "Art. 12.3", false),
    ("EMMSB", Code::Esb(false, false), "Art. 13.2.1", false),
    ("EMGSB", Code::Esb(false, true), "Art. 13.2.2", false),
    ("ESB", Code::Esb(false, true), "Art. 13.2", false),
    ("EGMSB", Code::Esb(true, false), "Art. 13.2.3", false),
    ("EGGSB", Code::Esb(true, true), "Art. 13.2.4", false),
    ("EDE", Code::Ede(""), "Art. 13.3", false),
    ("EDEC", Code::Ede("C"), "Art. 13.3, 12.1", true),
    ("EDET", Code::Ede("T"), "Art. 13.3, 12.2", true),
    ("EDEB", Code::Ede("B"), "Art. 13.3, 12.3", true),
    ("EDEBT", Code::Ede("CT"), "Art. 13.3, 12.1, 12.2", true),
    ("EDEBB", Code::Ede("CB"), "Art. 13.3, 12.1, 12.3", true),
    ("SSSC", Code::Sssc, "Art. 13.4", false),
];

impl Code {
    /// A team tie-break (Art. 11-13).
    pub fn is_team(self) -> bool {
        matches!(
            self,
            Code::Mpts
                | Code::Gpts
                | Code::MpVgp
                | Code::Bc
                | Code::Tbr
                | Code::Bbe
                | Code::Esb(..)
                | Code::Ede(_)
                | Code::Sssc
        )
    }
    /// Printed as a place in the tied group (group-relative, like DE).
    pub fn is_place(self) -> bool {
        matches!(self, Code::De | Code::Ede(_) | Code::Tbr | Code::Bbe)
    }
}

/// The modifiers a code accepts.
fn allowed(code: Code) -> &'static str {
    match code {
        // Lists of values: Cut and Median (Art. 14; Art. 5's Cut-1 column).
        Code::Bh | Code::Sb => "CMPFR",
        Code::Fb => "CMPR",
        Code::Ps | Code::Aro => "CMR",
        Code::De => "PR",
        Code::Aob => "PFR",
        Code::Ks => "LR",
        Code::Esb(..) => "CMPR",
        Code::Ede(_) => "PR",
        _ => "R",
    }
}

/// The Koya limit of `/L`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// `/L60`: a percentage of the maximum possible score.
    Percent(Num),
    /// `/L-1`, `/L+1.5`: moved by points (half-points for a whole number).
    Shift(Num),
}

/// One descriptor, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Descriptor {
    /// The descriptor exactly as given (the output label).
    pub text: String,
    /// Where it is in the list.
    pub span: Span,
    /// The tie-break.
    pub code: Code,
    /// The code's canonical name (`REP` for `GE`).
    pub name: &'static str,
    /// Its article.
    pub article: &'static str,
    /// Added by the 2026 edition.
    pub new_in_2026: bool,
    /// `/Cn`.
    pub cut: u32,
    /// `/Mn`.
    pub median: u32,
    /// `/L...`.
    pub limit: Option<Limit>,
    /// `/P`: forfeits count as games.
    pub forfeits: bool,
    /// `/F`: Fore mode.
    pub fore: bool,
    /// `/R`: reverse order.
    pub reverse: bool,
    /// `:GP` (true) or `:MP` (false): the score a team tie-break uses;
    /// None: the primary score (MP).
    pub game_points: Option<bool>,
}

const E_EMPTY: &str = codes::DESCRIPTORS_EMPTY;
const E_UNKNOWN: &str = codes::DESCRIPTORS_UNKNOWN_CODE;
const E_TEAM: &str = codes::DESCRIPTORS_TEAM_CODE;
const E_MODIFIER: &str = codes::DESCRIPTORS_UNKNOWN_MODIFIER;
const E_INVALID: &str = codes::DESCRIPTORS_INVALID_COMBINATION;
const E_VALUE: &str = codes::DESCRIPTORS_BAD_VALUE;

const SYNTAX_HELP: &str = "a descriptor is CODE[/MODIFIER]..., e.g. BH/C1, SB/M1, KS/L-1, DE/P; \
codes: PTS DE WIN WON BPG BWG PS REP BH AOB FB SB KS ARO TPR PTP APRO APPO STD TPN RTNG";

/// Read a comma-separated list of descriptors for an individual event from
/// `src` (its whole text); every problem is reported at once. Team
/// tie-breaks and score types are refused (`tb::descriptors::team_code`).
pub fn parse_list(src: &Source) -> Result<Vec<Descriptor>, Diag> {
    parse_list_for(src, false)
}

/// Read a comma-separated list of descriptors, for a team event when `team`
/// (team codes, Art. 11-13, and `:MP` / `:GP` accepted).
pub fn parse_list_for(src: &Source, team: bool) -> Result<Vec<Descriptor>, Diag> {
    let text = &*src.text;
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut start = 0;
    for piece in text.split(',') {
        let lead = piece.len() - piece.trim_start().len();
        let t = piece.trim();
        let span = Span::new(start + lead, start + lead + t.len());
        start += piece.len() + 1;
        if t.is_empty() {
            if !text.trim().is_empty() {
                errors.push(
                    Diag::error(E_EMPTY, "an empty descriptor in the list")
                        .at(src, span, "nothing here")
                        .with_help(SYNTAX_HELP),
                );
            }
            continue;
        }
        match parse_one(src, t, span, team) {
            Ok(d) => out.push(d),
            Err(mut es) => errors.append(&mut es),
        }
    }
    if out.is_empty() && errors.is_empty() {
        errors.push(
            Diag::error(E_EMPTY, "the tie-break list is empty")
                .in_source(src)
                .with_help(SYNTAX_HELP),
        );
    }
    if errors.is_empty() {
        return Ok(out);
    }
    if errors.len() == 1 {
        return Err(errors.remove(0));
    }
    let n = errors.len();
    Err(Diag::many(
        errors[0].code,
        format!("{n} problems in the tie-break list"),
        errors,
    ))
}

fn parse_one(src: &Source, t: &str, span: Span, team: bool) -> Result<Descriptor, Vec<Diag>> {
    let mut errors = Vec::new();
    let sub = |a: usize, b: usize| Span::new(span.start + a, span.start + b);
    let mut parts = t.split('/');
    let head = parts.next().unwrap_or("");
    let (name_txt, pt) = match head.split_once(':') {
        Some((n, p)) => (n, Some(p)),
        None => (head, None),
    };
    let upper = name_txt.to_ascii_uppercase();
    let name_span = sub(0, name_txt.len());
    let found = CODES
        .iter()
        .find(|c| c.0 == upper)
        .filter(|c| team || !c.1.is_team());
    let Some(&(_, code, article, new_in_2026)) = found else {
        let d = if CODES.iter().any(|c| c.0 == upper && c.1.is_team()) {
            Diag::error(
                E_TEAM,
                format!("`{name_txt}` is a team tie-break (Art. 12-13); tb's FIDE library covers individual events"),
            )
            .at(src, name_span, "team tie-break")
            .with_help("for an individual event choose among PTS DE WIN WON BPG BWG PS REP BH AOB FB SB KS ARO TPR PTP APRO APPO STD TPN RTNG")
        } else if let Some((base, m)) = upper
            .split_once('-')
            .filter(|(b, _)| CODES.iter().any(|c| c.0 == *b))
        {
            Diag::error(E_UNKNOWN, format!("`{name_txt}` is written with a dash"))
                .at(src, name_span, "the regulations' label, not a descriptor")
                .with_help(format!("write the modifier after a slash: {base}/{m}"))
        } else {
            Diag::error(
                E_UNKNOWN,
                format!("`{name_txt}` is not a FIDE tie-break code"),
            )
            .at(src, name_span, "unknown code")
            .with_help(SYNTAX_HELP)
        };
        return Err(vec![d]);
    };
    // The canonical name: the first entry for the code (REP for GE).
    let name = CODES
        .iter()
        .find(|c| c.1 == code)
        .map(|c| c.0)
        .unwrap_or("?");
    let mut game_points = None;
    if let (Some(p), true) = (pt, team) {
        let a = name_txt.len();
        let psp = sub(a, a + 1 + p.len());
        match p.to_ascii_uppercase().as_str() {
            "MP" => game_points = Some(false),
            "GP" => game_points = Some(true),
            _ => errors.push(
                Diag::error(
                    E_VALUE,
                    format!("`{t}`: the score type `:{p}` is not MP or GP"),
                )
                .at(src, psp, "expected :MP or :GP")
                .with_help("`:MP` uses match points, `:GP` game points (Art. 13)"),
            ),
        }
        let gp_ok = matches!(code, Code::Pts | Code::Bh | Code::Sb);
        if game_points == Some(true) && !gp_ok {
            errors.push(
                Diag::error(E_INVALID, format!("`{t}`: tb computes {name_txt} on match points only"))
                    .at(src, psp, "game points not supported here")
                    .with_help("`:GP` is taken by PTS, BH and SB (and the team codes that name their scores: EGGSB, MPvGP, ...)"),
            );
        }
    } else if let Some(p) = pt {
        let a = name_txt.len();
        errors.push(
            Diag::error(
                E_TEAM,
                format!("`:{p}` chooses a team score (match or game points); this is an individual tie-break list"),
            )
            .at(src, sub(a, a + 1 + p.len()), "team score type")
            .with_help(format!("write `{name_txt}` without `:{p}`")),
        );
    }
    let mut d = Descriptor {
        text: t.to_string(),
        span,
        code,
        name,
        article,
        new_in_2026,
        cut: 0,
        median: 0,
        limit: None,
        forfeits: false,
        fore: false,
        reverse: false,
        game_points,
    };
    let ok = allowed(code);
    let mut seen: Vec<char> = Vec::new();
    let mut off = head.len();
    for m in parts {
        let mspan = sub(off + 1, off + 1 + m.len());
        off += 1 + m.len();
        let mut chars = m.chars();
        let Some(letter) = chars.next().map(|c| c.to_ascii_uppercase()) else {
            errors.push(
                Diag::error(E_MODIFIER, format!("`{t}`: an empty modifier"))
                    .at(src, mspan.join(sub(off, off)), "nothing after `/`")
                    .with_help(SYNTAX_HELP),
            );
            continue;
        };
        let arg = chars.as_str();
        let known = "CMLPFR".contains(letter);
        if !known {
            let help = match letter {
                'V' => "tb chooses the edition for the whole list: use --edition 2024 or 2026",
                'U' => {
                    "tb rates unrated players for the whole list: use --param unrated_rating=RATING"
                }
                'S' => "tb reads the system from the data: use --system swiss",
                _ => "modifiers are /Cn /Mn /L±n /P /F /R",
            };
            errors.push(
                Diag::error(
                    E_MODIFIER,
                    format!("`{t}`: tb does not support the modifier `/{m}`"),
                )
                .at(src, mspan, "unsupported modifier")
                .with_help(help),
            );
            continue;
        }
        if !ok.contains(letter) {
            let what = match letter {
                'C' | 'M' => "cuts (Art. 14) apply to tie-breaks that add up a list of values: BH, FB, SB, PS, ARO",
                'L' => "a limit (Art. 14.5) belongs to Koya (KS)",
                'P' => "/P (forfeits as games) applies to DE, BH, FB, SB and AOB",
                'F' => "/F (Fore) applies to BH, SB and AOB; FB is already Fore Buchholz",
                _ => "",
            };
            errors.push(
                Diag::error(E_INVALID, format!("`{t}`: {name} does not take `/{m}`"))
                    .at(src, mspan, format!("not a modifier of {name}"))
                    .with_help(what),
            );
            continue;
        }
        if seen.contains(&letter)
            || (letter == 'C' && seen.contains(&'M'))
            || (letter == 'M' && seen.contains(&'C'))
        {
            errors.push(
                Diag::error(E_INVALID, format!("`{t}`: `/{m}` repeats or contradicts an earlier modifier"))
                    .at(src, mspan, "second cut or repeated modifier")
                    .with_help("give each modifier once; Cut-n and Median-n do not combine (Median already cuts the lowest)"),
            );
            continue;
        }
        seen.push(letter);
        let count = |errors: &mut Vec<Diag>| -> u32 {
            match arg.parse::<u32>() {
                Ok(n) if (1..=99).contains(&n) && arg.bytes().all(|b| b.is_ascii_digit()) => n,
                _ => {
                    errors.push(
                        Diag::error(E_VALUE, format!("`{t}`: `/{m}` needs a number of values from 1 to 99"))
                            .at(src, mspan, "expected e.g. C1 or M2")
                            .with_help("/C1 cuts the least significant value, /C2 the two least; /M1 cuts one at each end"),
                    );
                    0
                }
            }
        };
        match letter {
            'C' => d.cut = count(&mut errors),
            'M' => d.median = count(&mut errors),
            'L' => match parse_limit(arg) {
                Some(l) => d.limit = Some(l),
                None => errors.push(
                    Diag::error(E_VALUE, format!("`{t}`: cannot read the limit `/{m}`"))
                        .at(src, mspan, "expected L-1, L+2, L60 or L-1.5")
                        .with_help("/L-1 lowers the Koya limit by half a point, /L+1 raises it; /L60 sets it to 60%; with a decimal point the number is in points (/L-1.5)"),
                ),
            },
            _ if !arg.is_empty() => errors.push(
                Diag::error(E_VALUE, format!("`{t}`: `/{letter}` takes no number"))
                    .at(src, mspan, "unexpected text")
                    .with_help(format!("write /{letter}")),
            ),
            'P' => d.forfeits = true,
            'F' => d.fore = true,
            'R' => d.reverse = true,
            _ => {}
        }
    }
    if errors.is_empty() {
        Ok(d)
    } else {
        Err(errors)
    }
}

fn parse_limit(arg: &str) -> Option<Limit> {
    let (sign, digits) = match arg.as_bytes().first()? {
        b'+' => (1, &arg[1..]),
        b'-' => (-1, &arg[1..]),
        _ => (0, arg),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let n = Num::parse(digits)?;
    if sign == 0 {
        if digits.contains('.') || n > Num::int(100) {
            return None;
        }
        return Some(Limit::Percent(n));
    }
    // A whole number counts half-points; with a decimal point, points (14.5).
    let points = if digits.contains('.') {
        n
    } else {
        n.div(Num::int(2)).ok()?
    };
    let points = if sign < 0 { points.neg().ok()? } else { points };
    Some(Limit::Shift(points))
}

/// A descriptor list ready to run: the ruleset text and what to tell the user.
#[derive(Clone, Debug)]
pub struct Chain {
    /// The descriptors, in order.
    pub descriptors: Vec<Descriptor>,
    /// The edition the chain is evaluated under.
    pub edition: Edition,
    /// Notes for the output (edition, codes from another edition, PTS added).
    pub notes: Vec<String>,
}

impl Chain {
    /// A chain from descriptors under an edition.
    pub fn new(descriptors: Vec<Descriptor>, edition: Edition) -> Chain {
        let mut notes = Vec::new();
        for d in &descriptors {
            if d.new_in_2026 && edition == Edition::E2024 {
                notes.push(format!(
                    "{} is defined by the 2026 edition; under the 2024 edition it is used as a self-defined tie-break (Art. 4.1)",
                    d.text
                ));
            }
        }
        if !descriptors.iter().any(|d| d.code == Code::Pts) {
            notes.push(
                "the list has no PTS: participants are ranked on points first (Art. 4.2)".into(),
            );
        }
        Chain {
            descriptors,
            edition,
            notes,
        }
    }

    /// The chain's `source` line: the regulations and their edition.
    fn source_doc(&self) -> String {
        format!(
            "FIDE Play-off and Tie-Break Regulations, {} edition",
            self.edition.year()
        )
    }

    /// The chain as a ruleset over `fide/lib`.
    pub fn ruleset_text(&self) -> String {
        let list: Vec<&str> = self.descriptors.iter().map(|d| d.text.as_str()).collect();
        let list = list.join(",");
        let mut s = String::new();
        s.push_str("// FIDE tie-breaks from descriptors (MTB26; TRF-26 records 202/212).\n");
        s.push_str(&format!(
            "title {}\n",
            quote(&format!("FIDE tie-breaks {list}"))
        ));
        s.push_str(&format!("source {}\n", quote(&self.source_doc())));
        s.push_str(&format!("edition \"{}\"\n\n", self.edition.year()));
        let team = self
            .descriptors
            .iter()
            .any(|d| d.code.is_team() || d.game_points.is_some());
        if team {
            s.push_str("import \"fide/team\"\n");
        } else {
            s.push_str("import \"fide/lib\"\n");
        }
        s.push('\n');
        let mut procs = Vec::new();
        let mut main = String::new();
        if !self
            .descriptors
            .iter()
            .any(|d| matches!(d.code, Code::Pts | Code::Mpts))
        {
            main.push_str("    step tournament_score as \"PTS\" cite \"Art. 4.2\"\n");
        }
        main.push_str(&self.steps_from(0, &mut procs));
        s.push_str(&format!("procedure {PROCEDURE} cite \"Art. 4.2\" {{\n"));
        s.push_str(&main);
        s.push_str("    otherwise lots cite \"Art. 4.2\"\n}\n\n");
        for p in procs {
            s.push_str(&p);
        }
        s.push_str(&format!("standings {PROCEDURE}\n"));
        s
    }

    /// The steps of descriptors `from..`; an EDE code becomes a procedure
    /// of its own (13.3.3: "restart with the new subset from 13.3.1") that
    /// goes on with the rest of the list.
    fn steps_from(&self, from: usize, procs: &mut Vec<String>) -> String {
        let mut s = String::new();
        for (i, d) in self.descriptors.iter().enumerate().skip(from) {
            let (expr, asc, repeat) = step_expr(d);
            let dir = direction_word(&expr, asc, d.reverse);
            let mut cite = d.article.to_string();
            if d.cut > 0 || d.median > 0 {
                cite.push_str(if matches!(d.code, Code::Esb(..)) {
                    ", 14.1.2"
                } else {
                    ", 14"
                });
            }
            if d.limit.is_some() {
                cite.push_str(", 14.5");
            }
            if matches!(
                d.code,
                Code::Bh | Code::Fb | Code::Sb | Code::Aob | Code::Esb(..)
            ) {
                cite.push_str(", 16");
            }
            let label = quote(&d.text);
            let cite = quote(&cite);
            if let Code::Ede(board) = d.code {
                let name = format!("extended_direct_encounter_{}", i + 1);
                let p = tf(d.forfeits);
                let mut body = String::new();
                body.push_str(&format!(
                    "    step team_direct_encounter(false, {p}){dir} then repeat as {label} cite \"Art. 13.3.1, 6\"\n"
                ));
                body.push_str(&format!(
                    "    step team_direct_encounter(true, {p}){dir} then {name} as {label} cite \"Art. 13.3.1, 13.3.3\"\n"
                ));
                let two = "when count(group) == 2";
                for c in board.chars() {
                    let (e, asc, art) = match c {
                        'C' => (format!("mutual_board_count({p})"), true, "12.1"),
                        'T' => (format!("mutual_top_board_results({p})"), false, "12.2"),
                        _ => (
                            format!("mutual_bottom_board_elimination({p})"),
                            false,
                            "12.3",
                        ),
                    };
                    let dir = direction_word(&e, asc, d.reverse);
                    body.push_str(&format!(
                        "    step {e}{dir} {two} as {label} cite \"Art. 13.3.2, {art}\"\n"
                    ));
                }
                body.push_str(&self.steps_from(i + 1, procs));
                procs.push(format!(
                    "/// {}: Extended Direct Encounter, restarted with every new subset (13.3.3).\nprocedure {name} cite \"Art. 13.3\" {{\n{body}    otherwise lots cite \"Art. 4.2\"\n}}\n\n",
                    d.text.replace('\n', " ")
                ));
                s.push_str(&format!(
                    "    step team_direct_encounter(false, {p}){dir} then {name} places as {label} cite {cite}\n"
                ));
                return s;
            }
            let then = if repeat { " then repeat" } else { "" };
            let then = if d.code.is_place() {
                format!("{then} places")
            } else {
                then.to_string()
            };
            let when = if d.code == Code::Bc {
                " when all(q.game_points == t.game_points for q in group for t in group)"
            } else {
                ""
            };
            s.push_str(&format!(
                "    step {expr}{dir}{when}{then} as {label} cite {cite}\n"
            ));
        }
        s
    }
}

/// The direction a generated step writes: nothing over a metric or
/// criterion of the FIDE libraries, which declare their own (`lower is
/// better` for DE, TPN, Board Count), and ` reversed` for `/R`, visible in
/// the ruleset text; `desc`/`asc` over a composed expression (`sum(...)` of
/// a cut list), which has no declaration to follow. `asc` is the code's own
/// direction (lower is better); `checks_agree` in the tests holds the two
/// together.
fn direction_word(expr: &str, asc: bool, reverse: bool) -> &'static str {
    let composed = expr.starts_with("sum(");
    match (composed, reverse) {
        (false, false) => "",
        (false, true) => " reversed",
        (true, _) if asc != reverse => " asc",
        (true, _) => " desc",
    }
}

fn quote(s: &str) -> String {
    let mut q = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                q.push('\\');
                q.push(c);
            }
            '\n' | '\r' => q.push(' '),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

fn tf(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

/// The list with the descriptor's cuts applied (Art. 14: Cut-n, Median-n).
fn cut(list: String, d: &Descriptor) -> String {
    if d.cut > 0 {
        format!("cut_lowest({list}, {})", d.cut)
    } else if d.median > 0 {
        format!("cut_highest(cut_lowest({list}, {m}), {m})", m = d.median)
    } else {
        list
    }
}

/// The step's expression, whether lower is better, and whether sub-ties
/// go through it again (`then repeat`: Art. 6.2, 6.3).
fn step_expr(d: &Descriptor) -> (String, bool, bool) {
    let p = tf(d.forfeits);
    let gp = d.game_points == Some(true);
    match d.code {
        Code::Pts if gp => ("game_points".into(), false, false),
        Code::Pts | Code::Mpts => ("tournament_score".into(), false, false),
        Code::Gpts | Code::MpVgp => ("game_points".into(), false, false),
        Code::Bc => ("board_count".into(), true, false),
        Code::Tbr => ("top_board_results".into(), false, false),
        Code::Bbe => ("bottom_board_elimination".into(), false, false),
        Code::Sssc => ("scores_and_schedule_strength".into(), false, false),
        Code::Esb(o, m) => (
            format!(
                "sum({})",
                cut(
                    format!("sonneborn_berger_values_in({}, {}, {p})", tf(o), tf(m)),
                    d
                )
            ),
            false,
            false,
        ),
        Code::Ede(_) => (format!("team_direct_encounter(false, {p})"), true, true),
        Code::Bh if gp => (
            format!("sum({})", cut(format!("buchholz_values_in(true, {p})"), d)),
            false,
            false,
        ),
        Code::Sb if gp => (
            format!(
                "sum({})",
                cut(format!("sonneborn_berger_values_in(true, true, {p})"), d)
            ),
            false,
            false,
        ),
        Code::De => (format!("direct_encounter_with({p})"), true, true),
        Code::Win => ("wins".into(), false, false),
        Code::Won => ("games_won".into(), false, false),
        Code::Bpg => ("games_with_black".into(), false, false),
        Code::Bwg => ("wins_with_black".into(), false, false),
        Code::Rep => ("rounds_elected_to_play".into(), false, false),
        Code::Ps => (
            format!("sum({})", cut("progressive_scores".into(), d)),
            false,
            false,
        ),
        Code::Bh | Code::Fb => {
            let fore = d.fore || d.code == Code::Fb;
            // The plain lists are named metrics, computed once per participant.
            let list = match (d.forfeits, fore) {
                (false, false) => "opponent_scores".to_string(),
                (false, true) => "fore_opponent_scores".to_string(),
                _ => format!("buchholz_values({p}, {})", tf(fore)),
            };
            (format!("sum({})", cut(list, d)), false, false)
        }
        Code::Sb => {
            let list = if !d.forfeits && !d.fore {
                "sonneborn_berger_list".to_string()
            } else {
                format!("sonneborn_berger_values({p}, {})", tf(d.fore))
            };
            (format!("sum({})", cut(list, d)), false, false)
        }
        Code::Aob if !d.forfeits && !d.fore => {
            ("average_of_opponents_buchholz".into(), false, false)
        }
        Code::Aob => (
            format!("average_of_opponents_buchholz_with({p}, {})", tf(d.fore)),
            false,
            false,
        ),
        Code::Ks => {
            let limit = match d.limit {
                None => "maximum_score / 2".to_string(),
                Some(Limit::Percent(n)) => format!("maximum_score * {n} / 100"),
                Some(Limit::Shift(n)) if n < Num::ZERO => {
                    format!("maximum_score / 2 - {}", n.neg().unwrap_or(n))
                }
                Some(Limit::Shift(n)) => format!("maximum_score / 2 + {n}"),
            };
            (format!("koya_with({limit})"), false, false)
        }
        Code::Aro => (
            format!("rounded_mean({})", cut("opponent_ratings".into(), d)),
            false,
            false,
        ),
        Code::Tpr => ("tournament_performance_rating".into(), false, false),
        Code::Ptp => ("perfect_tournament_performance".into(), false, false),
        Code::Apro => ("average_performance_of_opponents".into(), false, false),
        Code::Appo => (
            "average_perfect_performance_of_opponents".into(),
            false,
            false,
        ),
        Code::Std => ("standard_points".into(), false, false),
        Code::Tpn => ("pairing_number".into(), true, false),
        Code::Rtng => ("own_rating".into(), false, false),
    }
}

#[cfg(test)]
mod tests;
