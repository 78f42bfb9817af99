//! Limits on ruleset text and on the trees built from it: size, nesting,
//! prefix runs, expression depth and loops, checked before and after pest
//! parses, so that no input makes the parser, checker or evaluator recurse
//! too deep.

use crate::codes;
use crate::diag::{Diag, Source, Span};
use crate::syntax::ast::*;

/// Largest ruleset file accepted.
pub const MAX_FILE_BYTES: usize = 1 << 20;
/// Deepest nesting of brackets and `if`s accepted (the parser recurses on them).
pub const MAX_NESTING: usize = 48;
/// Deepest expression tree accepted (the checker and evaluator recurse on it):
/// operators, `.field` accesses, calls and `if`s all add a level.
pub const MAX_EXPR_DEPTH: usize = 100;
/// Longest run of prefix operators (`- - x`, `not not c`) accepted.
pub const MAX_PREFIX_RUN: usize = 16;
/// Most `for` clauses in one aggregate or list (loops nest and multiply).
pub const MAX_LOOPS: usize = 8;

/// Reject input the recursive parser should not see: too large, too deep.
pub(super) fn precheck(src: &Source) -> Result<(), Diag> {
    if src.text.len() > MAX_FILE_BYTES {
        return Err(Diag::error(
            codes::PARSE_TOO_LARGE,
            format!(
                "ruleset file is {} bytes; the limit is {MAX_FILE_BYTES}",
                src.text.len()
            ),
        )
        .in_source(src)
        .with_help("split it into libraries with `import`"));
    }
    nesting(src)?;
    // Long operator chains also recurse in the Pratt parser.
    let tokens = src.text.split_whitespace().count();
    if tokens > 200_000 {
        return Err(
            Diag::error(codes::PARSE_TOO_LARGE, "ruleset has too many tokens").in_source(src),
        );
    }
    Ok(())
}

/// Words that end an expression, closing the `if`s in it.
const ENDS_EXPRESSION: &[&str] = &[
    "metric",
    "criterion",
    "param",
    "set",
    "procedure",
    "step",
    "standings",
    "reads",
    "import",
    "title",
    "source",
    "edition",
    "when",
    "desc",
    "asc",
    "cite",
    "as",
    "decimals",
    "select",
    "otherwise",
    "for",
    "where",
    "by",
    "voluntary",
];

/// How deep the text being scanned nests, where it stands.
///
/// Brackets and `if`s nest in the grammar, and a run of prefix operators
/// recurses in the Pratt parser: bound them before pest sees the text.
/// An `if` nests everything after it up to the end of its expression, so
/// `ifs[k]` counts the `if`s open at bracket level k until the bracket
/// closes or a word or comma ends the expression.
struct Nesting {
    ifs: Vec<usize>,
    open_ifs: usize,
    prefix_run: usize,
}

impl Nesting {
    /// Whether brackets and `if`s now nest too deep.
    fn too_deep(&self) -> bool {
        self.ifs.len() - 1 + self.open_ifs > MAX_NESTING
    }

    /// A `-` or `not`: refused, with `help`, when the run of them is now
    /// too long.
    fn prefix(&mut self, help: &'static str) -> Result<(), &'static str> {
        self.prefix_run += 1;
        if self.prefix_run > MAX_PREFIX_RUN {
            return Err(help);
        }
        Ok(())
    }

    /// A comma or a word that ends the expression: its `if`s close.
    fn end_expression(&mut self) {
        let top = self.ifs.last_mut().map(std::mem::take).unwrap_or(0);
        self.open_ifs -= top;
    }
}

/// Bound the nesting of brackets and `if`s and the runs of prefix
/// operators (see [`Nesting`]), skipping strings and comments.
fn nesting(src: &Source) -> Result<(), Diag> {
    let too_deep = |at: usize, what: String, help: &str| {
        Diag::error(codes::PARSE_TOO_DEEP, what)
            .at(src, Span::new(at, at + 1), "too deep here")
            .with_help(help.to_string())
    };
    let nested = || format!("brackets and `if`s nest more than {MAX_NESTING} deep");
    let run = || format!("more than {MAX_PREFIX_RUN} `-` or `not` in a row");
    let mut n = Nesting {
        ifs: vec![0],
        open_ifs: 0,
        prefix_run: 0,
    };
    let mut in_str = false;
    let mut in_comment = false;
    let text = &*src.text;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if in_comment {
            in_comment = c != b'\n';
            i += 1;
            continue;
        }
        if in_str {
            match c {
                b'\\' => i += 1,
                b'"' | b'\n' => in_str = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => {
                in_str = true;
                n.prefix_run = 0;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => in_comment = true,
            b'(' | b'[' | b'{' => {
                n.ifs.push(0);
                n.prefix_run = 0;
                if n.too_deep() {
                    return Err(too_deep(
                        i,
                        nested(),
                        "name an inner part as its own metric",
                    ));
                }
            }
            b')' | b']' | b'}' => {
                if n.ifs.len() > 1 {
                    n.open_ifs -= n.ifs.pop().unwrap_or(0);
                }
                n.prefix_run = 0;
            }
            b',' => {
                n.end_expression();
                n.prefix_run = 0;
            }
            b'-' => n
                .prefix("remove the repeated signs; `- - x` is `x`")
                .map_err(|help| too_deep(i, run(), help))?,
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                match &text[start..i] {
                    "if" => {
                        n.prefix_run = 0;
                        if let Some(top) = n.ifs.last_mut() {
                            *top += 1;
                        }
                        n.open_ifs += 1;
                        if n.too_deep() {
                            return Err(too_deep(
                                start,
                                nested(),
                                "name an inner part as its own metric, or break the chain of `else if`s",
                            ));
                        }
                    }
                    "not" => n
                        .prefix("remove the repeated operators; `not not c` is `c`")
                        .map_err(|help| too_deep(start, run(), help))?,
                    word => {
                        n.prefix_run = 0;
                        if ENDS_EXPRESSION.contains(&word) {
                            n.end_expression();
                        }
                    }
                }
                continue;
            }
            c if !c.is_ascii_whitespace() => n.prefix_run = 0,
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// Refuse expression trees deeper than [`MAX_EXPR_DEPTH`] (walked with an
/// explicit stack: the tree may be deeper than is safe to recurse on).
pub(super) fn check_depth(items: &[Item], src: &Source) -> Result<(), Diag> {
    let mut stack: Vec<(&Expr, usize)> = Vec::new();
    for it in items {
        match it {
            Item::Param(_, e) | Item::Set(_, e) => stack.push((e, 1)),
            Item::Metric(m) => stack.push((&m.body, 1)),
            Item::Procedure(p) => {
                for s in &p.steps {
                    stack.push((&s.expr, 1));
                    if let Some(w) = &s.when {
                        stack.push((w, 1));
                    }
                }
            }
            _ => {}
        }
    }
    while let Some((e, d)) = stack.pop() {
        if d > MAX_EXPR_DEPTH {
            return Err(Diag::error(
                codes::PARSE_TOO_DEEP,
                format!("an expression nests more than {MAX_EXPR_DEPTH} levels deep"),
            )
            .at(src, e.span, "too deep here")
            .with_help("split the expression into metrics of its own and combine them"));
        }
        match &e.kind {
            ExprKind::Num(_)
            | ExprKind::Str(_)
            | ExprKind::Bool(_)
            | ExprKind::Infinity
            | ExprKind::Var(_) => {}
            ExprKind::Field(b, _, args) => {
                stack.push((b, d + 1));
                for a in args.iter().flatten() {
                    stack.push((a, d + 1));
                }
            }
            ExprKind::Call(_, args) => stack.extend(args.iter().map(|a| (a, d + 1))),
            ExprKind::Aggregate(_, g) | ExprKind::List(g) => {
                stack.push((&g.elem, d + 1));
                stack.extend(g.fors.iter().map(|(_, c)| (c, d + 1)));
                for x in [&g.cond, &g.by, &g.voluntary].into_iter().flatten() {
                    stack.push((x, d + 1));
                }
            }
            ExprKind::If(a, b, c) => {
                stack.extend([(&**a, d + 1), (&**b, d + 1), (&**c, d + 1)]);
            }
            ExprKind::Unary(_, x) | ExprKind::Named(_, x) => stack.push((x, d + 1)),
            ExprKind::Binary(_, a, b) => stack.extend([(&**a, d + 1), (&**b, d + 1)]),
        }
    }
    Ok(())
}

/// A chain of operators too long for the checker and evaluator to recurse on.
pub(super) fn chain_too_deep(src: &Source, span: Span) -> Diag {
    Diag::error(
        codes::PARSE_TOO_DEEP,
        format!("an expression nests more than {MAX_EXPR_DEPTH} operators deep"),
    )
    .at(src, span, "too deep here")
    .with_help("split the expression into metrics of its own and combine them")
}
