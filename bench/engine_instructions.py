#!/usr/bin/env python
"""The engine bench's move against a JSON round trip, in instructions (callgrind): repeatable on a busy machine.

    python bench/engine_instructions.py [--game maretta] [--option side=A] [--players 5] [--positions 200]

Takes the positions ``bench/engine.py`` times (same seed, same sampling), then counts, under
``valgrind --tool=callgrind``, the instructions of its move loop (the mover's options, apply one,
the view of every seat) and of one ``json.dumps`` + ``json.loads`` of each state. Both are counted
in the same process, between calls to ``os.getpgrp`` (callgrind's ``--dump-before`` splits the
counts there). Instruction counts do not depend on the load; the interpreter runs at a lower IPC
than the JSON C code, so time ratios come out higher than this one. Needs valgrind; run by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, installed or not

from bench.engine import Config, sample_positions
from engine import registry


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        out[key] = int(value) if value.lstrip("-").isdigit() else value
    return out


def _child(args: argparse.Namespace) -> None:
    """Under callgrind: the two loops, each between two os.getpgrp calls."""
    rules = registry.get(args.game)
    options = _options(args.option)
    label = ",".join(args.option) or "-"
    positions = sample_positions(rules, Config(label, args.players, options), args.positions, args.seed)
    copies = [(json.loads(json.dumps(s)), seat, u) for s, seat, u in positions]
    os.getpgrp()
    for state, seat, u in copies:
        opts = rules.options(state, seat)
        rules.apply(state, seat, opts[int(u * len(opts))].move)
        for viewer in range(args.players):
            rules.view(state, viewer)
    os.getpgrp()
    for state, _, _ in positions:
        json.loads(json.dumps(state))
    os.getpgrp()
    print(len(positions))


def _total(path: Path) -> int:
    for line in path.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise RuntimeError(f"no totals in {path}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--game", "-g", default="maretta")
    parser.add_argument("--option", "-o", action="append", default=[], help="a game option, key=value (repeatable)")
    parser.add_argument("--players", "-n", type=int, default=4)
    parser.add_argument("--positions", "-p", type=int, default=200)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--dump-before=os_getpgrp", f"--callgrind-out-file={out}",
             sys.executable, __file__, "--child", *(sys.argv[1:] if argv is None else argv)],
            capture_output=True, text=True, check=True)
        count = int(run.stdout.split()[-1])
        move, dump = _total(Path(f"{out}.2")), _total(Path(f"{out}.3"))
    label = " ".join(args.option) or "default options"
    print(f"{args.game} {label}, {args.players} players, {count} positions: move {move / count / 1000:.0f} kIr, "
          f"json {dump / count / 1000:.0f} kIr, ratio {move / dump:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
