//! Categories (prize lists, issue #33 item 4) through the real binary: a
//! category list for chess (TRF sex and birth dates), cards and bridge
//! (native fields and values), in every format; the overall order kept by
//! default and `rerank` among the members; a missing value named, never
//! silently in or out; misspelt names with a did-you-mean.

use crate::common::tb;
use std::io::Write as _;

const CHESS: &str = "tests/fixtures/data/chess/categories.trf";
const CARDS: &str = "tests/fixtures/data/categories/cards-swiss.toml";
const BRIDGE: &str = "tests/fixtures/data/categories/bridge-round-robin.toml";

fn out(args: &[&str]) -> (String, String, i32) {
    let o = tb(args);
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

/// The JSON document's `categories`.
fn categories(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let (stdout, stderr, code) = out(&all);
    assert_eq!(code, 0, "{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    doc["categories"].clone()
}

/// `(place, rank, id)` of each member of category `i`.
fn members(cats: &serde_json::Value, i: usize) -> Vec<(u64, u64, String)> {
    cats[i]["members"]
        .as_array()
        .expect("members")
        .iter()
        .map(|m| {
            (
                m["place"].as_u64().unwrap_or(0),
                m["rank"].as_u64().unwrap_or(0),
                m["id"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn ids(cats: &serde_json::Value, i: usize) -> Vec<String> {
    members(cats, i).into_iter().map(|m| m.2).collect()
}

#[test]
fn chess_categories_keep_the_overall_order_or_rerank() {
    let cats = categories(&[
        "eval",
        "fide/swiss",
        CHESS,
        "--category",
        "U1800=rating < 1800 or not rated",
        "--category",
        "Women=sex == \"w\" rerank",
        "--category",
        "born >= 2008",
    ]);
    // The overall order: places 1..n, each with its overall rank; the
    // unrated player (16) counts under 1800 as the condition says.
    assert_eq!(
        members(&cats, 0),
        [
            (1, 7, "16"),
            (2, 9, "10"),
            (3, 10, "14"),
            (4, 11, "15"),
            (5, 13, "11"),
            (6, 15, "12"),
            (7, 16, "13")
        ]
        .map(|(p, r, id)| (p, r, id.to_string()))
        .to_vec()
    );
    assert_eq!(cats[0]["order"], "overall");
    assert_eq!(cats[0]["expression"], "rating < 1800 or not rated");
    // Reranked: direct encounter among the women alone puts Reine (15) and
    // Helene (5) before Lais (10), ranked 9th overall.
    assert_eq!(ids(&cats, 1), ["7", "15", "5", "10", "11"]);
    assert_eq!(cats[1]["order"], "rerank");
    assert_eq!(cats[1]["members"][1]["decided_by"]["criterion"], "DE");
    // A condition alone names its list; the year of birth is TRF columns 70-73.
    assert_eq!(cats[2]["name"], "born >= 2008");
    assert_eq!(ids(&cats, 2), ["4", "2", "7", "5", "11", "9", "13"]);
    assert_eq!(cats[2]["undecided"][0]["id"], "16");
}

#[test]
fn an_unrated_player_is_named_never_silently_in_or_out() {
    let args = [
        "eval",
        "fide/swiss",
        CHESS,
        "--category",
        "U1800=rating < 1800",
    ];
    let (stdout, stderr, code) = out(&args);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("tb::rank::category_undecided")
            && stderr.contains("STEPHAN (16) has no rating"),
        "{stderr}"
    );
    assert!(
        stdout.contains(
            "Neither in nor out (the condition is undefined): STEPHAN (16) has no rating"
        ),
        "{stdout}"
    );
    let cats = categories(&args);
    assert!(!ids(&cats, 0).contains(&"16".to_string()));
    assert_eq!(
        cats[0]["undecided"][0]["reason"],
        "STEPHAN (16) has no rating"
    );
    // --strict: the warning is an error, and nothing is printed.
    let mut strict = args.to_vec();
    strict.push("--strict");
    let (stdout, stderr, code) = out(&strict);
    assert_eq!(code, 3, "{stderr}");
    assert!(stdout.is_empty());
}

#[test]
fn cards_categories_read_native_fields() {
    let cats = categories(&[
        "eval",
        "cards/swiss",
        CARDS,
        "--category",
        "Juniors=born >= 2009",
        "--category",
        "Dragon's Den=federation == \"Dragon's Den\" rerank",
    ]);
    assert_eq!(ids(&cats, 0), ["fay", "ana", "cleo", "dev"]);
    assert_eq!(cats[0]["undecided"][0]["id"], "hana");
    assert_eq!(ids(&cats, 1), ["fay", "hana", "ana", "cleo"]);
    assert_eq!(cats[1]["undecided"][0]["id"], "eli");
}

#[test]
fn bridge_categories_read_participant_values() {
    let (stdout, stderr, code) = out(&[
        "eval",
        "wbf/round-robin",
        BRIDGE,
        "--category",
        "Seniors=me.seniors == 1 rerank",
    ]);
    assert_eq!(code, 0, "{stderr}");
    // The value a category reads is read: no `unread_value` warning.
    assert!(!stderr.contains("tb::data::unread_value"), "{stderr}");
    assert!(
        stderr.contains("Finesse (F) has no `seniors` value"),
        "{stderr}"
    );
    // Bidders and Clubs, level on VP, go to WBF 1.1 as a pair among the seniors.
    assert!(
        stdout.contains("Category Seniors: me.seniors == 1 (ranked among its members; 3 of them)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("1      2     Bidders (B)  60.20  IMPs between (1.1(b))"),
        "{stdout}"
    );
    let cats = categories(&[
        "eval",
        "wbf/round-robin",
        BRIDGE,
        "--category",
        "Seniors=me.seniors == 1",
    ]);
    assert_eq!(members(&cats, 0)[0], (1, 2, "B".to_string()));
}

#[test]
fn every_format_shows_each_category_headed() {
    let base = [
        "eval",
        "cards/swiss",
        CARDS,
        "--category",
        "Juniors=born >= 2009",
    ];
    let run = |f: &str| {
        let mut a = base.to_vec();
        a.extend(["--format", f]);
        let (stdout, stderr, code) = out(&a);
        assert_eq!(code, 0, "{stderr}");
        stdout
    };
    let heading = "Category Juniors: born >= 2009 (in the overall order; 4 of them)";
    let table = run("table");
    assert!(
        table.contains(&format!(
            "\n{heading}\n\nPlace  Rank  Participant         MP\n"
        )),
        "{table}"
    );
    assert!(
        table.contains("\n1      2     Fay Okafor (fay)    10\n"),
        "{table}"
    );
    let md = run("markdown");
    assert!(
        md.contains(&format!(
            "### {heading}\n\n| Place | Rank | Participant | MP |"
        )),
        "{md}"
    );
    let html = run("html");
    let escaped = heading.replace('>', "&gt;");
    assert!(
        html.contains(&format!("<section class=\"category\">\n<h2>{escaped}</h2>")),
        "{html}"
    );
    assert!(html.find("<section class=\"category\">") < html.find("</main>"));
    let csv = run("csv");
    assert!(
        csv.contains("\n\ncategory,place,rank,id,name\nJuniors,1,2,fay,Fay Okafor\n"),
        "{csv}"
    );
    // The overall standings come first, unchanged.
    let (plain, _, _) = out(&["eval", "cards/swiss", CARDS, "--format", "csv"]);
    assert!(csv.starts_with(&plain));
}

#[test]
fn no_category_changes_nothing() {
    for f in ["table", "json", "csv", "markdown", "html"] {
        let (a, _, _) = out(&[
            "eval",
            "cards/swiss",
            "examples/cards-swiss.toml",
            "--format",
            f,
        ]);
        assert!(!a.contains("Category") && !a.contains("categories"), "{f}");
    }
}

#[test]
fn a_ruleset_declares_its_categories() {
    let dir = std::env::temp_dir().join(format!("tb-categories-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("club.tb");
    let text = "title \"Club Swiss with prizes\"\nimport \"fide/swiss\"\n\n\
        /// Rating prize: the unrated count as under 1800 (prize rules §3).\n\
        category \"U1800\" = rating < 1800 or not rated cite \"§3\"\n\
        category \"Juniors\" = born >= 2008 rerank by swiss\n\
        standings swiss\n";
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .expect("write");
    let p = path.to_string_lossy().into_owned();
    let cats = categories(&["eval", &p, CHESS]);
    assert_eq!(cats[0]["name"], "U1800");
    assert_eq!(cats[0]["cite"], "§3");
    assert_eq!(ids(&cats, 0).len(), 7);
    assert_eq!(cats[1]["order"], "rerank");
    // Among the juniors, Bruno (2) and David (4) drew: wins decide.
    assert_eq!(ids(&cats, 1)[..2], ["2", "4"]);
    // tb doc says them.
    let (doc, stderr, code) = out(&["doc", &p]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        doc.contains("## Categories") && doc.contains("1. **U1800**: in the overall order (§3)"),
        "{doc}"
    );
    // tb fmt keeps it as written (it is formatted).
    let (_, stderr, code) = out(&["fmt", "--check", &p]);
    assert_eq!(code, 0, "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn category_errors_point_into_the_text() {
    // A misspelt name: did-you-mean, pointing into what was typed.
    let (_, stderr, code) = out(&[
        "eval",
        "fide/swiss",
        CHESS,
        "--category",
        "ratng < 3",
        "--diagnostics",
        "plain",
    ]);
    assert_eq!(code, 3);
    assert!(
        stderr.contains("tb::check::unknown_metric") && stderr.contains("did you mean `rating`?"),
        "{stderr}"
    );
    assert!(stderr.contains("--category:1:"), "{stderr}");
    // A misspelt field after a dot: neither the data nor a built-in field.
    let (_, stderr, code) = out(&["eval", "fide/swiss", CHESS, "--category", "U=me.ratng < 3"]);
    assert_eq!(code, 3);
    assert!(
        stderr.contains("tb::check::undeclared_read") && stderr.contains("did you mean `rating`?"),
        "{stderr}"
    );
    // A name the data lacks for everyone is the data's error, not 16 warnings.
    let (_, stderr, code) = out(&[
        "eval",
        "cards/swiss",
        "examples/cards-swiss.toml",
        "--category",
        "W=sex == \"w\"",
    ]);
    assert_eq!(code, 3);
    assert!(
        stderr.contains("tb::eval::missing_data")
            && stderr.contains("undefined for every participant"),
        "{stderr}"
    );
    // A category with no name, and a `rerank by` naming no procedure.
    let (_, stderr, code) = out(&["eval", "fide/swiss", CHESS, "--category", " =rating < 3"]);
    assert_eq!(code, 3);
    assert!(stderr.contains("tb::check::category"), "{stderr}");
    let (_, stderr, code) = out(&[
        "eval",
        "fide/swiss",
        CHESS,
        "--category",
        "U=rating < 3 rerank by swis",
    ]);
    assert_eq!(code, 3);
    assert!(
        stderr.contains("tb::check::unknown_procedure") && stderr.contains("did you mean `swiss`?"),
        "{stderr}"
    );
    // A condition that is a number, not true or false.
    let (_, stderr, code) = out(&["eval", "fide/swiss", CHESS, "--category", "U=rating"]);
    assert_eq!(code, 3);
    assert!(stderr.contains("tb::eval::type"), "{stderr}");
}

/// The README's example of categories prints what the README shows.
#[test]
fn the_readme_example_is_what_tb_prints() {
    let readme =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .expect("README");
    let start = readme
        .find("### Categories (prize lists)")
        .expect("the section");
    let block = readme[start..]
        .split("```console\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the example");
    let (stdout, stderr, code) = out(&[
        "eval",
        "fide/swiss",
        CHESS,
        "--category",
        "U1800=rating < 1800 or not rated",
        "--category",
        "Women=sex == \"w\" rerank",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let mut shown = 0;
    for line in block.lines() {
        if line.starts_with('$') || line.starts_with("    --") || line == "..." {
            continue;
        }
        assert!(
            stdout.contains(line),
            "README line not in output: {line:?}\n{stdout}"
        );
        shown += 1;
    }
    assert!(shown > 10, "{shown}");
}
