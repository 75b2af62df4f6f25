"""The Uprising's modules compiled with mypyc (engine/compiled.py MODULES): in the build, and the same
seeded games of every mode compiled as in plain Python (tests/engine/test_compiled.py hashes the base
game's configurations; these are the expansion's)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import compiled

ROOT = Path(__file__).resolve().parents[2]
needs_build = pytest.mark.skipif(compiled.why_pure() is not None,
                                 reason=f"the compiled rules do not run here: {compiled.why_pure()}")

#: a move of the expansion runs through these: each is compiled with the rules
EXPANSION = ("homeports", "resistance", "uprising", "liberation", "scenarios", "extensions", "removal", "coop",
             "jacques", "automa", "vpwhen", "reveal", "card_requirements", "card_permanents", "card_actions",
             "card_combat", "citytiles", "promos", "legacyboard", "legacytiles", "ruin", "search")

#: every state, option, event and view of seeded bot games of each mode, hashed (one line a mode)
_SCRIPT = """
import hashlib, json, random
from engine.games.maracaibo import RULES
from engine.testing import player_names
for mode, n in (("basic", 3), ("78", 2), ("78", 4), ("79", 3)):
    h = hashlib.sha256()
    seed = f"compiled-uprising-{mode}-{n}"
    rnd = random.Random(seed)
    st = RULES.setup(player_names(n), {"mode": mode}, seed)
    while pend := RULES.pending(st):
        seat = pend[0]
        opts = RULES.options(st, seat)
        h.update(json.dumps([o.as_dict() for o in opts]).encode())
        ev = RULES.apply(st, seat, RULES.bot_choice(st, seat, opts, rnd).move)
        h.update(json.dumps([e.as_dict() for e in ev]).encode() + json.dumps(st).encode())
        h.update(json.dumps(RULES.view(st, seat)).encode())
    print(mode, n, st["turns"], h.hexdigest())
"""


def test_it_compiles_every_module_of_the_expansion_that_a_move_runs_through() -> None:
    for name in EXPANSION:
        assert f"engine.games.maracaibo.{name}" in compiled.MODULES
    assert all(compiled.source_path(m).exists() for m in compiled.MODULES)


@needs_build
def test_it_plays_the_same_uprising_games_compiled_and_as_plain_python() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PBEM_ENGINE_PURE"}
    check = [sys.executable, "-c", "import engine.compiled as c, engine.registry as r; r.get('maracaibo'); "
             "import engine.games.maracaibo.liberation as m; print(c.REASON, m.__spec__.origin)"]
    loaded = subprocess.run(check, cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout
    assert loaded.startswith("None ") and loaded.strip().endswith(compiled._SUFFIX), loaded
    run = [sys.executable, "-c", _SCRIPT]
    native = subprocess.run(run, cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout
    pure = subprocess.run(run, cwd=ROOT, env={**env, "PBEM_ENGINE_PURE": "1"}, capture_output=True, text=True,
                          check=True).stdout
    assert native.count("\n") == 4
    assert native == pure
