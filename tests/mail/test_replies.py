"""Replies as mail programs write them, over the real SMTP socket: join, moves, sign-offs, names, modes.

The reply bodies come from tests/mail/clients.py (Thunderbird, Outlook, Gmail, Apple Mail,
mutt, K-9, a Portuguese webmail; top-posted, bottom-posted and interleaved), each built
around the very mail the server sent.
"""

from __future__ import annotations

import pytest

from pbem.games import services as game_services
from pbem.games.models import Game, InboundMessage, Move, Player, Seat
from tests.mail import clients
from tests.mail.conftest import Persona, SmtpServer, sent_messages, start_game, text_of

pytestmark = pytest.mark.django_db(transaction=True)

GENERAL = "pbem@pbem.localhost"


def hand(game: Game, seat: int) -> list[int]:
    game.refresh_from_db()
    assert game.state is not None
    return list(game.state["hands"][seat])


def last_row() -> InboundMessage:
    row = InboundMessage.objects.order_by("-pk").first()
    assert row is not None
    return row


@pytest.mark.parametrize("style", sorted(clients.STYLES))
def test_it_applies_a_move_however_the_mail_program_wrote_the_reply(style: str, bids_game: Game,
                                                                     bruno: Persona) -> None:
    card = hand(bids_game, 1)[0]
    bruno.reply(bruno.latest(), f"c{card}", style=style)
    assert last_row().status == InboundMessage.Status.APPLIED, last_row().result
    assert list(Move.objects.filter(game=bids_game).values_list("seat", "move")) == [(1, {"code": f"c{card}"})]


@pytest.mark.parametrize("style", clients.BOTTOM_POSTED)
def test_it_takes_a_bottom_posted_join(style: str, blindbids: str, ana: Persona, bruno: Persona) -> None:
    ana.send_to(GENERAL, f"new blindbids with {bruno.email}")
    game = Game.objects.get()
    bruno.reply(bruno.latest(), "join", style=style)
    assert Seat.objects.get(game=game, player__email=bruno.email).status == Seat.Status.JOINED
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert "Reply with the word join" not in "".join(text_of(m) for m in bruno.inbox())


def test_it_still_refuses_a_bottom_posted_reply_that_holds_only_the_quote(bids_game: Game, bruno: Persona) -> None:
    before = len(sent_messages())
    bruno.reply(bruno.latest(), "", style="thunderbird_bottom")
    assert last_row().status == InboundMessage.Status.REJECTED
    assert not Move.objects.filter(game=bids_game).exists()
    assert "I found no command" in text_of(sent_messages()[before])


# ---- names ---------------------------------------------------------------------------------


def test_it_names_a_player_created_by_mail_after_the_from_display_name(blindbids: str, bruno: Persona,
                                                                       smtp_server: SmtpServer) -> None:
    anna = Persona("anna.s1r1@example.org", "Anna Silva", smtp_server)
    anna.send_to(GENERAL, f"new blindbids with {bruno.email}")
    assert Player.objects.get(email=anna.email).display_name == "Anna Silva"
    assert "Anna Silva invites you" in text_of(bruno.latest())


def test_it_names_an_invited_player_after_their_from_name_when_they_answer(blindbids: str, ana: Persona,
                                                                           bruno: Persona) -> None:
    ana.send_to(GENERAL, f"new blindbids with {bruno.email}")
    assert not Player.objects.filter(email=bruno.email).exists()  # no account before it answers
    bruno.reply(bruno.latest(), "join", style="thunderbird_bottom")
    game = Game.objects.get()
    assert game.state is not None and game.state["players"] == ["Ana", "Bruno"]


def test_it_keeps_a_chosen_name_whatever_the_from_says(bids_game: Game, bruno: Persona) -> None:
    game_services.do_update_preferences(bruno.player, display_name="Captain Bruno")
    bruno.reply(bruno.latest(), f"c{hand(bids_game, 1)[0]}")
    assert Player.objects.get(email=bruno.email).display_name == "Captain Bruno"


def test_it_makes_names_unique_within_a_game(blindbids: str, smtp_server: SmtpServer) -> None:
    annas = [Persona(f"anna@{d}.example", "anna", smtp_server) for d in ("one", "two", "three")]
    game = start_game(blindbids, annas)
    assert game.state is not None and game.state["players"] == ["anna", "anna B", "anna C"]
    body = text_of(annas[1].latest())
    assert "You are anna B. Players: anna, anna B, anna C." in body


def test_it_renames_a_player_by_mail_in_their_running_games(bids_game: Game, ana: Persona, bruno: Persona) -> None:
    ana.send_to(GENERAL, "name Ana Maria Silva")
    assert "Your name is now Ana Maria Silva" in text_of(ana.latest())
    bids_game.refresh_from_db()
    assert bids_game.state is not None and bids_game.state["players"][0] == "Ana Maria Silva"
    bruno.reply(bruno.latest(), f"c{hand(bids_game, 1)[0]}")
    assert "Players: Ana Maria Silva, Bruno, Carla." in text_of(bruno.latest())


def test_it_takes_a_name_in_a_reply_to_a_game_mail_without_making_a_move(bids_game: Game, carla: Persona) -> None:
    version = bids_game.version
    carla.reply(carla.latest(), "name Carla Mendes", style="gmail_top")
    body = text_of(carla.latest())
    assert "done: Your name is now Carla Mendes" in body and "No move was made" in body
    bids_game.refresh_from_db()
    assert bids_game.version == version and not Move.objects.filter(game=bids_game).exists()
    assert bids_game.state is not None and bids_game.state["players"][2] == "Carla Mendes"


@pytest.mark.parametrize(("line", "why"), [("name R2D2", "cannot hold digits"), ("name", "Your name is Ana"),
                                           ("name bob@example.org", "cannot be an address")])
def test_it_answers_a_name_it_does_not_take(line: str, why: str, bids_game: Game, ana: Persona) -> None:
    ana.send_to(GENERAL, line)
    assert why in text_of(ana.latest())
    assert Player.objects.get(email=ana.email).display_name == "Ana"


# ---- mail modes ----------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "mode"), [("mode digest", "digest"), ("mail turns", "turn"), ("Mode all", "every"),
                                            ("mode my turn", "turn"), ("mail daily", "digest")])
def test_it_sets_the_mail_mode_by_mail(line: str, mode: str, ana: Persona) -> None:
    ana.send_to(GENERAL, line)
    assert Player.objects.get(email=ana.email).mail_mode == mode
    assert f"done: Your mail mode is now {mode}" in text_of(ana.latest())


def test_it_sets_the_mail_mode_in_a_reply_to_a_game_mail(bids_game: Game, bruno: Persona) -> None:
    bruno.reply(bruno.latest(), "mode digest", style="thunderbird_bottom")
    assert Player.objects.get(email=bruno.email).mail_mode == "digest"
    assert not Move.objects.filter(game=bids_game).exists()


def test_it_refuses_an_unknown_mail_mode(ana: Persona) -> None:
    ana.send_to(GENERAL, "mode sometimes")
    assert "not done: mode takes turn, all or digest" in text_of(ana.latest())


# ---- sign-offs -----------------------------------------------------------------------------


@pytest.mark.parametrize(("style", "signoff"), [("gmail_top", "Thanks!"), ("thunderbird_bottom", "Cheers, Anna"),
                                                ("outlook_top", "Obrigado,\nBruno"), (None, "thx")])
def test_it_ignores_a_sign_off_after_a_complete_move_and_says_so(style: str | None, signoff: str, bids_game: Game,
                                                                 bruno: Persona) -> None:
    card = hand(bids_game, 1)[0]
    before = len(sent_messages())
    bruno.reply(bruno.latest(), f"c{card}\n{signoff}", style=style)
    assert last_row().status == InboundMessage.Status.APPLIED, last_row().result
    assert list(Move.objects.filter(game=bids_game).values_list("move", flat=True)) == [{"code": f"c{card}"}]
    answers = [text_of(m) for m in sent_messages()[before:] if str(m["To"]) == bruno.email]
    said = "\n".join(answers)
    for line in signoff.splitlines():
        assert f"ignored: {line}" in said
    assert f"bid {card}" in said


def test_it_still_refuses_a_second_move_after_a_complete_one(bids_game: Game, ana: Persona) -> None:
    first, second = hand(bids_game, 0)[:2]
    ana.reply(ana.latest(), f"c{first}\nc{second}\nThanks!")
    assert last_row().status == InboundMessage.Status.REJECTED
    assert not Move.objects.filter(game=bids_game).exists()
    assert f"Line 2 of 3: c{second}" in text_of(ana.latest())


def test_it_never_ignores_the_first_line(bids_game: Game, ana: Persona) -> None:
    ana.reply(ana.latest(), "Thanks!\nCheers")
    assert last_row().status == InboundMessage.Status.REJECTED
    assert "ignored:" not in text_of(ana.latest())
