"""Issue #20: a Maracaibo game of the Uprising's scenarios 78 or 79 set up by main c0d8ac1 or before (the new
legacy tiles L30-L37 drawn but not played, fewer new cards dealt, no new city tiles) gets the internal option
``release: "c0d8ac1"``, so that its replay from seed, options and moves (undo, a moderator's rollback,
``manage.py verify_games``) sets it up as that release did (engine/games/maracaibo/scenarios.RELEASES).

Such a game is recognised by its stored state as that release wrote it: the drawn new tiles in
``legacy_unplayed`` and no ``legacy_new`` (format 5 or 6), or ``legacy_new`` empty (saved again after the
engine's format 7 upgrade; today's setup always plays L30). The test is written out here, not imported from
the engine, so that this migration does the same whatever later releases change (upgrade.py's format 8 step
gives the state's own options the same value).
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

#: the release whose setup those games replay (the option's value)
RELEASE = "c0d8ac1"


def set_up_by_c0d8ac1(state: Any) -> bool:
    """A stored state of a 78/79 game set up by main c0d8ac1 or before."""
    if not isinstance(state, dict) or "story" in state or not state.get("legacy_unplayed"):
        return False
    options = state.get("options") or {}
    return options.get("mode") in ("78", "79") and state.get("legacy_new", []) == []


def mark_release(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(rules="maracaibo").exclude(state__isnull=True).iterator(chunk_size=50):
        options = dict(game.options or {})
        if "release" in options or options.get("mode") not in ("78", "79") or not set_up_by_c0d8ac1(game.state):
            continue
        options["release"] = RELEASE
        Game.objects.filter(pk=game.pk).update(options=options)


def unmark_release(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(rules="maracaibo", options__release=RELEASE).iterator(chunk_size=50):
        options = {k: v for k, v in (game.options or {}).items() if k != "release"}
        Game.objects.filter(pk=game.pk).update(options=options)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0025_lean_indexes"),
    ]

    operations = [migrations.RunPython(mark_release, unmark_release)]
