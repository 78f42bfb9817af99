//! USEBIO XML input (the EBU's bridge results standard, version 1.2): the
//! five real, anonymised pairs files in tests/fixtures/data/bridge/ (copied
//! from the project's shared data), a small teams file written here
//! (ISO-8859-1, with a triangle), and the loader's diagnostics.

use crate::bridge_support::codes;
use crate::common;
use common::{ebu_every_tie, order, rank, shipped};
use tb::diag::Source;
use tb::model::{Event, Kind, Sport};

const FILES: [(&str, usize); 5] = [
    ("usebio-handicap_pairs.xml", 18),
    ("usebio-multi-section-multi-movement-pairs.xml", 66),
    ("usebio-pairs-with-np-passed.xml", 26),
    ("usebio-pairs.xml", 26),
    ("usebio-three_quarter_howell_with_phantom.xml", 11),
];

fn path(name: &str) -> String {
    format!(
        "{}/tests/fixtures/data/bridge/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Read a file the way the CLI does: UTF-8, or else byte for character
/// (ISO-8859-1).
fn read(name: &str) -> Source {
    let bytes = std::fs::read(path(name)).unwrap();
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => e.into_bytes().iter().map(|&b| b as char).collect(),
    };
    Source::new(name, text)
}

fn load(name: &str) -> Event {
    tb::load::load(&read(name)).unwrap_or_else(|d| panic!("{}", d.plain()))
}

fn load_text(text: &str) -> Result<Event, tb::diag::Diag> {
    tb::load::load(&Source::new("test.xml", text.to_string()))
}

fn part<'a>(ev: &'a Event, id: &str) -> &'a tb::model::Participant {
    &ev.participants[ev.find(id).unwrap_or_else(|| panic!("no {id}"))]
}

#[test]
fn every_shipped_file_loads_and_ranks_with_ebu_split_tie() {
    let rs = ebu_every_tie();
    for (name, n) in FILES {
        let ev = load(name);
        assert_eq!(ev.participants.len(), n, "{name}");
        assert_eq!(ev.sport, Sport::Bridge);
        assert_eq!(ev.kind, Kind::Pair);
        // The handicapped file says which score it is ranked by.
        let notes = usize::from(name == "usebio-handicap_pairs.xml");
        assert_eq!(ev.warnings.len(), notes, "{name}: {:?}", ev.warnings);
        let st = rank(&ev, &rs);
        assert_eq!(st.rows.len(), n);
        // Every participant's score is the total the scorer published.
        for p in &ev.participants {
            let sum = p
                .entries
                .iter()
                .fold(tb::num::Num::ZERO, |a, e| a.add(e.points).unwrap());
            assert_eq!(Some(sum), p.recorded_score, "{name} {}", p.id);
        }
    }
}

#[test]
fn every_shipped_file_ranks_with_wbf_pairs() {
    let rs = shipped("wbf/pairs");
    for (name, n) in FILES {
        let st = rank(&load(name), &rs);
        assert_eq!(st.rows.len(), n);
    }
}

/// Participants, places, scores, members and boards as the file has them.
#[test]
fn pairs_file_contents() {
    let ev = load("usebio-pairs.xml");
    assert_eq!(ev.name, "Monday Afternoon November Pairs");
    assert_eq!(ev.start_date.as_deref(), Some("16/11/2015"));
    let p = part(&ev, "5 NS");
    assert_eq!(p.name, "p0_1 & p0_2");
    assert_eq!(p.members.len(), 2);
    assert_eq!(p.recorded_rank, Some(1));
    assert_eq!(p.recorded_score, tb::num::Num::parse("59.94"));
    // 13 encounters of two boards, each board's top 24 (13 results).
    assert_eq!(p.entries.len(), 13);
    let boards: usize = p.entries.iter().map(|e| e.boards().len()).sum();
    assert_eq!(boards, 26);
    assert!(p
        .entries
        .iter()
        .flat_map(|e| e.boards())
        .all(|b| b.top == Some(tb::num::Num::int(24))));
    // A two-winner movement: North-South in field 1, East-West in field 2.
    assert_eq!(p.values["field"], tb::num::Num::int(1));
    assert_eq!(part(&ev, "5 EW").values["field"], tb::num::Num::int(2));
}

/// The file leaves 1 NS and 13 NS level on 46.31 (both recorded 10th).
/// The EBU order: they never met (both North-South), tie-break points are
/// equal (each met all thirteen East-West pairs), the basic method is the
/// final one, and the point-a-board count-back over their 26 boards gives
/// 13 NS 30, 1 NS 22.
#[test]
fn a_real_tie_split_by_count_back() {
    let ev = load("usebio-pairs.xml");
    assert_eq!(part(&ev, "1 NS").recorded_rank, Some(10));
    assert_eq!(part(&ev, "13 NS").recorded_rank, Some(10));
    let st = rank(&ev, &ebu_every_tie());
    let o = order(&ev, &st);
    let a = o.iter().position(|x| x == "13 NS").unwrap();
    let b = o.iter().position(|x| x == "1 NS").unwrap();
    assert_eq!(b, a + 1);
    let c = st
        .columns
        .iter()
        .position(|c| c.label == "Count-back")
        .unwrap();
    assert_eq!(st.rows[a].values[c], common::num("30"));
    assert_eq!(st.rows[b].values[c], common::num("22"));
    assert_eq!(
        st.rows[a].decided_by.as_ref().unwrap().criterion,
        "Count-back"
    );
}

/// A Howell (one field): pairs 5 and 9 share 8th place in the file; they
/// met, and pair 5 won that encounter, so head-to-head decides. Pairs that
/// sat out against the phantom played 8 of the 9 rounds; their tie-break
/// points are scaled by 9/8 (143.5.2).
#[test]
fn howell_with_phantom() {
    let ev = load("usebio-three_quarter_howell_with_phantom.xml");
    assert_eq!(ev.rounds, 9);
    assert_eq!(
        part(&ev, "1")
            .entries
            .iter()
            .filter(|e| e.status == tb::model::Status::Absent)
            .count(),
        1
    );
    let st = rank(&ev, &ebu_every_tie());
    let o = order(&ev, &st);
    assert_eq!(&o[7..9], ["5", "9"]);
    assert_eq!(
        st.rows[7].decided_by.as_ref().unwrap().criterion,
        "Head-to-head"
    );
    // Every other place agrees with the file.
    for r in &st.rows {
        let p = &ev.participants[r.pid];
        if p.id != "9" {
            assert_eq!(p.recorded_rank, Some(r.rank as u32), "{}", p.id);
        }
    }
}

/// Sections (A), (B), (C); one field (WINNER_TYPE 1); two artificial
/// scores ("A6060", "A6040") are unplayed boards with their awarded
/// matchpoints (143.5.5). Pairs (B) 2 EW and (B) 6 EW have identical
/// results throughout, so the EBU order ends in a ballot: unresolved
/// without a seed.
#[test]
fn multi_section_file() {
    let ev = load("usebio-multi-section-multi-movement-pairs.xml");
    let c1 = part(&ev, "(C) 1");
    assert_eq!(c1.federation.as_deref(), Some("C"));
    let unplayed: Vec<_> = c1
        .entries
        .iter()
        .flat_map(|e| e.boards())
        .filter(|b| !b.played)
        .collect();
    assert_eq!(unplayed.len(), 1);
    assert_eq!(unplayed[0].score, tb::num::Num::parse("38.4").unwrap());
    let st = rank(&ev, &ebu_every_tie());
    let b2 = st
        .rows
        .iter()
        .find(|r| ev.participants[r.pid].id == "(B) 2 EW")
        .unwrap();
    assert_eq!(
        b2.unresolved.as_deref(),
        Some("drawing of lots (give --seed to draw) (EBU published order (5): ballot)")
    );
}

/// A match-based teams file (written here in ISO-8859-1): teams, a triangle
/// in round 2 (half matches of one board, a full match has two: each weighs
/// 1/2), board IMPs from the first
/// team's side, a shared first place ("1=") that the EBU order splits on
/// head-to-head (Aces beat Bidders twice).
#[test]
fn teams_file() {
    let ev = load("usebio-teams.xml");
    assert_eq!(ev.kind, Kind::Team);
    assert_eq!(ev.name, "Caf\u{e9} Swiss Teams");
    let a = part(&ev, "1");
    assert_eq!(a.name, "Ren\u{e9}e's Aces");
    assert_eq!(a.recorded_rank, Some(1));
    let r2: Vec<_> = a.entries.iter().filter(|e| e.round == 2).collect();
    assert_eq!(r2.len(), 2);
    assert!(r2
        .iter()
        .all(|e| e.weight == tb::num::Num::ratio(1, 2).unwrap()));
    // Round 1: boards +6 and -2 for team 1: 6 IMPs won, 2 lost.
    let imps = ev.find_unit("imps").unwrap();
    assert_eq!(a.entries[0].unit(imps), Some(tb::num::Num::int(6)));
    assert_eq!(a.entries[0].unit_against(imps), Some(tb::num::Num::int(2)));
    assert_eq!(a.entries[0].boards()[1].score, tb::num::Num::int(-2));
    let b = part(&ev, "2");
    assert_eq!(b.entries[0].boards()[1].score, tb::num::Num::int(2));
    assert!(ev.warnings.is_empty(), "{:?}", ev.warnings);
    let st = rank(&ev, &ebu_every_tie());
    assert_eq!(order(&ev, &st), ["1", "2", "3", "4"]);
    assert_eq!(
        st.rows[0].decided_by.as_ref().unwrap().criterion,
        "Head-to-head"
    );
}

/// Format detection: by the `.xml` name, or by the text.
#[test]
fn detected_by_name_or_text() {
    use tb::load::Format;
    assert_eq!(Format::detect("x.XML", ""), Some(Format::Usebio));
    assert_eq!(
        Format::detect("results", "<?xml version=\"1.0\"?><USEBIO/>"),
        Some(Format::Usebio)
    );
    assert_eq!(
        Format::detect("results", "\u{feff}<USEBIO Version=\"1.2\">"),
        Some(Format::Usebio)
    );
}

// ------------------------------------------------------------ diagnostics

fn error(text: &str) -> tb::diag::Diag {
    match load_text(text) {
        Ok(_) => panic!("loaded:\n{text}"),
        Err(d) => d,
    }
}

#[test]
fn malformed_xml_points_at_line_and_column() {
    let d = error("<USEBIO Version=\"1.2\">\n<EVENT>\n  <PARTICIPANTS></EVENT>\n</USEBIO>");
    assert_eq!(d.code, "tb::load::usebio::syntax");
    let (_, line, col) = d.location().unwrap();
    assert_eq!(line, 3);
    assert!(col > 1, "{}", d.plain());
}

#[test]
fn not_a_usebio_file() {
    let d = error("<?xml version=\"1.0\"?>\n<results><x/></results>");
    assert_eq!(codes(&d), ["tb::load::usebio::not_usebio"]);
}

const HEAD: &str = "<USEBIO Version=\"1.2\"><EVENT EVENT_TYPE=\"PAIRS\"><PARTICIPANTS>\
<PAIR><PAIR_NUMBER>1</PAIR_NUMBER><TOTAL_SCORE>55</TOTAL_SCORE><PLACE>1</PLACE></PAIR>\
<PAIR><PAIR_NUMBER>2</PAIR_NUMBER><TOTAL_SCORE>45</TOTAL_SCORE><PLACE>2</PLACE></PAIR>\
</PARTICIPANTS>";

fn with_board(line: &str) -> String {
    format!("{HEAD}<BOARD><BOARD_NUMBER>1</BOARD_NUMBER><TRAVELLER_LINE>{line}</TRAVELLER_LINE></BOARD></EVENT></USEBIO>")
}

#[test]
fn a_small_pairs_file_loads() {
    let ev = load_text(&with_board(
        "<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER><SCORE>420</SCORE>\
         <NS_MATCH_POINTS>1</NS_MATCH_POINTS><EW_MATCH_POINTS>0</EW_MATCH_POINTS>",
    ))
    .unwrap_or_else(|d| panic!("{}", d.plain()));
    let p1 = part(&ev, "1");
    assert_eq!(p1.entries[0].points, tb::num::Num::int(55));
    assert_eq!(p1.entries[0].opponent, ev.find("2"));
    // Pair 2 won no matchpoints: its whole total sits in its one encounter.
    assert_eq!(part(&ev, "2").entries[0].points, tb::num::Num::int(45));
}

#[test]
fn unknown_pair_in_a_traveller() {
    let text = with_board(
        "<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>7</EW_PAIR_NUMBER><SCORE>420</SCORE>\
         <NS_MATCH_POINTS>1</NS_MATCH_POINTS><EW_MATCH_POINTS>0</EW_MATCH_POINTS>",
    );
    let d = error(&text);
    assert_eq!(codes(&d), ["tb::load::usebio::unknown_participant"]);
    let inner = if d.related.is_empty() {
        &d
    } else {
        &d.related[0]
    };
    let (_, line, col) = inner.location().unwrap();
    assert_eq!(line, 1);
    assert_eq!(
        &text[col - 1..col - 1 + "<EW_PAIR_NUMBER>7".len()],
        "<EW_PAIR_NUMBER>7"
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let d = error(&with_board(
        "<NS_PAIR_NUMBER>9</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER><SCORE>420</SCORE>\
         <NS_MATCH_POINTS>x</NS_MATCH_POINTS>",
    ));
    assert_eq!(
        codes(&d),
        [
            "tb::load::usebio::unknown_participant",
            "tb::load::usebio::bad_number",
            "tb::load::usebio::missing"
        ]
    );
}

#[test]
fn shared_places_and_duplicates() {
    let text = "<USEBIO><EVENT><PARTICIPANTS>\
        <PAIR><PAIR_NUMBER>1</PAIR_NUMBER><PLACE>3=</PLACE></PAIR>\
        <PAIR><PAIR_NUMBER>1</PAIR_NUMBER><PLACE>=3</PLACE></PAIR>\
        </PARTICIPANTS></EVENT></USEBIO>";
    assert_eq!(
        codes(&error(text)),
        ["tb::load::usebio::duplicate_participant"]
    );
    let text = text.replacen(
        "<PAIR_NUMBER>1</PAIR_NUMBER><PLACE>=3",
        "<PAIR_NUMBER>2</PAIR_NUMBER><PLACE>=3",
        1,
    );
    let ev = load_text(&text).unwrap();
    assert!(ev.participants.iter().all(|p| p.recorded_rank == Some(3)));
    let bad = text.replace("3=", "third");
    assert_eq!(codes(&error(&bad)), ["tb::load::usebio::bad_number"]);
}

#[test]
fn individual_events_are_not_read() {
    let d = error("<USEBIO><EVENT EVENT_TYPE=\"INDIVIDUAL\"><PARTICIPANTS><PLAYER><PLAYER_NAME>x</PLAYER_NAME></PLAYER></PARTICIPANTS></EVENT></USEBIO>");
    assert_eq!(codes(&d), ["tb::load::usebio::unsupported"]);
}

/// Deep nesting and entity expansion are refused or walked without
/// recursion: a diagnostic, never a crash.
#[test]
fn hostile_xml() {
    let deep = format!(
        "<USEBIO><EVENT>{}{}</EVENT></USEBIO>",
        "<X>".repeat(100_000),
        "</X>".repeat(100_000)
    );
    assert_eq!(codes(&error(&deep)), ["tb::load::usebio::missing"]);
    let mut laugh =
        String::from("<?xml version=\"1.0\"?><!DOCTYPE USEBIO [<!ENTITY a \"aaaaaaaaaa\">");
    for (x, y) in [
        ("b", "a"),
        ("c", "b"),
        ("d", "c"),
        ("e", "d"),
        ("f", "e"),
        ("g", "f"),
    ] {
        laugh.push_str(&format!(
            "<!ENTITY {x} \"{}\">",
            format!("&{y};").repeat(10)
        ));
    }
    laugh.push_str("]><USEBIO><EVENT><EVENT_DESCRIPTION>&g;</EVENT_DESCRIPTION></EVENT></USEBIO>");
    // Refused before the XML is read: no DTD of the file's own.
    assert_eq!(codes(&error(&laugh)), ["tb::load::usebio::dtd"]);
    let d = error(&laugh);
    let src = d.source.as_ref().expect("source");
    let (span, _) = &d.labels[0];
    assert_eq!(&src.text[span.start..span.end], "<!DOCTYPE");
    // Hidden behind a comment that mentions a harmless DOCTYPE: still found.
    let hidden = laugh.replacen("<!DOCTYPE", "<!-- <!DOCTYPE USEBIO> --><!DOCTYPE", 1);
    assert_eq!(codes(&error(&hidden)), ["tb::load::usebio::dtd"]);
    // A DOCTYPE that only names the standard's DTD is read as before.
    let named = "<?xml version=\"1.0\"?><!DOCTYPE USEBIO SYSTEM \"usebio_v1_2.dtd\"><USEBIO/>";
    assert_eq!(codes(&error(named)), ["tb::load::usebio::missing"]);
    // Attributes: up to the limit the reader sees them; past it, refused.
    let attrs = |n: usize| -> String { (0..n).map(|k| format!(" a{k}=\"{k}\"")).collect() };
    let max = tb::load::usebio::MAX_ATTRIBUTES;
    let at_limit = format!("<USEBIO{}></USEBIO>", attrs(max));
    assert_eq!(codes(&error(&at_limit)), ["tb::load::usebio::missing"]);
    let crowded = format!("<USEBIO><EVENT{}/></USEBIO>", attrs(max + 1));
    assert_eq!(codes(&error(&crowded)), ["tb::load::usebio::attributes"]);
}

#[test]
fn no_event_or_no_participants() {
    assert_eq!(
        codes(&error("<USEBIO Version=\"1.2\"></USEBIO>")),
        ["tb::load::usebio::missing"]
    );
    assert_eq!(
        codes(&error("<USEBIO><EVENT></EVENT></USEBIO>")),
        ["tb::load::usebio::missing"]
    );
}

/// Numbers repeat across directions ("1" North-South and "1" East-West):
/// ids get the direction added, and travellers find the right pair.
#[test]
fn pair_numbers_repeated_across_directions() {
    let text = "<USEBIO><EVENT EVENT_TYPE=\"PAIRS\"><PARTICIPANTS>\
        <PAIR><PAIR_NUMBER>1</PAIR_NUMBER><DIRECTION>NS</DIRECTION><TOTAL_SCORE>60</TOTAL_SCORE></PAIR>\
        <PAIR><PAIR_NUMBER>1</PAIR_NUMBER><DIRECTION>EW</DIRECTION><TOTAL_SCORE>40</TOTAL_SCORE></PAIR>\
        </PARTICIPANTS><BOARD><BOARD_NUMBER>1</BOARD_NUMBER><TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER>\
        <EW_PAIR_NUMBER>1</EW_PAIR_NUMBER><SCORE>100</SCORE><NS_MATCH_POINTS>2</NS_MATCH_POINTS>\
        <EW_MATCH_POINTS>0</EW_MATCH_POINTS></TRAVELLER_LINE></BOARD></EVENT></USEBIO>";
    let ev = load_text(text).unwrap_or_else(|d| panic!("{}", d.plain()));
    assert_eq!(part(&ev, "1 NS").entries[0].opponent, ev.find("1 EW"));
}

/// No input makes the loader panic: every prefix of a real file either
/// loads or gives a diagnostic.
#[test]
fn truncated_files_never_panic() {
    let src = read("usebio-three_quarter_howell_with_phantom.xml");
    let text = &src.text;
    let mut cut = 0;
    while cut < text.len() {
        if text.is_char_boundary(cut) {
            let _ = load_text(&text[..cut]);
        }
        cut += 997;
    }
    // Damaged numbers and references, too.
    for (from, to) in [
        ("<SCORE>", "<SCORE>x"),
        ("1 NS<", "99 NS<"),
        ("<BOARD_NUMBER>", "<BOARD_NUMBER>-"),
    ] {
        let _ = load_text(&read("usebio-pairs.xml").text.replacen(from, to, 3));
    }
}
