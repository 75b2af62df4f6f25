"""What the judging of a move mail computes once and keeps (issue 28, perf), shown to change nothing.

What could break: a change's mails written out in one statement (not the ORM's INSERT) storing a
column otherwise; a seat's options kept from the check whether its mail is due listing other
options than its mail would have computed; the step's answer taking its seat's marks from the
change's read of the seats (not a read of its own) and telling another story. Each is compared
with the way before, on PostgreSQL.
"""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest
from django.db import connection

from pbem.games import services
from pbem.games.models import Game, InboundMessage, OutboundMessage, Seat
from pbem.mail import outbox
from pbem.mail import services as mail_services
from tests.mail.test_query_counts_mail import _move_mail

pytestmark = pytest.mark.django_db


def _game(prefix: str) -> Game:
    players = [services.do_create_player(f"{prefix}{i}@example.org", f"J{i}") for i in range(3)]
    game = services.do_create_game(players[0], "maretta", options={"side": "A"},
                                   invite=[p.email for p in players[1:]])
    for p in players[1:]:
        services.do_join_game(game.pk, p)
    return Game.objects.get(pk=game.pk)


def _stored(pks: list[int]) -> list[dict[str, Any]]:
    rows = {r["id"]: r for r in OutboundMessage.objects.filter(pk__in=pks).values()}
    return [{k: v for k, v in rows[pk].items() if k not in ("id", "created_at")} for pk in pks]


def test_a_changes_mails_are_stored_as_the_orms_insert_stores_them():
    if connection.vendor != "postgresql":
        pytest.skip("the written-out statement is PostgreSQL's")
    game = _game("ins")
    seats = list(Seat.objects.filter(game=game).select_related("player").order_by("index"))
    # JSON content with what quoting may get wrong: quotes, backslashes, controls, accents, nesting
    content = {"text": 'a "quoted" \\ line\n\twith é, ção and {braces}', "list": [1, None, True, {"k": "v"}],
               "options": [{"code": "1", "label": "Sail to \"Havana\""}]}
    rows = [outbox._row(to=s.player, subject=f"[pbem] it's \"{s.index}\"", game=game, reply_to=outbox.reply_address(s),
                        content={**content, "seat": s.index}) for s in seats]
    copies = [copy.copy(r) for r in rows]
    for s in seats:
        s.last_mailed_version, s.last_mailed_options, s.last_mailed_chat = 7, f"sig-{s.index}", 3
    for mail_off in (False, True):
        mine = [copy.copy(r) for r in rows]
        outbox._insert_marking(mine, seats, mail_off=mail_off)
        theirs = OutboundMessage.objects.bulk_create([copy.copy(r) for r in copies])
        assert _stored([r.pk for r in mine]) == _stored([r.pk for r in theirs])
        assert all(isinstance(r.pk, int) for r in mine) and len({r.pk for r in mine}) == len(mine)
        assert [r.__dict__.get("mail_off") for r in mine] == ([False] * len(mine) if mail_off else [None] * len(mine))
    marks = list(Seat.objects.filter(game=game).order_by("index").values_list(*outbox.MARKS))
    assert marks == [(7, f"sig-{s.index}", 3) for s in seats]


def _normalized(game: Game, pks: list[int]) -> list[str]:
    """The stored mails with what differs between two games of one deal taken out: the game's
    number, its seats' secret addresses and page links, the players' addresses, Message-IDs."""
    out = []
    for row in _stored(pks):
        headers = {k: v for k, v in row.pop("headers").items()
                   if k not in ("Message-ID", "In-Reply-To", "References")}
        text = json.dumps({**row, "headers": headers, "game_id": None, "player_id": None}, sort_keys=True)
        text = text.replace(f"#{game.pk}", "#G").replace(f'"pk": {game.pk}', '"pk": "G"')
        text = re.sub(r"/p/[^/\"]+/", "/p/X/", text)
        text = re.sub(r"seat-[^@\"]+@", "seat-X@", text)
        out.append(re.sub(r"\b(?:same|kept)\d@example\.org", "P@example.org", text))
    return out


def _play(prefix: str, moves: int) -> tuple[list[str], int]:
    game = _game(prefix)
    InboundMessage.objects.all().delete()  # (the other game's mails had these Message-IDs)
    start = set(OutboundMessage.objects.values_list("pk", flat=True))
    rnd = random.Random(11)
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        raw, sender, to = _move_mail(game, rnd)
        assert mail_services.do_process_inbound(mail_services.do_receive_mail(raw, sender, [to]).pk) == "applied"
    pks = list(OutboundMessage.objects.exclude(pk__in=start).filter(game=game).order_by("pk")
               .values_list("pk", flat=True))
    answers = OutboundMessage.objects.filter(pk__in=pks, headers__has_key=outbox.STEP_ANSWER_HEADER).count()
    return _normalized(game, pks), answers


def test_the_mails_of_a_game_are_those_made_without_what_the_change_kept(monkeypatch):
    """A seeded game by mail, its mails made as before (each seat's options computed again for its
    mail, the step's answer reading its seat's marks again) and as now: the same mails, byte for byte."""
    monkeypatch.setattr(services, "new_seed", lambda: "counts-steps")
    now, answers = _play("kept", 30)
    with monkeypatch.context() as before:
        before.setattr(outbox, "_options_kept", lambda game, seat: None)
        before.setattr(outbox, "_keep_seats", lambda game, seats: None)
        then, _answers = _play("same", 30)
    assert answers and len(now) > answers, "step answers and game mails were both made"
    assert now == then


def test_a_written_out_read_makes_the_models_the_orm_makes():
    """The stored mail (every column) and the story's moves (some columns, the rest deferred) read by
    seatrow.read_models are what the ORM reads: the same values, of the same types, the same deferred."""
    from django.db import transaction

    from pbem.games.models import Move
    from pbem.mail import inboundrow

    game = _game("read")
    raw, sender, to = _move_mail(game, random.Random(3))
    row = mail_services.do_receive_mail(raw, sender, [to])
    with transaction.atomic():
        mine = inboundrow.locked(row.pk)
    theirs = InboundMessage.objects.get(pk=row.pk)
    assert mine is not None and not mine.get_deferred_fields()
    assert {f.attname: getattr(mine, f.attname) for f in InboundMessage._meta.concrete_fields} == {
        f.attname: getattr(theirs, f.attname) for f in InboundMessage._meta.concrete_fields}
    assert inboundrow.locked(row.pk + 1000) is None
    mail_services.do_process_inbound(row.pk)
    log = outbox._log_since(game, 0)
    orm = list(Move.objects.filter(game=game).only(*outbox._LOG_COLUMNS).order_by("number"))
    assert log and [m.get_deferred_fields() for m in log] == [m.get_deferred_fields() for m in orm]
    assert [[getattr(m, a) for a in outbox._LOG_COLUMNS] for m in log] == [
        [getattr(m, a) for a in outbox._LOG_COLUMNS] for m in orm]
    assert all(isinstance(m.events, list) for m in log)
