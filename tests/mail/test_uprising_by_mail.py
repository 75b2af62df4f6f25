"""A competitive game of Maracaibo: The Uprising (``mode=78``: Home Ports, Resistance Tiles and the
Uprising) played only by mail over a real SMTP socket.

The game is set up by mail (``new maracaibo with ... mode=78`` to the general address, ``join`` in
reply to the invitation) and played to the end (one round) by the captains of the base game's mail
test, each answering their newest mail from its listed options (whole turns in one mail, village
actions where a village is in reach). The
home port is dealt (three ports, one kept) before the base game's setup choice; the kept port stays
hidden from the others until every player has chosen, then every board shows it.
"""

from __future__ import annotations

import random
import re

import pytest

from engine.games.maracaibo import uprising_content as U
from pbem.games.models import Game, Move
from tests.mail.conftest import Persona, SmtpServer, seat_of, text_of
from tests.mail.test_maracaibo_by_mail import Captain
from tests.mail.test_maretta_by_mail import GENERAL, Player, is_game_over, play_until_over

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _flat(text: str) -> str:
    """The mail's words on one line (the text wraps its lines at 76 columns)."""
    return " ".join(text.split())


def _without_map(flat: str) -> str:
    """The mail without its map (THE CARIBBEAN ... EXPLORER TRACK) and its list of the places in
    the ship's reach (WHERE YOUR SHIP CAN SAIL ... "You are"): its places' names."""
    head, _, rest = flat.partition("THE CARIBBEAN")
    flat = head + rest.partition("EXPLORER TRACK")[2]
    head, found, rest = flat.partition("WHERE YOUR SHIP CAN SAIL")
    return head + (" You are " + rest.partition(" You are ")[2] if found else "")


def test_it_plays_a_complete_uprising_game_by_mail_with_home_ports_hidden_until_all_chose(
        ana: Persona, bruno: Persona, carla: Persona, smtp_server: SmtpServer) -> None:
    people = [ana, bruno, carla]
    ana.send_to(GENERAL, f"new maracaibo with {bruno.email} {carla.email} rounds=1 mode=78")
    for guest in people[1:]:
        invitation = guest.latest()
        assert "invites you to play Maracaibo" in text_of(invitation)
        guest.reply(invitation, "join")

    rnd = random.Random(78)
    players: list[Player] = [Captain(p, rnd, villages=True) for p in people]
    replies = play_until_over(players, rnd)

    game = Game.objects.get(rules="maracaibo")
    assert game.status == Game.Status.FINISHED and game.options["mode"] == "78"
    assert {m.source for m in Move.objects.filter(game=game)} == {"mail"}
    assert game.state is not None
    kept = {p.email: game.state["seats"][seat_of(game, p).index]["port"] for p in people}
    assert all(kept.values()) and len(set(kept.values())) == len(people), kept
    names = {email: U.PORT[pid]["name"] for email, pid in kept.items()}
    for p in people:
        box = p.inbox()
        texts = [_flat(text_of(m)) for m in box]
        # three ports dealt to choose from, the port kept among them
        dealt = next(t for t in texts if "Your options: hHP" in t)
        assert len(re.findall(r" hHP\d+ home port ", dealt)) == 3 and f"home port {names[p.email]}:" in dealt, dealt
        # the mail that shows every kept port ("Home ports: Ana ..., Bruno ..., Carla ...")
        shown = next(i for i, t in enumerate(texts) if "Home ports: " in t)
        assert all(f"{'you' if q is p else q.name} {names[q.email]}" in texts[shown] for q in people), texts[shown]
        # hidden until then: no mail before it names another player's kept port (the map's places
        # are left out: a port may share its name with one, e.g. Nassau)
        others = [n for e, n in names.items() if e != p.email]
        for t in texts[:shown]:
            assert not [n for n in others if n in _without_map(t)], t
        # the boards in the mails: the home port and the resistance tile
        assert any(f"home port {names[p.email]}" in t for t in texts[shown:])
        assert all(t.count("resistance tile: ") == len(people) for t in texts if "PLAYERS" in t)
        over = next(m for m in box if is_game_over(m))
        assert "Winner" in text_of(over)
    print(f"uprising mode=78 by mail, 3 players: {replies} replies")
