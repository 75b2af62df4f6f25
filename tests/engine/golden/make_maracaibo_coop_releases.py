"""Writes golden/maracaibo_coop_<commit>_<mode>_<n>p.json: games of the cooperative scenarios (74, 193) stored by
older releases whose setups scenarios.RELEASES keeps (issue 22, engine/games/maracaibo/coop_releases.py): games
of main 5b2b789's parent (row fa60223: 18 markers with one or two players, card 192 with six green spaces,
8 red hints, card 191's first rewards, L39 5 combat points) and of main fbaa97f's parent (row 5b2b789: today's
markers, card 192 with four green spaces, the hints and card 191 as before). Each with its seed, options, the
log to a mid-game state, the rest of the game as that engine played it, and its end. Run once on the old
commit:

    git worktree add --detach /tmp/old-5b2b789p 5b2b789^
    PYTHONPATH=/tmp/old-5b2b789p PBEM_ENGINE_PURE=1 .venv/bin/python \
        tests/engine/golden/make_maracaibo_coop_releases.py 5b2b789p tests/engine/golden 74:1 193:1 193:2
    (the same with fbaa97fp, fbaa97f^, and 193:1 193:3)
"""

import json
import random
import sys

from engine import registry
from engine.testing import choose, player_names

rules = registry.get("maracaibo")
commit, out, *games = sys.argv[1:]


def play(st, rnd, limit):
    log = []
    while (pend := rules.pending(st)) and len(log) < limit:
        seat = pend[rnd.randrange(len(pend))]
        o = choose(rules, st, seat, rules.options(st, seat), rnd)
        rules.apply(st, seat, dict(o.move))
        log.append([seat, o.code])
    return log


def game(name, n, opts, seed, mid=100):
    rnd = random.Random(seed)
    st = rules.setup(player_names(n), opts, seed)
    log = play(st, rnd, mid)
    mid_state = json.loads(json.dumps(st))
    rest = play(st, rnd, 10**6)
    doc = {
        "game": "maracaibo",
        "made_on": f"main {commit} (issue 22: a cooperative game stored by an older release)",
        "players": player_names(n),
        "options": opts,
        "seed": seed,
        "archive": None,
        "moves": log,
        "state": mid_state,
        "rest": rest,
        "final": st,
        "outcome": rules.outcome(st).as_dict(),
    }
    with open(f"{out}/{name}.json", "w") as f:
        json.dump(doc, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")
    print(name, st.get("format"), len(log), len(rest), len(json.dumps(doc)))


for spec in games:
    mode, n = spec.split(":")
    game(f"maracaibo_coop_{commit}_{mode}_{n}p", int(n), {"mode": mode, "jacques_level": 2},
         f"golden-coop-{commit}-{mode}-{n}")
