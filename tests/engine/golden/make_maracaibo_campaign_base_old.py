"""Writes golden/maracaibo_campaign_base_0f021dc_{1,2}.json: the first two games of a base story campaign
(option campaign, no mode) of main 0f021dc, c572794's parent, before the Uprising's campaign: its story
state had no ``book``, ``modules`` or ``modules_next`` (format 12 adds them: the base story, none) and its
archive was version 1 (upgraded on reading: archive_upgrade.py). Each with its seed, options, archive, the
log to a mid-game state, the rest of the game as that engine played it, and its end (issue 23). Run once on
the old commit:

    git worktree add --detach /tmp/old-0f021dc 0f021dc
    PYTHONPATH=/tmp/old-0f021dc PBEM_ENGINE_PURE=1 .venv/bin/python \\
        tests/engine/golden/make_maracaibo_campaign_base_old.py 0f021dc tests/engine/golden
"""

import json
import random
import sys

from engine import registry
from engine.testing import choose, player_names

rules = registry.get("maracaibo")
commit, out = sys.argv[1:3]
OPTS = {"campaign": True}


def play(st, rnd, limit):
    log = []
    while (pend := rules.pending(st)) and len(log) < limit:
        seat = pend[rnd.randrange(len(pend))]
        o = choose(rules, st, seat, rules.options(st, seat), rnd)
        rules.apply(st, seat, dict(o.move))
        log.append([seat, o.code])
    return log


archive = None
for number in (1, 2):
    seed = f"golden-base-campaign-{commit}-{number}"
    rnd = random.Random(seed)
    st = rules.setup(player_names(2), OPTS, seed, archive=archive)
    log = play(st, rnd, 120)
    mid_state = json.loads(json.dumps(st))
    rest = play(st, rnd, 10**6)
    doc = {"game": "maracaibo", "made_on": f"main {commit} (issue 23: a base story campaign before c572794)",
           "players": player_names(2), "options": OPTS, "seed": seed, "archive": archive, "moves": log,
           "state": mid_state, "rest": rest, "final": st, "outcome": rules.outcome(st).as_dict()}
    with open(f"{out}/maracaibo_campaign_base_{commit}_{number}.json", "w") as f:
        json.dump(doc, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")
    print(number, st.get("format"), len(log), len(rest), sorted(st["story"]))
    archive = rules.archive(st)
