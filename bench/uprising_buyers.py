#!/usr/bin/env python
"""Does a project card win games, or does the bot buy it when it is already winning?

    python bench/uprising_buyers.py [--cards 201 208] [--games N] [--modes 78 79] [--players 2 3 4]
                                    [--seeds A B] [--json FILE]

Bot self-play, as ``bench/uprising_balance.py``. For every buy of a watched card it keeps the
buyer's position at the purchase (its rank and its lead over the best other player, the turn) and
the points the card brought (the buy's own VP, the card's VP at the end, its VP income times the
scorings left). It prints, per card and player count, over both seeds:

- **buyers' wins**: the share of games its buyers won (what ``uprising_balance.py`` reports), against
  1.5 x the even share;
- **expected from their position**: the win rate of every player of the same runs who stood at the
  same rank with a lead in the same 5-point band at the same turn, with the explorer past the green
  barrier or not as the buyer's (buyer or not), summed over the buyers: what the buyers would have won
  had the card done nothing;
- **without the card's points**: the buyers' wins had the card's points not been scored (a win whose
  margin was no larger than the card's points counts as lost; ties share). This is an upper bound of
  the card's effect: the buy's doubloons and action would have gone elsewhere.

Buyers' wins near "expected from their position" and "without the card's points" well above the even
share mean the bot's choice (it buys the card when it is ahead), not the card's strength.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.games.maracaibo import RULES
from engine.games.maracaibo import cards as buying
from engine.games.maracaibo import content as C
from engine.games.maracaibo import uprising_content as U
from engine.games.maracaibo.bot import choose as bot
from engine.games.maracaibo.effects import scorings_left
from engine.testing import player_names

Key = tuple[int, int, int, int]  # (turn a player, rank, lead band, explorer past the green barrier)
#: the explorer space of the green barrier (both cards need it crossed: the Chronicler to be bought,
#: the Jungle Guide to pay), a strong sign of a winning game on its own
_GREEN = {v: k for k, v in C.BARRIERS.items()}["green"]


def _position(state: dict[str, Any], seat: int) -> Key:
    vps = [int(p["vp"]) for p in state["p"]]
    me = vps[seat]
    best_other = max(v for s, v in enumerate(vps) if s != seat)
    rank = 1 + sum(1 for s, v in enumerate(vps) if s != seat and v > me)
    band = max(-4, min(4, (me - best_other) // 5))
    return (int(state["turns"]) // len(vps), rank, band, int(int(state["p"][seat]["explorer"]) >= _GREEN))


def _now_vp(card: dict[str, Any], p: dict[str, Any]) -> int:
    """The VP a card's immediate effects score (per synergy token: the tokens held after the buy)."""
    vp = 0
    for e in card["effects"]:
        g = e.get("gain", {}) if e.get("t") == "now" and not e.get("ext") else {}
        if g.get("per") == "synergy":
            vp += int(g.get("vp", 0)) * len(p["synergy"])
        elif "per" not in g:
            vp += int(g.get("vp", 0))
    return vp


def play(n: int, mode: str, seed: str, cards: frozenset[int]) -> dict[str, Any]:
    """One bot game: every player's position at each of its turns, and every watched buy."""
    state = RULES.setup(player_names(n), {"mode": mode}, seed)
    rnd = random.Random(f"{seed}-bot")
    seen: list[set[Key]] = [set() for _ in range(n)]
    buys: list[dict[str, Any]] = []
    moves = 0
    while pending := RULES.pending(state):
        seat = pending[0]
        for s in range(n):
            seen[s].add(_position(state, s))
        opts = RULES.options(state, seat)
        pick = bot(state, seat, opts, rnd)
        p = state["p"][seat]
        before_bought, before_vp, before_inc = list(p["bought"]), int(p["vp"]), int(p["inc_vp"])
        at = _position(state, seat)
        left = scorings_left(state)
        RULES.apply(state, seat, pick.move)
        p = state["p"][seat]
        new = set(p["bought"]) - set(before_bought)
        for cid in new & cards:
            # the card's own points: its immediate VP (the move's VP, which may hold more: "move_vp"),
            # its VP income's rise times the scorings left, its VP at the end
            rise = int(p["inc_vp"]) - before_inc
            buys.append({"card": cid, "seat": seat, "at": at, "move_vp": int(p["vp"]) - before_vp,
                         "gain": _now_vp(U.CARD[cid], p), "income": (rise if rise > 0 else 0) * left})
        moves += 1
        if moves > 20000:
            raise RuntimeError(f"game {seed} did not end")
    outcome = RULES.outcome(state)
    assert outcome is not None
    vps = [int(p["vp"]) for p in state["p"]]
    for b in buys:
        b["card_vp"] = int(U.CARD[b["card"]]["vp"])
    return {"winners": list(outcome.winners), "vps": vps, "seen": [sorted(s) for s in seen], "buys": buys}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--cards", type=int, nargs="+", default=[201, 208])
    parser.add_argument("--games", "-k", type=int, default=200, help="games per mode, player count and seed")
    parser.add_argument("--modes", nargs="+", default=["78", "79"])
    parser.add_argument("--players", "-n", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seeds", nargs=2, default=["uprising-a", "uprising-b"])
    parser.add_argument("--json", help="append every game's record (one JSON line each)")
    parser.add_argument("--set", nargs="+", default=[], metavar="ID:KEY=N",
                        help="an A/B run: a card's number changed for this run, e.g. 201:cost=8 201:vp=1")
    args = parser.parse_args(argv)
    for change in args.set:  # (the card's one dict: the engine's lookups share it)
        cid, kv = change.split(":")
        key, value = kv.split("=")
        U.CARD[int(cid)][key] = int(value)
        # (and the price buying reads, worked out once at import: without it the bot weighed the new price
        # and paid the old one)
        buying._BUY_NEEDS[int(cid)] = buying._buy_needs(U.CARD[int(cid)])
        print(f"A/B: {U.CARD[int(cid)]['name']}'s {key} is {value} in this run")
    cards = frozenset(args.cards)
    out = open(args.json, "a", encoding="utf-8") if args.json else None  # noqa: SIM115
    print(f"Maracaibo: The Uprising, the buyers of {', '.join(U.CARD[c]['name'] for c in sorted(cards))}: "
          f"{args.games} bot games per mode, player count and seed (data/uprising/: SUBSTITUTE CONTENT)")
    errors = 0
    for n in args.players:
        games: list[dict[str, Any]] = []
        started = time.perf_counter()
        for mode in args.modes:
            for seed in args.seeds:
                for i in range(args.games):
                    s = f"{seed}-{mode}-{n}-{i}"
                    try:
                        g = play(n, mode, s, cards)
                    except Exception as exc:  # noqa: BLE001 - a simulation reports every failure and goes on
                        errors += 1
                        print(f"  error in {s}: {type(exc).__name__}: {exc}".splitlines()[0][:200])
                        continue
                    g.update(mode=mode, n=n, seed=s)
                    games.append(g)
                    if out:
                        out.write(json.dumps(g) + "\n")
        report(n, games, cards)
        print(f"  ({len(games)} games, {time.perf_counter() - started:.0f} s)")
    print(f"errors: {errors}")
    return 1 if errors else 0


def _won(g: dict[str, Any], seat: int) -> float:
    return 1 / len(g["winners"]) if seat in g["winners"] else 0.0


def report(n: int, games: list[dict[str, Any]], cards: frozenset[int]) -> None:
    """Buyers' wins, the wins expected from their position, the wins without the card's points."""
    at: dict[Key, list[float]] = defaultdict(lambda: [0.0, 0.0])  # position -> [players, wins]
    for g in games:
        for s in range(n):
            for k in g["seen"][s]:
                c = at[(k[0], k[1], k[2], k[3])]
                c[0] += 1
                c[1] += _won(g, s)
    even = 100 / n
    print(f"\n## {n} players (even {even:.0f}%, limit 1.5 x = {1.5 * even:.0f}%)")
    for cid in sorted(cards):
        buyers = won = expected = without = 0.0
        ranks = [0] * (n + 1)
        turns: list[int] = []
        points: list[int] = []
        for g in games:
            for b in g["buys"]:
                if b["card"] != cid:
                    continue
                seat, key = b["seat"], tuple(b["at"])
                buyers += 1
                won += _won(g, seat)
                c = at[key]
                expected += c[1] / c[0]
                ranks[key[1]] += 1
                turns.append(key[0])
                pts = b["gain"] + b["income"] + b["card_vp"]
                points.append(pts)
                vps = list(g["vps"])
                vps[seat] -= pts
                top = max(vps)
                if vps[seat] == top:
                    without += 1 / sum(1 for v in vps if v == top)
        if not buyers:
            print(f"- {U.CARD[cid]['name']}: no buyer")
            continue
        print(f"- {U.CARD[cid]['name']}: {buyers:.0f} buyers; buyers' wins {100 * won / buyers:.0f}%; "
              f"expected from their position {100 * expected / buyers:.0f}%; "
              f"without the card's points {100 * without / buyers:.0f}%; "
              f"the card's points mean {sum(points) / buyers:.1f}; bought at a player's turn {sum(turns) / buyers:.1f} "
              f"(of 18-21); rank at the buy " + " / ".join(
                  f"{100 * ranks[r] / buyers:.0f}%" for r in range(1, n + 1)) + " (1st / ... )")


if __name__ == "__main__":
    sys.exit(main())
