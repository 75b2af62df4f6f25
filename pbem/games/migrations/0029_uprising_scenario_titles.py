"""Issue #20 (QA): a game of the Uprising's scenario 78 or 79 was titled by a module's name ("Maracaibo: The
Uprising, Liberation of the Caribbean (79)", "... the Uprising (78)") while its mail said the scenario card's
("scenario 79 (Unrest)"): titles now take the scenario's name from the data's modes table ("Maracaibo: The
Uprising, Unrest (79)", "... All Included (78)"), so a stored game titled the old way gets the new name
(its " campaign, game N" or " (rematch)" kept; a
series of such games, its campaign's name too). A title someone chose is kept. Not reversed.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

#: the names the titles of 78 and 79 used before, and the ones they use now (engine/games/maracaibo/titles.py)
RENAMED = {
    "Maracaibo: The Uprising, the Uprising (78)": "Maracaibo: The Uprising, All Included (78)",
    "Maracaibo: The Uprising, Liberation of the Caribbean (79)": "Maracaibo: The Uprising, Unrest (79)",
}


def retitle(apps: Any, schema_editor: Any) -> None:
    Campaign = apps.get_model("games", "Campaign")
    Game = apps.get_model("games", "Game")
    for old, new in RENAMED.items():
        Campaign.objects.filter(rules="maracaibo", name=f"{old} campaign").update(name=f"{new} campaign")
        for game in Game.objects.filter(rules="maracaibo", title__startswith=old).only("pk", "title"):
            rest = game.title[len(old) :]
            if rest in ("", " (rematch)") or rest.startswith(" campaign, game "):
                Game.objects.filter(pk=game.pk).update(title=(new + rest)[:100])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0028_maracaibo_titles"),
    ]

    operations = [migrations.RunPython(retitle, migrations.RunPython.noop)]
