"""A quest's tag on the map holds its name whole (QA #20, seen in mail-picture-uprising-390.png): a
mail's picture draws its text bigger, and the Uprising's four-character quests ("UQ23") spilled out of
the base game's 14-unit tag, up under the framed ship. On the page's map and in mails' pictures of
scenario 79, over a real game played by the engine."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import engine
from engine import svg as kit
from engine.games.maracaibo import render_map, render_phone
from tests.engine.test_mail_picture_reach import _sail_states

RULES = engine.get("maracaibo")
NS = "{http://www.w3.org/2000/svg}"


def _spilled(doc: str) -> list[str]:
    """The quest tags (a yellow rect, its text right after it) whose text is wider than the tag."""
    out, tag = [], None
    for el in ET.fromstring(doc).iter():
        if el.tag == f"{NS}rect" and el.get("fill") == "#ffd43b" and el.get("stroke") == "#a07c00":
            tag = el
            continue
        if tag is not None and el.tag == f"{NS}text" and el.get("text-anchor") == "middle":
            text = "".join(el.itertext())
            size = float(el.get("font-size") or 0)
            width = kit.text_width(text, size, el.get("font-weight") == "bold")
            left, right = float(tag.get("x") or 0), float(tag.get("x") or 0) + float(tag.get("width") or 0)
            mid = float(el.get("x") or 0)
            if mid - width / 2 < left - 0.5 or mid + width / 2 > right + 0.5:
                out.append(f"{text} at {size} px: {width:.1f} wide in a tag of {right - left:.1f}")
        tag = None  # (a tag whose text the picture's edge dropped: nothing to hold)
    return out


def test_every_quest_tag_holds_its_name_on_the_page_and_in_the_mail() -> None:
    tags = longest = 0
    states = [(st, seat) for st, seat, _opts in _sail_states(2, 79, {"mode": "79"}, want=4)]
    states += [(RULES.setup(["Ana", "Bruno"], {"mode": "79"}, f"quest-tags-{k}"), 0) for k in range(12)]
    for st, seat in states:
        view = RULES.view(st, seat)
        # the page's picture, a mail's, and the whole map as a mail draws it (its text at the mail's size)
        whole = ('<svg xmlns="http://www.w3.org/2000/svg">'
                 + "".join(render_map._svg_map(view, least=render_phone.MAIL_LEAST, legend=False)) + "</svg>")
        for doc in (RULES.render_svg(view), RULES.render_mail_svg(view), whole):
            assert not _spilled(doc), _spilled(doc)
            tags += doc.count('fill="#ffd43b" stroke="#a07c00"')
        longest = max([longest, *(len(str(q)) for q in view["quests"].values())])
    assert tags and longest >= 4, "the pictures drew quest tags, some of four characters"
