"""The campaign page in headless Chromium on a phone (390 px): the standings' heads and cells keep
their words whole where the row has room, in English and in Portuguese, and the table fits."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games import campaigns
from pbem.games.models import Player
from tests.factories import make_player, token_client

pytestmark = [pytest.mark.django_db(transaction=True)]

#: every word of the standings' cells that the screen breaks across lines (a cell may wrap between words)
_BROKEN = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector('table.standings'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""


def test_it_keeps_the_standings_words_whole_on_a_phone(new_page: Any, site: str) -> None:
    """QA: at 390 px the heads read 'Plac|e', 'Sea|t', 'Win|s', 'Game|s' (overflow-wrap: anywhere
    let the table squeeze each column below its word) though the Player column had room."""
    alice: Player = make_player("alice@example.org", "Alice")
    bob: Player = make_player("bob@example.org", "Bob")
    campaign, game = campaigns.do_create_campaign(alice, "maracaibo", name="Long summer", invite=[bob.email])
    assert token_client(bob).post(f"/api/v1/games/{game.pk}/join/").status_code == 200
    campaigns.do_hand_over_seat(campaign.pk, alice, 1, "carla@example.org", "Bob sails away", name="Carla")
    for language in ("en", "pt"):
        page = new_page({"width": 390, "height": 844})
        page.set_extra_http_headers({"Accept-Language": language})
        page.goto(f"{site}/campaigns/{campaign.pk}/")
        heads = page.locator("table.standings th").all_inner_texts()
        assert heads[2] in ("Player", "Jogador"), heads
        assert page.evaluate(_BROKEN) == [], language
        assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_it_keeps_an_invited_players_words_whole_on_a_phone(new_page: Any, site: str) -> None:
    """Seen in the Portuguese screenshot: an unanswered invitation, 'um jogador convidado', broke into
    'convida|do' at 390 px (only a one-word, address-like name may break anywhere)."""
    alice: Player = make_player("alice@example.org", "Alice")
    campaign, _game = campaigns.do_create_campaign(alice, "maracaibo", name="Summer", invite=["bob@example.org"])
    for language, invited in (("en", "an invited player"), ("pt", "um jogador convidado")):
        page = new_page({"width": 390, "height": 844})
        page.set_extra_http_headers({"Accept-Language": language})
        page.goto(f"{site}/campaigns/{campaign.pk}/")
        assert invited in page.locator("table.standings").inner_text(), language
        assert page.evaluate(_BROKEN) == [], language
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
