"""Writes golden/maracaibo_campaign_d8204d4_1.json: the first game of an Uprising campaign of main d8204d4
(ef92d45's parent, release row c572794 of scenarios.RELEASES), in which card 150's vote "join the fight"
is taken: that release added the Resistance Tiles alone from the next game (story.modules_next
["resistance"]); from ef92d45 on the vote adds the Uprising module with them. Stored a few moves after
the vote, with the rest of the game as that engine played it, and its end (issue 23). Run once on the old
commit:

    git worktree add --detach /tmp/old-d8204d4 d8204d4
    PYTHONPATH=/tmp/old-d8204d4 PBEM_ENGINE_PURE=1 .venv/bin/python \\
        tests/engine/golden/make_maracaibo_campaign_vote.py d8204d4 tests/engine/golden
"""

import json
import random
import sys

from engine import registry
from engine.testing import choose, player_names

rules = registry.get("maracaibo")
commit, out = sys.argv[1:3]
OPTS = {"campaign": True, "mode": "campaign"}


def play(st, rnd, limit, stop=None):
    log = []
    while (pend := rules.pending(st)) and len(log) < limit:
        seat = pend[rnd.randrange(len(pend))]
        o = choose(rules, st, seat, rules.options(st, seat), rnd)
        events = rules.apply(st, seat, dict(o.move))
        log.append([seat, o.code])
        if stop and stop(events):
            break
    return log


def joined(events):
    return any(e.kind == "vote_result" and e.data.get("card") == 150 and e.data.get("choice") == "join"
               for e in events)


for i in range(200):
    seed = f"golden-campaign-vote-{commit}-{i}"
    rnd = random.Random(seed)
    st = rules.setup(player_names(2), OPTS, seed)
    log = play(st, rnd, 10**6, stop=joined)
    if not rules.pending(st) or st["story"].get("modules_next") != ["resistance"]:
        continue  # (the vote went the other way, or was never taken)
    log += play(st, rnd, 6)
    mid_state = json.loads(json.dumps(st))
    rest = play(st, rnd, 10**6)
    doc = {"game": "maracaibo", "made_on": f"main {commit} (issue 23: card 150's vote before ef92d45)",
           "players": player_names(2), "options": OPTS, "seed": seed, "archive": None, "moves": log,
           "state": mid_state, "rest": rest, "final": st, "outcome": rules.outcome(st).as_dict()}
    with open(f"{out}/maracaibo_campaign_{commit}_1.json", "w") as f:
        json.dump(doc, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")
    print(seed, st.get("format"), len(log), len(rest), rules.archive(st)["story"]["modules"])
    break
else:
    raise SystemExit("no seed took the vote")
