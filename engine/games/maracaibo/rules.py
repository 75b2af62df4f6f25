"""Maracaibo for 2 to 4 players, without the story (scenario cards 75, 76, 77), on the shared decision stack.

SUBSTITUTE CONTENT: the cards, map, tiles and tokens are this project's own
(``data/``), not the published game's. The rules follow the rulebook guide in
``shared/rules/maracaibo.txt``; ``docs/rules/maracaibo.md`` lists every rule
with its test and every assumption.

State (plain JSON): ``round``/``rounds``, ``turn`` (seat playing), ``trigger``
(the seat whose ship ended the round this turn), ``deck`` (top last),
``discard``, ``display``, ``box`` (unused cards, hidden), ``piles`` (two
face-down combat-token piles), ``quest_pile`` (top first, only the top
is face up), ``quests`` (location -> quest), ``track_quests`` (explorer space ->
quest), ``markers`` (location -> nation), ``supply`` (nation -> markers left
per supply space), ``tiles`` (city -> city tile), ``prestige`` (four buildings,
``up`` when face up), ``prestige_box`` (unused buildings, hidden), ``market`` (city ->
seats with a disc there), ``first`` (explorer barrier firsts), ``ended`` (how
many explorers reached the end), ``seats`` (each player's board, by seat), ``stack`` (the
decision frames, see ``engine.stack``), ``revision`` (how many moves changed it: the key of the
rules' caches) and ``format`` (the state's format version: an older state is upgraded when the
rules first read it, see ``upgrade.py``).

A player (``seats[i]``): ``at`` (the ship's location), ``doubloons``, ``victory_points``,
``combat_points``, ``income_doubloons`` and ``income_victory_points`` (the income track),
``influence`` (nation -> its track's space), ``hand``, ``plan`` (cards planned), ``display``
(cards played before them), ``bought``, ``figures`` (in the supply) and ``figures_owned`` (in the
supply and on the board), ``assist`` (assistants), ``discs`` (upgrade -> discs left on the ship
board), ``areas``, ``tokens``, ``quests``, ``delivered``, ``synergy``, ``gated``, ``explorer``
(the explorer's space), ``careers``, ``setup`` (the cards dealt to choose from, None once chosen)
and ``victory_points_by_source`` (VP by source, the score's breakdown); the Uprising's modules add
theirs (``board``, ``port``, ``resist`` ...). Jean's and Jacques's dicts (``jean``, ``jacques``) name
their ``victory_points``, ``victory_points_by_source`` and (Jean's) ``influence`` as a player's.
The view keeps the short keys it always had (``p``, ``d``, ``vp`` ...; views.py): it is the
front ends' contract (view.schema.json).

A turn is the frames ``sail``, ``main``, ``free``, ``draw``, ``next``; effects
push more on top (``village``, ``disc``, ``nation``, ``explore``, ``pile``,
``fight``, ``combat``, ``city``, ``tquest``, ``u11``, ``three``, ``short``, ``rankup``, ``yesno``),
and a round's end pushes ``score`` for each seat and ``scoring``. Setup is one
simultaneous ``setup`` frame.

The rules are read top-down, one module per part of the rulebook; this file only assembles them:

    board.py      the table's small reads, the options, the decision stack and its frame kinds
    setup.py      the setup and the starting hand (``setup``); the display and quest refills
    careers.py    the free actions: plan a card, career tasks (``free``)
    sailing.py    phase A: sailing (``sail``)
    actions.py    phase B: village actions, delivery, city actions, quests paid (``main`` ...)
    cards.py      buying and investing; phase C, drawing (``draw``)
    ship.py       the ship board's upgrades (``disc``, ``u11``, ``rankup``)
    quests.py     paying and fulfilling a quest
    exploring.py  the explorer track (``explore``, ``tquest``)
    combat.py     combat (``pile``, ``fight``, ``combat``, ``short``)
    scoring.py    the end of a turn and of a round, the scorings, the outcome
    views.py      what each seat sees, and the resampling of what it may not
    effects.py    the effect language (gain bundles, card effects); content.py: the data files
    jean.py       Jean, the solo automa
    jacques.py    Jacques, the Uprising's automa (solo with automa=jacques; the cooperative modes)
    coop.py       the cooperative scenarios 74 and 193: their markers, Jacques, the shared outcome

The Uprising (option ``mode``; docs/rules/maracaibo-uprising.md), one module per module of its rulebook:

    homeports.py  the game mode, the new ship boards, the Home Ports (``portbonus``)
    resistance.py the Resistance Tiles (``resist``; the tile's village action)
    uprising.py   scenario 78's Uprising: fighting for or against a nation (``fight``, ``against``)
    liberation.py the Liberation of the Caribbean (79): always against a nation (``fight``, ``liberation``)
    uprising_content.py  the expansion's data files

The bot (bot/), the renderer (render*.py; render_base.py's docstring lists them) and the notation's
words (notation.py) are not part of the rules: the rules object hands out the bot and the renderer
by importing them when first asked, and no rules module imports them (import-linter contract
``maracaibo-rules-below-doors``).
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Mapping
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from engine import i18n, notation
from engine.batch import is_commit_point
from engine.core import BadArchive, Event, Move, Option, OptionSpec, Outcome, Rules, State, View, new_event
from engine.errors import SetupError
from engine.rng import Rng, seed_to_state
from engine.stack import DecisionStack

from . import (
    actions,  # noqa: F401 - each phase module registers its frames in board.HANDLERS when imported
    campaign,
    card_permanents,
    card_requirements,  # noqa: F401
    cards,
    combat,  # noqa: F401
    coop,
    exploring,  # noqa: F401
    homeports,
    labels,
    liberation,  # noqa: F401 - after uprising: the fight frame of the Liberation module
    promos,
    sailing,  # noqa: F401
    scenarios,
    ship,  # noqa: F401
    titles,
    uprising,  # noqa: F401 - after combat: it widens the fight frame in scenario 78
)
from . import content as C
from . import notation as N
from . import uprising_content as U
from .archive_upgrade import upgrade_archive
from .board import HANDLERS, _pending_seats, json_copy, stack
from .careers import _is_free
from .scoring import SOURCES, outcome, score_breakdown
from .setup import set_table
from .upgrade import FORMAT, current
from .views import public, resample_hidden


def _sub_line(option: Option) -> str:
    """A sub-decision as short as a player writes it on the line that asked it: ``explore 2``,
    ``disc U3``, ``with card 7``; else its label."""
    code = option.code
    if re.fullmatch(r"e\d+", code):
        return f"explore {code[1:]}"
    if re.fullmatch(r"u\d+", code):
        return f"disc {code.upper()}"
    if re.fullmatch(r"y\d+", code):
        return f"with card {code[1:]}"
    return option.label


def _said_example(line: str) -> str:
    """An example turn's line in the reader's language, as a player of that language writes it (QA,
    issue 27: a Portuguese mail's example read ``sail to 7`` / ``buy Grim Diplomat`` / ``done, tirar
    do monte``): each part said again (``navegar até 7``, ``comprar Diplomata Sombrio``, ``feito``); the
    notation reads those words in any game (engine/locale/<lang>/vocabulary.json). A part said in the
    reader's language already (an option's label) and a code (``vd``) stay as they are."""
    code = i18n.current()
    if code == i18n.DEFAULT:
        return line
    parts = []
    for part in line.split(", "):
        sail, buy = re.fullmatch(r"sail to (\S+)", part), re.fullmatch(r"buy (.+)", part)
        if sail:
            parts.append(i18n._("sail to {place}").format(place=sail.group(1)))
        elif buy:
            parts.append(i18n._("buy {card}").format(card=i18n.translate(buy.group(1))))
        elif part == "done":
            parts.append(i18n._("done"))
        else:
            parts.append(labels.say(part, code) or part)
    return ", ".join(parts)


# Why interpreted subclasses: a campaign's later game is checked by the conformance checker
# through a subclass whose setup passes the archive (tests/engine/test_maracaibo_campaign.py).
@mypyc_attr(allow_interpreted_subclasses=True)
class Maracaibo(Rules):
    name = "maracaibo"
    title = "Maracaibo (substitute content)"
    view_schema_file = "view.schema.json"
    min_players = 1  # one player plays against Jean, the automa (jean.py)
    max_players = 4
    option_specs = (
        OptionSpec("scenario", "choice", "75", "scenario card without story: 75 easy, 76 medium, 77 hard",
                   choices=("75", "76", "77")),
        OptionSpec("rounds", "int", 4, "rounds to play (4 in the rulebook; fewer for a short game)", min=1, max=4),
        OptionSpec("difficulty", "int", 3, "solo only: Jean's difficulty, 1 very easy to 5 very hard", min=1, max=5,
                   solo_only=True),
        OptionSpec("jean_uprising", "bool", True, "solo only: Jean's deck may hold the Uprising cards B7U and C5U",
                   solo_only=True),
        OptionSpec("mode", "choice", "base", homeports.MODE_HELP + coop.MODE_HELP + campaign.MODE_HELP,
                   choices=(*homeports.MODES, *coop.MODES, *campaign.MODES)),
        OptionSpec("automa", "choice", "jean", "solo only: the automa to play against, jean (the base game's) or "
                   "jacques (the Uprising's)", choices=("jean", "jacques"), solo_only=True),
        OptionSpec("jacques_level", "int", 2, "Jacques's level (solo with automa=jacques): 1 simple, 2 medium, "
                   "3 hard, 4 very hard", min=1, max=4),
        OptionSpec("campaign", "bool", False, "the story campaign (substitute story): story cards, votes, legacy "
                   "tiles; each game hands an archive to the next (docs/rules/maracaibo-campaign.md); with "
                   "mode=campaign the Uprising's story"),
        OptionSpec("promos", "bool", False, "the Uprising's promos (mode basic, 78 or 79): Flying Dutchman, a "
                   "quest in the pile, and Own Monument, a prestige building among the others (the rulebook "
                   "advises against it with mode 79)"),
        OptionSpec("release", "choice", "current", "internal: the release whose setup a stored game of mode 78, "
                   "79, 74, 193 or a campaign's replays (scenarios.RELEASES; deduced from the stored state, never "
                   "chosen)",
                   choices=scenarios.RELEASE_CHOICES, internal=True),
        OptionSpec("port_pool", "choice", "current", "internal: the home ports a stored game with the Liberation "
                   "module deals from: all 15 if set up before Genova was left out (format 16; deduced from the "
                   "stored state, never chosen)", choices=("current", "all"), internal=True),
    )
    supports_campaign = True
    # (said in the reader's language: its examples in the Portuguese notation, issue 27)
    notation_help = i18n.N_(
        "One step per line, a whole turn in one mail: 'sail 5' (5 locations) or 'sail to 9', then "
        "'buy <card name>', 'deliver tobacco', 'quest', 'fight france', 'influence 2', 'annex 6', "
        "'explore 3' (to space 3), 'done'; free actions 'plan <card>' and 'career 2 upper'; draw with "
        "'draw pile' or 'draw 2 display'. Option codes work too."
    )

    def _check_option_combination(self, n_players: int, options: dict[str, Any]) -> None:
        mode = str(options.get("mode", "base"))  # (no starred tuple here: mypyc cannot compile it)
        if n_players == 1 and mode != "base" and mode not in coop.MODES and mode not in campaign.MODES:
            raise SetupError(i18n._("the Uprising's competitive modes (option mode basic, 78, 79) are for 2 to 4 "
                                    "players; solo plays mode=base, 74 or 193"))
        if options.get("promos") and mode not in promos.MODES:
            raise SetupError(i18n._("the Uprising's promos (option promos) are played in mode basic, 78 or 79, "
                                    "not {mode}").format(mode=mode))
        if mode in U.SCENARIOS and str(options.get("scenario", "75")) != "75" and not options.get("campaign"):
            # Why refused, not applied: each of these modes is a scenario card of its own (its legacy tiles,
            # markers, quests and deck), which the base game's scenario cards 76 and 77 would contradict
            # (docs/rules/maracaibo-uprising.md, Assumption A40)
            raise SetupError(f"mode {mode} plays its own scenario card ({U.SCENARIOS[mode]['name']}), not scenario "
                             f"{options.get('scenario')}: leave option scenario out")
        old = scenarios.RELEASES.get(str(options.get("release", "current")))
        if old and mode not in old["modes"]:
            raise SetupError(f"option release={options.get('release')} is a stored game's of mode "
                             f"{' or '.join(old['modes'])}, not of mode {mode}")
        if mode in campaign.MODES and not options.get("campaign"):
            raise SetupError(f"mode {mode} is a campaign's: ask for option campaign too")
        if options.get("campaign"):
            if mode not in campaign.PLAYS_IN:
                raise SetupError("the story campaign (option campaign) plays mode base, basic, campaign (the "
                                 f"Uprising's story) or campaign_base, not {mode}")
            if str(options.get("scenario")) != "75":
                raise SetupError("the story campaign (option campaign) plays its own story, not scenario "
                                 f"{options.get('scenario')}: leave option scenario out")

    def _setup(self, state: State, rng: Rng) -> None:
        if "archive_in" in state:  # an archive continues a campaign: the option (and its story's mode) with it
            state["options"] = campaign.options_for(state["options"], state["archive_in"])
            self._check_option_combination(len(state["players"]), state["options"])
            # (a scenario's campaign card in play, 184 or 185: this game plays the scenario's mode)
            state["options"] = campaign.scenario_options(state["options"], state["archive_in"])
        if state["options"].get("campaign"):
            campaign.prepare(state)
        set_table(state, rng)
        if campaign.active(state):
            campaign.begin(state, [])

    def game_title(self, options: Mapping[str, Any]) -> str:
        return titles.game_title(self.title, options)

    def options_in_play(self, options: Mapping[str, Any], n_players: int) -> dict[str, Any]:
        """Only the options the game's mode uses (QA, #20: a 79 game's invitation listed ``scenario = 75``
        and ``jacques_level = 2``): the scenario card only where the mode plays one of 75-77 (not the
        Uprising's scenarios nor a campaign), Jacques's level only where he plays, Jean's only where he
        does, the promos only in the modes that play them, the campaign only where it may be played."""
        shown = super().options_in_play(options, n_players)
        mode = str(options.get("mode", "base"))
        jacques_plays = mode in coop.MODES or (n_players == 1 and str(options.get("automa", "jean")) == "jacques")
        jean_plays = n_players == 1 and not jacques_plays
        drop: set[str] = set()
        if mode in U.SCENARIOS or options.get("campaign"):
            drop.add("scenario")
        if not jacques_plays:
            drop.add("jacques_level")
        if not jean_plays:
            drop |= {"difficulty", "jean_uprising"}
        if mode in coop.MODES:
            drop.add("automa")  # (Jacques is the cooperative scenarios' automa whatever the option says)
        if mode not in promos.MODES and not options.get("promos"):
            drop.add("promos")
        if mode not in campaign.PLAYS_IN and not options.get("campaign"):
            drop.add("campaign")
        return {k: v for k, v in shown.items() if k not in drop}

    def archive(self, state: State) -> dict[str, Any] | None:
        """A finished campaign game's archive (campaign.py), else None."""
        if state.get("format") != FORMAT:
            current(state)
        return campaign.archive(state)

    def upgrade_archive(self, archive: Mapping[str, Any]) -> dict[str, Any]:
        """An archive of an older version brought to this engine's (archive_upgrade.py)."""
        return upgrade_archive(archive)

    def archive_options(self, options: Mapping[str, Any], archive: Mapping[str, Any]) -> dict[str, Any]:
        """The campaign, and the mode the archive's story plays in (campaign.options_for)."""
        return campaign.options_for(options, upgrade_archive(archive))

    def replay_options(self, options: Mapping[str, Any], stored: Mapping[str, Any]) -> dict[str, Any]:
        """The release the stored state says set it up (upgraded on a copy: format 9 deduces it from what
        the state dealt, scenarios.release_of), so that a game of an older release replays its setup,
        whatever its own stored options say (a game stored before the option has none)."""
        state: State = json.loads(json.dumps(dict(stored)))
        current(state)
        out = dict(options)
        for name in ("release", "port_pool"):  # (format 16: the ports a game set up before deals from)
            said = str(state.get("options", {}).get(name, "current"))
            if str(options.get(name, "current")) != said:
                out[name] = said
        return out

    def _check_archive(self, archive: Mapping[str, Any]) -> None:
        campaign.check_archive(archive)
        # a trial setup from it (the archive's shape is checked above; this catches what is left)
        n = len(archive["seats"])
        state: State = {"game": self.name, "players": list(archive["seats"]),
                        "options": self.check_options(n, {"campaign": True}), "rng": seed_to_state(0),
                        "archive_in": json.loads(json.dumps(dict(archive)))}
        try:
            self._setup(state, Rng(state))
        except BadArchive:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise BadArchive(f"the archive cannot set up a game: {type(exc).__name__} {exc}") from None

    def upgrade(self, state: State) -> bool:
        """An older state brought to this engine's format (upgrade.py); the hooks below do it on
        first reading one, so a game saved by an older release plays on."""
        return current(state)

    def _pending(self, state: State) -> list[int]:
        if state.get("format") != FORMAT:
            current(state)
        if state["over"]:
            return []
        return _pending_seats(state)

    #: (state object, its version, seat, options): the last options listed, which the next apply
    #: of that very state and seat takes instead of listing them again (and forgets)
    _ocache: tuple[Any, int, int, list[Option] | None] = (None, -1, -1, None)

    def _options(self, state: State, seat: int) -> list[Option]:
        if state.get("format") != FORMAT:
            current(state)
        # (DecisionStack.options, read from the state: the top frame's handler lists them)
        frames = state["stack"]
        top = frames[-1] if frames else None
        if top is None or seat not in (top["seats"] if "seats" in top else (top["seat"],)):
            opts: list[Option] = []
        else:
            handler = HANDLERS.get(top["kind"]) or stack(state).handler(top)  # (an unknown kind: its error)
            opts = handler.options(state, DecisionStack._for_seat(top, seat))
            if i18n.current() != i18n.DEFAULT:  # the labels in the reader's language (issue 27)
                opts = labels.in_language(opts)
        self._ocache = (state, state["revision"], seat, opts)
        return opts

    #: per frame kind, the safe code a missed deadline plays (docs/rules/maracaibo.md, Assumptions)
    DEFAULTS: ClassVar[dict[str, str]] = {"main": "pass", "free": "end", "village": "done", "combat": "cend",
                                          "tquest": "no", "yesno": "no", "hint": "nohint", "u11": "money",
                                          "score": "vp2", "draw": "pile",
                                          # the ransom costs the table nothing it scores (doubloons only
                                          # break ties, and a cooperative table has none): a silent player pays
                                          "ransom": "ransom"}

    def _default_move(self, state: State, seat: int, options: list[Option]) -> Option | None:
        """The least committal choice: no main action, no more village actions, end the combat,
        leave a quest, keep the hand, 2 VP at scoring, draw from the pile; sail the shortest way;
        where something must be chosen (a disc, a nation, a space, the cards that pay), the first
        listed (the cheapest payment, the nearest space). Never a free action; in the setup choice,
        plan and keep the cards in the order dealt."""
        top = state["stack"][-1]
        kind = top["kind"]
        if kind == "setup":
            return options[0]
        real = [o for o in options if not _is_free(o.code)]
        by_code = {o.code: o for o in real}
        wanted = self.DEFAULTS.get(kind)
        if wanted in by_code:
            return by_code[wanted]
        return real[0] if real else None

    def _apply(self, state: State, seat: int, move: Move, rng: Rng) -> list[Event]:
        cached = self._ocache
        listed = cached[3] if cached[0] is state and cached[1] == state["revision"] and cached[2] == seat else None
        self._ocache = (None, -1, -1, None)
        events = stack(state).choose(seat, move, rng, listed)
        events += card_permanents.after_move(state)  # the Uprising's cards: an income once a condition holds
        state["revision"] += 1
        events = labels.told(events)  # (issue 27: every event can be told in any language)
        for i, e in enumerate(events):
            if e.reveals:
                # what follows a reveal in the same move may depend on it: it commits too
                events[i + 1:] = [new_event(x.kind, x.text, x.data, x.to, True, x.msg) for x in events[i + 1:]]
                break
        return events

    # ---- outcome ----------------------------------------------------------------------------

    #: the order the results table lists Maracaibo's sources of victory points in
    SOURCES = SOURCES

    def score_breakdown(self, state: State) -> dict[int, dict[str, float]]:
        if state.get("format") != FORMAT:
            current(state)
        return score_breakdown(state)

    def cooperative(self, state: State) -> bool:
        """The cooperative scenarios 74 and 193 (coop.py)."""
        return coop.cooperative(state)

    def _outcome(self, state: State) -> Outcome | None:
        if state.get("format") != FORMAT:  # (the first hook pending, options and apply call)
            current(state)
        return outcome(state)

    # ---- views ------------------------------------------------------------------------------

    #: (state object, its version "v", the public part of its views), swapped as one tuple. Only
    #: apply changes a state in play (and bumps "v"), so a cached part is never stale; code that
    #: edits a state by hand must bump "v" itself. Views share the public part: treat them as read-only.
    _vcache: tuple[Any, int, Any] = (None, -1, None)

    def _view(self, state: State, seat: int | None) -> View:
        if state.get("format") != FORMAT:
            current(state)
        cached = self._vcache
        if cached[0] is state and cached[1] == state["revision"]:
            public = cached[2]
        else:
            public = self._public(state)
            self._vcache = (state, state["revision"], public)
        view = dict(public)
        view["seat"] = seat
        if seat is not None:
            me = state["seats"][seat]
            view["me"] = {"hand": list(me["hand"]),
                          "setup": json_copy(me["setup"]) if me["setup"] else None}
            kept = homeports.my_kept_port(state, seat)
            if kept:
                view["me"]["port"] = kept
        return view

    def _public(self, state: State) -> View:
        """What everybody sees, the same for every seat."""
        return public(state)

    def resample_hidden(self, state: State, seat: int | None, rng: Rng) -> State:
        if state.get("format") != FORMAT:
            current(state)
        return resample_hidden(state, seat, rng)

    # ---- notation ---------------------------------------------------------------------------
    # The shared layer (engine.notation) reads whole lines; notation.py gives it this game's words,
    # the texts that name each option and the reasons for a refusal.

    vocabulary = N.VOCABULARY

    def _vocabulary(self, state: State, seat: int) -> notation.Vocabulary:
        return N.vocabulary(super()._vocabulary(state, seat), state)

    def _readings(self, state: State, seat: int, option: Option) -> list[str]:
        # read from the label the rules made (English), whatever language it is shown in: a line
        # reads the same in every language (the translated label is matched whole, before these)
        english = labels.english(option)
        if english != option.label:
            return N.readings(state, seat, Option(option.code, english, option.move))
        return N.readings(state, seat, option)

    def _read_line(self, text: str, state: State, seat: int, options: list[Option]) -> notation.Reading:
        reading = super()._read_line(text, state, seat, options)
        N.check(text, reading, self._vocabulary(state, seat), options)
        return reading

    def _explain(self, state: State, seat: int, line: notation.Line, options: list[Option]) -> str | None:
        return N.explain(state, seat, line, options)

    def line_parts(self, text: str) -> list[str]:
        """As every game's, and a delivery with its payment written as one (``deliver sugar with
        card 12``): the delivery, then the payment (``with card 12``); a list of cards kept ended by "and"
        (``keep A, B and C``) as its cards."""
        return [p for part in super().line_parts(N.keep_list(text)) for q in N.pile_parts(part)
                for p in N.delivery_parts(q)]

    def sure_repeat(self, state: State, seat: int, move: Move, times: int) -> bool:
        """``draw 2 from pile``: two draws from the pile, when the hand has room for both and there
        are two cards to draw (judged before the first is drawn)."""
        return move.get("code") == "pile" and cards.sure_pile_draws(state, seat, times)

    def example_turn(self, state: State, seat: int) -> list[str]:
        """One worked whole turn from the seat's options (docs/mail.md): in the setup, plan one dealt
        card and keep four; on a turn, sail to the village of most actions in reach, buy a card there
        when one is affordable (and answer what that asks, such as the explorer's move), take the
        village actions left as doubloons, then ``done``. Stops before any line that reveals or draws."""
        top = state["stack"][-1]["kind"] if state.get("stack") else ""
        options = self.options(state, seat)
        if top == "setup":
            cards = [labels.english(o).split(" ", 1)[1] for o in options]
            verb = "plan" if options and options[0].code.startswith("p") else "keep"
            setup = [f"plan {cards[0]}", *(f"keep {c}" for c in cards[1:5])] if verb == "plan" else []
            return [_said_example(line) for line in setup]
        sails = [o for o in options if o.code.startswith("s") and labels.english(o).startswith("sail ")]
        if top != "sail" or not sails:
            return []
        trial = copy.deepcopy(state)
        best = max(sails, key=lambda o: (o.code[1:] in C.VILLAGES, int(labels.english(o).split()[1])))
        lines: list[str] = []
        move: Option | None = best
        bought = sub = False
        for _ in range(8):
            if move is None:
                break
            rng_before = trial.get("rng")
            after = copy.deepcopy(trial)
            events = self.apply(after, seat, move.move)
            commit = is_commit_point(rng_before, after, events)
            line = ("done" if move.code in ("done", "end", "pass") else move.label) if commit else (
                f"sail to {move.code[1:]}" if move is best else
                "vd" if move.code == "vd" else "done" if move.code in ("done", "end") else
                f"buy {C.CARD[int(move.code[1:])]['name']}" if re.fullmatch(r"b\d+", move.code) else
                _sub_line(move))
            # a sub-decision goes on the line that asked it (``buy Pious Gunner, explore 2``)
            if sub and lines and len(self.line_parts(line)) == 1:
                lines[-1] = f"{lines[-1]}, {line}"
            else:
                lines.append(line)
            if commit:
                break
            trial = after
            if seat not in self.pending(trial) or any(e.kind in ("turn", "round_end") for e in events):
                break
            opts = self.options(trial, seat)
            codes = {o.code: o for o in opts}
            kind = trial["stack"][-1]["kind"] if trial.get("stack") else ""
            buy = next((o for o in opts if o.code.startswith("b") and kind in ("main", "village")), None)
            sub = kind not in ("main", "village", "free")
            if buy is not None and not bought:
                move, bought = buy, True
            elif kind in ("main", "village"):
                move = codes.get("vd") or codes.get("done") or codes.get("pass")
            elif kind == "free":
                move = codes.get("end")
            else:  # a sub-decision the line before asked (the explorer's move, a nation, a payment)
                move = next((o for o in opts if not re.fullmatch(r"p\d+|k\d+[ul]", o.code)), None)
        return [_said_example(line) for line in lines]

    def describe_move(self, state: State, seat: int, move: Move) -> str:
        for o in self.options(state, seat):
            if o.code == move.get("code"):
                return o.label
        # (not a refusal here: apply refuses it with the real reason, "not your turn" when it is not
        # the seat's turn; QA: a code sent out of turn through the API was told it was not legal)
        return super().describe_move(state, seat, move)

    # ---- bot and rendering ------------------------------------------------------------------

    def bot_choice(self, state: State, seat: int, options: list[Option], rnd: random.Random) -> Option:
        from .bot import choose

        return choose(state, seat, options, rnd)

    def _render_text(self, view: View) -> str:
        from .render_text import text

        return text(view)

    def _render_mail_text(self, view: View) -> str:
        # Why brief: with 4 players the whole text was 7-11 KB and the HTML part repeats it, so a
        # third of the turn mails had no room for their picture; the other players' careers and
        # cards in full are on the reader's game page.
        from .render_text import text

        return text(view, brief=True)

    def _render_svg(self, view: View) -> str:
        from .render import svg

        return svg(view)

    def _render_phone_svg(self, view: View) -> list[str]:
        from .render_phone import phone_svgs

        return phone_svgs(view)

    def warm_up(self) -> None:
        # Why (issue 28, pipe session): where a place's row of ships is drawn is searched once a process
        # for each place and count of ships (places._ship_spots, 4-5 ms each), and a worker's first
        # pictures met dozens of them on a move's path.
        from .places import fill_ship_spots

        fill_ship_spots(self.max_players)

    def _render_mail_svg(self, view: View) -> str:
        # Why the map near the reader's ship: the whole board is 20 KB as PNG at a mail's width,
        # and its text part (7-9 KB, repeated in the HTML) leaves a mail 4-10 KB for the picture;
        # the map with the ships is what a reader looks at, the rest is in the mail's text.
        from .render_phone import mail_svg

        return mail_svg(view)


RULES = Maracaibo()
