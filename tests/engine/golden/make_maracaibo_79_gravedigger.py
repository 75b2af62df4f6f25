"""Writes golden/maracaibo_79_gravedigger.json: a seeded bot game of scenario 79 (4 players) up to the first
combat liberation by a player with the Gravedigger in their display, and the moves that resolve it (run once,
on main at 2735932; the test replays the moves, so later changes of the bot leave it as it is)."""
import json
import random

from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from engine.testing import player_names

GRAVEDIGGER = next(c["id"] for c in C.CARD.values() if c["name"] == "Gravedigger")
n, seed, opts = 4, 6, {"mode": "79"}
st = RULES.setup(player_names(n), opts, seed)
rnd = random.Random(f"{seed}-bot")
log: list[list[object]] = []
at = None
while pend := RULES.pending(st):
    seat = pend[0]
    kind = st["stack"][-1]["kind"] if st["stack"] else ""
    o = RULES.bot_choice(st, seat, RULES.options(st, seat), rnd)
    if at is None and kind == "liberation" and GRAVEDIGGER in st["p"][seat]["display"] and o.code[:2] in ("lc", "lv"):
        at = len(log)
    RULES.apply(st, seat, dict(o.move))
    log.append([seat, o.code])
    if at is not None and not any(f["kind"] in ("liberation", "resist", "removed") for f in st["stack"]):
        break
doc = {"game": "maracaibo", "made_on": "main 2735932 (issue 20)", "players": player_names(n), "options": opts,
       "seed": seed, "moves": log, "liberation": at}
with open("tests/engine/golden/maracaibo_79_gravedigger.json", "w") as f:
    json.dump(doc, f, sort_keys=True, separators=(",", ":"))
    f.write("\n")
print(at, len(log), log[at:])
