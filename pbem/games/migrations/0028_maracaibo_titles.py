"""Issues #20, #23: a Maracaibo game or campaign stored with the old default title ("Maracaibo (substitute
content)", "... campaign, game N", "... (rematch)") gets the title a new one gets, which names the mode or
scenario it plays (pbem.games.players.compose_title over Rules.game_title: "Maracaibo: The Uprising,
Liberation of the Caribbean (79)", "Maracaibo: The Uprising's campaign, game 2"), so a player's running
games tell themselves apart in every mail's subject, on the page and in the API. A title someone chose is
kept; a game of the base game keeps its title (the same). Not reversed: the old titles said less.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

#: the default title Maracaibo games were given before
OLD = "Maracaibo (substitute content)"
REMATCH = " (rematch)"


def retitle(apps: Any, schema_editor: Any) -> None:
    import engine
    from pbem.games.players import compose_title

    rules = engine.get("maracaibo")
    Campaign = apps.get_model("games", "Campaign")
    Game = apps.get_model("games", "Game")
    named: dict[int, str] = {}
    for campaign in Campaign.objects.filter(rules="maracaibo", name=f"{OLD} campaign"):
        name = compose_title(rules, campaign.options or {}, campaign=True)
        named[campaign.pk] = name
        Campaign.objects.filter(pk=campaign.pk).update(name=name)
    for game in Game.objects.filter(rules="maracaibo", title__startswith=OLD).iterator(chunk_size=100):
        if game.campaign_id is not None:
            if game.campaign_id not in named or game.title != f"{OLD} campaign, game {game.campaign_number}":
                continue
            title = f"{named[game.campaign_id]}, game {game.campaign_number}"
        else:
            rest = game.title[len(OLD) :]
            if rest not in ("", REMATCH):
                continue  # (a title someone chose that begins like the old default)
            title = compose_title(rules, game.options or {}) + rest
        if title != game.title:
            Game.objects.filter(pk=game.pk).update(title=title[:100])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0027_packed_events"),
    ]

    operations = [migrations.RunPython(retitle, migrations.RunPython.noop)]
