"""Moves by mail over a real SMTP socket: the good mail and every kind of bad mail.

Each test plays the small hidden-information game "Blind Bids" (tests/fakegame.py):
Ana, Bruno and Carla each bid one card face down per round; options are
``c<card>: bid <card>``.
"""

from __future__ import annotations

import smtplib
import threading

import pytest
from django.db import connections

from pbem.games import moderation
from pbem.games import services as game_services
from pbem.games.models import Game, InboundMessage, Move, OutboundMessage, Player
from pbem.mail import services as mail_services
from tests.mail.conftest import Persona, SmtpServer, seat_of, sent_messages, start_game, text_of

pytestmark = pytest.mark.django_db(transaction=True)


def hand(game: Game, seat: int) -> list[int]:
    game.refresh_from_db()
    assert game.state is not None
    return list(game.state["hands"][seat])


def new_mails_since(n: int) -> list:
    return sent_messages()[n:]


def only_row() -> InboundMessage:
    rows = list(InboundMessage.objects.all())
    assert len(rows) == 1
    return rows[0]


def test_it_applies_a_reply_and_mails_everyone_their_own_view(bids_game: Game, ana: Persona, bruno: Persona,
                                                               carla: Persona) -> None:
    card = hand(bids_game, 0)[0]
    before = len(sent_messages())
    ana.reply(ana.latest(), f"c{card}")
    assert only_row().status == InboundMessage.Status.APPLIED
    assert Move.objects.filter(game=bids_game, seat=0, source="mail").count() == 1
    new = new_mails_since(before)
    assert sorted(str(m["To"]) for m in new) == sorted([ana.email, bruno.email, carla.email])
    assert f"You bid {card}" in text_of(ana.latest())
    for other in (bruno, carla):
        body = text_of(other.latest())
        assert "Ana bids face down" in body
        assert f"You bid {card}" not in body


def test_it_takes_the_words_of_an_option_as_well_as_its_code(bids_game: Game, bruno: Persona) -> None:
    card = hand(bids_game, 1)[-1]
    bruno.reply(bruno.latest(), f"Bid {card}")
    assert only_row().status == InboundMessage.Status.APPLIED
    assert hand(bids_game, 1) == [c for c in hand(bids_game, 1) if c != card]


def test_it_applies_several_lines_atomically_or_not_at_all(bids_game: Game, ana: Persona, bruno: Persona) -> None:
    first, second = hand(bids_game, 0)[:2]
    version = Game.objects.get(pk=bids_game.pk).version
    before = len(sent_messages())
    ana.reply(ana.latest(), f"c{first}\nc{second}")
    row = only_row()
    assert row.status == InboundMessage.Status.REJECTED
    game = Game.objects.get(pk=bids_game.pk)
    assert game.version == version
    assert not Move.objects.filter(game=game).exists()
    assert hand(game, 0)[:2] == [first, second]
    new = new_mails_since(before)
    assert [str(m["To"]) for m in new] == [ana.email], "a rejection goes to the sender only"
    body = text_of(new[0])
    assert "nothing was changed" in body
    assert f"Line 2 of 2: c{second}" in body
    # judged where it stands: after the first bid the round waits for the others
    assert "it is not your turn" in body and "there, you had nothing left to decide" in body
    assert "not applied either" in body


def test_it_rejects_an_illegal_move_with_the_line_the_reason_and_the_options(bids_game: Game,
                                                                            carla: Persona) -> None:
    not_mine = next(c for c in range(1, 13) if c not in hand(bids_game, 2))
    before = len(sent_messages())
    carla.reply(carla.latest(), f"c{not_mine}")
    assert only_row().status == InboundMessage.Status.REJECTED
    assert not Move.objects.filter(game=bids_game).exists()
    new = new_mails_since(before)
    assert [str(m["To"]) for m in new] == [carla.email]
    body = text_of(new[0])
    assert f"Your line: c{not_mine}" in body
    assert "not understood" in body or "not a legal" in body
    assert "Your options now:" in body
    for card in hand(bids_game, 2):
        assert f"c{card}" in body and f"bid {card}" in body
    assert new[0]["Auto-Submitted"] == "auto-generated"
    assert str(new[0]["Reply-To"]) == str(carla.latest()["Reply-To"])


def test_it_rejects_a_malformed_command(bids_game: Game, ana: Persona) -> None:
    ana.reply(ana.latest(), "please make my move, whatever is best")
    assert only_row().status == InboundMessage.Status.REJECTED
    assert not Move.objects.filter(game=bids_game).exists()
    assert "not understood" in text_of(ana.latest())


def test_it_judges_a_stale_move_against_the_current_state(bids_game: Game, ana: Persona) -> None:
    old_mail = ana.latest()
    first, second = hand(bids_game, 0)[:2]
    ana.reply(old_mail, f"c{first}")
    version = Game.objects.get(pk=bids_game.pk).version
    before = len(sent_messages())
    ana.reply(old_mail, f"c{second}")  # the same old mail again: the decision was taken meanwhile
    statuses = sorted(InboundMessage.objects.values_list("status", flat=True))
    assert statuses == ["applied", "rejected"]
    assert Game.objects.get(pk=bids_game.pk).version == version
    reply = new_mails_since(before)
    assert [str(m["To"]) for m in reply] == [ana.email]
    body = text_of(reply[0])
    assert "the game has moved on since the mail you answered" in body
    assert "not your turn" in body
    assert "nothing to decide now" in body


def test_it_reads_html_only_mail(bids_game: Game, bruno: Persona) -> None:
    card = hand(bids_game, 1)[0]
    latest = bruno.latest()
    raw = bruno.compose(str(latest["Reply-To"]), "", subject=f"Re: {latest['Subject']}",
                        in_reply_to=str(latest["Message-ID"]),
                        html=f"<html><body><div>c{card}</div><div class='gmail_quote'>On Monday pbem wrote:"
                             f"<blockquote>c1 bid 1<br>c2 bid 2</blockquote></div></body></html>")
    assert bruno.server is not None
    bruno.server.send(bruno.email, [str(latest["Reply-To"])], raw)
    assert only_row().status == InboundMessage.Status.APPLIED
    assert card not in hand(bids_game, 1)


def test_it_ignores_quoted_history_with_option_lines(bids_game: Game, carla: Persona) -> None:
    latest = carla.latest()
    cards = hand(bids_game, 2)
    # Outlook style: no ">" quoting, our option list copied under the reply.
    listing = "\n".join(f"  c{c}  bid {c}" for c in cards)
    body = (f"c{cards[1]}\n\n________________________________\nFrom: pbem\nSent: Monday\n"
            f"Subject: {latest['Subject']}\n\nYour options:\n{listing}\n")
    carla.reply(latest, body, quote=False)
    assert only_row().status == InboundMessage.Status.APPLIED
    assert hand(bids_game, 2) == [c for c in cards if c != cards[1]]


def test_it_does_not_take_copied_option_lines_as_commands(bids_game: Game, carla: Persona) -> None:
    cards = hand(bids_game, 2)
    listing = "\n".join(f"  c{c}  bid {c}" for c in cards)
    carla.reply(carla.latest(), listing, quote=False)
    assert only_row().status == InboundMessage.Status.REJECTED
    assert not Move.objects.filter(game=bids_game).exists()
    body = text_of(carla.latest())
    assert "I found no command" in body
    assert "write just the code" in body


def test_it_applies_a_duplicate_delivery_once(bids_game: Game, ana: Persona, smtp_server: SmtpServer) -> None:
    card = hand(bids_game, 0)[0]
    raw = ana.reply_raw(ana.latest(), f"c{card}")
    to = str(ana.latest()["Reply-To"])
    before = len(sent_messages())
    smtp_server.send(ana.email, [to], raw)
    after_first = len(sent_messages())
    smtp_server.send(ana.email, [to], raw)  # the MTA delivers it again: still 250
    assert InboundMessage.objects.count() == 1
    assert Move.objects.filter(game=bids_game).count() == 1
    assert len(sent_messages()) == after_first > before


def test_it_applies_a_duplicate_without_message_id_once(bids_game: Game, ana: Persona,
                                                       smtp_server: SmtpServer) -> None:
    card = hand(bids_game, 0)[0]
    to = str(ana.latest()["Reply-To"])
    raw = f"From: {ana.email}\r\nTo: {to}\r\nSubject: move\r\n\r\nc{card}\r\n".encode()
    smtp_server.send(ana.email, [to], raw)
    smtp_server.send(ana.email, [to], raw)
    assert InboundMessage.objects.count() == 1
    assert InboundMessage.objects.get().message_id.endswith("@synthetic.message-id>")
    assert Move.objects.filter(game=bids_game).count() == 1


@pytest.mark.parametrize(
    ("mail_from", "headers"),
    [
        ("ana@example.org", {"Auto-Submitted": "auto-replied"}),
        ("ana@example.org", {"Precedence": "bulk"}),
        ("ana@example.org", {"X-Autoreply": "yes"}),
        ("", {}),
        ("MAILER-DAEMON@mx.example.org", {"X-Failed-Recipients": "ana@example.org"}),
    ],
    ids=["auto-replied", "precedence-bulk", "x-autoreply", "bounce-empty-sender", "bounce-daemon"],
)
def test_it_stores_automatic_mail_and_never_answers_it(bids_game: Game, ana: Persona, smtp_server: SmtpServer,
                                                       mail_from: str, headers: dict[str, str]) -> None:
    latest = ana.latest()
    card = hand(bids_game, 0)[0]
    raw = ana.compose(str(latest["Reply-To"]), f"I am on holiday.\nc{card}", headers=headers,
                      subject=f"Out of office: {latest['Subject']}")
    before = len(sent_messages())
    smtp_server.send(mail_from, [str(latest["Reply-To"])], raw)
    row = only_row()
    assert row.status == InboundMessage.Status.IGNORED
    assert bytes(row.raw) == raw.replace(b"\r\n", b"\r\n")
    assert len(sent_messages()) == before
    assert not OutboundMessage.objects.filter(to_email=ana.email, created_at__gt=row.received_at).exists()
    assert not Move.objects.filter(game=bids_game).exists()


def test_it_answers_a_wrong_sender_and_changes_nothing(bids_game: Game, ana: Persona, mallory: Persona,
                                                       smtp_server: SmtpServer) -> None:
    latest = ana.latest()  # say Mallory got hold of Ana's mail
    card = hand(bids_game, 0)[0]
    raw = mallory.compose(str(latest["Reply-To"]), f"c{card}", subject=f"Re: {latest['Subject']}")
    before = len(sent_messages())
    smtp_server.send(mallory.email, [str(latest["Reply-To"])], raw)
    assert only_row().status == InboundMessage.Status.REJECTED
    assert not Move.objects.filter(game=bids_game).exists()
    new = new_mails_since(before)
    assert [str(m["To"]) for m in new] == [mallory.email]
    raw_reply = new[0].as_bytes()
    assert "not the one this seat is registered with" in text_of(new[0])
    assert ana.email.encode() not in raw_reply
    assert str(latest["Reply-To"]).encode() not in raw_reply, "the seat's address must not be handed out"


def test_it_accepts_any_sender_when_the_game_allows_it(blindbids: str, ana: Persona, bruno: Persona,
                                                       carla: Persona, smtp_server: SmtpServer) -> None:
    game = start_game(blindbids, [ana, bruno, carla], allow_any_sender=True)
    latest = ana.latest()
    card = hand(game, 0)[0]
    raw = ana.compose(str(latest["Reply-To"]), f"c{card}", sender="ana.at.work@example.com")
    smtp_server.send("ana.at.work@example.com", [str(latest["Reply-To"])], raw)
    assert only_row().status == InboundMessage.Status.APPLIED
    assert Move.objects.filter(game=game, seat=0).count() == 1


def test_it_refuses_unknown_addresses_at_rcpt(bids_game: Game, ana: Persona, smtp_server: SmtpServer) -> None:
    with smtp_server.session() as s:
        s.ehlo()
        s.mail(ana.email)
        for rcpt in ("nobody@pbem.localhost", "seat-ThisTokenDoesNotExist@pbem.localhost",
                     "ana@elsewhere.example", "seat-@pbem.localhost"):
            code, _ = s.rcpt(rcpt)
            assert code == 550, rcpt
        code, _ = s.rcpt("postmaster@pbem.localhost")
        assert code == 250
    assert not InboundMessage.objects.exists()


def test_it_refuses_the_old_token_of_a_replaced_seat(bids_game: Game, ana: Persona, mallory: Persona,
                                                     smtp_server: SmtpServer) -> None:
    old_mail = ana.latest()
    newcomer = game_services.do_get_or_create_player(mallory.email)
    moderation.do_replace_player(bids_game.pk, None, 0, newcomer, "Ana left")
    card = hand(bids_game, 0)[0]
    with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
        ana.reply(old_mail, f"c{card}")
    code, _msg = refused.value.recipients[str(old_mail["Reply-To"])]
    assert code == 550
    assert not InboundMessage.objects.exists()
    assert not Move.objects.filter(game=bids_game).exists()
    # The new player's own address works.
    mallory.reply(mallory.latest(), f"c{card}")
    assert only_row().status == InboundMessage.Status.APPLIED


def test_it_refuses_the_token_of_a_declined_invitation(blindbids: str, ana: Persona, bruno: Persona) -> None:
    host = game_services.do_get_or_create_player(ana.email)
    game = game_services.do_create_game(host, blindbids, invite=[bruno.email])
    invitation = bruno.latest()
    assert not Player.objects.filter(email=bruno.email).exists()
    bruno.reply(invitation, "decline")
    assert only_row().status == InboundMessage.Status.APPLIED
    assert Player.objects.filter(email=bruno.email).exists()  # it answered: now it has an account
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        bruno.reply(invitation, "join")
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN


def test_it_rejects_an_oversized_mail_at_data(bids_game: Game, ana: Persona, smtp_server: SmtpServer,
                                             settings) -> None:
    latest = ana.latest()
    to = str(latest["Reply-To"])
    big = ana.compose(to, "c1\n" + ("x" * 76 + "\n") * 40_000)
    assert len(big) > settings.PBEM_SMTP_MAX_SIZE
    # A client that does not announce the size gets 552 at the end of DATA.
    with smtp_server.session() as s:
        s.ehlo()
        s.mail(ana.email)
        assert s.rcpt(to)[0] == 250
        code, _ = s.data(big)
    assert code == 552
    # One that announces it (smtplib does, from the SIZE in EHLO) is refused at MAIL FROM, also 552.
    with pytest.raises(smtplib.SMTPSenderRefused) as err:
        smtp_server.send(ana.email, [to], big)
    assert err.value.smtp_code == 552
    assert not InboundMessage.objects.exists()


def test_it_limits_recipients_per_mail(bids_game: Game, ana: Persona, smtp_server: SmtpServer) -> None:
    from pbem.mail.smtp import MAX_RECIPIENTS

    with smtp_server.session() as s:
        s.ehlo()
        s.mail(ana.email)
        codes = [s.rcpt("postmaster@pbem.localhost")[0] for _ in range(MAX_RECIPIENTS + 1)]
    assert codes[:MAX_RECIPIENTS] == [250] * MAX_RECIPIENTS
    assert codes[-1] == 452


def test_it_answers_451_when_storing_fails_so_the_sender_retries(bids_game: Game, ana: Persona,
                                                                smtp_server: SmtpServer,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("the disk is on fire")

    # Why a patch: there is no honest way to make a healthy database fail on cue.
    latest = ana.latest()
    with monkeypatch.context() as patch:
        patch.setattr(mail_services, "do_receive_mail", broken)
        with pytest.raises(smtplib.SMTPDataError) as err:
            ana.reply(latest, "c1")
    assert err.value.smtp_code == 451
    assert not InboundMessage.objects.exists()
    card = hand(bids_game, 0)[0]
    ana.reply(latest, f"c{card}")  # the retry goes through
    assert only_row().status == InboundMessage.Status.APPLIED


def test_it_commits_the_raw_mail_before_answering_250(bids_game: Game, ana: Persona,
                                                      smtp_server: SmtpServer) -> None:
    latest = ana.latest()
    raw = ana.reply_raw(latest, "c1")
    smtp_server.send(ana.email, [str(latest["Reply-To"])], raw)
    # Read through this test's own connection: it sees only committed rows.
    row = only_row()
    assert bytes(row.raw) == raw
    assert row.mail_from == ana.email
    assert row.rcpt_to == str(latest["Reply-To"])


def test_it_answers_broken_mime_when_it_knows_the_sender(bids_game: Game, ana: Persona,
                                                         smtp_server: SmtpServer) -> None:
    to = str(ana.latest()["Reply-To"])
    raw = (f"From: Ana <{ana.email}>\r\nTo: {to}\r\nSubject: move\r\nMessage-ID: <broken@client.example>\r\n"
           'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="never-used"\r\n\r\n'
           "this body has no parts at all\r\n").encode()
    before = len(sent_messages())
    smtp_server.send(ana.email, [to], raw)
    assert only_row().status == InboundMessage.Status.REJECTED
    new = new_mails_since(before)
    assert [str(m["To"]) for m in new] == [ana.email]
    assert "could not find any text" in text_of(new[0])
    assert not Move.objects.filter(game=bids_game).exists()


def test_it_stores_broken_mime_without_a_sender_as_rejected(bids_game: Game, ana: Persona) -> None:
    to = str(ana.latest()["Reply-To"])
    raw = b"\x00\x01 not even headers \xff\r\n\r\n--\r\n"
    row = mail_services.do_receive_mail(raw, "nobody", [to])
    row.refresh_from_db()
    assert row.status == InboundMessage.Status.REJECTED
    assert "no sender" in row.result
    assert not OutboundMessage.objects.filter(created_at__gte=row.received_at).exists()


@pytest.mark.postgres  # SQLite's in-memory test database has no waiting locks
def test_it_processes_a_row_once_even_if_the_task_runs_twice(bids_game: Game, ana: Persona) -> None:
    to = str(ana.latest()["Reply-To"])
    card = hand(bids_game, 0)[0]
    raw = ana.compose(to, f"c{card}")
    # A stored row whose task is delivered twice at the same moment (Celery redelivery).
    row = InboundMessage.objects.create(message_id="<twice@client.example>", raw=raw, mail_from=ana.email,
                                        rcpt_to=to)
    barrier = threading.Barrier(2)
    results: list[str] = []

    def worker() -> None:
        try:
            barrier.wait()
            results.append(mail_services.do_process_inbound(row.pk))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == ["applied", "applied"]
    assert mail_services.do_process_inbound(row.pk) == "applied"
    assert Move.objects.filter(game=bids_game).count() == 1


def test_it_never_logs_seat_tokens(bids_game: Game, ana: Persona, caplog: pytest.LogCaptureFixture) -> None:
    import logging

    logging.getLogger("mail.log").setLevel(logging.DEBUG)
    try:
        with caplog.at_level(logging.DEBUG):
            card = hand(bids_game, 0)[0]
            ana.reply(ana.latest(), f"c{card}")
    finally:
        logging.getLogger("mail.log").setLevel(logging.WARNING)
    token = str(ana.latest()["Reply-To"]).split("@")[0].removeprefix("seat-")
    assert caplog.records, "the SMTP session should have logged something at DEBUG"
    assert token not in caplog.text
    assert "seat-XXXX@" in caplog.text


def test_it_answers_once_and_stops_when_judging_hits_a_bug(bids_game: Game, ana: Persona,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    from tests import fakegame

    def buggy(*args: object) -> None:
        raise ZeroDivisionError("a bug in the rules")

    # Why a patch: the point is an unexpected bug, which no real game has on cue.
    monkeypatch.setattr(fakegame.RULES, "_parse", buggy)
    before = len(sent_messages())
    ana.reply(ana.latest(), "c1")
    row = only_row()
    assert row.status == InboundMessage.Status.REJECTED
    assert row.result == "internal error: ZeroDivisionError"
    new = new_mails_since(before)
    assert [str(m["To"]) for m in new] == [ana.email]
    assert "Something went wrong on our side" in text_of(new[0])
    assert mail_services.do_process_inbound(row.pk) == "rejected"  # a redelivery does nothing more
    assert len(sent_messages()) == before + 1
    assert "a bug in the rules" in caplog.text
    assert seat_of(bids_game, ana).token not in caplog.text
