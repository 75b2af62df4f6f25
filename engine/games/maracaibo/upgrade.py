"""The state's format versions, and the upgrades that bring an older state to this engine's.

A game by mail can last a year and outlive many releases of the engine. So the state says which
format it is in (``"format": N``; none at all is format 0, every state written before formats
existed, up to main eee8661), and the rules bring a state of an older format up to date when they
read it (:func:`current`: in place, once; the service saves it with the next move).

:data:`UPGRADES` is a chain of small steps, ``UPGRADES[n]`` taking format ``n`` to ``n + 1``; a
state of format 0 runs them all. A step:

- changes the form, never the game: the upgraded state plays on exactly as the old one would
  have (tests/engine/test_maracaibo_format.py replays games saved by the engine of their day,
  tests/engine/golden/, and compares them with the same games played by today's engine);
- is never edited once released (a state may wait years on any format): a later change is a new
  step at the end, and :data:`FORMAT` goes up by one;
- needs only the state (no data files, no rules module: this module imports nothing when loaded,
  so ``bench/engine_hash.py`` can upgrade the states of an older checkout's engine with it), but for
  formats 9's to 15's, 17's and 18's steps, which read the releases' table (scenarios.RELEASES) when they run
  (and read the state in today's keys: :func:`_stamp`).

A state of a format newer than this engine's is refused (:class:`UnknownFormat`): an older
release must never play a game a newer one has written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

State = dict[str, Any]

#: the format this engine writes
FORMAT = 19


class UnknownFormat(ValueError):
    """A state whose format this engine does not know (newer, or not a format at all)."""


#: format 19's readable names of format 18's short keys: the top-level ones, then each player's
_TOP = {"p": "seats", "v": "revision"}
PLAYER_KEYS = {"d": "doubloons", "vp": "victory_points", "cp": "combat_points", "inf": "influence", "fig": "figures",
           "figs": "figures_owned", "inc_d": "income_doubloons", "inc_vp": "income_victory_points",
           "src": "victory_points_by_source"}


def _renamed(items: dict[str, Any], names: dict[str, str]) -> None:
    """``items``'s keys renamed by ``names`` in place, each keeping its place among the keys."""
    if any(k in names for k in items):
        renamed = [(names.get(k, k), v) for k, v in items.items()]
        items.clear()
        items.update(renamed)


def _readable_keys(state: State, back: bool = False) -> None:
    """Format 19's renames (:data:`_TOP`, :data:`PLAYER_KEYS`) made, or undone when ``back``."""
    top = {v: k for k, v in _TOP.items()} if back else _TOP
    player = {v: k for k, v in PLAYER_KEYS.items()} if back else PLAYER_KEYS
    _renamed(state, top)
    for p in state.get("p" if back else "seats", ()):
        _renamed(p, player)
    for automa in ("jean", "jacques"):  # (Jean's vp, src, inf; Jacques's vp, src: as a player's)
        if isinstance(state.get(automa), dict):
            _renamed(state[automa], player)


def _stamp(state: State, coop: bool) -> None:
    """The option ``release`` deduced by the releases' tables (formats 9 to 15, 17 and 18's steps).

    Why the keys are renamed around it: scenarios.py deduces a release reading the state in today's
    keys (format 19's readable ones), and these steps run on a state of an older format; it is shown the
    state renamed, then the old names are given back, so each step changes what it always changed.
    """
    # Why imported here: the only steps that read data (the releases' table), so that loading this module
    # still imports nothing (bench/engine_hash.py loads it alone for an older checkout's states)
    from . import scenarios

    _readable_keys(state)
    try:
        if coop:
            scenarios.stamp_coop_release(state)
        else:
            scenarios.stamp_release(state)
    finally:
        _readable_keys(state, back=True)


def _format_0_to_1(state: State) -> None:
    """Format 1: the state says its format (nothing else changed)."""
    state["format"] = 1


def _format_1_to_2(state: State) -> None:
    """Format 2: the option ``mode`` (the Uprising's game mode, homeports.py); every older game is a
    base game (``"base"``, last among the options as the rules declare them)."""
    state["options"] = {**state["options"], "mode": "base"}
    state["format"] = 2


#: format 3's readable names of format 2's short top-level keys
_NAMES_3 = {"qpile": "quest_pile", "tquests": "track_quests", "pbox": "prestige_box"}


def _format_2_to_3(state: State) -> None:
    """Format 3: three top-level keys renamed readably (``qpile`` the quest pile, ``tquests`` the
    quests on the explorer track, ``pbox`` the unused prestige buildings), each keeping its place
    among the keys (as a new game's setup places them)."""
    items = [(_NAMES_3.get(k, k), v) for k, v in state.items()]
    state.clear()
    state.update(items)
    state["format"] = 3


def _format_3_to_4(state: State) -> None:
    """Format 4: the options ``automa`` (a solo game's automa: Jean, as every older game) and
    ``jacques_level`` (Jacques's difficulty, jacques.py; 2 by default, unused without him), last
    among the options as the rules declare them."""
    kept = {k: v for k, v in state["options"].items() if k not in ("automa", "jacques_level")}
    state["options"] = {**kept, "automa": state["options"].get("automa", "jean"),
                        "jacques_level": state["options"].get("jacques_level", 2)}
    state["format"] = 4


def _format_4_to_5(state: State) -> None:
    """Format 5: the option ``campaign`` (the story campaign, campaign.py); every older game is a
    game on its own (``False``, last among the options as the rules declare them)."""
    options = {k: v for k, v in state["options"].items() if k != "campaign"}
    state["options"] = {**options, "campaign": bool(state["options"].get("campaign", False))}
    state["format"] = 5


def _format_5_to_6(state: State) -> None:
    """Format 6: the option ``promos`` (the Uprising's promos, promos.py); every older game plays without
    them (``False``, last among the options as the rules declare them)."""
    options = {k: v for k, v in state["options"].items() if k != "promos"}
    state["options"] = {**options, "promos": bool(state["options"].get("promos", False))}
    state["format"] = 6


def _format_6_to_7(state: State) -> None:
    """Format 7: a game of the Uprising's scenarios (78, 79) says which of its drawn new legacy tiles are in
    play (``legacy_new``: the tiles L30-L37 the engine plays) and what lies on them (``legacy_board``),
    beside those drawn but not played (``legacy_unplayed``). A game saved before the engine played them
    (main 6e36af4 to c0d8ac1: every new tile in ``legacy_unplayed``, neither key; 93f71f2 to 7e3c82d's
    parent: L34-L36 in ``legacy_new``, no ``legacy_board``) plays on as it began, without the tiles it did
    not play: ``legacy_new`` empty (or as it was), ``legacy_board`` empty (nothing lies on an unplayed
    tile), each after ``legacy`` as a new game's setup places them. Every other state is unchanged."""
    if "legacy_unplayed" in state and ("legacy_new" not in state or "legacy_board" not in state):
        items = list(state.items())
        at = next((i for i, (k, _) in enumerate(items) if k == "legacy"), len(items) - 1) + 1
        empty: list[tuple[str, Any]] = [("legacy_new", []), ("legacy_board", {})]
        add = [(k, v) for k, v in empty if k not in state]
        state.clear()
        state.update([*items[:at], *add, *items[at:]])
    state["format"] = 7


def _format_7_to_8(state: State) -> None:
    """Format 8: the option ``release`` (internal, scenarios.RELEASES: the release whose setup the game
    replays from its seed and log), last among the options as the rules declare them. A game of 78 or 79 set
    up by main c0d8ac1 or before (format 7's ``legacy_new`` empty beside drawn tiles in ``legacy_unplayed``:
    today's setup always plays L30) is ``"c0d8ac1"``; every other game ``"current"``. And a player's empty
    ``villages`` (the village actions of the turn under way, card_permanents.end_of_main) is left out, as the
    engine now leaves it between turns and as a state from before the notes (c0d8ac1) never had it. (The
    stored game's own options get the same value from pbem/games/migrations/0026, which replays read.)"""
    options = {k: v for k, v in state["options"].items() if k != "release"}
    old = (options.get("mode") in ("78", "79") and "story" not in state and state.get("legacy_new") == []
           and bool(state.get("legacy_unplayed")))
    state["options"] = {**options, "release": state["options"].get("release", "c0d8ac1" if old else "current")}
    for p in state.get("p", ()):  # the turn's village notes (card_permanents.note_village), none between turns:
        if p.get("villages") == []:  # absent, not empty (as a state from before the notes has them)
            del p["villages"]
    state["format"] = 8


def _format_8_to_9(state: State) -> None:
    """Format 9: the option ``release`` of a game set up by a release that scenarios.RELEASES gained with
    it (78/79 from main 93f71f2 to 7e3c82d's parent: four setups, their cards and the new spaces L34-L36
    played; an Uprising campaign's game before 5c3c7c5: no new project card, before 17a12c0 the base
    game's quest tiles), deduced from what the state dealt (scenarios.release_of); a game that says an
    older release already, or whose state fits today's setup, keeps it. (A replay reads it from the stored
    state, Rules.replay_options: the stored game's own options need no migration.)"""
    _stamp(state, coop=False)
    state["format"] = 9


def _format_9_to_10(state: State) -> None:
    """Format 10: the option ``release`` of a game set up before the balance change of #20 (the Rebel
    Chronicler's substitute numbers: scenarios.RENUMBERED), which deals that card under its old id with
    its old numbers (scenarios.RELEASES' row 4831b6a: 78, 79, 74, 193 and a campaign's games holding it),
    deduced from what the state dealt (scenarios.release_of); a game that says an older release keeps it."""
    _stamp(state, coop=False)
    state["format"] = 10


def _format_10_to_11(state: State) -> None:
    """Format 11: the option ``release`` of a game of the cooperative scenarios (74, 193) set up by a release
    that scenarios.RELEASES gained with it (coop_releases.py: before 5b2b789 18 markers with one or two
    players and card 192 with six green spaces, before fbaa97f The Search's first hints, card 191 and L39,
    before this format card 192's four green spaces and their rewards), deduced from what the state holds
    (scenarios.stamp_coop_release: format 10 may have said 4831b6a of such a game, the row that covers their
    card renumbered for the other modes); every other game keeps what it says."""
    if str(state["options"].get("mode", "base")) in ("74", "193"):
        _stamp(state, coop=True)
    state["format"] = 11


def _format_11_to_12(state: State) -> None:
    """Format 12: a story campaign's game stored before main c572794 (the base story only) gets the story's
    ``book`` (``"base"``), ``modules`` and ``modules_next`` (none), which every story state has had since;
    and an Uprising campaign's game said to be of release c572794 (formats 9 to 11 deduced it from its
    setup) is of row ef92d45 unless its story shows card 150's vote taken as before ef92d45 (the Resistance
    Tiles alone, scenarios.RELEASES): the two releases set up alike and voted otherwise."""
    story = state.get("story")
    if isinstance(story, dict) and "book" not in story:
        story.update({"book": "base", "modules": [], "modules_next": []})
    if str(state["options"].get("release", "current")) == "c572794":
        _stamp(state, coop=False)
    state["format"] = 12


def _stamp_renumbered(state: State, to: int) -> None:
    """Formats 13 to 15 and 18 (a card renumbered by the Rebel Chronicler's changes of #20): the option ``release``
    deduced from what the state holds, by coop_releases' rows for 74 and 193 and scenarios.RELEASES' for the
    other modes (a game that says an older release keeps it); then the state is of format ``to``."""
    _stamp(state, coop=str(state["options"].get("mode", "base")) in ("74", "193"))
    state["format"] = to


def _format_12_to_13(state: State) -> None:
    """Format 13: the option ``release`` of a game set up before the Rebel Chronicler's second change of #20
    (card 237 retired for card 238: scenarios.RENUMBERED), which deals card 237 (scenarios.RELEASES' row
    04c0a40 for 78, 79 and a campaign's games, coop_releases' 6a0f3d2 and 6efc36b for 74 and 193), deduced
    from what the state holds; a game that says an older release keeps it."""
    _stamp_renumbered(state, 13)


def _format_13_to_14(state: State) -> None:
    """Format 14: the option ``release`` of a game set up before the Rebel Chronicler's third change of #20
    (card 238 retired for card 239: scenarios.RENUMBERED), which deals card 238 (scenarios.RELEASES' row
    8b97501 for 78, 79 and a campaign's games, coop_releases' 52a3425 for 74 and 193), deduced from what the
    state holds; a game that says an older release keeps it."""
    _stamp_renumbered(state, 14)


def _format_14_to_15(state: State) -> None:
    """Format 15: the option ``release`` of a game set up before the Rebel Chronicler's fourth change of #20
    (card 239 retired for card 240, sold only before round 3: scenarios.RENUMBERED), which deals card 239
    (scenarios.RELEASES' row 9fa6890 for 78, 79 and a campaign's games, coop_releases' d8e1100 for 74 and
    193), deduced from what the state holds; a game that says an older release keeps it."""
    _stamp_renumbered(state, 15)


#: the modes whose modules have the Liberation module (tiles.json's modes 79, 74 and 193, frozen here as of
#: format 16: this module reads no data); a campaign's game has it when its story's modules say so
_LIBERATION_MODES = ("79", "74", "193")


def _format_15_to_16(state: State) -> None:
    """Format 16: the option ``port_pool`` "all" of a game with the Liberation module set up before Genova (HP4)
    was left out of the home ports dealt with that module (homeports.dealt_pool: the rulebook's "Não
    recomendamos o uso de 'Genova' neste caso"), deduced from the state: such a game holds Genova somewhere
    (kept, dealt, in the box: all 15 ports are in every game with the Home Ports), a game set up since never;
    every other state says "current" (a new game's default). A game that says it already keeps it."""
    options = state["options"]
    story = state.get("story") or {}
    liberation = str(options.get("mode", "base")) in _LIBERATION_MODES or "liberation" in story.get("modules", ())
    held = [*state.get("ports_box", ()), *(state.get("ports_kept") or {}).values()]
    for p in state.get("p", ()):
        held += [p.get("port"), *(p.get("setup") or {}).get("ports", ())]
    said = options.get("port_pool", "all" if liberation and "HP4" in held else "current")
    # (every state says it, as a new game's options do, "current" by default; last, as format 8 put release)
    state["options"] = {**{k: v for k, v in options.items() if k != "port_pool"}, "port_pool": said}
    state["format"] = 16


def _format_16_to_17(state: State) -> None:
    """Format 17: the option ``release`` of a game set up before the Powder Monkey's change of #20 (card 204
    retired for card 242, cost 2 and 2 VP: scenarios.RENUMBERED), which deals card 204 (scenarios.RELEASES' row
    65e19e8 for 78, 79 and a campaign's games, coop_releases' 9c5edb3 for 74 and 193), deduced from what the
    state holds; a game that says an older release keeps it."""
    _stamp(state, coop=str(state["options"].get("mode", "base")) in ("74", "193"))
    state["format"] = 17


def _format_17_to_18(state: State) -> None:
    """Format 18: the option ``release`` of a game set up before the Rebel Chronicler's fifth change of #20 (card
    240 retired for card 241, cost 13, sold before the last round, no barrier: scenarios.RENUMBERED), which deals
    card 240 (scenarios.RELEASES' row 2eed0d6 for 78, 79 and a campaign's games, coop_releases' 2eed0d67 for 74
    and 193), deduced from what the state holds; a game that says an older release keeps it."""
    _stamp_renumbered(state, 18)


def _format_18_to_19(state: State) -> None:
    """Format 19: the state's last short keys renamed readably (issue 20), each keeping its place among the
    keys: ``p`` (the players' boards, by seat) is ``seats``, ``v`` (the count of changes, the key of the rules'
    caches) is ``revision``, and each player's ``d``, ``vp``, ``cp``, ``inf``, ``fig``, ``figs``, ``inc_d``,
    ``inc_vp`` and ``src`` are ``doubloons``, ``victory_points``, ``combat_points``, ``influence``,
    ``figures`` (in the supply), ``figures_owned`` (in the supply and on the board), ``income_doubloons``,
    ``income_victory_points`` and ``victory_points_by_source``, as the automas' (Jean's ``vp``, ``src``, ``inf``,
    Jacques's ``vp``, ``src``). The view keeps its short keys (views.py, jean.py, jacques.py)."""
    _readable_keys(state)
    state["format"] = 19


#: UPGRADES[n] takes a state of format n to format n + 1
UPGRADES: list[Callable[[State], None]] = [_format_0_to_1, _format_1_to_2, _format_2_to_3, _format_3_to_4,
                                               _format_4_to_5, _format_5_to_6, _format_6_to_7,
                                               _format_7_to_8, _format_8_to_9, _format_9_to_10,
                                               _format_10_to_11, _format_11_to_12, _format_12_to_13,
                                               _format_13_to_14, _format_14_to_15, _format_15_to_16,
                                               _format_16_to_17, _format_17_to_18,
                                               _format_18_to_19]


def format_of(state: State) -> int:
    found = state.get("format", 0)
    if type(found) is not int or not 0 <= found <= FORMAT:
        raise UnknownFormat(f"this Maracaibo state has format {found!r}; this engine reads formats 0 to {FORMAT} "
                            "(a newer release wrote it?)")
    return found


def current(state: State) -> bool:
    """Bring ``state`` to :data:`FORMAT` in place; True when it was older (and is now upgraded)."""
    found = format_of(state)
    if found == FORMAT:
        return False
    for step in UPGRADES[found:]:
        step(state)
    assert state["format"] == FORMAT
    return True
