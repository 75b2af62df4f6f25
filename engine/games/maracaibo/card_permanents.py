"""The Uprising's project cards: their income and permanent effects that extend the effect language
(docs/rules/maracaibo-uprising.md, "Effect language: needed extensions"; the rulebook's iconography,
"EFEITOS DE RECEITA" and "EFEITOS PERMANENTES E AÇÕES ADICIONAIS"). Each is read from a card's data
row by its ``"ext"`` name (effects.ext_cards: the cards in the player's display), never by a card's id:

- ``income_when`` ``{"t": "income", "vp": 5, "when": {"combat": 5} | {"upgrade": 5} | {"barrier": "green"}}``:
  the VP income rises once, as soon as the condition holds (5 combat tokens, 5 ship upgrades, the
  explorer past the barrier), checked after every move (:func:`after_move`); already met when the
  card is bought: at once (Assumption A46). ``p["when_paid"]``: the cards that have paid;
- ``empty_village_d`` ``{"t": "perm", "max": 5}``: ending the ship's movement in a village without a
  marker, 1 doubloon per movement point spent, at most ``max`` (:func:`on_stop`);
- ``fight_for_pays`` ``{"t": "perm", "nation": "marked", "gain": {...}}``: whenever any player (the
  owner too) fights **for** the nation the card's figure marks (card_requirements.py, ``nation_worker``:
  ``p["marked"]``), the owner gets the gain; nothing for a fight against it (:func:`fought_for`);
- ``token_choice`` ``{"t": "perm", "n": 2}``: starting a combat, ``n`` tokens drawn (the chosen pile's
  top, then the other's when it runs out), one kept and revealed, the others to the bottom of a pile of
  the player's choice, face down: seen by the drawer only (frame ``tokenpick``; :func:`draw_tokens`);
- ``village_variety`` ``{"t": "perm", "vp": {"2": 2, "3": 4}}``: at the end of the main action, VP for
  the different village actions performed this turn (the main action's, a city's, an assistant's:
  every one passes actions.do_village; buying and investing are one action, Assumption A47), the
  table's highest count reached (:func:`note_village`, :func:`end_of_main`).
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from .board import HANDLERS, loc_kind, opt, stack
from .effects import P, apply_income, count_of, ext_cards, gain, player, who

# ---- income_when ----------------------------------------------------------------------------------

#: what a condition's key counts (effects.py's counters), or the barrier's explorer space
_WHEN = {"combat": "combat", "upgrade": "upgrade"}
_BARRIER_AT = {colour: space for space, colour in C.BARRIERS.items()}


def condition_met(p: P, when: dict[str, Any]) -> bool:
    """Whether the income's condition holds for the player now."""
    for key, n in when.items():
        if key == "barrier":
            if int(p["explorer"]) < _BARRIER_AT[str(n)]:
                return False
        elif count_of(p, _WHEN[key]) < int(n):
            return False
    return True


def after_move(state: State) -> list[Event]:
    """Every ``income_when`` whose condition has come to hold: its income, once (called after each move)."""
    ev: list[Event] = []
    for seat, p in enumerate(state["seats"]):
        found = ext_cards(p, "income_when")
        if not found:
            continue
        paid = p.get("when_paid", [])
        for cid, e in found:
            if cid in paid or not condition_met(p, e["when"]):
                continue
            paid = [*paid, cid]
            p["when_paid"] = paid
            ev.append(new_event("income_when", f"{who(state, seat)}'s {C.CARD[cid]['name']}: "
                                f"{C.when_text(e['when'])}, +{e['vp']} VP income.", {"seat": seat, "card": cid}))
            apply_income(state, seat, {"vp": e["vp"]}, ev)
    return ev


# ---- empty_village_d ------------------------------------------------------------------------------

def on_stop(state: State, seat: int, loc: str, steps: int, rng: Rng, ev: list[Event]) -> list[Frame]:
    """The ship's movement ended at ``loc`` after ``steps`` movement points."""
    p = player(state, seat)
    found = ext_cards(p, "empty_village_d")
    if not found or loc in state["markers"] or loc_kind(state, loc) != "village" or steps <= 0:
        return []
    frames: list[Frame] = []
    for cid, e in found:
        d = min(steps, int(e["max"]))
        ev.append(new_event("card_stop", f"{who(state, seat)}'s {C.CARD[cid]['name']}: an empty village reached "
                            f"with {steps} movement points.", {"seat": seat, "card": cid}))
        frames += gain(state, seat, {"d": d}, rng, ev, "cards")
    return frames


# ---- fight_for_pays -------------------------------------------------------------------------------

def marked(p: P, cid: int) -> str | None:
    """The nation the card's figure marks (card_requirements.py, ``nation_worker``), if any."""
    found = p.get("marked", {}).get(str(cid))
    return str(found) if found else None


def fought_for(state: State, nation: str, rng: Rng, ev: list[Event]) -> list[Frame]:
    """Someone fights for ``nation``: every ``fight_for_pays`` marking it pays its owner."""
    frames: list[Frame] = []
    for seat, p in enumerate(state["seats"]):
        for cid, e in ext_cards(p, "fight_for_pays"):
            if marked(p, cid) != nation:
                continue
            ev.append(new_event("card_fight", f"{who(state, seat)}'s {C.CARD[cid]['name']}: a fight for "
                                f"{nation.title()}.", {"seat": seat, "card": cid}))
            frames += gain(state, seat, e["gain"], rng, ev, "cards")
    return frames


# ---- token_choice ---------------------------------------------------------------------------------

def token_choice(p: P) -> int:
    """How many tokens the player draws starting a combat (1 without ``token_choice``)."""
    return max([1, *(int(e["n"]) for _cid, e in ext_cards(p, "token_choice"))])


def draw_tokens(state: State, seat: int, pile: int, ev: list[Event]) -> list[Frame]:
    """``token_choice``: the tokens drawn from pile ``pile`` (0 or 1; the other when it runs out), told to
    the drawer only; the frame ``tokenpick`` asks which is kept. Empty when fewer than 2 can be drawn."""
    n = token_choice(player(state, seat))
    piles = state["piles"]
    if n < 2 or len(piles[0]) + len(piles[1]) < 2:
        return []
    drawn = []
    for _ in range(n):
        src = pile if piles[pile] else 1 - pile
        if not piles[src]:
            break
        drawn.append(piles[src].pop())
    ev.append(new_event("tokens", f"{who(state, seat)} draws {len(drawn)} combat tokens to keep one.",
                        {"seat": seat, "n": len(drawn)}, reveals=True))
    ev.append(new_event("tokens_drawn", "You draw the combat tokens " + ", ".join(
        f"{t} ({token_words(t)})" for t in drawn) + ".", {"tokens": drawn}, to=(seat,), reveals=True))
    return [frame("tokenpick", seat, tokens=drawn)]


def token_words(token: str) -> str:
    t = C.TOKEN[token]
    return ", ".join(f"{n.title()} {t['value'][n]}" for n in C.NATIONS) + (f"; {t['mod']}" if t["mod"] else "")


def _pick_options(state: State, f: Frame) -> list[Option]:
    drawn = f["data"]["tokens"]
    out = []
    for keep in drawn:
        rest = [t for t in drawn if t != keep]
        for pile in (1, 2):
            out.append(opt(f"k{keep}p{pile}", f"keep token {keep} ({token_words(keep)}), "
                           f"{', '.join(rest)} to the bottom of pile {pile}"))
    return out


def _pick_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    keep, _, pile = o.code[1:].partition("p")
    rest = [t for t in f["data"]["tokens"] if t != keep]
    i = int(pile) - 1
    state["piles"][i] = [*rest, *state["piles"][i]]  # the bottom: pile[-1] is the top
    t = C.TOKEN[keep]
    vals = ", ".join(f"{n.title()} {t['value'][n]} ({C.gain_text(t['reward'][n])})" for n in C.NATIONS)
    ev = [new_event("token", f"{who(state, seat)} keeps combat token {keep}: {vals}"
                    + (f"; modifier: {t['mod']}" if t["mod"] else "") + f", and puts {len(rest)} at the bottom "
                    f"of pile {pile}.", {"seat": seat, "token": keep}, reveals=True)]
    stack(state).push(frame("fight", seat, token=keep, ask=True))
    return ev


# ---- village_variety ------------------------------------------------------------------------------

def village_kind(code: str) -> str:
    """The village action an option code performs (buying and investing: one, Assumption A47)."""
    return "buy" if code[:1] in ("b", "i") else code


def note_village(p: P, code: str) -> None:
    """A village action performed this turn (the expansion's boards only: the base game's state unchanged)."""
    if "port" in p:
        kind = village_kind(code)
        done = p.get("villages", [])
        if kind not in done:
            p["villages"] = [*done, kind]


def end_of_main(state: State, seat: int, rng: Rng, ev: list[Event]) -> list[Frame]:
    """The end of the main action: each ``village_variety`` scores for the different village actions."""
    p = player(state, seat)
    found = ext_cards(p, "village_variety")
    n = len(p.get("villages", []))
    p.pop("villages", None)  # (the next turn counts anew; absent, as in a state from before the notes: format 8)
    if not found:
        return []
    frames: list[Frame] = []
    for cid, e in found:
        vp = max([0, *(int(v) for k, v in e["vp"].items() if n >= int(k))])
        if vp:
            ev.append(new_event("card_variety", f"{who(state, seat)}'s {C.CARD[cid]['name']}: {n} different "
                                "village actions this turn.", {"seat": seat, "card": cid}))
            frames += gain(state, seat, {"vp": vp}, rng, ev, "cards")
    return frames


HANDLERS["tokenpick"] = FunctionHandler(_pick_options, _pick_resolve)
