//! Typed reads from the value tree, each reporting a value of the wrong kind, and tables read against their schema (repeated keys, unknown and missing fields).

use super::schema::Table;
use super::tree::{num_from_f64, num_from_text, Key, Node, V};
use super::{SYNTAX, UNKNOWN_FIELD, UNKNOWN_PARTICIPANT};
use crate::diag::{Diag, Source, Span};
use crate::model::Pid;
use crate::num::Num;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Maps keyed by ids and names: a fast hash seeded per process (a look-up
/// per game and bye).
pub(super) type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

// ---------------------------------------------------------------------------
// The schema walker
// ---------------------------------------------------------------------------

pub(super) struct Cx<'s> {
    pub(super) src: &'s Source,
    pub(super) errors: Vec<Diag>,
    /// What a pairing bye is worth when the bye does not say
    /// (`event.scoring.bye`).
    pub(super) bye_points: Option<Num>,
    /// Whether `[event]` gave a `scoring` table.
    pub(super) scoring_given: bool,
    /// Where each data value name and unit first appears (line, 1-based),
    /// for the check against a ruleset's reads.
    pub(super) lines: crate::model::DataNames,
}

impl Cx<'_> {
    pub(super) fn err(
        &mut self,
        code: &'static str,
        span: Span,
        msg: String,
        label: &str,
        help: &str,
    ) {
        self.errors.push(
            Diag::error(code, msg)
                .at(self.src, span, label)
                .with_help(help),
        );
    }
    pub(super) fn wrong_type(&mut self, n: &Node, what: &str, expected: &str) {
        self.err(
            SYNTAX,
            n.sp(),
            format!("{what} must be {expected}, not {}", n.kind()),
            &format!("expected {expected}"),
            "docs/data-format.md lists every field and its type",
        );
    }

    /// A table of the schema `schema`, its repeated keys reported.
    pub(super) fn object<'n>(&mut self, n: &'n Node, schema: &'static Table) -> Option<Obj<'n>> {
        let V::Table(items) = &n.v else {
            self.wrong_type(n, schema.what, "a table");
            return None;
        };
        let used = self.keys(items, schema.what);
        Some(Obj {
            items,
            used,
            schema,
        })
    }

    /// The keys of a table, each marked used if it repeats an earlier one
    /// (and reported).
    fn keys(&mut self, items: &[(Key, Node)], what: &str) -> Vec<bool> {
        // A repeated key (possible only in JSON) is reported here and then
        // counts as read, so it is not also an unknown field. Most tables
        // are small (a game has three keys): comparing each key with the
        // ones before is cheaper than hashing.
        let small = items.len() <= 16;
        let mut seen: HashMap<&str, ()> = HashMap::default();
        let mut used = vec![false; items.len()];
        for (i, (k, _)) in items.iter().enumerate() {
            let again = if small {
                items[..i].iter().any(|(first, _)| first.name == k.name)
            } else {
                seen.insert(k.name.as_str(), ()).is_some()
            };
            if again {
                used[i] = true;
                self.err(
                    SYNTAX,
                    k.sp(),
                    format!("`{}` is given twice in {what}", k.name),
                    "second time",
                    "give each field once",
                );
            }
        }
        used
    }

    /// Report the keys nobody asked for.
    pub(super) fn finish(&mut self, obj: &Obj) {
        for (k, _) in obj.rest() {
            self.unknown_field(obj, k);
        }
    }

    /// Report a key that is none of `obj`'s fields (nor, where other keys
    /// are units, a unit).
    pub(super) fn unknown_field(&mut self, obj: &Obj, k: &Key) {
        self.err(
            UNKNOWN_FIELD,
            k.sp(),
            obj.schema.unknown(&k.name),
            "unknown field",
            &obj.schema.help(),
        );
    }

    /// Report the required field `name` missing from `obj`, written at `node`.
    pub(super) fn missing(&mut self, obj: &Obj, node: &Node, name: &str) {
        self.err(
            SYNTAX,
            node.sp(),
            format!("{} has no `{name}`", obj.schema.what),
            &format!("no {name}"),
            obj.schema.required_help(name),
        );
    }

    /// Report a string that is none of the choices.
    pub(super) fn bad_choice(&mut self, n: &Node, what: &str, got: &str, choices: &str) {
        self.err(
            SYNTAX,
            n.sp(),
            format!("{what} cannot be \"{}\"", crate::text::clip(got)),
            "not one of the choices",
            &format!("write one of: {choices}"),
        );
    }

    pub(super) fn array<'n>(&mut self, n: &'n Node, what: &str) -> Option<&'n [Node]> {
        match &n.v {
            V::Arr(items) => Some(items),
            _ => {
                self.wrong_type(n, what, "an array");
                None
            }
        }
    }

    pub(super) fn string(&mut self, n: &Node, what: &str) -> Option<String> {
        match &n.v {
            V::Str(s) => Some(s.clone()),
            _ => {
                self.wrong_type(n, what, "a string");
                None
            }
        }
    }

    pub(super) fn boolean(&mut self, n: &Node, what: &str) -> Option<bool> {
        match &n.v {
            V::Bool(b) => Some(*b),
            _ => {
                self.wrong_type(n, what, "true or false");
                None
            }
        }
    }

    pub(super) fn num(&mut self, n: &Node, what: &str) -> Option<Num> {
        let parsed = match &n.v {
            V::Int(i) => Some(Num::int(*i)),
            V::Float(f) => num_from_f64(*f),
            V::NumText(t) => num_from_text(t),
            V::Str(s) => Num::parse(s),
            _ => {
                self.wrong_type(n, what, "a number");
                return None;
            }
        };
        if parsed.is_none() {
            self.err(
                SYNTAX,
                n.sp(),
                format!("{what} is not a number tb can hold exactly"),
                "not an exact number",
                "write a decimal such as 15.62 or a fraction such as \"2/3\"; \
                 at most 18 significant digits, no infinities",
            );
        }
        parsed
    }

    pub(super) fn whole(&mut self, n: &Node, what: &str) -> Option<i64> {
        let x = self.num(n, what)?;
        match i64::try_from(x.numer()) {
            Ok(i) if x.is_integer() => Some(i),
            _ => {
                self.err(
                    SYNTAX,
                    n.sp(),
                    format!("{what} must be a whole number, not {x}"),
                    "not a whole number",
                    "write a whole number",
                );
                None
            }
        }
    }

    pub(super) fn count(&mut self, n: &Node, what: &str) -> Option<u32> {
        let i = self.whole(n, what)?;
        match u32::try_from(i) {
            Ok(u) => Some(u),
            Err(_) => {
                self.err(
                    SYNTAX,
                    n.sp(),
                    format!("{what} must be a whole number from 0, not {i}"),
                    "out of range",
                    "write a whole number from 0",
                );
                None
            }
        }
    }

    pub(super) fn pair(&mut self, n: &Node, what: &str) -> Option<[Num; 2]> {
        match &n.v {
            V::Arr(items) if items.len() == 2 => {
                let a = self.num(&items[0], what);
                let b = self.num(&items[1], what);
                Some([a?, b?])
            }
            _ => {
                self.wrong_type(n, what, "a pair [home, away]");
                None
            }
        }
    }

    /// A participant or member id: a string, or a whole number kept as text.
    pub(super) fn id(&mut self, n: &Node, what: &str) -> Option<String> {
        self.id_ref(n, what).map(Cow::into_owned)
    }

    /// [`Cx::id`] borrowed from the value where it is written as a string:
    /// a look-up by id needs no copy.
    pub(super) fn id_ref<'n>(&mut self, n: &'n Node, what: &str) -> Option<Cow<'n, str>> {
        let s: Cow<'n, str> = match &n.v {
            V::Str(s) => Cow::Borrowed(s),
            V::Int(i) => Cow::Owned(i.to_string()),
            V::NumText(t) if t.bytes().all(|b| b.is_ascii_digit() || b == b'-') => Cow::Borrowed(t),
            _ => {
                self.wrong_type(n, what, "a string or a whole number");
                return None;
            }
        };
        if s.trim().is_empty() {
            self.err(
                SYNTAX,
                n.sp(),
                format!("{what} is empty"),
                "empty id",
                "give every participant a non-empty id",
            );
            return None;
        }
        Some(s)
    }

    /// The line of a key, if the reader kept its span.
    pub(super) fn line(&self, span: Option<Span>) -> Option<usize> {
        span.map(|s| self.src.line_col(s.start).0)
    }

    /// A table of named numbers (`values`), its repeated keys reported.
    pub(super) fn values(&mut self, n: &Node, what: &str) -> BTreeMap<String, Num> {
        let mut out = BTreeMap::new();
        if let V::Table(items) = &n.v {
            self.keys(items, what);
            for (k, v) in items {
                if let Some(x) = self.num(v, &format!("`{}` in {what}", k.name)) {
                    out.insert(k.name.clone(), x);
                }
            }
        } else {
            self.wrong_type(n, what, "a table of numbers");
        }
        out
    }
}

/// A table being read: which of its fields have been asked for.
pub(super) struct Obj<'n> {
    items: &'n [(Key, Node)],
    used: Vec<bool>,
    /// The schema it is read against.
    schema: &'static Table,
}

impl<'n> Obj<'n> {
    /// The value of a field; `null` counts as absent.
    pub(super) fn get(&mut self, name: &str) -> Option<&'n Node> {
        debug_assert!(self.schema.has(name), "`{name}` is not in the schema");
        let i = self.items.iter().position(|(k, _)| k.name == name)?;
        self.used[i] = true;
        match self.items[i].1.v {
            V::Null => None,
            _ => Some(&self.items[i].1),
        }
    }
    pub(super) fn rest(&self) -> impl Iterator<Item = &'n (Key, Node)> + '_ {
        self.items
            .iter()
            .zip(&self.used)
            .filter(|(_, u)| !**u)
            .map(|(kv, _)| kv)
    }
}

/// The participant an id names, or an error.
pub(super) fn lookup(
    cx: &mut Cx,
    index: &HashMap<String, Pid>,
    n: &Node,
    what: &str,
) -> Option<(Pid, Span)> {
    let id = cx.id_ref(n, what)?;
    match index.get(id.as_ref()) {
        Some(&p) => Some((p, n.sp())),
        None => {
            cx.err(
                UNKNOWN_PARTICIPANT,
                n.sp(),
                format!("no participant has the id `{}`", crate::text::clip(&id)),
                "unknown id",
                "add this participant to [[participants]], or correct the id",
            );
            None
        }
    }
}
