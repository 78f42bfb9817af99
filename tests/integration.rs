//! Every integration test, in one test binary.
//!
//! Each file under `tests/` stays a module of its own (`tests/cli.rs`, ...),
//! named as before in the docs; they are built and linked once here instead
//! of as 27 binaries that each linked the whole of `tb` and its dependencies
//! (3.1 GB of `target/` and most of CI's build time; a CI run once failed
//! for lack of disk while linking them). `Cargo.toml` sets `autotests =
//! false` so that cargo does not also build each file on its own.

// Helpers shared by several test modules, declared once.
mod bridge_support;
mod common;
mod fide_support;
#[path = "../fuzz/harness.rs"]
mod harness;
// The command line's ruleset files on disk (the library's checker reads none).
// Some of its functions serve only `tb fmt`, which the tests run as a binary.
#[allow(dead_code)]
#[path = "../src/cli/files.rs"]
mod files;

mod bridge_cli;
mod bridge_data;
mod bridge_ebu;
mod bridge_usebio;
mod bridge_usebio_dialects;
mod bridge_wbf_other;
mod bridge_wbf_round_robin;
mod bridge_wbf_swiss;
mod builtins_readme;
mod categories;
mod cli;
mod cli_commands;
mod cli_diagnostics;
mod columnar;
mod data_reads;
mod direction;
mod during_event;
mod editor_grammar;
mod encodings;
mod error_catalogue;
mod explain_schema;
mod fide_cli;
mod fide_oracle;
mod fide_team_articles;
mod fide_team_oracle;
mod fide_tiebreaks;
mod fide_unplayed;
mod fmt;
mod group_forms;
mod hostile_files;
mod hostile_props;
mod hostile_regressions;
mod language;
mod layers;
mod load_csv;
mod load_fast;
mod load_native;
mod load_trf;
mod named_args;
mod native_fast;
mod native_schema;
mod output_corpus;
mod perf_events;
mod remainder;
mod render_speed_equivalence;
mod resolver;
mod ruleset_tests;
mod seed_001_cards;
mod seed_002_us_chess;
mod short_codes;
mod short_codes_federations;
mod slips;
mod stage_fixtures;
mod syntax_recovery;
mod syntax_rules;
mod tables;
mod trf_dialects;
mod undefined;
