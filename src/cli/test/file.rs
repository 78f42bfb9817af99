//! A ruleset test file (`*.test.toml`) read into its cases, keeping the
//! span of every key and value so that each mistake points into the file.
//! Every key is checked: an unknown one is an error with did-you-mean, so
//! that a misspelt `expect` cannot make a test pass by expecting nothing.

use super::nearest;
use tb::codes;
use tb::diag::{Diag, Source, Span};
use tb::num::Num;
use toml_edit::{Item, Key, TableLike};

/// A value and where the test file wrote it.
#[derive(Clone, Debug)]
pub struct At<T> {
    /// The value.
    pub v: T,
    /// Its text in the test file.
    pub span: Span,
}

/// Where a case's event comes from.
#[derive(Clone, Debug)]
pub enum EventRef {
    /// A data file, its path relative to the test file.
    Path(At<String>),
    /// A native TOML event written in the test file: the keys (and array
    /// indices) from the file's root to its table.
    Inline(Vec<String>),
}

/// What a case (or the whole file, for every case) sets as `tb eval`
/// would take it on its command line.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// A shipped ruleset name, or a `.tb` path relative to the test file.
    pub ruleset: Option<At<String>>,
    /// The event.
    pub event: Option<EventRef>,
    /// `--edition`.
    pub edition: Option<At<String>>,
    /// `--param NAME=VALUE`, each as written.
    pub params: Vec<At<String>>,
    /// `--tiebreaks`.
    pub tiebreaks: Option<At<String>>,
    /// `--library`.
    pub library: Option<At<String>>,
    /// `--system` (`swiss` or `round-robin`).
    pub system: Option<At<String>>,
}

/// One case: settings, and the standings expected.
#[derive(Clone, Debug)]
pub struct Case {
    /// `name`, else "case N".
    pub name: String,
    /// The case's table (its `[[case]]` header where there is one).
    pub span: Span,
    /// The settings, the file's own filled in where the case has none.
    pub settings: Settings,
    /// Per participant, what is expected.
    pub expect: Vec<Expect>,
}

/// What one participant is expected to have.
#[derive(Clone, Debug)]
pub struct Expect {
    /// Its id or name, as written (the key).
    pub who: At<String>,
    /// Its place.
    pub rank: Option<At<usize>>,
    /// The step that decided its place (its label), `shared`, or `unresolved`.
    pub decided: Option<At<String>>,
    /// Values of named steps or metrics.
    pub values: Vec<(At<String>, At<Expected>)>,
}

/// An expected value.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// An exact number (`12.5`, `"2/3"`).
    Num(Num),
    /// `"undefined"`.
    Undefined,
}

/// Keys of the file's top level.
const TOP_KEYS: &[&str] = &[
    "title",
    "source",
    "note",
    "ruleset",
    "event",
    "edition",
    "params",
    "tiebreaks",
    "library",
    "system",
    "case",
];
/// Keys of a `[[case]]`.
const CASE_KEYS: &[&str] = &[
    "name",
    "cite",
    "note",
    "ruleset",
    "event",
    "edition",
    "params",
    "tiebreaks",
    "library",
    "system",
    "expect",
];
/// Keys of one participant's expectation.
const EXPECT_KEYS: &[&str] = &["rank", "decided", "values"];

/// Read a test file into its cases, or the first mistake in it.
pub fn read(source: &Source) -> Result<Vec<Case>, Diag> {
    let doc = toml_edit::Document::parse(source.text.to_string())
        .map_err(|e| syntax_error(source, &e))?;
    let r = Reader { source };
    let root = doc.as_table();
    r.known_keys(root, TOP_KEYS, "the top of a test file")?;
    let defaults = r.settings(root, &[])?;
    let Some((case_key, cases)) = root.get_key_value("case") else {
        return Err(
            Diag::error(codes::TEST_INVALID, "the test file has no `[[case]]`")
                .at(source, Span::new(0, 0), "")
                .with_help("add a `[[case]]` with an `expect` table (README, Ruleset tests)"),
        );
    };
    let Some(cases) = cases.as_array_of_tables() else {
        return Err(r.wrong(case_key, cases, "an array of tables, `[[case]]`"));
    };
    let mut out = Vec::new();
    for (i, table) in cases.iter().enumerate() {
        let span = r.span(table.span()).unwrap_or_else(|| r.key_span(case_key));
        r.known_keys(table, CASE_KEYS, "a `[[case]]`")?;
        let name = match r.string(table, "name")? {
            Some(n) => n.v,
            None => format!("case {}", i + 1),
        };
        let own = r.settings(table, &["case".to_string(), i.to_string()])?;
        let settings = Settings {
            ruleset: own.ruleset.or_else(|| defaults.ruleset.clone()),
            event: own.event.or_else(|| defaults.event.clone()),
            edition: own.edition.or_else(|| defaults.edition.clone()),
            params: if own.params.is_empty() {
                defaults.params.clone()
            } else {
                own.params
            },
            tiebreaks: own.tiebreaks.or_else(|| defaults.tiebreaks.clone()),
            library: own.library.or_else(|| defaults.library.clone()),
            system: own.system.or_else(|| defaults.system.clone()),
        };
        if settings.event.is_none() {
            return Err(Diag::error(
                codes::TEST_INVALID,
                format!("`{name}` names no event"),
            )
            .at(source, span, "this case")
            .with_help("write `event = \"PATH\"` (a data file, relative to the test file) or an inline `[case.event]` table, in the case or at the top of the file"));
        }
        let expect = r.expect(table, &name, span)?;
        out.push(Case {
            name,
            span,
            settings,
            expect,
        });
    }
    Ok(out)
}

fn syntax_error(source: &Source, e: &toml_edit::TomlError) -> Diag {
    let msg = e.message().trim().replace('\n', "; ");
    let len = source.text.len();
    let span = e
        .span()
        .map(|r| {
            let start = r.start.min(len);
            let mut end = r.end.clamp(start, len);
            while !source.text.is_char_boundary(end) {
                end -= 1;
            }
            let start = start.min(end);
            if end == start {
                // toml 1.x marks some errors with an empty span: the
                // character there, as before.
                end += source.text[start..]
                    .chars()
                    .next()
                    .map_or(0, char::len_utf8);
            }
            Span::new(start, end)
        })
        .unwrap_or_default();
    Diag::error(
        codes::TEST_SYNTAX,
        format!("TOML syntax error in a test file: {msg}"),
    )
    .at(source, span, msg)
    .with_help("fix the TOML syntax here (README, Ruleset tests, shows a complete file)")
}

/// Reads tables of one test file, with diagnostics into it.
struct Reader<'a> {
    source: &'a Source,
}

impl Reader<'_> {
    fn span(&self, r: Option<std::ops::Range<usize>>) -> Option<Span> {
        r.map(|r| Span::new(r.start, r.end))
    }
    fn key_span(&self, k: &Key) -> Span {
        self.span(k.span()).unwrap_or_default()
    }
    /// The span of a value, else of its key.
    fn item_span(&self, k: &Key, item: &Item) -> Span {
        self.span(item.span()).unwrap_or_else(|| self.key_span(k))
    }
    fn wrong(&self, k: &Key, item: &Item, what: &str) -> Diag {
        Diag::error(codes::TEST_INVALID, format!("`{}` must be {what}", k.get()))
            .at(self.source, self.item_span(k, item), "here")
            .with_help("README, Ruleset tests, lists each key and what it takes")
    }
    /// Every key of `table` is one of `known`.
    fn known_keys(&self, table: &dyn TableLike, known: &[&str], place: &str) -> Result<(), Diag> {
        for (name, _) in table.iter() {
            if known.contains(&name) {
                continue;
            }
            let span = table
                .get_key_value(name)
                .map_or(Span::default(), |(k, _)| self.key_span(k));
            let near = match nearest(name, known.iter().copied()) {
                Some(k) => format!("did you mean `{k}`? "),
                None => String::new(),
            };
            return Err(Diag::error(
                codes::TEST_UNKNOWN_KEY,
                format!("unknown key `{name}` in {place}"),
            )
            .at(self.source, span, "not a key of a test file here")
            .with_help(format!("{near}the keys here are: {}", known.join(", "))));
        }
        Ok(())
    }
    /// A string (a number is taken as its text: `edition = 2024`).
    fn string(&self, table: &dyn TableLike, key: &str) -> Result<Option<At<String>>, Diag> {
        let Some((k, item)) = table.get_key_value(key) else {
            return Ok(None);
        };
        let span = self.item_span(k, item);
        let v = match item.as_value() {
            Some(v) if v.as_str().is_some() => v.as_str().unwrap_or_default().to_string(),
            Some(v) if v.is_integer() => self.source.text[span.start..span.end].to_string(),
            _ => return Err(self.wrong(k, item, "a string")),
        };
        Ok(Some(At { v, span }))
    }
    /// The settings a table gives; `at` is the path to it (for an inline event).
    fn settings(&self, table: &dyn TableLike, at: &[String]) -> Result<Settings, Diag> {
        let mut s = Settings {
            ruleset: self.string(table, "ruleset")?,
            edition: self.string(table, "edition")?,
            tiebreaks: self.string(table, "tiebreaks")?,
            library: self.string(table, "library")?,
            system: self.string(table, "system")?,
            ..Settings::default()
        };
        if let Some(sys) = &s.system {
            if sys.v != "swiss" && sys.v != "round-robin" {
                return Err(Diag::error(
                    codes::TEST_INVALID,
                    format!("`system = \"{}\"`: not a system", sys.v),
                )
                .at(self.source, sys.span, "here")
                .with_help("write `swiss` or `round-robin` (as `tb eval --system` takes)"));
            }
        }
        if let Some((k, item)) = table.get_key_value("event") {
            let span = self.item_span(k, item);
            s.event = Some(if let Some(p) = item.as_str() {
                EventRef::Path(At {
                    v: p.to_string(),
                    span,
                })
            } else if item.is_table_like() {
                let mut path = at.to_vec();
                path.push("event".to_string());
                EventRef::Inline(path)
            } else {
                return Err(self.wrong(
                    k,
                    item,
                    "the path of a data file, or a table (an event in tb's native TOML schema)",
                ));
            });
        }
        if let Some((k, item)) = table.get_key_value("params") {
            let Some(params) = item.as_table_like() else {
                return Err(self.wrong(k, item, "a table such as `{ floor = 0.33 }`"));
            };
            for (name, v) in params.iter() {
                let (key, _) = params.get_key_value(name).unwrap_or((k, v));
                let span = self.item_span(key, v);
                let text = self
                    .number_text(v)
                    .ok_or_else(|| self.wrong(key, v, "a number (`0.33`, `\"1/3\"`)"))?;
                s.params.push(At {
                    v: format!("{name}={text}"),
                    span,
                });
            }
        }
        Ok(s)
    }
    /// A number's text as written (a float's literal, not a float), or a
    /// string's content.
    fn number_text(&self, item: &Item) -> Option<String> {
        let v = item.as_value()?;
        if let Some(s) = v.as_str() {
            return Some(s.to_string());
        }
        if !(v.is_integer() || v.is_float()) {
            return None;
        }
        let r = v.span()?;
        Some(self.source.text[r].replace('_', ""))
    }
    /// A case's `expect` table.
    fn expect(&self, case: &dyn TableLike, name: &str, at: Span) -> Result<Vec<Expect>, Diag> {
        let nothing = |span: Span| {
            Diag::error(
                codes::TEST_NO_EXPECTATION,
                format!("`{name}` expects nothing"),
            )
            .at(self.source, span, "this case")
            .with_help("add `[case.expect]` with a participant's rank, e.g. `Alice = 1`, or `Bob = { rank = 2, decided = \"BH\", values = { BH = 12.5 } }`")
        };
        let Some((k, item)) = case.get_key_value("expect") else {
            return Err(nothing(at));
        };
        let Some(table) = item.as_table_like() else {
            return Err(self.wrong(
                k,
                item,
                "a table: participant = rank, or participant = { rank = ... }",
            ));
        };
        let mut out = Vec::new();
        for (who, v) in table.iter() {
            let (key, _) = table.get_key_value(who).unwrap_or((k, v));
            let who = At {
                v: who.to_string(),
                span: self.key_span(key),
            };
            let span = self.item_span(key, v);
            let mut e = Expect {
                who,
                rank: None,
                decided: None,
                values: Vec::new(),
            };
            if let Some(t) = v.as_table_like() {
                self.known_keys(t, EXPECT_KEYS, "a participant's expectation")?;
                if let Some((rk, rv)) = t.get_key_value("rank") {
                    e.rank = Some(self.rank(rk, rv)?);
                }
                e.decided = self.string(t, "decided")?;
                if let Some((vk, vv)) = t.get_key_value("values") {
                    let Some(values) = vv.as_table_like() else {
                        return Err(self.wrong(vk, vv, "a table such as `{ BH = 12.5 }`"));
                    };
                    for (label, x) in values.iter() {
                        let (lk, _) = values.get_key_value(label).unwrap_or((vk, x));
                        e.values.push((
                            At {
                                v: label.to_string(),
                                span: self.key_span(lk),
                            },
                            self.expected(lk, x)?,
                        ));
                    }
                }
                if e.rank.is_none() && e.decided.is_none() && e.values.is_empty() {
                    return Err(nothing(span));
                }
            } else {
                e.rank = Some(self.rank(key, v)?);
            }
            out.push(e);
        }
        if out.is_empty() {
            return Err(nothing(self.item_span(k, item)));
        }
        Ok(out)
    }
    fn rank(&self, k: &Key, item: &Item) -> Result<At<usize>, Diag> {
        match item.as_integer() {
            Some(r) if r >= 1 => Ok(At {
                v: r as usize,
                span: self.item_span(k, item),
            }),
            _ => Err(self.wrong(k, item, "a rank: a whole number from 1")),
        }
    }
    fn expected(&self, k: &Key, item: &Item) -> Result<At<Expected>, Diag> {
        let span = self.item_span(k, item);
        if item.as_str() == Some("undefined") {
            return Ok(At {
                v: Expected::Undefined,
                span,
            });
        }
        match self.number_text(item).and_then(|t| Num::parse(t.trim())) {
            Some(n) => Ok(At {
                v: Expected::Num(n),
                span,
            }),
            None => Err(self.wrong(
                k,
                item,
                "an exact number (`12.5`, `\"2/3\"`) or `\"undefined\"`",
            )),
        }
    }
}
