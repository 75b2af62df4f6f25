"""The Uprising's map legend and its legacy tiles' tags overlap no other text, in English and in Portuguese.

Play-test of 79 in Portuguese: the legend, drawn line by line as the English falls, ran over the tag
"pedágio: 1 marcador" (itself measured in English, so wider than its box), the flag of 10 Maracaibo and
the number 10a; L37's tag right of 13 ran into the legend."""

from __future__ import annotations

import pytest

from engine import i18n
from engine.games.maracaibo import RULES
from engine.games.maracaibo.render_base import say
from engine.games.maracaibo.render_map import NEW_TAGS
from tests.engine import svg_checks


@pytest.mark.parametrize("mode", ["78", "79"])
@pytest.mark.parametrize("code", ["en", "pt"])
def test_the_legend_and_the_new_tiles_tags_overlap_no_text(mode: str, code: str) -> None:
    for seed in ("a", "b", "c"):  # (seed c deals L37 at 13 in 78)
        st = RULES.setup(["Ana", "Bob", "Carla"], {"mode": mode}, seed)
        with i18n.language(code):
            found = svg_checks.labels(RULES.render_svg(RULES.view(st, 0)))
            tags = {say(tag) for tag in NEW_TAGS.values()}
        legend = {lab.text for lab in found if round(lab.box.x0) == 384}
        assert legend, "the legend is drawn"
        clashes = [pair for pair in svg_checks.overlapping(found) if set(pair) & (legend | tags)]
        assert not clashes, (mode, code, seed, clashes)
