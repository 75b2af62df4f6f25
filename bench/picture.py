"""CPU of a mail's board picture: resvg's render, then the labels and the palette pass, per game.

    python bench/picture.py [--game maretta ...] [--players 3] [--repeat 25]

For each game, the mail picture of every seat of a new game (``Rules.render_mail_svg`` of the
seat's view) is rendered as ``pbem.mail.sending`` renders it, without its caches: resvg alone
drawing the whole SVG (labels too, as before issue 28's ``pbem.mail.labels``), resvg drawing it
without the labels Pillow draws, then the whole (resvg, Pillow's labels and the palette pass).
Times are this process's CPU (``process_time``), the median of ``--repeat`` renders; bytes are
the PNG a mail would carry. Also printed: how many of the seats' pictures differ (each is
rendered once through the shared cache). Run by hand.

Then, over the positions of a game played at random (seeded; every ``--every`` moves, the
pending seat's picture), a mail's picture with all the room a mail gives it: now (compressed
hard only when it is over ``PNG_MAX_BYTES``) against the pass before issue 28's change (hard
whenever it was over 90 % of it), CPU summed over the positions, and their ratio. The hard pass
is :func:`pbem.mail.sending._harder` in both (it decodes the palette PNG first, about 1 ms the
old pass did not spend: the "before" figure is that much high for each picture it compressed).
"""

from __future__ import annotations

import argparse
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

    from engine import registry
    from pbem.mail import labels, sending

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

        lifted = labels.lift(svg, sending._png_width(svg))
        bare = lifted.svg if lifted else svg

        def whole_pass(svg: str = svg) -> bytes:
            return sending._render_png.__wrapped__(svg)

        def unlabelled_only(bare: str = bare) -> bytes:
            return resvg_only(bare)

        render, _ = cpu_ms(resvg_only, args.repeat)
        unlabelled, _ = cpu_ms(unlabelled_only, args.repeat)
        whole, png = cpu_ms(whole_pass, args.repeat)
        print(f"{name:<10} {players} players: resvg of the whole SVG {render:.1f} ms; now resvg {unlabelled:.1f} ms "
              f"({len(lifted.labels) if lifted else 0} of {svg.count('<text')} labels drawn by Pillow), "
              f"the whole pass {whole:.1f} ms, "
              f"{len(png)} bytes; {len(set(svgs))} distinct pictures for {players} seats")
        now_ms, before_ms, hard_now, hard_before, n = played_positions(rules, state, args, sending)
        print(f"{name:<10} {n} positions played: a mail's picture now {now_ms:.0f} ms in all ({hard_now} compressed "
              f"hard), before {before_ms:.0f} ms ({hard_before} compressed hard); ratio now/before "
              f"{now_ms / before_ms if before_ms else 0:.3f}")
    return 0


def played_positions(rules: Any, state: Any, args: argparse.Namespace,
                     sending: Any) -> tuple[float, float, int, int, int]:
    """(ms now, ms before, pictures compressed hard now, before, positions) over a random game."""
    import random

    rng = random.Random(28)
    render, harder = sending._render_png.__wrapped__, sending._harder.__wrapped__
    now_ms = before_ms = 0.0
    hard_now = hard_before = n = 0
    for k in range(args.moves):
        pending = rules.pending(state)
        if not pending:
            break
        seat = pending[0]
        if k % args.every == 0:
            svg = rules.render_mail_svg(rules.view(state, seat))
            def now(svg: str = svg) -> bytes:
                png = render(svg)
                return harder(png) if len(png) > sending.PNG_MAX_BYTES else png

            def before(svg: str = svg) -> bytes:
                png = render(svg)
                return harder(png) if len(png) > sending.PNG_MAX_BYTES * 9 // 10 else png

            png = render(svg)
            hard_now += len(png) > sending.PNG_MAX_BYTES
            hard_before += len(png) > sending.PNG_MAX_BYTES * 9 // 10
            repeat = max(3, args.repeat // 5)
            now_ms += cpu_ms(now, repeat)[0]
            before_ms += cpu_ms(before, repeat)[0]
            n += 1
        rules.apply(state, seat, rng.choice(rules.options(state, seat)).move)
    return now_ms, before_ms, hard_now, hard_before, n


if __name__ == "__main__":
    sys.exit(main())
