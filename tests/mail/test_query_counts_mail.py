"""SQL statements of the mail path: a judged move mail, and a mail sent (issue 28).

Why a count, not a time: Django's query building was the largest Python self-time of a worker
(24 statements a judged mail, 3 a mail sent), and a count is what a change to the path breaks.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from email.message import EmailMessage
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import engine
from pbem.games import dispatch, services
from pbem.games.models import Game, OutboundMessage, Seat
from pbem.mail import sending
from pbem.mail import services as mail_services
from pbem.mail.outbox import STEP_ANSWER_HEADER, reply_address

pytestmark = pytest.mark.django_db


def _maretta() -> Game:
    players = [services.do_create_player(f"q{i}@example.org", f"Q{i}") for i in range(3)]
    game = services.do_create_game(players[0], "maretta", options={"side": "A"},
                                   invite=[p.email for p in players[1:]])
    for p in players[1:]:
        services.do_join_game(game.pk, p)
    return Game.objects.get(pk=game.pk)


def _move_mail(game: Game, rnd: random.Random) -> tuple[bytes, str, str]:
    rules = engine.get(game.rules)
    assert game.state is not None
    index = rules.pending(game.state)[0]
    seat = Seat.objects.select_related("player").get(game=game, index=index)
    assert seat.player is not None
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = seat.player.email, reply_address(seat), "move"
    msg["Message-ID"] = f"<q-{rnd.random()}@example.org>"
    msg.set_content(rnd.choice(rules.options(game.state, index)).code)
    return msg.as_bytes(), seat.player.email, reply_address(seat)


def played_by_mail(rules: str, prefix: str, moves: int, seed: int) -> Game:
    """A new 3-player game of ``rules`` (Maretta's side A) whose first ``moves`` moves were mailed
    in and judged, each the option :func:`_move_mail` picks with a ``Random(seed)``."""
    players = [services.do_create_player(f"{prefix}{i}@example.org", f"{prefix.title()}{i}") for i in range(3)]
    game = services.do_create_game(players[0], rules, options={"side": "A"} if rules == "maretta" else {},
                                   invite=[p.email for p in players[1:]])
    for p in players[1:]:
        services.do_join_game(game.pk, p)
    rnd = random.Random(seed)
    for _ in range(moves):
        game.refresh_from_db()
        raw, sender, to = _move_mail(game, rnd)
        mail_services.do_process_inbound(mail_services.do_receive_mail(raw, sender, [to]).pk)
    return game


#: Statements of a judged move mail when it queues no mail (was 21, then 12): the transaction's
#: SAVEPOINT and RELEASE (BEGIN and COMMIT outside a test), the inbound row locked, the seat of the
#: address with its game locked, the game's seats, the move, the game, the inbound row marked. The
#: move takes the game as the seat's read locked it, and numbers its rows from the game's counter.
JUDGED_MAIL_STATEMENTS = 8
#: The mails a move queues in the same transaction (game mails to the seats whose turn begins),
#: however many: the story since the earliest of their last mails (one read), their rows with the
#: seats' marks (one INSERT whose WITH updates the marks, on PostgreSQL). The chat is read only
#: when the seats' read said a seat has chat it was not told. (It was 4 statements a mail: story,
#: chat, row and mark each; then 3 for a change's mails.)
MAILS_STATEMENTS = 2
#: The answer to a step, made alone: the story, the row with the seat's mark (one statement, as a
#: change's mails). Its seat's marks and whether chat came since are those of the change's read of
#: the seats, after the game's lock (the chat is read only when it says some came). It was 5 with
#: the mark apart, 4 with the chat read always, 3 with the seat's marks read again.
STEP_ANSWER_STATEMENTS = 2


def test_it_judges_a_move_mail_in_no_more_statements_than_today():
    game = _maretta()
    rnd = random.Random(5)
    seen: list[tuple[int, int, int]] = []  # (game mails queued, step answers queued, statements)
    for _ in range(9):
        game.refresh_from_db()
        raw, sender, to = _move_mail(game, rnd)
        row = mail_services.do_receive_mail(raw, sender, [to])
        queued = set(OutboundMessage.objects.values_list("pk", flat=True))
        with CaptureQueriesContext(connection) as ctx:
            result = mail_services.do_process_inbound(row.pk)
        assert result == "applied", result
        new = OutboundMessage.objects.exclude(pk__in=queued)
        answers = sum(1 for h in new.values_list("headers", flat=True) if STEP_ANSWER_HEADER in h)
        seen.append((new.count() - answers, answers, len(ctx.captured_queries)))
    assert any(m == 0 for m, _a, _s in seen) and any(m > 0 for m, _a, _s in seen), seen  # both kinds were judged
    assert any(m > 1 for m, _a, _s in seen), seen  # a change that mailed several seats at once
    for mails, answers, statements in seen:
        bound = JUDGED_MAIL_STATEMENTS + (MAILS_STATEMENTS if mails else 0) + STEP_ANSWER_STATEMENTS * answers
        assert statements <= bound, seen
    # the same for one game mail as for three: no statement a mail
    assert len({s for m, a, s in seen if m and not a}) == 1, seen


#: A batch of mails sent, however many: one UPDATE ... RETURNING claims and reads every row, one
#: UPDATE marks those sent (it was one mark a mail, right after its send). With MAILS_STATEMENTS a
#: move's mails cost 4 statements: a one-mail move 4, a four-mail move 1 a mail.
SEND_STATEMENTS = 2


def test_it_sends_a_moves_mails_in_one_claim_and_one_mark(settings):
    """A batch: one UPDATE ... RETURNING claims and reads every row, then one UPDATE marks them all
    sent, however many (issue 28); a single send is its claim and its mark."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game = _maretta()
    ids = list(OutboundMessage.objects.filter(game=game, status="pending").values_list("pk", flat=True))
    assert len(ids) >= 3
    with CaptureQueriesContext(connection) as ctx:
        assert sending.do_send_outbound_batch([*ids[:-1], ids[0]]) == len(ids) - 1  # a repeated id is sent once
    assert len(ctx.captured_queries) == SEND_STATEMENTS, [q["sql"][:80] for q in ctx.captured_queries]
    with CaptureQueriesContext(connection) as ctx:
        assert sending.do_send_outbound_batch(ids[:-1]) == 0  # delivered twice: the claim finds nothing
    assert len(ctx.captured_queries) == 1
    with CaptureQueriesContext(connection) as ctx:
        assert sending.do_send_outbound(ids[-1])
        assert not sending.do_send_outbound(ids[-1])  # sent already: the claim finds nothing
    assert len(ctx.captured_queries) == 3
    assert set(OutboundMessage.objects.filter(pk__in=ids).values_list("status", flat=True)) == {"sent"}
    from django.core import mail

    assert len(mail.outbox) == len(ids)


def _judged_and_sent(game: Game, capture_on_commit: Any,
                     around: Callable[[], contextlib.AbstractContextManager[Any]] = contextlib.nullcontext,
                     check: Callable[[Any, CaptureQueriesContext, int], None] | None = None) -> list[tuple[int, int]]:
    """Nine seeded move mails judged, each change's mails sent after its commit, ``around`` the judgement
    (a worker's send bound, or nothing): (the game mails each change sent, its statements), a step's answer
    left out (counted by test_a_steps_answer_costs_its_bound). Every mail is sent and marked sent;
    ``check`` is given each change's new rows, its statements and how many mails left."""
    from django.core import mail

    rnd = random.Random(5)
    seen: list[tuple[int, int]] = []  # (game mails sent, statements)
    for _ in range(9):
        game.refresh_from_db()
        raw, sender, to = _move_mail(game, rnd)
        row = mail_services.do_receive_mail(raw, sender, [to])
        queued = set(OutboundMessage.objects.values_list("pk", flat=True))
        before = len(mail.outbox)
        with around(), CaptureQueriesContext(connection) as ctx, capture_on_commit(execute=True):
            assert mail_services.do_process_inbound(row.pk) == "applied"
        new = OutboundMessage.objects.exclude(pk__in=queued)
        if any(STEP_ANSWER_HEADER in h for h in new.values_list("headers", flat=True)):
            continue  # a step's answer: counted by test_a_steps_answer_costs_its_bound
        assert set(new.values_list("status", flat=True)) <= {"sent"}, "every mail was sent and marked"
        if check is not None:
            check(new, ctx, len(mail.outbox) - before)
        seen.append((new.count(), len(ctx.captured_queries)))
    return seen


def _assert_the_same_cost_however_many(seen: list[tuple[int, int]], send_statements: int) -> None:
    """No change cost more than its judgement and its mails' statements, and one mail cost what three did."""
    assert any(m > 1 for m, _s in seen), seen  # a change that mailed several seats at once
    for mails, statements in seen:
        assert statements <= JUDGED_MAIL_STATEMENTS + (MAILS_STATEMENTS + send_statements if mails else 0), seen
    assert len({s for m, s in seen if m}) == 1, seen  # the same for one mail as for three


def test_a_moves_mails_cost_four_statements_from_queue_to_sent_however_many(settings,
                                                                          django_capture_on_commit_callbacks):
    """The whole of a judged move mail, its mails sent after the commit included: the judgement's
    statements and 4 for its mails however many (the story, the rows with the marks, the claim,
    the sent mark), so a move that mails several seats costs 1 statement a mail or less from 4."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.PBEM_TASKS_IN_PROCESS = True
    game = _maretta()
    OutboundMessage.objects.filter(game=game).update(status=OutboundMessage.Status.SENT)  # the start's
    _assert_the_same_cost_however_many(_judged_and_sent(game, django_capture_on_commit_callbacks), SEND_STATEMENTS)


#: A move's mails sent by the task that decided it (a worker's, ``dispatch.sending_here``): the rows are
#: born claimed by that task (their INSERT sets the claim), so only the ``sent`` mark is left.
BORN_SEND_STATEMENTS = 1


def test_the_deciding_tasks_mails_are_born_claimed_and_cost_three_statements_from_queue_to_sent(
        settings, django_capture_on_commit_callbacks):
    """As a worker's deciding task runs it (issue 28): the judged move's mails are inserted claimed by
    it (no claim statement after the commit), then sent and marked sent in one statement: the
    story, the rows with the marks, the mark; one statement fewer than a send task's claim and mark."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game = _maretta()
    OutboundMessage.objects.filter(game=game).update(status=OutboundMessage.Status.SENT)  # the start's
    settings.PBEM_TASKS_IN_PROCESS = False  # a worker with a broker; the sends below are this task's own

    def born_claimed(new: Any, ctx: CaptureQueriesContext, mailed: int) -> None:
        assert set(new.values_list("attempts", flat=True)) <= {1}  # the claim's one attempt, set at birth
        assert not any("claimed_at" in q["sql"] and q["sql"].startswith("UPDATE") for q in ctx.captured_queries)
        assert mailed == new.count()

    seen = _judged_and_sent(game, django_capture_on_commit_callbacks,
                            lambda: dispatch.sending_here(contextlib.nullcontext), born_claimed)
    _assert_the_same_cost_however_many(seen, BORN_SEND_STATEMENTS)


def test_the_mails_of_a_change_tell_each_seat_its_own_untold_chat_once():
    """The chat read is skipped when the seats' read saw none; when there is some, each seat's
    mail tells what came after its own last mail, once (the mails of a change share one read)."""
    from pbem.games import personal

    game = _maretta()
    rnd = random.Random(5)
    seats = list(Seat.objects.filter(game=game).select_related("player").order_by("index"))
    personal.do_say(seats[0], "fair winds")
    told: dict[str, int] = {}
    for _ in range(9):
        game.refresh_from_db()
        before = set(OutboundMessage.objects.values_list("pk", flat=True))
        raw, sender, to = _move_mail(game, rnd)
        mail_services.do_process_inbound(mail_services.do_receive_mail(raw, sender, [to]).pk)
        for row in OutboundMessage.objects.exclude(pk__in=before).exclude(content=None):
            assert row.content is not None
            lines = [text for _who, text in row.content["chat"]]
            told[row.to_email] = told.get(row.to_email, 0) + lines.count("fair winds")
    assert set(told.values()) == {1} and len(told) == 3, told  # each player once, however many mails


def test_a_steps_answer_costs_its_bound(monkeypatch):
    """A step of a turn answered to its sender (the story, the chat when some came, and its row with
    the seat's mark in one statement), on a fixed deal so that one comes."""
    monkeypatch.setattr(services, "new_seed", lambda: "counts-steps")
    new, ctx, _mailed = _judged_until_a_steps_answer(_maretta())
    answers = sum(1 for h in new.values_list("headers", flat=True) if STEP_ANSWER_HEADER in h)
    mails = new.count() - answers
    bound = JUDGED_MAIL_STATEMENTS + (MAILS_STATEMENTS if mails else 0) + STEP_ANSWER_STATEMENTS
    assert len(ctx.captured_queries) <= bound, [q["sql"][:90] for q in ctx.captured_queries]


def _judged_until_a_steps_answer(game: Game, outer: Callable[[], contextlib.AbstractContextManager[Any]] =
                                 contextlib.nullcontext,
                                 inner: Callable[[], contextlib.AbstractContextManager[Any]] = contextlib.nullcontext,
                                 ) -> tuple[Any, CaptureQueriesContext, int]:
    """Seeded move mails judged (``outer`` around the statements counted, ``inner`` within them: a worker's
    send bound, the commit's callbacks run) until one change queues a step's answer (the deal fixed by the
    caller, so that one comes): that change's new rows, its statements and how many mails left in it."""
    from django.core import mail

    rnd = random.Random(7)
    for _ in range(40):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        raw, sender, to = _move_mail(game, rnd)
        row = mail_services.do_receive_mail(raw, sender, [to])
        queued = set(OutboundMessage.objects.values_list("pk", flat=True))
        before = len(mail.outbox)
        with outer(), CaptureQueriesContext(connection) as ctx, inner():
            assert mail_services.do_process_inbound(row.pk) == "applied"
        new = OutboundMessage.objects.exclude(pk__in=queued)
        if any(STEP_ANSWER_HEADER in h for h in new.values_list("headers", flat=True)):
            return new, ctx, len(mail.outbox) - before
    pytest.fail("no step's answer in 40 moves of this deal")


def test_a_move_writes_the_games_columns_it_changes_and_no_other():
    """The game's UPDATE of a judged move mail sets the state, its counters, the end and the
    deadline's marks, and what the lobby reads from the state (issue 28, perf: it wrote all 33
    columns, options and archive included, as read), and what it stores reads back as the move left it."""
    import re

    from pbem.games.services import MOVE_FIELDS

    game = _maretta()
    raw, sender, to = _move_mail(game, random.Random(7))
    row = mail_services.do_receive_mail(raw, sender, [to])
    with CaptureQueriesContext(connection) as ctx:
        assert mail_services.do_process_inbound(row.pk) == "applied"
    updates = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith('UPDATE "games_game"')]
    assert len(updates) == 1, updates
    assert set(re.findall(r'"(\w+)" = ', updates[0].split(" WHERE ")[0])) == {
        *MOVE_FIELDS, "pending_seats", "seat_names"}
    after = Game.objects.get(pk=game.pk)
    assert after.version == game.version + 1 and after.moves_recorded == game.moves_recorded + 1
    assert after.state != game.state and after.deadline_at is not None and after.deadline_at != game.deadline_at
    rules = engine.get(after.rules)
    assert after.pending_seats == rules.pending(after.state) and after.seat_names == after.state["players"]
    assert after.options == game.options and after.title == game.title


def test_a_steps_answer_sent_by_its_deciding_task_is_born_claimed(monkeypatch, settings,
                                                                   django_capture_on_commit_callbacks):
    """The answer to a step, queued by a worker's deciding task, is inserted claimed by it, as a
    change's mails are (issue 28): after the commit only its send and its ``sent`` mark are left,
    no claim statement (in a game of steps, as Maracaibo, the answer is most moves' only mail)."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    monkeypatch.setattr(services, "new_seed", lambda: "counts-steps")
    game = _maretta()
    OutboundMessage.objects.filter(game=game).update(status=OutboundMessage.Status.SENT)  # the start's
    settings.PBEM_TASKS_IN_PROCESS = False  # a worker with a broker; the sends below are this task's own
    new, ctx, mailed = _judged_until_a_steps_answer(game, lambda: dispatch.sending_here(contextlib.nullcontext),
                                                    lambda: django_capture_on_commit_callbacks(execute=True))
    answers = [r for r in new if STEP_ANSWER_HEADER in r.headers]
    assert [r.status for r in answers] == ["sent"] and [r.attempts for r in answers] == [1]
    assert not any("claimed_at" in q["sql"] and q["sql"].startswith("UPDATE") for q in ctx.captured_queries)
    assert mailed == new.count()


@pytest.mark.django_db(transaction=True)
def test_the_sent_mark_does_not_wait_for_the_disk_and_leaves_the_session_as_it_was():
    """The ``sent`` mark, a transaction of its own, commits without waiting for its WAL to reach the
    disk (issue 28: 2.5-4 ms a move on this machine); the setting is its transaction's alone, and
    inside a caller's transaction the mark leaves that transaction's durability alone."""
    if connection.vendor != "postgresql":
        pytest.skip("synchronous_commit is PostgreSQL's")
    game = _maretta()
    ids = list(OutboundMessage.objects.filter(game=game).values_list("pk", flat=True))
    OutboundMessage.objects.filter(pk__in=ids).update(status=OutboundMessage.Status.SENDING)
    with CaptureQueriesContext(connection) as ctx:
        sending._mark_sent(ids[:1])
    assert "synchronous_commit" in ctx.captured_queries[-1]["sql"]
    assert OutboundMessage.objects.get(pk=ids[0]).status == OutboundMessage.Status.SENT
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"  # the mark's transaction's alone
    from django.db import transaction

    with transaction.atomic(), CaptureQueriesContext(connection) as ctx:
        sending._mark_sent(ids[1:])
    assert "synchronous_commit" not in ctx.captured_queries[-1]["sql"]
    assert set(OutboundMessage.objects.filter(pk__in=ids).values_list("status", flat=True)) == {"sent"}


def test_a_steps_answer_tells_the_chat_said_just_before_it(monkeypatch):
    """The step's answer reads the chat only when its seat's marks say some came after its last mail
    (issue 28: one statement less an answer where the chat is quiet); when some came, it tells it."""
    from pbem.games import personal

    monkeypatch.setattr(services, "new_seed", lambda: "counts-steps")
    game = _maretta()
    seats = list(Seat.objects.filter(game=game).select_related("player").order_by("index"))
    said: list[str] = []

    @contextlib.contextmanager
    def chat_first() -> Any:
        said.append(f"fair winds {len(said)}")
        personal.do_say(seats[len(said) % len(seats)], said[-1])
        yield

    new, _ctx, _mailed = _judged_until_a_steps_answer(game, chat_first)
    answers = [r for r in new if STEP_ANSWER_HEADER in r.headers]
    assert answers and answers[0].content is not None
    assert said[-1] in [text for _who, text in answers[0].content["chat"]]
