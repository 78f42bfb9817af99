//! Ruleset text → AST, through the pest grammar in `grammar/tb.pest`.
//!
//! One function per grammar rule; operators go through pest's PrattParser.
//! No pest type leaves this module: errors become [`Diag`]s with a span.

use crate::codes;
use crate::diag::{Diag, Source, Span};
use crate::num::Num;
use crate::syntax::ast::*;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser as _;
use std::sync::OnceLock;

mod grammar {
    //! The pest-generated parser (rule names are documented in the grammar file).
    #![allow(missing_docs)]
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/tb.pest"]
    pub struct TbParser;
}
use super::limits::{chain_too_deep, check_depth, precheck};

mod declarations;
mod phrases;
mod recover;
pub use super::limits::{MAX_EXPR_DEPTH, MAX_FILE_BYTES, MAX_LOOPS, MAX_NESTING, MAX_PREFIX_RUN};
use grammar::{Rule, TbParser};

fn pratt() -> &'static PrattParser<Rule> {
    static P: OnceLock<PrattParser<Rule>> = OnceLock::new();
    P.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::op_coalesce, Assoc::Left))
            .op(Op::infix(Rule::op_or, Assoc::Left))
            .op(Op::infix(Rule::op_and, Assoc::Left))
            .op(Op::prefix(Rule::op_not))
            .op(Op::infix(Rule::op_eq, Assoc::Left)
                | Op::infix(Rule::op_ne, Assoc::Left)
                | Op::infix(Rule::op_lt, Assoc::Left)
                | Op::infix(Rule::op_le, Assoc::Left)
                | Op::infix(Rule::op_gt, Assoc::Left)
                | Op::infix(Rule::op_ge, Assoc::Left)
                | Op::infix(Rule::op_in, Assoc::Left))
            .op(Op::infix(Rule::op_add, Assoc::Left) | Op::infix(Rule::op_sub, Assoc::Left))
            .op(Op::infix(Rule::op_mul, Assoc::Left)
                | Op::infix(Rule::op_div, Assoc::Left)
                | Op::infix(Rule::op_rem, Assoc::Left))
            .op(Op::prefix(Rule::op_neg))
    })
}

fn span_of(p: &Pair<Rule>) -> Span {
    // A rule's text may end with the blanks pest skipped after its last
    // token: a diagnostic points at the text only.
    let s = p.as_span();
    let text = p.as_str();
    Span::new(s.start(), s.start() + text.trim_end().len())
}

/// Parse one ruleset file; every syntax error in it is reported, gathered
/// under one diagnostic when there are several.
pub fn parse(src: &Source) -> Result<File, Diag> {
    parse_each(src).map_err(|mut all| {
        let n = all.len();
        let one = all
            .pop()
            .unwrap_or_else(|| Diag::error(codes::PARSE_SYNTAX, "syntax error"));
        match n {
            0 | 1 => one,
            _ => {
                all.push(one);
                Diag::many(
                    codes::PARSE_SYNTAX,
                    format!("{n} syntax errors in {}", src.name),
                    all,
                )
            }
        }
    })
}

/// Parse one ruleset file, or give every error found in it: each syntax
/// error (pest stops at the first; [`recover`] finds the others), else the
/// first error found in building the tree.
pub fn parse_each(src: &Source) -> Result<File, Vec<Diag>> {
    match super::compiled::lookup(&src.text) {
        Some(file) => Ok(file),
        None => parse_text(src),
    }
}

/// Parse one ruleset file through pest, never from a compiled tree (what
/// `build.rs` runs on the shipped files, and the test that compares).
pub fn parse_text(src: &Source) -> Result<File, Vec<Diag>> {
    precheck(src).map_err(|d| vec![d])?;
    // A valid file goes through pest once; only a refused one is parsed again.
    let mut pairs = match TbParser::parse(Rule::file, &src.text) {
        Ok(p) => p,
        Err(_) => return Err(recover::syntax_errors(src)),
    };
    let file = pairs
        .next()
        .ok_or_else(|| vec![Diag::error(codes::PARSE_SYNTAX, "empty parse")])?;
    let mut items = Vec::new();
    for p in file.into_inner() {
        if p.as_rule() == Rule::EOI {
            continue;
        }
        items.push(item(p, src).map_err(|d| vec![d])?);
    }
    check_depth(&items, src).map_err(|d| vec![d])?;
    Ok(File { items })
}

/// `editions param "Label" { 2024, 2026 from "2026-03-01" }`.
fn editions(p: Pair<Rule>, src: &Source, sp: Span) -> Result<Item, Diag> {
    let mut param = None;
    let mut label = String::new();
    let mut list = Vec::new();
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::ident => param = Some(ident(c)),
            Rule::string => label = string(c),
            Rule::edition_entry => {
                let mut year = None;
                let mut from = None;
                for e in c.into_inner() {
                    match e.as_rule() {
                        Rule::integer => {
                            let at = span_of(&e);
                            year = Some(e.as_str().parse::<u32>().map_err(|_| {
                                Diag::error(
                                    codes::PARSE_SYNTAX,
                                    "an edition is a year, such as 2024",
                                )
                                .at(src, at, "here")
                            })?);
                        }
                        Rule::string => from = Some(string(e)),
                        _ => {}
                    }
                }
                if let Some(y) = year {
                    list.push((y, from));
                }
            }
            _ => {}
        }
    }
    let param = param.ok_or_else(|| {
        Diag::error(codes::PARSE_SYNTAX, "`editions` needs a parameter name").at(src, sp, "here")
    })?;
    Ok(Item::Editions(EditionsDecl {
        param,
        label,
        list,
        span: sp,
    }))
}

/// `category "U1600" = expr [rerank [by p]] [cite "..."]`.
fn category(p: Pair<Rule>, src: &Source, sp: Span) -> Result<Item, Diag> {
    let mut name = None;
    let mut cond = None;
    let mut rerank = None;
    let mut cite_s = None;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::kw_category => {}
            Rule::string => name = Some(string(c)),
            Rule::expr => cond = Some(expr(c, src)?),
            Rule::category_rerank => {
                rerank = Some(
                    c.into_inner()
                        .find(|x| x.as_rule() == Rule::ident)
                        .map(ident),
                );
            }
            Rule::cite => cite_s = cite(c),
            _ => return Err(bad(&c, src, "token in a `category` line")),
        }
    }
    match (name, cond) {
        (Some(name), Some(cond)) => Ok(Item::Category(CategoryDecl {
            name,
            cond,
            rerank,
            cite: cite_s,
            doc: doc_before(src, sp.start),
            span: sp,
        })),
        _ => {
            Err(Diag::error(codes::PARSE_SYNTAX, "incomplete `category` line").at(src, sp, "here"))
        }
    }
}

/// `table name "file.txt" cite "..."`.
fn table(p: Pair<Rule>, src: &Source, sp: Span) -> Result<Item, Diag> {
    let mut name = None;
    let mut file = None;
    let mut cite_s = None;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::kw_table => {}
            Rule::ident => name = Some(ident(c)),
            Rule::string => file = Some((span_of(&c), string(c))),
            Rule::cite => cite_s = cite(c),
            _ => return Err(bad(&c, src, "token in a `table` line")),
        }
    }
    match (name, file) {
        (Some(name), Some((file_span, file))) => Ok(Item::Table(TableDecl {
            name,
            file,
            file_span,
            cite: cite_s,
            doc: doc_before(src, sp.start),
            span: sp,
        })),
        _ => Err(Diag::error(codes::PARSE_SYNTAX, "incomplete `table` line").at(src, sp, "here")),
    }
}

/// The `///` lines directly above a byte offset.
fn doc_before(src: &Source, offset: usize) -> String {
    let before = &src.text[..offset.min(src.text.len())];
    let mut lines: Vec<&str> = Vec::new();
    for line in before
        .lines()
        .rev()
        .skip(usize::from(!before.ends_with('\n')))
    {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("///") {
            lines.push(rest.trim());
        } else {
            break;
        }
    }
    lines.reverse();
    lines.join(" ")
}

fn bad(p: &Pair<Rule>, src: &Source, what: &str) -> Diag {
    Diag::error(codes::PARSE_SYNTAX, format!("unexpected {what}"))
        .at(src, span_of(p), "here")
        .with_help("this is a bug in tb's parser if the text looks right; please report it")
}

fn item(p: Pair<Rule>, src: &Source) -> Result<Item, Diag> {
    let sp = span_of(&p);
    match p.as_rule() {
        Rule::header => {
            let mut it = p.into_inner();
            let kind = it.next().and_then(|k| k.into_inner().next());
            let kind = match kind.map(|k| k.as_rule()) {
                Some(Rule::kw_title) => HeaderKind::Title,
                Some(Rule::kw_source) => HeaderKind::Source,
                _ => HeaderKind::Edition,
            };
            let s = it.next().map(|s| string(s)).unwrap_or_default();
            Ok(Item::Header(kind, s, sp))
        }
        Rule::import => {
            let s = p.into_inner().nth(1).map(string).unwrap_or_default();
            Ok(Item::Import(s, sp))
        }
        Rule::sport_decl => {
            let s = p.into_inner().nth(1).map(string).unwrap_or_default();
            Ok(Item::Sport(s, sp))
        }
        Rule::editions => editions(p, src, sp),
        Rule::table => table(p, src, sp),
        Rule::category => category(p, src, sp),
        Rule::param | Rule::set => param_or_set(p, src),
        Rule::metric | Rule::criterion => metric(p, src, sp),
        Rule::procedure => procedure(p, src).map(Item::Procedure),
        Rule::standings => {
            let what = p.into_inner().nth(1).ok_or_else(|| {
                Diag::error(codes::PARSE_SYNTAX, "standings needs a procedure").at(src, sp, "here")
            })?;
            if what.as_rule() == Rule::codes_ref {
                return Ok(Item::StandingsCodes(declarations::codes_ref(what)));
            }
            Ok(Item::Standings(ident(what)))
        }
        Rule::modifier => declarations::modifier(p, src),
        Rule::code => declarations::code(p, src),
        Rule::qualifier => Ok(declarations::qualifier(p, sp)),
        Rule::code_list => declarations::code_list(p, src, sp),
        Rule::reads => reads(p, src, sp),
        _ => Err(bad(&p, src, "item")),
    }
}

/// `param NAME = VALUE` or `set NAME = VALUE`.
fn param_or_set(p: Pair<Rule>, src: &Source) -> Result<Item, Diag> {
    let is_param = p.as_rule() == Rule::param;
    let mut it = p.into_inner().skip(1);
    let name = ident(
        it.next()
            .ok_or_else(|| Diag::error(codes::PARSE_SYNTAX, "name"))?,
    );
    let value = expr(
        it.next()
            .ok_or_else(|| Diag::error(codes::PARSE_SYNTAX, "value"))?,
        src,
    )?;
    Ok(if is_param {
        Item::Param(name, value)
    } else {
        Item::Set(name, value)
    })
}

/// `metric` or `criterion` (group-relative): name, parameters, label,
/// direction, body, citation, and the doc comment before it.
fn metric(p: Pair<Rule>, src: &Source, sp: Span) -> Result<Item, Diag> {
    let group_relative = p.as_rule() == Rule::criterion;
    let doc = doc_before(src, sp.start);
    let mut name = None;
    let mut params = Vec::new();
    let mut label = None;
    let mut body = None;
    let mut cite_s = None;
    let mut better = None;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::kw_metric | Rule::kw_criterion => {}
            Rule::ident => name = Some(ident(c)),
            Rule::param_list => params = c.into_inner().map(ident).collect(),
            Rule::string => label = Some(string(c)),
            Rule::better => {
                let at = span_of(&c);
                let dir = match c.into_inner().next().map(|k| k.as_rule()) {
                    Some(Rule::kw_lower) => Direction::Asc,
                    _ => Direction::Desc,
                };
                better = Some((dir, at));
            }
            Rule::expr => body = Some(expr(c, src)?),
            Rule::cite => cite_s = c.into_inner().nth(1).map(string),
            _ => return Err(bad(&c, src, "token in a definition")),
        }
    }
    match (name, body) {
        (Some(name), Some(body)) => Ok(Item::Metric(MetricDef {
            name,
            params,
            label,
            better,
            body,
            cite: cite_s,
            doc,
            group_relative,
            span: sp,
        })),
        _ => Err(Diag::error(codes::PARSE_SYNTAX, "incomplete definition").at(src, sp, "here")),
    }
}

/// `reads [participant|event|round] NAME [?? DEFAULT]`, with its citation
/// and the doc comment before it.
fn reads(p: Pair<Rule>, src: &Source, sp: Span) -> Result<Item, Diag> {
    let doc = doc_before(src, sp.start);
    let mut kind = DataKind::Round;
    let mut name = None;
    let mut default = None;
    let mut cite_s = None;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::kw_reads => {}
            Rule::read_kind => {
                kind = match c.as_str() {
                    "participant" => DataKind::Participant,
                    "event" => DataKind::Event,
                    _ => DataKind::Round,
                }
            }
            Rule::field_name => name = Some(ident(c)),
            Rule::read_default => {
                let n = c.into_inner().nth(1);
                let text = n.as_ref().map(|n| n.as_str()).unwrap_or("");
                let (neg, digits) = match text.strip_prefix('-') {
                    Some(d) => (true, d),
                    None => (false, text),
                };
                let v = Num::parse(digits)
                    .and_then(|v| if neg { v.neg().ok() } else { Some(v) })
                    .ok_or_else(|| {
                        Diag::error(
                            codes::PARSE_BAD_NUMBER,
                            format!("`{text}` is not a number tb can hold exactly"),
                        )
                        .at(src, sp, "here")
                        .with_help("numbers may have at most 18 significant digits (exact fractions of 64-bit integers)")
                    })?;
                default = Some(v);
            }
            Rule::cite => cite_s = c.into_inner().nth(1).map(string),
            _ => return Err(bad(&c, src, "token in a `reads` line")),
        }
    }
    let name = name.ok_or_else(|| {
        Diag::error(codes::PARSE_SYNTAX, "`reads` needs a value name").at(src, sp, "here")
    })?;
    Ok(Item::Reads(ReadDecl {
        kind,
        name,
        default,
        cite: cite_s,
        doc,
        span: sp,
    }))
}

fn procedure(p: Pair<Rule>, src: &Source) -> Result<ProcDef, Diag> {
    let sp = span_of(&p);
    let doc = doc_before(src, sp.start);
    let mut name = None;
    let mut cite_s = None;
    let mut default_then = None;
    let mut steps = Vec::new();
    let mut codes_at = Vec::new();
    let mut remaining = None;
    let mut end = None;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::kw_procedure => {}
            Rule::ident => name = Some(ident(c)),
            Rule::cite => cite_s = cite(c),
            Rule::default_then => default_then = c.into_inner().nth(1).map(|h| handoff(h)),
            Rule::step => steps.push(step(c, src)?),
            Rule::codes_ref => codes_at.push((steps.len(), declarations::codes_ref(c))),
            Rule::remaining => remaining = Some((steps.len(), span_of(&c))),
            Rule::end_clause => end = Some(end_clause(c)),
            _ => return Err(bad(&c, src, "token in a procedure")),
        }
    }
    let name = name.ok_or_else(|| {
        Diag::error(codes::PARSE_SYNTAX, "procedure needs a name").at(src, sp, "here")
    })?;
    Ok(ProcDef {
        codes: codes_at,
        remaining,
        name,
        cite: cite_s,
        default_then,
        steps,
        end,
        doc,
        span: sp,
    })
}

fn cite(p: Pair<Rule>) -> Option<String> {
    p.into_inner().nth(1).map(string)
}

fn step(p: Pair<Rule>, src: &Source) -> Result<Step, Diag> {
    let sp = span_of(&p);
    let doc = doc_before(src, sp.start);
    let mut e = None;
    let mut dir = None;
    let mut st = Step {
        expr: Expr {
            kind: ExprKind::Bool(false),
            span: sp,
        },
        dir,
        select: None,
        when: None,
        then: None,
        label: None,
        decimals: None,
        cite: None,
        doc,
        span: sp,
        places: false,
        file: None,
    };
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::kw_step => {}
            Rule::places => st.places = true,
            Rule::expr => e = Some(expr(c, src)?),
            Rule::direction => {
                let at = span_of(&c);
                let d = match c.into_inner().next().map(|k| k.as_rule()) {
                    Some(Rule::kw_asc) => StepDir::Given(Direction::Asc),
                    Some(Rule::kw_reversed) => StepDir::Reversed,
                    _ => StepDir::Given(Direction::Desc),
                };
                dir = Some((d, at));
            }
            Rule::select => {
                st.select = match c.into_inner().nth(1).map(|k| k.as_rule()) {
                    Some(Rule::kw_worst) => Some(Select::Worst),
                    _ => Some(Select::Best),
                }
            }
            Rule::when => {
                if let Some(x) = c.into_inner().nth(1) {
                    st.when = Some(expr(x, src)?);
                }
            }
            Rule::then => st.then = c.into_inner().nth(1).map(handoff),
            Rule::label => st.label = c.into_inner().nth(1).map(string),
            Rule::decimals => {
                let d = c.into_inner().nth(1);
                let v = d.as_ref().and_then(|d| d.as_str().parse::<u32>().ok());
                match v {
                    Some(v) if v <= 12 => st.decimals = Some(v),
                    _ => {
                        let at = d.map(|d| span_of(&d)).unwrap_or(sp);
                        return Err(Diag::error(
                            codes::PARSE_BAD_DECIMALS,
                            "decimals must be 0 to 12",
                        )
                        .at(src, at, "here")
                        .with_help("write e.g. `decimals 2`"));
                    }
                }
            }
            Rule::cite => st.cite = cite(c),
            _ => return Err(bad(&c, src, "token in a step")),
        }
    }
    st.dir = dir;
    st.expr = e.ok_or_else(|| {
        Diag::error(codes::PARSE_SYNTAX, "step needs a value").at(src, sp, "here")
    })?;
    Ok(st)
}

fn handoff(p: Pair<Rule>) -> Handoff {
    let mut cases = Vec::new();
    let mut otherwise = None;
    let mut single = None;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::size_case => {
                let mut it = c.into_inner().skip(1);
                let n = it
                    .next()
                    .and_then(|n| n.as_str().parse::<usize>().ok())
                    .unwrap_or(0);
                if let Some(a) = it.next() {
                    cases.push((n, action(a)));
                }
            }
            Rule::else_case => otherwise = c.into_inner().nth(1).map(action),
            Rule::action => single = Some(action(c)),
            _ => {}
        }
    }
    match single {
        Some(a) => Handoff::Always(a),
        None => Handoff::BySize(cases, otherwise),
    }
}

fn action(p: Pair<Rule>) -> Action {
    match p.into_inner().next() {
        Some(c) => match c.as_rule() {
            Rule::kw_restart => Action::Restart,
            Rule::kw_repeat => Action::Repeat,
            Rule::ident => Action::Proc(ident(c)),
            _ => Action::Continue,
        },
        None => Action::Continue,
    }
}

fn end_clause(p: Pair<Rule>) -> End {
    let sp = span_of(&p);
    let mut kind = EndKind::Shared;
    let mut cite_s = None;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::end_kind => {
                let mut it = c.into_inner();
                kind = match it.next().map(|k| k.as_rule()) {
                    Some(Rule::kw_lots) => EndKind::Lots,
                    Some(Rule::kw_unresolved) => {
                        EndKind::Unresolved(it.next().map(string).unwrap_or_default())
                    }
                    _ => EndKind::Shared,
                };
            }
            Rule::cite => cite_s = cite(c),
            _ => {}
        }
    }
    End {
        kind,
        cite: cite_s,
        span: sp,
    }
}

fn ident(p: Pair<Rule>) -> Ident {
    Ident {
        name: p.as_str().to_string(),
        span: span_of(&p),
    }
}

fn string(p: Pair<Rule>) -> String {
    let inner = p.into_inner().next().map(|i| i.as_str()).unwrap_or("");
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(o) => out.push(o),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn expr(p: Pair<Rule>, src: &Source) -> Result<Expr, Diag> {
    // Each operand carries the depth of the operator tree built over it, so
    // a long chain (`1 + 1 + ... + 1`) is refused before it grows deep.
    type Built = Result<(Expr, usize), Diag>;
    pratt()
        .map_primary(|prim| -> Built { postfixed(prim, src).map(|e| (e, 1)) })
        .map_prefix(|op, rhs: Built| -> Built {
            let (rhs, d) = rhs?;
            let span = span_of(&op).join(rhs.span);
            if d >= MAX_EXPR_DEPTH {
                return Err(chain_too_deep(src, span_of(&op)));
            }
            let o = if op.as_rule() == Rule::op_not {
                UnOp::Not
            } else {
                UnOp::Neg
            };
            Ok((
                Expr {
                    kind: ExprKind::Unary(o, Box::new(rhs)),
                    span,
                },
                d + 1,
            ))
        })
        .map_infix(|lhs: Built, op, rhs: Built| -> Built {
            let ((lhs, dl), (rhs, dr)) = (lhs?, rhs?);
            if dl.max(dr) >= MAX_EXPR_DEPTH {
                return Err(chain_too_deep(src, span_of(&op)));
            }
            let o = match op.as_rule() {
                Rule::op_coalesce => BinOp::Coalesce,
                Rule::op_or => BinOp::Or,
                Rule::op_and => BinOp::And,
                Rule::op_eq => BinOp::Eq,
                Rule::op_ne => BinOp::Ne,
                Rule::op_lt => BinOp::Lt,
                Rule::op_le => BinOp::Le,
                Rule::op_gt => BinOp::Gt,
                Rule::op_ge => BinOp::Ge,
                Rule::op_in => BinOp::In,
                Rule::op_add => BinOp::Add,
                Rule::op_sub => BinOp::Sub,
                Rule::op_mul => BinOp::Mul,
                Rule::op_rem => BinOp::Rem,
                _ => BinOp::Div,
            };
            let span = lhs.span.join(rhs.span);
            Ok((
                Expr {
                    kind: ExprKind::Binary(o, Box::new(lhs), Box::new(rhs)),
                    span,
                },
                dl.max(dr) + 1,
            ))
        })
        .parse(p.into_inner())
        .map(|(e, _)| e)
}

fn postfixed(p: Pair<Rule>, src: &Source) -> Result<Expr, Diag> {
    let mut it = p.into_inner();
    let first = it
        .next()
        .ok_or_else(|| Diag::error(codes::PARSE_SYNTAX, "empty operand"))?;
    let mut e = primary(first, src)?;
    for (n, post) in it.enumerate() {
        let sp = span_of(&post);
        if n >= MAX_EXPR_DEPTH {
            return Err(chain_too_deep(src, sp));
        }
        let mut pi = post.into_inner();
        let name = match pi.next() {
            Some(n) => ident(n),
            None => continue,
        };
        let args = match pi.next() {
            Some(a) => Some(args(a.into_inner(), src)?),
            None => None,
        };
        let span = e.span.join(sp);
        e = Expr {
            kind: ExprKind::Field(Box::new(e), name, args),
            span,
        };
    }
    Ok(e)
}

fn args(ps: Pairs<Rule>, src: &Source) -> Result<Vec<Expr>, Diag> {
    ps.filter(|p| matches!(p.as_rule(), Rule::expr | Rule::named_arg))
        .map(|p| arg(p, src))
        .collect()
}

/// One argument: a plain value, or `name: value`.
fn arg(p: Pair<Rule>, src: &Source) -> Result<Expr, Diag> {
    if p.as_rule() != Rule::named_arg {
        return expr(p, src);
    }
    let span = span_of(&p);
    let mut it = p.into_inner();
    match (it.next(), it.next()) {
        (Some(name), Some(value)) => Ok(Expr {
            kind: ExprKind::Named(ident(name), Box::new(expr(value, src)?)),
            span,
        }),
        _ => Err(Diag::error(codes::PARSE_SYNTAX, "incomplete argument").at(src, span, "here")),
    }
}

const AGGREGATES: &[&str] = &["sum", "mean", "count", "min", "max", "all", "any", "list"];

fn primary(p: Pair<Rule>, src: &Source) -> Result<Expr, Diag> {
    let span = span_of(&p);
    let kind = match p.as_rule() {
        Rule::number => ExprKind::Num(Num::parse(p.as_str()).ok_or_else(|| {
            Diag::error(codes::PARSE_BAD_NUMBER, "number too large to hold exactly")
                .at(src, span, "here")
                .with_help("numbers may have at most 18 significant digits (exact fractions of 64-bit integers)")
        })?),
        Rule::string => ExprKind::Str(string(p)),
        Rule::boolean => {
            ExprKind::Bool(p.into_inner().next().map(|k| k.as_rule()) == Some(Rule::kw_true))
        }
        Rule::infinity => ExprKind::Infinity,
        Rule::ident => ExprKind::Var(p.as_str().to_string()),
        Rule::paren => {
            let inner = p
                .into_inner()
                .next()
                .ok_or_else(|| Diag::error(codes::PARSE_SYNTAX, "empty brackets"))?;
            // The brackets belong to the operand: an expression ending in
            // one (`a / (b * c)`) spans to its `)` when quoted.
            let mut e = expr(inner, src)?;
            e.span = span;
            return Ok(e);
        }
        Rule::if_expr => {
            let mut es = Vec::new();
            for c in p.into_inner() {
                if c.as_rule() == Rule::expr {
                    es.push(expr(c, src)?);
                }
            }
            let mut es = es.into_iter();
            match (es.next(), es.next(), es.next()) {
                (Some(c), Some(a), Some(b)) => ExprKind::If(Box::new(c), Box::new(a), Box::new(b)),
                _ => {
                    return Err(
                        Diag::error(codes::PARSE_SYNTAX, "incomplete if").at(src, span, "here")
                    )
                }
            }
        }
        Rule::list_comp => ExprKind::List(generator(p.into_inner(), None, src)?),
        Rule::call => return call(p, src),
        _ => return Err(bad(&p, src, "operand")),
    };
    Ok(Expr { kind, span })
}

/// Build a generator from its parts; `elem` is given when already parsed.
fn generator<'a>(
    ps: impl Iterator<Item = Pair<'a, Rule>>,
    elem: Option<Expr>,
    src: &Source,
) -> Result<Generator, Diag> {
    let mut g = Generator {
        elem: Box::new(Expr {
            kind: ExprKind::Bool(false),
            span: Span::default(),
        }),
        fors: Vec::new(),
        cond: None,
        by: None,
        voluntary: None,
    };
    let mut have_elem = false;
    if let Some(e) = elem {
        g.elem = Box::new(e);
        have_elem = true;
    }
    for c in ps {
        match c.as_rule() {
            Rule::expr if !have_elem => {
                g.elem = Box::new(expr(c, src)?);
                have_elem = true;
            }
            Rule::for_clause => {
                if g.fors.len() >= MAX_LOOPS {
                    return Err(Diag::error(
                        codes::PARSE_TOO_DEEP,
                        format!("more than {MAX_LOOPS} `for` clauses in one aggregate or list"),
                    )
                    .at(src, span_of(&c), "one loop too many")
                    .with_help(
                        "loops nest and multiply; compute inner parts as metrics of their own",
                    ));
                }
                let mut it = c
                    .into_inner()
                    .filter(|x| x.as_rule() == Rule::ident || x.as_rule() == Rule::expr);
                if let (Some(v), Some(coll)) = (it.next(), it.next()) {
                    g.fors.push((ident(v), expr(coll, src)?));
                }
            }
            Rule::where_clause => g.cond = clause_expr(c, src)?,
            Rule::by_clause => g.by = clause_expr(c, src)?,
            Rule::voluntary_clause => g.voluntary = clause_expr(c, src)?,
            _ => {}
        }
    }
    Ok(g)
}

fn clause_expr(p: Pair<Rule>, src: &Source) -> Result<Option<Box<Expr>>, Diag> {
    match p.into_inner().find(|x| x.as_rule() == Rule::expr) {
        Some(e) => Ok(Some(Box::new(expr(e, src)?))),
        None => Ok(None),
    }
}

fn call(p: Pair<Rule>, src: &Source) -> Result<Expr, Diag> {
    let span = span_of(&p);
    let mut it = p.into_inner();
    let name = it
        .next()
        .map(ident)
        .ok_or_else(|| Diag::error(codes::PARSE_SYNTAX, "call"))?;
    let first = match it.next() {
        None => {
            return Ok(Expr {
                kind: ExprKind::Call(name, Vec::new()),
                span,
            })
        }
        Some(f) => arg(f, src)?,
    };
    let rest = it.next();
    let kind = match rest.as_ref().map(|r| r.as_rule()) {
        Some(Rule::generator_rest) => {
            let inner = rest
                .map(|r| r.into_inner().collect::<Vec<_>>())
                .unwrap_or_default();
            let g = generator(inner.into_iter(), Some(first), src)?;
            ExprKind::Aggregate(name, g)
        }
        Some(Rule::where_clause) => short_generator(name, first, rest, src)?,
        _ => {
            let mut all = vec![first];
            if let Some(r) = rest {
                all.extend(args(r.into_inner(), src)?);
            }
            // `count(r in rounds)`: an aggregate over a collection with no filter.
            if all.len() == 1 && AGGREGATES.contains(&name.name.as_str()) {
                if let ExprKind::Binary(BinOp::In, l, _) = &all[0].kind {
                    if matches!(l.kind, ExprKind::Var(_)) {
                        let only = all.pop().unwrap_or_else(|| unreachable_expr(span));
                        return Ok(Expr {
                            kind: short_generator(name, only, None, src)?,
                            span,
                        });
                    }
                }
            }
            ExprKind::Call(name, all)
        }
    };
    Ok(Expr { kind, span })
}

fn unreachable_expr(span: Span) -> Expr {
    Expr {
        kind: ExprKind::Bool(false),
        span,
    }
}

/// `agg(x in xs where cond)`: the element is the loop variable itself.
fn short_generator(
    name: Ident,
    first: Expr,
    cond: Option<Pair<Rule>>,
    src: &Source,
) -> Result<ExprKind, Diag> {
    let span = first.span;
    match first.kind {
        ExprKind::Binary(BinOp::In, var, coll) => {
            let v = match var.kind {
                ExprKind::Var(v) => Ident { name: v, span: var.span },
                _ => {
                    return Err(Diag::error(codes::PARSE_SYNTAX, "expected a variable before `in`")
                        .at(src, var.span, "not a name")
                        .with_help("write e.g. `count(r in rounds where r.played)`"))
                }
            };
            let cond = match cond {
                Some(c) => clause_expr(c, src)?,
                None => None,
            };
            Ok(ExprKind::Aggregate(
                name,
                Generator {
                    elem: Box::new(Expr {
                        kind: ExprKind::Var(v.name.clone()),
                        span: v.span,
                    }),
                    fors: vec![(v, *coll)],
                    cond,
                    by: None,
                    voluntary: None,
                },
            ))
        }
        _ => Err(Diag::error(codes::PARSE_SYNTAX, "`where` needs `x in collection` before it")
            .at(src, span, "here")
            .with_help("write e.g. `count(r in rounds where r.played)` or `sum(r.points for r in rounds where r.played)`")),
    }
}
