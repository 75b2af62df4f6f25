"""A Maracaibo campaign's story in Portuguese (issue 27): whole campaigns played by the bot, the base
story's and the Uprising's, and every public story, vote and legacy event, and every vote's options,
said again in Portuguese with nothing left in English (no catalogue miss, the text changed): the
substitute story cards' titles, texts and votes (data/campaign/story.pt.json) and the sentences that
tell them (the board's story lines, "reads story card", "Vote on story card ... If the vote is tied,
Ana decides.", the vote's result, a story tile claimed, a legacy tile added, a disc placed, the story's end)."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

import pytest

from engine import i18n
from engine.games.maracaibo import RULES
from engine.testing import player_names

STORY_KINDS = ("story", "vote", "legacy")  # (pbem.games.campaign_selectors.STORY_KINDS: the engine's own kinds)


def _story(kind: str) -> bool:
    return any(kind == k or kind.startswith(f"{k}_") for k in STORY_KINDS)


def campaign_in_portuguese(options: Mapping[str, Any], name: str, games: int) -> tuple[list[str], list[str], set[str]]:
    """Play up to ``games`` games of a campaign by the bot; the Portuguese texts of its story events
    and of its votes' options, the English texts nothing said again, and the story's event kinds."""
    said: list[str] = []
    missed: list[str] = []
    pictures: list[str] = []
    kinds: set[str] = set()
    archive = None
    with i18n.on_miss(lambda text, code: missed.append(text)):
        for g in range(games):
            seed = f"{name}-{g}"
            state = RULES.setup(player_names(3), dict(options), seed, archive=archive)
            rnd = random.Random(seed)
            for _ in range(20_000):
                pending = RULES.pending(state)
                if not pending:
                    break
                options_now = RULES.options(state, pending[0])
                if any(o.code.startswith("vote") for o in options_now):
                    with i18n.language("pt"):
                        said += [o.label for o in RULES.options(state, pending[0])]
                        # the board's story lines too ("STORY: game 2 of the campaign", "Card 3, ...", "Last read")
                        said += [line for line in RULES.render_text(RULES.view(state, None)).splitlines()
                                 if line.startswith(("HISTÓRIA", "  Carta", "  Última", "  Peças de história"))]
                        # and the board picture's story band, wide and phone (render_story.py): its texts
                        view = RULES.view(state, 0)
                        for picture in (RULES.render_svg(view), *RULES.render_phone_svg(view)):
                            said += [t for t in re.findall(r"<text[^>]*>([^<]*)</text>", picture)
                                     if t.startswith(("História", "Carta", "Última", "Pilha de história",
                                                      "Peça de discos", "Pela história"))]
                            pictures.append(picture)
                o = RULES.bot_choice(state, pending[0], options_now, rnd)
                for e in RULES.apply(state, pending[0], o.move):
                    d = e.as_dict()
                    if d.get("to") is None and _story(str(d["kind"])):
                        kinds.add(str(d["kind"]))
                        text = str(i18n.told(d, "pt")["text"])
                        assert text != d["text"], d["text"]  # said again, not shown as it was made
                        said.append(text)
            archive = RULES.archive(state)
            assert archive is not None
            if archive["ended"]:
                break
    # the picture's band said nothing in English ("Story:", "Last read", "Story pile", a tile "free")
    for english in ("Story:", "Last read", "Last vote", "Story pile", ": free", "Disc tile", "fulfilled by"):
        assert not any(english in picture for picture in pictures), english
    assert any("Pilha de história" in picture for picture in pictures)
    return said, missed, kinds


@pytest.mark.parametrize("options, name", [({"campaign": True, "rounds": 4}, "pt-story"),
                                           ({"campaign": True, "mode": "campaign"}, "pt-uprising")])
def test_a_whole_campaigns_story_is_told_in_portuguese(options: dict[str, Any], name: str) -> None:
    said, missed, kinds = campaign_in_portuguese(options, name, 8)
    assert missed == [], missed
    # the campaign told its story: cards read and revealed, votes opened and taken, tiles claimed, the end
    assert {"story_read", "story_card", "story_tile", "vote_open", "vote_result", "story_end"} <= kinds, kinds
    joined = "\n".join(said)
    for english in ("reads story card", "Vote on story card", "If the vote is tied", "The vote on story card",
                    "Chosen:", "is revealed", "claims story tile", "joins the board", "The story of the campaign",
                    "STORY:", "Last read",
                    " the ", " and ", " of "):
        assert english not in joined, english
    assert "lê a carta de história" in joined and "Se a votação empatar" in joined and "HISTÓRIA: jogo" in joined
