"""Writes golden/maracaibo_79_188b109.json and maracaibo_campaign_57805f3_{1,2,3}.json: games stored by older
releases whose setups scenarios.RELEASES keeps (issues 20, 23): a 79 game of main 188b109 (7e3c82d's parent,
release row bb5188b: 21 new cards, L34-L36 played, the other drawn new tiles unplayed), and the first three
games of an Uprising campaign of main 57805f3 (5c3c7c5's parent: no new project card in a campaign game; row
17a12c0), the second being card 184's game (mode 79, unchanged since). Each with its seed, options, archive,
the log to a mid-game state, the rest of the game as that engine played it, and its end; and games 1 and 3
of an Uprising campaign of main 5962877 (cefd5f3's parent: row c572794, L30 not played, base quest tiles).
And (kind chronicler) a 78 game of main 6fb9567 (4831b6a to the balance change of #20, row 4831b6a: the Rebel
Chronicler, card 201, at its old numbers) in which a player buys that card, stored just after the buy; and (kind
chronicler237) the same of main 04c0a40 (6a0f3d2 to the card's second change, row 04c0a40: card 237), and (kind
chronicler238) of main 8b97501 (52a3425 to the card's third change, row 8b97501: card 238), and (kind
chronicler239) of main 9fa6890 (d8e1100 to the card's fourth change, row 9fa6890: card 239); and (kind
chronicler240) a 78 game of main 2eed0d6 (2eed0d6 to the card's fifth change, row 2eed0d6: card 240, which the
bot never buys, sold only in rounds 1 and 2) in which a player holds card 240 in hand, as monkey204's below; and
(kind genova79)
a 79 game of main 019c428 (before Genova was left out of the ports dealt with Liberation: option port_pool
"all", format 16) in which Genova is dealt; and (kind monkey204) a 78 game of main 65e19e8 (9c5edb3 to the
Powder Monkey's change, row 65e19e8: card 204 at its old numbers) in which a player holds that card in hand
(the bot of that day never bought it), stored just after it is drawn. Run once on the old commit:

    git worktree add --detach /tmp/old-188b109 188b109
    PYTHONPATH=/tmp/old-188b109 PBEM_ENGINE_PURE=1 .venv/bin/python \
        tests/engine/golden/make_maracaibo_releases.py 188b109 tests/engine/golden 79
    (the same with 57805f3 and with 5962877, campaign)
"""

import json
import random
import sys

from engine import registry
from engine.testing import choose, player_names

rules = registry.get("maracaibo")
commit, out, kind = sys.argv[1:4]


def play(st, rnd, limit):
    log = []
    while (pend := rules.pending(st)) and len(log) < limit:
        seat = pend[rnd.randrange(len(pend))]
        o = choose(rules, st, seat, rules.options(st, seat), rnd)
        rules.apply(st, seat, dict(o.move))
        log.append([seat, o.code])
    return log


def game(name, n, opts, seed, archive=None, mid=150):
    rnd = random.Random(seed)
    st = rules.setup(player_names(n), opts, seed, archive=archive)
    log = play(st, rnd, mid)
    mid_state = json.loads(json.dumps(st))
    rest = play(st, rnd, 10**6)
    doc = {
        "game": "maracaibo",
        "made_on": f"main {commit} (issue 20/23: a game stored by an older release)",
        "players": player_names(n),
        "options": opts,
        "seed": seed,
        "archive": archive,
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
    return st


def bought_at(n, opts, seed, cid):
    """The number of moves after which a player holds card ``cid`` bought (None: nobody buys it)."""
    rnd = random.Random(seed)
    st = rules.setup(player_names(n), opts, seed)
    for i, _ in enumerate(iter(lambda: rules.pending(st), [])):
        if any(cid in p["bought"] for p in st["p"]):
            return i
        play(st, rnd, 1)
    return None


def held_at(n, opts, seed, cid):
    """The number of moves after which a player holds card ``cid`` in hand (None: nobody does)."""
    rnd = random.Random(seed)
    st = rules.setup(player_names(n), opts, seed)
    for i, _ in enumerate(iter(lambda: rules.pending(st), [])):
        if i > 20 and any(cid in p["hand"] for p in st["p"]):
            return i
        play(st, rnd, 1)
    return None


if kind in ("monkey204", "chronicler240"):  # (cards the bot of that day never bought: a game in which one is held)
    cid = {"monkey204": 204, "chronicler240": 240}[kind]
    seed = next(s for s in (f"golden-78-{commit}-{i}" for i in range(200)) if held_at(3, {"mode": "78"}, s, cid))
    game(f"maracaibo_78_{commit}", 3, {"mode": "78"}, seed, mid=held_at(3, {"mode": "78"}, seed, cid) + 5)
elif kind in ("chronicler", "chronicler237", "chronicler238", "chronicler239"):
    cid = {"chronicler237": 237, "chronicler238": 238, "chronicler239": 239}.get(kind, 201)
    seed = next(s for s in (f"golden-78-{commit}-{i}" for i in range(2000)) if bought_at(3, {"mode": "78"}, s, cid))
    game(f"maracaibo_78_{commit}", 3, {"mode": "78"}, seed, mid=bought_at(3, {"mode": "78"}, seed, cid) + 5)
elif kind == "genova79":  # (a 79 game of main 019c428, before Genova was left out with Liberation: one keeps it)
    def kept_genova(seed):
        st = rules.setup(player_names(3), {"mode": "79"}, seed)
        return any("HP4" in p["setup"].get("ports", ()) for p in st["p"])
    seed = next(s for s in (f"golden-79-genova-{commit}-{i}" for i in range(200)) if kept_genova(s))
    game(f"maracaibo_79_{commit}", 3, {"mode": "79"}, seed)
elif kind == "79":
    game(f"maracaibo_79_{commit}", 3, {"mode": "79"}, f"golden-79-{commit}")
elif kind == "campaign":
    opts = {"campaign": True, "mode": "campaign"}
    first = game(f"maracaibo_campaign_{commit}_1", 2, opts, f"golden-campaign-{commit}-1")
    arch = rules.archive(first)
    second = game(f"maracaibo_campaign_{commit}_2", 2, opts, f"golden-campaign-{commit}-2", archive=arch, mid=120)
    game(
        f"maracaibo_campaign_{commit}_3", 2, opts, f"golden-campaign-{commit}-3", archive=rules.archive(second), mid=100
    )
