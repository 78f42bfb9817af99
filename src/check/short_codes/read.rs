//! Reading one item of a list: its code looked up, each modifier read as its declaration says, and the diagnostics of every slip.

use super::{same_letter, Decls, Resolved};
use crate::codes;
use crate::diag::{Diag, Source};
use crate::num::Num;
use crate::syntax::ast::{ArgForm, Expr, ExprKind, ModifierDecl};
use crate::syntax::descriptors::{self, Descriptor};
use crate::text::clip;
use std::collections::HashMap;

use super::copy::{fold, lit_bool, lit_num, subst};

/// The code an item names: `BH:GP` when that is declared, else `BH`.
pub(super) fn code_name(d: &Decls, item: &Descriptor) -> String {
    match &item.qualifier {
        Some((q, _)) if d.code(&format!("{}:{q}", item.name)).is_some() => {
            format!("{}:{q}", item.name)
        }
        _ => item.name.clone(),
    }
}

/// The error for an item whose code no library declares.
pub(super) fn unknown_code(d: &Decls, src: &Source, item: &Descriptor) -> Diag {
    if let Some((base, m)) = item
        .name
        .split_once('-')
        .filter(|(b, _)| d.code(b).is_some())
    {
        return Diag::error(
            codes::DESCRIPTORS_UNKNOWN_CODE,
            format!("`{}` is written with a dash", clip(&item.name)),
        )
        .at(src, item.name_span, "a label, not a code with its modifier")
        .with_help(format!(
            "write the modifier after a slash: {}/{}",
            clip(base),
            clip(m)
        ));
    }
    let upper = item.name.to_ascii_uppercase();
    let distance = |c: &str| crate::text::edit_distance(&upper, &c.to_ascii_uppercase());
    let near = d
        .codes
        .iter()
        .map(|(_, c)| c.name.name.as_str())
        .filter(|c| !c.contains(':'))
        .min_by_key(|c| (distance(c), *c))
        .filter(|c| distance(c) <= 1)
        .map_or(String::new(), |c| format!("did you mean `{c}`? "));
    let help = if d.codes.is_empty() {
        "no library that declares codes is loaded: import one (e.g. `import \"fide/codes\"`)"
            .to_string()
    } else {
        format!("{near}the codes are: {}", d.names())
    };
    Diag::error(
        codes::DESCRIPTORS_UNKNOWN_CODE,
        format!(
            "`{}` is not a tie-break code of the loaded libraries",
            clip(&item.name)
        ),
    )
    .at(src, item.name_span, "unknown code")
    .with_help(help)
}

/// One modifier of item `t` (of code `name`): the declaration that reads
/// it and the value it gives its name. `seen`: the letters before it.
pub(super) fn read_modifier<'d>(
    d: &'d Decls,
    r: &Resolved,
    name: &str,
    t: &str,
    src: &Source,
    m: &descriptors::Modifier,
    seen: &[char],
) -> Result<(&'d ModifierDecl, Expr), Diag> {
    let l = m.letter;
    // The modifier as the messages quote it: cut short (`/C1111...`).
    let mtext = clip(&m.text);
    if !d.letter_known(l) {
        let mut letters: Vec<String> = d
            .modifiers
            .iter()
            .map(|(_, x)| format!("/{}", x.letter.to_ascii_uppercase()))
            .collect();
        letters.dedup();
        let help = if letters.is_empty() {
            "the loaded libraries declare no modifiers".to_string()
        } else {
            format!("modifiers are {}", letters.join(" "))
        };
        return Err(Diag::error(
            codes::DESCRIPTORS_UNKNOWN_MODIFIER,
            format!("`{t}`: tb does not support the modifier `/{}`", mtext),
        )
        .at(src, m.span, "unsupported modifier")
        .with_help(help));
    }
    let doc = |l: char| -> String {
        let docs: Vec<&str> = d
            .modifiers
            .iter()
            .filter(|(_, x)| same_letter(&x.letter, l) && !x.doc.is_empty())
            .map(|(_, x)| x.doc.as_str())
            .collect();
        docs.join(" ")
    };
    if !r.takes.iter().any(|x| same_letter(x, l)) {
        let takers: Vec<&str> = d
            .codes
            .iter()
            .filter(|(_, c)| c.takes.iter().any(|x| same_letter(&x.name, l)))
            .map(|(_, c)| c.name.name.as_str())
            .collect();
        let doc = doc(l);
        let takers = if takers.is_empty() {
            "no code".to_string()
        } else {
            takers.join(", ")
        };
        let help = if doc.is_empty() {
            format!("/{l} is taken by {takers}")
        } else {
            format!("{doc} /{l} is taken by {takers}")
        };
        return Err(Diag::error(
            codes::DESCRIPTORS_INVALID_COMBINATION,
            format!("`{t}`: {name} does not take `/{}`", mtext),
        )
        .at(src, m.span, format!("not a modifier of {name}"))
        .with_help(help));
    }
    let excludes = |x: &ModifierDecl, a: char, b: char| {
        same_letter(&x.letter, a) && x.excludes.as_deref().is_some_and(|e| same_letter(e, b))
    };
    let excluded = seen.iter().any(|&s| {
        d.modifiers
            .iter()
            .any(|(_, x)| excludes(x, l, s) || excludes(x, s, l))
    });
    if seen.contains(&l) || excluded {
        return Err(Diag::error(
            codes::DESCRIPTORS_INVALID_COMBINATION,
            format!("`{t}`: `/{}` repeats or contradicts an earlier modifier", mtext),
        )
        .at(src, m.span, "second cut or repeated modifier")
        .with_help("give each modifier once; Cut-n and Median-n do not combine (Median already cuts the lowest)"));
    }
    let form = if m.arg.is_empty() {
        None
    } else {
        arg_form(&m.arg)
    };
    let decl = d.modifiers.iter().find(|(_, x)| {
        same_letter(&x.letter, l)
            && x.form == form.map(|(f, _)| f)
            && (form.is_some() || m.arg.is_empty())
    });
    let Some((_, decl)) = decl else {
        let forms: Vec<String> = d
            .modifiers
            .iter()
            .filter(|(_, x)| same_letter(&x.letter, l))
            .map(|(_, x)| match x.form {
                None => format!("/{l} alone"),
                Some(f) => format!("/{l} with a {} number", f.words()),
            })
            .collect();
        let doc = doc(l);
        return Err(Diag::error(
            codes::DESCRIPTORS_BAD_VALUE,
            format!("`{t}`: cannot read `/{}`", mtext),
        )
        .at(src, m.span, format!("expected {}", forms.join(" or ")))
        .with_help(if doc.is_empty() {
            format!("write {}", forms.join(" or "))
        } else {
            doc
        }));
    };
    let value = form.map_or(Num::ZERO, |(_, v)| v);
    let mut vb = HashMap::new();
    vb.insert("value".to_string(), lit_num(value, m.span));
    if let Some(g) = &decl.guard {
        let g = fold(subst(g, &vb, &mut Vec::new()));
        if !matches!(g.kind, ExprKind::Bool(true)) {
            let help = if decl.doc.is_empty() {
                "see the modifier's declaration".to_string()
            } else {
                decl.doc.clone()
            };
            return Err(Diag::error(
                codes::DESCRIPTORS_BAD_VALUE,
                format!("`{t}`: `/{}` is outside what `/{l}` accepts", mtext),
            )
            .at(src, m.span, "out of range")
            .with_help(help));
        }
    }
    let v = match (&decl.value, decl.form) {
        (Some(e), _) => fold(subst(e, &vb, &mut Vec::new())),
        (None, None) => lit_bool(true, decl.name.span),
        (None, Some(_)) => lit_num(value, decl.name.span),
    };
    Ok((decl, v))
}

/// The form of a modifier's argument and its value: `1` whole, `-1`
/// signed whole, `2.5` decimal, `-1.5` signed decimal; None when
/// unreadable.
fn arg_form(arg: &str) -> Option<(ArgForm, Num)> {
    let (signed, neg, digits) = match arg.as_bytes().first()? {
        b'+' => (true, false, &arg[1..]),
        b'-' => (true, true, &arg[1..]),
        _ => (false, false, arg),
    };
    let (whole, frac) = match digits.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (digits, None),
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(whole) || frac.is_some_and(|f| !all_digits(f)) {
        return None;
    }
    let n = Num::parse(digits)?;
    let n = if neg { n.neg().ok()? } else { n };
    let form = match (signed, frac.is_some()) {
        (false, false) => ArgForm::Whole,
        (true, false) => ArgForm::SignedWhole,
        (false, true) => ArgForm::Decimal,
        (true, true) => ArgForm::SignedDecimal,
    };
    Some((form, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_forms() {
        assert_eq!(arg_form("1").map(|x| x.0), Some(ArgForm::Whole));
        assert_eq!(arg_form("-1").map(|x| x.0), Some(ArgForm::SignedWhole));
        assert_eq!(arg_form("+2.5").map(|x| x.0), Some(ArgForm::SignedDecimal));
        assert_eq!(arg_form("60.5").map(|x| x.0), Some(ArgForm::Decimal));
        assert_eq!(arg_form(""), None);
        assert_eq!(arg_form("1x"), None);
        assert_eq!(arg_form("-"), None);
        assert_eq!(arg_form("1."), None);
    }
}
