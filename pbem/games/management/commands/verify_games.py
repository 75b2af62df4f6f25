"""``manage.py verify_games [ID ...]``: replay stored games with the running engine before trusting it.

Run it after an engine upgrade (a new release, the rules compiled with mypyc: ``python -m engine
compile status``) and before opening the service again: every started game's live move log is
replayed from its seed and compared with its stored state, and the stored state is read as the
service reads it (every seat's view and options). Read-only. Exits non-zero when a game fails.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine import compiled
from pbem.games import selectors


class Command(BaseCommand):
    help = "Replay stored games with the running engine and read their states; report what fails."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, metavar="ID", help="only these games (default: all)")

    def handle(self, *args: Any, **opts: Any) -> None:
        self.stdout.write(f"engine: {compiled.status()}")
        checked = failed = moves = 0
        for check in selectors.check_stored_games(opts["game_ids"]):
            checked += 1
            moves += check.moves
            if check.problems:
                failed += 1
                for problem in check.problems:
                    self.stdout.write(f"game #{check.game_id} ({check.rules}, {check.moves} moves): {problem}")
        self.stdout.write(f"{checked} game{'s' if checked != 1 else ''} replayed ({moves} moves): "
                          f"{'all match' if not failed else f'{failed} failed'}")
        if failed:
            raise CommandError(f"{failed} of {checked} games do not replay or do not read with this engine")
