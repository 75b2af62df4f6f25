"""A whole turn planned on the personal page (pbem.games.turnplan, issue #21): the plan shows the
options after its steps only while those steps revealed nothing and used no random numbers; a step
that does closes it, and nothing computed after it is kept."""

from __future__ import annotations

import json

import pytest

import engine
from engine import batch
from pbem.games import turnplan


@pytest.mark.parametrize("seed", ["plan-1", "plan-2"])
def test_it_plans_after_quiet_steps_only_and_closes_at_a_reveal_or_the_turns_end(seed: str) -> None:
    rules = engine.get("maracaibo")
    state = rules.setup(["Ana", "Bruno"], {}, seed)
    seen = {"open": 0, "closed by a reveal": 0, "turn ended": 0}
    for _ in range(120):  # a real game, the first option each time; every option of every state tried
        seat = rules.pending(state)[0]
        for option in rules.options(state, seat):
            plan = turnplan.plan_turn(rules, state, seat, [option.code])
            trial = json.loads(json.dumps(state))
            rng = trial.get("rng")
            events = rules.apply(trial, seat, option.move)
            assert [s.code for s in plan.steps] == [option.code] and plan.steps[0].label == option.label
            if batch.is_commit_point(rng, trial, events):
                assert plan.closed and plan.options == [] and plan.state is None, "nothing after a reveal"
                seen["closed by a reveal"] += 1
            elif seat not in rules.pending(trial):
                assert plan.closed == "these steps end your turn" and plan.options == []
                seen["turn ended"] += 1
            else:
                after = [o.code for o in rules.options(trial, seat)]
                assert not plan.closed and [o.code for o in plan.options] == after
                seen["open"] += 1
        first = rules.options(state, seat)[0]
        rules.apply(state, seat, first.move)
        if rules.outcome(state) is not None:
            break
    assert all(seen.values()), seen


def test_it_stops_a_plan_at_a_step_that_cannot_be_played_and_never_plans_past_a_reveal() -> None:
    rules = engine.get("maracaibo")
    state = rules.setup(["Ana", "Bruno"], {}, "plan-3")
    before = json.dumps(state, sort_keys=True)
    seat = rules.pending(state)[0]
    good = rules.options(state, seat)[0].code
    plan = turnplan.plan_turn(rules, state, seat, [good, "no-such-code", good])
    assert plan.error.startswith("Step 2 of your plan (no-such-code) cannot be played there")
    assert [s.code for s in plan.steps] == [good]
    assert json.dumps(state, sort_keys=True) == before, "planning never changes the game"
    # a reveal in the middle of an address's plan: the plan ends at it
    for _ in range(200):
        seat = rules.pending(state)[0]
        for option in rules.options(state, seat):
            trial = json.loads(json.dumps(state))
            rng = trial.get("rng")
            revealed = batch.is_commit_point(rng, trial, rules.apply(trial, seat, option.move))
            if revealed and seat in rules.pending(trial):
                more = rules.options(trial, seat)[0].code
                plan = turnplan.plan_turn(rules, state, seat, [option.code, more])
                assert [s.code for s in plan.steps] == [option.code] and plan.closed and not plan.options
                return
        rules.apply(state, seat, rules.options(state, seat)[0].move)
    pytest.fail("no reveal in 200 moves")


def test_it_offers_planning_where_a_turn_takes_several_steps_and_not_where_one_move_ends_it() -> None:
    def first_turn(game: str, options: dict[str, object]) -> bool:
        rules = engine.get(game)
        state = rules.setup(["Ana", "Bruno", "Carla"], options, "plan-4")
        for _ in range(100):  # past any setup, to a seat's first real turn
            seat = rules.pending(state)[0]
            kinds = {rules.option_details(state, seat, o).get("kind") for o in rules.options(state, seat)}
            if kinds & {"sail", "move", "play"}:
                return turnplan.worth_planning(rules, state, seat, rules.options(state, seat))
            rules.apply(state, seat, rules.options(state, seat)[0].move)
        raise AssertionError(f"{game}: no first turn")

    assert first_turn("maracaibo", {}), "sail, then a main action: a turn of several steps"
    assert first_turn("caravelas", {}), "a caravela moved, then more"
    assert not first_turn("maretta", {"side": "A"}), "a play ends the turn"


def test_it_links_every_place_an_option_names_not_only_sail_targets() -> None:
    """A combat's annex and displace places are links on the map too (pbem.games.pages.map_links)."""
    import random

    from pbem.games import pages

    rules = engine.get("maracaibo")
    state = rules.setup(["Ana", "Bruno"], {}, "annex-0")
    rnd = random.Random(0)
    for _ in range(3000):  # random play until a combat offers places
        seat = rules.pending(state)[0]
        options = rules.options(state, seat)
        named = {rules.option_details(state, seat, o).get("place"): o for o in options
                 if rules.option_details(state, seat, o).get("kind") in ("annex", "displace")}
        if named:
            break
        rules.apply(state, seat, rnd.choice(options).move)
    assert named, "a combat with places to annex or displace"
    links, titles = pages.map_links(rules, state, seat, options)
    assert set(named) <= set(links), "every annex or displace place is a link"
    for place in named:
        here = [o for o in options if rules.option_details(state, seat, o).get("place") == place]
        assert links[place] == (f"./?play={here[0].code}#chosen" if len(here) == 1 else f"./?at={place}#options")
        assert titles[place] == (here[0].label if len(here) == 1 else f"{len(here)} options here")
    drawn = rules.render_svg({**rules.view(state, seat), "links": links, "link_titles": titles})
    assert all(f'data-place="{p}"' in drawn for p in named), "the map draws them as links"
