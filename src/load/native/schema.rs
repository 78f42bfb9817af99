//! The native format's schema in one table: every table of an event, its fields and their kinds, which are required, and which the one-pass JSON reader leaves to the tree reader.
//!
//! Both readers consult it. The tree reader (`build`, `game`) takes from
//! it what each table is called in diagnostics, which keys are fields, the
//! unknown-field message with the list of fields, and the help for a
//! missing required field. The one-pass reader (`fast`) takes which keys
//! are fields and which of them it leaves to the tree reader. A field is
//! added, renamed or removed here, then read in both: `tests/native_schema.rs`
//! checks that both readers take every field of this table (with its
//! `example`) and refuse the same unknown ones. `docs/data-format.md`
//! describes the same schema for people.

/// What a field's value is (a number may always be written as a string).
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A string.
    Text,
    /// A string, one of the listed choices.
    Choice(&'static str),
    /// An exact number.
    Number,
    /// A whole number.
    Whole,
    /// A whole number from 0.
    Count,
    /// A participant or member id: a string, or a whole number kept as text.
    Id,
    /// `true` or `false`.
    Bool,
    /// Two numbers, `[home, away]`.
    Pair,
    /// A table of named numbers (values read by rulesets).
    Values,
    /// A list of strings.
    Texts,
    /// A list of numbers.
    Numbers,
    /// A list of participant ids.
    Ids,
    /// A table of this schema.
    Table(&'static Table),
    /// A list of tables of this schema.
    Tables(&'static Table),
    /// A list of members: each a name, or a table of this schema.
    NamesOr(&'static Table),
    /// A list of boards: each a pair `[home, away]`, or a table of this schema.
    PairsOr(&'static Table),
}

/// One field of a table.
#[derive(Debug)]
pub struct Field {
    /// The key.
    pub name: &'static str,
    /// What its value is.
    pub kind: Kind,
    /// For a required field, the help given when it is missing.
    pub required: Option<&'static str>,
    /// Whether the one-pass JSON reader reads it; a field it does not is
    /// rare, and the reader leaves the whole file to the tree reader.
    pub fast: bool,
    /// A valid value, as JSON (for tests and examples).
    pub example: &'static str,
}

/// What a key that is none of a table's fields is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Others {
    /// An unknown field: an error.
    Refused,
    /// A unit with a value for each side: `[home, away]`.
    UnitPair,
    /// A unit with one value.
    UnitValue,
}

/// One table of the format.
#[derive(Debug)]
pub struct Table {
    /// How diagnostics name it ("a participant", "[event]").
    pub what: &'static str,
    /// Its fields, in the order diagnostics list them.
    pub fields: &'static [Field],
    /// What any other key is.
    pub others: Others,
}

impl Table {
    /// The index of the field `key` names.
    pub fn find(&self, key: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == key)
    }

    /// Whether `name` is one of the fields.
    pub fn has(&self, name: &str) -> bool {
        self.find(name).is_some()
    }

    /// The help for a missing required field `name`.
    pub fn required_help(&self, name: &str) -> &'static str {
        self.find(name)
            .and_then(|i| self.fields[i].required)
            .unwrap_or("")
    }

    /// The choices of the field `name` (of kind [`Kind::Choice`]), as
    /// diagnostics list them.
    pub fn choices(&self, name: &str) -> &'static str {
        match self.find(name).map(|i| self.fields[i].kind) {
            Some(Kind::Choice(list)) => list,
            _ => "",
        }
    }

    /// The message for a key that is not a field (and, where other keys
    /// are units, whose value is not one).
    pub fn unknown(&self, key: &str) -> String {
        let not_unit = match self.others {
            Others::Refused => "",
            Others::UnitPair => ", and its value is not a unit pair [home, away]",
            Others::UnitValue => ", and its value is not a unit value",
        };
        format!("{} has no field `{key}`{not_unit}", self.what)
    }

    /// The help for a key that is not a field: the list of fields.
    pub fn help(&self) -> String {
        let mut names: Vec<&str> = self.fields.iter().map(|f| f.name).collect();
        match self.others {
            Others::Refused => {}
            Others::UnitPair => names.push("any other name: a unit, [home, away]"),
            Others::UnitValue => names.push("any other name: a unit, one number"),
        }
        format!("the fields of {} are: {}", self.what, names.join(", "))
    }
}

/// Every table of the format, for tests and documentation.
pub static TABLES: [&Table; 10] = [
    &ROOT,
    &EVENT,
    &SCORING,
    &PARTICIPANT,
    &MEMBER,
    &ROUND,
    &GAME,
    &BOARD,
    &BYE,
    &DECISION,
];

/// An optional field the one-pass reader reads.
const fn opt(name: &'static str, kind: Kind, example: &'static str) -> Field {
    Field {
        name,
        kind,
        required: None,
        fast: true,
        example,
    }
}

/// An optional field the one-pass reader leaves to the tree reader.
const fn slow(name: &'static str, kind: Kind, example: &'static str) -> Field {
    Field {
        fast: false,
        ..opt(name, kind, example)
    }
}

/// A required field, with the help given when it is missing.
const fn req(name: &'static str, kind: Kind, example: &'static str, help: &'static str) -> Field {
    Field {
        required: Some(help),
        ..opt(name, kind, example)
    }
}

/// The file itself.
pub static ROOT: Table = Table {
    what: "the file",
    fields: &[
        opt("event", Kind::Table(&EVENT), r#"{"name": "Open"}"#),
        opt("participants", Kind::Tables(&PARTICIPANT), "[]"),
        opt("rounds", Kind::Tables(&ROUND), "[]"),
        opt("decisions", Kind::Tables(&DECISION), "[]"),
    ],
    others: Others::Refused,
};

/// `[event]`.
pub static EVENT: Table = Table {
    what: "[event]",
    fields: &[
        opt("name", Kind::Text, r#""Open""#),
        opt(
            "sport",
            Kind::Choice("chess, cards, bridge, other"),
            r#""chess""#,
        ),
        opt(
            "system",
            Kind::Choice("swiss, round-robin, knockout, movement, other"),
            r#""round-robin""#,
        ),
        opt("kind", Kind::Choice("player, pair, team"), r#""player""#),
        opt("rounds", Kind::Count, "9"),
        opt("start_date", Kind::Text, r#""2025-01-04""#),
        opt("scoring", Kind::Table(&SCORING), r#"{"win": 3}"#),
        opt("primary", Kind::Text, r#""vp""#),
        opt("values", Kind::Values, r#"{"k": 2}"#),
        opt("tiebreaks", Kind::Texts, r#"["BH"]"#),
    ],
    others: Others::Refused,
};

/// `event.scoring`: the points for each outcome, and for a pairing bye.
pub static SCORING: Table = Table {
    what: "`event.scoring`",
    fields: &[
        opt("win", Kind::Number, "3"),
        opt("draw", Kind::Number, "1"),
        opt("loss", Kind::Number, "0"),
        slow("bye", Kind::Number, "1"),
    ],
    others: Others::Refused,
};

/// One of `participants`.
pub static PARTICIPANT: Table = Table {
    what: "a participant",
    fields: &[
        req(
            "id",
            Kind::Id,
            r#""p1""#,
            "give every participant an id (a string or a whole number)",
        ),
        opt("name", Kind::Text, r#""Alice""#),
        opt("rating", Kind::Whole, "2100"),
        opt("title", Kind::Text, r#""GM""#),
        opt("federation", Kind::Text, r#""NOR""#),
        opt("sex", Kind::Text, r#""w""#),
        opt("born", Kind::Whole, "2008"),
        opt("withdrawn_after", Kind::Count, "9"),
        opt("members", Kind::NamesOr(&MEMBER), r#"["Bo", {"id": "c"}]"#),
        opt("sessions", Kind::Numbers, "[1]"),
        opt("values", Kind::Values, r#"{"k": 2}"#),
        opt("score", Kind::Number, "1"),
        opt("rank", Kind::Count, "1"),
    ],
    others: Others::Refused,
};

/// One of a participant's `members`, written as a table.
pub static MEMBER: Table = Table {
    what: "a member",
    fields: &[
        opt("id", Kind::Id, r#""m1""#),
        opt("name", Kind::Text, r#""Bo""#),
        opt("rating", Kind::Whole, "1900"),
    ],
    others: Others::Refused,
};

/// One of `rounds`.
pub static ROUND: Table = Table {
    what: "a round",
    fields: &[
        opt("round", Kind::Count, "1"),
        opt("session", Kind::Count, "1"),
        slow(
            "stage",
            Kind::Choice(crate::model::Stage::NAMES),
            r#""qualification""#,
        ),
        opt("games", Kind::Tables(&GAME), "[]"),
        opt("byes", Kind::Tables(&BYE), "[]"),
    ],
    others: Others::Refused,
};

/// The help for a game without both sides.
const BOTH_SIDES: &str = "name both sides; a participant without an opponent gets a bye in `byes`";

/// One of a round's `games`; any other key is a unit, `[home, away]`.
pub static GAME: Table = Table {
    what: "a game",
    fields: &[
        req("home", Kind::Id, r#""p1""#, BOTH_SIDES),
        req("away", Kind::Id, r#""p2""#, BOTH_SIDES),
        opt("result", Kind::Text, r#""1-0""#),
        opt("points", Kind::Pair, "[1, 0]"),
        opt("weight", Kind::Number, "1"),
        slow("boards", Kind::PairsOr(&BOARD), "[[1, 0]]"),
        slow("home_partner", Kind::Id, r#""p3""#),
        slow("away_partner", Kind::Id, r#""p4""#),
    ],
    others: Others::UnitPair,
};

/// The help for a board without both scores.
const BOTH_SCORES: &str =
    "write a board as [home, away] or { number = 7, home = 6, away = -6, top = 24 }";

/// One of a game's `boards`, written as a table.
pub static BOARD: Table = Table {
    what: "a board",
    fields: &[
        slow("number", Kind::Count, "7"),
        Field {
            fast: false,
            ..req("home", Kind::Number, "6", BOTH_SCORES)
        },
        Field {
            fast: false,
            ..req("away", Kind::Number, "-6", BOTH_SCORES)
        },
        slow("top", Kind::Number, "24"),
        slow("played", Kind::Bool, "true"),
    ],
    others: Others::Refused,
};

/// One of a round's `byes`; any other key is a unit, one number.
pub static BYE: Table = Table {
    what: "a bye",
    fields: &[
        req(
            "id",
            Kind::Id,
            r#""p5""#,
            "name who had the bye: { id = \"erin\", type = \"pairing\" }",
        ),
        opt(
            "type",
            Kind::Choice("pairing, full, half, zero, absent"),
            r#""half""#,
        ),
        opt("points", Kind::Number, "0.5"),
    ],
    others: Others::UnitValue,
};

/// One of `decisions`: an order decided outside the tie-breaks.
pub static DECISION: Table = Table {
    what: "a decision",
    fields: &[
        req(
            "order",
            Kind::Ids,
            r#"["p1"]"#,
            "list the participants in the decided order: order = [\"A\", \"B\"]",
        ),
        opt("reason", Kind::Text, r#""lot""#),
    ],
    others: Others::Refused,
};
