"""Text and SVG pictures of a Maretta view. They read the view only, so they cannot leak."""

from __future__ import annotations

import functools
import itertools
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import figure, i18n, svg
from engine.figure import Circle, Item, Line, Polyline, Rect
from engine.games.maretta.cards import BARREL_NAMES, DATA, SUITS, card_key, card_name
from engine.i18n import N_, _, ngettext

_SHORT = {"mo": "Mk", "tr": "Tr", "cu": "Cu", "sc": "Sc", "sh": "Sh", "sx": "Sx", "sp": "Sp", "an": "An",
          "pe": "Pe", "?": "?"}
_PHASES = {
    "A": {1: N_("phase one (face-down cards in position 1)"), 2: N_("phase two (cards on opponents' rafts)"),
          3: N_("phase three (stock, steamship, draw)")},
    "B": {1: N_("phase one (cards on opponents' minecarts)"), 2: N_("phase two (own card in position 1)"),
          3: N_("phase three (stock and movement)"), 4: N_("phase four (lava)")},
}

#: the sides' titles (data.json), for the catalogue
_TITLES = (N_("Escape from Maretta"), N_("Escape from Vulcano"))


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def movement_words(view: dict[str, Any], s: int) -> str:
    """How far seat ``s``'s pawn went this turn, in words ("" before it moved): every space of
    it, from the view's trail of the turn: the raft's difference (A) or the stacks (B), the 2
    spaces for placing a card (A), and a Fishing Spear's swap (forward for its player, back for
    the pawn swapped with). The view's ``movement`` is the raft's difference alone (boarding)."""
    trails = view.get("trail") or []
    trail = trails[s] if s < len(trails) else []
    ahead = sum(b - a for a, b in itertools.pairwise(trail) if b > a)
    back = sum(a - b for a, b in itertools.pairwise(trail) if b < a)
    words = [_("moved {n} this turn").format(n=ahead)] if ahead else []
    if back:
        words.append(_("swapped back {n}").format(n=back))
    return ", ".join(words)


def _card(c: Any, own: bool = False) -> str:
    if c is None:
        return "-"
    if c == "?":
        return _("face-down card")
    if c == "ss":
        return _("Steamship")
    return card_name(c)


def _cards(cs: list[str]) -> str:
    return ", ".join(_card(c) for c in sorted(cs, key=card_key)) or _("none")


def _where(view: dict[str, Any], p: int) -> str:
    side = view["side"]
    if p >= view["end"]:
        return _(str(DATA[side]["end_name"]))
    if p == 0:
        return _(str(DATA[side]["start_name"]))
    if p < 0:
        return _("{n} behind the village").format(n=-p)
    return _("space {n}").format(n=p)


def render_text(view: dict[str, Any]) -> str:
    side = view["side"]
    names = view["players"]
    n = len(names)
    seat = view["seat"]
    lines: list[str] = []
    title = _(str(DATA[side]["title"]))
    lines.append(_("MARETTA, side {side}: {title}. Turn {turn}, {phase}.").format(
        side=side, title=title, turn=view["turn"], phase=_(_PHASES[side][view["phase"]])))
    barrier = _("Coral Reefs") if side == "A" else _("Crevasses")
    reefs = ", ".join(_("between spaces {a} and {b}").format(a=r, b=r + 1) for r in view["reefs"]) or _("removed")
    start = _(str(DATA[side]["start_name"]))
    if side == "A":
        lines.append(_("Route: {start} (0) to the Steamship token (space {end}). {barrier}: {reefs}.").format(
            start=start, end=view["end"], barrier=barrier, reefs=reefs))
    else:
        lines.append(_("Route: {start} (0) to the sea (space {end}). {barrier}: {reefs}. Lava: {lava}, "
                       "flowing {speed} spaces a turn.").format(start=start, end=view["end"], barrier=barrier,
                                                                reefs=reefs, lava=_where(view, view["lava"]),
                                                                speed=view["lava_speed"]))
    lines.append("")
    width = max(len(str(x)) for x in names)
    where = _("raft") if side == "A" else _("minecart")
    for s in range(n):
        marks = []
        if s == view["start"]:
            marks.append(_("starting player"))
        if s == seat:
            marks.append(_("you"))
        if side == "B" and view["out"][s] is not None:
            marks.append(_("caught by the lava on turn {turn}").format(turn=view["out"][s]))
        if movement_words(view, s) and not (side == "B" and view["out"][s] is not None):
            marks.append(movement_words(view, s))
        if side == "A" and view["cuttlefish"][s]:
            marks.append(_("cuttlefish this turn"))
        if side == "A" and view["cuttlefish_next"][s]:
            marks.append(_("cuttlefish next turn"))
        mark = f" ({', '.join(marks)})" if marks else ""
        p1 = view["p1"][s]
        p1s = _card(p1)
        if p1 is not None and p1 != "?" and view["p1_face_down"][s]:
            p1s += " (" + _("face down") + ")"
        lines.append(f"{str(names[s]).ljust(width)}  {_where(view, view['pos'][s])}{mark}")
        lines.append(f"{' ' * width}  " + _("hand: {n} cards; {where}: (*) {p1}  (**) {p2}").format(
            n=view["hand_counts"][s], where=where, p1=p1s, p2=_card(view["p2"][s])))
        # (an empty stock said whole: Portuguese agrees the word with the stock, "estoque: vazio", not
        # with the shared "empty" of a hand or a cargo, "vazia", issue 27)
        stock = _("stock: {stock}").format(stock=_stock(view["stock"][s], side)) if view["stock"][s] else _(
            "stock: empty")
        lines.append(f"{' ' * width}  " + stock)
    lines.append("")
    if view["barrels"]:
        spots = sorted(view["barrels"], key=int)
        shown = "; ".join(f"{k}: " + ", ".join(_("face down") if b == "?" else _(BARREL_NAMES[b])
                                               for b in view["barrels"][k]) for k in spots)
        lines.append(_("Barrels: {barrels}.").format(barrels=shown))
    else:
        lines.append(_("Barrels: none left on the route."))
    if view["barrels_used"]:
        used = ", ".join(_("one taken face down (unseen)") if b == "?" else _(BARREL_NAMES[b])
                         for b in view["barrels_used"])
        lines.append(_("Barrels used: {barrels}.").format(barrels=used))
    lines.append(_("Draw pile: {deck} cards. Discard pile: {discard} cards.").format(
        deck=view["deck"], discard=len(view["discard"])))
    if view["hand"] is not None:
        lines.append("")
        lines.append(_("Your hand: {cards}.").format(cards=_cards(view["hand"])))
        for k, cards in sorted(view["known_hands"].items(), key=lambda kv: int(kv[0])):
            lines.append(_("You know (pelican) that {player} holds: {cards}.").format(
                player=names[int(k)], cards=_cards(cards)))
    lines.append("")
    if view["over"] is not None:
        over = view["over"]
        win = ", ".join(str(names[s]) for s in over["winners"])
        said = (ngettext("The game is over ({reason}). Winner: {winners}.",
                         "The game is over ({reason}). Winners: {winners}.", len(over["winners"])))
        lines.append(said.format(reason=_(over["reason"]), winners=win))
    else:
        waiting = ", ".join(str(names[s]) for s in view["waiting"])
        lines.append(_("Now: {decision}. Waiting for: {waiting}.").format(decision=view["decision"], waiting=waiting))
    return "\n".join(lines)


def _stock(cards: list[str], side: str) -> str:
    if not cards:
        return _("empty")
    if side == "A":
        kinds = len({c[1:] for c in cards})
        return f"{_cards(cards)} (" + ngettext("{n} resource type", "{n} resource types", kinds).format(n=kinds) + ")"
    stacks = []
    for su, name in SUITS.items():
        vs = [int(c[0]) for c in cards if c[1:] == su]
        if vs:
            stacks.append(f"{_(name)} {'+'.join(map(str, sorted(vs)))}={sum(vs)}")
    return ngettext("{n} stack", "{n} stacks", len(stacks)).format(n=len(stacks)) + ": " + "; ".join(stacks)


# ---- SVG ------------------------------------------------------------------------------------

_INK = "#1f1f1f"
_BARREL_FILL = {"?": "#8a5a2b"}
_CHIP = "#f0d9a8"


@dataclass(frozen=True)
class _Layout:
    """Sizes of one way of drawing the board: wide (a desktop, 776 px) or narrow (a phone:
    358 px, what a 390 px screen has inside the page's margins, every text 12 px or more)."""

    cols: int
    cell: int
    margin: int
    row_gap: int
    pawn_r: int
    small: int  # pawn letters, barrel chips
    text: int  # the legend
    number: int  # the numbers inside the spaces
    chip_w: int
    chip_h: int
    narrow: bool
    top: int  # room above the route for the title and the pawns of its first row


WIDE = _Layout(cols=12, cell=58, margin=40, row_gap=34, pawn_r=9, small=11, text=12, number=13,
               chip_w=22, chip_h=16, narrow=False, top=50)
NARROW = _Layout(cols=6, cell=55, margin=14, row_gap=40, pawn_r=10, small=12, text=13, number=13,
                 chip_w=24, chip_h=17, narrow=True, top=70)


def _xy(lay: _Layout, i: int, lo: int) -> tuple[float, float]:
    k = i - lo
    row, col = divmod(k, lay.cols)
    if row % 2:
        col = lay.cols - 1 - col
    return (lay.margin + col * lay.cell + lay.cell / 2,
            lay.margin + lay.top + row * (lay.cell + lay.row_gap) + lay.cell / 2)


def _pawn(lay: _Layout, x: float, y: float, s: int, letter: str, mine: bool, cls: str = "pawn") -> list[Item]:
    colour = svg.SEAT_COLOURS[s % len(svg.SEAT_COLOURS)]
    r = lay.pawn_r
    out: list[Item] = []
    if mine:
        out.append(Circle(round(x), round(y), r + 3, "#ffffff", "#111111", 2, "mine"))
    out.append(Circle(round(x), round(y), r, colour, "#222222", None, f"{cls} seat{s}"))
    out.append(figure.text(round(x), round(y) + lay.small // 3 + 1, letter, lay.small, svg.ink_on(colour), bold=True))
    return out


def _chip(lay: _Layout, x: float, y: float, b: str, fill: str) -> list[Item]:
    """A barrel chip whose top left corner is (x, y)."""
    return [Rect(round(x), round(y), lay.chip_w, lay.chip_h, fill, "#5a3a1a", 3, "barrel"),
            figure.text(x + lay.chip_w / 2, y + lay.chip_h - 4, _SHORT.get(b, "?"), lay.small, svg.ink_on(fill),
                        bold=True)]


def _key_chip(lay: _Layout, b: str, x: float, y: float) -> list[Item]:
    return _chip(lay, x - lay.chip_w / 2, y - lay.chip_h / 2, b, _CHIP)


#: The parts of a view the board picture draws, all public (views.public): the mail's picture is
#: drawn from these alone, with no seat, so every seat of a position gets the same picture.
PICTURE_KEYS = ("side", "players", "turn", "start", "end", "reefs", "pos", "trail", "barrels", "lava",
                "lava_start", "out")


def picture_view(view: dict[str, Any]) -> dict[str, Any]:
    """The public part of a view a mail's picture is drawn from: the same for every seat of a
    position and for a spectator (no "you", nothing only one seat knows), so the picture is
    rendered once a position and cached for every seat's mail (issue 28). What the seat alone
    knows (its hand, its face-down card, barrels it looked at) is in the mail's text."""
    return {**{k: view[k] for k in PICTURE_KEYS if k in view}, "seat": None}


#: The mail pictures drawn last, by language and public view (:func:`render_mail_svg`), oldest first.
_MAIL_SVGS: dict[tuple[str, str], str] = {}
#: How many :data:`_MAIL_SVGS` keeps: a worker's recent positions (some 40 KB each at most).
MAIL_SVGS_KEPT = 16


def render_mail_svg(view: dict[str, Any]) -> str:
    """The picture a mail carries: the phone board of the view's public part (:func:`picture_view`),
    its symbols' key as words in its ``<desc>`` (the mail prints it under the picture).

    Why the symbols' key in words: drawn, it was a third of the picture's height, and a 4-player
    board with it weighed up to 15 KB with smoothed text, over what any mail carries, so it went
    with jagged text (issue 21); Caravelas' and Maracaibo's mail pictures give their legend so.

    Why kept (issue 28, pipe session): every seat's mail of a position carries the same picture
    (three mails after a phase-one reveal, made by one worker in one task), and drawing it, about
    2-3 ms, was made again for each mail only to find its PNG cached by its bytes. The key is the
    public view as JSON in its own key order (a drawing follows the view's order) and the language;
    while an :func:`engine.i18n.on_miss` hook listens, it is drawn again, so that misses are told."""
    public = picture_view(view)
    if i18n.misses_watched():
        return render_svg(public, narrow=True, key_in_desc=True)
    key = (i18n.current(), json.dumps(public, separators=(",", ":")))
    drawn = _MAIL_SVGS.get(key)
    if drawn is None:
        drawn = render_svg(public, narrow=True, key_in_desc=True)
        if len(_MAIL_SVGS) >= MAIL_SVGS_KEPT:
            del _MAIL_SVGS[next(iter(_MAIL_SVGS))]
        _MAIL_SVGS[key] = drawn
    return drawn


def symbols_key(view: dict[str, Any]) -> str:
    """The board's symbols in words: what the mail prints under its picture (:func:`render_mail_svg`)."""
    what = _("Red bars: coral reefs") if view["side"] == "A" else _("Dark bars: crevasses")
    chips = sorted({b for bs in view["barrels"].values() for b in bs if b != "?"})
    names = "; ".join(f"{_SHORT[b]} {_(BARREL_NAMES[b])}" for b in chips)
    return (_("{what} between two spaces. Brown chips (?): face-down barrels").format(what=what)
            + ("; " + _("light chips: face-up barrels ({names})").format(names=names) if names else "")
            + ". " + _("A band and rings in a pawn's colour: its trail this turn."))


def render_svg(view: dict[str, Any], narrow: bool = False, key_in_desc: bool = False) -> str:
    """The board: the route with its spaces, reefs or crevasses, barrels, the pawns and this
    turn's trail of each, and a legend. ``narrow``: drawn for a phone (see ``NARROW``);
    ``key_in_desc``: the symbols' key as words in the drawing's ``<desc>`` (:func:`symbols_key`),
    the players' key drawn."""
    lay = NARROW if narrow else WIDE
    side = view["side"]
    names = view["players"]
    seat = view["seat"]
    end = view["end"]
    lo = min(0, view.get("lava_start", 0), view.get("lava", 0) or 0) if side == "B" else 0
    spaces = list(range(lo, end + 1))
    rows = (len(spaces) + lay.cols - 1) // lay.cols
    width = lay.margin * 2 + lay.cols * lay.cell
    room = width - 2 * lay.margin
    body: list[Item] = []
    title = _("Maretta side {side}: {title}, turn {turn}").format(side=side, title=_(str(DATA[side]["title"])),
                                                                  turn=view["turn"])
    if lay.narrow:
        caption = _("Maretta side {side}, turn {turn}").format(side=side, turn=view["turn"])
        body.append(figure.text(width / 2, 24, caption, 16, _INK, bold=True))
        body.append(figure.text(width / 2, 44, _(str(DATA[side]["title"])), lay.text, _INK))
    else:
        body.append(figure.text(width / 2, 28, title, 16, _INK, bold=True))
    sea = "#cfe6f5" if side == "A" else "#f3dcc0"

    def xy(i: int) -> tuple[float, float]:
        return _xy(lay, i, lo)

    # the route: numbers inside the spaces, so no connector between two rows crosses one
    pts = tuple((round(x), round(y)) for x, y in (xy(i) for i in spaces))
    body.append(Polyline(pts, "#8a9999", 6, "round"))
    # this turn's trails: a band in the pawn's colour along the spaces it went through
    # (beside the others', on the route), and a ring inside each space it left behind
    trails = [t if len(t) > 1 else [] for t in (view.get("trail") or [])]
    moving = [s for s, t in enumerate(trails) if t]
    rings: dict[int, list[int]] = {}
    for k, s in enumerate(moving):
        colour = svg.SEAT_COLOURS[s % len(svg.SEAT_COLOURS)]
        shift = (k - (len(moving) - 1) / 2) * 6
        tpts = tuple((round(x + shift), round(y + shift)) for x, y in map(xy, trails[s]))
        body.append(Polyline(tpts, colour, 5, "round", "round", f"trail seat{s}"))
        for i in trails[s][:-1]:
            rings.setdefault(i, []).append(s)
    lava = view.get("lava")
    lava_at = max(lo, min(lava, end)) if lava is not None else None
    for i in spaces:
        x, y = xy(i)
        fill, label, name = sea, str(i), ""
        if i == 0:
            fill, name = ("#e6d59a", _("Island")) if side == "A" else ("#c9b38a", _("Village"))
        elif i == end:
            fill, name = ("#7d8fa8", _("Steamship")) if side == "A" else ("#5aa0d8", _("Sea"))
        elif i < 0:
            fill, label = "#8a5a44", ""
        if lava is not None and i <= lava and i < end:
            fill = "#e0502a"
        if i == lava_at:
            label = _("LAVA")
        body.append(Circle(round(x), round(y), 20, fill, "#445566", 1.5, "space"))
        for k, s in enumerate(rings.get(i, ())):
            body.append(Circle(round(x), round(y), 17 - 3 * k, "none", svg.SEAT_COLOURS[s % len(svg.SEAT_COLOURS)],
                               2.5, f"trail-ring seat{s}"))
        if label:
            small = 12 if lay.narrow else 10
            body.append(figure.text(x, y + 5, label, small if i == lava_at else lay.number, svg.ink_on(fill),
                                    bold=i == lava_at))
        if name:
            body.append(figure.text(x, y + 35, name, lay.small, _INK))
    # reefs / crevasses: a thick bar between space r and r+1
    barrier = "#c0405a" if side == "A" else "#3b2a20"
    for r in view["reefs"]:
        (x1, y1), (x2, y2) = xy(r), xy(r + 1)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        if abs(y1 - y2) < 1:
            body.append(Rect(round(mx - 4), round(my - 24), 8, 48, barrier, cls="reef"))
        else:
            body.append(Rect(round(mx - 24), round(my - 4), 48, 8, barrier, cls="reef"))
    # barrels as the viewer knows them, under their space
    for k, bs in view["barrels"].items():
        x, y = xy(int(k))
        for j, b in enumerate(bs):
            bx = x - lay.chip_w - 1 + j * (lay.chip_w + 2) if len(bs) > 1 else x - lay.chip_w / 2
            body += _chip(lay, bx, y + 22, b, _BARREL_FILL.get(b, _CHIP))
    # pawns, above their space (three abreast, then a second row above), each row centred on it:
    # why centred (play-test): the slots were fixed at -1, 0, +1 steps, so a pawn alone sat a
    # step left of its space, about halfway to the one before (a pawn at 4 read as at 3)
    at: dict[int, int] = {}
    out = view.get("out") or [None] * len(names)
    on_board = [(s, p) for s, p in enumerate(view["pos"]) if out[s] is None]
    here = Counter(p for _s, p in on_board)
    step = 2 * lay.pawn_r + 1
    for s, p in on_board:
        k = at.get(p, 0)
        at[p] = k + 1
        abreast = min(3, here[p] - k // 3 * 3)  # the pawns in this pawn's row
        x, y = xy(p)
        left = x - (abreast - 1) * step // 2  # (whole pixels: a half would round to even, unevenly)
        body += _pawn(lay, left + k % 3 * step, y - 30 - (k // 3) * step, s, str(names[s])[:1].upper(),
                      s == seat)
    # the key: players, then the symbols, one a line on a phone
    line_h = lay.text + 10
    y = lay.margin + lay.top + rows * (lay.cell + lay.row_gap) + 10
    for s, name in enumerate(names):
        marks = [_("you")] if s == seat else []
        if s == view["start"]:
            marks.append(_("starting player"))
        if out[s] is not None:
            marks.append(_("caught by the lava on turn {turn}").format(turn=out[s]))
        elif movement_words(view, s):
            marks.append(movement_words(view, s))
        trail = trails[s] if s < len(trails) else []
        if trail and out[s] is None:
            marks.append(_("trail {a} to {b}").format(a=trail[0], b=trail[-1]))
        mark = f" ({', '.join(marks)})" if marks else ""
        y += line_h / 2
        body += _pawn(lay, lay.margin + lay.pawn_r, y - 4, s, str(name)[:1].upper(), s == seat, cls="key")
        lines = svg.wrap(f"{name}{mark}", lay.text, room - 2 * lay.pawn_r - 10)
        for j, line in enumerate(lines):
            body.append(figure.text(lay.margin + 2 * lay.pawn_r + 8, y + j * (lay.text + 3), line, lay.text, _INK,
                                    anchor="start"))
        # the next player's line goes below this one's last (it was placed as if a name wrapped to two at most)
        y += (len(lines) - 1) * (lay.text + 3)
        y += line_h / 2 + 2
    # each symbol: its words and how to draw it with its middle at (x, y)
    entries: list[tuple[str, Callable[[float, float], list[Item]]]] = []
    what = _("Coral Reef between two spaces") if side == "A" else _("Crevasse between two spaces")
    entries.append((what,
                    lambda x, y: [Rect(round(x - 4), round(y - 8), 8, 16, barrier)]))
    entries.append((_("face-down barrel"),
                    lambda x, y: _chip(lay, x - lay.chip_w / 2, y - lay.chip_h / 2, "?", _BARREL_FILL["?"])))
    if seat is not None:
        letter = str(names[seat])[:1].upper()
        entries.append((_("your pawn (white ring)"), lambda x, y: _pawn(lay, x, y, seat, letter, True, cls="key")))
    # always, even before anyone moved: the picture keeps its size (mail's width hint keys on it)
    colour = svg.SEAT_COLOURS[(moving[0] if moving else (seat or 0)) % len(svg.SEAT_COLOURS)]
    entries.append((_("a pawn's trail this turn (band, rings)"),
                    lambda x, y: [Line(round(x - 11), round(y), round(x + 11), round(y), colour, 5, "round",
                                       "key-trail")]))
    for b in sorted({b for bs in view["barrels"].values() for b in bs if b != "?"}):
        entries.append((_(BARREL_NAMES[b]), functools.partial(_key_chip, lay, b)))
    if key_in_desc:
        return figure.document(width, int(y + 4), body, title=title, desc=symbols_key(view))
    per_row = 1 if lay.narrow else 2
    col_w = room // per_row
    y += 8
    for j, (label, icon) in enumerate(entries):
        x = lay.margin + 12 + (j % per_row) * col_w
        yy = y + line_h * (j // per_row)
        body += icon(x, yy - lay.text / 3)
        body.append(figure.text(x + 20, yy, label, lay.text, _INK, anchor="start"))
    height = int(y + line_h * ((len(entries) + per_row - 1) // per_row) + 6)
    return figure.document(width, height, body, title=title)
