"""The services behind a player's personal page: playing from it, messages to the table
(the page's box and the mail's ``say ...``), and revoking the page's link."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import transaction

import engine
from pbem.games import pages, services
from pbem.games.models import ChatMessage, Game, Seat, Source
from pbem.games.services import Command, Conflict, ServiceError, do_log

MAX_SAY = 1000


@transaction.atomic
def do_say(seat: Seat, text: str) -> ChatMessage:
    """A message from the seat's player to the others: shown on the page, and in each
    player's next mail (no mail of its own: a chat line is not worth waking anyone)."""
    text = " ".join(text.split())
    if not text:
        raise ServiceError("the message is empty: write something after say")
    if len(text) > MAX_SAY:
        raise ServiceError(f"a message holds at most {MAX_SAY} characters; yours has {len(text)}")
    game = Game.objects.select_for_update().get(pk=seat.game_id)
    if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED, Game.Status.FINISHED):
        raise Conflict(f"game #{game.pk} has not started; there is nobody to talk to yet")
    assert seat.index is not None
    return ChatMessage.objects.create(game=game, seat=seat.index, player=seat.player, text=text,
                                      version=game.version)


@transaction.atomic
def do_revoke_page_link(seat: Seat) -> Seat:
    """Every personal link of the seat stops working; the next mail carries a new one."""
    seat = Seat.objects.select_for_update().get(pk=seat.pk)
    seat.page_key = secrets.token_urlsafe(18)
    seat.save(update_fields=["page_key"])
    do_log(seat.game, seat.player, "revoke_link", {"seat": seat.index})
    return seat


@dataclass
class PagePlay:
    """What became of a move made on the personal page."""

    applied: bool = False
    confirm: str = ""  # the option's label, when the move waits for a second click
    error: str = ""


def do_play_from_page(seat: Seat, code: str, *, version: int | None, confirmed: bool) -> PagePlay:
    """An option button pressed on the page: asked to confirm when the move ends the turn or
    shows something hidden, else (or once confirmed) applied like a mail's move."""
    game = Game.objects.get(pk=seat.game_id)
    assert seat.index is not None and seat.player is not None
    if game.status == Game.Status.RUNNING and game.state is not None and not confirmed:
        option = next((o for o in engine.get(game.rules).options(game.state, seat.index) if o.code == code), None)
        if option is not None and pages.needs_confirm(game, seat.index, code):
            return PagePlay(confirm=option.label)
    try:
        services.do_submit_moves(game.pk, seat.player, [Command(code=code)], source=Source.WEB,
                                 expected_version=version)
    except services.StaleVersion:
        return PagePlay(error="The game moved on while you looked at it; here it is as it is now. "
                              "Choose again.")
    except services.MoveRejected as exc:
        return PagePlay(error=f"That move was not taken: {exc.error.message}")
    except ServiceError as exc:
        return PagePlay(error=exc.message)
    return PagePlay(applied=True)
