"""What Maracaibo's board in words and its pictures share, all read from a view only: a place's kind as
the rules read it, the legacy stop tiles and their tags, what ending a sail somewhere gives, the
scenario's card, the seats' and nations' colours, and a picture's text in the reader's language
(``say``, labels.py's data).

The renderer is read top-down: this module, then render_text.py (the board in words for mails),
render_map.py (the map, and where each place's ships are drawn), render.py (the whole board's
picture for the page) and render_phone.py (the mail's small map and the phone's column of pictures);
each imports only those before it (import-linter contract ``maracaibo-acyclic``).
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from engine import i18n
from engine.core import View

from . import content as C
from . import labels, sailing
from . import uprising_content as C_U

NATION_COLOUR = {"france": "#2459c4", "england": "#c8102e", "spain": "#e0a800"}
SEAT_COLOUR = ["#d9480f", "#2f9e44", "#7048e8", "#1c7ed6", "#495057"]
JEAN_COLOUR = "#111111"


# ---- the view, read ---------------------------------------------------------------------------------


def _kind(view: View, loc: str) -> str:
    """village, city, home, start, or "off" (a legacy place not in play): as the rules read it."""
    info = C.LOC[loc]
    legacy = list(view.get("legacy") or ())
    if "legacy" in info and info["legacy"] not in legacy and info["legacy"] not in (view.get("legacy_board") or {}):
        return "off"  # (the Uprising's new city L30 is in play when its tile is on the legacy board)
    kind = str(info["kind"])
    if kind == "city" and info.get("two_player") and len(view["players"]) <= 2:
        return "village"
    if kind == "village" and any(C.LEGACY[t]["kind"] == "city" and C.LEGACY[t].get("loc") == loc for t in legacy):
        return "city"
    return kind


def _stops(view: View) -> dict[str, dict[str, Any]]:
    """The legacy stop tiles in play by place (scenario 77: L5 Tortuga gives a combat point, L8
    Belize takes 2 doubloons): what ending a sail there gives or costs (issue 21)."""
    return {str(C.LEGACY[t]["loc"]): C.LEGACY[t] for t in view.get("legacy") or ()
            if C.LEGACY[t]["kind"] == "stop"}


_UNIT = {"d": "d", "vp": "VP", "cp": "CP"}


def _stop_tag(tile: dict[str, Any]) -> str:
    """A stop tile's few characters on the map: "+1 CP", "-2 d"."""
    return ", ".join(f"{'+' if v > 0 else '-'}{abs(v)} {_UNIT.get(k, k)}" for k, v in tile["gain"].items())


def _name(loc: str) -> str:
    return f"{loc} {C.LOC[loc]['name']}"


def _scenario(view: View) -> tuple[str, dict[str, Any]]:
    """The scenario's number and card (the Uprising's scenarios 78 and 79 have their own)."""
    number = str(view["options"].get("scenario"))
    if str(view["options"].get("mode")) in C_U.SCENARIOS:
        number = str(view["options"]["mode"])
    return number, C_U.SCENARIOS.get(number) or C.SCENARIOS.get(number, {})


def nations_score(view: View) -> bool:
    """Whether the nations score at the end, each with its multiplier: not in scenario 79 (the Liberation)."""
    return bool(_scenario(view)[1].get("nation_scoring", True))


def _stop_gives(view: View, p: dict[str, Any], loc: str, spent: int, stops: dict[str, dict[str, Any]]) -> str:
    """What ending a sail of ``spent`` movement at ``loc`` gives or costs, in a few words."""
    kind = _kind(view, loc)
    info = C.LOC[loc]
    if kind == "village":
        n = sailing.village_count(p, spent)
        gives = f"{n} village action{'s' if n != 1 else ''}"
    elif kind == "city":
        m = info.get("market")
        taken = len(view["market"].get(loc, [])) if m else 0
        gives = (f"deliver {'/'.join(m['goods'])} ({m['rewards'][taken]} d), city action"
                 if m and taken < len(m["rewards"]) else "city action")
    elif info.get("home"):
        gives = {1: "combat action or explore 2", 2: "3 VP", 3: "5 VP, the voyage ends"}.get(
            int(info["home"]), "homeward")
    else:
        gives = kind
    if loc in stops:
        gives += f"; stop: {_stop_tag(stops[loc])} (legacy tile {stops[loc]['id']})"
    return gives


# ---- a picture's text ------------------------------------------------------------------------------


def say(s: str) -> str:
    """A picture's text in the reader's language (issue 27: labels.py's data; English as it is)."""
    if i18n.current() == i18n.DEFAULT or _SAME.fullmatch(s):
        return s
    return labels.label(s)


#: texts that read the same in every language: codes (U3, Q12, 13a, H), numbers, signs
_SAME = re.compile(r"[A-Z]{1,2}\d*[ab]?|[-+x]?\d+[ab]?(/\d+)*|[\W\d_]*")


def _t(x: float, y: float, s: str, size: float = 9, anchor: str = "start", fill: str = "#111",
       weight: str = "normal") -> str:
    return _text(x, y, say(s), size, anchor, fill, weight)


def _text(x: float, y: float, s: str, size: float, anchor: str, fill: str, weight: str) -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}" '
            f'font-weight="{weight}">{escape(s)}</text>')


def _colour(view: View, i: int) -> str:
    return SEAT_COLOUR[i % len(SEAT_COLOUR)]
