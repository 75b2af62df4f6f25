"""The Uprising's campaign, the base campaign with the expansion, the solo campaign and the archive's
versions (issue 23; docs/rules/maracaibo-campaign.md): whole campaigns played by the bot (its votes
too), each game set up from the archive of the one before, the rules checked on what they did."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from engine.core import BadArchive, Event, State
from engine.games.maracaibo import RULES, coop, homeports, uprising
from engine.games.maracaibo import campaign as K
from engine.games.maracaibo import content as C
from engine.games.maracaibo import uprising_content as U
from engine.games.maracaibo.archive_upgrade import ARCHIVE_VERSION, upgrade_archive
from engine.rng import Rng, seed_to_state
from engine.testing import check_conformance, player_names

Game = tuple[State, list[tuple[int, dict[str, Any]]], list[list[Event]]]
UPRISING = {"campaign": True, "mode": "campaign"}
GOLDEN_V1 = Path(__file__).parent / "golden" / "maracaibo_archive_v1_3p.json"


def play(n: int, options: Mapping[str, Any], seed: str, archive: Mapping[str, Any] | None = None) -> Game:
    """A campaign game played by the bot (its votes too): the state, the moves, each move's events."""
    state = RULES.setup(player_names(n), dict(options), seed, archive=archive)
    rnd = random.Random(seed)
    moves: list[tuple[int, dict[str, Any]]] = []
    events: list[list[Event]] = []
    for _ in range(20_000):
        pending = RULES.pending(state)
        if not pending:
            break
        o = RULES.bot_choice(state, pending[0], RULES.options(state, pending[0]), rnd)
        moves.append((pending[0], dict(o.move)))
        events.append(RULES.apply(state, pending[0], o.move))
    assert RULES.outcome(state) is not None
    return state, moves, events


@cache
def campaign(n: int, name: str, options: str = json.dumps(UPRISING)) -> tuple[Game, ...]:
    """A whole campaign (the options as JSON, for the cache): games until the story ends."""
    games: list[Game] = []
    archive = None
    for g in range(8):
        game = play(n, json.loads(options), f"{name}-{g}", archive)
        games.append(game)
        archive = RULES.archive(game[0])
        assert archive is not None
        if archive["ended"]:
            break
    return tuple(games)


def archives(games: tuple[Game, ...]) -> list[dict[str, Any]]:
    out = [RULES.archive(g[0]) for g in games]
    assert all(a is not None for a in out)
    return [a for a in out if a is not None]


def test_it_starts_the_uprisings_campaign_from_card_150_with_l1_l4_l30_and_the_home_ports() -> None:
    state = RULES.setup(player_names(3), UPRISING, "start")
    story = state["story"]
    assert story["book"] == "uprising" and story["board"] == [150, 151] and story["game"] == 1
    assert state["legacy"] == ["L1", "L4"] and state["legacy_new"] == ["L30"]  # L30, the new city, played
    assert state["legacy_board"] == {"L30": {}} and state["legacy_unplayed"] == []
    assert {state["quests"][loc] is not None for loc in ("3", "12", "16")} == {True}  # card 150's quests
    assert all(len(p["setup"]["ports"]) == 3 and p["board"] == "uprising" for p in state["seats"])  # Home Ports
    assert all("resist" not in p for p in state["seats"])  # no Resistance Tiles in the first game
    view = RULES.view(state, 0)
    assert view["story"]["book"] == "uprising" and "SUBSTITUTE" in view["story"]["label"]
    assert K.BOOKS["uprising"]["label"].startswith("SUBSTITUTE")


def test_it_plays_a_whole_uprising_campaign_of_five_games_whose_every_archive_replays() -> None:
    games = campaign(3, "upr-whole")
    assert len(games) == 5
    archive = None
    for i, (state, moves, _) in enumerate(games):
        again = RULES.setup(list(state["players"]), UPRISING, f"upr-whole-{i}", archive=archive)
        for seat, move in moves:
            RULES.apply(again, seat, move)
        assert again == state  # seed + archive + moves: the identical state
        archive = RULES.archive(state)
        assert archive is not None and archive["story"]["book"] == "uprising" and archive["version"] == ARCHIVE_VERSION
        if not archive["ended"]:
            RULES.check_archive(archive)
            assert {"L1", "L4", "L30"} <= set(archive["legacy"])  # the legacy tiles go on in the archive
    assert archive is not None and archive["ended"] and 190 in archive["story"]["read"]


def test_it_branches_the_uprisings_story_on_the_votes_and_adds_the_uprising_and_resistance_after_a_game() -> None:
    seen: set[str] = set()
    liberated = 0
    for i in range(10):
        if {"resist", "neutral"} <= seen and {"charts", "sold"} <= seen:
            break
        games = campaign(2, f"upr-b{i}")
        flags = archives(games)[-1]["story"]["flags"]
        seen.update(flags)
        first = games[0][0]
        # card 150's vote: join (the Resistance Tiles from the next game, card 152) or watch (card 153)
        assert ("resist" in flags) != ("neutral" in flags)
        later_cards = {c for g in games for c in (*g[0]["story"]["read"], *g[0]["story"]["board"])}
        assert (152 in later_cards) == ("resist" in flags) and (153 in later_cards) == ("neutral" in flags)
        assert all("resist" not in p for p in first["seats"])  # never in the game of the vote
        joined = next(g for g, (s, _, _) in enumerate(games) if "resist" in s["story"]["flags"]) \
            if "resist" in flags else None
        for g, (s, _, events) in enumerate(games):
            if K.scenario_game(s):  # (card 184's or 185's game: the scenario's modules, tested below)
                continue
            has_tiles = all("resist" in p for p in s["seats"])
            assert has_tiles == (joined is not None and g > joined) == uprising.playing(s)
            liberated += sum(1 for evs in events for e in evs if e.kind == "liberate")
            assert has_tiles or not any(e.kind == "liberate" for evs in events for e in evs)
        # card 184 (the campaign's Unrest) comes only to those who joined the fight
        if 184 in later_cards:
            assert "resist" in flags
    assert {"resist", "neutral"} <= seen and {"charts", "sold"} <= seen
    assert liberated > 0  # the captains fought against the nations (L40's actions) after joining


def test_it_keeps_the_legacy_tiles_with_card_184_and_removes_card_185s_tiles() -> None:
    state = RULES.setup(player_names(2), UPRISING, "c184")
    state["legacy_new"] = [*state["legacy_new"], "L34", "L35"]
    before = (list(state["legacy"]), list(state["legacy_new"]), list(state["legacy_unplayed"]))
    story = state["story"]
    story["pile"] = [c for c in story["pile"] if c not in (184, 185)]
    ev: list[Event] = []
    K.reveal(state, 184, ev)  # Unrest's campaign card: the legacy tiles are not changed
    assert (state["legacy"], state["legacy_new"], state["legacy_unplayed"]) == before
    K.reveal(state, 185, ev)  # The Rescue's campaign card: the tiles it names leave the board
    assert state["legacy_new"] == ["L30"] and state["legacy_unplayed"] == [] and "L30" in state["legacy_board"]
    assert [e.data["tile"] for e in ev if e.kind == "legacy_removed"] == ["L34", "L35"]


def test_it_plays_scenario_79s_game_with_card_184_and_193s_with_card_185_from_the_archive() -> None:
    # a seeded bot campaign that plays 79 and 193 (upr-scen22 stopped reaching 79 when Genova was left out of
    # the ports dealt with Liberation, format 16)
    games = campaign(2, "upr-scen26")
    modes = [g[0]["options"]["mode"] for g in games]
    assert modes == ["campaign", "79", "campaign", "193", "campaign"]
    arcs = archives(games)
    for g in (1, 3):
        before, (state, moves, events) = arcs[g - 1], games[g]
        card, scen = (184, "79") if g == 1 else (185, "193")
        assert card in before["story"]["unread"] and K.scenario_of(before) == scen  # the archive decides
        fresh = RULES.setup(list(state["players"]), UPRISING, f"upr-scen26-{g}", archive=before)
        for seat, move in moves:  # seed + archive + moves: the identical state
            RULES.apply(fresh, seat, move)
        assert fresh == state
        start = RULES.setup(list(state["players"]), UPRISING, f"upr-scen26-{g}", archive=before)
        assert K.scenario_game(start) == scen and card in start["story"]["board"]  # revealed at setup
        assert homeports.modules(start) == U.MODES[scen]["modules"]  # the scenario's modules, not the story's
        assert all(p["port"] is None and len(p["setup"]["ports"]) == 3 for p in start["seats"])  # Home Ports
        assert all("resist" in p and "combat_tile" in p for p in start["seats"])  # Resistance Tiles, Liberation
        assert {*start["quest_pile"], *start["quests"].values(), *start["track_quests"].values()} \
            == {str(q["id"]) for q in U.QUESTS}  # the expansion's 28 quest tiles
        numbered = {c for c in C.CARD if C.CARD[c]["numbered"]} - set(start["story"]["c_cards"])
        assert not numbered & {*start["deck"], *start["box"]}  # no cards 90-106: a campaign card, no scenario card
        tiles = [*start["legacy"], *start["legacy_new"], *start["legacy_unplayed"]]
        if scen == "79":  # "as Peças Legacy não serão alteradas": the archive's tiles, 79's markers on 2-19
            assert sorted(tiles) == sorted(before["legacy"])
            for nation, locs in U.SCENARIOS["79"]["markers"].items():
                assert all(start["markers"][loc] == nation for loc in locs)
            assert not coop.cooperative(start) and "jacques" not in start
            assert any(e.kind == "markers" for evs in events for e in evs)  # set-aside markers in rounds 2-4
            assert arcs[g]["results"][-1]["scenario"] == "79" and "team" not in arcs[g]["results"][-1]
        else:  # the Rescue: the card's tiles removed, cooperative against Jacques with The Search
            assert sorted(tiles) == sorted(t for t in before["legacy"] if t not in ("L34", "L35", "L36"))
            assert coop.cooperative(start) and "jacques" in start and "search" in start
            assert not set(start["supply"]["spain"]) - {0}  # the unused markers to the box
            result = arcs[g]["results"][-1]
            assert result["team"] == coop.team_result(state).won and result["automa"]["name"] == "jacques"
            assert result["winners"] == ([0, 1] if result["team"] else [])
    # the games around them play the story's mode: the campaign's competitive game
    assert all(K.scenario_game(g[0]) is None for i, g in enumerate(games) if i not in (1, 3))


def test_it_shows_card_184s_and_185s_games_by_the_schema_and_hides_what_a_seat_may_not_know() -> None:
    games = campaign(2, "upr-scen26")
    validator = jsonschema.Draft202012Validator(RULES.view_schema())
    arcs = archives(games)
    for g in (1, 3, 4):  # the 79 and 193 games, and the game after them (their results in the story)
        start = RULES.setup(list(games[g][0]["players"]), UPRISING, f"upr-scen26-{g}", archive=arcs[g - 1])
        for state in (start, games[g][0]):
            for seat in (None, 0, 1):
                view = RULES.view(state, seat)
                assert not [e.message for e in validator.iter_errors(view)]
                if state is start and seat is not None:  # the others' hands, ports, the piles dealt anew
                    other = RULES.resample_hidden(copy.deepcopy(state), seat, Rng({"rng": seed_to_state(f"h{g}")}))
                    assert other != state and RULES.view(other, seat) == view
    assert [r.get("scenario") for r in arcs[-1]["results"]] == [None, "79", None, "193", None]


def test_it_deals_the_expansions_quest_tiles_in_a_campaign_played_with_it() -> None:
    expansion = {str(q["id"]) for q in U.QUESTS}
    for options in (UPRISING, {"campaign": True, "mode": "campaign_base"}):
        state = RULES.setup(player_names(3), options, "quests")
        dealt = [*state["quest_pile"], *state["quests"].values(), *state["track_quests"].values()]
        assert sorted(dealt) == sorted(expansion) and len(dealt) == 28
        later = campaign(2, "upr-scen26")[2][0]  # a later game, set up from an archive
        assert set(later["quests"].values()) | set(later["track_quests"].values()) <= expansion
    base = RULES.setup(player_names(3), {"campaign": True}, "quests")  # without the expansion: the base game's
    assert {*base["quest_pile"], *base["quests"].values()} <= {q["id"] for q in C.TILES["quests"]}


def test_it_adds_the_expansions_new_project_cards_to_the_b_deck_in_every_campaign_game_with_it() -> None:
    """"Adicione as novas cartas de projeto às cartas B do jogo base": every game with the expansion, a
    campaign's too (the story's mode, campaign_base, and a later game set up from an archive); the
    numbered 100-106 are scenario cards' and stay out, as 90-99 do (the C-cards aside)."""
    new = {int(c["id"]) for c in U.PLAYABLE_CARDS if not c["numbered"]}
    assert len(new) == len([c for c in U.CARDS if not c["numbered"]])  # every one of them the rules play
    games = campaign(2, "upr-scen26")
    arcs = archives(games)
    starts = [RULES.setup(player_names(3), UPRISING, "b-deck"),
              RULES.setup(player_names(3), {"campaign": True, "mode": "campaign_base"}, "b-deck"),
              RULES.setup(list(games[2][0]["players"]), UPRISING, "upr-scen26-2", archive=arcs[1])]
    for state in starts:
        b_deck = {c for c in [*state["deck"], *state["box"], *state["display"], *state["discard"]]
                  if C.CARD[c]["deck"] != "A"}
        assert new <= b_deck and len(b_deck) == len(C.B_CARDS) + len(new)  # 40 of them dealt, the rest boxed
        assert new & set(state["deck"])  # some of them in the play deck
        numbered = {c for c in C.CARD if C.CARD[c]["numbered"]} - set(state["story"]["c_cards"])
        assert not numbered & b_deck
    assert starts[2]["options"]["mode"] == "campaign"
    again = RULES.setup(list(games[2][0]["players"]), UPRISING, "upr-scen26-2", archive=arcs[1])
    for seat, move in games[2][1]:  # seed + archive + moves: the identical state, the new cards played
        RULES.apply(again, seat, move)
    assert again == games[2][0]
    played = {c for p in again["seats"] for c in p["display"]}
    assert played & new
    base = RULES.setup(player_names(3), {"campaign": True}, "b-deck")  # without the expansion: none of them
    assert not new & {*base["deck"], *base["box"], *base["display"]}


def test_it_plays_the_base_campaign_with_the_expansion() -> None:
    games = campaign(2, "base-exp", json.dumps({"campaign": True, "mode": "campaign_base"}))
    assert len(games) == 5
    for state, _, _ in games:
        assert state["options"]["mode"] == "campaign_base" and state["story"]["book"] == "base"
        assert all(p["board"] == "uprising" and p["port"] is not None for p in state["seats"])  # a home port kept
    # a base campaign begun without the expansion goes on with it: the archive says which story
    base = play(2, {"campaign": True}, "base-then-exp")
    archive = RULES.archive(base[0])
    assert archive is not None
    nxt = RULES.setup(player_names(2), UPRISING, "base-then-exp-1", archive=archive)
    assert nxt["options"]["mode"] == "campaign_base" and nxt["story"]["book"] == "base" and nxt["story"]["game"] == 2


@pytest.mark.parametrize(("automa", "options"), [
    ("jean", {"campaign": True}),
    ("jacques", {"campaign": True, "mode": "campaign", "automa": "jacques"}),
    # the Uprising's story against Jean: her routes never name L30's new city (it crashed her route)
    ("jean", {"campaign": True, "mode": "campaign", "automa": "jean"}),
], ids=["base-jean", "uprising-jacques", "uprising-jean"])
def test_it_plays_a_solo_campaign_the_player_deciding_every_vote(automa: str, options: dict[str, Any]) -> None:
    games = campaign(1, f"solo-{automa}", json.dumps(options))
    assert len(games) == 5
    votes = [e for g in games for evs in g[2] for e in evs if e.kind == "vote_result"]
    assert votes and all(list(e.data["votes"]) == ["0"] for e in votes)  # one voter: the player decides
    for a, (state, _, _) in zip(archives(games), games, strict=True):
        r = a["results"][-1]
        assert all(x["reader"] == 0 for x in a["story"]["log"])  # the automa reads nothing
        if "team" in r:  # card 185's game, the Rescue: cooperative against Jacques (scenario 193)
            assert r["automa"] == {"name": "jacques",
                                   "vp": state["jacques"]["victory_points"]} and r["scenario"] == "193"
            assert r["winners"] == ([0] if r["team"] else []) and r["team"] == coop.team_result(state).won
            continue
        assert r["automa"] == {"name": automa, "vp": state[automa]["victory_points"]}
        assert r["winners"] == ([0] if r["scores"][0] > r["automa"]["vp"] else [])  # a tie is the automa's
        assert all(x["reader"] == 0 for x in a["story"]["log"])  # the automa reads nothing
    assert len({a["seats"][0] for a in archives(games)}) == 1


@pytest.mark.parametrize(("n", "options"), [
    (2, UPRISING),
    (1, {**UPRISING, "automa": "jacques"}),
    (3, {"campaign": True, "mode": "campaign_base"}),
], ids=["uprising-2", "uprising-solo-jacques", "base-with-expansion-3"])
def test_it_passes_the_conformance_checker_in_the_campaigns_with_the_expansion(n: int,
                                                                               options: dict[str, Any]) -> None:
    report = check_conformance(RULES, n, {"rounds": 2, **options}, seeds=[f"conf-{n}"])
    assert report.finished == 1 and report.resamples_that_changed > 0


# ---- the archive's versions -------------------------------------------------------------------


def test_it_continues_a_real_version_1_archive_upgraded() -> None:
    """The archive of game 2 of a 3-player base campaign, written by the engine of main dcadee7
    (archive version 1: no story.book, no story.modules)."""
    old = json.loads(GOLDEN_V1.read_text(encoding="utf-8"))
    assert old["version"] == 1 and "book" not in old["story"]
    RULES.check_archive(old)  # checked as it is upgraded
    new = upgrade_archive(old)
    assert new["version"] == ARCHIVE_VERSION and new["story"]["book"] == "base" and new["story"]["modules"] == []
    assert {k: v for k, v in new["story"].items() if k not in ("book", "modules")} == old["story"]
    assert old == json.loads(GOLDEN_V1.read_text(encoding="utf-8"))  # (the given archive is not changed)
    players = list(old["seats"])
    from_old = RULES.setup(players, {}, "v1-next", archive=old)
    assert from_old == RULES.setup(players, {}, "v1-next", archive=new)  # the same game goes on
    assert from_old["story"]["game"] == 3 and from_old["story"]["flags"] == old["story"]["flags"]
    state, _, _ = play(3, {}, "v1-next", old)
    archive = RULES.archive(state)
    assert archive is not None and archive["version"] == ARCHIVE_VERSION and archive["game"] == 3


def test_it_refuses_an_archive_of_a_version_it_does_not_know() -> None:
    old = json.loads(GOLDEN_V1.read_text(encoding="utf-8"))
    for version, message in ((ARCHIVE_VERSION + 1, "newer"), (0, "version"), ("1", "version")):
        with pytest.raises(BadArchive, match=message):
            RULES.check_archive({**copy.deepcopy(old), "version": version})
