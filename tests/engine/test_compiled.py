"""The rules compiled with mypyc (engine/compiled.py): the same games as plain Python, never a stale build."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import compiled

ROOT = Path(__file__).resolve().parents[2]
needs_build = pytest.mark.skipif(compiled.why_pure() is not None,
                                 reason=f"the compiled rules do not run here: {compiled.why_pure()}")


def _fake_tree(root: Path, modules: tuple[str, ...], built: bool = True) -> None:
    """A source tree with the given modules, their 'extension modules' and a matching record."""
    sources = {}
    for m in modules:
        src = compiled.source_path(m, root)
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(f"NAME = {m!r}\n")
        sources[m] = compiled._digest(src)
        if built:
            compiled.extension_path(m, root).write_bytes(b"")
    record = {"python": sys.implementation.cache_tag, "group": compiled.GROUP, "sources": sources}
    (root / "engine").mkdir(exist_ok=True)
    (root / "engine" / "compiled.json").write_text(json.dumps(record))


MODS = ("engine.games.a.rules", "engine.games.b.rules")


def test_it_uses_a_build_whose_record_matches_every_source(tmp_path: Path) -> None:
    _fake_tree(tmp_path, MODS)
    assert compiled.why_pure(tmp_path, MODS, {}) is None


def test_it_runs_pure_python_when_a_source_changed_after_the_build(tmp_path: Path) -> None:
    _fake_tree(tmp_path, MODS)
    with compiled.source_path(MODS[1], tmp_path).open("a") as f:
        f.write("# an edit\n")
    reason = compiled.why_pure(tmp_path, MODS, {})
    assert reason is not None and "engine/games/b/rules.py changed since it was compiled" in reason


def test_it_runs_pure_python_without_a_record_of_the_build(tmp_path: Path) -> None:
    _fake_tree(tmp_path, MODS)
    (tmp_path / "engine" / "compiled.json").unlink()
    reason = compiled.why_pure(tmp_path, MODS, {})
    assert reason is not None and "missing" in reason


def test_it_runs_pure_python_when_asked_or_not_built(tmp_path: Path) -> None:
    _fake_tree(tmp_path, MODS)
    assert compiled.why_pure(tmp_path, MODS, {"PBEM_ENGINE_PURE": "1"}) == "PBEM_ENGINE_PURE is set"
    assert compiled.why_pure(tmp_path, MODS, {"PBEM_ENGINE_PURE": "0"}) is None
    _fake_tree(tmp_path / "other", MODS, built=False)
    assert compiled.why_pure(tmp_path / "other", MODS, {}) == "not compiled (make compile)"


def test_it_runs_pure_python_when_the_build_is_incomplete_or_for_another_python(tmp_path: Path) -> None:
    _fake_tree(tmp_path, MODS)
    compiled.extension_path(MODS[0], tmp_path).unlink()
    reason = compiled.why_pure(tmp_path, MODS, {})
    assert reason is not None and "incomplete" in reason
    _fake_tree(tmp_path, MODS)
    record = json.loads((tmp_path / "engine" / "compiled.json").read_text())
    record["python"] = "cpython-39"
    (tmp_path / "engine" / "compiled.json").write_text(json.dumps(record))
    reason = compiled.why_pure(tmp_path, MODS, {})
    assert reason is not None and "cpython-39" in reason


def test_it_runs_the_compiled_rules_in_ci() -> None:
    # Compiling is opt-in (make compile); CI compiles and runs the engine's tests on the build
    # with PBEM_EXPECT_COMPILED=1 (.ci/run), so a build that fails or does not load is a failure.
    if os.environ.get("PBEM_EXPECT_COMPILED", "") in ("", "0"):
        pytest.skip("only where the compiled rules are expected (PBEM_EXPECT_COMPILED=1, CI's compiled step)")
    import engine.registry as registry

    for name in registry.names():
        registry.get(name)
    assert compiled.REASON is None, compiled.REASON
    assert compiled.status() == f"compiled with mypyc ({len(compiled.MODULES)} modules)"


def _loaded_files(root: Path, env: dict[str, str]) -> dict[str, str]:
    code = ("import json, sys, engine.registry as r, engine.compiled as c\n"
            "for g in r.names(): r.get(g)\n"
            "print(json.dumps({m: sys.modules[m].__spec__.origin for m in c.MODULES}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True,
                         check=True)
    loaded: dict[str, str] = json.loads(out.stdout)
    return loaded


@needs_build
def test_it_loads_every_changed_group_from_source_never_a_stale_build(tmp_path: Path) -> None:
    copy = tmp_path / "tree"
    shutil.copytree(ROOT / "engine", copy / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(copy)}
    env.pop("PBEM_ENGINE_PURE", None)
    before = _loaded_files(copy, env)
    assert all(origin.endswith(compiled._SUFFIX) for origin in before.values()), before
    # An edit to one compiled module: every module of the group runs from its source (they call
    # each other in C), and the edit is what runs.
    rules = compiled.source_path("engine.games.caravelas.rules", copy)
    rules.write_text(rules.read_text() + "\nEDITED = True\n")
    after = _loaded_files(copy, env)
    assert after == {m: str(compiled.source_path(m, copy)) for m in compiled.MODULES}
    check = subprocess.run([sys.executable, "-c", "import engine.games.caravelas.rules as r; print(r.EDITED)"],
                           cwd=copy, env=env, capture_output=True, text=True, check=True)
    assert check.stdout.strip() == "True"


@needs_build
def test_it_plays_the_same_games_compiled_and_as_plain_python() -> None:
    # Every state, option, event, view, text and outcome of seeded games of every game and
    # configuration, hashed (bench/engine_hash.py), compiled against PBEM_ENGINE_PURE=1.
    script = [sys.executable, str(ROOT / "bench" / "engine_hash.py"), "1"]
    env = {k: v for k, v in os.environ.items() if k != "PBEM_ENGINE_PURE"}
    native = subprocess.run(script, env=env, capture_output=True, text=True, check=True).stdout
    pure = subprocess.run(script, env={**env, "PBEM_ENGINE_PURE": "1"}, capture_output=True, text=True,
                          check=True).stdout
    assert native.count("\n") > 20
    assert native == pure
