//! Built-in functions: one row per function (name, arity, arguments, one-line documentation, and the names of its implementation and columnar form), the one place a built-in is added.
//!
//! The rows are written once, in [`builtin_functions`]. Each stage that
//! needs them expands that macro with a macro of its own: here the [`Func`]
//! enum with its names, arities and documentation; `eval::builtins` the
//! call of each implementation; `eval::columnar` the call of each columnar
//! form. The names of implementations are only tokens here (the plan does
//! not import the evaluator): a row naming one that does not exist does not
//! compile. The README's table of built-in functions is generated from
//! [`Func::ALL`] and checked by `tests/builtins_readme.rs`.

/// Calls `$then!` with every built-in function's row:
///
/// `Variant "name" (least, most arguments) "arguments" => implementation, columnar form: "documentation", said "template",`
///
/// The implementation is a function of `eval::builtins`; the columnar form
/// one of `eval::columnar` (`each`: the implementation element by element);
/// the template how `tb explain --detail` says a call in words
/// (`plan::said`: `{0}` the first argument, `{*}` all, `[...]` left out
/// when it names an argument the call lacks).
macro_rules! builtin_functions {
    ($then:ident) => {
        $then! {
            Max "max" (1, 64) "x, y, ..." => max_min, each:
                "the largest of the arguments, or of a list's values (`max(list)`)", said "the largest of {*}",
            Min "min" (1, 64) "x, y, ..." => max_min, each:
                "the smallest of the arguments, or of a list's values (`min(list)`)", said "the smallest of {*}",
            Abs "abs" (1, 1) "x" => abs, each:
                "the absolute value", said "the absolute value of {0}",
            Round "round" (1, 2) "x, places" => round, each:
                "rounded to `places` decimals (default 0), .5 away from zero (FIDE ARO); only where a rule rounds", said "{0} rounded[ to {1} decimals]",
            RoundDown "round_down" (1, 2) "x, places" => round, each:
                "rounded to `places` decimals (default 0) toward zero", said "{0} rounded down[ to {1} decimals]",
            Floor "floor" (1, 1) "x" => round, each:
                "rounded toward minus infinity to a whole number", said "{0} rounded down",
            Ceil "ceil" (1, 1) "x" => round, each:
                "rounded toward plus infinity to a whole number", said "{0} rounded up",
            Defined "defined" (1, 1) "x" => defined, each:
                "whether `x` has a value: true or false, never undefined", said "{0} has a value",
            Sum "sum" (1, 1) "list" => total, totals:
                "the sum of a list's values (0 when empty)", said "the sum of {0}",
            Mean "mean" (1, 1) "list" => total, totals:
                "the mean of a list's values (undefined when empty)", said "the mean of {0}",
            Count "count" (1, 1) "list" => total, totals:
                "the number of items of a list, a set of participants, a participant's rounds or deals", said "the number of {0}",
            CutLowest "cut_lowest" (2, 2) "list, n" => cut_list, each:
                "the list without its n least significant items (FIDE 14.1, with 16.5's exception for VUR items)", said "{0} less the {1} least significant",
            CutHighest "cut_highest" (2, 2) "list, n" => cut_list, each:
                "the list without its n most significant items", said "{0} less the {1} most significant",
            Best "best" (2, 2) "list, n" => cut_list, each:
                "the n highest values of the list", said "the {1} highest of {0}",
            Sorted "sorted" (1, 1) "list" => sorted, each:
                "the values highest first (a step compares such lists lexicographically)", said "{0}, highest first",
            SortedByKey "sorted_by_key" (1, 1) "list" => sorted, each:
                "the items in order of their `by` keys, highest first, equal keys kept in order (WBF pairs: best-ranked common opponent first)", said "{0}, in order of their keys",
            Deals "deals" (1, 1) "p_or_group" => deals, each:
                "one board per distinct deal (session, board number) a participant or a set of them has, in that order: `for b in deals(group)`", said "the deals of {0}",
            ScoreOn "score_on" (2, 2) "p, b" => score_on, each:
                "`p`'s score on the deal of board `b`, played or awarded (EBU 143.5.5); undefined if `p` has none", said "{0}'s score on the deal of {1}",
            Integers "integers" (2, 2) "a, b" => integers, each:
                "the whole numbers from `a` to `b` ascending (none when `b < a`), to loop over; `min(x for x in integers(a, b) where C)` stops at the first that passes", said "the whole numbers from {0} to {1}",
            Number "number" (1, 1) "x" => number, each:
                "a text such as an id read as a number (undefined if it is not one); a number as it is", said "{0} as a number",
        }
    };
}
pub(crate) use builtin_functions;

/// Defines [`Func`] from the rows of `builtin_functions!`.
macro_rules! define_func {
    ($($variant:ident $name:literal ($lo:literal, $hi:literal) $args:literal
        => $imp:ident, $col:ident: $doc:literal, said $said:literal,)*) => {
        /// Built-in functions (one row each in `builtin_functions!`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Func {
            $(#[doc = $doc] $variant,)*
        }

        impl Func {
            /// Every built-in function: (name, arguments, documentation), in
            /// the order of their rows (for the README and help).
            pub const ALL: &'static [(&'static str, &'static str, &'static str)] =
                &[$(($name, $args, $doc),)*];

            /// Look up a function by name.
            pub fn by_name(s: &str) -> Option<Func> {
                match s {
                    $($name => Some(Func::$variant),)*
                    _ => None,
                }
            }

            /// The function's name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Func::$variant => $name,)*
                }
            }

            /// How a call is said in words (`plan::said`).
            pub fn said(self) -> &'static str {
                match self {
                    $(Func::$variant => $said,)*
                }
            }

            /// Allowed argument counts (least, most).
            pub fn arity(self) -> (usize, usize) {
                match self {
                    $(Func::$variant => ($lo, $hi),)*
                }
            }
        }
    };
}

builtin_functions!(define_func);
