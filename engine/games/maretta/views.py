"""What Maretta shows: the public part of a view shared by every seat, the decision in words, and
the hidden-information testing hook that redeals everything a seat may not know (split from
rules.py; ``Maretta._view`` adds a seat's own part)."""

from __future__ import annotations

import json

from engine.core import State, View
from engine.games.maretta.cards import SHIP
from engine.games.maretta.tables import _multiset_minus
from engine.i18n import _
from engine.rng import Rng


def public(st: State, waiting: list[int]) -> View:
    """What everybody sees; the same for every seat.

    Views share this part between seats, and its lists with the state itself (``pos`` is
    ``st["pos"]``, not a copy): a move replaces such a list rather than changing it (see
    ``_put``), so a view given out never changes. Treat views as read-only.
    """
    p1, p1d = st["p1"], st["p1d"]
    known = st["known"]
    over = st["over"]
    side = st["side"]
    # Why a template: filling a copy of it costs about two thirds of building the same
    # 33-key dict from a literal (callgrind), and it fixes the keys' order (the JSON's).
    view: View = _PUBLIC_VIEW[side].copy()
    view["side"] = side
    view["players"] = st["players"]
    view["turn"] = st["turn"]
    view["phase"] = st["phase"]
    view["start"] = st["start"]
    view["end"] = st["end"]
    view["reefs"] = st["reefs"]
    view["pos"] = st["pos"]
    view["hand_counts"] = list(map(len, st["hand"]))
    view["stock"] = st["stock"]
    view["p1"] = [None if c is None else "?" if d else c for c, d in zip(p1, p1d)] if True in p1d else p1
    view["p1_face_down"] = p1d
    view["p2"] = st["p2"]
    view["movement"] = st["mv"]
    # the spaces each pawn went through this turn, its turn-start space first
    view["trail"] = st.get("trail") or [[p] for p in st["pos"]]
    view["deck"] = len(st["deck"])
    view["discard"] = st["disc"]
    view["barrels"] = st["barv"]
    view["barrels_in_box"] = len(st["bbox"])
    view["barrels_used"] = st["bdv"]
    view["waiting"] = waiting
    view["decision"] = describe(st)
    view["known_hands"] = {}
    # who has looked at whose hand with a Pelican: the table sees a hand being shown
    view["pelican_looks"] = ([[u, int(p)] for u, k in enumerate(known) if k for p in sorted(k, key=int)]
                             if any(known) else [])
    if over is not None:
        view["over"] = {"winners": over["winners"][:], "reason": over["reason"],
                        "ranking": [g[:] for g in over["ranking"]], "scores": over["scores"][:]}
    if side == "A":
        view["cuttlefish"] = st["cut"]
        view["cuttlefish_next"] = st.get("cutp") or st["cutn"]
        view["removed_at_setup"] = len(st["box"])
    else:
        view["lava"] = st["lava"]
        view["lava_speed"] = st["lspd"]
        view["lava_start"] = -st["options"]["lava_start"]
        view["out"] = st["out"]
    return view


def describe(st: State) -> str:
    """The decision the game waits for, in the active language (engine.i18n)."""
    if st["over"] is not None or not st["todo"]:
        return ""
    f = st["todo"][-1]
    t = f["t"]
    if t == "p1":
        return _("everybody puts a card face down in position 1")
    who = st["players"][f["s"]]
    if t == "place":
        if st["side"] == "A":
            return _("{who} puts a card on an opponent's raft (position 2)").format(who=who)
        return _("{who} puts a card on an opponent's minecart (position 2)").format(who=who)
    if t == "play":
        return _("{who} puts a card in position 1 of their minecart").format(who=who)
    if t == "steal":
        return _("{who} decides whether to steal from {other} or move 2 spaces").format(
            who=who, other=st["players"][f["r"]])
    if t == "barrel":
        return _("{who} chooses a barrel at space {at}").format(who=who, at=f["at"])
    # the effect of a barrel taken face down does not name it: only its taker knows it
    named = "h" not in f
    if t == "monkey":
        return _("{who} takes a card from an opponent's stock").format(who=who) + (
            f" ({_('Monkey')})" if named else "")
    if t == "troop":
        return _("{who} takes a card from {other}'s stock").format(who=who, other=st["players"][f["v"]]) + (
            f" ({_('Troop of Monkeys')})" if named else "")
    if t == "discard":
        return _("{who} discards a card from their stock").format(who=who)
    if t == "pelican":
        return _("{who} chooses whose hand to look at").format(who=who) + (f" ({_('Pelican')})" if named else "")
    if t == "spear":
        return _("{who} chooses whom to swap places with").format(who=who) + (
            f" ({_('Fishing Spear')})" if named else "")
    return ""


def resample_hidden(state: State, seat: int | None, rng: Rng) -> State:
    st: State = json.loads(json.dumps(state))
    n = len(st["pos"])
    hand, p1, p1d, known = st["hand"], st["p1"], st["p1d"], st["known"]
    mine = known[seat] if seat is not None else {}
    pool = list(st["deck"]) + list(st["box"])
    fixed: dict[int, list[str]] = {}
    free_n: dict[int, int] = {}
    for t in range(n):
        if t == seat:
            continue
        hidden = hand[t] + ([p1[t]] if p1[t] is not None and p1d[t] else [])
        # (not "k": one name, one type, as mypyc checks it; "k" is a barrel kind below)
        looked = list(mine.get(str(t), []))
        free = _multiset_minus(hidden, looked)
        assert len(free) + len(looked) == len(hidden), "pelican knowledge is not in the hand"
        fixed[t] = looked
        free_n[t] = len(free)
        pool += free
    rng.shuffle(pool)
    box: list[str] = []
    rest: list[str] = []
    for c in pool:
        if len(box) < len(st["box"]) and c != SHIP:
            box.append(c)
        else:
            rest.append(c)
    rng.shuffle(rest)
    i = len(st["deck"])
    st["deck"] = rest[:i]
    st["box"] = box
    for t in fixed:
        new = fixed[t] + rest[i:i + free_n[t]]
        i += free_n[t]
        rng.shuffle(new)
        if p1[t] is not None and p1d[t]:
            p1[t] = new.pop()
        hand[t] = new
    # what the others saw with a pelican, where this seat does not know it
    for u in range(n):
        if u == seat:
            continue
        for key, cards in list(known[u].items()):
            t = int(key)
            if t == seat:
                continue
            hidden = hand[t] + ([p1[t]] if p1[t] is not None and p1d[t] else [])
            rng.shuffle(hidden)
            known[u][key] = hidden[:len(cards)]
    # face-down barrels, the barrels in the box, and the used barrels others took face down
    slots = [b for v in st["bar"].values() for b in v if not b[1]]
    bdisc, seen = st["bdisc"], st["bseen"]
    mine = seen[seat] if seat is not None else None
    used = [i for i, k in enumerate(st["bdv"]) if k == "?" and (mine is None or mine[i] == "?")]
    kinds = [b[0] for b in slots] + [bdisc[i] for i in used] + list(st["bbox"])
    rng.shuffle(kinds)
    for b, k in zip(slots, kinds):
        b[0] = k
    for i, k in zip(used, kinds[len(slots):]):
        bdisc[i] = k
        for other in seen:  # its taker knows it
            if other is not None and other[i] != "?":
                other[i] = k
    st["bbox"] = kinds[len(slots) + len(used):]
    if "cutp" in st:  # a face-down cuttlefish the seat did not take: as if it were another barrel
        cutk: list[bool] | None = st["cutk"][seat] if seat is not None else None
        st["cutn"] = list(st["cutp"] if cutk is None else cutk)
    st["rng"] = format((rng.below(1 << 32) << 32) | rng.below(1 << 32), "016x")
    return st


#: every key of the public part of a view, in its order, for each side; _public fills in a copy
_PUBLIC_VIEW: dict[str, View] = {
    side: dict.fromkeys((
        "game", "side", "players", "seat", "turn", "phase", "start", "end", "reefs", "pos", "hand", "hand_counts",
        "stock", "p1", "p1_face_down", "p2", "movement", "trail", "deck", "discard", "barrels", "barrels_in_box",
        "barrels_used", "waiting", "decision", "known_hands", "pelican_looks", "over", *extra))
    | {"game": "maretta"}
    for side, extra in (("A", ("cuttlefish", "cuttlefish_next", "removed_at_setup")),
                        ("B", ("lava", "lava_speed", "lava_start", "out")))
}
