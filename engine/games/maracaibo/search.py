"""Maracaibo: The Uprising, The Search (rulebook: "A Busca"; docs/rules/maracaibo-cooperative.md):
scenario 193's module. The table looks for Luysa by revealing hints, finds her when card 191's
last green space is filled (solo, card 192: also when exactly 11 hints are left on the board), then
frees her by L39's combat points at her location, or by a 15-doubloon ransom at the end (a player
of the table chooses to pay it: frame ``ransom``).

SUBSTITUTE CONTENT: the hints' colours and objects, card 191's rewards and L39's price
(``data/uprising/search.json``).

Its part of the state, ``state["search"]`` (only in mode 193): ``card`` (191, or 192 solo),
``board`` (location -> its face-down hints, top last: hidden but for their number), ``red`` and
``green`` (card 191's spaces: a hint revealed there, ``"X"`` for the space a red hint covers,
or None), ``box`` (hints out of the game, face up), ``found`` (Luysa's location once found),
``freed`` (the seat that freed her, or None).

The rules it switches off are the Liberation module's already, which scenario 193 plays: a
rank-up of the ship board's U11 is not offered, influence (gained or lost) is 2 VP each, and no
effect places a marker (the cooperative scenarios' supplies are empty besides, coop.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from . import coop_releases
from .board import HANDLERS, opt, stack
from .effects import gain, player, who

DATA: dict[str, Any] = json.loads(
    resources.files("engine.games.maracaibo").joinpath("data", "uprising", "search.json").read_text("utf-8"))
HINTS: dict[str, dict[str, Any]] = {h["id"]: h for h in DATA["hints"]}
LUYSA: dict[str, Any] = DATA["luysa"]


def playing(state: State) -> bool:
    return "search" in state


def _card(state: State) -> Mapping[str, Any]:
    """The game's card (191, 192): its spaces and rewards (a game stored by an older release: that release's,
    coop_releases.py)."""
    cid = str(state["search"]["card"])
    return coop_releases.card(state["options"], cid, DATA["card"][cid])


def colour(state: State, h: str) -> str:
    """Hint ``h``'s colour in this game (coop_releases.py)."""
    return coop_releases.colour(state["options"], h, str(HINTS[h]["colour"]))


def luysa_cp(state: State) -> int:
    """L39's price in combat points in this game (coop_releases.py)."""
    return coop_releases.luysa_cp(state["options"], int(LUYSA["cp"]))


# ---- setup ---------------------------------------------------------------------------------------------

def setup(state: State, rng: Rng) -> None:
    """Card 191 (192 solo); with 2 players a red hint covers a green space, with 4 the leftmost red
    space (the table's choice: the red hint of the lowest number, the first green space); the rest
    shuffled, two on each location of the list (one on 2 with 2 or 4 players)."""
    n = len(state["players"])
    card = "192" if n == 1 else "191"
    spaces = coop_releases.card(state["options"], card, DATA["card"][card])
    red: list[str | None] = [None] * len(spaces["red"])
    green: list[str | None] = [None] * len(spaces["green"])
    pool = sorted(HINTS, key=lambda h: int(h[1:]))
    cover = DATA["cover"].get(str(n))
    if cover:
        chosen = next(h for h in pool if colour(state, h) == "red")
        pool.remove(chosen)
        (green if cover == "green" else red)[0] = "X"
    rng.shuffle(pool)
    board: dict[str, list[str]] = {}
    single = DATA["single_at"]
    for loc in DATA["locations"]:
        k = 1 if loc == single["loc"] and n in single["players"] else int(DATA["per_location"])
        board[loc] = [pool.pop() for _ in range(k)]
    state["search"] = {"card": int(card), "board": board, "red": red, "green": green, "box": sorted(pool),
                       "found": None, "freed": None}


def resample(state: State, rng: Rng) -> None:
    """The face-down hints change places (their number on each location stays)."""
    s = state["search"]
    ids = [h for hs in s["board"].values() for h in hs]
    rng.shuffle(ids)
    for loc in s["board"]:
        k = len(s["board"][loc])
        s["board"][loc] = ids[:k]
        del ids[:k]


def public(state: State) -> dict[str, Any]:
    s = state["search"]
    return {"card": s["card"], "board": {loc: len(hs) for loc, hs in s["board"].items() if hs},
            "red": [_shown(state, h) for h in s["red"]], "green": [_shown(state, h) for h in s["green"]],
            "found": s["found"], "freed": s["freed"], "luysa_cp": luysa_cp(state), "ransom": LUYSA["ransom_d"]}


def _shown(state: State, h: str | None) -> str | None:
    if h is None or h == "X":
        return h
    return f"{h} {colour(state, h)} {HINTS[h]['object']}"


def text_line(view: dict[str, Any]) -> str:
    s = view["search"]
    if s["freed"] is not None:
        return f"  The Search: Luysa is free (at {s['found']})."
    if s["found"]:
        return (f"  The Search: Luysa is held at {s['found']} {C.LOC[s['found']]['name']}: free her there for "
                f"{s['luysa_cp']} combat points, or pay {s['ransom']} doubloons at the end.")
    hints = ", ".join(f"{loc} ({k})" for loc, k in s["board"].items()) or "none"
    spaces = DATA["card"][str(s["card"])]
    rows = "; ".join(f"{colour} spaces: {_spaces_text(s[colour], spaces[colour])}" for colour in ("red", "green"))
    left = f" (or exactly {spaces['found_at_left']} hints left)" if "found_at_left" in spaces else ""
    return (f"  The Search (card {s['card']}): face-down hints (how many) at {hints}; {rows}; the last green "
            f"space{left} finds Luysa.")


def _spaces_text(shown: list[str | None], rewards: list[dict[str, Any]]) -> str:
    """A row of card 191's spaces in words: each space's number, what lies on it (nothing, the red hint
    set there at setup, or a revealed hint) and its reward (the view's ``None`` and ``"X"`` are data,
    never a player's words)."""
    def what(h: str | None) -> str:
        return "empty" if h is None else "covered by a red hint" if h == "X" else f"hint {h}"

    return ", ".join(f"{i + 1} {what(h)} ({C.gain_text(r)})" for i, (h, r) in enumerate(zip(shown, rewards)))


# ---- revealing a hint (before the main action) ------------------------------------------------------

def _free_red(s: dict[str, Any]) -> int | None:
    return next((i for i, h in enumerate(s["red"]) if h is None), None)


def can_reveal(state: State, loc: str) -> bool:
    s = state.get("search")
    return bool(s and s["found"] is None and s["board"].get(loc) and _free_red(s) is not None)


def on_stop(state: State, seat: int, loc: str) -> list[Frame]:
    """A ship ending its movement where a hint lies may reveal one before its main action."""
    return [frame("hint", seat, loc=loc, ask=True)] if can_reveal(state, loc) else []


def _hint_options(state: State, f: Frame) -> list[Option]:
    loc = str(f["data"]["loc"])
    if not can_reveal(state, loc):
        return []
    return [opt("hint", f"reveal a hint at {loc} {C.LOC[loc]['name']}"), opt("nohint", "leave the hints")]


def _hint_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    if o.code == "hint":
        stack(state).push_all(reveal(state, seat, str(f["data"]["loc"]), rng, ev))
    return ev


def reveal(state: State, seat: int, loc: str, rng: Rng, ev: list[Event]) -> list[Frame]:
    s = state["search"]
    board = dict(s["board"])
    hints = list(board[loc])
    h = hints.pop()
    board[loc] = hints
    s["board"] = board
    hint = HINTS[h]
    spaces = _card(state)
    its = colour(state, h)
    row: list[str | None] = list(s[its])
    i = next(k for k, x in enumerate(row) if x is None)
    row[i] = h
    s[its] = row
    reward = dict(spaces[its][i])
    ev.append(new_event("hint", f"{who(state, seat)} reveals a {its} hint ({hint['object']}) at {loc} "
                        f"{C.LOC[loc]['name']}: {its} space {i + 1} of card {s['card']}, "
                        f"{C.gain_text(reward)}.", {"seat": seat, "hint": h, "colour": its, "space": i + 1},
                        reveals=True))
    frames = gain(state, seat, reward, rng, ev, "search")
    left = sum(len(x) for x in s["board"].values())
    if all(x is not None for x in s["green"]) or left == _card(state).get("found_at_left", -1):
        found(state, seat, ev)
    return frames


def found(state: State, seat: int, ev: list[Event]) -> None:
    """Luysa is found at the current ship's location: every hint leaves the board and the card."""
    s = state["search"]
    at = str(player(state, seat)["at"])
    gone = [h for hs in s["board"].values() for h in hs] + [h for h in [*s["red"], *s["green"]] if h not in (None, "X")]
    s["box"] = sorted([*s["box"], *gone], key=lambda x: int(x[1:]))
    s["board"] = {}
    s["red"] = [None] * len(s["red"])
    s["green"] = [None] * len(s["green"])
    s["found"] = at
    ev.append(new_event("luysa_found", f"Luysa is found! She is held at {at} {C.LOC[at]['name']} ({LUYSA['tile']}): "
                        f"free her there for {luysa_cp(state)} combat points, or pay {LUYSA['ransom_d']} doubloons at "
                        "the end. Every hint leaves the game.", {"at": at, "hints": sorted(gone)}, reveals=True))


# ---- free actions: clearing the card, freeing Luysa ------------------------------------------------

def free_options(state: State, seat: int) -> list[Option]:
    s = state.get("search")
    if not s:
        return []
    p = player(state, seat)
    out = []
    for i, h in enumerate(s["red"]):
        if h is None or h == "X":
            continue
        obj = HINTS[h]["object"]
        for cid in sorted({c for c in p["hand"] if C.CARD[c]["object"] == obj}):
            out.append(opt(f"lh{i + 1}c{cid}", f"clear red space {i + 1} paying {C.CARD[cid]['name']} ({obj})"))
    if s["found"] and s["freed"] is None and p["at"] == s["found"] and p["combat_points"] >= luysa_cp(state):
        out.append(opt("luysa", f"free Luysa for {luysa_cp(state)} combat points"))
    return out


def is_free(code: str) -> bool:
    return code == "luysa" or (code[:2] == "lh" and "c" in code[2:])


def do_free(state: State, seat: int, code: str, ev: list[Event]) -> bool:
    if not is_free(code) or not playing(state):
        return False
    s = state["search"]
    p = player(state, seat)
    if code == "luysa":
        p["combat_points"] -= luysa_cp(state)
        s["freed"] = seat
        ev.append(new_event("luysa_freed", f"{who(state, seat)} frees Luysa for {luysa_cp(state)} combat points!",
                            {"seat": seat}))
        return True
    slot, cid = code[2:].split("c")
    i, card = int(slot) - 1, int(cid)
    h = s["red"][i]
    p["hand"].remove(card)
    state["discard"].append(card)
    row = list(s["red"])
    row[i] = None
    s["red"] = row
    s["box"] = sorted([*s["box"], h], key=lambda x: int(x[1:]))
    ev.append(new_event("hint_clear", f"{who(state, seat)} pays {C.CARD[card]['name']} ({HINTS[h]['object']}) to "
                        f"clear red space {i + 1}.", {"seat": seat, "card": card}))
    return True


# ---- the end -----------------------------------------------------------------------------------------------

def ransom_frames(state: State, seat: int) -> list[Frame]:
    """At the end, after the last scoring's choices and before the final scoring, a found Luysa not yet
    free: the table decides who pays her ransom. Every player able to pay is asked in turn from ``seat``
    (the one who ended the game); the first who pays frees her, and if all leave it, she stays captive
    (the rulebook: it does not matter who pays, as long as it comes from one player's supply)."""
    able = _able(state, seat)
    return [frame("ransom", able[0], later=able[1:], ask=True)] if able else []


def _able(state: State, seat: int) -> list[int]:
    """The seats, in turn from ``seat``, whose own doubloons pay the ransom (no pooling)."""
    s = state.get("search")
    if not s or not s["found"] or s["freed"] is not None:
        return []
    n = len(state["seats"])
    return [(seat + i) % n for i in range(n) if state["seats"][(seat + i) % n]["doubloons"] >= int(LUYSA["ransom_d"])]


def _ransom_options(state: State, f: Frame) -> list[Option]:
    price = int(LUYSA["ransom_d"])
    leave = "leave the ransom to another player" if f["data"]["later"] else "leave Luysa captive"
    return [opt("ransom", f"pay Luysa's ransom of {price} doubloons"), opt("noransom", leave)]


def _ransom_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    s = state["search"]
    price = int(LUYSA["ransom_d"])
    if o.code == "ransom":
        player(state, seat)["doubloons"] -= price
        s["freed"] = seat
        ev.append(new_event("luysa_ransom", f"{who(state, seat)} pays Luysa's ransom of {price} doubloons: she is "
                            "free.", {"seat": seat, "paid": True}))
        return ev
    later = [int(x) for x in f["data"]["later"]]
    ev.append(new_event("luysa_ransom", f"{who(state, seat)} does not pay Luysa's ransom"
                        + ("." if later else ": nobody pays it, she stays captive."), {"seat": seat, "paid": False}))
    if later:
        stack(state).push(frame("ransom", later[0], later=later[1:], ask=True))
    return ev


HANDLERS["ransom"] = FunctionHandler(_ransom_options, _ransom_resolve)
HANDLERS["hint"] = FunctionHandler(_hint_options, _hint_resolve)
