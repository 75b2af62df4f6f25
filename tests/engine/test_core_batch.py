"""A reveal is a commit point: engine.batch.apply_batch, for every registered game.

The property at the end is the one the issue asks for: a seat sends a random batch of
legal moves ending in a bad command; whatever the seat cannot know is changed
(``resample_hidden``); the refusal it gets must not change, except for what the
steps that stand legitimately revealed to it.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import engine
from engine.batch import BatchCrash, BatchResult, Command, apply_batch, canonical_move, is_commit_point
from engine.core import Event, Move, Option, Outcome, Rules, View, option_by_code, visible_events
from engine.core import State as EngineState
from engine.errors import IllegalMove, SetupError
from engine.games.caravelas import RULES as CARAVELAS
from engine.rng import Rng, seed_to_state
from engine.testing import choose, player_names
from tests.engine.test_caravelas_rules import game, put
from tests.engine.test_maretta_rules import PURPLE, at_barrel, side_a_turn

State = dict[str, Any]


def snapshot(state: State) -> str:
    return json.dumps(state, sort_keys=True)


def caravelas_game(n: int) -> State:
    """Seat 0 in Lisboa with one discovery card in hand, so it may draw."""
    return put(game(n), 0, disc=["guine"])


def quiet_option(rules: Rules, state: State, seat: int) -> str:
    """The code of an option that reveals nothing and uses no random numbers."""
    for opt in rules.options(state, seat):
        trial = copy.deepcopy(state)
        events = rules.apply(trial, seat, opt.move)
        if not is_commit_point(state["rng"], trial, events) and seat in rules.pending(trial):
            return opt.code
    raise AssertionError("no quiet option here")


# ---- the rule, on known positions -------------------------------------------------------------


def test_it_keeps_a_draw_and_refuses_the_bad_line_after_it_alone() -> None:
    state = caravelas_game(2)
    alone = copy.deepcopy(state)
    CARAVELAS.apply(alone, 0, {"code": "draw"})
    result = apply_batch(CARAVELAS, state, 0, [Command(code="draw"), Command(code="bogus")])
    assert [s.shown for s in result.steps] == ["draw"] and result.steps[0].commit
    assert snapshot(state) == snapshot(alone)
    assert result.refused is not None and result.refused.number == 2 and result.refused.rolled_back == ()
    assert [o.code for o in result.refused.options] == [o.code for o in CARAVELAS.options(alone, 0)]
    drawn = [e for e in result.visible_events(0) if e.kind == "drawn"]
    assert drawn and drawn[0].reveals and result.visible_events(1) == [e for e in result.visible_events(1)
                                                                         if e.to is None]


def test_it_changes_nothing_and_shows_the_options_at_the_refused_line_when_it_fails_before_a_reveal() -> None:
    state = caravelas_game(2)
    before = snapshot(state)
    quiet = quiet_option(CARAVELAS, state, 0)
    after_quiet = copy.deepcopy(state)
    CARAVELAS.apply(after_quiet, 0, option_by_code(CARAVELAS.options(state, 0), {"code": quiet}).move)
    options_there = [f"{o.code}: {o.label}" for o in CARAVELAS.options(after_quiet, 0)]
    assert options_there != [f"{o.code}: {o.label}" for o in CARAVELAS.options(state, 0)]
    result = apply_batch(CARAVELAS, state, 0, [Command(code=quiet), Command(text="bogus")])
    assert snapshot(state) == before and not result.committed
    assert result.refused is not None and result.refused.number == 2 and result.refused.rolled_back == (1,)
    assert list(result.refused.error.allowed) == options_there
    assert [f"{o.code}: {o.label}" for o in result.refused.options] == options_there


def test_it_rolls_back_the_quiet_steps_after_the_last_reveal() -> None:
    state = caravelas_game(2)
    after_draw = copy.deepcopy(state)
    CARAVELAS.apply(after_draw, 0, {"code": "draw"})
    keep = CARAVELAS.options(after_draw, 0)[0].code
    result = apply_batch(CARAVELAS, state, 0, [Command(code="draw"), Command(code=keep), Command(code="bogus")])
    if result.steps[-1].number == 2:  # keeping revealed something (it can end the turn): it stands too
        assert result.steps[-1].commit
    else:
        assert snapshot(state) == snapshot(after_draw)
        assert result.refused is not None and result.refused.rolled_back == (2,)


def test_it_keeps_a_face_down_barrel_it_looked_at() -> None:
    st = side_a_turn([["1wo", "2wo", "3wo", "4wo"]] * 3, pos=[4, 4, 4])
    at_barrel(st, PURPLE, [("mo", False), ("sp", False)])
    seat = PURPLE
    result = apply_batch(engine.get("maretta"), st, seat, [Command(code="b1"), Command(code="bogus")])
    assert result.steps and result.steps[0].commit
    assert any(e.kind == "barrel_look" for e in result.visible_events(seat))
    assert not any(e.kind == "barrel_look" for e in result.visible_events(None))


def test_it_restores_the_last_commit_point_when_a_game_crashes() -> None:
    state = caravelas_game(2)
    after_draw = copy.deepcopy(state)
    CARAVELAS.apply(after_draw, 0, {"code": "draw"})

    def read(rules: Rules, st: State, seat: int, command: Command) -> dict[str, Any]:
        if command.code == "boom":
            st["fleets"] = "half-applied"
            raise RuntimeError("a bug")
        return {"code": command.code}

    with pytest.raises(RuntimeError):
        apply_batch(CARAVELAS, state, 0, [Command(code="draw"), Command(code="boom")], read=read)
    assert snapshot(state) == snapshot(after_draw)


def test_it_stores_the_matched_options_move_without_extra_keys() -> None:
    state = caravelas_game(2)
    opt = CARAVELAS.options(state, 0)[0]
    assert canonical_move(CARAVELAS, state, 0, {"code": opt.code, "junk": [1, 2]}) == opt.move
    result = apply_batch(CARAVELAS, state, 0, [Command(move={"code": opt.code, "junk": 1})])
    assert result.steps[0].move == opt.move


# ---- a refusal is judged where it stands; a crash in a rolled-back state never gets out -------------


class Telltale(Rules):
    """One seat, one hidden number. ``arm`` is quiet (no reveal, no random numbers); once armed,
    a refusal says so, and a crash quotes the hidden number (a bug's text is the game's internals,
    not its options). Run alone on the state that stands (unarmed), a crash says nothing of it: the
    batch must never pass on an armed crash."""

    name = "telltale"
    title = "Telltale"
    min_players = 1
    max_players = 1

    def _setup(self, state: EngineState, rng: Any) -> None:
        state["secret"] = 1000 + rng.die(8999)
        state["armed"] = False

    def _pending(self, state: EngineState) -> list[int]:
        return [0]

    def _options(self, state: EngineState, seat: int) -> list[Option]:
        if state["armed"]:
            return [Option("disarm", "disarm", {"code": "disarm"})]
        return [Option("arm", "arm", {"code": "arm"}), Option("wait", "wait", {"code": "wait"})]

    def _apply(self, state: EngineState, seat: int, move: Move, rng: Any) -> list[Event]:
        code = move.get("code")
        tail = f" (secret {state['secret']})" if state["armed"] else ""
        if code == "crash" and state["armed"]:
            raise RuntimeError(f"a bug{tail}")
        if code == "explode":
            raise RuntimeError(f"a bug everywhere{tail}")
        try:
            opt = option_by_code(self._options(state, seat), move)
        except IllegalMove as exc:
            raise IllegalMove(f"{code} is not an option here{' (armed)' if state['armed'] else ''}",
                              exc.allowed) from None
        state["armed"] = opt.code == "arm"
        return [Event("did", opt.code)]

    def _view(self, state: EngineState, seat: int | None) -> View:
        return {"armed": state["armed"]}

    def _outcome(self, state: EngineState) -> Outcome | None:
        return None

    def _render_text(self, view: View) -> str:
        return ""

    def _render_svg(self, view: View) -> str:
        return "<svg/>"


TELLTALE = Telltale()


def telltale() -> State:
    return TELLTALE.setup(["ann"], {}, 7)


def no_secret(state: State, *texts: str) -> None:
    for text in texts:
        assert str(state["secret"]) not in text and "secret" not in text, text


def test_it_judges_the_refused_line_where_it_stands_after_the_lines_undone_with_it() -> None:
    state = telltale()
    before = snapshot(state)
    result = apply_batch(TELLTALE, state, 0, [Command(code="arm"), Command(code="bogus")])
    assert snapshot(state) == before
    r = result.refused
    assert r is not None and r.number == 2 and r.rolled_back == (1,)
    # the reason and the options at line 2, after line 1 (which revealed nothing and was undone)
    assert r.error.message == "bogus is not an option here (armed)"
    assert list(r.error.allowed) == ["disarm: disarm"] and [o.code for o in r.options] == ["disarm"]
    no_secret(state, r.error.message, str(r.error), *r.error.allowed, *(o.label for o in r.options))


def test_it_refuses_a_line_that_is_wrong_only_after_the_undone_lines_for_the_reason_there() -> None:
    state = telltale()
    result = apply_batch(TELLTALE, state, 0, [Command(code="wait"), Command(code="arm"), Command(code="wait")])
    r = result.refused
    assert r is not None and r.number == 3 and r.rolled_back == (1, 2)
    assert r.error.message == "wait is not an option here (armed)" and list(r.error.allowed) == ["disarm: disarm"]
    assert not state["armed"]


def test_it_keeps_the_engines_own_reason_when_nothing_was_undone() -> None:
    state = telltale()
    result = apply_batch(TELLTALE, state, 0, [Command(code="bogus")])
    assert result.refused is not None and result.refused.error.message == "bogus is not an option here"


def test_it_never_lets_a_crash_in_a_rolled_back_state_out_not_even_as_context() -> None:
    import traceback

    state = telltale()
    before = snapshot(state)
    with pytest.raises(BatchCrash) as info:
        apply_batch(TELLTALE, state, 0, [Command(code="arm"), Command(code="crash")])
    assert snapshot(state) == before
    assert info.value.__context__ is None and info.value.__cause__ is None
    assert "line 2" in str(info.value) and "after line 1" in str(info.value)
    no_secret(state, "".join(traceback.format_exception(info.value)))


def test_it_lets_a_crash_out_as_it_happens_on_the_state_that_stands() -> None:
    import traceback

    state = telltale()
    with pytest.raises(RuntimeError, match="a bug everywhere") as info:
        apply_batch(TELLTALE, state, 0, [Command(code="arm"), Command(code="explode")])
    assert str(info.value) == "a bug everywhere"
    no_secret(state, "".join(traceback.format_exception(info.value)))


# ---- the property, for every registered game ------------------------------------------------------


def configurations() -> Iterator[tuple[str, int, dict[str, Any]]]:
    """Every game in the registry, at its smallest and largest player count, each board choice."""
    for name in engine.names():
        rules = engine.get(name)
        variants: list[dict[str, Any]] = [{}]
        for spec in rules.option_specs:
            if spec.kind == "choice":
                variants += [{spec.name: c} for c in spec.choices if c != spec.default]
        specs = {spec.name: spec for spec in rules.option_specs}
        for options in variants:
            for n in sorted({rules.min_players, rules.max_players}):
                if all(specs[k].applies_to(n) for k in options) and _accepted(rules, n, options):
                    yield name, n, options


def _accepted(rules: Rules, n: int, options: dict[str, Any]) -> bool:
    """Whether the game takes these options at this player count (the Uprising's competitive
    modes are not solo; its cooperative ones are)."""
    try:
        rules.check_options(n, options)
    except SetupError:
        return False
    return True


def sample_states(rules: Rules, n: int, options: dict[str, Any], seed: int, count: int) -> list[State]:
    rnd = random.Random(seed)
    state = rules.setup(player_names(n), options, seed)
    out: list[State] = []
    for _ in range(5000):
        pending = rules.pending(state)
        if not pending or len(out) >= count:
            break
        if rnd.random() < 0.25:
            out.append(copy.deepcopy(state))
        seat = rnd.choice(pending)
        rules.apply(state, seat, choose(rules, state, seat, rules.options(state, seat), rnd).move)
    return out


BAD = [Command(code="\u2620bogus"), Command(text="xyzzy plugh"), Command(move={"nonsense": True}),
       Command(text="")]


def random_batch(rules: Rules, state: State, seat: int, rnd: random.Random) -> list[Command]:
    trial = copy.deepcopy(state)
    batch: list[Command] = []
    for _ in range(rnd.randint(0, 4)):
        opts = rules.options(trial, seat)
        if not opts:
            break
        opt = rnd.choice(opts)
        batch.append(Command(code=opt.code) if rnd.random() < 0.5 else Command(text=opt.label))
        rules.apply(trial, seat, opt.move)
    return [*batch, rnd.choice(BAD)]


def seen_before_reveal(events: list[Event], seat: int) -> list[dict[str, Any]]:
    """What the seat saw up to the first event that revealed something to it (what follows may depend on it)."""
    out = []
    for e in visible_events(events, seat):
        if e.reveals:
            break
        out.append(e.as_dict())
    return out


def first_commit(result: BatchResult) -> int | None:
    return next((s.number for s in result.steps if s.commit), None)


def as_seen(result: BatchResult, seat: int, upto: int | None) -> dict[str, Any]:
    """The refusal as the seat gets it. With ``upto``, only the steps up to that commit point
    count: from a reveal on, what follows may legitimately depend on what it revealed."""
    assert result.refused is not None
    if upto is None:
        r = result.refused
        return {"refused": (r.number, r.shown, r.error.code, r.error.message, r.error.allowed,
                            [(o.code, o.label) for o in r.options], r.rolled_back)}
    steps = [s for s in result.steps if s.number <= upto]
    return {"steps": [(s.number, s.shown, s.move, s.label, seen_before_reveal(list(s.events), seat))
                      for s in steps]}


def _id(v: Any) -> str:
    return ",".join(f"{k}={x}" for k, x in v.items()) if isinstance(v, dict) else str(v)


def refusal_text(result: BatchResult) -> tuple[Any, ...]:
    r = result.refused
    assert r is not None
    return (r.number, r.shown, r.error.code, r.error.message, r.error.allowed,
            [(o.code, o.label) for o in r.options], r.rolled_back)


def check_refusal_after_commit(rules: Rules, state: State, seat: int, batch: list[Command], a: BatchResult,
                               rnd: random.Random) -> int:
    """After a commit point, the refusal (its reason and allowed list included) must be the same
    whatever the seat cannot know of the state that stands: resample that state and send the
    lines after the last one that stood again. Returns 1 when compared."""
    standing = copy.deepcopy(state)
    apply_batch(rules, standing, seat, batch)
    last = a.steps[-1].number
    other = rules.resample_hidden(copy.deepcopy(standing), seat, Rng({"rng": seed_to_state(rnd.random())}))
    b = apply_batch(rules, other, seat, batch[last:], first_number=last + 1)
    if b.committed:  # a line after it revealed something in that world (a public skip): nothing to compare
        return 0
    assert refusal_text(a) == refusal_text(b), [c.shown for c in batch]
    return 1


@pytest.mark.parametrize(("name", "n", "options"), list(configurations()), ids=_id)
def test_it_gives_the_same_refusal_whatever_the_seat_cannot_see(name: str, n: int, options: dict[str, Any]) -> None:
    rules = engine.get(name)
    rnd = random.Random(f"{name}-{n}-{options}")
    tried = committed = tails = 0
    for seed in range(3):
        for state in sample_states(rules, n, options, seed, count=12):
            seat = rnd.choice(rules.pending(state))
            batch = random_batch(rules, state, seat, rnd)
            other = rules.resample_hidden(copy.deepcopy(state), seat, Rng({"rng": seed_to_state(rnd.random())}))
            a = apply_batch(rules, copy.deepcopy(state), seat, batch)
            b = apply_batch(rules, other, seat, batch)
            assert a.refused is not None and b.refused is not None
            fa, fb = first_commit(a), first_commit(b)
            if a.committed:
                tails += check_refusal_after_commit(rules, state, seat, batch, a, rnd)
            if fa == fb:
                assert as_seen(a, seat, fa) == as_seen(b, seat, fb), f"{name} seed {seed}: {[c.shown for c in batch]}"
            else:
                # A step may reveal in one world and not in the other (a public skip); the steps up to
                # it must have been accepted in both, or their legality told what the seat cannot see.
                k = min(c for c in (fa, fb) if c is not None)
                quiet = b if fa == k else a
                assert quiet.refused is not None and quiet.refused.number > k, [c.shown for c in batch]
            tried += 1
            committed += a.committed
    assert tried >= 10 and committed >= 1  # the property was exercised both ways
    assert tails >= 1  # and the refusal's text after a commit point was compared too
