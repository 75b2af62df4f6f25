"""Writes golden/maracaibo_78_before_l30.json and maracaibo_79_before_l30.json: games of the Uprising's
scenarios 78 and 79 saved by the engine before the new legacy tiles L30-L37 were played (run once on main
c0d8ac1, the commit before 93f71f2 played L34-L36 and 7e3c82d and 4831b6a the rest; its states say format 5
and keep the drawn new tiles in ``legacy_unplayed``), each with a mid-game state, its seed and log, the rest
of the game as that engine played it, and its end:

    git worktree add --detach /tmp/old c0d8ac1
    PYTHONPATH=/tmp/old PBEM_ENGINE_PURE=1 .venv/bin/python tests/engine/golden/make_maracaibo_uprising_old.py
"""
import json
import random

from engine import registry
from engine.testing import choose, player_names

rules = registry.get("maracaibo")
for name, seed, opts in [("maracaibo_78_before_l30", "golden-uprising-78-6", {"mode": "78"}),
                         ("maracaibo_79_before_l30", "golden-uprising-79-2", {"mode": "79"})]:
    rnd = random.Random(seed)
    st = rules.setup(player_names(3), opts, seed)
    log = []
    while (pend := rules.pending(st)) and len(log) < 150:
        seat = pend[rnd.randrange(len(pend))]
        o = choose(rules, st, seat, rules.options(st, seat), rnd)
        rules.apply(st, seat, dict(o.move))
        log.append([seat, o.code])
    rest = []
    st2 = json.loads(json.dumps(st))
    while pend := rules.pending(st2):
        seat = pend[rnd.randrange(len(pend))]
        o = choose(rules, st2, seat, rules.options(st2, seat), rnd)
        rules.apply(st2, seat, dict(o.move))
        rest.append([seat, o.code])
    doc = {"game": "maracaibo", "made_on": "main c0d8ac1, before L30-L37 were played (issue 20)",
           "players": player_names(3), "options": opts, "seed": seed, "moves": log, "state": st, "rest": rest,
           "final": st2, "outcome": rules.outcome(st2).as_dict()}
    with open(f"tests/engine/golden/{name}.json", "w") as f:
        json.dump(doc, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")
    print(name, st.get("format"), st["legacy_unplayed"], len(log), len(rest), len(json.dumps(doc)))
