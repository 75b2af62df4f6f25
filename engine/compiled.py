"""The engine's hot modules compiled to C with mypyc, and the guard that never runs a stale build.

    python -m engine compile build     compile (needs the dev extras: mypy, and a C compiler)
    python -m engine compile status    what the engine runs: compiled or pure Python, and why
    python -m engine compile clean     remove the compiled modules

The rules stay plain, typed Python and run as such everywhere; ``make install`` also compiles the
modules of :data:`MODULES` (as black and mypy ship themselves), which makes a move about a third
cheaper (docs/scaling.md). The compiled modules behave identically: ``tests/engine/
test_compiled.py`` replays seeded games both ways and compares every state, option, event and view.

Why a guard: CPython prefers an extension module (``rules.cpython-311-x86_64-linux-gnu.so``) to the
``rules.py`` beside it, so after an edit the old build would run and the edit would be silently
ignored. ``build`` records a hash of every compiled source in ``engine/compiled.json``; at import
(:func:`guard`, called first by ``engine/__init__.py``) a source that no longer matches, a missing
record or ``PBEM_ENGINE_PURE=1`` makes every module of the group load from its ``.py`` instead. All
or none: compiled modules call each other directly in C, so a compiled module beside a changed
source would still run the old code of that source.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType

#: The modules compiled, all in one group (one shared library, engine/native__mypyc...so): the
#: rules of every game and what a move runs through: engine.core (the Rules wrappers, Option and
#: Event, built and read in C), the random generator and the decision stack, which take a move
#: 6-15% fewer instructions than the games' rules compiled alone (bench/engine_instructions.py;
#: the stack: a tenth of Maracaibo's move, the generator: 1%). Not the renderers, bots or
#: notation (mail parsing): a move does not call them, and each module adds to the build's minute.
#: The Uprising's modules are in (tests/engine/test_uprising_compiled.py), those a move runs through
#: added since too (issue 20: automa, vpwhen, reveal, the card modules, citytiles, promos, the new legacy
#: tiles, ruin and The Search), not yet its data module uprising_content (its tests read its docstring,
#: which a compiled module does not keep) nor the campaign's (campaign.py: its tests subclass its classes,
#: which compiled classes refuse). Not compiled either: upgrade.py and archive_upgrade.py (read once when a
#: state or an archive is loaded), catalogue.py and reach.py (the API's catalogue, a mail's map).
MODULES: tuple[str, ...] = (
    "engine.core",
    "engine.rng",
    "engine.stack",
    "engine.games.maretta.cards",
    "engine.games.maretta.tables",
    "engine.games.maretta.views",
    "engine.games.maretta.explain",
    "engine.games.maretta.board",
    "engine.games.maretta.barrels",
    "engine.games.maretta.turn",
    "engine.games.maretta.side_a",
    "engine.games.maretta.side_b",
    "engine.games.maretta.decisions",
    "engine.games.maretta.machine",
    "engine.games.maretta.setup",
    "engine.games.maretta.rules",
    "engine.games.caravelas.board",
    "engine.games.caravelas.rules",
    "engine.games.maracaibo.content",
    "engine.games.maracaibo.effects",
    "engine.games.maracaibo.board",
    "engine.games.maracaibo.jean",
    "engine.games.maracaibo.setup",
    "engine.games.maracaibo.careers",
    "engine.games.maracaibo.sailing",
    "engine.games.maracaibo.cards",
    "engine.games.maracaibo.quests",
    "engine.games.maracaibo.exploring",
    "engine.games.maracaibo.ship",
    "engine.games.maracaibo.actions",
    "engine.games.maracaibo.combat",
    "engine.games.maracaibo.scoring",
    "engine.games.maracaibo.views",
    "engine.games.maracaibo.homeports",
    "engine.games.maracaibo.resistance",
    "engine.games.maracaibo.uprising",
    "engine.games.maracaibo.liberation",
    "engine.games.maracaibo.scenarios",
    "engine.games.maracaibo.extensions",
    "engine.games.maracaibo.removal",
    "engine.games.maracaibo.coop",
    "engine.games.maracaibo.jacques",
    "engine.games.maracaibo.automa",
    "engine.games.maracaibo.vpwhen",
    "engine.games.maracaibo.reveal",
    "engine.games.maracaibo.card_requirements",
    "engine.games.maracaibo.card_permanents",
    "engine.games.maracaibo.card_actions",
    "engine.games.maracaibo.card_combat",
    "engine.games.maracaibo.citytiles",
    "engine.games.maracaibo.promos",
    "engine.games.maracaibo.legacyboard",
    "engine.games.maracaibo.legacytiles",
    "engine.games.maracaibo.ruin",
    "engine.games.maracaibo.search",
    "engine.games.maracaibo.rules",
)
GROUP = "engine.native"  # the shared library holds the compiled code; each module's .so is a shim
PURE_ENV = "PBEM_ENGINE_PURE"

_ROOT = Path(__file__).resolve().parent.parent  # the folder that holds the engine package
_MANIFEST = Path(__file__).with_name("compiled.json")
_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # ".cpython-311-x86_64-linux-gnu.so"


def source_path(module: str, root: Path = _ROOT) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def extension_path(module: str, root: Path = _ROOT) -> Path:
    return root.joinpath(*module.split(".")).with_name(module.rpartition(".")[2] + _SUFFIX)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def why_pure(root: Path = _ROOT, modules: Sequence[str] = MODULES,
             environ: Mapping[str, str] = os.environ) -> str | None:
    """None when the compiled modules may run, else why the engine runs as plain Python."""
    if environ.get(PURE_ENV, "") not in ("", "0"):
        return f"{PURE_ENV} is set"
    built = [m for m in modules if extension_path(m, root).exists()]
    if not built:
        return "not compiled (make compile)"
    manifest = root / "engine" / "compiled.json"
    try:
        record = json.loads(manifest.read_text())
        sources: dict[str, str] = record["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return f"{manifest.name} is missing or unreadable: the build is not known to match the sources"
    if record.get("python") != sys.implementation.cache_tag:
        return f"compiled for {record.get('python')}, not {sys.implementation.cache_tag}"
    for m in modules:
        if sources.get(m) != _digest(source_path(m, root)):
            return f"{source_path(m, root).relative_to(root)} changed since it was compiled (make compile)"
    if len(built) != len(modules):
        missing = sorted(set(modules) - set(built))
        return f"the build is incomplete (no {extension_path(missing[0], root).name} for {missing[0]})"
    return None


class _FromSource(importlib.abc.MetaPathFinder):
    """Finds the compiled group's modules as their .py files, ahead of the extension modules."""

    def __init__(self, modules: Sequence[str], root: Path) -> None:
        self.modules = frozenset(modules)
        self.root = root

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname, self.root))


#: why the engine runs pure Python in this process (None: compiled), set by guard()
REASON: str | None = "not checked yet"


def guard() -> None:
    """Before any game module is imported: run the compiled group only if it matches the sources."""
    global REASON
    REASON = why_pure()
    if REASON is not None and not any(isinstance(f, _FromSource) for f in sys.meta_path):
        sys.meta_path.insert(0, _FromSource(MODULES, _ROOT))


def status() -> str:
    """What this process runs, in one line (the bench prints it beside its figures)."""
    loaded = [m for m in MODULES if m in sys.modules]
    native = [m for m in loaded if str(getattr(sys.modules[m], "__file__", "")).endswith(_SUFFIX)]
    if REASON is None and len(native) == len(loaded):
        return f"compiled with mypyc ({len(MODULES)} modules)"
    if native:
        return f"mixed: {len(native)} of {len(loaded)} loaded modules compiled ({REASON})"
    return f"pure Python ({REASON})"


# ---- building ----------------------------------------------------------------------------------

class BuildError(RuntimeError):
    """The compiler refused (its output is in the message); the engine stays as it was."""


def build(root: Path = _ROOT, quiet: bool = False) -> None:
    """Compile :data:`MODULES` into the source tree, then record the sources' hashes.

    Each new file replaces the old one by a rename, so a process that has the old build loaded
    keeps running it (writing into a loaded shared library would crash it).
    """
    manifest = root / "engine" / "compiled.json"
    sources = {m: _digest(source_path(m, root)) for m in MODULES}
    with tempfile.TemporaryDirectory(prefix="pbem-mypyc-") as tmp:
        log = Path(tmp) / "build.log"
        try:
            # (mypycify reads its paths relative to the current folder)
            with contextlib.chdir(root), _output_to(log if quiet else None):
                built = _compile(root, Path(tmp))
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - mypyc exits on a type error, after printing it
            shown = log.read_text(errors="replace")[-4000:] if log.exists() else ""
            raise BuildError(f"mypyc could not compile the engine ({exc!r}):\n{shown}") from None
        manifest.unlink(missing_ok=True)  # from here until the end, the build is not known to match
        for path in built:
            target = root / path.relative_to(Path(tmp) / "lib")
            fresh = target.with_name(f".{target.name}.new")
            shutil.copyfile(path, fresh)
            os.replace(fresh, target)
    record = {"python": sys.implementation.cache_tag, "group": GROUP, "sources": sources}
    fresh_manifest = manifest.with_name(".compiled.json.new")
    fresh_manifest.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    os.replace(fresh_manifest, manifest)


def _compile(root: Path, tmp: Path) -> list[Path]:
    """The extension modules, built under ``tmp/lib`` (mirroring the source tree)."""
    from mypyc.build import mypycify  # the dev extras: only building needs mypy
    from setuptools import Distribution  # type: ignore[import-untyped]

    # An empty config file: the project's [tool.mypy] loads the Django plugin, which the rules
    # neither need nor may import; mypy's defaults are what mypyc compiles against.
    config = tmp / "mypy.ini"
    config.write_text("[mypy]\n")
    paths = [str(source_path(m, root).relative_to(root)) for m in MODULES]
    extensions = mypycify(["--config-file", str(config), *paths], opt_level="3",
                          group_name=GROUP, target_dir=str(tmp / "c"))
    dist = Distribution({"name": "pbem-engine-native", "ext_modules": extensions})
    cmd = dist.get_command_obj("build_ext")
    cmd.build_lib = str(tmp / "lib")
    cmd.build_temp = str(tmp / "obj")
    cmd.inplace = False
    dist.run_command("build_ext")
    return sorted((tmp / "lib").rglob(f"*{_SUFFIX}"))


def clean(root: Path = _ROOT) -> list[Path]:
    """Remove every compiled module and the record; the engine runs as plain Python after."""
    removed = []
    group_lib = root.joinpath(*GROUP.split(".")).with_name(GROUP.rpartition(".")[2] + "__mypyc" + _SUFFIX)
    for path in [*(extension_path(m, root) for m in MODULES), group_lib, root / "engine" / "compiled.json"]:
        if path.exists():
            path.unlink()
            removed.append(path)
    return removed


class _output_to:
    """Send what is written to stdout and stderr to a file (fd level: gcc writes there itself)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.saved: list[int] = []

    def __enter__(self) -> None:
        if self.path is not None:
            sys.stdout.flush()
            sys.stderr.flush()
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            self.saved = [os.dup(1), os.dup(2)]
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.close(fd)

    def __exit__(self, *exc: object) -> None:
        if self.saved:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(self.saved[0], 1)
            os.dup2(self.saved[1], 2)
            for fd in self.saved:
                os.close(fd)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    verb = args[0] if args else "status"
    if verb == "build":
        if not sysconfig.get_config_var("CC"):
            print("no C compiler is configured for this Python: the engine stays pure Python")
            return 1
        try:
            build(quiet="-v" not in args)
        except BuildError as exc:
            print(exc, file=sys.stderr)
            print("the engine stays as it was (pure Python if it was not compiled)", file=sys.stderr)
            return 1
        print(f"compiled {len(MODULES)} engine modules with mypyc: {why_pure() or 'in use'}")
        return 0
    if verb == "clean":
        for path in clean():
            print(f"removed {path.relative_to(_ROOT)}")
        return 0
    if verb == "status":
        reason = why_pure()
        print("compiled with mypyc: in use" if reason is None else f"pure Python: {reason}")
        return 0
    print(__doc__.split("\n\n")[0] if __doc__ else "", file=sys.stderr)
    return 2
