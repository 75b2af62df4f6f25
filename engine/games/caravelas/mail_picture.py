"""The small picture a Caravelas mail carries: the sea around the reader's fleet.

Why not the whole map: at a mail's 560 pixels the 1460-unit map's labels shrink to 3-4 px and
its PNG weighs 40 KB, far over a mail's budget (issue 10: mails under 30 KB). What a reader
decides on is near their fleet: the circles and routes they can sail to, the places of their
discovery cards close by, the fleets next to theirs. So the mail shows that part of the same
picture at full scale (labels 10-13 px, as on the page), with a caption that says where it is;
the whole map, legend and players' boards are on the game page, and the text part of the mail
has every fleet, cube and card.
"""

from __future__ import annotations

import re
from typing import Any

from engine import svg

from . import board as B
from .render import render_svg

#: The part of the map shown, in map units (the picture is drawn 1:1 at 560 px).
WIDTH, HEIGHT = 560, 380
CAPTION_H = 24

_ROOT = re.compile(r'width="\d+" height="\d+" viewBox="0 0 \d+ \d+"')


def crop_box(x: float, y: float) -> tuple[int, int]:
    """The top-left corner of the part shown around (x, y), kept inside the map."""
    mw, mh = B.MAP["width"], B.MAP["height"]
    x0 = min(max(int(x - WIDTH / 2), 0), mw - WIDTH)
    y0 = min(max(int(y - HEIGHT / 2) - CAPTION_H // 2, 0), mh - HEIGHT)
    return x0, y0


def render_mail_svg(view: dict[str, Any]) -> str:
    """The map near the viewer's fleet; the whole board for a spectator (no fleet of theirs)."""
    full = render_svg(view)
    seat = view.get("seat")
    if seat is None:
        return full
    at = view["fleets"][seat]["at"]
    node = B.NODES[at]
    x0, y0 = crop_box(float(node["x"]), float(node["y"]))
    name = node.get("name") or at
    caption = f"Near your fleet (framed), at {name}; the whole map is on your game page"
    extra = (svg.el("rect", x=x0, y=y0, width=WIDTH, height=CAPTION_H, fill="#fffdf6", stroke="#6b4c2a")
             + svg.text(x0 + 8, y0 + 17, caption, size=12, anchor="start", fill="#3b2a14", font_weight="bold"))
    root = f'width="{WIDTH}" height="{HEIGHT}" viewBox="{x0} {y0} {WIDTH} {HEIGHT}"'
    cropped = _ROOT.sub(root, full, count=1)
    assert cropped != full, "the board's root element changed shape"
    return cropped[: -len("</svg>")] + extra + "</svg>"
