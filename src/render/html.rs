//! A self-contained HTML page of the standings (`--format html`): one file,
//! no external assets (the style is inline), readable on a phone, printable.
//!
//! The page: the event, the ruleset's title, the regulation it implements
//! (with the edition where the ruleset names one), the ruleset's name, the
//! notes, the lots seed; then the table (rank, `=` where shared; the
//! participant, marked where withdrawn; the columns some tie reached, as in
//! the text table; what decided each place), each tied group followed by a
//! `<details>` row holding `tb explain`'s account of that group; under it
//! the criteria, the steps not shown, the withdrawn and the undefined values.
//! On a narrow screen each row becomes a card (labels from `data-label`); in
//! print the explanations left closed are left out.

use super::cells::Cells;
use super::explain::{account, ExplainOptions};
use super::explain_text::explain_text_from;
use super::notes::undefined_notes;
use super::{after_round, criterion_note, hidden_columns, title, withdrew_when, Inputs, Report};
use crate::model::{Event, Pid};
use crate::plan::Ruleset;
use crate::rank::{Outcome, Standings};
use std::fmt::Write as _;

/// The page's style: system fonts, tabular figures, a tint on tied rows; a
/// card per row below 40em; black on white without tints in print.
const STYLE: &str = "\
:root{--ink:#1b1f24;--muted:#59636e;--line:#d8dde3;--tie:#fdf6e3;--accent:#1f5f99}
*{box-sizing:border-box}
body{margin:0 auto;max-width:76rem;padding:1.5rem 1rem 2rem;font:15px/1.45 system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",Arial,sans-serif;color:var(--ink);background:#fff}
h1{font-size:1.6rem;line-height:1.2;margin:0 0 .25rem}
h2{font-size:1rem;margin:1.5rem 0 .4rem}
.subtitle{margin:0 0 .75rem;font-size:1.1rem;color:var(--muted)}
dl.meta{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.1rem .9rem;margin:0 0 1rem;font-size:.9rem}
dl.meta dt{color:var(--muted)}
dl.meta dd{margin:0;overflow-wrap:anywhere}
p.note{margin:.25rem 0;font-size:.9rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:.35rem .6rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{font-size:.78rem;font-weight:600;text-transform:uppercase;letter-spacing:.03em;color:var(--muted);border-bottom:2px solid var(--ink);white-space:nowrap}
th.num,td.num{text-align:right;white-space:nowrap}
td.rank{font-weight:600;white-space:nowrap}
td.name{overflow-wrap:anywhere}
td.name .id{color:var(--muted);font-size:.85em}
td.by{font-size:.9rem;color:var(--muted)}
.mark{display:inline-block;margin-left:.4rem;padding:0 .35rem;border:1px solid var(--muted);border-radius:.6rem;font-size:.75rem;color:var(--muted);white-space:nowrap}
tr.tied{background:var(--tie)}
tr.why td{padding:0 .6rem .5rem}
details>summary{cursor:pointer;color:var(--accent);font-size:.88rem}
details pre{margin:.4rem 0 0;padding:.6rem .75rem;background:#fff;border:1px solid var(--line);border-radius:.3rem;font-size:.8rem;line-height:1.4;white-space:pre-wrap;overflow-wrap:anywhere}
ul.criteria{margin:0;padding-left:1.2rem;font-size:.9rem}
p.small{font-size:.9rem;color:var(--muted)}
footer{margin-top:2rem;font-size:.8rem;color:var(--muted)}
@media (max-width:40em){
body{padding:1rem .75rem}
thead{display:none}
table,tbody{display:block;width:100%}
tbody tr{display:flex;flex-wrap:wrap;align-items:baseline;padding:.45rem .3rem;border-bottom:1px solid var(--line)}
td{display:block;border:0;padding:.05rem 0}
td.rank{flex:0 0 2.4rem}
td.name{flex:1 1 calc(100% - 2.4rem);font-weight:600}
td.num{flex:0 0 auto;margin-right:1rem;text-align:left}
td.name+td.num{margin-left:2.4rem}
td.num::before{content:attr(data-label) \" \";color:var(--muted);font-size:.8rem}
td.by{flex:1 1 100%;padding-left:2.4rem}
td.by::before{content:\"Decided by: \"}
tbody tr.why{padding-top:0}
tr.why td{flex:1 1 100%;padding:0 0 0 2.4rem}
}
@media print{
body{max-width:none;padding:0;font-size:10pt}
tr.tied{background:none}
tr{break-inside:avoid}
tr.why:not(:has(details[open])){display:none}
details>summary{list-style:none;color:var(--ink)}
.scroll{overflow:visible}
}
";

pub(super) fn html(r: &Report) -> String {
    let Inputs {
        standings: s,
        event,
        rs,
        meta,
        ..
    } = r.from;
    let cells = Cells::new(r, true);
    let mut out = String::with_capacity(4096 + cells.text.len() + 40 * cells.bounds.len());
    let page_title = format!("{} — {}{}", event.name, title(rs, meta), after_round(event));
    page_start(&mut out, &page_title, event, title(rs, meta));
    out.push_str("<dl class=\"meta\">\n");
    let mut meta_line = |term: &str, text: &str| {
        out.push_str("<dt>");
        out.push_str(term);
        out.push_str("</dt><dd>");
        push_html(&mut out, text);
        out.push_str("</dd>\n");
    };
    if let Some(src) = &rs.source_doc {
        meta_line("Regulation", src);
    }
    if let Some(ed) = &rs.edition {
        meta_line("Edition", ed);
    }
    meta_line("Ruleset", &meta.ruleset);
    if let Some(seed) = s.lots_seed {
        meta_line("Lots seed", &seed.to_string());
    }
    out.push_str("</dl>\n");
    push_notes(&mut out, &meta.notes);
    out.push_str("</header>\n<main>\n");
    table(&mut out, &cells, s, event, rs);
    legend(&mut out, &cells, s, event);
    out.push_str("</main>\n<footer>Ranked by tb.</footer>\n</body>\n</html>\n");
    out
}

/// The table: header with each criterion's direction and article as a
/// tooltip, a row per participant, a `<details>` row after each tied group.
fn table(out: &mut String, cells: &Cells, s: &Standings, event: &Event, rs: &Ruleset) {
    let ncol = cells.cols.len() + 3;
    let labels: Vec<&str> = cells.row(0).collect();
    out.push_str("<div class=\"scroll\">\n<table>\n<thead><tr>");
    for (k, h) in labels.iter().enumerate() {
        match k.checked_sub(2).and_then(|c| cells.cols.get(c)) {
            Some(&ci) => {
                let c = &s.columns[ci];
                out.push_str("<th class=\"num\" scope=\"col\" title=\"");
                push_html(out, c.dir.phrase());
                if let Some(cite) = &c.cite {
                    out.push_str(" · ");
                    push_html(out, cite);
                }
                out.push_str("\">");
            }
            None => out.push_str("<th scope=\"col\">"),
        }
        push_html(out, h);
        out.push_str("</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    let groups = tie_groups(s, event.participants.len());
    let mut group_of = vec![usize::MAX; event.participants.len()];
    for (g, members) in groups.iter().enumerate() {
        for &p in *members {
            group_of[p] = g;
        }
    }
    let mut group_start = 0;
    let mut tie_no = 1;
    for (i, row) in s.rows.iter().enumerate() {
        let g = group_of[row.pid];
        if g != usize::MAX && (i == 0 || group_of[s.rows[i - 1].pid] != g) {
            group_start = i;
        }
        out.push_str(if g == usize::MAX {
            "<tr>"
        } else {
            "<tr class=\"tied\">"
        });
        for (k, c) in cells.row(i + 1).enumerate() {
            let label = labels[k];
            match k {
                0 => {
                    out.push_str("<td class=\"rank\"");
                    if c.ends_with('=') {
                        out.push_str(" title=\"shared place\"");
                    }
                    out.push('>');
                    push_html(out, c);
                }
                1 => {
                    let p = &event.participants[row.pid];
                    out.push_str("<td class=\"name\">");
                    push_html(out, &p.name);
                    out.push_str(" <span class=\"id\">(");
                    push_html(out, &p.id);
                    out.push_str(")</span>");
                    if let Some(after) = p.withdrawn_after {
                        let _ = write!(
                            out,
                            "<span class=\"mark\">withdrew {}</span>",
                            withdrew_when(after)
                        );
                    }
                }
                _ if k + 1 < ncol => {
                    out.push_str("<td class=\"num\" data-label=\"");
                    push_html(out, label);
                    out.push_str("\">");
                    push_html(out, c);
                }
                _ => {
                    out.push_str("<td class=\"by\">");
                    push_html(out, c);
                }
            }
            out.push_str("</td>");
        }
        out.push_str("</tr>\n");
        let last_of_group =
            g != usize::MAX && s.rows.get(i + 1).is_none_or(|next| group_of[next.pid] != g);
        if last_of_group {
            // Named in rank order; explained for the whole group.
            let ranked: Vec<Pid> = s.rows[group_start..=i].iter().map(|r| r.pid).collect();
            why_row(out, ncol, &ranked, s, event, rs, &mut tie_no);
        }
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
}

/// The tied groups, each followed by its explanation: the groups of two or
/// more that a step found level, the largest first (a tie broken in stages
/// is one group, explained whole). Rows are in rank order and a tie is
/// settled among the places it spans, so each group's rows are adjacent.
fn tie_groups(s: &Standings, n: usize) -> Vec<&[Pid]> {
    let mut seen = vec![false; n];
    let mut groups = Vec::new();
    for t in &s.trace {
        let Outcome::Split(parts) = &t.outcome else {
            continue;
        };
        for part in parts.iter().filter(|g| g.len() >= 2) {
            if part.iter().all(|&p| p < n && !seen[p]) {
                part.iter().for_each(|&p| seen[p] = true);
                groups.push(part.as_slice());
            }
        }
    }
    groups
}

/// The row after a tied group: its members and, on opening, `tb explain`'s
/// account of it.
fn why_row(
    out: &mut String,
    ncol: usize,
    group: &[Pid],
    s: &Standings,
    event: &Event,
    rs: &Ruleset,
    tie_no: &mut usize,
) {
    let _ = write!(
        out,
        "<tr class=\"tied why\"><td colspan=\"{ncol}\"><details><summary>How the tie between "
    );
    const NAMED: usize = 4;
    for (k, &p) in group.iter().take(NAMED).enumerate() {
        if k > 0 {
            out.push_str(if k + 1 == group.len() { " and " } else { ", " });
        }
        push_html(out, &event.participants[p].name);
    }
    if group.len() > NAMED {
        let _ = write!(out, " and {} more", group.len() - NAMED);
    }
    out.push_str(" was decided</summary>\n<pre>");
    let mut opts = ExplainOptions {
        ids: group.to_vec(),
        details: None,
    };
    // The score groups are the table itself: the page's account starts
    // at the tie.
    let mut account = account(s, event, rs, &mut opts);
    account.primaries.clear();
    // Numbered down the page, as `tb explain` numbers the ties.
    push_html(out, explain_text_from(&account, event, *tie_no).trim_end());
    *tie_no += account.ties.len();
    out.push_str("</pre></details></td></tr>\n");
}

/// Under the table: the criteria shown, those left out, the marks, the
/// undefined values.
fn legend(out: &mut String, cells: &Cells, s: &Standings, event: &Event) {
    if !cells.cols.is_empty() {
        out.push_str("<h2>Criteria, in order</h2>\n<ul class=\"criteria\">\n");
        for &c in &cells.cols {
            out.push_str("<li>");
            push_html(out, &criterion_note(&s.columns[c]));
            out.push_str("</li>\n");
        }
        out.push_str("</ul>\n");
    }
    if let Some(h) = hidden_columns(s, &cells.cols) {
        out.push_str("<p class=\"small\">Not shown, as no tie reached them: ");
        push_html(out, &h);
        out.push_str(".</p>\n");
    }
    if s.rows.windows(2).any(|w| w[0].rank == w[1].rank) {
        out.push_str("<p class=\"small\">A rank followed by = is a shared place.</p>\n");
    }
    let undefined = undefined_notes(s, event);
    if !undefined.is_empty() {
        out.push_str("<h2>Undefined values</h2>\n<ul class=\"criteria\">\n");
        for l in &undefined {
            out.push_str("<li>");
            push_html(out, l);
            out.push_str("</li>\n");
        }
        out.push_str("</ul>\n");
    }
}

/// The page up to its subtitle: head (`page_title`, the style), the
/// event's name as the heading, "Standings after round N of M" for an
/// event in progress (issue #33), and `subtitle`. Shared with the
/// round-by-round page (`progress`).
pub(super) fn page_start(out: &mut String, page_title: &str, event: &Event, subtitle: &str) {
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
    );
    push_html(out, page_title);
    out.push_str("</title>\n<style>\n");
    out.push_str(STYLE);
    out.push_str("</style>\n</head>\n<body>\n<header>\n<h1>");
    push_html(out, &event.name);
    out.push_str("</h1>\n");
    if let Some(after) = after_round(event).strip_prefix(" — ") {
        out.push_str("<p class=\"subtitle\"><strong>Standings ");
        push_html(out, after);
        out.push_str("</strong></p>\n");
    }
    out.push_str("<p class=\"subtitle\">");
    push_html(out, subtitle);
    out.push_str("</p>\n");
}

/// The run's notes, a paragraph each, in the page's header.
pub(super) fn push_notes(out: &mut String, notes: &[String]) {
    for n in notes {
        out.push_str("<p class=\"note\">");
        push_html(out, n);
        out.push_str("</p>\n");
    }
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
