"""A Portuguese player's Maracaibo campaign, base story and the Uprising's (issue 27): games played
through the service by the bot until the story has read cards, opened and taken votes and carried
legacy tiles; the campaign mails, the campaign page and every story event read by the Portuguese
player have no English left (the service's words: the pt catalogue's msgids; the story's: no engine
catalogue miss and none of its English sentences), while the English player reads English."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from engine import i18n
from pbem.games import campaign_selectors, campaigns, language, services
from pbem.games.models import Campaign, Game, OutboundMessage, Player
from tests.mail.test_language_by_mail import english_left
from tests.service.test_campaigns import finish

ENGLISH_STORY = ("reads story card", "Vote on story card", "If the vote is tied", "The vote on story card", "Chosen:",
                 "is revealed", "claims story tile", "joins the board", "The story of the campaign", "Standings",
                 " wins", " points in ", "won by")


def _no_english(text: str) -> None:
    assert english_left(text) == [], english_left(text)
    for words in ENGLISH_STORY:
        assert words not in text, (words, text)


@pytest.mark.slow
@pytest.mark.parametrize("options", [{"campaign": True, "rounds": 2},  # the base story, then the Uprising's
                                     {"campaign": True, "mode": "campaign", "rounds": 2}])
def test_a_portuguese_players_campaign_mails_page_and_story_have_no_english_left(
        options: dict[str, Any], alice: Player, bob: Player, carol: Player, moderator: Player,
        django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = iter(f"pt-story-{options.get('mode', 'base')}-{i}" for i in range(100))  # the same deals each run
    monkeypatch.setattr(services, "new_seed", lambda: next(seeds))
    services.do_update_preferences(alice, language="pt")
    campaign, game = campaigns.do_create_campaign(moderator, "maracaibo", options=options, games=3,
                                                  players=[alice.email, bob.email, carol.email])
    for n in range(3):
        finish(game.pk, django_capture_on_commit_callbacks, seed=n + 1)
        campaign = Campaign.objects.get(pk=campaign.pk)
        following = campaign.games.filter(campaign_number=n + 2).first()
        if following is None:
            break
        game = following
    # (what the games' own mails show, their boards' texts, is not the campaign's story: not counted here)
    missed: list[str] = []
    with i18n.on_miss(lambda text, code: missed.append(text)):
        played = list(campaign.games.filter(status=Game.Status.FINISHED).order_by("campaign_number"))
        assert len(played) >= 2
        kinds = {e["kind"] for g in played for m in g.moves.all() for e in m.events or []}
        assert {"story_read", "story_tile", "vote_open", "vote_result"} <= kinds, kinds

        # every story event of every game, as a Portuguese reader is told it
        with language.speaking("pt"):
            for g in played:
                story = campaign_selectors.public_story(g)
                assert story
                for line in story:
                    _no_english(line)
            told = campaign_selectors.story_so_far(campaign)
        _no_english(told)
        assert "lê a carta de história" in told, told

        # the campaign mails: Alice's in Portuguese, Bob's in English
        mails = OutboundMessage.objects.filter(subject__contains=f"campaign #{campaign.pk}")
        hers = [m.body_text for m in mails.filter(to_email=alice.email)]
        assert hers
        for body in hers:
            _no_english(body)
        his = [m.body_text for m in mails.filter(to_email=bob.email)]
        assert his and all("reads story card" in body for body in his[-1:]), his[-1:]

        # the campaign page, in her language (her setting, as the site's pages are)
        client = Client()
        client.force_login(alice.user)
        page = client.get(f"/campaigns/{campaign.pk}/", HTTP_ACCEPT_LANGUAGE="pt").content.decode()
        _no_english(page)
        assert "lê a carta de história" in page
    assert missed == [], sorted(set(missed))[:20]
