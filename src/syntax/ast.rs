//! The typed syntax tree of a ruleset file, every node with its span.

use crate::diag::Span;
use crate::num::Num;

/// Which loaded file a definition came from (index into the checker's file list).
pub type FileId = usize;

/// A name and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where.
    pub span: Span,
}

/// A parsed file.
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    /// Top-level items in order.
    pub items: Vec<Item>,
}

/// A top-level item.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `title`, `source` or `edition`.
    Header(HeaderKind, String, Span),
    /// `sport "name"`: the game the file is for (the name as written).
    Sport(String, Span),
    /// `import "name"`.
    Import(String, Span),
    /// `param name = expr`.
    Param(Ident, Expr),
    /// `set name = expr`.
    Set(Ident, Expr),
    /// `metric` or `criterion`.
    Metric(MetricDef),
    /// `procedure`.
    Procedure(ProcDef),
    /// `standings proc`.
    Standings(Ident),
    /// `reads participant carryover default 0`.
    Reads(ReadDecl),
    /// `editions param "Label" { 2024, 2026 from "2026-03-01" }`.
    Editions(EditionsDecl),
}

/// The editions of a regulation and the parameter carrying the one in use.
#[derive(Clone, Debug, PartialEq)]
pub struct EditionsDecl {
    /// The parameter the edition sets.
    pub param: Ident,
    /// What the output calls it (`FIDE edition`).
    pub label: String,
    /// Each edition, oldest first, with the date it came into force.
    pub list: Vec<(u32, Option<String>)>,
    /// The whole item.
    pub span: Span,
}

/// What carries a data value a ruleset reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DataKind {
    /// A unit recorded on each game (`r.imps`; `r.imps_against` too).
    Round,
    /// A value per participant (`me.carryover`).
    Participant,
    /// A value of the event (`event.team_size`).
    Event,
}

impl DataKind {
    /// The word in the language (`reads round imps`).
    pub fn word(self) -> &'static str {
        match self {
            DataKind::Round => "round",
            DataKind::Participant => "participant",
            DataKind::Event => "event",
        }
    }
}

/// `reads KIND name [default N] [cite "..."]`: a data value the ruleset reads.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadDecl {
    /// What carries it.
    pub kind: DataKind,
    /// The value's name in the data.
    pub name: Ident,
    /// The value that stands where the data lacks it (only where legitimate).
    pub default: Option<Num>,
    /// The article that names the value.
    pub cite: Option<String>,
    /// `///` documentation before it.
    pub doc: String,
    /// The whole item.
    pub span: Span,
}

/// Which header line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderKind {
    /// What the ruleset is called.
    Title,
    /// The document it implements.
    Source,
    /// The edition of that document.
    Edition,
}

/// `metric` / `criterion` definition.
#[derive(Clone, Debug, PartialEq)]
pub struct MetricDef {
    /// Name.
    pub name: Ident,
    /// Parameters.
    pub params: Vec<Ident>,
    /// Display label.
    pub label: Option<String>,
    /// `higher is better` / `lower is better`, and where it is written.
    pub better: Option<(Direction, Span)>,
    /// Defining expression.
    pub body: Expr,
    /// Article it implements.
    pub cite: Option<String>,
    /// `///` documentation before it.
    pub doc: String,
    /// Declared with `criterion`: computed among the tied group.
    pub group_relative: bool,
    /// The whole definition.
    pub span: Span,
}

/// `procedure` definition.
#[derive(Clone, Debug, PartialEq)]
pub struct ProcDef {
    /// Name.
    pub name: Ident,
    /// Article it implements.
    pub cite: Option<String>,
    /// What steps do with sub-ties unless they say otherwise.
    pub default_then: Option<Handoff>,
    /// Steps in order.
    pub steps: Vec<Step>,
    /// What happens when the steps run out.
    pub end: Option<End>,
    /// `///` documentation before it.
    pub doc: String,
    /// The whole definition.
    pub span: Span,
}

/// One step of a procedure.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The value compared.
    pub expr: Expr,
    /// `desc`, `asc` or `reversed` as written, and where; `None` when the
    /// step takes its definition's declared direction.
    pub dir: Option<(StepDir, Span)>,
    /// Only a unique best/worst member is separated.
    pub select: Option<Select>,
    /// The step applies only when this holds for the group.
    pub when: Option<Expr>,
    /// What happens to members still tied after a split.
    pub then: Option<Handoff>,
    /// Output label.
    pub label: Option<String>,
    /// Decimals to display.
    pub decimals: Option<u32>,
    /// Article.
    pub cite: Option<String>,
    /// `///` documentation before it.
    pub doc: String,
    /// The whole step.
    pub span: Span,
    /// Written `places`: printed as places in the tied group.
    pub places: bool,
}

/// Which way is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Higher is better.
    Desc,
    /// Lower is better.
    Asc,
}

impl Direction {
    /// The other way.
    pub fn reversed(self) -> Direction {
        match self {
            Direction::Desc => Direction::Asc,
            Direction::Asc => Direction::Desc,
        }
    }

    /// How the direction reads in output and help.
    pub fn phrase(self) -> &'static str {
        match self {
            Direction::Desc => "higher is better",
            Direction::Asc => "lower is better",
        }
    }

    /// The step keyword for it.
    pub fn keyword(self) -> &'static str {
        match self {
            Direction::Desc => "desc",
            Direction::Asc => "asc",
        }
    }
}

/// The direction word a step may carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepDir {
    /// `desc` or `asc`.
    Given(Direction),
    /// `reversed`: the opposite of the definition's declared direction.
    Reversed,
}

/// `select best` / `select worst`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Select {
    /// Only a unique best member is separated from the rest.
    Best,
    /// Only a unique worst member is separated from the rest.
    Worst,
}

/// What to do with a sub-group that a step left tied.
#[derive(Clone, Debug, PartialEq)]
pub enum Handoff {
    /// One action whatever the size.
    Always(Action),
    /// By the size of the sub-group, with a default.
    BySize(Vec<(usize, Action)>, Option<Action>),
}

/// One hand-off action.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Go on with the next step (FIDE 4.2).
    Continue,
    /// Start this procedure again among them (EBU 143.5.6).
    Restart,
    /// Apply this same step again among them (FIDE 6.2).
    Repeat,
    /// Hand them to another procedure (WBF "in accordance with section 1.1").
    Proc(Ident),
}

/// The end of a procedure.
#[derive(Clone, Debug, PartialEq)]
pub struct End {
    /// What happens.
    pub kind: EndKind,
    /// Article.
    pub cite: Option<String>,
    /// Where.
    pub span: Span,
}

/// How a tie the steps cannot break ends.
#[derive(Clone, Debug, PartialEq)]
pub enum EndKind {
    /// Tied members share the place.
    Shared,
    /// Drawing of lots, only with a seed the user gives.
    Lots,
    /// Reported unresolved with the regulation's remedy.
    Unresolved(String),
}

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where.
    pub span: Span,
}

/// Expression forms.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A number literal.
    Num(Num),
    /// `true` / `false`.
    Bool(bool),
    /// A string literal.
    Str(String),
    /// `infinity`.
    Infinity,
    /// A name.
    Var(String),
    /// `base.name` or `base.name(args)`.
    Field(Box<Expr>, Ident, Option<Vec<Expr>>),
    /// `name(args)`.
    Call(Ident, Vec<Expr>),
    /// `name: value`: an argument given by its parameter's name. Only in
    /// the arguments of a call (`f(a: 1)`, `x.f(a: 1)`); the checker puts
    /// it in its parameter's place, so later stages never see it.
    Named(Ident, Box<Expr>),
    /// `name(elem for x in xs where cond)`.
    Aggregate(Ident, Generator),
    /// `[elem for x in xs where cond by key voluntary cond]`.
    List(Generator),
    /// `if c then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Prefix operator.
    Unary(UnOp, Box<Expr>),
    /// Infix operator.
    Binary(BinOp, Box<Expr>, Box<Expr>),
}

/// A generator: element, loops, filter, and for lists a key and a VUR flag.
#[derive(Clone, Debug, PartialEq)]
pub struct Generator {
    /// The value produced per iteration.
    pub elem: Box<Expr>,
    /// `for x in xs` clauses, outermost first.
    pub fors: Vec<(Ident, Expr)>,
    /// `where cond`.
    pub cond: Option<Box<Expr>>,
    /// `by key` (lists only).
    pub by: Option<Box<Expr>>,
    /// `voluntary cond` (lists only).
    pub voluntary: Option<Box<Expr>>,
}

/// Prefix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `not`.
    Not,
    /// `-`.
    Neg,
}

/// Infix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `??`.
    Coalesce,
    /// `or`.
    Or,
    /// `and`.
    And,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `in`.
    In,
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`: remainder of floored division, `a - b * floor(a / b)`.
    Rem,
}
