//! Every diagnostic code tb emits, as a named constant: one definition each, documented with an example in `docs/errors.md`.
//!
//! Codes are part of tb's interface (scripts match on them): a code is
//! never renamed. A new code is added here, used through its constant,
//! and documented in `docs/errors.md` (a test checks both ways).

macro_rules! codes {
    ($($(#[$doc:meta])* $name:ident = $code:literal;)*) => {
        $($(#[$doc])* pub const $name: &str = $code;)*
        /// Every code above, in order.
        pub const ALL: &[&str] = &[$($name),*];
    };
}

codes! {
    /// A function or metric called with the wrong number of arguments.
    CHECK_ARITY = "tb::check::arity";
    /// `sport "..."` naming no sport of the data format (chess, cards, bridge, other; the help suggests the nearest), or two different `sport` lines in one file.
    CHECK_BAD_SPORT = "tb::check::bad_sport";
    /// `by` or `voluntary` in an aggregate instead of a list.
    CHECK_BY_OUTSIDE_LIST = "tb::check::by_outside_list";
    /// A `category` line (or `--category`) that cannot work: a category without a name.
    CHECK_CATEGORY = "tb::check::category";
    /// A declaration of short codes that cannot work (`modifier` not one letter, `takes` a letter no `modifier` declares, `means` a code that does not exist, `remaining codes` outside a code, a list as the standings without a `codes` declaration).
    CHECK_CODES = "tb::check::codes";
    /// Metrics that depend on themselves.
    CHECK_CYCLE = "tb::check::cycle";
    /// A step whose `desc`/`asc` contradicts the `higher is better` / `lower is better` its metric or criterion declares (a place compared `desc` ranks the last first). The help says to drop the word, or to write `reversed` to rank the other way on purpose.
    CHECK_DIRECTION = "tb::check::direction";
    /// A parameter given two values: by position and by name, or by name twice.
    CHECK_DUPLICATE_ARGUMENT = "tb::check::duplicate_argument";
    /// A name defined twice (across imports too); the help names the first.
    CHECK_DUPLICATE_DEFINITION = "tb::check::duplicate_definition";
    /// Two `standings` lines in the root file.
    CHECK_DUPLICATE_STANDINGS = "tb::check::duplicate_standings";
    /// More than one problem in a ruleset: the summary; each problem is a related diagnostic. Past 100, the rest are counted.
    CHECK_ERRORS = "tb::check::errors";
    /// `group`, `others` or a criterion used in a plain `metric`.
    CHECK_GROUP_IN_METRIC = "tb::check::group_in_metric";
    /// Files that import each other; the message shows the chain.
    CHECK_IMPORT_CYCLE = "tb::check::import_cycle";
    /// Imports nested deeper than 16, or more than 256 files.
    CHECK_IMPORT_DEPTH = "tb::check::import_depth";
    /// A ruleset file that cannot be read (missing rights, not UTF-8, over 1 MiB), or that `tb fmt` cannot write (a full disk: the file is left as it was).
    CHECK_IO = "tb::check::io";
    /// `import` or `table` naming something that is not a regular file: a named pipe (FIFO), a device, a socket or a folder. Refused before it is read, so a FIFO never blocks.
    CHECK_NOT_A_FILE = "tb::check::not_a_file";
    /// `import` or `table` naming a file (not named `.tb`) that neither parses as a ruleset nor reads as a table (most lines two numbers): refused by name, its lines not quoted.
    CHECK_NOT_A_RULESET = "tb::check::not_a_ruleset";
    /// `import` or `table` naming an absolute path, or a file out of the root ruleset's folder (by `..` or a symbolic link), that no `--allow-path` folder holds.
    CHECK_PATH_OUTSIDE = "tb::check::path_outside";
    /// A step's `when` about one participant rather than the group.
    CHECK_ME_IN_CONDITION = "tb::check::me_in_condition";
    /// A call with named arguments that leaves a parameter without a value (the help names it).
    CHECK_MISSING_ARGUMENT = "tb::check::missing_argument";
    /// A step with no direction to go by: no `desc`/`asc` over a value that declares none (an expression, or a metric without `higher/lower is better`), or `reversed` over such a value.
    CHECK_NO_DIRECTION = "tb::check::no_direction";
    /// `first_place` or `last_place` (the places of a tied group) outside a step's `when`.
    CHECK_PLACES_OUTSIDE_CONDITION = "tb::check::places_outside_condition";
    /// `param` or `set` with a value that is not a constant number.
    CHECK_PARAM_NOT_CONSTANT = "tb::check::param_not_constant";
    /// An argument without a name after a named one.
    CHECK_POSITIONAL_AFTER_NAMED = "tb::check::positional_after_named";
    /// A read that disagrees with its declaration's default: declared `default N` but read without `?? N`, read with `??` but declared without a default, or two different defaults.
    CHECK_READ_DEFAULT = "tb::check::read_default";
    /// A definition named like a built-in field or name, which would change what `r.points` or `score` mean everywhere; a `reads` declaration of a built-in field (it is not a data value).
    CHECK_SHADOWS_BUILTIN = "tb::check::shadows_builtin";
    /// A **warning** (the run goes on; `--strict` makes it an error): the ruleset says it is for one sport (`sport "chess"`, its own or its libraries') and the data declares another (native `sport`, CSV `# sport:`, TRF is chess, USEBIO bridge). Data whose sport is only the default, and `other` on either side, are not compared.
    CHECK_SPORT_MISMATCH = "tb::check::sport_mismatch";
    /// A table's rows out of order: a key not above the key before it (the error points at the row in the data file).
    CHECK_TABLE_ORDER = "tb::check::table_order";
    /// A row of a table's data file that is not two exact numbers, a key and its value (the error points at the row), or a data file with no rows.
    CHECK_TABLE_ROW = "tb::check::table_row";
    /// A data value read (a field that is neither built in nor a metric: `r.imps`, `me.carryover`, `event.team_size`) that no `reads` line of the ruleset or its libraries declares; the help gives the line to add and a did-you-mean.
    CHECK_UNDECLARED_READ = "tb::check::undeclared_read";
    /// `for ... in` given to a function that is not an aggregate.
    CHECK_UNKNOWN_AGGREGATE = "tb::check::unknown_aggregate";
    /// A named argument (`name: value`) whose name is no parameter of the metric called (the help suggests the nearest and lists the parameters), a named argument to a built-in function (they take arguments by position only), or `name: value` outside a call.
    CHECK_UNKNOWN_ARGUMENT = "tb::check::unknown_argument";
    /// `edition "..."` naming no edition the imported `editions` declaration lists (the help lists them).
    CHECK_UNKNOWN_EDITION = "tb::check::unknown_edition";
    /// A call to a name that is neither a metric nor a built-in function.
    CHECK_UNKNOWN_FUNCTION = "tb::check::unknown_function";
    /// `import` of a name that is neither shipped nor a file next to the importing one.
    CHECK_UNKNOWN_IMPORT = "tb::check::unknown_import";
    /// An unknown name or `.metric(...)`; the help suggests the nearest name.
    CHECK_UNKNOWN_METRIC = "tb::check::unknown_metric";
    /// `set` or `--param` naming no parameter (the help lists them).
    CHECK_UNKNOWN_PARAM = "tb::check::unknown_param";
    /// `standings` or a hand-off naming no procedure.
    CHECK_UNKNOWN_PROCEDURE = "tb::check::unknown_procedure";
    /// A ruleset name that is neither shipped nor a file.
    CHECK_UNKNOWN_RULESET = "tb::check::unknown_ruleset";
    /// A `table` whose data file cannot be found (relative to the declaring file, or among the shipped files).
    CHECK_UNKNOWN_TABLE_FILE = "tb::check::unknown_table_file";
    /// `--param` not `NAME=VALUE`, or a value that is not a number.
    CLI_BAD_PARAM = "tb::cli::bad_param";
    /// `tb fmt` or `--write-trf` left a file alone: it changed on disk since tb read it (an edit saved meanwhile), or a file appeared where `--write-trf` was to create one. Exit code 3.
    CLI_FILE_CHANGED = "tb::cli::file_changed";
    /// `tb eval DATA` with no ruleset, no `--tiebreaks` and no tie-breaks in the data.
    CLI_NO_RULESET = "tb::cli::no_ruleset";
    /// `--strict` and more than one warning: the summary; each warning is an error under it, with its own code (a single warning is reported alone, under its code). Exit code 3.
    CLI_STRICT = "tb::cli::strict";
    /// `tb explain --ids` with an id not in the event.
    CLI_UNKNOWN_ID = "tb::cli::unknown_id";
    /// Options that do not go together (a ruleset and `--tiebreaks`; `--edition` for a non-FIDE ruleset).
    CLI_USAGE = "tb::cli::usage";
    /// `tb eval --write-trf OUT`: OUT cannot be written. Exit code 3.
    CLI_WRITE_FAILED = "tb::cli::write_failed";
    /// `tb eval --write-trf OUT` refused: the event is not a TRF file (or came from standard input), OUT is the input file, a rank does not fit the rank column, or a team file has only `013` records (no rank column). Exit code 2.
    CLI_WRITE_TRF = "tb::cli::write_trf";
    /// Data the ranking reads on some but not all: a unit on some played games only, board results on some played games only, a participant value without a declared default that some participants lack; names the participants and rounds. Byes and unplayed rounds are exempt.
    DATA_PARTIAL_DATA = "tb::data::partial_data";
    /// A warning: a native file's participant value no loaded ruleset file declares (with a did-you-mean), or an event value or game unit that looks like a misspelling of a declared one. Units and event values the ruleset just does not use are not reported.
    DATA_UNREAD_VALUE = "tb::data::unread_value";
    /// A modifier's number out of range.
    DESCRIPTORS_BAD_VALUE = "tb::descriptors::bad_value";
    /// An empty list, or an empty item in it.
    DESCRIPTORS_EMPTY = "tb::descriptors::empty";
    /// A modifier the code does not take, or a repeated one.
    DESCRIPTORS_INVALID_COMBINATION = "tb::descriptors::invalid_combination";
    /// A team tie-break or a team score type in an individual list.
    DESCRIPTORS_TEAM_CODE = "tb::descriptors::team_code";
    /// Not a FIDE tie-break code (or written with a dash).
    DESCRIPTORS_UNKNOWN_CODE = "tb::descriptors::unknown_code";
    /// A modifier tb does not know or support.
    DESCRIPTORS_UNKNOWN_MODIFIER = "tb::descriptors::unknown_modifier";
    /// Never shown: an internal signal that the columnar evaluator (`src/columns.rs`) cannot compute a metric as the per-participant evaluator would; that evaluator then computes it.
    EVAL_COLUMNAR = "tb::eval::columnar";
    /// Never shown: an internal signal that an `all`/`any` aggregate is decided and stops early.
    EVAL_DECIDED = "tb::eval::decided";
    /// Arithmetic on `infinity` (it may only be compared).
    EVAL_INFINITY = "tb::eval::infinity";
    /// The ruleset asks for data the event does not have: a unit (`r.imps`), a participant or event value, ratings when no participant has one, boards when no game has any. `a ?? b` treats it as undefined.
    EVAL_MISSING_DATA = "tb::eval::missing_data";
    /// `group`/`others` evaluated outside a tie. An internal guard: the checker refuses every way to write it (`tb::check::group_in_metric`).
    EVAL_NO_GROUP = "tb::eval::no_group";
    /// Something about one participant where there is none: a metric in a step's `when`.
    EVAL_NO_PARTICIPANT = "tb::eval::no_participant";
    /// Ranking with a library (no `standings` line).
    EVAL_NO_STANDINGS = "tb::eval::no_standings";
    /// `metric_value` on a metric that takes arguments or needs a tied group.
    EVAL_NOT_A_PLAIN_METRIC = "tb::eval::not_a_plain_metric";
    /// A table looked up outside its range. Not raised since tables are declared in the language: a lookup below a table's first key is undefined, with its reason.
    EVAL_OUT_OF_RANGE = "tb::eval::out_of_range";
    /// A value beyond what an exact fraction of 64-bit integers holds (also a score too large in the data).
    EVAL_OVERFLOW = "tb::eval::overflow";
    /// The evaluation budget runs out (loops that multiply, metrics with arguments computed anew at each use), or a list past 1,000,000 items.
    EVAL_TOO_COSTLY = "tb::eval::too_costly";
    /// Evaluation nested past 2,000 levels (long chains of metrics using metrics).
    EVAL_TOO_DEEP = "tb::eval::too_deep";
    /// `integers(a, b)` with more than 1,000,000 numbers.
    EVAL_TOO_LARGE = "tb::eval::too_large";
    /// The procedures applied more than 10,000,000 steps, or 25,000,000 participant-steps (a huge tie meeting very many steps).
    EVAL_TOO_MANY_STEPS = "tb::eval::too_many_steps";
    /// A value of the wrong kind for an operation.
    EVAL_TYPE = "tb::eval::type";
    /// A condition that must be true or false to go on is undefined: a step's `when`, or a list item's `voluntary` flag, reads a value the data does not give (the language's three-valued logic never takes an undefined condition as false).
    EVAL_UNDEFINED_CONDITION = "tb::eval::undefined_condition";
    /// `metric_value` with a name that is neither a metric nor a built-in field.
    EVAL_UNKNOWN_METRIC = "tb::eval::unknown_metric";
    /// `metric_value` (library API) with an id not in the event.
    EVAL_UNKNOWN_PARTICIPANT = "tb::eval::unknown_participant";
    /// `tb fmt` would have changed a file's tokens or what it parses to, or would not be idempotent on it: a bug in the formatter; nothing is written.
    FMT_UNSTABLE = "tb::fmt::unstable";
    /// Two `drop` rows for one player (names compared without case and spacing).
    LOAD_CSV_DROPPED_TWICE = "tb::load::csv::dropped_twice";
    /// A **warning**: a game row with one games-won cell empty beside a filled one, read as 0 (one warning per file, naming the first such row and counting the rest).
    LOAD_CSV_EMPTY_COUNT = "tb::load::csv::empty_count";
    /// A file saved as UTF-16 ("Unicode text"), not UTF-8.
    LOAD_CSV_ENCODING = "tb::load::csv::encoding";
    /// A row CSV cannot read (an unclosed quote, text after a closing quote, ...), a cell that is not what its column needs, a `drop` row that names an opponent.
    LOAD_CSV_MALFORMED = "tb::load::csv::malformed";
    /// A required column missing from the header.
    LOAD_CSV_MISSING_COLUMN = "tb::load::csv::missing_column";
    /// No header row.
    LOAD_CSV_NO_HEADER = "tb::load::csv::no_header";
    /// A game row (an opponent named) with both games-won cells empty: a result not entered yet.
    LOAD_CSV_NO_RESULT = "tb::load::csv::no_result";
    /// A **warning**: a name (of four characters or more) that plays in one round only, while a name one letter from it (a letter changed, added or left out, or two neighbours swapped) has no game or bye that round; the message names both and asks "did you mean". Names that differ only in case or spacing are one player, not a warning. Past 100, the rest are counted in one warning.
    LOAD_CSV_SIMILAR_NAME = "tb::load::csv::similar_name";
    /// A **warning**: a header column tb does not read whose name is one or two letters from one it does; its values are ignored.
    LOAD_CSV_UNKNOWN_COLUMN = "tb::load::csv::unknown_column";
    /// The data file cannot be read (CLI).
    LOAD_IO = "tb::load::io";
    /// A **warning**: a data file whose lines mix UTF-8 and 8-bit text (not UTF-8): each line is read as UTF-8 where it is, else as Windows-1252; the warning names the first 8-bit line and counts the rest.
    LOAD_MIXED_ENCODING = "tb::load::mixed_encoding";
    /// A result the event's sport cannot read.
    LOAD_NATIVE_BAD_RESULT = "tb::load::native::bad_result";
    /// A bridge bye whose worth nothing states: a `pairing` bye without its `points` and without the event's `scoring.bye`; a `full` or `half` bye without `points` in an event with no `scoring`. Chess and card-game byes keep their regulations' values.
    LOAD_NATIVE_BYE_WORTH = "tb::load::native::bye_worth";
    /// A bridge game with a `carryover` unit in a round that is not in a knockout match (`stage` knockout, final or play-off): a knockout carry-over belongs to the knockout match.
    LOAD_NATIVE_CARRYOVER_OUTSIDE_KNOCKOUT = "tb::load::native::carryover_outside_knockout";
    /// Warning: a bridge knockout event gives a team's carry-over as the participant value `carryover` (the older form); it is read as the carry-over into the knockout match, but belongs on the match: `carryover = [home, away]` on one of its games.
    LOAD_NATIVE_CARRYOVER_VALUE = "tb::load::native::carryover_value";
    /// Two participants with one id.
    LOAD_NATIVE_DUPLICATE_PARTICIPANT = "tb::load::native::duplicate_participant";
    /// A `.toml` or `.json` file with nothing in it, or only blanks and comments (an empty file is refused in every format).
    LOAD_NATIVE_EMPTY = "tb::load::native::empty";
    /// Some participants have a `field` (two-winner movement) and this one has none: each field is ranked on its own, so it would be ranked apart from both.
    LOAD_NATIVE_FIELD_MISSING = "tb::load::native::field_missing";
    /// One game recorded twice with different results (its two sides disagree).
    LOAD_NATIVE_INCONSISTENT_GAME = "tb::load::native::inconsistent_game";
    /// More than one problem in the file: the summary.
    LOAD_NATIVE_INVALID = "tb::load::native::invalid";
    /// A result unmistakably of another sport: games won-lost-drawn in a chess-style event, a chess draw in a card-game event.
    LOAD_NATIVE_MIXED_SPORTS = "tb::load::native::mixed_sports";
    /// A game with no result, points, primary unit or boards.
    LOAD_NATIVE_NO_RESULT = "tb::load::native::no_result";
    /// A participant with two games or byes in one round (not part-matches), or on both sides of one game.
    LOAD_NATIVE_PAIRED_TWICE = "tb::load::native::paired_twice";
    /// Round 0, a round after `event.rounds`, or `rounds = 0`.
    LOAD_NATIVE_ROUND_OUT_OF_RANGE = "tb::load::native::round_out_of_range";
    /// A participant's declared `sessions` score that differs from the sum of its points in that session's rounds (checked where its games in the session are there; several declared sessions are checked only when the rounds give `session` numbers).
    LOAD_NATIVE_SESSION_MISMATCH = "tb::load::native::session_mismatch";
    /// A bridge knockout event (`system = "knockout"`) with a round that does not say its `stage`, or no round in a knockout match: the knockout match is never guessed from session numbers (WBF 2).
    LOAD_NATIVE_STAGE_MISSING = "tb::load::native::stage_missing";
    /// TOML or JSON syntax; a value of the wrong type or not one of the choices; a number tb cannot hold exactly; a field given twice.
    LOAD_NATIVE_SYNTAX = "tb::load::native::syntax";
    /// A field the schema does not have (the help lists them).
    LOAD_NATIVE_UNKNOWN_FIELD = "tb::load::native::unknown_field";
    /// A game, bye or decision naming an id not in `[[participants]]`.
    LOAD_NATIVE_UNKNOWN_PARTICIPANT = "tb::load::native::unknown_participant";
    /// A data file over 200 MB (CLI), or native data past a limit above (file size, participants, rounds, participant-rounds, units, board totals).
    LOAD_TOO_LARGE = "tb::load::too_large";
    /// Two `001` lines with one starting number.
    LOAD_TRF_DUPLICATE_PLAYER = "tb::load::trf::duplicate_player";
    /// The two players' lines disagree about a game: opponent, results that do not fit together (`1` against `1`), colours; or a player paired with itself.
    LOAD_TRF_INCONSISTENT_GAME = "tb::load::trf::inconsistent_game";
    /// A field not in its columns' form (starting number, rating, points, rank, round blocks), a bye with an opponent, a game result with opponent 0000, an unreadable or too large number of rounds (142/XXR), a bad 162/240 record.
    LOAD_TRF_MALFORMED = "tb::load::trf::malformed";
    /// No `001` lines.
    LOAD_TRF_NO_PLAYERS = "tb::load::trf::no_players";
    /// A TRF file over 50 MiB, more than 100,000 players or 2,000,000 player-rounds.
    LOAD_TRF_TOO_LARGE = "tb::load::trf::too_large";
    /// A round block naming a starting number no `001` line has.
    LOAD_TRF_UNKNOWN_OPPONENT = "tb::load::trf::unknown_opponent";
    /// A 240 bye record naming an unknown starting number.
    LOAD_TRF_UNKNOWN_PLAYER = "tb::load::trf::unknown_player";
    /// A team record (300, 320, 330, 299) or a 240 bye of a team event naming a team number no 310 (or 013) record has.
    LOAD_TRF_UNKNOWN_TEAM = "tb::load::trf::unknown_team";
    /// A file whose name and text say neither TOML, JSON, TRF, CSV nor USEBIO.
    LOAD_UNKNOWN_FORMAT = "tb::load::unknown_format";
    /// A number field that is not a number.
    LOAD_USEBIO_BAD_NUMBER = "tb::load::usebio::bad_number";
    /// Two pairs or teams with one number.
    LOAD_USEBIO_DUPLICATE_PARTICIPANT = "tb::load::usebio::duplicate_participant";
    /// An element with more than 100 attributes (`load::usebio::MAX_ATTRIBUTES`); the XML reader's time grows with the square of their number.
    LOAD_USEBIO_ATTRIBUTES = "tb::load::usebio::attributes";
    /// A `<!DOCTYPE>` with a DTD of the file's own (an internal subset `[...]`, where entities are declared): refused before the XML is read. A DOCTYPE that only names an external DTD is accepted (and not fetched).
    LOAD_USEBIO_DTD = "tb::load::usebio::dtd";
    /// More than one problem in the file: the summary.
    LOAD_USEBIO_INVALID = "tb::load::usebio::invalid";
    /// A required element missing (`<EVENT>`, participants, a match's teams, ...).
    LOAD_USEBIO_MISSING = "tb::load::usebio::missing";
    /// XML whose root is not `<USEBIO>`.
    LOAD_USEBIO_NOT_USEBIO = "tb::load::usebio::not_usebio";
    /// XML that does not parse.
    LOAD_USEBIO_SYNTAX = "tb::load::usebio::syntax";
    /// A traveller line or match naming a pair or team not listed.
    LOAD_USEBIO_UNKNOWN_PARTICIPANT = "tb::load::usebio::unknown_participant";
    /// An event kind tb does not read from USEBIO (individual events).
    LOAD_USEBIO_UNSUPPORTED = "tb::load::usebio::unsupported";
    /// A warning from a loader, printed by the CLI; the run goes on. Each names the participant (and round where there is one): a recorded total that differs from the results (native `score`, TRF points column); a game's `points` that rank the sides the other way round from its `result`; results after a withdrawal; a 240 bye record that contradicts the 001 line; declared rounds fewer than the data shows.
    LOAD_WARNING = "tb::load::warning";
    /// `decimals` outside 0-12.
    PARSE_BAD_DECIMALS = "tb::parse::bad_decimals";
    /// A literal with more significant digits than an exact number holds.
    PARSE_BAD_NUMBER = "tb::parse::bad_number";
    /// Text the grammar does not accept; the message says what was expected and what was found.
    PARSE_SYNTAX = "tb::parse::syntax";
    /// Nesting past a limit above (brackets and `if`s, operator chains, `.field` chains, runs of `-`/`not`, `for` clauses).
    PARSE_TOO_DEEP = "tb::parse::too_deep";
    /// A ruleset file over 1 MiB or 200,000 tokens (no span: the whole file).
    PARSE_TOO_LARGE = "tb::parse::too_large";
    /// A **warning** (the run goes on; `--strict` makes it an error): a category's condition is undefined for some participants (an unrated player in `rating < 1600`, a birth year the data lacks), so they are neither in its list nor out of it; the warning names each with the reason, and the list names them under it. Say in the condition how they count: `rating < 1600 or not rated`, `defined(me.born) and me.born >= 2008`.
    RANK_CATEGORY_UNDECIDED = "tb::rank::category_undecided";
    /// A warning, printed by the CLI: a step placed a participant after those tied with it because its value there is undefined (data the step reads is missing for it). It names the participant, the criterion and why the value is missing (`round 1 against Finesse (F): no `imps` recorded (it records `imp`, ...)`); the output lists every undefined value with its reason.
    RANK_UNDEFINED_VALUE = "tb::rank::undefined_value";
    /// `tb test`: more than one test file or case could not be run: the summary; each problem is a related diagnostic.
    TEST_ERRORS = "tb::test::errors";
    /// A ruleset test file's key with a value of the wrong kind (`rank = "first"`, `system = "knockout"`), a file without `[[case]]`, a case without an event, or a setting `tb eval` would refuse on its command line (an edition the ruleset does not declare, a parameter it does not have).
    TEST_INVALID = "tb::test::invalid";
    /// A ruleset test naming a ruleset or event file that does not exist (relative to the test file), or a shipped ruleset that does not exist (the help suggests the nearest).
    TEST_MISSING_FILE = "tb::test::missing_file";
    /// A ruleset test case, or a participant in it, that expects nothing: no `expect`, an empty one, or a participant with no `rank`, `decided` or `values`.
    TEST_NO_EXPECTATION = "tb::test::no_expectation";
    /// `tb test` given a path that does not exist, a folder with no `*.test.toml` file, or a file it cannot read.
    TEST_NO_TESTS = "tb::test::no_tests";
    /// A ruleset test file that is not valid TOML.
    TEST_SYNTAX = "tb::test::syntax";
    /// A key a ruleset test file does not have (`expected` for `expect`); the help suggests the nearest.
    TEST_UNKNOWN_KEY = "tb::test::unknown_key";
    /// A ruleset test expecting something of a participant the event does not have (by id, or by a name only one participant has); the help suggests the nearest.
    TEST_UNKNOWN_PARTICIPANT = "tb::test::unknown_participant";
    /// A ruleset test expecting the value of something that is neither a step (its label) nor a metric of the ruleset; the help suggests the nearest.
    TEST_UNKNOWN_VALUE = "tb::test::unknown_value";
    /// `tb verify` on data that records no ranks.
    VERIFY_NO_RANKS = "tb::verify::no_ranks";
}
