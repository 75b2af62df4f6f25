"""A seat's decisions: the legal moves of each kind of step, how they read, the safe move a missed
deadline plays, and what the chosen move does.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import i18n
from engine.core import Move, Option, State
from engine.games.maretta.barrels import barrel_effect
from engine.games.maretta.board import add_stock, advance, ahead, forget, opponents, where_word
from engine.games.maretta.cards import BARREL_NAMES, card_key, card_name, card_word
from engine.games.maretta.side_b import legal_b
from engine.games.maretta.tables import (
    _DISCARD,
    _GIVE,
    _LOOK,
    _MOVE_INSTEAD,
    _PLAY,
    _STEAL,
    _SWAP,
    _TAKE,
    _TAKE_FROM,
    Frame,
    _distinct,
    _Events,
    _put,
    _without,
)
from engine.games.maretta.turn import raft_targets
from engine.i18n import _, word


def step_moves(st: State, f: Frame, seat: int | None = None) -> list[tuple[str, Move]]:
    """The legal moves of a step as (code, move) pairs; labels come separately (see _labels).

    The pairs are the shared ones of the tables below (_PLAY, _GIVE...): read them, never
    change them, never hand their moves out (_options gives copies).
    """
    t = f["t"]
    if t == "p1":
        return [_PLAY[c] for c in _distinct(st["hand"][seat])]
    s = f["s"]
    if t == "place":
        targets = raft_targets(st, s)
        return [_GIVE[c, p] for c in _distinct(st["hand"][s]) for p in targets]
    if t == "play":
        return [_PLAY[c] for c in legal_b(st, s)]
    if t == "steal":
        r = f["r"]
        return [*(_STEAL[c, r] for c in _distinct(st["stock"][r])), _MOVE_INSTEAD]
    if t == "barrel":
        bs = st["bar"].get(str(f["at"])) or ()
        return [(f"b{i}", {"a": "barrel", "b": i}) for i in range(1, len(bs) + 1)]
    if t == "monkey":
        stock = st["stock"]
        return [_TAKE_FROM[c, p] for p in opponents(st, s) for c in _distinct(stock[p])]
    if t == "troop":
        v = f["v"]
        return [_TAKE[c, v] for c in _distinct(st["stock"][v])]
    if t == "discard":
        return [_DISCARD[c] for c in _distinct(st["stock"][s])]
    if t == "pelican":
        return [_LOOK[p] for p in opponents(st, s)]
    if t == "spear":
        return [_SWAP[p] for p in ahead(st, s)]
    raise AssertionError(f"no options for step {t}")


def step_labels(st: State, f: Frame, moves: list[tuple[str, Move]]) -> list[str]:
    """How the moves of this step read to a person (unique within the step), in their order."""
    t = f["t"]
    names = st["players"]
    if t in ("p1", "play"):
        return [_("play {card}").format(card=card_name(m["c"])) for _c, m in moves]
    if t == "place":
        s = f["s"]
        own = _("put {card} on your own raft") if st["side"] == "A" else _("put {card} on your own minecart")
        give = _("give {card} to {player}")
        return [
            own.format(card=card_name(m["c"]))
            if m["p"] == s
            else give.format(card=card_name(m["c"]), player=names[m["p"]])
            for _c, m in moves
        ]
    if t == "steal":
        return [
            _("move 2 spaces instead of stealing")
            if m["a"] == "move"
            else _("steal {card} from {player}").format(card=card_name(m["c"]), player=names[m["p"]])
            for _c, m in moves
        ]
    if t == "barrel":
        bs = st["bar"].get(str(f["at"])) or ()
        return [
            _("take barrel {n} ({barrel})").format(
                n=m["b"], barrel=_(BARREL_NAMES[bs[m["b"] - 1][0]]) if bs[m["b"] - 1][1] else _("face down")
            )
            for _c, m in moves
        ]
    if t in ("monkey", "troop"):
        return [_("take {card} from {player}").format(card=card_name(m["c"]), player=names[m["p"]]) for _c, m in moves]
    if t == "discard":
        return [_("discard {card} from your stock").format(card=card_name(m["c"])) for _c, m in moves]
    if t == "pelican":
        return [_("look at {player}'s hand").format(player=names[m["p"]]) for _c, m in moves]
    if t == "spear":
        return [_("swap places with {player}").format(player=names[m["p"]]) for _c, m in moves]
    raise AssertionError(f"no labels for step {t}")


def presented(st: State, options: list[Option]) -> list[Option]:
    """The options in the order the mail and the page show the cards they name: by suit, then value
    (render's ``_cards``, the hand and the stocks), where step_moves lists them by value, then the
    suit's code (``_distinct``). Why not step_moves itself: the deadline's default takes the earliest
    listed among equals, so the engine's order decides stored games and bots; only the listing moves.
    Each card's other choices (whose raft) keep their order; a Monkey's opponents too, each one's
    stock in the hand's order; the choice without a card (move instead of stealing) stays last."""
    whose: dict[int, int] = {}
    for o in options:  # a Monkey lists by opponent: each keeps its place
        whose.setdefault(o.move.get("p", -1), len(whose))
    by_seat = st["todo"][-1]["t"] == "monkey"

    def key(o: Option) -> tuple[int, int, tuple[int, int]]:
        card = o.move.get("c")
        if card is None:
            return (1, 0, (0, 0))
        return (0, whose[o.move.get("p", -1)] if by_seat else 0, card_key(card))

    return sorted(options, key=key)


def default_move(st: State, seat: int, options: list[Option]) -> Option | None:
    """The safe move a missed deadline plays, per kind of step (docs/rules/maretta.md,
    Assumptions): keep the most choices for later, help no opponent, take no risk."""
    t = st["todo"][-1]["t"]

    def most(cards: list[str]) -> Callable[[Option], tuple[int, int]]:
        # the card held in most copies (ties: the earliest listed), so the seat keeps variety
        order = {o.code: i for i, o in enumerate(options)}
        return lambda o: (-cards.count(o.move.get("c", "")), order[o.code])

    if t in ("p1", "play"):
        return min(options, key=most(st["hand"][seat]))
    if t == "place":
        own = [o for o in options if o.move["p"] == seat]
        return min(own or options, key=most(st["hand"][seat]))
    if t == "steal":
        return next(o for o in options if o.move["a"] == "move")  # no interaction
    if t == "barrel":
        bs = st["bar"].get(str(st["todo"][-1]["at"])) or ()
        up = [o for o in options if bs[o.move["b"] - 1][1]]
        return (up or options)[0]  # a known effect rather than a gamble
    if t == "discard":
        return min(options, key=most(st["stock"][seat]))
    # monkey, troop, pelican, spear: every choice is forced in kind; the nearest opponent
    return options[0]


def decide(st: State, f: Frame, mv: Move, ev: _Events) -> None:
    t = f["t"]
    s = f["s"]
    names = st["players"]
    a = mv["a"]
    if t == "place":
        c, p = mv["c"], mv["p"]
        st["hand"][s].remove(c)
        forget(st, s, c)
        _put(st, "p2", p, c)
        raft = st["side"] == "A"
        if p == s:
            said = i18n.text(
                "{player} must put {card} on their own raft"
                if raft
                else "{player} must put {card} on their own minecart",
                player=names[s],
                card=card_word(c),
            )
        else:
            said = i18n.text(
                "{player} puts {card} on {other}'s raft" if raft else "{player} puts {card} on {other}'s minecart",
                player=names[s],
                card=card_word(c),
                other=names[p],
            )
        ev.say("place", said, seat=s, to_seat=p, card=c)
        if st["side"] == "A":
            st["todo"].append({"t": "placerA", "s": s, "r": p})
            st["todo"].append({"t": "recvA", "r": p})
    elif t == "play":
        c = mv["c"]
        st["hand"][s].remove(c)
        forget(st, s, c)
        _put(st, "p1", s, c)
        ev.say(
            "play",
            i18n.text("{player} puts {card} in position 1 of their minecart", player=names[s], card=card_word(c)),
            seat=s,
            card=c,
        )
    elif t == "steal":
        if a == "move":
            advance(st, s, 2, ev, word("for placing a card"))
        else:
            c, r = mv["c"], mv["p"]
            _put(st, "stock", r, _without(st["stock"][r], c))
            ev.say(
                "steal",
                i18n.text(
                    "{player} steals {card} from {other}'s stock instead of moving",
                    player=names[s],
                    card=card_word(c),
                    other=names[r],
                ),
                seat=s,
                from_seat=r,
                card=c,
            )
            add_stock(st, s, c, ev)
    elif t == "barrel":
        key = str(f["at"])
        bs = st["bar"][key]
        kind, up = bs.pop(mv["b"] - 1)
        # barv is replaced, never changed in place (views share it)
        if bs:
            st["barv"] = {**st["barv"], key: [b[0] if b[1] else "?" for b in bs]}
        else:
            del st["bar"][key]
            st["barv"] = {k: v for k, v in st["barv"].items() if k != key}
        seen = st["bseen"]
        if not up and seen[s] is None:
            seen[s] = list(st["bdv"])
        for t, mine in enumerate(seen):  # replaced, never changed in place (views share them)
            if mine is not None:
                seen[t] = [*mine, kind if up or t == s else "?"]
        st["bdisc"].append(kind)
        st["bdv"] = [*st["bdv"], kind if up else "?"]
        if up:
            ev.say(
                "barrel",
                i18n.text(
                    "{player} takes the {barrel} barrel at space {n}",
                    player=names[s],
                    barrel=word(BARREL_NAMES[kind]),
                    n=f["at"],
                ),
                seat=s,
                at=f["at"],
                barrel=kind,
            )
        else:
            # the taker looks at it; the others see only its consequences
            ev.say(
                "barrel",
                i18n.text("{player} takes a face-down barrel from space {n}", player=names[s], n=f["at"]),
                seat=s,
                at=f["at"],
            )
            ev.say(
                "barrel_look",
                i18n.text(
                    "You take a face-down barrel from space {n} and look at it: {barrel}",
                    n=f["at"],
                    barrel=word(BARREL_NAMES[kind]),
                ),
                to=(s,),
                reveals=True,
                seat=s,
                at=f["at"],
                barrel=kind,
            )
        barrel_effect(st, s, kind, ev, not up)
    elif t in ("monkey", "troop"):
        c, p = mv["c"], mv["p"]
        _put(st, "stock", p, _without(st["stock"][p], c))
        ev.say(
            "take",
            i18n.text("{player} takes {card} from {other}'s stock", player=names[s], card=card_word(c), other=names[p]),
            seat=s,
            from_seat=p,
            card=c,
        )
        add_stock(st, s, c, ev)
    elif t == "discard":
        c = mv["c"]
        _put(st, "stock", s, _without(st["stock"][s], c))
        st["disc"] = [*st["disc"], c]
        ev.say(
            "discard",
            i18n.text("{player} discards {card} from their stock", player=names[s], card=card_word(c)),
            seat=s,
            card=c,
        )
    elif t == "pelican":
        p = mv["p"]
        hand = sorted(st["hand"][p])
        st["known"][s][str(p)] = list(hand)
        ev.say(
            "pelican", i18n.text("{player} looks at {other}'s hand", player=names[s], other=names[p]), seat=s, at_seat=p
        )
        ev.say(
            "pelican_look",
            i18n.text("{other}'s hand: {cards}", other=names[p], cards=[card_word(c) for c in hand] or word("empty")),
            to=(s,),
            reveals=True,
            at_seat=p,
            cards=hand,
        )
    elif t == "spear":
        p = mv["p"]
        pos = st["pos"] = st["pos"][:]  # replaced, never changed in place (views share it)
        pos[s], pos[p] = pos[p], pos[s]
        trail = st.get("trail")
        if trail is not None:  # a swap is a jump: the trail goes on from the new place
            trail = st["trail"] = trail[:]
            trail[s], trail[p] = [*trail[s], pos[s]], [*trail[p], pos[p]]
        ev.say(
            "swap",
            i18n.text(
                "{player} swaps places with {other}: {player} is now at {here}, {other} at {there}",
                player=names[s],
                other=names[p],
                here=where_word(st, pos[s]),
                there=where_word(st, pos[p]),
            ),
            seat=s,
            with_seat=p,
        )
    else:
        raise AssertionError(t)
