//! The compiled plan: a checked ruleset with every name resolved to an index.
//!
//! Made by: `check`, from the AST. Read by: `eval`, `rank`, `render`.
//! Holds data only, with the one walk over an expression's parts
//! ([`PExpr::each_child`]; the built-in functions' rows in [`builtins`] name
//! their implementations without importing them); may import `syntax::ast`,
//! `model`, `num`, `diag`, never a later stage.

pub mod builtins;
pub mod said;

use crate::diag::{Source, Span};
use crate::num::Num;
pub use crate::syntax::ast::DataKind;
use crate::syntax::ast::{Direction, EndKind, FileId, Select, UnOp};
pub use builtins::Func;

/// Index of a metric or criterion in [`Ruleset::metrics`].
pub type MetricId = usize;
/// Index of a procedure in [`Ruleset::procs`].
pub type ProcId = usize;
/// Index of a table in [`Ruleset::tables`].
pub type TableId = usize;

/// A checked ruleset ready to evaluate.
#[derive(Clone, Debug)]
pub struct Ruleset {
    /// `title`.
    pub title: Option<String>,
    /// `source`: the document implemented.
    pub source_doc: Option<String>,
    /// `edition`.
    pub edition: Option<String>,
    /// `editions`: the regulation's editions, where a file declares them.
    pub editions: Option<Editions>,
    /// Where the standings are a list of short codes: what the list tells its user.
    pub list: Option<ListInfo>,
    /// The short codes the loaded files declare (`code`), with their
    /// documentation, in declaration order.
    pub codes: Vec<(String, String)>,
    /// `sport`: the game the ruleset is for, from its own file or, where it
    /// says none, from the files it imports when they agree
    /// (`check::sport_mismatch`).
    pub sport: Option<crate::model::Sport>,
    /// Every file loaded (root first), for diagnostics.
    pub files: Vec<Source>,
    /// Metrics and criteria.
    pub metrics: Vec<Metric>,
    /// Parameters with their values.
    pub params: Vec<Param>,
    /// Procedures.
    pub procs: Vec<Proc>,
    /// The procedure that ranks the event, if the file has `standings`.
    pub standings: Option<ProcId>,
    /// The data values the ruleset and its libraries declare they read
    /// (`reads participant carryover default 0`), in file order.
    pub reads: Vec<DataDecl>,
    /// The tables the files declare (`table name "file.txt"`), with their rows.
    pub tables: Vec<Table>,
    /// Prize-list categories: the ruleset's `category` lines, then those
    /// given with `tb eval --category`, in that order.
    pub categories: Vec<Category>,
}

/// A prize-list category (`category "U1600" = rating < 1600`): the
/// participants for whom its condition holds, listed after the standings.
#[derive(Clone, Debug)]
pub struct Category {
    /// The name its list is headed with.
    pub name: String,
    /// The condition, true or false for each participant (`me` is the participant).
    pub cond: PExpr,
    /// Local slots the condition needs.
    pub slots: usize,
    /// How its list is ordered.
    pub order: CategoryOrder,
    /// Article.
    pub cite: Option<String>,
    /// The `///` documentation.
    pub doc: String,
}

/// How a category's list is ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CategoryOrder {
    /// The overall standings' order, the members placed 1..n (the usual
    /// rule of prize regulations); shared overall places stay shared.
    Overall,
    /// `rerank`: the tie-break chain applied among the members only, from
    /// this procedure (`rerank by p`), or the standings procedure (None).
    Rerank(Option<ProcId>),
}

/// A `table`: a step function over exact numbers, read from a data file.
#[derive(Clone, Debug)]
pub struct Table {
    /// The name it is looked up by.
    pub name: String,
    /// The data file's name, as the resolver found it (`fide/rating-difference.txt`).
    pub data: String,
    /// `(KEY, VALUE)` rows, KEY strictly increasing.
    pub rows: Vec<(Num, Num)>,
    /// Article.
    pub cite: Option<String>,
    /// Documentation.
    pub doc: String,
    /// The declaring file.
    pub file: FileId,
    /// Span of the name.
    pub span: Span,
}

impl Table {
    /// The VALUE of the last row whose KEY is at most `x` (a binary
    /// search), or None below the first KEY.
    pub fn lookup(&self, x: Num) -> Option<Num> {
        let after = self.rows.partition_point(|(key, _)| *key <= x);
        after.checked_sub(1).map(|i| self.rows[i].1)
    }
}

/// What a list of short codes as the standings tells its user beyond the
/// standings (`tb eval --tiebreaks` prints it as notes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ListInfo {
    /// The regulation the list applies, without its edition.
    pub source: Option<String>,
    /// The items whose code an edition introduced: (item, edition).
    pub since: Vec<(String, u32)>,
    /// The rule such an item ranks under in an earlier edition.
    pub newer_cite: Option<String>,
    /// The primary code put first because the list lacks one: its name,
    /// what it is (its documentation's first words), and its citation.
    pub primary_added: Option<(String, String, Option<String>)>,
}

/// A declared data value (`reads KIND name default N cite "..."`).
#[derive(Clone, Debug)]
pub struct DataDecl {
    /// What carries it: each game, each participant, the event.
    pub kind: DataKind,
    /// Its name in the data.
    pub name: String,
    /// What stands where the data lacks it; None: the data must give it.
    pub default: Option<Num>,
    /// Article.
    pub cite: Option<String>,
    /// Documentation.
    pub doc: String,
    /// Where it is declared.
    pub file: FileId,
    /// Span of the declaration.
    pub span: Span,
}

/// A parameter.
#[derive(Clone, Debug)]
pub struct Param {
    /// Name.
    pub name: String,
    /// Current value.
    pub value: Num,
    /// Where it is defined.
    pub file: FileId,
    /// Its span.
    pub span: Span,
}

/// A metric (per participant) or criterion (per participant within a tied group).
#[derive(Clone, Debug)]
pub struct Metric {
    /// Name.
    pub name: String,
    /// Label for output.
    pub label: String,
    /// Its parameters' names (they occupy the first local slots).
    pub params: Vec<String>,
    /// Local slots needed (parameters and loop variables).
    pub slots: usize,
    /// Body.
    pub body: PExpr,
    /// Article.
    pub cite: Option<String>,
    /// Documentation.
    pub doc: String,
    /// Computed among the tied group.
    pub group_relative: bool,
    /// `higher is better` / `lower is better` as declared, if it is.
    pub better: Option<Direction>,
    /// File and span of the definition.
    pub file: FileId,
    /// Span of the name.
    pub span: Span,
}

/// A procedure.
#[derive(Clone, Debug)]
pub struct Proc {
    /// Name.
    pub name: String,
    /// Article.
    pub cite: Option<String>,
    /// Steps.
    pub steps: Vec<PStep>,
    /// What happens when the steps run out.
    pub end: EndKind,
    /// Article of the end.
    pub end_cite: Option<String>,
    /// Documentation.
    pub doc: String,
    /// File.
    pub file: FileId,
}

/// A compiled step.
#[derive(Clone, Debug)]
pub struct PStep {
    /// The compared value.
    pub expr: PExpr,
    /// Local slots its expressions need.
    pub slots: usize,
    /// Higher or lower is better: the step's `desc`/`asc`, else its
    /// definition's declared direction (reversed by `reversed`).
    pub dir: Direction,
    /// Written `reversed`: ranks against its definition's declared direction.
    pub reversed: bool,
    /// Unique best / worst only.
    pub select: Option<Select>,
    /// Condition on the group.
    pub when: Option<PExpr>,
    /// Sub-tie hand-off.
    pub then: PHandoff,
    /// Output label.
    pub label: String,
    /// Display decimals.
    pub decimals: Option<u32>,
    /// Article.
    pub cite: Option<String>,
    /// Documentation.
    pub doc: String,
    /// Whether its value depends on the tied group.
    pub group_relative: bool,
    /// File.
    pub file: FileId,
    /// Span.
    pub span: Span,
    /// Written `places`: the column prints places in the tied group
    /// (`rank::places`).
    pub places: bool,
}

/// The editions of a regulation (`editions` in a library): which parameter
/// carries the one in use, and the date each came into force. Neutral data:
/// the federation's dates are in its ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct Editions {
    /// The parameter set to the edition in use.
    pub param: String,
    /// What the output calls it (`FIDE edition`).
    pub label: String,
    /// Each edition, oldest first, with the date it came into force.
    pub list: Vec<(u32, Option<String>)>,
}

impl Editions {
    /// The edition in force on the start date `date`, and why: the last
    /// whose `from` date is not after it; with no date, or one that cannot
    /// be read, the last (the one in force).
    pub fn for_date(&self, date: Option<&str>) -> (u32, String) {
        let last = self.list.last().map_or(0, |e| e.0);
        let Some(d) = date else {
            return (
                last,
                "the data gives no start date; the edition in force is used".into(),
            );
        };
        let Some(day) = read_date(d) else {
            return (
                last,
                format!("the start date `{d}` cannot be read; the edition in force is used"),
            );
        };
        let from = |i: usize| self.list[i].1.as_deref().and_then(read_date);
        let mut chosen = 0;
        for i in 0..self.list.len() {
            match from(i) {
                Some(f) if f > day => break,
                _ => chosen = i,
            }
        }
        let why = match (&self.list[chosen].1, self.list.get(chosen + 1)) {
            (Some(f), _) => format!("the event starts on {d}, on or after {f}"),
            (None, Some((_, Some(next)))) => format!("the event starts on {d}, before {next}"),
            _ => format!("the event starts on {d}"),
        };
        (self.list[chosen].0, why)
    }
}

/// A date (`YYYY/MM/DD`, `YYYY-MM-DD`, `YYYY.MM.DD` or `DD.MM.YYYY`) as
/// (year, month, day); None when it cannot be read.
pub fn read_date(date: &str) -> Option<(u32, u32, u32)> {
    let parts: Vec<&str> = date.trim().split(['/', '-', '.']).map(str::trim).collect();
    if parts.len() < 3 {
        return None;
    }
    let nums: Vec<u32> = parts[..3]
        .iter()
        .map(|p| p.parse::<u32>().ok())
        .collect::<Option<Vec<_>>>()?;
    let (y, m, d) = if parts[0].len() == 4 {
        (nums[0], nums[1], nums[2])
    } else if parts[2].len() == 4 {
        (nums[2], nums[1], nums[0])
    } else {
        return None;
    };
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    Some((y, m, d))
}

/// Hand-off of sub-ties, resolved.
#[derive(Clone, Debug, PartialEq)]
pub enum PHandoff {
    /// Same action whatever the size.
    Always(PAction),
    /// By size, with a default.
    BySize(Vec<(usize, PAction)>, PAction),
}

impl PHandoff {
    /// The action for a sub-group of `n` members.
    pub fn for_size(&self, n: usize) -> PAction {
        match self {
            PHandoff::Always(a) => *a,
            PHandoff::BySize(cases, other) => cases
                .iter()
                .find(|(k, _)| *k == n)
                .map(|(_, a)| *a)
                .unwrap_or(*other),
        }
    }
}

/// A resolved hand-off action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PAction {
    /// Next step.
    Continue,
    /// First step of this procedure.
    Restart,
    /// This step again.
    Repeat,
    /// Another procedure.
    Proc(ProcId),
}

/// A compiled expression.
#[derive(Clone, Debug)]
pub struct PExpr {
    /// What it is.
    pub kind: PKind,
    /// Where it was written.
    pub span: Span,
    /// In which file.
    pub file: FileId,
}

impl PExpr {
    /// Calls `f` on each expression directly inside this one, in the order
    /// written: a metric's target before its arguments; a generator's
    /// collections, then its element, filter, key and flag. The one list
    /// of which kinds hold which parts, for every walk that treats them
    /// all alike.
    pub fn each_child<'a>(&'a self, mut f: impl FnMut(&'a PExpr)) {
        match &self.kind {
            PKind::Num(_)
            | PKind::Bool(_)
            | PKind::Str(_)
            | PKind::Infinity
            | PKind::Local(_)
            | PKind::Param(_)
            | PKind::Builtin(_) => {}
            PKind::Metric(_, target, args) => {
                target.iter().for_each(|t| f(t));
                args.iter().for_each(f);
            }
            PKind::Field(x, _) | PKind::Table(_, x) | PKind::Unary(_, x) => f(x),
            PKind::Call(_, args) => args.iter().for_each(f),
            PKind::Agg(_, g) | PKind::List(g) => {
                g.fors.iter().for_each(|(_, c)| f(c));
                f(&g.elem);
                for x in [&g.cond, &g.by, &g.voluntary].into_iter().flatten() {
                    f(x);
                }
            }
            PKind::If(c, a, b) => {
                f(c);
                f(a);
                f(b);
            }
            PKind::Binary(_, a, b) => {
                f(a);
                f(b);
            }
        }
    }
}

/// Built-in names that need no definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// The participant being evaluated.
    Me,
    /// Its entries (`rounds`).
    Rounds,
    /// Its per-session scores.
    Sessions,
    /// The tied group (criteria only).
    Group,
    /// The tied group without `me` (criteria only).
    Others,
    /// The event.
    Event,
    /// The best place the tied group occupies (a step's `when` only).
    FirstPlace,
    /// The worst place the tied group occupies (a step's `when` only).
    LastPlace,
}

/// Aggregates over a generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agg {
    /// Sum (0 when empty).
    Sum,
    /// Mean (undefined when empty).
    Mean,
    /// Count.
    Count,
    /// Smallest (undefined when empty).
    Min,
    /// Largest (undefined when empty).
    Max,
    /// All true (true when empty).
    All,
    /// Any true (false when empty).
    Any,
}

impl Agg {
    /// Look up an aggregate by name.
    pub fn by_name(s: &str) -> Option<Agg> {
        Some(match s {
            "sum" => Agg::Sum,
            "mean" => Agg::Mean,
            "count" => Agg::Count,
            "min" => Agg::Min,
            "max" => Agg::Max,
            "all" => Agg::All,
            "any" => Agg::Any,
            _ => return None,
        })
    }
}

/// Binary operators (as in the AST).
pub use crate::syntax::ast::BinOp;

/// A compiled generator.
#[derive(Clone, Debug)]
pub struct PGen {
    /// Element.
    pub elem: Box<PExpr>,
    /// Loops: local slot and collection.
    pub fors: Vec<(usize, PExpr)>,
    /// Filter.
    pub cond: Option<Box<PExpr>>,
    /// Significance key (lists).
    pub by: Option<Box<PExpr>>,
    /// VUR flag (lists).
    pub voluntary: Option<Box<PExpr>>,
}

/// Compiled expression forms.
#[derive(Clone, Debug)]
pub enum PKind {
    /// A constant number.
    Num(Num),
    /// A constant boolean.
    Bool(bool),
    /// A constant string.
    Str(std::sync::Arc<str>),
    /// `infinity`.
    Infinity,
    /// A local slot (parameter or loop variable).
    Local(usize),
    /// A parameter.
    Param(usize),
    /// A built-in name.
    Builtin(Builtin),
    /// A metric of `target` (or of `me` when None) with arguments.
    Metric(MetricId, Option<Box<PExpr>>, Vec<PExpr>),
    /// A field of a value: a built-in field, or else a unit or data value by name.
    Field(Box<PExpr>, Field),
    /// A function call.
    Call(Func, Vec<PExpr>),
    /// A table looked up at a value: `name(x)`.
    Table(TableId, Box<PExpr>),
    /// An aggregate over a generator.
    Agg(Agg, PGen),
    /// A list with significance keys.
    List(PGen),
    /// Conditional.
    If(Box<PExpr>, Box<PExpr>, Box<PExpr>),
    /// Prefix operator.
    Unary(UnOp, Box<PExpr>),
    /// Infix operator.
    Binary(BinOp, Box<PExpr>, Box<PExpr>),
}

/// A field name, with its built-in meaning looked up once at check time.
#[derive(Clone, Debug)]
pub struct Field {
    /// The name as written.
    pub name: std::sync::Arc<str>,
    /// The built-in field of that name, if any.
    pub builtin: Option<BuiltinField>,
}

macro_rules! builtin_fields {
    ($($variant:ident => $name:literal : $doc:literal),* $(,)?) => {
        /// Fields the engine provides on entries, participants, boards and the event.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum BuiltinField {
            $(#[doc = $doc] $variant,)*
        }
        impl BuiltinField {
            /// Look up a built-in field by name.
            pub fn by_name(s: &str) -> Option<BuiltinField> {
                match s { $($name => Some(BuiltinField::$variant),)* _ => None }
            }
            /// The field's name.
            pub fn name(self) -> &'static str {
                match self { $(BuiltinField::$variant => $name,)* }
            }
            /// Every built-in field with its description (for the docs and help).
            pub const ALL: &'static [(&'static str, &'static str)] = &[$(($name, $doc),)*];
        }
    };
}

builtin_fields! {
    Round => "round": "entry: the round number",
    Session => "session": "entry (or board): the session number",
    Points => "points": "entry: points awarded in the primary unit",
    RunningScore => "running_score": "entry: the participant's score after this round",
    Played => "played": "entry: played over the board / at the table",
    Unplayed => "unplayed": "entry: not played (bye, forfeit, absent)",
    Forfeit => "forfeit": "entry: a forfeit of either side",
    ForfeitWin => "forfeit_win": "entry: won by forfeit",
    ForfeitLoss => "forfeit_loss": "entry: lost by forfeit",
    DoubleForfeit => "double_forfeit": "entry: both sides forfeited",
    Bye => "bye": "entry: any bye",
    PairingBye => "pairing_bye": "entry: pairing-allocated bye",
    FullBye => "full_bye": "entry: full-point bye",
    HalfBye => "half_bye": "entry: half-point bye",
    ZeroBye => "zero_bye": "entry: zero-point bye",
    Absent => "absent": "entry: not paired and not present (incl. after withdrawal)",
    Win => "win": "entry: won (unplayed: the result matching the awarded points)",
    Draw => "draw": "entry: drawn",
    Loss => "loss": "entry: lost",
    Opponent => "opponent": "entry: the opponent (undefined for a bye)",
    HasOpponent => "has_opponent": "entry: an opponent was met or scheduled",
    Partner => "partner": "entry: the partner (individual bridge)",
    OpponentPartner => "opponent_partner": "entry: the opponent's partner in this meeting (individual bridge: the second player of the other side)",
    PointsAgainst => "points_against": "entry: the points the opponent was awarded in this meeting (undefined without an opponent)",
    First => "first": "entry: white / North-South / home",
    Second => "second": "entry: black / East-West / away",
    Weight => "weight": "entry: how much the meeting counts (triangle: 1/2)",
    Knockout => "knockout": "entry: in a knockout match, as the data states (round `stage` knockout, final or play-off)",
    Qualification => "qualification": "entry: in the qualification, as the data states (round `stage` qualification)",
    Boards => "boards": "entry: its boards",
    Id => "id": "participant: identifier",
    Rating => "rating": "participant: rating (undefined if unrated)",
    Rated => "rated": "participant: has a rating",
    Score => "score": "participant: total points in the primary unit; board: this side's score on it",
    Rounds => "rounds": "participant: its entries; event: the number of scheduled rounds",
    Sessions => "sessions": "participant: per-session scores",
    Withdrawn => "withdrawn": "participant: withdrew before the end",
    Sex => "sex": "participant: sex as the data writes it (TRF column 10: `m`, `w`); undefined where not given",
    Born => "born": "participant: year of birth (TRF columns 70-73, native `born`); undefined where not given",
    Federation => "federation": "participant: federation or club, as text; undefined where not given",
    Title => "title": "participant: title, as text (`GM`, `WFM`); undefined where none",
    Number => "number": "board: its number",
    Top => "top": "board: the most that could be scored on it",
    Participants => "participants": "event: every participant",
    Swiss => "swiss": "event: paired by the Swiss system",
    RoundRobin => "round_robin": "event: an all-play-all",
    WinPoints => "win_points": "event: points for a win",
    DrawPoints => "draw_points": "event: points for a draw",
    LossPoints => "loss_points": "event: points for a loss",
    MaxScore => "max_score": "event: rounds x points for a win",
}
