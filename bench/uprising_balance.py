#!/usr/bin/env python
"""Maracaibo: The Uprising, measured: N bot games per mode and player count, each with TWO seeds.

    python bench/uprising_balance.py [--games N] [--modes base basic 78 79] [--players 2 3 4]
                                     [--seeds A B] [--against random] [--ab uprising=0] [--ports random]
                                     [--set HP4.bonus.pay.d=5 ...] [--json FILE] [--table FILE ...]

For every mode, player count and seed (a figure met on one seed only shows as such) it prints:
errors (and the first failing seeds), game length (turns a player, moves a game), the score spread
by seat and the win rate by seat, the points by source, how often a player uses each of the
expansion's parts (fights for and against a nation, Liberate City and Village, markers put on the
resistance tile or lost, the tile filled, its village action, the home port's bonus, village and
combat actions, the new board's slots completed), and wins by home port and by strategy (the
players who liberated against those who did not). Where a part is offered but seldom taken, the
"offered" counts say how often the bot could have used it. Every home port is reported (kept, dealt,
its keepers' share of games won against 1.5 x the even share, their margin over the table's others),
and every expansion project card's pick rate: the player-games it was bought against those it was held
(in hand or planning area: the game offers project cards so, there is no display) and those it could be
bought (its buy option offered).

``--ports random``: the home port kept is one of the three dealt at random (the bot plays the rest):
what the bot's port values (``bot/uprising.py``, ``PORT_GAIN``) are learned from.

``--set HP4.bonus.pay.d=5``: a home port's number (any value of its row, as JSON) changed in this process
only, so that a proposed change is measured before the data is changed; the key must exist. The JSON
lines say what was set (``set``).

``--against random``: one seat (each in turn, game by game) is the bot, the others play random legal
moves: the bot's win rate against the even share, and each part's use by the bot and by random play.
``--ab uprising=0``: one seat (each in turn) plays the bot with those weights changed
(``engine.games.maracaibo.bot.WEIGHTS``; ``uprising=0`` ignores the expansion's parts), the others the bot:
does using the expansion pay?

The content of ``data/uprising/`` is SUBSTITUTE CONTENT; these figures are what it is balanced by.
Run by hand with ``nice -n 19``; the figures go into docs/rules/maracaibo-uprising.md ("Balance").
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core import Option, State
from engine.games.maracaibo import RULES
from engine.games.maracaibo import uprising_content as U
from engine.games.maracaibo.bot import choose as bot
from engine.testing import player_names

Chooser = Callable[[State, int, list[Option], random.Random], Option]

#: the parts of the expansion counted, in the order printed
PARTS = ("fight for", "fight against", "liberate city", "liberate village", "liberate extra", "resistance placed",
         "resistance lost", "resistance full", "resistance village", "port bonus paid", "port bonus declined",
         "port village", "port combat", "U6 completed", "UR completed", "UH completed")
#: how often a part could have been taken (counted at each decision that offered it)
OFFERED = ("fight against", "resistance village", "port village", "port combat", "liberate city",
           "liberate village", "liberate extra")


def _random(state: State, seat: int, options: list[Option], rnd: random.Random) -> Option:
    return rnd.choice(options)


def usage(kind: str, code: str) -> str | None:
    """The expansion's part a chosen option uses (``kind``: the decision's frame), or None."""
    if kind == "fight" and len(code) == 2 and code[0] in "af":  # (not a free action taken there)
        return "fight against" if code.startswith("a") else "fight for"
    if kind in ("against", "liberation") and code[:2] in ("lc", "lv"):
        return "liberate city" if code.startswith("lc") else "liberate village"
    if kind == "liberation" and code[:2] in ("xc", "xv"):
        return "liberate extra"
    if kind == "resist":
        return "resistance lost" if code == "r0" else "resistance placed"
    if kind == "portbonus":
        return "port bonus paid" if code == "yes" else "port bonus declined"
    if code == "vR":
        return "resistance village"
    if code == "vH":
        return "port village"
    if kind in ("combat", "liberation") and code.startswith("ch"):
        return "port combat"
    return None


def offered(kind: str, codes: set[str]) -> list[str]:
    out = []
    if kind == "fight" and any(c.startswith("a") for c in codes):
        out.append("fight against")
    if "vR" in codes:
        out.append("resistance village")
    if "vH" in codes:
        out.append("port village")
    if kind in ("combat", "liberation") and any(c.startswith("ch") for c in codes):
        out.append("port combat")
    if any(c.startswith("lc") for c in codes):
        out.append("liberate city")
    if any(c.startswith("lv") for c in codes):
        out.append("liberate village")
    if any(c[:2] in ("xc", "xv") for c in codes):
        out.append("liberate extra")
    return out


#: the expansion's project cards (those dealt in 78 and 79: uprising_content.PLAYABLE_CARDS)
NEW_CARDS = frozenset(int(c["id"]) for c in U.PLAYABLE_CARDS)


def random_ports(chooser: Chooser, seed: str) -> Chooser:
    """``chooser`` but for the home port kept at setup: one of the three dealt at random (its own rng, seeded by
    the game's seed, so that the rest of the game's draws are those of the bot's own choice)."""
    rng = random.Random(f"{seed}-ports")

    def choose(state: State, seat: int, options: list[Option], rnd: random.Random) -> Option:
        ports = [o for o in options if o.code.startswith("h")]
        if ports and state["stack"] and state["stack"][-1]["kind"] == "setup":
            return rng.choice(ports)
        return chooser(state, seat, options, rnd)
    return choose


def play(n: int, options: dict[str, Any], seed: str, who: Sequence[Chooser], ports: str = "bot") -> dict[str, Any]:
    """One game; every seat's use of the expansion's parts (and what it was offered) counted, the home ports
    dealt to it, and the expansion's project cards it held (in hand or planning area at one of its decisions),
    could buy (a ``b<card>`` option offered) and bought. ``ports="random"``: the kept port drawn at random."""
    state = RULES.setup(player_names(n), options, seed)
    rnd = random.Random(f"{seed}-bot")
    if ports == "random":
        who = [random_ports(c, seed) for c in who]
    used: list[Counter[str]] = [Counter() for _ in range(n)]
    could: list[Counter[str]] = [Counter() for _ in range(n)]
    dealt: list[list[str]] = [[] for _ in range(n)]
    held: list[set[int]] = [set() for _ in range(n)]
    buyable: list[set[int]] = [set() for _ in range(n)]
    moves = 0
    while pending := RULES.pending(state):
        seat = pending[0]
        opts = RULES.options(state, seat)
        kind = state["stack"][-1]["kind"] if state["stack"] else ""
        me = state["seats"][seat]
        held[seat].update(c for c in (*me["hand"], *me["plan"]) if c in NEW_CARDS)
        for o in opts:
            if o.code[0] == "b" and o.code[1:].isdigit() and int(o.code[1:]) in NEW_CARDS:
                buyable[seat].add(int(o.code[1:]))
        if kind == "setup" and not dealt[seat]:
            dealt[seat] = [o.code[1:] for o in opts if o.code.startswith("h")]
        pick = who[seat](state, seat, opts, rnd)
        could[seat].update(offered(kind, {o.code for o in opts}))
        part = usage(kind, pick.code)
        if part:
            used[seat][part] += 1
        for e in RULES.apply(state, seat, pick.move):
            if e.kind == "resist_full":
                used[seat]["resistance full"] += 1
        moves += 1
        if moves > 20000:
            raise RuntimeError(f"game {seed} did not end")
    outcome = RULES.outcome(state)
    assert outcome is not None
    for s, p in enumerate(state["seats"]):
        for area in ("U6", "UR", "UH"):  # (U6: in 79 the combat action tile's U side, the extra liberation)
            if area in p["areas"]:
                used[s][f"{area} completed"] += 1
    return {"state": state, "winners": outcome.winners, "moves": moves, "used": used, "offered": could,
            "dealt": dealt, "held": held, "buyable": buyable}


def port_rows(ports: dict[str, list[float]], n: int) -> list[dict[str, Any]]:
    """Every home port of a tally (``Tally.ports``), best win share first: the players who kept it, its share of
    their games won and that share against the even share (``ratio``; ``above``: over 1.5 x), its keepers' mean
    score and margin (score minus the table's others' mean), and the players it was dealt to. A port dealt but
    never kept has a share of 0 of 0 (it is listed: every port is reported)."""
    rows = []
    for pid, c in ports.items():
        kept, dealt = c[0], c[4] if len(c) > 4 else 0.0
        won = 100 * c[1] / kept if kept else 0.0
        rows.append({"port": pid, "name": U.PORT[pid]["name"], "kept": kept, "dealt": dealt, "won": won,
                     "ratio": won * n / 100, "above": won > 150 / n, "score": c[2] / kept if kept else 0.0,
                     "margin": c[3] / kept if kept and len(c) > 3 else 0.0,
                     "kept_of_dealt": kept / dealt if dealt else 0.0})
    return sorted(rows, key=lambda r: (-r["won"], -r["kept"], r["port"]))


def pick_rows(cards: dict[int, list[float]]) -> list[dict[str, Any]]:
    """The expansion's project cards of a tally (``Tally.cards``), most picked first: player-games in which a
    player bought the card, held it (in hand or planning area at one of its decisions: the game offers a card
    so, there is no display) and could buy it (its ``b<card>`` option offered), and the rates bought / held
    and bought / could buy (0 where never held or never buyable)."""
    rows = []
    for cid, c in cards.items():
        bought, held, buyable = c[0], c[2], c[3]
        rows.append({"card": cid, "name": U.CARD[cid]["name"], "bought": bought, "won": c[1], "held": held,
                     "buyable": buyable, "of_held": bought / held if held else 0.0,
                     "of_buyable": bought / buyable if buyable else 0.0})
    return sorted(rows, key=lambda r: (-r["of_held"], -r["held"], r["card"]))


def _q(xs: Sequence[float]) -> str:
    xs = sorted(xs)
    if not xs:
        return "-"
    return f"mean {statistics.mean(xs):.1f} (sd {statistics.pstdev(xs):.1f}, {xs[0]:.0f}-{xs[-1]:.0f})"


class Tally:
    """The figures of one mode, player count and seed."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.games = 0
        self.errors: Counter[str] = Counter()
        self.failing: list[str] = []
        self.turns: list[float] = []
        self.moves: list[float] = []
        self.scores: list[list[float]] = [[] for _ in range(n)]
        self.wins = [0.0] * n
        self.src: Counter[str] = Counter()
        self.used: Counter[str] = Counter()
        self.offered: Counter[str] = Counter()
        #: port -> [players who kept it, their wins, score sum, margin sum (score minus the table's others' mean),
        #: players it was dealt to]
        self.ports: dict[str, list[float]] = {}
        self.strategy: dict[str, list[float]] = {}  # "liberated" / "did not" -> [players, wins]
        #: a new project card -> [players who bought it, their wins, players who held it, players who could buy it]
        self.cards: dict[int, list[float]] = {}
        self.seconds = 0.0
        self.mine: tuple[Counter[str], Counter[str]] = (Counter(), Counter())  # the one seat's use, the others'
        self.mine_wins = 0.0
        self.margins: list[float] = []

    def add(self, r: dict[str, Any], me: int | None = None) -> None:
        """One game's figures; ``me``: the seat played differently (--against, --ab), counted apart."""
        state, winners = r["state"], r["winners"]
        self.games += 1
        self.turns.append(state["turns"] / self.n)
        self.moves.append(r["moves"])
        for s, p in enumerate(state["seats"]):
            won = 1 / len(winners) if s in winners else 0.0
            self.wins[s] += won
            if me is not None:
                self.mine[0 if s == me else 1].update(r["used"][s])
                if s == me:
                    self.mine_wins += won
                    self.margins.append(p["victory_points"] - max(o["victory_points"]
                                                                  for t, o in enumerate(state["seats"]) if t != me))
            self.scores[s].append(p["victory_points"])
            self.src.update(p["victory_points_by_source"])
            self.used.update(r["used"][s])
            self.offered.update(r["offered"][s])
            if p.get("port"):
                c = self.ports.setdefault(str(p["port"]), [0.0] * 5)
                c[0] += 1
                c[1] += won
                c[2] += p["victory_points"]
                others = [o["victory_points"] for t, o in enumerate(state["seats"]) if t != s]
                c[3] += (p["victory_points"] - statistics.mean(others)) if others else 0.0  # (solo: no table to beat)
            for pid in r.get("dealt", [[]] * self.n)[s]:
                self.ports.setdefault(pid, [0.0] * 5)[4] += 1
            lib = sum(r["used"][s][k] for k in ("liberate city", "liberate village", "liberate extra",
                                                 "resistance village"))
            c = self.strategy.setdefault("liberated" if lib else "did not liberate", [0.0, 0.0])
            c[0] += 1
            c[1] += won
            bought = set(p["bought"]) & NEW_CARDS
            for cid in bought:
                c = self.cards.setdefault(cid, [0.0] * 4)
                c[0] += 1
                c[1] += won
            for cid in r.get("held", [set()] * self.n)[s] | bought:  # (a card bought was held: the planning area)
                self.cards.setdefault(cid, [0.0] * 4)[2] += 1
            for cid in r.get("buyable", [set()] * self.n)[s]:
                self.cards.setdefault(cid, [0.0] * 4)[3] += 1

    def print(self, label: str) -> None:
        n, g = self.n, max(1, self.games)
        seats = g * n
        print(f"  [{label}] {self.games} games, {self.games / max(self.seconds, 1e-9):.1f} games/s, "
              f"errors {sum(self.errors.values())}"
              + (f" (first failing seeds: {', '.join(self.failing[:3])}; "
                 + "; ".join(f"{m} x{k}" for m, k in self.errors.most_common(3)) + ")" if self.errors else ""))
        if not self.games:
            return
        print(f"    length: turns a player {_q(self.turns)}; moves a game {_q(self.moves)}")
        print("    score by seat: " + "; ".join(f"seat {s + 1} {_q(self.scores[s])}" for s in range(n)))
        print("    wins by seat: " + ", ".join(f"{100 * w / g:.1f}%" for w in self.wins)
              + f" (even {100 / n:.1f}%, largest gap {max(abs(100 * w / g - 100 / n) for w in self.wins):.1f})")
        total = sum(self.src.values()) or 1
        print("    points by source: " + ", ".join(f"{k} {100 * v / total:.0f}% ({v / seats:.1f})"
                                                  for k, v in self.src.most_common()))
        print("    a player's game: " + ", ".join(
            f"{k} {self.used[k] / seats:.2f}" + (f" (offered {self.offered[k] / seats:.1f})" if k in OFFERED else "")
            for k in PARTS if self.used[k] or self.offered[k]))
        if self.ports:
            print("    wins by home port (share of its players' games won; even "
                  f"{100 / n:.0f}%, limit 1.5x = {150 / n:.0f}%; margin: its score minus the others' mean; "
                  "kept of dealt): " + ", ".join(
                      f"{row['name']} {row['won']:.0f}% of {row['kept']:.0f}{' ABOVE' if row['above'] else ''} "
                      f"(score {row['score']:.0f}, margin {row['margin']:+.1f}, kept {row['kept']:.0f} of "
                      f"{row['dealt']:.0f})" for row in port_rows(self.ports, n)))
        print("    wins by strategy: " + ", ".join(f"{k} {100 * c[1] / c[0]:.0f}% of {c[0]:.0f} players"
                                                    for k, c in sorted(self.strategy.items())))
        bought = {cid: c for cid, c in self.cards.items() if c[0]}
        if bought:  # does a new card dominate? its buyers' share of games won, beside the even share
            print(f"    new cards, bought a player-game and their buyers' wins (even {100 / n:.0f}%, "
                  f"limit 1.5x = {150 / n:.0f}%): " + ", ".join(
                      f"{U.CARD[cid]['name']} {c[0] / seats:.2f} {100 * c[1] / c[0]:.0f}%"
                      for cid, c in sorted(bought.items(), key=lambda kv: -kv[1][1] / kv[1][0])))
        if self.cards:
            print("    new cards' pick rates (player-games: bought / held in hand or planning area = rate; "
                  "bought / could buy = rate): " + ", ".join(
                      f"{row['name']} {row['bought']:.0f}/{row['held']:.0f} = {row['of_held']:.2f}, "
                      f"{row['bought']:.0f}/{row['buyable']:.0f} = {row['of_buyable']:.2f}"
                      for row in pick_rows(self.cards)))


def run(mode: str, n: int, games: int, seed: str, who: Callable[[int], Sequence[Chooser]],
        one_seat: bool = False, verbose: bool = False, ports: str = "bot") -> Tally:
    tally = Tally(n)
    options: dict[str, Any] = {} if mode == "base" else {"mode": mode}
    started = time.perf_counter()
    for i in range(games):
        s = f"{seed}-{mode}-{n}-{i}"
        try:
            tally.add(play(n, options, s, who(i), ports), i % n if one_seat else None)
        except Exception as exc:  # noqa: BLE001 - a simulation reports every failure and goes on
            tally.errors[f"{type(exc).__name__}: {exc}".splitlines()[0][:160]] += 1
            tally.failing.append(s)
            if verbose:
                traceback.print_exc()
    tally.seconds = time.perf_counter() - started
    return tally


def set_port(item: str) -> None:
    """``--set HP4.bonus.pay.d=5``: a number (or any JSON value) of a home port's row, in this process
    only; the key must exist (a misspelt key is an error, not a new key)."""
    path, eq, raw = item.partition("=")
    keys = path.split(".")
    if not eq or len(keys) < 2:
        raise ValueError("expected PORT.KEY...=JSON, e.g. HP4.bonus.pay.d=5")
    node: Any = U.PORT[keys[0]]
    for k in keys[1:-1]:
        node = node[int(k)] if isinstance(node, list) else node[k]
    value = json.loads(raw)
    if isinstance(node, list):
        node[int(keys[-1])] = value
    elif keys[-1] in node:
        node[keys[-1]] = value
    else:
        raise KeyError(f"{path}: no such key")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", "-k", type=int, default=100, help="games per mode, player count and seed")
    parser.add_argument("--modes", nargs="+", default=["base", "basic", "78", "79"])
    parser.add_argument("--players", "-n", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seeds", nargs=2, default=["uprising-a", "uprising-b"])
    parser.add_argument("--against", choices=["random"], help="the bot in one seat, random play in the others")
    parser.add_argument("--ab", help="one seat's bot weights changed, e.g. uprising=0")
    parser.add_argument("--ports", choices=["bot", "random"], default="bot",
                        help="the home port kept at setup: the bot's choice, or one of the three dealt at random "
                             "(what the bot's port values are learned from)")
    parser.add_argument("--set", action="append", default=[], metavar="PORT.KEY...=JSON",
                        help="a home port's number changed for this run only (measured before the data is "
                             "changed), e.g. 'HP4.bonus.pay.d=5' or 'HP4.effects.0.inf=1'; repeatable")
    parser.add_argument("--json", help="write one JSON line per mode, player count and seed")
    parser.add_argument("--verbose", "-v", action="store_true", help="print tracebacks")
    parser.add_argument("--table", nargs="+", help="read --json files and print the docs' markdown tables")
    args = parser.parse_args(argv)
    if args.table:
        table(args.table)
        records = _records(args.table)
        if any("port_choice" in r for r in records):  # (files of this version: every port, and pick rates)
            print("\n" + "\n".join(port_table(records)) + "\n\n" + "\n".join(pick_table(records)))
        return 0
    for item in args.set:
        try:
            set_port(item)
        except (KeyError, IndexError, ValueError) as exc:
            parser.error(f"--set {item}: {exc}")
    weights = {k: float(v) for k, v in (kv.split("=") for kv in args.ab.split(","))} if args.ab else None

    def leaning(state: State, seat: int, options: list[Option], rnd: random.Random) -> Option:
        return bot(state, seat, options, rnd, weights)

    def seats(n: int) -> Callable[[int], Sequence[Chooser]]:
        def who(i: int) -> Sequence[Chooser]:
            if args.against:
                out: list[Chooser] = [_random] * n
                out[i % n] = bot
            elif weights:
                out = [bot] * n
                out[i % n] = leaning
            else:
                out = [bot] * n
            return out
        return who

    what = ("the bot in one seat against random play" if args.against
            else f"one seat the bot with {args.ab}, the others the bot" if args.ab else "bot self-play")
    print(f"Maracaibo: The Uprising, {what}: {args.games} games per mode, player count and seed "
          "(data/uprising/: SUBSTITUTE CONTENT)")
    out = open(args.json, "w", encoding="utf-8") if args.json else None  # noqa: SIM115
    failed = 0
    for mode in args.modes:
        for n in args.players:
            print(f"\n## mode {mode}, {n} players")
            for seed in args.seeds:
                tally = run(mode, n, args.games, seed, seats(n), bool(args.against or weights), args.verbose,
                            args.ports)
                failed += sum(tally.errors.values())
                tally.print(seed)
                if args.against or weights:
                    _print_one_seat(tally, n)
                if out:
                    out.write(json.dumps({"mode": mode, "n": n, "seed": seed, "games": tally.games,
                                          "errors": sum(tally.errors.values()), "wins": tally.wins,
                                          "used": tally.used, "src": tally.src, "ports": tally.ports,
                                          "cards": tally.cards, "port_choice": args.ports, "set": args.set,
                                          "seconds": round(tally.seconds, 1)}) + "\n")
                    out.flush()
    return 1 if failed else 0


def table(paths: Sequence[str]) -> None:
    """Markdown rows of --json files: per mode, player count and seed, games, errors, wins by seat,
    the largest seat gap, the expansion's points and each part's use a player-game, and the home
    port winning most against 1.5 x the even share (ports kept in 20 games or more)."""
    print("| mode | players | seed | games | errors | wins by seat (%) | largest gap | liberation + resistance "
          "points (% of all) | a player's game: against / lib. city / lib. village / extra / tile markers / "
          "tile full / tile village action / port unlocked | best home port, its win share (limit) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                n, g = r["n"], max(1, r["games"])
                seats = g * n
                u = Counter(r["used"])
                total = sum(r["src"].values()) or 1
                mine = r["src"].get("liberation", 0) + r["src"].get("resistance", 0)
                wins = [100 * w / g for w in r["wins"]]
                ports = [(100 * c[1] / c[0], pid, c[0]) for pid, c in r["ports"].items() if c[0] >= 20]
                best = max(ports, default=None)
                parts = " / ".join(f"{u[k] / seats:.2f}" for k in (
                    "fight against", "liberate city", "liberate village", "liberate extra", "resistance placed",
                    "resistance full", "resistance village", "UH completed"))
                port = f"{U.PORT[best[1]]['name']} {best[0]:.0f}% of {best[2]:.0f} ({150 / n:.0f}%)" if best else "-"
                print(f"| {r['mode']} | {n} | {r['seed']} | {r['games']} | {r['errors']} | "
                      f"{' / '.join(f'{w:.0f}' for w in wins)} | {max(abs(w - 100 / n) for w in wins):.1f} | "
                      f"{100 * mine / total:.1f} | {parts} | {port} |")


def _records(paths: Sequence[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            out.extend(json.loads(line) for line in f if line.strip())
    return out


def _cells(records: Sequence[dict[str, Any]]) -> tuple[list[tuple[str, int]], list[str]]:
    """The (mode, players) columns and the seeds of --json records, in the order first met."""
    cols: list[tuple[str, int]] = []
    seeds: list[str] = []
    for r in records:
        if (r["mode"], r["n"]) not in cols:
            cols.append((r["mode"], r["n"]))
        if r["seed"] not in seeds:
            seeds.append(r["seed"])
    return cols, seeds


def port_table(records: Sequence[dict[str, Any]]) -> list[str]:
    """Markdown: every home port (a row) by mode and player count (a column): its keepers' share of games won on
    each seed, with the players who kept it, in bold where above 1.5 x the even share; '-' where never kept."""
    cols, seeds = _cells(records)
    by = {(r["mode"], r["n"], r["seed"]): {row["port"]: row for row in port_rows(r["ports"], r["n"])}
          for r in records}
    head = " | ".join(f"{m}, {n} players (limit {150 / n:.0f}%)" for m, n in cols)
    lines = [f"| home port ({' / '.join(seeds)}: won % of players who kept it) | {head} |",
             "|---|" + "---|" * len(cols)]

    def cell(row: dict[str, Any] | None) -> str:
        if not row or not row["kept"]:
            return "-"
        text = f"{row['won']:.0f}% ({row['kept']:.0f})"
        return f"**{text}**" if row["above"] else text

    return lines + [f"| {hp['name']} | {_row_cells(cols, seeds, by, hp['id'], cell)} |" for hp in U.PORTS]


def pick_table(records: Sequence[dict[str, Any]]) -> list[str]:
    """Markdown: every expansion project card held (a row) by mode and player count (a column): on each seed,
    bought / held (player-games) as a rate, with the player-games held; '-' where never held."""
    cols, seeds = _cells(records)
    by = {(r["mode"], r["n"], r["seed"]): {row["card"]: row for row in pick_rows(
        {int(k): v for k, v in r.get("cards", {}).items()})} for r in records}
    ids = sorted({cid for rows in by.values() for cid in rows}, key=lambda c: (U.CARD[c]["name"], c))
    head = " | ".join(f"{m}, {n} players" for m, n in cols)
    lines = [f"| card ({' / '.join(seeds)}: bought / held, player-games held) | {head} |",
             "|---|" + "---|" * len(cols)]

    def cell(row: dict[str, Any] | None) -> str:
        return f"{row['of_held']:.2f} ({row['held']:.0f})" if row and row["held"] else "-"

    return lines + [f"| {U.CARD[cid]['name']} ({cid}) | {_row_cells(cols, seeds, by, cid, cell)} |" for cid in ids]


def _row_cells(cols: Sequence[tuple[str, int]], seeds: Sequence[str], by: dict[tuple[str, int, str], dict[Any, Any]],
               key: Any, cell: Callable[[dict[str, Any] | None], str]) -> str:
    """A table row's cells for ``key`` (a port, a card): a column a (mode, players), in it each seed's ``cell``
    of the record's row (None where the record has none), joined by ' / '."""
    return " | ".join(" / ".join(cell(by.get((m, n, seed), {}).get(key)) for seed in seeds) for m, n in cols)


def _print_one_seat(tally: Tally, n: int) -> None:
    """--against/--ab: the one seat (seat i % n in game i): its wins, its margin, its use of each part."""
    g = max(1, tally.games)
    print(f"    the one seat wins {100 * tally.mine_wins / g:.1f}% (even {100 / n:.1f}%); its score minus the best "
          f"other's: {_q(tally.margins)}")
    print("    a player's game, the one seat / the others: " + ", ".join(
        f"{k} {tally.mine[0][k] / g:.2f} / {tally.mine[1][k] / (g * (n - 1)):.2f}" for k in PARTS
        if tally.mine[0][k] or tally.mine[1][k]))


if __name__ == "__main__":
    sys.exit(main())
