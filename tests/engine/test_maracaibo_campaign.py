"""Maracaibo's story campaign (issue 23; docs/rules/maracaibo-campaign.md): games played by the bot,
each set up from the archive of the one before, and the rules of the story checked on what they did."""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest

from engine.core import BadArchive, Event, State
from engine.games.maracaibo import RULES
from engine.games.maracaibo import campaign as K
from engine.games.maracaibo import content as C
from engine.testing import check_conformance, player_names

Game = tuple[State, list[tuple[int, dict[str, Any]]], list[list[Event]]]


def play(n: int, seed: str, archive: Mapping[str, Any] | None = None, rounds: int = 4,
         stop: Any = None) -> Game:
    """A campaign game played by the bot (its votes too): the state, the moves, each move's events.
    ``stop(state)``: stop before the first move where it holds."""
    state = RULES.setup(player_names(n), {"campaign": True, "rounds": rounds}, seed, archive=archive)
    rnd = random.Random(seed)
    moves: list[tuple[int, dict[str, Any]]] = []
    events: list[list[Event]] = []
    for _ in range(20_000):
        pending = RULES.pending(state)
        if not pending or (stop is not None and stop(state)):
            break
        seat = pending[0]
        o = RULES.bot_choice(state, seat, RULES.options(state, seat), rnd)
        moves.append((seat, dict(o.move)))
        events.append(RULES.apply(state, seat, o.move))
    return state, moves, events


@cache
def campaign(n: int, name: str) -> tuple[Game, ...]:
    """A whole campaign: games played one after the other until the story ends."""
    games: list[Game] = []
    archive = None
    for g in range(8):
        game = play(n, f"{name}-{g}", archive)
        games.append(game)
        archive = RULES.archive(game[0])
        assert archive is not None
        if archive["ended"]:
            break
    return tuple(games)


def kinds(game: Game, kind: str) -> list[Event]:
    return [e for evs in game[2] for e in evs if e.kind == kind]


def test_it_plays_a_whole_campaign_whose_every_archive_replays() -> None:
    games = campaign(3, "whole")
    assert len(games) >= 5
    archive = None
    for i, (state, moves, _) in enumerate(games):
        again = RULES.setup(list(state["players"]), {"campaign": True}, f"whole-{i}", archive=archive)
        for seat, move in moves:
            RULES.apply(again, seat, move)
        assert again == state  # seed + archive + moves: the identical state
        archive = RULES.archive(state)
        assert archive is not None and archive["game"] == i + 1
        if not archive["ended"]:
            RULES.check_archive(archive)  # (an ended story is continued by no game: refused)
        assert archive == RULES.archive(again)
    assert archive is not None and archive["ended"] and len(archive["results"]) == len(games)
    with pytest.raises(BadArchive, match="ended"):
        RULES.setup(player_names(3), {"campaign": True}, 1, archive=archive)


def test_it_decides_by_vote_and_the_votes_change_later_games() -> None:
    seen: set[str] = set()
    for i in range(12):  # campaigns until both ways of chapter I's vote were taken
        if {"spain", "england"} <= seen and i >= 3:
            break
        last = campaign(2, f"x{i}")[-1][0]
        flags = last["story"]["flags"]
        read = last["story"]["read"]
        # chapter I's vote sends the story to card 2 (Spain) or card 3 (England), never both
        assert ("spain" in flags) == (2 in read or 2 in last["story"]["board"]) != ("england" in flags)
        # chapter II's card follows the vote of chapter I when card 6's vote came after it: 7 after Spain
        later = {*read, *last["story"]["board"], *last["story"]["unread"]}
        six = next((f for f in flags if f in ("quarantine", "open")), None)
        if six is not None:
            spain_first = "spain" in flags and flags.index("spain") < flags.index(six)
            assert (7 in later) == spain_first and (8 in later) == (not spain_first)
        seen.update(flags)
    assert {"spain", "england"} <= seen  # both branches were taken


def _at_vote(state: State) -> bool:
    return bool(state["stack"]) and state["stack"][-1]["kind"] == "vote"


def first_vote(n: int, name: str) -> State:
    """The first vote of a campaign, its game replayed from its archive and moves up to it."""
    archive = None
    for i, (state, moves, _) in enumerate(campaign(n, name)):
        s = RULES.setup(list(state["players"]), {"campaign": True}, f"{name}-{i}", archive=archive)
        for seat, move in moves:
            if _at_vote(s):
                return s
            RULES.apply(s, seat, move)
        archive = RULES.archive(state)
    raise AssertionError("no vote in the whole campaign")


def test_it_takes_a_vote_hidden_until_all_voted_the_reader_breaking_a_tie() -> None:
    state = first_vote(3, "whole")
    assert _at_vote(state) and RULES.pending(state) == [0, 1, 2]
    d = state["stack"][-1]["data"]
    reader, choices = d["reader"], [o.code for o in RULES.options(state, 0)]
    other = [s for s in range(3) if s != reader]
    # a vote is told to its voter only; the others see that a vote was cast, not which
    views = []
    for code in choices[:2]:
        s = copy.deepcopy(state)
        events = RULES.apply(s, other[0], {"code": code})
        assert [e.text for e in events if e.visible_to(other[1])] == [f"{s['players'][other[0]]} has voted."]
        assert any(code[4:] in e.text for e in events if e.to == (other[0],))
        views.append(RULES.view(s, other[1]))
    assert views[0] == views[1]
    # the majority wins, against the reader
    majority = copy.deepcopy(state)
    RULES.apply(majority, reader, {"code": choices[0]})
    RULES.apply(majority, other[0], {"code": choices[1]})
    result = [e for e in RULES.apply(majority, other[1], {"code": choices[1]}) if e.kind == "vote_result"]
    assert result[0].data["choice"] == choices[1][4:] and result[0].reveals  # shown once all voted


def test_a_votes_options_say_what_each_choice_does_and_still_read_as_vote_x() -> None:
    """QA (#23): the options read only "vote spain / vote england"."""
    state = first_vote(3, "whole")
    card = K.cards(state)[state["stack"][-1]["data"]["card"]]
    options = RULES.options(state, 0)
    assert len(options) == len(card["back"]["vote"]) >= 2
    for o, (k, choice) in zip(options, card["back"]["vote"].items(), strict=True):
        assert o.label.startswith(f"vote {k} ({choice['label']}") and o.label != f"vote {k}", o.label
        if choice.get("all"):
            assert f"every player {C.gain_text(choice['all'])}" in o.label
        if choice.get("reader"):
            assert f"the reader {C.gain_text(choice['reader'])}" in o.label
        assert RULES.parse(f"vote {k}", state, 0)["code"] == o.code  # the notation is unchanged
    assert K.vote_words({"label": "sold to the English", "reader": {"d": 3}, "legacy": ["L9"]}) == (
        "sold to the English: the reader 3 doubloons; legacy tile L9 joins the board")


def test_it_breaks_a_tie_with_the_readers_vote() -> None:
    state = first_vote(2, "branch-a")
    d = state["stack"][-1]["data"]
    reader = d["reader"]
    codes = [o.code for o in RULES.options(state, 0)]
    for mine, theirs in ((codes[0], codes[1]), (codes[1], codes[0])):
        s = copy.deepcopy(state)
        RULES.apply(s, 1 - reader, {"code": theirs})
        result = next(e for e in RULES.apply(s, reader, {"code": mine}) if e.kind == "vote_result")
        assert result.data["choice"] == mine[4:]
        assert "breaking the tie" in result.text


def test_a_vote_opens_saying_who_decides_a_tie_not_that_one_was_broken() -> None:
    """Played as a group would (#23): the story said "Vote on story card 1: ... Alice breaks a tie." when the
    vote opened, before anyone voted (the two votes then agreed), which read as if a tie had been broken."""
    opened = 0
    for state, _moves, events in campaign(3, "whole"):
        for evs in events:
            for e in evs:
                if e.kind == "vote_open":
                    opened += 1
                    assert "breaks a tie" not in e.text, e.text
                    assert any(e.text.endswith(f". If the vote is tied, {name} decides.") for name in state["players"])
    assert opened


def test_it_reads_story_cards_in_increasing_number_by_whoever_fulfilled_them() -> None:
    reads = 0
    for game in campaign(3, "whole"):
        claims = {e.data["card"]: e.data["seat"] for e in kinds(game, "story_tile")}
        for evs in game[2]:
            read = [e for e in evs if e.kind == "story_read"]
            tile_cards = [e.data["card"] for e in read if K.CARD[e.data["card"]]["front"]["requires"]["kind"] == "tile"]
            assert tile_cards == sorted(tile_cards)
            for e in read:
                reads += 1
                req = K.CARD[e.data["card"]]["front"]["requires"]
                if req["kind"] == "tile":
                    assert e.data["seat"] == claims[e.data["card"]]  # the one who claimed the story tile
    assert reads >= 10


def test_it_gives_the_four_story_tiles_in_order() -> None:
    for game in campaign(3, "whole"):
        tiles = game[0]["story"]["tiles"]
        claimed = [t for t in tiles if t is not None]
        assert tiles[:len(claimed)] == claimed  # tile 1 first, then 2...
        assert len(kinds(game, "story_tile")) >= len(claimed)


def test_it_tucks_each_read_card_under_its_readers_ship_board() -> None:
    games = campaign(3, "whole")
    last = games[-1][0]["story"]
    for game in games:
        for e in kinds(game, "story_read"):
            assert e.data["card"] in last["tucked"][e.data["seat"]]
    assert sorted(c for t in last["tucked"] for c in t) == sorted(last["read"])


def test_it_replenishes_quests_only_when_a_story_card_is_revealed() -> None:
    for game in campaign(2, "branch-a")[:2]:
        for evs in game[2]:
            if any(e.kind == "quests" for e in evs):
                assert any(e.kind in ("story_card", "story_read") for e in evs)
        assert kinds(game, "round")  # rounds began without quests of their own


def test_it_puts_the_card_added_at_final_scoring_into_the_archive_unread() -> None:
    games = campaign(2, "branch-b")
    first = RULES.archive(games[0][0])
    assert first is not None and first["story"]["unread"]
    unread = first["story"]["unread"]
    assert not set(unread) & set(first["story"]["read"])
    texts = " ".join(e.text for e in kinds(games[0], "story_card"))
    for cid in unread:
        assert K.CARD[cid]["front"]["text"] not in texts  # its front was not followed yet
    second = RULES.view(games[1][0], None)  # the next game: shown once it is played
    assert any(cid in [b["card"] for b in second["story"]["board"]] or cid in games[1][0]["story"]["read"]
               for cid in unread)


def test_it_skips_story_cards_to_the_bottom_of_the_pile() -> None:
    state = RULES.setup(player_names(2), {"campaign": True}, 5)
    pile = list(state["story"]["pile"])
    evs: list[Event] = []
    K._effects(state, {"next": [pile[2]]}, 0, None, evs, final=False)  # type: ignore[arg-type]
    assert state["story"]["pile"] == pile[3:] + pile[:2]
    assert pile[2] in state["story"]["board"] and any(e.kind == "story_card" and e.reveals for e in evs)


def test_it_adds_legacy_tiles_with_their_combat_actions_to_later_games() -> None:
    archive = RULES.archive(campaign(2, "branch-a")[0][0])
    assert archive is not None
    archive = {**archive, "legacy": ["L6", "L9"]}
    state = RULES.setup(player_names(2), {"campaign": True}, 7, archive=archive)
    assert state["legacy"] == ["L6", "L9"] and state["markers"].get("12") == "spain"

    def in_combat(s: State) -> bool:
        return bool(s["stack"]) and s["stack"][-1]["kind"] == "combat" and s["stack"][-1]["data"]["value"] >= 5

    s, _, _ = play(2, "combat", archive=archive, stop=in_combat)
    seat = RULES.pending(s)[0]
    assert {"cxL6a", "cxL6b"} <= {o.code for o in RULES.options(s, seat)}


def test_it_shuffles_the_c_cards_into_the_a_cards_from_the_second_game() -> None:
    games = campaign(2, "branch-a")

    def cards(s: State) -> set[int]:
        return {*s["deck"], *(c for p in s["seats"] for c in [*p["hand"], *(p["setup"] or {}).get("dealt", [])])}

    first = RULES.setup(player_names(2), {"campaign": True}, "branch-a-0")
    assert not cards(first) & set(C.NUMBERED)
    archive = RULES.archive(games[0][0])
    assert archive is not None and archive["story"]["c_cards"]
    second = RULES.setup(player_names(2), {"campaign": True}, "branch-a-1", archive=archive)
    assert set(archive["story"]["c_cards"]) <= cards(second)


def test_it_fills_disc_tiles_and_reads_their_card_by_the_player_who_ended_the_round() -> None:
    full = 0
    for n, name in ((3, "whole"), (2, "branch-a"), (2, "branch-b"), (2, "branch-c")):
        for game in campaign(n, name):
            ended = None
            placed: dict[str, int] = {}
            for e in (e for evs in game[2] for e in evs):
                if e.kind == "round_end":
                    ended = e.data["seat"]
                elif e.kind == "story_disc":
                    placed[e.data["tile"]] = placed.get(e.data["tile"], 0) + 1
                elif e.kind == "story_read" and K.CARD[e.data["card"]]["front"]["requires"]["kind"] != "tile":
                    assert e.data["seat"] == ended  # the player who ended the round reads it
                    if K.CARD[e.data["card"]]["front"]["requires"]["kind"] == "discs":
                        full += 1
    assert full >= 1


@pytest.mark.parametrize("change", [
    lambda a: {**a, "version": K.ARCHIVE_VERSION + 1},
    lambda a: {**a, "story": {**a["story"], "book": "maretta"}},
    lambda a: {**a, "story": {**a["story"], "modules": ["search"]}},
    lambda a: {**a, "legacy": ["L34"]},  # (an Uprising tile in the base story)
    lambda a: {**a, "legacy": ["L99"]},
    lambda a: {**a, "story": {**a["story"], "pile": a["story"]["pile"][1:]}},
    lambda a: {**a, "story": {**a["story"], "tucked": [[], []]}},
    lambda a: {**a, "story": {**a["story"], "c_cards": [1]}},
    lambda a: {**a, "story": {**a["story"], "discs": {"W9": []}}},
    lambda a: {**a, "seats": ["Ann", "Bob", "Cy"]},
    lambda a: {**a, "legacy": [{"x": 1}]},
    lambda a: {**a, "story": {**a["story"], "tucked": [1, 2]}},
    lambda a: {**a, "story": {**a["story"], "log": [1]}},
    lambda a: {**a, "results": ["first"]},
    lambda a: {**a, "story": {**a["story"], "c_cards": [[90]]}},
])
def test_it_refuses_an_archive_it_cannot_continue(change: Any) -> None:
    archive = RULES.archive(campaign(2, "branch-a")[0][0])
    assert archive is not None
    with pytest.raises(BadArchive):
        RULES.setup(player_names(2), {}, 1, archive=change(archive))


def test_it_names_a_seat_added_or_dropped_in_an_archive_by_its_seats() -> None:
    """An archive edited to seat one player fewer (played through the API, #23) was refused as "story.tucked
    must list, for each seat, the read cards ...": true, but it did not say the seats were what changed."""
    archive = RULES.archive(campaign(2, "branch-a")[0][0])
    assert archive is not None
    for seats, said in ((["Ann"], "names 1 seat (seats) but its story has 2"),
                        (["Ann", "Bob", "Cy"], "names 3 seats (seats) but its story has 2")):
        with pytest.raises(BadArchive, match=re.escape(said)):
            RULES.check_archive({**archive, "seats": seats})
    with pytest.raises(BadArchive, match=r"story\.tucked must list"):  # (the lists themselves still checked)
        RULES.check_archive({**archive, "story": {**archive["story"], "tucked": [[], []]}})


def test_it_refuses_a_campaign_with_options_it_does_not_play() -> None:
    for n, options in ((2, {"scenario": "76"}), (2, {"mode": "78"}), (1, {"mode": "74"}), (2, {"mode": "193"})):
        with pytest.raises(Exception, match="campaign"):
            RULES.setup(player_names(n), {"campaign": True, **options}, 1)
    with pytest.raises(Exception, match="campaign"):  # the campaign's modes without a campaign
        RULES.setup(player_names(2), {"mode": "campaign"}, 1)


def test_it_passes_the_conformance_checker_in_a_campaign() -> None:
    report = check_conformance(RULES, 3, {"rounds": 2, "campaign": True}, seeds=["conf-campaign"])
    assert report.finished == 1 and report.resamples_that_changed > 0


def test_it_passes_the_conformance_checker_in_a_game_set_up_from_an_archive() -> None:
    archive = RULES.archive(campaign(2, "branch-a")[1][0])
    report = check_conformance(RULES, 2, {"rounds": 2}, seeds=["conf-next"], archive=archive)
    assert report.finished == 1 and report.resamples_that_changed > 0
    assert report.last_state is not None and report.last_state["story"]["game"] == 3


def test_it_adds_the_option_campaign_to_an_older_state_in_format_5() -> None:
    from engine.games.maracaibo.upgrade import UPGRADES, current

    state = RULES.setup(player_names(2), {}, 3)
    old = copy.deepcopy(state)
    old["format"] = 4  # (a state of format 4 had neither campaign nor the later options)
    old["options"] = {k: v for k, v in old["options"].items() if k not in ("campaign", "promos")}
    step = copy.deepcopy(old)
    UPGRADES[4](step)
    assert step["format"] == 5 and list(step["options"])[-1] == "campaign" and step["options"]["campaign"] is False
    current(old)  # (and on, through the later formats)
    assert old == state  # a game on its own


def test_it_reads_every_vote_of_the_story_written_in_a_mail() -> None:
    state = first_vote(3, "whole")
    for cid, card in K.CARD.items():
        if "vote" not in card["back"]:
            continue
        s = copy.deepcopy(state)
        s["stack"][-1]["data"]["card"] = cid
        for choice in card["back"]["vote"]:
            assert RULES.parse(f"vote {choice}", s, 0)["code"] == f"vote{choice}"
            assert RULES.parse(f"Vote {choice.upper()}", s, 1)["code"] == f"vote{choice}"


def test_it_passes_the_conformance_checker_through_a_vote(monkeypatch: pytest.MonkeyPatch) -> None:
    # card 1 claimed at the first turn's end (its requirement lowered to 0 quests), so the checker
    # meets the vote at final scoring: simultaneous, hidden until all voted, in any order
    card = copy.deepcopy(K.CARD[1])
    card["front"]["requires"]["at_least"] = 0
    monkeypatch.setitem(K.CARD, 1, card)
    report = check_conformance(RULES, 3, {"rounds": 1, "campaign": True}, seeds=["conf-vote"])
    assert report.finished == 1
    _, _, events = play(3, "conf-vote", rounds=1)
    assert any(e.kind == "vote_result" for evs in events for e in evs)
