#!/usr/bin/env python3
"""A card-game event in native JSON (tbgen cards-swiss) as a CSV match list.

tbgen writes no CSV; the benchmarks and benches/same-output.sh read the
same event as CSV through this. Names get the player's id appended: the
generated names repeat, and CSV identifies a player by name.

    python3 benches/to_csv.py EVENT.json > EVENT.csv
"""
import json
import sys

event = json.load(open(sys.argv[1]))
name = {p["id"]: f'{p["name"].replace(",", "")} {p["id"]}' for p in event["participants"]}
print("round,home,away,result")
for r in event["rounds"]:
    for g in r["games"]:
        print(f'{r["round"]},{name[g["home"]]},{name[g["away"]]},{g["result"]}')
    for b in r.get("byes", []):
        print(f'{r["round"]},{name[b["id"]]},,bye')
