//! An HTML page with one table (`--format html`).

use super::cells::Cells;
use super::notes::undefined_notes;
use super::{title, Meta};
use crate::model::Event;
use crate::plan::Ruleset;
use crate::rank::Standings;

pub(super) fn html(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) -> String {
    let cells = Cells::new(s, event);
    let mut out = String::with_capacity(1024 + cells.text.len() + 9 * cells.bounds.len());
    out.push_str("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
    push_html(&mut out, &event.name);
    out.push_str("</title></head><body>\n<h1>");
    push_html(&mut out, &event.name);
    out.push_str("</h1>\n<p>");
    push_html(&mut out, title(rs, meta));
    out.push_str("</p>\n<table>\n<thead><tr>");
    for h in cells.row(0) {
        out.push_str("<th>");
        push_html(&mut out, h);
        out.push_str("</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for r in 1..cells.len() {
        out.push_str("<tr>");
        for c in cells.row(r) {
            out.push_str("<td>");
            push_html(&mut out, c);
            out.push_str("</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    let undefined = undefined_notes(s, event);
    if !undefined.is_empty() {
        out.push_str("<p>Undefined values:</p>\n<ul>\n");
        for l in &undefined {
            out.push_str("<li>");
            push_html(&mut out, l);
            out.push_str("</li>\n");
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</body></html>\n");
    out
}

pub(super) fn push_html(out: &mut String, text: &str) {
    if !text.bytes().any(|b| matches!(b, b'&' | b'<' | b'>' | b'"')) {
        out.push_str(text);
        return;
    }
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}
