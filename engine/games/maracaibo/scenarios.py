"""Maracaibo: The Uprising, the competitive scenarios' own setup (rulebook: "Regras de cenário",
"Agitação (cartas 79/184)" and "Tudo incluído (carta 78)"; docs/rules/maracaibo-uprising.md,
"Scenario 78" and "Scenario 79"). Everything is read from the scenario's row of
``data/uprising/tiles.json`` (``scenarios``): no scenario has a code branch of its own.

- ``cards``: the B deck is the base game's B cards, the expansion's new project cards (every
  expansion game adds them: "Adicione as novas cartas de projeto às cartas B") and the numbered
  cards 90-106 (90-99 the base game's, 100-106 the expansion's, Assumption A3), shuffled before the
  40 are counted out. Only the cards whose effects the rules play are dealt
  (``uprising_content.PLAYABLE_CARDS``: the base language and the extensions registered in
  ``PLAYED_EXTENSIONS``); the others wait for their effect-language extensions.
- ``legacy``: the tiles the scenario places (L1, L30; L40 in 78), then three times the top project
  card is revealed (and discarded, face up: Assumption A33) and the tile of ``legacy_by_object`` for
  its object, column 1, 2, 3 in turn, joins them (the ruin L31 with its track L32). The base game's
  tiles are in ``state["legacy"]`` (L1, L4-L9); L40 is played by uprising.py; the new tiles are in
  ``state["legacy_new"]``: the spaces L34-L36 played by legacytiles.py, the new city L30, the discs
  of L33 and L37 by legacyboard.py, the ruin L31/L32 by ruin.py; what lies on them is
  ``state["legacy_board"]`` (all public, in the view's ``uprising_legacy`` and ``legacy_board``).
- the quest tiles: the expansion's 28 replace the base game's 24 ("Substitua as peças de missão");
  they are placed by the scenario's ``quests`` table (by round and player count).
- the new career card joins the base game's careers (Liberation deals its own four instead).
- ``markers`` (79): a marker of each nation on the locations its block lists (France 2-7, Spain
  8-13, England 14-19), taken from the nation's supply; the rest stays in the supply, set aside for
  the markers the scenario places in rounds 2-4 (``markers_by_round``, Assumption A17: at each
  interim scoring, one marker of each nation on the lowest-numbered empty location of its block,
  while its set-aside markers last). No marker on a legacy tile's new location; the base game's
  2-player pre-annexed villages are not placed (A24), and a legacy tile's marker is not placed
  where the scenario has put one already.

SUBSTITUTE CONTENT: the scenario tables are this project's (the scenario cards are not public).
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, State, new_event

from . import content as C
from . import homeports, legacyboard
from . import uprising_content as U
from .board import has_marker, take_marker

#: the modes of a campaign played with the expansion (campaign.MODES: not imported, campaign imports this)
_CAMPAIGN_MODES = ("campaign", "campaign_base")
#: What a game of 78 or 79 set up by an older release dealt, by the option ``release`` (internal: set on
#: the stored games of that release by pbem/games/migrations/0026, never offered to a player), so that such
#: a game replays from its seed and log (undo, a moderator's rollback, ``manage.py verify_games``) exactly as
#: that release set it up: ``cards``, the new project cards it dealt (main c0d8ac1: 5 of them) and
#: ``numbered``, those of the numbered 100-106 it dealt (6; the base game's 90-99 as today), no new city
#: tiles (they joined after it), and its drawn new legacy tiles L30-L37 all unplayed (in
#: ``legacy_unplayed``, no ruin track L32 added).
RELEASES: dict[str, dict[str, Any]] = {
    "c0d8ac1": {"cards": (201, 220, 221, 224, 229), "numbered": (230, 231, 232, 233, 234, 236)},
}
#: the option ``release``'s values: today's (the default) and each older release a stored game began under
RELEASE_CHOICES = ("current", *RELEASES)


def release(state: State) -> dict[str, Any] | None:
    """The older release the game was set up by (:data:`RELEASES`), None for today's."""
    return RELEASES.get(str(state["options"].get("release", "current")))


#: the tiles a module of the mode plays itself (L40: uprising.py)
_MODULE_TILES = frozenset(t for t, row in U.LEGACY.items() if row.get("module"))


def table(state: State) -> dict[str, Any] | None:
    """The expansion scenario's row of the mode (78, 79), or None (the base game's scenario option)."""
    return U.SCENARIOS.get(homeports.mode(state))


def places_markers(state: State) -> bool:
    """The scenario puts its own markers on the board (79): no 2-player pre-annexed villages then."""
    scen = table(state)
    return bool(scen and scen.get("markers"))


def set_markers(state: State) -> None:
    """The scenario's markers at setup, each from its nation's supply (the rest is set aside there)."""
    scen = table(state)
    if not scen or not scen.get("markers"):
        return
    for nation, locs in scen["markers"].items():
        for loc in locs:
            take_marker(state, nation)
            state["markers"][loc] = nation


def round_markers(state: State, ev: list[Event]) -> None:
    """Before rounds 2-4 (Assumption A17): one set-aside marker of each nation on the lowest-numbered
    empty location of its block, while its supply lasts (called at the interim scoring, after
    ``state["round"]`` has moved on)."""
    scen = table(state)
    rule = scen.get("markers_by_round") if scen else None
    if not scen or not rule or int(state["round"]) not in rule["rounds"]:
        return
    placed = []
    for nation, block in scen["markers"].items():
        for _ in range(int(rule["each"])):
            empty = [loc for loc in block if loc not in state["markers"]]
            if not empty or not has_marker(state, nation):
                break
            loc = min(empty, key=C.LOC_ORDER.index)
            take_marker(state, nation)
            state["markers"][loc] = nation
            placed.append(f"{nation.title()} at {loc} {C.LOC[loc]['name']}")
    if placed:
        ev.append(new_event("markers", "The set-aside markers return: " + ", ".join(placed) + ".",
                            {"placed": placed}))


def b_cards(state: State) -> list[int] | None:
    """The B cards before the 40 are counted out (None: the base game's scenario option decides). Every
    game with the expansion adds its new project cards ("Adicione as novas cartas de projeto às cartas
    B"): 78, 79, 74, 193 and a campaign's games (modes campaign, campaign_base); the numbered cards
    100-106 only with a scenario card (a campaign's games, always scenario 75: none of 90-106)."""
    scen = table(state)
    new = [int(c["id"]) for c in U.PLAYABLE_CARDS if not c["numbered"]]
    if not scen:
        if homeports.mode(state) in _CAMPAIGN_MODES:  # a campaign with the expansion (scenario 75: no 90-99)
            return [*C.B_CARDS, *new]
        return None
    if "story" in state:  # a campaign's card 184/185 is no scenario card: no cards 90-106 (the rulebook)
        return [*C.B_CARDS, *new]
    # (a printed number: 90-99 are the base game's card ids, 100-106 the expansion's cards by their
    # printed number, whose ids are 230-236: the base B cards' ids 101-160 are not printed numbers)
    numbered = [U.NUMBERED.get(n, n) for n in scen["cards"]]
    old = release(state)
    if old:  # (the cards that release dealt, in the same order: the shuffle draws alike)
        return [*C.B_CARDS, *old["cards"], *(cid for cid in numbered if cid in C.CARD and C.CARD[cid]["numbered"]
                                              and (cid not in U.NUMBERED.values() or cid in old["numbered"]))]
    return [*C.B_CARDS, *new, *(cid for cid in numbered if cid in C.CARD and C.CARD[cid]["numbered"])]


def quest_ids(state: State) -> list[str] | None:
    """The quest tiles of the mode (None: the base game's): the expansion's 28 in its scenarios and in a
    campaign played with it (modes campaign, campaign_base: "Substitua as peças de missão do jogo base
    pelas desta expansão", every game on the new ship boards)."""
    return [str(q["id"]) for q in U.QUESTS] if table(state) or homeports.mode(state) in _CAMPAIGN_MODES else None


def new_city_tiles(state: State) -> list[dict[str, Any]]:
    """The city tiles the expansion adds to the base game's ("Adicione ... as duas novas peças de cidade às
    do jogo base"), in 78 and 79 (citytiles.py plays them)."""
    return list(U.CITY_TILES) if table(state) and not release(state) else []


def new_careers(state: State) -> list[str]:
    """The careers the expansion adds to the base game's (the new career card, in 78 and 79)."""
    return [str(U.NEW_CAREER["id"])] if table(state) else []


def set_legacy(state: State) -> None:
    """The scenario's legacy tiles, then three more by the objects of three revealed project cards
    (the top of the project deck, each to the discard pile, face up)."""
    scen = table(state)
    if not scen or "story" in state:  # a campaign's 184/185: "as Peças Legacy não serão alteradas" (the story's)
        return
    tiles = list(scen["legacy"])
    for column in range(3):
        if not state["deck"]:
            break
        cid = state["deck"].pop()
        state["discard"] = [*state["discard"], cid]
        tiles.append(str(scen["legacy_by_object"][C.CARD[cid]["object"]][column]))
    if release(state):  # (that release played none of the new tiles: upgrade.py's format 7 keys, empty)
        state["legacy"] = [t for t in tiles if t in C.LEGACY]
        state["legacy_new"], state["legacy_board"] = [], {}
        state["legacy_unplayed"] = [t for t in tiles if t not in C.LEGACY and t not in _MODULE_TILES]
        return
    for t in list(tiles):  # (the ruin comes with its track: "no início da trilha de ruína em L32")
        track = U.LEGACY.get(t, {}).get("track")
        if track and track not in tiles:
            tiles.append(str(track))
    state["legacy"] = [t for t in tiles if t in C.LEGACY]
    state["legacy_new"] = [t for t in tiles if t not in C.LEGACY and t not in _MODULE_TILES]
    state["legacy_board"] = legacyboard.new_board(state["legacy_new"])
