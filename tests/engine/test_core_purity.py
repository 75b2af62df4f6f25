"""The engine imports nothing from Django, DRF, Celery, pbem or workers.

Two independent guards: import-linter's static contract (every import statement,
even in a module that fails to import) and a dynamic one (import every engine
module in a fresh interpreter, then look at ``sys.modules``). Each has a
control case proving it would fail when the rule is broken.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("django", "rest_framework", "drf_spectacular", "celery", "kombu", "redis", "psycopg", "aiosmtpd",
             "pbem", "workers")

# Imports every module of a package in a fresh interpreter, reports what got loaded.
PROBE = textwrap.dedent(
    """
    import importlib, json, pkgutil, sys
    package, extra, forbidden = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    failed = {}
    root = importlib.import_module(package)
    walked = pkgutil.walk_packages(root.__path__, package + ".", onerror=lambda name: None)
    names = [package] + [m.name for m in walked if not m.name.endswith("__main__")]
    for name in names + [n for n in extra.split(",") if n]:
        try:
            importlib.import_module(name)
        except Exception as exc:
            failed[name] = f"{type(exc).__name__}: {exc}"
    loaded = sorted({m.split(".")[0] for m in sys.modules} & set(forbidden))
    print(json.dumps({"checked": names, "failed": failed, "forbidden": loaded}))
    """
)


def probe(package: str, extra: str = "") -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, package, extra, ",".join(FORBIDDEN)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},  # no DJANGO_SETTINGS_MODULE etc.
    )
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_importing_the_whole_engine_loads_no_framework() -> None:
    result = probe("engine")
    assert "engine.core" in result["checked"]  # type: ignore[operator]
    assert result["forbidden"] == [], f"engine imported {result['forbidden']}"
    broken = {k: v for k, v in result["failed"].items() if not k.startswith("engine.games.")}  # type: ignore[attr-defined]
    assert broken == {}, f"engine core modules fail to import: {broken}"


def test_dynamic_probe_detects_a_forbidden_import() -> None:
    # Control: the same probe, with one extra module that pulls in Django, must notice.
    result = probe("engine", extra="django.conf")
    assert "django" in result["forbidden"]  # type: ignore[operator]


def lint_imports(config: Path, cwd: Path, pythonpath: Path) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("lint-imports")
    if not exe.exists():
        pytest.skip("import-linter (lint-imports) is not installed in this environment")
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    return subprocess.run([str(exe), "--no-cache", "--config", str(config)], cwd=cwd, capture_output=True,
                          text=True, timeout=300, env=env)


def test_static_contract_engine_is_pure(tmp_path: Path) -> None:
    """pyproject.toml's "engine-is-pure" contract, run on the engine alone.

    Alone, so that it holds whatever state pbem/ and workers/ are in; ``make contracts``
    runs every contract on the whole project.
    """
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = project["tool"]["importlinter"]["contracts"]
    contract = next(c for c in contracts if c.get("id") == "engine-is-pure")
    assert set(FORBIDDEN) <= set(contract["forbidden_modules"]), "the contract must forbid at least these"
    config = tmp_path / "engine-contract.toml"
    lines = ["[tool.importlinter]", 'root_packages = ["engine"]', "include_external_packages = true", "",
             "[[tool.importlinter.contracts]]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in contract.items()]
    config.write_text("\n".join(lines) + "\n")
    result = lint_imports(config, ROOT, ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "engine is pure" in result.stdout
    assert "KEPT" in result.stdout


def test_static_contract_catches_a_violation(tmp_path: Path) -> None:
    # Control: a throwaway package shaped like ours, where "engine" imports django.
    pkg = tmp_path / "probe_engine"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "rules.py").write_text("from django.conf import settings\n")
    config = tmp_path / "contracts.toml"
    config.write_text(textwrap.dedent(
        """
        [tool.importlinter]
        root_packages = ["probe_engine"]
        include_external_packages = true

        [[tool.importlinter.contracts]]
        name = "probe engine is pure"
        type = "forbidden"
        source_modules = ["probe_engine"]
        forbidden_modules = ["django"]
        """
    ))
    result = lint_imports(config, tmp_path, tmp_path)
    assert result.returncode != 0
    assert "probe_engine is not allowed to import django" in result.stdout
    assert "probe_engine.rules -> django" in result.stdout
