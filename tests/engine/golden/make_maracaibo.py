"""Writes the golden Maracaibo states (run once on main at eee8661, before the split)."""
import json
import random

from engine import registry
from engine.testing import choose, player_names

rules = registry.get("maracaibo")
for name, n, opts, stop in [("maracaibo_3p_s77", 3, {"scenario": "77"}, 150),
                            ("maracaibo_solo_s76", 1, {"scenario": "76", "difficulty": 4}, 90)]:
    seed = f"golden-{name}"
    rnd = random.Random(seed)
    st = rules.setup(player_names(n), opts, seed)
    log = []
    while (pend := rules.pending(st)) and len(log) < stop:
        seat = pend[rnd.randrange(len(pend))]
        o = choose(rules, st, seat, rules.options(st, seat), rnd)
        rules.apply(st, seat, dict(o.move))
        assert dict(o.move) == {"code": o.code}
        log.append([seat, o.code])
    # the rest of the game, as the engine of that day played it (codes only), to prove it plays on
    rest = []
    st2 = json.loads(json.dumps(st))
    while pend := rules.pending(st2):
        seat = pend[rnd.randrange(len(pend))]
        o = choose(rules, st2, seat, rules.options(st2, seat), rnd)
        rules.apply(st2, seat, dict(o.move))
        rest.append([seat, o.code])
    doc = {"game": "maracaibo", "made_on": "main eee8661, before the split (issue 20)",
           "players": player_names(n), "options": opts,
           "seed": seed, "moves": log, "state": st, "rest": rest, "final": st2,
           "outcome": rules.outcome(st2).as_dict()}
    with open(f"tests/engine/golden/{name}.json", "w") as f:
        json.dump(doc, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")
    print(name, len(log), len(rest), len(json.dumps(doc)))
