"""CPU of a mail's board picture: resvg's render, then the palette pass, per game.

    python bench/picture.py [--game maretta ...] [--players 3] [--repeat 25]

For each game, the mail picture of every seat of a new game (``Rules.render_mail_svg`` of the
seat's view) is rendered as ``pbem.mail.sending`` renders it, without its caches: resvg alone,
then the whole (resvg and the palette pass). Times are this process's CPU (``process_time``),
the median of ``--repeat`` renders; bytes are the PNG a mail would carry. Also printed: how many
of the seats' pictures differ (each is rendered once through the shared cache). Run by hand.
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
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pbem.settings")
    import django

    django.setup()
    import resvg_py

    from engine import registry
    from pbem.mail import sending

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

        def whole_pass(svg: str = svg) -> bytes:
            return sending._render_png.__wrapped__(svg)

        render, _ = cpu_ms(resvg_only, args.repeat)
        whole, png = cpu_ms(whole_pass, args.repeat)
        print(f"{name:<10} {players} players: resvg {render:.1f} ms, with the palette pass {whole:.1f} ms, "
              f"{len(png)} bytes; {len(set(svgs))} distinct pictures for {players} seats")
    return 0


if __name__ == "__main__":
    sys.exit(main())
