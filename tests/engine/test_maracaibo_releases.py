"""Games stored by older releases replay from seed, options, archive and log exactly as that release set
them up (issues 20 and 23; engine/games/maracaibo/scenarios.RELEASES, docs/rules/maracaibo.md "Formats").

The golden games were played by the bot on the old commits themselves (tests/engine/golden/
make_maracaibo_releases.py): a 79 game of main 188b109 (the window 93f71f2 to 7e3c82d's parent), the
first three games of an Uprising campaign of main 57805f3 (before 5c3c7c5: no new project card in a
campaign game), the second of them card 184's game (mode 79), and the first and third games of one of main
5962877 (cefd5f3's parent: L30 not played in a campaign game, the base game's quest tiles); the first game of
one of main d8204d4 (ef92d45's parent: card 150's vote added the Resistance Tiles alone,
make_maracaibo_campaign_vote.py), stored after that vote; and a 78 game of
main 6fb9567 (before the Rebel Chronicler's numbers changed, #20: row 4831b6a) in which a player buys it,
one of main 04c0a40 (before they changed a second time: row 04c0a40, card 237) in which a player buys that, and
one of main 8b97501 (before the third change: row 8b97501, card 238) in which a player buys card 238, and one of
main 9fa6890 (before the fourth change: row 9fa6890, card 239, sold before the last round) in which a player buys
card 239 in round 3, where today's card 240 is no longer sold; and one of main 65e19e8 (before the Powder
Monkey's change: row 65e19e8, card 204 at cost 5 and 1 VP, today's card 242 at cost 2 and 2 VP) in which a
player holds card 204 (the bot of that day never bought it); and one of main 2eed0d6 (before the Rebel
Chronicler's fifth change: row 2eed0d6, card 240 sold only in rounds 1 and 2 past the blue barrier, today's card
241 at cost 13 before the last round with no barrier) in which a player holds card 240 (nobody ever bought it)."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from engine.errors import SetupError
from engine.games.maracaibo import RULES, scenarios
from engine.games.maracaibo import uprising_content as U
from engine.games.maracaibo.upgrade import current
from engine.testing import player_names
from tests.engine.maracaibo_golden import golden, played, upgraded

#: each golden game and the release its stored state says set it up
STORED = {
    "maracaibo_79_188b109": "bb5188b",
    "maracaibo_campaign_57805f3_1": "17a12c0",
    "maracaibo_campaign_57805f3_2": "4831b6a",  # (card 184's 79 game holds card 201 at its old numbers)
    "maracaibo_78_6fb9567": "4831b6a",
    "maracaibo_78_04c0a40": "04c0a40",
    "maracaibo_78_8b97501": "8b97501",
    "maracaibo_78_9fa6890": "9fa6890",
    "maracaibo_78_65e19e8": "65e19e8",
    "maracaibo_78_2eed0d6": "2eed0d6",
    "maracaibo_campaign_57805f3_3": "17a12c0",
    "maracaibo_campaign_5962877_1": "ef92d45",  # (card 150's vote taken as today's: ef92d45's parent or later)
    "maracaibo_campaign_5962877_3": "ef92d45",
    "maracaibo_campaign_d8204d4_1": "c572794",  # (card 150's vote taken as before ef92d45)
}


@pytest.mark.parametrize("name", sorted(STORED))
def test_a_game_stored_by_an_older_release_replays_to_its_stored_state_and_plays_on(name: str) -> None:
    g = golden(name)
    stored = upgraded(g["state"])
    assert stored["options"]["release"] == STORED[name]  # (deduced from what the state dealt: format 9)
    options = RULES.replay_options(g["options"], g["state"])  # (what a replay of the stored game reads)
    assert options.get("release", "current") == STORED[name]
    assert played(g, options, g["moves"]) == stored  # exactly: that release's setup, the same draws
    ended = played(g, options, [*g["moves"], *g["rest"]])  # and on to the end as that engine played it
    final = upgraded(g["final"])
    assert ended == final  # (its end too: what that release's scoring did, a row's story_next)
    assert RULES.outcome(ended) is not None
    if STORED[name] != "current":  # today's setup deals otherwise: the log would not replay to it
        today = RULES.setup(g["players"], g["options"], g["seed"], archive=g["archive"])
        then = played(g, options, [])
        assert json.loads(json.dumps(today)) != then


def test_a_first_campaign_game_stored_before_17a12c0_ends_and_archives_as_it_did() -> None:
    # Card 151, read at the first game's final scoring, added card 184 unread from 17a12c0 on (its 79 game
    # next); main 5962877's story did not: the release row says so (story_next), so the game's end and the
    # archive it hands to the next game are the ones it produced, and today's first game still adds 184
    g = golden("maracaibo_campaign_5962877_1")
    options = RULES.replay_options(g["options"], g["state"])
    ended = played(g, options, [*g["moves"], *g["rest"]])
    archive = RULES.archive(ended)
    assert archive is not None and archive == RULES.archive(upgraded(g["final"]))
    assert archive["story"]["unread"] == [152, 155, 160] and "resist" in archive["story"]["flags"]
    today = played(g, {k: v for k, v in options.items() if k != "release"}, [])
    row = scenarios.RELEASES[options["release"]]
    then = list(row["story_next"]["uprising"][151])
    assert then == [155, 160] and scenarios.story_next(ended, "uprising", 151, {"next": [155, 184]}) == then
    assert scenarios.story_next(today, "uprising", 151, {"next": [155, 184]}) == [155, 184]


def test_a_first_campaign_game_stored_before_ef92d45_votes_and_archives_as_it_did() -> None:
    # Card 150's "join the fight" added the Resistance Tiles alone before ef92d45, the Uprising module with them
    # from then on; the two releases set up alike, so the stored vote is the witness (scenarios._took_old_vote)
    g = golden("maracaibo_campaign_d8204d4_1")
    stored = upgraded(g["state"])
    assert stored["story"]["modules_next"] == ["resistance"] and stored["options"]["release"] == "c572794"
    options = RULES.replay_options(g["options"], g["state"])
    ended = played(g, options, [*g["moves"], *g["rest"]])
    archive = RULES.archive(ended)
    assert archive is not None and archive == RULES.archive(upgraded(g["final"]))
    assert archive["story"]["modules"] == ["resistance"]  # (the next game: the Resistance Tiles, no L40 fights)
    today = played(g, {**options, "release": "ef92d45"}, g["moves"])  # the same moves by the later release
    assert today["story"]["modules_next"] == ["uprising", "resistance"] and today != stored
    # a game of the window that has not voted yet holds nothing that tells it apart: it takes today's vote
    vote = next(i for i, (_seat, code) in enumerate(g["moves"]) if code == "votejoin")
    before = played(g, options, g["moves"][:vote])
    assert before["story"]["modules_next"] == [] and scenarios.release_of(before) == "ef92d45"
    format_11 = {**copy.deepcopy(before), "format": 11}  # (stamped c572794 by formats 9-11, from its setup)
    format_11["options"] = {**format_11["options"], "release": "c572794"}
    assert upgraded(format_11)["options"]["release"] == "ef92d45"
    stamped = {**copy.deepcopy(stored), "format": 11}
    assert upgraded(stamped)["options"]["release"] == "c572794"  # (after the vote: kept)
    later = golden("maracaibo_campaign_5962877_1")  # (stored after ef92d45, its vote today's)
    said = {**copy.deepcopy(later["state"]), "format": 11}
    said["options"] = {**said["options"], "release": "c572794"}
    assert upgraded(said)["options"]["release"] == "ef92d45"


@pytest.mark.parametrize("number", [1, 2])
def test_a_base_story_game_stored_before_c572794_replays_and_plays_on_as_it_did(number: int) -> None:
    # Before c572794 (the Uprising's campaign) a story state had no book, modules or modules_next, and the
    # archive was version 1; the base story's data is unchanged since (f8a2eed), so format 12 adds the keys
    # (the base story, no module) and the game replays to its stored state and on to its end as it did
    g = golden(f"maracaibo_campaign_base_0f021dc_{number}")
    assert "book" not in g["state"]["story"] and (number == 1 or g["archive"]["version"] == 1)
    stored = upgraded(g["state"])
    assert {k: stored["story"][k] for k in ("book", "modules", "modules_next")} == {
        "book": "base", "modules": [], "modules_next": []}
    options = RULES.replay_options(g["options"], g["state"])
    assert options.get("release", "current") == "current"  # (no row: its setup deals as today's)
    archive = RULES.upgrade_archive(g["archive"]) if g["archive"] else None
    then = {**g, "archive": archive}
    assert played(then, options, g["moves"]) == stored
    ended = played(then, options, [*g["moves"], *g["rest"]])
    assert ended == upgraded(g["final"]) and RULES.outcome(ended) is not None
    assert RULES.archive(ended) == RULES.archive(upgraded(g["final"]))


def test_the_old_campaign_game_dealt_no_new_project_card_and_card_184s_game_all_of_them() -> None:
    first, second = golden("maracaibo_campaign_57805f3_1"), golden("maracaibo_campaign_57805f3_2")
    assert scenarios.dealt_new_cards(upgraded(first["final"])) == set()  # (before 5c3c7c5: the base B deck)
    assert second["state"]["options"]["mode"] == "79" and 184 in second["archive"]["story"]["unread"]
    assert {c for c in scenarios.dealt_new_cards(upgraded(second["state"])) if c < 230} == set(range(201, 230))


#: the Rebel Chronicler: today's id, and each golden game holding an older one with that id's numbers
TODAY = 241
OLD = {"maracaibo_78_6fb9567": (201, 4, 2), "maracaibo_78_04c0a40": (237, 8, 1), "maracaibo_78_8b97501": (238, 10, 0),
       "maracaibo_78_9fa6890": (239, 12, 0)}
#: the id generations 4 and 5 dealt (rows 65e19e8 and 2eed0d6: sold only in rounds 1 and 2, never bought)
CHRON_240 = 240
#: the ids each generation of releases dealt, oldest first (scenarios.RENUMBERED)
GENERATIONS = (201, 237, 238, 239, CHRON_240, CHRON_240)
#: every id the card had, oldest first, and today's
IDS = {201, 237, 238, 239, CHRON_240, TODAY}
#: the Powder Monkey: today's id, the id every release before its change dealt (#20)
MONKEY, OLD_MONKEY = 242, 204


def boxed(text: str) -> dict[str, Any]:
    """A state's JSON, its box (the B cards left out, kept sorted by id) as a sorted list again: card 242 sorts
    where 204 did not."""
    state = json.loads(text)
    state["box"] = sorted(state["box"])
    return dict(state)


def todays_setup_but_for(g: dict[str, Any], options: dict[str, Any],
                         renamed: dict[int, int]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the stored release's setup, today's) of the golden game's players and seed, asserting they are the same
    setup but for the option naming the release and each old id of ``renamed`` dealt where today's id is."""
    today = RULES.setup(g["players"], g["options"], g["seed"])
    then = RULES.setup(g["players"], options, g["seed"])
    cards = scenarios.dealt_new_cards
    assert cards(then) - set(renamed) == cards(today) - set(renamed.values())
    text = json.dumps({**then, "options": today["options"]})
    for old, new in renamed.items():
        text = re.sub(rf"\b{old}\b", str(new), text)
    assert boxed(text) == boxed(json.dumps(today))
    return then, today


@pytest.mark.parametrize("name", sorted(OLD))
def test_a_game_stored_before_a_card_was_renumbered_plays_its_old_numbers(name: str) -> None:
    # main 6fb9567's Rebel Chronicler (card 201) cost 4 and was worth 2 VP, main 04c0a40's (card 237) cost 8
    # and was worth 1 VP and could be bought in the last round, main 8b97501's (card 238) cost 10 and was worth
    # 0 VP, main 9fa6890's (card 239) cost 12, was worth 0 VP and was sold before the last round; today's is
    # card 241, in their place, cost 13, sold before the last round with no barrier to be past (card 240, sold
    # only before round 3, was never bought: the next test)
    g = golden(name)
    oid, cost, vp = OLD[name]
    new = U.CARD[TODAY]
    assert scenarios.RENUMBERED[TODAY] == GENERATIONS and new["name"] == U.CARD[oid]["name"]
    assert (U.CARD[oid]["cost"], U.CARD[oid]["vp"]) == (cost, vp) and new["effects"] == U.CARD[oid]["effects"]
    assert (new["cost"], new["vp"], new["needs"]) != (cost, vp, U.CARD[oid]["needs"])
    (buyer,) = [s for s, p in enumerate(g["state"]["p"]) if oid in p["bought"]]
    options = RULES.replay_options(g["options"], g["state"])
    state = played(g, options, g["moves"])
    assert oid in state["seats"][buyer]["bought"] and scenarios.dealt_new_cards(state) & IDS == {oid}
    # today's setup deals card 241 where the old one was: the same deck but for it
    # (and card 242 where 204 was: the Powder Monkey's change)
    then, today = todays_setup_but_for(g, options, {oid: TODAY, OLD_MONKEY: MONKEY})
    cards = scenarios.dealt_new_cards
    assert oid in cards(then) and TODAY in cards(today)
    # a new game is today's: it holds no retired card and says so
    assert scenarios.release_of(today) == "current" and not scenarios.dealt_new_cards(today) & (IDS - {TODAY})
    # replayed by today's numbers, the stored log does not reach the stored state
    try:
        differs = played(g, {k: v for k, v in options.items() if k != "release"}, g["moves"]) != state
    except AssertionError:  # (a move the log holds is not legal)
        differs = True
    assert differs


def test_a_game_stored_before_the_powder_monkeys_change_deals_card_204_at_its_old_numbers() -> None:
    # main 65e19e8's Powder Monkey (card 204) cost 5 and was worth 1 VP; today's is card 242 in its place, cost 2
    # and 2 VP (#20), the same effect and figure; every older release dealt 204 too, beside the Chronicler's ids
    g = golden("maracaibo_78_65e19e8")
    old, new = U.CARD[OLD_MONKEY], U.CARD[MONKEY]
    assert scenarios.RENUMBERED[MONKEY] == (OLD_MONKEY,) * 5 and scenarios.RENUMBERED[TODAY] == GENERATIONS
    assert (old["cost"], old["vp"], new["cost"], new["vp"]) == (5, 1, 2, 2) and old["name"] == new["name"]
    assert old["effects"] == new["effects"] and old["token_worker"] and new["token_worker"]
    options = RULES.replay_options(g["options"], g["state"])
    state = played(g, options, g["moves"])
    cards = scenarios.dealt_new_cards
    assert any(OLD_MONKEY in p["hand"] for p in state["seats"]) and cards(state) & (IDS | {OLD_MONKEY, MONKEY}) == {
        CHRON_240, OLD_MONKEY}
    assert scenarios.generation(state) == 4 and scenarios.release_of(state) == "65e19e8"
    _, today = todays_setup_but_for(g, options, {OLD_MONKEY: MONKEY, CHRON_240: TODAY})
    assert scenarios.release_of(today) == "current" and scenarios.generation(today) is None


def test_a_game_stored_before_the_chroniclers_fifth_change_deals_card_240_at_its_old_numbers() -> None:
    # main 2eed0d6's Rebel Chronicler (card 240) cost 12, needed the explorer past the blue barrier and was sold
    # only in rounds 1 and 2 (never bought); today's is card 241 in its place, cost 13, sold before the last round
    # with no barrier (#20), the same effect and figure; the Powder Monkey there was today's card 242 already
    g = golden("maracaibo_78_2eed0d6")
    old, new = U.CARD[CHRON_240], U.CARD[TODAY]
    assert (old["cost"], old["vp"], old["needs"]) == (12, 0, {"barrier": "blue", "before_round": 3})
    assert (new["cost"], new["vp"], new["needs"]) == (13, 0, {"before_last_round": True})
    assert old["effects"] == new["effects"] and old["figure"] and new["figure"] and old["name"] == new["name"]
    options = RULES.replay_options(g["options"], g["state"])
    state = played(g, options, g["moves"])
    cards = scenarios.dealt_new_cards
    assert any(CHRON_240 in p["hand"] for p in state["seats"]) and cards(state) & (IDS | {OLD_MONKEY, MONKEY}) == {
        CHRON_240, MONKEY}
    assert scenarios.generation(state) == 5 and scenarios.release_of(state) == "2eed0d6"
    _, today = todays_setup_but_for(g, options, {CHRON_240: TODAY})
    assert scenarios.release_of(today) == "current" and scenarios.generation(today) is None


@pytest.mark.parametrize(("release", "oid", "coop", "stored"), [("4831b6a", 201, "fbaa97f", 9),
                                                                 ("04c0a40", 237, "6efc36b", 11),
                                                                 ("8b97501", 238, "52a3425", 13),
                                                                 ("9fa6890", 239, "d8e1100", 14),
                                                                 ("65e19e8", CHRON_240, "9c5edb3", 16),
                                                                 ("2eed0d6", CHRON_240, "2eed0d67", 17)])
@pytest.mark.parametrize("options", [{"mode": "79"}, {"mode": "74"}, {"mode": "193"},
                                     {"campaign": True, "mode": "campaign"},
                                     {"campaign": True, "mode": "campaign_base"}])
def test_every_mode_that_deals_the_renumbered_card_knows_a_game_set_up_before_by_it(
        options: dict[str, Any], release: str, oid: int, coop: str, stored: int) -> None:
    then = RULES.setup(player_names(2), {**options, "release": release}, "renumbered")
    today = RULES.setup(player_names(2), options, "renumbered")
    # (every release before the Powder Monkey's change dealt card 204, today's 242)
    monkey = MONKEY if release == "2eed0d6" else OLD_MONKEY
    assert scenarios.dealt_new_cards(then) & (IDS | {OLD_MONKEY, MONKEY}) == {oid, monkey}
    assert scenarios.dealt_new_cards(today) & (IDS | {OLD_MONKEY, MONKEY}) == {TODAY, MONKEY}
    found = scenarios.release_of(then)
    assert scenarios.release_of(today) == "current"
    if options["mode"] in ("74", "193"):  # (the cooperative scenarios' rows, coop_releases.py: the newest that
        # deals that id sets up the same game here, and formats 11, 12, 14, 15, 17 and 18 say it)
        assert found == coop
        then = RULES.setup(player_names(2), {**options, "release": found}, "renumbered")
    else:
        assert found == release
    # (a state stored before the change, of the format of its day, says "current"; the upgrade says its row)
    said = json.loads(json.dumps({**then, "format": stored, "options": {**then["options"], "release": "current"}}))
    current(said)
    assert said == json.loads(json.dumps(then))


def test_every_release_row_is_its_own_and_todays_setup_is_current() -> None:
    # the witness tells each row's setup from the rows before it (for a seed whose draws show it)
    for name, row in scenarios.RELEASES.items():
        if row.get("coop"):  # (74 and 193: tests/engine/test_maracaibo_coop_releases.py)
            continue
        mode = row["modes"][0]
        options = {"mode": mode, "release": name, **({"campaign": True} if mode.startswith("campaign") else {})}
        found = {scenarios.release_of(RULES.setup(player_names(3), options, f"row-{name}-{i}")) for i in range(6)}
        if "story_votes" in row:  # (told apart by a vote once taken, not by its setup: the next row's; above)
            names = list(scenarios.RELEASES)
            assert found == {names[names.index(name) + 1]}, (name, found)
            continue
        assert name in found and found <= set(list(scenarios.RELEASES)[: list(scenarios.RELEASES).index(name) + 1])
    for options in (
        {"mode": "78"},
        {"mode": "79"},
        {"campaign": True, "mode": "campaign"},
        {"campaign": True, "mode": "campaign_base"},
        {"mode": "basic"},
        {},
    ):
        for i in range(3):
            state = RULES.setup(player_names(3), options, f"today-{i}")
            assert state["options"]["release"] == "current" and scenarios.release_of(state) == "current"
            assert RULES.replay_options(options, state) == options


def test_the_upgrade_corrects_a_release_the_state_could_not_have_been_dealt_by() -> None:
    # format 8 marked a 78/79 game with no new tile played c0d8ac1: a game of 0f021dc's cards too
    state = RULES.setup(player_names(3), {"mode": "79", "release": "0f021dc"}, "row-0f021dc-0")
    state = json.loads(json.dumps(state))
    if state["legacy_new"]:  # (a seed with none of L34-L36 drawn, so that format 8 said c0d8ac1)
        state = json.loads(json.dumps(RULES.setup(player_names(3), {"mode": "79", "release": "0f021dc"}, "s3")))
    assert not state["legacy_new"]
    said = {**state, "format": 8, "options": {**state["options"], "release": "c0d8ac1"}}
    current(said)
    assert said == state


@pytest.mark.parametrize(("release", "mode"), [("17a12c0", "79"), ("bb5188b", "campaign")])
def test_it_refuses_a_release_of_another_mode(release: str, mode: str) -> None:
    options = {"mode": mode, "release": release, **({"campaign": True} if mode == "campaign" else {})}
    with pytest.raises(SetupError, match=f"option release={release} is a stored game's of mode .*not of mode {mode}"):
        RULES.setup(player_names(3), options, "refused")
