#!/usr/bin/env python3
"""Differential-test oracle: FIDE tie-break values computed by `gacrux`.

`gacrux` (PyPI, MIT) is the open-source reference engine of FIDE's Technical
Commission. This script drives it as a library so that `tb` can be compared
with it on generated tournaments. Standard library and gacrux only; run it
with the interpreter of the venv that tests/oracle/setup.sh creates.

    oracle.py generate --out DIR --count N --seed S [--team] [--rr]
    oracle.py values   --trf FILE --tiebreaks "PTS,BH/C1,BH,SB" [--edition 2024|2026]
    oracle.py compare  --trf FILE --tsv FILE [--edition 2024|2026]

See tests/oracle/README.md for what gacrux supports and where it departs
from the regulation.
"""

import argparse
import json
import os
import random
import sys
from decimal import Decimal

try:
    from gacrux import version as gacrux_version
    from gacrux.tiebreak import tiebreak
    from gacrux.tournamentgenerator import tournamentgenerator
    from gacrux.trf2json import trf2json
except ImportError:  # pragma: no cover - depends on the environment
    sys.exit("oracle.py: gacrux is not importable; run tests/oracle/setup.sh and use .venv-oracle/bin/python")

GACRUX_VERSION = gacrux_version.version()["version"]

# gacrux's rule sets, by the key it uses internally (tiebreak.TIEBREAK_RULES).
EDITIONS = {"2024": 1, "2026": 2}
EDITION_NAMES = {1: "2024", 2: "2026"}

# Every generated event starts on this date (TRF record 042), so that a file
# depends only on the seed. It is after 1 March 2026, so gacrux's automatic
# choice for these files is the 2026 edition.
EVENT_DATE = "2026-04-01"


# ----------------------------------------------------------------------------
# values


def load_tournament(path):
    """Read a TRF file with gacrux's reader; returns the gacrux tournament dict."""
    with open(path, encoding="latin-1") as f:
        text = f.read()
    if text.startswith("\xef\xbb\xbf"):
        text = text[3:]
    reader = trf2json()
    reader.parse_file(text, 0)
    status = reader.chessjson["status"]
    if status["code"] >= 400:
        raise SystemExit(f"oracle.py: gacrux cannot read {path}: {status['code']} {status.get('error')}")
    return reader.get_tournament(1)


def format_value(value):
    """A tie-break value as text, exactly as gacrux holds it (Decimal or int)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def compute(path, codes, edition=None, system=None, unrated=None, current_round=-1):
    """Run gacrux's tie-break computation, as tiebreakchecker does, on one TRF file.

    edition: None for gacrux's own choice (start date in record 042: before
    2026-03-01 the 2024 rules, otherwise or without a date the 2026 rules),
    or "2024"/"2026" to force one.
    system: None to let gacrux decide (record 092, else the number of rounds),
    "swiss" or "rr" like tiebreakchecker's -s / -p.
    current_round: standings after that round (tiebreakchecker -n); -1 = all.
    """
    tournament = load_tournament(path)
    params = {
        "tiebreak": list(codes),
        "check": 0,
        "unrated": unrated,
        "swiss": system == "swiss",
        "pre_determined": system == "rr",
    }
    forced = EDITIONS[edition] if edition else None

    class Tiebreak(tiebreak):
        def find_tmversion(self, tm):
            if forced is None:
                super().find_tmversion(tm)
            else:
                self.rulesversion = forced

    engine = Tiebreak(tournament, current_round, params)
    for code in codes:
        # gacrux quietly evaluates a name it does not know as 0 ("NUL")
        name = code.upper().replace("!", "/").replace("#", "/").split("/")[0].split(":")[0].split("@")[0]
        if name not in engine.tiebreaklist:
            raise SystemExit(f"oracle.py: gacrux has no tie-break {name!r} (in {code!r})")
    result = engine.compute_tiebreaks(tournament, params)
    players = {}
    for competitor in sorted(result["competitors"], key=lambda c: c["cid"]):
        entry = {"rank": competitor["rank"]}
        for code, value in zip(codes, competitor["tiebreakScore"]):
            entry[code] = format_value(value)
        players[str(competitor["cid"])] = entry
    return {
        "edition": EDITION_NAMES[engine.rulesversion],
        "tiebreaks": list(codes),
        "players": players,
        "gacrux": GACRUX_VERSION,
        "rules": result["rules"],
        "system": "round-robin" if engine.rr else "swiss",
        "team": bool(engine.isteam),
        "rounds": result["round"],
        "round": engine.currentround,
    }


def split_codes(text):
    codes = [code.strip() for code in text.replace(" ", ",").split(",") if code.strip()]
    if not codes:
        raise SystemExit("oracle.py: --tiebreaks is empty")
    return codes


def dump_json(out):
    """JSON with one line per player, so that fixture diffs stay readable."""
    lines = []
    for key, value in out.items():
        if key == "players":
            rows = [f"    {json.dumps(cid)}: {json.dumps(entry)}" for cid, entry in value.items()]
            lines.append('  "players": {\n' + ",\n".join(rows) + "\n  }")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def cmd_values(args):
    out = compute(args.trf, split_codes(args.tiebreaks), args.edition, args.system, args.unrated, args.round)
    text = dump_json(out)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def cmd_compare(args):
    """Compare gacrux's values with a tab-separated table (StartNo, Rank, codes...)."""
    with open(args.tsv, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    header, rows = rows[0], rows[1:]
    if header[:2] != ["StartNo", "Rank"]:
        raise SystemExit(f"oracle.py: {args.tsv}: header must start with StartNo, Rank")
    codes = header[2:]
    out = compute(args.trf, codes, args.edition, args.system, args.unrated, args.round)
    differences = 0
    for row in rows:
        got = out["players"].get(row[0])
        if got is None:
            print(f"player {row[0]}: not in {args.trf}")
            differences += 1
            continue
        wanted = {"rank": row[1], **dict(zip(codes, row[2:]))}
        for key, value in wanted.items():
            mine = str(got[key])
            if mine != value:
                print(f"player {row[0]} {key}: table {value}, gacrux {mine}")
                differences += 1
    print(f"{args.tsv}: {len(rows)} players, {len(codes)} codes, edition {out['edition']}: "
          f"{'all equal' if differences == 0 else str(differences) + ' differences'}")
    return 0 if differences == 0 else 1


# ----------------------------------------------------------------------------
# generate: individual events (gacrux's own generator)


class _ByeSchedule:
    """Wraps gacrux's drawresult so that chosen players are absent in chosen rounds.

    gacrux's generator asks has_bye() once per competitor, in starting-number
    order, at the start of every round. The random draw is still made, so the
    rest of the event follows gacrux's random stream unchanged.
    """

    def __init__(self, inner):
        self.inner = inner
        self.queue = []

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def has_bye(self):
        drawn = self.inner.has_bye()
        forced = self.queue.pop(0) if self.queue else None
        return forced or drawn


class _Generator(tournamentgenerator):
    """gacrux's tournamentgenerator plus scheduled withdrawals and late requested byes.

    gacrux's generator gives random zero-point byes (every round) and half-point
    byes (rounds 1-3 only) and random forfeits; it has no withdrawals. Here a
    withdrawn player takes a zero-point bye in every round after withdrawing
    (FIDE Art. 16.1.1), and a player may request a bye in the last round
    (Art. 16.2.5).
    """

    def __init__(self, argv, schedule):
        super().__init__()
        saved = sys.argv
        sys.argv = ["tournamentgenerator"] + argv
        try:
            self.read_command_line()
        finally:
            sys.argv = saved
        self.schedule = schedule  # {(starting number, round): "Z" or "H"}
        self.statistics = _ByeSchedule(self.statistics)

    def do_pairing(self, ch, tournament, rnd):
        self.statistics.queue = [self.schedule.get((c["cid"], rnd)) for c in tournament["competitors"]]
        super().do_pairing(ch, tournament, rnd)


def _points(scoresystem, result):
    value = scoresystem[result]
    while isinstance(value, str):
        value = scoresystem[value]
    return value


def _withdraw_round_robin(tournament, cid, after):
    """Player cid leaves after round `after`: the games left are forfeited (Art. 15.2)."""
    for game in tournament["gameList"]:
        black = game.get("black") or {}
        if game["round"] <= after or not black.get("cid"):
            continue
        if cid not in (game["white"]["cid"], black["cid"]):
            continue
        mine, theirs = ("white", "black") if game["white"]["cid"] == cid else ("black", "white")
        game[mine]["result"] = "Z"
        game[theirs]["result"] = "W"
        game["played"] = False
        game["rated"] = False


def _recount(tournament):
    score = tournament["scoreSystem"]["game"]
    totals = {c["cid"]: Decimal("0.0") for c in tournament["competitors"]}
    for game in tournament["gameList"]:
        for side in ("white", "black"):
            entry = game.get(side)
            if entry and entry.get("cid") and entry.get("result"):
                totals[entry["cid"]] += _points(score, entry["result"])
    for competitor in tournament["competitors"]:
        competitor["gamePoints"] = totals[competitor["cid"]]


def generate_individual(rng, gseed, fileno, name, rr):
    if rr:
        players = rng.choice([8, 10, 12])
        rounds = players - 1
        stats = ["0", "0", "0.05"]
    else:
        players = rng.randint(12, 40)
        rounds = rng.randint(5, 9)
        stats = ["0.03", "0.08", "0.05"]  # zero-point bye, half-point bye, forfeit rates
    schedule = {}
    withdrawals = []
    if not rr:
        for cid in rng.sample(range(1, players + 1), rng.randint(1, 2)):
            after = rng.randint(2, rounds - 1)
            withdrawals.append((cid, after))
            for rnd in range(after + 1, rounds + 1):
                schedule[(cid, rnd)] = "Z"
        for cid in rng.sample(range(1, players + 1), 2):
            schedule.setdefault((cid, rounds), "H")
    else:
        withdrawals.append((rng.randint(1, players), rng.randint(rounds // 2, rounds - 1)))
    argv = ["-p", str(players), "-n", str(rounds), "-S", *stats, "-m", "berger" if rr else "dutch"]
    generator = _Generator(argv, schedule)
    generator.statistics.set_seed(gseed)
    event = generator.gen_tournament(fileno)
    tournament = event["tournaments"][0]
    if rr:
        for cid, after in withdrawals:
            _withdraw_round_robin(tournament, cid, after)
    _recount(tournament)
    tournament["tournamentType"] = "Individual: Round-Robin" if rr else "Individual: Swiss-System"
    left = ", ".join(f"{cid} after round {after}" for cid, after in withdrawals)
    event["eventInfo"].update({
        "fullName": f"oracle {name} (gacrux {GACRUX_VERSION} tournamentgenerator, seed {gseed})",
        "site": event["eventInfo"]["site"] + f"; withdrawn: {left}",
        "startDate": EVENT_DATE,
        "endDate": EVENT_DATE,
    })
    return trf2json().output_file(event, 1, 0)


# ----------------------------------------------------------------------------
# generate: team events (TRF-26 team records; gacrux's generator has none)


BOARDS = 4
ROSTER = 5
TEAM_SEQUENCE = "WBWB"
MATCH_POINTS = {"W": Decimal("2.0"), "D": Decimal("1.0"), "L": Decimal("0.0")}
PAB_POINTS = (Decimal("1.0"), Decimal("2.0"))  # match points, game points (as FIDE's team sample)
GAME_POINTS = {"1": Decimal("1.0"), "=": Decimal("0.5"), "0": Decimal("0.0"), "+": Decimal("1.0"), "-": Decimal("0.0")}


def _game_result(rng, white, black, forfeit_rate):
    """A game's result from white's view: '1', '=', '0', or '+'/'-' for a forfeit."""
    if rng.random() < forfeit_rate:
        return rng.choice("+-")
    expected = 1 / (1 + 10 ** ((black - white - 30) / 400))
    draw = 0.35
    roll = rng.random()
    if roll < expected - draw / 2:
        return "1"
    if roll < expected + draw / 2:
        return "="
    return "0"


def _pair(order, met):
    """Pair teams in ranking order top-down, never twice; backtracks when stuck."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        if other in met[first]:
            continue
        tail = _pair(rest[:i] + rest[i + 1:], met)
        if tail is not None:
            return [(first, other)] + tail
    return None


def team_trf(title, system, rounds, rating, roster, cells, played_points, mp, gp,
             byes=None, pab_by_round=(), forfeited=()):
    """A TRF-26 team event: 001 records from `cells` (per player, per round:
    (opponent, colour, result) or None), 310 records from `roster`, `mp` and
    `gp`, then byes (240), pairing-allocated byes (320) and forfeits (330)."""
    teams = sorted(roster)
    lines = [
        f"012 oracle {title}",
        "022 generated",
        "032 FID",
        "042 " + EVENT_DATE.replace("-", "/"),
        "052 " + EVENT_DATE.replace("-", "/"),
        f"062 {len(rating)}",
        f"072 {len(rating)}",
        f"082 {len(teams)}",
        f"092 Team: {system}",
        f"142 {rounds}",
        "152 W",
        "162  W 1.0    D 0.5    L 0.0    A 0.0    P 1.0    X 0.5",
        "192 FIDE_TEAM_TYPEA_MP_GP",
        f"352 {TEAM_SEQUENCE}",
        "362 TW 2.0   TD 1.0   TL 0.0",
    ]
    for p in sorted(rating):
        team = (p - 1) // ROSTER + 1
        line = (f"001 {p:>4} m    {'Team%02d Board%d' % (team, (p - 1) % ROSTER + 1):<33} "
                f"{rating[p]:>4} FID {'':>11} {'':>10} {played_points[p]:>4.1f} {p:>4}")
        for cell in cells[p]:
            line += "          " if cell is None else f"  {cell[0]:>4} {cell[1]} {cell[2]}"
        lines.append(line.rstrip())
    ranking = sorted(teams, key=lambda t: (-mp[t], -gp[t], t))
    for t in teams:
        members = "".join(f" {p:>4}" for p in roster[t])
        lines.append(f"310 {t:>3} {'Team%02d' % t:<32} {'T%02d' % t:<5} {0:>6} {mp[t]:>6.1f} {gp[t]:>6.1f} "
                     f"{ranking.index(t) + 1:>3} {members}")
    for (kind, rnd), who in sorted((byes or {}).items(), key=lambda item: (item[0][1], item[0][0])):
        lines.append(f"240 {kind} {rnd:>3}" + "".join(f" {t:>4}" for t in who))
    if any(pab_by_round):
        lines.append(f"320 {PAB_POINTS[0]:>4.1f} {PAB_POINTS[1]:>4.1f}"
                     + "".join(f" {t:>3}" if t else "    " for t in pab_by_round).rstrip())
    for rnd, white, black in forfeited:
        lines.append(f"330 +- {rnd:>3} {white:>3} {black:>3}")
    return "\n".join(lines) + "\n"


def generate_team(rng, name):
    nteams = rng.randint(10, 12)
    rounds = rng.randint(5, 7)
    teams = list(range(1, nteams + 1))
    # players: team t has starting numbers (t-1)*ROSTER+1 .. t*ROSTER, in board order
    rating = {}
    for t in teams:
        base = 2450 - 35 * t + rng.randint(-40, 40)
        for k in range(ROSTER):
            rating[(t - 1) * ROSTER + k + 1] = base - 25 * k + rng.randint(-30, 30)
    roster = {t: [(t - 1) * ROSTER + k + 1 for k in range(ROSTER)] for t in teams}

    # unplayed rounds at team level: a half-point bye early (16.2.3), one team
    # withdrawing before the end (zero-point byes, 16.2.5), one forfeited match
    hpb_team, gone_team = rng.sample(teams, 2)
    hpb_round = rng.randint(1, 2)
    gone_after = rounds - rng.randint(1, 2)
    forfeit_round = rng.randint(2, rounds)

    mp = {t: Decimal("0.0") for t in teams}
    gp = {t: Decimal("0.0") for t in teams}
    met = {t: set() for t in teams}
    whites = {t: 0 for t in teams}
    had_pab = set()
    cells = {p: [None] * rounds for p in rating}  # per player, per round: (opp, colour, result)
    pab_by_round = [0] * rounds
    byes = {}  # (type, round) -> [teams]
    forfeited = []  # (round, white team, black team)
    played_points = {p: Decimal("0.0") for p in rating}

    for rnd in range(1, rounds + 1):
        absent = set()
        if rnd == hpb_round:
            absent.add(hpb_team)
            byes.setdefault(("H", rnd), []).append(hpb_team)
            mp[hpb_team] += MATCH_POINTS["D"]
            gp[hpb_team] += Decimal(BOARDS) / 2
        if rnd > gone_after:
            absent.add(gone_team)
            byes.setdefault(("Z", rnd), []).append(gone_team)
        order = sorted((t for t in teams if t not in absent), key=lambda t: (-mp[t], -gp[t], t))
        if len(order) % 2:
            pab = next((t for t in reversed(order) if t not in had_pab), order[-1])
            had_pab.add(pab)
            order.remove(pab)
            pab_by_round[rnd - 1] = pab
            mp[pab] += PAB_POINTS[0]
            gp[pab] += PAB_POINTS[1]
        # if every pairing repeats a match, allow repeats (Art. 4.4 and 6.1.2 then apply)
        pairs = _pair(order, met) or _pair(order, {t: set() for t in teams})
        forfeit_pair = rng.randrange(len(pairs)) if rnd == forfeit_round else None
        for index, (a, b) in enumerate(pairs):
            white, black = (a, b) if whites[a] <= whites[b] else (b, a)
            whites[white] += 1
            met[a].add(b)
            met[b].add(a)
            if index == forfeit_pair:
                # white team wins by forfeit (TRF-26 record 330): nobody plays
                forfeited.append((rnd, white, black))
                for k in range(BOARDS):
                    cells[roster[white][k]][rnd - 1] = ("0000", "-", "+")
                    cells[roster[black][k]][rnd - 1] = ("0000", "-", "-")
                    played_points[roster[white][k]] += GAME_POINTS["+"]
                mp[white] += MATCH_POINTS["W"]
                gp[white] += BOARDS * GAME_POINTS["+"]
                continue
            lineup = {}
            for t in (white, black):
                rest = rng.randrange(ROSTER)  # one of five sits out
                lineup[t] = [p for k, p in enumerate(roster[t]) if k != rest]
            score = {white: Decimal("0.0"), black: Decimal("0.0")}
            for board in range(BOARDS):
                # the white team has white on the boards where record 352 says W
                (pw, tw), (pb, tb) = (lineup[white][board], white), (lineup[black][board], black)
                if TEAM_SEQUENCE[board] == "B":
                    (pw, tw), (pb, tb) = (pb, tb), (pw, tw)
                res = _game_result(rng, rating[pw], rating[pb], 0.04)
                other = {"1": "0", "=": "=", "0": "1", "+": "-", "-": "+"}[res]
                cells[pw][rnd - 1] = (pb, "w", res)
                cells[pb][rnd - 1] = (pw, "b", other)
                for player, team, mark in ((pw, tw, res), (pb, tb, other)):
                    points = GAME_POINTS[mark]
                    played_points[player] += points
                    score[team] += points
            for t, o in ((white, black), (black, white)):
                gp[t] += score[t]
                mp[t] += MATCH_POINTS["W" if score[t] > score[o] else "D" if score[t] == score[o] else "L"]

    return team_trf(f"{name} (team Swiss, generated by tests/oracle/oracle.py)", "Swiss-System", rounds,
                    rating, roster, cells, played_points, mp, gp, byes, pab_by_round, forfeited)


def cmd_generate(args):
    os.makedirs(args.out, exist_ok=True)
    kind = "team" if args.team else "rr" if args.rr else "swiss"
    written = []
    for i in range(args.count):
        name = f"{kind}_{i:03d}"
        rng = random.Random(f"tb-oracle/{kind}/{args.seed}/{i}")
        if args.team:
            text = generate_team(rng, name)
        else:
            gseed = args.seed * 1000 + i
            text = generate_individual(rng, gseed, i, name, args.rr)
        path = os.path.join(args.out, name + ".trf")
        with open(path, "w", encoding="latin-1", newline="\n") as f:
            f.write(text)
        written.append(path)
    for path in written:
        print(path)
    return 0


# ----------------------------------------------------------------------------


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    gen = sub.add_parser("generate", help="write generated TRF files")
    gen.add_argument("--out", required=True, help="directory for the files")
    gen.add_argument("--count", type=int, required=True, help="number of events")
    gen.add_argument("--seed", type=int, required=True, help="the same seed gives the same files")
    kind = gen.add_mutually_exclusive_group()
    kind.add_argument("--team", action="store_true", help="team Swiss events (TRF-26 team records)")
    kind.add_argument("--rr", action="store_true", help="round robins (Berger tables)")
    gen.set_defaults(func=cmd_generate)

    for name, helptext in (("values", "print gacrux's tie-break values as JSON"),
                           ("compare", "compare gacrux's values with a StartNo/Rank/codes TSV table")):
        cmd = sub.add_parser(name, help=helptext)
        cmd.add_argument("--trf", required=True, help="TRF16 / TRF-26 file")
        if name == "values":
            cmd.add_argument("--tiebreaks", required=True, help='comma-separated FIDE codes, e.g. "PTS,BH/C1,BH,SB"')
            cmd.add_argument("--output", help="write the JSON here instead of stdout")
            cmd.set_defaults(func=cmd_values)
        else:
            cmd.add_argument("--tsv", required=True, help="table with header StartNo, Rank, code...")
            cmd.set_defaults(func=cmd_compare)
        cmd.add_argument("--edition", choices=sorted(EDITIONS), help="FIDE edition (default: gacrux's choice by start date)")
        cmd.add_argument("--system", choices=["swiss", "rr"], help="override gacrux's Swiss / round-robin detection")
        cmd.add_argument("--unrated", type=int, help="rating used for unrated players (gacrux -u)")
        cmd.add_argument("--round", type=int, default=-1, help="standings after this round (gacrux -n); default: all")

    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
