"""What a stop costs or gives is said where the player chooses it (issue 21): a sail option to a
place with a legacy stop tile (scenario 77: Belize takes 2 doubloons, Tortuga gives a combat point)
names the tile and its words, and still reads back; over a real game played by the engine."""

from __future__ import annotations

import random

import engine
from engine.games.maracaibo import content as C

RULES = engine.get("maracaibo")


def test_it_says_in_the_sail_option_what_ending_at_a_legacy_stop_costs_or_gives() -> None:
    st = RULES.setup(["Ana", "Bruno"], {"scenario": 77}, "stops-told")
    stops = {C.LEGACY[t]["loc"]: C.LEGACY[t] for t in st["legacy"] if C.LEGACY[t]["kind"] == "stop"}
    assert stops, "scenario 77 deals stop tiles"
    rnd = random.Random(7)
    told: set[str] = set()
    for _ in range(3000):
        waiting = RULES.pending(st)
        if not waiting or told == set(stops):
            break
        seat = waiting[0]
        opts = RULES.options(st, seat)
        for o in (o for o in opts if o.label.startswith("sail ")):
            loc = o.code[1:]
            if loc in stops:
                tile = stops[loc]
                assert o.label.endswith(f"(legacy tile {tile['id']}: {tile['text']})"), o.label
                assert RULES.parse(o.label, st, seat) == o.move
                assert RULES.parse(f"sail to {loc}", st, seat) == o.move
                told.add(loc)
            else:
                assert "legacy tile" not in o.label
        before = {s: (p["doubloons"], p.get("combat_points", 0)) for s, p in enumerate(st["seats"])}
        choice = rnd.choice(opts)
        RULES.apply(st, seat, choice.move)
        if choice.code[1:] in stops and choice.label.startswith("sail "):
            gain = stops[choice.code[1:]]["gain"]
            d, cp = before[seat]
            if "cp" in gain:  # Tortuga: what the label says is what the stop gives
                assert st["seats"][seat].get("combat_points", 0) >= cp + 1
            if gain.get("d", 0) < 0:  # Belize: 2 doubloons, or all the player has
                assert st["seats"][seat]["doubloons"] <= max(0, d - 2) or st["seats"][seat]["doubloons"] < d
    assert told == set(stops), f"every stop tile was offered and told: {told} of {set(stops)}"
