//! Text helpers shared by the parser, the checker and the loaders: the distance behind every did-you-mean.

/// Optimal string alignment distance (a swap of two neighbours counts 1,
/// so `Alcie` is 1 from `Alice`), in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev2 = vec![0usize; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0usize; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(prev2[j - 2] + 1);
            }
            cur[j] = d;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The closest of `cands` to `name`: the same but for case, `_` or `-`, or
/// at most one edit away (two for names of five letters or more; none for
/// names of one or two letters, where one edit makes another word: `mp`
/// and `gp` are two units, not a slip).
pub fn did_you_mean<'a>(name: &str, cands: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let squash = |s: &str| -> String {
        s.chars()
            .filter(|c| *c != '_' && *c != '-' && !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let n = squash(name);
    let limit = match name.chars().count() {
        0..=2 => 0,
        3..=4 => 1,
        _ => 2,
    };
    let mut best: Option<(usize, &str)> = None;
    for c in cands {
        if c == name {
            continue;
        }
        let d = if squash(c) == n {
            0
        } else {
            edit_distance(name, c)
        };
        // Equally near: the first alphabetically, whatever order the
        // candidates come in (some come from hash maps).
        if d <= limit && best.is_none_or(|(bd, bc)| d < bd || (d == bd && c < bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}
