"""A complete Maretta game by mail, with nothing in process: SMTP in, a real Celery
worker on the real Redis broker judging each mail and sending the outbox.

The simulated people are the ones of tests/mail (each reads only the mails Django
actually sent to them and replies to the newest one that asks). What differs from
the in-process game there: every mail is handed to Redis after commit, decided by
the worker thread, and the answers are sent by the worker too. The players wait, as
people do, when nobody has a mail to answer yet.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from pbem.games.models import Game, InboundMessage, Move, OutboundMessage
from tests.mail.conftest import Persona, ana, bruno, carla, smtp_server, text_of
from tests.mail.test_maretta_by_mail import GENERAL, Player, play_until_over
from tests.workers.test_worker import real_worker

__all__ = ["ana", "bruno", "carla", "real_worker", "smtp_server"]

pytestmark = [pytest.mark.redis, pytest.mark.slow]


@pytest.fixture(autouse=True)
def _mail_settings(settings: Any) -> None:
    settings.PBEM_MAIL_DOMAIN = "pbem.localhost"
    settings.PBEM_FROM_EMAIL = "pbem@pbem.localhost"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def _settle(timeout: float = 30.0) -> None:
    """Wait until the worker has judged every stored mail and sent every outbox row."""
    deadline = time.monotonic() + timeout
    while (InboundMessage.objects.filter(status=InboundMessage.Status.RECEIVED).exists()
           or OutboundMessage.objects.exclude(status=OutboundMessage.Status.SENT).exists()):
        assert time.monotonic() < deadline, "the worker did not finish its work"
        time.sleep(0.02)


def test_it_plays_a_complete_game_by_mail_through_a_real_worker(
        transactional_db: None, real_worker: Any, ana: Persona, bruno: Persona, carla: Persona) -> None:
    from django.conf import settings

    assert settings.PBEM_TASKS_IN_PROCESS is False  # every task goes through Redis
    ana.send_to(GENERAL, f"new maretta with {bruno.email} {carla.email} side=A")
    _settle()
    for invited in (bruno, carla):
        invited.reply(invited.latest(), "join")
    _settle()

    rnd = random.Random(11)
    players = [Player(p, rnd) for p in (ana, bruno, carla)]
    replies = play_until_over(players, rnd, after_round=_settle)

    game = Game.objects.get(rules="maretta")
    assert game.status == Game.Status.FINISHED
    moves = Move.objects.filter(game=game)
    assert moves.count() == replies and {m.source for m in moves} == {"mail"}
    for p in (ana, bruno, carla):
        assert any("is over" in text_of(m) for m in p.inbox()), f"{p.name} never got the game-over mail"
