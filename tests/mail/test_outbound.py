"""Mail out: what a player's mail holds and hides, threading, pictures, mail modes, digests, sending."""

from __future__ import annotations

import copy
import re
import threading
from datetime import timedelta

import pytest
import time_machine
from django.core import mail as django_mail
from django.db import connections
from django.utils import timezone

import engine
from engine.rng import Rng, seed_to_state
from pbem.games import links, moderation
from pbem.games import services as game_services
from pbem.games.models import Game, OutboundMessage, Player, Seat, pending_of
from pbem.games.services import Command
from pbem.mail import outbox, sending
from pbem.mail import services as mail_services
from tests.mail.conftest import Persona, html_of, seat_of, sent_messages, start_game, text_of

pytestmark = pytest.mark.django_db(transaction=True)


def play(game: Game, person: Persona, seat: int) -> None:
    """One legal move through the service (these tests are about what comes out)."""
    game.refresh_from_db()
    rules = engine.get(game.rules)
    assert game.state is not None
    opt = rules.options(game.state, seat)[0]
    game_services.do_submit_moves(game.pk, person.player, [Command(code=opt.code)], source="web")


def test_it_threads_every_mail_of_a_game(bids_game: Game, ana: Persona, bruno: Persona, carla: Persona) -> None:
    play(bids_game, ana, 0)
    play(bids_game, bruno, 1)
    root = outbox.thread_id(bids_game)
    ids = []
    for person in (ana, bruno, carla):
        box = person.inbox()
        assert len(box) >= 3
        topic = f"[pbem #{bids_game.pk}] {bids_game.title}"
        for m in box:
            # the subject says what the mail is after the game's topic; the topic threads (Outlook)
            assert str(m["Subject"]).startswith(f"{topic}: ") and m["Thread-Topic"] == topic
            assert m["In-Reply-To"] == root
            assert root in str(m["References"])
            ids.append(str(m["Message-ID"]))
    assert len(set(ids)) == len(ids), "every mail has its own Message-ID"
    assert all(re.fullmatch(rf"<pbem\.g{bids_game.pk}\.v\d+\.[0-9a-f]+@pbem\.localhost>", i) for i in ids)


def test_it_keeps_the_same_message_id_when_a_row_is_sent_again(bids_game: Game, ana: Persona) -> None:
    row = OutboundMessage.objects.filter(to_email=ana.email).latest("pk")
    first = sending.build_message(row).message()["Message-ID"]
    assert sending.build_message(row).message()["Message-ID"] == first == row.headers["Message-ID"]


def test_it_shows_no_other_players_address_or_token(bids_game: Game, ana: Persona, bruno: Persona,
                                                    carla: Persona) -> None:
    play(bids_game, ana, 0)
    play(bids_game, carla, 2)
    people = (ana, bruno, carla)
    tokens = {p.email: seat_of(bids_game, p).token for p in people}
    for person in people:
        for m in person.inbox():
            raw = m.as_bytes()
            assert str(m["To"]) == person.email
            assert "Cc" not in m and "Bcc" not in m
            for other in people:
                if other is person:
                    continue
                assert other.email.encode() not in raw, f"{other.email} visible to {person.email}"
                assert tokens[other.email].encode() not in raw
            assert str(m["Reply-To"]) == f"seat-{tokens[person.email]}@pbem.localhost"


def test_it_marks_everything_it_sends_as_automatic(bids_game: Game, ana: Persona, bruno: Persona) -> None:
    bruno.reply(bruno.latest(), "nonsense")  # a rejection reply
    ana.send_to("pbem@pbem.localhost", "help")  # an account command reply
    messages = sent_messages()
    assert len(messages) >= 5
    for m in messages:
        assert m["Auto-Submitted"] == "auto-generated"
        assert str(m["From"]) == "pbem <pbem@pbem.localhost>"


def test_it_sends_text_html_with_svg_and_a_valid_png(bids_game: Game, ana: Persona) -> None:
    m = ana.latest()
    text = text_of(m)
    assert text.startswith("-- reply above this line --")
    assert "It is your turn in game" in text
    assert "Your options:" in text
    assert re.search(r"^\s+c\d+\s+bid \d+$", text, re.M)
    assert re.search(r"^Your game page \(your personal link, do not share it\): http://pbem\.test/p/\S+/$", text, re.M)
    html = html_of(m)
    assert "<svg" not in html, "the picture is attached small, not drawn inline at full weight"
    assert "<td" in html and "bid " in html
    images = [p for p in m.walk() if p.get_content_type() == "image/png"]
    assert len(images) == 1
    png = images[0].get_content()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert images[0]["Content-ID"] == "<board>"
    assert images[0].get_filename() == f"board-{bids_game.pk}.png"


def test_it_sends_the_png_for_maretta_too(ana: Persona, bruno: Persona, carla: Persona) -> None:
    start_game("maretta", [ana, bruno, carla])
    m = ana.latest()
    png = next(p for p in m.walk() if p.get_content_type() == "image/png").get_content()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) > 1000
    assert len(png) <= sending.PNG_MAX_BYTES


def test_it_honours_only_my_turn(blindbids: str, ana: Persona, bruno: Persona, carla: Persona) -> None:
    game = start_game(blindbids, [ana, bruno, carla])
    assert bruno.player.mail_mode == Player.MailMode.MY_TURN, "the default"
    assert "Mail mode: turns." in text_of(bruno.latest()), "the first mail says how mail works"
    n = len(bruno.inbox())
    play(game, ana, 0)  # Bruno still has to bid, with the options his mail shows: no second mail
    assert len(bruno.inbox()) == n
    play(game, bruno, 1)  # now Bruno waits for Carla: no mail for him
    assert len(bruno.inbox()) == n
    assert len(ana.inbox()) == 1  # only the start: nothing new waits for her yet
    play(game, carla, 2)  # the bids are revealed, a new round asks everyone: one mail each
    assert len(ana.inbox()) == 2 and len(bruno.inbox()) == n + 1
    assert "Since your last mail:" in text_of(bruno.latest())


def test_it_sends_daily_digests_instead_of_every_move(blindbids: str, ana: Persona, bruno: Persona,
                                                      carla: Persona) -> None:
    game = start_game(blindbids, [ana, bruno, carla])
    game_services.do_update_preferences(carla.player, mail_mode=Player.MailMode.DIGEST)
    n = len(carla.inbox())
    play(game, ana, 0)
    play(game, bruno, 1)
    assert len(carla.inbox()) == n
    start = timezone.now()
    with time_machine.travel(start + timedelta(hours=25), tick=False):
        assert mail_services.do_send_digests() == 1
        digest = carla.latest()
        body = text_of(digest)
        assert body.startswith("-- reply above this line --\n\nYour daily digest.")
        assert "Ana bids face down" in body and "Bruno bids face down" in body
        assert "Your options:" in body
        assert mail_services.do_send_digests() == 0, "nothing new since the digest"
    with time_machine.travel(start + timedelta(hours=26), tick=False):
        play(game, carla, 2)  # the round ends: news again, but the last digest is fresh
        assert mail_services.do_send_digests() == 0
    with time_machine.travel(start + timedelta(hours=50), tick=False):
        assert mail_services.do_send_digests() == 1
        assert "Bids revealed" in text_of(carla.latest())


def test_it_gives_a_player_the_same_mail_whatever_they_cannot_see(blindbids: str, ana: Persona, bruno: Persona,
                                                                  carla: Persona) -> None:
    _assert_hidden_information_stays_hidden(blindbids, [ana, bruno, carla], {})


def test_it_gives_a_maretta_player_the_same_mail_whatever_they_cannot_see(ana: Persona, bruno: Persona,
                                                                          carla: Persona) -> None:
    _assert_hidden_information_stays_hidden("maretta", [ana, bruno, carla], {})


def _assert_hidden_information_stays_hidden(rules_name: str, people: list[Persona], options: dict) -> None:
    """Two games equal in all Ana can see but dealt differently elsewhere: Ana's mails are identical."""
    rules = engine.get(rules_name)
    # Mode "all": Ana is mailed after her own move too, so there is a mail to compare.
    first = start_game(rules_name, people, options=options, mail_mode=Player.MailMode.EVERY_MOVE)
    second = start_game(rules_name, people, options=options, mail_mode=Player.MailMode.EVERY_MOVE)
    assert first.state is not None
    other = rules.resample_hidden(copy.deepcopy(first.state), 0, Rng({"rng": seed_to_state("other deal")}))
    assert other != first.state, "the resample must change something hidden"
    Game.objects.filter(pk=second.pk).update(state=other, pending_seats=pending_of(rules_name, other))
    second.refresh_from_db()
    # The start mails came from each game's own deal; compare only what follows the swap.
    cutoff = OutboundMessage.objects.latest("pk").pk
    # A move by Ana herself (the same option in both), then mails for both games.
    for game in (first, second):
        assert game.state is not None
        opt = rules.options(game.state, 0)[0]
        game_services.do_submit_moves(game.pk, people[0].player, [Command(code=opt.code)], source="web")

    def normalise(game: Game, text: str) -> str:
        # Why a word boundary: game #2 must not turn the colour #222 into "#N22".
        text = re.sub(rf"#{game.pk}\b", "#N", text).replace(f"/games/{game.pk}/", "/games/N/")
        seat = Seat.objects.get(game=game, index=0)
        text = text.replace(links.seat_page_token(seat), "LINK")
        return text.replace(game.seed_hash, "HASH")

    bodies: list[list[str]] = []
    for game in (first, second):
        game.refresh_from_db()
        rows = OutboundMessage.objects.filter(game=game, to_email=people[0].email, pk__gt=cutoff).order_by("pk")
        made = [sending.bodies(r) for r in rows]  # composed from each row's stored content, as sent
        bodies.append([normalise(game, m.text) + normalise(game, m.html) + m.svg for m in made])
    assert len(bodies[0]) == len(bodies[1]) >= 1
    assert bodies[0] == bodies[1]


# ---- sending -------------------------------------------------------------------------------------


def _pending_row(ana: Persona) -> OutboundMessage:
    return OutboundMessage.objects.create(to_email=ana.email, subject="hello", body_text="hi",
                                          headers={"Message-ID": "<t1@pbem.localhost>"})


@pytest.mark.postgres  # SQLite's in-memory test database has no waiting locks
def test_it_sends_a_row_once_when_two_senders_race(ana: Persona) -> None:
    row = _pending_row(ana)
    barrier = threading.Barrier(2)
    results: list[bool] = []

    def sender() -> None:
        try:
            barrier.wait()
            results.append(sending.do_send_outbound(row.pk))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=sender) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False, True]
    assert len(django_mail.outbox) == 1
    row.refresh_from_db()
    assert row.status == OutboundMessage.Status.SENT
    assert row.attempts == 1


def test_it_resends_a_stuck_row_exactly_once(ana: Persona) -> None:
    row = _pending_row(ana)
    long_ago = timezone.now() - sending.STUCK_AFTER - timedelta(minutes=1)
    # A worker claimed it and died before sending.
    OutboundMessage.objects.filter(pk=row.pk).update(status=OutboundMessage.Status.SENDING, claimed_at=long_ago,
                                                     attempts=1)
    assert sending.do_requeue_stuck() == 1
    assert sending.do_requeue_stuck() == 0
    assert sending.do_send_outbound(row.pk) is False
    assert len(django_mail.outbox) == 1
    row.refresh_from_db()
    assert row.status == OutboundMessage.Status.SENT
    assert row.attempts == 2


def test_it_leaves_a_recent_claim_alone(ana: Persona) -> None:
    row = _pending_row(ana)
    OutboundMessage.objects.filter(pk=row.pk).update(status=OutboundMessage.Status.SENDING,
                                                     claimed_at=timezone.now(), attempts=1)
    assert sending.do_requeue_stuck() == 0
    assert len(django_mail.outbox) == 0


def test_it_retries_a_failed_send_with_backoff_then_gives_up_only_when_old(ana: Persona, settings) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = 9  # discard: nothing listens, the connection is refused
    settings.EMAIL_TIMEOUT = 2
    row = _pending_row(ana)
    with pytest.raises(OSError):
        sending.do_send_outbound(row.pk)
    row.refresh_from_db()
    assert row.status == OutboundMessage.Status.PENDING
    assert row.attempts == 1
    assert "Error" in row.last_error
    # The sweeper waits for the backoff before trying again.
    assert row.claimed_at is not None
    sending.do_requeue_stuck(now=row.claimed_at + sending.backoff(1) - timedelta(seconds=1))
    row.refresh_from_db()
    assert row.attempts == 1
    sending.do_requeue_stuck(now=row.claimed_at + sending.backoff(1) + timedelta(seconds=1))
    row.refresh_from_db()
    assert row.attempts == 2
    # Many attempts (a long relay outage) never give a deliverable mail up, nor space them out.
    OutboundMessage.objects.filter(pk=row.pk).update(attempts=40)
    with pytest.raises(OSError):
        sending.do_send_outbound(row.pk)
    row.refresh_from_db()
    assert row.status == OutboundMessage.Status.PENDING
    assert sending.backoff(row.attempts) <= timedelta(minutes=2)
    # Only a mail older than the give-up age is failed, at its next failed attempt.
    OutboundMessage.objects.filter(pk=row.pk).update(created_at=timezone.now() - sending.GIVE_UP_AFTER
                                                     - timedelta(minutes=1))
    with pytest.raises(OSError):
        sending.do_send_outbound(row.pk)
    row.refresh_from_db()
    assert row.status == OutboundMessage.Status.FAILED
    assert sending.do_send_outbound(row.pk) is False


def test_it_sends_pending_rows_whose_task_was_lost(ana: Persona) -> None:
    row = _pending_row(ana)
    OutboundMessage.objects.filter(pk=row.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    sending.do_requeue_stuck()
    row.refresh_from_db()
    assert row.status == OutboundMessage.Status.SENT
    assert len(django_mail.outbox) == 1


def test_it_mails_the_new_player_of_a_replaced_seat(bids_game: Game, mallory: Persona) -> None:
    newcomer = game_services.do_get_or_create_player(mallory.email)
    moderation.do_replace_player(bids_game.pk, None, 1, newcomer, "Bruno vanished")
    m = mallory.latest()
    assert "It is your turn" in text_of(m)
    assert str(m["Reply-To"]) == f"seat-{Seat.objects.get(game=bids_game, index=1).token}@pbem.localhost"


def test_it_delivers_into_the_local_maildir_by_default(blindbids: str, ana: Persona, bruno: Persona,
                                                       tmp_path, settings) -> None:
    import email.policy
    import mailbox

    settings.EMAIL_BACKEND = "pbem.mail.maildir.MaildirBackend"
    settings.PBEM_MAILDIR = tmp_path / "var" / "maildir"  # not there yet: made on first delivery
    start_game(blindbids, [ana, bruno])
    box = mailbox.Maildir(str(settings.PBEM_MAILDIR), factory=None, create=False)
    messages = [email.message_from_bytes(box.get_bytes(key), policy=email.policy.default) for key in box.iterkeys()]
    turns = [m for m in messages if "It is your turn" in text_of(m)]
    assert len(messages) == 3  # Bruno's invitation, then both start mails
    assert sorted(str(m["To"]) for m in turns) == sorted([ana.email, bruno.email])
    for m in turns:
        png = next(p for p in m.walk() if p.get_content_type() == "image/png").get_content()
        assert png.startswith(b"\x89PNG\r\n\x1a\n")


def test_it_tells_a_resigned_player_how_the_game_ended(blindbids: str, ana: Persona, bruno: Persona) -> None:
    game = start_game(blindbids, [ana, bruno], options={"rounds": 1})
    game_services.do_resign(game.pk, bruno.player)
    n = len(bruno.inbox())
    play(game, ana, 0)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert len(bruno.inbox()) == n + 1
    assert "is over" in text_of(bruno.latest())
