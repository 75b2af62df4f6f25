"""``manage.py player create EMAIL --name NAME``, ``player token EMAIL`` and ``player password EMAIL``.

The first two print the player's REST API token (``Authorization: Token <token>``); the third
sets the password of the web site and of ``POST /api/v1/auth/token/`` (asked twice at the
terminal, or read from standard input when it is not one), for example for a player who came by
mail and so has none.
"""

from __future__ import annotations

import getpass
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from pbem.games import services
from pbem.games.models import Player


class Command(BaseCommand):
    help = "Create players and print their API tokens."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create", help="create a player and print an API token")
        create.add_argument("email")
        create.add_argument("--name", default="", help="display name (default: the address' local part)")
        create.add_argument("--password", default="", help="also set a password (web login, /api/v1/auth/token/)")
        token = sub.add_parser("token", help="print an existing player's API token")
        token.add_argument("email")
        token.add_argument("--rotate", action="store_true", help="replace the token; the old one stops working")
        password = sub.add_parser("password", help="set a player's password (asked, or read from standard input)")
        password.add_argument("email")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["action"] == "password":
            self._password(opts["email"])
            return
        try:
            if opts["action"] == "create":
                player = services.do_create_player(opts["email"], opts["name"])
                if opts["password"]:
                    services.do_set_password(player, opts["password"])
                token = services.do_issue_api_token(player)
            else:
                found = Player.objects.filter(email=services.normalize_email(opts["email"])).first()
                if found is None:
                    raise CommandError(f"there is no player with address {opts['email']}")
                player = found
                token = services.do_issue_api_token(player, rotate=opts["rotate"])
        except services.ServiceError as exc:
            raise CommandError(exc.message) from None
        self.stderr.write(f"player {player.display_name} <{player.email}>; API token:")
        self.stdout.write(token)

    def _password(self, email: str) -> None:
        player = Player.objects.filter(email=services.normalize_email(email)).first()
        if player is None:
            raise CommandError(f"there is no player with address {email}")
        if sys.stdin.isatty():
            password = getpass.getpass(f"new password for {player.email}: ")
            if getpass.getpass("again: ") != password:
                raise CommandError("the two passwords differ; nothing was changed")
        else:
            password = sys.stdin.readline().rstrip("\n")
        try:
            services.do_set_password(player, password)
        except services.ServiceError as exc:
            raise CommandError(exc.message) from None
        self.stderr.write(f"player {player.display_name} <{player.email}>: password set")
