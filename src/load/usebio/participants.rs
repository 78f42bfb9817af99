//! USEBIO participants: pairs and teams as the file lists them, their places and totals, ids made unique, and the index travellers and matches find them by.

use super::*;

/// A participant as the file lists it.
pub(super) struct PRec {
    pub(super) number: String,
    pub(super) direction: Option<Dir>,
    pub(super) section: Option<String>,
    pub(super) name: String,
    pub(super) members: Vec<Member>,
    pub(super) place: Option<u32>,
    pub(super) total: Option<Num>,
    pub(super) values: BTreeMap<String, Num>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dir {
    Ns,
    Ew,
}

impl Dir {
    pub(super) fn name(self) -> &'static str {
        match self {
            Dir::Ns => "NS",
            Dir::Ew => "EW",
        }
    }
    pub(super) fn parse(s: &str) -> Option<Dir> {
        match s.trim().to_ascii_uppercase().as_str() {
            "NS" | "N" | "N-S" | "NORTH-SOUTH" => Some(Dir::Ns),
            "EW" | "E" | "E-W" | "EAST-WEST" => Some(Dir::Ew),
            _ => None,
        }
    }
}

/// Finds participants by the numbers travellers and matches use.
pub(super) struct Index {
    pub(super) by_number: HashMap<String, Vec<Pid>>,
}

impl Index {
    pub(super) fn find(
        &self,
        recs: &[PRec],
        number: &str,
        section: &Option<String>,
        dir: Option<Dir>,
    ) -> Option<Pid> {
        let cands = self.by_number.get(number.trim())?;
        if cands.len() == 1 {
            return cands.first().copied();
        }
        let same_section: Vec<Pid> = cands
            .iter()
            .copied()
            .filter(|&p| section.is_none() || recs[p].section == *section)
            .collect();
        if same_section.len() == 1 {
            return same_section.first().copied();
        }
        let same_dir: Vec<Pid> = same_section
            .iter()
            .copied()
            .filter(|&p| dir.is_some() && recs[p].direction == dir)
            .collect();
        if same_dir.len() == 1 {
            return same_dir.first().copied();
        }
        None
    }
}

/// Ids: the number as written; where that repeats, with the direction; where
/// that still repeats, with the section too.
pub(super) fn unique_ids(recs: &[PRec]) -> Vec<String> {
    let tiers: [&dyn Fn(&PRec) -> String; 3] = [
        &|r: &PRec| r.number.trim().to_string(),
        &|r: &PRec| with_dir(r),
        &|r: &PRec| match &r.section {
            Some(s) if !r.number.contains(&format!("({s})")) => format!("({s}) {}", with_dir(r)),
            _ => with_dir(r),
        },
    ];
    let mut best = Vec::new();
    for tier in tiers {
        let ids: Vec<String> = recs.iter().map(tier).collect();
        let mut seen = std::collections::HashSet::new();
        let unique = ids.iter().all(|i| seen.insert(i.clone()));
        best = ids;
        if unique {
            break;
        }
    }
    best
}

pub(super) fn with_dir(r: &PRec) -> String {
    let n = r.number.trim();
    match r.direction {
        Some(d) if !n.to_ascii_uppercase().ends_with(d.name()) => format!("{n} {}", d.name()),
        _ => n.to_string(),
    }
}

pub(super) fn players(node: Node) -> Vec<Member> {
    node.descendants()
        .filter(|n| is(n, "PLAYER"))
        .map(|pl| {
            let name = child_text(pl, "PLAYER_NAME").unwrap_or("").to_string();
            let id = child_text(pl, "NATIONAL_ID_NUMBER")
                .or_else(|| child_text(pl, "PLAYER_NUMBER"))
                .map(str::to_string)
                .unwrap_or_else(|| name.clone());
            Member {
                id,
                name,
                rating: None,
            }
        })
        .collect()
}

/// `PLACE`, which may carry "=" for a shared place ("3=", "=3").
pub(super) fn place(cx: &mut Cx, node: Node) -> Option<u32> {
    let n = child(node, "PLACE")?;
    let t = text(n);
    let digits = t.trim_matches(|c: char| c == '=' || c.is_whitespace());
    if digits.is_empty() {
        return None;
    }
    match digits.parse::<u32>() {
        Ok(v) if v >= 1 => Some(v),
        _ => {
            cx.err(
                BAD_NUMBER,
                n,
                format!("the place `{t}` is not a whole number from 1"),
                "a place is a number, with \"=\" when shared: 3 or 3=",
            );
            None
        }
    }
}

pub(super) fn totals(cx: &mut Cx, node: Node, values: &mut BTreeMap<String, Num>) -> Option<Num> {
    let mut total = None;
    for (tag, key) in [
        ("TOTAL_SCORE", "total_score"),
        ("PERCENTAGE", "percentage"),
        ("HANDICAP", "handicap"),
        ("BOARDS_PLAYED", "boards_played"),
        ("CARRY_FORWARD", "carryover"),
    ] {
        if let Some(n) = child(node, tag) {
            if text(n).is_empty() {
                continue;
            }
            if let Some(v) = cx.num(n, &format!("<{tag}>")) {
                values.insert(key.into(), v);
                if tag == "TOTAL_SCORE" || (tag == "PERCENTAGE" && total.is_none()) {
                    total = Some(v);
                }
            }
        }
    }
    total
}

pub(super) fn read_pair(cx: &mut Cx, node: Node, section: &Option<String>) -> Option<PRec> {
    let Some(number) = child_text(node, "PAIR_NUMBER") else {
        cx.err(
            MISSING,
            node,
            "a <PAIR> has no <PAIR_NUMBER>".into(),
            "every pair needs the number its travellers use",
        );
        return None;
    };
    let direction = child_text(node, "DIRECTION")
        .and_then(Dir::parse)
        .or_else(|| {
            let up = number.to_ascii_uppercase();
            if up.ends_with(" NS") {
                Some(Dir::Ns)
            } else if up.ends_with(" EW") {
                Some(Dir::Ew)
            } else {
                None
            }
        });
    let members = players(node);
    let name = if members.is_empty() {
        number.to_string()
    } else {
        members
            .iter()
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>()
            .join(" & ")
    };
    let mut values = BTreeMap::new();
    let total = totals(cx, node, &mut values);
    Some(PRec {
        number: number.to_string(),
        direction,
        section: section.clone(),
        name,
        members,
        place: place(cx, node),
        total,
        values,
    })
}

pub(super) fn read_team(cx: &mut Cx, node: Node, section: &Option<String>) -> Option<PRec> {
    let number = node
        .attribute("TEAM_ID")
        .or_else(|| node.attribute("TEAM_NUMBER"))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .or_else(|| child_text(node, "TEAM_ID"))
        .or_else(|| child_text(node, "TEAM_NUMBER"));
    let Some(number) = number else {
        cx.err(
            MISSING,
            node,
            "a <TEAM> has no TEAM_ID or TEAM_NUMBER".into(),
            "every team needs the number its matches use",
        );
        return None;
    };
    let name = node
        .attribute("TEAM_NAME")
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .or_else(|| child_text(node, "TEAM_NAME"))
        .unwrap_or(number)
        .to_string();
    let mut values = BTreeMap::new();
    let total = totals(cx, node, &mut values);
    Some(PRec {
        number: number.to_string(),
        direction: None,
        section: section.clone(),
        name,
        members: players(node),
        place: place(cx, node),
        total,
        values,
    })
}

pub(super) fn unknown(cx: &mut Cx, node: Node, what: &str, number: &str) {
    cx.err(
        UNKNOWN_PARTICIPANT,
        node,
        format!("{what} `{number}` is not among the event's participants"),
        "every pair or team a traveller or match names must be listed under <PARTICIPANTS>",
    );
}
