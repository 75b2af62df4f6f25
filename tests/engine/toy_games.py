"""A tiny game that exists only to test the engine core and its conformance checker.

"Guess": two players, each round both secretly pick a number at the same time
(a simultaneous, hidden commitment); when the second pick arrives, a secret
target drawn from the game's seeded RNG is revealed and whoever is closer
scores a point (both on a tie). After the last round, most points wins.

``Guess`` keeps the whole engine contract, so the conformance checker must
pass it. Each ``Broken*`` subclass breaks exactly one rule, so the checker
must catch it.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from engine.core import Event, Move, Option, OptionSpec, Outcome, Rules, State, View, option_by_code
from engine.errors import Malformed, SetupError
from engine.notation import number, tokens
from engine.rng import Rng


class Guess(Rules):
    name = "guess"
    title = "Guess"
    min_players = 2
    max_players = 2
    option_specs = (
        OptionSpec("rounds", "int", 2, "rounds to play", min=1, max=9),
        OptionSpec("high", "int", 4, "numbers go from 1 to this", min=2, max=20),
        OptionSpec("scoring", "choice", "closest", "who scores", choices=("closest", "exact")),
        OptionSpec("public_target", "bool", False, "show the target before picking (no secret)"),
        OptionSpec("banned", "intlist", [], "numbers nobody may pick"),
    )
    notation_help = "Write the number you pick: `3`, `three` or `pick 3`."

    def _check_option_combination(self, n_players: int, options: dict[str, Any]) -> None:
        if len(set(options["banned"])) >= options["high"]:
            raise SetupError("option banned leaves no number to pick")

    def _setup(self, state: State, rng: Rng) -> None:
        state["round"] = 1
        state["scores"] = [0, 0]
        state["picks"] = [None, None]
        state["target"] = rng.die(state["options"]["high"])
        state["history"] = []

    def _pending(self, state: State) -> list[int]:
        return [s for s in (0, 1) if state["picks"][s] is None]

    def _options(self, state: State, seat: int) -> list[Option]:
        banned = set(state["options"]["banned"])
        return [Option(f"p{n}", f"pick {n}", {"pick": n})
                for n in range(1, state["options"]["high"] + 1) if n not in banned]

    def _apply(self, state: State, seat: int, move: Move, rng: Rng) -> list[Event]:
        opt = option_by_code(self._options(state, seat), move)  # validates before any change
        state["picks"][seat] = opt.move["pick"]
        events = [Event("picked", f"{self.seat_name(state, seat)} has picked a number.", {"seat": seat})]
        if None not in state["picks"]:
            events += self._resolve(state, rng)
        return events

    def _resolve(self, state: State, rng: Rng) -> list[Event]:
        target, picks = state["target"], state["picks"]
        if state["options"]["scoring"] == "exact":
            scored = [s for s in (0, 1) if picks[s] == target]
        else:
            best = min(abs(p - target) for p in picks)
            scored = [s for s in (0, 1) if abs(picks[s] - target) == best]
        for s in scored:
            state["scores"][s] += 1
        state["history"].append({"target": target, "picks": list(picks), "scored": scored})
        text = f"The target was {target}; picks {picks[0]} and {picks[1]}."
        events = [Event("reveal", text, {"target": target, "picks": list(picks), "scored": scored}, reveals=True)]
        state["round"] += 1
        state["picks"] = [None, None]
        state["target"] = rng.die(state["options"]["high"])
        return events

    def _view(self, state: State, seat: int | None) -> View:
        view: View = {
            "players": list(state["players"]),
            "round": state["round"],
            "rounds": state["options"]["rounds"],
            "scores": list(state["scores"]),
            "picked": [p is not None for p in state["picks"]],
            "history": copy.deepcopy(state["history"]),
            "seat": seat,
        }
        if seat is not None:
            view["my_pick"] = state["picks"][seat]
        if state["options"]["public_target"]:
            view["target"] = state["target"]
        return view

    def _parse(self, text: str, state: State, seat: int, options: list[Option]) -> Move:
        words = [w for w in tokens(text) if w != "pick"]
        if len(words) == 1 and (n := number(words[0])) is not None:
            return {"pick": n}
        return super()._parse(text, state, seat, options)

    def _outcome(self, state: State) -> Outcome | None:
        if state["round"] <= state["options"]["rounds"]:
            return None
        scores = state["scores"]
        if scores[0] == scores[1]:
            ranking: tuple[tuple[int, ...], ...] = ((0, 1),)
        else:
            ranking = ((0,), (1,)) if scores[0] > scores[1] else ((1,), (0,))
        return Outcome({0: scores[0], 1: scores[1]}, ranking, "rounds played")

    def _render_text(self, view: View) -> str:
        return f"Round {view['round']} of {view['rounds']}; scores {view['scores']}"

    def _render_svg(self, view: View) -> str:
        return "<svg xmlns='http://www.w3.org/2000/svg'/>"

    def resample_hidden(self, state: State, seat: int | None, rng: Rng) -> State:
        state = copy.deepcopy(state)
        state["rng"] = format(rng.below(1 << 62), "016x")
        if not state["options"]["public_target"]:
            state["target"] = rng.die(state["options"]["high"])
        for s in (0, 1):
            if s != seat and state["picks"][s] is not None:
                state["picks"][s] = self._options(state, s)[rng.below(len(self._options(state, s)))].move["pick"]
        return state


# ---- one broken rule each ------------------------------------------------------------------


class LeakyView(Guess):
    """Shows everybody's picks before they are revealed."""

    def _view(self, state: State, seat: int | None) -> View:
        view = super()._view(state, seat)
        view["picks"] = list(state["picks"])
        return view


class LeakyEnd(Guess):
    """Shows the target it drew for a round that is never played, once the game is over."""

    def _view(self, state: State, seat: int | None) -> View:
        view = super()._view(state, seat)
        if self._outcome(state) is not None:
            view["next_target"] = state["target"]
        return view


class LeakyEvent(Guess):
    """Tells the second picker what the first one picked, in a non-revealing event."""

    def _apply(self, state: State, seat: int, move: Move, rng: Rng) -> list[Event]:
        other = state["picks"][1 - seat]
        events = super()._apply(state, seat, move, rng)
        return [*events, Event("hint", f"the other pick was {other}", to=(seat,))]


class LeakyLabels(Guess):
    """Marks the option equal to the hidden target."""

    def _options(self, state: State, seat: int) -> list[Option]:
        return [Option(o.code, o.label + (" (lucky)" if o.move["pick"] == state["target"] else ""), o.move)
                for o in super()._options(state, seat)]


class HalfApplied(Guess):
    """Counts attempts before validating, so a refused move still changes the state."""

    def _setup(self, state: State, rng: Rng) -> None:
        super()._setup(state, rng)
        state["attempts"] = 0

    def _apply(self, state: State, seat: int, move: Move, rng: Rng) -> list[Event]:
        state["attempts"] += 1
        return super()._apply(state, seat, move, rng)


class OrderDependent(Guess):
    """Gives a bonus point to whoever picked first: the arrival order changes the result."""

    def _setup(self, state: State, rng: Rng) -> None:
        super()._setup(state, rng)
        state["first"] = None

    def _apply(self, state: State, seat: int, move: Move, rng: Rng) -> list[Event]:
        option_by_code(self._options(state, seat), move)  # validate before changing anything
        if state["picks"] == [None, None]:
            state["first"] = seat
        return super()._apply(state, seat, move, rng)

    def _resolve(self, state: State, rng: Rng) -> list[Event]:
        state["scores"][state["first"]] += 1  # the early bird's bonus
        return super()._resolve(state, rng)


class TupleState(Guess):
    """Keeps a tuple in the state: JSON turns it into a list, so it does not round-trip."""

    def _setup(self, state: State, rng: Rng) -> None:
        super()._setup(state, rng)
        state["scores"] = (0, 0)

    def _resolve(self, state: State, rng: Rng) -> list[Event]:
        state["scores"] = list(state["scores"])
        events = super()._resolve(state, rng)
        state["scores"] = tuple(state["scores"])
        return events


class SetState(Guess):
    """Keeps a set in the state: not JSON at all."""

    def _setup(self, state: State, rng: Rng) -> None:
        super()._setup(state, rng)
        state["seen"] = set()


class GlobalRandom(Guess):
    """Draws its target from Python's global random instead of the game's RNG."""

    def _resolve(self, state: State, rng: Rng) -> list[Event]:
        events = super()._resolve(state, rng)
        random.random()
        return events


class UnparsableLabel(Guess):
    """Labels its options with words its own parser does not read."""

    def _options(self, state: State, seat: int) -> list[Option]:
        return [Option(o.code, f"choose the number {o.move['pick']} please", o.move)
                for o in super()._options(state, seat)]

    def _parse(self, text: str, state: State, seat: int, options: list[Option]) -> Move:
        words = [w for w in tokens(text) if w != "pick"]
        if len(words) == 1 and (n := number(words[0])) is not None:
            return {"pick": n}
        for o in options:
            if o.code == text.strip():
                return o.move
        raise Malformed(f"{text!r} is not a number", [o.code for o in options])


class MisreadLabel(Guess):
    """Reads "pick N" as N - 1: the label parses, but to another option."""

    def _parse(self, text: str, state: State, seat: int, options: list[Option]) -> Move:
        words = tokens(text)
        if words[:1] == ["pick"] and len(words) == 2 and (n := number(words[1])) is not None:
            return {"pick": n - 1}
        return super()._parse(text, state, seat, options)


class EventForStranger(Guess):
    """Addresses an event to a seat that does not exist."""

    def _apply(self, state: State, seat: int, move: Move, rng: Rng) -> list[Event]:
        return [*super()._apply(state, seat, move, rng), Event("note", "psst", to=(7,))]


class NoHiddenResample(Guess):
    """Claims to resample hidden information but changes nothing: the hidden test proves nothing."""

    def resample_hidden(self, state: State, seat: int | None, rng: Rng) -> State:
        return copy.deepcopy(state)


RULES = Guess()


class LeakyPublicEvent(Guess):
    """Tells everyone what was picked, face down, in a non-revealing event to all seats."""

    def _apply(self, state: State, seat: int, move: Move, rng: Rng) -> list[Event]:
        events = super()._apply(state, seat, move, rng)
        return [Event("tell", f"{self.seat_name(state, seat)} picked {move.get('pick', move.get('code'))}"), *events]
