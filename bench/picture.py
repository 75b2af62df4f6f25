"""CPU of a mail's board picture, per game, against raw baselines measured in the same run.

    python bench/picture.py [--game maretta ...] [--players 3] [--repeat 25]

For each game, the mail picture of every seat of a new game (``Rules.render_mail_svg`` of the
seat's view) is rendered as ``pbem.mail.sending`` renders it, without its caches:

* raw baselines: resvg alone drawing the whole SVG (its RGBA PNG, nothing of pbem), and Pillow
  writing a blank palette PNG of the picture's size;
* the resvg pass (resvg drawing the SVG without the labels Pillow draws, Pillow's labels, the
  palette pass: what every picture cost before issue 28's painter, and what Caravelas' and
  Maracaibo's still cost);
* the picture as sent (``_render_png``): for a drawing made of ``engine.figure``'s primitives
  alone (Maretta) Pillow's painter (``pbem.mail.painter``), else the resvg pass; and the same
  with the painter's kept labels and shapes forgotten before each render (a fresh worker).

Times are this process's CPU (``process_time``), the median of ``--repeat`` renders; bytes are
the PNG a mail would carry. Also printed: how many of the seats' pictures differ (each is
rendered once through the shared cache). Then the same over the positions of a game played at
random (seeded; every ``--every`` moves, the pending seat's picture), CPU summed. Then, as a
worker meets them, every position of that game once, in order (the pending seat's picture; what
the painter keeps comes from the positions before, never from the same one: issue 28's element
and label caches), against raw resvg of the same positions, CPU summed. Run by hand.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def cpu_ms(work: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeat):
        started = time.process_time()
        result = work()
        times.append(time.process_time() - started)
    return statistics.median(times) * 1e3, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="a game (repeatable; default every game)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=25)
    parser.add_argument("--moves", type=int, default=80, help="moves of the game played for the positions")
    parser.add_argument("--every", type=int, default=8)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pbem.settings")
    import django

    django.setup()
    import resvg_py
    from PIL import Image

    from engine import registry
    from engine.svg import drawn_width
    from pbem.mail import painter, sending

    print(f"load average {os.getloadavg()[0]:.1f}; CPU ms per render, median of {args.repeat}")
    for name in args.game or registry.names():
        rules = registry.get(name)
        players = max(rules.min_players, min(args.players, rules.max_players))
        state = rules.setup([f"P{i}" for i in range(players)], None, "picture-bench")
        svgs = [rules.render_mail_svg(rules.view(state, seat)) for seat in range(players)]
        svg = svgs[0]

        def resvg_only(svg: str = svg) -> bytes:
            return bytes(resvg_py.svg_to_bytes(
                svg_string=svg, background="#ffffff", sans_serif_family=sending.PNG_FONT,
                font_family=sending.PNG_FONT, width=sending._png_width(svg), shape_rendering="optimize_speed",
                text_rendering="optimize_speed"))

        def blank(svg: str = svg) -> bytes:
            width = sending._png_width(svg) or 1
            size = (width, round(int(svg.split('height="', 1)[1].split('"', 1)[0]) * width / drawn_width(svg)))
            out = io.BytesIO()
            Image.new("P", size, 0).save(out, "PNG", compress_level=6)
            return out.getvalue()

        def resvg_pass(svg: str = svg) -> bytes:
            return sending._palette(sending.resvg_truecolour(svg), svg)

        def as_sent(svg: str = svg) -> bytes:
            return sending._render_png.__wrapped__(svg)

        def cold(svg: str = svg) -> bytes:
            painter.forget()  # the painter's kept labels and shapes, as in a fresh worker
            return sending._render_png.__wrapped__(svg)

        painted = painter.painted(svg, sending._png_width(svg)) is not None
        raw, _ = cpu_ms(resvg_only, args.repeat)
        empty, _ = cpu_ms(blank, args.repeat)
        old, old_png = cpu_ms(resvg_pass, args.repeat)
        new, png = cpu_ms(as_sent, args.repeat)
        fresh, _ = cpu_ms(cold, args.repeat)
        print(f"{name:<10} {players} players: raw resvg {raw:.1f} ms, raw blank PNG {empty:.2f} ms; resvg pass "
              f"{old:.1f} ms ({old / raw:.3f} of raw resvg, {len(old_png)} bytes); as sent "
              f"({'Pillow painter' if painted else 'resvg pass'}) {new:.1f} ms ({new / raw:.3f} of raw resvg, "
              f"{new / empty:.1f}x the blank PNG, {len(png)} bytes; {fresh:.1f} ms with nothing kept from the "
              f"render before, "
              f"{fresh / raw:.3f} of raw); as sent / resvg pass {new / old:.3f} ({fresh / old:.3f} with nothing kept); "
              f"{len(set(svgs))} distinct pictures for {players} seats")
        start = json.loads(json.dumps(state))
        raw_ms, old_ms, new_ms, n = played_positions(rules, state, args, resvg_only, resvg_pass, as_sent)
        print(f"{name:<10} {n} positions played: raw resvg {raw_ms:.0f} ms in all, resvg pass {old_ms:.0f} ms "
              f"({old_ms / raw_ms:.3f} of raw), as sent {new_ms:.0f} ms ({new_ms / raw_ms:.3f} of raw); "
              f"as sent / resvg pass {new_ms / old_ms:.3f}")
        # what the painter kept from the renders above goes: a worker has painted another game
        # of this kind (warm), never this game's positions
        painter.forget()
        warm = rules.setup([f"P{i}" for i in range(players)], None, "picture-bench-warm")
        as_sent(rules.render_mail_svg(rules.view(warm, rules.pending(warm)[0])))
        raw_ms, new_ms, n = in_order(rules, start, args, resvg_only, as_sent)
        print(f"{name:<10} {n} positions in order, each once: raw resvg {raw_ms:.0f} ms in all, as sent "
              f"{new_ms:.0f} ms ({new_ms / raw_ms:.3f} of raw; {new_ms / n:.2f} ms a picture)")
    return 0


def in_order(rules: Any, state: Any, args: argparse.Namespace, raw: Callable[[str], bytes],
             render: Callable[[str], bytes]) -> tuple[float, float, int]:
    """(ms of raw, of render, summed; positions) over every distinct position of a random game
    (the same seed as :func:`played_positions`), each rendered once, in the game's order."""
    import random

    rng = random.Random(28)
    seen: set[str] = set()
    sums = [0.0, 0.0]
    for _ in range(args.moves):
        pending = rules.pending(state)
        if not pending:
            break
        svg = rules.render_mail_svg(rules.view(state, pending[0]))
        if svg not in seen:
            seen.add(svg)
            sums[0] += cpu_ms(functools.partial(raw, svg), 1)[0]
            sums[1] += cpu_ms(functools.partial(render, svg), 1)[0]
        rules.apply(state, pending[0], rng.choice(rules.options(state, pending[0])).move)
    return sums[0], sums[1], len(seen)


def played_positions(rules: Any, state: Any, args: argparse.Namespace,
                     *renders: Callable[[str], bytes]) -> tuple[float, float, float, int]:
    """(ms of each render summed, positions) over a random game; each position's renders
    measured one after the other (the same minute's load)."""
    import random

    rng = random.Random(28)
    sums = [0.0] * len(renders)
    n = 0
    for k in range(args.moves):
        pending = rules.pending(state)
        if not pending:
            break
        seat = pending[0]
        if k % args.every == 0:
            svg = rules.render_mail_svg(rules.view(state, seat))
            repeat = max(3, args.repeat // 5)
            for i, render in enumerate(renders):
                sums[i] += cpu_ms(functools.partial(render, svg), repeat)[0]
            n += 1
        rules.apply(state, seat, rng.choice(rules.options(state, seat)).move)
    return sums[0], sums[1], sums[2], n


if __name__ == "__main__":
    sys.exit(main())
