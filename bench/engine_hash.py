#!/usr/bin/env python
"""Hash whole seeded games of every game: states, options, events, every seat's view and text, outcome.

    python bench/engine_hash.py [games per configuration] [game ...] [--engine CHECKOUT]

For a speed-up that must not change behaviour: run it before and after (or on two checkouts)
and compare the lines. Each configuration's games are played with the bench's bot choices from
fixed seeds, applying moves in the ways the doors do (by code, by structure, on a fresh JSON copy
of the state, with and without options listed first), so caches keyed on a state are exercised
both hit and missed. Run by hand; never part of the test suite.

States are hashed as this checkout's engine reads them: a Maracaibo state passes through this
checkout's format upgrades first (engine/games/maracaibo/upgrade.py), so ``--engine`` an older
checkout (its engine plays, states of its own format) gives the same lines as this one when the
upgrades keep every game the same (the hash of an old-format run, upgraded, equals the new run's).
"""
import hashlib
import importlib.util
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
ENGINE = Path(sys.argv[sys.argv.index("--engine") + 1]).resolve() if "--engine" in sys.argv else HERE
sys.path.insert(0, str(ENGINE))  # run from a checkout, installed or not (or play another checkout's engine)

from engine import registry  # noqa: E402
from engine.testing import choose, player_names  # noqa: E402


def _upgrades() -> dict[str, tuple[int, Callable[[dict[str, Any]], bool]]]:
    """Each game's format upgrade, from this checkout (it imports nothing when loaded: see its docstring)."""
    if ENGINE == HERE:  # this checkout's engine: its package, so format 9's step can read its releases
        from engine.games.maracaibo import upgrade

        return {"maracaibo": (upgrade.FORMAT, upgrade.current)}
    spec = importlib.util.spec_from_file_location("maracaibo_upgrade", HERE / "engine/games/maracaibo/upgrade.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {"maracaibo": (module.FORMAT, module.current)}


UPGRADE = _upgrades()


def as_read(name: str, state: dict[str, Any]) -> str:
    """The state as this checkout's engine reads it (upgraded, on a copy), as hashed."""
    upgrade = UPGRADE.get(name)
    if upgrade is not None and state.get("format") != upgrade[0]:
        state = json.loads(json.dumps(state))
        upgrade[1](state)
    return json.dumps(state)

CONFIGS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "maretta": [(n, {"side": s}) for s in "AB" for n in (3, 4, 5)],
    "caravelas": [(n, {}) for n in (2, 3, 4)] + [(3, {"target": 60})],
    "maracaibo": [(n, {"scenario": sc}) for n in (2, 3, 4) for sc in ("75", "77")]
    + [(1, {"scenario": "77", "difficulty": d}) for d in (1, 3, 5)] + [(1, {"scenario": "75", "jean_uprising": False})]
    # The Uprising, the code that changes most (added after the base game's: a configuration's seed is
    # its own, so the lines above keep their hashes): its scenarios 78 and 79, its cooperative modes (solo,
    # then two players, against Jacques), 79 with the promos, and solo against Jacques in the base game at
    # his top level (the other configurations play his default, 2)
    + [(n, {"mode": m}) for m in ("78", "79") for n in (2, 4)]
    + [(n, {"mode": m}) for m in ("74", "193") for n in (1, 2)]
    + [(3, {"mode": "79", "promos": True}), (1, {"automa": "jacques", "jacques_level": 4})],
}


def main() -> None:
    args = [a for i, a in enumerate(sys.argv[1:], 1) if a != "--engine" and sys.argv[i - 1] != "--engine"]
    games = int(args[0]) if args else 6
    only = args[1:] or list(CONFIGS)
    if ENGINE != HERE:
        print(f"the engine of {ENGINE}, its states upgraded by this checkout's")
    total = hashlib.sha256()
    for name in only:
        rules = registry.get(name)
        for n, opts in CONFIGS[name]:
            h = hashlib.sha256()
            moves = 0
            for g in range(games):
                seed = f"hash-{name}-{n}-{json.dumps(opts, sort_keys=True)}-{g}"
                rnd = random.Random(seed)
                st = rules.setup(player_names(n), opts, seed)
                h.update(as_read(name, st).encode())
                while pend := rules.pending(st):
                    seat = pend[rnd.randrange(len(pend))]
                    mode = rnd.randrange(4)
                    opts_list = rules.options(st, seat)
                    h.update(json.dumps([o.as_dict() for o in opts_list]).encode())
                    opt = choose(rules, st, seat, opts_list, rnd)
                    if mode == 0:  # apply on a fresh copy (no cache), by structure
                        st = json.loads(json.dumps(st))
                        ev = rules.apply(st, seat, dict(opt.move))
                    elif mode == 1:  # by code
                        ev = rules.apply(st, seat, {"code": opt.code})
                    else:
                        ev = rules.apply(st, seat, opt.move)
                    moves += 1
                    h.update(json.dumps([e.as_dict() for e in ev]).encode())
                    h.update(as_read(name, st).encode())
                    if mode != 3 or moves % 5 == 0:
                        for v in [*range(n), None]:
                            view = rules.view(st, v)
                            h.update(json.dumps(view).encode())
                            if moves % 7 == 0:
                                h.update(rules.render_text(view).encode())
                    if moves % 11 == 0:
                        for s in range(n):
                            for o in rules.options(st, s):
                                h.update(o.code.encode() + o.label.encode())
                out = rules.outcome(st)
                h.update(json.dumps(None if out is None else out.as_dict()).encode())
                h.update(json.dumps(rules.score_breakdown(st)).encode())
            print(f"{name:<10} {n} {json.dumps(opts, sort_keys=True):<45} moves {moves:>6} {h.hexdigest()[:16]}",
                  flush=True)
            total.update(h.digest())
    print("total", total.hexdigest())


if __name__ == "__main__":
    main()
