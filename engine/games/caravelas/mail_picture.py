"""The small picture a Caravelas mail carries: the sea around the reader's fleet, for a phone.

Why not the whole map: at a phone's 358 pixels the 1460-unit map's labels shrink to 2-3 px and
its PNG weighs 40 KB, far over a mail's budget (issue 10: mails under 30 KB, readable on a
phone). What a reader decides on is near their fleet: the circles and routes they can sail
to, the places of their discovery cards close by, the fleets next to theirs. So the mail shows
that part of the map, drawn so that its smallest labels (10 map units) are 11 px, 358 px
wide (the mail's width on a 390 px phone, and its own size elsewhere), with a caption that
says where it is and a legend of what it shows (its ``<desc>``: the mail prints it as text);
the whole map, legend and players' boards are on the game page, and the text part of the mail
has every fleet, cube and card.
"""

from __future__ import annotations

from typing import Any

from engine import svg
from engine.i18n import N_, _

from . import board as B
from .render import INK, render_map_svg

#: Map units drawn per picture px: the map's smallest labels (10 units) become MAIL_TEXT px.
SCALE = svg.MAIL_TEXT / 10
#: The part of the map shown, in map units.
WIDTH, HEIGHT = int(svg.MAIL_WIDTH / SCALE), 290
LEGEND = N_("Framed: your fleet; letters: the others' fleets (dashed at the edge: a fleet beyond it, that way). "
          "Circles with a cross: places (dashed ring: "
          "your discovery cards' places); small circles: sea (codes as in moves); blue dashes: wind routes; "
          "squares: cubes.")
_SIZE, _BOLD = 12, 12


def crop_box(x: float, y: float) -> tuple[float, float, float, float]:
    """The part of the map shown around (x, y), kept inside the map."""
    return svg.around(x, y, WIDTH, HEIGHT, B.MAP["width"], B.MAP["height"])


def render_mail_svg(view: dict[str, Any]) -> str:
    """The map near the viewer's fleet, with a caption and a legend; for a spectator (no fleet
    of theirs), the sea around Lisboa."""
    seat = view.get("seat")
    node = B.NODES[view["fleets"][seat]["at"] if seat is not None else B.LISBON]
    name = node.get("name") or node["id"]
    room = svg.MAIL_WIDTH - 12
    out: list[str] = []
    y = 4.0
    head = (_("Near your fleet (framed), at {place}") if seat is not None else _("The sea around {place}")).format(
        place=name)
    for line in svg.wrap(head, _BOLD, room, bold=True):
        y += _BOLD + 4
        out.append(svg.text(6, y, line, size=_BOLD, anchor="start", fill=INK, font_weight="bold"))
    box = crop_box(float(node["x"]), float(node["y"]))
    part, height = svg.window(render_map_svg(view, box), box, svg.MAIL_WIDTH, top=y + 6)
    out.append(part)
    focus = (y + 6, y + 6 + (float(node["y"]) - box[1]) * svg.MAIL_WIDTH / box[2])  # the caption, the fleet's row
    y += 6 + height
    return svg.document(svg.MAIL_WIDTH, int(y), out, title=_("Caravelas II: the sea near your fleet"), desc=_(LEGEND),
                        focus=focus)
