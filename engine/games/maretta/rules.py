"""Maretta: side A "Escape from Maretta" and side B "Escape from Vulcano".

State layout (plain JSON, compact; cards are short strings such as ``"3wo"``,
value then suit code, and ``"ss"`` for a steamship card):

``side``        "A" or "B"
``end``         route index of the steamship token (A) or of the sea (B)
``reefs``       reefs (A) or crevasses (B): a reef ``r`` lies between spaces r and r+1
``turn`` ``phase`` ``start``   turn number, phase number, starting-player seat
``pos``         each meeple's route index (0 = island / village)
``hand``        each seat's hand (hidden from the others; counts are public)
``stock``       each seat's stock (public, face up)
``deck`` ``box`` ``disc``   draw pile (top = last), cards returned to the box at setup, discard pile
``p1`` ``p1d`` ``p2``   position 1 card, whether it is face down, position 2 card
``mv``          movement this turn from the raft's two numbers (A: used by steamship boarding)
``bar``         barrels on the route: {"space": [[kind, face_up], ...]}
``bbox``        barrels left in the box (unknown)
``bdisc``       barrels used, in order taken
``bdv``         the same as everybody sees them: "?" for one taken face down
``bseen``       per seat: None, or once it took a barrel face down (it alone knows it), ``bdv`` as it sees it
``cut`` ``cutn``   cuttlefish: first card face down this turn / next turn
``cutp`` ``cutk``  what the table knows of ``cutn`` (face-up cuttlefish only), and per seat None or what
                it knows of ``cutn`` (its own face-down cuttlefish too): a face-down barrel is not announced
``known``       per seat: {"other seat": [cards]} still known from a pelican look
``out``         side B: the turn a seat was caught by the lava, or None
``lava`` ``lspd``   side B: lava position and current speed
``todo``        the stack of pending steps; the last one is on top
``over``        None while running, else the final result

The rules are read top-down, one module per part of the rulebook; this file only assembles them
into the rules object (the contract's calls, its caches, notation, outcome, views, rendering):

    setup.py      setup: the option combinations, deck, barrels, starting player, first hands
    machine.py    the step machine: runs the pending steps (``todo``) until one waits for a seat
    turn.py       a turn begins; each player puts a card in an opponent's position 2 (both sides)
    side_a.py     Escape from Maretta: phase one face down, what position 2 moves, phase three
    side_b.py     Escape from Vulcano: phase two, phase three's move by stacks, phase four's lava
    barrels.py    the barrels' effects (cuttlefish, monkey, troop, shark, spear, pelican ...)
    decisions.py  a seat's decisions: legal moves per step, their labels, the deadline's default, their effect
    board.py      the small reads and changes the others share (orders, opponents, stock, moves, the end)
    tables.py     the (code, move) pairs and the notation's words; cards.py the cards and data
    views.py      what each seat sees; explain.py why a line is refused; render.py the pictures
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import i18n, notation
from engine.core import (
    Event,
    Move,
    Option,
    OptionSpec,
    Outcome,
    Rules,
    State,
    View,
    new_option,
    option_by_code,
)
from engine.games.maretta import render
from engine.games.maretta.cards import (
    BARREL_NAMES,
    DATA,
    HAND,
    SHIP,
    SUIT_ORDER,
    SUITS,
    all_resource_cards,
    card_key,
    card_name,
    suit,
    value,
)
from engine.games.maretta.decisions import decide, default_move, presented, step_labels, step_moves
from engine.games.maretta.explain import explain
from engine.games.maretta.machine import run
from engine.games.maretta.setup import check_option_combination, setup
from engine.games.maretta.side_a import commit
from engine.games.maretta.tables import VOCABULARY, Frame, _Events
from engine.games.maretta.views import describe, public, resample_hidden
from engine.rng import Rng

__all__ = [
    "BARREL_NAMES", "DATA", "HAND", "SHIP", "SUITS", "SUIT_ORDER", "Maretta", "all_resource_cards", "card_key",
    "card_name", "suit", "value",
]


class Maretta(Rules):
    name = "maretta"
    title = "Maretta"
    view_schema_file = "view.schema.json"
    min_players = 3
    max_players = 5
    option_specs = (
        OptionSpec("side", "choice", "A", "board side: A = Escape from Maretta, B = Escape from Vulcano",
                   choices=("A", "B")),
        OptionSpec("steamship", "int", DATA["A"]["end"],
                   "side A: route space of the Steamship token (move it closer for a shorter game)",
                   min=6, max=DATA["A"]["end"]),
        OptionSpec("reefs", "intlist", list(DATA["A"]["reefs"]),
                   "side A: the spaces the (up to 2) Coral Reefs lie after; empty = reefs removed",
                   min=0, max=DATA["A"]["end"] - 1),
        OptionSpec("crevasses", "intlist", list(DATA["B"]["crevasses"]),
                   "side B: the spaces the (up to 2) Crevasses lie after; empty = crevasses removed",
                   min=0, max=DATA["B"]["end"] - 1),
        OptionSpec("lava_start", "int", DATA["B"]["lava_start"],
                   "side B: how many spaces behind the Starting Village the lava starts", min=0, max=6),
        OptionSpec("lava_speed", "int", DATA["B"]["lava_speed"],
                   "side B: spaces the lava moves each turn at the start", min=1, max=6),
        OptionSpec("lava_crevasse_change", "int", DATA["B"]["lava_crevasse_change"],
                   "side B: change of the lava's speed each time it crosses a crevasse (never below 1)",
                   min=-3, max=3),
    )
    # (said in the reader's language: its examples in the Portuguese notation, issue 27)
    notation_help = i18n.N_(
        "Write one move per line, for example: play 3 wood / give 1 water to bob / "
        "steal 4 rope from carla / move / barrel 2 / take rope from carla / discard 2 fire / "
        "look at bob / swap with bob, or just the option code shown in the list."
    )

    # ---- setup ---------------------------------------------------------------------

    def _check_option_combination(self, n_players: int, options: dict[str, Any]) -> None:
        check_option_combination(n_players, options)

    def _setup(self, st: State, rng: Rng) -> None:
        setup(st, rng)

    # ---- decisions ------------------------------------------------------------------------

    def _pending(self, st: State) -> list[int]:
        if st["over"] is not None or not st["todo"]:
            return []
        f = st["todo"][-1]
        if f["t"] == "p1":
            p1, hands = st["p1"], st["hand"]
            return [s for s in range(len(p1)) if p1[s] is None and hands[s]]
        return [f["s"]]

    #: (state object, its version "v", seat, the (code, move) pairs _options listed), swapped as one
    #: tuple: apply right after options finds the move among them instead of listing them again.
    #: Keyed like _vcache (only apply changes a state, and it bumps "v"); the options hold copies
    #: of the moves, so a caller changing an option's move cannot change what apply accepts.
    _ocache: tuple[Any, int, int, list[tuple[str, Move]]] = (None, -1, -1, [])

    def _options(self, st: State, seat: int) -> list[Option]:
        f = st["todo"][-1]
        moves = step_moves(st, f, seat)
        self._ocache = (st, st["v"], seat, moves)
        return [new_option(code, label, m.copy()) for (code, m), label in zip(moves, step_labels(st, f, moves))]

    def presented(self, st: State, seat: int, options: Sequence[Option]) -> list[Option]:
        # as the mail shows the hand and the stocks (decisions.presented); the codes are the same
        return presented(st, list(options)) if options else []

    def _default_move(self, st: State, seat: int, options: list[Option]) -> Option | None:
        return default_move(st, seat, options)

    def _apply(self, st: State, seat: int, move: Move, rng: Rng) -> list[Event]:
        f = st["todo"][-1]
        chosen = self._find(st, f, seat, move)  # validates: nothing has changed yet
        st["v"] += 1
        ev = _Events()
        if f["t"] == "p1":
            commit(st, seat, chosen["c"], ev)
        else:
            st["todo"].pop()
            decide(st, f, chosen, ev)
        run(st, ev)
        return list(ev)

    def _find(self, st: State, f: Frame, seat: int, move: Move) -> Move:
        cached = self._ocache
        hit = cached[0] is st and cached[1] == st["v"] and cached[2] == seat
        moves = cached[3] if hit else step_moves(st, f, seat)
        code = move.get("code")
        for c, m in moves:
            if (c == code) if code is not None else (m == move):
                return m
        options = [Option(c, label, m) for (c, m), label in zip(moves, step_labels(st, f, moves))]
        return option_by_code(options, move).move  # raises, listing them

    # ---- notation ---------------------------------------------------------------------------
    # The shared layer (engine.notation) reads whole lines against the options; this game gives it
    # its words (VOCABULARY), other ways to name an option (_readings) and its refusals (_explain).

    vocabulary = VOCABULARY

    def _readings(self, st: State, seat: int, option: Option) -> list[str]:
        t = st["todo"][-1]["t"]
        m = option.move
        if t == "p1":
            return [option.label + " [facedown] [position1]"]
        if t == "play":
            return [option.label + " [position1]"]
        if t == "place":
            return [option.label + (" [own]" if m["p"] == seat else "") + " [position2]"]
        if t == "steal" and m["a"] == "move":
            return ["move 2 [spaces] [instead]"]
        return [option.label]

    def _explain(self, st: State, seat: int, line: notation.Line, options: list[Option]) -> str | None:
        return explain(st, seat, line, options)


    # ---- outcome ------------------------------------------------------------------------

    def score_breakdown(self, st: State) -> dict[int, dict[str, float]]:
        """Maretta ranks by how far one got: the space reached, and on side A the resource
        types in stock (what a Steamship card counts); on side B when the lava caught one."""
        if st["over"] is None:
            return {}
        out: dict[int, dict[str, float]] = {}
        for s, p in enumerate(st["over"]["scores"]):
            parts: dict[str, float] = {"space reached": float(p)}
            if st["side"] == "A":
                parts["movement in the last turn"] = float(st["mv"][s])
                parts["resource types in stock"] = float(len({c[1:] for c in st["stock"][s]}))
            elif st["out"][s] is not None:
                parts["caught by the lava on turn"] = float(st["out"][s])
            out[s] = parts
        return out

    def _outcome(self, st: State) -> Outcome | None:
        over = st["over"]
        if over is None:
            return None
        return Outcome(scores={s: float(v) for s, v in enumerate(over["scores"])},
                       ranking=tuple(tuple(g) for g in over["ranking"]), reason=over["reason"])

    # ---- views ------------------------------------------------------------------------------

    #: (state object, its version "v", the public part of its views), swapped as one tuple so that
    #: threads never mix the parts. Only apply changes a state (and bumps "v"), so a cached part
    #: is never stale; code that edits a state by hand must bump "v" itself.
    _vcache: tuple[Any, int, Any] = (None, -1, None)

    def _view(self, st: State, seat: int | None) -> View:
        of, version, public = self._vcache
        if of is not st or version != st["v"]:
            public = self._public(st)
            self._vcache = (st, st["v"], public)
        view: View = public.copy()
        view["seat"] = seat
        if seat is not None:
            view["hand"] = sorted(st["hand"][seat])
            known = st["known"][seat]
            if known:
                view["known_hands"] = {k: sorted(v) for k, v in known.items()}
            if st["p1d"][seat] and st["p1"][seat] is not None:  # your own face-down card
                p1 = public["p1"][:]
                p1[seat] = st["p1"][seat]
                view["p1"] = p1
            seen = st["bseen"][seat]
            if seen is not None:  # with the barrels you took face down and looked at
                view["barrels_used"] = seen
            cutk = st.get("cutk")
            if cutk and cutk[seat] is not None:  # with the cuttlefish you took face down
                view["cuttlefish_next"] = cutk[seat]
        return view

    def _public(self, st: State) -> View:
        """What everybody sees; the same for every seat (see views.public)."""
        return public(st, self._pending(st))


    def _describe(self, st: State) -> str:
        return describe(st)


    # ---- hidden information (testing hook) ----------------------------------------------------

    def resample_hidden(self, state: State, seat: int | None, rng: Rng) -> State:
        return resample_hidden(state, seat, rng)


    # ---- rendering ------------------------------------------------------------------------------

    def _render_text(self, view: View) -> str:
        return render.render_text(view)

    def _render_svg(self, view: View) -> str:
        return render.render_svg(view)

    def _render_phone_svg(self, view: View) -> list[str]:
        return [render.render_svg(view, narrow=True)]

    def _render_mail_svg(self, view: View) -> str:
        # Why not the seat's phone board: the "you" marks made each seat's picture differ, so each
        # was rendered (resvg and a palette pass) once a seat; the public one is rendered once a
        # position (issue 28). The seat's own knowledge is in the mail's text.
        return render.render_mail_svg(view)
