//! The typed syntax tree of a ruleset file, every node with its span.

use crate::diag::Span;
use crate::num::Num;
// The shipped rulesets' trees are made at build time and embedded
// serialised (`build.rs`, `syntax::compiled`).
use serde::{Deserialize, Serialize};

/// Which loaded file a definition came from (index into the checker's file list).
pub type FileId = usize;

/// A name and where it was written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where.
    pub span: Span,
}

/// A parsed file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct File {
    /// Top-level items in order.
    pub items: Vec<Item>,
}

/// A top-level item.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// `table name "file.txt"`: a step function read from a data file.
    Table(TableDecl),
    /// `category "U1600" = rating < 1600`: a prize-list category.
    Category(CategoryDecl),
    /// `editions param "Label" { 2024, 2026 from "2026-03-01" }`.
    Editions(EditionsDecl),
    /// `modifier "C" whole cut ...`: a letter short codes may take.
    Modifier(ModifierDecl),
    /// `code "BH" takes ... { step ... }`: a short code.
    Code(CodeDecl),
    /// `qualifier "MP"`: a score type a code may name after a colon.
    Qualifier(String, Option<String>, Span),
    /// `codes "Title" ... otherwise lots`: how a whole list of codes ranks.
    CodeList(CodeListDecl),
    /// `standings codes "PTS,BH/C1"`: the standings are a list of codes.
    StandingsCodes(CodesRef),
}

/// `codes "DE,BH/C1"`: a list of short codes written in a ruleset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CodesRef {
    /// The list as written between the quotes.
    pub list: String,
    /// Where the list's text is (inside the quotes).
    pub span: Span,
}

/// The argument a modifier takes after its letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArgForm {
    /// `C1`: digits.
    Whole,
    /// `L-1`, `L+2`: a sign, then digits.
    SignedWhole,
    /// `L2.5`: digits with a decimal point.
    Decimal,
    /// `L-1.5`: a sign, digits with a decimal point.
    SignedDecimal,
}

impl ArgForm {
    /// As the declaration writes it.
    pub fn words(self) -> &'static str {
        match self {
            ArgForm::Whole => "whole",
            ArgForm::SignedWhole => "signed whole",
            ArgForm::Decimal => "decimal",
            ArgForm::SignedDecimal => "signed decimal",
        }
    }
}

/// A `modifier` declaration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModifierDecl {
    /// The letter, as declared (upper case by convention; read case-insensitively).
    pub letter: String,
    /// Its argument, or none for a flag.
    pub form: Option<ArgForm>,
    /// The name it sets in a code's steps.
    pub name: Ident,
    /// `= expr` of `value`; None: the flag's true, or the argument itself.
    pub value: Option<Expr>,
    /// `where cond`: the arguments accepted.
    pub guard: Option<Expr>,
    /// `default expr`: the name's value without the modifier.
    pub default: Option<Expr>,
    /// `excludes "C"`.
    pub excludes: Option<String>,
    /// Its article, added to a step's citation when given.
    pub cite: Option<String>,
    /// The `///` documentation (the help of its diagnostics).
    pub doc: String,
    /// The whole declaration.
    pub span: Span,
}

/// What a code stands for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum CodeBody {
    /// Its steps, and procedures of its own.
    Steps(Vec<Step>, Vec<ProcDef>),
    /// `means "EDE" with name = value, ...`: another code with names fixed.
    Means(Ident, Vec<(Ident, Expr)>),
}

/// A `code` declaration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CodeDecl {
    /// The code as lists write it (`BH`, `BH:GP`); read case-insensitively.
    pub name: Ident,
    /// `takes "C", "M"`: the modifier letters it accepts.
    pub takes: Vec<Ident>,
    /// `since 2026`: the edition that defines it.
    pub since: Option<u32>,
    /// `with name = value`: names of its steps and their values.
    pub with: Vec<(Ident, Expr)>,
    /// Replaces the citation of its first step.
    pub cite: Option<String>,
    /// Steps, or another code.
    pub body: CodeBody,
    /// The `///` documentation.
    pub doc: String,
    /// The whole declaration.
    pub span: Span,
}

/// A `codes "Title" source "..." cite "..." otherwise ...` declaration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CodeListDecl {
    /// The title a list's standings get, before the list itself.
    pub title: String,
    /// The regulation (its edition is added when the ruleset has one).
    pub source: Option<String>,
    /// `primary "PTS", "MPTS"`: a list without any of them starts with the first.
    pub primary: Vec<Ident>,
    /// `newer cite "..."`: the rule a code of a later edition ranks under.
    pub newer: Option<String>,
    /// `default`: the list `--tiebreaks` uses for its sport without `--library`.
    pub default: bool,
    /// The citation of the list's procedure.
    pub cite: Option<String>,
    /// How a tie the whole list leaves ends.
    pub end: End,
    /// The whole declaration.
    pub span: Span,
}

/// The editions of a regulation and the parameter carrying the one in use.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

/// `table NAME "FILE" [cite "..."]`: a step function whose rows a data file
/// holds (read by the checker, through the caller's resolver).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableDecl {
    /// The name it is looked up by, `name(x)`.
    pub name: Ident,
    /// The data file, as written (relative to the declaring file).
    pub file: String,
    /// Where the file's name is written (the string, quotes included).
    pub file_span: Span,
    /// The article the table comes from.
    pub cite: Option<String>,
    /// `///` documentation before it.
    pub doc: String,
    /// The whole item.
    pub span: Span,
}

/// A `category` declaration: a prize list of the participants for whom
/// `cond` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CategoryDecl {
    /// The name its list is headed with (`U1600`).
    pub name: String,
    /// The condition over a participant's data.
    pub cond: Expr,
    /// `rerank` (Some(None)) or `rerank by p` (Some(Some(p))): ranked among
    /// its members; None: the overall order kept.
    pub rerank: Option<Option<Ident>>,
    /// The article it implements.
    pub cite: Option<String>,
    /// `///` documentation before it.
    pub doc: String,
    /// The whole item.
    pub span: Span,
}

/// Which header line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HeaderKind {
    /// What the ruleset is called.
    Title,
    /// The document it implements.
    Source,
    /// The edition of that document.
    Edition,
}

/// `metric` / `criterion` definition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProcDef {
    /// `codes "..."` lines: each list with the number of steps before it.
    pub codes: Vec<(usize, CodesRef)>,
    /// `remaining codes` (in a code's own procedure): the steps before it.
    pub remaining: Option<(usize, Span)>,
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// The file a step expanded from a code was written in (the code's
    /// library), where the step's spans point; None: the procedure's file.
    pub file: Option<FileId>,
}

/// Which way is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StepDir {
    /// `desc` or `asc`.
    Given(Direction),
    /// `reversed`: the opposite of the definition's declared direction.
    Reversed,
}

/// `select best` / `select worst`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Select {
    /// Only a unique best member is separated from the rest.
    Best,
    /// Only a unique worst member is separated from the rest.
    Worst,
}

/// What to do with a sub-group that a step left tied.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Handoff {
    /// One action whatever the size.
    Always(Action),
    /// By the size of the sub-group, with a default.
    BySize(Vec<(usize, Action)>, Option<Action>),
}

/// One hand-off action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct End {
    /// What happens.
    pub kind: EndKind,
    /// Article.
    pub cite: Option<String>,
    /// Where.
    pub span: Span,
}

/// How a tie the steps cannot break ends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum EndKind {
    /// Tied members share the place.
    Shared,
    /// Drawing of lots, only with a seed the user gives.
    Lots,
    /// Reported unresolved with the regulation's remedy.
    Unresolved(String),
}

/// An expression.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where.
    pub span: Span,
}

/// Expression forms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnOp {
    /// `not`.
    Not,
    /// `-`.
    Neg,
}

/// Infix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
