"""Why a line of Maretta notation names nothing legal: the refusal in the player's terms (split from
rules.py; ``Maretta._explain`` calls it)."""

from __future__ import annotations

from engine import notation
from engine.core import Option, State
from engine.games.maretta.cards import SHIP, SUITS, card_name


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
        why = f"{shown} is not a card you can use now"
        if t in ("p1", "place", "play"):
            if card not in st["hand"][seat]:
                return f"{why}: it is not in your hand"
            c2 = st["p2"][seat]
            if t == "play" and c2 is not None:
                rule = "the card in position 1 may share neither suit nor number with the card in position 2"
                if c2 != SHIP and card[1:] == c2[1:]:
                    return f"{why}: it shares a suit with the card in position 2 ({card_name(c2)}); {rule}"
                if c2 != SHIP and card[0] == c2[0]:
                    return f"{why}: it shares a number with the card in position 2 ({card_name(c2)}); {rule}"
        if t == "steal":
            return f"{why}: {names[f['r']]}'s stock has no {card_name(card)}"
        if t == "discard":
            return f"{why}: your stock has no {card_name(card)}"
        if t in ("monkey", "troop"):
            return f"{why}: no stock you may take from has {card_name(card)}"
        return why
    if t == "place" and len(seats) == 1 and not any(o.move.get("p") == seats[0] for o in options):
        p = seats[0]
        where = "raft" if st["side"] == "A" else "minecart"
        if p == seat:
            return f"you may put a card on your own {where} only when every opponent's position 2 is taken"
        if st["p2"][p] is not None:
            return f"{names[p]}'s {where} already has a card in position 2"
        return f"{names[p]} cannot take a card now"
    if t in ("pelican", "spear") and len(seats) == 1 and not any(o.move.get("p") == seats[0] for o in options):
        p = seats[0]
        if t == "spear":
            return f"{names[p]} is not the nearest player in front of you"
        return f"{names[p]} is not an opponent you can look at"
    return None
