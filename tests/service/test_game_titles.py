"""A game's title names the mode or scenario it plays, in every door: the mail's subject, the game's
page and the API's ``title`` (pbem.games.players.compose_title over Rules.game_title); a campaign's
game: the campaign's name (its story) and the game's number. A title the creator chose is kept."""

from __future__ import annotations

from django.test import Client
from django.utils.html import escape

from pbem.games import campaigns, services
from pbem.games.models import Game, OutboundMessage, Player
from tests.factories import mail_text, start_game, token_client

UPRISING_79 = "Maracaibo: The Uprising, Unrest (79)"


def _doors(game: Game, player: Player) -> tuple[list[str], str, str]:
    """The subjects of the mails of ``game``, the title on its page and the API's."""
    subjects = list(OutboundMessage.objects.filter(game=game).values_list("subject", flat=True))
    page = Client().get(f"/games/{game.pk}/").content.decode()
    api = token_client(player).get(f"/api/v1/games/{game.pk}/").json()["title"]
    return subjects, page, api


def test_a_79_game_is_told_from_a_base_game_in_every_door(alice: Player, bob: Player) -> None:
    uprising = start_game("maracaibo", alice, [bob], options={"mode": "79"})
    base = start_game("maracaibo", alice, [bob])
    subjects, page, api = _doors(uprising, alice)
    assert subjects and all(s.startswith(f"[pbem #{uprising.pk}] {UPRISING_79}") for s in subjects), subjects
    assert f"#{uprising.pk} {UPRISING_79}</h1>" in page and api == UPRISING_79
    subjects, page, api = _doors(base, alice)
    assert all(s.startswith(f"[pbem #{base.pk}] Maracaibo (substitute content)") for s in subjects), subjects
    assert api == "Maracaibo (substitute content)"
    chosen = services.do_create_game(
        alice, "maracaibo", options={"mode": "79"}, invite=[bob.email], title="Tuesday liberation"
    )
    assert chosen.title == "Tuesday liberation"


def test_a_campaign_game_is_named_by_its_campaign_and_number_not_scenario_75(alice: Player, bob: Player) -> None:
    campaign, game = campaigns.do_create_campaign(alice, "maracaibo", invite=[bob.email], options={"mode": "campaign"})
    services.do_join_game(game.pk, bob)
    game.refresh_from_db()
    assert campaign.name == "Maracaibo: The Uprising's campaign"
    title = "Maracaibo: The Uprising's campaign, game 1"
    subjects, page, api = _doors(game, alice)
    assert subjects and all(s.startswith(f"[pbem #{game.pk}] {title}") for s in subjects), subjects
    assert api == title and f"{escape(title)}</h1>" in page
    body = OutboundMessage.objects.filter(game=game, to_email=alice.email).last()
    assert body is not None and "campaign game 1 (the Uprising's story)" in mail_text(body)
    assert "scenario 75" not in mail_text(body)
    named, _game = campaigns.do_create_campaign(alice, "maracaibo", invite=[bob.email], name="Spring")
    assert named.name == "Spring" and _game.title == "Spring, game 1"
    series, first = campaigns.do_create_campaign(alice, "caravelas", invite=[bob.email])
    assert series.name == "Caravelas II campaign" and first.title == "Caravelas II campaign, game 1"
    series, first = campaigns.do_create_campaign(
        alice, "maracaibo", invite=[bob.email], options={"campaign": "no", "mode": "79"}
    )
    assert first.title == f"{UPRISING_79} campaign, game 1"  # a series of 79 games (no story)


def test_migration_0028_retitles_games_stored_with_the_old_default_title(alice: Player, bob: Player) -> None:
    import importlib

    from django.apps import apps

    from pbem.games.models import Campaign

    old = "Maracaibo (substitute content)"
    uprising = start_game("maracaibo", alice, [bob], options={"mode": "79"})
    rematch = start_game("maracaibo", alice, [bob], options={"mode": "78"})
    base = start_game("maracaibo", alice, [bob])
    chosen = services.do_create_game(alice, "maracaibo", options={"mode": "79"}, invite=[bob.email], title="Mine")
    campaign, first = campaigns.do_create_campaign(alice, "maracaibo", invite=[bob.email], options={"mode": "campaign"})
    named, spring = campaigns.do_create_campaign(alice, "maracaibo", invite=[bob.email], name="Spring")
    Game.objects.filter(pk__in=[uprising.pk, base.pk]).update(title=old)
    Game.objects.filter(pk=rematch.pk).update(title=f"{old} (rematch)")
    Campaign.objects.filter(pk=campaign.pk).update(name=f"{old} campaign")
    Game.objects.filter(pk=first.pk).update(title=f"{old} campaign, game 1")
    migration = importlib.import_module("pbem.games.migrations.0028_maracaibo_titles")
    for _ in range(2):  # (twice: the same)
        migration.retitle(apps, None)
        titles = dict(Game.objects.values_list("pk", "title"))
        assert titles[uprising.pk] == UPRISING_79 and titles[base.pk] == old
        assert titles[rematch.pk] == "Maracaibo: The Uprising, All Included (78) (rematch)"
        assert titles[chosen.pk] == "Mine" and titles[spring.pk] == "Spring, game 1"
        assert titles[first.pk] == "Maracaibo: The Uprising's campaign, game 1"
        assert Campaign.objects.get(pk=campaign.pk).name == "Maracaibo: The Uprising's campaign"
        assert Campaign.objects.get(pk=named.pk).name == "Spring"


def test_a_78_or_79_game_has_one_name_in_its_title_and_its_mail_body(alice: Player, bob: Player) -> None:
    """QA (#20): a 79 game's mail said "scenario 79 (Unrest)" under the subject "... Liberation of the
    Caribbean (79)", a 78 game's "78 (All Included)" under "... the Uprising (78)": both now say the
    scenario's name from the data's modes table."""
    for mode, name in (("79", "Unrest"), ("78", "All Included")):
        game = start_game("maracaibo", alice, [bob], options={"mode": mode})
        assert game.title == f"Maracaibo: The Uprising, {name} ({mode})"
        body = mail_text(OutboundMessage.objects.filter(game=game, to_email=alice.email).last())
        assert f"scenario {mode} ({name})" in body, body[:400]
        assert "Liberation of the Caribbean (79)" not in body and "the Uprising (78)" not in body


def test_migration_0029_names_78_and_79_games_by_their_scenario(alice: Player, bob: Player) -> None:
    import importlib

    from django.apps import apps

    from pbem.games.models import Campaign

    old79 = "Maracaibo: The Uprising, Liberation of the Caribbean (79)"
    old78 = "Maracaibo: The Uprising, the Uprising (78)"
    plain = start_game("maracaibo", alice, [bob], options={"mode": "79"})
    rematch = start_game("maracaibo", alice, [bob], options={"mode": "78"})
    chosen = services.do_create_game(alice, "maracaibo", options={"mode": "79"}, invite=[bob.email], title=f"{old79}!")
    series, first = campaigns.do_create_campaign(
        alice, "maracaibo", invite=[bob.email], options={"campaign": "no", "mode": "79"}
    )
    Game.objects.filter(pk=plain.pk).update(title=old79)
    Game.objects.filter(pk=rematch.pk).update(title=f"{old78} (rematch)")
    Game.objects.filter(pk=first.pk).update(title=f"{old79} campaign, game 1")
    Campaign.objects.filter(pk=series.pk).update(name=f"{old79} campaign")
    migration = importlib.import_module("pbem.games.migrations.0029_uprising_scenario_titles")
    for _ in range(2):  # (twice: the same)
        migration.retitle(apps, None)
        titles = dict(Game.objects.values_list("pk", "title"))
        assert titles[plain.pk] == UPRISING_79 and titles[chosen.pk] == f"{old79}!"
        assert titles[rematch.pk] == "Maracaibo: The Uprising, All Included (78) (rematch)"
        assert titles[first.pk] == f"{UPRISING_79} campaign, game 1"
        assert Campaign.objects.get(pk=series.pk).name == f"{UPRISING_79} campaign"
