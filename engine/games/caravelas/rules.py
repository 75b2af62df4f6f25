"""Caravelas II: fleets of caravelas sail from Lisboa, discover places and bring cargo home.

State (plain JSON, see ``_setup``)::

    first, turn, turns     first player, the seat playing, turns completed so far
    mdeck, mdisc           movement draw pile (top = last) and discard pile
    dpile, dknown          discovery pile (top = first) and, per seat, the cards that
                           seat returned to the bottom and that are still in the pile
    cubes, greens, monastery   cubes left on each place, green cubes in the game,
                           green cubes delivered to the Jeronimos Monastery
    fleets                 per seat: at, hand, disc, found, score, cargo, sunk, drew
    stack                  the pending decisions of the current turn, top last:
                           move | sink | keep (with the drawn cards) | cards
    used                   movement cards played this turn (public)
    ending, over           why the game is ending (points / monastery), and whether it is over

A turn: ``move`` decisions (play a card to a destination, draw discovery cards
in Lisboa or Calecute, deliver in Lisboa, or end), with ``sink`` pushed by a 1
on the die at the Cape and ``keep`` by a draw; then ``cards`` (keep or return
the unspent movement cards) when any are left, and the hand is refilled.
"""

from __future__ import annotations

import copy
import random
from itertools import combinations
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
    new_event,
    new_option,
    option_by_code,
)
from engine.i18n import N_, _, ngettext, word
from engine.rng import Rng, seed_to_state

from . import board as B

Fleet = dict[str, Any]

# ---- precomputed options ------------------------------------------------------------------------

#: MOVE_OPTIONS[node][v]: the options to play a v-card from node, one per destination
MOVE_OPTIONS: dict[str, list[list[Option]]] = {
    nid: [
        [Option(f"{v}{dest}", N_("move {v} to {place}").format(v=v, place=B.name(dest)),
                {"act": "move", "card": v, "to": dest})
         for dest in B.REACH[nid][v]]
        for v in range(B.VMAX + 1)
    ]
    for nid in B.ORDER
}
#: MOVE_OPTION[node][v][dest]: the same options, by destination
MOVE_OPTION: dict[str, list[dict[str, Option]]] = {
    nid: [{o.move["to"]: o for o in per_value} for per_value in tables] for nid, tables in MOVE_OPTIONS.items()
}
#: ROUTE_WORD[node][v][dest]: "Lisboa to Guiné via s1, s2" as a message parameter, for the move event
ROUTE_WORD: dict[str, list[dict[str, dict[str, Any]]]] = {
    nid: [{dest: word("{start} to {dest} via {via}", start=B.name(nid), dest=B.name(dest),
                      via=", ".join(B.name(p) for p in path[:-1])) if len(path) > 1
           else word("{start} to {dest}", start=B.name(nid), dest=B.name(dest))
           for dest, path in per_value.items()} for per_value in B.REACH[nid]]
    for nid in B.ORDER
}
DRAW = Option("draw", N_("draw discovery cards"), {"act": "draw"})
DELIVER = Option("deliver", N_("deliver cargo and recover caravelas (ends the turn)"), {"act": "deliver"})
END = Option("end", N_("end the turn"), {"act": "end"})
KEEP_CARDS = Option("keep", N_("keep cards"), {"act": "cards", "return": []})
#: the cube colours, words of the game (engine.i18n: translated where a player reads them)
COLOUR_WORDS = (N_("red"), N_("black"), N_("yellow"), N_("brown"), N_("white"), N_("pink"), N_("blue"),
                N_("green"))


def _in_language(code: str) -> tuple[dict[str, list[list[Option]]], dict[str, Option]]:
    """The card options of every circle and the plain options, labelled in ``code`` (made once
    per language: listing options stays a look-up)."""
    found = _BY_LANGUAGE.get(code)
    if found is None:
        move = i18n.translate("move {v} to {place}", code)
        table = {nid: [[Option(o.code, move.format(v=o.move["card"], place=B.name(o.move["to"])), o.move)
                        for o in per_value] for per_value in tables] for nid, tables in MOVE_OPTIONS.items()}
        plain = {o.code: Option(o.code, i18n.translate(o.label, code), o.move) for o in (DRAW, DELIVER, END,
                                                                                         KEEP_CARDS)}
        found = _BY_LANGUAGE[code] = (table, plain)
    return found


_BY_LANGUAGE: dict[str, tuple[dict[str, list[list[Option]]], dict[str, Option]]] = {}
#: the keys of a fleet in a public view, in their order (filled in by Caravelas._public)
_FLEET_TEMPLATE: dict[str, Any] = dict.fromkeys(("at", "score", "cargo", "sunk", "found", "hand", "disc", "drew"))
#: the options of a move decision besides the cards, by code (which is also their "act")
_PLAIN: dict[str, Option] = {o.code: o for o in (DRAW, DELIVER, END)}

def _place_names() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for n in B.MAP["nodes"]:
        out[n["id"]] = [n["id"].replace("-", " "), n["name"], *n.get("aliases", [])]
    return out


#: the words of the game: verbs with their synonyms (English and Portuguese), the places by all their names
VOCABULARY = notation.Vocabulary.build(
    verbs={
        "move": ["play", "use", "sail", "go", "m", "mover", "jogar", "usar", "navegar", "ir", "vai", "send"],
        "draw": ["tirar", "comprar", "pick", "take", "puxar", "buy"],
        "deliver": ["entregar", "unload", "descarregar", "trade", "exchange", "sell", "vender"],
        "recover": ["recuperar", "repair"],
        "end": ["done", "pass", "stop", "finish", "fim", "terminar", "acabar", "passar", "over", "finished"],
        "turn": ["vez", "turno", "jogada", "round"],
        "keep": ["save", "guardar", "ficar", "k", "hold", "manter", "ficar com"],
        "return": ["devolver", "discard", "r", "descartar", "give back", "put back", "throw"],
        "sink": ["afundar", "sunk", "lose", "perder", "scuttle"],
        "caravela": ["caravel", "caravelas", "caravels", "ship", "ships", "boat", "navio", "barco"],
        "discovery": ["discoveries", "descoberta", "descobertas"],
        "cargo": ["cubes", "cube", "goods", "carga", "cubos"],
        "loses": ["losing", "perde"],
    },
    # "all" and "none" name a set: a reading that has them needs them typed
    names={**_place_names(), "all": ["todas", "todos", "tudo", "everything", "both", "ambas", "ambos", "every"],
           "none": ["nothing", "nenhuma", "nenhum", "nada", "neither"]},
    display={n["id"]: n["name"] for n in B.MAP["nodes"]},
)


def _caravela_of(colour: str) -> int:
    return int(B.CUBES[colour]["caravela"])


def _colours(colours: list[str], sep: str = ", ") -> dict[str, Any]:
    """Cube colours as a message parameter (each a game word)."""
    return {"items": [word(c) for c in colours], "sep": sep}


def _say(kind: str, said: tuple[str, dict[str, Any]], data: dict[str, Any], to: tuple[int, ...] | None = None,
         reveals: bool = False) -> Event:
    """An event from ``i18n.text``: its text in the context's language and its message."""
    return new_event(kind, said[0], data, to, reveals, said[1])


def _counted(n: int, one: str, other: str) -> dict[str, Any]:
    return {"n": n, "one": one, "other": other}


# (the plural forms of the counted words, for the catalogue)
_PLURALS = (ngettext("{n} movement card", "{n} movement cards", 1),
            ngettext("{n} discovery card", "{n} discovery cards", 1),
            ngettext("+{n} point", "+{n} points", 1))
# (the second text of a choice between two, for the catalogue)
_SECOND = (N_("{player}'s caravela {n} sinks; its {cubes} cube goes back to {places}."),
           N_("caravela {numbers} recovered"))


class Caravelas(Rules):
    name = "caravelas"
    title = "Caravelas II"
    view_schema_file = "view.schema.json"
    min_players = 2
    max_players = 4
    option_specs = (
        OptionSpec("target", "int", 100, "points that end the game (after the round is finished)", min=10, max=500),
    )
    # (said in the reader's language: its examples in the Portuguese notation, issue 27)
    notation_help = i18n.N_(
        "Play a movement card by its value and name the place: 'move 3 to guine' or 'card 2 to madeira' "
        "(the server picks a legal path). In Lisboa or Calecute: 'draw', then 'keep guine, malaca'. "
        "In Lisboa: 'deliver'. At the Cape, after a 1: 'sink 2'. 'end' ends the turn; then "
        "'keep cards' or 'return cards' (or 'return 3, 4'). Option codes work too."
    )

    # ---- setup -------------------------------------------------------------------------------

    def _setup(self, state: State, rng: Rng) -> None:
        n = len(state["players"])
        yellow, green = list(B.YELLOW), list(B.GREEN)
        rng.shuffle(yellow)
        rng.shuffle(green)
        per = B.CARDS["dealt_per_colour"]
        discs = [yellow[i * per:(i + 1) * per] + green[i * per:(i + 1) * per] for i in range(n)]
        pile = yellow[n * per:] + green[n * per:]
        rng.shuffle(pile)
        deck = list(B.CARD_VALUES)
        rng.shuffle(deck)
        fleets = []
        for i in range(n):
            hand = sorted(deck[-B.HAND:])
            del deck[-B.HAND:]
            fleets.append({"at": B.LISBON, "hand": hand, "disc": discs[i], "found": [], "score": 0,
                           "cargo": [], "sunk": [], "drew": False})
        cubes = dict.fromkeys(B.COLOURS, B.CUBES_PER_COLOUR)
        cubes["green"] = B.GREEN_BY_PLAYERS[n]
        first = rng.below(n)
        state.update({
            "first": first, "turn": first, "turns": 0,
            "mdeck": deck, "mdisc": [],
            "dpile": pile, "dknown": [[] for _ in range(n)],
            "cubes": cubes, "greens": cubes["green"], "monastery": 0,
            "fleets": fleets,
            "stack": [{"k": "move"}], "used": [],
            "ending": None, "over": False, "v": 0,
        })

    # ---- whose turn, what choices ------------------------------------------------------------

    def _pending(self, state: State) -> list[int]:
        return [] if state["over"] else [state["turn"]]

    @staticmethod
    def _can_draw(state: State, f: Fleet) -> bool:
        return (f["at"] in B.DRAW_PLACES and not f["drew"] and len(f["disc"]) < B.MAX_DISC
                and bool(state["dpile"]))

    @staticmethod
    def _can_deliver(f: Fleet) -> bool:
        return f["at"] == B.LISBON and bool(f["cargo"] or f["sunk"])

    #: (state object, its version "v", seat, the (code, move) pairs _options listed for a sink, keep
    #: or cards decision), swapped as one tuple: apply right after options finds the move among
    #: them instead of listing the combinations again. Keyed like _vcache (only apply changes a
    #: state, and it bumps "v"); the moves are copies, so a caller changing an option's move
    #: cannot change what apply accepts. Card moves are found without it (_quick_option).
    _ocache: tuple[Any, int, int, list[tuple[str, Move]]] = (None, -1, -1, [])

    def _options(self, state: State, seat: int) -> list[Option]:
        if state["stack"][-1]["k"] == "move":
            # the common case, listed here (one call fewer): the cards by value and destination
            f = state["fleets"][seat]
            opts: list[Option] = []
            code = i18n.current()
            if code == i18n.DEFAULT:
                table, plain = MOVE_OPTIONS[f["at"]], _PLAIN
            else:
                tables, plain = _in_language(code)
                table = tables[f["at"]]
            last = None
            for v in f["hand"]:  # sorted
                if v != last:
                    opts.extend(table[v])
                    last = v
            if f["at"] in B.DRAW_PLACES and not f["drew"] and len(f["disc"]) < B.MAX_DISC and state["dpile"]:
                opts.append(plain["draw"])  # _can_draw
            if f["at"] == B.LISBON and (f["cargo"] or f["sunk"]):
                opts.append(plain["deliver"])  # _can_deliver
            opts.append(plain["end"])
            return opts
        opts = self._list_options(state, seat)
        self._ocache = (state, state["v"], seat,
                        [(o.code, {k: v[:] if type(v) is list else v for k, v in o.move.items()}) for o in opts])
        return opts

    def _cached_move(self, state: State, seat: int, move: Move) -> Move | None:
        """The move of a sink, keep or cards decision among those options just listed, or None."""
        cached = self._ocache
        if cached[0] is not state or cached[1] != state["v"] or cached[2] != seat:
            return None
        code = move.get("code")
        for c, m in cached[3]:
            if (c == code) if code is not None else (m == move):
                return m
        return None

    def _list_options(self, state: State, seat: int) -> list[Option]:
        """The options of a sink, keep or cards decision (_options lists those of a move)."""
        f = state["fleets"][seat]
        top = state["stack"][-1]
        k = top["k"]
        if k == "sink":
            out = []
            for c in B.CARAVELAS:
                if c in f["sunk"]:
                    continue
                aboard = [col for col in f["cargo"] if _caravela_of(col) == c]
                label = (i18n.render(i18n.msg("sink caravela {n} (loses {cubes})", n=c, cubes=_colours(aboard)))
                         if aboard else _("sink caravela {n}").format(n=c))
                out.append(new_option(f"sink{c}", label, {"act": "sink", "caravela": c}))
            return out
        if k == "keep":
            drawn = top["drawn"]
            room = min(B.MAX_DISC - len(f["disc"]), len(drawn))
            keep = _("keep {cards}")
            out = []
            for size in range(1, room + 1):
                for idx in combinations(range(len(drawn)), size):
                    cards = [drawn[i] for i in idx]
                    out.append(new_option("k" + "".join(str(i + 1) for i in idx),
                                      keep.format(cards=", ".join(B.name(c) for c in cards)),
                                      {"act": "keep", "cards": cards}))
            return out
        # k == "cards": keep or return the unspent movement cards
        hand = f["hand"]
        keep_cards = KEEP_CARDS if i18n.current() == i18n.DEFAULT else _in_language(i18n.current())[1]["keep"]
        give_back = _("return {cards}")
        out = [keep_cards, new_option("return", _("return cards"), {"act": "cards", "return": list(hand)})]
        seen = set()
        for size in range(1, len(hand)):
            for sub in combinations(hand, size):
                if sub in seen:
                    continue
                seen.add(sub)
                out.append(new_option("r" + "".join(map(str, sub)), give_back.format(cards=", ".join(map(str, sub))),
                                  {"act": "cards", "return": list(sub)}))
        return out

    def _default_move(self, state: State, seat: int, options: list[Option]) -> Option | None:
        """The safe move a missed deadline plays, per kind of decision (docs/rules/caravelas.md,
        Assumptions): bring cargo home when in Lisboa, else end the turn without sailing; sink the
        caravela that loses least; keep as many discovery cards as fit; keep movement cards."""
        k = state["stack"][-1]["k"]
        codes = {o.code: o for o in options}
        if k == "move":
            return codes.get("deliver") or codes["end"]
        if k == "sink":
            f = state["fleets"][seat]
            return min(options, key=lambda o: (sum(1 for col in f["cargo"]
                                                   if _caravela_of(col) == o.move["caravela"]),
                                               o.move["caravela"]))
        if k == "keep":
            return max(options, key=lambda o: len(o.move["cards"]))  # the first of the largest
        return codes.get("keep") or options[0]

    # ---- moves ---------------------------------------------------------------------------------

    def _apply(self, state: State, seat: int, move: Move, rng: Rng) -> list[Event]:
        quick = self._quick_option(state, seat, move)
        m = quick.move if quick is not None else self._cached_move(state, seat, move)
        if m is None:
            m = option_by_code(self._options(state, seat), move).move
        # validated fully above; nothing has changed yet
        state["v"] += 1
        act = m["act"]
        ev: list[Event] = []
        who = state["players"][seat]
        f = state["fleets"][seat]
        if act == "move":
            self._do_move(state, seat, f, who, m["card"], m["to"], rng, ev)
        elif act == "draw":
            self._do_draw(state, seat, f, who, ev)
        elif act == "keep":
            self._do_keep(state, seat, f, who, m["cards"], rng, ev)
        elif act == "sink":
            self._do_sink(state, seat, f, who, m["caravela"], rng, ev)
        elif act == "deliver":
            self._do_deliver(state, seat, f, who, ev)
            self._end_moves(state, seat, f, rng, ev)
        elif act == "end":
            ev.append(_say("end", i18n.text("{player} ends the turn.", player=who), {"seat": seat}))
            self._end_moves(state, seat, f, rng, ev)
        else:  # "cards"
            ret = m["return"]
            hand = f["hand"][:]
            for v in ret:
                hand.remove(v)
            f["hand"] = hand
            state["mdisc"].extend(ret)
            if ret:
                ev.append(_say("return", i18n.text(
                    "{player} returns {cards} ({values}).", player=who,
                    cards=_counted(len(ret), "{n} movement card", "{n} movement cards"),
                    values=", ".join(map(str, ret))), {"seat": seat, "cards": list(ret)}, reveals=True))
            else:
                ev.append(_say("keepcards", i18n.text(
                    "{player} keeps {cards} for the next turn.", player=who,
                    cards=_counted(len(f["hand"]), "{n} movement card", "{n} movement cards")),
                    {"seat": seat, "count": len(f["hand"])}))
            state["stack"].pop()
            self._finish_turn(state, seat, f, rng, ev)
        return ev

    def _quick_option(self, state: State, seat: int, move: Move) -> Option | None:
        """The option a card move, draw, deliver or end names, found without listing every option
        (the common case); None when it is none of those or not legal (then the options decide)."""
        if state["stack"][-1]["k"] != "move":
            return None
        code = move.get("code")
        key = code if code is not None else move.get("act")
        plain = _PLAIN.get(key) if type(key) is str else None  # (a list or dict cannot be looked up)
        if plain is not None:
            if code is None and move != plain.move:
                return None
            if plain is END:
                return END
            f = state["fleets"][seat]
            if plain is DRAW:
                return DRAW if self._can_draw(state, f) else None
            return DELIVER if self._can_deliver(f) else None
        if code is not None:
            # Why "in": str.isdigit() is true for "²" and other digits int() cannot read.
            if len(move) != 1 or not isinstance(code, str) or len(code) < 2 or code[0] not in "0123456789":
                return None
            v, dest = int(code[0]), code[1:]
        else:
            card, to = move.get("card"), move.get("to")
            # exactly {"act": "move", "card": card, "to": to} (card and to are there: their types say so)
            if type(card) is not int or not isinstance(to, str) or len(move) != 3 or move.get("act") != "move":
                return None
            v, dest = card, to
        f = state["fleets"][seat]
        if not 0 < v <= B.VMAX or v not in f["hand"]:
            return None
        return MOVE_OPTION[f["at"]][v].get(dest)

    def _do_move(self, state: State, seat: int, f: Fleet, who: str, v: int, dest: str, rng: Rng,
                 ev: list[Event]) -> None:
        start = f["at"]
        path = B.REACH[start][v][dest]
        hand = f["hand"][:]
        hand.remove(v)
        f["hand"] = hand
        state["used"] = [*state["used"], v]
        state["mdisc"].append(v)
        f["at"] = dest
        f["drew"] = False
        route = ROUTE_WORD[start][v][dest]
        data: dict[str, Any] = {"seat": seat, "card": v, "from": start, "to": dest, "path": list(path)}
        if dest == B.CAPE:
            lost = v - len(path)
            data["lost"] = lost
            if lost:
                said = i18n.text("{player} plays a {v}: {route} (stops at the Cape after {steps}, loses {lost}).",
                                 player=who, v=v, route=route, steps=len(path), lost=lost)
            else:
                said = i18n.text("{player} plays a {v}: {route}.", player=who, v=v, route=route)
            ev.append(_say("move", said, data))
            roll = B.DIE[rng.below(len(B.DIE))]
            if roll == 1:
                ev.append(_say("die", i18n.text("{player} rolls the die at the Cape: 1. A caravela sinks!", player=who),
                               {"seat": seat, "roll": roll}, reveals=True))
                state["stack"].append({"k": "sink"})
            else:
                ev.append(_say("die", i18n.text("{player} rolls the die at the Cape: {roll}. No harm done.",
                                                player=who, roll=roll), {"seat": seat, "roll": roll}, reveals=True))
                after = len(ev)
                self._settle(state, seat, f, rng, ev)
                # what follows a die roll in the same move depends on it: it reveals too (the only
                # die of a move: after a 1 the move ends with the sink decision)
                ev[after:] = [new_event(x.kind, x.text, x.data, x.to, True, x.msg) for x in ev[after:]]
            return
        ev.append(_say("move", i18n.text("{player} plays a {v}: {route}.", player=who, v=v, route=route), data))
        if dest in f["disc"]:
            pts = B.DISCOVERIES[dest]["points"]
            disc = f["disc"][:]
            disc.remove(dest)
            f["disc"] = disc
            f["found"] = [*f["found"], dest]
            f["score"] += pts
            ev.append(_say("discovery", i18n.text("{player} discovers {place}: {points} ({score}).", player=who,
                                                  place=B.name(dest), points=_counted(pts, "+{n} point", "+{n} points"),
                                                  score=f["score"]),
                           {"seat": seat, "card": dest, "points": pts}, reveals=True))
            self._check_ending(state, seat, ev)
        colour = B.CUBE_AT.get(dest)
        if (colour and state["cubes"][colour] > 0 and colour not in f["cargo"]
                and _caravela_of(colour) not in f["sunk"]):
            cubes = state["cubes"].copy()
            cubes[colour] -= 1
            state["cubes"] = cubes
            f["cargo"] = sorted([*f["cargo"], colour], key=B.COLOURS.index)
            ev.append(_say("load", i18n.text("{player} loads a {colour} cube onto caravela {n}.", player=who,
                                             colour=word(colour), n=_caravela_of(colour)),
                           {"seat": seat, "colour": colour}))
        self._settle(state, seat, f, rng, ev)

    def _do_draw(self, state: State, seat: int, f: Fleet, who: str, ev: list[Event]) -> None:
        pile = state["dpile"]
        drawn = pile[:B.DRAW_N]
        del pile[:B.DRAW_N]
        for known in state["dknown"]:
            if known:
                known[:] = [c for c in known if c not in drawn]
        f["drew"] = True
        state["stack"].append({"k": "keep", "drawn": drawn})
        ev.append(_say("draw", i18n.text("{player} draws {cards} in {place}.", player=who, place=B.name(f["at"]),
                                         cards=_counted(len(drawn), "{n} discovery card", "{n} discovery cards")),
                       {"seat": seat, "count": len(drawn)}))
        ev.append(_say("drawn", i18n.text("You draw {cards}.", cards=", ".join(
            f"{B.name(c)} ({B.DISCOVERIES[c]['points']})" for c in drawn)),
                       {"seat": seat, "cards": list(drawn)}, to=(seat,), reveals=True))

    def _do_keep(self, state: State, seat: int, f: Fleet, who: str, cards: list[str], rng: Rng,
                 ev: list[Event]) -> None:
        drawn = state["stack"].pop()["drawn"]
        rest = [c for c in drawn if c not in cards]
        f["disc"] = [*f["disc"], *cards]
        state["dpile"].extend(rest)
        state["dknown"][seat].extend(rest)
        kept = _counted(len(cards), "{n} discovery card", "{n} discovery cards")
        ev.append(_say("keep", i18n.text("{player} keeps {cards} and returns {n} to the bottom of the pile.",
                                         player=who, cards=kept, n=len(rest)) if rest
                       else i18n.text("{player} keeps {cards}.", player=who, cards=kept),
                       {"seat": seat, "kept": len(cards), "returned": len(rest)}))
        names = ", ".join(B.name(c) for c in cards)
        ev.append(_say("kept", i18n.text("You keep {cards}; {rest} go to the bottom of the pile.", cards=names,
                                         rest=", ".join(B.name(c) for c in rest)) if rest
                       else i18n.text("You keep {cards}.", cards=names),
                       {"seat": seat, "kept": list(cards), "returned": rest}, to=(seat,)))
        self._settle(state, seat, f, rng, ev)

    def _do_sink(self, state: State, seat: int, f: Fleet, who: str, c: int, rng: Rng, ev: list[Event]) -> None:
        state["stack"].pop()
        lost = [col for col in f["cargo"] if _caravela_of(col) == c]
        if lost:
            cargo = f["cargo"][:]
            cubes = state["cubes"].copy()
            for col in lost:
                cargo.remove(col)
                cubes[col] += 1
            f["cargo"] = cargo
            state["cubes"] = cubes
        f["sunk"] = sorted([*f["sunk"], c])
        if not lost:
            said = i18n.text("{player}'s caravela {n} sinks.", player=who, n=c)
        else:
            places = " and ".join(B.name(B.CUBES[col]["place"]) for col in lost)
            said = i18n.text("{player}'s caravela {n} sinks; its {cubes} cubes go back to {places}." if len(lost) > 1
                             else "{player}'s caravela {n} sinks; its {cubes} cube goes back to {places}.",
                             player=who, n=c, cubes=_colours(lost, " and "), places=places)
        ev.append(_say("sink", said, {"seat": seat, "caravela": c, "cubes": lost}))
        if len(f["sunk"]) == len(B.CARAVELAS):
            f["at"] = B.LISBON
            f["sunk"] = []
            f["drew"] = False
            ev.append(_say("wreck", i18n.text("All of {player}'s caravelas are sunk: the fleet returns to Lisboa, "
                                              "the black tokens are removed and the turn ends.", player=who),
                           {"seat": seat}))
            self._end_moves(state, seat, f, rng, ev)
        else:
            self._settle(state, seat, f, rng, ev)

    def _do_deliver(self, state: State, seat: int, f: Fleet, who: str, ev: list[Event]) -> None:
        cargo = f["cargo"]
        pts = sum(B.CUBES[c]["points"] for c in cargo)
        greens = 0
        cubes = state["cubes"].copy()
        for c in cargo:
            if c == "green":
                state["monastery"] += 1
                greens += 1
            else:
                cubes[c] += 1
        state["cubes"] = cubes
        recovered = f["sunk"]
        f["score"] += pts
        parts: list[Any] = []
        if cargo:
            parts.append(word("{cubes} for {points} points ({score})", cubes=_colours(cargo), points=pts,
                              score=f["score"]))
            if greens:
                parts.append(word("the green cube goes to the Jerónimos Monastery ({n}/{of})",
                                  n=state["monastery"], of=state["greens"]))
        if recovered:
            parts.append(word("caravelas {numbers} recovered" if len(recovered) > 1 else "caravela {numbers} recovered",
                              numbers=", ".join(map(str, recovered))))
        ev.append(_say("deliver", i18n.text("{player} delivers in Lisboa: {what}.", player=who,
                                            what={"items": parts, "sep": "; "}) if cargo
                       else i18n.text("{player} delivers in Lisboa; {what}.", player=who,
                                      what={"items": parts, "sep": "; "}),
                       {"seat": seat, "cargo": list(cargo), "points": pts, "recovered": list(recovered)}))
        f["cargo"] = []
        f["sunk"] = []
        self._check_ending(state, seat, ev)

    # ---- turn flow ------------------------------------------------------------------------------

    def _settle(self, state: State, seat: int, f: Fleet, rng: Rng, ev: list[Event]) -> None:
        """After a step: if the player has nothing left to decide this turn, end the movement."""
        if state["stack"][-1]["k"] != "move":
            return
        if f["hand"] or self._can_draw(state, f) or self._can_deliver(f):
            return
        self._end_moves(state, seat, f, rng, ev)

    def _end_moves(self, state: State, seat: int, f: Fleet, rng: Rng, ev: list[Event]) -> None:
        if f["hand"]:
            state["stack"] = [{"k": "cards"}]
        else:
            state["stack"] = []
            self._finish_turn(state, seat, f, rng, ev)

    def _finish_turn(self, state: State, seat: int, f: Fleet, rng: Rng, ev: list[Event]) -> None:
        n = len(state["players"])
        who = state["players"][seat]
        state["turns"] += 1
        state["used"] = []
        if state["ending"] and seat == (state["first"] - 1) % n:
            state["over"] = True
            state["stack"] = []
            ev.append(_say("over", i18n.text("The round is complete: the game is over."), {}))
            return
        need = B.HAND - len(f["hand"])
        if need:
            got = []
            for _ in range(need):
                if not state["mdeck"]:
                    deck = state["mdisc"]
                    state["mdisc"] = []
                    rng.shuffle(deck)
                    state["mdeck"] = deck
                    ev.append(_say("reshuffle", i18n.text("The movement deck is empty: the discard pile is "
                                                          "shuffled into a new deck."), {}))
                got.append(state["mdeck"].pop())
            f["hand"] = sorted([*f["hand"], *got])
            ev.append(_say("refill", i18n.text("{player} draws {cards}.", player=who,
                                               cards=_counted(need, "{n} movement card", "{n} movement cards")),
                           {"seat": seat, "count": need}))
            ev.append(_say("cards", i18n.text("You draw {cards}; your movement cards: {hand}.",
                                              cards=", ".join(map(str, got)), hand=", ".join(map(str, f["hand"]))),
                           {"seat": seat, "cards": got}, to=(seat,), reveals=True))
        nxt = (seat + 1) % n
        state["turn"] = nxt
        state["stack"] = [{"k": "move"}]
        ev.append(_say("turn", i18n.text("{player}'s turn.", player=state["players"][nxt]), {"seat": nxt}))

    def _check_ending(self, state: State, seat: int, ev: list[Event]) -> None:
        if state["ending"]:
            return
        target = state["options"]["target"]
        if state["fleets"][seat]["score"] >= target:
            state["ending"] = "points"
            ev.append(_say("ending", i18n.text("{player} has {score} points (target {target}): the game ends when "
                                               "this round is complete.", player=state["players"][seat],
                                               score=state["fleets"][seat]["score"], target=target), {"seat": seat}))
        elif state["monastery"] >= state["greens"]:
            state["ending"] = "monastery"
            ev.append(_say("ending", i18n.text("The last green cube is in the Jerónimos Monastery: the game ends when "
                                               "this round is complete."), {"seat": seat}))

    # ---- outcome -----------------------------------------------------------------------------------

    @staticmethod
    def final_scores(state: State) -> list[int]:
        return [f["score"] + B.END_CUBE_POINTS * len(f["cargo"]) + B.END_CARD_POINTS * len(f["disc"])
                for f in state["fleets"]]

    def score_breakdown(self, state: State) -> dict[int, dict[str, float]]:
        if not state["over"]:
            return {}
        out: dict[int, dict[str, float]] = {}
        for s, f in enumerate(state["fleets"]):
            found = sum(B.DISCOVERIES[c]["points"] for c in f["found"])
            # (English keys, stored with the outcome: the doors translate them, engine.i18n.translate)
            out[s] = {N_("discoveries"): found, N_("deliveries in Lisboa"): f["score"] - found,
                      N_("cubes still aboard"): B.END_CUBE_POINTS * len(f["cargo"]),
                      N_("unfulfilled discovery cards"): B.END_CARD_POINTS * len(f["disc"])}
        return out

    def _outcome(self, state: State) -> Outcome | None:
        if not state["over"]:
            return None
        finals = self.final_scores(state)
        keys = {}
        for s, f in enumerate(state["fleets"]):
            greens = sum(1 for c in f["found"] if B.DISCOVERIES[c]["colour"] == "green")
            keys[s] = (finals[s], len(f["found"]), greens)
        groups: list[tuple[int, ...]] = []
        for key in sorted(set(keys.values()), reverse=True):
            groups.append(tuple(s for s in range(len(finals)) if keys[s] == key))
        reason = N_("points") if state["ending"] == "points" else N_("monastery")
        return Outcome(scores={s: finals[s] for s in range(len(finals))}, ranking=tuple(groups), reason=reason)

    # ---- views ---------------------------------------------------------------------------------------

    #: (state object, its version "v", the public part of its views), swapped as one tuple. Only
    #: apply changes a state (and bumps "v"), so a cached part is never stale; code that edits a
    #: state by hand must bump "v" itself. Views share the public part: treat views as read-only.
    _vcache: tuple[Any, int, Any] = (None, -1, None)

    def _view(self, state: State, seat: int | None) -> View:
        cached = self._vcache
        if cached[0] is state and cached[1] == state["v"]:
            public = cached[2]
        else:
            public = self._public(state)
            self._vcache = (state, state["v"], public)
        view: View = public.copy()
        view["seat"] = seat
        stack = state["stack"]
        top = view["step"]
        if seat is not None:
            f = state["fleets"][seat]
            known = state["dknown"][seat]
            me: dict[str, Any] = {"hand": f["hand"], "disc": f["disc"],
                                  "bottom": [[c, state["dpile"].index(c)] for c in known] if known else []}
            if top == "keep" and state["turn"] == seat:
                me["drawn"] = stack[-1]["drawn"]
            view["me"] = me
        return view

    #: the keys of a public view, in their order (filled in by _public)
    _PUBLIC_TEMPLATE: dict[str, Any] = dict.fromkeys((
        "game", "players", "seat", "options", "first", "turn", "turns", "step", "used", "cubes", "greens",
        "monastery", "mdeck", "mdisc", "dpile", "fleets", "ending", "over"))

    def _public(self, state: State) -> View:
        """What everybody sees, the same for every seat.

        Why no copies: the view shares the state's lists and dicts (players, options, used,
        cubes, each fleet's cargo, sunk and found), and every move replaces those rather than
        changing them in place, so a view given out never changes (tests/engine/test_core_view_isolation.py).
        """
        stack = state["stack"]
        view: View = self._PUBLIC_TEMPLATE.copy()
        view["game"] = "caravelas"
        view["players"] = state["players"]
        view["options"] = state["options"]
        view["first"] = state["first"]
        view["turn"] = state["turn"]
        view["turns"] = state["turns"]
        view["step"] = stack[-1]["k"] if stack else None
        view["used"] = state["used"]
        view["cubes"] = state["cubes"]
        view["greens"] = state["greens"]
        view["monastery"] = state["monastery"]
        view["mdeck"] = len(state["mdeck"])
        view["mdisc"] = len(state["mdisc"])
        view["dpile"] = len(state["dpile"])
        fleets = []
        for f in state["fleets"]:
            pf = _FLEET_TEMPLATE.copy()  # (faster than a dict literal, like the view's template)
            pf["at"] = f["at"]
            pf["score"] = f["score"]
            pf["cargo"] = f["cargo"]
            pf["sunk"] = f["sunk"]
            pf["found"] = f["found"]
            pf["hand"] = len(f["hand"])
            pf["disc"] = len(f["disc"])
            pf["drew"] = f["drew"]
            fleets.append(pf)
        view["fleets"] = fleets
        view["ending"] = state["ending"]
        view["over"] = state["over"]
        if state["over"]:
            out = self._outcome(state)
            assert out is not None
            view["outcome"] = out.as_dict()
            view["final"] = self.final_scores(state)
        return view

    # ---- hidden information ---------------------------------------------------------------------

    def resample_hidden(self, state: State, seat: int | None, rng: Rng) -> State:
        s = copy.deepcopy(state)
        n = len(s["players"])
        others = [o for o in range(n) if o != seat]
        fleets = s["fleets"]
        # movement cards: the deck and the other players' hands
        pool = list(s["mdeck"])
        for o in others:
            pool.extend(fleets[o]["hand"])
        rng.shuffle(pool)
        for o in others:
            k = len(fleets[o]["hand"])
            fleets[o]["hand"] = sorted(pool[:k])
            del pool[:k]
        s["mdeck"] = pool
        # discovery cards: the pile except what this seat returned, others' hands, others' drawn cards
        pile = s["dpile"]
        mine = set(s["dknown"][seat]) if seat is not None else set()
        free = [i for i, c in enumerate(pile) if c not in mine]
        owner_pos = {o: [pile.index(c) for c in s["dknown"][o]] for o in others}
        unknown = [pile[i] for i in free]
        for o in others:
            unknown.extend(fleets[o]["disc"])
        top: dict[str, Any] = s["stack"][-1] if s["stack"] else {"k": None}
        drawn_hidden = top["k"] == "keep" and s["turn"] != seat
        if drawn_hidden:
            unknown.extend(top["drawn"])
        rng.shuffle(unknown)
        for i in free:
            pile[i] = unknown.pop()
        for o in others:
            k = len(fleets[o]["disc"])
            fleets[o]["disc"] = [unknown.pop() for _ in range(k)]
        if drawn_hidden:
            top["drawn"] = [unknown.pop() for _ in range(len(top["drawn"]))]
        assert not unknown
        for o in others:
            s["dknown"][o] = [pile[i] for i in owner_pos[o]]
        s["rng"] = seed_to_state(rng.below(1 << 62))
        return s

    # ---- notation -----------------------------------------------------------------------------------
    # The shared layer (engine.notation) reads whole lines against the options; this game gives it
    # its words (VOCABULARY), other ways to name an option (_readings) and its refusals (_explain).

    vocabulary = VOCABULARY

    @staticmethod
    def _why_no_draw(state: State, f: Fleet) -> str:
        if f["at"] not in B.DRAW_PLACES:
            return _("discovery cards can be drawn only in Lisboa or Calecute")
        if f["drew"]:
            return _("you have already drawn discovery cards at this stop")
        if len(f["disc"]) >= B.MAX_DISC:
            return _("you already hold {n} discovery cards, the most allowed").format(n=B.MAX_DISC)
        return _("the discovery pile is empty")

    def _readings(self, state: State, seat: int, option: Option) -> list[str]:
        m = option.move
        act = m["act"]
        if act == "deliver":
            return ["deliver cargo recover caravelas"]
        if act == "keep":
            drawn = state["stack"][-1]["drawn"]
            out = [option.label, "keep " + " ".join(str(drawn.index(c) + 1) for c in m["cards"])]
            if len(m["cards"]) == len(drawn):
                out.append("keep all")
            return out
        if act == "cards":
            hand = state["fleets"][seat]["hand"]
            ret = m["return"]
            kept = list(hand)
            for v in ret:
                kept.remove(v)
            out = [option.label]
            if not ret:
                out += ["keep all", "return none", "keep " + " ".join(map(str, hand))]
            elif not kept:
                out += ["return all", "keep none", "return " + " ".join(map(str, hand))]
            else:
                out.append("keep " + " ".join(map(str, kept)))
            return out
        return [option.label]

    def _explain(self, state: State, seat: int, line: notation.Line, options: list[Option]) -> str | None:
        f = state["fleets"][seat]
        k = state["stack"][-1]["k"]
        terms = line.terms()
        nums = line.numbers()
        places = sorted(t for t in terms if t in B.NODES)  # (sorted: a set's order depends on the hash seed)
        if k == "move":
            if "draw" in terms and DRAW not in options:
                return self._why_no_draw(state, f)
            if "deliver" in terms and DELIVER not in options:
                return (_("you can deliver only in Lisboa") if f["at"] != B.LISBON
                        else _("you have no cargo and no sunk caravela to deliver or recover"))
            hand = ", ".join(map(str, f["hand"])) or _("none")
            for v in nums:
                if v not in f["hand"]:
                    return _("you have no {v} card; your movement cards are {hand}").format(v=v, hand=hand)
            at = f["at"]
            if len(nums) == 1 and len(places) == 1:
                v, dest = nums[0], places[0]
                reach = ", ".join(B.name(d) for d in B.REACH[at][v])
                return _("{place} cannot be reached with the {v} from {start} (the whole value must be used, without "
                         "passing a circle twice, stopping at the Cape); with the {v} you can reach: {reach}").format(
                    place=B.name(dest), v=v, start=B.name(at), reach=reach)
            if not nums and len(places) == 1:
                return _("{place} cannot be reached from {start} with your cards ({hand})").format(
                    place=B.name(places[0]), start=B.name(at), hand=hand)
            return None
        if k == "sink":
            for c in nums:
                if c in f["sunk"]:
                    return _("caravela {n} is already sunk").format(n=c)
                if c not in B.CARAVELAS:
                    return _("there is no caravela {n}: they are numbered {first} to {last}").format(
                        n=c, first=B.CARAVELAS[0], last=B.CARAVELAS[-1])
            return None
        if k == "keep":
            drawn = state["stack"][-1]["drawn"]
            room = min(B.MAX_DISC - len(f["disc"]), len(drawn))
            for n in nums:
                if not 1 <= n <= len(drawn):
                    return _("there is no card {n}: you drew {drawn}").format(n=n, drawn=len(drawn))
            shown = ", ".join(B.name(c) for c in drawn)
            for p in places:
                if p not in drawn:
                    return _("{place} is not one of the cards you drew ({shown})").format(place=B.name(p), shown=shown)
            if "all" in terms or len(nums) + len(places) > room:
                held = len(f["disc"])
                if room == 1:
                    return _("you can keep only one more discovery card (you hold {held} of {most})").format(
                        held=held, most=B.MAX_DISC)
                return _("you can keep at most {room} of the cards you drew (you hold {held} of {most})").format(
                    room=room, held=held, most=B.MAX_DISC)
            return None
        hand = ", ".join(map(str, f["hand"]))
        counts = {v: nums.count(v) for v in nums}
        for v, c in counts.items():
            if f["hand"].count(v) < c:
                have = f["hand"].count(v)
                if not have:
                    return _("you have no {v} card; your cards: {hand}").format(v=v, hand=hand)
                return ngettext("you have only {n} card of {v}; your cards: {hand}",
                                "you have only {n} cards of {v}; your cards: {hand}", have).format(
                    n=have, v=v, hand=hand)
        return None

    # ---- bot ---------------------------------------------------------------------------------------------

    def bot_choice(self, state: State, seat: int, options: list[Option], rnd: random.Random) -> Option:
        """A simple seeded bot: sail towards discoveries and cubes, bring cargo home."""
        from .bot import choose
        return choose(state, seat, options, rnd)

    # ---- rendering ------------------------------------------------------------------------------------

    def _render_text(self, view: View) -> str:
        from .render import render_text
        return render_text(view)

    def _render_svg(self, view: View) -> str:
        from .render import render_svg
        return render_svg(view)

    def _render_phone_svg(self, view: View) -> list[str]:
        from .render import render_phone_svg
        return render_phone_svg(view)

    def _render_mail_svg(self, view: View) -> str:
        from .mail_picture import render_mail_svg
        return render_mail_svg(view)


RULES = Caravelas()
