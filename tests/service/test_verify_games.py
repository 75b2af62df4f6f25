"""manage.py verify_games: stored games replayed with the running engine, what fails reported."""

from __future__ import annotations

import copy
import importlib
import io
import json
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command

from engine.games.maracaibo.upgrade import FORMAT, current
from pbem.games import services
from pbem.games.models import Game, Move, Source
from tests.factories import play_first_options, player_at, set_state, start_game


def _run(*ids: int) -> str:
    out = io.StringIO()
    call_command("verify_games", *[str(i) for i in ids], stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_it_replays_every_started_game_and_finds_them_all_matching(alice, bob, carol):
    maretta = start_game("maretta", alice, [bob, carol], {"side": "B"})
    caravelas = start_game("caravelas", alice, [bob])
    play_first_options(maretta.pk, limit=12)
    play_first_options(caravelas.pk, limit=9)
    out = _run()
    assert "2 games replayed (21 moves): all match" in out
    assert out.startswith("engine: ")


@pytest.mark.django_db
def test_it_names_a_game_whose_stored_state_is_not_the_replay_of_its_log(alice, bob, carol):
    good = start_game("maretta", alice, [bob, carol])
    bad = start_game("maretta", alice, [bob, carol])
    play_first_options(bad.pk, limit=5)
    bad.refresh_from_db()
    state = copy.deepcopy(bad.state)
    assert state is not None
    state["pos"] = [p + 1 for p in state["pos"]]
    set_state(bad, state)
    with pytest.raises(CommandError, match="1 of 2 games"):
        _run()
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_games", stdout=out)
    text = out.getvalue()
    assert (f"game #{bad.pk} (maretta, 5 moves): the stored state differs from the replay of its 5 moves "
            "(keys: pos)") in text
    assert f"game #{good.pk}" not in text
    assert "all match" in _run(good.pk)


@pytest.mark.django_db
def test_it_reports_a_stored_state_the_engine_cannot_read(alice, bob, carol):
    game = start_game("caravelas", alice, [bob])
    state = copy.deepcopy(game.state)
    assert state is not None
    del state["players"]
    set_state(game, state)
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 of 1 games"):
        call_command("verify_games", str(game.pk), stdout=out)
    assert "its log does not replay: KeyError" in out.getvalue()
    assert "the engine fails on its stored state: KeyError" in out.getvalue()


@pytest.mark.django_db
def test_it_upgrades_a_state_stored_by_an_older_release_before_comparing(alice, bob):
    # A Maracaibo game stored before its state had a format (format 0: no "format" key) replays
    # as today's engine plays it once upgraded, and plays on (engine/games/maracaibo/upgrade.py).
    game = start_game("maracaibo", alice, [bob], {"rounds": 1})
    play_first_options(game.pk, limit=14)
    game.refresh_from_db()
    state = copy.deepcopy(game.state)
    assert state is not None and state.pop("format") == FORMAT
    del state["options"]["mode"]  # (format 0 had no Uprising option either)
    for old, new in (("qpile", "quest_pile"), ("tquests", "track_quests"), ("pbox", "prestige_box")):
        state[old] = state.pop(new)  # (format 0's names)
    Game.objects.filter(pk=game.pk).update(state=state)  # (as stored: set_state reads it with the engine)
    assert "1 game replayed (14 moves): all match" in _run(game.pk)
    game.refresh_from_db()
    assert game.state is not None and "format" not in game.state  # (read-only: nothing saved)
    play_first_options(game.pk, limit=3)
    game.refresh_from_db()
    assert game.state is not None and game.state["format"] == FORMAT  # saved upgraded with the next move
    assert "quest_pile" in game.state and "qpile" not in game.state
    assert "all match" in _run(game.pk)


@pytest.mark.django_db
def test_it_reports_a_state_of_a_format_newer_than_the_engine(alice, bob):
    game = start_game("maracaibo", alice, [bob], {"rounds": 1})
    state = copy.deepcopy(game.state)
    assert state is not None
    state["format"] = 99
    Game.objects.filter(pk=game.pk).update(state=state)
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 of 1 games"):
        call_command("verify_games", str(game.pk), stdout=out)
    assert "its stored state cannot be upgraded: UnknownFormat: this Maracaibo state has format 99" in out.getvalue()


@pytest.mark.django_db
def test_a_78_game_stored_by_c0d8ac1_replays_after_migration_0026_and_undoes(alice, bob, carol):
    # A game of the Uprising's 78 stored by main c0d8ac1 (tests/engine/golden: the new legacy tiles unplayed,
    # format 5) with its seed, options and log: today's setup alone deals it otherwise; its stored state says
    # the release that set it up, and migration 0026 marks its options with it too (scenarios.RELEASES).
    g = json.loads((Path(__file__).parent.parent / "engine/golden/maracaibo_78_before_l30.json").read_text())
    game = start_game("maracaibo", alice, [bob, carol], {"mode": "78"})
    assert game.options["release"] == "current"  # (a new game is today's)
    old_options = g["state"]["options"]  # (as that release stored them: no release)
    Game.objects.filter(pk=game.pk).update(seed=g["seed"], options=old_options, state=g["state"],
                                           version=len(g["moves"]), moves_recorded=len(g["moves"]))
    Move.objects.filter(game=game).delete()  # (its own log is that game's)
    Move.objects.bulk_create([Move(game=game, seat=seat, move={"code": code}, source=Source.API, version=i + 1,
                                   number=i + 1) for i, (seat, code) in enumerate(g["moves"])])
    # (its stored state says its release: a replay reads it there, Rules.replay_options, before the migration too)
    assert "1 game replayed (150 moves): all match" in _run(game.pk)

    migration = importlib.import_module("pbem.games.migrations.0026_maracaibo_release")
    migration.mark_release(apps, None)
    game.refresh_from_db()
    assert game.options == {**old_options, "release": "c0d8ac1"}
    assert "1 game replayed (150 moves): all match" in _run(game.pk)
    migration.mark_release(apps, None)  # (twice: the same)
    game.refresh_from_db()
    assert game.options == {**old_options, "release": "c0d8ac1"}

    # a move, then taken back: the replay of the log before it is the stored state
    before = copy.deepcopy(game.state)
    seat = g["rest"][0][0]
    services.do_submit_moves(game.pk, player_at(game, seat), [services.Command(code=g["rest"][0][1])], source="api")
    game.refresh_from_db()
    assert game.state["format"] == FORMAT and game.state["options"]["release"] == "c0d8ac1"
    services.do_undo_last_move(game.pk, player_at(game, seat))
    game.refresh_from_db()
    current(before)  # (the stored state as the engine reads it: upgraded, format 8)
    assert game.state == before
    assert "all match" in _run(game.pk)


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "release"), [("maracaibo_79_188b109", "bb5188b"),
                                               ("maracaibo_campaign_57805f3_1", "17a12c0"),
                                               ("maracaibo_campaign_57805f3_3", "17a12c0"),
                                               ("maracaibo_campaign_5962877_3", "ef92d45"),
                                               ("maracaibo_campaign_d8204d4_1", "c572794"),
                                               ("maracaibo_campaign_base_0f021dc_2", "current")])
def test_a_game_stored_by_an_older_release_replays_and_a_move_of_it_is_taken_back(alice, bob, carol, name, release):
    # Issues 20 and 23: a 79 game stored by main 188b109 (93f71f2 to 7e3c82d's parent), an Uprising
    # campaign's first and third games stored by main 57805f3 (before 5c3c7c5) and a third game stored by main
    # 5962877 (before cefd5f3: L30 not played), a first game stored by main d8204d4 after card 150's vote
    # (before ef92d45: the Resistance Tiles alone), a base story's second game stored by main 0f021dc (before
    # c572794: no story book, a version-1 archive), as those releases stored them
    # (their options without release; tests/engine/golden/make_maracaibo_releases.py): verify_games replays
    # them from seed, options, archive and log to the stored state, by the release their state says
    # (scenarios.release_of), with no migration; a move then taken back is the replay of the log before it.
    g = json.loads((Path(__file__).parent.parent / f"engine/golden/{name}.json").read_text())
    others = [bob] if len(g["players"]) == 2 else [bob, carol]
    game = start_game("maracaibo", alice, others, {"mode": "79"})
    Game.objects.filter(pk=game.pk).update(seed=g["seed"], options=g["options"], state=g["state"],
                                           archive=g["archive"], version=len(g["moves"]),
                                           moves_recorded=len(g["moves"]))
    Move.objects.filter(game=game).delete()
    Move.objects.bulk_create([Move(game=game, seat=seat, move={"code": code}, source=Source.API, version=i + 1,
                                   number=i + 1) for i, (seat, code) in enumerate(g["moves"])])
    assert f"1 game replayed ({len(g['moves'])} moves): all match" in _run(game.pk)

    game.refresh_from_db()
    before = copy.deepcopy(game.state)
    seat = g["rest"][0][0]
    services.do_submit_moves(game.pk, player_at(game, seat), [services.Command(code=g["rest"][0][1])], source="api")
    game.refresh_from_db()
    assert game.state["format"] == FORMAT and game.state["options"]["release"] == release
    services.do_undo_last_move(game.pk, player_at(game, seat))
    game.refresh_from_db()
    current(before)
    assert game.state == before
    assert "all match" in _run(game.pk)


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["maracaibo_79_188b109", "maracaibo_campaign_57805f3_1"])
def test_the_export_of_a_finished_game_of_an_older_release_replays_with_the_engine(alice, bob, carol, name, tmp_path):
    # its export says the release its state says (the stored options have none), so python -m engine replay
    # sets it up as that release did and reaches the recorded outcome
    import subprocess
    import sys

    from django.utils import timezone

    from engine.games.maracaibo import RULES
    from engine.record import outcome_record
    from pbem.games.selectors import game_export

    g = json.loads((Path(__file__).parent.parent / f"engine/golden/{name}.json").read_text())
    others = [bob] if len(g["players"]) == 2 else [bob, carol]
    game = start_game("maracaibo", alice, others, {"mode": "79"})
    moves = [*g["moves"], *g["rest"]]
    Game.objects.filter(pk=game.pk).update(
        seed=g["seed"], options=g["options"], state=g["final"], archive=g["archive"], version=len(moves),
        moves_recorded=len(moves), status=Game.Status.FINISHED, finished_at=timezone.now(),
        outcome=json.loads(json.dumps(outcome_record(RULES, copy.deepcopy(g["final"])))))
    Move.objects.filter(game=game).delete()
    Move.objects.bulk_create([Move(game=game, seat=seat, move={"code": code}, source=Source.API, version=i + 1,
                                   number=i + 1) for i, (seat, code) in enumerate(moves)])
    export = game_export(game.pk)
    assert export["options"] == {**g["options"], "release": "bb5188b" if "79" in name else "17a12c0",
                                 **({"port_pool": "all"} if "79" in name else {})}  # (79 then dealt Genova)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True,
                          timeout=120, cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(moves)} moves replayed; finished" in done.stdout


@pytest.mark.django_db
def test_a_finished_first_campaign_game_stored_before_17a12c0_replays_to_its_end_and_its_archive(alice, bob, carol):
    # Issue 23: main 5962877's first game of the Uprising's story, played to its end: card 151 added 155 and
    # 160 at final scoring, not card 184 (17a12c0's); verify_games replays it to the stored end (the release
    # row's story_next), and the archive the service hands on is the one it produced
    from django.utils import timezone

    from engine.games.maracaibo import RULES
    from engine.record import outcome_record

    g = json.loads((Path(__file__).parent.parent / "engine/golden/maracaibo_campaign_5962877_1.json").read_text())
    game = start_game("maracaibo", alice, [bob, carol][: len(g["players"]) - 1], {"mode": "79"})
    moves = [*g["moves"], *g["rest"]]
    Game.objects.filter(pk=game.pk).update(
        seed=g["seed"], options=g["options"], state=g["final"], archive=g["archive"], version=len(moves),
        moves_recorded=len(moves), status=Game.Status.FINISHED, finished_at=timezone.now(),
        outcome=json.loads(json.dumps(outcome_record(RULES, copy.deepcopy(g["final"])))))
    Move.objects.filter(game=game).delete()
    Move.objects.bulk_create([Move(game=game, seat=seat, move={"code": code}, source=Source.API, version=i + 1,
                                   number=i + 1) for i, (seat, code) in enumerate(moves)])
    assert f"1 game replayed ({len(moves)} moves): all match" in _run(game.pk)
    final = copy.deepcopy(g["final"])
    current(final)
    archive = RULES.archive(final)
    assert archive is not None and 184 not in archive["story"]["unread"]
