"""Why a line of Maretta notation names nothing legal: the refusal in the player's terms (split from
rules.py; ``Maretta._explain`` calls it)."""

from __future__ import annotations

from engine import notation
from engine.core import Option, State
from engine.games.maretta.cards import SHIP, SUITS, card_name
from engine.i18n import _


def explain(st: State, seat: int, line: notation.Line, options: list[Option]) -> str | None:
    f = st["todo"][-1]
    t = f["t"]
    nums = [n for n in line.numbers() if 1 <= n <= 5]
    terms = line.terms()
    suits = [su for su in SUITS if su in terms]
    seats = [int(x[4:]) for x in terms if x.startswith("seat") and x[4:].isdigit()]
    names = st["players"]
    card = f"{nums[0]}{suits[0]}" if len(nums) == 1 and len(suits) == 1 else None
    if card is not None and not any(o.move.get("c") == card for o in options):
        shown = card_name(card)
        shown = shown[0].upper() + shown[1:]
        why = _("{card} is not a card you can use now").format(card=shown)
        if t in ("p1", "place", "play"):
            if card not in st["hand"][seat]:
                return why + ": " + _("it is not in your hand")
            c2 = st["p2"][seat]
            if t == "play" and c2 is not None:
                rule = _("the card in position 1 may share neither suit nor number with the card in position 2")
                if c2 != SHIP and card[1:] == c2[1:]:
                    return why + ": " + _("it shares a suit with the card in position 2 ({card}); {rule}").format(
                        card=card_name(c2), rule=rule)
                if c2 != SHIP and card[0] == c2[0]:
                    return why + ": " + _("it shares a number with the card in position 2 ({card}); {rule}").format(
                        card=card_name(c2), rule=rule)
        if t == "steal":
            return why + ": " + _("{player}'s stock has no {card}").format(player=names[f["r"]], card=card_name(card))
        if t == "discard":
            return why + ": " + _("your stock has no {card}").format(card=card_name(card))
        if t in ("monkey", "troop"):
            return why + ": " + _("no stock you may take from has {card}").format(card=card_name(card))
        return why
    if t == "place" and len(seats) == 1 and not any(o.move.get("p") == seats[0] for o in options):
        p = seats[0]
        raft = st["side"] == "A"
        if p == seat:
            return (_("you may put a card on your own raft only when every opponent's position 2 is taken") if raft
                    else _("you may put a card on your own minecart only when every opponent's position 2 is taken"))
        if st["p2"][p] is not None:
            return (_("{player}'s raft already has a card in position 2") if raft
                    else _("{player}'s minecart already has a card in position 2")).format(player=names[p])
        return _("{player} cannot take a card now").format(player=names[p])
    if t in ("pelican", "spear") and len(seats) == 1 and not any(o.move.get("p") == seats[0] for o in options):
        p = seats[0]
        if t == "spear":
            return _("{player} is not the nearest player in front of you").format(player=names[p])
        return _("{player} is not an opponent you can look at").format(player=names[p])
    return None
