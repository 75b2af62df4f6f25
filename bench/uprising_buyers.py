#!/usr/bin/env python
"""Does a project card win games, or does the bot buy it when it is already winning?

    python bench/uprising_buyers.py [--cards 201 208] [--games N] [--modes 78 79] [--players 2 3 4]
                                    [--seeds A B] [--json FILE] [--per-seed] [--set ID:KEY=N ...]
                                    [--interleave] [--resume]
    python bench/uprising_buyers.py --table FILE [--cards ...] [--per-seed]   # the report, from --json records

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
- **expected from their position and tokens**: the same, with the synergy tokens held at that turn too
  (0 ... 5, 6 or more): a player holding many tokens is strong whatever it buys, and a card paid by the
  tokens is bought by players holding many. Leave-one-out: the buyer's own record at the buy is left out
  of its cell (these cells are small, and a buyer's own win would pull the expectation to its result); a
  buyer whose cell holds nobody else is left out of this column (the count says how many are in it);
- **expected from their position, tokens and doubloons**: the same, with the doubloons held at that turn
  too, in bands of 6 (0-5, 6-11, 12-17, 18 or more: a card costing 12 is bought from the third band up):
  a player rich enough to buy the card is strong whatever it buys. Leave-one-out as the tokens' column;
- **without the card's points**: the buyers' wins had the card's points not been scored (a win whose
  margin was no larger than the card's points counts as lost; ties share). This is an upper bound of
  the card's effect: the buy's doubloons and action would have gone elsewhere.

Also the synergy tokens, doubloons and VP its buyers held at the buy (the turn's start, before the buy), the
player-games in which the card was held (in hand or planning area at one of the game's decisions: how often
its holders buy it), and each conditioned column's excess (buyers' wins less their expectation) with its
standard error had the card done nothing (each buyer's win a draw of its own expectation).
``--per-seed`` reports each seed's games alone too
(their expectations over that seed's games); ``--table FILE`` reports from ``--json`` records (older records,
without the tokens or doubloons held, leave those columns out).

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

from engine.games.maracaibo import RULES, board
from engine.games.maracaibo import cards as buying
from engine.games.maracaibo import content as C
from engine.games.maracaibo import uprising_content as U
from engine.games.maracaibo.bot import choose as bot
from engine.games.maracaibo.effects import scorings_left
from engine.testing import player_names

#: (turn a player, rank, lead band, explorer past the green barrier, tokens, doubloons band)
Key = tuple[int, int, int, int, int, int]
#: the synergy tokens held, counted up to this (more count as this)
_TOKENS_CAP = 6
#: the doubloons held, in bands this wide, counted up to the last band (more count as it): 0-5 ... 18 or more
_DOUBLOONS_BAND = 6
_DOUBLOONS_BANDS = 4
#: the explorer space of the green barrier (both cards need it crossed: the Chronicler to be bought,
#: the Jungle Guide to pay), a strong sign of a winning game on its own
_GREEN = {v: k for k, v in C.BARRIERS.items()}["green"]


def _position(state: dict[str, Any], seat: int) -> Key:
    vps = [int(p["victory_points"]) for p in state["seats"]]
    me = vps[seat]
    best_other = max(v for s, v in enumerate(vps) if s != seat)
    rank = 1 + sum(1 for s, v in enumerate(vps) if s != seat and v > me)
    band = max(-4, min(4, (me - best_other) // 5))
    tokens = min(_TOKENS_CAP, len(state["seats"][seat]["synergy"]))
    money = min(_DOUBLOONS_BANDS - 1, int(state["seats"][seat]["doubloons"]) // _DOUBLOONS_BAND)
    return (int(state["turns"]) // len(vps), rank, band, int(int(state["seats"][seat]["explorer"]) >= _GREEN), tokens,
            money)


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
    held: set[tuple[int, int]] = set()  # (card, seat): a watched card in a player's hand or planning area
    buys: list[dict[str, Any]] = []
    moves = 0
    while pending := RULES.pending(state):
        seat = pending[0]
        for s in range(n):
            seen[s].add(_position(state, s))
            q = state["seats"][s]
            held.update((cid, s) for cid in cards if cid in q["hand"] or cid in q["plan"])
        opts = RULES.options(state, seat)
        pick = bot(state, seat, opts, rnd)
        p = state["seats"][seat]
        before_bought, before_vp = list(p["bought"]), int(p["victory_points"])
        before_inc, before_d = int(p["income_victory_points"]), int(p["doubloons"])
        at = _position(state, seat)
        left = scorings_left(state)
        RULES.apply(state, seat, pick.move)
        p = state["seats"][seat]
        new = set(p["bought"]) - set(before_bought)
        for cid in new & cards:
            held.add((cid, seat))  # (drawn and bought between two of the game's decisions: held too)
            # the card's own points: its immediate VP (the move's VP, which may hold more: "move_vp"),
            # its VP income's rise times the scorings left, its VP at the end
            rise = int(p["income_victory_points"]) - before_inc
            buys.append({"card": cid, "seat": seat, "at": at, "move_vp": int(p["victory_points"]) - before_vp,
                         "gain": _now_vp(U.CARD[cid], p), "income": (rise if rise > 0 else 0) * left,
                         "doubloons": before_d, "vp": before_vp, "round": int(state["round"])})
        moves += 1
        if moves > 20000:
            raise RuntimeError(f"game {seed} did not end")
    outcome = RULES.outcome(state)
    assert outcome is not None
    vps = [int(p["victory_points"]) for p in state["seats"]]
    for b in buys:
        b["card_vp"] = int(U.CARD[b["card"]]["vp"])
    return {"winners": list(outcome.winners), "vps": vps, "seen": [sorted(s) for s in seen], "buys": buys,
            "held": sorted([c, s] for c, s in held)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--cards", type=int, nargs="+", default=[201, 208])
    parser.add_argument("--games", "-k", type=int, default=200, help="games per mode, player count and seed")
    parser.add_argument("--modes", nargs="+", default=["78", "79"])
    parser.add_argument("--players", "-n", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seeds", nargs=2, default=["uprising-a", "uprising-b"])
    parser.add_argument("--json", help="append every game's record (one JSON line each)")
    parser.add_argument("--per-seed", action="store_true", help="report each seed's games alone too")
    parser.add_argument("--table", help="no games: report from this --json file's records")
    parser.add_argument("--interleave", action="store_true",
                        help="play the i-th game of every mode and seed before the next i (the same seeded games: "
                             "a run stopped early holds as many of each cell)")
    parser.add_argument("--resume", action="store_true",
                        help="the games the --json file holds already are read, not played again")
    parser.add_argument("--set", nargs="+", default=[], metavar="ID:KEY=N",
                        help="an A/B run: a card's number changed for this run, e.g. 201:cost=8 238:cost_goods=sugar "
                             "240:before_round=2 240:barrier=green 240:barrier=none")
    args = parser.parse_args(argv)
    cards = frozenset(args.cards)
    if args.table:
        records = [json.loads(line) for line in Path(args.table).read_text(encoding="utf-8").splitlines() if line]
        for n in sorted({int(g["n"]) for g in records}):
            report_all(n, [g for g in records if int(g["n"]) == n], cards, args.per_seed)
            print(f"  ({sum(1 for g in records if int(g['n']) == n)} games)")
        return 0
    for change in args.set:  # (the card's one dict: the engine's lookups share it)
        cid, kv = change.split(":")
        key, value = kv.split("=")
        # a number, or the goods a card costs too (``cost_goods=sugar,tobacco``: a building requirement), or its
        # buying window (``before_round=2``: sold only before round 2, a requirement of its ``needs``), or the
        # barrier its explorer must be past (``barrier=green``, its ``needs`` too; ``barrier=none``: none)
        if key in ("before_round", "barrier"):
            needs = {k: v for k, v in (U.CARD[int(cid)].get("needs") or {}).items()
                     if key == "barrier" or k != "before_last_round"}
            needs = {**needs, key: value if key == "barrier" else int(value)}
            if needs.get("barrier") == "none":  # (``barrier=none``: no barrier to be past, the window alone)
                del needs["barrier"]
            U.CARD[int(cid)]["needs"] = needs
            board.SOLD_BEFORE.pop(int(cid), None)  # (worked out at a card's first look)
        else:
            U.CARD[int(cid)][key] = value.split(",") if key == "cost_goods" else int(value)
        # (and the price and requirements buying reads, worked out once at import: without it the bot weighed
        # the new price and paid the old one)
        buying._BUY_NEEDS[int(cid)] = buying._buy_needs(U.CARD[int(cid)])
        if key == "cost_goods":
            buying._GOODS_CARDS |= {int(cid)}
            buying._REQ_CARDS |= {int(cid)}
        print(f"A/B: {U.CARD[int(cid)]['name']}'s {key} is {value} in this run")
    done: dict[str, dict[str, Any]] = {}  # (--resume: the games already recorded, by their seed)
    if args.resume and args.json and Path(args.json).exists():
        for line in Path(args.json).read_text(encoding="utf-8").splitlines():
            if line.strip():
                try:
                    g = json.loads(line)
                except ValueError:  # (a line cut short when the run was stopped)
                    continue
                done[str(g["seed"])] = g
    out = open(args.json, "a", encoding="utf-8") if args.json else None  # noqa: SIM115
    print(f"Maracaibo: The Uprising, the buyers of {', '.join(U.CARD[c]['name'] for c in sorted(cards))}: "
          f"{args.games} bot games per mode, player count and seed (data/uprising/: SUBSTITUTE CONTENT)")
    errors = 0
    for n in args.players:
        games: list[dict[str, Any]] = []
        started = time.perf_counter()
        cells = [(mode, seed, i) for mode in args.modes for seed in args.seeds for i in range(args.games)]
        if args.interleave:  # (the i-th game of every cell, then the next i)
            cells.sort(key=lambda c: c[2])
        for mode, seed, i in cells:
            s = f"{seed}-{mode}-{n}-{i}"
            if s in done:
                games.append(done[s])
                continue
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
                out.flush()
        report_all(n, games, cards, args.per_seed)
        print(f"  ({len(games)} games, {time.perf_counter() - started:.0f} s)")
    print(f"errors: {errors}")
    return 1 if errors else 0


def _won(g: dict[str, Any], seat: int) -> float:
    return 1 / len(g["winners"]) if seat in g["winners"] else 0.0


def report_all(n: int, games: list[dict[str, Any]], cards: frozenset[int], per_seed: bool) -> None:
    """The report over every game, then (``per_seed``) over each seed's games alone."""
    report(n, games, cards)
    if per_seed:
        for seed in sorted({str(g["seed"]).rsplit("-", 3)[0] for g in games}):
            report(n, [g for g in games if str(g["seed"]).rsplit("-", 3)[0] == seed], cards, f" (seed {seed} alone)")


def cells(n: int, games: list[dict[str, Any]]) -> dict[int, dict[tuple[int, ...], list[float]]]:
    """Every position's [players, wins], by the key's length: 4 (position), 5 (and tokens), 6 (and doubloons).

    A player counts once in a cell whatever else its key holds (a player at one position with 3 tokens at
    one turn and 4 at the next counts once in the position's cell, once in each tokens' cell)."""
    out: dict[int, dict[tuple[int, ...], list[float]]] = {
        size: defaultdict(lambda: [0.0, 0.0]) for size in (4, 5, 6)}
    for g in games:
        for s in range(n):
            keys = [tuple(k) for k in g["seen"][s]]
            w = _won(g, s)
            for size in (4, 5, 6):
                for k in {k[:size] for k in keys if len(k) >= size}:
                    c = out[size][k]
                    c[0] += 1
                    c[1] += w
    return out


def figures(n: int, games: list[dict[str, Any]], cid: int,
            at: dict[int, dict[tuple[int, ...], list[float]]] | None = None) -> dict[str, Any]:
    """One card's buyers in these games: counts and win shares (0-1), the report's arithmetic.

    ``buyers``, ``won``, ``expected`` (position), ``without`` (the card's points not scored); per
    conditioned column (``tok`` position and tokens, ``dbl`` and doubloons too) the buyers in it, their
    wins and the expectation, leave-one-out (a buyer alone in its cell is left out of that column)."""
    at = at if at is not None else cells(n, games)
    f: dict[str, Any] = {"buyers": 0.0, "won": 0.0, "expected": 0.0, "without": 0.0,
                         "ranks": [0] * (n + 1), "turns": [], "points": [], "held": defaultdict(int),
                         "doubloons": [], "vp": [], "holders": None}
    for col in ("tok", "dbl"):
        f[col] = {"buyers": 0.0, "won": 0.0, "expected": 0.0, "var": 0.0}
    if games and all("held" in g for g in games):  # (older records do not say who held the card)
        f["holders"] = sum(1 for g in games for c, _ in g["held"] if c == cid)
    for g in games:
        for b in g["buys"]:
            if b["card"] != cid:
                continue
            seat, key = b["seat"], tuple(b["at"])
            f["buyers"] += 1
            w = _won(g, seat)
            f["won"] += w
            c = at[4][key[:4]]
            f["expected"] += c[1] / c[0]
            for col, size in (("tok", 5), ("dbl", 6)):
                if len(key) < size:
                    continue
                c = at[size][key[:size]]
                if c[0] > 1:  # (leave-one-out: the buyer's own record out of its cell)
                    f[col]["buyers"] += 1
                    f[col]["won"] += w
                    e = (c[1] - w) / (c[0] - 1)
                    f[col]["expected"] += e
                    f[col]["var"] += e * (1 - e)  # (a buyer's win, a draw of chance e: its variance)
            if len(key) > 4:
                f["held"][key[4]] += 1
            if "doubloons" in b:
                f["doubloons"].append(int(b["doubloons"]))
                f["vp"].append(int(b["vp"]))
            f["ranks"][key[1]] += 1
            f["turns"].append(key[0])
            pts = b["gain"] + b["income"] + b["card_vp"]
            f["points"].append(pts)
            vps = list(g["vps"])
            vps[seat] -= pts
            top = max(vps)
            if vps[seat] == top:
                f["without"] += 1 / sum(1 for v in vps if v == top)
    return f


def excess(c: dict[str, float]) -> tuple[float, float]:
    """A conditioned column's excess (the buyers' wins less their expectation, points of a share) and its
    standard error had the card done nothing (each buyer's win a draw of its own expectation)."""
    return 100 * (c["won"] - c["expected"]) / c["buyers"], 100 * c["var"] ** 0.5 / c["buyers"]


def _col(f: dict[str, Any], col: str, label: str) -> str:
    c = f[col]
    if not c["buyers"]:
        return ""
    x, se = excess(c)
    return (f"{label} {100 * c['expected'] / c['buyers']:.0f}% "
            f"(leave-one-out, {c['buyers']:.0f} buyers, who won {100 * c['won'] / c['buyers']:.0f}%: "
            f"excess {x:+.0f} +- {se:.0f}); ")


def report(n: int, games: list[dict[str, Any]], cards: frozenset[int], title: str = "") -> None:
    """Buyers' wins, the wins expected from their position (and tokens, and doubloons), without the card's points."""
    at = cells(n, games)
    even = 100 / n
    print(f"\n## {n} players{title} (even {even:.0f}%, limit 1.5 x = {1.5 * even:.0f}%)")
    for cid in sorted(cards):
        f = figures(n, games, cid, at)
        buyers = f["buyers"]
        holders = "" if f["holders"] is None else f"held in {f['holders']} player-games; "
        if not buyers:
            print(f"- {U.CARD[cid]['name']} ({cid}): {holders}no buyer")
            continue
        held, ranks, money = f["held"], f["ranks"], sorted(f["doubloons"])
        print(f"- {U.CARD[cid]['name']} ({cid}): {holders}{buyers:.0f} buyers; "
              f"buyers' wins {100 * f['won'] / buyers:.0f}%; "
              f"expected from their position {100 * f['expected'] / buyers:.0f}%; "
              + _col(f, "tok", "expected from their position and tokens")
              + _col(f, "dbl", "expected from their position, tokens and doubloons")
              + f"without the card's points {100 * f['without'] / buyers:.0f}%; "
              f"the card's points mean {sum(f['points']) / buyers:.1f}; bought at a player's turn "
              f"{sum(f['turns']) / buyers:.1f} (of 18-21); rank at the buy " + " / ".join(
                  f"{100 * ranks[r] / buyers:.0f}%" for r in range(1, n + 1)) + " (1st / ... )"
              + ("; synergy tokens at the buy " + ", ".join(f"{t}: {held[t]}" for t in sorted(held)) if held else "")
              + (f"; doubloons at the buy median {money[len(money) // 2]} (min {money[0]}, max {money[-1]}), "
                 f"VP at the buy mean {sum(f['vp']) / len(f['vp']):.1f}" if money else ""))

if __name__ == "__main__":
    sys.exit(main())
