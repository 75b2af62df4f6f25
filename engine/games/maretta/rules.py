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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import filterfalse
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
from engine.errors import SetupError
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
    card_word,
    suit,
    value,
)
from engine.games.maretta.explain import explain
from engine.games.maretta.tables import (
    _AFTER,
    _AUTO_SINGLE,
    _CLOCKWISE,
    _DISCARD,
    _GIVE,
    _LOOK,
    _MOVE_INSTEAD,
    _OF_SUIT,
    _PLAY,
    _STEAL,
    _SUIT,
    _SWAP,
    _TAKE,
    _TAKE_FROM,
    _VALUE,
    VOCABULARY,
    Frame,
    _distinct,
    _Events,
    _put,
    _without,
)
from engine.games.maretta.views import describe, public, resample_hidden
from engine.i18n import N_, _, ngettext, word
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
    notation_help = (
        "Write one move per line, for example: play 3 wood / give 1 water to bob / "
        "steal 4 rope from carla / move / barrel 2 / take rope from carla / discard 2 fire / "
        "look at bob / swap with bob, or just the option code shown in the list."
    )

    # ---- setup ---------------------------------------------------------------------

    def _check_option_combination(self, n_players: int, options: dict[str, Any]) -> None:
        for key, end, what in (("reefs", options["steamship"], "Coral Reef"),
                               ("crevasses", DATA["B"]["end"], "Crevasse")):
            vals = options[key]
            if len(vals) > 2:
                raise SetupError(f"option {key}: there are only 2 {what}s, not {len(vals)}")
            if len(set(vals)) != len(vals):
                raise SetupError(f"option {key}: two {what}s cannot lie at the same place ({vals})")
            if key == "reefs" and options["side"] == "B":
                continue
            for v in vals:
                if not 0 <= v < end:
                    raise SetupError(f"option {key}: a {what} must lie after a space from 0 to {end - 1}, "
                                     f"not after {v}")
            options[key] = sorted(vals)

    def _setup(self, st: State, rng: Rng) -> None:
        opts = st["options"]
        n = len(st["players"])
        side = opts["side"]
        cards = all_resource_cards()
        rng.shuffle(cards)
        if side == "A":
            keep = DATA["keep_resource_cards"][str(n)]
            deck, box = cards[:keep], cards[keep:]
            deck += [SHIP] * n
            rng.shuffle(deck)
            end, reefs = opts["steamship"], opts["reefs"]
            kinds = [k for k, c in DATA["barrels"].items() for _ in range(c)]
        else:
            deck, box = cards, []
            end, reefs = DATA["B"]["end"], opts["crevasses"]
            kinds = [k for k, c in DATA["barrels"].items() if k not in DATA["side_b_removes"]
                     for _ in range(c)]
        rng.shuffle(kinds)
        spots = [p for p in DATA[side]["barrel_spots"] if p < end]
        bar: dict[str, list[list[Any]]] = {}
        for i, p in enumerate(spots):
            zone = sum(1 for r in reefs if r < p)
            if not reefs:
                ups = (False, False)  # placed face down; nothing tells to turn any over
            elif zone == 0:
                ups = (False, False) if side == "A" else (True, True)
            elif zone == len(reefs):
                ups = (True, True) if side == "A" else (False, False)
            else:
                ups = (True, False)
            bar[str(p)] = [[kinds[2 * i], ups[0]], [kinds[2 * i + 1], ups[1]]]
        start = rng.below(n)
        st.update({
            "side": side, "end": end, "reefs": list(reefs), "turn": 1, "phase": 1, "start": start,
            "pos": [0] * n, "hand": [[] for _ in range(n)], "stock": [[] for _ in range(n)],
            "deck": deck, "box": box, "disc": [],
            "p1": [None] * n, "p1d": [False] * n, "p2": [None] * n, "mv": [0] * n,
            "bar": bar, "bbox": kinds[2 * len(spots):], "bdisc": [], "bdv": [], "bseen": [None] * n,
            "barv": {k: [b[0] if b[1] else "?" for b in v] for k, v in bar.items()},
            "cut": [False] * n, "cutn": [False] * n, "cutp": [False] * n, "cutk": [None] * n,
            "known": [{} for _ in range(n)],
            "out": [None] * n,
            "lava": -opts["lava_start"] if side == "B" else None,
            "lspd": opts["lava_speed"] if side == "B" else None,
            "todo": [], "over": None, "v": 0,
        })
        for _round in range(HAND):
            for j in range(n):
                st["hand"][(start + j) % n].append(deck.pop())
        st["todo"].append({"t": "turn"})
        self._run(st, _Events())

    # ---- helpers ---------------------------------------------------------------------

    def _name(self, st: State, s: int) -> str:
        return str(st["players"][s])

    @staticmethod
    def _alive(st: State) -> list[int]:
        out = st["out"]
        return [s for s in range(len(out)) if out[s] is None]

    @staticmethod
    def _order(st: State) -> Sequence[int]:
        """Active seats clockwise from the starting player."""
        out = st["out"]
        if out.count(None) != len(out):  # somebody is out (side B)
            return [s for s in _CLOCKWISE[len(out)][st["start"]] if out[s] is None]
        return _CLOCKWISE[len(out)][st["start"]]

    def _forget(self, st: State, s: int, card: str) -> None:
        """A card of seat s became public: it is no longer 'known to be in s's hand'."""
        known = st["known"]
        if not any(known):  # nobody has looked at a hand (the usual case)
            return
        key = str(s)
        for k in known:
            lst = k.get(key)
            if lst and card in lst:
                lst.remove(card)

    def _add_stock(self, st: State, s: int, card: str, ev: _Events) -> None:
        stock = [*st["stock"][s], card]
        if st["side"] == "B":
            su = card[1:]
            of_suit = _OF_SUIT[su].__contains__
            same = list(filter(of_suit, stock))
            total = sum(map(_VALUE.__getitem__, same))
            if total > 5:
                gone = same
                stock = list(filterfalse(of_suit, stock))
                st["disc"] = [*st["disc"], *gone]
                _put(st, "stock", s, stock)
                ev.say("stack_discarded", i18n.text(
                    "{player}'s {suit} stack adds up to {total}, more than 5: it is discarded ({cards})",
                    player=self._name(st, s), suit=word(SUITS[su]), total=total, cards=[card_word(c) for c in gone]),
                    seat=s, cards=gone)
                return
        _put(st, "stock", s, stock)

    def _move(self, st: State, s: int, n: int, ev: _Events, why: dict[str, Any]) -> None:
        old = st["pos"][s]
        end = st["end"]
        new = min(old + n, end)
        steps = new - old
        trail = st.get("trail")
        if trail is not None and steps > 0:  # the spaces passed through, for the board's trail
            _put(st, "trail", s, [*trail[s], *range(old + 1, new + 1)])
        if steps:
            _put(st, "pos", s, new)
        if n == 0:
            ev.say("move", i18n.text("{player} does not move ({why})", player=self._name(st, s), why=why),
                   seat=s, to_space=new)
            return
        ev.say("move", i18n.text("{player} moves {steps} ({why}) to {place}", player=self._name(st, s),
                                 steps=_spaces(steps), why=why, place=self._where_word(st, new)),
               seat=s, steps=steps, to_space=new)
        if steps > 0 and st["bar"].get(str(new)):
            st["todo"].append({"t": "barrel", "s": s, "at": new})

    def _where_word(self, st: State, p: int) -> dict[str, Any]:
        if p >= st["end"]:
            return word(str(DATA[st["side"]]["end_name"]))
        if p == 0:
            return word(str(DATA[st["side"]]["start_name"]))
        return word("space {n}", n=p)

    def _where(self, st: State, p: int) -> str:
        if p >= st["end"]:
            return str(DATA[st["side"]]["end_name"])
        if p == 0:
            return str(DATA[st["side"]]["start_name"])
        return f"space {p}"

    # ---- the step machine --------------------------------------------------------------

    def _run(self, st: State, ev: _Events) -> None:
        todo = st["todo"]
        while todo and st["over"] is None:
            f = todo[-1]
            t = f["t"]
            if t in _AUTO_SINGLE:
                moves = self._moves(st, f)
                if len(moves) > 1:
                    return
                todo.pop()
                if moves:
                    self._decide(st, f, moves[0][1], ev)
                else:
                    self._nothing(st, f, ev)
                continue
            if t in ("p1", "place", "play", "steal"):
                return
            todo.pop()
            _STEPS[t](self, st, f, ev)

    def _nothing(self, st: State, f: Frame, ev: _Events) -> None:
        t = f["t"]
        who = self._name(st, f["s"])
        msg = {
            "barrel": lambda: i18n.text("the barrels at space {n} are gone", n=f.get("at")),
            "monkey": lambda: i18n.text("no opponent of {player} has a card in stock: the Monkey finds nothing",
                                        player=who),
            "troop": lambda: i18n.text("{other}'s stock is empty: {player} takes nothing", player=who,
                                       other=self._name(st, f["v"] if "v" in f else f["s"])),
            "discard": lambda: i18n.text("{player} has no card in stock to discard", player=who),
            "pelican": lambda: i18n.text("{player} has no opponent to look at: the Pelican has no effect",
                                         player=who),
            "spear": lambda: i18n.text("nobody is in front of {player}: the Fishing Spear has no effect",
                                       player=who),
        }[t]()
        if "h" in f:
            # A barrel taken face down that does nothing leaves nothing the table can see: why it
            # did nothing would name it (a Monkey, a Spear; one discard line or two), so only its
            # taker is told.
            ev.say("no_effect", msg, to=(self._taker(f),), seat=f["s"])
            return
        ev.say("no_effect", msg, seat=f["s"])

    @staticmethod
    def _taker(f: Frame) -> int:
        """Who took the face-down barrel whose effect this step is (older states: the step's seat)."""
        by = f.get("by")
        return int(by) if by is not None else int(f["s"])

    # turn structure ---------------------------------------------------------------------

    def _step_turn(self, st: State, f: Frame, ev: _Events) -> None:
        n = len(st["pos"])
        st["p1"] = [None] * n
        st["p1d"] = [False] * n
        st["p2"] = [None] * n
        st["mv"] = [0] * n
        st["trail"] = [[p] for p in st["pos"]]
        st["phase"] = 1
        todo = st["todo"]
        if st["side"] == "A":
            st["cut"] = st["cutn"]
            st["cutn"] = [False] * n
            st["cutp"] = [False] * n
            st["cutk"] = [None] * n
            ev.say("turn", i18n.text("Turn {turn} begins; {player} is the starting player. Phase one: everybody "
                                     "puts a card face down in position 1.", turn=st["turn"],
                                     player=self._name(st, st["start"])), turn=st["turn"])
            todo.append({"t": "p1"})
        else:
            ev.say("turn", i18n.text("Turn {turn} begins; {player} is the starting player. Phase one: each "
                                     "player puts a card on an opponent's minecart.", turn=st["turn"],
                                     player=self._name(st, st["start"])), turn=st["turn"])
            todo.append({"t": "p3B"})
            todo.append({"t": "nextB2", "i": 0})
            todo.append({"t": "nextP", "i": 0})

    def _step_nextP(self, st: State, f: Frame, ev: _Events) -> None:
        """Next player to place a card in someone's position 2."""
        order = self._order(st)
        i = f["i"]
        if i >= len(order):
            if st["side"] == "A":
                st["todo"].append({"t": "p3A"})
            return
        s = order[i]
        st["todo"].append({"t": "nextP", "i": i + 1})
        if not st["hand"][s]:
            ev.say("skip", i18n.text("{player} has no card to place", player=self._name(st, s)), seat=s)
            return
        st["todo"].append({"t": "place", "s": s})

    def _targets(self, st: State, s: int) -> list[int]:
        p2 = st["p2"]
        out = st["out"]
        free = [t for t in _AFTER[len(p2)][s] if p2[t] is None and out[t] is None]
        return free or [s]

    def _step_recvA(self, st: State, f: Frame, ev: _Events) -> None:
        r = f["r"]
        c1, c2 = st["p1"][r], st["p2"][r]
        if st["p1d"][r]:
            _put(st, "p1d", r, False)
            self._forget(st, r, c1)
            ev.say("reveal", i18n.text("{player} turns over the face-down card in position 1: {card}",
                                       player=self._name(st, r), card=card_word(c1)), reveals=True, seat=r, card=c1)
        d = abs(value(c1) - value(c2))
        _put(st, "mv", r, d)
        self._move(st, r, d, ev, word("difference between {a} and {b}", a=card_word(c1), b=card_word(c2)))

    def _step_placerA(self, st: State, f: Frame, ev: _Events) -> None:
        s, r = f["s"], f["r"]
        if s == r:
            return
        card = st["p2"][r]
        if card != SHIP and card in st["stock"][r]:
            st["todo"].append({"t": "steal", "s": s, "r": r})
            return
        self._move(st, s, 2, ev, word("for placing a card"))

    def _step_p3A(self, st: State, f: Frame, ev: _Events) -> None:
        n = len(st["pos"])
        st["phase"] = 3
        p1, p2 = st["p1"], st["p2"]
        winners: set[int] = set()
        reason = ""
        if SHIP in p1 or SHIP in p2:
            scores = []
            for s in range(n):
                kinds = len({c[1:] for c in st["stock"][s]})
                scores.append(st["mv"][s] + kinds)
            boarders = [s for s in range(n) if scores[s] >= 7]
            detail = [f"{self._name(st, s)} {st['mv'][s]}+{scores[s] - st['mv'][s]}={scores[s]}" for s in range(n)]
            if boarders:
                ev.say("steamship", i18n.text("A Steamship passes! Scores (movement + resource types in stock): "
                                              "{detail}. Boarding: {players}", detail=detail,
                                              players=[self._name(st, s) for s in boarders]),
                       scores=scores, boarders=boarders)
                winners.update(boarders)
                reason = "steamship card"
            else:
                ev.say("steamship", i18n.text("A Steamship passes, but nobody reaches 7 (movement + resource types "
                                              "in stock: {detail}); the Steamship card is discarded", detail=detail),
                       scores=scores, boarders=[])
        token = [s for s in range(n) if st["pos"][s] >= st["end"]]
        if token:
            winners.update(token)
            reason = reason + " and steamship token" if reason else "steamship token"
        if winners:
            self._finish(st, sorted(winners), reason, ev)
            return
        for s in range(n):
            for c in (p1[s], p2[s]):
                if c is None:
                    continue
                if c == SHIP:
                    st["disc"] = [*st["disc"], c]
                else:
                    self._add_stock(st, s, c, ev)
        st["p1"] = [None] * n
        st["p2"] = [None] * n
        ev.say("stock", i18n.text("Everybody moves the cards of their raft into their stock."))
        st["start"] = (st["start"] + 1) % n
        if len(st["deck"]) < 2 * n:
            best = max(st["pos"])
            ev.say("deck_out", i18n.text("The deck cannot supply two cards to everybody: the game ends."))
            self._finish(st, [s for s in range(n) if st["pos"][s] == best], "deck exhausted", ev)
            return
        for j in range(n):
            s = (st["start"] + j) % n
            drawn = [st["deck"].pop(), st["deck"].pop()]
            st["hand"][s].extend(drawn)
            ev.say("draw", i18n.text("You draw {a} and {b}", a=card_word(drawn[0]), b=card_word(drawn[1])),
                   to=(s,), reveals=True, cards=drawn)
        ev.say("draws", i18n.text("Everybody draws 2 cards; {player} becomes the starting player.",
                                  player=self._name(st, st["start"])))
        st["turn"] += 1
        st["todo"].append({"t": "turn"})

    # side B -------------------------------------------------------------------------------

    def _legalB(self, st: State, s: int) -> list[str]:
        c2 = st["p2"][s]
        hand = st["hand"][s]
        if c2 is None:
            return _distinct(hand)
        v2, s2 = c2[0], c2[1:]
        return _distinct([c for c in hand if c[0] != v2 and c[1:] != s2])

    def _step_nextB2(self, st: State, f: Frame, ev: _Events) -> None:
        order = self._order(st)
        i = f["i"]
        st["phase"] = 2
        if i == 0:
            ev.say("phase", i18n.text("Phase two: each player puts a card of their own in position 1, sharing "
                                      "neither suit nor number with their position 2."))
        if i >= len(order):
            return
        s = order[i]
        st["todo"].append({"t": "nextB2", "i": i + 1})
        if not st["hand"][s]:
            ev.say("skip", i18n.text("{player} has no card in hand and plays nothing in position 1",
                                     player=self._name(st, s)), seat=s)
        elif not self._legalB(st, s):
            ev.say("skip", i18n.text("{player} holds no card that may go in position 1 and plays nothing",
                                     player=self._name(st, s)), reveals=True, seat=s)
        else:
            st["todo"].append({"t": "play", "s": s})

    def _step_p3B(self, st: State, f: Frame, ev: _Events) -> None:
        st["phase"] = 3
        order = self._order(st)
        p1 = st["p1"] = st["p1"][:]  # replaced, never changed in place (views share them)
        p2 = st["p2"] = st["p2"][:]
        for s in order:
            for cards in (p2, p1):
                c = cards[s]
                if c is not None:
                    cards[s] = None
                    self._add_stock(st, s, c, ev)
        ev.say("stock", i18n.text("Phase three: everybody moves the cards of their minecart into their stock."))
        todo = st["todo"]
        todo.append({"t": "p4B"})
        for s in reversed(order):
            todo.append({"t": "moveB", "s": s})

    def _step_moveB(self, st: State, f: Frame, ev: _Events) -> None:
        s = f["s"]
        k = len(set(map(_SUIT.__getitem__, st["stock"][s])))  # the suits in stock
        _put(st, "mv", s, k)
        self._move(st, s, k, ev, word("{stacks} in stock", stacks=_stacks(k)))

    def _step_p4B(self, st: State, f: Frame, ev: _Events) -> None:
        st["phase"] = 4
        n = len(st["pos"])
        opts = st["options"]
        old = st["lava"]
        speed = st["lspd"]
        new = old + speed
        crossed = sum(1 for c in st["reefs"] if old <= c < new)
        st["lava"] = new
        there = self._where_word(st, new) if new >= 0 else word("{n} spaces behind the village", n=-new)
        if crossed and opts["lava_crevasse_change"]:
            st["lspd"] = max(1, speed + crossed * opts["lava_crevasse_change"])
            said = i18n.text("Phase four: the lava flows {n} spaces to {place}; it crossed a crevasse and will now "
                             "flow {speed} spaces a turn", n=speed, place=there, speed=st["lspd"])
        else:
            said = i18n.text("Phase four: the lava flows {n} spaces to {place}", n=speed, place=there)
        ev.say("lava", said, lava=new)
        end = st["end"]
        for s in self._alive(st):
            if st["pos"][s] <= new and st["pos"][s] < end:
                _put(st, "out", s, st["turn"])
                ev.say("caught", i18n.text("{player} is caught by the lava and is out of the game",
                                           player=self._name(st, s)), seat=s)
        alive = self._alive(st)
        sea = [s for s in alive if st["pos"][s] >= end]
        if sea:
            self._finish(st, sea, "reached the sea", ev)
            return
        if len(alive) == 1:
            self._finish(st, alive, "last survivor", ev)
            return
        if not alive:
            last = [s for s in range(n) if st["out"][s] == st["turn"]]
            best = max(st["pos"][s] for s in last)
            self._finish(st, [s for s in last if st["pos"][s] == best], "nobody survived", ev)
            return
        s = st["start"]
        for j in range(1, n + 1):
            t = (s + j) % n
            if st["out"][t] is None:
                st["start"] = t
                break
        for s in self._order(st):
            hand = st["hand"][s]
            drawn = []
            while len(hand) < HAND:
                if not st["deck"]:
                    if not st["disc"]:
                        break
                    st["deck"] = st["disc"][:]  # a copy: it is shuffled in place, and views share the pile
                    st["disc"] = []
                    Rng(st).shuffle(st["deck"])
                    ev.say("reshuffle", i18n.text("The draw pile is empty: the discard pile ({n} cards) is "
                                                  "shuffled into a new draw pile.", n=len(st["deck"])))
                c = st["deck"].pop()
                hand.append(c)
                drawn.append(c)
            if drawn:
                ev.say("draw", i18n.text("You draw {cards}", cards=[card_word(c) for c in drawn]), to=(s,),
                       reveals=True, cards=drawn)
        ev.say("draws", i18n.text("Everybody draws up to {n} cards; {player} becomes the starting player.",
                                  n=HAND, player=self._name(st, st["start"])))
        st["turn"] += 1
        st["todo"].append({"t": "turn"})

    # the end ----------------------------------------------------------------------------

    def _finish(self, st: State, winners: list[int], reason: str, ev: _Events) -> None:
        n = len(st["pos"])
        pos = st["pos"]
        out = st["out"]
        rest = [s for s in range(n) if s not in winners]

        def key(s: int) -> tuple[int, int, int]:
            # alive before out; later elimination before earlier; further along first
            return (1 if out[s] is None else 0, out[s] or 0, pos[s])

        groups: list[list[int]] = [sorted(winners)]
        for s in sorted(rest, key=key, reverse=True):
            if groups[-1] and groups[-1][0] not in winners and key(groups[-1][0]) == key(s):
                groups[-1].append(s)
            else:
                groups.append([s])
        groups = [sorted(g) for g in groups]
        st["over"] = {"winners": sorted(winners), "reason": reason, "ranking": groups,
                      "scores": list(pos)}
        st["todo"] = []
        ev.say("game_over", i18n.text("The game ends ({reason}). Winners: {players}" if len(winners) > 1
                                      else "The game ends ({reason}). Winner: {players}", reason=word(reason),
                                      players=[self._name(st, s) for s in sorted(winners)]),
               winners=sorted(winners), reason=reason)

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
        moves = self._moves(st, f, seat)
        self._ocache = (st, st["v"], seat, moves)
        return [new_option(code, label, m.copy()) for (code, m), label in zip(moves, self._labels(st, f, moves))]

    def _moves(self, st: State, f: Frame, seat: int | None = None) -> list[tuple[str, Move]]:
        """The legal moves of a step as (code, move) pairs; labels come separately (see _labels).

        The pairs are the shared ones of the tables below (_PLAY, _GIVE...): read them, never
        change them, never hand their moves out (_options gives copies).
        """
        t = f["t"]
        if t == "p1":
            return [_PLAY[c] for c in _distinct(st["hand"][seat])]
        s = f["s"]
        if t == "place":
            targets = self._targets(st, s)
            return [_GIVE[c, p] for c in _distinct(st["hand"][s]) for p in targets]
        if t == "play":
            return [_PLAY[c] for c in self._legalB(st, s)]
        if t == "steal":
            r = f["r"]
            return [*(_STEAL[c, r] for c in _distinct(st["stock"][r])), _MOVE_INSTEAD]
        if t == "barrel":
            bs = st["bar"].get(str(f["at"])) or ()
            return [(f"b{i}", {"a": "barrel", "b": i}) for i in range(1, len(bs) + 1)]
        if t == "monkey":
            stock = st["stock"]
            return [_TAKE_FROM[c, p] for p in self._opponents(st, s) for c in _distinct(stock[p])]
        if t == "troop":
            v = f["v"]
            return [_TAKE[c, v] for c in _distinct(st["stock"][v])]
        if t == "discard":
            return [_DISCARD[c] for c in _distinct(st["stock"][s])]
        if t == "pelican":
            return [_LOOK[p] for p in self._opponents(st, s)]
        if t == "spear":
            return [_SWAP[p] for p in self._ahead(st, s)]
        raise AssertionError(f"no options for step {t}")

    def _default_move(self, st: State, seat: int, options: list[Option]) -> Option | None:
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

    def _labels(self, st: State, f: Frame, moves: list[tuple[str, Move]]) -> list[str]:
        """How the moves of this step read to a person (unique within the step), in their order."""
        t = f["t"]
        names = st["players"]
        if t in ("p1", "play"):
            return [_("play {card}").format(card=card_name(m["c"])) for _c, m in moves]
        if t == "place":
            s = f["s"]
            own = _("put {card} on your own raft") if st["side"] == "A" else _("put {card} on your own minecart")
            give = _("give {card} to {player}")
            return [own.format(card=card_name(m["c"])) if m["p"] == s
                    else give.format(card=card_name(m["c"]), player=names[m["p"]]) for _c, m in moves]
        if t == "steal":
            return [_("move 2 spaces instead of stealing") if m["a"] == "move"
                    else _("steal {card} from {player}").format(card=card_name(m["c"]), player=names[m["p"]])
                    for _c, m in moves]
        if t == "barrel":
            bs = st["bar"].get(str(f["at"])) or ()
            return [_("take barrel {n} ({barrel})").format(
                n=m["b"], barrel=_(BARREL_NAMES[bs[m["b"] - 1][0]]) if bs[m["b"] - 1][1] else _("face down"))
                for _c, m in moves]
        if t in ("monkey", "troop"):
            return [_("take {card} from {player}").format(card=card_name(m["c"]), player=names[m["p"]])
                    for _c, m in moves]
        if t == "discard":
            return [_("discard {card} from your stock").format(card=card_name(m["c"])) for _c, m in moves]
        if t == "pelican":
            return [_("look at {player}'s hand").format(player=names[m["p"]]) for _c, m in moves]
        if t == "spear":
            return [_("swap places with {player}").format(player=names[m["p"]]) for _c, m in moves]
        raise AssertionError(f"no labels for step {t}")

    def _opponents(self, st: State, s: int) -> Sequence[int]:
        out = st["out"]
        if out.count(None) != len(out):  # somebody is out (side B)
            return [p for p in _AFTER[len(out)][s] if out[p] is None]
        return _AFTER[len(out)][s]

    def _ahead(self, st: State, s: int) -> list[int]:
        pos = st["pos"]
        mine = pos[s]
        ahead = [pos[p] for p in self._opponents(st, s) if pos[p] > mine]
        if not ahead:
            return []
        nearest = min(ahead)
        return [p for p in self._opponents(st, s) if pos[p] == nearest]

    def _apply(self, st: State, seat: int, move: Move, rng: Rng) -> list[Event]:
        f = st["todo"][-1]
        chosen = self._find(st, f, seat, move)  # validates: nothing has changed yet
        st["v"] += 1
        ev = _Events()
        if f["t"] == "p1":
            self._commit(st, seat, chosen["c"], ev)
        else:
            st["todo"].pop()
            self._decide(st, f, chosen, ev)
        self._run(st, ev)
        return list(ev)

    def _find(self, st: State, f: Frame, seat: int, move: Move) -> Move:
        cached = self._ocache
        if cached[0] is st and cached[1] == st["v"] and cached[2] == seat:
            moves = cached[3]
        else:
            moves = self._moves(st, f, seat)
        code = move.get("code")
        for c, m in moves:
            if (c == code) if code is not None else (m == move):
                return m
        options = [Option(c, label, m) for (c, m), label in zip(moves, self._labels(st, f, moves))]
        return option_by_code(options, move).move  # raises, listing them

    def _commit(self, st: State, s: int, card: str, ev: _Events) -> None:
        st["hand"][s].remove(card)
        _put(st, "p1", s, card)
        _put(st, "p1d", s, True)
        ev.say("committed", i18n.text("You put {card} face down in position 1", card=card_word(card)), to=(s,),
               card=card)
        ev.say("chosen", i18n.text("{player} has chosen a card for position 1", player=self._name(st, s)), seat=s)
        n = len(st["pos"])
        p1, hands = st["p1"], st["hand"]
        for t in range(n):
            if p1[t] is None and hands[t]:
                return  # someone is still choosing
        st["todo"].pop()
        shown = []
        p1d = st["p1d"] = st["p1d"][:]  # replaced, never changed in place (views share it)
        for t in range(n):
            c = st["p1"][t]
            if c is None:
                continue
            if st["cut"][t]:
                shown.append(word("{player}: stays face down (cuttlefish)", player=self._name(st, t)))
                continue
            p1d[t] = False
            self._forget(st, t, c)
            shown.append(word("{player}: {card}", player=self._name(st, t), card=card_word(c)))
        ev.say("reveal", i18n.text("All cards are turned over. {shown}", shown={"items": shown, "sep": "; "}),
               reveals=True,
               cards=[None if st["p1d"][t] else st["p1"][t] for t in range(n)])
        st["phase"] = 2
        ev.say("phase", i18n.text("Phase two: clockwise from the starting player, each player puts a card on "
                                  "an opponent's raft in position 2."))
        st["todo"].append({"t": "nextP", "i": 0})

    def _decide(self, st: State, f: Frame, mv: Move, ev: _Events) -> None:
        t = f["t"]
        s = f["s"]
        names = st["players"]
        a = mv["a"]
        if t == "place":
            c, p = mv["c"], mv["p"]
            st["hand"][s].remove(c)
            self._forget(st, s, c)
            _put(st, "p2", p, c)
            raft = st["side"] == "A"
            if p == s:
                said = i18n.text("{player} must put {card} on their own raft" if raft
                                 else "{player} must put {card} on their own minecart",
                                 player=names[s], card=card_word(c))
            else:
                said = i18n.text("{player} puts {card} on {other}'s raft" if raft
                                 else "{player} puts {card} on {other}'s minecart",
                                 player=names[s], card=card_word(c), other=names[p])
            ev.say("place", said, seat=s, to_seat=p, card=c)
            if st["side"] == "A":
                st["todo"].append({"t": "placerA", "s": s, "r": p})
                st["todo"].append({"t": "recvA", "r": p})
        elif t == "play":
            c = mv["c"]
            st["hand"][s].remove(c)
            self._forget(st, s, c)
            _put(st, "p1", s, c)
            ev.say("play", i18n.text("{player} puts {card} in position 1 of their minecart", player=names[s],
                                     card=card_word(c)), seat=s, card=c)
        elif t == "steal":
            if a == "move":
                self._move(st, s, 2, ev, word("for placing a card"))
            else:
                c, r = mv["c"], mv["p"]
                _put(st, "stock", r, _without(st["stock"][r], c))
                ev.say("steal", i18n.text("{player} steals {card} from {other}'s stock instead of moving",
                                          player=names[s], card=card_word(c), other=names[r]),
                       seat=s, from_seat=r, card=c)
                self._add_stock(st, s, c, ev)
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
                ev.say("barrel", i18n.text("{player} takes the {barrel} barrel at space {n}", player=names[s],
                                           barrel=word(BARREL_NAMES[kind]), n=f["at"]), seat=s, at=f["at"], barrel=kind)
            else:
                # the taker looks at it; the others see only its consequences
                ev.say("barrel", i18n.text("{player} takes a face-down barrel from space {n}", player=names[s],
                                           n=f["at"]), seat=s, at=f["at"])
                ev.say("barrel_look", i18n.text("You take a face-down barrel from space {n} and look at it: {barrel}",
                                                n=f["at"], barrel=word(BARREL_NAMES[kind])),
                       to=(s,), reveals=True, seat=s, at=f["at"], barrel=kind)
            self._effect(st, s, kind, ev, not up)
        elif t in ("monkey", "troop"):
            c, p = mv["c"], mv["p"]
            _put(st, "stock", p, _without(st["stock"][p], c))
            ev.say("take", i18n.text("{player} takes {card} from {other}'s stock", player=names[s],
                                     card=card_word(c), other=names[p]), seat=s, from_seat=p, card=c)
            self._add_stock(st, s, c, ev)
        elif t == "discard":
            c = mv["c"]
            _put(st, "stock", s, _without(st["stock"][s], c))
            st["disc"] = [*st["disc"], c]
            ev.say("discard", i18n.text("{player} discards {card} from their stock", player=names[s],
                                        card=card_word(c)), seat=s, card=c)
        elif t == "pelican":
            p = mv["p"]
            hand = sorted(st["hand"][p])
            st["known"][s][str(p)] = list(hand)
            ev.say("pelican", i18n.text("{player} looks at {other}'s hand", player=names[s], other=names[p]),
                   seat=s, at_seat=p)
            ev.say("pelican_look", i18n.text("{other}'s hand: {cards}", other=names[p],
                                             cards=[card_word(c) for c in hand] or word("empty")),
                   to=(s,), reveals=True, at_seat=p, cards=hand)
        elif t == "spear":
            p = mv["p"]
            pos = st["pos"] = st["pos"][:]  # replaced, never changed in place (views share it)
            pos[s], pos[p] = pos[p], pos[s]
            trail = st.get("trail")
            if trail is not None:  # a swap is a jump: the trail goes on from the new place
                trail = st["trail"] = trail[:]
                trail[s], trail[p] = [*trail[s], pos[s]], [*trail[p], pos[p]]
            ev.say("swap", i18n.text("{player} swaps places with {other}: {player} is now at {here}, {other} at "
                                     "{there}", player=names[s], other=names[p], here=self._where_word(st, pos[s]),
                                     there=self._where_word(st, pos[p])), seat=s, with_seat=p)
        else:
            raise AssertionError(t)

    def _effect(self, st: State, s: int, kind: str, ev: _Events, hidden: bool = False) -> None:
        """Resolve a barrel; ``hidden``: it was taken face down, so its steps must not name it."""
        todo = st["todo"]
        mark = len(todo)
        n = len(st["pos"])
        names = st["players"]
        if kind == "mo":
            todo.append({"t": "monkey", "s": s})
        elif kind == "tr":
            for p in reversed(self._opponents(st, s)):
                todo.append({"t": "troop", "s": p, "v": s})
        elif kind == "cu":
            _put(st, "cutn", s, True)
            self._announce_cuttlefish(st, s, [s], hidden)
            ev.say("cuttlefish", i18n.text("Next turn {player} plays their first card face down", player=names[s]),
                   to=(s,) if hidden else None, seat=s)
        elif kind == "sc":
            st["cutn"] = [True] * n
            self._announce_cuttlefish(st, s, list(range(n)), hidden)
            ev.say("cuttlefish", i18n.text("Next turn everybody plays their first card face down"),
                   to=(s,) if hidden else None)
        elif kind == "sh":
            todo.append({"t": "discard", "s": s})
        elif kind == "sx":
            for p in reversed([s, *self._opponents(st, s)]):
                todo.append({"t": "discard", "s": p})
        elif kind == "sp":
            todo.append({"t": "spear", "s": s})
        elif kind == "an":
            todo.append({"t": "discard", "s": s})
            todo.append({"t": "discard", "s": s})
        elif kind == "pe":
            todo.append({"t": "pelican", "s": s})
        else:
            raise AssertionError(kind)
        if hidden:
            for f in todo[mark:]:
                f["h"] = 1
                f["by"] = s

    @staticmethod
    def _announce_cuttlefish(st: State, s: int, seats: list[int], hidden: bool) -> None:
        """Who knows that ``seats`` play their first card face down next turn: the table
        (``cutp``) for a face-up barrel, only its taker (``cutk``) for one taken face down."""
        n = len(st["pos"])
        public = st.setdefault("cutp", list(st["cutn"]))
        known = st.setdefault("cutk", [None] * n)
        if not hidden:
            public = st["cutp"] = public[:]  # replaced, never changed in place (views share it)
            for t in seats:
                public[t] = True
        for u in range(n):
            if hidden and u != s:
                continue
            if known[u] is not None or hidden:
                mine = list(known[u] or public)
                for t in seats:
                    mine[t] = True
                known[u] = mine

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


#: the steps the machine runs by itself (``_run``), by the name a frame gives in "t"
_STEPS: dict[str, Callable[[Maretta, State, Frame, _Events], None]] = {
    name[len("_step_"):]: step for name, step in vars(Maretta).items() if name.startswith("_step_")
}


def _spaces(n: int) -> dict[str, Any]:
    return {"n": n, "one": "{n} space", "other": "{n} spaces"}


def _stacks(n: int) -> dict[str, Any]:
    return {"n": n, "one": "{n} stack", "other": "{n} stacks"}


# (the plural forms above, for the catalogue)
_PLURALS = (ngettext("{n} space", "{n} spaces", 1), ngettext("{n} stack", "{n} stacks", 1))

#: why a game ended (the state keeps the English words; events translate them)
_REASONS = (N_("steamship card"), N_("steamship token"), N_("steamship card and steamship token"),
            N_("deck exhausted"), N_("reached the sea"), N_("last survivor"), N_("nobody survived"), N_("empty"),
            # (the second text of a choice between two, for the catalogue)
            N_("{player} must put {card} on their own minecart"), N_("{player} puts {card} on {other}'s minecart"),
            N_("The game ends ({reason}). Winner: {players}"))
