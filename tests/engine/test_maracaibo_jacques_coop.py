"""The cooperative scenarios 74 and 193 (option mode), 1 to 4 players against Jacques, and the
engine contract's team result (docs/rules/maracaibo-cooperative.md; CO below)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.core import Event, Outcome, State, TeamResult
from engine.errors import SetupError
from engine.games.maracaibo import RULES, coop, resistance
from engine.games.maracaibo.board import loc_kind
from engine.testing import check_conformance, player_names


def table(n: int, seed: Any = 1, mode: str = "74", **options: Any) -> State:
    return RULES.setup(player_names(n), {"mode": mode, **options}, seed)


def started(n: int, seed: Any = 1, **options: Any) -> State:
    """Past the setup choices (each seat the first option until none is left)."""
    state = table(n, seed, **options)
    while state["stack"][-1]["kind"] == "setup":
        seat = RULES.pending(state)[0]
        RULES.apply(state, seat, RULES.options(state, seat)[0].move)
    return state


def play_turn(state: State) -> list[Event]:
    """The pending seat's whole turn by the game's default moves."""
    seat = RULES.pending(state)[0]
    out: list[Event] = []
    for _ in range(60):
        opt = RULES.default_move(state, seat)
        assert opt is not None
        events = RULES.apply(state, seat, opt.move)
        out += events
        if state["over"] or any(e.kind in ("turn", "round_end") for e in events):
            return out
    raise AssertionError("the turn did not end")


def finish(state: State, seed: int = 0) -> Outcome:
    rnd = random.Random(seed)
    while not state["over"]:
        seat = RULES.pending(state)[0]
        RULES.apply(state, seat, RULES.bot_choice(state, seat, RULES.options(state, seat), rnd).move)
    out = RULES.outcome(state)
    assert out is not None
    return out


# ---- setup -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("mode", ["74", "193"])
def test_it_sets_the_cards_markers_by_player_count_and_seats_jacques(n: int, mode: str) -> None:
    state = table(n, mode=mode, jacques_level=3)
    scen = coop.SCENARIOS[mode]
    per = scen["per_location"][str(n)]
    for nation, locs in scen["blocks"].items():
        for loc in locs:
            kind = loc_kind(state, loc)
            if kind not in ("village", "city") or per[kind] == 0:
                assert loc not in state["markers"] and loc not in state["garrison"]
                continue
            assert state["markers"][loc] == nation
            assert 1 + state["garrison"].get(loc, 0) == per[kind]
    # the substitute rows, lightened for one and two players (a table of one or two can win: bench/coop.py)
    assert coop.markers_left(state) == {1: 7, 2: 11, 3: 26, 4: 26}[n]
    # the rulebook's example: with three players, one French marker on each village of 2-7, two on each city
    if n == 3:
        assert [1 + state["garrison"].get(loc, 0) for loc in ("2", "3", "4", "5", "6", "7")] == [1, 1, 2, 2, 1, 1]
    assert all(not any(s) for s in state["supply"].values())  # the unused markers: the box
    assert state["jacques"]["level"] == 3 and "jean" not in state
    assert RULES.view(state, 0)["garrison"] == state["garrison"]


@pytest.mark.parametrize("mode", ["74", "193"])
def test_it_sets_the_cards_legacy_tiles_project_cards_and_quests_as_the_other_scenarios_do(mode: str) -> None:
    from engine.games.maracaibo import content as C
    from engine.games.maracaibo import uprising_content as U

    scen = U.SCENARIOS[mode]
    for n in (1, 3):
        state = table(n, seed=f"legacy-{n}", mode=mode)
        revealed = state["discard"][-3:]  # three project cards revealed: a tile by each one's object, by column
        want = ["L1", *(scen["legacy_by_object"][C.CARD[c]["object"]][i] for i, c in enumerate(revealed))]
        want += ["L32"] if "L31" in want else []  # (the ruin comes with its track)
        assert sorted([*state["legacy"], *state["legacy_new"]]) == sorted(want)
        assert set(range(90, 100)) <= {*state["deck"], *state["box"], *state["display"], *state["discard"],
                                       *state["returned"], *(c for p in state["seats"] for c in p["setup"]["dealt"])}
        quests = [*state["quest_pile"], *state["quests"].values(), *state["track_quests"].values()]
        assert sorted(quests) == sorted(q["id"] for q in U.QUESTS)
        first = scen["quests"]["1"]
        assert sorted(state["quests"]) == sorted([*first["all"], *(first["three"] if n >= 3 else [])])
        assert not scen["nation_scoring"]


def test_it_is_played_solo_in_the_cooperative_modes_only() -> None:
    assert "jacques" in table(1)
    for mode in ("basic", "78", "79"):
        with pytest.raises(SetupError, match="2 to 4 players"):
            table(1, mode=mode)


@pytest.mark.parametrize(("level", "a", "b"), [(1, 7, 0), (2, 5, 2), (3, 3, 4), (4, 2, 5)])
@pytest.mark.parametrize("mode", ["74", "193"])
def test_it_sets_up_solo_by_the_rulebooks_numbers(mode: str, level: int, a: int, b: int) -> None:
    from collections import Counter

    from engine.games.maracaibo import search

    state = table(1, seed=f"solo-{mode}-{level}", mode=mode, jacques_level=level)
    # Jacques: 12 cards (7 A, 5 B); Simple removes 5 B, Medium 3 B + 2 A, Hard 1 B + 4 A, Very hard 5 A;
    # 7 cards shuffled into his pile; his VP marker at 0
    j = state["jacques"]
    kinds = Counter(c[0] for c in j["pile"])
    assert len(j["pile"]) == 7 and (kinds["A"], kinds["B"]) == (a, b) and len(j["box"]) == 5
    assert j["victory_points"] == 0 and state["players"] == ["Ana"]
    if mode == "74":
        assert "search" not in state
        return
    # The Search solo: card 192; two hints face down on each of 2, 3, 6, 8, 10, 14-19 (one on 2 is for
    # 2 or 4 players only), no space covered (that too is for 2 or 4 players), the two red spaces; Luysa
    # found when exactly 11 hints are left on the board; her ransom 15 doubloons
    s = state["search"]
    assert s["card"] == 192
    locations = ("2", "3", "6", "8", "10", "14", "15", "16", "17", "18", "19")
    assert {loc: len(h) for loc, h in s["board"].items()} == dict.fromkeys(locations, 2)
    assert len(s["red"]) == 2 and "X" not in s["red"] + s["green"]
    assert search.DATA["card"]["192"]["found_at_left"] == 11 and search.LUYSA["ransom_d"] == 15
    # solo, you win if you have more points than Jacques (and meet the card's other conditions)
    finish(state)
    state["markers"], state["garrison"] = {}, {}
    state["search"]["found"], state["search"]["freed"] = "5", 0
    state["seats"][0]["victory_points"] = state["jacques"]["victory_points"]
    out = RULES.outcome(state)
    assert out is not None and out.team is not None and not out.team.won  # a tie is his
    state["seats"][0]["victory_points"] += 1
    out = RULES.outcome(state)
    assert out is not None and out.team is not None and out.team.won and out.winners == (0,)


# ---- Jacques among several players --------------------------------------------------------------------

def test_it_reveals_jacques_card_only_once_every_player_has_played() -> None:
    state = started(3, seed=4)
    seen = []
    for _ in range(6):
        seat = RULES.pending(state)[0]
        ev = play_turn(state)
        seen.append((seat, [e.data["area"] for e in ev if e.kind == "jacques_card"]))
    assert seen == [(0, []), (1, []), (2, [1]), (0, []), (1, []), (2, [2])]
    assert RULES.pending(state) == [0]


# ---- markers beneath ----------------------------------------------------------------------------------

def test_it_brings_up_the_marker_beneath_when_a_location_is_liberated() -> None:
    state = started(4)
    assert state["garrison"]["4"] == 1 and coop.markers_left(state) > len(state["markers"])
    before = coop.markers_left(state)
    ev: list[Event] = []
    resistance.liberate(state, 0, "4", ev)
    assert state["markers"]["4"] == "france" and "4" not in state["garrison"]
    assert any(e.kind == "garrison" for e in ev) and coop.markers_left(state) == before - 1
    resistance.liberate(state, 0, "4", ev)
    assert "4" not in state["markers"] and coop.markers_left(state) == before - 2


# ---- the shared outcome ---------------------------------------------------------------------------------

def test_it_gives_the_whole_table_one_result_with_the_conditions_met_and_missed() -> None:
    state = started(3)
    out = finish(state)
    team = out.team
    assert team is not None and out.ranking == ((0, 1, 2),)  # co-operators are never ranked apart
    assert out.winners == ((0, 1, 2) if team.won else ())
    assert set(team.met) | set(team.missed) == {coop.CONDITIONS["no_markers"], coop.CONDITIONS["above_jacques"]}
    assert (coop.CONDITIONS["no_markers"] in team.met) == (coop.markers_left(state) == 0)
    above = all(p["victory_points"] > state["jacques"]["victory_points"] for p in state["seats"])
    assert (coop.CONDITIONS["above_jacques"] in team.met) == above
    record = out.as_dict()
    assert record["team"] == {"won": team.won, "met": list(team.met), "missed": list(team.missed)}
    assert record["automa"] == {"Jacques": float(state["jacques"]["victory_points"])}
    assert RULES.view(state, 1)["outcome"]["team"] == record["team"]


def test_it_wins_together_only_when_every_condition_is_met() -> None:
    state = started(2)
    finish(state)
    state["markers"], state["garrison"] = {}, {}
    for p in state["seats"]:
        p["victory_points"] = state["jacques"]["victory_points"] + 1
    out = RULES.outcome(state)
    assert out is not None and out.team == TeamResult(True, tuple(coop.CONDITIONS[c] for c in ("no_markers",
                                                                                            "above_jacques")))
    assert out.winners == (0, 1) and "wins together" in out.reason
    state["seats"][1]["victory_points"] = state["jacques"]["victory_points"]  # one player not above him: all lose
    out = RULES.outcome(state)
    assert out is not None and out.team is not None and not out.team.won and out.winners == ()
    assert out.team.missed == (coop.CONDITIONS["above_jacques"],) and "loses together" in out.reason
    state["garrison"] = {"4": 1}  # a marker beneath counts
    out = RULES.outcome(state)
    assert out is not None and out.team is not None and len(out.team.missed) == 2


def test_it_keeps_every_other_games_outcome_without_a_team() -> None:
    plain = Outcome(scores={0: 3.0, 1: 1.0}, ranking=((0,), (1,)), reason="r")
    assert plain.team is None and "team" not in plain.as_dict() and plain.winners == (0,)
    state = RULES.setup(player_names(2), {}, 5)
    assert not RULES.cooperative(state) and RULES.cooperative(table(2))
    import engine

    maretta = engine.get("maretta")
    assert not maretta.cooperative(maretta.setup(player_names(3), {}, 1))  # the contract's default
    out = finish(state)
    assert out.team is None and "team" not in out.as_dict()


# ---- conformance: every player count, every difficulty --------------------------------------------------

@pytest.mark.parametrize(("n", "level"), [(1, 1), (2, 2), (3, 3), (4, 4)])
def test_it_passes_the_conformance_checker_for_one_cooperative_round(n: int, level: int) -> None:
    report = check_conformance(RULES, n, {"mode": "74", "rounds": 1, "jacques_level": level},
                               seeds=[f"coop-{n}-{level}"])
    assert report.finished == 1 and report.resamples_that_changed > 0


@pytest.mark.slow
@pytest.mark.parametrize("level", [1, 2, 3, 4])
@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("mode", ["74", "193"])
def test_it_passes_the_conformance_checker_over_a_whole_bot_game_at_every_count_and_difficulty(
        mode: str, n: int, level: int) -> None:
    # one whole game a cell (4 rounds, the bot at every seat; 3-15 s each): hidden pile and hints,
    # replay, refusals, JSON, views and events at every step; the table's one result at the end
    report = check_conformance(RULES, n, {"mode": mode, "jacques_level": level}, seeds=[f"whole-{mode}-{n}-{level}"])
    assert report.finished == 1 and report.resamples_that_changed > 0
    assert sum(report.winners.values()) in (0, n)  # all win or none
    (reason,) = report.reasons
    assert "the table wins together" in reason or "the table loses together: not met" in reason


@pytest.mark.parametrize("n", [1, 4])
def test_it_finishes_whole_cooperative_games_with_the_bot(n: int) -> None:
    out = finish(table(n, seed=f"whole-{n}", jacques_level=4), seed=n)
    assert out.team is not None and len(out.scores) == n


def test_it_has_the_bot_play_as_a_table_liberating_more_than_for_itself() -> None:
    from engine.games.maracaibo.bot.choose import COOP_WEIGHTS, choose

    left = []
    for weights in (None, {"uprising": 1.0}):  # the table's weights by default, then the competitive bot's
        state = table(2, seed="team-0", rounds=2)
        rnd = random.Random(0)
        while not state["over"]:
            seat = RULES.pending(state)[0]
            RULES.apply(state, seat, choose(state, seat, RULES.options(state, seat), rnd, weights).move)
        left.append(coop.markers_left(state))
    assert COOP_WEIGHTS["uprising"] > 1 and left[0] < left[1]


# ---- the goal in the mail and on the page ------------------------------------------------------------

def _goal(text: str) -> list[str]:
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(("THE TABLE'S GOAL", "O OBJETIVO DA MESA")))
    out = []
    for line in lines[at + 1:]:
        if not line.strip():
            return out
        if line.startswith("    "):  # a wrapped line goes on
            out[-1] += " " + line.strip()
        else:
            out.append(line.strip())
    return out


def test_the_mail_and_the_phone_say_the_tables_goal_and_where_it_stands_now() -> None:
    from engine import i18n
    from engine.games.maracaibo.render_text import text

    state = started(2)  # 74, two players: a marker on each of the 11 villages
    view = RULES.view(state, 0)
    assert "THE TABLE'S GOAL (all win or all lose together, checked at the end of the game)" in text(view)
    assert _goal(text(view)) == [
        "no ownership marker is left on any location: 11 left now",
        "every player has more VP than Jacques: not now: Jacques has 0 VP, the player with the fewest has 0"]
    phone = "".join(RULES.render_phone_svg(view))
    assert "The table&#x27;s goal" in phone or "The table's goal" in phone
    assert "11 left now" in phone
    with i18n.language("pt"):
        assert _goal(text(view)) == [
            "nenhum marcador de propriedade resta em nenhum local: restam 11 agora",
            "cada jogador tem mais PV do que Jacques: não agora: Jacques tem 0 PV, o jogador com menos tem 0"]
    state["markers"] = {}
    state["revision"] += 1  # (a state changed outside apply: its cached view is stale)
    state["seats"][0]["victory_points"], state["seats"][1]["victory_points"] = 12, 9
    state["jacques"]["victory_points"] = 10
    assert _goal(text(RULES.view(state, 1))) == [
        "no ownership marker is left on any location: met now",
        "every player has more VP than Jacques: not now: Jacques has 10 VP, the player with the fewest has 9"]
    state["seats"][1]["victory_points"] = 11
    state["revision"] += 1
    assert _goal(text(RULES.view(state, None))) == [
        "no ownership marker is left on any location: met now", "every player has more VP than Jacques: met now"]


def test_the_goal_counts_the_markers_beneath_and_says_where_luysa_is() -> None:
    from engine.games.maracaibo.render_text import text

    state = started(3, mode="193")  # a marker on each village, two on each city: 26
    assert _goal(text(RULES.view(state, 0)))[:2] == [
        "no ownership marker is left on any location: 26 left now",
        "Luysa was found and freed: not yet (she is not found)"]
    state["search"]["found"] = "14"
    state["revision"] += 1
    assert _goal(text(RULES.view(state, 0)))[1] == "Luysa was found and freed: not yet (she is held at 14)"
    state["search"]["freed"] = 2
    state["revision"] += 1
    assert _goal(text(RULES.view(state, 0)))[1] == "Luysa was found and freed: met now"


def test_no_other_game_nor_a_finished_one_says_a_tables_goal() -> None:
    from engine.games.maracaibo.render_text import text

    solo = RULES.setup(player_names(1), {"automa": "jacques"}, 1)
    assert "GOAL" not in text(RULES.view(solo, 0))
    over = started(2, rounds=1)
    finish(over)  # over: the result says each condition met or missed, not a goal "now"
    assert "GOAL" not in text(RULES.view(over, 0)) and "The table" not in "".join(RULES.render_phone_svg(
        RULES.view(over, 0)))


def test_the_board_pictures_influence_title_keeps_clear_of_the_tracks_numbers_where_no_nation_scores() -> None:
    import xml.etree.ElementTree as ET

    from engine import i18n

    svg_ns = "{http://www.w3.org/2000/svg}"
    for code in ("en", "pt"):
        with i18n.language(code):
            pic = ET.fromstring(RULES.render_svg(RULES.view(started(2), 0)))
        texts = list(pic.iter(f"{svg_ns}text"))
        title = next(t for t in texts if (t.text or "").startswith("Influ"))
        assert "(" in (title.text or ""), "74 scores no nation at the end: the long title"
        after = texts[texts.index(title) + 1:]
        # the numbers 0-15 above the tracks (size 6) and the nations' names (size 8) come after the title
        scale = [t for t in after[:40] if t.get("font-size") == "6"]
        names = [t for t in after[:40] if t.get("font-size") == "8"]
        assert scale and names
        top = min(float(t.get("y", 0)) - 6 for t in scale)
        assert float(title.get("y", 0)) + 2 <= top, "the title is a line above the numbers, not across them"
