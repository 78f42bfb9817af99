//! Issue 15's acceptance table: slips a user can plausibly make in a
//! ruleset, a data file or the command line, each run through the real
//! binary. Each must give the exact diagnostic code (an error, or a
//! warning with the run going on) — never standings silently changed.

use crate::common::tb;

/// Where a slip's files are written.
fn dir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("tb-slips-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn example(name: &str) -> String {
    std::fs::read_to_string(format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR")))
        .expect("example")
}

/// `example` with the first `from` replaced by `to`, written as `name`.
fn slipped(name: &str, example_name: &str, from: &str, to: &str) -> String {
    let text = example(example_name);
    assert!(text.contains(from), "{example_name} has no `{from}`");
    write(name, &text.replacen(from, to, 1))
}

fn write(name: &str, text: &str) -> String {
    let p = dir().join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// One slip: the command line, the code it must report, the exit code.
struct Slip {
    what: &'static str,
    args: Vec<String>,
    code: &'static str,
    exit: i32,
}

fn slip(what: &'static str, args: &[&str], code: &'static str, exit: i32) -> Slip {
    Slip {
        what,
        args: args.iter().map(|s| s.to_string()).collect(),
        code,
        exit,
    }
}

#[test]
fn every_slip_is_caught_flagged_or_shown() {
    let slips: Vec<Slip> = [ruleset_slips(), data_slips(), command_line_slips()]
        .into_iter()
        .flatten()
        .collect();
    assert!(slips.len() >= 20);
    let mut failures = Vec::new();
    for s in &slips {
        let args: Vec<&str> = s.args.iter().map(|a| a.as_str()).collect();
        let o = tb(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        if o.status.code() != Some(s.exit) || !err.contains(s.code) {
            failures.push(format!(
                "{}: expected {} (exit {}), got exit {:?}:\n{err}",
                s.what,
                s.code,
                s.exit,
                o.status.code()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Slips in a ruleset: a direction the wrong way or missing, a value read
/// but not declared, a `when` over an undefined value.
fn ruleset_slips() -> Vec<Slip> {
    let de = write(
        "de.tb",
        "import \"fide/lib\"\nprocedure p {\n  step score desc as \"PTS\"\n  step direct_encounter_with(false) desc then repeat\n}\nstandings p\n",
    );
    let no_dir = write(
        "nodir.tb",
        "procedure p {\n  step sum(r.points for r in rounds)\n}\nstandings p\n",
    );
    let undeclared = write(
        "undeclared.tb",
        "metric carry \"C\" higher is better = me.carryover\nprocedure p {\n  step carry\n}\nstandings p\n",
    );
    let when = write(
        "when.tb",
        "procedure p {\n  step score desc when all(t.rating > 1000 for t in group)\n}\nstandings p\n",
    );
    let when_data = slipped(
        "when.toml",
        "chess-swiss.toml",
        "rating = ",
        "# an unrated player: rating = ",
    );
    vec![
        slip(
            "DE ranked `desc` (a place: lower is better)",
            &["check", &de],
            "tb::check::direction",
            3,
        ),
        slip(
            "a step over an expression with no direction",
            &["check", &no_dir],
            "tb::check::no_direction",
            3,
        ),
        slip(
            "a data value read but not declared",
            &["check", &undeclared],
            "tb::check::undeclared_read",
            3,
        ),
        slip(
            "a step's `when` over an undefined value",
            &["eval", &when, &when_data],
            "tb::eval::undefined_condition",
            3,
        ),
    ]
}

/// Slips in the data: misspelt names and columns, values missing on some
/// games or participants, totals that disagree, an empty file.
fn data_slips() -> Vec<Slip> {
    let csv_typo = write(
        "typo.csv",
        &example("cards-swiss.csv").replacen("2,eli,hana,", "2,eli,hanna,", 1),
    );
    let csv_column = write(
        "column.csv",
        &example("cards-swiss.csv").replacen("draws", "drwas", 1),
    );
    let carry = slipped(
        "carry.toml",
        "bridge-knockout.toml",
        "carryover = [3, 0]",
        "carry_over = [3, 0]",
    );
    let no_stage = slipped(
        "nostage.toml",
        "bridge-knockout.toml",
        "stage = \"qualification\"\n",
        "",
    );
    let boards = slipped(
        "boards.toml",
        "bridge-pairs.toml",
        r#"mp = [2, 6], boards = [ { number = 1, home = 1, away = 3, top = 4 }, { number = 2, home = 1, away = 3, top = 4 } ]"#,
        "mp = [2, 6]",
    );
    let sessions = slipped(
        "sessions.toml",
        "bridge-pairs.toml",
        "sessions = [9, 6]",
        "sessions = [9, 12]",
    );
    let bye = write(
        "bye.toml",
        "[event]\nname = \"Bye\"\nsport = \"bridge\"\nsystem = \"swiss\"\nkind = \"team\"\nrounds = 1\n\
         [[participants]]\nid = \"A\"\n[[participants]]\nid = \"B\"\n[[participants]]\nid = \"C\"\n\
         [[rounds]]\nround = 1\ngames = [ { home = \"A\", away = \"B\", vp = [12, 8], imps = [30, 25], total = [900, 880] } ]\n\
         byes = [ { id = \"C\", type = \"pairing\" } ]\n",
    );
    let field = slipped(
        "field.toml",
        "bridge-pairs.toml",
        "sessions = [9, 11]",
        "sessions = [9, 11]\nvalues = { field = 1 }",
    );
    let imp = slipped(
        "imp.toml",
        "bridge-swiss-teams.toml",
        "imps = [16, 37]",
        "imp = [16, 37]",
    );
    let empty = write("empty.toml", "# nothing yet\n");
    let unknown = slipped(
        "unknown.toml",
        "chess-swiss.toml",
        "{ home = 1, away = 6, result = \"1-0\" }",
        "{ home = 1, away = 66, result = \"1-0\" }",
    );
    let trf_points = {
        // A TRF whose points column disagrees with its results.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(root.join("tests/fixtures/data/chess/tec_swiss_de.trf"))
            .unwrap();
        let line = text
            .lines()
            .find(|l| l.starts_with("001"))
            .expect("a player line")
            .to_string();
        // Columns 81-84: the points.
        let mut bad = line.clone();
        if bad.len() >= 84 {
            bad.replace_range(80..84, "99.0");
        }
        write("points.trf", &text.replacen(&line, &bad, 1))
    };
    vec![
        slip(
            "a CSV name misspelt in one round",
            &["eval", "cards/swiss", &csv_typo],
            "tb::load::csv::similar_name",
            0,
        ),
        slip(
            "a CSV column misspelt",
            &["eval", "cards/swiss", &csv_column],
            "tb::load::csv::unknown_column",
            0,
        ),
        slip(
            "a misspelt carry-over",
            &["eval", "wbf/knockout", &carry],
            "tb::data::unread_value",
            0,
        ),
        slip(
            "a knockout round without its stage",
            &["eval", "wbf/knockout", &no_stage],
            "tb::load::native::stage_missing",
            3,
        ),
        slip(
            "boards on some games only",
            &["eval", "wbf/pairs", &boards],
            "tb::data::partial_data",
            3,
        ),
        slip(
            "declared session scores that disagree with the games",
            &["eval", "wbf/pairs", &sessions],
            "tb::load::native::session_mismatch",
            3,
        ),
        slip(
            "a bridge pairing bye of unstated worth",
            &["eval", "wbf/swiss-teams", &bye],
            "tb::load::native::bye_worth",
            3,
        ),
        slip(
            "a field given for some pairs only",
            &["eval", "ebu/split-tie", &field],
            "tb::load::native::field_missing",
            3,
        ),
        slip(
            "`imp` for `imps` on one match",
            &["eval", "wbf/swiss-teams", &imp],
            "tb::data::partial_data",
            3,
        ),
        slip(
            "an empty native file",
            &["eval", "cards/swiss", &empty],
            "tb::load::native::empty",
            3,
        ),
        slip(
            "a game naming an unknown participant",
            &["eval", "fide/swiss", &unknown],
            "tb::load::native::unknown_participant",
            3,
        ),
        slip(
            "a TRF points column that disagrees",
            &["eval", "--tiebreaks", "PTS", &trf_points],
            "tb::load::warning",
            0,
        ),
    ]
}

/// Slips on the command line: a ruleset of another sport, options that do
/// not fit, misspelt names.
fn command_line_slips() -> Vec<Slip> {
    let swiss = example_path("chess-swiss.toml");
    let cards = example_path("cards-swiss.toml");
    let bridge = example_path("bridge-swiss-teams.toml");
    vec![
        slip(
            "a chess ruleset on a bridge event",
            &["eval", "fide/swiss", &bridge],
            "tb::check::sport_mismatch",
            0,
        ),
        slip(
            "--edition on a non-FIDE ruleset",
            &["eval", "cards/swiss", &cards, "--edition", "2026"],
            "tb::cli::usage",
            2,
        ),
        slip(
            "a ruleset and --tiebreaks together",
            &["eval", "fide/swiss", &swiss, "--tiebreaks", "BH"],
            "tb::cli::usage",
            2,
        ),
        slip(
            "a misspelt shipped ruleset",
            &["eval", "fide/swis", &swiss],
            "tb::check::unknown_ruleset",
            3,
        ),
        slip(
            "an unknown --param",
            &["eval", "cards/swiss", &cards, "--param", "flor=0.4"],
            "tb::check::unknown_param",
            2,
        ),
        slip(
            "an unknown --ids",
            &["explain", "cards/swiss", &cards, "--ids", "zed"],
            "tb::cli::unknown_id",
            2,
        ),
        slip(
            "--strict and a warning",
            &["eval", "fide/swiss", &bridge, "--strict"],
            "tb::check::sport_mismatch",
            3,
        ),
    ]
}

fn example_path(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}
