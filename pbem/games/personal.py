"""The services behind a player's personal page: playing from it, messages to the table
(the page's box and the mail's ``say ...``), and revoking the page's link."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

import engine
from pbem.games import pages, services
from pbem.games.models import ChatMessage, Game, Seat, Source
from pbem.games.services import Command, Conflict, ServiceError, do_log
from pbem.mail import outbox

MAX_SAY = 1000


@transaction.atomic
def do_say(seat: Seat, text: str) -> ChatMessage:
    """A message from the seat's player to the others: shown on the page, and in each
    player's next mail (no mail of its own: a chat line is not worth waking anyone).

    In a cooperative game (``Rules.cooperative``: the table plays as one team) it is a plan made
    together, so it reaches the whole table at once: a short mail to every other player now (their
    next mail then leaves it out, unless older lines are still unmailed)."""
    text = " ".join(text.split())
    if not text:
        raise ServiceError("the message is empty: write something after say")
    if len(text) > MAX_SAY:
        raise ServiceError(f"a message holds at most {MAX_SAY} characters; yours has {len(text)}")
    game = Game.objects.select_for_update().get(pk=seat.game_id)
    if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED, Game.Status.FINISHED):
        raise Conflict(f"game #{game.pk} has not started; there is nobody to talk to yet")
    assert seat.index is not None
    said = ChatMessage.objects.create(game=game, seat=seat.index, player=seat.player, text=text,
                                      version=game.version)
    if game.state is not None and game.status == Game.Status.RUNNING and engine.get(game.rules).cooperative(game.state):
        _tell_the_table(game, seat, said)
    return said


def _tell_the_table(game: Game, seat: Seat, said: ChatMessage) -> None:
    """A cooperative table's message, mailed to every other player at once."""
    rules = engine.get(game.rules)
    assert game.state is not None and seat.index is not None
    others = [(s, s.index) for s in game.seats.exclude(index__isnull=True).exclude(index=seat.index)
              if s.player is not None and s.index is not None]
    name = rules.seat_name(game.state, seat.index)
    outbox.queue_notice(game, lambda: gettext("%(name)s says to the table: %(text)s") % {"name": name,
                                                                                       "text": said.text},
                        seats=[i for _, i in others])
    for other, index in others:  # told now: not again in the next mail, unless older lines wait for it
        waiting = ChatMessage.objects.filter(game=game, pk__gt=other.last_mailed_chat, pk__lt=said.pk).exclude(
            seat=index)
        if not waiting.exists():
            other.last_mailed_chat = said.pk
            other.save(update_fields=["last_mailed_chat"])


@transaction.atomic
def do_revoke_page_link(seat: Seat) -> Seat:
    """Every personal link of the seat stops working; the next mail carries a new one."""
    seat = Seat.objects.select_for_update().get(pk=seat.pk)
    seat.page_key = secrets.token_urlsafe(18)
    seat.save(update_fields=["page_key"])
    do_log(seat.game, seat.player, "revoke_link", {"seat": seat.index})
    return seat


def do_mark_page_seen(seat: Seat, newest: int) -> None:
    """The seat's player has seen its page up to move ``newest`` (a visit, in any browser): what
    the others play after it is marked new at the next visit. One UPDATE, no lock: two visits at
    once both mean "seen"."""
    if seat.page_seen_move != newest:
        Seat.objects.filter(pk=seat.pk).update(page_seen_move=newest)
        seat.page_seen_move = newest


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


def do_play_turn_from_page(seat: Seat, codes: list[str], *, version: int | None) -> PagePlay:
    """A whole turn planned on the page, sent as one batch: the same rules as the lines of one
    mail (a step that reveals commits itself and the steps before it; a refused step is refused
    with the steps since the last reveal, judged where it stands)."""
    codes = [c for c in codes if c]
    if not codes:
        return PagePlay(error="Your plan is empty: pick its first step among your options.")
    assert seat.player is not None
    try:
        services.do_submit_moves(seat.game_id, seat.player, [Command(code=c) for c in codes], source=Source.WEB,
                                 expected_version=version)
    except services.StaleVersion:
        return PagePlay(error="The game moved on while you planned; your plan was not sent. "
                              "Here it is as it is now: plan again.")
    except services.MoveRejected as exc:
        stood = (f" Steps 1 to {len(exc.applied)} stand: they showed something hidden, so they are kept."
                 if len(exc.applied) > 1 else " Step 1 stands: it showed something hidden, so it is kept."
                 if exc.applied else " Nothing of the plan was taken.")
        return PagePlay(error=f"Step {exc.line_no} of your plan was refused: {exc.error.message.rstrip('.')}.{stood}")
    except ServiceError as exc:
        return PagePlay(error=exc.message)
    return PagePlay(applied=True)


def do_undo_from_page(seat: Seat) -> PagePlay:
    """Take back the player's own last move from the page (the undo service's rules, its reasons)."""
    assert seat.player is not None
    try:
        services.do_undo_last_move(seat.game_id, seat.player, via="web")
    except ServiceError as exc:
        return PagePlay(error=f"Nothing was taken back: {exc.message.rstrip('.')}.")
    return PagePlay(applied=True)
