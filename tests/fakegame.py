"""A tiny hidden-information game for service and API tests.

"Blind bids": every player holds a secret hand of cards dealt from a seeded
deck. Each round all players choose a card face down at the same time
(simultaneous, like Maretta); when the last one has chosen, the cards are
revealed and the highest card scores a point. Registered under the name
``blindbids`` by the ``fake_game`` fixture only.
"""

from __future__ import annotations

import copy
from typing import Any

from engine import svg
from engine.core import Event, Move, Option, OptionSpec, Outcome, Rules, State, View, option_by_code
from engine.rng import Rng


class BlindBids(Rules):
    name = "blindbids"
    title = "Blind Bids"
    min_players = 2
    max_players = 4
    option_specs = (
        OptionSpec("rounds", "int", 3, "how many rounds are played", min=1, max=5),
        OptionSpec("deck", "choice", "short", "which deck is dealt", choices=("short", "long")),
    )
    notation_help = "Name the card you bid: its code (c7) or its label (bid 7)."

    def view_schema(self) -> dict[str, Any]:
        """Declared as a dict here (the real games keep a view.schema.json beside their code)."""
        ints = {"type": "array", "items": {"type": "integer"}}
        return {
            "title": "BlindbidsView", "type": "object", "additionalProperties": False,
            "required": ["players", "round", "rounds", "scores", "revealed", "has_chosen", "seat"],
            "properties": {
                "players": {"type": "array", "items": {"type": "string"}, "minItems": 2},
                "round": {"type": "integer", "minimum": 1}, "rounds": {"type": "integer", "minimum": 1},
                "scores": ints, "revealed": {"type": "array", "items": ints},
                "has_chosen": {"type": "array", "items": {"type": "boolean"}},
                "seat": {"type": ["integer", "null"], "minimum": 0},
                "hand": ints, "my_bid": {"type": ["integer", "null"]},
            },
        }

    def _setup(self, state: State, rng: Rng) -> None:
        n = len(state["players"])
        top = 12 if state["options"]["deck"] == "short" else 20
        deck = list(range(1, top + 1))
        rng.shuffle(deck)
        rounds = state["options"]["rounds"]
        state["hands"] = [sorted(deck[i * rounds:(i + 1) * rounds]) for i in range(n)]
        state["deck"] = deck[n * rounds:]
        state["chosen"] = [None] * n
        state["scores"] = [0] * n
        state["round"] = 1
        state["revealed"] = []

    def _pending(self, state: State) -> list[int]:
        return [i for i, c in enumerate(state["chosen"]) if c is None]

    def _options(self, state: State, seat: int) -> list[Option]:
        return [Option(f"c{card}", f"bid {card}", {"code": f"c{card}"}) for card in state["hands"][seat]]

    def _default_move(self, state: State, seat: int, options: list[Option]) -> Option | None:
        return min(options, key=lambda o: int(o.code[1:]))  # the lowest bid risks least

    def _apply(self, state: State, seat: int, move: Move, rng: Rng) -> list[Event]:
        opt = option_by_code(self._options(state, seat), move)
        card = int(opt.code[1:])
        state["hands"][seat].remove(card)
        state["chosen"][seat] = card
        name = self.seat_name(state, seat)
        events = [
            Event("choose", f"{name} bids face down"),
            Event("choose_own", f"You bid {card}", {"card": card}, to=(seat,)),
        ]
        if all(c is not None for c in state["chosen"]):
            plays = list(state["chosen"])
            best = max(plays)
            winner = plays.index(best)
            state["scores"][winner] += 1
            state["revealed"].append(plays)
            state["chosen"] = [None] * len(plays)
            state["round"] += 1
            shown = ", ".join(f"{self.seat_name(state, i)} {c}" for i, c in enumerate(plays))
            events.append(Event("reveal", f"Bids revealed: {shown}; {self.seat_name(state, winner)} scores",
                                {"plays": plays, "winner": winner}, reveals=True))
        return events

    def _view(self, state: State, seat: int | None) -> View:
        view: dict[str, Any] = {
            "players": list(state["players"]),
            "round": state["round"],
            "rounds": state["options"]["rounds"],
            "scores": list(state["scores"]),
            "revealed": [list(r) for r in state["revealed"]],
            "has_chosen": [c is not None for c in state["chosen"]],
            "seat": seat,
        }
        if seat is not None:
            view["hand"] = list(state["hands"][seat])
            view["my_bid"] = state["chosen"][seat]
        return view

    def _outcome(self, state: State) -> Outcome | None:
        if state["round"] <= state["options"]["rounds"]:
            return None
        scores = {i: float(s) for i, s in enumerate(state["scores"])}
        groups: dict[float, list[int]] = {}
        for i, s in scores.items():
            groups.setdefault(s, []).append(i)
        ranking = tuple(tuple(groups[s]) for s in sorted(groups, reverse=True))
        return Outcome(scores, ranking, "all rounds played")

    def _render_text(self, view: View) -> str:
        lines = [f"Round {min(view['round'], view['rounds'])} of {view['rounds']}"]
        for i, name in enumerate(view["players"]):
            lines.append(f"  {name}: {view['scores'][i]} point(s){' (has bid)' if view['has_chosen'][i] else ''}")
        if "hand" in view:
            lines.append("Your hand: " + " ".join(str(c) for c in view["hand"]))
        return "\n".join(lines)

    def _render_svg(self, view: View) -> str:
        body = [svg.text(10, 20 + 20 * i, f"{name}: {view['scores'][i]}", anchor="start")
                for i, name in enumerate(view["players"])]
        if "hand" in view:
            body.append(svg.text(10, 110, "hand " + " ".join(str(c) for c in view["hand"]), anchor="start"))
        return svg.document(300, 130, body, title="Blind Bids")

    def resample_hidden(self, state: State, seat: int | None, rng: Rng) -> State:
        """Deal the cards nobody in ``seat``'s place can see differently; keep the rest."""
        other = copy.deepcopy(state)
        n = len(other["players"])
        hidden = [i for i in range(n) if i != seat]
        pool = [c for i in hidden for c in other["hands"][i]] + list(other["deck"])
        hidden_bids = [i for i in hidden if other["chosen"][i] is not None]
        pool += [other["chosen"][i] for i in hidden_bids]
        rng.shuffle(pool)
        for i in hidden:
            k = len(other["hands"][i])
            other["hands"][i] = sorted(pool[:k])
            pool = pool[k:]
        for i in hidden_bids:
            other["chosen"][i] = pool.pop(0)
        other["deck"] = pool
        return other


RULES = BlindBids()
