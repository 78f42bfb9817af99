//! `tb check --verbose`: a ruleset's procedures, step by step.

use crate::plan::Ruleset;
use std::fmt::Write as _;

/// The procedures of a ruleset, step by step: label, direction, hand-off,
/// article (`tb check --verbose`).
pub fn procedures(rs: &Ruleset) -> String {
    let mut out = String::new();
    for (pi, p) in rs.procs.iter().enumerate() {
        let _ = write!(out, "procedure {}", p.name);
        if rs.standings == Some(pi) {
            out.push_str(" (standings)");
        }
        if let Some(c) = &p.cite {
            let _ = write!(out, " [{c}]");
        }
        out.push('\n');
        for (si, st) in p.steps.iter().enumerate() {
            let _ = write!(out, "  {}. {}: {}", si + 1, st.label, st.dir.phrase());
            if st.reversed {
                out.push_str(" (reversed)");
            }
            match st.select {
                Some(crate::syntax::ast::Select::Best) => out.push_str(", unique best only"),
                Some(crate::syntax::ast::Select::Worst) => out.push_str(", unique worst only"),
                None => {}
            }
            if st.when.is_some() {
                out.push_str(", when a condition holds");
            }
            let action = |a: &crate::plan::PAction| match a {
                crate::plan::PAction::Continue => "continue".to_string(),
                crate::plan::PAction::Restart => "restart".to_string(),
                crate::plan::PAction::Repeat => "repeat".to_string(),
                crate::plan::PAction::Proc(q) => rs.procs[*q].name.clone(),
            };
            match &st.then {
                crate::plan::PHandoff::Always(crate::plan::PAction::Continue) => {}
                crate::plan::PHandoff::Always(a) => {
                    let _ = write!(out, ", then {}", action(a));
                }
                crate::plan::PHandoff::BySize(cases, other) => {
                    out.push_str(", then ");
                    for (n, a) in cases {
                        let _ = write!(out, "size {n} => {}, ", action(a));
                    }
                    let _ = write!(out, "else {}", action(other));
                }
            }
            if let Some(c) = &st.cite {
                let _ = write!(out, " [{c}]");
            }
            out.push('\n');
        }
        let end = match &p.end {
            crate::syntax::ast::EndKind::Shared => "shared".to_string(),
            crate::syntax::ast::EndKind::Lots => "lots".to_string(),
            crate::syntax::ast::EndKind::Unresolved(r) => format!("unresolved: {r}"),
        };
        let _ = write!(out, "  otherwise {end}");
        if let Some(c) = &p.end_cite {
            let _ = write!(out, " [{c}]");
        }
        out.push('\n');
    }
    // Labels and citations are the ruleset's text: shown on a terminal.
    crate::escape::visible_owned(out)
}
