//! The notes under the table, Markdown and HTML: which values are undefined, and why.

use super::{push_name, push_names, Out};
use crate::model::Event;
use crate::rank::Standings;
use std::fmt::Write as _;

/// Each undefined step value as a line of the table's, Markdown's and
/// HTML's notes: the criterion, the participants, why, and whether it
/// decided a place. Participants with the same cause share a line, with
/// the first one's whole account (every unrated player's rating
/// tie-breaks dropped under FIDE Art. 10 make one line, not one each).
/// Values past [`crate::rank::MAX_REASONS`] are counted.
pub fn undefined_notes(s: &Standings, event: &Event) -> Vec<String> {
    // (criterion, cause, decided) -> (first account, participants)
    let mut groups: Vec<(&str, &str, bool, &str, Vec<usize>)> = Vec::new();
    let mut unexplained = s.undefined_more;
    for u in &s.undefined {
        let (Some(reason), Some(cause)) = (&u.reason, &u.cause) else {
            unexplained += 1;
            continue;
        };
        match groups
            .iter_mut()
            .find(|g| g.0 == u.criterion && g.1 == cause && g.2 == u.decided)
        {
            Some(g) => g.4.push(u.pid),
            None => groups.push((&u.criterion, cause, u.decided, reason, vec![u.pid])),
        }
    }
    let mut lines = Vec::with_capacity(groups.len() + 1);
    for (criterion, cause, decided, reason, pids) in groups {
        let mut who = Out::default();
        let shown = pids.len().min(5);
        push_names(&mut who, event, &pids[..shown], ", ");
        if pids.len() > shown {
            let _ = write!(who, " and {} more", pids.len() - shown);
        }
        let placed = if decided {
            "; placed after those with a value"
        } else {
            ""
        };
        let line = if pids.len() == 1 {
            format!(
                "{criterion} of {}: undefined: {reason}{placed}",
                who.into_string()
            )
        } else {
            let mut first = Out::default();
            push_name(&mut first, event, pids[0]);
            format!(
                "{criterion} of {}: undefined: {cause}{placed} (for {}: {reason})",
                who.into_string(),
                first.into_string()
            )
        };
        lines.push(line);
    }
    if unexplained > 0 {
        lines.push(format!(
            "{unexplained} more undefined values, shown as `-` (only the first {} are explained)",
            crate::rank::MAX_REASONS
        ));
    }
    lines
}

/// The reason participant `p`'s value of `criterion` is undefined, if the
/// ranking met it.
pub fn undefined_reason<'a>(s: &'a Standings, p: usize, criterion: &str) -> Option<&'a str> {
    s.undefined
        .iter()
        .find(|u| u.pid == p && u.criterion == criterion)
        .and_then(|u| u.reason.as_deref())
}
