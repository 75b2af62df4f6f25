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


def _xy(i: int, lo: int) -> tuple[float, float]:
    k = i - lo
    row, col = divmod(k, _COLS)
    if row % 2:
        col = _COLS - 1 - col
    return _MARGIN + col * _CELL + _CELL / 2, _MARGIN + 40 + row * (_CELL + 34) + _CELL / 2


def render_svg(view: dict[str, Any]) -> str:
    side = view["side"]
    names = view["players"]
    end = view["end"]
    lo = min(0, view.get("lava_start", 0), view.get("lava", 0) or 0) if side == "B" else 0
    spaces = list(range(lo, end + 1))
    rows = (len(spaces) + _COLS - 1) // _COLS
    width = _MARGIN * 2 + _COLS * _CELL
    height = _MARGIN + 40 + rows * (_CELL + 34) + 40 + 22 * len(names)
    body: list[str] = []
    title = f"Maretta side {side}: {DATA[side]['title']}, turn {view['turn']}"
    body.append(svg.text(width / 2, 28, title, size=18, font_weight="bold"))
    sea = "#cfe6f5" if side == "A" else "#f3dcc0"
    # path
    pts = " ".join(f"{x:.0f},{y:.0f}" for x, y in (_xy(i, lo) for i in spaces))
    body.append(svg.el("polyline", points=pts, fill="none", stroke="#9aa", stroke_width=6,
                       stroke_linejoin="round"))
    lava = view.get("lava")
    for i in spaces:
        x, y = _xy(i, lo)
        fill = sea
        label = str(i)
        if i == 0:
            fill, label = ("#e6d59a", "Island") if side == "A" else ("#c9b38a", "Village")
        elif i == end:
            fill, label = ("#7d8fa8", "Steamship") if side == "A" else ("#5aa0d8", "Sea")
        elif i < 0:
            fill, label = "#8a5a44", ""
        if lava is not None and i <= lava and i < end:
            fill = "#e0502a"
        body.append(svg.el("circle", cx=round(x), cy=round(y), r=20, fill=fill, stroke="#456", stroke_width=1.5))
        body.append(svg.text(x, y - 23, label, size=9, fill="#345"))
    # reefs / crevasses: a thick bar between space r and r+1
    for r in view["reefs"]:
        (x1, y1), (x2, y2) = _xy(r, lo), _xy(r + 1, lo)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        colour = "#e07a8a" if side == "A" else "#3b2a20"
        if abs(y1 - y2) < 1:
            body.append(svg.el("rect", x=round(mx - 4), y=round(my - 24), width=8, height=48, fill=colour))
        else:
            body.append(svg.el("rect", x=round(mx - 24), y=round(my - 4), width=48, height=8, fill=colour))
    # barrels as the viewer knows them
    for k, bs in view["barrels"].items():
        x, y = _xy(int(k), lo)
        for j, b in enumerate(bs):
            bx = x - 19 + j * 20
            by = y + 22
            body.append(svg.el("rect", x=round(bx), y=round(by), width=18, height=14, rx=3,
                               fill="#b07a3a" if b == "?" else "#f0d9a8", stroke="#5a3a1a"))
            body.append(svg.text(bx + 9, by + 11, _SHORT.get(b, "?"), size=9))
    # meeples
    at: dict[int, int] = {}
    out = view.get("out") or [None] * len(names)
    for s, p in enumerate(view["pos"]):
        if out[s] is not None:
            continue
        k = at.get(p, 0)
        at[p] = k + 1
        x, y = _xy(p, lo)
        dx = (k % 3 - 1) * 11
        dy = (k // 3) * 11 - 5
        colour = svg.SEAT_COLOURS[s % len(svg.SEAT_COLOURS)]
        body.append(svg.el("circle", cx=round(x + dx), cy=round(y + dy), r=7, fill=colour, stroke="#222"))
        body.append(svg.text(x + dx, y + dy + 3, str(names[s])[:1].upper(), size=8, fill="#fff"))
    if lava is not None:
        lx, ly = _xy(max(lo, min(lava, end)), lo)
        body.append(svg.text(lx, ly + 5, "LAVA", size=9, fill="#fff", font_weight="bold"))
    # legend
    y0 = _MARGIN + 40 + rows * (_CELL + 34) + 20
    for s, name in enumerate(names):
        colour = svg.SEAT_COLOURS[s % len(svg.SEAT_COLOURS)]
        y = y0 + 22 * s
        body.append(svg.el("circle", cx=_MARGIN, cy=y - 4, r=7, fill=colour))
        state = _where(view, view["pos"][s])
        if out[s] is not None:
            state = "caught by the lava"
        extra = "  (starting player)" if s == view["start"] else ""
        stock = ", ".join(_card(c) for c in view["stock"][s]) or "empty"
        body.append(svg.text(_MARGIN + 14, y, f"{name}: {state}{extra}; stock: {stock}", size=12, anchor="start"))
    return svg.document(width, height, body, title=title)
