"""The conformance checker every game's tests run.

In the spirit of OpenSpiel's random-simulation tests: from many seeds, play to
the end with random legal moves (or the game's own simple bot), and at every
step check the contract: every listed option applies, labels and codes parse
back, refusals change nothing, the state survives JSON, simultaneous choices
commute, hidden information does not leak into views, option labels or events,
and seed plus move log replays to the identical state. Python's global
``random`` must be untouched throughout.

A campaign's later games too (:func:`check_campaign`): each set up from the archive the game
before it produced, checked the same way, and replayed from seed + archive + move log.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import Event, Move, Option, Rules, State, visible_events
from engine.errors import IllegalMove, NotYourTurn
from engine.rng import Rng, seed_to_state

LogEntry = tuple[int, Move]


class ConformanceError(AssertionError):
    pass


def player_names(n: int) -> list[str]:
    return ["Ana", "Bruno", "Carla", "Duarte", "Eva", "Filipa"][:n]


def replay(rules: Rules, players: Sequence[str], options: Mapping[str, Any] | None, seed: int | str,
           log: Iterable[LogEntry], archive: Mapping[str, Any] | None = None) -> State:
    """Setup (from ``archive``, a campaign's later game) plus every logged move, in order: the
    state they lead to."""
    state = _setup(rules, players, options, seed, archive)
    for seat, move in log:
        rules.apply(state, seat, move)
    return state


def _setup(rules: Rules, players: Sequence[str], options: Mapping[str, Any] | None, seed: Any,
           archive: Mapping[str, Any] | None) -> State:
    # (a game on its own is set up without the keyword: a game written before campaigns takes none)
    return rules.setup(players, options, seed) if archive is None else rules.setup(players, options, seed,
                                                                                   archive=archive)


def choose(rules: Rules, state: State, seat: int, options: Sequence[Option], rnd: random.Random) -> Option:
    """The game's own bot when it has one (for games random play would not finish)."""
    bot: Callable[..., Option] | None = getattr(rules, "bot_choice", None)
    if bot is not None:
        return bot(state, seat, options, rnd)
    return rnd.choice(list(options))


@dataclass
class Report:
    games: int = 0
    moves: int = 0
    finished: int = 0
    errors: list[str] = field(default_factory=list)
    winners: Counter[int] = field(default_factory=Counter)
    lengths: list[int] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    resamples_that_changed: int = 0
    #: the last game's final state (a campaign's next game is set up from its archive)
    last_state: State | None = None
    #: the archives a campaign's games produced, in order (check_campaign)
    archives: list[dict[str, Any]] = field(default_factory=list)


def _fail(msg: str, seed: Any, step: int) -> ConformanceError:
    return ConformanceError(f"seed {seed!r}, step {step}: {msg}")


def _copied(state: State) -> State:
    """``copy.deepcopy(state)``, 3-4 times faster: a state is plain data (dicts, lists, strings, numbers),
    which pickle copies as deepcopy does, parts shared within it kept shared. Why: the checker copies the
    state several times at every step of every game it plays, and deepcopy was half of a whole checked
    game's time. Anything pickle refuses is copied by deepcopy."""
    try:
        copied: State = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    except (pickle.PicklingError, TypeError, AttributeError):
        return copy.deepcopy(state)
    return copied


def _labels(opts: Sequence[Option]) -> list[tuple[str, str]]:
    return [(o.code, o.label) for o in opts]


def _check_options(rules: Rules, state: State, seat: int, opts: list[Option], seed: Any, step: int,
                   apply_all: bool) -> None:
    codes = [o.code for o in opts]
    labels = [o.label for o in opts]
    if len(set(codes)) != len(codes):
        raise _fail(f"duplicate option codes for seat {seat}: {codes}", seed, step)
    if len(set(labels)) != len(labels):
        raise _fail(f"duplicate option labels for seat {seat}: {labels}", seed, step)
    for o in opts:
        for text in (o.code, o.label):
            try:
                parsed = rules.parse(text, state, seat)
            except IllegalMove as exc:
                raise _fail(f"{text!r} (option {o.code}) does not parse back: {exc}", seed, step) from exc
            if parsed != o.move and parsed.get("code") != o.code:
                raise _fail(f"{text!r} parses to {parsed}, not to option {o.code} {o.move}", seed, step)
        if apply_all:
            trial = _copied(state)
            try:
                rules.apply(trial, seat, o.move)
                trial2 = _copied(state)
                rules.apply(trial2, seat, {"code": o.code})
            except IllegalMove as exc:
                raise _fail(f"listed option {o.code} ({o.label}) was refused: {exc}", seed, step) from exc
            if trial != trial2:
                raise _fail(f"option {o.code} by code and by move give different states", seed, step)


def _check_refusals(rules: Rules, state: State, pending: list[int], seed: Any, step: int) -> None:
    before = json.dumps(state, sort_keys=True)
    for seat in range(len(state["players"])):
        try:
            if seat in pending:
                rules.apply(state, seat, {"code": "\u2620no-such-option"})
            else:
                rules.apply(state, seat, {"code": "x"})
        except NotYourTurn:
            if seat in pending:
                raise _fail(f"seat {seat} is pending but was told it is not its turn", seed, step) from None
        except IllegalMove:
            if seat not in pending:
                raise _fail(f"seat {seat} is not pending but got a plain refusal", seed, step) from None
        else:
            raise _fail(f"seat {seat}: a nonsense move was accepted", seed, step)
        if json.dumps(state, sort_keys=True) != before:
            raise _fail(f"a refused move by seat {seat} changed the state", seed, step)


def _check_hidden(rules: Rules, state: State, seat: int | None, rnd: random.Random, seed: Any, step: int,
                  report: Report) -> None:
    holder = {"rng": seed_to_state(str(rnd.random()))}
    other = rules.resample_hidden(_copied(state), seat, Rng(holder))
    if other != state:
        report.resamples_that_changed += 1
    if rules.view(other, seat) != rules.view(state, seat):
        raise _fail(f"seat {seat}'s view depends on information hidden from it", seed, step)
    if seat is None:
        return
    mine = rules.options(state, seat)
    if _labels(rules.options(other, seat)) != _labels(mine):
        raise _fail(f"seat {seat}'s option labels depend on information hidden from it", seed, step)
    if mine:
        move = rnd.choice(mine).move
        a, b = _copied(state), other
        ev_a = rules.apply(a, seat, move)
        ev_b = rules.apply(b, seat, move)
        seen_a = seen_without_reveals(ev_a, seat, stop_at_private_reveal=True)
        seen_b = seen_without_reveals(ev_b, seat, stop_at_private_reveal=True)
        if seen_a != seen_b:
            raise _fail(f"seat {seat}'s events depend on information hidden from it:\n{seen_a}\n{seen_b}",
                        seed, step)


def seen_without_reveals(events: Sequence[Event], seat: int | None, *,
                         stop_at_private_reveal: bool = False) -> list[dict[str, Any]]:
    """The events ``seat`` sees, reveals left out (they may differ: that is what they are for).

    With ``stop_at_private_reveal``, nothing after a reveal to some seats only counts either:
    what follows it (the effect of a barrel its taker looked at) may differ by its visible
    consequences, which the caller has not compared.
    """
    out = []
    for e in events:
        if e.reveals and e.to is not None and stop_at_private_reveal:
            break
        if e.visible_to(seat) and not e.reveals:
            out.append(e.as_dict())
    return out


def _check_observers(rules: Rules, state: State, pending: list[int], rnd: random.Random, seed: Any,
                     step: int) -> None:
    """What another seat sees of a move must not depend on what that seat cannot know, beyond
    the move's visible consequences.

    One pending seat t moves; for one other seat s (or a spectator), its hidden information
    is resampled and t makes the same move there. When s's views afterwards are identical
    (the move's consequences look the same to s), the events s is shown must be identical
    too, reveals to s excepted. This is what catches a face-down barrel whose "no effect"
    line, shown to the table, names it.
    """
    t = pending[rnd.randrange(len(pending))]
    opts = rules.options(state, t)
    if not opts:
        return
    move = rnd.choice(opts).move
    n = len(state["players"])
    s = rnd.choice([None, *(u for u in range(n) if u != t)])
    holder = {"rng": seed_to_state(str(rnd.random()))}
    other = rules.resample_hidden(_copied(state), s, Rng(holder))
    a = _copied(state)
    ev_a = rules.apply(a, t, move)
    try:
        ev_b = rules.apply(other, t, move)
    except IllegalMove:
        return  # t's choices depend on what s cannot see (t's own hand): nothing to compare
    if rules.view(a, s) != rules.view(other, s):
        return
    seen_a, seen_b = seen_without_reveals(ev_a, s), seen_without_reveals(ev_b, s)
    if seen_a != seen_b:
        raise _fail(f"seat {t}'s move shows seat {s} something its view hides:\n{seen_a}\n{seen_b}", seed, step)


def _check_others_moves(rules: Rules, state: State, pending: list[int], rnd: random.Random, seed: Any,
                        step: int) -> None:
    """Events may not tell a seat a simultaneous choice that its view hides.

    While several seats decide at once, each pending seat t applies two
    different options to copies. Any other seat s whose view ends up identical
    in both (so t's choice is hidden from s) must also be shown identical
    events, reveals excepted. Why only simultaneous decisions: a public turn
    can leave public traces in the events that no snapshot view keeps (how
    many cards someone kept before refilling), and that is no leak.
    """
    n = len(state["players"])
    for t in pending:
        opts = rules.options(state, t)
        if len(opts) < 2:
            continue
        a_opt, b_opt = rnd.sample(opts, 2)
        a, b = _copied(state), _copied(state)
        ev_a = rules.apply(a, t, a_opt.move)
        ev_b = rules.apply(b, t, b_opt.move)
        for s in [None, *range(n)]:
            if s == t or rules.view(a, s) != rules.view(b, s):
                continue
            seen_a = [e.as_dict() for e in visible_events(ev_a, s) if not e.reveals]
            seen_b = [e.as_dict() for e in visible_events(ev_b, s) if not e.reveals]
            if seen_a != seen_b:
                raise _fail(f"seat {t}'s choice is hidden from seat {s} by the views, but the events tell it:"
                            f"\n{seen_a}\n{seen_b}", seed, step)


def _check_simultaneous(rules: Rules, state: State, pending: list[int], rnd: random.Random, seed: Any,
                        step: int) -> None:
    """All pending seats choose; the arrival order must not change the result."""
    chosen = {s: rnd.choice(rules.options(state, s)).move for s in pending}
    results = []
    for order in (list(pending), list(reversed(pending))):
        trial = _copied(state)
        for s in order:
            if s not in rules.pending(trial):
                return  # not a simultaneous decision after all (the first move ended it)
            rules.apply(trial, s, chosen[s])
        results.append(trial)
    if results[0] != results[1]:
        raise _fail(f"simultaneous choices of seats {pending} give different states by arrival order",
                    seed, step)


def _check_events(events: list[Event], n: int, seed: Any, step: int) -> None:
    for e in events:
        if not isinstance(e, Event):
            raise _fail(f"apply returned {e!r}, not an Event", seed, step)
        if e.to is not None and not all(0 <= s < n for s in e.to):
            raise _fail(f"event {e.kind} names an unknown seat: {e.to}", seed, step)
        json.dumps(e.as_dict())


def run_game(rules: Rules, n_players: int, options: Mapping[str, Any] | None, seed: Any, *,
             checks: bool = True, max_steps: int = 20000, report: Report | None = None,
             archive: Mapping[str, Any] | None = None, check_every: int = 1) -> Report:
    """Play one game from ``seed``; with ``checks``, verify the contract at every step.

    ``archive``: the game is a campaign's later one, set up from the archive the game before it
    produced (and replayed from it). ``check_every``: the per-step checks only at every so many
    steps (and at every step where several seats decide at once), for long runs such as a whole
    campaign; the events, the end, the replay and the renderings are checked whatever it is."""
    report = report or Report()
    global_before = random.getstate()
    rnd = random.Random(f"{seed}-choices")
    players = player_names(n_players)
    state = _setup(rules, players, options, seed, archive)
    log: list[LogEntry] = []
    n = len(players)
    step = 0
    for step in range(max_steps):
        pending = rules.pending(state)
        if not pending:
            break
        if rules.outcome(state) is not None:
            raise _fail("seats are pending after the game ended", seed, step)
        full = checks and (step % check_every == 0 or len(pending) > 1)
        if full:
            try:
                round_trip = json.loads(json.dumps(state))
            except (TypeError, ValueError) as exc:
                raise _fail(f"the state is not JSON data: {exc}", seed, step) from exc
            if round_trip != state:
                raise _fail("the state does not survive a JSON round trip", seed, step)
            _check_refusals(rules, state, pending, seed, step)
            for seat in [None, *range(n)]:
                if seat is not None and seat not in pending and rules.options(state, seat):
                    raise _fail(f"seat {seat} has options but is not pending", seed, step)
                _check_hidden(rules, state, seat, rnd, seed, step, report)
            # Why its own generator: adding this check must not change the games the others play.
            _check_observers(rules, state, pending, random.Random(f"{seed}-observers-{step}"), seed, step)
            if len(pending) > 1:
                _check_others_moves(rules, state, pending, rnd, seed, step)
                _check_simultaneous(rules, state, pending, rnd, seed, step)
        seat = pending[rnd.randrange(len(pending))]
        opts = rules.options(state, seat)
        if not opts:
            raise _fail(f"seat {seat} is pending but has no options", seed, step)
        if full:
            _check_options(rules, state, seat, opts, seed, step, apply_all=True)
        move = choose(rules, state, seat, opts, rnd).move
        events = rules.apply(state, seat, move)
        if checks:
            _check_events(events, n, seed, step)
        log.append((seat, move))
    else:
        raise _fail(f"the game did not finish in {max_steps} moves", seed, step)
    outcome = rules.outcome(state)
    if outcome is None:
        raise _fail("nobody is pending but the game has no outcome", seed, step)
    ranked = sorted(s for group in outcome.ranking for s in group)
    if ranked != list(range(n)):
        raise _fail(f"the ranking {outcome.ranking} does not place every seat once", seed, step)
    if checks:
        if replay(rules, players, options, seed, log, archive) != state:
            raise _fail("seed plus " + ("archive plus " if archive is not None else "")
                        + "move log does not replay to the identical state", seed, step)
        for seat in [None, *range(n)]:  # the end's views too (a campaign's card added unread at the end)
            _check_hidden(rules, state, seat, rnd, seed, step + 1, report)
        rules.render_svg(rules.view(state, None))
        rules.render_text(rules.view(state, 0))
    if random.getstate() != global_before:
        raise _fail("the engine touched Python's global random state", seed, step)
    report.games += 1
    report.finished += 1
    report.moves += len(log)
    report.lengths.append(len(log))
    report.reasons[outcome.reason] += 1
    for w in outcome.winners:
        report.winners[w] += 1
    report.last_state = state
    return report


def check_conformance(rules: Rules, n_players: int, options: Mapping[str, Any] | None = None,
                      seeds: Iterable[Any] = range(5), *, hidden_info: bool = True,
                      archive: Mapping[str, Any] | None = None) -> Report:
    """Run the checked simulation for every seed; raise ConformanceError on the first breach.
    ``archive``: every game is a campaign's later game, set up from it (whole campaigns:
    :func:`check_campaign`)."""
    report = Report()
    for seed in seeds:
        run_game(rules, n_players, options, seed, checks=True, report=report, archive=archive)
    if hidden_info and report.resamples_that_changed == 0:
        raise ConformanceError("resample_hidden never changed anything: the hidden-information test proved nothing")
    return report


def check_campaign(rules: Rules, n_players: int, options: Mapping[str, Any] | None, seed: Any, *,
                   checks: bool = True, check_every: int = 1, max_games: int = 10, games: int | None = None,
                   report: Report | None = None) -> Report:
    """Play one whole campaign from ``seed`` with the checker: its first game from ``options``,
    every later one (seed ``<seed>-g<N>``) set up from the archive the game before it produced,
    with the options the archive makes it play (``Rules.archive_options``), as the service does;
    until an archive says the campaign has ``ended`` (or ``games`` games, for a game whose
    campaigns have no end). Each game is checked as :func:`run_game`
    checks a game (replayed from seed + archive + move log); each archive must exist once its game
    is over, survive JSON, count the games played, keep the seats, be accepted by
    ``check_archive`` while the campaign goes on, and an ended campaign's must be refused."""
    report = report or Report()
    players = player_names(n_players)
    archive: dict[str, Any] | None = None
    for g in range(games or max_games):
        game_seed = seed if g == 0 else f"{seed}-g{g + 1}"
        where = f"{seed!r}, game {g + 1}"
        game_options = options if archive is None else rules.archive_options(dict(options or {}), archive)
        try:
            run_game(rules, n_players, game_options, game_seed, checks=checks, report=report, archive=archive,
                     check_every=check_every)
        except ConformanceError as exc:
            raise ConformanceError(f"campaign {where}: {exc}") from exc
        state = report.last_state
        assert state is not None
        made = rules.archive(state)
        if made is None:
            raise ConformanceError(f"campaign {where}: the finished game gives no archive")
        if checks:
            try:
                same = json.loads(json.dumps(made)) == made
            except (TypeError, ValueError):
                same = False
            if not same:
                raise ConformanceError(f"campaign {where}: the archive is not JSON data")
            if made.get("game") != (archive["game"] if archive else 0) + 1:
                raise ConformanceError(f"campaign {where}: the archive counts {made.get('game')!r} games played")
            if made.get("seats") != players:
                raise ConformanceError(f"campaign {where}: the archive's seats are {made.get('seats')!r}")
        report.archives.append(made)
        archive = made
        if archive.get("ended"):
            if checks:
                try:
                    rules.setup(players, options, f"{seed}-after", archive=archive)
                except ValueError:  # (BadArchive, a SetupError)
                    pass
                else:
                    raise ConformanceError(f"campaign {where}: a game was set up from the archive of an ended "
                                           "campaign")
            return report
        if checks:
            rules.check_archive(archive)
    if games is not None:
        return report
    raise ConformanceError(f"campaign {seed!r} did not end in {max_games} games")
