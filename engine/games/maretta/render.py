"""Text and SVG pictures of a Maretta view. They read the view only, so they cannot leak."""

from __future__ import annotations

from typing import Any

from engine import svg
from engine.games.maretta.cards import BARREL_NAMES, DATA, SUITS, card_key, card_name

_SHORT = {"mo": "Mk", "tr": "Tr", "cu": "Cu", "sc": "Sc", "sh": "Sh", "sx": "Sx", "sp": "Sp", "an": "An",
          "pe": "Pe", "?": "?"}
_PHASES = {
    "A": {1: "phase one (face-down cards in position 1)", 2: "phase two (cards on opponents' rafts)",
          3: "phase three (stock, steamship, draw)"},
    "B": {1: "phase one (cards on opponents' minecarts)", 2: "phase two (own card in position 1)",
          3: "phase three (stock and movement)", 4: "phase four (lava)"},
}


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _card(c: Any, own: bool = False) -> str:
    if c is None:
        return "-"
    if c == "?":
        return "face-down card"
    return card_name(c).replace("the Steamship card", "Steamship")


def _cards(cs: list[str]) -> str:
    return ", ".join(_card(c) for c in sorted(cs, key=card_key)) or "none"


def _where(view: dict[str, Any], p: int) -> str:
    side = view["side"]
    if p >= view["end"]:
        return str(DATA[side]["end_name"])
    if p == 0:
        return str(DATA[side]["start_name"])
    if p < 0:
        return f"{-p} behind the village"
    return f"space {p}"


def render_text(view: dict[str, Any]) -> str:
    side = view["side"]
    names = view["players"]
    n = len(names)
    seat = view["seat"]
    lines: list[str] = []
    title = DATA[side]["title"]
    lines.append(f"MARETTA, side {side}: {title}. Turn {view['turn']}, {_PHASES[side][view['phase']]}.")
    barrier = "Coral Reefs" if side == "A" else "Crevasses"
    reefs = ", ".join(f"between spaces {r} and {r + 1}" for r in view["reefs"]) or "removed"
    if side == "A":
        lines.append(f"Route: {DATA[side]['start_name']} (0) to the Steamship token (space {view['end']}). "
                     f"{barrier}: {reefs}.")
    else:
        lines.append(f"Route: {DATA[side]['start_name']} (0) to the sea (space {view['end']}). "
                     f"{barrier}: {reefs}. Lava: {_where(view, view['lava'])}, "
                     f"flowing {view['lava_speed']} spaces a turn.")
    lines.append("")
    width = max(len(str(x)) for x in names)
    where = "raft" if side == "A" else "minecart"
    for s in range(n):
        marks = []
        if s == view["start"]:
            marks.append("starting player")
        if s == seat:
            marks.append("you")
        if side == "B" and view["out"][s] is not None:
            marks.append(f"caught by the lava on turn {view['out'][s]}")
        if side == "A" and view["cuttlefish"][s]:
            marks.append("cuttlefish this turn")
        if side == "A" and view["cuttlefish_next"][s]:
            marks.append("cuttlefish next turn")
        mark = f" ({', '.join(marks)})" if marks else ""
        p1 = view["p1"][s]
        p1s = _card(p1)
        if p1 is not None and p1 != "?" and view["p1_face_down"][s]:
            p1s += " (face down)"
        lines.append(f"{str(names[s]).ljust(width)}  {_where(view, view['pos'][s])}{mark}")
        lines.append(f"{' ' * width}  hand: {view['hand_counts'][s]} cards; {where}: (*) {p1s}  "
                     f"(**) {_card(view['p2'][s])}")
        lines.append(f"{' ' * width}  stock: {_stock(view['stock'][s], side)}")
    lines.append("")
    if view["barrels"]:
        spots = sorted(view["barrels"], key=int)
        shown = "; ".join(f"{k}: " + ", ".join("face down" if b == "?" else BARREL_NAMES[b]
                                               for b in view["barrels"][k]) for k in spots)
        lines.append(f"Barrels: {shown}.")
    else:
        lines.append("Barrels: none left on the route.")
    if view["barrels_used"]:
        lines.append("Barrels used: " + ", ".join("one taken face down (unseen)" if b == "?" else BARREL_NAMES[b]
                                                  for b in view["barrels_used"]) + ".")
    lines.append(f"Draw pile: {view['deck']} cards. Discard pile: {len(view['discard'])} cards.")
    if view["hand"] is not None:
        lines.append("")
        lines.append(f"Your hand: {_cards(view['hand'])}.")
        for k, cards in sorted(view["known_hands"].items(), key=lambda kv: int(kv[0])):
            lines.append(f"You know (pelican) that {names[int(k)]} holds: {_cards(cards)}.")
    lines.append("")
    if view["over"] is not None:
        over = view["over"]
        win = ", ".join(str(names[s]) for s in over["winners"])
        lines.append(f"The game is over ({over['reason']}). Winner{'s' if len(over['winners']) > 1 else ''}: {win}.")
    else:
        waiting = ", ".join(str(names[s]) for s in view["waiting"])
        lines.append(f"Now: {view['decision']}. Waiting for: {waiting}.")
    return "\n".join(lines)


def _stock(cards: list[str], side: str) -> str:
    if not cards:
        return "empty"
    if side == "A":
        kinds = len({c[1:] for c in cards})
        return f"{_cards(cards)} ({kinds} resource type{'s' if kinds != 1 else ''})"
    stacks = []
    for su, name in SUITS.items():
        vs = [int(c[0]) for c in cards if c[1:] == su]
        if vs:
            stacks.append(f"{name} {'+'.join(map(str, sorted(vs)))}={sum(vs)}")
    return f"{len(stacks)} stack{'s' if len(stacks) != 1 else ''}: " + "; ".join(stacks)


# ---- SVG ------------------------------------------------------------------------------------

_COLS = 12
_CELL = 58
_MARGIN = 40
_ROW = _CELL + 34
_INK = "#1f1f1f"
_PAWN_R = 9
_BARREL_FILL = {"?": "#8a5a2b"}
_CHIP = "#f0d9a8"


def _xy(i: int, lo: int) -> tuple[float, float]:
    k = i - lo
    row, col = divmod(k, _COLS)
    if row % 2:
        col = _COLS - 1 - col
    return _MARGIN + col * _CELL + _CELL / 2, _MARGIN + 50 + row * _ROW + _CELL / 2


def _pawn(x: float, y: float, s: int, letter: str, mine: bool, cls: str = "pawn") -> list[str]:
    colour = svg.SEAT_COLOURS[s % len(svg.SEAT_COLOURS)]
    out = []
    if mine:
        out.append(svg.el("circle", class_="mine", cx=round(x), cy=round(y), r=_PAWN_R + 3, fill="#ffffff",
                          stroke="#111111", stroke_width=2))
    out.append(svg.el("circle", class_=f"{cls} seat{s}", cx=round(x), cy=round(y), r=_PAWN_R, fill=colour,
                      stroke="#222222"))
    out.append(svg.text(round(x), round(y) + 4, letter, size=11, fill=svg.ink_on(colour), font_weight="bold"))
    return out


def render_svg(view: dict[str, Any]) -> str:
    side = view["side"]
    names = view["players"]
    seat = view["seat"]
    end = view["end"]
    lo = min(0, view.get("lava_start", 0), view.get("lava", 0) or 0) if side == "B" else 0
    spaces = list(range(lo, end + 1))
    rows = (len(spaces) + _COLS - 1) // _COLS
    width = _MARGIN * 2 + _COLS * _CELL
    shown = sorted({b for bs in view["barrels"].values() for b in bs if b != "?"})
    key_lines = 2 + (len(shown) + 2) // 3
    y_key = _MARGIN + 50 + rows * _ROW + 10
    height = y_key + 26 * len(names) + 22 * key_lines + 20
    body: list[str] = []
    title = f"Maretta side {side}: {DATA[side]['title']}, turn {view['turn']}"
    body.append(svg.text(width / 2, 28, title, size=16, font_weight="bold", fill=_INK))
    sea = "#cfe6f5" if side == "A" else "#f3dcc0"
    # the route: numbers inside the spaces, so no connector between two rows crosses one
    pts = " ".join(f"{x:.0f},{y:.0f}" for x, y in (_xy(i, lo) for i in spaces))
    body.append(svg.el("polyline", points=pts, fill="none", stroke="#8a9999", stroke_width=6,
                       stroke_linejoin="round"))
    lava = view.get("lava")
    for i in spaces:
        x, y = _xy(i, lo)
        fill, label, name = sea, str(i), ""
        if i == 0:
            fill, name = ("#e6d59a", "Island") if side == "A" else ("#c9b38a", "Village")
        elif i == end:
            fill, name = ("#7d8fa8", "Steamship") if side == "A" else ("#5aa0d8", "Sea")
        elif i < 0:
            fill, label = "#8a5a44", ""
        if lava is not None and i <= lava and i < end:
            fill = "#e0502a"
        if lava is not None and i == max(lo, min(lava, end)):
            label = "LAVA"
        body.append(svg.el("circle", class_="space", cx=round(x), cy=round(y), r=20, fill=fill, stroke="#445566",
                           stroke_width=1.5))
        if label:
            body.append(svg.text(x, y + 5, label, size=10 if label == "LAVA" else 13, fill=svg.ink_on(fill),
                                 font_weight="bold" if label == "LAVA" else None))
        if name:
            body.append(svg.text(x, y + 35, name, size=11, fill=_INK))
    # reefs / crevasses: a thick bar between space r and r+1
    barrier = "#c0405a" if side == "A" else "#3b2a20"
    for r in view["reefs"]:
        (x1, y1), (x2, y2) = _xy(r, lo), _xy(r + 1, lo)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        if abs(y1 - y2) < 1:
            body.append(svg.el("rect", class_="reef", x=round(mx - 4), y=round(my - 24), width=8, height=48,
                               fill=barrier))
        else:
            body.append(svg.el("rect", class_="reef", x=round(mx - 24), y=round(my - 4), width=48, height=8,
                               fill=barrier))
    # barrels as the viewer knows them, under their space
    for k, bs in view["barrels"].items():
        x, y = _xy(int(k), lo)
        for j, b in enumerate(bs):
            bx = x - 23 + j * 24 if len(bs) > 1 else x - 11
            by = y + 22
            fill = _BARREL_FILL.get(b, _CHIP)
            body.append(svg.el("rect", class_="barrel", x=round(bx), y=round(by), width=22, height=16, rx=3,
                               fill=fill, stroke="#5a3a1a"))
            body.append(svg.text(bx + 11, by + 12, _SHORT.get(b, "?"), size=11, fill=svg.ink_on(fill),
                                 font_weight="bold"))
    # pawns, above their space (three abreast, then a second row above)
    at: dict[int, int] = {}
    out = view.get("out") or [None] * len(names)
    for s, p in enumerate(view["pos"]):
        if out[s] is not None:
            continue
        k = at.get(p, 0)
        at[p] = k + 1
        x, y = _xy(p, lo)
        body += _pawn(x + (k % 3 - 1) * 19, y - 30 - (k // 3) * 19, s, str(names[s])[:1].upper(), s == seat)
    # the key: players, then the symbols
    moved = view.get("movement") or [0] * len(names)
    for s, name in enumerate(names):
        y = y_key + 26 * s + 10
        body += _pawn(_MARGIN, y - 4, s, str(name)[:1].upper(), s == seat, cls="key")
        marks = ["you"] if s == seat else []
        if s == view["start"]:
            marks.append("starting player")
        if out[s] is not None:
            marks.append(f"caught by the lava on turn {out[s]}")
        elif moved[s]:
            marks.append(f"moved {moved[s]} this turn")
        mark = f" ({', '.join(marks)})" if marks else ""
        body.append(svg.text(_MARGIN + 18, y, f"{name}{mark}", size=12, anchor="start", fill=_INK))
    y = y_key + 26 * len(names) + 12
    body.append(svg.el("rect", x=_MARGIN - 4, y=y - 12, width=8, height=16, fill=barrier))
    what = "Coral Reef" if side == "A" else "Crevasse"
    body.append(svg.text(_MARGIN + 12, y, f"{what} between two spaces", size=12, anchor="start", fill=_INK))
    body.append(svg.el("rect", x=_MARGIN + 230, y=y - 12, width=22, height=16, rx=3, fill=_BARREL_FILL["?"],
                       stroke="#5a3a1a"))
    body.append(svg.text(_MARGIN + 241, y, "?", size=11, fill=svg.ink_on(_BARREL_FILL["?"]), font_weight="bold"))
    body.append(svg.text(_MARGIN + 258, y, "face-down barrel", size=12, anchor="start", fill=_INK))
    if seat is not None:
        body += _pawn(_MARGIN + 400, y - 4, seat, str(names[seat])[:1].upper(), True, cls="key")
        body.append(svg.text(_MARGIN + 418, y, "your pawn (white ring)", size=12, anchor="start", fill=_INK))
    for j, b in enumerate(shown):
        yy = y + 22 * (1 + j // 3)
        xx = _MARGIN - 4 + (j % 3) * 230
        body.append(svg.el("rect", x=xx, y=yy - 12, width=22, height=16, rx=3, fill=_CHIP, stroke="#5a3a1a"))
        body.append(svg.text(xx + 11, yy, _SHORT[b], size=11, fill=svg.ink_on(_CHIP), font_weight="bold"))
        body.append(svg.text(xx + 28, yy, BARREL_NAMES[b], size=12, anchor="start", fill=_INK))
    return svg.document(width, height, body, title=title)
