//! `table` declarations: the data file found through the caller's resolver (relative to the declaring file, as an import is), its rows read and checked, and `name(x)` resolved to a lookup.
//!
//! A table file holds `#` comments (to the end of the line), blank lines,
//! and rows `KEY VALUE` of exact numbers ([`Num::parse`]: `-800`, `0.05`,
//! `1/2`; never a float), KEY strictly increasing. Every problem is
//! reported with the row it is on, in the data file.

use super::exprs::Scope;
use super::{Checker, Resolve, Unresolved, MAX_ERRORS};
use crate::codes;
use crate::diag::{Diag, Source, Span};
use crate::num::Num;
use crate::plan::*;
use crate::syntax::ast::{self, ExprKind, FileId};

impl Checker {
    /// Register table `t` of file `fid`, its rows read from its data file.
    /// A table whose file cannot be read is still registered (with no
    /// rows), so that its uses are not reported as unknown names.
    pub(super) fn declare_table(
        &mut self,
        fid: FileId,
        t: &ast::TableDecl,
        resolver: &dyn Resolve,
    ) {
        if !self.define(fid, &t.name, true) {
            return;
        }
        let (data, rows) = match resolver.lookup(&t.file, &self.files[fid]) {
            Ok(src) => {
                let (rows, errors) = read_rows(&src, &t.name.name);
                if errors.is_empty() && rows.is_empty() {
                    self.err(
                        fid,
                        t.file_span,
                        codes::CHECK_TABLE_ROW,
                        format!("table `{}`: {} has no rows", t.name.name, src.name),
                        "no rows",
                        "write one row per line: a key and its value (`0.50  0`), keys increasing",
                    );
                }
                self.errors.extend(errors);
                (src.name, rows)
            }
            Err(Unresolved {
                code: Some(code),
                message,
                help,
            }) => {
                let msg = format!("table `{}`: {message}", t.name.name);
                self.err(fid, t.file_span, code, msg, "refused", &help);
                (t.file.clone(), Vec::new())
            }
            Err(Unresolved { message: msg, .. }) => {
                self.err(
                    fid,
                    t.file_span,
                    codes::CHECK_UNKNOWN_TABLE_FILE,
                    format!("table `{}`: cannot find `{}` ({msg})", t.name.name, t.file),
                    "cannot find this",
                    "a table's file is found as an import is: relative to the declaring file, or among the shipped files",
                );
                (t.file.clone(), Vec::new())
            }
        };
        self.table_ix.insert(t.name.name.clone(), self.tables.len());
        self.tables.push(Table {
            name: t.name.name.clone(),
            data,
            rows,
            cite: t.cite.clone(),
            doc: t.doc.clone(),
            file: fid,
            span: t.name.span,
        });
    }

    /// `name(args)` where `name` is table `id`: one value, by position.
    pub(super) fn table_call(
        &mut self,
        id: TableId,
        name: &ast::Ident,
        args: &[ast::Expr],
        call: Span,
        sc: &mut Scope,
    ) -> PKind {
        let f = sc.file;
        for a in args {
            if let ExprKind::Named(n, _) = &a.kind {
                self.err(
                    f,
                    n.span,
                    codes::CHECK_UNKNOWN_ARGUMENT,
                    format!("`{}` is a table: its value has no name", name.name),
                    "named argument",
                    &format!("write `{}(x)`", name.name),
                );
            }
        }
        let mut vals = self.arg_values(args, sc);
        if vals.len() != 1 {
            self.err(
                f,
                call,
                codes::CHECK_ARITY,
                format!(
                    "`{}` is a table: it takes 1 argument, not {}",
                    name.name,
                    vals.len()
                ),
                "wrong number of arguments",
                &format!("look the table up at one value, `{}(x)`", name.name),
            );
        }
        match vals.pop() {
            Some(x) if vals.is_empty() => PKind::Table(id, Box::new(x)),
            _ => PKind::Bool(false),
        }
    }

    /// A table's name used as a value, not looked up.
    pub(super) fn table_as_value(&mut self, name: &str, span: Span, file: FileId) -> PKind {
        self.err(
            file,
            span,
            codes::CHECK_ARITY,
            format!("`{name}` is a table, not a value or a metric: look it up at a value"),
            "a table",
            &format!("write `{name}(x)`: the value of its last row whose key is at most x"),
        );
        PKind::Bool(false)
    }
}

/// The rows of table `name`'s data file `src`, and the problems found in it
/// (each pointing at its row; at most [`MAX_ERRORS`]).
fn read_rows(src: &Source, name: &str) -> (Vec<(Num, Num)>, Vec<Diag>) {
    let mut rows: Vec<(Num, Num)> = Vec::new();
    let mut errors = Vec::new();
    let mut previous: Option<(usize, Num)> = None;
    let mut start = 0;
    for (i, line) in src.text.split_inclusive('\n').enumerate() {
        let offset = start;
        start += line.len();
        let content = line.split('#').next().unwrap_or("");
        let text = content.trim();
        if text.is_empty() {
            continue;
        }
        if errors.len() >= MAX_ERRORS {
            break;
        }
        let at = offset + (content.len() - content.trim_start().len());
        let span = Span::new(at, at + text.len());
        let fields: Vec<&str> = text.split_whitespace().collect();
        let (key, value) = match fields.as_slice() {
            [k, v] => (Num::parse(k), Num::parse(v)),
            _ => (None, None),
        };
        let (Some(key), Some(value)) = (key, value) else {
            errors.push(
                Diag::error(
                    codes::CHECK_TABLE_ROW,
                    format!("table `{name}`: row `{text}` is not a key and a value"),
                )
                .at(src, span, "cannot read this row")
                .with_help(
                    "a row is two exact numbers, the key and its value (`0.05  -470`, `1/2  0`); `#` starts a comment",
                ),
            );
            continue;
        };
        if let Some((line_before, before)) = previous {
            if key <= before {
                errors.push(
                    Diag::error(
                        codes::CHECK_TABLE_ORDER,
                        format!(
                            "table `{name}`: key {key} is not above the key before it ({before}, line {line_before})"
                        ),
                    )
                    .at(src, span, "key out of order")
                    .with_help(
                        "keys increase strictly from row to row: the value of a key holds up to the next one",
                    ),
                );
            }
        }
        previous = Some((i + 1, key));
        rows.push((key, value));
    }
    (rows, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Num {
        Num::parse(s).unwrap()
    }

    #[test]
    fn rows_comments_and_blank_lines() {
        let src = Source::new(
            "t.txt",
            "# a table\n\n0 1  # first\n  1/2  -2\r\n0.75 3.5\n",
        );
        let (rows, errors) = read_rows(&src, "t");
        assert!(errors.is_empty());
        assert_eq!(
            rows,
            vec![(n("0"), n("1")), (n("1/2"), n("-2")), (n("0.75"), n("3.5"))]
        );
    }

    #[test]
    fn bad_rows_and_order_point_at_their_row() {
        let src = Source::new("t.txt", "0 1\n2 x\n0 5\n1 6 7\n");
        let (_, errors) = read_rows(&src, "t");
        let got: Vec<(&str, &str)> = errors
            .iter()
            .map(|d| {
                let (sp, _) = d.labels[0];
                (d.code, &src.text[sp.start..sp.end])
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (codes::CHECK_TABLE_ROW, "2 x"),
                (codes::CHECK_TABLE_ORDER, "0 5"),
                (codes::CHECK_TABLE_ROW, "1 6 7"),
            ]
        );
    }
}
