//! The declarations of short codes: `modifier`, `code`, `qualifier`, `codes`, and a list of codes written in a ruleset.

use super::{
    bad, cite, doc_before, end_clause, expr, ident, procedure, span_of, step, string, Rule,
};
use crate::codes;
use crate::diag::{Diag, Source, Span};
use crate::syntax::ast::*;
use pest::iterators::Pair;

/// `qualifier "MP" cite "..."`.
pub(super) fn qualifier(p: Pair<Rule>, sp: Span) -> Item {
    let mut it = p.into_inner().skip(1);
    let name = it.next().map(string).unwrap_or_default();
    let cite_s = it.next().and_then(cite);
    Item::Qualifier(name, cite_s, sp)
}

/// `codes "Title" source "..." primary "PTS" newer cite "..." cite "..." otherwise ...`.
pub(super) fn code_list(p: Pair<Rule>, src: &Source, sp: Span) -> Result<Item, Diag> {
    let mut title = String::new();
    let mut source = None;
    let mut cite_s = None;
    let mut end = None;
    let mut primary = Vec::new();
    let mut newer = None;
    let mut default = false;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::kw_codes => {}
            Rule::list_source => source = c.into_inner().nth(1).map(string),
            Rule::list_primary => primary = c.into_inner().skip(1).map(quoted).collect(),
            Rule::list_default => default = true,
            Rule::list_newer => newer = c.into_inner().nth(1).and_then(cite),
            Rule::string => title = string(c),
            Rule::cite => cite_s = cite(c),
            Rule::end_clause => end = Some(end_clause(c)),
            _ => return Err(bad(&c, src, "token in a `codes` line")),
        }
    }
    let end = end.ok_or_else(|| {
        Diag::error(codes::PARSE_SYNTAX, "`codes` needs `otherwise ...`").at(src, sp, "here")
    })?;
    Ok(Item::CodeList(CodeListDecl {
        title,
        source,
        primary,
        newer,
        default,
        cite: cite_s,
        end,
        span: sp,
    }))
}

/// `with a = 1, b = true`.
pub(super) fn bindings(p: Pair<Rule>, src: &Source) -> Result<Vec<(Ident, Expr)>, Diag> {
    let mut out = Vec::new();
    for b in p.into_inner().filter(|b| b.as_rule() == Rule::binding) {
        let mut it = b.into_inner();
        if let (Some(n), Some(e)) = (it.next(), it.next()) {
            out.push((ident(n), expr(e, src)?));
        }
    }
    Ok(out)
}

/// A quoted name (`"BH"`), with the span of its text inside the quotes.
pub(super) fn quoted(s: Pair<Rule>) -> Ident {
    let at = span_of(&s);
    Ident {
        name: string(s),
        span: Span::new(at.start + 1, at.end.saturating_sub(1)),
    }
}

/// `codes "..."`: the list, with the span of its text inside the quotes.
pub(super) fn codes_ref(p: Pair<Rule>) -> CodesRef {
    let s = p.into_inner().nth(1);
    let (list, span) = match s {
        Some(s) => {
            let at = span_of(&s);
            (string(s), Span::new(at.start + 1, at.end.saturating_sub(1)))
        }
        None => (String::new(), Span::new(0, 0)),
    };
    CodesRef { list, span }
}

/// `modifier "C" whole cut where ... default ... excludes "M" cite "..."`.
pub(super) fn modifier(p: Pair<Rule>, src: &Source) -> Result<Item, Diag> {
    let sp = span_of(&p);
    let doc = doc_before(src, sp.start);
    let mut letter = String::new();
    let mut form = None;
    let mut name = None;
    let mut value = None;
    let mut guard = None;
    let mut default = None;
    let mut excludes = None;
    let mut cite_s = None;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::kw_modifier => {}
            Rule::string => letter = string(c),
            Rule::mod_form => {
                let words: Vec<Rule> = c.into_inner().map(|w| w.as_rule()).collect();
                let signed = words.contains(&Rule::kw_signed);
                let decimal = words.contains(&Rule::kw_decimal);
                form = Some(match (signed, decimal) {
                    (false, false) => ArgForm::Whole,
                    (true, false) => ArgForm::SignedWhole,
                    (false, true) => ArgForm::Decimal,
                    (true, true) => ArgForm::SignedDecimal,
                });
            }
            Rule::ident => name = Some(ident(c)),
            Rule::expr => value = Some(expr(c, src)?),
            Rule::mod_where => guard = c.into_inner().nth(1).map(|x| expr(x, src)).transpose()?,
            Rule::mod_default => {
                default = c.into_inner().nth(1).map(|x| expr(x, src)).transpose()?
            }
            Rule::mod_excludes => excludes = c.into_inner().nth(1).map(string),
            Rule::cite => cite_s = cite(c),
            _ => return Err(bad(&c, src, "token in a `modifier` line")),
        }
    }
    let name = name.ok_or_else(|| {
        Diag::error(codes::PARSE_SYNTAX, "`modifier` needs the name it sets").at(src, sp, "here")
    })?;
    Ok(Item::Modifier(ModifierDecl {
        letter,
        form,
        name,
        value,
        guard,
        default,
        excludes,
        cite: cite_s,
        doc,
        span: sp,
    }))
}

/// `code "BH" takes "C" since 2026 primary cite "..." { ... }` or `... means "X" with a = 1`.
pub(super) fn code(p: Pair<Rule>, src: &Source) -> Result<Item, Diag> {
    let sp = span_of(&p);
    let doc = doc_before(src, sp.start);
    let mut name = None;
    let mut takes = Vec::new();
    let mut since = None;
    let mut with = Vec::new();
    let mut cite_s = None;
    let mut body = None;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::kw_code => {}
            Rule::string => name = Some(quoted(c)),
            Rule::code_takes => takes = c.into_inner().skip(1).map(quoted).collect(),
            Rule::code_since => {
                let at = span_of(&c);
                let y = c.into_inner().nth(1).map(|y| y.as_str().parse::<u32>());
                match y {
                    Some(Ok(y)) => since = Some(y),
                    _ => {
                        return Err(Diag::error(
                            codes::PARSE_SYNTAX,
                            "an edition is a year, such as 2026",
                        )
                        .at(src, at, "here"))
                    }
                }
            }
            Rule::cite => cite_s = cite(c),
            Rule::code_body => {
                let mut steps = Vec::new();
                let mut procs = Vec::new();
                for b in c.into_inner() {
                    match b.as_rule() {
                        Rule::step => steps.push(step(b, src)?),
                        Rule::procedure => procs.push(procedure(b, src)?),
                        _ => return Err(bad(&b, src, "token in a code")),
                    }
                }
                body = Some(CodeBody::Steps(steps, procs));
            }
            Rule::code_with => with = bindings(c, src)?,
            Rule::code_means => {
                let mut target = None;
                let mut with = Vec::new();
                for m in c.into_inner() {
                    match m.as_rule() {
                        Rule::string => target = Some(quoted(m)),
                        Rule::code_with => with = bindings(m, src)?,
                        _ => {}
                    }
                }
                let target = target.ok_or_else(|| {
                    Diag::error(codes::PARSE_SYNTAX, "`means` needs a code").at(src, sp, "here")
                })?;
                body = Some(CodeBody::Means(target, with));
            }
            _ => return Err(bad(&c, src, "token in a `code` declaration")),
        }
    }
    let (Some(name), Some(body)) = (name, body) else {
        return Err(
            Diag::error(codes::PARSE_SYNTAX, "`code` needs a name and a body").at(src, sp, "here"),
        );
    };
    Ok(Item::Code(CodeDecl {
        name,
        takes,
        since,
        with,
        cite: cite_s,
        body,
        doc,
        span: sp,
    }))
}
