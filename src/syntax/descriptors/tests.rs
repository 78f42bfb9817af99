//! The list syntax: items, qualifiers, modifiers and their spans.
use super::*;

fn list(s: &str) -> Result<Vec<Descriptor>, Vec<Diag>> {
    parse_list(&Source::new("--tiebreaks", s), None)
}

#[test]
fn splits_items_qualifiers_and_modifiers() {
    let l = list("PTS, bh/c1,SB:GP/M1 ,KS/L-1.5").expect("a list");
    assert_eq!(l.len(), 4);
    assert_eq!(l[1].text, "bh/c1");
    assert_eq!(l[1].name, "bh");
    assert_eq!(l[1].modifiers[0].letter, 'C');
    assert_eq!(l[1].modifiers[0].arg, "1");
    assert_eq!(l[2].span, Span::new(11, 19));
    assert_eq!(l[2].qualifier, Some(("GP".to_string(), Span::new(13, 16))));
    assert_eq!(l[2].modifiers[0].span, Span::new(17, 19));
    assert_eq!(l[3].modifiers[0].arg, "-1.5");
}

#[test]
fn spans_point_into_the_enclosing_text() {
    let src = Source::new("r.tb", "procedure p { codes \"DE,BH/C1\" }");
    let at = src.text.find("DE").expect("list");
    let l = parse_list(&src, Some(Span::new(at, at + 8))).expect("a list");
    assert_eq!(&src.text[l[1].span.start..l[1].span.end], "BH/C1");
    assert_eq!(
        &src.text[l[1].modifiers[0].span.start..l[1].modifiers[0].span.end],
        "C1"
    );
}

#[test]
fn refuses_what_no_declaration_could_read() {
    let code = |s: &str| -> Vec<&'static str> {
        list(s)
            .err()
            .map(|es| es.iter().map(|d| d.code).collect())
            .unwrap_or_default()
    };
    assert_eq!(code(""), vec![codes::DESCRIPTORS_EMPTY]);
    assert_eq!(code("PTS,,BH"), vec![codes::DESCRIPTORS_EMPTY]);
    assert_eq!(code("BH/"), vec![codes::DESCRIPTORS_UNKNOWN_MODIFIER]);
    assert!(
        code("XYZ/Q9").is_empty(),
        "what a code means is the rulesets' to say"
    );
}
