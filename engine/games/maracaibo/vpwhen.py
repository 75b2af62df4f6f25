"""When an option's VP come (issue #21): every "N VP" an option gives says so ("3 VP now").

An option's VP are scored when the option is taken (a fight's reward, a village action, a quest, a
ship area, the interim scoring's 2 VP), so its label says "now". A label that already says when
("3 VP now", "2 VP at the end"), a rate or an income ("+1 VP income", "+2 VP for each quest you
fulfil") and a card's own text (its effects come when they are used; its VP "at the end") are left
as they are. The word "now" is one more word of the label: a line that leaves it out is still read
as the option (notation matches the words typed against the label's).
"""

from __future__ import annotations

import re

#: "N VP" not already followed by when they come and not a "+N" (an income or a lasting effect)
_VP = re.compile(r"(?<![+\d])(\d+) VP\b(?! now| at the end| at scoring| income)")


def vp_when(label: str) -> str:
    """The label with "now" after each "N VP" the option scores when taken."""
    if "VP" not in label or "at the end" in label:  # (a card's text: VP at the end, effects when used)
        return label
    return _VP.sub(r"\1 VP now", label)
